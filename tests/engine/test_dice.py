"""Fudge dice: 4dF and its exact distribution (docs/rulings.md "Numbers", FTC 6.3, 6.5.3)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from game.engine.dice import (
    FOUR_DF,
    FOUR_DF_COUNTS,
    FOUR_DF_DIFFERENCE,
    DiceRoll,
    choose,
    prob_at_least,
    prob_at_most,
    roll_4df,
    roll_d6,
)


def test_rulings_4df_distribution_is_1_4_10_16_19_16_10_4_1_of_81() -> None:
    assert [FOUR_DF_COUNTS[t] for t in range(-4, 5)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    assert sum(FOUR_DF.values()) == 1
    assert FOUR_DF[0] == Fraction(19, 81)


def test_4df_distribution_matches_enumerating_all_faces() -> None:
    counts = Counter(sum(f) for f in product((-1, 0, 1), repeat=4))
    assert dict(counts) == dict(FOUR_DF_COUNTS)


def test_opposed_difference_distribution_is_exact() -> None:
    brute: Counter[int] = Counter()
    for a in product((-1, 0, 1), repeat=4):
        for b in product((-1, 0, 1), repeat=4):
            brute[sum(a) - sum(b)] += 1
    assert {d: Fraction(c, 6561) for d, c in brute.items()} == dict(FOUR_DF_DIFFERENCE)


def test_rolls_come_only_from_the_passed_generator() -> None:
    a = [roll_4df(random.Random(7)) for _ in range(3)]
    b = [roll_4df(random.Random(7)) for _ in range(3)]
    assert a == b
    r = roll_4df(random.Random(1))
    assert len(r.faces) == 4 and set(r.faces) <= {-1, 0, 1} and r.total == sum(r.faces)


def test_dice_roll_prints_its_faces() -> None:
    assert str(DiceRoll((1, 0, -1, 1))) == "[+ 0 - +] = +1"


@given(st.integers(min_value=-6, max_value=6))
def test_at_least_and_at_most_are_complements(k: int) -> None:
    assert prob_at_least(k) + prob_at_most(k - 1) == 1


def test_d6_and_choose_stay_in_range() -> None:
    rng = random.Random(3)
    assert {roll_d6(rng) for _ in range(200)} == {1, 2, 3, 4, 5, 6}
    assert choose(rng, ["only"]) == "only"
