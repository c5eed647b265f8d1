"""The hover inspector of the battle screen: a box in a corner of the board naming the hex under the mouse
(terrain, movement penalty, cover, elevation) and who stands there (wounds, traits, a hero's Fudge Points, the
GM's modifiers on it, the magic on it)."""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from game.engine.ladder import level_name
from game.ui import theme
from game.ui.battle.common import RGB, BoardHost
from game.ui.battle.sheet import fudge_line
from game.ui.battle.spellbook import inspector_lines
from game.ui.battle.words import footing_words, light_words, signed, terrain_words
from game.ui.widgets import draw_panel


class InspectorHost(BoardHost, Protocol):
    """The battle screen as the hover box sees it: the board's view (its corners), the map (terrain, a map
    object's ground), the pointer, the sides' colours and whether the GM sits here (the dice set by hand)."""

    @property
    def mouse(self) -> tuple[int, int]: ...
    def side_colour(self, side: str) -> RGB: ...
    def gm_seated(self) -> bool: ...


class Inspector:
    """The hover box, drawn once per hovered hex into a translucent surface and blitted every frame."""

    def __init__(self, screen: InspectorHost) -> None:
        self.screen = screen
        self.model = screen.model
        self._cache: tuple[Any, tuple[int, int], pygame.Surface] | None = None
        self.drawn: pygame.Rect | None = None
        """Where the box was drawn last (None: not drawn)."""

    def forget(self) -> None:
        """Drop the drawn box (the layout or the settings changed)."""
        self._cache = None

    def lines(self) -> list[tuple[str, RGB]]:
        """What the box says about the hovered hex and its occupant."""
        sc = self.screen
        hx = self.model.selection.hover
        assert hx is not None
        t = sc.data.terrain
        kind = terrain_words(t.type_at(hx).name)
        walk = "impassable" if not t.is_passable(hx, "walk") else f"penalty {t.move_penalty(hx, 'walk')}"
        lines: list[tuple[str, RGB]] = [
            (f"{kind} · {walk}", theme.TEXT),
            (
                f"cover {signed(t.cover_at(hx))} · elevation {t.elevation_at(hx)} m"
                + (" · blocks sight" if t.sight_blocked(hx) else ""),
                theme.TEXT_MUTED,
            ),
        ]
        over = sc.data.repainted.get(hx)
        if over is not None:  # the map's art shows other ground here: the board draws this one plain
            lines.append((f"set by the map's terrain object “{over}”: drawn plain, ringed", theme.ACCENT))
        battle = self.model.battle
        # FTC table 7: the light and footing the rolls use — the map's or the GM's condition, the worse
        lines.append((f"{light_words(battle.light_at(hx))} · {footing_words(battle.footing_at(hx))}", theme.TEXT_MUTED))
        for cond in battle.gm_state.conditions:
            if cond.covers(hx):
                what = light_words(cond.value) if cond.condition == "bad_light" else footing_words(cond.value)
                lines.append((f"GM: {what}" + (f" ({cond.reason})" if cond.reason else ""), theme.ACCENT))
        occ = battle.occupant(hx)
        if occ is not None:
            c = occ.character
            wounds = self.model.shown().figures.get(occ.id, occ).wounds  # no wound shows before the log tells it
            lines.append((f"{occ.name} ({battle.sides[occ.side].name}) — {wounds.label}", sc.side_colour(occ.side)))
            lines.append(
                (
                    f"Str {level_name(c.strength)} · Agi {level_name(c.agility)} · "
                    f"{c.ready_weapon.name} {level_name(c.combat_skill(c.ready_weapon))}",
                    theme.TEXT_MUTED,
                )
            )
            points = fudge_line(battle.options, occ, key=False)
            if points:  # Fudge 4.64: the pools are public to every seat
                lines.append((points, theme.TEXT_MUTED))
            for m in battle.gm_modifiers_on(occ.id):
                span = "this round" if m.until == "round" else "until lifted"
                lines.append((f"GM: {m.label} ({span})", theme.ACCENT))
            if sc.gm_seated():  # the dice set by hand are behind the GM's screen (Fudge 4.1)
                for die in battle.gm_dice:
                    if die.figure == occ.id:
                        lines.append((f"GM: next {die.purpose} roll set by hand to {sum(die.faces):+d}", theme.ACCENT))
            if battle.gm_escape.get(occ.id) is not None:
                escape = "escapes" if battle.gm_escape[occ.id] else "is held at"
                lines.append((f"GM: {escape} the next zone of control this round", theme.ACCENT))
            lines.extend(inspector_lines(battle, occ))
        return lines

    def draw(self, surface: pygame.Surface, state_key: Any, panel_top: bool, avoid: pygame.Rect | None) -> None:
        """The box in a corner of the board: top right (bottom right when the decision panel is at the top),
        else the first corner that neither the panel (``avoid``) nor the pointer is in."""
        sc = self.screen
        hx = self.model.selection.hover
        self.drawn = None
        if hx is None or not sc.data.terrain.contains(hx):
            return
        key = (state_key, hx)
        if self._cache is None or self._cache[0] != key or state_key is None:
            s, text = sc.ui.s, sc.ui.text
            lines = self.lines()
            lh = text.line_height(12)
            width = max(text.width(line, 12) for line, _ in lines) + s(16)
            box = pygame.Surface((width, lh * len(lines) + s(10)), pygame.SRCALPHA)
            draw_panel(box, box.get_rect(), theme.PANEL, theme.BORDER, radius=4, alpha=225)
            for i, (line, colour) in enumerate(lines):
                text.blit(box, line, (s(8), s(5) + i * lh), 12, colour)
            self._cache = (key, (0, 0), box)
        box = self._cache[2]
        rect = self.drawn = self.place(box.get_size(), panel_top, avoid)
        if rect is not None:
            surface.blit(box, rect.topleft)

    def place(self, size: tuple[int, int], panel_top: bool, avoid: pygame.Rect | None) -> pygame.Rect | None:
        """Where a box of this size goes: the corners of the board in order of preference, the first clear of
        the decision panel and of the pointer (so it never covers what it describes); else one clear of the
        panel; None when the panel leaves no corner free (a very narrow board)."""
        sc = self.screen
        s = sc.ui.s
        x, y, bw, bh = sc.board.camera.view
        w, h = size
        right, left = x + bw - w - s(8), x + s(8)
        top, bottom = y + s(8), y + bh - h - s(8)
        rows = (bottom, top) if panel_top else (top, bottom)
        spots = [pygame.Rect(cx, cy, w, h) for cx in (right, left) for cy in rows]
        clear = [r for r in spots if avoid is None or not r.colliderect(avoid)]
        for rect in clear:
            if not rect.inflate(s(24), s(24)).collidepoint(sc.mouse):
                return rect
        return clear[0] if clear else None
