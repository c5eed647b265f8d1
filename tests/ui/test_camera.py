"""Hex layout and camera: Tiled's geometry for both orientations, exact picking, pan and zoom."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.hexgrid import Hex, neighbor
from game.ui.camera import ZOOM_LEVELS, Camera, HexLayout

STAGGERS = [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")]


def layout_for(axis: str, index: str, w: int = 56, h: int = 64, side: int = 32) -> HexLayout:
    """A pointy-top layout for y, a flat-top one (width and height swapped) for x."""
    return HexLayout(w, h, side, axis, index) if axis == "y" else HexLayout(h, w, side, axis, index)


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_picking_every_hex_centre_returns_that_hex(axis: str, index: str) -> None:
    lay = layout_for(axis, index)
    for row in range(-2, 12):
        for col in range(-2, 12):
            h = lay.hex_of(col, row)
            assert lay.pixel_to_hex(*lay.cell_center(col, row)) == h
            assert lay.pixel_to_cell(*lay.hex_center(h)) == (col, row)


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_hex_centres_are_tiled_cell_centres(axis: str, index: str) -> None:
    """Tiled puts cell (col, row) at col * tile width (+ half a tile on staggered rows), rows at rowHeight."""
    lay = layout_for(axis, index, 64, 56, 32) if axis == "y" else HexLayout(64, 56, 32, axis, index)
    staggered_first = index == "even"
    if axis == "y":
        assert lay.row_height == (56 - 32) // 2 + 32
        assert lay.cell_origin(0, 0) == ((32 if staggered_first else 0), 0)
        assert lay.cell_origin(2, 1) == (128 + (0 if staggered_first else 32), 44)
    else:
        assert lay.column_width == (64 - 32) // 2 + 32
        assert lay.cell_origin(0, 0) == (0, 28 if staggered_first else 0)
        assert lay.cell_origin(1, 2) == (48, 112 + (0 if staggered_first else 28))


@pytest.mark.parametrize(("axis", "index"), STAGGERS)
def test_layout_agrees_with_the_map_renderers_geometry(axis: str, index: str) -> None:
    geometry = pytest.importorskip("game.maps.geometry")
    for w, h, side in ((56, 64, 32), (64, 56, 28), (72, 64, 20), (30, 26, 0)):
        ours = HexLayout(w, h, side, axis, index)
        theirs = geometry.HexLayout(12, 9, w & ~1, h & ~1, side, axis == "x", index == "even")
        assert ours.map_size(12, 9) == theirs.map_size()
        for row in range(9):
            for col in range(12):
                assert ours.cell_center(col, row) == pytest.approx(theirs.cell_center(col, row))


def test_directions_follow_the_hexgrid_compass() -> None:
    """hexgrid: pointy-top 0 = east, 2 = north-west; flat-top 0 = south-east, 2 = north (y grows down)."""
    pointy = layout_for("y", "odd")
    dx, dy = pointy.direction_vector(0)
    assert dx > 0 and dy == 0
    dx, dy = pointy.direction_vector(2)
    assert dx < 0 and dy < 0
    flat = layout_for("x", "odd")
    dx, dy = flat.direction_vector(2)
    assert dx == 0 and dy < 0
    dx, dy = flat.direction_vector(0)
    assert dx > 0 and dy > 0
    for d in range(6):
        h = Hex(3, 4)
        step = pointy.direction_vector(d)
        c0, c1 = pointy.hex_center(h), pointy.hex_center(neighbor(h, d))
        assert (c1[0] - c0[0], c1[1] - c0[1]) == pytest.approx(step)


@given(
    st.sampled_from(STAGGERS),
    st.integers(20, 90),
    st.integers(20, 90),
    st.integers(0, 40),
    st.floats(-300, 1500),
    st.floats(-300, 1500),
)
def test_picking_is_exact_point_in_hex(stagger: tuple[str, str], w: int, h: int, side: int, x: float, y: float) -> None:
    """Whatever the tile shape, the picked hex's outline contains the point (up to rounding at an edge)."""
    axis, index = stagger
    limit = (h if axis == "y" else w) & ~1
    lay = HexLayout(w, h, min(side, limit), axis, index)
    picked = lay.pixel_to_hex(x, y)
    assert lay._margin(picked, x, y) >= -1e-6
    # And no neighbour contains it more deeply.
    for d in range(6):
        assert lay._margin(neighbor(picked, d), x, y) <= lay._margin(picked, x, y) + 1e-9


@given(st.sampled_from(STAGGERS), st.integers(-40, 40), st.integers(-40, 40))
def test_hex_to_pixel_round_trip(stagger: tuple[str, str], q: int, r: int) -> None:
    lay = layout_for(*stagger)
    assert lay.pixel_to_hex(*lay.hex_center(Hex(q, r))) == Hex(q, r)


def test_zoom_around_the_cursor_keeps_the_point_under_it() -> None:
    lay = layout_for("y", "odd")
    cam = Camera(lay, lay.map_size(60, 40), (0, 40, 960, 650))
    cam.center_on(1500, 1000)
    before = cam.screen_to_map(300, 200)
    assert cam.zoom_at(1, 300, 200)
    after = cam.screen_to_map(300, 200)
    assert after == pytest.approx(before)
    assert cam.zoom == ZOOM_LEVELS[ZOOM_LEVELS.index(1.0) + 1]


def test_zoom_is_clamped_to_the_ladder() -> None:
    lay = layout_for("x", "even")
    cam = Camera(lay, lay.map_size(20, 20), (0, 0, 800, 600))
    for _ in range(30):
        cam.zoom_at(1, 400, 300)
    assert cam.zoom == ZOOM_LEVELS[-1]
    assert not cam.zoom_at(1, 400, 300)
    for _ in range(30):
        cam.zoom_at(-1, 400, 300)
    assert cam.zoom == ZOOM_LEVELS[0]


def test_pan_is_clamped_to_keep_the_map_in_sight() -> None:
    lay = layout_for("y", "odd")
    size = lay.map_size(60, 40)
    cam = Camera(lay, size, (0, 0, 800, 600))
    cam.pan(10**6, 10**6)
    x, y, w, h = cam.visible_map_rect()
    assert x < size[0] and y < size[1]
    assert x + w > size[0] and y + h > size[1]
    cam.pan(-(10**6), -(10**6))
    x, y, _, _ = cam.visible_map_rect()
    assert x < 0 and y < 0 and x > -w and y > -h


def test_fit_shows_the_whole_map() -> None:
    lay = layout_for("y", "odd")
    size = lay.map_size(30, 20)
    cam = Camera(lay, size, (0, 40, 960, 650))
    cam.fit()
    x, y, w, h = cam.visible_map_rect()
    assert x <= 0 and y <= 0 and x + w >= size[0] and y + h >= size[1]
    assert not math.isclose(cam.zoom, ZOOM_LEVELS[0])


def test_screen_to_hex_and_back() -> None:
    lay = layout_for("x", "odd")
    cam = Camera(lay, lay.map_size(30, 20), (10, 40, 900, 600))
    cam.zoom_at(2, 300, 300)
    for h in (Hex(3, 4), Hex(10, -2), Hex(7, 7)):
        assert cam.screen_to_hex(*cam.hex_to_screen(h)) == h


def test_a_map_smaller_than_the_view_stays_centred_unless_the_focus_pans_it_loose() -> None:
    """A player's pan or a resize keeps a small map in the middle; the battle's focus (a loose pan) may move it
    within the view, a quarter past its edge at most, to bring a figure clear of a tall panel."""
    lay = layout_for("y", "odd")
    size = lay.map_size(10, 8)
    cam = Camera(lay, size, (0, 0, 1600, 1000))
    centred = ((size[0] - 1600) / 2, (size[1] - 1000) / 2)
    cam.pan(300, 200)
    assert (cam.origin_x, cam.origin_y) == pytest.approx(centred)
    cam.pan(-300, -200, loose=True)
    assert cam.origin_x < centred[0] and cam.origin_y < centred[1]
    cam.pan(10**6, 10**6, loose=True)
    x, y, _, _ = cam.visible_map_rect()
    assert x == pytest.approx(size[0] * 0.25) and y == pytest.approx(size[1] * 0.25)
    cam.clamp()
    assert (cam.origin_x, cam.origin_y) == pytest.approx(centred)
