"""Every text field of the game edits as any text field does (``game.ui.text_field``): Ctrl+A then typing
replaces the text, Backspace / Delete remove the selection, Shift+arrows select, Home / End, the clipboard, and
a click places the caret. Keys are posted as a real keyboard sends them (the key press, then its typed text):
the press of a typed letter must not undo the selection before its text arrives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from game.session import MAPS_DIR
from game.ui.app import App
from game.ui.dialogs import FileChooser
from game.ui.join_screen import JoinScreen
from game.ui.pickers import PickDialog, TextPrompt
from game.ui.roster_editor import edit_roster
from game.ui.text_field import TextEdit, TextField, clipboard_text, put_clipboard_text
from tests.ui.conftest import click, key, type_keys
from tests.ui.test_gm_panel import open_as_referee

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


def select_all_and_retype(app: App, field: TextField, text: str) -> None:
    """Ctrl+A, then the new text typed key by key."""
    key(app, pygame.K_a, CTRL)
    assert field.all_selected
    type_keys(app, text)


# --- the editing itself ------------------------------------------------------------------------------
def test_typing_replaces_the_selection_and_deleting_removes_it() -> None:
    edit = TextEdit("Sergeant Bors", max_length=40)
    edit.select(0, 8)
    assert edit.selected_text == "Sergeant"
    assert edit.insert("Sir")
    assert (edit.value, edit.caret, edit.selection) == ("Sir Bors", 3, (3, 3))
    edit.select(4, 8)
    assert edit.delete(1) and edit.value == "Sir "
    edit.select_all()
    assert edit.delete(-1) and edit.value == "" and edit.caret == 0
    assert not edit.delete(-1)  # nothing before the caret


def test_backspace_and_delete_take_one_character_or_with_ctrl_a_word() -> None:
    edit = TextEdit("the old mill", max_length=40)
    edit.move_to(7)  # after "old"
    edit.delete(-1)
    assert edit.value == "the ol mill" and edit.caret == 6
    edit.delete(1)
    assert edit.value == "the olmill"
    edit.value = "the old mill"
    edit.delete(-1, word=True)
    assert edit.value == "the old " and edit.caret == 8
    edit.move_to(0)
    edit.delete(1, word=True)
    assert edit.value == " old "


def test_arrows_move_and_with_shift_select() -> None:
    edit = TextEdit("abc def", max_length=40)
    edit.move_to(0)
    edit.step(1, extend=True)
    edit.step(1, extend=True)
    assert edit.selected_text == "ab"
    edit.step(1)  # without Shift a selection collapses to its end
    assert edit.selection == (2, 2)
    edit.step(1, word=True)
    assert edit.caret == 3
    edit.step(1, word=True, extend=True)
    assert edit.selected_text == " def"
    edit.step(-1)
    assert edit.caret == 3 and edit.selected_text == ""
    edit.move_to(7, extend=True)
    edit.move_to(0, extend=True)  # the selection keeps its start and grows the other way
    assert edit.selected_text == "abc"


def test_a_field_never_grows_past_its_length() -> None:
    edit = TextEdit("abcd", max_length=6)
    edit.move_to(2)
    edit.insert("XYZW")
    assert edit.value == "abXYcd" and edit.caret == 4
    edit.select(0, 2)
    edit.insert("123")  # the two selected characters leave room for two
    assert edit.value == "12XYcd"


# --- each screen with a text field -------------------------------------------------------------------
def test_the_join_form_replaces_a_selected_address_as_typed(app: App) -> None:
    join = JoinScreen(app.ui)
    app.push(join)
    app.pump()
    field = join.fields["address"]
    select_all_and_retype(app, field, "10.0.0.7")
    assert field.value == "10.0.0.7"
    key(app, pygame.K_HOME)
    key(app, pygame.K_RIGHT, SHIFT)
    key(app, pygame.K_RIGHT, SHIFT)
    type_keys(app, "99")
    assert field.value == "99.0.0.7"
    key(app, pygame.K_END)
    key(app, pygame.K_LEFT, CTRL | SHIFT)
    key(app, pygame.K_BACKSPACE)
    assert field.value == "99.0.0."
    key(app, pygame.K_TAB)
    assert join.focus == "name"
    select_all_and_retype(app, join.fields["name"], "Mags")
    assert join.fields["name"].value == "Mags" and field.value == "99.0.0."


def test_the_join_forms_password_is_never_copied(app: App) -> None:
    join = JoinScreen(app.ui)
    app.push(join)
    app.pump()
    put_clipboard_text("before")
    click(app, join.fields["password"].rect.center)
    assert join.focus == "password"
    type_keys(app, "secret")
    key(app, pygame.K_a, CTRL)
    key(app, pygame.K_c, CTRL)
    assert clipboard_text() == "before"
    key(app, pygame.K_x, CTRL)
    assert clipboard_text() == "before" and join.fields["password"].value == "secret"
    type_keys(app, "other")
    assert join.fields["password"].value == "other"


def test_the_roster_editors_prompt_and_picker_type_over_a_selection(app: App, maps_dir: Path) -> None:
    roster = maps_dir / "village.roster.toml"
    shutil.copy(MAPS_DIR / "village.roster.toml", roster)
    app.apply(edit_roster(app.ui, roster))
    app.pump()
    key(app, pygame.K_F2)  # rename the selected character
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    old = prompt.field.value
    type_keys(app, "!")
    assert prompt.field.value == old + "!"  # the caret starts at the end
    select_all_and_retype(app, prompt.field, "Sir Bors")
    assert prompt.field.value == "Sir Bors"
    key(app, pygame.K_a, CTRL)
    key(app, pygame.K_DELETE)
    assert prompt.field.value == ""
    key(app, pygame.K_ESCAPE)
    ed = app.top
    click(app, ed.buttons["skill.add"].rect.center)  # type: ignore[attr-defined]
    picker = app.top
    assert isinstance(picker, PickDialog)
    type_keys(app, "ax")
    select_all_and_retype(app, picker.field, "bow")
    assert picker.field.value == "bow" and picker.shown[0] == "Bow"


def test_the_file_choosers_path_takes_the_editing_keys(app: App, tmp_path: Path) -> None:
    chooser = FileChooser(app.ui, "Load a battle", tmp_path, (".json",), lambda p: None)
    app.push(chooser)
    app.pump()
    type_keys(app, "/nowhere/old.json")
    key(app, pygame.K_LEFT, CTRL | SHIFT)  # "json"
    type_keys(app, "toml")
    assert chooser.path_field.value == "/nowhere/old.toml"
    key(app, pygame.K_HOME)
    key(app, pygame.K_BACKSPACE)  # at the start of the path: no parent folder, no change
    assert chooser.folder == tmp_path and chooser.path_field.value == "/nowhere/old.toml"
    select_all_and_retype(app, chooser.path_field, str(tmp_path))
    assert chooser.path_field.value == str(tmp_path)


def test_the_gm_panels_reason_is_a_text_field(app: App) -> None:
    _screen, panel = open_as_referee(app)
    type_keys(app, "hill")
    assert panel.reason == "hill"
    select_all_and_retype(app, panel.reason_field, "mud")
    assert panel.reason == "mud"
    key(app, pygame.K_LEFT)
    type_keys(app, "x")
    assert panel.reason == "muxd"


# --- the clipboard and the mouse -----------------------------------------------------------------------
def test_copy_cut_and_paste_go_through_the_clipboard(app: App) -> None:
    join = JoinScreen(app.ui, address="host.example:7777")
    app.push(join)
    app.pump()
    field = join.fields["address"]
    key(app, pygame.K_HOME)
    for _ in range(4):
        key(app, pygame.K_RIGHT, SHIFT)
    key(app, pygame.K_c, CTRL)
    assert clipboard_text() == "host" and field.value == "host.example:7777"
    key(app, pygame.K_END)
    key(app, pygame.K_LEFT, CTRL | SHIFT)
    key(app, pygame.K_x, CTRL)
    assert clipboard_text() == "7777" and field.value == "host.example:"
    put_clipboard_text("7000\n")
    key(app, pygame.K_v, CTRL)
    assert field.value == "host.example:7000"


@pytest.mark.parametrize("fraction", [0.0, 0.5, 1.0])
def test_a_click_places_the_caret_where_it_was_clicked(app: App, fraction: float) -> None:
    join = JoinScreen(app.ui, address="abcdefgh")
    app.push(join)
    app.pump()
    field = join.fields["address"]
    text = app.ui.text
    index = round(fraction * len(field.value))
    x = field.rect.x + 8 + text.width(field.value[:index], field.size)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, field.rect.centery), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, field.rect.centery), button=1))
    app.pump()
    assert field.edit.caret == index and field.edit.selection == (index, index)
    type_keys(app, "_")
    assert field.value == "abcdefgh"[:index] + "_" + "abcdefgh"[index:]


def test_a_drag_over_the_text_selects_it(app: App) -> None:
    join = JoinScreen(app.ui, address="abcdefgh")
    app.push(join)
    app.pump()
    field = join.fields["address"]
    text = app.ui.text
    y = field.rect.centery
    start = field.rect.x + 8 + text.width("ab", field.size)
    end = field.rect.x + 8 + text.width("abcde", field.size)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(start, y), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(end, y), rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(end, y), button=1))
    app.pump()
    assert field.edit.selected_text == "cde"
    type_keys(app, "X")
    assert field.value == "abXfgh"
