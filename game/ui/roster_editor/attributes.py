"""The roster editor's attributes: the character's name and role (docs/rosters.md "Roles"), its attributes on
the ladder (FTC 2.1) and its Scale (Fudge 4.6, 4.58)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from game.engine.characters import ATTRIBUTES
from game.engine.codec import is_whole
from game.engine.ladder import FAIR, level_name, level_of
from game.engine.rule_options import ROLE_NAMES, ROLES
from game.ui import theme
from game.ui.roster_editor.catalogue import (
    SCALE_FIELDS,
    SCALE_RULES,
    ladder_step,
)
from game.ui.roster_editor.part import Part
from game.ui.screen import Transition
from game.ui.widgets import cycled


class Attributes(Part):
    """Name, attributes and Scale of the selected character."""

    SECTIONS = ("name", "attributes", "scale")

    def step_level(self, attr: str, step: int) -> bool:
        """One step up or down the ladder (Fair is written by leaving the attribute out, as rosters do)."""
        table = self.host.current
        if table is None:
            return False
        new, refusal = ladder_step(attr, attr.capitalize(), level_of(table.get(attr, FAIR)), step)
        if refusal:
            self.host.set_status(refusal, error=True)
            return False
        return self.host.set_field(attr, level_name(new), level_name(FAIR))

    def cycle_role(self, step: int = 1) -> bool:
        """The character's role, round the side's (none given), Hero, Major NPC, NPC (docs/rosters.md "Roles")."""
        table = self.host.current
        if table is None:
            return False
        return self.host.set_field("role", cycled([None, *ROLES], table.get("role"), step))

    def scales(self) -> tuple[int, int, int]:
        """Strength, Mass and Speed Scale as the character's table gives them (Fudge 4.6)."""
        table = self.host.current or {}
        base = table.get("scale", 0)
        base = base if is_whole(base) else 0
        out = []
        for f in SCALE_FIELDS:
            v = table.get(f, base)
            out.append(v if is_whole(v) else base)
        return out[0], out[1], out[2]

    def step_scale(self, index: int, step: int) -> bool:
        """One Scale value up or down; three equal values are written as one ``scale``."""
        table = self.host.current
        if table is None:
            return False
        values = list(self.scales())
        values[index] += step
        return self._write_scales(values)

    def _write_scales(self, values: list[int]) -> bool:
        table = self.host.current
        if table is None:
            return False
        old = self.scales()
        for f, v, was in zip(SCALE_FIELDS, values, old, strict=True):
            if self.host.refuses(f, v, was):
                return False
        for f in ("scale", *SCALE_FIELDS):
            table.pop(f, None)
        if len(set(values)) == 1:
            if values[0]:
                table["scale"] = values[0]
        else:
            table.update(zip(SCALE_FIELDS, values, strict=True))
        return self.host.changed()

    def step_all_scale(self, step: int) -> bool:
        """Strength, Mass and Speed Scale together one step (Fudge 4.58; a dragon is Scale 3 in all three)."""
        if self.host.current is None:
            return False
        return self._write_scales([v + step for v in self.scales()])

    # --- input and layout ---------------------------------------------------------------------------
    def on_key(self, event: pygame.event.Event) -> Transition | bool | None:
        """Ctrl+− / Ctrl++: Strength, Mass and Speed Scale together."""
        if not event.mod & pygame.KMOD_CTRL:
            return None
        if event.key in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
            self.step_all_scale(1)
            return True
        if event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.step_all_scale(-1)
            return True
        return None

    def layout(self, table: dict[str, Any], x: int, top: int, width: int) -> int:
        """The selected character's name, attributes and Scale from ``top``; the y below them."""
        self.clear()
        s = self.ui.s
        right = x + width
        y = top
        self.header("name", "Name", x, y, right - s(180))
        role_w = s(130)
        role_x = right - s(100) - s(6) - role_w
        name = self.ui.text.fit(str(table.get("name", "")), 20, role_x - s(8) - x, True)
        self.text(name, (x, y + s(18)), 20, theme.TEXT, True)
        role = table.get("role")
        shown = "side's" if role is None else ROLE_NAMES.get(str(role), str(role))
        self.button(
            "name.role",
            f"Role: {shown}",
            pygame.Rect(role_x, y + s(16), role_w, s(26)),
            self.cycle_role,
            "Who the character is to the rule options that tell heroes from pawns (Fudge 4.33, 4.64): the "
            "side's role, a Hero (pc), a Major NPC (a named villain) or an NPC pawn. Click for the next; "
            'docs/rosters.md "Roles".',
        )
        self.text(f"key {self.host.selected}", (right - s(110), y + s(2)), 12, theme.TEXT_MUTED, False, "topright")
        self.button(
            "name.rename",
            "Rename",
            pygame.Rect(right - s(100), y + s(16), s(100), s(26)),
            self.host.rename_character,
            "Change the name (F2); the key that maps use stays.",
        )
        y += s(52)
        self.header("attributes", "Attributes (FTC 2.1)", x, y, right)
        y += s(20)
        half = width // 2
        label_w = min(s(80), max(self.ui.text.width(a.capitalize(), 14) for a in ATTRIBUTES) + s(8))
        # the value takes what the half-row leaves beside its label and the two buttons (Legendary+3 is long)
        value_w = max(72, round((half - label_w - s(60)) / self.ui.settings.ui_scale))
        for i, attr in enumerate(ATTRIBUTES):
            cx, cy = x + (i % 2) * half, y + (i // 2) * s(28)
            value = table.get(attr, FAIR)
            lv = level_of(value)
            self.text(attr.capitalize(), (cx, cy + s(4)), 14)
            self.stepper(
                f"attr.{attr}",
                cx + label_w,
                cy,
                level_name(lv) if lv is not None else str(value),
                partial(self.step_level, attr, -1),
                partial(self.step_level, attr, 1),
                attr.capitalize(),
                width=value_w,
                colour=theme.TEXT if lv is not None else theme.DANGER,
            )
        y += 4 * s(28) + s(8)
        all_x = right - s(56) - s(26)
        self.header("scale", "Scale (Fudge 4.6)", x, y, all_x - s(44))
        scales = self.scales()
        self.text("all", (all_x - s(6), y + s(1)), 13, theme.TEXT_MUTED, False, "topright")
        self.stepper(
            "scale.all",
            all_x,
            y - s(4),
            f"{scales[0]:+d}" if len(set(scales)) == 1 else "…",
            partial(self.step_all_scale, -1),
            partial(self.step_all_scale, 1),
            "Strength, Mass and Speed Scale together (Ctrl+− / Ctrl++)",
            width=26,
            tip=SCALE_RULES["all"],
        )
        y += s(20)
        third = width // 3
        for i, (label, value) in enumerate(zip(("Strength", "Mass", "Speed"), scales, strict=True)):
            cx = x + i * third
            self.text(label, (cx, y + s(4)), 13)
            self.stepper(
                f"scale.{i}",
                cx + s(58),
                y,
                f"{value:+d}",
                partial(self.step_scale, i, -1),
                partial(self.step_scale, i, 1),
                f"{label} Scale",
                width=26,
                tip=SCALE_RULES[label],
            )
        self.rect = pygame.Rect(x, top, width, y + s(24) - top)
        return y + s(36)
