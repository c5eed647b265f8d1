"""The seat at the battle's door: who may take which decision (*Fudge* 4.1; ``docs/architecture.md``).

A battle is played from *seats*: one per side, the GM's seat, and watchers who only look.

* a side's seat acts only for its own figures and its own yields and interrupts;
* GM actions (*Fudge* 4.1, the GM's seat) come only from the GM's seat — a seat of its own (``GM_REFEREE``,
  a GM who plays no side) or the side whose player the battle's setup names as the GM;
* a watcher takes no decision at all.

``check_seat`` raises ``IllegalAction`` with a sentence before the battle is touched; the package's public
``apply(battle, action, seat)`` runs it first. What each seat may *see* is ``game.engine.seats``.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import actions as act
from game.engine import gm
from game.engine.battle.state import GM_REFEREE, BattleState, IllegalAction

SIDE = "side"
GM = "gm"
WATCHER = "watcher"
ROLES = (SIDE, GM, WATCHER)

FIGURE_ACTIONS: tuple[type[act.Action], ...] = tuple(
    t for t in act.PLAYER_ACTION_TYPES if issubclass(t, act.FigureAction)
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


def is_gm_seat(battle: BattleState, seat: Seat) -> bool:
    """Whether ``seat`` is the battle's GM seat: the GM's own seat when the GM plays no side, or the side
    the setup names as the GM's (*Fudge* 4.1: the GM referees)."""
    gm_of = battle.setup.gm
    if gm_of is None:
        return False
    if seat.role == GM:
        return gm_of == GM_REFEREE
    return seat.role == SIDE and seat.side == gm_of


def seats_of(battle: BattleState) -> tuple[Seat, ...]:
    """Every seat that may decide in this battle: one per side, then the GM's own seat when it has one."""
    seats = [Seat.of_side(s) for s in battle.sides]
    if battle.setup.gm == GM_REFEREE:
        seats.append(Seat.game_master())
    return tuple(seats)


def side_of_figure(battle: BattleState, fid: str) -> str | None:
    """The side of a figure of the battle (on the board or removed), None for an unknown id."""
    fig = battle.figures.get(fid) or battle.removed.get(fid)
    return fig.side if fig is not None else None


def owner_of(battle: BattleState, action: act.Action) -> str | None:
    """The side a decision is taken for (None for a GM action); an unknown figure raises ``IllegalAction``."""
    if isinstance(action, gm.GMAction):
        return None
    if isinstance(action, act.FigureAction):
        side = side_of_figure(battle, action.figure)
        if side is None:
            raise IllegalAction(f"There is no figure {action.figure!r} in this battle.")
        return side
    if isinstance(action, SIDE_ACTIONS):
        return str(getattr(action, "side", ""))
    raise IllegalAction(f"A {action.kind!r} decision cannot be taken from any seat.")


def check_seat(battle: BattleState, action: act.Action, seat: Seat) -> None:
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


def seat_of_gm(battle: BattleState) -> Seat | None:
    """The GM's seat of this battle (*Fudge* 4.1): the GM's own seat for a referee, the seat of the side whose
    player is the GM, or None when the battle has no GM."""
    gm_of = battle.setup.gm
    if gm_of is None:
        return None
    return Seat.game_master() if gm_of == GM_REFEREE else Seat.of_side(gm_of)


def seat_taking(battle: BattleState, action: act.Action) -> Seat:
    """The seat a recorded decision was taken from: a GM decision's is the GM's seat, any other's the seat of
    the side it is taken for (a battle's log keeps decisions the door already checked, so replaying it
    sends each from this seat). Raises ``IllegalAction`` for a GM decision in a battle without a GM."""
    if isinstance(action, gm.GMAction):
        seat = seat_of_gm(battle)
        if seat is None:
            raise IllegalAction("This battle has no GM seat, so it cannot take a GM decision.")
        return seat
    side = owner_of(battle, action)
    if not side:
        raise IllegalAction(f"A {action.kind!r} decision names no side to take it.")
    return Seat.of_side(side)
