"""The sampling harness: an attack's odds preview against the same attack resolved in many battles
(docs/rulings.md "Rule options": the preview's numbers are exact under every option, and agree with sampled
battles within sampling error).

``sample_attack`` builds a refereed battle (the GM plays no side) whose initiative is set by hand through the
GM's seat, so the order, the declarations made before the one under test and therefore the preview's
assumptions are the same for every sample; ``decide_before`` plays the decisions up to the declaration under
test (None: ``tests.helpers.do_little``). At that declaration the preview is taken once; each sample is the battle as it
stands there, copied, with a fresh generator for its seed (legitimate for sampling, not a saved battle), the
declaration made and the round played out by defaults (a Fudge Point question answered "spend"); its outcome is
read from the events into the odds' ``Outcome`` (hit, location, wound after the defender's roll and the limb rule,
kind, box marked, out, crippled; a stunning blow's stun, *Fudge* 4.62).
No roll may be set by hand at that moment (it would fix the roll).

``assert_agrees`` checks every outcome class with ``|p̂ − p| ≤ 4·√(p(1−p)/n) + 1/n``, a χ² over the classes
expected at least five times below its 0.999 quantile, and that every sampled outcome has ``p > 0``.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, BattleSetup, Decision, legal_actions
from game.engine.generator import make_generator
from game.engine.heroes import NOT_RECORDED
from game.engine.odds import MISS, MISS_LOCATION, Outcome
from game.engine.preview import AttackPreview, preview
from game.engine.rule_options import RuleOptions
from game.engine.stun_sheet import MARKS, level_of
from game.engine.wounds import WoundLevel
from tests.helpers import do_little, refereed

Chooser = Callable[[Battle, Decision], act.Action | None]


@dataclass(frozen=True)
class Sample:
    """The preview taken at the declaration and the outcomes of ``n`` battles resolving it."""

    preview: AttackPreview
    counts: Counter[Outcome]
    n: int


def _to_declaration(b: Battle, fid: str, decide_before: Chooser) -> None:
    while True:
        d = legal_actions(b)
        assert d is not None and not b.over, "the battle ended before the declaration under test"
        if d.reason == "declare" and d.figure == fid:
            return
        b.apply(decide_before(b, d) or do_little(d))


def _outcome(b: Battle, events: list[ev.Event], attacker: str, target: str) -> Outcome:
    blow = next(
        e
        for e in events
        if isinstance(e, ev.AttackResolved) and e.attacker == attacker and e.target == target and not e.stray
    )
    if not blow.hit:
        return MISS
    stunned = next((e for e in events if isinstance(e, ev.Stunned) and e.figure == target), None)
    if stunned is not None:  # Fudge 4.62: a stunning blow marks the stun sheet, not a wound box
        marked = MARKS[level_of(stunned.result)] if stunned.result else None
        level = WoundLevel.parse(stunned.level) if stunned.level != "None" else None
        return Outcome(True, level, blow.location, False, "stun", marked, not b.figure(target).can_act)
    wound = next((e for e in events if isinstance(e, ev.Wounded) and e.figure == target), None)
    if wound is None:
        return Outcome(True, None, blow.location or MISS_LOCATION)
    # the box the wound keeps: not recorded (Fudge 4.64's excess lost), or bought down by a Fudge Point the
    # hero's player spent when asked
    box = next((e.after for e in events if isinstance(e, ev.FudgePointSpent) and e.figure == target), wound.box)
    marked = None if box == NOT_RECORDED else WoundLevel.parse(box)
    return Outcome(
        True,
        WoundLevel.parse(wound.after_health),
        blow.location,
        wound.crippled is not None,
        "wound",
        marked,
        not b.figure(target).can_act,
    )


def sample_attack(
    setup: BattleSetup,
    options: RuleOptions,
    *,
    initiative: Mapping[str, tuple[int, ...]],
    declaration: act.Declare,
    decide_before: Chooser = lambda b, d: None,
    n: int = 10_000,
    first_seed: int = 1,
    target: str | None = None,
) -> Sample:
    """The preview of ``declaration`` and the outcomes of ``n`` battles resolving it (module doc). The battle is
    ``setup`` under ``options``, refereed, round 1 played standing still, the initiative of round 2 set by hand
    (``initiative``: figure -> faces); ``decide_before`` plays round 2 up to the declaration. ``target``: which of
    a sweeping blow's targets to read (*Fudge* 4.34; its preview is the declaration's ``sweep`` entry), the
    first by default."""
    b = refereed(replace(setup, options=options, seed=first_seed))
    for fid, faces in initiative.items():
        b.apply(gm.SetDie(fid, "initiative", faces))
    while b.round < 2:
        d = legal_actions(b)
        assert d is not None
        b.apply(do_little(d))
    attacker, target = declaration.figure, target or declaration.targets[0]
    _to_declaration(b, attacker, decide_before)
    assert not b.gm_dice, "a roll set by hand would fix what is sampled"
    shown = preview(b, declaration)
    assert isinstance(shown, AttackPreview)
    place = declaration.targets.index(target)
    shown = shown.sweep[place - 1] if place else shown
    counts: Counter[Outcome] = Counter()
    # what never changes is shared (characters, events and decisions are frozen: a figure's character is
    # replaced, never edited; the log only grows), the rng replaced
    shared = [b.terrain, b.setup, b.rng, *(f.character for f in b.figures.values())]
    keep = {id(x): x for x in shared}
    for i in range(n):
        # the battle's own lists (its events, its log, the order) hold frozen things: copied shallow
        memo = {**keep, **{id(v): list(v) for v in vars(b).values() if isinstance(v, list)}}
        clone = copy.deepcopy(b, memo)
        clone.rng = make_generator(setup.dice, first_seed + i)
        events = list(clone.apply(declaration))
        start = clone.round
        while not clone.over and clone.round == start and clone.phase in ("attack", "round_end"):
            d = legal_actions(clone)
            assert d is not None
            events += clone.apply(do_little(d))
        counts[_outcome(clone, events, attacker, target)] += 1
    return Sample(shown, counts, n)


def chi2_quantile(k: int, q: float = 0.999) -> float:
    """The ``q`` quantile of the χ² distribution with ``k`` degrees of freedom (bisection on its CDF)."""

    def cdf(x: float) -> float:
        a, half = k / 2, x / 2
        term = total = 1.0 / a
        for m in range(1, 10_000):
            term *= half / (a + m)
            total += term
            if term < total * 1e-15:
                break
        return total * math.exp(a * math.log(half) - half - math.lgamma(a)) if x > 0 else 0.0

    low, high = 0.0, 10.0 * k + 100.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < q else (low, mid)
    return (low + high) / 2


def assert_agrees(distribution: Mapping[Outcome, Fraction], counts: Counter[Outcome], n: int) -> None:
    """The sampled outcomes agree with the exact distribution within sampling error (module doc)."""
    impossible = [o for o in counts if distribution.get(o, 0) == 0]
    assert not impossible, f"sampled outcomes the preview gives no chance: {impossible}"
    assert sum(distribution.values()) == 1
    for outcome, p in distribution.items():
        seen = counts.get(outcome, 0) / n
        bound = 4 * math.sqrt(float(p) * (1 - float(p)) / n) + 1 / n
        assert abs(seen - float(p)) <= bound, f"{outcome}: sampled {seen:.4f}, preview {float(p):.4f} (± {bound:.4f})"
    big = [(o, float(p) * n) for o, p in distribution.items() if float(p) * n >= 5]
    rest = n - sum(e for _, e in big)
    classes = [(counts.get(o, 0), e) for o, e in big]
    if rest >= 5:
        classes.append((n - sum(c for c, _ in classes), rest))
    if len(classes) > 1:
        chi2 = sum((c - e) ** 2 / e for c, e in classes)
        limit = chi2_quantile(len(classes) - 1)
        assert chi2 < limit, f"χ² {chi2:.1f} over {len(classes)} classes, 0.999 quantile {limit:.1f}"


__all__ = ["Sample", "assert_agrees", "chi2_quantile", "sample_attack"]
