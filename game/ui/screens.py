"""Title, new-battle, settings, help and escape-menu screens (issue 5, "Start" and "Comforts").

Every screen works with the keyboard (arrows / Tab, Enter, Escape, the underlined hotkeys) and the mouse.
The title's Continue and Load stay disabled, with a tooltip saying why, until a save exists; what opening a
save does is a hook (``UiContext.open_save``) that the battle record fills in later.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

import pygame

from game.ui import theme
from game.ui.dialogs import FileChooser, MessageDialog, _dim
from game.ui.screen import Pop, Push, Quit, Replace, Screen, Transition, UiContext
from game.ui.settings import ANIMATION_SPEEDS, UI_SCALES, Settings
from game.ui.widgets import Button, ScrollList, Tooltip, draw_panel

HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("Board", ""),
    ("Drag (any button), arrows, W A S D", "pan the map"),
    ("Mouse wheel, + / −", "zoom around the cursor"),
    ("Home", "fit the whole map"),
    ("Left click", "select a figure or hex"),
    ("Hover", "inspect a figure or hex"),
    ("G", "hex grid on / off"),
    ("Battle", ""),
    ("Enter", "confirm the highlighted choice"),
    ("H", "hold the selected figure"),
    ("Ctrl+S / Ctrl+O", "save / load the battle"),
    ("Ctrl+Z", "undo (when the rules allow)"),
    ("Anywhere", ""),
    ("F1", "this help"),
    ("Esc", "menu / back / close"),
)


class ButtonColumn:
    """A vertical stack of buttons with keyboard focus (title and menus)."""

    def __init__(self, buttons: list[Button]) -> None:
        self.buttons = buttons
        self.focus = next((i for i, b in enumerate(buttons) if b.enabled), 0)
        self._sync()

    def _sync(self) -> None:
        for i, b in enumerate(self.buttons):
            b.focused = i == self.focus

    def layout(self, centre_x: int, top: int, width: int, height: int, gap: int) -> None:
        """Place the buttons in a column."""
        for i, b in enumerate(self.buttons):
            b.rect = pygame.Rect(centre_x - width // 2, top + i * (height + gap), width, height)

    def move(self, step: int) -> None:
        """Move keyboard focus to the next enabled button."""
        n = len(self.buttons)
        for k in range(1, n + 1):
            i = (self.focus + step * k) % n
            if self.buttons[i].enabled:
                self.focus = i
                break
        self._sync()

    def handle(self, event: pygame.event.Event) -> tuple[bool, object]:
        """Route an event: (changed, the clicked button's result or None)."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_DOWN, pygame.K_TAB):
                self.move(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True, None
            if event.key == pygame.K_UP:
                self.move(-1)
                return True, None
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                return True, self.buttons[self.focus].click()
        changed = False
        for i, b in enumerate(self.buttons):
            changed |= b.handle(event)
            if b.result is not None:
                self.focus = i
                self._sync()
                return True, b.result
            if event.type == pygame.MOUSEMOTION and b.hovered and b.enabled and self.focus != i:
                self.focus = i
                self._sync()
                changed = True
        return changed, None

    def hovered_tooltip(self) -> str:
        """The tooltip of the button under the mouse, if any."""
        return next((b.tooltip for b in self.buttons if b.hovered and b.tooltip), "")

    def draw(self, surface: pygame.Surface, ui: UiContext) -> None:
        """Paint the buttons."""
        for b in self.buttons:
            b.draw(surface, ui.text)


def _hex_backdrop(size: tuple[int, int], cell: int = 56) -> pygame.Surface:
    """A dark background with a faint hex pattern (drawn once per window size)."""
    surf = pygame.Surface(size)
    surf.fill(theme.BACKGROUND)
    r = cell / 2
    w = math.sqrt(3) * r
    row = 0
    y = 0.0
    while y < size[1] + cell:
        x = w / 2 if row % 2 else 0.0
        while x < size[0] + w:
            pts = [
                (x + r * math.cos(math.radians(60 * k + 30)), y + r * math.sin(math.radians(60 * k + 30)))
                for k in range(6)
            ]
            pygame.draw.polygon(surf, (28, 31, 40), pts, 1)
            x += w
        y += 1.5 * r
        row += 1
    return surf


@dataclass(frozen=True)
class BattleSetup:
    """What the New battle screen chose: the map, the roster, who plays each side."""

    map_path: Path | None
    roster_path: Path | None = None
    controllers: tuple[str, str] = ("human", "computer")
    seed: int | None = None


class TitleScreen(Screen):
    """New battle / Continue / Load / Settings / Quit."""

    def __init__(self, ui: UiContext, start_battle: Callable[[BattleSetup], Transition | None]) -> None:
        super().__init__(ui)
        self.start_battle = start_battle
        self.tooltip = Tooltip()
        self._backdrop: pygame.Surface | None = None
        no_save = "No saved battle yet: it appears here once a battle has been played."
        has_auto, has_any = ui.has_autosave(), ui.has_saves()
        self.column = ButtonColumn(
            [
                Button(
                    "New battle",
                    lambda: Push(NewBattleScreen(self.ui, self.start_battle)),
                    tooltip="Choose a map and who plays each side.",
                    hotkey=pygame.K_n,
                ),
                Button(
                    "Continue",
                    self._continue,
                    enabled=has_auto,
                    tooltip="Resume the autosaved battle." if has_auto else no_save,
                    hotkey=pygame.K_c,
                ),
                Button(
                    "Load",
                    self._load,
                    enabled=has_any,
                    tooltip="Open a saved battle." if has_any else no_save,
                    hotkey=pygame.K_l,
                ),
                Button(
                    "Settings",
                    lambda: Push(SettingsScreen(self.ui)),
                    tooltip="UI scale, colours, animation.",
                    hotkey=pygame.K_s,
                ),
                Button("Quit", Quit, hotkey=pygame.K_q),
            ]
        )

    def _open(self, path: Path) -> Transition | None:
        if self.ui.open_save is None:
            return Push(
                MessageDialog(
                    self.ui, "Saved battles", "Opening saved battles arrives with the battle record."
                )
            )
        try:
            return Push(self.ui.open_save(path))
        except Exception as exc:  # a bad save must not end the game
            from game.ui.dialogs import describe_error

            return Push(
                MessageDialog(
                    self.ui, "Cannot open the save", describe_error(exc, f"Loading {path.name}"), error=True
                )
            )

    def _continue(self) -> Transition | None:
        return self._open(self.ui.autosave_path())

    def _load(self) -> Transition | None:
        folder = self.ui.saves_dir() if self.ui.saves_dir().is_dir() else self.ui.config_dir
        return Push(FileChooser(self.ui, "Load a battle", folder, (".json",), self._open))

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the menu."""
        super().on_resize(size)
        s = self.ui.s
        self._backdrop = None
        top = size[1] // 2 - s(40)
        self.column.layout(size[0] // 2, top, s(300), s(46), s(12))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Keyboard and mouse over the menu; Escape quits."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Quit()
        _, result = self.column.handle(event)
        if event.type == pygame.MOUSEMOTION:
            self.tooltip.hover(self.column.hovered_tooltip(), event.pos)
        if isinstance(result, Push | Pop | Replace | Quit):
            return result
        return None

    @property
    def busy(self) -> bool:
        """A tooltip is waiting for its delay."""
        return self.tooltip.pending

    def update(self, dt: float) -> bool:
        """Tooltip timer."""
        return self.tooltip.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, title, menu, footer."""
        if self._backdrop is None or self._backdrop.get_size() != surface.get_size():
            self._backdrop = _hex_backdrop(surface.get_size(), self.ui.s(56))
        surface.blit(self._backdrop, (0, 0))
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        top = self.column.buttons[0].rect.top
        text.blit(
            surface, "Fudge Tactics", (w // 2, top - s(120)), 60, theme.ACCENT, bold=True, anchor="midbottom"
        )
        text.blit(
            surface,
            "hex-grid tactical combat for Fudge",
            (w // 2, top - s(108)),
            20,
            theme.TEXT_MUTED,
            anchor="midtop",
        )
        for i, colour in enumerate(self.ui.palette.sides[:2]):
            cx = w // 2 + (i * 2 - 1) * s(28)
            pygame.draw.circle(surface, colour, (cx, top - s(50)), s(10), s(4))
        self.column.draw(surface, self.ui)
        text.blit(
            surface,
            "F1 help  ·  arrows + Enter or the mouse  ·  Esc quits",
            (w // 2, h - s(16)),
            14,
            theme.TEXT_MUTED,
            anchor="midbottom",
        )
        self.tooltip.draw(surface, text)


class NewBattleScreen(Screen):
    """Choose a map (from maps/ or any .tmx) and who plays each side; the defaults start in one click."""

    CONTROLLERS = ("human", "computer")

    def __init__(self, ui: UiContext, start_battle: Callable[[BattleSetup], Transition | None]) -> None:
        super().__init__(ui)
        self.start_battle = start_battle
        found = sorted(ui.maps_dir.glob("*.tmx")) if ui.maps_dir.is_dir() else []
        self.maps: list[Path | None] = list(found)
        if not self.maps:
            self.maps = [None]
        self.controllers = ["human", "computer"]
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), self._labels(), size=16)
        self.list.selected = 0
        self.side_buttons = [Button("", functools.partial(self._toggle, i), size=16) for i in range(2)]
        self.browse = Button("Browse…", self._browse, size=16, hotkey=pygame.K_b)
        self.start = Button("Start battle", self._start, size=18)
        self.back = Button("Back", Pop, size=16)
        self._refresh_side_labels()

    def _labels(self) -> list[str]:
        return [
            p.stem.replace("_", " ") if p is not None else "Open field (generated, 30 × 20)"
            for p in self.maps
        ]

    def _refresh_side_labels(self) -> None:
        for i, b in enumerate(self.side_buttons):
            b.text = f"Side {'AB'[i]}: {self.controllers[i].capitalize()}"

    def _toggle(self, side: int) -> bool:
        current = self.CONTROLLERS.index(self.controllers[side])
        self.controllers[side] = self.CONTROLLERS[(current + 1) % len(self.CONTROLLERS)]
        self._refresh_side_labels()
        return True

    def _browse(self) -> Transition:
        def chosen(path: Path) -> Transition | None:
            self.maps.append(path)
            self.list.set_items(self._labels())
            self.list.select(len(self.maps) - 1)
            return None

        return Push(
            FileChooser(
                self.ui,
                "Choose a map",
                self.ui.maps_dir if self.ui.maps_dir.is_dir() else Path.cwd(),
                (".tmx",),
                chosen,
            )
        )

    def setup(self) -> BattleSetup:
        """The battle the screen would start now."""
        index = self.list.selected if self.list.selected is not None else 0
        return BattleSetup(self.maps[index], None, (self.controllers[0], self.controllers[1]))

    def _start(self) -> Transition | None:
        return self.start_battle(self.setup())

    def on_resize(self, size: tuple[int, int]) -> None:
        """Two columns: maps on the left, sides and start on the right."""
        super().on_resize(size)
        s = self.ui.s
        w, h = size
        panel_w = min(w - s(40), s(820))
        left = (w - panel_w) // 2
        top = s(110)
        self.list.rect = pygame.Rect(left, top, panel_w // 2, h - top - s(100))
        rx = left + panel_w // 2 + s(30)
        bw = panel_w - panel_w // 2 - s(30)
        for i, b in enumerate(self.side_buttons):
            b.rect = pygame.Rect(rx, top + s(30) + i * s(52), bw, s(42))
        self.browse.rect = pygame.Rect(left, self.list.rect.bottom + s(12), s(140), s(38))
        self.back.rect = pygame.Rect(rx, h - s(100) - s(46), s(120), s(46))
        self.start.rect = pygame.Rect(rx + s(132), h - s(100) - s(46), bw - s(132), s(46))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Arrows choose the map, Enter starts, Escape goes back."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self._start()
            if event.key in (pygame.K_UP, pygame.K_DOWN):
                current = self.list.selected or 0
                self.list.select(current + (1 if event.key == pygame.K_DOWN else -1))
                return None
        self.list.handle(event)
        for b in (*self.side_buttons, self.browse, self.start, self.back):
            b.handle(event)
            if isinstance(b.result, Push | Pop | Replace | Quit):
                return b.result
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Map list, sides, start."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        text.blit(surface, "New battle", (self.list.rect.x, s(40)), 34, theme.ACCENT, bold=True)
        text.blit(
            surface, "Map", (self.list.rect.x, self.list.rect.y - s(26)), 16, theme.TEXT_MUTED, bold=True
        )
        text.blit(
            surface,
            "Players",
            (self.side_buttons[0].rect.x, self.list.rect.y),
            16,
            theme.TEXT_MUTED,
            bold=True,
        )
        self.list.draw(surface, text)
        for i, b in enumerate(self.side_buttons):
            b.draw(surface, text)
            pygame.draw.circle(surface, self.ui.palette.sides[i], (b.rect.x + s(18), b.rect.centery), s(7))
        note_y = self.side_buttons[-1].rect.bottom + s(24)
        for line in text.wrap(
            "Roster: the figures placed on the map. Rule options come with the battle settings.",
            14,
            self.side_buttons[0].rect.width,
        ):
            text.blit(surface, line, (self.side_buttons[0].rect.x, note_y), 14, theme.TEXT_MUTED)
            note_y += text.line_height(14)
        for b in (self.browse, self.back, self.start):
            b.draw(surface, text)


class SettingsScreen(Screen):
    """UI scale, colour-blind-safe palette, animation speed, hex grid: changed with arrows or clicks."""

    ROWS = ("ui_scale", "colour_blind", "animation_speed", "show_grid")
    NAMES: ClassVar[dict[str, str]] = {
        "ui_scale": "UI scale",
        "colour_blind": "Colour-blind-safe colours",
        "animation_speed": "Animation speed",
        "show_grid": "Hex grid",
    }

    def __init__(self, ui: UiContext) -> None:
        super().__init__(ui)
        self.row = 0
        self.rects: list[tuple[pygame.Rect, pygame.Rect, pygame.Rect]] = []
        self.back = Button("Done", Pop, size=16)

    def value_text(self, key: str) -> str:
        """How a setting's value reads on screen."""
        st = self.ui.settings
        if key == "ui_scale":
            return f"{round(st.ui_scale * 100)} %"
        if key == "animation_speed":
            return "off" if st.animation_speed == 0 else f"{st.animation_speed:g}×"
        return "on" if getattr(st, key) else "off"

    def change(self, key: str, step: int) -> None:
        """Move a setting one step and apply it at once."""
        st: Settings = self.ui.settings
        if key == "ui_scale":
            i = UI_SCALES.index(st.ui_scale) if st.ui_scale in UI_SCALES else UI_SCALES.index(1.0)
            new = replace(st, ui_scale=UI_SCALES[max(0, min(len(UI_SCALES) - 1, i + step))])
        elif key == "animation_speed":
            i = ANIMATION_SPEEDS.index(st.animation_speed) if st.animation_speed in ANIMATION_SPEEDS else 2
            new = replace(
                st, animation_speed=ANIMATION_SPEEDS[max(0, min(len(ANIMATION_SPEEDS) - 1, i + step))]
            )
        else:
            new = replace(st, **{key: not getattr(st, key)})
        self.ui.update_settings(new)
        self.on_resize(self.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Rows in the middle of the screen."""
        super().on_resize(size)
        s = self.ui.s
        width = min(size[0] - s(40), s(560))
        left = (size[0] - width) // 2
        top = s(130)
        self.rects = []
        for i in range(len(self.ROWS)):
            row = pygame.Rect(left, top + i * s(56), width, s(46))
            minus = pygame.Rect(row.right - s(190), row.y + s(6), s(34), row.height - s(12))
            plus = pygame.Rect(row.right - s(44), row.y + s(6), s(34), row.height - s(12))
            self.rects.append((row, minus, plus))
        self.back.rect = pygame.Rect(
            left + width - s(120), top + len(self.ROWS) * s(56) + s(110), s(120), s(42)
        )

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Up/Down choose a row, Left/Right change it, Escape or Done returns."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
                return Pop()
            if event.key == pygame.K_DOWN:
                self.row = (self.row + 1) % len(self.ROWS)
            elif event.key == pygame.K_UP:
                self.row = (self.row - 1) % len(self.ROWS)
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.change(self.ROWS[self.row], 1 if event.key == pygame.K_RIGHT else -1)
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, (row, minus, plus) in enumerate(self.rects):
                if minus.collidepoint(event.pos) or plus.collidepoint(event.pos):
                    self.row = i
                    self.change(self.ROWS[i], 1 if plus.collidepoint(event.pos) else -1)
                    return None
                if row.collidepoint(event.pos):
                    self.row = i
        self.back.handle(event)
        if isinstance(self.back.result, Pop):
            return self.back.result
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Rows with values, and a preview of the palette."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        left = self.rects[0][0].x
        text.blit(surface, "Settings", (left, s(50)), 34, theme.ACCENT, bold=True)
        for i, (key, (row, minus, plus)) in enumerate(zip(self.ROWS, self.rects, strict=True)):
            draw_panel(
                surface,
                row,
                theme.PANEL_LIGHT if i == self.row else theme.PANEL,
                theme.ACCENT if i == self.row else theme.BORDER,
            )
            text.blit(surface, self.NAMES[key], (row.x + s(16), row.centery), 17, anchor="midleft")
            for rect, glyph in ((minus, "‹"), (plus, "›")):
                pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=4)
                text.blit(surface, glyph, rect.center, 20, theme.TEXT, bold=True, anchor="center")
            mid = (minus.right + plus.left) // 2
            text.blit(
                surface,
                self.value_text(key),
                (mid, row.centery),
                17,
                theme.ACCENT,
                bold=True,
                anchor="center",
            )
        y = self.rects[-1][0].bottom + s(30)
        pal = self.ui.palette
        text.blit(surface, f"Palette: {pal.name}", (left, y), 14, theme.TEXT_MUTED)
        swatches = [*pal.sides[:4], pal.move_free, pal.move_escape, pal.move_free_attacks]
        for i, c in enumerate(swatches):
            pygame.draw.rect(surface, c, (left + i * s(40), y + s(24), s(32), s(32)), border_radius=4)
        text.blit(
            surface,
            "←/→ change  ·  ↑/↓ choose  ·  Esc done",
            (left, self.back.rect.centery),
            14,
            theme.TEXT_MUTED,
            anchor="midleft",
        )
        self.back.draw(surface, text)


class HelpOverlay(Screen):
    """F1: the keys (and, later, the rules reference). Any key or click closes it."""

    opaque = False

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Close on a key or click."""
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """A panel listing the keys."""
        _dim(surface, 170)
        s, text = self.ui.s, self.ui.text
        w, h = surface.get_size()
        lh = text.line_height(15) + s(4)
        rect = pygame.Rect(0, 0, min(w - s(40), s(640)), s(90) + lh * len(HELP_KEYS))
        rect.center = (w // 2, h // 2)
        draw_panel(surface, rect, theme.PANEL, theme.ACCENT, radius=8)
        text.blit(surface, "Help — keys", (rect.x + s(24), rect.y + s(18)), 24, theme.ACCENT, bold=True)
        y = rect.y + s(60)
        for key, meaning in HELP_KEYS:
            if not meaning:
                text.blit(surface, key.upper(), (rect.x + s(24), y + s(4)), 13, theme.TEXT_MUTED, bold=True)
            else:
                text.blit(surface, key, (rect.x + s(36), y), 15, theme.TEXT, bold=True)
                text.blit(surface, meaning, (rect.x + rect.width // 2, y), 15, theme.TEXT)
            y += lh
        text.blit(
            surface,
            "any key closes",
            (rect.right - s(16), rect.bottom - s(12)),
            13,
            theme.TEXT_MUTED,
            anchor="bottomright",
        )


class EscapeMenu(Screen):
    """Esc during a battle: resume, settings, help, back to the title, quit."""

    opaque = False

    def __init__(self, ui: UiContext, to_title: Callable[[], Transition]) -> None:
        super().__init__(ui)
        self.column = ButtonColumn(
            [
                Button("Resume", Pop, hotkey=pygame.K_r),
                Button("Settings", lambda: Push(SettingsScreen(self.ui))),
                Button("Help (F1)", lambda: Push(HelpOverlay(self.ui))),
                Button("Back to title", lambda: Pop(then=to_title())),
                Button("Quit game", Quit),
            ]
        )
        self.rect = pygame.Rect(0, 0, 0, 0)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the menu."""
        super().on_resize(size)
        s = self.ui.s
        n = len(self.column.buttons)
        self.rect = pygame.Rect(0, 0, s(320), s(70) + n * s(52))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.column.layout(size[0] // 2, self.rect.y + s(56), s(260), s(42), s(10))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Escape resumes."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        _, result = self.column.handle(event)
        if isinstance(result, Push | Pop | Replace | Quit):
            return result
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The menu over the dimmed battle."""
        _dim(surface)
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        self.ui.text.blit(
            surface,
            "Menu",
            (self.rect.centerx, self.rect.y + self.ui.s(16)),
            22,
            theme.ACCENT,
            bold=True,
            anchor="midtop",
        )
        self.column.draw(surface, self.ui)
