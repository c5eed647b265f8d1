"""The screen stack: each screen turns events into the next screen (python-tcod tutorial's ``State``).

A screen answers ``on_event(event)`` with a transition (push a screen over it, pop itself, replace itself,
quit) or None; ``update(dt)`` advances timers and says whether anything visible changed; ``draw(surface)``
paints it. A screen that is not ``opaque`` (a dialog, the help overlay) is drawn over the ones below it.
``UiContext`` carries what every screen shares: settings, the text cache, the palette, folders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from game.colours import RGB, hex_colour
from game.ui.settings import Settings
from game.ui.theme import Palette, palette
from game.ui.widgets import Button, TextCache, Tooltip


@dataclass
class UiContext:
    """Shared state of the interface: settings, fonts and folders."""

    settings: Settings
    text: TextCache
    config_dir: Path
    maps_dir: Path
    save_settings: Callable[[Settings], None] = field(default=lambda s: None)
    open_save: Callable[[Path], Screen] | None = None
    """Hook for the battle record (a later task): a save file -> the battle screen showing it."""
    open_table: Callable[[Any], Screen] | None = None
    host_table: Callable[[Any, bool], Any] | None = None
    """Hook for New battle's "Host a table": (the battle setup, open to the network?) -> a transition."""
    """Hook for a networked table: a seat just taken (``game.net.remote.RemoteSession``) -> its battle screen."""
    rules: Any = None
    """The rule options the command line gave (``game.rules_file.Rules``, ``play --rules``): New battle starts
    with them; None: FTC as written."""

    @property
    def palette(self) -> Palette:
        """The palette the settings ask for (normal or colour-blind safe)."""
        return palette(self.settings.colour_blind)

    def side_colour(self, colour: str | None, index: int) -> RGB:
        """A side's colour on screen: ``colour`` as its roster writes it (``"#rrggbb"``), or the palette's
        colour for the side at ``index`` when the settings ask for colour-blind-safe colours or the side
        has none."""
        sides = self.palette.sides
        if self.settings.colour_blind or colour is None:
            return sides[index % len(sides)]
        return hex_colour(colour, sides[index % len(sides)])

    def s(self, px: float) -> int:
        """A length in pixels at the player's UI scale."""
        return max(1, round(px * self.settings.ui_scale))

    def autosave_path(self) -> Path:
        """Where the running battle is autosaved (Continue loads it): ``game.session.autosave_path()``."""
        from game.session import autosave_path

        return autosave_path()

    def saves_dir(self) -> Path:
        """Where Ctrl+S puts saved battles: ``game.session.data_dir() / "saves"``."""
        from game.session import data_dir

        return data_dir() / "saves"

    def has_autosave(self) -> bool:
        """Whether Continue has something to continue."""
        return self.autosave_path().is_file()

    def has_saves(self) -> bool:
        """Whether Load has anything to offer."""
        folder = self.saves_dir()
        return self.has_autosave() or (folder.is_dir() and any(folder.glob("*.json")))

    def update_settings(self, settings: Settings) -> None:
        """Adopt new settings (rescaling text) and persist them."""
        if settings.ui_scale != self.settings.ui_scale:
            self.text.set_scale(settings.ui_scale)
        self.settings = settings
        self.save_settings(settings)


class Screen:
    """One mode of the interface on the stack."""

    opaque: bool = True
    """Whether this screen covers the ones below it entirely (False for dialogs and overlays)."""
    tooltip: Tooltip | None = None
    """The screen's hover hint, if it has one: its timer runs in ``update`` and its delay keeps it ``busy``."""

    def __init__(self, ui: UiContext) -> None:
        self.ui = ui
        self.size: tuple[int, int] = (0, 0)

    def on_enter(self, size: tuple[int, int]) -> None:
        """Called when the screen becomes the top of the stack (again)."""
        self.on_resize(size)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Lay out for a window of this size."""
        self.size = size

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """React to one event; return the transition it causes, if any."""
        return None

    @property
    def busy(self) -> bool:
        """Whether the screen waits on a timer (a tooltip's delay), so the loop must not sleep."""
        return self.tooltip is not None and self.tooltip.pending

    def update(self, dt: float) -> bool:
        """Advance timers by dt seconds (the tooltip's); True when the screen must be redrawn."""
        return self.tooltip.update(dt) if self.tooltip is not None else False

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the screen."""


@dataclass(frozen=True)
class Push:
    """Put a screen on top of the current one."""

    screen: Screen


@dataclass(frozen=True)
class Pop:
    """Remove the top screen, then apply ``then`` (e.g. the choice a dialog reports)."""

    then: Transition | None = None


@dataclass(frozen=True)
class Replace:
    """Swap the top screen for another."""

    screen: Screen


@dataclass(frozen=True)
class Home:
    """Close every screen and show this one (back to the title). Applied when it is carried out, so it may
    follow a Pop: the stack is not touched while the button that asks for it is still being clicked."""

    screen: Screen


@dataclass(frozen=True)
class Quit:
    """Close the game."""


Transition = Push | Pop | Replace | Home | Quit
TRANSITIONS = (Push, Pop, Replace, Home, Quit)
"""Every kind of screen change, for ``isinstance``."""


def transition_of(result: object) -> Transition | None:
    """A button's result as a screen change: the result itself when it is one (``Push``, ``Pop``…), else None
    (a button whose action only changed something on the screen)."""
    return result if isinstance(result, TRANSITIONS) else None


def press(buttons: Iterable[Button], event: pygame.event.Event) -> Button | None:
    """Show ``event`` to each button in turn (hover, press, release) and return the first one it clicked
    (its ``result`` set), or None; the buttons are listed first, so an action may change the list."""
    for b in list(buttons):
        b.handle(event)
        if b.result is not None:
            return b
    return None
