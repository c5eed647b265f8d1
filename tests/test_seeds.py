"""Every seed the game makes is one its own saves accept (docs/architecture.md "A battle is its log"): a battle
started any way — the window (hotseat or against the computer), the host, the host from New battle (see
``tests/ui/test_table_screen.py``), ``simulate``, ``ai-match`` — saves a seed that loads and replays roll for
roll. The game makes 63-bit seeds on the keyed dice; a person may give any 64-bit seed."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import main
from game import ai_match
from game.engine import ai
from game.engine.generator import DICE_KINDS, KEYED_DICE, LEGACY_DICE, SEED_BITS, SEED_MAX, SEED_MIN
from game.session import Session, load_session, new_session
from game.ui.app import App
from game.ui.battle_setup import BattleSetup

ROOT = Path(__file__).resolve().parents[1]
FIELD = ROOT / "maps" / "open_field.tmx"


def _saved_seed_replays(path: Path) -> int:
    data = json.loads(path.read_text())
    assert data["dice"] == KEYED_DICE
    again = load_session(path, autosave=False, strict=True)
    assert again.battle.setup.seed == data["seed"]
    assert main.main(["replay", str(path), "--verify"]) == 0
    return int(data["seed"])


def test_a_new_battle_gets_a_63_bit_seed_on_the_keyed_dice() -> None:
    seeds = {new_session(FIELD, autosave=False).battle.setup.seed for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 2**SEED_BITS for s in seeds)
    assert max(seeds) >= 2**40  # 63 random bits, not 32 as before


@pytest.mark.parametrize("controllers", [{"blue": "human", "red": "human"}, {"blue": "human", "red": "tactical"}])
@pytest.mark.parametrize("seed", [None, SEED_MAX, SEED_MIN])
def test_the_windows_battles_save_a_seed_they_load(
    tmp_path: Path, controllers: dict[str, str], seed: int | None
) -> None:
    """The window's New battle (hotseat, or against the computer) and ``play --seed``."""
    app = App(config=tmp_path / "config", maps_dir=ROOT / "maps", seed=seed)
    try:
        session = app.new_session(
            BattleSetup(FIELD, None, seed=None, side_controllers=tuple(controllers.items())), autosave=False
        )
    finally:
        app.close()
    assert seed is None or session.battle.setup.seed == seed
    d = session.battle.decision()
    assert d is not None
    from game.engine.battle import Seat
    from game.engine.players import make_player

    session.apply(make_player("tactical", 1)(session.battle, d), Seat.of_side(d.side))
    session.save(tmp_path / "window.json")
    assert _saved_seed_replays(tmp_path / "window.json") == session.battle.setup.seed


@pytest.mark.parametrize("seed", [None, SEED_MAX, SEED_MIN])
def test_simulates_saves_load(tmp_path: Path, seed: int | None) -> None:
    out = tmp_path / "sim.json"
    extra = [] if seed is None else ["--seed", str(seed)]
    assert main.main(["simulate", str(FIELD), "--max-rounds", "2", "--out", str(out), *extra]) == 0
    assert _saved_seed_replays(out) == (1 if seed is None else seed)


@pytest.mark.parametrize("seed", [str(SEED_MAX + 1), str(SEED_MIN - 1), "2" * 40, "one"])
def test_a_seed_no_save_could_hold_is_refused_with_a_sentence(capsys: pytest.CaptureFixture[str], seed: str) -> None:
    with pytest.raises(SystemExit):
        main.main(["simulate", str(FIELD), "--seed", seed])
    err = capsys.readouterr().err
    assert "argument --seed: a seed is a whole number" in err and "Traceback" not in err


@pytest.mark.parametrize("seed", [None, SEED_MAX])
def test_a_hosted_tables_save_loads(tmp_path: Path, seed: int | None) -> None:
    """``host`` without ``--seed`` (it used to save 128 random bits) and with the largest seed: the host's
    computer plays both sides to the end; the table's save replays roll for roll."""
    save = tmp_path / "table.json"
    extra = [] if seed is None else ["--seed", str(seed)]
    argv = ["host", str(FIELD), "--port", "0", "--save", str(save), "--computer", "blue", "--computer", "red"]
    assert main.main([*argv, *extra]) == 0
    data = json.loads(save.read_text())
    assert data["actions"]
    assert (0 <= data["seed"] < 2**SEED_BITS) if seed is None else data["seed"] == seed
    _saved_seed_replays(save)


@pytest.mark.parametrize("dice", DICE_KINDS)
def test_ai_match_plays_its_battles_on_the_dice_asked_for(
    dice: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``ai-match --dice``: every battle is played on the dice named (the legacy dice replay the seeds measured
    before the keyed dice), replays from its save on them, and the report and the JSON say which."""
    played: list[str] = []

    def recording(*args: Any, **kwargs: Any) -> Session:
        session = new_session(*args, **kwargs)
        played.append(session.battle.setup.dice)
        return session

    monkeypatch.setattr(ai_match, "new_session", recording)
    out = tmp_path / "match.json"
    argv = ["ai-match", "--players", "random,tactical", "--seeds", "1", "--maps", str(FIELD), "--max-rounds", "2"]
    assert main.main([*argv, "--verify", "--dice", dice, "--json", str(out)]) == 0
    assert played and set(played[1:]) == {dice}  # the first only names the sides
    assert json.loads(out.read_text(encoding="utf-8"))["dice"] == dice
    assert ("dice: mt19937" in capsys.readouterr().out) is (dice == LEGACY_DICE)


def test_ai_match_decides_alike_however_slow_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match is a measurement: the same seeds give the same battles on a busy machine. The tactical player's
    time limit (which keeps a decision short at the screen) never cuts a decision short in ``ai-match``: with
    a clock that leaps five seconds at every look, the battles are those of a still clock."""
    digests: list[tuple[str, ...]] = []

    def recording(*args: Any, **kwargs: Any) -> Session:
        session = new_session(*args, **kwargs)
        sessions.append(session)
        return session

    sessions: list[Session] = []
    monkeypatch.setattr(ai_match, "new_session", recording)
    kinds = {"blue": "tactical", "red": "veteran"}
    for clock in (time.perf_counter, itertools.count(0.0, 5.0).__next__):
        monkeypatch.setattr(ai, "time", SimpleNamespace(perf_counter=clock))
        sessions.clear()
        ai_match.play_one(FIELD, 3, kinds, max_rounds=2)
        digests.append(tuple(sessions[0].battle.digests))
    assert len(digests[0]) > 20
    assert digests[0] == digests[1]


@pytest.mark.parametrize("first", [1, SEED_MAX - 1])
def test_ai_matches_battles_replay_from_their_saves(first: int, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ai-match", "--players", "random,tactical", "--seeds", "1", "--first-seed", str(first)]
    assert main.main([*argv, "--maps", str(FIELD), "--max-rounds", "3", "--verify"]) == 0
    assert "random against tactical" in capsys.readouterr().out
