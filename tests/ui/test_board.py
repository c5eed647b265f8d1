"""The board: map cached per zoom level, overlays and tokens drawn from plain views."""

from __future__ import annotations

from dataclasses import replace
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
    tokens = [
        TokenView(
            f"t{i}",
            f"Figure {i}",
            theme.NORMAL.side_colour(i % 2),
            terrain.hex_at(2 + i % 8, 2 + i // 8),
            i % 6,
            i % 7,
            i % 9 == 8,
            i == 3,
        )
        for i in range(40)
    ]
    reach = frozenset(terrain.hex_at(c, r) for c in range(10, 16) for r in range(5, 11))
    path = PathView((Hex(10, 5), Hex(11, 5), Hex(12, 5)), step_labels=("", "1", "2"), final_facing=0)
    lof = LineOfFireView(Hex(3, 3), Hex(12, 8), (LofMark(Hex(6, 5), "cover", "−1"), LofMark(Hex(9, 6), "bystander")))
    return BoardView(
        tokens,
        [HexFill(reach, theme.NORMAL.move_free)],
        path,
        lof,
        [ZocView(Hex(5, 5), 0, theme.NORMAL.sides[0])],
        Hex(4, 4),
        Hex(5, 5),
        frozenset({"t5"}),
    )


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
    """At every zoom level, with the camera on an overlay's hex, taking that overlay out of the view
    changes the picture: each one (fills, path, line of fire, zone of control, hover, selection) is drawn."""
    board, _, terrain = make_board(axis)
    view = full_view(terrain)
    assert view.path is not None and view.line_of_fire is not None and view.hover and view.selected
    overlays: list[tuple[str, object, Hex]] = [
        ("fills", [], terrain.hex_at(12, 7)),
        ("path", None, view.path.hexes[1]),
        ("line_of_fire", None, view.line_of_fire.marks[0].hex),
        ("zocs", [], view.zocs[0].hex),
        ("hover", None, view.hover),
        ("selected", None, view.selected),
    ]
    without = pygame.Surface(surface.get_size())
    board.camera.zoom_index = 0
    zooms = 0
    while True:
        zooms += 1
        for name, empty, where in overlays:
            board.camera.center_on(*board.layout.hex_center(where))
            board.draw(surface, view)
            board.draw(without, replace(view, **{name: empty}))
            assert pygame.image.tobytes(surface, "RGB") != pygame.image.tobytes(without, "RGB"), (
                f"{name} not drawn at zoom {board.camera.zoom}"
            )
        if not board.camera.zoom_at(1, 300, 300):
            break
    assert zooms == 11


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


def _whole_image_source(path: Path) -> tuple[object, object]:
    """The old way: the whole Tiled image at 1:1 on the background, scaled chunk by chunk."""
    from game.maps.loader import load_map
    from game.maps.render import offset_margins, render_map
    from game.ui.board import SurfaceMapSource
    from game.ui.mapdata import TiledMapSource, layout_of

    loaded = load_map(path)
    layout = layout_of(loaded.layout)
    left, top, _, _ = offset_margins(loaded)
    base = pygame.Surface(layout.map_size(loaded.tmx.width, loaded.tmx.height))
    base.fill(theme.BACKGROUND)
    base.blit(render_map(loaded), (-left, -top))
    return (
        SurfaceMapSource(base, layout, loaded.tmx.width, loaded.tmx.height, grid=False),
        TiledMapSource(loaded, layout, grid=False),
    )


@pytest.mark.skipif(not (MAPS / "village.tmx").is_file(), reason="no shipped village map")
def test_board_tiled_chunks_assemble_to_render_maps_picture() -> None:
    """Chunks drawn lazily at 1:1 put together are render_map's image pixel for pixel."""
    pygame.display.init()
    whole, lazy = _whole_image_source(MAPS / "village.tmx")
    w, h = lazy.size  # type: ignore[attr-defined]
    assembled = pygame.Surface((w, h))
    for j in range(0, h, 512):
        for i in range(0, w, 512):
            assembled.blit(lazy.render_chunk(1.0, pygame.Rect(i, j, 512, 512)), (i, j))  # type: ignore[attr-defined]
    expected = whole.base  # type: ignore[attr-defined]
    assert pygame.image.tobytes(assembled, "RGB") == pygame.image.tobytes(expected, "RGB")


@pytest.mark.skipif(not (MAPS / "forest_road.tmx").is_file(), reason="no shipped forest map")
@pytest.mark.parametrize("zoom", [0.25, 0.5, 0.7, 1.4])
def test_board_tiled_chunks_match_the_scaled_whole_image_at_every_zoom(zoom: float) -> None:
    pygame.display.init()
    whole, lazy = _whole_image_source(MAPS / "forest_road.tmx")
    for rect in (pygame.Rect(0, 0, 512, 512), pygame.Rect(512, 0, 512, 512), pygame.Rect(512, 512, 512, 512)):
        a = whole.render_chunk(zoom, rect)  # type: ignore[attr-defined]
        b = lazy.render_chunk(zoom, rect)  # type: ignore[attr-defined]
        assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"), (zoom, rect)


def test_board_open_map_draws_no_whole_image() -> None:
    """A board is ready after drawing only the chunks it shows (the source never renders the full map)."""
    from game.maps import render
    from game.ui.mapdata import TiledMapSource

    pygame.display.init()
    calls: list[int] = []
    original = render.render_map
    render.render_map = lambda loaded: calls.append(1) or original(loaded)  # type: ignore[assignment]
    try:
        data = open_map(MAPS / "village.tmx")
    finally:
        render.render_map = original  # type: ignore[assignment]
    assert calls == []
    assert isinstance(data.source, TiledMapSource)
    board = Board(data.layout, data.terrain.width, data.terrain.height, data.source, TextCache(), (0, 0, 600, 400))
    board.prepare()
    assert 0 < len(board._chunks) <= 4


@pytest.mark.parametrize("axis", ["x", "y"])
def test_board_cached_frame_is_pixel_for_pixel_the_layered_drawing(axis: str) -> None:
    """The still layers are cached and the tokens restored under a moving path / line of fire / hover, and
    the frame is still exactly what drawing every layer in order gives (paths under tokens, labels on top)."""
    pygame.display.init()
    board, _, terrain = make_board(axis)
    base = full_view(terrain)
    labels = [(Hex(11, 6), "50%"), (Hex(4, 4), "83%")]
    cached, direct = pygame.Surface((1280, 720)), pygame.Surface((1280, 720))
    goals = [Hex(10 + k % 5, 5 + k // 5) for k in range(10)]
    for zoom_step in (0, 1, -2):
        board.camera.zoom_at(zoom_step, 400, 300)
        for k, goal in enumerate(goals):
            path = PathView(
                (Hex(3, 3), Hex(4, 3), Hex(5, 3), goal), step_labels=("", "1", "2", f"{k}/8"), final_facing=k % 6
            )
            lof = LineOfFireView(
                Hex(2, 2), goal, (LofMark(Hex(5, 4), "cover", "−1"), LofMark(goal, "blocked")), k % 2 == 0
            )
            view = BoardView(
                base.tokens,
                base.fills,
                path,
                lof if k % 3 else None,
                base.zocs,
                goal,
                Hex(5, 5) if k % 2 else None,
                base.highlighted,
            )
            board.draw(cached, view, labels)
            board.draw_direct(direct, view, labels)
            assert pygame.image.tobytes(cached, "RGB") == pygame.image.tobytes(direct, "RGB"), (zoom_step, k)


def test_board_still_layers_are_redrawn_only_when_they_change(surface: pygame.Surface) -> None:
    board, _, terrain = make_board()
    view = full_view(terrain)
    board.draw(surface, view)
    builds = board.static_builds
    for goal in (Hex(11, 6), Hex(12, 6), Hex(12, 7)):  # the mouse moves: only the path and hover change
        moved = BoardView(
            list(view.tokens),
            list(view.fills),
            PathView((Hex(10, 5), goal)),
            view.line_of_fire,
            list(view.zocs),
            goal,
            view.selected,
            view.highlighted,
        )
        board.draw(surface, moved)
    assert board.static_builds == builds
    hurt = [TokenView(t.id, t.name, t.side_colour, t.hex, t.facing, 3) if t.id == "t0" else t for t in view.tokens]
    board.draw(surface, BoardView(hurt, view.fills, view.path, view.line_of_fire, view.zocs, view.hover))
    assert board.static_builds == builds + 1
    board.camera.pan(30, 0)
    board.draw(surface, BoardView(hurt, view.fills, view.path, view.line_of_fire, view.zocs, view.hover))
    assert board.static_builds == builds + 2


@pytest.mark.parametrize("origin", [86.42857142857144, 0.0, 13.3, 731.4285714285714])
def test_board_map_chunks_meet_without_a_gap_at_any_origin(surface: pygame.Surface, origin: float) -> None:
    """The map's 512-pixel chunks are placed with one rounding: a camera origin that puts a chunk's edge on a
    half pixel (86.43 map pixels at 70 %: 60.500…01 on screen) leaves no column of background between two."""
    from game.ui.camera import ZOOM_LEVELS

    terrain = TerrainMap.open(30, 20)
    layout = default_layout("y")
    board = Board(layout, 30, 20, HexMapSource(terrain, layout, grid=False), TextCache(), (0, 40, 960, 650))
    board.camera.zoom_index = ZOOM_LEVELS.index(0.7)
    board.camera.origin_x, board.camera.origin_y = origin, 40.0
    surface.fill((0, 0, 0))
    board.draw(surface, BoardView())
    left = board.camera.map_to_screen(0, 0)[0]
    right = board.camera.map_to_screen(*layout.map_size(30, 20))[0]
    inside = range(max(0, int(left) + 60), min(960, int(right) - 60))  # clear of the map's ragged edges
    assert len(inside) > 400
    gaps = [x for x in inside if surface.get_at((x, 300))[:3] == theme.BACKGROUND]
    assert gaps == []
