"""The roster editor driven by posted events (issue 8 items 2 and 4; FTC 2.1, 5.1.1, 9)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.engine.ladder import FAIR, GOOD, GREAT
from game.roster import load_roster, roster_to_toml
from game.session import MAPS_DIR
from game.ui.app import App
from game.ui.dialogs import FileChooser, MessageDialog
from game.ui.roster_editor import PickDialog, RosterEditor, TextPrompt, edit_roster
from game.ui.screens import NewBattleScreen, TitleScreen
from tests.ui.conftest import click, key

VILLAGE = MAPS_DIR / "village.roster.toml"


def typed(app: App, text: str) -> None:
    """Type text as the keyboard would (TEXTINPUT events)."""
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.pump()


def press(app: App, ident: str) -> None:
    """Click one of the editor's buttons by its id."""
    ed = app.top
    assert isinstance(ed, RosterEditor)
    click(app, ed.buttons[ident].rect.center)


@pytest.fixture
def roster_file(maps_dir: Path) -> Path:
    path = maps_dir / "village.roster.toml"
    shutil.copy(VILLAGE, path)
    return path


def open_editor(app: App, path: Path, character: str | None = None) -> RosterEditor:
    app.apply(edit_roster(app.ui, path))
    app.pump()  # drawn once: the list knows its line height
    ed = app.top
    assert isinstance(ed, RosterEditor)
    if character is not None:
        keys = list(ed.characters)
        row = keys.index(character)
        click(app, (ed.char_list.rect.x + 20, ed.char_list.rect.y + 4 + row * ed.char_list._line_height + 5))
        assert ed.selected == character
    return ed


def test_the_title_screen_opens_the_editor_on_a_chosen_roster(app: App, roster_file: Path) -> None:
    assert isinstance(app.top, TitleScreen)
    key(app, pygame.K_r)
    chooser = app.top
    assert isinstance(chooser, FileChooser)
    chooser.list.select(next(i for i, p in enumerate(chooser.entries) if p == roster_file))
    key(app, pygame.K_RETURN)
    ed = app.top
    assert isinstance(ed, RosterEditor) and ed.path == roster_file
    assert ed.selected == "sergeant"
    key(app, pygame.K_ESCAPE)  # nothing changed: no question
    assert isinstance(app.top, TitleScreen)


def test_ftc_2_1_an_attribute_raised_on_the_ladder_is_saved_by_name(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file)
    press(app, "attr.strength.+")
    press(app, "attr.charisma.-")
    assert ed.current is not None and ed.current["strength"] == "Great" and ed.current["charisma"] == "Mediocre"
    assert ed.dirty
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not ed.dirty and app.top is ed
    again = load_roster(roster_file)
    assert again.characters["sergeant"].strength == GREAT
    assert again.characters["sergeant"].charisma == -1
    assert roster_file.read_text(encoding="utf-8").startswith("# Default roster for village.tmx")
    assert 'strength = "Great"' in roster_file.read_text(encoding="utf-8")


def test_an_attribute_lowered_back_to_fair_is_left_out_as_rosters_write_it(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file)
    press(app, "attr.strength.-")
    assert ed.current is not None and "strength" not in ed.current


def test_a_skill_added_from_the_list_and_one_typed_by_name(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file, "militia_bow")
    press(app, "skill.add")
    picker = app.top
    assert isinstance(picker, PickDialog)
    assert "Axe" in picker.shown and "Bow" not in picker.shown  # the archer has Bow already
    typed(app, "ax")
    assert picker.shown == ["Axe", "ax"]
    key(app, pygame.K_RETURN)
    assert app.top is ed
    press(app, "skill.add")
    typed(app, "Riding")
    assert isinstance(app.top, PickDialog) and app.top.shown == ["Riding"]
    key(app, pygame.K_RETURN)
    press(app, "skill.Riding.+")
    press(app, "skill.Knife.x")
    assert ed.current is not None
    assert ed.current["skills"] == {"Bow": "Good", "Axe": "Fair", "Riding": "Good"}
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    archer = load_roster(roster_file).characters["militia_bow"]
    assert archer.skill_level("Axe") == FAIR and archer.skill_level("Riding") == GOOD
    assert not archer.has_skill("Knife")


def test_ftc_5_1_1_armour_added_shows_the_encumbrance_and_movement_at_once(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file, "militia_spear")
    # Fair Strength carries 10 kg freely; spear 2 + leather 6 + cap 0.5 + gear 1 = 9.5 kg
    assert ed.encumbrance_text == "Encumbrance: none" and ed.allowance == 5
    press(app, "armour.add")
    typed(app, "field")
    key(app, pygame.K_RETURN)
    # + Field Plate 40 kg = 49.5 kg: more than four times 10 kg -> -3 (table 2), Fair Speed 5 - 3 = 2 hexes
    assert ed.encumbrance_text.startswith("Encumbrance: −3 hexes (more than 40 kg)")
    assert ed.allowance == 2
    press(app, "gear.+")
    assert ed.current is not None and ed.current["gear_kg"] == 1.5
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    spear = load_roster(roster_file).characters["militia_spear"]
    assert [a.name for a in spear.armour] == ["Leather", "Leather Cap", "Field Plate"]
    assert spear.carried_mass_kg() == pytest.approx(50.0)


def test_a_weapon_made_ready_and_a_shield_changed(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file, "brigand")
    press(app, "weapon.add")
    typed(app, "hand axe")
    key(app, pygame.K_RETURN)
    press(app, "weapon.1.ready")
    press(app, "shield.choose")
    typed(app, "large")
    key(app, pygame.K_RETURN)
    assert ed.current is not None
    assert ed.current["weapons"] == ["Hand Axe", "Shortsword"] and ed.current["shield"] == "Large Shield"
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    brigand = load_roster(roster_file).characters["brigand"]
    assert brigand.ready_weapon.name == "Hand Axe" and brigand.shield is not None
    assert brigand.shield.name == "Large Shield"


def test_ftc_6_4_1_an_invalid_character_shows_the_error_by_its_field_and_saves_nothing(
        app: App, roster_file: Path) -> None:
    before = roster_file.read_bytes()
    ed = open_editor(app, roster_file)
    press(app, "weapon.add")
    typed(app, "Two-Handed")
    key(app, pygame.K_RETURN)
    press(app, "weapon.2.ready")  # a two-handed weapon in hand, and the sergeant still carries a shield
    errors = ed.field_errors()
    assert list(errors) == ["shield"] and "Two-Handed Sword" in errors["shield"]
    assert ed.load_lines[0][0] == "Fix the error to see the load."
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    dialog = app.top
    assert isinstance(dialog, MessageDialog) and dialog.error
    assert "field 'shield'" in dialog.message and "Nothing was saved" in dialog.message
    assert roster_file.read_bytes() == before
    key(app, pygame.K_RETURN)
    press(app, "shield.choose")
    typed(app, "No shield")
    key(app, pygame.K_RETURN)
    assert ed.field_errors() == {}
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert load_roster(roster_file).characters["sergeant"].shield is None


def test_a_blank_name_is_refused_beside_the_name(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file)
    key(app, pygame.K_F2)
    assert isinstance(app.top, TextPrompt)
    key(app, pygame.K_BACKSPACE, pygame.KMOD_CTRL)
    typed(app, "   ")
    key(app, pygame.K_RETURN)
    assert "name" in ed.field_errors()
    assert "⚠" in ed.char_list.items[0]


def test_escape_with_unsaved_changes_asks_first(app: App, roster_file: Path) -> None:
    before = roster_file.read_bytes()
    app.apply(app.top.on_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0)))
    assert isinstance(app.top, NewBattleScreen)
    ed = open_editor(app, roster_file)
    press(app, "attr.will.+")
    key(app, pygame.K_ESCAPE)
    question = app.top
    assert isinstance(question, MessageDialog) and question.title == "Unsaved changes"
    key(app, pygame.K_ESCAPE)  # Cancel
    assert app.top is ed and ed.dirty
    key(app, pygame.K_ESCAPE)
    question = app.top
    assert isinstance(question, MessageDialog)
    click(app, question.buttons[1].rect.center)  # Discard
    assert isinstance(app.top, NewBattleScreen)
    assert roster_file.read_bytes() == before


def test_save_on_leaving_writes_the_file(app: App, roster_file: Path) -> None:
    open_editor(app, roster_file)
    press(app, "attr.will.+")
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_RETURN)  # Save, the default
    assert isinstance(app.top, TitleScreen)
    assert load_roster(roster_file).characters["sergeant"].will == GREAT


def test_save_as_writes_a_new_roster_in_the_players_roster_folder(
        app: App, roster_file: Path, data_home: Path) -> None:
    before = roster_file.read_bytes()
    ed = open_editor(app, roster_file)
    press(app, "attr.speed.+")
    key(app, pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.field.value == "village"
    key(app, pygame.K_BACKSPACE, pygame.KMOD_CTRL)
    typed(app, "My Band")
    key(app, pygame.K_RETURN)
    target = data_home / "rosters" / "my_band.roster.toml"
    assert app.top is ed and ed.path == target and not ed.dirty
    assert load_roster(target).characters["sergeant"].speed == GOOD
    assert roster_file.read_bytes() == before


def test_new_battle_edit_roster_then_save_as_chooses_the_new_roster(app: App, data_home: Path) -> None:
    key(app, pygame.K_n)
    new_battle = app.top
    assert isinstance(new_battle, NewBattleScreen) and new_battle.map_path is not None
    key(app, pygame.K_e)
    ed = app.top
    assert isinstance(ed, RosterEditor)
    assert ed.path == new_battle.map_path.with_suffix(".roster.toml")
    press(app, "char.copy")
    key(app, pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    typed(app, "_edited")
    key(app, pygame.K_RETURN)
    key(app, pygame.K_ESCAPE)
    assert app.top is new_battle
    assert new_battle.roster == ed.path and ed.path is not None and ed.path.parent == data_home / "rosters"
    assert new_battle.problem == "" and new_battle.roster_name == ed.path.name


def test_characters_added_copied_and_deleted(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file)
    key(app, pygame.K_n, pygame.KMOD_CTRL)
    typed(app, "Sir Bors")
    key(app, pygame.K_RETURN)
    assert ed.selected == "sir_bors" and ed.characters["sir_bors"] == {"name": "Sir Bors"}
    key(app, pygame.K_d, pygame.KMOD_CTRL)
    assert ed.selected == "sir_bors_copy" and ed.characters["sir_bors_copy"]["name"] == "Sir Bors (copy)"
    key(app, pygame.K_DELETE)
    key(app, pygame.K_RETURN)  # confirm
    assert "sir_bors_copy" not in ed.characters and ed.selected == "sir_bors"
    key(app, pygame.K_UP)
    assert ed.selected == "brigand_archer"
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert load_roster(roster_file).characters["sir_bors"].name == "Sir Bors"


def test_figures_and_sides_of_the_roster(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file, "brigand")
    press(app, "fig.add")
    press(app, "fig.count.+")
    press(app, "fig.count.+")
    press(app, "fig.side")
    press(app, "side.player")
    assert ed.figures == [{"character": "brigand", "side": "red", "count": 3}]
    key(app, pygame.K_DELETE)
    assert isinstance(app.top, MessageDialog) and "remove them first" in app.top.message
    key(app, pygame.K_RETURN)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    roster = load_roster(roster_file)
    assert [(f.character, f.side, f.name) for f in roster.figures] == [
        ("brigand", "red", "Brigand 1"), ("brigand", "red", "Brigand 2"), ("brigand", "red", "Brigand 3")]
    blue = roster.side("blue")
    assert blue is not None and blue.controller == "tactical"


def test_fields_the_editor_does_not_know_are_kept(app: App, maps_dir: Path) -> None:
    path = maps_dir / "odd.roster.toml"
    path.write_text('[sides.a]\nname = "A"\ncolour = "#112233"\nbanner = "lion"\n\n'
                    '[characters.mage]\nname = "Mage"\nspells = ["Fire Bolt"]\nfootprint = { size = 3 }\n'
                    'strength = "Poor"\n', encoding="utf-8")
    ed = open_editor(app, path)
    press(app, "attr.strength.+")
    press(app, "skill.add")
    typed(app, "Staff")
    key(app, pygame.K_RETURN)
    assert ed.characters["mage"] == {"name": "Mage", "spells": ["Fire Bolt"], "footprint": {"size": 3},
                                     "strength": "Mediocre", "skills": {"Staff": "Fair"}}
    assert ed.sides["a"]["banner"] == "lion"
    assert 'spells = ["Fire Bolt"]' in roster_to_toml(ed.data)


def test_fudge_4_8_carried_wounds_are_shown_and_survive_the_editors_save(app: App, roster_file: Path) -> None:
    """Wounds saved after a battle stay in the roster when a GM edits and saves it, and show by the track."""
    from game.roster import read_roster_data, save_roster

    data = read_roster_data(roster_file)
    data["characters"]["sergeant"]["wounds"] = ["Very Hurt", "Scratch"]
    save_roster(roster_file, data)
    ed = open_editor(app, roster_file)
    assert any(text.endswith("· carries Very Hurt") for text, *_ in ed.texts)
    assert "carried wounds Scratch, Very Hurt" in ed.buttons["track.choose"].tooltip
    press(app, "attr.strength.+")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not ed.dirty
    sergeant = load_roster(roster_file).characters["sergeant"]
    assert sergeant.strength == GREAT
    assert sergeant.wounds is not None and [str(w) for w in sergeant.wounds.received()] == ["Scratch", "Very Hurt"]
    assert 'wounds = ["Scratch", "Very Hurt"]' not in roster_file.read_text(encoding="utf-8")  # kept as written
    assert 'wounds = ["Very Hurt", "Scratch"]' in roster_file.read_text(encoding="utf-8")
