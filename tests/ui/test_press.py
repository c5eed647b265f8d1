"""The one button dispatch of the screens: ``press`` finds the button an event clicked, ``transition_of``
keeps its result only when it changes the screen."""

from __future__ import annotations

import pygame

from game.ui.screen import Pop, press, transition_of
from game.ui.widgets import Button, cycled


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


def test_a_button_that_steps_round_its_values_goes_on_from_the_last_to_the_first_and_back() -> None:
    roles = [None, "pc", "major_npc", "npc"]
    assert cycled(roles, None) == "pc"
    assert cycled(roles, "npc") is None  # round the end
    assert cycled(roles, None, -1) == "npc"  # and back
    assert cycled(roles, "pc", 2) == "npc"
    # a value the file holds that is not among the choices starts over from the first
    assert cycled(roles, "villain") is None
    assert cycled(("full", "torso"), "plate") == "full"
