"""Whole battles under the damage options (*Fudge* 4.55, 4.56, 4.58, 4.61, 4.63, 4.65): the computer players fight
them through the door, the blows' steps are in the log, the save holds the options and replays roll for roll, the
after-battle report names them; the tactical player's own short-cut reads the battle's rules; the rules file the
bench measures "every option on" with switches on every option the game plays."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest

import main
from game.engine import ai
from game.engine import events as ev
from game.engine import rule_options as ro
from game.engine.blow import rules_of
from game.engine.players import make_player
from game.engine.rule_options import RuleOptions
from game.report import export_log_text
from game.rules_file import read_rules, write_rules
from game.session import load_session, new_session, shipped_maps
from game.simulate import play_out

MAPS = {m.stem: m for m in shipped_maps()}
EVERY = Path(__file__).parent / "data" / "every_played_option.toml"

pytestmark = pytest.mark.usefixtures("home")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "rules"),
    [
        (
            RuleOptions(damage_roll="situational", graze_damage_roll=True, wound_situational_roll="worse"),
            {"Fudge 4.61", "Fudge 4.56", "Fudge 4.55"},
        ),
        (RuleOptions(damage_roll="min_mid_max", min_mid_max_low_penalty=True, critical_penetration=1), {"Fudge 4.63"}),
        (RuleOptions(damage_roll="one_die_level", graze_damage_roll=True, scale_damage_roll=True), {"Fudge 4.61"}),
        (RuleOptions(damage_roll="even_roll", damage_roll_wild=True, tech_level_scale=3), {"Fudge 4.61"}),
    ],
    ids=["situational", "min_mid_max", "one_die_level", "even_roll"],
)
def test_the_veteran_and_the_tactical_player_fight_under_the_damage_options_and_the_save_replays(
    options: RuleOptions, rules: set[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``simulate --rules FILE --players veteran,tactical``: a whole battle, every decision through the door; the
    save holds the options and ``replay --verify`` reproduces every roll; the log shows the options' steps and
    the report's rules line names them."""
    path = write_rules(tmp_path / "mine.toml", options, "Mine")
    out = tmp_path / "log.json"
    args = ["simulate", str(MAPS["open_field"]), "--seed", "3", "--players", "veteran,tactical", "--rules", str(path)]
    assert main.main([*args, "--out", str(out)]) == 0
    assert "Rules: Mine (" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["setup"]["options"] == options.to_json()
    assert main.main(["replay", str(out), "--verify"]) == 0
    assert "reproduce every roll" in capsys.readouterr().out
    battle = load_session(out, autosave=False).battle
    seen = {step.rule for e in battle.events if isinstance(e, ev.AttackResolved) for step in e.steps}
    assert rules <= seen, seen
    assert f"Rules: Mine ({ro.describe(options)})" in export_log_text(battle)


def test_the_tactical_players_attack_value_counts_the_battles_damage_roll() -> None:
    """§19 of the rulebook: every short-cut of the computer players to the odds passes the battle's rules (the
    tactical player's expected wound of a neutral attack): under a damage roll it asks for that blow's odds."""
    options = RuleOptions(damage_roll="situational", wound_situational_roll="both")
    session = new_session(str(MAPS["open_field"]), None, seed=5, autosave=False, options=options)
    players = {s: make_player("tactical", 5) for s in session.battle.sides}
    with mock.patch.object(ai, "outcome_distribution", wraps=ai.outcome_distribution) as odds:
        play_out(session.battle, players, max_rounds=3)
    assert odds.call_count > 0
    assert {call.kwargs["rules"] for call in odds.call_args_list} == {rules_of(options)}


def test_the_benchs_rules_file_switches_on_every_option_the_game_plays() -> None:
    """``bench --rules tests/data/every_played_option.toml`` measures the targets "with every option on": each
    option the game plays is off its default there (an enum at one of its other values)."""
    options = read_rules(EVERY).options
    missing = [spec.name for spec in ro.OPTIONS if spec.ready and options.value(spec.name) == spec.default]
    assert not missing, f"switch these on in {EVERY.name}: {', '.join(missing)}"
