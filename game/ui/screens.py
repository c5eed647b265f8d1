"""Title, settings, help and escape-menu screens (New battle lives in ``game.ui.new_battle``).

Every screen works with the keyboard (arrows / Tab, Enter, Escape, the underlined hotkeys) and the mouse.
The title's Continue and Load stay disabled, with a tooltip saying why, until a save exists; what opening a
save does is a hook (``UiContext.open_save``) that the battle record fills in later.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pygame

from game.ui import theme
from game.ui.battle_setup import BattleSetup as BattleSetup
from game.ui.dialogs import FileChooser, MessageDialog, _dim, draw_modal_box
from game.ui.new_battle import NewBattleScreen as NewBattleScreen
from game.ui.new_battle import SideChoice as SideChoice
from game.ui.new_battle import map_campaign_roster as map_campaign_roster
from game.ui.new_battle import map_sides as map_sides
from game.ui.new_battle import map_thumbnail as map_thumbnail
from game.ui.new_battle import map_title as map_title
from game.ui.screen import Home, Pop, Push, Quit, Replace, Screen, Transition, UiContext
from game.ui.settings import ANIMATION_SPEEDS, HAND_OFFS, UI_SCALES, Settings
from game.ui.widgets import Button, Tooltip, draw_panel

HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("Board", ""),
    ("Drag, arrows, W A S D", "pan the map"),
    ("Wheel, + / −", "zoom around the cursor"),
    ("Home · Tab · Shift+Tab", "fit the map · next · previous figure"),
    ("Click · hover", "select a figure · inspect a hex (ground, light, footing) or figure"),
    ("G", "the GM's panel (Enter goes on when the battle stops for the GM)"),
    ("Movement", ""),
    ("Click a coloured hex", "move there along the shown path"),
    ("Wheel / Q E over it", "choose the final facing"),
    ("H · Space", "hold · stay where you are"),
    ("C", "posture: standing · crawling · lying down"),
    ("O · F on your figure", "standing order for stopping enemies · a hero's for Fudge Points"),
    ("P · click a held figure", "pass · interrupt with it"),
    ("Y / N", "stop the mover · run or stay · follow"),
    ("Attack", ""),
    ("Click a red-outlined enemy, T", "choose / cycle the target"),
    ("1 – 5", "stance, very aggressive … very defensive"),
    ("Click hexes ahead / behind", "advance (aggressive) / retreat (defensive)"),
    ("Backspace · L", "forget the advance and retreat · aim at head, arm, leg…"),
    ("Spells row · click purple", "cast a spell at a figure or an area"),
    ("Enter", "declare"),
    ("Anywhere", ""),
    ("Ctrl+S · Ctrl+O · Ctrl+Z", "save · load · undo your last decision"),
    ("F1 · Esc", "this help · clear the selection, then the menu"),
)
"""The keys of the battle screen (F1 in a battle, and Help in its menu)."""

VIEWER_HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("Board", ""),
    ("Drag, arrows, W A S D", "pan the map"),
    ("Wheel, + / −", "zoom around the cursor"),
    ("Home · G · Tab", "fit the map · grid on / off · next figure"),
    ("Click · hover", "select · inspect a hex or figure"),
    ("Anywhere", ""),
    ("F1 · Esc", "this help · menu / back"),
)
"""The keys of the plain board viewer (a map without a battle)."""

MENU_HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("Menus", ""),
    ("↑ ↓ · Tab · Shift+Tab", "choose a button"),
    ("Enter · Space · click", "press it"),
    ("N C L J S R Q", "on the title: New battle, Continue, Load, Join a table, Settings, Roster editor, Quit"),
    ("Esc", "back (on the title: quit)"),
    ("Anywhere", ""),
    ("F1", "this help"),
)
"""The keys of the title and the screens around a battle (F1 where no board is shown)."""

RULES_REFERENCE: tuple[tuple[str, str], ...] = (
    (
        "Round",
        "Initiative (Speed + 4dF, best first), then movement in that order, then the attack "
        "phase: everyone declares (lowest initiative first), one 4dF each, all blows land at once.",
    ),
    (
        "Moving",
        "Your allowance comes from Speed; the worst terrain penalty of the hexes you use this "
        "round lowers it (never below one hex). A hex with a figure costs one more; one side of "
        "turning is free between hexes, more costs a hex. Hold to move later or to interrupt.",
    ),
    (
        "Zones of control",
        "The three hexes in front of a fighting figure. Entering is free; leaving one "
        "whose owner stops you is an escape roll: your Agility against each stopper's "
        "combat skill. Lose and you stay put, or run and take a free attack from each.",
    ),
    (
        "Attacking",
        "Melee reaches the front hexes (spears two hexes in the front arc). A hit must beat "
        "the target's defence, the defence of everyone else fighting you, and the difficulty. "
        "The margin plus weapon, Strength and armour gives the damage, read on the wound track.",
    ),
    (
        "Stances",
        "Aggressive: better attack, worse defence, may trade the bonus to advance. Defensive: "
        "the reverse, and may (very defensive: must) step back a hex.",
    ),
    (
        "Missiles",
        "Range bands set the difficulty; a target that dodges rolls Agility. The line of fire is "
        "exact: a wall touched only at an edge gives partial cover (−1); a miss may strike a "
        "figure on the line.",
    ),
    (
        "Wounds",
        "Scratch, Hurt, Very Hurt (−1 from the next round), Incapacitated, Near Death. A Health "
        "roll can lower each wound. Incapacitated figures leave the fight.",
    ),
    (
        "Magic",
        "A caster picks a spell in the Spells row instead of attacking: skill + 4dF + firing modifiers "
        "against its difficulty. 1 second: rolled at once; 1 round: with the attacks; longer: stand "
        "still and concentrate (ring on the token), Will Good when forced to dodge, Great when hurt. "
        "Ranges: touch, close 2, short 10, long in sight; bolts are dodged like missiles.",
    ),
)
"""The help screen's short rules reference: our own summary of FTC as docs/rulings.md reads it."""


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
        return next((b.hint for b in self.buttons if b.hovered and b.hint), "")

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


class TitleScreen(Screen):
    """New battle / Continue / Load / Settings / Quit."""

    def __init__(self, ui: UiContext, start_battle: Callable[[BattleSetup], Transition | None]) -> None:
        super().__init__(ui)
        self.start_battle = start_battle
        self.tooltip: Tooltip = Tooltip()
        self._backdrop: pygame.Surface | None = None
        no_save = "No saved battle yet: it appears here once a battle has been played."
        has_auto, has_any = ui.has_autosave(), ui.has_saves()
        # label, action, hotkey, enabled, tooltip (a disabled button's says why)
        menu: tuple[tuple[str, Callable[[], object], int, bool, str], ...] = (
            ("New battle", self._new_battle, pygame.K_n, True, "Choose a map and who plays each side."),
            ("Continue", self._continue, pygame.K_c, has_auto, "Resume the autosaved battle." if has_auto else no_save),
            ("Load", self._load, pygame.K_l, has_any, "Open a saved battle." if has_any else no_save),
            (
                "Join a table",
                self._join_table,
                pygame.K_j,
                True,
                "Take a seat at a battle hosted on another computer (python main.py host).",
            ),
            ("Settings", lambda: Push(SettingsScreen(self.ui)), pygame.K_s, True, "UI scale, colours, animation."),
            (
                "Roster editor",
                self._roster_editor,
                pygame.K_r,
                True,
                "Edit the characters, sides and figures of a roster file.",
            ),
            ("Quit", Quit, pygame.K_q, True, ""),
        )
        self.column = ButtonColumn(
            [Button(label, action, enabled=on, tooltip=tip, hotkey=key) for label, action, key, on, tip in menu]
        )

    def _new_battle(self) -> Transition:
        return Push(NewBattleScreen(self.ui, self.start_battle))

    def _open(self, path: Path) -> Transition | None:
        if self.ui.open_save is None:
            return Push(
                MessageDialog(self.ui, "Saved battles", "Opening saved battles arrives with the battle record.")
            )
        try:
            return Push(self.ui.open_save(path))
        except Exception as exc:  # a bad save must not end the game
            from game.ui.dialogs import describe_error

            return Push(
                MessageDialog(self.ui, "Cannot open the save", describe_error(exc, f"Loading {path.name}"), error=True)
            )

    def _join_table(self) -> Transition:
        from game.ui.join_screen import JoinScreen

        return Push(JoinScreen(self.ui))

    def _continue(self) -> Transition | None:
        return self._open(self.ui.autosave_path())

    def _roster_editor(self) -> Transition:
        from game.ui.roster_editor import choose_roster_to_edit

        return choose_roster_to_edit(self.ui)

    def _load(self) -> Transition | None:
        folder = self.ui.saves_dir() if self.ui.saves_dir().is_dir() else self.ui.autosave_path().parent
        return Push(FileChooser(self.ui, "Load a battle", folder, (".json",), self._open))

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the menu."""
        super().on_resize(size)
        s = self.ui.s
        self._backdrop = None
        n = len(self.column.buttons)
        height, gap = s(46), s(12)
        bottom = size[1] - s(16) - self.ui.text.line_height(14) - s(8)  # the footer's line stays clear
        top = size[1] // 2 - s(40)
        if top + n * (height + gap) > bottom:  # a short window: the title moves up, then the buttons shrink
            top = max(s(170), bottom - n * (height + gap))
            step = max(s(30), (bottom - top) // n)
            height, gap = step * 4 // 5, step - step * 4 // 5
        self.column.layout(size[0] // 2, top, s(300), height, gap)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Keyboard and mouse over the menu; Escape quits."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Quit()
        _, result = self.column.handle(event)
        if event.type == pygame.MOUSEMOTION:
            self.tooltip.hover(self.column.hovered_tooltip(), event.pos)
        if isinstance(result, Push | Pop | Replace | Home | Quit):
            return result
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, title, menu, footer."""
        if self._backdrop is None or self._backdrop.get_size() != surface.get_size():
            self._backdrop = _hex_backdrop(surface.get_size(), self.ui.s(56))
        surface.blit(self._backdrop, (0, 0))
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        top = self.column.buttons[0].rect.top
        # the title's top stays on screen; under it its subtitle, then the two side rings when there is room
        lift = min(s(120), top - text.line_height(60) - s(4))
        text.blit(surface, "Fudge Tactics", (w // 2, top - lift), 60, theme.ACCENT, bold=True, anchor="midbottom")
        text.blit(
            surface,
            "hex-grid tactical combat for Fudge",
            (w // 2, top - lift + s(12)),
            20,
            theme.TEXT_MUTED,
            anchor="midtop",
        )
        if lift >= s(110):
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


class SettingsScreen(Screen):
    """UI scale, colour-blind-safe palette, animation speed, hex grid: changed with arrows or clicks."""

    ROWS = ("ui_scale", "colour_blind", "animation_speed", "show_grid", "sound_volume", "sound_muted", "hand_off")
    NAMES: ClassVar[dict[str, str]] = {
        "ui_scale": "UI scale",
        "colour_blind": "Colour-blind-safe colours",
        "animation_speed": "Animation speed",
        "show_grid": "Hex grid",
        "sound_volume": "Sound volume",
        "sound_muted": "Sound",
        "hand_off": "Hotseat curtain",
    }
    SWATCHES = 7
    """The palette's swatches: four sides' colours and the three movement bands."""
    HAND_OFF_WORDS: ClassVar[dict[str, str]] = {"always": "always", "secrets": "for secrets", "never": "never"}
    """The hotseat curtain's setting as it reads: at every change of seat, only when the next seat may see
    something the last one may not (secret stances, the GM's hand), or never."""

    def __init__(self, ui: UiContext) -> None:
        super().__init__(ui)
        self.row = 0
        self.rects: list[tuple[pygame.Rect, pygame.Rect, pygame.Rect]] = []
        self.back = Button("Done", Pop, size=16)
        self.show_palette = True
        """Whether the palette's swatches are shown (not in the shortest windows)."""
        self.palette_rect: pygame.Rect | None = None

    def value_text(self, key: str) -> str:
        """How a setting's value reads on screen."""
        st = self.ui.settings
        if key == "ui_scale":
            return f"{round(st.ui_scale * 100)} %"
        if key == "animation_speed":
            return "off" if st.animation_speed == 0 else f"{st.animation_speed:g}×"
        if key == "sound_volume":
            return f"{round(st.sound_volume * 100)} %"
        if key == "sound_muted":
            return "muted" if st.sound_muted else "on"
        if key == "hand_off":
            return self.HAND_OFF_WORDS.get(st.hand_off, st.hand_off)
        return "on" if getattr(st, key) else "off"

    def change(self, key: str, step: int) -> None:
        """Move a setting one step and apply it at once."""
        st: Settings = self.ui.settings
        if key == "ui_scale":
            i = UI_SCALES.index(st.ui_scale) if st.ui_scale in UI_SCALES else UI_SCALES.index(1.0)
            new = replace(st, ui_scale=UI_SCALES[max(0, min(len(UI_SCALES) - 1, i + step))])
        elif key == "animation_speed":
            i = ANIMATION_SPEEDS.index(st.animation_speed) if st.animation_speed in ANIMATION_SPEEDS else 2
            new = replace(st, animation_speed=ANIMATION_SPEEDS[max(0, min(len(ANIMATION_SPEEDS) - 1, i + step))])
        elif key == "sound_volume":
            new = replace(st, sound_volume=round(max(0.0, min(1.0, st.sound_volume + step / 10)), 1))
        elif key == "hand_off":
            i = HAND_OFFS.index(st.hand_off) if st.hand_off in HAND_OFFS else 1
            new = replace(st, hand_off=HAND_OFFS[max(0, min(len(HAND_OFFS) - 1, i + step))])
        else:
            flipped: dict[str, Any] = {key: not getattr(st, key)}
            new = replace(st, **flipped)
        self.ui.update_settings(new)
        self.on_resize(self.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Rows in the middle of the screen, the palette's swatches under them (beside the title when the
        window is short), Done at the foot."""
        super().on_resize(size)
        s = self.ui.s
        width = min(size[0] - s(40), s(560))
        left = (size[0] - width) // 2
        n = len(self.ROWS)
        swatches = self.SWATCHES * s(40) - s(8)
        below = s(160)  # the palette's swatches and Done under the rows
        top, step = s(130), s(56)

        def over() -> int:
            return top + n * step + below - (size[1] - s(12))

        if over() > 0:  # a short window: the rows move up, then close up
            top = max(s(100), top - over())
            if over() > 0:
                step = max(s(44), step - -(-over() // n))
        beside_title = over() > 0 and width - s(180) >= swatches
        if beside_title:  # the swatches go up beside the title, Done right under the rows
            below, top, step = s(60), s(100), s(56)
            if over() > 0:
                step = max(s(36), step - -(-over() // n))
        self.show_palette = over() <= 0 or beside_title
        if over() > 0:  # still no room: Done goes right under the rows, the swatches give way
            below = s(60)
        self.rects = []
        for i in range(n):
            row = pygame.Rect(left, top + i * step, width, step - s(10))
            minus = pygame.Rect(row.right - s(190), row.y + s(5), s(34), row.height - s(10))
            plus = pygame.Rect(row.right - s(44), row.y + s(5), s(34), row.height - s(10))
            self.rects.append((row, minus, plus))
        self.back.rect = pygame.Rect(left + width - s(120), top + n * step + below - s(50), s(120), s(42))
        label_y = s(30) if beside_title else self.rects[-1][0].bottom + s(30)
        x = left + width - swatches if beside_title else left
        self.palette_rect = pygame.Rect(x, label_y, swatches, s(24) + s(32)) if self.show_palette else None
        """Where the palette's name and swatches are drawn (None: not in this window)."""

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
        pal = self.ui.palette
        if self.palette_rect is not None:
            x, y = self.palette_rect.topleft
            text.blit(surface, f"Palette: {pal.name}", (x, y), 14, theme.TEXT_MUTED)
            swatches = [*pal.sides[:4], pal.move_free, pal.move_escape, pal.move_free_attacks]
            for i, c in enumerate(swatches):
                pygame.draw.rect(surface, c, (x + i * s(40), y + s(24), s(32), s(32)), border_radius=4)
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
    """F1: the keys of the screen it opens over on the left (``keys``), a short rules reference and the rule
    options on the right; every line wrapped in its column (``drawn`` holds where each went)."""

    opaque = False

    def __init__(self, ui: UiContext, keys: tuple[tuple[str, str], ...] = HELP_KEYS) -> None:
        super().__init__(ui)
        self.keys = keys
        self.drawn: list[pygame.Rect] = []
        """The text drawn last, line by line (no two overlap)."""
        self.keys_shown = 0
        """How many rows of ``keys`` were drawn on the page shown (all of them unless the window is small)."""
        self.key_rows_on_page: tuple[int, ...] = ()
        """The indices in ``keys`` of the rows drawn on the page shown."""
        self.sections_shown = 0
        """How many sections of the rules reference were drawn whole on the page shown."""
        self.sections_on_page: tuple[str, ...] = ()
        """The titles of the sections drawn whole on the page shown."""
        self.page = 0
        """The page of the rules reference shown (it pages when it does not fit: PgUp/PgDn or the wheel)."""
        self.pages = 1
        """How many pages the rules reference took when drawn last."""

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """PgUp/PgDn, ↑/↓ or the wheel turn the rules reference's pages; any other key or a click closes."""
        if event.type == pygame.MOUSEWHEEL:
            self.page = max(0, min(self.pages - 1, self.page - (1 if event.y > 0 else -1 if event.y < 0 else 0)))
            return None
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_PAGEDOWN,
            pygame.K_PAGEUP,
            pygame.K_DOWN,
            pygame.K_UP,
        ):
            step = 1 if event.key in (pygame.K_PAGEDOWN, pygame.K_DOWN) else -1
            self.page = max(0, min(self.pages - 1, self.page + step))
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5):  # the wheel, as older pygame sends it
            return None
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Two columns over the dimmed screen; the rules reference pages when it does not fit whole."""
        from game.engine.battle import RULE_OPTION_HELP

        s, text = self.ui.s, self.ui.text
        w, h = surface.get_size()
        rect = pygame.Rect(0, 0, min(w - s(30), s(1200)), min(h - s(30), s(680)))
        rect.center = (w // 2, h // 2)
        col_w = rect.width // 2 - s(30)
        drawn = self.drawn = [draw_modal_box(surface, self.ui, rect, "Keys", at=(20, 14), size=22, dim=190)]
        key_x = rect.x + s(28)
        key_w = col_w * 9 // 20
        mean_x = key_x + key_w + s(12)
        mean_w = rect.x + s(20) + col_w - mean_x
        foot = rect.bottom - s(10) - text.line_height(12) - s(4)
        for size in (13, 12, 11, 10):  # the largest size at which every key fits above the footer
            lh = text.line_height(size) + s(2)
            rows: list[tuple[list[str], list[str], int]] = []
            for key, meaning in self.keys:
                if not meaning:
                    rows.append(([key.upper()], [], lh + s(3)))
                    continue
                keys = text.wrap(key, size, key_w, bold=True)
                means = text.wrap(meaning, size, mean_w)
                rows.append((keys, means, lh * max(len(keys), len(means))))
            if rect.y + s(48) + sum(r[2] for r in rows) <= foot:
                break
        key_pages: list[list[int]] = [[]]  # rows by page: one page unless even the smallest size runs over
        key_room = foot - s(48) - rect.y
        if sum(r[2] for r in rows) > key_room:
            key_room -= text.line_height(11) + s(4)  # a line kept for the "more…" hint
        used = 0
        for n, row in enumerate(rows):
            if used + row[2] > key_room and key_pages[-1]:
                key_pages.append([])
                used = 0
            key_pages[-1].append(n)
            used += row[2]
        key_page = key_pages[self.page] if self.page < len(key_pages) else []
        self.key_rows_on_page = tuple(key_page)
        y = rect.y + s(48)
        self.keys_shown = 0
        for keys, means, height in (rows[n] for n in key_page):
            self.keys_shown += 1
            if not means:
                drawn.append(text.blit(surface, keys[0], (rect.x + s(20), y + s(3)), 11, theme.TEXT_MUTED, bold=True))
            for i, line in enumerate(keys if means else []):
                drawn.append(text.blit(surface, line, (key_x, y + i * lh), size, theme.TEXT, bold=True))
            for i, line in enumerate(means):
                drawn.append(text.blit(surface, line, (mean_x, y + i * lh), size, theme.TEXT))
            y += height
        x = rect.x + rect.width // 2 + s(10)
        text.blit(surface, "Rules reference", (x, rect.y + s(14)), 22, theme.ACCENT, bold=True)

        def reference_height(size: int, options: bool) -> int:
            lh = text.line_height(size)
            body = sum(lh * (1 + len(text.wrap(b, size, col_w))) + s(3) for _, b in RULES_REFERENCE)
            if not options:
                return body
            lines = sum(len(text.wrap("• " + h, size - 1, col_w)) for h in RULE_OPTION_HELP.values())
            return body + s(4) + lh + lines * text.line_height(size - 1)

        # the largest size at which the whole reference fits (its last sections were cut on short windows);
        # when none does (1024×640 or 1280×720 at 150 %), the reference pages: PgUp/PgDn or the wheel
        # when none does, the rule options (New battle explains them too) go to a second page; when even the
        # sections alone do not fit (1024×640 or 1280×720 at 150 %), the reference pages: PgUp/PgDn or the wheel
        top = rect.y + s(48)
        paged_room = foot - text.line_height(11) - s(4) - top  # a line kept for the "more…" hint
        tries = [(k, True, foot - top) for k in (12, 11, 10)] + [(k, False, paged_room) for k in (12, 11, 10, 9)]
        size = next((k for k, o, r in tries if reference_height(k, o) <= r), 11)
        small, tiny = text.line_height(size), text.line_height(size - 1)
        # every line as (text, size, colour, height, section index or -1, first line of its block)
        lines: list[tuple[str, int, tuple[int, int, int], int, int, bool]] = []
        for i, (title, body) in enumerate(RULES_REFERENCE):
            lines.append((title, size, theme.ACCENT, small, i, True))
            lines += [(line, size, theme.TEXT, small, i, False) for line in text.wrap(body, size, col_w)]
        lines.append(("Rule options (New battle)", size, theme.ACCENT, small, -1, True))
        for help_text in RULE_OPTION_HELP.values():
            lines += [
                (ln, size - 1, theme.TEXT_MUTED, tiny, -1, False) for ln in text.wrap("• " + help_text, size - 1, col_w)
            ]
        room = foot - top if reference_height(size, True) <= foot - top and len(key_pages) == 1 else paged_room
        pages: list[list[int]] = [[]]
        used = 0
        for n, (_, _, _, height, _, first) in enumerate(lines):
            gap = s(3) if first and pages[-1] else 0
            if first and pages[-1]:  # a block moves whole to the next page when it fits there and not here
                end = next((m for m in range(n + 1, len(lines)) if lines[m][5]), len(lines))
                block = sum(ln[3] for ln in lines[n:end])
                if used + gap + block > room and block <= room:
                    pages.append([])
                    used, gap = 0, 0
            if used + gap + height > room and pages[-1]:
                pages.append([])
                used, gap = 0, 0
            pages[-1].append(n)
            used += gap + height
        self.pages = max(len(pages), len(key_pages))
        self.page = max(0, min(self.page, self.pages - 1))
        shown = pages[self.page] if self.page < len(pages) else []
        y = top
        for n in shown:
            line, k, colour, height, _, first = lines[n]
            if first and shown and n != shown[0]:
                y += s(3)
            drawn.append(text.blit(surface, line, (x, y), k, colour, bold=first and k == size))
            y += height
        on_page = set(shown)
        self.sections_shown = sum(
            1 for i in range(len(RULES_REFERENCE)) if all(n in on_page for n, ln in enumerate(lines) if ln[4] == i)
        )
        self.sections_on_page = tuple(
            title
            for i, (title, _) in enumerate(RULES_REFERENCE)
            if all(n in on_page for n, ln in enumerate(lines) if ln[4] == i)
        )
        if self.pages > 1:
            more = "more… PgDn" if self.page < self.pages - 1 else "PgUp: back to the start"
            hint = f"page {self.page + 1} of {self.pages} · {more}"
            drawn.append(text.blit(surface, hint, (x, foot - s(2)), 11, theme.ACCENT, anchor="bottomleft"))
        footer = text.blit(
            surface,
            "Esc closes · our readings of the rules: docs/rules.md and docs/rulings.md",
            (rect.right - s(16), rect.bottom - s(10)),
            12,
            theme.TEXT_MUTED,
            anchor="bottomright",
        )
        drawn.append(footer)


class EscapeMenu(Screen):
    """Esc during a battle: resume, settings, help, back to the title, quit."""

    opaque = False

    def __init__(self, ui: UiContext, to_title: Callable[[], Transition], extra: list[Button] | None = None) -> None:
        super().__init__(ui)
        self.column = ButtonColumn(
            [
                Button("Resume", Pop, hotkey=pygame.K_r),
                *(extra or []),
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
        height, gap = s(42), s(10)
        room = size[1] - s(16) - s(70)  # the window less a margin and the menu's heading
        if n * (height + gap) > room:  # a short window or a large UI scale: the buttons close up
            step = max(self.ui.text.line_height(18, True) + s(4), room // n)
            height, gap = step - max(1, step // 6), max(1, step // 6)
        self.rect = pygame.Rect(0, 0, s(320), s(70) + n * (height + gap))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.column.layout(size[0] // 2, self.rect.y + s(56), s(260), height, gap)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Escape resumes."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        _, result = self.column.handle(event)
        if isinstance(result, Push | Pop | Replace | Home | Quit):
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
