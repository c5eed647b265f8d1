"""Title, new-battle, settings, help and escape-menu screens.

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
from typing import Any, ClassVar

import pygame

from game.engine.players import LEVEL_NAMES
from game.ui import theme
from game.ui.battle_setup import BattleSetup as BattleSetup
from game.ui.dialogs import FileChooser, MessageDialog, _dim
from game.ui.screen import Home, Pop, Push, Quit, Replace, Screen, Transition, UiContext, transition_of
from game.ui.settings import ANIMATION_SPEEDS, UI_SCALES, Settings
from game.ui.widgets import Button, ScrollList, Tooltip, draw_panel

HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("Board", ""),
    ("Drag, arrows, W A S D", "pan the map"),
    ("Wheel, + / −", "zoom around the cursor"),
    ("Home · Tab · Shift+Tab", "fit the map · next · previous figure"),
    ("Click · hover", "select a figure · inspect a hex (ground, light, footing) or figure"),
    ("G", "the GM's panel (in a battle with a GM seat)"),
    ("Movement", ""),
    ("Click a coloured hex", "move there along the shown path"),
    ("Wheel / Q E over it", "choose the final facing"),
    ("H · Space", "hold · stay where you are"),
    ("C", "posture: standing · crawling · lying down"),
    ("O on your selected figure", "standing order: always / never / ask before stopping enemies"),
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
                    "Join a table",
                    self._join_table,
                    tooltip="Take a seat at a battle hosted on another computer (python main.py host).",
                    hotkey=pygame.K_j,
                ),
                Button(
                    "Settings",
                    lambda: Push(SettingsScreen(self.ui)),
                    tooltip="UI scale, colours, animation.",
                    hotkey=pygame.K_s,
                ),
                Button(
                    "Roster editor",
                    self._roster_editor,
                    tooltip="Edit the characters, sides and figures of a roster file.",
                    hotkey=pygame.K_r,
                ),
                Button("Quit", Quit, hotkey=pygame.K_q),
            ]
        )

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


@dataclass(frozen=True)
class SideChoice:
    """One side of the chosen map as the New battle screen shows it."""

    id: str
    name: str
    colour: str


def map_sides(map_path: Path, roster_path: Path | None) -> tuple[list[SideChoice], str]:
    """The sides a map and roster put on the field, and the roster's file name (or an error sentence)."""
    from game.maps.loader import load_map
    from game.roster import load_roster
    from game.session import default_roster_for, place_figures

    loaded = load_map(map_path)
    rp = roster_path or default_roster_for(map_path, loaded)
    roster = load_roster(rp)
    sides: list[SideChoice] = []
    for f in place_figures(loaded, roster):
        if all(sc.id != f["side"] for sc in sides):
            rs = roster.side(f["side"])
            sides.append(
                SideChoice(f["side"], rs.name if rs else str(f["side"]).capitalize(), rs.colour if rs else "#888888")
            )
    return sides, rp.name


@functools.lru_cache(maxsize=64)
def _map_title(path: Path, mtime: float) -> tuple[str, str]:
    import xml.etree.ElementTree as ElementTree

    title, description = path.stem.replace("_", " ").capitalize(), ""
    try:
        for _, elem in ElementTree.iterparse(path, events=("end",)):
            if elem.tag == "property" and elem.get("name") in ("name", "description"):
                value = (elem.get("value") or elem.text or "").strip()[:200]
                if value and elem.get("name") == "name":
                    title = value
                elif value:
                    description = value
            if elem.tag == "properties":  # the map's own properties come first
                break
    except (OSError, ElementTree.ParseError):
        pass
    return title, description


def map_title(path: Path) -> tuple[str, str]:
    """A map's title and description (its Tiled properties ``name`` and ``description``) for the New battle
    list; the file name as words when the map has no ``name`` (or cannot be read: loading it then says why)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = 0.0
    return _map_title(path, mtime)


_THUMBS: dict[tuple[Path, float, tuple[int, int]], pygame.Surface | None] = {}


def map_thumbnail(path: Path, size: tuple[int, int]) -> pygame.Surface | None:
    """The map's tiles drawn as Tiled draws them (``game.maps.render``), scaled to fit ``size``; None when the
    map cannot be drawn (New battle then shows the map's problem instead). Kept per file version and size."""
    try:
        key = (path, path.stat().st_mtime, size)
    except OSError:
        return None
    if key not in _THUMBS:
        from game.maps.loader import load_map
        from game.maps.render import render_map

        try:
            full = render_map(load_map(path))
            w, h = full.get_size()
            scale = min(size[0] / max(1, w), size[1] / max(1, h))
            _THUMBS[key] = pygame.transform.smoothscale(full, (max(1, int(w * scale)), max(1, int(h * scale))))
        except Exception:  # a broken map is described by the screen's problem text, not here
            _THUMBS[key] = None
    return _THUMBS[key]


def map_campaign_roster(map_path: Path) -> Path | None:
    """The campaign copy of a map's own roster ("Save wounds to roster" made it), or None (also when the map
    cannot be read: New battle then describes the map's problem)."""
    from game.maps.loader import load_map
    from game.paths import campaign_roster
    from game.session import default_roster_for

    try:
        return campaign_roster(default_roster_for(map_path, load_map(map_path)))
    except Exception:  # a broken map is described by map_sides, not here
        return None


class NewBattleScreen(Screen):
    """Choose a map (shipped or any .tmx), a roster, who plays each side and the rule options.

    The defaults (first map, its own roster, side one human and the others computer, the rules text's
    options) start a skirmish in one click.
    """

    CONTROLLERS = ("human", "tactical", "veteran", "novice")
    """Who may play a side: a human or a computer level ("random" is a testing tool, left to ``simulate``)."""
    CONTROLLER_NAMES: ClassVar[dict[str, str]] = {"human": "Human", **LEVEL_NAMES}

    def __init__(self, ui: UiContext, start_battle: Callable[[BattleSetup], Transition | None]) -> None:
        super().__init__(ui)
        from game.engine.battle import RULE_OPTION_HELP
        from game.session import shipped_maps

        self.start_battle = start_battle
        found = sorted(ui.maps_dir.glob("*.tmx")) if ui.maps_dir.is_dir() else []
        self.maps: list[Path] = list(found) or shipped_maps()
        self.roster: Path | None = None
        self.campaign: Path | None = None
        """The campaign copy of the chosen map's own roster (``game.paths.campaign_roster``), if one exists."""
        self.use_campaign = True
        """Whether the map's roster is its campaign copy (when one exists) rather than the roster as shipped."""
        self.preview_rect = pygame.Rect(0, 0, 0, 0)
        self.option_tip = Tooltip()
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), self._labels(), size=16, on_select=self._chosen)
        self.list.selected = 0
        self.browse = Button("Browse…", self._browse, size=15, hotkey=pygame.K_b)
        self.roster_button = Button("Roster…", self._choose_roster, size=15)
        self.roster_reset = Button("Map's own", self._reset_roster, size=15)
        self.roster_edit = Button(
            "Edit roster",
            self._edit_roster,
            size=15,
            hotkey=pygame.K_e,
            tooltip="Edit this roster: characters, traits, skills, gear.",
        )
        self.start = Button("Start battle", self._start, size=18)
        self.back = Button("Back", Pop, size=16)
        self.hosting = _host_controls(ui, self.setup)
        self.options: dict[str, bool] = {k: False for k in RULE_OPTION_HELP}
        self.option_help = dict(RULE_OPTION_HELP)
        self.option_rects: dict[str, pygame.Rect] = {}
        self.sides: list[SideChoice] = []
        self.controllers: dict[str, str] = {}
        self.side_buttons: list[Button] = []
        self.roster_name = ""
        self.problem = ""
        self.problem_lines: list[str] = []
        self.problem_rect = pygame.Rect(0, 0, 0, 0)
        self._cache: dict[tuple[Path, Path | None], tuple[list[SideChoice], str, str]] = {}
        self._campaigns: dict[Path, Path | None] = {}
        self._refresh()

    def _labels(self) -> list[str]:
        return [map_title(p)[0] for p in self.maps]

    @property
    def map_path(self) -> Path | None:
        """The map chosen now."""
        if not self.maps:
            return None
        index = self.list.selected if self.list.selected is not None else 0
        return self.maps[index]

    def _refresh(self) -> None:
        """Read the chosen map's sides (cached per map and roster)."""
        mp = self.map_path
        if mp is None:
            self.sides, self.roster_name, self.problem = [], "", "No maps found: use Browse… to open a .tmx file."
        else:
            if mp not in self._campaigns:
                self._campaigns[mp] = map_campaign_roster(mp)
            self.campaign = self._campaigns[mp]
            key = (mp, self.chosen_roster)
            if key not in self._cache:
                try:
                    sides, name = map_sides(mp, self.chosen_roster)
                    self._cache[key] = (sides, name, "")
                except Exception as exc:  # a broken map or roster is described, not raised
                    from game.ui.dialogs import describe_error

                    self._cache[key] = ([], "", describe_error(exc, f"Reading {mp.name}"))
            self.sides, self.roster_name, self.problem = self._cache[key]
        self.roster_reset.text = "As shipped" if self.roster is None and self.campaign_in_use else "Map's own"
        if self.roster is None and self.campaign is not None and not self.use_campaign:
            self.roster_reset.text = "Campaign copy"
        for i, sc in enumerate(self.sides):
            self.controllers.setdefault(sc.id, "human" if i == 0 else "tactical")
        self.side_buttons = [Button("", functools.partial(self._toggle, sc.id), size=15) for sc in self.sides]
        self._refresh_side_labels()
        if self.size != (0, 0):
            self.on_resize(self.size)

    @property
    def campaign_in_use(self) -> bool:
        """Whether the battle would use the campaign copy of the map's roster."""
        return self.roster is None and self.campaign is not None and self.use_campaign

    @property
    def chosen_roster(self) -> Path | None:
        """The roster the battle would use: one the player chose, else the map's campaign copy (wounds carried
        from the last battle) unless the player asked for the roster as shipped, else None (the map's own)."""
        return self.roster or (self.campaign if self.campaign_in_use else None)

    def _chosen(self, index: int) -> None:
        self._refresh()

    def _refresh_side_labels(self) -> None:
        for sc, b in zip(self.sides, self.side_buttons, strict=True):
            b.text = f"{sc.name}: {self.CONTROLLER_NAMES[self.controllers[sc.id]]}"

    def _toggle(self, side: str) -> bool:
        chosen = self.controllers[side]
        current = self.CONTROLLERS.index(chosen) if chosen in self.CONTROLLERS else -1
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

    def _choose_roster(self) -> Transition:
        def chosen(path: Path) -> Transition | None:
            self.roster = path
            self._refresh()
            return None

        mp = self.map_path
        folder = mp.parent if mp is not None else self.ui.maps_dir
        return Push(FileChooser(self.ui, "Choose a roster", folder, (".toml",), chosen))

    def _edit_roster(self) -> Transition | None:
        from game.ui.roster_editor import edit_roster, roster_for_map

        mp = self.map_path
        if mp is None:
            return None
        try:
            path = roster_for_map(mp, self.chosen_roster)
        except Exception as exc:  # a broken map is described, not raised
            from game.ui.dialogs import describe_error

            return Push(
                MessageDialog(self.ui, "Cannot edit the roster", describe_error(exc, f"Reading {mp.name}"), error=True)
            )

        def saved(new_path: Path) -> None:
            if new_path != path or self.roster is not None:
                self.roster = new_path
            self._cache.clear()
            self._refresh()

        return edit_roster(self.ui, path, saved)

    def _reset_roster(self) -> bool:
        if self.roster is not None:
            self.roster, self.use_campaign = None, True
        elif self.campaign is not None:
            self.use_campaign = not self.use_campaign
        self._refresh()
        return True

    def setup(self) -> BattleSetup:
        """The battle the screen would start now."""
        from game.engine.battle import RuleOptions

        return BattleSetup(
            self.map_path,
            self.chosen_roster,
            tuple(self.controllers.get(sc.id, "human") for sc in self.sides[:2]),
            options=RuleOptions(**self.options),
            side_controllers=tuple((sc.id, self.controllers.get(sc.id, "human")) for sc in self.sides),
        )

    def _start(self) -> Transition | None:
        return self.start_battle(self.setup())

    def on_resize(self, size: tuple[int, int]) -> None:
        """Two columns: map and roster on the left; players and rule options on the right."""
        super().on_resize(size)
        s = self.ui.s
        w, h = size
        panel_w = min(w - s(40), s(1000))
        left = (w - panel_w) // 2
        top = s(100)
        lw = panel_w * 2 // 5
        roster_y = h - s(116)  # the roster line and its buttons close the left column
        rows = self.ui.text.line_height(16) + s(6)
        list_h = min(max(3, len(self.maps)) * rows + s(12), (roster_y - top) * 2 // 5)
        self.list.rect = pygame.Rect(left, top, lw, list_h)
        self.browse.rect = pygame.Rect(left, self.list.rect.bottom + s(8), s(120), s(34))
        self.preview_rect = pygame.Rect(
            left, self.browse.rect.bottom + s(10), lw, max(s(40), roster_y - s(34) - self.browse.rect.bottom - s(10))
        )
        bw3 = min(s(120), (lw - 2 * s(8)) // 3)  # three buttons always inside the left column
        self.roster_button.rect = pygame.Rect(left, roster_y, bw3, s(34))
        self.roster_reset.rect = pygame.Rect(left + bw3 + s(8), roster_y, bw3, s(34))
        self.roster_edit.rect = pygame.Rect(left + 2 * (bw3 + s(8)), roster_y, bw3, s(34))
        rx = left + lw + s(30)
        bw = panel_w - lw - s(30)
        y = top + s(4)
        for b in self.side_buttons:
            b.rect = pygame.Rect(rx, y, min(bw, s(420)), s(36))
            y += s(42)
        # A broken map or roster gets its own wrapped block, so the rule options start below it.
        self.problem_lines, self.problem_rect = [], pygame.Rect(rx, y, 0, 0)
        if self.problem:
            text = self.ui.text
            self.problem_lines = text.wrap(self.problem, 14, bw)[:8]
            self.problem_rect = pygame.Rect(rx, y, bw, len(self.problem_lines) * text.line_height(14))
            y = self.problem_rect.bottom + s(8)
        y += s(30)
        self.option_rects = {}
        # the options keep clear of Back / Start: when two lines each do not fit, one line each (help on hover)
        room = h - s(112) - y  # above Back / Start and the hosting choices beside them
        n = max(1, len(self.options))
        columns = 1 if n * s(26) <= room else 2  # very little room: the options in two columns
        rows = -(-n // columns)
        step = s(44) if rows * s(44) <= room else max(s(26), room // rows)
        col_w = (bw - s(10) * (columns - 1)) // columns
        for i, k in enumerate(self.options):
            col, row = divmod(i, rows)
            self.option_rects[k] = pygame.Rect(rx + col * (col_w + s(10)), y + row * step, col_w, step - s(4))
        self.back.rect = pygame.Rect(rx, h - s(70), s(120), s(44))
        start_w = min(s(240), bw - self.back.rect.width - s(12))
        self.start.rect = pygame.Rect(rx + bw - start_w, h - s(70), start_w, s(44))
        self.hosting.layout(pygame.Rect(rx + s(130), h - s(106), max(s(60), bw - s(140) - start_w), s(80)))

    def update(self, dt: float) -> bool:
        """Time the rule options' hover help."""
        return self.option_tip.update(dt)

    def draw_preview(self, surface: pygame.Surface) -> None:
        """The chosen map small (its tiles as Tiled draws them) beside its title and description."""
        s, text = self.ui.s, self.ui.text
        box = self.preview_rect
        mp = self.map_path
        if mp is None or box.width <= 0 or box.height <= 0:
            return
        title, description = map_title(mp)
        tall = box.height >= s(220)  # room enough: the map above its words, else beside them
        size = (box.width, box.height - s(90)) if tall else (min(box.width // 2, box.height * 3 // 2), box.height)
        thumb = map_thumbnail(mp, size)
        x, y = box.x, box.y
        if thumb is not None:
            surface.blit(thumb, (box.x, box.y))
            pygame.draw.rect(surface, theme.BORDER, (box.x, box.y, *thumb.get_size()), 1)
            if tall:
                y = box.y + thumb.get_height() + s(8)
            else:
                x = box.x + thumb.get_width() + s(10)
        width = box.right - x
        for line in text.wrap(title, 15, width)[:2]:
            text.blit(surface, line, (x, y), 15, theme.TEXT, bold=True)
            y += text.line_height(15)
        lines = text.wrap(description or mp.name, 13, width)
        room = max(0, (box.bottom - y) // text.line_height(13))
        if len(lines) > room:
            lines = lines[:room]
            if lines:
                lines[-1] = lines[-1].rstrip(" .,;") + "…"
        for line in lines:
            text.blit(surface, line, (x, y), 13, theme.TEXT_MUTED)
            y += text.line_height(13)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Arrows choose the map, Enter starts, Escape goes back; clicks toggle options and players."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self._start()
            if event.key in (pygame.K_UP, pygame.K_DOWN):
                current = self.list.selected or 0
                self.list.select(current + (1 if event.key == pygame.K_DOWN else -1))
                return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for k, rect in self.option_rects.items():
                if rect.collidepoint(event.pos):
                    self.options[k] = not self.options[k]
                    return None
        if event.type == pygame.MOUSEMOTION:
            tip = next((self.option_help[k] for k, r in self.option_rects.items() if r.collidepoint(event.pos)), "")
            self.option_tip.hover(tip, event.pos)
        if (hosted := self.hosting.handle(event)) is not None:
            return hosted  # type: ignore[no-any-return]
        self.list.handle(event)
        for b in (
            *self.side_buttons,
            self.browse,
            self.roster_button,
            self.roster_reset,
            self.roster_edit,
            self.start,
            self.back,
        ):
            b.handle(event)
            if (to := transition_of(b.result)) is not None:
                return to
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Map list, roster, players, rule options, start."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        text.blit(surface, "New battle", (self.list.rect.x, s(30)), 34, theme.ACCENT, bold=True)
        text.blit(surface, "Map", (self.list.rect.x, self.list.rect.y - s(24)), 15, theme.TEXT_MUTED, bold=True)
        self.list.draw(surface, text)
        self.browse.draw(surface, text)
        self.draw_preview(surface)
        ry = self.roster_button.rect.y - s(24)
        roster = f"Roster: {self.roster_name or '—'}"
        if self.campaign_in_use:
            roster += " (campaign copy: wounds carried over)"
        elif self.roster is None:
            roster += " (the map's own, as shipped)" if self.campaign is not None else " (the map's own)"
        text.blit(surface, roster, (self.list.rect.x, ry), 14, theme.TEXT)
        self.roster_button.draw(surface, text)
        self.roster_reset.draw(surface, text)
        self.roster_edit.draw(surface, text)
        rx = self.start.rect.x if not self.side_buttons else self.side_buttons[0].rect.x
        rx = self.back.rect.x
        text.blit(surface, "Players (click to change)", (rx, self.list.rect.y - s(24)), 15, theme.TEXT_MUTED, bold=True)
        for sc, b in zip(self.sides, self.side_buttons, strict=True):
            b.draw(surface, text)
            colour = self.ui.side_colour(sc.colour, self.sides.index(sc))
            pygame.draw.circle(surface, colour, (b.rect.x + s(16), b.rect.centery), s(7))
        y = self.problem_rect.y
        for line in self.problem_lines:
            text.blit(surface, line, (rx, y), 14, theme.DANGER)
            y += text.line_height(14)
        if self.option_rects:
            first = next(iter(self.option_rects.values()))
            text.blit(surface, "Rule options", (rx, first.y - s(24)), 15, theme.TEXT_MUTED, bold=True)
        for k, rect in self.option_rects.items():
            box = pygame.Rect(rect.x, rect.y + s(3), s(18), s(18))
            pygame.draw.rect(surface, theme.PANEL_LIGHT, box, border_radius=3)
            pygame.draw.rect(surface, theme.ACCENT if self.options[k] else theme.BORDER, box, 2, border_radius=3)
            if self.options[k]:
                pygame.draw.lines(
                    surface,
                    theme.ACCENT,
                    False,
                    [(box.x + s(4), box.centery), (box.x + s(8), box.bottom - s(4)), (box.right - s(3), box.y + s(4))],
                    3,
                )
            text.blit(
                surface, k.replace("_", " ").capitalize(), (box.right + s(10), rect.y + s(2)), 14, theme.TEXT, bold=True
            )
            if rect.height < s(36):
                continue  # one line per option: its help shows under the mouse
            help_text = self.option_help[k]
            while text.width(help_text, 12) > rect.width - s(30) and len(help_text) > 10:
                help_text = help_text[:-2]
            if help_text != self.option_help[k]:
                help_text = help_text.rstrip() + "…"
            text.blit(surface, help_text, (box.right + s(10), rect.y + s(21)), 12, theme.TEXT_MUTED)
        self.back.draw(surface, text)
        self.start.draw(surface, text)
        self.hosting.draw(surface, text)
        self.option_tip.draw(surface, text)


class SettingsScreen(Screen):
    """UI scale, colour-blind-safe palette, animation speed, hex grid: changed with arrows or clicks."""

    ROWS = ("ui_scale", "colour_blind", "animation_speed", "show_grid", "sound_volume", "sound_muted")
    NAMES: ClassVar[dict[str, str]] = {
        "ui_scale": "UI scale",
        "colour_blind": "Colour-blind-safe colours",
        "animation_speed": "Animation speed",
        "show_grid": "Hex grid",
        "sound_volume": "Sound volume",
        "sound_muted": "Sound",
    }

    def __init__(self, ui: UiContext) -> None:
        super().__init__(ui)
        self.row = 0
        self.rects: list[tuple[pygame.Rect, pygame.Rect, pygame.Rect]] = []
        self.back = Button("Done", Pop, size=16)
        self.show_palette = True
        """Whether the palette's swatches fit under the rows (not in the shortest windows)."""

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
        n = len(self.ROWS)
        below = s(160)  # the palette's swatches and Done under the rows
        top, step = s(130), s(56)
        over = top + n * step + below - (size[1] - s(12))
        if over > 0:  # a short window: the rows move up, then close up
            top = max(s(100), top - over)
            over = top + n * step + below - (size[1] - s(12))
            if over > 0:
                step = max(s(40), step - -(-over // n))
        self.show_palette = top + n * step + below <= size[1] - s(12)
        if not self.show_palette:  # still no room: Done goes right under the rows, the swatches give way
            below = s(60)
        self.rects = []
        for i in range(n):
            row = pygame.Rect(left, top + i * step, width, step - s(10))
            minus = pygame.Rect(row.right - s(190), row.y + s(5), s(34), row.height - s(10))
            plus = pygame.Rect(row.right - s(44), row.y + s(5), s(34), row.height - s(10))
            self.rects.append((row, minus, plus))
        self.back.rect = pygame.Rect(left + width - s(120), top + n * step + below - s(50), s(120), s(42))

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
        if self.show_palette:
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
    """F1: the keys of the screen it opens over on the left (``keys``), a short rules reference and the rule
    options on the right; every line wrapped in its column (``drawn`` holds where each went)."""

    opaque = False

    def __init__(self, ui: UiContext, keys: tuple[tuple[str, str], ...] = HELP_KEYS) -> None:
        super().__init__(ui)
        self.keys = keys
        self.drawn: list[pygame.Rect] = []
        """The text drawn last, line by line (no two overlap)."""
        self.keys_shown = 0
        """How many rows of ``keys`` fitted (all of them unless the window is tiny)."""

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Close on a key or click."""
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Two columns over the dimmed screen."""
        from game.engine.battle import RULE_OPTION_HELP

        _dim(surface, 190)
        s, text = self.ui.s, self.ui.text
        w, h = surface.get_size()
        rect = pygame.Rect(0, 0, min(w - s(30), s(1200)), min(h - s(30), s(680)))
        rect.center = (w // 2, h // 2)
        draw_panel(surface, rect, theme.PANEL, theme.ACCENT, radius=8)
        col_w = rect.width // 2 - s(30)
        drawn = self.drawn = []
        drawn.append(text.blit(surface, "Keys", (rect.x + s(20), rect.y + s(14)), 22, theme.ACCENT, bold=True))
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
        y = rect.y + s(48)
        self.keys_shown = 0
        for keys, means, height in rows:
            if y + height > foot:
                break
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
        y = rect.y + s(48)
        small = text.line_height(12)
        for title, body in RULES_REFERENCE:
            if y + small > foot:
                break
            drawn.append(text.blit(surface, title, (x, y), 12, theme.ACCENT, bold=True))
            y += small
            for line in text.wrap(body, 12, col_w):
                if y + small > foot:
                    break
                drawn.append(text.blit(surface, line, (x, y), 12, theme.TEXT))
                y += small
            y += s(3)
        y += s(4)
        if y + small <= foot:
            drawn.append(text.blit(surface, "Rule options (New battle)", (x, y), 12, theme.ACCENT, bold=True))
            y += small
        for help_text in RULE_OPTION_HELP.values():
            for line in text.wrap("• " + help_text, 11, col_w):
                if y + text.line_height(11) > foot:
                    break
                drawn.append(text.blit(surface, line, (x, y), 11, theme.TEXT_MUTED))
                y += text.line_height(11)
        footer = text.blit(
            surface,
            "any key closes · our readings of the rules: README, “How this game reads the rules”",
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
        self.rect = pygame.Rect(0, 0, s(320), s(70) + n * s(52))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.column.layout(size[0] // 2, self.rect.y + s(56), s(260), s(42), s(10))

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


def _host_controls(ui: UiContext, setup: Callable[[], BattleSetup]) -> Any:
    from game.ui.join_screen import HostControls  # the network is loaded only when New battle opens

    return HostControls(ui, setup)
