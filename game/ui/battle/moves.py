"""The move panel of the battle screen (FTC 5): a human side's movement — the mover, its reachable hexes and
escape chances, the planned path, the final facing and posture, hold, stay, pass, interrupt — and the
questions of the movement and attack phases: stop the mover, run after a failed escape, follow a
retreating target.

What can be reached and at what cost is the battle's (``Battle.reach_for``, asked through the model); the
player's choices while they are being made (the figure chosen to interrupt with, the facing, the posture) are
the model's ``MovePlan``: the panel edits them and keeps no state of its own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import pygame

from game.engine import actions as act
from game.engine.battle import Decision, Figure
from game.engine.heroes import FUDGE_ORDERS
from game.engine.hexgrid import Hex
from game.engine.movement import Path as MovePath
from game.ui import theme
from game.ui.battle.common import DecisionHost
from game.ui.battle.model import ANSWER_REASONS, MOVE_REASONS, follow_hex
from game.ui.battle.words import counted
from game.ui.preview import percent
from game.ui.widgets import Button

ANSWER_BUTTONS: Mapping[str, tuple[tuple[str, bool], ...]] = {
    "stop": (("Stop (Y)", True), ("Let go (N)", False)),
    "escape_failed": (("Stay (N)", False), ("Run (Y)", True)),
    "follow": (("Follow (Y)", True), ("Stay (N)", False)),
    "fudge_point": (("Spend (S)", True), ("Keep (K)", False)),
}
"""The buttons of each yes-or-no question (``ANSWER_REASONS``), left to right: label (with its key) and answer."""

POSTURES = ("standing", "crawling", "prone")
HINT = "Click a coloured hex to move there · wheel or Q/E: final facing"
"""The move panel's words before a path is shown."""
LEGEND = ("free attacks risk", "escape roll", "free")
"""The movement bands' legend, right to left (FTC 5.3: free, an escape roll, free attacks likely)."""
ORDERS = ("always", "never", "ask")


class MovePanel:
    """The movement decision being planned, its buttons, keys, board clicks and panel text."""

    HEIGHT = 112

    def __init__(self, screen: DecisionHost) -> None:
        self.screen = screen
        self.model = screen.model

    def height(self, width: int) -> int:
        """The panel's height at this width: one row taller when the colour legend does not fit beside the
        buttons, and a line taller when its words take three lines (a narrow panel)."""
        s = self.screen.ui.s
        extra = (self.text_lines(width) - 2) * self.screen.ui.text.line_height(13)
        return s(self.HEIGHT) + (0 if self._legend_fits(width) else s(18)) + extra

    def text_room(self, width: int) -> int:
        """The width the panel's words have: clear of the "GM (G)" button in a battle with a GM seat."""
        s = self.screen.ui.s
        return width - 2 * s(12) - (s(96) if self.model.battle.setup.gm is not None else 0)

    def text_lines(self, width: int) -> int:
        """How many lines the panel keeps for its words (2, or 3 when the longest of them needs them)."""
        longest = f"{HINT} · C: posture (crawling)"
        return min(3, max(2, len(self.screen.ui.text.wrap(longest, 13, self.text_room(width)))))

    def _legend_width(self) -> int:
        s, text = self.screen.ui.s, self.screen.ui.text
        return sum(text.width(label, 11) + s(22) for label in LEGEND)

    def _legend_fits(self, width: int) -> bool:
        s = self.screen.ui.s
        return width - s(12) - self._legend_width() >= s(12) + s(238) + s(8)

    # --- what the move would be -----------------------------------------------------------------
    def current_facing(self) -> int | None:
        """The facing the moving figure would end in (the chosen one, else the path's or its own)."""
        d = self.screen.my_decision()
        fid = self.model.moving_figure(d) if d is not None else None
        if fid is None:
            return None
        if self.model.plan.facing is not None:
            return self.model.plan.facing
        path = self.model.planned_path(fid, self.model.selection.hover)
        return path.end_facing if path is not None else self.model.battle.figure(fid).facing

    def turn(self, step: int) -> None:
        """Turn the final facing one side (Q / E, the wheel over a reachable hex)."""
        self.model.plan.facing = ((self.current_facing() or 0) + step) % 6
        self.screen.invalidate()

    def wheel_turns(self, in_board: bool) -> bool:
        """The wheel turns the final facing while a path is previewed (else it zooms)."""
        d = self.screen.my_decision()
        h = self.model.selection.hover
        if d is None or h is None or not in_board:
            return False
        fid = self.model.moving_figure(d)
        return fid is not None and self.model.reach(fid).can_reach(h)

    # --- commands -------------------------------------------------------------------------------
    def cmd_posture(self) -> None:
        """C: cycle the mover's posture — standing, crawling, lying down (FTC 5 "Crawling and Rolling")."""
        d = self.screen.my_decision()
        fid = self.model.active_mover(d) if d is not None else None
        if fid is None:
            return
        self.model.plan.posture = POSTURES[(POSTURES.index(self.model.posture_of(fid)) + 1) % 3]
        self.screen.invalidate()
        self.screen.set_status(
            f"{self.model.battle.figure(fid).name} will move {self.model.plan.posture}: "
            f"{counted(self.model.reach(fid).allowance, 'hex', 'hexes')} this round."
        )

    def cmd_standing_order(self) -> bool:
        """O: cycle the selected figure's standing order for stopping enemies (always / never / ask);
        only for a figure of the side whose player is at the computer now."""
        d = self.screen.my_decision()
        fid = self.model.selection.figure
        battle = self.model.battle
        if d is None or fid is None or battle.figure(fid).side != d.side:
            return False
        current = battle.figure(fid).standing_order
        return self.screen.send(act.SetStandingOrder(fid, ORDERS[(ORDERS.index(current) + 1) % 3]))

    def cmd_hold(self) -> bool:
        """H: hold the figure whose turn it is (FTC 5)."""
        d = self.screen.my_decision()
        if d is None or d.reason != "move" or d.figure is None:
            self.screen.set_status("Only the figure whose turn it is may hold now.", error=True)
            return False
        return self.screen.send(act.Hold(d.figure))

    def cmd_stay(self) -> bool:
        """Space: the moving figure stays where it is (a move with no steps)."""
        d = self.screen.my_decision()
        if d is None:
            return False
        if d.reason in MOVE_REASONS:
            fid = self.model.active_mover(d)
            if fid is None:
                return False
            fig = self.model.battle.figure(fid)
            if self.model.plan.facing is not None and self.model.plan.facing != fig.facing:
                path = self.model.planned_path(fid, fig.hex)
                if path is not None:
                    return self.screen.send(self.model.move_action(fid, path.steps))
            return self.screen.send(self.model.move_action(fid, ()))
        if d.reason == "escape_failed":
            return self.screen.send(act.EscapeFailedChoice(d.figure or "", False))
        if d.reason == "follow":
            return self.screen.send(act.FollowChoice(d.figure or "", None))
        return False

    def cmd_pass(self) -> bool:
        """P: the side lets the next figure move without interrupting."""
        d = self.screen.my_decision()
        if d is None or d.reason != "interrupt":
            return False
        return self.screen.send(act.PassInterrupt(d.side))

    def cmd_answer(self, yes: bool) -> bool:
        """Y / N: stop the mover, run from a failed escape, follow the retreating target."""
        d = self.screen.my_decision()
        if d is None or d.figure is None:
            return False
        if d.reason == "stop":
            return self.screen.send(act.StopChoice(d.figure, yes))
        if d.reason == "escape_failed":
            return self.screen.send(act.EscapeFailedChoice(d.figure, yes))
        if d.reason == "follow":
            return self.screen.send(act.FollowChoice(d.figure, follow_hex(self.model.battle) if yes else None))
        if d.reason == "fudge_point":  # Fudge 4.64: spend a point to be Incapacitated rather than near death
            return self.screen.send(act.SpendFudgePoint(d.figure, yes))
        return False

    def cmd_fudge_order(self) -> bool:
        """F: cycle the selected hero's standing order for spending a Fudge Point on a deadly wound (always /
        ask / never; *Fudge* 4.64), while that option is on; only for a figure of the side deciding here."""
        d = self.screen.my_decision()
        fid = self.model.selection.figure
        battle = self.model.battle
        if d is None or fid is None or not battle.options.pc_death_fudge_point:
            return False
        fig = battle.figure(fid)
        if fig.side != d.side or not fig.is_hero:
            return False
        return self.screen.send(
            act.SetFudgePointOrder(fid, FUDGE_ORDERS[(FUDGE_ORDERS.index(fig.fudge_order) + 1) % len(FUDGE_ORDERS)])
        )

    # --- input ----------------------------------------------------------------------------------
    def buttons(self, d: Decision, rect: pygame.Rect) -> list[Button]:
        """The panel's buttons for a movement decision or a question, along its foot."""
        s = self.screen.ui.s
        out: list[Button] = []
        x, y = rect.x + s(12), rect.bottom - s(40)

        def add(label: str, fn: Callable[[], object], w: int = 110) -> None:
            nonlocal x
            out.append(Button(label, fn, pygame.Rect(x, y, s(w), s(30)), size=14))
            x += s(w) + s(8)

        if d.reason in ("move", "held_end"):
            if d.reason == "move":
                add("Hold (H)", self.cmd_hold)
            add("Stay (Space)", self.cmd_stay, 120)
        elif d.reason == "interrupt":
            add("Pass (P)", self.cmd_pass)
            add("Stay (Space)", self.cmd_stay, 120)
        for label, yes in ANSWER_BUTTONS.get(d.reason, ()):
            add(label, functools.partial(self.cmd_answer, yes))
        return out

    def on_key(self, key: int, d: Decision) -> bool:
        """The movement keys (Q/E facing, C posture, O standing order, F Fudge Point order, H hold, Space stay,
        Enter, P pass, Y/N answers, S/K spend or keep a Fudge Point); True when the key was taken. Enter answers
        a question but never makes a mover stay: a figure stays put only when asked (Space, or the Stay
        button)."""
        if key in (pygame.K_q, pygame.K_e) and (d.reason in MOVE_REASONS or self.model.decl.second_move):
            self.turn(1 if key == pygame.K_q else -1)
            return True
        if key == pygame.K_c and d.reason in MOVE_REASONS:
            self.cmd_posture()
            return True
        if key == pygame.K_o and self.cmd_standing_order():
            return True
        if key == pygame.K_f and self.cmd_fudge_order():
            return True
        if key in (pygame.K_s, pygame.K_k) and d.reason == "fudge_point":
            self.cmd_answer(key == pygame.K_s)
            return True
        if key == pygame.K_h and d.reason == "move":
            self.cmd_hold()
            return True
        if key == pygame.K_SPACE:
            self.cmd_stay()
            return True
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER) and d.reason != "declare":
            if d.reason == "interrupt":
                self.cmd_pass()
            elif d.reason in ("move", "held_end"):  # never a stay: an extra Enter (a curtain's, a pass's) lands here
                self.screen.set_status(
                    "Enter does not move: click a coloured hex, or press Space to stay put.", error=True
                )  # a refused key: the next decision clears it
            elif d.reason in ("stop", "fudge_point"):
                self.cmd_answer(True)
            elif d.reason in ("escape_failed", "follow"):
                self.cmd_answer(False)
            return True
        if key == pygame.K_p and d.reason == "interrupt":
            self.cmd_pass()
            return True
        if key in (pygame.K_y, pygame.K_n) and d.reason in ANSWER_REASONS:
            self.cmd_answer(key == pygame.K_y)
            return True
        return False

    def click(self, h: Hex, occupant: Figure | None, d: Decision) -> bool:
        """A board click in a movement decision: choose another held figure, or move along the shown path;
        in a follow question, the offered hex follows. True when the click was taken."""
        battle = self.model.battle
        if d.reason in MOVE_REASONS:
            fid = self.model.active_mover(d)
            if occupant is not None and occupant.id in d.interrupters and occupant.id != fid:
                self.model.plan.actor = occupant.id
                self.model.plan.facing = None
                self.screen.invalidate()
                self.model.selection.figure, self.model.selection.hex = occupant.id, occupant.hex
                return True
            own = fid is not None and battle.figure(fid).hex == h
            turning = (
                own
                and self.model.plan.facing is not None
                and fid is not None
                and self.model.plan.facing != battle.figure(fid).facing
            )
            if fid is not None and (not own or turning) and self.model.reach(fid).can_reach(h):
                path = self.model.planned_path(fid, h)
                if path is not None and self.screen.send(self.model.move_action(fid, path.steps)):
                    return True
        if d.reason == "follow" and h == follow_hex(battle) and h is not None:
            self.cmd_answer(True)
            return True
        return False

    # --- drawing --------------------------------------------------------------------------------
    def paint(self, surf: pygame.Surface, d: Decision) -> None:
        """The panel's text: the mover and the cost of the path under the mouse, or the question asked."""
        s, text = self.screen.ui.s, self.screen.ui.text
        w, h = surf.get_size()
        x, y = s(12), s(8)
        room = self.text_room(w)  # clear of "GM (G)"
        if d.reason in ANSWER_REASONS:
            title = {
                "stop": "Stop the mover?",
                "escape_failed": "Escape failed",
                "follow": "Follow?",
                "fudge_point": "Spend a Fudge Point?",
            }[d.reason]
            text.blit(surf, title, (x, y), 16, theme.ACCENT, bold=True)
            y += s(24)
            parts = text.wrap(d.prompt, 13, room)
            keep = self.text_lines(w)
            if len(parts) > keep:  # the question is in the top bar whole too; here the last line ends with "…"
                parts = [*parts[: keep - 1], text.fit(" ".join(parts[keep - 1 :]), 13, room)]
            for part in parts:
                text.blit(surf, part, (x, y), 13, theme.TEXT)
                y += text.line_height(13)
            return
        fid = self.model.active_mover(d)
        name = self.model.battle.figure(fid).name if fid else "—"
        head = {
            "move": f"{name} moves",
            "held_end": f"{name}: use the held move now",
            "interrupt": f"Interrupt with {name}?",
        }[d.reason]
        text.blit(surf, head, (x, y), 16, theme.ACCENT, bold=True)
        y += s(24)
        path = self.model.planned_path(fid, self.model.selection.hover) if fid else None
        if path is not None:
            esc = self.model.escapes(fid or "")
            extra = f" · escape roll: {percent(esc[path.end])} to get through" if path.end in esc else ""
            line = move_cost_line(path, self.model.reach(fid or "").allowance) + extra
        elif d.reason == "interrupt" and len(d.interrupters) > 1:
            line = "Click another held figure to choose it; click a coloured hex to move."
        else:
            line = HINT
        line += f" · C: posture ({self.model.posture_of(fid)})" if fid else ""
        parts = text.wrap(line, 13, room)
        keep = self.text_lines(w)
        if len(parts) > keep:  # never dropped unsaid: the last line kept ends with "…"
            parts = [*parts[: keep - 1], text.fit(" ".join(parts[keep - 1 :]), 13, room)]
        for part in parts:
            text.blit(surf, part, (x, y), 13, theme.TEXT)
            y += text.line_height(13)
        pal = self.screen.ui.palette
        legend_y = h - s(22) if self._legend_fits(w) else h - s(48)
        lx = w - s(12)
        for label, colour in zip(LEGEND, (pal.move_free_attacks, pal.move_escape, pal.move_free), strict=True):
            r = text.blit(surf, label, (lx, legend_y), 11, theme.TEXT_MUTED, anchor="midright")
            pygame.draw.rect(surf, colour, (r.x - s(14), legend_y - s(5), s(10), s(10)))
            lx = r.x - s(22)


def move_cost_line(path: MovePath, allowance: int) -> str:
    """The cost of a planned move in words (FTC 5, 5.1.2, 5.2): hexes, terrain, one more hex for each figure
    passed through (a friend, or an enemy who does not stop the mover or whose zone he breaks), facing."""
    through = path.occupied_extra
    parts = [f"{path.hexes_moved} hexes", f"terrain {path.terrain_penalty}"]
    if through:
        parts.append(f"passing through {through} figure{'s' if through != 1 else ''} +{through}")
    parts.append(f"facing {path.facing_extra}")
    return f"cost {path.cost} of {allowance}: " + " + ".join(parts)
