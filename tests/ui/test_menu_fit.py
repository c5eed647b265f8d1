"""The battle's Esc menu fits the window: from 1024×640 to 1920×1080 and at 100 %, 125 % and 150 % UI scale,
every button lies inside the window, under the menu's heading and clear of the others."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from game.ui.app import App
from game.ui.screen import Pop
from game.ui.screens import EscapeMenu
from game.ui.widgets import Button

SIZES = [(1024, 640), (1280, 720), (1920, 1080)]
SCALES = [1.0, 1.25, 1.5]


def scaled(app: App, size: tuple[int, int], scale: float) -> None:
    """Set the UI scale and lay the top screen out for a window of this size."""
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    app.top.on_resize(size)


def no_overlaps(rects: list[pygame.Rect]) -> bool:
    return all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", SIZES)
def test_the_battle_menu_fits_the_window(app: App, size: tuple[int, int], scale: float) -> None:
    """The Esc menu of a battle (Save, Load and Yield besides the usual five) stays inside the window."""
    extra = [Button(name, Pop) for name in ("Save (Ctrl+S)", "Load (Ctrl+O)", "Yield the battle…")]
    app.push(EscapeMenu(app.ui, app.to_title, extra=extra))
    scaled(app, size, scale)
    menu = app.top
    assert isinstance(menu, EscapeMenu)
    rects = [b.rect for b in menu.column.buttons]
    assert len(rects) == 8
    assert pygame.Rect((0, 0), size).contains(menu.rect)
    assert all(menu.rect.contains(r) for r in rects)
    assert no_overlaps(rects)
    assert rects[0].top >= menu.rect.top + app.ui.s(16) + app.ui.text.line_height(22, True)  # under "Menu"
    assert all(r.height >= app.ui.text.line_height(18, True) for r in rects)
