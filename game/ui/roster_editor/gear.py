"""The roster editor's gear: weapons (FTC 9.1, 9.3; the first is in hand), scale-piercing weapons
(Fudge 4.58), armour and helmets, the shield (FTC 9.2) and other gear; and the load they make, with the
encumbrance and movement it leaves (FTC 5, 5.1.1 table 2)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

from game.engine import creatures, equipment
from game.engine.characters import PIERCING_MODES
from game.engine.ladder import level_name
from game.engine.movement import encumbrance_penalty, load_thresholds_kg, movement_allowance
from game.engine.quantities import load_parts_text, number_text
from game.ui import theme
from game.ui.pickers import PickDialog
from game.ui.roster_editor.catalogue import GEAR_STEP_KG, LOAD_PANEL_HEIGHT, armour_entry, kg
from game.ui.roster_editor.part import EditorHost, ListHeading, Part
from game.ui.screen import Push, Transition
from game.ui.widgets import draw_panel


class Gear(Part):
    """Weapons, scale-piercing, armour, shield and other gear of the selected character."""

    SECTIONS = ("weapons", "piercing", "armour", "shield", "gear")
    WEAPONS = ListHeading(
        "weapons", "Weapons (FTC 9.1) — the first is in hand", "weapon", "A weapon from the catalogue, with its mass."
    )
    ARMOUR = ListHeading(
        "armour", "Armour and helmets (FTC 9.2)", "armour", "Body armour or a helmet from the catalogue."
    )

    def add_weapon(self) -> Transition:
        """Pick a weapon of FTC 9.1 / 9.3 (its skill, damage factor and mass shown)."""

        def picked(name: str) -> Transition | None:
            self.host.set_names("weapons", [*self.host.names("weapons"), name])
            return None

        items = [
            (
                f"{w.name} — {w.skill}, {w.damage:+d}, {kg(w.mass_kg)}"
                + (", two-handed" if w.two_handed else "")
                + (", ranged" if w.ranged else ""),
                w.name,
            )
            for w in equipment.weapons()
        ]
        return Push(PickDialog(self.ui, "Add a weapon (FTC 9.1, 9.3)", items, picked))

    def ready_weapon(self, index: int) -> bool:
        """Put a weapon first: the one in hand (FTC 9.1)."""
        values = self.host.names("weapons")
        if 0 < index < len(values):
            values.insert(0, values.pop(index))
        return self.host.set_names("weapons", values)

    def add_armour(self) -> Transition:
        """Pick body armour or a helmet of FTC 9.2."""

        def picked(name: str) -> Transition | None:
            self.host.set_names("armour", [*self.host.names("armour"), name])
            return None

        items = [(f"{a.name} — {a.location}, {kg(a.mass_kg)}", a.name) for a in equipment.armours() if not a.is_shield]
        return Push(PickDialog(self.ui, "Add armour (FTC 9.2)", items, picked))

    def choose_shield(self) -> Transition:
        """Pick a shield of FTC 9.2, or none."""

        def picked(name: str) -> Transition | None:
            self.host.set_field("shield", name or None)
            return None

        items = [("No shield", ""), *((f"{a.name} — {kg(a.mass_kg)}", a.name) for a in equipment.shields())]
        return Push(PickDialog(self.ui, "Shield (FTC 9.2)", items, picked))

    def step_gear(self, step: int) -> bool:
        """Other gear carried, in half kilograms (counts for encumbrance, FTC 5.1.1)."""
        table = self.host.current
        if table is None:
            return False
        now = table.get("gear_kg", 0.0)
        now = float(now) if isinstance(now, int | float) and not isinstance(now, bool) else 0.0
        return self.host.set_field("gear_kg", max(0.0, now + step * GEAR_STEP_KG), 0.0)

    def toggle_two_handed(self) -> bool:
        """Hold the either-way weapon in both hands (FTC 9.1: Bastard Sword +3; no shield then)."""
        table = self.host.current
        return self.host.set_field("two_handed", not (table or {}).get("two_handed", False), False)

    def piercing(self) -> dict[str, str]:
        """The character's scale-piercing weapons and how each pierces (Fudge 4.58), as the roster gives them."""
        raw = (self.host.current or {}).get("scale_piercing", {})
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def choose_piercing(self) -> Transition | None:
        """Make a carried weapon scale-piercing (Fudge 4.58): on a solid blow the target's Mass Scale counts
        half ("halve") or not at all ("ignore"), or back to normal."""
        table = self.host.current
        if table is None:
            return None
        now = self.piercing()
        names = list(dict.fromkeys([*(str(w) for w in self.host.names("weapons")), *now]))
        if not names:
            self.host.set_status("Add a weapon first: only a carried weapon can pierce Scale.", True)
            return None
        degree = creatures.hit_well_degree()
        what = {
            "": "normal: the target's Mass Scale counts in full",
            "halve": f"halves the target's Mass Scale on a hit by {degree} or more",
            "ignore": f"ignores the target's Mass Scale on a hit by {degree} or more",
        }
        items, details = [], {}
        for name in names:
            mode = next((m for k, m in now.items() if k.lower() == name.lower()), "")
            for m in ("", *PIERCING_MODES):
                value = f"{name}\t{m}"
                items.append((f"{name} — {what.get(m, m)}" + ("  ✓" if m == mode else ""), value))
                details[value] = "Fudge 4.58: scale-piercing weapons such as whale harpoons. " + (
                    ""
                    if name in self.host.names("weapons")
                    else f"{name} is not carried: choose normal, or add the weapon again."
                )

        def picked(value: str) -> Transition | None:
            name, _, mode = value.partition("\t")
            kept = {k: v for k, v in self.piercing().items() if k.lower() != name.lower()}
            if mode:
                kept[name] = mode
            self.host.set_field("scale_piercing", kept or None)
            return None

        return Push(PickDialog(self.ui, "Scale-piercing weapons (Fudge 4.58)", items, picked, details=details))

    # --- layout -------------------------------------------------------------------------------------
    def change_button(self, ident: str, choose: Callable[[], object], tip: str, right: int, y: int) -> None:
        """A line's Change… button at the right edge ``right`` (it opens the line's picker, ``choose``)."""
        s = self.ui.s
        self.button(ident, "Change…", pygame.Rect(right - s(104), y, s(104), s(24)), choose, tip)

    def layout(self, table: dict[str, Any], x: int, top: int, width: int) -> int:
        """Weapons, scale-piercing, armour, shield and other gear from ``top``; the y where the next part may
        start."""
        self.clear()
        s = self.ui.s
        right = x + width
        y = self.list_header(self.WEAPONS, self.add_weapon, x, top, right)
        weapons = self.host.names("weapons")
        either_way = False
        for i, name in enumerate(weapons):
            try:
                item = equipment.weapon(str(name))
                info = f"{item.skill} {item.damage:+d} · {kg(item.mass_kg)}" + (" · 2 hands" if item.two_handed else "")
                either_way |= item.can_be_two_handed
                colour = theme.TEXT
            except (KeyError, ValueError):
                info, colour = "not in the catalogue", theme.DANGER
            label = self.fit(str(name), 14, width - s(150), i == 0)
            self.text(label, (x, y + s(3)), 14, colour, i == 0)
            info = self.fit(info, 13, width - s(74) - self.ui.text.width(label, 14, i == 0))
            self.text(info, (right - s(64), y + s(4)), 13, theme.TEXT_MUTED, False, "topright")
            if i > 0:
                self.button(
                    f"weapon.{i}.ready",
                    "▲",
                    pygame.Rect(right - s(56), y, s(24), s(24)),
                    partial(self.ready_weapon, i),
                    "Put it in hand (first in the list).",
                )
            self.remove_button(
                f"weapon.{i}.x", right - s(28), y, partial(self.host.remove_at, "weapons", i), f"Remove {name}."
            )
            y += s(26)
        y = self.empty_note(weapons, "none: fights with the fist", x, y)
        if either_way or table.get("two_handed"):
            on = bool(table.get("two_handed"))
            self.button(
                "two_handed",
                f"Two-handed grip: {'on' if on else 'off'}",
                pygame.Rect(x, y + s(2), s(180), s(24)),
                self.toggle_two_handed,
                "Hold the bastard sword in both hands (+3 damage, FTC 9.1); no shield then.",
            )
            y += s(30)
        pierce = self.piercing()
        self.header("piercing", "Scale-piercing", x, y + s(4), x + s(150))
        shown = self.fit(", ".join(f"{k}: {v}" for k, v in pierce.items()) or "none", 13, right - s(112) - (x + s(120)))
        self.text(shown, (x + s(120), y + s(5)), 13, theme.TEXT if pierce else theme.TEXT_MUTED)
        self.sections["piercing"] = (x + s(130) + self.ui.text.width(shown, 13), y + s(5), right - s(112))
        self.change_button(
            "pierce.choose",
            self.choose_piercing,
            "Fudge 4.58: a scale-piercing weapon (a whaler's harpoon) halves or "
            "ignores the target's Mass Scale when it hits well.",
            right,
            y,
        )
        y += s(30)
        y += s(8)
        y = self.list_header(self.ARMOUR, self.add_armour, x, y, right)
        armour = self.host.names("armour")
        for i, entry in enumerate(armour):
            label, mass = armour_entry(entry)
            label = self.fit(label, 14, width - s(110))
            self.text(label, (x, y + s(3)), 14, theme.TEXT if mass is not None else theme.DANGER)
            self.text(
                kg(mass) if mass is not None else "not in the catalogue",
                (right - s(36), y + s(4)),
                13,
                theme.TEXT_MUTED,
                False,
                "topright",
            )
            self.remove_button(
                f"armour.{i}.x", right - s(28), y, partial(self.host.remove_at, "armour", i), f"Remove {label}."
            )
            y += s(26)
        y = self.empty_note(armour, "none", x, y)
        y += s(8)
        self.header("shield", "Shield", x, y + s(4), x + s(150))
        shield = table.get("shield")
        if shield:
            try:
                mass_text = kg(equipment.armour(str(shield)).mass_kg)
            except (KeyError, ValueError):
                mass_text = "not in the catalogue"
            shown = f"{shield} · {mass_text}"
        else:
            shown = "none"
        shown = self.fit(shown, 14, width - s(70) - s(112))
        self.text(shown, (x + s(70), y + s(4)), 14)
        self.sections["shield"] = (x + s(80) + self.ui.text.width(shown, 14), y + s(5), right - s(112))
        self.change_button(
            "shield.choose", self.choose_shield, "Small, Medium or Large Shield (FTC 9.2), or none.", right, y
        )
        y += s(30)
        self.header("gear", "Other gear", x, y + s(4), x + s(150))
        gear = table.get("gear_kg", 0.0)
        end = self.stepper(
            "gear",
            x + s(110),
            y,
            kg(float(gear)) if isinstance(gear, int | float) else str(gear),
            partial(self.step_gear, -1),
            partial(self.step_gear, 1),
            "Other gear (0.5 kg)",
            width=70,
        )
        self.sections["gear"] = (end + s(10), y + s(5), right)
        self.rect = pygame.Rect(x, top, width, y + s(24) - top)
        return y + s(38)


class Load(Part):
    """Carried mass, encumbrance and movement of the selected character, live (FTC 5, 5.1.1 table 2)."""

    def __init__(self, host: EditorHost) -> None:
        super().__init__(host)
        self.load_lines: list[tuple[str, tuple[int, int, int]]] = []
        self.encumbrance_text = ""
        self.allowance: int | None = None

    def layout(self, x: int, y: int, width: int) -> int:
        """Carried mass, encumbrance and movement (FTC 5, 5.1.1 table 2) from ``y``; the y below the panel."""
        self.clear()
        s = self.ui.s
        rect = pygame.Rect(x, y, width, s(LOAD_PANEL_HEIGHT))
        self.rect = rect
        self.text("Load and movement (FTC 5, 5.1.1)", (x + s(10), y + s(8)), 13, theme.ACCENT, True)
        lines: list[tuple[str, tuple[int, int, int]]] = []
        self.encumbrance_text, self.allowance = "", None
        c, _ = self.host.check(self.host.selected) if self.host.selected is not None else (None, "")
        if c is None:
            lines.append(("Fix the error to see the load.", theme.DANGER))
        else:
            mass = c.carried_mass_kg()
            limits = load_thresholds_kg(c.strength, c.strength_scale)
            penalty = encumbrance_penalty(mass, c.strength, c.strength_scale)
            free = movement_allowance(c.speed, speed_scale=c.speed_scale)
            allowance = movement_allowance(
                c.speed, speed_scale=c.speed_scale, strength=c.strength, strength_scale=c.strength_scale, load_kg=mass
            )
            parts = (
                math.fsum(w.mass_kg for w in c.weapons),
                math.fsum(a.mass_kg for a in c.armour),
                c.shield.mass_kg if c.shield else 0.0,
                c.gear_kg,
            )
            lines.append(
                (
                    f"Carried {kg(mass)}: {load_parts_text(parts)}",
                    theme.TEXT,
                )
            )
            lines.append(
                (
                    f"Strength {level_name(c.strength)}: no penalty up to {kg(limits[0])}, −1 to "
                    f"{number_text(limits[1])}, −2 to {number_text(limits[2])}, −3 to {number_text(limits[3])}, "
                    "beyond: cannot move",
                    theme.TEXT_MUTED,
                )
            )
            if penalty is None:
                enc = "Encumbrance: too heavy to move"
            else:
                over = next((limit for limit in reversed(limits) if mass > limit), limits[0])
                enc = (
                    "Encumbrance: none"
                    if penalty == 0
                    else f"Encumbrance: −{-penalty} hex{'es' if penalty < -1 else ''} (more than {kg(over)})"
                )
            self.encumbrance_text = enc
            self.allowance = allowance
            lines.append((enc, theme.DANGER if penalty else theme.TEXT))
            lines.append(
                (
                    f"Movement: {allowance} hex{'es' if allowance != 1 else ''} a round "
                    f"(Speed {level_name(c.speed)}: {free} unencumbered)",
                    theme.ACCENT,
                )
            )
        self.load_lines = lines
        text = self.ui.text
        wrapped = sum(min(2, len(text.wrap(line, 13, width - s(20)))) for line, _ in lines)
        rect.height = max(rect.height, s(30) + wrapped * text.line_height(13) + s(8))
        return rect.bottom

    def draw_under(self, surface: pygame.Surface) -> None:
        """The panel and its lines (wrapped, at most two lines each)."""
        s, text = self.ui.s, self.ui.text
        draw_panel(surface, self.rect, theme.PANEL, theme.BORDER)
        y = self.rect.y + s(30)
        for line, colour in self.load_lines:
            for part in text.wrap(line, 13, self.rect.width - s(20))[:2]:
                text.blit(surface, part, (self.rect.x + s(10), y), 13, colour)
                y += text.line_height(13)
