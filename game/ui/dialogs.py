"""Modal screens: a message dialog (errors are shown, never raised at the player) and a file chooser.

docs/architecture.md "Errors a person can act on": a bad map, roster or save raises a project exception whose sentence
names the file and the fix; the interface shows that sentence in a ``MessageDialog`` and the game keeps running. The
chooser lists the folders and ``.tmx`` / ``.json`` files of one folder — no OS dialog, since tkinter may be missing —
and takes a typed or pasted path (Ctrl+V) in its text field: Enter opens that file or folder.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame

from game.ui import theme
from game.ui.screen import Pop, Screen, Transition, UiContext, press
from game.ui.text_field import TextField
from game.ui.widgets import Button, ScrollList, draw_panel

ChoiceCallback = Callable[[], Transition | None]


def _dim(surface: pygame.Surface, alpha: int = 150) -> None:
    """Darken what lies below a modal screen."""
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, alpha))
    surface.blit(veil, (0, 0))


def draw_modal_box(
    surface: pygame.Surface,
    ui: UiContext,
    rect: pygame.Rect,
    title: str,
    *,
    at: tuple[int, int] = (16, 14),
    size: int = 20,
    colour: tuple[int, int, int] = theme.ACCENT,
    dim: int = 150,
) -> pygame.Rect:
    """A modal box over the screen below it: that screen darkened (``dim`` its veil's alpha), the box's
    panel bordered in ``colour`` and its title, bold in the same colour, ``at`` (unscaled) inside the box;
    returns the title's rect."""
    _dim(surface, dim)
    draw_panel(surface, rect, theme.PANEL, colour, radius=8)
    return ui.text.blit(surface, title, (rect.x + ui.s(at[0]), rect.y + ui.s(at[1])), size, colour, bold=True)


def describe_error(exc: BaseException, what: str) -> str:
    """A sentence for the player: the project's own message, else the kind of failure (no traceback)."""
    message = str(exc).strip()
    if type(exc).__name__.endswith("Error") and type(exc).__module__.startswith("game."):
        return message or f"{what} failed."
    detail = message or type(exc).__name__
    return f"{what} failed: {detail}"


class MessageDialog(Screen):
    """A modal box with a title, a message and buttons (default: OK)."""

    opaque = False

    def __init__(
        self,
        ui: UiContext,
        title: str,
        message: str,
        buttons: Sequence[tuple[str, ChoiceCallback | None]] = (("OK", None),),
        *,
        error: bool = False,
    ) -> None:
        super().__init__(ui)
        self.title = title
        self.message = message
        self.error = error
        self.choices = list(buttons)
        self.buttons: list[Button] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.lines: list[str] = []
        for i, (label, _) in enumerate(self.choices):
            self.buttons.append(Button(label, functools.partial(int, i), size=16))

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the box and wrap the message to its width."""
        super().on_resize(size)
        s = self.ui.s
        width = min(size[0] - 40, s(520))
        self.lines = self.ui.text.wrap(self.message, 16, width - s(40))
        lh = self.ui.text.line_height(16)
        height = s(56) + lh * len(self.lines) + s(64)
        self.rect = pygame.Rect(0, 0, width, height)
        self.rect.center = (size[0] // 2, size[1] // 2)
        bw, bh = s(110), s(36)
        x = self.rect.right - s(20) - len(self.buttons) * (bw + s(10)) + s(10)
        for b in self.buttons:
            b.rect = pygame.Rect(x, self.rect.bottom - s(20) - bh, bw, bh)
            x += bw + s(10)
        if self.buttons:
            self.buttons[-1].focused = True

    def _choose(self, index: int) -> Transition:
        callback = self.choices[index][1]
        return Pop(then=callback() if callback is not None else None)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons by mouse; Enter takes the last (default) button, Escape the first."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                return self._choose(len(self.choices) - 1)
            if event.key == pygame.K_ESCAPE:
                return self._choose(0)
        b = press(self.buttons, event)
        return self._choose(self.buttons.index(b)) if b is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the dimmed background and the box."""
        s, text = self.ui.s, self.ui.text
        draw_modal_box(
            surface, self.ui, self.rect, self.title, at=(20, 16), colour=theme.DANGER if self.error else theme.ACCENT
        )
        lh = text.line_height(16)
        for i, line in enumerate(self.lines):
            text.blit(surface, line, (self.rect.x + s(20), self.rect.y + s(52) + i * lh), 16)
        for b in self.buttons:
            b.draw(surface, text)


class FileChooser(Screen):
    """Pick a file with one of some extensions, browsing folders; ``on_choose(path)`` gets the answer."""

    opaque = False

    def __init__(
        self,
        ui: UiContext,
        title: str,
        folder: Path,
        extensions: Sequence[str],
        on_choose: Callable[[Path], Transition | None],
    ) -> None:
        super().__init__(ui)
        self.title = title
        self.extensions = tuple(e.lower() for e in extensions)
        self.on_choose = on_choose
        self.folder = folder if folder.is_dir() else Path.home()
        self.entries: list[Path] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), size=15)
        self.open_button = Button("Open", lambda: True, size=16)
        self.cancel_button = Button("Cancel", lambda: True, size=16)
        self.path_field = TextField(max_length=4096, placeholder="Type or paste a path (Ctrl+V)")
        self.problem = ""
        """Why a typed path cannot be opened (shown in place of the folder line until the next typing)."""
        self.refresh()

    def refresh(self) -> None:
        """List the current folder: parent, sub-folders, then matching files."""
        try:
            children = sorted(self.folder.iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
        except OSError:
            children = []
        entries: list[Path] = []
        if self.folder.parent != self.folder:
            entries.append(self.folder.parent)
        for p in children:
            if p.name.startswith("."):
                continue
            if p.is_dir() or p.suffix.lower() in self.extensions:
                entries.append(p)
        self.entries = entries
        labels = []
        for p in entries:
            if p == self.folder.parent and p != self.folder:
                labels.append("..  (up)")
            elif p.is_dir():
                labels.append(p.name + "/")
            else:
                labels.append(p.name)
        colours: list[tuple[int, int, int] | None] = [theme.TEXT_MUTED if p.is_dir() else None for p in entries]
        self.list.set_items(labels, colours)
        self.list.scroll = 0
        self.list.selected = next((i for i, p in enumerate(entries) if p.is_file()), 0 if entries else None)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the chooser."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - 40, s(560)), min(size[1] - 40, s(460)))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.list.rect = pygame.Rect(
            self.rect.x + s(16),
            self.rect.y + s(70),
            self.rect.width - s(32),
            self.rect.height - s(70) - s(66),
        )
        bw, bh = s(110), s(36)
        self.cancel_button.rect = pygame.Rect(
            self.rect.right - s(16) - 2 * bw - s(10), self.rect.bottom - s(16) - bh, bw, bh
        )
        self.open_button.rect = pygame.Rect(self.rect.right - s(16) - bw, self.rect.bottom - s(16) - bh, bw, bh)
        left = self.rect.x + s(16)
        self.path_field.rect = pygame.Rect(
            left, self.rect.bottom - s(16) - bh, self.cancel_button.rect.x - s(10) - left, bh
        )

    def _activate(self, index: int | None) -> Transition | None:
        if index is None or not (0 <= index < len(self.entries)):
            return None
        path = self.entries[index]
        if path.is_dir():
            self.folder = path
            self.refresh()
            return None
        return Pop(then=self.on_choose(path))

    def open_typed(self) -> Transition | None:
        """Open the path in the text field: a folder is listed, a file chosen; a relative path is taken from
        the folder shown, ``~`` is the home folder. A path that is not there is said in the chooser."""
        raw = self.path_field.value.strip().strip('"').strip("'")
        path = Path(raw).expanduser()
        path = path if path.is_absolute() else self.folder / path
        try:
            is_dir, is_file = path.is_dir(), path.is_file()
        except OSError:
            is_dir = is_file = False
        if is_dir:
            self.folder = path
            self.path_field.value = ""
            self.problem = ""
            self.refresh()
            return None
        if is_file:
            return Pop(then=self.on_choose(path))
        self.problem = f"No file or folder {raw!r}: check the path"
        return None

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Arrows and Enter, double-click or Open; typing (or Ctrl+V) fills the path field, which Enter
        opens; Escape or Cancel closes."""
        if event.type == pygame.TEXTINPUT:
            self.problem = ""
            self.path_field.handle(event)
            return None
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.path_field.value.strip():
                    return self.open_typed()
                return self._activate(self.list.selected)
            pasting = event.mod & pygame.KMOD_CTRL and event.key == pygame.K_v
            if self.path_field.value or pasting:  # a typed path takes the editing keys (↑ / ↓ stay the list's)
                if self.path_field.handle(event):
                    self.problem = ""
                    return None
                if event.key in (pygame.K_BACKSPACE, pygame.K_DELETE):
                    return None  # at the path's start: not the parent folder
            if event.key in (pygame.K_DOWN, pygame.K_UP) and self.entries:
                step = 1 if event.key == pygame.K_DOWN else -1
                current = self.list.selected if self.list.selected is not None else -step
                self.list.select(current + step)
                return None
            if event.key == pygame.K_BACKSPACE:
                return self._activate(0 if self.folder.parent != self.folder else None)
        double = self.list.double_clicked(event)
        if double is not None:
            return self._activate(double)
        if self.path_field.handle(event):
            return None
        self.list.handle(event)
        self.open_button.handle(event)
        if self.open_button.result is not None:
            return self.open_typed() if self.path_field.value.strip() else self._activate(self.list.selected)
        self.cancel_button.handle(event)
        if self.cancel_button.result is not None:
            return Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the chooser over a dimmed background."""
        s, text = self.ui.s, self.ui.text
        draw_modal_box(surface, self.ui, self.rect, self.title)
        folder = str(self.folder)
        while text.width(folder, 13) > self.rect.width - s(32) and len(folder) > 10:
            folder = "…" + folder[len(folder) // 4 :]
        if self.problem:
            text.blit(surface, self.problem, (self.rect.x + s(16), self.rect.y + s(44)), 13, theme.DANGER)
        else:
            text.blit(surface, folder, (self.rect.x + s(16), self.rect.y + s(44)), 13, theme.TEXT_MUTED)
        self.list.draw(surface, text)
        self.path_field.draw(surface, text)
        self.open_button.enabled = self.list.selected is not None
        self.open_button.draw(surface, text)
        self.cancel_button.draw(surface, text)
