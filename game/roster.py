"""Rosters: the TOML files in which a GM writes the sides and characters of a battle.

A roster has ``[sides.<id>]`` tables (``name``, ``colour``, optional ``controller`` and ``role``),
``[characters.<key>]`` tables in the character format of ``game.engine.characters`` and, optionally,
``[[figures]]`` entries (``character``, ``side``, optional ``name``, ``count``, ``mook``) for maps that do
not place their figures themselves: those figures are set up in their side's deployment zone.
Every problem raises ``RosterError`` naming the file, the entry and the fix.

A character entry or a side may give a ``role`` (``"pc"``, ``"major_npc"`` or ``"npc"``; docs/rosters.md
"Roles"): who is a hero and who a pawn to the rule options that tell them apart (*Fudge* 4.33, 4.64). It is no
part of the character's traits; ``game.session`` decides each figure's role from it when the battle is set up.
A character entry may give its ``fudge_points`` (0 to 20, docs/rosters.md "Fudge Points"; *Fudge* 4.64): each
figure playing it starts the battle with that many.

A character entry may stand in for another one for a single figure: ``stands_in_for = "brigand"`` in
``[characters.snipe]`` (whose ``name`` is "Snipe") makes the figure named Snipe that the map or the roster
gives the character ``brigand`` use ``snipe`` instead. "Save wounds to roster" writes such entries for figures
that share one character, so each carries its own wounds into the next battle (*Fudge* 4.8;
``game.aftercare``); ``Roster.character_for`` applies them when the figures are placed.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from game.engine.battle import CONTROLLERS
from game.engine.characters import Character, CharacterError
from game.engine.codec import is_whole
from game.engine.limits import check_value, limit
from game.engine.record import SaveError, write_atomic
from game.engine.wounds import Wounds
from game.paths import campaign_copy_of, in_game_folder
from game.roster_comments import key_path, with_comments_of

MAX_ROSTER_BYTES = 2 * 1024 * 1024
STANDS_IN_FOR = "stands_in_for"
"""The field of a character entry that stands in for another character for the figure of its name."""
ROLE = "role"
"""The field of a character entry or a side giving its role (module doc)."""
FUDGE_POINTS = "fudge_points"
"""The field of a character entry giving its Fudge Points (module doc)."""
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_COLOURS = ("#2f6fd0", "#c83232", "#2e9e4f", "#d9a520", "#8e44ad", "#16a3a3")


class RosterError(ValueError):
    """A roster that cannot be used; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class RosterSide:
    """A side as the roster names it."""

    id: str
    name: str
    colour: str
    controller: str = "human"
    role: str | None = None
    """The role of the side's figures whose character gives none (module doc); None: the roster does not say."""


@dataclass(frozen=True)
class RosterFigure:
    """A figure the roster asks for (placed in its side's deployment zone)."""

    character: str
    side: str
    name: str
    mook: bool = False


@dataclass(frozen=True)
class Roster:
    """A parsed roster: sides, characters by key, extra figures, and the raw data (kept in saves)."""

    sides: tuple[RosterSide, ...]
    characters: Mapping[str, Character]
    figures: tuple[RosterFigure, ...]
    data: Mapping[str, Any]
    source: str = ""
    stand_ins: Mapping[tuple[str, str], str] = field(default_factory=dict)
    """(character key, figure name) -> the key of the entry standing in for that character for that figure."""
    roles: Mapping[str, str] = field(default_factory=dict)
    """Character key -> the role its entry gives (module doc); characters that give none are not listed."""
    fudge_points: Mapping[str, int] = field(default_factory=dict)
    """Character key -> the Fudge Points its entry gives (module doc); characters that give none are not listed."""

    def side(self, side_id: str) -> RosterSide | None:
        """The side with this id, if the roster names it."""
        return next((s for s in self.sides if s.id == side_id), None)

    def character_for(self, key: str, figure_name: str) -> str:
        """The character key a figure of character ``key`` named ``figure_name`` plays: the entry standing in
        for it (module doc), else ``key`` itself."""
        return self.stand_ins.get((key, figure_name), key)


def load_roster(path: str | Path) -> Roster:
    """Read a roster file (TOML)."""
    return parse_roster(read_roster_data(path), str(Path(path)))


def read_roster_data(path: str | Path) -> dict[str, Any]:
    """A roster file's plain TOML data, unchecked (the roster editor opens rosters it must still fix)."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_ROSTER_BYTES:
            raise RosterError(f"{p}: too large for a roster ({p.stat().st_size} bytes); check the file")
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RosterError(f"{p}: no such roster file; check the name or pick another roster") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RosterError(f"{p}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RosterError(f"{p}: not valid TOML ({exc}); fix the line it names") from None
    except RecursionError:
        raise RosterError(
            f"{p}: nested too deeply to be a roster (lists or tables inside one another); check the file"
        ) from None
    return data


def parse_roster(data: Mapping[str, Any], source: str = "roster") -> Roster:
    """Check and read roster data (as from ``tomllib``); see the module docstring for the format."""
    if not isinstance(data, Mapping):
        raise RosterError(f"{source}: a roster is a TOML document with [sides] and [characters] tables")
    unknown = set(data) - {"sides", "characters", "figures", "title", "description"}
    if unknown:
        raise RosterError(
            f"{source}: unknown top-level entr{'y' if len(unknown) == 1 else 'ies'} "
            f"{', '.join(sorted(unknown))}; use [sides.*], [characters.*] and [[figures]]"
        )
    sides_raw = data.get("sides", {})
    if not isinstance(sides_raw, Mapping):
        raise RosterError(f'{source}: [sides] must be a table of sides, e.g. [sides.blue] name = "Blue"')
    for part in ("sides", "characters", "figures"):
        problem = check_value(part, data.get(part, ()))
        if problem is not None:
            raise RosterError(f"{source}: [{part}] {problem}")
    sides = []
    for i, (sid, sd) in enumerate(sides_raw.items()):
        if not isinstance(sd, Mapping):
            raise RosterError(f"{source}: [sides.{sid}] must be a table with name and colour")
        colour = str(sd.get("colour", DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)]))
        if not _COLOUR.match(colour):
            raise RosterError(f'{source}: [sides.{sid}] colour {colour!r} is not a colour; write it as "#rrggbb"')
        controller = str(sd.get("controller", "human"))
        if controller not in CONTROLLERS:
            raise RosterError(f"{source}: [sides.{sid}] controller {controller!r}: use {', '.join(CONTROLLERS)}")
        role = _role(sd, f"{source}: [sides.{sid}]")
        sides.append(RosterSide(str(sid), str(sd.get("name", sid)), colour, controller, role))
    chars_raw = data.get("characters", {})
    if not isinstance(chars_raw, Mapping) or not chars_raw:
        raise RosterError(f"{source}: no characters; add at least one [characters.<key>] table")
    characters: dict[str, Character] = {}
    stands_in: dict[str, str] = {}
    roles: dict[str, str] = {}
    points: dict[str, int] = {}
    for key, cd in chars_raw.items():
        if not isinstance(cd, Mapping):
            raise RosterError(f"{source}: [characters.{key}] must be a table")
        token = cd.get("token", "")
        if not isinstance(token, str):
            raise RosterError(
                f'{source}: [characters.{key}] token must be a file name, e.g. token = "tokens/knight.png"'
            )
        target = cd.get(STANDS_IN_FOR)
        if target is not None:
            if not isinstance(target, str) or not target:
                raise RosterError(
                    f"{source}: [characters.{key}] {STANDS_IN_FOR} must name a character, e.g. "
                    f'{STANDS_IN_FOR} = "brigand"; or remove the line'
                )
            stands_in[str(key)] = target
        role = _role(cd, f"{source}: [characters.{key}]")
        if role is not None:
            roles[str(key)] = role
        if FUDGE_POINTS in cd:
            points[str(key)] = _fudge_points(cd[FUDGE_POINTS], f"{source}: [characters.{key}]")
        try:
            # ``token`` (a GM's own token picture, checked by the UI's token_images), ``stands_in_for`` (which
            # figure plays the entry), ``role`` and ``fudge_points`` (module doc) are no part of the character's traits
            rules = {k: v for k, v in cd.items() if k not in ("token", STANDS_IN_FOR, ROLE, FUDGE_POINTS)}
            characters[str(key)] = Character.from_dict(rules, key=str(key))
        except CharacterError as exc:
            raise RosterError(f"{source}: {exc}") from None
        except ValueError as exc:  # unknown equipment and the like
            raise RosterError(f"{source}: [characters.{key}]: {exc}") from None
    stand_ins = _stand_ins(stands_in, characters, source)
    figures = []
    figs_raw = data.get("figures", [])
    if not isinstance(figs_raw, list):
        raise RosterError(f"{source}: figures must be written as [[figures]] entries")
    side_ids = {s.id for s in sides}
    for i, fd in enumerate(figs_raw):
        where = f"{source}: [[figures]] entry {i + 1}"
        if not isinstance(fd, Mapping):
            raise RosterError(f"{where} must be a table")
        ch = str(fd.get("character", ""))
        if ch not in characters:
            raise RosterError(
                f"{where}: character {ch!r} is not in [characters]; known: {', '.join(sorted(characters))}"
            )
        side = str(fd.get("side", ""))
        if side not in side_ids:
            raise RosterError(f"{where}: side {side!r} is not in [sides]; known: {', '.join(sorted(side_ids))}")
        count = fd.get("count", 1)
        if not is_whole(count) or check_value("figures.count", count):
            raise RosterError(f"{where}: count must be a whole number from {_describe('figures.count')}")
        base = str(fd.get("name", characters[ch].name))
        for n in range(count):
            figures.append(RosterFigure(ch, side, base if count == 1 else f"{base} {n + 1}", bool(fd.get("mook"))))
    return Roster(tuple(sides), characters, tuple(figures), data, source, stand_ins, roles, points)


def _role(table: Mapping[str, Any], where: str) -> str | None:
    """The ``role`` a side or character table gives (None when it gives none), checked against
    ``data/limits.toml`` (``RosterError`` naming the entry, the field and the three roles)."""
    if ROLE not in table:
        return None
    value = table[ROLE]
    problem = check_value(ROLE, value)
    if problem is not None:
        raise RosterError(
            f"{where} role: {problem} (pc: a player character, major_npc: a major NPC, npc: an NPC pawn; "
            'docs/rosters.md "Roles")'
        )
    return str(value)


def _fudge_points(value: object, where: str) -> int:
    """A character entry's ``fudge_points``: a whole number within ``data/limits.toml`` (``RosterError`` naming
    the entry, the field, the range and the fix)."""
    said = '(Fudge 4.64; docs/rosters.md "Fudge Points")'
    if isinstance(value, bool) or not isinstance(value, int):
        raise RosterError(
            f"{where} fudge_points: {value!r} is not a whole number; write one from {_describe(FUDGE_POINTS)} {said}"
        )
    problem = check_value(FUDGE_POINTS, value)
    if problem is not None:
        raise RosterError(f"{where} fudge_points: {problem} {said}")
    return value


def _stand_ins(
    stands_in: Mapping[str, str], characters: Mapping[str, Character], source: str
) -> dict[tuple[str, str], str]:
    """The ``stands_in_for`` entries (module doc) by (character they stand in for, figure name), checked: each
    names another character of the roster, and one figure has at most one."""
    out: dict[tuple[str, str], str] = {}
    for key, target in stands_in.items():
        if target == key or target not in characters:
            raise RosterError(
                f"{source}: [characters.{key}] {STANDS_IN_FOR} = {target!r} is not another character of this "
                f"roster; name the character whose figure {characters[key].name!r} this entry plays, or remove "
                "the line"
            )
        slot = (target, characters[key].name)
        if slot in out:
            raise RosterError(
                f"{source}: [characters.{out[slot]}] and [characters.{key}] both stand in for {target!r} for the "
                f"figure {characters[key].name!r}; keep one of them"
            )
        out[slot] = key
    return out


def _describe(field: str) -> str:
    lim = limit(field)
    return lim.describe() if lim is not None else "any"


# ------------------------------------------------------------------------------------------ saving

_TABLE_KEYS = ("sides", "characters")


def _toml_key(key: str) -> str:
    """A key as TOML writes it (bare when it can be, quoted otherwise), escaped by tomli-w."""
    line = tomli_w.dumps({key: 0})
    return line[: -len(" = 0\n")]


def _toml_value(value: Any) -> str:
    """One value on one line: tables inline (``skills = { Sword = "Good" }``), as a GM writes them."""
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    line = tomli_w.dumps({"v": value})
    return line[len("v = ") :].rstrip("\n")


def _pairs(table: Mapping[str, Any]) -> list[str]:
    return [f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in table.items()]


def roster_to_toml(roster_or_data: Roster | Mapping[str, Any]) -> str:
    """A roster as TOML text in the format of the module docstring (``load_roster`` reads it back equal).

    Takes a ``Roster`` (its raw ``data`` is written, so keys this game does not know survive) or plain
    roster data. ``[sides.*]`` and ``[characters.*]`` become one table each, ``figures`` an array of
    tables, small tables inside a character (skills) stay inline. Anything of another shape is written
    by tomli-w as it is.
    """
    data = roster_or_data.data if isinstance(roster_or_data, Roster) else roster_or_data
    top: dict[str, Any] = {}
    tables: list[str] = []
    rest: dict[str, Any] = {}
    for key, value in data.items():
        if key in _TABLE_KEYS and isinstance(value, Mapping) and all(isinstance(v, Mapping) for v in value.values()):
            for sub, table in value.items():
                tables.append("\n".join([f"[{_toml_key(key)}.{_toml_key(str(sub))}]", *_pairs(table)]))
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for table in value:
                tables.append("\n".join([f"[[{_toml_key(key)}]]", *_pairs(table)]))
        elif isinstance(value, Mapping):
            rest[key] = value
        else:
            top[key] = value
    parts = []
    if top:
        parts.append("\n".join(_pairs(top)))
    parts.extend(tables)
    if rest:
        parts.append(tomli_w.dumps(rest).rstrip("\n"))
    return "\n\n".join(parts) + "\n"


def _leading_comments(path: Path) -> str:
    """The comment lines at the top of an existing roster (its description for GMs), kept on saving."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    head = []
    for line in lines:
        if not line.startswith("#"):
            break
        head.append(line)
    return "\n".join(head) + "\n\n" if head else ""


def save_roster(path: str | Path, data: Roster | Mapping[str, Any]) -> None:
    """Write a roster as TOML atomically (temp file, fsync, rename): the file is wholly new or wholly old.

    The comments of the file it replaces are kept beside what they describe (``game.roster_comments``). A
    full disk or an unwritable folder raises ``RosterError`` naming the file and the fix; the old file is
    then untouched.
    """
    target = Path(path)
    _write_roster(
        target,
        with_comments_of(target, roster_to_toml(data)),
        "the roster could not be saved",
        "the file as it was is unchanged — free some disk space, or use Save as to choose a folder you may write to",
    )


def _write_roster(target: Path, text: str, what: str, fix: str) -> None:
    """Write a roster's text atomically; a refused write becomes a ``RosterError`` naming the file, why
    (``what`` and the OS's reason) and ``fix``. A file of the game's own folder is never written
    (``game.paths``): changes to a shipped roster go to its campaign copy (``writable_roster``)."""
    if in_game_folder(target):
        raise RosterError(
            f"{target}: {what}: it is one of the game's own files, which the game never changes; save your "
            f"changes to its copy in your data folder ({campaign_copy_of(target)}) or use Save as"
        )
    try:
        write_atomic(target, text)
    except SaveError as err:
        cause = err.__cause__
        why = (cause.strerror or cause) if isinstance(cause, OSError) else err
        raise RosterError(f"{target}: {what} ({why}); {fix}") from None


def writable_roster(roster: str | Path) -> tuple[Path, Path | None, bool]:
    """Where changes to ``roster`` are written: the roster itself, or, for one shipped in the game's own folder,
    its campaign copy in the user's data folder (``game.paths.campaign_copy_of``), made now from the shipped
    text (comments and all) if it does not exist yet. Returns (file to write, the shipped roster or None,
    whether the copy was made now); a copy that cannot be made raises ``RosterError``."""
    path = Path(roster)
    if not in_game_folder(path):
        return path, None, False
    copy = campaign_copy_of(path)
    if copy.is_file():
        return copy, path, False
    try:
        write_atomic(copy, path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SaveError) as exc:
        raise RosterError(f"{copy}: the campaign copy of {path.name} could not be written ({exc})") from None
    return copy, path, True


def _table_path(line: str) -> tuple[str, ...] | None:
    """The key path of a ``[table]`` header line (``[characters."sir bors"]`` -> characters, sir bors), None
    for any other line; an ``[[array]]`` header gives ``("[[",)`` (it ends the table before it too)."""
    stripped = line.strip()
    if stripped.startswith("[["):
        return ("[[",)
    if not stripped.startswith("["):
        return None
    return key_path(stripped + "\n")


_WOUNDS_LINE = re.compile(r"""^\s*(wounds|"wounds"|'wounds')\s*=""")


def _edit_wounds_text(text: str, carried: Mapping[str, Any], field: str = "wounds") -> str | None:
    """The roster text with the ``field`` line (``wounds``, ``fudge_points``) of each ``[characters.KEY]`` in
    ``carried`` replaced, added (after the table's last value) or removed (an empty sheet, None); None when a
    table is not found as a header."""
    line_of = _WOUNDS_LINE if field == "wounds" else re.compile(rf"^\s*{re.escape(field)}\s*=")
    lines = text.splitlines()
    starts = [(i, _table_path(line)) for i, line in enumerate(lines)]
    headers = [(i, p) for i, p in starts if p is not None]
    edits: dict[int, str | None] = {}  # line index -> new text (None: remove)
    inserts: dict[int, str] = {}  # insert after this line index
    for key, value in carried.items():
        spans = [
            (i, headers[n + 1][0] if n + 1 < len(headers) else len(lines))
            for n, (i, p) in enumerate(headers)
            if p == ("characters", key)
        ]
        if len(spans) != 1:
            return None
        start, end = spans[0]
        new = f"{field} = {_toml_value(value)}" if value or (value is not None and field != "wounds") else None
        found = [i for i in range(start + 1, end) if line_of.match(lines[i])]
        if len(found) > 1:
            return None
        if found:
            edits[found[0]] = new
        elif new is not None:
            last = max(
                (i for i in range(start, end) if lines[i].strip() and not lines[i].lstrip().startswith("#")),
                default=start,
            )
            inserts[last] = new
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in edits:
            if edits[i] is not None:
                out.append(str(edits[i]))
        else:
            out.append(line)
        if i in inserts:
            out.append(inserts[i])
    return "\n".join(out) + ("\n" if text.endswith("\n") or not text else "")


def save_carried_wounds(
    path: str | Path,
    wounds: Mapping[str, Wounds],
    notes: list[str] | None = None,
    new_characters: Mapping[str, Mapping[str, Any]] | None = None,
    fudge_points: Mapping[str, int] | None = None,
) -> list[str]:
    """Write the wounds characters carry into the next battle (*Fudge* 4.8) into a roster file, and the Fudge
    Points ``fudge_points`` gives (character key -> points left, *Fudge* 4.64) into their ``fudge_points`` line.

    ``wounds`` maps character keys to their sheets; an unhurt sheet removes the character's ``wounds`` line.
    No other value changes (fields this game does not know included). The file's text is kept as the GM
    wrote it (comments, order, layout): only the ``wounds = ...`` line of each saved ``[characters.KEY]``
    table is replaced, inserted or removed, and the edited text must read back as exactly the expected
    data. A roster that cannot be edited that way (a character written inline, a ``wounds`` value over
    several lines) is rewritten whole as ``save_roster`` writes it, keeping only the comment lines at the
    top; ``notes`` (if given) then receives a sentence saying so. The roster as it would be is read first
    and the file written atomically, so a roster that would not load, a full disk or an unwritable folder
    raise ``RosterError`` and leave the file as it was. Returns the keys the file no longer has (their
    wounds are not written).

    ``new_characters`` are character tables to add first (appended as ``[characters.KEY]`` tables at the
    end of the file), e.g. a figure's own entry made from a roster character several figures share; their
    wounds are then written like the others'.
    """
    target = Path(path)
    data = read_roster_data(target)
    chars = data.get("characters")
    if not isinstance(chars, dict):
        raise RosterError(f"{target}: no [characters] tables to write wounds into; check the roster file")
    added = {key: dict(table) for key, table in (new_characters or {}).items() if key not in chars}
    chars.update(added)
    missing = []
    written: dict[str, Any] = {}
    for key, sheet in wounds.items():
        table = chars.get(key)
        if not isinstance(table, dict):
            missing.append(key)
            continue
        carried = sheet.to_roster()
        written[key] = carried
        if carried:
            table["wounds"] = carried
        else:
            table.pop("wounds", None)
    points: dict[str, Any] = {}
    for key, left in (fudge_points or {}).items():
        table = chars.get(key)
        if isinstance(table, dict):
            table[FUDGE_POINTS] = points[key] = left
        elif key not in missing:
            missing.append(key)
    parse_roster(data, str(target))
    try:
        original = target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        original = ""
    if original and added:
        tables = [
            "\n".join([f"[characters.{_toml_key(key)}]", *_pairs({k: v for k, v in table.items() if k != "wounds"})])
            for key, table in added.items()
        ]
        original = original.rstrip("\n") + "\n\n" + "\n\n".join(tables) + "\n"
    text = _edit_wounds_text(original, written) if original else None
    if text is not None and points:
        text = _edit_wounds_text(text, points, FUDGE_POINTS)
    if text is not None:
        try:
            if tomllib.loads(text) != data:
                text = None
        except tomllib.TOMLDecodeError:
            text = None
    if text is None:
        text = _leading_comments(target) + roster_to_toml(data)
        if notes is not None:
            notes.append(
                f"{target.name} was rewritten whole (its layout could not be edited line by line), so "
                "only the comments at its top were kept"
            )
    _write_roster(
        target,
        text,
        "the wounds could not be written",
        "the roster is unchanged — free some disk space or make its folder writable, then save the wounds again",
    )
    return missing
