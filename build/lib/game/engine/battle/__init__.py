"""The battle: rounds of initiative, movement and attack phases as a state machine (FTC 3–7).

``Battle`` holds the state; ``legal_actions(battle)`` says who must decide now, why, and what they may
do; ``apply(battle, action, seat)`` checks that the seat may take the decision (``seats``), validates it
(raising ``IllegalAction`` with a sentence a player can read, and changing nothing) and returns the events
it caused. These two are the only door in; beside them ``game.engine.choices.choices`` spells out the
options of the open decision and ``game.engine.preview.preview`` the odds of an action before it is sent.

The package is the battle in rooms, one per part of the round:

- ``state``: the spine — the setup and figure types, the phase table (``PHASES``), the state itself
  (``BattleState``), the queries every part shares, the dice, and ``apply``'s dispatch;
- ``initiative``: the start of a round and its initiative order (FTC 3, 4);
- ``movement_phase``: the movement phase, zone-of-control escapes and free attacks (FTC 5, 5.2, 5.3);
- ``declarations``: the attack phase's declarations, steps, advances, retreats and follows (FTC 6.1, 6.2);
- ``resolution``: the round's attacks resolved, the multiple-attackers rule, damage (FTC 6.3, 6.4, 7);
- ``ranged``: aiming missiles and stray shots (FTC 6.5, 6.5.3);
- ``spells``: magic in the battle (FTC 8);
- ``seats``: who may take which decision, checked at the door (*Fudge* 4.1);
- ``gm_seat``: the GM's decisions, conditions, set dice and reinforcements (*Fudge* 4.1).

``Battle`` is the state with every part mixed in. Phases are a table (``PHASES``): each names the
actions it allows. Checks run in one fixed order: is the battle over? is the action allowed in this
phase? is it this side's / figure's turn? then the rule itself. All dice come from the battle's own
``random.Random`` seeded from the setup's seed, so setup + seed + actions reproduce the whole battle
(``game.engine.record``).
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle.declarations import Declarations
from game.engine.battle.gm_seat import GMSeat
from game.engine.battle.initiative import Initiative
from game.engine.battle.movement_phase import MovementPhase
from game.engine.battle.ranged import RangedFire
from game.engine.battle.resolution import Resolution
from game.engine.battle.seats import Seat, check_seat, seat_of_gm, seat_taking
from game.engine.battle.spells import SpellsInBattle
from game.engine.battle.state import (
    ALWAYS_ALLOWED,
    CONTROLLERS,
    GM_REFEREE,
    OUT_OF_RANGE,
    PHASES,
    RULE_OPTION_HELP,
    STANDING_ORDERS,
    AttackTerms,
    BattleSetup,
    BattleState,
    Decision,
    Declaration,
    EffectOn,
    Figure,
    FigureSetup,
    IllegalAction,
    Reason,
    RuleOptions,
    SideSetup,
    effective_perception,
    front_arc_2,
)
from game.engine.generator import CountingRandom


class Battle(Initiative, MovementPhase, Declarations, Resolution, RangedFire, SpellsInBattle, GMSeat):
    """The whole state of one battle. Create it with ``Battle(setup)``; play it with ``apply``."""


def legal_actions(battle: Battle) -> Decision | None:
    """Who must decide now, why, and which kinds of action they may take (None: the battle is over)."""
    return battle.decision()


def apply(battle: Battle, action: act.Action, seat: Seat) -> list[ev.Event]:
    """Validate and carry out ``action`` taken from ``seat``: the seat first (``check_seat``: a side decides
    only for its own figures and yields, GM decisions come only from the GM's seat, *Fudge* 4.1), then the
    rules (FTC 3–8). Raises ``IllegalAction`` with a sentence and changes nothing when either refuses."""
    check_seat(battle, action, seat)
    return battle.apply(action)


__all__ = [
    "ALWAYS_ALLOWED",
    "CONTROLLERS",
    "GM_REFEREE",
    "OUT_OF_RANGE",
    "PHASES",
    "RULE_OPTION_HELP",
    "STANDING_ORDERS",
    "AttackTerms",
    "Battle",
    "BattleSetup",
    "BattleState",
    "CountingRandom",
    "Decision",
    "Declaration",
    "EffectOn",
    "Figure",
    "FigureSetup",
    "IllegalAction",
    "Reason",
    "RuleOptions",
    "Seat",
    "SideSetup",
    "apply",
    "check_seat",
    "effective_perception",
    "front_arc_2",
    "legal_actions",
    "seat_of_gm",
    "seat_taking",
]
