"""Large figures on screen (FTC 5: "some creatures will be larger").

A figure covering 3 or 7 hexes is drawn as one token over its whole footprint, selected from any of its
hexes, previewed whole at the end of a move and deployed whole. The board tests draw plain views; the screen
tests drive the real window loop (SDL's dummy driver) with a troll and a dragon added to the meadow's roster.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.engine.creatures import footprint
from game.engine.hexgrid import Hex, distance, neighbor, neighbors
from game.ui import theme
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.board import Board, HexMapSource, default_layout
from game.ui.deploy_screen import DeployScreen
from game.ui.screens import BattleSetup
from game.ui.view import BoardView, PathView, TokenView, ZocView
from game.ui.widgets import TextCache
from tests.ui.conftest import click, key, move

ROOT = Path(__file__).resolve().parents[2]
FIELD = ROOT / "maps" / "open_field.tmx"
RED = (200, 40, 40)
BLUE = (40, 90, 220)

MONSTERS = """
[characters.troll]
name = "Troll"
strength = "Great"
scale = 2
footprint = 3
kind = "carnivore"
skills = { Club = "Good" }
weapons = ["Large Club"]

[characters.dragon]
name = "Dragon"
strength = "Good"
scale = 4
footprint = 7
kind = "carnivore"
skills = { Brawling = "Great" }
weapons = ["Fist"]

[[figures]]
character = "troll"
side = "red"
count = 1

[[figures]]
character = "dragon"
side = "red"
count = 1
"""


@pytest.fixture
def monster_roster(tmp_path: Path) -> Path:
    """The meadow's roster with a 3-hex troll and a 7-hex dragon for the brigands."""
    path = tmp_path / "monsters.roster.toml"
    path.write_text((FIELD.with_suffix(".roster.toml")).read_text(encoding="utf-8") + MONSTERS, encoding="utf-8")
    return path


def make_board() -> Board:
    from game.engine.terrain import TerrainMap

    pygame.display.init()
    terrain = TerrainMap.open(30, 20)
    layout = default_layout("y")
    return Board(layout, 30, 20, HexMapSource(terrain, layout), TextCache(), (0, 40, 960, 650))


def pixel(surface: pygame.Surface, board: Board, h: Hex) -> tuple[int, int, int]:
    x, y = board.camera.hex_to_screen(h)
    c = surface.get_at((round(x), round(y)))
    return (c.r, c.g, c.b)


# --- the board ----------------------------------------------------------------------------------------


def test_ftc_5_a_seven_hex_token_covers_every_hex_it_stands_on_and_no_other() -> None:
    board = make_board()
    centre = Hex(10, 8)
    cells = footprint(centre, 7, 3)
    dragon = TokenView("d", "Dragon", RED, centre, 3, cells=cells)
    knight = TokenView("k", "Knight", BLUE, Hex(14, 8), 3)
    bare, drawn = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    board.draw_direct(bare, BoardView([knight]))
    board.draw_direct(drawn, BoardView([dragon, knight]))
    for c in cells:
        assert pixel(drawn, board, c) != pixel(bare, board, c), c
    ring_hexes = {n for c in cells for n in neighbors(c)} - cells
    for n in ring_hexes:
        assert pixel(drawn, board, n) == pixel(bare, board, n), n  # one-hex neighbours keep their look
    # the side's colour rims the base just inside every outer hex, where a one-hex token's ring would be
    r = board.token_radius()
    ring = max(2, round(r) // 4)
    cx, cy = board.camera.hex_to_screen(centre)
    for c in cells - {centre, neighbor(centre, 3 + 3)}:  # the hex behind carries the wound pip on the rim
        x, y = board.camera.hex_to_screen(c)
        ux, uy = (x - cx), (y - cy)
        norm = (ux * ux + uy * uy) ** 0.5
        at = (round(x + ux / norm * (r - ring / 2)), round(y + uy / norm * (r - ring / 2)))
        got = drawn.get_at(at)
        assert (got.r, got.g, got.b) == RED, c


def test_ftc_5_a_three_hex_token_turns_with_its_footprint() -> None:
    board = make_board()
    centre = Hex(10, 8)
    bare = pygame.Surface((1280, 720))
    board.draw_direct(bare, BoardView([]))
    for facing in (0, 3):
        cells = footprint(centre, 3, facing)
        drawn = pygame.Surface((1280, 720))
        board.draw_direct(drawn, BoardView([TokenView("t", "Troll", RED, centre, facing, cells=cells)]))
        for c in cells:
            assert pixel(drawn, board, c) != pixel(bare, board, c), (facing, c)
        for n in {n for c in cells for n in neighbors(c)} - cells:
            assert pixel(drawn, board, n) == pixel(bare, board, n), (facing, n)


def test_ftc_5_any_hex_of_a_large_token_is_the_token() -> None:
    board = make_board()
    dragon = TokenView("d", "Dragon", RED, Hex(10, 8), 0, cells=footprint(Hex(10, 8), 7, 0))
    knight = TokenView("k", "Knight", BLUE, Hex(14, 8), 3)
    for c in dragon.cells:
        assert board.token_at([knight, dragon], *board.camera.hex_to_screen(c)) is dragon
    assert board.token_at([knight, dragon], *board.camera.hex_to_screen(Hex(14, 8))) is knight
    assert board.token_at([knight, dragon], *board.camera.hex_to_screen(Hex(12, 8))) is None


def test_board_cached_frame_with_large_figures_is_the_layered_drawing() -> None:
    """Hover over a large body, a path ending in a footprint, a large zone of control: the cached frame
    stays pixel for pixel the layer-by-layer drawing (and no slower path is taken for one-hex tokens)."""
    board = make_board()
    dragon = TokenView("d", "Dragon", RED, Hex(10, 8), 3, selected=True, cells=footprint(Hex(10, 8), 7, 3))
    troll = TokenView("t", "Troll", RED, Hex(6, 12), 1, 2, badge="+1 hill", cells=footprint(Hex(6, 12), 3, 1))
    small = [TokenView(f"s{i}", f"Man {i}", BLUE, Hex(14 + i % 3, 4 + i), 3) for i in range(6)]
    zoc = ZocView(
        Hex(10, 8),
        3,
        RED,
        frozenset(
            {neighbor(c, d) for c in footprint(Hex(10, 8), 7, 3) for d in (2, 3, 4)} - footprint(Hex(10, 8), 7, 3)
        ),
    )
    cached, direct = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    for zoom_step in (0, 1, -2):
        board.camera.zoom_at(zoom_step, 400, 300)
        for k, hover in enumerate([*sorted(dragon.cells), Hex(7, 12), Hex(12, 3)]):
            end = Hex(7 + k % 3, 8)
            path = PathView(
                (Hex(10, 8), end), step_labels=("", f"{k}/8"), final_facing=k % 6, end_cells=footprint(end, 7, k % 6)
            )
            view = BoardView([dragon, troll, *small], [], path, None, [zoc], hover, None, frozenset({"t"}))
            board.draw(cached, view)
            board.draw_direct(direct, view)
            assert pygame.image.tobytes(cached, "RGB") == pygame.image.tobytes(direct, "RGB"), (zoom_step, k)


# --- the battle screen ----------------------------------------------------------------------------------


def open_monster_battle(app: App, roster: Path) -> BattleScreen:
    from dataclasses import replace

    from game.session import new_session

    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)
    session = new_session(FIELD, roster, seed=3, controllers={"blue": "human", "red": "human"}, autosave=False)
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    app.pump()
    lift_curtain(app)
    assert app.top is screen
    return screen


def lift_curtain(app: App) -> None:
    """Press Enter while the hotseat hand-off curtain is up."""
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)


def spot(screen: BattleScreen, h: Hex) -> tuple[int, int]:
    x, y = screen.board.camera.hex_to_screen(h)
    return round(x), round(y)


def show(screen: BattleScreen, h: Hex) -> None:
    """Centre the camera on a hex, clear of the decision panel."""
    screen.board.camera.center_on(*screen.board.layout.hex_center(h))
    screen._view = None


def test_ftc_5_clicking_any_hex_of_the_dragon_selects_it(app: App, monster_roster: Path) -> None:
    screen = open_monster_battle(app, monster_roster)
    b = screen.battle
    dragon = next(f for f in b.figures.values() if f.size == 7)
    d = screen.decision()
    assert d is not None and d.figure != dragon.id
    token = next(t for t in screen.tokens() if t.id == dragon.id)
    assert token.cells == dragon.cells and len(token.cells) == 7
    for cell in sorted(dragon.cells - {dragon.hex}):
        show(screen, dragon.hex)
        screen.selection.figure = None
        click(app, spot(screen, cell))
        assert screen.selection.figure == dragon.id, cell
    view = screen.board_view()
    zone = next(z for z in view.zocs if z.hex == dragon.hex)
    assert zone.front == b.zone(dragon) and zone.front  # its zone of control comes from its front (FTC 5.2)


def test_ftc_5_the_path_preview_shows_the_whole_body_where_it_ends(app: App, monster_roster: Path) -> None:
    screen = open_monster_battle(app, monster_roster)
    b = screen.battle
    dragon = next(f for f in b.figures.values() if f.size == 7)
    for _ in range(len(b.figures)):
        d = screen.my_decision()
        if d is None or d.figure == dragon.id or d.reason != "move":
            break
        screen.moves.cmd_stay()
        lift_curtain(app)
    d = screen.my_decision()
    assert d is not None and d.reason == "move" and d.figure == dragon.id
    reach = screen.model.reach(dragon.id)
    goal = min((h for h in reach.hexes() if h not in dragon.cells), key=lambda h: (distance(h, dragon.hex), h))
    show(screen, goal)
    move(app, spot(screen, goal))
    path = screen.board_view().path
    assert path is not None and path.hexes[-1] == goal
    assert path.end_cells == footprint(goal, 7, path.final_facing or 0)
    # the drawn frame outlines that footprint in the path's colour on the hexes the body does not cover now
    surface = pygame.display.get_surface()
    screen.draw(surface)
    outside = sorted(path.end_cells - dragon.cells)
    assert outside
    tinted = [pixel(surface, screen.board, c) for c in outside]
    bare = pygame.Surface(surface.get_size())
    screen.board.draw_direct(bare, BoardView(screen.tokens()))
    assert all(t != pixel(bare, screen.board, c) for t, c in zip(tinted, outside, strict=True))
    click(app, spot(screen, goal))
    assert b.figure(dragon.id).hex == goal and b.cells_of(dragon.id) == footprint(goal, 7, b.figure(dragon.id).facing)


# --- the deployment screen ------------------------------------------------------------------------------


def open_deploy(app: App, roster: Path) -> DeployScreen:
    app.apply(app.start_battle(BattleSetup(FIELD, roster, seed=4)))
    app.pump()
    screen = app.top
    assert isinstance(screen, DeployScreen)
    return screen


def press(app: App, pos: tuple[int, int]) -> None:
    move(app, pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.pump()


def carry(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    app.pump()


def release(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.pump()


def deploy_point(screen: DeployScreen, h: Hex) -> tuple[int, int]:
    x, y = screen.board.camera.hex_to_screen(h)
    return round(x), round(y)


def test_ftc_5_deploying_the_dragon_refuses_a_spot_with_one_hex_taken_and_takes_a_free_one(
    app: App, monster_roster: Path
) -> None:
    screen = open_deploy(app, monster_roster)
    dragon = next(p for p in screen.pieces.values() if p.size == 7)
    zone = screen.data.zones["red"]
    terrain = screen.data.terrain
    taken = {p.hex: p for p in screen.pieces.values() if p.hex is not None}

    def blocked_once(h: Hex) -> bool:
        cells = footprint(h, 7, dragon.facing)
        return (
            cells <= zone
            and all(terrain.is_passable(c) for c in cells)
            and sum(c in taken for c in cells) == 1
            and h not in taken
        )

    bad = next(h for h in sorted(zone) if blocked_once(h))
    good = sorted(screen.legal_hexes(dragon.id))[0]
    row = next(r for r, p in screen.tray_rows() if p.id == dragon.id)
    press(app, row.center)
    carry(app, deploy_point(screen, bad))
    fills = screen.board_view().fills
    assert fills[-1].hexes == footprint(bad, 7, dragon.facing) and fills[-1].colour == theme.DANGER
    release(app, deploy_point(screen, bad))
    blocker = next(taken[c] for c in footprint(bad, 7, dragon.facing) if c in taken)
    assert dragon.hex is None and screen.message_error and blocker.name in screen.message
    row = next(r for r, p in screen.tray_rows() if p.id == dragon.id)
    press(app, row.center)
    carry(app, deploy_point(screen, good))
    assert screen.board_view().fills[-1].colour == theme.ACCENT
    release(app, deploy_point(screen, good))
    assert dragon.hex == good
    for c in footprint(good, 7, dragon.facing):
        assert screen.occupant(c) is dragon
    token = next(t for t in screen.tokens() if t.id == dragon.id)
    assert token.cells == footprint(good, 7, dragon.facing)


def test_ftc_5_the_troll_turns_its_footprint_in_hand_and_auto_deploy_places_it_whole(
    app: App, monster_roster: Path
) -> None:
    screen = open_deploy(app, monster_roster)
    troll = next(p for p in screen.pieces.values() if p.size == 3)
    h = sorted(screen.legal_hexes(troll.id))[len(screen.legal_hexes(troll.id)) // 2]
    row = next(r for r, p in screen.tray_rows() if p.id == troll.id)
    press(app, row.center)
    carry(app, deploy_point(screen, h))
    before = troll.facing
    assert screen.board_view().fills[-1].hexes == footprint(h, 3, before)
    key(app, pygame.K_q)
    assert troll.facing == (before + 1) % 6
    assert screen.board_view().fills[-1].hexes == footprint(h, 3, troll.facing)
    key(app, pygame.K_ESCAPE)  # put it down nowhere: back to the tray
    assert troll.hex is None
    click(app, screen.auto_button.rect.center)
    assert not screen.unplaced()
    seen: set[Hex] = set()
    for p in screen.pieces.values():
        cells = p.cells()
        assert seen.isdisjoint(cells), p.name
        seen |= cells
    for p in (troll, next(p for p in screen.pieces.values() if p.size == 7)):
        assert p.cells() <= screen.data.zones["red"]
    click(app, screen.start_button.rect.center)
    assert isinstance(app.top, (BattleScreen, CurtainScreen))
