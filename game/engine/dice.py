"""Fudge dice: 4dF rolls, situational rolls and their exact distributions (FTC 4, 6.3, 6.5.3).

Every draw goes through a generator passed in by the caller (docs/architecture.md "Randomness is injected"); the battle
owns one
``random.Random`` seeded from the battle's seed, so a battle's log reproduces every roll.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

T = TypeVar("T")

FACES: tuple[int, ...] = (-1, 0, 1)


def _convolve(a: Mapping[int, int], b: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out


def fudge_counts(dice: int) -> Mapping[int, int]:
    """Ways of rolling each sum of ``dice`` Fudge dice, out of 3**dice."""
    one = {f: 1 for f in FACES}
    total: dict[int, int] = {0: 1}
    for _ in range(dice):
        total = _convolve(total, one)
    return MappingProxyType(dict(sorted(total.items())))


FOUR_DF_COUNTS: Mapping[int, int] = fudge_counts(4)
"""Ways of rolling each sum of 4dF out of 81: -4..+4 -> 1, 4, 10, 16, 19, 16, 10, 4, 1."""

ONE_DF_COUNTS: Mapping[int, int] = fudge_counts(1)
"""One Fudge die (*Fudge* 4.61's one-die damage roll): -1, 0, +1 -> 1, 1, 1 out of 3."""

TWO_DF_COUNTS: Mapping[int, int] = fudge_counts(2)
"""Two Fudge dice (*Fudge* 4.34's group roll for NPCs): -2..+2 -> 1, 2, 3, 2, 1 out of 9."""

D6_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


def _three_d6_sorted() -> dict[tuple[int, int, int], int]:
    out: dict[tuple[int, int, int], int] = {}
    for a in D6_FACES:
        for b in D6_FACES:
            for c in D6_FACES:
                low, mid, high = sorted((a, b, c))
                out[(low, mid, high)] = out.get((low, mid, high), 0) + 1
    return dict(sorted(out.items()))


THREE_D6_SORTED: Mapping[tuple[int, int, int], int] = MappingProxyType(_three_d6_sorted())
"""Ways out of 216 of each 3d6 roll read low to high (lowest, median, highest: *Fudge* 4.63's Min, Mid and Max
read from it); the median is the middle value, so (2, 4, 4) reads Mid 4."""


def d6_key(faces: Sequence[int]) -> int:
    """Six-sided dice the GM set by hand as one number the odds can carry (*Fudge* 4.63 reads each die, not the
    sum): the faces low to high as digits, (6, 1, 4) -> 146. ``d6_faces`` reads it back."""
    return int("".join(str(f) for f in sorted(faces)))


def d6_faces(key: int) -> tuple[int, ...]:
    """The faces (low to high) of a ``d6_key``: 146 -> (1, 4, 6)."""
    return tuple(int(c) for c in str(key))


FOUR_DF: Mapping[int, Fraction] = MappingProxyType(
    {total: Fraction(count, 81) for total, count in FOUR_DF_COUNTS.items()}
)
"""The exact probability of each sum of 4dF (docs/rulings.md "Numbers")."""

FOUR_DF_DIFFERENCE: Mapping[int, Fraction] = MappingProxyType(
    {
        d: Fraction(c, 81 * 81)
        for d, c in sorted(_convolve(FOUR_DF_COUNTS, {-k: v for k, v in FOUR_DF_COUNTS.items()}).items())
    }
)
"""The exact distribution of one 4dF sum minus another, independent one (an opposed action)."""


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """Fudge dice as rolled (four, unless a rule option rolls fewer): the faces (each -1, 0 or +1) and their
    sum."""

    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        """The sum of the faces (-4..+4 for four dice)."""
        return sum(self.faces)

    def __str__(self) -> str:
        symbols = {-1: "-", 0: "0", 1: "+"}
        return "[" + " ".join(symbols[f] for f in self.faces) + f"] = {self.total:+d}"


def roll_4df(rng: random.Random) -> DiceRoll:
    """Roll four Fudge dice with the caller's generator (FTC 6.3: each combatant rolls 4dF once)."""
    return DiceRoll(tuple(rng.choice(FACES) for _ in range(4)))


def roll_fudge(rng: random.Random, dice: int) -> DiceRoll:
    """Roll ``dice`` Fudge dice (one for *Fudge* 4.61's one-die damage roll, two for 4.34's group roll);
    four draw exactly what ``roll_4df`` draws."""
    return DiceRoll(tuple(rng.choice(FACES) for _ in range(dice)))


def roll_3d6(rng: random.Random) -> tuple[int, int, int]:
    """Three six-sided dice as rolled (*Fudge* 4.63, Min-Mid-Max)."""
    return (roll_d6(rng), roll_d6(rng), roll_d6(rng))


def situational_roll(rng: random.Random) -> DiceRoll:
    """A Fudge situational roll (FTC 6.5.3 misses): 4dF read on its own, 0 being the average."""
    return roll_4df(rng)


def roll_d6(rng: random.Random) -> int:
    """One six-sided die, 1..6 (FTC 6.5.3: the direction a lobbed weapon scatters)."""
    return rng.randint(1, 6)


def coin_flip(rng: random.Random) -> bool:
    """A fair coin (FTC 4: the last initiative tie-break)."""
    return rng.random() < 0.5


def choose(rng: random.Random, items: Sequence[T]) -> T:
    """Pick one item uniformly (FTC 6.5.3: which bystander a miss hits)."""
    if not items:
        raise ValueError("cannot choose from an empty sequence")
    return items[rng.randrange(len(items))]


def prob_at_least(target: int) -> Fraction:
    """P(4dF >= target): the chance of a roll reaching a given number."""
    return sum((p for t, p in FOUR_DF.items() if t >= target), Fraction(0))


def prob_at_most(target: int) -> Fraction:
    """P(4dF <= target)."""
    return sum((p for t, p in FOUR_DF.items() if t <= target), Fraction(0))


def trait_roll_distribution(level: int) -> dict[int, Fraction]:
    """The exact distribution of the result of a trait at ``level`` plus 4dF."""
    return {level + t: p for t, p in FOUR_DF.items()}
