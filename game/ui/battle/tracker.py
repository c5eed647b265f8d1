"""The top of the battle screen: the battle's title, round and phase, who decides and what (or who won),
and the initiative tracker — the order of the round (FTC 4), whose turn it is, who holds, who has moved,
who is out."""

from __future__ import annotations

from typing import Protocol

import pygame

from game.engine.battle import Decision
from game.session import BattleSession
from game.ui import theme
from game.ui.battle.common import RGB, PartHost, fit_words
from game.ui.battle.model import MOVE_REASONS
from game.ui.battle.victory import victory_line
from game.ui.battle.words import decision_line
from game.ui.mapdata import BoardData

TOP = 34
"""Height of the top bar (unscaled pixels)."""
TRACK = 30
"""Height of the initiative strip under it."""


class TrackerHost(PartHost, Protocol):
    """The battle screen as the top bar sees it: the battle's title (the session's setup, else the map's name),
    who plays each side and the sides' colours."""

    @property
    def session(self) -> BattleSession: ...
    @property
    def data(self) -> BoardData: ...
    def is_computer(self, side: str) -> bool: ...
    def side_colour(self, side: str) -> RGB: ...


class Tracker:
    """The top bar and the initiative strip (painted into the screen's cached chrome)."""

    def __init__(self, screen: TrackerHost) -> None:
        self.screen = screen
        self.model = screen.model
        self.cut_prompt = ""
        """The prompt as a whole when the bar had to cut it (a hover hint shows it), else ""."""

    def height(self) -> int:
        """The bar and the strip together, scaled."""
        s = self.screen.ui.s
        return s(TOP) + s(TRACK)

    def prompt_line(self, d: Decision) -> str:
        """Who decides and what, the side named once; while the log still plays out a decision already taken,
        what is being played (never the prompt of a decision no longer open)."""
        sc = self.screen
        side = self.model.shown().sides[d.side].name
        if d != self.model.battle.decision():
            return decision_line(side, self.playing_line(d))
        return decision_line(side, d.prompt, computer=sc.is_computer(d.side))

    def playing_line(self, d: Decision) -> str:
        """What the log is playing out after ``d`` was taken: the round's attacks being resolved (FTC 6.3), or
        the figure's move or declaration."""
        b, live = self.model.shown(), self.model.battle
        if b.phase == "attack" and (live.round != b.round or live.over):
            return f"the attacks of round {b.round} are resolved…"
        fig = b.figures.get(d.figure or "")
        who = fig.name if fig is not None else "the side"
        if d.reason in MOVE_REASONS:
            return f"{who} moves…"
        if d.reason == "declare":
            return f"{who} has declared…"
        return "the decision plays out…"

    def phase_line(self) -> str:
        """ "Round 2 · Movement phase" (or "Battle over"), as shown."""
        b = self.model.shown()
        if b.over:
            return "Battle over"
        if b.phase == "round_end":  # Fudge 4.64: a hero's Fudge Point question before the next round
            return f"Round {b.round} · its end"
        return f"Round {b.round} · {b.phase.capitalize()} phase"

    def paint(self, surf: pygame.Surface, d: Decision | None) -> None:
        """Title, round and phase, the prompt of the side deciding (or the winner), then the tracker. When the
        prompt would be cut, the keys ("Esc menu · F1 help", also in the status bar) give way, then the map's
        title."""
        sc = self.screen
        s, text = sc.ui.s, sc.ui.text
        w = surf.get_width()
        top = s(TOP)
        pygame.draw.rect(surf, theme.PANEL, (0, 0, w, top))
        pygame.draw.line(surf, theme.BORDER, (0, top - 1), (w, top - 1))
        b = self.model.shown()
        title = str(sc.session.setup_data.get("title", sc.data.name))
        phase = self.phase_line()
        keys = "Esc menu · F1 help"
        whole = self.prompt_line(d) if d is not None else (victory_line(b) if b.winner is not None else "")
        size = 14 if d is not None else 15
        show_title = show_keys = True
        for show_title, show_keys in ((True, True), (True, False), (False, False)):
            used = s(12) + (text.width(title, 17, True) + s(18) if show_title else 0) + text.width(phase, 15, True)
            room = w - used - s(34) - (text.width(keys, 13) + s(24) if show_keys else s(10))
            if text.width(whole, size, d is None) <= room:
                break
        x = s(12)
        if show_title:
            x = text.blit(surf, title, (x, top // 2), 17, theme.ACCENT, bold=True, anchor="midleft").right + s(18)
        r = text.blit(surf, phase, (x, top // 2), 15, theme.TEXT, bold=True, anchor="midleft")
        self.cut_prompt = ""
        if d is not None:
            pygame.draw.circle(surf, sc.side_colour(d.side), (r.right + s(22), top // 2), s(6))
            side = b.sides[d.side].name
            bare = whole.split(": ", 1)[1] if whole.startswith(side) and ": " in whole else whole
            # short of room the side goes first (its colour is the dot), then the end of the prompt
            prompt = whole if text.width(whole, 14) <= room else fit_words(text, bare, 14, room)
            self.cut_prompt = whole if prompt != whole else ""
            text.blit(surf, prompt, (r.right + s(34), top // 2), 14, theme.TEXT, anchor="midleft")
        elif whole:
            line = text.fit(whole, 15, room + s(16), True)
            text.blit(surf, line, (r.right + s(18), top // 2), 15, theme.ACCENT, bold=True, anchor="midleft")
        if show_keys:
            text.blit(surf, keys, (w - s(10), top // 2), 13, theme.TEXT_MUTED, anchor="midright")
        self._paint_order(surf, top, d)

    def chips(self, width: int, d: Decision | None) -> tuple[bool, list[tuple[str, str, int]], int, int]:
        """How the initiative strip fits a bar this wide: whether the "Initiative" label is shown, the chips
        drawn as (figure id, text, width), and how many figures of the order are left out before and after
        them. Names are never cut to a letter: equal chips with whole names when they fit, else chips as wide
        as each first name, else a run of them around the figure whose turn it is, with the count left out
        at each end."""
        sc = self.screen
        s, text = sc.ui.s, sc.ui.text
        b = self.model.shown()
        order = [fid for fid in b.order if fid in b.figures]
        order += [fid for fid in b.figures if fid not in order]
        current = d.figure if d is not None else None
        if not order:
            return True, [], 0, 0

        def shown(fid: str, first: bool) -> str:
            f = b.figures[fid]
            badge = "H " if f.held and not f.moved else ""
            return badge + (f.name.split()[0] if first else f.name)

        def need(fid: str, label: str) -> int:
            return text.width(label, 12, fid == current) + s(22)

        label_w = text.width("Initiative", 12, True) + s(16)
        gap = s(3)
        for with_label in (True, False):
            avail = width - s(8) - (label_w if with_label else 0) - s(8)
            chip_w = min(s(104), avail // len(order) - gap)
            # each chip its whole name where it fits, else its first name
            labels = [shown(f, True) if need(f, shown(f, False)) > chip_w + s(4) else shown(f, False) for f in order]
            if chip_w >= s(40) and all(need(f, n) <= chip_w + s(4) for f, n in zip(order, labels, strict=True)):
                return with_label, [(f, n, chip_w) for f, n in zip(order, labels, strict=True)], 0, 0
        avail = width - s(16)
        sized = [(fid, shown(fid, True), max(s(40), need(fid, shown(fid, True)))) for fid in order]
        if sum(w + gap for _, _, w in sized) <= avail:
            return False, sized, 0, 0
        # a run around the figure whose turn it is, the counts left out at the ends
        marker = text.width("+99", 11, True) + s(8)
        at = order.index(current) if current in order else 0
        lo = hi = at
        room = avail - 2 * marker - sized[at][2] - gap
        while True:
            grew = False
            if hi + 1 < len(sized) and sized[hi + 1][2] + gap <= room:
                hi += 1
                room -= sized[hi][2] + gap
                grew = True
            if lo > 0 and (hi - at >= 2 * (at - lo) or hi + 1 >= len(sized)) and sized[lo - 1][2] + gap <= room:
                lo -= 1
                room -= sized[lo][2] + gap
                grew = True
            if not grew:
                break
        return False, sized[lo : hi + 1], lo, len(sized) - 1 - hi

    def _paint_order(self, surf: pygame.Surface, y0: int, d: Decision | None) -> None:
        """The initiative tracker: order, whose turn, held, done, out."""
        sc = self.screen
        s, text = sc.ui.s, sc.ui.text
        b = self.model.shown()
        w = surf.get_width()
        th = s(TRACK)
        pygame.draw.rect(surf, theme.BACKGROUND, (0, y0, w, th))
        pygame.draw.line(surf, theme.BORDER, (0, y0 + th - 1), (w, y0 + th - 1))
        with_label, chips, before, after = self.chips(w, d)
        x = s(8)
        if with_label:
            label = text.blit(surf, "Initiative", (x, y0 + th // 2), 12, theme.TEXT_MUTED, bold=True, anchor="midleft")
            x = label.right + s(8)
        if before:
            r = text.blit(surf, f"+{before}", (x, y0 + th // 2), 11, theme.TEXT_MUTED, bold=True, anchor="midleft")
            x = r.right + s(6)
        current = d.figure if d is not None else None
        for fid, shown, chip_w in chips:
            f = b.figures[fid]
            rect = pygame.Rect(x, y0 + s(4), chip_w, th - s(8))
            done = f.moved if b.phase == "movement" else False
            fill = theme.PANEL_LIGHT if fid == current else theme.PANEL
            pygame.draw.rect(surf, fill, rect, border_radius=4)
            border = theme.ACCENT if fid == current else theme.BORDER
            pygame.draw.rect(surf, border, rect, 2 if fid == current else 1, border_radius=4)
            colour = sc.side_colour(f.side) if not f.out else (100, 100, 104)
            pygame.draw.circle(surf, colour, (rect.x + s(8), rect.centery), s(5))
            fg = theme.TEXT_DISABLED if (f.out or done) else theme.TEXT
            room = chip_w - s(18)
            fitted = text.fit(shown, 12, room, fid == current)
            if room > s(8):
                r2 = text.blit(
                    surf, fitted, (rect.x + s(16), rect.centery), 12, fg, bold=fid == current, anchor="midleft"
                )
                if f.out:
                    pygame.draw.line(surf, theme.DANGER, (r2.x, r2.centery), (r2.right, r2.centery), 1)
            x += chip_w + s(3)
        if after:
            text.blit(surf, f"+{after}", (x + s(3), y0 + th // 2), 11, theme.TEXT_MUTED, bold=True, anchor="midleft")
