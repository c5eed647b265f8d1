"""One part of the roster editor's screen, and what a part may ask of the screen.

Each part (the character list, the attributes, the creature and wounds, the gear, the spells, the sides and
figures, the load) owns its rectangle, its buttons and labels, its input and its drawing. Parts never talk to
each other: what they share (the roster's data, the selected character, the status line, a new layout) goes
through the screen, seen here as ``EditorHost``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Sized
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

import pygame

from game.engine.characters import Character
from game.ui import theme
from game.ui.labels import Labels, TextItem
from game.ui.screen import Transition, UiContext, press, transition_of
from game.ui.widgets import Button, ScrollList


@dataclass(frozen=True)
class ListHeading:
    """The heading of one of the character's lists (weapons, armour, skills, spells): the section it shows,
    its title, and its Add… button (id ``<noun>.add``, label ``Add <noun>…``, ``width`` wide before scaling)
    with the button's tooltip. ``Part.list_header`` lays it out."""

    section: str
    title: str
    noun: str
    tip: str
    width: int = 104


class EditorHost(Protocol):
    """What the roster editor's screen offers its parts: the roster being edited and the screen's services."""

    ui: UiContext
    data: dict[str, Any]
    selected: str | None
    mouse: tuple[int, int]

    @property
    def characters(self) -> dict[str, Any]:
        """The roster's ``[characters]`` table."""
        ...

    @property
    def sides(self) -> dict[str, Any]:
        """The roster's ``[sides]`` table."""
        ...

    @property
    def figures(self) -> list[Any]:
        """The roster's ``[[figures]]`` entries."""
        ...

    @property
    def current(self) -> dict[str, Any] | None:
        """The selected character's table."""
        ...

    def check(self, key: str) -> tuple[Character | None, str]:
        """One character read as a battle would: it, or the error."""
        ...

    def changed(self, status: str = "") -> bool:
        """Mark the roster edited and lay the screen out again."""
        ...

    def refuses(self, field: str, value: object, old: object = None) -> bool:
        """Whether a new value is outside the field's range (then the status line says why)."""
        ...

    def set_field(self, name: str, value: Any, default: Any = None) -> bool:
        """Set a field of the selected character (left out when it is ``default``)."""
        ...

    def names(self, field: str) -> list[Any]:
        """A list field of the selected character (weapons, armour, gifts, faults, spells)."""
        ...

    def set_names(self, field: str, values: list[Any]) -> bool:
        """Write a list field of the selected character (left out when empty)."""
        ...

    def remove_at(self, field: str, index: int) -> bool:
        """Remove one entry of a list field."""
        ...

    def select(self, key: str) -> None:
        """Show this character."""
        ...

    def set_status(self, text: str, error: bool = False) -> None:
        """Say something in the status line."""
        ...

    def error_field(self) -> str:
        """The roster field the selected character's error is about ('' when it has none)."""
        ...

    def layout(self) -> None:
        """Lay every part out again (after a change)."""
        ...

    def rename_character(self) -> Transition | None:
        """Ask the selected character's new name."""
        ...

    def character_removed(self, key: str) -> None:
        """Tell every part that a character left the roster."""
        ...


class Part(Labels):
    """A part of the editor: its rectangle, its widgets and labels (rebuilt by ``layout``), input and drawing."""

    SECTIONS: tuple[str, ...] = ()
    """The sections of a character the part shows (where an error about them is written)."""

    def __init__(self, host: EditorHost) -> None:
        self.host = host
        self.ui = host.ui
        self.rect = pygame.Rect(0, 0, 0, 0)
        """Where the part lays itself out (the test of overlapping columns reads it)."""
        self.buttons: dict[str, Button] = {}
        self.texts: list[TextItem] = []
        self.sections: dict[str, tuple[int, int, int]] = {}
        """Where an error about a section of the character is written: x, y and the right edge."""
        self.hover_tips: list[tuple[pygame.Rect, str]] = []
        self.scroll: dict[str, int] = {}
        """First row shown of each list the window is too short for ("skills", "spells")."""
        self.scroll_areas: dict[str, pygame.Rect] = {}
        self.lists: tuple[ScrollList, ...] = ()
        self.view: pygame.Rect | None = None
        """The window onto the part when it is taller than its room (a scrolled page): drawn clipped to it,
        and only the buttons wholly inside it are shown."""

    # --- the screen's calls -----------------------------------------------------------------------
    def clear(self) -> None:
        """Forget the last layout (before a new one, or when the part has nothing to show)."""
        self.buttons, self.texts, self.sections, self.hover_tips, self.scroll_areas = {}, [], {}, [], {}
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.view = None

    @property
    def area(self) -> pygame.Rect:
        """What the part covers on the screen: its rectangle, cut to its ``view`` when it has one."""
        return self.rect.clip(self.view) if self.view is not None else self.rect

    def show_through(self, view: pygame.Rect) -> None:
        """Show the part through ``view``: the buttons and tooltips outside it are hidden."""
        self.view = view
        for b in self.buttons.values():
            b.visible = view.contains(b.rect)
        self.hover_tips = [(r.clip(view), t) for r, t in self.hover_tips if r.colliderect(view)]
        self.sections = {k: v for k, v in self.sections.items() if view.top <= v[1] < view.bottom}

    def character_selected(self) -> None:
        """Another character is shown: its lists start at the top."""
        self.scroll = {}

    def character_removed(self, key: str) -> None:
        """A character left the roster (a part keeping something per character forgets it)."""

    def on_key(self, event: pygame.event.Event) -> Transition | bool | None:
        """The part's keyboard shortcuts: a transition, True when handled, None when not the part's key."""
        return None

    def handle(self, event: pygame.event.Event) -> Transition | bool | None:
        """Lists, buttons and the mouse wheel: a button's transition, True after a click that changed
        something (the screen lays out again), else None."""
        for lst in self.lists:
            lst.handle(event)
        b = press(self.buttons.values(), event)
        if b is not None:
            return transition_of(b.result) or True
        if event.type == pygame.MOUSEWHEEL:
            area = next((k for k, r in self.scroll_areas.items() if r.collidepoint(self.host.mouse)), None)
            if area is not None:
                return self.scroll_list(area, -event.y)  # one list scrolls, not the page around it too
        return None

    def tip_at(self, pos: tuple[int, int]) -> str:
        """The tooltip of what is under ``pos`` in this part ('' for nothing)."""
        tip = next((b.hint for b in self.buttons.values() if b.hovered and b.hint), "")
        return tip or next((t for r, t in self.hover_tips if r.collidepoint(pos)), "")

    def draw(self, surface: pygame.Surface) -> None:
        """The part's lists, labels and buttons."""
        text = self.ui.text
        clip = surface.get_clip()
        if self.view is not None:
            surface.set_clip(self.view.clip(clip))
        for lst in self.lists:
            lst.draw(surface, text)
        self.draw_under(surface)
        self.draw_texts(surface, text)
        for b in self.buttons.values():
            b.draw(surface, text)
        surface.set_clip(clip)

    def draw_under(self, surface: pygame.Surface) -> None:
        """What a part paints below its labels (a panel's background)."""

    # --- building the layout ------------------------------------------------------------------------
    def button(
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
        """A button of the part, found again by ``ident``."""
        b = Button(label, action, rect, tooltip=tooltip, size=size, enabled=enabled, hotkey=hotkey)
        self.buttons[ident] = b
        return b

    def button_row(
        self,
        rows: Sequence[tuple[str, str, Callable[[], object], str]],
        x: int,
        y: int,
        width: int,
        *,
        height: int = 26,
        size: int = 12,
        enabled: Callable[[str], bool] = lambda ident: True,
    ) -> int:
        """Buttons (id, label, action, tooltip) side by side across ``width``, wrapped onto more rows when
        their labels would not fit; the y below them."""
        s = self.ui.s
        gap = s(6)
        widest = max(self.ui.text.width(label, size, True) for _, label, _, _ in rows) + s(10)
        across = len(rows)
        while across > 1 and (width - gap * (across - 1)) // across < widest:
            across = (across + 1) // 2 if across > 2 else 1
        bw = (width - gap * (across - 1)) // across
        for i, (ident, label, action, tip) in enumerate(rows):
            rect = pygame.Rect(x + (i % across) * (bw + gap), y + (i // across) * (s(height) + gap), bw, s(height))
            self.button(ident, label, rect, action, tip, size=size, enabled=enabled(ident))
        lines = -(-len(rows) // across)
        return y + lines * s(height) + (lines - 1) * gap

    def header(self, section: str, title: str, x: int, y: int, right: int) -> None:
        """A section's title; an error about the section is written after it, up to ``right``."""
        title = self.fit(title, 13, right - x, True)
        self.text(title, (x, y), 13, theme.ACCENT, True)
        self.sections[section] = (x + self.ui.text.width(title, 13, True) + self.ui.s(10), y, right)

    def list_header(self, heading: ListHeading, add: Callable[[], object], x: int, y: int, right: int) -> int:
        """A list's title (``header``) at ``y`` with its Add… button (which runs ``add``) at the right edge
        ``right``; the y where the list's rows start."""
        s = self.ui.s
        self.header(heading.section, heading.title, x, y, right - s(110))
        rect = pygame.Rect(right - s(heading.width), y - s(4), s(heading.width), s(24))
        self.button(f"{heading.noun}.add", f"Add {heading.noun}…", rect, add, heading.tip)
        return y + s(22)

    def empty_note(self, entries: Sized, note: str, x: int, y: int) -> int:
        """Under a list's heading at ``y``, what an empty list means (``note``: "none", "none: fights with the
        fist"); the y below it, ``y`` itself when the list has entries."""
        if len(entries):
            return y
        self.text(note, (x, y + self.ui.s(2)), 13, theme.TEXT_MUTED)
        return y + self.ui.s(24)

    def remove_button(self, ident: str, x: int, y: int, action: Callable[[], object], tip: str, side: int = 24) -> None:
        """A row's × button (it removes the row) at ``x``, ``y``, ``side`` pixels square (before scaling)."""
        self.button(ident, "×", pygame.Rect(x, y, self.ui.s(side), self.ui.s(side)), action, tip)

    def stepper(
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
        """−, the value, + (buttons ``ident.-`` and ``ident.+``); the x after it. A value too wide for its
        place (Legendary+3) is written smaller, down to size 11, rather than run under the buttons."""
        s = self.ui.s
        more = f" {tip}" if tip else ""
        self.button(f"{ident}.-", "−", pygame.Rect(x, y, s(24), s(24)), minus, f"{what}: one step down.{more}")
        room = s(width) + s(2)
        size = next((n for n in (14, 13, 12, 11) if self.ui.text.width(value, n, True) <= room), 11)
        shown = self.fit(value, size, room, True)
        self.text(shown, (x + s(26) + s(width) // 2, y + s(12)), size, colour, True, "center")
        if shown != value:
            more += f" Now {value}."
        self.button(
            f"{ident}.+", "+", pygame.Rect(x + s(28) + s(width), y, s(24), s(24)), plus, f"{what}: one step up.{more}"
        )
        return x + s(56) + s(width)

    def fit(self, value: str, size: int, room: int, bold: bool = False) -> str:
        """The text cut with "…" to fit ``room`` pixels (narrow windows; the tooltip or status has it whole)."""
        return self.ui.text.fit(value, size, room, bold)

    def first_row(self, ident: str, total: int, rows: int) -> int:
        """The first row shown of a list of ``total`` rows of which ``rows`` fit."""
        first = max(0, min(self.scroll.get(ident, 0), total - rows))
        self.scroll[ident] = first
        return first

    def scroll_list(self, ident: str, step: int) -> bool:
        """Scroll a list the window is too short for ("skills", "spells") by ``step`` rows."""
        self.scroll[ident] = max(0, self.scroll.get(ident, 0) + step)
        self.host.layout()
        return True

    def pager(self, ident: str, first: int, rows: int, total: int, x: int, y: int, right: int) -> None:
        """ "3–5 of 9" and ▲ ▼ under a list the window is too short for."""
        s = self.ui.s
        self.text(f"{first + 1}–{first + rows} of {total}: scroll for more", (x, y + s(3)), 12, theme.TEXT_MUTED)
        self.button(
            f"{ident}.up",
            "▲",
            pygame.Rect(right - s(56), y, s(24), s(22)),
            partial(self.scroll_list, ident, -1),
            "Show the rows above (mouse wheel).",
            enabled=first > 0,
        )
        self.button(
            f"{ident}.down",
            "▼",
            pygame.Rect(right - s(28), y, s(24), s(22)),
            partial(self.scroll_list, ident, 1),
            "Show the rows below (mouse wheel).",
            enabled=first + rows < total,
        )
