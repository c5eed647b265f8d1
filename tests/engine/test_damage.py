"""FTC 6.6, 7, 7.1, 7.2 and the worked damage examples of Fudge 4.55, 4.58 (SRD Scale examples), 4.63, 4.7."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.characters import Character
from game.engine.damage import (
    Factor,
    armour_value,
    blow_wound,
    damage_total,
    defensive_factors,
    is_limb,
    limb_wound,
    location_name,
    offensive_factors,
    strength_factor,
)
from game.engine.equipment import Armour, Weapon, armour, weapon
from game.engine.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE, POOR, SUPERB, TERRIBLE
from game.engine.wounds import WoundError, WoundLevel, Wounds, wound_for_damage

S, H, VH, INC, ND = (
    WoundLevel.SCRATCH,
    WoundLevel.HURT,
    WoundLevel.VERY_HURT,
    WoundLevel.INCAPACITATED,
    WoundLevel.NEAR_DEATH,
)


def total(factors: tuple[Factor, ...]) -> int:
    return sum(f.value for f in factors)


def fudge_weapon(name: str, damage: int, *, sharp: bool = True) -> Weapon:
    """A weapon rated with Fudge 4.54's list (size + sharpness), as the Fudge examples do."""
    return Weapon(name=name, skill="Sword", damage=damage, mass_kg=1.5, sharp=sharp)


def fudge_armour(name: str, defense: int) -> Armour:
    return Armour(name=name, defense=defense, mass_kg=10.0)


# ----------------------------------------------------------------------------------------- FTC 7.1 table


@pytest.mark.parametrize(
    ("strength", "factor"), [(SUPERB, 3), (GREAT, 2), (GOOD, 1), (FAIR, 0), (MEDIOCRE, -1), (POOR, -2), (TERRIBLE, -3)]
)
def test_ftc_7_1_strength_table_every_cell(strength: int, factor: int) -> None:
    assert strength_factor(strength) == factor


def test_ftc_7_1_strength_beyond_the_table() -> None:
    assert strength_factor(LEGENDARY) == 4
    assert strength_factor(LEGENDARY + 2) == 6
    assert strength_factor(TERRIBLE - 1) == -4


def test_ftc_7_1_strength_and_scale_only_for_muscle_powered_weapons() -> None:
    giant = Character("Giant", strength=GREAT, strength_scale=2)
    sword = offensive_factors(giant, weapon("Broadsword"), two_handed=False, distance=1)
    assert total(sword) == 2 + 2 + 2
    assert [f.name for f in sword] == ["Strength (Great)", "Strength Scale", "Broadsword"]
    crossbow = Weapon("Crossbow", "Crossbow", 4, 3.0, muscle_powered=False, ranged=True)
    assert offensive_factors(giant, crossbow, two_handed=True, distance=30) == (Factor("Crossbow", 4),)


def test_ftc_9_1_bastard_sword_two_handed_and_spear_at_two_metres() -> None:
    c = Character("C")
    assert total(offensive_factors(c, weapon("Bastard Sword"), two_handed=True, distance=1)) == 3
    assert total(offensive_factors(c, weapon("Bastard Sword"), two_handed=False, distance=1)) == 2
    assert total(offensive_factors(c, weapon("Spear or Pike"), two_handed=False, distance=2)) == 3
    assert total(offensive_factors(c, weapon("Spear or Pike"), two_handed=False, distance=1)) == 2


def test_ftc_9_1_martial_arts_fist_and_kick() -> None:
    brawler = Character("Brawler")
    adept = Character("Adept", skills={"Martial Arts": GOOD})
    assert total(offensive_factors(brawler, weapon("Fist"), two_handed=False, distance=1)) == -2
    assert total(offensive_factors(adept, weapon("Fist"), two_handed=False, distance=1)) == -1
    assert total(offensive_factors(adept, weapon("Kick"), two_handed=False, distance=1)) == 0
    assert total(offensive_factors(adept, weapon("Kick"), two_handed=False, distance=1, martial_arts=False)) == -1


def test_ftc_6_6_head_blow_is_plus_2_unless_no_head() -> None:
    c = Character("C")
    target = Character("T")
    headless = Character("Ooze", has_head=False)
    sword = weapon("Shortsword")
    assert total(offensive_factors(c, sword, two_handed=False, distance=1, location="head", target=target)) == 3
    assert total(offensive_factors(c, sword, two_handed=False, distance=1, location="head", target=headless)) == 1


def test_ftc_7_1_creature_resisting_sharp_weapons() -> None:
    c = Character("C")
    skeleton = Character("Skeleton", resist_sharp=1)
    assert total(offensive_factors(c, weapon("Broadsword"), two_handed=False, distance=1, target=skeleton)) == 1
    assert total(offensive_factors(c, weapon("Mace"), two_handed=False, distance=1, target=skeleton)) == 2


# ----------------------------------------------------------------------------------------- FTC 7.2


def test_ftc_7_2_non_rigid_armour_halved_by_large_blunt_weapons() -> None:
    assert armour_value(armour("Chain Mail"), weapon("Mace")) == 1
    assert armour_value(armour("Scale Mail"), weapon("Flail")) == 1
    assert armour_value(armour("Studded Leather"), weapon("Mace")) == 1
    assert armour_value(armour("Field Plate"), weapon("Mace")) == 4  # rigid
    assert armour_value(armour("Chain Mail"), weapon("Large Club")) == 3  # wooden club is not metal


def test_fudge_4_54_large_mace_against_plate_counts_as_plus_2() -> None:
    plate = Armour("Plate (Fudge, non-rigid)", 4, 40.0)
    assert armour_value(plate, weapon("Mace")) == 2


def test_ftc_7_2_woven_armour_halved_rounding_down_by_small_piercing() -> None:
    assert armour_value(armour("Chain Mail"), weapon("Longbow")) == 1
    assert armour_value(armour("Chain Mail"), weapon("Rapier")) == 1
    assert armour_value(armour("Chain Mail"), weapon("Stiletto")) == 1
    assert armour_value(armour("Scale Mail"), weapon("Longbow")) == 3  # not woven
    assert armour_value(armour("Chain Mail"), weapon("Broadsword")) == 3


def test_ftc_7_2_defensive_factors_by_location() -> None:
    knight = Character("Knight", mass_scale=0, armour=(armour("Chain Mail"), armour("Metal Cap")))
    sword = weapon("Broadsword")
    assert defensive_factors(knight, sword) == (Factor("Chain Mail", 3),)
    assert defensive_factors(knight, sword, location="head") == (Factor("Metal Cap", 2),)
    assert defensive_factors(knight, sword, location="arms") == (Factor("Chain Mail", 3),)
    assert defensive_factors(knight, sword, location="hand") == ()
    assert defensive_factors(knight, weapon("Mace")) == (Factor("Chain Mail (halved)", 1),)
    bare_head = Character("Bare", armour=(armour("Field Plate"),))
    assert defensive_factors(bare_head, sword, location="head") == ()
    vest = Character("Vest", armour=(armour("Chain Mail").with_coverage("torso"),))
    assert defensive_factors(vest, sword, location="leg") == ()


def test_ftc_7_2_scale_and_tough_hide() -> None:
    troll = Character("Troll", mass_scale=2, tough_hide=1, armour=(armour("Leather"),))
    assert total(defensive_factors(troll, weapon("Broadsword"))) == 4
    assert total(defensive_factors(troll, weapon("Broadsword"), location="head")) == 3


def test_ftc_7_best_single_suit_counts() -> None:
    layered = Character("L", armour=(armour("Leather"), armour("Chain Mail")))
    assert total(defensive_factors(layered, weapon("Broadsword"))) == 3
    assert total(defensive_factors(layered, weapon("Mace"))) == 1  # both halved, the better one counts


# ----------------------------------------------------------------------------------------- FTC 7 total


def test_ftc_7_damage_is_relative_degree_plus_offence_minus_defence() -> None:
    attacker = Character("A", strength=GOOD)
    defender = Character("D", armour=(armour("Leather"),))
    off = offensive_factors(attacker, weapon("Broadsword"), two_handed=False, distance=1)
    dfn = defensive_factors(defender, weapon("Broadsword"))
    assert damage_total(2, off, dfn) == 2 + 1 + 2 - 1
    assert blow_wound(2, off, dfn) is H
    assert blow_wound(1, off, dfn) is S  # graze


# ----------------------------------------------------------------------------------------- worked examples


def test_fudge_4_55_leroy_vs_theodora() -> None:
    leroy = Character(
        "Leroy",
        strength=GOOD,
        damage_capacity=GOOD,
        armour=(armour("Scale Mail"),),
        weapons=(fudge_weapon("Broadsword (Fudge)", 3),),
    )
    theodora = Character(
        "Theodora",
        strength=SUPERB,
        damage_capacity=FAIR,
        armour=(fudge_armour("Boiled Leather", 2),),
        weapons=(fudge_weapon("Poleaxe", 4),),
    )
    leroy_off = offensive_factors(leroy, leroy.ready_weapon, two_handed=False, distance=1)
    theo_off = offensive_factors(theodora, theodora.ready_weapon, two_handed=True, distance=1)
    assert total(leroy_off) == 4
    assert total(defensive_factors(leroy, theodora.ready_weapon)) == 4
    assert total(theo_off) == 7
    assert total(defensive_factors(theodora, leroy.ready_weapon)) == 2
    assert damage_total(0, leroy_off, defensive_factors(theodora, leroy.ready_weapon)) == 2
    assert damage_total(0, theo_off, defensive_factors(leroy, theodora.ready_weapon)) == 3
    # "If Leroy hits Theodora with a relative degree of +2 ... a damage number of four ... Hurt"
    damage = damage_total(2, leroy_off, defensive_factors(theodora, leroy.ready_weapon))
    assert damage == 4 and wound_for_damage(damage) is H


def test_fudge_4_58_sheba_kicks_mcmurtree() -> None:
    sheba = Character(
        "Sheba",
        weapons=(Weapon("Kick with thick boots", "Martial Arts", 1, 1.5),),
        armour=(fudge_armour("Heavy Leather", 2),),
        damage_capacity=FAIR,
    )
    mcmurtree = Character(
        "McMurtree", strength_scale=-4, mass_scale=-4, damage_capacity=FAIR, armour=(armour("Leather"),)
    )
    off = offensive_factors(sheba, sheba.ready_weapon, two_handed=False, distance=1)
    dfn = defensive_factors(mcmurtree, sheba.ready_weapon)
    assert total(off) == 1 and total(dfn) == -3
    assert damage_total(0, off, dfn) == 4
    assert damage_total(2, off, dfn) == 6 and blow_wound(2, off, dfn) is VH


def test_fudge_4_58_fionn_clubs_sheba() -> None:
    fionn = Character(
        "Fionn", strength=GOOD, strength_scale=-4, mass_scale=-4, weapons=(fudge_weapon("Shillelagh", 2, sharp=False),)
    )
    sheba = Character("Sheba", armour=(fudge_armour("Heavy Leather", 2),))
    off = offensive_factors(fionn, fionn.ready_weapon, two_handed=False, distance=1, location="leg")
    dfn = defensive_factors(sheba, fionn.ready_weapon, location="leg")
    assert total(off) == -1 and total(dfn) == 2
    assert damage_total(0, off, dfn) == -3
    assert damage_total(3, off, dfn) == 0 and blow_wound(3, off, dfn) is None


def test_fudge_4_58_wilbur_against_the_dragon() -> None:
    wilbur = Character("Wilbur", strength=GREAT, weapons=(fudge_weapon("Two-handed sword (Fudge)", 4),))
    dragon = Character("Dragon", strength_scale=6, mass_scale=6, tough_hide=2, damage_capacity=FAIR)
    off = offensive_factors(wilbur, wilbur.ready_weapon, two_handed=True, distance=1, target=dragon)
    dfn = defensive_factors(dragon, wilbur.ready_weapon)
    assert total(off) == 6 and total(dfn) == 8
    assert damage_total(3, off, dfn) == 1
    level = blow_wound(3, off, dfn)
    assert level is S
    # "three Scratch boxes ... he will have to do this thrice more before he finally Hurts the dragon"
    wounds, _ = Wounds().record(level)
    for _ in range(2):
        wounds, marked = wounds.record(S)
        assert marked is S
    wounds, marked = wounds.record(S)
    assert marked is H


def test_fudge_4_63_rachel_and_archie_damage_factors() -> None:
    rachel = Character(
        "Rachel",
        weapons=(fudge_weapon("Quarterstaff", 2, sharp=False),),
        armour=(armour("Leather"),),
        damage_capacity=GOOD,
    )
    archie = Character(
        "Archie",
        strength=GREAT,
        weapons=(fudge_weapon("Greatsword (Fudge)", 4),),
        armour=(fudge_armour("Heavy Leather", 2),),
        damage_capacity=FAIR,
    )
    rachel_off = offensive_factors(rachel, rachel.ready_weapon, two_handed=True, distance=1)
    archie_off = offensive_factors(archie, archie.ready_weapon, two_handed=True, distance=1)
    assert total(rachel_off) == 2 and total(defensive_factors(rachel, archie.ready_weapon)) == 2
    assert total(archie_off) == 6 and total(defensive_factors(archie, rachel.ready_weapon)) == 2
    assert damage_total(0, rachel_off, defensive_factors(archie, rachel.ready_weapon)) == 0
    assert damage_total(0, archie_off, defensive_factors(rachel, archie.ready_weapon)) == 4
    # Round 2: Archie grazes (+1) with damage factor 4: a Scratch on Rachel.
    assert blow_wound(1, archie_off, defensive_factors(rachel, archie.ready_weapon)) is S


def test_fudge_4_7_snorri_and_brynhild() -> None:
    snorri = Character(
        "Snorri",
        strength=GOOD,
        damage_capacity=GOOD,
        weapons=(fudge_weapon("Magic Sword", 4),),
        armour=(fudge_armour("Heavy Leather", 2),),
    )
    brynhild = Character(
        "Brynhild",
        strength=GREAT,
        damage_capacity=FAIR,
        weapons=(fudge_weapon("Axe (Fudge)", 3),),
        armour=(fudge_armour("Heavy Leather", 2),),
    )
    s_off = offensive_factors(snorri, snorri.ready_weapon, two_handed=False, distance=1)
    b_off = offensive_factors(brynhild, brynhild.ready_weapon, two_handed=False, distance=1)
    s_def = defensive_factors(snorri, brynhild.ready_weapon)
    b_def = defensive_factors(brynhild, snorri.ready_weapon)
    assert (total(s_off), total(s_def), total(b_off), total(b_def)) == (5, 3, 5, 2)
    assert damage_total(0, s_off, b_def) == 3 and damage_total(0, b_off, s_def) == 2
    # Round 1: Great vs Fair, relative degree +2: damage 5, Very Hurt before the damage roll ...
    assert damage_total(2, s_off, b_def) == 5 and blow_wound(2, s_off, b_def) is VH
    # ... and the damage roll of -2 brings it to 3: Hurt.
    assert wound_for_damage(damage_total(2, s_off, b_def) - 2) is H
    # Round 3: relative degree +1 is a graze: a Scratch.
    assert blow_wound(1, s_off, b_def) is S


# ----------------------------------------------------------------------------------------- FTC 6.6 limbs


def test_ftc_6_6_limb_blow_at_most_hurt() -> None:
    assert limb_wound(S, None) == (S, False)
    assert limb_wound(H, None) == (H, False)


def test_ftc_6_6_would_be_very_hurt_limb_needs_good_health() -> None:
    assert limb_wound(VH, GOOD) == (H, False)
    assert limb_wound(VH, GREAT) == (H, False)
    assert limb_wound(VH, FAIR) == (H, True)
    with pytest.raises(WoundError, match="Health"):
        limb_wound(VH, None)


def test_ftc_6_6_would_be_incapacitated_limb_is_crippled_regardless() -> None:
    assert limb_wound(INC, LEGENDARY) == (H, True)
    assert limb_wound(ND, None) == (H, True)


def test_ftc_6_6_locations() -> None:
    assert location_name("Arms") == "arm" and is_limb("legs") and not is_limb("head")
    with pytest.raises(ValueError, match="hit location"):
        location_name("tail")


@given(st.integers(-5, 5), st.lists(st.integers(-4, 6), max_size=4), st.lists(st.integers(-4, 6), max_size=4))
def test_damage_total_is_linear(rd: int, off: list[int], dfn: list[int]) -> None:
    offence = [Factor(f"o{i}", v) for i, v in enumerate(off)]
    defence = [Factor(f"d{i}", v) for i, v in enumerate(dfn)]
    assert damage_total(rd, offence, defence) == rd + sum(off) - sum(dfn)
    assert damage_total(rd + 1, offence, defence) == damage_total(rd, offence, defence) + 1
