"""Whole battles under the heroes' rule options (docs/rulings.md "PC death and Fudge Points"), played by every
computer level on a shipped map: each plays to the end, each answers a hero's Fudge Point question (*Fudge*
4.64), and the save replays with every roll (``replay --verify``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import main
from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import Reason, RuleOptions, Seat, apply, legal_actions
from game.engine.players import LEVELS, make_player
from game.engine.rule_options import preset
from game.session import new_session
from game.simulate import play_out
from tests.engine.test_rules_heroes import NINE, fight, strike

pytestmark = pytest.mark.usefixtures("home")

MAPS = {"heroic": Path("maps/ruined_keep.tmx"), "asked": Path("maps/forest_road.tmx")}
ASKED = RuleOptions(pc_death_fudge_point=True, fudge_points_default=3)


def _battle(level: str, options: RuleOptions, seed: int, *, ask: bool, tmp_path: Path) -> tuple[object, Path]:
    where = MAPS["asked" if ask else "heroic"]
    session = new_session(where, None, seed=seed, autosave=False, options=options)
    battle = session.battle
    if ask:  # every hero's player is asked before a point is spent
        for fig in battle.figures.values():
            if fig.is_hero:
                apply(battle, act.SetFudgePointOrder(fig.id, "ask"), Seat.of_side(fig.side))
    players = {side: make_player(level, seed + i) for i, side in enumerate(battle.sides)}
    play_out(battle, players)
    out = tmp_path / f"{level}.json"
    session.save(out)
    return battle, out


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_every_computer_level_plays_a_heroic_battle_to_its_end_and_the_save_replays(
    level: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    heroic = preset("heroic")
    assert heroic is not None and heroic.ready
    battle, out = _battle(level, heroic.options, 2, ask=False, tmp_path=tmp_path)
    assert battle.over  # type: ignore[attr-defined]
    assert main.main(["replay", str(out), "--verify"]) == 0
    assert "reproduce every roll" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_every_computer_level_answers_its_heroes_fudge_point_questions_in_a_whole_battle(
    level: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With every hero's order "ask", the computer is asked and answers; the battle ends and replays."""
    battle, out = _battle(level, ASKED, 7, ask=True, tmp_path=tmp_path)
    assert battle.over  # type: ignore[attr-defined]
    answers = [a for a in battle.log if isinstance(a, act.SpendFudgePoint)]  # type: ignore[attr-defined]
    assert answers, "no hero was asked in this battle: choose a bloodier seed"
    events = battle.events  # type: ignore[attr-defined]
    assert any(isinstance(e, ev.FudgePointSpent) and not e.auto for e in events)
    assert main.main(["replay", str(out), "--verify"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("level", LEVELS)
def test_every_computer_level_spends_a_fudge_point_when_asked(level: str) -> None:
    """Fudge 4.64: the game has no other use for Fudge Points: a computer player asked spends one (the random
    player, a testing tool, sometimes keeps them)."""
    b = fight(ASKED, points=2)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    strike(b, ("a", NINE))
    d = legal_actions(b)
    assert d is not None and d.reason == Reason.FUDGE_POINT
    answer = make_player(level, 5)(b, d)
    assert isinstance(answer, act.SpendFudgePoint) and answer.figure == "h"
    assert answer.spend or level == "random"
    apply(b, answer, Seat.of_side("blue"))
    assert legal_actions(b) is not None and legal_actions(b).reason != Reason.FUDGE_POINT  # type: ignore[union-attr]


def test_the_report_gives_a_heroes_fudge_points_and_what_will_did() -> None:
    """docs/rulings.md "PC death and Fudge Points": the after-battle summary gives each hero's Fudge Points as the
    battle began and as they are left, and what Will did against a figure's wounds; the text export says both;
    the Will roll counts for its side's luck."""
    from game.engine import gm
    from game.report import battle_summary, export_log_text, side_rolls
    from tests.engine.test_rules_wounds import AXE, GREAT, VERY_HURT

    b = fight(RuleOptions(pc_death_fudge_point=True, willpower_vs_wounds="very_hurt"), points=2, first=AXE)
    b.apply(gm.SetDie("h", "pain", GREAT))
    strike(b, ("a", VERY_HURT))
    b.apply(gm.SetFudgePoints("h", 1))
    hero = next(f for f in battle_summary(b)["figures"] if f["id"] == "h")
    assert hero["fudge_points"] == {"start": 2, "left": 1} and hero["will"] == "no Very Hurt penalty"
    assert hero["role"] == "Hero"
    foe = next(f for f in battle_summary(b)["figures"] if f["id"] == "a")
    assert foe["fudge_points"] == {"start": 0, "left": 0} and "will" not in foe  # a hero with no points, unhurt
    text = export_log_text(b)
    assert "Fudge Points 2 → 1; Will: no Very Hurt penalty" in text
    assert GREAT in side_rolls(b)["blue"]
    plain = fight(RuleOptions(), first=AXE)
    strike(plain, ("a", VERY_HURT))
    assert not {"fudge_points", "will", "role"} & set(battle_summary(plain)["figures"][0])
