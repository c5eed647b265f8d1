"""The spine of the battle: its types, the phase table, the state and the queries every part shares.

``BattleState`` holds the whole state of one battle (FTC 3: rounds of initiative, movement and attack
phases), answers the shared questions (who stands where, whose zone of control covers a hex, how far a
figure may move), makes every die roll, and dispatches a decision to the part of the round that rules
it. The parts (``initiative``, ``movement_phase``, ``declarations``, ``resolution``, ``ranged``,
``spells``, ``gm_seat``) subclass it; the stubs at its end name what each part provides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.characters import Character
from game.engine.combat import (
    Modifier,
    Stance,
    obscured_vision_perception,
)
from game.engine.creatures import footprint, front_zone, large_distance
from game.engine.damage import (
    Factor,
    crippled_posture,
)
from game.engine.dice import DiceRoll, roll_4df
from game.engine.equipment import Weapon
from game.engine.generator import LEGACY_DICE, make_generator
from game.engine.hexgrid import (
    Hex,
    distance,
    front_hexes,
    neighbor,
)
from game.engine.lof import LineOfFire
from game.engine.movement import Ground, Reach, movement_allowance
from game.engine.ranges import RangeBand
from game.engine.terrain import TerrainMap
from game.engine.wounds import Wounds
from game.engine.zoc import EscapeLevels

act.register_gm_actions()  # saved logs carry the GM's decisions


class IllegalAction(ValueError):
    """A decision the rules do not allow now; the message is a sentence for the player."""


STANDING_ORDERS = ("always", "never", "ask")
GM_REFEREE = "referee"
"""The GM's seat when the GM plays no side."""
CONTROLLERS = ("human", "random", "novice", "tactical", "veteran")
"""Who may play a side: a human, or a computer player by level (``game.engine.players.LEVELS``)."""


@dataclass(frozen=True)
class RuleOptions:
    """The battle's rule options (docs/rulings.md "Rule options"); each default is the rules text's default."""

    initiative_once: bool = False
    """FTC 4: roll initiative once for the whole battle instead of every round."""
    mook_group_initiative: bool = False
    """FTC 4: all figures marked as mooks on a side roll initiative once, as a group."""
    secret_stances: bool = False
    """Fudge 4.32: stances are chosen unseen and revealed together."""
    per_hex_terrain: bool = False
    """docs/rulings.md "Terrain": entering a hex costs 1 + its penalty instead of the largest-penalty rule."""
    attack_any_adjacent: bool = False
    """docs/rulings.md "Melee reach": melee may reach any adjacent hex, not only the front hexes."""
    fudge_graze_table: bool = False
    """Fudge 4.56: read grazes by Fudge's table instead of FTC 7.3's "at most a Scratch"."""

    def to_json(self) -> dict[str, bool]:
        """The options as plain data."""
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> RuleOptions:
        """Options from plain data; unknown names raise ``ValueError``."""
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**{k: bool(v) for k, v in data.items()})


RULE_OPTION_HELP: Mapping[str, str] = {
    "initiative_once": "Roll initiative once for the whole battle, not every round (FTC 4).",
    "mook_group_initiative": "Mooks of a side roll initiative once as a group (FTC 4).",
    "secret_stances": "Stances are chosen in secret and revealed together (Fudge 4.32).",
    "per_hex_terrain": "Each hex entered costs 1 + its terrain penalty (instead of FTC 5.1.2's round penalty).",
    "attack_any_adjacent": "Melee reaches any adjacent hex, not only the three front hexes.",
    "fudge_graze_table": "Grazes follow Fudge 4.56 instead of FTC 7.3's 'at most a Scratch'.",
}


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


@dataclass(frozen=True)
class BattleSetup:
    """Everything a battle starts from besides the seed's dice: map, sides, figures, options."""

    terrain: TerrainMap
    sides: tuple[SideSetup, ...]
    figures: tuple[FigureSetup, ...]
    options: RuleOptions = RuleOptions()
    seed: int = 0
    title: str = ""
    gm: str | None = None
    """The GM's seat (docs/rulings.md "The GM's seat"): a side id whose player is the GM, "referee" for a GM
    who plays no side, or None (no GM: GM actions are refused)."""
    dice: str = LEGACY_DICE
    """The kind of the battle's generator (``game.engine.generator``): a new battle's session names the game's
    keyed dice; a save that names none replays with the legacy ones."""


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
    posture: str = "standing"
    wounds: Wounds = field(default_factory=Wounds)
    very_hurt_from_round: int | None = None
    crippled: tuple[str, ...] = ()
    out: bool = False
    # this round
    initiative: int = 0
    moved: bool = False
    held: bool = False
    hexes_moved: int = 0
    allowance: int = 0
    phase_start_hex: Hex = Hex(0, 0)  # noqa: RUF009 (a Hex is an immutable tuple)
    positions: list[tuple[Hex, int]] = field(default_factory=list)

    @property
    def can_act(self) -> bool:
        """Able to fight: not taken out and wounds below Incapacitated (FTC 6.4, 7.3)."""
        return not self.out and self.wounds.can_act

    @property
    def size(self) -> int:
        """How many hexes the figure covers (FTC 5): 1, 3 or 7, the roster's ``footprint``."""
        return self.character.footprint

    @property
    def cells(self) -> frozenset[Hex]:
        """The hexes the figure covers now (FTC 5; ``creatures.footprint`` around its hex)."""
        return footprint(self.hex, self.character.footprint, self.facing)

    def very_hurt_penalty(self, round_no: int) -> int:
        """FTC 6.4.1: Very Hurt gives -1 from the round after it was taken (pain gifts per wounds.py)."""
        pen = self.wounds.penalty(self.character.pain)
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
}


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


@dataclass
class _PendingMove:
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


PHASES: Mapping[str, tuple[str, ...]] = {
    # phase -> the action kinds it allows (docs/architecture.md "Phases are a table"); "standing_order" and "yield" are
    # always allowed
    "movement": ("move", "hold", "pass_interrupt", "stop_choice", "escape_failed_choice"),
    "attack": ("declare", "second_move", "follow_choice", "stop_choice", "escape_failed_choice"),
    "over": (),
}
ALWAYS_ALLOWED = ("standing_order", "yield")


class BattleState:
    """The whole state of one battle and the queries every part of the round shares (the parts
    mix into ``game.engine.battle.Battle``)."""

    def __init__(self, setup: BattleSetup) -> None:
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
                wounds=f.character.starting_wounds,
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
        # movement phase
        self._due = 0
        self._end_queue: list[str] | None = None
        self._passed: set[str] = set()
        self._pending: _PendingMove | None = None
        # attack phase
        self._declare_queue: list[str] = []
        self._declarations: dict[str, Declaration] = {}
        self._follow_queue: list[tuple[str, Hex]] = []
        self._revealed = False
        # magic (FTC 8): concentrations, lasting effects, the round's rolls (made early for a 1-second
        # spell, FTC 8.1), recognitions
        self._casting: dict[str, magic.Concentration] = {}
        self._effects: list[magic.ActiveEffect] = []
        self._roll_faces: dict[str, tuple[int, ...]] = {}
        self._recognised: dict[tuple[str, str], str] = {}
        self._spell_weapons: dict[str, tuple[Weapon, magic.Spell]] = {}
        # the GM's seat: standing modifiers and conditions, dice set by hand, escape overrides
        self.gm_state = gm.GMState()
        self.gm_dice: list[gm.SetDie] = []
        self._set_used: list[gm.SetDie] = []
        self.set_rolls: dict[int, gm.SetDie] = {}
        """The rolls made with faces the GM set by hand: index in ``events`` -> the GM's ``SetDie`` (the GM's
        own view marks them; the log shows them as any roll)."""
        self.gm_escape: dict[str, bool] = {}
        self.removed: dict[str, Figure] = {}
        for fig in self.figures.values():
            self.events.extend(self._carried_wounds(fig))
        self.events.extend(self._begin_round())
        self.digests: list[str] = []
        self.initial_digest = ev.events_digest(self.events)

    # ------------------------------------------------------------------ queries
    def figure(self, fid: str) -> Figure:
        """The figure with id ``fid``."""
        try:
            return self.figures[fid]
        except KeyError:
            raise IllegalAction(f"There is no figure {fid!r} in this battle.") from None

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
        return [f for f in self.figures.values() if f.side != fig.side and f.can_act]

    def zone(self, fig: Figure) -> frozenset[Hex]:
        """FTC 5.2: the three front hexes of a figure that can act (none otherwise)."""
        if not fig.can_act:
            return frozenset()
        if fig.size != 1:
            return front_zone(fig.cells, fig.facing)  # a large figure's front (creatures.front_zone)
        return frozenset(front_hexes(fig.hex, fig.facing))

    def holding_area(self, fig: Figure) -> frozenset[Hex]:
        """The hexes a figure may stop a mover from leaving (FTC 5.2): its zone of control and its own hexes,
        since a mover passing through its hex must break its zone of control to go on (none if it cannot
        act)."""
        zone = self.zone(fig)
        return zone | fig.cells if zone else zone

    def stopper_zones(self, mover: Figure) -> dict[Hex, frozenset[str]]:
        """For the path search: each hex -> ids of enemies who would (or might) stop the mover there (their
        zones of control and their own hexes, FTC 5.2)."""
        zones: dict[Hex, set[str]] = {}
        for e in self.enemies_of(mover):
            if e.standing_order == "never":
                continue
            for h in self.holding_area(e):
                zones.setdefault(h, set()).add(e.id)
        return {h: frozenset(s) for h, s in zones.items()}

    def movement_allowance_of(self, fig: Figure, posture: str | None = None) -> int:
        """FTC 5, 5.1.1: hexes this round before terrain (posture — the figure's own, or the one it is
        about to take — and encumbrance included)."""
        c = fig.character
        allowance = movement_allowance(
            c.speed,
            speed_scale=c.speed_scale,
            # FTC 6.6: a crippled leg or foot hobbles as if crawling (docs/rulings.md "Hit location")
            posture=crippled_posture(posture or fig.posture, fig.crippled),
            strength=c.strength,
            strength_scale=c.strength_scale,
            load_kg=c.carried_mass_kg(),
        )
        return self._magic_allowance(fig, allowance)

    def reach_for(self, fid: str, *, allowance: int | None = None, posture: str | None = None) -> Reach:
        """Reachable hexes and cheapest paths for a figure now (one source of legality, docs/architecture.md "One source
        of legality");
        ``posture``: as if it first dropped to crawling / prone or stood up (FTC 5 "Crawling and Rolling")."""
        fig = self.figure(fid)
        if allowance is None:
            allowance = self.movement_allowance_of(fig, posture)
        return self.ground_for(fig).reach(fig.hex, fig.facing, allowance)

    def ground_for(self, fig: Figure) -> Ground:
        """What ``fig``'s move is searched and priced over now (FTC 5-5.3): every other figure's hexes are
        occupied (passable at +1, FTC 5.2: an enemy's hex too, when he does not stop the mover or the mover
        breaks his zone of control), and the zones of the enemies who would stop it; one ground for the
        highlights, the AI and the move's validation alike."""
        return Ground(
            self.terrain,
            fig.character.movement_modes[0],
            occupied=_covered(f for f in self.figures.values() if f.id != fig.id),
            zones=self.stopper_zones(fig),
            per_hex_terrain=self.options.per_hex_terrain,
            size=fig.size,
        )

    # ------------------------------------------------------------------ large figures (FTC 5; creatures.py)
    def cells_of(self, fid: str) -> frozenset[Hex]:
        """The hexes a figure covers (FTC 5): its hex, or its 3- or 7-hex footprint (for the screen)."""
        return self.figure(fid).cells

    def _body(self, fig: Figure, h: Hex, facing: int) -> frozenset[Hex]:
        """The hexes ``fig`` would cover standing on ``h`` with ``facing``."""
        return footprint(h, fig.character.footprint, facing)

    def _fits(self, fig: Figure, h: Hex, facing: int) -> bool:
        """FTC 5.2: every hex ``fig`` would cover there is passable for it and nobody else's."""
        mode = fig.character.movement_modes[0]
        for c in self._body(fig, h, facing):
            occ = self.occupant(c)
            if not self.terrain.is_passable(c, mode) or (occ is not None and occ is not fig):
                return False
        return True

    def _distance(self, a: Figure, b: Figure) -> int:
        """Hexes between two figures: between their nearest hexes (docs/rulings.md "Distances";
        creatures.large_distance)."""
        if a.size == 1 and b.size == 1:
            return distance(a.hex, b.hex)
        return large_distance(a.cells, b.cells)

    def _carried_wounds(self, fig: Figure) -> list[ev.Event]:
        """*Fudge* 4.8: said in the log when a figure starts with wounds from an earlier battle (only then, so
        a battle without carried wounds opens, and digests, exactly as before); one too hurt to act is out."""
        if fig.character.wounds is None:
            return []
        out: list[ev.Event] = [ev.WoundsCarried(fig.id, tuple(str(w) for w in fig.wounds.received()), fig.wounds.label)]
        if not fig.wounds.can_act:
            fig.out = True
            out.append(ev.TakenOut(fig.id, fig.wounds.label))
        return out

    # ------------------------------------------------------------------ decisions
    def decision(self) -> Decision | None:
        """Who must decide now (None when the battle is over)."""
        if self.over:
            return None
        if self._pending is not None:
            p = self._pending
            if p.to_ask:
                stopper = self.figures[p.to_ask[0]]
                mover = self.figures[p.figure]
                return Decision(
                    stopper.side,
                    stopper.id,
                    Reason.STOP,
                    ("stop_choice",),
                    f"{mover.name} is leaving {stopper.name}'s zone of control: try to stop them?",
                    mover=mover.id,
                )
            if p.failed_at is not None:
                mover = self.figures[p.figure]
                return Decision(
                    mover.side,
                    mover.id,
                    Reason.ESCAPE_FAILED,
                    ("escape_failed_choice",),
                    f"{mover.name} failed to escape: stay here, or turn tail and run "
                    "(each stopper gets a free attack)?",
                )
        if self.phase == "movement":
            return self._movement_decision()
        return self._attack_decision()

    # ------------------------------------------------------------------ apply
    def apply(self, action: act.Action) -> list[ev.Event]:
        """Validate and carry out one decision; returns the events it caused (see module docstring)."""
        if self.over:
            raise IllegalAction("The battle is over.")
        kind = action.kind
        is_gm = isinstance(action, gm.GMAction)  # the GM may act in any phase
        if not is_gm and kind not in PHASES[self.phase] and kind not in ALWAYS_ALLOWED:
            raise IllegalAction(f"That cannot be done in the {self.phase} phase.")
        draws_before = self.rng.draws
        self._set_used.clear()
        new_events: list[ev.Event] = (
            self._do_gm(action) if isinstance(action, gm.GMAction) else getattr(self, f"_do_{kind}")(action)
        )
        for used in self._set_used:
            self.set_rolls[len(self.events) + ev.set_roll_at(new_events, used.figure, used.faces)] = used
        self.events.extend(new_events)
        self.log.append(action)
        self.rolled_at.append(self.rng.draws != draws_before)
        self.digests.append(ev.events_digest(new_events))
        return new_events

    # ---- always allowed
    def _do_standing_order(self, a: act.SetStandingOrder) -> list[ev.Event]:
        fig = self.figure(a.figure)
        if a.order not in STANDING_ORDERS:
            raise IllegalAction(f"A standing order is one of {', '.join(STANDING_ORDERS)}.")
        fig.standing_order = a.order
        return [ev.StandingOrderSet(fig.id, a.order)]

    def _do_yield(self, a: act.Yield) -> list[ev.Event]:
        if a.side not in self.sides:
            raise IllegalAction(f"There is no side {a.side!r}.")
        others = [s for s in self.sides if s != a.side and self.able(s)]
        self.over = True
        self.phase = "over"
        self.winner = others[0] if len(others) == 1 else None
        return [ev.BattleEnded(self.winner, f"{self.sides[a.side].name} yields")]

    def _check_over(self, out: list[ev.Event]) -> bool:
        """The battle ends when at most one side has figures able to fight."""
        if self.over:
            return True
        standing = [s for s in self.sides if self.able(s)]
        if len(standing) <= 1:
            self.over = True
            self.phase = "over"
            self.winner = standing[0] if standing else None
            reason = f"{self.sides[self.winner].name} wins" if self.winner else "no side is left standing"
            out.append(ev.BattleEnded(self.winner, reason))
            return True
        return False

    def _set_die(self, purpose: str, fid: str) -> DiceRoll | None:
        """The first roll of ``purpose`` the GM set by hand for a figure, taken from the queue (SetDie)."""
        for i, s in enumerate(self.gm_dice):
            if s.purpose == purpose and s.figure == fid:
                del self.gm_dice[i]
                self._set_used.append(s)
                return DiceRoll(s.faces)
        return None

    def _roll(self, purpose: str, *fids: str) -> DiceRoll:
        """Every 4dF roll of the battle (FTC 4, 5.3, 6.3, 7.4): the faces the GM set for one of ``fids``,
        else the battle's generator, drawn exactly as without a GM."""
        for fid in fids:
            roll = self._set_die(purpose, fid)
            if roll is not None:
                return roll
        return roll_4df(self.rng)

    # ------------------------------------------------------------------ the parts of the round
    # Each part of the round (its own module) provides these; the spine calls them. The stubs let the
    # parts call each other through ``self`` with their types checked.

    def _begin_round(self) -> list[ev.Event]:
        """Provided by ``initiative``."""
        raise NotImplementedError

    def _movement_decision(self) -> Decision:
        """Provided by ``movement_phase``."""
        raise NotImplementedError

    def _start_move(self, fig: Figure, steps: act.States, reason: str, *, posture: str | None = None) -> list[ev.Event]:
        """Provided by ``movement_phase``."""
        raise NotImplementedError

    def _continue_move(self) -> list[ev.Event]:
        """Provided by ``movement_phase``."""
        raise NotImplementedError

    def _advance_movement(self) -> list[ev.Event]:
        """Provided by ``movement_phase``."""
        raise NotImplementedError

    def _attack_decision(self) -> Decision:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _begin_attack_phase(self) -> list[ev.Event]:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _advance_attack(self) -> list[ev.Event]:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _reach_along(
        self,
        att: Figure,
        mine: Sequence[tuple[Hex, int]],
        tgt: Figure,
        theirs: Sequence[tuple[Hex, int]],
        weapon: Weapon,
    ) -> bool:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _moves_of(self, fig: Figure) -> list[tuple[Hex, int]]:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _reach_ok(
        self,
        att_hex: Hex,
        att_facing: int,
        target_hex: Hex,
        weapon: Weapon,
        *,
        size: int = 1,
        target: tuple[int, int] = (1, 0),
    ) -> bool:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def melee_attackers_on(self, fid: str) -> list[str]:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _weapon_of(self, fig: Figure, name: str | None) -> Weapon:
        """Provided by ``declarations``."""
        raise NotImplementedError

    def _combat_skill(self, fig: Figure, weapon: Weapon | None = None) -> int:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _melee_weapon(self, fig: Figure) -> Weapon:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _defence_vs(
        self,
        defender: Figure,
        attacker: Figure,
        weapon: Weapon,
        roll: int,
        decl: Declaration | None,
        *,
        shield_ok: bool,
        run: bool = False,
    ) -> tuple[int, tuple[Modifier, ...], bool]:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _strike(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        roll: int,
        omods: Sequence[Modifier],
        defence: int | None,
        dmods: Sequence[Modifier],
        others: Sequence[tuple[str, int]],
        difficulty: int,
        dist: int,
        aim: str,
        *,
        free: bool = False,
        stray: bool = False,
        skill: int | None = None,
    ) -> tuple[ev.AttackResolved, tuple[Figure, int, str, int] | None]:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _apply_wounds(self, wounds: Sequence[tuple[Figure, int, str, int]]) -> list[ev.Event]:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _resolve_round(self) -> list[ev.Event]:
        """Provided by ``resolution``."""
        raise NotImplementedError

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
        """Provided by ``resolution``."""
        raise NotImplementedError

    def dodge_terms(self, fid: str, stance: Stance, bonus: Modifier | None = None) -> tuple[Modifier, ...]:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _aim(self, firer: Figure, target: Figure) -> tuple[Hex, int]:
        """Provided by ``ranged``."""
        raise NotImplementedError

    def _ranged_ok(self, firer: Figure, target: Figure, weapon: Weapon) -> bool:
        """Provided by ``ranged``."""
        raise NotImplementedError

    def _best_range(self, firer: Figure, target: Figure) -> int:
        """Provided by ``ranged``."""
        raise NotImplementedError

    def _disarms(self, events: Sequence[ev.Event]) -> list[ev.Event]:
        """Provided by ``resolution``."""
        raise NotImplementedError

    def _stray(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        roll: int,
        omods: Sequence[Modifier],
        lof: LineOfFire[str],
        rolls: Mapping[str, int],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """Provided by ``ranged``."""
        raise NotImplementedError

    def _magic_mods(self, fig: Figure, channel: str) -> tuple[Modifier, ...]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _speed_of(self, fig: Figure) -> int:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_allowance(self, fig: Figure, allowance: int) -> int:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_sight_blocked(self, a: Hex, b: Hex) -> bool:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_attack_mods(self, att: Figure, target_hex: Hex) -> list[Modifier]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_factors(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        location: str,
        off: tuple[Factor, ...],
        dfn: tuple[Factor, ...],
    ) -> tuple[tuple[Factor, ...], tuple[Factor, ...]]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _casts_bolts(self, fig: Figure) -> bool:
        """Provided by ``spells``."""
        raise NotImplementedError

    @staticmethod
    def _touch_on(decl: Declaration, fid: str) -> bool:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_declare_options(self, fig: Figure) -> dict[str, object]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _early_roll(self, fid: str, out: list[ev.Event]) -> int:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_round_began(self) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_held_fast(self, phase: str) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_attack_phase_began(self) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_moved(self, fig: Figure, hexes: int) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _check_spell_declaration(
        self, fig: Figure, a: act.Declare
    ) -> tuple[magic.Spell, str | None, Hex | None, bool] | None:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_declared(
        self, fig: Figure, decl: Declaration, plan: tuple[magic.Spell, str | None, Hex | None, bool] | None
    ) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _cast_at_once(self, fig: Figure, decl: Declaration) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_resolve(
        self,
        rollers: Sequence[str],
        rolls: Mapping[str, int],
        attacks: Sequence[tuple[str, str]],
        melee_on: Mapping[str, list[str]],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_figure_removed(self, fid: str) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def _magic_damaged(self, wounds: Sequence[tuple[Figure, int, str, int]]) -> list[ev.Event]:
        """Provided by ``spells``."""
        raise NotImplementedError

    def gm_terms(self, fig: Figure) -> tuple[Modifier, ...]:
        """Provided by ``gm_seat``."""
        raise NotImplementedError

    def light_at(self, h: Hex) -> int:
        """Provided by ``gm_seat``."""
        raise NotImplementedError

    def footing_at(self, h: Hex) -> int:
        """Provided by ``gm_seat``."""
        raise NotImplementedError

    def _gm_new_round(self) -> None:
        # FTC 3: a new round begins; the GM's "this round" modifiers and escape overrides lapse
        """Provided by ``gm_seat``."""
        raise NotImplementedError

    def _gm_escape_levels(self, levels: EscapeLevels, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
        """Provided by ``gm_seat``."""
        raise NotImplementedError

    def _do_gm(self, a: gm.GMAction) -> list[ev.Event]:
        """Provided by ``gm_seat``."""
        raise NotImplementedError


def _covered(figures: Iterable[Figure]) -> frozenset[Hex]:
    """Every hex the figures cover (FTC 5: a large figure's whole footprint)."""
    out: set[Hex] = set()
    for f in figures:
        if f.character.footprint == 1:
            out.add(f.hex)
        else:
            out |= f.cells
    return frozenset(out)


def _sentence(text: str) -> str:
    """A movement error as a sentence for the player (capital first letter, full stop)."""
    text = text.strip()
    if not text:
        return "That move is not allowed."
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


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
