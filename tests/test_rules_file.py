"""Rules files (docs/playing.md "Rules files"): a GM's set of rule options as a small commented TOML file, read
with the line and the fix of every mistake, written so that it reads back the same, and named by ``--rules``
on every command that starts battles."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import main
from game.engine import rule_options as ro
from game.engine.rule_options import OPTIONS, RuleOptions, options_from_mapping
from game.paths import MAPS_DIR
from game.rules_file import (
    RulesFileError,
    parse_rules,
    read_rules,
    rules_argument,
    rules_text,
    write_rules,
)

pytestmark = pytest.mark.usefixtures("data_home")


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _line_of(text: str, key: str) -> int:
    return 1 + next(i for i, line in enumerate(text.splitlines()) if line.startswith(f"{key} ="))


@settings(deadline=None)  # a machine shared by several test runs may take a first call past 200 ms
@given(st.fixed_dictionaries({}, optional={s.name: st.sampled_from(s.choices) for s in OPTIONS}), st.text(max_size=30))
def test_a_written_rules_file_reads_back_the_same_options(values: dict[str, object], name: str) -> None:
    options = options_from_mapping(values)
    name = "".join(c for c in name if c.isprintable())
    rules = parse_rules(rules_text(options, name), played_only=False)
    assert rules.options == options and rules.name == name


def test_the_written_file_has_every_option_with_its_comment_in_groups() -> None:
    text = rules_text(RuleOptions(), "Mine")
    lines = text.splitlines()
    for spec in OPTIONS:
        line = lines[_line_of(text, spec.name) - 1]
        assert f"# {spec.group}: " in line and f"({spec.section})" in line, line
    assert sum(1 for line in lines if not line.strip()) == len(ro.GROUPS)


MISTAKES = [
    (('damage_roll = "off"', 'damage_rol = "off"'), "damage_rol", "`damage_rol` is not a rule option; did you mean"),
    (("stun_blows = false", 'stun_blows = "yes"'), "stun_blows", 'stun_blows = "yes" is not true or false; write'),
    (('damage_roll = "off"', 'damage_roll = "two_dice"'), "damage_roll", 'damage_roll = "two_dice" is not one of off'),
    (("sweeping_blow = 0", "sweeping_blow = 5"), "sweeping_blow", "sweeping_blow = 5 is outside 0–2; write 0 (off)"),
    (("tech_level_scale = 0", "tech_level_scale = nan"), "tech_level_scale", "tech_level_scale = nan is not a whole"),
    (('format = "fudge-tactics-rules"', 'format = "roster"'), "format", 'format = "roster" — this is not a rules'),
    (("version = 1", "version = 2"), "version", "version = 2 is newer than this game reads (1); use a newer game"),
]


@pytest.mark.parametrize(("edit", "key", "words"), MISTAKES)
def test_a_mistake_is_refused_with_its_line_and_the_fix(
    tmp_path: Path, edit: tuple[str, str], key: str, words: str
) -> None:
    text = rules_text(RuleOptions()).replace(*edit)
    path = tmp_path / "gritty.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesFileError) as caught:
        read_rules(path)
    assert str(caught.value).startswith(f"{path} line {_line_of(text, key)}: {words}")


def test_a_file_that_is_not_toml_is_refused_with_the_line_tomllib_names(tmp_path: Path) -> None:
    path = tmp_path / "gritty.toml"
    path.write_text('name = "Gritty"\ndamage_roll "situational"\n', encoding="utf-8")
    with pytest.raises(RulesFileError, match=r"gritty.toml line 2: not valid TOML \(expected '=' .*\); fix that line"):
        read_rules(path)


def test_an_option_not_played_yet_is_refused_where_it_is_switched_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = replace(ro.SPECS["speed_contest"], ready=False)
    monkeypatch.setattr(ro, "SPECS", {**ro.SPECS, spec.name: spec})
    text = rules_text(RuleOptions(speed_contest=True))
    path = tmp_path / "fast.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesFileError, match=rf"line {_line_of(text, 'speed_contest')}: Speed contest .* not played"):
        read_rules(path)
    assert read_rules(path, played_only=False).options.speed_contest


def test_a_short_file_leaves_the_other_options_as_written(tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text("secret_stances = true\nper_hex_terrain = true\n", encoding="utf-8")
    rules = read_rules(path)
    assert rules.options == RuleOptions(secret_stances=True, per_hex_terrain=True) and rules.name == "two"


def test_the_writer_never_writes_into_the_games_own_folder() -> None:
    with pytest.raises(RulesFileError, match="game's own folder"):
        write_rules(MAPS_DIR / "mine.toml", RuleOptions())
    assert not (MAPS_DIR / "mine.toml").exists()


def test_rules_names_a_preset_or_a_file(tmp_path: Path) -> None:
    assert rules_argument("ftc").options == RuleOptions() and rules_argument("FTC").name == "FTC as written"
    with pytest.raises(RulesFileError, match="no preset or file named 'hero'; presets: ftc, heroic, gritty"):
        rules_argument("hero")
    path = write_rules(tmp_path / "mine.toml", RuleOptions(initiative_once=True), "Mine")
    assert rules_argument(str(path)).options.initiative_once


def _bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text("sweeping_blow = 9\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "maps/village.tmx"],
        ["ai-match", "--seeds", "1", "--maps", "maps/village.tmx"],
        ["host", "maps/village.tmx", "--port", "0"],
        ["bench", "--quick"],
        ["play", "maps/village.tmx", "--frames", "1"],
    ],
)
def test_every_command_refuses_a_bad_rules_file_with_its_sentence(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = _bad_file(tmp_path)
    assert main.main([*command, "--rules", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err == f"error: {path} line 1: sweeping_blow = 9 is outside 0–2; write 0 (off), 1 (1 damage less per "
        "foe cut through) or 2 (2 damage less per foe cut through) (Fudge 4.34)"
    )


def test_simulate_plays_and_saves_the_battle_under_a_rules_file(tmp_path: Path) -> None:
    path = write_rules(tmp_path / "mine.toml", RuleOptions(attack_any_adjacent=True, initiative_once=True), "Mine")
    out = tmp_path / "log.json"
    args = ["simulate", "maps/village.tmx", "--max-rounds", "1", "--rules", str(path), "--out", str(out)]
    assert main.main(args) == 0
    setup = json.loads(out.read_text(encoding="utf-8"))["setup"]
    assert setup["options"] == {"initiative_once": True, "attack_any_adjacent": True}
    assert setup["rules_name"] == "Mine"


def test_ai_match_prints_and_records_its_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_rules(tmp_path / "mine.toml", RuleOptions(initiative_once=True), "Mine")
    record = tmp_path / "match.json"
    args = ["ai-match", "--seeds", "1", "--maps", "maps/village.tmx", "--players", "random,random"]
    assert main.main([*args, "--max-rounds", "1", "--rules", str(path), "--json", str(record)]) == 0
    assert "rules: Mine (Initiative once)" in capsys.readouterr().out
    assert json.loads(record.read_text(encoding="utf-8"))["rules"] == {
        "name": "Mine",
        "changed": {"initiative_once": True},
    }


def test_a_rules_files_comments_keep_the_capitals_of_names() -> None:
    """Each comment is the option's help in the middle of a line: an ordinary first word is lowered ("a blow
    may …", "roll initiative …"), a name is not ("NPC pawns", "Fudge Points", "Min-Mid-Max", "Damage Capacity")."""
    text = rules_text(RuleOptions())
    for said in ("# Blows: a blow may go for stun", "# Round: roll initiative once", ": NPC pawns roll their own dice"):
        assert said in text
    for said in (
        "0-10: Fudge Points for each hero",
        "# Damage: Min-Mid-Max: a damage",
        "will_roll: Damage Capacity as",
    ):
        assert said in text
