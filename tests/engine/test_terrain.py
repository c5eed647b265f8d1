"""The battle map as the rules see it (FTC 5.1.2, table 3, 6.5.3, table 7)."""

from __future__ import annotations

import numpy as np
import pytest

from game.engine.hexgrid import Hex
from game.engine.terrain import TerrainMap, TerrainType

WATER = TerrainType("water", penalty={"walk": 3, "fly": 0})
WALL = TerrainType("wall", passable={"walk": False, "fly": False}, blocks_sight=True)


def small_map() -> TerrainMap:
    grid = np.array([[0, 1, 2], [0, 0, 0]], dtype=np.int16)
    return TerrainMap.build(
        3, 2, (TerrainType("open"), WATER, WALL), grid, overrides={(0, 1): {"cover": -1, "elevation": 4, "light": -2}}
    )


def test_ftc_5_1_2_penalty_per_movement_mode() -> None:
    m = small_map()
    water = m.hex_at(1, 0)
    assert m.move_penalty(water, "walk") == 3 and m.move_penalty(water, "fly") == 0
    assert m.type_at(water).name == "water"


def test_walls_cannot_be_entered_and_block_sight() -> None:
    m = small_map()
    wall = m.hex_at(2, 0)
    assert not m.is_passable(wall) and m.sight_blocked(wall)
    assert not m.is_passable(Hex(50, 50)) and not m.sight_blocked(Hex(50, 50))


def test_overrides_change_one_cell() -> None:
    m = small_map()
    h = m.hex_at(0, 1)
    assert (m.cover_at(h), m.elevation_at(h), m.light_at(h)) == (-1, 4, -2)
    assert m.cover_at(m.hex_at(1, 1)) == 0


def test_arrays_are_read_only() -> None:
    m = small_map()
    with pytest.raises(ValueError):
        m.blocks_sight[0, 0] = True


def test_bad_grids_are_refused() -> None:
    with pytest.raises(ValueError, match="expected"):
        TerrainMap.build(3, 3, (TerrainType("open"),), np.zeros((2, 3), dtype=np.int16))
    with pytest.raises(ValueError, match="unknown terrain property"):
        TerrainMap.build(
            1, 1, (TerrainType("open"),), np.zeros((1, 1), dtype=np.int16), overrides={(0, 0): {"colour": 1}}
        )


def test_every_cell_maps_to_one_hex_and_back() -> None:
    for axis, index in (("x", "odd"), ("x", "even"), ("y", "odd"), ("y", "even")):
        m = TerrainMap.open(7, 5, stagger_axis=axis, stagger_index=index)
        cells = [m.cell(h) for h in m.hexes()]
        assert len(set(cells)) == 35 and all(m.contains(h) for h in m.hexes())
