"""The GM's edits of figures on screen (issue 8): gear, traits, a reinforcement placed on the map, a removal.

Each screen here is opened from the GM's panel (``game.ui.gm_panel``) and builds exactly one GM action of
``game.engine.gm`` (EditGear, EditTraits, AddFigure, RemoveFigure), sent through the panel and so through
the session to ``Battle.apply``: it lands in the log as a ``GMActed`` line and in the save like any
decision. The screens add no rules: what is allowed is the engine's to say ("between rounds",
``Battle.gm_between_rounds``; a free hex for the newcomer's whole footprint, ``Battle.gm_free_for``), and a
refusal shows the engine's sentence.
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pygame

from game.engine import equipment, gm
from game.engine.battle import Battle, Figure
from game.engine.characters import ATTRIBUTES, HIGH_PAIN_THRESHOLD, LOW_PAIN_THRESHOLD, TOUGH_HIDE, Character
from game.engine.creatures import MOOK_TRACK_NAME
from game.engine.hexgrid import Hex
from game.engine.ladder import FAIR, LEGENDARY, TERRIBLE, level_name
from game.engine.movement import encumbrance_penalty
from game.ui import theme
from game.ui.dialogs import MessageDialog, _dim
from game.ui.roster_editor import PickDialog, TextPrompt, known_skills
from game.ui.screen import Home, Pop, Push, Quit, Replace, Screen, Transition, UiContext
from game.ui.view import BoardView, HexFill
from game.ui.widgets import Button, TextCache, Tooltip, draw_panel

if TYPE_CHECKING:
    from game.ui.battle_screen import BattleScreen
    from game.ui.gm_panel import GMPanel

BETWEEN_ROUNDS = "Between rounds only: in the movement phase before any figure has moved or held (use End round first)."
"""The tooltip of every edit button: when the engine allows the edit (``Battle.gm_between_rounds``)."""


def _kg(x: float) -> str:
    return f"{round(x, 3):g} kg"


def _done(fn: Callable[[], object]) -> Callable[[], object]:
    """The action of a button, answering True when it returns nothing (so the box knows it was clicked)."""

    def run() -> object:
        result = fn()
        return True if result is None else result

    return run


def between_rounds_tip(what: str) -> str:
    """The tooltip of an edit button: what it does, and when the engine allows it."""
    return f"{what} {BETWEEN_ROUNDS}"


# ------------------------------------------------------------------------------------------- widgets


class CheckRow(Button):
    """A row of a list with a tick box, a name on the left and a detail (the mass) on the right."""

    def __init__(
        self,
        text: str,
        action: Callable[[], object],
        rect: pygame.Rect,
        *,
        checked: bool,
        detail: str = "",
        tooltip: str = "",
        size: int = 13,
        radio: bool = False,
    ) -> None:
        super().__init__(text, action, rect, tooltip=tooltip, size=size)
        self.checked = checked
        self.detail = detail
        self.radio = radio

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Box (or round dot for a one-of choice), name, detail."""
        r = self.rect
        if self.hovered or self.checked:
            pygame.draw.rect(surface, theme.BUTTON_HOVER if self.hovered else theme.PANEL_LIGHT, r, border_radius=4)
        side = max(8, r.height - 10)
        box = pygame.Rect(r.x + 4, r.centery - side // 2, side, side)
        if self.radio:
            pygame.draw.circle(surface, theme.BORDER, box.center, side // 2, width=1)
            if self.checked:
                pygame.draw.circle(surface, theme.ACCENT, box.center, max(2, side // 2 - 3))
        else:
            pygame.draw.rect(surface, theme.ACCENT if self.checked else theme.BORDER, box, width=1, border_radius=2)
            if self.checked:
                pts = [(box.x + 2, box.centery), (box.x + side // 2 - 1, box.bottom - 3), (box.right - 2, box.y + 2)]
                pygame.draw.lines(surface, theme.ACCENT, False, pts, 2)
        fg = theme.TEXT if self.enabled else theme.TEXT_DISABLED
        text.blit(surface, self.text, (box.right + 6, r.centery), self.size, fg, bold=self.checked, anchor="midleft")
        if self.detail:
            text.blit(
                surface, self.detail, (r.right - 6, r.centery), self.size - 1, theme.TEXT_MUTED, anchor="midright"
            )


class GMDialog(Screen):
    """A box over the dimmed battle, opened from the GM's panel: buttons, lines of text, a message."""

    opaque = False
    TITLE = ""
    WIDTH, HEIGHT = 980, 660

    def __init__(self, ui: UiContext, panel: GMPanel) -> None:
        super().__init__(ui)
        self.panel = panel
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.buttons: list[Button] = []
        self.texts: list[tuple[str, tuple[int, int], int, tuple[int, int, int], bool]] = []
        self.message = ""
        self.error = False
        self.tooltip: Tooltip = Tooltip()
        self.apply_button: Button | None = None

    @property
    def battle(self) -> Battle:
        """The battle (read through the battle screen: undo replaces it)."""
        return self.panel.battle

    @property
    def screen(self) -> BattleScreen:
        """The battle screen under the panel."""
        return self.panel.screen

    def send(self, action: gm.GMAction) -> Transition | None:
        """Send the GM action through the panel: back to the panel (which shows the log's line) when it is
        done, else the engine's sentence here."""
        if self.panel.send(action):
            return Pop(then=self.panel.closing_transition())
        self.message, self.error = self.panel.message, True
        return None

    # --- layout helpers --------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the box and lay it out."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - s(20), s(self.WIDTH)), min(size[1] - s(20), s(self.HEIGHT)))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.layout()

    def layout(self) -> None:
        """Build ``buttons`` and ``texts`` for the current choices."""
        self.buttons, self.texts = [], []

    def button(
        self,
        label: str,
        fn: Callable[[], object],
        rect: pygame.Rect,
        *,
        tooltip: str = "",
        enabled: bool = True,
        on: bool = False,
        size: int = 13,
    ) -> Button:
        """A button of the box."""
        b = Button(label, _done(fn), rect, tooltip=tooltip, enabled=enabled, size=size)
        b.focused = on
        self.buttons.append(b)
        return b

    def row(
        self,
        label: str,
        fn: Callable[[], object],
        rect: pygame.Rect,
        *,
        checked: bool,
        detail: str = "",
        tooltip: str = "",
        radio: bool = False,
    ) -> None:
        """A ticked (or one-of) row of a list."""
        self.buttons.append(
            CheckRow(label, _done(fn), rect, checked=checked, detail=detail, tooltip=tooltip, radio=radio)
        )

    def text(
        self,
        value: str,
        pos: tuple[int, int],
        size: int = 13,
        colour: tuple[int, int, int] = theme.TEXT,
        bold: bool = False,
    ) -> None:
        """A line of text of the box."""
        self.texts.append((value, pos, size, colour, bold))

    def footer(self, apply_label: str, apply: Callable[[], object], *, enabled: bool = True, tooltip: str = "") -> None:
        """Cancel and the button that sends the action, bottom right."""
        s = self.ui.s
        r = self.rect
        self.button("Cancel (Esc)", Pop, pygame.Rect(r.right - s(252), r.bottom - s(44), s(110), s(30)), size=14)
        self.apply_button = self.button(
            apply_label,
            apply,
            pygame.Rect(r.right - s(132), r.bottom - s(44), s(116), s(30)),
            enabled=enabled,
            tooltip=tooltip,
            size=14,
        )

    # --- events and drawing ----------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons by mouse; Esc goes back to the panel."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        for b in list(self.buttons):
            b.handle(event)
            if b.result is not None:
                result = b.result
                if isinstance(result, Push | Pop | Replace | Home | Quit):
                    return result
                self.layout()
                return None
        if event.type == pygame.MOUSEMOTION:
            tip = next((b.hint for b in self.buttons if b.hovered and b.hint), "")
            self.tooltip.hover(tip, event.pos)
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The box over the dimmed panel and battle."""
        _dim(surface, 110)
        s, text = self.ui.s, self.ui.text
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        text.blit(surface, self.TITLE, (self.rect.x + s(16), self.rect.y + s(12)), 18, theme.ACCENT, bold=True)
        for value, pos, size, colour, bold in self.texts:
            text.blit(surface, value, pos, size, colour, bold)
        for b in self.buttons:
            b.draw(surface, text)
        if self.message:
            colour = theme.DANGER if self.error else theme.TEXT
            width = self.rect.width - s(290)
            for i, line in enumerate(text.wrap(self.message, 13, width)[:2]):
                text.blit(surface, line, (self.rect.x + s(16), self.rect.bottom - s(46) + i * s(17)), 13, colour)
        self.tooltip.draw(surface, text)


def _columns(
    dialog: GMDialog,
    top: int,
    bottom: int,
    left: int,
    col_width: int,
    sections: list[tuple[str, list[Callable[[pygame.Rect], None]]]],
) -> int:
    """Flow titled lists of rows top-down into columns (a new column when one is full); the x after."""
    s = dialog.ui.s
    row_h = s(22)
    x, y = left, top
    for title, rows in sections:
        if y + row_h * 2 > bottom:
            x, y = x + col_width + s(14), top
        dialog.text(title, (x, y + s(3)), 14, theme.TEXT_MUTED, True)
        y += row_h + s(2)
        for place in rows:
            if y + row_h > bottom:
                x, y = x + col_width + s(14), top
            place(pygame.Rect(x, y, col_width, row_h - s(2)))
            y += row_h
        y += s(10)
    return x + col_width + s(14)


# ---------------------------------------------------------------------------------------------- gear


class GearEditor(GMDialog):
    """FTC 9: the figure's weapons (the first is ready), armour and helmets, shield, ticked from the
    catalogue with their masses; a ticked suit shows its coverage (FTC 9.2's partial suits: full, torso, no
    arms, no legs), which a click changes; the carried mass, encumbrance and movement (FTC 5.1.1) follow
    each tick. Apply sends ``gm.EditGear`` with every ticked suit's coverage."""

    TITLE = "Gear — from the FTC 9 catalogue"

    def __init__(self, ui: UiContext, panel: GMPanel, fid: str) -> None:
        super().__init__(ui, panel)
        self.fid = fid
        c = self.figure.character
        self.weapons: list[str] = [w.name for w in c.weapons]
        self.armour: list[str] = [a.name for a in c.armour]
        self.coverage: dict[str, str] = {a.name: a.coverage for a in c.armour if a.is_body}
        """FTC 9.2: how much of the body each suit covers, as worn (kept when a suit is unticked and ticked)."""
        self.shield: str | None = c.shield.name if c.shield is not None else None

    @property
    def figure(self) -> Figure:
        """The figure whose gear is edited."""
        return self.battle.figure(self.fid)

    def toggle_weapon(self, name: str) -> None:
        """Tick or untick a weapon (a newly ticked one goes last; the first stays ready)."""
        self.weapons = [w for w in self.weapons if w != name] if name in self.weapons else [*self.weapons, name]

    def ready(self, name: str) -> None:
        """Make a ticked weapon the ready one (FTC 9: the first weapon)."""
        self.weapons = [name, *(w for w in self.weapons if w != name)]

    def toggle_armour(self, name: str) -> None:
        """Tick or untick body armour or a helmet (FTC 9.2)."""
        self.armour = [a for a in self.armour if a != name] if name in self.armour else [*self.armour, name]

    def cycle_coverage(self, name: str) -> None:
        """The next coverage of a ticked suit (FTC 9.2): full, torso only, arms bare, legs bare."""
        order = equipment.COVERAGES
        now = self.coverage.get(name, "full")
        self.coverage[name] = order[(order.index(now) + 1) % len(order)] if now in order else "full"

    def chosen_coverage(self) -> dict[str, str]:
        """The coverage of every ticked suit of body armour, as ``gm.EditGear`` takes it."""
        return {name: self.coverage.get(name, "full") for name in self.armour if equipment.armour(name).is_body}

    def choose_shield(self, name: str | None) -> None:
        """One shield or none (FTC 9.2)."""
        self.shield = name

    def preview(self) -> tuple[Character | None, str]:
        """The character as it would be with the ticked gear, or the engine's objection."""
        try:
            return gm.edited_gear(
                self.figure.character, tuple(self.weapons), tuple(self.armour), self.shield, self.chosen_coverage()
            ), ""
        except gm.GMActionError as exc:
            return None, str(exc)

    def load_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Carried mass, encumbrance and movement now and with the ticked gear (FTC 5, 5.1.1 table 2)."""
        fig = self.figure
        c, problem = self.preview()
        if c is None:
            return [(problem, theme.DANGER)]
        mass = c.carried_mass_kg()
        parts = (
            math.fsum(w.mass_kg for w in c.weapons),
            math.fsum(a.mass_kg for a in c.armour),
            c.shield.mass_kg if c.shield else 0.0,
            c.gear_kg,
        )
        penalty = encumbrance_penalty(mass, c.strength, c.strength_scale)
        trial = copy.copy(fig)
        trial.character = c
        after = self.battle.movement_allowance_of(trial)
        before = self.battle.movement_allowance_of(fig)
        enc = (
            "too heavy to move"
            if penalty is None
            else "none"
            if penalty == 0
            else f"−{-penalty} hex{'es' if penalty < -1 else ''}"
        )
        ready = c.weapons[0].name if c.weapons else "bare hands"
        return [
            (f"Carried {_kg(mass)} (was {_kg(fig.character.carried_mass_kg())})", theme.TEXT),
            (f"weapons {parts[0]:g}, armour {parts[1]:g}, shield {parts[2]:g}, other {parts[3]:g}", theme.TEXT_MUTED),
            (f"Encumbrance: {enc}", theme.DANGER if penalty else theme.TEXT),
            (f"Movement: {after} hex{'es' if after != 1 else ''} a round (now {before})", theme.ACCENT),
            (f"Ready weapon: {ready}", theme.TEXT),
        ]

    def apply(self) -> Transition | None:
        """Send ``gm.EditGear`` with the ticked gear."""
        return self.send(
            gm.EditGear(self.fid, tuple(self.weapons), tuple(self.armour), self.shield, self.chosen_coverage())
        )

    def layout(self) -> None:
        """Weapons, armour and helmets, shields in columns; the load on the right."""
        super().layout()
        if self.fid not in self.battle.figures:
            return
        s, r = self.ui.s, self.rect
        col = s(236)
        info_w = s(290)

        def weapon_row(w: equipment.Weapon) -> Callable[[pygame.Rect], None]:
            def place(rect: pygame.Rect) -> None:
                ticked = w.name in self.weapons
                first = bool(self.weapons) and self.weapons[0] == w.name
                row = pygame.Rect(rect.x, rect.y, rect.width - s(52), rect.height)
                detail = f"{w.mass_kg:g}"
                self.row(
                    w.name,
                    functools.partial(self.toggle_weapon, w.name),
                    row,
                    checked=ticked,
                    detail=detail,
                    tooltip=f"{w.name}: {w.skill}, damage {w.damage:+d}, {_kg(w.mass_kg)}",
                )
                if first:
                    self.text("ready", (rect.right - s(46), rect.y + s(3)), 12, theme.ACCENT, True)
                elif ticked:
                    self.button(
                        "Ready",
                        functools.partial(self.ready, w.name),
                        pygame.Rect(rect.right - s(50), rect.y, s(48), rect.height),
                        size=11,
                        tooltip="Make this the weapon in hand (FTC 9: the first weapon is ready).",
                    )

            return place

        def armour_row(a: equipment.Armour) -> Callable[[pygame.Rect], None]:
            def place(rect: pygame.Rect) -> None:
                ticked = a.name in self.armour
                cover = self.coverage.get(a.name, "full") if a.is_body else "full"
                if not (a.is_body and ticked):
                    self.row(
                        f"{a.name} ({a.location})",
                        functools.partial(self.toggle_armour, a.name),
                        rect,
                        checked=ticked,
                        detail=f"{a.mass_kg:g}",
                        tooltip=f"{a.name}: {a.location}, {_kg(a.mass_kg)}",
                    )
                    return
                # FTC 9.2: a ticked suit shows how much of the body it covers; a click on it changes that
                worn = a.with_coverage(cover)
                row = pygame.Rect(rect.x, rect.y, rect.width - s(62), rect.height)
                self.row(
                    a.name,
                    functools.partial(self.toggle_armour, a.name),
                    row,
                    checked=True,
                    detail=f"{worn.mass_kg:g}",
                    tooltip=f"{a.name}: {cover.replace('_', ' ')}, {_kg(worn.mass_kg)}",
                )
                self.button(
                    cover.replace("_", " "),
                    functools.partial(self.cycle_coverage, a.name),
                    pygame.Rect(rect.right - s(60), rect.y, s(58), rect.height),
                    size=11,
                    tooltip="How much of the body the suit covers (FTC 9.2): full; torso only (half "
                    "the mass); no arms or no legs (two thirds). Click for the next.",
                )

            return place

        def shield_row(name: str | None, mass: float) -> Callable[[pygame.Rect], None]:
            def place(rect: pygame.Rect) -> None:
                self.row(
                    name or "No shield",
                    functools.partial(self.choose_shield, name),
                    rect,
                    checked=self.shield == name,
                    radio=True,
                    detail=f"{mass:g}" if name else "",
                )

            return place

        sections = [
            ("Weapons (kg)", [weapon_row(w) for w in equipment.weapons()]),
            ("Armour and helmets (kg)", [armour_row(a) for a in equipment.armours() if not a.is_shield]),
            ("Shield (kg)", [shield_row(None, 0.0), *(shield_row(a.name, a.mass_kg) for a in equipment.shields())]),
        ]
        top = r.y + s(64)
        _columns(self, top, r.bottom - s(56), r.x + s(16), col, sections)
        fig = self.figure
        ix = r.right - info_w
        self.text(f"{fig.name} ({self.battle.sides[fig.side].name})", (r.x + s(16), r.y + s(38)), 14, theme.TEXT, True)
        self.text("Load and movement (FTC 5.1.1)", (ix, top + s(3)), 14, theme.TEXT_MUTED, True)
        y = top + s(26)
        for line, colour in self.load_lines():
            for part in self.ui.text.wrap(line, 13, info_w - s(16)):
                self.text(part, (ix, y), 13, colour)
                y += s(18)
        self.footer("Apply", self.apply, tooltip=between_rounds_tip("Send the new gear to the battle's log."))


# -------------------------------------------------------------------------------------------- traits


class TraitsEditor(GMDialog):
    """FTC 2.1: the figure's attributes on the ladder (−/+ show the level's name), skills added, removed or
    stepped, gifts and faults. Apply sends ``gm.EditTraits`` with only what changed."""

    TITLE = "Traits — attributes and skills on the ladder"
    WIDTH, HEIGHT = 900, 520

    def __init__(self, ui: UiContext, panel: GMPanel, fid: str) -> None:
        super().__init__(ui, panel)
        self.fid = fid
        c = self.battle.figure(fid).character
        self.original = c
        self.attributes: dict[str, int] = {a: int(getattr(c, a)) for a in ATTRIBUTES}
        self.skills: dict[str, int] = dict(c.skills)
        self.gifts: list[str] = sorted(c.gifts)
        self.faults: list[str] = sorted(c.faults)

    def step_attribute(self, name: str, step: int) -> None:
        """One step along the ladder, Terrible..Legendary (a level beyond stays until stepped back)."""
        now = self.attributes[name]
        self.attributes[name] = max(min(now, TERRIBLE), min(max(now, LEGENDARY), now + step))

    def step_skill(self, name: str, step: int) -> None:
        """A skill one step along the ladder."""
        now = self.skills[name]
        self.skills[name] = max(min(now, TERRIBLE), min(max(now, LEGENDARY), now + step))

    def remove_skill(self, name: str) -> None:
        """Forget a skill (untrained again)."""
        self.skills.pop(name, None)

    def add_skill(self) -> Transition:
        """Pick a combat skill or type any; it starts at Fair."""

        def picked(name: str) -> Transition | None:
            name = name.strip()
            if name and name.lower() not in {k.lower() for k in self.skills}:
                self.skills[name] = FAIR
            self.layout()
            return None

        have = {k.lower() for k in self.skills}
        items = [(k, k) for k in known_skills() if k.lower() not in have]
        return Push(PickDialog(self.ui, "Add a skill", items, picked, free_text=True))

    def add_trait(self, kind: str) -> Transition:
        """Pick a gift or fault the rules give an effect, or type any other."""
        names = self.gifts if kind == "gifts" else self.faults
        known = [HIGH_PAIN_THRESHOLD, TOUGH_HIDE] if kind == "gifts" else [LOW_PAIN_THRESHOLD]

        def picked(name: str) -> Transition | None:
            if name.strip() and name.strip() not in names:
                names.append(name.strip())
            self.layout()
            return None

        items = [(k, k) for k in known if k not in names]
        return Push(
            PickDialog(self.ui, "Add a gift" if kind == "gifts" else "Add a fault", items, picked, free_text=True)
        )

    def remove_trait(self, kind: str, name: str) -> None:
        """Drop a gift or fault."""
        names = self.gifts if kind == "gifts" else self.faults
        if name in names:
            names.remove(name)

    def changes(self) -> dict[str, Any]:
        """What differs from the figure's character, as ``gm.EditTraits.changes``."""
        c = self.original
        out: dict[str, Any] = {a: level_name(v) for a, v in self.attributes.items() if v != getattr(c, a)}
        skills: dict[str, Any] = {k: level_name(v) for k, v in self.skills.items() if c.skills.get(k) != v}
        skills.update({k: None for k in c.skills if k not in self.skills})
        if skills:
            out["skills"] = skills
        if set(self.gifts) != set(c.gifts):
            out["gifts"] = list(self.gifts)
        if set(self.faults) != set(c.faults):
            out["faults"] = list(self.faults)
        return out

    def apply(self) -> Transition | None:
        """Send ``gm.EditTraits`` with the changes."""
        changes = self.changes()
        if not changes:
            self.message, self.error = "Nothing changed: step a trait first.", True
            return None
        return self.send(gm.EditTraits(self.fid, changes))

    def layout(self) -> None:
        """Attributes on the left, skills in the middle, gifts and faults on the right."""
        super().layout()
        if self.fid not in self.battle.figures:
            return
        s, r = self.ui.s, self.rect
        fig = self.battle.figure(self.fid)
        self.text(f"{fig.name} ({self.battle.sides[fig.side].name})", (r.x + s(16), r.y + s(38)), 14, theme.TEXT, True)
        top = r.y + s(66)
        x = r.x + s(16)
        self.text("Attributes", (x, top), 14, theme.TEXT_MUTED, True)
        y = top + s(26)
        for a in ATTRIBUTES:
            v = self.attributes[a]
            changed = v != getattr(self.original, a)
            self.text(a.capitalize(), (x, y + s(4)), 13)
            self.button(
                "−",
                functools.partial(self.step_attribute, a, -1),
                pygame.Rect(x + s(96), y, s(26), s(24)),
                tooltip=f"{a.capitalize()} one step down the ladder",
            )
            self.text(level_name(v), (x + s(130), y + s(4)), 13, theme.ACCENT if changed else theme.TEXT, changed)
            self.button(
                "+",
                functools.partial(self.step_attribute, a, 1),
                pygame.Rect(x + s(220), y, s(26), s(24)),
                tooltip=f"{a.capitalize()} one step up the ladder",
            )
            y += s(30)
        x = r.x + s(300)
        self.text("Skills", (x, top), 14, theme.TEXT_MUTED, True)
        y = top + s(26)
        for name, v in list(self.skills.items())[:11]:
            changed = self.original.skills.get(name) != v
            self.text(name[:20], (x, y + s(4)), 13)
            self.button("−", functools.partial(self.step_skill, name, -1), pygame.Rect(x + s(150), y, s(26), s(24)))
            self.text(level_name(v), (x + s(184), y + s(4)), 13, theme.ACCENT if changed else theme.TEXT, changed)
            self.button("+", functools.partial(self.step_skill, name, 1), pygame.Rect(x + s(270), y, s(26), s(24)))
            self.button(
                "×",
                functools.partial(self.remove_skill, name),
                pygame.Rect(x + s(302), y, s(26), s(24)),
                tooltip=f"Forget {name} (untrained again)",
            )
            y += s(30)
        self.button(
            "Add skill…",
            self.add_skill,
            pygame.Rect(x, y, s(120), s(26)),
            tooltip="A combat skill, or type any skill; it starts at Fair.",
        )
        x = r.x + s(660)
        for kind, names in (("gifts", self.gifts), ("faults", self.faults)):
            self.text(kind.capitalize(), (x, top), 14, theme.TEXT_MUTED, True)
            y = top + s(26)
            for name in names[:4]:
                self.text(name[:22], (x, y + s(4)), 13)
                self.button(
                    "×",
                    functools.partial(self.remove_trait, kind, name),
                    pygame.Rect(x + s(184), y, s(26), s(24)),
                    tooltip=f"Drop {name}",
                )
                y += s(30)
            self.button(f"Add {kind[:-1]}…", functools.partial(self.add_trait, kind), pygame.Rect(x, y, s(120), s(26)))
            top = y + s(44)
        self.footer("Apply", self.apply, tooltip=between_rounds_tip("Send the changed traits to the battle's log."))


# ------------------------------------------------------------------------------------- reinforcements


class ReinforceDialog(GMDialog):
    """Issue 8: a reinforcement: a character of the battle's roster or a copy of the chosen figure, its side,
    name and whether it is a mook; "Place on map…" then asks for its hex (``PlaceFigure``)."""

    TITLE = "Reinforcement — who joins the battle"
    WIDTH, HEIGHT = 900, 560

    def __init__(self, ui: UiContext, panel: GMPanel) -> None:
        super().__init__(ui, panel)
        self.copy_of = panel.figure if panel.figure in self.battle.figures else None
        keys = list(self.roster_characters())
        self.source: str = "copy" if self.copy_of is not None else (keys[0] if keys else "")
        side = self.battle.figures[self.copy_of].side if self.copy_of else next(iter(self.battle.sides))
        self.side = side
        self.mook = False
        self.name = ""
        self.name = self.default_name()
        self.mook = self.on_mook_track()

    def on_mook_track(self) -> bool:
        """Whether the chosen character is on the mook wound track (*Fudge* 4.57: the roster's
        ``wound_track = "mook"``), or the copied figure is a mook: such a newcomer counts as a mook unless
        the GM says otherwise."""
        if self.source == "copy" and self.copy_of in self.battle.figures and self.battle.figures[self.copy_of].mook:
            return True
        c = self.character()
        return c is not None and c.wound_track.name == MOOK_TRACK_NAME

    def roster_characters(self) -> dict[str, Mapping[str, Any]]:
        """The characters of the battle's roster (``setup_data["roster"]["characters"]``), by key."""
        roster = self.screen.session.setup_data.get("roster", {})
        chars = roster.get("characters", {}) if isinstance(roster, Mapping) else {}
        return {str(k): v for k, v in chars.items() if isinstance(v, Mapping)}

    def character(self) -> Character | None:
        """The newcomer's character (None if the roster table does not build)."""
        if self.source == "copy" and self.copy_of in self.battle.figures:
            return self.battle.figures[self.copy_of].character
        table = self.roster_characters().get(self.source)
        if table is None:
            return None
        try:
            return gm.new_character(table)
        except gm.GMActionError:
            return None

    def default_name(self) -> str:
        """The character's name, numbered when a figure of that name is already in the battle."""
        c = self.character()
        base = c.name if c is not None else "Reinforcement"
        taken = {f.name for f in (*self.battle.figures.values(), *self.battle.removed.values())}
        if base not in taken:
            return base
        n = 2
        while f"{base} {n}" in taken:
            n += 1
        return f"{base} {n}"

    def choose(self, source: str) -> None:
        """Choose who joins; the name follows the choice."""
        self.source = source
        self.name = self.default_name()
        self.mook = self.on_mook_track()

    def rename(self) -> Transition:
        """Type the newcomer's name."""

        def done(text: str) -> Transition | None:
            if text.strip():
                self.name = text.strip()[:40]
            self.layout()
            return None

        return Push(
            TextPrompt(self.ui, "Name the reinforcement", "Its name on the token and in the log", self.name, done)
        )

    def action(self, h: Hex, facing: int) -> gm.AddFigure:
        """The ``gm.AddFigure`` for a hex and facing: a roster key when a figure of the battle already is that
        character (the log stays short), else the character's whole table; a fresh figure id."""
        known = {f.character.key for f in self.battle.setup.figures}
        fid = fresh_figure_id(self.battle)
        if self.source != "copy" and self.source in known:
            return gm.AddFigure(fid, self.side, h, facing, self.name, roster_key=self.source, mook=self.mook)
        if self.source == "copy" and self.copy_of in self.battle.figures:
            table: Mapping[str, Any] = self.battle.figures[self.copy_of].character.to_dict()
        else:
            table = self.roster_characters()[self.source]
        return gm.AddFigure(fid, self.side, h, facing, self.name, character=dict(table), mook=self.mook)

    def mook_tooltip(self) -> str:
        """What the Mook flag does (FTC 4) and what it does not: the wound track is the character's."""
        c = self.character()
        track = f" {c.name} is on the {c.wound_track.name} wound track." if c is not None else ""
        return (
            'Mook: with the rule option "Mooks of a side roll initiative once as a group" this figure rolls '
            "initiative with its side's mooks (FTC 4). It does not change the wound track, which comes from "
            'the character (the roster\'s wound_track = "mook", Fudge 4.57).' + track
        )

    def place(self) -> Transition | None:
        """On to the map: click a highlighted hex."""
        c = self.character()
        if c is None:
            self.message, self.error = "That roster character cannot be built; choose another.", True
            return None
        return Push(PlaceFigure(self.ui, self, c))

    def layout(self) -> None:
        """Who (roster characters, a copy), side, name and mook; Place on map…"""
        super().layout()
        s, r = self.ui.s, self.rect
        col = s(260)
        rows: list[Callable[[pygame.Rect], None]] = []

        def source_row(key: str, label: str, detail: str) -> Callable[[pygame.Rect], None]:
            def place(rect: pygame.Rect) -> None:
                self.row(
                    label,
                    functools.partial(self.choose, key),
                    rect,
                    radio=True,
                    checked=self.source == key,
                    detail=detail,
                )

            return place

        if self.copy_of in self.battle.figures:
            f = self.battle.figures[self.copy_of]
            rows.append(source_row("copy", f"Copy of {f.name}"[:30], "as now"))
        for key, table in self.roster_characters().items():
            rows.append(source_row(key, str(table.get("name", key))[:28], key[:14]))
        top = r.y + s(44)
        x = _columns(self, top, r.bottom - s(160), r.x + s(16), col, [("Who joins (the battle's roster)", rows)])
        y = r.bottom - s(150)
        left = r.x + s(16)
        self.text("Side", (left, y + s(5)), 14, theme.TEXT_MUTED, True)
        bx = left + s(70)
        for sid, side in self.battle.sides.items():
            w = s(24) + self.ui.text.width(side.name, 13)
            self.button(
                side.name,
                functools.partial(setattr, self, "side", sid),
                pygame.Rect(bx, y, w, s(26)),
                on=self.side == sid,
            )
            bx += w + s(6)
        y += s(34)
        self.text("Name", (left, y + s(5)), 14, theme.TEXT_MUTED, True)
        self.text(self.name, (left + s(70), y + s(5)), 14, theme.TEXT, True)
        self.button(
            "Rename…", self.rename, pygame.Rect(left + s(90) + self.ui.text.width(self.name, 14, True), y, s(90), s(26))
        )
        self.button(
            "Mook" if self.mook else "Not a mook",
            functools.partial(setattr, self, "mook", not self.mook),
            pygame.Rect(r.right - s(260), y, s(110), s(26)),
            on=self.mook,
            tooltip=self.mook_tooltip(),
        )
        c = self.character()
        if c is not None:
            size = "" if c.footprint == 1 else f", covers {c.footprint} hexes"
            weapons = ", ".join(w.name for w in c.weapons) or "bare hands"
            self.text(f"{c.name}: {weapons}{size}"[:90], (min(x, r.right - s(300)), top + s(3)), 13, theme.TEXT_MUTED)
        allowed = self.battle.gm_between_rounds()
        self.footer(
            "Place on map…",
            self.place,
            enabled=allowed and c is not None,
            tooltip=between_rounds_tip("Choose the hex on the map (legal hexes are highlighted)."),
        )


def fresh_figure_id(battle: Battle) -> str:
    """An id no figure of the battle has or had: ``gm1``, ``gm2``…"""
    known = {*battle.figures, *battle.removed}
    n = 1
    while f"gm{n}" in known:
        n += 1
    return f"gm{n}"


class PlaceFigure(Screen):
    """The battle map with the hexes where the newcomer may stand highlighted (``Battle.gm_free_for``, its
    whole footprint); Q/E turn its facing, a click sends ``gm.AddFigure``; a refusal is shown in the bar."""

    def __init__(self, ui: UiContext, dialog: ReinforceDialog, character: Character) -> None:
        super().__init__(ui)
        self.dialog = dialog
        self.character = character
        self.facing = 0
        self.hover: Hex | None = None
        self.mouse = (-1, -1)
        self.message = ""
        self.error = False
        self._legal: tuple[int, int, frozenset[Hex]] | None = None
        self._backdrop: tuple[Any, pygame.Surface] | None = None

    @property
    def screen(self) -> BattleScreen:
        """The battle screen drawn underneath."""
        return self.dialog.screen

    def legal(self) -> frozenset[Hex]:
        """Where the newcomer may stand facing ``facing`` (cached until the battle or facing changes)."""
        b = self.screen.battle
        key = (self.screen.version, self.facing)
        if self._legal is None or self._legal[:2] != key:
            hexes = frozenset(h for h in b.terrain.hexes() if b.gm_free_for(self.character, h, self.facing))
            self._legal = (*key, hexes)
        return self._legal[2]

    def on_enter(self, size: tuple[int, int]) -> None:
        """The battle screen lays the board out for this window too."""
        self.screen.on_resize(size)
        super().on_enter(size)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Follow the window."""
        super().on_resize(size)
        self.screen.on_resize(size)

    @property
    def bar(self) -> pygame.Rect:
        """The instruction bar over the top of the board (a click there places nothing)."""
        s, view = self.ui.s, self.screen.board.camera.view
        return pygame.Rect(view[0] + s(10), view[1] + s(8), min(view[2] - s(20), s(780)), s(52))

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        """The map hex under a screen point (None off the board)."""
        cam = self.screen.board.camera
        if not cam.in_view(*pos):
            return None
        h = cam.screen_to_hex(*pos)
        return h if self.screen.battle.terrain.contains(h) else None

    def place_at(self, h: Hex) -> Transition | None:
        """Send the AddFigure; back to the GM's panel when done, else the engine's sentence in the bar."""
        action = self.dialog.action(h, self.facing)
        if self.dialog.panel.send(action):
            self.screen.selected_id, self.screen.selected_hex = action.figure, None
            self.dialog.panel.figure = action.figure
            return Pop(then=Pop(then=self.dialog.panel.closing_transition()))
        self.message, self.error = self.dialog.panel.message, True
        return None

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Click a hex; Q/E turn; wheel zooms; arrows pan; Esc back to the reinforcement box."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_q, pygame.K_e):
                self.facing = (self.facing + (1 if event.key == pygame.K_e else -1)) % 6
                return None
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
                step = self.ui.s(60)
                dx = {pygame.K_LEFT: -step, pygame.K_RIGHT: step}.get(event.key, 0)
                dy = {pygame.K_UP: -step, pygame.K_DOWN: step}.get(event.key, 0)
                self.screen.board.camera.pan(dx, dy)
                self.screen._view = None
            return None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hover = self.hex_at(event.pos)
            return None
        if event.type == pygame.MOUSEWHEEL and event.y:
            self.screen.zoom(1 if event.y > 0 else -1, self.mouse)
            self.hover = self.hex_at(self.mouse)
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and not self.bar.collidepoint(event.pos):
            h = self.hex_at(event.pos)
            if h is not None:
                return self.place_at(h)
        return None

    def _fill(self, surface: pygame.Surface, hexes: frozenset[Hex], colour: tuple[int, int, int, int]) -> None:
        cam = self.screen.board.camera
        offsets = cam.layout.corner_offsets
        z = cam.zoom
        x0, y0, w, h = cam.view
        for hx in hexes:
            cx, cy = cam.hex_to_screen(hx)
            if x0 - 60 <= cx <= x0 + w + 60 and y0 - 60 <= cy <= y0 + h + 60:
                pygame.draw.polygon(surface, colour, [(cx + dx * z, cy + dy * z) for dx, dy in offsets])

    def view(self) -> BoardView:
        """The board with the illegal hexes dimmed and the legal ones outlined (no decision overlays)."""
        b = self.screen.battle
        legal = self.legal()
        dark = frozenset(h for h in b.terrain.hexes() if h not in legal)
        return BoardView(
            self.screen.tokens(), [HexFill(dark, (0, 0, 0), 120), HexFill(legal, (250, 250, 210), 60, outline=True)]
        )

    def draw(self, surface: pygame.Surface) -> None:
        """The battle's chrome (kept from one frame), the board with the legal hexes, the newcomer under the
        mouse, the bar."""
        from game.engine.creatures import footprint

        key = (surface.get_size(), self.screen.version)
        if self._backdrop is None or self._backdrop[0] != key:
            self.screen.draw(surface)
            self._backdrop = (key, surface.copy())
        else:
            surface.blit(self._backdrop[1], (0, 0))
        cam = self.screen.board.camera
        self.screen.board.draw(surface, self.view())
        legal = self.legal()
        if self.hover is not None:
            overlay = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            overlay.set_clip(pygame.Rect(cam.view))
            cells = footprint(self.hover, self.character.footprint, self.facing)
            ok = self.hover in legal
            self._fill(overlay, cells, (90, 220, 120, 160) if ok else (220, 80, 70, 160))
            cx, cy = cam.hex_to_screen(self.hover)
            dx, dy = cam.layout.direction_vector(self.facing)
            tip = (cx + dx * cam.zoom * 0.8, cy + dy * cam.zoom * 0.8)
            pygame.draw.line(overlay, (255, 255, 255, 240), (cx, cy), tip, max(2, round(4 * cam.zoom)))
            surface.blit(overlay, (0, 0))
        s, text = self.ui.s, self.ui.text
        d = self.dialog
        bar = self.bar
        draw_panel(surface, bar, theme.PANEL, theme.ACCENT, radius=6)
        dx, dy = cam.layout.direction_vector(self.facing)
        where = "" if self.hover is None else f" · hex {self.hover.q},{self.hover.r}"
        text.blit(
            surface,
            f"Place {d.name} ({self.screen.battle.sides[d.side].name}): click a bright hex · "
            f"Q/E turn (facing {compass(dx, dy)}){where} · Esc back",
            (bar.x + s(10), bar.y + s(7)),
            13,
            theme.TEXT,
            bold=True,
        )
        line = self.message or f"{len(legal)} free hex{'es' if len(legal) != 1 else ''} " + (
            "it can stand on"
            if self.character.footprint == 1
            else f"where all {self.character.footprint} of its hexes are free"
        )
        text.blit(
            surface, line[:120], (bar.x + s(10), bar.y + s(29)), 13, theme.DANGER if self.error else theme.TEXT_MUTED
        )


def compass(dx: float, dy: float) -> str:
    """A screen direction as a compass word (y grows downwards): the facing shown while placing."""
    names = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")
    return names[round(math.atan2(dy, dx) / (math.pi / 4)) % 8]


# --------------------------------------------------------------------------------------------- removal


def confirm_remove(panel: GMPanel) -> Transition | None:
    """Ask before removing the chosen figure; Remove sends ``gm.RemoveFigure``."""
    fig = panel.battle.figures.get(panel.figure)
    if fig is None:
        return None

    def really() -> Transition | None:
        ok = panel.send(gm.RemoveFigure(fig.id))
        if ok and panel.figure not in panel.battle.figures:
            ids = list(panel.battle.figures)
            panel.figure = ids[0] if ids else ""
            panel.layout()
        return panel.closing_transition() if ok else None

    side = panel.battle.sides[fig.side].name
    return Push(
        MessageDialog(
            panel.ui,
            f"Remove {fig.name}?",
            f"{fig.name} ({side}) leaves the map and the battle. The log keeps what it did.",
            (("Cancel", None), ("Remove", really)),
        )
    )
