"""Real Tiled files (made and saved by Tiled 1.8.2) for every stagger and every data encoding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.engine.hexgrid import Hex, hex_to_offset, offset_to_hex
from game.maps.errors import MapLoadError
from game.maps.loader import load_map
from game.maps.tmx import FLIPPED_ANTI_DIAGONALLY, GID_MASK, ROTATED_HEXAGONAL_120

DATA = Path(__file__).parent / "data"
STAGGERS = [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")]
ENCODINGS = ["csv", "xml", "base64", "zlib", "gzip", "zstd"]


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_tiled_every_stagger_combination_loads_with_its_layout(axis: str, index: str) -> None:
    m = load_map(DATA / f"hex_{axis}_{index}.tmx")
    assert (m.tmx.width, m.tmx.height) == (7, 6)
    assert (m.tmx.stagger_axis, m.tmx.stagger_index) == (axis, index)
    assert (m.terrain.stagger_axis, m.terrain.stagger_index) == (axis, index)
    assert m.terrain.terrain.shape == (6, 7)
    assert [layer.name for layer in m.tmx.tile_layers] == ["Ground", "Hidden", "Features", "Faded"]
    assert m.tmx.hex_side_length == 14
    assert m.properties["name"] == f"Fixture hex_{axis}_{index}_src"


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_tiled_terrain_from_tile_properties_stacks_layers_bottom_to_top(axis: str, index: str) -> None:
    m = load_map(DATA / f"hex_{axis}_{index}.tmx")
    t = m.terrain

    def at(col: int, row: int) -> Hex:
        return offset_to_hex(col, row, axis, index)

    assert t.type_at(at(0, 0)).name == "grass"
    assert t.elevation_at(at(1, 0)) == 3  # the hill tile
    assert not t.is_passable(at(3, 2)) and t.sight_blocked(at(3, 2))  # the wall tile
    # wood on the Features layer over whatever ground: blocks sight and gives cover
    assert t.sight_blocked(at(2, 1)) and t.cover_at(at(2, 1)) == -1
    # the tree tile names only cover: the ground's other properties stay
    ground = m.tmx.tile_layers[0].gids[3, 4] & GID_MASK
    assert t.cover_at(at(4, 3)) == -2
    under_mud = m.layout.cell_at(*_mud_point(axis)) == (4, 3)  # the "Mud" object's cell on this stagger
    expected = 3 if under_mud else {1: 0, 2: 1, 3: 2, 4: 0, 5: 0, 6: 1}[int(ground)]
    assert t.type_at(at(4, 3)).penalty["walk"] == expected


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_tiled_hidden_layers_give_no_terrain(axis: str, index: str) -> None:
    m = load_map(DATA / f"hex_{axis}_{index}.tmx")
    # the hidden "Faded" layer is all water; the visible ground is not
    assert m.terrain.type_at(offset_to_hex(0, 0, axis, index)).name == "grass"


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_tiled_deployment_zones_figures_and_terrain_objects(axis: str, index: str) -> None:
    m = load_map(DATA / f"hex_{axis}_{index}.tmx")
    zones = m.deployment.zones
    assert set(zones) == {"red", "blue"}
    red_rows = {hex_to_offset(h, axis, index)[1] for h in zones["red"]}
    blue_rows = {hex_to_offset(h, axis, index)[1] for h in zones["blue"]}
    assert red_rows == {0} and 5 in blue_rows and min(blue_rows) >= 4
    aldric, archer = m.deployment.figures
    assert (aldric.name, aldric.side, aldric.character, aldric.facing) == ("Aldric", "red", "swordsman", 1)
    assert (archer.name, archer.side, archer.character, archer.facing) == ("archer", "blue", "archer", 3)
    layout = m.layout
    for fig in (aldric, archer):
        col, row = hex_to_offset(fig.hex, axis, index)
        assert 0 <= col < 7 and 0 <= row < 6
        cx, cy = layout.cell_center(col, row)
        assert layout.cell_at(cx, cy) == (col, row)
    # the "Mud" terrain point overrides its cell
    mud = layout.cell_at(*_mud_point(axis))
    assert mud is not None
    h = offset_to_hex(*mud, axis, index)
    assert m.terrain.footing_at(h) == -3 and m.terrain.move_penalty(h) == 3


def _mud_point(axis: str) -> tuple[float, float]:
    if axis == "y":
        return 12 + 4 * 24, 14 + 4 * 21
    return 14 + 4 * 21, 12 + 4 * 24


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tiled_every_data_encoding_gives_the_same_tiles(encoding: str) -> None:
    reference = load_map(DATA / "hex_y_odd.tmx")
    m = load_map(DATA / f"enc_{encoding}.tmx")
    for a, b in zip(reference.tmx.tile_layers, m.tmx.tile_layers, strict=True):
        assert np.array_equal(a.gids, b.gids)
    assert np.array_equal(reference.terrain.terrain, m.terrain.terrain)


def test_tiled_hex_rotation_and_60_degree_flags_are_kept_out_of_the_tile_id() -> None:
    m = load_map(DATA / "hex_y_odd.tmx")
    gids = m.tmx.tile_layers[0].gids
    assert (gids & ROTATED_HEXAGONAL_120).any() and (gids & FLIPPED_ANTI_DIAGONALLY).any()
    assert int((gids & GID_MASK).max()) <= 6


def test_tiled_1_9_class_attribute_is_the_object_type() -> None:
    old = load_map(DATA / "hex_y_odd.tmx")
    new = load_map(DATA / "class_1_9.tmx")
    assert new.deployment == old.deployment
    assert np.array_equal(new.terrain.footing, old.terrain.footing)


def test_tiled_missing_stagger_attributes_take_tileds_defaults() -> None:
    m = load_map(DATA / "defaults.tmx")
    assert (m.tmx.stagger_axis, m.tmx.stagger_index, m.tmx.hex_side_length) == ("y", "odd", 0)


def test_tiled_tile_collision_shapes_are_not_map_objects() -> None:
    m = load_map(DATA / "hex_y_odd.tmx")
    assert all(o.layer == "Deployment" for o in m.tmx.objects)
    assert len(m.tmx.objects) == 6


def test_tiled_roster_property_must_exist_inside_the_folder(tmp_path: Path) -> None:
    text = (DATA / "hex_y_odd.tmx").read_text()
    for name in ("pointy.tsx", "pointy.png", "tree.png"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    with_roster = text.replace(
        '<property name="light"', '<property name="roster" type="file" value="r.toml"/>\n  <property name="light"'
    )
    (tmp_path / "m.tmx").write_text(with_roster)
    with pytest.raises(MapLoadError, match="roster"):
        load_map(tmp_path / "m.tmx")
    (tmp_path / "r.toml").write_text("")
    assert load_map(tmp_path / "m.tmx").roster_path == (tmp_path / "r.toml").resolve()
