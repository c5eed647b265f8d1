"""A battle is its log (docs/architecture.md "A battle is its log"): save / load / replay with per-action digests, undo,
golden logs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import record
from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, IllegalAction, legal_actions
from tests.golden.make_golden import EXPECT, GOLDEN, event_lines, read_lines
from tests.golden.scenarios import SCENARIOS, skirmish

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_LOGS = sorted(p for p in GOLDEN_DIR.glob("*.json") if not p.stem.startswith("map_"))


def _played(seed: int, n: int | None = None) -> Battle:
    b = Battle(skirmish(seed))
    players = {"blue": RandomPlayer(seed), "red": RandomPlayer(seed + 1)}
    while not b.over and b.round <= 6 and (n is None or len(b.log) < n):
        d = legal_actions(b)
        assert d is not None
        b.apply(players[d.side](b, d))
    return b


def _state(b: Battle) -> tuple[object, ...]:
    return (
        tuple((f.id, f.hex, f.facing, f.wounds, f.out, f.moved, f.held) for f in b.figures.values()),
        b.decision(),
        b.round,
        b.phase,
        tuple(b.events),
        b.rng.getstate(),
        tuple(b.digests),
    )


# ------------------------------------------------------------------------------------------ golden logs


def test_every_golden_battle_has_a_log() -> None:
    """Every golden battle of ``make_golden.py`` is saved in tests/golden, as its log and as readable
    events (regenerate both with that script)."""
    assert {p.stem for p in GOLDEN_LOGS} == set(GOLDEN)
    assert {p.name.removesuffix(".events.txt") for p in GOLDEN_DIR.glob("*.events.txt")} >= set(GOLDEN)


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=[p.stem for p in GOLDEN_LOGS])
def test_golden_battle_replays_event_for_event_as_its_readable_text(path: Path) -> None:
    """Replaying a golden log gives the events of ``<name>.events.txt`` line for line, so a change in a
    roll or an outcome shows as a diff of readable lines (checked before the digests)."""
    rec = record.load(path)
    setup = SCENARIOS[str(rec.setup["scenario"])](rec.seed)
    expected = read_lines(path.with_suffix(".events.txt"))
    assert expected[0] == "@ opening" and sum(line.startswith("@ ") for line in expected) == len(rec.actions) + 1
    assert event_lines(setup, rec.actions) == expected


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=[p.stem for p in GOLDEN_LOGS])
def test_golden_log_replays_with_every_digest_matching(path: Path) -> None:
    """Replaying a golden log reproduces every roll (each action's events digest) and shows its rule."""
    rec = record.load(path)
    assert rec.digests and len(rec.digests) == len(rec.actions)
    setup = SCENARIOS[str(rec.setup["scenario"])](rec.seed)
    seen: list[int] = []
    b = record.replay(
        setup,
        rec.actions,
        digests=rec.digests,
        initial_digest=rec.initial_digest,
        on_action=lambda i, _b: seen.append(i),
    )
    assert seen == list(range(len(rec.actions)))
    assert b.digests == list(rec.digests)
    assert EXPECT[path.stem](b.events), f"{path.stem} no longer shows its rule"


def test_golden_log_with_an_edited_action_names_the_first_difference(tmp_path: Path) -> None:
    """Replay --verify: an edited action is reported with its number."""
    src = GOLDEN_DIR / "skirmish_random.json"
    data = json.loads(src.read_text())
    i = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "declare")
    data["actions"][i]["stance"] = "very_defensive" if data["actions"][i]["stance"] != "very_defensive" else "neutral"
    rec = record.parse(data)
    with pytest.raises(record.ReplayMismatch) as info:
        record.replay(
            SCENARIOS["skirmish"](rec.seed), rec.actions, digests=rec.digests, initial_digest=rec.initial_digest
        )
    assert info.value.index == i + 1
    assert f"action {i + 1}" in str(info.value)


def test_golden_log_with_the_wrong_seed_fails_at_the_opening() -> None:
    """A wrong seed changes the initiative rolls: the replay fails before the first action."""
    rec = record.load(GOLDEN_DIR / "skirmish_random.json")
    with pytest.raises(record.ReplayMismatch) as info:
        record.replay(
            SCENARIOS["skirmish"](rec.seed + 1), rec.actions, digests=rec.digests, initial_digest=rec.initial_digest
        )
    assert info.value.index == 0


# ------------------------------------------------------------------------------------------ save / load


def test_save_has_version_seed_and_actions_at_top_level(tmp_path: Path) -> None:
    """The save is JSON with "version", "seed" and "actions" at the top level (no pickle)."""
    b = _played(3, 20)
    path = tmp_path / "battle.json"
    record.save(path, b, {"scenario": "skirmish"})
    data = json.loads(path.read_text())
    assert data["version"] == record.SAVE_VERSION and data["seed"] == 3
    assert len(data["actions"]) == len(b.log) == len(data["digests"])
    assert [act.ACTION_TYPES[a["kind"]] for a in data["actions"]] == [type(a) for a in b.log]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_save_load_continue_equals_an_uninterrupted_battle(tmp_path: Path, seed: int) -> None:
    """Save after some decisions, load, continue with the same decisions: every event is the same."""
    whole = _played(seed)
    cut = len(whole.log) // 2
    part = Battle(skirmish(seed))
    for a in whole.log[:cut]:
        part.apply(a)
    path = tmp_path / "half.json"
    record.save(path, part, {"scenario": "skirmish"})
    rec = record.load(path)
    assert rec.actions == tuple(whole.log[:cut])
    resumed = record.replay(skirmish(rec.seed), rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
    assert _state(resumed) == _state(part)
    for a in whole.log[cut:]:
        resumed.apply(a)
    assert _state(resumed) == _state(whole)
    assert resumed.winner == whole.winner


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"format": "fudge-tactics-battle", "version": 1, "seed": 1, "setup": {}, "act', "cut short"),
        ('{"hello": "world"}', "not a battle save"),
        ('{"format": "fudge-tactics-battle", "version": 99, "seed": 1, "setup": {}, "actions": []}', "version"),
        ('{"format": "fudge-tactics-battle", "version": 1, "seed": "x", "setup": {}, "actions": []}', "seed"),
        (
            '{"format": "fudge-tactics-battle", "version": 1, "seed": 1, "setup": {}, "actions": [{"kind": "fly"}]}',
            "action 1",
        ),
        ("\xff\xfe", "save"),
    ],
)
def test_loading_a_damaged_or_foreign_file_gives_a_clear_error(tmp_path: Path, text: str, fragment: str) -> None:
    """A damaged or foreign file raises ``SaveError`` naming the file and the problem; the file is untouched."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(record.SaveError) as info:
        record.load(path)
    assert str(path) in str(info.value) and fragment in str(info.value)
    assert path.read_bytes() == before
    with pytest.raises(record.SaveError, match="no such save"):
        record.load(tmp_path / "missing.json")


def test_save_is_atomic_a_failed_write_keeps_the_previous_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes go to a temp file, flushed, then renamed; a crash mid-save keeps the old save."""
    path = tmp_path / "save.json"
    b = _played(4, 10)
    record.save(path, b, {"scenario": "skirmish"})
    old = path.read_bytes()

    def boom(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    b.apply(act.SetStandingOrder("b0", "never"))
    with pytest.raises(record.SaveError, match="previous save"):
        record.save(path, b, {"scenario": "skirmish"})
    assert path.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


# ------------------------------------------------------------------------------------------ undo


def test_undo_takes_back_a_decision_without_dice() -> None:
    """docs/architecture.md "A battle is its log": undo replays all but the last decision when that decision rolled
    nothing."""
    b = Battle(skirmish(6))
    before = _state(b)
    d = legal_actions(b)
    assert d is not None and d.reason == "move"
    b.apply(act.Hold(d.figure or ""))
    assert record.can_undo(b)
    back = record.undo(b)
    assert _state(back) == before
    assert back.log == []
    with pytest.raises(IllegalAction, match="nothing to undo"):
        record.undo(back)


def test_undo_is_refused_once_dice_were_rolled() -> None:
    """docs/architecture.md "A battle is its log": once a decision rolled dice (here the attack phase's last
    declaration), it stands."""
    b = Battle(skirmish(6))
    players = {"blue": RandomPlayer(1), "red": RandomPlayer(2)}
    while b.round == 1:
        d = legal_actions(b)
        assert d is not None
        b.apply(players[d.side](b, d))
    assert b.rolled_at[-1] and any(isinstance(e, ev.CombatRoll) for e in b.events)
    assert not record.can_undo(b)
    with pytest.raises(IllegalAction, match="rolled dice"):
        record.undo(b)


def test_undo_is_refused_after_an_escape_contest() -> None:
    """FTC 5.3's escape contest is rolled at once: the move that caused it cannot be undone."""
    rec = record.load(GOLDEN_DIR / "escape_won.json")
    b = record.replay(SCENARIOS["zoc_swift_vs_peasant"](rec.seed), rec.actions)
    i = next(i for i, a in enumerate(b.log) if isinstance(a, act.Move) and a.figure == "m")
    partial = record.replay(b.setup, b.log[: i + 1])
    assert any(isinstance(e, ev.EscapeContest) for e in partial.events)
    assert not record.can_undo(partial)
