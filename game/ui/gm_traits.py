"""The GM's traits dialog (FTC 2.1): attributes on the ladder, skills, gifts and faults; it sends
``gm.EditTraits`` with only what changed."""

from __future__ import annotations

import functools
from typing import Any

import pygame

from game.engine import gm
from game.engine.characters import ATTRIBUTES, KNOWN_FAULTS, KNOWN_GIFTS
from game.engine.ladder import FAIR, LEGENDARY, TERRIBLE, level_name
from game.ui import theme
from game.ui.gm_dialog import GMDialog, PanelHost, between_rounds_tip
from game.ui.roster_editor import PickDialog, known_skills
from game.ui.screen import Push, Transition, UiContext


class TraitsEditor(GMDialog):
    """FTC 2.1: the figure's attributes on the ladder (−/+ show the level's name), skills added, removed or
    stepped, gifts and faults. Apply sends ``gm.EditTraits`` with only what changed."""

    TITLE = "Traits — attributes and skills on the ladder"
    WIDTH, HEIGHT = 900, 520

    def __init__(self, ui: UiContext, panel: PanelHost, fid: str) -> None:
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
        known = list(KNOWN_GIFTS if kind == "gifts" else KNOWN_FAULTS)

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
        return self.send(gm.EditTraits(self.fid, changes, self.panel.reason.strip()))

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
