"""A save is checked field by field before anything in it is applied: a damaged, edited or hostile save ends
in the game's own ``SaveError`` with one sentence naming the file, quickly, and never a traceback."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import main
from game import session as session_mod
from game.engine import record
from game.engine.savecheck import check_action, nesting_depth


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real save of a short computer battle on the village."""
    out = tmp_path_factory.mktemp("save") / "village.json"
    assert main.main(["simulate", "maps/village.tmx", "--seed", "3", "--max-rounds", "1", "--out", str(out)]) == 0
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def _refused(path: Path) -> str:
    start = time.process_time()
    with pytest.raises(record.SaveError) as info:
        session_mod.load_session(path, autosave=False)
    assert time.process_time() - start < 1.0
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    return message


def _write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_an_action_naming_a_list_as_its_figure_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    data = json.loads(json.dumps(saved))
    i = next(i for i, a in enumerate(data["actions"]) if "figure" in a)
    data["actions"][i]["figure"] = ["x", "x"]
    message = _refused(_write(tmp_path, data))
    assert f"action {i + 1}" in message and "'figure' must be text" in message


def test_replay_verify_refuses_it_with_one_line(
    saved: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(json.dumps(saved))
    i = next(i for i, a in enumerate(data["actions"]) if "figure" in a)
    data["actions"][i]["figure"] = ["x", "x"]
    path = _write(tmp_path, data)
    assert main.main(["replay", str(path), "--verify"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err


def test_a_save_that_is_one_deeply_nested_array_is_refused(tmp_path: Path) -> None:
    message = _refused(_write(tmp_path, "[" * 100_000 + "]" * 100_000))
    assert "nested 100000 deep" in message


def test_a_save_with_a_deeply_nested_array_inside_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(saved).replace('"actions": [', '"actions": [' + "[" * 5000 + "]" * 5000 + ", ", 1)
    assert "nested" in _refused(_write(tmp_path, text))


def test_nan_and_infinity_are_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(saved).replace(f'"seed": {saved["seed"]}', '"seed": NaN', 1)
    assert "NaN" in _refused(_write(tmp_path, text))


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("stance", 7, "'stance' must be text"),
        ("targets", "Bors", "'targets' must be a list"),
        ("advance", [[0, 10**9]], "far off any map"),
        ("retreat", [0], "must be a hex [q, r]"),
        ("colour", "red", "has no field 'colour'"),
    ],
)
def test_every_field_of_a_declaration_is_checked(
    saved: dict[str, Any], tmp_path: Path, field: str, value: object, words: str
) -> None:
    data = json.loads(json.dumps(saved))
    i = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "declare")
    data["actions"][i][field] = value
    assert words in _refused(_write(tmp_path, data))


def test_a_move_with_a_step_facing_off_the_hex_sides_is_refused() -> None:
    assert check_action({"kind": "move", "figure": "a", "steps": [[0, 0, 9]]}) == (
        "field 'steps'[0] has facing 9, not a hex side 0-5"
    )
    assert check_action({"kind": "move", "figure": "a", "steps": [[0, 0, 5]]}) is None
    assert check_action({"kind": "move"}) == "a 'move' action needs the field 'figure'"


def test_a_damaged_setup_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    data = json.loads(json.dumps(saved))
    data["setup"]["figures"][0]["hex"] = [10**6, 0]
    assert "off the map" in _refused(_write(tmp_path, data))
    data = json.loads(json.dumps(saved))
    data["setup"]["options"] = {"secret_stances": "yes"}
    assert "rule options" in _refused(_write(tmp_path, data))


def test_nesting_depth_skips_brackets_inside_strings() -> None:
    assert nesting_depth('{"a": ["[[[[", {"b": "]]"}]}') == 3
