"""FTC 2.1, 5.1.1, 7.2 and the roster format: characters built from plain data."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.characters import ATTRIBUTES, UNSKILLED_DEFAULT, Character, CharacterError
from game.engine.equipment import armour, weapon
from game.engine.ladder import FAIR, GOOD, GREAT, POOR
from game.engine.wounds import DEFAULT_TRACK, named_track

ROSTER = """
[characters.bors]
name = "Sir Bors"
strength = "Good"
speed = "Fair"
agility = "Fair"
health = "Good"
perception = "Fair"
will = "Fair"
skills = { Sword = "Great", Shield = "Good", Bow = "Fair" }
scale = 0
gifts = ["High Pain Threshold"]
faults = []
tough_hide = 0
weapons = ["Broadsword", "Large Knife"]
armour = ["Chain Mail", "Metal Cap"]
shield = "Medium Shield"
gear_kg = 2.0
two_handed = false
"""


def bors() -> Character:
    return Character.from_dict(tomllib.loads(ROSTER)["characters"]["bors"], key="bors")


def test_roster_format_example_reads() -> None:
    c = bors()
    assert c.name == "Sir Bors" and c.key == "bors"
    assert (c.strength, c.health, c.speed, c.reasoning, c.charisma) == (GOOD, GOOD, FAIR, FAIR, FAIR)
    assert c.skill_level("sword") == GREAT
    assert c.ready_weapon == weapon("Broadsword")
    assert c.armour == (armour("Chain Mail"), armour("Metal Cap"))
    assert c.shield == armour("Medium Shield") and c.shield_in_use() == armour("Medium Shield")
    assert c.pain == "high"
    assert c.wound_track == DEFAULT_TRACK
    assert c.movement_modes == ("walk",)


def test_ftc_2_1_attributes_default_to_fair() -> None:
    c = Character.from_dict({"name": "Nobody"})
    assert all(getattr(c, attr) == FAIR for attr in ATTRIBUTES)


def test_ftc_5_1_1_carried_mass_is_weapons_armour_shield_and_gear() -> None:
    assert bors().carried_mass_kg() == pytest.approx(1.5 + 0.5 + 15 + 2 + 6 + 2.0)


def test_ftc_9_2_partial_suit_in_the_roster() -> None:
    c = Character.from_dict({"name": "Light", "armour": [{"name": "Chain Mail", "coverage": "torso"}]})
    assert c.carried_mass_kg() == 7.5
    assert Character.from_dict(c.to_dict()) == c


def test_unskilled_default_is_poor() -> None:
    assert UNSKILLED_DEFAULT == POOR
    assert bors().skill_level("Axe") == POOR


def test_combat_skill_uses_the_weapons_skill() -> None:
    c = bors()
    assert c.combat_skill(weapon("Broadsword")) == GREAT
    assert c.combat_skill(weapon("Large Knife")) == POOR
    assert c.combat_skill(weapon("Longbow")) == FAIR
    fencer = Character.from_dict({"name": "F", "skills": {"Sword": "Fair", "Rapier": "Great"}})
    assert fencer.combat_skill(weapon("Rapier")) == GREAT
    boxer = Character.from_dict({"name": "B", "skills": {"Brawling": "Fair", "Martial Arts": "Good"}})
    assert boxer.combat_skill(weapon("Fist")) == GOOD and boxer.uses_martial_arts(weapon("Kick"))


def test_scale_sets_all_three_and_each_may_be_given_alone() -> None:
    c = Character.from_dict({"name": "Ogre", "scale": 2, "speed_scale": 0})
    assert (c.strength_scale, c.mass_scale, c.speed_scale) == (2, 2, 0)
    assert Character.from_dict(c.to_dict()) == c


def test_pain_thresholds_and_tough_hide() -> None:
    assert Character.from_dict({"name": "W", "faults": ["low pain threshold"]}).pain == "low"
    assert Character.from_dict({"name": "N"}).pain == "normal"
    hide = Character.from_dict({"name": "Troll", "gifts": ["Tough Hide"]})
    assert hide.tough_hide == 1
    dragon = Character.from_dict({"name": "Dragon", "tough_hide": 2})
    assert dragon.tough_hide == 2 and "Tough Hide" in dragon.gifts


def test_two_handed_bastard_sword_leaves_no_hand_for_the_shield() -> None:
    c = Character.from_dict({"name": "K", "weapons": ["Bastard Sword"], "two_handed": True})
    assert c.wields_two_handed() and c.shield_in_use() is None
    archer = Character.from_dict({"name": "A", "weapons": ["Broadsword", "Longbow"], "shield": "Small Shield"})
    assert archer.shield_in_use() is not None
    assert archer.shield_in_use(weapon("Longbow")) is None


def test_bare_handed_figure_fights_with_its_fist() -> None:
    assert Character.from_dict({"name": "Monk"}).ready_weapon == weapon("Fist")


def test_round_trip_to_dict() -> None:
    c = bors()
    again = Character.from_dict(c.to_dict(), key="bors")
    assert again == c
    beast = Character.from_dict(
        {
            "name": "Beast",
            "wound_track": "epic",
            "has_head": False,
            "resist_sharp": 1,
            "movement_modes": ["walk", "fly"],
            "damage_capacity": "Good",
            "strength": "Legendary+1",
        }
    )
    assert beast.wound_track == named_track("epic")
    assert Character.from_dict(beast.to_dict()) == beast
    inline = Character.from_dict(
        {"name": "M", "wound_track": {"levels": ["Hurt", "Incapacitated"], "damage": [1, 3], "boxes": [1, 1]}}, key="m"
    )
    assert Character.from_dict(inline.to_dict(), key="m") == inline


@pytest.mark.parametrize(
    ("data", "field", "fix"),
    [
        ({"name": "X", "strength": "Gret"}, "strength", "ladder name"),
        ({"name": "X", "strenght": "Good"}, "strenght", "did you mean 'strength'"),
        ({"name": "X", "weapons": ["Lightsaber"]}, "weapons", "FTC 9"),
        ({"name": "X", "armour": ["Medium Shield"]}, "armour", "shield ="),
        ({"name": "X", "shield": "Chain Mail"}, "shield", "armour ="),
        ({"name": "X", "skills": {"Sword": "Awesome"}}, "skills.Sword", "ladder name"),
        ({"name": "X", "gear_kg": "heavy"}, "gear_kg", "mass in kg"),
        ({"name": "X", "two_handed": True, "weapons": ["Broadsword"]}, "two_handed", "Bastard Sword"),
        ({"name": "X", "weapons": ["Battle Axe"], "shield": "Small Shield"}, "shield", "one-handed"),
        ({"name": "X", "scale": "big"}, "scale", "whole number"),
        ({"name": "X", "wound_track": "heroic"}, "wound_track", "default"),
        ({"name": "X", "gifts": ["High Pain Threshold"], "faults": ["Low Pain Threshold"]}, "faults", "only one"),
        ({"name": ""}, "name", "name ="),
    ],
)
def test_from_dict_errors_name_character_field_and_fix(data: dict[str, object], field: str, fix: str) -> None:
    with pytest.raises(CharacterError) as info:
        Character.from_dict(data, key="villain")
    message = str(info.value)
    assert "'villain'" in message and f"'{field}'" in message and fix in message


@given(st.fixed_dictionaries({attr: st.integers(-5, 7) for attr in ATTRIBUTES}))
def test_attributes_round_trip_through_ladder_names(attrs: dict[str, int]) -> None:
    c = Character.from_dict({"name": "P", **attrs})
    assert all(getattr(c, a) == v for a, v in attrs.items())
    assert Character.from_dict(c.to_dict()) == c
