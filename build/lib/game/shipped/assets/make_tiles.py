"""Draw the hex terrain tilesets of the shipped battle maps (original art, drawn entirely by this script).

Run it from the project root, with the project's virtual environment active:

    python assets/make_tiles.py            # tiles, tilesets and the Tiled project file
    python assets/make_tiles.py --preview  # also writes assets/tiles/preview_*.png (every tile on a grid)

It writes
- ``assets/tiles/terrain_pointy.png`` (64 x 74 px tiles, pointy-top, for ``staggeraxis="y"`` maps) and
  ``assets/tiles/terrain_flat.png`` (74 x 64 px tiles, flat-top, for ``staggeraxis="x"`` maps), both with a
  hex side length of 36 px, and copies them to ``maps/tiles/`` so that every file a map refers to lies
  inside the map's folder;
- the Tiled tilesets ``maps/terrain_pointy.tsx`` and ``maps/terrain_flat.tsx``, whose tile custom properties
  are the terrain the game plays on (FTC 5.1.2 and table 3 movement penalties; table 7 footing and light);
- the Tiled project file ``maps/fudge-tactics.tiled-project`` with the custom property types ``Terrain``,
  ``Side`` and the object classes ``figure``, ``deploy`` and ``terrain``.

The output is deterministic: every tile draws from its own seeded generator.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

ROOT = Path(__file__).resolve().parent.parent
ASSET_DIR = ROOT / "assets" / "tiles"
MAP_DIR = ROOT / "maps"
SS = 4  # supersampling factor: shapes are drawn 4x larger and box-filtered down, which antialiases them
COLUMNS = 8

Array = np.ndarray


# --------------------------------------------------------------------------------------------------
# Terrain: the properties the map loader reads from each tile (see the GM's guide).
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Terrain:
    """One kind of ground or feature and the rules it carries (FTC 5.1.2, table 3, table 7)."""

    name: str
    move_penalty: int = 0
    move_penalty_fly: int = 0
    impassable: bool = False
    impassable_fly: bool = False
    blocks_sight: bool = False
    cover: int = 0
    elevation: int = 0
    light: int = 0
    footing: int = 0


TERRAINS: dict[str, Terrain] = {
    t.name: t
    for t in (
        Terrain("grass"),
        Terrain("dirt"),
        Terrain("road"),
        Terrain("rough", move_penalty=1),  # table 3: rough or rocky -1
        Terrain("rocky", move_penalty=1, footing=-1),
        Terrain("boulders", move_penalty=2, cover=-1, footing=-1),  # table 3: boulder-strewn -2
        Terrain("sand", move_penalty=2),  # table 3: sand or runny mud -2
        Terrain("mud", move_penalty=2, footing=-1),
        Terrain("shallows", move_penalty=1, footing=-1),  # ankle-deep: between rough and knee-deep
        Terrain("stream", move_penalty=3, footing=-2),  # table 3: knee-deep water -3
        Terrain("deep_water", impassable=True),  # swimming is not walking
        Terrain("ice", move_penalty=4, footing=-3),  # table 3: ice -4
        Terrain("bridge"),
        Terrain("floor"),
        Terrain("flagstones"),
        Terrain("hill"),
        Terrain("brush", move_penalty=1, cover=-1),
        Terrain("trees", move_penalty=1, cover=-1),
        Terrain("dense_woods", move_penalty=2, move_penalty_fly=1, blocks_sight=True, cover=-2, light=-1),
        Terrain("rubble", move_penalty=1, cover=-1, footing=-1),
        Terrain("broken_wall", move_penalty=2, cover=-1, footing=-1),
        Terrain("wall", impassable=True, impassable_fly=True, blocks_sight=True),
        Terrain("door", blocks_sight=True),
        Terrain("building", impassable=True, impassable_fly=True, blocks_sight=True),
    )
}

PROPERTY_ORDER = (
    "move_penalty",
    "move_penalty_fly",
    "impassable",
    "impassable_fly",
    "blocks_sight",
    "cover",
    "elevation",
    "light",
    "footing",
)

SIDES = ("blue", "red", "green", "yellow")


@dataclass(frozen=True)
class Geometry:
    """A hex tile shape as Tiled lays it out: tile size and the length of the straight side."""

    kind: str  # "pointy" (staggeraxis y) or "flat" (staggeraxis x)
    width: int
    height: int
    side: int

    def vertices(self, scale: float = 1.0) -> list[tuple[float, float]]:
        """The hex's corners in tile pixels (clockwise on screen), the way Tiled's hex renderer places them."""
        w, h = self.width, self.height
        if self.kind == "pointy":
            off = (h - self.side) / 2
            pts = [(w / 2, 0), (w, off), (w, h - off), (w / 2, h), (0, h - off), (0, off)]
        else:
            off = (w - self.side) / 2
            pts = [(0, h / 2), (off, 0), (w - off, 0), (w, h / 2), (w - off, h), (off, h)]
        return [(x * scale, y * scale) for x, y in pts]


POINTY = Geometry("pointy", 64, 74, 36)
FLAT = Geometry("flat", 74, 64, 36)


# --------------------------------------------------------------------------------------------------
# Drawing helpers (numpy arrays are [y, x, channel], floats 0..255, alpha 0..1)
# --------------------------------------------------------------------------------------------------
def edge_field(geom: Geometry, scale: float, w: int, h: int) -> tuple[Array, Array, Array]:
    """Signed distance (px, positive inside) of every pixel centre to the hex outline, and its nearest
    edge's inward normal (nx, ny)."""
    pts = geom.vertices(scale)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    xs += 0.5
    ys += 0.5
    cx = sum(p[0] for p in pts) / 6
    cy = sum(p[1] for p in pts) / 6
    best = np.full((h, w), np.inf)
    nx = np.zeros((h, w))
    ny = np.zeros((h, w))
    for i in range(6):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % 6]
        ex, ey = x1 - x0, y1 - y0
        ln = math.hypot(ex, ey)
        n = (-ey / ln, ex / ln)
        if (cx - x0) * n[0] + (cy - y0) * n[1] < 0:
            n = (-n[0], -n[1])
        d = (xs - x0) * n[0] + (ys - y0) * n[1]
        closer = d < best
        best = np.where(closer, d, best)
        nx = np.where(closer, n[0], nx)
        ny = np.where(closer, n[1], ny)
    return best, nx, ny


def value_noise(h: int, w: int, cell: float, rng: np.random.Generator) -> Array:
    """Smooth random field in [0, 1] with features about ``cell`` pixels wide."""
    gh, gw = int(h / cell) + 3, int(w / cell) + 3
    grid = rng.random((gh, gw))
    ys = np.arange(h) / cell
    xs = np.arange(w) / cell
    y0 = ys.astype(int)
    x0 = xs.astype(int)
    fy = ys - y0
    fx = xs - x0
    fy = fy * fy * (3 - 2 * fy)
    fx = fx * fx * (3 - 2 * fx)
    a = grid[y0][:, x0]
    b = grid[y0][:, x0 + 1]
    c = grid[y0 + 1][:, x0]
    d = grid[y0 + 1][:, x0 + 1]
    top = a + (b - a) * fx[None, :]
    bot = c + (d - c) * fx[None, :]
    return top + (bot - top) * fy[:, None]


def fbm(h: int, w: int, rng: np.random.Generator, base: float = 48.0, octaves: int = 4) -> Array:
    """Fractal noise in about [-1, 1]."""
    total = np.zeros((h, w))
    amp, norm, cell = 1.0, 0.0, base
    for _ in range(octaves):
        total += amp * (value_noise(h, w, cell, rng) - 0.5)
        norm += amp * 0.5
        amp *= 0.5
        cell = max(cell / 2, 1.5)
    return total / norm


def solid(h: int, w: int, colour: tuple[float, float, float], alpha: float = 1.0) -> Array:
    """An RGBA layer of one colour."""
    out = np.zeros((h, w, 4))
    out[..., :3] = colour
    out[..., 3] = alpha
    return out


def tint(layer: Array, field: Array, amount: float) -> Array:
    """Brighten / darken a layer by a field in [-1, 1]."""
    out = layer.copy()
    out[..., :3] *= (1 + amount * field)[..., None]
    return out


def over(dst: Array, src: Array, opacity: float = 1.0) -> Array:
    """Porter-Duff 'source over' of two straight-alpha RGBA layers."""
    sa = src[..., 3:4] * opacity
    da = dst[..., 3:4]
    oa = sa + da * (1 - sa)
    rgb = np.where(oa > 0, (src[..., :3] * sa + dst[..., :3] * da * (1 - sa)) / np.maximum(oa, 1e-9), 0)
    return np.concatenate([rgb, oa], axis=-1)


def shapes(h: int, w: int, draw: Callable[[pygame.Surface], None]) -> Array:
    """Draw with pygame on a transparent surface and return it as an RGBA layer."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    surf.fill((0, 0, 0, 0))
    draw(surf)
    rgb = pygame.surfarray.array3d(surf).transpose(1, 0, 2).astype(np.float64)
    alpha = pygame.surfarray.array_alpha(surf).T.astype(np.float64) / 255.0
    return np.concatenate([rgb, alpha[..., None]], axis=-1)


def shadow_of(layer: Array, dx: int, dy: int, strength: float = 0.45) -> Array:
    """A soft dark shadow of a layer's shape, offset down-right (light from the upper left)."""
    a = np.roll(np.roll(layer[..., 3], dy, axis=0), dx, axis=1)
    if dy > 0:
        a[:dy] = 0
    if dx > 0:
        a[:, :dx] = 0
    k = max(abs(dx), 2)
    # a box blur so the shadow's edge is soft
    pad = np.pad(a, k, mode="edge")
    c = pad.cumsum(0).cumsum(1)
    c = np.pad(c, ((1, 0), (1, 0)))
    s = 2 * k + 1
    blur = (c[s:, s:] - c[:-s, s:] - c[s:, :-s] + c[:-s, :-s]) / (s * s)
    blur = blur[: a.shape[0], : a.shape[1]]
    out = np.zeros(layer.shape)
    out[..., :3] = (20, 25, 10)
    out[..., 3] = blur * strength
    return out


@dataclass
class Ctx:
    """Where a tile is drawn: supersampled canvas size, hex centre and radius, the tile's generator."""

    geom: Geometry
    w: int
    h: int
    rng: np.random.Generator

    @property
    def cx(self) -> float:
        return self.w / 2

    @property
    def cy(self) -> float:
        return self.h / 2

    @property
    def r(self) -> float:
        """Inner radius (centre to the middle of a side) in canvas pixels."""
        return min(self.w, self.h) / 2

    def inside(self, margin: float = 0.0) -> Array:
        """Mask of canvas pixels at least ``margin`` (canvas px) inside the hex."""
        d, _, _ = edge_field(self.geom, SS, self.w, self.h)
        return d >= margin

    def random_point(self, margin: float) -> tuple[float, float]:
        """A random point at least ``margin`` canvas px inside the hex."""
        d, _, _ = self._edges()
        for _ in range(200):
            x = self.rng.uniform(0, self.w)
            y = self.rng.uniform(0, self.h)
            if d[int(y), int(x)] >= margin:
                return x, y
        return self.cx, self.cy

    def _edges(self) -> tuple[Array, Array, Array]:
        if not hasattr(self, "_cache"):
            self._cache = edge_field(self.geom, SS, self.w, self.h)
        return self._cache


def _c(rgb: tuple[float, float, float], k: float = 1.0, a: int = 255) -> tuple[int, int, int, int]:
    return (int(max(0, min(255, rgb[0] * k))), int(max(0, min(255, rgb[1] * k))), int(max(0, min(255, rgb[2] * k))), a)


# --------------------------------------------------------------------------------------------------
# Ground textures (opaque, fill the whole tile)
# --------------------------------------------------------------------------------------------------
def grass_layer(
    ctx: Ctx, base: tuple[float, float, float] = (88, 138, 58), blades: int = 260, flowers: int = 0
) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = tint(solid(h, w, base), fbm(h, w, rng, 60), 0.16)
    layer = tint(layer, fbm(h, w, rng, 10, 2), 0.07)

    def draw(s: pygame.Surface) -> None:
        for _ in range(blades):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            k = rng.uniform(0.72, 1.28)
            ang = rng.uniform(-0.6, 0.6) - math.pi / 2
            ln = rng.uniform(5, 11) * SS / 2
            pygame.draw.line(s, _c(base, k), (x, y), (x + ln * math.cos(ang), y + ln * math.sin(ang)), 3)
        for _ in range(flowers):
            x, y = ctx.random_point(6 * SS)
            col = [(235, 220, 90), (245, 245, 235), (200, 120, 190)][int(rng.integers(0, 3))]
            pygame.draw.circle(s, (*col, 255), (x, y), 1.3 * SS)

    return over(layer, shapes(h, w, draw))


def stones(
    ctx: Ctx,
    n: int,
    size: tuple[float, float],
    colour: tuple[float, float, float],
    margin: float = 4.0,
    angular: bool = False,
    shadow: float = 0.4,
) -> Array:
    """Scattered stones with a lit upper-left and a shadow."""
    rng = ctx.rng

    def draw(s: pygame.Surface) -> None:
        for _ in range(n):
            x, y = ctx.random_point(margin * SS)
            rad = rng.uniform(*size) * SS
            k = rng.uniform(0.8, 1.15)
            if angular:
                m = int(rng.integers(5, 8))
                pts = []
                a0 = rng.uniform(0, math.tau)
                for i in range(m):
                    a = a0 + i * math.tau / m + rng.uniform(-0.3, 0.3)
                    rr = rad * rng.uniform(0.6, 1.0)
                    pts.append((x + rr * math.cos(a), y + rr * 0.8 * math.sin(a)))
                pygame.draw.polygon(s, _c(colour, k * 0.8), pts)
                inner = [(x + (px - x) * 0.7 - rad * 0.12, y + (py - y) * 0.7 - rad * 0.12) for px, py in pts]
                pygame.draw.polygon(s, _c(colour, k * 1.08), inner)
            else:
                rect = pygame.Rect(0, 0, rad * 2, rad * 1.6)
                rect.center = (int(x), int(y))
                pygame.draw.ellipse(s, _c(colour, k * 0.78), rect)
                hl = rect.inflate(-rad * 0.5, -rad * 0.45).move(-rad * 0.15, -rad * 0.15)
                pygame.draw.ellipse(s, _c(colour, k * 1.0), hl)
                hl2 = rect.inflate(-rad * 1.2, -rad * 1.0).move(-rad * 0.3, -rad * 0.3)
                pygame.draw.ellipse(s, _c(colour, k * 1.2), hl2)

    layer = shapes(ctx.h, ctx.w, draw)
    return over(shadow_of(layer, SS, SS, shadow), layer)


def t_grass(ctx: Ctx) -> Array:
    return grass_layer(ctx)


def t_grass_flowers(ctx: Ctx) -> Array:
    return grass_layer(ctx, (92, 142, 60), flowers=7)


def t_grass_lush(ctx: Ctx) -> Array:
    return grass_layer(ctx, (82, 132, 55), blades=340)


def dirt_layer(ctx: Ctx, base: tuple[float, float, float] = (134, 104, 72)) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = tint(solid(h, w, base), fbm(h, w, rng, 40), 0.18)
    return tint(layer, fbm(h, w, rng, 6, 2), 0.08)


def t_dirt(ctx: Ctx) -> Array:
    layer = dirt_layer(ctx)
    return over(layer, stones(ctx, 9, (0.8, 1.6), (150, 132, 110), shadow=0.25))


def t_road(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = dirt_layer(ctx, (178, 152, 110))
    # worn wheel tracks: darker, smoother bands through the middle
    ys = np.mgrid[0:h, 0:w][0]
    wob = fbm(h, w, rng, 50, 2) * 4 * SS
    band = np.exp(-(((ys - ctx.cy + wob) / (ctx.r * 0.55)) ** 2))
    layer = tint(layer, -0.12 * band, 1.0)
    return over(layer, stones(ctx, 14, (0.6, 1.3), (196, 180, 150), shadow=0.2))


def t_sand(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = tint(solid(h, w, (214, 192, 138)), fbm(h, w, rng, 40), 0.08)
    ys, xs = np.mgrid[0:h, 0:w]
    ripple = np.sin((ys + 0.35 * xs + fbm(h, w, rng, 30, 2) * 10 * SS) / (2.2 * SS))
    layer = tint(layer, ripple, 0.05)
    return tint(layer, fbm(h, w, rng, 3, 1), 0.1)


def t_mud(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = tint(solid(h, w, (102, 80, 56)), fbm(h, w, rng, 30), 0.2)
    wet = fbm(h, w, rng, 22, 3)
    puddle = np.clip((wet - 0.15) * 5, 0, 1)
    water = solid(h, w, (70, 62, 52))
    water[..., 3] = puddle * 0.85
    layer = over(layer, water)
    shine = np.clip((wet - 0.35) * 6, 0, 1) * np.clip(fbm(h, w, rng, 4, 1) * 3, 0, 1)
    hl = solid(h, w, (170, 160, 140))
    hl[..., 3] = shine * 0.5
    return over(layer, hl)


def water_layer(ctx: Ctx, base: tuple[float, float, float], streaks: float, depth_var: float) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = tint(solid(h, w, base), fbm(h, w, rng, 50), depth_var)
    ys, xs = np.mgrid[0:h, 0:w]
    flow = np.sin((xs * 0.9 + fbm(h, w, rng, 40, 2) * 14 * SS) / (3.0 * SS) + ys / (9.0 * SS))
    glint = np.clip((flow - 0.82) * 6, 0, 1) * np.clip(fbm(h, w, rng, 12, 2) + 0.5, 0, 1)
    light = solid(h, w, (215, 235, 245))
    light[..., 3] = glint * streaks
    return over(layer, light)


def t_shallows(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    bed = t_sand(ctx)
    bed = over(bed, stones(ctx, 10, (0.8, 1.8), (150, 140, 120), shadow=0.2))
    water = water_layer(ctx, (96, 160, 178), 0.7, 0.1)
    water[..., 3] = 0.55 + 0.1 * fbm(h, w, rng, 30, 2)
    return over(bed, water)


def t_stream(ctx: Ctx) -> Array:
    return water_layer(ctx, (58, 118, 158), 0.75, 0.12)


def t_deep_water(ctx: Ctx) -> Array:
    return water_layer(ctx, (28, 58, 112), 0.45, 0.15)


def t_ice(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = tint(solid(h, w, (200, 224, 236)), fbm(h, w, rng, 40), 0.07)

    def draw(s: pygame.Surface) -> None:
        for _ in range(5):
            x, y = ctx.random_point(4 * SS)
            a = rng.uniform(0, math.tau)
            for _ in range(5):
                ln = rng.uniform(3, 8) * SS
                a += rng.uniform(-0.8, 0.8)
                nx, ny = x + ln * math.cos(a), y + ln * math.sin(a)
                pygame.draw.line(s, (150, 185, 205, 255), (x, y), (nx, ny), 2)
                x, y = nx, ny

    return over(layer, shapes(h, w, draw))


def t_rough(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    grass = grass_layer(ctx, (104, 128, 62), blades=160)
    soil = dirt_layer(ctx, (128, 106, 74))
    m = np.clip((fbm(h, w, rng, 18, 3) + 0.05) * 3, 0, 1)
    soil[..., 3] = m
    layer = over(grass, soil)

    def tufts(s: pygame.Surface) -> None:
        for _ in range(10):
            x, y = ctx.random_point(5 * SS)
            for _ in range(7):
                a = rng.uniform(-2.4, -0.7)
                ln = rng.uniform(4, 7) * SS
                pygame.draw.line(
                    s, _c((70, 100, 40), rng.uniform(0.8, 1.2)), (x, y), (x + ln * math.cos(a), y + ln * math.sin(a)), 4
                )

    layer = over(layer, shapes(h, w, tufts))
    return over(layer, stones(ctx, 6, (1.0, 2.0), (140, 130, 115)))


def t_rocky(ctx: Ctx) -> Array:
    layer = dirt_layer(ctx, (132, 122, 106))
    layer = over(layer, stones(ctx, 30, (0.8, 1.8), (150, 144, 134)))
    return over(layer, stones(ctx, 7, (2.4, 3.6), (168, 162, 150), angular=True, shadow=0.55))


def t_floor(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    base = (150, 110, 70)
    layer = solid(h, w, base)
    ys, xs = np.mgrid[0:h, 0:w]
    board = 7 * SS
    idx = ys // board
    shade = rng.uniform(-0.1, 0.1, size=h // board + 2)[idx]
    grain = np.sin(xs / (1.3 * SS) + fbm(h, w, rng, 30, 2) * 10) * 0.04
    layer = tint(layer, shade + grain, 1.0)
    seam = (ys % board) < SS
    offs = rng.integers(0, 40 * SS, size=h // board + 2)[idx]
    butt = ((xs + offs) % (34 * SS)) < SS
    layer[seam | butt, :3] *= 0.55
    return layer


def voronoi_slabs(
    ctx: Ctx, n: int, base: tuple[float, float, float], mortar: tuple[float, float, float], var: float
) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    pts = np.stack([rng.uniform(-0.1, 1.1, n) * w, rng.uniform(-0.1, 1.1, n) * h], axis=1)
    ys, xs = np.mgrid[0:h, 0:w]
    d = np.sqrt((xs[..., None] - pts[:, 0]) ** 2 + (ys[..., None] - pts[:, 1]) ** 2)
    order = np.argsort(d, axis=-1)
    d1 = np.take_along_axis(d, order[..., :1], -1)[..., 0]
    d2 = np.take_along_axis(d, order[..., 1:2], -1)[..., 0]
    cell = order[..., 0]
    shade = rng.uniform(-var, var, n)[cell]
    layer = tint(solid(h, w, base), shade + 0.06 * fbm(h, w, rng, 8, 2), 1.0)
    edge = d2 - d1
    bevel = np.clip(edge / (2.5 * SS), 0, 1)
    layer[..., :3] *= (0.85 + 0.15 * bevel)[..., None]
    line = edge < 1.2 * SS
    layer[line, :3] = mortar
    return layer


def t_flagstones(ctx: Ctx) -> Array:
    return voronoi_slabs(ctx, 9, (160, 156, 146), (92, 88, 80), 0.1)


def t_hill(level: int) -> Callable[[Ctx], Array]:
    # hypsometric tints: the higher, the more golden; dots near the lower edge count the level
    colours = {1: (118, 146, 60), 2: (150, 150, 66), 3: (176, 148, 82), 4: (188, 136, 96)}

    def draw_hill(ctx: Ctx) -> Array:
        layer = grass_layer(ctx, colours[level], blades=200)

        def marks(s: pygame.Surface) -> None:
            y = ctx.cy + ctx.r * 0.62
            for i in range(level):
                x = ctx.cx + (i - (level - 1) / 2) * 6 * SS
                tri = [(x, y - 3.2 * SS), (x + 3.2 * SS, y + 2.0 * SS), (x - 3.2 * SS, y + 2.0 * SS)]
                pygame.draw.polygon(s, (70, 56, 34, 190), tri)
                pygame.draw.polygon(
                    s,
                    (236, 220, 170, 150),
                    [(x, y - 3.2 * SS), (x - 3.2 * SS, y + 2.0 * SS), (x - 1.8 * SS, y + 2.0 * SS), (x, y - 1.0 * SS)],
                )

        return over(layer, shapes(ctx.h, ctx.w, marks))

    return draw_hill


def t_bridge(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = t_stream(ctx)
    top, bot = ctx.cy - ctx.r * 0.62, ctx.cy + ctx.r * 0.62

    def deck(s: pygame.Surface) -> None:
        pw = 5 * SS
        x = 0.0
        while x < w:
            k = rng.uniform(0.85, 1.12)
            pygame.draw.rect(s, _c((150, 112, 70), k), pygame.Rect(x, top, pw - SS, bot - top))
            pygame.draw.rect(s, _c((120, 88, 54), k), pygame.Rect(x + pw - SS, top, SS, bot - top))
            x += pw
        pygame.draw.rect(s, (96, 66, 40, 255), pygame.Rect(0, top - 2 * SS, w, 3 * SS))
        pygame.draw.rect(s, (96, 66, 40, 255), pygame.Rect(0, bot - SS, w, 3 * SS))

    d = shapes(h, w, deck)
    return over(over(layer, shadow_of(d, SS, 2 * SS, 0.5)), d)


# --------------------------------------------------------------------------------------------------
# Features (transparent where the ground below shows)
# --------------------------------------------------------------------------------------------------
def canopy(
    s: pygame.Surface, x: float, y: float, rad: float, colour: tuple[float, float, float], rng: np.random.Generator
) -> None:
    """A round tree crown seen from above: lobes, darker rim, lit upper left."""
    for _ in range(7):
        a = rng.uniform(0, math.tau)
        pygame.draw.circle(
            s, _c(colour, 0.72), (x + rad * 0.45 * math.cos(a), y + rad * 0.45 * math.sin(a)), rad * 0.62
        )
    pygame.draw.circle(s, _c(colour, 0.8), (x, y), rad * 0.85)
    for i, k in enumerate((0.95, 1.1, 1.25)):
        off = rad * 0.14 * (i + 1)
        pygame.draw.circle(s, _c(colour, k), (x - off, y - off), rad * (0.62 - 0.15 * i))
    for _ in range(6):
        a = rng.uniform(0, math.tau)
        rr = rng.uniform(0.1, 0.6) * rad
        pygame.draw.circle(
            s, _c(colour, rng.uniform(0.75, 1.3)), (x + rr * math.cos(a), y + rr * math.sin(a)), rad * 0.16
        )


def conifer(
    s: pygame.Surface, x: float, y: float, rad: float, colour: tuple[float, float, float], rng: np.random.Generator
) -> None:
    """A fir seen from above: a star of needles, lighter towards the tip."""
    for layer, k in ((1.0, 0.7), (0.75, 0.9), (0.48, 1.1), (0.24, 1.3)):
        pts = []
        m = 9
        a0 = rng.uniform(0, math.tau)
        for i in range(2 * m):
            a = a0 + i * math.pi / m
            rr = rad * layer * (1.0 if i % 2 == 0 else 0.62)
            shift = (1 - layer) * rad * 0.12
            pts.append((x + rr * math.cos(a) - shift, y + rr * math.sin(a) - shift))
        pygame.draw.polygon(s, _c(colour, k), pts)


def t_trees(kind: str) -> Callable[[Ctx], Array]:
    def draw_trees(ctx: Ctx) -> Array:
        rng = ctx.rng
        r = ctx.r
        spots = (
            [(-0.38, -0.3), (0.38, -0.12), (-0.08, 0.42)]
            if kind == "broad"
            else [(-0.4, -0.2), (0.3, -0.38), (0.35, 0.3), (-0.2, 0.42)]
        )

        def draw(s: pygame.Surface) -> None:
            for fx, fy in spots:
                x = ctx.cx + fx * r + rng.uniform(-0.08, 0.08) * r
                y = ctx.cy + fy * r + rng.uniform(-0.08, 0.08) * r
                if kind == "broad":
                    canopy(s, x, y, r * rng.uniform(0.36, 0.44), (70, 122, 50), rng)
                else:
                    conifer(s, x, y, r * rng.uniform(0.3, 0.36), (40, 96, 58), rng)

        layer = shapes(ctx.h, ctx.w, draw)
        return over(shadow_of(layer, 3 * SS, 3 * SS, 0.55), layer)

    return draw_trees


def t_dense_woods(ctx: Ctx) -> Array:
    rng = ctx.rng
    h, w, r = ctx.h, ctx.w, ctx.r
    under = tint(solid(h, w, (38, 62, 32)), fbm(h, w, rng, 20), 0.2)

    def draw(s: pygame.Surface) -> None:
        pts = [
            (ctx.cx + fx * r, ctx.cy + fy * r)
            for fx, fy in (
                (-0.55, -0.5),
                (0.1, -0.7),
                (0.6, -0.35),
                (-0.7, 0.1),
                (0.0, -0.05),
                (0.7, 0.25),
                (-0.45, 0.6),
                (0.2, 0.65),
            )
        ]
        rng.shuffle(pts)
        for x, y in pts:
            x += rng.uniform(-0.08, 0.08) * r
            y += rng.uniform(-0.08, 0.08) * r
            if rng.random() < 0.4:
                conifer(s, x, y, r * rng.uniform(0.34, 0.42), (34, 84, 50), rng)
            else:
                canopy(s, x, y, r * rng.uniform(0.36, 0.46), (54, 100, 42), rng)

    crowns = shapes(h, w, draw)
    return over(over(under, shadow_of(crowns, 2 * SS, 2 * SS, 0.6)), crowns)


def t_brush(ctx: Ctx) -> Array:
    rng = ctx.rng

    def draw(s: pygame.Surface) -> None:
        for _ in range(6):
            x, y = ctx.random_point(9 * SS)
            rad = ctx.r * rng.uniform(0.15, 0.22)
            for _ in range(5):
                a = rng.uniform(0, math.tau)
                pygame.draw.circle(
                    s,
                    _c((86, 120, 48), rng.uniform(0.7, 1.0)),
                    (x + rad * 0.5 * math.cos(a), y + rad * 0.5 * math.sin(a)),
                    rad * 0.7,
                )
            pygame.draw.circle(s, _c((100, 140, 56), 1.15), (x - rad * 0.2, y - rad * 0.2), rad * 0.45)
            for _ in range(3):
                pygame.draw.circle(
                    s,
                    (150, 60, 60, 255),
                    (x + rng.uniform(-rad, rad) * 0.6, y + rng.uniform(-rad, rad) * 0.6),
                    0.9 * SS,
                )

    layer = shapes(ctx.h, ctx.w, draw)
    return over(shadow_of(layer, 2 * SS, 2 * SS, 0.5), layer)


def t_boulders(ctx: Ctx) -> Array:
    rng = ctx.rng
    r = ctx.r

    def draw(s: pygame.Surface) -> None:
        spots = [(-0.36, -0.28, 0.4), (0.38, -0.08, 0.34), (-0.04, 0.44, 0.34)]
        for fx, fy, fr in spots:
            x = ctx.cx + (fx + rng.uniform(-0.06, 0.06)) * r
            y = ctx.cy + (fy + rng.uniform(-0.06, 0.06)) * r
            rad = fr * r
            m = 9
            a0 = rng.uniform(0, math.tau)
            pts = [
                (
                    x + rad * rng.uniform(0.8, 1.0) * math.cos(a0 + i * math.tau / m),
                    y + rad * rng.uniform(0.75, 0.9) * math.sin(a0 + i * math.tau / m),
                )
                for i in range(m)
            ]
            pygame.draw.polygon(s, (108, 104, 98, 255), pts)
            for k, f in ((0.75, 1.12), (0.5, 1.28), (0.25, 1.42)):
                inner = [
                    (x + (px - x) * k - rad * (1 - k) * 0.35, y + (py - y) * k - rad * (1 - k) * 0.35) for px, py in pts
                ]
                pygame.draw.polygon(s, _c((108, 104, 98), f), inner)
            pygame.draw.line(s, (80, 76, 72, 255), (x - rad * 0.2, y - rad * 0.1), (x + rad * 0.3, y + rad * 0.35), 3)

    layer = shapes(ctx.h, ctx.w, draw)
    layer = over(shadow_of(layer, 3 * SS, 3 * SS, 0.6), layer)
    return over(layer, stones(ctx, 8, (0.7, 1.3), (150, 144, 134), margin=5))


def t_rubble(ctx: Ctx) -> Array:
    layer = stones(ctx, 16, (1.6, 3.0), (156, 150, 140), margin=4, angular=True, shadow=0.5)
    layer = over(layer, stones(ctx, 6, (3.6, 5.2), (146, 142, 134), margin=8, angular=True, shadow=0.6))
    return over(layer, stones(ctx, 24, (0.7, 1.3), (170, 164, 150), margin=3, shadow=0.3))


def masonry(
    ctx: Ctx,
    base: tuple[float, float, float],
    mortar: tuple[float, float, float],
    course: float = 6.0,
    length: float = 11.0,
) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    ys, xs = np.mgrid[0:h, 0:w]
    ch = course * SS
    row = (ys // ch).astype(int)
    offs = rng.uniform(0, length * SS, row.max() + 2)[row]
    bl = length * SS
    col = ((xs + offs) // bl).astype(int)
    ids = row * 97 + col
    shade = rng.uniform(-0.12, 0.12, ids.max() + 1)[ids]
    layer = tint(solid(h, w, base), shade + 0.07 * fbm(h, w, rng, 6, 2), 1.0)
    inrow = ys % ch
    incol = (xs + offs) % bl
    lit = np.where(inrow < 1.6 * SS, 1.12, 1.0) * np.where(incol < 1.6 * SS, 1.06, 1.0)
    layer[..., :3] *= lit[..., None]
    joint = (inrow > ch - 1.2 * SS) | (incol > bl - 1.2 * SS)
    layer[joint, :3] = mortar
    return layer


def wall_rim(layer: Array, ctx: Ctx, depth: float = 5.0, amount: float = 0.3) -> Array:
    """Make a full-hex block look raised: bright top-left rim, dark bottom-right rim."""
    d, nx, ny = ctx._edges()
    ramp = np.clip(1 - d / (depth * SS), 0, 1)
    facing = -(nx * -0.6 + ny * -0.8)  # inward normal against the light: positive on the lit side
    out = layer.copy()
    out[..., :3] *= (1 + amount * ramp * np.sign(facing) * np.abs(facing) ** 0.5)[..., None]
    return out


def t_stone_wall(ctx: Ctx) -> Array:
    layer = masonry(ctx, (176, 174, 168), (70, 68, 64))
    return wall_rim(layer, ctx, 6.0, 0.4)


def t_house_wall(ctx: Ctx) -> Array:
    layer = masonry(ctx, (176, 150, 112), (96, 78, 56), course=5.0, length=9.0)
    return wall_rim(layer, ctx)


def t_door(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    rim = wall_rim(masonry(ctx, (166, 146, 116), (96, 78, 56), 5.0, 9.0), ctx)
    r = ctx.r * 0.7
    ys, xs = np.mgrid[0:h, 0:w]
    wood = tint(solid(h, w, (128, 84, 44)), np.sin(xs / (1.1 * SS) + fbm(h, w, rng, 20, 2) * 6) * 0.06, 1.0)
    plank = (xs % (6 * SS)) < SS
    wood[plank, :3] *= 0.6

    def hinges(s: pygame.Surface) -> None:
        for fy in (-0.5, 0.5):
            y = ctx.cy + fy * r
            pygame.draw.rect(s, (52, 50, 50, 255), pygame.Rect(ctx.cx - r, y - 1.5 * SS, 2 * r, 3 * SS))
        pygame.draw.circle(s, (200, 170, 80, 255), (ctx.cx + r * 0.55, ctx.cy), 1.8 * SS)

    door_mask = np.abs(xs - ctx.cx) < r * 0.95
    door_mask &= np.abs(ys - ctx.cy) < r * 1.02
    wood[..., 3] = door_mask
    out = over(rim, shadow_of(wood, SS, SS, 0.7))
    out = over(out, wood)
    return over(out, shapes(h, w, hinges) * np.array([1, 1, 1, 1]) * door_mask[..., None])


def t_broken_wall(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    wall = masonry(ctx, (150, 146, 138), (78, 74, 68))
    ys, xs = np.mgrid[0:h, 0:w]
    # a jagged band of standing masonry through the hex; the rest has fallen
    ang = rng.uniform(-0.5, 0.5)
    dist = (ys - ctx.cy) * math.cos(ang) - (xs - ctx.cx) * math.sin(ang)
    jag = fbm(h, w, rng, 10, 2) * 5 * SS
    keep = np.abs(dist + jag) < ctx.r * 0.4
    along = (xs - ctx.cx) * math.cos(ang) + (ys - ctx.cy) * math.sin(ang) + jag
    keep &= along < ctx.r * (0.35 + 0.35 * rng.random())
    wall[..., 3] = keep
    wall[..., :3] *= (1 + 0.18 * np.clip(-dist / (ctx.r * 0.4), -1, 1))[..., None]
    out = over(
        stones(ctx, 14, (1.6, 3.4), (150, 146, 138), margin=4, angular=True, shadow=0.5),
        shadow_of(wall, 3 * SS, 3 * SS, 0.65),
    )
    return over(out, wall)


def t_roof(ctx: Ctx) -> Array:
    h, w, rng = ctx.h, ctx.w, ctx.rng
    ys, xs = np.mgrid[0:h, 0:w]
    base = (150, 70, 48)
    row_h = 5 * SS
    dist = np.abs(ys - ctx.cy)
    row = (dist // row_h).astype(int)
    offs = np.where(row % 2 == 0, 0, 3 * SS)
    tile_w = 6 * SS
    inx = (xs + offs) % tile_w
    iny = dist % row_h
    shade = rng.uniform(-0.1, 0.1, (row.max() + 2, w // tile_w + 3))[row, ((xs + offs) // tile_w).astype(int)]
    layer = tint(solid(h, w, base), shade + 0.05 * fbm(h, w, rng, 8, 2), 1.0)
    # the upper slope faces the light, the lower slope is in shade
    layer[..., :3] *= np.where(ys < ctx.cy, 1.12, 0.86)[..., None]
    round_edge = 1 - 0.35 * (iny / row_h)
    layer[..., :3] *= round_edge[..., None]
    layer[(inx < SS), :3] *= 0.7
    ridge = dist < 1.6 * SS
    layer[ridge, :3] = (104, 52, 38)
    return wall_rim(layer, ctx, 4.0, 0.22)


def t_keep_floor(ctx: Ctx) -> Array:
    """Old paving, moss and grass in the joints: the floor of a ruin."""
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = voronoi_slabs(ctx, 16, (146, 126, 100), (70, 84, 46), 0.12)
    moss = solid(h, w, (96, 120, 64))
    moss[..., 3] = np.clip((fbm(h, w, rng, 20, 3) - 0.2) * 3, 0, 0.8)
    return over(layer, moss)


def t_track(ctx: Ctx) -> Array:
    """A worn earth track as a feature, so the ground below keeps its height (a path up a hill)."""
    h, w, rng = ctx.h, ctx.w, ctx.rng
    layer = dirt_layer(ctx, (172, 146, 104))
    d, _, _ = ctx._edges()
    fringe = (2.5 + 3.0 * (fbm(h, w, rng, 8, 2) + 0.5)) * SS
    layer[..., 3] = np.clip((d - fringe) / (1.5 * SS), 0, 1)
    return over(layer, stones(ctx, 10, (0.6, 1.2), (196, 180, 150), margin=7, shadow=0.2))


def t_scree(ctx: Ctx) -> Array:
    """Loose stones as a feature (rocky ground on a slope)."""
    layer = stones(ctx, 26, (0.9, 2.0), (150, 144, 134), margin=3, shadow=0.45)
    return over(layer, stones(ctx, 6, (2.4, 3.6), (168, 162, 150), margin=6, angular=True, shadow=0.55))


# --------------------------------------------------------------------------------------------------
# The tile list: (key, terrain, layer kind, drawing). The order is the tile id; never reorder it, append.
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TileDef:
    """One tile of the tileset: its key, the terrain it carries and whether it is ground or a feature."""

    key: str
    terrain: str
    ground: bool  # ground tiles are opaque and carry every property; features omit ``elevation``
    draw: Callable[[Ctx], Array]
    elevation: int = 0


TILES: tuple[TileDef, ...] = (
    TileDef("grass", "grass", True, t_grass),
    TileDef("grass_flowers", "grass", True, t_grass_flowers),
    TileDef("grass_lush", "grass", True, t_grass_lush),
    TileDef("dirt", "dirt", True, t_dirt),
    TileDef("road", "road", True, t_road),
    TileDef("rough", "rough", True, t_rough),
    TileDef("rocky", "rocky", True, t_rocky),
    TileDef("sand", "sand", True, t_sand),
    TileDef("mud", "mud", True, t_mud),
    TileDef("shallows", "shallows", True, t_shallows),
    TileDef("stream", "stream", True, t_stream),
    TileDef("deep_water", "deep_water", True, t_deep_water),
    TileDef("ice", "ice", True, t_ice),
    TileDef("bridge", "bridge", True, t_bridge),
    TileDef("floor", "floor", True, t_floor),
    TileDef("flagstones", "flagstones", True, t_flagstones),
    TileDef("hill_2", "hill", True, t_hill(1), 2),
    TileDef("hill_4", "hill", True, t_hill(2), 4),
    TileDef("hill_6", "hill", True, t_hill(3), 6),
    TileDef("hill_8", "hill", True, t_hill(4), 8),
    TileDef("trees", "trees", False, t_trees("broad")),
    TileDef("firs", "trees", False, t_trees("fir")),
    TileDef("dense_woods", "dense_woods", False, t_dense_woods),
    TileDef("brush", "brush", False, t_brush),
    TileDef("boulders", "boulders", False, t_boulders),
    TileDef("rubble", "rubble", False, t_rubble),
    TileDef("stone_wall", "wall", False, t_stone_wall),
    TileDef("house_wall", "wall", False, t_house_wall),
    TileDef("door", "door", False, t_door),
    TileDef("broken_wall", "broken_wall", False, t_broken_wall),
    TileDef("roof", "building", False, t_roof),
    TileDef("keep_floor", "flagstones", True, t_keep_floor, 8),
    TileDef("track", "road", False, t_track),
    TileDef("scree", "rocky", False, t_scree),
)
TILE_ID: dict[str, int] = {t.key: i for i, t in enumerate(TILES)}


def tile_properties(tile: TileDef) -> list[tuple[str, str, str]]:
    """(name, type, value) of a tile's custom properties, in the order Tiled shows them.

    Ground tiles carry every property; feature tiles carry all but ``elevation``, so a tree or a wall on
    a hill keeps the hill's height (properties of upper layers override the same properties below).
    """
    t = TERRAINS[tile.terrain]
    props: list[tuple[str, str, str]] = [("terrain", "Terrain", t.name)]
    for name in PROPERTY_ORDER:
        if name == "elevation" and not tile.ground:
            continue
        value = tile.elevation if name == "elevation" else getattr(t, name)
        if isinstance(value, bool):
            props.append((name, "bool", "true" if value else "false"))
        else:
            props.append((name, "int", str(value)))
    return props


# --------------------------------------------------------------------------------------------------
# Rendering a tile: draw supersampled, box-filter down, cut to the hex, shade the hex's rim
# --------------------------------------------------------------------------------------------------
def render_tile(tile: TileDef, geom: Geometry, index: int) -> Array:
    """One tile as an RGBA uint8 array [y, x, 4] of the geometry's tile size."""
    w, h = geom.width * SS, geom.height * SS
    ctx = Ctx(geom, w, h, np.random.default_rng(1000 + index))
    big = tile.draw(ctx)
    # premultiplied box filter
    pre = big[..., :3] * big[..., 3:4]
    pre = pre.reshape(geom.height, SS, geom.width, SS, 3).mean(axis=(1, 3))
    alpha = big[..., 3].reshape(geom.height, SS, geom.width, SS).mean(axis=(1, 3))
    rgb = np.where(alpha[..., None] > 0, pre / np.maximum(alpha[..., None], 1e-9), 0)
    d, nx, ny = edge_field(geom, 1.0, geom.width, geom.height)
    if tile.ground:
        # a thin dark outline and a soft bevel, lit from the upper left, so every hex reads on the board
        facing = nx * 0.6 + ny * 0.8  # positive where the inward normal points down-right: lit rim
        bevel = np.clip(1 - (d - 1.0) / 3.5, 0, 1) * 0.13 * facing
        rgb *= (1 + bevel)[..., None]
        rgb *= np.where(d < 1.0, 0.72, 1.0)[..., None]
    # hard-edged hex mask, half a pixel generous so that neighbouring tiles leave no seams
    mask = d > -0.5
    alpha = np.where(mask, alpha, 0)
    out = np.zeros((geom.height, geom.width, 4), dtype=np.uint8)
    out[..., :3] = np.clip(rgb + 0.5, 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    out[out[..., 3] == 0, :3] = 0
    return out


def render_sheet(geom: Geometry) -> Array:
    """Every tile on one sheet, ``COLUMNS`` wide, no margin or spacing."""
    rows = (len(TILES) + COLUMNS - 1) // COLUMNS
    sheet = np.zeros((rows * geom.height, COLUMNS * geom.width, 4), dtype=np.uint8)
    for i, tile in enumerate(TILES):
        r, c = divmod(i, COLUMNS)
        sheet[r * geom.height : (r + 1) * geom.height, c * geom.width : (c + 1) * geom.width] = render_tile(
            tile, geom, i
        )
    return sheet


def save_png(arr: Array, path: Path) -> None:
    """Write an RGBA array as a PNG."""
    h, w = arr.shape[:2]
    surf = pygame.image.frombuffer(np.ascontiguousarray(arr).tobytes(), (w, h), "RGBA")
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))


def tileset_name(geom: Geometry) -> str:
    """File stem of a geometry's tileset (``terrain_pointy`` / ``terrain_flat``)."""
    return f"terrain_{geom.kind}"


def write_tsx(geom: Geometry) -> Path:
    """Write the external Tiled tileset for a geometry; its image lies in maps/tiles/."""
    name = tileset_name(geom)
    rows = (len(TILES) + COLUMNS - 1) // COLUMNS
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.8" tiledversion="1.8.2" name="{name}" tilewidth="{geom.width}" '
        f'tileheight="{geom.height}" tilecount="{len(TILES)}" columns="{COLUMNS}">',
        f' <image source="tiles/{name}.png" width="{COLUMNS * geom.width}" height="{rows * geom.height}"/>',
    ]
    for i, tile in enumerate(TILES):
        lines.append(f' <tile id="{i}">')
        lines.append("  <properties>")
        for pname, ptype, value in sorted(tile_properties(tile)):  # Tiled writes properties sorted by name
            if ptype == "Terrain":
                lines.append(f'   <property name="{pname}" propertytype="Terrain" value={quoteattr(value)}/>')
            else:
                lines.append(f'   <property name="{pname}" type="{ptype}" value="{value}"/>')
        lines.append("  </properties>")
        lines.append(" </tile>")
    lines.append("</tileset>")
    path = MAP_DIR / f"{name}.tsx"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def project_json() -> dict[str, object]:
    """The Tiled project: custom property types so a GM picks terrain and sides from drop-downs."""
    terrain_members: list[dict[str, object]] = [
        {"name": "terrain", "type": "string", "propertyType": "Terrain", "value": "grass"}
    ]
    for name in PROPERTY_ORDER:
        kind = "bool" if name in ("impassable", "impassable_fly", "blocks_sight") else "int"
        terrain_members.append({"name": name, "type": kind, "value": False if kind == "bool" else 0})
    return {
        "automappingRulesFile": "",
        "commands": [],
        "extensionsPath": "extensions",
        "folders": ["."],
        "objectTypesFile": "",
        "propertyTypes": [
            {
                "id": 1,
                "name": "Terrain",
                "type": "enum",
                "storageType": "string",
                "values": list(TERRAINS),
                "valuesAsFlags": False,
            },
            {
                "id": 2,
                "name": "Side",
                "type": "enum",
                "storageType": "string",
                "values": list(SIDES),
                "valuesAsFlags": False,
            },
            {
                "id": 3,
                "name": "figure",
                "type": "class",
                "color": "#ffe0a030",
                "drawFill": True,
                "useAs": ["object"],
                "members": [
                    {"name": "character", "type": "string", "value": ""},
                    {"name": "facing", "type": "int", "value": 0},
                    {"name": "side", "type": "string", "propertyType": "Side", "value": "blue"},
                    {"name": "token", "type": "file", "value": ""},
                ],
            },
            {
                "id": 4,
                "name": "deploy",
                "type": "class",
                "color": "#ff4080ff",
                "drawFill": True,
                "useAs": ["object"],
                "members": [
                    {"name": "side", "type": "string", "propertyType": "Side", "value": "blue"},
                ],
            },
            {
                "id": 5,
                "name": "terrain",
                "type": "class",
                "color": "#ff60c060",
                "drawFill": True,
                "useAs": ["object"],
                "members": terrain_members,
            },
        ],
    }


def main(argv: list[str] | None = None) -> int:
    """Draw both tilesets and write the tilesets and the project file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", action="store_true", help="also write a tile preview per geometry")
    args = parser.parse_args(argv)
    (MAP_DIR / "tiles").mkdir(parents=True, exist_ok=True)
    for geom in (POINTY, FLAT):
        sheet = render_sheet(geom)
        png = ASSET_DIR / f"{tileset_name(geom)}.png"
        save_png(sheet, png)
        shutil.copyfile(png, MAP_DIR / "tiles" / png.name)
        write_tsx(geom)
        if args.preview:
            bg = np.zeros(sheet.shape, dtype=np.uint8)
            bg[...] = (60, 60, 60, 255)
            a = sheet[..., 3:4].astype(np.float64) / 255
            prev = (sheet[..., :3] * a + bg[..., :3] * (1 - a)).astype(np.uint8)
            full = np.concatenate([prev, bg[..., 3:]], axis=-1)
            save_png(np.kron(full, np.ones((2, 2, 1), dtype=np.uint8)), ASSET_DIR / f"preview_{geom.kind}.png")
        print(f"wrote {png.relative_to(ROOT)} ({len(TILES)} tiles {geom.width}x{geom.height})")
    project = MAP_DIR / "fudge-tactics.tiled-project"
    project.write_text(json.dumps(project_json(), indent=4) + "\n", encoding="utf-8")
    print(f"wrote {project.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
