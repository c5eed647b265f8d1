"""The host holds against hostile connections: each failed handshake is one line on its console, never a
traceback; a reader that stalls is closed before the host's memory grows; connections that never take a
seat cannot lock a seat's holder out; a refusal repeats only a short prefix of what was sent. In each, the
host stays up, answers a legitimate client afterwards, leaves the battle untouched and keeps its save
loadable."""

from __future__ import annotations

import json
import socket
import ssl
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import connect

from game.engine.events import events_digest
from game.engine.players import make_player
from game.net import guard
from game.net.client import Client
from game.net.host import Host
from game.net.protocol import PROTOCOL_VERSION
from game.net.table import Table
from game.net.tls import certificate_fingerprint, server_context
from game.session import load_session
from tests.net.nethelp import MAP, TLS_CERT, TLS_KEY, Proc, RawClient, client, hosted, table


def _untouched(t: Table) -> tuple[int, str]:
    return len(t.battle.log), events_digest(t.battle.events)


def _save_loads(save: Path, t: Table) -> None:
    """The host's save loads, and holds the battle as the host has it."""
    assert load_session(save, autosave=False).battle.digests == t.battle.digests


def _a_legitimate_client_is_answered(port: int) -> None:
    c = client(port, "watch", name="Legit")
    c.connect(timeout=10)
    assert c.mirror is not None and c.seat == "watch"
    c.close()


def _network_lines(host: Proc) -> list[str]:
    return [line for line in host.lines if line.startswith("network:")]


def _one_line(host: Proc, act: object, words: str) -> None:
    """``act()`` (a hostile connection) adds exactly one console line, holding ``words``."""
    before = len(_network_lines(host))
    assert callable(act)
    act()
    end = time.monotonic() + 10
    while len(_network_lines(host)) == before and time.monotonic() < end:
        time.sleep(0.02)
    time.sleep(0.3)  # anything more it would print arrives meanwhile
    new = _network_lines(host)[before:]
    assert len(new) == 1 and words in new[0], new


def _port_scan(port: int) -> None:
    socket.create_connection(("127.0.0.1", port), timeout=5).close()


def _half_handshake(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n")


def _tls_hello(port: int) -> None:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s, pytest.raises((ssl.SSLError, OSError)):
        context.wrap_socket(s, server_hostname="127.0.0.1").close()


def _browser(port: int) -> None:
    with pytest.raises(InvalidStatus):
        connect(f"ws://127.0.0.1:{port}", origin="http://evil.example/" + "x" * 200, proxy=None, open_timeout=5)


def _plain_http(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 426")


def test_each_failed_handshake_is_one_line_on_the_hosts_console_and_never_a_traceback(tmp_path: Path) -> None:
    save = tmp_path / "table.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", "--save", str(save))
    try:
        line = host.wait_for("listening on ws://127.0.0.1:")
        port = int(line.rsplit(":", 1)[1])
        _one_line(host, lambda: _port_scan(port), "a port scan?")
        _one_line(host, lambda: _half_handshake(port), "in the middle of its WebSocket handshake")
        _one_line(host, lambda: _tls_hello(port), "not an HTTP request (a TLS hello")
        _one_line(host, lambda: _browser(port), "a web page's connection (Origin 'http://evil.example/xxx")
        _one_line(host, lambda: _plain_http(port), "not a WebSocket one")
        assert all(len(line) < 200 for line in _network_lines(host)), "the Origin is cut short"
        _a_legitimate_client_is_answered(port)
        host.wait_for("Legit watches")
    finally:
        host.popen.terminate()
        host.finish(10)
    assert not any("Traceback" in line or line.startswith(" ") for line in host.lines), host.lines
    assert load_session(save, autosave=False).battle.log == []


def _garbage(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(bytes(range(256)))
        assert s.recv(100) == b"", "the host closed it"


def _ws_client_at_a_wss_table(port: int) -> None:
    with pytest.raises(InvalidMessage):  # no HTTP answer: the TLS layer closed it
        connect(f"ws://127.0.0.1:{port}", proxy=None, open_timeout=5).close()


def _distrusting_tls_client(port: int) -> None:
    context = ssl.create_default_context()  # the system's authorities: a self-signed certificate fails
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s, pytest.raises(ssl.SSLCertVerificationError):
        context.wrap_socket(s, server_hostname="127.0.0.1")


def _tls_scan(port: int) -> None:
    """A scanner that speaks TLS, then closes without a word of WebSocket."""
    context = ssl.create_default_context(cafile=TLS_CERT)
    context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="127.0.0.1").close()


def test_each_failed_tls_handshake_at_a_wss_table_is_one_line_and_never_a_traceback(tmp_path: Path) -> None:
    save = tmp_path / "table.json"
    host = Proc(
        "host", str(MAP), "--port", "0", "--seed", "5", "--save", str(save), "--tls", str(TLS_CERT), str(TLS_KEY)
    )
    try:
        port = int(host.wait_for("listening on wss://127.0.0.1:").rsplit(":", 1)[1])
        _one_line(host, lambda: _port_scan(port), "it closed before its TLS handshake ended (a port scan?)")
        _one_line(host, lambda: _plain_http_at_tls(port), "it spoke plain HTTP, not TLS")
        _one_line(host, lambda: _ws_client_at_a_wss_table(port), "it spoke plain HTTP, not TLS")
        _one_line(host, lambda: _garbage(port), "not a TLS hello")
        _one_line(host, lambda: _distrusting_tls_client(port), "it does not trust the table's certificate")
        _one_line(host, lambda: _tls_scan(port), "it closed without a word (a port scan?)")
        legit = Client(f"wss://127.0.0.1:{port}", "Legit", "watch", say=lambda _: None)
        legit.fingerprint = certificate_fingerprint(TLS_CERT)
        legit.connect(timeout=10)
        assert legit.mirror is not None and legit.seat == "watch"
        legit.close()
        host.wait_for("Legit watches")
    finally:
        host.popen.terminate()
        host.finish(10)
    assert all(line.startswith("network: refused a connection from 127.0.0.1:") for line in _network_lines(host))
    assert not any("Traceback" in line or line.startswith(" ") for line in host.lines[3:]), host.lines
    assert load_session(save, autosave=False).battle.log == []


def _plain_http_at_tls(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(100) == b"", "the TLS layer closes it"


def test_a_tls_handshake_left_half_way_is_closed_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import game.net.host

    monkeypatch.setattr(game.net.host, "HELLO_WITHIN", 0.3)
    t = table()
    lines: list[str] = []
    t.say = lines.append
    with hosted(t, tls=server_context(TLS_CERT, TLS_KEY)) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"\x16\x03\x01")  # the start of a TLS hello, and then nothing
            assert s.recv(100) == b"", "the host closed it"
        c = Client(f"wss://127.0.0.1:{port}", "Legit", "watch", say=lambda _: None)
        c.fingerprint = certificate_fingerprint(TLS_CERT)
        c.connect(timeout=10)
        c.close()
    said = [line for line in lines if line.startswith("network:")]
    assert len(said) == 1 and "its TLS handshake took more than 0.3 seconds" in said[0], lines


def test_a_reader_that_stalls_is_closed_and_the_hosts_memory_stays_bounded(tmp_path: Path) -> None:
    t = table(save=tmp_path / "table.json")
    t.save()
    before = _untouched(t)
    host = Host(t)
    host.behind = (guard.BEHIND_MESSAGES, 256 * 1024)
    with hosted(t, host=host) as port:
        stalled = RawClient(port, rcvbuf=4096)
        stalled.send("hello", name="staller", seat="watch")
        _seated(t, 1)
        tracemalloc.start()
        try:
            start, _ = tracemalloc.get_traced_memory()
            peak_box = 0
            sent = 0
            for _ in range(400):  # each asks for the whole battle (23 KB), never reading an answer
                try:
                    stalled.send("sync")
                except OSError:
                    break  # the host cut the connection
                sent += 1
                peak_box = max([peak_box, *(box.size for box in list(host.outboxes.values()))])
                if not t.conns:
                    break
                time.sleep(0.005)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert stalled.closed_by_host(10), "the host closed the stalled reader"
        _forgotten(t, host)
        assert peak_box <= 256 * 1024 + 64 * 1024, peak_box
        assert peak - start < 16 * 2**20, f"the host's memory grew by {(peak - start) / 2**20:.1f} MiB"
        assert sent * 23_000 > 2 * (256 * 1024 + 2 * guard.SEND_BUFFER), "it asked for more than the bound holds"
        _a_legitimate_client_is_answered(port)
    assert _untouched(t) == before
    _save_loads(tmp_path / "table.json", t)


def test_the_stalled_reader_is_told_why_in_its_close_frame() -> None:
    t = table()
    host = Host(t)
    host.behind = (8, guard.BEHIND_BYTES)
    with hosted(t, host=host) as port:
        c = connect(f"ws://127.0.0.1:{port}", proxy=None, open_timeout=5, max_queue=None)
        c.send(json.dumps({"v": PROTOCOL_VERSION, "kind": "hello", "name": "slow", "seat": "watch"}))
        with pytest.raises(ConnectionClosed) as closed:
            for n in range(200):  # pings whose pongs this client reads only afterwards: more than 8 wait
                c.send(json.dumps({"v": PROTOCOL_VERSION, "kind": "ping", "n": n}))
            for _ in range(1000):
                c.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == guard.SLOW_READER
        assert "fell behind: more than 8 messages" in closed.value.rcvd.reason
        _a_legitimate_client_is_answered(port)


def _seated(t: Table, count: int) -> None:
    end = time.monotonic() + 10
    while len(t.conns) < count:
        assert time.monotonic() < end, "the host did not seat the client"
        time.sleep(0.01)


def _forgotten(t: Table, host: Host) -> None:
    """The host forgets a connection it closed: its seat and its outbox go (the close reaches the client a moment
    before the host's own bookkeeping, on the host's thread)."""
    end = time.monotonic() + 10
    while t.conns or host.outboxes:
        assert time.monotonic() < end, f"the host kept {list(t.conns)} and {len(host.outboxes)} outboxes"
        time.sleep(0.01)


def _idle(port: int) -> RawClient:
    return RawClient(port)


@pytest.mark.parametrize(("per_address", "total"), [(guard.UNSEATED_PER_ADDRESS, guard.UNSEATED_TOTAL), (100, 16)])
def test_idle_connections_cannot_lock_a_seat_holder_out(per_address: int, total: int, tmp_path: Path) -> None:
    t = table(save=tmp_path / "table.json")
    before = _untouched(t)
    seat = next(iter(t.battle.sides))
    lines: list[str] = []
    t.say = lines.append
    host = Host(t, admission=guard.Admission(per_address, total))
    with hosted(t, host=host) as port:
        holder = client(port, seat, name="Ann")
        holder.connect()
        token = holder.token
        holder.close()
        idle = [_idle(port) for _ in range(64)]  # connected, never a word: as many as the old limit held
        assert len(host.admission.waiting) <= min(per_address, total)
        back = Client(f"ws://127.0.0.1:{port}", "Ann", seat, token=token, say=lambda _: None)
        back.connect(timeout=10)
        assert back.seat == seat and back.mirror is not None
        back.close()
        for c in idle:
            c.close()
    assert any("rejoins the seat" in line for line in lines)
    assert any("a newer connection needed its room" in line for line in lines)
    assert _untouched(t) == before
    _save_loads(tmp_path / "table.json", t)


def test_a_handshake_left_half_way_is_closed_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import game.net.host

    monkeypatch.setattr(game.net.host, "HELLO_WITHIN", 0.3)
    t = table()
    lines: list[str] = []
    t.say = lines.append
    with hosted(t) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and then nothing
            assert s.recv(100) == b"", "the host closed it"
        _a_legitimate_client_is_answered(port)
    assert lines.count(lines[0]) == 1 and "handshake took more than 0.3 seconds" in lines[0], lines
    assert [line for line in lines if line.startswith("network:")] == [lines[0]], lines


def test_a_refusal_repeats_at_most_a_short_prefix_of_what_was_sent(tmp_path: Path) -> None:
    t = table(save=tmp_path / "table.json")
    t.save()
    before = _untouched(t)
    with hosted(t) as port:
        for frame in (
            {"v": PROTOCOL_VERSION, "kind": "k" * 60_000},
            {"v": PROTOCOL_VERSION, "kind": "hello", "name": "x", "seat": "s" * 40},
            {"v": PROTOCOL_VERSION, "kind": "hello", "name": "x", "f" * 60_000: 1},
        ):
            c = connect(f"ws://127.0.0.1:{port}", proxy=None, open_timeout=5)
            c.send(json.dumps(frame))
            reason = json.loads(c.recv(timeout=5))["reason"]
            assert len(reason) <= guard.MAX_REASON and "k" * 200 not in reason and "f" * 200 not in reason, reason
            c.close()
        _a_legitimate_client_is_answered(port)
    assert _untouched(t) == before
    _save_loads(tmp_path / "table.json", t)


def test_echo_and_clip_keep_a_clients_text_short_and_printable() -> None:
    assert guard.echo("abc") == "'abc'"
    assert guard.echo("a" * 100) == repr("a" * guard.ECHO + "…")
    assert guard.echo("\x1b[2J") == "'?[2J'"
    assert len(guard.clip("x " * 10_000)) == guard.MAX_REASON


def test_unseated_connections_make_room_longest_waiting_first_by_address_then_in_all() -> None:
    a = guard.Admission(per_address=2, total=3)
    assert a.arrive("a1", "A") == [] and a.arrive("a2", "A") == []
    assert a.arrive("a3", "A") == ["a1"], "an address's own oldest makes room for it"
    assert a.arrive("b1", "B") == []
    assert a.arrive("c1", "C") == ["a2"], "then the oldest of all"
    a.seated("a3")
    assert a.arrive("c2", "C") == [] and list(a.waiting) == ["b1", "c1", "c2"]


def _take_seat(port: int, seat: str, token: str | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """A bare WebSocket seated at ``seat`` (with its ``token`` to take it back): the connection and what the
    host sent up to the battle's state."""
    ws = connect(f"ws://127.0.0.1:{port}", proxy=None, open_timeout=10, max_size=None)
    hello: dict[str, Any] = {"v": PROTOCOL_VERSION, "kind": "hello", "name": f"Hostile {seat}", "seat": seat}
    if token:
        hello["token"] = token
    ws.send(json.dumps(hello))
    said: list[dict[str, Any]] = []
    while not said or said[-1]["kind"] not in ("state", "error"):
        said.append(json.loads(ws.recv(timeout=10)))
    assert said[-1]["kind"] == "state", said
    return ws, said


def _refused(ws: Any, frame: str) -> str:
    """Send ``frame``; the host's refusal (its ``error`` sentence, or the close frame's reason)."""
    ws.send(frame)
    try:
        while (answer := json.loads(ws.recv(timeout=10)))["kind"] != "error":
            pass
        reason = str(answer["reason"])
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        return reason
    except ConnectionClosed as closed:
        return closed.rcvd.reason if closed.rcvd is not None else "closed"


def test_a_hostile_seat_at_a_real_host_is_refused_and_the_battle_goes_on(tmp_path: Path) -> None:
    """Every decision a seated player was seen to break the table with, and other tricks of a hostile seat,
    sent to a ``host`` process: each is refused with a sentence and its connection closed; the host stays up,
    its console has no traceback and no fault, the battle and its save are untouched, and the seat's rightful
    decision is taken afterwards and replays roll for roll."""
    from main import main
    from tests.test_codec import SEAT_HOSTILE

    save = tmp_path / "table.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", "--save", str(save))
    try:
        port = int(host.wait_for("listening on ws://127.0.0.1:").rsplit(":", 1)[1])
        first, said = _take_seat(port, "blue")
        tokens = {"blue": next(m["token"] for m in said if m["kind"] == "welcome")}
        second, said = _take_seat(port, "red")
        tokens["red"] = next(m["token"] for m in said if m["kind"] == "welcome")
        waiting = said[-1]["decision"]
        side, figure = str(waiting["side"]), str(waiting["figure"])
        other = "red" if side == "blue" else "blue"
        first.close()
        second.close()
        before = save.read_bytes()

        def decide(action: str, seat: str = side) -> str:
            return f'{{"v":{PROTOCOL_VERSION},"kind":"decide","seq":1,"seat":"{seat}","action":{action}}}'

        cases = [(side, decide(a.replace('"f1"', json.dumps(figure)))) for a in SEAT_HOSTILE] + [
            (other, decide(f'{{"kind":"hold","figure":"{figure}"}}')),  # a decision for another seat
            (side, decide(f'{{"kind":"hold","figure":"{figure}"}}', other)),
            (side, decide("[" * 20_000 + "]" * 20_000)),  # nested deeper than any decision
            (side, decide('{"kind":"hold","figure":"' + "x" * 70_000 + '"}')),  # a frame over the limit
            (side, f'{{"v":{PROTOCOL_VERSION},"kind":"chat","text":"\\u202e[GM] all hold"}}'),
            (side, f'{{"v":{PROTOCOL_VERSION},"kind":"decide","seq":1,"seat":"{side}","seat":"{other}"}}'),
        ]
        for seat, frame in cases:
            ws, _ = _take_seat(port, seat, tokens[seat])
            reason = _refused(ws, frame)
            assert reason and "\n" not in reason and len(reason) <= guard.MAX_REASON, (frame[:80], reason)
            assert save.read_bytes() == before, f"the battle changed after {frame[:80]}"
        for name in ("Ann\u200b", "\u202eAnn", "Ann\x1b[2J"):
            ws = connect(f"ws://127.0.0.1:{port}", proxy=None, open_timeout=10)
            reason = _refused(ws, json.dumps({"v": PROTOCOL_VERSION, "kind": "hello", "name": name, "seat": "watch"}))
            assert "refused" in reason, reason

        rightful = Client(f"ws://127.0.0.1:{port}", "Rightful", side, token=tokens[side], say=lambda _: None)
        rightful.connect(timeout=10)
        assert rightful.mirror is not None
        d = rightful.mirror.battle.decision()
        assert d is not None and d.side == side
        rightful.decide(make_player("tactical", 1)(rightful.mirror.battle, d))
        end = time.monotonic() + 10
        while rightful.awaiting and time.monotonic() < end:
            rightful.receive(0.2)
        assert not rightful.awaiting and len(rightful.mirror.battle.log) == 1
        rightful.close()
        host.wait_for("Rightful left the seat")
    finally:
        host.popen.terminate()
        host.finish(10)
    assert not any("Traceback" in line or "failed on a message" in line for line in host.lines), host.lines
    assert len(load_session(save, autosave=False, strict=True).battle.log) == 1
    assert main(["replay", str(save), "--verify"]) == 0
