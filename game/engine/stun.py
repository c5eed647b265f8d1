"""Stunning, knocking out and pulling a blow (*Fudge* 4.62; docs/rulings.md "Stun, knockout and pulled blows").

A declaration may go for stun (rule option ``stun_blows``): the blow is figured normally — the damage, the wound
read, the target's Health roll (FTC 7.4) and the limb rule (FTC 6.6, without crippling) — but instead of a wound
box it marks the **stun sheet**: Hurt is a Stun (no attack, no very defensive stance, −1 to defend), Very Hurt a
Very Stunned (no attack, −2 to every roll), Incapacitated or worse a knockout (out of the fight, nothing to
heal). A Scratch does nothing. A Stun holds for the round after the blow, a Very Stunned for the two rounds after
it (as FTC 6.4 makes a Very Hurt wound count from the next round). The sheet has one box of each (``data/damage.toml``
``[stun]``): a second Stun finds its box full and marks Very Stunned, a third knocks out. With
``stun_head_knockout`` a stunning blow that lands on the head knocks out whatever its damage.

A declaration may also name the most wound it will do (``pulled_blows``): the blow's level is capped before the
defender's side (S7 of the blow's way), so the target's Health may lower it further; with a stun, it caps the stun.

This module gives the two steps of the blow's way (``PulledBlow`` at S7, ``StunOrRecord`` at S11, the same in a
battle and in the odds), the stun sheet, and what a stun hinders each round.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.engine.blow_base import BlowRules, Dice, Facts, Harm, Spread, Target
from game.engine.blow_step import BlowStep
from game.engine.combat import Modifier
from game.engine.damage import HEAD
from game.engine.heroes import CappedRecord
from game.engine.stun_sheet import (
    BOXES,
    FRESH,
    KNOCKED_OUT,
    MARKS,
    RESULTS,
    STUN,
    VERY_STUNNED,
    StunSheet,
    level_of,
    result_of,
    stun_level,
)

PULL_LEVELS: tuple[str, ...] = ("Scratch", "Hurt", "Very Hurt", "Incapacitated")
"""The wound levels a pulled blow may name as its most (*Fudge* 4.62; "first blood": a Scratch)."""


def hindered_rounds(result: str, round_no: int) -> tuple[int, ...]:
    """The rounds a stun marked in round ``round_no`` hinders (*Fudge* 4.62 "for one combat turn", Very Stunned
    "two combat rounds"; our reading: from the next round, as FTC 6.4 counts a Very Hurt wound)."""
    if result == STUN:
        return (round_no + 1,)
    if result == VERY_STUNNED:
        return (round_no + 1, round_no + 2)
    return ()


def hindrance(stunned: tuple[tuple[int, str], ...], round_no: int) -> str | None:
    """What hinders a figure this round from its stuns (``Figure.stunned``: (round, result) pairs): "Very
    Stunned", "Stun", or None."""
    now = {result for r, result in stunned if r == round_no}
    return VERY_STUNNED if VERY_STUNNED in now else STUN if STUN in now else None


def terms(stunned: tuple[tuple[int, str], ...], round_no: int, channel: str) -> tuple[Modifier, ...]:
    """A stunned figure's modifiers this round (*Fudge* 4.62): ``channel`` "all" (every roll the GM's situational
    modifier reaches: Very Stunned −2) or "defence" (a defence or dodge: Stun −1; Very Stunned's −2 comes with
    "all")."""
    now = hindrance(stunned, round_no)
    if now == VERY_STUNNED and channel == "all":
        return (Modifier("Very Stunned (Fudge 4.62)", -2),)
    if now == STUN and channel == "defence":
        return (Modifier("Stunned (Fudge 4.62)", -1),)
    return ()


# ------------------------------------------------------------------------------------------ the blow's way


@dataclass(frozen=True)
class PulledBlow:
    """S7, *Fudge* 4.62: a pulled blow does at most the wound its declaration names ("A fencer going for a
    Scratch who wins by +8 … still only nicks his foe"), before the defender's side."""

    label: str = "S7"

    def on(self, rules: BlowRules) -> bool:
        """When the declaration names a most wound."""
        return rules.max_wound is not None

    def ways(self, facts: Facts) -> int:
        """No roll."""
        return 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The cap, said in the blow's log when it cuts the wound."""
        after = self._capped(facts.rules, harm)
        if after.level == harm.level:
            return harm, ()
        most = facts.rules.max_wound
        return after, (BlowStep("Fudge 4.62", f"pulled to {most}", (), str(harm.level), str(after.level)),)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The same cap: one harm."""
        return ((self._capped(facts.rules, harm), 1),)

    @staticmethod
    def _capped(rules: BlowRules, harm: Harm) -> Harm:
        most = rules.max_wound
        if most is None or harm.level is None or harm.level <= most:
            return harm
        return replace(harm, level=most)


class StunOrRecord(CappedRecord):
    """S11: the box for a wound (*Fudge* 4.57, a hero's capped under 4.64: ``heroes.CappedRecord``); for a stunning
    blow (*Fudge* 4.62; a stun is no wound, so no hero's cap) the stun sheet
    instead — Hurt a Stun, Very Hurt a Very Stunned, worse a knockout, rolled up when its box is full, a Scratch
    nothing; never a crippled limb; with ``stun_head_knockout`` a blow on the head knocks out. ``Harm.kind`` is
    "stun", ``marked`` the result as a level (``result_of``), ``out`` a knockout; the target's stun sheet is
    ``Target.stuns``."""

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The stun a stunning blow marks, else the (capped) box."""
        if facts.rules.stun:
            return self.after(facts, harm, in_battle=True), ()
        return super().play(facts, harm, dice)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The stun for the odds, else the (capped) box's."""
        if facts.rules.stun:
            return ((self.after(facts, harm, in_battle=False), 1),)
        return super().spread(facts, harm)

    def after(self, facts: Facts, harm: Harm, *, in_battle: bool) -> Harm:
        """The wound's box, or the stun it marks."""
        assert isinstance(facts, Target)
        if not facts.rules.stun:
            return super().after(facts, harm, in_battle=in_battle)
        level = stun_level(harm.level)
        if facts.rules.stun_head_knockout and facts.location == HEAD and harm.level is not None:
            level = 3  # Fudge 4.62: a good blow to the head knocks out (in FTC a head blow always is one)
        stunned = replace(harm, kind="stun", crippled=False)
        if not level:
            return stunned
        _, result = facts.stuns.record(level)
        return replace(stunned, marked=MARKS[result], out=result == 3)


__all__ = [
    "BOXES",
    "FRESH",
    "KNOCKED_OUT",
    "PULL_LEVELS",
    "RESULTS",
    "STUN",
    "VERY_STUNNED",
    "PulledBlow",
    "StunOrRecord",
    "StunSheet",
    "hindered_rounds",
    "hindrance",
    "level_of",
    "result_of",
    "stun_level",
    "terms",
]
