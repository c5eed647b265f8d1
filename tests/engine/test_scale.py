"""Scale in combat everywhere it appears: melee difficulty (FTC 6.4), range (FTC 6.4.1, table 6), damage
factors (FTC 7.1, 7.2; Fudge 4.58), grazes (Fudge 4.56), movement (FTC 5) and encumbrance (FTC 5.1.1), with
the Fudge examples of a knight against a dragon and a warrior against a leprechaun."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from game.engine import magic
from game.engine.characters import Character
from game.engine.combat import is_hit, melee_difficulty, relative_degree
from game.engine.damage import blow_wound, damage_total, defensive_factors, graze_scale_difference, offensive_factors
from game.engine.equipment import Armour, Weapon, weapon
from game.engine.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE, POOR, SUPERB, TERRIBLE
from game.engine.movement import max_load_kg, movement_allowance
from game.engine.ranges import range_band, scaled_base_range
from game.engine.wounds import WoundLevel, Wounds, graze_cap

S, H, VH = WoundLevel.SCRATCH, WoundLevel.HURT, WoundLevel.VERY_HURT

# Fudge 4.58: "each fighter's Strength Scale equals his own Mass Scale".
WILBUR = Character(
    "Wilbur",
    strength=GREAT,
    skills={"Sword": GOOD},
    two_handed=True,
    weapons=(Weapon("Two-handed sword (Fudge 4.54)", "Sword", 4, 3.0, sharp=True, two_handed=True),),
)
DRAGON = Character(
    "Dragon",
    strength_scale=6,
    mass_scale=6,
    speed_scale=6,
    tough_hide=2,
    damage_capacity=FAIR,
    skills={"Claw": GOOD},
    weapons=(weapon("Fist"),),
)
SHEBA = Character(
    "Sheba",
    weapons=(Weapon("Kick with thick boots", "Martial Arts", 1, 1.5),),
    armour=(Armour("Heavy Leather", 2, 8.0),),
)
MCMURTREE = Character(
    "McMurtree",
    strength_scale=-4,
    mass_scale=-4,
    speed_scale=-4,
    damage_capacity=FAIR,
    armour=(Armour("Light Leather", 1, 3.0),),
)
FIONN = Character(
    "Fionn", strength=GOOD, strength_scale=-4, mass_scale=-4, weapons=(Weapon("Shillelagh", "Club", 2, 1.0),)
)


def total(factors: tuple[object, ...]) -> int:
    return sum(f.value for f in factors)  # type: ignore[attr-defined]


# --- knight against dragon ----------------------------------------------------------------------------


def test_ftc_6_4_knight_against_dragon_melee_difficulty() -> None:
    # The small knight needs only Poor to hit the dragon; the dragon needs Poor + 6 steps = Legendary.
    assert melee_difficulty(WILBUR.mass_scale, DRAGON.mass_scale) == POOR
    assert melee_difficulty(DRAGON.mass_scale, WILBUR.mass_scale) == LEGENDARY
    assert is_hit(LEGENDARY, [GOOD], melee_difficulty(DRAGON.mass_scale, WILBUR.mass_scale))
    assert not is_hit(SUPERB, [GOOD], melee_difficulty(DRAGON.mass_scale, WILBUR.mass_scale))


def test_fudge_4_58_knight_against_dragon_scratch_then_hurt() -> None:
    off = offensive_factors(WILBUR, WILBUR.ready_weapon, two_handed=True, distance=1, target=DRAGON)
    dfn = defensive_factors(DRAGON, WILBUR.ready_weapon)
    assert total(off) == 6 and total(dfn) == 8  # "+6" against "+8": -2
    degree = relative_degree(GREAT, FAIR - 1, melee_difficulty(0, 6))  # Great against Mediocre: +3
    assert degree == 3
    assert damage_total(degree, off, dfn) == 1  # "3-2 = one point of damage"
    wound = blow_wound(degree, off, dfn, track=DRAGON.wound_track, scale_difference=0 - 6)
    assert wound == S
    sheet = Wounds(DRAGON.wound_track)
    for _ in range(3):
        sheet, marked = sheet.record(S)
        assert marked == S
    sheet, marked = sheet.record(S)  # "thrice more before he Hurts"
    assert marked == H and sheet.worst == H


def test_fudge_4_58_knight_with_ftc_two_handed_sword_does_nothing() -> None:
    # FTC 9.1's Two-Handed Sword is +3 (not Fudge's +4): the same blow no longer gets through.
    knight = Character("Wilbur", strength=GREAT, weapons=(weapon("Two-Handed Sword"),))
    off = offensive_factors(knight, knight.ready_weapon, two_handed=True, distance=1, target=DRAGON)
    assert blow_wound(3, off, defensive_factors(DRAGON, knight.ready_weapon)) is None


def test_fudge_4_58_dragon_strength_scale_against_the_knight() -> None:
    off = offensive_factors(DRAGON, DRAGON.ready_weapon, two_handed=False, distance=1)
    assert [f.name for f in off][:2] == ["Strength (Fair)", "Strength Scale"] and total(off) == 6 - 2
    # Even a graze from six steps of Scale is more than a Scratch (Fudge 4.56), capped at Very Hurt.
    wound = blow_wound(1, off, defensive_factors(WILBUR, DRAGON.ready_weapon), scale_difference=6)
    assert wound == VH  # damage 1 + 4 = 5: Very Hurt; the Scratch cap of a graze rises with the Scale gap
    assert graze_cap(VH, 1, scale_difference=6) == VH
    assert graze_cap(VH, 1, scale_difference=0) == S


def test_fudge_4_58_strength_scale_raises_a_graze_only_with_a_muscle_powered_weapon() -> None:
    # Fudge 4.58: "the attacker's Strength Scale is relevant only for muscle-powered weapons"; the graze cap
    # of 4.56 rises by the same Scale difference the damage factors carry.
    lightning = magic.spell_weapon(magic.spell("Lightning"))
    crossbow = Weapon("Crossbow", "Crossbow", 2, 3.0, ranged=True, base_range=20, max_range=200, muscle_powered=False)
    assert graze_scale_difference(DRAGON, WILBUR, DRAGON.ready_weapon) == 6
    assert graze_scale_difference(DRAGON, WILBUR, lightning) == 0
    assert graze_scale_difference(DRAGON, WILBUR, crossbow) == 0
    assert "Strength Scale" not in [f.name for f in offensive_factors(DRAGON, crossbow, two_handed=False, distance=5)]
    # the dragon's lightning grazing the knight: damage 1 + 3 = 4 would be Hurt, the graze keeps it a Scratch
    off = magic.spell_offensive_factors(magic.spell("Lightning"))
    dfn = magic.spell_defensive_factors(magic.spell("Lightning"), WILBUR)
    assert blow_wound(1, off, dfn, scale_difference=graze_scale_difference(DRAGON, WILBUR, lightning)) == S
    # the target's Mass Scale counts whatever the weapon: a man's lightning on a leprechaun is a big blow
    assert graze_scale_difference(WILBUR, MCMURTREE, lightning) == 4


# --- warrior against leprechaun -----------------------------------------------------------------------


def test_fudge_4_22_warrior_against_leprechaun_melee_difficulty() -> None:
    # "Extremely small targets, such as a pixie, may require a Good or even a Great result": Poor + 4 steps.
    assert melee_difficulty(SHEBA.mass_scale, MCMURTREE.mass_scale) == GREAT
    assert melee_difficulty(MCMURTREE.mass_scale, SHEBA.mass_scale) == POOR
    assert not is_hit(GOOD, [TERRIBLE], GREAT)


def test_fudge_4_58_warrior_kicks_leprechaun_very_hurt() -> None:
    off = offensive_factors(SHEBA, SHEBA.ready_weapon, two_handed=False, distance=1)
    dfn = defensive_factors(MCMURTREE, SHEBA.ready_weapon)
    assert total(off) == 1 and total(dfn) == -3  # "+1" against "-3": +4
    assert blow_wound(2, off, dfn, scale_difference=4) == VH  # "4 + 2 = six points ... Very Hurt"


def test_fudge_4_58_leprechaun_clubs_warrior_no_damage() -> None:
    off = offensive_factors(FIONN, FIONN.ready_weapon, two_handed=False, distance=1, location="leg")
    dfn = defensive_factors(SHEBA, FIONN.ready_weapon, location="leg")
    assert total(off) == -1 and total(dfn) == 2  # -1 - 2 = -3
    assert damage_total(3, off, dfn) == 0  # "she takes no damage"
    assert blow_wound(3, off, dfn, scale_difference=-4) is None


# --- range, movement and encumbrance ------------------------------------------------------------------


def test_ftc_6_4_1_range_base_times_1_3_per_scale_step() -> None:
    bow = weapon("Longbow")
    # Table 6 (longbow): Fair reaches 10 m at Scale 0, 13 m at Scale 1, 17 m at Scale 2, 8 m at -1.
    assert range_band(bow, 13, target_scale=1).difficulty == FAIR  # type: ignore[union-attr]
    assert range_band(bow, 13, target_scale=0).difficulty == GOOD  # type: ignore[union-attr]
    assert range_band(bow, 8, target_scale=-1).difficulty == FAIR  # type: ignore[union-attr]
    assert range_band(bow, 17, target_scale=2).difficulty == FAIR  # type: ignore[union-attr]
    # The dragon (Scale 6) is Fair out to 10 x 1.3^6 = 48 m for a weapon without a printed table.
    javelin = Weapon("Javelin", "Spear", 1, 1.0, ranged=True, base_range=10, max_range=100)
    assert round(scaled_base_range(10, 6)) == 48
    assert range_band(javelin, 48, target_scale=6).difficulty == FAIR  # type: ignore[union-attr]
    assert range_band(javelin, 49, target_scale=6).difficulty == GOOD  # type: ignore[union-attr]
    # The leprechaun (Scale -4): Fair only out to 10 / 1.3^4 = 3.501 m (4 m rounded), so 5 m is Good.
    assert range_band(javelin, 4, target_scale=-4).difficulty == FAIR  # type: ignore[union-attr]
    assert range_band(javelin, 5, target_scale=-4).difficulty == GOOD  # type: ignore[union-attr]


@given(st.integers(-3, 3), st.integers(-6, 6))
def test_ftc_6_4_1_bigger_targets_are_never_harder_to_hit(distance_m: int, scale: int) -> None:
    javelin = Weapon("Javelin", "Spear", 1, 1.0, ranged=True, base_range=10, max_range=100)
    d = abs(distance_m) * 7 + 1
    small, big = range_band(javelin, d, scale), range_band(javelin, d, scale + 1)
    if small is not None and big is not None:
        assert big.difficulty <= small.difficulty


def test_ftc_5_speed_scale_dragon_and_leprechaun() -> None:
    assert movement_allowance(FAIR, speed_scale=6) == 15  # 5 x 1.2^6 = 14.9
    assert movement_allowance(FAIR, speed_scale=-4) == 2  # 5 / 1.2^4 = 2.4
    assert movement_allowance(TERRIBLE, speed_scale=-6) == 1  # never below one hex


def test_ftc_5_1_1_encumbrance_by_strength_scale() -> None:
    assert max_load_kg(FAIR, strength_scale=2) == max_load_kg(GREAT)  # 22 kg, table 2
    assert max_load_kg(GOOD, strength_scale=-4) == max_load_kg(TERRIBLE)  # 3 kg
    assert round(max_load_kg(FAIR, strength_scale=6)) == round(10 * 1.5**6)  # 114 kg, beyond table 2
    # A leprechaun with 2 kg of gear is encumbered; the same gear does not slow a human.
    assert movement_allowance(FAIR, speed_scale=-4, strength_scale=-4, load_kg=2.5) == 1
    assert movement_allowance(FAIR, load_kg=2.5) == 5
    assert movement_allowance(MEDIOCRE) == 4
