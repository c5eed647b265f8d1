"""The ``novice`` computer player: the tactical player with a beginner's slips (FTC 5–6).

Now and then it forgets to face the enemy after moving, takes a neutral stance where a seasoned player
would press or guard, strikes the first enemy in reach rather than the best, and never holds its move.
Its slips come from its own seeded generator, so a battle replays the same way for the same seed.
"""

from __future__ import annotations

import time

from game.engine import actions as act
from game.engine.ai import TacticalPlayer
from game.engine.battle import Battle, Decision, Reason

SLIP = 0.3
"""The chance that a decision is made the beginner's way."""


class NovicePlayer(TacticalPlayer):
    """``TacticalPlayer`` with deliberate, seeded slips (see the module's docstring)."""

    def __call__(self, battle: Battle, d: Decision) -> act.Action:
        """Pick an action for ``d`` as the tactical player does, slipping with chance ``SLIP``."""
        slip = self.rng.random() < SLIP
        if d.reason == Reason.MOVE and d.figure is not None:
            # a beginner never holds its move (FTC 5): it moves as soon as it is its turn
            action = self._move(battle, d.figure, time.perf_counter())
            steps = action.steps
            if slip and len(steps) > 1 and steps[-1][0] == steps[-2][0]:
                return act.Move(action.figure, steps[:-1])  # forgets its last turn toward the enemy
            return action
        if d.reason == Reason.DECLARE and d.figure is not None and slip:
            opts = battle.declare_options(d.figure)
            weapons: dict[str, list[str]] = opts["weapons"]  # type: ignore[assignment]
            for w, ts in sorted(weapons.items()):
                if ts:
                    return act.Declare(d.figure, "neutral", (ts[0],), w)  # the first enemy in reach, neutral
        return super().__call__(battle, d)


__all__ = ["SLIP", "NovicePlayer"]
