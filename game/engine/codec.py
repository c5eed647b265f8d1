"""One contract at every boundary: the strict, declarative decoding of the game's data (docs/architecture.md
"One contract at every boundary").

A save file, a network message and every decision inside them are decoded by ``msgspec`` against a type
declared once: the decisions themselves (``game.engine.actions``, ``game.engine.gm``), the save
(``game.engine.record.SaveFile``) and the messages (``game.net.protocol``). Whatever crosses a boundary is
refused unless it has exactly the declared shape:

* an unknown field, a missing one, or a value of another type (a list where a name belongs, ``true`` where a
  number belongs, ``1.0`` where a whole number belongs) is refused;
* ``NaN``, ``Infinity`` and numbers too large for a double (``1e999``) are not JSON numbers and are refused;
  whole numbers are held to the ranges below (``Int``, ``Coord``, ``Facing``);
* texts, lists and tables have a longest length, and data whose shape the game does not fix (a roster
  carried in a save, a GM's edit of a figure's traits) nests at most ``MAX_DEPTH`` deep (``Nested``).

This module holds those shared types and turns ``msgspec``'s reports into sentences a player can act on
(``CodecError.problem``), the same sentence whichever boundary the data came through.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypeGuard, TypeVar

import msgspec
from msgspec import Meta

T = TypeVar("T")

MAX_TEXT = 2000
"""The longest text a field may hold (names, reasons)."""
MAX_NAME = 200
"""The longest name (a figure's, a side's, a weapon's or spell's id)."""
MAX_ITEMS = 10_000
"""The most entries a list or table may hold (steps of a move, a region's hexes)."""
MAX_NUMBER = 10**6
"""The largest whole number a decision's field may hold (modifiers, rounds)."""
MAX_DATA_NUMBER = 2**53
"""The largest whole number in data whose shape the game does not fix (a roster carried in a save)."""
MAX_DEPTH = 8
"""The deepest nesting of lists and tables inside such data (a roster nests about four deep)."""
MAX_DECISIONS = 1_000_000
"""The most decisions a save may hold."""

Text = Annotated[str, Meta(max_length=MAX_TEXT)]
Name = Annotated[str, Meta(max_length=MAX_NAME)]
Int = Annotated[int, Meta(ge=-MAX_NUMBER, le=MAX_NUMBER)]
Facing = Annotated[int, Meta(ge=0, le=5)]
"""docs/rulings.md "Facing": one of the six hex sides, 0..5."""
Digest = Annotated[str, Meta(max_length=64)]
Names = Annotated[tuple[Name, ...], Meta(max_length=MAX_ITEMS)]


def is_whole(value: object) -> TypeGuard[int]:
    """Whether a value read from a file or a message is a whole number: an ``int`` and not a ``bool`` (which
    Python counts as one, though TOML and JSON write it ``true`` or ``false``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _nested(depth: int) -> Any:
    leaf: Any = None | bool | Annotated[int, Meta(ge=-MAX_DATA_NUMBER, le=MAX_DATA_NUMBER)] | float | Text
    kind: Any = leaf
    for _ in range(depth):
        kind = (
            leaf
            | Annotated[list[kind], Meta(max_length=MAX_ITEMS)]
            | Annotated[dict[Name, kind], Meta(max_length=MAX_ITEMS)]
        )
    return kind


if TYPE_CHECKING:
    Nested = Any
else:
    Nested = _nested(MAX_DEPTH)
"""JSON data of a shape the game does not fix: finite numbers, texts, lists and tables, bounded in size and
nesting ``MAX_DEPTH`` deep at most."""
Table = Annotated[dict[Name, Nested], Meta(max_length=MAX_ITEMS)]
"""A table (JSON object) of ``Nested`` values."""

READABLE = r"^[^\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]*\Z"
"""Text a person reads (a chat line): no control characters, line breaks of Unicode's own, or marks that turn
the direction of what follows (U+202A–U+202E, U+2066–U+2069), with which a line could pass for another's."""
VISIBLE = r"^[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]*\Z"
"""A name a person reads: as ``READABLE``, and no invisible characters either (zero-width ones, direction
marks, word joiners, U+FEFF), so that two names that look alike are alike."""


class CodecError(ValueError):
    """Data that does not have its declared shape: ``what`` is wrong with the part of the document at ``path``
    (field names and list indices from the top), or with the whole text (``path`` empty, ``whole``)."""

    def __init__(
        self, what: str, path: tuple[str | int, ...] = (), *, whole: bool = False, byte: int | None = None
    ) -> None:
        self.what = what
        self.path = path
        self.whole = whole
        self.byte = byte
        """Where in the text a JSON text broke (for a file's message: its line)."""
        super().__init__(self.about(()))

    @property
    def problem(self) -> str:
        """The sentence saying what is wrong, naming the field from the top of the document."""
        return self.about(())

    def within(self, prefix: Sequence[str | int]) -> bool:
        """Whether the problem lies inside the part of the document at ``prefix``."""
        return not self.whole and tuple(self.path[: len(prefix)]) == tuple(prefix)

    def about(self, prefix: Sequence[str | int]) -> str:
        """The problem as said of the part of the document at ``prefix`` (a decision inside a save or a message):
        the fields are named from there, so the same decision gives the same sentence in a file and on the wire."""
        if self.whole:
            return self.what
        return f"{_field(self.path[len(prefix) :])} {self.what}"


_LEAF = "bool | int | float | str | null"
_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true or false",
    "null": "nothing (null)",
    "array": "a list",
    "object": "an object",
}
_EXPECTED = re.compile(r"^Expected `([^`]*)`, got `([^`]*)`$")
_BOUND = re.compile(r"^Expected `([^`]*)` (<=|>=|<|>) (-?[\d.e+]+)$")
_LENGTH = re.compile(r"^Expected `([^`]*)` of length (<=|>=)?\s*(\d+)$")
_PATH = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[\.\.\.\]")


def _type_words(spec: str) -> str:
    words = [_WORDS.get(part.strip(), part.strip()) for part in spec.split("|")]
    return " or ".join(dict.fromkeys(words))


def _path(text: str) -> tuple[str | int, ...]:
    out: list[str | int] = []
    for m in _PATH.finditer(text):
        if m.group(1):
            out.append(m.group(1))
        elif m.group(2):
            out.append(int(m.group(2)))
        else:
            out.append("...")
    return tuple(out)


def _field(path: Sequence[str | int]) -> str:
    if not path:
        return "it"
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else ("[an entry]" if p == "..." else (f".{p}" if text else p))
    return f"the field {text!r}"


def _what(message: str) -> tuple[str, tuple[str | int, ...]]:
    """msgspec's report as (what is wrong, where)."""
    text, _, at = message.partition(" - at `")
    path = _path(at.rstrip("`"))
    m = _EXPECTED.match(text)
    if m and m.group(1) == _LEAF and m.group(2) in ("array", "object"):
        return f"nests too deeply (data of no fixed shape nests at most {MAX_DEPTH} deep)", path
    if m:
        return f"must be {_type_words(m.group(1))}, not {_type_words(m.group(2))}", path
    m = _BOUND.match(text)
    if m:
        kind, op, bound = m.groups()
        words = {"<=": "at most", ">=": "at least", "<": "below", ">": "above"}[op]
        return f"must be {_type_words(kind)} {words} {bound}", path
    m = _LENGTH.match(text)
    if m:
        kind, op, n = m.groups()
        unit = "characters" if kind == "str" else "entries"
        words = {"<=": "at most ", ">=": "at least ", None: ""}[op]
        return f"must be {_type_words(kind)} of {words}{n} {unit}", path
    if text.startswith("Expected `str` matching regex"):
        return "may not hold control characters, invisible characters or marks that turn the text's direction", path
    m = re.match(r"^Object contains unknown field `(.*)`$", text)
    if m:
        return f"has no field {m.group(1)!r}", path
    m = re.match(r"^Object missing required field `(.*)`$", text)
    if m:
        return f"needs the field {m.group(1)!r}", path
    m = re.match(r"^Invalid (?:enum )?value (.*)$", text)
    if m:
        return f"cannot be {m.group(1)}", path
    if text in ("Number out of range", "Integer value out of range"):
        return "is a number out of range", path
    return text[:1].lower() + text[1:], path


def _from_validation(exc: Exception) -> CodecError:
    what, path = _what(str(exc))
    return CodecError(what, path)


_NOT_NUMBERS = re.compile(rb"-?(?:NaN|Infinity)")
_HALF_CHARACTER = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<![0-9a-fA-F]{4})\\u[dD][c-fC-F]")


def _from_decode(exc: Exception, raw: bytes | str) -> CodecError:
    text = str(exc)
    at = re.search(r"byte (\d+)", text)
    byte = int(at.group(1)) if at else None
    data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
    if "truncated" in text and _HALF_CHARACTER.search(data):
        what = "it is not valid JSON (a \\u escape holds half of a character)"
    elif "truncated" in text:
        what = "it is cut short, the JSON text ending too early"
    elif "trailing characters" in text:
        what = "there is more after the end of the JSON text"
    elif "trailing comma" in text:
        what = "it is not valid JSON (a comma before the end of a list or object)"
    else:
        near = data[max(0, (byte or 0) - 1) : (byte or 0) + 9]
        nan = byte is not None and _NOT_NUMBERS.search(near) is not None
        what = "it is not valid JSON" + (" (NaN and Infinity are not numbers JSON holds)" if nan else "")
    return CodecError(what, whole=True, byte=byte)


def decode(raw: bytes | str, decoder: msgspec.json.Decoder[T]) -> T:
    """Decode JSON text with a typed decoder; ``CodecError`` with a sentence when it does not fit."""
    try:
        return decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise _from_validation(exc) from None
    except msgspec.DecodeError as exc:
        raise _from_decode(exc, raw) from None
    except RecursionError:
        raise CodecError("lists and objects are nested too deeply", whole=True) from None
    except UnicodeDecodeError:
        raise CodecError("it is not UTF-8 text", whole=True) from None


def convert(data: Any, kind: type[T] | Any) -> T:
    """Check Python data already read (from JSON) against a declared type, as ``decode`` does for text."""
    try:
        result: T = msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as exc:
        raise _from_validation(exc) from None
    except RecursionError:
        raise CodecError("lists and objects are nested too deeply", whole=True) from None
    return result


_ENCODER = msgspec.json.Encoder()
_PLAIN = msgspec.json.Decoder()


def encode(value: Any) -> bytes:
    """JSON text of a declared value (a decision, a save, a message)."""
    return _ENCODER.encode(value)


def to_data(value: Any) -> Any:
    """A value as plain JSON data: dicts, lists, texts, numbers, true / false and None (tuples become lists,
    hexes ``[q, r]``)."""
    return _PLAIN.decode(_ENCODER.encode(value))


class TagKind:
    """A tagged struct's ``kind``: its msgspec ``tag``, the name that stands in a save or a message as the
    struct's ``"kind"``. A decision or a message writes its name once (``tag="move"``), so the name the code reads
    and the one on the wire are always the same; a base without a tag of its own reads msgspec's default for it,
    the class name."""

    def __get__(self, instance: object, owner: type[msgspec.Struct]) -> str:
        return str(owner.__struct_config__.tag)
