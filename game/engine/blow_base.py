"""The blow's way's vocabulary and FTC's own steps (FTC 7.3, 7.4, 6.6; *Fudge* 4.57; docs/architecture.md "The
blow's way").

What every step of the way (``game.engine.blow``) and every rule option's module that fills one of its slots
reads and writes: the rules a blow is played under (``BlowRules``), the facts of its two sides (``Strike`` for
the attacker's, ``Target`` for the defender's), the ``Harm`` as it goes, a step (``Step``: ``play`` in a battle,
``spread`` for the odds) and the ways to run several (``Chain``, ``play_steps``, ``spread_steps``,
``ways_of``); the wound a number reads (``read_level``, S5) and FTC's own steps of the defender's side: the
Health roll (S9, ``HealthRoll``), the limb rule (S10, ``LimbRule``) and the box (S11, ``Record``). It imports
no option's module, so each option's module builds on it and ``game.engine.blow`` puts them in their slots
without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar

from game.engine.blow_step import BlowStep
from game.engine.damage import is_limb, limb_wound, location_result
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.rule_options import RuleOptions
from game.engine.stun_sheet import FRESH, StunSheet
from game.engine.wounds import WoundLevel, Wounds, WoundTrack, apply_health_roll, graze_cap, wound_for_damage

_K = TypeVar("_K")
_V = TypeVar("_V")

Dice = Callable[[str, str], tuple[int, ...]]
"""The battle's dice for a step: (purpose of ``game.engine.gm.DIE_PURPOSES``, the figure that owns the roll)
-> the faces, a roll the GM set by hand first (``gm.SetDie``)."""


@dataclass(frozen=True, slots=True)
class BlowRules:
    """What of the battle's rule options and of the blow's declaration a blow's steps read; hashable (the
    odds cache spreads by it). Every default is FTC as written. ``of`` takes the battle-wide part from the
    ``RuleOptions`` (the fields of the same names); ``for_blow`` adds what the declaration says."""

    damage_roll: str = "off"
    damage_roll_wild: bool = False
    graze_damage_roll: bool = False
    min_mid_max_low_penalty: bool = False
    wound_situational_roll: str = "off"
    fudge_graze_table: bool = False
    willpower_vs_wounds: str = "off"
    damage_capacity: str = "factor"
    damage_capacity_step: str = "level"
    pc_death_max_three_levels: bool = False
    pc_death_near_death_if_incapacitated: bool = False
    pc_death_fudge_point: bool = False
    stun_head_knockout: bool = False
    sweeping_blow: int = 0
    critical_penetration: int = 0
    scale_damage_roll: bool = False
    tech_level_scale: int = 0
    # the blow's own (its declaration, its place in a sweep)
    stun: bool = False
    """*Fudge* 4.62: the declaration goes for stun."""
    max_wound: WoundLevel | None = None
    """*Fudge* 4.62: the most wound the declaration will do (a pulled punch)."""
    sweep_place: int = 0
    """*Fudge* 4.34: the foe's place in a sweeping blow after the first (0: the first, or no sweep)."""
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(getattr(self, f.name) for f in fields(self) if f.name != "_hash")
        object.__setattr__(self, "_hash", hash(values))

    def __hash__(self) -> int:
        """Computed once: the rules key the odds' caches on every blow they spread."""
        return self._hash

    @classmethod
    def of(cls, options: RuleOptions) -> BlowRules:
        """The battle-wide rules of a blow under these options."""
        names = {f.name for f in fields(cls)} & set(RuleOptions.__struct_fields__)
        return cls(**{name: getattr(options, name) for name in names})

    def for_blow(self, *, stun: bool = False, max_wound: WoundLevel | None = None, sweep_place: int = 0) -> BlowRules:
        """These rules for one blow of a declaration (``stun``, ``max_wound``, ``sweep_place``)."""
        if (stun, max_wound, sweep_place) == (self.stun, self.max_wound, self.sweep_place):
            return self
        return replace(self, stun=stun, max_wound=max_wound, sweep_place=sweep_place)


FTC = BlowRules()
"""FTC as written: every step at its default."""


@lru_cache(maxsize=64)
def rules_of(options: RuleOptions) -> BlowRules:
    """The battle-wide ``BlowRules`` of these options (``BlowRules.of``, cached: the odds ask on every move)."""
    return BlowRules.of(options)


@dataclass(frozen=True, slots=True)
class Strike:
    """What the attacker's side of a blow (S4–S7) may read: the blow once it has hit and its location is
    chosen. ``attacker_roll`` / ``target_roll``: the 4dF totals of the round's rolls (None: no roll — a stray
    has no attacker roll, an undodged shot or a figure making a second move no defence roll); ``fixed``: the
    totals the GM set by hand for the coming rolls of each purpose (the odds count them as set). The figures'
    ids own the dice in a battle; the odds leave them empty."""

    rules: BlowRules
    relative_degree: int
    location: str
    track: WoundTrack
    scale_difference: int = 0
    attacker_roll: int | None = None
    target_roll: int | None = None
    attacker: str = ""
    target: str = ""
    fixed: tuple[tuple[str, int], ...] = ()
    scale_part: int | None = None
    """What the Scale factors add to the damage number (the attacker's Strength Scale less the target's Mass
    Scale, as the blow's factors name them: a scale-piercing blow's halved Mass Scale counted as halved); None:
    ``scale_difference`` (*Fudge* 4.58)."""

    @property
    def graze(self) -> bool:
        """A hit by relative degree +1 (FTC 7.3)."""
        return self.relative_degree == 1

    def set_total(self, purpose: str) -> int | None:
        """The total the GM set for the coming roll of ``purpose``, None when none is set."""
        return next((t for p, t in self.fixed if p == purpose), None)

    @property
    def scale_added(self) -> int:
        """What the Scale factors add to the damage number (``scale_part``, else ``scale_difference``)."""
        return self.scale_difference if self.scale_part is None else self.scale_part


@dataclass(frozen=True, slots=True)
class Defender:
    """What the defender's side reads of the target beyond its sheet and Health (every default: a figure no rule
    option reads). *Fudge* 4.64: whether it is a ``hero`` (a player character or major NPC), its worst wound when
    the round began (``round_start``), its Fudge Points and its standing order for spending one (``fudge_order``:
    "always", "never", "ask"). *Fudge* 4.51: its ``will`` and ``pain`` threshold, whether it already ``fights_on``
    Incapacitated, whether it is a ``mook`` (never rolls to fight on). *Fudge* 4.52: its ``capacity`` (the
    roster's Damage Capacity, None when it gives none) and ``resilience`` (-1 Damage Resistant, +1 Fragile)."""

    hero: bool = False
    round_start: WoundLevel | None = None
    fudge_points: int = 0
    fudge_order: str = "always"
    will: int = 0
    pain: str = "normal"
    fights_on: bool = False
    mook: bool = False
    capacity: int | None = None
    resilience: int = 0
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = (self.hero, self.round_start, self.fudge_points, self.fudge_order, self.will, self.pain)
        object.__setattr__(self, "_hash", hash((*values, self.fights_on, self.mook, self.capacity, self.resilience)))

    def __hash__(self) -> int:
        """Computed once: a target's facts key the odds' caches."""
        return self._hash


NOBODY = Defender()
"""The defender facts no rule option reads (engine tests and blows that name none)."""


@dataclass(frozen=True, slots=True)
class Target:
    """What the defender's side of a blow (S8–S13) may read: where it fell, the target's sheet before it (the
    odds: the sheet as it is now), its Health for FTC 7.4's roll (None: no roll counted), the totals the GM set
    for its coming rolls; its id owns the dice in a battle. ``defender``: the rest the options read of it.
    ``relative_degree`` / ``scale_difference``: the blow's (FTC 7.3, *Fudge* 4.56), read only by a step that
    moves the damage number by a point (*Fudge* 4.52's point step: the wound is then read anew)."""

    rules: BlowRules
    location: str
    sheet: Wounds
    health: int | None = None
    figure: str = ""
    fixed: tuple[tuple[str, int], ...] = ()
    defender: Defender = NOBODY
    relative_degree: int = 0
    scale_difference: int = 0
    stuns: StunSheet = FRESH
    """*Fudge* 4.62: the target's stun sheet, read by a stunning blow's S11."""
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = (self.rules, self.location, self.sheet, self.health, self.figure, self.fixed, self.defender)
        object.__setattr__(self, "_hash", hash((*values, self.relative_degree, self.scale_difference, self.stuns)))

    def __hash__(self) -> int:
        """Computed once: the odds key the defender's spreads on the target."""
        return self._hash

    def set_total(self, purpose: str) -> int | None:
        """The total the GM set for the coming roll of ``purpose``, None when none is set."""
        return next((t for p, t in self.fixed if p == purpose), None)


@dataclass(frozen=True, slots=True)
class Harm:
    """A blow's harm as it goes its way: the damage ``number`` and the ``level`` read from it (S3–S7), then
    what the defender's side makes of it — ``kind`` ("wound", or "stun" for a stunning blow), whether a limb
    is ``crippled``, the box ``marked`` and the ``sheet`` after it (S11), whether it takes the target ``out``
    of the fight. ``roll_faces`` / ``roll_result``: the defender's roll against the wound as made (S9; a
    battle's, and the limb rule's), ``trait`` the trait it was made on when not Health (*Fudge* 4.52). The odds'
    spreads leave the sheet and the faces out (they would only split equal outcomes).

    In a battle the defender's side also says: the level the box was marked for (``recorded``; None: not
    recorded, *Fudge* 4.64's excess lost), what a Fudge Point did (``fudge``: "spent", or "ask" when the hero's
    player is to be asked), and the Will roll against the wound's penalty (``will_faces``, ``will_result``, the
    penalty it takes off, ``relief``, and whether the figure ``fights_on`` Incapacitated; *Fudge* 4.51)."""

    number: int
    level: WoundLevel | None
    kind: str = "wound"
    crippled: bool = False
    marked: WoundLevel | None = None
    sheet: Wounds | None = None
    out: bool = False
    roll_faces: tuple[int, ...] = ()
    roll_result: int | None = None
    trait: str = ""
    recorded: WoundLevel | None = None
    fudge: str = ""
    will_faces: tuple[int, ...] = ()
    will_result: int | None = None
    relief: int = 0
    fights_on: bool = False
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(_harm_values(self)))

    def __hash__(self) -> int:
        """Computed once: the odds key their spreads on harms, many times each."""
        return self._hash


def _harm_values(harm: Harm) -> tuple[object, ...]:
    return (
        harm.number,
        harm.level,
        harm.kind,
        harm.crippled,
        harm.marked,
        harm.sheet,
        harm.out,
        harm.roll_faces,
        harm.roll_result,
        harm.trait,
        harm.recorded,
        harm.fudge,
        harm.will_faces,
        harm.will_result,
        harm.relief,
        harm.fights_on,
    )


Spread = tuple[tuple[Harm, int], ...]
"""A step's exact distribution: each harm with its number of ways; the ways sum to the step's ``ways``."""

Facts = Strike | Target


class Step(Protocol):
    """One step of the blow's way (module doc). ``on(rules)``: whether it can act at all under these rules
    (off: no draw, no change, ``ways`` 1). ``ways(facts)``: the ways its rolls add to the odds' denominator —
    the same for every blow under the same rules, so a blow that rolls nothing puts them all on one harm."""

    @property
    def label(self) -> str:
        """The step's place in the way ("S4")."""
        ...

    def on(self, rules: BlowRules) -> bool:
        """Whether the step can act under these rules."""
        ...

    def ways(self, facts: Facts) -> int:
        """The ways its rolls add (1: no roll)."""
        ...

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The step in a battle: the harm after it and the lines it adds to the blow's log."""
        ...

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The step's exact distribution (ways summing to ``ways(facts)``)."""
        ...


@dataclass(frozen=True)
class NoStep:
    """A slot of the way no rule option fills yet: it changes nothing and draws nothing."""

    label: str
    what: str

    def on(self, rules: BlowRules) -> bool:
        """Never."""
        return False

    def ways(self, facts: Facts) -> int:
        """No roll."""
        return 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """Nothing happens."""
        return harm, ()

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The harm as it came."""
        return ((harm, 1),)


@dataclass(frozen=True)
class Chain:
    """Several steps in one slot, in order (e.g. S4's damage roll, then its critical floor)."""

    label: str
    steps: tuple[Step, ...]

    def on(self, rules: BlowRules) -> bool:
        """When any of them is."""
        return any(s.on(rules) for s in self.steps)

    def ways(self, facts: Facts) -> int:
        """The product of theirs."""
        return ways_of(self.steps, facts)

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """Each in turn."""
        return play_steps(self.steps, facts, harm, dice)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each in turn, convolved."""
        return spread_steps(self.steps, facts, harm)


def play_steps(steps: Sequence[Step], facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
    """Steps in a battle, in order (those off under the blow's rules skipped): the harm after them and their
    lines for the blow's log."""
    lines: tuple[BlowStep, ...] = ()
    for step in steps:
        if step.on(facts.rules):
            harm, said = step.play(facts, harm, dice)
            lines += said
    return harm, lines


def spread_steps(steps: Sequence[Step], facts: Facts, harm: Harm) -> Spread:
    """Steps for the odds, in order, convolved: each harm they may leave with its ways.

    The spread of the steps from each one on is kept per harm that reaches it (``_rest``), for these steps and
    facts: the harms a roll leaves meet again further on (the number a Damage Capacity roll moves, the result the
    limb rule drops), and each is then spread once, not once per way it came."""
    kept = _SPREADS.kept((id(steps), facts))
    known = kept.get(None)
    if known is None or known[0] is not steps:  # the steps are known by identity: kept with their answers
        kept.clear()
        known = kept[None] = (steps, tuple(step for step in steps if step.on(facts.rules)))
    return _rest(known[1], 0, facts, harm, kept)


class Kept(Generic[_K, _V]):
    """Answers kept per call-wide facts (at most ``sides`` of them), each a dict of at most ``most`` answers (both
    emptied when full): two levels, so a call hashes its facts once and each of its parts a few fields."""

    def __init__(self, sides: int, most: int) -> None:
        self.sides = sides
        self.most = most
        self.by_side: dict[Hashable, dict[_K, _V]] = {}

    def kept(self, side: Hashable) -> dict[_K, _V]:
        """The answers kept for these facts (a dict the caller fills)."""
        kept = self.by_side.get(side)
        if kept is None:
            if len(self.by_side) >= self.sides:
                self.by_side.clear()
            kept = self.by_side[side] = {}
        elif len(kept) > self.most:
            kept.clear()
        return kept

    def clear(self) -> None:
        """Forget every answer."""
        self.by_side.clear()


_SPREADS: Kept[Any, Any] = Kept(256, 4096)
"""``spread_steps``' answers kept per steps (by identity, the steps kept with them under ``None``) and facts,
then per (step from which on, harm)."""


def _rest(on: tuple[Step, ...], i: int, facts: Facts, harm: Harm, kept: dict[Any, Any]) -> Spread:
    """The spread of ``on[i:]`` (steps that act under the facts' rules) for ``harm``, kept in ``kept``."""
    if i == len(on):
        return ((harm, 1),)
    done = kept.get((i, harm))
    if done is None:
        ways: dict[Harm, int] = {}
        for h, w in on[i].spread(facts, harm):
            for h2, w2 in _rest(on, i + 1, facts, h, kept):
                ways[h2] = ways.get(h2, 0) + w * w2
        done = kept[(i, harm)] = tuple(ways.items())
    return done


def clear_spreads() -> None:
    """Forget ``spread_steps``' kept answers (for tests that change a way's steps)."""
    _SPREADS.clear()


# ------------------------------------------------------------------------------------------ S5


@lru_cache(maxsize=4096)
def read_level(
    number: int, relative_degree: int, track: WoundTrack, fudge_graze_table: bool, scale_difference: int = 0
) -> WoundLevel | None:
    """S5: the wound a damage number reads on the target's track (FTC 7.3), a graze capped (FTC 7.3, *Fudge*
    4.56 with ``fudge_graze_table``, the Scale difference raising the cap). The battle, the odds and every
    step that changes the number read wounds with this."""
    level = wound_for_damage(number, track)
    return graze_cap(
        level, relative_degree, fudge_graze_table=fudge_graze_table, damage=number, scale_difference=scale_difference
    )


# ------------------------------------------------------------------------------------------ S9 to S11


def _rolls(fixed: int | None) -> tuple[tuple[int, int], ...]:
    """4dF totals with their ways out of 81; a roll the GM set is its total, all 81 ways."""
    return tuple(FOUR_DF_COUNTS.items()) if fixed is None else ((fixed, 81),)


@dataclass(frozen=True)
class HealthRoll:
    """S9, FTC 7.4: the target's Health roll lowers each fresh wound (Superb or better two levels, Great one;
    never below a Scratch). Always on; with no Health given (``Target.health`` None) it rolls nothing."""

    label: str = "S9"

    def on(self, rules: BlowRules) -> bool:
        """FTC's own roll: always."""
        return True

    def ways(self, facts: Facts) -> int:
        """81, or 1 with no Health roll counted."""
        assert isinstance(facts, Target)
        return 1 if facts.health is None else 81

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The Health roll, made for a wound."""
        assert isinstance(facts, Target) and facts.health is not None
        if harm.level is None:
            return harm, ()
        faces = dice("health", facts.figure)
        result = facts.health + sum(faces)
        return replace(harm, level=apply_health_roll(harm.level, result), roll_faces=faces, roll_result=result), ()

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each 4dF total (or the GM's) lowering the wound; the result kept for the limb rule."""
        assert isinstance(facts, Target)
        if facts.health is None:
            return ((harm, 1),)
        if harm.level is None:
            return ((harm, 81),)
        return _health_spread(harm, facts.health, facts.set_total("health"))


@lru_cache(maxsize=1024)
def _health_spread(harm: Harm, health: int, fixed: int | None) -> Spread:
    out: dict[Harm, int] = {}
    assert harm.level is not None
    for roll, w in _rolls(fixed):
        result = health + roll
        after = replace(harm, level=apply_health_roll(harm.level, result), roll_result=result)
        out[after] = out.get(after, 0) + w
    return tuple(out.items())


class FixedStep:
    """A step of FTC's own with no roll: always on, the same function in a battle and in the odds (``after``;
    ``in_battle`` False lets it leave out what would only split equal outcomes)."""

    label = ""

    def on(self, rules: BlowRules) -> bool:
        """FTC's own: always."""
        return True

    def ways(self, facts: Facts) -> int:
        """No roll of its own."""
        return 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The step in a battle."""
        return self.after(facts, harm, in_battle=True), ()

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The step for the odds: one harm, all the ways."""
        return ((self.after(facts, harm, in_battle=False), 1),)

    def after(self, facts: Facts, harm: Harm, *, in_battle: bool) -> Harm:
        """The harm after the step."""
        return harm


class LimbRule(FixedStep):
    """S10, FTC 6.6: a blow to an arm or leg (hand, foot) does at most Hurt; a would-be Very Hurt one cripples
    the limb unless the Health result (S9's) is Good or better, a worse one always. For the odds S9's result is
    dropped afterwards (nothing later reads it)."""

    label = "S10"

    def after(self, facts: Facts, harm: Harm, *, in_battle: bool) -> Harm:
        """The cap and the crippling, on S9's result."""
        level = harm.level
        if level is not None and is_limb(facts.location):
            if harm.roll_result is None:  # no Health roll counted: capped, and a would-be Very Hurt limb not saved
                capped, cripples = location_result(facts.location, level)
                harm = replace(harm, level=capped, crippled=cripples)
            else:
                limb, crippled = limb_wound(level, harm.roll_result)
                harm = replace(harm, level=limb, crippled=crippled)
        return harm if in_battle else replace(harm, roll_result=None)


class Record(FixedStep):
    """S11, *Fudge* 4.57: the wound marks a box of its level on the target's sheet, the next higher open box if
    that level has none (docs/rulings.md "Wound track"); the figure is out of the fight at Incapacitated or
    worse (FTC 6.4, 7.3). In a battle the sheet after it is kept (the figure's new sheet)."""

    label = "S11"

    def after(self, facts: Facts, harm: Harm, *, in_battle: bool) -> Harm:
        """The box marked on the sheet (and, in a battle, the sheet after it)."""
        assert isinstance(facts, Target)
        if harm.level is None:
            return harm
        sheet, box = facts.sheet.record(harm.level)
        if not in_battle:
            return replace(harm, marked=box, out=not sheet.can_act)
        return replace(harm, marked=box, out=not sheet.can_act, sheet=sheet, recorded=harm.level)


def ways_of(steps: Sequence[Step], facts: Facts) -> int:
    """The ways the steps on under the blow's rules add to the odds' denominator (their product)."""
    out = 1
    for step in steps:
        if step.on(facts.rules):
            out *= step.ways(facts)
    return out
