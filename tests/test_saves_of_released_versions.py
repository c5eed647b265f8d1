"""Saves outlive the version that wrote them (docs/architecture.md "A battle is its log"): every save in
``tests/saves`` (written by an earlier version, see its README) loads, says which version wrote it and where
today's rules part from it, finds its map by checksum when its path is gone, and the battle goes on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import main
from game.engine.battle import Seat
from game.engine.players import make_player
from game.engine.version import RULES_REVISION
from game.net.table import Table, token_hashes_of
from game.session import load_session

SAVES = Path(__file__).resolve().parent / "saves"
PARTS = {"50739ce-before-the-rules-as-written-village.json"}
"""The saves today's rules part from (the rest replay roll for roll)."""


def _copy(name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    shutil.copy(SAVES / name, path)
    return path


def _play_on(session_apply: object, battle: object, decisions: int) -> None:
    players = {}
    for _ in range(decisions):
        d = battle.decision()  # type: ignore[attr-defined]
        if d is None:
            return
        player = players.setdefault(d.side, make_player("tactical", len(players) + 1))
        session_apply(player(battle, d), Seat.of_side(d.side))  # type: ignore[operator]


def test_every_released_save_is_kept() -> None:
    names = {p.name for p in SAVES.glob("*.json")}
    assert names >= {"e36dd5e-village.json", "e36dd5e-hosted-table-128-bit-seed.json", "1.0.0-village.json"} | PARTS


@pytest.mark.parametrize("name", sorted(p.name for p in SAVES.glob("*.json")))
def test_a_released_save_loads_says_what_it_must_and_goes_on(name: str, tmp_path: Path) -> None:
    path = _copy(name, tmp_path)
    written = json.loads(path.read_text())
    session = load_session(path, autosave=False)
    notes = " ".join(session.notes)
    gone = not Path(written["setup"]["map"]).is_file()
    if gone:
        assert f"Its map {written['setup']['map']} is gone; the battle uses " in notes
        assert "same checksum" in notes
    if name in PARTS:
        assert "This save was written by an earlier version of Fudge Tactics" in notes
        assert f"today's rules (revision {RULES_REVISION}) part from it at round " in notes
        assert "the battle goes on after action" in notes or "from its first round" in notes
        assert 0 < len(session.battle.log) < len(written["actions"])
    else:
        assert "part from it" not in notes
        assert session.battle.digests == written["digests"]
        if written.get("rules_revision") != RULES_REVISION:  # who wrote it, said even when the rules agree
            version = written.get("game_version")
            by = f"written by Fudge Tactics {version} " if version else "before saves recorded their version"
            assert by in notes
            assert session.notes[-1].endswith(f"today's rules (revision {RULES_REVISION}) replay it roll for roll.")
    kept = len(session.battle.log)
    _play_on(session.apply, session.battle, 12)
    assert len(session.battle.log) > kept or session.battle.over
    resaved = tmp_path / "resaved.json"
    session.save(resaved)
    again = load_session(resaved, autosave=False, strict=True)
    assert again.battle.digests == session.battle.digests and again.notes == []
    assert json.loads(resaved.read_text())["rules_revision"] == RULES_REVISION


def test_plain_replay_says_where_todays_rules_part_before_showing_the_battle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _copy(sorted(PARTS)[0], tmp_path)
    assert main.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    parting = next(i for i, line in enumerate(out) if "part from it" in line)
    battle = next(i for i, line in enumerate(out) if line.startswith("Battle "))
    assert parting < battle
    assert main.main(["replay", str(path), "--verify"]) == 1
    err = capsys.readouterr().err
    assert "does not replay roll for roll" in err and "part from it at round " in err and err[-1] == "\n"


@pytest.mark.parametrize("name", sorted(p.name for p in SAVES.glob("*.json") if p.name not in PARTS))
def test_replay_verify_accepts_a_released_save_todays_rules_agree_with(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main.main(["replay", str(_copy(name, tmp_path)), "--verify"]) == 0
    assert "verified:" in capsys.readouterr().out


def test_a_hosted_tables_legacy_128_bit_seed_resumes(tmp_path: Path) -> None:
    """A table hosted before seeds were 63 bits saved a 128-bit seed: ``host --resume`` takes it up again with
    its seats' tokens, and the table's save goes on loading."""
    path = _copy("e36dd5e-hosted-table-128-bit-seed.json", tmp_path)
    assert json.loads(path.read_text())["seed"].bit_length() > 64
    session = load_session(path, autosave=False)
    table = Table.start(session, save_path=path, say=lambda _: None, token_hashes=token_hashes_of(session.setup_data))
    before = len(table.battle.log)
    for i, side in enumerate(table.battle.sides):
        table.computers[side] = make_player("tactical", i + 1)
    table.play_computers(limit=10)
    assert len(table.battle.log) == before + 10
    again = load_session(path, autosave=False, strict=True)
    assert again.battle.digests == table.battle.digests and again.battle.setup.seed.bit_length() > 64


def test_a_save_whose_map_is_gone_finds_it_by_checksum_among_the_shipped_maps_or_beside_it(tmp_path: Path) -> None:
    path = _copy("1.0.0-village.json", tmp_path)
    data = json.loads(path.read_text())
    data["setup"]["map"] = str(tmp_path / "elsewhere" / "village.tmx")
    path.write_text(json.dumps(data))
    shipped = load_session(path, autosave=False)
    assert shipped.notes[0] == (
        f"Its map {tmp_path / 'elsewhere' / 'village.tmx'} is gone; the battle uses "
        f"{SAVES.parents[1] / 'maps' / 'village.tmx'}, which is the same map (the same checksum)."
    )
    beside = tmp_path / "beside"
    shutil.copytree(SAVES.parents[1] / "maps", beside)
    (beside / "village.tmx").rename(beside / "harrowby.tmx")
    moved = beside / "save.json"
    moved.write_text(json.dumps(data))
    found = load_session(moved, autosave=False)
    assert found.notes and f"the battle uses {beside / 'harrowby.tmx'}" in found.notes[0]
    assert found.setup_data["map"] == str((beside / "harrowby.tmx").resolve())
    data["setup"]["map_sha256"] = "0" * 64
    path.write_text(json.dumps(data))
    with pytest.raises(Exception, match="cannot be found, and no shipped map nor any map beside the save"):
        load_session(path, autosave=False)
