"""A battle is its log: setup + seed + actions (docs/architecture.md "A battle is its log").

The saved form is JSON (``SaveFile``): the format's name and version, the game's version and the rules
revision that wrote it (``game.engine.version``), the kind of dice (``game.engine.generator``), the seed, the
caller's description of the setup (``"setup"``: map file, roster, placements, options — the engine does not
read maps), the actions and, per action, a short digest of the events it caused so that a replay can check
that every roll came out the same. Reading a save is one strict decode against ``SaveFile``
(docs/architecture.md "One contract at every boundary"); saves of format 1, written before the version, the
revision and the dice were recorded, are read by ``SaveFileV1``. Writes are atomic (a temporary file, flushed
and synced, then renamed), so a crash in the middle of a save never destroys the previous one. Undo replays
all but the last decision and is refused once dice were rolled for it: the rolls are public.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar, Union

import msgspec
from msgspec import Meta

from game.engine import codec
from game.engine.action_base import Action, FigureAction
from game.engine.actions import ACTION_TYPES, AnyAction, Move, SecondMove
from game.engine.battle import Battle, BattleSetup, IllegalAction, apply, seat_taking
from game.engine.codec import MAX_DECISIONS, Digest, Facing, Name, Table
from game.engine.events import events_digest
from game.engine.generator import LEGACY_DICE, LEGACY_SEED_LIMIT
from game.engine.hexgrid import Coord, Hex
from game.engine.version import GAME_VERSION, RULE_CHANGES, RULES_REVISION

SAVE_VERSION: Literal[2] = 2
FORMAT_NAME: Literal["fudge-tactics-battle"] = "fudge-tactics-battle"
MAX_SAVE_BYTES = 64 * 1024 * 1024

SaveSeed = int
"""A seed as a save holds it: the game makes 63-bit seeds (``generator.new_seed``); a save written before
that may hold a seed of up to 128 bits (a hosted table's), which still loads, and a battle resumed from it
keeps it. ``msgspec`` bounds whole numbers only within 64 bits (and refuses any of thousands of digits), so
the 128-bit bound is checked after decoding (``_record``)."""
Digests = Annotated[list[Digest], Meta(max_length=MAX_DECISIONS)]


class SaveError(ValueError):
    """A save file that cannot be read or written; the message names the file and what to do. ``problem`` is
    the codec's sentence when the file does not fit its schema (the same words a message on the wire gets)."""

    def __init__(self, message: str, problem: str = "") -> None:
        super().__init__(message)
        self.problem = problem


class ReplayMismatch(ValueError):
    """A log that does not reproduce: the first action whose events differ (``index``, 1-based; 0: the
    opening), and how (``differs``: what differs, in a few words)."""

    def __init__(self, index: int, message: str, differs: str = "") -> None:
        super().__init__(message)
        self.index = index
        self.differs = differs or message


class UnplayableSetup(ReplayMismatch):
    """A save whose setup makes no battle at all (no decision can agree)."""


S = TypeVar("S")
"""The type of a save's ``"setup"``: the caller's (``game.session.SetupData``), else any ``codec.Table``."""


class SaveFile(msgspec.Struct, Generic[S], forbid_unknown_fields=True, kw_only=True):
    """A battle save as written today (format version 2); its ``setup`` is of the caller's type ``S``."""

    format: Literal["fudge-tactics-battle"]
    version: Literal[2]
    game_version: Name = ""
    """The version of the game that wrote the save."""
    rules_revision: Annotated[int, Meta(ge=0, le=codec.MAX_NUMBER)] | None = None
    """The rules revision (``game.engine.version``) the save was played under."""
    dice: Literal["blake2b", "mt19937"] = "mt19937"
    """The kind of the battle's dice (``game.engine.generator``)."""
    seed: SaveSeed
    setup: S
    initial_digest: Digest | None = None
    actions: Annotated[list[AnyAction], Meta(max_length=MAX_DECISIONS)]
    digests: Digests = msgspec.field(default_factory=list)


FlatStates = Annotated[tuple[tuple[Coord, Coord, Facing], ...], Meta(max_length=codec.MAX_ITEMS)]
"""A move's states as format 1 wrote them: ``[q, r, facing]`` each."""


class MoveV1(FigureAction, frozen=True, tag="move"):
    """A move as format 1 wrote it (``actions.Move``, its states flat)."""

    steps: FlatStates = ()
    posture: Name | None = None

    def today(self) -> Move:
        """The move as today's ``actions.Move``."""
        return Move(self.figure, _states(self.steps), self.posture)


class SecondMoveV1(FigureAction, frozen=True, tag="second_move"):
    """A second move as format 1 wrote it (``actions.SecondMove``, its states flat)."""

    steps: FlatStates = ()

    def today(self) -> SecondMove:
        """The second move as today's ``actions.SecondMove``."""
        return SecondMove(self.figure, _states(self.steps))


def _states(flat: tuple[tuple[int, int, int], ...]) -> tuple[tuple[Hex, int], ...]:
    return tuple((Hex(q, r), facing) for q, r, facing in flat)


AnyActionV1: Any = Union[
    (MoveV1, SecondMoveV1, *(cls for cls in ACTION_TYPES.values() if cls not in (Move, SecondMove)))
]


class SaveFileV1(msgspec.Struct, Generic[S], forbid_unknown_fields=True):
    """A battle save of format version 1 (before the game's version, the rules revision and the dice were
    recorded): its dice are the legacy ones."""

    format: Literal["fudge-tactics-battle"]
    version: Literal[1]
    seed: SaveSeed
    setup: S
    actions: Annotated[list[AnyActionV1], Meta(max_length=MAX_DECISIONS)]
    digests: Digests = msgspec.field(default_factory=list)
    initial_digest: Digest | None = None


class _Header(msgspec.Struct):
    """What tells a save's format apart (every other field is read by the format's own type)."""

    format: Any = None
    version: Any = None


_HEADER = msgspec.json.Decoder(_Header)
_FORMATS: dict[int, Any] = {2: SaveFile, 1: SaveFileV1}
_DECODERS: dict[tuple[int, Any], msgspec.json.Decoder[Any]] = {}


def _decoder(version: int, setup: Any) -> msgspec.json.Decoder[Any]:
    key = (version, setup)
    if key not in _DECODERS:
        _DECODERS[key] = msgspec.json.Decoder(_FORMATS[version][setup])
    return _DECODERS[key]


@dataclass(frozen=True)
class Record:
    """A battle's log as read from a save: the caller's setup data, the seed and the actions, and who wrote it."""

    setup: Mapping[str, Any]
    seed: int
    actions: tuple[Action, ...]
    digests: tuple[str, ...] = ()
    initial_digest: str | None = None
    dice: str = LEGACY_DICE
    game_version: str = ""
    """The version of the game that wrote the save ("" for a save of format 1, which did not say)."""
    rules_revision: int | None = None
    """The rules revision the save was played under (None: not recorded, a save of format 1)."""


def to_json(battle: Battle, setup_data: Mapping[str, Any], digests: Sequence[str] | None = None) -> dict[str, Any]:
    """The battle's log as JSON data (the caller supplies how to rebuild its setup)."""
    data: dict[str, Any] = codec.to_data(_save_file(battle, setup_data, digests))
    return data


def _save_file(
    battle: Battle, setup_data: Mapping[str, Any], digests: Sequence[str] | None = None
) -> SaveFile[dict[str, Any]]:
    return SaveFile(
        format=FORMAT_NAME,
        version=SAVE_VERSION,
        game_version=GAME_VERSION,
        rules_revision=RULES_REVISION,
        dice=battle.setup.dice,  # type: ignore[arg-type]
        seed=battle.setup.seed,
        setup=dict(setup_data),
        initial_digest=battle.initial_digest,
        actions=list(battle.log),
        digests=list(digests if digests is not None else battle.digests),
    )


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write a file so that it is either wholly the new text or wholly the old file (temp, fsync, rename), the
    folders above it made as needed; the file is readable by this user only (as ``tempfile.mkstemp`` makes it).
    ``SaveError`` with the sentence when the disk refuses (the old file, if any, unchanged)."""
    target = Path(path)
    tmp: str | None = None
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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
    try:
        text = msgspec.json.format(codec.encode(_save_file(battle, setup_data)), indent=1)
    except (TypeError, ValueError, OverflowError) as exc:  # a setup value JSON cannot hold: a bug, said plainly
        raise SaveError(f"{path}: the battle could not be written as JSON ({exc}); nothing was saved") from None
    write_atomic(path, text)


def load(path: str | Path, setup: Any = Table) -> Record:
    """Read a saved log, its ``"setup"`` decoded as ``setup`` (a ``msgspec`` type: the caller's; ``Record.setup``
    is it as plain data); a damaged or foreign file raises ``SaveError`` naming the file and the problem."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveError(f"{p}: {size} bytes is too large for a battle save; choose the right file")
        raw = p.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"{p}: no such save file; check the name") from None
    except OSError as exc:
        raise SaveError(f"{p}: cannot be read ({exc.strerror or exc}); check the file") from None
    return decode(raw.removeprefix(b"\xef\xbb\xbf"), str(p), setup)


def decode(raw: bytes | str, where: str = "save", setup: Any = Table) -> Record:
    """Decode a save's JSON text strictly (``SaveFile``, or ``SaveFileV1`` for format 1); ``SaveError`` names
    what is wrong, and which decision when one is damaged."""
    try:
        header = codec.decode(raw, _HEADER)
    except codec.CodecError as exc:
        at = "" if exc.byte is None else f", line {_line(raw, exc.byte)}"
        raise SaveError(
            f"{where}: not a battle save ({exc.problem}{at}); it may be damaged or cut short — load an older save",
            exc.problem,
        ) from None
    version = _version(header.format, header.version, where)
    try:
        saved = codec.decode(raw, _decoder(version, setup))
    except codec.CodecError as exc:
        raise _damaged(exc, where) from None
    return _record(saved, where)


def parse(data: Any, where: str = "save", setup: Any = Table) -> Record:
    """Check and read save data already read from JSON (see ``decode``)."""
    if not isinstance(data, dict):
        raise SaveError(f'{where}: not a battle save of this game (no "format": "{FORMAT_NAME}")')
    version = _version(data.get("format"), data.get("version"), where)
    try:
        saved = codec.convert(data, _FORMATS[version][setup])
    except codec.CodecError as exc:
        raise _damaged(exc, where) from None
    return _record(saved, where)


def _version(fmt: Any, version: Any, where: str) -> int:
    if fmt != FORMAT_NAME:
        raise SaveError(f'{where}: not a battle save of this game (no "format": "{FORMAT_NAME}")')
    if not codec.is_whole(version) or version not in _FORMATS:
        raise SaveError(
            f"{where}: save version {version!r} is not supported (this game reads versions 1 to "
            f"{SAVE_VERSION}); use the game version that wrote it"
        )
    return int(version)


def _line(raw: bytes | str, byte: int) -> int:
    data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
    return data.count(b"\n", 0, byte) + 1


def _damaged(exc: codec.CodecError, where: str) -> SaveError:
    if len(exc.path) >= 2 and exc.path[0] == "actions" and isinstance(exc.path[1], int):
        problem = exc.about(exc.path[:2])
        return SaveError(f"{where}: action {exc.path[1] + 1} is damaged ({problem}); load an older save", problem)
    return SaveError(
        f"{where}: not a battle save of this game ({exc.problem}); it may be damaged — load an older save", exc.problem
    )


def _record(saved: SaveFile[Any] | SaveFileV1[Any], where: str) -> Record:
    if not -LEGACY_SEED_LIMIT < saved.seed < LEGACY_SEED_LIMIT:
        raise SaveError(f"{where}: not a battle save of this game (the field 'seed' has more than 128 bits)")
    actions = tuple(a.today() if isinstance(a, MoveV1 | SecondMoveV1) else a for a in saved.actions)
    setup = saved.setup if isinstance(saved.setup, dict) else codec.to_data(saved.setup)
    if isinstance(saved, SaveFileV1):
        return Record(setup, saved.seed, actions, tuple(saved.digests), saved.initial_digest)
    return Record(
        setup,
        saved.seed,
        actions,
        tuple(saved.digests),
        saved.initial_digest,
        saved.dice,
        saved.game_version,
        saved.rules_revision,
    )


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
        raise UnplayableSetup(0, f"the battle cannot be set up from the save ({exc!r})") from None
    if initial_digest is not None and battle.initial_digest != initial_digest:
        raise ReplayMismatch(
            0,
            "the battle's opening (initiative rolls) differs: wrong seed, roster or rules",
            "the opening initiative rolls come out differently",
        )
    for i, action in enumerate(actions):
        try:
            events = apply(battle, action, seat_taking(battle, action))
        except IllegalAction as exc:
            raise ReplayMismatch(
                i + 1,
                f"action {i + 1} ({action.kind}) is not legal on replay: {exc}",
                f"it is not allowed now ({str(exc).rstrip('.')})",
            ) from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError, RecursionError) as exc:
            # a damaged log the field checks let through: never a traceback, always the action's number
            raise ReplayMismatch(
                i + 1, f"action {i + 1} ({action.kind}) cannot be applied: {exc!r}", f"it cannot be applied ({exc})"
            ) from None
        if i < len(digests) and events_digest(events) != digests[i]:
            raise ReplayMismatch(
                i + 1,
                f"action {i + 1} ({action.kind}) produced different events on replay (different dice, rules or data)",
                "its dice or its outcome come out differently",
            )
        if on_action is not None:
            on_action(i, battle)
    return battle


KIND_WORDS: Mapping[str, str] = {
    "move": "move",
    "hold": "hold",
    "pass_interrupt": "pass",
    "stop_choice": "choice to stop a mover",
    "escape_failed_choice": "choice after a failed escape",
    "declare": "declaration",
    "second_move": "second move",
    "follow_choice": "choice to follow",
    "reveal": "reveal of the stances",
    "standing_order": "standing order",
    "yield": "yield",
}
"""A decision's kind as the parting sentence names it (a GM decision is "GM decision")."""


@dataclass(frozen=True)
class Parting:
    """Where today's rules part from a saved log (docs/architecture.md "A battle is its log"): the first
    decision whose events differ (``index``, 1-based; 0: the opening), the round it falls in, whose it is and
    what differs."""

    index: int
    round: int
    who: str
    kind: str
    differs: str

    def where(self) -> str:
        """Where the log parts: "at round 2, action 17 (Mags's declaration)"."""
        if self.index == 0:
            return "at the opening of round 1"
        return f"at round {self.round}, action {self.index} ({self.who}{self.kind})"

    def sentence(self, written_by: str, *, goes_on: bool = True) -> str:
        """One sentence: who wrote the save, where today's rules part from it, and (``goes_on``) where the
        battle goes on."""
        parts = f"{written_by}; today's rules (revision {RULES_REVISION}) part from it {self.where()}: {self.differs}"
        if not goes_on:
            return parts + "."
        after = "from its first round" if self.index <= 1 else f"after action {self.index - 1}"
        return f"{parts}; the battle goes on {after}, under today's rules."


def agreeing(written_by: str) -> str:
    """One sentence for a save of other rules that today's rules replay roll for roll: who wrote it, and that
    nothing parts."""
    return f"{written_by}; today's rules (revision {RULES_REVISION}) replay it roll for roll."


def written_by(rec: Record) -> str:
    """Which version of the game and which rules revision wrote a save, as the start of a sentence."""
    if not rec.game_version:
        return "This save was written by an earlier version of Fudge Tactics, before saves recorded their version"
    revision = "" if rec.rules_revision is None else f" under rules revision {rec.rules_revision}"
    changes = [f"{n}: {RULE_CHANGES[n]}" for n in sorted(RULE_CHANGES) if n > (rec.rules_revision or 0)]
    since = f" (changed since: {'; '.join(changes)})" if changes and rec.rules_revision is not None else ""
    return f"This save was written by Fudge Tactics {rec.game_version}{revision}{since}"


def replay_agreeing(
    setup: BattleSetup,
    actions: Sequence[Action],
    *,
    digests: Sequence[str] = (),
    initial_digest: str | None = None,
) -> tuple[Battle, Parting | None]:
    """Replay a saved log under today's rules as far as both agree: the battle after the last decision whose
    events match its digest, and where they part (None when the whole log agrees). A save from other rules
    goes on from there (docs/architecture.md "A battle is its log")."""
    try:
        return replay(setup, actions, digests=digests, initial_digest=initial_digest), None
    except ReplayMismatch as exc:
        if isinstance(exc, UnplayableSetup):
            raise
        agreed = max(exc.index - 1, 0)
        battle = replay(setup, actions[:agreed])
        who, kind = "", ""
        if exc.index:
            action = actions[agreed]
            kind = "GM decision" if action.kind.startswith("gm_") else KIND_WORDS.get(action.kind, action.kind)
            figure = getattr(action, "figure", None)
            names = battle.names()
            if isinstance(figure, str) and figure in names:
                who = f"{names[figure]}'s "
            elif isinstance(getattr(action, "side", None), str) and action.side in battle.sides:  # type: ignore[attr-defined]
                who = f"{battle.sides[action.side].name}'s "  # type: ignore[attr-defined]
        return battle, Parting(exc.index, battle.round, who, kind, exc.differs)


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
