"""The GM's reinforcements: who joins the battle (a roster character or a copy of a figure, its side, name
and whether it is a mook), then where on the map (``PlaceFigure``); it sends ``gm.AddFigure``."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any

import pygame

from game.engine import gm
from game.engine.battle import Battle
from game.engine.characters import Character
from game.engine.creatures import MOOK_TRACK_NAME, footprint
from game.engine.hexgrid import Hex
from game.ui import theme
from game.ui.battle.common import GMScreen
from game.ui.battle.words import hex_name
from game.ui.gm_dialog import CheckRow, GMDialog, PanelHost, between_rounds_tip, columns
from game.ui.roster_editor import TextPrompt
from game.ui.screen import Pop, Push, Screen, Transition, UiContext
from game.ui.view import BoardView, HexFill
from game.ui.widgets import draw_panel


class ReinforceDialog(GMDialog):
    """A reinforcement: a character of the battle's roster or a copy of the chosen figure, its side,
    name and whether it is a mook; "Place on map…" then asks for its hex (``PlaceFigure``)."""

    TITLE = "Reinforcement — who joins the battle"
    WIDTH, HEIGHT = 900, 560

    def __init__(self, ui: UiContext, panel: PanelHost) -> None:
        super().__init__(ui, panel)
        self.copy_of = panel.figure if panel.figure in self.battle.figures else None
        keys = list(self.roster_characters())
        self.source: str = "copy" if self.copy_of is not None else (keys[0] if keys else "")
        side = self.battle.figures[self.copy_of].side if self.copy_of else next(iter(self.battle.sides))
        self.side = side
        self.mook = False
        self.name = ""
        self.name = self.default_name()
        self.mook = self.on_mook_track()

    def on_mook_track(self) -> bool:
        """Whether the chosen character is on the mook wound track (*Fudge* 4.57: the roster's
        ``wound_track = "mook"``), or the copied figure is a mook: such a newcomer counts as a mook unless
        the GM says otherwise."""
        if self.source == "copy" and self.copy_of in self.battle.figures and self.battle.figures[self.copy_of].mook:
            return True
        c = self.character()
        return c is not None and c.wound_track.name == MOOK_TRACK_NAME

    def roster_characters(self) -> dict[str, Mapping[str, Any]]:
        """The characters of the battle's roster (``setup_data["roster"]["characters"]``), by key."""
        roster = self.screen.session.setup_data.get("roster", {})
        chars = roster.get("characters", {}) if isinstance(roster, Mapping) else {}
        # ``token`` (the GM's own picture, game.ui.token_images) is drawing, not a field of the character
        return {
            str(k): {f: x for f, x in v.items() if f != "token"} for k, v in chars.items() if isinstance(v, Mapping)
        }

    def character(self) -> Character | None:
        """The newcomer's character (None if the roster table does not build)."""
        if self.source == "copy" and self.copy_of in self.battle.figures:
            return self.battle.figures[self.copy_of].character
        table = self.roster_characters().get(self.source)
        if table is None:
            return None
        try:
            return gm.new_character(table)
        except gm.GMActionError:
            return None

    def default_name(self) -> str:
        """The character's name, numbered when a figure of that name is already in the battle."""
        c = self.character()
        base = c.name if c is not None else "Reinforcement"
        taken = {f.name for f in (*self.battle.figures.values(), *self.battle.removed.values())}
        if base not in taken:
            return base
        n = 2
        while f"{base} {n}" in taken:
            n += 1
        return f"{base} {n}"

    def choose(self, source: str) -> None:
        """Choose who joins; the name follows the choice."""
        self.source = source
        self.name = self.default_name()
        self.mook = self.on_mook_track()

    def rename(self) -> Transition:
        """Type the newcomer's name."""

        def done(text: str) -> Transition | None:
            if text.strip():
                self.name = text.strip()[:40]
            self.layout()
            return None

        return Push(
            TextPrompt(self.ui, "Name the reinforcement", "Its name on the token and in the log", self.name, done)
        )

    def action(self, h: Hex, facing: int) -> gm.AddFigure:
        """The ``gm.AddFigure`` for a hex and facing: a roster key when a figure of the battle already is that
        character (the log stays short), else the character's whole table; a fresh figure id."""
        known = {f.character.key for f in self.battle.setup.figures}
        fid = fresh_figure_id(self.battle)
        if self.source != "copy" and self.source in known:
            return gm.AddFigure(fid, self.side, h, facing, self.name, roster_key=self.source, mook=self.mook)
        if self.source == "copy" and self.copy_of in self.battle.figures:
            table: Mapping[str, Any] = self.battle.figures[self.copy_of].character.to_dict()
        else:
            table = self.roster_characters()[self.source]
        return gm.AddFigure(fid, self.side, h, facing, self.name, character=dict(table), mook=self.mook)

    def mook_tooltip(self) -> str:
        """What the Mook flag does (FTC 4) and what it does not: the wound track is the character's."""
        c = self.character()
        track = f" {c.name} is on the {c.wound_track.name} wound track." if c is not None else ""
        return (
            'Mook: with the rule option "Mooks of a side roll initiative once as a group" this figure rolls '
            "initiative with its side's mooks (FTC 4). It does not change the wound track, which comes from "
            'the character (the roster\'s wound_track = "mook", Fudge 4.57).' + track
        )

    def place(self) -> Transition | None:
        """On to the map: click a highlighted hex."""
        c = self.character()
        if c is None:
            self.message, self.error = "That roster character cannot be built; choose another.", True
            return None
        return Push(PlaceFigure(self.ui, self, c))

    def layout(self) -> None:
        """Who (roster characters, a copy), side, name and mook; Place on map…"""
        super().layout()
        s, r = self.ui.s, self.rect
        col = s(260)
        rows: list[Callable[[pygame.Rect], None]] = []

        def source_row(key: str, label: str, detail: str) -> Callable[[pygame.Rect], None]:
            def place(rect: pygame.Rect) -> None:
                self.add(
                    CheckRow(
                        label,
                        functools.partial(self.choose, key),
                        rect,
                        radio=True,
                        checked=self.source == key,
                        detail=detail,
                    )
                )

            return place

        if self.copy_of in self.battle.figures:
            f = self.battle.figures[self.copy_of]
            rows.append(source_row("copy", f"Copy of {f.name}"[:30], "as now"))
        for key, table in self.roster_characters().items():
            rows.append(source_row(key, str(table.get("name", key))[:28], key[:14]))
        top = r.y + s(44)
        x = columns(self, top, r.bottom - s(160), r.x + s(16), col, [("Who joins (the battle's roster)", rows)])
        y = r.bottom - s(150)
        left = r.x + s(16)
        self.text("Side", (left, y + s(5)), 14, theme.TEXT_MUTED, True)
        bx = left + s(70)
        for sid, side in self.battle.sides.items():
            w = s(24) + self.ui.text.width(side.name, 13)
            self.button(
                side.name,
                functools.partial(setattr, self, "side", sid),
                pygame.Rect(bx, y, w, s(26)),
                on=self.side == sid,
            )
            bx += w + s(6)
        y += s(34)
        self.text("Name", (left, y + s(5)), 14, theme.TEXT_MUTED, True)
        self.text(self.name, (left + s(70), y + s(5)), 14, theme.TEXT, True)
        self.button(
            "Rename…", self.rename, pygame.Rect(left + s(90) + self.ui.text.width(self.name, 14, True), y, s(90), s(26))
        )
        self.button(
            "Mook" if self.mook else "Not a mook",
            functools.partial(setattr, self, "mook", not self.mook),
            pygame.Rect(r.right - s(260), y, s(110), s(26)),
            on=self.mook,
            tooltip=self.mook_tooltip(),
        )
        c = self.character()
        if c is not None:
            size = "" if c.footprint == 1 else f", covers {c.footprint} hexes"
            weapons = ", ".join(w.name for w in c.weapons) or "bare hands"
            self.text(f"{c.name}: {weapons}{size}"[:90], (min(x, r.right - s(300)), top + s(3)), 13, theme.TEXT_MUTED)
        allowed = self.battle.gm_between_rounds()
        self.footer(
            "Place on map…",
            self.place,
            enabled=allowed and c is not None,
            tooltip=between_rounds_tip("Choose the hex on the map (legal hexes are highlighted)."),
        )


def fresh_figure_id(battle: Battle) -> str:
    """An id no figure of the battle has or had: ``gm1``, ``gm2``…"""
    known = {*battle.figures, *battle.removed}
    n = 1
    while f"gm{n}" in known:
        n += 1
    return f"gm{n}"


class PlaceFigure(Screen):
    """The battle map with the hexes where the newcomer may stand highlighted (``Battle.gm_free_for``, its
    whole footprint); Q/E turn its facing, a click sends ``gm.AddFigure``; a refusal is shown in the bar."""

    def __init__(self, ui: UiContext, dialog: ReinforceDialog, character: Character) -> None:
        super().__init__(ui)
        self.dialog = dialog
        self.character = character
        self.facing = 0
        self.hover: Hex | None = None
        self.mouse = (-1, -1)
        self.message = ""
        self.error = False
        self._legal: tuple[int, int, frozenset[Hex]] | None = None
        self._backdrop: tuple[Any, pygame.Surface] | None = None

    @property
    def screen(self) -> GMScreen:
        """The battle screen drawn underneath."""
        return self.dialog.screen

    def legal(self) -> frozenset[Hex]:
        """Where the newcomer may stand facing ``facing`` (cached until the battle or facing changes)."""
        b = self.screen.battle
        key = (self.screen.model.version, self.facing)
        if self._legal is None or self._legal[:2] != key:
            hexes = frozenset(h for h in b.terrain.hexes() if b.gm_free_for(self.character, h, self.facing))
            self._legal = (*key, hexes)
        return self._legal[2]

    def on_enter(self, size: tuple[int, int]) -> None:
        """The battle screen lays the board out for this window too."""
        self.screen.on_resize(size)
        super().on_enter(size)

    def on_resize(self, size: tuple[int, int]) -> None:
        """Follow the window."""
        super().on_resize(size)
        self.screen.on_resize(size)

    @property
    def bar(self) -> pygame.Rect:
        """The instruction bar over the top of the board (a click there places nothing)."""
        s, view = self.ui.s, self.screen.board.camera.view
        return pygame.Rect(view[0] + s(10), view[1] + s(8), min(view[2] - s(20), s(780)), s(52))

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        """The map hex under a screen point (None off the board)."""
        cam = self.screen.board.camera
        if not cam.in_view(*pos):
            return None
        h = cam.screen_to_hex(*pos)
        return h if self.screen.battle.terrain.contains(h) else None

    def place_at(self, h: Hex) -> Transition | None:
        """Send the AddFigure; back to the GM's panel when done, else the engine's sentence in the bar."""
        action = self.dialog.action(h, self.facing)
        if self.dialog.panel.send(action):
            self.screen.model.selection.figure, self.screen.model.selection.hex = action.figure, None
            self.dialog.panel.figure = action.figure
            return Pop(then=Pop(then=self.dialog.panel.closing_transition()))
        self.message, self.error = self.dialog.panel.message, True
        return None

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Click a hex; Q/E turn; wheel zooms; arrows pan; Esc back to the reinforcement box."""
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_q, pygame.K_e):
                self.facing = (self.facing + (1 if event.key == pygame.K_e else -1)) % 6
                return None
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
                step = self.ui.s(60)
                dx = {pygame.K_LEFT: -step, pygame.K_RIGHT: step}.get(event.key, 0)
                dy = {pygame.K_UP: -step, pygame.K_DOWN: step}.get(event.key, 0)
                self.screen.board.camera.pan(dx, dy)
                self.screen.invalidate()
            return None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hover = self.hex_at(event.pos)
            return None
        if event.type == pygame.MOUSEWHEEL and event.y:
            self.screen.zoom(1 if event.y > 0 else -1, self.mouse)
            self.hover = self.hex_at(self.mouse)
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and not self.bar.collidepoint(event.pos):
            h = self.hex_at(event.pos)
            if h is not None:
                return self.place_at(h)
        return None

    def _fill(self, surface: pygame.Surface, hexes: frozenset[Hex], colour: tuple[int, int, int, int]) -> None:
        cam = self.screen.board.camera
        offsets = cam.layout.corner_offsets
        z = cam.zoom
        x0, y0, w, h = cam.view
        for hx in hexes:
            cx, cy = cam.hex_to_screen(hx)
            if x0 - 60 <= cx <= x0 + w + 60 and y0 - 60 <= cy <= y0 + h + 60:
                pygame.draw.polygon(surface, colour, [(cx + dx * z, cy + dy * z) for dx, dy in offsets])

    def view(self) -> BoardView:
        """The board with the illegal hexes dimmed and the legal ones outlined (no decision overlays)."""
        b = self.screen.battle
        legal = self.legal()
        dark = frozenset(h for h in b.terrain.hexes() if h not in legal)
        return BoardView(
            self.screen.tokens(), [HexFill(dark, (0, 0, 0), 120), HexFill(legal, (250, 250, 210), 60, outline=True)]
        )

    def draw(self, surface: pygame.Surface) -> None:
        """The battle's chrome (kept from one frame), the board with the legal hexes, the newcomer under the
        mouse, the bar."""
        key = (surface.get_size(), self.screen.model.version)
        if self._backdrop is None or self._backdrop[0] != key:
            self.screen.draw(surface)
            self._backdrop = (key, surface.copy())
        else:
            surface.blit(self._backdrop[1], (0, 0))
        cam = self.screen.board.camera
        self.screen.board.draw(surface, self.view())
        legal = self.legal()
        if self.hover is not None:
            overlay = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            overlay.set_clip(pygame.Rect(cam.view))
            cells = footprint(self.hover, self.character.footprint, self.facing)
            ok = self.hover in legal
            self._fill(overlay, cells, (90, 220, 120, 160) if ok else (220, 80, 70, 160))
            cx, cy = cam.hex_to_screen(self.hover)
            dx, dy = cam.layout.direction_vector(self.facing)
            tip = (cx + dx * cam.zoom * 0.8, cy + dy * cam.zoom * 0.8)
            pygame.draw.line(overlay, (255, 255, 255, 240), (cx, cy), tip, max(2, round(4 * cam.zoom)))
            surface.blit(overlay, (0, 0))
        s, text = self.ui.s, self.ui.text
        d = self.dialog
        bar = self.bar
        draw_panel(surface, bar, theme.PANEL, theme.ACCENT, radius=6)
        dx, dy = cam.layout.direction_vector(self.facing)
        where = "" if self.hover is None else " · " + hex_name(self.screen.battle, self.screen.data.layout, self.hover)
        text.blit(
            surface,
            f"Place {d.name} ({self.screen.battle.sides[d.side].name}): click a bright hex · "
            f"Q/E turn (facing {compass(dx, dy)}){where} · Esc back",
            (bar.x + s(10), bar.y + s(7)),
            13,
            theme.TEXT,
            bold=True,
        )
        line = self.message or f"{len(legal)} free hex{'es' if len(legal) != 1 else ''} " + (
            "it can stand on"
            if self.character.footprint == 1
            else f"where all {self.character.footprint} of its hexes are free"
        )
        text.blit(
            surface, line[:120], (bar.x + s(10), bar.y + s(29)), 13, theme.DANGER if self.error else theme.TEXT_MUTED
        )


def compass(dx: float, dy: float) -> str:
    """A screen direction as a compass word (y grows downwards): the facing shown while placing."""
    names = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")
    return names[round(math.atan2(dy, dx) / (math.pi / 4)) % 8]
