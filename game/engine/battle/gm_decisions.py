"""The GM's decisions in a battle (*Fudge* 4.1): situational modifiers, conditions, dice set by hand, escape
and free-attack overrides, edits of figures and reinforcements, the end of a round or of the battle.

Every GM decision is an action (``game.engine.gm``), so saves and replays carry it; they are accepted in
any phase, checked by ``gm.validate_gm_action`` and then here (``act_as_gm``, which hands each to its
handler in ``HANDLERS``), and said in the log by one ``GMActed`` event. Edits of figures (wounds, gear,
traits, reinforcements, removals) are made "between rounds", read as the simplest legal moment: in the
movement phase before any figure has moved or held this round. What the GM lays on the battle is kept by
``gm_seat``; this part owns no state of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from game.engine import events as ev
from game.engine import gm, npc_rolls
from game.engine.battle import declarations, dice, flow, gm_seat, heroes, movement_phase, spells
from game.engine.battle.state import BattleState, Figure, IllegalAction, effective_perception, figure_distance, sentence
from game.engine.characters import Character
from game.engine.creatures import footprint
from game.engine.equipment import armour as equipment_armour
from game.engine.heroes import starting_points
from game.engine.hexgrid import Hex
from game.engine.rule_options import resolve_role, roll_count


def act_as_gm(b: BattleState, a: gm.GMAction) -> list[ev.Event]:
    """Carry out a GM decision; an illegal one raises ``IllegalAction`` and changes nothing."""
    if b.setup.gm is None:
        raise IllegalAction("This battle has no GM seat; mark a player as GM in the battle setup.")
    known = {*b.figures, *b.removed} if isinstance(a, gm.AddFigure) else set(b.figures)
    named = a.figure if isinstance(a, gm.GMFigureAction) else ""
    fig = b.figures.get(named)
    handler = HANDLERS.get(type(a))
    if handler is None:
        raise IllegalAction(f"A battle takes no {a.kind!r} decision from the GM.")
    try:
        gm.validate_gm_action(
            a,
            figures=known,
            sides=set(b.sides),
            track=fig.wounds.track if fig is not None else None,
            counts={p: n for p in gm.DIE_PURPOSES if (n := roll_count(p, b.options)) is not None},
        )
        out: list[ev.Event] = handler(b, a)
    except gm.GMActionError as exc:
        raise IllegalAction(sentence(str(exc))) from None
    return out


def who(b: BattleState, target: str) -> tuple[tuple[str, ...], str]:
    """A figure or side as the log text names it: a figure by its id (its name filled in by the log), a
    side by its name."""
    if target in b.figures:
        return (target,), "{0}"
    return (), b.sides[target].name.replace("{", "{{").replace("}", "}}")


def no_move_under_way(b: BattleState) -> None:
    """``IllegalAction`` while a move is under way (waiting for a stop question or a failed escape)."""
    mover = movement_phase.move_under_way(b)
    if mover is not None:
        raise IllegalAction(f"Finish {b.figures[mover].name}'s move first.")


def between_rounds(b: BattleState) -> bool:
    """Whether the GM may edit, add or remove figures now ("between rounds": the movement
    phase before any figure has moved or held this round)."""
    return (
        b.phase == "movement"
        and movement_phase.move_under_way(b) is None
        and not any(f.moved or f.held for f in b.figures.values())
    )


def free_for(b: BattleState, character: Character, h: Hex, facing: int) -> bool:
    """FTC 5: whether a reinforcement of this character may stand on ``h`` facing ``facing``: every hex
    of its footprint on the map, passable for it and empty (the AddFigure check, for the GM's screen)."""
    cells = footprint(h, character.footprint, facing % 6)
    return all(b.terrain.is_passable(c, character.movement_modes[0]) and b.occupant(c) is None for c in cells)


def check_between_rounds(b: BattleState, what: str) -> None:
    """``IllegalAction`` naming ``what`` unless it is between rounds (``between_rounds``)."""
    if not between_rounds(b):
        raise IllegalAction(f"{what} only between rounds, before any figure has moved or held; end the round first.")


def settle(b: BattleState) -> list[ev.Event]:
    """After figures left, joined or rejoined the fight: end the battle if at most one side can fight,
    else let the round go on without the figures that cannot act."""
    out: list[ev.Event] = []
    if flow.check_over(b, out):
        return out
    if b.phase == "attack":
        declarations.drop_unable(b)
    out.extend(flow.step(b))
    return out


def modifier(b: BattleState, a: gm.SituationalModifier) -> list[ev.Event]:
    gm_seat.record(b, a)
    subjects, named = who(b, a.target)
    span = "this round" if a.until == "round" else "until removed"
    return [ev.GMActed(a.kind, f"{a.value:+d} to {named}'s rolls {span}", subjects, a.reason)]


def remove_modifier(b: BattleState, a: gm.RemoveModifier) -> list[ev.Event]:
    laid = gm_seat.conditions(b)
    mod = next((m for m in laid.modifiers if m.id == a.id), None)
    cond = next((c for c in laid.conditions if c.id == a.id), None)
    gm_seat.record(b, a)
    if mod is not None:
        subjects, named = who(b, mod.target) if mod.target in (*b.figures, *b.sides) else ((), "")
        return [ev.GMActed(a.kind, f"lifts {mod.value:+d} on {named}", subjects, mod.reason)]
    what = cond.condition.replace("_", " ") if cond is not None else a.id
    return [ev.GMActed(a.kind, f"lifts the {what}", (), cond.reason if cond else "")]


def condition(b: BattleState, a: gm.BattleCondition) -> list[ev.Event]:
    off = [h for h in a.region if not b.terrain.contains(h)]
    if off:
        raise IllegalAction(f"The region reaches off the map at {off[0]}; choose hexes on the map.")
    gm_seat.record(b, a)
    name = a.condition.replace("_", " ")
    where = f"on {len(a.region)} hex{'es' if len(a.region) != 1 else ''}" if a.region else "over the battlefield"
    what = f"{name} {a.value:+d} {where} (table 7)" if a.value else f"lifts the {name} ({a.id})"
    return [ev.GMActed(a.kind, what, (), a.reason)]


def set_die(b: BattleState, a: gm.SetDie) -> list[ev.Event]:
    rolls = gm_seat.settable_rolls(b)  # the rule options' rolls while their option is on
    if a.purpose not in rolls:
        raise IllegalAction(f"A battle makes no {a.purpose} roll; set one of {', '.join(rolls)}.")
    fig = b.figure(a.figure)
    how = npc_rolls.way(b.options, fig.role)
    if a.purpose == "combat" and how == npc_rolls.ZERO:
        raise IllegalAction(f"Under the rule option NPC rolls: zero, {fig.name} rolls no dice (Fudge 4.33).")
    if a.purpose == "combat" and how == npc_rolls.GROUP:
        raise IllegalAction(
            f"Under the rule option NPC rolls: group, {fig.name} rolls with its side; set its side's npc_group "
            "roll instead (Fudge 4.34)."
        )
    if a.purpose == "npc_group" and how != npc_rolls.GROUP:
        raise IllegalAction(
            f"{fig.name} is not an NPC pawn: a side's group roll is set on one of its NPC pawns (Fudge 4.34)."
        )
    dice.queue_set_die(b, a)
    fudge = gm.DIE_PURPOSES[a.purpose][1] == (-1, 0, 1)  # six-sided dice read as numbers (Fudge 4.63's 3d6)
    faces = " ".join({-1: "-", 0: "0", 1: "+"}[f] if fudge else str(f) for f in a.faces)
    return [ev.GMActed(a.kind, f"{{0}}'s next {a.purpose} roll is set by hand: [{faces}]", (a.figure,))]


def grant_escape(b: BattleState, a: gm.GrantEscape) -> list[ev.Event]:
    return escape_override(b, a.figure, True)


def deny_escape(b: BattleState, a: gm.DenyEscape) -> list[ev.Event]:
    return escape_override(b, a.figure, False)


def escape_override(b: BattleState, fid: str, escaped: bool) -> list[ev.Event]:
    """FTC 5.3 overridden: a figure that has just failed its escape gets through at once; otherwise the
    figure's next escape contest this round is decided (no dice rolled)."""
    failed = movement_phase.failed_escape(b)
    kind = "gm_grant_escape" if escaped else "gm_deny_escape"
    if failed is not None and failed[0] == fid:
        if not escaped:
            raise IllegalAction(f"{b.figures[fid].name} is held already.")
        return [ev.GMActed(kind, "lets {0} escape after all", (fid,)), *movement_phase.let_through(b)]
    gm_seat.decide_escape(b, fid, escaped)
    what = "escape" if escaped else "be held at"
    return [ev.GMActed(kind, f"{{0}} will {what} the next zone of control this round, whatever the dice", (fid,))]


def free_attack(b: BattleState, a: gm.FreeAttackOverride) -> list[ev.Event]:
    """FTC 5.3 overridden: who strikes the runner (``gm.GrantFreeAttack`` or ``gm.DenyFreeAttack``). Decided while
    the mover, having failed an escape, chooses whether to turn tail and run."""
    aid, tid, grant = a.attacker, a.target, isinstance(a, gm.GrantFreeAttack)
    att, tgt = b.figure(aid), b.figure(tid)
    failed = movement_phase.failed_escape(b)
    if failed is None or failed[0] != tgt.id:
        raise IllegalAction(
            f"A free attack is granted or denied while {tgt.name} has failed an escape "
            "and chooses whether to run (FTC 5.3)."
        )
    stoppers = failed[1]
    if grant:
        if aid in stoppers:
            raise IllegalAction(f"{att.name} has that free attack already.")
        if att.side == tgt.side or not att.can_act or figure_distance(att, tgt) != 1:  # nearest hexes (FTC 5)
            raise IllegalAction(f"{att.name} must be an enemy of {tgt.name}, able to fight and next to it.")
        movement_phase.set_free_attackers(b, (*stoppers, aid))
        what = "{0} gets a free attack on {1} if {1} runs"
    else:
        if aid not in stoppers:
            raise IllegalAction(f"{att.name} has no free attack on {tgt.name} to deny.")
        movement_phase.set_free_attackers(b, tuple(s for s in stoppers if s != aid))
        what = "{0} gets no free attack on {1}"
    return [ev.GMActed(a.kind, what, (aid, tid))]


def end_round(b: BattleState, a: gm.EndRound) -> list[ev.Event]:
    """FTC 3 cut short by the GM: moves not yet made and attacks not yet resolved are lost. A round of
    concentration counts as stood through; a spell due in this attack phase (FTC 8.1: its last round of
    concentration) carries on into the next round and takes effect in its attack phase
    (``spells.round_began``)."""
    no_move_under_way(b)
    # FTC 3: the round ends here: moves not yet made and attacks not yet resolved are lost
    declarations.clear(b)
    return [ev.GMActed(a.kind, f"ends round {b.round}", (), a.reason), *flow.enter(b, "initiative")]


def end_battle(b: BattleState, a: gm.EndBattle) -> list[ev.Event]:
    flow.finish(b, a.winner)
    result = f"{b.sides[a.winner].name} wins" if a.winner else "no side wins"
    return [
        ev.GMActed(a.kind, "ends the battle", (), a.reason),
        ev.BattleEnded(a.winner, f"the GM ends it, {result}"),
    ]


def declare_out(b: BattleState, a: gm.DeclareOut) -> list[ev.Event]:
    fig = b.figure(a.figure)
    if fig.out:
        raise IllegalAction(f"{fig.name} is out of the fight already.")
    no_move_under_way(b)
    fig.out = True
    return [ev.GMActed(a.kind, "takes {0} out of the fight", (fig.id,), a.reason), *settle(b)]


def declare_in(b: BattleState, a: gm.DeclareIn) -> list[ev.Event]:
    fig = b.figure(a.figure)
    if not fig.out:
        raise IllegalAction(f"{fig.name} is in the fight already.")
    if not fig.wounds.can_act:
        raise IllegalAction(
            f"{fig.name}'s wounds ({fig.wounds.label}) keep it out of the fight; clear wound boxes first."
        )
    no_move_under_way(b)
    fig.out = False
    if fig.stuns.knocked_out:  # Fudge 4.62: a knockout needs no healing, only time: the GM says it is past
        fig.stuns = replace(fig.stuns, knocked_out=False)
    if fig.id not in b.order:
        b.order.append(fig.id)  # last in the order until initiative is next rolled
    return [ev.GMActed(a.kind, "brings {0} back into the fight", (fig.id,), a.reason), *settle(b)]


def edit_wounds(b: BattleState, a: gm.EditWounds) -> list[ev.Event]:
    fig = b.figure(a.figure)
    check_between_rounds(b, "Wounds are edited")
    before = fig.wounds.label
    fig.wounds = gm.edited_wounds(a.wounds, fig.wounds.track)
    fig.very_hurt_from_round = None  # set between rounds: a Very Hurt penalty counts from this round
    out: list[ev.Event] = [
        ev.GMActed(
            a.kind,
            f"sets {{0}}'s wounds: {fig.wounds.label}",
            (fig.id,),
            a.reason,
            f"changes {{0}}'s wounds: {before} → {fig.wounds.label}",
        )
    ]
    if not fig.can_act and not fig.out:
        fig.out = True
        out.append(ev.TakenOut(fig.id, fig.wounds.label))
    return [*out, *settle(b)]


def edit_gear(b: BattleState, a: gm.EditGear) -> list[ev.Event]:
    fig = b.figure(a.figure)
    check_between_rounds(b, "Gear is changed")
    before = _gear_text(fig.character)
    fig.character = gm.edited_gear(fig.character, a.weapons, a.armour, a.shield, a.coverage)
    fig.allowance = movement_phase.allowance_of(b, fig)
    partial = {
        item.name: item.coverage.replace("_", " ") for item in fig.character.armour if item.coverage != "full"
    }  # FTC 9.2: a partial suit says so in the log
    armour = tuple(
        f"{name} ({partial[worn]})" if (worn := equipment_armour(name).name) in partial else name for name in a.armour
    )
    gear = ", ".join((*a.weapons, *armour, *((a.shield,) if a.shield else ()))) or "nothing"
    said = f"changes {{0}}'s gear: {before} → {_gear_text(fig.character)}"
    return [ev.GMActed(a.kind, f"changes {{0}}'s gear: {gear}", (fig.id,), a.reason, said)]


def edit_traits(b: BattleState, a: gm.EditTraits) -> list[ev.Event]:
    fig = b.figure(a.figure)
    check_between_rounds(b, "Traits are changed")
    before = fig.character
    fig.character = gm.edited_traits(fig.character, a.changes)
    fig.allowance = movement_phase.allowance_of(b, fig)
    said = f"changes {{0}}'s traits: {gm.trait_changes_text(before, fig.character, a.changes)}"
    return [ev.GMActed(a.kind, f"changes {{0}}'s traits: {', '.join(sorted(a.changes))}", (fig.id,), a.reason, said)]


def add_figure(b: BattleState, a: gm.AddFigure) -> list[ev.Event]:
    check_between_rounds(b, "Reinforcements arrive")
    if a.character is not None:
        character = gm.new_character(a.character)
    else:
        known = {f.character.key: f.character for f in b.setup.figures}
        if a.roster_key not in known:
            raise IllegalAction(
                f"No figure of this battle is the character {a.roster_key!r}; "
                "give the new figure's character table instead."
            )
        character = known[a.roster_key]
    if not free_for(b, character, a.hex, a.facing):  # a large reinforcement needs room (FTC 5)
        raise IllegalAction(f"{a.hex} is not a free hex {a.name or character.name} can stand on; choose another.")
    fig = Figure(
        a.figure,
        a.name or character.name,
        a.side,
        character,
        a.hex,
        a.facing,
        "always",
        a.mook,
        resolve_role(None, a.mook, None),
        wounds=character.starting_wounds,
        fudge_points=starting_points(None, resolve_role(None, a.mook, None), b.options),  # Fudge 4.64
    )  # FTC 7.3: a creature's own track; Fudge 4.8
    carried = b.carried_wounds(fig)
    if not fig.can_act:
        raise IllegalAction(
            f"{fig.name} carries wounds that leave {fig.wounds.label}: too hurt to join "
            "the battle; heal the character first or choose another."
        )
    fig.allowance = movement_phase.allowance_of(b, fig)
    # FTC 4: the reinforcement rolls its initiative and takes its place in this round's order
    roll = dice.roll(b, "initiative", fig.id)
    fig.initiative = character.speed + roll.total

    def key(f: Figure) -> tuple[int, int, int, int]:
        return f.initiative, f.character.speed, f.character.agility, effective_perception(f.character)

    at = next((i for i, fid in enumerate(b.order) if key(b.figures[fid]) < key(fig)), len(b.order))
    b.figures[fig.id] = fig
    b.order.insert(at, fig.id)
    movement_phase.restart(b)  # nobody has acted yet: the phase starts again from the top of the order
    side = b.sides[a.side].name.replace("{", "{{").replace("}", "}}")
    return [
        ev.GMActed(a.kind, f"{{0}} joins {side}", (fig.id,)),
        *carried,
        ev.InitiativeRolled(fig.id, character.speed, roll.faces, fig.initiative, ()),
        ev.InitiativeOrder(tuple(b.order)),
        *settle(b),
    ]


def remove_figure(b: BattleState, a: gm.RemoveFigure) -> list[ev.Event]:
    check_between_rounds(b, "A figure is removed")
    fig = b.figures.pop(a.figure)
    b.removed[fig.id] = fig
    b.order = [f for f in b.order if f != fig.id]
    movement_phase.restart(b)  # nobody has acted yet: the phase starts again from the top of the order
    declarations.forget(b)  # last round's, read only by threats_to
    dice.forget_figure(b, fig.id)
    gm_seat.forget_figure(b, fig.id)
    return [
        ev.GMActed(a.kind, "removes {0} from the battle", (fig.id,)),
        *spells.figure_removed(b, fig.id),
        *settle(b),
    ]


GMHandler = Callable[[BattleState, Any], list[ev.Event]]

HANDLERS: Mapping[type[gm.GMAction], GMHandler] = {
    gm.SituationalModifier: modifier,
    gm.RemoveModifier: remove_modifier,
    gm.BattleCondition: condition,
    gm.SetDie: set_die,
    gm.GrantEscape: grant_escape,
    gm.DenyEscape: deny_escape,
    gm.GrantFreeAttack: free_attack,
    gm.DenyFreeAttack: free_attack,
    gm.EndRound: end_round,
    gm.EndBattle: end_battle,
    gm.DeclareOut: declare_out,
    gm.DeclareIn: declare_in,
    gm.EditWounds: edit_wounds,
    gm.EditGear: edit_gear,
    gm.EditTraits: edit_traits,
    gm.AddFigure: add_figure,
    gm.RemoveFigure: remove_figure,
    gm.SetFudgePoints: heroes.gm_set_points,
}
"""Each GM decision's type and its handler (after ``act_as_gm``'s checks)."""


def _gear_text(character: Character) -> str:
    """A figure's gear for the log (FTC 9): weapons, armour (a partial suit with its coverage, FTC 9.2) and
    shield, or "nothing"."""
    armour = tuple(
        f"{item.name} ({item.coverage.replace('_', ' ')})" if item.coverage != "full" else item.name
        for item in character.armour
    )
    shield = (character.shield.name,) if character.shield is not None else ()
    return ", ".join((*(w.name for w in character.weapons), *armour, *shield)) or "nothing"
