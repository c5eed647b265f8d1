"""Where a figure may be placed (FTC 5): before the battle in its side's deployment zone, and during it as
the GM's reinforcement.

A figure stands on a hex of the map it can enter; a large figure (3 or 7 hexes, ``creatures.footprint``)
needs every hex of its footprint on the map, passable and free. Before the battle its hexes must lie in
its side's deployment zone (a map's ``deploy`` objects), unless it stands on the hex the map itself gives
it (its *home*). The deployment screen highlights these hexes and the battle's setup checks the same.
"""

from __future__ import annotations

from collections.abc import Collection

from game.engine.battle import Battle
from game.engine.characters import Character
from game.engine.creatures import footprint
from game.engine.hexgrid import Hex
from game.engine.terrain import TerrainMap


def deployment_hexes(
    terrain: TerrainMap,
    zone: Collection[Hex],
    *,
    size: int = 1,
    facing: int = 0,
    taken: Collection[Hex] = (),
    home: Hex | None = None,
) -> frozenset[Hex]:
    """FTC 5: the hexes a figure of ``size`` hexes facing ``facing`` may be placed on before the battle: in
    ``zone`` (or its ``home`` hex), with every hex it covers on the map, passable and not in ``taken`` (the
    hexes other figures cover), and — for a large figure away from home — in the zone."""
    allowed = set(zone)
    if home is not None:
        allowed.add(home)
    out: set[Hex] = set()
    for h in allowed:
        if size == 1:
            if terrain.contains(h) and terrain.is_passable(h) and h not in taken:
                out.add(h)
            continue
        cells = footprint(h, size, facing % 6)
        if all(
            terrain.contains(c) and c not in taken and terrain.is_passable(c) and (c in zone or h == home)
            for c in cells
        ):
            out.add(h)
    return frozenset(out)


def reinforcement_hexes(battle: Battle, character: Character, facing: int = 0) -> frozenset[Hex]:
    """FTC 5: where the GM may bring a reinforcement of ``character`` into the battle facing ``facing``:
    every hex of its footprint on the map, passable for it and empty (``Battle.gm_free_for``)."""
    return frozenset(h for h in battle.terrain.hexes() if battle.gm_free_for(character, h, facing))
