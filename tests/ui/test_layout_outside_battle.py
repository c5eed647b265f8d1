"""The title, Settings and the after-battle screen lay out without overlap or clipping from 1024×640 at 125 %
and 150 % UI scale to 1920×1080."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.ui.app import App
from game.ui.screens import SettingsScreen, TitleScreen
from game.ui.summary_screen import BattleEnd, SummaryScreen
from tests.ui.test_summary_screen import finished_battle

SIZES = [((1024, 640), 1.25), ((1024, 640), 1.5), ((1280, 720), 1.0), ((1920, 1080), 1.0)]


def window(tmp_path: Path, size: tuple[int, int], scale: float) -> App:
    app = App(config=tmp_path / "cfg", maps_dir=tmp_path, size=size)
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))  # the text scaled too, as Settings does
    app.pump()
    return app


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_every_title_button_is_on_screen_above_the_footer(tmp_path: Path, size: tuple[int, int], scale: float) -> None:
    app = window(tmp_path, size, scale)
    title = app.top
    assert isinstance(title, TitleScreen)
    title.on_resize(app.size)
    footer_top = size[1] - app.ui.s(16) - app.ui.text.line_height(14)
    rects = [b.rect for b in title.column.buttons]
    assert all(r.top >= 0 and r.bottom <= footer_top for r in rects)
    assert all(not a.colliderect(b) for a, b in itertools.pairwise(rects))
    assert rects[0].top - app.ui.text.line_height(60) > 0  # the title above them stays on screen
    app.close()


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_settings_rows_palette_and_done_fit_the_window(tmp_path: Path, size: tuple[int, int], scale: float) -> None:
    app = window(tmp_path, size, scale)
    screen = SettingsScreen(app.ui)
    app.push(screen)
    rows = [r for r, _, _ in screen.rects]
    assert screen.rects[-1][0].bottom < screen.back.rect.top and screen.back.rect.bottom <= size[1]
    assert screen.show_palette or size[1] / scale < 500  # the swatches give way only in the shortest windows
    swatches = screen.palette_rect
    if swatches is not None:
        assert swatches.bottom < screen.back.rect.top and swatches.right <= size[0]
        assert not any(swatches.colliderect(r) for r in rows)
    assert all(not a.colliderect(b) for a, b in itertools.pairwise(rows))
    # every value reads whole between its arrows, and the row's name clears the arrows
    for key, (row, minus, plus) in zip(screen.ROWS, screen.rects, strict=True):
        value = app.ui.text.width(screen.value_text(key), 17, True)
        assert value <= plus.left - minus.right - app.ui.s(4), key
        assert row.x + app.ui.s(16) + app.ui.text.width(screen.NAMES[key], 17) < minus.left, key
    app.close()


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_after_battle_healing_heading_and_message_clear_the_buttons(
    tmp_path: Path, size: tuple[int, int], scale: float
) -> None:
    app = window(tmp_path, size, scale)
    screen = SummaryScreen(app.ui, BattleEnd(finished_battle(), app.to_title))
    app.push(screen)
    app.draw()
    bottom_buttons = [screen.export_button, screen.wounds_button, screen.back_button, screen.title_button]
    top_of_buttons = min(b.rect.top for b in bottom_buttons)
    assert screen.rest_button.rect.bottom <= top_of_buttons
    assert not any(screen.message_rect.colliderect(b.rect) for b in bottom_buttons)
    assert not screen.message_rect.colliderect(screen.rest_button.rect)
    assert screen.message_rect.width >= app.ui.s(150)
    assert not screen.back_button.rect.colliderect(screen.wounds_button.rect)
    app.close()


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_every_line_of_the_after_battle_screen_stays_in_its_column(
    tmp_path: Path, size: tuple[int, int], scale: float
) -> None:
    """The luck lines ("… (± 15.8); luckier than 46%") ran past the window's edge at 1024×640: every string
    the screen writes lies inside the window, those of the right column inside it."""
    app = window(tmp_path, size, scale)
    screen = SummaryScreen(app.ui, BattleEnd(finished_battle(), app.to_title))
    app.push(screen)
    seen: list[tuple[str, pygame.Rect]] = []
    original = app.ui.text.blit

    def spy(surf: pygame.Surface, s: str, *args: Any, **kw: Any) -> pygame.Rect:
        rect = original(surf, s, *args, **kw)
        seen.append((s, rect.move(surf.get_abs_offset())))
        return rect

    app.ui.text.blit = spy  # type: ignore[method-assign]
    try:
        app.dirty = True
        app.draw()
    finally:
        app.ui.text.blit = original  # type: ignore[method-assign]
    assert any(s.startswith("Luck") for s, _ in seen) or not screen.show_luck
    right = screen.hits.rect
    for s, r in seen:
        assert pygame.Rect((0, 0), size).contains(r), s
        if r.left >= right.left - 2:
            assert r.right <= right.right + 2, s
    app.close()
