"""The roster editor's spells: the spells the character knows (FTC 8), each with its skill, casting time
and range, added from the catalogue (data/spells.toml) or forgotten."""

from __future__ import annotations

from functools import partial

import pygame

from game.engine import magic
from game.engine.ladder import level_name
from game.ui import theme
from game.ui.pickers import PickDialog
from game.ui.roster_editor.catalogue import spell_reach, spell_summary
from game.ui.roster_editor.part import ListHeading, Part
from game.ui.screen import Push, Transition


class Spells(Part):
    """The spell list with Add spell… (Ctrl+M) and × to forget one."""

    SECTIONS = ("spells",)
    HEADING = ListHeading(
        "spells",
        "Spells (FTC 8)",
        "spell",
        "A spell of the catalogue (data/spells.toml), with its skill, casting time and range (Ctrl+M).",
    )

    def spell_tip(self, item: magic.Spell) -> str:
        """A spell's tooltip: its description, its casting roll and the character's skill for it (FTC 8)."""
        c = self.host.check(self.host.selected)[0] if self.host.selected is not None else None
        text = (item.notes + " " if item.notes else "") + (
            f"Cast with {item.skill} against {level_name(item.difficulty)} (FTC 8.1); {item.casting_time}, "
            f"range {spell_reach(item)}, lasts {item.duration}."
        )
        if c is not None:
            if c.has_skill(item.skill):
                text += f" {c.name} has {item.skill} {level_name(c.skill_level(item.skill))}."
            else:
                text += (
                    f" {c.name} has no {item.skill} skill and casts at "
                    f"{level_name(c.skill_level(item.skill))}: add the skill."
                )
        return text

    def add_spell(self) -> Transition | None:
        """Pick a spell of the catalogue (FTC 8, data/spells.toml), shown with its skill, casting time and range."""
        if self.host.current is None:
            return None
        have = set()
        for name in self.host.names("spells"):
            try:
                have.add(magic.spell(str(name)).name)
            except magic.MagicError:
                continue

        def picked(name: str) -> Transition | None:
            self.host.set_names("spells", [*self.host.names("spells"), name])
            self.status = f"Spell {name} added."
            return None

        items, details = [], {}
        for item in magic.spells():
            if item.name not in have:
                items.append((f"{item.name} — {spell_summary(item)}", item.name))
                details[item.name] = self.spell_tip(item)
        if not items:
            self.host.set_status("The character knows every spell of the catalogue.", False)
            return None
        return Push(
            PickDialog(
                self.ui,
                "Add a spell (FTC 8)",
                items,
                picked,
                details=details,
                hint="Type to narrow the list; the selected spell is described below it",
            )
        )

    def remove_spell(self, index: int) -> bool:
        """Forget one spell (FTC 8)."""
        return self.host.remove_at("spells", index)

    # --- input and layout ---------------------------------------------------------------------------
    def on_key(self, event: pygame.event.Event) -> Transition | bool | None:
        """Ctrl+M: add a spell."""
        if event.mod & pygame.KMOD_CTRL and event.key == pygame.K_m:
            return self.add_spell() or True
        return None

    def layout(self, x: int, top: int, width: int, bottom: int) -> int:
        """The spells the character knows (FTC 8), each with its skill, casting time and range, from ``top``;
        the y below them. The list scrolls when it would pass ``bottom``."""
        self.clear()
        s = self.ui.s
        right = x + width
        y = self.list_header(self.HEADING, self.add_spell, x, top, right)
        spells = self.host.names("spells")
        room = max(2, (bottom - y) // s(26))
        rows = len(spells) if len(spells) <= room else room - 1
        first = self.first_row("spells", len(spells), rows)
        self.scroll_areas["spells"] = pygame.Rect(x, y, width, rows * s(26))
        for i, name in enumerate(spells[first : first + rows], start=first):
            try:
                item: magic.Spell | None = magic.spell(str(name))
            except magic.MagicError:
                item = None
            label = item.name if item is not None else str(name)
            info = spell_summary(item) if item is not None else "not in the catalogue"
            label = self.fit(label, 14, width - s(150))
            info = self.fit(info, 13, width - s(46) - self.ui.text.width(label, 14))
            self.text(label, (x, y + s(3)), 14, theme.TEXT if item is not None else theme.DANGER)
            self.text(info, (right - s(36), y + s(4)), 13, theme.TEXT_MUTED, False, "topright")
            tip = (
                self.spell_tip(item)
                if item is not None
                else (f"{name} is not a spell of data/spells.toml: remove it, or add the spell to the catalogue.")
            )
            self.hover_tips.append((pygame.Rect(x, y, width - s(32), s(24)), tip))
            self.remove_button(f"spell.{i}.x", right - s(28), y, partial(self.remove_spell, i), f"Forget {label}.")
            y += s(26)
        if rows < len(spells):
            self.pager("spells", first, rows, len(spells), x, y, right)
            y += s(26)
        y = self.empty_note(spells, "none", x, y)
        self.rect = pygame.Rect(x, top, width, y - top)
        return y
