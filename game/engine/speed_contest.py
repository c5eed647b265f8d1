"""The Speed contest (*Fudge* 4.36; docs/rulings.md "Speed contest"): "who lands a blow first".

Under the rule option ``speed_contest``, two figures who attack each other in melee this round (each declared a
weapon blow on the other) make an opposed action after all declarations: each rolls Speed + 4dF once for the
round (Speed as initiative reads it, spells included, FTC 4), and per pair the higher result's figure adds the
difference to his skill *in that exchange* — his offence against that opponent and his defence against that
opponent's blow. A tie gives nobody anything; the loser loses nothing. Missiles, spells and one-sided attacks make
no contest (our reading: a touch spell's casting is no blow landing first). A stunned figure makes no attack, so
it never takes part.

This module gives the pairs, the bonus and the exact spread of the Speed difference for the odds preview; the
battle's resolution rolls the dice (``game.engine.battle.resolution``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from game.engine.combat import Modifier
from game.engine.dice import FOUR_DF_COUNTS

Pair = tuple[str, str]
"""Two figures attacking each other in melee, in the order the round met them."""


def pairs(melee: Iterable[tuple[str, str]]) -> tuple[Pair, ...]:
    """The pairs of figures who attack each other in melee (``melee``: (attacker, target) of each melee blow),
    each once, in the order of the first blow of the pair."""
    blows = list(melee)
    seen: set[frozenset[str]] = set()
    out: list[Pair] = []
    for a, t in blows:
        key = frozenset((a, t))
        if a != t and (t, a) in blows and key not in seen:
            seen.add(key)
            out.append((a, t))
    return tuple(out)


def bonus(results: Mapping[str, int], me: str, foe: str) -> int:
    """What ``me`` adds to his skill against ``foe`` after the contest: the difference of the Speed results when
    his is higher, else nothing."""
    return max(0, results[me] - results[foe])


def modifier(value: int) -> tuple[Modifier, ...]:
    """The named modifier of a Speed contest won by ``value`` (none for 0)."""
    return (Modifier("Speed contest (Fudge 4.36)", value),) if value > 0 else ()


def difference(
    speed_a: int, speed_b: int, fixed_a: int | None = None, fixed_b: int | None = None
) -> Mapping[int, Fraction]:
    """The exact distribution of (Speed A + 4dF) − (Speed B + 4dF): 17 values out of 6561 (a roll the GM set by
    hand is its total)."""
    rolls_a = FOUR_DF_COUNTS.items() if fixed_a is None else ((fixed_a, 81),)
    rolls_b = FOUR_DF_COUNTS.items() if fixed_b is None else ((fixed_b, 81),)
    ways: dict[int, int] = {}
    for x, wx in rolls_a:
        for y, wy in rolls_b:
            d = speed_a + x - speed_b - y
            ways[d] = ways.get(d, 0) + wx * wy
    return {d: Fraction(w, 81 * 81) for d, w in sorted(ways.items())}


__all__ = ["Pair", "bonus", "difference", "modifier", "pairs"]
