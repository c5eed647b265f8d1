"""Willpower against wound penalties (*Fudge* 4.51; docs/rulings.md "Willpower against wounds"): S13 of the
blow's way.

*Fudge* 4.51 lets a GM allow a high-difficulty Willpower roll to reduce or even nullify the penalties of Hurt,
Very Hurt and possibly Incapacitated. With ``willpower_vs_wounds`` on, a figure whose worst wound **rises** to a
level with a penalty (Very Hurt; Hurt too with Low Pain Threshold) rolls Will at once (the GM's ``pain`` roll):
Great or better takes one off that level's penalty, Superb or better two, never above 0, for as long as that
level stays its worst (``data/damage.toml [willpower]``); the penalty keeps FTC 6.4's timing (from the next
round). With ``"incapacitated"`` a figure whose worst becomes exactly Incapacitated rolls too: Superb or better
and it **fights on**, with the Very Hurt penalty of its pain threshold (less its earlier Will roll's relief),
until any further wound takes it out. Mooks never fight on (their track reads "Out of the Battle"), nor does a
hero a Fudge Point saved from a deadly wound (*Fudge* 4.64: it lives, out of the fight).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from game.engine.blow_base import BlowRules, Dice, Facts, Harm, Spread, Target
from game.engine.blow_step import BlowStep
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.ladder import parse_level
from game.engine.wounds import WoundLevel, damage_data, pain_penalty

RULE = "Fudge 4.51"


@cache
def _table() -> tuple[tuple[tuple[int, int], ...], int]:
    data = damage_data()["willpower"]
    reduce = tuple((parse_level(str(row["at_least"])), int(row["by"])) for row in data["reduce"])
    return reduce, parse_level(str(data["fights_on"]))


def relief_of(result: int) -> int:
    """How much a Will result takes off a wound's penalty (*Fudge* 4.51): 1 at Great, 2 at Superb or better."""
    return max((by for at_least, by in _table()[0] if result >= at_least), default=0)


def fights_on_at() -> int:
    """The least Will result with which an Incapacitated figure fights on (Superb)."""
    return _table()[1]


def worst_after(target: Target, harm: Harm) -> WoundLevel | None:
    """The target's worst wound after the blow's box (the sheet's in a battle; the box on the sheet as it is in
    the odds, which keep no sheet)."""
    if harm.sheet is not None:
        return harm.sheet.worst
    before = target.sheet.worst
    if harm.marked is None:
        return before
    return harm.marked if before is None else max(before, harm.marked)


def rolls_for(target: Target, harm: Harm) -> str:
    """Which Will roll a blow's harm calls for (module doc): "penalty" (the worst rose to a level with a
    penalty), "fight_on" (it became exactly Incapacitated, under "incapacitated"), or "" (none)."""
    rules = target.rules
    if target.health is None or harm.kind != "wound" or harm.marked is None:
        return ""
    before, after = target.sheet.worst, worst_after(target, harm)
    if after is None or (before is not None and after <= before):
        return ""
    if after < WoundLevel.INCAPACITATED:
        return "penalty" if pain_penalty(after, target.defender.pain) else ""
    if (
        after == WoundLevel.INCAPACITATED
        and rules.willpower_vs_wounds == "incapacitated"
        and not target.defender.mook
        and harm.fudge != "spent"
    ):
        return "fight_on"
    return ""


@dataclass(frozen=True)
class WillAgainstPain:
    """S13, *Fudge* 4.51: the wounded figure's Will roll against its new wound's penalty (module doc). In a
    battle it says the roll in the harm (``will_faces``, ``will_result``, ``relief``, ``fights_on``); for the
    odds only the "incapacitated" variant changes an outcome (whether the blow takes the target out)."""

    label: str = "S13"

    def on(self, rules: BlowRules) -> bool:
        """Under ``willpower_vs_wounds``."""
        return rules.willpower_vs_wounds != "off"

    def ways(self, facts: Facts) -> int:
        """81 when the roll may keep a figure in the fight (and the odds count the target's rolls), else 1."""
        assert isinstance(facts, Target)
        return 81 if facts.rules.willpower_vs_wounds == "incapacitated" and facts.health is not None else 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The roll, made when the wound calls for one; a figure fighting on is taken out by any wound."""
        assert isinstance(facts, Target)
        if facts.defender.fights_on and harm.level is not None:
            return replace(harm, out=True), ()
        roll = rolls_for(facts, harm)
        if not roll:
            return harm, ()
        faces = dice("pain", facts.figure)
        result = facts.defender.will + sum(faces)
        if roll == "fight_on":
            on = result >= fights_on_at()
            return replace(harm, will_faces=faces, will_result=result, fights_on=on, out=not on), ()
        worst = worst_after(facts, harm)
        penalty = pain_penalty(worst, facts.defender.pain)
        return replace(harm, will_faces=faces, will_result=result, relief=min(relief_of(result), -penalty)), ()

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """A blow that makes the target Incapacitated keeps it in the fight on a Superb Will (or the GM's roll)."""
        assert isinstance(facts, Target)
        ways = self.ways(facts)
        if facts.defender.fights_on and harm.level is not None:
            return ((replace(harm, out=True), ways),)
        if ways == 1 or rolls_for(facts, harm) != "fight_on":
            return ((harm, ways),)
        fixed = facts.set_total("pain")
        rolls = FOUR_DF_COUNTS.items() if fixed is None else ((fixed, 81),)
        stays = sum(w for roll, w in rolls if facts.defender.will + roll >= fights_on_at())
        out = ((replace(harm, fights_on=True, out=False), stays), (harm, 81 - stays))
        return tuple((h, w) for h, w in out if w)


__all__ = ["RULE", "WillAgainstPain", "fights_on_at", "relief_of", "rolls_for", "worst_after"]
