"""The tables this computer's window joined (``docs/network.md``, "Taking your seat back"): the Join form's
recent tables, and each seat's token, so a window whose game crashed takes its seat back by itself.

They are kept in ``tables.json`` in the data folder (``game.paths.data_dir``), readable by this user only,
newest first, at most ``MAX_TABLES``. A table is known by its address (``address_uri``), so the same table
reached as ``192.168.1.20`` and ``192.168.1.20:7777`` is one. Kept per table: the address as typed, the name,
the last seat, the certificate's fingerprint (for a ``wss://`` table) and the token of each seat held there.

The table's password is **not** kept: it would lie in a plain file, it is often shared and reused, and it is
asked for again at every join anyway (a token takes a seat back, the password still opens the table). A
damaged or unreadable file is a fresh start, never an error: this is a convenience.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine.record import SaveError, write_atomic
from game.paths import data_dir

FILE_NAME = "tables.json"
MAX_TABLES = 8
_TEXT = 200


@dataclass
class KnownTable:
    """One table this computer joined."""

    uri: str
    address: str
    name: str = ""
    seat: str = ""
    fingerprint: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    """Seat -> the token this computer holds it with."""

    def to_json(self) -> dict[str, Any]:
        """As kept in the file."""
        return {
            "uri": self.uri,
            "address": self.address,
            "name": self.name,
            "seat": self.seat,
            "fingerprint": self.fingerprint,
            "tokens": dict(self.tokens),
        }

    @classmethod
    def from_json(cls, data: Any) -> KnownTable | None:
        """One entry of the file, or None when it is not one (skipped)."""
        if not isinstance(data, dict) or not isinstance(data.get("uri"), str):
            return None
        texts = {k: data.get(k, "") for k in ("address", "name", "seat", "fingerprint")}
        tokens = data.get("tokens", {})
        if not all(isinstance(v, str) and len(v) <= _TEXT for v in texts.values()) or not isinstance(tokens, dict):
            return None
        kept = {str(k)[:_TEXT]: v for k, v in tokens.items() if isinstance(v, str) and len(v) <= _TEXT}
        return cls(data["uri"][:_TEXT], texts["address"], texts["name"], texts["seat"], texts["fingerprint"], kept)


def path() -> Path:
    """The file the tables are kept in."""
    return data_dir() / FILE_NAME


def known_tables() -> list[KnownTable]:
    """The tables this computer joined, newest first (none when the file is missing or damaged)."""
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return []
    return [t for t in (KnownTable.from_json(e) for e in entries[:MAX_TABLES]) if t is not None]


def find(uri: str) -> KnownTable | None:
    """The table at ``uri``, if this computer joined it."""
    return next((t for t in known_tables() if t.uri == uri), None)


def _write(tables: list[KnownTable]) -> None:
    with contextlib.suppress(SaveError):  # the file, holding seat tokens, is readable by this user only
        write_atomic(path(), json.dumps({"tables": [t.to_json() for t in tables[:MAX_TABLES]]}, indent=1))


def remember(
    uri: str, address: str, name: str, seat: str, token: str | None = None, fingerprint: str | None = None
) -> None:
    """This computer sat at ``seat`` of the table at ``uri`` (with ``token``, when it holds a seat): it comes
    first in the list; the tokens of its other seats stay. A failed write is let go (nothing depends on it)."""
    tables = known_tables()
    table = next((t for t in tables if t.uri == uri), None) or KnownTable(uri, address)
    tables = [table] + [t for t in tables if t is not table]
    table.address, table.name, table.seat = address[:_TEXT], name[:_TEXT], seat[:_TEXT]
    if fingerprint is not None:
        table.fingerprint = fingerprint[:_TEXT]
    if token:
        table.tokens[seat] = token
    _write(tables)


def forget_token(uri: str, seat: str) -> None:
    """The token for ``seat`` at ``uri`` no longer takes it (the GM freed it, or someone else holds it)."""
    tables = known_tables()
    for t in tables:
        if t.uri == uri and t.tokens.pop(seat, None) is not None:
            _write(tables)
            return
