"""Structure-aware fuzzing of every reader of a file a person gives the game: rosters, saves, settings and
Tiled maps. Each test mutates a real file (types swapped, numbers pushed to extremes, keys dropped, values
nested, lists blown up, the text cut short, bytes flipped) and asserts the reader's contract: the game's own
error with a one-line sentence naming the file, or a valid result — never any other exception.

The normal run keeps a small, repeatable budget (a few seconds in all); ``HYPOTHESIS_PROFILE=explore`` draws
fresh examples and many more of them.
"""

from __future__ import annotations

import copy
import json
import math
import os
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from game.cli.maps import check_map_main
from game.engine import record
from game.engine.rule_options import OPTIONS, RuleOptions, presets
from game.maps.errors import MapLoadError
from game.maps.loader import LoadedMap, check_map, load_map
from game.roster import Roster, RosterError, load_roster
from game.rules_file import RulesFileError, read_rules, rules_text
from game.session import Session, load_session
from game.ui.settings import ANIMATION_SPEEDS, MIN_WINDOW, SETTINGS_FILE, UI_SCALES, Settings, load_settings

EXPLORE = os.environ.get("HYPOTHESIS_PROFILE") == "explore"


def budget(examples: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a fuzzer: ``examples`` in the normal run, ten times more when exploring."""
    return settings(
        max_examples=examples * 10 if EXPLORE else examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    )


# ------------------------------------------------------------------------------------------ mutations

DEEP = "@@deep@@"
"""A marker value that the text of the file replaces by a deeply nested list (serializers cannot write one)."""

EXTREMES: list[Any] = [
    0,
    -1,
    2**31,
    -(2**63),
    2**63 - 1,
    10**30,
    1e308,
    -1e308,
    math.nan,
    math.inf,
    -math.inf,
    -0.0,
    0.5,
    "",
    "x" * 5000,
    "Legendary+999",
    "Terrible-99",
    "\u0000\U0001f600",
    True,
    False,
    None,
    [],
    {},
    [[[]]],
    {"a": {"b": [1]}},
    ["x", "x"],
    DEEP,
]

values = st.one_of(
    st.sampled_from(EXTREMES),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.booleans(),
    st.lists(st.integers(-3, 3), max_size=4),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


@st.composite
def mutated(draw: st.DrawFn, tree: Any) -> Any:
    """The data of a real file with one to three structural mutations."""
    data = json.loads(json.dumps(tree))  # a deep copy
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "drop", "nest", "swap", "blow_up", "add_key"]))
        if not path:
            if op == "replace":
                data = draw(values)
            continue
        parent, last = _get(data, path[:-1]), path[-1]
        node = parent[last]
        if op == "replace":
            parent[last] = draw(values)
        elif op == "drop":
            del parent[last]
        elif op == "nest":
            parent[last] = DEEP if draw(st.booleans()) else [[node]]
        elif op == "swap":  # the same value as another type
            if isinstance(node, bool):
                parent[last] = int(node)
            elif isinstance(node, int | float):
                parent[last] = str(node)
            elif isinstance(node, str):
                parent[last] = [node]
            elif isinstance(node, list):
                parent[last] = {str(i): v for i, v in enumerate(node)}
            elif isinstance(node, dict):
                parent[last] = list(node.values())
        elif op == "blow_up":
            if isinstance(node, list) and node:
                parent[last] = node * draw(st.sampled_from([50, 2000]))
            elif isinstance(node, dict):
                parent[last] = {**node, **{f"k{i}": node for i in range(draw(st.sampled_from([3, 300])))}}
        elif op == "add_key" and isinstance(node, dict):
            node[draw(st.sampled_from(["", "kind", "name", "x" * 300, "wounds", "figure"]))] = draw(values)
        if not isinstance(data, dict | list):
            break
    return data


def _deepen(text: str, quoted: str, depth: int) -> str:
    return text.replace(quoted, "[" * depth + "]" * depth)


@st.composite
def text_edits(draw: st.DrawFn, text: str) -> bytes:
    """The text of a file cut short, with bytes flipped, or a piece repeated; or as it was."""
    raw = text.encode("utf-8")
    op = draw(st.sampled_from(["none", "truncate", "flip", "repeat"]))
    if op == "truncate" and raw:
        return raw[: draw(st.integers(0, len(raw) - 1))]
    if op == "flip" and raw:
        out = bytearray(raw)
        for _ in range(draw(st.integers(1, 6))):
            out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
        return bytes(out)
    if op == "repeat" and raw:
        a = draw(st.integers(0, len(raw) - 1))
        b = draw(st.integers(a, min(len(raw), a + 200)))
        return raw[:b] + raw[a:b] * draw(st.integers(2, 50)) + raw[b:]
    return raw


def _one_sentence(message: str, path: Path) -> None:
    assert message.strip(), "an error without a sentence"
    assert "\n" not in message.strip(), message
    assert path.name in message, message
    assert "Traceback" not in message


def _toml_ready(node: Any) -> Any:
    """TOML has no null: write it as an empty string."""
    if node is None:
        return ""
    if isinstance(node, dict):
        return {str(k): _toml_ready(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_toml_ready(v) for v in node]
    return node


# ------------------------------------------------------------------------------------------ rosters

ROSTERS = sorted(Path("maps").glob("*.roster.toml"))
ROSTER_DATA = {p.name: load_roster(p).data for p in ROSTERS}
CAMPAIGN_VILLAGE = "village.campaign.roster.toml"
"""The village roster as "Save wounds to roster" leaves it: the brigand Snipe wounded in an entry of its own
that stands in for the shared ``brigand`` (``game.roster``)."""
ROSTER_DATA[CAMPAIGN_VILLAGE] = {
    **ROSTER_DATA["village.roster.toml"],
    "characters": {
        **ROSTER_DATA["village.roster.toml"]["characters"],
        "snipe": {
            **ROSTER_DATA["village.roster.toml"]["characters"]["brigand"],
            "name": "Snipe",
            "stands_in_for": "brigand",
            "wounds": ["Hurt"],
        },
    },
}


@budget(500)
@given(data=st.data(), name=st.sampled_from(sorted(ROSTER_DATA)), depth=st.sampled_from([40, 5000]))
def test_fuzz_roster_reader(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, name: str, depth: int
) -> None:
    tree = data.draw(mutated(ROSTER_DATA[name]))
    if not isinstance(tree, dict):
        tree = {"value": tree}
    text = _deepen(tomli_w.dumps(_toml_ready(tree)), f'"{DEEP}"', depth)
    path = tmp_path_factory.mktemp("roster") / name
    path.write_bytes(data.draw(text_edits(text)))
    try:
        result = load_roster(path)
    except RosterError as exc:
        _one_sentence(str(exc), path)
    else:
        assert isinstance(result, Roster) and result.characters


# ------------------------------------------------------------------------------------------ saves


@pytest.fixture(scope="module")
def save_data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real save: a round of a computer battle on the village."""
    out = tmp_path_factory.mktemp("save") / "village.json"
    assert main.main(["simulate", "maps/village.tmx", "--seed", "2", "--max-rounds", "1", "--out", str(out)]) == 0
    saved: dict[str, Any] = json.loads(out.read_text())
    return saved


@budget(300)
@given(data=st.data(), depth=st.sampled_from([30, 5000]))
def test_fuzz_save_reader(
    tmp_path_factory: pytest.TempPathFactory, save_data: dict[str, Any], data: st.DataObject, depth: int
) -> None:
    tree = data.draw(mutated(save_data))
    text = _deepen(json.dumps(tree), f'"{DEEP}"', depth)
    path = tmp_path_factory.mktemp("save") / "battle.json"
    path.write_bytes(data.draw(text_edits(text)))
    try:
        result = load_session(path, autosave=False)
    except record.SaveError as exc:
        _one_sentence(str(exc), path)
    else:
        assert isinstance(result, Session)


# ------------------------------------------------------------------------------------------ settings

SETTINGS_BASE = {
    "window_width": 1280,
    "window_height": 720,
    "ui_scale": 1.0,
    "colour_blind": False,
    "animation_speed": 1.0,
    "show_grid": True,
}


@budget(300)
@given(data=st.data(), depth=st.sampled_from([30, 5000]))
def test_fuzz_settings_reader(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, depth: int) -> None:
    """A settings file is the game's own: anything wrong in it falls back to the defaults, field by field."""
    tree = data.draw(mutated(SETTINGS_BASE))
    text = _deepen(json.dumps(tree), f'"{DEEP}"', depth)
    folder = tmp_path_factory.mktemp("config")
    (folder / SETTINGS_FILE).write_bytes(data.draw(text_edits(text)))
    result = load_settings(folder)
    assert isinstance(result, Settings)
    assert MIN_WINDOW[0] <= result.window_width <= 16384 and MIN_WINDOW[1] <= result.window_height <= 16384
    assert result.ui_scale in UI_SCALES and result.animation_speed in ANIMATION_SPEEDS
    assert isinstance(result.colour_blind, bool) and isinstance(result.show_grid, bool)


# ------------------------------------------------------------------------------------------ Tiled maps

MAP_NAMES = ["village.tmx", "wyrm_hollow.tmx"]


@pytest.fixture(scope="module")
def map_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shipped maps folder (tilesets and tiles beside the maps the fuzzer rewrites)."""
    folder = tmp_path_factory.mktemp("maps") / "maps"
    shutil.copytree("maps", folder)
    return folder


XML_VALUES = ["", "-1", "0", "99999999999", "1e309", "nan", "abc", "<", "&amp;", "9" * 400, "zstd", "base64", "y"]


@st.composite
def mutated_xml(draw: st.DrawFn, text: str) -> str:
    """A TMX document with attributes changed or dropped, elements dropped, repeated or nested."""
    root = ET.fromstring(text)
    for _ in range(draw(st.integers(1, 3))):
        elements = list(root.iter())
        elem = draw(st.sampled_from(elements))
        op = draw(st.sampled_from(["attr", "drop_attr", "drop", "repeat", "nest", "text"]))
        if op == "attr" and elem.attrib:
            key = draw(st.sampled_from(sorted(elem.attrib)))
            elem.set(key, draw(st.one_of(st.sampled_from(XML_VALUES), st.text(max_size=8))))
        elif op == "drop_attr" and elem.attrib:
            del elem.attrib[draw(st.sampled_from(sorted(elem.attrib)))]
        elif op in ("drop", "repeat") and elem is not root:
            parent = next(p for p in root.iter() if elem in list(p))
            if op == "drop":
                parent.remove(elem)
            else:
                for _ in range(draw(st.sampled_from([2, 50]))):
                    parent.append(copy.deepcopy(elem))
        elif op == "nest":
            inner = copy.deepcopy(elem)
            for _ in range(draw(st.sampled_from([3, 300]))):
                outer = ET.Element(elem.tag, elem.attrib)
                outer.append(inner)
                inner = outer
            elem.append(inner)
        elif op == "text":
            elem.text = draw(st.one_of(st.sampled_from(XML_VALUES), st.text(max_size=30)))
    cleaned = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + cleaned


@budget(500)
@given(data=st.data(), name=st.sampled_from(MAP_NAMES))
def test_fuzz_tmx_reader(map_folder: Path, data: st.DataObject, name: str) -> None:
    original = (Path("maps") / name).read_text(encoding="utf-8")
    text = data.draw(mutated_xml(original)) if data.draw(st.booleans()) else original
    path = map_folder / f"fuzzed_{name}"
    path.write_bytes(data.draw(text_edits(text)))
    try:
        result = load_map(path)
    except MapLoadError as exc:
        _one_sentence(str(exc), path)
    else:
        assert isinstance(result, LoadedMap) and result.terrain.width > 0


@budget(100)
@given(data=st.data(), name=st.sampled_from(MAP_NAMES))
def test_fuzz_map_checker_names_every_problem_and_loading_stops_at_the_first(
    map_folder: Path, data: st.DataObject, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check-map`` on a damaged map: every problem one sentence, the first the same as ``load_map``'s refusal
    (or none when it loads), and the command itself (roster placement on what could be built) ends in exit 0
    or 2 without a traceback."""
    original = (Path("maps") / name).read_text(encoding="utf-8")
    path = map_folder / f"checked_{name}"
    path.write_text(data.draw(mutated_xml(original)), encoding="utf-8")
    shutil.copyfile(Path("maps") / name.replace(".tmx", ".roster.toml"), path.with_suffix(".roster.toml"))
    check = check_map(path)
    for problem in check.problems:
        _one_sentence(str(problem), path)
    try:
        load_map(path)
    except MapLoadError as exc:
        assert check.problems and str(check.problems[0]) == str(exc)
    else:
        assert not check.problems and check.loaded is not None
    assert check_map_main([str(path)]) in (0, 2)
    assert "Traceback" not in capsys.readouterr().err


@budget(40)
@given(data=st.data(), name=st.sampled_from(["village.roster.toml", CAMPAIGN_VILLAGE]))
def test_fuzz_a_roster_that_loads_starts_and_plays_a_battle(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, name: str
) -> None:
    """Values inside every range play: a mutated village roster that loads starts a battle (or is refused by
    the game's own setup error) and a round of it plays without an exception."""
    from game.engine.players import make_player
    from game.session import SetupError, new_session
    from game.simulate import play_out

    tree = data.draw(mutated(ROSTER_DATA[name]))
    if not isinstance(tree, dict):
        return
    path = tmp_path_factory.mktemp("roster") / "village.roster.toml"
    path.write_text(_deepen(tomli_w.dumps(_toml_ready(tree)), f'"{DEEP}"', 3))
    try:
        session = new_session("maps/village.tmx", path, seed=1, autosave=False)
    except (RosterError, SetupError) as exc:
        _one_sentence(str(exc), path) if str(path) in str(exc) else None
        return
    players = {s: make_player("tactical", i) for i, s in enumerate(session.battle.sides)}
    battle = play_out(session.battle, players, max_rounds=1)
    assert battle.round >= 1


# ------------------------------------------------------------------------------------------ rules files

RULES_KEYS = [*(s.name for s in OPTIONS), "format", "version", "name", "description", "damage_rol", "", "x" * 90]
"""What a line of a rules file may set: every option, the header, a near miss, nothing, a long word."""


@st.composite
def rules_lines(draw: st.DrawFn) -> str:
    """A rules file written line by line: options with values of any type (TOML of every kind), comment
    lines, blank lines, tables, keys twice, the written file itself now and then."""
    if draw(st.booleans()):
        base = rules_text(draw(st.sampled_from([p.options for p in presets()])), "A name")
        lines = base.splitlines()
    else:
        lines = []
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(["set", "comment", "blank", "table", "raw"]))
        if op == "set":
            key = draw(st.sampled_from(RULES_KEYS))
            value = draw(st.one_of(values, st.sampled_from([s.default for s in OPTIONS]), st.sampled_from(VALUES)))
            try:
                line = tomli_w.dumps({key: _toml_ready(value)}).strip().split("\n")[0]
            except (TypeError, ValueError):
                line = f"{key} = nan"
        elif op == "comment":
            line = "# " + draw(st.text(max_size=20)).replace("\n", " ")
        elif op == "blank":
            line = ""
        elif op == "table":
            line = f"[{draw(st.sampled_from(RULES_KEYS)) or 'x'}]"
        else:
            line = draw(st.text(max_size=30))
        lines.insert(draw(st.integers(0, len(lines))), line)
    return "\n".join(lines) + "\n"


VALUES: list[Any] = [*sorted({str(v) for s in OPTIONS for v in s.choices}), 3, 11, -1, 6, 1.5]


@budget(400)
@given(data=st.data())
def test_fuzz_rules_file_reader(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """docs/playing.md "Rules files": our own error with a sentence naming the file (and the line where one is
    to blame), or a valid set of rule options."""
    text = data.draw(rules_lines())
    path = tmp_path_factory.mktemp("rules") / "gritty.toml"
    path.write_bytes(data.draw(text_edits(text)))
    try:
        result = read_rules(path, played_only=data.draw(st.booleans()))
    except RulesFileError as exc:
        _one_sentence(str(exc), path)
    else:
        assert isinstance(result.options, RuleOptions)
