"""What the battle screen's parts share: the declaration being edited, the screen as the parts see it
(``BattleHost``), the odds bar, a few constants.

Every part of ``game.ui.battle`` holds the screen as a ``BattleHost`` and talks to the others only through
it; the GM's panel and its dialogs (``game.ui.gm_panel``, ``game.ui.gm_dialog``) see the screen the same
way. Nothing here imports a part or the screen, so the imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

import pygame

from game.colours import RGB
from game.engine import actions as act
from game.engine.battle import Battle, Decision, Seat
from game.engine.odds import Outcome
from game.engine.wounds import WoundLevel
from game.session import BattleSession
from game.ui import theme
from game.ui.battle.model import BattleModel
from game.ui.battle.words import Entry
from game.ui.board import Board
from game.ui.mapdata import BoardData
from game.ui.preview import AttackPreview, percent
from game.ui.screen import Transition, UiContext
from game.ui.tabletop import Tabletop
from game.ui.view import BoardView, HexFill, LineOfFireView, TokenView
from game.ui.widgets import Button, TextCache

HUMAN = "human"
AI_DELAY = 0.45
"""Seconds between two computer decisions at animation speed 1 (so a player can follow them)."""
LOG_DELAY = 0.22
"""Seconds between two new log entries at animation speed 1 (the round's resolution, entry by entry)."""
TRAITS = ("strength", "agility", "speed", "health", "perception", "reasoning", "will", "charisma")


def action_side(battle: Battle, action: act.Action) -> str | None:
    """The side that made a decision (from its figure or its side field); None for the GM's, so no
    player's undo takes back a GM decision."""
    if action.kind.startswith("gm_"):
        return None
    side = getattr(action, "side", None)
    if isinstance(side, str) and side:
        return side
    fid = getattr(action, "figure", None)
    if isinstance(fid, str) and fid in battle.figures:
        return battle.figures[fid].side
    return None


class BattleHost(Protocol):
    """The battle screen as its parts (and the GM's panel) see it: the state they share and the questions
    one part answers for another, asked through the screen."""

    ui: UiContext
    to_title: Callable[[], Transition]
    data: BoardData
    board: Board
    tabletop: Tabletop
    mouse: tuple[int, int]
    status: str
    status_error: bool
    buttons: list[Button]
    pauses_for_gm: bool
    """Whether the screen runs the battle itself, so that it may stop for the GM (not at a network table)."""

    @property
    def model(self) -> BattleModel:
        """The selection, the decision being put together and the cached questions of the battle."""
        ...

    @property
    def session(self) -> BattleSession:
        """The battle in play (the local session or a seat at a table)."""
        ...

    @property
    def battle(self) -> Battle:
        """The battle being played."""
        ...

    def decision(self) -> Decision | None:
        """Who must decide now."""
        ...

    def my_decision(self) -> Decision | None:
        """The decision when a person at the screen makes it and the log has caught up."""
        ...

    def is_human(self, side: str) -> bool:
        """Whether a person plays the side."""
        ...

    def is_computer(self, side: str) -> bool:
        """Whether a computer player decides for the side (the top bar says so)."""
        ...

    def side_colour(self, side: str) -> RGB:
        """The side's colour on screen."""
        ...

    @property
    def seat(self) -> Seat:
        """The seat at the screen: whose view the screen draws and from which its decisions are sent."""
        ...

    def gm_seated(self) -> bool:
        """Whether the GM sits at the screen now (the odds then count the dice the GM set by hand)."""
        ...

    def rebind(self, battle: Battle) -> None:
        """Show another state of the battle (after an undo)."""
        ...

    def send(self, action: act.Action, seat: Seat | None = None) -> bool:
        """Apply a decision taken from ``seat`` (default: the seat at the screen); False (and the sentence in
        the status bar) when the door refuses it."""
        ...

    def set_status(self, text: str, error: bool = False, *, lasting: bool = False) -> None:
        """Show a message in the status bar (until the next decision unless ``lasting``)."""
        ...

    def invalidate(self) -> None:
        """Something the board shows changed: rebuild its view on the next frame."""
        ...

    def tokens(self) -> list[TokenView]:
        """Every figure's token."""
        ...

    def board_view(self) -> BoardView:
        """What the board draws now."""
        ...

    def zoom(self, steps: int, pos: tuple[int, int] | None = None) -> bool:
        """Zoom the board around a point."""
        ...

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole battle screen."""
        ...

    def on_resize(self, size: tuple[int, int]) -> None:
        """Lay the screen out for a window size."""
        ...

    size: tuple[int, int]

    def panel_rect(self, d: Decision | None, top: bool | None = None) -> pygame.Rect:
        """Where the decision panel stands (at the top of the board, or the bottom)."""
        ...

    # --- answered by the board overlays
    def lof_view(self, pv: Any) -> LineOfFireView:
        """The line of fire of a preview, as the board draws it."""
        ...

    # --- answered by the spell panel
    def spell_overlays(self) -> tuple[list[HexFill], LineOfFireView | None]:
        """The board while a spell is chosen."""
        ...


def paint_distribution(ui: UiContext, surf: pygame.Surface, dist: Any, rect: pygame.Rect) -> int:
    """A stacked bar of an attack's (or a bolt's) outcomes: miss, then each wound level (the share that falls
    on the head, an arm, a leg, a hand or a foot noted, and the chance of crippling a limb, FTC 6.6), with
    labels under it, and the chance the blow takes the target out of the fight (FTC 6.4: the box it would mark
    on the target's sheet as it is is Incapacitated or worse); the y under the labels."""
    s, text = ui.s, ui.text
    groups: dict[int, Fraction] = {}
    places: dict[int, dict[str, Fraction]] = {}
    crippling = Fraction(0)
    out = Fraction(0)
    for o, p in dist.items():
        if o.out:
            out += p
        assert isinstance(o, Outcome)
        k = -1 if not o.hit else (0 if o.level is None else int(o.level))
        groups[k] = groups.get(k, Fraction(0)) + p
        if o.hit and o.location != "torso":  # FTC 6.6: the head, an arm, a leg, a hand or a foot
            spot = places.setdefault(k, {})
            spot[o.location] = spot.get(o.location, Fraction(0)) + p
        if o.crippled:
            crippling += p
    x = rect.x
    labels = []
    for k in sorted(groups):
        p = groups[k]
        wpx = round(float(p) * rect.width)
        colour = (70, 74, 88) if k == -1 else ui.palette.wound_colour(k)
        if wpx > 0:
            pygame.draw.rect(surf, colour, (x, rect.y, wpx, rect.height))
        name = "miss" if k == -1 else ("no wound" if k == 0 else str(WoundLevel(k)))
        where = ", ".join(f"{loc} {percent(q)}" for loc, q in places.get(k, {}).items())
        labels.append((f"{name} {percent(p)}" + (f" ({where})" if where else ""), colour))
        x += wpx
    if crippling:
        labels.append((f"limb crippled {percent(crippling)}", theme.DANGER))
    if out:  # the box each wound would mark on the target's sheet as it is (Fudge 4.57's roll-up included)
        labels.append((f"out of the fight {percent(out)}", theme.DANGER))
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


def fit_words(text: TextCache, line: str, size: int, room: int) -> str:
    """``line`` cut with "…" after its last whole word that fits (a word cut to a letter reads as nothing),
    or cut anywhere when not even its first word fits."""
    if text.width(line, size) <= room:
        return line
    words = line.split(" ")
    while len(words) > 1:
        words.pop()
        cut = " ".join(words).rstrip(",;:· ") + "…"
        if text.width(cut, size) <= room:
            return cut
    return text.fit(line, size, room)


__all__ = [
    "AI_DELAY",
    "LOG_DELAY",
    "RGB",
    "TRAITS",
    "AttackPreview",
    "BattleHost",
    "Entry",
    "action_side",
    "fit_words",
    "paint_distribution",
]
