"""The file chooser takes a typed or pasted path: a text field where Enter opens the file or folder named."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.ui.app import App
from game.ui.dialogs import FileChooser
from game.ui.screen import Transition
from tests.ui.conftest import key


def _chooser(app: App, folder: Path) -> tuple[FileChooser, list[Path]]:
    chosen: list[Path] = []

    def on_choose(path: Path) -> Transition | None:
        chosen.append(path)
        return None

    chooser = FileChooser(app.ui, "Load a battle", folder, (".json",), on_choose)
    app.push(chooser)
    app.pump()
    return chooser, chosen


def _type(app: App, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.pump()


def test_a_typed_path_opens_that_file(app: App, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "battle.json").write_text("{}")
    chooser, chosen = _chooser(app, tmp_path)
    _type(app, str(elsewhere / "battle.json"))
    assert chooser.path_field.value == str(elsewhere / "battle.json")
    key(app, pygame.K_RETURN)
    assert chosen == [elsewhere / "battle.json"] and chooser not in app.stack


def test_a_pasted_path_opens_that_file(app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    target = tmp_path / "sub" / "save.json"
    target.write_text("{}")
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: f"{target}\n")
    chooser, chosen = _chooser(app, tmp_path)
    key(app, pygame.K_v, pygame.KMOD_LCTRL)
    assert chooser.path_field.value == str(target)
    key(app, pygame.K_RETURN)
    assert chosen == [target]


def test_a_typed_folder_is_listed_and_a_relative_path_is_taken_from_the_folder_shown(app: App, tmp_path: Path) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "one.json").write_text("{}")
    chooser, chosen = _chooser(app, tmp_path)
    _type(app, "saves")
    key(app, pygame.K_RETURN)
    assert chooser.folder == tmp_path / "saves" and chooser.path_field.value == "" and not chosen
    _type(app, "one.json")
    key(app, pygame.K_RETURN)
    assert chosen == [tmp_path / "saves" / "one.json"]


def test_a_path_that_is_not_there_is_said_and_the_chooser_stays(app: App, tmp_path: Path) -> None:
    chooser, chosen = _chooser(app, tmp_path)
    _type(app, "nowhere.json")
    key(app, pygame.K_RETURN)
    assert not chosen and app.top is chooser
    assert chooser.problem == "No file or folder 'nowhere.json': check the path"
    key(app, pygame.K_BACKSPACE)  # editing the field, not going up a folder
    assert chooser.path_field.value == "nowhere.jso" and chooser.folder == tmp_path
