"""A crash inside the window is not the end of the battle: an unexpected exception in a screen's input, update
or draw is caught at the app loop, a crash report is written to the data folder, the autosave is kept, and
the player can go back to the title or continue from the autosave."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.engine.battle import IllegalAction
from game.session import new_session
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.crash import game_version
from game.ui.dialogs import MessageDialog
from game.ui.screen import Screen, Transition
from game.ui.screens import TitleScreen
from tests.ui.conftest import key


class Failing(Screen):
    """A screen with a bug in one of its methods."""

    opaque = False

    def __init__(self, app: App, where: str, exc: Exception) -> None:
        super().__init__(app.ui)
        self.where = where
        self.exc = exc

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        if self.where == "input" and event.type == pygame.KEYDOWN:
            raise self.exc
        return None

    def update(self, dt: float) -> bool:
        if self.where == "update":
            raise self.exc
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if self.where == "draw":
            raise self.exc


def _battle(app: App) -> BattleScreen:
    session = new_session("maps/village.tmx", seed=5)
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    app.pump()
    return screen


@pytest.mark.parametrize("where", ["input", "update", "draw"])
def test_a_crash_writes_a_report_keeps_the_autosave_and_offers_the_way_back(app: App, home: Path, where: str) -> None:
    battle = _battle(app)
    autosave = home / "autosave.json"
    before = autosave.read_bytes()
    app.push(Failing(app, where, ZeroDivisionError("the bug")))
    key(app, pygame.K_a)
    app.pump()
    reports = sorted((home / "crashes").glob("crash-*.txt"))
    assert len(reports) == 1
    report = reports[0].read_text()
    assert "ZeroDivisionError: the bug" in report and f"game version: {game_version()}" in report
    assert '"format": "fudge-tactics-battle"' in report  # the battle's save, to replay it
    assert autosave.read_bytes() == before
    dialog = app.top
    assert isinstance(dialog, MessageDialog) and str(reports[0]) in dialog.message
    assert isinstance(app.stack[0], TitleScreen) and battle not in app.stack
    assert [label for label, _ in dialog.choices] == ["Title screen", "Continue"]
    key(app, pygame.K_RETURN)  # Continue: the battle again from the autosave
    again = [s for s in app.stack if isinstance(s, BattleScreen)]  # (under the hotseat curtain, if any)
    assert len(again) == 1 and again[0] is not battle
    assert again[0].session.battle.log == battle.session.battle.log


def test_title_screen_choice_closes_the_dialog_on_the_title(app: App, home: Path) -> None:
    _battle(app)
    app.push(Failing(app, "update", KeyError("x")))
    app.pump()
    key(app, pygame.K_ESCAPE)  # the first button: the title screen
    assert isinstance(app.top, TitleScreen) and len(app.stack) == 1


def test_the_games_own_error_is_shown_over_the_battle_without_a_report(app: App, home: Path) -> None:
    battle = _battle(app)
    app.push(Failing(app, "input", IllegalAction("That figure cannot move there.")))
    key(app, pygame.K_a)
    assert isinstance(app.top, MessageDialog) and "cannot move there" in app.top.message
    assert battle in app.stack and not (home / "crashes").exists()


def test_a_save_that_fails_on_replay_leaves_the_battle_on_screen_untouched(
    app: App, home: Path, tmp_path: Path
) -> None:
    import json

    from game.ui.dialogs import FileChooser
    from game.ui.screen import Push

    battle = _battle(app)
    session, log = battle.session, list(battle.session.battle.log)
    broken = json.loads((home / "autosave.json").read_text())
    broken["actions"].append({"kind": "move", "figure": "nobody"})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    chooser = battle.game_menu.load_chooser()
    assert isinstance(chooser, Push) and isinstance(chooser.screen, FileChooser)
    answer = chooser.screen.on_choose(bad)
    assert isinstance(answer, Push) and isinstance(answer.screen, MessageDialog)
    assert str(bad) in answer.screen.message and "does not replay" in answer.screen.message
    assert battle.session is session and list(session.battle.log) == log
