"""A GM's map is checked like a battle would use it: ``check-map`` and New battle's loading refuse, naming the
object, the field and the fix, a side spelled two ways (a swapped pair of letters too) and an unknown terrain
name; ``check-map`` names every problem of a map and its roster in one run; a tileset of another tile size and
a hex map without a hex side length load with a warning, as Tiled draws them; a terrain object's ``terrain``
makes its hexes that terrain; a figure off its hex centre, a figure on a side the roster does not name and a
name one slip from one the game reads are warnings naming the place and the fix. Fixtures are copies of the
shipped maps (saved by Tiled) with a few things changed, written to a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.cli.maps import check_map_main
from game.engine.hexgrid import offset_to_hex
from game.engine.spelling import near_miss
from game.maps.errors import MapLoadError
from game.maps.loader import check_map, load_map
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
    assert near_miss("bleu", "blue") and near_miss("Bandti", "Bandit")  # a swap of two letters is one slip
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
    h = offset_to_hex(cell[0], cell[1], m.tmx.stagger_axis, m.tmx.stagger_index)
    assert plain.terrain.type_at(h).name != "wall" and plain.terrain.is_passable(h)
    assert m.terrain.type_at(h).name == "wall"
    assert not m.terrain.is_passable(h) and m.terrain.sight_blocked(h)  # the wall tile's own properties
    assert m.terrain.light_at(h) == -2  # and what the object names itself still applies


def test_a_tileset_of_another_tile_size_is_a_warning_saying_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tiled draws tiles of another size than the grid on purpose (tall trees, overlapping art): the map loads,
    and check-map warns with both sizes and the fix."""
    path = copy_map(tmp_path, "open_field", tsx={'tilewidth="64"': 'tilewidth="66"'})
    m = load_map(path)
    assert [w for w in m.warnings if "tileset" in w] == [m.warnings[0]]
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and "66x74" in err and "64x74" in err and "Map > Map Properties" in err


def test_a_hex_map_without_hexsidelength_loads_as_tiled_reads_it_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "open_field", {' hexsidelength="36"': ""})
    m = load_map(path)
    assert m.tmx.hex_side_length == 0 and m.layout.hex_side_length == 0  # Tiled reads it as 0
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err
    assert "no hexsidelength" in err and "read as 0" in err and "Tile Side Length (Hex)" in err


GARTH = '<property name="character" value="guard_spear"/>\n    <property name="facing" type="int" value="1"/>'
ODO = '<property name="facing" type="int" value="2"/>\n    <property name="side" propertytype="Side" value="blue"/>'


def test_check_map_names_every_mistake_of_a_map_and_its_roster_in_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three independent mistakes in the map (an unknown terrain, a facing out of range, a side spelled with two
    letters swapped) and one in the roster (a character key) come out of one run, each naming the place and the
    fix; loading the map for a battle still stops at the first."""
    path = copy_map(
        tmp_path,
        "forest_road",
        {
            HOLLOW: HOLLOW + '\n    <property name="terrain" value="dense_wood"/>',
            GARTH: GARTH.replace('value="1"', 'value="9"'),
            ODO: ODO.replace('value="blue"', 'value="bleu"'),
        },
    )
    roster = tmp_path / "forest_road.roster.toml"
    roster.write_text(
        roster.read_text(encoding="utf-8").replace("[characters.guard_sword]", "[characters.guard_swrod]")
    )
    with pytest.raises(MapLoadError, match="dense_wood"):
        load_map(path)
    assert [p.element for p in check_map(path).problems] == [
        '<object id="1" "Dark hollow"> property "terrain"',
        '<object id="6" "Garth"> property "facing"',
        '<object id="7" "Odo"> property "side"',
    ]
    assert check_map_main([str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    errors = [line for line in err if line.startswith("error: ")]
    assert len(errors) == 4, err
    assert '"dense_wood" is not a known terrain' in errors[0] and "did you mean 'dense_woods'?" in errors[0]
    assert "Garth" in errors[1] and '"9" is not a facing' in errors[1] and "use 0..5" in errors[1]
    assert "Odo" in errors[2] and '"bleu" is a near miss of the side "blue"' in errors[2]
    assert "'guard_sword'" in errors[3] and "roster" in errors[3] and "did you mean 'guard_swrod'?" in errors[3]
    assert err[-1] == "forest_road.tmx: refused, 4 problems; fix the problems above and check again"


def test_check_map_json_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = copy_map(
        tmp_path, "forest_road", {GARTH: GARTH.replace('value="1"', 'value="9"'), ODO: ODO.replace("blue", "bleu")}
    )
    assert check_map_main([str(path), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and len(out["problems"]) == 2 and out["error"] == out["problems"][0]
    assert out["warnings"] == []


def test_a_figure_on_a_side_the_roster_does_not_name_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A roster that names its sides and a map figure on another one (not a near miss of them): the battle
    would make that figure an army of its own, so check-map says so, naming the figure, the sides and the fix."""
    path = copy_map(tmp_path, "forest_road", {ODO: ODO.replace('value="blue"', 'value="green"')})
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("warning: ") == 1 and "figure 'Odo' is on the side 'green'" in err
    assert "blue, red" in err and "[sides.green]" in err


def test_a_side_with_two_letters_swapped_in_the_roster_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "open_field")
    roster = tmp_path / "open_field.roster.toml"
    roster.write_text(roster.read_text(encoding="utf-8").replace("[sides.blue]", "[sides.bleu]"), encoding="utf-8")
    with pytest.raises(SetupError, match=r"the side 'bleu' .* near miss of the side 'blue'"):
        place_figures(load_map(path), load_roster(roster))
    assert "near miss of the side 'blue'" in refusal(path, capsys)


def test_names_one_slip_from_those_the_game_reads_are_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A terrain object's "move_penatly", a map property "Roster" and a tile's "blocks_sigth" would be ignored
    as written; an object of class "figures" too. Each is a warning naming the place and the name meant."""
    path = copy_map(
        tmp_path,
        "forest_road",
        {
            HOLLOW: HOLLOW + '\n    <property name="move_penatly" type="int" value="2"/>',
            '<property name="name"': '<property name="Descripton" value="x"/>\n  <property name="name"',
            '<object id="2" name="Convoy" type="deploy" class="deploy"': (
                '<object id="99" name="Stray" type="figures" x="10" y="10"><point/></object>\n  '
                '<object id="2" name="Convoy" type="deploy" class="deploy"'
            ),
        },
        tsx={'name="blocks_sight"': 'name="blocks_sigth"'},
    )
    assert check_map_main([str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert any('"Dark hollow"> property "move_penatly"' in w and 'rename it "move_penalty"' in w for w in err)
    assert any('<map> property "Descripton"' in w and '"description"' in w for w in err)
    assert any('property "blocks_sigth"' in w and 'tileset "terrain_pointy"' in w for w in err)
    assert any('"Stray">: its class "figures"' in w and '"figure"' in w for w in err)
    assert load_map(MAPS_DIR / "forest_road.tmx").warnings == ()


def test_a_figure_whose_side_property_is_misnamed_is_told_to_rename_it(tmp_path: Path) -> None:
    path = copy_map(tmp_path, "forest_road", {ODO: ODO.replace('name="side"', 'name="Side"')})
    with pytest.raises(MapLoadError) as err:
        load_map(path)
    assert 'the object has no "side"' in str(err.value) and 'rename its property "Side" to "side"' in str(err.value)


def test_a_figure_off_its_hex_centre_is_a_warning_naming_it_and_the_hex(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_map(tmp_path, "open_field", {ALDO: ALDO.replace('x="256"', 'x="271"')})
    m = load_map(path)
    assert len(m.warnings) == 1 and "'Aldo'" in m.warnings[0]
    aldo = next(f for f in m.deployment.figures if f.name == "Aldo")
    from game.engine.hexgrid import hex_to_offset

    assert f"cell {hex_to_offset(aldo.hex, m.tmx.stagger_axis, m.tmx.stagger_index)}" in m.warnings[0]
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
