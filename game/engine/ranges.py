"""Range bands of ranged weapons and the firing-angle modifier (FTC 6.4.1, 6.5, 6.5.1, 6.5.2, tables 5-8,
9.3.1, 9.3.2; docs/rulings.md "Ranged fire").

Every number comes from ``data/ranges.toml``; this module holds the formulas:
- a shot at ``d`` hexes has the smallest difficulty whose greatest distance is at least ``d`` ("always
  rounding up", FTC 6.5); beyond the Legendary distance but within Max Range it is Legendary+1; beyond Max
  Range there is no shot;
- a difficulty's greatest distance is its table 5 multiple of the Base Range, the Base Range first multiplied
  (positive) or divided (negative) by 1.3 per step of target Scale; rounded to the nearest metre (a half to
  the even metre), at least 1 m, at most the Max Range. All of it in exact fractions;
- the longbow and shortbow use their published tables (FTC 9.3.1, 9.3.2) exactly, cell for cell, for the
  Scales printed there; the tests list where the formula and the printed tables differ;
- the defender's bonus for dodging is table 8, by the shot's difficulty.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol

from game.engine.codec import is_whole
from game.engine.datafiles import data_path, read_table
from game.engine.ladder import LEGENDARY, level_name

DATA_FILE = data_path("ranges.toml")


class RangeDataError(ValueError):
    """A weapon's ranges, a distance or the ranges data file make no sense; the message says how to fix it."""


class RangedWeapon(Protocol):
    """What the range rules need to know of a weapon (FTC 6.5: Base Range and Max Range, in metres)."""

    @property
    def name(self) -> str: ...

    @property
    def base_range(self) -> int: ...

    @property
    def max_range(self) -> int: ...


@dataclass(frozen=True)
class RangeBand:
    """One band of a weapon's range (FTC 6.5, table 5): the shot's difficulty, the bonus of a target that
    dodges (table 8) and the greatest distance in hexes of the band."""

    difficulty: int
    defense_bonus: int
    max_distance: int


# --- data ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Published:
    name: str
    base_range: int
    max_range: int
    scales: dict[int, tuple[int, ...]]


@dataclass(frozen=True)
class _Data:
    scale_factor: Fraction
    table_5: tuple[tuple[Fraction, int, int], ...]  # (multiple, difficulty, defender's bonus)
    table_8: tuple[tuple[int, int], ...]  # (difficulty at least, bonus), ascending
    angles: tuple[tuple[str, Fraction, int], ...]  # (direction, more than degrees, modifier)
    partial_cover: int
    published: tuple[_Published, ...]


def _fraction(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise RangeDataError(f"{DATA_FILE.name}: {where} must be a number, not {value!r}")
    return Fraction(value)


def _whole(value: Any, where: str) -> int:
    # a level, a bonus or a distance in metres: a decimal is refused, never cut to its whole part
    if not is_whole(value):
        shown = float(value) if isinstance(value, Fraction) else repr(value)
        raise RangeDataError(f"{DATA_FILE.name}: {where} must be a whole number, not {shown}")
    return value


@lru_cache(maxsize=1)
def _data() -> _Data:
    try:
        raw = read_table("ranges.toml", exact=True)  # exact decimals: 1.3 is 13/10, 0.1 is 1/10
        table_5 = tuple(
            sorted(
                (
                    _fraction(row["multiple"], "table_5.multiple"),
                    _whole(row["difficulty"], "table_5.difficulty"),
                    _whole(row["defender_bonus"], "table_5.defender_bonus"),
                )
                for row in raw["table_5"]
            )
        )
        table_8 = tuple(
            sorted(
                (
                    _whole(row["difficulty_at_least"], "table_8.difficulty_at_least"),
                    _whole(row["bonus"], "table_8.bonus"),
                )
                for row in raw["table_8"]
            )
        )
        angles = tuple(
            (
                str(row["direction"]),
                _fraction(row["more_than_degrees"], "table_7_angle.more_than_degrees"),
                _whole(row["modifier"], "table_7_angle.modifier"),
            )
            for row in raw["table_7_angle"]
        )
        published = tuple(
            _Published(
                str(t["name"]),
                _whole(t["base_range"], "published.base_range"),
                _whole(t["max_range"], "published.max_range"),
                {int(k): tuple(_whole(x, "published.scales") for x in v) for k, v in t["scales"].items()},
            )
            for t in raw["published"].values()
        )
        data = _Data(
            _fraction(raw["scale_factor"], "scale_factor"),
            table_5,
            table_8,
            angles,
            _whole(raw["line_of_fire"]["partial_cover_modifier"], "line_of_fire.partial_cover_modifier"),
            published,
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RangeDataError):
            raise
        raise RangeDataError(
            f"{DATA_FILE}: the ranged-fire tables cannot be read ({exc!r}); "
            "restore the file from the game's distribution"
        ) from exc
    for direction, degrees, _ in data.angles:
        if direction not in ("up", "down") or not 0 < degrees < 90:
            raise RangeDataError(
                f"{DATA_FILE.name}: a table_7_angle row needs direction 'up' or 'down' and "
                f"an angle strictly between 0 and 90 degrees, not {direction!r} {degrees}"
            )
    return data


def partial_cover_modifier() -> int:
    """The shot's modifier when the target has partial cover (docs/rulings.md "Line of fire": -1)."""
    return _data().partial_cover


# --- table 8 -------------------------------------------------------------------------------------


def defense_bonus(difficulty: int) -> int:
    """Bonus to a target's dodge against a shot of this difficulty (FTC 6.5.2, table 8): Fair or less +0,
    Good +1, Great +2, Superb and above +3. docs/rulings.md "Range band": only a dodging target gets it."""
    bonus = 0
    for at_least, value in _data().table_8:
        if difficulty >= at_least:
            bonus = value
    return bonus


# --- distances -----------------------------------------------------------------------------------


def _round_nearest(x: Fraction) -> int:
    # A half goes to the even metre: this is how FTC 9.3 prints 6.5 m (longbow, Scale 1, Mediocre) as 6
    # and 84.5 m (Scale 2, Great) as 84; rounding halves up would print 7 and 85.
    return round(x)


def _check_weapon(weapon: RangedWeapon) -> None:
    if weapon.base_range < 1:
        raise RangeDataError(
            f"{weapon.name} has a Base Range of {weapon.base_range} m; a ranged weapon "
            "needs a Base Range of at least 1 m (FTC 6.5) - fix the weapon's data"
        )
    if weapon.max_range < weapon.base_range:
        raise RangeDataError(
            f"{weapon.name} has a Max Range of {weapon.max_range} m, less than its Base "
            f"Range of {weapon.base_range} m (FTC 6.5) - fix the weapon's data"
        )


def scaled_base_range(base_range: int, target_scale: int) -> Fraction:
    """The Base Range against a target of this Scale: times 1.3 per positive step, divided by 1.3 per
    negative step (FTC 6.4.1, 6.5), as an exact fraction."""
    return Fraction(base_range) * _data().scale_factor ** target_scale


def computed_distances(base_range: int, max_range: int, target_scale: int = 0) -> tuple[int, ...]:
    """Table 5 worked out for a weapon: the greatest distance of each difficulty Terrible .. Legendary,
    rounded to the nearest metre (a half to the even metre), at least 1, at most Max Range (FTC 6.5).

    The last row of table 5 (Legendary+1) is left out: docs/rulings.md "Range band" makes it reach Max Range.
    """
    base = scaled_base_range(base_range, target_scale)
    rows = [row for row in _data().table_5 if row[1] <= LEGENDARY]
    return tuple(min(max_range, max(1, _round_nearest(multiple * base))) for multiple, _, _ in rows)


def _published_for(weapon: RangedWeapon, target_scale: int) -> tuple[int, ...] | None:
    for table in _data().published:
        if (
            table.name.casefold() == weapon.name.strip().casefold()
            and table.base_range == weapon.base_range
            and table.max_range == weapon.max_range
            and target_scale in table.scales
        ):
            return table.scales[target_scale]
    return None


def published_distances(weapon: RangedWeapon, target_scale: int) -> tuple[int, ...] | None:
    """The printed FTC 9.3 row (greatest distance of each difficulty Terrible .. Legendary) for a target
    of this Scale, or None when the weapon has no published table or the Scale is not printed."""
    return _published_for(weapon, target_scale)


@lru_cache(maxsize=4096)
def _bands(name: str, base_range: int, max_range: int, target_scale: int) -> tuple[RangeBand, ...]:
    weapon = _Stats(name, base_range, max_range)
    distances = _published_for(weapon, target_scale)
    if distances is None:
        distances = computed_distances(base_range, max_range, target_scale)
    difficulties = [row[1] for row in _data().table_5 if row[1] <= LEGENDARY]
    bands: list[RangeBand] = []
    reached = 0
    for difficulty, far in zip(difficulties, distances, strict=True):
        if far > reached or not bands:
            bands.append(RangeBand(difficulty, defense_bonus(difficulty), far))
            reached = max(reached, far)
    if reached < max_range:
        beyond = difficulties[-1] + 1
        bands.append(RangeBand(beyond, defense_bonus(beyond), max_range))
    return tuple(bands)


@dataclass(frozen=True)
class _Stats:
    name: str
    base_range: int
    max_range: int


def range_bands(weapon: RangedWeapon, target_scale: int = 0) -> tuple[RangeBand, ...]:
    """The bands a weapon's shots fall into, nearest first, up to Max Range (FTC 6.5, tables 5, 8, 9.3).

    A difficulty whose greatest distance is no farther than the one before is never used ("always rounding
    up": the easier difficulty wins) and is left out.
    """
    _check_weapon(weapon)
    return _bands(weapon.name, weapon.base_range, weapon.max_range, target_scale)


def range_band(weapon: RangedWeapon, distance: int, target_scale: int = 0) -> RangeBand | None:
    """The band of a shot at ``distance`` hexes (FTC 6.5, "always rounding up"; docs/rulings.md "Range band"):
    the smallest difficulty whose distance is at least ``distance``; Legendary+1 beyond the Legendary
    distance within Max Range; None beyond Max Range (no shot)."""
    if distance < 0:
        raise RangeDataError(f"a distance of {distance} hexes makes no sense; distances are 0 or more")
    for band in range_bands(weapon, target_scale):
        if distance <= band.max_distance:
            return band
    return None


def band_table(weapon: RangedWeapon, target_scale: int = 0) -> tuple[tuple[int, int], ...]:
    """(difficulty, greatest distance) of each band, nearest first: the range bands the UI colours
    (FTC 6.5, table 6 "precompute a table for a given weapon")."""
    return tuple((b.difficulty, b.max_distance) for b in range_bands(weapon, target_scale))


def describe_band(band: RangeBand) -> str:
    """A band as the rules print it, e.g. "Great (dodge +2, up to 50 m)" (FTC 6.5, table 8)."""
    return f"{level_name(band.difficulty)} (dodge {band.defense_bonus:+d}, up to {band.max_distance} m)"


# --- table 7: firing up and down -------------------------------------------------------------------


def _atan_bounds(inv: int, terms: int) -> tuple[Fraction, Fraction]:
    """atan(1/inv) between two fractions: the alternating series, stopped after ``terms`` terms."""
    x = Fraction(1, inv)
    total = Fraction(0)
    power = x
    for k in range(terms):
        total += (-1) ** k * power / (2 * k + 1)
        power *= x * x
    nxt = power / (2 * terms + 1)
    return total - nxt, total + nxt


def _sin_cos_bounds(x: Fraction, terms: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(sin lo, sin hi, cos lo, cos hi) at 0 <= x <= 2, from Taylor sums with Lagrange's remainder bound."""
    sin = Fraction(0)
    cos = Fraction(0)
    term = Fraction(1)  # x^n / n!
    for n in range(2 * terms):
        sign = (-1) ** (n // 2)
        if n % 2:
            sin += sign * term
        else:
            cos += sign * term
        term = term * x / (n + 1)
    return sin - term, sin + term, cos - term, cos + term


@lru_cache(maxsize=256)
def _tan_bounds(degrees: Fraction, terms: int) -> tuple[Fraction, Fraction]:
    """Fractions below and above tan(degrees) for 0 < degrees < 90; tighter for more ``terms``."""
    a_lo, a_hi = _atan_bounds(5, terms)
    b_lo, b_hi = _atan_bounds(239, terms)
    pi_lo = 16 * a_lo - 4 * b_hi  # Machin's formula
    pi_hi = 16 * a_hi - 4 * b_lo
    t_lo = degrees * pi_lo / 180
    t_hi = degrees * pi_hi / 180
    # On (0, 90) degrees sin rises and cos falls, so tan over the interval lies between these.
    s_lo, _, _, c_hi = _sin_cos_bounds(t_lo, terms)
    _, s_hi, c_lo, _ = _sin_cos_bounds(t_hi, terms)
    lower = max(Fraction(0), s_lo) / c_hi
    upper = s_hi / c_lo if c_lo > 0 else Fraction(10) ** 30
    return lower, upper


@lru_cache(maxsize=4096)
def steeper_than(rise: int, run: int, degrees: Fraction) -> bool:
    """Whether a line rising ``rise`` over ``run`` is more than ``degrees`` above the horizontal (0 < degrees
    < 90), decided exactly (table 7's "more than 20 degrees").

    tan(degrees) is irrational for every rational angle but 45 (Niven), so it never equals rise / run
    there and refining rational bounds on it always decides; at 45 the comparison is rise > run.
    """
    if rise <= 0:
        return False
    if run == 0:
        return True
    if degrees == 45:
        return rise > run
    terms = 8
    while True:
        lower, upper = _tan_bounds(degrees, terms)
        if rise >= run * upper:
            return True
        if rise <= run * lower:
            return False
        terms *= 2


def firing_angle_modifier(firer_elevation_m: int, target_elevation_m: int, distance_hexes: int) -> int:
    """Table 7's modifier for firing up or down (FTC 6.5.1): down more than 20 degrees +1, up more than 10
    degrees -1, up more than 60 degrees -2; one hex is one metre horizontally (FTC 5).

    Heights are the ground elevations of the two hexes; exact comparisons, no rounding at the thresholds.
    """
    if distance_hexes < 0:
        raise RangeDataError(f"a distance of {distance_hexes} hexes makes no sense; distances are 0 or more")
    rise = target_elevation_m - firer_elevation_m
    direction = "up" if rise > 0 else "down"
    best: tuple[Fraction, int] | None = None
    for row_direction, degrees, modifier in _data().angles:
        if (
            row_direction == direction
            and steeper_than(abs(rise), distance_hexes, degrees)
            and (best is None or degrees > best[0])
        ):
            best = (degrees, modifier)
    return 0 if best is None else best[1]
