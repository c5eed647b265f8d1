"""``Battle``: the front of one battle, over its state and its parts (FTC 3-8; docs/architecture.md).

``Battle(setup)`` opens the battle (wounds carried from an earlier battle, then the first round);
``apply`` takes one decision through the door (battle over? allowed in this phase? then its handler in
``phases.HANDLERS``); ``decision`` says who decides now. Every other method is a question a screen, a
computer player or the odds preview asks, answered by the part that rules it: the front holds no rule of
its own.
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import (
    attack_phase,
    blow_options,
    blows,
    declarations,
    dice,
    flow,
    gm_decisions,
    gm_seat,
    heroes,
    movement_phase,
    spell_reach,
    spells,
    zones,
)
from game.engine.battle import effects as lasting
from game.engine.battle.phases import HANDLERS, PHASES
from game.engine.battle.state import (
    ALWAYS_ALLOWED,
    BattleSetup,
    BattleState,
    Decision,
    IllegalAction,
)


class Battle(BattleState):
    """The whole state of one battle. Create it with ``Battle(setup)``; play it with ``apply``."""

    BATTLE_ROLLS = gm_seat.BATTLE_ROLLS
    """The rolls a battle makes, so the ones a GM may set by hand (healing is between battles)."""

    def __init__(self, setup: BattleSetup) -> None:
        super().__init__(setup, PHASES)
        for fig in self.figures.values():
            self.events.extend(self.carried_wounds(fig))
        self.events.extend(flow.enter(self, "initiative"))
        self.initial_digest = ev.events_digest(self.events)

    # ------------------------------------------------------------------ the door
    def decision(self) -> Decision | None:
        """Who must decide now, why, and what they may do (None when the battle is over)."""
        if self.over:
            return None
        asked = heroes.pending_decision(self)  # Fudge 4.64: before anything else
        if asked is not None:
            return asked
        pending = movement_phase.pending_decision(self)
        if pending is not None:
            return pending
        decide = self.phases[self.phase].decide
        return decide(self) if decide is not None else None

    def apply(self, action: act.Action) -> list[ev.Event]:
        """Validate and carry out one decision; returns the events it caused. Checks run in one fixed order:
        the battle is not over, no hero's Fudge Point question waits (*Fudge* 4.64), the phase allows the
        decision (a GM's in any phase), then its handler checks the turn and the rule (docs/architecture.md
        "Phases are a table"). An illegal decision raises ``IllegalAction`` and changes nothing."""
        if self.over:
            raise IllegalAction("The battle is over.")
        kind = action.kind
        asked = heroes.pending_decision(self)  # Fudge 4.64: a hero's Fudge Point question comes first
        if asked is not None and not isinstance(action, gm.GMAction) and kind not in ALWAYS_ALLOWED:
            raise IllegalAction(f"First this: {asked.prompt}")
        if (
            not isinstance(action, gm.GMAction)
            and kind not in self.phases[self.phase].actions
            and kind not in ALWAYS_ALLOWED
        ):
            raise IllegalAction(f"That cannot be done in the {self.phase} phase.")
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"A battle takes no {kind!r} decision.")

        draws_before = self.rng.draws
        dice.decision_begins(self)
        new_events = handler(self, action)
        dice.decision_applied(self, len(self.events), new_events)
        self.events.extend(new_events)
        self.log.append(action)
        self.rolled_at.append(self.rng.draws != draws_before)
        self.digests.append(ev.events_digest(new_events))
        return new_events

    # ------------------------------------------------------------------ the GM's seat (Fudge 4.1)
    @property
    def gm_state(self) -> gm.GMState:
        """*Fudge* 4.1: the GM's standing modifiers and conditions."""
        return gm_seat.conditions(self)

    @property
    def gm_dice(self) -> list[gm.SetDie]:
        """The rolls the GM set by hand and not yet used (``gm.SetDie``), in the order set."""
        return dice.set_dice(self)

    @property
    def set_rolls(self) -> dict[int, gm.SetDie]:
        """The rolls made with faces the GM set by hand: index in ``events`` -> the GM's ``SetDie`` (the GM's
        own view marks them; the log shows them as any roll)."""
        return dice.set_rolls(self)

    @property
    def gm_escape(self) -> dict[str, bool]:
        """Escapes the GM decided by hand for this round: figure id -> escaped (FTC 5.3 overridden)."""
        return gm_seat.escapes(self)

    # ------------------------------------------------------------------ the battle's questions
    # Each is the function of the part that rules it, bound as a method (the battle is its first argument):
    # the front writes no signature twice and holds no rule of its own.
    watch_set_rolls = dice.watch_set_rolls
    gm_modifiers_on = gm_seat.modifiers_on
    gm_terms = gm_seat.terms
    light_at = gm_seat.light_at
    footing_at = gm_seat.footing_at
    gm_between_rounds = gm_decisions.between_rounds
    settable_rolls = gm_seat.settable_rolls
    roll_dice = gm_seat.roll_dice
    gm_free_for = gm_decisions.free_for
    # movement (FTC 5, 5.2, 5.3)
    zone = zones.zone
    holding_area = zones.holding_area
    stopper_zones = zones.stopper_zones
    movement_allowance_of = movement_phase.allowance_of
    reach_for = movement_phase.reach_for
    ground_for = movement_phase.ground_for
    failed_escape = movement_phase.failed_escape
    escape_levels = movement_phase.escape_levels
    # declarations (FTC 6.1, 6.2)
    declaring_order = declarations.declaring_order
    targets_for = declarations.targets_for
    can_attack = declarations.can_attack
    melee_attackers_on = declarations.melee_attackers_on
    threats_to = declarations.threats_to
    retreat_hexes = declarations.retreat_hexes
    advance_positions = declarations.advance_positions
    declare_options = attack_phase.declare_options
    stun_hindrance = blow_options.hindrance
    ignorable = blow_options.ignorable
    # attacks (FTC 6.3-7)
    attack_terms = blows.attack_terms
    dodge_terms = blows.dodge_terms
    parrying_weapon = blows.parrying_weapon
    melee_defence = blows.melee_defence
    # heroes and wounds (Fudge 4.51, 4.52, 4.64)
    defender_of = heroes.defender_of
    fudge_waiting = heroes.waiting
    # magic (FTC 8)
    casting_of = spells.casting_of
    spell_targets = spells.spell_targets
    recognised_by = spells.recognised_by
    casting_at = spells.casting_at
    effects = lasting.all_effects
    effects_on = lasting.effects_on
    speed_of = lasting.speed_of
    known_spells = spell_reach.known_spells
    area_hex_on = spell_reach.area_hex_on
    spell_hexes = spell_reach.spell_hexes
    spell_reaches_hex = spell_reach.spell_reaches_hex
    spell_terms = spell_reach.spell_terms
    spell_dodge_terms = spell_reach.spell_dodge_terms
    resistance_terms = spell_reach.resistance_terms
    concentration_terms = spell_reach.concentration_terms
    recognition_terms = spell_reach.recognition_terms
    recognition_view = spell_reach.recognition_view
