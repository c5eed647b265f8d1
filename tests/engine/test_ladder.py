"""The trait ladder (FTC 2, docs/rulings.md "Numbers")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.ladder import level_name, level_of, parse_level, signed

LADDER = {-3: "Terrible", -2: "Poor", -1: "Mediocre", 0: "Fair", 1: "Good", 2: "Great", 3: "Superb", 4: "Legendary"}


def test_rulings_ladder_names_every_level() -> None:
    for level, name in LADDER.items():
        assert level_name(level) == name
        assert parse_level(name) == level
        assert parse_level(name.upper()) == level


def test_rulings_ladder_goes_on_beyond_legendary_and_below_terrible() -> None:
    assert level_name(5) == "Legendary+1"
    assert level_name(6) == "Legendary+2"
    assert level_name(-4) == "Terrible-1"
    assert parse_level("Legendary+2") == 6
    assert parse_level("terrible-1") == -4
    assert parse_level(" Superb + 1 ") == 4


def test_ladder_accepts_signed_numbers() -> None:
    assert parse_level("+1") == 1
    assert parse_level("-2") == -2
    assert parse_level("0") == 0


@pytest.mark.parametrize("bad", ["", "Gud", "Good+", "Fair*2", "Legendary+x"])
def test_ladder_refuses_what_is_not_a_level_with_a_sentence(bad: str) -> None:
    with pytest.raises(ValueError, match="not a level of the trait ladder"):
        parse_level(bad)


@given(st.integers(min_value=-40, max_value=40))
def test_ladder_name_and_parse_are_inverse(level: int) -> None:
    assert parse_level(level_name(level)) == level


def test_signed_prints_modifiers_as_the_rules_do() -> None:
    assert (signed(1), signed(-2), signed(0)) == ("+1", "-2", "+0")


def test_a_level_as_a_file_gives_it_is_a_whole_number_a_name_or_a_signed_number_and_nothing_else() -> None:
    assert level_of(2) == 2
    assert level_of("Good") == 1
    assert level_of("legendary+2") == 6
    assert level_of("+1") == 1
    for not_a_level in (True, False, 1.0, "Goodish", ["Good"], None):
        assert level_of(not_a_level) is None
