"""Where the game's files live: its own folder (shipped maps and rosters, never written while playing) and the
user's data folder (autosave, saves, exported logs, campaign rosters, the GM's rules files).

A campaign roster is the user's copy of a shipped roster: "Save wounds to roster" writes the wounds characters
carry into the next battle (*Fudge* 4.8) there instead of into the game's own ``maps/``, and so does the roster
editor's Save with the GM's edits; New battle offers the copy as the map's roster from then on. The game's own
files are never written (``game.roster`` refuses it).
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent
ROOT = _CHECKOUT if (_CHECKOUT / "main.py").is_file() and (_CHECKOUT / "maps").is_dir() else _PACKAGE / "shipped"
"""The game's own folder (maps/, assets/): the project's folder when the game runs from it, else the folder an
installed game carries them in (``pyproject.toml``: ``game/shipped``)."""
MAPS_DIR = ROOT / "maps"
ASSETS_DIR = ROOT / "assets"
CAMPAIGNS = "campaigns"
"""The data folder's sub-folder holding campaign rosters."""
RULES = "rules"
"""The data folder's sub-folder holding the GM's rules files (``game.rules_file``)."""


def data_dir() -> Path:
    """Where saves and the autosave live (``FUDGE_TACTICS_HOME`` overrides, for tests)."""
    env = os.environ.get("FUDGE_TACTICS_HOME")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fudge-tactics"


def rules_dir() -> Path:
    """Where New battle's Save as puts a GM's rules files and lists them from: ``<data dir>/rules``."""
    return data_dir() / RULES


def find_map(path: str | Path) -> Path:
    """A map as a player names it on the command line: the file itself when there is one, else the shipped map
    of that name (``village.tmx`` or ``village``), from any folder — an installed game keeps its maps in its
    own folder, where nobody goes looking."""
    given = Path(path)
    if given.exists() or given.parent != Path("."):
        return given
    for name in (given.name, given.name + ".tmx"):
        if (MAPS_DIR / name).is_file():
            return MAPS_DIR / name
    return given


def in_game_folder(path: str | Path) -> bool:
    """Whether a file belongs to the game's own folder (shipped with it: playing must not change it)."""
    return Path(path).resolve().is_relative_to(ROOT)


def campaign_copy_of(roster_path: str | Path) -> Path:
    """The campaign copy of a roster: ``<data dir>/campaigns/<the roster's file name>``."""
    return data_dir() / CAMPAIGNS / Path(roster_path).name


def is_campaign_copy(path: str | Path) -> bool:
    """Whether a file is a campaign copy (``campaign_copy_of``) of one of the game's rosters."""
    return Path(path).resolve().parent == (data_dir() / CAMPAIGNS).resolve()


def campaign_roster(roster_path: str | Path) -> Path | None:
    """The campaign copy of a shipped roster if one has been written, else None (a roster outside the game's
    folder is the GM's own and is used as it is)."""
    if not in_game_folder(roster_path):
        return None
    copy = campaign_copy_of(roster_path)
    return copy if copy.is_file() else None
