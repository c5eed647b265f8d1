"""The round's flow through the phase table (FTC 3; docs/architecture.md "Phases are a table").

A part never calls the part of the next phase itself: when its phase has run its course it asks the table
(``end``), which runs the phase's ``on_end`` and begins the next one (``enter``); after a decision taken in
a phase that another part started (a second move in the attack phase), it asks the table for the phase's
next ``step``. So the parts import only the parts below them, and the table (``phases``) joins them.
The battle's end (``check_over``, ``yield_battle``) is here too: it ends every phase.

While a hero waits for his player's word on a Fudge Point (*Fudge* 4.64, ``Figure.fudge_question``) the flow
holds: no step, no end of the battle, no phase that nobody decides in ending by itself; the answer moves it on.
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle.state import BattleState, IllegalAction


def enter(b: BattleState, name: str) -> list[ev.Event]:
    """Begin the phase ``name`` (FTC 3): it becomes the battle's phase and its ``on_begin`` runs; a phase
    in which nobody decides (the initiative) ends at once."""
    b.phase = name
    phase = b.phases[name]
    out = phase.on_begin(b) if phase.on_begin is not None else []
    if phase.decide is None and phase.next is not None and not b.over and not held(b):
        out.extend(end(b))
    return out


def held(b: BattleState) -> bool:
    """Whether a hero waits for his player's word on a Fudge Point (*Fudge* 4.64): the flow holds (module doc)."""
    return any(f.fudge_question is not None for f in b.figures.values())


def end(b: BattleState) -> list[ev.Event]:
    """The current phase has run its course: its ``on_end`` runs, then (the battle going on) the next
    phase begins."""
    phase = b.phases[b.phase]
    out = phase.on_end(b) if phase.on_end is not None else []
    if not b.over and phase.next is not None:
        out.extend(enter(b, phase.next))
    return out


def step(b: BattleState) -> list[ev.Event]:
    """After a decision: the current phase moves on (the next figure to decide, or its end), unless the flow
    holds for a Fudge Point question."""
    if held(b):
        return []
    hook = b.phases[b.phase].step
    return hook(b) if hook is not None else []


def check_over(b: BattleState, out: list[ev.Event]) -> bool:
    """The battle ends when at most one side has figures able to fight (FTC 3); the ``BattleEnded`` event
    is added to ``out``. True when the battle is over; asked again after a Fudge Point question (module doc)."""
    if b.over:
        return True
    if held(b):
        return False
    standing = [s for s in b.sides if any(f.side == s and f.can_act for f in b.figures.values())]
    if len(standing) <= 1:
        finish(b, standing[0] if standing else None)
        reason = f"{b.sides[b.winner].name} wins" if b.winner else "no side is left standing"
        out.append(ev.BattleEnded(b.winner, reason))
        return True
    return False


def finish(b: BattleState, winner: str | None) -> None:
    """The battle is over, won by ``winner`` (None: nobody)."""
    b.over = True
    b.phase = "over"
    b.winner = winner


def yield_battle(b: BattleState, a: act.Yield) -> list[ev.Event]:
    """A side yields: the battle ends, won by the one side left able to fight, if there is one."""
    if a.side not in b.sides:
        raise IllegalAction(f"There is no side {a.side!r}.")
    others = [s for s in b.sides if s != a.side and b.able(s)]
    finish(b, others[0] if len(others) == 1 else None)
    return [ev.BattleEnded(b.winner, f"{b.sides[a.side].name} yields")]
