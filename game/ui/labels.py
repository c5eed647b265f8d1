"""Labels laid out once and drawn every frame: a box that lays itself out (a GM edit dialog, a part of the
roster editor) adds its labels with ``text`` while it lays out and paints them all with ``draw_texts``."""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.widgets import TextCache

TextItem = tuple[str, tuple[int, int], int, tuple[int, int, int], bool, str]
"""A label laid out for drawing: text, position, size, colour, bold, anchor."""


class Labels:
    """The labels of a box, kept in ``texts`` (the box empties the list when it lays itself out again)."""

    texts: list[TextItem]

    def text(
        self,
        value: str,
        pos: tuple[int, int],
        size: int = 14,
        colour: tuple[int, int, int] = theme.TEXT,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> None:
        """A label of the box, its ``anchor`` (a pygame.Rect attribute name) at ``pos``."""
        self.texts.append((value, pos, size, colour, bold, anchor))

    def draw_texts(self, surface: pygame.Surface, text: TextCache) -> None:
        """Paint the labels."""
        for value, pos, size, colour, bold, anchor in self.texts:
            text.blit(surface, value, pos, size, colour, bold, anchor)
