"""The base of every event of a battle and the helpers their log sentences share (``game.engine.events``).

The events live in ``game.engine.events``; a rule option's package that adds events of its own defines them in
its own module on this base (``Event``, ``json_without_empty`` …), and ``game.engine.events`` re-exports them,
so neither module imports the other's and ``events.py`` stays readable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from game.engine import codec
from game.engine.blow_step import BlowStep

Mods = tuple[tuple[str, int], ...]


def faces_text(faces: tuple[int, ...]) -> str:
    """Fudge dice as the log shows them: "[+ 0 - +]"."""
    return "[" + " ".join({-1: "-", 0: "0", 1: "+"}[f] for f in faces) + "]"


def mods_text(mods: Mods) -> str:
    """Named modifiers as the log lists them: " +1 defensive stance -1 Very Hurt" (zeros left out)."""
    return "".join(f" {v:+d} {n}" for n, v in mods if v)


@dataclass(frozen=True)
class Event:
    """Base class of all events."""

    kind: ClassVar[str] = "event"
    concerns: ClassVar[tuple[str, ...]] = ()
    """The fields holding the ids of the figures this event concerns, in order (``figures``); an event whose
    figures are not simply those fields says so in its own ``figures``."""
    left_out_when_empty: ClassVar[tuple[str, ...]] = ()
    """The fields ``to_json`` leaves out when they are empty (``json_without_empty``)."""

    @property
    def figures(self) -> tuple[str, ...]:
        """Ids of the figures this event concerns."""
        return tuple(getattr(self, name) for name in self.concerns)

    def text(self, names: dict[str, str] | None = None) -> str:
        """A sentence for the combat log; ``names`` maps figure ids to display names."""
        return self.kind

    def to_json(self) -> dict[str, Any]:
        """The event as plain data (hexes as [q, r]), ``kind`` first; no field of ``left_out_when_empty`` that is
        empty."""
        return json_without_empty(self, *self.left_out_when_empty)

    def digest_json(self) -> dict[str, Any]:
        """What of the event the decision's digest holds (``events_digest``): all of ``to_json``."""
        return self.to_json()


@dataclass(frozen=True)
class FigureEvent(Event):
    """An event about one figure, named first in its ``figure`` field: the figure it concerns."""

    concerns: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str


def json_without_empty(event: Event, *names: str) -> dict[str, Any]:
    """The event as plain data (hexes as [q, r]), ``kind`` first, leaving out each field of ``names`` when it is
    empty, so an event that gained that field keeps the digest of the battles saved before it
    (docs/architecture.md "A battle is its log": old saves replay unchanged)."""
    out = {"kind": event.kind, **codec.to_data(event)}
    for name in names:
        if not out[name]:
            del out[name]
    return out


def steps_text(steps: tuple[BlowStep, ...]) -> str:
    """The steps of a blow's way as the log appends them ("; damage roll … : 2 → 4")."""
    return "".join(f"; {step.text()}" for step in steps)


def name_of(names: dict[str, str] | None, fid: str) -> str:
    """A figure's display name (its id when ``names`` does not know it)."""
    return (names or {}).get(fid, fid)


__all__ = ["Event", "FigureEvent", "Mods", "faces_text", "json_without_empty", "mods_text", "name_of", "steps_text"]
