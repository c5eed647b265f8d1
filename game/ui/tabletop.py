"""What the battle screen adds to the bare board to make it a tabletop: the made tokens and a GM's own
pictures (``token_art``, ``token_images``), motion and dice (``animation``) and sound (``sound``).

The battle screen holds one ``Tabletop`` and calls it at a few points: ``token_fields`` when it builds a
figure's token view, ``after_change`` with the events of each decision, ``view`` and ``draw`` around the
board's drawing, ``update`` every frame and ``on_event`` first of all events. It only reads the battle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from game.engine import events as ev
from game.engine.battle import Battle, Figure
from game.engine.characters import Character
from game.ui.animation import Timeline
from game.ui.sound import shared_sounds
from game.ui.token_art import look_for
from game.ui.token_images import TokenImages, session_tokens
from game.ui.view import BoardView, TokenView

if TYPE_CHECKING:
    from game.session import BattleSession


class Tabletop:
    """Tokens, motion, dice and sound for one battle screen (see the module docstring)."""

    def __init__(self, ui: Any, board: Any, session: BattleSession) -> None:
        self.ui = ui
        self.board = board
        try:
            self.images = session_tokens(session.setup_data, session.loaded)
        except (OSError, ValueError, TypeError):
            self.images = TokenImages()
        board.images = self.images.surface
        self.timeline = Timeline(lambda: float(ui.settings.animation_speed))
        self._looks: dict[str, tuple[Character, str]] = {}

    @property
    def messages(self) -> list[str]:
        """Sentences for the GM about token pictures that fell back or were refused (each file once)."""
        return self.images.messages

    def token_fields(self, battle: Battle, f: Figure) -> dict[str, Any]:
        """The token view's art and state fields for a figure: look, picture, posture, concentration, held."""
        cached = self._looks.get(f.id)
        if cached is None or cached[0] is not f.character:  # a GM's edit gives the figure a new character
            cached = self._looks[f.id] = (f.character, look_for(f.character))
        look = cached[1]
        return {
            "look": look,
            "image": self.images.image_of(f.id),
            "posture": f.posture,
            "concentrating": battle.casting_of(f.id) is not None,
            "held": f.held and not f.out,
        }

    def after_change(self, events: Sequence[ev.Event], tokens: Sequence[TokenView]) -> None:
        """A decision's events: queue what they show, play what they sound like. No events (an undo, a
        loaded battle): the battle was replaced, so whatever was still showing ends."""
        if not events:
            self.timeline.skip()
            return
        self.timeline.feed(events, tokens)
        shared_sounds(self.ui.settings).play_events(events)

    def view(self, view: BoardView) -> BoardView:
        """The board's view with gliding figures left to ``draw``."""
        return self.timeline.filter_view(view)

    def draw(self, surface: pygame.Surface) -> None:
        """This frame's motion and dice over the drawn board."""
        self.timeline.draw(surface, self.board)

    @property
    def active(self) -> bool:
        """Whether something is being shown (the screen keeps drawing frames, computers wait)."""
        return self.timeline.active

    def update(self, dt: float) -> bool:
        """Advance the animations; True while they run."""
        return self.timeline.update(dt)

    def on_event(self, event: pygame.event.Event) -> bool:
        """A click while something is shown skips it (and is used up by that); every other input passes."""
        if self.timeline.active and event.type == pygame.MOUSEBUTTONDOWN:
            self.timeline.skip()
            return True
        return False


__all__ = ["Tabletop"]
