"""The roster editor: characters, sides and figures of a roster TOML, edited on screen.

The editor works on the roster's plain data (as ``tomllib`` read it), changing only the entries it edits,
so fields it does not know (added by other parts of the game) are written back unchanged. Every change is
checked at once by the roster reader (``game.roster.parse_roster`` → ``Character.from_dict``); an error is
shown next to its field and in the status line, and a roster with an error is never saved.

The screen (``editor.RosterEditor``) is a coordinator over parts that each own their layout, input and
drawing, and talk only through the screen (``part.EditorHost``):

- ``characters`` — the character list: add, copy, delete, rename;
- ``attributes`` — name, attributes and skills as ladder names (FTC 2, Fudge 1.3), Scale (Fudge 4.58),
  gifts and faults;
- ``creature`` — footprint (FTC 5), creature kind (Fudge 4.23), head (FTC 6.6), wound track (FTC 7.3,
  Fudge 4.57, 4.63; a track the file gives as a table is kept), Tough Hide (FTC 7.2) and carried wounds;
- ``gear`` — weapons, scale-piercing, armour, shield and other gear from the FTC 9 catalogue, and the
  carried mass, encumbrance and movement allowance that follow each change (FTC 5, 5.1.1 table 2);
- ``spells`` — spells from the spell catalogue (FTC 8, ``game.engine.magic``);
- ``sides`` — the roster's sides and the figures it sets up.

``catalogue`` holds what they show from the data files. "Save" writes the file that was opened; "Save as"
writes ``<name>.roster.toml`` in the player's roster folder (``rosters_dir()``, i.e.
``FUDGE_TACTICS_HOME/rosters``).
"""

from __future__ import annotations

from game.ui.pickers import PickDialog, TextPrompt
from game.ui.roster_editor.catalogue import (
    known_skills,
    rosters_dir,
    slug,
    spell_reach,
    spell_summary,
    track_columns,
    track_names,
    track_summary,
)
from game.ui.roster_editor.editor import (
    RosterEditor,
    choose_roster_to_edit,
    edit_roster,
    open_editor,
    roster_for_map,
)
from game.ui.widgets import TextField

__all__ = [
    "PickDialog",
    "RosterEditor",
    "TextField",
    "TextPrompt",
    "choose_roster_to_edit",
    "edit_roster",
    "known_skills",
    "open_editor",
    "roster_for_map",
    "rosters_dir",
    "slug",
    "spell_reach",
    "spell_summary",
    "track_columns",
    "track_names",
    "track_summary",
]
