"""The combat log of the battle screen: the battle's events as coloured lines, a new decision's lines
released one by one (so a round's resolution plays out at the animation speed), a click on a line
highlighting the figures it names."""

from __future__ import annotations

import pygame

from game.engine import events as ev
from game.ui import theme
from game.ui.battle.common import LOG_DELAY, RGB, BattleHost, Entry
from game.ui.battle.spellbook import cast_lines, log_colour
from game.ui.widgets import ScrollList, TextCache


class BattleLog:
    """The log column: ``entries`` shown, ``pending`` still to play out, the ``list`` that draws them."""

    def __init__(self, screen: BattleHost) -> None:
        self.screen = screen
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, follow_end=True, on_select=self._selected)
        self.entries: list[Entry] = []
        self.pending: list[Entry] = []
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
        return e.text(self.screen.battle.names()), tuple(e.figures), colour

    def entries_for(self, events: list[ev.Event]) -> list[Entry]:
        """The log lines of these events (a caster's declaration names its spell, FTC 8)."""
        return cast_lines(self.screen.battle, events, [self.entry(e) for e in events])

    def rebuild(self) -> None:
        """Every line of the battle, shown at once (after a start, undo or load)."""
        self.entries = self.entries_for(list(self.screen.battle.events))
        self.pending = []
        self.sync()

    def sync(self) -> None:
        """Show ``entries`` in the list, scrolled to the end."""
        self.list.set_items([t for t, _, _ in self.entries], [c for _, _, c in self.entries])
        self.list.scroll = self.list.max_scroll

    def add(self, events: list[ev.Event], speed: float) -> None:
        """A decision's new lines: shown at once with animations off, else queued to play out."""
        entries = self.entries_for(events)
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
            self.screen.highlight = frozenset(entry[1])
            self.screen.invalidate()
        self.sync()
        if not self.pending:
            self.timer = 0.0
            return True
        return False

    def _selected(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            self.screen.highlight = frozenset(self.entries[index][1])
            self.screen.invalidate()

    def layout(self, rect: pygame.Rect) -> None:
        """The log's place at the foot of the right column (kept scrolled to its end if it was)."""
        at_end = self.list.scroll >= self.list.max_scroll
        self.list.rect = rect
        if at_end:  # the log was scrolled to its end for the old height; keep the latest entries in view
            self.list.scroll = self.list.max_scroll

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """The log's lines."""
        self.list.draw(surface, text)
