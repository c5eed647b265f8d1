"""``python main.py join``: take a seat at a host's table; with ``--players`` a computer plays it headless.

A ``Client`` keeps a copy of the host's battle (``game.net.mirror.Mirror``) from what the host sends its
seat: the battle as it stands at join (and at each reveal), then one step per decision. The computer
players read that copy exactly as they read a local battle, and send their decisions to the host, which
checks them. A lost connection is retried with the seat's token, so the client takes its own seat back.
"""

from __future__ import annotations

import argparse
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from game.engine import actions as act
from game.engine import codec, gm
from game.engine.ai import Player
from game.engine.events import Event
from game.engine.players import LEVELS, make_player
from game.net.mirror import DesyncError, Mirror
from game.net.password import ASK_HELP, PASSWORD_HELP, table_password
from game.net.protocol import (
    DEFAULT_PORT,
    MAX_HOST_FRAME,
    PROTOCOL_VERSION,
    Error,
    Message,
    Progress,
    ProtocolError,
    Refused,
    Said,
    Seats,
    State,
    Step,
    TableInfo,
    Welcome,
    encode,
    parse_host,
)
from game.net.tls import TLSSetupError, check_pin, client_context
from game.net.wire import WireError, setup_from_wire


class TableClosed(RuntimeError):
    """The host closed this client's connection with a sentence (a refusal), or cannot be reached."""


def address_uri(address: str, *, tls: bool = False) -> str:
    """``HOST[:PORT]`` (or a ``ws://`` / ``wss://`` address) as a WebSocket address; the default port is 7777,
    the default scheme ``ws://`` (``wss://`` with ``tls``)."""
    if address.startswith(("ws://", "wss://")):
        return address
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or (":" in host and not host.endswith("]")):
        host, port = address, str(DEFAULT_PORT)
    return f"{'wss' if tls else 'ws'}://{host}:{port}"


@dataclass
class Client:
    """One seat at a host's table (see module docstring)."""

    uri: str
    name: str
    seat: str = ""
    password: str = ""
    token: str | None = None
    say: Callable[[str], None] = print
    ws: ClientConnection | None = None
    mirror: Mirror | None = None
    progress: dict[str, Any] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    keep_raw: bool = False
    show_events: bool = False
    """Print each event as it happens (a headless watcher, or a seat nobody plays here)."""
    awaiting: bool = False
    seq: int = 0
    new_events: list[Event] = field(default_factory=list)
    """Events of the steps followed since a screen last took them (``RemoteSession.poll``)."""
    rebuilt: bool = False
    """The copy was rebuilt from a ``state`` (at join, a reveal or a resync) since a screen last looked."""
    chat_lines: list[tuple[str, str]] = field(default_factory=list)
    map_hint: dict[str, str] = field(default_factory=dict)
    """The host's map file name and its SHA-256: a client with the same shipped map draws its art."""
    fingerprint: str | None = None
    """A ``wss://`` table's certificate must have this SHA-256 fingerprint (``game.net.tls``)."""
    cafile: str | None = None
    """A ``wss://`` table's certificate is checked against the authorities in this PEM file."""

    # ------------------------------------------------------------------ connection
    def connect(self, timeout: float = 10.0) -> None:
        """Open the connection and take the seat (``TableClosed`` with the host's sentence when refused)."""
        self.ws = self._open(timeout)
        self.progress["_fresh"] = False  # until the host's state arrives (a copy from before is stale)
        hello: dict[str, Any] = {"name": self.name, "password": self.password, "token": self.token}
        if self.seat:
            hello["seat"] = self.seat
        self.send("hello", **hello)
        deadline = time.monotonic() + timeout
        while self.mirror is None or self.progress.get("_fresh") is not True:
            if time.monotonic() > deadline:
                raise TableClosed(f"the table at {self.uri} did not answer in time")
            self.receive(max(0.01, deadline - time.monotonic()))
        self.awaiting = False

    def _open(self, timeout: float) -> ClientConnection:
        """The connection, its certificate checked first on a ``wss://`` table (``game.net.tls``)."""
        secure = self.uri.startswith("wss://")
        if not secure and (self.fingerprint or self.cafile):
            raise TableClosed(f"{self.uri}: a certificate's fingerprint or CA file is for a wss:// table")
        try:
            context = client_context(fingerprint=self.fingerprint, cafile=self.cafile) if secure else None
            ws = connect(
                self.uri,
                max_size=MAX_HOST_FRAME,
                open_timeout=timeout,
                compression=None,
                proxy=None,
                ssl=context,
            )
        except TLSSetupError as exc:
            raise TableClosed(str(exc)) from None
        except ssl.SSLCertVerificationError as exc:
            raise TableClosed(
                f"the table at {self.uri} showed a certificate this computer does not trust ({exc.verify_message}); "
                "join with --fingerprint (the one the host printed) or --cafile"
            ) from None
        except ssl.SSLError as exc:
            raise TableClosed(f"no secure connection to the table at {self.uri} ({exc.reason or exc})") from None
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise TableClosed(f"cannot reach the table at {self.uri} ({exc})") from None
        if self.fingerprint:
            sock = ws.socket
            der = sock.getpeercert(binary_form=True) if isinstance(sock, ssl.SSLSocket) else None
            try:
                check_pin(der, self.fingerprint)
            except TLSSetupError as exc:
                ws.close()
                raise TableClosed(str(exc)) from None
        return ws

    def look(self, timeout: float = 10.0) -> dict[str, Any]:
        """Who sits where at the table, before taking a seat: the host's ``table`` message (``title``,
        ``seats`` each with ``seat``, ``side``, ``name``, ``held``, ``present``, ``computer``, and ``watch``:
        the watchers' places left); ``TableClosed`` with the host's sentence when refused. The connection is
        closed again: ``connect`` opens its own."""
        self.ws = self._open(timeout)
        try:
            self.send("look", password=self.password)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    msg = parse_host(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                except TimeoutError:
                    break
                except ProtocolError as exc:
                    raise TableClosed(f"the host sent something this client cannot use ({exc})") from None
                except ConnectionClosed:
                    raise TableClosed("the host closed the connection") from None
                if isinstance(msg, Error):
                    raise TableClosed(msg.reason or "the host closed the connection")
                if isinstance(msg, TableInfo):
                    info: dict[str, Any] = codec.to_data(msg)
                    return info
            raise TableClosed(f"the table at {self.uri} did not answer in time")
        finally:
            self.close()

    def close(self) -> None:
        """Leave the table."""
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def send(self, kind: str, **fields_: Any) -> None:
        """Send one message to the host."""
        assert self.ws is not None
        self.ws.send(encode(kind, **fields_))

    def decide(self, action: act.Action) -> None:
        """Send a decision of this seat; the host's answer is a step (accepted) or ``refused``."""
        self.seq += 1
        self.awaiting = True
        self.send("decide", seq=self.seq, seat=self.seat, action=action)

    def receive(self, timeout: float) -> bool:
        """Handle one message from the host if one comes within ``timeout`` seconds (True when one did)."""
        assert self.ws is not None
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return False
        self.feed(raw)
        return True

    def feed(self, raw: str | bytes) -> None:
        """Handle one frame from the host (``TableClosed`` when the host refused this client or sent
        something it cannot use)."""
        if self.keep_raw:
            self.received.append(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))
        try:
            self.handle(parse_host(raw))
        except (ProtocolError, WireError, DesyncError, KeyError, TypeError, ValueError) as exc:
            raise TableClosed(f"the host sent something this client cannot use ({exc})") from None

    # ------------------------------------------------------------------ the host's messages
    def handle(self, msg: Message) -> None:
        """Follow one message of the host (decoded against its schema, ``protocol.parse_host``): rebuild or
        step the copy, note refusals, seats and chat."""
        if isinstance(msg, Welcome):
            self.seat = msg.seat
            if msg.token:
                self.token = msg.token
            self.say(f"seated at {self.seat}" + (f"; rejoin with --token {self.token}" if self.token else ""))
        elif isinstance(msg, State):
            steps = [(action, list(draws)) for action, draws in msg.steps]
            self.mirror = Mirror(setup_from_wire(msg.setup), list(msg.opening), steps)
            self.map_hint = {"name": msg.map.name[:200], "sha256": msg.map.sha256}
            self.seats = codec.to_data(msg.seats)
            self._progress(msg)
            self.progress["_fresh"] = True
            self.awaiting = False
            self.rebuilt = True
        elif isinstance(msg, Step):
            self._step(msg)
        elif isinstance(msg, Refused):
            # the copy thought the decision legal and the host did not: take the battle as it stands first
            self.refusals.append(msg.reason)
            self.say(f"refused: {msg.reason}")
            self.progress["_fresh"] = False
            self.awaiting = False
            self.send("sync")
        elif isinstance(msg, Seats):
            self.seats = codec.to_data(msg.seats)
            self._progress(msg)
        elif isinstance(msg, Said):
            self.chat_lines.append((msg.name, msg.text))
            self.say(f"[{msg.name}] {msg.text}")
        elif isinstance(msg, Error):
            raise TableClosed(msg.reason or "the host closed the connection")

    def _progress(self, msg: Progress) -> None:
        self.progress.update(decision=msg.decision, over=msg.over, winner=msg.winner, round=msg.round)

    def _step(self, msg: Step) -> None:
        if self.mirror is None or self.progress.get("_fresh") is not True:
            return  # a state is on its way (asked for with sync); it holds this step
        battle = self.mirror.battle
        index = msg.index
        if index < len(battle.log):
            return
        action: act.Action = msg.action
        try:
            if index > len(battle.log):
                raise DesyncError(f"step {index + 1} came before step {len(battle.log) + 1}")
            events = self.mirror.step(action, list(msg.draws))
        except DesyncError as exc:
            self.say(f"resynchronising: {exc}")
            self.progress["_fresh"] = False
            self.send("sync")
            return
        self._progress(msg)
        if self.seat == "gm" or not isinstance(action, gm.GMAction):
            # the step answers this seat's own decision; a GM decision in between answers nobody's here
            self.awaiting = False
        self.new_events.extend(events)
        if self.show_events:
            names = battle.names()
            for e in events:
                self.say(f"    {e.text(names)}")

    # ------------------------------------------------------------------ playing
    def my_turn(self) -> bool:
        """Whether the table waits for this seat and the copy is up to date."""
        if self.mirror is None or self.awaiting or self.progress.get("_fresh") is not True:
            return False
        d = self.mirror.battle.decision()
        host_d = self.progress.get("decision")
        return d is not None and d.side == self.seat and isinstance(host_d, dict) and host_d.get("side") == self.seat

    @property
    def over(self) -> bool:
        """Whether the host said the battle is over."""
        return bool(self.progress.get("over"))

    def play(self, player: Player | None, *, think: float = 0.0, deadline: float = 3600.0) -> None:
        """Receive and (with a ``player``) decide for this seat until the battle is over."""
        end = time.monotonic() + deadline
        while not self.over:
            if time.monotonic() > end:
                raise TableClosed("the battle did not end in time")
            if player is not None and self.my_turn():
                assert self.mirror is not None
                battle = self.mirror.battle
                d = battle.decision()
                assert d is not None
                if think:
                    time.sleep(think)
                self.decide(player(battle, d))
            self.receive(0.5)
            self.new_events.clear()  # nobody draws them here


def play_seat(client: Client, player: Player | None, *, retry: float = 30.0, think: float = 0.0) -> int:
    """Play (or watch) until the battle ends, reconnecting with the seat's token after a lost connection
    for up to ``retry`` seconds; returns a process exit code."""
    lost_at: float | None = None
    while True:
        try:
            if client.ws is None:
                client.connect()
                lost_at = None
            client.play(player, think=think)
            winner = client.progress.get("winner")
            sides = client.mirror.battle.sides if client.mirror is not None else {}
            name = sides[winner].name if isinstance(winner, str) and winner in sides else "nobody"
            client.say(f"The battle is over. Winner: {name}")
            client.close()
            return 0
        except TableClosed as exc:
            if client.ws is not None or "cannot reach" not in str(exc):
                client.say(f"error: {exc}")
                client.close()
                return 1
            lost_at = lost_at or time.monotonic()
            if time.monotonic() - lost_at > retry:
                client.say(f"error: {exc}")
                return 1
            time.sleep(0.2)
        except ConnectionClosed as exc:
            client.say(f"connection lost ({exc})")
            client.ws = None
            client.mirror = None
            client.progress = {}
            lost_at = time.monotonic()
            client.say("rejoining with the seat's token")


WindowOpener = Callable[["Client"], int]
"""Opens the game window at a table's seat, given the client that is to take it (not yet connected) -> exit
status."""


def join_main(argv: list[str], open_window: WindowOpener | None = None) -> int:
    """``python main.py join HOST[:PORT] [options]`` (``docs/network.md``): with ``--players``
    a computer plays the seat without a window; else ``open_window`` opens the game at the seat (the command
    layer passes it; ``--no-window`` prints the battle as text instead)."""
    p = argparse.ArgumentParser(prog="main.py join", description="Take a seat at a table hosted on another computer.")
    p.add_argument(
        "address", help=f"the host, as HOST, HOST:PORT (default port {DEFAULT_PORT}) or wss://HOST:PORT (encrypted)"
    )
    p.add_argument("--seat", default="", help="a side's id, 'gm' or 'watch' (default: the first free seat)")
    p.add_argument("--name", default="a player", help="your name at the table")
    p.add_argument("--players", choices=LEVELS, help="a computer plays this seat, without a window")
    p.add_argument("--password", help=PASSWORD_HELP)
    p.add_argument("--ask-password", action="store_true", help=ASK_HELP)
    p.add_argument("--token", help="the seat's token from an earlier join: take your seat back")
    p.add_argument(
        "--fingerprint", help="a wss:// table's certificate must have this SHA-256 fingerprint (the host prints it)"
    )
    p.add_argument("--cafile", help="check a wss:// table's certificate against the authorities in this PEM file")
    p.add_argument("--retry", type=float, default=30.0, help="seconds to keep rejoining after a lost connection")
    p.add_argument("--seed", type=int, default=1, help="the computer player's own seed (its choices, not the dice)")
    p.add_argument("--no-window", action="store_true", help="no game window: print the battle as text")
    p.add_argument("--think", type=float, default=0.0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)

    def say(text: str) -> None:
        print(text, flush=True)

    uri = address_uri(args.address, tls=bool(args.fingerprint or args.cafile))
    password = table_password(args.password, ask=args.ask_password)
    client = Client(uri, args.name, args.seat, password, args.token, say=say)
    client.fingerprint, client.cafile = args.fingerprint, args.cafile
    if not args.players and not args.no_window and open_window is not None:
        return open_window(client)
    player = make_player(args.players, args.seed) if args.players else None
    client.show_events = player is None
    if player is None and args.seat != "watch":
        say("this client shows the battle as text; to decide at this seat, join without --no-window")
    say(f"joining {client.uri} (protocol {PROTOCOL_VERSION})")
    code = play_seat(client, player, retry=args.retry, think=args.think)
    if code and client.token:
        say(f"your seat's token: {client.token}")
    return code if code else 0
