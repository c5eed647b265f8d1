"""Zones of control (FTC 5.2, 5.3; docs/rulings.md "Zone of control"): the hexes from which a figure may stop
a mover.

A figure's zone is the three hexes in front of it (a large figure's front, ``creatures.front_zone``). A
figure that cannot act — Incapacitated or worse, or held by a spell that stops it acting (a paralysing
touch, FTC 8) — projects no zone: it stops nobody, wins no escape contest and strikes no free attack. This
part owns ``ZonesState``: each side's enemies' zones, kept while they stand as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from game.engine.battle import effects
from game.engine.battle.state import BattleState, Figure
from game.engine.creatures import front_zone
from game.engine.hexgrid import Hex, front_hexes


def zone(b: BattleState, fig: Figure) -> frozenset[Hex]:
    """FTC 5.2: the three front hexes of a figure that can act (none otherwise, held by a spell included)."""
    if not fig.can_act or effects.held_by(b, fig) is not None:
        return frozenset()
    if fig.size != 1:
        return front_zone(fig.cells, fig.facing)  # a large figure's front (creatures.front_zone)
    return _front(fig.hex, fig.facing)


def holding_area(b: BattleState, fig: Figure) -> frozenset[Hex]:
    """The hexes a figure may stop a mover from leaving (FTC 5.2): its zone of control and its own hexes,
    since a mover passing through its hex must break its zone of control to go on (none if it projects no
    zone)."""
    if fig.size == 1:
        if not fig.can_act or effects.held_by(b, fig) is not None:
            return frozenset()
        return _front_and_own(fig.hex, fig.facing)
    front = zone(b, fig)
    return front | fig.cells if front else front


@lru_cache(maxsize=1 << 16)
def _front(h: Hex, facing: int) -> frozenset[Hex]:
    """The three front hexes of a one-hex figure (asked for every enemy of every mover: made once)."""
    return frozenset(front_hexes(h, facing))


@lru_cache(maxsize=1 << 16)
def _front_and_own(h: Hex, facing: int) -> frozenset[Hex]:
    """A one-hex figure's front hexes and its own."""
    return _front(h, facing) | {h}


def stopper_zones(b: BattleState, mover: Figure) -> Mapping[Hex, frozenset[str]]:
    """For the path search: each hex -> ids of enemies who would (or might) stop the mover there (their
    zones of control and their own hexes, FTC 5.2). A mover's enemies are the same for every figure of his
    side, and their zones change only when one of them moves, turns, falls, changes its standing order or
    is held by a spell: the map is kept per side until then (the search, the move's check and its walk all
    ask for it)."""
    key = (
        tuple(
            (f.id, f.hex, f.facing, f.can_act, f.standing_order, f.size)
            for f in b.figures.values()
            if f.side != mover.side
        ),
        b.round,
        tuple(map(id, effects.all_effects(b))),
    )
    kept = b.zones_state.kept.get(mover.side)
    if kept is not None and kept[0] == key:
        return kept[1]
    zones: dict[Hex, set[str]] = {}
    for e in b.enemies_of(mover):
        if e.standing_order == "never":
            continue
        for h in holding_area(b, e):
            zones.setdefault(h, set()).add(e.id)
    found = {h: frozenset(s) for h, s in zones.items()}
    b.zones_state.kept[mover.side] = (key, found)
    return found
