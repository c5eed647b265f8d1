"""The top of the battle screen: the battle's title, round and phase, who decides and what (or who won),
and the initiative tracker — the order of the round (FTC 4), whose turn it is, who holds, who has moved,
who is out."""

from __future__ import annotations

import pygame

from game.engine.battle import Decision
from game.ui import theme
from game.ui.battle.common import BattleHost
from game.ui.battle.victory import victory_line
from game.ui.battle.words import decision_line

TOP = 34
"""Height of the top bar (unscaled pixels)."""
TRACK = 30
"""Height of the initiative strip under it."""


class Tracker:
    """The top bar and the initiative strip (painted into the screen's cached chrome)."""

    def __init__(self, screen: BattleHost) -> None:
        self.screen = screen
        self.cut_prompt = ""
        """The prompt as a whole when the bar had to cut it (a hover hint shows it), else ""."""

    def height(self) -> int:
        """The bar and the strip together, scaled."""
        s = self.screen.ui.s
        return s(TOP) + s(TRACK)

    def prompt_line(self, d: Decision) -> str:
        """Who decides and what, the side named once."""
        sc = self.screen
        return decision_line(sc.shown().sides[d.side].name, d.prompt, computer=sc.is_computer(d.side))

    def phase_line(self) -> str:
        """ "Round 2 · Movement phase" (or "Battle over"), as shown."""
        b = self.screen.shown()
        return "Battle over" if b.over else f"Round {b.round} · {b.phase.capitalize()} phase"

    def paint(self, surf: pygame.Surface, d: Decision | None) -> None:
        """Title, round and phase, the prompt of the side deciding (or the winner), then the tracker."""
        sc = self.screen
        s, text = sc.ui.s, sc.ui.text
        w = surf.get_width()
        top = s(TOP)
        pygame.draw.rect(surf, theme.PANEL, (0, 0, w, top))
        pygame.draw.line(surf, theme.BORDER, (0, top - 1), (w, top - 1))
        b = sc.shown()
        title = str(sc.session.setup_data.get("title", sc.data.name))
        r = text.blit(surf, title, (s(12), top // 2), 17, theme.ACCENT, bold=True, anchor="midleft")
        phase = self.phase_line()
        r = text.blit(surf, phase, (r.right + s(18), top // 2), 15, theme.TEXT, bold=True, anchor="midleft")
        if d is not None:
            pygame.draw.circle(surf, sc.side_colour(d.side), (r.right + s(22), top // 2), s(6))
            whole = self.prompt_line(d)
            keys_w = text.width("Esc menu · F1 help", 13) + s(24)
            prompt = text.fit(whole, 14, w - (r.right + s(34)) - keys_w)
            self.cut_prompt = whole if prompt != whole else ""
            text.blit(surf, prompt, (r.right + s(34), top // 2), 14, theme.TEXT, anchor="midleft")
        else:
            self.cut_prompt = ""
        if d is None and b.winner is not None:
            text.blit(surf, victory_line(b), (r.right + s(18), top // 2), 15, theme.ACCENT, bold=True, anchor="midleft")
        text.blit(surf, "Esc menu · F1 help", (w - s(10), top // 2), 13, theme.TEXT_MUTED, anchor="midright")
        self._paint_order(surf, top, d)

    def _paint_order(self, surf: pygame.Surface, y0: int, d: Decision | None) -> None:
        """The initiative tracker: order, whose turn, held, done, out."""
        sc = self.screen
        s, text = sc.ui.s, sc.ui.text
        b = sc.shown()
        w = surf.get_width()
        th = s(TRACK)
        pygame.draw.rect(surf, theme.BACKGROUND, (0, y0, w, th))
        pygame.draw.line(surf, theme.BORDER, (0, y0 + th - 1), (w, y0 + th - 1))
        order = [fid for fid in b.order if fid in b.figures]
        order += [fid for fid in b.figures if fid not in order]
        x = s(8)
        label = text.blit(surf, "Initiative", (x, y0 + th // 2), 12, theme.TEXT_MUTED, bold=True, anchor="midleft")
        x = label.right + s(8)
        avail = w - x - s(8)
        chip_w = max(s(22), min(s(104), avail // max(1, len(order)) - s(3)))
        current = d.figure if d is not None else None
        for fid in order:
            f = b.figures[fid]
            rect = pygame.Rect(x, y0 + s(4), chip_w, th - s(8))
            done = f.moved if b.phase == "movement" else False
            fill = theme.PANEL_LIGHT if fid == current else theme.PANEL
            pygame.draw.rect(surf, fill, rect, border_radius=4)
            border = theme.ACCENT if fid == current else theme.BORDER
            pygame.draw.rect(surf, border, rect, 2 if fid == current else 1, border_radius=4)
            colour = sc.side_colour(f.side) if not f.out else (100, 100, 104)
            pygame.draw.circle(surf, colour, (rect.x + s(8), rect.centery), s(5))
            name = f.name.split()[0] if chip_w < s(80) else f.name
            fg = theme.TEXT_DISABLED if (f.out or done) else theme.TEXT
            badge = "H " if f.held and not f.moved else ""
            room = chip_w - s(18)
            shown = text.fit(badge + name, 12, room, fid == current)
            if room > s(8):
                r2 = text.blit(
                    surf, shown, (rect.x + s(16), rect.centery), 12, fg, bold=fid == current, anchor="midleft"
                )
                if f.out:
                    pygame.draw.line(surf, theme.DANGER, (r2.x, r2.centery), (r2.right, r2.centery), 1)
            x += chip_w + s(3)
