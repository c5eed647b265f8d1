"""The board overlays of the battle screen: the tokens, the reachable bands and the planned path of a move
(FTC 5, 5.3), the targets, range rings, advance and retreat hexes and line of fire of a declaration
(FTC 6.1, 6.2, 7), zones of control of the selected and hovered figures.

The board view is rebuilt only when something it shows changed (the screen's ``invalidate``); the
movement bands are kept while only the mouse moves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

import pygame

from game.engine.battle import Decision, Figure
from game.engine.combat import Stance
from game.engine.hexgrid import Hex, distance, front_hexes
from game.engine.ranges import band_table
from game.engine.wounds import WoundLevel
from game.ui import theme
from game.ui.battle.common import RGB, PartHost, line_of_fire_view
from game.ui.battle.model import MOVE_REASONS, follow_hex
from game.ui.board import Board
from game.ui.large_tokens import large_end
from game.ui.preview import percent, weapon_named
from game.ui.tabletop import Tabletop
from game.ui.view import BoardView, HexFill, LineOfFireView, PathView, TokenView, ZocView

RANGE_COLOURS = [(90, 200, 110), (190, 210, 90), (240, 190, 60), (240, 130, 50), (220, 60, 50)]
RANGE_COLOURS_CB = [(86, 180, 233), (0, 158, 115), (240, 228, 66), (230, 159, 0), (213, 94, 0)]


class SpellFills(Protocol):
    """The spell panel as the overlays see it: the board while a spell is chosen."""

    def overlays(self) -> tuple[list[HexFill], LineOfFireView | None]: ...


class OverlayHost(PartHost, Protocol):
    """The battle screen as the overlays see it: the board they are drawn on, the tabletop's token art, the
    spell panel's fills while a spell is chosen, the decision a person takes here and the sides' colours."""

    @property
    def board(self) -> Board: ...
    @property
    def tabletop(self) -> Tabletop: ...
    @property
    def spells(self) -> SpellFills: ...
    def my_decision(self) -> Decision | None: ...
    def side_colour(self, side: str) -> RGB: ...


class BoardOverlays:
    """What the board draws over the map for the decision at hand."""

    def __init__(self, screen: OverlayHost) -> None:
        self.screen = screen
        self.model = screen.model
        self._tokens_cache: tuple[Any, list[TokenView]] | None = None
        self._bands_cache: dict[tuple[Any, ...], list[HexFill]] = {}

    def tokens(self) -> list[TokenView]:
        """Token views of every figure (greyed when out); the same list until a figure or the colours change."""
        sc = self.screen
        key = (self.model.version, self.model.selection.figure, sc.ui.settings.colour_blind, sc.ui.palette)
        if self._tokens_cache is not None and self._tokens_cache[0] == key:
            return self._tokens_cache[1]
        out = []
        battle = self.model.battle
        shown = self.model.shown().figures  # wounds and who is out: as the log has told them so far
        for f in battle.figures.values():
            was = shown.get(f.id, f)
            worst = was.wounds.worst
            level = 0 if worst is None else int(worst)
            if was.out and level >= int(WoundLevel.NEAR_DEATH):
                level = 6 if was.wounds.overflowed else level
            badge = " ".join(m.label for m in battle.gm_modifiers_on(f.id))
            out.append(
                TokenView(
                    f.id,
                    f.name,
                    sc.side_colour(f.side),
                    f.hex,
                    f.facing,
                    level,
                    was.out or not was.can_act,
                    f.id == self.model.selection.figure,
                    badge=badge,
                    cells=f.cells if f.size != 1 else frozenset(),
                    **sc.tabletop.token_fields(battle, f),
                )
            )
        self._tokens_cache = (key, out)
        return out

    def hover_figure(self) -> str | None:
        """The figure under the mouse, if any."""
        h = self.model.selection.hover
        if h is None:
            return None
        f = self.model.battle.occupant(h)
        return f.id if f is not None else None

    def view(self) -> BoardView:
        """What the board draws now: the decision's overlays, zones of control, hover and highlights."""
        sc = self.screen
        battle = self.model.battle
        pal = sc.ui.palette
        fills: list[HexFill] = []
        zocs: list[ZocView] = []
        path_view: PathView | None = None
        lof_view: LineOfFireView | None = None
        d = sc.my_decision()
        if d is not None and (d.reason in MOVE_REASONS or (d.reason == "declare" and self.model.decl.second_move)):
            fid = self.model.active_mover(d) if d.reason in MOVE_REASONS else self.model.decl.figure
            if fid is not None:
                fills, path_view = self._movement(fid)
        elif d is not None and d.reason == "declare":
            self.model.ensure_decl(d)
            fills, lof_view = sc.spells.overlays() if self.model.decl.spell else self._attack()
        elif d is not None and d.reason == "follow" and (spot := follow_hex(battle)) is not None:
            fills = [HexFill(frozenset({spot}), pal.move_free, 110, outline=True)]
        for fid in (self.model.selection.figure, self.hover_figure()):
            if fid is not None and fid in battle.figures:
                f = battle.figures[fid]
                if f.can_act and not any(z.hex == f.hex for z in zocs):
                    zocs.append(
                        ZocView(f.hex, f.facing, sc.side_colour(f.side), battle.zone(f) if f.size != 1 else frozenset())
                    )
        highlighted = set(self.model.highlight)
        if d is not None and d.figure:
            highlighted.add(d.figure)
        if d is not None and d.mover:
            highlighted.add(d.mover)
        return BoardView(
            self.tokens(),
            fills,
            path=path_view,
            line_of_fire=lof_view,
            zocs=zocs,
            hover=self.model.selection.hover,
            selected=self.model.selection.hex if self.model.selection.figure is None else None,
            highlighted=frozenset(highlighted),
        )

    def _movement(self, fid: str) -> tuple[list[HexFill], PathView | None]:
        sc = self.screen
        pal = sc.ui.palette
        r = self.model.reach(fid)
        esc = self.model.escapes(fid)
        # the bands only change with the battle, so the board can keep them drawn while the mouse moves; the
        # escape chance is written on the hovered hex only (its path's label), never on every hex of a band
        key = (self.model.version, fid, self.model.posture_of(fid), pal)
        fills = self._bands_cache.get(key)
        if fills is None:
            free = frozenset(h for h in r.hexes() if h not in esc)
            likely = frozenset(h for h, p in esc.items() if p >= Fraction(1, 2))
            unlikely = frozenset(h for h, p in esc.items() if p < Fraction(1, 2))
            fills = [
                HexFill(free, pal.move_free, 95),
                HexFill(likely, pal.move_escape, 105),
                HexFill(unlikely, pal.move_free_attacks, 105),
            ]
            self._bands_cache.clear()
            self._bands_cache[key] = fills
        path_view = None
        path = self.model.planned_path(fid, self.model.selection.hover)
        if path is not None:
            hexes = (path.start, *path.hexes)
            label = f"{path.cost}/{r.allowance}"
            if self.model.selection.hover in esc:
                label += f" · escape {percent(esc[self.model.selection.hover])}"
            labels = (*("" for _ in hexes[:-1]), label)
            path_view = PathView(hexes, pal.path, labels, path.end_facing, large_end(self.model.battle, fid, path))
        return fills, path_view

    def _attack(self) -> tuple[list[HexFill], LineOfFireView | None]:
        sc = self.screen
        battle = self.model.battle
        pal = sc.ui.palette
        s = self.model.decl
        fig = battle.figure(s.figure)
        weapon = weapon_named(fig, s.weapon)
        fills: list[HexFill] = []
        if weapon.ranged:
            fills.extend(self._range_fills(fig, weapon))
        targets = frozenset(h for t in self.model.targets() for h in battle.cells_of(t))
        fills.append(HexFill(targets, theme.DANGER, 70, outline=True))
        st = Stance(s.stance)
        if st.retreat != "none":
            retreats = frozenset(self.model.declare_options()["retreats"])
            fills.append(HexFill(retreats, pal.move_free, 60))
            if s.retreat is not None:
                fills.append(HexFill(frozenset({s.retreat}), pal.move_free, 150, outline=True))
        if st.max_advance:
            last_hex, last_facing = s.advance[-1] if s.advance else (fig.hex, fig.facing)
            if len(s.advance) < st.max_advance:
                steps = frozenset(
                    h
                    for h in front_hexes(last_hex, last_facing)
                    if battle.occupant(h) is None and battle.terrain.is_passable(h)
                )
                fills.append(HexFill(steps, pal.move_escape, 50))
            if s.advance:
                fills.append(HexFill(frozenset(h for h, _ in s.advance), pal.move_escape, 140, outline=True))
        if s.ignore:  # Fudge 4.34: the enemies left undefended, greyed
            fills.append(HexFill(frozenset(h for e in s.ignore for h in battle.cells_of(e)), theme.TEXT_MUTED, 120))
        lof_view = None
        pv = self.model.attack_preview()
        if pv is not None and pv.line is not None:
            lof_view = line_of_fire_view(battle, pv)
        return fills, lof_view

    def hex_labels(self) -> list[tuple[Hex, str]]:
        """The words written over the board's tokens while a blow is declared: a sweeping blow's foes numbered
        in their order, and "ignored" on the enemies left undefended (*Fudge* 4.34)."""
        sc = self.screen
        d = sc.my_decision()
        s = self.model.decl
        if d is None or d.reason != "declare" or s.second_move or s.spell is not None or s.figure != d.figure:
            return []
        battle = self.model.battle
        numbered = [(battle.figure(f).hex, str(k)) for k, f in enumerate(s.foes(), start=1)] if s.sweep else []
        return numbered + [(battle.figure(e).hex, "ignored") for e in sorted(s.ignore)]

    def _range_fills(self, fig: Figure, weapon: Any) -> list[HexFill]:
        sc = self.screen

        def rings() -> list[HexFill]:
            bands = band_table(weapon, 0)
            colours = RANGE_COLOURS_CB if sc.ui.settings.colour_blind else RANGE_COLOURS
            t = self.model.battle.terrain
            found: list[set[Hex]] = [set() for _ in bands]
            for row in range(t.height):
                for col in range(t.width):
                    h = t.hex_at(col, row)
                    dd = distance(fig.hex, h)
                    if dd == 0:
                        continue
                    for i, (_, mx) in enumerate(bands):
                        if dd <= mx:
                            found[i].add(h)
                            break
            return [HexFill(frozenset(r), colours[min(i, len(colours) - 1)], 34) for i, r in enumerate(found)]

        fills: list[HexFill] = self.model.memo(("range", self.model.version, fig.id, weapon.name), rings)
        return fills

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """The board with this view."""
        self.screen.board.draw(surface, view, self.hex_labels())
