"""Every part of the battle screen fits and reads at the window sizes and UI scales a player uses: 1024×640
at 125 % and 150 %, 1280×720 at 100 % and 125 %, 1920×1080. The decision panels' buttons lie inside their
panels without overlapping, their words stay inside them, no name or label is cut to a letter ("M…"), the
odds of a declaration read whole (not one cut line), the GM's panel and the pause box fit the window; the
log's last line is whole; a change of UI scale lays out at once the battle under the menu too.

Driven through the real window loop (SDL's dummy driver), village map, seed 3, both sides at the screen."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.engine.battle import Battle
from game.engine.players import make_player
from game.session import build_setup, new_session
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen, VictoryScreen
from game.ui.gm_panel import GMPanel
from game.ui.screens import EscapeMenu, SettingsScreen
from game.ui.summary_screen import BattleEnd
from tests.helpers import do_little
from tests.ui.conftest import click, key, move

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
SIZES = [((1024, 640), 1.25), ((1024, 640), 1.5), ((1280, 720), 1.0), ((1280, 720), 1.25), ((1920, 1080), 1.0)]
CUT_SHORT = re.compile(r"(^|\s)\W?\w{0,2}…")
"""A word cut to a letter or two ("M…", "1 V…."): a label that no longer reads."""


def window(app: App, size: tuple[int, int], scale: float) -> None:
    """The window at this size and UI scale, as a player's resize and the Settings screen make it."""
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale, animation_speed=0.0))
    app.window = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()


def village(app: App, gm: str | None = None) -> BattleScreen:
    """A hotseat battle on the village (GM seat ``gm``), any curtain lifted."""
    session = new_session(VILLAGE, seed=3, controllers={"blue": "human", "red": "human"})
    if gm is not None:
        session.setup_data["gm"] = gm
        session.battle = Battle(build_setup(session.setup_data, session.loaded))
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    lift(app)
    return screen


def lift(app: App) -> None:
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)


def painted(app: App, screen: BattleScreen | None = None) -> list[tuple[str, pygame.Rect]]:
    """Every string drawn in one whole frame, with its rect on the window (the battle's chrome and decision
    panel painted anew); those painted on the decision panel are in ``on_panel`` too."""
    if screen is not None:
        screen._forget_drawn()
    seen: list[tuple[str, pygame.Rect, pygame.Surface]] = []
    text = app.ui.text
    original = text.blit

    def spy(surf: pygame.Surface, s: str, *args: Any, **kw: Any) -> pygame.Rect:
        rect = original(surf, s, *args, **kw)
        seen.append((s, rect.move(surf.get_abs_offset()), surf))
        return rect

    text.blit = spy  # type: ignore[method-assign,assignment]
    try:
        app.dirty = True
        app.draw()
    finally:
        text.blit = original  # type: ignore[method-assign,assignment]
    panel = screen._panel_cache[1] if screen is not None and screen._panel_cache is not None else None
    d = screen.my_decision() if screen is not None else None
    origin = screen.panel_rect(d).topleft if screen is not None and d is not None else (0, 0)
    on_panel.clear()
    on_panel.extend((s, r.move(origin)) for s, r, surf in seen if s and surf is panel)
    return [(s, r.move(origin) if surf is panel else r) for s, r, surf in seen if s]


on_panel: list[tuple[str, pygame.Rect]] = []
"""The strings the last ``painted`` saw drawn on the decision panel."""


def assert_reads(strings: list[tuple[str, pygame.Rect]], size: tuple[int, int]) -> None:
    """Nothing cut to a letter, nothing drawn off the window."""
    bounds = pygame.Rect((0, 0), size)
    for s, r in strings:
        assert not CUT_SHORT.search(s), s
        assert bounds.contains(r.inflate(0, -2)), (s, r)


def assert_inside(buttons: list[Any], box: pygame.Rect) -> None:
    """Every button inside the box, no two overlapping."""
    rects = [b.rect for b in buttons if b.visible]
    assert rects
    for b in buttons:
        assert box.contains(b.rect), (b.text, b.rect, box)
    for a, b in itertools.combinations(rects, 2):
        assert not a.colliderect(b), (a, b)


def to_declaration(app: App, screen: BattleScreen) -> None:
    """Play on (a tactical player deciding for both sides) until a blue archer aims at an enemy."""
    player = make_player("tactical", 3)
    for _ in range(200):
        lift(app)
        d = screen.battle.decision()
        assert d is not None
        if d.reason == "declare" and d.side == "blue":
            screen.model.ensure_decl(d)
            if screen.model.targets() and screen.model.declare_options()["firers"]:
                break
        screen.send(player(screen.battle, d))
    if screen.model.decl.target is None:
        screen.declaration.cycle_target()
    assert screen.model.decl.target is not None


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_the_declaration_panel_fits_and_its_odds_read_whole(app: App, size: tuple[int, int], scale: float) -> None:
    window(app, size, scale)
    screen = village(app)
    to_declaration(app, screen)
    app.tick(0.0)
    d = screen.my_decision()
    assert d is not None and d.reason == "declare"
    panel = screen.panel_rect(d)
    strings = painted(app, screen)
    assert_reads(strings, size)
    assert pygame.Rect((0, 0), size).contains(panel)
    screen._rebuild_buttons()
    assert_inside(screen.buttons, panel)
    assert any(b.text.startswith("Aim: ") for b in screen.buttons)
    assert any(
        b.text.split()[-1] in {f.name.split()[0] for f in screen.battle.figures.values()} for b in screen.buttons
    )
    inside = list(on_panel)
    assert inside
    for s, r in inside:
        assert r.right <= panel.right - 4, s
    # the odds: the chance to hit, the whole modifier line (wrapped, not cut), the outcomes and the stances
    words = " ".join(s for s, _ in inside)
    pv = screen.model.attack_preview()
    assert pv is not None and "P(hit)" in words
    line = screen.declaration._odds_line(pv)
    assert " ".join(line.split()) in " ".join(words.split()), "the modifiers read whole"
    assert "miss " in words and "Stances compared" in words
    # the initiative strip: every name shown whole (or its first name), none cut
    top = pygame.Rect(0, 0, size[0], screen.tracker.height())
    names = {f.name for f in screen.battle.figures.values()} | {
        f.name.split()[0] for f in screen.battle.figures.values()
    }
    chips = [s.removeprefix("H ") for s, r in strings if top.contains(r) and r.y >= app.ui.s(34)]
    shown = [c for c in chips if not c.startswith("+") and c != "Initiative"]
    assert shown and all(c in names for c in shown), shown
    current = screen.battle.figure(d.figure or "")
    assert current.name in shown or current.name.split()[0] in shown, "the figure deciding is in the strip"


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_the_move_panel_gm_panel_and_pause_box_fit(app: App, size: tuple[int, int], scale: float) -> None:
    window(app, size, scale)
    screen = village(app, gm="referee")
    d = screen.my_decision()
    assert d is not None and d.reason == "move"
    fid = screen.model.active_mover(d)
    assert fid is not None
    far = max(screen.model.reach(fid).hexes(), key=lambda h: (h.q - screen.battle.figure(fid).hex.q) ** 2 + h.r**2)
    x, y = screen.board.camera.hex_to_screen(far)
    move(app, (round(x), round(y)))
    panel = screen.panel_rect(d)
    strings = painted(app, screen)
    assert_reads(strings, size)
    screen._rebuild_buttons()
    assert_inside(screen.buttons, panel)
    gm = next(b for b in screen.buttons if b.text == "GM (G)")
    assert on_panel
    for s, r in on_panel:
        assert panel.contains(r) and not r.colliderect(gm.rect), s
    # the GM's panel: inside the window, its buttons inside it, none over another or over a row's title
    key(app, pygame.K_g)
    lift(app)
    gm_panel = app.top
    assert isinstance(gm_panel, GMPanel)
    assert pygame.Rect((0, 0), size).contains(gm_panel.rect)
    assert_inside(gm_panel.buttons, gm_panel.rect)
    for title, ty in gm_panel.rows:
        label = pygame.Rect(gm_panel.rect.x, ty, gm_panel.labels_right - gm_panel.rect.x, app.ui.s(26))
        assert not any(label.colliderect(b.rect) for b in gm_panel.buttons), title
    assert_reads(painted(app), size)
    # the pause before each round: the box and its two buttons on the board
    app.ui.update_settings(replace(app.ui.settings, gm_stop_rounds=True))
    key(app, pygame.K_ESCAPE)
    lift(app)
    assert screen.gm_pause.paused
    box = screen.gm_pause.rect()
    assert pygame.Rect(screen.board.camera.view).contains(box)
    strings = painted(app, screen)
    assert_reads(strings, size)
    screen._rebuild_buttons()
    assert_inside(screen.buttons, box)
    assert all(box.contains(r) for s, r in strings if s.startswith("Stopped") or "edits are open" in s)


def last_line_whole(app: App, screen: BattleScreen) -> bool:
    """Whether the log, scrolled to its end, shows its last line whole."""
    app.draw()
    log = screen.log
    assert log.scroll == log.max_scroll
    rows_shown = len(log.items) - log.scroll
    return 4 + rows_shown * (app.ui.text.line_height(log.size) + 2) <= log.rect.height


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_a_battle_opened_at_a_ui_scale_shows_the_logs_last_line_whole_and_no_entrys_tail_on_top(
    app: App, size: tuple[int, int], scale: float
) -> None:
    window(app, size, scale)
    screen = village(app)
    assert last_line_whole(app, screen)
    to_declaration(app, screen)  # the declarations' lines, long enough to wrap
    assert last_line_whole(app, screen)
    # nor does it start with an entry's tail whose first row is scrolled away (drawn alone: a wide panel may
    # cover it now)
    rows: list[tuple[int, int]] = []
    text, original = app.ui.text, app.ui.text.blit

    def spy(surf: pygame.Surface, s: str, *args: Any, **kw: Any) -> pygame.Rect:
        rect = original(surf, s, *args, **kw)
        rows.append((rect.y, rect.x))
        return rect

    text.blit = spy  # type: ignore[method-assign,assignment]
    try:
        screen.log.draw(pygame.Surface(size), text)
    finally:
        text.blit = original  # type: ignore[method-assign,assignment]
    rows.sort()
    assert rows and rows[0][1] == min(x for _, x in rows), "the top row is an entry's first"


def test_a_change_of_ui_scale_lays_out_the_battle_under_the_menu_at_once(app: App) -> None:
    """1280×720: from the battle's menu, Settings, UI scale 125 %: the battle under the menu is laid out for it
    at once, and back on the battle the log's last line is whole; then 100 % again: the battle under the still
    open menu is laid out as it was (its board, column and log)."""
    window(app, (1280, 720), 1.0)
    screen = village(app)
    laid_out = (tuple(screen.board.camera.view), tuple(screen.log.rect))

    def ui_scale(step: int) -> EscapeMenu:
        key(app, pygame.K_ESCAPE)
        menu = app.top
        assert isinstance(menu, EscapeMenu)
        click(app, next(b for b in menu.column.buttons if b.text.startswith("Settings")).rect.center)
        assert isinstance(app.top, SettingsScreen)
        key(app, pygame.K_RIGHT if step > 0 else pygame.K_LEFT)  # the UI scale is the first row
        key(app, pygame.K_ESCAPE)
        assert app.top is menu
        return menu

    ui_scale(+1)
    assert app.ui.settings.ui_scale == 1.25
    assert tuple(screen.log.rect) != laid_out[1], "the battle below was laid out for 125 % at once"
    key(app, pygame.K_ESCAPE)
    assert app.top is screen and last_line_whole(app, screen)
    ui_scale(-1)
    assert app.ui.settings.ui_scale == 1.0
    assert (tuple(screen.board.camera.view), tuple(screen.log.rect)) == laid_out


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_the_victory_table_stays_above_its_buttons(app: App, size: tuple[int, int], scale: float) -> None:
    """The village's twelve figures: rows close up, and where they still do not fit above the buttons the
    table says how many it leaves out rather than run under them."""
    window(app, size, scale)
    battle = new_session(VILLAGE, seed=3, controllers={"blue": "human", "red": "human"}).battle
    victory = VictoryScreen(app.ui, BattleEnd(battle, app.to_title))
    app.push(victory)
    strings = painted(app)
    assert_reads([(s, r) for s, r in strings if not s.startswith("…")], size)
    buttons = [victory.title_button, victory.look_button, victory.summary_button]
    top = min(b.rect.top for b in buttons)
    assert all(r.bottom <= top for row in victory.cell_rects for r in row)
    assert_inside(buttons, pygame.Rect((0, 0), size))
    if victory.rows_shown < len(battle.figures):
        more = next(s for s, r in strings if s.startswith("… and "))
        assert f"{len(battle.figures) - victory.rows_shown} more" in more
    assert victory.rows_shown >= 6


WYRM = ROOT / "maps" / "wyrm_hollow.tmx"


def to_casting(app: App, spell: str) -> BattleScreen:
    """The Wyrm's Hollow, both sides at the screen (a tactical player deciding for them, the wizard standing
    still) until the wizard may cast ``spell`` at an enemy; she chooses it and a target."""
    session = new_session(WYRM, seed=3, controllers={"blue": "human", "red": "human"})
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    player = make_player("tactical", 3)
    for _ in range(400):
        lift(app)
        d = screen.battle.decision()
        assert d is not None
        wizard = d.figure is not None and screen.battle.figure(d.figure).name == "Mirelda"
        if d.reason == "declare" and wizard:
            screen.model.ensure_decl(d)
            if screen.model.declare_options()["spells"].get(spell):
                break
        screen.send(do_little(d) if wizard else player(screen.battle, d))
    else:
        raise AssertionError(f"the wizard never had a target for {spell}")
    screen.spells.choose(spell)
    if screen.model.decl.spell_target is None:
        screen.spells.cycle_target()
    assert screen.model.decl.spell_target is not None
    screen.invalidate()
    app.tick(0.0)
    return screen


@pytest.mark.parametrize("spell", ["Fire Bolt", "Thunderstrike"])
@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_a_casters_declaration_panel_fits_its_spell_row_and_the_casting_odds(
    app: App, size: tuple[int, int], scale: float, spell: str
) -> None:
    """FTC 8: the wizard's panel has a spell row; every button lies inside the panel with none over another,
    the odds column ends above the spell row (no odds line runs under it), no line runs past the panel's edge,
    the chance to cast reads whole, no figure on the line is marked at risk of a miss that cannot happen (an
    undodged bolt), and the panel leaves the wizard and her target in sight."""
    window(app, size, scale)
    screen = to_casting(app, spell)
    d = screen.my_decision()
    assert d is not None and d.reason == "declare"
    panel = screen.panel_rect(d)
    strings = painted(app, screen)
    assert_reads(strings, size)
    screen._rebuild_buttons()
    assert_inside(screen.buttons, panel)
    row = [b.rect for b in screen.buttons if b.text in screen.model.known_spells()]
    assert len(row) >= 2
    bottom = panel.height - app.ui.s(40) - screen.spells.extra_height(d.figure)
    odds = screen.declaration.paint(pygame.Surface(panel.size, pygame.SRCALPHA), d, bottom)
    assert odds is not None
    assert odds.move(panel.topleft).collidelist(row) < 0, "the odds column reaches under the spell row"
    for s, r in on_panel:
        assert r.right <= panel.right - 4, s
        assert r.collidelist(row) < 0, f"{s!r} runs under the spell row"
    assert any(re.search(r"P\(cast\)\s\d+%", s) for s, _ in on_panel), "the chance to cast reads whole"
    lof = screen.board_view().line_of_fire
    assert lof is not None and not any(m.text == "0%" for m in lof.marks), (
        "a figure a miss cannot strike is not at risk"
    )
    cam = screen.board.camera
    view = pygame.Rect(cam.view)
    for fid in (d.figure, screen.model.decl.spell_target):
        p = cam.hex_to_screen(screen.battle.figure(fid or "").hex)
        assert view.collidepoint(p) and not panel.collidepoint(p), screen.battle.figure(fid or "").name


def test_a_small_map_panned_off_the_middle_for_one_decision_goes_back_to_it_for_the_next(app: App) -> None:
    """The Wyrm's Hollow is smaller than a 1920x1080 window: the camera may pan it off the middle to bring a
    figure clear of the decision panel, but once the figures that matter are in sight with the map in the middle,
    it goes back there (it stayed low in the window, cut at the bottom, for the rest of the battle)."""
    window(app, (1920, 1080), 1.0)
    screen = to_casting(app, "Fire Bolt")
    d = screen.my_decision()
    assert d is not None
    cam = screen.board.camera
    screen.focus.fit(d)
    middle = (cam.origin_x, cam.origin_y)
    cam.clamp()
    assert (cam.origin_x, cam.origin_y) == middle, "the map is in the middle of the view"
    cam.pan(0, -app.ui.s(60), loose=True)  # as an earlier decision's focus left it: the map lower in the view
    assert cam.origin_y != middle[1]
    assert any(screen.focus.clear(d, top) for top in (False, True)), "everything that matters is still in sight"
    screen.focus.fit(d)
    assert (cam.origin_x, cam.origin_y) == middle
