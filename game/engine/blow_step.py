"""One step of a blow's way as the log records it (``game.engine.blow``; ``events.AttackResolved.steps`` and
``events.Wounded.steps``)."""

from __future__ import annotations

from dataclasses import dataclass

_SYMBOLS = {-1: "-", 0: "0", 1: "+"}


@dataclass(frozen=True)
class BlowStep:
    """One step of a blow's way that changed its number or its level (``game.engine.blow``): the ``rule`` that
    made it ("Fudge 4.61"), ``what`` it was in a few words ("damage roll, limited to +2"), the dice it rolled
    (none for a step without dice), the value ``before`` and ``after`` it ("2" -> "4", "Near Death" ->
    "Incapacitated")."""

    rule: str
    what: str
    faces: tuple[int, ...]
    before: str
    after: str

    def text(self) -> str:
        """The step as the log says it: "damage roll [+ + 0 +] = +3, limited to +2 (Fudge 4.61): 2 → 4"."""
        if not self.faces:
            dice = ""
        elif max(self.faces) <= 1:  # Fudge dice
            dice = " [" + " ".join(_SYMBOLS[f] for f in self.faces) + f"] = {sum(self.faces):+d}"
        else:  # six-sided dice
            dice = " [" + " ".join(str(f) for f in self.faces) + "]"
        return f"{self.what}{dice} ({self.rule}): {self.before} → {self.after}"


__all__ = ["BlowStep"]
