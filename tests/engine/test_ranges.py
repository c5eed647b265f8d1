"""Range bands and firing up/down (FTC 6.4.1, 6.5, 6.5.1 table 7, 6.5.2, tables 5, 6, 8, 9.3.1, 9.3.2)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.ladder import FAIR, GOOD, GREAT, LEGENDARY, MEDIOCRE, POOR, SUPERB, TERRIBLE
from game.engine.ranges import (
    RangeBand,
    RangeDataError,
    band_table,
    computed_distances,
    defense_bonus,
    describe_band,
    firing_angle_modifier,
    partial_cover_modifier,
    range_band,
    range_bands,
    steeper_than,
)


@dataclass(frozen=True)
class Bow:
    name: str
    base_range: int
    max_range: int


LONGBOW = Bow("Longbow", 10, 240)
SHORTBOW = Bow("Shortbow", 5, 120)
LADDER = (TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB, LEGENDARY)
SCALES = (-3, -2, -1, 0, 1, 2, 3)

# The tables as printed: one row per difficulty, one column per Scale -3 .. +3.
TABLE_9_3_1 = {
    TERRIBLE: (1, 1, 1, 1, 1, 2, 2),
    POOR: (1, 1, 2, 2, 3, 3, 4),
    MEDIOCRE: (2, 3, 4, 5, 6, 8, 11),
    FAIR: (5, 6, 8, 10, 13, 17, 22),
    GOOD: (9, 12, 16, 20, 26, 34, 44),
    GREAT: (23, 30, 38, 50, 65, 84, 110),
    SUPERB: (46, 59, 77, 100, 130, 170, 220),
    LEGENDARY: (91, 120, 150, 200, 240, 240, 240),
}
TABLE_9_3_2 = {
    TERRIBLE: (1, 1, 1, 1, 1, 2, 2),
    POOR: (1, 1, 1, 1, 1, 2, 2),
    MEDIOCRE: (1, 1, 2, 3, 4, 5, 7),
    FAIR: (2, 3, 4, 5, 6, 8, 11),
    GOOD: (5, 6, 8, 10, 13, 17, 22),
    GREAT: (11, 15, 19, 25, 32, 42, 55),
    SUPERB: (23, 30, 38, 50, 65, 84, 110),
    LEGENDARY: (46, 59, 77, 100, 120, 120, 120),
}
# Table 6 (Longbow, Scales -2 .. +2).
TABLE_6 = {
    TERRIBLE: (1, 1, 1, 1, 2),
    POOR: (1, 2, 2, 3, 3),
    MEDIOCRE: (3, 4, 5, 6, 8),
    FAIR: (6, 8, 10, 13, 17),
    GOOD: (12, 16, 20, 26, 34),
    GREAT: (30, 38, 50, 65, 84),
    SUPERB: (59, 77, 100, 130, 170),
    LEGENDARY: (240, 240, 240, 240, 240),
}


def _column(table: dict[int, tuple[int, ...]], scale: int, scales: tuple[int, ...] = SCALES) -> list[int]:
    return [table[level][scales.index(scale)] for level in LADDER]


def _expected_band(column: list[int], max_range: int, d: int) -> tuple[int, int] | None:
    """The rule read literally: smallest difficulty whose distance >= d, else Legendary+1 within Max."""
    for level, far in zip(LADDER, column, strict=True):
        if d <= far:
            return level, far
    return (LEGENDARY + 1, max_range) if d <= max_range else None


# --- table 5 and table 8 ---------------------------------------------------------------------------


def test_ftc_table_5_every_cell() -> None:
    """Table 5 for a weapon of Base Range 100 m (Max 10 km, so no cap): multiples 0.1 .. 50, the difficulty
    of each row and its defender's bonus."""
    weapon = Bow("Test sling", 100, 10_000)
    printed = [
        (10, TERRIBLE, 0),
        (20, POOR, 0),
        (50, MEDIOCRE, 0),
        (100, FAIR, 0),
        (200, GOOD, 1),
        (500, GREAT, 2),
        (1000, SUPERB, 3),
        (2000, LEGENDARY, 3),
    ]
    assert computed_distances(100, 10_000) == tuple(far for far, _, _ in printed)
    bands = range_bands(weapon)
    assert [(b.max_distance, b.difficulty, b.defense_bonus) for b in bands[:-1]] == printed
    # docs/rulings.md "Range band": past Legendary, up to Max Range, Legendary+1 (table 5's last row, bonus +3).
    assert bands[-1] == RangeBand(LEGENDARY + 1, 3, 10_000)
    assert range_band(weapon, 5000) == RangeBand(LEGENDARY + 1, 3, 10_000)


def test_ftc_table_8_every_cell() -> None:
    """Fair or less +0, Good +1, Great +2, Superb and above +3."""
    assert [defense_bonus(level) for level in range(-6, 9)] == [0] * 7 + [1, 2] + [3] * 6
    assert (defense_bonus(FAIR), defense_bonus(GOOD), defense_bonus(GREAT), defense_bonus(SUPERB)) == (0, 1, 2, 3)


def test_ftc_table_5_defender_bonus_column_is_table_8() -> None:
    """ "(These are the values listed in the 'Defender's Bonus' of the range table above.)" """
    weapon = Bow("Test sling", 100, 100_000)
    for band in range_bands(weapon):
        assert band.defense_bonus == defense_bonus(band.difficulty)


# --- the published tables ----------------------------------------------------------------------------


@pytest.mark.parametrize("scale", SCALES)
def test_ftc_9_3_1_longbow_every_cell(scale: int) -> None:
    column = _column(TABLE_9_3_1, scale)
    for d in range(0, 242):
        band = range_band(LONGBOW, d, scale)
        expected = _expected_band(column, 240, d)
        assert (None if band is None else (band.difficulty, band.max_distance)) == expected, d
    for level, far in zip(LADDER, column, strict=True):
        band = range_band(LONGBOW, far, scale)
        assert band is not None and band.max_distance == far and band.difficulty <= level


@pytest.mark.parametrize("scale", SCALES)
def test_ftc_9_3_2_shortbow_every_cell(scale: int) -> None:
    column = _column(TABLE_9_3_2, scale)
    for d in range(0, 122):
        band = range_band(SHORTBOW, d, scale)
        expected = _expected_band(column, 120, d)
        assert (None if band is None else (band.difficulty, band.max_distance)) == expected, d


def test_ftc_9_3_longbow_scale_0_examples() -> None:
    """Base Range is Fair (FTC 6.5); beyond Max Range there is no shot."""
    assert range_band(LONGBOW, 10) == RangeBand(FAIR, 0, 10)
    assert range_band(LONGBOW, 11) == RangeBand(GOOD, 1, 20)
    assert range_band(LONGBOW, 60) == RangeBand(SUPERB, 3, 100)
    assert range_band(LONGBOW, 201) == RangeBand(LEGENDARY + 1, 3, 240)
    assert range_band(LONGBOW, 241) is None
    assert describe_band(RangeBand(GREAT, 2, 50)) == "Great (dodge +2, up to 50 m)"


def test_ftc_6_5_computed_distances_against_the_published_tables() -> None:
    """Table 5 with the Scale rule (x1.3 per step), rounded to the nearest metre (a half to the even metre),
    at least 1, at most Max Range, reproduces FTC 9.3.1 and 9.3.2 except in these ten cells, where the
    printed tables round differently (e.g. Longbow Scale -1 Good: 2 x 10 / 1.3 = 15.4 m, printed 16; Scale +2
    Superb: 169 m printed 170; Shortbow Scale 0 Mediocre: 2.5 m printed 3 while Longbow Scale +1 Mediocre
    6.5 m is printed 6). The game uses the printed tables for these two weapons (docs/rulings.md "Range band")."""
    differences = {}
    for weapon, table in ((LONGBOW, TABLE_9_3_1), (SHORTBOW, TABLE_9_3_2)):
        for scale in SCALES:
            computed = computed_distances(weapon.base_range, weapon.max_range, scale)
            for level, printed, mine in zip(LADDER, _column(table, scale), computed, strict=True):
                if printed != mine:
                    differences[(weapon.name, scale, level)] = (printed, mine)
    assert differences == {
        ("Longbow", -2, LEGENDARY): (120, 118),
        ("Longbow", -1, GOOD): (16, 15),
        ("Longbow", -1, LEGENDARY): (150, 154),
        ("Longbow", 2, SUPERB): (170, 169),
        ("Shortbow", 0, MEDIOCRE): (3, 2),
        ("Shortbow", 1, MEDIOCRE): (4, 3),
        ("Shortbow", 2, TERRIBLE): (2, 1),
        ("Shortbow", 2, MEDIOCRE): (5, 4),
        ("Shortbow", 3, TERRIBLE): (2, 1),
        ("Shortbow", 3, MEDIOCRE): (7, 5),
    }


def test_ftc_table_6_longbow_range_except_the_legendary_row() -> None:
    """Table 6 agrees with FTC 9.3.1 in every row but Legendary, which table 6 prints as 240 at every Scale
    while 9.3.1 prints 120, 150, 200 at Scales -2, -1, 0 (table 5: 20 x Base Range). 9.3.1 wins for play
    (docs/rulings.md "Range band"), so the game's Legendary band at Scale 0 ends at 200 m and Legendary+1 runs to 240
    m."""
    for scale in (-2, -1, 0, 1, 2):
        for level in LADDER[:-1]:
            assert TABLE_6[level][scale + 2] == TABLE_9_3_1[level][scale + 3]
            band = range_band(LONGBOW, TABLE_6[level][scale + 2], scale)
            assert band is not None and band.max_distance == TABLE_6[level][scale + 2]
    assert TABLE_6[LEGENDARY] == (240,) * 5
    assert [TABLE_9_3_1[LEGENDARY][s + 3] for s in (-2, -1, 0, 1, 2)] == [120, 150, 200, 240, 240]
    assert band_table(LONGBOW, 0)[-2:] == ((LEGENDARY, 200), (LEGENDARY + 1, 240))


def test_ftc_9_3_published_table_needs_matching_stats() -> None:
    """A GM's "Longbow" with other ranges is computed from table 5, not read from 9.3.1."""
    strong = Bow("Longbow", 12, 300)
    assert band_table(strong)[:4] == ((TERRIBLE, 1), (POOR, 2), (MEDIOCRE, 6), (FAIR, 12))
    assert band_table(Bow("longbow ", 10, 240), -1)[4] == (GOOD, 16)  # names compare loosely


def test_ftc_6_4_1_scale_beyond_the_printed_columns_is_computed() -> None:
    """Scale +4: Base Range 10 x 1.3^4 = 28.561 m; the Fair band ends at 29 m."""
    assert (FAIR, 29) in band_table(LONGBOW, 4)
    assert (FAIR, 4) in band_table(LONGBOW, -4)  # 10 / 1.3^4 = 3.50 m


def test_ftc_6_5_band_table_for_the_ui() -> None:
    """Shortbow, Scale 0: Terrible and Poor both end at 1 m, so Poor is never used and not listed."""
    assert band_table(SHORTBOW) == (
        (TERRIBLE, 1),
        (MEDIOCRE, 3),
        (FAIR, 5),
        (GOOD, 10),
        (GREAT, 25),
        (SUPERB, 50),
        (LEGENDARY, 100),
        (LEGENDARY + 1, 120),
    )
    assert band_table(SHORTBOW, 3)[-1] == (LEGENDARY, 120)  # Legendary already reaches Max Range


@given(st.integers(1, 200), st.integers(0, 2000), st.integers(-5, 5), st.integers(0, 4000))
def test_ftc_6_5_bands_round_up_and_grow_with_distance(base: int, extra: int, scale: int, d: int) -> None:
    weapon = Bow("Test", base, base + extra)
    band = range_band(weapon, d, scale)
    if d > weapon.max_range:
        assert band is None
        return
    assert band is not None and d <= band.max_distance <= weapon.max_range
    farther = range_band(weapon, d + 1, scale)
    assert farther is None or farther.difficulty >= band.difficulty
    bands = range_bands(weapon, scale)
    assert [b.difficulty for b in bands] == sorted({b.difficulty for b in bands})
    assert [b.max_distance for b in bands] == sorted({b.max_distance for b in bands})


def test_ftc_6_5_bad_weapon_or_distance_is_explained() -> None:
    with pytest.raises(RangeDataError, match="Base Range"):
        range_band(Bow("Broken bow", 0, 10), 3)
    with pytest.raises(RangeDataError, match="Max Range"):
        range_band(Bow("Broken bow", 10, 5), 3)
    with pytest.raises(RangeDataError, match="distance"):
        range_band(LONGBOW, -1)


@pytest.mark.parametrize(
    ("line", "decimal", "where"),
    [
        ("base_range = 10\n", "base_range = 10.5\n", "published.base_range"),
        ("defender_bonus = 1\n", "defender_bonus = 1.5\n", "table_5.defender_bonus"),
        ("\nbonus = 2\n", "\nbonus = 2.5\n", "table_8.bonus"),
    ],
)
def test_ftc_6_5_a_decimal_where_the_ranges_file_wants_a_whole_number_is_refused_naming_the_field(
    monkeypatch: pytest.MonkeyPatch, line: str, decimal: str, where: str
) -> None:
    """A GM's ranges.toml with 10.5 m for a published Base Range (or a half bonus) is our own sentence naming the
    field, never silently cut to its whole part."""
    import tomllib

    from game.engine import ranges

    text = ranges.DATA_FILE.read_text(encoding="utf-8")
    assert line in text
    bad = text.replace(line, decimal, 1)
    monkeypatch.setattr(ranges, "read_table", lambda name, exact: tomllib.loads(bad, parse_float=Fraction))
    ranges._data.cache_clear()
    try:
        with pytest.raises(RangeDataError, match=rf"ranges.toml: {where} must be a whole number, not \d+\.5"):
            ranges.partial_cover_modifier()
    finally:
        monkeypatch.undo()
        ranges._data.cache_clear()
    assert band_table(LONGBOW)[3] == (FAIR, 10)


def test_rulings_partial_cover_is_minus_one() -> None:
    assert partial_cover_modifier() == -1


# --- table 7: firing up and down ---------------------------------------------------------------------


def test_ftc_table_7_firing_up_and_down_rows() -> None:
    """+1 firing down more than 20 degrees; -1 up more than 10; -2 up more than 60 (1 hex = 1 m)."""
    assert firing_angle_modifier(0, 0, 5) == 0
    assert firing_angle_modifier(0, 1, 10) == 0  # up 5.7 degrees
    assert firing_angle_modifier(0, 1, 5) == -1  # up 11.3 degrees
    assert firing_angle_modifier(0, 2, 1) == -2  # up 63.4 degrees
    assert firing_angle_modifier(0, 7, 4) == -2  # 60.3 degrees: 7/4 > sqrt(3)
    assert firing_angle_modifier(0, 5, 3) == -1  # 59.0 degrees
    assert firing_angle_modifier(3, 0, 10) == 0  # down 16.7 degrees
    assert firing_angle_modifier(4, 0, 10) == 1  # down 21.8 degrees
    assert firing_angle_modifier(10, 0, 1) == 1  # steeply down: still just +1
    assert firing_angle_modifier(0, 3, 0) == -2  # straight up
    assert firing_angle_modifier(3, 0, 0) == 1


def _above_tan_10(rise: int, run: int) -> bool:
    # tan(3x) = (3t - t^3) / (1 - 3t^2) and tan 30 = 1/sqrt(3): for t = rise/run below tan 30,
    # t > tan 10  <=>  3 (3t - t^3)^2 > (1 - 3t^2)^2.
    if 3 * rise * rise >= run * run:
        return True
    return 3 * (3 * rise * run * run - rise**3) ** 2 > (run * run - 3 * rise * rise) ** 2 * run * run


def _above_tan_20(rise: int, run: int) -> bool:
    # tan 60 = sqrt(3): for t below tan 30, t > tan 20  <=>  (3t - t^3)^2 > 3 (1 - 3t^2)^2.
    if 3 * rise * rise >= run * run:
        return True
    return (3 * rise * run * run - rise**3) ** 2 > 3 * (run * run - 3 * rise * rise) ** 2 * run * run


@given(st.integers(1, 10**6), st.integers(1, 10**6))
def test_ftc_table_7_thresholds_are_exact(rise: int, run: int) -> None:
    assert steeper_than(rise, run, Fraction(60)) == (rise * rise > 3 * run * run)
    assert steeper_than(rise, run, Fraction(10)) == _above_tan_10(rise, run)
    assert steeper_than(rise, run, Fraction(20)) == _above_tan_20(rise, run)


def test_ftc_table_7_thresholds_near_the_boundary() -> None:
    """Convergents of sqrt(3) and of tan 10 / tan 20, where floats would be at the edge of their precision."""
    for rise, run in ((97, 56), (1351, 780), (18817, 10864), (262087, 151316), (70226, 40545)):
        assert steeper_than(rise, run, Fraction(60)) == (rise * rise > 3 * run * run)
    for degrees, oracle in ((10, _above_tan_10), (20, _above_tan_20)):
        t = Fraction(math.tan(math.radians(degrees)))
        for den in (7, 57, 1000, 99991, 10**7 + 19):
            for num in (math.floor(t * den), math.ceil(t * den)):
                assert steeper_than(num, den, Fraction(degrees)) == oracle(num, den)


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(1, 80))
def test_ftc_table_7_agrees_with_trigonometry_away_from_the_thresholds(a: int, b: int, d: int) -> None:
    angle = math.degrees(math.atan2(b - a, d))
    expected = 0
    if angle < -20:
        expected = 1
    elif angle > 60:
        expected = -2
    elif angle > 10:
        expected = -1
    assert firing_angle_modifier(a, b, d) == expected
