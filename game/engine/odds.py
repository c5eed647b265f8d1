"""Exact odds of attacks, escapes and exchanges (FTC 5.3, 6.3–6.6, 7; the UI's preview and the AI).

Every figure in a contest rolls 4dF once (FTC 6.3). The odds are computed exactly: internally as whole
numbers of ways out of 81ⁿ (n rolls), converted to ``fractions.Fraction`` at the end, and cached by
arguments so the preview can be recomputed on every mouse move. Every input is a *modified* level
(trait + modifiers) before the dice; the caller applies modifiers with ``game.engine.combat``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

from game.engine.blow import (
    FTC,
    NOBODY,
    BlowRules,
    Defender,
    Harm,
    Strike,
    Target,
    attacker_on,
    attacker_spread,
    attacker_ways,
    defender_outcomes,
    defender_ways,
    forget_spreads,
    read_level,
    rolls_seen,
    where_it_falls,
)
from game.engine.blow_base import Kept
from game.engine.combat import CombatError, Stance, hit_locations, miss_thresholds
from game.engine.damage import HEAD, LOCATIONS, TORSO
from game.engine.damage_capacity import defender_reads_number
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.npc_rolls import Dist, RollKind, joint, ways_below
from game.engine.stun_sheet import FRESH, StunSheet, result_of
from game.engine.wounds import DEFAULT_TRACK, WoundLevel, Wounds, WoundTrack

_ROLLS: tuple[tuple[int, int], ...] = tuple(FOUR_DF_COUNTS.items())
"""(sum, ways out of 81) for each 4dF total."""

_WAYS = 81
_NO_DIFFICULTY = -(10**6)  # an opposed action with no absolute difficulty (FTC 5.3 escapes)


def _ways_below(k: int) -> int:
    """Ways out of 81 that a 4dF total is strictly below ``k``."""
    if k <= -4:
        return 0
    if k > 4:
        return _WAYS
    return _BELOW[k + 4]


_BELOW: tuple[int, ...] = tuple(sum(w for t, w in _ROLLS if t < k) for k in range(-4, 5))


def _ways_all_beaten(result: int, defences: tuple[int, ...]) -> int:
    """Ways out of 81^len(defences) that ``result`` beats every defence level + its own roll."""
    ways = 1
    for d in defences:
        ways *= _ways_below(result - d)
        if not ways:
            break
    return ways


# ---------------------------------------------------------------------------------------------------
# Hits and escapes
# ---------------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _hit_ways(offence: int, defences: tuple[int, ...], difficulty: int) -> int:
    ways = 0
    for roll, w in _ROLLS:
        result = offence + roll
        if result >= difficulty:
            ways += w * _ways_all_beaten(result, defences)
    return ways


SetRolls = Sequence[int | None]
"""The 4dF totals the GM set by hand for a contest's rolls, in the order of its levels (the acting figure's
first, then each opponent's); None (or a missing entry) for a roll still to be made."""


def _set_ways(offence: int, defences: tuple[int, ...], difficulty: int, set_rolls: SetRolls) -> Fraction:
    """``_hit_ways`` with some rolls the GM set by hand: such a roll is its total, all 81 ways."""
    fixed = [*set_rolls, *([None] * (1 + len(defences) - len(set_rolls)))]
    ways = 0
    for roll, w in _rolls(fixed[0]):
        result = offence + roll
        if result < difficulty:
            continue
        for d, mine in zip(defences, fixed[1:], strict=False):
            w *= _ways_below(result - d) if mine is None else (_WAYS if d + mine < result else 0)
            if not w:
                break
        ways += w
    return Fraction(ways, _WAYS ** (len(defences) + 1))


def hit_probability(
    offence: int,
    defences: Sequence[int],
    difficulty: int,
    *,
    set_rolls: SetRolls = (),
    rolls: Sequence[RollKind] = (),
) -> Fraction:
    """The exact chance that an attack hits (FTC 6.1, 6.4, 6.4.1; docs/rulings.md "A hit").

    ``offence`` and each of ``defences`` are modified levels before the dice; the attacker and every
    defender roll 4dF once each. A hit beats every defence result (the target's and those of everyone
    else attacking the attacker in melee) and reaches ``difficulty``. No defences: an unopposed shot,
    P(4dF >= difficulty - offence). ``set_rolls``: rolls the GM set by hand (``SetRolls``). ``rolls``: how
    each roll is made (the attacker's first) under the rule option ``npc_rolls`` (*Fudge* 4.33, 4.34;
    ``npc_rolls.RollKind``, a set roll its ``fixed``), instead of ``set_rolls``.
    """
    key = tuple(defences)
    if rolls:
        return _kind_ways(offence, key, difficulty, tuple(rolls))
    if any(r is not None for r in set_rolls):
        return _set_ways(offence, key, difficulty, set_rolls)
    return Fraction(_hit_ways(offence, key, difficulty), _WAYS ** (len(key) + 1))


@lru_cache(maxsize=4096)
def _kind_ways(offence: int, defences: tuple[int, ...], difficulty: int, rolls: tuple[RollKind, ...]) -> Fraction:
    """``hit_probability`` with each roll made as ``rolls`` says (*Fudge* 4.33, 4.34)."""
    ways = shared = 0
    inner = 1
    for dists, wg in joint(rolls):
        shared += wg
        inner = 1
        for dist in dists:
            inner *= sum(w for _, w in dist)
        for x, wx in dists[0]:
            result = offence + x
            if result < difficulty:
                continue
            w = wg * wx
            for d, dist in zip(defences, dists[1:], strict=True):
                w *= _below(dist, result - d)
                if not w:
                    break
            ways += w
    return Fraction(ways, inner * shared)


def escape_probability(mover: int, stoppers: Sequence[int], *, set_rolls: SetRolls = ()) -> Fraction:
    """The chance a figure escapes a zone of control (FTC 5.3): the mover's modified Agility + his roll
    must beat every stopper's modified combat skill + that stopper's roll; a tie stops him.

    The modifiers (mover -1 per stopper beyond the first, stopper -1 per other engaged enemy) are the
    caller's. With no stoppers the mover is free. ``set_rolls``: rolls the GM set by hand, the mover's
    first (``SetRolls``).
    """
    key = tuple(stoppers)
    if not key:
        return Fraction(1)
    if any(r is not None for r in set_rolls):
        return _set_ways(mover, key, _NO_DIFFICULTY, set_rolls)
    return Fraction(_hit_ways(mover, key, _NO_DIFFICULTY), _WAYS ** (len(key) + 1))


@lru_cache(maxsize=1024)
def _exchange_ways(
    a_offence: int, a_defence: int, b_offence: int, b_defence: int, difficulty_a: int, difficulty_b: int
) -> tuple[int, int, int, int]:
    both = only_a = only_b = neither = 0
    for x, wx in _ROLLS:
        for y, wy in _ROLLS:
            a_hits = a_offence + x > b_defence + y and a_offence + x >= difficulty_a
            b_hits = b_offence + y > a_defence + x and b_offence + y >= difficulty_b
            w = wx * wy
            if a_hits and b_hits:
                both += w
            elif a_hits:
                only_a += w
            elif b_hits:
                only_b += w
            else:
                neither += w
    return both, only_a, only_b, neither


def exchange_distribution(
    a_offence: int, a_defence: int, b_offence: int, b_defence: int, difficulty_a: int, difficulty_b: int
) -> Mapping[tuple[bool, bool], Fraction]:
    """Two figures attacking each other, one roll each for offence and defence (FTC 6.3, 6.4; *Fudge* 4.32).

    Keys are (A hits B, B hits A): both, only A, only B, neither; the four chances sum to 1. A's offence
    meets B's defence made with B's same roll, and the other way round, so the two hits are correlated.
    """
    both, only_a, only_b, neither = _exchange_ways(
        a_offence, a_defence, b_offence, b_defence, difficulty_a, difficulty_b
    )
    den = _WAYS * _WAYS
    return MappingProxyType(
        {
            (True, True): Fraction(both, den),
            (True, False): Fraction(only_a, den),
            (False, True): Fraction(only_b, den),
            (False, False): Fraction(neither, den),
        }
    )


# ---------------------------------------------------------------------------------------------------
# The outcome of one attack: hit, location, wound
# ---------------------------------------------------------------------------------------------------

MISS_LOCATION = "none"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One outcome of an attack (FTC 6.4, 6.6, 7.3): whether it hit, the wound it dealt (None = none) after the
    defender's roll and the limb rule, where it fell ("torso", "head", "arm", "leg", "hand", "foot";
    ``MISS_LOCATION`` for a miss) and whether it crippled the limb it fell on (FTC 6.6); its ``kind`` ("wound",
    or "stun" for a stunning blow, *Fudge* 4.62), the box it would ``marked`` on the target's sheet as it is
    (*Fudge* 4.57's roll-up included; ``game.engine.blow`` S11) and whether it takes the target ``out`` of the
    fight (FTC 6.4: marked Incapacitated or worse)."""

    hit: bool
    level: WoundLevel | None
    location: str
    crippled: bool = False
    kind: str = "wound"
    marked: WoundLevel | None = None
    out: bool = False

    def __str__(self) -> str:
        if not self.hit:
            return "miss"
        if self.kind == "stun":  # Fudge 4.62: the stun the wound makes (marked as a level, stun_sheet.MARKS)
            return f"{self.location}: {self.level} → {result_of(self.marked) or 'no effect'}"
        text = f"{self.location}: {self.level if self.level is not None else 'no wound'}"
        if self.marked is not None and self.marked != self.level:
            text += f" (marks {self.marked})"
        return text + (", crippled" if self.crippled else "") + (", out" if self.out else "")


MISS = Outcome(False, None, MISS_LOCATION)

Aim = Literal["best", "torso", "head", "arm", "leg", "hand", "foot"]
AIMS: tuple[str, ...] = ("best", *LOCATIONS)
"""What an attacker may aim at (FTC 6.6): "best" (the worst wound for the target) or a location."""


def _rank(level: WoundLevel | None) -> int:
    return 0 if level is None else int(level)


_wound = read_level
"""S5, the wound a damage number reads (``blow.read_level``, cached)."""


def _rolls(fixed: int | None) -> tuple[tuple[int, int], ...]:
    """The 4dF totals with their ways out of 81; a roll the GM set by hand is its total, all 81 ways."""
    return _ROLLS if fixed is None else ((fixed, _WAYS),)


def _sort_key(outcome: Outcome) -> tuple[int, int, int, str, str, int, int]:
    return (
        int(outcome.hit),
        _rank(outcome.level),
        int(outcome.crippled),
        outcome.location,
        outcome.kind,
        _rank(outcome.marked),
        int(outcome.out),
    )


def _dists(
    rolls: tuple[RollKind, ...],
    set_rolls: tuple[int | None, int | None, int | None],
    has_defence: bool,
    others: int,
) -> tuple[tuple[tuple[Dist, ...], int], ...]:
    """The combat rolls of an attack spread jointly: the attacker's, the target's (when it rolls a defence), the
    other defenders'; as FTC 6.3 makes them (each his own 4dF, a roll the GM set its total) or as ``rolls``
    says (*Fudge* 4.33, 4.34: ``npc_rolls.RollKind`` per participant, pawns of a side sharing one roll)."""
    if not rolls:
        attack_roll, defence_roll, _ = set_rolls
        dists = (_rolls(attack_roll), *((_rolls(defence_roll),) if has_defence else ()), *((_ROLLS,) * others))
        return ((dists, 1),)
    kinds = rolls if has_defence else (rolls[0], *rolls[2:])
    return joint(kinds)


def _below(dist: Dist, k: int) -> int:
    """Ways of a roll of ``dist`` strictly below ``k`` (the 4dF table for FTC's own roll)."""
    return _ways_below(k) if dist is _ROLLS else ways_below(dist, k)


@lru_cache(maxsize=2048)
def _outcome_ways(
    offence: int,
    target_defence: int | None,
    other_defences: tuple[int, ...],
    difficulty: int,
    damage_base: int,
    damage_base_head: int | None,
    track: WoundTrack,
    fudge_graze_table: bool,
    aim: Aim,
    health: int | None,
    scale_difference: int = 0,
    other_locations: tuple[tuple[str, int], ...] = (),
    set_rolls: tuple[int | None, int | None, int | None] = (None, None, None),
    rules: BlowRules = FTC,
    sheet: Wounds | None = None,
    option_rolls: tuple[tuple[str, int], ...] = (),
    defender: Defender = NOBODY,
    rolls: tuple[RollKind, ...] = (),
    stuns: StunSheet = FRESH,
) -> Mapping[Outcome, Fraction]:
    health_roll = set_rolls[2]
    has_defence = target_defence is not None
    graze_table = fudge_graze_table or rules.fudge_graze_table
    bases = {TORSO: damage_base, **({HEAD: damage_base_head} if damage_base_head is not None else {})}
    bases.update(other_locations)
    # the blow's way, S4-S7 (game.engine.blow): off under FTC as written, when the outcome is the level read
    attacker = attacker_on(rules)
    a_ways = _attacker_ways(rules, track) if attacker else 1
    # a defender-side step that moves the damage number (Fudge 4.52's point step) reads each blow's number and
    # relative degree: they are kept apart then (else every blow of a level is one)
    numbered = defender_reads_number(rules)
    missed = 0  # the ways of a miss
    # each blow the rest of the way can tell apart (``_blow_outcomes``'s ``blow``), with its ways
    blows: dict[_Blow, int] = {}
    inner = 1  # the ways of the rolls of one value of the shared rolls (the same for every value)
    spread = _dists(rolls, set_rolls, has_defence, len(other_defences))
    # where each hit falls and what it reads, by its result and the target's defence result (S2, S5)
    placed = _PLACED.kept((rules, aim, tuple(bases.items()), track, graze_table, scale_difference, difficulty))
    shared = sum(wg for _, wg in spread)  # the ways of the shared rolls (Fudge 4.34)
    for dists, wg in spread:
        a_dist, o_dists = dists[0], dists[1 + has_defence :]
        # an undodged shot has no defence roll: one "roll" of weight 1 stands for it
        target_rolls: tuple[tuple[int | None, int | None, int], ...] = (
            tuple((target_defence + y, y, w) for y, w in dists[1]) if target_defence is not None else ((None, None, 1),)
        )
        t_total = sum(w for _, _, w in target_rolls)
        others_total = 1
        for dist in o_dists:
            others_total *= sum(w for _, w in dist)
        inner = sum(w for _, w in a_dist) * t_total * others_total
        for x, wx in a_dist:
            result = offence + x
            if result < difficulty:
                missed += wg * wx * others_total * t_total
                continue
            others_beaten = 1
            for d, dist in zip(other_defences, o_dists, strict=True):
                others_beaten *= _below(dist, result - d)
                if not others_beaten:
                    break
            for defence, y, wy in target_rolls:
                w = wg * wx * wy
                if defence is not None and result <= defence:
                    missed += w * others_total
                    continue
                if others_beaten != others_total:
                    missed += w * (others_total - others_beaten)
                if not others_beaten:
                    continue
                rd = result - (difficulty if defence is None else max(defence, difficulty))
                spot = placed.get((result, defence))
                if spot is None:
                    spot = placed[(result, defence)] = _place(
                        rules, aim, bases, track, graze_table, scale_difference, result, defence, rd
                    )
                location, number, level = spot
                # a limb keeps its uncapped wound here: the defender's side below caps it (S9, S10)
                blow: _Blow
                if attacker:  # the attacker's side is spread once per blow it can tell apart (its rolls seen)
                    blow = (location, number, rd, None, *rolls_seen(rules, x, y))
                elif numbered:
                    blow = (location, number, rd, level, None, None)
                else:  # every blow of a level at a location is one
                    blow = (location, 0, 0, level, None, None)
                blows[blow] = blows.get(blow, 0) + w * others_beaten
    # the attacker's side S4-S7 and the defender's side S8-S13 (FTC 7.4's Health roll, the limb rule of FTC
    # 6.6, the box marked), per blow, kept across calls by everything they read (``_blow_outcomes``)
    fresh = sheet if sheet is not None else _unhurt(track)
    fixed = (*(() if health_roll is None else (("health", health_roll),)), *option_rolls)
    d_ways = _defender_ways(rules, fresh, health, defender)
    side = (rules, track, scale_difference, graze_table, option_rolls, numbered, attacker, fresh, health, fixed)
    outcomes = _SIDES.kept((*side, defender, stuns))
    after: dict[_OutcomeKey, int] = {}
    for blow, w in blows.items():
        done = outcomes.get(blow)
        if done is None:
            done = outcomes[blow] = _blow_outcomes(side, defender, stuns, blow)
        for key, wd in done:
            after[key] = after.get(key, 0) + w * wd
    denominator = inner * shared * a_ways * d_ways
    made = [(Outcome(True, *key), w) for key, w in after.items() if w]
    if missed:
        made.append((MISS, missed * a_ways * d_ways))
    made.sort(key=lambda item: _sort_key(item[0]))
    return MappingProxyType({outcome: Fraction(w, denominator) for outcome, w in made})


_OutcomeKey = tuple[WoundLevel | None, str, bool, str, WoundLevel | None, bool]
"""An ``Outcome`` that hit, as the tuple of its fields after ``hit`` (made into one once per outcome)."""

_Side = tuple[
    BlowRules,
    WoundTrack,
    int,
    bool,
    tuple[tuple[str, int], ...],
    bool,
    bool,
    Wounds,
    int | None,
    tuple[tuple[str, int], ...],
]
"""The facts of a call the rest of a blow's way reads (``_blow_outcomes``), the defender and its stuns apart."""
_Blow = tuple[str, int, int, WoundLevel | None, int | None, int | None]
"""A hitting blow as the rest of its way tells it apart (``_blow_outcomes``)."""
_Done = tuple[tuple[_OutcomeKey, int], ...]

_SIDES: Kept[_Blow, _Done] = Kept(256, 4096)
"""``_blow_outcomes`` kept per call-wide facts (every input of it but the blow), then per blow."""
_PLACED: Kept[tuple[int, int | None], tuple[str, int, WoundLevel | None]] = Kept(256, 1024)
"""``_place`` kept per call-wide facts, then per (result, defence result)."""


def _place(
    rules: BlowRules,
    aim: Aim,
    bases: Mapping[str, int],
    track: WoundTrack,
    graze_table: bool,
    scale_difference: int,
    result: int,
    defence: int | None,
    rd: int,
) -> tuple[str, int, WoundLevel | None]:
    """Where a hit of ``result`` against ``defence`` (None: no defence roll) with relative degree ``rd`` falls
    (S2, FTC 6.6: ``where_it_falls`` on the wound each location reads), its damage number there (FTC 7) and
    the wound it reads (S5, FTC 7.3)."""
    degree = rd * track.degree_multiplier  # Fudge 4.55: a track made for a doubled relative degree
    levels = {where: _wound(degree + base, rd, track, graze_table, scale_difference) for where, base in bases.items()}
    location = where_it_falls(rules, aim, hit_locations(result, defence), levels, bases, rd)
    return location, degree + bases[location], levels[location]


def clear_caches() -> None:
    """Forget every answer the odds keep, the blows' spreads too (for tests that change the blow's way)."""
    _outcome_ways.cache_clear()
    _attacker_ways.cache_clear()
    _attacker_levels.cache_clear()
    _defender_ways.cache_clear()
    _SIDES.clear()
    _PLACED.clear()
    forget_spreads()


def _blow_outcomes(side: _Side, defender: Defender, stuns: StunSheet, blow: _Blow) -> _Done:
    """The rest of one hitting blow's way (``game.engine.blow``, S4-S13): the outcomes it ends in, each with its
    ways out of the attacker's side's ways times the defender's side's. ``blow`` is (location, damage number,
    relative degree, level, x, y): with the attacker's side on, x and y are the rolls it reads (``rolls_seen``)
    and the level is left to its steps; else the level read (S5), the number and relative degree 0 unless the
    defender's side reads them (``numbered``: *Fudge* 4.52's point step)."""
    rules, track, scale_difference, graze_table, option_rolls, numbered, attacker, fresh, health, fixed = side
    location, number, rd, level, x_seen, y_seen = blow
    harms: tuple[tuple[tuple[WoundLevel | None, str, int], int], ...]
    if attacker:
        seen = (rules, track, scale_difference, graze_table, option_rolls, numbered)
        harms = _attacker_levels(*seen, (rd, location, x_seen, y_seen, number))
    else:
        harms = (((level, "wound", number), 1),)
    out: dict[_OutcomeKey, int] = {}
    target = Target(
        rules,
        location,
        fresh,
        health,
        "",
        fixed,
        defender,
        rd if numbered else 0,
        scale_difference if numbered else 0,
        stuns=stuns,
    )
    reaching = [(Harm(after_number, after_level, kind), wa) for (after_level, kind, after_number), wa in harms]
    for harm, w in defender_outcomes(target, reaching):
        key = (harm.level, location, harm.crippled, harm.kind, harm.marked, harm.out)
        out[key] = out.get(key, 0) + w
    return tuple(out.items())


@lru_cache(maxsize=256)
def _attacker_ways(rules: BlowRules, track: WoundTrack) -> int:
    return attacker_ways(Strike(rules, 0, TORSO, track))


@lru_cache(maxsize=8192)
def _attacker_levels(
    rules: BlowRules,
    track: WoundTrack,
    scale_difference: int,
    graze_table: bool,
    option_rolls: tuple[tuple[str, int], ...],
    numbered: bool,
    blow: tuple[int, str, int | None, int | None, int],
) -> tuple[tuple[tuple[WoundLevel | None, str, int], int], ...]:
    """The attacker's side's spread (``blow.attacker_spread``) of a blow — its relative degree, location, the
    rolls the way reads (``blow.rolls_seen``) and its damage number — by what the outcome keeps of it: the
    wound level, its kind and, when the defender's side reads it (``numbered``: *Fudge* 4.52's point step), the
    damage number (else 0: the damage numbers that read the same wound are one outcome)."""
    rd, location, x_seen, y_seen, number = blow
    strike = Strike(rules, rd, location, track, scale_difference, x_seen, y_seen, fixed=option_rolls)
    level = _wound(number, rd, track, graze_table, scale_difference)
    out: dict[tuple[WoundLevel | None, str, int], int] = {}
    for after, ways in attacker_spread(strike, Harm(number, level)):
        key = (after.level, after.kind, after.number if numbered else 0)
        out[key] = out.get(key, 0) + ways
    return tuple(out.items())


@lru_cache(maxsize=64)
def _unhurt(track: WoundTrack) -> Wounds:
    return Wounds(track)


@lru_cache(maxsize=256)
def _defender_ways(rules: BlowRules, sheet: Wounds, health: int | None, defender: Defender) -> int:
    return defender_ways(Target(rules, TORSO, sheet, health, defender=defender))


def outcome_distribution(
    offence: int,
    target_defence: int | None,
    other_defences: Sequence[int],
    difficulty: int,
    damage_base: int,
    *,
    damage_base_head: int | None = None,
    track: WoundTrack = DEFAULT_TRACK,
    fudge_graze_table: bool = False,
    aim: Aim = "best",
    health: int | None = None,
    scale_difference: int = 0,
    other_locations: Sequence[tuple[str, int]] = (),
    set_rolls: tuple[int | None, int | None, int | None] = (None, None, None),
    rules: BlowRules = FTC,
    sheet: Wounds | None = None,
    option_rolls: Sequence[tuple[str, int]] = (),
    defender: Defender = NOBODY,
    rolls: Sequence[RollKind] = (),
    stuns: StunSheet = FRESH,
) -> Mapping[Outcome, Fraction]:
    """The exact distribution of one attack's outcome (FTC 6.4, 6.6, 7, 7.3; docs/rulings.md "Damage").

    ``offence``: the attacker's modified level; ``target_defence``: the target's modified defence level,
    or None when it rolls no defence (an undodged missile); ``other_defences``: the modified defences of
    the other figures attacking the attacker in melee, who must be beaten too (FTC 6.4.1).
    ``damage_base``: offensive factors − defensive factors for a torso hit; ``damage_base_head``: the same
    for a head hit (head +2 and head armour included), None if the target has no head to aim at.

    The relative degree is measured against the target's defence and the difficulty (FTC 6.4, 7); damage
    = relative degree (times the track's ``degree_multiplier``, *Fudge* 4.55) + damage base, read on
    ``track``, a graze (relative degree +1) capped (FTC 7.3).
    ``other_locations``: (location, damage base) for the arms, legs, hands and feet the target has.
    When the attacker may choose the location (FTC 6.6) he aims at a location by name (the head, arm or leg
    on Superb, the hand or foot on Superb+1; otherwise the blow falls on the torso); with ``aim="best"`` he
    takes the location that gives the worst wound after armour (``damage.choose_location``, the battle's own
    rule; ties stay on the torso). A limb blow gives at most Hurt and may cripple (FTC 6.6, with the same
    Health roll). ``health``: the target's Health level for the Health roll (FTC 7.4), None to
    leave the wound unreduced. ``scale_difference``: the blow's Scale minus the target's Mass Scale, which
    may raise a graze's cap (*Fudge* 4.56; ``damage.graze_scale_difference``). ``set_rolls``: the 4dF totals
    the GM set by hand (physical dice at the table) for the attacker's roll, the target's defence roll and
    its Health roll, None for a roll still to be made. ``rules``: the blow's rules (``game.engine.blow``): the
    rule options' steps of the blow's way are counted exactly, each with its rolls (FTC as written: none).
    ``sheet``: the target's wound sheet as it is (None: unhurt on ``track``), on which each outcome's box
    ``marked`` and ``out`` are read. ``option_rolls``: (purpose, total) of the rule options' rolls the GM set
    by hand for this blow (``rule_options.ROLL_OWNERS`` says whose). ``defender``: what the defender's side reads
    of the target beyond its sheet (``blow.Defender``: a hero's Fudge Points, Will, Damage Capacity …; the
    battle's ``defender_of``). ``rolls``: how each combat roll is made when the rule option ``npc_rolls`` makes one
    otherwise (*Fudge* 4.33, 4.34; ``npc_rolls.RollKind`` for the attacker, the target and each of
    ``other_defences``, in order; a set roll is its ``fixed`` there; empty: each his own 4dF, with ``set_rolls``).
    ``stuns``: the target's stun sheet as it is, read by a stunning blow (*Fudge* 4.62: its outcomes have kind
    "stun", ``marked`` the stun as a level, ``stun_sheet.result_of``).
    Outcomes with zero chance are left out; the chances sum to exactly 1.
    """
    if aim not in AIMS:
        raise CombatError(f"aim must be one of {', '.join(AIMS)}, not {aim!r}")
    return _outcome_ways(
        offence,
        target_defence,
        tuple(other_defences),
        difficulty,
        damage_base,
        damage_base_head,
        track,
        fudge_graze_table,
        aim,
        health,
        scale_difference,
        tuple(other_locations),
        set_rolls,
        rules,
        sheet,
        tuple(option_rolls),
        defender,
        tuple(rolls),
        stuns,
    )


def hit_chance(distribution: Mapping[Outcome, Fraction]) -> Fraction:
    """The chance that the attack hits at all (FTC 6.4), read off an outcome distribution."""
    return sum((p for o, p in distribution.items() if o.hit), Fraction(0))


def chance_of_at_least(distribution: Mapping[Outcome, Fraction], level: WoundLevel) -> Fraction:
    """The chance of a wound of ``level`` or worse (FTC 7.3), e.g. Incapacitated or worse: taken out."""
    return sum((p for o, p in distribution.items() if o.level is not None and o.level >= level), Fraction(0))


def chance_out(distribution: Mapping[Outcome, Fraction]) -> Fraction:
    """The chance the attack takes the target out of the fight (FTC 6.4: the box it marks is Incapacitated or
    worse), read on the target's sheet as it is: a wounded target's roll-up counts (*Fudge* 4.57)."""
    return sum((p for o, p in distribution.items() if o.out), Fraction(0))


def expected_wound(distribution: Mapping[Outcome, Fraction]) -> Fraction:
    """The expected wound level (Scratch 1 … Near Death 5; a miss or no wound 0), a score for the AI
    (FTC 7.3)."""
    return sum((p * _rank(o.level) for o, p in distribution.items()), Fraction(0))


# ---------------------------------------------------------------------------------------------------
# Stances compared
# ---------------------------------------------------------------------------------------------------

ALL_STANCES: tuple[Stance, ...] = tuple(Stance)


@dataclass(frozen=True, slots=True)
class IncomingAttack:
    """An enemy's attack on the figure choosing a stance: his modified offence, his difficulty, and the
    defences of others attacking him that he must also beat (FTC 6.4, 6.4.1)."""

    offence: int
    difficulty: int
    other_defences: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StanceOdds:
    """One column of the "stances compared" panel (table 4; FTC 6.1.1): the attack's outcome
    distribution in that stance and the chance each incoming attack hits the figure."""

    stance: Stance
    offence: int
    defence: int | None
    attack: Mapping[Outcome, Fraction]
    incoming: tuple[Fraction, ...]

    @property
    def hit_chance(self) -> Fraction:
        """The chance that the figure's own attack hits."""
        return hit_chance(self.attack)

    @property
    def expected_wound(self) -> Fraction:
        """The expected wound level the figure's own attack deals."""
        return expected_wound(self.attack)


def stance_comparison(
    offence: int,
    target_defence: int | None,
    other_defences: Sequence[int],
    difficulty: int,
    damage_base: int,
    *,
    own_defence: int | None = None,
    incoming: Sequence[IncomingAttack] = (),
    stances: Sequence[Stance] = ALL_STANCES,
    damage_base_head: int | None = None,
    track: WoundTrack = DEFAULT_TRACK,
    fudge_graze_table: bool = False,
    aim: Aim = "best",
    health: int | None = None,
) -> dict[Stance, StanceOdds]:
    """The odds of one attack in each stance, side by side (table 4, FTC 6.1.1, *Fudge* 4.32).

    ``offence`` and ``own_defence`` are the figure's modified levels *without* a stance; each stance adds
    its attack and defence bonus (aggressive stances taken as the bonus, not an advance, FTC 6.2). Each
    ``incoming`` attack is checked against ``own_defence`` plus the stance's defence bonus. The caller
    leaves out stances that are not allowed (a very defensive stance with no hex to retreat to).
    """
    out: dict[Stance, StanceOdds] = {}
    for stance in stances:
        attack = outcome_distribution(
            offence + stance.attack_bonus,
            target_defence,
            other_defences,
            difficulty,
            damage_base,
            damage_base_head=damage_base_head,
            track=track,
            fudge_graze_table=fudge_graze_table,
            aim=aim,
            health=health,
        )
        defence = None if own_defence is None else own_defence + stance.defence_bonus
        risks = tuple(
            hit_probability(a.offence, (*([] if defence is None else [defence]), *a.other_defences), a.difficulty)
            for a in incoming
        )
        out[stance] = StanceOdds(stance, offence + stance.attack_bonus, defence, attack, risks)
    return out


# ---------------------------------------------------------------------------------------------------
# Misses along the line of fire
# ---------------------------------------------------------------------------------------------------


def miss_probabilities(friends: int, enemies: int) -> tuple[Fraction, Fraction]:
    """After a missed shot, the chances that a friend / an enemy of the firer on the line is hit instead
    (FTC 6.5.3, table 9): P(situational roll <= friend threshold), P(roll >= enemy threshold)."""
    friend_at, enemy_at = miss_thresholds(friends, enemies)
    friend = 0 if friend_at is None else sum(w for t, w in _ROLLS if t <= friend_at)
    enemy = 0 if enemy_at is None else sum(w for t, w in _ROLLS if t >= enemy_at)
    return Fraction(friend, _WAYS), Fraction(enemy, _WAYS)
