"""The combat log of the battle screen: the battle's events as coloured lines, wrapped to the column (never
cut), a new decision's lines released one by one (so a round's resolution plays out at the animation
speed), a click on a line highlighting the figures it names.

The log shows the events *as the seat at the screen sees them* (``game.engine.seats.events_for_seat``):
under secret stances another side's declaration reaches it without its stance, target or weapon until the
reveal (*Fudge* 4.32) — withheld at the source, not merely left unpainted. Hotseat rebuilds the log for
the next seat at the curtain (``rebuild``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from game.engine import events as ev
from game.engine.battle import Seat
from game.engine.seats import events_for_seat, view
from game.ui import theme
from game.ui.battle.common import LOG_DELAY, RGB, Entry, PartHost
from game.ui.battle.spellbook import cast_lines, log_colour
from game.ui.battle.words import name_hexes
from game.ui.mapdata import BoardData
from game.ui.widgets import ScrollList, TextCache, draw_panel

INDENT = 12
"""How far a wrapped entry's further rows are indented (unscaled pixels)."""


class WrappedLog(ScrollList):
    """A scroll list whose items are log entries wrapped into rows: ``select`` and ``on_select`` speak of
    entries, hovering or selecting an entry marks all its rows. Rows set directly (``set_items``) are one
    row per item, cut with "…" when too long, as in any list."""

    def __init__(self, text: TextCache, on_select: Callable[[int], object]) -> None:
        super().__init__(pygame.Rect(0, 0, 10, 10), size=13, follow_end=True, on_select=on_select)
        self.text = text
        self.row_entry: list[int] = []
        """The entry each row belongs to."""
        self.indented: list[bool] = []
        self._entries: list[tuple[str, RGB | None]] = []
        self._wraps: dict[tuple[str, int], list[str]] = {}

    def set_items(self, items: Sequence[str], colours: Sequence[RGB | None] | None = None) -> None:
        """Rows as given, one per item."""
        super().set_items(items, colours)
        self.row_entry = list(range(len(self.items)))
        self.indented = [False] * len(self.items)

    def set_entries(self, texts: Sequence[str], colours: Sequence[RGB | None]) -> None:
        """The log's entries, each wrapped to the column's width."""
        self._entries = list(zip(texts, colours, strict=True))
        self.rewrap()

    def rewrap(self) -> None:
        """Wrap the entries again (the column's width or the text scale changed). The rows' height is taken at
        the text's scale now, so that "scrolled to the end" shows the last row whole, not under the box."""
        self._line_height = self.text.line_height(self.size) + 2
        width = max(40, self.rect.width - 16 - round(INDENT * self.text.scale))
        rows: list[str] = []
        colours: list[RGB | None] = []
        owners: list[int] = []
        indented: list[bool] = []
        for i, (entry, colour) in enumerate(self._entries):
            key = (entry, width)
            parts = self._wraps.get(key)
            if parts is None:
                parts = self.text.wrap(entry, self.size, width) or [""]
                self._wraps[key] = parts
            for k, part in enumerate(parts):
                rows.append(part)
                colours.append(colour)
                owners.append(i)
                indented.append(k > 0)
        selected = self.row_entry[self.selected] if self.selected is not None and self.row_entry else None
        ScrollList.set_items(self, rows, colours)
        self.row_entry, self.indented = owners, indented
        self.selected = owners.index(selected) if selected is not None and selected in owners else None

    def select(self, index: int) -> None:
        """Select an entry (all its rows) and keep it in view."""
        if not self.items:
            return
        rows = [r for r, e in enumerate(self.row_entry) if e == index] or [min(max(0, index), len(self.items) - 1)]
        self.selected = rows[0]
        if rows[0] < self.scroll:
            self.scroll = rows[0]
        elif rows[-1] >= self.scroll + self.visible_rows:
            self.scroll = max(0, rows[-1] - self.visible_rows + 1)
        if self.on_select is not None:
            self.on_select(self.row_entry[rows[0]])

    def handle(self, event: pygame.event.Event) -> bool:
        """A click selects the entry under it; the rest as in any list."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self.index_at(event.pos)
            if i is not None:
                self.select(self.row_entry[i])
                return True
            return False
        return super().handle(event)

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """The visible rows, the hovered and selected entries marked across all their rows."""
        self._line_height = text.line_height(self.size) + 2
        draw_panel(surface, self.rect, theme.PANEL, theme.BORDER, radius=4)
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-2, -2))
        owner = self.row_entry
        chosen = owner[self.selected] if self.selected is not None and self.selected < len(owner) else None
        hovered = owner[self.hovered] if self.hovered is not None and self.hovered < len(owner) else None
        indent = round(INDENT * text.scale)
        y = self.rect.y + 4
        self._drawn_width = self.rect.width - 16
        first = self.scroll  # an entry's tail at the top, its first row scrolled away, is left out (blank)
        while 0 < first < len(self.items) - 1 and self.indented[first]:
            first += 1
        for i in range(self.scroll, min(len(self.items), self.scroll + self.visible_rows + 1)):
            if i < first:
                y += self._line_height
                continue
            row = pygame.Rect(self.rect.x + 2, y, self.rect.width - 4, self._line_height)
            if owner[i] == chosen:
                pygame.draw.rect(surface, theme.BUTTON_PRESSED, row)
            elif owner[i] == hovered:
                pygame.draw.rect(surface, theme.PANEL_LIGHT, row)
            colour = self.colours[i] if i < len(self.colours) and self.colours[i] else theme.TEXT
            x = self.rect.x + 8 + (indent if self.indented[i] else 0)
            line = self._fitted(text, self.items[i], self._drawn_width - (indent if self.indented[i] else 0))
            text.blit(surface, line, (x, y + 1), self.size, colour or theme.TEXT)
            y += self._line_height
        surface.set_clip(clip)
        if self.max_scroll > 0:
            track = self.rect.height - 8
            knob = max(16, track * self.visible_rows // max(1, len(self.items)))
            ky = self.rect.y + 4 + (track - knob) * self.scroll // self.max_scroll
            pygame.draw.rect(surface, theme.BORDER, (self.rect.right - 6, ky, 3, knob), border_radius=2)


class LogHost(PartHost, Protocol):
    """The battle screen as the log sees it: the seat at the screen (whose view of the battle the log tells),
    the map (hex names) and the board's view to rebuild when a line highlights its figures."""

    @property
    def seat(self) -> Seat: ...
    @property
    def data(self) -> BoardData: ...
    def invalidate(self) -> None: ...


class BattleLog:
    """The log column: ``entries`` shown, ``pending`` still to play out, the ``list`` that draws them."""

    def __init__(self, screen: LogHost) -> None:
        self.screen = screen
        self.model = screen.model
        self.list = WrappedLog(screen.ui.text, self._selected)
        self.entries: list[Entry] = []
        self.pending: list[Entry] = []
        self.events: list[ev.Event] = []
        """The events the log was built from, as the seat at the screen sees them."""
        self.timer = 0.0

    def entry(self, e: ev.Event) -> Entry:
        """One event as a log line: its text, the figures it names, its colour."""
        colour: RGB | None = None
        if isinstance(e, ev.RoundBegan | ev.PhaseBegan):
            colour = theme.ACCENT
        elif isinstance(e, ev.AttackResolved):
            colour = theme.DANGER if e.hit else theme.TEXT_MUTED
        elif isinstance(e, ev.Wounded | ev.TakenOut):
            colour = (240, 150, 90)
        elif isinstance(e, ev.BattleEnded):
            colour = theme.ACCENT
        colour = log_colour(e) or colour
        battle = self.model.battle
        text = name_hexes(e.text(battle.names()), battle, self.screen.data.layout, e.figures[0] if e.figures else None)
        return text, tuple(e.figures), colour

    def entries_for(self, events: list[ev.Event]) -> list[Entry]:
        """The log lines of events already seen from the seat at the screen (a caster's declaration names its
        spell, FTC 8); the faces the GM set for a coming roll are the GM's alone (*Fudge* 4.1) and stay out of
        this shared log."""
        events = [e for e in events if not ev.is_gm_only(e)]
        return cast_lines(self.model.battle, events, [self.entry(e) for e in events])

    def rebuild(self) -> None:
        """Every line of the battle as the seat at the screen sees it, shown at once (after a start, undo or
        load, and when hotseat hands the screen to another seat)."""
        self.events = list(view(self.model.battle, self.screen.seat).events)
        self.entries = self.entries_for(self.events)
        self.pending = []
        self.sync()

    def sync(self) -> None:
        """Show ``entries`` in the list, scrolled to the end."""
        self.list.set_entries([t for t, _, _ in self.entries], [c for _, _, c in self.entries])
        self.list.scroll = self.list.max_scroll

    def add(self, events: list[ev.Event], speed: float) -> None:
        """A decision's new lines, as the seat at the screen sees them: shown at once with animations off, else
        queued to play out."""
        seen = events_for_seat(self.model.battle, events, self.screen.seat)
        self.events.extend(seen)
        entries = self.entries_for(seen)
        if speed <= 0:
            self.entries.extend(entries)
            self.sync()
        else:
            self.pending.extend(entries)

    def release(self, dt: float, speed: float) -> bool:
        """Play out queued lines, one per ``LOG_DELAY`` at this speed, each highlighting its figures; True
        once the last one is out (the battle's state may be shown then)."""
        self.timer += dt
        step = LOG_DELAY / speed if speed > 0 else 0.0
        while self.pending and (step == 0.0 or self.timer >= step):
            self.timer -= step
            entry = self.pending.pop(0)
            self.entries.append(entry)
            self.model.highlight = frozenset(entry[1])
            self.screen.invalidate()
        self.sync()
        if not self.pending:
            self.timer = 0.0
            return True
        return False

    def _selected(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            self.model.highlight = frozenset(self.entries[index][1])
            self.screen.invalidate()

    def layout(self, rect: pygame.Rect) -> None:
        """The log's place at the foot of the right column (kept scrolled to its end if it was)."""
        at_end = self.list.scroll >= self.list.max_scroll
        self.list.rect = rect
        self.list.rewrap()
        if at_end:  # the log was scrolled to its end for the old height; keep the latest entries in view
            self.list.scroll = self.list.max_scroll
