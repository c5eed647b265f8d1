"""The roster editor's skills (FTC 6.3, 9; any skill by name, on the ladder of FTC 2), gifts and faults (Fudge
4.51, 4.52; the ones the rules give an effect offered first) and Fudge Points (Fudge 4.64)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from game.engine.characters import KNOWN_FAULTS, KNOWN_GIFTS
from game.engine.ladder import FAIR, level_of, plus_name, split_plus
from game.ui import theme
from game.ui.pickers import PickDialog
from game.ui.roster_editor.catalogue import ladder_step, short, skill_uses
from game.ui.roster_editor.part import ListHeading, Part
from game.ui.screen import Push, Transition


def half_steps(value: object) -> int | None:
    """A skill's level in half steps (twice the ladder level, +1 for *Fudge* 4.36's plus level: Good 2, Good+
    3, Great 4), None when the value is not a level."""
    bare, plus = split_plus(value) if isinstance(value, str) else (value, False)
    level = level_of(bare)
    return None if level is None else 2 * level + plus


def half_name(halves: int) -> str:
    """A level in half steps as the roster writes it: 3 is "Good+" (*Fudge* 4.36)."""
    level, plus = divmod(halves, 2)
    return plus_name(level, bool(plus))


class Skills(Part):
    """The skills with their levels, Add skill…, and the gifts and faults of the selected character."""

    SECTIONS = ("skills", "traits")
    HEADING = ListHeading(
        "skills",
        "Skills",
        "skill",
        "Add a skill the rules use (combat, magic, healing) from the list, or type any skill's name.",
        width=100,
    )

    def _skills(self) -> dict[str, Any]:
        table = self.host.current
        assert table is not None
        skills = table.get("skills")
        if not isinstance(skills, dict):
            skills = {}
            table["skills"] = skills
        return skills

    def step_skill(self, name: str, step: int) -> bool:
        """A skill one half step up or down the ladder: Good, Good+, Great … (*Fudge* 4.36's plus levels)."""
        skills = self._skills()
        now = half_steps(skills.get(name, FAIR))
        if now is None:
            skills[name] = half_name(2 * FAIR)
            return self.host.changed()
        level = (now + step) // 2
        _, refusal = ladder_step("skill", name, now // 2, level - now // 2) if level != now // 2 else (level, "")
        if refusal:
            shown = refusal.replace(f"at {half_name(now - now % 2)},", f"at {half_name(now)},", 1)
            self.host.set_status(shown, error=True)
            return False
        skills[name] = half_name(now + step)
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
                if self.host.refuses("skills", [*skills, name], list(skills)):
                    return None
                skills[name] = half_name(2 * FAIR)
            self.host.changed(f"Skill {name} added at Fair.")
            return None

        uses = skill_uses()
        items = [(s, s) for s in uses if s.lower() not in have]
        return Push(
            PickDialog(
                self.ui,
                "Add a skill",
                items,
                picked,
                free_text=True,
                details=uses,
                hint="Every skill the rules use (what it does shows below), or type any other",
            )
        )

    def step_fudge_points(self, step: int) -> bool:
        """*Fudge* 4.64: the character's Fudge Points one up or down (docs/rosters.md "Fudge Points"); below 0 the
        field goes (the rule option's default then fills a hero's pool)."""
        table = self.host.current
        if table is None:
            return False
        raw = table.get("fudge_points")
        now = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
        new = (0 if step > 0 else None) if now is None else now + step
        if new is not None and new < 0:
            new = None
        return self.host.set_field("fudge_points", new)

    def add_trait(self, field: str) -> Transition:
        """Pick a gift or fault the rules give an effect, or type any other (kept as free text)."""
        known = list(KNOWN_GIFTS if field == "gifts" else KNOWN_FAULTS)

        def picked(name: str) -> Transition | None:
            values = self.host.names(field)
            if name.strip() and name.strip() not in values:
                self.host.set_names(field, [*values, name.strip()])
            return None

        items = [(k, k) for k in known if k not in self.host.names(field)]
        return Push(
            PickDialog(self.ui, "Add a gift" if field == "gifts" else "Add a fault", items, picked, free_text=True)
        )

    # --- layout -------------------------------------------------------------------------------------
    def layout(self, table: dict[str, Any], x: int, top: int, width: int, bottom: int) -> int:
        """The skills, gifts and faults from ``top``; the y below them. The skills scroll when the traits
        below them would pass ``bottom``."""
        self.clear()
        s = self.ui.s
        right = x + width
        half = width // 2
        y = self.list_header(self.HEADING, self.add_skill, x, top, right)
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
            lv = half_steps(value)
            self.text(self.fit(str(name), 14, width - s(206)), (x, y + s(4)), 14)
            nx = self.stepper(
                f"skill.{name}",
                x + width - s(200),
                y,
                half_name(lv) if lv is not None else str(value),
                partial(self.step_skill, name, -1),
                partial(self.step_skill, name, 1),
                str(name),
                colour=theme.TEXT if lv is not None else theme.DANGER,
                tip="Skills go in half steps: Good, Good+, Great (a plus level is one higher on even rounds, "
                "Fudge 4.36).",
            )
            self.remove_button(
                f"skill.{name}.x",
                nx + s(4),
                y,
                partial(self.remove_skill, name),
                f"Remove {name} (untrained skills default to Poor).",
            )
            y += s(28)
        if rows < len(items):
            self.pager("skills", first, rows, len(items), x, y, x + width)
            y += s(26)
        y = self.empty_note(items, "none (every skill Poor)", x, y)
        y += s(8)
        # Fudge 4.64's Fudge Points share the row: a character's own, like his gifts (docs/rosters.md)
        points = self.host.current.get("fudge_points") if self.host.current is not None else None
        fp_x = right - s(56) - s(26)
        fp_label = fp_x - s(6)
        label_w = self.ui.text.width("Fudge Points", 13)
        self.header("traits", "Gifts and faults (Fudge 4.51, 4.52)", x, y, fp_label - label_w - s(8))
        self.text("Fudge Points", (fp_label, y), 13, theme.TEXT, False, "topright")
        self.stepper(
            "fudge_points",
            fp_x,
            y - s(4),
            "—" if points is None else short(points, 4),
            partial(self.step_fudge_points, -1),
            partial(self.step_fudge_points, 1),
            "Fudge Points",
            width=26,
            colour=theme.DANGER if self.host.error_field() == "fudge_points" else theme.TEXT,
            tip="Fudge 4.64: each figure of this character starts with these (0 to 20), to buy a hero out of a "
            'deadly wound; "—" leaves a hero the rule option\'s default (docs/rosters.md "Fudge Points").',
        )
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
                "High Pain Threshold, Tough Hide, Damage Resistant (Fudge 4.52), or any gift by name."
                if field == "gifts"
                else "Low Pain Threshold, Fragile (Fudge 4.52), or any fault by name.",
            )
            yy += s(28)
            for i, name in enumerate(self.host.names(field)):
                self.text(str(name), (cx, yy + s(3)), 13)
                self.remove_button(
                    f"{field}.{i}.x",
                    cx + half - s(34),
                    yy,
                    partial(self.host.remove_at, field, i),
                    f"Remove {name}.",
                    22,
                )
                yy += s(24)
            end = max(end, yy)
        self.rect = pygame.Rect(x, top, width, end - top)
        return end
