"""Exact odds (FTC 5.3, 6.4, 6.5.3, 6.6, 7), cross-checked against enumerating every face of every die."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import odds
from game.engine.combat import Stance, hit_locations, is_hit, relative_degree
from game.engine.dice import FACES, prob_at_least
from game.engine.odds import (
    MISS,
    IncomingAttack,
    Outcome,
    chance_of_at_least,
    escape_probability,
    exchange_distribution,
    expected_wound,
    hit_chance,
    hit_probability,
    miss_probabilities,
    outcome_distribution,
    stance_comparison,
)
from game.engine.wounds import WoundLevel, apply_health_roll, graze_cap, named_track, wound_for_damage

# Every one of the 81 face combinations of 4dF, listed one by one (no counting shortcuts).
ALL_FACES: tuple[int, ...] = tuple(sum(faces) for faces in itertools.product(FACES, repeat=4))


def brute_hit(offence: int, defences: Sequence[int], difficulty: int) -> Fraction:
    hits = total = 0
    for rolls in itertools.product(ALL_FACES, repeat=len(defences) + 1):
        total += 1
        result = offence + rolls[0]
        hits += is_hit(result, [d + r for d, r in zip(defences, rolls[1:], strict=True)], difficulty)
    return Fraction(hits, total)


def test_dice_enumeration_is_81_combinations() -> None:
    assert len(ALL_FACES) == 81


@pytest.mark.parametrize(
    ("offence", "defences", "difficulty"),
    [
        (0, (), 0),
        (2, (), 3),
        (-1, (), -2),
        (1, (0,), -2),
        (0, (3,), -2),
        (3, (0,), 2),
        (1, (0, 1), -2),
        (2, (-1, 2), 0),
    ],
)
def test_ftc_6_4_hit_probability_matches_enumeration_of_all_dice(
    offence: int, defences: tuple[int, ...], difficulty: int
) -> None:
    assert hit_probability(offence, defences, difficulty) == brute_hit(offence, defences, difficulty)


@given(st.integers(-6, 6), st.integers(-6, 6))
def test_ftc_6_5_unopposed_shot_is_the_chance_of_reaching_the_difficulty(offence: int, difficulty: int) -> None:
    assert hit_probability(offence, [], difficulty) == prob_at_least(difficulty - offence)


@given(st.integers(-5, 5), st.lists(st.integers(-5, 5), max_size=3), st.integers(-5, 5))
def test_ftc_6_4_hit_probability_is_a_probability_and_rises_with_offence(
    offence: int, defences: list[int], difficulty: int
) -> None:
    p = hit_probability(offence, defences, difficulty)
    assert 0 <= p <= 1
    assert hit_probability(offence + 1, defences, difficulty) >= p
    assert hit_probability(offence, [*defences, 0], difficulty) <= p  # another defence never helps


def test_ftc_5_3_escape_probability_matches_enumeration() -> None:
    # Escape: beat every stopper, ties stop the mover, no absolute difficulty.
    for mover, stoppers in [(0, (0,)), (1, (0, -1)), (-1, (1,))]:
        assert escape_probability(mover, stoppers) == brute_hit(mover, stoppers, -99)
    assert escape_probability(0, ()) == 1
    assert escape_probability(0, (0,)) == Fraction(1, 2) - Fraction(
        19 * 19 + 16 * 16 * 2 + 10 * 10 * 2 + 4 * 4 * 2 + 2, 2 * 81 * 81
    )


def test_ftc_6_3_exchange_distribution_matches_enumeration() -> None:
    a_off, a_def, b_off, b_def, da, db = 2, 0, 1, 1, -2, -2
    counts = dict.fromkeys([(True, True), (True, False), (False, True), (False, False)], 0)
    for x, y in itertools.product(ALL_FACES, repeat=2):
        counts[(is_hit(a_off + x, [b_def + y], da), is_hit(b_off + y, [a_def + x], db))] += 1
    dist = exchange_distribution(a_off, a_def, b_off, b_def, da, db)
    assert dict(dist) == {k: Fraction(v, 81 * 81) for k, v in counts.items()}
    assert sum(dist.values()) == 1


def hit(level: WoundLevel | None, location: str = "torso") -> Outcome:
    """A hit as the odds give it on an unhurt target of the default track: the wound marks its own box, and
    Incapacitated or worse takes the target out (FTC 6.4, 7.3)."""
    out = level is not None and level >= WoundLevel.INCAPACITATED
    return Outcome(True, level, location, marked=level, out=out)


def brute_outcomes(
    offence: int, target: int | None, others: Sequence[int], difficulty: int, base: int, head: int | None
) -> dict[Outcome, Fraction]:
    """A plain re-statement of FTC 6.4–7.3 over every die face, for cross-checking."""
    counts: dict[Outcome, int] = {}
    n = 0
    target_rolls: tuple[int | None, ...] = (None,) if target is None else ALL_FACES
    for x in ALL_FACES:
        for y in target_rolls:
            for rest in itertools.product(ALL_FACES, repeat=len(others)):
                n += 1
                result = offence + x
                defence = None if target is None or y is None else target + y
                defences = ([] if defence is None else [defence]) + [d + r for d, r in zip(others, rest, strict=True)]
                if not is_hit(result, defences, difficulty):
                    counts[MISS] = counts.get(MISS, 0) + 1
                    continue
                rd = relative_degree(result, defence, difficulty)
                torso = graze_cap(wound_for_damage(rd + base), rd)
                outcome = hit(torso, "torso")
                if head is not None and "head" in hit_locations(result, defence):
                    head_level = graze_cap(wound_for_damage(rd + head), rd)
                    if (head_level or 0) > (torso or 0):
                        outcome = hit(head_level, "head")
                counts[outcome] = counts.get(outcome, 0) + 1
    return {o: Fraction(c, n) for o, c in counts.items()}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("offence", "target", "others", "difficulty", "base", "head"),
    [
        (1, 0, (), -2, 2, 4),
        (3, -1, (), -2, 0, 1),
        (0, None, (), 0, 3, 5),
        (2, 1, (0,), -2, 4, None),
        (4, 0, (2,), 0, 1, 3),
    ],
)
def test_ftc_6_6_and_7_outcome_distribution_matches_enumeration(
    offence: int, target: int | None, others: tuple[int, ...], difficulty: int, base: int, head: int | None
) -> None:
    dist = outcome_distribution(offence, target, others, difficulty, base, damage_base_head=head)
    assert dict(dist) == brute_outcomes(offence, target, others, difficulty, base, head)
    assert sum(dist.values()) == 1


@settings(max_examples=60)
@given(
    st.integers(-4, 6),
    st.one_of(st.none(), st.integers(-4, 4)),
    st.lists(st.integers(-4, 4), max_size=2),
    st.integers(-3, 4),
    st.integers(-3, 8),
    st.one_of(st.none(), st.integers(-3, 10)),
    st.sampled_from(["best", "head", "torso"]),
    st.one_of(st.none(), st.integers(-2, 4)),
    st.booleans(),
)
def test_ftc_7_outcome_distribution_sums_to_one_and_agrees_with_hit_probability(
    offence: int,
    target: int | None,
    others: list[int],
    difficulty: int,
    base: int,
    head: int | None,
    aim: odds.Aim,
    health: int | None,
    graze_table: bool,
) -> None:
    dist = outcome_distribution(
        offence,
        target,
        others,
        difficulty,
        base,
        damage_base_head=head,
        aim=aim,
        health=health,
        fudge_graze_table=graze_table,
    )
    assert sum(dist.values()) == 1
    assert all(0 < p <= 1 for p in dist.values())
    defences = ([] if target is None else [target]) + others
    assert hit_chance(dist) == hit_probability(offence, defences, difficulty)
    if aim == "torso" or head is None:
        assert all(o.location != "head" for o in dist)


def test_ftc_7_3_graze_does_at_most_a_scratch() -> None:
    # Unopposed, difficulty Fair, offence Fair: relative degree = the roll. Huge damage factors.
    dist = outcome_distribution(0, None, (), 0, 20)
    assert dist[hit(WoundLevel.SCRATCH, "torso")] == Fraction(16, 81)  # rolled exactly +1
    assert dist[hit(WoundLevel.NEAR_DEATH, "torso")] == Fraction(19 + 10 + 4 + 1, 81)


def test_fudge_4_56_graze_cap_rises_with_the_scale_difference_as_in_the_resolution() -> None:
    # rolled exactly +1: a graze; two steps of Scale lift its cap from Scratch to Very Hurt (graze_cap)
    dist = outcome_distribution(0, None, (), 0, 20, scale_difference=2)
    assert dist[hit(WoundLevel.VERY_HURT, "torso")] == Fraction(16, 81)
    assert hit(WoundLevel.SCRATCH, "torso") not in dist
    assert graze_cap(wound_for_damage(21), 1, scale_difference=2) is WoundLevel.VERY_HURT


def test_ftc_7_4_health_roll_lowers_the_wound() -> None:
    without = outcome_distribution(2, None, (), 0, 4)
    legendary = outcome_distribution(2, None, (), 0, 4, health=20)  # always Superb or better
    for outcome, p in without.items():
        if outcome.level is not None:
            lowered = hit(apply_health_roll(outcome.level, 20), outcome.location)
            assert legendary[lowered] >= p
    assert expected_wound(legendary) < expected_wound(without)
    assert sum(legendary.values()) == 1


def test_ftc_6_6_aiming_at_the_head() -> None:
    # Superb+4 against an undodged shot: even a roll of -4 is Superb, so every hit may go to the head.
    head = outcome_distribution(7, None, (), -2, -6, damage_base_head=-4, aim="head")
    assert all(o.location == "head" for o in head if o.hit)
    best = outcome_distribution(7, None, (), -2, -6, damage_base_head=-4, aim="best")
    torso = outcome_distribution(7, None, (), -2, -6, damage_base_head=-4, aim="torso")
    assert all(o.location == "torso" for o in torso if o.hit)
    assert expected_wound(best) > expected_wound(torso)
    # Below Superb the attacker cannot choose (FTC 6.6).
    low = outcome_distribution(-2, None, (), -6, 0, damage_base_head=2, aim="head")
    assert all(o.location == "torso" for o in low if o.hit)
    no_head = outcome_distribution(7, None, (), -2, -6, damage_base_head=None, aim="head")
    assert no_head == torso
    with pytest.raises(ValueError, match="aim"):
        outcome_distribution(3, None, (), -2, 0, aim="legs")  # type: ignore[arg-type]


def test_ftc_7_3_expected_wound_and_level_chances() -> None:
    dist = {
        MISS: Fraction(1, 2),
        hit(WoundLevel.HURT, "torso"): Fraction(1, 4),
        hit(WoundLevel.INCAPACITATED, "head"): Fraction(1, 4),
    }
    assert expected_wound(dist) == Fraction(3, 2)
    assert chance_of_at_least(dist, WoundLevel.INCAPACITATED) == Fraction(1, 4)
    assert hit_chance(dist) == Fraction(1, 2)


def test_ftc_table_4_stances_compared() -> None:
    table = stance_comparison(1, 0, (), -2, 2, own_defence=1, incoming=[IncomingAttack(1, -2)])
    assert list(table) == list(Stance)
    chances = [table[s].hit_chance for s in Stance]
    assert chances == sorted(chances, reverse=True)
    risks = [table[s].incoming[0] for s in Stance]
    assert risks == sorted(risks, reverse=True)
    neutral = table[Stance.NEUTRAL]
    assert neutral.attack == outcome_distribution(1, 0, (), -2, 2)
    assert neutral.incoming[0] == hit_probability(1, [1], -2)
    assert table[Stance.VERY_AGGRESSIVE].offence == 3 and table[Stance.VERY_AGGRESSIVE].defence == -1


@pytest.mark.parametrize(
    ("friends", "enemies", "expected"),
    [
        (0, 0, (Fraction(0), Fraction(0))),
        (1, 1, (Fraction(5, 81), Fraction(5, 81))),
        (2, 0, (Fraction(15, 81), Fraction(0))),
        (0, 2, (Fraction(0), Fraction(15, 81))),
        (3, 4, (Fraction(31, 81), Fraction(31, 81))),
    ],
)
def test_ftc_table_9_miss_probabilities(friends: int, enemies: int, expected: tuple[Fraction, Fraction]) -> None:
    assert miss_probabilities(friends, enemies) == expected
    assert sum(expected) <= 1


def test_fudge_4_55_the_odds_double_the_relative_degree_on_a_doubled_degree_track() -> None:
    """Fudge 4.55: the relative degree is doubled "before adding it to the damage factor", read on 1-3, 4-6,
    7-9, 10-12, 13+: a sure blow of degree +4 and no damage factor is 8, Very Hurt (4, read on the same
    track without the doubling, would only be Hurt)."""
    doubled = named_track("doubled_degree")
    dist = odds.outcome_distribution(4, None, (), 0, 0, track=doubled, aim="torso", set_rolls=(0, None, None))
    assert dist == {hit(WoundLevel.VERY_HURT, "torso"): Fraction(1)}
