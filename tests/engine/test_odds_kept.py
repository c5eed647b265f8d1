"""The odds keep a blow's way across calls (FTC 7, 7.3, 7.4, 6.6; *Fudge* 4.51–4.64; docs/performance.md "With every
rule option on"): what they keep is the answer computed afresh, under every rule option set, and each input that
changes an answer changes it when kept too."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from game.engine import blow, odds
from game.engine.blow_base import Defender, Harm, Target
from game.engine.npc_rolls import RollKind
from game.engine.rule_options import RuleOptions
from game.engine.stun_sheet import FRESH, StunSheet
from game.engine.wounds import DEFAULT_TRACK, WoundLevel, Wounds
from game.rules_file import read_rules

EVERY = read_rules(Path(__file__).parent.parent / "data" / "every_played_option.toml").options

OPTION_SETS: dict[str, RuleOptions] = {
    "ftc": RuleOptions(),
    "every": EVERY,
    "situational damage": RuleOptions(damage_roll="situational", wound_situational_roll="both"),
    "capacity by the point": RuleOptions(damage_capacity="roll", damage_capacity_step="point", tech_level_scale=2),
    "heroes and Will": RuleOptions(
        pc_death_max_three_levels=True, pc_death_fudge_point=True, willpower_vs_wounds="incapacitated"
    ),
    "even roll, critical": RuleOptions(damage_roll="even_roll", critical_penetration=2, fudge_graze_table=True),
}

HERO = Defender(hero=True, fudge_points=2, will=1, capacity=1, resilience=-1)


def _attacks(options: RuleOptions, seed: int, count: int) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """``count`` varied attacks (the arguments of ``outcome_distribution``) under ``options``."""
    rng = random.Random(seed)
    rules = blow.rules_of(options)
    sheets = [Wounds(DEFAULT_TRACK), Wounds(DEFAULT_TRACK).record(WoundLevel.HURT)[0]]
    out: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for _ in range(count):
        others = tuple(rng.randint(-2, 2) for _ in range(rng.randint(0, 1)))
        args = (rng.randint(-1, 3), rng.choice([None, 0, 1, 2]), others, rng.choice([-2, 0, 1]), rng.randint(0, 5))
        kw: dict[str, Any] = {
            "damage_base_head": rng.choice([None, rng.randint(1, 6)]),
            "aim": rng.choice(["best", "torso", "head"]),
            "health": rng.choice([None, 0, 1]),
            "scale_difference": rng.choice([0, 0, 2]),
            "other_locations": rng.choice([(), (("arm", 1), ("leg", 0))]),
            "rules": rules.for_blow(stun=rng.random() < 0.3, sweep_place=rng.choice([0, 0, 1])),
            "sheet": rng.choice(sheets),
            "defender": rng.choice([Defender(), HERO]),
            "stuns": rng.choice([FRESH, StunSheet().record(1)[0]]),
        }
        if rng.random() < 0.3:
            kw["rolls"] = (RollKind(4, "pawns"), *(RollKind() for _ in range(1 + len(others))))
        out.append((args, kw))
    return out


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_a_kept_answer_is_the_one_computed_afresh(name: str) -> None:
    """FTC 7, 7.4 and the options' steps: attack after attack with the way's spreads kept from the ones before, each
    distribution equals the one computed with every kept answer forgotten, exactly, summing to 1."""
    attacks = _attacks(OPTION_SETS[name], seed=len(name), count=40)
    odds.clear_caches()
    kept = [odds.outcome_distribution(*args, **kw) for args, kw in attacks]
    for (args, kw), answer in zip(attacks, kept, strict=True):
        odds.clear_caches()
        afresh = odds.outcome_distribution(*args, **kw)
        assert list(answer.items()) == list(afresh.items())
        assert sum(answer.values()) == 1


def test_the_targets_stun_sheet_keys_the_kept_way() -> None:
    """*Fudge* 4.62: a stunning blow on a fresh stun sheet and on one already marked Stun end differently (the next
    stun rolls up); the second asked right after the first, the way kept, is still its own answer."""
    rules = blow.rules_of(EVERY).for_blow(stun=True)
    marked = StunSheet().record(1)[0]

    def attack(stuns: StunSheet) -> dict[odds.Outcome, Fraction]:
        return dict(odds.outcome_distribution(2, 0, (), -2, 3, health=0, rules=rules, defender=HERO, stuns=stuns))

    odds.clear_caches()
    fresh = attack(FRESH)
    after_fresh = attack(marked)
    odds.clear_caches()
    afresh = attack(marked)
    assert afresh != fresh  # the stun sheet changes the answer ...
    assert after_fresh == afresh  # ... so the kept way is told the sheets apart


def test_a_kept_placement_is_told_the_difficulty() -> None:
    """FTC 6.6, 7: where a hit falls and what it reads are kept per call-wide facts; an attack of the same rolls
    against a higher difficulty (a lower relative degree) is its own answer."""
    rules = blow.rules_of(EVERY)
    odds.clear_caches()
    low = dict(odds.outcome_distribution(3, None, (), -2, 2, damage_base_head=4, rules=rules))
    high_kept = dict(odds.outcome_distribution(3, None, (), 1, 2, damage_base_head=4, rules=rules))
    odds.clear_caches()
    high = dict(odds.outcome_distribution(3, None, (), 1, 2, damage_base_head=4, rules=rules))
    assert high != low
    assert high_kept == high


@pytest.mark.parametrize("name", ["every", "capacity by the point", "heroes and Will"])
def test_the_steps_after_s10_read_no_number_degree_or_scale(name: str) -> None:
    """The odds spread S11–S13 once per level (``blow.defender_outcomes``): that holds only while no step there reads
    the damage number, the relative degree or the Scale difference. Each step's spread is the same whatever those
    are (the harms it leaves keep the number they came with)."""
    rules = blow.rules_of(OPTION_SETS[name])
    rng = random.Random(9)
    sheets = [Wounds(DEFAULT_TRACK), Wounds(DEFAULT_TRACK).record(WoundLevel.VERY_HURT)[0]]
    for _ in range(60):
        target = Target(
            rules.for_blow(stun=rng.random() < 0.3),
            rng.choice(["torso", "head", "arm", "leg"]),
            rng.choice(sheets),
            rng.choice([None, 0, 2]),
            defender=rng.choice([Defender(), HERO, replace(HERO, round_start=WoundLevel.INCAPACITATED)]),
        )
        harm = Harm(
            0, rng.choice([None, *WoundLevel]), rng.choice(["wound", "stun"]), roll_result=rng.choice([None, 0, 3])
        )
        for step in blow.DEFENDER_LEVELLED:
            if not step.on(target.rules):
                continue
            plain = step.spread(target, harm)
            for number, degree, scale in ((7, 3, 0), (-2, 0, 2), (12, 5, -1)):
                other = step.spread(
                    replace(target, relative_degree=degree, scale_difference=scale), replace(harm, number=number)
                )
                assert [(replace(h, number=0), w) for h, w in other] == list(plain), (step, target, harm)


def test_the_defender_steps_that_read_the_number_come_first() -> None:
    """*Fudge* 4.52's point step reads the number anew in S8–S9, and S10 reads S9's result: those are
    ``DEFENDER_NUMBERED``, the rest after them, together the whole defender's side in order."""
    assert (*blow.DEFENDER_NUMBERED, *blow.DEFENDER_LEVELLED) == blow.DEFENDER_WAY
    labels = [getattr(step, "label", "") for step in blow.DEFENDER_NUMBERED]
    assert labels[-1] == "S10"


@pytest.mark.parametrize("name", ["every", "capacity by the point"])
def test_s8_to_s10_read_the_degree_and_scale_only_on_a_graze(name: str) -> None:
    """FTC 7.3, *Fudge* 4.52, 4.56: the point step reads a moved number's wound anew, where the relative degree and
    the Scale difference count only for a graze (relative degree +1); so for every other degree S8–S10 spread alike
    at degree 0 without Scale (what ``blow.defender_outcomes`` keeps them by), while on a graze they may differ."""
    rules = blow.rules_of(OPTION_SETS[name])
    graze_differs = False
    for location in ("torso", "arm"):
        for number in range(-1, 12):
            for level in (None, *WoundLevel):
                harm = Harm(number, level)
                base = Target(rules, location, Wounds(DEFAULT_TRACK), 0, defender=HERO)
                plain = blow.spread_steps(blow.DEFENDER_NUMBERED, base, harm)
                for degree in (0, 2, 3, 6):
                    for scale in (-1, 0, 2):
                        moved = replace(base, relative_degree=degree, scale_difference=scale)
                        assert blow.spread_steps(blow.DEFENDER_NUMBERED, moved, harm) == plain
                graze = replace(base, relative_degree=1, scale_difference=2)
                graze_differs |= blow.spread_steps(blow.DEFENDER_NUMBERED, graze, harm) != plain
    assert graze_differs


@pytest.mark.parametrize("name", ["every", "capacity by the point", "heroes and Will", "situational damage"])
def test_s8_to_s10_spread_alike_for_the_target_as_they_read_it(name: str) -> None:
    """*Fudge* 4.52, FTC 7.4, 6.6: the odds spread S8–S10 once for every target that agrees on what those steps read
    (``blow._as_s8_to_s10``: not its wounds, stuns or a hero's Fudge Points and round); each harm spreads the same
    at the target and at that reading of it."""
    rules = blow.rules_of(OPTION_SETS[name])
    rng = random.Random(len(name))
    sheets = [Wounds(DEFAULT_TRACK), Wounds(DEFAULT_TRACK).record(WoundLevel.HURT)[0].record(WoundLevel.VERY_HURT)[0]]
    defenders = [
        Defender(),
        HERO,
        replace(HERO, round_start=WoundLevel.INCAPACITATED, fudge_points=0, fights_on=True, pain="low"),
        Defender(mook=True, capacity=-1, resilience=1),
    ]
    for _ in range(150):
        target = Target(
            rules.for_blow(stun=rng.random() < 0.3),
            rng.choice(["torso", "head", "arm", "leg"]),
            rng.choice(sheets),
            rng.choice([None, 0, 2]),
            fixed=rng.choice([(), (("health", 2),)]),
            defender=rng.choice(defenders),
            relative_degree=rng.randint(0, 4),
            scale_difference=rng.choice([0, 0, 2, -1]),
            stuns=rng.choice([FRESH, StunSheet().record(2)[0]]),
        )
        harm = Harm(rng.randint(-1, 11), rng.choice([None, *WoundLevel]), rng.choice(["wound", "stun"]))
        read = blow._as_s8_to_s10(target)
        assert blow.spread_steps(blow.DEFENDER_NUMBERED, read, harm) == blow.spread_steps(
            blow.DEFENDER_NUMBERED, target, harm
        ), (target, harm)
