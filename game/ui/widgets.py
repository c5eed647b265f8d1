"""Small widgets drawn with plain pygame: text cache, Button, Panel, Tooltip, ScrollList (the text field
is ``game.ui.text_field``).

Our own few widgets instead of a toolkit keep the frame cost in our hands: every
string is rendered once and cached, panels are flat fills, and nothing is drawn unless the screen is dirty.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TypeVar

import pygame

from game.paths import ASSETS_DIR
from game.ui import theme

_T = TypeVar("_T")

RGB = tuple[int, int, int]

_FONT_CANDIDATES = ("dejavusans", "notosans", "liberationsans", "freesans")


def _find_font_files() -> tuple[str | None, str | None]:
    """A regular and a bold font: one shipped in assets/fonts if any, else a common system font."""
    assets = ASSETS_DIR / "fonts"
    if assets.is_dir():
        files = sorted(assets.glob("*.ttf"))
        regular = next((f for f in files if "bold" not in f.name.lower()), None)
        bold = next((f for f in files if "bold" in f.name.lower()), regular)
        if regular is not None:
            return str(regular), str(bold)
    for name in _FONT_CANDIDATES:
        regular_path = pygame.font.match_font(name)
        if regular_path and name.replace("sans", "") in regular_path.lower().replace("sans", ""):
            bold_path = pygame.font.match_font(name, bold=True) or regular_path
            return regular_path, bold_path
    return None, None  # pygame's built-in font


class TextCache:
    """Fonts by size and rendered strings by (text, size, colour, bold), at the player's UI scale."""

    def __init__(self, scale: float = 1.0, max_entries: int = 4000) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.scale = scale
        self.max_entries = max_entries
        self._regular, self._bold = _find_font_files()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._surfaces: OrderedDict[tuple[str, int, RGB, bool], pygame.Surface] = OrderedDict()
        # measured widths and wrapped lines: a frame asks the same strings again and again (the panels and the
        # log measure every line they draw), and the font's own measure is the frame's largest text cost
        self._widths: dict[tuple[str, int, bool], int] = {}
        self._wraps: dict[tuple[str, int, int, bool], tuple[str, ...]] = {}

    def set_scale(self, scale: float) -> None:
        """Change the UI scale; cached fonts and strings are dropped."""
        self.scale = scale
        self._fonts.clear()
        self._surfaces.clear()
        self._widths.clear()
        self._wraps.clear()

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        """The font for a nominal size (scaled)."""
        px = max(6, round(size * self.scale))
        key = (px, bold)
        f = self._fonts.get(key)
        if f is None:
            f = pygame.font.Font(self._bold if bold else self._regular, px)
            self._fonts[key] = f
        return f

    def render(self, text: str, size: int = 16, colour: RGB = theme.TEXT, bold: bool = False) -> pygame.Surface:
        """A rendered string (antialiased, transparent background), cached."""
        key = (text, size, colour, bold)
        surf = self._surfaces.get(key)
        if surf is not None:
            self._surfaces.move_to_end(key)
            return surf
        surf = self.font(size, bold).render(text, True, colour)
        self._surfaces[key] = surf
        if len(self._surfaces) > self.max_entries:
            self._surfaces.popitem(last=False)
        return surf

    def line_height(self, size: int = 16, bold: bool = False) -> int:
        """Distance between lines of text of this size."""
        return self.font(size, bold).get_linesize()

    def width(self, text: str, size: int = 16, bold: bool = False) -> int:
        """Pixel width of a string (kept: at most ``max_entries`` widths, then forgotten all at once)."""
        key = (text, size, bold)
        w = self._widths.get(key)
        if w is None:
            if len(self._widths) >= self.max_entries:
                self._widths.clear()
            w = self._widths[key] = self.font(size, bold).size(text)[0]
        return w

    def fit(self, text: str, size: int, room: int, bold: bool = False) -> str:
        """The text cut with "…" to fit ``room`` pixels, whole when it fits (the one helper every screen
        uses, so a cut string always says it was cut; a tooltip or status line then has it whole)."""
        if self.width(text, size, bold) <= room:
            return text
        lo, hi = 0, len(text)  # the longest prefix that fits with its ellipsis, by bisection
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.width(text[:mid].rstrip() + "…", size, bold) <= room:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + "…" if lo > 0 else "…"

    def wrap(self, text: str, size: int, max_width: int, bold: bool = False) -> list[str]:
        """Split text into lines no wider than max_width (paragraphs kept; long words left whole); kept as
        ``width`` is."""
        key = (text, size, max_width, bold)
        kept = self._wraps.get(key)
        if kept is None:
            if len(self._wraps) >= self.max_entries:
                self._wraps.clear()
            kept = self._wraps[key] = tuple(self._wrap(text, size, max_width, bold))
        return list(kept)

    def _wrap(self, text: str, size: int, max_width: int, bold: bool) -> list[str]:
        lines: list[str] = []
        f = self.font(size, bold)
        for paragraph in text.split("\n"):
            words = paragraph.split(" ")
            line = ""
            for word in words:
                trial = f"{line} {word}" if line else word
                if f.size(trial)[0] <= max_width or not line:
                    line = trial
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def blit(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        size: int = 16,
        colour: RGB = theme.TEXT,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> pygame.Rect:
        """Draw a string with its ``anchor`` (a pygame.Rect attribute name) at pos; returns its rect."""
        surf = self.render(text, size, colour, bold)
        rect = surf.get_rect(**{anchor: pos})
        surface.blit(surf, rect)
        return rect


def draw_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: RGB = theme.PANEL,
    border: RGB | None = theme.BORDER,
    radius: int = 6,
    alpha: int = 255,
) -> None:
    """A flat rounded panel with a thin border (translucent when alpha < 255)."""
    if alpha >= 255:
        pygame.draw.rect(surface, colour, rect, border_radius=radius)
    else:
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (*colour, alpha), layer.get_rect(), border_radius=radius)
        surface.blit(layer, rect)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=1, border_radius=radius)


def draw_scroll_bar(
    surface: pygame.Surface, track: pygame.Rect, shown: int, total: int, offset: int, most: int, least: int = 16
) -> None:
    """A scroll bar's knob sliding in ``track`` (the bar's x and width, and the height it slides along): as long
    as ``shown`` is of ``total`` (``least`` pixels at the shortest), as far down as ``offset`` is of ``most``, the
    largest offset (which must be above 0)."""
    knob = max(least, track.height * shown // max(1, total))
    y = track.y + (track.height - knob) * offset // most
    pygame.draw.rect(surface, theme.BORDER, (track.x, y, track.width, knob), border_radius=2)


def cycled(options: Sequence[_T], now: object, step: int = 1) -> _T:
    """What a button that steps round ``options`` shows after ``now``: the one ``step`` on (the last one
    goes round to the first, and back with -1), or the first when ``now`` is not among them."""
    i = options.index(now) + step if now in options else 0
    return options[i % len(options)]


DOUBLE_CLICK_MS = 400
"""How soon a second press on the same thing makes a double click."""


class DoubleClick:
    """Tells the second press of a double click: a press on the same thing within ``DOUBLE_CLICK_MS``."""

    def __init__(self) -> None:
        self._last: tuple[object, int] = (None, -10_000)

    def press(self, what: object) -> bool:
        """A press now on ``what`` (None: on nothing); True when it is the second press of a double click."""
        now = pygame.time.get_ticks()
        double = what is not None and what == self._last[0] and now - self._last[1] < DOUBLE_CLICK_MS
        self._last = (what, now)
        return double


class Widget:
    """Something with a rectangle that can draw itself and may take events."""

    def __init__(self, rect: pygame.Rect | None = None) -> None:
        self.rect = rect if rect is not None else pygame.Rect(0, 0, 0, 0)
        self.visible = True

    def handle(self, event: pygame.event.Event) -> bool:
        """Take an event; True when it was consumed (or changed how the widget looks)."""
        return False

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Paint the widget."""


class Panel(Widget):
    """A background box with an optional title."""

    def __init__(self, rect: pygame.Rect, title: str = "", alpha: int = 255) -> None:
        super().__init__(rect)
        self.title = title
        self.alpha = alpha

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Paint the panel and its title."""
        draw_panel(surface, self.rect, alpha=self.alpha)
        if self.title:
            pad = max(6, self.rect.height // 40)
            text.blit(surface, self.title, (self.rect.x + 10, self.rect.y + pad), 15, theme.ACCENT, bold=True)

    @property
    def content_top(self) -> int:
        """The first y below the title."""
        return self.rect.y + (30 if self.title else 8)


@dataclass(eq=False)
class Button(Widget):
    """A clickable button; disabled buttons still show their tooltip (why they are disabled). Two buttons are
    never equal: each is the one thing it is."""

    text: str
    action: Callable[[], object]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    _: KW_ONLY
    enabled: bool = True
    tooltip: str = ""
    size: int = 18
    hotkey: int | None = None
    hovered: bool = field(default=False, init=False)
    pressed: bool = field(default=False, init=False)
    focused: bool = field(default=False, init=False)
    clipped: bool = field(default=False, init=False)
    """Set when drawn: the label did not fit and shows "…"."""
    result: object = field(default=None, init=False)
    """What the action returned when the button was last clicked (None since the last event it did not take)."""

    def __post_init__(self) -> None:
        super().__init__(self.rect)

    @property
    def hint(self) -> str:
        """What hovering shows: the tooltip, led by the whole label when the button had to cut it."""
        if not self.clipped:
            return self.tooltip
        return f"{self.text}\n{self.tooltip}" if self.tooltip else self.text

    def click(self) -> object:
        """Run the action (when enabled) and return what it returned."""
        if not self.enabled:
            return None
        self.result = self.action()
        return self.result

    def handle(self, event: pygame.event.Event) -> bool:
        """Hover, press and release; a release over the button clicks it (result in ``self.result``)."""
        self.result = None
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            inside = self.rect.collidepoint(event.pos)
            changed = inside != self.hovered
            self.hovered = inside
            if not inside:
                self.pressed = False
            return changed
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self.hovered = True
            self.pressed = self.enabled
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was = self.pressed
            self.pressed = False
            if was and self.rect.collidepoint(event.pos):
                self.click()
                return True
            return was
        if event.type == pygame.KEYDOWN and self.hotkey is not None and event.key == self.hotkey:
            self.click()
            return True
        return False

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Paint the button in its state."""
        if not self.visible:
            return
        if not self.enabled:
            fill, fg = theme.PANEL_LIGHT, theme.TEXT_DISABLED
        elif self.pressed:
            fill, fg = theme.BUTTON_PRESSED, theme.TEXT
        elif self.hovered or self.focused:
            fill, fg = theme.BUTTON_HOVER, theme.TEXT
        else:
            fill, fg = theme.BUTTON, theme.TEXT
        border = theme.ACCENT if (self.focused or self.hovered) and self.enabled else theme.BORDER
        pygame.draw.rect(surface, fill, self.rect, border_radius=6)
        pygame.draw.rect(surface, border, self.rect, width=1 if not self.focused else 2, border_radius=6)
        shown = text.fit(self.text, self.size, self.rect.width - 8, True)
        self.clipped = shown != self.text
        text.blit(surface, shown, self.rect.center, self.size, fg, bold=True, anchor="center")


class Tooltip:
    """Shows a hint after the mouse has rested on something for ``delay`` seconds."""

    def __init__(self, delay: float = 0.45) -> None:
        self.delay = delay
        self.text = ""
        self.pos = (0, 0)
        self.elapsed = 0.0
        self.shown = False

    def hover(self, text: str, pos: tuple[int, int]) -> bool:
        """Report what the mouse is over (empty: nothing); True when the visible state changed."""
        if text != self.text:
            was_shown = self.shown
            self.text, self.elapsed, self.shown = text, 0.0, False
            self.pos = pos
            return was_shown
        if not self.shown:
            self.pos = pos
        return False

    def refresh(self, text: str) -> None:
        """New text for what is under the still mouse (a click re-laid the screen out): a tooltip already
        showing shows the new text at once instead of the old one until the mouse moves."""
        if text != self.text:
            self.shown = self.shown and bool(text)
            self.text, self.elapsed = text, self.delay if self.shown else 0.0

    def update(self, dt: float) -> bool:
        """Advance the hover timer; True at the moment the tooltip appears."""
        if self.text and not self.shown:
            self.elapsed += dt
            if self.elapsed >= self.delay:
                self.shown = True
                return True
        return False

    @property
    def pending(self) -> bool:
        """Whether a tooltip is waiting for its delay (the main loop must keep ticking)."""
        return bool(self.text) and not self.shown

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Paint the tooltip beside the mouse, kept on screen."""
        if not (self.shown and self.text):
            return
        lines = text.wrap(self.text, 14, 320)
        lh = text.line_height(14)
        w = max(text.width(line, 14) for line in lines) + 16
        h = lh * len(lines) + 10
        x, y = self.pos[0] + 16, self.pos[1] + 20
        sw, sh = surface.get_size()
        x = min(x, sw - w - 4)
        if y + h > sh - 4:
            y = self.pos[1] - h - 8
        rect = pygame.Rect(x, y, w, h)
        draw_panel(surface, rect, theme.PANEL_LIGHT, theme.ACCENT, radius=4)
        for i, line in enumerate(lines):
            text.blit(surface, line, (x + 8, y + 5 + i * lh), 14)


class ScrollList(Widget):
    """A scrollable list of text lines (the combat log, file lists); click selects, wheel scrolls."""

    def __init__(
        self,
        rect: pygame.Rect,
        items: Sequence[str] = (),
        *,
        size: int = 14,
        on_select: Callable[[int], object] | None = None,
        follow_end: bool = False,
    ) -> None:
        super().__init__(rect)
        self.items: list[str] = list(items)
        self.colours: list[RGB | None] = [None] * len(self.items)
        self.size = size
        self.on_select = on_select
        self.follow_end = follow_end
        self.scroll = 0
        self.selected: int | None = None
        self.hovered: int | None = None
        self._line_height = 18
        self._mouse: tuple[int, int] = (-1, -1)
        self._cut: dict[tuple[str, int], str] = {}
        self._drawn_width = 0
        self._clicks = DoubleClick()

    def set_items(self, items: Sequence[str], colours: Sequence[RGB | None] | None = None) -> None:
        """Replace the lines (a log appends; with follow_end the view stays on the newest)."""
        self.items = list(items)
        self.colours = list(colours) if colours is not None else [None] * len(self.items)
        if self.selected is not None and self.selected >= len(self.items):
            self.selected = None
        if self.follow_end:
            self.scroll = self.max_scroll
        self.scroll = max(0, min(self.scroll, self.max_scroll))

    def append(self, item: str, colour: RGB | None = None) -> None:
        """Add one line at the end."""
        self.set_items([*self.items, item], [*self.colours, colour])

    @property
    def visible_rows(self) -> int:
        """How many lines fit."""
        return max(1, (self.rect.height - 8) // self._line_height)

    @property
    def max_scroll(self) -> int:
        """The largest first-visible index."""
        return max(0, len(self.items) - self.visible_rows)

    def index_at(self, pos: tuple[int, int]) -> int | None:
        """The item under a point, if any."""
        if not self.rect.collidepoint(pos):
            return None
        i = self.scroll + (pos[1] - self.rect.y - 4) // self._line_height
        return i if 0 <= i < len(self.items) else None

    def cut_line_at(self, pos: tuple[int, int]) -> str:
        """The whole text of the line under a point when it was drawn cut with "…" (for a tooltip), else ""."""
        i = self.index_at(pos)
        if i is None:
            return ""
        line = self.items[i]
        cut = self._cut.get((line, self._drawn_width))
        return line if cut is not None and cut != line else ""

    def double_clicked(self, event: pygame.event.Event) -> int | None:
        """The item this event double-clicks (the second left press on it in a row, soon enough), if any."""
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
            return None
        i = self.index_at(event.pos)
        return i if self._clicks.press(i) else None

    def select(self, index: int) -> None:
        """Select an item and keep it in view."""
        if not self.items:
            return
        index = max(0, min(index, len(self.items) - 1))
        self.selected = index
        if index < self.scroll:
            self.scroll = index
        elif index >= self.scroll + self.visible_rows:
            self.scroll = index - self.visible_rows + 1
        if self.on_select is not None:
            self.on_select(index)

    def handle(self, event: pygame.event.Event) -> bool:
        """Wheel scrolls, click selects, motion tracks the hovered line."""
        if event.type == pygame.MOUSEWHEEL:
            # Wheel events carry no position: use the last motion seen (posted events don't move the mouse).
            if self.rect.collidepoint(self._mouse):
                old = self.scroll
                self.scroll = max(0, min(self.scroll - event.y * 3, self.max_scroll))
                return old != self.scroll
            return False
        if event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
            old_hover = self.hovered
            self.hovered = self.index_at(event.pos)
            return old_hover != self.hovered
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self.index_at(event.pos)
            if i is not None:
                self.select(i)
                return True
        return False

    def _fitted(self, text: TextCache, line: str, width: int) -> str:
        """The line cut with an ellipsis to fit the list's width (cached per line and width)."""
        key = (line, width)
        cut = self._cut.get(key)
        if cut is None:
            cut = text.fit(line, self.size, width)
            self._cut[key] = cut
        return cut

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Paint the visible lines and a scroll bar."""
        self._line_height = text.line_height(self.size) + 2
        draw_panel(surface, self.rect, theme.PANEL, theme.BORDER, radius=4)
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-2, -2))
        y = self.rect.y + 4
        for i in range(self.scroll, min(len(self.items), self.scroll + self.visible_rows + 1)):
            row = pygame.Rect(self.rect.x + 2, y, self.rect.width - 4, self._line_height)
            if i == self.selected:
                pygame.draw.rect(surface, theme.BUTTON_PRESSED, row)
            elif i == self.hovered:
                pygame.draw.rect(surface, theme.PANEL_LIGHT, row)
            colour = self.colours[i] if i < len(self.colours) and self.colours[i] else theme.TEXT
            self._drawn_width = self.rect.width - 16
            line = self._fitted(text, self.items[i], self._drawn_width)
            text.blit(surface, line, (self.rect.x + 8, y + 1), self.size, colour or theme.TEXT)
            y += self._line_height
        surface.set_clip(clip)
        self.draw_scroll_bar(surface)

    def draw_scroll_bar(self, surface: pygame.Surface) -> None:
        """The scroll bar at the list's right edge, when there is more than fits."""
        if self.max_scroll > 0:
            track = pygame.Rect(self.rect.right - 6, self.rect.y + 4, 3, self.rect.height - 8)
            draw_scroll_bar(surface, track, self.visible_rows, len(self.items), self.scroll, self.max_scroll)
