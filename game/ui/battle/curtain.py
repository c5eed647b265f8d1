"""The hotseat hand-off: a curtain that hides the battle until the next player (or the GM) sits down.

Whether a hand-off needs one is the player's setting (``Settings.hand_off``): at every change of seat, never,
or — the default — only when the next seat may see something the last one may not
(``game.engine.seats.sees_more``: a secret declaration, the GM's hand) or is about to choose a stance in
secret (*Fudge* 4.32), so that the last player steps away before it shows.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.engine.battle import Battle, Decision, Seat
from game.engine.seats import sees_more
from game.ui import theme
from game.ui.battle.common import RGB
from game.ui.screen import Pop, Screen, Transition, UiContext


def curtain_needed(policy: str, battle: Battle, last: Seat, seat: Seat, decision: Decision | None = None) -> bool:
    """Whether the hand-off from ``last`` to ``seat`` goes behind a curtain under ``policy`` ("always",
    "secrets" or "never"); ``decision`` is what ``seat`` decides next, if a side's decision. Under "secrets":
    when ``seat`` may see what ``last`` may not (*Fudge* 4.1, 4.32), or when it is to declare in secret."""
    if seat == last or policy == "never":
        return False
    if policy == "always":
        return True
    secret_turn = battle.options.secret_stances and decision is not None and decision.reason == "declare"
    return secret_turn or sees_more(battle, seat, last)


class CurtainScreen(Screen):
    """Hotseat hand-off: hides the board until the next player confirms."""

    def __init__(
        self, ui: UiContext, side_name: str, colour: RGB, then: Callable[[], Transition | None] | None = None
    ) -> None:
        super().__init__(ui)
        self.side_name = side_name
        self.colour = colour
        self.then = then
        """What follows the curtain (the GM's panel behind the GM's curtain), if anything."""

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Enter or a click lifts the curtain (F1 and Esc are left to the app and do nothing here). Space does not:
        it is the battle's "stay", and a second press must not land there."""
        keyed = event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
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
        lines = text.wrap(f"Pass the computer to {self.side_name}", 34, w - s(48), bold=True)
        if len(lines) > 2:  # a very long side name: two lines, the second cut with "…"
            lines = [lines[0], text.fit(" ".join(lines[1:]), 34, w - s(48), True)]
        lh = text.line_height(34, True)
        for i, line in enumerate(lines):
            y = h // 2 - s(30) + (i - (len(lines) - 1) / 2) * lh
            text.blit(surface, line, (w // 2, round(y)), 34, theme.TEXT, bold=True, anchor="center")
        text.blit(
            surface, "click or press Enter when ready", (w // 2, h // 2 + s(30)), 18, theme.TEXT_MUTED, anchor="center"
        )
