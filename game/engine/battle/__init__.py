"""The battle: rounds of initiative, movement and attack phases as a state machine (FTC 3–7).

``Battle`` holds the state; ``legal_actions(battle)`` says who must decide now, why, and what they may
do; ``apply(battle, action, seat)`` checks that the seat may take the decision (``seats``), validates it
(raising ``IllegalAction`` with a sentence a player can read, and changing nothing) and returns the events
it caused. These two are the only door in; beside them ``game.engine.choices.choices`` spells out the
options of the open decision and ``game.engine.preview.preview`` the odds of an action before it is sent.

The package is the battle in parts, each a module of functions over the piece of state it owns
(``state.PIECES``), layered so that a part imports only the parts below it:

- ``state``: the spine — the setup and figure types, the battle's state (``BattleState``) with each part's
  piece, and the queries every part shares;
- ``flow``: the round's course through the phase table (a phase's begin, step and end), and its end;
- ``dice``: every roll, the dice the GM set by hand, each figure's one combat roll of the round;
- ``gm_seat``: what the GM has laid on the battle — modifiers, conditions, escapes decided (*Fudge* 4.1);
- ``effects``: lasting spell effects and what they change (FTC 8.1);
- ``reach``: melee reach, a missile's aim and range, the weapon in use (FTC 6.2, 6.5, 9.1);
- ``zones``: zones of control, the hexes from which a figure may stop a mover (FTC 5.2, 5.3);
- ``blows``: one attack, from its terms to its wound (FTC 6.3, 6.4, 6.6, 7);
- ``declarations``: the attack phase's declarations, advances, retreats and follows (FTC 6.1, 6.2);
- ``ranged``: stray shots (FTC 6.5.3);
- ``spell_reach``, ``spells``: where spells reach and what their rolls are made of; casting,
  concentration and recognition (FTC 8);
- ``movement_phase``: the movement phase, zone-of-control escapes and free attacks (FTC 5, 5.2, 5.3);
- ``resolution``: the round's attacks resolved, the multiple-attackers rule, damage (FTC 6.3, 6.4, 7);
- ``attack_phase``: the attack phase's decisions and course (FTC 6);
- ``initiative``: the start of a round and its initiative order (FTC 3, 4);
- ``gm_decisions``: the GM's decisions (*Fudge* 4.1);
- ``phases``: the phase table (``PHASES``: each phase's actions and hooks) and the handler table
  (``HANDLERS``: each kind of decision and its handler);
- ``front``: ``Battle``, the thin front with the battle's public questions;
- ``seats``: who may take which decision, checked at the door (*Fudge* 4.1).

Checks run in one fixed order: is the battle over? does a hero's Fudge Point question wait (*Fudge* 4.64:
it comes before anything else)? is the action allowed in this phase? is it this side's / figure's turn? then
the rule itself. All dice come from the battle's own generator seeded from
the setup's seed, so setup + seed + actions reproduce the whole battle (``game.engine.record``).
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle.front import Battle
from game.engine.battle.phases import HANDLERS, PHASES
from game.engine.battle.seats import Seat, check_seat, seat_of_gm, seat_taking
from game.engine.battle.state import (
    ALWAYS_ALLOWED,
    CONTROLLERS,
    GM_REFEREE,
    OUT_OF_RANGE,
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
    Phase,
    Reason,
    RuleOptions,
    SideSetup,
    effective_perception,
    front_arc_2,
)
from game.engine.generator import CountingRandom


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
    "HANDLERS",
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
    "Phase",
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
