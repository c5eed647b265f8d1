"""What the rule options add to the odds shown before a declaration (``game.engine.preview``; docs/rulings.md
"Rule options"): how each participant's combat roll is made (*Fudge* 4.33, 4.34), each with the assumption the
player reads.

The preview reads the battle's public state only, as the screen and the computer players may (docs/architecture.md
"One source of legality"); the GM's hand-set rolls come through the preview's own ``peek``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from game.engine import npc_rolls
from game.engine.battle import Battle, Figure
from game.engine.npc_rolls import RollKind
from game.engine.speed_contest import difference

Peek = Callable[[str, str], int | None]
"""The total of a figure's next roll of a purpose the GM set by hand (None: none, or the viewer may not know)."""


def group_set(battle: Battle, peek: Peek, side: str) -> int | None:
    """The total the GM set for ``side``'s next group roll (*Fudge* 4.34), as the battle takes it: the first NPC
    pawn of the side (in the battle's order) with an ``npc_group`` roll set."""
    for f in battle.figures.values():
        if f.side == side and f.can_act and npc_rolls.is_pawn(f.role):
            total = peek("npc_group", f.id)
            if total is not None:
                return total
    return None


def combat_rolls(battle: Battle, peek: Peek, figures: Sequence[Figure], assumptions: list[str]) -> tuple[RollKind, ...]:
    """How each of ``figures`` (an attack's attacker, target, and the other defenders it must beat) makes its
    combat roll under the rule option ``npc_rolls`` (*Fudge* 4.33, 4.34), for ``odds.outcome_distribution`` and
    ``odds.hit_probability``; each way that is not FTC 6.3's named in ``assumptions``. Empty under FTC as written
    (every figure its own 4dF: the odds then read the GM's set rolls from ``set_rolls`` as before)."""
    options = battle.options
    if options.npc_rolls == "own":
        return ()
    kinds: list[RollKind] = []
    for f in figures:
        how = npc_rolls.way(options, f.role)
        if how == npc_rolls.OWN:
            kinds.append(RollKind(fixed=peek("combat", f.id)))
            continue
        if how == npc_rolls.ZERO:
            kinds.append(RollKind(0))
            _say(assumptions, f"{f.name} rolls nothing: an NPC's result is its level (Fudge 4.33).")
            continue
        kinds.append(RollKind(npc_rolls.group_dice(options), f.side, group_set(battle, peek, f.side)))
    by_side: dict[str, list[str]] = {}
    for f, k in zip(figures, kinds, strict=True):
        if k.group:
            by_side.setdefault(k.group, []).append(f.name)
    dice = "2dF" if npc_rolls.group_dice(options) == 2 else "4dF"
    for names in by_side.values():
        if len(names) > 1:
            _say(assumptions, f"{' and '.join(names)} share one roll, their side's {dice} (Fudge 4.34).")
        else:
            _say(assumptions, f"{names[0]} rolls with the side's other NPCs: one {dice} for them all (Fudge 4.34).")
    return tuple(kinds)


def speed_mixture(
    battle: Battle, peek: Peek, att: Figure, tgt: Figure, attacks_back: bool | None, assumptions: list[str]
) -> Mapping[int, Fraction] | None:
    """*Fudge* 4.36 (rule option ``speed_contest``): the exact spread of the Speed contest's difference (the
    attacker's result minus the target's) when the target has declared, where every player saw it, a melee blow
    on the attacker (``attacks_back``; None: not known yet, said in ``assumptions``); None when no contest is
    counted."""
    if not battle.options.speed_contest:
        return None
    if attacks_back is None:
        _say(assumptions, f"{tgt.name}'s attack on {att.name} is not known yet: no Speed contest counted (Fudge 4.36).")
        return None
    if not attacks_back:
        return None
    _say(assumptions, f"{att.name} and {tgt.name} strike each other: a Speed contest first (Fudge 4.36).")
    fixed = (peek("speed", att.id), peek("speed", tgt.id))
    return difference(battle.speed_of(att), battle.speed_of(tgt), *fixed)


def _say(assumptions: list[str], sentence: str) -> None:
    if sentence not in assumptions:
        assumptions.append(sentence)


__all__ = ["Peek", "combat_rolls", "group_set", "speed_mixture"]
