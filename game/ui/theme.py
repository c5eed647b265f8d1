"""Colours of the interface: dark chrome, light text, side colours and overlay bands.

Two palettes: the normal one, and a colour-blind-safe one (Okabe & Ito's eight colours) chosen in the
settings. Everything that means something on the board — side colours, the movement bands, line-of-fire
marks — comes from the palette, so switching it changes the whole board at once.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from game.colours import RGB
from game.colours import hex_colour as hex_colour  # the screens' reader of roster colours

BACKGROUND: RGB = (18, 20, 26)
PANEL: RGB = (30, 33, 42)
PANEL_LIGHT: RGB = (42, 46, 58)
BORDER: RGB = (72, 78, 96)
TEXT: RGB = (232, 234, 240)
TEXT_MUTED: RGB = (150, 156, 172)
TEXT_DISABLED: RGB = (96, 100, 114)
ACCENT: RGB = (230, 184, 80)
BUTTON: RGB = (48, 53, 68)
BUTTON_HOVER: RGB = (66, 73, 94)
BUTTON_PRESSED: RGB = (84, 92, 118)
DANGER: RGB = (214, 84, 72)
GRID: RGB = (0, 0, 0)

WOUND_NAMES: tuple[str, ...] = (
    "Unhurt",
    "Scratched",
    "Hurt",
    "Very Hurt",
    "Incapacitated",
    "Near Death",
    "Dead",
)
"""Fudge's wound track, by wound level 0..6 (Fudge 4.5; FTC 8)."""


_SIDE_NAMES: dict[str, int] = {
    "red": 0,
    "blue": 1,
    "green": 2,
    "purple": 3,
    "violet": 3,
    "orange": 4,
    "yellow": 4,
    "gold": 4,
    "cyan": 5,
    "teal": 5,
}
"""Sides named after a colour keep that colour (its colour-blind-safe stand-in in the other palette)."""


@dataclass(frozen=True)
class Palette:
    """The colours that carry meaning on the board."""

    name: str
    sides: tuple[RGB, ...]
    move_free: RGB
    move_escape: RGB
    move_free_attacks: RGB
    path: RGB
    line_of_fire: RGB
    lof_clear: RGB
    lof_cover: RGB
    lof_bystander: RGB
    lof_blocked: RGB
    hover: RGB
    selection: RGB
    wounds: tuple[RGB, ...]

    def side_colour(self, side: int | str, index: int = 0) -> RGB:
        """The colour of a side: a side named after a colour gets it; otherwise the ``index``-th colour."""
        if isinstance(side, int):
            return self.sides[side % len(self.sides)]
        named = _SIDE_NAMES.get(side.strip().lower())
        return self.sides[(named if named is not None else index) % len(self.sides)]

    def wound_colour(self, level: int) -> RGB:
        """The pip colour of a wound level (0 unhurt .. 6 dead)."""
        return self.wounds[max(0, min(level, len(self.wounds) - 1))]


NORMAL = Palette(
    name="normal",
    sides=((220, 72, 64), (70, 140, 240), (86, 184, 96), (178, 104, 220), (238, 170, 50), (60, 190, 190)),
    move_free=(80, 170, 255),
    move_escape=(250, 190, 60),
    move_free_attacks=(235, 70, 60),
    path=(255, 255, 255),
    line_of_fire=(255, 236, 150),
    lof_clear=(120, 220, 120),
    lof_cover=(250, 190, 60),
    lof_bystander=(235, 120, 60),
    lof_blocked=(235, 60, 60),
    hover=(255, 255, 255),
    selection=(255, 214, 90),
    wounds=(
        (90, 200, 110),
        (190, 210, 90),
        (240, 190, 60),
        (240, 130, 50),
        (220, 60, 50),
        (150, 40, 40),
        (70, 70, 70),
    ),
)

# Okabe & Ito's colours: distinguishable under the common colour-vision deficiencies.
ORANGE: RGB = (230, 159, 0)
SKY_BLUE: RGB = (86, 180, 233)
BLUISH_GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
BLUE: RGB = (0, 114, 178)
VERMILLION: RGB = (213, 94, 0)
REDDISH_PURPLE: RGB = (204, 121, 167)

COLOUR_BLIND = Palette(
    name="colour-blind safe",
    sides=(ORANGE, SKY_BLUE, BLUISH_GREEN, REDDISH_PURPLE, YELLOW, BLUE),
    move_free=SKY_BLUE,
    move_escape=YELLOW,
    move_free_attacks=VERMILLION,
    path=(255, 255, 255),
    line_of_fire=YELLOW,
    lof_clear=SKY_BLUE,
    lof_cover=YELLOW,
    lof_bystander=ORANGE,
    lof_blocked=VERMILLION,
    hover=(255, 255, 255),
    selection=YELLOW,
    wounds=(SKY_BLUE, BLUISH_GREEN, YELLOW, ORANGE, VERMILLION, REDDISH_PURPLE, (70, 70, 70)),
)
"""The colour-blind-safe palette: Okabe & Ito's colours only (and white, and grey for the dead)."""


def palette(colour_blind: bool) -> Palette:
    """The palette the settings ask for."""
    return COLOUR_BLIND if colour_blind else NORMAL


_TERRAIN_COLOURS: dict[str, RGB] = {
    "open": (96, 122, 74),
    "grass": (96, 122, 74),
    "field": (110, 130, 76),
    "clear": (96, 122, 74),
    "forest": (48, 86, 54),
    "woods": (48, 86, 54),
    "trees": (48, 86, 54),
    "brush": (82, 108, 62),
    "water": (52, 94, 146),
    "shallow": (72, 120, 160),
    "deep": (34, 66, 118),
    "river": (52, 94, 146),
    "marsh": (78, 100, 84),
    "swamp": (70, 92, 76),
    "mud": (104, 88, 64),
    "rough": (124, 112, 92),
    "rubble": (124, 112, 92),
    "rocks": (118, 114, 108),
    "scree": (130, 122, 106),
    "road": (156, 140, 108),
    "path": (150, 134, 100),
    "floor": (140, 128, 110),
    "bridge": (130, 104, 76),
    "wall": (70, 70, 78),
    "building": (112, 96, 88),
    "house": (112, 96, 88),
    "door": (140, 100, 60),
    "hill": (134, 128, 82),
    "sand": (194, 172, 122),
    "snow": (220, 224, 232),
    "ice": (180, 210, 228),
}


def terrain_colour(name: str) -> RGB:
    """A fill colour for a terrain type in the plain-hex map (a stable muted colour for unknown names)."""
    key = name.strip().lower()
    for word, colour in _TERRAIN_COLOURS.items():
        if word in key:
            return colour
    h = zlib.crc32(key.encode("utf-8"))
    return (70 + h % 70, 80 + (h >> 8) % 60, 60 + (h >> 16) % 60)
