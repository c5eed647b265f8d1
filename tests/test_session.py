"""A battle in play (FTC 3–7 via the engine): map + roster -> session, autosave after every phase,
save / load / undo through the session, and a damaged save that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import record
from game.engine.ai import make_player
from game.engine.battle import legal_actions
from game.engine.events import PhaseBegan
from game.session import ROOT, Session, _sha256, autosave_path, load_session, new_session, shipped_maps
from tests.golden.make_golden import MAP_GOLDEN


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep the autosave inside the test's temporary folder."""
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _step(s: Session, players: dict[str, object]) -> list[object]:
    d = legal_actions(s.battle)
    assert d is not None
    return s.apply(players[d.side](s.battle, d))  # type: ignore[operator]


def test_autosave_lives_under_fudge_tactics_home(home: Path) -> None:
    """The autosave goes to $FUDGE_TACTICS_HOME (tests never touch the player's own saves)."""
    assert autosave_path() == home / "autosave.json"
    s = new_session(seed=3)
    assert s.autosave == home / "autosave.json" and s.autosave.exists()


def test_autosave_after_every_phase(home: Path) -> None:
    """Issue 3: the autosave is rewritten whenever a phase begins; it always loads and replays."""
    s = new_session(seed=5)
    players = {sid: make_player("random", i) for i, sid in enumerate(s.battle.sides)}
    saved_lengths = []
    while s.battle.round <= 2 and not s.battle.over:
        events = _step(s, players)
        data = json.loads((home / "autosave.json").read_text())
        if any(isinstance(e, PhaseBegan) for e in events):
            assert len(data["actions"]) == len(s.battle.log)
            saved_lengths.append(len(data["actions"]))
        else:
            assert len(data["actions"]) <= len(s.battle.log)
    assert len(saved_lengths) >= 3
    loaded = load_session(home / "autosave.json", autosave=False)
    assert loaded.battle.log == s.battle.log[: len(loaded.battle.log)]


def test_session_save_load_continue_equals_uninterrupted(tmp_path: Path) -> None:
    """Save → load → continue gives exactly the events of the battle played without a break."""
    whole = new_session(seed=9, autosave=False)
    players = {sid: make_player("tactical", i) for i, sid in enumerate(whole.battle.sides)}
    while not whole.battle.over and whole.battle.round <= 4:
        _step(whole, players)
    cut = len(whole.battle.log) // 2
    part = new_session(seed=9, autosave=False)
    for a in whole.battle.log[:cut]:
        part.apply(a)
    part.save(tmp_path / "mid.json")
    resumed = load_session(tmp_path / "mid.json", autosave=False)
    for a in whole.battle.log[cut:]:
        resumed.apply(a)
    assert resumed.battle.events == whole.battle.events
    assert resumed.battle.digests == whole.battle.digests


def test_session_undo_and_its_refusal() -> None:
    """Undo through the session: a hold is taken back; a decision that rolled dice is not."""
    s = new_session(seed=2, autosave=False)
    d = legal_actions(s.battle)
    assert d is not None and d.reason == "move"
    s.apply(act.Hold(d.figure or ""))
    s.undo()
    assert s.battle.log == [] and legal_actions(s.battle) == d
    players = {sid: make_player("random", i) for i, sid in enumerate(s.battle.sides)}
    while s.battle.round == 1:
        _step(s, players)
    with pytest.raises(Exception, match="rolled dice"):
        s.undo()


def test_loading_a_damaged_save_changes_nothing(tmp_path: Path) -> None:
    """A truncated save raises ``SaveError``; the running session and the file are unchanged."""
    s = new_session(seed=4, autosave=False)
    path = tmp_path / "s.json"
    s.save(path)
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    before = path.read_bytes()
    with pytest.raises(record.SaveError):
        load_session(path, autosave=False)
    assert path.read_bytes() == before


def test_every_shipped_map_starts_a_session() -> None:
    """Each shipped map with its default roster makes a battle of at least two sides."""
    maps = shipped_maps()
    assert len(maps) >= 4
    for m in maps:
        s = new_session(m, seed=1, autosave=False)
        assert len(s.battle.sides) >= 2 and s.battle.decision() is not None


@pytest.mark.parametrize("name", sorted(MAP_GOLDEN))
def test_golden_log_on_a_shipped_map_replays(name: str, tmp_path: Path) -> None:
    """The golden battles on shipped maps replay with every digest matching (``load_session`` verifies)."""
    data = json.loads((ROOT / "tests" / "golden" / f"{name}.json").read_text())
    map_path = ROOT / data["setup"]["map"]
    assert data["setup"]["map_sha256"] == _sha256(map_path), (
        f"{map_path.name} changed since the golden log was made: run python tests/golden/make_golden.py")
    data["setup"]["map"] = str(map_path)
    copy = tmp_path / f"{name}.json"
    copy.write_text(json.dumps(data))
    s = load_session(copy, autosave=False)
    assert len(s.battle.log) == len(data["actions"]) and s.battle.digests == data["digests"]
    assert any(e.kind == "attack" for e in s.battle.events)
