"""The one button dispatch of the screens: ``press`` finds the button an event clicked, ``transition_of``
keeps its result only when it changes the screen."""

from __future__ import annotations

import pygame

from game.ui.screen import Pop, press, transition_of
from game.ui.widgets import Button


def click_events(pos: tuple[int, int]) -> list[pygame.event.Event]:
    return [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos),
        pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos),
    ]


def test_press_returns_the_clicked_button_with_its_result() -> None:
    calls: list[str] = []
    ok = Button("OK", lambda: calls.append("ok") or Pop(), pygame.Rect(0, 0, 50, 20))
    redraw = Button("Redraw", lambda: calls.append("redraw") or True, pygame.Rect(60, 0, 50, 20))
    down, up = click_events((70, 10))
    assert press([ok, redraw], down) is None
    hit = press([ok, redraw], up)
    assert hit is redraw and calls == ["redraw"]
    assert transition_of(hit.result) is None  # it only changed the screen
    down, up = click_events((10, 10))
    press([ok, redraw], down)
    hit = press([ok, redraw], up)
    assert hit is ok and isinstance(transition_of(hit.result), Pop)


def test_a_click_outside_every_button_presses_none() -> None:
    b = Button("OK", Pop, pygame.Rect(0, 0, 50, 20))
    for e in click_events((200, 200)):
        assert press([b], e) is None
