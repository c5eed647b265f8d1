"""How the computer players use what a declaration may say under the rule options of the blow (*Fudge* 4.62,
4.34; docs/computer-players.md "Rule options"): go for stun, sweep several foes, leave an attacker undefended.

They decide through ``choices`` and ``preview`` only, like a player at the table (docs/architecture.md "One
source of legality"): ``refine`` takes the declaration a player chose and improves it where the exact odds say
it pays, each change with the words that explain it. The computer players never pull a blow: nothing in a
battle rewards it.

Value of a result, in wound levels (the unit the players already weigh blows in): a wound its level (Scratch 1
… Near Death 5); a Stun 3 (it costs the enemy his next attack and a point of defence, where a Hurt wound costs him
nothing, FTC 6.4.1), a Very Stunned 3.5 (two rounds without attacks, −2 to every roll), a knockout 4 (out of the
fight, as Incapacitated); a stunning blow's Scratch 0. So a stun pays when the blow is most likely a Hurt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import msgspec

from game.engine import actions as act
from game.engine.battle import Battle, Figure, IllegalAction
from game.engine.choices import DeclareChoices
from game.engine.odds import Outcome, expected_wound, hit_probability
from game.engine.preview import AttackPreview, preview, public_declarations, weapon_named
from game.engine.stun_sheet import KNOCKED_OUT, RESULTS, result_of
from game.engine.sweep import can_sweep
from game.engine.wounds import WoundLevel

STUN_WORTH: Mapping[str | None, float] = {None: 0.0, "Stun": 3.0, "Very Stunned": 3.5, "Knocked out": 4.0}
"""What a stunning blow's result is worth, in wound levels (module doc)."""

Weight = Callable[[Figure], float]
"""How much a blow at an enemy is worth beside the others (the veteran's menace; 1 for every enemy)."""


def in_play(battle: Battle) -> bool:
    """Whether any option a declaration's fields serve is on (stun, sweep, ignore): else nothing to refine."""
    options = battle.options
    return options.stun_blows or options.sweeping_blow > 0 or options.ignore_attackers


def outcome_worth(outcome: Outcome) -> float:
    """A blow's outcome in wound levels (module doc)."""
    if not outcome.hit:
        return 0.0
    if outcome.kind == "stun":
        return STUN_WORTH[result_of(outcome.marked)]
    return float(outcome.level or 0)


def worth(pv: AttackPreview) -> float:
    """The expected worth of a previewed blow, its sweep's foes included (each one's own chances)."""
    own = sum(float(p) * outcome_worth(o) for o, p in pv.distribution.items())
    return own + sum(worth(p) for p in pv.sweep)


def _shown(battle: Battle, a: act.Declare) -> AttackPreview | None:
    """The odds of the blow ``a`` (its outcomes only: the players weigh no stance here), None when it cannot be
    previewed."""
    try:
        pv = preview(battle, a, compare=False)
    except (IllegalAction, ValueError):
        return None
    return pv if isinstance(pv, AttackPreview) else None


def refine(
    battle: Battle,
    dc: DeclareChoices,
    a: act.Declare,
    weight: Weight,
    *,
    stun: bool = True,
    sweep: bool = True,
    ignore: bool = True,
) -> tuple[act.Declare, str]:
    """The declaration ``a`` (a weapon blow) with the rule options' fields its player may add where they pay:
    more foes for a sweeping blow (*Fudge* 4.34: each foe's expected worth, weighted, adds to the first's), a
    stun rather than a wound (*Fudge* 4.62: when the stun is worth more), enemies left undefended (*Fudge* 4.34:
    when the blow gains more than the undefended blows cost). Returns the declaration and the words for the
    change ("" when none)."""
    if not a.targets or a.weapon is None or a.spell is not None:
        return a, ""
    fig = battle.figure(a.figure)
    weapon = weapon_named(fig, a.weapon)
    base = _shown(battle, a)
    if base is None or weapon.ranged:
        return a, ""
    words: list[str] = []
    best = a
    value = worth(base) * weight(battle.figure(a.targets[0]))
    shown = base
    if sweep and dc.sweep > 1 and can_sweep(weapon):
        best, value, said, shown = _sweep(battle, dc, best, value, weight, base)
        words += said
    if stun and dc.can_stun and stun_estimate(battle, shown, weight) > value:
        stunned = msgspec.structs.replace(best, stun=True)
        pv = _shown(battle, stunned)
        if pv is not None:
            v = _value(battle, stunned, pv, weight)
            if v > value:
                best, value = stunned, v
                words.append("going for stun")
    if ignore and dc.ignorable:
        best, said = _ignore(battle, dc, best, value, weight)
        words += said
    return best, ("; " + ", ".join(words)) if words else ""


def stun_estimate(battle: Battle, pv: AttackPreview, weight: Weight) -> float:
    """What the blow previewed by ``pv`` would be worth going for stun, read off its wounding odds: each level
    as the stun it marks on the target's stun sheet as it is (*Fudge* 4.62: Hurt a Stun, Very Hurt a Very
    Stunned, worse a knockout, rolled up), a blow on the head a knockout under the head variant. The stunning
    blow's own odds are the same to S11, so this spares them for every blow not worth more stunning."""
    head = battle.options.stun_head_knockout

    def one(p: AttackPreview) -> float:
        sheet = battle.figure(p.target).stuns

        def worth_of(o: Outcome) -> float:
            if not o.hit:
                return 0.0
            if head and o.location == "head":
                return STUN_WORTH[KNOCKED_OUT]
            if o.level is None or o.level < WoundLevel.HURT:
                return 0.0
            _, marked = sheet.record(min(int(o.level), int(WoundLevel.INCAPACITATED)) - 1)
            return STUN_WORTH[RESULTS[marked - 1]]

        return sum(float(q) * worth_of(o) for o, q in p.distribution.items()) * weight(battle.figure(p.target))

    return one(pv) + sum(one(s) for s in pv.sweep)


def _value(battle: Battle, a: act.Declare, pv: AttackPreview, weight: Weight) -> float:
    own = sum(float(p) * outcome_worth(o) for o, p in pv.distribution.items()) * weight(battle.figure(a.targets[0]))
    return own + sum(worth(s) * weight(battle.figure(s.target)) for s in pv.sweep)


def _sweep(
    battle: Battle, dc: DeclareChoices, a: act.Declare, value: float, weight: Weight, pv: AttackPreview
) -> tuple[act.Declare, float, list[str], AttackPreview]:
    """More foes in reach of the same weapon, the worthiest first, while each adds to the sweep's worth (``pv``:
    the odds of ``a``); the declaration, its worth, the words and its odds."""
    assert a.weapon is not None
    extra = [t for t in dc.weapons.get(a.weapon, ()) if t not in a.targets]
    extra.sort(key=lambda t: (-weight(battle.figure(t)), t))
    best, said = a, []
    for t in extra[: dc.sweep - len(a.targets)]:
        wider = msgspec.structs.replace(best, targets=(*best.targets, t))
        shown = _shown(battle, wider)
        if shown is None:
            continue
        v = _value(battle, wider, shown, weight)
        if v > value:
            best, value, pv = wider, v, shown
            said.append(f"sweeping {battle.figure(t).name} too")
    return best, value, said, pv


def _ignore(
    battle: Battle, dc: DeclareChoices, a: act.Declare, value: float, weight: Weight
) -> tuple[act.Declare, list[str]]:
    """Leave undefended each enemy striking this figure in melee (publicly declared) when the blow's gain from
    not having to beat its defence is more than the wound its undefended blow may add (*Fudge* 4.34: the
    knight among levies, whose armour makes the cost small)."""
    fig = battle.figure(a.figure)
    declared = public_declarations(battle)
    best, said = a, []
    for e in dc.ignorable:
        d = declared.get(e)
        if e in a.targets or d is None or fig.id not in d.targets:
            continue
        enemy = battle.figure(e)
        ew = weapon_named(enemy, d.weapon)
        if ew.ranged:
            continue
        cost = _undefended_cost(battle, enemy, fig, ew.name, d.stance)
        trial = msgspec.structs.replace(best, ignore=(*best.ignoring, e))
        pv = _shown(battle, trial)
        if pv is None:
            continue
        v = _value(battle, trial, pv, weight)
        if v - value > cost:
            best, value = trial, v
            said.append(f"ignoring {enemy.name}")
    return best, said


def _undefended_cost(battle: Battle, enemy: Figure, fig: Figure, weapon: str, stance: str) -> float:
    """What leaving ``enemy``'s blow undefended adds to the wound ``fig`` may take, in wound levels: the rise of
    its hit chance times the wound a hit deals (``preview``'s odds, FTC 6.4–7)."""
    try:
        pv = preview(battle, act.Declare(enemy.id, stance, (fig.id,), weapon))
    except (IllegalAction, ValueError):
        return float("inf")
    if not isinstance(pv, AttackPreview) or pv.hit == 0:
        return float("inf") if isinstance(pv, AttackPreview) else 0.0
    per_hit = float(expected_wound(pv.distribution) / pv.hit)
    undefended = hit_probability(pv.offence, (), pv.difficulty)  # only the difficulty (the others' left out)
    return max(0.0, float(undefended - pv.hit)) * per_hit


def random_fields(battle: Battle, a: act.Declare, rng: random.Random) -> act.Declare:
    """The random player's use of the rule options' fields (for tests of every legal declaration): now and then a
    stun, more foes for a sweep, an ignored enemy — each only where the battle allows it."""
    if not a.targets or a.weapon is None or a.spell is not None:
        return a
    fig = battle.figure(a.figure)
    weapon = weapon_named(fig, a.weapon)
    options = battle.options
    if options.sweeping_blow and can_sweep(weapon) and rng.random() < 0.4:
        more = [t for t in battle.targets_for(fig.id, weapon) if t not in a.targets]
        rng.shuffle(more)
        a = msgspec.structs.replace(a, targets=(*a.targets, *more[:2]))
    if options.stun_blows and not weapon.ranged and rng.random() < 0.3:
        a = msgspec.structs.replace(a, stun=True)
    free = [e for e in battle.ignorable(fig.id) if e not in a.targets]
    if free and rng.random() < 0.3:
        a = msgspec.structs.replace(a, ignore=(rng.choice(free),))
    return a


__all__ = ["STUN_WORTH", "Weight", "in_play", "outcome_worth", "random_fields", "refine", "worth"]
