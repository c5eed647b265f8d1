"""The odds preview under each damage option agrees with 10,000 battles resolving the same blow, within sampling
error (tests/sampling.py; docs/rulings.md "Rule options": the preview's numbers are exact under every option):
the damage roll's variants and limits (*Fudge* 4.61), the roll on a graze (4.56), Min-Mid-Max (4.63), the
situational roll on a wound (4.55), the Scale options (4.58) and tech levels (4.65).

Each scenario is chosen so its option acts often: blows that graze as well as hit, a small fighter whose blow
Scale stops, a target whose head and torso read different bonuses."""

from __future__ import annotations

import pytest

from game.engine import actions as act
from game.engine.battle import BattleSetup, FigureSetup, RuleOptions
from game.engine.characters import Character
from game.engine.terrain import TerrainMap
from tests.engine.blow_scenes import GUARD, PEASANT, person, with_weapon_tech
from tests.engine.test_rules_as_written import DOWN, EVEN
from tests.golden.scenarios import CENTRE, SIDES, east
from tests.sampling import assert_agrees, sample_attack

pytestmark = pytest.mark.slow

N = 10_000

FIONN = person(
    GUARD, name="Fionn", strength="Good", scale=-4, skills={"Sword": "Great"}, weapons=["Broadsword"]
)  # offensive -1 with Scale -4
SHEBA = person(PEASANT, name="Sheba", skills={"Axe": "Fair"}, armour=["Studded Leather"])
MAILED = person(PEASANT, skills={"Axe": "Good"}, armour=["Chain Mail"])  # a close fight: hits, grazes and misses


def _sampled(options: RuleOptions, attacker: Character, target: Character, aim: str = "best") -> None:
    setup = BattleSetup(
        TerrainMap.open(12, 10),
        SIDES,
        (
            FigureSetup("a", "A", "blue", attacker, CENTRE, 0, "always", False),
            FigureSetup("t", "T", "red", target, east(CENTRE), 3, "always", False),
        ),
        RuleOptions(),
        0,
    )
    declaration = act.Declare("a", "neutral", ("t",), aim=aim)
    sample = sample_attack(setup, options, initiative={"a": DOWN, "t": EVEN}, declaration=declaration, n=N)
    assert sample.preview.hit < 1  # misses, grazes and hits all counted
    assert_agrees(sample.preview.distribution, sample.counts, N)


@pytest.mark.parametrize(
    "options",
    [
        RuleOptions(damage_roll="one_die", wound_situational_roll="worse"),
        RuleOptions(damage_roll="one_die_level", graze_damage_roll=True),
        RuleOptions(damage_roll="even_roll", graze_damage_roll=True),
        RuleOptions(damage_roll="even_roll_level", damage_roll_wild=True, graze_damage_roll=True),
        RuleOptions(damage_roll="situational", graze_damage_roll=True, fudge_graze_table=True),
        RuleOptions(damage_roll="situational", damage_roll_wild=True, wound_situational_roll="both"),
    ],
    ids=["one_die", "one_die_level", "even_roll", "even_roll_level_wild", "situational_graze", "situational_wild"],
)
def test_fudge_4_61_the_odds_of_each_damage_roll_agree_with_sampled_battles(options: RuleOptions) -> None:
    _sampled(options, person(GUARD, skills={"Sword": "Good"}), MAILED)


@pytest.mark.parametrize("low", [False, True], ids=["plain", "low_penalty"])
def test_fudge_4_63_the_odds_of_min_mid_max_agree_with_sampled_battles(low: bool) -> None:
    """A fist against Chain Mail (factor -5: the low penalty matters) with the head open to a Superb hit."""
    fist = person(GUARD, skills={"Brawling": "Superb"}, weapons=["Fist"])
    _sampled(RuleOptions(damage_roll="min_mid_max", min_mid_max_low_penalty=low), fist, MAILED)


@pytest.mark.parametrize("points", [1, 2])
def test_fudge_4_58_the_odds_of_the_scale_options_agree_with_sampled_battles(points: int) -> None:
    """Fionn against Sheba: Scale alone stops many of his blows (the roll through Scale), and a +4 gets one or
    two points through (the critical, each value the option offers)."""
    _sampled(RuleOptions(scale_damage_roll=True, critical_penetration=points), FIONN, SHEBA)


@pytest.mark.parametrize(("per_level", "tech"), [(1, 2), (3, 1), (5, 1)])
def test_fudge_4_65_the_odds_of_tech_levels_and_a_level_roll_through_scale_agree_with_sampled_battles(
    per_level: int, tech: int
) -> None:
    """Fionn's weapons ``tech`` levels above Sheba's armour, each level worth ``per_level`` Scale: from a small
    lift to one that wipes out his Scale -4 and more."""
    _sampled(
        RuleOptions(tech_level_scale=per_level, damage_roll="one_die_level", scale_damage_roll=True),
        with_weapon_tech(FIONN, tech),
        SHEBA,
        aim="torso",
    )
