"""The Yield dialog says what yielding does, as the engine rules it: with two sides it names the side that
wins (not "the other side"), and pressing Yield makes that side the winner."""

from __future__ import annotations

import pygame

from game.ui.app import App
from game.ui.dialogs import MessageDialog
from game.ui.screen import Push
from tests.ui.conftest import key
from tests.ui.test_battle_screen import all_human, lift_curtain, open_battle


def test_yielding_names_the_side_that_wins(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None
    battle = screen.battle
    (other,) = [s for s in battle.sides if s != d.side]
    shown = screen.game_menu.yield_dialog()
    assert isinstance(shown, Push) and isinstance(shown.screen, MessageDialog)
    dialog = shown.screen
    assert dialog.message == f"{battle.sides[d.side].name} gives up; {battle.sides[other].name} wins."
    app.apply(shown)
    key(app, pygame.K_RETURN)  # Yield is the default button
    assert battle.over and battle.winner == other
