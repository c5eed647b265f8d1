"""The attack phase (FTC 6, 6.1, 6.2): its decisions and its course, from the first declaration to the
round's resolution.

Who declares now (``decision``); a declaration checked and made (``declare``: its weapon part here and in
``declarations``, its spell part in ``spells``), a second move (``second_move``, made by
``movement_phase``), and after each decision the phase's next step (``advance``: the reveal of secret
stances, then the phase's end, ``resolution``). This part owns no state: the declarations are
``declarations``'.
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import blow_options, declarations, flow, movement_phase, reach, spells
from game.engine.battle.state import BattleState, Decision, Declaration, Figure, IllegalAction, Reason
from game.engine.combat import Stance
from game.engine.odds import AIMS


def decision(b: BattleState) -> Decision:
    """FTC 6.1, 6.2: who decides now in the attack phase: an attacker offered the follow step, else the
    next figure to declare."""
    follow = declarations.next_to_follow(b)
    if follow is not None:
        fid, vacated = follow
        fig = b.figures[fid]
        return Decision.of(
            fig, Reason.FOLLOW, f"{fig.name}'s target retreats: step forward to follow?", follow_hex=vacated
        )
    fid = declarations.to_declare(b)[0]
    fig = b.figures[fid]
    return Decision.of(fig, Reason.DECLARE, f"{fig.name} declares an attack, a defence, or a second move.")


def begin(b: BattleState) -> list[ev.Event]:
    """FTC 6: the attack phase begins: the figures declare in reverse initiative order; when none can, the
    round's attacks are resolved at once."""
    declarations.begin(b)
    out: list[ev.Event] = [ev.PhaseBegan(b.round, "attack")]
    out.extend(spells.attack_phase_began(b))
    if not declarations.to_declare(b):
        out.extend(flow.end(b))
    return out


def advance(b: BattleState) -> list[ev.Event]:
    """After each decision of the attack phase: once every figure has declared (and chosen whether to
    follow), the secret stances are revealed (*Fudge* 4.32: 1-second spells first, then the steps), and
    the round's attacks are resolved (the phase's end)."""
    if declarations.waiting(b):
        return []
    out: list[ev.Event] = []
    if declarations.reveal(b):
        out.append(ev.Revealed())
        for d in declarations.declarations(b).values():
            out.append(declared(d))
        for d in list(declarations.declarations(b).values()):
            # 1-second spells first, in the order declared: each was declared before any step was seen
            if d.pending_cast and b.figures[d.figure].can_act:
                out.extend(spells.cast_at_once(b, b.figures[d.figure], d))
        for d in list(declarations.declarations(b).values()):
            # a figure taken out or held fast since it declared makes no step at the reveal
            if (d.pending_steps or d.pending_retreat is not None) and b.figures[d.figure].can_act:
                out.extend(declarations.take_steps(b, b.figures[d.figure], d, d.pending_steps, d.pending_retreat))
        if declarations.next_to_follow(b) is not None:
            return out
    out.extend(flow.end(b))
    return out


def declared(d: Declaration, *, hidden: bool = False) -> ev.Declared:
    """The ``Declared`` event of a declaration (hidden under secret stances until the reveal, *Fudge* 4.32)."""
    return ev.Declared(
        d.figure, d.stance, d.targets, d.dodge, d.weapon, d.second_move, hidden, d.stun, d.max_wound, d.ignore
    )


def declare_options(b: BattleState, fid: str) -> dict[str, object]:
    """What a figure may declare now: weapons with their targets, stances, retreat hexes (for the UI/AI)."""
    fig = b.figure(fid)
    weapons = {
        w.name: declarations.targets_for(b, fid, w) for w in fig.character.weapons or (fig.character.ready_weapon,)
    }
    retreats = declarations.retreat_hexes(b, fid)
    stances = [s.value for s in Stance if not (s.retreat == "must" and not retreats)]
    firers = [e.id for e in b.enemies_of(fig) if any(w.ranged for w in e.character.weapons) or reach.casts_bolts(e)]
    options: dict[str, object] = {"weapons": weapons, "stances": stances, "retreats": retreats, "firers": firers}
    options.update(spells.declare_options(b, fig))
    return blow_options.restrict(b, fig, options)  # Fudge 4.62: a stunned figure neither attacks nor casts


def check_declarer(b: BattleState, fid: str, kind: str) -> Figure:
    """The figure whose turn it is to declare, when ``kind`` is allowed now; ``IllegalAction`` otherwise."""
    d = movement_phase.pending_decision(b) or decision(b)
    if kind not in d.kinds:
        raise IllegalAction(f"Now is not the time for that: {d.prompt}")
    if d.figure != fid:
        raise IllegalAction(f"It is {b.figures[d.figure or ''].name}'s turn to declare.")
    return b.figure(fid)


def declare(b: BattleState, a: act.Declare) -> list[ev.Event]:
    """FTC 6.1, 6.2, 8: a figure declares its stance, target, weapon, dodges, advance or retreat, or the
    spell it casts; under secret stances its steps wait for the reveal (*Fudge* 4.32)."""
    fig = check_declarer(b, a.figure, "declare")
    # Fudge 4.62, 4.34: a stunned figure's declaration, a stun, a pulled blow, a sweep, ignored enemies
    blow_options.check(b, fig, a, reach.weapon_of(fig, a.weapon))
    plan = spells.check_declaration(b, fig, a)
    try:
        stance = Stance(a.stance)
    except ValueError:
        raise IllegalAction(
            f"Unknown stance {a.stance!r}; choose one of {', '.join(s.value for s in Stance)}."
        ) from None
    weapon = reach.weapon_of(fig, a.weapon)
    if a.aim not in AIMS:
        raise IllegalAction(f"Aim at one of {', '.join(AIMS)} (FTC 6.6), not {a.aim!r}.")
    enemies = {e.id for e in b.enemies_of(fig)}
    for t in a.targets:
        if t not in enemies:
            raise IllegalAction(f"{b.figure(t).name} is not an enemy able to fight.")
    for firer in a.dodge:
        if firer not in enemies or not (
            any(w.ranged for w in b.figures[firer].character.weapons) or reach.casts_bolts(b.figures[firer])
        ):
            raise IllegalAction(f"{b.figure(firer).name} is not an enemy missile firer or caster.")
    # advance (aggressive stances trade attack bonus for steps, FTC 6.2)
    positions = [(fig.hex, fig.facing)]
    if a.advance:
        if len(a.advance) > stance.max_advance:
            raise IllegalAction(
                f"A {stance.display_name.lower()} stance allows at most {stance.max_advance} hex(es) of advance."
            )
        if not a.targets:
            raise IllegalAction("An advance must bring the figure to the enemy it attacks.")
        positions.extend(declarations.advance_positions(b, fig.id, a.advance, a.advance_facing))
    for t in a.targets:  # each an enemy able to fight (checked above)
        if not declarations.can_strike(b, fig, b.figures[t], weapon, positions):
            raise IllegalAction(f"{b.figures[t].name} is out of reach of {fig.name}'s {weapon.name}.")
    # retreat (defensive stances, FTC 6.2)
    retreat_ok = declarations.retreat_hexes(b, fig.id)
    if stance.retreat == "must" and a.retreat is None:
        raise IllegalAction(
            "A very defensive stance must retreat one hex"
            + (" — and no hex leads away from every attacker." if not retreat_ok else ".")
        )
    if a.retreat is not None:
        if stance.retreat == "none":
            raise IllegalAction("Only a defensive stance may retreat.")
        if a.retreat not in retreat_ok:
            raise IllegalAction("A retreat goes to a free adjacent hex farther from every attacker.")
        if a.advance:
            raise IllegalAction("A figure cannot both advance and retreat.")
    # all checks passed: carry it out
    secret = b.options.secret_stances
    steps = tuple(positions[1:])
    decl = Declaration(
        fig.id,
        stance.value,
        tuple(a.targets),
        weapon.name,
        tuple(a.dodge),
        advance_used=sum(1 for _ in a.advance),
        aim=a.aim,
        # the steps would show the stance: under secret stances they wait for the reveal (Fudge 4.32)
        pending_steps=steps if secret else (),
        pending_retreat=a.retreat if secret else None,
        pending_cast=spells.resolves_at_reveal(b, plan),
        spell=plan[0].name if plan is not None else None,
        spell_target=plan[1] if plan is not None else None,
        spell_hex=plan[2] if plan is not None else None,
        stun=a.stuns,
        max_wound=a.most_wound,
        ignore=a.ignoring,
    )
    declarations.record(b, decl)
    out: list[ev.Event] = [declared(decl, hidden=secret)]
    out.extend(spells.declared(b, fig, decl, plan))
    if not secret:
        out.extend(declarations.take_steps(b, fig, decl, steps, a.retreat))
    out.extend(flow.step(b))
    return out


def second_move(b: BattleState, a: act.SecondMove) -> list[ev.Event]:
    """FTC 6.1: instead of attacking, a figure takes a second move (its steps checked as a move's)."""
    fig = check_declarer(b, a.figure, "second_move")
    if movement_phase.move_under_way(b) is not None:
        raise IllegalAction("Finish the move under way first.")
    planned = movement_phase.plan_move(b, fig, a.steps)
    declarations.record(b, Declaration(fig.id, "neutral", (), fig.character.ready_weapon.name, second_move=True))
    out: list[ev.Event] = [ev.Declared(fig.id, "neutral", (), (), fig.character.ready_weapon.name, second_move=True)]
    out.extend(movement_phase.start_move(b, fig, planned, "second move"))
    return out
