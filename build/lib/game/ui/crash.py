"""A crash inside the window is not the end of the battle (docs/architecture.md "Errors a person can act on").

When a screen's input, update or draw raises an exception that is not one of the game's own errors, the app
loop (``game.ui.app``) calls ``write_crash_report``: the traceback, the game's version and the running
battle's save (its log, which replays it) go to a file in the data folder's ``crashes`` folder. The autosave
is left as it was (written after the last phase, before anything went wrong). ``crash_dialog`` then tells
the player where the report is and offers the title screen or the battle again from the autosave.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from game.engine.version import GAME_VERSION
from game.ui.dialogs import MessageDialog, describe_error
from game.ui.screen import Screen, Transition, UiContext


def game_version() -> str:
    """The game's version (``game.engine.version``, which ``pyproject.toml`` reads too)."""
    return GAME_VERSION


def is_own_error(exc: BaseException) -> bool:
    """Whether the exception is one of the game's own errors (a sentence for the player, not a crash)."""
    return type(exc).__module__.startswith("game.") and type(exc).__name__.endswith(("Error", "Action"))


def battle_save(screens: Iterable[Screen]) -> dict[str, Any] | None:
    """The save data of the battle on the stack (the topmost screen holding a session), if any."""
    from game.engine import record

    for screen in reversed(list(screens)):
        session = getattr(screen, "session", None)
        if session is None or not hasattr(session, "battle") or not hasattr(session, "setup_data"):
            continue
        try:
            return record.to_json(session.battle, {**session.setup_data, "seed": session.battle.setup.seed})
        except Exception:  # the battle itself may be what broke: the report still gets written
            return None
    return None


def crash_folder() -> Path:
    """Where crash reports are written: the data folder's ``crashes`` (``FUDGE_TACTICS_HOME`` in tests)."""
    from game.session import data_dir

    return data_dir() / "crashes"


def write_crash_report(exc: BaseException, where: str, screens: Iterable[Screen]) -> Path | None:
    """Write a crash report (what failed, the traceback, the game version, the battle's save) and return its
    path; None when it could not be written (a full disk: the dialog then says so)."""
    folder = crash_folder()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"crash-{stamp}.txt"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"crash-{stamp}-{n}.txt"
    save = battle_save(screens)
    lines = [
        "Fudge Tactics crash report",
        f"game version: {game_version()}",
        f"time: {time.strftime('%Y-%m-%d %H:%M:%S')}",
        f"while: {where}",
        "",
        "".join(traceback.format_exception(exc)).rstrip(),
        "",
        "battle save (load it to replay the battle up to the crash):" if save else "no battle was running",
    ]
    if save is not None:
        lines.append(json.dumps(save, indent=1))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError:
        return None
    return path


def crash_dialog(
    ui: UiContext,
    exc: BaseException,
    report: Path | None,
    where: str,
    to_title: Callable[[], Transition],
    continue_autosave: Callable[[], Transition | None],
) -> MessageDialog:
    """The message the player sees: what failed, where the report is, and the way back (title, or the
    battle again from the autosave when there is one)."""
    where_report = f"A report was written to {report}." if report else "The crash report could not be written."
    message = f"{describe_error(exc, where)}. {where_report} Your autosave is kept."
    buttons: list[tuple[str, Callable[[], Transition | None] | None]] = [("Title screen", to_title)]
    if ui.has_autosave():
        message += " Continue goes on from the autosave (the last phase played)."
        buttons.append(("Continue", continue_autosave))
    return MessageDialog(ui, "Something went wrong", message, buttons, error=True)
