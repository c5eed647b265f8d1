"""What the battle screen's parts share: the bases of the Protocols through which they see the screen
(``UiHost``, ``PartHost``), the screen as the GM's panel sees it (``GMScreen``), the odds bar, the line of fire
as the board draws it, a few constants.

Each part of ``game.ui.battle`` receives the screen as a narrow Protocol of its own, declared in the part's
module next to it (``DeclarationHost`` in ``declaration``, ``OverlayHost`` in ``overlays`` ...): exactly what that
part uses, nothing more. What the parts share that is not drawn — the selection, the decision being put
together, the cached questions of the battle — is the model (``game.ui.battle.model``). Nothing here imports a
part or the screen, so the imports run one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

import pygame

from game.colours import RGB
from game.engine import actions as act
from game.engine.battle import Battle, Decision, Seat
from game.engine.odds import Outcome
from game.engine.stun_sheet import result_of
from game.engine.wounds import WoundLevel
from game.session import BattleSession
from game.ui import theme
from game.ui.battle.model import BattleModel
from game.ui.battle.words import Entry
from game.ui.board import Board
from game.ui.mapdata import BoardData
from game.ui.preview import AttackPreview, SpellPreview, percent
from game.ui.screen import UiContext
from game.ui.view import LineOfFireView, LofMark, TokenView
from game.ui.widgets import TextCache

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


class UiHost(Protocol):
    """What every part of the battle screen sees of it: the window's context (scale, text, settings, palette).
    The members of the parts' Protocols are the battle screen's own (``game.ui.battle.screen``), documented
    there."""

    @property
    def ui(self) -> UiContext: ...


class PartHost(UiHost, Protocol):
    """What a part that reads the battle sees of the screen: the window's context and the model (the selection,
    the decision being put together, the cached questions; ``game.ui.battle.model``). Each part's own Protocol
    adds what else it uses, and nothing more."""

    @property
    def model(self) -> BattleModel: ...


class BoardHost(PartHost, Protocol):
    """What a part drawing on or beside the board sees of the screen besides: the board (its camera) and the
    map as the board draws it (hexes and facings named in its layout)."""

    @property
    def board(self) -> Board: ...
    @property
    def data(self) -> BoardData: ...


class DecisionHost(PartHost, Protocol):
    """What a panel taking the decision at hand sees of the screen: the decision a person takes here, the door
    it goes through, the status bar, and the board's view to rebuild after an edit."""

    def my_decision(self) -> Decision | None: ...
    def send(self, action: act.Action, seat: Seat | None = None) -> bool: ...
    def set_status(self, text: str, error: bool = False, *, lasting: bool = False) -> None: ...
    def invalidate(self) -> None: ...


class GMScreen(BoardHost, Protocol):
    """The battle screen as the GM's panel and its dialogs see it (``game.ui.gm_panel``, ``game.ui.gm_dialog``,
    ``game.ui.gm_reinforce``): the battle, the door a GM action goes through (its refusal in ``status``), the
    board drawn underneath a reinforcement being placed."""

    @property
    def session(self) -> BattleSession: ...
    @property
    def battle(self) -> Battle: ...
    @property
    def status(self) -> str: ...
    @property
    def pauses_for_gm(self) -> bool: ...
    def send(self, action: act.Action, seat: Seat | None = None) -> bool: ...
    def invalidate(self) -> None: ...
    def tokens(self) -> list[TokenView]: ...
    def zoom(self, steps: int, pos: tuple[int, int] | None = None) -> bool: ...
    def draw(self, surface: pygame.Surface) -> None: ...
    def on_resize(self, size: tuple[int, int]) -> None: ...


def line_of_fire_view(battle: Battle, pv: AttackPreview | SpellPreview) -> LineOfFireView:
    """The line of fire of an attack's (or a spell's) odds as the board draws it: blocked, cover and bystander
    marks (FTC 7)."""
    line = pv.line
    assert line is not None
    marks: list[LofMark] = []
    at_risk = {battle.figure(b.figure).hex: b for b in pv.bystanders if b.chance}  # a miss may strike them
    covered = False
    for lh in line.hexes:
        if lh.hex in (line.firer, line.target):
            continue
        blocked = battle.terrain.sight_blocked(lh.hex)
        if line.blocked_at == lh.hex:
            marks.append(LofMark(lh.hex, "blocked", "blocked"))
        elif lh.hex in at_risk:
            marks.append(LofMark(lh.hex, "bystander", percent(at_risk[lh.hex].chance)))
        elif blocked and not lh.interior:
            # FTC 6.5.3 read in docs/rulings.md: a blocking hex the line only grazes is partial cover (named once)
            marks.append(LofMark(lh.hex, "cover", "" if covered else "partial cover"))
            covered = True
        else:
            marks.append(LofMark(lh.hex, "clear" if lh.interior else "edge"))
    for hx, b in at_risk.items():
        if not any(m.hex == hx for m in marks):
            marks.append(LofMark(hx, "bystander", percent(b.chance)))
    # a line along hex edges touches two rows of hexes: said once, not on every hex it touches
    edges = sum(1 for lh in line.hexes if not lh.interior and lh.hex not in (line.firer, line.target))
    note = "along hex edges: both sides' hexes are on the line" if edges >= 2 else ""
    return LineOfFireView(line.firer, line.target, tuple(marks), line.blocked, note)


def paint_distribution(ui: UiContext, surf: pygame.Surface, dist: Any, rect: pygame.Rect) -> int:
    """A stacked bar of an attack's (or a bolt's) outcomes: miss, then each wound level, or each stun a stunning
    blow makes (*Fudge* 4.62) (the share that falls on the head, an arm, a leg, a hand or a foot noted, and the
    chance of crippling a limb, FTC 6.6), with labels under it, and the chance the blow takes the target out of
    the fight (FTC 6.4: the box it would mark on the target's sheet as it is is Incapacitated or worse); the y
    under the labels."""
    s, text = ui.s, ui.text
    groups: dict[int, Fraction] = {}
    names: dict[int, str] = {-1: "miss", 0: "no wound"}
    places: dict[int, dict[str, Fraction]] = {}
    crippling = Fraction(0)
    out = Fraction(0)
    for o, p in dist.items():
        if o.out:
            out += p
        assert isinstance(o, Outcome)
        k = -1 if not o.hit else (0 if o.level is None else int(o.level))
        if o.hit and o.kind == "stun":  # Fudge 4.62: the stun the blow makes on the target's stun sheet
            k = 0 if o.marked is None else int(o.marked)
            names[k] = result_of(o.marked) or "no effect"
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
        name = names.get(k) or str(WoundLevel(k))
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


def paint_notes(
    ui: UiContext, surf: pygame.Surface, notes: Sequence[str], x: int, y: int, width: int, bottom: int
) -> int:
    """The odds' small print: ``notes`` joined with " · ", wrapped to ``width`` from ``y`` down to ``bottom``;
    what does not fit is cut with "…" after a whole word (``fit_words``), never dropped unsaid. Returns the y
    under the last line."""
    text = ui.text
    room = max(0, (bottom - y - ui.s(4)) // text.line_height(11))
    lines = text.wrap(" · ".join(notes), 11, width)
    if len(lines) > room > 0:
        lines = [*lines[: room - 1], fit_words(text, " ".join(lines[room - 1 :]), 11, width)]
    for part in lines[:room]:
        text.blit(surf, part, (x, y), 11, theme.TEXT_MUTED)
        y += text.line_height(11)
    return y


__all__ = [
    "AI_DELAY",
    "LOG_DELAY",
    "RGB",
    "TRAITS",
    "AttackPreview",
    "BoardHost",
    "DecisionHost",
    "Entry",
    "GMScreen",
    "PartHost",
    "UiHost",
    "action_side",
    "fit_words",
    "line_of_fire_view",
    "paint_distribution",
    "paint_notes",
]
