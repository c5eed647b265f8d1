"""The blow's way: the steps every blow that can wound goes through, for the battle and for the odds
(FTC 7, 7.3, 7.4, 6.6; *Fudge* 4.51–4.64; docs/rulings.md "Rule options").

Every blow that can wound — a weapon blow of the attack phase, a free attack (FTC 5.3), a stray shot (FTC
6.5.3), a damage bolt or touch (FTC 8.3) — goes the same way once it has hit and its location is chosen:

====  =====================================================  ==========================================
step  what happens                                           rule
====  =====================================================  ==========================================
S3    the damage number's factors (``extra_factors``)        FTC 7, 7.1, 7.2
S4    a damage roll changes the number                       *Fudge* 4.61, 4.58
S5    the wound read on the target's track; a graze's cap    FTC 7.3, *Fudge* 4.56, 4.63
S6    attacker-side level shifts                             *Fudge* 4.61, 4.55
S7    the most the blow may do                               *Fudge* 4.62
S8    defender-side level shifts                             *Fudge* 4.52
S9    the defender's roll against the wound (Health)         FTC 7.4
S10   the limb rule (at most Hurt; crippling)                FTC 6.6
S11   recording: the wound marks a box                       *Fudge* 4.57
S12   a deadly mark bought down                              *Fudge* 4.64
S13   the wounded figure's Will against the new penalty      *Fudge* 4.51
====  =====================================================  ==========================================

S4–S7 are the attacker's side (``ATTACKER_WAY``, run by ``attacker_side``), S8–S13 the defender's
(``DEFENDER_WAY``, ``defender_side``). Each step is a ``Step``: ``play`` makes it in a battle (drawing its
dice through the battle's ``Dice``, giving the ``BlowStep`` lines the log shows), ``spread`` gives its exact
distribution for the odds preview (``game.engine.odds``), so the two cannot drift. A step that ``on`` says is
off for the battle's ``BlowRules`` draws nothing and changes nothing: with every option at its default a blow
goes exactly as FTC (S9–S11 are FTC's own Health roll, limb rule and box). A rule option's package replaces a
``NoStep`` line of a table with its own step (or a ``Chain`` of several in one slot). The way's vocabulary
(``BlowRules``, ``Strike``, ``Target``, ``Harm``, ``Step``…) and FTC's own steps are ``game.engine.blow_base``,
which an option's module builds on (this module imports the options' modules; they never import it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from game.engine.blow_base import (
    FTC,
    NOBODY,
    BlowRules,
    Chain,
    Defender,
    Dice,
    Facts,
    FixedStep,
    Harm,
    HealthRoll,
    Kept,
    LimbRule,
    NoStep,
    Record,
    Spread,
    Step,
    Strike,
    Target,
    clear_spreads,
    play_steps,
    read_level,
    rules_of,
    spread_steps,
    ways_of,
)
from game.engine.blow_step import BlowStep
from game.engine.characters import Character
from game.engine.damage import Factor, choose_location
from game.engine.damage_capacity import CapacityRoll, HealthUnlessCapacity, Resilience
from game.engine.damage_roll import PARITY, LevelRoll, NumberRoll, WoundSituational
from game.engine.equipment import Weapon
from game.engine.heroes import FudgePoint
from game.engine.min_mid_max import MinMidMax, best_location
from game.engine.scale_options import CRITICAL_ROLL, CriticalPenetration, ScaleDamageRoll, tech_level_factors
from game.engine.stun import PulledBlow, StunOrRecord
from game.engine.sweep import sweep_factor
from game.engine.willpower import WillAgainstPain
from game.engine.wounds import WoundLevel, Wounds, WoundTrack

# ------------------------------------------------------------------------------------------ S3


def extra_factors(
    rules: BlowRules, attacker: Character, target: Character, weapon: Weapon, location: str
) -> tuple[tuple[Factor, ...], tuple[Factor, ...]]:
    """S3: the offensive and defensive factors rule options add to a blow's at ``location`` (FTC 7, 7.1, 7.2;
    *Fudge* 4.34's sweep, 4.65's tech levels, 4.52's point step); FTC's own factors are
    ``damage.offensive_factors`` / ``defensive_factors``. The battle and the odds preview add these to those."""
    tech_off, tech_dfn = tech_level_factors(rules, target, weapon, location)
    return (*sweep_factor(rules), *tech_off), tech_dfn


# ------------------------------------------------------------------------------------------ S2


def where_it_falls(
    rules: BlowRules,
    aim: str,
    allowed: Sequence[str],
    levels: Mapping[str, WoundLevel | None],
    factors: Mapping[str, int],
    relative_degree: int,
) -> str:
    """S2, FTC 6.6: where a hit falls — ``damage.choose_location`` on the wound each location reads
    (``levels``); under Min-Mid-Max a hit by degree 2 or more aimed "best" goes where its die-reading bonus is
    best (``min_mid_max.best_location``, on the damage factor at each location, ``factors``: offence less
    defence, the degree not added). The battle and the odds preview both place blows with this."""
    if aim == "best" and rules.damage_roll == "min_mid_max" and relative_degree >= 2:
        return best_location(allowed, factors, relative_degree, low_penalty=rules.min_mid_max_low_penalty)
    return choose_location(aim, allowed, levels)


@lru_cache(maxsize=256)
def _reads(rules: BlowRules) -> tuple[bool, bool]:
    return rules.damage_roll in PARITY, rules.critical_penetration > 0


def rolls_seen(rules: BlowRules, attacker_roll: int | None, target_roll: int | None) -> tuple[int | None, int | None]:
    """The round's rolls of a blow as the attacker's side reads them: *Fudge* 4.61's even roll their parity (an
    even roll as 0, an odd one as 1), 4.58's critical the attacker's +4 (kept as +4, itself even); None for a roll
    no step reads. The odds give the way these, so they spread it once per blow they can tell apart, not once
    per pair of rolls."""
    parity, critical = _reads(rules)
    if not (parity or critical):
        return None, None
    return _seen(attacker_roll, parity, critical), _seen(target_roll, parity, False)


def _seen(roll: int | None, parity: bool, critical: bool) -> int | None:
    if roll is None:
        return None
    if critical and roll == CRITICAL_ROLL:
        return roll
    return roll % 2 if parity else None


# ------------------------------------------------------------------------------------------ the way

ATTACKER_WAY: tuple[Step, ...] = (
    Chain("S4", (NumberRoll(), ScaleDamageRoll())),  # Fudge 4.61 (and 4.56 on a graze), 4.58 through Scale
    Chain("S5", (MinMidMax(), CriticalPenetration())),  # Fudge 4.63, then 4.58's critical floor
    Chain("S6", (LevelRoll(), WoundSituational())),  # Fudge 4.61 on the level, 4.55
    PulledBlow(),
)
"""The attacker's side of the blow, S4 to S7, in order (module doc)."""

DEFENDER_WAY: tuple[Step, ...] = (
    Resilience(),  # S8: Damage Resistant, Fragile (Fudge 4.52)
    Chain("S9", (HealthUnlessCapacity(), CapacityRoll())),  # FTC 7.4's Health roll, or Fudge 4.52's
    LimbRule(),  # S10
    StunOrRecord(),  # S11: the box, a hero's capped (Fudge 4.57, 4.64), or a stun (Fudge 4.62)
    FudgePoint(),  # S12: a deadly mark bought down with a Fudge Point (Fudge 4.64)
    WillAgainstPain(),  # S13: Will against the new wound's penalty (Fudge 4.51)
)
"""The defender's side of the blow, S8 to S13, in order (module doc)."""

_READ_NUMBER = 3
"""The steps of ``DEFENDER_WAY`` before this place (S8-S10) are the only ones that read the harm's damage number or
the target's relative degree and Scale difference (S8, S9: *Fudge* 4.52's point step reads the wound anew, the
degree and the Scale difference only to cap a graze, ``_GRAZE``; S10's limb rule reads S9's result and drops it for
the odds); the rest read the level, its kind, the location, the sheets and the defender
(``tests/engine/test_odds_kept.py`` holds the steps to both)."""
_GRAZE = 1
"""The relative degree of a graze (FTC 7.3): the only one whose wound a Scale difference or the degree changes."""
DEFENDER_NUMBERED = DEFENDER_WAY[:_READ_NUMBER]
"""S8-S10: the defender's steps that may read the damage number (and S10, which drops S9's result)."""
DEFENDER_LEVELLED = DEFENDER_WAY[_READ_NUMBER:]
"""S11-S13: the defender's steps that read the level, not the number."""


@lru_cache(maxsize=256)
def attacker_on(rules: BlowRules) -> bool:
    """Whether any step of the attacker's side acts under these rules (off: the odds skip the side)."""
    return any(step.on(rules) for step in ATTACKER_WAY)


def attacker_side(strike: Strike, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
    """S4–S7 in a battle: the harm the attacker's side leaves (``AttackResolved.damage`` and ``.wound`` are its
    number and level) and the lines it adds to the blow's log (``AttackResolved.steps``)."""
    return play_steps(ATTACKER_WAY, strike, harm, dice)


def defender_side(target: Target, harm: Harm, dice: Dice) -> tuple[Harm, tuple[BlowStep, ...]]:
    """S8–S13 in a battle: the harm as recorded on the target's sheet (``Harm.sheet``, the box ``marked``) and
    the lines it adds to the wound's log (``Wounded.steps``)."""
    return play_steps(DEFENDER_WAY, target, harm, dice)


def attacker_ways(strike: Strike) -> int:
    """The ways the attacker's side adds to the odds' denominator (1 when no step acts)."""
    return ways_of(ATTACKER_WAY, strike)


def defender_ways(target: Target) -> int:
    """The ways the defender's side adds to the odds' denominator (81 with FTC's Health roll)."""
    return ways_of(DEFENDER_WAY, target)


@lru_cache(maxsize=8192)
def attacker_spread(strike: Strike, harm: Harm) -> Spread:
    """S4–S7 for the odds: the exact spread of the harm (ways summing to ``attacker_ways``)."""
    return spread_steps(ATTACKER_WAY, strike, harm)


def defender_outcomes(target: Target, harms: Sequence[tuple[Harm, int]]) -> Spread:
    """S8–S13 for the odds' outcomes of several harms at one target (each with its ways): ``defender_spread`` of
    each, summed. S8–S10 are spread for the target as they read it (``_as_s8_to_s10``), the damage number dropped
    (0) after them, and S11–S13 spread for the target without its relative degree and Scale difference, which they
    do not read: every harm that reaches S11 alike, whatever its number and degree, is spread from there once."""
    early = _as_s8_to_s10(target)
    plain = target if not (target.relative_degree or target.scale_difference) else _plain(target)
    reached: dict[Harm, int] = {}
    for harm, wa in harms:
        for h, w in _early(early, harm):
            reached[h] = reached.get(h, 0) + wa * w
    rest = _LEVELLED.kept(plain)
    ways: dict[Harm, int] = {}
    for h, w in reached.items():
        done = rest.get(h)
        if done is None:
            done = rest[h] = spread_steps(DEFENDER_LEVELLED, plain, h)
        for h2, w2 in done:
            ways[h2] = ways.get(h2, 0) + w * w2
    return tuple(ways.items())


@lru_cache(maxsize=4096)
def _as_s8_to_s10(target: Target) -> Target:
    """The target as S8–S10 read it: its rules, location, track, Health, the totals the GM set, the defender's Will,
    Damage Capacity and resilience (*Fudge* 4.52), and the relative degree and Scale difference only on a graze
    (``_GRAZE``, FTC 7.3); the rest (its wounds, stuns, a hero's facts) at their defaults."""
    d = target.defender
    graze = target.relative_degree == _GRAZE
    return Target(
        target.rules,
        target.location,
        _unhurt(target.sheet.track),
        target.health,
        "",
        target.fixed,
        Defender(will=d.will, capacity=d.capacity, resilience=d.resilience),
        target.relative_degree if graze else 0,
        target.scale_difference if graze else 0,
    )


@lru_cache(maxsize=64)
def _unhurt(track: WoundTrack) -> Wounds:
    return Wounds(track)


@lru_cache(maxsize=16384)
def _early(target: Target, harm: Harm) -> Spread:
    """S8–S10 of one harm (``target`` as ``_as_s8_to_s10`` makes it), the harms they leave without their number."""
    ways: dict[Harm, int] = {}
    for h, w in spread_steps(DEFENDER_NUMBERED, target, harm):
        if h.number:
            h = _numberless(h)
        ways[h] = ways.get(h, 0) + w
    return tuple(ways.items())


@lru_cache(maxsize=16384)
def _numberless(harm: Harm) -> Harm:
    return replace(harm, number=0)


_LEVELLED: Kept[Harm, Spread] = Kept(512, 4096)
"""S11–S13's spreads kept per target (its relative degree and Scale difference 0) and harm after S10."""


@lru_cache(maxsize=1024)
def _plain(target: Target) -> Target:
    return replace(target, relative_degree=0, scale_difference=0)


def forget_spreads() -> None:
    """Forget every spread of the way kept for the odds (for tests that change the way's steps)."""
    for cached in (attacker_on, attacker_spread, defender_spread, _early, _as_s8_to_s10, _plain, _numberless):
        cached.cache_clear()
    _LEVELLED.clear()
    clear_spreads()


@lru_cache(maxsize=4096)
def defender_spread(target: Target, harm: Harm) -> Spread:
    """S8–S13 for the odds: the exact spread of the harm (ways summing to ``defender_ways``), each with the box
    it would mark and whether it takes the target out."""
    return spread_steps(DEFENDER_WAY, target, harm)


__all__ = [
    "ATTACKER_WAY",
    "DEFENDER_LEVELLED",
    "DEFENDER_NUMBERED",
    "DEFENDER_WAY",
    "FTC",
    "NOBODY",
    "BlowRules",
    "Chain",
    "Defender",
    "Dice",
    "Facts",
    "FixedStep",
    "Harm",
    "HealthRoll",
    "LimbRule",
    "NoStep",
    "Record",
    "Spread",
    "Step",
    "Strike",
    "Target",
    "attacker_on",
    "attacker_side",
    "attacker_spread",
    "attacker_ways",
    "defender_outcomes",
    "defender_side",
    "defender_spread",
    "defender_ways",
    "extra_factors",
    "forget_spreads",
    "play_steps",
    "read_level",
    "rolls_seen",
    "rules_of",
    "spread_steps",
    "ways_of",
    "where_it_falls",
]
