"""Seats at the table: who may take which decision, and what each seat may see.

A battle is played from *seats*: one per side, the GM's seat, and watchers who only look. The rules of the
door (``docs/architecture.md``):

* a side's seat acts only for its own figures and its own yields and interrupts;
* GM actions (*Fudge* 4.1, the GM's seat) come only from the GM's seat — a seat of its own (``GM_REFEREE``,
  a GM who plays no side) or the side whose player the battle's setup names as the GM;
* a watcher takes no decision at all.

What a seat may see: every event, except that under the *secret stances* rule option (*Fudge* 4.32) a
declaration stays secret until the reveal — another seat receives that a figure declared, not how
(its stance, targets, weapon, dodges — and a stun, a pulled blow, the attackers it ignores — are withheld,
not merely left undrawn). The GM sees everything, and
the battle's log (the host's save) keeps everything. After the reveal the engine itself emits every
declaration in the open, so the filter needs no memory: it redacts exactly the ``Declared`` events the
engine marked ``hidden``.

Nothing here changes a battle. Who may take which decision (``Seat``, ``check_seat``) lives with the battle's
door, in ``game.engine.battle.seats``, and is importable from here as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import Battle, Decision, apply
from game.engine.battle.seats import (
    FIGURE_ACTIONS,
    GM,
    ROLES,
    SIDE,
    SIDE_ACTIONS,
    WATCHER,
    Seat,
    check_seat,
    is_gm_seat,
    owner_of,
    seat_of_gm,
    seat_taking,
    seats_of,
    side_of_figure,
)


def sees_everything(battle: Battle, seat: Seat) -> bool:
    """The GM sees every secret of the table (*Fudge* 4.32 keeps stances from the players, not the GM)."""
    return is_gm_seat(battle, seat)


def _redacted(decl: ev.Declared) -> ev.Declared:
    return replace(
        decl, stance="", targets=(), dodge=(), weapon="", second_move=False, stun=False, max_wound=None, ignore=()
    )


def event_for_seat(battle: Battle, event: ev.Event, seat: Seat) -> ev.Event:
    """``event`` as ``seat`` may see it: another side's declaration still secret (*Fudge* 4.32) keeps only
    who declared; every other event is the event itself."""
    if not isinstance(event, ev.Declared) or not event.hidden or sees_everything(battle, seat):
        return event
    if seat.role == SIDE and side_of_figure(battle, event.figure) == seat.side:
        return event
    return _redacted(event)


def events_for_seat(battle: Battle, events: Iterable[ev.Event], seat: Seat) -> list[ev.Event]:
    """A stream of events as ``seat`` may see it (``event_for_seat`` on each); the events only the GM sees
    (``events.is_gm_only``: faces set by hand for a coming roll, *Fudge* 4.1) are left out for other seats."""
    gm_seat = sees_everything(battle, seat)
    return [event_for_seat(battle, e, seat) for e in events if gm_seat or not ev.is_gm_only(e)]


def set_roll_marks(battle: Battle, seat: Seat) -> dict[int, str]:
    """For the GM's own view: index in ``battle.events`` -> a note on each roll made with faces the GM set by
    hand ("set by hand: combat [+ + 0 0]"); empty for every other seat (the roll reads as any roll)."""
    if not sees_everything(battle, seat):
        return {}
    faces = {-1: "-", 0: "0", 1: "+"}
    return {
        i: f"set by hand: {s.purpose} [{' '.join(faces.get(f, str(f)) for f in s.faces)}]"
        for i, s in battle.set_rolls.items()
    }


def sees_more(battle: Battle, seat: Seat, other: Seat) -> bool:
    """Whether ``seat`` may see now something ``other`` may not (the question a hotseat hand-off asks before
    it shows ``seat``'s view with ``other``'s player still at the screen): a declaration still secret
    (*Fudge* 4.32, made since the last reveal) that ``seat`` sees whole and ``other`` does not, or — for the
    GM's seat — the GM's hand (*Fudge* 4.1: faces set by hand for a coming roll, rolls marked as set by hand).
    """
    if seat == other or sees_everything(battle, other):
        return False
    if sees_everything(battle, seat) and (battle.set_rolls or any(ev.is_gm_only(e) for e in battle.events)):
        return True
    since = max((i for i, e in enumerate(battle.events) if isinstance(e, ev.Revealed)), default=-1)
    return any(
        event_for_seat(battle, e, seat) == e != event_for_seat(battle, e, other)
        for e in battle.events[since + 1 :]
        if isinstance(e, ev.Declared) and e.hidden
    )


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
    return apply(battle, action, seat)


__all__ = [
    "FIGURE_ACTIONS",
    "GM",
    "ROLES",
    "SIDE",
    "SIDE_ACTIONS",
    "WATCHER",
    "Seat",
    "SeatView",
    "apply_as",
    "check_seat",
    "event_for_seat",
    "events_for_seat",
    "is_gm_seat",
    "is_secret",
    "owner_of",
    "seat_of_gm",
    "seat_taking",
    "seats_of",
    "sees_everything",
    "sees_more",
    "side_of_figure",
    "stand_in",
    "view",
]
