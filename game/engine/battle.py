"""The battle: rounds of initiative, movement and attack phases as a state machine (FTC 3–7).

``Battle`` holds the state; ``legal_actions(battle)`` says who must decide now, why, and what they may
do; ``apply(battle, action)`` validates a decision (raising ``IllegalAction`` with a sentence a player
can read, and changing nothing) and returns the events it caused (DESIGN.md rules 2–5).

Phases are a table (``PHASES``): each names the actions it allows. Checks run in one fixed order:
is the battle over? is the action allowed in this phase? is it this side's / figure's turn? then the
rule itself. All dice come from the battle's own ``random.Random`` seeded from the setup's seed, so
setup + seed + actions reproduce the whole battle (``game.engine.record``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.characters import Character
from game.engine.combat import (
    ACCIDENTAL_DODGE_BONUS,
    Modifier,
    MovedFraction,
    Stance,
    accidental_hit,
    behind_bonus,
    defence_modifiers,
    firing_modifiers,
    hit_locations,
    is_hit,
    melee_difficulty,
    obscured_vision_perception,
    offence_modifiers,
    relative_degree,
    resolve_miss,
    room_to_swing_modifier,
    total,
)
from game.engine.creatures import footprint, front_zone, kind_modifiers, large_distance, pierce_defence
from game.engine.damage import (
    Factor,
    damage_total,
    defensive_factors,
    graze_scale_difference,
    limb_wound,
    offensive_factors,
)
from game.engine.dice import DiceRoll, coin_flip, roll_4df
from game.engine.equipment import Weapon, parry_bonus, parry_penalty
from game.engine.equipment import armour as equipment_armour
from game.engine.equipment import weapon as equipment_weapon
from game.engine.hexgrid import (
    Hex,
    direction_to,
    distance,
    front_hexes,
    neighbor,
    neighbors,
    turn_steps,
)
from game.engine.hexgrid import within as within_hexes
from game.engine.lof import LineOfFire, line_hexes, line_of_fire
from game.engine.movement import IllegalMove, Reach, movement_allowance, reachable, validate_path
from game.engine.ranges import RangeBand, firing_angle_modifier, range_band
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel, Wounds, apply_health_roll, graze_cap
from game.engine.zoc import EscapeLevels, EscapeResult, escape_breakdown

act.register_gm_actions()  # saved logs carry the GM's decisions (issue 8)


class IllegalAction(ValueError):
    """A decision the rules do not allow now; the message is a sentence for the player."""


class CountingRandom(random.Random):
    """The battle's generator: a seeded ``random.Random`` that counts its draws, so undo can tell
    whether a decision rolled dice (DESIGN.md rule 6)."""

    def __init__(self, seed: int) -> None:
        self.draws = 0
        super().__init__(seed)

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)


STANDING_ORDERS = ("always", "never", "ask")
GM_REFEREE = "referee"
"""The GM's seat when the GM plays no side (issue 8)."""
CONTROLLERS = ("human", "tactical", "random")


@dataclass(frozen=True)
class RuleOptions:
    """The battle's rule options (RULINGS.md); each default is the rules text's default."""

    initiative_once: bool = False
    """FTC 4: roll initiative once for the whole battle instead of every round."""
    mook_group_initiative: bool = False
    """FTC 4: all figures marked as mooks on a side roll initiative once, as a group."""
    secret_stances: bool = False
    """Fudge 4.32: stances are chosen unseen and revealed together."""
    per_hex_terrain: bool = False
    """RULINGS.md: entering a hex costs 1 + its penalty instead of the largest-penalty rule."""
    attack_any_adjacent: bool = False
    """RULINGS.md: melee may reach any adjacent hex, not only the front hexes."""
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
    """Issue 8, the GM's seat: a side id whose player is the GM, "referee" for a GM who plays no side, or
    None (no GM: GM actions are refused)."""


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


@dataclass(frozen=True)
class Decision:
    """Who must decide now and why (``legal_actions``)."""

    side: str
    figure: str | None
    reason: str
    kinds: tuple[str, ...]
    prompt: str
    interrupters: tuple[str, ...] = ()
    mover: str | None = None


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
    # phase -> the action kinds it allows (DESIGN.md rule 4); "standing_order" and "yield" are always allowed
    "movement": ("move", "hold", "pass_interrupt", "stop_choice", "escape_failed_choice"),
    "attack": ("declare", "second_move", "follow_choice", "stop_choice", "escape_failed_choice"),
    "over": (),
}
ALWAYS_ALLOWED = ("standing_order", "yield")


class Battle:
    """The whole state of one battle. Create it with ``Battle(setup)``; play it with ``apply``."""

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
        self.rng = CountingRandom(setup.seed)
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
        # the GM's seat (issue 8): standing modifiers and conditions, dice set by hand, escape overrides
        self.gm_state = gm.GMState()
        self.gm_dice: list[gm.SetDie] = []
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

    def stopper_zones(self, mover: Figure) -> dict[Hex, frozenset[str]]:
        """For the path search: each hex -> ids of enemies who would (or might) stop the mover there."""
        zones: dict[Hex, set[str]] = {}
        for e in self.enemies_of(mover):
            if e.standing_order == "never":
                continue
            for h in self.zone(e):
                zones.setdefault(h, set()).add(e.id)
        return {h: frozenset(s) for h, s in zones.items()}

    def movement_allowance_of(self, fig: Figure, posture: str | None = None) -> int:
        """FTC 5, 5.1.1: hexes this round before terrain (posture — the figure's own, or the one it is
        about to take — and encumbrance included)."""
        c = fig.character
        allowance = movement_allowance(
            c.speed,
            speed_scale=c.speed_scale,
            posture=posture or fig.posture,
            strength=c.strength,
            strength_scale=c.strength_scale,
            load_kg=c.carried_mass_kg(),
        )
        return self._magic_allowance(fig, allowance)

    def reach_for(self, fid: str, *, allowance: int | None = None, posture: str | None = None) -> Reach:
        """Reachable hexes and cheapest paths for a figure now (one source of legality, DESIGN.md rule 3);
        ``posture``: as if it first dropped to crawling / prone or stood up (FTC 5 "Crawling and Rolling")."""
        fig = self.figure(fid)
        occupied = _covered(f for f in self.figures.values() if f.id != fid)
        blocking = _covered(self.enemies_of(fig))
        if allowance is None:
            allowance = self.movement_allowance_of(fig, posture)
        return reachable(
            fig.hex,
            fig.facing,
            allowance,
            terrain=self.terrain,
            mode=fig.character.movement_modes[0],
            occupied=occupied,
            impassable=blocking,
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
        """Hexes between two figures: between their nearest hexes (RULINGS.md; creatures.large_distance)."""
        if a.size == 1 and b.size == 1:
            return distance(a.hex, b.hex)
        return large_distance(a.cells, b.cells)

    def _aim(self, firer: Figure, target: Figure) -> tuple[Hex, int]:
        """The hex a missile is aimed at and the range (FTC 6.5): a large target is shot at its nearest hex
        with a line of fire (the nearest hex when none has one); range counts between the nearest hexes."""
        if firer.size == 1 and target.size == 1:
            return target.hex, distance(firer.hex, target.hex)
        cells = sorted(target.cells, key=lambda c: (distance(firer.hex, c), c))
        aim = next((c for c in cells if not line_of_fire(self.terrain, firer.hex, c).blocked), cells[0])
        return aim, large_distance(firer.cells, target.cells)

    def _follow_step(self, fig: Figure, vacated: Hex) -> tuple[Hex, int] | None:
        """FTC 6.2's follow step: a one-hex figure steps into the hex its target left, facing the way it
        stepped; a large figure shifts one hex, keeping its facing, so that it covers that hex. None when
        it cannot (not adjacent, or no room)."""
        if fig.size == 1:
            facing = direction_to(fig.hex, vacated)
            if distance(fig.hex, vacated) != 1 or self.occupant(vacated) is not None:
                return None
            return vacated, facing if facing is not None else fig.facing
        for c in sorted(fig.cells):
            d = direction_to(c, vacated)
            if d is not None:
                h = neighbor(fig.hex, d)
                if self._fits(fig, h, fig.facing):
                    return h, fig.facing
        return None

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

    # ------------------------------------------------------------------ rounds & initiative
    def _begin_round(self) -> list[ev.Event]:
        self.round += 1
        self._gm_new_round()
        out: list[ev.Event] = [ev.RoundBegan(self.round), ev.PhaseBegan(self.round, "initiative")]
        out.extend(self._magic_round_began())
        for f in self.figures.values():
            f.moved = False
            f.held = False
            f.hexes_moved = 0
            f.allowance = self.movement_allowance_of(f)
        out.extend(self._magic_held_fast("move"))
        if self.round == 1 or not self.options.initiative_once:
            out.extend(self._roll_initiative())
        else:
            self.order = [fid for fid in self.order if self.figures[fid].can_act]
            out.append(ev.InitiativeOrder(tuple(self.order)))
        self.phase = "movement"
        self._due = 0
        self._end_queue = None
        self._passed = set()
        out.append(ev.PhaseBegan(self.round, "movement"))
        out.extend(self._advance_movement())
        return out

    def _roll_initiative(self) -> list[ev.Event]:
        """FTC 4: Speed + 4dF, best first; ties by Speed, Agility, Perception, then a coin."""
        out: list[ev.Event] = []
        able = self.able()
        groups: list[list[Figure]] = []
        if self.options.mook_group_initiative:
            by_side: dict[str, list[Figure]] = {}
            for f in able:
                if f.mook:
                    by_side.setdefault(f.side, []).append(f)
                else:
                    groups.append([f])
            groups.extend(by_side.values())
        else:
            groups = [[f] for f in able]
        keys: dict[str, tuple[int, int, int, int, float]] = {}
        flips = 0
        for group in groups:
            lead = group[0]
            speed = (
                round(sum(self._speed_of(f) for f in group) / len(group)) if len(group) > 1 else self._speed_of(lead)
            )
            roll = self._roll("initiative", *(f.id for f in group))
            result = speed + roll.total
            out.append(
                ev.InitiativeRolled(
                    lead.id, speed, roll.faces, result, tuple(f.id for f in group) if len(group) > 1 else ()
                )
            )
            for f in group:
                f.initiative = result
                keys[f.id] = (result, self._speed_of(f), f.character.agility, effective_perception(f.character), 0.0)
        # the coin decides only among figures tied on every trait
        tied: dict[tuple[int, int, int, int, float], list[str]] = {}
        for fid, k in keys.items():
            tied.setdefault(k, []).append(fid)
        for same in tied.values():
            if len(same) > 1:
                ranked, n = self._coin_order(same)
                flips += n
                for i, fid in enumerate(ranked):
                    r, s, a, p, _ = keys[fid]
                    keys[fid] = (r, s, a, p, float(len(ranked) - i))
        self.order = sorted(keys, key=lambda fid: keys[fid], reverse=True)
        out.append(ev.InitiativeOrder(tuple(self.order), flips))
        return out

    def _coin_order(self, ids: Sequence[str]) -> tuple[list[str], int]:
        """FTC 4's last tie-break: everyone tied flips a coin, heads go first, and each group that is still
        tied flips again until the order is settled (fair to every figure); returns (order, coins flipped)."""
        if len(ids) <= 1:
            return list(ids), 0
        flips = 0
        while True:
            heads: list[str] = []
            tails: list[str] = []
            for fid in ids:
                (heads if coin_flip(self.rng) else tails).append(fid)
                flips += 1
            if heads and tails:
                break
        first, n1 = self._coin_order(heads)
        last, n2 = self._coin_order(tails)
        return first + last, flips + n1 + n2

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
                    "stop",
                    ("stop_choice",),
                    f"{mover.name} is leaving {stopper.name}'s zone of control: try to stop them?",
                    mover=mover.id,
                )
            if p.failed_at is not None:
                mover = self.figures[p.figure]
                return Decision(
                    mover.side,
                    mover.id,
                    "escape_failed",
                    ("escape_failed_choice",),
                    f"{mover.name} failed to escape: stay here, or turn tail and run "
                    "(each stopper gets a free attack)?",
                )
        if self.phase == "movement":
            return self._movement_decision()
        return self._attack_decision()

    def _movement_decision(self) -> Decision:
        held = [
            fid
            for fid in self.order
            if self.figures[fid].held and not self.figures[fid].moved and self.figures[fid].can_act
        ]
        if self._end_queue is not None:
            fid = self._end_queue[0]
            fig = self.figures[fid]
            return Decision(
                fig.side,
                fid,
                "held_end",
                ("move",),
                f"End of the movement phase: {fig.name} must use or forfeit the held move.",
            )
        fid = self.order[self._due]
        fig = self.figures[fid]
        for side in self._interrupt_sides(fig, held):
            mine = tuple(h for h in held if self.figures[h].side == side)
            return Decision(
                side,
                None,
                "interrupt",
                ("move", "pass_interrupt"),
                f"{self.sides[side].name}: interrupt with a held figure before {fig.name} moves?",
                interrupters=mine,
            )
        own_held = tuple(h for h in held if self.figures[h].side == fig.side)
        return Decision(fig.side, fid, "move", ("move", "hold"), f"{fig.name} moves (or holds).", interrupters=own_held)

    def _interrupt_sides(self, due: Figure, held: Sequence[str]) -> list[str]:
        sides: list[str] = []
        for h in held:
            s = self.figures[h].side
            if s != due.side and s not in self._passed and s not in sides:
                sides.append(s)
        return sides

    def _attack_decision(self) -> Decision:
        if self._follow_queue:
            fid, _ = self._follow_queue[0]
            fig = self.figures[fid]
            return Decision(
                fig.side, fid, "follow", ("follow_choice",), f"{fig.name}'s target retreats: step forward to follow?"
            )
        fid = self._declare_queue[0]
        fig = self.figures[fid]
        return Decision(
            fig.side,
            fid,
            "declare",
            ("declare", "second_move"),
            f"{fig.name} declares an attack, a defence, or a second move.",
        )

    # ------------------------------------------------------------------ apply
    def apply(self, action: act.Action) -> list[ev.Event]:
        """Validate and carry out one decision; returns the events it caused (see module docstring)."""
        if self.over:
            raise IllegalAction("The battle is over.")
        kind = action.kind
        is_gm = isinstance(action, gm.GMAction)  # the GM may act in any phase (issue 8)
        if not is_gm and kind not in PHASES[self.phase] and kind not in ALWAYS_ALLOWED:
            raise IllegalAction(f"That cannot be done in the {self.phase} phase.")
        draws_before = self.rng.draws
        new_events: list[ev.Event] = (
            self._do_gm(action) if isinstance(action, gm.GMAction) else getattr(self, f"_do_{kind}")(action)
        )
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

    # ---- movement phase
    def _check_turn(self, fid: str, kinds: Iterable[str], kind: str) -> Decision:
        d = self.decision()
        assert d is not None
        if kind not in d.kinds or kind not in kinds:
            raise IllegalAction(f"Now is not the time for that: {d.prompt}")
        return d

    def _do_move(self, a: act.Move) -> list[ev.Event]:
        d = self._check_turn(a.figure, ("move",), "move")
        fig = self.figure(a.figure)
        if self._pending is not None:
            raise IllegalAction(f"Finish {self.figures[self._pending.figure].name}'s move first.")
        if d.reason == "held_end":
            if a.figure != d.figure:
                raise IllegalAction(f"It is {self.figures[d.figure or ''].name}'s turn to use the held move.")
        elif d.reason == "interrupt":
            if a.figure not in d.interrupters:
                raise IllegalAction("Only a held figure of this side may interrupt now.")
        elif a.figure != d.figure and a.figure not in d.interrupters:
            raise IllegalAction(f"It is {self.figures[d.figure or ''].name}'s turn to move.")
        if not fig.can_act or fig.moved:
            raise IllegalAction(f"{fig.name} cannot move again this round.")
        posture = fig.posture if a.posture is None else a.posture
        if posture not in ("standing", "crawling", "prone"):
            raise IllegalAction("Posture is standing, crawling or prone.")
        if d.reason == "held_end" and not a.steps and posture == fig.posture:
            # FTC 5: a held figure that does not use its move at the end of the phase forfeits it
            fig.moved = True
            fig.held = False
            return [ev.Forfeited(fig.id), *self._advance_movement()]
        return self._start_move(fig, a.steps, "move", posture=posture)

    def _start_move(self, fig: Figure, steps: act.States, reason: str, *, posture: str | None = None) -> list[ev.Event]:
        old_posture = fig.posture
        fig.posture = posture or fig.posture
        allowance = self.movement_allowance_of(fig)
        fig.posture = old_posture
        occupied = _covered(f for f in self.figures.values() if f.id != fig.id)
        blocking = _covered(self.enemies_of(fig))
        try:
            path = validate_path(
                fig.hex,
                fig.facing,
                tuple(steps),
                allowance,
                terrain=self.terrain,
                mode=fig.character.movement_modes[0],
                occupied=occupied,
                impassable=blocking,
                per_hex_terrain=self.options.per_hex_terrain,
                size=fig.size,
            )
        except IllegalMove as exc:
            raise IllegalAction(_sentence(str(exc))) from None
        fig.posture = posture or fig.posture
        fig.allowance = allowance
        self._pending = _PendingMove(fig.id, ((fig.hex, fig.facing), *path.steps), path.cost, reason)
        return self._continue_move()

    def _continue_move(self) -> list[ev.Event]:
        """Walk the pending path, pausing for stop questions and failed escapes (FTC 5.2–5.3)."""
        p = self._pending
        assert p is not None
        fig = self.figures[p.figure]
        out: list[ev.Event] = []
        while p.index < len(p.path) - 1:
            here, nxt = p.path[p.index][0], p.path[p.index + 1][0]
            # a large figure's turn moves its hexes too (FTC 5), so it may leave a zone by turning
            was, now = (
                ({here}, {nxt})
                if fig.size == 1
                else (self._body(fig, *p.path[p.index]), self._body(fig, *p.path[p.index + 1]))
            )
            if was != now and not p.to_ask and not p.stopping and p.failed_at is None and p.decided_at != p.index:
                p.decided_at = p.index
                leaving = [
                    e
                    for e in self.enemies_of(fig)
                    if e.standing_order != "never" and not self.zone(e).isdisjoint(was) and self.zone(e).isdisjoint(now)
                ]
                if leaving:
                    p.stopping = [e.id for e in leaving if e.standing_order == "always"]
                    p.to_ask = [e.id for e in leaving if e.standing_order == "ask"]
                    for sid in p.stopping:
                        out.append(ev.StopDecided(sid, fig.id, True))
            if p.to_ask:
                return out  # wait for StopChoice
            if p.failed_at is not None:
                return out  # wait for EscapeFailedChoice
            if p.stopping:
                stoppers = [self.figures[s] for s in p.stopping]
                p.stopping = []
                out.append(self._escape(fig, stoppers, here))
                if not out[-1].escaped:  # type: ignore[attr-defined]
                    p.failed_at = p.index
                    p.failed_stoppers = tuple(s.id for s in stoppers)
                    return out
            p.index += 1
        out.extend(self._finish_move(fig, p.path, p.cost))
        return out

    def escape_levels(self, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
        """FTC 5.3: the escape contest's levels with their named modifiers, the GM's included (the contest
        and the odds shown on screen both come from here)."""
        pairs = []
        for s in stoppers:
            engaged = sum(1 for e in self.enemies_of(s) if e.id != fig.id and not self.zone(e).isdisjoint(s.cells))
            pairs.append((self._combat_skill(s), engaged))
        return self._gm_escape_levels(escape_breakdown(fig.character.agility, pairs), fig, stoppers)

    def _escape(self, fig: Figure, stoppers: list[Figure], at: Hex) -> ev.EscapeContest | ev.EscapeOverridden:
        """FTC 5.3: the escape contest, with its modifiers, rolled at once (unless the GM decided it)."""
        if fig.id in self.gm_escape:
            return ev.EscapeOverridden(fig.id, tuple(s.id for s in stoppers), self.gm_escape.pop(fig.id))
        levels = self.escape_levels(fig, stoppers)
        # mover first, then each stopper in order: the draws of FTC 5.3's contest as zoc.roll_escape makes them
        mr = self._roll("escape", fig.id)
        rolls = tuple(self._roll("escape", s.id) for s in stoppers)
        result = EscapeResult(
            mr,
            levels.mover + mr.total,
            rolls,
            tuple(lv + r.total for lv, r in zip(levels.stoppers, rolls, strict=True)),
        )
        stopper_mods = levels.stopper_modifiers
        return ev.EscapeContest(
            fig.id,
            at,
            fig.character.agility,
            tuple(levels.mover_modifiers),
            result.mover_roll.faces,
            result.mover_result,
            tuple(s.id for s in stoppers),
            tuple(self._combat_skill(s) for s in stoppers),
            tuple(tuple(m) for m in stopper_mods),
            tuple(r.faces for r in result.stopper_rolls),
            tuple(result.stopper_results),
            result.escaped,
        )

    def _finish_move(self, fig: Figure, path: Sequence[tuple[Hex, int]], cost: int) -> list[ev.Event]:
        p = self._pending
        reason = p.reason if p else "move"
        self._pending = None
        hexes = [path[0][0]]
        for h, _ in path[1:]:
            if h != hexes[-1]:
                hexes.append(h)
        fig.hex, fig.facing = path[-1]
        fig.hexes_moved += len(hexes) - 1
        out: list[ev.Event] = [ev.Moved(fig.id, tuple(hexes), fig.facing, cost, fig.allowance, reason)]
        out.extend(self._magic_moved(fig, len(hexes) - 1))
        if reason == "second move":
            self._declare_queue.pop(0)
            out.extend(self._advance_attack())
            return out
        fig.moved = True
        fig.held = False
        # FTC 5: a held figure may interrupt before *any* later figure, so a side that let one figure
        # pass is asked again before the next one moves
        self._passed = set()
        out.extend(self._advance_movement())
        return out

    def _do_stop_choice(self, a: act.StopChoice) -> list[ev.Event]:
        p = self._pending
        if p is None or not p.to_ask or p.to_ask[0] != a.figure:
            raise IllegalAction("Nobody is asking that figure whether to stop a mover now.")
        p.to_ask.pop(0)
        if a.stop:
            p.stopping.append(a.figure)
        out: list[ev.Event] = [ev.StopDecided(a.figure, p.figure, a.stop)]
        if not p.to_ask:
            out.extend(self._continue_move())
        return out

    def _do_escape_failed_choice(self, a: act.EscapeFailedChoice) -> list[ev.Event]:
        p = self._pending
        if p is None or p.failed_at is None or p.figure != a.figure:
            raise IllegalAction("That figure has not failed an escape.")
        fig = self.figures[a.figure]
        out: list[ev.Event] = [ev.EscapeFailed(fig.id, a.run)]
        if not a.run:
            out.extend(self._finish_move(fig, self._stop_point(fig, p.path, p.failed_at), p.cost))
            return out
        stoppers = [self.figures[s] for s in p.failed_stoppers]
        out.extend(self._free_attacks(fig, stoppers))
        p.failed_at = None
        if not fig.can_act:
            out.extend(self._finish_move(fig, self._stop_point(fig, p.path, p.index), p.cost))
            return out
        p.index += 1
        out.extend(self._continue_move())
        return out

    def _stop_point(self, fig: Figure, path: Sequence[tuple[Hex, int]], upto: int) -> list[tuple[Hex, int]]:
        """FTC 5.2: a move cut short (held in place, or taken out while running) ends in the last hex of
        the path up to ``upto`` that no other figure occupies: nobody ends a move in an occupied hex."""
        cut = list(path[: upto + 1])
        taken = _covered(f for f in self.figures.values() if f.id != fig.id)
        while len(cut) > 1 and not taken.isdisjoint(self._body(fig, *cut[-1])):
            cut.pop()
        return cut

    def _do_hold(self, a: act.Hold) -> list[ev.Event]:
        d = self._check_turn(a.figure, ("hold",), "hold")
        if a.figure != d.figure:
            raise IllegalAction("Only the figure whose turn it is may hold.")
        fig = self.figures[a.figure]
        fig.held = True
        self._due += 1
        self._passed = set()
        return [ev.Held(fig.id), *self._advance_movement()]

    def _do_pass_interrupt(self, a: act.PassInterrupt) -> list[ev.Event]:
        d = self._check_turn("", ("pass_interrupt",), "pass_interrupt")
        if a.side != d.side:
            raise IllegalAction("It is another side's choice now.")
        self._passed.add(a.side)
        return []

    def _advance_movement(self) -> list[ev.Event]:
        """Skip figures that already moved or cannot act; at the end, held figures in reverse order."""
        out: list[ev.Event] = []
        if self._check_over(out):
            return out
        if self._end_queue is None:
            while self._due < len(self.order):
                f = self.figures[self.order[self._due]]
                if f.can_act and not f.moved and not f.held:
                    break
                self._due += 1
            else:
                self._end_queue = [fid for fid in reversed(self.order) if self.figures[fid].held]
                self._passed = set()
        if self._end_queue is not None:
            self._end_queue = [
                fid for fid in self._end_queue if self.figures[fid].can_act and not self.figures[fid].moved
            ]
            if not self._end_queue:
                out.extend(self._begin_attack_phase())
        return out

    # ---- attack phase
    def _begin_attack_phase(self) -> list[ev.Event]:
        self.phase = "attack"
        self._declarations = {}
        self._declare_queue = [fid for fid in reversed(self.order) if self.figures[fid].can_act]
        self._revealed = False
        for f in self.figures.values():
            f.phase_start_hex = f.hex
            f.positions = [(f.hex, f.facing)]
        out: list[ev.Event] = [ev.PhaseBegan(self.round, "attack")]
        out.extend(self._magic_attack_phase_began())
        if not self._declare_queue:
            out.extend(self._resolve_round())
        return out

    def _advance_attack(self) -> list[ev.Event]:
        if self._declare_queue or self._follow_queue:
            return []
        out: list[ev.Event] = []
        if self.options.secret_stances and not self._revealed:
            self._revealed = True
            out.append(ev.Revealed())
            for d in self._declarations.values():
                out.append(ev.Declared(d.figure, d.stance, d.targets, d.dodge, d.weapon, d.second_move))
            for d in list(self._declarations.values()):
                # 1-second spells first, in the order declared: each was declared before any step was seen
                if d.pending_cast and self.figures[d.figure].can_act:
                    out.extend(self._cast_at_once(self.figures[d.figure], d))
            for d in list(self._declarations.values()):
                # a figure taken out or held fast since it declared makes no step at the reveal
                if (d.pending_steps or d.pending_retreat is not None) and self.figures[d.figure].can_act:
                    out.extend(self._take_steps(self.figures[d.figure], d, d.pending_steps, d.pending_retreat))
            if self._follow_queue:
                return out
        out.extend(self._resolve_round())
        return out

    # ---- attack phase: who can be attacked
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
        """Melee reach (RULINGS.md): a front hex; spear/pike also distance 2 in the front arc. A large
        attacker (``size``) reaches from the front of its footprint, a large target (``target``: its size and
        facing) is reached at any of its hexes (FTC 5; creatures.front_zone)."""
        if size != 1 or target[0] != 1:
            body = footprint(att_hex, size, att_facing)
            zone = front_zone(body, att_facing, 2 if weapon.reach >= 2 else 1)
            if self.options.attack_any_adjacent:
                zone |= {n for c in body for n in neighbors(c)} - body
            return not zone.isdisjoint(footprint(target_hex, target[0], target[1]))
        d = distance(att_hex, target_hex)
        if d == 1:
            return self.options.attack_any_adjacent or target_hex in front_hexes(att_hex, att_facing)
        if d == 2 and weapon.reach >= 2:
            return target_hex in front_arc_2(att_hex, att_facing)
        return False

    def _ranged_ok(self, firer: Figure, target: Figure, weapon: Weapon) -> bool:
        aim, dist = self._aim(firer, target)
        band = range_band(weapon, dist, target.character.mass_scale)
        if band is None:
            return False
        return not line_of_fire(self.terrain, firer.hex, aim).blocked and not self._magic_sight_blocked(firer.hex, aim)

    def targets_for(
        self, fid: str, weapon: Weapon | None = None, *, positions: Sequence[tuple[Hex, int]] | None = None
    ) -> list[str]:
        """Figures this figure may attack with a weapon now (FTC 6.2: in reach at any point along either
        figure's attack-phase movement; ranged: in range with an unblocked line of fire)."""
        fig = self.figure(fid)
        weapon = weapon or fig.character.ready_weapon
        mine = list(positions) if positions is not None else fig.positions
        out: list[str] = []
        for e in self.enemies_of(fig):
            if weapon.ranged:
                if self._ranged_ok(fig, e, weapon):
                    out.append(e.id)
            elif self._reach_along(fig, mine, e, e.positions, weapon):
                out.append(e.id)
        return out

    def _reach_along(
        self,
        att: Figure,
        mine: Sequence[tuple[Hex, int]],
        tgt: Figure,
        theirs: Sequence[tuple[Hex, int]],
        weapon: Weapon,
    ) -> bool:
        """FTC 6.2: whether ``tgt`` was in ``att``'s melee reach with ``weapon`` at any point along the two
        figures' attack-phase movement (``mine``, ``theirs``: the positions each took). Weapons and touch
        spells (FTC 8.3) both ask here."""
        return any(
            self._reach_ok(h, f, th, weapon, size=att.size, target=(tgt.size, tf)) for h, f in mine for th, tf in theirs
        )

    def _moves_of(self, fig: Figure) -> list[tuple[Hex, int]]:
        """The positions a figure took in this attack phase (FTC 6.2); outside it, where it stands now."""
        return fig.positions if self.phase == "attack" and fig.positions else [(fig.hex, fig.facing)]

    def melee_attackers_on(self, fid: str) -> list[str]:
        """Figures that have declared a melee attack on this figure this round so far (FTC 6.1), counted as the
        round's resolution counts them (able to act, no second move): table 7's "defending against attacks"
        for a caster resolved at his declaration (FTC 8.1), and for the odds shown before declaring."""
        return [
            d.figure
            for d in self._declarations.values()
            if fid in d.targets
            and not d.second_move
            and self.figures[d.figure].can_act
            and not self._weapon_of(self.figures[d.figure], d.weapon).ranged
        ]

    def threats_to(self, fid: str) -> list[Figure]:
        """Enemies attacking this figure: those who declared attacks on it (a touch spell cast on it
        included: its touch is a standard attack, FTC 8.3), and those who have it in melee reach now (FTC
        6.2's "attackers" for a retreat)."""
        fig = self.figure(fid)
        out = []
        for e in self.enemies_of(fig):
            d = self._declarations.get(e.id)
            if (d and (fid in d.targets or self._touch_on(d, fid))) or (
                d is None
                and self._reach_ok(
                    e.hex, e.facing, fig.hex, e.character.ready_weapon, size=e.size, target=(fig.size, fig.facing)
                )
            ):
                out.append(e)
        return out

    def retreat_hexes(self, fid: str) -> list[Hex]:
        """FTC 6.2: adjacent free hexes farther from every attacker (zones of control do not apply)."""
        fig = self.figure(fid)
        threats = self.threats_to(fid)
        out = []
        if fig.size != 1 or any(t.size != 1 for t in threats):
            # a large figure shifts its whole footprint; distances between nearest hexes (FTC 5)
            return [
                h
                for h in neighbors(fig.hex)
                if self._fits(fig, h, fig.facing)
                and all(
                    large_distance(self._body(fig, h, fig.facing), t.cells) > self._distance(fig, t) for t in threats
                )
            ]
        for h in neighbors(fig.hex):
            if not self.terrain.is_passable(h, fig.character.movement_modes[0]) or self.occupant(h):
                continue
            if all(distance(h, t.hex) > distance(fig.hex, t.hex) for t in threats):
                out.append(h)
        return out

    def declare_options(self, fid: str) -> dict[str, object]:
        """What a figure may declare now: weapons with their targets, stances, retreat hexes (for the UI/AI)."""
        fig = self.figure(fid)
        weapons = {w.name: self.targets_for(fid, w) for w in fig.character.weapons or (fig.character.ready_weapon,)}
        retreats = self.retreat_hexes(fid)
        stances = [s.value for s in Stance if not (s.retreat == "must" and not retreats)]
        firers = [
            e.id for e in self.enemies_of(fig) if any(w.ranged for w in e.character.weapons) or self._casts_bolts(e)
        ]
        options: dict[str, object] = {"weapons": weapons, "stances": stances, "retreats": retreats, "firers": firers}
        options.update(self._magic_declare_options(fig))
        return options

    def _weapon_of(self, fig: Figure, name: str | None) -> Weapon:
        if name is None:
            return fig.character.ready_weapon
        for w in (*fig.character.weapons, fig.character.ready_weapon):  # a figure without weapons has its fist
            if w.name.lower() == name.lower():
                return w
        raise IllegalAction(f"{fig.name} does not carry a {name}.")

    def _check_declarer(self, fid: str, kind: str) -> Figure:
        d = self.decision()
        assert d is not None
        if kind not in d.kinds:
            raise IllegalAction(f"Now is not the time for that: {d.prompt}")
        if d.figure != fid:
            raise IllegalAction(f"It is {self.figures[d.figure or ''].name}'s turn to declare.")
        return self.figure(fid)

    def _do_declare(self, a: act.Declare) -> list[ev.Event]:
        fig = self._check_declarer(a.figure, "declare")
        plan = self._check_spell_declaration(fig, a)
        try:
            stance = Stance(a.stance)
        except ValueError:
            raise IllegalAction(
                f"Unknown stance {a.stance!r}; choose one of {', '.join(s.value for s in Stance)}."
            ) from None
        weapon = self._weapon_of(fig, a.weapon)
        if len(a.targets) > 1:
            raise IllegalAction("A figure attacks one target a round.")
        enemies = {e.id for e in self.enemies_of(fig)}
        for t in a.targets:
            if t not in enemies:
                raise IllegalAction(f"{self.figure(t).name} is not an enemy able to fight.")
        for firer in a.dodge:
            if firer not in enemies or not (
                any(w.ranged for w in self.figures[firer].character.weapons) or self._casts_bolts(self.figures[firer])
            ):
                raise IllegalAction(f"{self.figure(firer).name} is not an enemy missile firer or caster.")
        # advance (aggressive stances trade attack bonus for steps, FTC 6.2)
        positions = [(fig.hex, fig.facing)]
        if a.advance:
            if len(a.advance) > stance.max_advance:
                raise IllegalAction(
                    f"A {stance.display_name.lower()} stance allows at most {stance.max_advance} hex(es) of advance."
                )
            if not a.targets:
                raise IllegalAction("An advance must bring the figure to the enemy it attacks.")
            h, f = fig.hex, fig.facing
            for step in a.advance:
                if step == h:
                    nf = a.advance_facing if a.advance_facing is not None else f
                    if turn_steps(f, nf) != 1:
                        raise IllegalAction("Turning in place during an advance turns exactly one hex side.")
                    if fig.size != 1 and not self._fits(fig, h, nf):
                        raise IllegalAction(f"{fig.name} has no room to turn there.")
                    f = nf
                else:
                    if step not in front_hexes(h, f):
                        raise IllegalAction("Each advancing step goes into one of the three hexes in front.")
                    occ = self.occupant(step)
                    if fig.size != 1:
                        if not self._fits(fig, step, direction_to(h, step) or 0):
                            raise IllegalAction(
                                f"{fig.name} has no room there: every hex it would cover must be free and passable."
                            )
                    elif occ is not None or not self.terrain.is_passable(step, fig.character.movement_modes[0]):
                        raise IllegalAction("That hex is occupied or cannot be entered.")
                    f = direction_to(h, step) or 0 if direction_to(h, step) is not None else f
                    h = step
                positions.append((h, f))
        allowed = self.targets_for(fig.id, weapon, positions=positions)
        for t in a.targets:
            if t not in allowed:
                raise IllegalAction(f"{self.figures[t].name} is out of reach of {fig.name}'s {weapon.name}.")
        # retreat (defensive stances, FTC 6.2)
        retreat_ok = self.retreat_hexes(fig.id)
        if stance.retreat == "must" and a.retreat is None:
            raise IllegalAction(
                "A very defensive stance must retreat one hex"
                + (" — and no hex leads away from every attacker." if not retreat_ok else ".")
            )
        if a.retreat is not None:
            if stance.retreat == "none":
                raise IllegalAction("Only a defensive stance may retreat.")
            if a.retreat not in retreat_ok:
                raise IllegalAction("A retreat goes to a free adjacent hex farther from every attacker.")
            if a.advance:
                raise IllegalAction("A figure cannot both advance and retreat.")
        # all checks passed: carry it out
        out: list[ev.Event] = []
        decl = Declaration(
            fig.id,
            stance.value,
            tuple(a.targets),
            weapon.name,
            tuple(a.dodge),
            advance_used=sum(1 for _ in a.advance),
            aim=a.aim,
        )
        self._declarations[fig.id] = decl
        self._declare_queue.pop(0)
        out.append(
            ev.Declared(fig.id, stance.value, decl.targets, decl.dodge, weapon.name, hidden=self.options.secret_stances)
        )
        out.extend(self._magic_declared(fig, decl, plan))
        if self.options.secret_stances:
            # the steps would show the stance: they wait for the reveal (Fudge 4.32)
            decl.pending_steps = tuple(positions[1:])
            decl.pending_retreat = a.retreat
        else:
            out.extend(self._take_steps(fig, decl, tuple(positions[1:]), a.retreat))
        out.extend(self._advance_attack())
        return out

    def _take_steps(
        self, fig: Figure, decl: Declaration, steps: tuple[tuple[Hex, int], ...], retreat: Hex | None
    ) -> list[ev.Event]:
        """FTC 6.2: carry out a declaration's advance or retreat, and offer attackers the follow step."""
        out: list[ev.Event] = []
        for h, f in steps:
            if (h != fig.hex and self.occupant(h) is not None) if fig.size == 1 else not self._fits(fig, h, f):
                break  # under secret stances another figure may have stepped there first
            out.append(ev.Stepped(fig.id, fig.hex, h, f, "advance"))
            fig.hex, fig.facing = h, f
            fig.positions.append((h, f))
        if retreat is not None and (
            self.occupant(retreat) is None if fig.size == 1 else self._fits(fig, retreat, fig.facing)
        ):
            origin = fig.hex
            left = sorted(fig.cells - self._body(fig, retreat, fig.facing)) if fig.size != 1 else [origin]
            out.append(ev.Stepped(fig.id, origin, retreat, fig.facing, "retreat"))
            fig.hex = retreat
            fig.positions.append((fig.hex, fig.facing))
            decl.retreated = True
            for other in self._declarations.values():
                if fig.id in other.targets and Stance(other.stance).retreat == "none" and other.figure != fig.id:
                    follower = self.figures[other.figure]
                    # the follower steps into a hex the target left (FTC 6.2), if it can
                    spot = next((c for c in left if self._follow_step(follower, c) is not None), None)
                    if spot is not None and follower.can_act:
                        self._follow_queue.append((follower.id, spot))
        return out

    def _do_second_move(self, a: act.SecondMove) -> list[ev.Event]:
        fig = self._check_declarer(a.figure, "second_move")
        if self._pending is not None:
            raise IllegalAction("Finish the move under way first.")
        self._declarations[fig.id] = Declaration(
            fig.id, "neutral", (), fig.character.ready_weapon.name, second_move=True
        )
        try:
            out: list[ev.Event] = [
                ev.Declared(fig.id, "neutral", (), (), fig.character.ready_weapon.name, second_move=True)
            ]
            out.extend(self._start_move(fig, a.steps, "second move"))
        except IllegalAction:
            del self._declarations[fig.id]
            raise
        return out

    def _do_follow_choice(self, a: act.FollowChoice) -> list[ev.Event]:
        if not self._follow_queue or self._follow_queue[0][0] != a.figure:
            raise IllegalAction("That figure is not being offered a follow step now.")
        fid, vacated = self._follow_queue[0]
        fig = self.figures[fid]
        if a.hex is not None and a.hex != vacated:
            raise IllegalAction("Following steps into the hex the target left.")
        step = self._follow_step(fig, vacated)
        if a.hex is not None and step is None:
            raise IllegalAction("The hex the target left is taken.")
        self._follow_queue.pop(0)
        out: list[ev.Event] = []
        if a.hex is not None and step is not None:
            origin = fig.hex
            fig.hex, fig.facing = step
            fig.positions.append((fig.hex, fig.facing))
            out.append(ev.Stepped(fid, origin, fig.hex, fig.facing, "follow"))
            # two attackers may follow the same target: once one steps in, the others have no hex to take
            self._follow_queue = [
                (f, h)
                for f, h in self._follow_queue
                if h != vacated and self._follow_step(self.figures[f], h) is not None
            ]
        out.extend(self._advance_attack())
        return out

    # ---- attack phase: resolution (FTC 6.3–7.4)
    def _combat_skill(self, fig: Figure, weapon: Weapon | None = None) -> int:
        return fig.character.combat_skill(weapon or fig.character.ready_weapon)

    def _melee_weapon(self, fig: Figure) -> Weapon:
        for w in fig.character.weapons:
            if not w.ranged:
                return w
        return equipment_weapon("Fist")

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
        """The defender's melee defence result against one attacker (FTC 6.3, 6.4.1)."""
        stance = Stance(decl.stance) if decl else Stance.NEUTRAL
        own = self._melee_weapon(defender)
        vh = defender.very_hurt_penalty(self.round)
        gm_mods = self.gm_terms(defender)
        kind = kind_modifiers(defender.character.kind)[1]  # Fudge 4.23: a carnivore defends a level low
        base_mods = (
            *defence_modifiers(
                stance=stance,
                parry_penalty=parry_penalty(own, weapon),
                unwieldy=own.defense_penalty,
                parry_bonus=parry_bonus(own, weapon),
                very_hurt_penalty=vh,
                free_attack_run=run,
            ),
            *kind,
            *self._magic_mods(defender, "defence"),
            *gm_mods,
        )
        weapon_result = defender.character.combat_skill(own) + roll + total(base_mods)
        shield = defender.character.shield_in_use(own)
        if shield_ok and shield is not None:
            mods = (
                *defence_modifiers(stance=stance, shield=shield.defense, very_hurt_penalty=vh, free_attack_run=run),
                *kind,
                *self._magic_mods(defender, "defence"),
                *gm_mods,
            )
            shield_result = defender.character.skill_level("Shield") + roll + total(mods)
            if shield_result > weapon_result:
                return shield_result, mods, True
        return weapon_result, base_mods, False

    def _free_attacks(self, mover: Figure, stoppers: list[Figure]) -> list[ev.Event]:
        """FTC 5.3: each stopper attacks the runner at once; one defence roll at -2, no blow back."""
        out: list[ev.Event] = []
        mover_roll = self._roll("combat", mover.id)
        out.append(ev.CombatRoll(mover.id, mover_roll.faces))
        wounds: list[tuple[Figure, int, str, int]] = []
        for s in stoppers:
            r = self._roll("combat", s.id)
            out.append(ev.CombatRoll(s.id, r.faces))
            weapon = self._melee_weapon(s)
            defence, dmods, _ = self._defence_vs(mover, s, weapon, mover_roll.total, None, shield_ok=True, run=True)
            behind = behind_bonus(
                s.hex, mover.hex, mover.facing, attacker_phase_start=s.hex, moved_this_attack_phase=False
            )
            omods = (
                *offence_modifiers(
                    stance=Stance.NEUTRAL, behind=behind, very_hurt_penalty=s.very_hurt_penalty(self.round)
                ),
                *kind_modifiers(s.character.kind)[0],
                *self.gm_terms(s),
            )
            event, wound = self._strike(
                s,
                mover,
                weapon,
                r.total,
                omods,
                defence,
                dmods,
                (),
                melee_difficulty(s.character.mass_scale, mover.character.mass_scale),
                self._distance(s, mover),
                "best",
                free=True,
            )
            out.append(event)
            if wound:
                wounds.append(wound)
        out.extend(self._apply_wounds(wounds))
        for f in (mover,):
            if not f.can_act and not f.out:
                f.out = True
                out.append(ev.TakenOut(f.id, f.wounds.label))
        return out

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
        """One attack: hit, relative degree, location, damage (FTC 6.4, 6.6, 7.1–7.3); ``skill``: a touch
        spell's touch skill (FTC 8.3) instead of the weapon's."""
        skill = att.character.combat_skill(weapon) if skill is None else skill
        offence = skill + roll + total(omods)
        hit = (
            is_hit(
                offence, [d for d in ([defence] if defence is not None else [])] + [r for _, r in others], difficulty
            )
            if not stray
            else True
        )
        base: dict[str, Any] = dict(
            attacker=att.id,
            target=tgt.id,
            weapon=weapon.name,
            skill=skill,
            roll=roll,
            offence_mods=tuple((m.name, m.value) for m in omods),
            offence=offence,
            defence=defence,
            defence_mods=tuple((m.name, m.value) for m in dmods),
            other_defences=tuple(others),
            difficulty=difficulty,
            free_attack=free,
            stray=stray,
        )
        if not hit:
            return ev.AttackResolved(
                **base, hit=False, relative_degree=relative_degree(offence, defence, difficulty)
            ), None
        rd = 0 if stray else relative_degree(offence, defence, difficulty)
        location = "torso"
        choices = hit_locations(offence, defence) if not stray else ("torso",)
        if "head" in choices and tgt.character.has_head and aim in ("best", "head"):
            location = "head"
        two = att.character.wields_two_handed(weapon)
        off = offensive_factors(
            att.character, weapon, two_handed=two, distance=dist, location=location, target=tgt.character
        )
        dfn = defensive_factors(tgt.character, weapon, location=location)
        off, dfn = self._magic_factors(att, tgt, weapon, location, off, dfn)
        piercing = att.character.piercing(weapon)
        if piercing is not None:  # Fudge 4.58: a solid blow pierces the Mass Scale
            dfn = pierce_defence(dfn, rd, "halve" if piercing == "halve" else "ignore")
        dmg = damage_total(rd, off, dfn)
        level = tgt.character.wound_track.level_for_damage(dmg)
        # Fudge 4.56's graze table reads the damage number and the Scale difference: pass both
        level = (
            graze_cap(
                level,
                rd,
                fudge_graze_table=self.options.fudge_graze_table,
                damage=dmg,
                scale_difference=graze_scale_difference(att.character, tgt.character, weapon),
            )
            if level
            else None
        )
        event = ev.AttackResolved(
            **base,
            hit=True,
            relative_degree=rd,
            location=location,
            offensive_factors=tuple((f.name, f.value) for f in off),
            defensive_factors=tuple((f.name, f.value) for f in dfn),
            damage=dmg,
            wound=str(level) if level else None,
        )
        return event, ((tgt, dmg, location, int(level)) if level else None)

    def _apply_wounds(self, wounds: Sequence[tuple[Figure, int, str, int]]) -> list[ev.Event]:
        """FTC 7.3–7.4, 6.6: Health roll on each wound, limb cap, then the next open box."""
        out: list[ev.Event] = []
        for fig, dmg, location, lv in wounds:
            level = WoundLevel(lv)
            roll = self._roll("health", fig.id)
            health = fig.character.health + roll.total
            after = apply_health_roll(level, health)
            crippled = None
            if location in ("arm", "leg"):
                after, is_crippled = limb_wound(after, health)
                crippled = location if is_crippled else None
                if crippled:
                    fig.crippled = (*fig.crippled, location)
            fig.wounds, box = fig.wounds.record(after)
            # FTC 6.4: the round a figure first becomes Very Hurt it fights on unhindered; later wounds
            # do not postpone a penalty that already applies
            if box >= WoundLevel.VERY_HURT and fig.very_hurt_from_round is None:
                fig.very_hurt_from_round = self.round
            out.append(ev.Wounded(fig.id, dmg, str(level), roll.faces, health, str(after), str(box), crippled))
        return out

    def _resolve_round(self) -> list[ev.Event]:
        """FTC 6.3–6.5: one roll each, every attack resolved, all damage applied, then take-outs."""
        out: list[ev.Event] = []
        decls = self._declarations
        rollers = [
            fid for fid in self.order if fid in decls and not decls[fid].second_move and self.figures[fid].can_act
        ]
        rolls: dict[str, int] = {}
        for fid in rollers:
            faces = self._roll_faces.get(fid)  # FTC 8.1: rolled already for a 1-second spell
            if faces is None:
                faces = self._roll_faces[fid] = self._roll("combat", fid).faces
            rolls[fid] = sum(faces)
            out.append(ev.CombatRoll(fid, faces))
        attacks = [(fid, t) for fid in rollers for t in decls[fid].targets if self.figures[t].can_act]
        melee_on: dict[str, list[str]] = {}
        for a, t in attacks:
            if not self._weapon_of(self.figures[a], decls[a].weapon).ranged:
                melee_on.setdefault(t, []).append(a)
        # shields cover as many melee attackers as the table allows, in the attackers' initiative order
        shield_vs: dict[str, set[str]] = {}
        for t, atts in melee_on.items():
            sh = self.figures[t].character.shield
            n = sh.shield_attacks_per_round if sh is not None else 0
            shield_vs[t] = set(atts[:n])
        wounds: list[tuple[Figure, int, str, int]] = []
        for a_id, t_id in attacks:
            att, tgt = self.figures[a_id], self.figures[t_id]
            d = decls[a_id]
            weapon = self._weapon_of(att, d.weapon)
            stance = Stance(d.stance)
            dist = self._distance(att, tgt)
            terms = self.attack_terms(
                att,
                tgt,
                weapon,
                stance,
                advance_used=d.advance_used,
                dodges=len(d.dodge),
                firer_defending=bool(melee_on.get(a_id)),
            )
            omods = list(terms.modifiers)
            difficulty = terms.difficulty
            band = terms.band
            tdecl = decls.get(t_id)
            others: list[tuple[str, int]] = []
            if weapon.ranged:
                defence: int | None = None
                dmods: tuple[Modifier, ...] = ()
                if tdecl is not None and a_id in tdecl.dodge and not tdecl.second_move:
                    dmods = self.dodge_terms(
                        t_id, Stance(tdecl.stance), Modifier("range defence bonus", band.defense_bonus if band else 0)
                    )
                    defence = tgt.character.agility + rolls[t_id] + total(dmods)
            else:
                if tdecl is None or tdecl.second_move or t_id not in rolls:
                    defence, dmods = None, ()
                else:
                    defence, dmods, _ = self._defence_vs(
                        tgt, att, weapon, rolls[t_id], tdecl, shield_ok=a_id in shield_vs.get(t_id, set())
                    )
                for o in melee_on.get(a_id, []):
                    if o != t_id and o in rolls:
                        res, _, _ = self._defence_vs(
                            self.figures[o],
                            att,
                            weapon,
                            rolls[o],
                            decls.get(o),
                            shield_ok=a_id in shield_vs.get(o, set()),
                        )
                        others.append((o, res))
            event, wound = self._strike(
                att, tgt, weapon, rolls[a_id], omods, defence, dmods, others, difficulty, dist, d.aim
            )
            out.append(event)
            if wound:
                wounds.append(wound)
            elif weapon.ranged and not event.hit:
                assert terms.line is not None
                out.extend(self._stray(att, tgt, weapon, rolls[a_id], omods, terms.line, rolls, wounds))
        out.extend(self._magic_resolve(rollers, rolls, attacks, melee_on, wounds))
        out.extend(self._apply_wounds(wounds))
        out.extend(self._magic_damaged(wounds))
        for f in self.figures.values():
            if not f.can_act and not f.out:
                f.out = True
                out.append(ev.TakenOut(f.id, f.wounds.label))
        if self._check_over(out):
            return out
        out.extend(self._begin_round())
        return out

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
        band and line of fire (FTC 6.4, 6.4.1, 6.5, tables 4 and 7; 9.1 "needs room to swing").

        The round's resolution and the odds shown before a declaration both come from here (DESIGN.md rule
        3). ``positions`` / ``phase_start`` default to the attacker's attack-phase movement so far; the
        preview passes a planned advance instead.
        """
        positions = att.positions if positions is None else positions
        start = att.phase_start_hex if phase_start is None else phase_start
        behind = 0
        if not weapon.ranged:
            behind = max(
                (
                    behind_bonus(
                        h, tgt.hex, tgt.facing, attacker_phase_start=start, moved_this_attack_phase=(h != start)
                    )
                    for h, _ in positions
                    if h != tgt.hex
                ),
                default=0,
            )
        mods = list(
            offence_modifiers(
                stance=stance,
                advance_hexes_used=advance_used,
                behind=behind,
                very_hurt_penalty=att.very_hurt_penalty(self.round),
                missile_dodges=dodges,
            )
        )
        mods += kind_modifiers(att.character.kind)[0]  # Fudge 4.23: prey attacks a level low
        mods += self.gm_terms(att)
        if not weapon.ranged:
            if weapon.needs_room:
                mods += room_to_swing_modifier(self._crowding(att, tgt))
            mods += self._magic_attack_mods(att, tgt.hex)
            return AttackTerms(tuple(mods), melee_difficulty(att.character.mass_scale, tgt.character.mass_scale))
        aim, dist = self._aim(att, tgt)
        # every hex a figure covers is on the map of occupants: a large figure in the way is at risk
        occupants = {
            h: f.id for f in self.figures.values() if f.can_act for h in ((f.hex,) if f.size == 1 else f.cells)
        }
        lof: LineOfFire[str] = line_of_fire(self.terrain, att.hex, aim, occupants=occupants)
        band = range_band(weapon, dist, tgt.character.mass_scale)
        moved: MovedFraction = (
            "none" if att.hexes_moved == 0 else "half" if 2 * att.hexes_moved <= att.allowance else "full"
        )
        mods += firing_modifiers(
            moved_fraction=moved,
            firer_defending=firer_defending,
            elevation_angle_modifier=firing_angle_modifier(
                self.terrain.elevation_at(att.hex), self.terrain.elevation_at(aim), dist
            ),
            footing=self.footing_at(att.hex),
            light=self.light_at(att.hex),
            partial_cover=lof.partial_cover,
        )
        if self.terrain.cover_at(aim):
            mods.append(Modifier("target in cover", self.terrain.cover_at(aim)))
        mods += self._magic_attack_mods(att, aim)
        return AttackTerms(tuple(mods), band.difficulty if band else OUT_OF_RANGE, band, lof)

    def dodge_terms(self, fid: str, stance: Stance, bonus: Modifier | None = None) -> tuple[Modifier, ...]:
        """The modifiers of a figure dodging a missile or a spell with Agility (FTC 6.5.2): its stance (table
        4) and Very Hurt (FTC 6.4.1), ``bonus`` (table 8's range defence bonus, or a bolt's on the spell's
        difficulty; FTC 8.3), the spells on it (a Ward), the GM's modifiers (*Fudge* 4.1). A direct shot, a
        bolt and a stray (FTC 6.5.3, which adds its own +3) all dodge with these terms."""
        fig = self.figure(fid)
        return (
            *defence_modifiers(stance=stance, very_hurt_penalty=fig.very_hurt_penalty(self.round)),
            *((bonus,) if bonus is not None else ()),
            *self._magic_mods(fig, "defence"),
            *self.gm_terms(fig),
        )

    def _crowding(self, fig: Figure, target: Figure) -> int:
        """How many of a figure's adjacent hexes hold a wall or another figure, the target not counted."""
        mode = fig.character.movement_modes[0]
        return sum(
            1
            for h in neighbors(fig.hex)
            if h != target.hex and (not self.terrain.is_passable(h, mode) or self._other_occupant(h, fig, target))
        )

    def _other_occupant(self, h: Hex, *figs: Figure) -> bool:
        occ = self.occupant(h)
        return occ is not None and all(occ is not f for f in figs)

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
        """FTC 6.5.3: a missed shot may hit a friend or an enemy of the firer on the line of fire."""
        at_risk = [fid for fid in lof.bystanders_at_risk() if fid not in (att.id, tgt.id)]
        if not at_risk:
            return []
        friends = [f for f in at_risk if self.figures[f].side == att.side]
        enemies = [f for f in at_risk if self.figures[f].side != att.side]
        set_roll = self._set_die("situational", att.id)
        dice, victim, _ = resolve_miss(self.rng, friends, enemies, roll=set_roll)
        out: list[ev.Event] = [ev.StrayShot(att.id, tgt.id, dice.faces, tuple(friends), tuple(enemies), victim)]
        if victim is None:
            return out
        v = self.figures[victim]
        vdecl = self._declarations.get(victim)
        dodge: int | None = None
        dmods: tuple[Modifier, ...] = ()
        if vdecl is not None and att.id in vdecl.dodge and not vdecl.second_move:
            # FTC 6.5.3: only a victim who declared a dodge against the firer dodges. A 1-second bolt is
            # resolved at its declaration (FTC 8.1): such a bystander makes his one roll of the round now,
            # as its target does (``_early_roll``); one who has not declared yet has no dodge.
            vroll = rolls[victim] if victim in rolls else self._early_roll(victim, out)
            dmods = self.dodge_terms(victim, Stance(vdecl.stance))
            dodge = v.character.agility + vroll + total(dmods)
        lands, _ = accidental_hit(att.character.combat_skill(weapon) + roll + total(omods), dodge)
        if dodge is not None:
            shown = (*dmods, Modifier("dodging a stray shot", ACCIDENTAL_DODGE_BONUS))
            out.append(
                ev.StrayDodge(
                    victim, att.id, dodge + ACCIDENTAL_DODGE_BONUS, tuple((m.name, m.value) for m in shown), not lands
                )
            )
        if lands:
            event, wound = self._strike(
                att, v, weapon, roll, omods, None, (), (), -99, self._distance(att, v), "torso", stray=True
            )
            out.append(event)
            if wound:
                wounds.append(wound)
        return out

    # ------------------------------------------------------------------ magic (FTC 8)
    # Everything the battle does for spells lives in this block; the rest of the state machine only calls
    # these hooks (round start, movement, declaration, resolution, the modifiers of attacks and defences).

    def casting_of(self, fid: str) -> magic.Concentration | None:
        """The spell of several rounds this figure is concentrating on, if any (FTC 8.1)."""
        return self._casting.get(fid)

    def effects(self) -> list[magic.ActiveEffect]:
        """Every lasting spell effect now held by the battle (FTC 8.1), on figures and areas."""
        return list(self._effects)

    def effects_on(self, fid: str) -> list[EffectOn]:
        """The lasting effects on a figure now, areas it stands in included (FTC 8.1), with rounds left."""
        fig = self.figure(fid)
        cells = _covered((fig,))  # an area over any hex of a large figure is on it (FTC 5)
        return [
            EffectOn(e.spell, e.caster, e.rounds_left(self.round), e)
            for e in self._effects
            if e.target == fid or not cells.isdisjoint(e.hexes())
        ]

    def known_spells(self, fid: str) -> list[magic.Spell]:
        """The catalogue spells a figure knows (roster key ``spells``)."""
        return [magic.spell(name) for name in self.figure(fid).character.spells]

    def spell_targets(self, fid: str, spell_name: str) -> list[str]:
        """Figures a figure may cast a known spell on now (FTC 8.3 ranges; an area spell: figures whose hex
        it may be centred on). Empty when the figure does not know the spell or cannot cast now."""
        fig = self.figure(fid)
        try:
            item = magic.spell(spell_name)
        except magic.MagicError:
            return []
        if item.name not in fig.character.spells or not fig.can_act or self._cannot_act(fig):
            return []
        if magic.resolves_when(item) == "last_round" and fig.hexes_moved and self._casting.get(fid) is None:
            return []  # FTC 8.1: a long casting needs a caster who stood still
        if item.target == "self":
            return [fid]
        if item.target == "hex":
            return [f.id for f in self.enemies_of(fig) if self._area_hex_on(fig, item, f) is not None]
        pool = self.enemies_of(fig) if item.target == "enemy" else self.able(fig.side)
        return [f.id for f in pool if self._spell_reaches(fig, item, f.hex, f.id)]

    def area_hex_on(self, fid: str, spell_name: str, target: str) -> Hex | None:
        """The hex to centre a known area spell on so that it covers ``target`` (FTC 8.3): the target's own
        hex when it is within range and in sight, else the nearest hex of a large target's footprint that
        is; None when no hex of the target can be chosen."""
        item = magic.spell(spell_name)
        if item.target != "hex":
            return None
        return self._area_hex_on(self.figure(fid), item, self.figure(target))

    def _area_hex_on(self, fig: Figure, item: magic.Spell, tgt: Figure) -> Hex | None:
        cells = [tgt.hex, *sorted(tgt.cells - {tgt.hex}, key=lambda c: (distance(fig.hex, c), c))]
        return next((c for c in cells if self.terrain.contains(c) and self._spell_reaches(fig, item, c, None)), None)

    def spell_hexes(self, fid: str, spell_name: str) -> list[Hex]:
        """Hexes an area spell may be centred on now: within its range and in sight (FTC 8.3)."""
        fig = self.figure(fid)
        item = magic.spell(spell_name)
        if item.effect != "area" or item.name not in fig.character.spells:
            return []
        reach = magic.spell_range_hexes(item.range)
        radius = reach if reach is not None else max(self.terrain.width, self.terrain.height)
        return [
            h
            for h in sorted(within_hexes(fig.hex, radius))
            if self.terrain.contains(h) and self._spell_reaches(fig, item, h, None)
        ]

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
        """The named modifiers and the difficulty of a casting roll (FTC 8.1: table 4's stance and table 7's
        firing modifiers, the penalty for having moved for a 1-round spell; 8.3: a line of fire for spells
        cast at a distance). Resolution and the odds shown before declaring both come from here."""
        fig = self.figure(caster)
        item = magic.spell(spell_name)
        mods = list(
            offence_modifiers(stance=stance, very_hurt_penalty=fig.very_hurt_penalty(self.round), missile_dodges=dodges)
        )
        target_hex = self.figure(target).hex if isinstance(target, str) else target
        line: LineOfFire[str] | None = None
        angle = 0
        partial = False
        if item.range in ("close", "short", "long") and target_hex is not None and target_hex != fig.hex:
            if isinstance(target, str):  # a large target is aimed at its nearest hex (FTC 5, 6.5)
                target_hex, dist = self._aim(fig, self.figure(target))
            else:
                dist = distance(fig.hex, target_hex)
            occupants = {
                h: f.id for f in self.figures.values() if f.can_act for h in ((f.hex,) if f.size == 1 else f.cells)
            }
            line = line_of_fire(self.terrain, fig.hex, target_hex, occupants=occupants)
            angle = firing_angle_modifier(
                self.terrain.elevation_at(fig.hex), self.terrain.elevation_at(target_hex), dist
            )
            partial = line.partial_cover
        moved: MovedFraction = (
            "none"
            if fig.hexes_moved == 0 or magic.resolves_when(item) == "last_round"
            else "half"
            if 2 * fig.hexes_moved <= fig.allowance
            else "full"
        )
        mods += magic.casting_modifiers(
            item,
            moved_fraction=moved,
            firer_defending=firer_defending,
            elevation_angle_modifier=angle,
            footing=self.footing_at(fig.hex),
            light=self.light_at(fig.hex),
            partial_cover=partial,
        )
        if line is not None and isinstance(target, str) and self.terrain.cover_at(line.target):
            mods.append(Modifier("target in cover", self.terrain.cover_at(line.target)))
        mods += self._magic_attack_mods(fig, target_hex if target_hex is not None else fig.hex)
        mods += self.gm_terms(fig)
        return AttackTerms(tuple(mods), item.difficulty, None, line)

    def spell_dodge_terms(self, target: str, spell_name: str, stance: Stance) -> tuple[Modifier, ...]:
        """The modifiers of a target dodging a spell cast at it from a distance (FTC 8.3, as a missile: 6.5.2
        and table 8's bonus read on the spell's difficulty; spells on the target; *Fudge* 4.1 the GM's
        modifiers). Resolution and the odds shown before declaring both come from here."""
        item = magic.spell(spell_name)
        return self.dodge_terms(target, stance, Modifier("dodging a spell", magic.spell_dodge_bonus(item)))

    def resistance_terms(self, target: str, spell_name: str) -> tuple[int, tuple[Modifier, ...]] | None:
        """A target's resistance to a resisted spell before its 4dF (FTC 8: Will or Health; *Fudge* 4.1: the
        GM's modifiers on the figure count here as in its other rolls); None when the spell is not resisted.
        Resolution and the odds shown before declaring both come from here."""
        tgt = self.figure(target)
        level = magic.resist_level(magic.spell(spell_name), tgt.character)
        if level is None:
            return None
        return level, self.gm_terms(tgt)

    def concentration_terms(self, fid: str) -> tuple[int, tuple[Modifier, ...]]:
        """A concentrating caster's Will and the modifiers on his roll to keep concentrating (FTC 8.1: Good
        when forced to dodge, Great when damaged; *Fudge* 4.1: the GM's modifiers on the figure). Resolution
        and the odds shown on the declaration panel both come from here."""
        fig = self.figure(fid)
        return fig.character.will, self.gm_terms(fig)

    def recognised_by(self, fid: str) -> dict[str, str]:
        """Casters whose spell this figure has recognised (FTC 8.2), with the spell's name."""
        return {caster: name for (who, caster), name in self._recognised.items() if who == fid}

    def casting_at(self, fid: str) -> dict[str, str | None]:
        """Enemy casters casting at this figure now (their target, or an area over its hex): the spell's name
        when the figure recognised it (FTC 8.2), None when it only sees that something is being cast."""
        fig = self.figure(fid)
        cells = _covered((fig,))  # an area over any hex of a large figure is cast at it (FTC 5)
        out: dict[str, str | None] = {}
        for caster, item, target, h in self._castings_now():
            if self.figures[caster].side == fig.side:
                continue
            if target == fid or (
                h is not None and item.effect == "area" and not cells.isdisjoint(magic.area_hexes(item, h))
            ):
                out[caster] = self._recognised.get((fid, caster))
        return out

    # -- helpers
    def _cannot_act(self, fig: Figure) -> magic.Spell | None:
        for e in self._effects:
            if e.target == fig.id and magic.cannot_act(e.spell) and e.counts_in(self.round):
                return e.spell
        return None

    def _magic_mods(self, fig: Figure, channel: str) -> tuple[Modifier, ...]:
        """Modifiers of the effects on a figure in one channel (offence, defence, speed, movement, strength)
        that count this round (FTC 8.1: not those cast with this round's attacks)."""
        out: list[Modifier] = []
        for e in self._effects:
            if e.target == fig.id and e.counts_in(self.round):
                out.extend(m for ch, m in magic.effect_modifiers(e.spell) if ch == channel)
        return tuple(out)

    def _speed_of(self, fig: Figure) -> int:
        """Speed for initiative (FTC 4), with spells that quicken or slow the figure."""
        return fig.character.speed + total(self._magic_mods(fig, "speed"))

    def _magic_allowance(self, fig: Figure, allowance: int) -> int:
        bonus = total(self._magic_mods(fig, "movement"))
        if not bonus:
            return allowance
        return max(1 if allowance > 0 else 0, allowance + bonus)

    def _area_effects(self) -> list[magic.ActiveEffect]:
        return [e for e in self._effects if e.hex is not None and e.counts_in(self.round)]

    def _magic_sight_blocked(self, a: Hex, b: Hex) -> bool:
        """Whether an area spell that blocks sight lies across the line between two hexes (their own hexes
        excepted: a figure at the edge of a cloud can be seen and shot at, with the bad light)."""
        areas = [e.hexes() for e in self._area_effects() if e.spell.blocks_sight]
        if not areas or a == b:
            return False
        crossed = {lh.hex for lh in line_hexes(a, b) if lh.interior and lh.hex not in (a, b)}
        return any(crossed & hexes for hexes in areas)

    def _magic_attack_mods(self, att: Figure, target_hex: Hex) -> list[Modifier]:
        """An attacker's spell modifiers: conditions on his offence, and table 7's bad light of an area
        spell the attack is made into, out of or across (the worst one counts)."""
        mods = list(self._magic_mods(att, "offence"))
        worst: tuple[int, str] | None = None
        touched: set[Hex] | None = None
        for e in self._area_effects():
            if not e.spell.light:
                continue
            if touched is None:
                touched = {lh.hex for lh in line_hexes(att.hex, target_hex)} | {att.hex, target_hex}
            if touched & e.hexes() and (worst is None or e.spell.light < worst[0]):
                worst = (e.spell.light, e.spell.name)
        if worst is not None:
            mods.append(Modifier(f"bad light ({worst[1]})", worst[0]))
        return mods

    def _magic_factors(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        location: str,
        off: tuple[Factor, ...],
        dfn: tuple[Factor, ...],
    ) -> tuple[tuple[Factor, ...], tuple[Factor, ...]]:
        """Spells in the damage factors (FTC 7.1-7.2): a weakened attacker's Strength, and a spell's own
        defensive factors (armour left out for spells that pass through it)."""
        entry = self._spell_weapons.get(weapon.name)
        if entry is not None and entry[0] is weapon:
            dfn = magic.spell_defensive_factors(entry[1], tgt.character, location=location)
        if weapon.muscle_powered:
            off = (*off, *(Factor(m.name, m.value) for m in self._magic_mods(att, "strength")))
        return off, dfn

    def _spell_weapon(self, item: magic.Spell) -> Weapon:
        entry = self._spell_weapons.get(item.name)
        if entry is None:
            entry = (magic.spell_weapon(item), item)
            self._spell_weapons[item.name] = entry
        return entry[0]

    def _casts_bolts(self, fig: Figure) -> bool:
        """Whether a figure knows a spell it may cast at an enemy from a distance (FTC 8.3: dodged like a
        missile)."""
        for name in fig.character.spells:
            item = magic.spell(name)
            if item.target == "enemy" and item.range in ("close", "short", "long"):
                return True
        return False

    def _spell_reaches(self, fig: Figure, item: magic.Spell, target_hex: Hex, target_id: str | None) -> bool:
        """FTC 8.3: self, touch (a front hex of the caster's hand, along the movement as a weapon's reach, FTC
        6.2), close 2, short 10, long in sight; beyond touch the line of sight must be clear of sight-blocking
        terrain and areas."""
        if item.range == "self":
            return target_id == fig.id
        if target_id == fig.id:
            return item.target in ("ally", "self")
        tgt = self.figures.get(target_id or "")
        if item.range == "touch":
            # FTC 6.2 as for a weapon: in reach at any point along the two figures' movement, with the hand
            return tgt is not None and self._reach_along(
                fig, self._moves_of(fig), tgt, self._moves_of(tgt), magic.touch_weapon()
            )
        # a large target is aimed at its nearest hex with a line of fire, as a missile is (FTC 5, 6.5)
        aim, dist = self._aim(fig, tgt) if tgt is not None else (target_hex, distance(fig.hex, target_hex))
        if not magic.in_spell_range(item, dist):
            return False
        return not line_of_fire(self.terrain, fig.hex, aim).blocked and not self._magic_sight_blocked(fig.hex, aim)

    @staticmethod
    def _touch_on(decl: Declaration, fid: str) -> bool:
        """Whether a declaration casts a touch spell on figure ``fid`` (FTC 8.3: its touch is an attack)."""
        return decl.spell is not None and decl.spell_target == fid and magic.spell(decl.spell).is_touch

    def _castings_now(self) -> list[tuple[str, magic.Spell, str | None, Hex | None]]:
        """Spells being cast this round: (caster, spell, target figure, target hex)."""
        out: list[tuple[str, magic.Spell, str | None, Hex | None]] = []
        for fid, conc in self._casting.items():
            t = conc.target
            out.append((fid, conc.spell, t if isinstance(t, str) else None, t if isinstance(t, Hex) else None))
        for d in self._declarations.values():
            if d.spell is not None and d.figure not in self._casting:
                out.append((d.figure, magic.spell(d.spell), d.spell_target, d.spell_hex))
        return out

    def _magic_declare_options(self, fig: Figure) -> dict[str, object]:
        spells: dict[str, list[str]] = {}
        for item in self.known_spells(fig.id):
            spells[item.name] = self.spell_targets(fig.id, item.name)
        conc = self._casting.get(fig.id)
        return {"spells": spells, "casting": conc.spell.name if conc else None, "casting_at": self.casting_at(fig.id)}

    def _early_roll(self, fid: str, out: list[ev.Event]) -> int:
        """A figure's one roll of the round (FTC 6.3), made early because a 1-second spell is resolved when
        declared (FTC 8.1); the round's resolution uses it again."""
        faces = self._roll_faces.get(fid)
        if faces is None:
            faces = self._roll("combat", fid).faces
            self._roll_faces[fid] = faces
            out.append(ev.CombatRoll(fid, faces))
        return sum(faces)

    # -- hooks of the state machine
    def _magic_round_began(self) -> list[ev.Event]:
        """FTC 8.1: effects past their duration end; concentrations move on a round (or end, if the caster
        can no longer cast).

        A concentration still in its last round here never reached its attack phase (the attack phase takes
        every spell due in it; only the GM's *End round* skips it): the spell takes effect in an attack phase,
        so our reading is that the concentration carries on, still in its last round, and the spell takes
        effect in this round's attack phase if the caster declares it again (README, the GM's seat).
        """
        out: list[ev.Event] = []
        for e in list(self._effects):
            if not e.active(self.round):
                self._effects.remove(e)
                out.append(ev.EffectEnded(e.spell.name, e.caster, e.target, e.hex))
        self._roll_faces = {}
        for fid, conc in list(self._casting.items()):
            caster = self.figures[fid]
            if not caster.can_act:
                del self._casting[fid]
                out.append(ev.ConcentrationBroken(fid, conc.spell.name, "the caster cannot go on"))
            elif conc.takes_effect_this_round:
                out.append(ev.CastingContinued(fid, conc.spell.name, conc.rounds_left))
            else:
                self._casting[fid] = conc.advance()
        return out

    def _magic_held_fast(self, phase: str) -> list[ev.Event]:
        """A figure that cannot act under a spell (e.g. paralysed) loses its move or its declaration."""
        out: list[ev.Event] = []
        for f in self.figures.values():
            item = self._cannot_act(f) if f.can_act else None
            if item is None:
                continue
            if phase == "move":
                f.moved = True
            elif f.id in self._declare_queue:
                self._declare_queue.remove(f.id)
            out.append(ev.HeldFast(f.id, item.name, phase))
            if f.id in self._casting:
                out.append(ev.ConcentrationBroken(f.id, self._casting.pop(f.id).spell.name, item.name))
        return out

    def _magic_attack_phase_began(self) -> list[ev.Event]:
        self._roll_faces = {}
        return self._magic_held_fast("attack")

    def _magic_moved(self, fig: Figure, hexes: int) -> list[ev.Event]:
        """FTC 8.1: a concentrating caster must remain still; leaving his hex breaks the spell (our reading:
        the move is allowed, and the spell is lost; turning in place keeps it)."""
        if hexes <= 0 or fig.id not in self._casting:
            return []
        return [ev.ConcentrationBroken(fig.id, self._casting.pop(fig.id).spell.name, "the caster moved")]

    def _check_spell_declaration(
        self, fig: Figure, a: act.Declare
    ) -> tuple[magic.Spell, str | None, Hex | None, bool] | None:
        """Validate the spell part of a declaration (FTC 8); returns (spell, target, hex, continuing)."""
        if a.spell is None:
            if a.spell_target is not None or a.spell_hex is not None:
                raise IllegalAction("A spell target needs a spell: name the spell to cast.")
            return None
        try:
            item = magic.spell(a.spell)
        except magic.MagicError as exc:
            raise IllegalAction(_sentence(str(exc))) from None
        if item.name not in fig.character.spells:
            known = ", ".join(fig.character.spells) or "no spells"
            raise IllegalAction(f"{fig.name} does not know {item.name} (knows {known}).")
        if a.targets:
            raise IllegalAction("Casting a spell is the figure's action this round: declare no weapon target.")
        if a.advance:
            raise IllegalAction("A caster does not advance: an advance brings a figure to the enemy it strikes.")
        conc = self._casting.get(fig.id)
        continuing = conc is not None and conc.spell.name == item.name
        long_cast = magic.resolves_when(item) == "last_round"
        if long_cast and a.retreat is not None:
            raise IllegalAction(f"{item.name} needs the caster to stay still (FTC 8.1): no retreat while casting it.")
        if continuing:
            assert conc is not None
            t = conc.target
            return item, t if isinstance(t, str) else None, t if isinstance(t, Hex) else None, True
        if long_cast and fig.hexes_moved:
            raise IllegalAction(
                f"{item.name} takes {item.casting_time}: the caster must stand still while "
                f"concentrating (FTC 8.1), and {fig.name} moved this round."
            )
        if item.target == "hex":
            h = a.spell_hex
            if h is None and a.spell_target is not None:
                h = self._area_hex_on(fig, item, self.figure(a.spell_target))
            if h is None or not self.terrain.contains(h) or not self._spell_reaches(fig, item, h, None):
                raise IllegalAction(f"{item.name} is centred on a hex within {item.range} range and in sight.")
            return item, None, h, False
        target = a.spell_target if a.spell_target is not None else (fig.id if item.target in ("self", "ally") else None)
        if target is None:
            raise IllegalAction(f"{item.name} is cast at an enemy: name the target.")
        if target not in self.spell_targets(fig.id, item.name):
            raise IllegalAction(
                f"{self.figure(target).name} cannot be reached by {item.name} ({item.range} range) now."
            )
        return item, target, None, False

    def _magic_declared(
        self, fig: Figure, decl: Declaration, plan: tuple[magic.Spell, str | None, Hex | None, bool] | None
    ) -> list[ev.Event]:
        """After a declaration: recognition rolls (FTC 8.2), an abandoned concentration, a spell begun or
        continued (FTC 8.1), and a 1-second spell resolved at once."""
        out: list[ev.Event] = self._magic_recognise(fig)
        conc = self._casting.get(fig.id)
        if plan is None or (conc is not None and not plan[3]):
            if conc is not None:
                del self._casting[fig.id]
                out.append(ev.ConcentrationBroken(fig.id, conc.spell.name, "abandoned"))
            if plan is None:
                return out
        item, target, h, continuing = plan
        decl.spell, decl.spell_target, decl.spell_hex = item.name, target, h
        if continuing:
            assert conc is not None
            out.append(ev.CastingContinued(fig.id, item.name, conc.rounds_left))
            return out
        when = magic.resolves_when(item)
        out.append(ev.CastingBegan(fig.id, item.name, target, h, magic.casting_rounds(item), when))
        if when == "last_round":
            self._casting[fig.id] = magic.Concentration.begin(item, fig.id, target if target is not None else h)
        elif when == "declaration":
            if self.options.secret_stances:
                # Fudge 4.32: the casting roll and a dodge against it name their stances, so a 1-second
                # spell is resolved at the reveal, when all declarations are shown, before any attack
                decl.pending_cast = True
            else:
                out.extend(self._cast_at_once(fig, decl))
        return out

    def _cast_at_once(self, fig: Figure, decl: Declaration) -> list[ev.Event]:
        """FTC 8.1: a 1-second spell is resolved when declared (under secret stances, at the reveal), and its
        results count for every other attack of the round; the caster's roll, and the target's if it already
        declared a dodge against him, is their one roll of the round (``_early_roll``)."""
        out: list[ev.Event] = []
        assert decl.spell is not None
        item, target, h = magic.spell(decl.spell), decl.spell_target, decl.spell_hex
        rolls: dict[str, int] = {fig.id: self._early_roll(fig.id, out)}
        tgt = self.figures.get(target or "")
        if tgt is not None and tgt.side != fig.side and tgt.can_act:
            tdecl = self._declarations.get(tgt.id)
            if item.is_touch or (tdecl is not None and fig.id in tdecl.dodge and not tdecl.second_move):
                rolls[tgt.id] = self._early_roll(tgt.id, out)
        wounds: list[tuple[Figure, int, str, int]] = []
        # table 7 applies except for movement (FTC 8.1): a caster already attacked in melee defends (-1)
        melee_on = {fig.id: self.melee_attackers_on(fig.id)}
        out.extend(self._cast(fig, decl, item, target, h, rolls, melee_on, wounds))
        out.extend(self._apply_wounds(wounds))
        out.extend(self._magic_damaged(wounds))
        # results count for every other attack (FTC 8.1): a figure no longer able does not declare
        self._declare_queue = [q for q in self._declare_queue if self.figures[q].can_act]
        return out

    def _magic_recognise(self, fig: Figure) -> list[ev.Event]:
        """FTC 8.2: a figure with Thaumatology rolls, while declaring, to recognise each enemy spell being
        cast at it: Good seeing and hearing the caster (within short range), Great with only a clear view,
        Superb through fog, an area spell or other people in the way."""
        if not fig.character.has_skill("Thaumatology"):
            return []
        out: list[ev.Event] = []
        for caster, name in self.casting_at(fig.id).items():
            if name is not None:
                continue
            c = self.figures[caster]
            item = next(i for cid, i, _, _ in self._castings_now() if cid == caster)
            sees, hears, obscured = self._recognition_view(fig, c)
            difficulty = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
            if difficulty is None:
                continue
            skill = fig.character.skill_level("Thaumatology")
            mods = self.recognition_terms(fig.id)
            roll, ok = magic.recognise(self.rng, skill + total(mods), sees=sees, hears=hears, obscured=obscured)
            assert roll is not None
            if ok:
                self._recognised[(fig.id, caster)] = item.name
            out.append(
                ev.SpellRecognised(
                    fig.id,
                    caster,
                    item.name,
                    skill,
                    roll.faces,
                    skill + roll.total + total(mods),
                    difficulty,
                    ok,
                    tuple((m.name, m.value) for m in mods),
                )
            )
        return out

    def recognition_terms(self, fid: str) -> tuple[Modifier, ...]:
        """The modifiers of a figure's Thaumatology roll to recognise a spell (FTC 8.2): a helmet that
        obscures vision, the greathelm (FTC 9.2), lowers it as it lowers the wearer's Perception (our
        reading, ``combat.obscured_vision_perception``): recognising a spell is watching the caster."""
        helm = next((a for a in self.figure(fid).character.armour if a.obscures_vision), None)
        return (Modifier(f"{helm.name} obscures vision", obscured_vision_perception()),) if helm else ()

    def recognition_view(self, fid: str, caster: str) -> tuple[bool, bool, bool]:
        """What a figure makes out of a caster for recognising his spell (FTC 8.2): (sees, hears, obscured),
        as ``magic.recognition_difficulty`` reads them. A large figure watches from whichever of its hexes
        sees best, and a large caster is seen at whichever of his hexes is seen best (FTC 5, as a missile is
        aimed at a large target's hexes); hearing counts between their nearest hexes."""
        return self._recognition_view(self.figure(fid), self.figure(caster))

    def _recognition_view(self, fig: Figure, c: Figure) -> tuple[bool, bool, bool]:
        hears = self._distance(c, fig) <= (magic.spell_range_hexes("short") or 0)
        occupants = {h: f.id for f in self.figures.values() if f.can_act for h in (f.cells if f.size > 1 else (f.hex,))}
        best = magic.recognition_difficulty(sees=True, hears=hears, obscured=False)
        pairs = [(c.hex, fig.hex)]
        if c.size > 1 or fig.size > 1:
            pairs += sorted((a, b) for a in c.cells for b in fig.cells if (a, b) != (c.hex, fig.hex))
        view: tuple[bool, bool, bool] | None = None
        rank: int | None = None
        for a, b in pairs:
            lof = line_of_fire(self.terrain, a, b, occupants=occupants)
            sees = not lof.blocked and not self._magic_sight_blocked(a, b)
            crossed = {lh.hex for lh in lof.hexes}
            near = distance(a, b)
            obscured = (
                lof.partial_cover
                or any(crossed & e.hexes() for e in self._area_effects())
                or any(
                    o not in (c.id, fig.id)
                    for o in lof.bystanders_at_risk()
                    if self._nearest(a, self.figures[o]) < near
                )
            )
            difficulty = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
            if difficulty is not None and (rank is None or difficulty < rank):
                view, rank = (sees, hears, obscured), difficulty
            if rank == best:
                break
        return view if view is not None else (False, hears, False)

    @staticmethod
    def _nearest(h: Hex, fig: Figure) -> int:
        """Hexes from ``h`` to the nearest hex ``fig`` covers (FTC 5)."""
        return distance(h, fig.hex) if fig.size == 1 else min(distance(h, x) for x in fig.cells)

    def _spell_dodge(
        self, tgt: Figure, caster: Figure, item: magic.Spell, rolls: Mapping[str, int]
    ) -> tuple[int | None, tuple[Modifier, ...]]:
        """A target's dodge against a spell cast at it from a distance (FTC 8.3 as missiles, 6.5.2)."""
        tdecl = self._declarations.get(tgt.id)
        if tdecl is None or caster.id not in tdecl.dodge or tdecl.second_move or tgt.id not in rolls:
            return None, ()
        dmods = self.spell_dodge_terms(tgt.id, item.name, Stance(tdecl.stance))
        return tgt.character.agility + rolls[tgt.id] + total(dmods), dmods

    def _cast(
        self,
        fig: Figure,
        decl: Declaration,
        item: magic.Spell,
        target: str | None,
        h: Hex | None,
        rolls: Mapping[str, int],
        melee_on: Mapping[str, list[str]],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """One spell takes effect (FTC 8): the casting roll; a bolt dodged like a missile and straying like
        one; a touch attack first for a touch spell; the target's resistance; then the effect."""
        out: list[ev.Event] = []
        tgt = self.figures.get(target) if target is not None else None
        if tgt is not None and tgt.out and item.effect != "heal":
            out.append(ev.ConcentrationBroken(fig.id, item.name, f"{tgt.name} is out of the fight"))
            return out
        aim_hex = tgt.hex if tgt is not None else h
        if tgt is not None and not self._spell_reaches(fig, item, tgt.hex, tgt.id):
            out.append(ev.ConcentrationBroken(fig.id, item.name, f"{tgt.name} is out of reach"))
            return out
        terms = self.spell_terms(
            fig.id,
            item.name,
            tgt.id if tgt is not None else h,
            stance=Stance(decl.stance),
            dodges=len(decl.dodge),
            firer_defending=bool(melee_on.get(fig.id)),
        )
        skill = fig.character.skill_level(item.skill)
        roll = rolls[fig.id]
        faces = self._roll_faces.get(fig.id)
        result = magic.casting_result(skill, roll, terms.modifiers)
        success = magic.cast_succeeds(item, result)
        hostile = tgt is not None and tgt.side != fig.side
        bolt = hostile and item.range in ("close", "short", "long")
        defence: int | None = None
        dmods: tuple[Modifier, ...] = ()
        if success and bolt and item.effect != "damage" and tgt is not None:
            defence, dmods = self._spell_dodge(tgt, fig, item, rolls)
        landed = success and (defence is None or result > defence)
        out.append(
            ev.SpellCast(
                fig.id,
                item.name,
                target,
                aim_hex if tgt is None else None,
                skill,
                faces if faces is not None else (),
                tuple((m.name, m.value) for m in terms.modifiers),
                result,
                item.difficulty,
                success,
                defence,
                tuple((m.name, m.value) for m in dmods),
                landed,
            )
        )
        if not landed:
            return out
        if hostile and tgt is not None and (item.effect == "damage" or item.is_touch):
            touch = item.is_touch
            weapon = self._spell_weapon(item) if item.effect == "damage" else self._melee_weapon(fig)
            if touch:
                hand = magic.touch_weapon()  # a touch is made with the hand, whatever weapon is held
                omods = self.attack_terms(fig, tgt, hand, Stance(decl.stance), dodges=len(decl.dodge)).modifiers
                tdecl = self._declarations.get(tgt.id)
                if tgt.id in rolls and not (tdecl is not None and tdecl.second_move):
                    tdef: int | None
                    tdef, tmods, _ = self._defence_vs(tgt, fig, hand, rolls[tgt.id], tdecl, shield_ok=True)
                else:
                    tdef, tmods = None, ()
                others = [
                    (
                        o,
                        self._defence_vs(
                            self.figures[o], fig, hand, rolls[o], self._declarations.get(o), shield_ok=False
                        )[0],
                    )
                    for o in melee_on.get(fig.id, [])
                    if o != tgt.id and o in rolls
                ]
                diff = melee_difficulty(fig.character.mass_scale, tgt.character.mass_scale)
                tskill = magic.touch_attack_skill(fig.character)
                offence = tskill + roll + total(omods)
                hit = is_hit(offence, ([tdef] if tdef is not None else []) + [r for _, r in others], diff)
                out.append(
                    ev.TouchAttack(
                        fig.id,
                        tgt.id,
                        item.name,
                        tskill,
                        roll,
                        tuple((m.name, m.value) for m in omods),
                        offence,
                        tdef,
                        tuple((m.name, m.value) for m in tmods),
                        diff,
                        hit,
                    )
                )
                if not hit:
                    return out
                if item.effect == "damage":
                    # FTC 8.3: the touch only decides whether the spell takes effect and does no damage; the
                    # spell's damage is a bolt's that nobody dodges: the casting's relative degree against
                    # the difficulty + the spell's factor, on the torso (no head for a touch's degree)
                    event, wound = self._strike(
                        fig,
                        tgt,
                        weapon,
                        roll,
                        terms.modifiers,
                        None,
                        (),
                        (),
                        item.difficulty,
                        distance(fig.hex, tgt.hex),
                        "torso",
                        skill=skill,
                    )
                    out.append(event)
                    if wound:
                        wounds.append(wound)
                    return out
            else:
                bdef, bmods = self._spell_dodge(tgt, fig, item, rolls)
                event, wound = self._strike(
                    fig,
                    tgt,
                    weapon,
                    roll,
                    terms.modifiers,
                    bdef,
                    bmods,
                    (),
                    item.difficulty,
                    distance(fig.hex, tgt.hex),
                    "best",
                )
                out.append(event)
                if wound:
                    wounds.append(wound)
                elif not event.hit and terms.line is not None:
                    out.extend(self._stray(fig, tgt, weapon, roll, terms.modifiers, terms.line, rolls, wounds))
                return out
        resistance = self.resistance_terms(tgt.id, item.name) if tgt is not None else None
        if tgt is not None and resistance is not None:
            level, rmods = resistance
            r = self._roll("resistance", tgt.id)
            resists_with = level + r.total + total(rmods)
            resisted = not magic.overcomes_resistance(result, resists_with)
            out.append(
                ev.SpellResisted(
                    tgt.id,
                    fig.id,
                    item.name,
                    item.resist,
                    level,
                    r.faces,
                    resists_with,
                    result,
                    resisted,
                    tuple((m.name, m.value) for m in rmods),
                )
            )
            if resisted:
                return out
        if item.effect == "heal":
            if tgt is not None:
                before = tgt.wounds.label
                tgt.wounds = magic.heal_wounds(tgt.wounds, item.heal_levels)
                out.append(ev.Healed(tgt.id, fig.id, item.name, item.heal_levels, before, tgt.wounds.label))
            return out
        if item.effect == "damage":
            return out  # a damage spell on a friend or oneself: nothing more to do
        effect = magic.ActiveEffect(
            item,
            fig.id,
            None if item.effect == "area" else (target or fig.id),
            h if item.effect == "area" else None,
            self.round,
        )
        self._effects.append(effect)
        out.append(ev.EffectBegan(item.name, fig.id, effect.target, effect.hex, effect.first_round, effect.last_round))
        return out

    def _magic_resolve(
        self,
        rollers: Sequence[str],
        rolls: Mapping[str, int],
        attacks: Sequence[tuple[str, str]],
        melee_on: Mapping[str, list[str]],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """FTC 8.1 in the attack phase: concentrating casters who are attacked roll Will (Good) for each
        attack they must dodge; then the 1-round spells and the spells in their last round take effect,
        simultaneously with the attacks (their wounds join the round's)."""
        out: list[ev.Event] = []
        decls = self._declarations
        for cid, conc in list(self._casting.items()):
            d = decls.get(cid)
            if d is None or d.spell != conc.spell.name or cid not in rolls:
                del self._casting[cid]
                out.append(ev.ConcentrationBroken(cid, conc.spell.name, "not continued"))
                continue
            forced = [
                a
                for a, t in attacks
                if t == cid and (not self._weapon_of(self.figures[a], decls[a].weapon).ranged or a in d.dodge)
            ]
            # a spell cast at him forces a dodge when he dodges it; an enemy's touch always does, as a
            # melee attack (FTC 8.3: the touch is a standard attack)
            forced += [
                o.figure
                for o in decls.values()
                if o.spell is not None
                and o.figure in rollers
                and o.spell_target == cid
                and (
                    o.figure in d.dodge
                    or (self._touch_on(o, cid) and self.figures[o.figure].side != self.figures[cid].side)
                )
            ]
            for _ in forced:
                if not self._concentration_roll(cid, "dodge", out):
                    break
        for fid in rollers:
            d = decls[fid]
            if d.spell is None or not self.figures[fid].can_act:
                continue
            item = magic.spell(d.spell)
            when = magic.resolves_when(item)
            if when == "declaration":
                continue
            if when == "last_round":
                running = self._casting.get(fid)
                if running is None or not running.takes_effect_this_round:
                    continue
                del self._casting[fid]
            out.extend(self._cast(self.figures[fid], d, item, d.spell_target, d.spell_hex, rolls, melee_on, wounds))
        return out

    def _magic_figure_removed(self, fid: str) -> list[ev.Event]:
        """The GM removed a figure (issue 8): its own concentration ends, and so does every concentration on
        it as the target (FTC 8.1: a spell needs its target), so no spell later looks for it."""
        out: list[ev.Event] = []
        for cid, conc in list(self._casting.items()):
            if cid == fid or conc.target == fid:
                del self._casting[cid]
                why = "the caster left the battle" if cid == fid else "the target left the battle"
                out.append(ev.ConcentrationBroken(cid, conc.spell.name, why))
        return out

    def _concentration_roll(self, cid: str, reason: magic.ConcentrationEvent, out: list[ev.Event]) -> bool:
        conc = self._casting[cid]
        will, mods = self.concentration_terms(cid)
        roll = self._roll("will", cid)
        kept = magic.concentration_holds(will, roll, reason, total(mods))
        out.append(
            ev.ConcentrationRolled(
                cid,
                conc.spell.name,
                reason,
                will,
                roll.faces,
                will + roll.total + total(mods),
                magic.concentration_difficulty(reason),
                kept,
                tuple((m.name, m.value) for m in mods),
            )
        )
        if not kept:
            del self._casting[cid]
            out.append(ev.ConcentrationBroken(cid, conc.spell.name, "lost concentration"))
        return kept

    def _magic_damaged(self, wounds: Sequence[tuple[Figure, int, str, int]]) -> list[ev.Event]:
        """FTC 8.1: a concentrating caster who takes damage needs a Great Will roll to go on."""
        out: list[ev.Event] = []
        for fig, _, _, _ in wounds:
            if fig.id in self._casting:
                self._concentration_roll(fig.id, "damaged", out)
        return out

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

    # ------------------------------------------------------------------ the GM's seat (issue 8)
    # Every GM decision is an action (game.engine.gm), so saves and replays carry it; they are accepted in
    # any phase, checked by gm.validate_gm_action and then here, and said in the log by one GMActed event.
    # Edits of figures (wounds, gear, traits, reinforcements, removals) are made "between rounds", read as
    # the simplest legal moment: in the movement phase before any figure has moved or held this round.

    BATTLE_ROLLS = ("combat", "initiative", "escape", "health", "situational", "will", "resistance")
    """The rolls a battle makes, so the ones a GM may set by hand here (healing is between battles)."""

    def gm_modifiers_on(self, fid: str) -> tuple[gm.SituationalModifier, ...]:
        """*Fudge* 4.1: the GM's situational modifiers counting for a figure this round (its token's badge)."""
        fig = self.figure(fid)
        return tuple(
            m
            for m in self.gm_state.modifiers
            if m.target in (fig.id, fig.side) and (m.until != "round" or m.round == self.round)
        )

    def gm_terms(self, fig: Figure) -> tuple[Modifier, ...]:
        """*Fudge* 4.1: the GM's modifiers on a figure's offence, defence and escape rolls this round, named."""
        return tuple(
            Modifier(n, v) for n, v in gm.modifier_terms(self.gm_state.modifiers, fig.id, fig.side, self.round)
        )

    def light_at(self, h: Hex) -> int:
        """FTC table 7: bad light on a hex: the map's (Tiled ``light``) or the GM's condition, the worse."""
        return min(self.terrain.light_at(h), gm.condition_value(self.gm_state.conditions, "bad_light", h))

    def footing_at(self, h: Hex) -> int:
        """FTC table 7: insecure footing on a hex: the map's (Tiled ``footing``) or the GM's, the worse."""
        return min(self.terrain.footing_at(h), gm.condition_value(self.gm_state.conditions, "insecure_footing", h))

    def _gm_new_round(self) -> None:
        # FTC 3: a new round begins; the GM's "this round" modifiers and escape overrides lapse
        self.gm_state = self.gm_state.expire(self.round)
        self.gm_escape = {}

    def _gm_escape_levels(self, levels: EscapeLevels, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
        mover = self.gm_terms(fig)
        per = [self.gm_terms(s) for s in stoppers]
        if not mover and not any(per):
            return levels
        return EscapeLevels(
            levels.mover + total(mover),
            (*levels.mover_modifiers, *((m.name, m.value) for m in mover)),
            tuple(lv + total(p) for lv, p in zip(levels.stoppers, per, strict=True)),
            tuple((*ms, *((m.name, m.value) for m in p)) for ms, p in zip(levels.stopper_modifiers, per, strict=True)),
        )

    def _set_die(self, purpose: str, fid: str) -> DiceRoll | None:
        """The first roll of ``purpose`` the GM set by hand for a figure, taken from the queue (SetDie)."""
        for i, s in enumerate(self.gm_dice):
            if s.purpose == purpose and s.figure == fid:
                del self.gm_dice[i]
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

    def _do_gm(self, a: gm.GMAction) -> list[ev.Event]:
        """Issue 8: carry out a GM decision; an illegal one raises ``IllegalAction`` and changes nothing."""
        if self.setup.gm is None:
            raise IllegalAction("This battle has no GM seat; mark a player as GM in the battle setup.")
        known = {*self.figures, *self.removed} if isinstance(a, gm.AddFigure) else set(self.figures)
        fig = self.figures.get(getattr(a, "figure", ""))
        try:
            gm.validate_gm_action(
                a, figures=known, sides=set(self.sides), track=fig.wounds.track if fig is not None else None
            )
            out: list[ev.Event] = getattr(self, f"_gm_{a.kind[3:]}")(a)
        except gm.GMActionError as exc:
            raise IllegalAction(_sentence(str(exc))) from None
        return out

    def _gm_who(self, target: str) -> tuple[tuple[str, ...], str]:
        # a figure is named in the log text by its id (names filled in by the log); a side by its name
        if target in self.figures:
            return (target,), "{0}"
        return (), self.sides[target].name.replace("{", "{{").replace("}", "}}")

    def _gm_no_move_under_way(self) -> None:
        if self._pending is not None:
            raise IllegalAction(f"Finish {self.figures[self._pending.figure].name}'s move first.")

    def gm_between_rounds(self) -> bool:
        """Issue 8: whether the GM may edit, add or remove figures now ("between rounds": the movement
        phase before any figure has moved or held this round)."""
        return (
            self.phase == "movement"
            and self._pending is None
            and not any(f.moved or f.held for f in self.figures.values())
        )

    def gm_free_for(self, character: Character, h: Hex, facing: int) -> bool:
        """FTC 5: whether a reinforcement of this character may stand on ``h`` facing ``facing``: every hex
        of its footprint on the map, passable for it and empty (the AddFigure check, for the GM's screen)."""
        cells = footprint(h, character.footprint, facing % 6)
        return all(self.terrain.is_passable(c, character.movement_modes[0]) and self.occupant(c) is None for c in cells)

    def _gm_between_rounds(self, what: str) -> None:
        if not self.gm_between_rounds():
            raise IllegalAction(
                f"{what} only between rounds, before any figure has moved or held; end the round first."
            )

    def _gm_settle(self) -> list[ev.Event]:
        """After figures left, joined or rejoined the fight: end the battle if at most one side can fight,
        else let the round go on without the figures that cannot act."""
        out: list[ev.Event] = []
        if self._check_over(out):
            return out
        if self.phase == "movement":
            out.extend(self._advance_movement())
            return out
        self._declare_queue = [f for f in self._declare_queue if f in self.figures and self.figures[f].can_act]
        self._follow_queue = [(f, h) for f, h in self._follow_queue if f in self.figures and self.figures[f].can_act]
        out.extend(self._advance_attack())
        return out

    def _gm_modifier(self, a: gm.SituationalModifier) -> list[ev.Event]:
        self.gm_state = self.gm_state.with_action(a, self.round)
        subjects, who = self._gm_who(a.target)
        span = "this round" if a.until == "round" else "until removed"
        return [ev.GMActed(a.kind, f"{a.value:+d} to {who}'s rolls {span}", subjects, a.reason)]

    def _gm_remove_modifier(self, a: gm.RemoveModifier) -> list[ev.Event]:
        mod = next((m for m in self.gm_state.modifiers if m.id == a.id), None)
        cond = next((c for c in self.gm_state.conditions if c.id == a.id), None)
        self.gm_state = self.gm_state.with_action(a, self.round)
        if mod is not None:
            subjects, who = self._gm_who(mod.target) if mod.target in (*self.figures, *self.sides) else ((), "")
            return [ev.GMActed(a.kind, f"lifts {mod.value:+d} on {who}", subjects, mod.reason)]
        what = cond.condition.replace("_", " ") if cond is not None else a.id
        return [ev.GMActed(a.kind, f"lifts the {what}", (), cond.reason if cond else "")]

    def _gm_condition(self, a: gm.BattleCondition) -> list[ev.Event]:
        off = [h for h in a.region if not self.terrain.contains(h)]
        if off:
            raise IllegalAction(f"The region reaches off the map at {off[0]}; choose hexes on the map.")
        self.gm_state = self.gm_state.with_action(a, self.round)
        name = a.condition.replace("_", " ")
        where = f"on {len(a.region)} hex{'es' if len(a.region) != 1 else ''}" if a.region else "over the battlefield"
        what = f"{name} {a.value:+d} {where} (table 7)" if a.value else f"lifts the {name} ({a.id})"
        return [ev.GMActed(a.kind, what, (), a.reason)]

    def _gm_set_die(self, a: gm.SetDie) -> list[ev.Event]:
        if a.purpose not in self.BATTLE_ROLLS:
            raise IllegalAction(f"A battle makes no {a.purpose} roll; set one of {', '.join(self.BATTLE_ROLLS)}.")
        self.gm_dice.append(a)
        faces = " ".join({-1: "-", 0: "0", 1: "+"}.get(f, str(f)) for f in a.faces)
        return [ev.GMActed(a.kind, f"{{0}}'s next {a.purpose} roll is set by hand: [{faces}]", (a.figure,))]

    def _gm_grant_escape(self, a: gm.GrantEscape) -> list[ev.Event]:
        return self._gm_escape_override(a.figure, True)

    def _gm_deny_escape(self, a: gm.DenyEscape) -> list[ev.Event]:
        return self._gm_escape_override(a.figure, False)

    def _gm_escape_override(self, fid: str, escaped: bool) -> list[ev.Event]:
        """FTC 5.3 overridden: a figure that has just failed its escape gets through at once; otherwise the
        figure's next escape contest this round is decided (no dice rolled)."""
        p = self._pending
        kind = "gm_grant_escape" if escaped else "gm_deny_escape"
        if p is not None and p.figure == fid and p.failed_at is not None:
            if not escaped:
                raise IllegalAction(f"{self.figures[fid].name} is held already.")
            p.failed_at = None
            p.index += 1
            return [ev.GMActed(kind, "lets {0} escape after all", (fid,)), *self._continue_move()]
        self.gm_escape[fid] = escaped
        what = "escape" if escaped else "be held at"
        return [ev.GMActed(kind, f"{{0}} will {what} the next zone of control this round, whatever the dice", (fid,))]

    def _gm_grant_free_attack(self, a: gm.GrantFreeAttack) -> list[ev.Event]:
        return self._gm_free_attack(a.attacker, a.target, True)

    def _gm_deny_free_attack(self, a: gm.DenyFreeAttack) -> list[ev.Event]:
        return self._gm_free_attack(a.attacker, a.target, False)

    def _gm_free_attack(self, aid: str, tid: str, grant: bool) -> list[ev.Event]:
        """FTC 5.3 overridden: who strikes the runner. Decided while the mover, having failed an escape,
        chooses whether to turn tail and run."""
        att, tgt = self.figure(aid), self.figure(tid)
        p = self._pending
        if p is None or p.failed_at is None or p.figure != tgt.id:
            raise IllegalAction(
                f"A free attack is granted or denied while {tgt.name} has failed an escape "
                "and chooses whether to run (FTC 5.3)."
            )
        if grant:
            if aid in p.failed_stoppers:
                raise IllegalAction(f"{att.name} has that free attack already.")
            if att.side == tgt.side or not att.can_act or self._distance(att, tgt) != 1:  # nearest hexes (FTC 5)
                raise IllegalAction(f"{att.name} must be an enemy of {tgt.name}, able to fight and next to it.")
            p.failed_stoppers = (*p.failed_stoppers, aid)
            what = "{0} gets a free attack on {1} if {1} runs"
        else:
            if aid not in p.failed_stoppers:
                raise IllegalAction(f"{att.name} has no free attack on {tgt.name} to deny.")
            p.failed_stoppers = tuple(s for s in p.failed_stoppers if s != aid)
            what = "{0} gets no free attack on {1}"
        return [ev.GMActed("gm_grant_free_attack" if grant else "gm_deny_free_attack", what, (aid, tid))]

    def _gm_end_round(self, a: gm.EndRound) -> list[ev.Event]:
        """FTC 3 cut short by the GM: moves not yet made and attacks not yet resolved are lost. A round of
        concentration counts as stood through; a spell due in this attack phase (FTC 8.1: its last round of
        concentration) carries on into the next round and takes effect in its attack phase
        (``_magic_round_began``)."""
        self._gm_no_move_under_way()
        # FTC 3: the round ends here: moves not yet made and attacks not yet resolved are lost
        self._declare_queue, self._follow_queue, self._declarations = [], [], {}
        return [ev.GMActed(a.kind, f"ends round {self.round}", (), a.reason), *self._begin_round()]

    def _gm_end_battle(self, a: gm.EndBattle) -> list[ev.Event]:
        self.over, self.phase, self.winner = True, "over", a.winner
        result = f"{self.sides[a.winner].name} wins" if a.winner else "no side wins"
        return [
            ev.GMActed(a.kind, "ends the battle", (), a.reason),
            ev.BattleEnded(a.winner, f"the GM ends it, {result}"),
        ]

    def _gm_declare_out(self, a: gm.DeclareOut) -> list[ev.Event]:
        fig = self.figure(a.figure)
        if fig.out:
            raise IllegalAction(f"{fig.name} is out of the fight already.")
        self._gm_no_move_under_way()
        fig.out = True
        return [ev.GMActed(a.kind, "takes {0} out of the fight", (fig.id,), a.reason), *self._gm_settle()]

    def _gm_declare_in(self, a: gm.DeclareIn) -> list[ev.Event]:
        fig = self.figure(a.figure)
        if not fig.out:
            raise IllegalAction(f"{fig.name} is in the fight already.")
        if not fig.wounds.can_act:
            raise IllegalAction(
                f"{fig.name}'s wounds ({fig.wounds.label}) keep it out of the fight; clear wound boxes first."
            )
        self._gm_no_move_under_way()
        fig.out = False
        if fig.id not in self.order:
            self.order.append(fig.id)  # last in the order until initiative is next rolled
        return [ev.GMActed(a.kind, "brings {0} back into the fight", (fig.id,), a.reason), *self._gm_settle()]

    def _gm_edit_wounds(self, a: gm.EditWounds) -> list[ev.Event]:
        fig = self.figure(a.figure)
        self._gm_between_rounds("Wounds are edited")
        fig.wounds = gm.edited_wounds(a.wounds, fig.wounds.track)
        fig.very_hurt_from_round = None  # set between rounds: a Very Hurt penalty counts from this round
        out: list[ev.Event] = [ev.GMActed(a.kind, f"sets {{0}}'s wounds: {fig.wounds.label}", (fig.id,))]
        if not fig.can_act and not fig.out:
            fig.out = True
            out.append(ev.TakenOut(fig.id, fig.wounds.label))
        return [*out, *self._gm_settle()]

    def _gm_edit_gear(self, a: gm.EditGear) -> list[ev.Event]:
        fig = self.figure(a.figure)
        self._gm_between_rounds("Gear is changed")
        fig.character = gm.edited_gear(fig.character, a.weapons, a.armour, a.shield, a.coverage)
        fig.allowance = self.movement_allowance_of(fig)
        partial = {
            item.name: item.coverage.replace("_", " ") for item in fig.character.armour if item.coverage != "full"
        }  # FTC 9.2: a partial suit says so in the log
        armour = tuple(
            f"{name} ({partial[worn]})" if (worn := equipment_armour(name).name) in partial else name
            for name in a.armour
        )
        gear = ", ".join((*a.weapons, *armour, *((a.shield,) if a.shield else ()))) or "nothing"
        return [ev.GMActed(a.kind, f"changes {{0}}'s gear: {gear}", (fig.id,))]

    def _gm_edit_traits(self, a: gm.EditTraits) -> list[ev.Event]:
        fig = self.figure(a.figure)
        self._gm_between_rounds("Traits are changed")
        fig.character = gm.edited_traits(fig.character, a.changes)
        fig.allowance = self.movement_allowance_of(fig)
        return [ev.GMActed(a.kind, f"changes {{0}}'s traits: {', '.join(sorted(a.changes))}", (fig.id,))]

    def _gm_add_figure(self, a: gm.AddFigure) -> list[ev.Event]:
        self._gm_between_rounds("Reinforcements arrive")
        if a.character is not None:
            character = gm.new_character(a.character)
        else:
            known = {f.character.key: f.character for f in self.setup.figures}
            if a.roster_key not in known:
                raise IllegalAction(
                    f"No figure of this battle is the character {a.roster_key!r}; "
                    "give the new figure's character table instead."
                )
            character = known[a.roster_key]
        if not self.gm_free_for(character, a.hex, a.facing):  # a large reinforcement needs room (FTC 5)
            raise IllegalAction(f"{a.hex} is not a free hex {a.name or character.name} can stand on; choose another.")
        fig = Figure(
            a.figure,
            a.name or character.name,
            a.side,
            character,
            a.hex,
            a.facing,
            "always",
            a.mook,
            wounds=character.starting_wounds,
        )  # FTC 7.3: a creature's own track; Fudge 4.8
        carried = self._carried_wounds(fig)
        if not fig.can_act:
            raise IllegalAction(
                f"{fig.name} carries wounds that leave {fig.wounds.label}: too hurt to join "
                "the battle; heal the character first or choose another."
            )
        fig.allowance = self.movement_allowance_of(fig)
        # FTC 4: the reinforcement rolls its initiative and takes its place in this round's order
        roll = self._roll("initiative", fig.id)
        fig.initiative = character.speed + roll.total

        def key(f: Figure) -> tuple[int, int, int, int]:
            return f.initiative, f.character.speed, f.character.agility, effective_perception(f.character)

        at = next((i for i, fid in enumerate(self.order) if key(self.figures[fid]) < key(fig)), len(self.order))
        self.figures[fig.id] = fig
        self.order.insert(at, fig.id)
        self._due = 0  # nobody has acted yet: the movement phase starts again from the top of the order
        side = self.sides[a.side].name.replace("{", "{{").replace("}", "}}")
        return [
            ev.GMActed(a.kind, f"{{0}} joins {side}", (fig.id,)),
            *carried,
            ev.InitiativeRolled(fig.id, character.speed, roll.faces, fig.initiative, ()),
            ev.InitiativeOrder(tuple(self.order)),
            *self._gm_settle(),
        ]

    def _gm_remove_figure(self, a: gm.RemoveFigure) -> list[ev.Event]:
        self._gm_between_rounds("A figure is removed")
        fig = self.figures.pop(a.figure)
        self.removed[fig.id] = fig
        self.order = [f for f in self.order if f != fig.id]
        self._due = 0  # nobody has acted yet: the movement phase starts again from the top of the order
        self._declarations = {}  # last round's, read only by threats_to
        self.gm_dice = [s for s in self.gm_dice if s.figure != fig.id]
        self.gm_escape.pop(fig.id, None)
        return [
            ev.GMActed(a.kind, "removes {0} from the battle", (fig.id,)),
            *self._magic_figure_removed(fig.id),
            *self._gm_settle(),
        ]


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
    """The five hexes at distance 2 inside a figure's front arc (spear reach, FTC 9.1; RULINGS.md)."""
    out = set()
    for d1 in (facing - 1, facing, facing + 1):
        for d2 in (facing - 1, facing, facing + 1):
            x = neighbor(neighbor(h, d1), d2)
            if distance(h, x) == 2:
                out.add(x)
    return frozenset(out)


def legal_actions(battle: Battle) -> Decision | None:
    """Who must decide now, why, and which kinds of action they may take (None: the battle is over)."""
    return battle.decision()


def apply(battle: Battle, action: act.Action) -> list[ev.Event]:
    """Validate and carry out ``action``; raises ``IllegalAction`` and changes nothing when it is illegal."""
    return battle.apply(action)
