"""Zones of control and the escape contest (FTC 5.2, 5.3)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.dice import DiceRoll
from game.engine.hexgrid import Hex, front_hexes, neighbor
from game.engine.movement import Ground
from game.engine.terrain import TerrainMap
from game.engine.zoc import (
    TURN_TAIL_DEFENCE,
    EscapeResult,
    ZocSource,
    engaged_with,
    escape_breakdown,
    escape_levels,
    roll_escape,
    zone_of_control,
    zones_for,
)


def test_ftc_5_2_figure_1_zone_of_control_is_the_three_front_hexes() -> None:
    h = Hex(3, 3)
    for facing in range(6):
        zone = zone_of_control(h, facing)
        assert zone == set(front_hexes(h, facing))
        assert neighbor(h, facing) in zone and neighbor(h, facing + 3) not in zone
        assert len(zone) == 3


def test_ftc_5_2_zones_for_counts_only_enemies_that_act_and_stop() -> None:
    me = ZocSource("me", "blue", Hex(0, 0), 0)
    friend = ZocSource("friend", "blue", Hex(5, 0), 3)
    orc = ZocSource("orc", "red", Hex(2, 0), 3)
    knocked_out = ZocSource("ko", "red", Hex(0, 2), 2, can_act=False)
    lets_pass = ZocSource("pacifist", "red", Hex(-2, 0), 0, stops=False)
    goblin = ZocSource("goblin", "red", Hex(2, -1), 4)
    zones = zones_for("me", [me, friend, orc, knocked_out, lets_pass, goblin])
    assert set().union(*zones.values()) == {"orc", "goblin"}
    assert zones[neighbor(orc.hex, 4)] == {"orc"}
    shared = set(zone_of_control(orc.hex, 3)) & set(zone_of_control(goblin.hex, 4))
    assert shared and all(zones[h] == {"orc", "goblin"} for h in shared)


def test_ftc_5_3_engaged_with_counts_other_enemies_whose_zone_holds_the_stopper() -> None:
    stopper = Hex(0, 0)
    mover = ZocSource("mover", "blue", neighbor(stopper, 0), 3)
    ally1 = ZocSource("ally1", "blue", neighbor(stopper, 2), 5)  # faces the stopper
    ally2 = ZocSource("ally2", "blue", neighbor(stopper, 4), 4)  # faces away
    down = ZocSource("down", "blue", neighbor(stopper, 5), 2, can_act=False)
    assert engaged_with(stopper, [mover, ally1, ally2, down], exclude={"mover"}) == 1
    assert engaged_with(stopper, [mover, ally1, ally2, down]) == 2


def test_ftc_5_3_escape_modifiers() -> None:
    # agility Good against two stoppers: a Great swordsman engaged with one other, a Fair spearman
    mover, stoppers = escape_levels(1, [(2, 1), (0, 0)])
    assert mover == 0  # -1 for the second stopper
    assert stoppers == (1, 0)  # -1 for the other engagement
    b = escape_breakdown(1, [(2, 1), (0, 0)])
    assert b.mover_modifiers == (("escaping several stoppers", -1),)
    assert b.stopper_modifiers == ((("engaged with other enemies", -1),), ())
    assert escape_levels(0, [(1, 0)]) == (0, (1,))
    assert escape_levels(2, [(0, 0), (0, 2), (1, 0)]) == (0, (0, -2, 1))


def test_ftc_5_3_mover_must_beat_every_stopper_a_tie_fails() -> None:
    zero = DiceRoll((0, 0, 0, 0))
    assert EscapeResult(zero, 2, (zero, zero), (1, 1)).escaped
    assert not EscapeResult(zero, 2, (zero, zero), (1, 2)).escaped
    assert not EscapeResult(zero, 1, (zero,), (3,)).escaped


@settings(max_examples=50)
@given(st.integers(0, 10_000), st.integers(-3, 4), st.lists(st.integers(-3, 4), min_size=1, max_size=3))
def test_ftc_5_3_roll_escape_adds_one_4df_each(seed: int, mover: int, stoppers: list[int]) -> None:
    r = roll_escape(random.Random(seed), mover, stoppers)
    assert r.mover_result == mover + r.mover_roll.total
    assert r.stopper_results == tuple(lv + d.total for lv, d in zip(stoppers, r.stopper_rolls, strict=True))
    assert r.escaped == all(r.mover_result > s for s in r.stopper_results)
    again = roll_escape(random.Random(seed), mover, stoppers)
    assert again == r


def test_ftc_5_3_turn_tail_and_run_defends_at_minus_two() -> None:
    assert TURN_TAIL_DEFENCE == -2


def test_ftc_5_3_zones_feed_the_path_search() -> None:
    t = TerrainMap.open(10, 10)
    me = ZocSource("me", "blue", t.hex_at(4, 4), 0)
    orc = ZocSource("orc", "red", t.hex_at(6, 4), 3)
    zones = zones_for("me", [me, orc])
    reach = Ground(terrain=t, occupied=frozenset({orc.hex}), impassable=frozenset({orc.hex}), zones=zones).reach(
        me.hex, 0, 4
    )
    in_zone = neighbor(orc.hex, 3)
    assert reach.band(in_zone) == "free"
    assert orc.hex not in reach.hexes()
    behind_orc = neighbor(orc.hex, 0)
    assert reach.can_reach(behind_orc)
    assert reach.band(behind_orc) == "escape"  # four hexes: only through the orc's zone
    assert len(reach.escapes(behind_orc)) == 1
    # with one hex more the way round the orc's back avoids the contest, and the search prefers it
    wider = Ground(terrain=t, occupied=frozenset({orc.hex}), impassable=frozenset({orc.hex}), zones=zones).reach(
        me.hex, 0, 5
    )
    assert wider.band(behind_orc) == "free" and wider.cost(behind_orc) == 5
