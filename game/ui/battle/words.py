"""Words a player reads on the battle screen: terrain as words ("Dense woods", not ``dense_woods``), the
light and footing of a hex (FTC table 7), a hex named the way the board shows it (its ground and where it
lies from a figure, never axial coordinates), the prompt of the side deciding with its name once; a log
line's shape (``Entry``)."""

from __future__ import annotations

import math
import re

from game.colours import RGB
from game.engine.battle import Battle
from game.engine.hexgrid import Hex, distance
from game.ui.camera import HexLayout

Entry = tuple[str, tuple[str, ...], RGB | None]
"""A log line: its text, the figures it names (highlighted when it is clicked), its colour."""

COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def signed(value: int) -> str:
    """A modifier as the rules print it: +1, 0, −2."""
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def counted(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun in the number it needs: "1 hex", "3 hexes", "0 rounds", never a bracketed plural."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def terrain_words(name: str) -> str:
    """A terrain type's name as words: "dense_woods" -> "Dense woods"."""
    words = name.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:] if words else "Ground"


def light_words(value: int) -> str:
    """The light of a hex (FTC table 7: bad light −1 to −3 on rolls)."""
    return "good light" if value >= 0 else f"bad light {signed(value)}"


def footing_words(value: int) -> str:
    """The footing of a hex (FTC table 7: insecure footing −1 to −3 on rolls)."""
    return "firm footing" if value >= 0 else f"insecure footing {signed(value)}"


def compass(dx: float, dy: float) -> str:
    """A screen direction as a compass word (y grows downwards)."""
    return COMPASS[round(math.atan2(dy, dx) / (math.pi / 4)) % 8]


def facing_words(layout: HexLayout, facing: int) -> str:
    """The way a figure faces as a compass word on the board ("north-east"), never the side's number."""
    return compass(*layout.direction_vector(facing))


def where_words(layout: HexLayout, anchor_name: str, anchor: Hex, h: Hex) -> str:
    """Where a hex lies from a figure, as the board shows it: "3 hexes north-east of Mags"."""
    d = distance(anchor, h)
    ax, ay = layout.hex_center(anchor)
    hx, hy = layout.hex_center(h)
    return f"{d} hex{'' if d == 1 else 'es'} {compass(hx - ax, hy - ay)} of {anchor_name}"


def hex_name(battle: Battle, layout: HexLayout, h: Hex, ref: str | None = None) -> str:
    """A hex as the board shows it: the figure standing there, else its ground and where it lies from
    ``ref`` (or the nearest figure): "the grass hex 3 hexes north-east of Mags"."""
    occupant = battle.occupant(h)
    if occupant is not None:
        return f"{occupant.name}'s hex"
    ground = terrain_words(battle.terrain.type_at(h).name).lower() if battle.terrain.contains(h) else "off-map"
    figures = [f for f in battle.figures.values() if not f.out] or list(battle.figures.values())
    anchor = battle.figures.get(ref or "")
    if anchor is None and figures:
        anchor = min(figures, key=lambda f: (distance(f.hex, h), f.id))
    if anchor is None:
        return f"a {ground} hex"
    where = where_words(layout, anchor.name, anchor.hex, h)
    return f"the {ground} hex {where.removeprefix('1 hex ')}"


_AT_HEX = re.compile(r" at hex \((-?\d+), (-?\d+)\)")


def name_hexes(text: str, battle: Battle, layout: HexLayout, ref: str | None = None) -> str:
    """A log line with each "at hex (q, r)" replaced by the hex's name (``hex_name``)."""
    return _AT_HEX.sub(lambda m: " at " + hex_name(battle, layout, Hex(int(m[1]), int(m[2])), ref), text)


def possessive(name: str) -> str:
    """A side's name as the owner of something: "Red Ulric's Brigands'" (a plural's "s" takes the apostrophe
    alone), "the Militia's"."""
    return name + ("'" if name.endswith("s") else "'s")


def decision_line(side: str, prompt: str, computer: bool = False) -> str:
    """The top bar's "who decides: what" with the side's name once, even when the prompt starts with it."""
    who = side + (" (computer)" if computer else "")
    if prompt.startswith(side):
        rest = prompt[len(side) :].lstrip(" :")
        return f"{who}: {rest}"
    return f"{who}: {prompt}"
