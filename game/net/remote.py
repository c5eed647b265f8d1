"""A seat at a host's table, shaped like a local session, for a screen to play from.

``RemoteSession`` is a ``game.session.BattleSession``, as the local ``Session`` is: ``battle`` (the
client's copy of the host's battle, as this seat may see it), ``apply(action)`` (sent to the host, which
decides; a refusal raises ``IllegalAction`` with the host's sentence, so the screen shows it as it shows
a local one), ``setup_data`` and the save calls (a client keeps no log: the host does; nor the map file,
so ``loaded`` is None; and no decision is taken back, so ``rewind`` refuses). A thread receives
the host's frames; the screen takes them on its own thread with ``poll()`` each frame, so the copy is
only ever changed on the screen's thread. ``rebuilt`` tells the screen that its battle object was
replaced (at a reveal, or after a lost connection was rejoined with the seat's token).
"""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed

from game.engine import actions as act
from game.engine import events as ev
from game.engine import record
from game.engine.battle import Battle, IllegalAction, Seat
from game.net import remembered
from game.net.client import Client, TableClosed

if TYPE_CHECKING:
    from game.aftercare import Aftercare
    from game.maps.loader import LoadedMap

_CLOSED = object()


class RemoteSession:
    """One seat at a host's table (see module docstring)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.inbox: queue.Queue[object] = queue.Queue()
        self.save_errors: list[str] = []
        self.closed_reason: str | None = None
        self.lost_at: float | None = None
        self.setup_data: dict[str, Any] = {}
        self._reader: threading.Thread | None = None

    @classmethod
    def join(
        cls, uri: str, name: str, seat: str = "", password: str = "", token: str | None = None, timeout: float = 5.0
    ) -> RemoteSession:
        """Take a seat at the table at ``uri`` (``TableClosed`` with the host's sentence when refused)."""
        return cls.connect(Client(uri, name, seat, password, token), timeout)

    @classmethod
    def connect(
        cls, client: Client, timeout: float = 5.0, *, remember: bool = False, address: str = ""
    ) -> RemoteSession:
        """Take the seat ``client`` asks for (its address, name, seat, password, token and certificate check);
        ``TableClosed`` with the host's sentence when refused. With ``remember`` (a window's own seat), a
        seat this computer holds at that table is taken back with its remembered token, and the table, the
        seat and its token are remembered for next time (``game.net.remembered``; ``address`` as typed)."""
        client.say = lambda _: None
        known = remembered.find(client.uri) if remember else None
        from_memory = False
        if known is not None and client.token is None:
            if not client.seat and known.seat in known.tokens:
                client.seat = known.seat
            client.token = known.tokens.get(client.seat)
            from_memory = client.token is not None
        try:
            client.connect(timeout)
        except TableClosed as exc:
            if from_memory and "is taken" in str(exc):
                remembered.forget_token(client.uri, client.seat)  # someone else holds it now
            raise
        if remember:
            token = client.token if client.seat != "watch" else None
            remembered.remember(client.uri, address or client.uri, client.name, client.seat, token, client.fingerprint)
        session = cls(client)
        session._after_connect()
        return session

    def _after_connect(self) -> None:
        assert self.client.mirror is not None
        self.setup_data = {"title": self.client.mirror.setup.title, "table": self.client.uri}
        self.client.rebuilt = True
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        ws = self.client.ws
        try:
            while ws is not None:
                self.inbox.put(ws.recv())
        except (ConnectionClosed, OSError, RuntimeError):
            self.inbox.put(_CLOSED)

    # ------------------------------------------------------------------ what the screen reads
    @property
    def battle(self) -> Battle:
        """The copy of the host's battle this seat sees."""
        assert self.client.mirror is not None
        return self.client.mirror.battle

    @property
    def loaded(self) -> LoadedMap | None:
        """None: the host has the map file (the screen draws the board from the terrain it sent, or from the
        same map shipped here: ``game.ui.battle.table.table_board_data``)."""
        return None

    @property
    def seat(self) -> str:
        """This client's seat: a side's id, "gm" or "watch"."""
        return self.client.seat

    @property
    def rebuilt(self) -> bool:
        """Whether the battle object was replaced since the screen last cleared this (``clear_rebuilt``)."""
        return self.client.rebuilt

    def clear_rebuilt(self) -> None:
        """The screen has rebound itself to the new battle object."""
        self.client.rebuilt = False

    def seats(self) -> list[dict[str, Any]]:
        """Who sits where (seat, name, present, computer)."""
        return list(self.client.seats)

    def waiting_for(self) -> str | None:
        """The seat the table waits for (None when the battle is over)."""
        d = self.client.progress.get("decision")
        return str(d["side"]) if isinstance(d, dict) and "side" in d else None

    # ------------------------------------------------------------------ the screen's calls
    def poll(self) -> list[ev.Event]:
        """Take every frame the host sent since the last call; the events they brought (as this seat sees
        them). A lost connection is rejoined with the seat's token, a second at a time."""
        while True:
            try:
                raw = self.inbox.get_nowait()
            except queue.Empty:
                break
            if raw is _CLOSED:
                self._lost()
                break
            try:
                self.client.feed(raw)  # type: ignore[arg-type]
            except TableClosed as exc:
                self.closed_reason = str(exc)
                self.client.close()
        if self.lost_at is not None and self.closed_reason is None:
            self._rejoin()
        events, self.client.new_events = self.client.new_events, []
        return events

    def _lost(self) -> None:
        self.client.ws = None
        self.lost_at = self.lost_at or time.monotonic()

    def _rejoin(self) -> None:
        if time.monotonic() - (self.lost_at or 0) < 1.0:
            return
        self.lost_at = time.monotonic()
        try:
            self.client.connect(timeout=1.0)
        except (TableClosed, ConnectionClosed, OSError):
            self.client.ws = None
            return
        self.lost_at = None
        self._after_connect()

    def apply(self, action: act.Action, seat: Seat | None = None, *, timeout: float = 10.0) -> list[ev.Event]:
        """Send a decision of this seat and wait for the host's answer: the events of the steps that came
        (this one's included), or ``IllegalAction`` with the host's sentence (the battle unchanged). A
        decision meant for another ``seat`` than this client's is refused here: the host would refuse it too."""
        if seat is not None and seat.label != self.seat:
            raise IllegalAction(f"This computer sits at {self.seat}; a decision for {seat.label} is not sent.")
        if self.client.ws is None:
            raise IllegalAction("The connection to the host is lost; the game is rejoining the table.")
        before = len(self.client.refusals)
        index = len(self.battle.log)
        self.client.decide(action)
        end = time.monotonic() + timeout
        events: list[ev.Event] = []
        while time.monotonic() < end:
            events.extend(self.poll())
            if len(self.client.refusals) > before:
                raise IllegalAction(self.client.refusals[-1])
            if self.closed_reason is not None:
                raise IllegalAction(f"The host closed the connection: {self.closed_reason}")
            if len(self.battle.log) > index and not self.client.awaiting:
                return events
            time.sleep(0.001)
        raise IllegalAction("The host did not answer in time; the decision may still arrive.")

    def chat(self, text: str) -> None:
        """Say a line to the whole table."""
        self.client.send("chat", text=text[:300])

    def write_autosave(self) -> None:
        """Nothing to do: the host keeps the battle's log."""

    def save(self, path: str | Path) -> None:
        """A client keeps no log (it has no seed): say where the log is."""
        raise record.SaveError(f"{path}: a table's battle is saved by its host; ask the host for its --save file")

    def rewind(self, battle: Battle) -> None:
        """Refused: a table's decisions stand (the host rolled the dice and told every seat)."""
        raise IllegalAction("A table's decisions stand: undo is a hotseat game's.")

    def aftercare(self) -> Aftercare:
        """The healing between battles, for this copy of the battle (*Fudge* 4.8)."""
        from game.aftercare import Aftercare

        return Aftercare(self.battle)

    def close(self) -> None:
        """Leave the table."""
        self.client.close()
