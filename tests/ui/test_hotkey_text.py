"""A hotkey that opens a screen is not typed into it: "J" on the title opens Join a table with the address
as it was (it read "127.0.0.1j"), and of the Join screen's fields only the one in focus shows a caret."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import theme
from game.ui.app import App
from game.ui.join_screen import JoinScreen


def press_and_type(app: App, k: int, char: str) -> None:
    """A key as SDL delivers it: the press, then its text, then the release."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=char, scancode=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=char, scancode=0))
    app.pump()


def test_the_key_that_opens_join_is_not_typed_into_its_address(app: App) -> None:
    press_and_type(app, pygame.K_j, "j")
    join = app.top
    assert isinstance(join, JoinScreen)
    assert join.fields["address"].value == "127.0.0.1"
    press_and_type(app, pygame.K_x, "x")  # later typing goes in as usual
    assert join.fields["address"].value == "127.0.0.1x"


def test_only_the_field_in_focus_shows_a_caret(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    press_and_type(app, pygame.K_j, "j")
    join = app.top
    assert isinstance(join, JoinScreen)
    borders: list[tuple[object, pygame.Rect]] = []
    original = pygame.draw.rect

    def record(surface: pygame.Surface, colour: Any, rect: Any, width: int = 0, **kw: Any) -> pygame.Rect:
        if width == 2:
            borders.append((tuple(colour), pygame.Rect(rect)))
        return original(surface, colour, rect, width, **kw)

    monkeypatch.setattr(pygame.draw, "rect", record)
    join.draw(pygame.Surface(join.size))
    lit = [r for colour, r in borders if colour == theme.ACCENT and r in [f.rect for f in join.fields.values()]]
    assert lit == [join.fields["address"].rect]
