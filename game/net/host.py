"""``python main.py host``: a table on the network, without a window.

The WebSocket server around a ``Table``: each connection's frames are checked (``parse_client``), rate
limited and handed to the table in the order they arrive; what the table answers goes out through one
queue per connection, so every client receives the battle's steps in order. The host listens on
127.0.0.1 (this computer only) unless ``--public`` opens it to the network. Nothing a client sends is
written anywhere but into the battle's own log (the ``--save`` file, whose name only the host chooses).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import sys
import threading
from collections.abc import Callable, Hashable
from pathlib import Path

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from game.engine import record
from game.engine.battle import RuleOptions
from game.engine.players import LEVELS, make_player
from game.maps.errors import MapLoadError
from game.net.protocol import (
    BURST,
    DEFAULT_PORT,
    MAX_CLIENT_FRAME,
    RATE,
    ProtocolError,
    RateLimit,
    encode,
    parse_client,
)
from game.net.table import Out, Table, now, token_hashes_of
from game.roster import RosterError
from game.session import SetupError, load_session, new_session, seed_argument

LOCAL = "127.0.0.1"
PUBLIC = "0.0.0.0"
MAX_CONNECTIONS = 64
"""Connections open at once (seats, watchers and those still saying hello)."""
HELLO_WITHIN = 10.0
"""Seconds a new connection has to take a seat before the host closes it."""
LINGER = 2.0
"""Seconds the host stays up after the battle ends, so every client receives the last step."""


class Host:
    """The table's server: connections, their queues, the hand-over of empty seats to the computer."""

    def __init__(
        self,
        table: Table,
        *,
        hand_over: float | None = None,
        hand_over_kind: str = "tactical",
        computer_pause: float = 0.0,
    ) -> None:
        self.table = table
        self.computer_pause = computer_pause
        self.queues: dict[Hashable, asyncio.Queue[Out | None]] = {}
        self.hand_over = hand_over
        self.hand_over_kind = hand_over_kind
        self.empty_since: dict[str, float] = {}
        self.done = asyncio.Event()

    def deliver(self, outs: list[Out]) -> None:
        """Queue frames for their connections (a connection gone meanwhile gets nothing)."""
        for o in outs:
            q = self.queues.get(o.conn)
            if q is not None:
                q.put_nowait(o)
        if self.table.battle.over:
            self.done.set()

    def _hello_due(self, ws: ServerConnection) -> None:
        q = self.queues.get(ws)
        if q is not None and ws not in self.table.conns:
            q.put_nowait(Out(ws, encode("error", reason=f"Say hello within {HELLO_WITHIN:g} seconds."), close=True))

    async def _writer(self, ws: ServerConnection, q: asyncio.Queue[Out | None]) -> None:
        while True:
            o = await q.get()
            if o is None:
                return
            try:
                await ws.send(o.text)
                if o.close:
                    await ws.close(1008, "closed by the host")
                    return
            except ConnectionClosed:
                return

    async def handle(self, ws: ServerConnection) -> None:
        """One client's connection, from its hello to its close."""
        if len(self.queues) >= MAX_CONNECTIONS:
            await ws.send(encode("error", reason="This table has no room for another connection now."))
            await ws.close(1013, "no room")
            return
        q: asyncio.Queue[Out | None] = asyncio.Queue()
        self.queues[ws] = q
        asyncio.get_running_loop().call_later(HELLO_WITHIN, self._hello_due, ws)
        writer = asyncio.create_task(self._writer(ws, q))
        limit = RateLimit()
        refused = False
        try:
            async for raw in ws:
                if refused:
                    continue  # read on, unanswered, so the closing handshake gets through a flood
                try:
                    if not limit.allow(now()):
                        raise ProtocolError(
                            f"Too many messages: a client sends at most {RATE:g} a second (after {BURST} at once)."
                        )
                    self.deliver(self.table.receive(ws, parse_client(raw)))
                except ProtocolError as exc:
                    q.put_nowait(Out(ws, encode("error", reason=str(exc)), close=True))
                    self.deliver(self.table.leave(ws))
                    refused = True
                except Exception as exc:  # a fault of the host itself: said on its console, never to a player
                    self.table.say(f"error: the host failed on a message ({type(exc).__name__}: {exc})")
                    q.put_nowait(Out(ws, encode("error", reason="The host could not handle that message."), True))
                    self.deliver(self.table.leave(ws))
                    refused = True
        except ConnectionClosed:
            pass
        finally:
            self.deliver(self.table.leave(ws))
            q.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            self.queues.pop(ws, None)

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
) -> None:
    """Serve ``table`` until its battle is over (then until every client has gone, ``linger`` seconds at
    most) or ``stop`` is set."""
    host = Host(table, hand_over=hand_over, computer_pause=computer_pause)
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
        close_timeout=2,
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
            while host.queues and now() < end:
                await asyncio.sleep(0.02)
        watcher.cancel()
        computer.cancel()
        for w in waits:
            w.cancel()


def _port_of(server: Server) -> int:
    for sock in server.sockets:
        return int(sock.getsockname()[1])
    raise RuntimeError("the server listens on no socket")


def _computer_seats(specs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in specs:
        side, _, kind = spec.partition(":")
        out[side] = kind or "tactical"
    return out


def _say(text: str) -> None:
    print(text, flush=True)


def host_main(argv: list[str]) -> int:
    """``python main.py host MAP.tmx [options]`` (``docs/network.md``)."""
    p = argparse.ArgumentParser(prog="main.py host", description="Host a battle for players at other computers.")
    p.add_argument("map", nargs="?", help="a .tmx battle map (not needed with --resume)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT}; 0: any)")
    p.add_argument("--roster", help="roster TOML file (default: the map's own)")
    p.add_argument("--seed", type=seed_argument, help="dice seed (default: random; it never leaves this computer)")
    p.add_argument("--save", help="write the battle's log here after every decision (the game's save format)")
    p.add_argument("--secret-stances", action="store_true", help="stances are declared in secret (Fudge 4.32)")
    p.add_argument("--password", default="", help="a table password the players must give")
    p.add_argument("--public", action="store_true", help="listen on every network interface, not only this computer")
    p.add_argument("--resume", help="resume the table from a log written by --save")
    p.add_argument("--gm", help="the GM's seat: 'referee' (a GM who plays no side) or a side's id")
    p.add_argument(
        "--computer",
        action="append",
        default=[],
        metavar="SIDE[:LEVEL]",
        help=f"the host's computer plays this side (LEVEL: {', '.join(LEVELS)}; default tactical)",
    )
    p.add_argument(
        "--hand-over", type=float, metavar="SECONDS", help="hand a seat empty this long to the host's computer"
    )
    args = p.parse_args(argv)
    save_path = Path(args.save) if args.save else (Path(args.resume) if args.resume else None)
    try:
        if args.resume:
            session = load_session(args.resume, autosave=False)
            tokens = token_hashes_of(session.setup_data)
        else:
            if not args.map:
                p.error("give a map (or --resume LOG.json)")
            options = RuleOptions(secret_stances=args.secret_stances)
            # the game's keyed dice (game.engine.generator): no roll seen tells the seed or the rolls to come
            session = new_session(args.map, args.roster, seed=args.seed, options=options, autosave=False, gm=args.gm)
            tokens = {}
        table = Table.start(session, password=args.password, save_path=save_path, token_hashes=tokens, say=_say)
        for side, kind in _computer_seats(args.computer).items():
            if side not in table.battle.sides:
                raise SetupError(f"--computer {side}: no such side; the sides are {', '.join(table.battle.sides)}")
            if kind not in LEVELS:
                levels = ", ".join(LEVELS)
                raise SetupError(f"--computer {side}:{kind}: no such computer player; choose one of {levels}")
            table.computers[side] = make_player(kind, len(table.computers) + 1)
        table.save(strict=True)
    except (MapLoadError, RosterError, SetupError, record.SaveError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    address = PUBLIC if args.public else LOCAL
    b = table.battle

    def ready(port: int) -> None:
        seats = ", ".join(table.seat_labels())
        print(f"{b.setup.title or 'A battle'}: seats {seats}; listening on ws://{address}:{port}", flush=True)
        if args.public:
            print("open to the network: anyone who can reach this computer and knows the password may join", flush=True)

    try:
        asyncio.run(run_host(table, address, args.port, hand_over=args.hand_over, on_ready=ready))
    except OSError as exc:
        print(
            f"error: cannot listen on {address}:{args.port} ({exc.strerror or exc}); choose another --port",
            file=sys.stderr,
        )
        return 2
    except record.SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


class HostThread:
    """A table served from a thread of this process (the game window's "Host a table"): ``start`` returns
    once it listens; ``stop`` closes it. A taken ``port`` falls back to one the system chooses."""

    def __init__(self, table: Table, *, public: bool = False, port: int = DEFAULT_PORT) -> None:
        self.table = table
        self.address = PUBLIC if public else LOCAL
        self.port = port
        self.error: str | None = None
        self.listening = False
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()

            def ready(port: int) -> None:
                self.port, self.listening = port, True
                self._ready.set()

            for port in (self.port, 0):
                try:
                    await run_host(self.table, self.address, port, on_ready=ready, stop=self._stop, linger=0.5)
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

    def stop(self) -> None:
        """Close the table (its save stays)."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        self._thread.join(5)


def lan_address() -> str:
    """This computer's address on its local network, as other computers there reach it (no packet is sent:
    a UDP socket is only pointed at a public address to learn which interface would be used)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        return str(s.getsockname()[0])
    return LOCAL
