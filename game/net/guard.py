"""The host's guards on its connections: what one connection may cost the table, whoever is at the other end.

- **Not yet seated** (``Admission``): a connection counts from the moment the host accepts it until it takes
  a seat. At most ``UNSEATED_PER_ADDRESS`` of them wait from one address and ``UNSEATED_TOTAL`` in all; a
  newcomer beyond either closes the one that has waited longest (of its own address, or of all), so
  connections that never speak cannot keep a seat's holder out: a holder says hello the moment it is
  connected, and a seated connection no longer counts.
- **Falling behind** (``Outbox``): what the host sends a connection waits in its outbox. A client that reads
  too slowly for more than ``BEHIND_MESSAGES`` messages or ``BEHIND_BYTES`` bytes is closed with the close
  code ``SLOW_READER`` and a sentence (one message, however big — the battle as it stands — always fits).
  The system's own send buffer for a connection is kept to ``SEND_BUFFER`` bytes.
- **What a message costs**: ``sync_cost`` — an answer of the whole battle counts against the client's
  message-rate limit as one message per ``SYNC_BYTES`` bytes it takes on the wire.
- **Echoes**: a refusal shows at most ``ECHO`` characters of what a client sent (``echo``) and is at most
  ``MAX_REASON`` characters in all (``clip``).
- **The console** (``console_logger``): the WebSocket library's own reports of failed handshakes, port scans,
  TLS hellos on a plain port or browsers refused by their ``Origin`` become one line each, never a
  traceback, and a burst of them is summed up rather than printed line by line. On a ``wss://`` table the
  host makes each TLS handshake itself (``game.net.tls.accept_tls``), and one that fails — a port scan, a
  plain ``ws://`` client or browser, a client that does not trust the certificate — is one line too
  (``describe_tls_failure``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from game.net.protocol import BURST, RATE

UNSEATED_PER_ADDRESS = 8
"""Connections from one address that have not taken a seat yet."""
UNSEATED_TOTAL = 32
"""Connections in all that have not taken a seat yet (a newcomer then closes the longest waiting one)."""
BEHIND_MESSAGES = 2 * BURST
"""Messages waiting for a client that reads too slowly before the host closes its connection (more than the
answers to a whole burst of messages, which the rate limit lets a client send at once)."""
BEHIND_BYTES = 4 * 1024 * 1024
"""Bytes waiting for a client that reads too slowly before the host closes its connection."""
SEND_BUFFER = 256 * 1024
"""Bytes the system may hold for sending on one connection (its socket's ``SO_SNDBUF``), so what waits for a
slow reader stays in the host's own outbox, where it is counted."""
SLOW_READER = 1008
"""The close code for a client that fell behind (WebSocket's "policy violation")."""
SYNC_BYTES = 1024
"""Bytes of a ``sync`` answer that count as one message against the rate limit."""
ECHO = 40
"""Characters of a client's own text a refusal repeats."""
MAX_REASON = 240
"""Characters of a refusal's sentence."""
CONSOLE_BURST = 20
"""Connection failures said on the console one by one before the rest of a burst is counted instead."""
CONSOLE_QUIET = 10.0
"""Seconds of a burst's count: then one line says how many failures were not shown."""


def echo(value: object) -> str:
    """A client's text as a refusal repeats it: quoted, at most ``ECHO`` characters, only printable ones."""
    text = value if isinstance(value, str) else repr(value)
    shown = "".join(ch if ch.isprintable() else "?" for ch in text[:ECHO])
    return repr(shown + ("…" if len(text) > ECHO else ""))


_LONG_QUOTE = re.compile(rf"""(['"`])([^'"`]{{{ECHO + 1},}})\1""")
_LONG_WORD = re.compile(rf"\S{{{2 * ECHO + 1},}}")


def clip(reason: str) -> str:
    """A refusal's sentence as sent: whatever it quotes (or any word) longer than ``ECHO`` characters cut to
    its start, and the whole cut to ``MAX_REASON`` characters."""
    reason = _LONG_QUOTE.sub(lambda m: f"{m[1]}{m[2][:ECHO]}…{m[1]}", reason)
    reason = _LONG_WORD.sub(lambda m: m[0][:ECHO] + "…", reason)
    return reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 1] + "…"


def sync_cost(text: str) -> float:
    """What answering ``sync`` with ``text`` counts against the rate limit, in messages."""
    return 1.0 + len(text) // SYNC_BYTES


T = TypeVar("T")


@dataclass
class Outbox(Generic[T]):
    """One connection's frames waiting to be sent, bounded (module docstring): ``put`` answers False when the
    reader has fallen too far behind, and the outbox is then emptied and takes nothing more."""

    max_messages: int = BEHIND_MESSAGES
    max_bytes: int = BEHIND_BYTES
    items: deque[tuple[T, int]] = field(default_factory=deque)
    size: int = 0
    """Bytes waiting."""
    peak: int = 0
    """The most bytes that ever waited (for the tests' bound)."""
    closed: bool = False
    _ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, item: T, size: int) -> bool:
        """Queue ``item`` of ``size`` bytes; False (and nothing queued, ever again) when that is too much."""
        if self.closed:
            return False
        if self.items and (len(self.items) >= self.max_messages or self.size + size > self.max_bytes):
            self.close()
            return False
        self.items.append((item, size))
        self.size += size
        self.peak = max(self.peak, self.size)
        self._ready.set()
        return True

    def close(self) -> None:
        """Drop what waits and take nothing more (``get`` then answers None)."""
        self.closed = True
        self.items.clear()
        self.size = 0
        self._ready.set()

    async def get(self) -> T | None:
        """The next frame to send, waiting for one; None once the outbox is closed."""
        while not self.items and not self.closed:
            self._ready.clear()
            await self._ready.wait()
        if self.closed:
            return None
        item, size = self.items.popleft()
        self.size -= size
        return item


class Admission:
    """Connections not yet seated, by address and in all (module docstring)."""

    def __init__(self, per_address: int | None = None, total: int | None = None) -> None:
        self.per_address = UNSEATED_PER_ADDRESS if per_address is None else per_address
        self.total = UNSEATED_TOTAL if total is None else total
        self.waiting: OrderedDict[Hashable, str] = OrderedDict()
        """Unseated connections, longest waiting first, with their address."""

    def arrive(self, conn: Hashable, address: str) -> list[Hashable]:
        """A connection accepted from ``address``: the longest-waiting unseated connections it closes to make
        room (one of the same address when that address has its fill, else the longest waiting of all)."""
        evicted: list[Hashable] = []
        same = [c for c, a in self.waiting.items() if a == address]
        for old in same[: max(0, len(same) - self.per_address + 1)]:
            del self.waiting[old]
            evicted.append(old)
        while len(self.waiting) >= self.total:
            old, _ = self.waiting.popitem(last=False)
            evicted.append(old)
        self.waiting[conn] = address
        return evicted

    def seated(self, conn: Hashable) -> None:
        """The connection took a seat: it no longer counts."""
        self.waiting.pop(conn, None)

    def gone(self, conn: Hashable) -> None:
        """The connection closed."""
        self.waiting.pop(conn, None)


def peer(address: Any) -> str:
    """A socket's peer address as the console says it (``host:port``, an IPv6 host in brackets)."""
    if isinstance(address, tuple) and len(address) >= 2:
        host = str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
    return "an unknown address"


def where(conn: object) -> str:
    """Where a connection comes from, as the console says it (noted when the host accepted it)."""
    noted = getattr(conn, "peer", None)
    return noted if isinstance(noted, str) else "an unknown address"


def describe_failure(exc: BaseException | None) -> str:
    """Why a connection failed before it could speak the table's protocol, in a few words (whatever text
    of the client's it quotes cut short)."""
    if exc is None:
        return "it failed"
    causes: list[str] = []
    e: BaseException | None = exc
    while e is not None and len(causes) < 4:
        causes.append(str(e) or type(e).__name__)
        e = e.__cause__
    chain = " / ".join(causes)
    name = type(exc).__name__
    if name == "InvalidOrigin":
        return f"a web page's connection (Origin {echo(getattr(exc, 'value', None) or '')}) is not allowed"
    if name == "InvalidUpgrade":
        return "an HTTP request that is not a WebSocket one (a web browser opened the address?)"
    if name == "InvalidMessage":
        if "request line" in chain and "after 0 bytes" in chain:
            return "it closed without a word (a port scan?)"
        if "headers" in chain and "closed" in chain:
            return "it closed in the middle of its WebSocket handshake"
        return "it sent something that is not an HTTP request (a TLS hello to a plain ws:// port?)"
    if isinstance(exc, TimeoutError):
        return "its handshake took too long"
    return f"its handshake failed ({echo(chain)[1:-1]})"


_TLS_REASONS = (
    ("HTTP_REQUEST", "it spoke plain HTTP, not TLS (a ws:// address, or http:// in a browser, for this wss:// table?)"),
    ("WRONG_VERSION_NUMBER", "it sent something that is not a TLS hello (a ws:// client at this wss:// table?)"),
    ("UNKNOWN_CA", "it does not trust the table's certificate (it may join with the fingerprint printed above)"),
    ("CERTIFICATE", "it does not trust the table's certificate (it may join with the fingerprint printed above)"),
    ("PROTOCOL", "its TLS is too old (the table takes TLS 1.2 and later)"),
    ("VERSION", "its TLS is too old (the table takes TLS 1.2 and later)"),
)


def describe_tls_failure(exc: BaseException) -> str:
    """Why a connection's TLS handshake failed (``game.net.tls.accept_tls``), in a few words."""
    if isinstance(exc, ssl.SSLError):
        reason = str(exc.reason or exc)
        for code, words in _TLS_REASONS:
            if code in reason:
                return words
        return f"its TLS handshake failed ({echo(reason)[1:-1]})"
    if isinstance(exc, ConnectionAbortedError | TimeoutError):
        return "its TLS handshake took too long"
    if isinstance(exc, ConnectionError | EOFError):
        return "it closed before its TLS handshake ended (a port scan?)"
    return f"its TLS handshake failed ({echo(str(exc) or type(exc).__name__)[1:-1]})"


@dataclass
class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second (a flood closes the connection); an
    answer may also ``charge`` what it cost, in messages."""

    rate: float = RATE
    burst: float = BURST
    tokens: float | None = None
    """Messages the client may send now (below nothing after a costly answer: it then waits longer)."""
    last: float = 0.0

    def allow(self, now: float) -> bool:
        """Count one message at time ``now`` (seconds); False when the sender is over the limit."""
        tokens = self.burst if self.tokens is None else min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if tokens < 1:
            self.tokens = tokens
            return False
        self.tokens = tokens - 1
        return True

    def charge(self, cost: float) -> None:
        """Count ``cost`` more messages for the last one (what its answer cost)."""
        if self.tokens is not None:
            self.tokens -= max(0.0, cost)


class ConsoleHandler(logging.Handler):
    """The WebSocket library's reports as one line each on the host's console (module docstring); ``line``
    says the host's own connection notes under the same burst limit."""

    def __init__(self, say: Callable[[str], None], *, skip: Callable[[object], bool] = lambda _: False) -> None:
        super().__init__(logging.WARNING)
        self.say = say
        self.skip = skip
        self.shown: deque[float] = deque()
        self.hidden = 0
        self.hidden_since = 0.0

    def line(self, text: str) -> None:
        """Say ``text`` on the console, unless a burst of them is being counted instead."""
        now = time.monotonic()
        while self.shown and now - self.shown[0] > CONSOLE_QUIET:
            self.shown.popleft()
        if self.hidden and now - self.hidden_since > CONSOLE_QUIET:
            self.say(f"network: {self.hidden} more connection notes in {CONSOLE_QUIET:g} s were not shown")
            self.hidden = 0
        if len(self.shown) >= CONSOLE_BURST:
            if not self.hidden:
                self.hidden_since = now
            self.hidden += 1
            return
        self.shown.append(now)
        self.say(text)

    def emit(self, record: logging.LogRecord) -> None:
        """One line for one failure."""
        try:
            conn = getattr(record, "websocket", None)
            if conn is not None and self.skip(conn):
                return  # the host refused it itself and said so
            exc = record.exc_info[1] if record.exc_info else None
            if record.getMessage() == "opening handshake failed":
                self.line(f"network: refused a connection from {where(conn)}: {describe_failure(exc)}")
            else:
                detail = f" ({describe_failure(exc)})" if exc is not None else ""
                self.line(f"network: {clip(record.getMessage())[:80]} with {where(conn)}{detail}")
        except Exception:  # the console must never take the host down
            self.handleError(record)


def console_logger(handler: ConsoleHandler) -> logging.Logger:
    """A logger for the WebSocket server whose reports reach ``handler`` (one line each); it is its own (not
    in ``logging``'s tree), so nothing else prints them again."""
    logger = logging.Logger("game.net.host")
    logger.propagate = False
    logger.addHandler(handler)
    return logger
