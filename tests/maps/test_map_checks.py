"""A GM's map is checked like a battle would use it: ``check-map`` and New battle's loading refuse, naming the
object, the field and the fix, a side spelled two ways, an unknown terrain name, a tileset of another tile size
and a hex map without a hex side length; a terrain object's ``terrain`` makes its hexes that terrain; a figure
off its hex centre is a warning naming the figure and the hex. Fixtures are copies of the shipped maps (saved
by Tiled) with one thing changed, written to a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.cli.maps import check_map_main
from game.engine.hexgrid import offset_to_hex
from game.maps.errors import MapLoadError
from game.maps.loader import load_map, near_miss
from game.paths import MAPS_DIR
from game.roster import load_roster
from game.session import SetupError, new_session, place_figures


def copy_map(folder: Path, name: str, edit: dict[str, str] | None = None, tsx: dict[str, str] | None = None) -> Path:
    """maps/<name>.tmx with its roster, tilesets and tiles copied into ``folder``, each ``edit`` (old -> new,
    once) applied to the map's text and each ``tsx`` edit to the pointy tileset's."""
    for f in ("terrain_pointy.tsx", "terrain_flat.tsx", f"{name}.roster.toml"):
        shutil.copyfile(MAPS_DIR / f, folder / f)
    shutil.copytree(MAPS_DIR / "tiles", folder / "tiles", dirs_exist_ok=True)
    text = (MAPS_DIR / f"{name}.tmx").read_text(encoding="utf-8")
    for old, new in (edit or {}).items():
        assert old in text, old
        text = text.replace(old, new, 1)
    target = folder / f"{name}.tmx"
    target.write_text(text, encoding="utf-8")
    if tsx:
        sheet = (folder / "terrain_pointy.tsx").read_text(encoding="utf-8")
        for old, new in tsx.items():
            assert old in sheet, old
            sheet = sheet.replace(old, new, 1)
        (folder / "terrain_pointy.tsx").write_text(sheet, encoding="utf-8")
    return target


def refusal(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """check-map's one line for a refused map (exit 2)."""
    assert check_map_main([str(path)]) == 2
    return capsys.readouterr().err


ALDO = '<object id="4" name="Aldo" type="figure" class="figure" x="256" y="532">\n   <properties>\n'


def test_near_miss_spellings_of_a_side() -> None:
    assert near_miss("Bandit", "Bandits") and near_miss("red", "reds") and near_miss("Blue", "blue")
    assert near_miss("wyrm_hunters", "wyrm-hunters") and near_miss("goblins", "goblons")
    assert not near_miss("side1", "side2") and not near_miss("red", "rex") and not near_miss("blue", "blue")


def test_a_side_spelled_two_ways_in_the_map_is_refused_naming_the_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = (MAPS_DIR / "open_field.tmx").read_text(encoding="utf-8")
    text = original.replace('value="blue"', 'value="Bandits"')
    aldo = text.index('name="Aldo"')
    text = text[:aldo] + text[aldo:].replace('value="Bandits"', 'value="Bandit"', 1)
    (tmp_path / "m.tmx").write_text(text, encoding="utf-8")
    for f in ("terrain_pointy.tsx", "open_field.roster.toml"):
        shutil.copyfile(MAPS_DIR / f, tmp_path / f)
    shutil.copytree(MAPS_DIR / "tiles", tmp_path / "tiles")
    with pytest.raises(MapLoadError) as err:
        load_map(tmp_path / "m.tmx")
    assert 'object id="4" "Aldo"' in err.value.element and 'property "side"' in err.value.element
    assert '"Bandit" is a near miss of the side "Bandits"' in str(err.value)
    assert 'change it to "Bandits"' in str(err.value)
    assert "Aldo" in refusal(tmp_path / "m.tmx", capsys)
    from game.ui.screens import map_sides  # New battle reads a map's sides the same way: it refuses too

    with pytest.raises(MapLoadError, match="near miss"):
        map_sides(tmp_path / "m.tmx", None)


def test_a_side_spelled_differently_in_the_roster_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "open_field")
    roster = tmp_path / "open_field.roster.toml"
    text = roster.read_text(encoding="utf-8")
    assert "[sides.red]" in text
    roster.write_text(text.replace("[sides.red]", "[sides.reds]"), encoding="utf-8")
    with pytest.raises(SetupError, match=r"the side 'reds' in .*\[sides.reds\].* near miss of the side 'red'"):
        place_figures(load_map(path), load_roster(roster))
    with pytest.raises(SetupError, match="near miss"):
        new_session(path, roster, seed=1, autosave=False)
    assert "near miss of the side 'red'" in refusal(path, capsys)


HOLLOW = '<property name="light" type="int" value="-2"/>'


def test_an_unknown_terrain_name_is_refused_listing_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "forest_road", {HOLLOW: HOLLOW + '\n    <property name="terrain" value="dense_wood"/>'})
    line = refusal(path, capsys)
    assert 'object id="1" "Dark hollow"' in line and 'property "terrain"' in line
    assert '"dense_wood" is not a known terrain' in line and "dense_woods" in line and "grass" in line


def test_a_terrain_objects_terrain_applies_to_its_hexes(tmp_path: Path) -> None:
    plain = load_map(MAPS_DIR / "forest_road.tmx")
    path = copy_map(tmp_path, "forest_road", {HOLLOW: HOLLOW + '\n    <property name="terrain" value="wall"/>'})
    m = load_map(path)
    cell = m.layout.cell_at(256, 587)
    assert cell is not None
    h = offset_to_hex(cell[0], cell[1], m.stagger_axis, m.stagger_index)
    assert plain.terrain.type_at(h).name != "wall" and plain.terrain.is_passable(h)
    assert m.terrain.type_at(h).name == "wall"
    assert not m.terrain.is_passable(h) and m.terrain.sight_blocked(h)  # the wall tile's own properties
    assert m.terrain.light_at(h) == -2  # and what the object names itself still applies


def test_a_tileset_of_another_tile_size_is_refused_saying_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "open_field", tsx={'tilewidth="64"': 'tilewidth="66"'})
    line = refusal(path, capsys)
    assert "66x74" in line and "64x74" in line and "tileset" in line


def test_a_hex_map_without_hexsidelength_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_map(tmp_path, "open_field", {' hexsidelength="36"': ""})
    line = refusal(path, capsys)
    assert "no hexsidelength" in line and "Hex Side Length" in line


def test_a_figure_off_its_hex_centre_is_a_warning_naming_it_and_the_hex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "open_field", {ALDO: ALDO.replace('x="256"', 'x="271"')})
    m = load_map(path)
    assert len(m.warnings) == 1 and "'Aldo'" in m.warnings[0]
    aldo = next(f for f in m.deployment.figures if f.name == "Aldo")
    from game.engine.hexgrid import hex_to_offset

    assert f"cell {hex_to_offset(aldo.hex, m.stagger_axis, m.stagger_index)}" in m.warnings[0]
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and "Aldo" in err
    assert load_map(MAPS_DIR / "open_field.tmx").warnings == ()


def test_property_types_no_project_defines_are_named_with_how_to_add_the_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(
        tmp_path, "forest_road", {HOLLOW: HOLLOW + '\n    <property name="mood" propertytype="Mood" value="grim"/>'}
    )
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err
    assert "Mood" in err and "tiled-project" in err and "Open Project" in err


def test_token_pictures_the_battle_would_not_show_are_warnings_naming_the_file_and_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check-map tells what the battle's status line would: a figure object's missing ``token`` picture,
    a roster character's picture of another format, and one outside the folder (refused); the map still
    loads (exit 0) and each file is named once. A good picture says nothing."""
    path = copy_map(tmp_path, "open_field", {ALDO: ALDO + '    <property name="token" value="art/aldo.png"/>\n'})
    roster = tmp_path / "open_field.roster.toml"
    text = roster.read_text(encoding="utf-8")
    key = next(line[len("[characters.") : -1] for line in text.splitlines() if line.startswith("[characters."))
    text = text.replace(f"[characters.{key}]\n", f'[characters.{key}]\ntoken = "{key}.gif"\n', 1)
    roster.write_text(text, encoding="utf-8")
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    aldo = [line for line in err if "art/aldo.png" in line]
    gif = [line for line in err if f"{key}.gif" in line]
    assert len(aldo) == 1 and "figure 'Aldo'" in aldo[0] and "no such token picture" in aldo[0]
    assert len(gif) == 1 and f"[characters.{key}]" in gif[0] and "PNG, JPEG or WebP" in gif[0]
    assert all(line.startswith("warning: ") for line in aldo + gif)

    (tmp_path / "art").mkdir()
    shutil.copyfile(
        MAPS_DIR.parent
        / "assets"
        / "tokens"
        / next(p.name for p in (MAPS_DIR.parent / "assets" / "tokens").iterdir() if p.suffix == ".png"),
        tmp_path / "art" / "aldo.png",
    )
    roster.write_text(text.replace(f'token = "{key}.gif"', 'token = "../outside.png"'), encoding="utf-8")
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err
    assert "aldo.png" not in err
    assert "outside.png" in err and "refused" in err and "copy the picture into" in err
