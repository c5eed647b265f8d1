"""F1 shows the keys of the screen it opens over (on the title: the menu keys, not the battle's board keys),
and the whole rules reference fits from 1024×640 to 1920×1080 at 100–125 % and at 1920×1080 at 150 % (its
Wounds and Magic sections were cut at 1024×640 and 125 %); at 150 % on 1024×640 and 1280×720 it pages
(PgUp/PgDn or the wheel) rather than cutting its last sections."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from game.ui.app import App
from game.ui.screens import HELP_KEYS, MENU_HELP_KEYS, RULES_REFERENCE, HelpOverlay
from tests.ui.conftest import key


def test_f1_on_the_title_lists_the_menu_keys(app: App) -> None:
    key(app, pygame.K_F1)
    help_screen = app.top
    assert isinstance(help_screen, HelpOverlay)
    assert help_screen.keys == MENU_HELP_KEYS
    assert help_screen.keys != HELP_KEYS


@pytest.mark.parametrize(
    ("size", "scale"),
    [((1024, 640), 1.0), ((1024, 640), 1.25), ((1280, 720), 1.0), ((1280, 720), 1.25)]
    + [((1920, 1080), k) for k in (1.0, 1.25, 1.5)],
)
def test_the_whole_rules_reference_fits(app: App, size: tuple[int, int], scale: float) -> None:
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    overlay = HelpOverlay(app.ui, HELP_KEYS)
    overlay.draw(pygame.Surface(size))
    assert overlay.sections_shown == len(RULES_REFERENCE)
    assert overlay.keys_shown == len(HELP_KEYS)
    rects = overlay.drawn
    # a glyph's box may pass its line by 1 px
    assert all(not a.inflate(0, -2).colliderect(b.inflate(0, -2)) for i, a in enumerate(rects) for b in rects[i + 1 :])
    assert all(pygame.Rect((0, 0), size).contains(r) for r in rects)


@pytest.mark.parametrize("size", [(1024, 640), (1280, 720)])
def test_every_rules_section_and_key_is_reachable_by_paging_at_150_percent(app: App, size: tuple[int, int]) -> None:
    app.ui.update_settings(replace(app.ui.settings, ui_scale=1.5))
    overlay = HelpOverlay(app.ui, HELP_KEYS)
    seen: set[str] = set()
    keys_seen: set[int] = set()
    overlay.draw(pygame.Surface(size))
    assert overlay.pages > 1  # too long for one page at this size: it pages rather than cuts
    for page in range(overlay.pages):
        assert overlay.page == page
        seen |= set(overlay.sections_on_page)
        keys_seen |= set(overlay.key_rows_on_page)
        rects = overlay.drawn
        assert all(pygame.Rect((0, 0), size).contains(r) for r in rects)
        assert all(
            not a.inflate(0, -2).colliderect(b.inflate(0, -2)) for i, a in enumerate(rects) for b in rects[i + 1 :]
        )
        assert overlay.on_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEDOWN, mod=0, unicode="")) is None
        overlay.draw(pygame.Surface(size))
    assert seen == {title for title, _ in RULES_REFERENCE}
    assert keys_seen == set(range(len(HELP_KEYS)))
    assert overlay.page == overlay.pages - 1  # PgDn on the last page stays there
    wheel_up = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0)
    for _ in range(overlay.pages):
        assert overlay.on_event(wheel_up) is None
    assert overlay.page == 0
    assert overlay.on_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="")) is not None
