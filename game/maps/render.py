"""Draw a loaded hexagonal map exactly as Tiled does (``render-map`` and the game's board).

The numbers follow Tiled's hexagonal renderer and its raster tool (``tmxrasterizer --no-smoothing``):
the image is the map's bounding rectangle widened by the layers' offsets; every visible tile layer is
drawn in document order with its total offset and opacity; within a layer, pointy-top maps are drawn
row by row, flat-top maps row by row with the higher (unshifted) columns of a row before the shifted
ones; a tile's image stands on the bottom-left corner of its cell plus the tileset's tile offset; flips
mirror the image about its centre, then bit 29 turns it 60° and bit 28 120° clockwise about the centre,
sampled nearest-neighbour at pixel centres.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from game.maps.errors import MapLoadError
from game.maps.geometry import HexLayout
from game.maps.loader import LoadedMap
from game.maps.tmx import (
    FLAG_MASK,
    FLIPPED_ANTI_DIAGONALLY,
    FLIPPED_HORIZONTALLY,
    FLIPPED_VERTICALLY,
    GID_MASK,
    ROTATED_HEXAGONAL_120,
    TmxImage,
    TmxTileLayer,
    TmxTileset,
)


def _load_rgba(image: TmxImage, file: Path) -> npt.NDArray[np.uint8]:
    """The image's pixels as [y, x, RGBA], colour key applied; any failure is a MapLoadError."""
    try:
        surf = pygame.image.load(str(image.path))
        w, h = surf.get_size()
        rgba = np.frombuffer(pygame.image.tobytes(surf, "RGBA"), dtype=np.uint8).reshape(h, w, 4).copy()
    except (pygame.error, OSError, ValueError, MemoryError) as exc:
        raise MapLoadError(
            file,
            f'<image source="{image.path.name}">',
            f"the image cannot be read ({exc})",
            "save it again as a PNG file",
        ) from None
    if image.trans is not None:
        key = np.all(rgba[..., :3] == np.array(image.trans, dtype=np.uint8), axis=-1)
        rgba[key] = 0
    return rgba


def _surface(rgba: npt.NDArray[np.uint8]) -> pygame.Surface:
    """A surface in pygame's native 32-bit alpha layout (so blits onto the board take the fast path)."""
    h, w = rgba.shape[:2]
    surface = pygame.Surface((max(w, 1), max(h, 1)), pygame.SRCALPHA, 32)
    surface.fill((0, 0, 0, 0))
    if w and h:
        colour = pygame.surfarray.pixels3d(surface)
        colour[...] = rgba[..., :3].transpose(1, 0, 2)
        del colour
        alpha = pygame.surfarray.pixels_alpha(surface)
        alpha[...] = rgba[..., 3].T
        del alpha
    return surface


@dataclass
class _TileArt:
    """The untransformed pixels of one tile and the tileset's drawing offset."""

    rgba: npt.NDArray[np.uint8]
    offset: tuple[int, int]


def _transform(rgba: npt.NDArray[np.uint8], flags: int) -> tuple[npt.NDArray[np.uint8], float, float]:
    """Apply a cell's flip / rotation flags; returns the pixels and their top-left relative to the centre.

    Tiled mirrors first (horizontal, vertical) and then rotates by 60° (bit 29) plus 120° (bit 28)
    clockwise about the tile's centre; a destination pixel takes the source pixel under its centre.
    """
    h, w = rgba.shape[:2]
    sx = -1.0 if flags & FLIPPED_HORIZONTALLY else 1.0
    sy = -1.0 if flags & FLIPPED_VERTICALLY else 1.0
    angle = (60 if flags & FLIPPED_ANTI_DIAGONALLY else 0) + (120 if flags & ROTATED_HEXAGONAL_120 else 0)
    if angle == 180:
        angle, sx, sy = 0, -sx, -sy
    if angle == 0:
        out = rgba[:: int(sy), :: int(sx)]
        return np.ascontiguousarray(out), -w / 2, -h / 2
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    # corners of the turned image relative to the centre, to bound the destination pixels
    xs, ys = [], []
    for lx, ly in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        xs.append(c * lx - s * ly)
        ys.append(s * lx + c * ly)
    return _rotate(rgba, c, s, sx, sy, min(xs), max(xs), min(ys), max(ys))


def _rotate(
    rgba: npt.NDArray[np.uint8], c: float, s: float, sx: float, sy: float, x0: float, x1: float, y0: float, y1: float
) -> tuple[npt.NDArray[np.uint8], float, float]:
    h, w = rgba.shape[:2]
    # destination pixels are laid out on a grid whose centre sits at fractional position (w/2, h/2) mod 1
    fx, fy = (w / 2) % 1.0, (h / 2) % 1.0
    left = math.floor(x0 + fx) - fx
    top = math.floor(y0 + fy) - fy
    nw = math.ceil(x1 + fx) - math.floor(x0 + fx)
    nh = math.ceil(y1 + fy) - math.floor(y0 + fy)
    yy, xx = np.mgrid[0:nh, 0:nw].astype(np.float64)
    dx = left + xx + 0.5
    dy = top + yy + 0.5
    # inverse: un-rotate, then un-mirror
    lx = (c * dx + s * dy) * sx + w / 2
    ly = (-s * dx + c * dy) * sy + h / 2
    ix = np.floor(lx).astype(np.int64)
    iy = np.floor(ly).astype(np.int64)
    ok = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
    out = np.zeros((nh, nw, 4), dtype=np.uint8)
    out[ok] = rgba[iy[ok], ix[ok]]
    return out, left, top


@dataclass
class _Art:
    """Tile pixels of a map's tilesets, cut once, and the transformed surfaces built on demand."""

    loaded: LoadedMap
    images: dict[Path, npt.NDArray[np.uint8]] = field(default_factory=dict)
    surfaces: dict[tuple[int, int, float], tuple[pygame.Surface, int, int]] = field(default_factory=dict)

    def tileset_of(self, gid: int) -> TmxTileset:
        chosen = self.loaded.tmx.tilesets[0]
        for ts in self.loaded.tmx.tilesets:
            if ts.firstgid <= gid:
                chosen = ts
        return chosen

    def image(self, image: TmxImage, file: Path) -> npt.NDArray[np.uint8]:
        if image.path not in self.images:
            self.images[image.path] = _load_rgba(image, file)
        return self.images[image.path]

    def tile(self, gid: int) -> _TileArt:
        ts = self.tileset_of(gid)
        local = gid - ts.firstgid
        file = ts.source or self.loaded.path
        if ts.image is not None:
            sheet = self.image(ts.image, file)
            sw = sheet.shape[1]
            columns = max(1, (sw - ts.margin + ts.spacing) // (ts.tile_width + ts.spacing))
            x = ts.margin + (local % columns) * (ts.tile_width + ts.spacing)
            y = ts.margin + (local // columns) * (ts.tile_height + ts.spacing)
            rgba = sheet[y : y + ts.tile_height, x : x + ts.tile_width]
        else:
            tile_image = ts.tiles[local].image
            assert tile_image is not None  # the reader refuses collection tiles without an image
            rgba = self.image(tile_image, file)
        return _TileArt(rgba, ts.tile_offset)

    def surface(self, raw_gid: int, opacity: float) -> tuple[pygame.Surface, int, int]:
        """The drawable surface of a cell and its top-left relative to the cell's bottom-left corner."""
        key = (raw_gid, raw_gid & FLAG_MASK, opacity)
        cached = self.surfaces.get(key)
        if cached is None:
            art = self.tile(raw_gid & GID_MASK)
            h, w = art.rgba.shape[:2]
            pixels, left, top = _transform(art.rgba, raw_gid & FLAG_MASK)
            surf = _surface(pixels)
            if opacity < 1.0:
                surf.set_alpha(round(opacity * 255))
            # the centre of the tile: bottom-left + tile offset + (w/2, -h/2)
            cx, cy = art.offset[0] + w / 2 + left, art.offset[1] - h / 2 + top
            cached = (surf, round(cx), round(cy))
            self.surfaces[key] = cached
        return cached


def offset_margins(loaded: LoadedMap) -> tuple[int, int, int, int]:
    """How far layer offsets widen the image: (left, top, right, bottom), as Tiled's raster tool does."""
    left = top = right = bottom = 0
    for ox, oy in loaded.tmx.layer_offsets:
        left = max(left, math.ceil(-ox))
        top = max(top, math.ceil(-oy))
        right = max(right, math.ceil(ox))
        bottom = max(bottom, math.ceil(oy))
    return left, top, right, bottom


def image_size(loaded: LoadedMap) -> tuple[int, int]:
    """The size of ``render_map``'s image: the map's pixel size plus the offset margins."""
    w, h = loaded.layout.map_size()
    left, top, right, bottom = offset_margins(loaded)
    return w + left + right, h + top + bottom


def _draw_order(layout: HexLayout) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rows and columns of every cell in the order Tiled draws them."""
    rows, cols = np.indices((layout.height, layout.width), dtype=np.int64)
    if layout.stagger_x:
        shifted = ((cols & 1) ^ int(layout.stagger_even)).astype(np.int64)
        # within a row, the unshifted (higher) columns first, then the shifted ones, each left to right
        key = (rows * 2 + shifted) * layout.width + cols
        order = np.argsort(key, axis=None, kind="stable")
        return rows.ravel()[order], cols.ravel()[order]
    return rows.ravel(), cols.ravel()


def _layer_entries(
    loaded: LoadedMap,
    art: _Art,
    layer: TmxTileLayer,
    origin: tuple[int, int],
    xs: npt.NDArray[np.int64],
    ys: npt.NDArray[np.int64],
    order_rows: npt.NDArray[np.int64],
    order_cols: npt.NDArray[np.int64],
) -> tuple[list[pygame.Surface], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]] | None:
    """One layer's tiles in draw order: the distinct surfaces, which one each tile uses, and its top-left."""
    layout = loaded.layout
    ox = origin[0] + round(layer.offset[0])
    oy = origin[1] + round(layer.offset[1]) + layout.tile_height
    gids = layer.gids[order_rows, order_cols]
    present = (gids & GID_MASK) != 0
    rows, cols, gids = order_rows[present], order_cols[present], gids[present]
    if gids.size == 0:
        return None
    distinct, which = np.unique(gids, return_inverse=True)
    entries = [art.surface(int(g), layer.opacity) for g in distinct.tolist()]
    surfaces = [e[0] for e in entries]
    dx = np.array([e[1] for e in entries], dtype=np.int64)
    dy = np.array([e[2] for e in entries], dtype=np.int64)
    which = which.astype(np.int64).ravel()
    return surfaces, which, xs[rows, cols] + ox + dx[which], ys[rows, cols] + oy + dy[which]


def _chosen_layers(loaded: LoadedMap, layers: Iterable[TmxTileLayer] | None) -> list[TmxTileLayer]:
    chosen = [lay for lay in loaded.tmx.tile_layers if lay.visible] if layers is None else list(layers)
    return [lay for lay in chosen if lay.opacity > 0]


def draw_layers(
    loaded: LoadedMap,
    target: pygame.Surface,
    origin: tuple[int, int] = (0, 0),
    layers: Iterable[TmxTileLayer] | None = None,
    art: _Art | None = None,
) -> None:
    """Draw tile layers (default: the visible ones) at 1:1 with map pixel (0, 0) at ``origin``."""
    art = art or _Art(loaded)
    xs, ys = loaded.layout.tile_positions()
    order_rows, order_cols = _draw_order(loaded.layout)
    for layer in _chosen_layers(loaded, layers):
        found = _layer_entries(loaded, art, layer, origin, xs, ys, order_rows, order_cols)
        if found is None:
            continue
        surfaces, which, px, py = found
        target.fblits(
            list(
                zip(map(surfaces.__getitem__, which.tolist()), zip(px.tolist(), py.tolist(), strict=True), strict=True)
            )
        )


@dataclass
class TilePlacements:
    """Every tile image a map's layers draw, in Tiled's order, with its rectangle in map pixels.

    Built once per map (``tile_placements``) so that ``draw_region`` can draw any part of the map, such as
    one chunk of the game's board, without drawing or holding the whole image (a 200 x 200 map's
    full image is over 500 MB).
    """

    surfaces: list[pygame.Surface]
    which: npt.NDArray[np.int64]
    x: npt.NDArray[np.int64]
    y: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    bottom: npt.NDArray[np.int64]


def tile_placements(
    loaded: LoadedMap, layers: Iterable[TmxTileLayer] | None = None, art: _Art | None = None
) -> TilePlacements:
    """Where ``draw_layers`` would put every tile image (map pixel (0, 0) at the origin), in its order."""
    art = art or _Art(loaded)
    xs, ys = loaded.layout.tile_positions()
    order_rows, order_cols = _draw_order(loaded.layout)
    surfaces: list[pygame.Surface] = []
    parts: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
    for layer in _chosen_layers(loaded, layers):
        found = _layer_entries(loaded, art, layer, (0, 0), xs, ys, order_rows, order_cols)
        if found is None:
            continue
        layer_surfaces, which, px, py = found
        parts.append((which + len(surfaces), px, py))
        surfaces.extend(layer_surfaces)
    empty = np.zeros(0, dtype=np.int64)
    which = np.concatenate([p[0] for p in parts]) if parts else empty
    x = np.concatenate([p[1] for p in parts]) if parts else empty
    y = np.concatenate([p[2] for p in parts]) if parts else empty
    widths = np.array([s.get_width() for s in surfaces], dtype=np.int64)
    heights = np.array([s.get_height() for s in surfaces], dtype=np.int64)
    right = x + widths[which] if parts else empty
    bottom = y + heights[which] if parts else empty
    return TilePlacements(surfaces, which, x, y, right, bottom)


def draw_region(
    placements: TilePlacements,
    target: pygame.Surface,
    region: tuple[int, int, int, int],
    origin: tuple[int, int] = (0, 0),
) -> None:
    """Draw the tiles whose images meet ``region`` (x, y, w, h in map pixels), map pixel (0, 0) at ``origin``.

    Tiles that miss the region would leave no pixel in it, and the ones drawn keep Tiled's order, so a
    region drawn this way is pixel for pixel the same part of ``render_map``'s image.
    """
    rx, ry, rw, rh = region
    p = placements
    hit = (p.right > rx) & (p.x < rx + rw) & (p.bottom > ry) & (p.y < ry + rh)
    idx = np.flatnonzero(hit)
    if idx.size == 0:
        return
    px = (p.x[idx] + origin[0]).tolist()
    py = (p.y[idx] + origin[1]).tolist()
    target.fblits(list(zip(map(p.surfaces.__getitem__, p.which[idx].tolist()), zip(px, py, strict=True), strict=True)))


def render_map(loaded: LoadedMap) -> pygame.Surface:
    """The whole map's visible tile layers at 1:1 on a transparent surface, pixel for pixel as Tiled.

    Map pixel (0, 0) lies at ``offset_margins(loaded)[:2]`` in the returned surface.
    """
    size = image_size(loaded)
    surface = pygame.Surface(size, pygame.SRCALPHA, 32)
    surface.fill((0, 0, 0, 0))
    left, top, _, _ = offset_margins(loaded)
    draw_layers(loaded, surface, (left, top))
    return surface


def cell_center(loaded: LoadedMap, col: int, row: int) -> tuple[float, float]:
    """Centre of cell (col, row) in map pixels (add ``offset_margins`` for ``render_map``'s image)."""
    return loaded.layout.cell_center(col, row)


def save_png(surface: pygame.Surface, path: str | Path) -> None:
    """Write a rendered map to a PNG file."""
    pygame.image.save(surface, str(path))
