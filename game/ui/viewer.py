"""The board viewer: a map with its figures, pan / zoom / hover / select.

This is the battle screen's body without the battle: the state machine (a later task) adds phases, the
tracker and actions on top. Hover shows what the rules need to know about a hex (terrain, movement
penalty, cover, elevation) or a figure; selection shows the figure's zone of control.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.engine.hexgrid import Hex, distance
from game.ui import theme
from game.ui.battle.words import facing_words, footing_words, light_words, signed, terrain_words, where_words
from game.ui.board import Board
from game.ui.camera import ZOOM_LEVELS
from game.ui.mapdata import BoardData, FigureSpot
from game.ui.screen import Push, Screen, Transition, UiContext
from game.ui.screens import VIEWER_HELP_KEYS, EscapeMenu
from game.ui.view import BoardView, HexFill, Selection, TokenView, ZocView
from game.ui.widgets import ScrollList, draw_panel

PAN_KEYS = {
    pygame.K_LEFT: (-1, 0),
    pygame.K_a: (-1, 0),
    pygame.K_RIGHT: (1, 0),
    pygame.K_d: (1, 0),
    pygame.K_UP: (0, -1),
    pygame.K_w: (0, -1),
    pygame.K_DOWN: (0, 1),
    pygame.K_s: (0, 1),
}
ZOOM_IN_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
ZOOM_OUT_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
PAN_STEP = 80
PAN_SPEED = 900.0
"""Screen pixels per second while a pan key is held."""
DRAG_THRESHOLD = 4


class ViewerScreen(Screen):
    """A map, its figures, and the inspector side panel."""

    TOP = 40
    SIDE = 320
    FIGURE_CARD = 132
    help_keys = VIEWER_HELP_KEYS
    """What F1 lists over this screen."""

    def __init__(self, ui: UiContext, data: BoardData, to_title: Callable[[], Transition]) -> None:
        super().__init__(ui)
        self.data = data
        self.to_title = to_title
        data_source = data.source
        if hasattr(data_source, "grid"):
            data_source.grid = ui.settings.show_grid
        self.board = Board(
            data.layout,
            data.terrain.width,
            data.terrain.height,
            data_source,
            ui.text,
            (0, self.TOP, 800, 600),
            ui.palette,
        )
        self.side_index = {side: i for i, side in enumerate(data.sides)}
        self.figures: dict[str, FigureSpot] = {f"{i}:{f.name}": f for i, f in enumerate(data.figures)}
        self.selection = Selection()
        """The figure or hex picked and the hex hovered."""
        self.mouse = (-1, -1)
        self.drag_from: tuple[int, int] | None = None
        self.dragging = False
        self.held: dict[int, tuple[int, int]] = {}
        self.log = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, follow_end=True)
        self.log.append(
            f"Opened {data.name}: {data.terrain.width} × {data.terrain.height} hexes, {len(data.figures)} figures.",
            theme.TEXT_MUTED,
        )
        self._view: BoardView | None = None
        self._fitted = False

    # --- layout -----------------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Board on the left, inspector on the right."""
        super().on_resize(size)
        s = self.ui.s
        top, side = s(self.TOP), s(self.SIDE)
        self.board.camera.set_view((0, top, max(100, size[0] - side), max(100, size[1] - top - s(26))))
        if not self._fitted:
            self.board.camera.fit()
            self._fitted = True
        log_top = max(self.cards_bottom() + s(24), size[1] - s(26) - s(190))  # under the two cards
        room = size[1] - s(36) - log_top
        self.log.rect = pygame.Rect(size[0] - side + s(10), log_top, side - s(20), room if room >= s(40) else 0)
        self.board.set_palette(self.ui.palette)
        self._view = None

    def hex_card_height(self) -> int:
        """The hex card: its terrain, where it lies, and seven rows."""
        return self.ui.s(36) + 8 * (self.ui.text.line_height(15) + self.ui.s(2))

    def cards_bottom(self) -> int:
        """Where the inspector's two cards (the figure, the hex) end; the log goes below when there is room."""
        s = self.ui.s
        return s(self.TOP) + s(8) + s(self.FIGURE_CARD) + s(14) + self.hex_card_height()

    # --- views ------------------------------------------------------------------------------------
    def side_colour(self, side: str) -> tuple[int, int, int]:
        """The colour of a side in the current palette."""
        return self.ui.palette.side_colour(side, self.side_index.get(side, 0))

    def tokens(self) -> list[TokenView]:
        """Token views of every figure."""
        return [
            TokenView(fid, f.name, self.side_colour(f.side), f.hex, f.facing, 0, False, fid == self.selection.figure)
            for fid, f in self.figures.items()
        ]

    def board_view(self) -> BoardView:
        """What the board draws now (rebuilt only after a change)."""
        if self._view is None:
            fills = [HexFill(hexes, self.side_colour(side), 40) for side, hexes in self.data.zones.items()]
            zocs = []
            if self.selection.figure is not None:
                f = self.figures[self.selection.figure]
                zocs.append(ZocView(f.hex, f.facing, self.side_colour(f.side)))
            self._view = BoardView(
                self.tokens(),
                fills,
                zocs=zocs,
                hover=self.selection.hover,
                selected=self.selection.hex if self.selection.figure is None else None,
            )
        return self._view

    def figure_at(self, h: Hex) -> str | None:
        """The id of the figure standing in a hex."""
        return next((fid for fid, f in self.figures.items() if f.hex == h), None)

    def where(self, h: Hex) -> str:
        """Where a hex lies, as the board shows it: the figure standing there, else the way from the
        nearest figure ("3 hexes north-east of Mags"); never its coordinates."""
        here = self.figure_at(h)
        if here is not None:
            return f"where {self.figures[here].name} stands"
        if not self.figures:
            return ""
        near = min(self.figures.values(), key=lambda f: (distance(f.hex, h), f.name))
        return where_words(self.data.layout, near.name, near.hex, h)

    # --- input ------------------------------------------------------------------------------------
    def _in_board(self, pos: tuple[int, int]) -> bool:
        return self.board.camera.in_view(*pos)

    def _set_hover(self, pos: tuple[int, int]) -> bool:
        h = self.board.camera.screen_to_hex(*pos) if self._in_board(pos) else None
        if h is not None and not self.data.terrain.contains(h):
            h = None
        if h != self.selection.hover:
            self.selection.hover = h
            self._view = None
            return True
        return False

    def select_at(self, pos: tuple[int, int]) -> None:
        """Select the figure or hex under a screen point (clicking it again clears the selection)."""
        h = self.board.camera.screen_to_hex(*pos)
        if not self.data.terrain.contains(h):
            self.selection.figure, self.selection.hex = None, None
        else:
            fid = self.figure_at(h)
            if fid is not None and fid == self.selection.figure:
                self.selection.figure, self.selection.hex = None, None
            else:
                self.selection.figure, self.selection.hex = fid, h
                if fid is not None:
                    f = self.figures[fid]
                    self.log.append(f"Selected {f.name} (side {f.side}).", self.side_colour(f.side))
        self._view = None

    def zoom(self, steps: int, pos: tuple[int, int] | None = None) -> bool:
        """Zoom around a screen point (the board's centre when the mouse is elsewhere)."""
        cam = self.board.camera
        if pos is None or not self._in_board(pos):
            x, y, w, h = cam.view
            pos = (x + w // 2, y + h // 2)
        changed = cam.zoom_at(steps, *pos)
        if changed:
            self._set_hover(self.mouse) if self.mouse[0] >= 0 else None
            self._view = None
        return changed

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Pan, zoom, hover, select; Escape opens the menu."""
        if event.type == pygame.KEYDOWN:
            return self._key_down(event)
        if event.type == pygame.KEYUP:
            self.held.pop(event.key, None)
            return None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.log.handle(event)
            if self.drag_from is not None:
                dx, dy = event.pos[0] - self.drag_from[0], event.pos[1] - self.drag_from[1]
                if self.dragging or abs(dx) + abs(dy) >= DRAG_THRESHOLD:
                    self.dragging = True
                    self.board.camera.pan(-dx, -dy)
                    self.drag_from = event.pos
                    self._view = None
                    return None
            self._set_hover(event.pos)
            return None
        if event.type == pygame.MOUSEBUTTONDOWN:
            if self._in_board(event.pos) and event.button in (1, 2, 3):
                self.drag_from, self.dragging = event.pos, False
            else:
                self.log.handle(event)
            return None
        if event.type == pygame.MOUSEBUTTONUP:
            was_drag = self.dragging
            started = self.drag_from is not None
            self.drag_from, self.dragging = None, False
            if started and not was_drag and event.button == 1 and self._in_board(event.pos):
                self.select_at(event.pos)
            return None
        if event.type == pygame.MOUSEWHEEL:
            if self.log.rect.collidepoint(self.mouse):
                self.log.handle(event)
            elif event.y:
                self.zoom(1 if event.y > 0 else -1, self.mouse)
            return None
        return None

    def _key_down(self, event: pygame.event.Event) -> Transition | None:
        key = event.key
        if key == pygame.K_ESCAPE:
            if self.selection.figure is not None or self.selection.hex is not None:
                self.selection.figure, self.selection.hex, self._view = None, None, None
                return None
            return Push(EscapeMenu(self.ui, self.to_title))
        if key in PAN_KEYS and not (event.mod & pygame.KMOD_CTRL):
            dx, dy = PAN_KEYS[key]
            self.board.camera.pan(dx * self.ui.s(PAN_STEP), dy * self.ui.s(PAN_STEP))
            self.held[key] = (dx, dy)
            self._view = None
        elif key in ZOOM_IN_KEYS:
            self.zoom(1, self.mouse)
        elif key in ZOOM_OUT_KEYS:
            self.zoom(-1, self.mouse)
        elif key == pygame.K_HOME:
            self.board.camera.fit()
            self._view = None
        elif key == pygame.K_g:
            st = self.ui.settings
            from dataclasses import replace

            self.ui.update_settings(replace(st, show_grid=not st.show_grid))
            self.apply_settings()
        elif key == pygame.K_TAB and self.figures:
            ids = list(self.figures)
            step = -1 if event.mod & pygame.KMOD_SHIFT else 1
            i = (ids.index(self.selection.figure) + step) % len(ids) if self.selection.figure in ids else 0
            self.selection.figure = ids[i]
            self.selection.hex = self.figures[ids[i]].hex
            fx, fy = self.data.layout.hex_center(self.selection.hex)
            self.board.camera.center_on(fx, fy)
            self._view = None
        return None

    def apply_settings(self) -> None:
        """Redraw the map after a settings change (grid, palette)."""
        source = self.board.source
        if hasattr(source, "grid"):
            source.grid = self.ui.settings.show_grid
        self.board.set_palette(self.ui.palette)
        self.board.invalidate()
        self._view = None

    def on_enter(self, size: tuple[int, int]) -> None:
        """Back from the menu or settings: pick up palette / grid changes."""
        super().on_enter(size)
        grid = getattr(self.board.source, "grid", None)
        if grid is not None and grid != self.ui.settings.show_grid:
            self.apply_settings()
        self.board.set_palette(self.ui.palette)
        self.held.clear()

    @property
    def busy(self) -> bool:
        """A pan key is held (the loop must keep ticking)."""
        return bool(self.held)

    def update(self, dt: float) -> bool:
        """Continuous panning while keys are held; the hovered hex is the one under the pointer wherever the
        board has moved since (a pan, a jump to a figure)."""
        if not self.held:
            return self._set_hover(self.mouse)
        dx = sum(v[0] for v in self.held.values())
        dy = sum(v[1] for v in self.held.values())
        step = PAN_SPEED * self.ui.settings.ui_scale * min(dt, 0.05)
        self.board.camera.pan(dx * step, dy * step)
        self._set_hover(self.mouse)
        self._view = None
        return True

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """Board, top bar, inspector, hint line."""
        self.board.draw(surface, self.board_view())
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        top = s(self.TOP)
        pygame.draw.rect(surface, theme.PANEL, (0, 0, w, top))
        pygame.draw.line(surface, theme.BORDER, (0, top - 1), (w, top - 1))
        text.blit(surface, self.data.name, (s(14), top // 2), 18, theme.ACCENT, bold=True, anchor="midleft")
        x = s(14) + text.width(self.data.name, 18, True) + s(24)
        for side in self.data.sides:
            count = sum(1 for f in self.figures.values() if f.side == side)
            pygame.draw.circle(surface, self.side_colour(side), (x + s(6), top // 2), s(6))
            r = text.blit(surface, f"Side {side} · {count}", (x + s(18), top // 2), 15, anchor="midleft")
            x = r.right + s(18)
        zoom = f"zoom {round(ZOOM_LEVELS[self.board.camera.zoom_index] * 100)} %"
        if x + text.width(zoom, 14) <= w - s(self.SIDE) - s(12):  # only where the sides leave room for it
            text.blit(surface, zoom, (w - s(self.SIDE) - s(12), top // 2), 14, theme.TEXT_MUTED, anchor="midright")
        text.blit(surface, "Esc menu  ·  F1 help", (w - s(12), top // 2), 14, theme.TEXT_MUTED, anchor="midright")
        self._draw_inspector(surface)
        pygame.draw.rect(surface, theme.PANEL, (0, h - s(26), w, s(26)))
        pygame.draw.line(surface, theme.BORDER, (0, h - s(26)), (w, h - s(26)))
        text.blit(
            surface,
            "drag / arrows / WASD pan  ·  wheel / + − zoom  ·  click select  ·  Tab next figure  ·  "
            "Home fit  ·  G grid",
            (s(12), h - s(13)),
            13,
            theme.TEXT_MUTED,
            anchor="midleft",
        )

    def _draw_inspector(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        s, text = self.ui.s, self.ui.text
        side = s(self.SIDE)
        top = s(self.TOP)
        panel = pygame.Rect(w - side, top, side, h - top - s(26))
        pygame.draw.rect(surface, theme.BACKGROUND, panel)
        pygame.draw.line(surface, theme.BORDER, panel.topleft, panel.bottomleft)
        x = panel.x + s(14)
        y = panel.y + s(12)
        lh = text.line_height(15) + s(2)

        def row(label: str, value: str, colour: tuple[int, int, int] = theme.TEXT) -> None:
            nonlocal y
            text.blit(surface, label, (x, y), 15, theme.TEXT_MUTED)
            text.blit(surface, value, (x + s(112), y), 15, colour, bold=True)
            y += lh

        fid = self.selection.figure
        if fid is None and self.selection.hover is not None:
            fid = self.figure_at(self.selection.hover)
        card = pygame.Rect(panel.x + s(8), y - s(4), side - s(16), s(self.FIGURE_CARD))
        draw_panel(surface, card, theme.PANEL, theme.BORDER)
        if fid is not None:
            f = self.figures[fid]
            colour = self.side_colour(f.side)
            pygame.draw.circle(surface, colour, (x + s(8), y + s(11)), s(8))
            text.blit(surface, f.name, (x + s(24), y + s(2)), 18, theme.TEXT, bold=True)
            y += s(30)
            row("Side", f.side, colour)
            row("Character", f.character or "—")
            row("Facing", facing_words(self.data.layout, f.facing))
            row("Wounds", theme.WOUND_NAMES[0], self.ui.palette.wound_colour(0))
        else:
            text.blit(surface, "Figure", (x, y + s(2)), 18, theme.TEXT_MUTED, bold=True)
            y += s(30)
            text.blit(surface, "Hover or click a figure.", (x, y), 15, theme.TEXT_MUTED)
        y = card.bottom + s(14)
        card = pygame.Rect(panel.x + s(8), y - s(4), side - s(16), self.hex_card_height())
        draw_panel(surface, card, theme.PANEL, theme.BORDER)
        h_ = self.selection.hover if self.selection.hover is not None else self.selection.hex
        if h_ is not None and self.data.terrain.contains(h_):
            t = self.data.terrain
            kind = t.type_at(h_)
            text.blit(surface, terrain_words(kind.name), (x, y + s(2)), 18, theme.TEXT, bold=True)
            y += s(28)
            text.blit(surface, self.where(h_), (x, y), 13, theme.TEXT_MUTED)
            y += lh
            walk = "impassable" if not t.is_passable(h_, "walk") else f"{t.move_penalty(h_, 'walk')} hex"
            row("Move penalty", walk, theme.DANGER if not t.is_passable(h_, "walk") else theme.TEXT)
            fly = "impassable" if not t.is_passable(h_, "fly") else f"{t.move_penalty(h_, 'fly')} hex"
            row("… flying", fly)
            row("Cover", signed(t.cover_at(h_)))
            row("Elevation", f"{t.elevation_at(h_)} m")
            row("Blocks sight", "yes" if t.sight_blocked(h_) else "no")
            row("Light", light_words(t.light_at(h_)))
            row("Footing", footing_words(t.footing_at(h_)))
        else:
            text.blit(surface, "Hex", (x, y + s(2)), 18, theme.TEXT_MUTED, bold=True)
            y += s(30)
            text.blit(surface, "Hover a hex to inspect it.", (x, y), 15, theme.TEXT_MUTED)
        if self.log.rect.height > 0:  # else the window is too short for it under the cards
            text.blit(surface, "Log", (self.log.rect.x, self.log.rect.y - s(20)), 14, theme.TEXT_MUTED, bold=True)
            self.log.draw(surface, text)
