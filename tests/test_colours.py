"""One reader of colours written as text (a roster side's ``colour``, a Tiled tileset's ``trans``)."""

from __future__ import annotations

import pytest

from game.colours import hex_colour, parse_hex_colour
from game.ui import theme


@pytest.mark.parametrize(
    ("text", "rgb"),
    [
        ("#2f6fd0", (47, 111, 208)),
        ("2F6FD0", (47, 111, 208)),
        (" #c83232 ", (200, 50, 50)),
        ("#abc", (170, 187, 204)),
    ],
)
def test_a_hex_colour_reads_as_its_rgb(text: str, rgb: tuple[int, int, int]) -> None:
    assert parse_hex_colour(text) == rgb


@pytest.mark.parametrize("text", ["", "#", "#12345", "#1234567", "#gg0000", "red", "##123456"])
def test_anything_else_is_not_a_colour(text: str) -> None:
    assert parse_hex_colour(text) is None
    assert hex_colour(text, (1, 2, 3)) == (1, 2, 3)


def test_the_short_form_only_where_allowed() -> None:
    assert parse_hex_colour("#abc", short=False) is None
    assert parse_hex_colour("#aabbcc", short=False) == (170, 187, 204)


def test_the_screens_read_colours_with_the_same_reader() -> None:
    assert theme.hex_colour is hex_colour


def test_a_sides_colour_on_screen_is_its_rosters_or_the_palettes_stand_in() -> None:
    from dataclasses import replace
    from pathlib import Path

    from game.ui.screen import UiContext
    from game.ui.settings import Settings
    from game.ui.widgets import TextCache

    ui = UiContext(Settings(), TextCache(), Path("."), Path("."))
    assert ui.side_colour("#c83232", 0) == (200, 50, 50)
    assert ui.side_colour(None, 1) == ui.palette.sides[1]
    ui.settings = replace(ui.settings, colour_blind=True)
    assert ui.side_colour("#c83232", 0) == ui.palette.sides[0] != (200, 50, 50)


def test_the_colour_blind_palette_uses_only_okabe_and_itos_colours() -> None:
    from dataclasses import astuple

    published = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
    allowed = {parse_hex_colour(code) for code in published} | {(255, 255, 255), (70, 70, 70)}
    colours: list[object] = []
    for field in astuple(theme.COLOUR_BLIND)[1:]:
        colours.extend(field if isinstance(field[0], tuple) else [field])
    assert set(colours) <= allowed
    assert len(set(theme.COLOUR_BLIND.sides)) == len(theme.COLOUR_BLIND.sides)  # no two sides alike
