"""The start of a round and its initiative order (FTC 3, 4).

Each round begins with lapsed effects cleared and a fresh initiative roll: every able figure rolls
Perception (obscured vision included), highest first, ties broken by coin (FTC 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine import events as ev
from game.engine.battle.state import (
    BattleState,
    Figure,
    effective_perception,
)
from game.engine.dice import coin_flip


class Initiative(BattleState):
    """FTC 3, 4: a new round and its initiative order."""

    # ------------------------------------------------------------------ rounds & initiative
    def _begin_round(self) -> list[ev.Event]:
        self.round += 1
        self._gm_new_round()
        out: list[ev.Event] = [ev.RoundBegan(self.round), ev.PhaseBegan(self.round, "initiative")]
        out.extend(self._magic_round_began())
        for f in self.figures.values():
            f.moved = False
            f.held = False
            f.hexes_moved = 0
            f.allowance = self.movement_allowance_of(f)
        out.extend(self._magic_held_fast("move"))
        if self.round == 1 or not self.options.initiative_once:
            out.extend(self._roll_initiative())
        else:
            self.order = [fid for fid in self.order if self.figures[fid].can_act]
            out.append(ev.InitiativeOrder(tuple(self.order)))
        self.phase = "movement"
        self._due = 0
        self._end_queue = None
        self._passed = set()
        out.append(ev.PhaseBegan(self.round, "movement"))
        out.extend(self._advance_movement())
        return out

    def _roll_initiative(self) -> list[ev.Event]:
        """FTC 4: Speed + 4dF, best first; ties by Speed, Agility, Perception, then a coin."""
        out: list[ev.Event] = []
        able = self.able()
        groups: list[list[Figure]] = []
        if self.options.mook_group_initiative:
            by_side: dict[str, list[Figure]] = {}
            for f in able:
                if f.mook:
                    by_side.setdefault(f.side, []).append(f)
                else:
                    groups.append([f])
            groups.extend(by_side.values())
        else:
            groups = [[f] for f in able]
        Key = tuple[int, int, int, int, float]
        entries: list[tuple[Key, list[Figure]]] = []
        flips = 0
        for group in groups:
            lead = group[0]
            speed = _typical([self._speed_of(f) for f in group])
            roll = self._roll("initiative", *(f.id for f in group))
            result = speed + roll.total
            out.append(
                ev.InitiativeRolled(
                    lead.id, speed, roll.faces, result, tuple(f.id for f in group) if len(group) > 1 else ()
                )
            )
            for f in group:
                f.initiative = result
            # FTC 4: a lumped group is one entry of the order, with its "typical" traits for the ties
            agility = _typical([f.character.agility for f in group])
            perception = _typical([effective_perception(f.character) for f in group])
            entries.append(((result, speed, agility, perception, 0.0), group))
        # the coin decides only among entries tied on every trait
        flips += self._settle_ties(entries)
        self.order = []
        for _, group in sorted(entries, key=lambda e: e[0], reverse=True):
            members = [
                ((0, self._speed_of(f), f.character.agility, effective_perception(f.character), 0.0), [f])
                for f in group
            ]
            if len(members) > 1:
                flips += self._settle_ties(members)  # members in order among themselves, still together
            self.order.extend(m[1][0].id for m in sorted(members, key=lambda e: e[0], reverse=True))
        out.append(ev.InitiativeOrder(tuple(self.order), flips))
        return out

    def _settle_ties(self, entries: list[tuple[tuple[int, int, int, int, float], list[Figure]]]) -> int:
        """FTC 4's coin among entries tied on every trait: writes each one's place into its key's last
        element; returns the coins flipped."""
        tied: dict[tuple[int, int, int, int, float], list[int]] = {}
        for index, (key, _) in enumerate(entries):
            tied.setdefault(key, []).append(index)
        flips = 0
        for same in tied.values():
            if len(same) > 1:
                ids = [entries[i][1][0].id for i in same]
                ranked, n = self._coin_order(ids)
                flips += n
                for i in same:
                    r, s, a, p, _ = entries[i][0]
                    entries[i] = ((r, s, a, p, float(len(ranked) - ranked.index(entries[i][1][0].id))), entries[i][1])
        return flips

    def _coin_order(self, ids: Sequence[str]) -> tuple[list[str], int]:
        """FTC 4's last tie-break: everyone tied flips a coin, heads go first, and each group that is still
        tied flips again until the order is settled (fair to every figure); returns (order, coins flipped)."""
        if len(ids) <= 1:
            return list(ids), 0
        flips = 0
        while True:
            heads: list[str] = []
            tails: list[str] = []
            for fid in ids:
                (heads if coin_flip(self.rng) else tails).append(fid)
                flips += 1
            if heads and tails:
                break
        first, n1 = self._coin_order(heads)
        last, n2 = self._coin_order(tails)
        return first + last, flips + n1 + n2


def _typical(values: Sequence[int]) -> int:
    """A group's "typical" trait (FTC 4): the rounded mean of its members' levels."""
    return round(sum(values) / len(values))
