"""Where a figure may be placed (FTC 5): in its side's deployment zone before the battle, on free hexes
during it as the GM's reinforcement — one engine answer for the deployment screen and the GM's dialog."""

from __future__ import annotations

from game.engine.battle import Battle
from game.engine.creatures import footprint
from game.engine.deployment import deployment_hexes, reinforcement_hexes
from game.engine.hexgrid import Hex, neighbors, within
from game.engine.terrain import TerrainMap
from tests.golden.scenarios import axial, character

C = Hex(4, 4)


def test_ftc_5_a_one_hex_figure_goes_on_free_hexes_of_its_zone_or_its_home() -> None:
    terrain = TerrainMap.open(12, 10)
    zone = frozenset(within(C, 1))
    taken = {neighbor for neighbor in list(neighbors(C))[:2]}
    home = Hex(9, 2)
    got = deployment_hexes(terrain, zone, taken=taken, home=home)
    assert got == (zone - taken) | {home}


def test_ftc_5_a_large_figure_needs_its_whole_footprint_in_the_zone_and_free() -> None:
    terrain = TerrainMap.open(12, 10)
    zone = frozenset(within(C, 2))
    got = deployment_hexes(terrain, zone, size=7)
    assert got == {h for h in zone if footprint(h, 7, 0) <= zone}
    assert C in got and not any(h in got for h in within(C, 2) if h not in within(C, 1))
    blocked = deployment_hexes(terrain, zone, size=7, taken={C})
    assert not any(C in footprint(h, 7, 0) for h in blocked)


def test_ftc_5_a_reinforcement_may_stand_on_any_free_passable_hex() -> None:
    b = Battle(axial([("a", "blue", "brigand", C, 0), ("z", "red", "brigand", Hex(7, 4), 3)], seed=0))
    got = reinforcement_hexes(b, character("brigand"))
    assert C not in got and Hex(7, 4) not in got
    assert len(got) == len(list(b.terrain.hexes())) - 2
