"""Fudge Points in the roster (*Fudge* 4.64; docs/rosters.md "Fudge Points"): a character's ``fudge_points``, its
range, the option's default for heroes the roster gives none, and "Save wounds to roster" writing the points a
hero has left into his entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.aftercare import Aftercare
from game.engine import gm
from game.engine.battle import RuleOptions, Seat, apply
from game.roster import RosterError, load_roster, parse_roster, read_roster_data, save_roster
from game.session import Session, new_session

ROOT = Path(__file__).resolve().parent.parent
VILLAGE = ROOT / "maps" / "village.tmx"
OPTIONS = RuleOptions(pc_death_fudge_point=True, fudge_points_default=2)


@pytest.fixture
def roster(tmp_path: Path) -> Path:
    path = tmp_path / "village.roster.toml"
    shutil.copyfile(ROOT / "maps" / "village.roster.toml", path)
    return path


def _figure(session: Session, key: str) -> str:
    return next(f.id for f in session.battle.figures.values() if f.character.key == key)


def test_a_roster_gives_fudge_points_within_their_range(roster: Path) -> None:
    data = read_roster_data(roster)
    data["characters"]["sergeant"]["fudge_points"] = 21
    with pytest.raises(RosterError, match=r"\[characters.sergeant\] fudge_points: 21 is outside the range 0 to 20"):
        parse_roster(data, "village.roster.toml")
    data["characters"]["sergeant"]["fudge_points"] = "three"
    with pytest.raises(RosterError, match="'three' is not a whole number; write one from 0 to 20"):
        parse_roster(data, "village.roster.toml")
    data["characters"]["sergeant"]["fudge_points"] = 4
    parsed = parse_roster(data, "village.roster.toml")
    assert parsed.fudge_points == {"sergeant": 4}
    assert "fudge_points" not in parsed.characters["sergeant"].to_dict()


def test_fudge_4_64_heroes_start_with_their_rosters_points_else_the_default_pawns_with_none(roster: Path) -> None:
    data = read_roster_data(roster)
    data["characters"]["sergeant"]["fudge_points"] = 4
    save_roster(roster, data)
    session = new_session(VILLAGE, roster, seed=3, autosave=False, options=OPTIONS)
    figures = session.battle.figures
    assert figures[_figure(session, "sergeant")].fudge_points == 4
    assert figures[_figure(session, "militia_bow")].fudge_points == 2  # a hero the roster gives none
    assert figures[_figure(session, "brigand_chief")].fudge_points == 2  # a major NPC is a hero too
    assert figures[_figure(session, "brigand_archer")].fudge_points == 0  # an NPC pawn


def test_fudge_4_64_save_wounds_writes_the_points_a_hero_has_left_and_the_next_battle_starts_with_them(
    roster: Path,
) -> None:
    session = new_session(VILLAGE, roster, seed=3, autosave=False, options=OPTIONS, gm="referee")
    sergeant = _figure(session, "sergeant")
    apply(session.battle, gm.SetFudgePoints(sergeant, 0, "spent in the ambush"), Seat.game_master())
    apply(session.battle, gm.EndBattle(None, "the night falls"), Seat.game_master())
    report = Aftercare(session.battle).save_wounds(roster)
    assert report.skipped == () or all(why for _, why in report.skipped)
    text = roster.read_text(encoding="utf-8")
    assert text.startswith("# ") and "fudge_points = 0" in text  # edited in place: the comments stay
    assert load_roster(roster).fudge_points == {"sergeant": 0}  # unchanged pools are not written
    again = new_session(VILLAGE, roster, seed=4, autosave=False, options=OPTIONS)
    assert again.battle.figures[_figure(again, "sergeant")].fudge_points == 0
    assert again.battle.figures[_figure(again, "militia_bow")].fudge_points == 2
