"""Computer players: they choose among the legal actions like any human (docs/architecture.md "One source of legality").

``RandomPlayer`` plays any legal action (for tests); ``TacticalPlayer`` weighs the exact odds of
``game.engine.odds``: expected wounds dealt against wounds risked, keeping close to friends and using
cover, within a time limit per decision. Both draw only from their own seeded generator, never from
the battle's, so a computer's choice never changes the dice of the battle (the log holds its actions).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

from game.engine import actions as act
from game.engine import magic
from game.engine.ai_options import in_play, random_fields, refine
from game.engine.battle import Battle, Decision, Figure
from game.engine.blow import rules_of
from game.engine.choices import DeclareChoices, declare_choices
from game.engine.combat import Stance, melee_difficulty, total
from game.engine.creatures import default_stance
from game.engine.hexgrid import Hex, distance, facing_toward, within
from game.engine.odds import escape_probability, expected_wound, hit_probability, outcome_distribution
from game.engine.preview import public_declarations
from game.engine.ranges import range_band

Player = Callable[[Battle, Decision], act.Action]


def declarers_seen(battle: Battle, side: str) -> frozenset[str] | None:
    """The figures whose declarations of this attack phase ``side``'s player has seen: every one not hidden
    and its own side's, so that under secret stances a hidden declaration is never read (*Fudge* 4.32); for
    ``Battle.threats_to(known=)``. None outside the attack phase, where the last round's declarations stand
    revealed to every player."""
    if battle.phase != "attack":
        return None
    return frozenset(public_declarations(battle)) | {f.id for f in battle.figures.values() if f.side == side}


def _stay(fid: str) -> act.Move:
    return act.Move(fid, ())


def spend_fudge_point(d: Decision) -> act.SpendFudgePoint:
    """*Fudge* 4.64: a computer player asked whether to spend a Fudge Point on a deadly wound spends it (the game has
    no other use for Fudge Points; the question is asked only while a point is left)."""
    return act.SpendFudgePoint(d.figure or "", True)


class RandomPlayer:
    """Chooses uniformly among simple legal actions (FTC 5–6); for tests and the state-machine property test."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, battle: Battle, d: Decision) -> act.Action:
        """Pick an action for the decision ``d`` (FTC 5–6)."""
        rng = self.rng
        if d.reason == "stop":
            return act.StopChoice(d.figure or "", rng.random() < 0.7)
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice(d.figure or "", rng.random() < 0.3)
        if d.reason == "interrupt":
            if d.interrupters and rng.random() < 0.3:
                return self._move(battle, rng.choice(d.interrupters))
            return act.PassInterrupt(d.side)
        if d.reason in ("move", "held_end"):
            fid = d.figure or ""
            if d.reason == "move" and rng.random() < 0.15:
                return act.Hold(fid)
            return self._move(battle, fid)
        if d.reason == "follow":
            return act.FollowChoice(d.figure or "", d.follow_hex if rng.random() < 0.5 else None)
        if d.reason == "declare":
            return self._declare(battle, d.figure or "")
        if d.reason == "fudge_point":  # Fudge 4.64: mostly spends, sometimes keeps (to try both answers)
            return act.SpendFudgePoint(d.figure or "", rng.random() < 0.7)
        raise ValueError(f"no rule for decision {d.reason!r}")

    def _move(self, battle: Battle, fid: str) -> act.Move:
        if battle.casting_of(fid) is not None and self.rng.random() < 0.7:
            return _stay(fid)  # FTC 8.1: moving breaks the concentration (now and then it does move)
        reach = battle.reach_for(fid)
        hexes = sorted(reach.hexes())
        if not hexes:
            return _stay(fid)
        h = self.rng.choice(hexes)
        path = reach.path(h, self.rng.choice(reach.facings(h)))
        return act.Move(fid, path.steps)

    def _declare(self, battle: Battle, fid: str) -> act.Action:
        opts = battle.declare_options(fid)
        rng = self.rng
        weapons: dict[str, list[str]] = opts["weapons"]  # type: ignore[assignment]
        stances: list[str] = opts["stances"]  # type: ignore[assignment]
        retreats: list[Hex] = opts["retreats"]  # type: ignore[assignment]
        firers: list[str] = opts["firers"]  # type: ignore[assignment]
        if battle.figure(fid).character.spells:
            cast = self._cast(battle, fid, opts, stances)
            if cast is not None:
                return cast
        if rng.random() < 0.1:
            reach = battle.reach_for(fid)
            hexes = sorted(reach.hexes())
            if hexes:
                h = rng.choice(hexes)
                return act.SecondMove(fid, reach.path(h).steps)
        usable = [(w, ts) for w, ts in weapons.items() if ts]
        stance = rng.choice([s for s in stances if Stance(s).max_advance == 0] or stances)
        retreat = None
        if Stance(stance).retreat == "must" or (Stance(stance).retreat == "may" and rng.random() < 0.5):
            retreat = rng.choice(retreats) if retreats else None
            if retreat is None:
                stance = "neutral"
        dodge = tuple(f for f in firers if rng.random() < 0.2)
        if usable:
            w, ts = rng.choice(usable)
            # the rule options' fields now and then (Fudge 4.62, 4.34): drawn only while an option is on
            return random_fields(battle, act.Declare(fid, stance, (rng.choice(ts),), w, dodge, retreat=retreat), rng)
        return act.Declare(fid, stance, (), None, dodge, retreat=retreat)

    def _cast(self, battle: Battle, fid: str, opts: dict[str, object], stances: list[str]) -> act.Declare | None:
        """FTC 8: go on concentrating, or cast a random known spell at a legal target (or neither)."""
        rng = self.rng
        still = [s for s in stances if Stance(s).max_advance == 0 and Stance(s).retreat != "must"] or ["neutral"]
        stance = rng.choice(still)
        casting = opts.get("casting")
        if isinstance(casting, str) and rng.random() < 0.8:
            return act.Declare(fid, stance, spell=casting)
        spells: dict[str, list[str]] = opts.get("spells", {})  # type: ignore[assignment]
        usable = sorted((n, ts) for n, ts in spells.items() if ts)
        if not usable or rng.random() < 0.4:
            return None
        name, targets = rng.choice(usable)
        target = rng.choice(targets)
        if magic.spell(name).target == "hex":
            return act.Declare(fid, stance, spell=name, spell_hex=battle.area_hex_on(fid, name, target))
        return act.Declare(fid, stance, spell=name, spell_target=target)


class TacticalPlayer:
    """Chooses by exact odds (FTC 5–7 via ``odds``): moves toward the best attack, picks the target and
    stance with the greatest expected wound dealt minus wound risked, advances onto an enemy out of reach
    (FTC 6.2, the advances of ``game.engine.choices``), steps back when hurt and threatened, holds when
    enemies are far and friends still to move, and stops enemies it can hold; ``time_limit`` caps a
    decision in seconds."""

    def __init__(self, seed: int = 0, time_limit: float = 0.8) -> None:
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self._field_key: object = None
        self._field: dict[tuple[int, int], int] = {}
        self._frontier: list[Hex] = []

    def __call__(self, battle: Battle, d: Decision) -> act.Action:
        """Pick an action for the decision ``d`` (FTC 5–7)."""
        start = time.perf_counter()
        if d.reason == "stop":
            return act.StopChoice(d.figure or "", True)
        if d.reason == "escape_failed":
            mover = battle.figure(d.figure or "")
            # run only when healthy: each stopper gets a free attack at our -2 defence
            return act.EscapeFailedChoice(mover.id, mover.wounds.worst is None)
        if d.reason == "interrupt":
            for fid in d.interrupters:
                if self._enemy_near(battle, battle.figure(fid), 6):
                    return self._move(battle, fid, start)
            return act.PassInterrupt(d.side)
        if d.reason == "move":
            fig = battle.figure(d.figure or "")
            if (
                not self._enemy_near(battle, fig, fig.allowance + 3)
                and self._friends_to_move(battle, fig)
                and fig.character.ready_weapon.ranged is False
                and self.rng.random() < 0.25
            ):
                return act.Hold(fig.id)
            return self._move(battle, fig.id, start)
        if d.reason == "held_end":
            return self._move(battle, d.figure or "", start)
        if d.reason == "follow":
            return act.FollowChoice(d.figure or "", d.follow_hex)
        if d.reason == "declare":
            return self._declare(battle, d.figure or "")
        if d.reason == "fudge_point":
            return spend_fudge_point(d)
        raise ValueError(f"no rule for decision {d.reason!r}")

    # -- helpers
    def _enemy_near(self, battle: Battle, fig: Figure, radius: int) -> bool:
        return any(distance(fig.hex, e.hex) <= radius for e in battle.enemies_of(fig))

    def _friends_to_move(self, battle: Battle, fig: Figure) -> bool:
        return any(not f.moved and not f.held and f.id != fig.id for f in battle.able(fig.side))

    def _attack_value(self, battle: Battle, fig: Figure, target: Figure) -> Fraction:
        """Expected wound level dealt by a neutral attack on ``target`` (exact, FTC 6.4–7; the rule options' steps
        of the blow's way counted)."""
        w = fig.character.ready_weapon
        off = fig.character.combat_skill(w, battle.round)
        dfn = target.character.combat_skill(target.character.ready_weapon, battle.round)
        diff = melee_difficulty(fig.character.mass_scale, target.character.mass_scale)
        if w.ranged:
            band = range_band(w, distance(fig.hex, target.hex), target.character.mass_scale)
            if band is None:
                return Fraction(0)
            return hit_probability(off, (), band.difficulty) * 2
        rules = rules_of(battle.options)  # the blow's way under the battle's options (a damage roll, ...)
        return expected_wound(outcome_distribution(off, dfn, (), diff, w.damage - 1, rules=rules))

    def _move(self, battle: Battle, fid: str, start: float) -> act.Move:
        fig = battle.figure(fid)
        if battle.casting_of(fid) is not None:
            return _stay(fid)  # FTC 8.1: a concentrating caster stands still
        reach = battle.reach_for(fid)
        enemies = battle.enemies_of(fig)
        if not enemies:
            return _stay(fid)
        ranged = fig.character.ready_weapon.ranged
        best: tuple[float, Hex, int] | None = None
        candidates = [*reach.hexes(), fig.hex]
        # how many friends stand within two hexes of each candidate hex (the bonus for keeping together):
        # only friends within two hexes of the farthest candidate can count
        spread = max(distance(fig.hex, h) for h in candidates) + 2
        friends_near: Counter[tuple[int, int]] = Counter(
            (f.hex.q + dq, f.hex.r + dr)
            for f in battle.able(fig.side)
            if f.id != fid and distance(f.hex, fig.hex) <= spread
            for dq, dr in _WITHIN_2
        )
        field = self._approach_field(battle, fig, candidates)
        for h in candidates:
            if time.perf_counter() - start > self.time_limit:
                break
            # walking distance to the nearest enemy, so walls and rivers are gone round, not pressed against
            steps = field.get(h, 999)
            if ranged:
                score = -abs(steps - 4) * 0.7 + 0.3 * -battle.terrain.cover_at(h)
            else:
                score = -steps * 1.0
                if steps == 1:
                    score += 3.0
            score += 0.2 * friends_near[h]
            if h != fig.hex and reach.band(h) == "escape":
                mover = fig.character.agility
                esc = escape_probability(
                    mover,
                    [
                        battle.figure(s).character.combat_skill(battle.figure(s).character.ready_weapon, battle.round)
                        for _, ids in reach.escapes(h)
                        for s in ids
                    ][:3]
                    or [0],
                )
                score -= 3.0 * float(1 - esc)
            score += self.rng.random() * 0.01
            if best is None or score > best[0]:
                best = (score, h, 0)
        if best is None or best[1] == fig.hex:
            facing = facing_toward(fig.hex, min(enemies, key=lambda e: distance(fig.hex, e.hex)).hex)
            if facing != fig.facing and reach.can_reach(fig.hex, facing):
                return act.Move(fid, reach.path(fig.hex, facing).steps)
            return _stay(fid)
        _, h, _ = best
        facing = facing_toward(h, min(enemies, key=lambda e: distance(h, e.hex)).hex)
        if not reach.can_reach(h, facing):
            facing = reach.facings(h)[0]
        return act.Move(fid, reach.path(h, facing).steps)

    def _approach_field(self, battle: Battle, fig: Figure, wanted: Iterable[Hex]) -> dict[tuple[int, int], int]:
        """Walking distance (in hexes, ignoring figures) to the nearest enemy of ``fig``'s side, by a
        breadth-first search over passable terrain from the enemies. It runs only until every hex in
        ``wanted`` is labelled and resumes from where it stopped for the next figure, while the enemies
        stand still, so its cost follows the distance to the enemy, not the size of the map."""
        mode = fig.character.movement_modes[0]
        sources = tuple(sorted(e.hex for e in battle.enemies_of(fig)))
        key = (id(battle.terrain), mode, sources)
        if self._field_key != key:
            self._field_key = key
            self._field = dict.fromkeys(sources, 0)
            self._frontier = list(sources)
        field, around = self._field, battle.terrain.passable_neighbours
        known = battle.terrain.neighbours_known(mode)
        missing: set[tuple[int, int]] = {h for h in wanted if h not in field}
        frontier = self._frontier
        while missing and frontier:
            nxt: list[Hex] = []
            for h in frontier:
                d = field[h] + 1
                step = known.get(h)
                for n in step if step is not None else around(h, mode):
                    if n not in field:
                        field[n] = d
                        nxt.append(n)
                        missing.discard(n)
            frontier = nxt
        self._frontier = frontier
        return field

    def _declare(self, battle: Battle, fid: str) -> act.Action:
        fig = battle.figure(fid)
        opts = battle.declare_options(fid)
        weapons: dict[str, list[str]] = opts["weapons"]  # type: ignore[assignment]
        stances: list[str] = opts["stances"]  # type: ignore[assignment]
        best: tuple[Fraction, str, str] | None = None
        for w, targets in weapons.items():
            for t in targets:
                v = self._attack_value(battle, fig, battle.figure(t))
                if best is None or v > best[0]:
                    best = (v, w, t)
        threats = battle.threats_to(fid, known=declarers_seen(battle, fig.side))
        hurt = fig.wounds.worst is not None and int(fig.wounds.worst) >= 2
        spell = self._best_spell(battle, fig, opts, threats) if fig.character.spells else None
        if spell is not None and (best is None or spell[0] > best[0]):
            return spell[1]
        if best is None:
            # nobody in reach: close in (an advance), or step back when hurt (a retreat), as ``choices`` offers
            dc = declare_choices(battle, fid, opts)
            advance = None if hurt else self._best_advance(battle, fig, dc)
            if advance is not None:
                return advance
            back = dc.stance("mildly_defensive")
            if threats and back is not None and back.retreats:
                return act.Declare(fid, "mildly_defensive", (), None, retreat=back.retreats[0] if hurt else None)
            return act.Declare(fid, "neutral")
        _, w, t = best
        if len(threats) >= 2 or hurt:
            stance = "mildly_defensive"
        elif not threats:
            stance = "very_aggressive" if "very_aggressive" in stances else "neutral"
        else:
            stance = "mildly_aggressive"
        if fig.character.kind != "person" and not hurt:
            # Fudge 4.23: a creature fights the way its kind does (hunters press, prey shies away)
            own = default_stance(fig.character.kind).value
            stance = own if own in stances else stance
        chosen = act.Declare(fid, stance, (t,), w)
        if in_play(battle):  # Fudge 4.62, 4.34: a stun or a sweep where the odds say it pays (no ignoring)
            # refine reads the weapons' targets, the sweep, the stun and the ignorable of the choices, not the
            # stances' advances (FTC 6.2), the costly part: offered no stance, the choices leave them out
            dc = declare_choices(battle, fid, {**opts, "stances": []})
            chosen, _ = refine(battle, dc, chosen, lambda f: 1.0, ignore=False)
        return chosen

    def _best_advance(self, battle: Battle, fig: Figure, dc: DeclareChoices) -> act.Declare | None:
        """FTC 6.2: with nobody in reach, close in and attack: the advance offered by ``choices`` that brings
        the enemy worth most into reach, in the least aggressive stance that allows its steps (each step
        costs a point of the stance's attack bonus); ties go to fewer steps."""
        if all(w.ranged for w in fig.character.weapons or (fig.character.ready_weapon,)):
            return None
        best: tuple[Fraction, int, act.Declare] | None = None
        seen: set[tuple[tuple[Hex, ...], int | None]] = set()
        for choice in sorted(dc.stances, key=lambda c: Stance(c.stance).max_advance):
            for adv in choice.advances:
                if (adv.steps, adv.facing) in seen:
                    continue  # a less aggressive stance already allows it
                seen.add((adv.steps, adv.facing))
                for weapon, targets in adv.targets.items():
                    for t in targets:
                        value = self._attack_value(battle, fig, battle.figure(t))
                        if best is None or (value, -len(adv.steps)) > (best[0], -best[1]):
                            decl = act.Declare(
                                fig.id, choice.stance, (t,), weapon, advance=adv.steps, advance_facing=adv.facing
                            )
                            best = (value, len(adv.steps), decl)
        return best[2] if best is not None and best[0] > 0 else None

    def _best_spell(
        self, battle: Battle, fig: Figure, opts: dict[str, object], threats: list[Figure]
    ) -> tuple[Fraction, act.Declare] | None:
        """FTC 8: the known spell worth most now (a rough score on the exact chance of the casting roll,
        comparable with ``_attack_value``'s expected wound), or going on with a spell being concentrated on."""
        stance = "mildly_defensive" if threats else "neutral"
        casting = battle.casting_of(fig.id)
        if casting is not None:
            return Fraction(100), act.Declare(fig.id, stance, spell=casting.spell.name)
        spells: dict[str, list[str]] = opts.get("spells", {})  # type: ignore[assignment]
        near = min((distance(fig.hex, e.hex) for e in battle.enemies_of(fig)), default=99)
        best: tuple[Fraction, act.Declare] | None = None
        for name, targets in spells.items():
            item = magic.spell(name)
            if magic.resolves_when(item) == "last_round" and near <= 4:
                continue  # no time to stand still concentrating with enemies this close
            skill = fig.character.skill_level(item.skill, battle.round)
            for t in targets:
                tgt = battle.figure(t)
                terms = battle.spell_terms(fig.id, name, t)
                p = hit_probability(skill + total(terms.modifiers), (), terms.difficulty)
                value = p * self._spell_worth(battle, fig, item, tgt, threats)
                if value > 0 and (best is None or value > best[0]):
                    if item.target == "hex":
                        decl = act.Declare(fig.id, stance, spell=name, spell_hex=battle.area_hex_on(fig.id, name, t))
                    else:
                        decl = act.Declare(fig.id, stance, spell=name, spell_target=t)
                    best = (value, decl)
        return best

    def _spell_worth(
        self, battle: Battle, fig: Figure, item: magic.Spell, tgt: Figure, threats: list[Figure]
    ) -> Fraction:
        """How much a spell that takes effect on ``tgt`` is worth, in expected wound levels (a heuristic)."""
        already = any(e.spell.name == item.name for e in battle.effects_on(tgt.id))
        if item.effect == "damage":
            return Fraction(2 + item.damage, 2)
        if item.effect == "heal":
            worst = tgt.wounds.worst
            return Fraction(2) if worst is not None and int(worst) >= 2 else Fraction(0)
        if already:
            return Fraction(0)
        if item.effect == "defence":
            return Fraction(item.defence_bonus, 2) if threats or tgt.id != fig.id else Fraction(0)
        if item.effect == "condition":
            return Fraction(3, 2) if magic.cannot_act(item) else Fraction(abs(item.modifier), 2)
        if item.effect == "movement":
            return Fraction(1, 3) if (item.movement_bonus < 0) == (tgt.side != fig.side) else Fraction(0)
        return Fraction(1, 4)


_WITHIN_2: tuple[tuple[int, int], ...] = tuple((h.q, h.r) for h in within(Hex(0, 0), 2))
"""The 19 steps to every hex within two of a hex (``hexgrid.within``), as plain pairs."""


__all__ = ["Player", "RandomPlayer", "TacticalPlayer", "declarers_seen"]
