"""Exact line of fire between hex centres (FTC 6.5.3; docs/rulings.md "Ranged fire").

The line of fire is the straight segment from the centre of the firer's hex to the centre of the target's
hex. A hex is *on the line* when the segment touches any part of it, its boundary included. Sight-blocking
terrain stops the shot where the segment passes through a blocking hex's interior; a blocking hex touched
only on its boundary (an edge or a corner) gives the target partial cover.

Geometry, exactly and without floating point
--------------------------------------------
In cube coordinates (q, r, s with q + r + s = 0) the six unit steps all have the same Euclidean length
and meet at 60 degrees, so the cube embedding of the axial lattice is a similarity of the drawn map (flat-
or pointy-topped alike). A hex's cell is therefore the set of points at least as close to its centre as
to any of its six neighbours n; with |n|^2 = 2 the condition p . n <= 1 for all six n reads

    point p (cube, rational) lies in the closed cell of hex h  <=>  |dq - dr| <= 1, |dr - ds| <= 1,
    |ds - dq| <= 1, where (dq, dr, ds) = p - h

and in its interior when all three are strict. Along the segment p(t) = t * v (t in [0, 1], taken from the
firer's centre) each condition is an interval of t with rational ends; scaling t by the least common
multiple D of the three slopes makes every end an integer, so the whole test is integer arithmetic. The
tests check this against a brute-force polygon intersection in Fractions.

Speed
-----
The hexes crossed depend only on the displacement ``target - firer`` (the tiling is translation
invariant), so each displacement's pattern is computed once, cached, and translated; ``lines_of_fire``
evaluates every ordered pair of a set of figures with a few numpy operations over all pairs at once.

Rulings made here (write them into the game's rules reference):
- The firer's and the target's own hexes never block (a figure standing in a wood can shoot out of it).
- Bystanders at risk (FTC 6.5.3, table 9): figures on the line extended past the target, no farther
  (in hexes) from the firer than twice the target's distance. The missile does not pass the first
  sight-blocking hex whose interior the extended line enters (other than the firer's and target's hexes):
  a figure is at risk only if the line reaches its hex no later than it enters that blocking hex.
- Line of fire is drawn for regular hexagons, as every Tiled hexagonal map in this game is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, Literal, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from game.engine.hexgrid import Hex, cube_round, distance
from game.engine.ranges import partial_cover_modifier
from game.engine.terrain import TerrainMap

T = TypeVar("T")

Kind = Literal["interior", "touch"]


class LineHex(NamedTuple):
    """One hex on a line of fire and how the segment meets it (FTC 6.5.3; docs/rulings.md "Line of fire").

    ``kind`` is ``"interior"`` when the segment passes through the hex's interior and ``"touch"`` when it
    meets only the boundary (runs along an edge or passes a corner).
    """

    hex: Hex
    kind: Kind

    @property
    def interior(self) -> bool:
        """Whether the segment passes through the hex's interior."""
        return self.kind == "interior"


# --- the exact pattern of one displacement ---------------------------------------------------------


class _Cell(NamedTuple):
    q: int
    r: int
    interior: bool
    enter: int  # where the segment first meets the closed cell, as t * scale
    leave: int  # where it last meets it, as t * scale


class _Pattern(NamedTuple):
    cells: tuple[_Cell, ...]  # ordered from the start to the end of the segment
    scale: int  # the segment runs from t = 0 to t = scale


_NEAR: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@lru_cache(maxsize=65536)
def _pattern(vq: int, vr: int) -> _Pattern:
    """Every hex the segment from (0, 0) to (vq, vr) meets, with its kind and entry/exit, in order.

    Candidates: the segment is sampled at every hex step (samples one unit of hex distance apart, so each
    point of the segment is within 1/2 of a sample); a sample lies in its rounded hex's cell (radius 2/3),
    and any cell the segment meets has its centre within 2/3 + 1/2 + 2/3 < 2 of that rounded hex, so it is
    the rounded hex or one of its neighbours.
    """
    vs = -vq - vr
    if vq == 0 and vr == 0:
        return _Pattern((_Cell(0, 0, True, 0, 0),), 1)
    slopes = (vq - vr, vr - vs, vs - vq)
    scale = math.lcm(*(abs(e) for e in slopes if e != 0))
    n = (abs(vq) + abs(vr) + abs(vs)) // 2
    candidates: set[tuple[int, int]] = set()
    for i in range(n + 1):
        bq, br = cube_round(i * vq, i * vr, n)
        for oq, o_r in _NEAR:
            candidates.add((bq + oq, br + o_r))
    cells: list[_Cell] = []
    for hq, hr in candidates:
        hs = -hq - hr
        offsets = (hq - hr, hr - hs, hs - hq)
        lo = -(1 << 62)
        hi = 1 << 62
        strict = True
        touching = True
        for slope, g in zip(slopes, offsets, strict=True):
            if slope == 0:
                # The segment keeps this difference at 0 all along: the hex is met along its whole
                # length if |g| <= 1, and through the interior only if g == 0.
                if abs(g) > 1:
                    touching = False
                    break
                if g != 0:
                    strict = False
                continue
            step = scale // slope  # exact: scale is a multiple of |slope|
            a = (g - 1) * step
            b = (g + 1) * step
            if a > b:
                a, b = b, a
            lo = max(lo, a)
            hi = min(hi, b)
        if not touching:
            continue
        enter = max(lo, 0)
        leave = min(hi, scale)
        if enter > leave:
            continue
        interior = strict and lo < hi and lo < scale and hi > 0
        cells.append(_Cell(hq, hr, interior, enter, leave))
    cells.sort(key=lambda c: (c.enter, c.leave, c.q, c.r))
    return _Pattern(tuple(cells), scale)


@lru_cache(maxsize=65536)
def _relative_line(dq: int, dr: int) -> tuple[LineHex, ...]:
    cells = _pattern(dq, dr).cells
    return tuple(LineHex(Hex(c.q, c.r), "interior" if c.interior else "touch") for c in cells)


def line_hexes(a: Hex, b: Hex) -> tuple[LineHex, ...]:
    """The hexes the centre-to-centre segment from ``a`` to ``b`` touches, in order from ``a`` to ``b``,
    each marked "interior" or "touch" (FTC 6.5.3 "crosses through any part of the hex"; docs/rulings.md "Line of fire").

    Hexes the segment meets at the same point (a corner) come in a fixed but arbitrary order.
    """
    rel = _relative_line(b.q - a.q, b.r - a.r)
    if a.q == 0 and a.r == 0:
        return rel
    aq, ar = a.q, a.r
    return tuple(LineHex(Hex(h.hex.q + aq, h.hex.r + ar), h.kind) for h in rel)


@lru_cache(maxsize=65536)
def _relative_set(dq: int, dr: int) -> frozenset[tuple[int, int]]:
    return frozenset((c.q, c.r) for c in _pattern(dq, dr).cells)


def hexes_crossed(a: Hex, b: Hex) -> frozenset[Hex]:
    """Every hex the segment from the centre of ``a`` to the centre of ``b`` touches, boundary included
    (edges and corners), both ends included (FTC 6.5.3; docs/rulings.md "Line of fire"). Exact: no floats.
    """
    aq, ar = a.q, a.r
    return frozenset(Hex(q + aq, r + ar) for q, r in _relative_set(b.q - a.q, b.r - a.r))


# --- line of fire on a map -----------------------------------------------------------------------


class _Extended(NamedTuple):
    """The pattern of the segment firer -> firer + 2 * (target - firer), arranged for the line of fire."""

    cells: tuple[_Cell, ...]
    on_segment: tuple[bool, ...]  # meets the segment firer -> target
    at_risk_place: tuple[bool, ...]  # not an end hex and within twice the target's distance
    is_end: tuple[bool, ...]  # the firer's or the target's own hex
    rank: tuple[int, ...]  # order of entry along the line; cells entered at the same point share a rank
    table: npt.NDArray[np.int64]  # rows: q, r, flags (_INTERIOR | _ON_SEGMENT | _AT_RISK | _END), enter


_INTERIOR, _ON_SEGMENT, _AT_RISK, _END = 1, 2, 4, 8


@lru_cache(maxsize=65536)
def _extended(dq: int, dr: int) -> _Extended:
    pat = _pattern(2 * dq, 2 * dr)
    half = pat.scale // 2  # the target's centre; scale is even because every slope of 2 * d is even
    reach = 2 * ((abs(dq) + abs(dr) + abs(dq + dr)) // 2)
    on_segment = tuple(c.enter <= half for c in pat.cells)
    is_end = tuple((c.q, c.r) in ((0, 0), (dq, dr)) for c in pat.cells)
    at_risk = tuple(
        not end and (abs(c.q) + abs(c.r) + abs(c.q + c.r)) // 2 <= reach
        for c, end in zip(pat.cells, is_end, strict=True)
    )
    table = (
        np.array(
            [
                (c.q, c.r, _INTERIOR * c.interior | _ON_SEGMENT * seg | _AT_RISK * risk | _END * end, c.enter)
                for c, seg, risk, end in zip(pat.cells, on_segment, at_risk, is_end, strict=True)
            ],
            dtype=np.int64,
        )
        .reshape(-1, 4)
        .T.copy()
    )
    table.setflags(write=False)
    ranks: dict[int, int] = {}
    for cell in pat.cells:
        ranks.setdefault(cell.enter, len(ranks))
    rank = tuple(ranks[cell.enter] for cell in pat.cells)
    return _Extended(pat.cells, on_segment, at_risk, is_end, rank, table)


class LineOfFire(NamedTuple, Generic[T]):
    """The line of fire from one hex to another on a map (FTC 6.5.3; docs/rulings.md "Line of fire", "Misses").

    ``blocked`` / ``blocked_at``: the first hex (from the firer) whose interior the segment crosses and whose
    terrain blocks sight, the firer's and target's hexes excepted. ``partial_cover``: a blocking hex is
    touched only on its boundary, so the target has partial cover (``cover_modifier``, -1 to the shot).
    ``at_risk``: the bystanders a miss may hit (``bystanders_at_risk``). ``wall_cutoff``: where the line,
    extended past the target, enters its first blocking hex (as a rank in the order of entry), or None.
    """

    firer: Hex
    target: Hex
    blocked_at: Hex | None
    partial_cover: bool
    at_risk: tuple[T, ...] = ()
    wall_cutoff: int | None = None

    @property
    def blocked(self) -> bool:
        """Whether sight-blocking terrain stops the shot (FTC 6.5.3; docs/rulings.md "Line of fire")."""
        return self.blocked_at is not None

    @property
    def distance(self) -> int:
        """Hex distance from firer to target (docs/rulings.md "Distances": distances are hex distances)."""
        return distance(self.firer, self.target)

    @property
    def hexes(self) -> tuple[LineHex, ...]:
        """Every hex on the line, ordered from firer to target, each "interior" or "touch" (FTC 6.5.3)."""
        return line_hexes(self.firer, self.target)

    @property
    def cover_modifier(self) -> int:
        """The shot's modifier for partial cover: the data's value (-1) or 0 (docs/rulings.md "Line of fire")."""
        return partial_cover_modifier() if self.partial_cover else 0

    def bystanders_at_risk(self, occupants: Mapping[Hex, T] | None = None) -> tuple[T, ...]:
        """Figures that a miss may hit (FTC 6.5.3, table 9), each once, ordered from the firer outwards.

        Without ``occupants``: those given when the line was drawn. With them: figures standing on the
        line extended past the target, other than firer and target, no farther from the firer than twice the
        target's distance, and not beyond the first sight-blocking hex the line enters (module docstring).
        """
        if occupants is None:
            return self.at_risk
        return _bystanders(self.firer, self.target, occupants, self.wall_cutoff)


def risk_hexes(terrain: TerrainMap, firer: Hex, target: Hex) -> tuple[Hex, ...]:
    """The hexes where a figure would be at risk from a miss of a shot from ``firer`` at ``target`` (FTC
    6.5.3, table 9): the places ``bystanders_at_risk`` looks at, from the firer outwards."""
    cutoff = line_of_fire(terrain, firer, target).wall_cutoff
    ext = _extended(target.q - firer.q, target.r - firer.r)
    return tuple(
        Hex(cell.q + firer.q, cell.r + firer.r)
        for cell, risk, rank in zip(ext.cells, ext.at_risk_place, ext.rank, strict=True)
        if risk and (cutoff is None or rank <= cutoff)
    )


def _bystanders(firer: Hex, target: Hex, occupants: Mapping[Hex, T], cutoff: int | None) -> tuple[T, ...]:
    if not occupants:
        return ()
    ext = _extended(target.q - firer.q, target.r - firer.r)
    fq, fr = firer.q, firer.r
    found: dict[T, None] = {}  # FTC 6.5.3, table 9: a figure covering several hexes on the line is one combatant
    for cell, risk, rank in zip(ext.cells, ext.at_risk_place, ext.rank, strict=True):
        if not risk or (cutoff is not None and rank > cutoff):
            continue
        who = occupants.get(Hex(cell.q + fq, cell.r + fr))
        if who is not None:
            found[who] = None
    return tuple(found)


@lru_cache(maxsize=1 << 15)
def line_blocked(terrain: TerrainMap, firer: Hex, target: Hex) -> bool:
    """Whether sight-blocking terrain stops a shot from ``firer`` at ``target``: ``line_of_fire(...).blocked``
    (FTC 6.5.3; docs/rulings.md "Line of fire"), worked out from the segment alone (a hex whose interior the
    segment crosses blocks; the two end hexes never do) and kept per pair of hexes."""
    dq, dr = target.q - firer.q, target.r - firer.r
    fq, fr = firer.q, firer.r
    return any(
        c.interior
        and (c.q, c.r) != (dq, dr)
        and (c.q, c.r) != (0, 0)
        and terrain.sight_blocked(Hex(c.q + fq, c.r + fr))
        for c in _pattern(dq, dr).cells
    )


def line_of_fire(
    terrain: TerrainMap, firer: Hex, target: Hex, *, occupants: Mapping[Hex, T] | None = None
) -> LineOfFire[T]:
    """Draw the line of fire from ``firer`` to ``target`` on a map (FTC 6.5.3; docs/rulings.md "Line of fire").

    ``occupants`` maps hexes to the figures standing there; they give ``bystanders_at_risk()``. The terrain
    of a map never changes, so the line over it is drawn once per pair of hexes and kept.
    """
    bare: LineOfFire[T] = _line_over(terrain, firer, target)
    if not occupants:
        return bare
    return bare._replace(at_risk=_bystanders(firer, target, occupants, bare.wall_cutoff))


@lru_cache(maxsize=1 << 13)  # the lines of a decision's questions; a line is far dearer to keep than its bool
def _line_over(terrain: TerrainMap, firer: Hex, target: Hex) -> LineOfFire[Any]:
    """``line_of_fire`` without bystanders: the line over the map's terrain alone."""
    ext = _extended(target.q - firer.q, target.r - firer.r)
    fq, fr = firer.q, firer.r
    blocked_at: Hex | None = None
    partial = False
    cutoff: int | None = None
    for cell, seg, end, rank in zip(ext.cells, ext.on_segment, ext.is_end, ext.rank, strict=True):
        if end:
            continue
        h = Hex(cell.q + fq, cell.r + fr)
        if not terrain.sight_blocked(h):
            continue
        if cell.interior:
            if seg and blocked_at is None:
                blocked_at = h
            if cutoff is None:
                cutoff = rank
        elif seg:
            partial = True
    return LineOfFire(firer, target, blocked_at, partial, (), cutoff)


# --- every pair at once --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Grid:
    """An axial-indexed window over the map, padded so that every line of fire between hexes of ``core``
    (extended to twice its length, plus the hexes it touches) stays inside: a batch of lookups then needs
    no bounds checks. ``blocks`` is the map's sight-blocking flag, False off the map."""

    q0: int
    r0: int
    width: int
    height: int
    blocks: npt.NDArray[np.bool_]  # flat, index (r - r0) * width + (q - q0)


_GRIDS: dict[tuple[int, int, int, int, int], tuple[TerrainMap, _Grid]] = {}
_MAP_BOXES: dict[int, tuple[TerrainMap, tuple[int, int, int, int]]] = {}


def _map_box(terrain: TerrainMap) -> tuple[int, int, int, int]:
    """(q min, r min, q max, r max) of the map's hexes."""
    cached = _MAP_BOXES.get(id(terrain))
    if cached is not None and cached[0] is terrain:
        return cached[1]
    all_hexes = list(terrain.hexes())
    box = (
        min(h.q for h in all_hexes),
        min(h.r for h in all_hexes),
        max(h.q for h in all_hexes),
        max(h.r for h in all_hexes),
    )
    if len(_MAP_BOXES) > 16:
        _MAP_BOXES.clear()
    _MAP_BOXES[id(terrain)] = (terrain, box)
    return box


def _grid(terrain: TerrainMap, core: tuple[int, int, int, int]) -> _Grid:
    key = (id(terrain), *core)
    cached = _GRIDS.get(key)
    if cached is not None and cached[0] is terrain:
        return cached[1]
    q_min, r_min, q_max, r_max = core
    pad = max(q_max - q_min, r_max - r_min) + 2
    q0 = q_min - pad
    r0 = r_min - pad
    width = q_max - q_min + 2 * pad + 1
    height = r_max - r_min + 2 * pad + 1
    blocks = np.zeros(width * height, dtype=np.bool_)
    rows, cols = np.nonzero(terrain.blocks_sight)
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        h = terrain.hex_at(col, row)
        blocks[(h.r - r0) * width + (h.q - q0)] = True
    grid = _Grid(q0, r0, width, height, blocks)
    if len(_GRIDS) > 16:
        _GRIDS.clear()
    _GRIDS[key] = (terrain, grid)
    return grid


@lru_cache(maxsize=65536)
def _flat_table(dq: int, dr: int, width: int) -> tuple[npt.NDArray[np.int32], int]:
    """A displacement's extended pattern for a grid ``width`` wide: rows (flat offset from the firer,
    flags + 16 * rank of entry); and its length. Equal entries share a rank, so ranks compare like entries."""
    ext = _extended(dq, dr)
    table = (
        np.array(
            [
                (cell.r * width + cell.q, flags + 16 * rank)
                for cell, flags, rank in zip(ext.cells, ext.table[2].tolist(), ext.rank, strict=True)
            ],
            dtype=np.int32,
        )
        .reshape(-1, 2)
        .T.copy()
    )
    table.setflags(write=False)
    return table, len(ext.cells)


def lines_of_fire(
    terrain: TerrainMap, positions: Mapping[str, Hex], pairs: Iterable[tuple[str, str]] | None = None
) -> dict[tuple[str, str], LineOfFire[str]]:
    """Lines of fire between figures: every ordered pair of ``positions`` (or just ``pairs``), with blocking,
    partial cover and the bystanders at risk named by the figures' keys (FTC 6.5.3; docs/rulings.md "Misses").

    Gives the same answers as ``line_of_fire`` pair by pair, with ``occupants`` = the figures' positions.
    All pairs are evaluated together: each pair's cached pattern is translated to the firer and every
    lookup (blocking terrain, figures) is one numpy operation over all pairs.
    """
    names = list(positions)
    pair_list = [(a, b) for a in names for b in names if a != b] if pairs is None else list(pairs)
    if not pair_list:
        return {}
    index = {name: i for i, name in enumerate(names)}
    spots = [positions[n] for n in names]
    hq = [h.q for h in spots]
    hr = [h.r for h in spots]
    mq0, mr0, mq1, mr1 = _map_box(terrain)
    grid = _grid(terrain, (min(mq0, *hq), min(mr0, *hr), max(mq1, *hq), max(mr1, *hr)))
    width = grid.width
    occupancy = np.zeros(grid.blocks.size, dtype=np.int32)
    seen: set[Hex] = set()
    for i, h in enumerate(spots):
        if h not in seen:  # one figure per hex; the first named wins, as in ``{hex: name}``'s reverse
            seen.add(h)
            occupancy[(h.r - grid.r0) * width + (h.q - grid.q0)] = i + 1
    home = [(r - grid.r0) * width + (q - grid.q0) for q, r in zip(hq, hr, strict=True)]

    ia = [index[a] for a, _ in pair_list]
    ib = [index[b] for _, b in pair_list]
    flat_table = _flat_table
    parts = [flat_table(hq[j] - hq[i], hr[j] - hr[i], width) for i, j in zip(ia, ib, strict=True)]
    allc = np.concatenate([t for t, _ in parts], axis=1)
    lengths = np.array([n for _, n in parts], dtype=np.int64)
    pair_id = np.repeat(np.arange(len(pair_list), dtype=np.int32), lengths)
    flat = allc[0] + np.repeat(np.array(home, dtype=np.int32)[ia], lengths)
    code = allc[1]

    blocks = grid.blocks[flat] & ((code & _END) == 0)
    walls = np.flatnonzero(blocks & ((code & _INTERIOR) != 0))
    blocked_at: dict[int, Hex] = {}
    no_wall = np.iinfo(np.int32).max
    cutoff = np.full(len(pair_list), no_wall, dtype=np.int32)
    if walls.size:
        wall_pairs = pair_id[walls]
        first = np.ones(walls.size, dtype=np.bool_)
        first[1:] = wall_pairs[1:] != wall_pairs[:-1]
        firsts = walls[first]
        cutoff[pair_id[firsts]] = code[firsts] >> 4
        seg_walls = walls[(code[walls] & _ON_SEGMENT) != 0]
        if seg_walls.size:
            sp = pair_id[seg_walls]
            sfirst = np.ones(seg_walls.size, dtype=np.bool_)
            sfirst[1:] = sp[1:] != sp[:-1]
            chosen = seg_walls[sfirst]
            where_r, where_q = np.divmod(flat[chosen], width)
            blocked_at = dict(
                zip(
                    pair_id[chosen].tolist(),
                    map(Hex, (where_q + grid.q0).tolist(), (where_r + grid.r0).tolist()),
                    strict=True,
                )
            )
    partial = np.zeros(len(pair_list), dtype=np.bool_)
    partial[pair_id[blocks & ((code & (_INTERIOR | _ON_SEGMENT)) == _ON_SEGMENT)]] = True

    who = occupancy[flat]
    hits = np.flatnonzero(who)
    hits = hits[(code[hits] & _AT_RISK) != 0]
    hit_pairs = pair_id[hits]
    hits = hits[(code[hits] >> 4) <= cutoff[hit_pairs]]
    bystanders: dict[int, list[str]] = {}
    for k, p in zip(who[hits].tolist(), pair_id[hits].tolist(), strict=True):
        bystanders.setdefault(p, []).append(names[k - 1])

    cut_list = cutoff.tolist()
    partial_list = partial.tolist()
    new = tuple.__new__
    lines = [
        new(
            LineOfFire,
            (
                spots[i],
                spots[j],
                blocked_at.get(p),
                partial_list[p],
                tuple(bystanders.get(p, ())),
                None if cut_list[p] == no_wall else cut_list[p],
            ),
        )
        for p, (i, j) in enumerate(zip(ia, ib, strict=True))
    ]
    return dict(zip(pair_list, lines, strict=True))
