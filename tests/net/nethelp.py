"""Helpers for the networked-table tests: a host on the loopback address in a thread, on an ephemeral port
(``game.net.host.hosted``, the bench's too), and clients playing in threads; every wait is bounded."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

from websockets.client import ClientProtocol
from websockets.protocol import CONNECTING, OPEN
from websockets.uri import parse_uri

from game.engine.battle import RuleOptions
from game.engine.players import make_player
from game.net.client import Client, play_seat
from game.net.host import hosted as hosted
from game.net.protocol import encode, parse_client
from game.net.table import Out, Table
from game.session import new_session

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "forest_road.tmx"
TLS_CERT = ROOT / "tests" / "net" / "tls" / "test-only.crt"
TLS_KEY = ROOT / "tests" / "net" / "tls" / "test-only.key"
"""A self-signed certificate for 127.0.0.1, ::1 and localhost, for tests only (``tests/net/tls/README.md``)."""
SEED = 918273645
"""A seed long enough to be recognised in a message stream (it must never appear there)."""


def say(t: Table, conn: object, kind: str, **fields: object) -> list[Out]:
    """A message to the table as a client sends it: encoded, decoded against its schema, then handled."""
    return t.receive(conn, parse_client(encode(kind, **fields)))


def table(
    seed: int = SEED,
    *,
    secret: bool = False,
    gm: str | None = None,
    password: str = "",
    save: Path | None = None,
    map_path: Path = MAP,
) -> Table:
    """A table on a shipped map (quiet: nothing printed)."""
    session = new_session(map_path, seed=seed, options=RuleOptions(secret_stances=secret), autosave=False, gm=gm)
    return Table.start(session, password=password, save_path=save, say=lambda _: None)


def client(port: int, seat: str, *, name: str = "", password: str = "", keep_raw: bool = False) -> Client:
    """A quiet client for a seat of the table on ``port``."""
    c = Client(f"ws://127.0.0.1:{port}", name or f"player {seat}", seat, password, say=lambda _: None)
    c.keep_raw = keep_raw
    return c


def play_in_thread(c: Client, kind: str | None, seed: int = 1) -> tuple[threading.Thread, list[int]]:
    """Play (or watch, with ``kind`` None) a seat in a thread; the list gets the exit code."""
    codes: list[int] = []
    player = make_player(kind, seed) if kind else None
    thread = threading.Thread(target=lambda: codes.append(play_seat(c, player, retry=5)), daemon=True)
    thread.start()
    return thread, codes


class Proc:
    """``python main.py ARGS`` in the background; a thread reads its output (both streams) into ``lines``."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-u", str(ROOT / "main.py"), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=ROOT,
            env=None if env is None else {**os.environ, **env},
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._pump, daemon=True)
        self._reader.start()

    def _pump(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.append(line.rstrip("\n"))

    def type(self, line: str) -> None:
        """Type a line at the process's standard input."""
        assert self.popen.stdin is not None
        self.popen.stdin.write(line + "\n")
        self.popen.stdin.flush()

    def wait_for(self, needle: str, timeout: float = 20) -> str:
        """The first line holding ``needle`` (AssertionError naming the last lines after ``timeout`` s)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in list(self.lines):
                if needle in line:
                    return line
            if self.popen.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no {needle!r} in the output within {timeout} s: {self.lines[-8:]}")

    def finish(self, timeout: float = 30) -> int:
        """Wait for the process to end (killed after ``timeout`` s); its exit code."""
        if self.popen.stdin is not None and not self.popen.stdin.closed:
            with suppress(OSError):
                self.popen.stdin.close()
        try:
            return self.popen.wait(timeout)
        finally:
            if self.popen.poll() is None:
                self.popen.kill()
                self.popen.wait(5)
            self._reader.join(5)

    def kill(self) -> None:
        """End the process at once, as a crash would (no clean close)."""
        self.popen.kill()
        self.popen.wait(5)


class RawClient:
    """A WebSocket client on a bare socket that sends what a test says and reads only when told (the
    WebSocket library's own clients read in the background): a reader that stalls, or a client that stops
    half-way."""

    def __init__(self, port: int, *, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(5)
        self.sock.connect(("127.0.0.1", port))
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}"))
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        while self.protocol.handshake_exc is None and not self.protocol.events_received() and self._pump():
            if self.protocol.state is not CONNECTING:
                break
        assert self.protocol.state is OPEN, self.protocol.handshake_exc

    def _pump(self) -> bool:
        data = self.sock.recv(65536)
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        return bool(data)

    def _flush(self) -> None:
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.sock.sendall(chunk)

    def send(self, kind: str, **fields: object) -> None:
        """Send one message of the table's protocol (``socket.timeout`` when the host stops reading)."""
        self.protocol.send_text(encode(kind, **fields).encode())
        self._flush()

    def closed_by_host(self, timeout: float = 10) -> bool:
        """Read (and drop) what comes until the host closes the connection; whether it did within ``timeout``."""
        end = time.monotonic() + timeout
        try:
            while time.monotonic() < end:
                self.sock.settimeout(max(0.01, end - time.monotonic()))
                if not self._pump():
                    return True
                self.protocol.events_received()
        except ConnectionResetError:
            return True  # cut off after its closing handshake timed out
        except OSError:
            pass
        return False

    def close(self) -> None:
        """Drop the socket (no closing handshake)."""
        self.sock.close()
