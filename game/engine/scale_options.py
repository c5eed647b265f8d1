"""Scale's rule options (*Fudge* 4.58, 4.65): a critical result or a damage roll through Scale, and
technological levels as Scale — ``critical_penetration``, ``scale_damage_roll``, ``tech_level_scale``
(docs/rulings.md "Critical penetration", "Damage roll through Scale", "Tech levels as Scale").

* ``tech_level_factors`` (S3 of the blow's way, ``game.engine.blow.extra_factors``): a weapon and the armour
  it strikes of different technological levels (``tech_level`` in ``data/equipment.toml``) give the newer one
  ``tech_level_scale`` × the difference as a named factor;
* ``ScaleDamageRoll`` (S4): when Scale alone stops a hit from scratching (its damage is 0 or less, and would
  be 1 or more without the Scale factors) the attacker rolls the 4dF situational damage roll of *Fudge* 4.61,
  held by its limits (so at most a Scratch) unless ``damage_roll_wild``; under a damage roll on the number
  that roll is this roll, so the option adds nothing there;
* ``CriticalPenetration`` (S5, after Min-Mid-Max): a critical success — a combat roll of +4 — by a blow whose
  Scale is below the target's Mass Scale always gets this many damage points through.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.engine.blow_base import BlowRules, Dice, Facts, Harm, Spread, Strike
from game.engine.blow_step import BlowStep
from game.engine.characters import Character
from game.engine.damage import Factor, best_armour
from game.engine.damage_roll import level_of, limited, merge
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.equipment import Weapon
from game.engine.rule_options import NUMERIC_DAMAGE_ROLLS

RULE = "Fudge 4.58"
TECH_RULE = "Fudge 4.65"
CRITICAL_ROLL = 4
"""A critical success (our reading, docs/rulings.md "Critical penetration"): a combat roll of +4."""


# ------------------------------------------------------------------------------------------ S3


def tech_level_factors(
    rules: BlowRules, target: Character, weapon: Weapon, location: str
) -> tuple[tuple[Factor, ...], tuple[Factor, ...]]:
    """S3, *Fudge* 4.65: the tech-level factor of a blow at ``location`` — the weapon against the armour that
    counts there (``damage.best_armour``); the newer of the two gets ``tech_level_scale`` × the difference,
    offensive for a newer weapon, defensive for newer armour. No armour there, or the option at 0: nothing
    ("naked people don't resist most weapons well"; natural armour has no tech level)."""
    if not rules.tech_level_scale:
        return (), ()
    worn = best_armour(target, weapon, location)
    if worn is None:
        return (), ()
    armour = worn[0]
    difference = weapon.tech_level - armour.tech_level
    if not difference:
        return (), ()
    factor = Factor(
        f"Tech level (weapon {weapon.tech_level}, {armour.name} {armour.tech_level})",
        rules.tech_level_scale * abs(difference),
    )
    return ((factor,), ()) if difference > 0 else ((), (factor,))


# ------------------------------------------------------------------------------------------ S4


def stopped_by_scale(strike: Strike, harm: Harm) -> bool:
    """*Fudge* 4.58: Scale is "the only difference between getting a Scratch and no damage at all" — the damage
    is 0 or less and would be 1 or more without the Scale factors (``Strike.scale_added``)."""
    return harm.number <= 0 and harm.number - strike.scale_added >= 1


def _rolls_here(strike: Strike, harm: Harm) -> bool:
    # under Min-Mid-Max a hit by degree 2 or more reads its own table (Scale is in its factor); grazes roll
    if strike.rules.damage_roll == "min_mid_max" and strike.relative_degree >= 2:
        return False
    return stopped_by_scale(strike, harm)


@dataclass(frozen=True)
class ScaleDamageRoll:
    """S4, *Fudge* 4.58: the attacker's 4dF damage roll (``damage``) on a hit Scale alone keeps from scratching,
    with *Fudge* 4.61's limits unless ``damage_roll_wild``. Off under a damage roll on the number (which is
    already this roll)."""

    label: str = "S4"

    def on(self, rules: BlowRules) -> bool:
        """With ``scale_damage_roll`` when the damage roll is not on the number."""
        return rules.scale_damage_roll and rules.damage_roll not in NUMERIC_DAMAGE_ROLLS

    def ways(self, facts: Facts) -> int:
        """A 4dF roll: 81."""
        return 81

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The roll, made only when Scale alone stops the hit, and its line."""
        assert isinstance(facts, Strike)
        if not _rolls_here(facts, harm):
            return harm, ()
        faces = dice("damage", facts.attacker)
        after, limit = self._rolled(facts, harm, sum(faces))
        what = "damage roll through Scale" + (f", {limit}" if limit else "")
        return after, (BlowStep(RULE, what, faces, str(harm.number), str(after.number)),)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each 4dF total (or the GM's) with its ways, when the roll is made."""
        assert isinstance(facts, Strike)
        if not _rolls_here(facts, harm):
            return ((harm, 81),)
        fixed = facts.set_total("damage")
        rolls = tuple(FOUR_DF_COUNTS.items()) if fixed is None else ((fixed, 81),)
        return merge((self._rolled(facts, harm, r)[0], w) for r, w in rolls)

    @staticmethod
    def _rolled(strike: Strike, harm: Harm, roll: int) -> tuple[Harm, str]:
        final, limit = limited(harm.number, roll, wild=strike.rules.damage_roll_wild)
        return replace(harm, number=final, level=level_of(strike, final)), limit


# ------------------------------------------------------------------------------------------ S5


def is_critical(strike: Strike) -> bool:
    """A critical success of an "extremely small" attacker (*Fudge* 4.58, our reading): the winning combat roll
    is +4 and the blow's Scale is below the target's Mass Scale (``Strike.scale_difference`` below 0)."""
    return strike.attacker_roll == CRITICAL_ROLL and strike.scale_difference < 0


@dataclass(frozen=True)
class CriticalPenetration:
    """S5, *Fudge* 4.58: a smaller fighter's critical success gets ``critical_penetration`` damage points
    through: the damage is at least that, and the wound at least what it reads. No roll of its own."""

    label: str = "S5"

    def on(self, rules: BlowRules) -> bool:
        """With ``critical_penetration`` 1 or 2."""
        return rules.critical_penetration > 0

    def ways(self, facts: Facts) -> int:
        """No roll of its own (the combat roll is counted already)."""
        return 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The floor, when the blow is a smaller fighter's critical success, and its line."""
        assert isinstance(facts, Strike)
        after = self._through(facts, harm)
        if after == harm:
            return harm, ()
        points = facts.rules.critical_penetration
        what = f"critical +{CRITICAL_ROLL}: {points} point{'s' if points > 1 else ''} get through"
        return after, (BlowStep(RULE, what, (), str(harm.number), str(after.number)),)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """One harm (the floor read on the roll the odds are counting)."""
        assert isinstance(facts, Strike)
        return ((self._through(facts, harm), 1),)

    @staticmethod
    def _through(strike: Strike, harm: Harm) -> Harm:
        if not is_critical(strike):
            return harm
        points = strike.rules.critical_penetration
        floor = level_of(strike, points)
        level = harm.level if floor is None or (harm.level is not None and harm.level >= floor) else floor
        return replace(harm, number=max(harm.number, points), level=level)


__all__ = [
    "CRITICAL_ROLL",
    "CriticalPenetration",
    "ScaleDamageRoll",
    "is_critical",
    "stopped_by_scale",
    "tech_level_factors",
]
