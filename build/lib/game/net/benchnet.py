"""The networked table's figures for ``python main.py bench``: ``net_rtt_ms`` and the load behind
``net_eight_clients_frame_ms``.

- ``net_rtt_ms``: a decision sent by a client to a host on the loopback address and its events back (the
  host checks the seat and the rules, applies it, writes nothing, and sends the step to every seat), the
  median over many decisions of a battle whose two seats are two clients of this process.
- ``busy_table``: a host serving eight connected clients (in a child process, as they would be on other
  machines) while its computer plays both sides without end, a step every ``pause`` seconds broadcast to
  all eight — the network work a host's window shares its process with.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from game.engine import actions as act
from game.engine.battle import Battle, Decision
from game.net.client import Client
from game.net.host import run_host
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


@contextmanager
def _hosted(table: Table, pause: float = 0.0) -> Iterator[int]:
    ready = threading.Event()
    box: dict[str, object] = {}

    async def main() -> None:
        stop = asyncio.Event()
        box["loop"], box["stop"] = asyncio.get_running_loop(), stop

        def on_ready(port: int) -> None:
            box["port"] = port
            ready.set()

        await run_host(table, "127.0.0.1", 0, on_ready=on_ready, stop=stop, linger=0.0, computer_pause=pause)

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    if not ready.wait(20):
        raise RuntimeError("the bench's host did not start")
    try:
        yield int(str(box["port"]))
    finally:
        loop, stop = box["loop"], box["stop"]
        if thread.is_alive() and isinstance(loop, asyncio.AbstractEventLoop) and isinstance(stop, asyncio.Event):
            with suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        thread.join(10)


def _quiet_table() -> Table:
    session = new_session(MAP, seed=6, autosave=False)
    return Table.start(session, say=lambda _: None)


def rtt_ms(decisions: int) -> tuple[float, str]:
    """``net_rtt_ms``: the median milliseconds from sending a decision to receiving its step (see the
    module docstring), and what was measured."""
    table = _quiet_table()
    times: list[float] = []
    with _hosted(table) as port:
        clients = {
            side: Client(f"ws://127.0.0.1:{port}", f"bench {side}", side, say=lambda _: None)
            for side in table.battle.sides
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
    what = (
        f"{len(times)} decisions of two clients seated on {MAP.name}, each sent to a host on 127.0.0.1 and its "
        "step (action, dice, events) received back; the host checks seat and rules and tells both seats"
    )
    return statistics.median(times) * 1000, what


_WATCHERS = """
import sys, threading
from game.net.client import Client
port, count = int(sys.argv[1]), int(sys.argv[2])
clients = [Client(f"ws://127.0.0.1:{port}", f"watcher {i}", "watch", say=lambda _: None) for i in range(count)]
for c in clients:
    c.connect()
print("connected", flush=True)
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


@contextmanager
def busy_table(clients: int = 8, pause: float = 0.02) -> Iterator[dict[str, float]]:
    """A host in a thread of this process with ``clients`` clients connected from a child process, its
    computer playing both sides (a step every ``pause`` s, to every client); the dict it yields gets the
    number of ``steps`` sent and the ``seconds`` they took when the block ends."""
    table = _quiet_table()
    for side in table.battle.sides:
        table.computers[side] = idle_player
    info: dict[str, float] = {"clients": clients}
    with _hosted(table, pause) as port:
        child = subprocess.Popen(
            [sys.executable, "-c", _WATCHERS, str(port), str(clients)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert child.stdout is not None
            if child.stdout.readline().strip() != "connected":
                raise RuntimeError("the bench's clients did not connect")
            before, start = len(table.battle.log), time.monotonic()
            yield info
            info["steps"] = len(table.battle.log) - before
            info["seconds"] = time.monotonic() - start
        finally:
            if child.stdin is not None:
                child.stdin.close()
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(5)
