"""Priced paths (FTC 5, 5.1.2, 5.2, 5.3): the map as flat tables, what a drawn move costs, and its check.

How a move is priced is told in ``game.engine.movement``'s docstring; this module holds the grid every
search and check uses (``_Grid``, built once per map), the ``Path`` a move is priced as, ``path_cost``,
and ``turn_cost``; ``game.engine.movement.Ground.validate`` checks a drawn path with them.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from game.engine.datafiles import read_table
from game.engine.hexgrid import DIRECTIONS, Hex, direction_to, turn_steps
from game.engine.terrain import TerrainMap

_DATA: Mapping[str, Any] = read_table("movement.toml")

_FREE_SIDES = int(_DATA["facing"]["free_sides_per_gap"])
_SIDE_COST = int(_DATA["facing"]["cost_per_extra_side"])
OCCUPIED_EXTRA: int = int(_DATA["occupied"]["extra_cost"])
"""FTC 5.2: extra hexes for moving through a hex occupied by another figure."""

_NO_ZONE: frozenset[str] = frozenset()
_V = TypeVar("_V")


class IllegalMove(ValueError):
    """A move that the rules of FTC 5 do not allow; the message says what is wrong and how to fix it."""


# --- the grid as flat tables ---------------------------------------------------------------------------

_WALL = 1 << 31
"""Table entry of a cell a figure may not enter in a mode (impassable terrain) or that is off the map."""


class _Grid:
    """One map as flat tables over its axial bounding box, built once per map (cached by map identity).

    Cell number ``(q - q0) * stride + (r - r0)``: the six neighbours of a cell are then six fixed offsets,
    so the search needs no neighbour lists, and a ring of off-map cells around the map (value ``_WALL``)
    spares it every bounds check. Only numpy work happens here, so the first search on a new map is cheap.
    """

    def __init__(self, terrain: TerrainMap) -> None:
        self.terrain = terrain
        w, h = terrain.width, terrain.height
        rows, cols = np.indices((max(h, 1), max(w, 1)))  # an empty map still gets a (wall-only) table
        # the vectorised form of hexgrid.offset_to_hex (a test holds the two together on every layout)
        if terrain.stagger_axis == "y":
            shift = (rows + (rows & 1)) // 2 if terrain.stagger_index == "even" else (rows - (rows & 1)) // 2
            q, r = cols - shift, rows
        else:
            shift = (cols + (cols & 1)) // 2 if terrain.stagger_index == "even" else (cols - (cols & 1)) // 2
            q, r = cols, rows - shift
        self.q0 = int(q.min()) - 1
        self.r0 = int(r.min()) - 1
        self.stride = int(r.max()) - self.r0 + 2
        size = (int(q.max()) - self.q0 + 2) * self.stride
        # cell number of every (row, col), so per-mode tables are one numpy scatter
        self._cells = ((q - self.q0) * self.stride + (r - self.r0)).ravel()[: w * h]
        inside = np.zeros(size, dtype=np.bool_)
        inside[self._cells] = True
        self.size = size
        self.inside: list[bool] = inside.tolist()
        self.offsets: tuple[int, ...] = tuple(d.q * self.stride + d.r for d in DIRECTIONS)
        self._modes: dict[str, list[int]] = {}
        self._hexes: dict[int, Hex] = {}

    def cell(self, h: Hex) -> int:
        """The cell number of a hex, or -1 when it is not on the map."""
        dq = h[0] - self.q0
        dr = h[1] - self.r0
        if dq > 0 and 0 < dr < self.stride - 1:
            c = dq * self.stride + dr
            if c < self.size and self.inside[c]:
                return c
        return -1

    def cells(self, items: Iterable[tuple[Hex, _V]]) -> dict[int, _V]:
        """``{cell: value}`` for the (hex, value) pairs whose hex is on the map (``cell`` inlined: a search
        converts every occupied, blocked and zone hex)."""
        q0, r0, stride, size, inside = self.q0, self.r0, self.stride, self.size, self.inside
        out: dict[int, _V] = {}
        for (q, r), value in items:
            c = (q - q0) * stride + (r - r0)
            if 0 < r - r0 < stride - 1 and 0 < c < size and inside[c]:
                out[c] = value
        return out

    def hex(self, c: int) -> Hex:
        """The hex of a cell number (made once per cell, so highlight sets share them)."""
        h = self._hexes.get(c)
        if h is None:
            q, r = divmod(c, self.stride)
            h = self._hexes[c] = Hex(q + self.q0, r + self.r0)
        return h

    def mode(self, mode: str) -> list[int]:
        """Per cell the movement penalty for a mode (FTC 5.1.2), ``_WALL`` where it cannot be entered."""
        table = self._modes.get(mode)
        if table is None:
            if mode not in self.terrain.penalty:
                raise IllegalMove(
                    f"unknown movement mode {mode!r}: this map knows {', '.join(sorted(self.terrain.penalty))}"
                )
            full = np.full(self.size, _WALL, dtype=np.int64)
            # table 3 prints penalties as negative numbers; either sign means "this many hexes fewer"
            pen = np.abs(self.terrain.penalty[mode].astype(np.int64)).ravel()
            full[self._cells] = np.where(self.terrain.passable[mode].ravel(), pen, _WALL)
            table = self._modes[mode] = full.tolist()
        return table


_GRIDS: weakref.WeakKeyDictionary[TerrainMap, _Grid] = weakref.WeakKeyDictionary()


def _grid(terrain: TerrainMap) -> _Grid:
    g = _GRIDS.get(terrain)
    if g is None:
        g = _GRIDS[terrain] = _Grid(terrain)
    return g


def _facing_extra(sides: int, gaps: int) -> int:
    """Extra hexes for ``sides`` of turning spread over ``gaps`` gaps (FTC 5 "Changing Facing")."""
    return max(0, sides - _FREE_SIDES * gaps) * _SIDE_COST


def _applied(raw_terrain: int, allowance: int) -> int:
    # FTC 5.1.2: "always able to move one hex unless totally immobilized" caps the terrain reduction.
    return min(raw_terrain, max(0, allowance - 1))


# --- paths ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Path:
    """A priced move (FTC 5, 5.1.2, 5.2, 5.3): what the figure does and what each part costs.

    ``steps`` lists the figure's states after each action: a move to an adjacent hex keeps the facing; a
    turn keeps the hex and changes the facing by one side. ``escapes`` lists (index into ``steps`` of the
    step that leaves the zone(s), ids of the enemies whose zones are left) for every escape contest.
    """

    start: Hex
    start_facing: int
    steps: tuple[tuple[Hex, int], ...]
    hexes_moved: int
    terrain_penalty: int
    occupied_extra: int
    facing_extra: int
    escapes: tuple[tuple[int, frozenset[str]], ...]

    @property
    def cost(self) -> int:
        """Hexes of allowance the move uses."""
        return self.hexes_moved + self.terrain_penalty + self.occupied_extra + self.facing_extra

    @property
    def end(self) -> Hex:
        """The hex the figure ends in."""
        return self.steps[-1][0] if self.steps else self.start

    @property
    def end_facing(self) -> int:
        """The facing the figure ends with."""
        return self.steps[-1][1] if self.steps else self.start_facing

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """The hexes entered, in order (turns left out)."""
        out: list[Hex] = []
        here = self.start
        for hx, _ in self.steps:
            if hx != here:
                out.append(hx)
                here = hx
        return tuple(out)


@dataclass(frozen=True)
class PathGround:
    """What a figure's move is searched and priced over (FTC 5-5.3), in one value: the map, the mover's
    movement ``mode`` and ``size`` (1, 3 or 7 hexes), ``occupied`` (hexes with other figures: passable at +1,
    never an end), ``impassable`` (hexes this mover may not enter, e.g. enemies that would stop him),
    ``zones`` (for each hex, the ids of the enemies that would stop this mover and whose zone of control
    covers it) and the ``per_hex_terrain`` rule option (entering a hex costs 1 + its penalty instead of the
    largest-penalty rule). A large figure passes through nobody: occupied and impassable hexes both block it
    (``blocked``). ``game.engine.movement.Ground`` is this value with its questions."""

    terrain: TerrainMap
    mode: str = "walk"
    occupied: frozenset[Hex] = frozenset()
    impassable: frozenset[Hex] = frozenset()
    zones: Mapping[Hex, frozenset[str]] | None = None
    per_hex_terrain: bool = False
    size: int = 1

    @property
    def blocked(self) -> frozenset[Hex]:
        """The hexes a large figure may not cover: every other figure's, and the impassable ones."""
        return self.occupied | self.impassable


def _start_penalty(terrain: TerrainMap, start: Hex, mode: str) -> int:
    # FTC 5.1.2 counts the start hex's penalty even where the figure could not have entered it
    return abs(terrain.move_penalty(start, mode))


def _cell_zones(g: _Grid, zones: Mapping[Hex, frozenset[str]] | None) -> dict[int, frozenset[str]]:
    if not zones:
        return {}
    # an empty set of stoppers is kept: the search treats it as no zone
    return g.cells(zones.items())


def _step_shape(i: int, here: Hex, face: int, hx: Hex, f: int, gap_sides: int) -> tuple[int, int]:
    """FTC 5 "Facing": one step of an explicit path is a turn of one hex side in place or a move into an
    adjacent hex keeping the facing. Returns the sides turned in the current gap between hexes and what this
    step's turn costs in hexes (the free sides of ``data/movement.toml`` first); raises ``IllegalMove``."""
    if hx == here:
        if turn_steps(face, f) != 1:
            raise IllegalMove(f"step {i + 1} turns from facing {face} to {f} in place; turn one hex side at a time")
        return gap_sides + 1, _SIDE_COST if gap_sides + 1 > _FREE_SIDES else 0
    if f != face:
        raise IllegalMove(
            f"step {i + 1} moves to {hx} and changes facing at once; moving does not turn "
            "a figure, so add a separate turn step"
        )
    if direction_to(here, hx) is None:
        raise IllegalMove(f"step {i + 1} jumps from {here} to {hx}; a figure moves one adjacent hex at a time")
    return 0, 0


def _walk(start: Hex, facing: int, steps: Sequence[tuple[Hex, int]]) -> Iterator[tuple[int, Hex, Hex, int, int]]:
    """The steps of an explicit path one by one, each checked by ``_step_shape``: its index, the hex before it,
    its hex and facing, and what its turn costs in hexes."""
    here, face, gap_sides = start, facing % 6, 0
    for i, (hx, f) in enumerate(steps):
        hx = Hex(*hx)
        f %= 6
        gap_sides, turn_cost = _step_shape(i, here, face, hx, f, gap_sides)
        yield i, here, hx, f, turn_cost
        here, face = hx, f


def path_cost(start: Hex, facing: int, steps: Sequence[tuple[Hex, int]], allowance: int, ground: PathGround) -> Path:
    """Price an explicit path of a one-hex figure over ``ground`` (FTC 5, 5.1.2, 5.2, 5.3) without checking it
    against the allowance.

    Raises ``IllegalMove`` when a step is neither a move to an adjacent hex nor a one-side turn in place, or
    enters a hex the figure may not enter (off the map, impassable terrain, a blocked hex).
    """
    terrain, mode, occupied, impassable = ground.terrain, ground.mode, ground.occupied, ground.impassable
    g = _grid(terrain)
    table = g.mode(mode)
    if g.cell(start) < 0:
        raise IllegalMove(f"the figure stands at {start}, which is not on the map")
    zones = ground.zones or {}
    moved = occ_extra = fx = sum_pen = 0
    max_pen = _start_penalty(terrain, start, mode)
    escapes: list[tuple[int, frozenset[str]]] = []
    for i, here, hx, _, turn_cost in _walk(start, facing, steps):
        fx += turn_cost
        if hx == here:
            continue
        cell = g.cell(hx)
        if cell < 0:
            raise IllegalMove(f"step {i + 1} leaves the map at {hx}; choose a hex on the map")
        if table[cell] == _WALL:
            raise IllegalMove(
                f"step {i + 1} enters {hx}, which is impassable for a figure moving by {mode}; go around it"
            )
        if hx in impassable:
            raise IllegalMove(f"step {i + 1} enters {hx}, which this figure may not pass; go around it")
        left = zones.get(here, _NO_ZONE) - zones.get(hx, _NO_ZONE)
        if left:
            escapes.append((i, left))
        moved += 1
        if hx in occupied and hx != start:
            occ_extra += OCCUPIED_EXTRA
        max_pen = max(max_pen, table[cell])
        sum_pen += table[cell]
    raw = sum_pen if ground.per_hex_terrain else max_pen
    # FTC 5.1.2's one-hex minimum: under the per-hex option it can only ever rescue a single step
    applied = raw if ground.per_hex_terrain and moved > 1 else _applied(raw, allowance)
    return Path(
        start, facing % 6, tuple((Hex(*h), f % 6) for h, f in steps), moved, applied, occ_extra, fx, tuple(escapes)
    )


def turn_cost(facing_from: int, facing_to: int, hexes_moved: int = 0) -> int:
    """Hexes spent turning from one facing to another over a move of ``hexes_moved`` hexes (FTC 5).

    One side is free in each gap, so turning completely around in place costs 2 and any turn is free
    along a move of two hexes or more.
    """
    return _facing_extra(turn_steps(facing_from, facing_to), hexes_moved + 1)
