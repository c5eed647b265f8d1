"""The record tells the truth: ``replay`` prints the wounds each figure really ends with — carried into the
battle (*Fudge* 4.8) and set by the GM (*Fudge* 4.57) included — and says of a figure taken out what the battle
log says (FTC 6.4), a mook's own track ("Out of the Battle") included."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, Seat
from game.engine.wounds import WoundLevel, Wounds
from game.roster import save_carried_wounds
from game.session import ROOT, new_session
from game.simulate import replay_main, simulate_main

FIELD = ROOT / "maps" / "open_field.tmx"


pytestmark = pytest.mark.usefixtures("home")


def _line_of(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if f"  {name} " in line)


def test_replay_prints_wounds_carried_in_and_set_by_the_gm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "open_field.roster.toml"
    shutil.copyfile(FIELD.with_suffix(".roster.toml"), roster)
    save_carried_wounds(roster, {"spearman": Wounds().record(WoundLevel.HURT)[0]})
    session = new_session(FIELD, roster, seed=4, autosave=False)
    session.battle = Battle(replace(session.battle.setup, gm="referee"))
    session.setup_data["gm"] = "referee"
    b = session.battle
    spear = next(f for f in b.figures.values() if f.character.key == "spearman")
    bors = next(f for f in b.figures.values() if f.character.key == "sir_bors")
    session.apply(
        gm.EditWounds(bors.id, Wounds().record(WoundLevel.VERY_HURT)[0].to_data(), "old wound"), Seat.game_master()
    )
    yielding = next(s for s in b.sides if s != spear.side)
    session.apply(act.Yield(yielding), Seat.of_side(yielding))
    assert not any(isinstance(e, ev.Wounded) for e in b.events)  # no wound was dealt in the battle itself
    log = tmp_path / "log.json"
    session.save(log)
    assert replay_main([str(log), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "fighting (Hurt)" in _line_of(out, spear.name) and "Hurt [X]" in _line_of(out, spear.name)
    assert "fighting (Very Hurt)" in _line_of(out, bors.name) and "Very Hurt [X]" in _line_of(out, bors.name)


def test_replay_says_of_a_figure_taken_out_what_the_log_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Goblins (mooks, *Fudge* 4.57) taken out read "out of the fight (Out of the Battle)" as in the log."""
    log = tmp_path / "wyrm.json"
    assert simulate_main([str(ROOT / "maps" / "wyrm_hollow.tmx"), "--seed", "3", "--out", str(log)]) == 0
    capsys.readouterr()
    assert replay_main([str(log)]) == 0
    out = capsys.readouterr().out
    from game.session import load_session

    b = load_session(log, autosave=False).battle
    taken = {e.figure: e.condition for e in b.events if isinstance(e, ev.TakenOut)}
    mooks = [fid for fid in taken if b.figures[fid].character.wound_track.name == "mook"]
    assert mooks, "the battle should take at least one goblin out"
    for fid, condition in taken.items():
        assert f"out of the fight ({condition})" in _line_of(out, b.figures[fid].name)
    assert all(taken[fid] == "Out of the Battle" for fid in mooks)
