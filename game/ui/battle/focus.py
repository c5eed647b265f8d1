"""Where the battle screen looks: the camera keeps the figure deciding and what it decides about (its
target, the mover it may stop, the hex it may follow into) in view and clear of the decision panel, by
putting the panel at the top or the bottom of the board, else by panning (and, when they do not fit,
zooming out); it looks again when the decision, the target or the window size changes."""

from __future__ import annotations

from typing import Protocol

import pygame

from game.engine.battle import Decision
from game.engine.hexgrid import Hex
from game.ui.battle.common import BoardHost
from game.ui.battle.model import MOVE_REASONS, follow_hex
from game.ui.camera import ZOOM_LEVELS


class FocusHost(BoardHost, Protocol):
    """The battle screen as the camera's focus sees it: the board and its camera, the map's layout, the
    window's size and where the decision panel would stand."""

    @property
    def size(self) -> tuple[int, int]: ...
    def panel_rect(self, d: Decision | None, top: bool | None = None) -> pygame.Rect: ...


class Focus:
    """The camera's focus on the decision at hand and the panel's side of the board."""

    def __init__(self, screen: FocusHost) -> None:
        self.screen = screen
        self.model = screen.model
        self.panel_top = False
        """Whether the decision panel stands at the top of the board (else at the bottom)."""
        self._key: tuple[object, ...] | None = None

    def hexes(self, d: Decision) -> list[Hex]:
        """What must stay in sight for this decision: the deciding (or moving) figure and what it decides
        about — its target, the mover it may stop, the hex it may follow into."""
        battle = self.model.battle
        figures: list[str] = []
        extra: list[Hex] = []
        if d.reason in MOVE_REASONS:
            mover = self.model.active_mover(d)
            figures.append(mover or "")
        else:
            figures.append(d.figure or "")
        if d.mover:
            figures.append(d.mover)
        if d.reason == "follow" and (spot := follow_hex(battle)) is not None:
            extra.append(spot)
        if d.reason == "declare" and self.model.decl.figure == d.figure:
            figures.extend(t for t in (self.model.decl.target, self.model.decl.spell_target) if t)
            if self.model.decl.spell_hex is not None:
                extra.append(self.model.decl.spell_hex)
        out = [h for fid in figures if fid in battle.figures for h in battle.cells_of(fid)]
        return out + extra

    def key(self, d: Decision) -> tuple[object, ...]:
        """What the focus depends on (a change asks for a new look)."""
        sc = self.screen
        return (self.model.version, d, tuple(self.hexes(d)), sc.size, tuple(sc.board.camera.view))

    def follow(self, d: Decision) -> bool:
        """Look again if the decision, its target or the window changed; True when the camera or the panel
        moved."""
        key = self.key(d)
        if key == self._key:
            return False
        self._key = key
        self.fit(d)
        self._key = self.key(d)
        return True

    def clear(self, d: Decision, top: bool) -> bool:
        """Whether every hex that matters is in view and clear of the panel placed at the top (or bottom)."""
        sc = self.screen
        cam = sc.board.camera
        r = max(sc.board.token_radius(), sc.ui.s(10))
        view = pygame.Rect(cam.view).inflate(-2 * r, -2 * r)
        panel = sc.panel_rect(d, top).inflate(2 * r, 2 * r)
        for h in self.hexes(d):
            p = cam.hex_to_screen(h)
            if not view.collidepoint(p) or panel.collidepoint(p):
                return False
        return True

    def fit(self, d: Decision) -> None:
        """Put the panel where it covers nothing that matters; else pan (and zoom out) until it does not. A map
        smaller than the view that an earlier decision panned off the middle goes back to it where that leaves
        everything in sight."""
        sc = self.screen
        if not self.hexes(d):
            return
        order = (self.panel_top, not self.panel_top)
        cam = sc.board.camera
        loose = (cam.origin_x, cam.origin_y)
        cam.clamp()  # (only a smaller map's axes change: back to the middle)
        for top in order if (cam.origin_x, cam.origin_y) != loose else ():
            if self.clear(d, top):
                self.panel_top = top
                return
        cam.origin_x, cam.origin_y = loose
        for top in order:
            if self.clear(d, top):
                self.panel_top = top
                return
        start = (cam.zoom_index, cam.origin_x, cam.origin_y)
        for top in order:
            cam.zoom_index, cam.origin_x, cam.origin_y = start
            for _ in range(len(ZOOM_LEVELS)):
                self._centre_in_free(d, top)
                if self.clear(d, top):
                    self.panel_top = top
                    return
                if not cam.zoom_at(-1, *pygame.Rect(cam.view).center):
                    break
        # nothing fits (a tiny window): the old way, the deciding figure in the middle
        cam.zoom_index, cam.origin_x, cam.origin_y = start
        first = self.hexes(d)[0]
        cam.center_on(*sc.data.layout.hex_center(first))
        y = cam.hex_to_screen(first)[1]
        self.panel_top = y > cam.view[1] + cam.view[3] / 2

    def _centre_in_free(self, d: Decision, top: bool) -> None:
        """Pan so the hexes that matter sit in the middle of the board the panel leaves free."""
        sc = self.screen
        cam = sc.board.camera
        s = sc.ui.s
        points = [cam.hex_to_screen(h) for h in self.hexes(d)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        box = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        view = pygame.Rect(cam.view)
        panel = sc.panel_rect(d, top)
        if top:
            free = pygame.Rect(view.x, panel.bottom + s(4), view.width, view.bottom - panel.bottom - s(4))
        else:
            free = pygame.Rect(view.x, view.y, view.width, panel.top - s(4) - view.y)
        cam.pan(box.centerx - free.centerx, box.centery - free.centery, loose=True)
