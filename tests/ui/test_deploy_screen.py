"""The deployment screen driven by posted pygame events (SDL dummy driver).

Each test drags, clicks and presses keys through the real window loop and checks where the figures stand,
then what battle the screen starts: the screen adds no rules, the map's zones and terrain decide.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.engine.hexgrid import Hex
from game.session import GM_REFEREE
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.deploy_screen import DeployScreen
from game.ui.screens import BattleSetup, NewBattleScreen, TitleScreen
from tests.ui.conftest import click, drag, key, move, wheel

ROOT = Path(__file__).resolve().parents[2]
FIELD = ROOT / "maps" / "open_field.tmx"


def open_deploy(app: App, map_path: Path = FIELD, **kw: object) -> DeployScreen:
    """The deployment screen for a map, as New battle opens it."""
    app.apply(app.start_battle(BattleSetup(map_path, seed=4, **kw)))  # type: ignore[arg-type]
    app.pump()
    screen = app.top
    assert isinstance(screen, DeployScreen)
    return screen


def point(screen: DeployScreen, h: Hex) -> tuple[int, int]:
    x, y = screen.board.camera.hex_to_screen(h)
    return round(x), round(y)


def visible(screen: DeployScreen, hexes: object) -> list[Hex]:
    """Hexes whose centre is well inside the board's view."""
    x, y, w, h = screen.board.camera.view
    out = []
    for hx in sorted(hexes):  # type: ignore[call-overload]
        px, py = screen.board.camera.hex_to_screen(hx)
        if x + 15 < px < x + w - 15 and y + 15 < py < y + h - 15:
            out.append(hx)
    return out


def test_new_battle_leads_to_deployment_with_the_maps_figures_already_placed(app: App) -> None:
    assert isinstance(app.top, TitleScreen)
    click(app, app.top.column.buttons[0].rect.center)
    nb = app.top
    assert isinstance(nb, NewBattleScreen)
    click(app, nb.start.rect.center)
    screen = app.top
    assert isinstance(screen, DeployScreen)
    assert screen.pieces and not screen.unplaced()  # the map's own figure objects start placed
    assert screen.start_button.enabled
    key(app, pygame.K_ESCAPE)
    assert app.top is nb


def test_drag_a_figure_from_the_tray_into_its_zone(app: App) -> None:
    screen = open_deploy(app)
    click(app, screen.clear_button.rect.center)
    assert len(screen.unplaced()) == len(screen.pieces)
    assert not screen.start_button.enabled
    rect, piece = screen.tray_rows()[0]
    target = visible(screen, screen.legal_hexes(piece.id))[3]
    assert target in screen.data.zones[piece.side]
    drag(app, rect.center, point(screen, target))
    assert screen.pieces[piece.id].hex == target
    assert screen.selected_piece == piece.id


def test_an_illegal_drop_is_refused_with_the_reason(app: App) -> None:
    screen = open_deploy(app)
    click(app, screen.clear_button.rect.center)
    rect, piece = screen.tray_rows()[0]
    enemy_zone = next(z for side, z in screen.data.zones.items() if side != piece.side)
    wrong = visible(screen, [h for h in enemy_zone if screen.data.terrain.is_passable(h)])[0]
    drag(app, rect.center, point(screen, wrong))
    assert screen.pieces[piece.id].hex is None
    assert screen.message_error and "deployment zone" in screen.message and piece.name in screen.message
    # a free hex of its own zone taken by another figure is refused too, naming who stands there
    first = visible(screen, screen.legal_hexes(piece.id))[0]
    drag(app, rect.center, point(screen, first))
    rect2, other = screen.tray_rows()[0]
    drag(app, rect2.center, point(screen, first))
    assert screen.pieces[other.id].hex is None
    assert piece.name in screen.message and "already" in screen.message


def test_drag_a_placed_figure_to_move_it_and_back_to_the_tray(app: App) -> None:
    screen = open_deploy(app)
    click(app, screen.clear_button.rect.center)
    rect, piece = screen.tray_rows()[0]
    legal = visible(screen, screen.legal_hexes(piece.id))
    drag(app, rect.center, point(screen, legal[0]))
    drag(app, point(screen, legal[0]), point(screen, legal[5]))
    assert screen.pieces[piece.id].hex == legal[5]
    drag(app, point(screen, legal[5]), screen.tray_rect.center)
    assert screen.pieces[piece.id].hex is None


def test_ftc_5_2_facing_turned_with_the_wheel_and_q_e(app: App) -> None:
    screen = open_deploy(app)
    pid = next(iter(screen.pieces))
    before = screen.pieces[pid].facing
    wheel(app, screen.screen_of(pid), 1)
    assert screen.pieces[pid].facing == (before + 1) % 6
    assert screen.selected_piece == pid
    key(app, pygame.K_e)
    key(app, pygame.K_e)
    assert screen.pieces[pid].facing == (before - 1) % 6
    key(app, pygame.K_q)
    assert screen.pieces[pid].facing == before


def test_auto_deploy_fills_the_tray_as_place_figures_would(app: App) -> None:
    from game.maps.loader import load_map
    from game.roster import load_roster
    from game.session import default_roster_for, place_figures

    screen = open_deploy(app)
    click(app, screen.clear_button.rect.center)
    assert not screen.start_button.enabled
    key(app, pygame.K_RETURN)  # refused: figures are still in the tray
    assert isinstance(app.top, DeployScreen) and screen.message_error and "tray" in screen.message
    click(app, screen.auto_button.rect.center)
    assert not screen.unplaced() and screen.start_button.enabled
    loaded = load_map(FIELD)
    expected = place_figures(loaded, load_roster(default_roster_for(FIELD, loaded)))
    assert {f["id"]: Hex(*f["hex"]) for f in expected} == {p.id: p.hex for p in screen.pieces.values()}


def test_start_gives_a_battle_whose_figures_stand_where_they_were_dropped(app: App) -> None:
    screen = open_deploy(app)
    click(app, screen.clear_button.rect.center)
    rect, piece = screen.tray_rows()[0]
    target = visible(screen, screen.legal_hexes(piece.id))[7]
    drag(app, rect.center, point(screen, target))
    key(app, pygame.K_q)
    facing = screen.pieces[piece.id].facing
    click(app, screen.auto_button.rect.center)
    for b in screen.side_buttons:  # first side human -> tactical, second tactical -> veteran
        click(app, b.rect.center)
    for _ in range(3):  # tactical -> veteran -> novice -> human again (no "random" on offer)
        click(app, screen.side_buttons[0].rect.center)
    assert [screen.controllers[s] for s in screen.side_ids] == ["human", "veteran"]
    click(app, screen.gm_button.rect.center)
    assert screen.gm == GM_REFEREE
    where = {p.id: (p.hex, p.facing) for p in screen.pieces.values()}
    key(app, pygame.K_RETURN)
    battle_screen = app.top
    assert isinstance(battle_screen, BattleScreen)
    battle = battle_screen.battle
    assert {f.id: (f.hex, f.facing) for f in battle.figures.values()} == where
    assert battle.figures[piece.id].hex == target and battle.figures[piece.id].facing == facing
    assert battle_screen.session.setup_data["gm"] == GM_REFEREE
    assert [s.controller for s in battle.sides.values()] == [screen.controllers[s] for s in screen.side_ids]


def test_gm_seat_offers_only_human_sides(app: App) -> None:
    screen = open_deploy(app, side_controllers=(("blue", "human"), ("red", "tactical")))
    assert screen.gm_choices() == [None, GM_REFEREE, "blue"]
    click(app, screen.gm_button.rect.center)
    click(app, screen.gm_button.rect.center)
    assert screen.gm == "blue"
    click(app, screen.side_buttons[screen.side_ids.index("blue")].rect.center)  # blue -> computer
    assert screen.gm is None and "GM" in screen.message


def test_hovering_a_tray_figure_shows_a_tooltip(app: App) -> None:
    screen = open_deploy(app)
    click(app, screen.clear_button.rect.center)
    rect, piece = screen.tray_rows()[0]
    move(app, rect.center)
    app.tick(1.0)
    assert screen.tooltip.shown and piece.name in screen.tooltip.text


def test_the_top_bar_count_keeps_clear_of_the_maps_name(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 1024×640 and 125 % "11 of 11 figures placed" ran over "Deployment — The Wyrm's Hollow"."""
    app.ui.update_settings(dataclasses.replace(app.ui.settings, ui_scale=1.25))
    screen = open_deploy(app, ROOT / "maps" / "wyrm_hollow.tmx")
    screen.on_resize((1024, 640))
    drawn: dict[str, pygame.Rect] = {}
    original = app.ui.text.blit

    def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        rect = original(surface, text, *args, **kwargs)
        drawn[text] = rect
        return rect

    monkeypatch.setattr(app.ui.text, "blit", record)
    screen.draw(pygame.Surface((1024, 640)))
    title = drawn["Deployment — The Wyrm's Hollow"]
    count = next(r for t, r in drawn.items() if t.endswith("figures placed"))
    assert not title.colliderect(count)
    assert count.right <= 1024
