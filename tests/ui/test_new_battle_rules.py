"""New battle's rule options (docs/playing.md "New battle"): the rules set with Load… and Save as…, the options
grouped as docs/rulings.md lists them, options not played yet greyed "coming" — all driven by posted events."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.engine import rule_options as ro
from game.paths import rules_dir
from game.rules_file import read_rules, rules_text
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.dialogs import FileChooser
from game.ui.pickers import TextPrompt
from game.ui.screens import NewBattleScreen
from tests.ui.conftest import click, key, type_keys


def _new_battle(app: App) -> NewBattleScreen:
    key(app, pygame.K_n)
    nb = app.top
    assert isinstance(nb, NewBattleScreen)
    app.draw()
    return nb


def _header(nb: NewBattleScreen, group: str) -> pygame.Rect:
    return next(r.rect for r in nb.rules.rows if r.option is None and r.group == group)


def test_a_gms_rules_round_trip_through_new_battle_save_as_and_load(app: App) -> None:
    nb = _new_battle(app)
    assert nb.rules.set_label == "FTC as written" and nb.options == ro.RuleOptions()
    click(app, nb.option_rects["per_hex_terrain"].center)
    click(app, nb.option_rects["secret_stances"].center)
    click(app, _header(nb, "Damage").center)  # the Damage group opens: Fudge's graze table is played
    app.draw()
    click(app, nb.option_rects["fudge_graze_table"].center)
    chosen = ro.RuleOptions(per_hex_terrain=True, secret_stances=True, fudge_graze_table=True)
    assert nb.options == chosen and nb.rules.set_label == "FTC as written (changed)"
    click(app, nb.rules.save.rect.center)
    assert isinstance(app.top, TextPrompt)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_keys(app, "Border patrol")
    key(app, pygame.K_RETURN)
    saved = rules_dir() / "border_patrol.toml"
    assert app.top is nb and saved.is_file()
    assert read_rules(saved).options == chosen and read_rules(saved).name == "Border patrol"
    assert nb.rules.set_label == "Border patrol"
    went: list[str] = []
    while nb.rules.set_label != "FTC as written" and len(went) < 5:  # back round the sets to FTC as written
        click(app, nb.rules.previous.rect.center)
        went.append(nb.rules.set_label)
    assert went == ["Gritty", "Heroic", "FTC as written"] and nb.options == ro.RuleOptions()
    click(app, nb.rules.load.rect.center)
    assert isinstance(app.top, FileChooser)
    type_keys(app, str(saved))
    key(app, pygame.K_RETURN)
    assert app.top is nb
    assert nb.options == chosen and nb.rules.set_label == "Border patrol"
    click(app, nb.start.rect.center)
    key(app, pygame.K_RETURN)  # the deployment screen's start
    assert isinstance(app.top, BattleScreen)
    battle = app.top.battle
    assert battle.options == chosen and battle.setup.rules_name == "Border patrol"


def test_a_broken_rules_file_is_refused_with_its_line_and_the_options_stay(app: App, tmp_path: Path) -> None:
    nb = _new_battle(app)
    click(app, nb.option_rects["initiative_once"].center)
    broken = tmp_path / "broken.toml"
    broken.write_text(rules_text(ro.RuleOptions()).replace("sweeping_blow = 0", "sweeping_blow = 5"), "utf-8")
    click(app, nb.rules.load.rect.center)
    type_keys(app, str(broken))
    key(app, pygame.K_RETURN)
    assert app.top is nb
    assert nb.options == ro.RuleOptions(initiative_once=True)
    line = 1 + next(i for i, t in enumerate(broken.read_text("utf-8").splitlines()) if t.startswith("sweeping_blow"))
    assert nb.rules.error.startswith(f"{broken} line {line}: sweeping_blow = 5 is outside 0–2")


def test_an_option_not_played_yet_is_greyed_coming_and_stays_at_its_default(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = replace(ro.SPECS["pc_death_fudge_point"], ready=False)  # an option of Heroic, as it was being built
    monkeypatch.setattr(ro, "SPECS", {**ro.SPECS, spec.name: spec})
    monkeypatch.setattr(ro, "OPTIONS", tuple(spec if s.name == spec.name else s for s in ro.OPTIONS))
    nb = _new_battle(app)
    click(app, _header(nb, spec.group).center)
    app.draw()
    rect = nb.option_rects[spec.name]
    click(app, rect.center)
    click(app, rect.center, button=3)
    assert nb.options.value(spec.name) == spec.default
    row = next(r for r in nb.rules.rows if r.option is spec)
    assert "does not play this option yet" in nb.rules.hint(row)
    assert "Heroic" in " ".join(line for line, _ in nb.rules.notes(500))  # its options are being built


def test_tab_walks_the_options_and_space_and_arrows_change_them(app: App) -> None:
    nb = _new_battle(app)
    key(app, pygame.K_TAB)  # the Rules row
    key(app, pygame.K_TAB)  # the Round header
    assert nb.rules.focus == 0 and nb.rules.rows[0].option is None
    key(app, pygame.K_TAB)  # Initiative once
    key(app, pygame.K_SPACE)
    assert nb.options.initiative_once
    key(app, pygame.K_SPACE)
    assert not nb.options.initiative_once
    key(app, pygame.K_ESCAPE)  # the keyboard goes back to the map list; New battle stays
    assert app.top is nb and nb.rules.focus is None


def test_new_battle_starts_with_the_rules_the_command_line_gave(app: App, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(rules_text(ro.RuleOptions(attack_any_adjacent=True), "Mine"), "utf-8")
    app.ui.rules = read_rules(path)
    nb = _new_battle(app)
    assert nb.options.attack_any_adjacent and nb.rules.set_label == "Mine"


def test_heroic_is_chosen_and_the_roster_note_counts_the_heroes_and_the_pawns(app: App) -> None:
    """docs/playing.md "New battle": the Heroic set is played; while an option that reads roles is on, the
    roster's heroes and NPC pawns are counted beside the rule options (docs/rosters.md "Roles")."""
    nb = _new_battle(app)
    assert nb.role_note == ""
    while nb.rules.set_label != "Heroic":
        click(app, nb.rules.next.rect.center)
    app.draw()
    assert nb.options == ro.preset("heroic").options  # type: ignore[union-attr]
    roles = [r for sc in nb.sides for r in sc.roles]
    pawns, major = roles.count("npc"), roles.count("major_npc")
    assert pawns and major and len(roles) > pawns  # the shipped rosters: blue heroes, red pawns, red leaders
    heroes = len(roles) - pawns
    assert nb.role_note == f"{heroes} heroes ({major} major NPC{'s' if major > 1 else ''}), {pawns} NPC pawns"


def _row_hint(nb: NewBattleScreen, name: str) -> str:
    return nb.rules.hint(next(r for r in nb.rules.rows if r.option is not None and r.option.name == name))


def test_the_wounds_and_heroes_options_are_switched_in_new_battle_and_played_by_the_battle(app: App) -> None:
    """The Wounds and Heroes groups show each option with its one-line help and section, Fudge Points per hero
    greyed until Fudge Point against death is on; the battle started plays the values clicked, each hero
    starting with the default pool, each NPC pawn with none."""
    nb = _new_battle(app)
    click(app, _header(nb, "Wounds").center)
    app.draw()
    assert "lowers or wipes out the penalty (Fudge 4.51)." in _row_hint(nb, "willpower_vs_wounds")
    assert "(Fudge 4.52)." in _row_hint(nb, "damage_capacity")
    click(app, nb.option_rects["willpower_vs_wounds"].center)  # off -> very_hurt -> incapacitated
    click(app, nb.option_rects["willpower_vs_wounds"].center)
    assert "keeps an Incapacitated fighter on his feet" in _row_hint(nb, "willpower_vs_wounds")
    click(app, nb.option_rects["damage_capacity"].center)  # factor -> roll
    click(app, nb.option_rects["damage_capacity_step"].center)  # level -> point
    assert nb.rules.changed_in("Wounds") == 3 and nb.role_note == ""  # no Wounds option reads roles
    click(app, _header(nb, "Wounds").center)
    click(app, _header(nb, "Heroes").center)
    app.draw()
    assert "Greyed: needs Fudge Point against death" in _row_hint(nb, "fudge_points_default")
    assert "(Fudge 4.64)." in _row_hint(nb, "pc_death_max_three_levels")
    click(app, nb.option_rects["pc_death_fudge_point"].center)
    assert "Greyed" not in _row_hint(nb, "fudge_points_default")
    click(app, nb.option_rects["fudge_points_default"].center)  # an int: a click on the row steps up
    click(app, nb.option_rects["fudge_points_default"].center)
    click(app, nb.option_rects["pc_death_max_three_levels"].center)
    chosen = ro.RuleOptions(
        willpower_vs_wounds="incapacitated",
        damage_capacity="roll",
        damage_capacity_step="point",
        pc_death_max_three_levels=True,
        pc_death_fudge_point=True,
        fudge_points_default=2,
    )
    assert nb.options == chosen and nb.rules.changed_in("Heroes") == 3
    assert "heroes" in nb.role_note and "NPC pawns" in nb.role_note
    click(app, nb.start.rect.center)
    key(app, pygame.K_RETURN)  # the deployment screen's start
    assert isinstance(app.top, BattleScreen)
    battle = app.top.battle
    assert battle.options == chosen
    pools = {f.role: f.fudge_points for f in battle.figures.values()}
    assert pools["pc"] == 2 and pools["npc"] == 0
