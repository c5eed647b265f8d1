"""The veteran computer player (FTC 5–6.6): it beats the tactical player in mirrored battles, uses the
options tactical never does (advances, retreats, missile dodges, aims, held moves), decides the same way
every time for the same battle, explains each decision, and its battles replay roll for roll."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import main
from game.ai_match import run_match
from game.engine.battle import legal_actions
from game.engine.novice import NovicePlayer
from game.engine.players import LEVELS, make_player
from game.engine.veteran import VeteranPlayer
from game.session import new_session, shipped_maps
from game.simulate import play_out

MAPS = {m.stem: m for m in shipped_maps()}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_every_level_is_a_player_and_an_unknown_one_is_a_clear_error() -> None:
    assert LEVELS == ("random", "novice", "tactical", "veteran")
    assert isinstance(make_player("veteran", 3), VeteranPlayer)
    assert isinstance(make_player("novice", 3), NovicePlayer)
    with pytest.raises(ValueError, match="choose one of random, novice, tactical, veteran"):
        make_player("grandmaster")


def test_veteran_wins_most_mirrored_battles_against_tactical_and_uses_the_whole_rulebook() -> None:
    """A small mirrored match (each seed twice, sides swapped): the veteran wins at least 5 of the 8
    decided battles, and among its declarations are advances (FTC 6.2), retreats (FTC 6.2), missile
    dodges (FTC 6.1), aims other than "best" (FTC 6.6) and held moves (FTC 5); every battle replays roll for
    roll from its save (``verify``, as ``replay --verify``)."""
    start = time.process_time()
    result = run_match("veteran", "tactical", [1, 2], [MAPS["open_field"], MAPS["ruined_keep"]], verify=True)
    overall = result.overall
    assert overall.wins + overall.losses >= 6
    assert overall.wins >= 5, overall
    for key in ("advances", "retreats", "dodges", "aims", "holds"):
        assert result.counts[key] > 0, (key, result.counts)
    assert time.process_time() - start < 40


def test_veteran_decides_the_same_way_for_the_same_battle() -> None:
    """Its effort is a count of evaluations, never the clock: two runs give the same log."""
    logs = []
    for _ in range(2):
        session = new_session(str(MAPS["wyrm_hollow"]), None, seed=4, autosave=False)
        players = {s: VeteranPlayer(i) for i, s in enumerate(session.battle.sides)}
        play_out(session.battle, players, 6)
        logs.append(list(session.battle.log))
    assert logs[0] == logs[1] and len(logs[0]) > 20


def test_veteran_gives_a_reason_naming_the_figure_for_each_decision() -> None:
    session = new_session(str(MAPS["open_field"]), None, seed=2, autosave=False)
    battle = session.battle
    player = VeteranPlayer(0)
    sides = list(battle.sides)
    other = make_player("tactical", 1)
    for _ in range(60):
        d = legal_actions(battle)
        assert d is not None
        if d.side == sides[0]:
            battle.apply(player(battle, d))
            if d.figure is not None and d.reason in ("move", "declare"):
                assert battle.figure(d.figure).name in player.last_reason
        else:
            battle.apply(other(battle, d))
    assert len(player.reasons) > 10
    assert any("% to hit" in why for _, _, why in player.reasons)


def test_veteran_battle_replays_roll_for_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --verify`` reproduces a veteran battle from its log."""
    out = tmp_path / "log.json"
    args = ["simulate", str(MAPS["village"]), "--seed", "3", "--players", "veteran,tactical", "--out", str(out)]
    assert main.main(args) == 0
    assert "Battle over after" in capsys.readouterr().out
    assert main.main(["replay", str(out), "--verify"]) == 0
    assert "reproduce every roll" in capsys.readouterr().out


def test_novice_slips_are_its_own_seeded_choices() -> None:
    """The novice plays the tactical player's game with seeded slips: the same seed, the same battle; a
    battle that differs from the tactical player's."""
    logs = []
    for kind in ("novice", "novice", "tactical"):
        session = new_session(str(MAPS["forest_road"]), None, seed=2, autosave=False)
        players = {s: make_player(kind, i) for i, s in enumerate(session.battle.sides)}
        play_out(session.battle, players, 3)
        logs.append(list(session.battle.log))
    assert logs[0] == logs[1] and len(logs[0]) > 20
    assert logs[0] != logs[2]


def test_ftc_6_5_3_veteran_approaches_out_of_the_archers_lines_of_fire() -> None:
    """On the village map's first move, the veteran's militiaman closes in behind cover that blocks every
    enemy archer's line of fire (FTC 6.5.3, table 7), where a player blind to the lines stops in the open."""
    session = new_session(str(MAPS["village"]), None, seed=1, autosave=False)
    battle = session.battle
    fig = battle.figure("f1")
    archers = [e for e in battle.enemies_of(fig) if e.character.ready_weapon.ranged]
    ends = {}
    for shy in (0.0, 1.0):
        player = VeteranPlayer(0)
        player.fire_shy = shy
        move, _ = player._vet_move(battle, fig)
        end = move.steps[-1][0] if move.steps else fig.hex
        ends[shy] = sum(player._open_to(battle, a, end) for a in archers)
    assert ends[0.0] >= 1
    assert ends[1.0] == 0
