"""The host's taped battle and a client's copy of it.

The host's battle records every draw of its generator (``TapedBattle``): a ``getrandbits`` result (a die's
few bits) or a ``random()`` value. A client's copy (``Mirror``) is a ``Battle`` of the same setup whose
generator plays those draws back (``ScriptedRandom``) instead of rolling, so the copy rolls what the host
rolled without ever knowing the seed. The copy applies each decision the host accepted, in order — another
side's secret declaration only as its stand-in (``game.engine.seats.stand_in``) until the reveal, when the
host sends the whole log again in the open. The screen and the computer players read the copy; the host's
battle stays the authority.

Faces the GM set by hand (``game.engine.gm.SetDie``) stay behind the GM's screen (*Fudge* 4.1) until rolled:
a seat other than the GM's receives the GM's decision as ``WITHHELD_SET_DIE`` (no figure, roll or faces),
which its copy records without queueing anything, and the roll made with those faces arrives as the draws a
generator would have made to roll them (``TapedBattle.public_tape``), so the copy rolls the same faces.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, BattleSetup, CountingRandom, IllegalAction
from game.engine.dice import FACES

WITHHELD_SET_DIE = gm.SetDie("", "", ())
"""The GM's set die as a seat other than the GM's receives it: that a GM decision was taken, nothing more."""


def is_withheld(action: act.Action) -> bool:
    """Whether ``action`` is the GM's set die with its figure, roll and faces withheld."""
    return isinstance(action, gm.SetDie) and not action.faces


def draws_rolling(faces: tuple[int, ...]) -> list[int]:
    """The ``getrandbits`` draws with which the engine's 4dF roll (``dice.roll_4df``: one ``choice`` of
    ``FACES`` a die) shows ``faces``: each die's index in ``FACES``."""
    return [FACES.index(f) for f in faces]


class TapingRandom(CountingRandom):
    """The battle's generator (of either kind, ``game.engine.generator``), also keeping every value it gave
    (``tape``)."""

    def __init__(self, inner: CountingRandom) -> None:
        self.inner = inner
        self.tape: list[int | float] = []
        self.public: list[int | float] = []
        """The tape as sent to a seat other than the GM's (``TapedBattle.public_tape``)."""
        super().__init__(0)
        self.draws = inner.draws

    def random(self) -> float:
        value = self.inner.random()
        self.draws += 1
        self.tape.append(value)
        self.public.append(value)
        return value

    def getrandbits(self, k: int) -> int:
        value = self.inner.getrandbits(k)
        self.draws += 1
        self.tape.append(value)
        self.public.append(value)
        return value


class TapedBattle(Battle):
    """A ``Battle`` whose generator keeps a tape of its draws (``tape``), from its first initiative roll, and
    the same tape as a seat other than the GM's is sent it (``public_tape``: a roll made with faces the GM set
    by hand is there the draws that roll those faces)."""

    _taped: TapingRandom

    def __init__(self, setup: BattleSetup) -> None:
        super().__init__(setup)
        # a roll made with faces the GM set by hand goes on the public tape as the draws that roll them
        self.watch_set_rolls(lambda faces: self._taped.public.extend(draws_rolling(faces)))

    @property
    def rng(self) -> TapingRandom:
        """The battle's generator (a ``TapingRandom`` in the seeded state the engine gave it)."""
        return self._taped

    @rng.setter
    def rng(self, value: CountingRandom) -> None:
        self._taped = TapingRandom(value)

    @property
    def tape(self) -> list[int | float]:
        """Every value drawn so far, in order."""
        return self._taped.tape

    @property
    def public_tape(self) -> list[int | float]:
        """``tape`` with each roll the GM set by hand in its place, as the draws that roll its faces (the
        copy of a seat that never learns the faces rolls them from there)."""
        return self._taped.public


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

    def apply(self, action: act.Action) -> list[ev.Event]:
        """Apply a decision as the host sent it; the GM's set die with its faces withheld is only recorded
        (nothing is queued: its roll comes with the host's draws, *Fudge* 4.1)."""
        if not is_withheld(action):
            return super().apply(action)
        if self.over:
            raise IllegalAction("The battle is over.")
        self.log.append(action)
        self.rolled_at.append(False)
        self.digests.append(ev.events_digest([]))
        return []


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
