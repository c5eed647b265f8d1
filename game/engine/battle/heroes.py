"""Heroes and wounds in the battle (*Fudge* 4.51, 4.52, 4.64; docs/rulings.md "PC death and Fudge Points"): what
the defender's side of the blow's way reads of a figure, what it leaves on the figure after a wound, and the
Fudge Point question.

The steps themselves are the option modules' (``game.engine.heroes``, ``willpower``, ``damage_capacity``); this
part gives them each figure's facts (``defender_of``), keeps what they leave (a Fudge Point spent, a Will roll's
relief, a figure fighting on: ``after_wound``), keeps each figure's worst wound as the round began (its piece,
``heroes_state``, for 4.64's second method), and asks the question of the standing order "ask".

**The question.** A hero whose order is "ask" and whose wound is deadly is marked as the wound came (the figure
is out either way) and waits with a ``FudgeQuestion``; before any other decision, ``pending_decision`` asks his
side (``Reason.FUDGE_POINT``), heroes in the round's initiative order. Meanwhile the flow of the round waits
(``flow``: no step, no end of the battle, no next phase), so the over-check and the next round come after the
answer; the question after the round's blows is asked in the phase ``round_end``. The answer (``spend``) draws
no dice.
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import flow
from game.engine.battle.state import BattleState, Decision, Figure, FudgeQuestion, IllegalAction, Reason
from game.engine.blow_base import Defender, Harm, Target, rules_of
from game.engine.blow_step import BlowStep
from game.engine.heroes import FUDGE_ORDERS, NOT_RECORDED, bought_down, caps_heroes, deadly
from game.engine.wounds import WoundLevel, Wounds, pain_penalty

BEYOND = "beyond the track"


def round_began(b: BattleState) -> None:
    """FTC 3: a new round: each figure's worst wound as it begins (read by *Fudge* 4.64's second method)."""
    if b.options.pc_death_near_death_if_incapacitated:
        b.heroes_state.round_start = {f.id: f.wounds.worst for f in b.figures.values()}


def defender_of(b: BattleState, fig: Figure) -> Defender:
    """What the defender's side of a blow reads of ``fig`` (``blow_base.Defender``), only what the battle's
    options read (so the odds' caches are shared by figures alike to them)."""
    rules = rules_of(b.options)
    hero = fig.is_hero and (caps_heroes(rules) or rules.pc_death_fudge_point)
    will = rules.willpower_vs_wounds != "off"
    return Defender(
        hero=hero,
        round_start=b.heroes_state.round_start.get(fig.id, fig.wounds.worst) if hero else None,
        fudge_points=fig.fudge_points if hero and rules.pc_death_fudge_point else 0,
        fudge_order=fig.fudge_order if hero and rules.pc_death_fudge_point else "always",
        will=fig.character.will if will or rules.damage_capacity == "will_roll" else 0,
        pain=fig.character.pain if will else "normal",
        fights_on=fig.fights_on,
        mook=will and (fig.mook or fig.character.wound_track.name == "mook"),
        capacity=fig.character.damage_capacity if rules.damage_capacity == "roll" else None,
        resilience=fig.character.resilience,
    )


def after_wound(b: BattleState, fig: Figure, target: Target, harm: Harm, steps: tuple[BlowStep, ...]) -> list[ev.Event]:
    """What a wound's defender's side leaves on the figure (its sheet is the blow's part's): a Fudge Point spent
    or a question waiting (*Fudge* 4.64), a Will roll's relief or a figure fighting on (*Fudge* 4.51)."""
    out: list[ev.Event] = []
    if harm.fudge == "spent":
        fig.fudge_points -= 1
        before = next((s.before for s in steps if s.rule == "Fudge 4.64" and "Fudge Point" in s.what), "Near Death")
        after = str(harm.marked) if harm.marked is not None else NOT_RECORDED
        out.append(ev.FudgePointSpent(fig.id, fig.fudge_points, before, after, auto=True))
    elif fig.fudge_question is not None and harm.recorded is not None:
        q = fig.fudge_question
        fig.fudge_question = FudgeQuestion(q.before, (*q.wounds, harm.recorded))
    elif harm.fudge == "ask" and harm.recorded is not None:
        fig.fudge_question = FudgeQuestion(target.sheet, (harm.recorded,))
    fig.fights_on = harm.fights_on
    if harm.will_result is not None:
        worst = fig.wounds.worst
        assert worst is not None
        if not harm.fights_on and worst < WoundLevel.INCAPACITATED:
            fig.pain_relief = (worst, harm.relief)
        penalty = pain_penalty(worst, fig.character.pain)
        out.append(
            ev.WillAgainstPain(
                fig.id, str(worst), harm.will_faces, harm.will_result, penalty, harm.relief, harm.fights_on
            )
        )
    return out


# ------------------------------------------------------------------------------------------ the question


def waiting(b: BattleState) -> list[Figure]:
    """The heroes waiting for their player's word on a Fudge Point, in the round's initiative order."""
    waiting = [f for f in b.figures.values() if f.fudge_question is not None]
    if len(waiting) < 2:  # asked at every look at the battle's next decision: most often nobody waits
        return waiting
    ranked = {fid: i for i, fid in enumerate(b.order)}
    return sorted(waiting, key=lambda f: ranked.get(f.id, len(ranked)))


def _deadly_box(q: FudgeQuestion) -> str:
    after, box = q.before.record(q.wounds[0])
    return BEYOND if len(after.beyond) > len(q.before.beyond) else str(box)


def pending_decision(b: BattleState) -> Decision | None:
    """*Fudge* 4.64: the Fudge Point question, asked before any other decision (None: nobody waits)."""
    due = waiting(b)
    if not due:
        return None
    fig = due[0]
    assert fig.fudge_question is not None
    left = fig.fudge_points
    prompt = (
        f"{fig.name} would be {_deadly_box(fig.fudge_question)}: spend a Fudge Point ({left} left) to be "
        "Incapacitated instead?"
    )
    return Decision.of(fig, Reason.FUDGE_POINT, prompt)


def spend(b: BattleState, a: act.SpendFudgePoint) -> list[ev.Event]:
    """*Fudge* 4.64: the hero's player answers: a point spent records the deadly wound as Incapacitated (or not
    at all when that box is full), a point kept lets it stand; the wounds that followed it in the same decision
    are recorded again on the sheet the answer leaves (a later deadly one may ask again). Then the round goes
    on."""
    fig = b.figure(a.figure)
    d = pending_decision(b)
    if d is None or fig.fudge_question is None:
        raise IllegalAction(f"{fig.name} has no deadly wound to spend a Fudge Point on now.")
    if d.figure != fig.id:
        raise IllegalAction(f"{d.prompt} ({b.figures[d.figure or ''].name} answers first.)")
    if a.spend and fig.fudge_points < 1:
        raise IllegalAction(f"{fig.name} has no Fudge Point left to spend.")
    q = fig.fudge_question
    fig.fudge_question = None
    out: list[ev.Event] = []
    deadly_box = _deadly_box(q)
    if a.spend:
        sheet, box = bought_down(q.before)
        fig.fudge_points -= 1
        after = str(box) if box is not None else NOT_RECORDED
        out.append(ev.FudgePointSpent(fig.id, fig.fudge_points, deadly_box, after))
    else:
        sheet, _ = q.before.record(q.wounds[0])
        out.append(ev.FudgePointKept(fig.id, deadly_box, fig.fudge_points))
    fig.wounds = _record_rest(fig, sheet, q.wounds[1:], out)
    if not waiting(b) and not flow.check_over(b, out):
        out.extend(flow.step(b))
    return out


def _record_rest(fig: Figure, sheet: Wounds, rest: tuple[WoundLevel, ...], out: list[ev.Event]) -> Wounds:
    """The wounds that followed the deadly one, recorded again in order on the sheet the answer left; a deadly one
    among them spends a point at once under "always", asks again under "ask"."""
    for i, level in enumerate(rest):
        after, box = sheet.record(level)
        if deadly(sheet, after, box) and fig.is_hero and fig.fudge_points > 0 and fig.fudge_order != "never":
            if fig.fudge_order == "ask":
                fig.fudge_question = FudgeQuestion(sheet, rest[i:])
                return after
            shown = BEYOND if len(after.beyond) > len(sheet.beyond) else str(box)
            after, kept = bought_down(sheet)
            fig.fudge_points -= 1
            out.append(ev.FudgePointSpent(fig.id, fig.fudge_points, shown, str(kept or NOT_RECORDED), auto=True))
        sheet = after
    return sheet


def set_order(b: BattleState, a: act.SetFudgePointOrder) -> list[ev.Event]:
    """*Fudge* 4.64: a hero's standing order for spending a Fudge Point (``heroes.FUDGE_ORDERS``)."""
    fig = b.ordered(a.figure, a.order, FUDGE_ORDERS, "A Fudge Point order")
    fig.fudge_order = a.order
    return [ev.FudgePointOrderSet(fig.id, a.order)]


def gm_set_points(b: BattleState, a: gm.SetFudgePoints) -> list[ev.Event]:
    """*Fudge* 4.64, 4.1: the GM sets a figure's Fudge Points."""
    fig = b.figure(a.figure)
    before = fig.fudge_points
    fig.fudge_points = a.points
    return [
        ev.GMActed(
            a.kind,
            f"sets {{0}}'s Fudge Points: {a.points}",
            (fig.id,),
            a.reason,
            f"changes {{0}}'s Fudge Points: {before} → {a.points}",
        )
    ]


__all__ = [
    "BEYOND",
    "after_wound",
    "defender_of",
    "gm_set_points",
    "pending_decision",
    "round_began",
    "set_order",
    "spend",
    "waiting",
]
