"""The table's protocol: versioned JSON messages over WebSocket, each decoded against its schema on arrival.

Every message is one text frame holding a JSON object ``{"v": PROTOCOL_VERSION, "kind": ..., fields}``. Each kind is
a ``msgspec`` ``Struct`` (the schemas below); a frame is decoded strictly against them by the same codec that reads
save files (``game.engine.codec``, docs/architecture.md "One contract at every boundary"): no unknown field, each of
its type, texts and lists of bounded length, no control characters or marks that turn the text's direction in text a
person reads (and no invisible characters in a name), no NaN or Infinity, whole numbers in range. A decision inside
a ``decide`` message is decoded as a save's decisions are (``game.engine.actions.AnyAction``), so the host never
logs a decision its save could not hold. A client frame that fails is answered with an ``error`` sentence and the
connection is closed; a host frame that fails closes the client's connection with the same sentence.
``docs/network.md`` ("The protocol") documents both directions.

Limits: a client frame is at most ``MAX_CLIENT_FRAME`` bytes (the WebSocket library closes the connection
on a bigger one), and at most ``RATE`` messages a second after a burst of ``BURST`` (``game.net.guard.RateLimit``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta

from game.engine import codec
from game.engine.actions import AnyAction
from game.engine.battle import Decision
from game.engine.codec import MAX_ITEMS, READABLE, VISIBLE, Int, Name, Table, Text

PROTOCOL_VERSION = 2
"""Version 2: a move's states are ``[[q, r], facing]`` (the decisions' own shape, as saves of format 2)."""
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
MAX_SEQ = 2**53
"""The largest sequence or ping number (a whole number any JSON reader holds exactly)."""

WATCH = "watch"
GM = "gm"

PersonName = Annotated[str, Meta(max_length=MAX_NAME, pattern=VISIBLE)]
SeatLabel = Annotated[str, Meta(max_length=MAX_NAME)]
Secret = Annotated[str, Meta(max_length=MAX_SECRET)]
Token = Annotated[str, Meta(max_length=64)]
Seq = Annotated[int, Meta(ge=-MAX_SEQ, le=MAX_SEQ)]
Draw = Annotated[int, Meta(ge=0, le=2**63 - 1)] | Annotated[float, Meta(ge=0.0, lt=1.0)]
"""One draw of the host's generator as sent (``game.net.wire.tape_to_wire``): a ``getrandbits`` result or a
``random()`` value."""
Draws = Annotated[list[Draw], Meta(max_length=1_000_000)]


class ProtocolError(ValueError):
    """A message that breaks the protocol; the text is the sentence sent back before the connection closes.
    ``problem`` is the codec's sentence when the message does not fit its schema (the same words a save file
    gets for the same decision)."""

    def __init__(self, message: str, problem: str = "") -> None:
        super().__init__(message)
        self.problem = problem


class Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind", kw_only=True):
    """Base of every message: the protocol version ``v`` (its ``kind`` is the tag); every field is given by name."""

    kind = codec.TagKind()
    v: Literal[2]


# ------------------------------------------------------------------------------------ a client's messages
class Hello(Message, frozen=True, tag="hello"):
    """A client asks for a seat (``seat``: a side's id, "gm", "watch" or "" for the first free one)."""

    name: PersonName
    seat: SeatLabel = ""
    password: Secret = ""
    token: Token | None = None


class Decide(Message, frozen=True, tag="decide"):
    """A decision from the client's seat (``seq`` numbers the client's decisions)."""

    seq: Seq
    seat: SeatLabel
    action: AnyAction


class ChatLine(Message, frozen=True, tag="chat"):
    """A line said to the whole table."""

    text: Annotated[str, Meta(max_length=MAX_CHAT, pattern=READABLE)]


class Ping(Message, frozen=True, tag="ping"):
    """A ping; the host answers ``pong`` with the same ``n``."""

    n: Seq


class Sync(Message, frozen=True, tag="sync"):
    """A client whose copy lost its way asks for the battle as it stands."""


class Look(Message, frozen=True, tag="look"):
    """Before its hello, a client asks who sits where (with the table's password); the host answers ``table``
    and the connection stays unseated."""

    password: Secret = ""


CLIENT_MESSAGES: tuple[type[Message], ...] = (Hello, Decide, ChatLine, Ping, Sync, Look)
ClientMessage: Any = Union[CLIENT_MESSAGES]  # noqa: UP007 (a union built from the table)
CLIENT_KINDS: tuple[str, ...] = tuple(cls.kind for cls in CLIENT_MESSAGES)
"""Every message a client may send."""


# ------------------------------------------------------------------------------------ the host's messages
class SeatInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who sits at a seat."""

    seat: SeatLabel
    name: Name
    present: bool
    computer: bool


class Progress(Message, frozen=True):
    """Where the battle stands, sent with every state, step and seat list."""

    decision: Table | None
    over: bool
    winner: Name | None
    round: Int


class MapHint(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The host's map file name and its SHA-256 (a client with the same shipped map draws its art)."""

    name: Text = ""
    sha256: Annotated[str, Meta(max_length=64)] = ""


class Welcome(Message, frozen=True, tag="welcome"):
    """The client sits at ``seat``; ``token`` takes the seat back after a lost connection."""

    seat: SeatLabel
    token: Token | None
    name: Name


Events = Annotated[list[Table], Meta(max_length=MAX_ITEMS * 100)]


class State(Progress, frozen=True, tag="state"):
    """The battle as it stands for the client's seat: the setup (no seed), the decisions as the seat may know
    them with their draws, the events it may see, the seats."""

    seat: SeatLabel
    setup: Table
    map: MapHint
    opening: Draws
    steps: Annotated[list[tuple[AnyAction, Draws]], Meta(max_length=codec.MAX_DECISIONS)]
    events: Events
    seats: Annotated[list[SeatInfo], Meta(max_length=MAX_ITEMS)]


class Step(Progress, frozen=True, tag="step"):
    """One decision the host accepted, as the client's seat may know it, with its draws and events."""

    index: Annotated[int, Meta(ge=0, le=codec.MAX_DECISIONS)]
    action: AnyAction
    draws: Draws
    events: Events


class Refused(Message, frozen=True, tag="refused"):
    """The host refused the client's decision ``seq`` (the battle unchanged)."""

    seq: Seq
    reason: Text


class Seats(Progress, frozen=True, tag="seats"):
    """Who sits where now."""

    seats: Annotated[list[SeatInfo], Meta(max_length=MAX_ITEMS)]


class Said(Message, frozen=True, tag="chat"):
    """A chat line as the host passes it on, with who said it."""

    seat: SeatLabel
    name: Name
    text: Text


class Pong(Message, frozen=True, tag="pong"):
    """The answer to a ping."""

    n: Seq


class Error(Message, frozen=True, tag="error"):
    """The host closes the connection with this sentence."""

    reason: Text


class TableSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat as the answer to ``look`` names it: the side's name, its holder's name, whether someone holds it
    (and is connected now), whether the host's computer plays it."""

    seat: SeatLabel
    side: Name
    name: Name
    held: bool
    present: bool
    computer: bool


class TableInfo(Message, frozen=True, tag="table"):
    """Who sits where, before a seat is taken (the answer to ``look``); ``watch``: the watchers' places left."""

    title: Text
    seats: Annotated[list[TableSeat], Meta(max_length=MAX_ITEMS)]
    watch: Int


HOST_MESSAGES: tuple[type[Message], ...] = (Welcome, State, Step, Refused, Seats, Said, Pong, Error, TableInfo)
HostMessage: Any = Union[HOST_MESSAGES]  # noqa: UP007 (a union built from the table)
HOST_KINDS: tuple[str, ...] = tuple(cls.kind for cls in HOST_MESSAGES)
"""Every message the host sends (``docs/network.md``, "The protocol")."""


class _Envelope(msgspec.Struct):
    """What every message starts with: the protocol version and the kind (read first, for their sentences)."""

    v: Any = None
    kind: Any = None


_ENVELOPE = msgspec.json.Decoder(_Envelope)
_CLIENT = msgspec.json.Decoder(ClientMessage)
_HOST = msgspec.json.Decoder(HostMessage)
_ENCODER = msgspec.json.Encoder()


def encode(kind: str, **fields_: Any) -> str:
    """One message as the text of a frame (decisions and events may be passed as they are)."""
    return _ENCODER.encode({"v": PROTOCOL_VERSION, "kind": kind, **fields_}).decode()


def parse_client(raw: str | bytes) -> Message:
    """Decode one frame from a client against its schema; ``ProtocolError`` says what is wrong.

    The checks run in a fixed order: a text frame not too long, JSON, an object, the protocol version, a
    known kind, then the whole message (each field known, of its type, in range, not too long, readable
    where people read it; a decision as a save holds one).
    """
    if not isinstance(raw, str):
        raise ProtocolError("This table speaks JSON text messages, not binary frames.")
    if len(raw) > MAX_CLIENT_FRAME:
        raise ProtocolError(f"A message is at most {MAX_CLIENT_FRAME} bytes.")
    try:
        envelope = codec.decode(raw, _ENVELOPE)
    except codec.CodecError as exc:
        if exc.whole:  # not JSON at all: the sentence holds the codec's own words, as a save's refusal does
            sentence = (
                f"That message is refused: {exc.problem}."
                if exc.problem.startswith("it is not valid JSON")
                else f"That message is not valid JSON ({exc.problem})."
            )
            raise ProtocolError(sentence, exc.problem) from None
        raise ProtocolError(
            f"That message is not a JSON object with a 'v' and a 'kind' ({exc.problem}).", exc.problem
        ) from None
    version = envelope.v
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise ProtocolError(
            f"This table speaks protocol version {PROTOCOL_VERSION}, not {version!r}: "
            "use the same version of the game as the host."
        )
    kind = envelope.kind
    if kind not in CLIENT_KINDS:
        raise ProtocolError(f"Unknown message kind {kind!r}; a client sends one of {', '.join(CLIENT_KINDS)}.")
    try:
        message: Message = codec.decode(raw, _CLIENT)
    except codec.CodecError as exc:
        raise ProtocolError(
            refusal(exc, kind), exc.about(("action",)) if exc.within(("action",)) else exc.problem
        ) from None
    return message


def refusal(exc: codec.CodecError, kind: str) -> str:
    """The sentence for a client message that does not fit its schema: a decision's problem is said of the
    decision (the same words as a save's damaged decision, ``record.decode``), anything else of the message."""
    if exc.within(("action",)):
        return f"That decision is refused: {exc.about(('action',))}."
    return f"That {kind!r} message is refused: {exc.problem}."


def parse_host(raw: str | bytes) -> Message:
    """Decode one frame from the host against its schema (``ProtocolError`` with the sentence)."""
    if not isinstance(raw, str):
        raise ProtocolError("The host sent a binary frame; this client reads JSON text only.")
    try:
        envelope = codec.decode(raw, _ENVELOPE)
    except codec.CodecError as exc:
        raise ProtocolError(f"The host sent a message that is not valid JSON ({exc.problem}).") from None
    if envelope.kind not in HOST_KINDS:
        raise ProtocolError("The host sent a message this client does not know.")
    if envelope.v != PROTOCOL_VERSION or isinstance(envelope.v, bool):
        raise ProtocolError(
            f"The host speaks protocol version {envelope.v!r}, this game {PROTOCOL_VERSION}: "
            "use the same version of the game as the host."
        )
    try:
        message: Message = codec.decode(raw, _HOST)
    except codec.CodecError as exc:
        raise ProtocolError(
            f"The host sent a {envelope.kind!r} message this client cannot use ({exc.problem})."
        ) from None
    return message


def decision_to_json(d: Decision | None) -> dict[str, Any] | None:
    """Whom the table waits for, as data (``Decision``'s fields; a reason code becomes its value)."""
    if d is None:
        return None
    data: dict[str, Any] = codec.to_data(d)
    return data
