"""The battle screen's frame around the board: the status bar (the last message, an error in red, or the
keys hint, fitted to the bar) and the cache that paints the fixed regions — top bar and tracker, the sheet
and log column, the status bar — into one opaque surface, each region again only when what it shows
changed, then blits them (they never overlap the board)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pygame

from game.ui import theme
from game.ui.battle.common import UiHost

KEYS_HINT = (
    "drag / WASD pan · wheel zoom · Q/E facing · H hold · Space stay · Ctrl+S save · Ctrl+Z undo · Esc menu · F1 help"
)
Region = tuple[str, pygame.Rect, Any, Callable[[pygame.Surface], None]]
"""A region of the frame: its name, where it is, what it shows (a key), and how to paint it."""


class StatusHost(UiHost, Protocol):
    """The battle screen as the status bar sees it: the message and whether it is an error."""

    @property
    def status(self) -> str: ...
    @property
    def status_error(self) -> bool: ...


class StatusBar:
    """The line at the foot of the screen."""

    def __init__(self, screen: StatusHost) -> None:
        self.screen = screen

    def line(self, room: int) -> str:
        """The bar's text for ``room`` pixels: a message cut with "…" (hovering shows it whole), or the keys
        hint with its last items left out until it fits."""
        text = self.screen.ui.text
        status = self.screen.status
        if status:
            return text.fit(status, 13, room)
        items = KEYS_HINT.split(" · ")
        while len(items) > 1 and text.width(" · ".join(items), 13) > room:
            items.pop()
        return " · ".join(items)

    def key(self, width: int) -> tuple[Any, ...]:
        """What the bar shows."""
        sc = self.screen
        return (sc.status, sc.status_error, width, sc.ui.settings.ui_scale)

    def paint(self, surf: pygame.Surface, bar: pygame.Rect) -> None:
        """The bar with its line."""
        sc = self.screen
        s = sc.ui.s
        pygame.draw.rect(surf, theme.PANEL, bar)
        pygame.draw.line(surf, theme.BORDER, bar.topleft, bar.topright)
        colour = theme.DANGER if sc.status_error else theme.TEXT_MUTED
        line = self.line(bar.width - s(20))
        sc.ui.text.blit(surf, line, (bar.x + s(10), bar.centery), 13, colour, anchor="midleft")


class Chrome:
    """One cached opaque surface for the frame's regions."""

    def __init__(self) -> None:
        self._surface: pygame.Surface | None = None
        self._keys: dict[str, Any] = {}

    def forget(self) -> None:
        """Paint every region again next time (the layout or the settings changed)."""
        self._keys.clear()

    def draw(self, surface: pygame.Surface, regions: Sequence[Region]) -> None:
        """Repaint the regions whose key changed, then blit every region."""
        if self._surface is None or self._surface.get_size() != surface.get_size():
            self._surface = pygame.Surface(surface.get_size(), 0, surface)
            self._keys.clear()
        frame = self._surface
        for name, _, key, paint in regions:
            if self._keys.get(name) != key:
                self._keys[name] = key
                paint(frame)
        surface.blits([(frame, rect, rect) for _, rect, _, _ in regions], doreturn=False)
