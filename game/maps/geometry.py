"""Pixel geometry of a Tiled hexagonal map, the same numbers Tiled's hexagonal renderer uses.

Map pixels: (0, 0) is the top-left corner of the map as Tiled draws it (before layer offsets). The UI
scales and shifts these; the engine never sees pixels (docs/architecture.md "Coordinates have one home each").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.maps.tmx import TmxMap


@dataclass(frozen=True)
class HexLayout:
    """Where Tiled puts each cell of a hexagonal map: tile rectangles, centres, outlines, hit tests."""

    width: int
    height: int
    tile_width: int
    tile_height: int
    hex_side_length: int
    stagger_x: bool
    stagger_even: bool

    @classmethod
    def of(cls, m: TmxMap) -> HexLayout:
        """The layout of a parsed map (its tile size, hex side length and stagger, as Tiled reads them)."""
        return cls(
            m.width,
            m.height,
            m.tile_width & ~1,
            m.tile_height & ~1,
            m.hex_side_length,
            m.stagger_axis == "x",
            m.stagger_index == "even",
        )

    # Tiled's derived lengths: the flat side runs along the stagger axis
    @property
    def side_x(self) -> int:
        return self.hex_side_length if self.stagger_x else 0

    @property
    def side_y(self) -> int:
        return 0 if self.stagger_x else self.hex_side_length

    @property
    def side_offset_x(self) -> int:
        return (self.tile_width - self.side_x) // 2

    @property
    def side_offset_y(self) -> int:
        return (self.tile_height - self.side_y) // 2

    @property
    def column_width(self) -> int:
        return self.side_offset_x + self.side_x

    @property
    def row_height(self) -> int:
        return self.side_offset_y + self.side_y

    def staggered(self, col: int, row: int) -> bool:
        """Whether the cell's column (flat-top) or row (pointy-top) is the shifted one."""
        index = col if self.stagger_x else row
        return bool((index & 1) ^ self.stagger_even)

    def map_size(self) -> tuple[int, int]:
        """The map's size in pixels, as Tiled's ``mapBoundingRect`` (the same for odd and even)."""
        if self.stagger_x:
            w = self.width * self.column_width + self.side_offset_x
            h = self.height * (self.tile_height + self.side_y)
            if self.width > 1:
                h += self.row_height
            return w, h
        w = self.width * (self.tile_width + self.side_x)
        h = self.height * self.row_height + self.side_offset_y
        if self.height > 1:
            w += self.column_width
        return w, h

    def tile_position(self, col: int, row: int) -> tuple[int, int]:
        """Top-left pixel of the cell's tile rectangle (Tiled's ``tileToScreenCoords``)."""
        if self.stagger_x:
            y = row * (self.tile_height + self.side_y)
            if self.staggered(col, row):
                y += self.row_height
            return col * self.column_width, y
        x = col * (self.tile_width + self.side_x)
        if self.staggered(col, row):
            x += self.column_width
        return x, row * self.row_height

    def tile_positions(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Top-left pixels of every cell as two [row, col] arrays (x, y)."""
        rows, cols = np.indices((self.height, self.width), dtype=np.int64)
        index = cols if self.stagger_x else rows
        shifted = ((index & 1) ^ int(self.stagger_even)).astype(bool)
        if self.stagger_x:
            x = cols * self.column_width
            y = rows * (self.tile_height + self.side_y) + shifted * self.row_height
        else:
            x = cols * (self.tile_width + self.side_x) + shifted * self.column_width
            y = rows * self.row_height
        return x, y

    def cell_center(self, col: int, row: int) -> tuple[float, float]:
        """Centre of a cell in map pixels (where a figure stands)."""
        x, y = self.tile_position(col, row)
        return x + self.tile_width / 2, y + self.tile_height / 2

    def centres(self) -> npt.NDArray[np.float64]:
        """Centres of every cell, [row, col, (x, y)]."""
        x, y = self.tile_positions()
        return np.stack([x + self.tile_width / 2, y + self.tile_height / 2], axis=-1).astype(np.float64)

    def polygon(self, col: int, row: int) -> list[tuple[int, int]]:
        """The cell's hexagon outline (six corners, clockwise from the left) in map pixels."""
        x, y = self.tile_position(col, row)
        tw, th, ox, oy = self.tile_width, self.tile_height, self.side_offset_x, self.side_offset_y
        if self.stagger_x:
            corners = [(0, th // 2), (ox, 0), (tw - ox, 0), (tw, th // 2), (tw - ox, th), (ox, th)]
        else:
            corners = [(0, th - oy), (0, oy), (tw // 2, 0), (tw, oy), (tw, th - oy), (tw // 2, th)]
        return [(x + cx, y + cy) for cx, cy in corners]

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The (col, row) of the cell under a map pixel, or None off the map (for clicks and objects)."""
        if self.stagger_x:
            col0 = int(px // max(self.column_width, 1))
            row0 = int(py // max(self.tile_height + self.side_y, 1))
        else:
            col0 = int(px // max(self.tile_width + self.side_x, 1))
            row0 = int(py // max(self.row_height, 1))
        best: tuple[float, tuple[int, int]] | None = None
        for row in range(row0 - 2, row0 + 3):
            for col in range(col0 - 2, col0 + 3):
                if not (0 <= col < self.width and 0 <= row < self.height):
                    continue
                if not _inside_convex(self.polygon(col, row), px, py):
                    continue
                cx, cy = self.cell_center(col, row)
                d = (cx - px) ** 2 + (cy - py) ** 2
                if best is None or d < best[0]:
                    best = (d, (col, row))
        return None if best is None else best[1]


def _inside_convex(poly: list[tuple[int, int]], px: float, py: float) -> bool:
    """Inside or on the edge of a convex polygon given clockwise in screen coordinates."""
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) < 0:
            return False
    return True
