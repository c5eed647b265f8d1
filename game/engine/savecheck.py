"""Field-by-field checks of a saved battle log before anything in it is applied.

A save is a file a person may have edited, cut short or mixed up with another file; ``game.engine.record``
reads it as JSON and then asks this module whether the document has the shape a log must have. Every
action's every field must have the type its action class declares (``game.engine.actions``,
``game.engine.gm``), with numbers and texts in sensible ranges; the nesting depth of the document is checked
on its text before the JSON parser recurses into it. Each check returns one sentence saying what is wrong
(without the file name, which the caller adds) or None.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import MISSING, fields
from itertools import accumulate
from typing import Any

from game.engine.actions import ACTION_TYPES, Action, register_gm_actions
from game.engine.hexgrid import Hex

MAX_DEPTH = 40
"""The deepest nesting of lists and objects a save may have (a real save nests about ten deep)."""
MAX_TEXT = 2000
"""The longest text a field may hold (names, reasons)."""
MAX_ITEMS = 10_000
"""The most entries a list field may hold (steps of a move, a region's hexes, dice faces)."""
MAX_NUMBER = 10**6
"""The largest whole number a field may hold (modifiers, rounds; hex coordinates are far smaller)."""
MAX_COORDINATE = 10**5
"""The largest hex coordinate (maps are at most a few hundred hexes across)."""

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\[\]{}"]+')


def nesting_depth(text: str) -> int:
    """How deeply lists and objects nest in a JSON text (strings skipped), counted without parsing it."""
    brackets = _STRINGS.sub("", text)
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def check_depth(text: str) -> str | None:
    """None when the JSON text nests no deeper than ``MAX_DEPTH``, else the sentence saying it does."""
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        return f"lists and objects are nested {depth} deep (a battle save nests at most {MAX_DEPTH})"
    return None


_HINTS: dict[str, dict[str, Any]] = {}


def _hints(cls: type[Action]) -> dict[str, Any]:
    """The declared field types of an action class (resolved once per kind)."""
    if cls.kind not in _HINTS:
        _HINTS[cls.kind] = typing.get_type_hints(cls)
    return _HINTS[cls.kind]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:36] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(value: Any, hint: Any, where: str) -> str | None:
    """The problem of ``value`` as JSON data of a field typed ``hint``, or None."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return None
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        others = [a for a in args if a is not type(None)]
        problems = [_check(value, a, where) for a in others]
        return None if any(p is None for p in problems) else problems[0]
    if origin is typing.Literal:
        return None if value in args else f"{where} is {_short(value)}, not one of {', '.join(map(repr, args))}"
    if hint is str:
        if not isinstance(value, str):
            return f"{where} must be text, not {_short(value)}"
        return f"{where} is longer than {MAX_TEXT} characters" if len(value) > MAX_TEXT else None
    if hint is bool:
        return None if isinstance(value, bool) else f"{where} must be true or false, not {_short(value)}"
    if hint is int:
        if not _is_int(value):
            return f"{where} must be a whole number, not {_short(value)}"
        return None if abs(value) <= MAX_NUMBER else f"{where} ({_short(value)}) is out of range"
    if hint is Hex:
        if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
            return f"{where} must be a hex [q, r], not {_short(value)}"
        return None if all(abs(v) <= MAX_COORDINATE for v in value) else f"{where} is far off any map"
    if origin is tuple and args == (Hex, int):  # a (hex, facing) state of a move: [q, r, facing]
        if not (isinstance(value, list) and len(value) == 3 and all(_is_int(v) for v in value)):
            return f"{where} must be a step [q, r, facing], not {_short(value)}"
        if not 0 <= value[2] <= 5:
            return f"{where} has facing {value[2]}, not a hex side 0-5"
        return None if all(abs(v) <= MAX_COORDINATE for v in value[:2]) else f"{where} is far off any map"
    if origin is tuple:
        if not isinstance(value, list):
            return f"{where} must be a list, not {_short(value)}"
        if len(value) > MAX_ITEMS:
            return f"{where} has {len(value)} entries (at most {MAX_ITEMS})"
        item_hint = args[0]
        for i, item in enumerate(value):
            problem = _check(item, item_hint, f"{where}[{i}]")
            if problem is not None:
                return problem
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where} must be an object, not {_short(value)}"
        return None if len(value) <= MAX_ITEMS else f"{where} has too many entries"
    return None  # a type this module does not know: the action's own validation checks it


def check_action(data: Any) -> str | None:
    """None when ``data`` is an action as ``action_to_json`` writes it, field by field: a known ``kind``,
    every required field present, no unknown field, each of its declared type and in range."""
    if not isinstance(data, dict):
        return f"it is {_short(data)}, not an object with a 'kind'"
    kind = data.get("kind")
    if not isinstance(kind, str):
        return "it has no 'kind'"
    if kind.startswith("gm_"):
        register_gm_actions()
    cls = ACTION_TYPES.get(kind)
    if cls is None:
        return f"{_short(kind)} is not a kind of action"
    declared = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(declared) - {"kind"})
    if unknown:
        return f"a {kind!r} action has no field {_short(unknown[0])}"
    hints = _hints(cls)
    for name, f in declared.items():
        if name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                return f"a {kind!r} action needs the field {name!r}"
            continue
        problem = _check(data[name], hints[name], f"field {name!r}")
        if problem is not None:
            return problem
    return None


def _text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def check_setup(setup: Any) -> str | None:
    """None when a save's ``setup`` has the shape ``game.session`` writes: a map path, the roster as an
    object, lists of side and figure objects, rule options of true/false, a GM seat and title as text."""
    if not isinstance(setup, dict):
        return '"setup" is missing or not an object'
    if not _text(setup.get("map")):
        return '"setup" has no map file ("map" must be text)'
    if not isinstance(setup.get("roster"), dict):
        return '"setup" has no roster ("roster" must be an object)'
    for part in ("sides", "figures"):
        items = setup.get(part)
        if not isinstance(items, list) or len(items) > MAX_ITEMS or not all(isinstance(x, dict) for x in items):
            return f'"setup" must list its {part} as objects'
    for i, side in enumerate(setup["sides"]):
        for key in ("id", "name", "colour"):
            if not _text(side.get(key)):
                return f'side {i + 1} of "setup" needs {key!r} as text'
    options = setup.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, bool) for v in options.values()):
        return '"setup" rule options must be an object of true / false values'
    for key in ("gm", "title", "map_sha256", "roster_file"):
        if setup.get(key) is not None and not _text(setup[key]):
            return f'"setup" {key!r} must be text'
    return None
