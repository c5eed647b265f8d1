"""The GM's pause: the battle screen stops before each round and / or before each computer decision when the
GM asks for it (the "Stop" switch on the GM's panel, kept in the settings), so that the GM can act while
the engine still allows it — between rounds (*Fudge* 4.1's referee: wounds, gear, traits, reinforcements,
which the engine takes only before any figure has moved or held) or before a computer player moves.

While the battle stands still no computer decides and no decision panel is offered; a box over the board
says why, with the GM's panel (G) and Go on (Enter). Only a screen that runs the battle itself stops (a
networked table's host runs its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import pygame

from game.ui import theme
from game.ui.battle.common import PartHost
from game.ui.board import Board
from game.ui.widgets import Button, draw_panel

Point = tuple[str, int, int]
"""Where the battle stands still: ("round", round, 0) or ("computer", round, decisions taken so far)."""


class PauseHost(PartHost, Protocol):
    """The battle screen as the GM's pause sees it: whether it runs the battle (it may stop only then), who
    plays each side, the board (the box stands at its foot) and the board's view to rebuild."""

    @property
    def pauses_for_gm(self) -> bool: ...
    @property
    def board(self) -> Board: ...
    def is_computer(self, side: str) -> bool: ...
    def invalidate(self) -> None: ...


class GMPause:
    """Whether the battle waits for the GM now, and the box that says so."""

    def __init__(self, screen: PauseHost) -> None:
        self.screen = screen
        self.model = screen.model
        self.released: Point | None = None
        """The last point someone let the battle go on from (it stops there once)."""
        self._counted: tuple[int, int] = (0, 0)

    def available(self) -> bool:
        """Whether this screen may stop for the GM: a battle with a GM seat, run here, not over."""
        sc = self.screen
        return sc.pauses_for_gm and self.model.battle.setup.gm is not None and not self.model.battle.over

    def _decisions(self) -> int:
        """The players' decisions taken so far (the GM's own do not move the battle on)."""
        log = self.model.battle.log
        if self._counted[0] != len(log):
            self._counted = (len(log), sum(1 for a in log if not a.kind.startswith("gm_")))
        return self._counted[1]

    def point(self) -> Point | None:
        """The point the battle stands at where the GM asked it to stop, if any: the start of a round (the
        engine's "between rounds"), or a computer player's decision."""
        if not self.available():
            return None
        settings = self.screen.ui.settings
        battle = self.model.battle
        d = battle.decision()
        if d is None:
            return None
        if settings.gm_stop_rounds and battle.gm_between_rounds():
            return ("round", battle.round, 0)
        if settings.gm_stop_computer and self.screen.is_computer(d.side):
            return ("computer", battle.round, self._decisions())
        return None

    @property
    def paused(self) -> bool:
        """Whether the battle waits for the GM now."""
        p = self.point()
        return p is not None and p != self.released

    def go_on(self) -> bool:
        """Enter (Go on): the battle goes on from here; True when it stood still."""
        if not self.paused:
            return False
        self.released = self.point()
        self.model.version += 1
        self.screen.invalidate()
        return True

    def words(self) -> str:
        """Why the battle stands still, as the box says it."""
        p = self.point()
        battle = self.model.battle
        if p is None:
            return ""
        if p[0] == "round":
            return f"Stopped for the GM: round {battle.round} begins (wounds and edits are open)"
        d = battle.decision()
        who = battle.figure(d.figure).name if d is not None and d.figure else "a computer side"
        side = battle.sides[d.side].name if d is not None else ""
        return f"Stopped for the GM: {who} ({side}, computer) decides next"

    # --- layout and drawing -------------------------------------------------------------------------
    def rect(self) -> pygame.Rect:
        """The box at the foot of the board."""
        s = self.screen.ui.s
        x, y, w, h = self.screen.board.camera.view
        bw = min(w - s(20), s(480))
        bh = self.screen.ui.text.line_height(14) * len(self._lines(bw)) + s(58)
        return pygame.Rect(x + s(10), y + h - bh - s(10), bw, bh)

    def _lines(self, width: int) -> list[str]:
        s, text = self.screen.ui.s, self.screen.ui.text
        return text.wrap(self.words(), 14, width - s(24), bold=True)[:3]

    def buttons(self, open_panel: Callable[[], object]) -> list[Button]:
        """The GM's panel and Go on, along the box's foot."""
        s = self.screen.ui.s
        r = self.rect()
        y = r.bottom - s(40)
        return [
            Button("GM's panel (G)", open_panel, pygame.Rect(r.x + s(12), y, s(150), s(30)), size=14),
            Button("Go on (Enter)", self.go_on, pygame.Rect(r.x + s(170), y, s(140), s(30)), size=14),
        ]

    def draw(self, surface: pygame.Surface) -> None:
        """The box (its buttons are the screen's)."""
        s, text = self.screen.ui.s, self.screen.ui.text
        r = self.rect()
        draw_panel(surface, r, theme.PANEL, theme.ACCENT, alpha=235)
        y = r.y + s(10)
        for line in self._lines(r.width):
            text.blit(surface, line, (r.x + s(12), y), 14, theme.ACCENT, bold=True)
            y += text.line_height(14)
