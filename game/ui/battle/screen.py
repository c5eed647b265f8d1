"""The battle screen: the board wired to the engine's state machine, as a coordinator over its parts.

The screen draws ``battle`` state and sends actions; it adds no rules (docs/architecture.md). Whatever
``legal_actions`` asks for decides the input mode: a human side's movement ("move", "held_end",
"interrupt"), a zone owner's stop question, a failed escape, a declaration, a follow step; a computer
side's decision is taken by ``game.engine.ai`` one per short delay so a player can follow it. Hotseat:
when the decision passes to another human side the screen takes that side's seat, behind a curtain that
hides everything until that player confirms when the next seat may see what the last may not (the player's
setting: ``game.ui.battle.curtain``), and nothing on screen (panels, log, odds, undo) shows another side's
secret declaration before the reveal.

The parts (``game.ui.battle``: overlays, move panel, declaration panel, spell panel, tracker, sheet,
inspector, log, GM seat, GM's pause, game menu, focus, status bar) each own their layout, input and drawing;
this class builds them, routes events to them, lays them out and draws them. What they share that is not
drawn is the model (``game.ui.battle.model``: the selection, the decision being put together, the battle as
shown, the cached questions of the battle); each part receives this screen as a narrow Protocol of its own
(``DeclarationHost`` ...: exactly what it uses) and asks the model, never the screen, what another part would know.

Frame cost: the board view, the panels and the overlays are rebuilt only when the battle, the hovered hex,
the selection or the declaration being edited change (the model's ``version``); a frame blits cached
surfaces: the board's still layers (see ``game.ui.board``), the screen's chrome (top bar and tracker,
sheet and log column, status bar: one opaque surface repainted region by region when its key changes),
the decision panel and the hover inspector.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from game.engine import actions as act
from game.engine import events as ev
from game.engine.ai import RandomPlayer, TacticalPlayer
from game.engine.battle import RULE_OPTION_HELP, Battle, Decision, IllegalAction, Seat, seat_of_gm
from game.engine.players import LEVELS, make_player
from game.session import BattleSession
from game.ui import theme
from game.ui.battle.chrome import Chrome, StatusBar
from game.ui.battle.common import AI_DELAY
from game.ui.battle.curtain import CurtainScreen, curtain_needed
from game.ui.battle.declaration import DeclarationPanel
from game.ui.battle.focus import Focus
from game.ui.battle.gm_pause import GMPause
from game.ui.battle.gm_seat import GMSeat
from game.ui.battle.inspector import Inspector
from game.ui.battle.log import BattleLog
from game.ui.battle.menu import GameMenu
from game.ui.battle.model import MOVE_REASONS, BattleModel, Shown
from game.ui.battle.moves import MovePanel
from game.ui.battle.overlays import BoardOverlays
from game.ui.battle.sheet import Sheet
from game.ui.battle.spells import SpellPanel
from game.ui.battle.tracker import TOP, Tracker
from game.ui.battle.victory import VictoryScreen
from game.ui.camera import ZOOM_LEVELS
from game.ui.dialogs import MessageDialog, describe_error
from game.ui.mapdata import BoardData, board_data_from_loaded
from game.ui.screen import Home, Push, Replace, Screen, Transition, UiContext, press, transition_of
from game.ui.screens import HELP_KEYS
from game.ui.summary_screen import BattleEnd
from game.ui.tabletop import Tabletop
from game.ui.view import BoardView, TokenView
from game.ui.viewer import ViewerScreen
from game.ui.widgets import Button, Tooltip, draw_panel

RGB = tuple[int, int, int]
SIDE = 350
"""Width of the right column (sheet and log), unscaled; a narrow window gives it less (``side_width``)."""
SIDE_SHARE = 0.4
"""The most of a narrow window's width the right column takes, so the board keeps three fifths."""
STATUS = 24
"""Height of the status bar."""


class BattleScreen(ViewerScreen):
    """A battle in play: board, initiative tracker, prompt, log, character sheet, decision panel."""

    TOP = TOP
    SIDE = SIDE
    STATUS = STATUS
    help_keys = HELP_KEYS
    pauses_for_gm = True

    def __init__(self, ui: UiContext, session: BattleSession, to_title: Callable[[], Transition]) -> None:
        self.session = session
        super().__init__(ui, self.board_data(ui), to_title)
        self.model = BattleModel(session, gm_hand=self.gm_seated, selection=self.selection)
        """The selection, the decision being put together and the cached questions (``game.ui.battle.model``)."""
        self.tabletop = Tabletop(ui, self.board, session)
        """Token art and pictures, motion, dice and sound (``game.ui.tabletop``)."""
        self.status = ""
        self.status_error = False
        self.status_lasting = False
        self.buttons: list[Button] = []
        self._buttons_key: tuple[Any, ...] | None = None
        self._panel_cache: tuple[Any, pygame.Surface] | None = None
        self.chrome = Chrome()
        self.ai_timer = 0.0
        self.last_human_side: str | None = None
        self.pending: Transition | None = None
        self.notices: tuple[str, ...] = ()
        """Sentences to show over the battle before anything else (``open_battle_save``)."""
        self.victory_shown = False
        self.hint_tip = Tooltip(delay=0.0)
        """The hover hint of the panel's buttons, cut log lines and effect badges."""
        self.players: dict[str, Callable[[Battle, Decision], act.Action]] = {}
        # the parts
        self.journal = BattleLog(self)
        self.log = self.journal.list
        self.overlays = BoardOverlays(self)
        self.moves = MovePanel(self)
        self.declaration = DeclarationPanel(self)
        self.spells = SpellPanel(self)
        self.tracker = Tracker(self)
        self.sheet = Sheet(self)
        self.inspector = Inspector(self)
        self.gm_seat = GMSeat(self)
        self.gm_pause = GMPause(self)
        self.status_bar = StatusBar(self)
        self.focus = Focus(self)
        self.game_menu = GameMenu(self, open_battle_save)
        self._setup_players()
        self.journal.rebuild()
        self._bind()
        if self.tabletop.messages:
            self.set_status(" ".join(self.tabletop.messages), error=True)

    # --- session plumbing -------------------------------------------------------------------------
    def board_data(self, ui: UiContext) -> BoardData:
        """The board this screen draws, asked before the screen is built: the session's Tiled map, drawn as the
        settings say (a table's screen draws the host's map instead: ``game.ui.battle.table``)."""
        loaded, name = self.session.loaded, str(self.session.setup_data.get("map", "map"))
        if loaded is None:
            raise ValueError("This battle has no map file here: the screen needs the board drawn for it.")
        return board_data_from_loaded(loaded, name, grid=ui.settings.show_grid)

    @property
    def battle(self) -> Battle:
        """The battle being played (replaced on undo / load)."""
        return self.session.battle

    def _setup_players(self) -> None:
        seed = int(self.battle.setup.seed)
        self.players = {}
        for i, side in enumerate(self.battle.sides.values()):
            if side.controller == "tactical":
                self.players[side.id] = TacticalPlayer(seed + i, time_limit=0.25)
            elif side.controller in LEVELS:
                self.players[side.id] = make_player(side.controller, seed + i)

    def _bind(self) -> None:
        """Point the viewer's figure table at the battle's figures (after a start, undo or load)."""
        self.figures = self.battle.figures  # type: ignore[assignment]
        self.side_index = {sid: i for i, sid in enumerate(self.battle.sides)}
        self.model.version += 1
        self._view = None

    def is_human(self, side: str) -> bool:
        """Whether a human plays this side."""
        return side not in self.players

    def is_computer(self, side: str) -> bool:
        """Whether a computer player decides for the side (at one screen: every side a human does not play)."""
        return side in self.players

    @property
    def human_sides(self) -> list[str]:
        """Sides played by people (more than one: hotseat)."""
        return [s for s in self.battle.sides if self.is_human(s)]

    def decision(self) -> Decision | None:
        """Who must decide now (None: the battle is over)."""
        return self.battle.decision()

    def my_decision(self) -> Decision | None:
        """The decision when a human makes it, the log has caught up, the battle does not stand still for the
        GM and (hotseat) the screen has passed to the deciding side's player, else None."""
        d = self.decision()
        if d is None or not self.is_human(d.side) or self.journal.pending or self.gm_pause.paused:
            return None
        if self.last_human_side not in (None, d.side) and len(self.human_sides) > 1:
            return None  # hotseat: the screen has not passed to that side's player yet (the curtain comes first)
        return d

    def side_colour(self, side: str) -> RGB:
        """The side's own colour (from the roster), or its colour-blind-safe stand-in."""
        s = self.battle.sides.get(side)
        return self.ui.side_colour(s.colour if s is not None else None, self.side_index.get(side, 0))

    def invalidate(self) -> None:
        """Something the board shows changed: rebuild its view on the next frame."""
        self._view = None

    # --- applying actions -------------------------------------------------------------------------
    def set_status(self, text: str, error: bool = False, *, lasting: bool = False) -> None:
        """Show a message in the status bar: until the next decision, or until replaced when ``lasting`` (the
        table's address, who it waits for)."""
        self.status, self.status_error, self.status_lasting = text, error, lasting

    def leave_to_title(self) -> Transition:
        """Back to the title, the autosave first brought up to the last decision (Continue resumes there)."""
        self.session.write_autosave()
        return self.to_title()

    @property
    def seat(self) -> Seat:
        """The seat at the screen: the human side whose player sits here (in hotseat the side the curtain last
        called, else the human side deciding now, else the first human side); a watcher's when no person
        plays. The screen draws this seat's view and sends its decisions from it."""
        side = self.last_human_side
        if side is None:
            d = self.decision()
            humans = self.human_sides
            side = d.side if d is not None and self.is_human(d.side) else (humans[0] if humans else None)
        return Seat.of_side(side) if side is not None else Seat.watcher()

    def hand_over(self, side: str) -> None:
        """Hotseat: the screen passes to ``side``'s player (behind the curtain) and draws that seat's view from
        now on — the log is rebuilt as that seat sees the battle (*Fudge* 4.32: no other side's secret)."""
        if side == self.last_human_side:
            return
        self.last_human_side = side
        self.journal.rebuild()
        self.model.version += 1
        self._view = None

    def send(self, action: act.Action, seat: Seat | None = None) -> bool:
        """Apply a decision through the session from ``seat`` (default: the seat at the screen); a refused one
        shows its sentence and changes nothing. The tracker and the sheet go on showing the battle as it was
        until the log has played the results out."""
        before = self.model.before or Shown.frozen(self.battle)
        try:
            new = self.session.apply(action, self.seat if seat is None else seat)
        except IllegalAction as exc:
            self.set_status(str(exc), error=True)
            return False
        self.after_change(new)
        self.model.before = before if self.journal.pending else None
        return True

    def after_change(self, new_events: list[ev.Event]) -> None:
        """New events: queue them for the log, reset the per-decision state, note save errors."""
        self.journal.add(new_events, self.ui.settings.animation_speed)
        self.model.new_decision()
        self._view = None
        self.tabletop.after_change(new_events, self.tokens())
        self.declaration.reset()
        if not self.status_lasting:  # a message answers one moment: at the next decision the keys come back
            self.status, self.status_error = "", False
        errors = self.session.save_errors
        if errors:
            self.set_status(f"Autosave failed: {errors[-1]}", error=True)
            errors.clear()

    # --- what one part asks about another -----------------------------------------------------------
    def tokens(self) -> list[TokenView]:
        """Token views of every figure."""
        return self.overlays.tokens()

    def board_view(self) -> BoardView:
        """What the board draws now; rebuilt only when something it shows changed."""
        if self._view is None:
            self._view = self.overlays.view()
        return self._view

    # --- commands (buttons and keys) --------------------------------------------------------------
    def cmd_declare(self) -> bool:
        """Enter: send the declaration as edited (FTC 6.1, 6.2; a spell, FTC 8)."""
        d = self.my_decision()
        if d is None or d.reason != "declare":
            return False
        self.model.ensure_decl(d)
        if self.model.decl.second_move:
            self.set_status("Second move: click a highlighted hex to move there.", error=False)
            return False
        return self.send(self.model.declaration())

    def cmd_cycle_target(self) -> bool:
        """T: the next attackable enemy (or the next figure or hex the chosen spell can be cast on)."""
        d = self.my_decision()
        if d is None or d.reason != "declare":
            return False
        self.model.ensure_decl(d)
        if self.model.decl.spell is not None:
            return self.spells.cycle_target()
        return self.declaration.cycle_target()

    def cmd_undo(self) -> bool:
        """Ctrl+Z: take back the last decision of the side deciding now (never another side's)."""
        return self.game_menu.undo()

    def rebind(self, battle: Battle) -> None:
        """Show another state of the battle (undo): the log rebuilt, the choices in progress dropped."""
        self.session.rewind(battle)
        self.model.before = None
        self._bind()
        self.journal.rebuild()
        self.after_change([])

    # --- the GM's seat ----------------------------------------------------------------------------
    def gm_seated(self) -> bool:
        """Whether the GM sits at the screen now: the GM plays a side, and that human side has the seat (its
        decision, or the last one shown). A referee GM is never seated: the curtain calls the GM."""
        battle = self.battle
        seat = battle.setup.gm
        if seat is None or seat not in battle.sides or not self.is_human(seat):
            return False
        d = self.decision()
        current = d.side if d is not None and self.is_human(d.side) else self.last_human_side
        return current in (None, seat) and (len(self.human_sides) == 1 or current == seat)

    def open_gm_panel(self) -> Transition | None:
        """G: the GM's panel, only in a battle with a GM seat (behind the curtain unless the GM sits here)."""
        return self.gm_seat.open(self._after_gm_panel)

    def _after_gm_panel(self) -> Transition | None:
        """The panel closed: the seat goes back to the player who decides now (behind the curtain when the
        player's setting asks for one here: ``curtain_needed``)."""
        self._buttons_key = None
        self._view = None
        self.model.version += 1
        d = self.decision()
        if self.gm_seated() or d is None or not self.is_human(d.side):
            return None
        self.hand_over(d.side)
        gm = seat_of_gm(self.battle) or Seat.game_master()
        if not curtain_needed(self.ui.settings.hand_off, self.battle, gm, Seat.of_side(d.side), d):
            return None
        return self.curtain(d.side)

    # --- input ------------------------------------------------------------------------------------
    def _rebuild_buttons(self) -> None:
        d = self.my_decision()
        key = (
            self.model.version,
            d,
            self.model.decl.key(),
            self.size,
            self.model.plan.actor,
            self.gm_pause.paused,
            self.declaration.dodge_from,
        )
        if key == self._buttons_key:
            return
        self._buttons_key = key
        self.buttons = []
        if d is None:
            if self.gm_pause.paused and not self.journal.pending:
                self.buttons = self.gm_pause.buttons(self.open_gm_panel)
            return
        rect = self.panel_rect(d)
        self.buttons.extend(self.gm_seat.button(d, rect, self.open_gm_panel))
        if d.reason != "declare":
            self.buttons.extend(self.moves.buttons(d, rect))
            return
        self.model.ensure_decl(d)
        self.buttons.extend(self.declaration.buttons(rect))
        self.buttons.extend(self.spells.buttons(rect))
        s = self.ui.s
        x, y = rect.x + s(12), rect.bottom - s(40)
        for label, fn, enabled in (
            ("Declare (Enter)", self.cmd_declare, not self.model.decl.second_move),
            ("Next target (T)", self.cmd_cycle_target, True),
        ):
            self.buttons.append(Button(label, fn, pygame.Rect(x, y, s(140), s(30)), size=14, enabled=enabled))
            x += s(140) + s(8)

    def panel_rect(self, d: Decision | None, top: bool | None = None) -> pygame.Rect:
        """Where the decision panel floats over the board: bottom left, or top left (``top``; by default
        where the focus put it, clear of the figure deciding and its target)."""
        s = self.ui.s
        x, y, w, h = self.board.camera.view
        if d is not None and d.reason == "declare":
            pw = min(w - s(20), s(900))
            wide = min(self.size[0] - s(16), s(900))  # over the log's frame too (it ends s(8) from the edge)
            panel = self.declaration
            if panel.columns(pw)[1] and panel.compact(pw) and not panel.columns(wide)[1]:
                # a narrow board in a short window: rather than squeeze the odds under the controls, the panel
                # reaches over the right column (the log) and keeps the odds whole beside them
                pw = wide
            extra = self.spells.extra_height(d.figure)
            ph = min(self.declaration.height(pw) + extra, h - s(20))
        else:
            pw = min(w - s(20), s(520))
            ph = self.moves.height(pw)
        if self.focus.panel_top if top is None else top:
            return pygame.Rect(x + s(10), y + s(10), pw, ph)
        return pygame.Rect(x + s(10), y + h - ph - s(10), pw, ph)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """A click skips an animation; then panel buttons, the board (moves, targets), then pan / zoom;
        nothing under a panel reaches the board. A screen opened over this one takes the hover hint with it."""
        if self.tabletop.on_event(event):
            return None
        result = self._route(event)
        if isinstance(result, Push | Replace | Home):
            self.pointer_left()
        return result

    def _route(self, event: pygame.event.Event) -> Transition | None:
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self._rebuild_buttons()
            keyed = event.type == pygame.KEYDOWN
            b = press((b for b in self.buttons if not keyed or b.hotkey is not None), event)
            if b is not None:
                self._view = None
                return transition_of(b.result)
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                d = self.my_decision()
                if d is not None and self.panel_rect(d).collidepoint(event.pos):
                    self.drag_from = None
                    return None
        if event.type == pygame.MOUSEWHEEL and self.over_panel(self.mouse):
            return None
        if event.type == pygame.MOUSEWHEEL and self.moves.wheel_turns(self._in_board(self.mouse)):
            self.moves.turn(1 if event.y > 0 else -1)
            return None
        if event.type == pygame.MOUSEMOTION:
            self.log.handle(event)
            self._hover_hint(event.pos)
        return super().on_event(event)

    def over_panel(self, pos: tuple[int, int]) -> bool:
        """Whether a point is on the decision panel (or the computer's "deciding" box) over the board."""
        d = self.my_decision()
        if d is not None:
            return self.panel_rect(d).collidepoint(pos)
        if self.gm_pause.paused:
            return self.gm_pause.rect().collidepoint(pos)
        d = self.decision()
        return d is not None and not self.is_human(d.side) and self._thinking_rect().collidepoint(pos)

    def _in_board(self, pos: tuple[int, int]) -> bool:
        """On the board and not under a panel: only there does the board hover, select, drag or zoom."""
        return super()._in_board(pos) and not self.over_panel(pos)

    def _cut_chrome_text(self, pos: tuple[int, int]) -> str:
        """The whole prompt or status message under the pointer when the bar shows it cut, else ""."""
        w, h = self.size
        s = self.ui.s
        if pos[1] >= h - s(self.STATUS) and self.status:
            return self.status if self.status_bar.line(w - s(20)) != self.status else ""
        if pos[1] < s(TOP):
            return self.tracker.cut_prompt
        return ""

    def pointer_left(self) -> None:
        """The pointer left the window (or a screen opened over this one): no hover, no hint."""
        self.hint_tip.hover("", self.mouse)
        self.log.hovered = None
        self.mouse = (-1, -1)
        if self.selection.hover is not None:
            self.selection.hover = None
            self._view = None

    def _hover_hint(self, pos: tuple[int, int]) -> None:
        """The hint under the mouse: a button's (a spell's description), a log line cut with "…" whole, or
        an effect badge's (spell, rounds left)."""
        text = next((b.hint for b in self.buttons if b.hint and b.rect.collidepoint(pos) and b.visible), "")
        if not text:
            text = self.log.cut_line_at(pos)
        if not text:
            text = self._cut_chrome_text(pos)
        if not text:
            text = self._compact_odds_hint(pos)
        if not text and pygame.Rect(self.board.camera.view).collidepoint(pos):
            text = self.spells.badge_tip(pos)
        self.hint_tip.hover(text, pos)
        self.hint_tip.update(1.0)

    def _compact_odds_hint(self, pos: tuple[int, int]) -> str:
        """Over a compact declaration panel's odds: the odds it leaves out, else ""."""
        d = self.my_decision()
        if d is None or d.reason != "declare" or self.model.decl.spell is not None:
            return ""
        panel = self.panel_rect(d)
        if not self.declaration.compact(panel.width):
            return ""
        s = self.ui.s
        top = panel.y + s(self.declaration.controls_bottom(panel.width))
        bottom = panel.bottom - s(40) - self.spells.extra_height(d.figure)
        if not pygame.Rect(panel.x, top, panel.width, bottom - top).collidepoint(pos):
            return ""
        return self.declaration.odds_details()

    def _set_hover(self, pos: tuple[int, int]) -> bool:
        changed = super()._set_hover(pos)
        if changed:
            self._view = None
        return changed

    def select_at(self, pos: tuple[int, int]) -> None:
        """A click on the board: the decision's meaning first (move, target, retreat…), else select."""
        h = self.board.camera.screen_to_hex(*pos)
        if not self.data.terrain.contains(h):
            return
        d = self.my_decision()
        occupant = self.battle.occupant(h)
        if d is not None and d.reason != "declare" and self.moves.click(h, occupant, d):
            return
        if d is not None and d.reason == "declare":
            self.model.ensure_decl(d)
            shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
            if self.spells.click(h, occupant) or self.declaration.click(h, occupant, shift):
                self._view = None
                return
        if occupant is not None and occupant.id == self.selection.figure:
            self.selection.figure, self.selection.hex = None, None
        else:
            self.model.pick(occupant.id if occupant is not None else None, h)
        self._view = None

    def _key_down(self, event: pygame.event.Event) -> Transition | None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and key == pygame.K_s:
            self.game_menu.save()
            return None
        if ctrl and key == pygame.K_z:
            self.cmd_undo()
            return None
        if ctrl and key == pygame.K_o:
            return self.game_menu.load_chooser()
        if key == pygame.K_ESCAPE:
            if self.my_decision() is None:  # a computer's turn (or the log playing it out): the menu at once
                self.selection.figure, self.selection.hex, self._view = None, None, None
                return self.game_menu.open()
            if self.selection.figure is not None or self.selection.hex is not None:
                self.selection.figure, self.selection.hex, self._view = None, None, None
                return None
            if self.declaration.clear_moves():
                return None
            return self.game_menu.open()
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.gm_pause.go_on():
            return None
        d = self.my_decision()
        if d is not None:
            if self.moves.on_key(key, d):
                return None
            if d.reason == "declare":
                if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.cmd_declare()
                    return None
                if key == pygame.K_t:
                    self.cmd_cycle_target()
                    return None
                if self.declaration.on_key(key):
                    return None
        if key == pygame.K_g and not ctrl:
            return self.open_gm_panel()
        if key == pygame.K_TAB:
            ids = [f.id for f in self.battle.figures.values() if not f.out]
            if ids:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                i = (ids.index(self.selection.figure) + step) % len(ids) if self.selection.figure in ids else 0
                self.model.pick(ids[i], self.battle.figures[ids[i]].hex)
                self.board.camera.center_on(*self.data.layout.hex_center(self.battle.figures[ids[i]].hex))
                self._view = None
            return None
        return super()._key_down(event)

    # --- timers: log animation, computer players, curtain, victory ---------------------------------
    @property
    def busy(self) -> bool:
        """Animating the log, waiting on a computer, or panning."""
        d = self.decision()
        return (
            bool(self.held)
            or bool(self.journal.pending)
            or self.tabletop.active
            or (d is not None and not self.is_human(d.side) and not self.gm_pause.paused)
        )

    def take_transition(self) -> Transition | None:
        """A screen the battle wants on top (what loading its save had to say, the hand-off curtain, the
        victory screen), once."""
        if self.notices:
            notices, self.notices = self.notices, ()
            return Push(MessageDialog(self.ui, "About this save", " ".join(notices)))
        t, self.pending = self.pending, None
        return t

    def update(self, dt: float) -> bool:
        """Release log entries one by one, let computers decide, raise the curtain or the victory screen."""
        changed = self.tabletop.update(dt) | super().update(dt)
        speed = self.ui.settings.animation_speed
        if self.journal.pending:
            if self.journal.release(dt, speed):
                self.model.before = None
                self.model.version += 1
                self.chrome.forget()
            return True
        d = self.decision()
        if d is None:
            if not self.victory_shown:
                self.victory_shown = True
                self.pending = Push(VictoryScreen(self.ui, BattleEnd.of(self.session, self.to_title)))
                return True
            return changed
        if self.gm_pause.paused:  # the GM asked to stop here: nothing moves until Go on (the board looks at it)
            if not self.tabletop.active and self.focus.follow(d):
                self._set_hover(self.mouse)
                self._view = None
                changed = True
            return changed
        if not self.is_human(d.side):  # a computer waits for the motion; the screen stays at the player's seat
            if self.tabletop.active:
                return changed
            self.ai_timer += dt
            if self.ai_timer >= (AI_DELAY / speed if speed > 0 else 0.0):
                self.ai_timer = 0.0
                self.computer_turn(d)
                return True
            return changed
        if not self.tabletop.active and self.focus.follow(d):
            self._set_hover(self.mouse)  # the board moved under a still pointer
            self._buttons_key = None
            self._view = None
            changed = True
        if len(self.human_sides) > 1 and d.side != self.last_human_side:
            last = Seat.of_side(self.last_human_side) if self.last_human_side else Seat.watcher()
            self.hand_over(d.side)
            if curtain_needed(self.ui.settings.hand_off, self.battle, last, Seat.of_side(d.side), d):
                self.pending = self.curtain(d.side)
            return True
        self.hand_over(d.side)
        return changed

    def curtain(self, side: str) -> Transition:
        """The hand-off curtain naming ``side``'s player."""
        return Push(CurtainScreen(self.ui, self.battle.sides[side].name, self.side_colour(side)))

    def computer_turn(self, d: Decision) -> None:
        """One computer decision (a random legal one if the tactical player errs)."""
        player = self.players[d.side]
        seat = Seat.of_side(d.side)
        try:
            action = player(self.battle, d)
            if self.send(action, seat):
                why = getattr(player, "last_reason", "")
                if why and self.gm_seated():  # the computer's reason is the GM's to read, never a player's
                    self.set_status(f"{self.battle.sides[d.side].name}: {why}")
                return
        except (ValueError, KeyError, IndexError) as exc:
            self.set_status(describe_error(exc, "The computer player"), error=True)
        fallback = RandomPlayer(self.model.version)
        for _ in range(20):
            if self.send(fallback(self.battle, d), seat):
                return

    # --- layout -----------------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Top bar, tracker strip, board, right column (sheet + log), status bar."""
        Screen.on_resize(self, size)
        s = self.ui.s
        top = self.tracker.height()
        side = self.side_width()
        self.board.camera.set_view((0, top, max(100, size[0] - side), max(100, size[1] - top - s(self.STATUS))))
        if not self._fitted:
            cam = self.board.camera
            cam.fit()
            # fitting a whole village map leaves tokens too small to read: start close enough to see names
            while self.board.token_radius() < self.ui.s(15) and cam.zoom_index < len(ZOOM_LEVELS) - 1:
                cam.zoom_index += 1
            cam.clamp()
            self._fitted = True
        avail = size[1] - top - s(self.STATUS)
        # a short window leaves the sheet above the log room for the wound track: the log takes a third
        log_h = max(s(140), avail * 2 // 5) if avail >= s(560) else max(s(96), avail // 3)
        self.journal.layout(
            pygame.Rect(size[0] - side + s(8), size[1] - s(self.STATUS) - log_h - s(6), side - s(16), log_h)
        )
        self.board.set_palette(self.ui.palette)
        self._forget_drawn()

    def side_width(self) -> int:
        """The right column's width: ``SIDE`` at the UI scale, but never more than ``SIDE_SHARE`` of the
        window, so that a small window or a large scale leaves the board (and the panels over it) room."""
        return min(self.ui.s(self.SIDE), int(self.size[0] * SIDE_SHARE))

    def on_enter(self, size: tuple[int, int]) -> None:
        """Back on top (from a menu, the curtain, settings): pick up setting changes; what was under the pointer
        before the other screen covered this one is no longer known (the next motion tells it again)."""
        super().on_enter(size)
        self.pointer_left()
        self._forget_drawn()

    def _forget_drawn(self) -> None:
        self._view = None
        self._panel_cache = None
        self.inspector.forget()
        self.chrome.forget()
        self._buttons_key = None

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Board and overlays, then the cached panels."""
        self.overlays.draw(surface, self.tabletop.view(self.board_view()))
        self.tabletop.draw(surface)
        self.spells.draw_token_marks(surface)
        d = self.decision()
        state_key = (
            self.model.version,
            len(self.journal.entries),
            self.ui.settings.ui_scale,
            self.ui.settings.colour_blind,
        )
        self._draw_chrome(surface, d, state_key)
        mine = self.my_decision()
        self._rebuild_buttons()
        if self.mouse[0] >= 0:  # what is under the still pointer may have changed (a panel closed)
            self._hover_hint(self.mouse)
        paused = self.gm_pause.paused and not self.journal.pending
        if mine is not None:
            self._draw_panel(surface, mine, state_key)
        elif paused:
            self.gm_pause.draw(surface)
            for b in self.buttons:
                b.draw(surface, self.ui.text)
        elif d is not None and not self.is_human(d.side):
            self._draw_thinking(surface, d)
        if mine is not None:
            panel: pygame.Rect | None = self.panel_rect(mine)
        elif paused:
            panel = self.gm_pause.rect()
        else:
            panel = self._thinking_rect() if d is not None else None
        self.inspector.draw(surface, state_key, self.focus.panel_top, panel)
        self.hint_tip.draw(surface, self.ui.text)

    def _draw_panel(self, surface: pygame.Surface, d: Decision, state_key: tuple[Any, ...]) -> None:
        """The decision panel (painted once per state into a translucent surface) and its buttons."""
        self._rebuild_buttons()
        rect = self.panel_rect(d)
        key = (
            state_key,
            self.model.decl.key(),
            self.selection.hover if d.reason in MOVE_REASONS else None,
            self.model.plan.facing,
            self.model.plan.actor,
            self.model.plan.posture,
            rect.size,
        )
        hit = self._panel_cache
        if hit is None or hit[0] != key or hit[1].get_size() != rect.size:
            surf = pygame.Surface(rect.size, pygame.SRCALPHA)
            self._paint_panel(surf, d)
            hit = self._panel_cache = (key, surf)
        surface.blit(hit[1], rect.topleft)
        for b in self.buttons:
            b.draw(surface, self.ui.text)

    def _paint_panel(self, surf: pygame.Surface, d: Decision) -> None:
        over_column = self.panel_rect(d).right > self.board.camera.view[0] + self.board.camera.view[2]
        alpha = 255 if over_column else 240  # over the log the panel is opaque: no text shows through it
        pygame.draw.rect(surf, (*theme.PANEL, alpha), surf.get_rect(), border_radius=8)
        pygame.draw.rect(surf, self.side_colour(d.side), surf.get_rect(), 2, border_radius=8)
        if d.reason != "declare":
            self.moves.paint(surf, d)
            return
        bottom = surf.get_height() - self.ui.s(40) - self.spells.extra_height(d.figure)
        odds = self.declaration.paint(surf, d, bottom)
        if odds is None:
            return
        self.spells.paint_row_label(surf)
        if self.model.decl.spell is not None:
            self.spells.paint_odds(surf, odds)

    def _draw_chrome(self, surface: pygame.Surface, d: Decision | None, state_key: tuple[Any, ...]) -> None:
        """Top bar and tracker, sheet and log column, status bar (``Chrome``: each repainted only when what
        it shows changed)."""
        w, h = surface.get_size()
        s = self.ui.s
        top_h = self.tracker.height()
        side = self.side_width()
        status_h = s(self.STATUS)
        top_rect = pygame.Rect(0, 0, w, top_h)
        side_rect = pygame.Rect(w - side, top_h, side, max(0, h - top_h - status_h))
        bar = pygame.Rect(0, h - status_h, w, status_h)
        log = self.log
        hovered = self.overlays.hover_figure() if self.selection.figure is None else None
        mine = self.my_decision()
        cam_right = self.board.camera.view[0] + self.board.camera.view[2]
        log_hidden = mine is not None and self.panel_rect(mine).right > cam_right  # a wide panel covers the log
        side_key = (
            (state_key, self.selection.figure, hovered, log_hidden),
            (w, h),
            len(log.items),
            log.items[-1] if log.items else None,
            log.scroll,
            log.hovered,
            log.selected,
            tuple(log.rect),
        )

        def paint_top(frame: pygame.Surface) -> None:
            frame.fill((0, 0, 0), top_rect)
            self.tracker.paint(frame.subsurface(top_rect), self.model.shown().decision)

        def paint_column(frame: pygame.Surface) -> None:
            clip = frame.get_clip()
            frame.set_clip(side_rect)
            col_h = log.rect.y - top_h
            if col_h > 0:
                self.sheet.paint(frame.subsurface(pygame.Rect(w - side, top_h, side, col_h).clip(side_rect)), hovered)
            pygame.draw.rect(
                frame, theme.BACKGROUND, (w - side, log.rect.y - s(4), side, h - log.rect.y - status_h + s(4))
            )
            if not log_hidden:  # under a panel reaching over it, not even the log's frame peeks out
                log.draw(frame, self.ui.text)
            frame.set_clip(clip)

        self.chrome.draw(
            surface,
            [
                ("top", top_rect, (state_key, self.status, d, w), paint_top),
                ("side", side_rect, side_key, paint_column),
                ("status", bar, self.status_bar.key(w), lambda frame: self.status_bar.paint(frame, bar)),
            ],
        )

    def _thinking_rect(self) -> pygame.Rect:
        s = self.ui.s
        x, y, _, h = self.board.camera.view
        return pygame.Rect(x + s(10), y + h - s(46), s(360), s(36))

    def _draw_thinking(self, surface: pygame.Surface, d: Decision) -> None:
        s = self.ui.s
        shown = self.model.shown().decision  # while the log plays earlier moves out, the side the top bar names
        if shown is not None and not self.is_human(shown.side):
            d = shown
        name = self.battle.sides[d.side].name
        rect = self._thinking_rect()
        draw_panel(surface, rect, theme.PANEL, self.side_colour(d.side), alpha=230)
        self.ui.text.blit(
            surface, f"{name} (computer) is deciding…", (rect.x + s(12), rect.centery), 14, theme.TEXT, anchor="midleft"
        )


def open_battle_save(ui: UiContext, path: Path, to_title: Callable[[], Transition]) -> BattleScreen:
    """A saved battle on screen (raises the save's ``SaveError`` with its sentence when it cannot); what loading
    it had to say (its map found elsewhere, where today's rules part from it) opens over it first."""
    from game.session import load_session

    session = load_session(path)
    screen = BattleScreen(ui, session, to_title)
    screen.notices = tuple(session.notes)
    return screen


def rule_option_help() -> dict[str, str]:
    """The rule options and their one-sentence help (for the New battle screen and F1)."""
    return dict(RULE_OPTION_HELP)
