"""In a battle with a GM seat the move panel's words keep clear of its "GM (G)" button (at 1024×640 and
125 % "final facing · C: posture" ran under it), and still say all they say without the button."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame
import pytest

from game.session import GM_REFEREE, new_session
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from tests.ui.conftest import key
from tests.ui.test_battle_screen import FIELD, all_human


@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5])
@pytest.mark.parametrize("size", [(1024, 640), (1280, 720)])
def test_move_panel_text_keeps_clear_of_the_gm_button(
    app: App, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], scale: float
) -> None:
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale, animation_speed=0.0))
    session = new_session(FIELD, seed=3, controllers=all_human(), gm=GM_REFEREE)
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    screen.on_resize(size)
    for _ in range(50):
        app.tick(0.05)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
        if screen.my_decision() is not None:
            break
    d = screen.my_decision()
    assert d is not None and d.reason == "move"
    screen.selection.hover = None
    app.pump()
    gm = next(b for b in screen.buttons if b.text == "GM (G)")
    panel = screen.panel_rect(d)
    drawn: list[tuple[str, pygame.Rect]] = []
    original = app.ui.text.blit

    def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        rect = original(surface, text, *args, **kwargs)
        drawn.append((text, rect.move(panel.topleft)))
        return rect

    monkeypatch.setattr(app.ui.text, "blit", record)
    screen.moves.paint(pygame.Surface(panel.size, pygame.SRCALPHA), d)
    assert drawn
    for text, rect in drawn:
        assert not rect.colliderect(gm.rect), text
    said = " ".join(t for t, _ in drawn)
    assert "final facing" in said and "C: posture" in said
