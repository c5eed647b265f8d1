"""The table's server (``python main.py host`` runs it without a window: ``game.net.host_command``).

The WebSocket server around a ``Table``: each connection's frames are checked (``parse_client``), rate
limited and handed to the table in the order they arrive; what the table answers goes out through one
queue per connection, so every client receives the battle's steps in order. The host listens on
127.0.0.1 (this computer only) unless ``--public`` opens it to the network. Nothing a client sends is
written anywhere but into the battle's own log (the ``--save`` file, whose name only the host chooses).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
import weakref
from collections.abc import Callable, Coroutine, Hashable, Iterator
from typing import Any, TypeVar, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from game.net.guard import (
    BEHIND_BYTES,
    BEHIND_MESSAGES,
    SEND_BUFFER,
    SLOW_READER,
    Admission,
    ConsoleHandler,
    Outbox,
    RateLimit,
    clip,
    console_logger,
    describe_tls_failure,
    peer,
    sync_cost,
    where,
)
from game.net.protocol import (
    BURST,
    DEFAULT_PORT,
    MAX_CLIENT_FRAME,
    RATE,
    Hello,
    Message,
    ProtocolError,
    Sync,
    encode,
    parse_client,
)
from game.net.table import Out, Table, now
from game.net.tls import accept_tls, hand_over

T = TypeVar("T")

LOCAL = "127.0.0.1"
PUBLIC = "0.0.0.0"
HELLO_WITHIN = 10.0
"""Seconds a new connection has to take a seat before the host closes it."""
CLOSE_WITHIN = 2.0
"""Seconds a closing handshake may take before the host cuts the connection."""
LINGER = 2.0
"""Seconds the host stays up after the battle ends, so every client receives the last step."""


class Host:
    """The table's server: connections, their outboxes and guards (``game.net.guard``), the hand-over of empty
    seats to the computer."""

    def __init__(
        self,
        table: Table,
        *,
        hand_over: float | None = None,
        hand_over_kind: str = "tactical",
        computer_pause: float = 0.0,
        admission: Admission | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.table = table
        self.tls = tls
        """Serve ``wss://`` with this context: the host makes each connection's TLS handshake itself
        (``game.net.tls.accept_tls``), so one that fails is a line on its console."""
        self.computer_pause = computer_pause
        self.outboxes: dict[Hashable, Outbox[Out]] = {}
        self.behind = (BEHIND_MESSAGES, BEHIND_BYTES)
        """How far a reader may fall behind (messages, bytes) before it is closed (``guard.Outbox``)."""
        self.admission = admission or Admission()
        self.dropped: weakref.WeakSet[ServerConnection] = weakref.WeakSet()
        """Connections the host closed itself (``guard.Admission``), already said on the console."""
        self.console = ConsoleHandler(table.say, skip=lambda conn: conn in self.dropped)
        self.hand_over = hand_over
        self.hand_over_kind = hand_over_kind
        self.empty_since: dict[str, float] = {}
        self.done = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ connections
    def arrived(self, conn: ServerConnection, address: Any) -> None:
        """A connection accepted (before its handshake): the unseated connections it makes room by closing
        (``guard.Admission``) are closed, with one line each on the console."""
        host = str(address[0]) if isinstance(address, tuple) and address else "?"
        for old in self.admission.arrive(conn, host):
            self._drop(old, "closed: it had not taken a seat, and a newer connection needed its room")

    def _drop(self, conn: Hashable, why: str) -> None:
        if not isinstance(conn, ServerConnection):
            return
        self.dropped.add(conn)  # its handshake, cut short, is not reported again
        self.console.line(f"network: {where(conn)}: {why}")
        raw = getattr(conn, "raw", None)  # the accepted connection, under its TLS layer if any
        (raw if isinstance(raw, asyncio.Transport) else conn.transport).abort()

    def _tls_failed(self, conn: ServerConnection, exc: BaseException) -> None:
        """A connection's TLS handshake failed: one line on the console (unless the host cut it itself)."""
        self.admission.gone(conn)
        if conn not in self.dropped:
            self.dropped.add(conn)
            self.console.line(f"network: refused a connection from {where(conn)}: {describe_tls_failure(exc)}")

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def deliver(self, outs: list[Out]) -> None:
        """Queue frames for their connections (a connection gone meanwhile gets nothing; one that fell too far
        behind is closed)."""
        for o in outs:
            box = self.outboxes.get(o.conn)
            if box is not None and not box.closed and not box.put(o, len(o.text)):
                self._fell_behind(o.conn)
        if self.table.battle.over:
            self.done.set()

    def _fell_behind(self, conn: Hashable) -> None:
        messages, size = self.behind
        reason = f"Your client fell behind: more than {messages} messages or {size // 1024} KB waited for it."
        self.console.line(f"network: closed the connection from {where(conn)}: it read too slowly")
        if isinstance(conn, ServerConnection):
            self._spawn(self._shut(conn, SLOW_READER, reason))

    async def _shut(self, ws: ServerConnection, code: int, reason: str) -> None:
        """Close ``ws`` with ``code`` and ``reason``; a peer that reads nothing more is cut off after
        ``CLOSE_WITHIN`` seconds (the library's own close waits for its last frames to be read)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code, reason), CLOSE_WITHIN)
        ws.transport.abort()

    def _hello_due(self, ws: ServerConnection) -> None:
        """``HELLO_WITHIN`` seconds after a connection was accepted: one without a seat is closed (one still in
        its handshake with a line on the console, one that said nothing with a sentence)."""
        if ws in self.table.conns or ws.protocol.state is State.CLOSED:
            return
        if ws in self.outboxes:
            self.deliver([Out(ws, encode("error", reason=f"Say hello within {HELLO_WITHIN:g} seconds."), close=True)])
        elif ws not in self.dropped:
            layer = "WebSocket" if getattr(ws, "transport", None) is not None else "TLS"
            self._drop(ws, f"closed: its {layer} handshake took more than {HELLO_WITHIN:g} seconds")

    async def _writer(self, ws: ServerConnection, box: Outbox[Out]) -> None:
        while (o := await box.get()) is not None:
            try:
                await ws.send(o.text)
                if o.close:
                    await ws.close(1008, "closed by the host")
                    return
            except ConnectionClosed:
                return

    def _dispatch(self, ws: ServerConnection, msg: Message, limit: RateLimit) -> list[Out]:
        outs = self.table.receive(ws, msg)
        if isinstance(msg, Hello):
            self.admission.seated(ws)
        elif isinstance(msg, Sync):
            limit.charge(sum(sync_cost(o.text) for o in outs) - 1)  # the answer counts by its size
        return outs

    def _refuse(self, ws: ServerConnection, reason: str) -> None:
        self.deliver([Out(ws, encode("error", reason=clip(reason)), close=True)])
        self.deliver(self.table.leave(ws))

    async def handle(self, ws: ServerConnection) -> None:
        """One client's connection, from its hello to its close."""
        box: Outbox[Out] = Outbox(*self.behind)
        self.outboxes[ws] = box
        writer = asyncio.create_task(self._writer(ws, box))
        limit = RateLimit()
        refused = False
        try:
            async for raw in ws:
                if refused or box.closed:
                    continue  # read on, unanswered, so the closing handshake gets through a flood
                try:
                    if not limit.allow(now()):
                        raise ProtocolError(
                            f"Too many messages: a client sends at most {RATE:g} a second (after {BURST} at once)."
                        )
                    self.deliver(self._dispatch(ws, parse_client(raw), limit))
                except ProtocolError as exc:
                    self._refuse(ws, str(exc))
                    refused = True
                except Exception as exc:  # a fault of the host itself: said on its console, never to a player
                    self.table.say(f"error: the host failed on a message ({type(exc).__name__}: {clip(str(exc))})")
                    self._refuse(ws, "The host could not handle that message.")
                    refused = True
        except ConnectionClosed:
            pass
        finally:
            self.deliver(self.table.leave(ws))
            box.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            self.outboxes.pop(ws, None)
            self.admission.gone(ws)

    def connection_class(self) -> type[ServerConnection]:
        """The WebSocket library's connection, counted by this host from the moment it is accepted (on a
        ``wss://`` table before its TLS handshake, which the host makes itself)."""
        host = self

        class Guarded(ServerConnection):
            raw: asyncio.Transport | None = None
            """The connection as accepted (under its TLS layer, if any)."""

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                if self.raw is not None:  # the TLS layer hands the connection over
                    super().connection_made(transport)
                    return
                self.raw = cast(asyncio.Transport, transport)  # a stream's (asyncio's server makes only those)
                self.peer = peer(transport.get_extra_info("peername"))
                sock = transport.get_extra_info("socket")
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                if host.tls is None:
                    super().connection_made(transport)
                else:
                    host._spawn(self._secure(self.raw, host.tls))
                host.arrived(self, transport.get_extra_info("peername"))
                self.loop.call_later(HELLO_WITHIN, host._hello_due, self)

            async def _secure(self, raw: asyncio.Transport, context: ssl.SSLContext) -> None:
                try:
                    transport, early = await accept_tls(raw, context, HELLO_WITHIN + CLOSE_WITHIN)
                except Exception as exc:  # whatever ended the handshake: one line, never a traceback
                    host._tls_failed(self, exc)
                    raw.abort()
                    return
                hand_over(transport, early, self)

            def connection_lost(self, exc: Exception | None) -> None:
                host.admission.gone(self)
                super().connection_lost(exc)

        return Guarded

    # ------------------------------------------------------------------ the host's computer
    async def play_computers(self) -> None:
        """The host's computer takes its seats' decisions, one at a time between the clients' messages."""
        while not self.table.battle.over:
            before = len(self.table.battle.log)
            self.deliver(self.table.play_computers(limit=1))
            await asyncio.sleep(self.computer_pause if len(self.table.battle.log) > before else 0.01)

    async def watch_empty_seats(self) -> None:
        """Hand a seat the table waits for to the host's computer once it has been empty ``hand_over`` s."""
        while self.hand_over is not None and not self.table.battle.over:
            side = self.table.waiting_for()
            t = now()
            for label in list(self.empty_since):
                if label != side or not self.table.seat_empty_since(label):
                    del self.empty_since[label]
            if side is not None and side not in self.table.computers and self.table.seat_empty_since(side):
                since = self.empty_since.setdefault(side, t)
                if t - since >= self.hand_over:
                    self.deliver(self.table.hand_to_computer(side, self.hand_over_kind))
            await asyncio.sleep(0.1)


async def run_host(
    table: Table,
    address: str,
    port: int,
    *,
    hand_over: float | None = None,
    on_ready: Callable[[int], None] | None = None,
    stop: asyncio.Event | None = None,
    linger: float = LINGER,
    computer_pause: float = 0.0,
    tls: ssl.SSLContext | None = None,
    host: Host | None = None,
) -> None:
    """Serve ``table`` until its battle is over (then until every client has gone, ``linger`` seconds at
    most) or ``stop`` is set; ``tls``: serve ``wss://`` with that context; ``host``: this ``Host`` (else one
    is made)."""
    host = host or Host(table, hand_over=hand_over, computer_pause=computer_pause)
    if tls is not None:
        host.tls = tls  # its handshakes are the host's own (``Host.connection_class``), never the server's
    # origins=[None]: only clients that send no Origin header (the game's own), so a web page open in a
    # browser on a player's computer cannot connect to the table behind the player's back
    async with serve(
        host.handle,
        address,
        port,
        origins=[None],
        max_size=MAX_CLIENT_FRAME,
        max_queue=16,
        compression=None,
        close_timeout=CLOSE_WITHIN,
        open_timeout=None,  # the host's own deadline (``Host._hello_due``) says so on the console
        logger=console_logger(host.console),
        create_connection=host.connection_class(),
    ) as server:
        bound = _port_of(server)
        if on_ready is not None:
            on_ready(bound)
        watcher = asyncio.create_task(host.watch_empty_seats())
        computer = asyncio.create_task(host.play_computers())
        waits = [asyncio.create_task(host.done.wait())]
        if stop is not None:
            waits.append(asyncio.create_task(stop.wait()))
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if table.battle.over:
            end = now() + linger
            while host.outboxes and now() < end:
                await asyncio.sleep(0.02)
        watcher.cancel()
        computer.cancel()
        for w in waits:
            w.cancel()


def _port_of(server: Server) -> int:
    for sock in server.sockets:
        return int(sock.getsockname()[1])
    raise RuntimeError("the server listens on no socket")


class HostThread:
    """A table served from a thread of this process (the game window's "Host a table", and ``hosted``):
    ``start`` returns once it listens; ``stop`` closes it. A taken ``port`` falls back to one the system chooses.
    ``host``, ``hand_over``, ``computer_pause``, ``linger`` and ``tls`` are ``run_host``'s."""

    def __init__(
        self,
        table: Table,
        *,
        public: bool = False,
        port: int = DEFAULT_PORT,
        host: Host | None = None,
        hand_over: float | None = None,
        computer_pause: float = 0.0,
        linger: float = 0.5,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.table = table
        self.address = PUBLIC if public else LOCAL
        self.port = port
        self.error: str | None = None
        self.listening = False
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._given = host
        self._host: Host | None = None
        self._hand_over, self._computer_pause = hand_over, computer_pause
        self._linger, self._tls = linger, tls
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()

            def ready(port: int) -> None:
                self.port, self.listening = port, True
                self._ready.set()

            for port in dict.fromkeys((self.port, 0)):  # the port asked for, then any
                self._host = self._given or Host(
                    self.table, hand_over=self._hand_over, computer_pause=self._computer_pause
                )
                try:
                    await run_host(
                        self.table,
                        self.address,
                        port,
                        on_ready=ready,
                        stop=self._stop,
                        linger=self._linger,
                        tls=self._tls,
                        host=self._host,
                    )
                    return
                except OSError as exc:
                    self.error = f"port {port}: {exc.strerror or exc}"
            self._ready.set()

        asyncio.run(main())

    def start(self, timeout: float = 10.0) -> int:
        """Listen; the port it listens on (``OSError`` when it cannot listen at all)."""
        self._thread.start()
        if not self._ready.wait(timeout) or not self.listening:
            raise OSError(f"the table could not listen on {self.address} ({self.error or 'no answer'})")
        return self.port

    def _on_loop(self, call: Callable[[Host], T]) -> T:
        """``call(host)`` run on the table's own thread (the table is changed only there); its result."""
        loop, host = self._loop, self._host
        if loop is None or host is None or not self._thread.is_alive():
            raise ValueError("the table is closed")

        async def run() -> T:
            return call(host)

        return asyncio.run_coroutine_threadsafe(run(), loop).result(5)

    def held_seats(self) -> list[tuple[str, str, bool]]:
        """The seats someone holds (``Table.held_seats``)."""
        return self._on_loop(lambda host: host.table.held_seats())

    def free_seat(self, label: str, name: str = "") -> str:
        """The GM frees the seat ``label`` (``Table.free_seat``); what happened, as a sentence naming the seat by
        ``name`` (its side's) where given."""

        def free(host: Host) -> str:
            try:
                host.deliver(host.table.free_seat(label))
            except ValueError as exc:
                return str(exc)[:1].upper() + str(exc)[1:] + "."
            seat = f"of {name}" if name else label
            return f"The seat {seat} is free: its holder's token no longer takes it; anyone may."

        return self._on_loop(free)

    def stop(self, wait: float = 5.0) -> None:
        """Close the table (its save stays), waiting at most ``wait`` seconds for its thread to end."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the host may end with its battle meanwhile
                loop.call_soon_threadsafe(stop.set)
        self._thread.join(wait)


@contextlib.contextmanager
def hosted(
    table: Table,
    *,
    host: Host | None = None,
    hand_over: float | None = None,
    computer_pause: float = 0.0,
    linger: float = 0.05,
    tls: ssl.SSLContext | None = None,
) -> Iterator[int]:
    """``table`` served on 127.0.0.1 from a thread of this process, on a port the system chooses, while the
    ``with`` block runs (the bench's host and the tests'); yields the port. The options are ``HostThread``'s."""
    server = HostThread(
        table, port=0, host=host, hand_over=hand_over, computer_pause=computer_pause, linger=linger, tls=tls
    )
    port = server.start(20.0)
    try:
        yield port
    finally:
        server.stop(10.0)


def lan_address() -> str:
    """This computer's address on its local network, as other computers there reach it (no packet is sent:
    a UDP socket is only pointed at a public address to learn which interface would be used)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        return str(s.getsockname()[0])
    return LOCAL
