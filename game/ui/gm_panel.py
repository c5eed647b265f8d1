"""The GM's panel over the battle screen: the GM's decisions for a figure or its side.

The panel adds no rules: each button builds one GM action of ``game.engine.gm`` and sends it through the
battle screen (``BattleScreen.send`` -> the session -> ``Battle.apply``), so it lands in the log, the
save and the replay like any decision; a refusal shows the engine's sentence in the panel. The battle
screen opens it (G) only for the GM's seat, behind the hotseat curtain when another player sits there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from game.engine import gm
from game.engine.battle import Battle, Seat, seat_of_gm
from game.engine.hexgrid import Hex, distance
from game.engine.seats import set_roll_marks
from game.engine.wounds import WoundLevel, Wounds
from game.ui import theme
from game.ui.battle.common import GMScreen
from game.ui.gm_dialog import confirm_remove
from game.ui.gm_gear import GearEditor
from game.ui.gm_reinforce import ReinforceDialog
from game.ui.gm_traits import TraitsEditor
from game.ui.screen import Pop, Push, Screen, Transition, UiContext, press, transition_of
from game.ui.text_field import TextField
from game.ui.widgets import Button, Tooltip, draw_panel

FACE_TEXT = {-1: "−", 0: "0", 1: "+"}


def face_text(purpose: str, face: int) -> str:
    """One die of a roll as the panel shows it: − 0 + for a Fudge die, its number for a six-sided one."""
    return FACE_TEXT[face] if gm.DIE_PURPOSES[purpose][1] == (-1, 0, 1) else str(face)


STANDING_NONE = "none yet: the modifiers and conditions the GM gives stand here, to lift"
"""The Standing row with nothing to lift (rather than an empty row beside its title)."""
WOUND_TICKS = (WoundLevel.SCRATCH, WoundLevel.HURT, WoundLevel.VERY_HURT, WoundLevel.INCAPACITATED)
NEAR = 2
"""A condition "near the figure" covers the hexes within this distance of it."""
ROW_TITLES = (
    "Figure",
    "Modifier",
    "Reason",
    "Standing",
    "Condition",
    "Next die",
    "Escape",
    "Wounds",
    "Edit",
    "Fight",
    "Fudge Pts",
    "Stop",
)
ROW_STEPS = (34, 31, 29, 28)
"""From one row of buttons to the next (unscaled): closer when the window is short."""
FOOTER = 46
"""Under the last row: the message of the last decision and Close."""
EDIT_WHEN = "Between rounds only: in the movement phase before any figure has moved or held (End round first)."

EDIT_BUTTONS: tuple[tuple[str, str, int, bool, str], ...] = (
    ("Gear…", "gear", 90, True, "Weapons, armour and shield from the catalogue."),
    ("Traits…", "traits", 90, True, "Attributes, skills, gifts and faults on the ladder."),
    ("Reinforce…", "reinforce", 110, False, "A figure from the roster, or a copy of this one, placed on a free hex."),
    ("Remove", "remove", 90, True, "This figure leaves the battle (asks first)."),
)
"""The Edit row (``GMPanel.cmd_edit``): label, what it edits, width, whether it needs a figure chosen, tooltip."""


class GMPanel(Screen):
    """Modifiers (-3..+3, reason, duration), conditions (table 7), a die set by hand, escape and free-attack
    overrides, out / in, wound boxes, end of round or battle — for the figure chosen with ◀ ▶."""

    opaque = False

    def __init__(self, ui: UiContext, screen: GMScreen, on_close: Callable[[], Transition | None]) -> None:
        super().__init__(ui)
        self.screen = screen
        self.on_close = on_close
        ids = list(screen.battle.figures)
        focus = screen.model.figure_in_focus()
        self.figure = focus if focus in ids else (ids[0] if ids else "")
        self.on_side = False
        self.value = 1
        self.reason_field = TextField(
            "", max_length=40, placeholder="type a reason (shown on the token and in the log)", size=13
        )
        self.until = "round"
        self.condition = "bad_light"
        self.condition_value = -1
        self.near = False
        self.purpose = "combat"
        self.faces = self.blank_faces()
        self.winner: str | None = None
        self.message = ""
        self.error = False
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.buttons: list[Button] = []
        self.rows: list[tuple[str, int]] = []
        self.notes: list[tuple[str, tuple[int, int]]] = []
        self.reason_y = 0
        self.labels_right = 0
        """Where the buttons start, right of the row titles."""
        self.tooltip: Tooltip = Tooltip()

    # --- state -------------------------------------------------------------------------------------
    @property
    def battle(self) -> Battle:
        """The battle the GM referees (replaced on undo, so read through the screen)."""
        return self.screen.battle

    @property
    def reason(self) -> str:
        """The reason typed for the next decision (the Reason box, a text field like any other)."""
        return self.reason_field.value

    @reason.setter
    def reason(self, text: str) -> None:
        self.reason_field.value = text

    def target(self) -> str:
        """The figure or its side, as the modifier's target."""
        fig = self.battle.figures.get(self.figure)
        if fig is None:
            return ""
        return fig.side if self.on_side else fig.id

    def send(self, action: gm.GMAction) -> bool:
        """Send one GM decision; show the log's line or the engine's refusal in the panel. A decision made
        empties the Reason box (a reason belongs to one decision; a refused one keeps it to try again)."""
        before = len(self.battle.events)
        ok = self.screen.send(action, seat_of_gm(self.battle) or Seat.game_master())
        if ok:
            self.reason = ""
            names = self.battle.names()
            lines = [e.text(names) for e in self.battle.events[before:] if e.text(names).startswith("GM")]
            self.message, self.error = (lines[0] if lines else "Done."), False
            if self.battle.over:
                self.message += " — the battle is over."
        else:
            self.message, self.error = self.screen.status, True
        self.layout()
        return ok

    def set_dice_note(self) -> str:
        """The GM's own view of dice set by hand (*Fudge* 4.1; the players' log shows none of it): the faces
        still waiting for this figure's rolls, else the last roll made with faces the GM set, marked."""
        b = self.battle
        waiting = [d for d in b.gm_dice if d.figure == self.figure]
        if waiting:
            return "waiting: " + ", ".join(
                f"{d.purpose} [{' '.join(face_text(d.purpose, f) for f in d.faces)}]" for d in waiting
            )
        marks = set_roll_marks(b, seat_of_gm(b) or Seat.game_master()) or {i: "set by hand" for i in b.set_rolls}
        if not marks:
            return ""
        return f"set by hand: {b.events[max(marks)].text(b.names())}"

    def closing_transition(self) -> Transition | None:
        """After a decision made in a box opened from the panel: close the panel too if it ended the battle."""
        return Pop(then=self.on_close()) if self.battle.over else None

    def _id(self, prefix: str) -> str:
        taken = self.battle.gm_state.ids()
        n = len(self.battle.log) + 1
        while f"{prefix}{n}" in taken:
            n += 1
        return f"{prefix}{n}"

    # --- commands ----------------------------------------------------------------------------------
    def cmd_cycle_figure(self, step: int) -> None:
        """◀ ▶: the figure the panel acts on."""
        ids = list(self.battle.figures)
        if ids:
            i = ids.index(self.figure) if self.figure in ids else 0
            self.figure = ids[(i + step) % len(ids)]
            self.screen.model.selection.figure = self.figure
            self.screen.invalidate()
        self.layout()

    def cmd_set(self, name: str, value: object) -> None:
        """A choice button: remember it and redraw the buttons."""
        setattr(self, name, value)
        self.layout()

    def blank_faces(self) -> list[int]:
        """The dice of the roll being set, as the battle rolls them (four Fudge dice, one, 3d6 …), each at its
        first face: 0 for a Fudge die, 1 for a six-sided one."""
        count, allowed = self.battle.roll_dice(self.purpose)
        return [0 if 0 in allowed else allowed[0]] * count

    def cmd_face(self, i: int) -> None:
        """Cycle one die of the roll set by hand through its faces: 0 + − for a Fudge die, 1 to 6 for a d6."""
        _, allowed = self.battle.roll_dice(self.purpose)
        self.faces[i] = allowed[(allowed.index(self.faces[i]) + 1) % len(allowed)]
        self.layout()

    def cmd_purpose(self) -> None:
        """Cycle which roll of the figure is set by hand: every roll this battle makes, the rule options' rolls
        while their option is on (``Battle.settable_rolls``); the dice are set afresh for it."""
        rolls = self.battle.settable_rolls()
        i = rolls.index(self.purpose) if self.purpose in rolls else -1
        self.purpose = rolls[(i + 1) % len(rolls)]
        self.faces = self.blank_faces()
        self.layout()

    def cmd_modifier(self) -> bool:
        """*Fudge* 4.1: give the modifier with its reason and duration."""
        return self.send(
            gm.SituationalModifier(self._id("m"), self.target(), self.value, self.reason.strip(), self.until)
        )

    def cmd_condition(self) -> bool:
        """FTC table 7: bad light or insecure footing over the map or near the figure."""
        region: tuple[Hex, ...] = ()
        fig = self.battle.figures.get(self.figure)
        if self.near and fig is not None:
            region = tuple(h for h in self.battle.terrain.hexes() if distance(h, fig.hex) <= NEAR)
        return self.send(
            gm.BattleCondition(self._id("c"), self.condition, self.condition_value, region, self.reason.strip())
        )

    def cmd_wound(self, level: WoundLevel | None) -> bool:
        """*Fudge* 4.57: tick the next box of a level, or clear every box (None)."""
        fig = self.battle.figures[self.figure]
        wounds = Wounds(fig.wounds.track) if level is None else fig.wounds.record(level)[0]
        return self.send(gm.EditWounds(fig.id, wounds.to_data(), self.reason.strip()))

    def cmd_edit(self, which: str) -> Transition | None:
        """Gear…, Traits…, Reinforce…, Remove: the GM's edit dialogs (between rounds only)."""
        if which == "remove":
            return confirm_remove(self)
        if which == "reinforce":
            return Push(ReinforceDialog(self.ui, self))
        if self.figure not in self.battle.figures:
            return None
        editor: type[GearEditor | TraitsEditor] = GearEditor if which == "gear" else TraitsEditor
        return Push(editor(self.ui, self, self.figure))

    def cmd_stop(self, which: str) -> None:
        """The switch "Stop before each round" / "before each computer decision" (kept in the settings)."""
        settings = self.ui.settings
        flipped: dict[str, Any] = {which: not getattr(settings, which)}
        self.ui.update_settings(replace(settings, **flipped))
        self.screen.invalidate()
        self.layout()

    def cmd_points(self, step: int) -> bool:
        """*Fudge* 4.64: the figure's Fudge Points one up or down (a GM action, logged with the reason)."""
        fig = self.battle.figures.get(self.figure)
        if fig is None:
            return False
        return self.send(gm.SetFudgePoints(fig.id, max(0, fig.fudge_points + step), self.reason.strip()))

    def cmd_winner(self) -> None:
        """Cycle the winner named when the GM ends the battle (a side, or none)."""
        choices: list[str | None] = [None, *self.battle.sides]
        self.winner = choices[(choices.index(self.winner) + 1) % len(choices)]
        self.layout()

    # --- layout ------------------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the panel and lay its buttons out."""
        super().on_resize(size)
        self.layout()

    def layout(self) -> None:
        """Build the buttons for the current figure, choices and battle state: rows of buttons under their
        titles, a row's buttons going on to a second line where the panel is too narrow for them, the rows
        closing up where the window is too short; the panel as tall as they need, in the window's middle."""
        s = self.ui.s
        for step in ROW_STEPS:
            self._build(step)
            if self.rect.height <= self.size[1] - s(20):
                break
        dy = (self.size[1] - self.rect.height) // 2 - self.rect.y
        self.rect.move_ip(0, dy)
        for btn in self.buttons:
            btn.rect.move_ip(0, dy)
        self.rows = [(title, y + dy) for title, y in self.rows]
        self.notes = [(note, (x, y + dy)) for note, (x, y) in self.notes]
        self.reason_y += dy
        self.reason_field.rect.move_ip(0, dy)

    def _build(self, step: int) -> None:
        """The buttons, row titles and notes with rows ``step`` apart (unscaled), the panel's top at the
        window's; ``rect`` as tall as they need."""
        s, text = self.ui.s, self.ui.text
        self.rect = pygame.Rect(0, s(10), min(self.size[0] - s(20), s(900)), 0)
        self.rect.centerx = self.size[0] // 2
        self.buttons, self.rows, self.notes = [], [], []
        b = self.battle
        fig = b.figures.get(self.figure)
        left = self.rect.x + s(16)
        labels = self.labels_right = left + max(text.width(title, 14, True) for title in ROW_TITLES) + s(16)
        y = self.rect.y + s(44 if step == ROW_STEPS[0] else 40)
        x = left

        def row(title: str) -> None:
            nonlocal x, y
            self.rows.append((title, y))
            x = labels

        def add(
            label: str,
            fn: Callable[[], object],
            width: int = 70,
            *,
            on: bool = False,
            enabled: bool = True,
            hotkey: int | None = None,
            tip: str = "",
            snug: bool = True,
        ) -> None:
            nonlocal x, y
            bw = s(width)
            if snug:  # as wide as its words (a label that changes as it is clicked keeps its width)
                bw = min(bw, max(s(30), text.width(label, 13, True) + s(18)))
            if x > labels and x + bw > self.rect.right - s(12):  # no room left in the row: a line more
                x, y = labels, y + s(min(step, 31))
            btn = Button(label, fn, pygame.Rect(x, y, bw, s(26)), size=13, enabled=enabled, hotkey=hotkey, tooltip=tip)
            btn.focused = on
            self.buttons.append(btn)
            x += bw + s(6)

        def next_row(gap: int = 0) -> None:
            nonlocal y
            y += s(gap or step)

        who = f"{fig.name} ({b.sides[fig.side].name})" if fig else "no figure"
        row("Figure")
        add("◀", functools.partial(self.cmd_cycle_figure, -1), 30)
        add(who, lambda: None, 270, snug=False)
        add("▶", functools.partial(self.cmd_cycle_figure, 1), 30)
        add("Figure", functools.partial(self.cmd_set, "on_side", False), 70, on=not self.on_side)
        add("Its side", functools.partial(self.cmd_set, "on_side", True), 80, on=self.on_side)
        next_row()
        row("Modifier")
        for v in range(gm.SITUATIONAL_MIN, gm.SITUATIONAL_MAX + 1):
            if v:
                add(f"{v:+d}", functools.partial(self.cmd_set, "value", v), 38, on=self.value == v)
        add("This round", functools.partial(self.cmd_set, "until", "round"), 92, on=self.until == "round")
        add("Until lifted", functools.partial(self.cmd_set, "until", "removed"), 96, on=self.until == "removed")
        add("Give", self.cmd_modifier, 60, enabled=fig is not None)
        next_row()
        self.reason_y = y
        self.reason_field.rect = pygame.Rect(labels, y, min(s(420), self.rect.right - s(16) - labels), s(24))
        next_row(min(30, step))
        row("Standing")
        mods = b.gm_modifiers_on(self.figure) if fig else ()
        for m in mods[:4]:
            add(f"Lift {m.label}", functools.partial(self.send, gm.RemoveModifier(m.id)), 150)
        for c in b.gm_state.conditions[: 4 - min(4, len(mods))]:
            add(
                f"Lift {c.condition.replace('_', ' ')} {c.value}",
                functools.partial(self.send, gm.RemoveModifier(c.id)),
                150,
            )
        if not mods and not b.gm_state.conditions:  # an empty row said nothing: say what will stand here
            self.notes.append((STANDING_NONE, (x + s(4), y + s(6))))
        next_row()
        row("Condition")
        add(
            "Bad light", functools.partial(self.cmd_set, "condition", "bad_light"), 84, on=self.condition == "bad_light"
        )
        add(
            "Footing",
            functools.partial(self.cmd_set, "condition", "insecure_footing"),
            76,
            on=self.condition == "insecure_footing",
        )
        for v in (-1, -2, -3):
            add(str(v), functools.partial(self.cmd_set, "condition_value", v), 38, on=self.condition_value == v)
        add("Whole map", functools.partial(self.cmd_set, "near", False), 90, on=not self.near)
        add("Near figure", functools.partial(self.cmd_set, "near", True), 96, on=self.near)
        add("Set", self.cmd_condition, 50)
        next_row()
        row("Next die")
        if self.purpose not in b.settable_rolls() or len(self.faces) != b.roll_dice(self.purpose)[0]:
            self.purpose = "combat"  # a battle replaced (undo, load): its own rolls
            self.faces = self.blank_faces()
        rolls = ", ".join(r.replace("_", " ") for r in b.settable_rolls())
        add(
            self.purpose.replace("_", " "),
            self.cmd_purpose,
            150,
            snug=False,
            tip=f"The roll the next die sets; click for the next of the rolls this battle makes: {rolls}.",
        )
        for i, f in enumerate(self.faces):
            add(face_text(self.purpose, f), functools.partial(self.cmd_face, i), 32)
        add(
            "Set die",
            lambda: self.send(gm.SetDie(self.figure, self.purpose, tuple(self.faces))),
            80,
            enabled=fig is not None,
        )
        note = self.set_dice_note()
        if note:
            self.notes.append((self.ui.text.fit(note, 13, self.rect.right - s(16) - x), (x + s(4), y + s(6))))
        next_row()
        row("Escape")
        add("Grant escape", lambda: self.send(gm.GrantEscape(self.figure)), 120, enabled=fig is not None)
        add("Deny escape", lambda: self.send(gm.DenyEscape(self.figure)), 110, enabled=fig is not None)
        failed = b.failed_escape()
        if failed is not None and fig is not None and failed[0] == fig.id:
            for e in b.enemies_of(fig):
                if distance(e.hex, fig.hex) == 1:
                    has = e.id in failed[1]
                    action = gm.DenyFreeAttack(e.id, fig.id) if has else gm.GrantFreeAttack(e.id, fig.id)
                    add(
                        f"{'Deny' if has else 'Grant'} {e.name.split()[0]}'s free attack",
                        functools.partial(self.send, action),
                        170,
                    )
        next_row()
        row("Wounds")
        # Wounds and figures are edited, added and removed between rounds only (the engine's rule, asked here)
        between = b.gm_between_rounds()
        for level in WOUND_TICKS:
            name = "Incap." if level == WoundLevel.INCAPACITATED else level.name.replace("_", " ").title()
            add(f"Tick {name}", functools.partial(self.cmd_wound, level), 112, enabled=between and fig is not None)
        add("Clear", functools.partial(self.cmd_wound, None), 60, enabled=between and fig is not None)
        if not between and x + s(4) + self.ui.text.width("between rounds only", 13) <= self.rect.right - s(8):
            self.notes.append(("between rounds only", (x + s(4), y + s(6))))  # the Edit row says it too
        next_row()
        row("Edit")
        for label, what, width, of_figure, tip in EDIT_BUTTONS:
            add(
                label,
                functools.partial(self.cmd_edit, what),
                width,
                enabled=between and (fig is not None or not of_figure),
                tip=f"{tip} {EDIT_WHEN}",
            )
        if not between:
            self.notes.append(("between rounds only", (x + s(4), y + s(6))))
        next_row()
        row("Fight")
        if fig is not None and fig.out:
            add("Bring back in", lambda: self.send(gm.DeclareIn(self.figure, self.reason.strip())), 120)
        else:
            add(
                "Declare out",
                lambda: self.send(gm.DeclareOut(self.figure, self.reason.strip())),
                110,
                enabled=fig is not None,
            )
        add("End round", lambda: self.send(gm.EndRound(self.reason.strip())), 100)
        winner = b.sides[self.winner].name if self.winner else "no winner"
        add(f"Winner: {winner}", self.cmd_winner, 150, snug=False)
        add("End battle", lambda: self.send(gm.EndBattle(self.winner, self.reason.strip())), 100)
        if b.options.pc_death_fudge_point:  # Fudge 4.64: the GM sees every hero's pool and sets this one's
            next_row()
            row("Fudge Pts")
            points = fig.fudge_points if fig is not None else 0
            hero = fig is not None and fig.is_hero
            add("−", functools.partial(self.cmd_points, -1), 30, enabled=hero and points > 0)
            add(f"{points}" if hero else "—", lambda: None, 40, snug=False)
            add("+", functools.partial(self.cmd_points, 1), 30, enabled=hero)
            pools = " · ".join(
                f"{h.name} {h.fudge_points}" for h in b.figures.values() if h.is_hero and h.id != self.figure
            )
            said = f"others: {pools}" if pools else "no other hero"
            self.notes.append((text.fit(said, 13, self.rect.right - s(16) - x), (x + s(4), y + s(6))))
        if self.screen.pauses_for_gm:
            next_row()
            row("Stop")
            add(
                "Before each round",
                functools.partial(self.cmd_stop, "gm_stop_rounds"),
                150,
                on=self.ui.settings.gm_stop_rounds,
                tip="The battle stands still at the start of every round, while wounds and edits are open, "
                "until Go on (Enter).",
            )
            add(
                "Before each computer decision",
                functools.partial(self.cmd_stop, "gm_stop_computer"),
                220,
                on=self.ui.settings.gm_stop_computer,
                tip="The battle stands still before every decision of a computer player, until Go on (Enter).",
            )
        self.rect.height = y + s(26) + s(FOOTER) - self.rect.y
        self.close_button = Button(
            "Close (Esc)",
            lambda: True,
            pygame.Rect(self.rect.right - s(126), self.rect.bottom - s(40), s(110), s(28)),
            size=14,
        )
        self.buttons.append(self.close_button)

    # --- events and drawing ------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons by mouse; typed text goes into the reason; Esc closes the panel (so does the battle's end)."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop(then=self.on_close())
            self.reason_field.handle(event)
            return None
        if self.reason_field.handle(event):
            return None
        btn = press(self.buttons, event)
        if btn is not None:
            if btn is self.close_button or self.battle.over:
                return Pop(then=self.on_close())
            if (to := transition_of(btn.result)) is not None:
                self.tooltip.hover("", event.pos)  # a box opens over the panel: the hint goes
                return to
        if event.type == pygame.MOUSEMOTION:
            self.tooltip.hover(next((b.hint for b in self.buttons if b.hovered and b.hint), ""), event.pos)
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            # the click re-laid the panel out: the hint is that of what now lies under the pointer
            self.tooltip.refresh(next((b.hint for b in self.buttons if b.rect.collidepoint(event.pos)), ""))
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The panel over the dimmed battle."""
        s, text = self.ui.s, self.ui.text
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surface.blit(shade, (0, 0))
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        text.blit(
            surface,
            "GM's panel — every decision goes into the log",
            (self.rect.x + s(16), self.rect.y + s(12)),
            18,
            theme.ACCENT,
            bold=True,
        )
        for title, y in self.rows:
            text.blit(surface, title, (self.rect.x + s(16), y + s(5)), 14, theme.TEXT_MUTED, bold=True)
        for note, pos in self.notes:
            text.blit(surface, note, pos, 13, theme.TEXT_MUTED)
        text.blit(surface, "Reason", (self.rect.x + s(16), self.reason_y + s(4)), 14, theme.TEXT_MUTED, bold=True)
        self.reason_field.draw(surface, text)
        for btn in self.buttons:
            btn.draw(surface, text)
        if self.message:
            colour = theme.DANGER if self.error else theme.TEXT
            for i, line in enumerate(text.wrap(self.message, 13, self.rect.width - s(170))[:2]):
                text.blit(surface, line, (self.rect.x + s(16), self.rect.bottom - s(44) + i * s(17)), 13, colour)
        self.tooltip.draw(surface, text)
