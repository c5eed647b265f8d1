"""Movement phase: tables 1-3, posture, facing, terrain, occupied hexes and the path search (FTC 5-5.3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import ladder
from game.engine.hexgrid import Hex, distance, neighbor, neighbors, turn_steps
from game.engine.movement import (
    TABLE_1_MOVEMENT,
    TABLE_2_ENCUMBRANCE,
    TERRAIN_SUGGESTIONS,
    Ground,
    IllegalMove,
    encumbrance_penalty,
    load_thresholds_kg,
    max_load_kg,
    movement_allowance,
    path_cost,
    turn_cost,
)
from game.engine.terrain import TerrainMap, TerrainType

BOOK_TABLE_1 = {"Terrible": 2, "Poor": 3, "Mediocre": 4, "Fair": 5, "Good": 6, "Great": 7, "Superb": 8}
BOOK_TABLE_2 = {
    "Terrible": (3, 6, 12, 24),
    "Poor": (4, 8, 16, 32),
    "Mediocre": (7, 14, 28, 56),
    "Fair": (10, 20, 40, 80),
    "Good": (15, 30, 60, 120),
    "Great": (22, 44, 88, 176),
    "Superb": (34, 68, 136, 272),
    "Legendary": (50, 100, 200, 400),
}
BOOK_TABLE_3 = {"Rough or Rocky": -1, "Boulder-strewn": -2, "Sand or Runny Mud": -2, "Knee-deep water": -3, "Ice": -4}

WALL = 9


def make_map(rows: list[list[int]], stagger_axis: str = "y", stagger_index: str = "odd") -> TerrainMap:
    """A map from penalties per cell ([row][col]); WALL marks an impassable cell."""
    types = (
        *(TerrainType(f"p{p}", penalty={"walk": p, "fly": 0}, passable={"walk": True, "fly": True}) for p in range(5)),
        TerrainType("wall", passable={"walk": False, "fly": True}),
    )
    grid = np.array([[5 if p == WALL else p for p in row] for row in rows], dtype=np.int16)
    return TerrainMap.build(
        len(rows[0]), len(rows), types, grid, stagger_axis=stagger_axis, stagger_index=stagger_index
    )


LAYOUTS = [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")]


# --- table 1 and posture ------------------------------------------------------------------------------


def test_ftc_table_1_movement_every_cell() -> None:
    assert {ladder.level_name(k): v for k, v in TABLE_1_MOVEMENT.items()} == BOOK_TABLE_1
    for name, hexes in BOOK_TABLE_1.items():
        assert movement_allowance(ladder.parse_level(name)) == hexes


def test_ftc_table_1_extrapolated_linearly_beyond_the_table() -> None:
    assert movement_allowance(ladder.LEGENDARY) == 9
    assert movement_allowance(ladder.LEGENDARY + 2) == 11
    assert movement_allowance(ladder.TERRIBLE - 1) == 1
    assert movement_allowance(ladder.TERRIBLE - 5) == 1  # FTC 5: a figure not held in place moves 1 hex


def test_ftc_5_speed_scale_times_1_2_per_step_rounded_to_nearest() -> None:
    assert movement_allowance(ladder.FAIR, speed_scale=1) == 6  # 5 x 1.2 = 6
    assert movement_allowance(ladder.FAIR, speed_scale=2) == 7  # 7.2
    assert movement_allowance(ladder.SUPERB, speed_scale=1) == 10  # 9.6
    assert movement_allowance(ladder.FAIR, speed_scale=-1) == 4  # 4.17
    assert movement_allowance(ladder.POOR, speed_scale=-1) == 3  # exactly 2.5 rounds up
    assert movement_allowance(ladder.TERRIBLE, speed_scale=-6) == 1  # never below one hex


def test_ftc_5_crawling_good_speed_moves_as_poor_three_hexes() -> None:
    assert movement_allowance(ladder.GOOD, posture="crawling") == 3


def test_ftc_5_crawling_at_most_mediocre_and_at_least_one_hex() -> None:
    assert movement_allowance(ladder.LEGENDARY, posture="crawling") == 4
    assert movement_allowance(ladder.POOR, posture="crawling") == 1


def test_ftc_5_lying_down_five_steps_lower_at_most_poor() -> None:
    assert movement_allowance(ladder.FAIR, posture="prone") == 1
    assert movement_allowance(ladder.GOOD, posture="prone") == 1
    assert movement_allowance(ladder.GREAT, posture="prone") == 2
    assert movement_allowance(ladder.LEGENDARY + 3, posture="prone") == 3


def test_ftc_5_unknown_posture_is_an_error_with_a_fix() -> None:
    with pytest.raises(IllegalMove, match="crawling"):
        movement_allowance(0, posture="flying")


# --- table 2 ---------------------------------------------------------------------------------------------


def test_ftc_table_2_encumbrance_every_cell() -> None:
    assert {ladder.level_name(k): v for k, v in TABLE_2_ENCUMBRANCE.items()} == BOOK_TABLE_2
    for name, row in BOOK_TABLE_2.items():
        strength = ladder.parse_level(name)
        assert load_thresholds_kg(strength)[:4] == pytest.approx(row)
        for column, limit in enumerate(row):
            assert encumbrance_penalty(limit, strength) == -column  # at the limit: this column
            above = encumbrance_penalty(limit + 0.01, strength)
            assert above == (None if column == 3 else -column - 1)  # just above: the next one


def test_ftc_5_1_1_strength_and_scale_steps_add() -> None:
    assert max_load_kg(ladder.FAIR, 1) == max_load_kg(ladder.GOOD) == 15
    assert max_load_kg(ladder.GREAT, 2) == max_load_kg(ladder.LEGENDARY) == 50
    assert max_load_kg(ladder.FAIR, -3) == 3


def test_ftc_5_1_1_formula_10kg_times_1_5_per_step() -> None:
    # The formula rounded to the nearest kg gives every printed row but Legendary (50.6 -> the book's 50).
    for name, row in BOOK_TABLE_2.items():
        n = ladder.parse_level(name)
        exact = 10 * 1.5**n
        assert abs(exact - row[0]) <= 0.65
        if name not in ("Legendary", "Great"):
            assert round(exact) == row[0]
    assert max_load_kg(ladder.LEGENDARY + 1) == pytest.approx(10 * 1.5**5)
    assert max_load_kg(ladder.TERRIBLE - 1) == pytest.approx(10 / 1.5**4)


def test_ftc_5_1_1_encumbrance_reduces_movement_never_below_one() -> None:
    assert movement_allowance(ladder.FAIR, load_kg=10) == 5
    assert movement_allowance(ladder.FAIR, load_kg=11) == 4
    assert movement_allowance(ladder.FAIR, load_kg=25) == 3
    assert movement_allowance(ladder.FAIR, load_kg=41) == 2
    assert movement_allowance(ladder.TERRIBLE, load_kg=50) == 1
    assert movement_allowance(ladder.FAIR, load_kg=81) == 0  # more than eight times: cannot move
    assert movement_allowance(ladder.FAIR, strength=ladder.GOOD, load_kg=25) == 4


def test_ftc_table_3_terrain_suggestions_present() -> None:
    assert dict(TERRAIN_SUGGESTIONS) == BOOK_TABLE_3


# --- facing ---------------------------------------------------------------------------------------------

OPEN = TerrainMap.open(12, 12)
CENTRE = OPEN.hex_at(5, 5)


def test_ftc_5_changing_facing_turning_around_in_place_costs_two() -> None:
    reach = Ground(terrain=OPEN).reach(CENTRE, 0, 5)
    assert reach.cost(CENTRE, 3) == 2
    assert reach.cost(CENTRE, 1) == 0
    assert reach.cost(CENTRE, 2) == 1
    assert turn_cost(0, 3) == 2
    steps = [(CENTRE, 1), (CENTRE, 2), (CENTRE, 3)]
    p = Ground(terrain=OPEN).validate(CENTRE, 0, steps, 5)
    assert (p.facing_extra, p.cost) == (2, 2)


def test_ftc_5_changing_facing_turning_around_needs_two_hexes_of_allowance() -> None:
    reach = Ground(terrain=OPEN).reach(CENTRE, 0, 1)
    assert 3 not in reach.facings(CENTRE)
    assert set(reach.facings(CENTRE)) == {5, 0, 1, 2, 4}


def test_ftc_5_moving_does_not_change_facing_step_backwards() -> None:
    behind = neighbor(CENTRE, 3)
    p = Ground(terrain=OPEN).validate(CENTRE, 0, [(behind, 0)], 1)
    assert (p.end, p.end_facing, p.cost) == (behind, 0, 1)
    with pytest.raises(IllegalMove, match="turn step"):
        Ground(terrain=OPEN).validate(CENTRE, 0, [(behind, 3)], 5)


def test_ftc_5_one_free_side_in_every_gap() -> None:
    a, b = neighbor(CENTRE, 0), neighbor(neighbor(CENTRE, 0), 0)
    free = [(CENTRE, 1), (a, 1), (a, 2), (b, 2), (b, 3)]
    assert Ground(terrain=OPEN).validate(CENTRE, 0, free, 2).facing_extra == 0
    costly = [(a, 0), (a, 1), (a, 2), (b, 2)]
    assert Ground(terrain=OPEN).validate(CENTRE, 0, costly, 3).facing_extra == 1
    reach = Ground(terrain=OPEN).reach(CENTRE, 0, 2)
    assert reach.facings(b) == (0, 1, 2, 3, 4, 5)
    # one hex away, turning around needs one paid side (two gaps, three sides)
    assert Ground(terrain=OPEN).reach(CENTRE, 0, 1).facings(a) == (0, 1, 2, 4, 5)


# --- occupied hexes, walls, map edge ----------------------------------------------------------------------


def corridor() -> TerrainMap:
    return make_map([[WALL] * 7, [0] * 7, [WALL] * 7])


def test_ftc_5_2_moving_through_an_occupied_hex_costs_one_extra() -> None:
    t = corridor()
    start, mid, end = t.hex_at(0, 1), t.hex_at(1, 1), t.hex_at(2, 1)
    reach = Ground(terrain=t, occupied=frozenset({mid})).reach(start, 0, 3)
    assert reach.cost(end) == 3
    assert reach.path(end).occupied_extra == 1
    assert mid not in reach.hexes()  # no figure ends in an occupied hex
    assert t.hex_at(3, 1) not in reach.hexes()
    with pytest.raises(IllegalMove, match="occupies"):
        Ground(terrain=t, occupied=frozenset({mid})).validate(start, 0, [(mid, 0)], 3)


def test_ftc_5_2_impassable_hexes_cannot_be_entered() -> None:
    t = corridor()
    start, mid = t.hex_at(0, 1), t.hex_at(1, 1)
    reach = Ground(terrain=t, impassable=frozenset({mid})).reach(start, 0, 6)
    assert reach.hexes() == {start}
    with pytest.raises(IllegalMove, match="may not pass"):
        Ground(terrain=t, impassable=frozenset({mid})).validate(start, 0, [(mid, 0)], 6)
    with pytest.raises(IllegalMove, match="impassable"):
        Ground(terrain=t).validate(start, 0, [(t.hex_at(0, 0), 0)], 6)
    with pytest.raises(IllegalMove, match="leaves the map"):
        Ground(terrain=t).validate(start, 0, [(neighbor(start, 3), 0)], 6)
    with pytest.raises(IllegalMove, match="adjacent"):
        Ground(terrain=t).validate(start, 0, [(t.hex_at(2, 1), 0)], 6)


def test_validate_path_refuses_a_move_beyond_the_allowance() -> None:
    t = corridor()
    steps = [(t.hex_at(c, 1), 0) for c in range(1, 5)]
    with pytest.raises(IllegalMove, match="costs 4 hexes"):
        Ground(terrain=t).validate(t.hex_at(0, 1), 0, steps, 3)


def test_unreachable_hex_raises_a_readable_error() -> None:
    t = corridor()
    reach = Ground(terrain=t).reach(t.hex_at(0, 1), 0, 2)
    assert not reach.can_reach(t.hex_at(5, 1))
    with pytest.raises(IllegalMove, match="cannot reach"):
        reach.cost(t.hex_at(5, 1))


# --- terrain -------------------------------------------------------------------------------------------


def test_ftc_5_1_2_largest_terrain_penalty_reduces_the_allowance() -> None:
    # corridor: open, rough (-1), sand (-2), open, open, open
    t = make_map([[WALL] * 7, [0, 1, 2, 0, 0, 0, 0], [WALL] * 7])
    start = t.hex_at(0, 1)
    reach = Ground(terrain=t).reach(start, 0, 5)
    assert reach.cost(t.hex_at(1, 1)) == 2  # 1 hex + rough 1
    assert reach.cost(t.hex_at(3, 1)) == 5  # 3 hexes + largest penalty 2 (not 1 + 2)
    p = reach.path(t.hex_at(3, 1))
    assert (p.hexes_moved, p.terrain_penalty) == (3, 2)
    assert not reach.can_reach(t.hex_at(4, 1))


def test_ftc_5_1_2_per_hex_terrain_rule_option() -> None:
    t = make_map([[WALL] * 7, [0, 1, 2, 0, 0, 0, 0], [WALL] * 7])
    start = t.hex_at(0, 1)
    reach = Ground(terrain=t, per_hex_terrain=True).reach(start, 0, 6)
    assert reach.cost(t.hex_at(1, 1)) == 2
    assert reach.cost(t.hex_at(2, 1)) == 5  # (1 + 1) + (1 + 2)
    assert reach.cost(t.hex_at(3, 1)) == 6
    assert reach.path(t.hex_at(3, 1)).terrain_penalty == 3
    assert Ground(terrain=t).reach(start, 0, 6).cost(t.hex_at(3, 1)) == 5


def test_ftc_5_1_2_start_hex_penalty_counts() -> None:
    t = make_map([[WALL] * 5, [2, 0, 0, 0, 0], [WALL] * 5])
    reach = Ground(terrain=t).reach(t.hex_at(0, 1), 0, 5)
    assert reach.cost(t.hex_at(3, 1)) == 5
    assert not reach.can_reach(t.hex_at(4, 1))


def test_ftc_5_1_2_always_at_least_one_hex_unless_immobilised() -> None:
    t = make_map([[WALL] * 5, [0, 4, 4, 0, 0], [WALL] * 5])
    start, ice = t.hex_at(0, 1), t.hex_at(1, 1)
    for per_hex in (False, True):
        reach = Ground(terrain=t, per_hex_terrain=per_hex).reach(start, 0, 2)
        assert reach.hexes() == {start, ice}
        assert reach.cost(ice) == 2
    assert Ground(terrain=t).reach(start, 0, 0).hexes() == {start}


def test_ftc_5_1_2_penalties_per_movement_mode() -> None:
    t = make_map([[WALL] * 5, [0, 4, 4, 0, 0], [WALL] * 5])
    reach = Ground(terrain=t, mode="fly").reach(t.hex_at(0, 1), 0, 4)
    assert reach.cost(t.hex_at(4, 1)) == 4
    assert reach.can_reach(t.hex_at(2, 0))  # walls do not stop a flyer here


# --- zones of control -------------------------------------------------------------------------------------


def test_ftc_5_2_entering_a_zone_is_free_leaving_is_contested() -> None:
    start = CENTRE
    zone_hex = neighbor(start, 0)
    zones = {zone_hex: frozenset({"orc"})}
    reach = Ground(terrain=OPEN, zones=zones).reach(start, 0, 2)
    assert reach.band(zone_hex) == "free" and reach.cost(zone_hex) == 1
    beyond = neighbor(zone_hex, 0)
    assert reach.band(beyond) == "escape"
    assert reach.escapes(beyond) == ((1, frozenset({"orc"})),)


def test_ftc_5_3_search_prefers_fewer_escape_contests_over_cost() -> None:
    # the mover stands in the zone of "orc"; every neighbour but one is also in it
    start = CENTRE
    zoned = {start, *[neighbor(start, d) for d in range(5)]}
    zones = {h: frozenset({"orc"}) for h in zoned}
    target = neighbor(neighbor(start, 0), 0)  # two hexes away, outside the zone
    reach = Ground(terrain=OPEN, zones=zones).reach(start, 0, 6)
    assert reach.band(target) == "escape"  # any way out of the zone is an escape
    assert len(reach.escapes(target)) == 1
    # with two separate zones in a row, a longer detour with one contest beats a short one with two
    z2 = {neighbor(start, 0): frozenset({"a"}), start: frozenset({"b"})}
    reach2 = Ground(terrain=OPEN, zones=z2).reach(start, 0, 6)
    assert len(reach2.escapes(target)) == 1
    assert reach2.cost(target) > 2


def test_ftc_5_3_escapes_name_every_stopper_left() -> None:
    start = CENTRE
    zones = {start: frozenset({"a", "b"}), neighbor(start, 0): frozenset({"a"})}
    p = Ground(terrain=OPEN, zones=zones).validate(start, 0, [(neighbor(start, 3), 0)], 3)
    assert p.escapes == ((0, frozenset({"a", "b"})),)
    p2 = Ground(terrain=OPEN, zones=zones).validate(start, 0, [(neighbor(start, 0), 0)], 3)
    assert p2.escapes == ((0, frozenset({"b"})),)


# --- properties: the search against brute force -------------------------------------------------------------


def brute_force(
    t: TerrainMap,
    start: Hex,
    facing: int,
    allowance: int,
    occupied: frozenset[Hex],
    impassable: frozenset[Hex],
    zones: Mapping[Hex, frozenset[str]],
    per_hex: bool,
) -> dict[tuple[Hex, int], tuple[int, int]]:
    """Every sequence of hexes, priced straight from the rules text; min (escapes, cost) per end state."""
    best: dict[tuple[Hex, int], tuple[int, int]] = {}

    def pen(h: Hex) -> int:
        return t.move_penalty(h)

    def visit(path: list[Hex]) -> None:
        moved = len(path) - 1
        occ = sum(1 for h in path[1:] if h in occupied)
        pens = [pen(h) for h in path[1:]]
        esc = sum(1 for a, b in pairwise(path) if zones.get(a, frozenset()) - zones.get(b, frozenset()))
        if per_hex:
            raw = sum(pens)
            terrain = min(raw, max(0, allowance - 1)) if moved == 1 else raw
        else:
            terrain = min(max([pen(start), *pens]), max(0, allowance - 1))
        end = path[-1]
        if end == start or end not in occupied:
            for f in range(6):
                fx = max(0, turn_steps(facing, f) - (moved + 1))
                total = moved + occ + terrain + fx
                if total <= allowance:
                    key = (end, f)
                    if key not in best or (esc, total) < best[key]:
                        best[key] = (esc, total)
        if moved + occ >= allowance:
            return
        for nb in neighbors(end):
            if t.is_passable(nb) and nb not in impassable:
                visit([*path, nb])

    visit([start])
    return best


@st.composite
def small_battles(draw: st.DrawFn) -> tuple[object, ...]:
    w = draw(st.integers(3, 5))
    h = draw(st.integers(3, 5))
    rows = [[draw(st.sampled_from([0, 0, 0, 1, 2, 3, WALL])) for _ in range(w)] for _ in range(h)]
    t = make_map(rows)
    cells = list(t.hexes())
    start = draw(st.sampled_from(cells))
    others = [c for c in cells if c != start]
    occupied = frozenset(draw(st.lists(st.sampled_from(others), max_size=3)))
    impassable = frozenset(draw(st.lists(st.sampled_from(others), max_size=2)))
    zones = {
        c: frozenset(draw(st.sets(st.sampled_from("ab"), max_size=2)))
        for c in draw(st.lists(st.sampled_from(cells), max_size=8))
    }
    allowance = draw(st.integers(0, 4))
    facing = draw(st.integers(0, 5))
    per_hex = draw(st.booleans())
    return t, start, facing, allowance, occupied, impassable, zones, per_hex


@settings(max_examples=150, deadline=None)
@given(small_battles())
def test_property_reach_matches_brute_force_and_paths_are_legal(battle: tuple[object, ...]) -> None:
    check_reach_against_brute_force(battle)


def check_reach_against_brute_force(battle: tuple[object, ...]) -> None:
    """Every end hex and facing, its fewest escapes and cost, and a legal path to it, as brute force says."""
    t, start, facing, allowance, occupied, impassable, zones, per_hex = battle
    assert isinstance(t, TerrainMap) and isinstance(start, Hex)
    assert isinstance(facing, int) and isinstance(allowance, int) and isinstance(per_hex, bool)
    assert isinstance(occupied, frozenset) and isinstance(impassable, frozenset) and isinstance(zones, dict)
    expected = brute_force(t, start, facing, allowance, occupied, impassable, zones, per_hex)
    reach = Ground(terrain=t, occupied=occupied, impassable=impassable, zones=zones, per_hex_terrain=per_hex).reach(
        start, facing, allowance
    )
    assert reach.hexes() == {h for h, _ in expected}
    for h in reach.hexes():
        assert set(reach.facings(h)) == {f for (e, f) in expected if e == h}
        for f in reach.facings(h):
            p = reach.path(h, f)
            again = Ground(
                terrain=t, occupied=occupied, impassable=impassable, zones=zones, per_hex_terrain=per_hex
            ).validate(start, facing, p.steps, allowance)
            assert again == p and p.end == h and p.end_facing == f
            assert p.cost <= allowance
            assert (len(p.escapes), p.cost) == expected[(h, f)] == (len(p.escapes), reach.cost(h, f))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 6))
def test_property_turn_cost_matches_free_side_per_gap(f0: int, f1: int, moved: int) -> None:
    assert turn_cost(f0, f1, moved) == max(0, turn_steps(f0, f1) - moved - 1)


def test_path_cost_breakdown_adds_up() -> None:
    t = make_map([[WALL] * 6, [0, 1, 0, 0, 0, 0], [WALL] * 6])
    start = t.hex_at(0, 1)
    occ = frozenset({t.hex_at(2, 1)})
    steps = [(t.hex_at(c, 1), 0) for c in (1, 2, 3)] + [(t.hex_at(3, 1), 1), (t.hex_at(3, 1), 2)]
    p = path_cost(start, 0, steps, 8, Ground(t, occupied=occ))
    assert (p.hexes_moved, p.terrain_penalty, p.occupied_extra, p.facing_extra) == (3, 1, 1, 1)
    assert p.cost == 6 and p.hexes == tuple(t.hex_at(c, 1) for c in (1, 2, 3))


def test_reach_is_deterministic_for_a_random_battlefield() -> None:
    rng = random.Random(7)
    t = TerrainMap.open(15, 15)
    cells = list(t.hexes())
    occ = frozenset(rng.sample(cells, 20)) - {CENTRE}
    a = Ground(terrain=t, occupied=occ).reach(CENTRE, 2, 6)
    b = Ground(terrain=t, occupied=occ).reach(CENTRE, 2, 6)
    assert a.hexes() == b.hexes() and all(a.path(h) == b.path(h) for h in a.hexes())


# --- every Tiled layout, the map edge, tables per map ---------------------------------------------------


@pytest.mark.parametrize(("axis", "index"), LAYOUTS)
@pytest.mark.parametrize(("width", "height"), [(1, 1), (5, 4), (4, 7), (9, 2)])
def test_ftc_5_every_tiled_layout_reaches_exactly_the_map_at_hex_distances(
    axis: str, index: str, width: int, height: int
) -> None:
    t = TerrainMap.open(width, height, stagger_axis=axis, stagger_index=index)
    cells = list(t.hexes())
    start = cells[len(cells) // 2]
    reach = Ground(terrain=t).reach(start, 0, 20)
    assert reach.hexes() == set(cells)
    for h in cells:
        assert reach.cost(h) == distance(start, h)  # open ground, no turning: one hex per hex
        assert len(reach.path(h).hexes) == distance(start, h)
    edge = {n for h in cells for n in neighbors(h)} - set(cells)
    assert edge  # the ring just off the map, on every side
    for h in [*edge, Hex(-1000, 3), Hex(3, -1000), Hex(10**6, 0), Hex(0, 10**6)]:
        assert not reach.can_reach(h) and h not in reach
        with pytest.raises(IllegalMove, match="not on the map"):
            Ground(terrain=t).reach(h, 0, 3)
    on_map = set(cells)
    for h in edge:
        inner = next(c for c in neighbors(h) if c in on_map)
        with pytest.raises(IllegalMove, match="leaves the map"):
            path_cost(inner, 0, [(h, 0)], 3, Ground(t))


@st.composite
def small_battles_any_layout(draw: st.DrawFn) -> tuple[object, ...]:
    axis, index = draw(st.sampled_from(LAYOUTS))
    w = draw(st.integers(1, 5))
    h = draw(st.integers(1, 5))
    rows = [[draw(st.sampled_from([0, 0, 0, 1, 2, 3, WALL])) for _ in range(w)] for _ in range(h)]
    t = make_map(rows, axis, index)
    cells = list(t.hexes())
    start = draw(st.sampled_from(cells))
    occupied = frozenset(draw(st.lists(st.sampled_from(cells), max_size=3))) - {start}
    impassable = frozenset(draw(st.lists(st.sampled_from(cells), max_size=2))) - {start}
    zones = {
        c: frozenset(draw(st.sets(st.sampled_from("ab"), max_size=2)))
        for c in draw(st.lists(st.sampled_from(cells), max_size=8))
    }
    return t, start, draw(st.integers(0, 5)), draw(st.integers(0, 4)), occupied, impassable, zones, draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(small_battles_any_layout())
def test_property_reach_matches_brute_force_on_every_tiled_layout(battle: tuple[object, ...]) -> None:
    check_reach_against_brute_force(battle)


def test_ftc_5_1_2_three_penalty_levels_each_priced_by_its_largest_penalty() -> None:
    # open row 1; a rough (-1) and a sand (-2) shortcut through the wall row 0 to row 2 ... priced by level
    t = make_map([[0, 0, 0, 0, 0, 0, 0], [0, WALL, 1, WALL, 2, WALL, 0], [0, 0, 0, 0, 0, 0, 0]])
    start = t.hex_at(2, 0)
    reach = Ground(terrain=t).reach(start, 0, 8)
    for h in t.hexes():
        if not t.is_passable(h):
            assert not reach.can_reach(h)
            continue
        p = reach.path(h)
        assert p.terrain_penalty == max([0, *(t.move_penalty(x) for x in p.hexes)])
        assert reach.cost(h) == p.cost <= 8
    through_rough = t.hex_at(2, 2)
    assert reach.path(through_rough).terrain_penalty == 1 and reach.cost(through_rough) == 3


def test_search_tables_belong_to_one_map_and_are_reused() -> None:
    from game.engine import movement

    a = make_map([[0, 0, 0], [0, 0, 0]])
    b = make_map([[0, WALL, 0], [0, WALL, 0]])  # same size, other ground
    assert movement._grid(a) is movement._grid(a)
    assert movement._grid(a) is not movement._grid(b)
    assert Ground(terrain=a).reach(a.hex_at(0, 0), 0, 5).can_reach(a.hex_at(2, 0))
    assert not Ground(terrain=b).reach(b.hex_at(0, 0), 0, 5).can_reach(b.hex_at(2, 0))
