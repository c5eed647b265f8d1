"""Hex coordinates for the battle map (FTC 5: one hex is one metre side to side).

Inside the engine every position is an axial ``Hex(q, r)`` (cube ``s = -q - r``), following the names of
Red Blob Games' "Hexagonal Grids". Tiled's offset coordinates appear only at the edge
(``offset_to_hex`` / ``hex_to_offset``) and pixels only in the user interface (docs/architecture.md "Coordinates have
one home each").

Directions and facings are the integers 0..5, counter-clockwise in axial space:
0 = (+1, 0), 1 = (+1, -1), 2 = (0, -1), 3 = (-1, 0), 4 = (-1, +1), 5 = (0, +1).
On a pointy-top map (Tiled ``staggeraxis="y"``) 0 is east, 1 north-east, 2 north-west, 3 west,
4 south-west, 5 south-east; on a flat-top map (``staggeraxis="x"``) 0 is south-east, 1 north-east,
2 north, 3 north-west, 4 south-west, 5 south.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, NamedTuple

from msgspec import Meta

MAX_COORDINATE = 10**5
"""The largest hex coordinate data may hold (maps are at most a few hundred hexes across)."""
Coord = Annotated[int, Meta(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
"""A hex coordinate as saves and messages hold it (``game.engine.codec``): a whole number within
``MAX_COORDINATE``."""


class Hex(NamedTuple):
    """One hex in axial coordinates; frozen and hashable. ``s`` is the third cube coordinate. In a save or a
    message a hex is the list ``[q, r]``."""

    q: Coord
    r: Coord

    @property
    def s(self) -> int:
        """The cube coordinate s = -q - r."""
        return -self.q - self.r

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
"""The six unit steps, indexed by direction / facing 0..5 (counter-clockwise)."""

STAGGER_AXES = ("x", "y")
STAGGER_INDICES = ("odd", "even")


def hex_add(a: Hex, b: Hex) -> Hex:
    """The sum of two hex vectors."""
    return Hex(a.q + b.q, a.r + b.r)


def hex_subtract(a: Hex, b: Hex) -> Hex:
    """The difference of two hex vectors, ``a - b``."""
    return Hex(a.q - b.q, a.r - b.r)


def hex_scale(a: Hex, k: int) -> Hex:
    """A hex vector multiplied by an integer."""
    return Hex(a.q * k, a.r * k)


def length(h: Hex) -> int:
    """Distance from the origin in hexes."""
    return (abs(h.q) + abs(h.r) + abs(h.q + h.r)) // 2


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: the number of steps from ``a`` to ``b`` (docs/rulings.md "Distances": distances are hex
    distances)."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbor(h: Hex, direction: int) -> Hex:
    """The hex adjacent to ``h`` across side ``direction`` (0..5, taken modulo 6)."""
    d = DIRECTIONS[direction % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six hexes adjacent to ``h``, in direction order 0..5."""
    q, r = h
    return (Hex(q + 1, r), Hex(q + 1, r - 1), Hex(q, r - 1), Hex(q - 1, r), Hex(q - 1, r + 1), Hex(q, r + 1))


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to an adjacent hex ``b``, or None when they are not adjacent."""
    d = Hex(b.q - a.q, b.r - a.r)
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


def facing_toward(h: Hex, target: Hex) -> int:
    """The facing from ``h`` that points most nearly at ``target`` (the front hex closest to it; FTC 5.2)."""
    ns = neighbors(h)
    return min(range(6), key=lambda d: distance(ns[d], target))


def turn_steps(facing_from: int, facing_to: int) -> int:
    """How many hex sides of turning lie between two facings (0..3), FTC 5 "Changing Facing"."""
    diff = (facing_to - facing_from) % 6
    return min(diff, 6 - diff)


def rotate(facing: int, sides: int) -> int:
    """A facing turned by ``sides`` hex sides (positive = counter-clockwise)."""
    return (facing + sides) % 6


def front_hexes(h: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three hexes in front of a figure: its zone of control (FTC 5.2, figure 1; docs/rulings.md "Zone of
    control")."""
    return (neighbor(h, facing - 1), neighbor(h, facing), neighbor(h, facing + 1))


def rear_hexes(h: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three hexes behind a figure; the middle one is directly behind (FTC 6.4.1)."""
    return (neighbor(h, facing + 2), neighbor(h, facing + 3), neighbor(h, facing + 4))


def directly_behind(h: Hex, facing: int) -> Hex:
    """The hex straight opposite a figure's front (FTC 6.4.1: +2 from directly behind)."""
    return neighbor(h, facing + 3)


def cube_round(q: float, r: float, den: int = 1) -> Hex:
    """The hex nearest the cube point (q, r, -q - r) / ``den``: each coordinate rounded to the nearest whole
    number (halves up), then the one that moved farthest recomputed from the other two (Red Blob Games'
    cube rounding). With whole ``q``, ``r`` and ``den`` the arithmetic is exact, no floats (line-of-fire
    sampling needs that); the screen passes fractional axial coordinates with ``den`` 1."""
    s = -q - r
    twice = 2 * den
    rq, rr, rs = (2 * q + den) // twice, (2 * r + den) // twice, (2 * s + den) // twice
    eq, er, es = abs(rq * den - q), abs(rr * den - r), abs(rs * den - s)
    if eq > er and eq > es:
        rq = -rr - rs
    elif er > es:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def ring(center: Hex, radius: int) -> list[Hex]:
    """All hexes exactly ``radius`` steps from ``center`` (radius 0 gives the centre alone)."""
    if radius == 0:
        return [center]
    results: list[Hex] = []
    h = hex_add(center, hex_scale(DIRECTIONS[4], radius))
    for side in range(6):
        for _ in range(radius):
            results.append(h)
            h = neighbor(h, side)
    return results


def within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance ``radius`` or less from ``center``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


def _check_stagger(stagger_axis: str, stagger_index: str) -> None:
    if stagger_axis not in STAGGER_AXES:
        raise ValueError(f"stagger axis must be 'x' or 'y', not {stagger_axis!r}")
    if stagger_index not in STAGGER_INDICES:
        raise ValueError(f"stagger index must be 'odd' or 'even', not {stagger_index!r}")


def offset_to_hex(col: int, row: int, stagger_axis: str = "y", stagger_index: str = "odd") -> Hex:
    """Tiled's cell (column, row) on a hexagonal map -> axial hex.

    ``stagger_axis="y"`` staggers rows (pointy-top hexes); ``"x"`` staggers columns (flat-top hexes).
    ``stagger_index="odd"`` shifts the odd rows / columns, ``"even"`` the even ones (Tiled's defaults: y, odd).
    """
    _check_stagger(stagger_axis, stagger_index)
    if stagger_axis == "y":
        if stagger_index == "odd":
            return Hex(col - (row - (row & 1)) // 2, row)
        return Hex(col - (row + (row & 1)) // 2, row)
    if stagger_index == "odd":
        return Hex(col, row - (col - (col & 1)) // 2)
    return Hex(col, row - (col + (col & 1)) // 2)


def hex_to_offset(h: Hex, stagger_axis: str = "y", stagger_index: str = "odd") -> tuple[int, int]:
    """Axial hex -> Tiled's cell (column, row); the inverse of ``offset_to_hex``."""
    _check_stagger(stagger_axis, stagger_index)
    q, r = h
    if stagger_axis == "y":
        if stagger_index == "odd":
            return q + (r - (r & 1)) // 2, r
        return q + (r + (r & 1)) // 2, r
    if stagger_index == "odd":
        return q, r + (q - (q & 1)) // 2
    return q, r + (q + (q & 1)) // 2
