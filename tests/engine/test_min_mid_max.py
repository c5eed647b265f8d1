"""Min-Mid-Max (*Fudge* 4.63): 3d6 read by the damage factor's and the relative degree's bonus, the text's worked
example (Rachel and Archie) and its tables, in battles driven through the door with every die set from the GM's
seat (tests/engine/blow_scenes.py); the "best" aim under it; its odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.engine import min_mid_max as mmm
from game.engine.battle import RuleOptions
from game.engine.blow import rules_of
from game.engine.odds import outcome_distribution
from game.engine.wounds import DEFAULT_TRACK, WoundLevel, named_track
from tests.engine.blow_scenes import GUARD, PEASANT, Struck, blow, duel, person, waiting

MMM = RuleOptions(damage_roll="min_mid_max")
LOW = RuleOptions(damage_roll="min_mid_max", min_mid_max_low_penalty=True)

RACHEL = {
    "name": "Rachel",
    "strength": "Good",
    "skills": {"Club": "Good"},
    "weapons": ["Large Club"],
    "armour": ["Leather"],
    "damage_capacity": "Good",
}
"""Offensive 2 (a Large Club +1 for the quarterstaff, which the catalogue lacks; Good Strength +1), defensive 2
(Leather +1, Damage Capacity Good +1)."""
ARCHIE = {
    "name": "Archie",
    "strength": "Great",
    "skills": {"Axe": "Good"},
    "weapons": ["Battle Axe"],
    "armour": ["Studded Leather"],
    "damage_capacity": "Fair",
}
"""Offensive 6 (a Battle Axe +4 for the greatsword, Great Strength +2), defensive 2 (Studded Leather, DC Fair)."""


def _rachel_strikes(rolls: tuple[tuple[int, ...], tuple[int, ...]], faces: tuple[int, ...]) -> Struck:
    b = duel(MMM, attacker=person(RACHEL), target=person(ARCHIE))
    return blow(b, rolls, attacker=[("damage_3d6", faces)], aim="torso")


def _archie_strikes(rolls: tuple[tuple[int, ...], tuple[int, ...]], faces: tuple[int, ...]) -> Struck:
    b = duel(MMM, attacker=person(ARCHIE), target=person(RACHEL))
    return blow(b, rolls, attacker=[("damage_3d6", faces)], aim="torso")


def test_fudge_4_63_round_1_rachel_wins_by_two_and_reads_the_min() -> None:
    """Round 1: Rachel's factor 0 (no bonus) and degree +2 (no bonus): Min; 3, 5, 6 reads 3: Archie is Hurt."""
    struck = _rachel_strikes(((1, 0, 0, 0), (0, 0, 0, 0)), (3, 5, 6))
    assert (struck.blow.relative_degree, struck.calculated) == (2, 2)  # factor 0
    assert (struck.blow.damage, struck.level) == (3, "Hurt")
    (step,) = struck.blow.steps
    assert step.text() == "Min-Mid-Max, factor +0 (+0) and degree +2 (+0): read Min [3 5 6] (Fudge 4.63): 2 → 3"
    assert struck.wound is not None and struck.wound.box == "Hurt"
    assert "damage 2 (" in struck.blow.text() and struck.blow.text().endswith("2 → 3: Hurt")


def test_fudge_4_63_round_2_archie_grazes_by_the_graze_rule_with_no_dice() -> None:
    """Round 2: Archie wins by +1, a graze: "the graze rules are used unchanged" (FTC 7.3: a Scratch); the 3d6
    the GM set stay waiting."""
    b = duel(MMM, attacker=person(ARCHIE), target=person(RACHEL))
    struck = blow(b, ((-1, 0, 0, 0), (0, 0, 0, 0)), attacker=[("damage_3d6", (6, 6, 6))], aim="torso")
    assert (struck.blow.relative_degree, struck.calculated - 1) == (1, 4)
    assert (struck.level, struck.blow.steps) == ("Scratch", ())
    assert waiting(b, "damage_3d6") == 1


def test_fudge_4_63_round_3_archie_wins_by_four_and_reads_the_max() -> None:
    """Round 3: Archie's factor 4 (+1) and degree +4 (+1): Max; 1, 2, 3 reads 3: Rachel is Hurt."""
    struck = _archie_strikes(((1, 1, 0, 0), (0, 0, 0, 0)), (1, 2, 3))
    assert (struck.blow.relative_degree, struck.calculated - 4) == (4, 4)
    assert (struck.blow.damage, struck.level) == (3, "Hurt")
    assert "read Max" in struck.blow.steps[0].what


def test_fudge_4_63_round_4_rachel_wins_by_six_and_reads_the_max() -> None:
    """Round 4: Rachel wins by +6: Max; 1, 4, 6 reads 6: Archie Very Hurt. (The text's 7, Incapacitated, adds
    Fudge's all-out attack +1, which FTC's stances do not give.)"""
    struck = _rachel_strikes(((1, 1, 1, 0), (-1, -1, 0, 0)), (1, 4, 6))
    assert (struck.blow.relative_degree, struck.calculated - 6) == (6, 0)
    assert (struck.blow.damage, struck.level) == (6, "Very Hurt")


def test_fudge_4_63_the_median_is_the_middle_value() -> None:
    """ "A roll of 2, 4, 4: the Min = 2, the Mid = 4, and the Max = 4"; "a roll of triples means Min = Mid =
    Max"; Max + Min and all three added."""
    assert [mmm.value((4, 2, 4), r) for r in ("min", "mid", "max")] == [2, 4, 4]
    assert {mmm.value((4, 4, 4), r) for r in ("min", "mid", "max")} == {4}
    assert (mmm.value((6, 1, 4), "max+min"), mmm.value((6, 6, 6), "all")) == (7, 18)


@pytest.mark.parametrize(
    ("attack", "faces", "wound"),
    [((-1, 0, 0, 0), (1, 3, 5), "Scratch"), ((0, 0, 0, 0), (1, 3, 5), "Hurt"), ((1, 0, 0, 0), (1, 3, 5), "Very Hurt")],
)
def test_fudge_4_63_one_three_five_reads_a_scratch_a_hurt_or_a_very_hurt(
    attack: tuple[int, ...], faces: tuple[int, ...], wound: str
) -> None:
    """ "With a roll of 1, 3, 5, for example, the Min die = 1 (a Scratch result), the Mid die = 3 (a Hurt
    result), and the Max die = 5 (a Very Hurt result)": the guard's Broadsword (factor +2, no bonus) at degree
    +2 (Min), +4 (Mid) and +6 (Max)."""
    b = duel(MMM)
    defence = {(-1, 0, 0, 0): (1, 0, 0, 0), (0, 0, 0, 0): (0, 0, 0, 0), (1, 0, 0, 0): (-1, 0, 0, 0)}[attack]
    struck = blow(b, (attack, defence), attacker=[("damage_3d6", faces)], aim="torso")
    assert struck.calculated - struck.blow.relative_degree == 2
    assert struck.blow.relative_degree == {-1: 2, 0: 4, 1: 6}[attack[0]]
    assert struck.level == wound


def test_fudge_4_63_triples_read_the_same_at_every_bonus() -> None:
    for rolls in (((-1, 0, 0, 0), (1, 0, 0, 0)), ((0, 0, 0, 0), (0, 0, 0, 0)), ((1, 0, 0, 0), (-1, 0, 0, 0))):
        struck = blow(duel(MMM), rolls, attacker=[("damage_3d6", (4, 4, 4))], aim="torso")
        assert (struck.blow.damage, struck.level) == (4, "Hurt")


def test_fudge_4_63_the_bonus_tables() -> None:
    """ "A damage factor of 3, for example, has a die-reading bonus of +1, while a relative degree of 3 has a
    die-reading bonus of 0"; "a damage factor of +3 (bonus: +1) and a relative degree of +5 (bonus: +1) ... +2";
    below zero -1; -5 or worse -2 with the GM's penalty."""
    assert (mmm.factor_bonus(3), mmm.degree_bonus(3), mmm.total_bonus(3, 5)) == (1, 0, 2)
    assert [mmm.factor_bonus(f) for f in (-5, -1, 0, 2, 3, 5, 6, 9)] == [-1, -1, 0, 0, 1, 1, 2, 2]
    assert [mmm.degree_bonus(d) for d in (2, 3, 4, 5, 6, 9)] == [0, 0, 1, 1, 2, 2]
    assert (mmm.factor_bonus(-5, low_penalty=True), mmm.factor_bonus(-4, low_penalty=True)) == (-2, -1)
    assert [mmm.read_for(b) for b in range(5)] == ["min", "mid", "max", "max+min", "all"]


def test_fudge_4_63_more_bonuses_add_dice() -> None:
    """Bonus 3 reads Max + Min: 1, 4, 6 is 7, Incapacitated; bonus 4 adds all three: 6, 6, 6 is 18, Near Death (the
    game never kills outright: beyond 9 stays Near Death)."""
    three = blow(
        duel(MMM, attacker=person(GUARD, strength="Great", weapons=["Battle Axe"], skills={"Axe": "Superb"})),
        ((0, 0, 0, 0), (1, 0, 0, 0)),
        attacker=[("damage_3d6", (1, 4, 6))],
        aim="torso",
    )
    assert (three.blow.relative_degree, three.calculated - three.blow.relative_degree) == (5, 6)  # +2 and +1
    assert (three.blow.damage, three.level) == (7, "Incapacitated")
    four = blow(
        duel(MMM, attacker=person(GUARD, strength="Great", weapons=["Battle Axe"], skills={"Axe": "Superb"})),
        ((1, 0, 0, 0), (0, 0, 0, 0)),
        attacker=[("damage_3d6", (6, 6, 6))],
        aim="torso",
    )
    assert (four.blow.relative_degree, four.calculated - four.blow.relative_degree) == (6, 6)  # +2 and +2
    assert (four.blow.damage, four.level) == (18, "Near Death")


def test_fudge_4_63_a_total_below_zero_does_no_wound_and_rolls_nothing() -> None:
    """ "A total bonus of less than zero means no damage is possible: don't even roll the dice": factor -1 (the
    guard's Broadsword against Chain Mail) at degree +2."""
    b = duel(MMM, target=person(PEASANT, armour=["Chain Mail"]))
    struck = blow(b, attacker=[("damage_3d6", (6, 6, 6))], aim="torso")
    assert (struck.blow.relative_degree, struck.calculated - 2) == (2, -1)
    assert (struck.blow.damage, struck.level, struck.wound) == (0, None, None)
    assert struck.blow.steps[0].what.endswith("no wound, no roll")
    assert waiting(b, "damage_3d6") == 1


def _low(options: RuleOptions, attack: tuple[int, ...]) -> Struck:
    """Damage factor -5: the guard's Fist (-2, Fair Strength) against Chain Mail (+3)."""
    attacker = person(GUARD, skills={"Brawling": "Superb"}, weapons=["Fist"])
    b = duel(options, attacker=attacker, target=person(PEASANT, armour=["Chain Mail"]))
    return blow(b, (attack, (0, 0, 0, 0)), attacker=[("damage_3d6", (1, 3, 5))], aim="torso")


def test_fudge_4_63_the_low_factor_penalty() -> None:
    """ "The GM may charge a -2 penalty if the damage factor is well below zero (-5 or worse)": factor -5 at
    degree +6 reads the Mid (-1 +2) without it, the Min (-2 +2) with it; at degree +4 the Min (-1 +1) without
    it, and with it no wound and no roll (-2 +1)."""
    mid = _low(MMM, (1, 1, 0, 0))
    assert (mid.blow.relative_degree, mid.calculated - 6) == (6, -5)
    assert (mid.blow.damage, mid.level) == (3, "Hurt")
    low = _low(LOW, (1, 1, 0, 0))
    assert (low.blow.damage, low.level) == (1, "Scratch")
    near = _low(MMM, (0, 0, 0, 0))
    assert (near.blow.relative_degree, near.blow.damage, near.level) == (4, 1, "Scratch")
    none = _low(LOW, (0, 0, 0, 0))
    assert (none.level, none.wound) == (None, None)


@pytest.mark.parametrize(("attack", "wound"), [((1, 1, 0, 0), "Near Death"), ((0, 0, 0, 0), "Incapacitated")])
def test_fudge_4_63_the_value_read_on_the_epic_track(attack: tuple[int, ...], wound: str) -> None:
    """4.63's epic track (1 Scratch, 2-3 Hurt, 4-5 Very Hurt, 6 Incapacitated, 7+ Near Death): 1, 4, 6 read at
    Max + Min is 7, Near Death on it; at Max, 6, Incapacitated (a Good-Strength guard: factor +3)."""
    b = duel(MMM, attacker=person(GUARD, strength="Good"), target=person(PEASANT, wound_track="epic"))
    struck = blow(b, (attack, (0, 0, 0, 0)), attacker=[("damage_3d6", (1, 4, 6))], aim="torso")
    assert struck.calculated - struck.blow.relative_degree == 3
    assert struck.blow.relative_degree == (6 if attack[0] else 4)
    assert struck.level == wound


def test_fudge_4_63_epic_track_values() -> None:
    epic = named_track("epic")
    assert [str(epic.level_for_damage(v)) for v in (1, 2, 4, 6, 7)] == [
        "Scratch",
        "Hurt",
        "Very Hurt",
        "Incapacitated",
        "Near Death",
    ]


def test_fudge_4_63_the_odds_of_max_plus_min() -> None:
    """A certain hit at bonus 3 on the default track, no Health roll: Scratch 1, Hurt 19, Very Hurt 61,
    Incapacitated 91, Near Death 44 (out of 216)."""
    rules = rules_of(MMM)
    # offence certain to beat defence by 5 (degree bonus +1), factor 6 (+2)
    dist = outcome_distribution(20, None, (), 15, 6, rules=rules, set_rolls=(0, None, None))
    levels = {o.level: p for o, p in dist.items()}
    assert levels == {
        WoundLevel.SCRATCH: Fraction(1, 216),
        WoundLevel.HURT: Fraction(19, 216),
        WoundLevel.VERY_HURT: Fraction(61, 216),
        WoundLevel.INCAPACITATED: Fraction(91, 216),
        WoundLevel.NEAR_DEATH: Fraction(44, 216),
    }
    assert DEFAULT_TRACK.level_for_damage(9) == WoundLevel.NEAR_DEATH


def test_fudge_4_63_the_best_aim_goes_where_the_bonus_is_best() -> None:
    """FTC 6.6 read for Min-Mid-Max: a Superb+ hit aimed "best" at an unhelmeted target in Chain Mail goes to the
    head (factor +4 with the head blow: +1, against the torso's -1) — and on equal bonus a torso beats a limb."""
    assert (
        mmm.best_location(
            ("torso", "head", "arm", "leg"), {"torso": -1, "head": 4, "arm": -1, "leg": -1}, 4, low_penalty=False
        )
        == "head"
    )
    assert mmm.best_location(("torso", "arm"), {"torso": 1, "arm": 2}, 2, low_penalty=False) == "torso"
    assert mmm.best_location(("torso", "arm"), {"torso": 1, "arm": 3}, 2, low_penalty=False) == "arm"
    b = duel(MMM, target=person(PEASANT, armour=["Chain Mail"]))
    struck = blow(b, ((1, 0, 0, 0), (-1, 0, 0, 0)), attacker=[("damage_3d6", (2, 3, 5))])
    assert (struck.blow.relative_degree, struck.blow.location, struck.calculated) == (6, "head", 10)
    assert (struck.blow.damage, struck.level) == (7, "Incapacitated")  # Max + Min
