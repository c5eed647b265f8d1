"""Numbers as the game writes them for people: plain digits grouped by thousands, at most three decimals, never
the exponent form a ``:g`` format gives a large value ("1.34673e+06"). The masses of FTC 5.1.1 (carried load,
table 2's limits, ``gear_kg``) and the times of *Fudge* 4.8's healing are written with it, on every screen and
in every sentence that names them."""

from __future__ import annotations

import math

from game.engine.codec import is_whole


def number_text(value: float, decimals: int = 3) -> str:
    """``value`` rounded to ``decimals`` places without trailing zeros, thousands grouped: 1346730.4 ->
    "1,346,730.4", 2.50 -> "2.5", 0.1 + 0.2 -> "0.3"; a value that is not finite says so ("infinite")."""
    if is_whole(value):
        return f"{value:,}"
    number = float(value)
    if math.isnan(number):
        return "not a number"
    if math.isinf(number):
        return "infinite" if number > 0 else "minus infinite"
    text = f"{round(number, decimals):,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def kg_text(value: float) -> str:
    """A mass as the screens write it: "2.5 kg", "1,346,730 kg" (FTC 5.1.1)."""
    return f"{number_text(value)} kg"


def load_parts_text(parts: tuple[float, float, float, float]) -> str:
    """The carried load by kind (FTC 5.1.1), in kg: "weapons 3, armour 12.5, shield 0, other 2"."""
    weapons, armour, shield, other = (number_text(p) for p in parts)
    return f"weapons {weapons}, armour {armour}, shield {shield}, other {other}"


__all__ = ["kg_text", "load_parts_text", "number_text"]
