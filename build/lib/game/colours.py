"""Colours written as text — a roster side's ``colour``, a Tiled tileset's transparent ``trans`` — read as
RGB triples, by one reader for the whole game."""

from __future__ import annotations

import re

RGB = tuple[int, int, int]

_HEX6 = re.compile(r"[0-9a-fA-F]{6}")


def parse_hex_colour(text: str, *, short: bool = True) -> RGB | None:
    """``"#2f6fd0"`` -> (47, 111, 208), with or without the ``#``; ``"#abc"`` -> (170, 187, 204) when
    ``short`` allows the three-digit form; None for anything else."""
    t = text.strip()
    t = t[1:] if t.startswith("#") else t
    if short and len(t) == 3:
        t = "".join(c * 2 for c in t)
    if not _HEX6.fullmatch(t):
        return None
    return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)


def hex_colour(text: str, default: RGB = (136, 136, 136)) -> RGB:
    """``parse_hex_colour`` with ``default`` for anything unreadable (a side's colour from its roster)."""
    parsed = parse_hex_colour(text)
    return default if parsed is None else parsed
