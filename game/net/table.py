"""The host's table without sockets: who sits where, every decision checked and applied, what each seat is sent.

``Table`` is the one authority of a networked battle. It holds the host's ``TapedBattle`` and its session
(for the save), the seats (one per side, the GM's own seat when the GM plays no side, any number of
watchers) and who holds them. Each call takes one message a connection sent and returns the frames to send
(``Out``); a message that breaks the protocol raises ``ProtocolError`` — the caller sends its sentence and
closes that connection — and leaves the battle untouched. A seat's holder gets a token at join; the token
(compared in constant time, kept on disk only as its hash) lets the holder take the seat back after a lost
connection, and nobody else can take it meanwhile. The host's computer can play an empty seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine import actions as act
from game.engine import codec, gm, record
from game.engine import events as ev
from game.engine.ai import Player
from game.engine.battle import IllegalAction, apply, seat_taking
from game.engine.players import make_player
from game.engine.seats import (
    Seat,
    check_seat,
    events_for_seat,
    is_gm_seat,
    is_secret,
    seats_of,
    sees_everything,
    stand_in,
)
from game.net.guard import clip, echo
from game.net.mirror import WITHHELD_SET_DIE, TapedBattle
from game.net.protocol import (
    GM,
    WATCH,
    ChatLine,
    Decide,
    Hello,
    Look,
    Message,
    Ping,
    ProtocolError,
    decision_to_json,
    encode,
)
from game.net.wire import setup_to_wire, tape_to_wire
from game.session import Session

MAX_WATCHERS = 16


@dataclass(frozen=True)
class Out:
    """A frame to send to one connection (``close``: then close that connection)."""

    conn: Hashable
    text: str
    close: bool = False


@dataclass
class Holder:
    """Who holds a side's or the GM's seat: a name, the token's hash, the connection (None: away)."""

    name: str
    token_hash: str
    conn: Hashable | None = None


@dataclass
class Step:
    """One accepted decision: the action, the draws it made, its events (all of them: the host's), and its
    draws as a seat other than the GM's is sent them (``TapedBattle.public_tape``: a roll of faces the GM set
    by hand is there the draws that roll them)."""

    action: act.Action
    draws: list[int | float]
    events: list[ev.Event]
    public: list[int | float]


@dataclass
class SeatView:
    """The log as one seat may know it, kept as JSON text and grown one step at a time (so a ``state`` or a
    ``step`` costs the host a join of strings, not the whole log encoded again): each step's action, its
    draws and its events, as that seat is sent them. A reveal (*Fudge* 4.32) opens earlier steps,
    so the views are then built again (``Table.views`` is emptied)."""

    actions: list[str] = field(default_factory=list)
    draws: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    """Per step: its events as this seat sees them, as the inside of a JSON list (maybe empty)."""
    opening: str = ""
    """The events before the first decision (the opening initiative), as the inside of a JSON list."""


def _json(value: Any) -> str:
    return codec.encode(value).decode()


def _with_raw(text: str, **raw: str) -> str:
    """A message's text (one JSON object) with more fields whose values are JSON text already."""
    return text[:-1] + "".join(f',"{key}":{value}' for key, value in raw.items()) + "}"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _label_seat(label: str) -> Seat:
    if label == GM:
        return Seat.game_master()
    if label == WATCH:
        return Seat.watcher()
    return Seat.of_side(label)


@dataclass
class Table:
    """A battle at a networked table (module docstring)."""

    session: Session
    battle: TapedBattle
    password: str = ""
    save_path: Path | None = None
    say: Callable[[str], None] = print
    opening: list[int | float] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    holders: dict[str, Holder] = field(default_factory=dict)
    computers: dict[str, Player] = field(default_factory=dict)
    watchers: dict[Hashable, str] = field(default_factory=dict)
    conns: dict[Hashable, Seat] = field(default_factory=dict)
    secret: dict[int, str] = field(default_factory=dict)
    """Log positions of declarations still secret (*Fudge* 4.32), with the side that made them."""
    views: dict[str, SeatView] = field(default_factory=dict)
    """Each seat's view of the log as JSON text, by seat label (``SeatView``)."""
    setup_text: str = ""
    """The setup as sent (``setup_to_wire``), encoded once: the battle's setup never changes."""

    # ------------------------------------------------------------------ building
    @classmethod
    def start(
        cls,
        session: Session,
        *,
        password: str = "",
        save_path: Path | None = None,
        say: Callable[[str], None] = print,
        token_hashes: Mapping[str, str] | None = None,
    ) -> Table:
        """A table for a session: its battle is rebuilt as a ``TapedBattle`` (the same setup, seed and log,
        every roll checked against the session's) so every draw can be played back by the clients."""
        battle = TapedBattle(session.battle.setup)
        opening = list(battle.tape)
        table = cls(session, battle, password, save_path, say, opening)
        old = session.battle
        for i, action in enumerate(old.log):
            mark, public = len(battle.tape), len(battle.public_tape)
            events = apply(battle, action, seat_taking(battle, action))
            if i < len(old.digests) and battle.digests[-1] != old.digests[i]:
                raise record.SaveError(f"decision {i + 1} ({action.kind}) does not replay with the same dice")
            table._record(Step(action, battle.tape[mark:], events, battle.public_tape[public:]))
        session.battle = battle
        for label, digest in (token_hashes or {}).items():
            if label == GM or label in battle.sides:
                table.holders[label] = Holder("(away)", str(digest))
        return table

    def _record(self, step: Step) -> None:
        index = len(self.steps)
        self.steps.append(step)
        if any(isinstance(e, ev.Revealed) for e in step.events):
            self.secret.clear()  # the last declaration and the reveal came together: all are open now
            self.views.clear()  # the steps standing in for declarations are open now: every view anew
        elif is_secret(step.events):
            side = self.battle.figures[getattr(step.action, "figure", "")].side
            self.secret[index] = side

    # ------------------------------------------------------------------ what a seat is sent
    def seat_labels(self) -> list[str]:
        """The seats of this battle that decide: each side's id, then "gm" when the GM plays no side."""
        return [s.label for s in seats_of(self.battle)]

    def seats_info(self) -> list[dict[str, Any]]:
        """Who sits where (for every client's seat list)."""
        out = []
        for label in self.seat_labels():
            h = self.holders.get(label)
            out.append(
                {
                    "seat": label,
                    "name": h.name if h else "",
                    "present": bool(h and h.conn is not None),
                    "computer": label in self.computers,
                }
            )
        out.extend({"seat": WATCH, "name": name, "present": True, "computer": False} for name in self.watchers.values())
        return out

    def _safe_action(self, index: int, seat: Seat) -> act.Action:
        step = self.steps[index]
        if isinstance(step.action, gm.SetDie) and not is_gm_seat(self.battle, seat):
            return WITHHELD_SET_DIE  # the GM's faces are the GM's alone until rolled (Fudge 4.1)
        owner = self.secret.get(index)
        if owner is None or owner == seat.side or sees_everything(self.battle, seat):
            return step.action
        return stand_in(step.action)

    def _safe_draws(self, index: int, seat: Seat) -> list[int | float]:
        """A step's draws as ``seat`` is sent them: the GM's seat the host's own, any other seat the draws that
        roll the faces the GM set (so its copy rolls them without ever holding the GM's decision)."""
        step = self.steps[index]
        return tape_to_wire(step.draws if is_gm_seat(self.battle, seat) else step.public)

    def _progress(self) -> dict[str, Any]:
        b = self.battle
        return {"decision": decision_to_json(b.decision()), "over": b.over, "winner": b.winner, "round": b.round}

    def view(self, seat: Seat) -> SeatView:
        """``seat``'s view of the log, brought up to the last step (``SeatView``)."""
        view = self.views.get(seat.label)
        if view is None:
            view = self.views[seat.label] = SeatView()
            opening = len(self.battle.events) - sum(len(step.events) for step in self.steps)
            view.opening = self._events_text(self.battle.events[:opening], seat)
        for i in range(len(view.actions), len(self.steps)):
            view.actions.append(_json(self._safe_action(i, seat)))
            view.draws.append(_json(self._safe_draws(i, seat)))
            view.events.append(self._events_text(self.steps[i].events, seat))
        return view

    def _events_text(self, events: list[ev.Event], seat: Seat) -> str:
        return ",".join(_json(e.to_json()) for e in events_for_seat(self.battle, events, seat))

    def state_for(self, seat: Seat) -> str:
        """The battle as it stands for ``seat``: the setup (no seed), the log as this seat may know it with
        the dice drawn, and every event as this seat may see it."""
        view = self.view(seat)
        if not self.setup_text:
            self.setup_text = _json(setup_to_wire(self.battle.setup))
        map_file = str(self.session.setup_data.get("map", ""))
        text = encode(
            "state",
            seat=seat.label,
            map={"name": Path(map_file).name, "sha256": str(self.session.setup_data.get("map_sha256", ""))},
            opening=tape_to_wire(self.opening),
            seats=self.seats_info(),
            **self._progress(),
        )
        events = ",".join(part for part in (view.opening, *view.events) if part)
        steps = ",".join(f"[{a},{d}]" for a, d in zip(view.actions, view.draws, strict=True))
        return _with_raw(text, setup=self.setup_text, steps=f"[{steps}]", events=f"[{events}]")

    def _broadcast_seats(self) -> list[Out]:
        text = encode("seats", seats=self.seats_info(), **self._progress())
        return [Out(c, text) for c in self.conns]

    # ------------------------------------------------------------------ messages
    def receive(self, conn: Hashable, msg: Message) -> list[Out]:
        """One message a connection sent, decoded against its schema (``protocol.parse_client``): the frames to
        send in answer (``ProtocolError`` when it breaks the protocol: the caller sends its sentence and closes
        the connection)."""
        if isinstance(msg, Hello):
            return self.hello(conn, msg)
        if isinstance(msg, Ping):
            return [Out(conn, encode("pong", n=msg.n))]
        if isinstance(msg, Decide):
            return self.decide(conn, msg)
        if isinstance(msg, ChatLine):
            return self.chat(conn, msg)
        if isinstance(msg, Look):
            return self.look(conn, msg)
        return self.sync(conn)

    def hello(self, conn: Hashable, msg: Hello) -> list[Out]:
        """A client asks for a seat; raises ``ProtocolError`` (a wrong password, a taken or unknown seat)."""
        self._check_password(conn, msg.password)
        name = msg.name.strip() or "someone"
        wanted = msg.seat
        token = msg.token
        out: list[Out] = []
        if wanted == WATCH:
            if len(self.watchers) >= MAX_WATCHERS:
                raise ProtocolError(f"This table has room for {MAX_WATCHERS} watchers; all are taken.")
            self.watchers[conn] = name
            self.conns[conn] = Seat.watcher()
            self.say(f"{name} watches")
            out.append(Out(conn, encode("welcome", seat=WATCH, token=None, name=name)))
        else:
            labels = self.seat_labels()
            if not wanted:
                free = [s for s in labels if s not in self.holders and s not in self.computers]
                if not free:
                    raise ProtocolError("Every seat at this table is taken; join with --seat watch to watch.")
                wanted = free[0]
            if wanted not in labels:
                seats = ", ".join(labels)
                raise ProtocolError(f"This table has no seat {echo(wanted)}; its seats are {seats} and watch.")
            holder = self.holders.get(wanted)
            if holder is not None:
                if not isinstance(token, str) or not hmac.compare_digest(_hash(token), holder.token_hash):
                    raise ProtocolError(f"The seat {wanted!r} is taken; only its holder's token takes it back.")
                if holder.conn is not None:  # the holder reconnects while the old connection lingers
                    out.append(
                        Out(holder.conn, encode("error", reason="Your seat was taken back with its token."), True)
                    )
                    self.conns.pop(holder.conn, None)
                holder.conn, holder.name = conn, name
                self.say(f"{name} rejoins the seat {wanted}")
            else:
                if wanted in self.computers:
                    raise ProtocolError(f"The host's computer plays {wanted!r}; choose another seat.")
                token = secrets.token_urlsafe(24)
                self.holders[wanted] = Holder(name, _hash(token), conn)
                self.say(f"{name} takes the seat {wanted}")
                self.save()
            self.computers.pop(wanted, None)
            self.conns[conn] = _label_seat(wanted)
            out.append(Out(conn, encode("welcome", seat=wanted, token=token, name=name)))
        out.append(Out(conn, self.state_for(self.conns[conn])))
        out.extend(o for o in self._broadcast_seats() if o.conn != conn)
        return out

    def _check_password(self, conn: Hashable, password: str) -> None:
        if conn in self.conns:
            raise ProtocolError("This connection has a seat already.")
        if not hmac.compare_digest(password.encode(), self.password.encode()):
            raise ProtocolError("Wrong table password: ask the host for it.")

    def look(self, conn: Hashable, msg: Look) -> list[Out]:
        """A client not yet seated asks who sits where (with the table's password, as for ``hello``): the
        battle's title and each seat by name, whether someone holds it (and is connected) or the host's
        computer plays it; raises ``ProtocolError`` for a wrong password."""
        self._check_password(conn, msg.password)
        sides = self.battle.sides
        seats = []
        for label in self.seat_labels():
            h = self.holders.get(label)
            seats.append(
                {
                    "seat": label,
                    "side": sides[label].name if label in sides else "The GM",
                    "name": h.name if h else "",
                    "held": h is not None,
                    "present": bool(h and h.conn is not None),
                    "computer": label in self.computers,
                }
            )
        title = self.battle.setup.title or "A battle"
        return [Out(conn, encode("table", title=title, seats=seats, watch=MAX_WATCHERS - len(self.watchers)))]

    def leave(self, conn: Hashable) -> list[Out]:
        """A connection closed: its seat waits for its holder (or the host's computer)."""
        seat = self.conns.pop(conn, None)
        if seat is None:
            return []
        if seat.role == "watcher":
            self.say(f"{self.watchers.pop(conn, 'a watcher')} stops watching")
        else:
            holder = self.holders.get(seat.label)
            if holder is not None and holder.conn == conn:
                holder.conn = None
                self.say(f"{holder.name} left the seat {seat.label} (it waits for them)")
        return self._broadcast_seats()

    def decide(self, conn: Hashable, msg: Decide) -> list[Out]:
        """A decision from a seat, decoded completely against the decisions' schema on arrival (the same a save's
        decisions are read by, so the log never holds one its save could not): the seat it claims and its right
        to the decision are checked (else ``ProtocolError``), then the rules (an ``IllegalAction`` is answered
        ``refused``, the battle unchanged)."""
        seat = self._seat(conn)
        if msg.seat != seat.label:
            raise ProtocolError(f"This connection sits at {seat.label!r}; it cannot decide for {echo(msg.seat)}.")
        action = msg.action
        try:
            check_seat(self.battle, action, seat)
        except IllegalAction as exc:
            raise ProtocolError(str(exc)) from None
        try:
            return self._apply(action, seat)
        except IllegalAction as exc:
            return [Out(conn, encode("refused", seq=msg.seq, reason=clip(str(exc))))]

    def chat(self, conn: Hashable, msg: ChatLine) -> list[Out]:
        """A chat line, said to the whole table with who said it."""
        seat = self._seat(conn)
        name = self.watchers.get(conn) or (self.holders[seat.label].name if seat.label in self.holders else "?")
        text = encode("chat", seat=seat.label, name=name, text=msg.text)
        return [Out(c, text) for c in self.conns]

    def sync(self, conn: Hashable) -> list[Out]:
        """A client whose copy lost its way asks for the battle as it stands."""
        return [Out(conn, self.state_for(self._seat(conn)))]

    def _seat(self, conn: Hashable) -> Seat:
        seat = self.conns.get(conn)
        if seat is None:
            raise ProtocolError("Say hello first: a connection takes a seat before anything else.")
        return seat

    # ------------------------------------------------------------------ decisions
    def _apply(self, action: act.Action, seat: Seat) -> list[Out]:
        try:
            act.check_action(action)  # the host's own players' decisions too: the save must hold every one
        except codec.CodecError as exc:
            raise IllegalAction(f"That decision cannot be saved: {exc.problem}.") from None
        mark, public = len(self.battle.tape), len(self.battle.public_tape)
        events = apply(self.battle, action, seat)  # the door: the seat, then the rules
        step = Step(action, self.battle.tape[mark:], events, self.battle.public_tape[public:])
        self._record(step)
        self.save()
        self._tell(seat, step)
        return self._send_step(len(self.steps) - 1)

    def _send_step(self, index: int) -> list[Out]:
        step = self.steps[index]
        if any(isinstance(e, ev.Revealed) for e in step.events):
            # the reveal: every declaration is open now, so each copy is rebuilt from the open log
            return [Out(c, self.state_for(seat)) for c, seat in self.conns.items()]
        texts: dict[str, str] = {}
        out = []
        for c, seat in self.conns.items():
            text = texts.get(seat.label)
            if text is None:
                view = self.view(seat)
                text = texts[seat.label] = _with_raw(
                    encode("step", index=index, **self._progress()),
                    action=view.actions[index],
                    draws=view.draws[index],
                    events=f"[{view.events[index]}]",
                )
            out.append(Out(c, text))
        return out

    def hand_to_computer(self, label: str, kind: str = "tactical") -> list[Out]:
        """The host's computer plays the seat ``label`` (a side) until its holder comes back."""
        if label not in self.battle.sides:
            raise ValueError(f"there is no side {label!r} at this table; sides: {', '.join(self.battle.sides)}")
        holder = self.holders.get(label)
        if holder is not None and holder.conn is not None:
            raise ValueError(f"the seat {label!r} is held by {holder.name}")
        self.computers[label] = make_player(kind, list(self.battle.sides).index(label) + 1)
        self.say(f"the host's computer ({kind}) plays the seat {label}")
        return self._broadcast_seats()

    def free_seat(self, label: str) -> list[Out]:
        """The GM frees a held seat (its holder's game crashed for good, or a player left the table): the
        holder's token no longer takes it back, a connection still at it is closed with a sentence, and anyone
        may take it (the host's computer stops standing in for the holder); ``ValueError`` with a sentence
        when ``label`` is no seat or nobody holds it."""
        if label not in self.seat_labels():
            raise ValueError(f"there is no seat {label!r} at this table; its seats are {', '.join(self.seat_labels())}")
        holder = self.holders.pop(label, None)
        if holder is None:
            raise ValueError(f"nobody holds the seat {label}: it is free already")
        out = []
        if holder.conn is not None:
            reason = "The host freed your seat: join the table again to take a free seat."
            out.append(Out(holder.conn, encode("error", reason=reason), close=True))
            self.conns.pop(holder.conn, None)
        self.computers.pop(label, None)
        self.say(f"the seat {label} is free (it was {holder.name}'s; that token no longer takes it back)")
        self.save()
        return out + self._broadcast_seats()

    def held_seats(self) -> list[tuple[str, str, bool]]:
        """The seats someone holds: (seat, holder's name, whether connected now)."""
        return [(label, h.name, h.conn is not None) for label, h in self.holders.items()]

    def play_computers(self, limit: int = 1) -> list[Out]:
        """Let the host's computer take up to ``limit`` decisions in a row that are computer-played sides'
        (the host calls this between messages, so the table keeps answering while its computer thinks)."""
        out: list[Out] = []
        for _ in range(limit):
            d = self.battle.decision()
            if d is None or d.side not in self.computers:
                break
            out.extend(self._apply(self.computers[d.side](self.battle, d), Seat.of_side(d.side)))
        return out

    def waiting_for(self) -> str | None:
        """The seat the table waits for (None when the battle is over)."""
        d = self.battle.decision()
        return None if d is None else d.side

    def seat_empty_since(self, label: str) -> bool:
        """Whether nobody holds the seat ``label`` now (never taken, or its holder's connection is gone)."""
        h = self.holders.get(label)
        return h is None or h.conn is None

    # ------------------------------------------------------------------ the host's console and save
    def _tell(self, seat: Seat, step: Step) -> None:
        names = self.battle.names()
        self.say(f"#{len(self.steps)} {seat.label}: {step.action.kind}")
        for e in step.events:
            self.say(f"    {e.text(names)}")
        if self.battle.over:
            winner = self.battle.winner
            self.say(f"The battle is over. Winner: {self.battle.sides[winner].name if winner else 'nobody'}")

    def save(self, *, strict: bool = False) -> None:
        """Write the battle's log to ``save_path`` atomically (the game's save format; the seats' token
        hashes ride along in the setup so a restarted host knows its seats' holders). A failed write is said
        on the host's console and the battle goes on (``strict``: raise ``SaveError`` instead)."""
        if self.save_path is None:
            return
        tokens = {label: h.token_hash for label, h in self.holders.items()}
        data = {**self.session.setup_data, "seed": self.battle.setup.seed, "table": {"tokens": tokens}}
        try:
            record.save(self.save_path, self.battle, data)
        except record.SaveError as exc:
            if strict:
                raise
            self.say(f"warning: {exc}; the battle goes on")


def token_hashes_of(setup_data: Mapping[str, Any]) -> dict[str, str]:
    """The seats' token hashes a host's save carries (``Table.save``), for ``--resume``."""
    table = setup_data.get("table")
    tokens = table.get("tokens") if isinstance(table, dict) else None
    return {str(k): str(v) for k, v in tokens.items()} if isinstance(tokens, dict) else {}


def now() -> float:
    """Seconds on a monotonic clock (for rate limits and hand-over delays)."""
    return time.monotonic()
