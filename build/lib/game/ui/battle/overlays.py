"""The board overlays of the battle screen: the tokens, the reachable bands and the planned path of a move
(FTC 5, 5.3), the targets, range rings, advance and retreat hexes and line of fire of a declaration
(FTC 6.1, 6.2, 7), zones of control of the selected and hovered figures.

The board view is rebuilt only when something it shows changed (the screen's ``invalidate``); the
movement bands are kept while only the mouse moves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pygame

from game.engine.battle import Figure
from game.engine.combat import Stance
from game.engine.hexgrid import Hex, distance, front_hexes
from game.engine.ranges import band_table
from game.engine.wounds import WoundLevel
from game.ui import theme
from game.ui.battle.common import MOVE_REASONS, BattleHost, follow_hex
from game.ui.large_tokens import large_end
from game.ui.preview import AttackPreview, percent, weapon_named
from game.ui.view import BoardView, HexFill, LineOfFireView, LofMark, PathView, TokenView, ZocView

RANGE_COLOURS = [(90, 200, 110), (190, 210, 90), (240, 190, 60), (240, 130, 50), (220, 60, 50)]
RANGE_COLOURS_CB = [(86, 180, 233), (0, 158, 115), (240, 228, 66), (230, 159, 0), (213, 94, 0)]


class BoardOverlays:
    """What the board draws over the map for the decision at hand."""

    def __init__(self, screen: BattleHost) -> None:
        self.screen = screen
        self.escape_labels: list[tuple[Hex, str]] = []
        self._tokens_cache: tuple[Any, list[TokenView]] | None = None
        self._bands_cache: dict[tuple[Any, ...], tuple[list[HexFill], list[tuple[Hex, str]]]] = {}

    def tokens(self) -> list[TokenView]:
        """Token views of every figure (greyed when out); the same list until a figure or the colours change."""
        sc = self.screen
        key = (sc.version, sc.selected_id, sc.ui.settings.colour_blind, sc.ui.palette)
        if self._tokens_cache is not None and self._tokens_cache[0] == key:
            return self._tokens_cache[1]
        out = []
        battle = sc.battle
        shown = sc.shown().figures  # wounds and who is out: as the log has told them so far
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
                    f.id == sc.selected_id,
                    badge=badge,
                    cells=f.cells if f.size != 1 else frozenset(),
                    **sc.tabletop.token_fields(battle, f),
                )
            )
        self._tokens_cache = (key, out)
        return out

    def hover_figure(self) -> str | None:
        """The figure under the mouse, if any."""
        h = self.screen.hover_hex
        if h is None:
            return None
        f = self.screen.battle.occupant(h)
        return f.id if f is not None else None

    def view(self) -> BoardView:
        """What the board draws now: the decision's overlays, zones of control, hover and highlights."""
        sc = self.screen
        battle = sc.battle
        pal = sc.ui.palette
        fills: list[HexFill] = []
        zocs: list[ZocView] = []
        path_view: PathView | None = None
        lof_view: LineOfFireView | None = None
        self.escape_labels = []
        d = sc.my_decision()
        if d is not None and (d.reason in MOVE_REASONS or (d.reason == "declare" and sc.decl.second_move)):
            fid = sc.active_mover(d) if d.reason in MOVE_REASONS else sc.decl.figure
            if fid is not None:
                fills, path_view = self._movement(fid)
        elif d is not None and d.reason == "declare":
            sc.ensure_decl(d)
            fills, lof_view = sc.spell_overlays() if sc.decl.spell else self._attack()
        elif d is not None and d.reason == "follow" and (spot := follow_hex(battle)) is not None:
            fills = [HexFill(frozenset({spot}), pal.move_free, 110, outline=True)]
        for fid in (sc.selected_id, self.hover_figure()):
            if fid is not None and fid in battle.figures:
                f = battle.figures[fid]
                if f.can_act and not any(z.hex == f.hex for z in zocs):
                    zocs.append(
                        ZocView(f.hex, f.facing, sc.side_colour(f.side), battle.zone(f) if f.size != 1 else frozenset())
                    )
        highlighted = set(sc.highlight)
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
            hover=sc.hover_hex,
            selected=sc.selected_hex if sc.selected_id is None else None,
            highlighted=frozenset(highlighted),
        )

    def _movement(self, fid: str) -> tuple[list[HexFill], PathView | None]:
        sc = self.screen
        pal = sc.ui.palette
        r = sc.reach(fid)
        esc = sc.escapes(fid)
        # the bands only change with the battle, so the board can keep them drawn while the mouse moves
        key = (sc.version, fid, pal, sc.board.token_radius() >= 12)
        cached = self._bands_cache.get(key)
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
            self._bands_cache.clear()
            self._bands_cache[key] = cached
        fills = cached[0]
        if cached[1]:
            self.escape_labels = cached[1]
        path_view = None
        path = sc.planned_path(fid, sc.hover_hex)
        if path is not None:
            hexes = (path.start, *path.hexes)
            label = f"{path.cost}/{r.allowance}"
            if sc.hover_hex in esc:
                label += f" · escape {percent(esc[sc.hover_hex])}"
            labels = (*("" for _ in hexes[:-1]), label)
            path_view = PathView(hexes, pal.path, labels, path.end_facing, large_end(sc.battle, fid, path))
        return fills, path_view

    def _attack(self) -> tuple[list[HexFill], LineOfFireView | None]:
        sc = self.screen
        battle = sc.battle
        pal = sc.ui.palette
        s = sc.decl
        fig = battle.figure(s.figure)
        weapon = weapon_named(fig, s.weapon)
        fills: list[HexFill] = []
        if weapon.ranged:
            fills.extend(self._range_fills(fig, weapon))
        targets = frozenset(h for t in sc.targets() for h in battle.cells_of(t))
        fills.append(HexFill(targets, theme.DANGER, 70, outline=True))
        st = Stance(s.stance)
        if st.retreat != "none":
            retreats = frozenset(sc.declare_options()["retreats"])
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
        lof_view = None
        pv = sc.preview()
        if pv is not None and pv.line is not None:
            lof_view = self.lof_view(pv)
        return fills, lof_view

    def _range_fills(self, fig: Figure, weapon: Any) -> list[HexFill]:
        sc = self.screen

        def rings() -> list[HexFill]:
            bands = band_table(weapon, 0)
            colours = RANGE_COLOURS_CB if sc.ui.settings.colour_blind else RANGE_COLOURS
            t = sc.battle.terrain
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

        fills: list[HexFill] = sc.memo(("range", sc.version, fig.id, weapon.name), rings)
        return fills

    def lof_view(self, pv: AttackPreview) -> LineOfFireView:
        """The line of fire of an attack (or spell) preview: blocked, cover and bystander marks (FTC 7)."""
        battle = self.screen.battle
        line = pv.line
        assert line is not None
        marks: list[LofMark] = []
        at_risk = {battle.figure(b.figure).hex: b for b in pv.bystanders}
        for lh in line.hexes:
            if lh.hex in (line.firer, line.target):
                continue
            blocked = battle.terrain.sight_blocked(lh.hex)
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

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """The board with this view and the escape chances written on their hexes."""
        self.screen.board.draw(surface, view, self.escape_labels)
