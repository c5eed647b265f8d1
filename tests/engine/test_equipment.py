"""FTC 9: the weapon, armour and shield catalogue, every cell of tables 9.1, 9.2 and 9.3 and every note."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import equipment
from game.engine.equipment import UnknownEquipment, armour, parry_bonus, parry_penalty, weapon

# (name, damage factor(s), mass) exactly as FTC 9.1 prints them; "/" splits one-/two-handed or near/far.
TABLE_9_1 = [
    ("Shortsword", 1, None, None, 1.0),
    ("Rapier", 2, None, None, 1.0),
    ("Broadsword", 2, None, None, 1.5),
    ("Bastard Sword", 2, 3, None, 2.5),
    ("Two-Handed Sword", 3, None, None, 3.0),
    ("Stiletto", 0, None, None, 0.125),
    ("Large Knife", 1, None, None, 0.5),
    ("Hand Axe", 2, None, None, 1.5),
    ("Large Axe", 3, None, None, 2.5),
    ("Battle Axe", 4, None, None, 3.5),
    ("Spear or Pike", 2, None, 3, 2.0),
    ("Small Club", 0, None, None, 1.0),
    ("Large Club", 1, None, None, 2.0),
    ("Mace", 2, None, None, 3.0),
    ("Flail", 3, None, None, 4.0),
    ("Fist", -2, None, None, 0.0),
    ("Mailed Gauntlet", -1, None, None, 0.125),
    ("Kick", -1, None, None, 0.0),
    ("Metal-Toed Boot", 0, None, None, 1.5),
    ("Spiked Boot", 1, None, None, 2.0),
]

TABLE_9_2 = [  # name, defensive factor, mass, location
    ("Leather", 1, 6.0, "body"),
    ("Studded Leather", 2, 10.0, "body"),
    ("Reinforced Leather", 2, 10.0, "body"),
    ("Chain Mail", 3, 15.0, "body"),
    ("Scale Mail", 3, 20.0, "body"),
    ("Field Plate", 4, 40.0, "body"),
    ("Small Shield", 1, 2.0, "shield"),
    ("Medium Shield", 2, 6.0, "shield"),
    ("Large Shield", 3, 10.0, "shield"),
    ("Leather Cap", 1, 0.5, "head"),
    ("Metal Cap", 2, 2.0, "head"),
    ("Greathelm", 3, 4.0, "head"),
]

LONGBOW_9_3_1 = {
    -3: (1, 1, 2, 5, 9, 23, 46, 91),
    -2: (1, 1, 3, 6, 12, 30, 59, 120),
    -1: (1, 2, 4, 8, 16, 38, 77, 150),
    0: (1, 2, 5, 10, 20, 50, 100, 200),
    1: (1, 3, 6, 13, 26, 65, 130, 240),
    2: (2, 3, 8, 17, 34, 84, 170, 240),
    3: (2, 4, 11, 22, 44, 110, 220, 240),
}
SHORTBOW_9_3_2 = {
    -3: (1, 1, 1, 2, 5, 11, 23, 46),
    -2: (1, 1, 1, 3, 6, 15, 30, 59),
    -1: (1, 1, 2, 4, 8, 19, 38, 77),
    0: (1, 1, 3, 5, 10, 25, 50, 100),
    1: (1, 1, 4, 6, 13, 32, 65, 120),
    2: (2, 2, 5, 8, 17, 42, 84, 120),
    3: (2, 2, 7, 11, 22, 55, 110, 120),
}


@pytest.mark.parametrize(("name", "one", "two", "far", "mass"), TABLE_9_1)
def test_ftc_table_9_1_every_cell(name: str, one: int, two: int | None, far: int | None, mass: float) -> None:
    item = weapon(name)
    assert item.name == name
    assert item.damage == one
    assert item.damage_two_handed == two
    assert item.damage_long == far
    assert item.mass_kg == mass
    assert not item.ranged


def test_ftc_table_9_1_has_exactly_the_printed_rows() -> None:
    # the catalogue adds one row of its own after the printed ones: a beast's natural weapons
    melee = [w.name for w in equipment.weapons() if not w.ranged and w.name != "Claws and Teeth"]
    assert melee == [row[0] for row in TABLE_9_1]


def test_fudge_4_54_claws_and_teeth_small_and_sharp() -> None:
    item = weapon("Claws")
    assert (item.name, item.skill, item.damage, item.mass_kg) == ("Claws and Teeth", "Brawling", 1, 0.0)
    assert item.sharp and item.natural and not item.ranged


@pytest.mark.parametrize(("name", "defense", "mass", "location"), TABLE_9_2)
def test_ftc_table_9_2_every_cell(name: str, defense: int, mass: float, location: str) -> None:
    item = armour(name)
    assert (item.name, item.defense, item.mass_kg, item.location) == (name, defense, mass, location)


def test_ftc_table_9_2_has_exactly_the_printed_rows() -> None:
    assert [a.name for a in equipment.armours()] == [row[0] for row in TABLE_9_2]


def test_ftc_9_3_1_longbow_every_cell() -> None:
    bow = weapon("Longbow")
    assert (bow.damage, bow.base_range, bow.max_range, bow.ranged, bow.skill) == (2, 10, 240, True, "Bow")
    assert bow.small_piercing
    for scale, row in LONGBOW_9_3_1.items():
        assert bow.published_range(scale) == row
    assert bow.published_range(4) is None


def test_ftc_9_3_2_shortbow_every_cell() -> None:
    bow = weapon("Shortbow")
    assert (bow.damage, bow.base_range, bow.max_range, bow.ranged) == (2, 5, 120, True)
    assert bow.small_piercing
    for scale, row in SHORTBOW_9_3_2.items():
        assert bow.published_range(scale) == row


def test_ftc_9_1_notes_are_working_fields() -> None:
    assert weapon("Rapier").stabbing and weapon("Rapier").small_piercing
    assert weapon("Rapier").parry_bonus_light == 1
    assert weapon("Stiletto").stabbing and weapon("Stiletto").cannot_parry_bigger
    assert weapon("Battle Axe").two_handed and weapon("Battle Axe").needs_room
    assert weapon("Battle Axe").defense_penalty == -1
    assert weapon("Flail").two_handed and weapon("Flail").needs_room and weapon("Flail").defense_penalty == -1
    assert weapon("Spear or Pike").defense_penalty == -2 and weapon("Spear or Pike").reach == 2
    assert weapon("Fist").martial_arts_damage == -1 and weapon("Fist").natural
    assert weapon("Kick").martial_arts_damage == 0 and weapon("Kick").natural
    assert weapon("Broadsword").reach == 1 and weapon("Broadsword").defense_penalty == 0
    assert weapon("Two-Handed Sword").two_handed and not weapon("Bastard Sword").two_handed


def test_ftc_7_2_blunt_and_piercing_classes() -> None:
    blunt = {w.name for w in equipment.weapons() if w.large_blunt}
    piercing = {w.name for w in equipment.weapons() if w.small_piercing}
    assert blunt == {"Mace", "Flail"}
    assert piercing == {"Rapier", "Stiletto", "Longbow", "Shortbow"}


def test_ftc_9_1_bastard_sword_and_spear_factors() -> None:
    bastard = weapon("Bastard Sword")
    assert bastard.damage_for(two_handed=False) == 2
    assert bastard.damage_for(two_handed=True) == 3
    spear = weapon("Spear")
    assert spear.damage_for(distance=1) == 2
    assert spear.damage_for(distance=2) == 3
    assert weapon("Broadsword").damage_for(two_handed=True, distance=2) == 2


def test_ftc_9_1_martial_arts_factors() -> None:
    assert weapon("Fist").damage_for() == -2
    assert weapon("Fist").damage_for(martial_arts=True) == -1
    assert weapon("Kick").damage_for(martial_arts=True) == 0
    assert weapon("Mailed Gauntlet").damage_for(martial_arts=True) == -1


def test_ftc_9_2_armour_notes() -> None:
    assert armour("Chain Mail").woven
    assert [a.name for a in equipment.armours() if a.rigid] == ["Field Plate"]
    assert [a.shield_attacks_per_round for a in equipment.shields()] == [1, 2, 3]
    assert armour("Greathelm").obscures_vision and not armour("Metal Cap").obscures_vision
    assert armour("Metal Cap").covers("head") and not armour("Metal Cap").covers("torso")
    assert not armour("Chain Mail").covers("head")
    assert armour("Chain Mail").covers("arm") and armour("Chain Mail").covers("leg")
    assert not armour("Medium Shield").covers("torso")


def test_ftc_9_2_partial_suits_note() -> None:
    chain = armour("Chain Mail")
    assert chain.with_coverage("torso").mass_kg == 7.5
    assert chain.with_coverage("no_arms").mass_kg == 10.0
    assert chain.with_coverage("no_legs").mass_kg == 10.0
    assert armour("Field Plate").with_coverage("torso").with_coverage("full").mass_kg == 40.0
    torso = chain.with_coverage("torso")
    assert torso.covers("torso") and not torso.covers("arm") and not torso.covers("leg")
    no_arms = chain.with_coverage("no_arms")
    assert no_arms.covers("leg") and not no_arms.covers("arm")
    with pytest.raises(ValueError, match="coverage"):
        chain.with_coverage("half")
    with pytest.raises(ValueError, match="not a suit"):
        armour("Metal Cap").with_coverage("torso")


def test_lookups_are_case_insensitive_with_aliases() -> None:
    assert weapon("BROADSWORD").name == "Broadsword"
    assert weapon("spear").name == weapon("Pike").name == "Spear or Pike"
    assert weapon("two handed sword").name == "Two-Handed Sword"
    assert armour("chain mail").name == "Chain Mail"
    assert armour("medium shield").is_shield


def test_unknown_equipment_lists_near_matches() -> None:
    with pytest.raises(UnknownEquipment, match="Broadsword"):
        weapon("Broadswrd")
    with pytest.raises(KeyError):
        weapon("Lightsaber")
    with pytest.raises(ValueError, match="Greathelm"):
        armour("Greathelmet")


def test_ftc_6_4_1_shortsword_parrying_broadsword_is_minus_1() -> None:
    assert parry_penalty(weapon("Shortsword"), weapon("Broadsword")) == -1


def test_ftc_6_4_1_knife_parrying_broadsword_is_minus_2() -> None:
    assert parry_penalty(weapon("Large Knife"), weapon("Broadsword")) == -2


def test_ftc_6_4_1_parrying_a_smaller_or_equal_weapon_is_free() -> None:
    assert parry_penalty(weapon("Broadsword"), weapon("Shortsword")) == 0
    assert parry_penalty(weapon("Broadsword"), weapon("Hand Axe")) == 0
    assert parry_penalty(weapon("Large Knife"), weapon("Flail")) == -2  # at worst -2
    assert parry_penalty(weapon("Broadsword"), weapon("Longbow")) == 0  # missiles are dodged


def test_ftc_9_1_stiletto_cannot_parry_bigger_weapons() -> None:
    assert not equipment.can_parry(weapon("Stiletto"), weapon("Large Knife"))
    assert parry_penalty(weapon("Stiletto"), weapon("Large Knife")) == -2
    assert parry_penalty(weapon("Large Knife"), weapon("Large Knife")) == 0
    assert equipment.can_parry(weapon("Stiletto"), weapon("Stiletto"))


def test_ftc_9_1_rapier_defends_better_against_light_weapons() -> None:
    assert parry_bonus(weapon("Rapier"), weapon("Shortsword")) == 1
    assert parry_bonus(weapon("Rapier"), weapon("Rapier")) == 1
    assert parry_bonus(weapon("Rapier"), weapon("Broadsword")) == 0
    assert equipment.parry_modifier(weapon("Rapier"), weapon("Broadsword")) == -1
    assert parry_bonus(weapon("Broadsword"), weapon("Shortsword")) == 0


@given(st.sampled_from(equipment.weapons()), st.sampled_from(equipment.weapons()))
def test_parry_penalty_is_between_0_and_minus_2_and_monotone(
    defender: equipment.Weapon, attacker: equipment.Weapon
) -> None:
    penalty = parry_penalty(defender, attacker)
    assert -2 <= penalty <= 0
    if attacker.mass_kg <= defender.mass_kg:
        assert penalty == 0


@pytest.mark.parametrize("level", ['"modern"', "-1", "true", "2.5"])
def test_fudge_4_65_a_tech_level_that_is_not_a_whole_number_is_refused_with_the_row_and_the_fix(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """A GM's catalogue row with a bad ``tech_level`` is our own sentence naming the file, the row and the fix."""
    import tomllib

    text = equipment.DATA_FILE.read_text(encoding="utf-8")
    bad = text.replace('name = "Broadsword"', f'name = "Broadsword"\ntech_level = {level}', 1)
    monkeypatch.setattr(equipment, "read_table", lambda name: tomllib.loads(bad))
    equipment._data.cache_clear()
    try:
        with pytest.raises(equipment.EquipmentDataError, match=r"weapon 'Broadsword' has tech_level .*; write a whole"):
            equipment.weapons()
    finally:
        monkeypatch.undo()
        equipment._data.cache_clear()
    assert equipment.weapon("Broadsword").tech_level == 0
