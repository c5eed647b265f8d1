"""The two tables that join the battle's parts: the phases of the round with their hooks, and every kind of
decision with its handler (FTC 3; docs/architecture.md "Phases are a table").

A part never calls the part of a later phase: when its phase has run its course it asks ``flow``, which
reads ``PHASES``; ``apply`` hands each decision to its handler in ``HANDLERS``. This module imports every
part and is imported by none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import (
    attack_phase,
    declarations,
    flow,
    gm_decisions,
    heroes,
    initiative,
    movement_phase,
    resolution,
)
from game.engine.battle.state import BattleState, Decision, Hook, Phase


class DecidedPart(Protocol):
    """A part whose phase is decided figure by figure (FTC 5's movement, FTC 6's declarations): who decides now,
    what happens as its phase begins, and what follows each decision taken in it."""

    def decision(self, b: BattleState, /) -> Decision: ...

    def begin(self, b: BattleState, /) -> list[ev.Event]: ...

    def advance(self, b: BattleState, /) -> list[ev.Event]: ...


def decided(name: str, actions: tuple[str, ...], part: DecidedPart, *, next: str, on_end: Hook | None = None) -> Phase:
    """The phase a ``DecidedPart`` runs, allowing ``actions``, followed by ``next``."""
    return Phase(name, actions, decide=part.decision, on_begin=part.begin, step=part.advance, on_end=on_end, next=next)


PHASES: Mapping[str, Phase] = {
    # FTC 4: a new round, its initiative; nobody decides in it, so the movement phase follows at once
    "initiative": Phase("initiative", on_begin=initiative.begin_round, next="movement"),
    # FTC 5: figures move in initiative order, holding, interrupting, stopping each other
    "movement": decided(
        "movement",
        ("move", "hold", "pass_interrupt", "stop_choice", "escape_failed_choice"),
        movement_phase,
        next="attack",
    ),
    # FTC 6: declarations in reverse initiative order (a second move among them), then every attack at once
    "attack": decided(
        "attack",
        ("declare", "second_move", "follow_choice", "stop_choice", "escape_failed_choice"),
        attack_phase,
        on_end=resolution.resolve_round,
        next="round_end",
    ),
    # Fudge 4.64: the round's last word: a hero whose wound would be deadly may be asked whether to spend a Fudge
    # Point (heroes.pending_decision); nobody else decides, so with no question it ends at once
    "round_end": Phase("round_end", step=flow.end, next="initiative"),
    "over": Phase("over"),
}
"""The phases of a round, in order (``next``), each with the decisions it allows and its hooks."""

Handler = Callable[[BattleState, Any], list[ev.Event]]
"""A decision's handler: it checks the rule, carries the decision out and returns its events."""

HANDLERS: Mapping[type[act.Action], Handler] = {
    act.Move: movement_phase.move,
    act.Hold: movement_phase.hold,
    act.PassInterrupt: movement_phase.pass_interrupt,
    act.StopChoice: movement_phase.stop_choice,
    act.EscapeFailedChoice: movement_phase.escape_failed_choice,
    act.Declare: attack_phase.declare,
    act.SecondMove: attack_phase.second_move,
    act.FollowChoice: declarations.follow,
    act.SetStandingOrder: movement_phase.set_standing_order,
    act.SpendFudgePoint: heroes.spend,
    act.SetFudgePointOrder: heroes.set_order,
    act.Yield: flow.yield_battle,
    # the GM's decisions share the GM seat's checks, which hand each to its own handler
    **dict.fromkeys(gm_decisions.HANDLERS, gm_decisions.act_as_gm),
}
"""Every kind of decision a battle takes, by its type, and the part's function that handles it."""
