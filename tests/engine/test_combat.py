"""Attack resolution (FTC 6.1–6.6, tables 4, 7, 9; *Fudge* 4.32), tested against the rulebook."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import ladder
from game.engine.combat import (
    ACCIDENTAL_DODGE_BONUS,
    CombatError,
    Modifier,
    Stance,
    accidental_hit,
    behind_bonus,
    defence_modifiers,
    elevation_modifier,
    firing_modifiers,
    hit_locations,
    is_behind,
    is_hit,
    melee_difficulty,
    miss_thresholds,
    offence_modifiers,
    relative_degree,
    resolve_miss,
    scatter,
    scatter_distance,
    total,
    very_hurt_modifier,
)
from game.engine.hexgrid import Hex, distance, neighbor, rear_hexes, ring


class ScriptedRandom(random.Random):
    """A generator whose dice are set by the test: Fudge faces, d6 and choices in order."""

    def __init__(self, faces: Sequence[int] = (), d6: Sequence[int] = (), picks: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.d6 = list(d6)
        self.picks = list(picks)

    def choice(self, seq):  # type: ignore[no-untyped-def, override]
        return self.faces.pop(0)

    def randint(self, a: int, b: int) -> int:
        return self.d6.pop(0)

    def randrange(self, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        return self.picks.pop(0)


# --- Table 4 and the stances -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stance", "attack", "advance", "defence", "retreat"),
    [
        (Stance.VERY_AGGRESSIVE, 2, 2, -2, "none"),
        (Stance.MILDLY_AGGRESSIVE, 1, 1, -1, "none"),
        (Stance.NEUTRAL, 0, 0, 0, "none"),
        (Stance.MILDLY_DEFENSIVE, -1, 0, 1, "may"),
        (Stance.VERY_DEFENSIVE, -2, 0, 2, "must"),
    ],
)
def test_ftc_table_4_combat_tactics_every_cell(
    stance: Stance, attack: int, advance: int, defence: int, retreat: str
) -> None:
    assert stance.attack_bonus == attack
    assert stance.max_advance == advance
    assert stance.defence_bonus == defence
    assert stance.retreat == retreat
    assert stance.display_name and stance.effect
    assert total(offence_modifiers(stance=stance)) == attack
    assert total(defence_modifiers(stance=stance)) == defence


def test_ftc_table_4_stances_in_book_order() -> None:
    assert [s.attack_bonus for s in Stance] == [2, 1, 0, -1, -2]


def test_ftc_6_3_stance_example_good_sword_mildly_aggressive_rolls_minus_one() -> None:
    skill, roll = ladder.GOOD, -1
    offence = skill + roll + total(offence_modifiers(stance=Stance.MILDLY_AGGRESSIVE))
    defence = skill + roll + total(defence_modifiers(stance=Stance.MILDLY_AGGRESSIVE))
    assert ladder.level_name(offence) == "Good"
    assert ladder.level_name(defence) == "Mediocre"


def test_fudge_4_32_example_both_fighters_hit_each_other() -> None:
    # He: Good sword, +1 offence / -1 defence, rolls 0. She: Great, normal posture, rolls -1.
    his_offence = ladder.GOOD + 0 + total(offence_modifiers(stance=Stance.MILDLY_AGGRESSIVE))
    his_defence = ladder.GOOD + 0 + total(defence_modifiers(stance=Stance.MILDLY_AGGRESSIVE))
    her_result = ladder.GREAT - 1 + total(offence_modifiers(stance=Stance.NEUTRAL))
    assert (his_offence, his_defence, her_result) == (ladder.GREAT, ladder.FAIR, ladder.GOOD)
    difficulty = melee_difficulty(0, 0)
    assert is_hit(his_offence, [her_result], difficulty)
    assert relative_degree(his_offence, her_result, difficulty) == 1
    assert is_hit(her_result, [his_defence], difficulty)
    assert relative_degree(her_result, his_defence, difficulty) == 1


def test_ftc_6_2_advancing_trades_the_attack_bonus_hex_for_hex() -> None:
    one = offence_modifiers(stance=Stance.VERY_AGGRESSIVE, advance_hexes_used=1)
    assert total(one) == 1
    assert "1 hex advanced" in one[0].name
    assert offence_modifiers(stance=Stance.VERY_AGGRESSIVE, advance_hexes_used=2) == ()
    assert offence_modifiers(stance=Stance.MILDLY_AGGRESSIVE, advance_hexes_used=1) == ()
    with pytest.raises(CombatError, match="at most 1"):
        offence_modifiers(stance=Stance.MILDLY_AGGRESSIVE, advance_hexes_used=2)
    with pytest.raises(CombatError):
        offence_modifiers(stance=Stance.NEUTRAL, advance_hexes_used=1)


# --- FTC 6.4.1 modifiers ---------------------------------------------------------------------------


def test_ftc_6_4_1_offensive_modifiers_are_named_and_zero_terms_omitted() -> None:
    mods = offence_modifiers(stance=Stance.NEUTRAL, behind=2, very_hurt_penalty=-1, missile_dodges=2, situational=1)
    assert [m.value for m in mods] == [2, -1, -2, 1]
    assert all(isinstance(m, Modifier) and m.name for m in mods)
    assert total(mods) == 0
    assert offence_modifiers(stance=Stance.NEUTRAL) == ()


def test_ftc_6_4_1_very_hurt_gives_minus_one_hurt_gives_none() -> None:
    assert very_hurt_modifier(True) == -1
    assert very_hurt_modifier(False) == 0
    # A penalty may be given as a size or as a signed value; it always subtracts.
    for given_as in (1, -1):
        assert total(offence_modifiers(stance=Stance.NEUTRAL, very_hurt_penalty=given_as)) == -1
        assert total(defence_modifiers(stance=Stance.NEUTRAL, very_hurt_penalty=given_as)) == -1
        assert total(firing_modifiers(very_hurt_penalty=given_as)) == -1


def test_ftc_6_4_1_defensive_modifiers() -> None:
    mods = defence_modifiers(stance=Stance.MILDLY_DEFENSIVE, shield=1, parry_penalty=-2, unwieldy=1, parry_bonus=1)
    assert [m.value for m in mods] == [1, 1, -2, -1, 1]
    assert total(mods) == 0
    with pytest.raises(CombatError):
        defence_modifiers(stance=Stance.NEUTRAL, shield=-1)


def test_ftc_5_3_turning_tail_defends_at_minus_two() -> None:
    mods = defence_modifiers(stance=Stance.NEUTRAL, free_attack_run=True)
    assert mods == (Modifier("Turning tail and running", -2),)


# --- Table 7 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"braced": True}, 1),
        ({"scope": True}, 2),
        ({"moved_fraction": "half"}, -1),
        ({"moved_fraction": "full"}, -2),
        ({"firer_defending": True}, -1),
        ({"elevation_angle_modifier": elevation_modifier(-25)}, 1),
        ({"elevation_angle_modifier": elevation_modifier(30)}, -1),
        ({"elevation_angle_modifier": elevation_modifier(70)}, -2),
        ({"very_hurt_penalty": -1}, -1),
        ({"footing": -1}, -1),
        ({"footing": -3}, -3),
        ({"light": -1}, -1),
        ({"light": -3}, -3),
        ({"partial_cover": True}, -1),
    ],
)
def test_ftc_table_7_firing_modifiers_every_cell(kwargs: dict[str, object], expected: int) -> None:
    mods = firing_modifiers(**kwargs)  # type: ignore[arg-type]
    assert len(mods) == 1
    assert mods[0].value == expected


def test_ftc_table_7_elevation_thresholds_are_strict() -> None:
    assert elevation_modifier(-20) == 0
    assert elevation_modifier(-21) == 1
    assert elevation_modifier(10) == 0
    assert elevation_modifier(11) == -1
    assert elevation_modifier(60) == -1
    assert elevation_modifier(61) == -2


def test_ftc_table_7_scope_only_without_movement_penalty() -> None:
    assert total(firing_modifiers(scope=True, moved_fraction="half")) == -1
    assert total(firing_modifiers(scope=True, braced=True)) == 3


def test_ftc_table_7_footing_beyond_minus_three_is_refused() -> None:
    with pytest.raises(CombatError, match="footing"):
        firing_modifiers(footing=-4)
    with pytest.raises(CombatError, match="moved_fraction"):
        firing_modifiers(moved_fraction="most")  # type: ignore[arg-type]


# --- Attacking from behind -------------------------------------------------------------------------

TARGET = Hex(0, 0)
DIRECT = Hex(-1, 0)  # facing 0: directly behind is direction 3
SIDE_REAR = Hex(0, -1)  # direction 2, one of the other two rear hexes
FRONT = Hex(1, 0)


def _bonus(at: Hex, start: Hex | None = None) -> int:
    start = at if start is None else start
    return behind_bonus(at, TARGET, 0, attacker_phase_start=start, moved_this_attack_phase=start != at)


def test_ftc_6_4_1_behind_directly_behind_plus_two() -> None:
    assert _bonus(DIRECT) == 2


def test_ftc_6_4_1_behind_moved_directly_behind_during_attack_phase_plus_one() -> None:
    assert _bonus(DIRECT, start=FRONT) == 1
    assert _bonus(DIRECT, start=SIDE_REAR) == 1
    # Moving in from a hex that was already directly behind (reach 2) keeps the +2.
    assert _bonus(DIRECT, start=Hex(-2, 0)) == 2


def test_ftc_6_4_1_behind_other_rear_hexes() -> None:
    assert _bonus(SIDE_REAR) == 1
    assert _bonus(Hex(-1, 1)) == 1
    assert _bonus(SIDE_REAR, start=DIRECT) == 1
    assert _bonus(SIDE_REAR, start=Hex(1, -1)) == 0  # started in view and moved behind: nothing
    assert (
        behind_bonus(SIDE_REAR, TARGET, 0, attacker_phase_start=SIDE_REAR, moved_this_attack_phase=True) == 1
    )  # turned in place: still started there


def test_ftc_6_4_1_no_bonus_from_the_front_hexes() -> None:
    for direction in (5, 0, 1):
        assert _bonus(neighbor(TARGET, direction)) == 0


def test_ftc_6_4_1_behind_at_reach_two_uses_the_rear_sector() -> None:
    assert _bonus(Hex(-2, 0)) == 2  # straight behind
    assert _bonus(Hex(-2, 1)) == 1  # 30° off the centre line
    assert _bonus(Hex(0, -2)) == 1  # on the sector's edge
    assert _bonus(Hex(1, -2)) == 0  # beside, 90° off
    assert _bonus(Hex(2, -1)) == 0


@given(st.integers(0, 5))
def test_ftc_6_4_1_rear_sector_agrees_with_the_adjacent_rear_hexes(facing: int) -> None:
    for h in ring(TARGET, 1):
        assert is_behind(h, TARGET, facing) == (h in rear_hexes(TARGET, facing))
    # At distance 2 the rear sector holds five hexes, one of them directly behind.
    behind = [h for h in ring(TARGET, 2) if is_behind(h, TARGET, facing)]
    assert len(behind) == 5
    assert (
        sum(behind_bonus(h, TARGET, facing, attacker_phase_start=h, moved_this_attack_phase=False) == 2 for h in behind)
        == 1
    )


def test_ftc_6_4_1_attacker_in_the_target_hex_is_refused() -> None:
    with pytest.raises(CombatError, match="different hexes"):
        _bonus(TARGET)


# --- FTC 6.4: difficulty, hits and relative degree --------------------------------------------------


def test_ftc_6_4_melee_difficulty_poor_plus_one_per_larger_scale_step() -> None:
    assert melee_difficulty(0, 0) == ladder.POOR
    assert melee_difficulty(2, 0) == ladder.FAIR
    assert melee_difficulty(0, 3) == ladder.POOR


def test_ftc_6_4_swordsman_vs_pikeman_relative_degree() -> None:
    difficulty = melee_difficulty(0, 0)
    assert is_hit(ladder.FAIR, [ladder.TERRIBLE], difficulty)
    assert relative_degree(ladder.FAIR, ladder.TERRIBLE, difficulty) == 2


def test_ftc_6_4_tie_misses_and_difficulty_must_be_reached() -> None:
    assert not is_hit(1, [1], -2)
    assert is_hit(-2, [-3], -2)
    assert not is_hit(-3, [-4], -2)
    assert relative_degree(-2, -3, -2) == 0


def test_ftc_6_4_1_must_beat_every_engaged_opponent() -> None:
    assert is_hit(2, [1, 0, -1], -2)
    assert not is_hit(2, [1, 2], -2)


def test_ftc_6_1_undodged_missile_needs_only_the_difficulty() -> None:
    assert is_hit(0, [], 0)
    assert not is_hit(-1, [], 0)
    assert relative_degree(2, None, 0) == 2


# --- FTC 6.6 hit location --------------------------------------------------------------------------


def test_ftc_6_6_torso_only_below_superb() -> None:
    assert hit_locations(ladder.GREAT, ladder.TERRIBLE) == ("torso",)


def test_ftc_6_6_superb_against_fair_or_worse_chooses_head_arms_legs() -> None:
    assert hit_locations(ladder.SUPERB, ladder.FAIR) == ("torso", "head", "arms", "legs")
    assert hit_locations(ladder.SUPERB, ladder.GOOD) == ("torso",)


def test_ftc_6_6_superb_plus_one_adds_hands_and_feet() -> None:
    assert hit_locations(ladder.SUPERB + 1, ladder.POOR) == ("torso", "head", "arms", "legs", "hands", "feet")
    assert hit_locations(ladder.SUPERB + 1, ladder.GOOD) == ("torso",)


def test_ftc_6_6_undodged_shot_counts_as_fair_or_worse() -> None:
    assert "head" in hit_locations(ladder.SUPERB, None)


# --- FTC 6.5.3 misses, table 9 ---------------------------------------------------------------------


@pytest.mark.parametrize(("count", "friend", "enemy"), [(1, -3, 3), (2, -2, 2), (3, -1, 1), (7, -1, 1)])
def test_ftc_table_9_ranged_miss_table_every_cell(count: int, friend: int, enemy: int) -> None:
    assert miss_thresholds(count, count) == (friend, enemy)
    assert miss_thresholds(count, 0) == (friend, None)
    assert miss_thresholds(0, count) == (None, enemy)


def test_ftc_table_9_nobody_on_the_line() -> None:
    assert miss_thresholds(0, 0) == (None, None)
    with pytest.raises(CombatError):
        miss_thresholds(-1, 0)


@given(st.integers(0, 6), st.integers(0, 6))
def test_ftc_table_9_friend_and_enemy_ranges_never_overlap(friends: int, enemies: int) -> None:
    friend_at, enemy_at = miss_thresholds(friends, enemies)
    for roll in range(-4, 5):
        hits_friend = friend_at is not None and roll <= friend_at
        hits_enemy = enemy_at is not None and roll >= enemy_at
        assert not (hits_friend and hits_enemy)


def test_ftc_6_5_3_low_roll_hits_a_random_friend() -> None:
    rng = ScriptedRandom(faces=[-1, -1, 0, 0], picks=[1])
    roll, victim, side = resolve_miss(rng, ["ally A", "ally B"], ["foe"])
    assert roll.total == -2
    assert (victim, side) == ("ally B", "friend")


def test_ftc_6_5_3_high_roll_hits_a_random_enemy() -> None:
    rng = ScriptedRandom(faces=[1, 1, 1, 0], picks=[0])
    roll, victim, side = resolve_miss(rng, ["ally"], ["foe"])
    assert roll.total == 3
    assert (victim, side) == ("foe", "enemy")


def test_ftc_6_5_3_middling_roll_hits_nobody() -> None:
    rng = ScriptedRandom(faces=[1, 1, 0, 0])
    roll, victim, side = resolve_miss(rng, ["ally"], ["foe"])
    assert (roll.total, victim, side) == (2, None, "none")


@given(st.integers(0, 10_000))
def test_ftc_6_5_3_miss_resolution_follows_table_9(seed: int) -> None:
    friends, enemies = ["f1", "f2"], ["e1", "e2", "e3"]
    roll, victim, side = resolve_miss(random.Random(seed), friends, enemies)
    if roll.total <= -2:
        assert side == "friend" and victim in friends
    elif roll.total >= 1:
        assert side == "enemy" and victim in enemies
    else:
        assert (side, victim) == ("none", None)


def test_ftc_6_5_3_accidental_hit_dodge_at_plus_three() -> None:
    assert ACCIDENTAL_DODGE_BONUS == 3
    assert accidental_hit(ladder.FAIR, None) == (True, 0)  # no dodge declared: it lands
    assert accidental_hit(ladder.SUPERB, ladder.FAIR) == (False, 0)  # Fair + 3 ties Superb: dodged
    assert accidental_hit(ladder.LEGENDARY, ladder.FAIR)[0]


# --- FTC 6.5.3 scatter -----------------------------------------------------------------------------


def test_ftc_6_5_3_scatter_example_ten_metres_relative_degree_minus_two() -> None:
    assert scatter_distance(-2, 10) == 2


def test_ftc_6_5_3_scatter_relative_degree_zero_misses_by_one_hex() -> None:
    assert scatter_distance(0, 10) == 1
    assert scatter_distance(-1, 30) == 1
    assert scatter_distance(-3, 10) == 4
    assert scatter_distance(-5, 3) == 2  # 20 % of 3 m × 4 = 2.4 -> 2
    assert scatter_distance(-2, 2) == 1  # never less than one hex


def test_ftc_6_5_3_scatter_direction_is_a_d6() -> None:
    target = Hex(3, 4)
    for face in range(1, 7):
        landing = scatter(ScriptedRandom(d6=[face]), target, -2, 10)
        assert landing == neighbor(neighbor(target, face - 1), face - 1)


@given(st.integers(0, 1000), st.integers(-6, 0), st.integers(1, 60))
def test_ftc_6_5_3_scatter_lands_at_the_miss_distance(seed: int, degree: int, dist: int) -> None:
    target = Hex(0, 0)
    landing = scatter(random.Random(seed), target, degree, dist)
    assert distance(landing, target) == scatter_distance(degree, dist) >= 1
