"""Nothing in the way on the battle screen: a hint goes when the pointer leaves what it explains, and the
board does not react to the pointer, clicks or the wheel under the decision panel."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.screens import EscapeMenu
from tests.helpers import do_little
from tests.ui.conftest import click, key, move, wheel
from tests.ui.test_battle_screen import VILLAGE, all_human, lift_curtain, open_battle

LONG = "Round 1: " + "a very long account of what happened " * 6


def _hint_on_a_long_log_line(app: App) -> BattleScreen:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    screen.log.set_items([LONG, "short"])
    app.draw()
    first = (screen.log.rect.x + 20, screen.log.rect.y + 8)
    move(app, first)
    assert screen.hint_tip.shown and screen.hint_tip.text == LONG
    return screen


def test_a_hint_goes_when_the_pointer_moves_off_what_it_explains(app: App) -> None:
    screen = _hint_on_a_long_log_line(app)
    x, y, w, _ = screen.board.camera.view
    move(app, (x + w // 2, y + 30))
    assert not screen.hint_tip.shown


def test_a_hint_goes_when_the_pointer_leaves_the_window(app: App) -> None:
    screen = _hint_on_a_long_log_line(app)
    pygame.event.post(pygame.event.Event(pygame.WINDOWLEAVE, window=None))
    app.pump()
    assert not screen.hint_tip.shown
    assert screen.selection.hover is None


def test_a_hint_goes_when_what_it_explains_goes_from_under_the_still_pointer(app: App) -> None:
    screen = _hint_on_a_long_log_line(app)
    screen.log.set_items(["short", "short too"])
    app.draw()
    assert not screen.hint_tip.shown


def test_a_hint_goes_when_a_screen_opens_over_the_battle(app: App) -> None:
    screen = _hint_on_a_long_log_line(app)
    screen.selection.figure, screen.selection.hex = None, None
    screen.model.decl.advance, screen.model.decl.target = [], None
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, EscapeMenu)
    assert not screen.hint_tip.shown


def test_the_board_does_not_react_under_the_decision_panel(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None and d.reason == "move"
    fid = screen.model.active_mover(d)
    assert fid is not None
    cam = screen.board.camera
    reach = screen.model.reach(fid)
    spots = []
    for top in (False, True):  # a hex the figure could reach that lies under the panel, top or bottom
        screen.focus.panel_top = top
        screen._rebuild_buttons()
        panel = screen.panel_rect(d)
        for h in sorted(reach.hexes()):
            p = tuple(round(v) for v in cam.hex_to_screen(h))
            inside = panel.inflate(-20, -20).collidepoint(p)
            if inside and not any(b.rect.inflate(10, 10).collidepoint(p) for b in screen.buttons):
                spots.append((top, h, p))
        if spots:
            break
    assert spots, "no reachable hex lies under the panel"
    _, target, pos = spots[0]
    move(app, pos)
    assert screen.selection.hover is None and screen.board_view().path is None
    log_before = len(screen.battle.log)
    click(app, pos)
    assert len(screen.battle.log) == log_before and screen.selection.hex is None
    zoom = cam.zoom_index
    wheel(app, pos, 1)
    wheel(app, pos, -1)
    wheel(app, pos, -1)
    assert cam.zoom_index == zoom
    # away from the panel the same hex hovers and previews its path
    screen.focus.panel_top = not screen.focus.panel_top
    screen._rebuild_buttons()
    move(app, pos)
    assert screen.selection.hover == target and screen.board_view().path is not None


def test_a_long_log_entry_wraps_onto_rows_and_a_click_on_any_row_picks_it(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    fid = next(iter(screen.battle.figures))
    screen.journal.entries.append((LONG, (fid,), None))
    screen.journal.sync()
    app.draw()
    log = screen.log
    rows = [r for r, e in enumerate(log.row_entry) if e == len(screen.journal.entries) - 1]
    assert len(rows) > 1
    assert " ".join(log.items[r] for r in rows).split() == LONG.split()
    assert not any("…" in log.items[r] for r in rows)
    y = log.rect.y + 4 + (rows[1] - log.scroll) * log._line_height + 3
    for r in rows:  # no row is cut: no hint needed to read it
        assert log.cut_line_at((log.rect.x + 20, log.rect.y + 4 + (r - log.scroll) * log._line_height + 3)) == ""
    click(app, (log.rect.x + 30, y))
    assert screen.model.highlight == frozenset({fid})


def _play_out(app: App, screen: BattleScreen) -> None:
    for _ in range(400):
        if not screen.journal.pending:
            return
        app.tick(0.05)
    raise AssertionError("the log never caught up")


def test_a_rounds_results_wait_in_the_tracker_and_sheet_until_the_log_has_played_them_out(app: App) -> None:
    """Two enemies face to face attack each other (seed 3: both are wounded); until the log has played the
    round out, the tracker, the sheet and the tokens show the battle as it stood before the last declaration."""
    from tests.ui.test_battle_screen import _to_attack_phase_adjacent

    screen = open_battle(app, controllers=all_human())
    a, e = _to_attack_phase_adjacent(app, screen)
    app.ui.settings = replace(app.ui.settings, animation_speed=1.0)
    b = screen.battle
    start_round = b.round
    for _ in range(40):  # the pair attack very aggressively, the others defend; the last declaration resolves
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None and d.reason == "declare"
        if d.figure in (a, e):
            enemy = e if d.figure == a else a
            click(app, tuple(round(v) for v in screen.board.camera.hex_to_screen(b.figure(enemy).hex)))
            key(app, pygame.K_1)
        before = {fid: (f.wounds.label, f.moved, f.out) for fid, f in b.figures.items()}
        key(app, pygame.K_RETURN)
        if b.round > start_round:
            break
        _play_out(app, screen)
    assert b.round == start_round + 1 and screen.journal.pending
    wounded = {fid for fid, f in b.figures.items() if f.wounds.label != before[fid][0]}
    assert wounded  # the fixed seed's dice wound at least one of the pair
    assert screen.tracker.phase_line() == f"Round {start_round} · Attack phase"
    shown = screen.model.shown()
    assert {fid: (f.wounds.label, f.moved, f.out) for fid, f in shown.figures.items()} == before
    assert shown.decision is not None and shown.decision.reason == "declare"
    screen.selection.figure = next(iter(wounded))
    assert screen.sheet.figure_shown(None) in wounded
    assert all(t.wound_level == 0 for t in screen.tokens() if t.id in wounded)
    app.draw()
    _play_out(app, screen)
    assert screen.tracker.phase_line() == f"Round {b.round} · Movement phase"
    live = {fid: (f.wounds.label, f.moved, f.out) for fid, f in b.figures.items()}
    assert {fid: (f.wounds.label, f.moved, f.out) for fid, f in screen.model.shown().figures.items()} == live
    assert all(t.wound_level > 0 for t in screen.tokens() if t.id in wounded)


def _clear_of_the_panel(screen: BattleScreen, fids: list[str]) -> bool:
    d = screen.my_decision()
    panel = screen.panel_rect(d)
    view = pygame.Rect(screen.board.camera.view)
    for fid in fids:
        p = screen.board.camera.hex_to_screen(screen.battle.figure(fid).hex)
        if panel.collidepoint(p) or not view.collidepoint(p):
            return False
    return True


def _declaring_one_of_two_enemies_face_to_face(app: App) -> tuple[BattleScreen, str, str]:
    from tests.ui.test_battle_screen import _to_attack_phase_adjacent

    screen = open_battle(app, controllers=all_human())
    a, e = _to_attack_phase_adjacent(app, screen)
    for _ in range(40):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None and d.reason == "declare"
        if d.figure in (a, e):
            break
        key(app, pygame.K_RETURN)
    assert d.figure is not None
    return screen, d.figure, e if d.figure == a else a


def test_the_decision_panel_never_covers_the_figure_deciding_or_its_target(app: App) -> None:
    screen, me, enemy = _declaring_one_of_two_enemies_face_to_face(app)
    cam = screen.board.camera
    d = screen.my_decision()
    # the player pans the pair under the panel; then cycles to the target with T
    panel = screen.panel_rect(d)
    sx, sy = cam.hex_to_screen(screen.battle.figure(me).hex)
    cam.pan(sx - panel.centerx, sy - panel.centery)
    screen._view = None
    assert not _clear_of_the_panel(screen, [me, enemy])
    key(app, pygame.K_t)
    assert screen.model.decl.target == enemy
    app.tick(0.0)
    assert _clear_of_the_panel(screen, [me, enemy])


@pytest.mark.parametrize(("size", "scale"), [((1024, 640), 1.25), ((1024, 640), 1.5), ((800, 700), 1.5)])
def test_the_decision_panel_never_covers_the_figure_or_its_target_on_a_short_board(
    app: App, size: tuple[int, int], scale: float
) -> None:
    # 1024×640 at a large UI scale: the odds under the controls made the panel almost as tall as the board
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    app.window = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    screen, me, enemy = _declaring_one_of_two_enemies_face_to_face(app)
    assert screen.size == size
    cam = screen.board.camera
    d = screen.my_decision()
    panel = screen.panel_rect(d)
    assert panel.height <= cam.view[3] * 3 // 4  # a compact panel: room left for the pair above or below
    sx, sy = cam.hex_to_screen(screen.battle.figure(me).hex)
    cam.pan(sx - panel.centerx, sy - panel.centery)
    screen._view = None
    assert not _clear_of_the_panel(screen, [me, enemy])
    key(app, pygame.K_t)
    assert screen.model.decl.target == enemy
    app.tick(0.0)
    app.draw()
    assert _clear_of_the_panel(screen, [me, enemy])
    panel = screen.panel_rect(screen.my_decision())
    if size == (1024, 640):
        # the panel reaches over the log and keeps the odds whole beside the controls
        assert not screen.declaration.columns(panel.width)[1] and panel.right > cam.view[0] + cam.view[2]
        return
    # a window too narrow for the odds beside the controls even over the log: what the compact panel leaves
    # out of the odds shows over them
    odds_y = panel.y + app.ui.s(screen.declaration.dodge_y(panel.width) + 40)
    move(app, (panel.x + app.ui.s(40), odds_y))
    assert screen.hint_tip.shown and "Stances compared" in screen.hint_tip.text


def test_the_camera_looks_again_when_the_window_is_resized(app: App) -> None:
    screen, me, enemy = _declaring_one_of_two_enemies_face_to_face(app)
    key(app, pygame.K_t)
    app.tick(0.0)
    assert _clear_of_the_panel(screen, [me, enemy])
    cam = screen.board.camera
    for size in ((1024, 640), (1920, 1080), (1024, 640)):
        panel = screen.panel_rect(screen.my_decision())  # the player pans the pair under the panel first
        sx, sy = cam.hex_to_screen(screen.battle.figure(me).hex)
        cam.pan(sx - panel.centerx, sy - panel.centery)
        app.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        app.pump()
        assert screen.size == size
        assert _clear_of_the_panel(screen, [me, enemy]), size


def test_the_gm_panels_hint_goes_when_its_button_opens_a_box_or_the_pointer_leaves(app: App) -> None:
    from game.ui.gm_dialog import GMDialog
    from tests.ui.test_gm_panel import button, open_as_referee

    _, panel = open_as_referee(app)
    gear = button(panel, "Gear")
    assert gear.hint
    move(app, gear.rect.center)
    app.tick(1.0)
    assert panel.tooltip.shown and panel.tooltip.text == gear.hint
    pygame.event.post(pygame.event.Event(pygame.WINDOWLEAVE, window=None))
    app.pump()
    assert not panel.tooltip.shown
    move(app, (gear.rect.centerx + 1, gear.rect.centery))
    app.tick(1.0)
    assert panel.tooltip.shown
    click(app, gear.rect.center)
    assert isinstance(app.top, GMDialog)
    assert not panel.tooltip.shown


def test_the_hover_box_steps_aside_from_the_pointer_and_never_covers_the_panel(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None
    cam = screen.board.camera
    x, y, w, h = cam.view
    panel = screen.panel_rect(d)
    hexes = [
        hx
        for hx in screen.battle.terrain.hexes()
        if x + w - 60 < (p := cam.hex_to_screen(hx))[0] < x + w - 12
        and (y + 30 < p[1] < y + h - 30)
        and not panel.collidepoint(p)
    ]
    assert hexes
    for hx in hexes[:12]:
        pos = tuple(round(v) for v in cam.hex_to_screen(hx))
        move(app, pos)
        assert screen.selection.hover == hx
        app.draw()
        box = screen.inspector.drawn
        assert box is not None
        assert not box.colliderect(screen.panel_rect(d))
        assert not box.collidepoint(pos)


def _pointer_on_the_board(app: App, screen: BattleScreen) -> tuple[int, int]:
    """The pointer put still on a hex of the board, clear of the decision panel."""
    d = screen.my_decision()
    assert d is not None
    x, y, w, h = screen.board.camera.view
    panel = screen.panel_rect(d)
    pos = next(
        (px, py)
        for px in range(x + w // 2, x + w - 40, 23)
        for py in range(y + 40, y + h - 40, 19)
        if not panel.inflate(40, 40).collidepoint(px, py)
    )
    move(app, pos)
    assert screen.selection.hover == screen.board.camera.screen_to_hex(*pos)
    return pos


def _hovered_is_under(screen: BattleScreen, pos: tuple[int, int]) -> bool:
    under = None if screen.over_panel(pos) else screen.board.camera.screen_to_hex(*pos)
    return screen.selection.hover == under


def test_the_hovered_hex_follows_the_board_when_it_pans_under_the_still_pointer(app: App) -> None:
    """The hover box and the sheet name what is under the pointer: when the board pans under a still pointer
    (a pan key held) the hovered hex is the one now under it, not the one it was over before."""
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    pos = _pointer_on_the_board(app, screen)
    before = screen.selection.hover
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    app.pump()
    for _ in range(20):
        app.tick(0.05)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    app.pump()
    assert screen.board.camera.screen_to_hex(*pos) != before, "the board panned under the pointer"
    assert _hovered_is_under(screen, pos)


def test_the_hovered_hex_follows_the_camera_when_it_turns_to_the_next_decision(app: App) -> None:
    """The camera keeps the deciding figure in view; when it moves for the next decision, the hovered hex (and
    so the hover box and the sheet) is the one under the still pointer."""
    screen = open_battle(app, VILLAGE, controllers=all_human(VILLAGE))
    lift_curtain(app)
    pos = _pointer_on_the_board(app, screen)
    cam = screen.board.camera
    for _ in range(60):
        start = (cam.zoom_index, cam.origin_x, cam.origin_y)
        d = screen.decision()
        assert d is not None
        assert screen.send(do_little(d))
        lift_curtain(app)
        app.tick(0.0)
        if (cam.zoom_index, cam.origin_x, cam.origin_y) != start:
            break
    else:
        raise AssertionError("the camera never moved to follow a decision")
    assert _hovered_is_under(screen, pos)
