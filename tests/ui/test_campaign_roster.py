"""The shipped maps stay as shipped: a battle, its aftercare and "Save wounds to roster" write only into the
user's data folder; the first save of wounds makes a campaign copy of the shipped roster, and New battle offers
that copy as the map's roster next time (*Fudge* 4.8: wounds carried into the next battle)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pygame
import pytest

from game.engine.wounds import WoundLevel, Wounds
from game.paths import MAPS_DIR, campaign_copy_of, campaign_roster
from game.roster import RosterError, load_roster, read_roster_data, save_carried_wounds, save_roster
from game.session import Session, new_session
from game.ui.app import App
from game.ui.deploy_screen import DeployScreen
from game.ui.dialogs import MessageDialog
from game.ui.roster_editor import RosterEditor, edit_roster
from game.ui.screens import NewBattleScreen
from tests.ui.conftest import click, key, move
from tests.ui.test_summary_screen import VILLAGE, open_village_summary, village_battle_over


def folder_digest(folder: Path) -> dict[str, str]:
    """Every file under the folder (caches aside) and the hash of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


SHIPPED = VILLAGE.with_suffix(".roster.toml")


def test_a_played_battle_and_its_aftercare_never_write_inside_maps(app: App, data_home: Path) -> None:
    before = folder_digest(MAPS_DIR)
    session = village_battle_over(SHIPPED)
    session.autosave = data_home / "autosave.json"
    session.write_autosave()
    screen = open_village_summary(app, session)
    click(app, screen.care_button.rect.center)
    for row in screen.side_rows.values():  # every side's healer treats its wounded
        click(app, row[0].rect.center)
    click(app, screen.rest_button.rect.center)
    key(app, pygame.K_x)  # export the log
    key(app, pygame.K_w)  # save wounds: the first time makes the campaign copy
    key(app, pygame.K_w)  # and again: into that copy
    assert folder_digest(MAPS_DIR) == before
    copy = data_home / "campaigns" / "village.roster.toml"
    assert copy.is_file() and (data_home / "autosave.json").is_file()


def test_the_first_save_of_wounds_makes_a_named_campaign_copy_and_says_where(app: App, data_home: Path) -> None:
    shipped_text = SHIPPED.read_text(encoding="utf-8")
    session = village_battle_over(SHIPPED)
    screen = open_village_summary(app, session)
    assert "campaign copy" in screen.wounds_button.tooltip
    key(app, pygame.K_w)
    copy = data_home / "campaigns" / "village.roster.toml"
    assert not screen.message_error
    assert screen.message.startswith(f"Wounds saved to a campaign copy of village.roster.toml at {copy}: ")
    assert "Sergeant Osric Very Hurt" in screen.message
    assert SHIPPED.read_text(encoding="utf-8") == shipped_text
    carried = load_roster(copy).characters["sergeant"].wounds
    assert carried is not None and [str(w) for w in carried.received()] == ["Scratch", "Very Hurt"]
    assert "# " in copy.read_text(encoding="utf-8")  # the shipped roster's comments came along
    key(app, pygame.K_w)
    assert screen.message.startswith(f"Wounds saved to the campaign copy of village.roster.toml at {copy}: ")


def test_new_battle_offers_the_campaign_copy_as_the_maps_roster(app: App, data_home: Path) -> None:
    copy = data_home / "campaigns" / "village.roster.toml"
    copy.parent.mkdir(parents=True)
    copy.write_text(SHIPPED.read_text(encoding="utf-8").replace('name = "Sergeant"\n', 'name = "Old Sergeant"\n'))
    assert campaign_roster(SHIPPED) == copy
    screen = NewBattleScreen(app.ui, lambda setup: None)
    screen.maps = [VILLAGE]
    screen.list.set_items(["village"])
    screen.list.select(0)
    screen.on_resize(app.size)
    assert screen.setup().roster_path == copy
    assert screen.roster_reset.text == "As shipped"
    # the roster as shipped is one click away, and back
    screen._reset_roster()
    assert screen.setup().roster_path is None and screen.roster_reset.text == "Your copy"
    screen._reset_roster()
    assert screen.setup().roster_path == copy
    started = new_session(VILLAGE, screen.setup().roster_path, seed=1, autosave=False)
    assert started.setup_data["roster_file"] == str(copy.resolve())
    assert any(f.character.name == "Old Sergeant" for f in started.battle.setup.figures)


def test_a_roster_outside_the_game_folder_is_written_in_place(tmp_path: Path) -> None:
    """The GM's own roster file is the GM's: no campaign copy stands in for it."""
    own = tmp_path / "village.roster.toml"
    own.write_text(SHIPPED.read_text(encoding="utf-8"))
    assert campaign_roster(own) is None


FOREST = MAPS_DIR / "forest_road.tmx"
FOREST_ROSTER = MAPS_DIR / "forest_road.roster.toml"


def new_battle_on(app: App, map_path: Path) -> NewBattleScreen:
    """New battle over the title screen with ``map_path`` chosen in its list."""
    screen = NewBattleScreen(app.ui, app.start_battle)
    app.push(screen)
    app.pump()
    screen.list.select(screen.maps.index(map_path))
    app.pump()
    return screen


def test_edit_roster_from_new_battle_saves_a_copy_and_says_where(app: App, data_home: Path) -> None:
    """The shipped files stay byte for byte as shipped after Edit roster → edit → Save; the edits go to a
    copy in the data folder, a dialog names it, and New battle then plays that copy."""
    before = folder_digest(MAPS_DIR)
    screen = new_battle_on(app, FOREST)
    key(app, pygame.K_e)
    editor = app.top
    assert isinstance(editor, RosterEditor) and editor.path == FOREST_ROSTER and editor.shipped
    copy = data_home / "campaigns" / "forest_road.roster.toml"
    assert str(copy) in editor.buttons["save"].tooltip and str(copy) in editor.status
    assert any("(the game's own)" in str(item[0]) for item in editor.frame.texts)
    strength = editor.current.get("strength", "Fair") if editor.current else None
    click(app, editor.buttons["attr.strength.+"].rect.center)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    told = app.top
    assert isinstance(told, MessageDialog) and not told.error
    assert str(copy) in told.message and "never changes" in told.message
    assert folder_digest(MAPS_DIR) == before
    assert copy.is_file() and editor.path == copy and not editor.dirty
    assert any("(your campaign copy)" in str(item[0]) for item in editor.frame.texts)
    assert "#" in copy.read_text(encoding="utf-8").splitlines()[0]  # the shipped roster's comments came along
    edited = read_roster_data(copy)["characters"][editor.selected]
    assert edited.get("strength") != strength
    key(app, pygame.K_RETURN)  # the dialog
    key(app, pygame.K_ESCAPE)  # the editor
    assert app.top is screen
    assert screen.setup().roster_path == copy and screen.campaign_in_use
    key(app, pygame.K_e)  # editing again edits the copy: no second question, no new dialog
    again = app.top
    assert isinstance(again, RosterEditor) and again.path == copy and not again.shipped
    click(app, again.buttons["attr.strength.-"].rect.center)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert app.top is again and not again.dirty
    assert folder_digest(MAPS_DIR) == before


def test_saving_a_shipped_roster_over_an_existing_copy_asks_first(app: App, data_home: Path) -> None:
    copy = data_home / "campaigns" / "forest_road.roster.toml"
    copy.parent.mkdir(parents=True)
    copy.write_text(FOREST_ROSTER.read_text(encoding="utf-8") + "\n# my campaign\n", encoding="utf-8")
    kept = copy.read_bytes()
    before = folder_digest(MAPS_DIR)
    app.apply(edit_roster(app.ui, FOREST_ROSTER))
    app.pump()
    editor = app.top
    assert isinstance(editor, RosterEditor)
    click(app, editor.buttons["attr.strength.+"].rect.center)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    question = app.top
    assert isinstance(question, MessageDialog) and str(copy) in question.message
    click(app, question.buttons[0].rect.center)  # Cancel
    assert copy.read_bytes() == kept and editor.dirty
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    question = app.top
    assert isinstance(question, MessageDialog)
    click(app, question.buttons[1].rect.center)  # Replace
    assert copy.read_bytes() != kept and not editor.dirty and editor.path == copy
    assert folder_digest(MAPS_DIR) == before


def test_a_write_into_the_games_own_folder_is_refused() -> None:
    """Below every screen: the roster writer refuses a file of the game's folder and names the copy."""
    before = FOREST_ROSTER.read_bytes()
    data = read_roster_data(FOREST_ROSTER)
    with pytest.raises(RosterError, match="one of the game's own files") as refused:
        save_roster(FOREST_ROSTER, data)
    assert str(campaign_copy_of(FOREST_ROSTER)) in str(refused.value)
    key_name = next(iter(data["characters"]))
    with pytest.raises(RosterError, match="one of the game's own files"):
        save_carried_wounds(FOREST_ROSTER, {key_name: Wounds().record(WoundLevel.HURT)[0]})
    assert FOREST_ROSTER.read_bytes() == before


def wounded_village_battle() -> tuple[Session, dict[str, list[str]]]:
    """The village battle over, the sergeant Very Hurt (and a Scratch), one brigand Hurt and the other — they
    share the roster's ``brigand`` — Incapacitated; with each wounded figure's wounds by name."""
    session = village_battle_over(SHIPPED)
    brigands = [f for f in session.battle.figures.values() if f.character.key == "brigand"]
    assert len(brigands) == 2
    brigands[0].wounds = Wounds().record(WoundLevel.HURT)[0]
    brigands[1].wounds = Wounds().record(WoundLevel.INCAPACITATED)[0]
    brigands[1].out = True
    wounded = {
        f.name: [str(w) for w in f.wounds.received()]
        for f in session.battle.figures.values()
        if list(f.wounds.received())
    }
    assert len(wounded) == 3
    return session, wounded


def test_the_saved_wounds_message_shows_whole_on_hover(app: App, data_home: Path) -> None:
    """A message too long for its place between the buttons ends with a hint, and hovering shows it whole."""
    session, _ = wounded_village_battle()
    screen = open_village_summary(app, session)
    key(app, pygame.K_w)
    lines, cut = screen.message_lines()
    assert cut and lines[-1].endswith(screen.MORE)
    move(app, screen.message_rect.center)
    app.tick(1.0)
    assert screen.tooltip.shown and screen.tooltip.text == screen.message
    assert str(data_home / "campaigns" / "village.roster.toml") in screen.tooltip.text


def test_saved_wounds_come_back_in_the_next_battle_and_deployment_shows_them(app: App, data_home: Path) -> None:
    """Battle → Save wounds → New battle with the campaign copy → deployment: every figure carries the wounds it
    was saved with (the two brigands sharing a character each their own), shown on the tokens and in the tray,
    and the one too hurt to act is out of the fight there and in the battle."""
    session, wounded = wounded_village_battle()
    summary = open_village_summary(app, session)
    key(app, pygame.K_w)
    assert not summary.message_error
    new_battle = new_battle_on(app, VILLAGE)
    assert new_battle.campaign_in_use and new_battle.setup().roster_path == data_home / "campaigns" / SHIPPED.name
    click(app, new_battle.start.rect.center)
    deploy = app.top
    assert isinstance(deploy, DeployScreen)
    carried = {p.name: [str(w) for w in p.wounds.received()] for p in deploy.pieces.values() if p.wounds}
    assert carried == wounded
    out = [p.name for p in deploy.pieces.values() if p.out]
    assert len(out) == 1 and wounded[out[0]] == ["Incapacitated"]
    assert "out of the fight" in deploy.message and out[0] in deploy.message
    tokens = {t.name: t for t in deploy.tokens()}
    assert set(wounded) <= set(tokens)  # the village's map places every figure
    for name in wounded:
        assert tokens[name].wound_level > 0 and tokens[name].out == (name in out)
    assert all(t.wound_level == 0 and not t.out for n, t in tokens.items() if n not in wounded)
    piece = next(p for p in deploy.pieces.values() if p.name == out[0])
    assert "starts out of the fight" in deploy.wounds_words(piece)
    click(app, deploy.auto_button.rect.center)
    click(app, deploy.start_button.rect.center)
    battle = app.top.battle  # type: ignore[attr-defined]
    started = {
        f.name: [str(w) for w in f.wounds.received()] for f in battle.figures.values() if list(f.wounds.received())
    }
    assert started == wounded
    assert [f.name for f in battle.figures.values() if f.out] == out
