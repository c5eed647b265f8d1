"""A seat at a networked table on the battle screen: the board, log and panels of a local battle, drawn from
this seat's copy of the host's battle (``game.net.remote.RemoteSession``).

The screen is the hotseat battle screen with three differences: only this seat's decisions are taken here
(the others are the table's, so there is no curtain and no computer player on this machine); every frame
takes what the host sent (``poll``) and plays it into the log like a local decision; a decision is sent to
the host, whose refusal shows as a local one would. Undo is not offered (the rolls were made at the host);
the GM's panel opens only at the GM's seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.engine.battle import Decision, Seat
from game.net.remote import RemoteSession
from game.session import shipped_maps
from game.ui import theme
from game.ui.battle.screen import BattleScreen
from game.ui.battle.words import possessive
from game.ui.board import HexMapSource, default_layout
from game.ui.dialogs import MessageDialog
from game.ui.mapdata import BoardData, open_map
from game.ui.pickers import PickDialog
from game.ui.screen import Push, Transition, UiContext
from game.ui.screens import HELP_KEYS
from game.ui.widgets import draw_panel

if TYPE_CHECKING:
    from game.net.host import HostThread


TABLE_HELP_KEYS: tuple[tuple[str, str], ...] = tuple(
    ("F2 · F3 · F4", "chat · your seat's token · free a seat") if keys.startswith("Ctrl+S") else (keys, meaning)
    for keys, meaning in HELP_KEYS
)
"""The battle screen's keys at a table: there is no save, load or undo there (the host keeps the log), but
chat, the seat's token and, for the host, freeing a seat."""


def table_board_data(session: RemoteSession, *, grid: bool = True) -> BoardData:
    """The board for a table's map: the host's map art when this game ships the very same file (its name and
    SHA-256 match), else the terrain the host sent, drawn as coloured hexes."""
    hint = session.client.map_hint
    for path in shipped_maps():
        if path.name == hint.get("name") and hashlib.sha256(path.read_bytes()).hexdigest() == hint.get("sha256"):
            try:
                data = open_map(path, grid=grid)
            except Exception:  # a damaged local copy: the terrain the host sent still draws the board
                break
            if data.terrain.width == session.battle.terrain.width:
                return data
    terrain = session.battle.terrain
    layout = default_layout(terrain.stagger_axis, terrain.stagger_index)
    return BoardData(
        session.battle.setup.title or "A table", None, terrain, layout, HexMapSource(terrain, layout, grid)
    )


class TableScreen(BattleScreen):
    """The battle screen at one seat of a networked table (see module docstring)."""

    session: RemoteSession
    pauses_for_gm = False  # the host runs the battle: this screen cannot stop it
    help_keys = TABLE_HELP_KEYS

    def __init__(
        self,
        ui: UiContext,
        session: RemoteSession,
        to_title: Callable[[], Transition],
        *,
        on_leave: Callable[[], None] | None = None,
        hosting: HostThread | None = None,
    ) -> None:
        super().__init__(ui, session, to_title)
        session.clear_rebuilt()
        self._waiting_said: str | None = None
        self._chat_seen = len(session.client.chat_lines)
        self.join_hint = ""
        """Said after "Waiting for …" at a table this game hosts: how the other players join."""
        self.on_leave = on_leave
        """What leaving does besides closing the connection (a table hosted by this game: stop serving it)."""
        self.hosting = hosting
        """The table this game hosts (its GM frees seats here: F4), or None at another computer's table."""

    def board_data(self, ui: UiContext) -> BoardData:
        """The host's map: its art when this game ships the very same file, else the terrain the host sent."""
        return table_board_data(self.session, grid=ui.settings.show_grid)

    def _setup_players(self) -> None:
        self.players = {}  # the other seats are played at their own machines (or by the host's computer)

    def is_human(self, side: str) -> bool:
        """Whether this screen takes the side's decisions: only this seat's own."""
        return side == self.session.seat

    def is_computer(self, side: str) -> bool:
        """Whether the table says a computer sits at the side's seat (a person at another machine is not)."""
        return any(s.get("seat") == side and s.get("computer") for s in self.session.seats())

    @property
    def seat(self) -> Seat:
        """The seat this client took at the table (a side's, the GM's or a watcher's): the screen draws its
        view and sends its decisions from it."""
        label = self.session.seat
        if label == "gm":
            return Seat.game_master()
        if label in self.battle.sides:
            return Seat.of_side(label)
        return Seat.watcher()

    def side_name(self, label: str) -> str:
        """A seat as the players know it: its side's name (the GM's and a watcher's seat by their label)."""
        return self.battle.sides[label].name if label in self.battle.sides else label

    def update(self, dt: float) -> bool:
        """Take what the host sent, then run the screen as the hotseat screen does for its own seat."""
        new = self.session.poll()
        changed = False
        if self.session.rebuilt:
            self.session.clear_rebuilt()
            self._bind()
            self.journal.rebuild()
            self.after_change([])
            changed = True
        elif new:
            self.after_change(new)
            changed = True
        if self.session.closed_reason is not None:
            self.set_status(f"The table closed: {self.session.closed_reason}", error=True)
        elif self.session.lost_at is not None:
            self.set_status("The connection to the host is lost; rejoining with this seat's token…", error=True)
        else:
            d = self.decision()
            waiting = d.side if d is not None and not self.is_human(d.side) else None
            if waiting is not None and waiting != self._waiting_said:
                name = self.side_name(waiting)
                if d is not None and d.reason == "fudge_point" and d.figure in self.battle.figures:
                    name += f", deciding on a Fudge Point for {self.battle.figures[d.figure].name}"  # Fudge 4.64
                mine = self.battle.sides[self.session.seat].name if self.session.seat in self.battle.sides else ""
                token = "; F3: your seat's token" if self.session.seat != "watch" else ""
                where = (f"your seat: {mine}" if mine else f"you sit at {self.session.seat}") + token
                self.set_status(f"Waiting for {name} ({where}){self.join_hint}", lasting=True)
                changed = True
            elif waiting is None and self._waiting_said is not None and not self.status_error:
                self.set_status("")
            self._waiting_said = waiting
        changed = self._chat_news() or changed
        return super().update(dt) or changed

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """F2: say a line to the whole table; F3: this seat's token; F4: free a seat (at a table this game
        hosts); everything else as on the hotseat screen."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F3:
            return Push(MessageDialog(self.ui, "Your seat's token", self.token_text()))
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F4:
            return self.free_a_seat()
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F2:
            from game.ui.pickers import TextPrompt

            def said(text: str) -> None:
                if text.strip():
                    self.session.chat(text.strip())

            return Push(TextPrompt(self.ui, "Say to the table", "Every seat reads this line.", "", said))
        return super().on_event(event)

    def token_text(self) -> str:
        """What F3 says: this seat's token and what it is for."""
        token = self.session.client.token
        if self.session.seat == "watch" or not token:
            return "A watcher holds no seat, so there is no token to keep."
        return (
            f"{token}\n\nThis token takes your seat ({self.side_name(self.session.seat)}) back if the connection or "
            "the game is lost: this game keeps it (tables.json in its data folder) and rejoins with it by itself. On "
            'another computer, type it under "Seat token" in Join a table. Keep it to yourself: it is your seat.'
        )

    def free_a_seat(self) -> Transition | None:
        """F4 at a table this game hosts: choose a held seat to free (its player will not come back)."""
        if self.hosting is None:
            self.set_status("Only the table's host frees a seat (F4 where this game hosts the table).", error=True)
            return None
        hosting = self.hosting
        try:
            held = [(label, name, here) for label, name, here in hosting.held_seats() if label != self.session.seat]
        except ValueError as exc:
            self.set_status(str(exc), error=True)
            return None
        if not held:
            self.set_status("Nobody else holds a seat at this table: there is none to free.")
            return None

        def free(label: str) -> Transition | None:
            self.set_status(hosting.free_seat(label, self.side_name(label)), lasting=True)
            return None

        items = [(f"{self.side_name(seat)}: {who} ({'connected' if on else 'away'})", seat) for seat, who, on in held]
        hint = "Free a seat whose player will not come back: anyone may take it then."
        return Push(PickDialog(self.ui, "Free a seat", items, free, hint=hint))

    def _chat_news(self) -> bool:
        lines = self.session.client.chat_lines
        if len(lines) <= self._chat_seen:
            return False
        name, text = lines[-1]
        self._chat_seen = len(lines)
        self.set_status(f"{name} says: {text}   (F2: answer)", lasting=True)
        return True

    def thinking_words(self, d: Decision) -> str:
        """Whom the table waits for: the host's computer, a player at their seat, a player whose game left the
        table (their token brings them back; the host's F4 frees the seat), or nobody yet."""
        name = self.side_name(d.side)
        seat = next((i for i in self.session.seats() if i.get("seat") == d.side), {})
        if seat.get("computer"):
            return f"{name} (the host's computer) is deciding…"
        if seat.get("present"):
            return f"{name} ({seat.get('name') or 'a player'}) is deciding at their seat…"
        if seat.get("name"):  # held by a player who is not connected
            free = " (F4 frees the seat)" if self.hosting is not None else ""
            return f"{seat['name']} left {possessive(name)} seat: waiting for them to come back…{free}"
        return f"Waiting for someone to take {possessive(name)} seat…"

    def _draw_thinking(self, surface: pygame.Surface, d: Decision) -> None:
        """Who the table waits for (``thinking_words``), in a box as wide as its words and the board allow."""
        s, text = self.ui.s, self.ui.text
        x, y, w, h = self.board.camera.view
        who = self.thinking_words(d)
        width = min(text.width(who, 14) + s(24), w - s(20))
        rect = pygame.Rect(x + s(10), y + h - s(46), width, s(36))
        draw_panel(surface, rect, theme.PANEL, self.side_colour(d.side), alpha=230)
        text.blit(
            surface, text.fit(who, 14, width - s(24)), (rect.x + s(12), rect.centery), 14, theme.TEXT, anchor="midleft"
        )

    def computer_turn(self, d: Decision) -> None:
        """Another seat decides at its own machine (the status bar says whom the table waits for)."""

    def cmd_undo(self) -> bool:
        """Ctrl+Z: not at a table — the host rolled and told every seat."""
        self.set_status("A table's decisions stand: undo is a hotseat game's.", error=True)
        return False

    def open_gm_panel(self) -> Transition | None:
        """G: the GM's panel, at the GM's seat only (no curtain: this machine is the GM's own)."""
        battle = self.battle
        gm_here = self.session.seat == "gm" or (battle.setup.gm is not None and battle.setup.gm == self.session.seat)
        if not gm_here:
            self.set_status("Only the GM's seat opens the GM's panel.", error=True)
            return None
        from game.ui.gm_panel import GMPanel

        return Push(GMPanel(self.ui, self, self._after_gm_panel))

    def leave_to_title(self) -> Transition:
        """Back to the title: this client leaves the table (its seat waits for it at the host)."""
        self.session.close()
        if self.on_leave is not None:
            self.on_leave()
        return self.to_title()
