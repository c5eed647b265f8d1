"""Nothing lost: the autosave follows every decision; quitting (menu or window) keeps it; Continue resumes the
battle last on screen, with the camera on the figure whose turn it is."""

from __future__ import annotations

import json
from pathlib import Path

import pygame

from game.engine import actions as act
from game.engine.battle import Seat, legal_actions
from game.session import new_session
from game.ui.app import App
from game.ui.battle.screen import BattleScreen
from game.ui.dialogs import FileChooser
from game.ui.screens import EscapeMenu, TitleScreen
from tests.ui.conftest import click, key
from tests.ui.test_app import start_default_battle

ROOT = Path(__file__).resolve().parents[2]


def _hold_once(screen: BattleScreen) -> int:
    """One mid-phase decision (a hold in the movement phase); the log's length after it."""
    d = legal_actions(screen.session.battle)
    assert d is not None and d.reason == "move"
    assert screen.send(act.Hold(d.figure or ""), Seat.of_side(d.side))  # whoever's turn it is
    return len(screen.session.battle.log)


def _saved_actions(app: App) -> int:
    return len(json.loads(app.ui.autosave_path().read_text())["actions"])


def test_quit_game_in_the_menu_leaves_the_autosave_at_the_last_decision(app: App) -> None:
    screen = start_default_battle(app)
    assert isinstance(screen, BattleScreen)
    n = _hold_once(screen)
    key(app, pygame.K_ESCAPE)
    menu = app.top
    assert isinstance(menu, EscapeMenu)
    click(app, next(b for b in menu.column.buttons if b.text == "Quit game").rect.center)
    assert not app.running
    assert _saved_actions(app) == n


def test_the_window_close_button_leaves_the_autosave_at_the_last_decision(app: App) -> None:
    screen = start_default_battle(app)
    assert isinstance(screen, BattleScreen)
    n = _hold_once(screen)
    screen.session.autosave.unlink()  # as if the write after the decision had failed: closing writes it again
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.pump()
    assert not app.running
    assert _saved_actions(app) == n


def test_a_mid_phase_decision_is_in_the_autosave_at_once(app: App) -> None:
    screen = start_default_battle(app)
    assert isinstance(screen, BattleScreen)
    before = _saved_actions(app)
    n = _hold_once(screen)
    assert n == before + 1 and _saved_actions(app) == n


def test_continue_resumes_the_battle_last_on_screen_not_an_older_autosave(app: App, tmp_path: Path) -> None:
    """Play battle A (autosaved), load a save of battle B and leave by quitting: Continue opens B."""
    start_default_battle(app)
    saved = tmp_path / "wyrm.json"
    other = new_session(ROOT / "maps" / "wyrm_hollow.tmx", seed=11, autosave=False)
    other.save(saved)
    key(app, pygame.K_o, pygame.KMOD_CTRL)
    chooser = app.top
    assert isinstance(chooser, FileChooser)
    app.apply(chooser.on_choose(saved))
    assert isinstance(app.top, BattleScreen) and "wyrm_hollow" in str(app.top.session.setup_data["map"])
    assert "wyrm_hollow" in str(json.loads(app.ui.autosave_path().read_text())["setup"]["map"])
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.pump()

    fresh = App(config=tmp_path / "config2", maps_dir=tmp_path / "maps")
    fresh.pump()
    title = fresh.top
    assert isinstance(title, TitleScreen)
    cont = next(b for b in title.column.buttons if b.text == "Continue")
    click(fresh, cont.rect.center)
    top = next(s for s in fresh.stack if isinstance(s, BattleScreen))
    assert "wyrm_hollow" in str(top.session.setup_data["map"])
    fresh.close()


def test_continue_puts_the_camera_on_the_figure_whose_turn_it_is(app: App, tmp_path: Path) -> None:
    """On a map larger than the window, the deciding figure is on screen once the battle is continued."""
    session = new_session(
        ROOT / "maps" / "village.tmx", seed=4, controllers={"blue": "human", "red": "human"}, autosave=True
    )
    d = legal_actions(session.battle)
    assert d is not None
    title = app.top
    assert isinstance(title, TitleScreen)
    title.on_enter(app.size)
    app.apply(title._continue())
    app.pump()
    key(app, pygame.K_RETURN)  # hotseat: lift the curtain of the side to decide
    for _ in range(3):
        app.pump()
    screen = app.top
    assert isinstance(screen, BattleScreen)
    d = legal_actions(screen.battle)
    assert d is not None and d.figure is not None
    cam = screen.board.camera
    x, y, w, h = cam.view
    sx, sy = cam.hex_to_screen(screen.battle.figure(d.figure).hex)
    assert x <= sx <= x + w and y <= sy <= y + h
