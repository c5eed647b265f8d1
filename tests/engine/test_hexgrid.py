"""Hex coordinates (FTC 5; docs/rulings.md "Facing"; docs/architecture.md "Coordinates have one home each") — properties
of the hex math."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from game.engine.hexgrid import (
    DIRECTIONS,
    Hex,
    direction_to,
    directly_behind,
    distance,
    facing_toward,
    front_hexes,
    hex_to_offset,
    neighbors,
    offset_to_hex,
    rear_hexes,
    ring,
    turn_steps,
    within,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
staggers = st.sampled_from([("x", "odd"), ("x", "even"), ("y", "odd"), ("y", "even")])


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_six_neighbours_each_one_step_away_in_direction_order(h: Hex) -> None:
    ns = neighbors(h)
    assert len(set(ns)) == 6
    for d, n in enumerate(ns):
        assert distance(h, n) == 1
        assert direction_to(h, n) == d
    assert h.q + h.r + h.s == 0


@given(hexes, st.integers(min_value=0, max_value=6))
def test_ring_and_within_count_hexes_exactly(h: Hex, radius: int) -> None:
    assert len(ring(h, radius)) == max(1, 6 * radius)
    assert all(distance(h, x) == radius for x in ring(h, radius))
    area = list(within(h, radius))
    assert len(area) == len(set(area)) == 1 + 3 * radius * (radius + 1)


@given(st.integers(min_value=-50, max_value=50), st.integers(min_value=-50, max_value=50), staggers)
def test_offset_and_axial_round_trip_for_every_tiled_stagger(col: int, row: int, stagger: tuple[str, str]) -> None:
    axis, index = stagger
    assert hex_to_offset(offset_to_hex(col, row, axis, index), axis, index) == (col, row)


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=30), staggers)
def test_offset_neighbours_are_adjacent_cells(col: int, row: int, stagger: tuple[str, str]) -> None:
    """Neighbouring hexes are at most one column and one row apart in Tiled's layout."""
    axis, index = stagger
    h = offset_to_hex(col, row, axis, index)
    for n in neighbors(h):
        c, r = hex_to_offset(n, axis, index)
        assert abs(c - col) <= 1 and abs(r - row) <= 1


def test_tiled_odd_rows_shift_right_on_a_pointy_map() -> None:
    # staggeraxis y, staggerindex odd: cell (0, 1) lies between (0, 0) and (1, 0)
    a, b, c = offset_to_hex(0, 0, "y", "odd"), offset_to_hex(1, 0, "y", "odd"), offset_to_hex(0, 1, "y", "odd")
    assert distance(a, c) == 1 and distance(b, c) == 1


@given(hexes, st.integers(min_value=0, max_value=5))
def test_rulings_front_and_rear_hexes_split_the_six_neighbours(h: Hex, facing: int) -> None:
    front, rear = set(front_hexes(h, facing)), set(rear_hexes(h, facing))
    assert front | rear == set(neighbors(h)) and not front & rear
    assert directly_behind(h, facing) == rear_hexes(h, facing)[1]
    assert front_hexes(h, facing)[1] == Hex(h.q + DIRECTIONS[facing].q, h.r + DIRECTIONS[facing].r)


def test_ftc_5_turning_completely_around_is_three_sides() -> None:
    assert turn_steps(0, 3) == 3
    assert turn_steps(5, 0) == 1
    assert turn_steps(2, 2) == 0


@given(hexes, st.integers(min_value=0, max_value=5), st.integers(min_value=1, max_value=8))
def test_facing_toward_a_hex_straight_ahead_is_that_direction(h: Hex, d: int, k: int) -> None:
    target = Hex(h.q + DIRECTIONS[d].q * k, h.r + DIRECTIONS[d].r * k)
    assert facing_toward(h, target) == d
    assert target in front_hexes(h, facing_toward(h, target)) or k > 1


def test_cube_round_finds_the_nearest_hex_exactly_and_from_fractions() -> None:
    from game.engine.hexgrid import cube_round

    assert cube_round(0.0, 0.0) == Hex(0, 0)
    assert cube_round(2.2, -0.9) == Hex(2, -1)
    assert cube_round(-1.6, 0.7) == Hex(-2, 1)
    # q and r both round down, s = -0.8 rounds to -1: r, the farther of the two ties, is recomputed
    assert cube_round(0.4, 0.4) == Hex(0, 1)
    # in whole numbers, exactly: two thirds of the way from (0, 0) to (3, -3) is (2, -2)
    assert cube_round(6, -6, 3) == Hex(2, -2)
    # the samples of a line from (0, 0) to (4, -3), one per hex step, walk from hex to neighbouring hex
    samples = [cube_round(i * 4, i * -3, 4) for i in range(5)]
    assert samples[0] == Hex(0, 0) and samples[-1] == Hex(4, -3)
    assert all(distance(a, b) == 1 for a, b in itertools.pairwise(samples))
