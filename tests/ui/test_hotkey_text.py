"""A hotkey that opens a screen is not typed into it: "J" on the title opens Join a table with the address
as it was (it read "127.0.0.1j")."""

from __future__ import annotations

import pygame

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
