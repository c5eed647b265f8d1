"""The spell catalogue (FTC 8): the spells of ``data/spells.toml`` and the magic tables, read and checked.

A spell is data (a GM may add spells to the file); ``spell(name)`` finds one by name or key with near
matches named on a typo. Characters check their known spells here; ``game.engine.magic`` holds the rules
that use them. Nothing here knows characters, damage or the battle.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from game.engine.datafiles import data_path, read_table
from game.engine.ladder import level_name, parse_level
from game.engine.spelling import close_matches

DATA_FILE = data_path("spells.toml")

RANGES: tuple[str, ...] = ("self", "touch", "close", "short", "long")
"""FTC 8.3's range kinds, plus "self" for spells on the caster."""
EFFECTS: tuple[str, ...] = ("damage", "defence", "movement", "heal", "condition", "area")
TARGETS: tuple[str, ...] = ("enemy", "ally", "self", "hex")
APPLIES_TO: tuple[str, ...] = ("offence", "defence", "all", "strength", "speed", "movement", "acts")
RESIST: tuple[str, ...] = ("", "will", "health")


class MagicError(ValueError):
    """A spell catalogue entry or a spell request that makes no sense; the message names it and the fix."""


# ---------------------------------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------------------------------

_TIME = re.compile(r"^\s*(\d+)\s*(second|seconds|round|rounds|minute|minutes)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Spell:
    """One spell of the catalogue (FTC 8): how long it takes, how far it reaches, what it does.

    ``casting_time`` and ``duration`` are FTC 8.1 time-chart strings ("1 second", "1 round", "5 rounds",
    "2 minutes"; a duration may also be "instant"). ``difficulty`` is a ladder level. The effect fields not
    used by ``effect`` stay at their defaults (``data/spells.toml`` describes each).
    """

    key: str
    name: str
    casting_time: str
    range: str
    skill: str
    difficulty: int
    effect: str
    target: str
    duration: str = "instant"
    damage: int = 0
    armour: bool = True
    defence_bonus: int = 0
    movement_bonus: int = 0
    speed_bonus: int = 0
    heal_levels: int = 0
    condition: str = ""
    modifier: int = 0
    applies_to: str = ""
    radius: int = 0
    light: int = 0
    blocks_sight: bool = False
    resist: str = ""
    notes: str = ""

    @property
    def offensive(self) -> bool:
        """Whether the spell is aimed at an enemy (FTC 8.1: resolved simultaneously with other attacks)."""
        return self.target == "enemy"

    @property
    def defensive(self) -> bool:
        """Whether the spell raises a defence (FTC 8.1: an instant defence when cast in 1 second)."""
        return self.effect == "defence"

    @property
    def is_touch(self) -> bool:
        """Whether the spell needs a touch attack first (FTC 8.3)."""
        return self.range == "touch"

    def __str__(self) -> str:
        return f"{self.name} ({self.casting_time}, {self.range}, {self.skill} {level_name(self.difficulty)})"


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The catalogue as read: the spells by lower-case name, and the magic tables of the file."""

    spells: Mapping[str, Spell]
    range_hexes: Mapping[str, int]
    rounds_per_minute: int
    concentration: Mapping[str, int]
    recognition: Mapping[str, int]


def time_rounds(text: str, *, rounds_per_minute: int, where: str, allow_second: bool) -> int:
    """Rounds in a time-chart string (FTC 8.1); "1 second" is 0 rounds (inside the round)."""
    if text.strip().lower() == "instant":
        return 0
    match = _TIME.match(text)
    if match is None:
        raise MagicError(
            f'{where}: {text!r} is not a time of FTC 8.1\'s chart; write "1 second", '
            '"1 round", "5 rounds" or "2 minutes"'
        )
    count, unit = int(match.group(1)), match.group(2).lower()
    if count < 1:
        raise MagicError(f"{where}: {text!r} must be at least 1 {unit}")
    if unit.startswith("second"):
        if not allow_second or count != 1:
            raise MagicError(
                f'{where}: {text!r}; only a casting time may be "1 second" (FTC 8.1); write a number of rounds instead'
            )
        return 0
    if unit.startswith("minute"):
        return count * rounds_per_minute
    return count


def _read_spell(key: str, row: Mapping[str, Any], rounds_per_minute: int) -> Spell:
    where = f"{DATA_FILE.name}, spell {key!r}"
    fields = {f for f in Spell.__slots__ if f != "key"}
    unknown = [k for k in row if k not in fields]
    if unknown:
        close = close_matches(unknown[0], sorted(fields), 1)
        hint = f"did you mean {close[0]!r}?" if close else f"known fields: {', '.join(sorted(fields))}"
        raise MagicError(f"{where}: {unknown[0]!r} is not a field of a spell; {hint}")
    for needed in ("name", "casting_time", "range", "skill", "difficulty", "effect", "target"):
        if needed not in row:
            raise MagicError(
                f"{where} has no {needed!r}; every spell needs name, casting_time, range, skill, "
                "difficulty, effect and target"
            )
    try:
        difficulty = parse_level(str(row["difficulty"]))
    except ValueError as exc:
        raise MagicError(f"{where}, difficulty: {exc}") from None
    values = dict(row)
    values["difficulty"] = difficulty
    for name, allowed in (("range", RANGES), ("effect", EFFECTS), ("target", TARGETS)):
        values[name] = str(values[name]).strip().lower()
        if values[name] not in allowed:
            raise MagicError(f"{where}: {name} {row[name]!r} is unknown; use one of {', '.join(allowed)}")
    values["resist"] = str(values.get("resist", "")).strip().lower()
    if values["resist"] not in RESIST:
        raise MagicError(f'{where}: resist {row["resist"]!r} is unknown; use "Will" or "Health" or leave it out')
    applies = str(values.get("applies_to", "")).strip().lower()
    values["applies_to"] = applies
    if values["effect"] == "condition" and applies not in APPLIES_TO:
        raise MagicError(f"{where}: a condition needs applies_to, one of {', '.join(APPLIES_TO)}")
    spell = Spell(key=key, **values)
    time_rounds(
        spell.casting_time, rounds_per_minute=rounds_per_minute, where=f"{where}, casting_time", allow_second=True
    )
    time_rounds(spell.duration, rounds_per_minute=rounds_per_minute, where=f"{where}, duration", allow_second=False)
    if spell.effect == "area" and spell.radius < 0:
        raise MagicError(f"{where}: an area's radius must be 0 or more hexes, not {spell.radius}")
    if spell.effect == "heal" and spell.heal_levels < 1:
        raise MagicError(f"{where}: a heal must lower a wound by at least 1 level (heal_levels)")
    if not -3 <= spell.light <= 0:
        raise MagicError(f"{where}: light is a bad-light penalty of table 7, -1 to -3, not {spell.light}")
    return spell


def load_catalogue(path: Path = DATA_FILE) -> Mapping[str, Spell]:
    """Read a spell catalogue file in the format of ``data/spells.toml`` (FTC 8), keyed by lower-case name.

    A GM's own file only needs ``[spell.<key>]`` tables; the rules' numbers come from the shipped file.
    """
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MagicError(f"cannot read the spell catalogue {path}: {exc}; fix the file's TOML") from exc
    per_minute = int(raw.get("rounds_per_minute", catalogue().rounds_per_minute))
    table = raw.get("spell", {})
    if not isinstance(table, dict):
        raise MagicError(f"{path}: spells are [spell.<key>] tables")
    out: dict[str, Spell] = {}
    for key, row in table.items():
        spell = _read_spell(str(key), row, per_minute)
        if spell.name.lower() in out:
            raise MagicError(f"{path}: two spells are named {spell.name!r}; give each spell its own name")
        out[spell.name.lower()] = spell
    return out


@cache
def catalogue() -> Catalogue:
    """The catalogue of ``data/spells.toml``, read once; a broken file raises ``MagicError`` saying so."""
    try:
        raw = read_table("spells.toml")
        per_minute = int(raw["rounds_per_minute"])
        range_hexes = {str(k): int(v) for k, v in raw["range_hexes"].items()}
        concentration = {str(k): parse_level(str(v)) for k, v in raw["concentration"].items()}
        recognition = {str(k): parse_level(str(v)) for k, v in raw["recognition"].items()}
    except (KeyError, ValueError) as exc:
        raise MagicError(
            f"cannot read the magic tables in {DATA_FILE}: {exc!r}; restore the file from the game's distribution"
        ) from exc
    spells: dict[str, Spell] = {}
    for key, row in raw.get("spell", {}).items():
        spell = _read_spell(str(key), row, per_minute)
        spells[spell.name.lower()] = spell
    return Catalogue(spells, range_hexes, per_minute, concentration, recognition)


def spells() -> tuple[Spell, ...]:
    """Every spell of ``data/spells.toml``, in the file's order (FTC 8)."""
    return tuple(catalogue().spells.values())


def spell(name: str) -> Spell:
    """A spell by name or key, case-insensitively; an unknown name raises ``MagicError`` naming near matches."""
    wanted = name.strip().lower()
    known = catalogue().spells
    if wanted in known:
        return known[wanted]
    for candidate in known.values():
        if candidate.key.lower() == wanted.replace(" ", "_"):
            return candidate
    names = [s.name for s in known.values()]
    close = close_matches(name, names, 3)
    hint = f"did you mean {', '.join(close)}?" if close else f"known spells: {', '.join(names)}"
    raise MagicError(f"there is no spell named {name!r}; {hint} (a GM adds spells to {DATA_FILE.name})")
