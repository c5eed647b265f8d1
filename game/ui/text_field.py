"""One line of editable text, as in any text field: a caret, a selection, the clipboard and the mouse.

``TextEdit`` is the editing itself (the text, the caret, the selection and every edit; no pygame), and
``TextField`` the widget every text entry of the game is made of: the Join form, the roster editor's prompts
and pickers, the file chooser's path, the GM panel's reason and the table's chat line.

The keys are those of any text field:

- typing replaces the selection (or goes in at the caret);
- Backspace / Delete remove the selection, else the character before / after the caret (with Ctrl: the word);
- ← / → move the caret (with Ctrl: by word; with Shift: the selection grows); Home / End go to either end;
- Ctrl+A selects the whole text; Ctrl+C / Ctrl+X / Ctrl+V copy, cut and paste (pasted lines become one);
- a click places the caret, Shift+click or a drag selects, a double click selects a word.

A key the field does not use (Enter, Tab, ↑ / ↓, a letter's own key press before its typed text) leaves the
text and the selection as they are, so the screen around the field may use it.
"""

from __future__ import annotations

import pygame

from game.ui import theme
from game.ui.widgets import DoubleClick, TextCache, Widget

PAD = 8
"""Pixels between the box's edge and its text."""


def clipboard_text() -> str:
    """The clipboard's text on one line ("" when there is none or the platform gives no clipboard)."""
    try:
        pasted = pygame.scrap.get_text()
    except (pygame.error, AttributeError):
        return ""
    return " ".join(str(pasted or "").splitlines()).strip()


def put_clipboard_text(text: str) -> bool:
    """Put text on the clipboard; False when the platform gives no clipboard."""
    try:
        pygame.scrap.put_text(text)
    except (pygame.error, AttributeError):
        return False
    return True


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class TextEdit:
    """The text of one field with its caret and selection (``anchor``: where the selection started, None
    when nothing is selected), and the edits a text field makes. Positions are indices between characters."""

    def __init__(self, value: str = "", max_length: int = 60) -> None:
        self.max_length = max_length
        self._value = value[:max_length]
        self.caret = len(self._value)
        self.anchor: int | None = None

    @property
    def value(self) -> str:
        """The text; setting it puts the caret at its end with nothing selected."""
        return self._value

    @value.setter
    def value(self, text: str) -> None:
        self._value = text[: self.max_length]
        self.caret, self.anchor = len(self._value), None

    @property
    def selection(self) -> tuple[int, int]:
        """The selected span (start, end); empty (start == end, at the caret) when nothing is selected."""
        if self.anchor is None:
            return self.caret, self.caret
        return min(self.anchor, self.caret), max(self.anchor, self.caret)

    @property
    def selected_text(self) -> str:
        """The selected characters ("" when none)."""
        start, end = self.selection
        return self._value[start:end]

    def select(self, start: int, end: int) -> None:
        """Select from ``start`` to ``end`` (the caret at ``end``); an empty span selects nothing."""
        n = len(self._value)
        start, end = max(0, min(n, start)), max(0, min(n, end))
        self.anchor, self.caret = (start if start != end else None), end

    def select_all(self) -> None:
        """Select the whole text (nothing when it is empty)."""
        self.select(0, len(self._value))

    def move_to(self, index: int, extend: bool = False) -> None:
        """Put the caret at ``index``; with ``extend`` the selection runs from where it started to there."""
        index = max(0, min(len(self._value), index))
        if extend:
            if self.anchor is None:
                self.anchor = self.caret
            self.caret = index
            if self.anchor == self.caret:
                self.anchor = None
        else:
            self.caret, self.anchor = index, None

    def step(self, direction: int, word: bool = False, extend: bool = False) -> None:
        """← (-1) or → (+1): a character or a word; a selection without Shift collapses to its side."""
        start, end = self.selection
        if not extend and start != end and not word:
            self.move_to(start if direction < 0 else end)
            return
        self.move_to(self.word_edge(self.caret, direction) if word else self.caret + direction, extend)

    def word_edge(self, index: int, direction: int) -> int:
        """Where Ctrl+← / Ctrl+→ go from ``index``: the start of this or the last word, or the end of this or
        the next one."""
        v = self._value
        if direction < 0:
            while index > 0 and not _word_char(v[index - 1]):
                index -= 1
            while index > 0 and _word_char(v[index - 1]):
                index -= 1
        else:
            while index < len(v) and not _word_char(v[index]):
                index += 1
            while index < len(v) and _word_char(v[index]):
                index += 1
        return index

    def word_at(self, index: int) -> tuple[int, int]:
        """The span of the word around ``index`` (for a double click); the one character there otherwise."""
        v = self._value
        index = max(0, min(len(v), index))
        start = end = index
        while start > 0 and _word_char(v[start - 1]):
            start -= 1
        while end < len(v) and _word_char(v[end]):
            end += 1
        if start == end and index < len(v):
            end = index + 1
        return start, end

    def insert(self, text: str) -> bool:
        """Type or paste ``text`` over the selection (or at the caret), kept within ``max_length``; True
        when the text changed."""
        start, end = self.selection
        room = self.max_length - (len(self._value) - (end - start))
        text = text[: max(0, room)]
        if not text and start == end:
            return False
        self._value = self._value[:start] + text + self._value[end:]
        self.caret, self.anchor = start + len(text), None
        return True

    def delete(self, direction: int, word: bool = False) -> bool:
        """Backspace (-1) or Delete (+1): the selection, else a character or a word on that side of the
        caret; True when the text changed."""
        start, end = self.selection
        if start == end:
            edge = self.word_edge(self.caret, direction) if word else self.caret + direction
            edge = max(0, min(len(self._value), edge))
            start, end = min(edge, self.caret), max(edge, self.caret)
            if start == end:
                return False
        self._value = self._value[:start] + self._value[end:]
        self.caret, self.anchor = start, None
        return True


class TextField(Widget):
    """The game's text field (module doc): a ``TextEdit`` drawn in a box, taking keys and the mouse.

    ``secret`` shows dots (a password) and copies nothing; ``placeholder`` is shown, muted, while the field
    is empty; ``size`` is the text's size. ``focused`` is whether typing goes here (accent border and caret):
    a screen with several fields sets it."""

    def __init__(
        self, value: str = "", *, max_length: int = 60, secret: bool = False, placeholder: str = "", size: int = 16
    ) -> None:
        super().__init__()
        self.edit = TextEdit(value, max_length)
        self.secret = secret
        self.placeholder = placeholder
        self.size = size
        self.focused = True
        self._scroll = 0
        """How many pixels of the text are scrolled out of the box on the left (a text longer than it)."""
        self._text: TextCache | None = None
        """The text cache it was last drawn with (to find the character under a click)."""
        self._dragging = False
        self._clicks = DoubleClick()

    # --- the text ------------------------------------------------------------------------------------
    @property
    def value(self) -> str:
        """The text; setting it puts the caret at its end with nothing selected."""
        return self.edit.value

    @value.setter
    def value(self, text: str) -> None:
        self.edit.value = text

    @property
    def max_length(self) -> int:
        """The most characters the field takes."""
        return self.edit.max_length

    @property
    def all_selected(self) -> bool:
        """Whether the whole (non-empty) text is selected, as Ctrl+A leaves it."""
        return bool(self.value) and self.edit.selection == (0, len(self.value))

    @property
    def shown(self) -> str:
        """The text as drawn: dots for a secret."""
        return "•" * len(self.value) if self.secret else self.value

    # --- events --------------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> bool:
        """Take typed text, the editing keys and the mouse (module doc); True when the text, the caret or
        the selection changed (a key the field does not use changes nothing and gives False)."""
        if event.type == pygame.TEXTINPUT:
            return self.edit.insert(event.text)
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            return self._press(event.pos)
        if event.type == pygame.MOUSEMOTION and self._dragging:
            self.edit.move_to(self.index_at(event.pos[0]), extend=True)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._dragging:
            self._dragging = False
            return True
        return False

    def _key(self, event: pygame.event.Event) -> bool:
        edit, key = self.edit, event.key
        ctrl, shift = bool(event.mod & pygame.KMOD_CTRL), bool(event.mod & pygame.KMOD_SHIFT)
        before = (edit.value, edit.caret, edit.anchor)
        if ctrl and key == pygame.K_a:
            edit.select_all()
        elif ctrl and key in (pygame.K_c, pygame.K_x):
            if not edit.selected_text or self.secret:
                return False
            put_clipboard_text(edit.selected_text)
            if key == pygame.K_x:
                edit.delete(-1)
        elif ctrl and key == pygame.K_v:
            edit.insert(clipboard_text())
        elif key in (pygame.K_BACKSPACE, pygame.K_DELETE):
            edit.delete(-1 if key == pygame.K_BACKSPACE else 1, word=ctrl)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            edit.step(-1 if key == pygame.K_LEFT else 1, word=ctrl, extend=shift)
        elif key in (pygame.K_HOME, pygame.K_END):
            edit.move_to(0 if key == pygame.K_HOME else len(edit.value), extend=shift)
        else:
            return False
        return (edit.value, edit.caret, edit.anchor) != before

    def _press(self, pos: tuple[int, int]) -> bool:
        index = self.index_at(pos[0])
        if self._clicks.press(index):
            self.edit.select(*self.edit.word_at(index))
            self._dragging = False
            return True
        self.edit.move_to(index, extend=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
        self._dragging = True
        return True

    def index_at(self, x: int) -> int:
        """The caret position nearest to the screen's ``x`` in the text as last drawn (its end before the
        field was ever drawn)."""
        text = self._text
        if text is None:
            return len(self.value)
        shown = self.shown
        origin = self.rect.x + PAD - self._scroll
        best, best_gap = 0, abs(x - origin)
        for i in range(1, len(shown) + 1):
            gap = abs(x - (origin + text.width(shown[:i], self.size)))
            if gap < best_gap:
                best, best_gap = i, gap
        return best

    # --- drawing -------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """A light box with the text scrolled so the caret shows, the selection highlighted and a caret."""
        self._text = text
        pygame.draw.rect(surface, theme.PANEL_LIGHT, self.rect, border_radius=4)
        pygame.draw.rect(surface, theme.ACCENT if self.focused else theme.BORDER, self.rect, 2, border_radius=4)
        room = max(1, self.rect.width - 2 * PAD)
        shown, size = self.shown, self.size
        caret_x = text.width(shown[: self.edit.caret], size)
        total = text.width(shown, size)
        self._scroll = max(0, min(self._scroll, total - room))
        if caret_x - self._scroll > room:
            self._scroll = caret_x - room
        elif caret_x < self._scroll:
            self._scroll = caret_x
        origin = self.rect.x + PAD - self._scroll
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-PAD, -4).clip(clip))
        height = text.line_height(size)
        top = self.rect.centery - height // 2
        start, end = self.edit.selection
        if start != end:
            x0, x1 = origin + text.width(shown[:start], size), origin + text.width(shown[:end], size)
            pygame.draw.rect(surface, theme.BUTTON_PRESSED, (x0, top, x1 - x0, height))
        if shown:
            text.blit(surface, shown, (origin, self.rect.centery), size, anchor="midleft")
        elif self.placeholder:
            hint = text.fit(self.placeholder, size, room - 6)
            text.blit(surface, hint, (origin + 6, self.rect.centery), size, theme.TEXT_MUTED, anchor="midleft")
        if self.focused:
            x = origin + caret_x
            pygame.draw.line(surface, theme.ACCENT, (x, top), (x, top + height - 1), 2)
        surface.set_clip(clip)


__all__ = ["TextEdit", "TextField", "clipboard_text", "put_clipboard_text"]
