"""The roster editor driven by posted events (FTC 2.1, 5.1.1, 9)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.engine.ladder import FAIR, GOOD, GREAT, level_name
from game.engine.limits import limit
from game.engine.quantities import kg_text, number_text
from game.engine.wounds import WoundTrack, named_track
from game.roster import load_roster, read_roster_data, roster_to_toml
from game.session import MAPS_DIR
from game.ui.app import App
from game.ui.dialogs import FileChooser, MessageDialog
from game.ui.roster_editor import PickDialog, RosterEditor, TextPrompt, edit_roster
from game.ui.screens import NewBattleScreen, TitleScreen
from tests.ui.conftest import click, key, move, type_keys, wheel

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
    assert ed.current is not None and ed.current["skills"]["Riding"] == "Fair+"  # half steps (Fudge 4.36)
    press(app, "skill.Riding.+")
    press(app, "skill.Bow.+")
    press(app, "skill.Knife.x")
    assert ed.current["skills"] == {"Bow": "Good+", "Axe": "Fair", "Riding": "Good"}
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    archer = load_roster(roster_file).characters["militia_bow"]
    assert archer.skill_level("Axe") == FAIR and archer.skill_level("Riding") == GOOD
    assert not archer.has_skill("Knife")
    # Fudge 4.36: "Good+" is Good, and Great on even rounds; written back as the GM wrote it
    assert archer.skill_level("Bow", 1) == GOOD and archer.skill_level("Bow", 2) == GOOD + 1
    assert archer.to_dict()["skills"]["Bow"] == "Good+"


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
    app: App, roster_file: Path
) -> None:
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


def test_save_as_writes_a_new_roster_in_the_players_roster_folder(app: App, roster_file: Path, data_home: Path) -> None:
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
        ("brigand", "red", "Brigand 1"),
        ("brigand", "red", "Brigand 2"),
        ("brigand", "red", "Brigand 3"),
    ]
    blue = roster.side("blue")
    assert blue is not None and blue.controller == "tactical"


def test_fields_the_editor_does_not_know_are_kept(app: App, maps_dir: Path) -> None:
    path = maps_dir / "odd.roster.toml"
    path.write_text(
        '[sides.a]\nname = "A"\ncolour = "#112233"\nbanner = "lion"\n\n'
        '[characters.mage]\nname = "Mage"\nspells = ["Fire Bolt"]\nfootprint = { size = 3 }\n'
        'strength = "Poor"\n',
        encoding="utf-8",
    )
    ed = open_editor(app, path)
    press(app, "attr.strength.+")
    press(app, "skill.add")
    typed(app, "Staff")
    key(app, pygame.K_RETURN)
    assert ed.characters["mage"] == {
        "name": "Mage",
        "spells": ["Fire Bolt"],
        "footprint": {"size": 3},
        "strength": "Mediocre",
        "skills": {"Staff": "Fair"},
    }
    assert ed.sides["a"]["banner"] == "lion"
    assert 'spells = ["Fire Bolt"]' in roster_to_toml(ed.data)


def test_fudge_4_8_carried_wounds_are_shown_and_survive_the_editors_save(app: App, roster_file: Path) -> None:
    """Wounds saved after a battle stay in the roster when a GM edits and saves it, and show by the track."""
    from game.roster import read_roster_data, save_roster

    data = read_roster_data(roster_file)
    data["characters"]["sergeant"]["wounds"] = ["Very Hurt", "Scratch"]
    save_roster(roster_file, data)
    ed = open_editor(app, roster_file)
    tip = next(t for _r, t in ed.hover_tips if t.startswith("Wound track:"))
    assert "Carries Very Hurt from an earlier battle (■): Scratch, Very Hurt." in tip
    sheet = [text for text, *_ in ed.texts if "■" in text]
    assert sheet == ["1–2 ■□□", "5–6 ■"]  # one Scratch box and the Very Hurt box filled
    press(app, "attr.strength.+")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not ed.dirty
    sergeant = load_roster(roster_file).characters["sergeant"]
    assert sergeant.strength == GREAT
    assert sergeant.wounds is not None and [str(w) for w in sergeant.wounds.received()] == ["Scratch", "Very Hurt"]
    assert 'wounds = ["Scratch", "Very Hurt"]' not in roster_file.read_text(encoding="utf-8")  # kept as written
    assert 'wounds = ["Very Hurt", "Scratch"]' in roster_file.read_text(encoding="utf-8")


# ------------------------------------------------------------------ magic and creatures (FTC 5, 7, 8)

WYRM = MAPS_DIR / "wyrm_hollow.roster.toml"


@pytest.fixture
def wyrm_file(maps_dir: Path) -> Path:
    path = maps_dir / "wyrm_hollow.roster.toml"
    shutil.copy(WYRM, path)
    return path


def hover(app: App, pos: tuple[int, int]) -> str:
    """Rest the mouse on pos until the tooltip shows; its text."""
    move(app, pos)
    app.tick(1.0)
    ed = app.top
    assert isinstance(ed, RosterEditor | PickDialog)
    assert ed.tooltip.shown
    return ed.tooltip.text


def test_ftc_8_a_spell_added_from_the_catalogue_and_one_forgotten(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "wizard")
    key(app, pygame.K_m, pygame.KMOD_CTRL)
    picker = app.top
    assert isinstance(picker, PickDialog)
    labels = dict((value, label) for label, value in picker.items)
    assert "Fire Bolt" not in labels  # known already
    assert labels["Heal Wound"] == "Heal Wound — Magic · 1 round · touch"
    assert labels["Slow"] == "Slow — Magic · 1 round · short (10 hexes)"
    typed(app, "heal")
    assert picker.shown == ["Heal Wound"]
    assert picker.detail(0).startswith("Lowers the target's worst wound by one level")
    row = picker.list.rect.x + 20, picker.list.rect.y + 4 + picker.list._line_height // 2
    assert "Cast with Magic against" in hover(app, row) and "Wizard has Magic Great" in picker.tooltip.text
    key(app, pygame.K_RETURN)
    assert app.top is ed
    fire_bolt = ed.buttons["spell.0.x"]
    assert fire_bolt.tooltip == "Forget Fire Bolt."
    click(app, fire_bolt.rect.center)
    assert ed.current is not None
    assert ed.current["spells"] == ["Flame Dart", "Thunderstrike", "Ward", "Blinding Cloud", "Haste", "Heal Wound"]
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    wizard = load_roster(wyrm_file).characters["wizard"]
    assert wizard.spells == ("Flame Dart", "Thunderstrike", "Ward", "Blinding Cloud", "Haste", "Heal Wound")


def test_ftc_8_a_spell_row_tells_what_the_spell_does(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "wizard")
    rect = next(r for r, tip in ed.hover_tips if tip.startswith("A streak of flame"))
    tip = hover(app, (rect.x + 10, rect.centery))
    assert "Cast with Magic against Fair (FTC 8.1); 1 round, range short (10 hexes)" in tip


def test_ftc_5_fudge_4_23_4_63_a_goblin_made_a_large_hunter_with_the_epic_track(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "goblin")
    assert ed.buttons["footprint"].text == "Footprint: 1 hex" and ed.buttons["kind"].text == "Kind: person"
    assert ed.buttons["track"].text == "Wound track: mook"
    press(app, "footprint")
    press(app, "footprint")
    assert ed.buttons["footprint"].text == "Footprint: 7 hexes"
    press(app, "kind")
    key(app, pygame.K_k, pygame.KMOD_CTRL)
    assert ed.buttons["kind"].text == "Kind: prey"
    key(app, pygame.K_k, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert ed.buttons["kind"].text == "Kind: carnivore"
    while ed.buttons["track"].text != "Wound track: epic":
        key(app, pygame.K_w, pygame.KMOD_CTRL)
    press(app, "head")
    for _ in range(3):
        key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
    press(app, "tough_hide.+")
    press(app, "tough_hide.+")
    assert ed.current is not None
    assert {k: ed.current[k] for k in ("footprint", "kind", "wound_track", "has_head", "scale", "tough_hide")} == {
        "footprint": 7,
        "kind": "carnivore",
        "wound_track": "epic",
        "has_head": False,
        "scale": 3,
        "tough_hide": 2,
    }
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    goblin = load_roster(wyrm_file).characters["goblin"]
    assert (goblin.footprint, goblin.kind, goblin.has_head, goblin.tough_hide) == (7, "carnivore", False, 2)
    assert goblin.wound_track == named_track("epic")
    assert (goblin.strength_scale, goblin.mass_scale, goblin.speed_scale) == (3, 3, 3)


def test_defaults_chosen_again_are_left_out_of_the_file(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "dragon")
    for _ in range(2):
        press(app, "footprint")  # 7 -> 1 -> 3
    press(app, "footprint")
    key(app, pygame.K_f, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # back from 7 to 3
    key(app, pygame.K_f, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # and to 1
    key(app, pygame.K_k, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # carnivore -> person
    key(app, pygame.K_w, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # major_npc -> mook
    key(app, pygame.K_w, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # mook -> default
    press(app, "tough_hide.-")
    for _ in range(3):
        key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
    assert ed.current == {
        "name": "Young Wyrm",
        "role": "major_npc",
        "strength": "Good",
        "health": "Great",
        "will": "Good",
        "skills": {"Brawling": "Superb"},
        "weapons": ["Claws and Teeth"],
    }


def test_each_creature_field_names_its_rules_section(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "dragon")
    sections = {
        "footprint": "FTC 5",
        "kind": "Fudge 4.23",
        "head": "FTC 6.6",
        "track": "Fudge 4.58",
        "tough_hide.+": "FTC 7.2",
        "scale.all.+": "Fudge 4.58",
        "scale.1.+": "FTC 6.4",
        "pierce.choose": "Fudge 4.58",
        "spell.add": "Ctrl+M",
    }
    for ident, section in sections.items():
        assert section in hover(app, ed.buttons[ident].rect.center), ident
    assert "Carnivores defend one level below their attack" in ed.buttons["kind"].tooltip
    assert "Scratch 1–2 □□□ · Hurt 3–4 □" in ed.buttons["track"].tooltip
    while ed.buttons["track"].text != "Wound track: epic":
        press(app, "track")
    assert "Fudge 4.63" in ed.buttons["track"].tooltip and "Incapacitated 6 □□" in ed.buttons["track"].tooltip


CUSTOM = (
    '[sides.a]\nname = "A"\ncolour = "#112233"\n\n'
    '[characters.ooze]\nname = "Ooze"\n'
    'wound_track = { levels = ["Hurt", "Incapacitated"], damage = [2, 6], boxes = [3, 1] }\n'
)


def test_ftc_7_3_a_custom_wound_track_is_shown_and_kept(app: App, maps_dir: Path) -> None:
    path = maps_dir / "ooze.roster.toml"
    path.write_text(CUSTOM, encoding="utf-8")
    own = {"levels": ["Hurt", "Incapacitated"], "damage": [2, 6], "boxes": [3, 1]}
    ed = open_editor(app, path)
    assert ed.buttons["track"].text == "Wound track: custom"
    assert "Hurt 2–5 □□□ · Incapacitated 6+ □" in ed.buttons["track"].tooltip
    press(app, "attr.health.+")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert read_roster_data(path)["characters"]["ooze"]["wound_track"] == own
    key(app, pygame.K_w, pygame.KMOD_CTRL)  # custom -> default
    assert ed.current is not None and "wound_track" not in ed.current
    seen = []
    while ed.buttons["track"].text != "Wound track: custom":
        seen.append(ed.buttons["track"].text.removeprefix("Wound track: "))
        key(app, pygame.K_w, pygame.KMOD_CTRL)
    assert seen[:4] == ["default", "mook", "major npc", "cinematic"] and "epic" in seen
    assert ed.current["wound_track"] == own
    press(app, "track.choose")
    picker = app.top
    assert isinstance(picker, PickDialog) and picker.items[-1] == (
        "custom: Hurt 2–5 □□□ · Incapacitated 6+ □",
        "custom",
    )
    typed(app, "mook")
    key(app, pygame.K_RETURN)
    assert ed.current["wound_track"] == "mook"
    key(app, pygame.K_w, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)  # back from mook to default
    assert "wound_track" not in ed.current
    press(app, "track.choose")
    typed(app, "custom")
    key(app, pygame.K_RETURN)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert load_roster(path).characters["ooze"].wound_track == WoundTrack.from_data(own, name="ooze track")


def test_fudge_4_58_a_scale_piercing_weapon_refused_once_it_is_no_longer_carried(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "goblin")
    press(app, "pierce.choose")
    picker = app.top
    assert isinstance(picker, PickDialog)
    assert [label for label, _ in picker.items] == [
        "Spear or Pike — normal: the target's Mass Scale counts in full  ✓",
        "Spear or Pike — halves the target's Mass Scale on a hit by 3 or more",
        "Spear or Pike — ignores the target's Mass Scale on a hit by 3 or more",
    ]
    typed(app, "halves")
    key(app, pygame.K_RETURN)
    press(app, "spell.add")
    typed(app, "ward")
    key(app, pygame.K_RETURN)
    assert ed.current is not None and ed.current["scale_piercing"] == {"Spear or Pike": "halve"}
    saved = wyrm_file.read_bytes()
    press(app, "weapon.0.x")
    errors = ed.field_errors()
    assert list(errors) == ["piercing"]
    assert "'Spear or Pike', which the character does not carry" in errors["piercing"]
    assert "list the weapon under weapons" in errors["piercing"]
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    dialog = app.top
    assert isinstance(dialog, MessageDialog) and dialog.error and "Nothing was saved" in dialog.message
    assert wyrm_file.read_bytes() == saved
    key(app, pygame.K_RETURN)
    assert ed.current["scale_piercing"] == {"Spear or Pike": "halve"} and ed.current["spells"] == ["Ward"]
    press(app, "weapon.add")
    typed(app, "spear or")
    key(app, pygame.K_RETURN)
    assert ed.field_errors() == {}
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    goblin = load_roster(wyrm_file).characters["goblin"]
    assert goblin.piercing(goblin.ready_weapon) == "halve" and goblin.spells == ("Ward",)


def test_ftc_8_an_unknown_spell_in_the_file_is_shown_with_the_loaders_fix(app: App, maps_dir: Path) -> None:
    path = maps_dir / "typo.roster.toml"
    path.write_text('[characters.mage]\nname = "Mage"\nspells = ["Firebolt", "Ward"]\n', encoding="utf-8")
    before = path.read_bytes()
    ed = open_editor(app, path)
    message = ed.field_errors()["spells"]
    assert "there is no spell named 'Firebolt'; did you mean Fire Bolt" in message
    assert "⚠" in ed.char_list.items[0]
    assert ed.buttons["spell.0.x"].tooltip == "Forget Firebolt."
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert isinstance(app.top, MessageDialog) and path.read_bytes() == before
    key(app, pygame.K_RETURN)
    press(app, "spell.0.x")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert load_roster(path).characters["mage"].spells == ("Ward",)


def test_roster_keys_the_editor_does_not_edit_survive_a_save(app: App, maps_dir: Path) -> None:
    path = maps_dir / "kept.roster.toml"
    path.write_text(
        'title = "Kept"\ndescription = "fields the editor leaves alone"\n\n'
        '[sides.a]\nname = "A"\ncolour = "#112233"\nbanner = "lion"\n\n'
        '[characters.bat]\nname = "Bat"\nmovement_modes = ["walk", "fly"]\nresist_sharp = 1\n'
        'damage_capacity = "Poor"\nscale = -2\n'
        'wound_track = { levels = ["Hurt", "Incapacitated"], damage = [1, 3], boxes = [1, 1] }\n\n'
        '[[figures]]\ncharacter = "bat"\nside = "a"\ncount = 2\nmook = true\n',
        encoding="utf-8",
    )
    before = read_roster_data(path)
    ed = open_editor(app, path)
    key(app, pygame.K_m, pygame.KMOD_CTRL)
    typed(app, "dazzle")
    key(app, pygame.K_RETURN)
    press(app, "footprint")
    press(app, "kind")
    press(app, "tough_hide.+")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not ed.dirty
    after = read_roster_data(path)
    bat = after["characters"].pop("bat")
    assert {k: bat.pop(k) for k in ("spells", "footprint", "kind", "tough_hide")} == {
        "spells": ["Dazzle"],
        "footprint": 3,
        "kind": "carnivore",
        "tough_hide": 1,
    }
    assert bat == before["characters"]["bat"]
    assert {k: v for k, v in after.items() if k != "characters"} == {
        k: v for k, v in before.items() if k != "characters"
    }


def test_a_list_longer_than_the_window_scrolls(app: App, wyrm_file: Path) -> None:
    ed = open_editor(app, wyrm_file, "wizard")
    ed.on_resize((1024, 640))  # the tallest window whose columns fit this wizard only with both lists scrolled
    assert "skills.down" in ed.buttons and "spells.down" in ed.buttons
    shown = [i for i in ("Magic", "Thaumatology", "Staff", "Knife") if f"skill.{i}.x" in ed.buttons]
    assert shown and len(shown) < 4 and not ed.buttons["skills.up"].enabled
    press(app, "skills.down")
    assert ed.buttons["skills.up"].enabled and f"skill.{shown[0]}.x" not in ed.buttons
    assert "spell.0.x" in ed.buttons and "spell.5.x" not in ed.buttons
    wheel(app, ed.scroll_areas["spells"].center, -1)
    assert ed.scroll["spells"] == 1 and "spell.0.x" not in ed.buttons and "spell.1.x" in ed.buttons


@pytest.mark.parametrize("size", [(1280, 720), (1024, 640), (1600, 1000)])
@pytest.mark.parametrize("who", ["wizard", "dragon", "knight", "priest"])
def test_the_editor_fits_the_window_without_overlapping_buttons(
    app: App, wyrm_file: Path, size: tuple[int, int], who: str
) -> None:
    ed = open_editor(app, wyrm_file, who)
    ed.on_resize(size)
    window = pygame.Rect((0, 0), size)
    rects = [(ident, b.rect) for ident, b in ed.buttons.items()]
    for i, (ident, rect) in enumerate(rects):
        assert window.contains(rect), ident
        for other, rect2 in rects[i + 1 :]:
            assert not rect.colliderect(rect2), (ident, other)
    for ident, b in ed.buttons.items():
        assert app.ui.text.width(b.text, b.size, True) <= b.rect.width, ident
    assert ed.load_rect.bottom <= size[1] - 40


def test_ftc_7_3_the_wound_track_tooltip_follows_the_click_without_moving_the_mouse(app: App, wyrm_file: Path) -> None:
    """Clicking "Wound track" cycles the track; the tooltip under the still mouse names the new track at once."""
    ed = open_editor(app, wyrm_file, "goblin")
    centre = ed.buttons["track"].rect.center
    move(app, centre)
    app.tick(1.0)
    before = ed.tooltip.text
    assert ed.tooltip.shown and before == ed.buttons["track"].hint
    press(app, "track")
    after = ed.buttons["track"]
    assert after.text != "Wound track: mook" and after.hovered
    assert ed.tooltip.text == after.hint != before
    assert ed.tooltip.shown


def resize(app: App, size: tuple[int, int]) -> None:
    """Make the window this size, as the player dragging its corner would."""
    pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()


SMALL_WINDOWS = [(800, 500), (900, 560), (960, 600), (1000, 620), (1024, 640)]


def _assert_parts_apart(app: App, ed: RosterEditor, size: tuple[int, int], where: str) -> None:
    """The parts shown lie inside the window, above the footer, clear of each other; their buttons too, each
    with its whole label."""
    window = pygame.Rect((0, 0), size)
    shown = [(type(p).__name__, p.area) for p in ed.parts if p.rect.width]
    assert len(shown) >= 4, where
    for i, (name, rect) in enumerate(shown):
        assert window.contains(rect), (where, name, rect)
        assert rect.bottom <= ed.frame.footer_rect.top, (where, name, rect, ed.frame.footer_rect)
        for other, rect2 in shown[i + 1 :]:
            assert not rect.colliderect(rect2), (where, name, other, rect, rect2)
    buttons = [(ident, b) for ident, b in ed.buttons.items() if b.visible]
    for i, (ident, b) in enumerate(buttons):
        assert window.contains(b.rect), (where, ident)
        assert app.ui.text.fit(b.text, b.size, b.rect.width - 8, True) == b.text, (where, ident, b.text)
        for other, b2 in buttons[i + 1 :]:
            assert not b.rect.colliderect(b2.rect), (where, ident, other)
    for name, rect in shown:
        if name not in ("Frame", "CharacterList", "SidesAndFigures"):
            assert rect.bottom <= ed.content_bottom, (where, name, "reaches the status line")


@pytest.mark.parametrize("size", SMALL_WINDOWS)
@pytest.mark.parametrize("who", ["wizard", "dragon", "knight", "priest"])
def test_the_editors_columns_do_not_overlap_in_small_windows(
    app: App, wyrm_file: Path, size: tuple[int, int], who: str
) -> None:
    """From 800 × 500 to 1024 × 640 every part keeps to its own rectangle: side by side when they fit, else
    the character's parts take turns on pages beside the character list, one tab each."""
    ed = open_editor(app, wyrm_file, who)
    ed.on_resize(size)
    if not ed.compact():
        _assert_parts_apart(app, ed, size, f"{size} {who}")
        return
    titles = [b.text for ident, b in ed.buttons.items() if ident.startswith("page.")]
    assert titles == ["Attributes", "Skills", "Creature", "Gear", "Spells", "Sides"]
    for page, title in enumerate(titles):
        press(app, f"page.{page}")
        assert ed.buttons[f"page.{page}"].focused
        _assert_parts_apart(app, ed, size, f"{size} {who} page {title}")


def test_a_small_window_shows_the_characters_parts_on_pages(app: App, wyrm_file: Path) -> None:
    """At 900 × 560 a tab shows each part; an error marks the tab of the page it is on (FTC 6.4.1: a
    two-handed weapon in hand with a shield), and Ctrl+Tab turns the pages."""
    ed = open_editor(app, wyrm_file, "knight")
    resize(app, (900, 560))
    assert ed.compact() and "attr.strength.+" in ed.buttons and "weapon.add" not in ed.buttons
    press(app, "page.3")
    assert "weapon.add" in ed.buttons and "attr.strength.+" not in ed.buttons
    press(app, "weapon.add")
    typed(app, "Two-Handed")
    key(app, pygame.K_RETURN)
    ready = max(int(i.split(".")[1]) for i in ed.buttons if i.startswith("weapon.") and i.endswith(".ready"))
    press(app, f"weapon.{ready}.ready")
    assert ed.buttons["page.3"].text == "⚠ Gear" and ed.buttons["page.0"].text == "Attributes"
    key(app, pygame.K_TAB, pygame.KMOD_CTRL)
    assert ed.buttons["page.4"].focused and "spell.add" in ed.buttons
    assert ed.load_rect.width and ed.load_lines[0][0] == "Fix the error to see the load."
    key(app, pygame.K_TAB, pygame.KMOD_CTRL)
    assert "side.add" in ed.buttons and "fig.add" in ed.buttons
    press(app, "side.add")
    assert len(ed.sides) == 3


def test_ctrl_a_selects_a_text_fields_whole_text_for_typing_over(app: App, roster_file: Path) -> None:
    ed = open_editor(app, roster_file)
    key(app, pygame.K_F2)
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.field.value == "Sergeant"
    typed(app, "!")
    assert prompt.field.value == "Sergeant!"  # without Ctrl+A typing appends
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    assert prompt.field.all_selected
    type_keys(app, "Sir Bors")  # as a keyboard sends it: each key's press before its text
    assert prompt.field.value == "Sir Bors" and not prompt.field.all_selected
    key(app, pygame.K_RETURN)
    assert ed.current is not None and ed.current["name"] == "Sir Bors"
    key(app, pygame.K_F2)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)
    assert isinstance(app.top, TextPrompt) and app.top.field.value == ""
    key(app, pygame.K_ESCAPE)
    press(app, "skill.add")
    picker = app.top
    assert isinstance(picker, PickDialog)
    typed(app, "ax")
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_RIGHT)  # → ends the selection at its end: typing appends again
    type_keys(app, "e")
    assert picker.field.value == "axe"
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_keys(app, "bow")
    assert picker.field.value == "bow" and picker.shown[0] == "Bow"


def find(app: App, ident: str) -> None:
    """Turn the editor's pages (a small window, or a character too long for the columns) to the button."""
    ed = app.top
    assert isinstance(ed, RosterEditor)
    for _ in range(len(ed.pages_of())):
        if ident in ed.buttons:
            return
        key(app, pygame.K_TAB, pygame.KMOD_CTRL)
    assert ident in ed.buttons


def test_the_editor_refuses_the_values_the_roster_reader_refuses(app: App, maps_dir: Path) -> None:
    """The ranges of data/limits.toml hold in the editor as in the reader: a step that would leave a range
    changes nothing and says why; a value already out of range in the file is shown by its field and
    may be stepped back."""

    scale_top = limit("scale")
    hide_top = limit("tough_hide")
    weapons_most = limit("weapons")
    assert scale_top is not None and hide_top is not None and weapons_most is not None
    path = maps_dir / "edge.roster.toml"
    path.write_text(
        f'[characters.titan]\nname = "Titan"\nscale = {int(scale_top.high)}\ntough_hide = {int(hide_top.high)}\n'
        f"weapons = {['Stiletto'] * int(weapons_most.high)!r}\n".replace("'", '"')
        + '\n[characters.giant]\nname = "Giant"\nstrength = "Legendary+9"\n',
        encoding="utf-8",
    )
    ed = open_editor(app, path)
    assert ed.field_errors() == {}
    find(app, "scale.all.+")
    press(app, "scale.all.+")
    assert ed.current is not None and ed.current["scale"] == int(scale_top.high)
    assert ed.status_error and f"outside the range {scale_top.describe()}" in ed.status
    find(app, "scale.1.+")
    press(app, "scale.1.+")  # one Scale alone past the top: refused too
    assert ed.current["scale"] == int(scale_top.high) and "mass_scale" not in ed.current
    find(app, "tough_hide.+")
    press(app, "tough_hide.+")
    assert ed.current["tough_hide"] == int(hide_top.high) and "tough hide" in ed.status
    find(app, "weapon.add")
    press(app, "weapon.add")
    typed(app, "Stiletto")
    key(app, pygame.K_RETURN)
    assert len(ed.current["weapons"]) == int(weapons_most.high) and "more than the" in ed.status
    find(app, "scale.all.-")
    press(app, "scale.all.-")  # inside the range: allowed
    assert ed.current["scale"] == int(scale_top.high) - 1 and not ed.status_error
    key(app, pygame.K_DOWN)
    assert ed.selected == "giant"
    assert "outside the range Terrible-3 to Legendary+3" in ed.field_errors()["attributes"]
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert isinstance(app.top, MessageDialog) and "Nothing was saved" in app.top.message
    key(app, pygame.K_RETURN)
    find(app, "attr.strength.-")
    press(app, "attr.strength.-")  # stepped back towards the range: allowed, still refused until inside
    assert ed.current["strength"] == "Legendary+8"


def test_the_editors_save_keeps_section_and_inline_comments(app: App, maps_dir: Path) -> None:
    path = maps_dir / "notes.roster.toml"
    path.write_text(
        "# A roster with notes.\n\n"
        '# the heroes\n[sides.a]\nname = "A"  # after the river\ncolour = "#112233"\n\n'
        '[characters.hero]\nname = "Hero"\n# trained by the abbot\nstrength = "Good"  # was Fair\n',
        encoding="utf-8",
    )
    ed = open_editor(app, path)
    press(app, "attr.will.+")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert not ed.dirty
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# A roster with notes.\n\n# the heroes\n[sides.a]\n")
    assert 'name = "A"  # after the river' in text
    assert '# trained by the abbot\nstrength = "Good"  # was Fair' in text
    assert read_roster_data(path)["characters"]["hero"] == {"name": "Hero", "strength": "Good", "will": "Good"}


def test_the_skill_picker_lists_every_skill_the_rules_use(app: App, roster_file: Path) -> None:
    """Weapon skills (FTC 9.1), Shield, Martial Arts (FTC 6.3), spell skills (FTC 8.1), Thaumatology (FTC
    8.2) and the medical skills of data/healing.toml (Fudge 4.8), each with what it does."""
    from game.engine import equipment, healing, magic

    open_editor(app, roster_file, "militia_bow")
    press(app, "skill.add")
    picker = app.top
    assert isinstance(picker, PickDialog)
    offered = set(picker.shown)
    rules = {w.skill for w in equipment.weapons()} | {s.skill for s in magic.spells()}
    rules |= {"Shield", "Martial Arts", "Thaumatology", *healing.healing_data()["treatment"]["skills"]}
    assert "First Aid" in rules and "Magic" in rules
    assert offered == rules - {"Bow", "Knife"}  # the archer has those already
    typed(app, "first")
    assert picker.shown == ["First Aid", "first"]
    assert "Fudge 4.8" in picker.detail(0)
    key(app, pygame.K_RETURN)
    ed = app.top
    assert isinstance(ed, RosterEditor) and ed.current is not None
    assert ed.current["skills"]["First Aid"] == "Fair"


def test_fudge_4_8_carried_wounds_are_healed_or_edited_box_by_box(app: App, roster_file: Path) -> None:
    from game.roster import save_roster
    from game.ui.roster_editor.wounds import CarriedWoundsDialog

    data = read_roster_data(roster_file)
    data["characters"]["sergeant"]["wounds"] = ["Very Hurt", "Scratch"]
    data["characters"]["brigand"]["wounds"] = ["Hurt"]
    save_roster(roster_file, data)
    ed = open_editor(app, roster_file)
    find(app, "wounds.edit")
    press(app, "wounds.edit")
    dialog = app.top
    assert isinstance(dialog, CarriedWoundsDialog) and dialog.label == "Very Hurt"
    click(app, dialog.buttons["Very Hurt.-"].rect.center)  # the Very Hurt box emptied
    click(app, dialog.buttons["Hurt.+"].rect.center)
    click(app, dialog.buttons["Scratch.+"].rect.center)
    for _ in range(3):  # the track has three Scratch boxes: a fourth is refused
        click(app, dialog.buttons["Scratch.+"].rect.center)
    assert dialog.wounds.filled(dialog.track.steps[0].level) == 3 and dialog.label == "Hurt"
    key(app, pygame.K_RETURN)
    assert app.top is ed and ed.dirty and "now carries: Hurt" in ed.status
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    sergeant = load_roster(roster_file).characters["sergeant"]
    assert sergeant.wounds is not None and sergeant.wounds.label == "Hurt"
    assert sorted(str(w) for w in sergeant.wounds.received()) == ["Hurt", "Scratch", "Scratch", "Scratch"]
    press(app, "wounds.clear")  # heal all: the field goes
    assert ed.current is not None and "wounds" not in ed.current
    assert not ed.buttons["wounds.clear"].enabled
    press(app, "wounds.edit")
    assert isinstance(app.top, CarriedWoundsDialog) and app.top.label == "Unhurt"
    key(app, pygame.K_ESCAPE)
    assert app.top is ed
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    roster = load_roster(roster_file)
    assert roster.characters["sergeant"].wounds is None
    brigand = roster.characters["brigand"].wounds
    assert brigand is not None and brigand.label == "Hurt"  # the others' wounds untouched


@pytest.mark.parametrize("scale", [1.25, 1.5])
@pytest.mark.parametrize("size", [(1024, 640), (1280, 720), (1920, 1080)])
def test_the_editors_parts_keep_apart_at_larger_ui_scales(
    app: App, wyrm_file: Path, size: tuple[int, int], scale: float
) -> None:
    from dataclasses import replace

    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    ed = open_editor(app, wyrm_file, "wizard")
    resize(app, size)
    if not ed.compact():
        _assert_parts_apart(app, ed, size, f"{size} ×{scale}")
        return
    for page in range(len(ed.pages_of())):
        press(app, f"page.{page}")
        _assert_parts_apart(app, ed, size, f"{size} ×{scale} page {page}")


def test_a_page_taller_than_the_window_scrolls_with_the_wheel(app: App, wyrm_file: Path) -> None:
    """At 1024 × 640 and UI scale 150 % the knight's gear is taller than the room under the tabs: the page
    scrolls (wheel, Page Down), and only what is in view takes clicks."""
    from dataclasses import replace

    app.ui.update_settings(replace(app.ui.settings, ui_scale=1.5))
    ed = open_editor(app, wyrm_file, "knight")
    resize(app, (1024, 640))
    assert ed.compact()
    press(app, "page.3")
    assert ed.pages.overflow > 0 and ed.pages.offset == 0
    assert ed.buttons["weapon.add"].visible and not ed.buttons["gear.+"].visible
    wheel(app, ed.pages.page_view.center, -5)
    assert ed.pages.offset == ed.pages.overflow
    assert ed.buttons["gear.+"].visible and not ed.buttons["weapon.add"].visible
    click(app, ed.buttons["gear.+"].rect.center)
    assert ed.current is not None and ed.current["gear_kg"] == 1.5
    key(app, pygame.K_PAGEUP)
    assert ed.pages.offset < ed.pages.overflow
    press(app, "page.0")  # another page starts at its top
    assert ed.pages.offset == 0


def test_pages_once_needed_stay_while_the_characters_are_browsed(app: App, wyrm_file: Path) -> None:
    """At 1024 × 640 the knight's parts do not fit side by side but the wizard's do: once the knight has
    needed pages they stay for every character at that size (no flipping while going through the list),
    and a larger window brings the columns back."""
    ed = open_editor(app, wyrm_file, "wizard")
    resize(app, (1024, 640))
    assert not ed.compact()
    key(app, pygame.K_UP)
    assert ed.selected == "knight" and ed.compact()
    key(app, pygame.K_DOWN)
    assert ed.selected == "wizard" and ed.compact()
    resize(app, (1280, 720))
    assert not ed.compact()


def test_attributes_and_skills_step_to_the_documented_top_and_say_so_there(app: App, roster_file: Path) -> None:
    """FTC 2.1 ladder as data/limits.toml bounds it: + goes past Legendary to Legendary+3 (the range
    docs/rosters.md gives), and a press beyond the end changes nothing and says why in the status line."""
    ed = open_editor(app, roster_file)
    top = limit("strength")
    assert top is not None and level_name(int(top.high)) == "Legendary+3"
    seen = []
    for _ in range(12):
        press(app, "attr.strength.+")
        assert ed.current is not None
        seen.append(ed.current.get("strength"))
    assert seen[-1] == "Legendary+3" and "Legendary" in seen and "Legendary+2" in seen
    assert ed.status_error and "Strength is at Legendary+3, the highest level" in ed.status
    assert top.describe() in ed.status
    # written between its − and + (smaller if need be), not under them
    value, pos, size, _colour, bold, _anchor = next(i for i in ed.attributes.texts if i[0] == "Legendary+3")
    width = app.ui.text.width(value, size, bold)
    minus, plus = ed.buttons["attr.strength.-"].rect, ed.buttons["attr.strength.+"].rect
    assert minus.right <= pos[0] - width // 2 and pos[0] + width // 2 <= plus.left
    for _ in range(20):
        press(app, "attr.strength.-")
    assert ed.current.get("strength") == "Terrible-3"
    assert "Strength is at Terrible-3, the lowest level" in ed.status
    press(app, "attr.strength.+")  # back inside: no complaint
    assert ed.current.get("strength") == "Terrible-2" and not ed.status_error
    find(app, "skill.add")
    press(app, "skill.add")
    type_keys(app, "Sword")
    key(app, pygame.K_RETURN)
    plus = next(i for i in ed.buttons if i.startswith("skill.") and i.endswith(".+"))
    for _ in range(20):
        press(app, plus)
    assert ed.current["skills"]["Sword"] == "Legendary+3+"  # a plus level adds no step (Fudge 4.36)
    assert "Sword is at Legendary+3+, the highest level" in ed.status


def test_a_heavy_load_is_written_in_plain_digits(app: App, maps_dir: Path) -> None:
    """FTC 5.1.1: a giant's load and its table 2 limits are written "568,151.287 kg", never "5.68151e+05"."""
    path = maps_dir / "heavy.roster.toml"
    path.write_text(
        '[characters.giant]\nname = "Giant"\nstrength = "Legendary+3"\nstrength_scale = 20\n'
        'gear_kg = 99999.5\nweapons = ["Spear"]\n',
        encoding="utf-8",
    )
    ed = open_editor(app, path)
    shown = " ".join(line for line, _ in ed.load_lines)
    assert "Carried 100,001.5 kg: weapons 2, armour 0, shield 0, other 99,999.5" in shown
    assert "no penalty up to 568,151.287 kg, −1 to 1,136,302.573" in shown
    assert "e+" not in shown
    drawn = " ".join(text for part in ed.parts for text in part_texts(part))
    assert "99,999.5 kg" in drawn and "e+" not in drawn


def part_texts(part: object) -> list[str]:
    """The strings a part of the editor lays out (its texts and button labels)."""
    out = [str(item[0]) for item in getattr(part, "texts", [])]
    out += [b.text for b in getattr(part, "buttons", {}).values()]
    return out


def test_numbers_are_written_readably() -> None:
    assert number_text(1346730.4) == "1,346,730.4" and number_text(2.50) == "2.5" and number_text(0.1 + 0.2) == "0.3"
    assert number_text(100000) == "100,000" and number_text(-0.0001) == "0" and number_text(float("inf")) == "infinite"
    assert kg_text(1e20) == "100,000,000,000,000,000,000 kg"


def test_a_characters_and_a_sides_role_go_round_and_reach_the_file(app: App, wyrm_file: Path) -> None:
    """docs/rosters.md "Roles": the Role button of a character goes round the side's, Hero, Major NPC and NPC;
    the Role button of a side round none given, heroes, major NPCs, NPC pawns; both are saved."""
    ed = open_editor(app, wyrm_file, "goblin")
    assert "role" not in (ed.current or {})
    press(app, "name.role")
    assert (ed.current or {})["role"] == "pc"
    press(app, "name.role")
    press(app, "name.role")
    assert (ed.current or {})["role"] == "npc"
    press(app, "name.role")
    assert "role" not in (ed.current or {})
    press(app, "name.role")  # a hero again
    assert next(iter(ed.sides)) == "blue" and ed.sides["blue"]["role"] == "pc"
    press(app, "side.role")  # the first side: heroes -> major NPCs
    assert ed.sides["blue"]["role"] == "major_npc"
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    roster = load_roster(wyrm_file)
    assert roster.roles["goblin"] == "pc"
    blue = roster.side("blue")
    assert blue is not None and blue.role == "major_npc"


def test_fudge_4_64_the_fudge_points_stepper_writes_the_characters_pool(app: App, roster_file: Path) -> None:
    """docs/rosters.md "Fudge Points": "—" leaves a hero the rule option's default; + gives 0, 1, …, 20 at most
    (the range refused past it, said on the status line); − below 0 takes the field out again."""
    ed = open_editor(app, roster_file, "sergeant")
    assert ed.current is not None and "fudge_points" not in ed.current
    assert "Fudge 4.64" in ed.buttons["fudge_points.+"].tooltip
    press(app, "fudge_points.+")
    assert ed.current["fudge_points"] == 0
    for _ in range(22):
        press(app, "fudge_points.+")
    assert ed.current["fudge_points"] == 20 and "outside the range 0 to 20" in ed.status
    press(app, "fudge_points.-")
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert load_roster(roster_file).fudge_points == {"sergeant": 19}
    for _ in range(21):
        press(app, "fudge_points.-")
    assert "fudge_points" not in ed.current
