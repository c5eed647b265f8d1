"""A battle is its log: setup + seed + actions (docs/architecture.md "A battle is its log").

The saved form is JSON with ``"version"``, ``"seed"`` and ``"actions"`` at the top level, plus the
caller's description of the setup (``"setup"``: map file, roster, placements, options — the engine does
not read maps) and, per action, a short digest of the events it caused so that a replay can check that
every roll came out the same. Writes are atomic (a temporary file, flushed and synced, then renamed), so
a crash in the middle of a save never destroys the previous one. Undo replays all but the last decision
and is refused once dice were rolled for it: the rolls are public.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.engine.actions import Action, action_from_json, action_to_json
from game.engine.battle import Battle, BattleSetup, IllegalAction, apply, seat_taking
from game.engine.events import events_digest
from game.engine.savecheck import check_action, check_depth

SAVE_VERSION = 1
FORMAT_NAME = "fudge-tactics-battle"
MAX_SAVE_BYTES = 64 * 1024 * 1024


class SaveError(ValueError):
    """A save file that cannot be read or written; the message names the file and what to do."""


class ReplayMismatch(ValueError):
    """A log that does not reproduce: the first action whose events differ, and how."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class Record:
    """A battle's log as read from a save: the caller's setup data, the seed and the actions."""

    setup: Mapping[str, Any]
    seed: int
    actions: tuple[Action, ...]
    digests: tuple[str, ...] = ()
    initial_digest: str | None = None


def to_json(battle: Battle, setup_data: Mapping[str, Any], digests: Sequence[str] | None = None) -> dict[str, Any]:
    """The battle's log as JSON data (the caller supplies how to rebuild its setup)."""
    return {
        "format": FORMAT_NAME,
        "version": SAVE_VERSION,
        "seed": battle.setup.seed,
        "setup": dict(setup_data),
        "initial_digest": battle.initial_digest,
        "actions": [action_to_json(a) for a in battle.log],
        "digests": list(digests if digests is not None else battle.digests),
    }


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file so that it is either wholly the new text or wholly the old file (temp, fsync, rename)."""
    target = Path(path)
    tmp: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise SaveError(
            f"{target}: could not be saved ({exc.strerror or exc}); the previous save, if any, "
            "is unchanged — free some disk space or choose another folder"
        ) from exc


def save(path: str | Path, battle: Battle, setup_data: Mapping[str, Any]) -> None:
    """Save the battle's log as JSON, atomically."""
    write_atomic(path, json.dumps(to_json(battle, setup_data), indent=1))


def load(path: str | Path) -> Record:
    """Read a saved log; a damaged or foreign file raises ``SaveError`` naming the file and the problem."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveError(f"{p}: {size} bytes is too large for a battle save; choose the right file")
        text = p.read_text(encoding="utf-8")
        nested = check_depth(text)
        if nested is not None:
            raise SaveError(f"{p}: not a battle save ({nested}); load an older save")
        data = json.loads(text, parse_constant=_no_constant)
    except FileNotFoundError:
        raise SaveError(f"{p}: no such save file; check the name") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{p}: cannot be read ({exc}); check the file") from None
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{p}: not a battle save (broken JSON at line {exc.lineno}: {exc.msg}); "
            "it may be damaged or truncated — load an older save"
        ) from None
    except (ValueError, RecursionError) as exc:  # NaN / Infinity, an over-long number, deep nesting
        raise SaveError(f"{p}: not a battle save ({exc}); it may be damaged — load an older save") from None
    return parse(data, str(p))


def _no_constant(name: str) -> Any:
    """JSON's NaN and Infinity are no numbers a battle save holds."""
    raise ValueError(f"{name} is not a number a save may hold")


def parse(data: Any, where: str = "save") -> Record:
    """Check and read save data (see ``load``)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise SaveError(f'{where}: not a battle save of this game (no "format": "{FORMAT_NAME}")')
    version = data.get("version")
    if version != SAVE_VERSION:
        raise SaveError(
            f"{where}: save version {version!r} is not supported (this game reads version "
            f"{SAVE_VERSION}); use the game version that wrote it"
        )
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 2**64:
        raise SaveError(f'{where}: "seed" must be a whole number (of at most 64 bits)')
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise SaveError(f'{where}: "setup" is missing or not an object')
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise SaveError(f'{where}: "actions" must be a list')
    actions = []
    for i, item in enumerate(raw):
        problem = check_action(item)
        if problem is not None:
            raise SaveError(f"{where}: action {i + 1} is damaged ({problem}); load an older save")
        try:
            actions.append(action_from_json(item))
        except (ValueError, TypeError) as exc:
            raise SaveError(f"{where}: action {i + 1} is damaged ({exc})") from None
    digests = data.get("digests", [])
    if not isinstance(digests, list) or not all(isinstance(d, str) for d in digests):
        raise SaveError(f'{where}: "digests" must be a list of strings')
    initial = data.get("initial_digest")
    return Record(setup, seed, tuple(actions), tuple(digests), initial if isinstance(initial, str) else None)


def replay(
    setup: BattleSetup,
    actions: Sequence[Action],
    *,
    digests: Sequence[str] = (),
    initial_digest: str | None = None,
    on_action: Callable[[int, Battle], None] | None = None,
) -> Battle:
    """Rebuild a battle by applying its actions to a fresh battle from ``setup``.

    With ``digests`` (from a save), every action's events must match: otherwise ``ReplayMismatch``
    names the first action that differs (a wrong seed, an edited action, other rules or data). Each action
    goes through the door from the seat that took it (``seat_taking``: its side's, or the GM's), so a log
    edited to take a GM decision in a battle without a GM is refused like any illegal action.
    """
    try:
        battle = Battle(setup)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError) as exc:
        raise ReplayMismatch(0, f"the battle cannot be set up from the save ({exc!r})") from None
    if initial_digest is not None and battle.initial_digest != initial_digest:
        raise ReplayMismatch(0, "the battle's opening (initiative rolls) differs: wrong seed, roster or rules")
    for i, action in enumerate(actions):
        try:
            events = apply(battle, action, seat_taking(battle, action))
        except IllegalAction as exc:
            raise ReplayMismatch(i + 1, f"action {i + 1} ({action.kind}) is not legal on replay: {exc}") from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError, RecursionError) as exc:
            # a damaged log the field checks let through: never a traceback, always the action's number
            raise ReplayMismatch(i + 1, f"action {i + 1} ({action.kind}) cannot be applied: {exc!r}") from None
        if i < len(digests) and events_digest(events) != digests[i]:
            raise ReplayMismatch(
                i + 1,
                f"action {i + 1} ({action.kind}) produced different events on replay (different dice, rules or data)",
            )
        if on_action is not None:
            on_action(i, battle)
    return battle


def can_undo(battle: Battle) -> bool:
    """Whether the last decision can be taken back: there is one, and it rolled no dice."""
    return bool(battle.log) and not battle.rolled_at[-1]


def undo(battle: Battle) -> Battle:
    """The battle as it was before its last decision (docs/architecture.md "A battle is its log"); refused once dice
    were rolled."""
    if not battle.log:
        raise IllegalAction("There is nothing to undo yet.")
    if battle.rolled_at[-1]:
        raise IllegalAction("That decision rolled dice: the rolls are public, so it cannot be undone.")
    return replay(battle.setup, battle.log[:-1])
