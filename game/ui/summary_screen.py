"""The after-battle screen: wounds, who hit whom, luck, export and healing.

Reached from the victory screen, or from the Esc menu once the battle is over. It shows, from
``game.report.battle_summary``: every figure's wound sheet drawn as boxes (*Fudge* 4.57: one column per track
level, a mark in each filled box — X for a wound of that level, the initial of a lighter wound that rolled up),
who attacked whom (attacks, hits, wounds, damage), and each side's luck (the sum of its 4dF rolls against
the expectation 0). "Export log" writes the readable text log (``game.report.export_log_text``) with the
healing below it into the data folder (``game.session.data_dir``) and says where; a disk that refuses it gives
a message and changes nothing. The healing step runs *Fudge* 4.8 through ``game.aftercare.Aftercare``: care
erases Scratches, each side's healer (a figure with a medical skill, or a skill level the GM enters) treats
that side's wounded with one roll each shown with its dice, and rest heals a level a week. "Save wounds to
roster" writes the sheets as healed so far into the roster file the battle was loaded from
(``Aftercare.save_wounds``), so the next battle starts each character with the wounds it carries; a roster
shipped with the game is not changed: a campaign copy in the user's data folder takes the wounds instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.aftercare import Aftercare, AftercareError, Healer
from game.engine.battle import Battle
from game.engine.ladder import level_name
from game.engine.wounds import Wounds
from game.paths import in_game_folder
from game.report import battle_summary, export_log_text, wound_boxes
from game.ui import theme
from game.ui.battle.words import counted
from game.ui.screen import Pop, Screen, Transition, UiContext, press, transition_of
from game.ui.widgets import Button, ScrollList, Tooltip, cycled, draw_panel

if TYPE_CHECKING:
    from game.session import BattleSession

RGB = tuple[int, int, int]
GM_HEALER = "gm"
"""The healer choice for a skill level the GM enters instead of a figure's."""
MAX_REST_WEEKS = 52
HEALER_TIP = (
    "Who treats this side's wounded: a figure with a medical skill (First Aid, Medicine…) or a healer the GM "
    "rates on the ladder."
)
TREAT_TIP = "Fudge 4.8: one roll per wounded figure; Good heals every wound a level, Great two, Superb three."


def export_path(battle: Battle) -> Path:
    """Where "Export log" writes: ``<data dir>/logs/<title>-<seed>.txt`` (``game.session.data_dir``)."""
    from game.session import data_dir

    slug = re.sub(r"[^a-z0-9]+", "-", (battle.setup.title or "battle").lower()).strip("-") or "battle"
    return data_dir() / "logs" / f"{slug}-{battle.setup.seed}.txt"


def card_notes(fig: dict[str, Any]) -> str:
    """What the rule options add to a figure's card (``report.battle_summary``): its role, a hero's Fudge Points
    ("Fudge Points 3 → 1", *Fudge* 4.64), what Will did (*Fudge* 4.51)."""
    notes = [str(fig["role"])] if "role" in fig else []
    if "fudge_points" in fig:
        notes.append(f"Fudge Points {fig['fudge_points']['start']} → {fig['fudge_points']['left']}")
    if "will" in fig:
        notes.append(f"Will: {fig['will']}")
    return " · ".join(notes)


@dataclass(frozen=True)
class BattleEnd:
    """A finished battle as the screens after it take it (the victory screen, this one): the battle, the way
    back to the title, the roster file it was loaded from (``setup_data["roster_file"]``, None if unknown) and
    where the healing kept for it comes from (``Session.aftercare``, *Fudge* 4.8; None: none is kept)."""

    battle: Battle
    to_title: Callable[[], Transition]
    roster_path: str | Path | None = None
    care: Callable[[], Aftercare] | None = None

    @classmethod
    def of(cls, session: BattleSession, to_title: Callable[[], Transition]) -> BattleEnd:
        """The end of a session's battle: its roster file and the healing the session keeps."""
        return cls(session.battle, to_title, session.setup_data.get("roster_file"), session.aftercare)

    def aftercare(self) -> Aftercare:
        """The healing kept for this battle, or a fresh one (none kept, or the one kept is another battle's)."""
        kept = self.care() if self.care is not None else None
        return kept if kept is not None and kept.battle is self.battle else Aftercare(self.battle)


class SummaryScreen(Screen):
    """After the battle: wound boxes per figure, who hit whom, luck, export, healing (*Fudge* 4.8)."""

    CARD_H = 74

    def __init__(self, ui: UiContext, end: BattleEnd) -> None:
        super().__init__(ui)
        battle = end.battle
        self.battle = battle
        self.roster_path = Path(end.roster_path) if end.roster_path else None
        """The roster file the battle was loaded from (``setup_data["roster_file"]``), None if unknown."""
        self.to_title = end.to_title
        self.summary: dict[str, Any] = battle_summary(battle)
        self.care = end.aftercare()
        """The healing so far (*Fudge* 4.8); the battle screen keeps it (``Session.aftercare``) so Back and
        reopening show the same healing rather than a fresh roll."""
        self.message = "Export the log, or heal the figures: care, a healer's treatment, then rest."
        self.message_error = False
        self.exported: Path | None = None
        self.tooltip: Tooltip = Tooltip()
        self.message_rect = pygame.Rect(0, 0, 0, 0)
        """Where the status message is written (between the buttons, or above them in a narrow window)."""
        self.scroll = 0
        self._mouse = (-1, -1)
        self.drawn_boxes: dict[str, list[tuple[pygame.Rect, str]]] = {}
        """Per figure, each box of its current sheet as last drawn and its mark ("" when empty)."""
        self.luck_top = 0
        self.heal_top = 0
        self.show_luck = True
        self.card_rects: list[tuple[pygame.Rect, str]] = []
        self.cards_area = pygame.Rect(0, 0, 0, 0)
        self.hits = ScrollList(pygame.Rect(0, 0, 10, 10), size=13)
        names = {f["id"]: f for f in self.summary["figures"]}
        rows, colours = [], []
        for row in self.summary["hits"]:
            rows.append(
                f"{row['attacker_name']} → {row['target_name']}: {row['hits']}/{row['attacks']} hit, "
                f"{counted(row['wounds'], 'wound')}, damage {row['damage']}"
            )
            who = names.get(row["attacker"])
            colours.append(self.side_colour(who["side"]) if who else None)
        self.hits.set_items(rows or ["Nobody attacked anybody."], colours or None)
        self.healer_choice: dict[str, str] = {}
        self.gm_level: dict[str, int] = {}
        for sid in battle.sides:
            healers = self.care.healers(sid)
            self.healer_choice[sid] = healers[0].id if healers else GM_HEALER
            self.gm_level[sid] = 1
        self.weeks = 1
        self.care_button = Button(
            "Care: erase Scratches",
            self.do_care,
            size=14,
            tooltip="Fudge 4.8: a few minutes' care after the battle erase every Scratch.",
        )
        self.side_rows = {sid: self._side_row(sid) for sid in battle.sides}
        """Per side, its healing row: the healer, the GM's healer's skill − and +, Treat."""
        self.weeks_minus = Button("−", lambda: self.change_weeks(-1), size=15, tooltip="One week less.")
        self.weeks_plus = Button("+", lambda: self.change_weeks(1), size=15, tooltip="One week more.")
        self.rest_button = Button(
            "Rest", self.do_rest, size=14, tooltip="Fudge 4.8: untreated wounds heal one level per week of rest."
        )
        self.export_button = Button(
            "Export log",
            self.do_export,
            size=15,
            hotkey=pygame.K_x,
            tooltip="Write the whole battle as readable text, with this summary and the "
            "healing, into the game's data folder (X).",
        )
        where = self.roster_path.name if self.roster_path else "the roster"
        if self.roster_path is not None and in_game_folder(self.roster_path):
            where = f"a campaign copy of {where} in your data folder (the game's own roster stays as shipped)"
        self.wounds_button = Button(
            "Save wounds to roster",
            self.do_save_wounds,
            size=15,
            hotkey=pygame.K_w,
            enabled=self.roster_path is not None,
            tooltip=(
                f"Fudge 4.8: write every figure's wounds, as healed here, into {where}, so each character "
                "starts the next battle with them (W). A wounded figure sharing a roster character gets an "
                "entry of its own, named after it; GM reinforcements are left out."
                if self.roster_path is not None
                else "This battle does not say which roster file it came from, so there is no roster to write "
                "the wounds into."
            ),
        )
        self.back_button = Button("Back", Pop, size=15, tooltip="Back (Esc).")
        self.title_button = Button("Back to title", lambda: Pop(then=end.to_title()), size=15)
        self._labels()

    # --- data -----------------------------------------------------------------------------------------
    def side_colour(self, side: str) -> RGB:
        """The side's own colour, or its colour-blind-safe stand-in."""
        index = list(self.battle.sides).index(side) if side in self.battle.sides else 0
        s = self.battle.sides.get(side)
        return self.ui.side_colour(s.colour if s is not None else None, index)

    def wounds_of(self, fid: str) -> Wounds:
        """A figure's wound record now (after any healing)."""
        return self.care.patients[fid].wounds

    def healer_of(self, side: str) -> Healer | None:
        """The chosen figure healing a side (None: the GM's healer)."""
        choice = self.healer_choice[side]
        return next((h for h in self.care.healers(side) if h.id == choice), None)

    def _side_row(self, side: str) -> tuple[Button, Button, Button, Button]:
        """A side's healing row: its healer, the GM's healer's skill − and +, Treat."""
        healer, minus, plus, treat = (
            Button(label, action, size=size, tooltip=tip)
            for label, action, size, tip in (
                ("", partial(self.cycle_healer, side), 13, HEALER_TIP),
                ("−", partial(self.change_gm_level, side, -1), 15, "Lower the GM's healer's skill one level."),
                ("+", partial(self.change_gm_level, side, 1), 15, "Raise the GM's healer's skill one level."),
                ("Treat", partial(self.do_treat, side), 13, TREAT_TIP),
            )
        )
        return healer, minus, plus, treat

    def _labels(self) -> None:
        for sid, (healer_b, minus, plus, treat_b) in self.side_rows.items():
            h = self.healer_of(sid)
            if h is not None:
                healer_b.text = f"{h.name}: {h.skill} {level_name(h.level)}"
            else:
                healer_b.text = f"GM's healer: {level_name(self.gm_level[sid])}"
            minus.enabled = plus.enabled = h is None
            waiting = [p for p in self.care.patients.values() if p.side == sid and p.wounded and not p.treated]
            treat_b.enabled = bool(waiting)
        self.care_button.enabled = not self.care.cared
        self.weeks_minus.enabled = self.weeks > 1
        self.weeks_plus.enabled = self.weeks < MAX_REST_WEEKS
        self.rest_button.text = f"Rest {self.weeks} week{'s' if self.weeks != 1 else ''}"

    def say(self, text: str, error: bool = False) -> None:
        """A sentence in the status line."""
        self.message, self.message_error = text, error

    # --- actions --------------------------------------------------------------------------------------
    def do_care(self) -> bool:
        """Erase every Scratch (*Fudge* 4.8)."""
        try:
            changed = self.care.care()
        except AftercareError as exc:
            self.say(str(exc), error=True)
            return True
        self.say(f"Scratches erased: {', '.join(changed)}." if changed else "Nobody had a Scratch to tend.")
        self._labels()
        return True

    def cycle_healer(self, side: str) -> bool:
        """The next healer of a side: its figures with a medical skill, then the GM's healer."""
        choices = [h.id for h in self.care.healers(side)] + [GM_HEALER]
        self.healer_choice[side] = cycled(choices, self.healer_choice[side])
        self._labels()
        return True

    def change_gm_level(self, side: str, step: int) -> bool:
        """Raise or lower the GM's healer's skill (Terrible … Legendary)."""
        self.gm_level[side] = max(-3, min(4, self.gm_level[side] + step))
        self._labels()
        return True

    def change_weeks(self, step: int) -> bool:
        """More or fewer weeks of rest."""
        self.weeks = max(1, min(MAX_REST_WEEKS, self.weeks + step))
        self._labels()
        return True

    def do_treat(self, side: str) -> bool:
        """The side's healer treats each of its wounded once (*Fudge* 4.8); the rolls go to the figures' cards."""
        h = self.healer_of(side)
        try:
            done = self.care.treat_side(side, healer=h.id if h else None, gm_level=None if h else self.gm_level[side])
        except AftercareError as exc:
            self.say(str(exc), error=True)
            return True
        name = self.battle.sides[side].name
        healed = sum(1 for t in done if t.succeeded)
        self.say(
            f"{name}: {len(done)} treated, {healed} healed. The rolls are on each figure's card."
            if done
            else f"{name}: nobody left to treat."
        )
        self._labels()
        return True

    def do_rest(self) -> bool:
        """Everyone rests the chosen number of weeks (*Fudge* 4.8)."""
        self.care.rest(self.weeks)
        self.say(f"Everyone rested {counted(self.weeks, 'week')}; wounds healed a level a week.")
        self._labels()
        return True

    def export_text(self) -> str:
        """The exported text: the whole log and summary, then the healing."""
        return export_log_text(self.battle) + self.care.text()

    def do_export(self) -> bool:
        """Write the log into the data folder (atomic; a refusing disk gives a message, nothing is lost)."""
        from game.engine.record import SaveError, write_atomic

        path = export_path(self.battle)
        try:
            write_atomic(path, self.export_text())
        except SaveError as exc:
            self.say(f"The log was not exported: {exc}. The battle and its saves are unchanged.", error=True)
            return True
        except OSError as exc:
            self.say(
                f"The log was not exported to {path.parent}: {exc.strerror or exc}. The battle and its saves "
                "are unchanged; free some space or set FUDGE_TACTICS_HOME to a writable folder.",
                error=True,
            )
            return True
        self.exported = path
        self.say(f"Log exported to {path}")
        return True

    def do_save_wounds(self) -> bool:
        """Write the healed wounds into the battle's roster file (atomic; a refusal changes nothing)."""
        try:
            report = self.care.save_wounds(self.roster_path)
        except AftercareError as exc:
            self.say(f"{str(exc)[:1].upper()}{str(exc)[1:]}. The roster file is unchanged.", error=True)
            return True
        self.say(report.message())
        return True

    # --- layout ---------------------------------------------------------------------------------------
    @property
    def buttons(self) -> list[Button]:
        """Every button on the screen."""
        out = [self.care_button]
        for row in self.side_rows.values():
            out.extend(row)
        out += [
            self.weeks_minus,
            self.weeks_plus,
            self.rest_button,
            self.export_button,
            self.wounds_button,
            self.back_button,
            self.title_button,
        ]
        return out

    def on_resize(self, size: tuple[int, int]) -> None:
        """Figure cards on the left; hits, luck and healing on the right; buttons along the bottom."""
        super().on_resize(size)
        s = self.ui.s
        w, h = size
        margin = s(20)
        right_w = min(s(470), w * 2 // 5)
        rx = w - margin - right_w
        top = s(92)
        by = h - s(64)
        buttons_w = s(160) + s(10) + s(210) + s(130) + s(180)
        line_h = self.ui.text.line_height(13)
        if w - 2 * margin - buttons_w - s(46) >= s(220):  # the status message between the buttons
            bottom = h - s(96)
            self.message_rect = pygame.Rect(0, by, 0, s(42))
        else:  # a narrow window: the message gets its own lines above the buttons
            self.message_rect = pygame.Rect(margin, by - s(6) - 3 * line_h, rx - margin - s(20), 3 * line_h)
            bottom = self.message_rect.top - s(24)
        self.cards_area = pygame.Rect(margin, top + s(24), rx - margin - s(20), bottom - top - s(24))
        y = top + s(24)
        n = len(self.side_rows)
        right_bottom = by - s(2)
        luck_h = len(self.battle.sides) * s(34) + s(30)
        healing_h = s(30) + s(4) + s(36) + n * s(36) + s(30)
        # luck and healing fit under the hits; in a very short window the luck bars give way to the healing
        self.show_luck = y + s(48) + luck_h + healing_h <= right_bottom
        below_hits = healing_h + (luck_h if self.show_luck else 0)
        hits_h = min((bottom - top) * 3 // 10, right_bottom - y - below_hits)
        self.hits.rect = pygame.Rect(rx, y, right_w, max(s(48), hits_h))
        self.luck_top = self.hits.rect.bottom + s(30)
        self.heal_top = self.luck_top + (luck_h if self.show_luck else 0)
        y = self.heal_top
        y += s(4)
        self.care_button.rect = pygame.Rect(rx, y, right_w, s(30))
        y += s(36)
        for healer_b, minus, plus, treat_b in self.side_rows.values():
            healer_b.rect = pygame.Rect(rx + s(22), y, right_w - s(22) - s(3 * 36) - s(40), s(30))
            minus.rect = pygame.Rect(healer_b.rect.right + s(4), y, s(30), s(30))
            plus.rect = pygame.Rect(minus.rect.right + s(4), y, s(30), s(30))
            treat_b.rect = pygame.Rect(plus.rect.right + s(6), y, rx + right_w - plus.rect.right - s(6), s(30))
            y += s(36)
        self.weeks_minus.rect = pygame.Rect(rx, y, s(30), s(30))
        self.weeks_plus.rect = pygame.Rect(rx + s(34), y, s(30), s(30))
        self.rest_button.rect = pygame.Rect(rx + s(70), y, right_w - s(70), s(30))
        fit = min(1.0, (w - 2 * margin - s(40)) / (s(160) + s(210) + s(120) + s(180)))  # one row, always

        def bw(width: int) -> int:
            return int(s(width) * fit)

        self.export_button.rect = pygame.Rect(margin, by, bw(160), s(42))
        self.wounds_button.rect = pygame.Rect(self.export_button.rect.right + s(10), by, bw(210), s(42))
        self.title_button.rect = pygame.Rect(w - margin - bw(180), by, bw(180), s(42))
        self.back_button.rect = pygame.Rect(self.title_button.rect.x - bw(120) - s(10), by, bw(120), s(42))
        if self.message_rect.width == 0:
            left = self.wounds_button.rect.right + s(16)
            self.message_rect = pygame.Rect(left, by, self.back_button.rect.x - s(14) - left, s(42))
        self._layout_cards()

    def _layout_cards(self) -> None:
        s = self.ui.s
        area = self.cards_area
        cols = 2 if area.width >= s(640) else 1
        cw = (area.width - (cols - 1) * s(12)) // cols
        ch = s(self.CARD_H)
        self.card_rects = []
        for i, f in enumerate(self.summary["figures"]):
            r, c = divmod(i, cols)
            rect = pygame.Rect(area.x + c * (cw + s(12)), area.y + r * (ch + s(8)) - self.scroll, cw, ch)
            self.card_rects.append((rect, f["id"]))

    def max_scroll(self) -> int:
        """How far the figure cards scroll."""
        if not self.card_rects:
            return 0
        last = max(r.bottom for r, _ in self.card_rects) + self.scroll
        return max(0, last - self.cards_area.bottom)

    # --- input ----------------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons; Esc goes back; the wheel scrolls the cards or the hits list."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        if event.type == pygame.MOUSEWHEEL and self.cards_area.collidepoint(self._mouse):
            self.scroll = max(0, min(self.max_scroll(), self.scroll - event.y * self.ui.s(40)))
            self._layout_cards()
            return None
        if event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
            self.tooltip.hover(self._tip_at(event.pos), event.pos)
        self.hits.handle(event)
        b = press(self.buttons, event)
        if b is not None:
            self._labels()
            return transition_of(b.result)
        return None

    MORE = " … (hover for all)"
    """How a status message too long for its place ends; the whole message is then its tooltip."""

    def message_lines(self) -> tuple[list[str], bool]:
        """The status message as drawn in its place, and whether it had to be cut (then it ends with
        ``MORE`` and hovering over it shows it whole)."""
        s, text = self.ui.s, self.ui.text
        box = self.message_rect
        width = max(s(100), box.width)
        lines = text.wrap(self.message, 13, width)
        room = max(1, box.height // text.line_height(13) + (1 if box.y == self.export_button.rect.y else 0))
        if len(lines) <= room:
            return lines, False
        lines = lines[:room]
        last = lines[-1].rstrip(" .,;")
        while last and text.width(last + self.MORE, 13) > width:
            last = last[:-1].rstrip(" .,;")
        lines[-1] = last + self.MORE
        return lines, True

    def _tip_at(self, pos: tuple[int, int]) -> str:
        tip = next((b.hint for b in self.buttons if b.rect.collidepoint(pos) and b.hint), "")
        if tip:
            return tip
        if self.message_rect.collidepoint(pos) and self.message_lines()[1]:
            return self.message
        for rect, fid in self.card_rects:
            if rect.collidepoint(pos) and self.cards_area.collidepoint(pos):
                p = self.care.patients[fid]
                return " · ".join(p.lines) if p.lines else f"{p.name}: {p.wounds.label}; no healing yet."
        return ""

    # --- drawing --------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Heading, figure cards, hits, luck, healing, buttons, status line."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        sm = self.summary
        outcome = (
            f"{sm['winner_name']} won"
            if sm["winner"]
            else ("no side is left standing" if sm["over"] else "the battle is not finished")
        )
        text.blit(surface, f"After the battle — {sm['title'] or 'Battle'}", (s(20), s(18)), 28, theme.ACCENT, bold=True)
        text.blit(
            surface,
            text.fit(
                f"{outcome} after {sm['rounds']} round{'s' if sm['rounds'] != 1 else ''} · {sm['rules_line']}",
                16,
                surface.get_width() - s(40),
            ),
            (s(20), s(56)),
            16,
            theme.TEXT_MUTED,
        )
        heading = next(
            (
                h
                for h in (
                    "Wounds (Fudge 4.57: X a wound of that level, a letter a lighter one that rolled up)",
                    "Wounds (X: a wound of that level; a letter: a lighter one rolled up)",
                )
                if text.width(h, 14, bold=True) <= self.cards_area.width
            ),
            "Wounds (Fudge 4.57)",
        )
        text.blit(surface, heading, (self.cards_area.x, self.cards_area.y - s(24)), 14, theme.TEXT_MUTED, bold=True)
        clip = surface.get_clip()
        surface.set_clip(self.cards_area)
        for rect, fid in self.card_rects:
            if rect.bottom >= self.cards_area.y and rect.y <= self.cards_area.bottom:
                self._draw_card(surface, rect, fid)
        surface.set_clip(clip)
        if self.max_scroll():
            text.blit(
                surface,
                "wheel: more figures",
                (self.cards_area.right, self.cards_area.bottom + s(4)),
                12,
                theme.TEXT_MUTED,
                anchor="topright",
            )
        rx = self.hits.rect.x
        text.blit(surface, "Who hit whom", (rx, self.hits.rect.y - s(24)), 14, theme.TEXT_MUTED, bold=True)
        draw_panel(surface, self.hits.rect, theme.PANEL, theme.BORDER)
        self.hits.draw(surface, text)
        self._draw_luck(surface)
        text.blit(surface, "Healing (Fudge 4.8)", (rx, self.heal_top - s(24)), 14, theme.TEXT_MUTED, bold=True)
        for sid, (healer_b, *_rest) in self.side_rows.items():
            pygame.draw.circle(surface, self.side_colour(sid), (rx + s(8), healer_b.rect.centery), s(7))
        for b in self.buttons:
            b.draw(surface, text)
        box = self.message_rect
        lines, _cut = self.message_lines()
        y = box.centery - len(lines) * text.line_height(13) // 2
        for line in lines:
            text.blit(surface, line, (box.x, y), 13, theme.DANGER if self.message_error else theme.TEXT)
            y += text.line_height(13)
        self.tooltip.draw(surface, text)

    def _draw_card(self, surface: pygame.Surface, rect: pygame.Rect, fid: str) -> None:
        s, text = self.ui.s, self.ui.text
        p = self.care.patients[fid]
        fig = next(f for f in self.summary["figures"] if f["id"] == fid)
        draw_panel(surface, rect, theme.PANEL, theme.BORDER)
        colour = self.side_colour(p.side)
        pygame.draw.rect(surface, colour, (rect.x, rect.y + s(4), s(4), rect.height - s(8)))
        text.blit(surface, p.name, (rect.x + s(12), rect.y + s(6)), 15, theme.TEXT, bold=True)
        now = p.wounds.label
        state = now if now == fig["condition"] else f"{fig['condition']} → {now}"
        if fig["out"] and now == fig["condition"]:
            state += " (out)"
        text.blit(
            surface,
            state,
            (rect.right - s(10), rect.y + s(7)),
            13,
            theme.DANGER if p.wounds.worst is not None and not p.wounds.can_act else theme.TEXT_MUTED,
            anchor="topright",
        )
        notes = card_notes(fig)  # the rule options' notes: role, Fudge Points, Will (docs/rulings.md)
        if notes:
            at = rect.x + s(12) + text.width(p.name, 15, True) + s(10)
            room = rect.right - s(10) - text.width(state, 13) - s(10) - at
            if room > s(40):
                text.blit(surface, text.fit(notes, 11, room), (at, rect.y + s(9)), 11, theme.TEXT_MUTED)
        x = rect.x + s(12)
        y = rect.y + s(28)
        before = self.battle.figures[fid].wounds
        if before != p.wounds:
            x = self._draw_boxes(surface, before, x, y, faded=True)
            text.blit(surface, "→", (x - s(2), y + s(12)), 15, theme.ACCENT, bold=True)
            x += s(18)
        self.drawn_boxes[fid] = []
        self._draw_boxes(surface, p.wounds, x, y, record=self.drawn_boxes[fid])
        if p.lines:
            text.blit(
                surface,
                text.fit(p.lines[-1], 11, rect.width - s(20)),
                (rect.x + s(12), rect.bottom - s(16)),
                11,
                theme.TEXT_MUTED,
            )

    def _draw_boxes(
        self,
        surface: pygame.Surface,
        wounds: Wounds,
        x: int,
        y: int,
        faded: bool = False,
        record: list[tuple[pygame.Rect, str]] | None = None,
    ) -> int:
        """One wound sheet as boxes (*Fudge* 4.57): a column per level, its label above; returns the right edge."""
        s, text = self.ui.s, self.ui.text
        box = s(14)
        for col in wound_boxes(wounds):
            label = str(col["label"])
            short = (
                label
                if text.width(label, 10) <= col["boxes"] * (box + s(2)) + s(6)
                else "".join(w[0] for w in label.split())
            )
            text.blit(surface, short, (x, y), 10, theme.TEXT_DISABLED if faded else theme.TEXT_MUTED)
            bx = x
            for k in range(int(col["boxes"])):
                r = pygame.Rect(bx, y + s(13), box, box)
                pygame.draw.rect(surface, theme.PANEL_LIGHT, r)
                pygame.draw.rect(surface, theme.BORDER, r, 1)
                if record is not None:
                    record.append((r, col["marks"][k] if k < len(col["marks"]) else ""))
                if k < len(col["marks"]):
                    mark = col["marks"][k]
                    glyph = "X" if mark == col["level"] else mark[0]
                    fill = theme.DANGER if glyph == "X" else theme.ACCENT
                    if faded:
                        fill = tuple(c // 2 + 20 for c in fill)  # type: ignore[assignment]
                    pygame.draw.rect(surface, fill, r.inflate(-s(4), -s(4)))
                    text.blit(surface, glyph, r.center, 10, theme.BACKGROUND, bold=True, anchor="center")
                bx += box + s(2)
            x = max(bx, x + text.width(short, 10)) + s(8)
        if wounds.beyond:
            text.blit(surface, f"+{len(wounds.beyond)}", (x, y + s(13)), 11, theme.DANGER)
            x += text.width(f"+{len(wounds.beyond)}", 11) + s(6)
        return x

    def _draw_luck(self, surface: pygame.Surface) -> None:
        if not self.show_luck:
            return
        s, text = self.ui.s, self.ui.text
        rx, width = self.hits.rect.x, self.hits.rect.width

        def fitting(size: int, bold: bool, *words: str) -> str:
            """The first of the wordings that fits the column (the last one cut with "…")."""
            return next(
                (w for w in words if text.width(w, size, bold) <= width), text.fit(words[-1], size, width, bold)
            )

        heading = fitting(14, True, "Luck: the sum of each side's 4dF rolls (expected 0)", "Luck: each side's 4dF sum")
        text.blit(surface, heading, (rx, self.luck_top - s(24)), 14, theme.TEXT_MUTED, bold=True)
        y = self.luck_top
        for sid, entry in self.summary["luck"].items():
            colour = self.side_colour(sid) if sid in self.battle.sides else theme.TEXT
            luckier = f"luckier than {100 * entry['percentile']:.0f}%"
            line = fitting(
                13,
                False,
                f"{entry['name']}: {entry['sum']:+d} over {entry['rolls']} rolls (± {entry['sd']:.1f}); {luckier}",
                f"{entry['name']}: {entry['sum']:+d} over {entry['rolls']} rolls; {luckier}",
                f"{entry['name']}: {entry['sum']:+d}; {luckier}",
            )
            text.blit(surface, line, (rx, y), 13, colour)
            bar = pygame.Rect(rx, y + s(18), width, s(8))
            pygame.draw.rect(surface, theme.PANEL_LIGHT, bar, border_radius=3)
            mid = bar.centerx
            pygame.draw.line(surface, theme.TEXT_MUTED, (mid, bar.y - s(2)), (mid, bar.bottom + s(2)))
            sd = max(float(entry["sd"]), 1.0)
            frac = max(-1.0, min(1.0, entry["sum"] / (3 * sd)))  # the bar spans three standard deviations
            end = mid + round(frac * (bar.width // 2))
            pygame.draw.rect(
                surface, colour, pygame.Rect(min(mid, end), bar.y, max(2, abs(end - mid)), bar.height), border_radius=3
            )
            y += s(34)


__all__ = ["GM_HEALER", "BattleEnd", "SummaryScreen", "export_path"]
