"""The end of a battle: the victory screen (winner, rounds, every figure's statistics) and the way on to
the after-battle screen (``game.ui.summary_screen``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import pygame

from game.engine import events as ev
from game.engine.battle import Battle, SideSetup
from game.ui import theme
from game.ui.battle.common import RGB
from game.ui.screen import Pop, Push, Screen, Transition, UiContext, press, transition_of
from game.ui.summary_screen import BattleEnd, SummaryScreen
from game.ui.widgets import Button


def battle_stats(battle: Battle) -> list[dict[str, Any]]:
    """Per figure: side, wounds, attacks made, hits scored, wounds dealt (the victory screen's table)."""
    rows: dict[str, dict[str, Any]] = {
        f.id: {
            "id": f.id,
            "name": f.name,
            "side": f.side,
            "wounds": f.wounds.label,
            "out": f.out,
            "attacks": 0,
            "hits": 0,
            "dealt": 0,
        }
        for f in battle.figures.values()
    }
    for e in battle.events:
        if isinstance(e, ev.AttackResolved) and e.attacker in rows:
            rows[e.attacker]["attacks"] += 1
            if e.hit:
                rows[e.attacker]["hits"] += 1
                if e.wound:
                    rows[e.attacker]["dealt"] += 1
    return list(rows.values())


class VictoryScreen(Screen):
    """The battle is over: winner, rounds and every figure's statistics."""

    def __init__(self, ui: UiContext, end: BattleEnd) -> None:
        super().__init__(ui)
        self.battle = end.battle
        self.stats = battle_stats(end.battle)
        self.to_title = end.to_title
        self.title_button = Button("Back to title", lambda: Pop(then=end.to_title()), size=16)
        self.look_button = Button("Look at the board", Pop, size=16)
        self.summary_button = Button("After the battle…", lambda: summary_of(ui, end), size=16, hotkey=pygame.K_a)
        self.cell_rects: list[list[pygame.Rect]] = []  # the table as drawn last: heading row, then figures
        self.rows_shown = 0
        """How many figures' rows the table showed when drawn last (all, unless the window is short)."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """Buttons at the bottom."""
        super().on_resize(size)
        s = self.ui.s
        self.title_button.rect = pygame.Rect(size[0] // 2 + s(120), size[1] - s(70), s(200), s(42))
        self.summary_button.rect = pygame.Rect(size[0] // 2 - s(100), size[1] - s(70), s(200), s(42))
        self.look_button.rect = pygame.Rect(size[0] // 2 - s(320), size[1] - s(70), s(200), s(42))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Enter: title; A: after the battle (summary, export, healing); Esc: back to the board."""
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return Pop(then=self.to_title())
            if event.key == pygame.K_ESCAPE:
                return Pop()
        b = press((self.title_button, self.look_button, self.summary_button), event)
        return transition_of(b.result) if b is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        """Winner, rounds, table."""
        surface.fill(theme.BACKGROUND)
        w = surface.get_width()
        s, text = self.ui.s, self.ui.text
        b = self.battle
        ended = next((e for e in reversed(b.events) if isinstance(e, ev.BattleEnded)), None)
        head = text.fit(victory_line(b), 38, w - s(40), True)
        text.blit(surface, head, (w // 2, s(40)), 38, theme.ACCENT, bold=True, anchor="midtop")
        sub = f"after {b.round} round{'s' if b.round != 1 else ''}" + (
            f" — {ended.reason}" if ended and not (b.winner and ended.reason.endswith(" wins")) else ""
        )
        text.blit(surface, text.fit(sub, 17, w - s(40)), (w // 2, s(92)), 17, theme.TEXT_MUTED, anchor="midtop")
        heads = ("Figure", "Side", "Wounds", "Attacks", "Hits", "Wounds dealt")
        rows = [
            (
                row["name"],
                b.sides[row["side"]].name,
                row["wounds"] + (" (out)" if row["out"] else ""),
                str(row["attacks"]),
                str(row["hits"]),
                str(row["dealt"]),
            )
            for row in self.stats
        ]
        widths = self._column_widths(heads, rows, w - s(80))
        gap = s(24)
        left = (w - sum(widths) - gap * (len(widths) - 1)) // 2
        xs = [left + sum(widths[:i]) + gap * i for i in range(len(widths))]
        y = s(140)
        self.cell_rects = [
            [
                text.blit(surface, text.fit(name, 14, cw, True), (x, y), 14, theme.TEXT_MUTED, bold=True)
                for name, x, cw in zip(heads, xs, widths, strict=True)
            ]
        ]
        y += s(24)
        # the table stops above the buttons: a short window closes its rows up, then says how many it leaves
        # out (the after-battle screen lists every figure)
        room = min(btn.rect.top for btn in (self.title_button, self.look_button, self.summary_button)) - s(8) - y
        lh = max(text.line_height(14), min(s(24), room // max(1, len(self.stats))))
        shown = len(self.stats) if len(self.stats) * lh <= room else max(0, room // lh - 1)
        self.rows_shown = shown
        for row, vals in list(zip(self.stats, rows, strict=True))[:shown]:
            colour = self._colour(row["side"])
            self.cell_rects.append(
                [
                    text.blit(surface, text.fit(v, 14, cw), (x, y), 14, colour if i == 0 else theme.TEXT)
                    for i, (v, x, cw) in enumerate(zip(vals, xs, widths, strict=True))
                ]
            )
            y += lh
        if shown < len(self.stats):
            more = f"… and {len(self.stats) - shown} more: After the battle… (A) lists every figure"
            text.blit(surface, text.fit(more, 14, w - s(80)), (xs[0], y), 14, theme.TEXT_MUTED)
        self.title_button.draw(surface, text)
        self.look_button.draw(surface, text)
        self.summary_button.draw(surface, text)

    def _column_widths(self, heads: tuple[str, ...], rows: Sequence[tuple[str, ...]], room: int) -> list[int]:
        """Each column as wide as its widest cell; when the window is too narrow the text columns (figure,
        side, wounds) share what is left and their cells are cut with "…"."""
        text, gap = self.ui.text, self.ui.s(24)
        widths = [max([text.width(hd, 14, True)] + [text.width(r[i], 14) for r in rows]) for i, hd in enumerate(heads)]
        spare = room - gap * (len(widths) - 1) - sum(widths[3:])
        if sum(widths[:3]) > spare:
            cap = max(1, spare // 3)
            for _ in range(8):  # widen the cap while the narrower columns leave room for it
                wider = [wd for wd in widths[:3] if wd > cap]
                cap = max(cap, (spare - sum(wd for wd in widths[:3] if wd <= cap)) // max(1, len(wider)))
            widths[:3] = [min(wd, cap) for wd in widths[:3]]
        return widths

    def _colour(self, side: str) -> RGB:
        s = self.battle.sides.get(side)
        return theme.hex_colour(s.colour) if s is not None else theme.TEXT


class Outcome(Protocol):
    """What names a battle's end: its winner and its sides (a ``Battle``, or the battle as shown)."""

    @property
    def winner(self) -> str | None:
        """The winning side's id, if any."""
        ...

    @property
    def sides(self) -> Mapping[str, SideSetup]:
        """The sides by id."""
        ...


def victory_line(battle: Outcome) -> str:
    """How the victory screen and the top bar name the end of a battle, in words that read right for any side
    name, plural or collective: "Victory: The Wyrm-Hunters", or that no side is left standing."""
    if battle.winner is None:
        return "No side is left standing"
    return f"Victory: {battle.sides[battle.winner].name}"


def summary_of(ui: UiContext, end: BattleEnd) -> Transition:
    """The after-battle screen (wounds, who hit whom, luck, export, healing, saving the wounds into the roster
    file the battle was loaded from) pushed over this one, with the healing kept for this battle
    (``Session.aftercare``, *Fudge* 4.8), so reopening does not roll it again."""
    return Push(SummaryScreen(ui, end))
