"""The ranges of every value a roster can hold, read from ``data/limits.toml``.

A roster is a file a person writes: a joke value (``strength = 99999999999999999``, ``scale = 1000000``,
``gear_kg = nan``) must be refused with a sentence, not played. ``check_value`` gives that sentence for one
field; the character reader (``game.engine.characters``), the roster reader (``game.roster``) and the roster
editor all call it, so they refuse the same values. The ranges cover the rules' own characters and creatures
(FTC 2.1 ladder, *Fudge* 4.58 Scale, FTC 7.2 Tough Hide, FTC 7.3 wound tracks) with a margin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sized
from dataclasses import dataclass
from functools import cache

from game.engine.datafiles import read_table
from game.engine.ladder import level_name, level_of, parse_level, split_plus
from game.engine.quantities import kg_text, number_text


@dataclass(frozen=True)
class Limit:
    """One field's range: ``kind`` is "level", "number", "mass", "length" or "words"; ``low`` .. ``high``
    inclusive, or the ``words`` the field may hold."""

    field: str
    kind: str
    low: float
    high: float
    words: tuple[str, ...] = ()

    def describe(self) -> str:
        """The range as a person reads it: "Terrible-3 to Legendary+3", "-10 to 20", "at most 20 entries"."""
        if self.kind == "level":
            return f"{level_name(int(self.low))} to {level_name(int(self.high))}"
        if self.kind == "length":
            unit = "characters" if self.field == "name" else "entries"
            return f"at most {int(self.high)} {unit}"
        if self.kind == "words":
            return ", ".join(f'"{w}"' for w in self.words[:-1]) + f' or "{self.words[-1]}"'
        if self.kind == "mass":
            return f"{number_text(self.low)} to {kg_text(self.high)}"
        return f"{int(self.low)} to {int(self.high)}"


@cache
def limits() -> Mapping[str, Limit]:
    """Every field's ``Limit`` by field name (``"strength"``, ``"gear_kg"``, ``"wound_track.boxes"``, ...)."""
    data = read_table("limits.toml")
    out: dict[str, Limit] = {}
    lv = data["levels"]
    for name in lv["fields"]:
        out[str(name)] = Limit(str(name), "level", parse_level(str(lv["min"])), parse_level(str(lv["max"])))
    for kind, table in (("number", data["numbers"]), ("mass", data["masses"])):
        for name, rng in table.items():
            out[str(name)] = Limit(str(name), kind, float(rng["min"]), float(rng["max"]))
    for name, most in data["lengths"].items():
        out[str(name)] = Limit(str(name), "length", 0, int(most))
    for name, words in data.get("words", {}).items():
        out[str(name)] = Limit(str(name), "words", 0, 0, tuple(str(w) for w in words))
    return out


def limit(field: str) -> Limit | None:
    """The range of a field, None for a field without one (a name of a list, a flag)."""
    return limits().get(field)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if isinstance(value, float) else value  # ints stay exact (no float overflow)


def _shown(value: object) -> str:
    """A value as a sentence quotes it, cut short when it is long (a 400-digit number)."""
    text = repr(value) if not isinstance(value, int | float) or isinstance(value, bool) else str(value)
    return text if len(text) <= 24 else text[:20] + "…"


def check_value(field: str, value: object) -> str | None:
    """Whether ``value`` is inside the range of ``field``: None when it is (or the field has no range), else
    one sentence with the value, the allowed range and the fix, e.g. ``"Legendary+96 is outside the range
    Terrible-3 to Legendary+3; write a level within it"``.

    Levels may be given as ladder names or numbers (FTC 2.1); lengths are checked on a list, a table or a
    text (its entries or characters); a field of words takes exactly one of them. A value of the wrong type
    for the field is left to the reader's own type checks (None here), except a number that is not finite
    (nan, inf), which is refused.
    """
    lim = limit(field)
    if lim is None:
        return None
    if lim.kind == "words":
        if isinstance(value, str) and value in lim.words:
            return None
        return f"{_shown(value)} is not one of {lim.describe()}; write one of them"
    if lim.kind == "length":
        if not isinstance(value, Sized) or isinstance(value, bytes):
            return None
        if len(value) > lim.high:
            what = "characters" if isinstance(value, str) else "entries"
            return f"has {len(value)} {what}, more than the {int(lim.high)} allowed; shorten it"
        return None
    if lim.kind == "level":
        # Fudge 4.36: a plus half level adds no step
        level = level_of(split_plus(value)[0] if isinstance(value, str) else value)
        if level is None:
            return None
        if not lim.low <= level <= lim.high:
            shown = level_name(level) if abs(level) < 10**6 else _shown(value)
            return f"{shown} is outside the range {lim.describe()}; write a level within it"
        return None
    number = _number(value)
    if number is None:
        return None
    if isinstance(number, float) and not math.isfinite(number):
        return f"{_shown(value)} is not a finite number; write a number from {lim.describe()}"
    if not lim.low <= number <= lim.high:
        return f"{_shown(value)} is outside the range {lim.describe()}; write a number within it"
    return None


def check_wound_count(count: int, boxes: int) -> str | None:
    """*Fudge* 4.8: a character carries no more wounds than its wound track has boxes (None when it does not)."""
    if count > boxes:
        return (
            f"lists {count} carried wounds but the wound track holds {boxes}; "
            "list only the wounds the character still carries"
        )
    return None


def describe_all() -> list[tuple[str, str]]:
    """Every field with its range in words, for documentation and the editor's hints."""
    return [(name, lim.describe()) for name, lim in limits().items()]
