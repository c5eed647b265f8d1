"""The networked table's figures for ``python main.py bench``: ``net_rtt_ms``, ``net_rtt_under_flood_ms`` and
the load behind ``net_eight_clients_frame_ms``.

- ``net_rtt_ms``: a decision sent by a client to a host on the loopback address and its events back (the
  host checks the seat and the rules, applies it, writes nothing, and sends the step to every seat), the
  median over many decisions of a battle whose two seats are two clients of this process.
- ``net_rtt_under_flood_ms``: the same, while three more clients (watchers, in a child process) each ask
  for the whole battle (``sync``) as often as the host's rate limit lets them, just under it: each reads
  its answer and waits what that answer cost (``game.net.guard.sync_cost``) at ``RATE`` messages a second,
  plus a twentieth.
- ``busy_table``: a host serving eight connected clients (in a child process, as they would be on other
  machines) while its computer plays both sides without end, a step every ``pause`` seconds broadcast to
  all eight — the network work a host's window shares its process with.
"""

from __future__ import annotations

import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from game.engine import actions as act
from game.engine.battle import Battle, Decision, Seat
from game.net.client import Client
from game.net.host import hosted
from game.net.table import Table
from game.session import new_session

ROOT = Path(__file__).resolve().parent.parent.parent
MAP = ROOT / "maps" / "forest_road.tmx"


def idle_player(battle: Battle, d: Decision) -> act.Action:
    """A player that never attacks: each figure stays put and defends (a battle that goes on as long as a
    measurement needs)."""
    fid = d.figure or ""
    if d.reason == "interrupt":
        return act.PassInterrupt(d.side)
    if "stop_choice" in d.kinds:
        return act.StopChoice(fid, False)
    if "escape_failed_choice" in d.kinds:
        return act.EscapeFailedChoice(fid, False)
    if "follow_choice" in d.kinds:
        return act.FollowChoice(fid, None)
    if "declare" in d.kinds:
        return act.Declare(fid, "neutral")
    return act.Move(fid)


def _quiet_table() -> Table:
    session = new_session(MAP, seed=6, autosave=False)
    return Table.start(session, say=lambda _: None)


def rtt_ms(decisions: int) -> tuple[float, str]:
    """``net_rtt_ms``: the median milliseconds from sending a decision to receiving its step (see the
    module docstring), and what was measured."""
    table = _quiet_table()
    with hosted(table, linger=0.0) as port:
        times = _decision_times(table, port, decisions)
    what = (
        f"{len(times)} decisions of two clients seated on {MAP.name}, each sent to a host on 127.0.0.1 and its "
        "step (action, dice, events) received back; the host checks seat and rules and tells both seats"
    )
    return statistics.median(times) * 1000, what


_TELL = """
import sys, threading
said = threading.Lock()
def tell(line):
    with said:  # whole lines: print() from several threads can write one's newline after another's word
        sys.stdout.write(line + "\\n")
        sys.stdout.flush()
"""
"""The start of every script of the bench's child clients: ``tell(line)`` says one line to the bench."""

_FLOOD = (
    _TELL
    + """
import time
from websockets.sync.client import connect
from game.net.guard import sync_cost
from game.net.protocol import RATE, encode
port, count = int(sys.argv[1]), int(sys.argv[2])
counts = [0] * count
stop = threading.Event()
def flood(i):
    try:
        ws = connect(f"ws://127.0.0.1:{port}", proxy=None, max_size=None, compression=None, open_timeout=60)
        ws.send(encode("hello", name=f"flood {i}", seat="watch"))
        while '"kind":"state"' not in ws.recv(timeout=60)[:40]:
            pass
        tell("seated")
        while not stop.is_set():
            t0 = time.monotonic()
            ws.send(encode("sync"))
            while '"kind":"state"' not in (text := ws.recv(timeout=60))[:40]:
                if '"kind":"error"' in text[:40]:
                    tell("refused " + text[:200])
                    return
            counts[i] += 1
            time.sleep(max(0.0, sync_cost(text) / RATE * 1.05 - (time.monotonic() - t0)))
        ws.close()
    except Exception as exc:
        tell(f"failed {type(exc).__name__}: {exc}"[:300])
threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(count)]
for t in threads:
    t.start()
sys.stdin.read()
stop.set()
for t in threads:
    t.join(60)
tell(f"syncs {sum(counts)}")
"""
)


def rtt_under_flood_ms(decisions: int, flooders: int = 3) -> tuple[float, str]:
    """``net_rtt_under_flood_ms``: the median milliseconds of a decision's round trip while ``flooders``
    clients ask for the whole battle just under the rate limit (see the module docstring)."""
    table = _quiet_table()
    with hosted(table, linger=0.0) as port, _child_clients(_FLOOD, port, flooders, "seated", flooders) as out:
        start = time.monotonic()
        times = _decision_times(table, port, decisions)
        took = time.monotonic() - start
    syncs = next((int(line.split()[1]) for line in out if line.startswith("syncs ")), 0)
    for line in out:
        if line.startswith("refused"):
            raise RuntimeError(f"a flooding client was refused, so it was not under the limit: {line[:200]}")
        if line.startswith("failed"):
            raise RuntimeError(f"a flooding client stopped, so the table was not flooded throughout: {line[:200]}")
    what = (
        f"{len(times)} decisions as for net_rtt_ms, in {took:.1f} s, while {flooders} watchers asked for the "
        f"whole battle ({len(table.state_for(Seat.watcher())) // 1024} KB at the end) as often as the rate limit "
        f"allows, less a twentieth: {syncs} answers, {syncs / max(took, 0.001):.0f} a second"
    )
    return statistics.median(times) * 1000, what


CONNECT_WITHIN = 60.0
"""Seconds the bench's clients in a child process have to connect (a loaded machine may need many)."""


@contextmanager
def _child_clients(script: str, port: int, count: int, ready: str, lines: int) -> Iterator[list[str]]:
    """Clients in a child process running ``script`` (given the port and ``count``), ready once it has printed
    ``ready`` ``lines`` times (``RuntimeError`` quoting what it printed instead, or its last error, when it
    did not within ``CONNECT_WITHIN`` seconds); the list gets the rest of what it printed when the block ends
    (closing its standard input ends it)."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        child = subprocess.Popen(
            [sys.executable, "-c", script, str(port), str(count)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        said: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert child.stdout is not None
            for line in child.stdout:
                said.put(line.rstrip("\n"))
            said.put(None)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        out: list[str] = []
        try:
            end = time.monotonic() + CONNECT_WITHIN
            for _ in range(lines):
                try:
                    line = said.get(timeout=max(0.0, end - time.monotonic()))
                except queue.Empty:
                    line = f"nothing within {CONNECT_WITHIN:g} s"
                if line != ready:
                    errors.seek(0)
                    last = (errors.read().strip().splitlines() or ["—"])[-1]
                    raise RuntimeError(f"the bench's clients did not connect: {line or 'they stopped'} ({last[:300]})")
            yield out
        finally:
            assert child.stdin is not None
            with suppress(OSError):
                child.stdin.close()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(10)
            reader.join(10)
            while not said.empty():
                line = said.get()
                if line is not None:
                    out.append(line)


def _decision_times(table: Table, port: int, decisions: int) -> list[float]:
    """Seconds from sending each decision to receiving its step, for two clients seated at ``table``."""
    times: list[float] = []
    clients = {
        side: Client(f"ws://127.0.0.1:{port}", f"bench {side}", side, say=lambda _: None) for side in table.battle.sides
    }
    for c in clients.values():
        c.connect()
    end = time.monotonic() + 60
    while len(times) < decisions and time.monotonic() < end:
        d = table.battle.decision()
        if d is None:
            break
        c = clients[d.side]
        mirror = c.mirror
        assert mirror is not None
        md = mirror.battle.decision()
        if md is None or md != d:
            for other in clients.values():  # let every copy catch up with the last step
                other.receive(0.01)
            continue
        t0 = time.perf_counter()
        c.decide(idle_player(mirror.battle, md))
        while c.awaiting and time.monotonic() < end:
            c.receive(1.0)
        times.append(time.perf_counter() - t0)
    for c in clients.values():
        c.close()
    if not times:
        raise RuntimeError("no decision made it to the bench's host and back")
    return times


_WATCHERS = (
    _TELL
    + """
from game.net.client import Client
port, count = int(sys.argv[1]), int(sys.argv[2])
clients = [Client(f"ws://127.0.0.1:{port}", f"watcher {i}", "watch", say=lambda _: None) for i in range(count)]
for c in clients:
    c.connect(timeout=60)
tell("connected")
def follow(c):
    try:
        while True:
            c.receive(1.0)
    except Exception:
        pass
threads = [threading.Thread(target=follow, args=(c,), daemon=True) for c in clients]
for t in threads:
    t.start()
sys.stdin.read()
"""
)


@contextmanager
def busy_table(clients: int = 8, pause: float = 0.02) -> Iterator[dict[str, float]]:
    """A host in a thread of this process with ``clients`` clients connected from a child process, its
    computer playing both sides (a step every ``pause`` s, to every client); the dict it yields gets the
    number of ``steps`` sent and the ``seconds`` they took when the block ends."""
    table = _quiet_table()
    for side in table.battle.sides:
        table.computers[side] = idle_player
    info: dict[str, float] = {"clients": clients}
    with (
        hosted(table, computer_pause=pause, linger=0.0) as port,
        _child_clients(_WATCHERS, port, clients, "connected", 1),
    ):
        before, start = len(table.battle.log), time.monotonic()
        yield info
        info["steps"] = len(table.battle.log) - before
        info["seconds"] = time.monotonic() - start
