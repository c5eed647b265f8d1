"""The start of a round and its initiative order (FTC 3, 4).

Each round begins with lapsed effects cleared and a fresh initiative roll: every able figure rolls
Speed + 4dF, highest first, ties broken by Speed, Agility, Perception (obscured vision included), then a
coin (FTC 4). Under the rule options, initiative is rolled once for the battle, and mooks of a side roll
as one group. This part owns no state: the order is the spine's.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine import events as ev
from game.engine.battle import dice, effects, gm_seat, heroes, movement_phase, spells
from game.engine.battle.state import BattleState, Figure, effective_perception
from game.engine.dice import coin_flip


def begin_round(b: BattleState) -> list[ev.Event]:
    """FTC 3, 4: a new round: the GM's round modifiers and lapsed spells end, every figure's move is fresh,
    and initiative is rolled (or, rolled once for the battle, kept); the movement phase follows."""
    b.round += 1
    gm_seat.new_round(b)
    heroes.round_began(b)  # Fudge 4.64: who began the round Incapacitated
    out: list[ev.Event] = [ev.RoundBegan(b.round), ev.PhaseBegan(b.round, "initiative")]
    out.extend(spells.round_began(b))
    for f in b.figures.values():
        f.moved = False
        f.held = False
        f.hexes_moved = 0
        f.shield_uses = 0
        f.allowance = movement_phase.allowance_of(b, f)
    out.extend(spells.held_fast(b, "move"))
    if b.round == 1 or not b.options.initiative_once:
        out.extend(roll_initiative(b))
    else:
        b.order = [fid for fid in b.order if b.figures[fid].can_act]
        out.append(ev.InitiativeOrder(tuple(b.order)))
    return out


def roll_initiative(b: BattleState) -> list[ev.Event]:
    """FTC 4: Speed + 4dF, best first; ties by Speed, Agility, Perception, then a coin."""
    out: list[ev.Event] = []
    able = b.able()
    groups: list[list[Figure]] = []
    if b.options.mook_group_initiative:
        by_side: dict[str, list[Figure]] = {}
        for f in able:
            if f.mook:
                by_side.setdefault(f.side, []).append(f)
            else:
                groups.append([f])
        groups.extend(by_side.values())
    else:
        groups = [[f] for f in able]
    Key = tuple[int, int, int, int, float]
    entries: list[tuple[Key, list[Figure]]] = []
    flips = 0
    for group in groups:
        lead = group[0]
        speed = _typical([effects.speed_of(b, f) for f in group])
        roll = dice.roll(b, "initiative", *(f.id for f in group))
        result = speed + roll.total
        out.append(
            ev.InitiativeRolled(
                lead.id, speed, roll.faces, result, tuple(f.id for f in group) if len(group) > 1 else ()
            )
        )
        for f in group:
            f.initiative = result
        # FTC 4: a lumped group is one entry of the order, with its "typical" traits for the ties
        agility = _typical([f.character.agility for f in group])
        perception = _typical([effective_perception(f.character) for f in group])
        entries.append(((result, speed, agility, perception, 0.0), group))
    # the coin decides only among entries tied on every trait
    flips += settle_ties(b, entries)
    b.order = []
    for _, group in sorted(entries, key=lambda e: e[0], reverse=True):
        members = [
            ((0, effects.speed_of(b, f), f.character.agility, effective_perception(f.character), 0.0), [f])
            for f in group
        ]
        if len(members) > 1:
            flips += settle_ties(b, members)  # members in order among themselves, still together
        b.order.extend(m[1][0].id for m in sorted(members, key=lambda e: e[0], reverse=True))
    out.append(ev.InitiativeOrder(tuple(b.order), flips))
    return out


def settle_ties(b: BattleState, entries: list[tuple[tuple[int, int, int, int, float], list[Figure]]]) -> int:
    """FTC 4's coin among entries tied on every trait: writes each one's place into its key's last
    element; returns the coins flipped."""
    tied: dict[tuple[int, int, int, int, float], list[int]] = {}
    for index, (key, _) in enumerate(entries):
        tied.setdefault(key, []).append(index)
    flips = 0
    for same in tied.values():
        if len(same) > 1:
            ids = [entries[i][1][0].id for i in same]
            ranked, n = coin_order(b, ids)
            flips += n
            for i in same:
                r, s, a, p, _ = entries[i][0]
                entries[i] = ((r, s, a, p, float(len(ranked) - ranked.index(entries[i][1][0].id))), entries[i][1])
    return flips


def coin_order(b: BattleState, ids: Sequence[str]) -> tuple[list[str], int]:
    """FTC 4's last tie-break: everyone tied flips a coin, heads go first, and each group that is still
    tied flips again until the order is settled (fair to every figure); returns (order, coins flipped)."""
    if len(ids) <= 1:
        return list(ids), 0
    flips = 0
    while True:
        heads: list[str] = []
        tails: list[str] = []
        for fid in ids:
            (heads if coin_flip(b.rng) else tails).append(fid)
            flips += 1
        if heads and tails:
            break
    first, n1 = coin_order(b, heads)
    last, n2 = coin_order(b, tails)
    return first + last, flips + n1 + n2


def _typical(values: Sequence[int]) -> int:
    """A group's "typical" trait (FTC 4): the rounded mean of its members' levels."""
    return round(sum(values) / len(values))
