"""The odds preview agrees with sampled battles (tests/sampling.py) under FTC as written: every outcome of an
attack — miss, location, wound after the Health roll and the limb rule, crippling, the box marked on the
target's sheet and whether it takes him out (FTC 6.4–7.4, 6.6; Fudge 4.57) — comes up as often in 10,000
battles resolving the declaration as the preview says. Each rule option's package adds its scenarios."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from game.engine import actions as act
from game.engine.battle import BattleSetup, FigureSetup
from game.engine.odds import MISS, Outcome
from game.engine.rule_options import RuleOptions
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, figure
from tests.golden.scenarios import CENTRE, SIDES, east
from tests.sampling import assert_agrees, sample_attack

N = 10_000


def _duel(attacker: FigureSetup, target: FigureSetup) -> BattleSetup:
    return BattleSetup(TerrainMap.open(12, 10), SIDES, (attacker, target), RuleOptions(), 0)


SCENARIOS = {
    # a Superb swordsman on a peasant: misses, grazes, the head when the result is Superb, every wound level
    "melee": (
        _duel(figure("a", "blue", "guard", CENTRE, 0), figure("t", "red", "peasant", east(CENTRE), 3)),
        act.Declare("a", "neutral", ("t",), "Broadsword"),
        {"a": DOWN, "t": EVEN},
    ),
    # the same on a peasant carrying Hurt and Very Hurt: a Hurt blow marks Incapacitated, and takes him out
    "wounded target": (
        _duel(
            figure("a", "blue", "guard", CENTRE, 0),
            figure("t", "red", "peasant", east(CENTRE), 3, wounds=["Hurt", "Very Hurt"]),
        ),
        act.Declare("a", "neutral", ("t",), "Broadsword"),
        {"a": DOWN, "t": EVEN},
    ),
    # a blow aimed at the arm (FTC 6.6): at most Hurt, crippling unless the Health roll saves the limb
    "aimed at the arm": (
        _duel(figure("a", "blue", "bruiser", CENTRE, 0), figure("t", "red", "brigand", east(CENTRE), 3)),
        act.Declare("a", "neutral", ("t",), "Battle Axe", aim="arm"),
        {"a": DOWN, "t": EVEN},
    ),
    # a shot at a brigand who declared before the archer and does not dodge (FTC 6.5)
    "shot": (
        _duel(figure("a", "blue", "archer", CENTRE, 0), figure("t", "red", "brigand", east(CENTRE, 4), 3)),
        act.Declare("a", "neutral", ("t",), "Shortbow"),
        {"a": UP, "t": DOWN},
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_ftc_the_preview_agrees_with_10000_sampled_battles(name: str) -> None:
    setup, declaration, initiative = SCENARIOS[name]
    sample = sample_attack(setup, RuleOptions(), initiative=initiative, declaration=declaration, n=N)
    distribution = sample.preview.distribution
    assert_agrees(distribution, sample.counts, N)
    if name == "wounded target":
        assert any(o.level == WoundLevel.HURT and o.marked == WoundLevel.INCAPACITATED and o.out for o in distribution)
    if name == "aimed at the arm":
        assert any(o.crippled for o in sample.counts) and all(
            o.location in ("arm", "none", "torso") for o in distribution
        )


def test_the_harness_refuses_a_distribution_the_samples_do_not_bear_out() -> None:
    hurt = Outcome(True, WoundLevel.HURT, "torso", marked=WoundLevel.HURT)
    claimed = {MISS: Fraction(1, 2), hurt: Fraction(1, 2)}
    with pytest.raises(AssertionError, match="sampled"):
        assert_agrees(claimed, Counter({MISS: 4000, hurt: 6000}), 10_000)
    with pytest.raises(AssertionError, match="no chance"):
        assert_agrees(claimed, Counter({MISS: 5000, hurt: 4999, Outcome(True, None, "torso"): 1}), 10_000)
    assert_agrees(claimed, Counter({MISS: 5030, hurt: 4970}), 10_000)
