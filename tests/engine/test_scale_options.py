"""Scale's rule options (*Fudge* 4.58, 4.65): a damage roll when Scale alone stops a Scratch, a smaller fighter's
critical success getting points through, and technological levels as Scale — from the text's own examples
(Fionn and Sheba, Wilbur and the dragon, Sheba's kick), in battles driven through the door with every die set
from the GM's seat (tests/engine/blow_scenes.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.engine import gm
from game.engine.battle import Battle, IllegalAction, RuleOptions
from game.engine.blow import extra_factors, rules_of
from game.engine.characters import Character
from game.engine.damage import TORSO
from game.engine.equipment import armour, weapon
from tests.engine.blow_scenes import GUARD, PEASANT, Struck, blow, duel, person, waiting, with_weapon_tech

FIONN = {"name": "Fionn", "strength": "Good", "scale": -4, "skills": {"Sword": "Good"}, "weapons": ["Broadsword"]}
"""Good Strength (+1), Scale -4, a Broadsword (+2: the shillelagh's +2; not a Mace, which would halve leather):
offensive factor -1."""
SHEBA = {"name": "Sheba", "skills": {"Axe": "Mediocre"}, "weapons": ["Hand Axe"], "armour": ["Studded Leather"]}
"""Studded Leather: defensive factor +2."""
BY_THREE = ((1, 0, 0, 0), (0, 0, 0, 0))
"""Fionn (Good +1 = Great) against Sheba (Mediocre, no parry penalty): +3, "a solid blow"."""
EVERY_SCALE_OPTION = RuleOptions(critical_penetration=2, scale_damage_roll=True, tech_level_scale=2)


def _fionn(options: RuleOptions) -> Battle:
    return duel(options, attacker=person(FIONN), target=person(SHEBA))


def test_fudge_4_58_fionns_solid_blow_does_sheba_no_harm_as_written() -> None:
    """Fionn wins by +3: damage 3 - 1 - 2 = 0, no wound (FTC 7 with Fudge 4.58's Scale as a factor)."""
    struck = blow(_fionn(RuleOptions()), BY_THREE, aim="torso")
    assert (struck.blow.relative_degree, struck.calculated, struck.level) == (3, 0, None)
    assert ("Strength Scale", -4) in struck.blow.offensive_factors


@pytest.mark.parametrize(
    ("faces", "wound"), [((1, 1, 0, 0), "Scratch"), ((0, 0, 0, 0), None), ((1, 1, 1, 1), "Scratch")]
)
def test_fudge_4_58_a_damage_roll_when_scale_alone_stops_a_scratch(faces: tuple[int, ...], wound: str | None) -> None:
    """ "Allow a damage roll when Scale prevents a hit from doing any damage — that is, when Scale is the only
    difference between getting a Scratch and no damage at all": without Scale Fionn's blow would do 4. A roll of
    +2 gets 1 point through (a Scratch); 0 nothing; +4 still 1 (Fudge 4.61's limit 3)."""
    struck = blow(_fionn(RuleOptions(scale_damage_roll=True)), BY_THREE, attacker=[("damage", faces)], aim="torso")
    assert (struck.blow.relative_degree, struck.calculated) == (3, 0)
    assert struck.level == wound
    (step,) = struck.blow.steps
    assert (step.rule, step.faces, step.before) == ("Fudge 4.58", faces, "0")
    assert ("at most 1 point" in step.what) == (sum(faces) >= 2)


def test_fudge_4_58_no_damage_roll_when_armour_not_scale_stops_the_blow() -> None:
    """A Fist (-2) against Field Plate (+4) at Scale 0: no wound, and no roll (Scale is not what stops it)."""
    b = duel(
        RuleOptions(scale_damage_roll=True),
        attacker=person(GUARD, skills={"Brawling": "Superb"}, weapons=["Fist"]),
        target=person(PEASANT, armour=["Field Plate"]),
    )
    struck = blow(b, attacker=[("damage", (1, 1, 1, 1))], aim="torso")
    assert (struck.calculated, struck.level, struck.blow.steps) == (-4, None, ())
    assert waiting(b, "damage") == 1


@pytest.mark.parametrize(("points", "wound"), [(1, "Scratch"), (2, "Scratch")])
def test_fudge_4_58_a_smaller_fighters_critical_success_gets_points_through(points: int, wound: str) -> None:
    """ "The GM may allow a point or two of damage to penetrate if the small character gets a critical success"
    (read as a combat roll of +4): Fionn rolls [+ + + +] and wins by +3 (Sheba rolled +3), damage 0 -> 1 or 2."""
    struck = blow(_fionn(RuleOptions(critical_penetration=points)), ((1, 1, 1, 1), (1, 1, 1, 0)), aim="torso")
    assert (struck.blow.roll, struck.blow.relative_degree, struck.calculated) == (4, 3, 0)
    assert (struck.blow.damage, struck.level) == (points, wound)
    assert (
        struck.blow.steps[0].text()
        == f"critical +4: {points} point{'s' if points > 1 else ''} get through (Fudge 4.58): 0 → {points}"
    )


def test_fudge_4_58_a_roll_of_three_is_no_critical() -> None:
    struck = blow(_fionn(RuleOptions(critical_penetration=2)), ((1, 1, 1, 0), (1, 1, 0, 0)), aim="torso")
    assert (struck.blow.roll, struck.blow.relative_degree, struck.calculated, struck.level) == (3, 3, 0, None)


def test_fudge_4_58_a_fighter_of_the_same_scale_gets_nothing_through_plate_with_a_critical() -> None:
    """The critical is for "an extremely small character": a Scale-0 fist against Field Plate, [+ + + +], no floor."""
    b = duel(
        RuleOptions(critical_penetration=2),
        attacker=person(GUARD, skills={"Brawling": "Superb"}, weapons=["Fist"]),
        target=person(PEASANT, armour=["Field Plate"]),
    )
    struck = blow(b, ((1, 1, 1, 1), (1, 1, 1, 1)), aim="torso")
    assert (struck.blow.roll, struck.calculated, struck.level, struck.blow.steps) == (4, -2, None, ())


def test_fudge_4_58_wilbur_scratches_the_dragon_the_same_under_every_scale_option() -> None:
    """Wilbur against the dragon: the Scale options change nothing when the blow wounds anyway (damage 1, a
    Scratch): a small fighter's Battle Axe (Scale -4: offensive +1) against Studded Leather at +2."""
    wilbur = person(FIONN, name="Wilbur", weapons=["Battle Axe"], skills={"Axe": "Good"})
    b = duel(EVERY_SCALE_OPTION, attacker=wilbur, target=person(SHEBA))
    struck = blow(b, ((-1, 0, 0, 0), (1, 0, 0, 0)), attacker=[("damage", (1, 1, 1, 1))], aim="torso")
    assert (struck.blow.relative_degree, struck.calculated) == (2, 1)
    assert (struck.blow.damage, struck.level, struck.blow.steps) == (1, "Scratch", ())
    assert waiting(b, "damage") == 1


def test_fudge_4_58_shebas_kick_on_mcmurtree_is_unchanged_by_every_scale_option() -> None:
    """Sheba's kick (offensive +1: Great Strength +2, Kick -1) on McMurtree (Leather +1 and Mass Scale -4:
    defensive -3) at +2: damage 6, Very Hurt, with or without the Scale options."""
    sheba = person(SHEBA, strength="Great", skills={"Brawling": "Superb"}, weapons=["Kick"], armour=[])
    mcmurtree = person(PEASANT, name="McMurtree", scale=-4, armour=["Leather"])
    for options in (RuleOptions(), EVERY_SCALE_OPTION):
        struck = blow(duel(options, attacker=sheba, target=mcmurtree), ((1, 1, 0, 0), (1, 1, 1, 1)), aim="torso")
        assert (struck.blow.relative_degree, struck.calculated) == (2, 6)
        assert (struck.blow.damage, struck.level, struck.blow.steps) == (6, "Very Hurt", ())


# ------------------------------------------------------------------------------------------ tech levels


def _tech(character: Character, target: Character, scale: int) -> tuple[tuple[str, int], ...]:
    rules = rules_of(RuleOptions(tech_level_scale=scale))
    off, dfn = extra_factors(rules, character, target, character.weapons[0], TORSO)
    return (*((f.name, f.value) for f in off), *((f.name, -f.value) for f in dfn))


def test_fudge_4_65_a_newer_weapon_against_older_armour_counts_the_difference_as_scale() -> None:
    """ "The GM can add an arbitrary Scale difference to the weapon or armor, whichever is of the higher tech
    level": a weapon of level 1 against Chain Mail (0), each level worth 2: +2 offensive; Chain Mail of level 1
    against a Broadsword (0): +2 defensive; an unarmoured target: nothing ("naked people don't resist most
    weapons well"); the option at 0: nothing."""
    newer = with_weapon_tech(person(GUARD), 1)
    mailed = person(PEASANT, armour=["Chain Mail"])
    assert _tech(newer, mailed, 2) == (("Tech level (weapon 1, Chain Mail 0)", 2),)
    newer_mail = replace(mailed, armour=(replace(armour("Chain Mail"), tech_level=1),))
    assert _tech(person(GUARD), newer_mail, 2) == (("Tech level (weapon 0, Chain Mail 1)", -2),)
    assert _tech(newer, person(PEASANT), 2) == ()
    assert _tech(newer, mailed, 0) == ()
    assert weapon("Broadsword").tech_level == armour("Field Plate").tech_level == 0


def test_fudge_4_65_the_tech_level_counts_in_the_blow_and_its_odds() -> None:
    """In a battle: the level-1 Broadsword against Chain Mail at degree +2: 2 + 2 - 3 + 2 = 3, Hurt (without the
    option a Scratch), the factor named in the log; the odds (every roll set) say the same."""
    b = duel(
        RuleOptions(tech_level_scale=2),
        attacker=with_weapon_tech(person(GUARD), 1),
        target=person(PEASANT, armour=["Chain Mail"]),
    )
    struck: Struck = blow(b, aim="torso")
    assert ("Tech level (weapon 1, Chain Mail 0)", 2) in struck.blow.offensive_factors
    assert (struck.blow.relative_degree, struck.blow.damage, struck.level) == (2, 3, "Hurt")
    (outcome,) = struck.odds
    assert str(outcome.level) == "Hurt"
    assert "+2 Tech level (weapon 1, Chain Mail 0)" in struck.blow.text()


def test_fudge_4_58_under_a_roll_on_the_number_the_scale_option_adds_no_roll_of_its_own() -> None:
    """Under one die on the number that die is the roll through Scale: the battle makes no 4dF damage roll, so
    the GM's seat may not set one; under the level variant it does."""
    b = _fionn(RuleOptions(damage_roll="one_die", scale_damage_roll=True))
    with pytest.raises(IllegalAction, match="A battle makes no damage roll"):
        b.apply(gm.SetDie("a", "damage", (1, 1, 0, 0)))
    level = _fionn(RuleOptions(damage_roll="one_die_level", scale_damage_roll=True))
    level.apply(gm.SetDie("a", "damage", (1, 1, 0, 0)))
    assert waiting(level, "damage") == 1
