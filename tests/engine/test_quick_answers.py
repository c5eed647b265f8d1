"""The battle's quick answers give the exact answers (docs/performance.md "Battles of a hundred"): the map's
lookups made once, the line of fire kept per pair of hexes, and the early "no" of who can strike whom,
each compared with the plain rule it stands for."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, RuleOptions, legal_actions
from game.engine.battle import declarations as battle_declarations
from game.engine.hexgrid import Hex, hex_to_offset, neighbors
from game.engine.lof import line_blocked, line_of_fire
from game.engine.terrain import OPEN_GROUND, TerrainMap, TerrainType
from tests.golden.scenarios import large_skirmish, magic_skirmish

WALL = TerrainType("wall", passable={"walk": False}, blocks_sight=True)
WATER = TerrainType("water", passable={"walk": False})


def patchy(seed: int, width: int = 9, height: int = 7) -> TerrainMap:
    """An open field with walls and water scattered by ``seed``."""
    grid = np.random.default_rng(seed).integers(0, 3, size=(height, width)).astype(np.int16)
    return TerrainMap.build(width, height, (OPEN_GROUND, WALL, WATER), grid)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_the_maps_sets_agree_with_its_cells_on_and_off_the_map(seed: int) -> None:
    """``is_passable``, ``sight_blocked`` and ``passable_neighbours`` read the same cells as the arrays,
    off-map hexes (never passable, never blocking) included."""
    t = patchy(seed)
    around = {Hex(q, r) for q in range(-6, 14) for r in range(-3, 10)}
    for h in around:
        col, row = hex_to_offset(h)
        on = 0 <= col < t.width and 0 <= row < t.height
        assert t.is_passable(h) == (on and bool(t.passable["walk"][row, col]))
        assert t.sight_blocked(h) == (on and bool(t.blocks_sight[row, col]))
        assert t.passable_neighbours(h) == tuple(n for n in neighbors(h) if t.is_passable(n))
    assert t.passable_hexes() == frozenset(h for h in t.hexes() if t.is_passable(h))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 8), st.integers(0, 6), st.integers(0, 8), st.integers(0, 6))
def test_a_kept_line_of_fire_is_the_line_drawn_anew(seed: int, c1: int, r1: int, c2: int, r2: int) -> None:
    """FTC 6.5.3: the line over a map is kept per pair of hexes; with bystanders it is the same line with
    the figures on it, each figure once however many of its hexes the line crosses."""
    t = patchy(seed)
    a, b = t.hex_at(c1, r1), t.hex_at(c2, r2)
    first = line_of_fire(t, a, b)
    assert line_of_fire(t, a, b) == first and first.bystanders_at_risk() == ()
    occupants = {h: "big" for h in neighbors(Hex((a.q + b.q) // 2, (a.r + b.r) // 2))}
    with_figures = line_of_fire(t, a, b, occupants=occupants)
    assert with_figures._replace(at_risk=()) == first
    assert with_figures.bystanders_at_risk() in ((), ("big",))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 8), st.integers(0, 6), st.integers(0, 8), st.integers(0, 6))
def test_the_quick_blocked_test_is_the_line_of_fires(seed: int, c1: int, r1: int, c2: int, r2: int) -> None:
    """FTC 6.5.3: ``line_blocked`` (the segment alone) says what ``line_of_fire(...).blocked`` says."""
    t = patchy(seed)
    a, b = t.hex_at(c1, r1), t.hex_at(c2, r2)
    assert line_blocked(t, a, b) == line_of_fire(t, a, b).blocked


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 500), st.booleans())
def test_who_can_be_struck_is_every_enemy_the_rule_allows(seed: int, large: bool) -> None:
    """FTC 6.2, 6.5: ``targets_for`` (which skips enemies too far to matter) names exactly the enemies
    ``can_strike`` allows, for every weapon of every figure, at every decision of random battles with
    large figures, casters and archers."""
    setup = large_skirmish(seed) if large else magic_skirmish(seed, RuleOptions(attack_any_adjacent=seed % 2 == 0))
    b = Battle(setup)
    players = {s: RandomPlayer(seed + i) for i, s in enumerate(b.sides)}
    checked = 0
    while (d := legal_actions(b)) is not None and b.round <= 3:
        for fig in b.able():
            for weapon in fig.character.weapons or (fig.character.ready_weapon,):
                every = [
                    e.id for e in b.enemies_of(fig) if battle_declarations.can_strike(b, fig, e, weapon, fig.positions)
                ]
                assert b.targets_for(fig.id, weapon) == every, (fig.id, weapon.name, b.round, b.phase)
                checked += 1
        b.apply(players[d.side](b, d))
    assert checked > 0
