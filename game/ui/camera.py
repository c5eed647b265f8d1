"""Hex layout and camera: axial hexes <-> Tiled cells <-> map pixels <-> screen pixels (docs/architecture.md
"Coordinates have one home each").

``HexLayout`` reproduces the geometry of Tiled's hexagonal renderer, for both orientations:

- ``stagger_axis="y"`` (pointy-top hexes, rows shifted): a cell is ``tile_width`` x ``tile_height``; the
  vertical sides are ``hex_side`` long; rows are ``(tile_height - hex_side) // 2 + hex_side`` apart and the
  staggered rows are shifted right by half a tile.
- ``stagger_axis="x"`` (flat-top hexes, columns shifted): the horizontal sides are ``hex_side`` long; columns
  are ``(tile_width - hex_side) // 2 + hex_side`` apart and staggered columns shift down by half a tile.

Tiled rounds tile sizes down to even numbers and works in whole pixels; so do we, so a hex centre here is
the centre of the cell Tiled draws. Because the layout is a lattice, a hex centre is an affine function of
its axial coordinates; the hexes may be irregular (any side length), so picking tests the point against the
actual hexagon of the nearest candidates rather than rounding (exact point-in-hex).

``Camera`` adds the view: ``screen = (map - origin) * zoom + view.topleft``, zoom from a fixed ladder of
levels (so the drawn map can be cached per level), panning clamped to keep the map in sight.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.engine.hexgrid import DIRECTIONS, Hex, cube_round, hex_to_offset, offset_to_hex

Point = tuple[float, float]

ZOOM_LEVELS: tuple[float, ...] = (0.125, 0.1875, 0.25, 0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0)
"""Zoom ladder: each step is about x1.4; the drawn map is cached per level."""


@dataclass(frozen=True)
class HexLayout:
    """Pixel geometry of a Tiled hexagonal map (cell size, side length, stagger)."""

    tile_width: int
    tile_height: int
    hex_side: int
    stagger_axis: str = "y"
    stagger_index: str = "odd"
    _base: Point = field(init=False, repr=False, compare=False)
    _vq: Point = field(init=False, repr=False, compare=False)
    _vr: Point = field(init=False, repr=False, compare=False)
    _inverse: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)
    _corners: tuple[Point, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.stagger_axis not in ("x", "y") or self.stagger_index not in ("odd", "even"):
            raise ValueError(f"unknown stagger {self.stagger_axis!r}/{self.stagger_index!r}")
        w, h = self.width, self.height
        if w <= 0 or h <= 0:
            raise ValueError(f"hex tiles must have a positive size, not {self.tile_width}x{self.tile_height}")
        # The centre of hex (0, 0) and the steps for +q and +r, from Tiled's own cell placement.
        base = self.cell_center(*hex_to_offset(Hex(0, 0), self.stagger_axis, self.stagger_index))
        cq = self.cell_center(*hex_to_offset(Hex(2, 0), self.stagger_axis, self.stagger_index))
        cr = self.cell_center(*hex_to_offset(Hex(0, 2), self.stagger_axis, self.stagger_index))
        vq = ((cq[0] - base[0]) / 2, (cq[1] - base[1]) / 2)
        vr = ((cr[0] - base[0]) / 2, (cr[1] - base[1]) / 2)
        det = vq[0] * vr[1] - vq[1] * vr[0]
        inverse = (vr[1] / det, -vr[0] / det, -vq[1] / det, vq[0] / det)
        hw, hh = w / 2, h / 2
        if self.stagger_axis == "y":
            so = self.side_offset
            corners: tuple[Point, ...] = (
                (0.0, -hh),
                (-hw, -hh + so),
                (-hw, hh - so),
                (0.0, hh),
                (hw, hh - so),
                (hw, -hh + so),
            )
        else:
            so = self.side_offset
            corners = ((-hw + so, -hh), (-hw, 0.0), (-hw + so, hh), (hw - so, hh), (hw, 0.0), (hw - so, -hh))
        object.__setattr__(self, "_base", base)
        object.__setattr__(self, "_vq", vq)
        object.__setattr__(self, "_vr", vr)
        object.__setattr__(self, "_inverse", inverse)
        # Counter-clockwise on screen (y down), which the point-in-hex test relies on.
        object.__setattr__(self, "_corners", corners)

    # --- Tiled's numbers ---------------------------------------------------------------------------
    @property
    def width(self) -> int:
        """Cell width as Tiled uses it (rounded down to even)."""
        return self.tile_width & ~1

    @property
    def height(self) -> int:
        """Cell height as Tiled uses it (rounded down to even)."""
        return self.tile_height & ~1

    @property
    def side_offset(self) -> int:
        """Length of a slanted side's projection on the stagger axis (Tiled's sideOffset)."""
        if self.stagger_axis == "y":
            return (self.height - self.hex_side) // 2
        return (self.width - self.hex_side) // 2

    @property
    def column_width(self) -> int:
        """Horizontal distance between neighbouring columns' origins (Tiled's columnWidth)."""
        if self.stagger_axis == "x":
            return self.side_offset + self.hex_side
        return self.width // 2

    @property
    def row_height(self) -> int:
        """Vertical distance between neighbouring rows' origins (Tiled's rowHeight)."""
        if self.stagger_axis == "y":
            return self.side_offset + self.hex_side
        return self.height // 2

    def _staggered(self, index: int) -> bool:
        return bool(index & 1) ^ (self.stagger_index == "even")

    def cell_origin(self, col: int, row: int) -> tuple[int, int]:
        """Top-left pixel of Tiled cell (col, row) in map pixels."""
        if self.stagger_axis == "x":
            y = row * self.height + (self.row_height if self._staggered(col) else 0)
            return col * self.column_width, y
        x = col * self.width + (self.column_width if self._staggered(row) else 0)
        return x, row * self.row_height

    def cell_center(self, col: int, row: int) -> Point:
        """Centre of Tiled cell (col, row) in map pixels."""
        x, y = self.cell_origin(col, row)
        return x + self.width / 2, y + self.height / 2

    def map_size(self, cols: int, rows: int) -> tuple[int, int]:
        """Pixel size of a whole map of cols x rows cells, as Tiled computes it."""
        if self.stagger_axis == "x":
            return (
                self.column_width * cols + self.side_offset,
                self.height * rows + (self.row_height if cols > 1 else 0),
            )
        return (
            self.width * cols + (self.column_width if rows > 1 else 0),
            self.row_height * rows + self.side_offset,
        )

    # --- hexes <-> map pixels ----------------------------------------------------------------------
    def cell_of(self, h: Hex) -> tuple[int, int]:
        """Tiled cell (col, row) of an axial hex."""
        return hex_to_offset(h, self.stagger_axis, self.stagger_index)

    def hex_of(self, col: int, row: int) -> Hex:
        """Axial hex of a Tiled cell."""
        return offset_to_hex(col, row, self.stagger_axis, self.stagger_index)

    def hex_center(self, h: Hex) -> Point:
        """Centre of a hex in map pixels."""
        return (
            self._base[0] + h.q * self._vq[0] + h.r * self._vr[0],
            self._base[1] + h.q * self._vq[1] + h.r * self._vr[1],
        )

    def corners(self, h: Hex) -> list[Point]:
        """The six corners of a hex in map pixels (counter-clockwise on screen)."""
        cx, cy = self.hex_center(h)
        return [(cx + dx, cy + dy) for dx, dy in self._corners]

    @property
    def corner_offsets(self) -> tuple[Point, ...]:
        """The six corners relative to a hex centre, in map pixels."""
        return self._corners

    def direction_vector(self, direction: int) -> Point:
        """Map-pixel step from a hex centre to its neighbour across side ``direction`` (0..5)."""
        d = DIRECTIONS[direction % 6]
        return d.q * self._vq[0] + d.r * self._vr[0], d.q * self._vq[1] + d.r * self._vr[1]

    def direction_angle(self, direction: int) -> float:
        """Screen angle (radians, counter-clockwise from east, y up) of a facing direction."""
        dx, dy = self.direction_vector(direction)
        return math.atan2(-dy, dx)

    def _margin(self, h: Hex, x: float, y: float) -> float:
        """How far inside hex h the point lies (negative: outside), in pixels, edge by edge."""
        cx, cy = self.hex_center(h)
        px, py = x - cx, y - cy
        worst = math.inf
        c = self._corners
        for i in range(6):
            ax, ay = c[i]
            bx, by = c[(i + 1) % 6]
            ex, ey = bx - ax, by - ay
            length = math.hypot(ex, ey)
            if length == 0.0:
                continue
            # Corners run counter-clockwise on screen (y down): inside is where this cross product is < 0.
            cross = (ex * (py - ay) - ey * (px - ax)) / length
            worst = min(worst, -cross)
        return worst

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing map pixel (x, y): the candidate hexagon the point is deepest inside."""
        ix, iy = x - self._base[0], y - self._base[1]
        a, b, c, d = self._inverse
        fq, fr = a * ix + b * iy, c * ix + d * iy
        guess = cube_round(fq, fr)
        best, best_margin = guess, self._margin(guess, x, y)
        # Odd side lengths make Tiled's hexagons overlap by a pixel, so even a hit is compared with the
        # neighbours: the deepest containment wins, which is exact for a true tiling and fair at overlaps.
        for dq, dr in DIRECTIONS:
            cand = Hex(guess.q + dq, guess.r + dr)
            m = self._margin(cand, x, y)
            if m > best_margin:
                best, best_margin = cand, m
        return best

    def pixel_to_cell(self, x: float, y: float) -> tuple[int, int]:
        """The Tiled cell containing map pixel (x, y)."""
        return self.cell_of(self.pixel_to_hex(x, y))


class Camera:
    """The view onto the map: an origin in map pixels, a zoom level, and the screen rectangle it fills."""

    def __init__(
        self,
        layout: HexLayout,
        map_size: tuple[int, int],
        view: tuple[int, int, int, int],
        zoom_index: int | None = None,
    ) -> None:
        self.layout = layout
        self.map_size = map_size
        self.view = view
        self.zoom_index = ZOOM_LEVELS.index(1.0) if zoom_index is None else zoom_index
        self.origin_x = 0.0
        self.origin_y = 0.0
        self.clamp()

    @property
    def zoom(self) -> float:
        """Screen pixels per map pixel."""
        return ZOOM_LEVELS[self.zoom_index]

    def set_view(self, view: tuple[int, int, int, int]) -> None:
        """The screen rectangle (x, y, w, h) the board occupies (after a resize or layout change)."""
        self.view = view
        self.clamp()

    # --- conversions ------------------------------------------------------------------------------
    def map_to_screen(self, x: float, y: float) -> Point:
        """Map pixels -> screen pixels."""
        z = self.zoom
        return (x - self.origin_x) * z + self.view[0], (y - self.origin_y) * z + self.view[1]

    def screen_to_map(self, sx: float, sy: float) -> Point:
        """Screen pixels -> map pixels."""
        z = self.zoom
        return (sx - self.view[0]) / z + self.origin_x, (sy - self.view[1]) / z + self.origin_y

    def hex_to_screen(self, h: Hex) -> Point:
        """Screen position of a hex centre."""
        return self.map_to_screen(*self.layout.hex_center(h))

    def screen_to_hex(self, sx: float, sy: float) -> Hex:
        """The hex under a screen pixel (exact point-in-hex; may lie off the map)."""
        return self.layout.pixel_to_hex(*self.screen_to_map(sx, sy))

    def in_view(self, sx: float, sy: float) -> bool:
        """Whether a screen point lies inside the board's rectangle."""
        x, y, w, h = self.view
        return x <= sx < x + w and y <= sy < y + h

    # --- movement ---------------------------------------------------------------------------------
    def pan(self, dx_screen: float, dy_screen: float, *, loose: bool = False) -> None:
        """Move the view by a screen-pixel offset (content follows the mouse when dragging: pass -drag);
        ``loose``: a map smaller than the view may leave the middle (see ``clamp``)."""
        self.origin_x += dx_screen / self.zoom
        self.origin_y += dy_screen / self.zoom
        self.clamp(loose=loose)

    def zoom_at(self, steps: int, sx: float, sy: float) -> bool:
        """Zoom by ``steps`` levels keeping the map point under screen (sx, sy) in place; False at a limit."""
        new_index = max(0, min(len(ZOOM_LEVELS) - 1, self.zoom_index + steps))
        if new_index == self.zoom_index:
            return False
        mx, my = self.screen_to_map(sx, sy)
        self.zoom_index = new_index
        z = self.zoom
        self.origin_x = mx - (sx - self.view[0]) / z
        self.origin_y = my - (sy - self.view[1]) / z
        self.clamp()
        return True

    def center_on(self, x: float, y: float) -> None:
        """Put a map point in the middle of the view."""
        z = self.zoom
        self.origin_x = x - self.view[2] / (2 * z)
        self.origin_y = y - self.view[3] / (2 * z)
        self.clamp()

    def fit(self) -> None:
        """Choose the largest zoom level (up to 1.4) that shows the whole map, and centre it."""
        mw, mh = self.map_size
        _, _, vw, vh = self.view
        best = 0
        for i, z in enumerate(ZOOM_LEVELS):
            if mw * z <= vw and mh * z <= vh and z <= 1.4:
                best = i
        self.zoom_index = best
        self.center_on(mw / 2, mh / 2)

    def clamp(self, *, loose: bool = False) -> None:
        """Keep the map in sight: a map smaller than the view stays centred, a larger one fills it (give or
        take a quarter). ``loose``: a smaller map may sit anywhere in the view, a quarter past its edge at
        most — the battle's focus, bringing a figure clear of a tall panel."""
        z = self.zoom
        mw, mh = self.map_size
        vw, vh = self.view[2] / z, self.view[3] / z
        margin_x, margin_y = min(vw, mw) * 0.25, min(vh, mh) * 0.25
        self.origin_x = self._clamp_axis(self.origin_x, mw, vw, margin_x, loose)
        self.origin_y = self._clamp_axis(self.origin_y, mh, vh, margin_y, loose)

    @staticmethod
    def _clamp_axis(value: float, size: float, visible: float, margin: float, loose: bool) -> float:
        if size <= visible:
            return max(size - visible - margin, min(value, margin)) if loose else (size - visible) / 2
        return max(-margin, min(value, size - visible + margin))

    def visible_map_rect(self) -> tuple[float, float, float, float]:
        """The part of the map (x, y, w, h in map pixels) the view shows."""
        z = self.zoom
        return self.origin_x, self.origin_y, self.view[2] / z, self.view[3] / z
