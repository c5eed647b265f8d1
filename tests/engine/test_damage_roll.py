"""The damage roll (*Fudge* 4.61) with its three limits, its variants on the number and on the level, the roll on
a graze (*Fudge* 4.56) and the situational roll on a wound (*Fudge* 4.55), each from the text's own numbers and
examples, in battles driven through the door with every die set from the GM's seat (tests/engine/blow_scenes.py).

Each test asserts the relative degree and the calculated damage first (FTC 6.4, 7), then what the roll made of
them, then the box; and the odds shown before declaring (every roll set) are the one outcome the battle gives."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from game.engine import blow, gm, odds
from game.engine.battle import Battle, IllegalAction, RuleOptions
from game.engine.blow import rules_of
from game.engine.damage_roll import limited
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.odds import outcome_distribution
from game.engine.wounds import WoundLevel
from game.report import side_rolls
from tests.engine.blow_scenes import GRAZE, GUARD, HIT, PEASANT, duel, person, waiting
from tests.engine.blow_scenes import blow as strike

S, H, VH, INC = WoundLevel.SCRATCH, WoundLevel.HURT, WoundLevel.VERY_HURT, WoundLevel.INCAPACITATED
SITUATIONAL = RuleOptions(damage_roll="situational")
WILD = RuleOptions(damage_roll="situational", damage_roll_wild=True)

ROLLS = {
    4: (1, 1, 1, 1),
    3: (1, 1, 1, 0),
    2: (1, 1, 0, 0),
    1: (1, 0, 0, 0),
    0: (0, 0, 0, 0),
    -1: (-1, 0, 0, 0),
    -2: (-1, -1, 0, 0),
    -3: (-1, -1, -1, 0),
    -4: (-1, -1, -1, -1),
}
"""A 4dF roll of each total, as the GM sets it."""


def studded(options: RuleOptions) -> Battle:
    """Fudge 4.61's calculated damage +2: a Fair-Strength guard's Broadsword (+2) against Studded Leather (+2),
    relative degree +2 (``HIT``)."""
    return duel(options, target=person(PEASANT, armour=["Studded Leather"]))


def _certain(struck_odds: object, level: WoundLevel | None) -> None:
    (outcome,) = struck_odds  # type: ignore[misc]
    assert outcome.level == level


# ------------------------------------------------------------------------------------------ the limits


@pytest.mark.parametrize(
    ("roll", "final", "wound", "limit"),
    [(3, 4, "Hurt", "limited to +2"), (4, 4, "Hurt", "limited to +2"), (2, 4, "Hurt", "")],
)
def test_fudge_4_61_limit_one_caps_the_roll_at_the_calculated_damage(
    roll: int, final: int, wound: str, limit: str
) -> None:
    """Limit 1: "if the calculated damage is +2, any damage roll of +3 or +4 is treated as +2, for a total of 4
    points of damage"; the step says so, and the Hurt box is marked."""
    b = studded(SITUATIONAL)
    struck = strike(b, attacker=[("damage", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.calculated) == (2, 2)
    assert (struck.blow.damage, struck.level) == (final, wound)
    (step,) = struck.blow.steps
    assert (step.rule, step.what, step.faces, step.before, step.after) == (
        "Fudge 4.61",
        "damage roll" + (f", {limit}" if limit else ""),
        ROLLS[roll],
        "2",
        str(final),
    )
    assert struck.wound is not None and struck.wound.box == "Hurt"
    _certain(struck.odds, H)
    assert "damage 2 (+2 +2 Broadsword -2 Studded Leather); damage roll" in struck.blow.text()


@pytest.mark.parametrize(
    ("roll", "final", "wound"),
    [(1, 3, "Hurt"), (0, 2, "Scratch"), (-1, 1, "Scratch"), (-2, 1, "Scratch"), (-4, 1, "Scratch")],
)
def test_fudge_4_61_second_example_every_row(roll: int, final: int, wound: str) -> None:
    """Second example: calculated +2 (a Scratch): +1 makes 3, 0 keeps 2, "any negative die roll results in one
    point of final damage" (limit 2)."""
    struck = strike(studded(SITUATIONAL), attacker=[("damage", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.calculated) == (2, 2)
    assert (struck.blow.damage, struck.level) == (final, wound)
    assert ("at least 1 point" in struck.blow.steps[0].what) == (roll < -1)


def _plated(options: RuleOptions) -> Battle:
    """Calculated damage -2: a Mediocre-Strength guard's Shortsword (-1 +1) against Field Plate (+4), degree +2."""
    return duel(
        options,
        attacker=person(GUARD, strength="Mediocre", weapons=["Shortsword"]),
        target=person(PEASANT, armour=["Field Plate"]),
    )


@pytest.mark.parametrize(("roll", "final", "wound"), [(4, 1, "Scratch"), (3, 1, "Scratch"), (2, 0, None)])
def test_fudge_4_61_first_example_armour_and_scale_hold_a_blow_to_a_scratch(
    roll: int, final: int, wound: str | None
) -> None:
    """First example: calculated -2: "it would take a +3 or +4 die roll to inflict a wound ... and then only 1
    point of calculated damage: a Scratch" (limit 3)."""
    struck = strike(_plated(SITUATIONAL), attacker=[("damage", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.calculated) == (2, -2)
    assert (struck.blow.damage, struck.level) == (final, wound)
    assert (struck.wound is None) == (wound is None)
    _certain(struck.odds, None if wound is None else S)


@pytest.mark.parametrize(("roll", "final", "wound"), [(4, 6, "Very Hurt"), (-2, 0, None)])
def test_fudge_4_61_without_limits_the_chips_fall(roll: int, final: int, wound: str | None) -> None:
    """ "The GM can simply ignore the limitations, and allow the damage roll to be anywhere from -4 to +4":
    calculated +2 with +4 is 6, Very Hurt; with -2 it is 0, no wound."""
    struck = strike(studded(WILD), attacker=[("damage", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.calculated) == (2, 2)
    assert (struck.blow.damage, struck.level) == (final, wound)
    assert struck.blow.steps[0].what == "damage roll"


def test_fudge_4_61_the_limits_as_numbers() -> None:
    assert limited(2, 3, wild=False) == (4, "limited to +2")
    assert limited(2, -4, wild=False) == (1, "at least 1 point")
    assert limited(-2, 4, wild=False) == (1, "at most 1 point")
    assert limited(-2, 3, wild=False) == (1, "")
    assert limited(0, -4, wild=False) == (-4, "")
    assert limited(2, 4, wild=True) == (6, "")


# ------------------------------------------------------------------------------------------ one die, parity


@pytest.mark.parametrize(("die", "final", "wound"), [(1, 5, "Very Hurt"), (-1, 3, "Hurt"), (0, 4, "Hurt")])
def test_fudge_4_61_one_die_on_the_damage_number(die: int, final: int, wound: str) -> None:
    """ "If a fighter inflicts 4 points of damage, that is normally a Hurt result. If a +1 on 1dF is rolled ...
    +5, Very Hurt ... a -1 wouldn't change the wound: it would lower the result to 3, which is still a Hurt"."""
    struck = strike(duel(RuleOptions(damage_roll="one_die")), attacker=[("damage_die", (die,))])
    assert (struck.blow.relative_degree, struck.calculated) == (2, 4)
    assert (struck.blow.damage, struck.level) == (final, wound)
    assert (
        struck.blow.steps[0].text()
        == f"damage die [{'+' if die > 0 else '-' if die < 0 else '0'}] = {die:+d} (Fudge 4.61): 4 → {final}"
    )


@pytest.mark.parametrize(("die", "wound"), [(-1, "Scratch"), (1, "Very Hurt"), (0, "Hurt")])
def test_fudge_4_61_one_die_on_the_wound_level(die: int, wound: str) -> None:
    """ "If the GM is using 1dF to alter the wound level, then a -1 changes the result to a Scratch, since that's
    one wound level below Hurt"; the damage number stays 4."""
    struck = strike(duel(RuleOptions(damage_roll="one_die_level")), attacker=[("damage_die", (die,))])
    assert (struck.blow.relative_degree, struck.calculated) == (2, 4)
    assert (struck.blow.damage, struck.level) == (4, wound)
    step = struck.blow.steps[0]
    assert (step.before, step.after) == ("Hurt", wound)
    assert struck.wound is not None and struck.wound.box == wound


def test_fudge_4_61_one_die_on_the_level_keeps_a_scratch_with_the_limits_and_loses_it_without() -> None:
    """A Scratch moved one level down: with the limits a wounding blow stays a Scratch; wild, it is no wound."""
    kept = strike(studded(RuleOptions(damage_roll="one_die_level")), attacker=[("damage_die", (-1,))])
    lost = strike(
        studded(RuleOptions(damage_roll="one_die_level", damage_roll_wild=True)), attacker=[("damage_die", (-1,))]
    )
    assert kept.calculated == lost.calculated == 2
    assert (kept.level, lost.level) == ("Scratch", None)


def test_fudge_4_61_one_die_on_the_level_is_not_rolled_when_the_blow_does_no_wound() -> None:
    b = _plated(RuleOptions(damage_roll="one_die_level"))
    struck = strike(b, attacker=[("damage_die", (1,))])
    assert (struck.calculated, struck.level, struck.blow.steps) == (-2, None, ())
    assert waiting(b, "damage_die") == 1


@pytest.mark.parametrize(
    ("attack", "defence", "change"),
    [((1, 1, 1, 0), (0, 0, 0, 0), -1), ((1, 1, 0, 0), (1, 0, 0, 0), 1), ((1, 1, 0, 0), (0, 0, 0, 0), 0)],
)
def test_fudge_4_61_even_rolls_move_the_damage(attack: tuple[int, ...], defence: tuple[int, ...], change: int) -> None:
    """ "The defender loses the combat round, but rolls his trait level exactly (die roll of 0): he adds one to
    his defensive damage factor. The attacker wins with a die roll of +3: his offensive damage factor is
    unchanged. The final damage number is reduced by one"; an even winning roll (+2) against an odd one adds
    one; both even change nothing."""
    struck = strike(duel(RuleOptions(damage_roll="even_roll")), (attack, defence))
    assert struck.blow.hit and struck.blow.relative_degree >= 2
    assert struck.blow.damage == struck.calculated + change
    assert "even roll" in struck.blow.steps[0].what
    _certain(struck.odds, WoundLevel.parse(struck.level) if struck.level else None)


def test_fudge_4_61_even_rolls_on_the_level() -> None:
    """The same, "applied to the wound level": the defender's even 0 against the attacker's odd +1 makes an
    Incapacitating blow (damage 7) Very Hurt; the number stays."""
    struck = strike(duel(RuleOptions(damage_roll="even_roll_level")), ((1, 0, 0, 0), (0, 0, 0, 0)), aim="torso")
    assert (struck.blow.relative_degree, struck.calculated) == (5, 7)
    assert (struck.blow.damage, struck.level) == (7, "Very Hurt")
    assert struck.blow.steps[0].what == "even roll: +1 defence (defence roll +0), on the wound"


# ------------------------------------------------------------------------------------------ Snorri and Brynhild

SNORRI = {"name": "Snorri", "strength": "Great", "skills": {"Axe": "Good"}, "weapons": ["Large Axe"]}
BRYNHILD = {"name": "Brynhild", "skills": {"Axe": "Good"}, "weapons": ["Large Axe"], "armour": ["Studded Leather"]}


def test_fudge_4_7_snorri_wounds_brynhild_with_the_three_limits() -> None:
    """4.7, round 1 ("the 4dF option, with the three limitations"): Snorri's offensive factor 5 (Great Strength
    +2, a Large Axe +3: the text's Good Strength and +4 magic sword have no catalogue twin) against Brynhild's
    2 (Studded Leather); Snorri rolls +1 (Great), Brynhild -1 (Fair): +2, damage 5, Very Hurt before the roll;
    the damage roll -2 makes it 3: Brynhild is Hurt."""
    b = duel(SITUATIONAL, attacker=person(SNORRI), target=person(BRYNHILD))
    struck = strike(b, ((1, 0, 0, 0), (-1, 0, 0, 0)), attacker=[("damage", ROLLS[-2])])
    assert (struck.blow.offence, struck.blow.defence, struck.blow.relative_degree) == (2, 0, 2)  # Great, Fair
    assert struck.calculated == 5
    assert (struck.blow.damage, struck.level) == (3, "Hurt")
    assert struck.wound is not None and struck.wound.box == "Hurt"


# ------------------------------------------------------------------------------------------ a graze (4.56)


def _grazing(options: RuleOptions) -> Battle:
    """Fudge 4.7 round 3's graze: a damage factor of +3 (a Good-Strength guard's Broadsword, no armour), so a
    graze's damage 4 reads Hurt but a graze does a Scratch."""
    return duel(options, attacker=person(GUARD, strength="Good"))


GRAZE_ROLL = RuleOptions(damage_roll="situational", graze_damage_roll=True)


@pytest.mark.parametrize(
    ("roll", "final", "wound"),
    [(0, 4, "Scratch"), (-1, 3, "Scratch"), (1, 5, "Hurt"), (2, 6, "Hurt"), (-3, 1, "Scratch")],
)
def test_fudge_4_56_a_damage_roll_moves_a_graze_one_level_at_most(roll: int, final: int, wound: str) -> None:
    """4.7 round 3: "a damage factor of +3 means a Scratch on a graze"; Snorri rolls 0: a Scratch. A roll that
    reads a worse wound (+1: 5, Very Hurt) raises the graze one level, never two (+2); one that reads a lighter
    wound (-3: 1, a Scratch) lowers it one level, but with the limits a wounding graze stays a Scratch."""
    struck = strike(_grazing(GRAZE_ROLL), GRAZE, attacker=[("damage", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.calculated) == (1, 4)
    assert (struck.blow.damage, struck.level) == (final, wound)
    step = struck.blow.steps[0]
    assert (step.rule, step.before, step.after) == ("Fudge 4.56", "4 (Scratch)", f"{final} ({wound})")
    _certain(struck.odds, WoundLevel.parse(wound))


def test_fudge_4_56_a_graze_rolled_down_without_the_limits_is_no_wound() -> None:
    options = RuleOptions(damage_roll="situational", graze_damage_roll=True, damage_roll_wild=True)
    struck = strike(_grazing(options), GRAZE, attacker=[("damage", ROLLS[-3])])
    assert (struck.calculated, struck.blow.damage, struck.level, struck.wound) == (4, 1, None, None)


def test_fudge_4_56_a_fist_graze_against_plate_stays_hopeless_under_the_limits() -> None:
    """A mailed fist (-1) against Field Plate (+4) grazes for -4: even +4 rolls it only to 0 (limit 3)."""
    b = duel(
        GRAZE_ROLL,
        attacker=person(GUARD, skills={"Brawling": "Superb"}, weapons=["Mailed Gauntlet"]),
        target=person(PEASANT, armour=["Field Plate"]),
    )
    struck = strike(b, GRAZE, attacker=[("damage", ROLLS[4])])
    assert (struck.blow.relative_degree, struck.calculated) == (1, -4)
    assert (struck.blow.damage, struck.level) == (0, None)


def test_fudge_4_56_without_the_graze_roll_a_graze_rolls_nothing() -> None:
    b = _grazing(SITUATIONAL)
    struck = strike(b, GRAZE, attacker=[("damage", ROLLS[4])])
    assert (struck.blow.relative_degree, struck.level, struck.blow.steps) == (1, "Scratch", ())
    assert waiting(b, "damage") == 1


@pytest.mark.parametrize(("roll", "wound"), [(1, "Scratch"), (0, None)])
def test_fudge_4_56_the_graze_table_and_a_roll_give_a_hopeless_graze_one_level(roll: int, wound: str | None) -> None:
    """With Fudge's graze table a damage factor of -1 leaves a graze undamaged; a roll of +1 makes the damage 1
    (limit 3), a Scratch, one level up; 0 changes nothing."""
    options = RuleOptions(damage_roll="situational", graze_damage_roll=True, fudge_graze_table=True)
    b = duel(options, attacker=person(GUARD, strength="Good"), target=person(PEASANT, armour=["Field Plate"]))
    struck = strike(b, GRAZE, attacker=[("damage", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.calculated) == (1, 0)
    assert struck.level == wound


@pytest.mark.parametrize(("die", "wound"), [(1, "Hurt"), (-1, None), (0, "Scratch")])
def test_fudge_4_56_one_die_on_the_level_moves_a_graze(die: int, wound: str | None) -> None:
    options = RuleOptions(damage_roll="one_die_level", graze_damage_roll=True, damage_roll_wild=True)
    struck = strike(_grazing(options), GRAZE, attacker=[("damage_die", (die,))])
    assert (struck.blow.relative_degree, struck.level) == (1, wound)


# ------------------------------------------------------------------------------------------ the wound (4.55)


@pytest.mark.parametrize(
    ("variant", "roll", "wound"),
    [
        ("worse", 3, "Very Hurt"),
        ("worse", 4, "Incapacitated"),
        ("worse", 2, "Hurt"),
        ("worse", -4, "Hurt"),
        ("both", -4, "Scratch"),
        ("both", -3, "Scratch"),
        ("both", 4, "Incapacitated"),
    ],
)
def test_fudge_4_55_a_situational_roll_on_the_wound(variant: str, roll: int, wound: str) -> None:
    """ "A roll of -1 to +1 isn't significant ... But a roll of +3 or +4 adds a wound level or two to the
    damage": a Hurt blow (damage 4) with +3 is Very Hurt, with +4 Incapacitated; under "both" -3 / -4 make it
    lighter, never below a Scratch. The roll is the target's."""
    b = duel(RuleOptions(wound_situational_roll=variant))
    struck = strike(b, target=[("wound_situational", ROLLS[roll])])
    assert (struck.blow.relative_degree, struck.blow.damage) == (2, 4)
    assert struck.level == wound
    step = struck.blow.steps[0]
    assert (step.rule, step.faces, step.before, step.after) == ("Fudge 4.55", ROLLS[roll], "Hurt", wound)
    _certain(struck.odds, WoundLevel.parse(wound))


def test_fudge_4_55_a_scratch_rolled_down_stays_a_scratch() -> None:
    struck = strike(studded(RuleOptions(wound_situational_roll="both")), target=[("wound_situational", ROLLS[-3])])
    assert (struck.calculated, struck.level) == (2, "Scratch")


def test_fudge_4_55_a_blow_that_does_no_wound_makes_no_situational_roll() -> None:
    b = _plated(RuleOptions(wound_situational_roll="worse"))
    struck = strike(b, target=[("wound_situational", ROLLS[4])])
    assert (struck.level, struck.blow.steps) == (None, ())
    assert waiting(b, "wound_situational") == 1


# ------------------------------------------------------------------------------------------ the odds


def _certain_hit(options: RuleOptions) -> dict[WoundLevel | None, Fraction]:
    b = studded(options)
    b.apply(gm.SetDie("a", "combat", HIT[0]))
    b.apply(gm.SetDie("t", "combat", HIT[1]))
    b.apply(gm.SetDie("t", "health", (0, 0, 0, 0)))
    from game.engine.preview import attack_preview

    dist = attack_preview(b, "a", None, "t").distribution
    out: Counter[WoundLevel | None] = Counter()
    for o, p in dist.items():
        out[o.level] += p  # type: ignore[assignment]
    return dict(out)


def test_fudge_4_61_the_odds_of_a_certain_hit_spread_over_the_damage_roll() -> None:
    """Calculated +2 under the situational roll: final 3 or 4 (+1 and better) is Hurt, 31/81; the rest a
    Scratch, 50/81. Without the limits: no wound 15/81, Scratch 35/81, Hurt 26/81, Very Hurt 5/81."""
    assert _certain_hit(SITUATIONAL) == {H: Fraction(31, 81), S: Fraction(50, 81)}
    assert _certain_hit(WILD) == {None: Fraction(15, 81), S: Fraction(35, 81), H: Fraction(26, 81), VH: Fraction(5, 81)}


def test_fudge_4_61_the_odds_of_even_rolls_are_a_count_over_every_pair_of_rolls() -> None:
    """The parity variant rolls nothing of its own: its odds are a hand count over the 81 x 81 rolls of attacker
    and target (offence Great against defence Fair, damage base 2, no Health roll)."""
    rules = rules_of(RuleOptions(damage_roll="even_roll"))
    dist = outcome_distribution(5, 3, (), -10, 2, rules=rules)
    count: Counter[WoundLevel | None] = Counter()
    for x, wx in FOUR_DF_COUNTS.items():
        for y, wy in FOUR_DF_COUNTS.items():
            if 5 + x <= 3 + y:
                continue
            degree = 5 + x - 3 - y
            number = degree + 2 + (x % 2 == 0) - (y % 2 == 0)
            final, _ = limited(degree + 2, number - degree - 2, wild=False)
            level = blow.read_level(final, degree, odds.DEFAULT_TRACK, False)
            count[level] += wx * wy
    by_level: Counter[WoundLevel | None] = Counter()
    for o, p in dist.items():
        if o.hit:
            by_level[o.level] += p  # type: ignore[assignment]
    assert dict(by_level) == {k: Fraction(v, 81 * 81) for k, v in count.items()}


# ------------------------------------------------------------------------------------------ off, saves


def test_fudge_4_61_off_a_battle_takes_no_damage_roll() -> None:
    """Off (FTC 7), the GM's seat may not set a damage roll: the battle would never make it."""
    b = studded(RuleOptions())
    for purpose in ("damage", "damage_die", "damage_3d6", "wound_situational"):
        with pytest.raises(IllegalAction, match=f"A battle makes no {purpose} roll"):
            b.apply(
                gm.SetDie(
                    "a",
                    purpose,
                    (1,) if purpose == "damage_die" else (1, 2, 3) if purpose == "damage_3d6" else ROLLS[1],
                )
            )


def test_the_attackers_4df_damage_roll_counts_in_his_sides_luck_and_one_die_does_not() -> None:
    """The after-battle report's luck sums 4dF rolls a side made for itself: the situational damage roll is the
    attacker's (blue's); a single Fudge die is no 4dF sum and is left out."""
    b = studded(SITUATIONAL)
    strike(b, attacker=[("damage", ROLLS[3])])
    assert ROLLS[3] in side_rolls(b)["blue"] and ROLLS[3] not in side_rolls(b)["red"]
    one = duel(RuleOptions(damage_roll="one_die"))
    strike(one, attacker=[("damage_die", (1,))])
    assert all(len(faces) == 4 for faces in side_rolls(one)["blue"])
