"""The roster editor's screen: the coordinator over its parts (the package's doc says what each part does).

The screen holds the roster being edited and what the parts share through it (``EditorHost``): the selected
character, the status line, saving, and a new layout after every change. It places the parts in three
columns — the character list above the sides and figures; the attributes above the creature and wounds; the
gear above the spells above the load — and hands them the events, each part its own.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pygame

from game.engine.characters import Character
from game.engine.limits import check_value
from game.paths import campaign_copy_of, in_game_folder, is_campaign_copy
from game.roster import (
    STANDS_IN_FOR,
    RosterError,
    parse_roster,
    read_roster_data,
    save_roster,
    writable_roster,
)
from game.ui import theme
from game.ui.dialogs import MessageDialog
from game.ui.labels import TextItem
from game.ui.pickers import TextPrompt
from game.ui.roster_editor.attributes import Attributes
from game.ui.roster_editor.catalogue import (
    CREATURE_PANEL_HEIGHT,
    FIELD_ERROR,
    LOAD_PANEL_HEIGHT,
    SECTION_OF,
    Action,
    rosters_dir,
    slug,
)
from game.ui.roster_editor.characters import CharacterList
from game.ui.roster_editor.creature import CreatureAndWounds
from game.ui.roster_editor.gear import Gear, Load
from game.ui.roster_editor.part import EditorHost, Part
from game.ui.roster_editor.sides import SidesAndFigures
from game.ui.roster_editor.skills import Skills
from game.ui.roster_editor.spells import Spells
from game.ui.screen import TRANSITIONS, Pop, Push, Screen, Transition, UiContext
from game.ui.widgets import Button, ScrollList, Tooltip, draw_scroll_bar

FOOTER = (
    "Ctrl+S save · Ctrl+Shift+S save as · Ctrl+N add · Ctrl+D copy · F2 rename · Delete · "
    "↑/↓ character · Ctrl+M spell · Ctrl+F footprint · Ctrl+K kind · Ctrl+W wound track "
    "(+Shift: back) · Ctrl+−/+ Scale · Esc close · hover for help"
)


class Frame(Part):
    """The screen's own part: the title, Save, Save as and Close, and the keys in the footer."""

    def __init__(self, editor: RosterEditor) -> None:
        super().__init__(editor)
        self.editor = editor
        self.footer_lines = 1
        self.footer_rect = pygame.Rect(0, 0, 0, 0)
        """Where the footer's lines are: no part reaches into it."""

    def layout(self, size: tuple[int, int]) -> None:
        """The title and buttons along the top, the footer along the bottom."""
        self.clear()
        s, ed, text = self.ui.s, self.editor, self.ui.text
        w, h = size
        m = s(16)
        lines = text.wrap(FOOTER, 12, w - 2 * m)[:2]
        for i, line in enumerate(reversed(lines)):
            self.text(line, (m, h - s(8) - i * text.line_height(12)), 12, theme.TEXT_MUTED, False, "bottomleft")
        self.footer_lines = len(lines)
        footer_top = h - s(8) - len(lines) * text.line_height(12)
        self.footer_rect = pygame.Rect(0, footer_top, w, h - footer_top)
        bx = w - m
        header: tuple[tuple[str, str, Action, str], ...] = (
            ("close", "Close", ed.close, "Back (Esc); unsaved changes are asked about."),
            ("save_as", "Save as…", ed.save_as, f"Save under a new name in {rosters_dir()} (Ctrl+Shift+S)."),
            ("save", "Save", ed.save, f"Save to {ed.save_place()} (Ctrl+S)."),
        )
        for ident, label, action, tip in header:
            bx -= s(110)
            self.button(ident, label, pygame.Rect(bx, s(12), s(100), s(34)), action, tip, size=15)
            bx -= s(6)
        shipped = " (the game's own)" if ed.shipped else ""
        if ed.path is not None and is_campaign_copy(ed.path):
            shipped = " (your campaign copy)"
        title = "Roster editor — " + (ed.path.name if ed.path else "new roster") + shipped + (" *" if ed.dirty else "")
        self.text(self.fit(title, 24, bx - m - s(12), True), (m, s(14)), 24, theme.ACCENT, True)
        self.rect = pygame.Rect(0, 0, w, s(50))


class Pages(Part):
    """In a small window the character's parts take turns beside the list: a tab for each page (Ctrl+Tab)."""

    def __init__(self, host: EditorHost) -> None:
        super().__init__(host)
        self.page = 0
        self.count = 0
        self.offset = 0
        """How far the page shown is scrolled, in pixels (a page taller than the window)."""
        self.overflow = 0
        """How much taller than its room the page shown is."""
        self.page_view = pygame.Rect(0, 0, 0, 0)
        """The room the page shown is scrolled through (empty when it fits)."""

    def clear(self) -> None:
        """No pages (a window large enough for every part)."""
        super().clear()
        self.count = 0
        self.overflow = 0
        self.page_view = pygame.Rect(0, 0, 0, 0)

    def draw(self, surface: pygame.Surface) -> None:
        """The tabs, and a scroll bar beside a page taller than its room."""
        super().draw(surface)
        view = self.page_view
        if self.overflow and view.height:
            s = self.ui.s
            track = pygame.Rect(view.right + s(6), view.y, s(4), view.height)
            draw_scroll_bar(surface, track, view.height, view.height + self.overflow, self.offset, self.overflow, s(16))

    def show(self, page: int) -> bool:
        """Show another page (from its top)."""
        page = page % self.count if self.count else 0
        if page != self.page:
            self.offset = 0
        self.page = page
        self.host.layout()
        return True

    def scroll_list(self, ident: str, step: int) -> bool:
        """Scroll the page shown by ``step`` notches of the mouse wheel (when it is taller than the window)."""
        if ident != "page":
            return super().scroll_list(ident, step)
        self.offset = max(0, min(self.overflow, self.offset + step * self.ui.s(48)))
        self.host.layout()
        return True

    def on_key(self, event: pygame.event.Event) -> Transition | bool | None:
        """Ctrl+Tab the next page, Ctrl+Shift+Tab the previous one; Page Up / Down scroll a tall page."""
        if self.count and event.mod & pygame.KMOD_CTRL and event.key == pygame.K_TAB:
            return self.show(self.page + (-1 if event.mod & pygame.KMOD_SHIFT else 1))
        if self.overflow and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            return self.scroll_list("page", 4 if event.key == pygame.K_PAGEDOWN else -4)
        return None

    def layout(self, x: int, top: int, width: int, titles: list[tuple[str, str]]) -> int:
        """The tabs (title, tooltip) from ``top``; the y below them."""
        self.clear()
        s = self.ui.s
        self.count = len(titles)
        self.page = min(self.page, self.count - 1)
        tabs = [
            (f"page.{i}", title, partial(self.show, i), f"{tip} (Ctrl+Tab: the next page).")
            for i, (title, tip) in enumerate(titles)
        ]
        end = self.button_row(tabs, x, top, width, height=28, size=13)  # two rows when the names need them
        self.buttons[f"page.{self.page}"].focused = True
        self.rect = pygame.Rect(x, top, width, end - top)
        return end + s(10)


class RosterEditor(Screen):
    """Edit a roster's characters, sides and figures; save to its file or to a new one (package doc).

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
        if self.shipped and path is not None:
            self.status = (
                f"{path.name} is one of the game's own rosters, which the game never changes: Save writes your copy, "
                f"{campaign_copy_of(path)}."
            )
        self.tooltip: Tooltip = Tooltip()
        self.mouse = (0, 0)
        self.paged = False
        """Whether the last layout put the character's parts on pages (``compact``)."""
        self.paged_at: tuple[int, int] = (0, 0)
        """The window size at which a character's parts did not fit side by side (pages stay at that size)."""
        self.frame = Frame(self)
        self.character_list = CharacterList(self)
        self.sides_and_figures = SidesAndFigures(self)
        self.pages = Pages(self)
        self.attributes = Attributes(self)
        self.skills = Skills(self)
        self.creature = CreatureAndWounds(self)
        self.gear = Gear(self)
        self.spells = Spells(self)
        self.load = Load(self)
        self.parts: tuple[Part, ...] = (
            self.frame,
            self.pages,
            self.character_list,
            self.sides_and_figures,
            self.attributes,
            self.skills,
            self.creature,
            self.gear,
            self.spells,
            self.load,
        )
        """Every part, in the order they take events and are drawn."""

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
        if isinstance(table, dict) and STANDS_IN_FOR in table:
            # which figure plays the entry is the whole roster's business (``problem``), not the character's
            table = {k: v for k, v in table.items() if k != STANDS_IN_FOR}
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

    # --- what the parts ask of the screen ------------------------------------------------------------
    def changed(self, status: str = "") -> bool:
        """Mark the roster edited and lay the screen out again."""
        self.dirty = True
        self.status, self.status_error = status, False
        self.layout()
        return True

    def refuses(self, field: str, value: object, old: object = None) -> bool:
        """Whether the value is outside the field's range (``game.engine.limits``, the ranges the roster reader
        holds every roster to) while the ``old`` one was not: then the status line says why and the caller
        changes nothing. A value the file already had out of range may be stepped back towards the range."""
        problem = check_value(field, value)
        if problem is None or (old is not None and check_value(field, old) is not None):
            return False
        self.set_status(f"Not changed: {field.replace('_', ' ')}: {problem}.", error=True)
        return True

    def set_field(self, name: str, value: Any, default: Any = None) -> bool:
        """Set a field of the selected character; ``None`` or ``default`` leaves it out, as rosters write it.
        A value outside the field's range is refused (``refuses``)."""
        table = self.current
        if table is None:
            return False
        if value is not None and self.refuses(name, value, table.get(name)):
            return False
        if value is None or value == default:
            table.pop(name, None)
        else:
            table[name] = value
        return self.changed()

    def names(self, field: str) -> list[Any]:
        """A list field of the selected character (one string counts as a list of one)."""
        table = self.current
        assert table is not None
        value = table.get(field, [])
        if isinstance(value, str):
            value = [value]
        return list(value) if isinstance(value, list) else []

    def set_names(self, field: str, values: list[Any]) -> bool:
        """Write a list field of the selected character (left out when empty)."""
        return self.set_field(field, values if values else None)

    def remove_at(self, field: str, index: int) -> bool:
        """Remove one entry of a list field (weapons, armour, gifts, faults, spells)."""
        values = self.names(field)
        if 0 <= index < len(values):
            del values[index]
        return self.set_names(field, values)

    def select(self, key: str) -> None:
        """Show this character (its lists from the top)."""
        if key != self.selected:
            for part in self.parts:
                part.character_selected()
        self.selected = key
        self.layout()

    def set_status(self, text: str, error: bool = False) -> None:
        """Say something in the status line (an error in red)."""
        self.status, self.status_error = text, error

    def rename_character(self) -> Transition | None:
        """Ask the selected character's new name (the character list does it)."""
        return self.character_list.rename_character()

    def character_removed(self, key: str) -> None:
        """Tell every part that a character left the roster."""
        for part in self.parts:
            part.character_removed(key)

    def error_field(self) -> str:
        """The roster field the selected character's error is about ('' when it has none)."""
        if self.selected is None:
            return ""
        match = FIELD_ERROR.search(self.check(self.selected)[1])
        return match.group(1).split(".")[0] if match else ""

    def field_errors(self) -> dict[str, str]:
        """The selected character's error, by section of the screen (for the text beside the field)."""
        if self.selected is None:
            return {}
        _, error = self.check(self.selected)
        if not error:
            return {}
        match = FIELD_ERROR.search(error)
        if match is None:
            return {"name": error}
        field = match.group(1).split(".")[0]
        return {SECTION_OF.get(field, "name"): match.group(2)}

    # --- what the parts show, gathered --------------------------------------------------------------
    @property
    def buttons(self) -> dict[str, Button]:
        """Every button on the screen by its id ("attr.strength.+", "save", ...)."""
        return {ident: b for part in self.parts for ident, b in part.buttons.items()}

    @property
    def texts(self) -> list[TextItem]:
        """Every label on the screen."""
        return [t for part in self.parts for t in part.texts]

    @property
    def hover_tips(self) -> list[tuple[pygame.Rect, str]]:
        """Every area with a tooltip that is not a button."""
        return [t for part in self.parts for t in part.hover_tips]

    @property
    def sections(self) -> dict[str, tuple[int, int, int]]:
        """Where an error about each section of the character is written."""
        return {k: v for part in self.parts for k, v in part.sections.items()}

    @property
    def scroll(self) -> dict[str, int]:
        """The first row shown of each list the window is too short for ("skills", "spells")."""
        return {k: v for part in self.parts for k, v in part.scroll.items()}

    @property
    def scroll_areas(self) -> dict[str, pygame.Rect]:
        """Where the mouse wheel scrolls each of those lists."""
        return {k: v for part in self.parts for k, v in part.scroll_areas.items()}

    @property
    def char_list(self) -> ScrollList:
        """The list of characters."""
        return self.character_list.list

    @property
    def load_rect(self) -> pygame.Rect:
        """The load panel."""
        return self.load.rect

    @property
    def load_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The load panel's lines (FTC 5.1.1)."""
        return self.load.load_lines

    @property
    def encumbrance_text(self) -> str:
        """The encumbrance line of the load panel (FTC 5.1.1 table 2)."""
        return self.load.encumbrance_text

    @property
    def allowance(self) -> int | None:
        """The movement allowance the load leaves (FTC 5), None while the character has an error."""
        return self.load.allowance

    # --- saving -------------------------------------------------------------------------------------
    @property
    def shipped(self) -> bool:
        """Whether the roster open is one of the game's own files (never written: Save writes its campaign
        copy in the user's data folder instead, ``game.roster.writable_roster``)."""
        return self.path is not None and in_game_folder(self.path)

    def save_place(self) -> str:
        """Where Save writes, in words (a shipped roster: its copy in the user's data folder)."""
        if self.path is None:
            return "a new file"
        if self.shipped:
            return f"your copy of this roster, {campaign_copy_of(self.path)} (the game's own file is never changed)"
        return str(self.path)

    def save(self, path: Path | None = None, *, replace_copy: bool = False) -> Transition | None:
        """Check the whole roster and write it (atomically); a problem is a dialog and nothing is written.

        A roster shipped with the game is never changed: the edits go to its campaign copy in the user's data
        folder, which New battle then uses for the map; a dialog says the copy was made and where. A copy that
        exists already (it may carry wounds from a battle) is replaced only once the player says so."""
        target = path or self.path
        if target is None:
            return self.save_as()
        problem = self.problem()
        if problem:
            self.status, self.status_error = "Not saved: " + problem, True
            return Push(
                MessageDialog(self.ui, "Cannot save the roster", f"{problem}\n\nNothing was saved.", error=True)
            )
        shipped = in_game_folder(target)
        copy = campaign_copy_of(target)
        if shipped and copy.is_file() and not replace_copy:
            return Push(
                MessageDialog(
                    self.ui,
                    "Replace your copy?",
                    f"{target.name} is one of the game's own files, which the game never changes, and your copy "
                    f"of it exists already at {copy} (it may carry wounds from your last battle). Replace that "
                    "copy with this roster?",
                    (("Cancel", None), ("Replace", lambda: self.save(target, replace_copy=True))),
                )
            )
        try:
            written, _, made = writable_roster(target)
            try:
                save_roster(written, self.data)
            except RosterError:
                if made:
                    written.unlink(missing_ok=True)
                raise
        except RosterError as exc:
            self.status, self.status_error = str(exc), True
            return Push(MessageDialog(self.ui, "Cannot save the roster", str(exc), error=True))
        self.path = written
        self.dirty = False
        self.status, self.status_error = f"Saved to {written}.", False
        if self.on_saved is not None:
            self.on_saved(written)
        self.layout()
        if not shipped:
            return None
        self.status = f"Saved to your copy of {target.name}: {written}."
        return Push(
            MessageDialog(
                self.ui,
                "Saved to your copy",
                f"{target.name} is one of the game's own files, which the game never changes. Your edits were "
                f"saved to a copy in your data folder:\n\n{written}\n\nNew battle uses this copy for the "
                'map from now on (its roster button "As shipped" plays the original); wounds saved after a '
                "battle go to the same copy.",
            )
        )

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

    @property
    def content_bottom(self) -> int:
        """The lowest y the columns may fill: above the footer and two lines of status."""
        text = self.ui.text
        return self.size[1] - self.ui.s(14) - self.frame.footer_lines * text.line_height(12) - 2 * text.line_height(13)

    def columns(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
        """The x and width of the three columns: the lists, the character, the gear (narrower lists and gear
        in a narrow window; the attributes need two label-and-stepper columns side by side)."""
        s = self.ui.s
        w = self.size[0]
        m = s(16)
        aw = max(s(200), min(s(290), (w - 2 * m) * 24 // 100))
        bx0 = m + aw + s(24)
        rest = w - bx0 - m - s(24)
        bw_col = min(max(rest * 47 // 100, s(420)), rest - s(280))
        cx0 = bx0 + bw_col + s(24)
        return (m, aw), (bx0, bw_col), (cx0, w - cx0 - m)

    def compact(self) -> bool:
        """Whether the character's parts take turns on pages beside the character list: in a window below
        1000 × 600 (at UI scale 1), or when the character's parts side by side would not fit above the
        status line."""
        return self.paged

    def pages_of(self) -> list[tuple[str, str, tuple[Part, ...]]]:
        """The pages of a small window: title, tooltip and the parts on it."""
        return [
            ("Attributes", "Name, attributes and Scale", (self.attributes,)),
            ("Skills", "Skills, gifts and faults", (self.skills,)),
            ("Creature", "Footprint, kind, head, wound track, Tough Hide and carried wounds", (self.creature,)),
            ("Gear", "Weapons, armour, shield and other gear", (self.gear,)),
            ("Spells", "Spells, and the load and movement", (self.spells, self.load)),
            ("Sides", "The roster's sides and the figures it sets up", (self.sides_and_figures,)),
        ]

    def layout(self) -> None:
        """Lay every part out for the current data (cheap: a few dozen widgets)."""
        if self.size == (0, 0):
            return
        s = self.ui.s
        top = s(64)
        for part in self.parts:
            part.clear()
        self.frame.layout(self.size)
        (ax, aw), (bx, _), _ = self.columns()
        table = self.current
        bottom = self.content_bottom
        small = self.size[0] < s(1000) or self.size[1] < s(600)
        # once one character needed pages at this size, every character gets them (no flipping while ↑/↓)
        self.paged = small or self.paged_at == self.size or not self._layout_columns(table, top, bottom)
        if self.paged and not small:
            self.paged_at = self.size
        if not self.paged and table is None:
            self.frame.text("No character selected: Add one (Ctrl+N).", (bx, top), 16, theme.TEXT_MUTED)
        if self.paged:  # the character list alone; the sides and figures are a page
            for part in self.parts[1:]:
                part.clear()
            self.character_list.layout(ax, top, aw, bottom=self.frame.footer_rect.top - s(8))
            self._layout_page(table, bx, top, min(self.size[0] - bx - s(16), s(640)), bottom)

    def _layout_columns(self, table: dict[str, Any] | None, top: int, bottom: int) -> bool:
        """The parts in three columns; False when they do not fit above ``bottom`` (the status line)."""
        s = self.ui.s
        (ax, aw), (bx, bw), (cx, cw) = self.columns()
        sides = self.sides_and_figures.layout(ax, 0, aw, s(68))  # measured: its buttons may wrap
        y = self.character_list.layout(ax, top, aw, bottom=self.frame.footer_rect.top - s(20) - sides)
        end = self.sides_and_figures.layout(ax, y + s(12), aw, s(68))
        if table is None:
            return end <= self.frame.footer_rect.top
        y = self.attributes.layout(table, bx, top, bw)
        y = self.skills.layout(table, bx, y, bw, bottom - s(8) - s(CREATURE_PANEL_HEIGHT))
        self.creature.layout(table, bx, y + s(8), bw)
        y = self.gear.layout(table, cx, top, cw)
        load_height = self.load.layout(cx, 0, cw)  # measured first: its lines wrap in a narrow column
        y = self.spells.layout(cx, y, cw, bottom - max(s(LOAD_PANEL_HEIGHT), load_height) - s(8))
        self.load.layout(cx, y + s(8), cw)
        character = (self.attributes, self.skills, self.creature, self.gear, self.spells, self.load)
        return end <= self.frame.footer_rect.top and all(p.rect.bottom <= bottom for p in character)

    def _layout_page(self, table: dict[str, Any] | None, x: int, top: int, width: int, bottom: int) -> None:
        """A small window: the tabs, then the parts of the page shown, scrolled through the room left when
        the page is taller than that (mouse wheel, Page Up / Down)."""
        error = self.error_field()
        wrong = SECTION_OF.get(error, "name") if error else ""
        pages = self.pages_of()
        titles = [
            (("⚠ " if wrong and any(wrong in p.SECTIONS for p in parts) else "") + title, tip)
            for title, tip, parts in pages
        ]
        y = self.pages.layout(x, top, width, titles)
        shown = pages[self.pages.page][2]
        if table is None and self.sides_and_figures not in shown:
            self.frame.text("No character selected: Add one (Ctrl+N).", (x, y), 16, theme.TEXT_MUTED)
            return
        end = self._place(table, shown, x, y, width, bottom)
        overflow = end - bottom
        self.pages.overflow = max(0, overflow)
        self.pages.offset = max(0, min(self.pages.offset, self.pages.overflow))
        if overflow <= 0:
            return
        if self.pages.offset:
            self._place(table, shown, x, y - self.pages.offset, width, bottom - self.pages.offset)
        view = pygame.Rect(x, y - self.ui.s(6), width, bottom - y + self.ui.s(6))  # headers' buttons sit 4 above
        for part in shown:
            part.show_through(view)
        self.pages.scroll_areas["page"] = view
        self.pages.page_view = view

    def _place(
        self, table: dict[str, Any] | None, shown: tuple[Part, ...], x: int, y: int, width: int, bottom: int
    ) -> int:
        """Lay the parts of one page out from ``y`` (their lists scroll when they would pass ``bottom``);
        the y below them."""
        s = self.ui.s
        if self.sides_and_figures in shown or table is None:
            return self.sides_and_figures.layout(x, y, width, s(90))
        end = y
        if self.attributes in shown:
            end = self.attributes.layout(table, x, y, width)
        if self.skills in shown:
            end = self.skills.layout(table, x, y, width, bottom)
        if self.creature in shown:
            end = self.creature.layout(table, x, y, width)
        if self.gear in shown:
            end = self.gear.layout(table, x, y, width)
        load_height = self.load.layout(x, 0, width)  # its numbers follow every change, shown or not
        if self.spells in shown:
            y = self.spells.layout(x, y, width, bottom - max(s(LOAD_PANEL_HEIGHT), load_height) - s(8))
            end = self.load.layout(x, y + s(8), width)
        else:
            self.load.clear()
        return end

    # --- events -------------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """The screen's keys (Esc, Ctrl+S), then each part's keys, lists and buttons."""
        result = self._dispatch(event)
        if isinstance(result, Push):
            self.tooltip.hover("", (0, 0))  # the dialog covers what the tip was about
        return result

    def _dispatch(self, event: pygame.event.Event) -> Transition | None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return self.close()
            if event.mod & pygame.KMOD_CTRL and event.key == pygame.K_s:
                return self.save_as() if event.mod & pygame.KMOD_SHIFT else self.save()
            for part in self.parts:
                answer = part.on_key(event)
                if answer is not None:
                    return answer if isinstance(answer, TRANSITIONS) else None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        for part in self.parts:
            if not part.rect.width:  # not shown (another page, or no character)
                continue
            answer = part.handle(event)
            if isinstance(answer, TRANSITIONS):
                return answer
            if answer is True:
                self.layout()
                self._rehover()
                return None
        if event.type == pygame.MOUSEMOTION:
            self.tooltip.hover(self._tip_at(event.pos), event.pos)
        return None

    def _tip_at(self, pos: tuple[int, int]) -> str:
        buttons = next((b.hint for b in self.buttons.values() if b.hovered and b.hint), "")
        return buttons or next((t for r, t in self.hover_tips if r.collidepoint(pos)), "")

    def _rehover(self) -> None:
        """After a click re-lays the buttons out, the new button under the mouse is the hovered one and the
        tooltip says what it says now (the next wound track, not the one just left)."""
        for b in self.buttons.values():
            b.hovered = b.visible and b.rect.collidepoint(self.mouse)
        self.tooltip.refresh(self._tip_at(self.mouse))

    # --- drawing ------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The parts, each error beside its field, the status line and the tooltip."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        for part in self.parts:
            if part.rect.width:
                part.draw(surface)
        sections = self.sections
        for section, message in self.field_errors().items():
            where = sections.get(section, sections.get("name"))
            if where is None:  # on a page not shown: its tab and the status line say it
                continue
            x, y, right = where
            shown = "⚠ " + message
            while len(shown) > 8 and text.width(shown, 12) > right - x:
                shown = shown[:-4] + "…"
            text.blit(surface, shown, (x, y + s(1)), 12, theme.DANGER)
        w, h = surface.get_size()
        status = self.status
        colour = theme.DANGER if self.status_error else theme.TEXT_MUTED
        if not status and self.selected is not None:
            error = self.check(self.selected)[1]
            status, colour = (error, theme.DANGER) if error else ("", colour)
        if status:
            x0 = self.char_list.rect.right + s(24)
            lines = text.wrap(status, 13, w - x0 - s(16))[:3]
            y = h - s(11) - self.frame.footer_lines * text.line_height(12) - len(lines) * text.line_height(13)
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
