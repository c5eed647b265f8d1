"""The stun sheet of *Fudge* 4.62 (docs/rulings.md "Stun, knockout and pulled blows"): a figure's Stun and Very
Stunned results, kept apart from its wound sheet (our reading), and whether it was knocked out. The rules of the
stun itself are ``game.engine.stun``; the sheet lives here, below the blow's way, which reads it
(``blow_base.Target.stuns``).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.wounds import WoundLevel, damage_data

STUN = "Stun"
VERY_STUNNED = "Very Stunned"
KNOCKED_OUT = "Knocked out"
RESULTS: tuple[str, ...] = (STUN, VERY_STUNNED, KNOCKED_OUT)
"""The stun sheet's results, least to most severe (*Fudge* 4.62)."""

BOXES: tuple[int, ...] = tuple(int(n) for n in damage_data()["stun"]["boxes"])
"""How many Stun and Very Stunned results the stun sheet holds (``data/damage.toml`` ``[stun]``)."""

MARKS = {1: WoundLevel.HURT, 2: WoundLevel.VERY_HURT, 3: WoundLevel.INCAPACITATED}
"""A stun result as an ``odds.Outcome`` / ``Harm`` marks it (kind "stun"): Stun, Very Stunned, knocked out."""


def result_of(marked: WoundLevel | None) -> str | None:
    """The stun result a stunning blow's ``Harm.marked`` (or ``Outcome.marked``) stands for; None: no effect."""
    if marked is None:
        return None
    return RESULTS[min(int(marked), int(WoundLevel.INCAPACITATED)) - int(WoundLevel.HURT)]


def level_of(result: str) -> int:
    """A stun result's place on the sheet: 1 Stun, 2 Very Stunned, 3 knocked out."""
    return RESULTS.index(result) + 1


def stun_level(level: WoundLevel | None) -> int:
    """The stun a wound level makes (*Fudge* 4.62): 0 nothing (a Scratch), 1 Stun (Hurt), 2 Very Stunned (Very
    Hurt), 3 knocked out (Incapacitated or worse)."""
    if level is None or level <= WoundLevel.SCRATCH:
        return 0
    return min(int(level) - 1, 3)


@dataclass(frozen=True, slots=True)
class StunSheet:
    """A figure's stun sheet (*Fudge* 4.62; our reading: kept apart from the wound sheet): the Stun and Very
    Stunned results marked, and whether it was knocked out."""

    filled: tuple[int, ...] = (0,) * len(BOXES)
    knocked_out: bool = False

    def record(self, level: int) -> tuple[StunSheet, int]:
        """The sheet after a stun of ``level`` (1 Stun, 2 Very Stunned, 3 knockout) and the result it marks: its
        own box, else the next higher open one, else a knockout (3) — *Fudge* 4.57's roll-up on the stun sheet."""
        for i in range(level - 1, len(BOXES)):
            if self.filled[i] < BOXES[i]:
                filled = tuple(n + (j == i) for j, n in enumerate(self.filled))
                return StunSheet(filled, self.knocked_out), i + 1
        return StunSheet(self.filled, True), 3

    @property
    def label(self) -> str:
        """The sheet in words: "Knocked out", "Stun, Very Stunned", "" when nothing is marked."""
        if self.knocked_out:
            return KNOCKED_OUT
        return ", ".join(name for name, n in zip(RESULTS, self.filled, strict=False) for _ in range(n))


FRESH = StunSheet()
"""A stun sheet with nothing marked."""


__all__ = [
    "BOXES",
    "FRESH",
    "KNOCKED_OUT",
    "MARKS",
    "RESULTS",
    "STUN",
    "VERY_STUNNED",
    "StunSheet",
    "level_of",
    "result_of",
    "stun_level",
]
