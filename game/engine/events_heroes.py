"""The events of heroes and wounds (*Fudge* 4.51, 4.64; re-exported by ``game.engine.events``): a Fudge Point
spent or kept, a standing order for spending one, a Will roll against a wound's penalty."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.engine.event_base import FigureEvent, faces_text, name_of
from game.engine.ladder import level_name


def _points(n: int) -> str:
    return f"{n} Fudge Point{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class FudgePointSpent(FigureEvent):
    """*Fudge* 4.64: a hero spends a Fudge Point and a deadly wound (``before``: the box it marked, or "beyond the
    track") becomes merely serious (``after``: "Incapacitated", or "not recorded" when that box is full); ``left``
    points remain; ``auto``: spent by the standing order "always", not on the player's word."""

    kind: ClassVar[str] = "fudge_point_spent"
    left: int
    before: str
    after: str
    auto: bool = False

    def text(self, names: dict[str, str] | None = None) -> str:
        return (
            f"{name_of(names, self.figure)} spends a Fudge Point (Fudge 4.64): {self.before} → {self.after} "
            f"({self.left} left)"
        )


@dataclass(frozen=True)
class FudgePointKept(FigureEvent):
    """*Fudge* 4.64: a hero's player keeps the Fudge Points; the deadly wound stands (``box``)."""

    kind: ClassVar[str] = "fudge_point_kept"
    box: str
    left: int

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{name_of(names, self.figure)} keeps {_points(self.left)}: {self.box} stands (Fudge 4.64)"


@dataclass(frozen=True)
class FudgePointOrderSet(FigureEvent):
    """*Fudge* 4.64: a hero's standing order for spending a Fudge Point: "always", "ask" or "never"."""

    kind: ClassVar[str] = "fudge_point_order_set"
    order: str

    def text(self, names: dict[str, str] | None = None) -> str:
        words = {
            "always": "spends a Fudge Point on a deadly wound at once",
            "ask": "is asked before a Fudge Point is spent",
            "never": "spends no Fudge Point",
        }
        return f"{name_of(names, self.figure)} {words.get(self.order, self.order)} (Fudge 4.64)"


@dataclass(frozen=True)
class WillAgainstPain(FigureEvent):
    """*Fudge* 4.51: a figure rolls Will as a wound starts to hurt (``level``: its new worst wound): the roll, the
    result, the wound's ``penalty`` and what the roll takes off it (``relief``), and whether an Incapacitated
    figure ``fights_on``."""

    kind: ClassVar[str] = "will_against_pain"
    level: str
    faces: tuple[int, ...]
    result: int
    penalty: int = 0
    relief: int = 0
    fights_on: bool = False

    def text(self, names: dict[str, str] | None = None) -> str:
        roll = f"Will {faces_text(self.faces)} = {level_name(self.result)}"
        if self.level == "Incapacitated":
            said = "fights on, Incapacitated" if self.fights_on else "stays down"
        elif self.relief and self.penalty + self.relief >= 0:
            said = f"no {self.level} penalty"
        elif self.relief:
            said = f"{self.level} penalty {self.penalty + self.relief:+d} instead of {self.penalty:+d}"
        else:
            said = f"the {self.level} penalty ({self.penalty:+d}) stands"
        return f"{name_of(names, self.figure)} fights the pain (Fudge 4.51): {roll} — {said}"


__all__ = ["FudgePointKept", "FudgePointOrderSet", "FudgePointSpent", "WillAgainstPain"]
