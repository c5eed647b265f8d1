"""While the log still plays a computer's earlier decisions out, the "… (computer) is deciding" panel names
the same side as the top bar, never the side the engine already waits for further on."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame
import pytest

from game.engine.battle import Decision
from game.ui.app import App
from tests.ui.test_battle_screen import all_human, open_battle


def test_the_thinking_panel_names_the_side_the_top_bar_names(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    screen = open_battle(app, controllers={side: "tactical" for side in all_human()})
    app.ui.settings = replace(app.ui.settings, animation_speed=1.0)
    original = app.ui.text.blit

    def thinking_line(d: Decision) -> list[str]:
        said: list[str] = []

        def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
            said.append(text)
            return original(surface, text, *args, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(app.ui.text, "blit", record)
            screen._draw_thinking(pygame.Surface(screen.size), d)
        return said

    checked = 0
    for _ in range(400):
        app.tick(0.05)
        shown, d = screen.model.shown().decision, screen.decision()
        if shown is None or d is None or shown.side == d.side:
            continue
        assert thinking_line(d) == [f"{screen.battle.sides[shown.side].name} (computer) is deciding…"]
        checked += 1
        if checked >= 3:
            break
    assert checked, "the log never lagged behind a change of side"
