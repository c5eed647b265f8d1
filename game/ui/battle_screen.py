"""The battle screen: the board wired to the engine's state machine (issue 5, items 2–7).

The screen draws ``battle`` state and sends actions; it adds no rules (DESIGN.md rules 2, 3). Whatever
``legal_actions`` asks for decides the input mode: a human side's movement ("move", "held_end",
"interrupt"), a zone owner's stop question, a failed escape, a declaration, a follow step; a computer
side's decision is taken by ``game.engine.ai`` one per short delay so a player can follow it. Hotseat:
when the decision passes to another human side a curtain hides everything until that player confirms, and
nothing on screen (panels, log, odds, undo) shows another side's secret declaration before the reveal.

Frame cost (issue 6): the board view, the panels and the overlays are rebuilt only when the battle, the
hovered hex, the selection or the declaration being edited change (``version`` counters); a frame blits
cached surfaces: the board's still layers (see ``game.ui.board``), the screen's chrome (top bar and
tracker, sheet and log column, status bar: one opaque surface repainted region by region when its key
changes), the decision panel and the hover inspector.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import RULE_OPTION_HELP, Battle, Decision, Figure, IllegalAction
from game.engine.combat import Stance
from game.engine.hexgrid import Hex, distance, front_hexes
from game.engine.ladder import level_name
from game.engine.movement import Path as MovePath
from game.engine.movement import Reach
from game.engine.odds import Outcome
from game.engine.ranges import band_table
from game.engine.wounds import WoundLevel
from game.ui import spell_panel, theme
from game.ui.camera import ZOOM_LEVELS
from game.ui.dialogs import FileChooser, MessageDialog, describe_error
from game.ui.large_tokens import large_end
from game.ui.mapdata import BoardData, board_data_from_loaded
from game.ui.preview import AttackPreview, attack_preview, escape_chance, percent, weapon_named
from game.ui.screen import Home, Pop, Push, Quit, Replace, Screen, Transition, UiContext
from game.ui.screens import EscapeMenu
from game.ui.view import BoardView, HexFill, LineOfFireView, LofMark, PathView, TokenView, ZocView
from game.ui.viewer import ViewerScreen, signed
from game.ui.widgets import Button, ScrollList, draw_panel

if TYPE_CHECKING:
    from game.aftercare import Aftercare

RGB = tuple[int, int, int]
HUMAN = "human"
MOVE_REASONS = ("move", "held_end", "interrupt")
AI_DELAY = 0.45
"""Seconds between two computer decisions at animation speed 1 (so a player can follow them)."""
LOG_DELAY = 0.22
"""Seconds between two new log entries at animation speed 1 (the round's resolution, entry by entry)."""
TRAITS = ("strength", "agility", "speed", "health", "perception", "reasoning", "will", "charisma")


def hex_colour(text: str, default: RGB = (136, 136, 136)) -> RGB:
    """'#2f6fd0' -> (47, 111, 208); anything unreadable gives ``default``."""
    t = text.strip().lstrip("#")
    if len(t) == 3:
        t = "".join(c * 2 for c in t)
    try:
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    except (ValueError, IndexError):
        return default


def action_side(battle: Battle, action: act.Action) -> str | None:
    """The side that made a decision (from its figure or its side field); None for the GM's (issue 8), so
    no player's undo takes back a GM decision."""
    if action.kind.startswith("gm_"):
        return None
    side = getattr(action, "side", None)
    if isinstance(side, str) and side:
        return side
    fid = getattr(action, "figure", None)
    if isinstance(fid, str) and fid in battle.figures:
        return battle.figures[fid].side
    return None


@dataclass
class DeclState:
    """The declaration being put together in the panel (nothing is sent until Enter)."""

    figure: str = ""
    weapon: str | None = None
    target: str | None = None
    stance: str = "neutral"
    dodge: set[str] = field(default_factory=set)
    advance: list[tuple[Hex, int]] = field(default_factory=list)
    retreat: Hex | None = None
    second_move: bool = False
    spell: str | None = None
    """A spell to cast instead of attacking (FTC 8; game.ui.spell_panel), with its target or centre hex."""
    spell_target: str | None = None
    spell_hex: Hex | None = None

    def key(self) -> tuple[Any, ...]:
        """A hashable summary (the panel and overlays are rebuilt when it changes)."""
        return (
            self.figure,
            self.weapon,
            self.target,
            self.stance,
            tuple(sorted(self.dodge)),
            tuple(self.advance),
            self.retreat,
            self.second_move,
            self.spell,
            self.spell_target,
            self.spell_hex,
        )


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


class BattleScreen(ViewerScreen):
    """A battle in play: board, initiative tracker, prompt, log, character sheet, decision panel."""

    TOP = 34
    TRACK = 30
    SIDE = 350
    STATUS = 24
    DECL_LEFT = 440
    """Width of the declaration panel's controls column (the odds fill the rest)."""

    def __init__(
        self, ui: UiContext, session: Any, to_title: Callable[[], Transition], data: BoardData | None = None
    ) -> None:
        if data is None:
            data = board_data_from_loaded(
                session.loaded, str(session.setup_data.get("map", "map")), grid=ui.settings.show_grid
            )
        super().__init__(ui, data, to_title)
        self.session = session
        self.log = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, follow_end=True, on_select=self._log_selected)
        self.version = 0
        self.status = ""
        self.status_error = False
        self.highlight: frozenset[str] = frozenset()
        self.actor: str | None = None
        self.facing_choice: int | None = None
        self.posture_choice: str | None = None
        """The posture the moving figure takes before it moves (C cycles it; FTC 5 "Crawling and Rolling")."""
        self.decl = DeclState()
        self.buttons: list[Button] = []
        self._buttons_key: tuple[Any, ...] | None = None
        self._reach_cache: dict[tuple[Any, ...], Reach] = {}
        self._escape_cache: dict[tuple[Any, ...], dict[Hex, Fraction]] = {}
        self._preview_cache: dict[tuple[Any, ...], AttackPreview | None] = {}
        self._panel_cache: dict[str, tuple[Any, pygame.Surface]] = {}
        self._escape_labels: list[tuple[Hex, str]] = []
        self._tokens_cache: tuple[Any, list[TokenView]] | None = None
        self._overlay_cache: dict[tuple[Any, ...], tuple[list[HexFill], list[tuple[Hex, str]]]] = {}
        self._chrome: pygame.Surface | None = None
        self._chrome_keys: dict[str, Any] = {}
        self.entries: list[tuple[str, tuple[str, ...], RGB | None]] = []
        self.pending_entries: list[tuple[str, tuple[str, ...], RGB | None]] = []
        self.log_timer = 0.0
        self.ai_timer = 0.0
        self.last_human_side: str | None = None
        self.pending: Transition | None = None
        self.victory_shown = False
        self._focused: tuple[int, str] | None = None
        self._panel_top = False
        self.players: dict[str, Callable[[Battle, Decision], act.Action]] = {}
        self._setup_players()
        self._rebuild_log()
        self._bind()

    # --- session plumbing -------------------------------------------------------------------------
    @property
    def battle(self) -> Battle:
        """The battle being played (replaced on undo / load)."""
        return self.session.battle  # type: ignore[no-any-return]

    def _setup_players(self) -> None:
        from game.engine.ai import RandomPlayer, TacticalPlayer

        seed = int(self.battle.setup.seed)
        self.players = {}
        for i, side in enumerate(self.battle.sides.values()):
            if side.controller == "tactical":
                self.players[side.id] = TacticalPlayer(seed + i, time_limit=0.25)
            elif side.controller == "random":
                self.players[side.id] = RandomPlayer(seed + i)

    def _bind(self) -> None:
        """Point the viewer's figure table at the battle's figures (after a start, undo or load)."""
        self.figures = self.battle.figures  # type: ignore[assignment]
        self.side_index = {sid: i for i, sid in enumerate(self.battle.sides)}
        self.version += 1
        self._view = None

    def is_human(self, side: str) -> bool:
        """Whether a human plays this side."""
        return side not in self.players

    @property
    def human_sides(self) -> list[str]:
        """Sides played by people (more than one: hotseat)."""
        return [s for s in self.battle.sides if self.is_human(s)]

    def decision(self) -> Decision | None:
        """Who must decide now (None: the battle is over)."""
        return self.battle.decision()

    def my_decision(self) -> Decision | None:
        """The decision when a human makes it and the log has caught up, else None."""
        d = self.decision()
        if d is None or not self.is_human(d.side) or self.pending_entries:
            return None
        return d

    def side_colour(self, side: str) -> RGB:
        """The side's own colour (from the roster), or its colour-blind-safe stand-in."""
        index = self.side_index.get(side, 0)
        if self.ui.settings.colour_blind:
            return self.ui.palette.sides[index % len(self.ui.palette.sides)]
        s = self.battle.sides.get(side)
        return hex_colour(s.colour) if s is not None else self.ui.palette.sides[index]

    def names(self) -> dict[str, str]:
        """Display names by figure id."""
        return self.battle.names()

    # --- log --------------------------------------------------------------------------------------
    def _entry(self, e: ev.Event) -> tuple[str, tuple[str, ...], RGB | None]:
        colour: RGB | None = None
        if isinstance(e, ev.RoundBegan | ev.PhaseBegan):
            colour = theme.ACCENT
        elif isinstance(e, ev.AttackResolved):
            colour = theme.DANGER if e.hit else theme.TEXT_MUTED
        elif isinstance(e, ev.Wounded | ev.TakenOut):
            colour = (240, 150, 90)
        elif isinstance(e, ev.BattleEnded):
            colour = theme.ACCENT
        colour = spell_panel.log_colour(e) or colour
        return e.text(self.names()), tuple(e.figures), colour

    def _rebuild_log(self) -> None:
        self.entries = spell_panel.log_entries(self, list(self.battle.events))
        self.pending_entries = []
        self._sync_log()

    def _sync_log(self) -> None:
        self.log.set_items([t for t, _, _ in self.entries], [c for _, _, c in self.entries])
        self.log.scroll = self.log.max_scroll

    def _log_selected(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            self.highlight = frozenset(self.entries[index][1])
            self._view = None

    # --- applying actions -------------------------------------------------------------------------
    def set_status(self, text: str, error: bool = False) -> None:
        """Show a message in the status bar."""
        self.status, self.status_error = text, error

    def leave_to_title(self) -> Transition:
        """Back to the title, the autosave first brought up to the last decision (Continue resumes there)."""
        self.session.write_autosave()
        return self.to_title()

    def send(self, action: act.Action) -> bool:
        """Apply a decision through the session; an illegal one shows its sentence and changes nothing."""
        try:
            new = self.session.apply(action)
        except IllegalAction as exc:
            self.set_status(str(exc), error=True)
            return False
        self.after_change(new)
        return True

    def after_change(self, new_events: list[ev.Event]) -> None:
        """New events: queue them for the log, reset the per-decision state, note save errors."""
        speed = self.ui.settings.animation_speed
        entries = spell_panel.log_entries(self, new_events)
        if speed <= 0:
            self.entries.extend(entries)
            self._sync_log()
        else:
            self.pending_entries.extend(entries)
        self.version += 1
        self._view = None
        self.actor = None
        self.facing_choice = None
        self.posture_choice = None
        self.decl = DeclState()
        self._reach_cache.clear()
        self._escape_cache.clear()
        self._preview_cache.clear()
        if self.status_error:
            self.status = ""
        errors = getattr(self.session, "save_errors", [])
        if errors:
            self.set_status(f"Autosave failed: {errors[-1]}", error=True)
            errors.clear()

    # --- current decision helpers -----------------------------------------------------------------
    def active_mover(self, d: Decision) -> str | None:
        """The figure whose move is being planned in a movement decision."""
        if d.reason == "interrupt":
            if self.actor in d.interrupters:
                return self.actor
            return d.interrupters[0] if d.interrupters else None
        if d.reason == "move" and self.actor in d.interrupters:
            return self.actor
        return d.figure

    def posture_of(self, fid: str) -> str:
        """The posture the figure would move in: the chosen one for the mover, else its own."""
        return self.posture_choice or self.battle.figure(fid).posture

    def move_action(self, fid: str, steps: tuple[tuple[Hex, int], ...]) -> act.Move:
        """The Move to send, with the posture change when one was chosen."""
        posture = self.posture_of(fid)
        return act.Move(fid, steps, posture if posture != self.battle.figure(fid).posture else None)

    def reach(self, fid: str) -> Reach:
        """The figure's reachable hexes now, in the posture it would move in (cached until a change)."""
        posture = self.posture_of(fid)
        key = (self.version, fid, posture)
        r = self._reach_cache.get(key)
        if r is None:
            r = self.battle.reach_for(fid, posture=posture)
            self._reach_cache[key] = r
        return r

    def escapes(self, fid: str) -> dict[Hex, Fraction]:
        """Escape chance of every reachable hex whose path crosses a zone of control (FTC 5.3)."""
        key = (self.version, fid)
        out = self._escape_cache.get(key)
        if out is None:
            r = self.reach(fid)
            out = {h: escape_chance(self.battle, fid, r, h) for h in r.hexes() if r.band(h) == "escape"}
            self._escape_cache[key] = out
        return out

    def cmd_posture(self) -> None:
        """C: cycle the mover's posture — standing, crawling, lying down (FTC 5 "Crawling and Rolling")."""
        d = self.my_decision()
        fid = self.active_mover(d) if d is not None else None
        if fid is None:
            return
        order = ("standing", "crawling", "prone")
        self.posture_choice = order[(order.index(self.posture_of(fid)) + 1) % 3]
        self._view = None
        self.set_status(
            f"{self.battle.figure(fid).name} will move {self.posture_choice}: "
            f"{self.reach(fid).allowance} hex(es) this round."
        )

    def cmd_standing_order(self) -> bool:
        """O: cycle the selected figure's standing order for stopping enemies (always / never / ask);
        only for a figure of the side whose player is at the computer now."""
        d = self.my_decision()
        fid = self.selected_id
        if d is None or fid is None or self.battle.figure(fid).side != d.side:
            return False
        orders = ("always", "never", "ask")
        current = self.battle.figure(fid).standing_order
        return self.send(act.SetStandingOrder(fid, orders[(orders.index(current) + 1) % 3]))

    def planned_path(self, fid: str, h: Hex | None) -> MovePath | None:
        """The path the figure would take to ``h`` with the chosen final facing."""
        if h is None:
            return None
        r = self.reach(fid)
        if not r.can_reach(h):
            return None
        if self.facing_choice is not None and r.can_reach(h, self.facing_choice):
            return r.path(h, self.facing_choice)
        return r.path(h)

    def preview(self) -> AttackPreview | None:
        """The odds of the declaration being edited (cached per state)."""
        d = self.decl
        if d.target is None or d.second_move or d.spell is not None:
            return None
        key = (self.version, d.key())
        if key not in self._preview_cache:
            try:
                self._preview_cache[key] = attack_preview(
                    self.battle,
                    d.figure,
                    d.weapon,
                    d.target,
                    d.stance,
                    dodge=tuple(sorted(d.dodge)),
                    advance=tuple(d.advance),
                )
            except (ValueError, KeyError):
                self._preview_cache[key] = None
        return self._preview_cache[key]

    def declare_options(self) -> dict[str, Any]:
        """``battle.declare_options`` for the declaring figure (cached per state)."""
        key = ("opts", self.version, self.decl.figure)
        cached = self._preview_cache.get(key)
        if cached is None:
            cached = self.battle.declare_options(self.decl.figure)  # type: ignore[assignment]
            self._preview_cache[key] = cached
        return cached  # type: ignore[return-value]

    def ensure_decl(self, d: Decision) -> None:
        """Start a fresh declaration when a new figure declares."""
        if d.reason == "declare" and self.decl.figure != d.figure:
            fig = self.battle.figure(d.figure or "")
            self.decl = DeclState(
                figure=fig.id,
                weapon=fig.character.ready_weapon.name,
                spell=spell_panel.default_spell(self.battle, fig.id),
            )

    def targets(self) -> list[str]:
        """Enemies the declaring figure may attack with its weapon (from its position after any advance)."""
        d = self.decl
        fig = self.battle.figure(d.figure)
        weapon = weapon_named(fig, d.weapon)
        positions = [(fig.hex, fig.facing), *d.advance] if d.advance else None
        return self.battle.targets_for(d.figure, weapon, positions=positions)

    # --- commands (buttons and keys) --------------------------------------------------------------
    def cmd_hold(self) -> bool:
        """H: hold the figure whose turn it is (FTC 5)."""
        d = self.my_decision()
        if d is None or d.reason != "move" or d.figure is None:
            self.set_status("Only the figure whose turn it is may hold now.", error=True)
            return False
        return self.send(act.Hold(d.figure))

    def cmd_stay(self) -> bool:
        """Space: the moving figure stays where it is (a move with no steps)."""
        d = self.my_decision()
        if d is None:
            return False
        if d.reason in MOVE_REASONS:
            fid = self.active_mover(d)
            if fid is None:
                return False
            if self.facing_choice is not None and self.facing_choice != self.battle.figure(fid).facing:
                path = self.planned_path(fid, self.battle.figure(fid).hex)
                if path is not None:
                    return self.send(self.move_action(fid, path.steps))
            return self.send(self.move_action(fid, ()))
        if d.reason == "escape_failed":
            return self.send(act.EscapeFailedChoice(d.figure or "", False))
        if d.reason == "follow":
            return self.send(act.FollowChoice(d.figure or "", None))
        return False

    def cmd_pass(self) -> bool:
        """P: the side lets the next figure move without interrupting."""
        d = self.my_decision()
        if d is None or d.reason != "interrupt":
            return False
        return self.send(act.PassInterrupt(d.side))

    def cmd_answer(self, yes: bool) -> bool:
        """Y / N: stop the mover, run from a failed escape, follow the retreating target."""
        d = self.my_decision()
        if d is None or d.figure is None:
            return False
        if d.reason == "stop":
            return self.send(act.StopChoice(d.figure, yes))
        if d.reason == "escape_failed":
            return self.send(act.EscapeFailedChoice(d.figure, yes))
        if d.reason == "follow":
            vacated = self.battle._follow_queue[0][1] if yes and self.battle._follow_queue else None
            return self.send(act.FollowChoice(d.figure, vacated))
        return False

    def cmd_declare(self) -> bool:
        """Enter: send the declaration as edited (FTC 6.1, 6.2)."""
        d = self.my_decision()
        if d is None or d.reason != "declare":
            return False
        self.ensure_decl(d)
        s = self.decl
        if s.second_move:
            self.set_status("Second move: click a highlighted hex to move there.", error=False)
            return False
        if s.spell is not None:
            return self.send(spell_panel.declare_action(self))
        advance = tuple(h for h, _ in s.advance)
        advance_facing = (
            s.advance[-1][1]
            if s.advance
            and s.advance[-1][0] == (s.advance[-2][0] if len(s.advance) > 1 else self.battle.figure(s.figure).hex)
            else None
        )
        return self.send(
            act.Declare(
                s.figure,
                s.stance,
                (s.target,) if s.target else (),
                s.weapon,
                dodge=tuple(sorted(s.dodge)),
                advance=advance,
                advance_facing=advance_facing,
                retreat=s.retreat,
            )
        )

    def cmd_stance(self, stance: str) -> bool:
        """1–5: choose a stance (table 4)."""
        d = self.my_decision()
        if d is None or d.reason != "declare":
            return False
        self.ensure_decl(d)
        if stance not in self.declare_options()["stances"]:
            self.set_status(
                "A very defensive stance must retreat, and no hex leads away from every attacker.", error=True
            )
            return False
        st = Stance(stance)
        self.decl.stance = stance
        if st.retreat == "none":
            self.decl.retreat = None
        if len(self.decl.advance) > st.max_advance:
            self.decl.advance = self.decl.advance[: st.max_advance]
        if st.retreat == "must" and self.decl.retreat is None:
            retreats = self.declare_options()["retreats"]
            self.decl.retreat = retreats[0] if retreats else None
        if st.retreat != "none" or st.max_advance == 0:
            self.decl.advance = []
        self._view = None
        return True

    def cmd_weapon(self, name: str) -> bool:
        """Choose the weapon to attack with."""
        self.decl.weapon, self.decl.spell = name, None
        if self.decl.target not in self.targets():
            self.decl.target = None
        self._view = None
        return True

    def cmd_toggle_dodge(self, firer: str) -> bool:
        """Watch (dodge) a missile firer: -1 to the attack each (FTC 6.1)."""
        if firer in self.decl.dodge:
            self.decl.dodge.discard(firer)
        else:
            self.decl.dodge.add(firer)
        return True

    def cmd_second_move(self) -> bool:
        """Neither attack nor defend: move again (FTC 6.2)."""
        self.decl.second_move = not self.decl.second_move
        self.decl.target, self.decl.spell = None, None
        self._view = None
        return True

    def cmd_cycle_target(self) -> bool:
        """T: the next attackable enemy."""
        d = self.my_decision()
        if d is None or d.reason != "declare":
            return False
        self.ensure_decl(d)
        if self.decl.spell is not None:
            return spell_panel.cycle_target(self)
        ts = self.targets()
        if not ts:
            self.set_status("No enemy is within reach of this weapon.", error=False)
            return False
        i = (ts.index(self.decl.target) + 1) % len(ts) if self.decl.target in ts else 0
        self.decl.target = ts[i]
        self._view = None
        return True

    def cmd_undo(self) -> bool:
        """Ctrl+Z: take back the last decision of the side deciding now (never another side's)."""
        from game.engine import record

        d = self.decision()
        battle = self.battle
        if not battle.log:
            self.set_status("There is nothing to undo yet.", error=True)
            return False
        mine = d.side if d is not None else None
        candidate = battle
        try:
            # computer decisions since the player's last one are taken back with it
            while candidate.log and not self.is_human(action_side(candidate, candidate.log[-1]) or ""):
                candidate = record.undo(candidate)
            if not candidate.log:
                raise IllegalAction("There is nothing of yours to undo.")
            last_side = action_side(candidate, candidate.log[-1])
            if mine is not None and last_side != mine:
                raise IllegalAction("Only the side deciding now may take back its own last decision.")
            candidate = record.undo(candidate)
        except IllegalAction as exc:
            self.set_status(str(exc), error=True)
            return False
        self.session.battle = candidate
        self._bind()
        self._rebuild_log()
        self.after_change([])
        self.set_status("Undone.")
        return True

    def cmd_save(self) -> bool:
        """Ctrl+S: save to the saves folder with the battle's title and the time."""
        folder = self.ui.saves_dir()
        title = str(self.session.setup_data.get("title", "battle")).replace(" ", "_").replace("/", "_")
        path = folder / f"{title}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.session.save(path)
        except Exception as exc:  # a full disk or a read-only folder: a sentence, never a traceback
            self.set_status(describe_error(exc, "Saving"), error=True)
            return False
        self.set_status(f"Saved to {path}")
        return True

    def load_chooser(self) -> Transition:
        """Ctrl+O: pick a save and open it in place of this battle."""
        folder = self.ui.saves_dir() if self.ui.saves_dir().is_dir() else self.ui.autosave_path().parent

        def chosen(path: Path) -> Transition | None:
            try:
                screen = open_battle_save(self.ui, path, self.to_title)
            except Exception as exc:
                return Push(
                    MessageDialog(
                        self.ui, "Cannot open the save", describe_error(exc, f"Loading {path.name}"), error=True
                    )
                )
            return Replace(screen)

        return Push(FileChooser(self.ui, "Load a battle", folder, (".json",), chosen))

    def menu(self) -> Transition:
        """Esc: resume, save, load, settings, help, back to title, quit (and the summary once it is over)."""
        extra = [
            Button("Save (Ctrl+S)", lambda: Pop(then=None) if self.cmd_save() else Pop()),
            Button("Load (Ctrl+O)", lambda: Pop(then=self.load_chooser())),
        ]
        if self.battle.over:
            extra.append(
                Button(
                    "After the battle…",
                    lambda: Pop(
                        then=summary_of(
                            self.ui,
                            self.battle,
                            self.to_title,
                            roster_path=self.session.setup_data.get("roster_file"),
                            care=self.session.aftercare(),
                        )
                    ),
                )
            )
        else:
            extra.append(Button("Yield the battle…", lambda: Pop(then=self.yield_dialog())))
        return Push(EscapeMenu(self.ui, self.leave_to_title, extra=extra))

    def yield_dialog(self) -> Transition | None:
        """Ask the deciding human side whether it gives up the battle."""
        d = self.decision()
        if d is None or not self.is_human(d.side):
            self.set_status("Only a human side may yield, when it is its turn to decide.", error=True)
            return None
        side = d.side

        def do_yield() -> Transition | None:
            self.send(act.Yield(side))
            return None

        name = self.battle.sides[side].name
        return Push(
            MessageDialog(
                self.ui,
                "Yield the battle?",
                f"{name} gives up; the other side wins.",
                (("Cancel", None), ("Yield", do_yield)),
            )
        )

    # --- the GM's seat (issue 8) ------------------------------------------------------------------
    def gm_seated(self) -> bool:
        """Whether the GM sits at the screen now: the GM plays a side, and that human side has the seat
        (its decision, or the last one shown). A referee GM is never seated: the curtain calls the GM."""
        seat = self.battle.setup.gm
        if seat is None or seat not in self.battle.sides or not self.is_human(seat):
            return False
        d = self.decision()
        current = d.side if d is not None and self.is_human(d.side) else self.last_human_side
        return current in (None, seat) and (len(self.human_sides) == 1 or current == seat)

    def open_gm_panel(self) -> Transition | None:
        """G: the GM's panel, only in a battle with a GM seat; in hotseat the curtain first names the GM so
        the players never see the GM's controls."""
        from game.ui.gm_panel import GMPanel

        if self.battle.setup.gm is None:
            self.set_status("This battle has no GM seat; mark a player as GM in the battle setup.", error=True)
            return None
        if self.battle.over:
            self.set_status("The battle is over.", error=True)
            return None
        panel = GMPanel(self.ui, self, self._after_gm_panel)
        if self.gm_seated():
            return Push(panel)
        return Push(CurtainScreen(self.ui, "the GM", theme.ACCENT, then=lambda: Push(panel)))

    def _after_gm_panel(self) -> Transition | None:
        """The panel closed: the seat goes back to the player who decides now (behind the curtain)."""
        self._buttons_key = None
        self._view = None
        self.version += 1
        d = self.decision()
        if self.gm_seated() or d is None or not self.is_human(d.side):
            return None
        self.last_human_side = d.side
        return Push(CurtainScreen(self.ui, self.battle.sides[d.side].name, self.side_colour(d.side)))

    # --- input ------------------------------------------------------------------------------------
    def _rebuild_buttons(self) -> None:
        d = self.my_decision()
        key = (self.version, d, self.decl.key(), self.size, self.actor)
        if key == self._buttons_key:
            return
        self._buttons_key = key
        self.buttons = []
        if d is None:
            return
        rect = self.panel_rect(d)
        s = self.ui.s
        x, y = rect.x + s(12), rect.bottom - s(40)

        def add(
            label: str,
            fn: Callable[[], object],
            w: int = 110,
            enabled: bool = True,
            hotkey: int | None = None,
            at: tuple[int, int] | None = None,
        ) -> Button:
            nonlocal x
            pos = at or (x, y)
            b = Button(label, fn, pygame.Rect(pos[0], pos[1], s(w), s(30)), size=14, enabled=enabled, hotkey=hotkey)
            self.buttons.append(b)
            if at is None:
                x += s(w) + s(8)
            return b

        if self.battle.setup.gm is not None and d.reason != "declare":
            # issue 8: the way into the GM's panel (behind the curtain unless the GM sits here)
            add("GM (G)", self.open_gm_panel, 80, at=(rect.right - s(92), rect.y + s(8)))
        if d.reason in ("move", "held_end"):
            if d.reason == "move":
                add("Hold (H)", self.cmd_hold)
            add("Stay (Space)", self.cmd_stay, 120)
        elif d.reason == "interrupt":
            add("Pass (P)", self.cmd_pass)
            add("Stay (Space)", self.cmd_stay, 120)
        elif d.reason == "stop":
            add("Stop (Y)", lambda: self.cmd_answer(True))
            add("Let go (N)", lambda: self.cmd_answer(False))
        elif d.reason == "escape_failed":
            add("Stay (N)", lambda: self.cmd_answer(False))
            add("Run (Y)", lambda: self.cmd_answer(True))
        elif d.reason == "follow":
            add("Follow (Y)", lambda: self.cmd_answer(True))
            add("Stay (N)", lambda: self.cmd_answer(False))
        elif d.reason == "declare":
            self.ensure_decl(d)
            opts = self.declare_options()
            fig = self.battle.figure(self.decl.figure)
            top = rect.y + s(34)
            bx = rect.x + s(12)
            for name in opts["weapons"]:
                w = max(70, min(150, self.ui.text.width(name, 13) // max(1, self.ui.settings.ui_scale) + 24))
                b = Button(
                    name, functools.partial(self.cmd_weapon, name), pygame.Rect(bx, top, s(int(w)), s(26)), size=13
                )
                b.focused = name == self.decl.weapon and not self.decl.second_move and self.decl.spell is None
                self.buttons.append(b)
                bx += s(int(w)) + s(6)
            b = Button("Second move", self.cmd_second_move, pygame.Rect(bx, top, s(110), s(26)), size=13)
            b.focused = self.decl.second_move
            self.buttons.append(b)
            top += s(32)
            bw = (s(self.DECL_LEFT) - s(12) - 4 * s(5)) // 5
            short = ("V. aggr.", "Aggr.", "Neutral", "Def.", "V. def.")
            for i, st in enumerate(Stance):
                b = Button(
                    f"{i + 1} {short[i]}",
                    functools.partial(self.cmd_stance, st.value),
                    pygame.Rect(rect.x + s(12) + i * (bw + s(5)), top, bw, s(26)),
                    size=12,
                    enabled=st.value in opts["stances"] and not self.decl.second_move,
                )
                b.focused = st.value == self.decl.stance and not self.decl.second_move
                self.buttons.append(b)
            firers = [f for f in opts["firers"] if f != fig.id]
            if firers and not self.decl.second_move:
                fx = rect.x + s(64)
                fy = rect.y + s(156)
                for fid in firers[:4]:
                    name = self.battle.figure(fid).name.split()[0]
                    b = Button(
                        ("✓ " if fid in self.decl.dodge else "") + name,
                        functools.partial(self.cmd_toggle_dodge, fid),
                        pygame.Rect(fx, fy, s(84), s(26)),
                        size=12,
                    )
                    b.focused = fid in self.decl.dodge
                    self.buttons.append(b)
                    fx += s(90)
            spell_panel.add_buttons(self, rect)
            add("Declare (Enter)", self.cmd_declare, 140, enabled=not self.decl.second_move)
            add("Next target (T)", self.cmd_cycle_target, 140)

    def panel_rect(self, d: Decision | None) -> pygame.Rect:
        """Where the decision panel floats over the board (bottom left)."""
        s = self.ui.s
        x, y, w, h = self.board.camera.view
        if d is not None and d.reason == "declare":
            pw, ph = min(w - s(20), s(900)), s(232) + spell_panel.extra_height(self, d.figure)
        else:
            pw, ph = min(w - s(20), s(520)), s(112)
        if self._panel_top:
            return pygame.Rect(x + s(10), y + s(10), pw, ph)
        return pygame.Rect(x + s(10), y + h - ph - s(10), pw, ph)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Panel buttons first, then the board (moves, targets), then pan / zoom."""
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self._rebuild_buttons()
            for b in list(self.buttons):
                if event.type == pygame.KEYDOWN and b.hotkey is None:
                    continue
                b.handle(event)
                if b.result is not None:
                    self._view = None
                    return b.result if isinstance(b.result, Push | Pop | Replace | Home | Quit) else None
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                d = self.my_decision()
                if d is not None and self.panel_rect(d).collidepoint(event.pos):
                    self.drag_from = None
                    return None
        if event.type == pygame.MOUSEWHEEL and self._wheel_turns():
            self.facing_choice = ((self._current_facing() or 0) + (1 if event.y > 0 else -1)) % 6
            self._view = None
            return None
        if event.type == pygame.MOUSEMOTION:
            self.log.handle(event)
            spell_panel.hover(self, event.pos)
        return super().on_event(event)

    def _current_facing(self) -> int | None:
        d = self.my_decision()
        if d is None:
            return None
        fid = (
            self.active_mover(d)
            if d.reason in MOVE_REASONS
            else (self.decl.figure if d.reason == "declare" and self.decl.second_move else None)
        )
        if fid is None:
            return None
        if self.facing_choice is not None:
            return self.facing_choice
        path = self.planned_path(fid, self.hover_hex)
        return path.end_facing if path is not None else self.battle.figure(fid).facing

    def _wheel_turns(self) -> bool:
        """The wheel turns the final facing while a path is previewed (else it zooms)."""
        d = self.my_decision()
        if d is None or self.hover_hex is None or not self._in_board(self.mouse):
            return False
        if d.reason in MOVE_REASONS or (d.reason == "declare" and self.decl.second_move):
            fid = self.active_mover(d) if d.reason in MOVE_REASONS else self.decl.figure
            return fid is not None and self.reach(fid).can_reach(self.hover_hex)
        return False

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
        if d is not None and d.reason in MOVE_REASONS:
            fid = self.active_mover(d)
            own_held = d.interrupters
            if occupant is not None and occupant.id in own_held and occupant.id != fid:
                self.actor = occupant.id
                self.facing_choice = None
                self._view = None
                self.selected_id, self.selected_hex = occupant.id, occupant.hex
                return
            own = fid is not None and self.battle.figure(fid).hex == h
            turning = (
                own
                and self.facing_choice is not None
                and fid is not None
                and self.facing_choice != self.battle.figure(fid).facing
            )
            if fid is not None and (not own or turning) and self.reach(fid).can_reach(h):
                path = self.planned_path(fid, h)
                if path is not None and self.send(self.move_action(fid, path.steps)):
                    return
        if d is not None and d.reason == "declare":
            self.ensure_decl(d)
            if self._declare_click(h, occupant):
                self._view = None
                return
        if (
            d is not None
            and d.reason == "follow"
            and self.battle._follow_queue
            and h == self.battle._follow_queue[0][1]
        ):
            self.cmd_answer(True)
            return
        if occupant is not None and occupant.id == self.selected_id:
            self.selected_id, self.selected_hex = None, None
        else:
            self.selected_id = occupant.id if occupant is not None else None
            self.selected_hex = h
        self._view = None

    def _declare_click(self, h: Hex, occupant: Figure | None) -> bool:
        s = self.decl
        fig = self.battle.figure(s.figure)
        if s.second_move:
            r = self.reach(fig.id)
            if r.can_reach(h):
                path = self.planned_path(fig.id, h)
                if path is not None:
                    self.send(act.SecondMove(fig.id, path.steps))
                    return True
            return False
        if s.spell is not None and spell_panel.click(self, h, occupant):
            return True
        if occupant is not None and s.spell is None and occupant.id in self.targets():
            s.target = None if s.target == occupant.id else occupant.id
            return True
        st = Stance(s.stance)
        if st.retreat != "none" and h in self.declare_options()["retreats"]:
            s.retreat = None if s.retreat == h and st.retreat == "may" else h
            return True
        last_hex, last_facing = s.advance[-1] if s.advance else (fig.hex, fig.facing)
        if (
            st.max_advance
            and occupant is None
            and len(s.advance) < st.max_advance
            and h in front_hexes(last_hex, last_facing)
            and self.battle.terrain.is_passable(h)
        ):
            from game.engine.hexgrid import direction_to

            facing = direction_to(last_hex, h)
            s.advance.append((h, facing if facing is not None else last_facing))
            if s.target not in self.targets():
                s.target = None
            return True
        return False

    def _key_down(self, event: pygame.event.Event) -> Transition | None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and key == pygame.K_s:
            self.cmd_save()
            return None
        if ctrl and key == pygame.K_z:
            self.cmd_undo()
            return None
        if ctrl and key == pygame.K_o:
            return self.load_chooser()
        if key == pygame.K_ESCAPE:
            if self.selected_id is not None or self.selected_hex is not None:
                self.selected_id, self.selected_hex, self._view = None, None, None
                return None
            if self.decl.advance or self.decl.target:
                self.decl.advance, self.decl.target = [], None
                self._view = None
                return None
            return self.menu()
        d = self.my_decision()
        if d is not None:
            if key in (pygame.K_q, pygame.K_e) and (d.reason in MOVE_REASONS or self.decl.second_move):
                self.facing_choice = ((self._current_facing() or 0) + (1 if key == pygame.K_q else -1)) % 6
                self._view = None
                return None
            if key == pygame.K_c and d.reason in MOVE_REASONS:
                self.cmd_posture()
                return None
            if key == pygame.K_o and self.cmd_standing_order():
                return None
            if key == pygame.K_h and d.reason == "move":
                self.cmd_hold()
                return None
            if key == pygame.K_SPACE:
                self.cmd_stay()
                return None
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if d.reason == "declare":
                    self.cmd_declare()
                elif d.reason == "interrupt":
                    self.cmd_pass()
                elif d.reason in ("move", "held_end"):
                    self.cmd_stay()
                elif d.reason == "stop":
                    self.cmd_answer(True)
                elif d.reason in ("escape_failed", "follow"):
                    self.cmd_answer(False)
                return None
            if key == pygame.K_p and d.reason == "interrupt":
                self.cmd_pass()
                return None
            if key in (pygame.K_y, pygame.K_n) and d.reason in ("stop", "escape_failed", "follow"):
                self.cmd_answer(key == pygame.K_y)
                return None
            if d.reason == "declare":
                digits = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5)
                if key in digits:
                    self.cmd_stance(list(Stance)[digits.index(key)].value)
                    return None
                if key == pygame.K_t:
                    self.cmd_cycle_target()
                    return None
                if key == pygame.K_BACKSPACE:
                    self.decl.advance, self.decl.retreat = [], None
                    self._view = None
                    return None
        if key == pygame.K_g and not ctrl:
            return self.open_gm_panel()
        if key == pygame.K_TAB:
            ids = [f.id for f in self.battle.figures.values() if not f.out]
            if ids:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                i = (ids.index(self.selected_id) + step) % len(ids) if self.selected_id in ids else 0
                self.selected_id = ids[i]
                self.selected_hex = self.battle.figures[ids[i]].hex
                self.board.camera.center_on(*self.data.layout.hex_center(self.selected_hex))
                self._view = None
            return None
        return super()._key_down(event)

    # --- timers: log animation, computer players, curtain, victory ---------------------------------
    @property
    def busy(self) -> bool:
        """Animating the log, waiting on a computer, or panning."""
        d = self.decision()
        return bool(self.held) or bool(self.pending_entries) or (d is not None and not self.is_human(d.side))

    def take_transition(self) -> Transition | None:
        """A screen the battle wants on top (the hand-off curtain, the victory screen), once."""
        t, self.pending = self.pending, None
        return t

    def update(self, dt: float) -> bool:
        """Release log entries one by one, let computers decide, raise the curtain or the victory screen."""
        changed = super().update(dt)
        speed = self.ui.settings.animation_speed
        if self.pending_entries:
            self.log_timer += dt
            step = LOG_DELAY / speed if speed > 0 else 0.0
            while self.pending_entries and (step == 0.0 or self.log_timer >= step):
                self.log_timer -= step
                entry = self.pending_entries.pop(0)
                self.entries.append(entry)
                self.highlight = frozenset(entry[1])
                self._view = None
            self._sync_log()
            if not self.pending_entries:
                self.log_timer = 0.0
                self.version += 1
            return True
        d = self.decision()
        if d is None:
            if not self.victory_shown:
                self.victory_shown = True
                self.pending = Push(
                    VictoryScreen(
                        self.ui,
                        self.battle,
                        self.to_title,
                        roster_path=self.session.setup_data.get("roster_file"),
                        care=self.session.aftercare,
                    )
                )
                return True
            return changed
        if not self.is_human(d.side):
            self.ai_timer += dt
            if self.ai_timer >= (AI_DELAY / speed if speed > 0 else 0.0):
                self.ai_timer = 0.0
                self.computer_turn(d)
                return True
            return changed
        focus = (
            d.mover
            if d.reason == "stop" and d.mover
            else (self.active_mover(d) if d.reason in MOVE_REASONS else d.figure)
        )
        if focus is not None and (self.version, focus) != self._focused:
            self._focused = (self.version, focus)
            self.focus_on(focus, d)
            changed = True
        if len(self.human_sides) > 1 and d.side != self.last_human_side:
            self.last_human_side = d.side
            self.pending = Push(CurtainScreen(self.ui, self.battle.sides[d.side].name, self.side_colour(d.side)))
            return True
        self.last_human_side = d.side
        return changed

    def focus_on(self, fid: str, d: Decision) -> None:
        """Bring the deciding figure into view, and put the decision panel on the half it leaves free."""
        cam = self.board.camera
        f = self.battle.figure(fid)
        x, y, w, h = cam.view
        sx, sy = cam.hex_to_screen(f.hex)
        margin = self.ui.s(40)
        if not (x + margin <= sx <= x + w - margin and y + margin <= sy <= y + h - margin):
            cam.center_on(*self.data.layout.hex_center(f.hex))
            sx, sy = cam.hex_to_screen(f.hex)
        self._panel_top = sy > y + h / 2
        self._buttons_key = None
        self._view = None

    def computer_turn(self, d: Decision) -> None:
        """One computer decision (a random legal one if the tactical player errs)."""
        from game.engine.ai import RandomPlayer

        player = self.players[d.side]
        try:
            action = player(self.battle, d)
            if self.send(action):
                return
        except (ValueError, KeyError, IndexError) as exc:
            self.set_status(describe_error(exc, "The computer player"), error=True)
        fallback = RandomPlayer(self.version)
        for _ in range(20):
            if self.send(fallback(self.battle, d)):
                return

    # --- views ------------------------------------------------------------------------------------
    def tokens(self) -> list[TokenView]:
        """Token views of every figure (greyed when out); the same list until a figure or the colours change."""
        key = (self.version, self.selected_id, self.ui.settings.colour_blind, self.ui.palette)
        if self._tokens_cache is not None and self._tokens_cache[0] == key:
            return self._tokens_cache[1]
        out = []
        for f in self.battle.figures.values():
            worst = f.wounds.worst
            level = 0 if worst is None else int(worst)
            if f.out and level >= int(WoundLevel.NEAR_DEATH):
                level = 6 if f.wounds.overflowed else level
            badge = " ".join(m.label for m in self.battle.gm_modifiers_on(f.id))
            out.append(
                TokenView(
                    f.id,
                    f.name,
                    self.side_colour(f.side),
                    f.hex,
                    f.facing,
                    level,
                    f.out or not f.can_act,
                    f.id == self.selected_id,
                    badge=badge,
                    cells=f.cells if f.size != 1 else frozenset(),
                )
            )
        self._tokens_cache = (key, out)
        return out

    def board_view(self) -> BoardView:
        """What the board draws now; rebuilt only when something it shows changed."""
        if self._view is not None:
            return self._view
        pal = self.ui.palette
        fills: list[HexFill] = []
        zocs: list[ZocView] = []
        path_view: PathView | None = None
        lof_view: LineOfFireView | None = None
        self._escape_labels = []
        d = self.my_decision()
        if d is not None and (d.reason in MOVE_REASONS or (d.reason == "declare" and self.decl.second_move)):
            fid = self.active_mover(d) if d.reason in MOVE_REASONS else self.decl.figure
            if fid is not None:
                fills, path_view = self._movement_overlays(fid)
        elif d is not None and d.reason == "declare":
            self.ensure_decl(d)
            fills, lof_view = spell_panel.overlays(self) if self.decl.spell else self._attack_overlays()
        elif d is not None and d.reason == "follow" and self.battle._follow_queue:
            fills = [HexFill(frozenset({self.battle._follow_queue[0][1]}), pal.move_free, 110, outline=True)]
        for fid in (self.selected_id, self._hover_figure()):
            if fid is not None and fid in self.battle.figures:
                f = self.battle.figures[fid]
                if f.can_act and not any(z.hex == f.hex for z in zocs):
                    zocs.append(
                        ZocView(
                            f.hex,
                            f.facing,
                            self.side_colour(f.side),
                            self.battle.zone(f) if f.size != 1 else frozenset(),
                        )
                    )
        current = d.figure if d is not None else None
        highlighted = set(self.highlight)
        if current:
            highlighted.add(current)
        if d is not None and d.mover:
            highlighted.add(d.mover)
        self._view = BoardView(
            self.tokens(),
            fills,
            path=path_view,
            line_of_fire=lof_view,
            zocs=zocs,
            hover=self.hover_hex,
            selected=self.selected_hex if self.selected_id is None else None,
            highlighted=frozenset(highlighted),
        )
        return self._view

    def _hover_figure(self) -> str | None:
        if self.hover_hex is None:
            return None
        f = self.battle.occupant(self.hover_hex)
        return f.id if f is not None else None

    def _movement_overlays(self, fid: str) -> tuple[list[HexFill], PathView | None]:
        pal = self.ui.palette
        r = self.reach(fid)
        esc = self.escapes(fid)
        # the bands only change with the battle, so the board can keep them drawn while the mouse moves
        key = (self.version, fid, pal, self.board.token_radius() >= 12)
        cached = self._overlay_cache.get(key)
        if cached is None:
            free = frozenset(h for h in r.hexes() if h not in esc)
            likely = frozenset(h for h, p in esc.items() if p >= Fraction(1, 2))
            unlikely = frozenset(h for h, p in esc.items() if p < Fraction(1, 2))
            cached = (
                [
                    HexFill(free, pal.move_free, 95),
                    HexFill(likely, pal.move_escape, 105),
                    HexFill(unlikely, pal.move_free_attacks, 105),
                ],
                [(h, percent(p)) for h, p in esc.items()] if key[-1] else [],
            )
            self._overlay_cache.clear()
            self._overlay_cache[key] = cached
        fills = cached[0]
        if cached[1]:
            self._escape_labels = cached[1]
        path_view = None
        path = self.planned_path(fid, self.hover_hex)
        if path is not None:
            hexes = (path.start, *path.hexes)
            label = f"{path.cost}/{r.allowance}"
            if self.hover_hex in esc:
                label += f" · escape {percent(esc[self.hover_hex])}"
            labels = (*("" for _ in hexes[:-1]), label)
            path_view = PathView(hexes, pal.path, labels, path.end_facing, large_end(self.battle, fid, path))
        return fills, path_view

    def _attack_overlays(self) -> tuple[list[HexFill], LineOfFireView | None]:
        pal = self.ui.palette
        s = self.decl
        fig = self.battle.figure(s.figure)
        weapon = weapon_named(fig, s.weapon)
        fills: list[HexFill] = []
        if weapon.ranged:
            fills.extend(self._range_fills(fig, weapon))
        targets = frozenset(h for t in self.targets() for h in self.battle.cells_of(t))
        fills.append(HexFill(targets, theme.DANGER, 70, outline=True))
        st = Stance(s.stance)
        if st.retreat != "none":
            retreats = frozenset(self.declare_options()["retreats"])
            fills.append(HexFill(retreats, pal.move_free, 60))
            if s.retreat is not None:
                fills.append(HexFill(frozenset({s.retreat}), pal.move_free, 150, outline=True))
        if st.max_advance:
            last_hex, last_facing = s.advance[-1] if s.advance else (fig.hex, fig.facing)
            if len(s.advance) < st.max_advance:
                steps = frozenset(
                    h
                    for h in front_hexes(last_hex, last_facing)
                    if self.battle.occupant(h) is None and self.battle.terrain.is_passable(h)
                )
                fills.append(HexFill(steps, pal.move_escape, 50))
            if s.advance:
                fills.append(HexFill(frozenset(h for h, _ in s.advance), pal.move_escape, 140, outline=True))
        lof_view = None
        pv = self.preview()
        if pv is not None and pv.line is not None:
            lof_view = self._lof_view(pv)
        return fills, lof_view

    def _range_fills(self, fig: Figure, weapon: Any) -> list[HexFill]:
        key = ("range", self.version, fig.id, weapon.name)
        cached = self._preview_cache.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
        bands = band_table(weapon, 0)
        colours = [(90, 200, 110), (190, 210, 90), (240, 190, 60), (240, 130, 50), (220, 60, 50)]
        if self.ui.settings.colour_blind:
            colours = [(86, 180, 233), (0, 158, 115), (240, 228, 66), (230, 159, 0), (213, 94, 0)]
        t = self.battle.terrain
        rings: list[set[Hex]] = [set() for _ in bands]
        for row in range(t.height):
            for col in range(t.width):
                h = t.hex_at(col, row)
                dd = distance(fig.hex, h)
                if dd == 0:
                    continue
                for i, (_, mx) in enumerate(bands):
                    if dd <= mx:
                        rings[i].add(h)
                        break
        fills = [HexFill(frozenset(r), colours[min(i, len(colours) - 1)], 34) for i, r in enumerate(rings)]
        self._preview_cache[key] = fills  # type: ignore[assignment]
        return fills

    def _lof_view(self, pv: AttackPreview) -> LineOfFireView:
        line = pv.line
        assert line is not None
        marks: list[LofMark] = []
        at_risk = {self.battle.figure(b.figure).hex: b for b in pv.bystanders}
        for lh in line.hexes:
            if lh.hex in (line.firer, line.target):
                continue
            blocked = self.battle.terrain.sight_blocked(lh.hex)
            if line.blocked_at == lh.hex:
                marks.append(LofMark(lh.hex, "blocked", "blocked"))
            elif lh.hex in at_risk:
                marks.append(LofMark(lh.hex, "bystander", percent(at_risk[lh.hex].chance)))
            elif blocked and not lh.interior:
                marks.append(LofMark(lh.hex, "cover", "partial cover"))
            else:
                marks.append(LofMark(lh.hex, "clear" if lh.interior else "cover", "" if lh.interior else "edge"))
        for hx, b in at_risk.items():
            if not any(m.hex == hx for m in marks):
                marks.append(LofMark(hx, "bystander", percent(b.chance)))
        return LineOfFireView(line.firer, line.target, tuple(marks), line.blocked)

    # --- layout -----------------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Top bar, tracker strip, board, right column (sheet + log), status bar."""
        Screen.on_resize(self, size)
        s = self.ui.s
        top = s(self.TOP) + s(self.TRACK)
        side = s(self.SIDE)
        self.board.camera.set_view((0, top, max(100, size[0] - side), max(100, size[1] - top - s(self.STATUS))))
        if not self._fitted:
            cam = self.board.camera
            cam.fit()
            # fitting a whole village map leaves tokens too small to read: start close enough to see names
            while self.board.token_radius() < self.ui.s(15) and cam.zoom_index < len(ZOOM_LEVELS) - 1:
                cam.zoom_index += 1
            cam.clamp()
            self._fitted = True
        log_h = max(s(140), (size[1] - top - s(self.STATUS)) * 2 // 5)
        at_end = self.log.scroll >= self.log.max_scroll
        self.log.rect = pygame.Rect(size[0] - side + s(8), size[1] - s(self.STATUS) - log_h - s(6), side - s(16), log_h)
        if at_end:  # the log was scrolled to its end for the old height; keep the latest entries in view
            self.log.scroll = self.log.max_scroll
        self.board.set_palette(self.ui.palette)
        self._view = None
        self._panel_cache.clear()
        self._chrome_keys.clear()
        self._buttons_key = None

    def on_enter(self, size: tuple[int, int]) -> None:
        """Back on top (from a menu, the curtain, settings): pick up setting changes."""
        super().on_enter(size)
        self._panel_cache.clear()
        self._chrome_keys.clear()
        self._view = None
        self._buttons_key = None

    # --- drawing ----------------------------------------------------------------------------------
    def _cached(
        self, name: str, key: Any, size: tuple[int, int], paint: Callable[[pygame.Surface], None]
    ) -> pygame.Surface:
        hit = self._panel_cache.get(name)
        if hit is not None and hit[0] == key and hit[1].get_size() == size:
            return hit[1]
        surf = pygame.Surface(size, pygame.SRCALPHA)
        paint(surf)
        self._panel_cache[name] = (key, surf)
        return surf

    def draw(self, surface: pygame.Surface) -> None:
        """Board and overlays, then the cached panels."""
        self.board.draw(surface, self.board_view(), self._escape_labels)
        spell_panel.draw_token_marks(self, surface)
        d = self.decision()
        state_key = (self.version, len(self.entries), self.ui.settings.ui_scale, self.ui.settings.colour_blind)
        self._draw_chrome(surface, d, state_key)
        text = self.ui.text
        mine = self.my_decision()
        if mine is not None:
            self._rebuild_buttons()
            rect = self.panel_rect(mine)
            key = (
                state_key,
                self.decl.key(),
                self.hover_hex if mine.reason in MOVE_REASONS else None,
                self.facing_choice,
                self.actor,
                rect.size,
            )
            surface.blit(
                self._cached("panel", key, rect.size, lambda surf: self._paint_panel(surf, mine)), rect.topleft
            )
            for b in self.buttons:
                b.draw(surface, text)
        elif d is not None and not self.is_human(d.side):
            self._draw_thinking(surface, d)
        self._draw_inspector_box(surface, state_key)
        spell_panel.draw_tooltip(self, surface)

    def _draw_chrome(self, surface: pygame.Surface, d: Decision | None, state_key: tuple[Any, ...]) -> None:
        """Top bar and tracker, sheet and log column, status bar: repainted into one cached opaque surface
        only where their content changed, then blitted region by region (they never overlap the board)."""
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        if self._chrome is None or self._chrome.get_size() != (w, h):
            self._chrome = pygame.Surface((w, h), 0, surface)
            self._chrome_keys.clear()
        chrome = self._chrome
        top_h = s(self.TOP) + s(self.TRACK)
        side = s(self.SIDE)
        status_h = s(self.STATUS)
        top_rect = pygame.Rect(0, 0, w, top_h)
        side_rect = pygame.Rect(w - side, top_h, side, max(0, h - top_h - status_h))
        bar = pygame.Rect(0, h - status_h, w, status_h)
        key: tuple[Any, ...] = (state_key, self.status, d, w)
        if self._chrome_keys.get("top") != key:
            self._chrome_keys["top"] = key
            chrome.fill((0, 0, 0), top_rect)
            self._paint_top(chrome.subsurface(top_rect), d)
        col_h = self.log.rect.y - top_h
        sheet_key = (state_key, self.selected_id, self._hover_figure() if self.selected_id is None else None)
        log = self.log
        key = (
            sheet_key,
            (w, h),
            len(log.items),
            log.items[-1] if log.items else None,
            log.scroll,
            log.hovered,
            log.selected,
            tuple(log.rect),
        )
        if self._chrome_keys.get("side") != key:
            self._chrome_keys["side"] = key
            clip = chrome.get_clip()
            chrome.set_clip(side_rect)
            if col_h > 0:
                self._paint_sheet(chrome.subsurface(pygame.Rect(w - side, top_h, side, col_h).clip(side_rect)))
            pygame.draw.rect(
                chrome, theme.BACKGROUND, (w - side, log.rect.y - s(4), side, h - log.rect.y - status_h + s(4))
            )
            log.draw(chrome, text)
            chrome.set_clip(clip)
        key = (self.status, self.status_error, w, self.ui.settings.ui_scale)
        if self._chrome_keys.get("status") != key:
            self._chrome_keys["status"] = key
            pygame.draw.rect(chrome, theme.PANEL, bar)
            pygame.draw.line(chrome, theme.BORDER, bar.topleft, bar.topright)
            msg = self.status or (
                "drag / WASD pan · wheel zoom · Q/E facing · H hold · Space stay · "
                "Ctrl+S save · Ctrl+Z undo · Esc menu · F1 help"
            )
            text.blit(
                chrome,
                msg,
                (s(10), bar.centery),
                13,
                theme.DANGER if self.status_error else theme.TEXT_MUTED,
                anchor="midleft",
            )
        surface.blits(
            [(chrome, top_rect, top_rect), (chrome, side_rect, side_rect), (chrome, bar, bar)], doreturn=False
        )

    def _draw_thinking(self, surface: pygame.Surface, d: Decision) -> None:
        s = self.ui.s
        x, y, _, h = self.board.camera.view
        name = self.battle.sides[d.side].name
        rect = pygame.Rect(x + s(10), y + h - s(46), s(360), s(36))
        draw_panel(surface, rect, theme.PANEL, self.side_colour(d.side), alpha=230)
        self.ui.text.blit(
            surface, f"{name} (computer) is deciding…", (rect.x + s(12), rect.centery), 14, theme.TEXT, anchor="midleft"
        )

    def _paint_top(self, surf: pygame.Surface, d: Decision | None) -> None:
        s, text = self.ui.s, self.ui.text
        w = surf.get_width()
        top = s(self.TOP)
        pygame.draw.rect(surf, theme.PANEL, (0, 0, w, top))
        pygame.draw.line(surf, theme.BORDER, (0, top - 1), (w, top - 1))
        b = self.battle
        title = str(self.session.setup_data.get("title", self.data.name))
        r = text.blit(surf, title, (s(12), top // 2), 17, theme.ACCENT, bold=True, anchor="midleft")
        phase = "Battle over" if b.over else f"Round {b.round} · {b.phase.capitalize()} phase"
        r = text.blit(surf, phase, (r.right + s(18), top // 2), 15, theme.TEXT, bold=True, anchor="midleft")
        if d is not None:
            who = b.sides[d.side]
            pygame.draw.circle(surf, self.side_colour(d.side), (r.right + s(22), top // 2), s(6))
            kind = "" if self.is_human(d.side) else " (computer)"
            prompt = f"{who.name}{kind}: {d.prompt}"
            max_w = w - (r.right + s(36)) - s(120)
            while text.width(prompt, 14) > max_w and len(prompt) > 10:
                prompt = prompt[:-4] + "…"
            text.blit(surf, prompt, (r.right + s(34), top // 2), 14, theme.TEXT, anchor="midleft")
        elif b.winner is not None:
            text.blit(surf, victory_line(b), (r.right + s(18), top // 2), 15, theme.ACCENT, bold=True, anchor="midleft")
        text.blit(surf, "Esc menu · F1 help", (w - s(10), top // 2), 13, theme.TEXT_MUTED, anchor="midright")
        # the initiative tracker: order, whose turn, held, done, out
        y0, th = top, s(self.TRACK)
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
            colour = self.side_colour(f.side) if not f.out else (100, 100, 104)
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

    def _paint_sheet(self, surf: pygame.Surface) -> None:
        s, text = self.ui.s, self.ui.text
        w, h = surf.get_size()
        surf.fill(theme.BACKGROUND)
        pygame.draw.line(surf, theme.BORDER, (0, 0), (0, h))
        fid = self.selected_id or self._hover_figure()
        if fid is None:
            d = self.decision()
            fid = d.figure if d is not None and d.figure in self.battle.figures else None
        x, y = s(14), s(10)
        if fid is None:
            text.blit(surf, "Click a figure to see its sheet.", (x, y), 14, theme.TEXT_MUTED)
            return
        f = self.battle.figures[fid]
        c = f.character
        pygame.draw.circle(surf, self.side_colour(f.side), (x + s(7), y + s(11)), s(7))
        text.blit(surf, f.name, (x + s(22), y + s(2)), 18, theme.TEXT, bold=True)
        y += s(28)
        state = (
            "out of the fight" if f.out else ("held" if f.held and not f.moved else ("moved" if f.moved else "ready"))
        )
        text.blit(
            surf,
            f"{self.battle.sides[f.side].name} · {c.name or c.key} · {f.posture} · {state}",
            (x, y),
            12,
            theme.TEXT_MUTED,
        )
        y += s(16)
        order = {"always": "always stop", "never": "never stop", "ask": "ask before stopping"}[f.standing_order]
        text.blit(surf, f"Enemies leaving its zone: {order} (O)", (x, y), 12, theme.TEXT_MUTED)
        y += s(20)
        colw = (w - 2 * x) // 4
        for i, t in enumerate(TRAITS):
            cx = x + (i % 4) * colw
            cy = y + (i // 4) * s(30)
            text.blit(surf, t[:3].capitalize(), (cx, cy), 11, theme.TEXT_MUTED)
            text.blit(surf, level_name(int(getattr(c, t))), (cx, cy + s(12)), 12, theme.TEXT, bold=True)
        y += s(64)
        skills = sorted(c.skills.items(), key=lambda kv: -kv[1])[:6]
        if skills:
            line = " · ".join(f"{k} {level_name(v)}" for k, v in skills)
            for part in text.wrap("Skills: " + line, 12, w - 2 * x)[:2]:
                text.blit(surf, part, (x, y), 12, theme.TEXT)
                y += text.line_height(12)
        for wpn in c.weapons[:3]:
            rng = f", range {wpn.base_range}/{wpn.max_range}" if wpn.ranged else ""
            text.blit(
                surf,
                f"⚔ {wpn.name}: damage {signed(wpn.damage)}, skill {level_name(c.combat_skill(wpn))}{rng}",
                (x, y),
                12,
                theme.TEXT,
            )
            y += text.line_height(12)
        gear = [f"{a.name} ({signed(a.defense)})" for a in c.armour]
        if c.shield is not None:
            gear.append(f"{c.shield.name} (+{c.shield.defense} defence)")
        if gear:
            for part in text.wrap("Armour: " + ", ".join(gear), 12, w - 2 * x)[:2]:
                text.blit(surf, part, (x, y), 12, theme.TEXT)
                y += text.line_height(12)
        y += s(6)
        text.blit(
            surf,
            f"Wounds: {f.wounds.label}",
            (x, y),
            13,
            self.ui.palette.wound_colour(0 if f.wounds.worst is None else int(f.wounds.worst)),
            bold=True,
        )
        y += s(20)
        bx = x
        for step in c.wound_track.steps:
            name = step.name
            text.blit(surf, name if len(name) < 11 else name[:9] + ".", (bx, y), 10, theme.TEXT_MUTED)
            for k in range(step.boxes):
                r = pygame.Rect(bx + k * s(13), y + s(14), s(11), s(11))
                filled = k < f.wounds.filled(step.level)
                pygame.draw.rect(surf, self.ui.palette.wound_colour(int(step.level)) if filled else theme.PANEL, r)
                pygame.draw.rect(surf, theme.BORDER, r, 1)
            bx += max(s(13) * step.boxes, text.width(name[:10], 10)) + s(8)
        y += s(32)
        if y < h - s(16):
            text.blit(
                surf,
                f"Initiative {level_name(f.initiative)} · facing {f.facing} · "
                f"moved {f.hexes_moved}/{f.allowance} hexes",
                (x, y),
                11,
                theme.TEXT_MUTED,
            )
        text.blit(surf, "Combat log — click an entry to highlight its figures", (x, h - s(16)), 11, theme.TEXT_MUTED)

    def _draw_inspector_box(self, surface: pygame.Surface, state_key: Any = None) -> None:
        """The hover inspector: the hex (terrain, penalty, cover, elevation) and who stands there."""
        hx = self.hover_hex
        if hx is None or not self.data.terrain.contains(hx):
            return
        cam_view = tuple(self.board.camera.view)
        key = (state_key, hx, self._panel_top, cam_view)
        hit = self._panel_cache.get("inspector")
        if hit is not None and hit[0][0] == key and state_key is not None:
            surface.blit(hit[1], hit[0][1])
            return
        s, text = self.ui.s, self.ui.text
        t = self.data.terrain
        kind = t.type_at(hx).name.capitalize()
        walk = "impassable" if not t.is_passable(hx, "walk") else f"penalty {t.move_penalty(hx, 'walk')}"
        lines = [
            (f"{kind} · {walk}", theme.TEXT),
            (
                f"cover {signed(t.cover_at(hx))} · elevation {t.elevation_at(hx)} m"
                + (" · blocks sight" if t.sight_blocked(hx) else ""),
                theme.TEXT_MUTED,
            ),
        ]
        occ = self.battle.occupant(hx)
        if occ is not None:
            c = occ.character
            lines.append(
                (f"{occ.name} ({self.battle.sides[occ.side].name}) — {occ.wounds.label}", self.side_colour(occ.side))
            )
            lines.append(
                (
                    f"Str {level_name(c.strength)} · Agi {level_name(c.agility)} · "
                    f"{c.ready_weapon.name} {level_name(c.combat_skill(c.ready_weapon))}",
                    theme.TEXT_MUTED,
                )
            )
            for m in self.battle.gm_modifiers_on(occ.id):
                span = "this round" if m.until == "round" else "until lifted"
                lines.append((f"GM: {m.label} ({span})", theme.ACCENT))
            lines.extend(spell_panel.inspector_lines(self.battle, occ))
        lh = text.line_height(12)
        width = max(text.width(line, 12) for line, _ in lines) + s(16)
        x, y, bw, bh = self.board.camera.view
        rect = pygame.Rect(x + bw - width - s(8), y + s(8), width, lh * len(lines) + s(10))
        if self._panel_top:
            rect.bottom = y + bh - s(8)
        # drawn once per hovered hex into a translucent surface, then blitted every frame
        box = pygame.Surface(rect.size, pygame.SRCALPHA)
        draw_panel(box, box.get_rect(), theme.PANEL, theme.BORDER, radius=4, alpha=225)
        for i, (line, colour) in enumerate(lines):
            text.blit(box, line, (s(8), s(5) + i * lh), 12, colour)
        self._panel_cache["inspector"] = ((key, rect.topleft), box)
        surface.blit(box, rect.topleft)

    def _paint_panel(self, surf: pygame.Surface, d: Decision) -> None:
        s, text = self.ui.s, self.ui.text
        w, h = surf.get_size()
        who = self.side_colour(d.side)
        pygame.draw.rect(surf, (*theme.PANEL, 240), surf.get_rect(), border_radius=8)
        pygame.draw.rect(surf, who, surf.get_rect(), 2, border_radius=8)
        x, y = s(12), s(8)
        if d.reason in MOVE_REASONS:
            fid = self.active_mover(d)
            name = self.battle.figure(fid).name if fid else "—"
            head = {
                "move": f"{name} moves",
                "held_end": f"{name}: use the held move now",
                "interrupt": f"Interrupt with {name}?",
            }[d.reason]
            text.blit(surf, head, (x, y), 16, theme.ACCENT, bold=True)
            y += s(24)
            path = self.planned_path(fid, self.hover_hex) if fid else None
            if path is not None:
                esc = self.escapes(fid or "")
                extra = f" · escape roll: {percent(esc[path.end])} to get through" if path.end in esc else ""
                line = (
                    f"cost {path.cost} of {self.reach(fid or '').allowance}: {path.hexes_moved} hexes + "
                    f"terrain {path.terrain_penalty} + occupied {path.occupied_extra} + "
                    f"facing {path.facing_extra}{extra}"
                )
            elif d.reason == "interrupt" and len(d.interrupters) > 1:
                line = "Click another held figure to choose it; click a coloured hex to move."
            else:
                line = "Click a coloured hex to move there · wheel or Q/E: final facing."
            line += f" · C: posture ({self.posture_of(fid)})" if fid else ""
            for part in text.wrap(line, 13, w - 2 * x)[:2]:
                text.blit(surf, part, (x, y), 13, theme.TEXT)
                y += text.line_height(13)
            legend_y = h - s(22)
            lx = w - s(12)
            for label, colour in (
                ("free attacks risk", self.ui.palette.move_free_attacks),
                ("escape roll", self.ui.palette.move_escape),
                ("free", self.ui.palette.move_free),
            ):
                r = text.blit(surf, label, (lx, legend_y), 11, theme.TEXT_MUTED, anchor="midright")
                pygame.draw.rect(surf, colour, (r.x - s(14), legend_y - s(5), s(10), s(10)))
                lx = r.x - s(22)
            return
        if d.reason in ("stop", "escape_failed", "follow"):
            title = {"stop": "Stop the mover?", "escape_failed": "Escape failed", "follow": "Follow?"}[d.reason]
            text.blit(surf, title, (x, y), 16, theme.ACCENT, bold=True)
            y += s(24)
            for part in text.wrap(d.prompt, 13, w - 2 * x)[:3]:
                text.blit(surf, part, (x, y), 13, theme.TEXT)
                y += text.line_height(13)
            return
        self._paint_declaration(surf, d)

    def _paint_declaration(self, surf: pygame.Surface, d: Decision) -> None:
        s, text = self.ui.s, self.ui.text
        w, h = surf.get_size()
        self.ensure_decl(d)
        st = self.decl
        fig = self.battle.figure(st.figure)
        x = s(12)
        left_w = s(self.DECL_LEFT)
        text.blit(surf, f"{fig.name} declares", (x, s(8)), 16, theme.ACCENT, bold=True)
        if self.battle.options.secret_stances:
            text.blit(
                surf, "secret until everyone has declared", (left_w, s(12)), 11, theme.TEXT_MUTED, anchor="topright"
            )
        y = s(98)
        if st.second_move:
            for part in text.wrap(
                "Second move: neither attack nor defend, move again by the movement rules "
                "(FTC 6.2). Click a coloured hex; click “Second move” again to cancel.",
                12,
                left_w - x,
            ):
                text.blit(surf, part, (x, y), 12, theme.TEXT)
                y += text.line_height(12)
            return
        stance = Stance(st.stance)
        for part in text.wrap(f"{stance.display_name}: {stance.effect}", 12, left_w - x)[:2]:
            text.blit(surf, part, (x, y), 12, theme.TEXT)
            y += text.line_height(12)
        extra = []
        if stance.max_advance:
            extra.append(f"advance: click up to {stance.max_advance} hex(es) ahead ({len(st.advance)} chosen)")
        if stance.retreat != "none":
            where = "click a green hex" if st.retreat is None else f"to hex {st.retreat.q},{st.retreat.r}"
            extra.append(f"retreat: {where}" + (" (required)" if stance.retreat == "must" else ""))
        if extra:
            text.blit(surf, " · ".join(extra), (x, y + s(2)), 11, theme.TEXT_MUTED)
        opts = self.declare_options()
        if [f for f in opts["firers"] if f != fig.id]:
            text.blit(surf, "Dodge:", (x, s(161)), 12, theme.TEXT_MUTED)
        spell_panel.paint_row_label(self, surf)
        # the odds column
        ox = left_w + s(16)
        ow = w - ox - s(12)
        pygame.draw.line(surf, theme.BORDER, (left_w + s(4), s(10)), (left_w + s(4), h - s(10)))
        y = s(8)
        if st.spell is not None:
            spell_panel.paint_odds(self, surf, ox, ow)
            return
        pv = self.preview()
        if st.target is None:
            for part in text.wrap(
                "Target: click an enemy outlined in red, or press T. With no target the figure only defends.", 13, ow
            ):
                text.blit(surf, part, (ox, y), 13, theme.TEXT)
                y += text.line_height(13)
            return
        if pv is None:
            text.blit(surf, "No odds: that target cannot be attacked now.", (ox, y), 13, theme.DANGER)
            return
        tgt = self.battle.figure(st.target)
        text.blit(
            surf, f"→ {tgt.name} with {pv.weapon}: P(hit) {percent(pv.hit)}", (ox, y), 15, theme.ACCENT, bold=True
        )
        y += s(22)
        mods = "".join(f" {signed(m.value)} {m.name}" for m in pv.offence_mods)
        dfn = f"vs defence {level_name(pv.defence)}" if pv.defence is not None else "unopposed"
        line = (
            f"{level_name(pv.skill)}{mods} = {level_name(pv.offence)} {dfn}; difficulty "
            f"{level_name(pv.difficulty)}; damage {signed(pv.damage_base)} + degree"
        )
        for part in text.wrap(line, 11, ow)[:2]:
            text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
            y += text.line_height(11)
        y += s(4)
        y = self._paint_distribution(surf, pv.distribution, pygame.Rect(ox, y, ow, s(14)))
        if pv.stances:
            y += s(4)
            text.blit(surf, "Stances compared (your hit · their hit on you)", (ox, y), 11, theme.TEXT_MUTED, bold=True)
            y += s(15)
            cw = ow // len(pv.stances)
            for i, col in enumerate(pv.stances):
                cx = ox + i * cw
                sel = col.stance.value == st.stance
                if sel:
                    pygame.draw.rect(surf, theme.PANEL_LIGHT, (cx - s(2), y - s(1), cw - s(2), s(30)), border_radius=3)
                short = {
                    "very_aggressive": "Very aggr.",
                    "mildly_aggressive": "Mildly aggr.",
                    "neutral": "Neutral",
                    "mildly_defensive": "Mildly def.",
                    "very_defensive": "Very def.",
                }[col.stance.value]
                text.blit(surf, short, (cx, y), 11, theme.ACCENT if sel else theme.TEXT_MUTED, bold=sel)
                risk = f" · {percent(col.risk)}" if col.risk is not None else ""
                text.blit(
                    surf,
                    f"{percent(col.hit)}{risk}",
                    (cx, y + s(14)),
                    12,
                    theme.TEXT if sel else theme.TEXT_MUTED,
                    bold=sel,
                )
            y += s(34)
        notes = []
        if pv.line is not None:
            if pv.line.blocked:
                notes.append("line of fire BLOCKED")
            elif pv.line.partial_cover:
                notes.append("partial cover (−1)")
        for b in pv.bystanders:
            who = self.battle.figure(b.figure).name
            notes.append(f"{'friend' if b.friend else 'enemy'} {who} hit by a miss: {percent(b.chance)}")
        notes.extend(pv.assumptions)
        for part in text.wrap(" · ".join(notes), 11, ow)[: max(0, (h - y - s(4)) // text.line_height(11))]:
            text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
            y += text.line_height(11)

    def _paint_distribution(self, surf: pygame.Surface, dist: Any, rect: pygame.Rect) -> int:
        """A stacked bar: miss, then each wound level (head share noted), with labels under it."""
        s, text = self.ui.s, self.ui.text
        groups: dict[int, Fraction] = {}
        heads: dict[int, Fraction] = {}
        for o, p in dist.items():
            assert isinstance(o, Outcome)
            k = -1 if not o.hit else (0 if o.level is None else int(o.level))
            groups[k] = groups.get(k, Fraction(0)) + p
            if o.location == "head":
                heads[k] = heads.get(k, Fraction(0)) + p
        x = rect.x
        labels = []
        for k in sorted(groups):
            p = groups[k]
            wpx = round(float(p) * rect.width)
            colour = (70, 74, 88) if k == -1 else self.ui.palette.wound_colour(k)
            if wpx > 0:
                pygame.draw.rect(surf, colour, (x, rect.y, wpx, rect.height))
            name = "miss" if k == -1 else ("no wound" if k == 0 else str(WoundLevel(k)))
            head = f" (head {percent(heads[k])})" if heads.get(k) else ""
            labels.append((f"{name} {percent(p)}{head}", colour))
            x += wpx
        pygame.draw.rect(surf, theme.BORDER, rect, 1)
        lx = rect.x
        ly = rect.bottom + s(3)
        lh = text.line_height(11)
        for label, colour in labels:
            lw = text.width(label, 11) + s(16)
            if lx + lw > rect.right and lx > rect.x:
                lx, ly = rect.x, ly + lh
            pygame.draw.rect(surf, colour, (lx, ly + s(3), s(8), s(8)))
            text.blit(surf, label, (lx + s(11), ly), 11, theme.TEXT)
            lx += lw
        return ly + lh


class CurtainScreen(Screen):
    """Hotseat hand-off: hides the board until the next player confirms (issue 5, "Hotseat")."""

    def __init__(
        self, ui: UiContext, side_name: str, colour: RGB, then: Callable[[], Transition | None] | None = None
    ) -> None:
        super().__init__(ui)
        self.side_name = side_name
        self.colour = colour
        self.then = then
        """What follows the curtain (the GM's panel behind the GM's curtain), if anything."""

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Enter, Space or a click lifts the curtain (F1 and Esc are left to the app and do nothing here)."""
        keyed = event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
        clicked = event.type == pygame.MOUSEBUTTONUP and event.button == 1
        if keyed or clicked:
            return Pop(then=self.then() if self.then is not None else None)
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """A full-screen curtain in the next side's colour."""
        surface.fill(theme.BACKGROUND)
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        pygame.draw.rect(surface, self.colour, (0, h // 2 - s(90), w, s(6)))
        pygame.draw.rect(surface, self.colour, (0, h // 2 + s(84), w, s(6)))
        text.blit(
            surface,
            f"Pass the computer to {self.side_name}",
            (w // 2, h // 2 - s(30)),
            34,
            theme.TEXT,
            bold=True,
            anchor="center",
        )
        text.blit(
            surface, "click or press Enter when ready", (w // 2, h // 2 + s(30)), 18, theme.TEXT_MUTED, anchor="center"
        )


class VictoryScreen(Screen):
    """The battle is over: winner, rounds and every figure's statistics."""

    def __init__(
        self,
        ui: UiContext,
        battle: Battle,
        to_title: Callable[[], Transition],
        *,
        roster_path: str | Path | None = None,
        care: Callable[[], Aftercare] | None = None,
    ) -> None:
        super().__init__(ui)
        self.battle = battle
        self.stats = battle_stats(battle)
        self.to_title = to_title
        self.title_button = Button("Back to title", lambda: Pop(then=to_title()), size=16)
        self.look_button = Button("Look at the board", Pop, size=16)
        self.summary_button = Button(
            "After the battle…",
            lambda: summary_of(ui, battle, to_title, roster_path=roster_path, care=care() if care else None),
            size=16,
            hotkey=pygame.K_a,
        )
        self.cell_rects: list[list[pygame.Rect]] = []  # the table as drawn last: heading row, then figures

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
        for b in (self.title_button, self.look_button, self.summary_button):
            b.handle(event)
            if isinstance(b.result, Pop | Push):
                return b.result
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Winner, rounds, table."""
        surface.fill(theme.BACKGROUND)
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        b = self.battle
        ended = next((e for e in reversed(b.events) if isinstance(e, ev.BattleEnded)), None)
        head = victory_line(b)
        text.blit(surface, head, (w // 2, s(40)), 38, theme.ACCENT, bold=True, anchor="midtop")
        sub = f"after {b.round} round{'s' if b.round != 1 else ''}" + (
            f" — {ended.reason}" if ended and not (b.winner and ended.reason.endswith(" wins")) else ""
        )
        text.blit(surface, sub, (w // 2, s(92)), 17, theme.TEXT_MUTED, anchor="midtop")
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
        lh = max(s(18), min(s(24), (h - s(240) - y) // max(1, len(self.stats))))
        for row, vals in zip(self.stats, rows, strict=True):
            colour = self._colour(row["side"])
            self.cell_rects.append(
                [
                    text.blit(surface, text.fit(v, 14, cw), (x, y), 14, colour if i == 0 else theme.TEXT)
                    for i, (v, x, cw) in enumerate(zip(vals, xs, widths, strict=True))
                ]
            )
            y += lh
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
        return hex_colour(s.colour) if s is not None else theme.TEXT


def victory_line(battle: Battle) -> str:
    """How the victory screen and the top bar name the end of a battle, in words that read right for any side
    name, plural or collective: "Victory: The Wyrm-Hunters", or that no side is left standing."""
    if battle.winner is None:
        return "No side is left standing"
    return f"Victory: {battle.sides[battle.winner].name}"


def summary_of(
    ui: UiContext,
    battle: Battle,
    to_title: Callable[[], Transition],
    *,
    roster_path: str | Path | None = None,
    care: Aftercare | None = None,
) -> Transition:
    """The after-battle screen (wounds, who hit whom, luck, export, healing, saving the wounds into
    ``roster_path``, the roster file the battle was loaded from) pushed over this one; ``care``, the healing
    kept for this battle (``Session.aftercare``, *Fudge* 4.8), so reopening does not roll it again."""
    from game.ui.summary_screen import SummaryScreen

    return Push(SummaryScreen(ui, battle, to_title, roster_path=roster_path, care=care))


def open_battle_save(ui: UiContext, path: Path, to_title: Callable[[], Transition]) -> BattleScreen:
    """A saved battle on screen (raises the save's ``SaveError`` with its sentence when it cannot)."""
    from game.session import load_session

    return BattleScreen(ui, load_session(path), to_title)


def rule_option_help() -> dict[str, str]:
    """The rule options and their one-sentence help (for the New battle screen and F1)."""
    return dict(RULE_OPTION_HELP)


def bench_screen(
    ui: UiContext, map_path: str | Path, *, figures: int = 40, seed: int = 1, size: tuple[int, int] = (1280, 720)
) -> BattleScreen:
    """A battle screen for issue 6's frame benchmark: ``figures`` figures (the map roster's characters,
    repeated) on ``map_path``, both sides human, laid out for ``size``, the mouse over a hex the moving
    figure can reach (reachable bands, path preview and zones of control drawn). Call ``bench_frame``."""
    from types import SimpleNamespace

    from game.engine.battle import BattleSetup as EngineSetup
    from game.engine.battle import FigureSetup, SideSetup
    from game.session import new_session

    base = new_session(map_path, seed=seed, autosave=False)
    b0 = base.battle
    chars = [f.character for f in b0.figures.values()]
    sides = tuple(SideSetup(s.id, s.name, s.colour, "human") for s in b0.sides.values())
    terrain = b0.terrain
    free = [
        terrain.hex_at(c, r)
        for r in range(terrain.height)
        for c in range(terrain.width)
        if terrain.is_passable(terrain.hex_at(c, r))
    ]
    step = max(1, len(free) // (figures + 1))
    placed = []
    for i in range(figures):
        side = sides[i % len(sides)]
        placed.append(
            FigureSetup(f"b{i}", f"Figure {i}", side.id, chars[i % len(chars)], free[(i + 1) * step], 3 * (i % 2))
        )
    battle = Battle(EngineSetup(terrain, sides, tuple(placed), seed=seed, title="bench"))
    session = SimpleNamespace(
        battle=battle,
        setup_data={**base.setup_data, "title": "bench"},
        loaded=base.loaded,
        save_errors=[],
        apply=battle.apply,
    )
    screen = BattleScreen(ui, session, lambda: Pop())
    screen.last_human_side = None
    screen.on_enter(size)
    d = battle.decision()
    if d is not None and d.figure is not None:
        screen.focus_on(d.figure, d)
        reach = screen.reach(d.figure)
        cam = screen.board.camera
        visible = [h for h in reach.hexes() if cam.in_view(*cam.hex_to_screen(h))]
        if visible:
            screen.hover_hex = max(visible, key=reach.cost)
        screen.selected_id = d.figure
    screen._view = None
    return screen


def bench_frame(surface: pygame.Surface, battle_screen: BattleScreen) -> None:
    """Draw one full battle frame (board, overlays, tracker, sheet, log, decision panel) into ``surface``."""
    battle_screen.draw(surface)


__all__ = [
    "BattleScreen",
    "CurtainScreen",
    "VictoryScreen",
    "battle_stats",
    "bench_frame",
    "bench_screen",
    "open_battle_save",
]
