"""FTC 8: magic in combat — casting time and duration (8.1), recognising spells (8.2), ranged spells (8.3)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import magic
from game.engine.characters import Character
from game.engine.combat import Modifier
from game.engine.damage import damage_total
from game.engine.equipment import armour
from game.engine.hexgrid import Hex, distance
from game.engine.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE, POOR, SUPERB
from game.engine.magic import Concentration, MagicError
from game.engine.wounds import WoundLevel, Wounds

S, H, VH, INC = WoundLevel.SCRATCH, WoundLevel.HURT, WoundLevel.VERY_HURT, WoundLevel.INCAPACITATED


# --- the catalogue -------------------------------------------------------------------------------------


def test_ftc_8_catalogue_ships_a_dozen_useful_spells() -> None:
    catalogue = magic.spells()
    assert len(catalogue) >= 12
    effects = {s.effect for s in catalogue}
    assert effects == {"damage", "defence", "movement", "heal", "condition", "area"}
    assert {magic.resolves_when(s) for s in catalogue} == {"declaration", "attack", "last_round"}
    assert {s.range for s in catalogue} >= {"self", "touch", "close", "short", "long"}
    assert magic.spell("Fire Bolt").damage == 2
    assert magic.spell("fire_bolt") is magic.spell("FIRE BOLT")


def test_ftc_8_unknown_spell_names_near_matches() -> None:
    with pytest.raises(MagicError, match="did you mean Fire Bolt"):
        magic.spell("Fire Blot")


def test_ftc_8_gm_catalogue_is_validated(tmp_path: Path) -> None:
    good = tmp_path / "mine.toml"
    good.write_text(
        '[spell.frost]\nname = "Frost Lance"\ncasting_time = "1 round"\nrange = "short"\n'
        'skill = "Ice Magic"\ndifficulty = "Good"\neffect = "damage"\ndamage = 3\ntarget = "enemy"\n'
    )
    loaded = magic.load_catalogue(good)
    assert loaded["frost lance"].skill == "Ice Magic"
    assert loaded["frost lance"].difficulty == GOOD
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[spell.x]\nname = "X"\ncasting_time = "3 seconds"\nrange = "short"\nskill = "Magic"\n'
        'difficulty = "Good"\neffect = "damage"\ntarget = "enemy"\n'
    )
    with pytest.raises(MagicError, match="1 second"):
        magic.load_catalogue(bad)
    typo = tmp_path / "typo.toml"
    typo.write_text(
        '[spell.x]\nname = "X"\ncasting_time = "1 round"\nrange = "short"\nskill = "Magic"\n'
        'difficulty = "Good"\neffect = "damage"\ntarget = "enemy"\ndamgae = 2\n'
    )
    with pytest.raises(MagicError, match="did you mean 'damage'"):
        magic.load_catalogue(typo)


# --- 8.1 casting time and duration --------------------------------------------------------------------


def test_ftc_8_1_time_chart_one_second_one_round_five_rounds_two_minutes() -> None:
    assert magic.resolves_when(magic.spell("Ward")) == "declaration"
    assert magic.resolves_when(magic.spell("Fire Bolt")) == "attack"
    ritual = magic.spell("Thunderstrike")
    assert magic.resolves_when(ritual) == "last_round"
    assert magic.casting_rounds(ritual) == 5
    assert magic.casting_rounds(magic.spell("Ward")) == 1
    assert magic.duration_rounds(magic.spell("Ward")) == 5
    two_minutes = magic.Spell("k", "Long Rite", "2 minutes", "long", "Magic", GOOD, "damage", "enemy")
    assert magic.casting_rounds(two_minutes) == 40  # a round is about three seconds (FTC 3)


def test_ftc_8_1_one_round_spell_takes_table_7_with_movement_penalty() -> None:
    bolt = magic.spell("Fire Bolt")
    mods = magic.casting_modifiers(bolt, moved_fraction="full", light=-1)
    assert Modifier("Moved more than half of the allowance", -2) in mods
    assert Modifier("Bad light", -1) in mods
    assert sum(m.value for m in magic.casting_modifiers(bolt, moved_fraction="half")) == -1


def test_ftc_8_1_one_second_spell_has_no_movement_penalty() -> None:
    mods = magic.casting_modifiers(magic.spell("Ward"), moved_fraction="full")
    assert mods == ()


def test_ftc_8_1_long_casting_needs_the_caster_to_stay_still() -> None:
    ritual = magic.spell("Thunderstrike")
    assert magic.casting_modifiers(ritual, moved_fraction="none") == ()
    with pytest.raises(MagicError, match="stay still"):
        magic.casting_modifiers(ritual, moved_fraction="half")


def test_ftc_8_1_five_round_spell_declared_in_round_1_takes_effect_in_round_5() -> None:
    c = Concentration.begin(magic.spell("Thunderstrike"), "wizard", "dragon")
    rounds_seen = []
    for round_no in range(1, 10):
        if c.takes_effect_this_round:
            rounds_seen.append(round_no)
            break
        c = c.advance()
    assert rounds_seen == [5]
    assert c.progress == (4, 5)
    with pytest.raises(MagicError):
        c.advance()


def test_ftc_8_1_one_round_spell_takes_effect_in_its_own_round() -> None:
    c = Concentration.begin(magic.spell("Fire Bolt"), "wizard", "orc")
    assert c.takes_effect_this_round


def test_ftc_8_1_concentration_good_when_dodging_great_when_damaged() -> None:
    assert magic.concentration_difficulty("dodge") == GOOD
    assert magic.concentration_difficulty("damaged") == GREAT
    with pytest.raises(MagicError):
        magic.concentration_difficulty("sneezed")  # type: ignore[arg-type]


@given(st.integers(0, 2**32), st.integers(-3, 4))
def test_ftc_8_1_concentration_roll_holds_iff_will_plus_roll_reaches_difficulty(seed: int, will: int) -> None:
    for event in ("dodge", "damaged"):
        roll, kept = magic.concentration_roll(random.Random(seed), will, event)  # type: ignore[arg-type]
        assert kept == (will + roll.total >= magic.concentration_difficulty(event))  # type: ignore[arg-type]


def test_ftc_8_1_concentration_roll_uses_the_passed_generator() -> None:
    a = magic.concentration_roll(random.Random(7), FAIR, "damaged")
    b = magic.concentration_roll(random.Random(7), FAIR, "damaged")
    assert a == b


def test_ftc_8_1_defensive_spell_does_not_protect_against_same_round_attacks() -> None:
    # A 1-round shield cast in round 3 does not stop round 3's bolt; it does from round 4.
    assert not magic.protects_this_round(3, 3, "1 round")
    assert magic.protects_this_round(3, 4, "1 round")
    # A 1-second ward is resolved at declaration, before the attacks: it protects at once.
    assert magic.protects_this_round(3, 3, "1 second")
    # A spell finished by concentration this round is resolved with the attacks.
    assert not magic.protects_this_round(5, 5, "5 rounds")
    assert not magic.protects_this_round(5, 4, "1 second")


def test_ftc_8_1_duration_is_counted_in_the_rounds_the_effect_can_count_in() -> None:
    # cast in 1 second (resolved at declaration, before the attacks): its own round counts
    ward = magic.spell("Ward")  # 5 rounds
    assert list(magic.effect_rounds(ward, 3)) == [3, 4, 5, 6, 7]
    assert [r for r in range(1, 12) if magic.active_in_round(ward, 3, r)] == [3, 4, 5, 6, 7]
    assert list(magic.effect_rounds(magic.spell("Dazzle"), 3)) == [3]  # "1 round": "-1 ... this round"
    # taking hold with the attacks of round 3 (1 round casting): the whole duration comes after
    assert list(magic.effect_rounds(magic.spell("Paralysing Touch"), 3)) == [4, 5]  # "for two rounds"
    assert list(magic.effect_rounds(magic.spell("Shield of Force"), 3)) == list(range(4, 14))  # 10 rounds
    assert list(magic.effect_rounds(magic.spell("Blindness"), 3)) == [4, 5, 6]
    # the battle holds it from the round it took hold to its last round
    assert [r for r in range(1, 9) if magic.active_in_round(magic.spell("Paralysing Touch"), 3, r)] == [3, 4, 5]


def test_ftc_8_1_a_one_round_duration_cast_with_the_attacks_counts_one_round() -> None:
    brief = replace(magic.spell("Blindness"), duration="1 round")
    effect = magic.ActiveEffect(brief, "w", "k", None, 3)
    assert [r for r in range(1, 7) if effect.counts_in(r)] == [4]
    assert (effect.first_round, effect.last_round) == (4, 4)
    assert [effect.rounds_left(r) for r in (3, 4, 5)] == [1, 1, 0]


@pytest.mark.parametrize(
    "item", [s for s in magic.spells() if s.effect not in ("damage", "heal")], ids=lambda s: s.key
)  # damage and heal are instant: nothing lasts
def test_ftc_8_1_every_catalogue_effect_lasts_its_whole_duration(item: magic.Spell) -> None:
    effect = magic.ActiveEffect(item, "w", "w", None, 7)
    counted = [r for r in range(1, 40) if effect.counts_in(r)]
    assert len(counted) == magic.duration_rounds(item)
    assert counted[0] == (7 if magic.is_instant(item) else 8)
    assert effect.rounds_left(counted[0]) == magic.duration_rounds(item)
    assert effect.rounds_left(counted[-1]) == 1 and effect.rounds_left(counted[-1] + 1) == 0
    assert not effect.active(counted[-1] + 1)


def test_ftc_8_1_casting_roll_reaches_the_difficulty() -> None:
    bolt = magic.spell("Fire Bolt")  # Fair
    result = magic.casting_result(GOOD, -1, magic.casting_modifiers(bolt, moved_fraction="half"))
    assert result == MEDIOCRE
    assert not magic.cast_succeeds(bolt, result)
    assert magic.cast_succeeds(bolt, FAIR)


# --- 8.2 recognising spells ---------------------------------------------------------------------------


def test_ftc_8_2_recognition_good_great_superb() -> None:
    assert magic.recognition_difficulty(sees=True, hears=True, obscured=False) == GOOD
    assert magic.recognition_difficulty(sees=True, hears=False, obscured=False) == GREAT
    assert magic.recognition_difficulty(sees=True, hears=True, obscured=True) == SUPERB
    assert magic.recognition_difficulty(sees=False, hears=True, obscured=False) == SUPERB
    assert magic.recognition_difficulty(sees=False, hears=False, obscured=False) is None


@given(st.integers(0, 2**32), st.integers(-3, 4), st.booleans(), st.booleans(), st.booleans())
def test_ftc_8_2_recognise_is_a_thaumatology_roll(
    seed: int, skill: int, sees: bool, hears: bool, obscured: bool
) -> None:
    roll, ok = magic.recognise(random.Random(seed), skill, sees=sees, hears=hears, obscured=obscured)
    need = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
    if need is None:
        assert roll is None and not ok
    else:
        assert roll is not None and ok == (skill + roll.total >= need)


# --- 8.3 ranged spells --------------------------------------------------------------------------------


def test_ftc_8_3_close_2_short_10_long_in_sight() -> None:
    assert magic.spell_range_hexes("close") == 2
    assert magic.spell_range_hexes("short") == 10
    assert magic.spell_range_hexes("long") is None
    assert magic.spell_range_hexes("touch") == 1
    assert magic.spell_range_hexes("Self") == 0
    with pytest.raises(MagicError):
        magic.spell_range_hexes("medium")
    bolt = magic.spell("Fire Bolt")
    assert magic.in_spell_range(bolt, 10) and not magic.in_spell_range(bolt, 11)
    assert not magic.in_spell_range(bolt, 5, in_sight=False)
    far = magic.spell("Far Bolt")
    assert magic.in_spell_range(far, 400) and not magic.in_spell_range(far, 3, in_sight=False)


def test_ftc_8_3_touch_uses_agility_or_best_hand_to_hand_skill() -> None:
    nimble = Character("Nimble", agility=GREAT, skills={"Sword": GOOD, "Magic": SUPERB})
    swordsman = Character("Swordsman", agility=FAIR, skills={"Sword": SUPERB, "Longbow": LEGENDARY})
    brawler = Character("Brawler", agility=POOR, skills={"Brawling": GOOD})
    assert magic.touch_attack_skill(nimble) == GREAT  # Agility beats Sword; Magic is no melee skill
    assert magic.touch_attack_skill(swordsman) == SUPERB  # the bow skill does not count
    assert magic.touch_attack_skill(brawler) == GOOD


def test_ftc_8_3_bolt_damage_through_armour_and_past_it() -> None:
    knight = Character("Knight", armour=(armour("Chain Mail"),), tough_hide=0)
    bolt, lightning = magic.spell("Fire Bolt"), magic.spell("Lightning")
    off = magic.spell_offensive_factors(bolt)
    dfn = magic.spell_defensive_factors(bolt, knight)
    assert damage_total(2, off, dfn) == 2 + 2 - armour("Chain Mail").defense
    assert magic.spell_defensive_factors(lightning, knight) == ()
    troll = Character("Troll", mass_scale=2, tough_hide=1, armour=(armour("Leather"),))
    assert [f.name for f in magic.spell_defensive_factors(lightning, troll)] == ["Mass Scale", "Tough Hide"]
    assert magic.spell_dodge_bonus(magic.spell("Far Bolt")) == 2  # Great difficulty: table 8 +2
    with pytest.raises(MagicError):
        magic.spell_offensive_factors(magic.spell("Ward"))


def test_ftc_8_resisted_spell_needs_to_beat_the_targets_will() -> None:
    slow = magic.spell("Slow")
    target = Character("Target", will=GOOD)
    assert magic.resist_level(slow, target) == GOOD
    assert magic.resist_level(magic.spell("Weakness"), Character("T", health=POOR)) == POOR
    assert magic.resist_level(magic.spell("Fire Bolt"), target) is None
    assert not magic.overcomes_resistance(GOOD, GOOD)
    assert magic.overcomes_resistance(GREAT, GOOD)
    assert magic.overcomes_resistance(POOR, None)


# --- effects ------------------------------------------------------------------------------------------


def test_ftc_8_effect_modifiers_shield_haste_slow_weakness() -> None:
    assert magic.effect_modifiers(magic.spell("Shield of Force")) == (("defence", Modifier("Shield of Force", 2)),)
    haste = dict(magic.effect_modifiers(magic.spell("Haste")))
    assert haste["movement"].value == 2 and haste["speed"].value == 1
    assert dict(magic.effect_modifiers(magic.spell("Slow")))["movement"].value == -2
    assert magic.effect_modifiers(magic.spell("Weakness")) == (("strength", Modifier("Weakened (Weakness)", -2)),)
    blind = magic.effect_modifiers(magic.spell("Blindness"))
    assert {c for c, _ in blind} == {"offence", "defence"} and all(m.value == -3 for _, m in blind)
    assert magic.cannot_act(magic.spell("Paralysing Touch"))
    assert not magic.cannot_act(magic.spell("Dazzle"))


def test_ftc_8_blinding_cloud_covers_a_hex_and_its_neighbours() -> None:
    cloud = magic.spell("Blinding Cloud")
    hexes = magic.area_hexes(cloud, Hex(3, 3))
    assert len(hexes) == 7 and all(distance(h, Hex(3, 3)) <= 1 for h in hexes)
    assert cloud.blocks_sight and cloud.light == -2
    with pytest.raises(MagicError):
        magic.area_hexes(magic.spell("Ward"), Hex(0, 0))


def test_fudge_4_57_heal_lowers_the_worst_wound() -> None:
    w = Wounds()
    w, _ = w.record(VH)
    w, _ = w.record(S)
    healed = magic.heal_wounds(w, 1)
    assert healed.worst == H and healed.filled(S) == 1
    assert magic.heal_wounds(healed, 1).worst == S  # the Hurt is healed away, the Scratch stays
    assert magic.heal_wounds(magic.heal_wounds(healed, 1), 1).worst is None
    assert magic.heal_wounds(Wounds(), 1) == Wounds()


def test_fudge_4_57_heal_of_a_rolled_over_wound() -> None:
    # Two Hurt and a Very Hurt: the second Hurt sits in the Incapacitated box ("H"); healing it one level
    # heals it away (Fudge 4.8: Scratches are not a level), so the figure is Very Hurt again and can act.
    w = Wounds()
    for level in (H, VH, H):
        w, _ = w.record(level)
    assert w.worst == INC and not w.can_act
    healed = magic.heal_wounds(w, 1)
    assert healed.worst == VH and healed.can_act and healed.filled(S) == 0


@given(st.lists(st.sampled_from([S, H, VH, INC]), max_size=6), st.integers(1, 3))
def test_fudge_4_57_heal_never_worsens(levels: list[WoundLevel], by: int) -> None:
    w = Wounds()
    for level in levels:
        w, _ = w.record(level)
    healed = magic.heal_wounds(w, by)
    assert (healed.worst or 0) <= (w.worst or 0)
    assert len(list(healed.received())) <= len(list(w.received()))
