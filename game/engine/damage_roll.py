"""The damage roll and its limits (*Fudge* 4.61), the roll on a graze (*Fudge* 4.56) and the situational roll
on a wound (*Fudge* 4.55): the rule options ``damage_roll``, ``damage_roll_wild``, ``graze_damage_roll`` and
``wound_situational_roll`` (docs/rulings.md "Damage roll", "Damage roll on a graze", "Situational roll on a
wound").

Three steps of the blow's way (``game.engine.blow``), each played in a battle and spread exactly for the odds:

* ``NumberRoll`` (S4): a roll added to the calculated damage — one Fudge die (``one_die``, the attacker's
  ``damage_die``), the parity of the opposed rolls (``even_roll``: an even winning roll is +1 offence, the
  target's even roll +1 defence; no dice of its own) or a 4dF situational roll (``situational``, the attacker's
  ``damage``) — with the text's three limits (``limited``) unless ``damage_roll_wild``;
* ``LevelRoll`` (S6): the same die or parity moving the wound level instead (``one_die_level``,
  ``even_roll_level``);
* ``WoundSituational`` (S6, after it): the target's 4dF situational roll on a wound, +3 one level worse, +4
  two (``worse``), and −3 / −4 one / two lighter (``both``).

A graze (relative degree +1) rolls only with ``graze_damage_roll``, and then moves at most one level from the
graze's own result (``graze_shift``). The roll is made once the blow has hit and its location is chosen (the
attacker aims on the numbers before the roll).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from game.engine.blow_base import BlowRules, Dice, Facts, Harm, Spread, Strike, read_level
from game.engine.blow_step import BlowStep
from game.engine.dice import FOUR_DF_COUNTS, ONE_DF_COUNTS
from game.engine.rule_options import LEVEL_DAMAGE_ROLLS, NUMERIC_DAMAGE_ROLLS
from game.engine.wounds import WoundLevel, WoundTrack, wound_for_damage

RULE = "Fudge 4.61"
GRAZE_RULE = "Fudge 4.56"
SITUATIONAL_RULE = "Fudge 4.55"

ONE_DIE = ("one_die", "one_die_level")
"""The variants that roll one Fudge die (the attacker's ``damage_die``)."""
PARITY = ("even_roll", "even_roll_level")
"""The variants that read the parity of the round's opposed rolls and roll nothing of their own."""
ATTACKER_4DF_RULES = (RULE, GRAZE_RULE, "Fudge 4.58")
"""The rules of the blow's steps whose four Fudge dice are the attacker's own roll (the damage roll on the number,
on a graze, through Scale): the after-battle report counts them in the attacker's side's luck."""


# ------------------------------------------------------------------------------------------ the numbers


def limited(calculated: int, roll: int, *, wild: bool) -> tuple[int, str]:
    """The final damage of a damage roll on the calculated damage (*Fudge* 4.61) and the limit that held it
    ("" when none did). With the limits (``wild`` False): a positive calculated damage counts the roll at most
    as much as itself (limit 1: "at most double") and ends at least at 1 (limit 2); a calculated damage of 0 or
    less is raised at most to 1 (limit 3). Wild: the roll is simply added. A final damage of 0 or less is no
    wound."""
    total = calculated + roll
    if wild:
        return total, ""
    if calculated > 0:
        if roll > calculated:
            return 2 * calculated, f"limited to {calculated:+d}"
        if total < 1:
            return 1, "at least 1 point"
        return total, ""
    if total > 1:
        return 1, "at most 1 point"
    return total, ""


def parity(strike: Strike) -> tuple[int, int]:
    """*Fudge* 4.61's even roll: (+1 to the offence factor if the attacker's winning roll is even, +1 to the
    defence factor if the target rolled a defence and its roll is even). A blow with no roll of its own (a
    stray) or a target that rolled none (an undodged shot, a second move) adds nothing for that side."""
    attack = int(strike.attacker_roll is not None and strike.attacker_roll % 2 == 0)
    defence = int(strike.target_roll is not None and strike.target_roll % 2 == 0)
    return attack, defence


def shift_level(level: WoundLevel | None, by: int, track: WoundTrack, *, keep_wound: bool) -> WoundLevel | None:
    """A wound moved ``by`` levels (*Fudge* 4.61's level variants, 4.55, 4.56): no wound stays no wound; never
    above the target's track's worst level; below a Scratch it is no wound, unless ``keep_wound`` (the limits,
    or a reduction that never goes below a Scratch), which keeps a Scratch."""
    if level is None or by == 0:
        return level
    moved = int(level) + by
    if moved < WoundLevel.SCRATCH:
        return WoundLevel.SCRATCH if keep_wound else None
    return WoundLevel(min(moved, max(track.levels)))


def _rank(level: WoundLevel | None) -> int:
    return 0 if level is None else int(level)


def graze_shift(strike: Strike, harm: Harm, final: int) -> WoundLevel | None:
    """*Fudge* 4.56 with a roll on the number: the graze's own result moves one level up if the rolled damage
    reads a worse wound on the target's track than the calculated damage, one down if it reads a lighter one
    (with the limits a wounding graze stays at least a Scratch), else it stays (docs/rulings.md "Damage roll on
    a graze")."""
    before = wound_for_damage(harm.number, strike.track)
    after = wound_for_damage(final, strike.track)
    wild = strike.rules.damage_roll_wild
    if _rank(after) > _rank(before):
        if harm.level is None:
            return WoundLevel.SCRATCH
        return shift_level(harm.level, 1, strike.track, keep_wound=True)
    if _rank(after) < _rank(before):
        return shift_level(harm.level, -1, strike.track, keep_wound=not wild)
    return harm.level


def level_of(strike: Strike, number: int) -> WoundLevel | None:
    """The wound a damage number reads for this blow (S5, ``blow_base.read_level``: the target's track, a
    graze capped)."""
    rules = strike.rules
    return read_level(number, strike.relative_degree, strike.track, rules.fudge_graze_table, strike.scale_difference)


def on_number(strike: Strike, harm: Harm, roll: int) -> tuple[Harm, str]:
    """A damage roll on the blow's number (S4): the harm after it and the limit that held it. A full hit reads
    its wound anew from the final number (FTC 7.3); a graze moves at most a level (``graze_shift``)."""
    final, limit = limited(harm.number, roll, wild=strike.rules.damage_roll_wild)
    if strike.graze:
        return replace(harm, number=final, level=graze_shift(strike, harm, final)), limit
    return replace(harm, number=final, level=level_of(strike, final)), limit


def rolls_on(strike: Strike) -> bool:
    """Whether *Fudge* 4.61's damage roll is made on this blow: a full hit always, a graze with
    ``graze_damage_roll`` only."""
    return not strike.graze or strike.rules.graze_damage_roll


def number_rolled(rules: BlowRules, strike: Strike) -> bool:
    """Whether a damage roll on the number (not the level) is made on this blow under these rules (the Scale
    roll of *Fudge* 4.58 is that roll when there is one)."""
    return rules.damage_roll in NUMERIC_DAMAGE_ROLLS and rolls_on(strike)


def _counts(counts: Mapping[int, int], fixed: int | None, ways: int) -> tuple[tuple[int, int], ...]:
    """A roll's totals with their ways; a roll the GM set by hand is its total, all the ways."""
    return tuple(counts.items()) if fixed is None else ((fixed, ways),)


def _roll_spread(strike: Strike, purpose: str) -> tuple[tuple[int, int], ...]:
    """The spread of the damage roll of ``purpose``: one Fudge die (3 ways) or four (81)."""
    if purpose == "damage_die":
        return _counts(ONE_DF_COUNTS, strike.set_total(purpose), 3)
    return _counts(FOUR_DF_COUNTS, strike.set_total(purpose), 81)


def _parity_text(strike: Strike) -> str:
    attack, defence = parity(strike)
    parts = []
    if attack:
        parts.append(f"+1 offence (winning roll {strike.attacker_roll:+d})")
    if defence:
        parts.append(f"+1 defence (defence roll {strike.target_roll:+d})")
    return "even roll: " + ", ".join(parts)


def _rolled(strike: Strike, purpose: str, dice: Dice) -> tuple[int, tuple[int, ...]]:
    faces = dice(purpose, strike.attacker)
    return sum(faces), faces


# ------------------------------------------------------------------------------------------ S4


@dataclass(frozen=True)
class NumberRoll:
    """S4, *Fudge* 4.61: a damage roll added to the calculated damage (``one_die``, ``even_roll``,
    ``situational``), held by the three limits unless wild; on a graze only with ``graze_damage_roll``, and then
    one level at most (*Fudge* 4.56)."""

    label: str = "S4"

    def on(self, rules: BlowRules) -> bool:
        """When ``damage_roll`` is on the number."""
        return rules.damage_roll in NUMERIC_DAMAGE_ROLLS

    def ways(self, facts: Facts) -> int:
        """3 for one die, 81 for the situational roll, 1 for the parity (the round's rolls are counted already)."""
        return {"one_die": 3, "situational": 81}.get(facts.rules.damage_roll, 1)

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The roll made (a graze without ``graze_damage_roll`` rolls none) and its line in the blow's log."""
        assert isinstance(facts, Strike)
        if not rolls_on(facts):
            return harm, ()
        variant = facts.rules.damage_roll
        faces: tuple[int, ...] = ()
        if variant == "even_roll":
            attack, defence = parity(facts)
            if not (attack or defence):
                return harm, ()
            roll, what = attack - defence, _parity_text(facts)
        else:
            roll, faces = _rolled(facts, "damage_die" if variant == "one_die" else "damage", dice)
            what = "damage die" if variant == "one_die" else "damage roll"
        after, limit = on_number(facts, harm, roll)
        return after, (_line(facts, what, limit, faces, harm, after),)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each roll (or the parity) with its ways, the limits applied."""
        assert isinstance(facts, Strike)
        ways = self.ways(facts)
        if not rolls_on(facts):
            return ((harm, ways),)
        variant = facts.rules.damage_roll
        if variant == "even_roll":
            attack, defence = parity(facts)
            rolls: tuple[tuple[int, int], ...] = ((attack - defence, 1),)
        else:
            rolls = _roll_spread(facts, "damage_die" if variant == "one_die" else "damage")
        return merge((on_number(facts, harm, r)[0], w) for r, w in rolls)


def _line(strike: Strike, what: str, limit: str, faces: tuple[int, ...], before: Harm, after: Harm) -> BlowStep:
    if strike.graze:
        what = f"{what} on a graze" + (f", {limit}" if limit else "")
        return BlowStep(
            GRAZE_RULE,
            what,
            faces,
            f"{before.number} ({_level_text(before.level)})",
            f"{after.number} ({_level_text(after.level)})",
        )
    return BlowStep(RULE, what + (f", {limit}" if limit else ""), faces, str(before.number), str(after.number))


def _level_text(level: WoundLevel | None) -> str:
    return "no wound" if level is None else str(level)


def merge(pairs: Iterable[tuple[Harm, int]]) -> Spread:
    """Harms with their ways, equal harms added together (a step's ``spread``)."""
    out: dict[Harm, int] = {}
    for harm, ways in pairs:
        out[harm] = out.get(harm, 0) + ways
    return tuple(out.items())


# ------------------------------------------------------------------------------------------ S6


@dataclass(frozen=True)
class LevelRoll:
    """S6, *Fudge* 4.61 "more broadly, to the actual wound level": one Fudge die (``one_die_level``) or the
    parity of the opposed rolls (``even_roll_level``) moves the wound one level; a blow that does no wound rolls
    nothing; with the limits a wound stays at least a Scratch. A graze only with ``graze_damage_roll``."""

    label: str = "S6"

    def on(self, rules: BlowRules) -> bool:
        """When ``damage_roll`` is on the level."""
        return rules.damage_roll in LEVEL_DAMAGE_ROLLS

    def ways(self, facts: Facts) -> int:
        """3 for one die, 1 for the parity."""
        return 3 if facts.rules.damage_roll == "one_die_level" else 1

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The die rolled (or the parity read) on a wound, and its line."""
        assert isinstance(facts, Strike)
        if harm.level is None or not rolls_on(facts):
            return harm, ()
        faces: tuple[int, ...] = ()
        if facts.rules.damage_roll == "one_die_level":
            roll, faces = _rolled(facts, "damage_die", dice)
            what = "damage die on the wound"
        else:
            attack, defence = parity(facts)
            if not (attack or defence):
                return harm, ()
            roll, what = attack - defence, _parity_text(facts) + ", on the wound"
        after = self._moved(facts, harm, roll)
        rule = GRAZE_RULE if facts.graze else RULE
        what += " of a graze" if facts.graze else ""
        return after, (BlowStep(rule, what, faces, _level_text(harm.level), _level_text(after.level)),)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each die (or the parity) with its ways."""
        assert isinstance(facts, Strike)
        ways = self.ways(facts)
        if harm.level is None or not rolls_on(facts):
            return ((harm, ways),)
        if facts.rules.damage_roll == "one_die_level":
            rolls = _roll_spread(facts, "damage_die")
        else:
            attack, defence = parity(facts)
            rolls = ((attack - defence, 1),)
        return merge((self._moved(facts, harm, r), w) for r, w in rolls)

    @staticmethod
    def _moved(strike: Strike, harm: Harm, roll: int) -> Harm:
        keep = not strike.rules.damage_roll_wild
        return replace(harm, level=shift_level(harm.level, roll, strike.track, keep_wound=keep))


def situational_shift(roll: int, variant: str) -> int:
    """*Fudge* 4.55's situational roll on a wound: +3 one level worse, +4 two; under ``both`` also −3 one level
    lighter, −4 two; any other roll no change."""
    if roll >= 3:
        return roll - 2
    if variant == "both" and roll <= -3:
        return roll + 2
    return 0


@dataclass(frozen=True)
class WoundSituational:
    """S6, *Fudge* 4.55: the target's situational roll on each wound (``wound_situational``): +3 one level
    worse, +4 two (never past the track's worst); under ``both`` −3 / −4 one / two lighter (never below a
    Scratch). A blow that does no wound rolls nothing."""

    label: str = "S6"

    def on(self, rules: BlowRules) -> bool:
        """When ``wound_situational_roll`` is on."""
        return rules.wound_situational_roll != "off"

    def ways(self, facts: Facts) -> int:
        """A 4dF roll: 81."""
        return 81

    def play(self, facts: Facts, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
        """The roll made on a wound, and its line (also when it changes nothing: the dice are in the log)."""
        assert isinstance(facts, Strike)
        if harm.level is None:
            return harm, ()
        faces = dice("wound_situational", facts.target)
        after = self._moved(facts, harm, sum(faces))
        line = BlowStep(SITUATIONAL_RULE, "situational roll on the wound", faces, str(harm.level), str(after.level))
        return after, (line,)

    def spread(self, facts: Facts, harm: Harm) -> Spread:
        """Each 4dF total (or the GM's) with its ways."""
        assert isinstance(facts, Strike)
        if harm.level is None:
            return ((harm, 81),)
        rolls = _counts(FOUR_DF_COUNTS, facts.set_total("wound_situational"), 81)
        return merge((self._moved(facts, harm, r), w) for r, w in rolls)

    @staticmethod
    def _moved(strike: Strike, harm: Harm, roll: int) -> Harm:
        by = situational_shift(roll, strike.rules.wound_situational_roll)
        return replace(harm, level=shift_level(harm.level, by, strike.track, keep_wound=True))


__all__ = [
    "ATTACKER_4DF_RULES",
    "ONE_DIE",
    "PARITY",
    "LevelRoll",
    "NumberRoll",
    "WoundSituational",
    "graze_shift",
    "level_of",
    "limited",
    "merge",
    "number_rolled",
    "on_number",
    "parity",
    "rolls_on",
    "shift_level",
    "situational_shift",
]
