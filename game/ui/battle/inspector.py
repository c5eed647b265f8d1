"""The hover inspector of the battle screen: a box in a corner of the board naming the hex under the mouse
(terrain, movement penalty, cover, elevation) and who stands there (wounds, traits, the GM's modifiers on
it, the magic on it)."""

from __future__ import annotations

from typing import Any

import pygame

from game.engine.ladder import level_name
from game.ui import theme
from game.ui.battle.common import RGB, BattleHost
from game.ui.battle.spellbook import inspector_lines
from game.ui.viewer import signed
from game.ui.widgets import draw_panel


class Inspector:
    """The hover box, drawn once per hovered hex into a translucent surface and blitted every frame."""

    def __init__(self, screen: BattleHost) -> None:
        self.screen = screen
        self._cache: tuple[Any, tuple[int, int], pygame.Surface] | None = None

    def forget(self) -> None:
        """Drop the drawn box (the layout or the settings changed)."""
        self._cache = None

    def lines(self) -> list[tuple[str, RGB]]:
        """What the box says about the hovered hex and its occupant."""
        sc = self.screen
        hx = sc.hover_hex
        assert hx is not None
        t = sc.data.terrain
        kind = t.type_at(hx).name.capitalize()
        walk = "impassable" if not t.is_passable(hx, "walk") else f"penalty {t.move_penalty(hx, 'walk')}"
        lines: list[tuple[str, RGB]] = [
            (f"{kind} · {walk}", theme.TEXT),
            (
                f"cover {signed(t.cover_at(hx))} · elevation {t.elevation_at(hx)} m"
                + (" · blocks sight" if t.sight_blocked(hx) else ""),
                theme.TEXT_MUTED,
            ),
        ]
        battle = sc.battle
        occ = battle.occupant(hx)
        if occ is not None:
            c = occ.character
            lines.append((f"{occ.name} ({battle.sides[occ.side].name}) — {occ.wounds.label}", sc.side_colour(occ.side)))
            lines.append(
                (
                    f"Str {level_name(c.strength)} · Agi {level_name(c.agility)} · "
                    f"{c.ready_weapon.name} {level_name(c.combat_skill(c.ready_weapon))}",
                    theme.TEXT_MUTED,
                )
            )
            for m in battle.gm_modifiers_on(occ.id):
                span = "this round" if m.until == "round" else "until lifted"
                lines.append((f"GM: {m.label} ({span})", theme.ACCENT))
            lines.extend(inspector_lines(battle, occ))
        return lines

    def draw(self, surface: pygame.Surface, state_key: Any, panel_top: bool) -> None:
        """The box in the board's top right corner (bottom right when the decision panel is at the top)."""
        sc = self.screen
        hx = sc.hover_hex
        if hx is None or not sc.data.terrain.contains(hx):
            return
        cam_view = tuple(sc.board.camera.view)
        key = (state_key, hx, panel_top, cam_view)
        if self._cache is not None and self._cache[0] == key and state_key is not None:
            surface.blit(self._cache[2], self._cache[1])
            return
        s, text = sc.ui.s, sc.ui.text
        lines = self.lines()
        lh = text.line_height(12)
        width = max(text.width(line, 12) for line, _ in lines) + s(16)
        x, y, bw, bh = sc.board.camera.view
        rect = pygame.Rect(x + bw - width - s(8), y + s(8), width, lh * len(lines) + s(10))
        if panel_top:
            rect.bottom = y + bh - s(8)
        box = pygame.Surface(rect.size, pygame.SRCALPHA)
        draw_panel(box, box.get_rect(), theme.PANEL, theme.BORDER, radius=4, alpha=225)
        for i, (line, colour) in enumerate(lines):
            text.blit(box, line, (s(8), s(5) + i * lh), 12, colour)
        self._cache = (key, rect.topleft, box)
        surface.blit(box, rect.topleft)
