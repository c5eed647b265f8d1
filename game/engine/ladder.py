"""The trait ladder of *Fudge* (FTC 2, docs/rulings.md "Numbers").

Levels are plain integers: Fair is 0, Good +1 … Legendary +4; beyond the ends the ladder goes on as
"Legendary+1" (+5) and "Terrible-1" (-4).
"""

from __future__ import annotations

import re

from game.engine.codec import is_whole

TERRIBLE = -3
POOR = -2
MEDIOCRE = -1
FAIR = 0
GOOD = 1
GREAT = 2
SUPERB = 3
LEGENDARY = 4

_NAMES: dict[int, str] = {
    TERRIBLE: "Terrible",
    POOR: "Poor",
    MEDIOCRE: "Mediocre",
    FAIR: "Fair",
    GOOD: "Good",
    GREAT: "Great",
    SUPERB: "Superb",
    LEGENDARY: "Legendary",
}
_BY_NAME: dict[str, int] = {name.lower(): level for level, name in _NAMES.items()}
_PATTERN = re.compile(r"^\s*([A-Za-z]+)\s*(?:([+-])\s*(\d+))?\s*$")


def level_name(level: int) -> str:
    """Name a ladder level: ``4`` -> ``"Legendary"``, ``5`` -> ``"Legendary+1"``, ``-4`` -> ``"Terrible-1"``."""
    if level > LEGENDARY:
        return f"Legendary+{level - LEGENDARY}"
    if level < TERRIBLE:
        return f"Terrible-{TERRIBLE - level}"
    return _NAMES[level]


def parse_level(name: str) -> int:
    """Read a ladder level from its name ("Good", "legendary+2", "Terrible-1") or a signed number ("+1").

    Raises ``ValueError`` with a readable sentence when the text is not a level.
    """
    text = name.strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    match = _PATTERN.match(text)
    if match is None or match.group(1).lower() not in _BY_NAME:
        known = ", ".join(_NAMES[lv] for lv in sorted(_NAMES))
        raise ValueError(
            f"{name!r} is not a level of the trait ladder (expected one of {known}, "
            "optionally followed by +N or -N, or a number such as +1)"
        )
    base = _BY_NAME[match.group(1).lower()]
    if match.group(2) is None:
        return base
    steps = int(match.group(3))
    return base + steps if match.group(2) == "+" else base - steps


def level_of(value: object) -> int | None:
    """A ladder level as a file gives it (FTC 2, *Fudge* 1.3): a whole number, or a name or signed number
    ``parse_level`` reads; None when it is neither (a bool, a float, a list, an unknown name)."""
    if isinstance(value, str):
        try:
            return parse_level(value)
        except ValueError:
            return None
    return value if is_whole(value) else None


def split_plus(name: str) -> tuple[str, bool]:
    """A level's name and whether it carries *Fudge* 4.36's "plus" half level: "Good+" and "Good +" are
    ("Good", True), "Legendary+3+" is ("Legendary+3", True); "Legendary+1" (a full step) is ("Legendary+1",
    False)."""
    text = name.strip()
    if text.endswith("+") and len(text) > 1:
        return text[:-1].rstrip(), True
    return text, False


def plus_name(level: int, plus: bool) -> str:
    """A level's name with *Fudge* 4.36's plus half level when it has one: ``plus_name(1, True)`` is "Good+"."""
    return level_name(level) + ("+" if plus else "")


def signed(value: int) -> str:
    """Format a modifier the way the rules print it: ``+1``, ``-2``, ``+0``."""
    return f"{value:+d}"
