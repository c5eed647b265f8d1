"""Seats at the table: who may take which decision, and what each seat may see.

A battle is played from *seats*: one per side, the GM's seat, and watchers who only look. The rules of the
door (``docs/architecture.md``):

* a side's seat acts only for its own figures and its own yields and interrupts;
* GM actions (*Fudge* 4.1, the GM's seat) come only from the GM's seat — a seat of its own (``GM_REFEREE``,
  a GM who plays no side) or the side whose player the battle's setup names as the GM;
* a watcher takes no decision at all.

What a seat may see: every event, except that under the *secret stances* rule option (*Fudge* 4.32) a
declaration stays secret until the reveal — another seat receives that a figure declared, not how
(its stance, target, weapon and dodges are withheld, not merely left undrawn). The GM sees everything, and
the battle's log (the host's save) keeps everything. After the reveal the engine itself emits every
declaration in the open, so the filter needs no memory: it redacts exactly the ``Declared`` events the
engine marked ``hidden``.

Nothing here changes a battle; ``check_seat`` raises ``IllegalAction`` before ``apply`` is reached.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import GM_REFEREE, Battle, Decision, IllegalAction

SIDE = "side"
GM = "gm"
WATCHER = "watcher"
ROLES = (SIDE, GM, WATCHER)

FIGURE_ACTIONS: tuple[type[act.Action], ...] = (
    act.Move,
    act.Hold,
    act.StopChoice,
    act.EscapeFailedChoice,
    act.Declare,
    act.SecondMove,
    act.FollowChoice,
    act.SetStandingOrder,
)
"""Decisions taken for one figure (its ``figure`` field): only that figure's side may take them."""

SIDE_ACTIONS: tuple[type[act.Action], ...] = (act.PassInterrupt, act.RevealStances, act.Yield)
"""Decisions taken for a whole side (its ``side`` field): only that side's seat may take them."""


@dataclass(frozen=True)
class Seat:
    """One place at the table: a side (``role`` "side" with ``side`` its id), the GM, or a watcher."""

    role: str
    side: str | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"a seat is one of {', '.join(ROLES)}, not {self.role!r}")
        if (self.role == SIDE) != bool(self.side):
            raise ValueError("a side's seat names its side, and only a side's seat does")

    @classmethod
    def of_side(cls, side: str) -> Seat:
        """The seat of the player (or computer player) of ``side``."""
        return cls(SIDE, side)

    @classmethod
    def game_master(cls) -> Seat:
        """The GM's own seat (a GM who plays no side)."""
        return cls(GM)

    @classmethod
    def watcher(cls) -> Seat:
        """A seat that watches the table and decides nothing."""
        return cls(WATCHER)

    @property
    def label(self) -> str:
        """The seat as a player names it: the side's id, "gm" or "watch"."""
        return self.side if self.role == SIDE and self.side else ("gm" if self.role == GM else "watch")


def is_gm_seat(battle: Battle, seat: Seat) -> bool:
    """Whether ``seat`` is the battle's GM seat: the GM's own seat when the GM plays no side, or the side
    the setup names as the GM's (*Fudge* 4.1: the GM referees)."""
    gm_of = battle.setup.gm
    if gm_of is None:
        return False
    if seat.role == GM:
        return gm_of == GM_REFEREE
    return seat.role == SIDE and seat.side == gm_of


def seats_of(battle: Battle) -> tuple[Seat, ...]:
    """Every seat that may decide in this battle: one per side, then the GM's own seat when it has one."""
    seats = [Seat.of_side(s) for s in battle.sides]
    if battle.setup.gm == GM_REFEREE:
        seats.append(Seat.game_master())
    return tuple(seats)


def _side_of_figure(battle: Battle, fid: str) -> str | None:
    fig = battle.figures.get(fid) or battle.removed.get(fid)
    return fig.side if fig is not None else None


def owner_of(battle: Battle, action: act.Action) -> str | None:
    """The side a decision is taken for (None for a GM action); an unknown figure raises ``IllegalAction``."""
    if isinstance(action, gm.GMAction):
        return None
    if isinstance(action, FIGURE_ACTIONS):
        fid: str = getattr(action, "figure", "")
        side = _side_of_figure(battle, fid)
        if side is None:
            raise IllegalAction(f"There is no figure {fid!r} in this battle.")
        return side
    if isinstance(action, SIDE_ACTIONS):
        return str(getattr(action, "side", ""))
    raise IllegalAction(f"A {action.kind!r} decision cannot be taken from any seat.")


def check_seat(battle: Battle, action: act.Action, seat: Seat) -> None:
    """Raise ``IllegalAction`` with a sentence when ``seat`` may not take ``action`` (see module docstring).

    Only the seat is checked here; whether the action is legal now is ``apply``'s business (FTC 3–8).
    """
    if seat.role == WATCHER:
        raise IllegalAction("A watcher only watches: take a side's or the GM's seat to decide.")
    if isinstance(action, gm.GMAction):
        if not is_gm_seat(battle, seat):
            raise IllegalAction("Only the GM's seat may take a GM decision.")
        return
    side = owner_of(battle, action)
    if seat.role == GM:
        raise IllegalAction("The GM's seat takes GM decisions; a side's own decisions come from its seat.")
    if side != seat.side:
        whose = battle.sides[side].name if side in battle.sides else repr(side)
        raise IllegalAction(f"That decision is {whose}'s: a seat decides only for its own side.")


def sees_everything(battle: Battle, seat: Seat) -> bool:
    """The GM sees every secret of the table (*Fudge* 4.32 keeps stances from the players, not the GM)."""
    return is_gm_seat(battle, seat)


def _redacted(decl: ev.Declared) -> ev.Declared:
    return replace(decl, stance="", targets=(), dodge=(), weapon="", second_move=False)


def event_for_seat(battle: Battle, event: ev.Event, seat: Seat) -> ev.Event:
    """``event`` as ``seat`` may see it: another side's declaration still secret (*Fudge* 4.32) keeps only
    who declared; every other event is the event itself."""
    if not isinstance(event, ev.Declared) or not event.hidden or sees_everything(battle, seat):
        return event
    if seat.role == SIDE and _side_of_figure(battle, event.figure) == seat.side:
        return event
    return _redacted(event)


def events_for_seat(battle: Battle, events: Iterable[ev.Event], seat: Seat) -> list[ev.Event]:
    """A stream of events as ``seat`` may see it (``event_for_seat`` on each)."""
    return [event_for_seat(battle, e, seat) for e in events]


def is_secret(events: Sequence[ev.Event]) -> bool:
    """Whether a decision's events hold a declaration still secret (*Fudge* 4.32): a hidden ``Declared``."""
    return any(isinstance(e, ev.Declared) and e.hidden for e in events)


def stand_in(action: act.Action) -> act.Action:
    """A secret declaration as another seat may know it before the reveal (*Fudge* 4.32): the same figure
    declares a neutral stance with no target, weapon, dodge, advance or retreat — but the same spell, whose
    casting the engine shows at once (FTC 8.1–8.2: a casting is seen and may be recognised).

    Under secret stances nothing of a declaration acts before the reveal but its casting, so the stand-in
    leaves a copy of the battle exactly as the declaration did, up to the reveal.
    """
    if not isinstance(action, act.Declare):
        return action
    return act.Declare(
        action.figure,
        "neutral",
        spell=action.spell,
        spell_target=action.spell_target,
        spell_hex=action.spell_hex,
    )


@dataclass(frozen=True)
class SeatView:
    """What one seat sees of a battle now: every event so far as that seat may see it, and whom the table
    waits for (``decision``; ``yours`` when it is this seat's to take)."""

    seat: Seat
    events: tuple[ev.Event, ...]
    decision: Decision | None
    yours: bool
    sees_everything: bool


def view(battle: Battle, seat: Seat) -> SeatView:
    """The battle as ``seat`` sees it (see module docstring); the battle itself is not changed."""
    d = battle.decision()
    yours = d is not None and seat.role == SIDE and d.side == seat.side
    return SeatView(
        seat,
        tuple(events_for_seat(battle, battle.events, seat)),
        d,
        yours,
        sees_everything(battle, seat),
    )


def apply_as(battle: Battle, action: act.Action, seat: Seat) -> list[ev.Event]:
    """``apply`` from a seat: the seat is checked first (``check_seat``), then the rules; an illegal decision
    raises ``IllegalAction`` and leaves the battle as it was. Returns every event (the log keeps them all);
    send a seat only ``events_for_seat`` of them."""
    check_seat(battle, action, seat)
    return battle.apply(action)
