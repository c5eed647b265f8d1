"""The host's taped battle and a client's copy of it.

The host's battle records every draw of its generator (``TapedBattle``): a ``getrandbits`` result (a die's
few bits) or a ``random()`` value. A client's copy (``Mirror``) is a ``Battle`` of the same setup whose
generator plays those draws back (``ScriptedRandom``) instead of rolling, so the copy rolls what the host
rolled without ever knowing the seed. The copy applies each decision the host accepted, in order — another
side's secret declaration only as its stand-in (``game.engine.seats.stand_in``) until the reveal, when the
host sends the whole log again in the open. The screen and the computer players read the copy; the host's
battle stays the authority.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import Battle, BattleSetup, CountingRandom


class TapingRandom(CountingRandom):
    """The battle's generator, also keeping every value it gave (``tape``)."""

    def __init__(self, seed: int = 0) -> None:
        self.tape: list[int | float] = []
        super().__init__(seed)

    def random(self) -> float:
        value = super().random()
        self.tape.append(value)
        return value

    def getrandbits(self, k: int) -> int:
        value = super().getrandbits(k)
        self.tape.append(value)
        return value


class TapedBattle(Battle):
    """A ``Battle`` whose generator keeps a tape of its draws (``tape``), from its first initiative roll."""

    _taped: TapingRandom

    @property
    def rng(self) -> TapingRandom:
        """The battle's generator (a ``TapingRandom`` in the seeded state the engine gave it)."""
        return self._taped

    @rng.setter
    def rng(self, value: CountingRandom) -> None:
        taped = TapingRandom()
        taped.setstate(value.getstate())
        taped.draws = value.draws
        self._taped = taped

    @property
    def tape(self) -> list[int | float]:
        """Every value drawn so far, in order."""
        return self._taped.tape


class DesyncError(RuntimeError):
    """The copy asked for a draw the host's tape does not hold: it no longer follows the host's battle."""


class ScriptedRandom(CountingRandom):
    """A generator that plays back the host's draws instead of rolling."""

    def __init__(self) -> None:
        self.script: deque[int | float] = deque()
        super().__init__(0)

    def feed(self, values: Iterable[int | float]) -> None:
        """Queue the draws the host made."""
        self.script.extend(values)

    def _next(self) -> int | float:
        if not self.script:
            raise DesyncError("the copy of the battle drew more dice than the host rolled")
        self.draws += 1
        return self.script.popleft()

    def random(self) -> float:
        value = self._next()
        if not isinstance(value, float):
            raise DesyncError("the copy of the battle drew a coin where the host drew a die")
        return value

    def getrandbits(self, k: int) -> int:
        value = self._next()
        if not isinstance(value, int) or value < 0 or value.bit_length() > k:
            raise DesyncError("the copy of the battle drew a die where the host drew something else")
        return value


class MirrorBattle(Battle):
    """A ``Battle`` whose dice come from a ``ScriptedRandom`` (the setup's seed is never used)."""

    def __init__(self, setup: BattleSetup, script: ScriptedRandom) -> None:
        self._script = script
        super().__init__(setup)

    @property
    def rng(self) -> ScriptedRandom:
        """The generator playing back the host's draws."""
        return self._script

    @rng.setter
    def rng(self, value: CountingRandom) -> None:
        pass  # the engine's own seeded generator is not used: the dice come from the host


class Mirror:
    """A client's copy of the host's battle: rebuilt from the setup and the log as this seat may know it."""

    def __init__(
        self,
        setup: BattleSetup,
        opening: Sequence[int | float],
        steps: Sequence[tuple[act.Action, Sequence[int | float]]],
    ) -> None:
        self.setup = setup
        script = ScriptedRandom()
        script.feed(opening)
        self.battle = MirrorBattle(setup, script)
        for action, draws in steps:
            self.step(action, draws)

    def step(self, action: act.Action, draws: Sequence[int | float]) -> list[ev.Event]:
        """Apply one decision the host accepted, with the draws it made; ``DesyncError`` when it does not
        follow (the client then asks the host for the battle as it stands)."""
        script = self.battle.rng
        script.feed(draws)
        try:
            events = self.battle.apply(action)
        except Exception as exc:  # the copy cannot follow the host: a resync repairs it
            raise DesyncError(f"the copy could not follow the host's decision {action.kind!r}: {exc}") from None
        if script.script:
            raise DesyncError("the copy of the battle drew fewer dice than the host rolled")
        return events
