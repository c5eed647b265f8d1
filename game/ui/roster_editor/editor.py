"""The roster editor's screen: the coordinator over its parts (the package's doc says what each part does).

The screen holds the roster being edited and what the parts share through it (``EditorHost``): the selected
character, the status line, saving, and a new layout after every change. It places the parts in three
columns — the character list above the sides and figures; the attributes above the creature and wounds; the
gear above the spells above the load — and hands them the events, each part its own.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from game.engine.characters import Character
from game.roster import RosterError, parse_roster, read_roster_data, save_roster
from game.ui import theme
from game.ui.dialogs import MessageDialog
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
from game.ui.roster_editor.part import TRANSITIONS, Part, TextItem
from game.ui.roster_editor.sides import SidesAndFigures
from game.ui.roster_editor.spells import Spells
from game.ui.screen import Pop, Push, Screen, Transition, UiContext
from game.ui.widgets import Button, ScrollList, Tooltip

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

    def layout(self, size: tuple[int, int]) -> None:
        """The title and buttons along the top, the footer along the bottom."""
        self.clear()
        s, ed = self.ui.s, self.editor
        w, h = size
        m = s(16)
        lines = self.ui.text.wrap(FOOTER, 12, w - 2 * m)[:2]
        for i, line in enumerate(reversed(lines)):
            self.text(line, (m, h - s(8) - i * self.ui.text.line_height(12)), 12, theme.TEXT_MUTED, False, "bottomleft")
        self.footer_lines = len(lines)
        title = "Roster editor — " + (ed.path.name if ed.path else "new roster") + (" *" if ed.dirty else "")
        self.text(title, (m, s(14)), 24, theme.ACCENT, True)
        bx = w - m
        header: tuple[tuple[str, str, Action, str], ...] = (
            ("close", "Close", ed.close, "Back (Esc); unsaved changes are asked about."),
            ("save_as", "Save as…", ed.save_as, f"Save under a new name in {rosters_dir()} (Ctrl+Shift+S)."),
            ("save", "Save", ed.save, "Save to " + (str(ed.path) if ed.path else "a new file") + " (Ctrl+S)."),
        )
        for ident, label, action, tip in header:
            bx -= s(110)
            self.button(ident, label, pygame.Rect(bx, s(12), s(100), s(34)), action, tip, size=15)
            bx -= s(6)
        self.rect = pygame.Rect(0, 0, w, h)


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
        self.tooltip: Tooltip = Tooltip()
        self.mouse = (0, 0)
        self.frame = Frame(self)
        self.character_list = CharacterList(self)
        self.sides_and_figures = SidesAndFigures(self)
        self.attributes = Attributes(self)
        self.creature = CreatureAndWounds(self)
        self.gear = Gear(self)
        self.spells = Spells(self)
        self.load = Load(self)
        self.parts: tuple[Part, ...] = (
            self.frame,
            self.character_list,
            self.sides_and_figures,
            self.attributes,
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

    def set_field(self, name: str, value: Any, default: Any = None) -> bool:
        """Set a field of the selected character; ``None`` or ``default`` leaves it out, as rosters write it."""
        table = self.current
        if table is None:
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

    def layout(self) -> None:
        """Lay every part out for the current data (cheap: a few dozen widgets)."""
        if self.size == (0, 0):
            return
        s = self.ui.s
        h = self.size[1]
        top = s(64)
        for part in self.parts:
            part.clear()
        self.frame.layout(self.size)
        (ax, aw), (bx, bw), (cx, cw) = self.columns()
        y = self.character_list.layout(ax, top, aw, max(s(120), h - top - s(380)))
        self.sides_and_figures.layout(ax, y + s(12), aw)
        table = self.current
        if table is None:
            self.frame.text("No character selected: Add one (Ctrl+N).", (bx, top), 16, theme.TEXT_MUTED)
            return
        bottom = self.content_bottom
        y = self.attributes.layout(table, bx, top, bw, bottom - s(8) - s(CREATURE_PANEL_HEIGHT))
        self.creature.layout(table, bx, y + s(8), bw)
        y = self.gear.layout(table, cx, top, cw)
        y = self.spells.layout(cx, y, cw, bottom - s(LOAD_PANEL_HEIGHT) - s(8))
        self.load.layout(cx, y + s(8), cw)

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
            if part.rect.width or part.lists:
                part.draw(surface)
        sections = self.sections
        for section, message in self.field_errors().items():
            x, y, right = sections.get(section, sections.get("name", (0, 0, 0)))
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
