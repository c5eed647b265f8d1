"""Draw the miniature tokens of the board (original art, drawn entirely by this script).

Run it from the project root, with the project's virtual environment active:

    python assets/make_tokens.py            # every token image into assets/tokens/
    python assets/make_tokens.py --preview  # also assets/tokens/preview.png (every token on a side-coloured base)

A token is a top-down miniature: a round base in the side's colour with a facing notch, and on it a figure
by what it carries and is. The script writes

- ``base.png``: the base, drawn in greys (bevel, rim and notch pointing east); the board multiplies it with
  the side's colour, so any roster colour and the colour-blind palette get their own bases;
- one figure per look, facing east (``+x``), on a transparent background: ``sword``, ``sword_shield``,
  ``axe``, ``axe_shield``, ``mace``, ``mace_shield``, ``spear``, ``spear_shield``, ``knife``, ``fist``,
  ``bow``, ``crossbow``, ``staff``, ``caster``, and the creatures ``beast`` (a carnivore on one hex),
  ``prey`` (a grazing animal on one hex), ``beast3`` and ``giant3`` (three hexes), ``wyrm7`` (seven hexes).

Geometry: in every image one unit is a one-hex token's radius. One-hex images are ``SMALL`` pixels square and
span [-1.25, 1.25] units around the figure's hex; large images are ``LARGE`` pixels square and span
[-3.6, 3.6] units around the figure's position hex (for three hexes its head hex: the body lies behind it
and to its left, as the engine's footprint does, FTC 5). The board scales an image so a unit is its token
radius and turns it to the figure's facing. The figure's state (wounds, posture, concentration, a held
action, out of the fight) is drawn over it at run time.

The output is deterministic: shapes only, and any texture from its own seeded generator.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "assets" / "tokens"
SS = 4
SMALL = 128
SMALL_SPAN = 1.25
LARGE = 384
LARGE_SPAN = 3.6
HEX_STEP = 2.38
"""Distance between neighbouring hex centres in token radii (the board's token radius is 0.42 of a hex)."""

RGB = tuple[int, int, int]
Pt = tuple[float, float]

STEEL = (176, 182, 192)
STEEL_DARK = (96, 102, 112)
LEATHER = (120, 82, 50)
LEATHER_DARK = (78, 52, 32)
WOOD = (138, 98, 58)
WOOD_DARK = (92, 62, 36)
CLOTH = (70, 76, 96)
SKIN = (214, 170, 132)
HAIR = (70, 52, 36)
OUTLINE = (22, 22, 26)


class Canvas:
    """A supersampled transparent drawing surface in token units (x east, y down, origin the hex centre)."""

    def __init__(self, size: int, span: float) -> None:
        self.size = size
        self.span = span
        self.surf = pygame.Surface((size * SS, size * SS), pygame.SRCALPHA)
        self.surf.fill((0, 0, 0, 0))
        self.k = size * SS / (2 * span)

    def p(self, x: float, y: float) -> tuple[float, float]:
        """Canvas pixels of a point in units."""
        return (self.size * SS / 2 + x * self.k, self.size * SS / 2 + y * self.k)

    def poly(self, colour: RGB, pts: Sequence[Pt], outline: RGB | None = OUTLINE, width: float = 0.035) -> None:
        """A filled polygon with a dark outline."""
        px = [self.p(x, y) for x, y in pts]
        pygame.draw.polygon(self.surf, colour, px)
        if outline is not None:
            pygame.draw.polygon(self.surf, outline, px, max(1, round(width * self.k)))

    def ellipse(
        self, colour: RGB, cx: float, cy: float, rx: float, ry: float, angle: float = 0.0, outline: RGB | None = OUTLINE
    ) -> None:
        """A filled ellipse turned by ``angle`` radians (clockwise on screen)."""
        ca, sa = math.cos(angle), math.sin(angle)
        pts = []
        for i in range(48):
            t = 2 * math.pi * i / 48
            x, y = rx * math.cos(t), ry * math.sin(t)
            pts.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
        self.poly(colour, pts, outline)

    def circle(self, colour: RGB, cx: float, cy: float, r: float, outline: RGB | None = OUTLINE) -> None:
        """A filled circle."""
        self.ellipse(colour, cx, cy, r, r, 0.0, outline)

    def line(self, colour: RGB, a: Pt, b: Pt, width: float, outline: RGB | None = OUTLINE) -> None:
        """A thick bar from a to b with square ends."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / n * width / 2, dx / n * width / 2
        self.poly(
            colour,
            [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)],
            outline,
        )

    def arc(self, colour: RGB, cx: float, cy: float, r: float, a0: float, a1: float, width: float) -> None:
        """A thick arc (angles in radians, clockwise on screen from east)."""
        steps = 24
        outer = [
            (
                cx + (r + width / 2) * math.cos(a0 + (a1 - a0) * i / steps),
                cy + (r + width / 2) * math.sin(a0 + (a1 - a0) * i / steps),
            )
            for i in range(steps + 1)
        ]
        inner = [
            (
                cx + (r - width / 2) * math.cos(a0 + (a1 - a0) * i / steps),
                cy + (r - width / 2) * math.sin(a0 + (a1 - a0) * i / steps),
            )
            for i in range(steps + 1)
        ]
        self.poly(colour, outer + inner[::-1])

    def array(self) -> np.ndarray:
        """The canvas box-filtered down to its size: RGBA uint8 [y, x, 4], premultiplied while filtering."""
        rgb = pygame.surfarray.array3d(self.surf).transpose(1, 0, 2).astype(np.float64)
        a = pygame.surfarray.array_alpha(self.surf).T.astype(np.float64) / 255.0
        pre = np.concatenate([rgb * a[..., None], a[..., None]], axis=-1)
        n = self.size
        pre = pre.reshape(n, SS, n, SS, 4).mean(axis=(1, 3))
        alpha = pre[..., 3:4]
        colour = np.where(alpha > 0, pre[..., :3] / np.maximum(alpha, 1e-9), 0)
        return np.clip(np.concatenate([colour, alpha * 255], axis=-1).round(), 0, 255).astype(np.uint8)


def shade(arr: np.ndarray, strength: float = 0.22) -> np.ndarray:
    """Light from the upper left: brighten the upper-left of every shape, darken its lower-right edge."""
    a = arr[..., 3].astype(np.float64) / 255
    up = np.roll(np.roll(a, 2, axis=0), 2, axis=1)
    down = np.roll(np.roll(a, -2, axis=0), -2, axis=1)
    rim = np.clip(a - up, 0, 1) - np.clip(a - down, 0, 1)
    out = arr.astype(np.float64)
    out[..., :3] *= (1 + strength * rim)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def drop_shadow(arr: np.ndarray, offset: int) -> np.ndarray:
    """A soft shadow of the figure under it (offset down-right), so it stands on the base."""
    a = arr[..., 3].astype(np.float64) / 255
    s = np.roll(np.roll(a, offset, axis=0), offset, axis=1)
    k = max(1, offset)
    pad = np.pad(s, k, mode="constant")
    c = np.pad(pad.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    w = 2 * k + 1
    blur = (c[w:, w:] - c[:-w, w:] - c[w:, :-w] + c[:-w, :-w]) / (w * w)
    blur = blur[: a.shape[0], : a.shape[1]] * 0.5
    fa = a + blur * (1 - a)
    out = np.zeros(arr.shape)
    colour = arr[..., :3].astype(np.float64)
    out[..., :3] = np.where(fa[..., None] > 0, colour * a[..., None] / np.maximum(fa[..., None], 1e-9), 0)
    out[..., 3] = fa * 255
    return np.clip(out.round(), 0, 255).astype(np.uint8)


# ------------------------------------------------------------------------------------------ people
def body(c: Canvas, armour: RGB = STEEL, robe: bool = False, helmet: RGB | None = STEEL) -> None:
    """A person seen from above, facing east: shoulders across, arms forward, head in the middle."""
    if robe:
        c.ellipse(CLOTH, -0.12, 0, 0.42, 0.6)
        c.ellipse((58, 62, 82), -0.2, 0, 0.3, 0.46, outline=None)
    c.ellipse(armour, -0.04, 0, 0.3, 0.56)
    c.ellipse(tuple(max(0, v - 30) for v in armour), -0.16, 0, 0.16, 0.42, outline=None)  # back plate shade
    for side in (-1, 1):
        c.ellipse(armour, 0.12, side * 0.48, 0.2, 0.14, angle=side * 0.3)
    if helmet is None:
        c.circle(HAIR, 0.0, 0, 0.23)
        c.ellipse(SKIN, 0.12, 0, 0.08, 0.13, outline=None)
    else:
        c.circle(helmet, 0.0, 0, 0.24)
        c.line(tuple(max(0, v - 50) for v in helmet), (-0.22, 0), (0.22, 0), 0.06, outline=None)
        c.circle(tuple(min(255, v + 45) for v in helmet), -0.06, -0.07, 0.07, outline=None)


def hand(c: Canvas, x: float, y: float) -> None:
    """A gloved hand."""
    c.circle(LEATHER, x, y, 0.09)


def sword(c: Canvas, x: float = 0.34, y: float = 0.46) -> None:
    """A sword held forward in the right hand."""
    c.poly(
        STEEL,
        [(x + 0.12, y - 0.05), (x + 0.92, y - 0.12), (x + 1.02, y - 0.1), (x + 0.92, y - 0.06), (x + 0.12, y + 0.04)],
    )
    c.line((214, 220, 228), (x + 0.16, y - 0.03), (x + 0.9, y - 0.1), 0.015, outline=None)
    c.line((190, 150, 60), (x + 0.1, y - 0.2), (x + 0.14, y + 0.18), 0.07)
    c.line(LEATHER_DARK, (x - 0.12, y + 0.02), (x + 0.1, y), 0.07)
    hand(c, x, y)


def axe(c: Canvas, x: float = 0.3, y: float = 0.46) -> None:
    """A hafted axe, its head on the outside."""
    c.line(WOOD, (x - 0.2, y + 0.02), (x + 0.72, y - 0.08), 0.08)
    c.poly(
        STEEL,
        [(x + 0.5, y - 0.06), (x + 0.74, y + 0.28), (x + 0.9, y + 0.2), (x + 0.82, y - 0.08), (x + 0.66, y - 0.1)],
    )
    c.line((214, 220, 228), (x + 0.74, y + 0.27), (x + 0.89, y + 0.19), 0.02, outline=None)
    hand(c, x, y)


def mace(c: Canvas, x: float = 0.3, y: float = 0.46) -> None:
    """A mace or club: a haft and a flanged head."""
    c.line(WOOD, (x - 0.15, y + 0.02), (x + 0.6, y - 0.06), 0.08)
    c.circle(STEEL_DARK, x + 0.68, y - 0.07, 0.14)
    for k in range(6):
        t = k * math.pi / 3
        c.circle(STEEL, x + 0.68 + 0.12 * math.cos(t), y - 0.07 + 0.12 * math.sin(t), 0.045)
    hand(c, x, y)


def spear(c: Canvas, x: float = 0.28, y: float = 0.44) -> None:
    """A long spear couched forward past the base's edge."""
    c.line(WOOD, (-0.75, y + 0.08), (x + 0.8, y - 0.1), 0.065)
    tip = (x + 1.02, y - 0.13)
    c.poly(STEEL, [(x + 0.74, y - 0.16), tip, (x + 0.74, y - 0.03), (x + 0.66, y - 0.09)])
    hand(c, x, y)
    hand(c, -0.2, y + 0.04)


def knife(c: Canvas, x: float = 0.34, y: float = 0.44) -> None:
    """A long knife."""
    c.poly(STEEL, [(x + 0.08, y - 0.04), (x + 0.5, y - 0.07), (x + 0.08, y + 0.04)])
    c.line((60, 50, 40), (x - 0.06, y), (x + 0.08, y), 0.07)
    hand(c, x, y)


def shield(c: Canvas) -> None:
    """A round shield on the left arm, in front of the body."""
    cx, cy = 0.36, -0.4
    c.ellipse(WOOD, cx, cy, 0.14, 0.4)
    c.ellipse((150, 40, 40), cx + 0.02, cy, 0.1, 0.32, outline=None)
    c.ellipse(STEEL, cx + 0.06, cy, 0.06, 0.09)


def bow(c: Canvas) -> None:
    """A drawn bow held out in the left hand, the arrow along the facing."""
    c.line((220, 220, 210), (0.62, -0.62), (0.05, 0.0), 0.012, outline=None)
    c.line((220, 220, 210), (0.62, 0.62), (0.05, 0.0), 0.012, outline=None)
    c.arc(WOOD, 0.15, 0.0, 0.72, -math.pi / 3.2, math.pi / 3.2, 0.07)
    c.line((200, 190, 170), (0.05, 0.0), (1.0, 0.0), 0.03)
    c.poly(STEEL, [(0.98, -0.05), (1.12, 0.0), (0.98, 0.05)])
    c.poly(
        (230, 230, 230),
        [(0.05, 0.0), (0.12, -0.07), (0.2, -0.07), (0.14, 0.0), (0.2, 0.07), (0.12, 0.07)],
        outline=None,
    )
    hand(c, 0.76, 0.0)
    hand(c, 0.08, 0.06)
    c.line(LEATHER_DARK, (-0.3, 0.3), (-0.1, 0.52), 0.1)  # quiver on the back


def crossbow(c: Canvas) -> None:
    """A crossbow levelled forward: the stock along the facing, the prod across it."""
    c.line(WOOD, (0.0, 0.1), (0.86, 0.0), 0.1)
    c.arc(STEEL_DARK, 0.5, 0.0, 0.5, -math.pi / 2.6, math.pi / 2.6, 0.06)
    c.line((220, 220, 210), (0.69, -0.46), (0.32, 0.0), 0.012, outline=None)
    c.line((220, 220, 210), (0.69, 0.46), (0.32, 0.0), 0.012, outline=None)
    c.line((200, 190, 170), (0.3, 0.02), (0.98, 0.0), 0.03, outline=None)
    hand(c, 0.2, 0.12)
    hand(c, 0.55, 0.08)


def staff(c: Canvas) -> None:
    """A long staff with a shining head."""
    c.line(WOOD, (-0.5, 0.52), (0.95, 0.36), 0.08)
    c.circle((120, 200, 255), 1.0, 0.35, 0.1)
    c.circle((230, 250, 255), 0.98, 0.33, 0.04, outline=None)
    hand(c, 0.3, 0.44)
    hand(c, -0.1, 0.48)


def caster(c: Canvas) -> None:
    """Both hands forward around a spell's glow."""
    for r, col in ((0.26, (90, 60, 160)), (0.19, (150, 110, 230)), (0.11, (220, 200, 255))):
        c.circle(col, 0.62, 0.0, r, outline=None)
    hand(c, 0.46, -0.2)
    hand(c, 0.46, 0.2)


def hat(c: Canvas) -> None:
    """A wide-brimmed pointed hat seen from above."""
    c.circle((52, 46, 88), 0.0, 0.0, 0.34)
    c.circle((66, 58, 110), 0.02, -0.02, 0.2)
    c.circle((200, 190, 90), 0.04, -0.04, 0.05, outline=None)


def person(
    extras: Sequence[Callable[[Canvas], None]], armour: RGB = STEEL, helmet: RGB | None = STEEL, robe: bool = False
) -> Callable[[Canvas], None]:
    """A figure drawer: the body, then what it carries."""

    def draw(c: Canvas) -> None:
        body(c, armour, robe, helmet)
        for extra in extras:
            extra(c)

    return draw


def fists(c: Canvas) -> None:
    """Bare hands raised forward."""
    hand(c, 0.36, -0.32)
    hand(c, 0.42, 0.3)


# ------------------------------------------------------------------------------------------ creatures
def furred(
    c: Canvas, length: float, width: float, colour: RGB, dark: RGB, head: float, ox: float = 0.0, oy: float = 0.0
) -> None:
    """A four-legged animal from above: legs, tail, body, head and ears, all scaled."""
    s = width / 0.34
    for lx in (0.55, -0.5):
        for side in (-1, 1):
            c.ellipse(dark, ox + lx * length, oy + side * width * 0.95, 0.14 * s, 0.08 * s, angle=side * 0.4)
    c.line(dark, (ox - length * 0.9, oy), (ox - length * 1.45, oy + 0.12 * s), 0.1 * s)
    c.ellipse(colour, ox, oy, length, width)
    c.ellipse(dark, ox - length * 0.1, oy, length * 0.7, width * 0.3, outline=None)
    hx = ox + length * 0.95
    c.ellipse(colour, hx, oy, head * 1.15, head * 0.85)
    c.ellipse(dark, hx + head * 0.85, oy, head * 0.55, head * 0.4)
    for side in (-1, 1):
        c.poly(
            dark,
            [
                (hx - head * 0.4, oy + side * head * 0.5),
                (hx - head * 0.1, oy + side * head * 1.05),
                (hx + head * 0.1, oy + side * head * 0.6),
            ],
        )
        c.circle((250, 210, 60), hx + head * 0.35, oy + side * head * 0.35, head * 0.1, outline=None)


def beast(c: Canvas) -> None:
    """A wolf-like hunter on one hex."""
    furred(c, 0.62, 0.3, (118, 110, 100), (70, 64, 58), 0.22, ox=-0.12)


def prey(c: Canvas) -> None:
    """A grazing animal (deer-like) on one hex, antlers up."""
    furred(c, 0.6, 0.28, (160, 118, 70), (104, 74, 42), 0.19, ox=-0.12)
    hx = -0.12 + 0.6 * 0.95
    for side in (-1, 1):
        c.line((226, 210, 170), (hx, side * 0.1), (hx - 0.1, side * 0.48), 0.05)
        c.line((226, 210, 170), (hx - 0.05, side * 0.3), (hx + 0.15, side * 0.42), 0.04)


def _footprint3_centre() -> Pt:
    """Where the middle of a three-hex body lies from its head hex, facing east (FTC 5's footprint)."""
    behind = (-HEX_STEP, 0.0)
    rear_left = (HEX_STEP * math.cos(2 * math.pi / 3), -HEX_STEP * math.sin(2 * math.pi / 3))
    return ((behind[0] + rear_left[0]) / 3, (behind[1] + rear_left[1]) / 3)


def beast3(c: Canvas) -> None:
    """A great hunting beast over three hexes: its body along the footprint, its head on the head hex."""
    cx, cy = _footprint3_centre()
    ang = math.atan2(-cy, -cx)  # from the body's middle towards the head hex (screen angle, y down)
    length, head_ahead = 1.3, 1.24  # furred() puts the head 0.95 body-lengths ahead of the middle
    t = head_ahead / math.hypot(cx, cy)
    big = Canvas(c.size, c.span)
    furred(big, length, 1.0, (96, 78, 60), (58, 46, 34), 0.55)
    turned = pygame.transform.rotate(big.surf, -math.degrees(ang))
    c.surf.blit(turned, turned.get_rect(center=c.p(cx * t, cy * t)))


def giant3(c: Canvas) -> None:
    """A giant over three hexes: one huge person in the middle of the footprint, club in hand."""
    cx, cy = _footprint3_centre()
    big = Canvas(c.size, c.span / 2.4)
    body(big, armour=LEATHER, helmet=None)
    mace(big)
    c.surf.blit(big.surf, big.surf.get_rect(center=c.p(cx * 0.8, cy * 0.8)))


def wyrm7(c: Canvas) -> None:
    """A wyrm over seven hexes: wings spread across its footprint, head forward, tail curled behind."""
    scale_col = (54, 104, 70)
    dark = (30, 62, 42)
    belly = (170, 150, 80)
    wing = (84, 60, 70)
    wing_dark = (52, 34, 44)
    # tail curling back and to the side
    pts = [(-0.9 - 0.25 * i, 0.35 * math.sin(i * 0.7)) for i in range(10)]
    for i in range(len(pts) - 1):
        c.line(scale_col, pts[i], pts[i + 1], 0.5 * (1 - i / 11) + 0.06)
    c.poly(dark, [pts[-1], (pts[-1][0] - 0.45, pts[-1][1] - 0.2), (pts[-1][0] - 0.3, pts[-1][1] + 0.25)])
    # wings
    for side in (-1, 1):
        root = (0.2, side * 0.45)
        tips = [(0.9, side * 2.9), (0.1, side * 3.3), (-0.8, side * 3.1), (-1.5, side * 2.5), (-1.8, side * 1.6)]
        c.poly(wing, [root, *tips, (-1.1, side * 0.55)])
        for t in tips:
            c.line(wing_dark, root, t, 0.08, outline=None)
        c.line(dark, root, tips[0], 0.16)
    # body, legs, neck, head: a quarter larger than drawn here, so the body fills the middle of the base
    k = 1.25
    for side in (-1, 1):
        for lx, ang in ((0.65, 0.5), (-0.95, -0.5)):
            c.ellipse(dark, lx * k, side * 0.78 * k, 0.34 * k, 0.17 * k, angle=side * ang)
            for claw in (-1, 0, 1):
                tip = ((lx + 0.3 + 0.05 * claw) * k, side * (0.95 + 0.06 * claw) * k)
                c.line((220, 210, 180), (lx * k + 0.25 * k, side * 0.86 * k), tip, 0.04 * k, outline=None)
    c.ellipse(scale_col, -0.2 * k, 0, 1.25 * k, 0.78 * k)
    c.ellipse(belly, -0.15 * k, 0, 0.9 * k, 0.22 * k, outline=None)
    for i in range(7):
        x0 = (-1.2 + i * 0.33) * k
        c.poly(dark, [(x0, -0.08 * k), (x0 + 0.15 * k, 0.0), (x0, 0.08 * k)], outline=None)
    c.line(scale_col, (0.6 * k, 0.0), (1.6 * k, 0.0), 0.46 * k)
    c.ellipse(scale_col, 1.9 * k, 0.0, 0.5 * k, 0.36 * k)
    c.poly(dark, [(2.2 * k, -0.22 * k), (2.62 * k, -0.06 * k), (2.62 * k, 0.06 * k), (2.2 * k, 0.22 * k)])
    for side in (-1, 1):
        c.poly((220, 210, 180), [(1.6 * k, side * 0.22 * k), (1.2 * k, side * 0.55 * k), (1.7 * k, side * 0.3 * k)])
        c.circle((255, 190, 40), 2.02 * k, side * 0.18 * k, 0.07 * k)


# ------------------------------------------------------------------------------------------ base
def base(size: int = SMALL) -> np.ndarray:
    """The base in greys (the board tints it with the side's colour): a bevelled disc with a rim, and the
    facing notch pointing east past the rim."""
    n = size * SS
    k = n / (2 * SMALL_SPAN)
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float64)
    x = (xs + 0.5 - n / 2) / k
    y = (ys + 0.5 - n / 2) / k
    r = np.hypot(x, y)
    ang = np.arctan2(y, x)
    inside = r <= 1.0
    # the notch: a wedge from the rim out to 1.3 along the facing
    half = math.radians(26)
    notch = (np.abs(ang) <= half * (1.32 - r) / 0.45) & (r <= 1.32) & (r > 0.6)
    grey = np.where(r > 0.78, 235.0, 150.0)  # rim bright (tinted to the side colour), top darker
    grey += np.where(inside, -40 * (x + y) / 2 * (r > 0.78), 0)  # light from the upper left on the rim
    grey = np.where(notch & ~inside, 250.0, grey)
    alpha = (inside | notch).astype(np.float64)
    out = np.zeros((n, n, 4))
    out[..., 0] = out[..., 1] = out[..., 2] = np.clip(grey, 0, 255)
    edge = (np.abs(r - 0.78) < 0.025) | (np.abs(r - 1.0) < 0.03)
    out[..., :3] = np.where(edge[..., None] & inside[..., None], 40.0, out[..., :3])
    out[..., 3] = alpha
    pre = np.concatenate([out[..., :3] * alpha[..., None], alpha[..., None]], axis=-1)
    pre = pre.reshape(size, SS, size, SS, 4).mean(axis=(1, 3))
    a = pre[..., 3:4]
    colour = np.where(a > 0, pre[..., :3] / np.maximum(a, 1e-9), 0)
    return np.clip(np.concatenate([colour, a * 255], axis=-1).round(), 0, 255).astype(np.uint8)


LOOKS: dict[str, tuple[Callable[[Canvas], None], bool]] = {
    "sword": (person([sword]), False),
    "sword_shield": (person([sword, shield]), False),
    "axe": (person([axe], armour=(150, 140, 130)), False),
    "axe_shield": (person([axe, shield], armour=(150, 140, 130)), False),
    "mace": (person([mace], armour=(150, 140, 130)), False),
    "mace_shield": (person([mace, shield], armour=(150, 140, 130)), False),
    "spear": (person([spear], armour=LEATHER), False),
    "spear_shield": (person([spear, shield], armour=LEATHER), False),
    "knife": (person([knife], armour=LEATHER, helmet=None), False),
    "fist": (person([fists], armour=LEATHER, helmet=None), False),
    "bow": (person([bow], armour=(98, 110, 70), helmet=None), False),
    "crossbow": (person([crossbow], armour=(130, 120, 100)), False),
    "staff": (person([staff, hat], armour=CLOTH, helmet=None, robe=True), False),
    "caster": (person([caster, hat], armour=CLOTH, helmet=None, robe=True), False),
    "beast": (beast, False),
    "prey": (prey, False),
    "beast3": (beast3, True),
    "giant3": (giant3, True),
    "wyrm7": (wyrm7, True),
}
"""Every look: how it is drawn and whether it is a large (three- or seven-hex) image."""


def render(look: str) -> np.ndarray:
    """One look's image as RGBA uint8, shaded and with its shadow."""
    draw, large = LOOKS[look]
    c = Canvas(LARGE, LARGE_SPAN) if large else Canvas(SMALL, SMALL_SPAN)
    draw(c)
    return drop_shadow(shade(c.array()), 3 if large else 2)


def save_png(arr: np.ndarray, path: Path) -> None:
    """Write an RGBA array as a PNG."""
    h, w = arr.shape[:2]
    surf = pygame.image.frombuffer(np.ascontiguousarray(arr).tobytes(), (w, h), "RGBA")
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))


def preview(images: dict[str, np.ndarray], base_img: np.ndarray) -> np.ndarray:
    """Every one-hex look on a base tinted blue, on a dark ground (for looking at the art)."""
    small = [k for k, (_, large) in LOOKS.items() if not large]
    cols = 6
    rows = (len(small) + cols - 1) // cols
    sheet = np.zeros((rows * SMALL, cols * SMALL, 4))
    sheet[...] = (40, 44, 40, 255)
    tint = np.array([0.3, 0.5, 0.95])
    for i, name in enumerate(small):
        r, c = divmod(i, cols)
        tile = sheet[r * SMALL : (r + 1) * SMALL, c * SMALL : (c + 1) * SMALL]
        for layer, colour in ((base_img, base_img[..., :3] * tint), (images[name], images[name][..., :3])):
            a = layer[..., 3:4] / 255
            tile[..., :3] = tile[..., :3] * (1 - a) + colour * a
    return sheet.astype(np.uint8)


def main(argv: list[str] | None = None) -> int:
    """Draw every token image."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", action="store_true", help="also write assets/tokens/preview.png")
    args = parser.parse_args(argv)
    pygame.init()
    base_img = base()
    save_png(base_img, OUT_DIR / "base.png")
    images = {}
    for look in LOOKS:
        images[look] = render(look)
        save_png(images[look], OUT_DIR / f"{look}.png")
    if args.preview:
        save_png(preview(images, base_img), OUT_DIR / "preview.png")
    print(f"wrote {len(LOOKS) + 1} images into {OUT_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
