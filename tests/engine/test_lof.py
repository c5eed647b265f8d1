"""Exact line of fire (FTC 6.5.3 "crosses through any part of the hex"; docs/rulings.md "Line of fire",
"Misses")."""

from __future__ import annotations

import random
from collections import deque
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.hexgrid import Hex, distance, neighbors, within
from game.engine.lof import (
    LineHex,
    hexes_crossed,
    line_hexes,
    line_of_fire,
    lines_of_fire,
    risk_hexes,
)
from game.engine.terrain import TerrainMap, TerrainType

F = Fraction

# --- an independent brute force: the hexagon as a polygon --------------------------------------------
# The affine map (q, r) -> (x, y) = (q + r/2, r) takes the axial lattice to the drawn layout up to a
# stretch of each axis, which keeps incidence; a hex's corners lie a third of the way to its neighbours'
# centres, counter-clockwise here.
_CORNERS_QR = (
    (F(2, 3), F(-1, 3)),
    (F(1, 3), F(1, 3)),
    (F(-1, 3), F(2, 3)),
    (F(-2, 3), F(1, 3)),
    (F(-1, 3), F(-1, 3)),
    (F(1, 3), F(-2, 3)),
)


def _xy(q: Fraction, r: Fraction) -> tuple[Fraction, Fraction]:
    return q + r / 2, r


def _polygon(h: Hex) -> list[tuple[Fraction, Fraction]]:
    return [_xy(h.q + dq, h.r + dr) for dq, dr in _CORNERS_QR]


def _sides(poly: list[tuple[Fraction, Fraction]], x: Fraction, y: Fraction) -> list[Fraction]:
    """Cross products: all >= 0 inside the closed hexagon, all > 0 in its interior."""
    out = []
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % 6]
        out.append((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0))
    return out


def _brute_meet(a: Hex, b: Hex, h: Hex) -> str | None:
    """ "interior", "touch" or None, by splitting the segment where it crosses the hexagon's side lines."""
    poly = _polygon(h)
    ax, ay = _xy(F(a.q), F(a.r))
    bx, by = _xy(F(b.q), F(b.r))
    ts = {F(0), F(1)}
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % 6]
        # side(t) = c0 + c1 * t along the segment
        c0 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
        c1 = (x1 - x0) * (by - ay) - (y1 - y0) * (bx - ax)
        if c1 != 0 and 0 <= -c0 / c1 <= 1:
            ts.add(-c0 / c1)
    order = sorted(ts)
    probes = order + [(s + t) / 2 for s, t in pairwise(order)]
    kinds = set()
    for t in probes:
        sides = _sides(poly, ax + t * (bx - ax), ay + t * (by - ay))
        if all(s > 0 for s in sides):
            kinds.add("interior")
        elif all(s >= 0 for s in sides):
            kinds.add("touch")
    if "interior" in kinds:
        return "interior"
    return "touch" if kinds else None


def _brute_line(a: Hex, b: Hex) -> dict[Hex, str]:
    found = {}
    for q in range(min(a.q, b.q) - 2, max(a.q, b.q) + 3):
        for r in range(min(a.r, b.r) - 2, max(a.r, b.r) + 3):
            kind = _brute_meet(a, b, Hex(q, r))
            if kind is not None:
                found[Hex(q, r)] = kind
    return found


def _in_closed_cell_cube(p: tuple[Fraction, Fraction], h: Hex) -> tuple[bool, bool]:
    dq = p[0] - h.q
    dr = p[1] - h.r
    ds = -dq - dr
    diffs = (abs(dq - dr), abs(dr - ds), abs(ds - dq))
    return all(d <= 1 for d in diffs), all(d < 1 for d in diffs)


hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))
small = st.builds(Hex, st.integers(-7, 7), st.integers(-7, 7))


# --- the geometry ----------------------------------------------------------------------------------


def test_ftc_6_5_3_cell_condition_matches_the_hexagon_polygon() -> None:
    """The cube-coordinate cell test (lof module docstring) agrees with the drawn hexagon at every point of
    a fine rational grid, boundary and interior alike."""
    h = Hex(0, 0)
    poly = _polygon(h)
    checked = 0
    for i in range(-18, 19):
        for j in range(-18, 19):
            q, r = F(i, 12), F(j, 12)
            sides = _sides(poly, *_xy(q, r))
            closed, open_ = _in_closed_cell_cube((q, r), h)
            assert closed == all(s >= 0 for s in sides), (q, r)
            assert open_ == all(s > 0 for s in sides), (q, r)
            checked += closed
    assert checked > 100


def test_ftc_6_5_3_every_short_line_matches_brute_force() -> None:
    """Every segment from the origin to a hex within 4 steps: the same hexes and kinds as the polygon."""
    origin = Hex(0, 0)
    for b in within(origin, 4):
        expected = _brute_line(origin, b)
        got = {lh.hex: lh.kind for lh in line_hexes(origin, b)}
        assert got == expected, b
        assert hexes_crossed(origin, b) == frozenset(expected)


@settings(max_examples=40, deadline=None)
@given(small, small)
def test_ftc_6_5_3_random_lines_match_brute_force(a: Hex, b: Hex) -> None:
    got = {lh.hex: lh.kind for lh in line_hexes(a, b)}
    assert got == _brute_line(a, b)


def test_ftc_6_5_3_straight_along_a_row_meets_only_the_row() -> None:
    line = line_hexes(Hex(0, 0), Hex(3, 0))
    assert line == tuple(LineHex(Hex(q, 0), "interior") for q in range(4))


def test_ftc_6_5_3_line_along_an_edge_touches_both_sides() -> None:
    """Two hexes 'between rows': the segment runs exactly along the edge shared by the two middle hexes."""
    line = line_hexes(Hex(0, 0), Hex(-1, 2))
    assert line[0].hex == Hex(0, 0) and line[-1].hex == Hex(-1, 2)
    assert {lh.hex: lh.kind for lh in line} == {
        Hex(0, 0): "interior",
        Hex(-1, 1): "touch",
        Hex(0, 1): "touch",
        Hex(-1, 2): "interior",
    }


def test_ftc_6_5_3_line_through_a_corner_touches_the_third_hex() -> None:
    """From (0, 0) to (5, -1) the segment passes exactly through two corners: the hex beside each
    corner is touched at that single point."""
    kinds = {lh.hex: lh.kind for lh in line_hexes(Hex(0, 0), Hex(5, -1))}
    assert kinds[Hex(2, -1)] == "touch"
    assert kinds[Hex(3, 0)] == "touch"
    assert sum(k == "touch" for k in kinds.values()) == 2
    assert kinds[Hex(2, 0)] == "interior" and kinds[Hex(3, -1)] == "interior"


def test_ftc_6_5_3_a_hex_to_itself() -> None:
    assert line_hexes(Hex(4, -2), Hex(4, -2)) == (LineHex(Hex(4, -2), "interior"),)
    assert hexes_crossed(Hex(4, -2), Hex(4, -2)) == frozenset({Hex(4, -2)})


@given(hexes, hexes)
def test_ftc_6_5_3_crossed_is_symmetric(a: Hex, b: Hex) -> None:
    assert hexes_crossed(a, b) == hexes_crossed(b, a)
    assert {lh.hex: lh.kind for lh in line_hexes(a, b)} == {lh.hex: lh.kind for lh in line_hexes(b, a)}


@given(hexes, hexes)
def test_ftc_6_5_3_both_ends_are_on_the_line_in_order(a: Hex, b: Hex) -> None:
    line = line_hexes(a, b)
    assert line[0] == LineHex(a, "interior")
    assert line[-1] == LineHex(b, "interior")
    assert len({lh.hex for lh in line}) == len(line)


@given(hexes, hexes)
def test_ftc_6_5_3_crossed_hexes_are_contiguous(a: Hex, b: Hex) -> None:
    crossed = hexes_crossed(a, b)
    seen = {a}
    todo = deque([a])
    while todo:
        for n in neighbors(todo.popleft()):
            if n in crossed and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == crossed
    # Consecutive hexes along the line are adjacent or meet at the same point of the segment.
    line = [lh.hex for lh in line_hexes(a, b)]
    assert all(distance(x, y) <= 2 for x, y in pairwise(line))


@given(hexes, hexes, hexes)
def test_ftc_6_5_3_crossed_is_translation_invariant(a: Hex, b: Hex, shift: Hex) -> None:
    moved = hexes_crossed(Hex(a.q + shift.q, a.r + shift.r), Hex(b.q + shift.q, b.r + shift.r))
    assert moved == frozenset(Hex(h.q + shift.q, h.r + shift.r) for h in hexes_crossed(a, b))


def _linedraw(a: Hex, b: Hex) -> list[Hex]:
    """Red Blob Games' hex_linedraw: sample N + 1 points, nudged off the boundaries, and round each."""
    n = distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = a.q + 1e-6 + (b.q - a.q) * t
        r = a.r + 1e-6 + (b.r - a.r) * t
        s = -a.q - a.r - 2e-6 + ((-b.q - b.r) - (-a.q - a.r)) * t
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(rq, rr))
    return out


@given(hexes, hexes)
def test_ftc_6_5_3_crossed_contains_hex_linedraw(a: Hex, b: Hex) -> None:
    assert set(_linedraw(a, b)) <= hexes_crossed(a, b)


@given(hexes, hexes)
def test_ftc_6_5_3_crossed_hexes_lie_within_the_segments_distance_bounds(a: Hex, b: Hex) -> None:
    n = distance(a, b)
    for h in hexes_crossed(a, b):
        assert max(distance(a, h), distance(h, b)) <= n
        assert distance(a, h) + distance(h, b) <= n + 1


# --- blocking, cover, bystanders --------------------------------------------------------------------

WALL = TerrainType("wall", blocks_sight=True)
OPEN = TerrainType("open")


def _map(walls: set[Hex], width: int = 24, height: int = 24) -> TerrainMap:
    base = TerrainMap.open(width, height)
    grid = np.zeros((height, width), dtype=np.int16)
    for h in walls:
        col, row = base.cell(h)
        grid[row, col] = 1
    return TerrainMap.build(width, height, (OPEN, WALL), grid)


def test_ftc_6_5_3_open_ground_does_not_block() -> None:
    lof = line_of_fire(_map(set()), Hex(2, 2), Hex(8, 5))
    assert not lof.blocked and lof.blocked_at is None and not lof.partial_cover
    assert lof.cover_modifier == 0
    assert lof.hexes == line_hexes(Hex(2, 2), Hex(8, 5))


def test_ftc_6_5_3_wall_crossed_through_its_interior_blocks() -> None:
    lof = line_of_fire(_map({Hex(6, 3), Hex(8, 3)}), Hex(3, 3), Hex(10, 3))
    assert lof.blocked and lof.blocked_at == Hex(6, 3)


def test_ftc_6_5_3_line_along_an_edge_between_two_walls_gives_partial_cover_only() -> None:
    """docs/rulings.md "Line of fire": a blocking hex touched only on its boundary does not block; it gives partial
    cover."""
    firer, target = Hex(6, 2), Hex(5, 4)
    lof = line_of_fire(_map({Hex(5, 3), Hex(6, 3)}), firer, target)
    assert not lof.blocked
    assert lof.partial_cover and lof.cover_modifier == -1


def test_ftc_6_5_3_line_exactly_through_a_corner_of_a_wall_gives_partial_cover() -> None:
    firer = Hex(2, 6)
    corner_wall = Hex(4, 5)  # touched at one corner only on the way to (7, 5)
    lof = line_of_fire(_map({corner_wall}), firer, Hex(7, 5))
    assert not lof.blocked and lof.partial_cover
    crossed_wall = Hex(4, 6)
    lof = line_of_fire(_map({corner_wall, crossed_wall}), firer, Hex(7, 5))
    assert lof.blocked_at == crossed_wall and lof.partial_cover


def test_ftc_6_5_3_firer_and_target_hexes_never_block() -> None:
    lof = line_of_fire(_map({Hex(3, 3), Hex(9, 3)}), Hex(3, 3), Hex(9, 3))
    assert not lof.blocked and not lof.partial_cover


def test_ftc_6_5_3_off_map_hexes_do_not_block() -> None:
    lof = line_of_fire(_map(set(), 5, 5), Hex(0, 0), Hex(-3, 0))
    assert not lof.blocked


def test_ftc_6_5_3_bystanders_out_to_twice_the_distance() -> None:
    """Table 9 counts figures on the line, the line continuing past the target, no farther from the firer
    than twice the target's distance (docs/rulings.md "Misses")."""
    firer, target = Hex(2, 5), Hex(5, 5)
    occupants = {
        firer: "archer",
        target: "orc",
        Hex(3, 5): "friend",
        Hex(7, 5): "behind",
        Hex(8, 5): "at twice",
        Hex(9, 5): "too far",
        Hex(4, 6): "off the line",
    }
    lof = line_of_fire(_map(set()), firer, target, occupants=occupants)
    assert lof.bystanders_at_risk() == ("friend", "behind", "at twice")


def test_ftc_6_5_3_figures_touched_on_the_boundary_are_at_risk() -> None:
    """ "Crosses through any part of the hex": a figure whose hex the segment only grazes is on the line."""
    firer, target = Hex(6, 2), Hex(5, 4)
    occupants = {Hex(5, 3): "left", Hex(6, 3): "right", Hex(4, 6): "beyond", Hex(4, 5): "edge beyond"}
    lof = line_of_fire(_map(set()), firer, target, occupants=occupants)
    assert set(lof.bystanders_at_risk()) == {"left", "right", "beyond", "edge beyond"}


def test_ftc_6_5_3_a_wall_beyond_the_target_shelters_figures_behind_it() -> None:
    """Our ruling (lof module docstring): the missile does not pass the first blocking hex beyond the
    target, so figures past it are not at risk; the target's own hex does not stop it."""
    firer, target = Hex(2, 5), Hex(5, 5)
    occupants = {Hex(3, 5): "friend", Hex(7, 5): "behind", Hex(8, 5): "at twice"}
    lof = line_of_fire(_map({Hex(6, 5)}), firer, target, occupants=occupants)
    assert not lof.blocked
    assert lof.bystanders_at_risk() == ("friend",)
    lof = line_of_fire(_map({Hex(5, 5), Hex(7, 5)}), firer, target, occupants=occupants)
    assert lof.bystanders_at_risk() == ("friend", "behind")
    # A figure standing in the blocking hex itself is reached by the missile.
    assert lof.bystanders_at_risk({Hex(7, 5): "in the wood", Hex(8, 5): "past it"}) == ("in the wood",)


cells = st.tuples(st.integers(0, 23), st.integers(0, 23))


@given(cells, cells, st.integers(0, 2**16))
@settings(max_examples=150)
def test_ftc_6_5_3_risk_hexes_are_where_bystanders_are_found(
    ca: tuple[int, int], cb: tuple[int, int], seed: int
) -> None:
    """``risk_hexes`` (where a friend should not stand) names exactly the hexes in which
    ``bystanders_at_risk`` finds a figure, walls beyond the target included (table 9)."""
    base = TerrainMap.open(24, 24)
    a, b = base.hex_at(*ca), base.hex_at(*cb)
    rng = random.Random(seed)
    walls = {base.hex_at(c, r) for c in range(24) for r in range(24) if rng.random() < 0.1} - {a, b}
    terrain = _map(walls)
    places = risk_hexes(terrain, a, b)
    around = {h: h for h in within(a, 2 * distance(a, b) + 2) if h not in (a, b)}
    found = line_of_fire(terrain, a, b, occupants=around).bystanders_at_risk()
    assert list(places) == [h for h in found if h in around]
    assert a not in places and b not in places


# --- every pair at once ------------------------------------------------------------------------------


def _random_battle(
    seed: int, figures: int, width: int = 40, height: int = 30, wall_share: float = 0.15
) -> tuple[TerrainMap, dict[str, Hex]]:
    rng = random.Random(seed)
    base = TerrainMap.open(width, height)
    cells = [(c, r) for r in range(height) for c in range(width)]
    walls = {base.hex_at(c, r) for c, r in rng.sample(cells, int(wall_share * len(cells)))}
    free = [base.hex_at(c, r) for c, r in cells if base.hex_at(c, r) not in walls]
    positions = {f"fig{i}": h for i, h in enumerate(rng.sample(free, figures))}
    return _map(walls, width, height), positions


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ftc_6_5_3_batch_agrees_with_single_lines(seed: int) -> None:
    terrain, positions = _random_battle(seed, 14, 20, 16, 0.2)
    occupants = {h: name for name, h in positions.items()}
    batch = lines_of_fire(terrain, positions)
    assert len(batch) == 14 * 13
    for (a, b), lof in batch.items():
        single = line_of_fire(terrain, positions[a], positions[b], occupants=occupants)
        assert (lof.blocked_at, lof.partial_cover) == (single.blocked_at, single.partial_cover), (a, b)
        assert lof.bystanders_at_risk() == single.bystanders_at_risk(), (a, b)
    assert any(lof.blocked for lof in batch.values())
    assert any(not lof.blocked for lof in batch.values())
