"""The board: map cached per zoom level, overlays and tokens drawn from plain views (issue 5, "The board")."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.engine.hexgrid import Hex, neighbor
from game.engine.terrain import TerrainMap
from game.ui import theme
from game.ui.board import Board, HexMapSource, default_layout
from game.ui.mapdata import generated_field, open_map
from game.ui.view import BoardView, HexFill, LineOfFireView, LofMark, PathView, TokenView, ZocView
from game.ui.widgets import TextCache

MAPS = Path(__file__).resolve().parents[2] / "maps"


class CountingSource:
    """A map source that counts how often it is asked to draw."""

    def __init__(self, inner: HexMapSource) -> None:
        self.inner = inner
        self.calls = 0

    def render_chunk(self, zoom: float, rect: pygame.Rect) -> pygame.Surface:
        self.calls += 1
        return self.inner.render_chunk(zoom, rect)


@pytest.fixture
def surface() -> pygame.Surface:
    pygame.display.init()
    return pygame.Surface((1280, 720))


def make_board(axis: str = "y") -> tuple[Board, CountingSource, TerrainMap]:
    terrain = TerrainMap.open(30, 20, stagger_axis=axis)
    layout = default_layout(axis)
    source = CountingSource(HexMapSource(terrain, layout))
    board = Board(layout, 30, 20, source, TextCache(), (0, 40, 960, 650))
    return board, source, terrain


def full_view(terrain: TerrainMap) -> BoardView:
    """Every kind of overlay at once, as the battle will feed them."""
    tokens = [TokenView(f"t{i}", f"Figure {i}", theme.NORMAL.side_colour(i % 2), terrain.hex_at(2 + i % 8, 2 + i // 8),
                        i % 6, i % 7, i % 9 == 8, i == 3) for i in range(40)]
    reach = frozenset(terrain.hex_at(c, r) for c in range(10, 16) for r in range(5, 11))
    path = PathView((Hex(10, 5), Hex(11, 5), Hex(12, 5)), step_labels=("", "1", "2"), final_facing=0)
    lof = LineOfFireView(Hex(3, 3), Hex(12, 8), (LofMark(Hex(6, 5), "cover", "−1"), LofMark(Hex(9, 6), "bystander")))
    return BoardView(tokens, [HexFill(reach, theme.NORMAL.move_free)], path, lof,
                     [ZocView(Hex(5, 5), 0, theme.NORMAL.sides[0])], Hex(4, 4), Hex(5, 5), frozenset({"t5"}))


def test_map_chunks_are_drawn_once_per_zoom_level(surface: pygame.Surface) -> None:
    board, source, terrain = make_board()
    view = full_view(terrain)
    board.draw(surface, view)
    first = source.calls
    assert first > 0
    for _ in range(5):
        board.draw(surface, view)
    assert source.calls == first  # panning-free redraws reuse the cached chunks
    board.camera.zoom_at(1, 400, 300)
    board.draw(surface, view)
    assert source.calls > first
    after_zoom = source.calls
    board.camera.zoom_at(-1, 400, 300)
    board.draw(surface, view)
    assert source.calls == after_zoom  # the previous level is still cached


@pytest.mark.parametrize("axis", ["x", "y"])
def test_every_overlay_draws_at_every_zoom(surface: pygame.Surface, axis: str) -> None:
    board, _, terrain = make_board(axis)
    view = full_view(terrain)
    for _ in range(12):
        board.draw(surface, view)
        board.camera.zoom_at(1, 300, 300)


def test_token_sprites_are_cached_by_look(surface: pygame.Surface) -> None:
    board, _, terrain = make_board()
    view = full_view(terrain)
    board.draw(surface, view)
    n = len(board._sprites)
    assert 0 < n <= 40
    board.draw(surface, view)
    assert len(board._sprites) == n


def test_token_facing_notch_points_across_its_side(surface: pygame.Surface) -> None:
    """The notch is drawn toward the neighbour the figure faces (FTC 5.2: facing is a hex side)."""
    board, _, _ = make_board("y")
    board.camera.zoom_at(3, 480, 360)
    board.palette = theme.NORMAL
    colour = (250, 20, 200)
    for facing in range(6):
        token = TokenView("x", "Xan", colour, Hex(8, 8), facing)
        sprite = board._token_sprite(token)
        c = sprite.get_width() / 2
        dx, dy = board.layout.direction_vector(facing)
        length = (dx * dx + dy * dy) ** 0.5
        r = board.token_radius()
        tip = (round(c + dx / length * (r + 1)), round(c + dy / length * (r + 1)))
        assert sprite.get_at(tip)[:3] == colour
        back = (round(c - dx / length * (r + 2)), round(c - dy / length * (r + 2)))
        assert sprite.get_at(back).a == 0 or sprite.get_at(back)[:3] != colour


def test_hexes_are_coloured_by_terrain(surface: pygame.Surface) -> None:
    data = generated_field()
    assert {t.name for t in data.terrain.types} >= {"open", "forest", "water"}
    board = Board(data.layout, 30, 20, data.source, TextCache(), (0, 0, 1280, 720))
    board.draw(surface, BoardView())
    open_hex = next(h for h in data.terrain.hexes() if data.terrain.type_at(h).name == "open")
    water_hex = next(h for h in data.terrain.hexes() if data.terrain.type_at(h).name == "water")
    a = surface.get_at(tuple(round(v) for v in board.camera.hex_to_screen(open_hex)))
    b = surface.get_at(tuple(round(v) for v in board.camera.hex_to_screen(water_hex)))
    assert a != b
    assert b.b > b.g  # water is blue


def test_zone_of_control_covers_the_three_front_hexes(surface: pygame.Surface) -> None:
    board, _, _ = make_board()
    board.draw(surface, BoardView())
    h = Hex(8, 8)
    front = neighbor(h, 0)
    behind = neighbor(h, 3)
    pf = tuple(round(v) for v in board.camera.hex_to_screen(front))
    pb = tuple(round(v) for v in board.camera.hex_to_screen(behind))
    before_front, before_back = surface.get_at(pf), surface.get_at(pb)
    board.draw(surface, BoardView(zocs=[ZocView(h, 0, (255, 0, 0))]))
    assert surface.get_at(pf) != before_front
    assert surface.get_at(pb) == before_back


@pytest.mark.skipif(not any(MAPS.glob("*.tmx")), reason="no shipped maps yet")
def test_shipped_maps_open_with_their_figures() -> None:
    pygame.display.init()
    for path in sorted(MAPS.glob("*.tmx")):
        data = open_map(path)
        assert data.terrain.width > 0 and data.figures
        for f in data.figures:
            assert data.terrain.contains(f.hex)
        for col, row in ((0, 0), (data.terrain.width - 1, data.terrain.height - 1)):
            assert data.layout.pixel_to_cell(*data.layout.cell_center(col, row)) == (col, row)
