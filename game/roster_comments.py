"""A roster's comments kept when the roster is written anew (the roster editor's Save).

A GM documents a roster with comments: a description at the top of the file, a note above a side or a
character (``# the village's two brigands``), a note above a value, and a note after a value on its line
(``tough_hide = 2  # the dragon's scales``). ``with_comments`` carries every one of them from the text the
file had to the new text ``game.roster.roster_to_toml`` makes: each comment is tied to what it stands beside
(the file's top, a ``[table]`` header, a ``key = value`` line in its table, the file's end) and put back
beside the same thing in the new text. A comment whose table or value is gone goes with it, and so do the
comments inside a value written over several lines (the new text writes it on one). The result reads back
as exactly the new text's data, or the new text is returned with only the top comments.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Anchor = tuple[str, ...]
"""What a comment stands beside: ``("[", "characters", "sergeant")`` for a table's header,
``("[[", "figures", "2")`` for the third ``[[figures]]`` entry, ``("=", <table anchor>..., "key")`` for a value."""


@dataclass
class Comments:
    """The comments of one roster text, tied to what they stand beside."""

    head: list[str] = field(default_factory=list)
    """The comment lines at the top of the file (its description for GMs)."""
    before: dict[Anchor, list[str]] = field(default_factory=dict)
    """Comment lines just above a header or a value."""
    after: dict[Anchor, str] = field(default_factory=dict)
    """The comment at the end of a header's or a value's line."""
    tail: list[str] = field(default_factory=list)
    """Comment lines after the last table."""


def _outside_strings(line: str) -> Iterator[tuple[int, str]]:
    """Each character of a line of TOML that stands outside its strings, with its index (the quotes themselves
    and everything between them passed over, a backslash's escape in a ``"`` string included)."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        else:
            yield i, c
        i += 1


def split_comment(line: str) -> tuple[str, str]:
    """A line's TOML and its comment (``"# ..."`` or ''): a ``#`` inside a string is not a comment."""
    for i, c in _outside_strings(line):
        if c == "#":
            return line[:i].rstrip(), line[i:]
    return line.rstrip(), ""


def _depth(code: str) -> int:
    """How many brackets and braces a line's TOML leaves open (a value written over several lines)."""
    return sum(1 if c in "[{" else -1 for _, c in _outside_strings(code) if c in "[{]}")


def key_path(toml: str) -> tuple[str, ...] | None:
    """The key path of the one key (or table) a TOML text sets, outermost first: ``characters."sir bors" = 0``
    and the header ``[characters."sir bors"]`` both give ("characters", "sir bors"); None when the text is not
    TOML."""
    try:
        parsed: Any = tomllib.loads(toml)
    except tomllib.TOMLDecodeError:
        return None
    keys: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key, parsed = next(iter(parsed.items()))
        keys.append(str(key))
    return tuple(keys)


def _path(text: str) -> tuple[str, ...] | None:
    """The key path TOML reads in ``text`` (a header's inside, or a key), None when it is not one."""
    return key_path(f"{text} = 0\n") or None


class _Reader:
    """Walks a roster text line by line and names what each line is (its anchor)."""

    def __init__(self) -> None:
        self.table: Anchor = ()
        self.arrays: dict[tuple[str, ...], int] = {}
        self.open = 0

    def anchor(self, code: str) -> Anchor | None:
        """The anchor of a line of TOML (a header or the first line of a value), None for a value's next lines."""
        if self.open > 0:
            self.open += _depth(code)
            return None
        stripped = code.strip()
        if stripped.startswith("[[") and stripped.endswith("]]"):
            path = _path(stripped[2:-2].strip())
            if path is not None:
                n = self.arrays.get(path, 0)
                self.arrays[path] = n + 1
                self.table = ("[[", *path, str(n))
                return self.table
        elif stripped.startswith("[") and stripped.endswith("]"):
            path = _path(stripped[1:-1].strip())
            if path is not None:
                self.table = ("[", *path)
                return self.table
        left, eq, right = stripped.partition("=")
        key = _path(left.strip()) if eq else None
        if key is None:
            return None
        self.open = _depth(right)
        return ("=", *self.table, *key)


def read_comments(text: str) -> Comments:
    """Every comment of a roster text, tied to what it stands beside."""
    found = Comments()
    reader = _Reader()
    pending: list[str] = []
    started = False
    for line in text.splitlines():
        code, comment = split_comment(line)
        if not code.strip():
            if comment:
                pending.append(comment)
            elif not started and pending:
                found.head.extend(pending)  # the top block ends at its first blank line
                pending = []
            continue
        anchor = reader.anchor(code)
        if anchor is None:
            continue
        started = True
        if pending:
            found.before.setdefault(anchor, []).extend(pending)
            pending = []
        if comment:
            found.after[anchor] = comment
    if not started:
        found.head.extend(pending)
    else:
        found.tail = pending
    return found


def with_comments(original: str, new_text: str) -> str:
    """``new_text`` (a roster as ``roster_to_toml`` writes it) with the comments of ``original`` put back beside
    the same headers and values; it reads back as exactly ``new_text``'s data."""
    comments = read_comments(original)
    reader = _Reader()
    out: list[str] = []
    if comments.head:
        out.extend([*comments.head, ""])
    for line in new_text.splitlines():
        code, _ = split_comment(line)
        anchor = reader.anchor(code) if code.strip() else None
        if anchor is not None:
            out.extend(comments.before.get(anchor, ()))
            if anchor in comments.after:
                line = f"{line}  {comments.after[anchor]}"
        out.append(line)
    if comments.tail:
        out.extend(["", *comments.tail])
    text = "\n".join(out) + "\n"
    try:
        if tomllib.loads(text) == tomllib.loads(new_text):
            return text
    except tomllib.TOMLDecodeError:
        pass
    return ("\n".join([*comments.head, "", ""]) if comments.head else "") + new_text


def with_comments_of(path: Path, new_text: str) -> str:
    """``with_comments`` with the comments of the file at ``path`` as it is now (none when it cannot be read)."""
    try:
        original = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        original = ""
    return with_comments(original, new_text)
