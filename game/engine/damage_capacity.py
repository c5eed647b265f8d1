"""Damage Capacity's other ways (*Fudge* 4.52; docs/rulings.md "Damage Capacity"): S8 and S9 of the blow's way.

*Fudge* 4.52 offers a GM several ways of Damage Capacity; this game plays three, beside FTC's own:

- ``damage_capacity = "factor"`` (the default): the roster's optional Damage Capacity is a defensive damage
  factor (*Fudge* 4.54) and FTC 7.4's Health roll lowers each wound (``blow_base.HealthRoll``);
- ``"roll"``: a roll on each wound of Hurt or worse **replaces** the Health roll (FTC 2.1 makes Health the trait
  of damage capacity): on the roster's Damage Capacity when it gives one, else on Health; Great or better makes
  the wound one step less severe, Poor or worse one step more severe (``data/damage.toml [capacity_roll]``).
  The Damage Capacity is then no defensive factor;
- ``"will_roll"``: the same roll on Will ("Willpower instead of Damage Capacity"); a roster's Damage Capacity is
  ignored.

The gift Damage Resistant and the fault Fragile (roster traits, no switch) make every wound one step less or
more severe (S8). The step is a wound level, or with ``damage_capacity_step = "point"`` a damage point: the
number moves by one and the wound is read anew on the target's track. A step on the defender's side never
lowers a wound below a Scratch nor makes one out of none, and never raises one above the track's top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from game.engine.blow_base import (
    BlowRules,
    Dice,
    Facts,
    Harm,
    HealthRoll,
    Spread,
    Target,
    read_level,
)
from game.engine.blow_step import BlowStep
from game.engine.damage import CAPACITY_FACTOR, Factor
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.ladder import level_name, parse_level
from game.engine.wounds import WoundLevel, WoundTrack, damage_data

RULE = "Fudge 4.52"
TRAITS = {"roll": "Damage Capacity", "will_roll": "Will"}
"""The trait each rolling method rolls on (``roll`` falls back on Health when the roster gives no Damage Capacity)."""


@cache
def _thresholds() -> tuple[int, int]:
    table = damage_data()["capacity_roll"]
    return parse_level(str(table["lighter_at_least"])), parse_level(str(table["heavier_at_most"]))


def capacity_step(result: int) -> int:
    """What a Damage Capacity roll's result does to a wound (*Fudge* 4.52): -1 (one step less severe) at Great or
    better, +1 (one more) at Poor or worse, else 0."""
    lighter, heavier = _thresholds()
    return -1 if result >= lighter else 1 if result <= heavier else 0


def rolls_capacity(rules: BlowRules) -> bool:
    """Whether a Damage Capacity (or Will) roll replaces FTC 7.4's Health roll."""
    return rules.damage_capacity in TRAITS


def without_capacity(rules: BlowRules, factors: Sequence[Factor]) -> tuple[Factor, ...]:
    """The defensive factors without the roster's Damage Capacity when it is rolled instead (or ignored) rather
    than counted as a factor (*Fudge* 4.52); unchanged under ``"factor"``."""
    if not rolls_capacity(rules):
        return tuple(factors)
    return tuple(f for f in factors if not f.name.startswith(CAPACITY_FACTOR))


def dropped_capacity(rules: BlowRules, capacity: int | None) -> int:
    """How much the damage base rises when the roster's Damage Capacity is no defensive factor (0 when it is one,
    or when the roster gives none): for the odds, which add the factors up (``damage.damage_bases``)."""
    return capacity if capacity is not None and rolls_capacity(rules) else 0


def trait_rolled(rules: BlowRules, target: Target) -> tuple[str, int | None]:
    """The trait a Damage Capacity roll is made on and its level (None: none counted, as Health in the odds)."""
    defender = target.defender
    if rules.damage_capacity == "will_roll":
        return "Will", (None if target.health is None else defender.will)
    if defender.capacity is not None:
        return "Damage Capacity", (None if target.health is None else defender.capacity)
    return "Health", target.health


def shifted(level: WoundLevel | None, by: int, track: WoundTrack) -> WoundLevel | None:
    """A wound moved ``by`` levels on the defender's side: never below a Scratch, never above the track's top, no
    wound stays none (*Fudge* 4.52; docs/rulings.md "Rule options")."""
    if level is None or not by:
        return level
    top = track.steps[-1].level
    return WoundLevel(max(WoundLevel.SCRATCH, min(top, level + by)))


def moved(harm: Harm, by: int, target: Target, rules: BlowRules) -> WoundLevel | None:
    """The wound after a step of ``by`` (a level, or with ``damage_capacity_step = "point"`` a damage point: the
    number moved and read anew, the level moving as far as the reading does)."""
    track = target.sheet.track
    if rules.damage_capacity_step == "level":
        return shifted(harm.level, by, track)
    graze = rules.fudge_graze_table
    was = read_level(harm.number, target.relative_degree, track, graze, target.scale_difference)
    now = read_level(harm.number + by, target.relative_degree, track, graze, target.scale_difference)
    return shifted(harm.level, int(now or 0) - int(was or 0), track)


def _number(harm: Harm, by: int, rules: BlowRules) -> int:
    return harm.number + by if rules.damage_capacity_step == "point" else harm.number


def _line(what: str, faces: tuple[int, ...], before: Harm, after: Harm) -> tuple[BlowStep, ...]:
    if before.level == after.level:
        return ()
    return (BlowStep(RULE, what, faces, str(before.level), str(after.level)),)


@dataclass(frozen=True)
class Resilience:
    """S8, *Fudge* 4.52: Damage Resistant makes each wound one step less severe, Fragile one step more (a roster
    trait: no switch, so always on; a figure with neither is untouched)."""

    label: str = "S8"

    def on(self, rules: BlowRules) -> bool:
        """A roster trait: always."""
        return True

    def ways(self, facts: Facts) -> int:
        """No roll."""
        return 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The step in a battle, said in the wound's log when it changed the level."""
        after = self.after(facts, harm)
        what = "Damage Resistant" if isinstance(facts, Target) and facts.defender.resilience < 0 else "Fragile"
        return after, _line(what, (), harm, after)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The same, for the odds."""
        return ((self.after(facts, harm), 1),)

    @staticmethod
    def after(facts: Facts, harm: Harm) -> Harm:
        """The wound one step lighter or heavier."""
        assert isinstance(facts, Target)
        by = facts.defender.resilience
        if not by or harm.level is None:
            return harm
        return replace(harm, number=_number(harm, by, facts.rules), level=moved(harm, by, facts, facts.rules))


class HealthUnlessCapacity(HealthRoll):
    """S9, FTC 7.4's Health roll, made unless a Damage Capacity roll replaces it (*Fudge* 4.52)."""

    def on(self, rules: BlowRules) -> bool:
        """Under ``damage_capacity = "factor"`` (FTC as written)."""
        return not rolls_capacity(rules)


@dataclass(frozen=True)
class CapacityRoll:
    """S9, *Fudge* 4.52: the target's Damage Capacity (or Health, or Will) roll on a wound of Hurt or worse, in
    place of FTC 7.4's Health roll (module doc). The GM sets it as the target's ``health`` roll; the limb rule
    (FTC 6.6, S10) reads its result where it read the Health result."""

    label: str = "S9"

    def on(self, rules: BlowRules) -> bool:
        """Under ``damage_capacity = "roll"`` or ``"will_roll"``."""
        return rolls_capacity(rules)

    def ways(self, facts: Facts) -> int:
        """81, or 1 when the odds count no roll of the target's (``Target.health`` None)."""
        assert isinstance(facts, Target)
        return 1 if facts.health is None else 81

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The roll, made for a wound of Hurt or worse (a Scratch rolls nothing)."""
        assert isinstance(facts, Target)
        name, level = trait_rolled(facts.rules, facts)
        if level is None or harm.level is None or harm.level < WoundLevel.HURT:
            return replace(harm, trait=name), ()
        faces = dice("health", facts.figure)
        result = level + sum(faces)
        after = _rolled(harm, result, facts)
        after = replace(after, roll_faces=faces, roll_result=result, trait=name)
        by = capacity_step(result)
        what = f"{name} roll {level_name(result)}: one step {'lighter' if by < 0 else 'heavier'}"
        return after, _line(what, faces, harm, after)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each 4dF total (or the GM's) moving the wound; the result kept for the limb rule."""
        assert isinstance(facts, Target)
        level = trait_rolled(facts.rules, facts)[1]
        if level is None:
            return ((harm, 1),)
        if harm.level is None or harm.level < WoundLevel.HURT:
            return ((harm, 81),)
        return _capacity_spread(harm, level, facts)


def _rolled(harm: Harm, result: int, target: Target) -> Harm:
    by = capacity_step(result)
    rules = target.rules
    return replace(harm, number=_number(harm, by, rules), level=moved(harm, by, target, rules))


@lru_cache(maxsize=1024)
def _capacity_spread(harm: Harm, level: int, target: Target) -> Spread:
    fixed = target.set_total("health")
    rolls = tuple(FOUR_DF_COUNTS.items()) if fixed is None else ((fixed, 81),)
    out: dict[Harm, int] = {}
    for roll, w in rolls:
        result = level + roll
        after = replace(_rolled(harm, result, target), roll_result=result)
        out[after] = out.get(after, 0) + w
    return tuple(out.items())


def defender_reads_number(rules: BlowRules) -> bool:
    """Whether a defender-side step moves the damage number (the point step): the odds then keep each blow's
    number and relative degree for the defender's side."""
    return rules.damage_capacity_step == "point"


__all__ = [
    "RULE",
    "TRAITS",
    "CapacityRoll",
    "HealthUnlessCapacity",
    "Resilience",
    "capacity_step",
    "defender_reads_number",
    "dropped_capacity",
    "moved",
    "rolls_capacity",
    "shifted",
    "trait_rolled",
    "without_capacity",
]
