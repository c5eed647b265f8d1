"""The GM's gear dialog (FTC 9): the figure's weapons, armour and shield ticked from the catalogue, with
the carried mass and what it does to movement (FTC 5.1.1); it sends ``gm.EditGear``."""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable

import pygame

from game.engine import equipment, gm
from game.engine.battle import Figure
from game.engine.characters import Character
from game.engine.movement import encumbrance_penalty
from game.engine.quantities import kg_text as kg
from game.engine.quantities import load_parts_text, number_text
from game.ui import theme
from game.ui.gm_dialog import CheckRow, GMDialog, PanelHost, between_rounds_tip, columns
from game.ui.screen import Transition, UiContext
from game.ui.widgets import cycled


class GearEditor(GMDialog):
    """FTC 9: the figure's weapons (the first is ready), armour and helmets, shield, ticked from the
    catalogue with their masses; a ticked suit shows its coverage (FTC 9.2's partial suits: full, torso, no
    arms, no legs), which a click changes; the carried mass, encumbrance and movement (FTC 5.1.1) follow
    each tick. Apply sends ``gm.EditGear`` with every ticked suit's coverage."""

    TITLE = "Gear — from the FTC 9 catalogue"

    def __init__(self, ui: UiContext, panel: PanelHost, fid: str) -> None:
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
        self.coverage[name] = cycled(equipment.COVERAGES, self.coverage.get(name, "full"))

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
            (f"Carried {kg(mass)} (was {kg(fig.character.carried_mass_kg())})", theme.TEXT),
            (load_parts_text(parts), theme.TEXT_MUTED),
            (f"Encumbrance: {enc}", theme.DANGER if penalty else theme.TEXT),
            (f"Movement: {after} hex{'es' if after != 1 else ''} a round (now {before})", theme.ACCENT),
            (f"Ready weapon: {ready}", theme.TEXT),
        ]

    def apply(self) -> Transition | None:
        """Send ``gm.EditGear`` with the ticked gear."""
        return self.send(
            gm.EditGear(
                self.fid,
                tuple(self.weapons),
                tuple(self.armour),
                self.shield,
                self.chosen_coverage(),
                self.panel.reason.strip(),
            )
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
                detail = number_text(w.mass_kg)
                self.add(
                    CheckRow(
                        w.name,
                        functools.partial(self.toggle_weapon, w.name),
                        row,
                        checked=ticked,
                        detail=detail,
                        tooltip=f"{w.name}: {w.skill}, damage {w.damage:+d}, {kg(w.mass_kg)}",
                    )
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
                # FTC 9.2: a ticked suit shows how much of the body it covers; a click on it changes that
                suit = a.is_body and ticked
                if suit:
                    cover = self.coverage.get(a.name, "full")
                    worn, label, where = a.with_coverage(cover), a.name, cover.replace("_", " ")
                    row = pygame.Rect(rect.x, rect.y, rect.width - s(62), rect.height)
                else:
                    worn, label, where, row = a, f"{a.name} ({a.location})", a.location, rect
                self.add(
                    CheckRow(
                        label,
                        functools.partial(self.toggle_armour, a.name),
                        row,
                        checked=ticked,
                        detail=number_text(worn.mass_kg),
                        tooltip=f"{a.name}: {where}, {kg(worn.mass_kg)}",
                    )
                )
                if suit:
                    self.button(
                        where,
                        functools.partial(self.cycle_coverage, a.name),
                        pygame.Rect(rect.right - s(60), rect.y, s(58), rect.height),
                        size=11,
                        tooltip="How much of the body the suit covers (FTC 9.2): full; torso only (half "
                        "the mass); no arms or no legs (two thirds). Click for the next.",
                    )

            return place

        def shield_row(name: str | None, mass: float) -> Callable[[pygame.Rect], None]:
            def place(rect: pygame.Rect) -> None:
                self.add(
                    CheckRow(
                        name or "No shield",
                        functools.partial(self.choose_shield, name),
                        rect,
                        checked=self.shield == name,
                        radio=True,
                        detail=number_text(mass) if name else "",
                    )
                )

            return place

        sections = [
            ("Weapons (kg)", [weapon_row(w) for w in equipment.weapons()]),
            ("Armour and helmets (kg)", [armour_row(a) for a in equipment.armours() if not a.is_shield]),
            ("Shield (kg)", [shield_row(None, 0.0), *(shield_row(a.name, a.mass_kg) for a in equipment.shields())]),
        ]
        top = r.y + s(64)
        columns(self, top, r.bottom - s(56), r.x + s(16), col, sections)
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
