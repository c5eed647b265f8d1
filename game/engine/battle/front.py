"""``Battle``: the front of one battle, over its state and its parts (FTC 3-8; docs/architecture.md).

``Battle(setup)`` opens the battle (wounds carried from an earlier battle, then the first round);
``apply`` takes one decision through the door (battle over? allowed in this phase? then its handler in
``phases.HANDLERS``); ``decision`` says who decides now. Every other method is a question a screen, a
computer player or the odds preview asks, answered by the part that rules it: the front holds no rule of
its own.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.battle import (
    attack_phase,
    blows,
    declarations,
    dice,
    effects,
    flow,
    gm_decisions,
    gm_seat,
    movement_phase,
    spell_reach,
    spells,
    zones,
)
from game.engine.battle.phases import HANDLERS, PHASES
from game.engine.battle.state import (
    ALWAYS_ALLOWED,
    AttackTerms,
    BattleSetup,
    BattleState,
    Decision,
    EffectOn,
    Figure,
    IllegalAction,
)
from game.engine.characters import Character
from game.engine.combat import Modifier, Stance
from game.engine.equipment import Weapon
from game.engine.hexgrid import Hex
from game.engine.movement import Ground, Reach
from game.engine.zoc import EscapeLevels


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
        pending = movement_phase.pending_decision(self)
        if pending is not None:
            return pending
        decide = self.phases[self.phase].decide
        return decide(self) if decide is not None else None

    def apply(self, action: act.Action) -> list[ev.Event]:
        """Validate and carry out one decision; returns the events it caused. Checks run in one fixed order:
        the battle is not over, the phase allows the decision (a GM's in any phase), then its handler
        checks the turn and the rule (docs/architecture.md "Phases are a table"). An illegal decision raises
        ``IllegalAction`` and changes nothing."""
        if self.over:
            raise IllegalAction("The battle is over.")
        kind = action.kind
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

    def watch_set_rolls(self, watcher: dice.SetRollWatcher) -> None:
        """Call ``watcher`` with the faces of every roll made with faces the GM set by hand, as it is made
        (*Fudge* 4.1; a networked table sends such a roll to other seats as the draws that roll it)."""
        dice.watch_set_rolls(self, watcher)

    # ------------------------------------------------------------------ the GM's seat
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

    def gm_modifiers_on(self, fid: str) -> tuple[gm.SituationalModifier, ...]:
        """*Fudge* 4.1: the GM's situational modifiers counting for a figure this round (its token's badge)."""
        return gm_seat.modifiers_on(self, fid)

    def gm_terms(self, fig: Figure) -> tuple[Modifier, ...]:
        """*Fudge* 4.1: the GM's modifiers on a figure's offence, defence and escape rolls this round, named."""
        return gm_seat.terms(self, fig)

    def light_at(self, h: Hex) -> int:
        """FTC table 7: bad light on a hex: the map's (Tiled ``light``) or the GM's condition, the worse."""
        return gm_seat.light_at(self, h)

    def footing_at(self, h: Hex) -> int:
        """FTC table 7: insecure footing on a hex: the map's (Tiled ``footing``) or the GM's, the worse."""
        return gm_seat.footing_at(self, h)

    def gm_between_rounds(self) -> bool:
        """Whether the GM may edit, add or remove figures now ("between rounds": the movement phase before
        any figure has moved or held this round)."""
        return gm_decisions.between_rounds(self)

    def gm_free_for(self, character: Character, h: Hex, facing: int) -> bool:
        """FTC 5: whether a reinforcement of this character may stand on ``h`` facing ``facing``: every hex
        of its footprint on the map, passable for it and empty (the AddFigure check, for the GM's screen)."""
        return gm_decisions.free_for(self, character, h, facing)

    # ------------------------------------------------------------------ movement (FTC 5)
    def zone(self, fig: Figure) -> frozenset[Hex]:
        """FTC 5.2: the hexes in front of a figure that can act (none for one that cannot, or is held by a
        spell; docs/rulings.md "Zone of control")."""
        return zones.zone(self, fig)

    def holding_area(self, fig: Figure) -> frozenset[Hex]:
        """The hexes a figure may stop a mover from leaving (FTC 5.2): its zone and its own hexes."""
        return zones.holding_area(self, fig)

    def stopper_zones(self, mover: Figure) -> dict[Hex, frozenset[str]]:
        """Each hex -> ids of the enemies who would (or might) stop ``mover`` there (FTC 5.2)."""
        return dict(zones.stopper_zones(self, mover))

    def movement_allowance_of(self, fig: Figure, posture: str | None = None) -> int:
        """FTC 5, 5.1.1: hexes this round before terrain (posture — the figure's own, or the one it is
        about to take — and encumbrance included)."""
        return movement_phase.allowance_of(self, fig, posture)

    def reach_for(self, fid: str, *, allowance: int | None = None, posture: str | None = None) -> Reach:
        """Reachable hexes and cheapest paths for a figure now (docs/architecture.md "One source of
        legality"); ``posture``: as if it first dropped to crawling / prone or stood up (FTC 5)."""
        return movement_phase.reach_for(self, fid, allowance=allowance, posture=posture)

    def ground_for(self, fig: Figure) -> Ground:
        """What ``fig``'s move is searched and priced over now (FTC 5-5.3; ``movement_phase.ground_for``)."""
        return movement_phase.ground_for(self, fig)

    def failed_escape(self) -> tuple[str, tuple[str, ...]] | None:
        """FTC 5.3: while a mover whose escape failed decides whether to run, its id and the stoppers who won
        the contest (each gets a free attack if it runs); None otherwise."""
        return movement_phase.failed_escape(self)

    def escape_levels(self, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
        """FTC 5.3: the escape contest's levels with their named modifiers, the GM's included (the contest
        and the odds shown on screen both come from here)."""
        return movement_phase.escape_levels(self, fig, stoppers)

    # ------------------------------------------------------------------ declarations (FTC 6.1, 6.2)
    def declaring_order(self) -> tuple[str, ...]:
        """The figures still to declare in this attack phase, in the order they declare (FTC 6.1: lowest
        initiative first); empty outside the declarations."""
        return declarations.to_declare(self) if self.phase == "attack" else ()

    def targets_for(
        self, fid: str, weapon: Weapon | None = None, *, positions: Sequence[tuple[Hex, int]] | None = None
    ) -> list[str]:
        """Figures this figure may attack with a weapon now (FTC 6.2: in reach at any point along either
        figure's attack-phase movement; ranged: in range with an unblocked line of fire)."""
        return declarations.targets_for(self, fid, weapon, positions=positions)

    def melee_attackers_on(self, fid: str) -> list[str]:
        """Figures that have declared a melee attack on this figure this round so far (FTC 6.1; a touch
        spell's caster too, FTC 8.3), counted as the round's resolution counts them."""
        return declarations.melee_attackers_on(self, fid)

    def can_attack(
        self, fid: str, target: str, weapon: Weapon | None = None, *, positions: Sequence[tuple[Hex, int]] | None = None
    ) -> bool:
        """Whether this figure may attack ``target`` with a weapon now: ``targets_for``'s test of one enemy (FTC
        6.2: in reach at any point along either figure's attack-phase movement, ``positions`` standing for a
        planned advance; FTC 6.5: in range with an unblocked line of fire)."""
        return declarations.can_attack(self, fid, target, weapon, positions=positions)

    def threats_to(self, fid: str, *, known: Collection[str] | None = None) -> list[Figure]:
        """Enemies attacking this figure: those who declared attacks on it, and those who have it in melee
        reach now (FTC 6.2's "attackers" for a retreat). ``known``: the figures whose declarations may be
        counted (those a player has seen, *Fudge* 4.32); the others are taken as not declared yet."""
        return declarations.threats_to(self, fid, known=known)

    def retreat_hexes(self, fid: str) -> list[Hex]:
        """FTC 6.2: adjacent free hexes farther from every attacker (zones of control do not apply)."""
        return declarations.retreat_hexes(self, fid)

    def advance_positions(self, fid: str, steps: Sequence[Hex], facing: int | None = None) -> list[tuple[Hex, int]]:
        """FTC 6.2: the (hex, facing) a figure takes at each step of an advance, checked (``IllegalAction``
        naming the first step that is not allowed)."""
        return declarations.advance_positions(self, fid, steps, facing)

    def declare_options(self, fid: str) -> dict[str, object]:
        """What a figure may declare now: weapons with their targets, stances, retreat hexes, missile firers
        and casters it may dodge, its spells (for the screen and the computer players)."""
        return attack_phase.declare_options(self, fid)

    # ------------------------------------------------------------------ attacks (FTC 6.3-7)
    def attack_terms(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        stance: Stance,
        *,
        advance_used: int = 0,
        dodges: int = 0,
        positions: Sequence[tuple[Hex, int]] | None = None,
        phase_start: Hex | None = None,
        firer_defending: bool = False,
    ) -> AttackTerms:
        """The named offence modifiers and the absolute difficulty of one attack, and for a missile its range
        band and line of fire (FTC 6.4, 6.4.1, 6.5, tables 4 and 7; ``blows.attack_terms``)."""
        return blows.attack_terms(
            self,
            att,
            tgt,
            weapon,
            stance,
            advance_used=advance_used,
            dodges=dodges,
            positions=positions,
            phase_start=phase_start,
            firer_defending=firer_defending,
        )

    def dodge_terms(self, fid: str, stance: Stance, bonus: Modifier | None = None) -> tuple[Modifier, ...]:
        """The modifiers of a figure dodging a missile or a spell with Agility (FTC 6.5.2;
        ``blows.dodge_terms``)."""
        return blows.dodge_terms(self, fid, stance, bonus)

    def parrying_weapon(self, fid: str) -> Weapon:
        """The weapon a figure defends with in melee (FTC 6.3: its first melee weapon, or its fist), also
        when it shoots (FTC 6.1: a firer attacked in melee parries with it)."""
        return blows.parrying_weapon(self, fid)

    def melee_defence(
        self, defender: str, attacker: str, weapon: Weapon, stance: str = "neutral"
    ) -> tuple[int, tuple[Modifier, ...]]:
        """The defender's melee defence against ``attacker``'s ``weapon`` with a roll of 0, had it declared
        ``stance`` (FTC 6.3, 6.4.1, its shield counted), as the round's resolution computes it."""
        return blows.melee_defence(self, defender, attacker, weapon, stance)

    # ------------------------------------------------------------------ magic (FTC 8)
    def casting_of(self, fid: str) -> magic.Concentration | None:
        """The spell of several rounds this figure is concentrating on, if any (FTC 8.1)."""
        return spells.casting_of(self, fid)

    def effects(self) -> list[magic.ActiveEffect]:
        """Every lasting spell effect now held by the battle (FTC 8.1), on figures and areas."""
        return effects.all_effects(self)

    def effects_on(self, fid: str) -> list[EffectOn]:
        """The lasting effects on a figure now, areas it stands in included (FTC 8.1), with rounds left."""
        return effects.effects_on(self, fid)

    def known_spells(self, fid: str) -> list[magic.Spell]:
        """The catalogue spells a figure knows (roster key ``spells``)."""
        return spell_reach.known_spells(self, fid)

    def spell_targets(self, fid: str, spell_name: str) -> list[str]:
        """Figures a figure may cast a known spell on now (FTC 8.3 ranges; an area spell: figures whose hex
        it may be centred on)."""
        return spells.spell_targets(self, fid, spell_name)

    def area_hex_on(self, fid: str, spell_name: str, target: str) -> Hex | None:
        """The hex to centre a known area spell on so that it covers ``target`` (FTC 8.3), if any."""
        return spell_reach.area_hex_on(self, fid, spell_name, target)

    def spell_hexes(self, fid: str, spell_name: str) -> list[Hex]:
        """Hexes an area spell may be centred on now: within its range and in sight (FTC 8.3)."""
        return spell_reach.spell_hexes(self, fid, spell_name)

    def spell_reaches_hex(self, fid: str, spell_name: str, h: Hex) -> bool:
        """FTC 8.3: whether a figure's spell would reach the hex ``h`` now (for the screen's highlight)."""
        return spell_reach.spell_reaches_hex(self, fid, spell_name, h)

    def spell_terms(
        self,
        caster: str,
        spell_name: str,
        target: str | Hex | None = None,
        *,
        stance: Stance = Stance.NEUTRAL,
        dodges: int = 0,
        firer_defending: bool = False,
    ) -> AttackTerms:
        """The named modifiers and the difficulty of a casting roll (FTC 8.1, 8.3; ``spell_reach``)."""
        return spell_reach.spell_terms(
            self, caster, spell_name, target, stance=stance, dodges=dodges, firer_defending=firer_defending
        )

    def spell_dodge_terms(self, target: str, spell_name: str, stance: Stance) -> tuple[Modifier, ...]:
        """The modifiers of a target dodging a spell cast at it from a distance (FTC 8.3, 6.5.2)."""
        return spell_reach.spell_dodge_terms(self, target, spell_name, stance)

    def resistance_terms(self, target: str, spell_name: str) -> tuple[int, tuple[Modifier, ...]] | None:
        """A target's resistance to a resisted spell before its 4dF (FTC 8); None when it is not resisted."""
        return spell_reach.resistance_terms(self, target, spell_name)

    def concentration_terms(self, fid: str) -> tuple[int, tuple[Modifier, ...]]:
        """A concentrating caster's Will and the modifiers on his roll to keep concentrating (FTC 8.1)."""
        return spell_reach.concentration_terms(self, fid)

    def recognised_by(self, fid: str) -> dict[str, str]:
        """Casters whose spell this figure has recognised (FTC 8.2), with the spell's name."""
        return spells.recognised_by(self, fid)

    def casting_at(self, fid: str) -> dict[str, str | None]:
        """Enemy casters casting at this figure now: the spell's name when the figure recognised it (FTC
        8.2), None when it only sees that something is being cast."""
        return spells.casting_at(self, fid)

    def recognition_terms(self, fid: str) -> tuple[Modifier, ...]:
        """The modifiers of a figure's Thaumatology roll to recognise a spell (FTC 8.2)."""
        return spell_reach.recognition_terms(self, fid)

    def recognition_view(self, fid: str, caster: str) -> tuple[bool, bool, bool]:
        """What a figure makes out of a caster for recognising his spell (FTC 8.2): (sees, hears, obscured)."""
        return spell_reach.recognition_view(self, fid, caster)
