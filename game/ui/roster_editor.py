"""The roster editor (issue 8 item 2): characters, sides and figures of a roster TOML, edited on screen.

The editor works on the roster's plain data (as ``tomllib`` read it), changing only the entries it edits,
so fields it does not know (added by other parts of the game) are written back unchanged. Every change is
checked at once by the roster reader (``game.roster.parse_roster`` → ``Character.from_dict``); an error is
shown next to its field and in the status line, and a roster with an error is never saved.

Attributes and skills are shown as ladder names (FTC 2, Fudge 1.3), gear comes from the FTC 9 catalogue with
its mass, and the carried mass, encumbrance and movement allowance follow each change (FTC 5, 5.1.1 table 2).
Wizards and creatures: spells from the spell catalogue (FTC 8, ``game.engine.magic``), the footprint (FTC 5),
the creature kind (Fudge 4.23), head (FTC 6.6), wound track (FTC 7.3, Fudge 4.57, 4.63; a track the file gives
as a table is kept), Tough Hide (FTC 7.2), Scale (Fudge 4.58) and scale-piercing weapons; the choices offered
come from the data files, and their validity from the same roster reader.
"Save" writes the file that was opened; "Save as" writes ``<name>.roster.toml`` in the player's roster folder
(``rosters_dir()``, i.e. ``FUDGE_TACTICS_HOME/rosters``).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pygame

from game.engine import creatures, equipment, magic
from game.engine.characters import (
    ATTRIBUTES,
    HIGH_PAIN_THRESHOLD,
    LOW_PAIN_THRESHOLD,
    MARTIAL_ARTS,
    PIERCING_MODES,
    TOUGH_HIDE,
    TOUGH_HIDE_DEFAULT,
    Character,
)
from game.engine.datafiles import read_table
from game.engine.ladder import FAIR, LEGENDARY, TERRIBLE, level_name, parse_level
from game.engine.movement import encumbrance_penalty, load_thresholds_kg, movement_allowance
from game.engine.wounds import Wounds, WoundTrack, named_track
from game.roster import DEFAULT_COLOURS, RosterError, parse_roster, read_roster_data, save_roster
from game.ui import theme
from game.ui.dialogs import MessageDialog, _dim
from game.ui.screen import Home, Pop, Push, Quit, Replace, Screen, Transition, UiContext
from game.ui.widgets import Button, ScrollList, TextCache, Tooltip, Widget, draw_panel

LOWEST, HIGHEST = TERRIBLE, LEGENDARY
"""The +/− buttons move a level along the ladder from Terrible to Legendary (FTC 2); other values stay
as written until changed."""

CONTROLLERS = ("human", "tactical", "random")
CONTROLLER_NAMES = {"human": "Human", "tactical": "Computer", "random": "Computer (random)"}
GEAR_STEP_KG = 0.5
SCALE_FIELDS = ("strength_scale", "mass_scale", "speed_scale")

Action = Callable[[], object]

_SECTION_OF = {
    "name": "name",
    "skills": "skills",
    "scale": "scale",
    "strength_scale": "scale",
    "mass_scale": "scale",
    "speed_scale": "scale",
    "gifts": "traits",
    "faults": "traits",
    "tough_hide": "creature",
    "weapons": "weapons",
    "two_handed": "weapons",
    "armour": "armour",
    "shield": "shield",
    "gear_kg": "gear",
    "wound_track": "creature",
    "footprint": "creature",
    "kind": "creature",
    "has_head": "creature",
    "spells": "spells",
    "scale_piercing": "piercing",
    "wounds": "creature",
    **{a: "attributes" for a in ATTRIBUTES},
}
_FIELD = re.compile(r"field '([^']+)': (.*)$", re.S)
LOAD_PANEL_HEIGHT = 112
CREATURE_PANEL_HEIGHT = 20 + 30 + 30 + 34
"""Height of the creature block (header, two rows of fields, the track's boxes) at UI scale 1."""
_SCALE_RULES = {
    "all": "Fudge 4.58: a creature's Scale counts in combat; FTC 5, 5.1.1, 6.4, 6.5, 7.1, 7.2 use it.",
    "Strength": "FTC 5.1.1: the load carried ×1.5 a step; FTC 7.1: + to damage with muscle-powered weapons.",
    "Mass": "FTC 6.4: melee difficulty +1 a step the attacker is larger; 6.5: range ×1.3 a step; "
    "7.2: + to the defensive factor.",
    "Speed": "FTC 5: movement ×1.2 a step (rounded).",
}
CUSTOM_TRACK = "custom"
"""The wound-track cycle's name for a track the roster gives as a table (kept as it is, FTC 7.3)."""
_TRACK_RULES = {
    "default": "FTC 7.3, Fudge 4.57: the standard track",
    "mook": "Fudge 4.57: mooks, Undamaged, Hurt, Out of the Battle",
    "major_npc": "Fudge 4.58's dragon: a major NPC's three Scratch boxes",
    "epic": "Fudge 4.63: the epic track, Incapacitated in one blow",
    "cinematic": "Fudge 4.57: a cinematic sheet, one more box for Scratch and Hurt",
    "doubled_degree": "Fudge 4.55: for a doubled relative degree",
    CUSTOM_TRACK: "FTC 7.3: the creature's own track, as the roster file gives it",
}
"""Where each wound track of the data files comes from, for its tooltip (the numbers stay in the data)."""


def rosters_dir() -> Path:
    """Where "Save as" puts rosters: ``game.session.data_dir() / "rosters"`` (``FUDGE_TACTICS_HOME``)."""
    from game.session import data_dir

    return data_dir() / "rosters"


def slug(name: str, fallback: str = "roster") -> str:
    """A file or key name made of a name: lower case letters, digits and underscores."""
    out = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    return out or fallback


def known_skills() -> list[str]:
    """The combat skills of FTC 6.3 / 9: each weapon's skill, Shield and Martial Arts."""
    return sorted({w.skill for w in equipment.weapons()} | {"Shield", MARTIAL_ARTS})


def _level(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return parse_level(value)
        except ValueError:
            return None
    return None


def _kg(x: float) -> str:
    return f"{x:g} kg"


def _short(value: object, limit: int = 14) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def track_names() -> list[str]:
    """The wound tracks a roster may name (FTC 7.3; data/damage.toml and data/creatures.toml), default first."""
    names = list(dict.fromkeys(creatures.creature_track_names()))
    return ["default", *(n for n in names if n != "default")]


def track_columns(track: WoundTrack, wounds: Wounds | None = None) -> list[tuple[str, str]]:
    """A wound track's columns as a sheet shows them (FTC 7.3): the level, and the damage that inflicts it
    with one □ per box ("Scratch", "1–2 □□□"); boxes the carried ``wounds`` fill are ■ (Fudge 4.8)."""
    columns = []
    for i, step in enumerate(track.steps):
        nxt = track.steps[i + 1].min_damage - 1 if i + 1 < len(track.steps) else None
        band = (
            f"{step.min_damage}+"
            if nxt is None
            else (f"{step.min_damage}" if nxt == step.min_damage else f"{step.min_damage}–{nxt}")
        )
        filled = min(step.boxes, wounds.filled(step.level)) if wounds is not None else 0
        columns.append((step.name, f"{band} " + "■" * filled + "□" * (step.boxes - filled)))
    return columns


def track_summary(track: WoundTrack) -> str:
    """A wound track on one line (FTC 7.3): "Scratch 1–2 □□□ · Hurt 3–4 □ · …"."""
    return " · ".join(f"{name} {boxes}" for name, boxes in track_columns(track))


def spell_reach(item: magic.Spell) -> str:
    """A spell's range as the editor shows it (FTC 8.3): self, touch, close (2 hexes), long (in sight)."""
    hexes = magic.spell_range_hexes(item.range)
    if item.range in ("self", "touch"):
        return item.range
    return f"{item.range} ({hexes} hexes)" if hexes is not None else f"{item.range} (in sight)"


def spell_summary(item: magic.Spell) -> str:
    """A spell's skill, casting time and range (FTC 8.1, 8.3), as the spell list and the picker show it."""
    return f"{item.skill} · {item.casting_time} · {spell_reach(item)}"


def kind_note(kind: str) -> str:
    """The one-line note of a creature kind in data/creatures.toml (Fudge 4.23), or ''."""
    row = read_table("creatures.toml").get("kinds", {}).get(kind, {})
    return str(row.get("note", "")) if isinstance(row, Mapping) else ""


def _armour_entry(entry: object) -> tuple[str, float | None]:
    """(label, mass) of an armour entry, plain or ``{ name, coverage }`` (FTC 9.2 partial suits)."""
    name = str(entry.get("name", "")) if isinstance(entry, dict) else str(entry)
    coverage = str(entry.get("coverage", "full")) if isinstance(entry, dict) else "full"
    try:
        item = equipment.armour(name)
        if coverage != "full":
            item = item.with_coverage(coverage)
        mass: float | None = item.mass_kg
    except (KeyError, ValueError):
        mass = None
    label = name if coverage == "full" else f"{name} ({coverage.replace('_', ' ')})"
    return label, mass


# ------------------------------------------------------------------------------------------- widgets


class TextField(Widget):
    """One line of typed text (TEXTINPUT events), Backspace deletes, Ctrl+Backspace clears."""

    def __init__(self, value: str = "", *, max_length: int = 60) -> None:
        super().__init__()
        self.value = value
        self.max_length = max_length

    def handle(self, event: pygame.event.Event) -> bool:
        """Take typed text and Backspace; True when the text changed."""
        if event.type == pygame.TEXTINPUT:
            self.value = (self.value + event.text)[: self.max_length]
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE:
            self.value = "" if event.mod & pygame.KMOD_CTRL else self.value[:-1]
            return True
        return False

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """A light box with the text and a caret."""
        pygame.draw.rect(surface, theme.PANEL_LIGHT, self.rect, border_radius=4)
        pygame.draw.rect(surface, theme.ACCENT, self.rect, 2, border_radius=4)
        shown = self.value
        while shown and text.width(shown, 16) > self.rect.width - 20:
            shown = shown[1:]
        r = text.blit(surface, shown, (self.rect.x + 8, self.rect.centery), 16, anchor="midleft")
        pygame.draw.line(surface, theme.ACCENT, (r.right + 2, self.rect.y + 6), (r.right + 2, self.rect.bottom - 6))


class TextPrompt(Screen):
    """A modal question with a typed answer: Enter accepts, Esc cancels; ``on_done(text)`` gets it."""

    opaque = False

    def __init__(
        self, ui: UiContext, title: str, prompt: str, value: str, on_done: Callable[[str], Transition | None]
    ) -> None:
        super().__init__(ui)
        self.title, self.prompt, self.on_done = title, prompt, on_done
        self.field = TextField(value)
        self.ok = Button("OK", lambda: True, size=15)
        self.cancel = Button("Cancel", lambda: True, size=15)
        self.rect = pygame.Rect(0, 0, 0, 0)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the box."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - 40, s(480)), s(190))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.field.rect = pygame.Rect(self.rect.x + s(20), self.rect.y + s(76), self.rect.width - s(40), s(36))
        self.ok.rect = pygame.Rect(self.rect.right - s(120), self.rect.bottom - s(52), s(100), s(34))
        self.cancel.rect = pygame.Rect(self.rect.right - s(230), self.rect.bottom - s(52), s(100), s(34))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Typing, Enter / OK, Esc / Cancel."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return Pop(then=self.on_done(self.field.value))
            if event.key == pygame.K_ESCAPE:
                return Pop()
        self.field.handle(event)
        for b in (self.ok, self.cancel):
            b.handle(event)
            if b.result is not None:
                return Pop(then=self.on_done(self.field.value)) if b is self.ok else Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The box over the dimmed editor."""
        _dim(surface)
        s, text = self.ui.s, self.ui.text
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        text.blit(surface, self.title, (self.rect.x + s(20), self.rect.y + s(14)), 20, theme.ACCENT, bold=True)
        text.blit(surface, self.prompt, (self.rect.x + s(20), self.rect.y + s(48)), 14, theme.TEXT_MUTED)
        self.field.draw(surface, text)
        self.ok.draw(surface, text)
        self.cancel.draw(surface, text)


class PickDialog(Screen):
    """Choose from a list, narrowed by typing; with ``free_text`` the typed name itself is offered first.

    ``items`` are (label, value) pairs; ``on_pick(value)`` gets the choice (Enter, double-click or Choose).
    ``details`` maps a value to one line about it (a spell's description), shown under the list for the
    selected row and as a tooltip over a row.
    """

    opaque = False

    def __init__(
        self,
        ui: UiContext,
        title: str,
        items: Sequence[tuple[str, str]],
        on_pick: Callable[[str], Transition | None],
        *,
        free_text: bool = False,
        hint: str = "",
        details: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(ui)
        self.title, self.items, self.on_pick, self.free_text = title, list(items), on_pick, free_text
        self.hint = hint or ("Type to narrow the list" + (" or to name your own" if free_text else ""))
        self.details: dict[str, str] = dict(details or {})
        self.tooltip: Tooltip = Tooltip()
        self.field = TextField("")
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), size=15)
        self.choose = Button("Choose", lambda: True, size=15)
        self.cancel = Button("Cancel", lambda: True, size=15)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.shown: list[str] = []
        self._last_click: tuple[int | None, int] = (None, -10_000)
        self._filter()

    def _filter(self) -> None:
        typed = self.field.value.strip()
        rows = [(label, value) for label, value in self.items if typed.lower() in label.lower()]
        if self.free_text and typed and all(value.lower() != typed.lower() for _, value in rows):
            rows.append((f"“{typed}” (your own)", typed))
        self.shown = [value for _, value in rows]
        self.list.set_items([label for label, _ in rows])
        self.list.scroll = 0
        self.list.selected = 0 if rows else None

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the box."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - 40, s(520)), min(size[1] - 40, s(480)))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.field.rect = pygame.Rect(self.rect.x + s(16), self.rect.y + s(70), self.rect.width - s(32), s(34))
        detail_h = 3 * self.ui.text.line_height(13) + s(8) if self.details else 0
        self.list.rect = pygame.Rect(
            self.rect.x + s(16),
            self.field.rect.bottom + s(8),
            self.rect.width - s(32),
            self.rect.bottom - s(66) - self.field.rect.bottom - s(8) - detail_h,
        )
        self.choose.rect = pygame.Rect(self.rect.right - s(126), self.rect.bottom - s(50), s(110), s(34))
        self.cancel.rect = pygame.Rect(self.rect.right - s(246), self.rect.bottom - s(50), s(110), s(34))

    def _pick(self) -> Transition | None:
        i = self.list.selected
        if i is None or not 0 <= i < len(self.shown):
            return None
        return Pop(then=self.on_pick(self.shown[i]))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Typing narrows, arrows move, Enter or a double click chooses, Esc cancels."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self._pick()
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_UP, pygame.K_DOWN) and self.shown:
                current = self.list.selected if self.list.selected is not None else 0
                self.list.select(current + (1 if event.key == pygame.K_DOWN else -1))
                return None
        if self.field.handle(event):
            self._filter()
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self.list.index_at(event.pos)
            now = pygame.time.get_ticks()
            double = i is not None and i == self._last_click[0] and now - self._last_click[1] < 400
            self._last_click = (i, now)
            if double:
                return self._pick()
        self.list.handle(event)
        for b in (self.choose, self.cancel):
            b.handle(event)
            if b.result is not None:
                return self._pick() if b is self.choose else Pop()
        if event.type == pygame.MOUSEMOTION and self.details:
            i = self.list.index_at(event.pos)
            self.tooltip.hover(self.detail(i) if i is not None else "", event.pos)
        return None

    def detail(self, index: int | None) -> str:
        """The line about the row at ``index`` of the narrowed list ('' for none)."""
        if index is None or not 0 <= index < len(self.shown):
            return ""
        return self.details.get(self.shown[index], "")

    def draw(self, surface: pygame.Surface) -> None:
        """The box over the dimmed editor."""
        _dim(surface)
        s, text = self.ui.s, self.ui.text
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        text.blit(surface, self.title, (self.rect.x + s(16), self.rect.y + s(14)), 20, theme.ACCENT, bold=True)
        text.blit(surface, self.hint, (self.rect.x + s(16), self.rect.y + s(44)), 13, theme.TEXT_MUTED)
        self.field.draw(surface, text)
        self.list.draw(surface, text)
        if self.details:
            y = self.list.rect.bottom + s(6)
            for line in text.wrap(self.detail(self.list.selected), 13, self.list.rect.width)[:3]:
                text.blit(surface, line, (self.list.rect.x, y), 13, theme.TEXT_MUTED)
                y += text.line_height(13)
        self.choose.enabled = self.list.selected is not None
        self.choose.draw(surface, text)
        self.cancel.draw(surface, text)
        self.tooltip.draw(surface, text)


# -------------------------------------------------------------------------------------------- editor


class RosterEditor(Screen):
    """Edit a roster's characters, sides and figures; save to its file or to a new one (module doc).

    ``data`` is the roster's plain TOML data, edited in place of a deep copy; ``on_saved(path)`` is told
    where the roster went after each successful save (the New battle screen then uses that file).
    """

    def __init__(
        self, ui: UiContext, path: Path | None, data: dict[str, Any], on_saved: Callable[[Path], None] | None = None
    ) -> None:
        super().__init__(ui)
        self.path = path
        self.data: dict[str, Any] = copy.deepcopy(data)
        if not isinstance(self.data.get("characters"), dict):
            self.data["characters"] = {}
        if not isinstance(self.data.get("sides"), dict):
            self.data["sides"] = {}
        self.on_saved = on_saved
        self.dirty = False
        self.status = ""
        self.status_error = False
        self.selected: str | None = next(iter(self.characters), None)
        self.side_index = 0
        self.figure_index = 0
        self.tooltip: Tooltip = Tooltip()
        self.buttons: dict[str, Button] = {}
        self.texts: list[tuple[str, tuple[int, int], int, tuple[int, int, int], bool, str]] = []
        self.sections: dict[str, tuple[int, int, int]] = {}
        self.char_list = ScrollList(pygame.Rect(0, 0, 10, 10), size=15, on_select=self._select_row)
        self.side_list = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, on_select=self._select_side)
        self.figure_list = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, on_select=self._select_figure)
        self.load_rect = pygame.Rect(0, 0, 0, 0)
        self.load_lines: list[tuple[str, tuple[int, int, int]]] = []
        self.hover_tips: list[tuple[pygame.Rect, str]] = []
        self.footer_lines = 1
        self.scroll: dict[str, int] = {}
        """First row shown of each list the window is too short for ("skills", "spells")."""
        self.scroll_areas: dict[str, pygame.Rect] = {}
        self.mouse = (0, 0)
        self.custom_tracks: dict[str, Any] = {}
        """Each character's own wound-track table (FTC 7.3), kept while the cycle shows a named track."""
        self.encumbrance_text = ""
        self.allowance: int | None = None

    # --- the data ---------------------------------------------------------------------------------
    @property
    def characters(self) -> dict[str, Any]:
        """The roster's ``[characters]`` table (key -> character table)."""
        chars = self.data["characters"]
        assert isinstance(chars, dict)
        return chars

    @property
    def sides(self) -> dict[str, Any]:
        """The roster's ``[sides]`` table."""
        sides = self.data["sides"]
        assert isinstance(sides, dict)
        return sides

    @property
    def figures(self) -> list[Any]:
        """The roster's ``[[figures]]`` entries (made on first use)."""
        figs = self.data.get("figures")
        if not isinstance(figs, list):
            figs = []
        return figs

    @property
    def current(self) -> dict[str, Any] | None:
        """The selected character's table."""
        if self.selected is None:
            return None
        table = self.characters.get(self.selected)
        return table if isinstance(table, dict) else None

    def check(self, key: str) -> tuple[Character | None, str]:
        """Read one character as a battle would (``parse_roster`` → ``Character.from_dict``): it or the error."""
        table = self.characters.get(key)
        try:
            roster = parse_roster({"characters": {key: table}}, self.source_name)
        except RosterError as exc:
            return None, str(exc)
        return roster.characters[key], ""

    @property
    def source_name(self) -> str:
        """The file name errors are reported against."""
        return self.path.name if self.path is not None else "new roster"

    def problem(self) -> str:
        """The first reason the whole roster would be refused, or ''."""
        try:
            parse_roster(self.data, self.source_name)
        except RosterError as exc:
            return str(exc)
        return ""

    def changed(self, status: str = "") -> bool:
        """Mark the roster edited and lay the screen out again."""
        self.dirty = True
        self.status, self.status_error = status, False
        self.layout()
        return True

    def _set(self, name: str, value: Any, default: Any = None) -> bool:
        table = self.current
        if table is None:
            return False
        if value is None or value == default:
            table.pop(name, None)
        else:
            table[name] = value
        return self.changed()

    # --- characters -------------------------------------------------------------------------------
    def _select_row(self, index: int) -> None:
        keys = list(self.characters)
        if 0 <= index < len(keys) and keys[index] != self.selected:
            self.select(keys[index])

    def select(self, key: str) -> None:
        """Show this character (its lists from the top)."""
        if key != self.selected:
            self.scroll = {}
        self.selected = key
        self.layout()

    def _new_key(self, name: str) -> str:
        base = slug(name, "character")
        key, n = base, 2
        while key in self.characters:
            key, n = f"{base}_{n}", n + 1
        return key

    def add_character(self) -> Transition:
        """Ask a name; the new character is all Fair with no gear."""

        def done(name: str) -> Transition | None:
            name = name.strip() or "New character"
            key = self._new_key(name)
            self.characters[key] = {"name": name}
            self.selected = key
            self.changed(f"Added {name} (key {key}).")
            return None

        return Push(TextPrompt(self.ui, "New character", "Name of the character:", "", done))

    def duplicate_character(self) -> bool:
        """A copy of the selected character under a new key."""
        table = self.current
        if table is None or self.selected is None:
            return False
        name = f"{table.get('name', self.selected)} (copy)"
        key = self._new_key(f"{self.selected}_copy")
        clone = copy.deepcopy(table)
        clone["name"] = name
        keys = list(self.characters)
        at = keys.index(self.selected) + 1
        items = list(self.characters.items())
        items.insert(at, (key, clone))
        self.characters.clear()
        self.characters.update(items)
        self.selected = key
        return self.changed(f"Copied as {name} (key {key}).")

    def delete_character(self) -> Transition | None:
        """Remove the selected character after a question (refused while [[figures]] use it)."""
        key = self.selected
        if key is None:
            return None
        users = [i + 1 for i, f in enumerate(self.figures) if isinstance(f, dict) and f.get("character") == key]
        if users:
            return Push(
                MessageDialog(
                    self.ui,
                    "Cannot delete",
                    f"Figures entr{'y' if len(users) == 1 else 'ies'} "
                    f"{', '.join(map(str, users))} use {key!r}; remove them first.",
                    error=True,
                )
            )

        def really() -> Transition | None:
            keys = list(self.characters)
            i = keys.index(key)
            del self.characters[key]
            self.custom_tracks.pop(key, None)
            rest = list(self.characters)
            self.selected = rest[min(i, len(rest) - 1)] if rest else None
            self.changed(f"Deleted {key}. Maps whose figures name {key!r} need another character.")
            return None

        name = self.characters[key].get("name", key) if isinstance(self.characters[key], dict) else key
        return Push(
            MessageDialog(
                self.ui,
                "Delete character",
                f"Delete {name} (key {key}) from the roster?",
                (("Cancel", None), ("Delete", really)),
            )
        )

    def rename_character(self) -> Transition | None:
        """Ask a new name (the key, which maps refer to, stays)."""
        table = self.current
        if table is None:
            return None
        return Push(
            TextPrompt(
                self.ui,
                "Rename",
                f"Name (the key {self.selected!r} that maps use stays):",
                str(table.get("name", "")),
                lambda v: self._rename_to("name", v),
            )
        )

    def _rename_to(self, name: str, value: Any) -> None:
        table = self.current
        if table is not None:
            table[name] = value
            self.changed()

    # --- attributes, skills, traits, scale ---------------------------------------------------------
    def step_level(self, attr: str, step: int) -> bool:
        """One step up or down the ladder (Fair is written by leaving the attribute out, as rosters do)."""
        table = self.current
        if table is None:
            return False
        now = _level(table.get(attr, FAIR))
        new = FAIR + step if now is None else max(LOWEST, min(HIGHEST, now + step))
        if now is not None and not LOWEST <= now <= HIGHEST:
            new = now + step
        return self._set(attr, level_name(new), level_name(FAIR))

    def _skills(self) -> dict[str, Any]:
        table = self.current
        assert table is not None
        skills = table.get("skills")
        if not isinstance(skills, dict):
            skills = {}
            table["skills"] = skills
        return skills

    def step_skill(self, name: str, step: int) -> bool:
        """A skill one step up or down the ladder."""
        skills = self._skills()
        now = _level(skills.get(name, FAIR))
        skills[name] = level_name(FAIR if now is None else max(LOWEST, min(HIGHEST, now + step)))
        return self.changed()

    def remove_skill(self, name: str) -> bool:
        """Drop a skill (untrained again: Poor by default)."""
        skills = self._skills()
        skills.pop(name, None)
        if not skills and self.current is not None:
            self.current.pop("skills", None)
        return self.changed()

    def add_skill(self) -> Transition:
        """Pick a combat skill or type any skill's name; it starts at Fair."""
        have = {k.lower() for k in self._skills()} if self.current is not None else set()

        def picked(name: str) -> Transition | None:
            name = name.strip()
            skills = self._skills()
            if name.lower() not in {k.lower() for k in skills}:
                skills[name] = level_name(FAIR)
            self.changed(f"Skill {name} added at Fair.")
            return None

        items = [(s, s) for s in known_skills() if s.lower() not in have]
        return Push(PickDialog(self.ui, "Add a skill", items, picked, free_text=True))

    def _names(self, field: str) -> list[Any]:
        table = self.current
        assert table is not None
        value = table.get(field, [])
        if isinstance(value, str):
            value = [value]
        return list(value) if isinstance(value, list) else []

    def _set_names(self, field: str, values: list[Any]) -> bool:
        return self._set(field, values if values else None)

    def add_trait(self, field: str) -> Transition:
        """Pick a gift or fault the rules give an effect, or type any other (kept as free text)."""
        known = [HIGH_PAIN_THRESHOLD, TOUGH_HIDE] if field == "gifts" else [LOW_PAIN_THRESHOLD]

        def picked(name: str) -> Transition | None:
            values = self._names(field)
            if name.strip() and name.strip() not in values:
                self._set_names(field, [*values, name.strip()])
            return None

        items = [(k, k) for k in known if k not in self._names(field)]
        return Push(
            PickDialog(self.ui, "Add a gift" if field == "gifts" else "Add a fault", items, picked, free_text=True)
        )

    def remove_at(self, field: str, index: int) -> bool:
        """Remove one entry of a list field (weapons, armour, gifts, faults)."""
        values = self._names(field)
        if 0 <= index < len(values):
            del values[index]
        return self._set_names(field, values)

    def scales(self) -> tuple[int, int, int]:
        """Strength, Mass and Speed Scale as the character's table gives them (Fudge 4.6)."""
        table = self.current or {}
        base = table.get("scale", 0)
        base = base if isinstance(base, int) and not isinstance(base, bool) else 0
        out = []
        for f in SCALE_FIELDS:
            v = table.get(f, base)
            out.append(v if isinstance(v, int) and not isinstance(v, bool) else base)
        return out[0], out[1], out[2]

    def step_scale(self, index: int, step: int) -> bool:
        """One Scale value up or down; three equal values are written as one ``scale``."""
        table = self.current
        if table is None:
            return False
        values = list(self.scales())
        values[index] += step
        return self._write_scales(values)

    def _write_scales(self, values: list[int]) -> bool:
        table = self.current
        if table is None:
            return False
        for f in ("scale", *SCALE_FIELDS):
            table.pop(f, None)
        if len(set(values)) == 1:
            if values[0]:
                table["scale"] = values[0]
        else:
            table.update(zip(SCALE_FIELDS, values, strict=True))
        return self.changed()

    # --- gear ---------------------------------------------------------------------------------------
    def add_weapon(self) -> Transition:
        """Pick a weapon of FTC 9.1 / 9.3 (its skill, damage factor and mass shown)."""

        def picked(name: str) -> Transition | None:
            self._set_names("weapons", [*self._names("weapons"), name])
            return None

        items = [
            (
                f"{w.name} — {w.skill}, {w.damage:+d}, {_kg(w.mass_kg)}"
                + (", two-handed" if w.two_handed else "")
                + (", ranged" if w.ranged else ""),
                w.name,
            )
            for w in equipment.weapons()
        ]
        return Push(PickDialog(self.ui, "Add a weapon (FTC 9.1, 9.3)", items, picked))

    def ready_weapon(self, index: int) -> bool:
        """Put a weapon first: the one in hand (FTC 9.1)."""
        values = self._names("weapons")
        if 0 < index < len(values):
            values.insert(0, values.pop(index))
        return self._set_names("weapons", values)

    def add_armour(self) -> Transition:
        """Pick body armour or a helmet of FTC 9.2."""

        def picked(name: str) -> Transition | None:
            self._set_names("armour", [*self._names("armour"), name])
            return None

        items = [(f"{a.name} — {a.location}, {_kg(a.mass_kg)}", a.name) for a in equipment.armours() if not a.is_shield]
        return Push(PickDialog(self.ui, "Add armour (FTC 9.2)", items, picked))

    def choose_shield(self) -> Transition:
        """Pick a shield of FTC 9.2, or none."""

        def picked(name: str) -> Transition | None:
            self._set("shield", name or None)
            return None

        items = [("No shield", ""), *((f"{a.name} — {_kg(a.mass_kg)}", a.name) for a in equipment.shields())]
        return Push(PickDialog(self.ui, "Shield (FTC 9.2)", items, picked))

    def step_gear(self, step: int) -> bool:
        """Other gear carried, in half kilograms (counts for encumbrance, FTC 5.1.1)."""
        table = self.current
        if table is None:
            return False
        now = table.get("gear_kg", 0.0)
        now = float(now) if isinstance(now, int | float) and not isinstance(now, bool) else 0.0
        return self._set("gear_kg", max(0.0, now + step * GEAR_STEP_KG), 0.0)

    def toggle_two_handed(self) -> bool:
        """Hold the either-way weapon in both hands (FTC 9.1: Bastard Sword +3; no shield then)."""
        table = self.current
        return self._set("two_handed", not (table or {}).get("two_handed", False), False)

    def choose_track(self) -> Transition:
        """Pick a wound track of data/damage.toml or data/creatures.toml (FTC 7.3, Fudge 4.57, 4.63), or the
        character's own table."""

        def picked(name: str) -> Transition | None:
            self.set_track(name)
            return None

        items, details = [], {}
        for name in self.track_options():
            track = self.custom_track() if name == CUSTOM_TRACK else named_track(name)
            items.append((f"{name.replace('_', ' ')}: " + (track_summary(track) if track else "not a track"), name))
            details[name] = _TRACK_RULES.get(name, "FTC 7.3")
        return Push(PickDialog(self.ui, "Wound track (FTC 7.3)", items, picked, details=details))

    # --- magic and creatures ------------------------------------------------------------------------
    def spell_tip(self, item: magic.Spell) -> str:
        """A spell's tooltip: its description, its casting roll and the character's skill for it (FTC 8)."""
        c = self.check(self.selected)[0] if self.selected is not None else None
        text = (item.notes + " " if item.notes else "") + (
            f"Cast with {item.skill} against {level_name(item.difficulty)} (FTC 8.1); {item.casting_time}, "
            f"range {spell_reach(item)}, lasts {item.duration}."
        )
        if c is not None:
            if c.has_skill(item.skill):
                text += f" {c.name} has {item.skill} {level_name(c.skill_level(item.skill))}."
            else:
                text += (
                    f" {c.name} has no {item.skill} skill and casts at "
                    f"{level_name(c.skill_level(item.skill))}: add the skill."
                )
        return text

    def add_spell(self) -> Transition | None:
        """Pick a spell of the catalogue (FTC 8, data/spells.toml), shown with its skill, casting time and range."""
        if self.current is None:
            return None
        have = set()
        for name in self._names("spells"):
            try:
                have.add(magic.spell(str(name)).name)
            except magic.MagicError:
                continue

        def picked(name: str) -> Transition | None:
            self._set_names("spells", [*self._names("spells"), name])
            self.status = f"Spell {name} added."
            return None

        items, details = [], {}
        for item in magic.spells():
            if item.name not in have:
                items.append((f"{item.name} — {spell_summary(item)}", item.name))
                details[item.name] = self.spell_tip(item)
        if not items:
            self.status, self.status_error = "The character knows every spell of the catalogue.", False
            return None
        return Push(
            PickDialog(
                self.ui,
                "Add a spell (FTC 8)",
                items,
                picked,
                details=details,
                hint="Type to narrow the list; the selected spell is described below it",
            )
        )

    def remove_spell(self, index: int) -> bool:
        """Forget one spell (FTC 8)."""
        return self.remove_at("spells", index)

    def _cycle(self, name: str, options: Sequence[object], default: object, step: int) -> bool:
        table = self.current
        if table is None or not options:
            return False
        now = table.get(name, default)
        if isinstance(now, str):
            now = now.strip().lower()
        known = [i for i, o in enumerate(options) if o == now and type(o) is type(now)]
        i = (known[0] + step) % len(options) if known else 0
        return self._set(name, options[i], default)

    def cycle_footprint(self, step: int = 1) -> bool:
        """The hexes the figure covers, round 1, 3 and 7 (FTC 5: "some creatures will be larger")."""
        return self._cycle("footprint", creatures.footprint_sizes(), 1, step)

    def cycle_kind(self, step: int = 1) -> bool:
        """The creature kind, round data/creatures.toml's kinds (Fudge 4.23: carnivore, prey)."""
        return self._cycle("kind", creatures.kinds(), "person", step)

    def toggle_head(self) -> bool:
        """Whether the creature has a head to strike at +2 damage (FTC 6.6)."""
        table = self.current
        return self._set("has_head", (table or {}).get("has_head", True) is not True, True)

    def custom_track(self) -> WoundTrack | None:
        """The character's own wound-track table, as the battle reads it (FTC 7.3); None if it has none or it
        is wrong."""
        table = self.current
        raw = (table or {}).get("wound_track")
        if not isinstance(raw, dict):
            raw = self.custom_tracks.get(self.selected or "")
        try:
            return creatures.creature_track(raw) if isinstance(raw, dict) else None
        except creatures.CreatureError:
            return None

    def track_options(self) -> list[str]:
        """The wound tracks the cycle goes round: the named ones, then the character's own table if any."""
        table = self.current or {}
        own = isinstance(table.get("wound_track"), dict) or (self.selected or "") in self.custom_tracks
        return [*track_names(), *((CUSTOM_TRACK,) if own else ())]

    def set_track(self, name: str) -> bool:
        """Give the character a named track, or back its own table (kept while another is chosen; FTC 7.3)."""
        table, key = self.current, self.selected
        if table is None or key is None:
            return False
        now = table.get("wound_track")
        if isinstance(now, dict):
            self.custom_tracks[key] = copy.deepcopy(now)
        if name == CUSTOM_TRACK:
            if key not in self.custom_tracks:
                return False
            return self._set("wound_track", copy.deepcopy(self.custom_tracks[key]))
        return self._set("wound_track", name, "default")

    def cycle_track(self, step: int = 1) -> bool:
        """The next (or previous) wound track: default, mook, major NPC, epic, ... (FTC 7.3, Fudge 4.57, 4.63)."""
        table = self.current
        if table is None:
            return False
        now = table.get("wound_track", "default")
        options = self.track_options()
        at = CUSTOM_TRACK if isinstance(now, dict) else now
        i = (options.index(at) + step) % len(options) if at in options else 0
        return self.set_track(options[i])

    def tough_hide(self) -> int | None:
        """Natural armour as the battle reads it (FTC 7.2, Tough Hide); None while the character has an error."""
        c = self.check(self.selected)[0] if self.selected is not None else None
        return c.tough_hide if c is not None else None

    def step_tough_hide(self, step: int) -> bool:
        """Natural armour one up or down (FTC 7.2); at 0 the gift Tough Hide goes too (it alone gives armour)."""
        table = self.current
        if table is None:
            return False
        now = self.tough_hide()
        if now is None:
            raw = table.get("tough_hide", 0)
            now = raw if isinstance(raw, int) and not isinstance(raw, bool) else 0
        new = max(0, now + step)
        if new:
            table["tough_hide"] = new
            return self.changed()
        table.pop("tough_hide", None)
        gifts = [g for g in self._names("gifts") if str(g).strip().lower() != TOUGH_HIDE.lower()]
        return self._set_names("gifts", gifts)

    def step_all_scale(self, step: int) -> bool:
        """Strength, Mass and Speed Scale together one step (Fudge 4.58; a dragon is Scale 3 in all three)."""
        if self.current is None:
            return False
        return self._write_scales([v + step for v in self.scales()])

    def piercing(self) -> dict[str, str]:
        """The character's scale-piercing weapons and how each pierces (Fudge 4.58), as the roster gives them."""
        raw = (self.current or {}).get("scale_piercing", {})
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def choose_piercing(self) -> Transition | None:
        """Make a carried weapon scale-piercing (Fudge 4.58): on a solid blow the target's Mass Scale counts
        half ("halve") or not at all ("ignore"), or back to normal."""
        table = self.current
        if table is None:
            return None
        now = self.piercing()
        names = list(dict.fromkeys([*(str(w) for w in self._names("weapons")), *now]))
        if not names:
            self.status, self.status_error = "Add a weapon first: only a carried weapon can pierce Scale.", True
            return None
        degree = creatures.hit_well_degree()
        what = {
            "": "normal: the target's Mass Scale counts in full",
            "halve": f"halves the target's Mass Scale on a hit by {degree} or more",
            "ignore": f"ignores the target's Mass Scale on a hit by {degree} or more",
        }
        items, details = [], {}
        for name in names:
            mode = next((m for k, m in now.items() if k.lower() == name.lower()), "")
            for m in ("", *PIERCING_MODES):
                value = f"{name}\t{m}"
                items.append((f"{name} — {what.get(m, m)}" + ("  ✓" if m == mode else ""), value))
                details[value] = "Fudge 4.58: scale-piercing weapons such as whale harpoons. " + (
                    ""
                    if name in self._names("weapons")
                    else f"{name} is not carried: choose normal, or add the weapon again."
                )

        def picked(value: str) -> Transition | None:
            name, _, mode = value.partition("\t")
            kept = {k: v for k, v in self.piercing().items() if k.lower() != name.lower()}
            if mode:
                kept[name] = mode
            self._set("scale_piercing", kept or None)
            return None

        return Push(PickDialog(self.ui, "Scale-piercing weapons (Fudge 4.58)", items, picked, details=details))

    # --- sides and figures ---------------------------------------------------------------------------
    def _select_side(self, index: int) -> None:
        self.side_index = index
        self.layout()

    def _select_figure(self, index: int) -> None:
        self.figure_index = index
        self.layout()

    def _side(self) -> tuple[str, dict[str, Any]] | None:
        items = list(self.sides.items())
        if not items:
            return None
        sid, table = items[max(0, min(self.side_index, len(items) - 1))]
        return (sid, table) if isinstance(table, dict) else None

    def rename_side(self) -> Transition | None:
        """Ask a side's name."""
        side = self._side()
        if side is None:
            return None
        sid, table = side

        def done(name: str) -> Transition | None:
            if name.strip():
                table["name"] = name.strip()
                self.changed()
            return None

        return Push(TextPrompt(self.ui, "Rename side", f"Name of side {sid!r}:", str(table.get("name", sid)), done))

    def cycle_controller(self) -> bool:
        """Who plays the side by default: human, computer, computer (random)."""
        side = self._side()
        if side is None:
            return False
        table = side[1]
        now = str(table.get("controller", "human"))
        table["controller"] = CONTROLLERS[(CONTROLLERS.index(now) + 1) % len(CONTROLLERS) if now in CONTROLLERS else 0]
        return self.changed()

    def cycle_colour(self) -> bool:
        """The side's colour, round the default colours."""
        side = self._side()
        if side is None:
            return False
        table = side[1]
        now = str(table.get("colour", ""))
        i = DEFAULT_COLOURS.index(now) + 1 if now in DEFAULT_COLOURS else 0
        table["colour"] = DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)]
        return self.changed()

    def add_side(self) -> bool:
        """A new side with the next free colour."""
        n = len(self.sides) + 1
        sid = f"side{n}"
        while sid in self.sides:
            n += 1
            sid = f"side{n}"
        self.sides[sid] = {"name": f"Side {n}", "colour": DEFAULT_COLOURS[(n - 1) % len(DEFAULT_COLOURS)]}
        self.side_index = len(self.sides) - 1
        return self.changed()

    def delete_side(self) -> Transition | bool:
        """Remove the selected side (refused while figures belong to it)."""
        side = self._side()
        if side is None:
            return False
        sid = side[0]
        if any(isinstance(f, dict) and f.get("side") == sid for f in self.figures):
            return Push(
                MessageDialog(
                    self.ui, "Cannot delete", f"Figures of side {sid!r} are listed; remove them first.", error=True
                )
            )
        del self.sides[sid]
        self.side_index = max(0, self.side_index - 1)
        return self.changed()

    def add_figure(self) -> bool:
        """One figure of the selected character for the selected side (set up in its deployment zone)."""
        side = self._side()
        if self.selected is None or side is None:
            self.status, self.status_error = "Select a character and a side first.", True
            return True
        figs = self.figures
        figs.append({"character": self.selected, "side": side[0]})
        self.data["figures"] = figs
        self.figure_index = len(figs) - 1
        return self.changed()

    def _figure(self) -> dict[str, Any] | None:
        figs = self.figures
        if not figs:
            return None
        f = figs[max(0, min(self.figure_index, len(figs) - 1))]
        return f if isinstance(f, dict) else None

    def remove_figure(self) -> bool:
        """Drop the selected figures entry."""
        figs = self.figures
        if not figs:
            return False
        del figs[max(0, min(self.figure_index, len(figs) - 1))]
        if figs:
            self.data["figures"] = figs
        else:
            self.data.pop("figures", None)
        self.figure_index = max(0, self.figure_index - 1)
        return self.changed()

    def step_count(self, step: int) -> bool:
        """How many figures the entry sets up (1 to 50)."""
        f = self._figure()
        if f is None:
            return False
        now = f.get("count", 1)
        new = max(1, min(50, (now if isinstance(now, int) else 1) + step))
        if new == 1:
            f.pop("count", None)
        else:
            f["count"] = new
        return self.changed()

    def cycle_figure_side(self) -> bool:
        """The entry's side, round the roster's sides."""
        f = self._figure()
        ids = list(self.sides)
        if f is None or not ids:
            return False
        now = f.get("side")
        f["side"] = ids[(ids.index(now) + 1) % len(ids)] if now in ids else ids[0]
        return self.changed()

    # --- saving -------------------------------------------------------------------------------------
    def save(self, path: Path | None = None) -> Transition | None:
        """Check the whole roster and write it (atomically); a problem is a dialog and nothing is written."""
        target = path or self.path
        if target is None:
            return self.save_as()
        problem = self.problem()
        if problem:
            self.status, self.status_error = "Not saved: " + problem, True
            return Push(
                MessageDialog(self.ui, "Cannot save the roster", f"{problem}\n\nNothing was saved.", error=True)
            )
        try:
            save_roster(target, self.data)
        except RosterError as exc:
            self.status, self.status_error = str(exc), True
            return Push(MessageDialog(self.ui, "Cannot save the roster", str(exc), error=True))
        self.path = target
        self.dirty = False
        self.status, self.status_error = f"Saved to {target}.", False
        if self.on_saved is not None:
            self.on_saved(target)
        self.layout()
        return None

    def save_as(self) -> Transition:
        """Ask a name; the roster goes to ``rosters_dir()/<name>.roster.toml``."""
        stem = self.path.name.removesuffix(".toml").removesuffix(".roster") if self.path else "my_roster"

        def done(name: str) -> Transition | None:
            target = rosters_dir() / f"{slug(name)}.roster.toml"
            if target.exists() and target != self.path:
                return Push(
                    MessageDialog(
                        self.ui,
                        "Replace the file?",
                        f"{target} exists. Replace it?",
                        (("Cancel", None), ("Replace", lambda: self.save(target))),
                    )
                )
            return self.save(target)

        return Push(TextPrompt(self.ui, "Save roster as", f"Name (saved in {rosters_dir()}):", stem, done))

    def close(self) -> Transition:
        """Leave; unsaved changes are asked about first (Save / Discard / Cancel)."""
        if not self.dirty:
            return Pop()

        def save_then_close() -> Transition | None:
            result = self.save()
            return result if result is not None or self.dirty else Pop()

        return Push(
            MessageDialog(
                self.ui,
                "Unsaved changes",
                "The roster has changes that are not saved.",
                (("Cancel", None), ("Discard", Pop), ("Save", save_then_close)),
            )
        )

    # --- layout -------------------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Lay out for the window."""
        super().on_resize(size)
        self.layout()

    def _button(
        self,
        ident: str,
        label: str,
        rect: pygame.Rect,
        action: Callable[[], object],
        tooltip: str = "",
        *,
        size: int = 13,
        enabled: bool = True,
        hotkey: int | None = None,
    ) -> Button:
        b = Button(label, action, rect, tooltip=tooltip, size=size, enabled=enabled, hotkey=hotkey)
        self.buttons[ident] = b
        return b

    def _text(
        self,
        value: str,
        pos: tuple[int, int],
        size: int = 14,
        colour: tuple[int, int, int] = theme.TEXT,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> None:
        self.texts.append((value, pos, size, colour, bold, anchor))

    def _header(self, section: str, title: str, x: int, y: int, right: int) -> None:
        title = self._fit(title, 13, right - x, True)
        self._text(title, (x, y), 13, theme.ACCENT, True)
        self.sections[section] = (x + self.ui.text.width(title, 13, True) + self.ui.s(10), y, right)

    def _stepper(
        self,
        ident: str,
        x: int,
        y: int,
        value: str,
        minus: Callable[[], object],
        plus: Callable[[], object],
        what: str,
        width: int = 86,
        colour: tuple[int, int, int] = theme.TEXT,
        tip: str = "",
    ) -> int:
        s = self.ui.s
        more = f" {tip}" if tip else ""
        self._button(f"{ident}.-", "−", pygame.Rect(x, y, s(24), s(24)), minus, f"{what}: one step down.{more}")
        self._text(value, (x + s(26) + s(width) // 2, y + s(12)), 14, colour, True, "center")
        self._button(
            f"{ident}.+", "+", pygame.Rect(x + s(28) + s(width), y, s(24), s(24)), plus, f"{what}: one step up.{more}"
        )
        return x + s(56) + s(width)

    def layout(self) -> None:
        """Build every button and label for the current data (cheap: a few dozen widgets)."""
        if self.size == (0, 0):
            return
        s = self.ui.s
        w, h = self.size
        self.buttons, self.texts, self.sections, self.hover_tips, self.scroll_areas = {}, [], {}, [], {}
        m = s(16)
        top = s(64)
        footer = (
            "Ctrl+S save · Ctrl+Shift+S save as · Ctrl+N add · Ctrl+D copy · F2 rename · Delete · "
            "↑/↓ character · Ctrl+M spell · Ctrl+F footprint · Ctrl+K kind · Ctrl+W wound track "
            "(+Shift: back) · Ctrl+−/+ Scale · Esc close · hover for help"
        )
        lines = self.ui.text.wrap(footer, 12, w - 2 * m)[:2]
        for i, line in enumerate(reversed(lines)):
            self._text(
                line, (m, h - s(8) - i * self.ui.text.line_height(12)), 12, theme.TEXT_MUTED, False, "bottomleft"
            )
        self.footer_lines = len(lines)
        # header
        title = "Roster editor — " + (self.path.name if self.path else "new roster") + (" *" if self.dirty else "")
        self._text(title, (m, s(14)), 24, theme.ACCENT, True)
        bx = w - m
        header: tuple[tuple[str, str, Action, str, int | None], ...] = (
            ("close", "Close", self.close, "Back (Esc); unsaved changes are asked about.", None),
            ("save_as", "Save as…", self.save_as, f"Save under a new name in {rosters_dir()} (Ctrl+Shift+S).", None),
            (
                "save",
                "Save",
                self.save,
                "Save to " + (str(self.path) if self.path else "a new file") + " (Ctrl+S).",
                None,
            ),
        )
        for ident, label, action, tip, k in header:
            bx -= s(110)
            self._button(ident, label, pygame.Rect(bx, s(12), s(100), s(34)), action, tip, size=15, hotkey=k)
            bx -= s(6)
        # column A: characters, sides, figures; narrower in a narrow window
        aw = max(s(200), min(s(290), (w - 2 * m) * 24 // 100))
        self._text("Characters", (m, top), 13, theme.ACCENT, True)
        list_h = max(s(120), h - top - s(380))
        self.char_list.rect = pygame.Rect(m, top + s(20), aw, list_h)
        keys = list(self.characters)
        labels = []
        for key in keys:
            table = self.characters[key]
            name = table.get("name", key) if isinstance(table, dict) else key
            bad = "  ⚠" if self.check(key)[1] else ""
            labels.append(f"{name}{bad}")
        self.char_list.set_items(labels, [theme.DANGER if lab.endswith("⚠") else None for lab in labels])
        if self.selected in keys:
            self.char_list.selected = keys.index(self.selected)
        y = self.char_list.rect.bottom + s(6)
        bw = (aw - s(18)) // 4
        rows: list[tuple[str, str, Action, str]] = [
            ("char.add", "Add", self.add_character, "A new character, all Fair (Ctrl+N)."),
            ("char.copy", "Copy", self.duplicate_character, "Duplicate the selected character (Ctrl+D)."),
            ("char.delete", "Delete", self.delete_character, "Delete the selected character (Delete)."),
            ("char.rename", "Rename", self.rename_character, "Change the character's name (F2)."),
        ]
        for i, (ident, label, action, tip) in enumerate(rows):
            self._button(
                ident,
                label,
                pygame.Rect(m + i * (bw + s(6)), y, bw, s(28)),
                action,
                tip,
                enabled=ident == "char.add" or self.selected is not None,
            )
        y += s(40)
        self._text("Sides", (m, y), 13, theme.ACCENT, True)
        self.side_list.rect = pygame.Rect(m, y + s(18), aw, s(68))
        side_rows = []
        side_colours: list[tuple[int, int, int] | None] = []
        for sid, sd in self.sides.items():
            sd = sd if isinstance(sd, dict) else {}
            controller = CONTROLLER_NAMES.get(str(sd.get("controller", "human")), str(sd.get("controller")))
            side_rows.append(f"● {sd.get('name', sid)} ({sid}) · {controller}")
            colour = str(sd.get("colour", ""))
            if re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
                # lightened halfway to white: readable on the list's dark and selected rows
                r, g, b = ((int(colour[i : i + 2], 16) + 255) // 2 for i in (1, 3, 5))
                side_colours.append((r, g, b))
            else:
                side_colours.append(None)
        self.side_list.set_items(side_rows, side_colours)
        self.side_list.selected = min(self.side_index, len(side_rows) - 1) if side_rows else None
        y = self.side_list.rect.bottom + s(6)
        bw5 = (aw - s(24)) // 5
        rows = [
            ("side.rename", "Name", self.rename_side, "Rename the selected side."),
            ("side.player", "Player", self.cycle_controller, "Who plays it by default: human or computer."),
            ("side.colour", "Colour", self.cycle_colour, "The side's colour on the board."),
            ("side.add", "Add", self.add_side, "A new side."),
            ("side.delete", "Del", self.delete_side, "Delete the selected side (not while figures use it)."),
        ]
        for i, (ident, label, action, tip) in enumerate(rows):
            self._button(ident, label, pygame.Rect(m + i * (bw5 + s(6)), y, bw5, s(26)), action, tip, size=12)
        y += s(36)
        self._text("Figures set up in deployment zones", (m, y), 13, theme.ACCENT, True)
        self.figure_list.rect = pygame.Rect(m, y + s(18), aw, s(68))
        fig_rows = []
        for f in self.figures:
            f = f if isinstance(f, dict) else {}
            ch = self.characters.get(str(f.get("character")), {})
            name = f.get("name") or (ch.get("name") if isinstance(ch, dict) else None) or f.get("character")
            fig_rows.append(f"{f.get('count', 1)} × {name} ({f.get('side')})" + (" · mook" if f.get("mook") else ""))
        self.figure_list.set_items(
            fig_rows or ["none: the map places the figures"], [theme.TEXT_MUTED] if not fig_rows else None
        )
        self.figure_list.selected = min(self.figure_index, len(fig_rows) - 1) if fig_rows else None
        y = self.figure_list.rect.bottom + s(6)
        remove = "Remove" if self.ui.text.width("Remove", 12, True) + s(6) <= bw5 else "Del"
        rows = [
            ("fig.add", "Add", self.add_figure, "Figures of the selected character for the selected side."),
            ("fig.remove", remove, self.remove_figure, "Remove the selected entry."),
            ("fig.side", "Side", self.cycle_figure_side, "Move the entry to the next side."),
            ("fig.count.-", "−1", partial(self.step_count, -1), "One figure fewer."),
            ("fig.count.+", "+1", partial(self.step_count, 1), "One figure more."),
        ]
        for i, (ident, label, action, tip) in enumerate(rows):
            self._button(ident, label, pygame.Rect(m + i * (bw5 + s(6)), y, bw5, s(26)), action, tip, size=12)
        # columns B and C: the selected character
        bx0 = m + aw + s(24)
        rest = w - bx0 - m - s(24)
        # the attributes need two label-and-stepper columns side by side; the gear column gives way first
        bw_col = min(max(rest * 47 // 100, s(420)), rest - s(280))
        cx0 = bx0 + bw_col + s(24)
        cw = w - cx0 - m
        table = self.current
        if table is None:
            self._text("No character selected: Add one (Ctrl+N).", (bx0, top), 16, theme.TEXT_MUTED)
        else:
            self._character_panel(table, bx0, top, bw_col)
            self._gear_panel(table, cx0, top, cw)

    @property
    def content_bottom(self) -> int:
        """The lowest y the columns may fill: above the footer and two lines of status."""
        text = self.ui.text
        return self.size[1] - self.ui.s(14) - self.footer_lines * text.line_height(12) - 2 * text.line_height(13)

    def _fit(self, value: str, size: int, room: int, bold: bool = False) -> str:
        """The text cut with "…" to fit ``room`` pixels (narrow windows; the tooltip or status has it whole)."""
        return self.ui.text.fit(value, size, room, bold)

    def _first_row(self, ident: str, total: int, rows: int) -> int:
        first = max(0, min(self.scroll.get(ident, 0), total - rows))
        self.scroll[ident] = first
        return first

    def scroll_list(self, ident: str, step: int) -> bool:
        """Scroll a list the window is too short for ("skills", "spells") by ``step`` rows."""
        self.scroll[ident] = max(0, self.scroll.get(ident, 0) + step)
        self.layout()
        return True

    def _pager(self, ident: str, first: int, rows: int, total: int, x: int, y: int, right: int) -> None:
        s = self.ui.s
        self._text(f"{first + 1}–{first + rows} of {total}: scroll for more", (x, y + s(3)), 12, theme.TEXT_MUTED)
        self._button(
            f"{ident}.up",
            "▲",
            pygame.Rect(right - s(56), y, s(24), s(22)),
            partial(self.scroll_list, ident, -1),
            "Show the rows above (mouse wheel).",
            enabled=first > 0,
        )
        self._button(
            f"{ident}.down",
            "▼",
            pygame.Rect(right - s(28), y, s(24), s(22)),
            partial(self.scroll_list, ident, 1),
            "Show the rows below (mouse wheel).",
            enabled=first + rows < total,
        )

    def _character_panel(self, table: dict[str, Any], x: int, top: int, width: int) -> None:
        s = self.ui.s
        right = x + width
        y = top
        self._header("name", "Name", x, y, right - s(180))
        self._text(str(table.get("name", "")), (x, y + s(18)), 20, theme.TEXT, True)
        self._text(f"key {self.selected}", (right - s(110), y + s(2)), 12, theme.TEXT_MUTED, False, "topright")
        self._button(
            "name.rename",
            "Rename",
            pygame.Rect(right - s(100), y + s(16), s(100), s(26)),
            self.rename_character,
            "Change the name (F2); the key that maps use stays.",
        )
        y += s(52)
        self._header("attributes", "Attributes (FTC 2.1)", x, y, right)
        y += s(20)
        half = width // 2
        label_w = min(s(80), max(self.ui.text.width(a.capitalize(), 14) for a in ATTRIBUTES) + s(8))
        for i, attr in enumerate(ATTRIBUTES):
            cx, cy = x + (i % 2) * half, y + (i // 2) * s(28)
            value = table.get(attr, FAIR)
            lv = _level(value)
            self._text(attr.capitalize(), (cx, cy + s(4)), 14)
            self._stepper(
                f"attr.{attr}",
                cx + label_w,
                cy,
                level_name(lv) if lv is not None else str(value),
                partial(self.step_level, attr, -1),
                partial(self.step_level, attr, 1),
                attr.capitalize(),
                width=72,
                colour=theme.TEXT if lv is not None else theme.DANGER,
            )
        y += 4 * s(28) + s(8)
        all_x = right - s(56) - s(26)
        self._header("scale", "Scale (Fudge 4.6)", x, y, all_x - s(44))
        scales = self.scales()
        self._text("all", (all_x - s(6), y + s(1)), 13, theme.TEXT_MUTED, False, "topright")
        self._stepper(
            "scale.all",
            all_x,
            y - s(4),
            f"{scales[0]:+d}" if len(set(scales)) == 1 else "…",
            partial(self.step_all_scale, -1),
            partial(self.step_all_scale, 1),
            "Strength, Mass and Speed Scale together (Ctrl+− / Ctrl++)",
            width=26,
            tip=_SCALE_RULES["all"],
        )
        y += s(20)
        third = width // 3
        for i, (label, value) in enumerate(zip(("Strength", "Mass", "Speed"), scales, strict=True)):
            cx = x + i * third
            self._text(label, (cx, y + s(4)), 13)
            self._stepper(
                f"scale.{i}",
                cx + s(58),
                y,
                f"{value:+d}",
                partial(self.step_scale, i, -1),
                partial(self.step_scale, i, 1),
                f"{label} Scale",
                width=26,
                tip=_SCALE_RULES[label],
            )
        y += s(36)
        self._header("skills", "Skills", x, y, right - s(110))
        self._button(
            "skill.add",
            "Add skill…",
            pygame.Rect(right - s(100), y - s(4), s(100), s(24)),
            self.add_skill,
            "Add a combat skill from the list, or type any skill's name.",
        )
        y += s(22)
        skills = table.get("skills", {})
        skills = skills if isinstance(skills, dict) else {}
        traits = max(len(self._names("gifts")), len(self._names("faults")))
        below = s(8) + s(48) + traits * s(24) + s(8) + s(CREATURE_PANEL_HEIGHT)
        room = max(2, (self.content_bottom - below - y) // s(28))
        items = list(skills.items())
        rows = len(items) if len(items) <= room else room - 1
        first = self._first_row("skills", len(items), rows)
        self.scroll_areas["skills"] = pygame.Rect(x, y, width, rows * s(28))
        for name, value in items[first : first + rows]:
            lv = _level(value)
            self._text(self._fit(str(name), 14, width - s(206)), (x, y + s(4)), 14)
            nx = self._stepper(
                f"skill.{name}",
                x + width - s(200),
                y,
                level_name(lv) if lv is not None else str(value),
                partial(self.step_skill, name, -1),
                partial(self.step_skill, name, 1),
                str(name),
                colour=theme.TEXT if lv is not None else theme.DANGER,
            )
            self._button(
                f"skill.{name}.x",
                "×",
                pygame.Rect(nx + s(4), y, s(24), s(24)),
                partial(self.remove_skill, name),
                f"Remove {name} (untrained skills default to Poor).",
            )
            y += s(28)
        if rows < len(items):
            self._pager("skills", first, rows, len(items), x, y, x + width)
            y += s(26)
        if not items:
            self._text("none (every skill Poor)", (x, y + s(2)), 13, theme.TEXT_MUTED)
            y += s(24)
        y += s(8)
        self._header("traits", "Gifts and faults (Fudge 4.51)", x, y, right)
        y += s(20)
        bottom = y + s(28)
        for col, field in enumerate(("gifts", "faults")):
            cx = x + col * half
            yy = y
            self._button(
                f"{field}.add",
                "Add gift…" if field == "gifts" else "Add fault…",
                pygame.Rect(cx, yy, s(96), s(24)),
                partial(self.add_trait, field),
                "High Pain Threshold, Tough Hide, or any gift by name."
                if field == "gifts"
                else "Low Pain Threshold, or any fault by name.",
            )
            yy += s(28)
            for i, name in enumerate(self._names(field)):
                self._text(str(name), (cx, yy + s(3)), 13)
                self._button(
                    f"{field}.{i}.x",
                    "×",
                    pygame.Rect(cx + half - s(34), yy, s(22), s(22)),
                    partial(self.remove_at, field, i),
                    f"Remove {name}.",
                )
                yy += s(24)
            bottom = max(bottom, yy)
        self._creature_panel(table, x, bottom + s(8), width)

    def _creature_panel(self, table: dict[str, Any], x: int, top: int, width: int) -> None:
        """Footprint, kind, head, wound track and natural armour (FTC 5, 6.6, 7.2, 7.3; Fudge 4.23, 4.57)."""
        s = self.ui.s
        y = top
        self._header("creature", "Creature and wounds", x, y, x + width)
        y += s(20)
        bad = self.error_field()
        mark = {f: ("⚠ " if f == bad else "") for f in ("footprint", "kind", "has_head", "wound_track")}
        footprint = table.get("footprint", 1)
        fp = (
            f"{footprint} hex{'es' if footprint != 1 else ''}"
            if isinstance(footprint, int) and not isinstance(footprint, bool)
            else _short(footprint)
        )
        kind = table.get("kind", "person")
        kinds = ", ".join(creatures.kinds())
        head = table.get("has_head", True)
        cells: list[tuple[str, str, Action, str]] = [
            (
                "footprint",
                f"{mark['footprint']}Footprint: {fp}",
                self.cycle_footprint,
                "FTC 5: some creatures are larger than one hex. 1 hex: a person; 3: its hex (the head), the hex "
                "behind and the rear hex on its left; 7: its hex and the six around it. Click for the next size "
                "(Ctrl+F, Ctrl+Shift+F back).",
            ),
            (
                "kind",
                f"{mark['kind']}Kind: {_short(kind)}",
                self.cycle_kind,
                f"Fudge 4.23: {kind_note(str(kind).strip().lower()) or 'not a kind of data/creatures.toml.'} "
                f"Click for the next kind ({kinds}; Ctrl+K, Ctrl+Shift+K back).",
            ),
            (
                "head",
                f"{mark['has_head']}Head: " + ("yes" if head is True else "no" if head is False else _short(head)),
                self.toggle_head,
                "FTC 6.6: a blow to the head does +2 damage; a creature without a head takes none.",
            ),
        ]
        third = (width - s(12)) // 3
        for i, (ident, label, action, tip) in enumerate(cells):
            self._button(ident, label, pygame.Rect(x + i * (third + s(6)), y, third, s(24)), action, tip)
        y += s(30)
        raw = table.get("wound_track", "default")
        name = CUSTOM_TRACK if isinstance(raw, dict) else raw
        c = self.check(self.selected)[0] if self.selected is not None else None
        track = c.wound_track if c is not None else None
        if track is None:
            try:
                track = creatures.creature_track(raw) if isinstance(raw, str | dict) else None
            except creatures.CreatureError:
                track = None
        summary = track_summary(track) if track is not None else "not a wound track"
        half = (width - s(6)) // 2
        shown = str(name).replace("_", " ") if isinstance(name, str) else _short(name)
        self._button(
            "track",
            f"{mark['wound_track']}Wound track: {_short(shown, 16)}",
            pygame.Rect(x, y, half, s(24)),
            self.cycle_track,
            f"{_TRACK_RULES.get(str(name), 'FTC 7.3')}: {summary}. Click for the next track "
            f"({', '.join(self.track_options())}; Ctrl+W, Ctrl+Shift+W back).",
        )
        hx = x + half + s(6)
        self._text("Tough Hide", (hx, y + s(4)), 13)
        hide = self.tough_hide()
        if hide is not None:
            hide_text = str(hide)
        elif "tough_hide" in table:
            hide_text = _short(table["tough_hide"], 4)
        else:  # while another field is wrong: the gift alone gives the data default, shown once it is fixed
            gift = any(str(g).strip().lower() == TOUGH_HIDE.lower() for g in self._names("gifts"))
            hide_text = "gift" if gift else "0"
        right_stepper = x + width - s(56) - s(34)
        self._stepper(
            "tough_hide",
            right_stepper,
            y,
            hide_text,
            partial(self.step_tough_hide, -1),
            partial(self.step_tough_hide, 1),
            "Natural armour",
            width=34,
            colour=theme.DANGER if bad == "tough_hide" else theme.TEXT,
            tip=f"FTC 7.2: natural armour such as Tough Hide adds to the defensive factor; the gift "
            f"alone gives {TOUGH_HIDE_DEFAULT}.",
        )
        self.hover_tips.append(
            (
                pygame.Rect(hx, y, right_stepper - hx, s(24)),
                "FTC 7.2: natural armour (Tough Hide) adds to the defensive damage factor.",
            )
        )
        y += s(30)
        carried = c.wounds if c is not None and c.wounds is not None and c.wounds.worst is not None else None
        self._track_sheet(track, x, y, width - s(70), carried)
        tip = f"Wound track: {summary} (FTC 7.3)."
        if carried is not None:
            # Fudge 4.8: wounds saved after a battle stay in the file; the editor keeps them and shows them
            tip += (
                f" Carries {carried.label} from an earlier battle (■): "
                + ", ".join(str(w) for w in carried.received())
                + "."
            )
        self.hover_tips.append((pygame.Rect(x, y, width - s(70), s(34)), tip))
        self._button(
            "track.choose",
            "List…",
            pygame.Rect(x + width - s(60), y, s(60), s(22)),
            self.choose_track,
            "All wound tracks with their boxes (FTC 7.3, Fudge 4.57, 4.63).",
            size=12,
        )

    def _track_sheet(self, track: WoundTrack | None, x: int, y: int, room: int, wounds: Wounds | None = None) -> None:
        """The wound track as a character sheet draws it (FTC 7.3): each level over its damage and boxes,
        the boxes of carried wounds filled."""
        text, s = self.ui.text, self.ui.s
        if track is None:
            self._text("not a wound track: see the message below", (x, y + s(2)), 12, theme.DANGER)
            return
        lh = text.line_height(12)
        cx = x
        for name, boxes in track_columns(track, wounds):
            col = max(text.width(name, 12), text.width(boxes, 12))
            if cx + col > x + room:
                self._text("…", (cx, y), 12, theme.TEXT_MUTED)
                return
            self._text(name, (cx, y), 12, theme.TEXT_MUTED)
            self._text(boxes, (cx, y + lh), 12)
            cx += col + s(12)

    def _gear_panel(self, table: dict[str, Any], x: int, top: int, width: int) -> None:
        s = self.ui.s
        right = x + width
        y = top
        self._header("weapons", "Weapons (FTC 9.1) — the first is in hand", x, y, right - s(110))
        self._button(
            "weapon.add",
            "Add weapon…",
            pygame.Rect(right - s(104), y - s(4), s(104), s(24)),
            self.add_weapon,
            "A weapon from the catalogue, with its mass.",
        )
        y += s(22)
        weapons = self._names("weapons")
        either_way = False
        for i, name in enumerate(weapons):
            try:
                item = equipment.weapon(str(name))
                info = f"{item.skill} {item.damage:+d} · {_kg(item.mass_kg)}" + (
                    " · 2 hands" if item.two_handed else ""
                )
                either_way |= item.can_be_two_handed
                colour = theme.TEXT
            except (KeyError, ValueError):
                info, colour = "not in the catalogue", theme.DANGER
            label = self._fit(str(name), 14, width - s(150), i == 0)
            self._text(label, (x, y + s(3)), 14, colour, i == 0)
            info = self._fit(info, 13, width - s(74) - self.ui.text.width(label, 14, i == 0))
            self._text(info, (right - s(64), y + s(4)), 13, theme.TEXT_MUTED, False, "topright")
            if i > 0:
                self._button(
                    f"weapon.{i}.ready",
                    "▲",
                    pygame.Rect(right - s(56), y, s(24), s(24)),
                    partial(self.ready_weapon, i),
                    "Put it in hand (first in the list).",
                )
            self._button(
                f"weapon.{i}.x",
                "×",
                pygame.Rect(right - s(28), y, s(24), s(24)),
                partial(self.remove_at, "weapons", i),
                f"Remove {name}.",
            )
            y += s(26)
        if not weapons:
            self._text("none: fights with the fist", (x, y + s(2)), 13, theme.TEXT_MUTED)
            y += s(24)
        if either_way or table.get("two_handed"):
            on = bool(table.get("two_handed"))
            self._button(
                "two_handed",
                f"Two-handed grip: {'on' if on else 'off'}",
                pygame.Rect(x, y + s(2), s(180), s(24)),
                self.toggle_two_handed,
                "Hold the bastard sword in both hands (+3 damage, FTC 9.1); no shield then.",
            )
            y += s(30)
        pierce = self.piercing()
        self._header("piercing", "Scale-piercing", x, y + s(4), x + s(150))
        shown = ", ".join(f"{k}: {v}" for k, v in pierce.items()) or "none"
        room = right - s(112) - (x + s(120))
        while len(shown) > 6 and self.ui.text.width(shown, 13) > room:
            shown = shown[:-2].rstrip() + "…"
        self._text(shown, (x + s(120), y + s(5)), 13, theme.TEXT if pierce else theme.TEXT_MUTED)
        self.sections["piercing"] = (x + s(130) + self.ui.text.width(shown, 13), y + s(5), right - s(112))
        self._button(
            "pierce.choose",
            "Change…",
            pygame.Rect(right - s(104), y, s(104), s(24)),
            self.choose_piercing,
            "Fudge 4.58: a scale-piercing weapon (a whaler's harpoon) halves or "
            "ignores the target's Mass Scale when it hits well.",
        )
        y += s(30)
        y += s(8)
        self._header("armour", "Armour and helmets (FTC 9.2)", x, y, right - s(110))
        self._button(
            "armour.add",
            "Add armour…",
            pygame.Rect(right - s(104), y - s(4), s(104), s(24)),
            self.add_armour,
            "Body armour or a helmet from the catalogue.",
        )
        y += s(22)
        armour = self._names("armour")
        for i, entry in enumerate(armour):
            label, mass = _armour_entry(entry)
            label = self._fit(label, 14, width - s(110))
            self._text(label, (x, y + s(3)), 14, theme.TEXT if mass is not None else theme.DANGER)
            self._text(
                _kg(mass) if mass is not None else "not in the catalogue",
                (right - s(36), y + s(4)),
                13,
                theme.TEXT_MUTED,
                False,
                "topright",
            )
            self._button(
                f"armour.{i}.x",
                "×",
                pygame.Rect(right - s(28), y, s(24), s(24)),
                partial(self.remove_at, "armour", i),
                f"Remove {label}.",
            )
            y += s(26)
        if not armour:
            self._text("none", (x, y + s(2)), 13, theme.TEXT_MUTED)
            y += s(24)
        y += s(8)
        self._header("shield", "Shield", x, y + s(4), x + s(150))
        shield = table.get("shield")
        if shield:
            try:
                mass_text = _kg(equipment.armour(str(shield)).mass_kg)
            except (KeyError, ValueError):
                mass_text = "not in the catalogue"
            shown = f"{shield} · {mass_text}"
        else:
            shown = "none"
        shown = self._fit(shown, 14, width - s(70) - s(112))
        self._text(shown, (x + s(70), y + s(4)), 14)
        self.sections["shield"] = (x + s(80) + self.ui.text.width(shown, 14), y + s(5), right - s(112))
        self._button(
            "shield.choose",
            "Change…",
            pygame.Rect(right - s(104), y, s(104), s(24)),
            self.choose_shield,
            "Small, Medium or Large Shield (FTC 9.2), or none.",
        )
        y += s(30)
        self._header("gear", "Other gear", x, y + s(4), x + s(150))
        gear = table.get("gear_kg", 0.0)
        end = self._stepper(
            "gear",
            x + s(110),
            y,
            _kg(float(gear)) if isinstance(gear, int | float) else str(gear),
            partial(self.step_gear, -1),
            partial(self.step_gear, 1),
            "Other gear (0.5 kg)",
            width=70,
        )
        self.sections["gear"] = (end + s(10), y + s(5), right)
        y += s(38)
        y = self._spells_panel(x, y, width)
        self._load_panel(x, y + s(8), width)

    def _spells_panel(self, x: int, top: int, width: int) -> int:
        """The spells the character knows (FTC 8), each with its skill, casting time and range; the bottom."""
        s = self.ui.s
        right = x + width
        y = top
        self._header("spells", "Spells (FTC 8)", x, y, right - s(110))
        self._button(
            "spell.add",
            "Add spell…",
            pygame.Rect(right - s(104), y - s(4), s(104), s(24)),
            self.add_spell,
            "A spell of the catalogue (data/spells.toml), with its skill, casting time and range (Ctrl+M).",
        )
        y += s(22)
        spells = self._names("spells")
        room = max(2, (self.content_bottom - s(LOAD_PANEL_HEIGHT) - s(8) - y) // s(26))
        rows = len(spells) if len(spells) <= room else room - 1
        first = self._first_row("spells", len(spells), rows)
        self.scroll_areas["spells"] = pygame.Rect(x, y, width, rows * s(26))
        for i, name in enumerate(spells[first : first + rows], start=first):
            try:
                item: magic.Spell | None = magic.spell(str(name))
            except magic.MagicError:
                item = None
            label = item.name if item is not None else str(name)
            info = spell_summary(item) if item is not None else "not in the catalogue"
            label = self._fit(label, 14, width - s(150))
            info = self._fit(info, 13, width - s(46) - self.ui.text.width(label, 14))
            self._text(label, (x, y + s(3)), 14, theme.TEXT if item is not None else theme.DANGER)
            self._text(info, (right - s(36), y + s(4)), 13, theme.TEXT_MUTED, False, "topright")
            tip = (
                self.spell_tip(item)
                if item is not None
                else (f"{name} is not a spell of data/spells.toml: remove it, or add the spell to the catalogue.")
            )
            self.hover_tips.append((pygame.Rect(x, y, width - s(32), s(24)), tip))
            self._button(
                f"spell.{i}.x",
                "×",
                pygame.Rect(right - s(28), y, s(24), s(24)),
                partial(self.remove_spell, i),
                f"Forget {label}.",
            )
            y += s(26)
        if rows < len(spells):
            self._pager("spells", first, rows, len(spells), x, y, right)
            y += s(26)
        if not spells:
            self._text("none", (x, y + s(2)), 13, theme.TEXT_MUTED)
            y += s(24)
        return y

    def _load_panel(self, x: int, y: int, width: int) -> None:
        """Carried mass, encumbrance and movement (FTC 5, 5.1.1 table 2), live."""
        s = self.ui.s
        rect = pygame.Rect(x, y, width, s(LOAD_PANEL_HEIGHT))
        self.load_rect = rect
        self._text("Load and movement (FTC 5, 5.1.1)", (x + s(10), y + s(8)), 13, theme.ACCENT, True)
        lines: list[tuple[str, tuple[int, int, int]]] = []
        self.encumbrance_text, self.allowance = "", None
        c, _ = self.check(self.selected) if self.selected is not None else (None, "")
        if c is None:
            lines.append(("Fix the error to see the load.", theme.DANGER))
        else:
            mass = c.carried_mass_kg()
            limits = load_thresholds_kg(c.strength, c.strength_scale)
            penalty = encumbrance_penalty(mass, c.strength, c.strength_scale)
            free = movement_allowance(c.speed, speed_scale=c.speed_scale)
            allowance = movement_allowance(
                c.speed, speed_scale=c.speed_scale, strength=c.strength, strength_scale=c.strength_scale, load_kg=mass
            )
            parts = (
                math.fsum(w.mass_kg for w in c.weapons),
                math.fsum(a.mass_kg for a in c.armour),
                c.shield.mass_kg if c.shield else 0.0,
                c.gear_kg,
            )
            lines.append(
                (
                    f"Carried {_kg(round(mass, 3))}: weapons {parts[0]:g}, armour {parts[1]:g}, "
                    f"shield {parts[2]:g}, other {parts[3]:g}",
                    theme.TEXT,
                )
            )
            lines.append(
                (
                    f"Strength {level_name(c.strength)}: no penalty up to {limits[0]:g} kg, −1 to "
                    f"{limits[1]:g}, −2 to {limits[2]:g}, −3 to {limits[3]:g}, beyond: cannot move",
                    theme.TEXT_MUTED,
                )
            )
            if penalty is None:
                enc = "Encumbrance: too heavy to move"
            else:
                over = next((limit for limit in reversed(limits) if mass > limit), limits[0])
                enc = (
                    "Encumbrance: none"
                    if penalty == 0
                    else f"Encumbrance: −{-penalty} hex{'es' if penalty < -1 else ''} (more than {over:g} kg)"
                )
            self.encumbrance_text = enc
            self.allowance = allowance
            lines.append((enc, theme.DANGER if penalty else theme.TEXT))
            lines.append(
                (
                    f"Movement: {allowance} hex{'es' if allowance != 1 else ''} a round "
                    f"(Speed {level_name(c.speed)}: {free} unencumbered)",
                    theme.ACCENT,
                )
            )
        self.load_lines = lines
        text = self.ui.text
        wrapped = sum(min(2, len(text.wrap(line, 13, width - s(20)))) for line, _ in lines)
        rect.height = max(rect.height, s(30) + wrapped * text.line_height(13) + s(8))

    # --- events -------------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons, lists and the keyboard shortcuts of the footer."""
        result = self._dispatch(event)
        if isinstance(result, Push):
            self.tooltip.hover("", (0, 0))  # the dialog covers what the tip was about
        return result

    def _dispatch(self, event: pygame.event.Event) -> Transition | None:
        if event.type == pygame.KEYDOWN:
            ctrl = event.mod & pygame.KMOD_CTRL
            if event.key == pygame.K_ESCAPE:
                return self.close()
            if ctrl and event.key == pygame.K_s:
                return self.save_as() if event.mod & pygame.KMOD_SHIFT else self.save()
            if ctrl and event.key == pygame.K_n:
                return self.add_character()
            if ctrl and event.key == pygame.K_d:
                self.duplicate_character()
                return None
            if event.key == pygame.K_DELETE:
                return self.delete_character()
            if event.key == pygame.K_F2:
                return self.rename_character()
            if ctrl and event.key == pygame.K_m:
                return self.add_spell()
            back = -1 if event.mod & pygame.KMOD_SHIFT else 1
            cycles = {pygame.K_f: self.cycle_footprint, pygame.K_k: self.cycle_kind, pygame.K_w: self.cycle_track}
            if ctrl and event.key in cycles:
                cycles[event.key](back)
                return None
            if ctrl and event.key in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
                self.step_all_scale(1)
                return None
            if ctrl and event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.step_all_scale(-1)
                return None
            if event.key in (pygame.K_UP, pygame.K_DOWN) and self.characters:
                keys = list(self.characters)
                i = keys.index(self.selected) if self.selected in keys else 0
                self.select(keys[max(0, min(len(keys) - 1, i + (1 if event.key == pygame.K_DOWN else -1)))])
                return None
        for lst in (self.char_list, self.side_list, self.figure_list):
            lst.handle(event)
        for b in list(self.buttons.values()):
            b.handle(event)
            if b.result is not None:
                result = b.result
                if isinstance(result, Push | Pop | Replace | Home | Quit):
                    return result
                self.layout()
                self._rehover()
                return None
        if event.type == pygame.MOUSEWHEEL:
            area = next((k for k, r in self.scroll_areas.items() if r.collidepoint(self.mouse)), None)
            if area is not None:
                self.scroll_list(area, -event.y)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.tooltip.hover(self._tip_at(event.pos), event.pos)
        return None

    def _tip_at(self, pos: tuple[int, int]) -> str:
        tip = next((b.hint for b in self.buttons.values() if b.hovered and b.hint), "")
        return tip or next((t for r, t in self.hover_tips if r.collidepoint(pos)), "")

    def _rehover(self) -> None:
        """After a click re-lays the buttons out, the new button under the mouse is the hovered one and the
        tooltip says what it says now (the next wound track, not the one just left)."""
        for b in self.buttons.values():
            b.hovered = b.visible and b.rect.collidepoint(self.mouse)
        self.tooltip.refresh(self._tip_at(self.mouse))

    # --- drawing ------------------------------------------------------------------------------------
    def error_field(self) -> str:
        """The roster field the selected character's error is about ('' when it has none)."""
        if self.selected is None:
            return ""
        match = _FIELD.search(self.check(self.selected)[1])
        return match.group(1).split(".")[0] if match else ""

    def field_errors(self) -> dict[str, str]:
        """The selected character's error, by section of the screen (for the text beside the field)."""
        if self.selected is None:
            return {}
        _, error = self.check(self.selected)
        if not error:
            return {}
        match = _FIELD.search(error)
        if match is None:
            return {"name": error}
        field = match.group(1).split(".")[0]
        return {_SECTION_OF.get(field, "name"): match.group(2)}

    def draw(self, surface: pygame.Surface) -> None:
        """Lists, the character, the gear, the load, the status line."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        self.char_list.draw(surface, text)
        self.side_list.draw(surface, text)
        self.figure_list.draw(surface, text)
        if self.current is not None:
            draw_panel(surface, self.load_rect, theme.PANEL, theme.BORDER)
            y = self.load_rect.y + s(30)
            for line, colour in self.load_lines:
                for part in text.wrap(line, 13, self.load_rect.width - s(20))[:2]:
                    text.blit(surface, part, (self.load_rect.x + s(10), y), 13, colour)
                    y += text.line_height(13)
        for value, pos, size, colour, bold, anchor in self.texts:
            text.blit(surface, value, pos, size, colour, bold, anchor)
        for section, message in self.field_errors().items():
            x, y, right = self.sections.get(section, self.sections.get("name", (0, 0, 0)))
            shown = "⚠ " + message
            while len(shown) > 8 and text.width(shown, 12) > right - x:
                shown = shown[:-4] + "…"
            text.blit(surface, shown, (x, y + s(1)), 12, theme.DANGER)
        for b in self.buttons.values():
            b.draw(surface, text)
        w, h = surface.get_size()
        status = self.status
        colour = theme.DANGER if self.status_error else theme.TEXT_MUTED
        if not status and self.selected is not None:
            error = self.check(self.selected)[1]
            status, colour = (error, theme.DANGER) if error else ("", colour)
        if status:
            x0 = self.char_list.rect.right + s(24)
            lines = text.wrap(status, 13, w - x0 - s(16))[:3]
            y = h - s(11) - self.footer_lines * text.line_height(12) - len(lines) * text.line_height(13)
            for line in lines:
                text.blit(surface, line, (x0, y), 13, colour)
                y += text.line_height(13)
        self.tooltip.draw(surface, text)


# ------------------------------------------------------------------------------------------- opening


def open_editor(ui: UiContext, path: Path, on_saved: Callable[[Path], None] | None = None) -> Screen:
    """The editor on a roster file; a file that is not TOML raises ``RosterError`` (shown as a dialog)."""
    return RosterEditor(ui, path, read_roster_data(path), on_saved)


def edit_roster(ui: UiContext, path: Path, on_saved: Callable[[Path], None] | None = None) -> Transition:
    """Push the editor on ``path``, or a dialog saying why it cannot be opened."""
    try:
        return Push(open_editor(ui, path, on_saved))
    except RosterError as exc:
        return Push(MessageDialog(ui, "Cannot open the roster", str(exc), error=True))


def choose_roster_to_edit(ui: UiContext) -> Transition:
    """The title screen's "Roster editor": pick a roster file (the maps folder first), then edit it."""
    from game.session import MAPS_DIR
    from game.ui.dialogs import FileChooser

    folder = ui.maps_dir if ui.maps_dir.is_dir() and any(ui.maps_dir.glob("*.toml")) else MAPS_DIR
    return Push(FileChooser(ui, "Edit a roster", folder, (".toml",), lambda p: edit_roster(ui, p)))


def roster_for_map(map_path: Path, roster_path: Path | None) -> Path:
    """The roster a battle on this map would use: the chosen one, else the map's own."""
    if roster_path is not None:
        return roster_path
    from game.maps.loader import load_map
    from game.session import default_roster_for

    return default_roster_for(map_path, load_map(map_path))
