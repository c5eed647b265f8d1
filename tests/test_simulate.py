"""Headless play from the command line: ``simulate`` plays whole battles on every shipped map,
``replay --verify`` reproduces every roll and names the first difference of an edited log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import main
from game.session import shipped_maps

MAPS = shipped_maps()


pytestmark = pytest.mark.usefixtures("home")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("map_path", MAPS, ids=[m.stem for m in MAPS])
def test_tactical_battle_on_every_shipped_map_finishes_and_replays(
    map_path: Path, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full tactical-vs-tactical battle on each shipped map ends with a winner summary and replays."""
    out = tmp_path / "log.json"
    assert main.main(["simulate", str(map_path), "--seed", str(seed), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Battle over after" in text and "winner:" in text
    assert main.main(["replay", str(out), "--verify"]) == 0
    assert "reproduce every roll" in capsys.readouterr().out


@pytest.mark.parametrize("players", ["random,random", "tactical,random", "random"])
def test_simulate_with_other_players(players: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--players names a computer player per side (or one for all)."""
    out = tmp_path / "log.json"
    assert main.main(["simulate", str(MAPS[0]), "--seed", "4", "--players", players, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["seed"] == 4 and data["actions"]
    assert main.main(["replay", str(out), "--verify"]) == 0
    capsys.readouterr()


def test_replay_verify_names_the_first_edited_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An edited log fails --verify with a non-zero exit naming the action that differs."""
    out = tmp_path / "log.json"
    assert main.main(["simulate", str(MAPS[0]), "--seed", "7", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    i = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "declare")
    data["actions"][i]["stance"] = "very_defensive" if data["actions"][i]["stance"] != "very_defensive" else "neutral"
    out.write_text(json.dumps(data))
    capsys.readouterr()
    assert main.main(["replay", str(out), "--verify"]) == 1
    err = capsys.readouterr().err
    assert f"action {i + 1}" in err


def test_replay_verify_rejects_a_wrong_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log whose seed was changed does not reproduce the opening initiative rolls."""
    out = tmp_path / "log.json"
    assert main.main(["simulate", str(MAPS[0]), "--seed", "7", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    data["seed"] = 8
    out.write_text(json.dumps(data))
    capsys.readouterr()
    assert main.main(["replay", str(out), "--verify"]) == 1
    assert "does not replay" in capsys.readouterr().err


def test_simulate_bad_arguments_give_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing map or a wrong number of players exits 2 with a sentence on stderr."""
    assert main.main(["simulate", str(tmp_path / "nowhere.tmx")]) == 2
    assert "error" in capsys.readouterr().err
    assert main.main(["simulate", str(MAPS[0]), "--players", "random,random,random"]) == 2
    assert "--players" in capsys.readouterr().err
    assert main.main(["replay", str(tmp_path / "none.json"), "--verify"]) == 1
    assert "no such save" in capsys.readouterr().err
