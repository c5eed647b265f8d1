"""After a refused action the next decision clears the status bar: the key hints come back in their muted
colour, not in the refusal's red."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ui import theme
from game.ui.app import App
from tests.ui.conftest import key
from tests.ui.test_battle_screen import all_human, lift_curtain, open_battle


def test_a_decision_after_a_refusal_brings_the_key_hints_back_unred(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None and d.reason == "move"
    screen.set_status("Wounds are edited only between rounds.", error=True)
    key(app, pygame.K_SPACE)  # the figure stays: a decision
    assert screen.battle.log, "the decision was taken"
    assert screen.status == ""
    assert not screen.status_error
    bar = pygame.Rect(0, 0, 800, 26)
    colours: list[object] = []
    original = app.ui.text.blit

    def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        colours.append(args[2] if len(args) > 2 else kwargs.get("colour"))
        return original(surface, text, *args, **kwargs)

    monkeypatch.setattr(app.ui.text, "blit", record)
    screen.status_bar.paint(pygame.Surface(bar.size), bar)
    assert colours == [theme.TEXT_MUTED]
