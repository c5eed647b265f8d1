"""Drawing large figures (FTC 5: "some creatures will be larger"): one token across 3 or 7 hexes.

A figure covering several hexes (``game.engine.creatures.footprint``) is drawn as one miniature base: the
rounded hull of its cells' centres, as thick as a one-hex token is wide, so it covers every hex it stands on
and no other. The hull keeps the look of a one-hex token — a ring in the side's colour around a dark body,
the facing notch on the front of the body, the wound pip at its back, the initial in the middle — so a
player reads both the same way. Outlines of a footprint (selection, hover, the path preview's destination,
the deployment drag) follow the outer sides of its hexes, so the player sees exactly which hexes it takes.

Everything here is pure drawing from plain data (hexes, a layout, a zoom); ``game.ui.board`` caches the
results per look and zoom like its other sprites.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pygame

from game.engine.battle import Battle
from game.engine.creatures import footprint
from game.engine.hexgrid import Hex, neighbor
from game.engine.movement import Path
from game.ui.camera import HexLayout

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]


def convex_hull(points: Iterable[Point]) -> list[Point]:
    """The convex hull of some points, counter-clockwise on screen (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def fill_rounded_hull(surface: pygame.Surface, colour: RGB | RGBA, hull: Sequence[Point], radius: float) -> None:
    """Fill every point within ``radius`` of the convex polygon ``hull`` (its Minkowski sum with a disc).

    pygame's drawing writes pixels without blending, so a smaller hull drawn over a larger one in another
    colour makes a ring of even width — how the token's side-colour rim is made.
    """
    if radius <= 0 or not hull:
        return
    for p in hull:
        pygame.draw.circle(surface, colour, p, radius)
    if len(hull) >= 3:
        pygame.draw.polygon(surface, colour, hull)
    n = len(hull)
    for i in range(n if n > 2 else 1):
        a, b = hull[i], hull[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length == 0:
            continue
        nx, ny = -dy / length * radius, dx / length * radius
        pygame.draw.polygon(
            surface,
            colour,
            [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)],
        )


def cell_offsets(layout: HexLayout, centre: Hex, cells: Iterable[Hex], zoom: float) -> list[Point]:
    """Screen offsets of ``cells``' centres from ``centre``'s (the layout is a lattice, so this is the same
    wherever the figure stands)."""
    cx, cy = layout.hex_center(centre)
    out = []
    for c in cells:
        x, y = layout.hex_center(c)
        out.append(((x - cx) * zoom, (y - cy) * zoom))
    return out


def side_corners(layout: HexLayout) -> tuple[tuple[int, int], ...]:
    """For each direction 0..5, the indices of the two corners bounding the hex side crossed that way."""
    out = []
    for d in range(6):
        vx, vy = layout.direction_vector(d)
        ranked = sorted(range(6), key=lambda i: -(layout.corner_offsets[i][0] * vx + layout.corner_offsets[i][1] * vy))
        out.append((ranked[0], ranked[1]))
    return tuple(out)


def footprint_edges(layout: HexLayout, cells: Iterable[Hex]) -> list[tuple[Point, Point]]:
    """The outer sides of a set of hexes, in map pixels: its outline (every side with no cell across it)."""
    body = frozenset(cells)
    corners = layout.corner_offsets
    sides = side_corners(layout)
    out = []
    for c in sorted(body):
        cx, cy = layout.hex_center(c)
        for d in range(6):
            if neighbor(c, d) in body:
                continue
            i, j = sides[d]
            out.append(((cx + corners[i][0], cy + corners[i][1]), (cx + corners[j][0], cy + corners[j][1])))
    return out


def draw_outline(surface: pygame.Surface, segments: Iterable[tuple[Point, Point]], colour: RGB, width: int) -> None:
    """Draw an outline's sides (screen pixels) in ``colour`` over a dark edge that keeps it readable on any
    map; corners are rounded so the segments join cleanly."""
    segs = list(segments)
    for a, b in segs:
        pygame.draw.line(surface, (0, 0, 0), a, b, width + 2)
    for a, b in segs:
        pygame.draw.line(surface, colour, a, b, width)
        for p in (a, b):
            pygame.draw.circle(surface, colour, p, max(1, width / 2))


def draw_large_token(
    layout: HexLayout,
    zoom: float,
    centre: Hex,
    cells: Iterable[Hex],
    facing: int,
    r: int,
    side_colour: RGB,
    wound_colour: RGB,
    out: bool,
    initial: pygame.Surface | None,
    danger: RGB,
    art: pygame.Surface | None = None,
) -> tuple[pygame.Surface, tuple[int, int]]:
    """The sprite of a large figure (FTC 5) and the pixel of its position hex ``centre`` in it.

    ``r`` is a one-hex token's radius: the body is the hull of the cells' centres grown by ``r``, the rim
    and notch are as wide as a one-hex token's, the notch sits on the front of the body (the figure's
    facing from its position hex; for a 3-hex figure that hex is its head), the wound pip at its back.
    ``art`` is the made figure (``game.ui.token_art``), already turned and scaled, centred on the position
    hex: drawn on the base as one creature across the footprint, instead of the initial.
    """
    offsets = cell_offsets(layout, centre, cells, zoom)
    pad = r + max(3, r // 3) * 2 + 4
    xs = [p[0] for p in offsets]
    ys = [p[1] for p in offsets]
    x0, y0 = math.floor(min(xs)) - pad, math.floor(min(ys)) - pad
    w, h = math.ceil(max(xs)) + pad - x0 + 1, math.ceil(max(ys)) + pad - y0 + 1
    sprite = pygame.Surface((w, h), pygame.SRCALPHA)
    ax, ay = -x0, -y0
    pts = [(ax + x, ay + y) for x, y in offsets]
    hull = convex_hull(pts)
    side = side_colour if not out else (110, 110, 116)
    body = (34, 36, 44) if not out else (60, 60, 64)
    ring = max(2, r // 4)
    fill_rounded_hull(sprite, (0, 0, 0, 90), [(x + 1, y + 2) for x, y in hull], r + 1)
    fill_rounded_hull(sprite, side, hull, r)
    fill_rounded_hull(sprite, body, hull, r - ring)
    # Faint cell marks: the player sees which hexes the base stands on without a grid.
    for x, y in pts:
        pygame.draw.circle(sprite, (48, 51, 62) if not out else (70, 70, 74), (x, y), max(2, r * 0.55), 1)
    angle = layout.direction_angle(facing)
    ux, uy = math.cos(angle), -math.sin(angle)
    px, py = -uy, ux
    front = max(x * ux + y * uy for x, y in offsets)
    back = max(-(x * ux + y * uy) for x, y in offsets)
    half = math.radians(26)
    grow = 1.5 if len(offsets) >= 7 else 1.25  # a bigger base carries a bigger notch, read from afar
    tip = front + r + max(3, r // 3) * grow
    base = front + (r - ring) * math.cos(half)
    spread = (r - ring) * math.sin(half) * grow
    notch = [
        (ax + ux * tip, ay + uy * tip),
        (ax + ux * base + px * spread, ay + uy * base + py * spread),
        (ax + ux * base - px * spread, ay + uy * base - py * spread),
    ]
    pygame.draw.polygon(sprite, side, notch)
    pygame.draw.polygon(sprite, (250, 250, 250) if not out else (150, 150, 150), notch, 1)
    mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    if art is not None:
        sprite.blit(art, art.get_rect(center=(ax, ay)))
    elif initial is not None:
        sprite.blit(initial, initial.get_rect(center=(mx, my + 1)))
    pip = max(3, round(r / 2.4))
    wx, wy = ax - ux * (back + r * 0.72), ay - uy * (back + r * 0.72)
    pygame.draw.circle(sprite, (16, 16, 20), (wx, wy), pip + 1)
    pygame.draw.circle(sprite, wound_colour, (wx, wy), pip)
    if out:
        k = r * 0.9
        pygame.draw.line(sprite, danger, (mx - k, my - k), (mx + k, my + k), max(3, r // 4))
        pygame.draw.line(sprite, danger, (mx - k, my + k), (mx + k, my - k), max(3, r // 4))
    return sprite, (ax, ay)


def front_extent(layout: HexLayout, centre: Hex, cells: Iterable[Hex], facing: int) -> float:
    """How far (map pixels) the centre of a footprint's front-most hex lies ahead of its position hex,
    along its facing (FTC 5.2): 0 for one hex and for a 3-hex figure's head, one hex for a 7-hex figure."""
    ux, uy = layout.direction_vector(facing)
    norm = math.hypot(ux, uy) or 1.0
    cx, cy = layout.hex_center(centre)
    return max([0.0, *(((x - cx) * ux + (y - cy) * uy) / norm for x, y in (layout.hex_center(c) for c in cells))])


def large_end(battle: Battle, fid: str, path: Path) -> frozenset[Hex]:
    """Where a large figure's whole body ends a planned move (FTC 5: its footprint around the path's last
    hex, with the path's final facing); empty for a one-hex figure, whose path's last hex says it all."""
    size = battle.figure(fid).size
    if size == 1:
        return frozenset()
    return footprint(path.end, size, path.end_facing % 6)


__all__ = [
    "cell_offsets",
    "convex_hull",
    "draw_large_token",
    "draw_outline",
    "fill_rounded_hull",
    "footprint_edges",
    "front_extent",
    "large_end",
    "side_corners",
]
