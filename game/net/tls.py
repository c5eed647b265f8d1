"""TLS for a table across machines (``docs/network.md``, "Encrypted tables"): ``host --tls CERT KEY`` serves
``wss://`` and ``join wss://…`` connects to it.

A table's certificate is usually self-signed, which no computer trusts by itself; a player trusts it in one
of two ways, both checked **before** the password or a seat's token is sent:

- **its fingerprint** (``--fingerprint``): the SHA-256 of the certificate, which the host prints when it
  starts and tells the players by another way (in person, a message). The connection is encrypted with any
  certificate, then closed at once unless the certificate's fingerprint is that one (pinning);
- **a CA file** (``--cafile``): the certificate (or the authority that signed it) as a PEM file; the usual
  checks then apply, the address's name or IP included.

Without either, a ``wss://`` address is checked against the system's authorities, as a browser would.

The host makes its TLS handshakes itself (``accept_tls``), after the connection is accepted, rather than
leaving them to the system's server: a handshake that fails is then the host's to report (one line on its
console, ``game.net.guard.describe_tls_failure``), where the system would drop it without a word.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import ssl
from pathlib import Path

_HEX = re.compile(r"[0-9a-f]{64}")


class TLSSetupError(ValueError):
    """A certificate, key or fingerprint this game cannot use; the text says which and what to do."""


def fingerprint_of(der: bytes) -> str:
    """A certificate's SHA-256 fingerprint as ``openssl x509 -fingerprint -sha256`` prints it (``AB:CD:…``)."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def certificate_fingerprint(cert: str | Path) -> str:
    """The SHA-256 fingerprint of the first certificate in the PEM file ``cert``."""
    try:
        text = Path(cert).read_text(encoding="ascii")
        der = ssl.PEM_cert_to_DER_cert(text[text.index("-----BEGIN CERTIFICATE-----") :])
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise TLSSetupError(f"{cert}: not a PEM certificate this game can read ({exc})") from None
    return fingerprint_of(der)


def normal_fingerprint(text: str) -> str:
    """A fingerprint as a player may type it (``AB:CD:…``, ``abcd…``, ``sha256 Fingerprint=AB:…``) in the
    one form ``fingerprint_of`` gives; ``TLSSetupError`` when it is not 32 bytes of hex."""
    raw = text.split("=", 1)[-1].replace(":", "").replace(" ", "").strip().lower()
    if not _HEX.fullmatch(raw):
        raise TLSSetupError(
            f"{text[:80]!r} is not a SHA-256 fingerprint: it is 64 hexadecimal digits, usually written in pairs "
            "with colons (AB:CD:…), as the host prints it"
        )
    return ":".join(raw[i : i + 2] for i in range(0, 64, 2)).upper()


def server_context(cert: str | Path, key: str | Path) -> ssl.SSLContext:
    """A TLS server context for ``cert`` (PEM, with any chain) and its private ``key`` (PEM, unencrypted)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    for path in (cert, key):
        if not Path(path).is_file():
            raise TLSSetupError(f"--tls: {path}: no such file (docs/network.md says how to make a certificate)")
    try:
        context.load_cert_chain(str(cert), str(key))
    except (ssl.SSLError, OSError) as exc:
        raise TLSSetupError(
            f"--tls {cert} {key}: not a certificate and its private key in PEM form ({exc}); "
            "docs/network.md says how to make them"
        ) from None
    return context


def client_context(*, fingerprint: str | None = None, cafile: str | Path | None = None) -> ssl.SSLContext:
    """A TLS client context: with a ``fingerprint`` any certificate is taken (``check_pin`` then compares it),
    with a ``cafile`` that file's authorities, else the system's."""
    if fingerprint is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the certificate is compared with the pinned fingerprint instead
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        return context
    try:
        return ssl.create_default_context(cafile=None if cafile is None else str(cafile))
    except (OSError, ssl.SSLError) as exc:
        raise TLSSetupError(f"--cafile {cafile}: not a PEM file of certificates this game can read ({exc})") from None


def check_pin(der: bytes | None, fingerprint: str) -> None:
    """``TLSSetupError`` unless the certificate ``der`` the table showed has the ``fingerprint`` given."""
    if der is None:
        raise TLSSetupError("the table showed no certificate; do not join it")
    seen = fingerprint_of(der)
    if not hmac.compare_digest(seen, normal_fingerprint(fingerprint)):
        raise TLSSetupError(
            f"the table's certificate has the fingerprint {seen}, not the one you gave: do not join it (someone "
            "may stand between you and the host); ask the host for the fingerprint it printed"
        )


class Handshaken(asyncio.Protocol):
    """What a connection whose TLS handshake has just ended receives before the WebSocket connection takes it
    over (``hand_over``): the system may pass on the first bytes in the same breath as the handshake ends.
    Once handed over, whatever still reaches it goes on to the new protocol."""

    def __init__(self) -> None:
        self.data: list[bytes] = []
        self.eof = False
        self.lost: tuple[Exception | None] | None = None
        self.to: asyncio.Protocol | None = None

    def data_received(self, data: bytes) -> None:
        """Kept for the WebSocket connection."""
        if self.to is not None:
            self.to.data_received(data)
        else:
            self.data.append(data)

    def eof_received(self) -> None:
        """Kept for the WebSocket connection (the TLS layer closes its side itself)."""
        if self.to is not None:
            self.to.eof_received()
        else:
            self.eof = True

    def connection_lost(self, exc: Exception | None) -> None:
        """Kept for the WebSocket connection."""
        if self.to is not None:
            self.to.connection_lost(exc)
        else:
            self.lost = (exc,)


async def accept_tls(
    raw: asyncio.Transport, context: ssl.SSLContext, timeout: float
) -> tuple[asyncio.Transport, Handshaken]:
    """The TLS handshake of a connection the host has just accepted (its plain ``raw`` transport), as the
    server's side with ``context``: the encrypted transport and what came through it meanwhile. Raises what
    ended the handshake: ``ssl.SSLError``, ``ConnectionResetError`` when the client closed during it,
    ``ConnectionAbortedError`` after ``timeout`` seconds."""
    early = Handshaken()
    loop = asyncio.get_running_loop()
    transport = await loop.start_tls(raw, early, context, server_side=True, ssl_handshake_timeout=timeout)
    if transport is None:  # the connection was closed while the handshake went on
        raise ConnectionResetError("the connection closed during its TLS handshake")
    return transport, early


def hand_over(transport: asyncio.Transport, early: Handshaken, protocol: asyncio.Protocol) -> None:
    """Give the encrypted ``transport`` to ``protocol``, with what ``early`` received meanwhile, in order."""
    transport.set_protocol(protocol)
    early.to = protocol
    protocol.connection_made(transport)
    for chunk in early.data:
        protocol.data_received(chunk)
    if early.eof:
        protocol.eof_received()
    if early.lost is not None:
        protocol.connection_lost(early.lost[0])
