"""Healing between battles: *Fudge* 4.8 (with the wound boxes of 4.57)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.characters import Character
from game.engine.healing import (
    HealingError,
    care_after_battle,
    constitution_difficulty,
    days_per_level,
    heal_levels,
    healing_skill,
    minutes_per_treated_wound,
    paces,
    rest,
    treat,
    treatment_levels,
)
from game.engine.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE, POOR, SUPERB, TERRIBLE, parse_level
from game.engine.wounds import WoundLevel, Wounds, named_track

S, H, VH, IN, ND = (
    WoundLevel.SCRATCH,
    WoundLevel.HURT,
    WoundLevel.VERY_HURT,
    WoundLevel.INCAPACITATED,
    WoundLevel.NEAR_DEATH,
)


def sheet(*levels: WoundLevel) -> Wounds:
    w = Wounds()
    for level in levels:
        w, _ = w.record(level)
    return w


class NoDice(random.Random):
    """A generator that fails the test if anything draws from it."""

    def random(self) -> float:
        raise AssertionError("no dice should be rolled")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("no dice should be rolled")


# faces that make a Fair skill reach a given result
GOOD_ROLL = (1, 0, 0, 0)
GREAT_ROLL = (1, 1, 0, 0)
SUPERB_ROLL = (1, 1, 1, 0)
FAIR_ROLL = (0, 0, 0, 0)


def received(w: Wounds) -> Counter[WoundLevel]:
    return Counter(w.received())


# ------------------------------------------------------------------------------------ Scratches


def test_fudge_4_8_scratches_erased_after_battle_with_minutes_to_attend() -> None:
    w = sheet(S, S)
    assert w.worst == S
    assert care_after_battle(w, minutes=5).worst is None
    assert care_after_battle(w).worst is None


def test_fudge_4_8_scratches_stay_without_the_minutes_of_care() -> None:
    w = sheet(S, S)
    assert care_after_battle(w, minutes=2) == w


def test_fudge_4_8_care_leaves_real_wounds_alone() -> None:
    w = sheet(S, H)
    after = care_after_battle(w)
    assert received(after) == Counter({H: 1})
    assert after.worst == H


def test_fudge_4_57_fourth_scratch_rolled_into_hurt_is_still_a_scratch_for_healing() -> None:
    w = sheet(S, S, S, S)
    assert w.worst == H  # the fourth Scratch filled the Hurt box
    assert care_after_battle(w).worst is None


def test_fudge_4_8_scratch_needs_no_roll_on_a_healing_skill() -> None:
    t = treat(NoDice(), sheet(S, S, S), GOOD)
    assert t.faces == () and t.result is None
    assert t.after.worst is None
    assert t.minutes == 0


# ------------------------------------------------------------------------------------ treatment


def test_fudge_4_8_treatment_result_table_every_level() -> None:
    expected = {
        TERRIBLE: 0,
        POOR: 0,
        MEDIOCRE: 0,
        FAIR: 0,
        GOOD: 1,
        GREAT: 2,
        SUPERB: 3,
        LEGENDARY: 3,
        parse_level("Legendary+2"): 3,
    }
    assert {lv: treatment_levels(lv) for lv in expected} == expected


def test_fudge_4_8_example_two_hurt_and_one_very_hurt_healed_with_good() -> None:
    # "the two Hurt wounds will be fully healed, while the Very Hurt wound will now be a Hurt wound"
    w = sheet(H, H, VH)
    assert w.worst == IN  # two Hurts and a Very Hurt fill the boxes up to Incapacitated (Fudge 4.57)
    t = treat(NoDice(), w, FAIR, faces=GOOD_ROLL)
    assert t.result == GOOD and t.levels == 1
    assert received(t.after) == Counter({H: 1})
    assert t.after.worst == H
    assert t.after.penalty() == 0  # FTC: Hurt gives no penalty


def test_fudge_4_57_rolled_over_incapacitated_heals_easier_than_an_incapacitating_blow() -> None:
    rolled = sheet(H, H, VH)
    blow = sheet(IN)
    assert rolled.worst == blow.worst == IN
    assert heal_levels(rolled, 1).worst == H
    assert heal_levels(blow, 1).worst == VH


def test_fudge_4_8_good_great_superb_heal_one_two_three_levels() -> None:
    w = sheet(IN)
    assert treat(NoDice(), w, FAIR, faces=GOOD_ROLL).after.worst == VH
    assert treat(NoDice(), w, FAIR, faces=GREAT_ROLL).after.worst == H
    assert treat(NoDice(), w, FAIR, faces=SUPERB_ROLL).after.worst is None
    assert treat(NoDice(), sheet(ND), FAIR, faces=SUPERB_ROLL).after.worst == H


def test_fudge_4_8_a_hurt_wound_healed_one_level_is_fully_healed() -> None:
    assert heal_levels(sheet(H), 1).worst is None
    assert heal_levels(sheet(VH), 1).worst == H


def test_fudge_4_8_treatment_below_good_heals_nothing() -> None:
    w = sheet(VH)
    t = treat(NoDice(), w, FAIR, faces=FAIR_ROLL)
    assert not t.succeeded
    assert t.after == w and t.minutes == 0
    assert "heals nothing" in t.explanation[-1]


def test_fudge_4_8_treatment_time_a_day_per_wound_epic_a_minute_magical() -> None:
    w = sheet(H, VH)
    epic = treat(NoDice(), w, FAIR, faces=GOOD_ROLL, pace="epic")
    magical = treat(NoDice(), w, FAIR, faces=GOOD_ROLL, pace="magical")
    assert epic.treated == 2 and epic.minutes == 2 * 24 * 60 and epic.days == 2
    assert magical.minutes == 2
    assert {"magical", "epic", "realistic"} <= set(paces())
    assert minutes_per_treated_wound("epic") == 1440


def test_fudge_4_8_treatment_rolls_four_dice_from_the_passed_generator() -> None:
    a = treat(random.Random(7), sheet(VH), GOOD)
    b = treat(random.Random(7), sheet(VH), GOOD)
    assert a == b
    assert len(a.faces) == 4 and a.result == GOOD + sum(a.faces)
    assert a.levels == treatment_levels(a.result)


def test_fudge_4_8_unknown_pace_and_bad_faces_are_explained() -> None:
    with pytest.raises(HealingError, match="pace"):
        treat(NoDice(), sheet(H), FAIR, pace="instant")
    with pytest.raises(HealingError, match="four Fudge dice"):
        treat(NoDice(), sheet(H), FAIR, faces=(2, 0, 0, 0))


def test_fudge_4_8_healing_skill_is_the_best_medical_skill() -> None:
    medic = Character.from_dict({"name": "Medic", "skills": {"First Aid": "Good", "Medicine": "Great"}})
    assert healing_skill(medic) == ("Medicine", GREAT)
    lout = Character.from_dict({"name": "Lout"})
    name, level = healing_skill(lout)
    assert level == POOR and name


def test_fudge_4_8_healing_keeps_the_creature_track() -> None:
    w = Wounds(named_track("cinematic"))
    w, _ = w.record(VH)
    after = heal_levels(w, 1)
    assert after.track == w.track and after.worst == H


# ------------------------------------------------------------------------------------ rest


def test_fudge_4_8_natural_healing_one_level_per_week_incapacitated_becomes_very_hurt() -> None:
    assert days_per_level() == 7
    w = sheet(IN)
    assert rest(w, 6).after.worst == IN
    assert rest(w, 7).after.worst == VH
    assert rest(w, 14).after.worst == H
    r = rest(w, 22)
    assert r.after.worst is None and r.periods == 3 and r.leftover_days == 1


def test_fudge_4_8_natural_healing_heals_every_wound() -> None:
    r = rest(sheet(S, H, VH), 7)
    assert received(r.after) == Counter({H: 1})
    assert r.explanation[0] == "Scratches erased"


def test_fudge_4_8_more_realistic_gm_heals_slower() -> None:
    w = sheet(VH)
    assert rest(w, 7, period_days=14).after.worst == VH
    assert rest(w, 14, period_days=14).after.worst == H


def test_fudge_4_8_constitution_difficulty_table() -> None:
    assert constitution_difficulty(H) == FAIR
    assert constitution_difficulty(VH) == GOOD
    assert constitution_difficulty(IN) == GREAT


def test_fudge_4_8_failed_constitution_roll_slows_healing() -> None:
    w = sheet(H, VH)
    # week 1: Health Fair + 0 = Fair: the Hurt heals (Fair), the Very Hurt does not (needs Good)
    # week 2: Fair + 1 = Good: the Very Hurt becomes Hurt
    r = rest(w, 14, health=FAIR, rolls=[(0, 0, 0, 0), (1, 0, 0, 0)])
    assert received(r.after) == Counter({H: 1})
    assert [x.result for x in r.rolls] == [FAIR, GOOD]
    assert "does not heal" in r.explanation[0]
    # without the option both would be gone after two weeks
    assert rest(w, 14).after.worst is None


def test_fudge_4_8_constitution_rolls_draw_from_the_passed_generator() -> None:
    a = rest(sheet(IN), 28, rng=random.Random(3), health=GOOD)
    b = rest(sheet(IN), 28, rng=random.Random(3), health=GOOD)
    assert a == b and len(a.rolls) == 4
    with pytest.raises(HealingError, match="needs dice"):
        rest(sheet(IN), 7, health=GOOD)


def test_fudge_4_8_near_death_takes_a_long_time() -> None:
    w = sheet(ND)
    assert rest(w, 7).after.worst == ND
    assert rest(w, 14).after.worst == IN
    assert rest(w, 35).after.worst is None


def test_fudge_4_8_rest_rejects_negative_days() -> None:
    with pytest.raises(HealingError, match="0 or more"):
        rest(sheet(H), -1)


# ------------------------------------------------------------------------------------ properties

levels_st = st.lists(st.sampled_from([S, H, VH, IN, ND]), max_size=8)


@given(levels_st, st.integers(0, 4))
def test_fudge_4_8_healing_never_makes_a_figure_worse(levels: list[WoundLevel], n: int) -> None:
    w = sheet(*levels)
    after = heal_levels(w, n)
    assert (after.worst or 0) <= (w.worst or 0)
    assert sum(1 for _ in after.received()) <= sum(1 for _ in w.received())


@given(levels_st, st.integers(0, 3), st.integers(0, 3))
def test_fudge_4_8_healing_levels_add_up(levels: list[WoundLevel], a: int, b: int) -> None:
    w = sheet(*levels)
    assert received(heal_levels(heal_levels(w, a), b)) == received(heal_levels(w, a + b))


@given(st.lists(st.sampled_from([S, H, VH, IN]), max_size=8), st.integers(1, 4))
def test_fudge_4_8_weeks_of_rest_equal_levels_of_healing(levels: list[WoundLevel], weeks: int) -> None:
    w = sheet(*levels)
    assert received(rest(w, 7 * weeks).after) == received(heal_levels(care_after_battle(w), weeks))
