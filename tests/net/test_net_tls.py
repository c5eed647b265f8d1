"""An encrypted table and a password kept off the command line: ``host --tls CERT KEY`` serves ``wss://``;
``join wss://…`` trusts a self-signed certificate by its fingerprint (checked before the password or a token
is sent) or by a CA file; the password comes from the environment or a prompt. The certificate is the
test-only one of ``tests/net/tls`` (its README holds the fingerprint OpenSSL printed for it)."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from game.net.client import Client, TableClosed
from game.net.password import PASSWORD_ENV
from game.net.table import Table
from game.net.tls import (
    Handshaken,
    TLSSetupError,
    certificate_fingerprint,
    hand_over,
    normal_fingerprint,
    server_context,
)
from main import main
from tests.net.nethelp import MAP, TLS_CERT, TLS_KEY, Proc, hosted, table

OPENSSL_SAYS = re.search(r"`([0-9A-F:]{95})`", (TLS_CERT.parent / "README.md").read_text()).group(1)  # type: ignore[union-attr]
"""The certificate's SHA-256 fingerprint as ``openssl x509 -fingerprint -sha256`` printed it."""


def _hellos(t: Table) -> list[Any]:
    """Every hello the table is handed (a password reaches the host only in one)."""
    seen: list[Any] = []
    real = t.hello

    def hello(conn: Any, msg: Any) -> Any:
        seen.append(msg)
        return real(conn, msg)

    t.hello = hello  # type: ignore[method-assign]
    return seen


def test_the_fingerprint_is_the_one_openssl_prints_in_any_form_a_player_types() -> None:
    assert certificate_fingerprint(TLS_CERT) == OPENSSL_SAYS
    assert normal_fingerprint(OPENSSL_SAYS.lower()) == OPENSSL_SAYS
    assert normal_fingerprint("sha256 Fingerprint=" + OPENSSL_SAYS) == OPENSSL_SAYS
    assert normal_fingerprint(OPENSSL_SAYS.replace(":", "")) == OPENSSL_SAYS
    with pytest.raises(TLSSetupError, match="64 hexadecimal digits"):
        normal_fingerprint("AB:CD")


def test_host_tls_and_join_wss_play_to_the_end_and_the_save_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "tls.json"
    host = Proc(
        "host", str(MAP), "--port", "0", "--seed", "5", "--save", str(log), "--tls", str(TLS_CERT), str(TLS_KEY)
    )
    try:
        port = int(host.wait_for("listening on wss://127.0.0.1:").rsplit(":", 1)[1])
        printed = host.wait_for("certificate SHA-256 fingerprint: ").rsplit(" ", 1)[1]
        assert printed == OPENSSL_SAYS
        seats = [
            Proc("join", f"wss://127.0.0.1:{port}", "--seat", side, "--players", "tactical", "--fingerprint", printed)
            for side in ("blue", "red")
        ]
        assert [p.finish(60) for p in seats] == [0, 0], [p.lines[-3:] for p in seats]
        assert host.finish(30) == 0
    finally:
        host.finish(1)
    capsys.readouterr()
    assert main(["replay", str(log), "--verify"]) == 0


def test_a_wrong_fingerprint_is_refused_before_any_password_or_token_is_sent() -> None:
    t = table(password="dragon's tooth")
    hellos = _hellos(t)
    wrong = "00:" * 31 + "00"
    with hosted(t, tls=server_context(TLS_CERT, TLS_KEY)) as port:
        c = Client(f"wss://127.0.0.1:{port}", "Ann", "blue", "dragon's tooth", "a token", say=lambda _: None)
        c.fingerprint = wrong
        with pytest.raises(TableClosed, match=f"has the fingerprint {OPENSSL_SAYS}, not the one you gave"):
            c.connect(timeout=5)
        time.sleep(0.2)
        assert hellos == [] and t.conns == {}
        c.fingerprint = OPENSSL_SAYS
        c.connect(timeout=5)
        assert c.seat == "blue" and c.mirror is not None
        c.close()
    assert [h.password for h in hellos] == ["dragon's tooth"]


def test_a_ca_file_trusts_the_certificate_and_without_either_it_is_not_trusted() -> None:
    t = table()
    hellos = _hellos(t)
    with hosted(t, tls=server_context(TLS_CERT, TLS_KEY)) as port:
        c = Client(f"wss://127.0.0.1:{port}", "Ann", "watch", say=lambda _: None)
        with pytest.raises(TableClosed, match="does not trust"):
            c.connect(timeout=5)
        assert hellos == []
        c.cafile = str(TLS_CERT)
        c.connect(timeout=5)
        assert c.mirror is not None
        c.close()
        plain = Client(f"ws://127.0.0.1:{port}", "Bob", "watch", say=lambda _: None)
        with pytest.raises(TableClosed):
            plain.connect(timeout=5)
        pinned_plain = Client(f"ws://127.0.0.1:{port}", "Bob", "watch", say=lambda _: None)
        pinned_plain.fingerprint = OPENSSL_SAYS
        with pytest.raises(TableClosed, match="for a wss:// table"):
            pinned_plain.connect(timeout=5)


def test_host_tls_with_a_missing_certificate_says_so() -> None:
    host = Proc("host", str(MAP), "--port", "0", "--tls", "no-such.crt", str(TLS_KEY))
    assert host.finish(30) == 2
    assert any("no-such.crt: no such file" in line for line in host.lines), host.lines


def test_the_password_comes_from_the_environment_or_a_prompt_never_the_process_list(tmp_path: Path) -> None:
    secret = "dragon's tooth"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", env={PASSWORD_ENV: secret})
    try:
        port = int(host.wait_for("listening on ws://127.0.0.1:").rsplit(":", 1)[1])
        cmdline = Path(f"/proc/{host.popen.pid}/cmdline").read_bytes()
        assert secret.encode() not in cmdline
        wrong = Proc("join", f"127.0.0.1:{port}", "--seat", "watch", "--no-window", env={PASSWORD_ENV: "guess"})
        assert wrong.finish(20) == 1 and any("Wrong table password" in line for line in wrong.lines)
        asked = Proc("join", f"127.0.0.1:{port}", "--seat", "watch", "--no-window", "--ask-password")
        asked.type(secret)
        asked.wait_for("seated at watch")
        asked.kill()
        by_env = Proc("join", f"127.0.0.1:{port}", "--seat", "watch", "--no-window", env={PASSWORD_ENV: secret})
        by_env.wait_for("seated at watch")
        by_env.kill()
    finally:
        host.popen.terminate()
        host.finish(10)


class _Heard(asyncio.Protocol):
    def __init__(self) -> None:
        self.heard: list[object] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.heard.append("made")

    def data_received(self, data: bytes) -> None:
        self.heard.append(data)

    def eof_received(self) -> None:
        self.heard.append("eof")

    def connection_lost(self, exc: Exception | None) -> None:
        self.heard.append("lost")


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.protocol: asyncio.BaseProtocol | None = None

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol


def test_what_came_with_the_end_of_a_tls_handshake_reaches_the_websocket_connection_in_order() -> None:
    early = Handshaken()
    early.data_received(b"GET / HTTP/1.1\r\n")
    early.data_received(b"\r\n")
    early.eof_received()
    transport, websocket = _Transport(), _Heard()
    hand_over(transport, early, websocket)
    assert transport.protocol is websocket
    assert websocket.heard == ["made", b"GET / HTTP/1.1\r\n", b"\r\n", "eof"]
    early.data_received(b"late")  # scheduled by the TLS layer before it was handed over
    early.connection_lost(None)
    assert websocket.heard[-2:] == [b"late", "lost"]
