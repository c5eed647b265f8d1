"""The odds preview agrees with sampled battles (tests/sampling.py) under the options of heroes and wounds: *Fudge*
4.64's caps and Fudge Points, 4.51's Will that keeps an Incapacitated fighter up, 4.52's Damage Capacity rolls
and Damage Resistant, each step a level or a point; and with a damage roll of *Fudge* 4.61 before them. Each
scenario names the assumption the preview makes (the preview says it in words: "H would spend a Fudge Point …")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from game.engine import actions as act
from game.engine.battle import Battle, BattleSetup, Decision, FigureSetup
from game.engine.rule_options import RuleOptions
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel
from tests.engine.test_rules_as_written import DOWN, EVEN, figure
from tests.golden.scenarios import CENTRE, SIDES, east
from tests.sampling import assert_agrees, sample_attack

N = 10_000


def _hero(points: int | None = None, **traits: Any) -> FigureSetup:
    return replace(figure("t", "red", "peasant", east(CENTRE), 3, **traits), role="pc", fudge_points=points)


def _duel(target: FigureSetup, **attacker: Any) -> BattleSetup:
    bruiser = figure("a", "blue", "bruiser", CENTRE, 0, **attacker)
    return BattleSetup(TerrainMap.open(12, 10), SIDES, (bruiser, target), RuleOptions(), 0)


def _ordered(order: str) -> Callable[[Battle, Decision], act.Action | None]:
    """Set the target's standing order for Fudge Points once, before the declaration under test."""
    done: list[bool] = []

    def choose(b: Battle, d: Decision) -> act.Action | None:
        if not done:
            done.append(True)
            return act.SetFudgePointOrder("t", order)
        return None

    return choose


HAND_AXE = {"strength": "Fair", "weapons": ["Hand Axe"]}

SCENARIOS: dict[str, tuple[BattleSetup, RuleOptions, str, Any]] = {
    # an unwounded hero takes at most Very Hurt from one blow (Fudge 4.64, method 1)
    "at most three levels": (
        _duel(_hero()),
        RuleOptions(pc_death_max_three_levels=True),
        "Counts only this blow",
        None,
    ),
    # a Very Hurt hero reaches no further than Incapacitated (method 2)
    "near death only from incapacitated": (
        _duel(_hero(wounds=["Very Hurt"])),
        RuleOptions(pc_death_near_death_if_incapacitated=True),
        "Counts only this blow",
        None,
    ),
    # a Hurt and Very Hurt hero with a point: a deadly wound is bought down to Incapacitated (method 3, "always")
    "a fudge point spent at once": (
        _duel(_hero(1, wounds=["Hurt", "Very Hurt"])),
        RuleOptions(pc_death_fudge_point=True),
        "T would spend a Fudge Point on a deadly wound",
        None,
    ),
    # the same when his player is asked (and spends, as the preview assumes)
    "a fudge point spent when asked": (
        _duel(_hero(1, wounds=["Hurt", "Very Hurt"])),
        RuleOptions(pc_death_fudge_point=True),
        "T would spend a Fudge Point (if asked)",
        _ordered("ask"),
    ),
    # all three methods at once on a Scratched hero with points
    "heroic": (
        _duel(_hero(None, wounds=["Scratch"])),
        RuleOptions(
            pc_death_max_three_levels=True,
            pc_death_near_death_if_incapacitated=True,
            pc_death_fudge_point=True,
            fudge_points_default=3,
        ),
        "T would spend a Fudge Point",
        None,
    ),
    # a Good Will keeps an Incapacitated fighter up on a Superb roll (Fudge 4.51)
    "will keeps him up": (
        _duel(_hero(will="Good"), strength="Good"),
        RuleOptions(willpower_vs_wounds="incapacitated"),
        "fights on with a Superb Will",
        None,
    ),
    # a Damage Capacity roll replaces the Health roll (Fudge 4.52)
    "damage capacity roll": (
        _duel(_hero(damage_capacity="Fair"), **HAND_AXE),
        RuleOptions(damage_capacity="roll"),
        "",
        None,
    ),
    # on Will, a damage point at a time
    "will roll by points": (
        _duel(_hero(will="Good"), **HAND_AXE),
        RuleOptions(damage_capacity="will_roll", damage_capacity_step="point"),
        "",
        None,
    ),
    # Damage Resistant, a damage point at a time, under FTC's Health roll
    "damage resistant by points": (
        _duel(_hero(gifts=["Damage Resistant"]), **HAND_AXE),
        RuleOptions(damage_capacity_step="point"),
        "",
        None,
    ),
    # with the damage options of the blow's attacker side: a damage die on the number, then a Damage Capacity
    # roll moving that number a point (the defender's side reads each blow's number), and Will against the pain
    "a damage die and a capacity roll by points": (
        _duel(_hero(damage_capacity="Fair"), **HAND_AXE),
        RuleOptions(
            damage_roll="one_die",
            damage_capacity="roll",
            damage_capacity_step="point",
            willpower_vs_wounds="very_hurt",
        ),
        "",
        None,
    ),
    # Heroic's three methods under the even roll on the wound level (Fudge 4.61)
    "heroic with a damage roll on the level": (
        _duel(_hero(None, wounds=["Scratch"])),
        RuleOptions(
            damage_roll="even_roll_level",
            pc_death_max_three_levels=True,
            pc_death_near_death_if_incapacitated=True,
            pc_death_fudge_point=True,
            fudge_points_default=3,
        ),
        "Counts only this blow",
        None,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_heroes_and_wounds_the_preview_agrees_with_10000_sampled_battles(name: str) -> None:
    setup, options, assumption, before = SCENARIOS[name]
    kwargs: dict[str, Any] = {} if before is None else {"decide_before": before}
    weapon = setup.figures[0].character.ready_weapon.name
    declaration = act.Declare("a", "neutral", ("t",), weapon)
    sample = sample_attack(setup, options, initiative={"a": DOWN, "t": EVEN}, declaration=declaration, n=N, **kwargs)
    distribution = sample.preview.distribution
    assert_agrees(distribution, sample.counts, N)
    assert not assumption or any(assumption in said for said in sample.preview.assumptions), sample.preview.assumptions
    marked = {o.marked for o in distribution}
    if name == "at most three levels":
        assert max(m for m in marked if m is not None) == WoundLevel.VERY_HURT
    if name in ("a fudge point spent at once", "a fudge point spent when asked", "near death only from incapacitated"):
        assert WoundLevel.NEAR_DEATH not in marked and WoundLevel.INCAPACITATED in marked
    if name == "will keeps him up":
        assert any(o.marked == WoundLevel.INCAPACITATED and not o.out for o in distribution)
        assert any(o.marked == WoundLevel.INCAPACITATED and o.out for o in distribution)
