"""The spine of the battle: its types, the state and the queries every part shares.

``BattleState`` holds the whole state of one battle (FTC 3: rounds of initiative, movement and attack
phases): the spine every part reads (the setup, the figures, the round, the phase, the initiative order,
the log and its events, the one generator) and one *piece* per part of the round, which only the part
that owns it reads or changes (``PIECES``: the piece's name -> its part; docs/architecture.md "A part
owns its state"). It answers the questions every part shares: who stands where, whose zone of control
covers a hex, the distance between two figures. The parts are modules of functions over this state; the
phase table (``Phase``) and the table of handlers that join them are made in ``phases``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.characters import Character
from game.engine.combat import (
    Modifier,
    obscured_vision_perception,
)
from game.engine.creatures import footprint, large_distance
from game.engine.equipment import Weapon
from game.engine.generator import LEGACY_DICE, make_generator
from game.engine.heroes import starting_points
from game.engine.hexgrid import (
    Hex,
    distance,
    neighbor,
)
from game.engine.lof import LineOfFire
from game.engine.ranges import RangeBand
from game.engine.rule_options import HEROES, resolve_role
from game.engine.rule_options import RULE_OPTION_HELP as RULE_OPTION_HELP
from game.engine.rule_options import RuleOptions as RuleOptions
from game.engine.stun_sheet import FRESH, StunSheet
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel, Wounds

act.register_gm_actions()  # saved logs carry the GM's decisions


class IllegalAction(ValueError):
    """A decision the rules do not allow now; the message is a sentence for the player."""


STANDING_ORDERS = ("always", "never", "ask")
GM_REFEREE = "referee"
"""The GM's seat when the GM plays no side."""
CONTROLLERS = ("human", "random", "novice", "tactical", "veteran")
"""Who may play a side: a human, or a computer player by level (``game.engine.players.LEVELS``)."""


@dataclass(frozen=True)
class SideSetup:
    """One side of the battle and who plays it."""

    id: str
    name: str
    colour: str = "#888888"
    controller: str = "human"


@dataclass(frozen=True)
class FigureSetup:
    """One figure as deployed: its character, position and facing."""

    id: str
    name: str
    side: str
    character: Character
    hex: Hex
    facing: int = 0
    standing_order: str = "always"
    mook: bool = False
    role: str | None = None
    """Who the figure is to the rule options that tell heroes from pawns (``rule_options.ROLES``); None: an NPC
    pawn if a mook, else a player character (``rule_options.resolve_role``; the session decides it from the
    roster, docs/rosters.md "Roles")."""
    fudge_points: int | None = None
    """*Fudge* 4.64: the Fudge Points the roster gives the figure's character; None: it gives none (a hero then
    starts with the option ``fudge_points_default``, ``heroes.starting_points``)."""


@dataclass(frozen=True)
class BattleSetup:
    """Everything a battle starts from besides the seed's dice: map, sides, figures, options."""

    terrain: TerrainMap
    sides: tuple[SideSetup, ...]
    figures: tuple[FigureSetup, ...]
    options: RuleOptions = RuleOptions()  # noqa: RUF009 (frozen, immutable)
    seed: int = 0
    title: str = ""
    gm: str | None = None
    """The GM's seat (docs/rulings.md "The GM's seat"): a side id whose player is the GM, "referee" for a GM
    who plays no side, or None (no GM: GM actions are refused)."""
    dice: str = LEGACY_DICE
    """The kind of the battle's generator (``game.engine.generator``): a new battle's session names the game's
    keyed dice; a save that names none replays with the legacy ones."""
    rules_name: str = ""
    """The name of the rule options' set ("Gritty", a GM's file): shown by the report, never read by a rule."""


@dataclass
class Figure:
    """A figure's state during the battle (read it; change it only through ``apply``)."""

    id: str
    name: str
    side: str
    character: Character
    hex: Hex
    facing: int
    standing_order: str = "always"
    mook: bool = False
    role: str = "pc"
    """"pc", "major_npc" or "npc" (``FigureSetup.role``): read only by the rule options that tell heroes from
    pawns (*Fudge* 4.33, 4.64)."""
    posture: str = "standing"
    wounds: Wounds = field(default_factory=Wounds)
    very_hurt_from_round: int | None = None
    crippled: tuple[str, ...] = ()
    out: bool = False
    fudge_points: int = 0
    """*Fudge* 4.64: the Fudge Points left (spent only by a hero, under ``pc_death_fudge_point``)."""
    fudge_order: str = "always"
    """*Fudge* 4.64: when to spend a Fudge Point on a deadly wound (``heroes.FUDGE_ORDERS``)."""
    fudge_question: FudgeQuestion | None = None
    """*Fudge* 4.64: a deadly wound waiting for the hero's player to spend a Fudge Point or not."""
    pain_relief: tuple[WoundLevel, int] | None = None
    """*Fudge* 4.51: the wound level a Will roll eased and by how much (while it stays the worst)."""
    fights_on: bool = False
    """*Fudge* 4.51: Incapacitated, but fighting on after a Superb Will roll (until any further wound)."""
    stuns: StunSheet = FRESH
    """*Fudge* 4.62: the stun sheet (Stun, Very Stunned, knocked out), apart from the wounds."""
    stunned: tuple[tuple[int, str], ...] = ()
    """*Fudge* 4.62: the rounds a stun hinders, each with its result ("Stun", "Very Stunned")."""
    # this round
    initiative: int = 0
    moved: bool = False
    held: bool = False
    hexes_moved: int = 0
    allowance: int = 0
    phase_start_hex: Hex = Hex(0, 0)  # noqa: RUF009 (a Hex is an immutable tuple)
    positions: list[tuple[Hex, int]] = field(default_factory=list)
    shield_uses: int = 0
    """Attacks this round the figure's shield was brought against (FTC 9.2: "use against 1 attack/round")."""

    @property
    def is_hero(self) -> bool:
        """A player character or a major NPC: whom *Fudge* 4.64's protections and Fudge Points are for."""
        return self.role in HEROES

    @property
    def can_act(self) -> bool:
        """Able to fight: not taken out and wounds below Incapacitated (FTC 6.4, 7.3), or fighting on
        Incapacitated after a Superb Will (*Fudge* 4.51); not knocked out (*Fudge* 4.62)."""
        return not self.out and (self.wounds.can_act or self.fights_on) and not self.stuns.knocked_out

    @property
    def size(self) -> int:
        """How many hexes the figure covers (FTC 5): 1, 3 or 7, the roster's ``footprint``."""
        return self.character.footprint

    @property
    def cells(self) -> frozenset[Hex]:
        """The hexes the figure covers now (FTC 5; ``creatures.footprint`` around its hex)."""
        return footprint(self.hex, self.character.footprint, self.facing)

    def very_hurt_penalty(self, round_no: int) -> int:
        """FTC 6.4.1: Very Hurt gives -1 from the round after it was taken (pain gifts per wounds.py), less what a
        Will roll took off it while that wound stays the worst (*Fudge* 4.51; a figure fighting on Incapacitated
        keeps its Very Hurt relief)."""
        pen = self.wounds.penalty(self.character.pain)
        if self.pain_relief is not None:
            eased, by = self.pain_relief
            worst = self.wounds.worst
            if worst == eased or (self.fights_on and eased == WoundLevel.VERY_HURT):
                pen = min(0, pen + by)
        if pen and self.very_hurt_from_round is not None and round_no <= self.very_hurt_from_round:
            # FTC 6.4: a Very Hurt wound taken this round counts from the next round
            return 0
        return pen


@dataclass
class Declaration:
    """A figure's attack-phase declaration as validated (FTC 6.1)."""

    figure: str
    stance: str
    targets: tuple[str, ...]
    weapon: str
    dodge: tuple[str, ...] = ()
    advance_used: int = 0
    second_move: bool = False
    aim: str = "best"
    retreated: bool = False
    pending_steps: tuple[tuple[Hex, int], ...] = ()
    """Under secret stances: the advance, carried out at the reveal."""
    pending_retreat: Hex | None = None
    pending_cast: bool = False
    """Under secret stances: a 1-second spell, resolved at the reveal (its event would show the stance)."""
    spell: str | None = None
    """FTC 8: the spell cast (or concentrated on) instead of a weapon attack, its figure or hex."""
    spell_target: str | None = None
    spell_hex: Hex | None = None
    stun: bool = False
    """*Fudge* 4.62: the blow goes for stun; ``max_wound``: the most wound it will do (a pulled blow)."""
    max_wound: str | None = None
    ignore: tuple[str, ...] = ()
    """*Fudge* 4.34: the enemies the figure leaves undefended in melee this round."""


OUT_OF_RANGE = 99
"""A difficulty no roll reaches: a missile target beyond Max range (FTC 6.5: "ineffective")."""


@dataclass(frozen=True)
class AttackTerms:
    """What an attack's offence and difficulty are made of (``Battle.attack_terms``)."""

    modifiers: tuple[Modifier, ...]
    difficulty: int
    band: RangeBand | None = None
    line: LineOfFire[str] | None = None


@dataclass(frozen=True)
class EffectOn:
    """A lasting spell on a figure as the screen shows it (``Battle.effects_on``, FTC 8.1)."""

    spell: magic.Spell
    caster: str
    rounds_left: int
    effect: magic.ActiveEffect


@dataclass(frozen=True)
class FudgeQuestion:
    """*Fudge* 4.64: a hero's deadly wound waiting for his player's word (``Reason.FUDGE_POINT``): the sheet
    ``before`` it, and the levels of it and of every later wound of the same decision, in order (each recorded
    again on the sheet the answer leaves; the sheet shows them recorded as they came meanwhile)."""

    before: Wounds
    wounds: tuple[WoundLevel, ...]


class Reason(StrEnum):
    """Why a decision is asked for: one code per kind of decision of the round (FTC 5, 5.2, 5.3, 6.1, 6.2).

    A member equals its plain string (``Reason.MOVE == "move"``), so older code comparing strings keeps
    working; new code switches on the members. ``rule`` is the general sentence, ``Decision.prompt`` the
    one naming the figures of this decision.
    """

    MOVE = "move"
    HELD_END = "held_end"
    INTERRUPT = "interrupt"
    STOP = "stop"
    ESCAPE_FAILED = "escape_failed"
    DECLARE = "declare"
    FOLLOW = "follow"
    FUDGE_POINT = "fudge_point"

    @property
    def rule(self) -> str:
        """The decision in one sentence, with the rules section that asks for it."""
        return _REASON_RULES[self]


_REASON_RULES: Mapping[Reason, str] = {
    Reason.MOVE: "A figure moves, or holds its move for later in the phase (FTC 5).",
    Reason.HELD_END: "At the end of the movement phase a held move is used or forfeited (FTC 5).",
    Reason.INTERRUPT: "A side may interrupt with a held figure before the next figure moves (FTC 5).",
    Reason.STOP: "A figure leaving an enemy's zone of control may be stopped by that enemy (FTC 5.2, 5.3).",
    Reason.ESCAPE_FAILED: "A figure that failed to escape stays, or runs and takes free attacks (FTC 5.3).",
    Reason.DECLARE: "A figure declares an attack, a defence, or a second move (FTC 6.1, 6.2).",
    Reason.FOLLOW: "An attacker whose target retreated may step forward to follow (FTC 6.2).",
    Reason.FUDGE_POINT: "A hero whose wound would be deadly may spend a Fudge Point to be Incapacitated instead "
    "(Fudge 4.64).",
}

REASON_KINDS: Mapping[Reason, tuple[str, ...]] = {
    Reason.MOVE: ("move", "hold"),
    Reason.HELD_END: ("move",),
    Reason.INTERRUPT: ("move", "pass_interrupt"),
    Reason.STOP: ("stop_choice",),
    Reason.ESCAPE_FAILED: ("escape_failed_choice",),
    Reason.DECLARE: ("declare", "second_move"),
    Reason.FOLLOW: ("follow_choice",),
    Reason.FUDGE_POINT: ("spend_fudge_point",),
}
"""The kinds of action each reason allows (``Decision.kinds``): one table, so a phase never spells them out."""


@dataclass(frozen=True)
class Decision:
    """Who must decide now and why (``legal_actions``): the seat (``side``), the figure, the ``reason``
    (a ``Reason`` code), the kinds of action allowed and the sentence a player reads (``prompt``)."""

    side: str
    figure: str | None
    reason: Reason
    kinds: tuple[str, ...]
    prompt: str
    interrupters: tuple[str, ...] = ()
    mover: str | None = None
    follow_hex: Hex | None = None
    """For ``Reason.FOLLOW``: the hex the target left, the one the follower may step into (FTC 6.2)."""

    @property
    def sentence(self) -> str:
        """The decision as a sentence for the player (``prompt``)."""
        return self.prompt

    @classmethod
    def of(
        cls,
        fig: Figure,
        reason: Reason,
        prompt: str,
        *,
        mover: str | None = None,
        follow_hex: Hex | None = None,
        interrupters: tuple[str, ...] = (),
    ) -> Decision:
        """The decision ``fig`` makes for its side, with the kinds of action ``reason`` allows
        (``REASON_KINDS``)."""
        return cls(
            fig.side, fig.id, reason, REASON_KINDS[reason], prompt, interrupters, mover=mover, follow_hex=follow_hex
        )


@dataclass
class PendingMove:
    """A move under way, walked step by step: paused for a stop question or after a failed escape (FTC 5.2,
    5.3)."""

    figure: str
    path: tuple[tuple[Hex, int], ...]
    """The states (hex, facing) from the start, as in ``movement.Path``."""
    cost: int
    reason: str
    index: int = 0
    to_ask: list[str] = field(default_factory=list)
    stopping: list[str] = field(default_factory=list)
    failed_at: int | None = None
    failed_stoppers: tuple[str, ...] = ()
    """Who won the failed escape contest: they get the free attacks if the mover runs (FTC 5.3)."""
    decided_at: int | None = None
    """The step whose stop decisions were already made (so a stopper who let the mover pass is not asked
    again for the same step)."""


@dataclass
class MovementState:
    """The movement phase's own state (FTC 5, 5.2, 5.3), owned by ``movement_phase``."""

    due: int = 0
    """The place in the initiative order of the next figure to move."""
    end_queue: list[str] | None = None
    """At the end of the phase: the held figures still to use or forfeit their move, in reverse order."""
    passed: set[str] = field(default_factory=set)
    """The sides that let the due figure move without interrupting."""
    pending: PendingMove | None = None
    """The move under way, paused for a stop question or a failed escape."""


@dataclass
class AttackState:
    """The attack phase's declarations (FTC 6.1, 6.2), owned by ``declarations``."""

    declare_queue: list[str] = field(default_factory=list)
    declarations: dict[str, Declaration] = field(default_factory=dict)
    follow_queue: list[tuple[str, Hex]] = field(default_factory=list)
    revealed: bool = False


@dataclass
class MagicState:
    """Spells being cast (FTC 8.1) and spells recognised (FTC 8.2), owned by ``spells``."""

    casting: dict[str, magic.Concentration] = field(default_factory=dict)
    recognised: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class EffectsState:
    """The lasting spell effects (FTC 8.1), owned by ``effects``."""

    effects: list[magic.ActiveEffect] = field(default_factory=list)
    spell_weapons: dict[str, tuple[Weapon, magic.Spell]] = field(default_factory=dict)
    """A damage spell's weapon, made once per spell, so that a blow can tell it is the spell's."""


@dataclass
class GMSeatState:
    """The GM's standing modifiers and conditions, and escapes decided by hand (*Fudge* 4.1), owned by
    ``gm_seat``."""

    conditions: gm.GMState = field(default_factory=gm.GMState)
    escape: dict[str, bool] = field(default_factory=dict)


@dataclass
class HeroesState:
    """*Fudge* 4.64's second method: each figure's worst wound as the round began (kept only while that option is
    on), owned by ``heroes``."""

    round_start: dict[str, WoundLevel | None] = field(default_factory=dict)


@dataclass
class ZonesState:
    """The zones of control a mover of each side meets (FTC 5.2), kept while the figures holding them stand
    as they were, owned by ``zones``."""

    kept: dict[str, tuple[object, Mapping[Hex, frozenset[str]]]] = field(default_factory=dict, repr=False)


@dataclass
class DiceState:
    """The dice the GM set by hand and the round's combat rolls (FTC 6.3, 8.1), owned by ``dice``."""

    set_queue: list[gm.SetDie] = field(default_factory=list)
    used: list[gm.SetDie] = field(default_factory=list)
    """The set dice used by the decision being applied."""
    set_rolls: dict[int, gm.SetDie] = field(default_factory=dict)
    """The rolls made with faces the GM set by hand: index in ``events`` -> the GM's ``SetDie`` (the GM's
    own view marks them; the log shows them as any roll)."""
    round_rolls: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Each figure's one combat roll of the round, once made (made early for a 1-second spell, FTC 8.1)."""
    round_sources: dict[str, str] = field(default_factory=dict)
    """Where a round roll that is not the figure's own came from (``CombatRoll.source``, *Fudge* 4.33, 4.34)."""
    group_rolls: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """*Fudge* 4.34: each side's group roll of the round for its NPC pawns, once made."""
    watchers: list[Callable[[tuple[int, ...]], None]] = field(default_factory=list, repr=False)
    """Called with the faces of each roll made with set faces, as it is made (``dice.watch_set_rolls``)."""


PIECES: Mapping[str, str] = {
    "movement_state": "movement_phase",
    "attack_state": "declarations",
    "magic_state": "spells",
    "effects_state": "effects",
    "gm_seat_state": "gm_seat",
    "dice_state": "dice",
    "zones_state": "zones",
    "heroes_state": "heroes",
}
"""Each piece of the battle's state (an attribute of ``BattleState``) and the one part (a module of
``game.engine.battle``) that owns it: only that part reads or changes it; the others call its functions
(a house test holds it)."""

ALWAYS_ALLOWED = ("standing_order", "yield", "spend_fudge_point", "fudge_point_order")
"""The decisions allowed in every phase but the end (a standing order, a yield; a Fudge Point's, *Fudge* 4.64)."""

Hook = Callable[["BattleState"], list[ev.Event]]
"""A phase's hook: a function of the battle returning the events it caused."""


@dataclass(frozen=True)
class Phase:
    """One phase of the round in the phase table (docs/architecture.md "Phases are a table"; FTC 3).

    ``actions``: the kinds of decision it allows (besides ``ALWAYS_ALLOWED``); ``decide``: who decides now
    (``legal_actions``); ``on_begin``: what happens as it begins; ``step``: what happens after each
    decision taken in it (the next figure, or the phase's end); ``on_end``: what happens as it ends;
    ``next``: the phase that follows (None: the battle is over).
    """

    name: str
    actions: tuple[str, ...] = ()
    decide: Callable[[BattleState], Decision] | None = None
    on_begin: Hook | None = None
    step: Hook | None = None
    on_end: Hook | None = None
    next: str | None = None


class BattleState:
    """The whole state of one battle: the spine every part reads, the pieces each part owns (``PIECES``),
    the phase table that joins the parts (``phases``), and the queries every part shares. The battle
    itself is ``game.engine.battle.Battle``, the front over this state."""

    def __init__(self, setup: BattleSetup, phases: Mapping[str, Phase]) -> None:
        ids = [f.id for f in setup.figures]
        if len(set(ids)) != len(ids):
            raise ValueError("two figures share an id")
        side_ids = {s.id for s in setup.sides}
        hexes: set[Hex] = set()
        for f in setup.figures:
            if f.side not in side_ids:
                raise ValueError(f"figure {f.name!r} is on side {f.side!r}, which is not in the battle")
            big = "" if f.character.footprint == 1 else f" (it covers {f.character.footprint} hexes; give it room)"
            for h in footprint(f.hex, f.character.footprint, f.facing % 6):
                if not setup.terrain.is_passable(h):
                    raise ValueError(f"figure {f.name!r} stands on a hex it cannot occupy: {h}{big}")
                if h in hexes:
                    raise ValueError(f"two figures stand on the same hex {h}{big and f' ({f.name!r} is one)'}")
                hexes.add(h)
        if setup.gm is not None and setup.gm != GM_REFEREE and setup.gm not in side_ids:
            raise ValueError(f"the GM's seat {setup.gm!r} is neither a side of the battle nor {GM_REFEREE!r}")
        self.setup = setup
        self.terrain = setup.terrain
        self.options = setup.options
        self.rng = make_generator(setup.dice, setup.seed)
        self.figures: dict[str, Figure] = {
            f.id: Figure(
                f.id,
                f.name,
                f.side,
                f.character,
                f.hex,
                f.facing % 6,
                f.standing_order,
                f.mook,
                resolve_role(f.role, f.mook, None),
                wounds=f.character.starting_wounds,
                fudge_points=starting_points(f.fudge_points, resolve_role(f.role, f.mook, None), setup.options),
            )  # FTC 7.3: a creature's own track; Fudge 4.8
            for f in setup.figures
        }
        self.sides: dict[str, SideSetup] = {s.id: s for s in setup.sides}
        self.round = 0
        self.phase = "movement"
        self.order: list[str] = []
        self.events: list[ev.Event] = []
        self.log: list[act.Action] = []
        self.rolled_at: list[bool] = []  # per logged action: did it roll dice?
        self.winner: str | None = None
        self.over = False
        # each part's own piece of the state (``PIECES`` names the part that owns it)
        self.movement_state = MovementState()
        self.attack_state = AttackState()
        self.magic_state = MagicState()
        self.effects_state = EffectsState()
        self.gm_seat_state = GMSeatState()
        self.dice_state = DiceState()
        self.zones_state = ZonesState()
        self.heroes_state = HeroesState()
        self.removed: dict[str, Figure] = {}
        self.phases = phases
        """The phase table (``phases.PHASES``): each phase's actions and hooks."""
        self.digests: list[str] = []
        self.initial_digest = ""

    def snapshot(self) -> str:
        """The battle's whole state as text: the spine, every figure and every part's piece (``PIECES``). Two
        equal snapshots are the same battle in the same moment; a refused decision leaves it as it was
        (docs/architecture.md "The door")."""
        return repr(
            (
                self.round,
                self.phase,
                self.order,
                self.over,
                self.winner,
                len(self.events),
                len(self.log),
                self.rng.draws,
                self.figures,
                self.removed,
                self.movement_state,
                self.attack_state,
                self.magic_state,
                self.effects_state,
                self.gm_seat_state,
                self.dice_state,
                self.heroes_state,
            )
        )

    # ------------------------------------------------------------------ queries
    def figure(self, fid: str) -> Figure:
        """The figure with id ``fid``."""
        try:
            return self.figures[fid]
        except KeyError:
            raise IllegalAction(f"There is no figure {fid!r} in this battle.") from None

    def ordered(self, fid: str, order: str, orders: Sequence[str], what: str) -> Figure:
        """The figure given a standing order (FTC 5.2's stopping, *Fudge* 4.64's Fudge Points), ``order`` checked
        against the ``orders`` it may be; ``IllegalAction`` names them (``what``: "A standing order")."""
        fig = self.figure(fid)
        if order not in orders:
            raise IllegalAction(f"{what} is one of {', '.join(orders)}, not {order!r}.")
        return fig

    def names(self) -> dict[str, str]:
        """Display names by figure id (for event texts), figures the GM removed included."""
        return {f.id: f.name for f in (*self.figures.values(), *self.removed.values())}

    def able(self, side: str | None = None) -> list[Figure]:
        """Figures that can act, optionally of one side, in setup order."""
        return [f for f in self.figures.values() if f.can_act and (side is None or f.side == side)]

    def occupant(self, h: Hex) -> Figure | None:
        """The figure standing on a hex, if any (taken-out figures still occupy their hex)."""
        for f in self.figures.values():
            if f.hex == h or (f.character.footprint != 1 and h in f.cells):
                return f
        return None

    def enemies_of(self, fig: Figure) -> list[Figure]:
        """Able figures of other sides."""
        side = fig.side
        return [f for f in self.figures.values() if f.side != side and f.can_act]

    # ------------------------------------------------------------------ large figures (FTC 5; creatures.py)
    def cells_of(self, fid: str) -> frozenset[Hex]:
        """The hexes a figure covers (FTC 5): its hex, or its 3- or 7-hex footprint (for the screen)."""
        return self.figure(fid).cells

    def fits(self, fig: Figure, h: Hex, facing: int) -> bool:
        """FTC 5.2: every hex ``fig`` would cover there is passable for it and nobody else's."""
        mode = fig.character.movement_modes[0]
        for c in body(fig, h, facing):
            occ = self.occupant(c)
            if not self.terrain.is_passable(c, mode) or (occ is not None and occ is not fig):
                return False
        return True

    def carried_wounds(self, fig: Figure) -> list[ev.Event]:
        """*Fudge* 4.8: said in the log when a figure starts with wounds from an earlier battle (only then, so
        a battle without carried wounds opens, and digests, exactly as before); one too hurt to act is out."""
        if fig.character.wounds is None:
            return []
        out: list[ev.Event] = [ev.WoundsCarried(fig.id, tuple(str(w) for w in fig.wounds.received()), fig.wounds.label)]
        if not fig.wounds.can_act:
            fig.out = True
            out.append(ev.TakenOut(fig.id, fig.wounds.label))
        return out


def covered(figures: Iterable[Figure]) -> frozenset[Hex]:
    """Every hex the figures cover (FTC 5: a large figure's whole footprint)."""
    out: set[Hex] = set()
    for f in figures:
        if f.character.footprint == 1:
            out.add(f.hex)
        else:
            out |= f.cells
    return frozenset(out)


def sentence(text: str) -> str:
    """A movement error as a sentence for the player (capital first letter, full stop)."""
    text = text.strip()
    if not text:
        return "That move is not allowed."
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def body(fig: Figure, h: Hex, facing: int) -> frozenset[Hex]:
    """The hexes ``fig`` would cover standing on ``h`` with ``facing`` (FTC 5)."""
    return footprint(h, fig.character.footprint, facing)


def figure_distance(a: Figure, b: Figure) -> int:
    """Hexes between two figures: between their nearest hexes (docs/rulings.md "Distances";
    creatures.large_distance)."""
    if a.size == 1 and b.size == 1:
        return distance(a.hex, b.hex)
    return large_distance(a.cells, b.cells)


def effective_perception(character: Character) -> int:
    """Perception as it counts in play: a helmet that obscures vision lowers it (FTC 9.2, our reading)."""
    if any(a.obscures_vision for a in character.armour):
        return character.perception + obscured_vision_perception()
    return character.perception


def front_arc_2(h: Hex, facing: int) -> frozenset[Hex]:
    """The five hexes at distance 2 inside a figure's front arc (spear reach, FTC 9.1; docs/rulings.md "Melee
    reach")."""
    out = set()
    for d1 in (facing - 1, facing, facing + 1):
        for d2 in (facing - 1, facing, facing + 1):
            x = neighbor(neighbor(h, d1), d2)
            if distance(h, x) == 2:
                out.add(x)
    return frozenset(out)
