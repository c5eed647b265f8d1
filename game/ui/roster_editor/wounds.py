"""The wounds a character carries into the next battle (*Fudge* 4.8), edited box by box on its wound track.

A roster keeps the wounds its characters carry after a battle (``wounds = ["Hurt", "Scratch"]``). The GM
opens this dialog from the roster editor's "Creature and wounds" to mark or empty the boxes of each level of
the track (FTC 7.3, *Fudge* 4.57), or to heal them all; "Done" hands the new sheet back to the editor.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from game.engine.wounds import Wounds, WoundTrack
from game.ui import theme
from game.ui.dialogs import draw_modal_box
from game.ui.pickers import ModalBox
from game.ui.roster_editor.catalogue import track_columns
from game.ui.screen import Pop, Transition, UiContext, press, transition_of
from game.ui.widgets import Button


class CarriedWoundsDialog(ModalBox):
    """One row per level of the track with its boxes, − and +; Heal all, Cancel and Done (Enter)."""

    def __init__(
        self,
        ui: UiContext,
        who: str,
        track: WoundTrack,
        wounds: Wounds | None,
        on_done: Callable[[Wounds], Transition | None],
    ) -> None:
        super().__init__(ui)
        self.who, self.track, self.on_done = who, track, on_done
        self.wounds = wounds if wounds is not None else Wounds(track)
        self.buttons: dict[str, Button] = {}
        self.rect = pygame.Rect(0, 0, 0, 0)

    @property
    def label(self) -> str:
        """The sheet's worst level ("Unhurt", "Very Hurt"), as the battle shows it."""
        return self.wounds.label

    def step(self, index: int, change: int) -> bool:
        """One box more or fewer at the track's level ``index`` (within its boxes, *Fudge* 4.57)."""
        level = self.track.steps[index].level
        count = self.wounds.filled(level) + change
        if 0 <= count <= self.track.steps[index].boxes:
            self.wounds = self.wounds.with_filled(level, count)
        return True

    def heal_all(self) -> bool:
        """Every box empty: the character is unhurt."""
        self.wounds = self.wounds.healed()
        return True

    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the box and lay out a row per level."""
        super().on_resize(size)
        s = self.ui.s
        rows = len(self.track.steps)
        height = s(96) + rows * s(30) + s(56)
        self.rect = pygame.Rect(0, 0, min(size[0] - 40, s(460)), min(size[1] - 20, height))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.buttons = {}
        y = self.rect.y + s(84)
        for i, step in enumerate(self.track.steps):
            right = self.rect.right - s(20)
            self.buttons[f"{step.level}.+"] = Button(
                "+", partial(self.step, i, 1), pygame.Rect(right - s(26), y, s(26), s(24)), size=14,
                tooltip=f"Mark one more {step.name} box.",
            )  # fmt: skip
            self.buttons[f"{step.level}.-"] = Button(
                "−", partial(self.step, i, -1), pygame.Rect(right - s(58), y, s(26), s(24)), size=14,
                tooltip=f"Empty one {step.name} box.",
            )  # fmt: skip
            y += s(30)
        bottom = self.rect.bottom - s(46)
        self.buttons["heal"] = Button(
            "Heal all", self.heal_all, pygame.Rect(self.rect.x + s(20), bottom, s(100), s(32)), size=14,
            tooltip="Fudge 4.8: every wound healed; the character starts the next battle unhurt.",
        )  # fmt: skip
        self.buttons["cancel"] = Button(
            "Cancel", lambda: Pop(), pygame.Rect(self.rect.right - s(216), bottom, s(94), s(32)), size=14
        )
        self.buttons["done"] = Button(
            "Done", self.accept, pygame.Rect(self.rect.right - s(114), bottom, s(94), s(32)), size=14
        )

    def accept(self) -> Transition:
        """Done (or Enter): close and hand the sheet to the editor."""
        return Pop(then=self.on_done(self.wounds))

    def on_input(self, event: pygame.event.Event) -> Transition | None:
        """The buttons (Enter is Done, Esc is Cancel)."""
        b = press(self.buttons.values(), event)
        return transition_of(b.result) if b is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        """The box over the dimmed editor: each level, its damage and its boxes (■ marked, □ open)."""
        s, text = self.ui.s, self.ui.text
        x = self.rect.x + s(20)
        title = text.fit(f"Carried wounds — {self.who}", 20, self.rect.width - s(40), True)
        draw_modal_box(surface, self.ui, self.rect, title, at=(20, 14))
        note = f"Fudge 4.8: carried into the next battle. Now: {self.label}."
        text.blit(surface, text.fit(note, 13, self.rect.width - s(40)), (x, self.rect.y + s(46)), 13, theme.TEXT_MUTED)
        y = self.rect.y + s(84)
        for name, boxes in track_columns(self.track, self.wounds):
            text.blit(surface, name, (x, y + s(4)), 14)
            text.blit(surface, boxes, (x + s(150), y + s(4)), 14)
            y += s(30)
        if self.wounds.beyond:
            shown = f"{len(self.wounds.beyond)} beyond the track (Heal all empties them)"
            text.blit(surface, shown, (x, y), 12, theme.DANGER)
        for b in self.buttons.values():
            b.draw(surface, text)
