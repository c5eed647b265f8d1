"""A terrain object that changes the ground changes the picture too: the board draws the object's terrain (plain,
in its colour, ringed) where the map's art shows something else, names the object in the hex info, and leaves
the art alone where an object only sets what the art cannot show (light, footing) or repeats the ground."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.engine.hexgrid import offset_to_hex
from game.maps.loader import load_map
from game.maps.render import render_map
from game.ui.board import terrain_colours
from game.ui.mapdata import TiledMapSource, board_data_from_loaded

DATA = Path(__file__).resolve().parents[1] / "maps" / "data"

GROUND = """1,1,1,1,1,1,1,
1,1,1,1,1,1,1,
1,1,1,4,1,1,1,
1,1,1,1,1,1,1,
1,1,1,1,1,1,1,
1,1,1,1,1,1,1"""
"""Grass everywhere (tile 0 of pointy.tsx) and one house wall (tile 3: impassable, blocks sight) at (3, 2)."""


def _centre(col: int, row: int) -> tuple[int, int]:
    """A cell's centre on the pointy-top, odd-staggered 24 × 28 map (hex side 14)."""
    return col * 24 + 12 + (12 if row % 2 else 0), row * 21 + 14


def _point(oid: int, name: str, cell: tuple[int, int], prop: str) -> str:
    x, y = _centre(*cell)
    head = f'<object id="{oid}" name="{name}" type="terrain" x="{x}" y="{y}">'
    return f"{head}<properties>{prop}</properties><point/></object>"


@pytest.fixture
def mud_over_a_house(tmp_path: Path) -> Path:
    """The map: mud (a water tile's terrain, open and clear) laid by a terrain object over the wall; dusk (light
    only) on a grass cell; an object naming grass over grass."""
    for name in ("pointy.tsx", "pointy.png"):
        shutil.copy(DATA / name, tmp_path / name)
    objects = "".join(
        (
            _point(
                1,
                "Mud patch",
                (3, 2),
                '<property name="terrain" value="water"/><property name="impassable" type="bool" value="false"/>'
                '<property name="blocks_sight" type="bool" value="false"/>',
            ),
            _point(2, "Dusk", (1, 1), '<property name="light" type="int" value="-2"/>'),
            _point(3, "Lawn", (0, 0), '<property name="terrain" value="grass"/>'),
        )
    )
    path = tmp_path / "mud.tmx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.8" orientation="hexagonal" renderorder="right-down" width="7" height="6" tilewidth="24" '
        'tileheight="28" infinite="0" hexsidelength="14" staggeraxis="y" staggerindex="odd" nextlayerid="3" '
        'nextobjectid="4">\n'
        ' <tileset firstgid="1" source="pointy.tsx"/>\n'
        f' <layer id="1" name="Ground" width="7" height="6"><data encoding="csv">{GROUND}</data></layer>\n'
        f' <objectgroup id="2" name="Terrain">{objects}</objectgroup>\n'
        "</map>\n",
        encoding="utf-8",
    )
    return path


def test_a_terrain_object_that_changes_the_ground_is_drawn_as_it_plays(mud_over_a_house: Path) -> None:
    pygame.display.init()
    loaded = load_map(mud_over_a_house)
    wall = offset_to_hex(3, 2, "y", "odd")
    assert loaded.terrain.type_at(wall).name == "water"
    assert loaded.terrain.is_passable(wall) and not loaded.terrain.sight_blocked(wall)
    assert dict(loaded.repainted) == {(3, 2): "Mud patch"}  # neither the dusk nor the lawn repaints
    data = board_data_from_loaded(loaded, mud_over_a_house, grid=False)
    assert dict(data.repainted) == {wall: "Mud patch"}
    source = data.source
    assert isinstance(source, TiledMapSource)
    w, h = source.size
    drawn = source.render_chunk(1.0, pygame.Rect(0, 0, w, h))
    art = render_map(loaded)
    water = tuple(int(v) for v in terrain_colours(loaded.terrain)[2, 3])
    x, y = _centre(3, 2)
    assert drawn.get_at((x, y))[:3] == water
    assert art.get_at((x, y))[:3] != water  # the art shows the wall
    for cell in ((1, 1), (0, 0), (5, 4)):  # the art stays where nothing the art shows changed
        assert drawn.get_at(_centre(*cell))[:3] == art.get_at(_centre(*cell))[:3]
