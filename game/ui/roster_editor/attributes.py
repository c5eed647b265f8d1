"""The roster editor's attributes: the character's name, its attributes on the ladder (FTC 2.1), its Scale
(Fudge 4.6, 4.58), its skills and its gifts and faults (Fudge 4.51)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from game.engine.characters import ATTRIBUTES, HIGH_PAIN_THRESHOLD, LOW_PAIN_THRESHOLD, TOUGH_HIDE
from game.engine.ladder import FAIR, level_name
from game.ui import theme
from game.ui.pickers import PickDialog
from game.ui.roster_editor.catalogue import (
    HIGHEST,
    LOWEST,
    SCALE_FIELDS,
    SCALE_RULES,
    known_skills,
    level_of,
)
from game.ui.roster_editor.part import Part
from game.ui.screen import Push, Transition


class Attributes(Part):
    """Name, attributes, Scale, skills, gifts and faults of the selected character."""

    def step_level(self, attr: str, step: int) -> bool:
        """One step up or down the ladder (Fair is written by leaving the attribute out, as rosters do)."""
        table = self.host.current
        if table is None:
            return False
        now = level_of(table.get(attr, FAIR))
        new = FAIR + step if now is None else max(LOWEST, min(HIGHEST, now + step))
        if now is not None and not LOWEST <= now <= HIGHEST:
            new = now + step
        return self.host.set_field(attr, level_name(new), level_name(FAIR))

    def _skills(self) -> dict[str, Any]:
        table = self.host.current
        assert table is not None
        skills = table.get("skills")
        if not isinstance(skills, dict):
            skills = {}
            table["skills"] = skills
        return skills

    def step_skill(self, name: str, step: int) -> bool:
        """A skill one step up or down the ladder."""
        skills = self._skills()
        now = level_of(skills.get(name, FAIR))
        skills[name] = level_name(FAIR if now is None else max(LOWEST, min(HIGHEST, now + step)))
        return self.host.changed()

    def remove_skill(self, name: str) -> bool:
        """Drop a skill (untrained again: Poor by default)."""
        skills = self._skills()
        skills.pop(name, None)
        if not skills and self.host.current is not None:
            self.host.current.pop("skills", None)
        return self.host.changed()

    def add_skill(self) -> Transition:
        """Pick a combat skill or type any skill's name; it starts at Fair."""
        have = {k.lower() for k in self._skills()} if self.host.current is not None else set()

        def picked(name: str) -> Transition | None:
            name = name.strip()
            skills = self._skills()
            if name.lower() not in {k.lower() for k in skills}:
                skills[name] = level_name(FAIR)
            self.host.changed(f"Skill {name} added at Fair.")
            return None

        items = [(s, s) for s in known_skills() if s.lower() not in have]
        return Push(PickDialog(self.ui, "Add a skill", items, picked, free_text=True))

    def add_trait(self, field: str) -> Transition:
        """Pick a gift or fault the rules give an effect, or type any other (kept as free text)."""
        known = [HIGH_PAIN_THRESHOLD, TOUGH_HIDE] if field == "gifts" else [LOW_PAIN_THRESHOLD]

        def picked(name: str) -> Transition | None:
            values = self.host.names(field)
            if name.strip() and name.strip() not in values:
                self.host.set_names(field, [*values, name.strip()])
            return None

        items = [(k, k) for k in known if k not in self.host.names(field)]
        return Push(
            PickDialog(self.ui, "Add a gift" if field == "gifts" else "Add a fault", items, picked, free_text=True)
        )

    def scales(self) -> tuple[int, int, int]:
        """Strength, Mass and Speed Scale as the character's table gives them (Fudge 4.6)."""
        table = self.host.current or {}
        base = table.get("scale", 0)
        base = base if isinstance(base, int) and not isinstance(base, bool) else 0
        out = []
        for f in SCALE_FIELDS:
            v = table.get(f, base)
            out.append(v if isinstance(v, int) and not isinstance(v, bool) else base)
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

    def layout(self, table: dict[str, Any], x: int, top: int, width: int, bottom: int) -> int:
        """The selected character's name, attributes, Scale, skills and traits from ``top``; the y below them.
        The skills scroll when the traits below them would pass ``bottom``."""
        self.clear()
        s = self.ui.s
        right = x + width
        y = top
        self.header("name", "Name", x, y, right - s(180))
        self.text(str(table.get("name", "")), (x, y + s(18)), 20, theme.TEXT, True)
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
                width=72,
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
        y += s(36)
        self.header("skills", "Skills", x, y, right - s(110))
        self.button(
            "skill.add",
            "Add skill…",
            pygame.Rect(right - s(100), y - s(4), s(100), s(24)),
            self.add_skill,
            "Add a combat skill from the list, or type any skill's name.",
        )
        y += s(22)
        skills = table.get("skills", {})
        skills = skills if isinstance(skills, dict) else {}
        traits = max(len(self.host.names("gifts")), len(self.host.names("faults")))
        below = s(8) + s(48) + traits * s(24)
        room = max(2, (bottom - below - y) // s(28))
        items = list(skills.items())
        rows = len(items) if len(items) <= room else room - 1
        first = self.first_row("skills", len(items), rows)
        self.scroll_areas["skills"] = pygame.Rect(x, y, width, rows * s(28))
        for name, value in items[first : first + rows]:
            lv = level_of(value)
            self.text(self.fit(str(name), 14, width - s(206)), (x, y + s(4)), 14)
            nx = self.stepper(
                f"skill.{name}",
                x + width - s(200),
                y,
                level_name(lv) if lv is not None else str(value),
                partial(self.step_skill, name, -1),
                partial(self.step_skill, name, 1),
                str(name),
                colour=theme.TEXT if lv is not None else theme.DANGER,
            )
            self.button(
                f"skill.{name}.x",
                "×",
                pygame.Rect(nx + s(4), y, s(24), s(24)),
                partial(self.remove_skill, name),
                f"Remove {name} (untrained skills default to Poor).",
            )
            y += s(28)
        if rows < len(items):
            self.pager("skills", first, rows, len(items), x, y, x + width)
            y += s(26)
        if not items:
            self.text("none (every skill Poor)", (x, y + s(2)), 13, theme.TEXT_MUTED)
            y += s(24)
        y += s(8)
        self.header("traits", "Gifts and faults (Fudge 4.51)", x, y, right)
        y += s(20)
        end = y + s(28)
        for col, field in enumerate(("gifts", "faults")):
            cx = x + col * half
            yy = y
            self.button(
                f"{field}.add",
                "Add gift…" if field == "gifts" else "Add fault…",
                pygame.Rect(cx, yy, s(96), s(24)),
                partial(self.add_trait, field),
                "High Pain Threshold, Tough Hide, or any gift by name."
                if field == "gifts"
                else "Low Pain Threshold, or any fault by name.",
            )
            yy += s(28)
            for i, name in enumerate(self.host.names(field)):
                self.text(str(name), (cx, yy + s(3)), 13)
                self.button(
                    f"{field}.{i}.x",
                    "×",
                    pygame.Rect(cx + half - s(34), yy, s(22), s(22)),
                    partial(self.host.remove_at, field, i),
                    f"Remove {name}.",
                )
                yy += s(24)
            end = max(end, yy)
        self.rect = pygame.Rect(x, top, width, end - top)
        return end
