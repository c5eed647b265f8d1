"""Ranged fire (FTC 6.5): where a missile is aimed, whether a target can be shot, and strays (FTC 6.5.3).

A large target is shot at its nearest hex with a line of fire; range counts between the nearest hexes.
A missed shot may hit a friend or an enemy of the firer standing on the line of fire (FTC 6.5.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game.engine import events as ev
from game.engine.battle.state import (
    BattleState,
    Figure,
)
from game.engine.combat import (
    ACCIDENTAL_DODGE_BONUS,
    Modifier,
    Stance,
    accidental_hit,
    resolve_miss,
    total,
)
from game.engine.creatures import large_distance
from game.engine.equipment import Weapon
from game.engine.hexgrid import (
    Hex,
    distance,
)
from game.engine.lof import LineOfFire, line_of_fire
from game.engine.ranges import range_band


class RangedFire(BattleState):
    """FTC 6.5, 6.5.3: aiming, ranged targets, stray shots."""

    def _aim(self, firer: Figure, target: Figure) -> tuple[Hex, int]:
        """The hex a missile is aimed at and the range (FTC 6.5): a large target is shot at its nearest hex
        with a line of fire (the nearest hex when none has one); range counts between the nearest hexes."""
        if firer.size == 1 and target.size == 1:
            return target.hex, distance(firer.hex, target.hex)
        cells = sorted(target.cells, key=lambda c: (distance(firer.hex, c), c))
        aim = next((c for c in cells if not line_of_fire(self.terrain, firer.hex, c).blocked), cells[0])
        return aim, large_distance(firer.cells, target.cells)

    def _best_range(self, firer: Figure, target: Figure) -> int:
        """The range at the most favourable point of the two figures' attack-phase movement (FTC 6.2: an
        attack declared while the target was in range stays declared, "in range of the first at *any
        point* along the movement of the two characters"): the shortest distance between their hexes over
        every position each took this phase (their current ones outside it)."""
        return min(
            large_distance(self._body(firer, h, f), self._body(target, th, tf))
            for h, f in self._moves_of(firer)
            for th, tf in self._moves_of(target)
        )

    def _ranged_ok(self, firer: Figure, target: Figure, weapon: Weapon) -> bool:
        aim, dist = self._aim(firer, target)
        band = range_band(weapon, dist, target.character.mass_scale)
        if band is None:
            return False
        return not line_of_fire(self.terrain, firer.hex, aim).blocked and not self._magic_sight_blocked(firer.hex, aim)

    def _stray(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        roll: int,
        omods: Sequence[Modifier],
        lof: LineOfFire[str],
        rolls: Mapping[str, int],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """FTC 6.5.3: a missed shot may hit a friend or an enemy of the firer on the line of fire."""
        at_risk = [fid for fid in lof.bystanders_at_risk() if fid not in (att.id, tgt.id)]
        if not at_risk:
            return []
        friends = [f for f in at_risk if self.figures[f].side == att.side]
        enemies = [f for f in at_risk if self.figures[f].side != att.side]
        set_roll = self._set_die("situational", att.id)
        dice, victim, _ = resolve_miss(self.rng, friends, enemies, roll=set_roll)
        out: list[ev.Event] = [ev.StrayShot(att.id, tgt.id, dice.faces, tuple(friends), tuple(enemies), victim)]
        if victim is None:
            return out
        v = self.figures[victim]
        vdecl = self._declarations.get(victim)
        dodge: int | None = None
        dmods: tuple[Modifier, ...] = ()
        if vdecl is not None and att.id in vdecl.dodge and not vdecl.second_move:
            # FTC 6.5.3: only a victim who declared a dodge against the firer dodges. A 1-second bolt is
            # resolved at its declaration (FTC 8.1): such a bystander makes his one roll of the round now,
            # as its target does (``_early_roll``); one who has not declared yet has no dodge.
            vroll = rolls[victim] if victim in rolls else self._early_roll(victim, out)
            dmods = self.dodge_terms(victim, Stance(vdecl.stance))
            dodge = v.character.agility + vroll + total(dmods)
        lands, _ = accidental_hit(att.character.combat_skill(weapon) + roll + total(omods), dodge)
        if dodge is not None:
            shown = (*dmods, Modifier("dodging a stray shot", ACCIDENTAL_DODGE_BONUS))
            out.append(
                ev.StrayDodge(
                    victim, att.id, dodge + ACCIDENTAL_DODGE_BONUS, tuple((m.name, m.value) for m in shown), not lands
                )
            )
        if lands:
            event, wound = self._strike(
                att, v, weapon, roll, omods, None, (), (), -99, self._distance(att, v), "torso", stray=True
            )
            out.append(event)
            if wound:
                wounds.append(wound)
        return out
