"""A save is decoded strictly against its schema before anything in it is applied (docs/architecture.md "One
contract at every boundary"): a damaged, edited or hostile save ends in the game's own ``SaveError`` with one
sentence naming the file and the field, quickly, and never a traceback."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import main
from game import session as session_mod
from game.engine import actions as act
from game.engine import codec, record
from game.engine.hexgrid import Hex


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
    assert f"action {i + 1} is damaged (the field 'figure' must be text, not a list)" in message


def test_replay_verify_refuses_it_with_one_line(
    saved: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(json.dumps(saved))
    i = next(i for i, a in enumerate(data["actions"]) if "figure" in a)
    data["actions"][i]["figure"] = ["x", "x"]
    path = _write(tmp_path, data)
    assert main.main(["replay", str(path), "--verify"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err and "'figure' must be text" in err


def test_a_save_that_is_one_deeply_nested_array_is_refused(tmp_path: Path) -> None:
    message = _refused(_write(tmp_path, "[" * 100_000 + "]" * 100_000))
    assert "not a battle save" in message and "must be an object, not a list" in message


def test_a_save_with_a_deeply_nested_array_inside_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(saved).replace('"actions": [', '"actions": [' + "[" * 5000 + "]" * 5000 + ", ", 1)
    assert "not a battle save (lists and objects are nested too deeply)" in _refused(_write(tmp_path, text))


def test_data_nested_deeper_than_its_bound_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    """The roster a save carries has no fixed shape, but its nesting is bounded (``codec.MAX_DEPTH``)."""
    data = json.loads(json.dumps(saved))
    deep: Any = 1
    for _ in range(codec.MAX_DEPTH + 1):
        deep = [deep]
    data["setup"]["roster"]["deep"] = deep
    assert f"[0]' nests too deeply (data of no fixed shape nests at most {codec.MAX_DEPTH} deep)" in _refused(
        _write(tmp_path, data)
    )


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_infinity_and_overflowing_numbers_are_refused(saved: dict[str, Any], tmp_path: Path, constant: str) -> None:
    text = json.dumps(saved).replace(f'"seed": {saved["seed"]}', f'"seed": {constant}', 1)
    message = _refused(_write(tmp_path, text))
    assert "not valid JSON" in message or "out of range" in message


@pytest.mark.parametrize("seed", [str(2**128), str(-(2**128)), "9" * 5000])
def test_a_seed_beyond_any_the_game_wrote_is_refused(saved: dict[str, Any], tmp_path: Path, seed: str) -> None:
    text = json.dumps(saved).replace(f'"seed": {saved["seed"]}', f'"seed": {seed}', 1)
    assert "'seed'" in _refused(_write(tmp_path, text))


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("stance", 7, "'stance' must be text, not a whole number"),
        ("targets", "Bors", "'targets' must be a list, not text"),
        ("advance", [[0, 10**9]], "'advance[0][1]' must be a whole number at most 100000"),
        ("retreat", [0], "'retreat' must be a list of 2 entries"),
        ("advance_facing", "north-east", "'advance_facing' must be a whole number or nothing (null), not text"),
        ("advance_facing", 6, "'advance_facing' must be a whole number at most 5"),
        ("weapon", "x" * 300, "'weapon' must be text of at most 200 characters"),
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
    with pytest.raises(codec.CodecError) as info:
        act.decode_action('{"kind": "move", "figure": "a", "steps": [[[0, 0], 9]]}')
    assert info.value.problem == "the field 'steps[0][1]' must be a whole number at most 5"
    assert act.decode_action('{"kind": "move", "figure": "a", "steps": [[[0, 0], 5]]}') == act.Move(
        "a", ((Hex(0, 0), 5),)
    )
    with pytest.raises(codec.CodecError, match="it needs the field 'figure'"):
        act.decode_action('{"kind": "move"}')


def test_a_damaged_setup_is_refused(saved: dict[str, Any], tmp_path: Path) -> None:
    data = json.loads(json.dumps(saved))
    data["setup"]["figures"][0]["hex"] = [10**6, 0]
    assert "'setup.figures[0].hex[0]' must be a whole number at most 100000" in _refused(_write(tmp_path, data))
    data = json.loads(json.dumps(saved))
    data["setup"]["figures"][0]["hex"] = [900, 0]
    assert "off the map" in _refused(_write(tmp_path, data))
    data = json.loads(json.dumps(saved))
    data["setup"]["options"] = {"secret_stances": "yes"}
    assert "'setup.options.secret_stances' must be true or false, not text" in _refused(_write(tmp_path, data))
    data["setup"]["options"] = {"damage_roll": "two_dice"}
    assert "'setup.options.damage_roll' cannot be 'two_dice'" in _refused(_write(tmp_path, data))
    data = json.loads(json.dumps(saved))
    data["setup"]["surprise"] = 1
    assert "the field 'setup' has no field 'surprise'" in _refused(_write(tmp_path, data))


@pytest.mark.parametrize("version", ["[2]", '{"a": 1}', '"2"', "true", "2.0", "99"])
def test_a_save_version_that_is_no_version_of_this_game_is_refused(tmp_path: Path, version: str) -> None:
    path = tmp_path / "odd.json"
    path.write_text('{"format": "fudge-tactics-battle", "version": ' + version + ', "seed": 1, "setup": {}}')
    with pytest.raises(record.SaveError, match="is not supported"):
        record.load(path)
