"""The GM's seat at the battle screen: the way into the GM's panel (G, or the panel's GM button), behind the
curtain unless the GM sits at the screen now (the screen's ``gm_seated``), and the panel's GM button.

The GM's panel itself is ``game.ui.gm_panel.GMPanel``; in hotseat the curtain first names the GM, so the
players never see the GM's controls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pygame

from game.engine.battle import Decision
from game.ui import theme
from game.ui.battle.common import GMScreen
from game.ui.battle.curtain import CurtainScreen
from game.ui.gm_panel import GMPanel
from game.ui.screen import Push, Transition
from game.ui.widgets import Button


class GMSeatHost(GMScreen, Protocol):
    """The battle screen as the GM's seat sees it: the screen the GM's panel opens over (``GMScreen``), whether
    the GM sits here now, and the status bar."""

    def gm_seated(self) -> bool: ...
    def set_status(self, text: str, error: bool = False, *, lasting: bool = False) -> None: ...


class GMSeat:
    """Who holds the GM's seat, and the panel's door."""

    def __init__(self, screen: GMSeatHost) -> None:
        self.screen = screen
        self.model = screen.model

    def open(self, on_close: Callable[[], Transition | None]) -> Transition | None:
        """G: the GM's panel, only in a battle with a GM seat; behind the curtain unless the GM sits here (the
        panel is the GM's hand) or the player's setting asks for no curtain; ``on_close`` hands the seat back
        when the panel closes."""
        battle = self.model.battle
        if battle.setup.gm is None:
            self.screen.set_status("This battle has no GM seat; mark a player as GM in the battle setup.", error=True)
            return None
        if battle.over:
            self.screen.set_status("The battle is over.", error=True)
            return None
        panel = GMPanel(self.screen.ui, self.screen, on_close)
        if self.screen.gm_seated() or self.screen.ui.settings.hand_off == "never":
            return Push(panel)
        return Push(CurtainScreen(self.screen.ui, "the GM", theme.ACCENT, then=lambda: Push(panel)))

    def button(self, d: Decision, rect: pygame.Rect, open_panel: Callable[[], object]) -> list[Button]:
        """The GM button in the decision panel's top right corner (not while declaring: the row is full)."""
        if self.model.battle.setup.gm is None or d.reason == "declare":
            return []
        s = self.screen.ui.s
        return [
            Button(
                "GM (G)",
                open_panel,
                pygame.Rect(rect.right - s(92), rect.y + s(8), s(80), s(30)),
                size=14,
            )
        ]
