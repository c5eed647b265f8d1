"""Events of the rule options that act before and around the blow (docs/rulings.md "Rule options"): a side's
group roll (*Fudge* 4.34), the Speed contest (*Fudge* 4.36), a stun (*Fudge* 4.62). Each is emitted only while
its option is on, so a battle under FTC as written logs (and digests) exactly as before. Re-exported by
``game.engine.events``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.engine.event_base import Event, faces_text, name_of
from game.engine.ladder import level_name


@dataclass(frozen=True)
class GroupRoll(Event):
    """*Fudge* 4.34: the NPC pawns of a side share one roll (2dF, or 4dF under ``group_4df``) for the round, or
    for one free-attack exchange; each member's ``CombatRoll`` then carries it with source ``"npc_group"``."""

    kind: ClassVar[str] = "group_roll"
    side: str
    faces: tuple[int, ...]
    members: tuple[str, ...]
    side_name: str = ""

    @property
    def figures(self) -> tuple[str, ...]:
        return self.members

    def text(self, names: dict[str, str] | None = None) -> str:
        who = self.side_name or self.side
        pawns = f"{len(self.members)} NPC{'s' if len(self.members) != 1 else ''}"
        return f"{who} roll once for {pawns}: {faces_text(self.faces)} = {sum(self.faces):+d} (Fudge 4.34)"


@dataclass(frozen=True)
class SpeedContest(Event):
    """*Fudge* 4.36: two fighters attacking each other roll Speed; the winner adds the difference to his skill
    against the other this round (offence and defence); a tie gives nobody anything."""

    kind: ClassVar[str] = "speed_contest"
    first: str
    second: str
    first_faces: tuple[int, ...]
    first_result: int
    second_faces: tuple[int, ...]
    second_result: int
    winner: str | None
    bonus: int

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.first, self.second)

    def text(self, names: dict[str, str] | None = None) -> str:
        a, b = name_of(names, self.first), name_of(names, self.second)
        line = (
            f"Speed contest: {a} {faces_text(self.first_faces)} {level_name(self.first_result)} vs {b} "
            f"{faces_text(self.second_faces)} {level_name(self.second_result)}"
        )
        if self.winner is None:
            return line + " — a tie: no bonus (Fudge 4.36)"
        loser = b if self.winner == self.first else a
        return f"{line} — {name_of(names, self.winner)} +{self.bonus} to skill against {loser} (Fudge 4.36)"


@dataclass(frozen=True)
class Stunned(Event):
    """*Fudge* 4.62: a stunning blow's result, marked on the stun sheet instead of the wound sheet: "Stun" (no
    attack, no very defensive stance, −1 defence next round), "Very Stunned" (no attack, −2 to every roll for the
    next two rounds), "Knocked out" (out of the fight; no healing needed), or "" (a Scratch: nothing). ``level``:
    the wound the blow would have dealt after the Health roll (``health_faces``, ``health_result``: FTC 7.4's roll,
    made as for a wound) and the limb rule; ``rounds``: the rounds it hinders."""

    kind: ClassVar[str] = "stunned"
    figure: str
    level: str
    result: str
    rounds: tuple[int, ...] = ()
    health_faces: tuple[int, ...] = ()
    health_result: int = 0

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.figure,)

    def text(self, names: dict[str, str] | None = None) -> str:
        who = name_of(names, self.figure)
        health = (
            f"Health {faces_text(self.health_faces)} = {level_name(self.health_result)}; " if self.health_faces else ""
        )
        if not self.result:
            return f"{who}: {health}{self.level} on a stunning blow does nothing (Fudge 4.62)"
        if self.result == "Knocked out":
            return f"{who}: {health}{self.level} → knocked out: out of the fight, no healing needed (Fudge 4.62)"
        when = " and ".join(str(r) for r in self.rounds)
        what = "no attack and −1 defence" if self.result == "Stun" else "no attack and −2 to every roll"
        return (
            f"{who}: {health}{self.level} → {self.result}: {what} in round"
            f"{'s' if len(self.rounds) > 1 else ''} {when} (Fudge 4.62)"
        )


__all__ = ["GroupRoll", "SpeedContest", "Stunned"]
