"""Modal pickers over a screen: a typed answer (``TextPrompt``) and a list narrowed by typing (``PickDialog``).

The roster editor and the GM's edits ask names and choices with them; each answers through a callback and
pops itself, so the screen below gets the choice as a ``Pop(then=...)`` transition.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pygame

from game.ui import theme
from game.ui.dialogs import draw_modal_box
from game.ui.screen import Pop, Screen, Transition, UiContext, press
from game.ui.text_field import TextField
from game.ui.widgets import Button, ScrollList, Tooltip


class ModalBox(Screen):
    """A box over the screen below that waits for an answer: Enter accepts (``accept``), Esc closes it; every
    other event goes to ``on_input``."""

    opaque = False

    def accept(self) -> Transition | None:
        """Enter's answer: the box's OK, Choose or Done hands its answer on and closes the box (one with no
        answer to hand on just closes)."""
        return Pop()

    def on_input(self, event: pygame.event.Event) -> Transition | None:
        """An event that is neither Enter nor Esc (typing, the mouse, the box's buttons)."""
        return None

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Enter accepts, Esc cancels, the rest is the box's input."""
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.accept()
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        return self.on_input(event)


class TextPrompt(ModalBox):
    """A modal question with a typed answer: Enter accepts, Esc cancels; ``on_done(text)`` gets it."""

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

    def accept(self) -> Transition | None:
        """Enter or OK: the typed answer."""
        return Pop(then=self.on_done(self.field.value))

    def on_input(self, event: pygame.event.Event) -> Transition | None:
        """Typing, OK, Cancel."""
        self.field.handle(event)
        b = press((self.ok, self.cancel), event)
        if b is not None:
            return self.accept() if b is self.ok else Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The box over the dimmed editor."""
        s, text = self.ui.s, self.ui.text
        draw_modal_box(surface, self.ui, self.rect, self.title, at=(20, 14))
        text.blit(surface, self.prompt, (self.rect.x + s(20), self.rect.y + s(48)), 14, theme.TEXT_MUTED)
        self.field.draw(surface, text)
        self.ok.draw(surface, text)
        self.cancel.draw(surface, text)


class PickDialog(ModalBox):
    """Choose from a list, narrowed by typing; with ``free_text`` the typed name itself is offered first.

    ``items`` are (label, value) pairs; ``on_pick(value)`` gets the choice (Enter, double-click or Choose).
    ``details`` maps a value to one line about it (a spell's description), shown under the list for the
    selected row and as a tooltip over a row.
    """

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

    def accept(self) -> Transition | None:
        """Enter, a double click or Choose: the selected row (nothing while none is selected)."""
        i = self.list.selected
        if i is None or not 0 <= i < len(self.shown):
            return None
        return Pop(then=self.on_pick(self.shown[i]))

    def on_input(self, event: pygame.event.Event) -> Transition | None:
        """Typing narrows, arrows move, a double click or Choose chooses, Cancel closes."""
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN) and self.shown:
            current = self.list.selected if self.list.selected is not None else 0
            self.list.select(current + (1 if event.key == pygame.K_DOWN else -1))
            return None
        if self.field.handle(event):
            self._filter()
            return None
        if self.list.double_clicked(event) is not None:
            return self.accept()
        self.list.handle(event)
        b = press((self.choose, self.cancel), event)
        if b is not None:
            return self.accept() if b is self.choose else Pop()
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
        s, text = self.ui.s, self.ui.text
        draw_modal_box(surface, self.ui, self.rect, self.title)
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
