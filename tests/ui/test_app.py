"""The interface driven headless by posted pygame events (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.engine import actions as act
from game.engine.battle import Seat, legal_actions
from game.ui.app import WINDOW_TITLE, App, run
from game.ui.camera import ZOOM_LEVELS
from game.ui.dialogs import FileChooser, MessageDialog
from game.ui.screens import EscapeMenu, HelpOverlay, NewBattleScreen, SettingsScreen, TitleScreen
from game.ui.settings import SETTINGS_FILE
from game.ui.viewer import ViewerScreen
from tests.ui.conftest import click, drag, key, move, wheel


def start_default_battle(app: App) -> ViewerScreen:
    """Title -> New battle -> Start with the defaults: one click each."""
    title = app.top
    assert isinstance(title, TitleScreen)
    click(app, title.column.buttons[0].rect.center)
    assert isinstance(app.top, NewBattleScreen)
    click(app, app.top.start.rect.center)
    from game.ui.deploy_screen import DeployScreen

    assert isinstance(app.top, DeployScreen)  # the map's figures stand ready: Enter starts
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, ViewerScreen) and not isinstance(app.top, DeployScreen)
    return app.top


def test_window_opens_on_the_title_screen(app: App) -> None:
    assert pygame.display.get_caption()[0] == WINDOW_TITLE
    assert app.size == (1280, 720)
    assert isinstance(app.top, TitleScreen)
    assert app.frames_drawn >= 1


def test_title_keyboard_navigation_skips_disabled_buttons(app: App) -> None:
    title = app.top
    assert isinstance(title, TitleScreen)
    names = [b.text for b in title.column.buttons]
    assert names == ["New battle", "Continue", "Load", "Join a table", "Settings", "Roster editor", "Quit"]
    assert not title.column.buttons[1].enabled and not title.column.buttons[2].enabled
    key(app, pygame.K_DOWN)
    assert title.column.buttons[title.column.focus].text == "Join a table"
    key(app, pygame.K_DOWN)
    assert title.column.buttons[title.column.focus].text == "Settings"
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, SettingsScreen)
    key(app, pygame.K_ESCAPE)
    assert app.top is title


def test_disabled_continue_explains_itself_and_does_nothing(app: App) -> None:
    title = app.top
    assert isinstance(title, TitleScreen)
    cont = title.column.buttons[1]
    click(app, cont.rect.center)
    assert app.top is title
    move(app, (cont.rect.centerx + 1, cont.rect.centery))
    app.tick(1.0)
    assert title.tooltip.shown and "No saved battle" in title.tooltip.text


def test_continue_is_enabled_once_an_autosave_exists(tmp_path: Path, maps_dir: Path, data_home: Path) -> None:
    config = tmp_path / "c2"
    config.mkdir()
    data_home.mkdir(parents=True, exist_ok=True)
    (data_home / "autosave.json").write_text("{}")
    a = App(config=config, maps_dir=maps_dir)
    try:
        title = a.top
        assert isinstance(title, TitleScreen)
        assert title.column.buttons[1].enabled and title.column.buttons[2].enabled
        click(a, title.column.buttons[1].rect.center)
        assert isinstance(a.top, MessageDialog) and a.top.error  # a damaged save: a dialog, not a crash
        assert "Traceback" not in a.top.message
        key(a, pygame.K_RETURN)
        click(a, title.column.buttons[2].rect.center)
        assert isinstance(a.top, FileChooser)
        assert any(p.name == "autosave.json" for p in a.top.entries)
        key(a, pygame.K_ESCAPE)
        assert a.top is title
    finally:
        a.close()


def test_quit_from_the_title(app: App) -> None:
    key(app, pygame.K_q)
    assert not app.running


def test_one_click_skirmish_then_pan_with_keys_and_drag(app: App) -> None:
    viewer = start_default_battle(app)
    cam = viewer.board.camera
    cam.zoom_at(3, 400, 300)  # zoomed in, so the map is larger than the view and can pan
    x0, y0 = cam.origin_x, cam.origin_y
    key(app, pygame.K_RIGHT)
    assert cam.origin_x > x0
    key(app, pygame.K_s)
    assert cam.origin_y > y0
    x1, y1 = cam.origin_x, cam.origin_y
    drag(app, (500, 400), (400, 350))
    assert cam.origin_x == pytest.approx(x1 + 100 / cam.zoom)
    assert cam.origin_y == pytest.approx(y1 + 50 / cam.zoom)
    assert viewer.selection.figure is None  # a drag is not a click


def _over_reach(app: App, viewer: ViewerScreen, point: tuple[int, int]) -> bool:
    move(app, point)
    turns = getattr(viewer, "_wheel_turns", None)
    return bool(turns()) if turns is not None else False


def test_wheel_and_plus_minus_zoom_around_the_cursor(app: App) -> None:
    viewer = start_default_battle(app)
    cam = viewer.board.camera
    cam.zoom_index = ZOOM_LEVELS.index(1.0)  # the map overflows the view and is not re-centred
    cam.clamp()
    # over a hex the moving figure cannot reach (over a reachable one the wheel turns the final facing)
    point = next(
        (x, y)
        for y in range(120, 600, 23)
        for x in range(60, 900, 37)
        if 200 < cam.screen_to_map(x, y)[0] < cam.map_size[0] - 200
        and 200 < cam.screen_to_map(x, y)[1] < cam.map_size[1] - 200
        and not _over_reach(app, viewer, (x, y))
    )
    z0 = cam.zoom_index
    before = cam.screen_to_map(*point)
    wheel(app, point, 1)
    assert cam.zoom_index == z0 + 1
    assert cam.screen_to_map(*point) == pytest.approx(before, abs=1.0)
    key(app, pygame.K_MINUS)
    key(app, pygame.K_MINUS)
    assert cam.zoom_index == z0 - 1
    key(app, pygame.K_EQUALS)
    assert cam.zoom == ZOOM_LEVELS[z0]


def test_click_selects_the_figure_and_hover_inspects_the_hex(app: App) -> None:
    viewer = start_default_battle(app)
    panel = getattr(viewer, "panel_rect", lambda d: pygame.Rect(0, 0, 0, 0))(None)

    def visible(h: object) -> bool:
        p = viewer.board.camera.hex_to_screen(h)  # type: ignore[arg-type]
        return viewer.board.camera.in_view(*p) and not panel.inflate(60, 60).collidepoint(p)

    fid, figure = next((i, f) for i, f in viewer.figures.items() if visible(f.hex))
    pos = tuple(round(v) for v in viewer.board.camera.hex_to_screen(figure.hex))
    move(app, pos)
    assert viewer.selection.hover == figure.hex
    click(app, pos)
    assert viewer.selection.figure == fid
    view = viewer.board_view()
    assert [t.id for t in view.tokens if t.selected] == [fid]
    assert view.zocs and view.zocs[0].hex == figure.hex
    for _ in range(200):  # a person's turn: during a computer's turn Escape opens the menu at once
        if getattr(viewer, "my_decision", lambda: True)() is not None:
            break
        app.tick(0.1)
    key(app, pygame.K_ESCAPE)  # first Escape clears the selection
    assert viewer.selection.figure is None
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, EscapeMenu)
    key(app, pygame.K_ESCAPE)
    assert app.top is viewer


def test_tab_cycles_figures(app: App) -> None:
    viewer = start_default_battle(app)
    key(app, pygame.K_TAB)
    first = viewer.selection.figure
    key(app, pygame.K_TAB)
    assert first is not None and viewer.selection.figure not in (None, first)


def test_a_bad_map_opens_a_dialog_and_the_game_keeps_running(app: App, maps_dir: Path) -> None:
    (maps_dir / "broken.tmx").write_text("<map this is not xml")
    click(app, app.top.column.buttons[0].rect.center)  # type: ignore[attr-defined]
    new = app.top
    assert isinstance(new, NewBattleScreen)
    assert new.setup().map_path == maps_dir / "broken.tmx"
    key(app, pygame.K_RETURN)
    dialog = app.top
    assert isinstance(dialog, MessageDialog) and dialog.error
    assert "broken.tmx" in dialog.message
    assert "Traceback" not in dialog.message
    assert app.running
    key(app, pygame.K_RETURN)
    assert app.top is new
    assert app.frames_drawn > 0


def test_a_missing_map_from_the_command_line_is_a_dialog(app: App) -> None:
    from game.ui.screens import BattleSetup

    app.apply(app.start_battle(BattleSetup(Path("/nowhere/missing.tmx"))))
    assert isinstance(app.top, MessageDialog)
    app.pump()
    assert app.running


def test_escape_menu_back_to_title(app: App) -> None:
    start_default_battle(app)
    key(app, pygame.K_ESCAPE)
    menu = app.top
    assert isinstance(menu, EscapeMenu)
    back = next(b for b in menu.column.buttons if b.text == "Back to title")
    click(app, back.rect.center)
    assert isinstance(app.top, TitleScreen)
    assert len(app.stack) == 1
    assert app.running  # the game goes on at the title (it once closed here)
    app.pump()
    assert app.running and isinstance(app.top, TitleScreen)


def test_f1_toggles_help_anywhere(app: App) -> None:
    key(app, pygame.K_F1)
    assert isinstance(app.top, HelpOverlay)
    key(app, pygame.K_F1)
    assert isinstance(app.top, TitleScreen)
    start_default_battle(app)
    key(app, pygame.K_F1)
    assert isinstance(app.top, HelpOverlay)
    key(app, pygame.K_SPACE)
    assert isinstance(app.top, ViewerScreen)


def test_settings_screen_changes_persist(app: App, tmp_path: Path) -> None:
    key(app, pygame.K_s)
    screen = app.top
    assert isinstance(screen, SettingsScreen)
    key(app, pygame.K_RIGHT)  # UI scale up
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RIGHT)  # colour-blind palette on
    assert app.ui.settings.ui_scale == 1.25
    assert app.ui.settings.colour_blind
    saved = json.loads((tmp_path / "config" / SETTINGS_FILE).read_text())
    assert saved["ui_scale"] == 1.25 and saved["colour_blind"] is True
    plus = screen.rects[2][2]
    click(app, plus.center)
    assert app.ui.settings.animation_speed == 2.0


def test_window_size_is_remembered(tmp_path: Path, maps_dir: Path) -> None:
    config = tmp_path / "c3"
    a = App(config=config, maps_dir=maps_dir)
    pygame.display.set_mode((1000, 640), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 640), w=1000, h=640))
    a.pump()
    a.close()
    b = App(config=config, maps_dir=maps_dir)
    try:
        assert b.size == (1000, 640)
    finally:
        b.close()


def test_errors_inside_a_screen_become_a_dialog(app: App) -> None:
    viewer = start_default_battle(app)

    def boom() -> None:
        raise RuntimeError("kaboom")

    viewer.select_at = lambda pos: boom()  # type: ignore[method-assign]
    click(app, (300, 300))
    assert isinstance(app.top, MessageDialog)
    assert "kaboom" in app.top.message
    assert app.running


def test_run_saves_a_screenshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUDGE_TACTICS_CONFIG_DIR", str(tmp_path / "cfg"))
    out = tmp_path / "shot.png"
    assert run(screenshot=str(out), frames=2) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 720)


def test_back_to_title_autosaves_the_last_decision_so_continue_resumes_there(app: App) -> None:
    """A decision made mid-phase is in the autosave once the player leaves for the title (Continue)."""
    screen = start_default_battle(app)
    session = screen.session  # type: ignore[attr-defined]
    d = legal_actions(session.battle)
    assert d is not None and d.reason == "move"
    session.apply(act.Hold(d.figure or ""), Seat.of_side(d.side))
    key(app, pygame.K_ESCAPE)
    menu = app.top
    assert isinstance(menu, EscapeMenu)
    click(app, next(b for b in menu.column.buttons if b.text == "Back to title").rect.center)
    data = json.loads(app.ui.autosave_path().read_text())
    assert len(data["actions"]) == len(session.battle.log)


@pytest.mark.parametrize("size", [(1280, 720), (1400, 900)])
def test_new_battle_roster_error_has_its_own_area(app: App, tmp_path: Path, size: tuple[int, int]) -> None:
    """A broken roster's message is wrapped in its own block: no rule option (nor its heading) lies under it."""
    broken = tmp_path / "typo.roster.toml"
    broken.write_text('[characters.knight]\nname = "Knight"\nstrength = "Gud"\n' + "x = = 1\n", encoding="utf-8")
    key(app, pygame.K_n)
    nb = app.top
    assert isinstance(nb, NewBattleScreen)
    nb.roster = broken
    nb._refresh()
    nb.on_resize(size)
    app.pump()
    assert nb.problem and len(nb.problem_lines) >= 1
    assert nb.problem_rect.height > 0
    for rect in nb.option_rects.values():
        assert not nb.problem_rect.colliderect(rect)
        assert rect.bottom <= nb.back.rect.top
    first = next(iter(nb.option_rects.values()))
    heading = pygame.Rect(first.x, first.y - app.ui.s(24), first.width, app.ui.text.line_height(15, True))
    assert not nb.problem_rect.colliderect(heading)
    assert all(app.ui.text.width(line, 14) <= nb.problem_rect.width for line in nb.problem_lines)
