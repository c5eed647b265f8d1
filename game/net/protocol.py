"""The table's protocol: versioned JSON messages over WebSocket, each checked against its schema on arrival.

Every message is one text frame holding a JSON object ``{"v": PROTOCOL_VERSION, "kind": ..., fields}``.
What a client may send (``CLIENT_SCHEMAS``) is checked field by field — type, length, no unknown field, no
control characters in text a person reads — before the host looks at it; a message that fails is answered
with an ``error`` sentence and the connection is closed. The host's messages are listed in ``HOST_KINDS``;
``docs/network.md`` ("The protocol") documents both directions.

Limits: a client frame is at most ``MAX_CLIENT_FRAME`` bytes (the WebSocket library closes the connection
on a bigger one), and at most ``RATE`` messages a second after a burst of ``BURST`` (``RateLimit``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

from game.engine.battle import Decision

PROTOCOL_VERSION = 1
DEFAULT_PORT = 7777
MAX_CLIENT_FRAME = 64 * 1024
"""Bytes in one frame from a client: a decision, a chat line or a hello is far smaller."""
MAX_HOST_FRAME = 32 * 1024 * 1024
"""Bytes in one frame from the host: the whole battle as it stands (a map's terrain and a long log)."""
RATE = 500.0
"""Messages a second a client may send in the long run."""
BURST = 1000
"""Messages a client may send at once before the rate counts."""
MAX_NAME = 40
MAX_CHAT = 300
MAX_SECRET = 200

WATCH = "watch"
GM = "gm"


class ProtocolError(ValueError):
    """A message that breaks the protocol; the text is the sentence sent back before the connection closes."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a message: its JSON types, whether it must be there, and its longest length."""

    types: tuple[type, ...]
    required: bool = True
    max_len: int | None = None
    readable: bool = False
    """Text shown to people (a name, a chat line): no control characters."""


CLIENT_SCHEMAS: Mapping[str, Mapping[str, FieldSpec]] = {
    "hello": {
        "name": FieldSpec((str,), True, MAX_NAME, readable=True),
        "seat": FieldSpec((str,), False, MAX_NAME),
        "password": FieldSpec((str,), False, MAX_SECRET),
        "token": FieldSpec((str, type(None)), False, 64),
    },
    "decide": {
        "seq": FieldSpec((int,)),
        "seat": FieldSpec((str,), True, MAX_NAME),
        "action": FieldSpec((dict,)),
    },
    "chat": {"text": FieldSpec((str,), True, MAX_CHAT, readable=True)},
    "ping": {"n": FieldSpec((int,))},
    "sync": {},
}
"""Every message a client may send, and its fields (besides ``v`` and ``kind``)."""

HOST_KINDS = ("welcome", "state", "step", "refused", "seats", "chat", "pong", "error")
"""Every message the host sends (``docs/network.md``, "The protocol")."""


def encode(kind: str, **fields_: Any) -> str:
    """One message as the text of a frame."""
    return json.dumps({"v": PROTOCOL_VERSION, "kind": kind, **fields_}, separators=(",", ":"))


def _readable(text: str) -> bool:
    return all(ch.isprintable() for ch in text)


def parse_client(raw: str | bytes) -> dict[str, Any]:
    """Check one frame from a client against its schema; ``ProtocolError`` says what is wrong.

    The checks run in a fixed order: a text frame, JSON, an object, the protocol version, a known kind,
    then each field (known, of its type, not too long, readable where people read it).
    """
    if not isinstance(raw, str):
        raise ProtocolError("This table speaks JSON text messages, not binary frames.")
    if len(raw) > MAX_CLIENT_FRAME:
        raise ProtocolError(f"A message is at most {MAX_CLIENT_FRAME} bytes.")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("That message is not valid JSON.") from None
    if not isinstance(data, dict):
        raise ProtocolError("A message is a JSON object with a 'v' and a 'kind'.")
    version = data.get("v")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise ProtocolError(
            f"This table speaks protocol version {PROTOCOL_VERSION}, not {version!r}: "
            "use the same version of the game as the host."
        )
    kind = data.get("kind")
    schema = CLIENT_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise ProtocolError(f"Unknown message kind {kind!r}; a client sends one of {', '.join(CLIENT_SCHEMAS)}.")
    for name in data:
        if name not in ("v", "kind") and name not in schema:
            raise ProtocolError(f"A {kind!r} message has no field {name!r}.")
    for name, spec in schema.items():
        if name not in data:
            if spec.required:
                raise ProtocolError(f"A {kind!r} message needs the field {name!r}.")
            continue
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, spec.types):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in spec.types)
            raise ProtocolError(f"The field {name!r} of a {kind!r} message must be {wanted}.")
        if isinstance(value, str):
            if spec.max_len is not None and len(value) > spec.max_len:
                raise ProtocolError(f"The field {name!r} is at most {spec.max_len} characters.")
            if spec.readable and not _readable(value):
                raise ProtocolError(f"The field {name!r} may not hold control characters.")
        if isinstance(value, int) and not -(2**53) <= value <= 2**53:
            raise ProtocolError(f"The field {name!r} is out of range.")
    return data


def parse_host(raw: str | bytes) -> dict[str, Any]:
    """Check the envelope of a frame from the host (an object of this protocol version and a known kind)."""
    if not isinstance(raw, str):
        raise ProtocolError("The host sent a binary frame; this client reads JSON text only.")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("The host sent a message that is not valid JSON.") from None
    if not isinstance(data, dict) or data.get("kind") not in HOST_KINDS:
        raise ProtocolError("The host sent a message this client does not know.")
    if data.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(
            f"The host speaks protocol version {data.get('v')!r}, this game {PROTOCOL_VERSION}: "
            "use the same version of the game as the host."
        )
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def decision_to_json(d: Decision | None) -> dict[str, Any] | None:
    """Whom the table waits for, as data (``Decision``'s fields; a reason code becomes its value)."""
    if d is None:
        return None
    return {f.name: _plain(getattr(d, f.name)) for f in fields(d)}


@dataclass
class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second (a flood closes the connection)."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = field(default=-1.0)
    last: float = 0.0

    def allow(self, now: float) -> bool:
        """Count one message at time ``now`` (seconds); False when the sender is over the limit."""
        if self.tokens < 0:
            self.tokens, self.last = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
