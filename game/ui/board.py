"""Drawing the battle board: the map (cached per zoom level, in chunks), overlays and miniature tokens.

Frame cost is what ``bench`` measures (``docs/performance.md``), so nothing here is drawn twice that can be
kept: the map is cut into 512-pixel chunks per zoom level and each chunk is drawn once (from the Tiled
renderer's surface when there is one, else as plain hexes coloured by terrain); hex tints are pre-drawn
stamps blitted in one ``blits`` call; a token is a cached sprite per look and zoom; every label is cached text.

The parts of a frame that stay put while the mouse moves (map, hex fills, zones of control, tokens, hex
labels) are composed once into a cached surface, rebuilt only when the camera or one of those parts
changes (a cheap equality check of the view's lists). A frame blits it, then draws the parts that follow
the mouse (line of fire, path preview, hover and selection outlines) and, in the rectangle they cover
only, puts the tokens back on top from a second cached layer without them, so the picture is pixel for
pixel the one drawn layer by layer (``draw_direct``).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt
import pygame

from game.engine.hexgrid import Hex, neighbor
from game.engine.terrain import TerrainMap
from game.ui import theme
from game.ui.camera import Camera, HexLayout
from game.ui.large_tokens import draw_large_token, draw_outline, footprint_edges, front_extent
from game.ui.token_art import LARGE_LOOKS, TokenArt, shared_art
from game.ui.view import BoardView, HexFill, LineOfFireView, LofMark, PathView, TokenView, ZocView
from game.ui.widgets import TextCache

RGB = tuple[int, int, int]
CHUNK = 512
MAX_CACHED_CHUNK_PIXELS = 24_000_000
"""About 96 MB of chunks at most; older zoom levels are dropped first."""


def default_layout(stagger_axis: str = "y", stagger_index: str = "odd", size: int = 64) -> HexLayout:
    """A near-regular hex layout for maps without Tiled geometry (generated maps, tests)."""
    narrow = round(size * math.sqrt(3) / 2) & ~1
    if stagger_axis == "y":
        return HexLayout(narrow, size, size // 2, "y", stagger_index)
    return HexLayout(size, narrow, size // 2, "x", stagger_index)


class MapSource(Protocol):
    """Where the board's map pixels come from."""

    def render_chunk(self, zoom: float, rect: pygame.Rect) -> pygame.Surface:
        """The map at ``zoom`` for the zoomed-pixel rectangle ``rect`` (same size as rect)."""
        ...


def cells_in(
    layout: HexLayout, cols: int, rows: int, x0: float, y0: float, x1: float, y1: float
) -> Iterable[tuple[int, int]]:
    """Cells whose bounding box may meet the map-pixel rectangle (a cell or so of slack)."""
    col_step = layout.column_width if layout.stagger_axis == "x" else layout.width
    row_step = layout.row_height if layout.stagger_axis == "y" else layout.height
    c0 = max(0, int(x0 // col_step) - 2)
    c1 = min(cols - 1, int(x1 // col_step) + 1)
    r0 = max(0, int(y0 // row_step) - 2)
    r1 = min(rows - 1, int(y1 // row_step) + 1)
    for row in range(r0, r1 + 1):
        for col in range(c0, c1 + 1):
            yield col, row


def terrain_colours(terrain: TerrainMap) -> npt.NDArray[np.uint8]:
    """Every cell's plain colour [row, col]: its terrain's, higher ground lighter, sight-blocking and impassable
    hexes darker (readable at a glance without art)."""
    base = np.array([theme.terrain_colour(t.name) for t in terrain.types], dtype=np.int16)
    colours = base[terrain.terrain]
    colours = colours + np.clip(terrain.elevation, -6, 6)[..., None] * 8
    colours = np.where(terrain.blocks_sight[..., None], colours * 0.7, colours)
    impassable = ~terrain.passable["walk"]
    colours = np.where(impassable[..., None], colours * 0.6, colours)
    return np.clip(colours, 0, 255).astype(np.uint8)


def paint_plain(
    surf: pygame.Surface,
    layout: HexLayout,
    colours: npt.NDArray[np.uint8],
    cells: Iterable[tuple[int, int]],
    zoom: float,
    rect: pygame.Rect,
    *,
    grid: bool = False,
    marked: bool = False,
) -> None:
    """Draw cells (col, row) as plain hexes in their colour into ``surf``, the chunk ``rect`` of the map at
    ``zoom``; ``marked``: an inner ring that says the ground is a terrain object's, not the map's art."""
    offsets = [(dx * zoom, dy * zoom) for dx, dy in layout.corner_offsets]
    inner = [(dx * zoom * 0.8, dy * zoom * 0.8) for dx, dy in layout.corner_offsets]
    draw_lines = grid and zoom * layout.width >= 10
    for col, row in cells:
        cx, cy = layout.cell_center(col, row)
        sx, sy = cx * zoom - rect.x, cy * zoom - rect.y
        pts = [(sx + dx, sy + dy) for dx, dy in offsets]
        c = colours[row, col]
        colour = (int(c[0]), int(c[1]), int(c[2]))
        pygame.draw.polygon(surf, colour, pts)
        if marked and zoom * layout.width >= 10:
            ring = tuple(min(255, v + 70) for v in colour)
            pygame.draw.polygon(surf, ring, [(sx + dx, sy + dy) for dx, dy in inner], max(1, round(2 * zoom)))
        if draw_lines:
            pygame.draw.polygon(surf, (34, 40, 34), pts, 1)


class HexMapSource:
    """Plain hexes coloured by terrain: the map when no Tiled art is available (generated maps, benchmark)."""

    def __init__(self, terrain: TerrainMap, layout: HexLayout, grid: bool = True) -> None:
        self.terrain = terrain
        self.layout = layout
        self.grid = grid
        self.colours = terrain_colours(terrain)

    def render_chunk(self, zoom: float, rect: pygame.Rect) -> pygame.Surface:
        """Draw the hexes meeting ``rect`` at ``zoom``."""
        surf = pygame.Surface(rect.size)
        surf.fill(theme.BACKGROUND)
        x0, y0 = rect.x / zoom, rect.y / zoom
        x1, y1 = rect.right / zoom, rect.bottom / zoom
        cells = cells_in(self.layout, self.terrain.width, self.terrain.height, x0, y0, x1, y1)
        paint_plain(surf, self.layout, self.colours, cells, zoom, rect, grid=self.grid)
        return surf


class SurfaceMapSource:
    """A map already drawn at 1:1 (the Tiled renderer's output), scaled per zoom level chunk by chunk."""

    def __init__(
        self,
        base: pygame.Surface,
        layout: HexLayout | None = None,
        cols: int = 0,
        rows: int = 0,
        grid: bool = True,
    ) -> None:
        self.base = base
        self.layout = layout
        self.cols, self.rows = cols, rows
        self.grid = grid

    def render_chunk(self, zoom: float, rect: pygame.Rect) -> pygame.Surface:
        """Scale the part of the base surface under ``rect``."""
        out = zoomed_chunk(self.base.get_size(), zoom, rect, lambda window: self.base.subsurface(window))
        if self.grid and self.layout is not None:
            draw_grid(out, self.layout, self.cols, self.rows, zoom, rect)
        return out


Window = tuple[int, int, int, int]
"""A rectangle of the map's own (1:1) pixels: x, y, width, height."""


def map_window(size: tuple[int, int], zoom: float, rect: pygame.Rect) -> Window:
    """The map's 1:1 pixels under ``rect`` (zoomed pixels) of a map ``size`` pixels large: whole pixels covering
    it, cut at the map's right and bottom edges (a width or height of 0 or less: the map is not there)."""
    x0 = math.floor(rect.x / zoom)
    y0 = math.floor(rect.y / zoom)
    x1 = min(size[0], math.ceil(rect.right / zoom))
    y1 = min(size[1], math.ceil(rect.bottom / zoom))
    return x0, y0, x1 - x0, y1 - y0


def zoomed_chunk(
    size: tuple[int, int], zoom: float, rect: pygame.Rect, draw_1to1: Callable[[Window], pygame.Surface]
) -> pygame.Surface:
    """A chunk of a map ``size`` pixels large at ``zoom``, for the zoomed-pixel rectangle ``rect``: the map's
    ``map_window`` under it drawn at 1:1 by ``draw_1to1``, scaled (smoothly when shrinking) over the background."""
    x, y, w, h = map_window(size, zoom, rect)
    out = pygame.Surface(rect.size)
    out.fill(theme.BACKGROUND)
    if w > 0 and h > 0:
        part = draw_1to1((x, y, w, h))
        scaled = (max(1, round(w * zoom)), max(1, round(h * zoom)))
        if scaled != part.get_size():
            part = pygame.transform.smoothscale(part, scaled) if zoom < 1 else pygame.transform.scale(part, scaled)
        out.blit(part, (round(x * zoom) - rect.x, round(y * zoom) - rect.y))
    return out


def draw_grid(out: pygame.Surface, layout: HexLayout, cols: int, rows: int, zoom: float, rect: pygame.Rect) -> None:
    """Outline the hexes meeting ``rect`` (zoomed pixels) over a chunk of map art, when they are big enough."""
    if zoom * layout.width < 10:
        return
    offsets = [(dx * zoom, dy * zoom) for dx, dy in layout.corner_offsets]
    grid = pygame.Surface(rect.size, pygame.SRCALPHA)
    for col, row in cells_in(layout, cols, rows, rect.x / zoom, rect.y / zoom, rect.right / zoom, rect.bottom / zoom):
        cx, cy = layout.cell_center(col, row)
        sx, sy = cx * zoom - rect.x, cy * zoom - rect.y
        pygame.draw.polygon(grid, (0, 0, 0, 70), [(sx + dx, sy + dy) for dx, dy in offsets], 1)
    out.blit(grid, (0, 0))


def _hex_points(camera: Camera, h: Hex) -> list[tuple[float, float]]:
    cx, cy = camera.hex_to_screen(h)
    z = camera.zoom
    return [(cx + dx * z, cy + dy * z) for dx, dy in camera.layout.corner_offsets]


class _TokenOps:
    """The tokens of one still frame, ready to draw again into any part of the board.

    Order as the board always drew them: selection rings, then every sprite (farther back first), then
    every label, so drawing them clipped to a rectangle restores exactly what lies there.
    """

    def __init__(self) -> None:
        self.rings: list[tuple[tuple[float, float], float, RGB, pygame.Rect]] = []
        self.outlines: list[tuple[list[tuple[tuple[float, float], tuple[float, float]]], RGB, int, pygame.Rect]] = []
        """Rings of large figures (FTC 5): the outline of every hex they cover."""
        self.sprites: list[tuple[pygame.Surface, pygame.Rect]] = []
        self.labels: list[tuple[pygame.Surface, pygame.Rect]] = []

    def draw(self, surface: pygame.Surface, within: pygame.Rect | None = None) -> None:
        """Draw all of them, or only those meeting ``within`` (the caller clips to it)."""
        rings, sprites, labels, outlines = self.rings, self.sprites, self.labels, self.outlines
        if within is not None:
            rings = [rings[i] for i in within.collidelistall([b for *_, b in rings])]
            outlines = [outlines[i] for i in within.collidelistall([b for *_, b in outlines])] if outlines else []
            sprites = [sprites[i] for i in within.collidelistall([r for _, r in sprites])]
            labels = [labels[i] for i in within.collidelistall([r for _, r in labels])]
        for centre, radius, colour, _ in rings:
            pygame.draw.circle(surface, (0, 0, 0), centre, radius + 1, 4)
            pygame.draw.circle(surface, colour, centre, radius, 3)
        for segments, colour, width, _ in outlines:
            draw_outline(surface, segments, colour, width)
        surface.blits(sprites, doreturn=False)
        surface.blits(labels, doreturn=False)


@dataclass(frozen=True)
class LabelWish:
    """Where a figure's name label would go: centred on ``x``, its top at ``below`` (under the base), or its
    bottom at ``above``; ``badge`` is drawn over the base; ``important`` labels (selected, highlighted, large
    figures) are placed first."""

    id: str
    text: str
    badge: str
    x: float
    below: float
    above: float
    important: bool = False


def shortened(text: str, keep: int = 5) -> str:
    """A name cut to its first ``keep`` characters and an ellipsis (unchanged when already short)."""
    return text if len(text) <= keep + 1 else text[:keep] + "…"


def place_labels(
    wishes: Sequence[LabelWish],
    render: Callable[[str], pygame.Surface],
    render_badge: Callable[[str], pygame.Surface],
) -> tuple[list[tuple[pygame.Surface, pygame.Rect]], list[LabelWish]]:
    """Place name labels so that no two cover each other: badges first (over their bases), then names,
    important ones first, each at the first free spot of: under its base, over it (when it has no badge),
    half a label to the left or right under it — first at full length, then shortened. A name with no free
    spot is returned in the second list (the board shows it on hover)."""
    taken: list[pygame.Rect] = []
    out: list[tuple[pygame.Surface, pygame.Rect]] = []

    def free(rect: pygame.Rect) -> bool:
        return rect.inflate(2, 0).collidelist(taken) < 0

    for w in wishes:
        if w.badge:
            surf = render_badge(w.badge)
            rect = surf.get_rect(midbottom=(round(w.x), round(w.above)))
            while not free(rect) and rect.bottom > w.above - 4 * rect.height:
                rect.move_ip(0, -rect.height)
            taken.append(rect)
            out.append((surf, rect))
    hidden: list[LabelWish] = []
    for w in sorted(wishes, key=lambda w: not w.important):
        done = False
        for text in dict.fromkeys((w.text, shortened(w.text))):
            surf = render(text)
            half = surf.get_width() // 2
            spots = [surf.get_rect(midtop=(round(w.x), round(w.below)))]
            if not w.badge:
                spots.append(surf.get_rect(midbottom=(round(w.x), round(w.above))))
            spots += [
                surf.get_rect(midtop=(round(w.x) - half, round(w.below))),
                surf.get_rect(midtop=(round(w.x) + half, round(w.below))),
            ]
            spot = next((s for s in spots if free(s)), None)
            if spot is not None:
                taken.append(spot)
                out.append((surf, spot))
                done = True
                break
        if not done:
            hidden.append(w)
    return out, hidden


class Board:
    """The board widget: a camera over a map source, drawing a ``BoardView`` each frame."""

    def __init__(
        self,
        layout: HexLayout,
        cols: int,
        rows: int,
        source: MapSource,
        text: TextCache,
        view_rect: tuple[int, int, int, int],
        palette: theme.Palette = theme.NORMAL,
    ) -> None:
        self.layout = layout
        self.cols, self.rows = cols, rows
        self.source = source
        self.text = text
        self.palette = palette
        self.camera = Camera(layout, layout.map_size(cols, rows), view_rect)
        self._chunks: OrderedDict[tuple[int, int, int], pygame.Surface] = OrderedDict()
        self._chunk_pixels = 0
        self._stamps: dict[tuple[RGB, int, int, bool], pygame.Surface] = {}
        self._sprites: dict[tuple[object, ...], pygame.Surface] = {}
        self._large_sprites: dict[tuple[object, ...], tuple[pygame.Surface, tuple[int, int]]] = {}
        self._labels: dict[tuple[str, int], pygame.Surface] = {}
        self._epoch = 0
        self._static_key: tuple[object, ...] | None = None
        self._under: pygame.Surface | None = None
        self._composite: pygame.Surface | None = None
        self._token_ops: _TokenOps | None = None
        self.static_builds = 0
        """How often the cached layers were redrawn (tests and the benchmark read it)."""
        self.art: TokenArt = shared_art()
        """The made token art (``assets/tokens``); without it tokens are letters in a ring."""
        self.images: Callable[[str], pygame.Surface | None] = lambda path: None
        """A GM's token pictures by path (``game.ui.token_images``); the screens set it."""
        self._hidden_labels: dict[str, tuple[pygame.Surface, pygame.Rect]] = {}
        """Name labels that had no room (crowded figures): shown when the mouse is over the figure."""

    # --- map chunks -------------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Forget every cached chunk and sprite (map or palette changed)."""
        self._chunks.clear()
        self._chunk_pixels = 0
        self._stamps.clear()
        self._sprites.clear()
        self._large_sprites.clear()
        self._epoch += 1

    def set_palette(self, palette: theme.Palette) -> None:
        """Switch palettes (the settings' colour-blind option)."""
        if palette is not self.palette:
            self.palette = palette
            self._stamps.clear()
            self._sprites.clear()
            self._large_sprites.clear()
            self._epoch += 1

    def _chunk(self, zi: int, i: int, j: int) -> pygame.Surface:
        key = (zi, i, j)
        surf = self._chunks.get(key)
        if surf is not None:
            self._chunks.move_to_end(key)
            return surf
        surf = self.source.render_chunk(self.camera.zoom, pygame.Rect(i * CHUNK, j * CHUNK, CHUNK, CHUNK))
        surf = surf.convert() if pygame.display.get_surface() is not None else surf
        self._chunks[key] = surf
        self._chunk_pixels += CHUNK * CHUNK
        while self._chunk_pixels > MAX_CACHED_CHUNK_PIXELS and len(self._chunks) > 1:
            # Drop other zoom levels first, then the least recently used.
            victim = next((k for k in self._chunks if k[0] != zi), next(iter(self._chunks)))
            del self._chunks[victim]
            self._chunk_pixels -= CHUNK * CHUNK
        return surf

    def prepare(self) -> None:
        """Draw every chunk the current view needs (so the first frame after a zoom is not a stall later)."""
        self._draw_map(None)

    def _draw_map(self, surface: pygame.Surface | None) -> None:
        cam = self.camera
        z = cam.zoom
        mw, mh = cam.map_size
        vx, vy, vw, vh = cam.view
        zx0, zy0 = cam.origin_x * z, cam.origin_y * z
        i0 = max(0, int(zx0 // CHUNK))
        j0 = max(0, int(zy0 // CHUNK))
        i1 = min(int((mw * z) // CHUNK), int((zx0 + vw) // CHUNK))
        j1 = min(int((mh * z) // CHUNK), int((zy0 + vh) // CHUNK))
        blits = []
        # one rounding for the whole grid of chunks: rounding each chunk's place apart may leave a column or row
        # of pixels between two of them (x.5 rounds to even)
        ox, oy = round(vx - zx0), round(vy - zy0)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                chunk = self._chunk(cam.zoom_index, i, j)
                blits.append((chunk, (ox + i * CHUNK, oy + j * CHUNK)))
        if surface is not None:
            surface.blits(blits, doreturn=False)

    # --- stamps and sprites -----------------------------------------------------------------------
    def _stamp(self, colour: RGB, alpha: int, outline: bool = False) -> pygame.Surface:
        key = (colour, alpha, self.camera.zoom_index, outline)
        stamp = self._stamps.get(key)
        if stamp is None:
            z = self.camera.zoom
            w, h = math.ceil(self.layout.width * z) + 2, math.ceil(self.layout.height * z) + 2
            stamp = pygame.Surface((w, h), pygame.SRCALPHA)
            pts = [(w / 2 + dx * z, h / 2 + dy * z) for dx, dy in self.layout.corner_offsets]
            pygame.draw.polygon(stamp, (*colour, alpha), pts)
            if outline:
                pygame.draw.polygon(stamp, (*colour, min(255, alpha * 2 + 60)), pts, max(1, round(2 * z)))
            self._stamps[key] = stamp
        return stamp

    def token_radius(self) -> float:
        """Radius of a token in screen pixels at the current zoom."""
        return 0.42 * min(self.layout.width, self.layout.height) * self.camera.zoom

    def _looks(self, t: TokenView, r: int) -> tuple[object, ...]:
        """What a token's sprite at radius ``r`` looks like for a figure of any size (the key of its cached
        sprite, with what only one size shows): side, facing, wounds, out, radius, palette, initial and look."""
        return (t.side_colour, t.facing % 6, t.wound_level, t.out, r, self.palette.name, t.name[:1].upper(), t.look)

    def _token_sprite(self, t: TokenView) -> pygame.Surface:
        r = max(3, round(self.token_radius()))
        key = (*self._looks(t, r), t.image, t.posture, t.concentrating, t.held)
        sprite = self._sprites.get(key)
        if sprite is not None:
            return sprite
        if (t.look or t.image) and r >= 6 and self.art.available:
            made = self.art.one_hex(
                r,
                self.layout.direction_angle(t.facing),
                t.side_colour,
                t.look,
                self.palette.wound_colour(t.wound_level),
                t.out,
                t.posture,
                t.concentrating,
                t.held,
                self.images(t.image) if t.image else None,
                theme.DANGER,
            )
            if made is not None:
                self._sprites[key] = made
                return made
        size = 2 * r + 2 * max(3, r // 3) + 4
        c = size / 2
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        side = t.side_colour if not t.out else (110, 110, 116)
        body = (34, 36, 44) if not t.out else (60, 60, 64)
        pygame.draw.circle(sprite, (0, 0, 0, 90), (c + 1, c + 2), r + 1)
        pygame.draw.circle(sprite, body, (c, c), r)
        ring = max(2, r // 4)
        pygame.draw.circle(sprite, side, (c, c), r, ring)
        # Facing notch: a wedge pointing out across the hex side the figure faces.
        angle = self.layout.direction_angle(t.facing)
        tip = r + max(3, r // 3)
        half = math.radians(26)
        pts = [
            (c + math.cos(angle) * tip, c - math.sin(angle) * tip),
            (c + math.cos(angle + half) * (r - ring), c - math.sin(angle + half) * (r - ring)),
            (c + math.cos(angle - half) * (r - ring), c - math.sin(angle - half) * (r - ring)),
        ]
        pygame.draw.polygon(sprite, side, pts)
        pygame.draw.polygon(sprite, (250, 250, 250) if not t.out else (150, 150, 150), pts, 1)
        if r >= 9:
            initial = self.text.font(max(8, round(r * 0.95)), bold=True).render(
                t.name[:1].upper(), True, (235, 235, 240) if not t.out else (150, 150, 150)
            )
            sprite.blit(initial, initial.get_rect(center=(c, c + 1)))
        # Wound pip on the ring behind the figure, where it never hides the notch.
        pip = max(2, r // 3)
        px, py = c - math.cos(angle) * r * 0.72, c + math.sin(angle) * r * 0.72
        pygame.draw.circle(sprite, (16, 16, 20), (px, py), pip + 1)
        pygame.draw.circle(sprite, self.palette.wound_colour(t.wound_level), (px, py), pip)
        if t.out:
            k = r * 0.5
            pygame.draw.line(sprite, theme.DANGER, (c - k, c - k), (c + k, c + k), max(2, r // 5))
            pygame.draw.line(sprite, theme.DANGER, (c - k, c + k), (c + k, c - k), max(2, r // 5))
        self._sprites[key] = sprite
        return sprite

    def token_sprite(self, t: TokenView) -> tuple[pygame.Surface, tuple[int, int]]:
        """A token's sprite and the pixel of its position hex in it (the sprite's centre for one hex; a
        large figure's base spans its footprint, FTC 5)."""
        if not t.large:
            sprite = self._token_sprite(t)
            return sprite, (sprite.get_width() // 2, sprite.get_height() // 2)
        r = max(3, round(self.token_radius()))
        shape = tuple(sorted((c.q - t.hex.q, c.r - t.hex.r) for c in t.cells))
        key = ("large", shape, *self._looks(t, r), self.camera.zoom_index)
        cached = self._large_sprites.get(key)
        if cached is None:
            initial = None
            art = None
            if t.look in LARGE_LOOKS and r >= 4 and self.art.available:
                art = self.art.turned(t.look, r, self.layout.direction_angle(t.facing))
                if art is not None and t.out:
                    art = pygame.transform.grayscale(art)
            if r >= 6 and art is None:
                big = 1.6 if len(t.cells) >= 7 else 1.25
                initial = self.text.font(max(8, round(r * 0.95 * big)), bold=True).render(
                    t.name[:1].upper(), True, (235, 235, 240) if not t.out else (150, 150, 150)
                )
            cached = draw_large_token(
                self.layout,
                self.camera.zoom,
                t.hex,
                t.cells,
                t.facing % 6,
                r,
                t.side_colour,
                self.palette.wound_colour(t.wound_level),
                t.out,
                initial,
                theme.DANGER,
                art,
            )
            self._large_sprites[key] = cached
        return cached

    def cells_outline(self, cells: Iterable[Hex]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The outer sides of some hexes in screen pixels (a large figure's footprint, FTC 5)."""
        to_screen = self.camera.map_to_screen
        return [(to_screen(*a), to_screen(*b)) for a, b in footprint_edges(self.layout, cells)]

    def name_tag(self, text: str, size: int) -> pygame.Surface:
        """A name as the board labels its tokens (a dark rounded tag, cached): for a token drawn off the board,
        such as the figure being placed in deployment."""
        return self._label(text, size)

    def _label(self, text: str, size: int) -> pygame.Surface:
        key = (text, size)
        label = self._labels.get(key)
        if label is None:
            rendered = self.text.render(text, size, theme.TEXT, bold=True)
            label = pygame.Surface((rendered.get_width() + 8, rendered.get_height() + 2), pygame.SRCALPHA)
            pygame.draw.rect(label, (14, 16, 20, 200), label.get_rect(), border_radius=4)
            label.blit(rendered, (4, 1))
            self._labels[key] = label
        return label

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, view: BoardView, hex_labels: Sequence[tuple[Hex, str]] = ()) -> None:
        """Draw the map, overlays, tokens and ``hex_labels`` (small text on hexes, over the tokens) into the
        camera's screen rectangle: the cached still layers, then what follows the mouse."""
        rect = pygame.Rect(self.camera.view)
        self.ensure_static(surface, view, hex_labels)
        assert self._composite is not None
        surface.blit(self._composite, rect, rect)
        self._draw_moving(surface, view, rect)

    def draw_direct(self, surface: pygame.Surface, view: BoardView, hex_labels: Sequence[tuple[Hex, str]] = ()) -> None:
        """Draw everything layer by layer without the cached layers (what ``draw`` must look like)."""
        cam = self.camera
        clip = surface.get_clip()
        rect = pygame.Rect(cam.view)
        self._draw_ground(surface, view, rect)
        ops = self._token_ops_for(view, hex_labels)
        self._draw_overlays(surface, view, ops)
        ops.draw(surface)
        for words in self.lof_chances(view, ops):
            surface.blit(*words)
        hidden = self.hidden_label_at(view)
        if hidden is not None:
            surface.blit(*hidden)
        surface.set_clip(clip)

    def ensure_static(
        self, surface: pygame.Surface, view: BoardView, hex_labels: Sequence[tuple[Hex, str]] = ()
    ) -> bool:
        """Redraw the cached still layers if the camera or the still parts of ``view`` changed; True if so."""
        cam = self.camera
        key = (
            self._epoch,
            cam.zoom_index,
            cam.origin_x,
            cam.origin_y,
            tuple(cam.view),
            surface.get_size(),
            tuple(view.fills),
            tuple(view.zocs),
            tuple(view.tokens),
            view.highlighted,
            tuple(hex_labels),
        )
        if key == self._static_key and self._composite is not None:
            return False
        size = surface.get_size()
        if self._under is None or self._under.get_size() != size:
            self._under = pygame.Surface(size, 0, surface)
            self._composite = pygame.Surface(size, 0, surface)
        under, composite = self._under, self._composite
        assert composite is not None
        rect = pygame.Rect(cam.view)
        self._draw_ground(under, view, rect)
        under.set_clip(None)
        composite.blit(under, rect, rect)
        composite.set_clip(rect)
        self._token_ops = self._token_ops_for(view, hex_labels)
        self._token_ops.draw(composite)
        composite.set_clip(None)
        self._static_key = key
        self.static_builds += 1
        return True

    def _draw_ground(self, surface: pygame.Surface, view: BoardView, rect: pygame.Rect) -> None:
        """The still layer under the tokens, clipped to ``rect`` (the clip is left set): the background, the map,
        the hex fills and the zones of control."""
        surface.set_clip(rect)
        surface.fill(theme.BACKGROUND, rect)
        self._draw_map(surface)
        for fill in view.fills:
            self._draw_fill(surface, fill)
        for zoc in view.zocs:
            self._draw_zoc(surface, zoc)

    def _draw_overlays(self, surface: pygame.Surface, view: BoardView, ops: _TokenOps | None = None) -> None:
        """What follows the mouse: line of fire, path preview, hover and selection outlines (``ops``: the tokens
        drawn over them, when not the cached frame's)."""
        cam = self.camera
        if view.line_of_fire is not None:
            self._draw_lof(surface, view.line_of_fire)
            note = self.lof_note(view, ops)
            if note is not None:
                surface.blit(*note)
        if view.path is not None:
            self._draw_path(surface, view.path)
        if view.hover is not None:
            body = _large_cells_at(view, view.hover)
            if body:
                draw_outline(surface, self.cells_outline(body), self.palette.hover, max(1, round(2 * cam.zoom)))
            else:
                pygame.draw.polygon(
                    surface, self.palette.hover, _hex_points(cam, view.hover), max(1, round(2 * cam.zoom))
                )
        if view.selected is not None:
            pygame.draw.polygon(
                surface, self.palette.selection, _hex_points(cam, view.selected), max(2, round(3 * cam.zoom))
            )

    def _draw_moving(self, surface: pygame.Surface, view: BoardView, rect: pygame.Rect) -> None:
        """Overlays over the cached frame; under them the tokens go back on top, as drawn layer by layer."""
        dirty = self._overlay_bounds(view)
        if dirty is None:
            return
        dirty = dirty.clip(rect)
        if dirty.width <= 0 or dirty.height <= 0:
            return
        assert self._under is not None and self._token_ops is not None
        clip = surface.get_clip()
        surface.set_clip(dirty.clip(clip))
        surface.blit(self._under, dirty, dirty)
        self._draw_overlays(surface, view)
        self._token_ops.draw(surface, dirty)
        for words in self.lof_chances(view):
            surface.blit(*words)
        hidden = self.hidden_label_at(view)
        if hidden is not None:
            surface.blit(*hidden)
        surface.set_clip(clip)

    def _overlay_bounds(self, view: BoardView) -> pygame.Rect | None:
        """A rectangle holding every pixel the moving overlays may touch (a few pixels to spare)."""
        cam = self.camera
        z = cam.zoom
        rects: list[pygame.Rect] = []

        def around(points: Iterable[tuple[float, float]], pad: float) -> None:
            pts = list(points)
            if not pts:
                return
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            x0, y0 = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
            rects.append(pygame.Rect(x0, y0, math.ceil(max(xs) + pad) - x0 + 1, math.ceil(max(ys) + pad) - y0 + 1))

        hex_pad = max(self.layout.width, self.layout.height) * z / 2 + 4
        if view.line_of_fire is not None:
            lof = view.line_of_fire
            width = max(2, round(3 * z))
            mark = max(3, round(7 * z))
            around((cam.hex_to_screen(lof.start), cam.hex_to_screen(lof.end)), width + 4)
            for m in lof.marks:
                p = cam.hex_to_screen(m.hex)
                around((p,), max(hex_pad, mark + width + 4))
                words = self._mark_label(m)
                if words is not None:
                    rects.append(words[1].inflate(4, 4))
            note = self.lof_note(view)
            if note is not None:
                rects.append(note[1].inflate(4, 4))
            rects.extend(rect.inflate(4, 4) for _, rect in self.lof_chances(view))
        if view.path is not None:
            path = view.path
            pts = [cam.hex_to_screen(h) for h in path.hexes]
            width = max(2, round(4 * z))
            dot = max(2, round(5 * z))
            around(pts, width + dot + 4)
            size = 13 if z >= 0.7 else 11
            for p, step in zip(pts, path.step_labels, strict=False):
                if step:
                    surf = self._label(step, size)
                    rects.append(surf.get_rect(midbottom=(p[0], p[1] - dot - 2)).inflate(4, 4))
            if path.final_facing is not None and pts:
                around((pts[-1],), self.token_radius() * 1.6 + dot + width + 4)
            if path.end_cells:
                around((cam.hex_to_screen(h) for h in path.end_cells), hex_pad + self.token_radius() * 1.6 + width + 4)
        for h in (view.hover, view.selected):
            if h is not None:
                around((cam.hex_to_screen(c) for c in (_large_cells_at(view, h) or (h,))), hex_pad + 4)
        hidden = self.hidden_label_at(view)
        if hidden is not None:
            rects.append(hidden[1].inflate(2, 2))
        if not rects:
            return None
        return rects[0].unionall(rects[1:])

    def _token_ops_for(self, view: BoardView, hex_labels: Sequence[tuple[Hex, str]]) -> _TokenOps:
        """The tokens' drawing (rings, sprites, name labels, then the hex labels) as a replayable list.

        Name labels give way to each other (``place_labels``): a label that would cover another is moved,
        then shortened; one with no room at all is left out and shown while the mouse is over its figure.
        """
        cam = self.camera
        r = self.token_radius()
        label_size = 12 if r < 22 else 14
        show_labels = r >= 11
        ops = _TokenOps()
        wanted: list[LabelWish] = []
        for t in sorted(view.tokens, key=lambda t: (t.out, cam.hex_to_screen(t.hex)[1])):
            sx, sy = cam.hex_to_screen(t.hex)
            if t.large:
                wish = self._large_token_ops(ops, t, view)
                if wish is not None and show_labels:
                    wanted.append(wish)
                continue
            if not self._visible(sx, sy, r * 3):
                continue
            sprite = self._token_sprite(t)
            ops.sprites.append((sprite, sprite.get_rect(center=(round(sx), round(sy)))))
            if t.selected or t.id in view.highlighted:
                colour = self.palette.selection if t.selected else (255, 255, 255)
                ring = r + max(4, r * 0.3)
                bound = pygame.Rect(0, 0, 2 * ring + 6, 2 * ring + 6)
                bound.center = (round(sx), round(sy))
                ops.rings.append(((sx, sy), ring, colour, bound))
            if show_labels:
                important = t.selected or t.id in view.highlighted
                wanted.append(LabelWish(t.id, t.short_name, t.badge, sx, sy + r * 0.95, sy - r * 0.95, important))
        self._hidden_labels = {}
        if wanted:
            placed, hidden = place_labels(wanted, lambda text: self._label(text, label_size), self._badge_label)
            ops.labels.extend(placed)
            for wish in hidden:
                label = self._label(wish.text, label_size)
                self._hidden_labels[wish.id] = (label, label.get_rect(midtop=(round(wish.x), round(wish.below))))
        for h, text in hex_labels:
            sx, sy = cam.hex_to_screen(h)
            if cam.in_view(sx, sy):
                lab = self._label(text, 11)
                ops.labels.append((lab, lab.get_rect(center=(round(sx), round(sy)))))
        return ops

    def _badge_label(self, text: str) -> pygame.Surface:
        return self._label(text if len(text) <= 14 else text[:13] + "…", 11)

    def hidden_label_at(self, view: BoardView) -> tuple[pygame.Surface, pygame.Rect] | None:
        """The name label of the hovered figure when crowding left it out (drawn while hovered)."""
        if view.hover is None or not self._hidden_labels:
            return None
        for t in view.tokens:
            if (t.hex == view.hover or view.hover in t.cells) and t.id in self._hidden_labels:
                return self._hidden_labels[t.id]
        return None

    def _large_token_ops(self, ops: _TokenOps, t: TokenView, view: BoardView) -> LabelWish | None:
        """A large figure's token (FTC 5): its base across the footprint, the footprint outlined when it is
        selected or highlighted; its name (under the base) and badge (over it) as a label wish."""
        cam = self.camera
        sx, sy = cam.hex_to_screen(t.hex)
        sprite, (ax, ay) = self.token_sprite(t)
        rect = sprite.get_rect(topleft=(round(sx) - ax, round(sy) - ay))
        x, y, w, h = cam.view
        if not rect.colliderect(pygame.Rect(x, y, w, h).inflate(8, 8)):
            return None
        ops.sprites.append((sprite, rect))
        important = t.selected or t.id in view.highlighted
        if important:
            colour = self.palette.selection if t.selected else (255, 255, 255)
            width = max(3, round(3 * cam.zoom))
            segments = self.cells_outline(t.cells)
            bound = rect.unionall(
                [
                    pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]) + 1, abs(a[1] - b[1]) + 1)
                    for a, b in segments
                ]
            )
            ops.outlines.append((segments, colour, width, bound.inflate(2 * width + 6, 2 * width + 6)))
        r = self.token_radius()
        pts = [cam.hex_to_screen(c) for c in t.cells]
        mx = sum(p[0] for p in pts) / len(pts)
        below = max(p[1] for p in pts) + r * 0.95
        above = min(p[1] for p in pts) - r * 0.95
        return LabelWish(t.id, t.short_name, t.badge, mx, below, above, True)

    def _visible(self, sx: float, sy: float, margin: float) -> bool:
        x, y, w, h = self.camera.view
        return x - margin <= sx <= x + w + margin and y - margin <= sy <= y + h + margin

    def _draw_fill(self, surface: pygame.Surface, fill: HexFill) -> None:
        stamp = self._stamp(fill.colour, fill.alpha, fill.outline)
        hw, hh = stamp.get_width() / 2, stamp.get_height() / 2
        cam = self.camera
        blits = []
        for h in fill.hexes:
            sx, sy = cam.hex_to_screen(h)
            if self._visible(sx, sy, hw + hh):
                blits.append((stamp, (round(sx - hw), round(sy - hh))))
        surface.blits(blits, doreturn=False)

    def _draw_zoc(self, surface: pygame.Surface, zoc: ZocView) -> None:
        if zoc.front:
            # a large figure's zone (FTC 5.2 over its footprint): tinted and outlined, no arc can follow it
            self._draw_fill(surface, HexFill(zoc.front, zoc.colour, 45))
            draw_outline(surface, self.cells_outline(zoc.front), zoc.colour, max(1, round(2 * self.camera.zoom)))
            return
        front = frozenset(neighbor(zoc.hex, zoc.facing + k) for k in (-1, 0, 1))
        self._draw_fill(surface, HexFill(front, zoc.colour, 45))
        cam = self.camera
        cx, cy = cam.hex_to_screen(zoc.hex)
        dx, dy = self.layout.direction_vector(zoc.facing)
        radius = math.hypot(dx, dy) * cam.zoom * 1.45
        start = self.layout.direction_angle(zoc.facing - 1) - math.pi / 6
        stop = self.layout.direction_angle(zoc.facing + 1) + math.pi / 6
        arc_rect = pygame.Rect(0, 0, 2 * radius, 2 * radius)
        arc_rect.center = (round(cx), round(cy))
        pygame.draw.arc(surface, zoc.colour, arc_rect, start, stop, max(2, round(3 * cam.zoom)))

    def _draw_path(self, surface: pygame.Surface, path: PathView) -> None:
        cam = self.camera
        pts = [cam.hex_to_screen(h) for h in path.hexes]
        width = max(2, round(4 * cam.zoom))
        if len(pts) >= 2:
            pygame.draw.lines(surface, (0, 0, 0), False, pts, width + 2)
            pygame.draw.lines(surface, path.colour, False, pts, width)
        dot = max(2, round(5 * cam.zoom))
        for p in pts[1:]:
            pygame.draw.circle(surface, path.colour, p, dot)
        size = 13 if cam.zoom >= 0.7 else 11
        for p, label in zip(pts, path.step_labels, strict=False):
            if label:
                surf = self._label(label, size)
                surface.blit(surf, surf.get_rect(midbottom=(p[0], p[1] - dot - 2)))
        front = 0.0
        if path.end_cells:
            # where the whole body ends (FTC 5): its hexes tinted and outlined, the arrow from its front
            self._draw_fill(surface, HexFill(path.end_cells, path.colour, 40))
            draw_outline(surface, self.cells_outline(path.end_cells), path.colour, width)
            if path.final_facing is not None and path.hexes:
                front = front_extent(self.layout, path.hexes[-1], path.end_cells, path.final_facing) * cam.zoom
        if path.final_facing is not None and pts:
            end = pts[-1]
            angle = self.layout.direction_angle(path.final_facing)
            length = self.token_radius() * 1.6 + front
            tip = (end[0] + math.cos(angle) * length, end[1] - math.sin(angle) * length)
            pygame.draw.line(surface, path.colour, end, tip, width)
            pygame.draw.circle(surface, path.colour, tip, dot + 1)

    def _draw_lof(self, surface: pygame.Surface, lof: LineOfFireView) -> None:
        cam = self.camera
        a, b = cam.hex_to_screen(lof.start), cam.hex_to_screen(lof.end)
        colour = self.palette.lof_blocked if lof.blocked else self.palette.line_of_fire
        width = max(2, round(3 * cam.zoom))
        pygame.draw.line(surface, (0, 0, 0), a, b, width + 2)
        pygame.draw.line(surface, colour, a, b, width)
        kinds = {
            "clear": self.palette.lof_clear,
            "edge": self.palette.lof_clear,
            "cover": self.palette.lof_cover,
            "bystander": self.palette.lof_bystander,
            "blocked": self.palette.lof_blocked,
        }
        mark = max(3, round(7 * cam.zoom))
        for m in lof.marks:
            p = cam.hex_to_screen(m.hex)
            c = kinds.get(m.kind, self.palette.lof_clear)
            self._draw_fill(surface, HexFill(frozenset({m.hex}), c, 30 if m.kind == "edge" else 55))
            if m.kind == "blocked":
                pygame.draw.line(surface, c, (p[0] - mark, p[1] - mark), (p[0] + mark, p[1] + mark), width + 1)
                pygame.draw.line(surface, c, (p[0] - mark, p[1] + mark), (p[0] + mark, p[1] - mark), width + 1)
            elif m.kind == "edge":  # only grazed: a hollow mark, lighter than a hex the line crosses
                pygame.draw.circle(surface, (0, 0, 0), p, mark // 2 + 2, 2)
                pygame.draw.circle(surface, c, p, mark // 2 + 1, 1)
            else:
                pygame.draw.circle(surface, (0, 0, 0), p, mark // 2 + 2)
                pygame.draw.circle(surface, c, p, mark // 2 + 1)
            words = self._mark_label(m)
            if words is not None:
                surface.blit(*words)

    def _mark_label(self, m: LofMark) -> tuple[pygame.Surface, pygame.Rect] | None:
        """A mark's words under the mark (a bystander's chance is placed by ``lof_chances``)."""
        if not m.text or m.kind == "bystander":
            return None
        cam = self.camera
        p = cam.hex_to_screen(m.hex)
        label = self._label(m.text, 12)
        return label, label.get_rect(midtop=(p[0], p[1] + max(3, round(7 * cam.zoom))))

    def lof_chances(self, view: BoardView, ops: _TokenOps | None = None) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The bystanders' chances to be hit by a miss (FTC 6.5.3) and where they go: over the token, where no
        other token or name lies (drawn over the tokens, so that no name hides it); a chance with no such room
        is left out (the declaration panel lists every one). ``ops``: the tokens as
        drawn this frame (default: the cached frame's)."""
        lof = view.line_of_fire
        if lof is None:
            return []
        ops = ops if ops is not None else self._token_ops
        cam = self.camera
        r = self.token_radius()
        view_rect = pygame.Rect(cam.view)
        taken = [rect for _, rect in ops.labels] if ops is not None else []
        sprites = [rect for _, rect in ops.sprites] if ops is not None else []
        out: list[tuple[pygame.Surface, pygame.Rect]] = []
        for m in lof.marks:
            if m.kind != "bystander" or not m.text:
                continue
            x, y = (round(v) for v in cam.hex_to_screen(m.hex))
            label = self._label(m.text, 12)
            others = [rect for rect in sprites if not rect.collidepoint(x, y)]
            rect = label.get_rect(midbottom=(x, y - round(r * 0.8)))
            if view_rect.contains(rect) and rect.collidelist(taken) < 0 and rect.collidelist(others) < 0:
                out.append((label, rect))
                taken.append(rect)
        return out

    def lof_note(self, view: BoardView, ops: _TokenOps | None = None) -> tuple[pygame.Surface, pygame.Rect] | None:
        """The line of fire's note (said once) and where it goes: beside the line, at the first point from its
        middle outwards where it lies inside the board and covers no token, name, mark or label of the line;
        None when the board has no such room (a short line in a small window): the chances on the hexes stay.
        ``ops``: the tokens as drawn this frame (default: the cached frame's)."""
        lof = view.line_of_fire
        if lof is None or not lof.note:
            return None
        cam = self.camera
        label = self._label(lof.note, 12)
        a, b = cam.hex_to_screen(lof.start), cam.hex_to_screen(lof.end)
        mark = max(3, round(7 * cam.zoom))
        ops = ops if ops is not None else self._token_ops
        if ops is not None:
            taken = [rect for _, rect in ops.sprites] + [rect for _, rect in ops.labels]
        else:
            r = self.token_radius()
            taken = [
                pygame.Rect(round(x - r), round(y - r), round(2 * r), round(2 * r + 18))
                for x, y in (cam.hex_to_screen(t.hex) for t in view.tokens)
            ]
        for m in lof.marks:
            p = cam.hex_to_screen(m.hex)
            taken.append(pygame.Rect(round(p[0] - mark), round(p[1] - mark), 2 * mark, 2 * mark))
            words = self._mark_label(m)
            if words is not None:
                taken.append(words[1])
        taken.extend(rect for _, rect in self.lof_chances(view, ops))
        view_rect = pygame.Rect(cam.view)
        half_hex = round(self.layout.height * cam.zoom / 2)
        for gap in (mark + 2, half_hex + mark + 2):  # beside the line, else past the hexes it runs between
            for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9):
                x, y = round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t)
                for rect in (label.get_rect(midbottom=(x, y - gap)), label.get_rect(midtop=(x, y + gap))):
                    if view_rect.contains(rect) and rect.collidelist(taken) < 0:
                        return label, rect
        return None

    def token_at(self, tokens: Sequence[TokenView], sx: float, sy: float) -> TokenView | None:
        """The token under a screen point (the hex's occupant), if any."""
        h = self.camera.screen_to_hex(sx, sy)
        for t in tokens:
            if t.hex == h or (t.cells and h in t.cells):
                return t
        return None


def _large_cells_at(view: BoardView, h: Hex) -> frozenset[Hex]:
    """The footprint of the large figure covering ``h`` (FTC 5), empty when none does."""
    for t in view.tokens:
        if t.cells and h in t.cells and len(t.cells) > 1:
            return t.cells
    return frozenset()
