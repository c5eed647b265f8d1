"""Min-Mid-Max (*Fudge* 4.63): the rule option ``damage_roll = "min_mid_max"`` and its low-factor penalty
``min_mid_max_low_penalty`` (docs/rulings.md "Min-Mid-Max").

A hit by relative degree 2 or more rolls 3d6 (the attacker's ``damage_3d6``) instead of adding the damage
factor to the degree: the damage factor (offence − defence, the degree not added) and the relative degree each
give a bonus (``data/damage.toml [min_mid_max]``, the text's table, which a GM may change); their total says
which die to read — the lowest (Min), the median (Mid), the highest (Max), Max + Min, or all three added —
and the value read is looked up on the target's own wound track (FTC 7.3's, which is the text's). A total
below 0 does no wound and rolls nothing. A graze (degree 1) keeps the graze rules unchanged, and a stray shot
(no degree) FTC's reading.

``MinMidMax`` is the step of the blow's way (S5, ``game.engine.blow``), played in a battle and spread exactly
for the odds; ``best_location`` is where a blow aimed "best" falls under it (FTC 6.6 read for this system).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from types import MappingProxyType

from game.engine.blow_base import BlowRules, Dice, Facts, Harm, Spread, Strike
from game.engine.blow_step import BlowStep
from game.engine.damage import LOCATIONS, TORSO, is_limb, location_name
from game.engine.dice import THREE_D6_SORTED, d6_faces
from game.engine.wounds import WoundError, damage_data, wound_for_damage

RULE = "Fudge 4.63"
PURPOSE = "damage_3d6"
WAYS = 216

READS: Mapping[str, Callable[[int, int, int], int]] = MappingProxyType(
    {
        "min": lambda low, mid, high: low,
        "mid": lambda low, mid, high: mid,
        "max": lambda low, mid, high: high,
        "max+min": lambda low, mid, high: high + low,
        "all": lambda low, mid, high: low + mid + high,
    }
)
"""How each read takes its value from the three dice sorted low to high (the median is the middle value)."""

READ_NAMES: Mapping[str, str] = MappingProxyType(
    {"min": "Min", "mid": "Mid", "max": "Max", "max+min": "Max + Min", "all": "all three"}
)


@dataclass(frozen=True)
class Tables:
    """The bonus tables of ``data/damage.toml [min_mid_max]``: (from, bonus) rows for the damage factor and the
    relative degree, the bonus of a factor below every row, the low-factor penalty and the read per total."""

    factor_rows: tuple[tuple[int, int], ...]
    below_factor_bonus: int
    low_factor: int
    low_bonus: int
    degree_rows: tuple[tuple[int, int], ...]
    reads: tuple[str, ...]


def _rows(raw: object, name: str) -> tuple[tuple[int, int], ...]:
    fix = f"damage.toml [min_mid_max] {name}: write rows like {{ from = 3, bonus = 1 }}, from increasing"
    if not isinstance(raw, list) or not raw:
        raise WoundError(f"{fix}; it is {raw!r}")
    rows = []
    for row in raw:
        if (
            not isinstance(row, Mapping)
            or set(row) != {"from", "bonus"}
            or not all(isinstance(row[k], int) and not isinstance(row[k], bool) for k in ("from", "bonus"))
        ):
            raise WoundError(f"{fix}; {row!r} is not such a row")
        rows.append((int(row["from"]), int(row["bonus"])))
    if any(b[0] <= a[0] for a, b in itertools.pairwise(rows)):
        raise WoundError(f"{fix}; the rows' from values must increase")
    return tuple(rows)


@cache
def tables() -> Tables:
    """The bonus tables, read once and checked (``WoundError`` naming the key and the fix)."""
    raw = damage_data()["min_mid_max"]
    reads = raw.get("reads")
    if not isinstance(reads, list) or not reads or any(r not in READS for r in reads):
        raise WoundError(f"damage.toml [min_mid_max] reads: a list of {', '.join(READS)}; it is {reads!r}")
    numbers = {}
    for key in ("below_factor_bonus", "low_factor", "low_bonus"):
        value = raw.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise WoundError(f"damage.toml [min_mid_max] {key}: write a whole number; it is {value!r}")
        numbers[key] = value
    return Tables(
        _rows(raw.get("factor_bonus"), "factor_bonus"),
        numbers["below_factor_bonus"],
        numbers["low_factor"],
        numbers["low_bonus"],
        _rows(raw.get("degree_bonus"), "degree_bonus"),
        tuple(str(r) for r in reads),
    )


def _row_bonus(rows: Sequence[tuple[int, int]], value: int, below: int) -> int:
    found = below
    for start, bonus in rows:
        if value >= start:
            found = bonus
    return found


def factor_bonus(factor: int, *, low_penalty: bool = False) -> int:
    """The die-reading bonus of a damage factor (*Fudge* 4.63's table: below 0 −1, 0–2 0, 3–5 +1, 6+ +2; with
    ``low_penalty`` −5 or worse −2)."""
    t = tables()
    if low_penalty and factor <= t.low_factor:
        return t.low_bonus
    return _row_bonus(t.factor_rows, factor, t.below_factor_bonus)


def degree_bonus(degree: int) -> int:
    """The die-reading bonus of a relative degree of 2 or more (*Fudge* 4.63's table: 2–3 0, 4–5 +1, 6+ +2)."""
    t = tables()
    return _row_bonus(t.degree_rows, degree, t.degree_rows[0][1])


def total_bonus(factor: int, degree: int, *, low_penalty: bool = False) -> int:
    """The total bonus of a hit: the factor's plus the degree's (*Fudge* 4.63: +3 and +5 give +1 and +1, +2)."""
    return factor_bonus(factor, low_penalty=low_penalty) + degree_bonus(degree)


def read_for(bonus: int) -> str:
    """The read of a total bonus of 0 or more: Min, Mid, Max, Max + Min, all three (a higher total: the last)."""
    reads = tables().reads
    return reads[min(bonus, len(reads) - 1)]


def value(faces: Sequence[int], read: str) -> int:
    """The value a 3d6 roll gives under a read ("min", "mid", "max", "max+min", "all"): 2, 4, 4 reads Min 2,
    Mid 4, Max 4 (the median is the middle value, not the middle die)."""
    low, mid, high = sorted(faces)
    return READS[read](low, mid, high)


@lru_cache(maxsize=16)
def value_counts(read: str) -> tuple[tuple[int, int], ...]:
    """Each value of a read with its ways out of 216."""
    out: dict[int, int] = {}
    for sorted_faces, ways in THREE_D6_SORTED.items():
        v = value(sorted_faces, read)
        out[v] = out.get(v, 0) + ways
    return tuple(sorted(out.items()))


def factor_of(strike: Strike, harm: Harm) -> int:
    """The hit's damage factor: its calculated damage less the relative degree (as the target's track counts
    it, *Fudge* 4.55)."""
    return harm.number - strike.relative_degree * strike.track.degree_multiplier


def _reads(rules: BlowRules, strike: Strike) -> bool:
    return rules.damage_roll == "min_mid_max" and strike.relative_degree >= 2


@dataclass(frozen=True)
class MinMidMax:
    """S5, *Fudge* 4.63: a hit by degree 2 or more reads its wound from 3d6 by its total bonus (module doc); a
    total below 0 is no wound, with no roll. ``AttackResolved.damage`` holds the value read."""

    label: str = "S5"

    def on(self, rules: BlowRules) -> bool:
        """When ``damage_roll`` is Min-Mid-Max."""
        return rules.damage_roll == "min_mid_max"

    def ways(self, facts: Facts) -> int:
        """3d6: 216."""
        return WAYS

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The bonus worked out, the dice rolled and read, and the line that says how."""
        assert isinstance(facts, Strike)
        if not _reads(facts.rules, facts):
            return harm, ()
        factor = factor_of(facts, harm)
        low = facts.rules.min_mid_max_low_penalty
        f_bonus, d_bonus = factor_bonus(factor, low_penalty=low), degree_bonus(facts.relative_degree)
        said = f"Min-Mid-Max, factor {factor:+d} ({f_bonus:+d}) and degree {facts.relative_degree:+d} ({d_bonus:+d})"
        if f_bonus + d_bonus < 0:
            line = BlowStep(RULE, f"{said}: no wound, no roll", (), str(harm.number), "0")
            return replace(harm, number=0, level=None), (line,)
        read = read_for(f_bonus + d_bonus)
        faces = dice(PURPOSE, facts.attacker)
        v = value(faces, read)
        line = BlowStep(RULE, f"{said}: read {READ_NAMES[read]}", faces, str(harm.number), str(v))
        return replace(harm, number=v, level=wound_for_damage(v, facts.track)), (line,)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The read's values out of 216 (or the GM's dice) pushed through the target's track."""
        assert isinstance(facts, Strike)
        if not _reads(facts.rules, facts):
            return ((harm, WAYS),)
        low = facts.rules.min_mid_max_low_penalty
        bonus = total_bonus(factor_of(facts, harm), facts.relative_degree, low_penalty=low)
        if bonus < 0:
            return ((replace(harm, number=0, level=None), WAYS),)
        read = read_for(bonus)
        fixed = facts.set_total(PURPOSE)
        if fixed is not None:
            v = value(d6_faces(fixed), read)
            return ((replace(harm, number=v, level=wound_for_damage(v, facts.track)), WAYS),)
        track = facts.track
        return tuple((replace(harm, number=v, level=wound_for_damage(v, track)), w) for v, w in value_counts(read))


def best_location(allowed: Sequence[str], factors: Mapping[str, int], degree: int, *, low_penalty: bool) -> str:
    """Where a hit aimed "best" falls under Min-Mid-Max (FTC 6.6 read for *Fudge* 4.63): among the allowed
    locations the target has, the one with the highest total bonus; at equal bonus a torso or head before a limb
    (capped at Hurt, FTC 6.6), then the higher damage factor; ties keep the order torso, head, arm, leg, hand,
    foot. ``factors``: the damage factor at each location the target has."""
    names = {location_name(a) for a in allowed}

    def rank(where: str) -> tuple[int, int, int]:
        factor = factors[where]
        return (total_bonus(factor, degree, low_penalty=low_penalty), int(not is_limb(where)), factor)

    best = TORSO
    for where in LOCATIONS:
        if where in names and where in factors and (best not in factors or rank(where) > rank(best)):
            best = where
    return best


__all__ = [
    "PURPOSE",
    "READS",
    "MinMidMax",
    "Tables",
    "best_location",
    "degree_bonus",
    "factor_bonus",
    "factor_of",
    "read_for",
    "tables",
    "total_bonus",
    "value",
    "value_counts",
]
