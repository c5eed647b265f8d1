"""The deployment screen: place the figures before the battle.

Between New battle and the battle. The map is drawn by the board (``game.ui.board``) with each side's
deployment zone shaded in its colour; figures not yet on the map wait in the tray on the right. A figure is
dragged from the tray (or from its hex) onto a free hex of its side's zone — while it is dragged the hexes it
may take are outlined, and a drop anywhere else is refused with the reason. A figure the map itself places
(a Tiled ``figure`` object) starts on its hex and may go back there. The wheel or Q / E turns the selected
figure (FTC 5.2: a figure faces one hex side; the arrow shows which). Auto-deploy places whatever is left
in the tray as ``game.session.place_figures`` would; Clear sends every figure back to the tray. A figure
carrying wounds from its last battle (*Fudge* 4.8, the roster's ``wounds``) shows them as the battle will: on
its token and in the tray, greyed and "out of the fight" when it is too hurt to act.

Each side is played by a human or the computer (the random player is a testing tool, left to ``simulate``; a
side a roster gives it still shows it); the GM seat is
empty, a referee who plays no side, or a human side's player. Start battle is enabled once every figure is
placed and hands ``game.session.new_session`` the placements, the controllers and the GM seat. The screen
adds no rules: where a figure may stand is the map's zones and terrain, checked again by
``game.session.check_placements`` when the battle starts.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from game.engine.creatures import footprint
from game.engine.deployment import deployment_hexes
from game.engine.hexgrid import Hex
from game.engine.players import CHOSEN_IN_WINDOW, LEVEL_NAMES
from game.engine.wounds import Wounds
from game.session import GM_REFEREE, SetupError, auto_place, default_roster_for, deployment_figures
from game.ui import theme
from game.ui.battle.words import counted, facing_words, possessive
from game.ui.dialogs import describe_error
from game.ui.large_tokens import front_extent
from game.ui.mapdata import board_data_from_loaded
from game.ui.screen import Pop, Screen, Transition, UiContext, press, transition_of
from game.ui.screens import BattleSetup
from game.ui.token_art import look_for
from game.ui.token_images import figure_tokens
from game.ui.view import BoardView, HexFill, TokenView
from game.ui.viewer import DRAG_THRESHOLD, ViewerScreen
from game.ui.widgets import Button, Tooltip, cycled, draw_panel

RGB = tuple[int, int, int]
CONTROLLERS = ("human", *CHOSEN_IN_WINDOW)
"""Who a player may choose for a side here (``game.engine.players.CHOSEN_IN_WINDOW``)."""
CONTROLLER_NAMES = {"human": "Human", **LEVEL_NAMES}


@dataclass
class Piece:
    """A figure being deployed: where it stands (None: in the tray) and which hex side it faces."""

    id: str
    name: str
    side: str
    character: str
    hex: Hex | None
    facing: int
    mook: bool = False
    home: Hex | None = None
    """The hex the map's own ``figure`` object gives it (it may always go back there)."""
    size: int = 1
    """Hexes it covers (FTC 5, the roster's ``footprint``): 1, 3 or 7 around its hex."""
    wounds: Wounds | None = None
    """The wounds it carries into the battle from its last one (*Fudge* 4.8), None when unhurt."""

    @property
    def out(self) -> bool:
        """Whether it is too hurt to act (Incapacitated or worse): it starts the battle out of the fight."""
        return self.wounds is not None and not self.wounds.can_act

    @property
    def wound_level(self) -> int:
        """Its worst wound along the track (0 unhurt), as the board's token shows it."""
        worst = self.wounds.worst if self.wounds is not None else None
        return 0 if worst is None else int(worst)

    @property
    def condition(self) -> str:
        """Its condition in the tray's words: "Very Hurt", or "out of the fight" (its tooltip names the wound);
        empty when unhurt."""
        if self.wounds is None:
            return ""
        return "out of the fight" if self.out else self.wounds.label

    def cells(self, h: Hex | None = None, facing: int | None = None) -> frozenset[Hex]:
        """The hexes it covers standing on ``h`` (default: where it stands) facing ``facing`` (FTC 5)."""
        at = h if h is not None else self.hex
        if at is None:
            return frozenset()
        return footprint(at, self.size, (self.facing if facing is None else facing) % 6)

    def placement(self) -> dict[str, Any]:
        """As ``game.session.new_session``'s ``placements`` want it."""
        assert self.hex is not None
        return {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "character": self.character,
            "hex": [self.hex.q, self.hex.r],
            "facing": self.facing % 6,
            "mook": self.mook,
        }


class DeployScreen(ViewerScreen):
    """Place every figure in its side's deployment zone, choose who plays each side and the GM seat."""

    TOP = 40
    SIDE = 360
    STATUS = 26
    ROW = 24

    def __init__(
        self, ui: UiContext, setup: BattleSetup, start_battle: Callable[[BattleSetup], Transition | None]
    ) -> None:
        from game.maps.loader import load_map
        from game.roster import load_roster

        assert setup.map_path is not None
        loaded = load_map(setup.map_path)
        roster = load_roster(setup.roster_path or default_roster_for(setup.map_path, loaded))
        raw = deployment_figures(loaded, roster)
        data = board_data_from_loaded(loaded, setup.map_path, grid=ui.settings.show_grid)
        super().__init__(ui, dataclasses.replace(data, figures=[]), lambda: Pop())
        self.setup = setup
        self.start_battle = start_battle
        self.loaded = loaded
        self.roster = roster
        self.pieces: dict[str, Piece] = {}
        for f in raw:
            h = Hex(*f["hex"]) if f["hex"] is not None else None
            self.pieces[str(f["id"])] = Piece(
                str(f["id"]),
                str(f["name"]),
                str(f["side"]),
                str(f["character"]),
                h,
                int(f["facing"]) % 6,
                bool(f["mook"]),
                h,
                roster.characters[str(f["character"])].footprint,
                roster.characters[str(f["character"])].wounds,
            )
        self.side_ids: list[str] = []
        for p in self.pieces.values():
            if p.side not in self.side_ids:
                self.side_ids.append(p.side)
        self.side_index = {sid: i for i, sid in enumerate(self.side_ids)}
        chosen = {k: ("tactical" if v == "computer" else v) for k, v in setup.side_controllers}
        if not chosen and setup.controllers:
            chosen = dict(zip(self.side_ids, setup.controllers, strict=False))
        self.controllers: dict[str, str] = {}
        for i, sid in enumerate(self.side_ids):
            rs = roster.side(sid)
            default = (
                rs.controller if rs is not None and rs.controller != "human" else ("human" if i == 0 else "tactical")
            )
            self.controllers[sid] = chosen.get(sid, default)
        self.gm: str | None = setup.gm
        self.selected_piece: str | None = None
        self.drag_piece: str | None = None
        self.drag_origin: tuple[int, int] | None = None
        self.drag_moved = False
        self.message = "Drag figures from the tray onto their side's shaded hexes; wheel or Q / E turns one."
        self.message_error = False
        hurt = [p for p in self.pieces.values() if p.wounds is not None]
        if hurt:
            out = [p.name for p in hurt if p.out]
            self.message = (
                f"{counted(len(hurt), 'figure')} {'carries' if len(hurt) == 1 else 'carry'} wounds from the last "
                "battle (Fudge 4.8)" + (f"; out of the fight: {', '.join(out)}" if out else "") + ". " + self.message
            )
        # the made token art by what each character carries; a GM's own pictures (told once if refused)
        self.looks = {key: look_for(ch) for key, ch in roster.characters.items()}
        self.token_images = figure_tokens(raw, roster.data, Path(roster.source), loaded.path, loaded.tmx.objects)
        self.board.images = self.token_images.surface
        if self.token_images.messages:
            self.message, self.message_error = " ".join(self.token_images.messages), True
        self.tooltip: Tooltip = Tooltip()
        self.side_buttons = [
            Button("", functools.partial(self._cycle_controller, sid), size=14) for sid in self.side_ids
        ]
        self.gm_button = Button(
            "",
            self._cycle_gm,
            size=14,
            tooltip="Who holds the GM's seat: nobody, a referee who plays no side, or the player of a human side.",
        )
        self.auto_button = Button(
            "Auto-deploy",
            self.auto_deploy,
            size=15,
            tooltip="Place every figure still in the tray: map figures on their own hex, "
            "the others in their side's zone, facing the enemy.",
        )
        self.clear_button = Button("Clear", self.clear, size=15, tooltip="Send every figure back to the tray.")
        self.back_button = Button("Back", Pop, size=15, tooltip="Back to New battle (Esc).")
        self.start_button = Button("Start battle", self.start, size=17)
        self.tray_rect = pygame.Rect(0, 0, 0, 0)
        self._legal_cache: dict[tuple[object, ...], frozenset[Hex]] = {}
        self._refresh_labels()

    # --- sides and names ----------------------------------------------------------------------------
    def side_name(self, side: str) -> str:
        """The roster's name of a side."""
        rs = self.roster.side(side)
        return rs.name if rs is not None else side.capitalize()

    def side_colour(self, side: str) -> RGB:
        """The roster's colour of a side, or its colour-blind-safe stand-in."""
        rs = self.roster.side(side)
        return self.ui.side_colour(rs.colour if rs is not None else None, self.side_index.get(side, 0))

    def _refresh_labels(self) -> None:
        for sid, b in zip(self.side_ids, self.side_buttons, strict=True):
            b.text = f"{self.side_name(sid)}: {CONTROLLER_NAMES[self.controllers[sid]]}"
            b.tooltip = "Click to change who plays this side: a human or the computer."
        if self.gm is None:
            self.gm_button.text = "GM seat: none"
        elif self.gm == GM_REFEREE:
            self.gm_button.text = "GM seat: a referee (plays no side)"
        else:
            self.gm_button.text = f"GM seat: {possessive(self.side_name(self.gm))} player"
        left = self.unplaced()
        self.start_button.enabled = not left
        self.start_button.tooltip = (
            "Start the battle with this deployment (Enter)."
            if not left
            else f"{counted(len(left), 'figure')} still in the tray: place them first."
        )

    def _cycle_controller(self, side: str) -> bool:
        self.controllers[side] = cycled(CONTROLLERS, self.controllers[side])
        if self.gm == side and self.controllers[side] != "human":
            self.gm = None
            self.say(f"{self.side_name(side)} is now played by the computer, so it cannot hold the GM seat.")
        self._refresh_labels()
        return True

    def gm_choices(self) -> list[str | None]:
        """The GM seats on offer: none, a referee, or the player of each human side."""
        return [None, GM_REFEREE, *(s for s in self.side_ids if self.controllers[s] == "human")]

    def _cycle_gm(self) -> bool:
        self.gm = cycled(self.gm_choices(), self.gm)
        self._refresh_labels()
        return True

    def say(self, text: str, error: bool = False) -> None:
        """Put a sentence in the status bar."""
        self.message, self.message_error = text, error

    # --- where a figure may stand -------------------------------------------------------------------
    def unplaced(self) -> list[Piece]:
        """The figures still in the tray, side by side."""
        order = {sid: i for i, sid in enumerate(self.side_ids)}
        return sorted((p for p in self.pieces.values() if p.hex is None), key=lambda p: order[p.side])

    def occupant(self, h: Hex) -> Piece | None:
        """The placed figure standing on a hex (any hex of a large figure's footprint, FTC 5)."""
        return next(
            (p for p in self.pieces.values() if p.hex == h or (p.size != 1 and p.hex is not None and h in p.cells())),
            None,
        )

    def legal_hexes(self, pid: str, facing: int | None = None) -> frozenset[Hex]:
        """Where a figure may be dropped: free passable hexes of its side's zone (and its own map hex); for
        a large figure (FTC 5) the hexes its position may take, facing ``facing`` (default: its own), with
        every hex of its footprint free, passable and in the zone."""
        p = self.pieces[pid]
        face = p.facing if facing is None else facing % 6
        key = (pid, face, tuple((q.hex, q.facing) for q in self.pieces.values()))
        # the board asks on every mouse move of a drag: keep the answer until a figure moves or turns
        cached = self._legal_cache.get(key)
        if cached is None:
            taken = {c for q in self.pieces.values() if q is not p for c in q.cells()}
            zone = self.data.zones.get(p.side, frozenset())
            cached = deployment_hexes(self.data.terrain, zone, size=p.size, facing=face, taken=taken, home=p.home)
            self._legal_cache.clear()
            self._legal_cache[key] = cached
        return cached

    def _footprint_refusal(self, p: Piece, h: Hex, facing: int | None = None) -> str:
        """Why a large figure may not stand with its position on ``h`` (FTC 5; "" when it may): every hex of
        its footprint on the map, passable, free and in its side's zone (its own map placement excepted).
        The same conditions ``game.session.check_placements`` checks when the battle starts, plus the zone."""
        terrain = self.data.terrain
        zone = self.data.zones.get(p.side, frozenset())
        cells = p.cells(h, facing)
        at_home = p.home is not None and h == p.home
        for c in sorted(cells):
            if not terrain.contains(c):
                return f"{p.name} covers {p.size} hexes and one of them would be off the map; give it room."
            other = self.occupant(c)
            if other is not None and other is not p:
                return f"{p.name} covers {p.size} hexes and {other.name} stands on one of them; give it room."
            if not terrain.is_passable(c):
                return (
                    f"{p.name} covers {p.size} hexes and one of them is {terrain.type_at(c).name}, which "
                    "nobody can enter; give it room."
                )
            if c not in zone and not at_home:
                return (
                    f"{p.name} covers {p.size} hexes and all of them must be in the deployment zone of "
                    f"{self.side_name(p.side)}; move it further in."
                )
        return ""

    def refusal(self, pid: str, h: Hex | None) -> str:
        """Why a figure may not stand on a hex ("" when it may)."""
        p = self.pieces[pid]
        terrain = self.data.terrain
        if h is None or not terrain.contains(h):
            return f"{p.name} must stand on the map: drop it on a shaded hex of {self.side_name(p.side)}."
        if p.size != 1 and p.side in self.data.zones:
            return self._footprint_refusal(p, h)
        other = self.occupant(h)
        if other is not None and other is not p:
            return f"{p.name} cannot stand there: {other.name} already does. Drop it on a free hex."
        if not terrain.is_passable(h):
            return f"{p.name} cannot stand in {terrain.type_at(h).name}: nobody can enter that hex."
        if h in self.legal_hexes(pid):
            return ""
        if p.side not in self.data.zones:
            return f"{p.name} can only stand where the map puts it: this map has no deployment zone for its side."
        return f"{p.name} must start in the deployment zone of {self.side_name(p.side)}: one of the outlined hexes."

    def place(self, pid: str, h: Hex | None) -> bool:
        """Put a figure on a hex (None: back in the tray); a hex it may not take is refused with the reason."""
        p = self.pieces[pid]
        if h is None:
            p.hex = None
            if self.selected_piece == pid:
                self.selected_piece = None
            self.say(f"{p.name} is back in the tray.")
        else:
            why = self.refusal(pid, h)
            if why:
                self.say(why, error=True)
                return False
            p.hex = h
            self.selected_piece = pid
            self.say(f"{p.name} placed. Wheel or Q / E turns it.")
        self._refresh_labels()
        self._view = None
        return True

    def turn(self, pid: str, step: int) -> None:
        """Turn a placed figure one hex side (positive: counter-clockwise, as Q and the wheel up); a large
        figure's footprint turns with it (FTC 5) and a turn that would put part of it where it may not stand
        is refused with the reason."""
        p = self.pieces[pid]
        if p.size != 1 and p.hex is not None and p.side in self.data.zones:
            why = self._footprint_refusal(p, p.hex, p.facing + step)
            if why:
                self.say(f"{p.name} cannot turn there: {why}", error=True)
                return
        p.facing = (p.facing + step) % 6
        self.selected_piece = pid
        self.say(f"{p.name} faces {self.compass(p.facing)}.")
        self._view = None

    def turn_in_hand(self, step: int) -> None:
        """Turn the figure being dragged (Q / E or the wheel): a large figure's footprint under the cursor
        turns with it (FTC 5), so it can be fitted before it is dropped."""
        assert self.drag_piece is not None
        p = self.pieces[self.drag_piece]
        p.facing = (p.facing + step) % 6
        self.say(f"{p.name} faces {self.compass(p.facing)}.")
        self._view = None

    def compass(self, facing: int) -> str:
        """A facing as a compass word of this map's layout ("north-east")."""
        return facing_words(self.data.layout, facing)

    def auto_deploy(self) -> bool:
        """Place every figure in the tray as ``place_figures`` would: map figures on their own hex when it is
        free, the others on the first free hexes of their zone facing the enemy."""
        used = {c for p in self.pieces.values() for c in p.cells()}
        waiting = self.unplaced()
        for p in waiting:
            if p.home is not None and used.isdisjoint(p.cells(p.home)):
                p.hex = p.home
            else:
                try:
                    p.hex, p.facing = auto_place(self.loaded, p.side, used, p.name, p.size)
                except SetupError as exc:
                    self.say(describe_error(exc, "Auto-deploy"), error=True)
                    break
            used |= p.cells()
        else:
            self.say(
                f"Auto-deployed {counted(len(waiting), 'figure')}."
                if waiting
                else "Every figure is already placed; Clear first to deploy them all again."
            )
        self._refresh_labels()
        self._view = None
        return True

    def clear(self) -> bool:
        """Every figure back to the tray."""
        for p in self.pieces.values():
            p.hex = None
        self.selected_piece = None
        self.say("Every figure is back in the tray.")
        self._refresh_labels()
        self._view = None
        return True

    def battle_setup(self) -> BattleSetup:
        """The battle the screen would start now (every figure placed)."""
        return dataclasses.replace(
            self.setup,
            placements=tuple(p.placement() for p in self.pieces.values()),
            side_controllers=tuple((sid, self.controllers[sid]) for sid in self.side_ids),
            controllers=(),
            gm=self.gm,
            deploy=False,
        )

    def start(self) -> Transition | None:
        """Start the battle (refused, with a message, while a figure is still in the tray)."""
        left = self.unplaced()
        if left:
            self.say(
                f"Place every figure first: {len(left)} still in the tray "
                f"({', '.join(p.name for p in left[:3])}{'…' if len(left) > 3 else ''}); drag them or "
                "use Auto-deploy.",
                error=True,
            )
            return None
        return self.start_battle(self.battle_setup())

    # --- layout -------------------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Board on the left; sides, GM seat, tray and buttons on the right; status bar at the bottom."""
        Screen.on_resize(self, size)
        s = self.ui.s
        w, h = size
        top, side, status = s(self.TOP), s(self.SIDE), s(self.STATUS)
        self.board.camera.set_view((0, top, max(100, w - side), max(100, h - top - status)))
        if not self._fitted:
            self._fit_zones()
            self._fitted = True
        self.board.set_palette(self.ui.palette)
        x = w - side + s(12)
        bw = side - s(24)
        y = top + s(34)
        for b in self.side_buttons:
            b.rect = pygame.Rect(x + s(22), y, bw - s(22), s(32))
            y += s(38)
        self.gm_button.rect = pygame.Rect(x, y + s(4), bw, s(32))
        y = self.gm_button.rect.bottom + s(36)
        bottom = h - status - s(12)
        self.start_button.rect = pygame.Rect(x + bw // 2 + s(4), bottom - s(42), bw - bw // 2 - s(4), s(42))
        self.back_button.rect = pygame.Rect(x, bottom - s(42), bw // 2 - s(4), s(42))
        self.auto_button.rect = pygame.Rect(x, bottom - s(84), bw // 2 - s(4), s(34))
        self.clear_button.rect = pygame.Rect(x + bw // 2 + s(4), bottom - s(84), bw - bw // 2 - s(4), s(34))
        self.tray_rect = pygame.Rect(x, y, bw, max(s(self.ROW), self.auto_button.rect.y - s(10) - y))
        self._view = None

    def _fit_zones(self) -> None:
        """Fit the map, then come closer (for readable names) as far as every deployment zone stays in view."""
        from game.ui.camera import ZOOM_LEVELS

        cam = self.board.camera
        cam.fit()
        spots = [h for z in self.data.zones.values() for h in z] or [
            p.hex for p in self.pieces.values() if p.hex is not None
        ]
        if not spots:
            return
        centres = [self.data.layout.hex_center(h) for h in spots]
        pad = max(self.data.layout.width, self.data.layout.height)
        x0, x1 = min(c[0] for c in centres) - pad, max(c[0] for c in centres) + pad
        y0, y1 = min(c[1] for c in centres) - pad, max(c[1] for c in centres) + pad
        _, _, vw, vh = cam.view
        while (
            self.board.token_radius() < self.ui.s(12)
            and cam.zoom_index < len(ZOOM_LEVELS) - 1
            and (x1 - x0) * ZOOM_LEVELS[cam.zoom_index + 1] <= vw
            and (y1 - y0) * ZOOM_LEVELS[cam.zoom_index + 1] <= vh
        ):
            cam.zoom_index += 1
        cam.center_on((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def buttons(self) -> list[Button]:
        """Every button of the side panel."""
        return [
            *self.side_buttons,
            self.gm_button,
            self.auto_button,
            self.clear_button,
            self.back_button,
            self.start_button,
        ]

    def tray_rows(self) -> list[tuple[pygame.Rect, Piece]]:
        """Where each figure of the tray is drawn (those that fit)."""
        s = self.ui.s
        rows = []
        y = self.tray_rect.y + s(4)
        for p in self.unplaced():
            if y + s(self.ROW) > self.tray_rect.bottom:
                break
            rows.append((pygame.Rect(self.tray_rect.x + s(4), y, self.tray_rect.width - s(8), s(self.ROW) - s(2)), p))
            y += s(self.ROW)
        return rows

    def tray_piece_at(self, pos: tuple[int, int]) -> Piece | None:
        """The tray figure under a screen point."""
        return next((p for r, p in self.tray_rows() if r.collidepoint(pos)), None)

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        """The map hex under a screen point (None off the board or off the map)."""
        if not self._in_board(pos):
            return None
        h = self.board.camera.screen_to_hex(*pos)
        return h if self.data.terrain.contains(h) else None

    def piece_at(self, pos: tuple[int, int]) -> Piece | None:
        """The placed figure under a screen point."""
        h = self.hex_at(pos)
        return self.occupant(h) if h is not None else None

    def screen_of(self, pid: str) -> tuple[int, int]:
        """Where a placed figure is on screen (tests drag from there)."""
        h = self.pieces[pid].hex
        assert h is not None
        x, y = self.board.camera.hex_to_screen(h)
        return round(x), round(y)

    # --- input --------------------------------------------------------------------------------------
    def select_at(self, pos: tuple[int, int]) -> None:
        """Select the placed figure under a point (or clear the selection)."""
        p = self.piece_at(pos)
        self.selected_piece = p.id if p is not None and p.id != self.selected_piece else None
        if p is not None and self.selected_piece is not None:
            self.say(f"{p.name} selected: drag to move, wheel or Q / E to turn, Delete to send it to the tray.")
        self._view = None

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons, figure drags and turns; the rest pans and zooms the board."""
        if event.type == pygame.KEYDOWN:
            return self._deploy_key(event)
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            b = press(self.buttons, event)
            if b is not None:
                self._refresh_labels()
                self._view = None
                return transition_of(b.result)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._update_tooltip(event.pos)
            if self.drag_piece is not None:
                if self.drag_origin is not None and not self.drag_moved:
                    dx, dy = event.pos[0] - self.drag_origin[0], event.pos[1] - self.drag_origin[1]
                    self.drag_moved = abs(dx) + abs(dy) >= DRAG_THRESHOLD
                self._set_hover(event.pos)
                self._view = None
                return None
            return super().on_event(event)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if any(b.rect.collidepoint(event.pos) for b in self.buttons):
                return None
            tray = self.tray_piece_at(event.pos)
            piece = tray or self.piece_at(event.pos)
            if piece is not None:
                self.drag_piece, self.drag_origin = piece.id, event.pos
                self.drag_moved = tray is not None
                self._view = None
                return None
            if not self._in_board(event.pos):
                return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag_piece is not None:
            return self._drop(event.pos)
        if event.type == pygame.MOUSEWHEEL and event.y:
            if self.drag_piece is not None and self.drag_moved:
                self.turn_in_hand(1 if event.y > 0 else -1)
                return None
            p = self.piece_at(self.mouse)
            if p is not None:
                self.turn(p.id, 1 if event.y > 0 else -1)
                return None
        return super().on_event(event)

    def _drop(self, pos: tuple[int, int]) -> Transition | None:
        pid, moved = self.drag_piece, self.drag_moved
        self.drag_piece, self.drag_origin, self.drag_moved = None, None, False
        self._view = None
        assert pid is not None
        if not moved:
            self.selected_piece = None if self.selected_piece == pid else pid
            if self.selected_piece is not None:
                self.say(
                    f"{self.pieces[pid].name} selected: drag to move, wheel or Q / E to turn, "
                    "Delete to send it to the tray."
                )
            return None
        if self.tray_rect.collidepoint(pos):
            if self.pieces[pid].hex is not None:
                self.place(pid, None)
            return None
        if not self._in_board(pos):
            self.say(f"{self.pieces[pid].name} was not moved: drop it on the map.")
            return None
        self.place(pid, self.hex_at(pos))
        return None

    def _deploy_key(self, event: pygame.event.Event) -> Transition | None:
        key = event.key
        if key == pygame.K_ESCAPE:
            if self.drag_piece is not None:
                self.drag_piece, self.drag_origin, self.drag_moved = None, None, False
                self._view = None
                return None
            return Pop()
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.start()
        if key in (pygame.K_q, pygame.K_e):
            if self.drag_piece is not None and self.drag_moved:
                self.turn_in_hand(1 if key == pygame.K_q else -1)
            elif self.selected_piece is not None and self.pieces[self.selected_piece].hex is not None:
                self.turn(self.selected_piece, 1 if key == pygame.K_q else -1)
            else:
                self.say("Select a placed figure first (click it), then Q / E turn it.", error=True)
            return None
        if key in (pygame.K_DELETE, pygame.K_BACKSPACE) and self.selected_piece is not None:
            self.place(self.selected_piece, None)
            return None
        if key == pygame.K_TAB:
            placed = [p.id for p in self.pieces.values() if p.hex is not None]
            if placed:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                i = (placed.index(self.selected_piece) + step) % len(placed) if self.selected_piece in placed else 0
                self.selected_piece = placed[i]
                self.board.camera.center_on(*self.data.layout.hex_center(self.pieces[placed[i]].hex))  # type: ignore[arg-type]
                self._view = None
            return None
        return super()._key_down(event)

    def _update_tooltip(self, pos: tuple[int, int]) -> None:
        tip = next((b.hint for b in self.buttons if b.rect.collidepoint(pos) and b.hint), "")
        if not tip and self.drag_piece is None:
            tray = self.tray_piece_at(pos)
            if tray is not None:
                tip = (
                    f"{tray.name} ({tray.character}) of {self.side_name(tray.side)}: drag it onto a shaded "
                    "hex of its side." + self.wounds_words(tray)
                )
            else:
                placed = self.piece_at(pos)
                h = self.hex_at(pos)
                if placed is not None:
                    tip = (
                        f"{placed.name} ({placed.character}) of {self.side_name(placed.side)}, facing "
                        f"{self.compass(placed.facing)}: drag to move, wheel or Q / E to turn."
                        + self.wounds_words(placed)
                    )
                elif h is not None:
                    zone = next((sid for sid, z in self.data.zones.items() if h in z), None)
                    if zone is not None:
                        tip = f"Deployment zone of {self.side_name(zone)}."
        self.tooltip.hover(tip, pos)

    @staticmethod
    def wounds_words(p: Piece) -> str:
        """What a figure's carried wounds mean for the battle, for its tooltip ("" when unhurt)."""
        if p.wounds is None:
            return ""
        if p.out:
            return f" It carries {p.wounds.label} from its last battle (Fudge 4.8): it starts out of the fight."
        return f" It carries {p.wounds.label} from its last battle (Fudge 4.8): its wounds count from the start."

    @property
    def busy(self) -> bool:
        """A pan key is held or a tooltip waits for its delay."""
        return bool(self.held) or self.tooltip.pending

    def update(self, dt: float) -> bool:
        """Panning and the tooltip timer."""
        changed = super().update(dt)
        return self.tooltip.update(dt) or changed

    # --- drawing ------------------------------------------------------------------------------------
    def tokens(self) -> list[TokenView]:
        """Every placed figure (the one being dragged follows the mouse instead)."""
        moving = self.drag_piece if self.drag_moved else None
        return [
            TokenView(
                p.id,
                p.name,
                self.side_colour(p.side),
                p.hex,
                p.facing,
                p.wound_level,
                p.out,
                p.id == self.selected_piece,
                cells=p.cells() if p.size != 1 else frozenset(),
                look=self.looks.get(p.character, ""),
                image=self.token_images.image_of(p.id),
            )
            for p in self.pieces.values()
            if p.hex is not None and p.id != moving
        ]

    def board_view(self) -> BoardView:
        """Zones shaded per side; while dragging, the hexes the figure may take outlined."""
        if self._view is None:
            fills = [
                HexFill(frozenset(hexes), self.side_colour(side), 70, outline=True)
                for side, hexes in self.data.zones.items()
            ]
            if self.drag_piece is not None and self.drag_moved:
                # gold, not a side colour: the legal hexes must stand out from the zone's own shading
                fills.append(HexFill(self.legal_hexes(self.drag_piece), theme.ACCENT, 95, outline=True))
                h = self.selection.hover
                p = self.pieces[self.drag_piece]
                if h is not None and p.size != 1:
                    # the whole footprint under the cursor (FTC 5), gold where it may stand, red where not
                    ok = not self.refusal(p.id, h)
                    fills.append(
                        HexFill(p.cells(h), theme.ACCENT if ok else theme.DANGER, 120 if ok else 170, outline=True)
                    )
                elif h is not None and h not in self.legal_hexes(self.drag_piece):
                    fills.append(HexFill(frozenset({h}), theme.DANGER, 170, outline=True))
            self._view = BoardView(self.tokens(), fills, hover=self.selection.hover)
        return self._view

    def draw(self, surface: pygame.Surface) -> None:
        """Board, facing arrow, the dragged figure, top bar, side panel, status bar, tooltip."""
        self.board.draw(surface, self.board_view())
        s, text = self.ui.s, self.ui.text
        w, h = surface.get_size()
        cam = self.board.camera
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(cam.view))
        sel = self.pieces.get(self.selected_piece or "")
        if sel is not None and sel.hex is not None and sel.id != (self.drag_piece if self.drag_moved else None):
            self._draw_arrow(
                surface,
                cam.hex_to_screen(sel.hex),
                sel.facing,
                self.ui.palette.selection,
                front_extent(self.data.layout, sel.hex, sel.cells(), sel.facing) * cam.zoom,
            )
        surface.set_clip(clip)
        if self.drag_piece is not None and self.drag_moved:
            p = self.pieces[self.drag_piece]
            sprite, anchor = self.board.token_sprite(
                TokenView(
                    p.id,
                    p.name,
                    self.side_colour(p.side),
                    Hex(0, 0),
                    p.facing,
                    p.wound_level,
                    p.out,
                    cells=p.cells(Hex(0, 0)) if p.size != 1 else frozenset(),
                    look=self.looks.get(p.character, ""),
                    image=self.token_images.image_of(p.id),
                )
            )
            if p.size != 1:
                # see-through, so the footprint's gold or red under the cursor shows where it would stand
                sprite = sprite.copy()
                sprite.set_alpha(150)
            surface.blit(sprite, (self.mouse[0] - anchor[0], self.mouse[1] - anchor[1]))
            label = self.board.name_tag(p.name, 13)
            surface.blit(label, label.get_rect(midtop=(self.mouse[0], self.mouse[1] + sprite.get_height() // 2)))
        top = s(self.TOP)
        pygame.draw.rect(surface, theme.PANEL, (0, 0, w, top))
        pygame.draw.line(surface, theme.BORDER, (0, top - 1), (w, top - 1))
        placed = sum(1 for p in self.pieces.values() if p.hex is not None)
        title = text.blit(
            surface, f"Deployment — {self.data.name}", (s(14), top // 2), 18, theme.ACCENT, bold=True, anchor="midleft"
        )
        count = f"{placed} of {len(self.pieces)} figures placed"
        text.blit(
            surface,
            count,
            (max(w - s(self.SIDE) - s(12), title.right + s(24) + text.width(count, 15)), top // 2),
            15,
            theme.TEXT if placed < len(self.pieces) else theme.ACCENT,
            anchor="midright",
        )
        self._draw_panel(surface)
        pygame.draw.rect(surface, theme.PANEL, (0, h - s(self.STATUS), w, s(self.STATUS)))
        pygame.draw.line(surface, theme.BORDER, (0, h - s(self.STATUS)), (w, h - s(self.STATUS)))
        text.blit(
            surface,
            text.fit(self.message, 13, w - s(24)),
            (s(12), h - s(self.STATUS) // 2),
            13,
            theme.DANGER if self.message_error else theme.TEXT_MUTED,
            anchor="midleft",
        )
        self.tooltip.draw(surface, text)

    def _draw_arrow(
        self, surface: pygame.Surface, centre: tuple[float, float], facing: int, colour: RGB, front: float = 0.0
    ) -> None:
        angle = self.data.layout.direction_angle(facing)
        r = self.board.token_radius()
        start = (centre[0] + math.cos(angle) * (r * 0.9 + front), centre[1] - math.sin(angle) * (r * 0.9 + front))
        tip = (centre[0] + math.cos(angle) * (r * 2.0 + front), centre[1] - math.sin(angle) * (r * 2.0 + front))
        width = max(2, round(r / 6))
        pygame.draw.line(surface, (0, 0, 0), start, tip, width + 2)
        pygame.draw.line(surface, colour, start, tip, width)
        head = max(5.0, r * 0.45)
        left = (tip[0] - math.cos(angle - 0.5) * head, tip[1] + math.sin(angle - 0.5) * head)
        right = (tip[0] - math.cos(angle + 0.5) * head, tip[1] + math.sin(angle + 0.5) * head)
        pygame.draw.polygon(surface, colour, [tip, left, right])

    def _draw_panel(self, surface: pygame.Surface) -> None:
        s, text = self.ui.s, self.ui.text
        w, h = surface.get_size()
        side, top = s(self.SIDE), s(self.TOP)
        panel = pygame.Rect(w - side, top, side, h - top - s(self.STATUS))
        pygame.draw.rect(surface, theme.BACKGROUND, panel)
        pygame.draw.line(surface, theme.BORDER, panel.topleft, panel.bottomleft)
        x = panel.x + s(12)
        text.blit(surface, "Players (click to change)", (x, top + s(10)), 14, theme.TEXT_MUTED, bold=True)
        for sid, b in zip(self.side_ids, self.side_buttons, strict=True):
            pygame.draw.circle(surface, self.side_colour(sid), (x + s(8), b.rect.centery), s(7))
            b.draw(surface, text)
        self.gm_button.draw(surface, text)
        left = self.unplaced()
        text.blit(
            surface, f"Tray — {len(left)} to place", (x, self.tray_rect.y - s(24)), 14, theme.TEXT_MUTED, bold=True
        )
        draw_panel(surface, self.tray_rect, theme.PANEL, theme.BORDER)
        rows = self.tray_rows()
        if not left:
            text.blit(
                surface,
                "Every figure is on the map.",
                (self.tray_rect.x + s(10), self.tray_rect.y + s(8)),
                13,
                theme.TEXT_MUTED,
            )
        for rect, p in rows:
            dragging = self.drag_piece == p.id and self.drag_moved
            if rect.collidepoint(self.mouse) and not dragging:
                pygame.draw.rect(surface, theme.PANEL_LIGHT, rect, border_radius=4)
            colour = self.side_colour(p.side)
            pygame.draw.circle(
                surface, colour if not dragging else theme.TEXT_DISABLED, (rect.x + s(12), rect.centery), s(8), s(3)
            )
            named = text.blit(
                surface,
                p.name,
                (rect.x + s(28), rect.centery),
                14,
                theme.TEXT if not dragging and not p.out else theme.TEXT_DISABLED,
                bold=True,
                anchor="midleft",
            )
            if p.condition:
                room = rect.right - s(6) - text.width(self.side_name(p.side), 12) - s(8) - named.right - s(8)
                text.blit(
                    surface,
                    text.fit(p.condition, 12, room),
                    (named.right + s(8), rect.centery),
                    12,
                    theme.DANGER,
                    anchor="midleft",
                )
            text.blit(
                surface,
                self.side_name(p.side),
                (rect.right - s(6), rect.centery),
                12,
                theme.TEXT_MUTED,
                anchor="midright",
            )
        if len(rows) < len(left):
            text.blit(
                surface,
                f"+{len(left) - len(rows)} more (place some first)",
                (self.tray_rect.x + s(10), self.tray_rect.bottom - s(18)),
                12,
                theme.TEXT_MUTED,
            )
        for b in (self.auto_button, self.clear_button, self.back_button, self.start_button):
            b.draw(surface, text)


__all__ = ["DeployScreen", "Piece"]
