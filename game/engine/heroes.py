"""PC death (*Fudge* 4.64; docs/rulings.md "PC death and Fudge Points"): S11 and S12 of the blow's way.

"PC death should come from self-sacrifice or stupidity, not a bad roll." *Fudge* 4.64 gives three methods, for
heroes only (a player character or a major NPC, ``rule_options.HEROES``; never an NPC pawn), each a switch:

1. ``pc_death_max_three_levels``: the box a blow marks is at most three levels above the hero's worst wound
   before the blow (unwounded counts 0): unwounded at most Very Hurt, Scratched at most Incapacitated, Hurt at
   most Near Death, Very Hurt no limit;
2. ``pc_death_near_death_if_incapacitated``: a blow marks Near Death (or goes beyond the track) only if the hero
   began the round Incapacitated or worse; otherwise at most Incapacitated.

   Both are one cap on the box (S11, ``CappedRecord``): the wound is first lowered to the cap; if recording it
   still marks a box above the cap (every box up to it full) or beyond the track, it is not recorded (the
   excess lost). The GM's own edits are never capped (4.51's "automatic death" takes precedence).
3. ``pc_death_fudge_point``: a hero may spend a Fudge Point to make a **deadly** wound (one marking Near Death or
   going beyond the track) merely serious: it is recorded as Incapacitated, or not at all when the
   Incapacitated box is full (S12, ``FudgePoint``). Each hero has a pool (the roster's ``fudge_points``, else
   the option ``fudge_points_default``) and a standing order: "always" spends at once, "never" does not, "ask"
   leaves the deadly mark and asks the hero's player after the blows (``game.engine.battle.heroes``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.engine.blow_base import BlowRules, Defender, Dice, Facts, Harm, Record, Spread, Target
from game.engine.blow_step import BlowStep
from game.engine.rule_options import HEROES, RuleOptions
from game.engine.wounds import WoundLevel, Wounds

RULE = "Fudge 4.64"
NOT_RECORDED = "not recorded"
"""The box of a wound the sheet does not keep (``events.Wounded.box``; *Fudge* 4.64's excess lost)."""
FUDGE_ORDERS: tuple[str, ...] = ("always", "ask", "never")
"""A hero's standing order for spending a Fudge Point on a deadly wound, the default first."""
ORDER_HELP = {
    "always": "spend a Fudge Point on a deadly wound at once",
    "ask": "ask before spending a Fudge Point on a deadly wound",
    "never": "never spend a Fudge Point",
}
"""Each standing order in a few words (the sheet's tooltip, the log)."""


def starting_points(given: int | None, role: str, options: RuleOptions) -> int:
    """A figure's Fudge Points as the battle begins (docs/rosters.md "Fudge Points"): what its roster entry gives,
    else, for a hero under ``pc_death_fudge_point``, the option ``fudge_points_default``, else none."""
    if given is not None:
        return given
    return options.fudge_points_default if options.pc_death_fudge_point and role in HEROES else 0


def caps_heroes(rules: BlowRules) -> bool:
    """Whether method 1 or 2 caps a hero's box."""
    return rules.pc_death_max_three_levels or rules.pc_death_near_death_if_incapacitated


def cap(target: Target) -> tuple[WoundLevel | None, str]:
    """The most a blow may mark on this target's sheet under methods 1 and 2 (None: no cap) and the method
    that sets it, in the log's words."""
    rules, defender = target.rules, target.defender
    if not defender.hero:
        return None, ""
    most: WoundLevel | None = None
    why = ""
    if rules.pc_death_max_three_levels:
        worst = target.sheet.worst
        limit = (0 if worst is None else int(worst)) + 3
        if limit < WoundLevel.NEAR_DEATH + 1:
            most, why = WoundLevel(limit), "at most three levels"
    inc = WoundLevel.INCAPACITATED
    began_incapacitated = defender.round_start is not None and defender.round_start >= inc
    if rules.pc_death_near_death_if_incapacitated and not began_incapacitated and (most is None or most > inc):
        most, why = inc, "Near Death only from Incapacitated"
    return most, why


def deadly(before: Wounds, after: Wounds, box: WoundLevel | None) -> bool:
    """*Fudge* 4.64: a wound that marks Near Death or goes beyond the track."""
    return box is not None and (box >= WoundLevel.NEAR_DEATH or len(after.beyond) > len(before.beyond))


def bought_down(before: Wounds) -> tuple[Wounds, WoundLevel | None]:
    """A deadly wound made merely serious by a Fudge Point (method 3): recorded as Incapacitated on the sheet as
    it was before it, or not at all (``None``) when the Incapacitated box is full or the track has none."""
    after, box = before.record(WoundLevel.INCAPACITATED)
    if box != WoundLevel.INCAPACITATED or deadly(before, after, box):
        return before, None
    return after, box


def can_spend(target: Target) -> bool:
    """Whether the hero has a point and an order that may spend it."""
    return can_spend_points(target.defender)


def can_spend_points(defender: Defender) -> bool:
    """Whether a hero has a Fudge Point and an order that may spend it (the odds count "ask" as spending)."""
    return defender.hero and defender.fudge_points > 0 and defender.fudge_order != "never"


def assumptions(name: str, rules: BlowRules, defender: Defender) -> tuple[str, ...]:
    """What the odds preview assumes of a hero target under these options, in words (docs/rulings.md "PC death
    and Fudge Points"): the caps read this blow alone on the sheet as it is; a deadly wound bought down when the
    hero may spend a point; an Incapacitated target kept up by a Superb Will (*Fudge* 4.51)."""
    out: list[str] = []
    if defender.hero and caps_heroes(rules):
        out.append(f"Counts only this blow on {name}'s sheet as it is now (Fudge 4.64).")
    if rules.pc_death_fudge_point and can_spend_points(defender):
        asked = " (if asked)" if defender.fudge_order == "ask" else ""
        out.append(f"{name} would spend a Fudge Point{asked} on a deadly wound (Fudge 4.64).")
    if rules.willpower_vs_wounds == "incapacitated" and not defender.mook:
        out.append(f"Incapacitated {name} fights on with a Superb Will (Fudge 4.51): counted.")
    return tuple(out)


class CappedRecord(Record):
    """S11, *Fudge* 4.57 and 4.64: the box a wound marks (``Record``), capped for a hero under methods 1 and 2
    (module doc); the same box as FTC's for everyone else, and for all with both methods off."""

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The box, and the cap's line in the wound's log when it bit."""
        return self._capped(facts, harm, in_battle=True)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """The capped box for the odds."""
        return ((self._capped(facts, harm, in_battle=False)[0], 1),)

    def _capped(self, facts: Facts, harm: Harm, *, in_battle: bool) -> tuple[Harm, tuple[BlowStep, ...]]:
        assert isinstance(facts, Target)
        most, why = cap(facts) if caps_heroes(facts.rules) else (None, "")
        if most is None or harm.level is None:
            return self.after(facts, harm, in_battle=in_battle), ()
        lines: tuple[BlowStep, ...] = ()
        level = harm.level
        if level > most:
            lines = (BlowStep(RULE, why, (), str(level), str(most)),)
            level = most
        sheet, box = facts.sheet.record(level)
        if box > most or len(sheet.beyond) > len(facts.sheet.beyond):
            lines += (BlowStep(RULE, "excess lost", (), str(box), NOT_RECORDED),)
            kept = facts.sheet
            lost = replace(harm, marked=None, out=not kept.can_act)
            return (replace(lost, sheet=kept, recorded=None) if in_battle else lost), lines
        marked = replace(harm, marked=box, out=not sheet.can_act)
        return (replace(marked, sheet=sheet, recorded=level) if in_battle else marked), lines


@dataclass(frozen=True)
class FudgePoint:
    """S12, *Fudge* 4.64's third method: a hero's deadly wound bought down with a Fudge Point (module doc). In a
    battle: "always" spends at once (``Harm.fudge`` "spent"), "ask" leaves the deadly mark for the question
    (``Harm.fudge`` "ask"). The odds count the point as spent whenever the hero has one and may spend it (the
    preview names that assumption)."""

    label: str = "S12"

    def on(self, rules: BlowRules) -> bool:
        """Under ``pc_death_fudge_point``."""
        return rules.pc_death_fudge_point

    def ways(self, facts: Facts) -> int:
        """No roll."""
        return 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The spend (or the question) on a deadly wound."""
        assert isinstance(facts, Target)
        if harm.sheet is None or not can_spend(facts) or not deadly(facts.sheet, harm.sheet, harm.marked):
            return harm, ()
        if facts.defender.fudge_order == "ask":
            return replace(harm, fudge="ask"), ()
        sheet, box = bought_down(facts.sheet)
        after = str(box) if box is not None else NOT_RECORDED
        line = BlowStep(RULE, "a Fudge Point spent", (), str(harm.marked), after)
        return replace(harm, marked=box, sheet=sheet, out=not sheet.can_act, fudge="spent", recorded=box), (line,)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """A deadly box shows as bought down when the hero would spend a point."""
        assert isinstance(facts, Target)
        if not can_spend(facts) or harm.marked is None or not _deadly_box(facts.sheet, harm.marked):
            return ((harm, 1),)
        sheet, box = bought_down(facts.sheet)
        return ((replace(harm, marked=box, out=not sheet.can_act, fudge="spent"), 1),)


def _deadly_box(before: Wounds, box: WoundLevel) -> bool:
    """For the odds, which keep no sheet: a box of Near Death, or the track's top when every box is full already
    from the wound's level up (it went beyond)."""
    top = before.track.steps[-1].level
    return box >= WoundLevel.NEAR_DEATH or (box == top and before.open_boxes(top) == 0)


__all__ = [
    "FUDGE_ORDERS",
    "NOT_RECORDED",
    "ORDER_HELP",
    "RULE",
    "CappedRecord",
    "FudgePoint",
    "assumptions",
    "bought_down",
    "can_spend",
    "can_spend_points",
    "cap",
    "caps_heroes",
    "deadly",
    "starting_points",
]
