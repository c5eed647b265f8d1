"""The game window and its main loop.

``run()`` opens a resizable window (1280×720 the first time, then the size the player left it at), shows the
title screen — or, given a map, the board straight away — and loops: wait for events (sleeping while nothing
happens), let the top screen turn them into transitions, redraw only when something changed. Any error
inside a screen becomes a dialog, never a traceback: the game keeps running (docs/architecture.md "Errors a person can
act on"). The game's own errors are shown where they happen; anything else is a crash (``game.ui.crash``): a report is
written, the stack goes back to the title, and the player may continue from the autosave.
With ``screenshot``/``frames`` it draws that many frames, saves a PNG and exits (the screenshots
of ``docs/playing.md``, tests).
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from game.ui import theme
from game.ui.crash import crash_dialog, is_own_error, write_crash_report
from game.ui.dialogs import MessageDialog, describe_error
from game.ui.mapdata import BoardData, generated_field, open_map
from game.ui.screen import Home, Pop, Push, Quit, Replace, Screen, Transition, UiContext
from game.ui.screens import MENU_HELP_KEYS, BattleSetup, HelpOverlay, TitleScreen
from game.ui.settings import Settings, config_dir, load_settings, save_settings
from game.ui.widgets import TextCache

if TYPE_CHECKING:
    from game.session import Session

WINDOW_TITLE = "Fudge Tactics — hex-grid combat for Fudge"
IDLE_WAIT_MS = 500
"""How long the loop sleeps in pygame.event.wait when nothing is animating."""
BUSY_FPS = 60


def project_root() -> Path:
    """The folder holding main.py, maps/ and assets/."""
    return Path(__file__).resolve().parents[2]


class App:
    """The window, the screen stack and the loop."""

    def __init__(
        self,
        *,
        config: Path | None = None,
        maps_dir: Path | None = None,
        size: tuple[int, int] | None = None,
        seed: int | None = None,
        roster_path: str | None = None,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        self.config = config or config_dir()
        settings = load_settings(self.config)
        if size is not None:
            settings = settings.with_window_size(size)
        self.seed = seed
        self.roster_path = roster_path
        pygame.display.set_caption(WINDOW_TITLE)
        self.window = pygame.display.set_mode(settings.window_size, pygame.RESIZABLE)
        self.ui = UiContext(
            settings,
            TextCache(settings.ui_scale),
            self.config,
            maps_dir or project_root() / "maps",
            save_settings=self._persist,
        )
        self.ui.open_save = self.open_save
        self.ui.open_table = self.open_table
        self.ui.host_table = self.host_table
        self.stack: list[Screen] = []
        self._laid_out_at = settings.ui_scale
        """The UI scale the screens were last laid out at (a new one lays the whole stack out again)."""
        self.running = True
        self.dirty = True
        self.frames_drawn = 0
        self._key_that_moved = ""
        """The character of the key whose press just opened or closed a screen: its text is not typed there."""
        self.clock = pygame.time.Clock()
        self.push(TitleScreen(self.ui, self.start_battle))

    # --- settings ---------------------------------------------------------------------------------
    def _persist(self, settings: Settings) -> None:
        save_settings(settings, self.config)
        if settings.ui_scale != self._laid_out_at:  # every screen on the stack, not only the top, lays out anew
            self._laid_out_at = settings.ui_scale
            for screen in self.stack:
                screen.on_resize(self.size)
        self.dirty = True

    @property
    def size(self) -> tuple[int, int]:
        """The window's current size."""
        surface = pygame.display.get_surface()
        return surface.get_size() if surface is not None else self.ui.settings.window_size

    # --- the stack --------------------------------------------------------------------------------
    @property
    def top(self) -> Screen:
        """The screen receiving input."""
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        """Put a screen on top."""
        self.stack.append(screen)
        screen.on_enter(self.size)
        self.dirty = True

    def pop(self) -> None:
        """Remove the top screen (the last one never goes: closing it quits)."""
        if len(self.stack) <= 1:
            self.running = False
            return
        self.stack.pop()
        self.top.on_enter(self.size)
        self.dirty = True

    def apply(self, transition: Transition | None) -> None:
        """Carry out what a screen asked for."""
        if transition is None:
            return
        if isinstance(transition, Push):
            self.push(transition.screen)
        elif isinstance(transition, Pop):
            self.pop()
            self.apply(transition.then)
        elif isinstance(transition, Replace):
            self.stack.pop()
            self.push(transition.screen)
        elif isinstance(transition, Home):
            self.stack.clear()
            self.push(transition.screen)
        elif isinstance(transition, Quit):
            self.quit()

    def quit(self) -> None:
        """Stop the loop ("Quit game" or the window's close button), the autosave of every battle in the
        stack first brought up to its last decision (a session writes it after each decision already; this
        retries one that failed)."""
        for screen in self.stack:
            write = getattr(getattr(screen, "session", None), "write_autosave", None)
            if callable(write):
                write()
        self.running = False

    def show_error(self, title: str, message: str) -> None:
        """Put an error dialog on top; the game goes on."""
        self.push(MessageDialog(self.ui, title, message, error=True))

    def failed(self, exc: Exception, where: str) -> None:
        """A screen raised: the game's own error is shown over the screen; anything else is a crash."""
        traceback.print_exception(exc, file=sys.stderr)
        if is_own_error(exc):
            self.show_error("Something went wrong", describe_error(exc, where))
        else:
            self.crash(exc, where)

    def crash(self, exc: BaseException, where: str) -> None:
        """An unexpected exception in a screen: write the crash report (traceback, version, the battle's save),
        leave the autosave as it is, and show the title screen with a dialog naming the report and offering
        the battle again from the autosave."""
        report = write_crash_report(exc, where, self.stack)
        self.stack.clear()
        self.push(TitleScreen(self.ui, self.start_battle))
        self.push(crash_dialog(self.ui, exc, report, where, self.to_title, self.continue_autosave))

    def continue_autosave(self) -> Transition:
        """The battle of the autosave on screen, or a dialog saying why it cannot be opened."""
        try:
            return Push(self.open_save(self.ui.autosave_path()))
        except Exception as exc:  # a bad autosave is a sentence too
            return Push(
                MessageDialog(
                    self.ui, "Cannot open the autosave", describe_error(exc, "Loading the autosave"), error=True
                )
            )

    # --- battles --------------------------------------------------------------------------------
    def open_board(self, map_path: str | Path | None) -> Screen:
        """The plain board viewer for a map file (None: a generated field). Raises when the map is bad."""
        from game.ui.viewer import ViewerScreen

        data: BoardData = generated_field() if map_path is None else open_map(map_path, grid=self.ui.settings.show_grid)
        return ViewerScreen(self.ui, data, self.to_title)

    def open_battle(self, setup: BattleSetup) -> Screen:
        """A new battle on screen: ``game.session.new_session`` with the setup's choices (raises on a bad
        map, roster or setup; the caller turns that into a dialog)."""
        from game.ui.battle_screen import BattleScreen

        return BattleScreen(self.ui, self.new_session(setup), self.to_title)

    def new_session(self, setup: BattleSetup, *, autosave: bool = True) -> Session:
        """``game.session.new_session`` with the New battle screen's choices (raises on a bad map, roster or
        setup)."""
        from game.engine.battle import RuleOptions
        from game.session import new_session

        controllers: dict[str, str] | None = dict(setup.side_controllers) or None
        if controllers is None and setup.controllers:
            from game.ui.screens import map_sides

            assert setup.map_path is not None
            sides, _ = map_sides(setup.map_path, setup.roster_path)
            controllers = {sc.id: c for sc, c in zip(sides, setup.controllers, strict=False)}
        if controllers:
            controllers = {k: ("tactical" if v == "computer" else v) for k, v in controllers.items()}
        session = new_session(
            setup.map_path,
            setup.roster_path,
            seed=setup.seed if setup.seed is not None else self.seed,
            controllers=controllers,
            options=setup.options or RuleOptions(),
            rules_name=setup.rules_name,
            placements=list(setup.placements) if setup.placements is not None else None,
            gm=setup.gm,
            autosave=autosave,
        )
        return session

    def host_table(self, setup: BattleSetup, public: bool = False) -> Transition | None:
        """New battle's "Host a table": deploy, then serve the battle from this game (the other human sides
        and the GM's seat open to players at other computers, the computer sides played here) and take the
        first human seat at it. A failure is a dialog; the game goes on."""
        if setup.deploy and setup.placements is None:
            from game.ui.deploy_screen import DeployScreen

            return Push(DeployScreen(self.ui, setup, lambda placed: self.host_table(placed, public)))
        try:
            return Push(self._hosted_screen(setup, public))
        except Exception as exc:  # a bad map, a port nobody may use: a sentence, not a crash
            name = setup.map_path.name if setup.map_path is not None else "the map"
            return Push(
                MessageDialog(self.ui, "Cannot host the table", describe_error(exc, f"Hosting {name}"), error=True)
            )

    def _hosted_screen(self, setup: BattleSetup, public: bool) -> Screen:
        import time

        from game.engine.players import make_player
        from game.net.host import HostThread, lan_address
        from game.net.remote import RemoteSession
        from game.net.table import Table
        from game.ui.battle.table import TableScreen

        session = self.new_session(setup, autosave=False)
        title = str(session.setup_data.get("title", "table")).replace(" ", "_").replace("/", "_")
        save = self.ui.saves_dir() / f"table-{title}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        table = Table.start(session, save_path=save, say=lambda _: None)
        humans = [sid for sid, side in table.battle.sides.items() if side.controller == "human"]
        for i, (sid, side) in enumerate(table.battle.sides.items()):
            if side.controller != "human":
                table.computers[sid] = make_player(side.controller, i + 1)
        table.save()
        server = HostThread(table, public=public)
        port = server.start()
        seat = humans[0] if humans else ("gm" if table.battle.setup.gm == "referee" else "watch")
        try:
            remote = RemoteSession.join(f"ws://127.0.0.1:{port}", "the host", seat)
        except Exception:
            server.stop()
            raise
        where = f"{lan_address() if public else '127.0.0.1'}:{port}"
        screen = TableScreen(self.ui, remote, self.to_title, on_leave=server.stop, hosting=server)
        screen.join_hint = f" · others join with: python main.py join {where}"
        screen.set_status(f"Hosting at {where}, saved to {save.name}{screen.join_hint}", lasting=True)
        return screen

    def open_save(self, path: Path) -> Screen:
        """A saved battle on screen (raises ``SaveError`` with its sentence)."""
        from game.ui.battle_screen import open_battle_save

        return open_battle_save(self.ui, path, self.to_title)

    def open_table(self, session: Any) -> Screen:
        """The battle screen at a networked table's seat just taken (``game.net.remote.RemoteSession``)."""
        from game.ui.battle.table import TableScreen

        return TableScreen(self.ui, session, self.to_title)

    def to_title(self) -> Transition:
        """Back to a fresh title screen (every screen above it closed when the transition is applied)."""
        return Home(TitleScreen(self.ui, self.start_battle))

    def start_battle(self, setup: BattleSetup) -> Transition | None:
        """Open a battle for a setup; a bad map, roster or setup gives a dialog instead."""
        try:
            if setup.map_path is None:
                return Push(self.open_board(None))
            if setup.deploy and setup.placements is None:
                from game.ui.deploy_screen import DeployScreen

                return Push(DeployScreen(self.ui, setup, self.start_battle))
            return Push(self.open_battle(setup))
        except Exception as exc:  # any failure of a player's file becomes a sentence, not a crash
            name = setup.map_path.name if setup.map_path is not None else "the map"
            return Push(
                MessageDialog(self.ui, "Cannot start the battle", describe_error(exc, f"Opening {name}"), error=True)
            )

    # --- events -----------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> None:
        """One event: window events here, the rest to the top screen."""
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            size = self.size
            self.ui.settings = self.ui.settings.with_window_size(size)
            for screen in self.stack:
                screen.on_resize(size)
            self.dirty = True
            return
        if event.type == pygame.WINDOWLEAVE:  # the pointer left the window: hover hints go with it
            leave = getattr(self.top, "pointer_left", None)
            if leave is not None:
                leave()
            if self.top.tooltip is not None:
                self.top.tooltip.hover("", (0, 0))
            self.dirty = True
            return
        if event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWFOCUSGAINED, pygame.WINDOWSHOWN):
            self.dirty = True
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            if isinstance(self.top, HelpOverlay):
                self.pop()
            else:
                self.push(HelpOverlay(self.ui, getattr(self.top, "help_keys", MENU_HELP_KEYS)))
            return
        if event.type not in (
            pygame.KEYDOWN,
            pygame.KEYUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEWHEEL,
            pygame.TEXTINPUT,
        ):
            return
        moved_by, self._key_that_moved = self._key_that_moved, ""
        if event.type == pygame.TEXTINPUT and moved_by and event.text == moved_by:
            return  # "J" opened Join a table: its "j" is not the first letter of the address
        try:
            transition = self.top.on_event(event)
            if event.type == pygame.KEYDOWN and transition is not None:
                self._key_that_moved = getattr(event, "unicode", "") or ""
            self.apply(transition)
        except Exception as exc:  # a bug must not throw the player out of a battle
            self.failed(exc, "That action")
        self.dirty = True

    def pump(self, dt: float = 1 / 60) -> bool:
        """Handle every queued event, advance timers, draw if needed; True when a frame was drawn."""
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return False
        return self.tick(dt)

    def tick(self, dt: float) -> bool:
        """Advance the top screen's timers and redraw when anything changed."""
        try:
            if self.top.update(dt):
                self.dirty = True
            take = getattr(self.top, "take_transition", None)
            if take is not None:
                self.apply(take())
        except Exception as exc:
            self.failed(exc, "Updating the screen")
        if self.dirty:
            self.draw()
            return True
        return False

    def draw(self) -> None:
        """Draw the stack from its topmost opaque screen up, and show it."""
        surface = pygame.display.get_surface()
        if surface is None:
            return
        try:
            self._paint(surface)
        except Exception as exc:  # a screen that cannot draw itself: a crash, then the title is drawn
            self.crash(exc, "Drawing the screen")
            self._paint(surface)
        pygame.display.flip()
        self.dirty = False
        self.frames_drawn += 1

    def _paint(self, surface: pygame.Surface) -> None:
        first = max((i for i, s in enumerate(self.stack) if s.opaque), default=0)
        if not self.stack[first].opaque:
            surface.fill(theme.BACKGROUND)
        for screen in self.stack[first:]:
            screen.draw(surface)

    @property
    def stopped(self) -> bool:
        """Whether the loop should end (a screen or the window asked to quit)."""
        return not self.running

    def busy(self) -> bool:
        """Whether the top screen is animating or waiting on a timer (no sleeping then)."""
        return bool(getattr(self.top, "busy", False))

    def loop(self, frames: int | None = None) -> None:
        """Run until quit (or until ``frames`` frames are drawn): sleep while idle, 60 fps while busy."""
        self.clock.tick()
        while self.running:
            if frames is not None:
                self.dirty = True
                events = pygame.event.get()
            elif self.dirty or self.busy():
                events = pygame.event.get()
            else:
                first = pygame.event.wait(IDLE_WAIT_MS)
                events = [first, *pygame.event.get()] if first.type != pygame.NOEVENT else []
            for event in events:
                self.handle(event)
                if self.stopped:
                    break
            if self.stopped:
                break
            dt = self.clock.tick(BUSY_FPS) / 1000.0
            self.tick(dt)
            if frames is not None and self.frames_drawn >= frames:
                break

    def close(self) -> None:
        """Remember the window size and shut pygame's display down."""
        self.ui.settings = self.ui.settings.with_window_size(self.size)
        save_settings(self.ui.settings, self.config)
        pygame.display.quit()


def run(
    *,
    map_path: str | None = None,
    roster_path: str | None = None,
    seed: int | None = None,
    screenshot: str | None = None,
    frames: int | None = None,
    rules: Any = None,
) -> int:
    """Play: open the window on the title screen (or straight on ``map_path``); returns the exit status.

    ``screenshot``: draw ``frames`` frames (default 3), save the window as this PNG and exit;
    ``frames`` alone: draw that many frames and exit (a smoke test). ``rules``: the rule options the command
    line gave (``game.rules_file.Rules``): the battle on ``map_path`` plays by them, New battle starts with them.
    """
    app = App(seed=seed, roster_path=roster_path)
    app.ui.rules = rules
    try:
        if map_path is not None:
            app.apply(
                app.start_battle(
                    BattleSetup(
                        Path(map_path),
                        Path(roster_path) if roster_path else None,
                        seed=seed,
                        deploy=False,
                        options=rules.options if rules is not None else None,
                        rules_name=rules.name if rules is not None else "",
                    )
                )
            )
        if screenshot is not None and frames is None:
            frames = 3
        app.loop(frames)
        if screenshot is not None:
            app.draw()
            surface = pygame.display.get_surface()
            if surface is not None:
                pygame.image.save(surface, screenshot)
    finally:
        app.close()
    return 0


def run_table(session: Any) -> int:
    """``python main.py join`` without ``--players``: the game window at a networked table's seat."""
    app = App()
    try:
        app.apply(Push(app.open_table(session)))
        app.loop(None)
    finally:
        session.close()
        app.close()
    return 0
