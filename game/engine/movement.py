"""Movement: allowance, facing costs, terrain, occupied hexes and reachable hexes (FTC 5, 5.1, 5.2, 5.3).

The numbers come from ``data/movement.toml`` (tables 1, 2 and 3); this module holds the formulas.

How a move is priced (RULINGS.md "Facing, zone of control, reach" and "Movement phase"):

- every hex entered costs one hex; entering a hex occupied by another figure costs one more (FTC 5.2);
- moving never changes facing; in every *gap* (before the first hex, between two hexes, after the last)
  one hex side of turning is free and each further side costs one hex (FTC 5 "Changing Facing");
- terrain: the allowance is reduced by the largest penalty among the hexes the figure starts in or enters
  (FTC 5.1.2), never below one hex; rule option ``per_hex_terrain``: entering a hex costs 1 + its penalty.
  Both are expressed as one number, the *terrain penalty applied*, capped at ``allowance - 1`` so that a
  single step is always possible for a figure that can move at all;
- a move is legal when hexes moved + occupied extras + facing extras + terrain applied <= allowance.

Zones of control (FTC 5.2-5.3) are a predicate inside the search, as in Battle for Wesnoth: entering a zone
is free, every step that leaves the zone of a stopping enemy is one *escape contest*. Among the legal ways
to reach a hex the search prefers the fewest escape contests, then the lowest cost. The same code prices a
path the player drew (``validate_path``), so highlights, the AI and validation agree (DESIGN.md rule 3).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from math import floor
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np

from game.engine import ladder
from game.engine.datafiles import read_table
from game.engine.hexgrid import DIRECTIONS, Hex, direction_to, turn_steps
from game.engine.terrain import TerrainMap

_DATA: Mapping[str, Any] = read_table("movement.toml")

POSTURES: tuple[str, ...] = ("standing", "crawling", "prone")
"""Postures a figure moves in (FTC 5 "Crawling and Rolling")."""

TABLE_1_MOVEMENT: Mapping[int, int] = MappingProxyType(
    {ladder.parse_level(name): int(hexes) for name, hexes in _DATA["table_1_movement"].items()}
)
"""Table 1: hexes per round by Speed level (Scale 0, standing, unencumbered)."""

TABLE_2_ENCUMBRANCE: Mapping[int, tuple[int, int, int, int]] = MappingProxyType(
    {
        ladder.parse_level(name): (int(row[0]), int(row[1]), int(row[2]), int(row[3]))
        for name, row in _DATA["table_2_encumbrance"]["rows"].items()
    }
)
"""Table 2: for each Strength (Scale 0), the maximum load in kg with no penalty, -1, -2 and -3."""

TERRAIN_SUGGESTIONS: Mapping[str, int] = MappingProxyType(
    {name: int(value) for name, value in _DATA["table_3_terrain"].items()}
)
"""Table 3: suggested movement penalties (as the book prints them, negative) for the GM's guide and Tiled."""

_SPEED_SCALE_FACTOR = Fraction(str(_DATA["speed_scale"]["factor_per_step"]))
_POSTURE_RULES: dict[str, tuple[int, int]] = {
    name: (int(rule["steps_lower"]), ladder.parse_level(str(rule["at_most"])))
    for name, rule in _DATA["posture"].items()
}
_ENC = _DATA["table_2_encumbrance"]
_FAIR_LOAD = Fraction(str(_ENC["fair_max_load_kg"]))
_LOAD_FACTOR = Fraction(str(_ENC["factor_per_step"]))
_LOAD_THRESHOLDS: tuple[tuple[int, int], ...] = tuple((int(m), int(p)) for m, p in _ENC["thresholds"])
_CANNOT_MOVE_ABOVE = int(_ENC["cannot_move_above"])
_FREE_SIDES = int(_DATA["facing"]["free_sides_per_gap"])
_SIDE_COST = int(_DATA["facing"]["cost_per_extra_side"])
OCCUPIED_EXTRA: int = int(_DATA["occupied"]["extra_cost"])
"""FTC 5.2: extra hexes for moving through a hex occupied by another figure."""

_NO_ZONE: frozenset[str] = frozenset()
_V = TypeVar("_V")


class IllegalMove(ValueError):
    """A move that the rules of FTC 5 do not allow; the message says what is wrong and how to fix it."""


# --- allowance (FTC 5, table 1; 5.1.1, table 2) ------------------------------------------------------


def _round_half_up(x: Fraction) -> int:
    return floor(x + Fraction(1, 2))


def table_1_hexes(speed: int) -> int:
    """Table 1 (FTC 5): hexes per round for a Speed level, Scale 0.

    Beyond the printed rows the table is continued linearly (one hex per step of Speed, as inside the
    table): Legendary moves 9, Legendary+1 10, Terrible-1 1; never fewer than 1.
    """
    lo, hi = min(TABLE_1_MOVEMENT), max(TABLE_1_MOVEMENT)
    if speed in TABLE_1_MOVEMENT:
        return TABLE_1_MOVEMENT[speed]
    if speed > hi:
        slope = TABLE_1_MOVEMENT[hi] - TABLE_1_MOVEMENT[hi - 1]
        return TABLE_1_MOVEMENT[hi] + slope * (speed - hi)
    slope = TABLE_1_MOVEMENT[lo + 1] - TABLE_1_MOVEMENT[lo]
    return max(1, TABLE_1_MOVEMENT[lo] - slope * (lo - speed))


def posture_speed(speed: int, posture: str = "standing") -> int:
    """The Speed a figure moves with in a posture (FTC 5 "Crawling and Rolling").

    Crawling: three steps lower, at most Mediocre; lying down ("prone"): five steps lower, at most Poor.
    """
    if posture == "standing":
        return speed
    if posture not in _POSTURE_RULES:
        raise IllegalMove(f"unknown posture {posture!r}: use one of {', '.join(POSTURES)}")
    lower, at_most = _POSTURE_RULES[posture]
    return min(speed - lower, at_most)


def max_load_kg(strength: int, strength_scale: int = 0) -> float:
    """The most a figure carries without an encumbrance penalty (FTC 5.1.1, table 2).

    The load goes up or down by 1.5 per step of Strength away from Fair and per step of Scale away from 0,
    so only the sum of the two counts. Where table 2 has a row for that sum, its printed value is used
    (the book rounds 10 x 1.5^4 = 50.6 kg to 50 kg, which no single rounding rule reproduces together with
    the other rows); beyond the table the formula 10 kg x 1.5^steps is used unrounded.
    """
    steps = strength + strength_scale
    if steps in TABLE_2_ENCUMBRANCE:
        return float(TABLE_2_ENCUMBRANCE[steps][0])
    return float(_FAIR_LOAD * _LOAD_FACTOR**steps)


def load_thresholds_kg(strength: int, strength_scale: int = 0) -> tuple[float, ...]:
    """The four columns of table 2 for a figure: max load with no penalty, with -1, -2 and -3 (FTC 5.1.1)."""
    base = max_load_kg(strength, strength_scale)
    return (base, *(base * m for m, _ in _LOAD_THRESHOLDS[1:]), base * _CANNOT_MOVE_ABOVE)


def encumbrance_penalty(load_kg: float, strength: int, strength_scale: int = 0) -> int | None:
    """Movement penalty for carrying ``load_kg`` (FTC 5.1.1, table 2): 0, -1, -2, -3, or None = cannot move.

    More than the maximum load gives -1, more than twice -2, more than four times -3, more than eight
    times the figure cannot move.
    """
    if load_kg < 0:
        raise IllegalMove(f"a load cannot be negative ({load_kg} kg); give the weight carried in kg")
    base = max_load_kg(strength, strength_scale)
    if load_kg > base * _CANNOT_MOVE_ABOVE:
        return None
    penalty = 0
    for multiple, value in _LOAD_THRESHOLDS:
        if load_kg > base * multiple:
            penalty = value
    return penalty


def movement_allowance(
    speed: int,
    *,
    speed_scale: int = 0,
    posture: str = "standing",
    strength: int = 0,
    strength_scale: int = 0,
    load_kg: float = 0.0,
) -> int:
    """Hexes a figure may move this round before terrain (FTC 5, 5.1.1; RULINGS.md "Movement phase").

    Table 1 by Speed (posture first lowers that Speed: FTC 5 says a crawler *has* a lower Speed), times
    1.2 per step of Speed Scale rounded to the nearest hex, at least 1 hex, then encumbrance (table 2),
    which never takes a moving figure below 1 hex. Returns 0 when the figure cannot move at all
    (more than eight times its maximum load). At Scale 0 this is exactly RULINGS.md's order.
    """
    hexes = Fraction(table_1_hexes(posture_speed(speed, posture))) * _SPEED_SCALE_FACTOR**speed_scale
    allowance = max(1, _round_half_up(hexes))
    penalty = encumbrance_penalty(load_kg, strength, strength_scale)
    if penalty is None:
        return 0
    return max(1, allowance + penalty)


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


def path_cost(
    start: Hex,
    facing: int,
    steps: Sequence[tuple[Hex, int]],
    allowance: int,
    *,
    terrain: TerrainMap,
    mode: str = "walk",
    occupied: frozenset[Hex] = frozenset(),
    impassable: frozenset[Hex] = frozenset(),
    zones: Mapping[Hex, frozenset[str]] | None = None,
    per_hex_terrain: bool = False,
) -> Path:
    """Price an explicit path (FTC 5, 5.1.2, 5.2, 5.3) without checking it against the allowance.

    Raises ``IllegalMove`` when a step is neither a move to an adjacent hex nor a one-side turn in place, or
    enters a hex the figure may not enter (off the map, impassable terrain, a blocked hex).
    """
    g = _grid(terrain)
    table = g.mode(mode)
    if g.cell(start) < 0:
        raise IllegalMove(f"the figure stands at {start}, which is not on the map")
    zones = zones or {}
    here, face = start, facing % 6
    moved = occ_extra = fx = 0
    gap_sides = 0
    max_pen = _start_penalty(terrain, start, mode)
    sum_pen = 0
    escapes: list[tuple[int, frozenset[str]]] = []
    for i, (hx, f) in enumerate(steps):
        hx = Hex(*hx)
        f %= 6
        gap_sides, turn_cost = _step_shape(i, here, face, hx, f, gap_sides)
        fx += turn_cost
        if hx == here:
            face = f
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
        here = hx
    raw = sum_pen if per_hex_terrain else max_pen
    # FTC 5.1.2's one-hex minimum: under the per-hex option it can only ever rescue a single step
    applied = raw if per_hex_terrain and moved > 1 else _applied(raw, allowance)
    return Path(
        start, facing % 6, tuple((Hex(*h), f % 6) for h, f in steps), moved, applied, occ_extra, fx, tuple(escapes)
    )


def validate_path(
    start: Hex,
    facing: int,
    steps: Sequence[tuple[Hex, int]],
    allowance: int,
    *,
    terrain: TerrainMap,
    mode: str = "walk",
    occupied: frozenset[Hex] = frozenset(),
    impassable: frozenset[Hex] = frozenset(),
    zones: Mapping[Hex, frozenset[str]] | None = None,
    per_hex_terrain: bool = False,
    size: int = 1,
) -> Path:
    """Check a player's explicit path and price it (FTC 5, 5.1, 5.2, 5.3); the battle's one legality check.

    Raises ``IllegalMove`` when a step is illegal, the move costs more than the allowance, or it ends in an
    occupied hex. A figure of ``size`` 3 or 7 is priced by ``large_path_cost`` (occupied hexes block it).
    """
    p = (
        path_cost(
            start,
            facing,
            steps,
            allowance,
            terrain=terrain,
            mode=mode,
            occupied=occupied,
            impassable=impassable,
            zones=zones,
            per_hex_terrain=per_hex_terrain,
        )
        if size == 1
        else large_path_cost(
            start,
            facing,
            size,
            steps,
            allowance,
            terrain=terrain,
            mode=mode,
            blocked=occupied | impassable,
            zones=zones,
            per_hex_terrain=per_hex_terrain,
        )
    )
    if p.cost > allowance:
        raise IllegalMove(
            f"this move costs {p.cost} hexes ({p.hexes_moved} moved, {p.terrain_penalty} terrain, "
            f"{p.occupied_extra} for occupied hexes, {p.facing_extra} for turning) but the figure may move "
            f"only {allowance}; shorten the path or turn less"
        )
    if p.end != start and p.end in occupied:
        raise IllegalMove(f"the move ends in {p.end}, which another figure occupies; end in a free hex")
    return p


# --- the search ----------------------------------------------------------------------------------------

_BIG = 1 << 30
"""Above any cost, escape count or label index. A label's end key ``(escapes * _BIG + cost) * _BIG + label``
orders labels by fewest escapes, then cost, then the earliest found (which wins ties), in one comparison."""
_BLOCK = -_BIG
"""Overlay entry of a hex this mover may not enter (``impassable``); other entries are occupied-hex extras."""


def _map_bound(pen: list[int], allowance: int) -> int:
    """An allowance larger than the map is the map: no move costs more than every state of every hex entered
    at the dearest price (step, passing a figure, turning, terrain), so the searches stop there."""
    if allowance <= len(pen):
        return allowance
    costs = [p for p in pen if p < _WALL]
    return min(allowance, 18 * len(costs) * (3 + OCCUPIED_EXTRA + max(costs, default=0)) + 6)


def _search(
    pen: list[int],
    offsets: tuple[int, ...],
    s: int,
    budget: int,
    level: int,
    overlay: dict[int, int],
    zc: dict[int, frozenset[str]],
    out: list[tuple[int, int, int, int]],
    applied: int,
    ends: dict[int, int],
) -> set[int]:
    """One search by cost layers over states (cell, k) with k = min(hexes moved, 2), entering only cells
    whose penalty is at most ``level`` (FTC 5.1.2's largest-penalty rule; ``reachable`` runs one per level).

    Labels are appended to ``out`` as (3 * cell + k, cost + ``applied``, escapes, parent index into
    ``out``); per state a label is kept only if it has fewer escapes than every cheaper one (a Pareto front
    of (escapes, cost)). ``ends`` keeps per cell the end key (see ``_BIG``) of its preferred label.
    Returns penalties of cells refused for exceeding ``level``: at least the smallest such penalty, the
    only one ``reachable`` needs.
    Work is proportional to the states reached: the map's penalty table is shared and read only for the
    cells the search looks at, the few occupied or blocked cells sit in ``overlay``, and the fewest
    escapes per state live in one dict per k.
    """
    buckets: list[list[tuple[int, int, int, int]]] = [[] for _ in range(budget + 2)]
    fewest: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
    refused: set[int] = set()
    lowest = level + 1  # once refused, no other penalty can matter
    buckets[0].append((s, 0, 0, -1))
    append = out.append
    ends_get = ends.get
    get_zone = zc.get
    big = _BIG
    wall = _WALL
    block = _BLOCK
    big2 = big * big
    for c in range(budget + 1):
        c1 = c + 1
        frontier = c1 > budget  # every step from here costs too much
        push = buckets[c1].append
        cost = c + applied
        cost_key = cost * big
        for u, k, esc, par in buckets[c]:
            seen = fewest[k]
            if esc >= seen.get(u, big):
                continue
            seen[u] = esc
            lab = len(out)
            append((u * 3 + k, cost, esc, par))
            key = esc * big2 + cost_key + lab
            old = ends_get(u)
            if old is None or key < old:
                ends[u] = key
            if frontier:
                if lowest not in refused:
                    for d in offsets:
                        p = pen[u + d]
                        if level < p != wall and overlay.get(u + d) != block:
                            refused.add(p)
                continue
            nk = 1 if k == 0 else 2
            next_seen = fewest[nk].get
            zu = get_zone(u)
            for d in offsets:
                v = u + d
                p = pen[v]
                if p > level:
                    # a later search at that level may enter it; walls and blocked hexes never
                    if p != wall and overlay.get(v) != block:
                        refused.add(p)
                    continue
                fewer = next_seen(v, big)
                if esc >= fewer:
                    continue
                ne = esc
                if zu:
                    zv = get_zone(v)
                    if zv is None or not zu <= zv:
                        ne += 1
                        if ne >= fewer:
                            continue
                if v in overlay:
                    x = overlay[v]
                    if x != block and c1 + x <= budget:
                        buckets[c1 + x].append((v, nk, ne, lab))
                else:
                    push((v, nk, ne, lab))
    return refused


def _search_per_hex(
    pen: list[int],
    offsets: tuple[int, ...],
    s: int,
    budget: int,
    overlay: dict[int, int],
    zc: dict[int, frozenset[str]],
    out: list[tuple[int, int, int, int]],
    ends: dict[int, int],
) -> None:
    """``_search`` under the rule option ``per_hex_terrain``: entering a cell costs 1 + its penalty."""
    buckets: list[list[tuple[int, int, int, int]]] = [[] for _ in range(budget + 1)]
    fewest: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
    buckets[0].append((s, 0, 0, -1))
    append = out.append
    ends_get = ends.get
    get_zone = zc.get
    big = _BIG
    wall = _WALL
    for c in range(budget + 1):
        for u, k, esc, par in buckets[c]:
            seen = fewest[k]
            if esc >= seen.get(u, big):
                continue
            seen[u] = esc
            lab = len(out)
            append((u * 3 + k, c, esc, par))
            key = ((esc * big + c) * big) + lab
            old = ends_get(u)
            if old is None or key < old:
                ends[u] = key
            nk = 1 if k == 0 else 2
            next_seen = fewest[nk].get
            zu = get_zone(u)
            for d in offsets:
                v = u + d
                p = pen[v]
                if p == wall:
                    continue
                nc = c + 1 + p
                x = overlay.get(v)
                if x is not None:
                    if x == _BLOCK:
                        continue
                    nc += x
                if nc > budget:
                    # FTC 5.1.2: a single step into a free hex is always possible; it ends the move
                    if k == 0 and budget >= 1 and x is None:
                        nc = budget
                    else:
                        continue
                ne = esc
                if zu:
                    zv = get_zone(v)
                    if zv is None or not zu <= zv:
                        ne += 1
                if ne < next_seen(v, big):
                    buckets[nc].append((v, nk, ne, lab))


class Reach:
    """Where a figure can go this move and how (FTC 5, 5.1.2, 5.2, 5.3); built by ``reachable``.

    For every reachable end hex the preferred path is the one with the fewest escape contests, then the
    lowest cost.
    """

    def __init__(
        self,
        grid: _Grid,
        start: Hex,
        facing: int,
        allowance: int,
        labels: list[tuple[int, int, int, int]],
        ends: dict[int, int],
        occ: Iterable[int],
        settings: dict[str, Any],
    ) -> None:
        self._g = grid
        self.start = start
        self.facing = facing
        self.allowance = allowance
        self._labels = labels
        self._settings = settings
        # per cell where the figure may stop, the end key (see _BIG) of its best label: without a wanted facing the
        # figure keeps its own (no turning cost), so the label with fewest escapes, then cost, wins
        for cell in occ:
            ends.pop(cell, None)
        self._plain = ends
        self._by_cell_cache: dict[int, list[int]] | None = None

    @property
    def _by_cell(self) -> dict[int, list[int]]:
        """Labels per end cell, built on the first question about a particular facing."""
        if self._by_cell_cache is None:
            by_cell: dict[int, list[int]] = {}
            plain = self._plain
            for i, lab in enumerate(self._labels):
                cell = lab[0] // 3
                if cell in plain:
                    by_cell.setdefault(cell, []).append(i)
            self._by_cell_cache = by_cell
        return self._by_cell_cache

    def _best(self, h: Hex, facing: int | None) -> tuple[int, int, int, int] | None:
        """(escapes, total cost, label, end facing) of the preferred way to end in ``h``."""
        cell = self._g.cell(h)
        if cell not in self._plain:
            return None
        if facing is None:
            rest, lab = divmod(self._plain[cell], _BIG)
            esc, cost = divmod(rest, _BIG)
            return esc, cost, lab, self.facing
        best: tuple[int, int, int, int] | None = None
        wanted = range(6) if facing is None else (facing % 6,)
        for i in self._by_cell[cell]:
            state, cost, esc, _ = self._labels[i]
            k = state % 3
            for f in wanted:
                total = cost + _facing_extra(turn_steps(self.facing, f), k + 1)
                if total > self.allowance:
                    continue
                cand = (esc, total, i, f)
                if best is None or cand[:2] < best[:2]:
                    best = cand
        return best

    def hexes(self) -> frozenset[Hex]:
        """Every hex the figure may end its move in; never one occupied by another figure (FTC 5.2)."""
        hx = self._g.hex
        return frozenset([hx(c) for c in self._plain])

    def __contains__(self, h: object) -> bool:
        return isinstance(h, tuple) and self._best(Hex(*h), None) is not None

    def can_reach(self, h: Hex, facing: int | None = None) -> bool:
        """Whether the figure may end in ``h`` (with ``facing``, when given) this move (FTC 5)."""
        return self._best(h, facing) is not None

    def _need(self, h: Hex, facing: int | None) -> tuple[int, int, int, int]:
        b = self._best(h, facing)
        if b is None:
            with_facing = "" if facing is None else f" facing {facing % 6}"
            raise IllegalMove(
                f"the figure at {self.start} cannot reach {h}{with_facing} this move "
                f"(allowance {self.allowance}); pick a highlighted hex"
            )
        return b

    def cost(self, h: Hex, facing: int | None = None) -> int:
        """Hexes of allowance the preferred path to ``h`` (ending with ``facing``) uses (FTC 5, 5.1.2, 5.2)."""
        return self._need(h, facing)[1]

    def facings(self, h: Hex) -> tuple[int, ...]:
        """The facings the figure may end with in ``h`` (FTC 5: the last side of turning is free)."""
        return tuple(f for f in range(6) if self._best(h, f) is not None)

    def path(self, h: Hex, facing: int | None = None) -> Path:
        """The preferred path to ``h``: fewest escape contests, then cheapest (FTC 5.3)."""
        _esc, _total, lab, f = self._need(h, facing)
        cells: list[int] = []
        i = lab
        while i >= 0:
            state, _c, _e, par = self._labels[i]
            cells.append(state // 3)
            i = par
        cells.reverse()
        hexes = [self._g.hex(c) for c in cells[1:]]
        steps = _with_turns(self.start, self.facing, f, hexes)
        p = path_cost(self.start, self.facing, steps, self.allowance, **self._settings)
        return p

    def escapes(self, h: Hex) -> tuple[tuple[int, frozenset[str]], ...]:
        """The escape contests along the preferred path to ``h``: (step index, ids of the stoppers)."""
        return self.path(h).escapes

    def band(self, h: Hex) -> str:
        """ "free" when the preferred path to ``h`` needs no escape contest, else "escape" (FTC 5.3)."""
        return "free" if self._need(h, None)[0] == 0 else "escape"


def _with_turns(start: Hex, facing: int, end_facing: int, hexes: Sequence[Hex]) -> tuple[tuple[Hex, int], ...]:
    """Spread the turning to ``end_facing`` over the gaps of a move: one free side per gap, the rest last."""
    sides = turn_steps(facing, end_facing)
    sign = 1 if (end_facing - facing) % 6 <= 3 else -1
    gaps = len(hexes) + 1
    per_gap = [min(_FREE_SIDES, max(0, sides - i * _FREE_SIDES)) for i in range(gaps)]
    per_gap[-1] += max(0, sides - _FREE_SIDES * gaps)
    steps: list[tuple[Hex, int]] = []
    f = facing
    where = start
    for gap in range(gaps):
        for _ in range(per_gap[gap]):
            f = (f + sign) % 6
            steps.append((where, f))
        if gap < len(hexes):
            where = hexes[gap]
            steps.append((where, f))
    return tuple(steps)


def reachable(
    start: Hex,
    facing: int,
    allowance: int,
    *,
    terrain: TerrainMap,
    mode: str = "walk",
    occupied: frozenset[Hex] = frozenset(),
    impassable: frozenset[Hex] = frozenset(),
    zones: Mapping[Hex, frozenset[str]] | None = None,
    per_hex_terrain: bool = False,
    size: int = 1,
) -> Reach:
    """Every hex and facing a figure can end its move with, and the preferred path to each (FTC 5-5.3).

    ``occupied``: hexes with other figures (passable at +1, never an end); ``impassable``: hexes this mover
    may not enter (e.g. enemies that would stop him); ``zones``: for each hex, the ids of the enemies that
    would stop this mover and whose zone of control covers it. ``allowance`` comes from
    ``movement_allowance`` (terrain is applied here). With ``per_hex_terrain`` (rule option) entering a
    hex costs 1 + its penalty instead of the largest-penalty rule. A figure of ``size`` 3 or 7 hexes
    (FTC 5) is searched by ``reachable_large``: occupied and impassable hexes both block it.
    """
    if size != 1:
        return reachable_large(
            start,
            facing,
            size,
            allowance,
            terrain=terrain,
            mode=mode,
            blocked=occupied | impassable,
            zones=zones,
            per_hex_terrain=per_hex_terrain,
        )
    g = _grid(terrain)
    pen = g.mode(mode)
    s = g.cell(start)
    if s < 0:
        raise IllegalMove(f"the figure stands at {start}, which is not on the map")
    facing %= 6
    # occupied hexes cost extra to pass (FTC 5.2); impassable ones (marked last, so they win) are refused
    occ = g.cells(zip(occupied, repeat(OCCUPIED_EXTRA)))
    occ.pop(s, None)
    overlay = occ.copy()
    overlay.update(g.cells(zip(impassable, repeat(_BLOCK))))
    overlay.pop(s, None)
    zc = _cell_zones(g, zones)
    labels: list[tuple[int, int, int, int]] = []
    ends: dict[int, int] = {}
    a = _map_bound(pen, max(0, allowance))
    settings: dict[str, Any] = {
        "terrain": terrain,
        "mode": mode,
        "occupied": occupied,
        "impassable": impassable,
        "zones": zones,
        "per_hex_terrain": per_hex_terrain,
    }
    offsets = g.offsets
    if per_hex_terrain:
        _search_per_hex(pen, offsets, s, a, overlay, zc, labels, ends)
        return Reach(g, start, facing, a, labels, ends, occ, settings)
    # FTC 5.1.2: the largest penalty among start and entered hexes reduces the allowance. One search per
    # penalty level met, from the start hex's upwards: the search at level L may enter only hexes with
    # penalty <= L and has allowance - L to spend; it reports the higher penalties it was refused.
    level = _start_penalty(terrain, start, mode)
    while True:
        capped = level >= a - 1
        lvl = _BIG if capped else level
        budget = (1 if a >= 1 else 0) if capped else a - level
        applied = _applied(level, a) if not capped else max(0, a - 1)
        refused = _search(pen, offsets, s, budget, lvl, overlay, zc, labels, applied, ends)
        higher = [p for p in refused if p > level]
        if capped or not higher:
            break
        level = min(higher)
    return Reach(g, start, facing, a, labels, ends, occ, settings)


def turn_cost(facing_from: int, facing_to: int, hexes_moved: int = 0) -> int:
    """Hexes spent turning from one facing to another over a move of ``hexes_moved`` hexes (FTC 5).

    One side is free in each gap, so turning completely around in place costs 2 and any turn is free
    along a move of two hexes or more.
    """
    return _facing_extra(turn_steps(facing_from, facing_to), hexes_moved + 1)


# --- large figures -------------------------------------------------------------------------------------
# FTC 5: "some creatures will be larger". A figure of 3 or 7 hexes (creatures.footprint) moves its whole
# footprint: every hex it covers must be on the map, passable for its mode and clear of every other figure
# (it passes through nobody); turning a 3-hex figure moves its hexes, so a turn is checked like a step. The
# terrain penalty is the largest among the hexes its footprint starts on or enters (FTC 5.1.2 read over
# the footprint); under the per-hex option every action costs the largest penalty among the hexes it newly
# covers (without the one-hex rescue). It leaves a zone of control when no hex of its footprint is in it
# any more. One-hex figures never come here: their search above stays as fast as it was.


def _body(size: int) -> Any:
    from game.engine.creatures import footprint  # creatures reads characters; imported late to stay light

    cache: dict[tuple[Hex, int], frozenset[Hex]] = {}

    def body(h: Hex, facing: int) -> frozenset[Hex]:
        key = (h, facing if size == 3 else 0)
        got = cache.get(key)
        if got is None:
            got = cache[key] = footprint(h, size, facing)
        return got

    return body


def _zone_set(zones: Mapping[Hex, frozenset[str]], cells: Iterable[Hex]) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for c in cells:
        z = zones.get(c)
        if z:
            out = out | z
    return out


def large_path_cost(
    start: Hex,
    facing: int,
    size: int,
    steps: Sequence[tuple[Hex, int]],
    allowance: int,
    *,
    terrain: TerrainMap,
    mode: str = "walk",
    blocked: frozenset[Hex] = frozenset(),
    zones: Mapping[Hex, frozenset[str]] | None = None,
    per_hex_terrain: bool = False,
) -> Path:
    """Price a large figure's path (FTC 5, 5.1.2, 5.2, 5.3; the section comment above); ``blocked``: the
    hexes of every other figure. ``IllegalMove`` names the step and the hex in the way."""
    g = _grid(terrain)
    table = g.mode(mode)
    body = _body(size)
    zones = zones or {}
    here, face = start, facing % 6
    cells = body(here, face)
    moved = fx = gap_sides = sum_pen = 0
    max_pen = max(_start_penalty(terrain, c, mode) for c in cells)
    escapes: list[tuple[int, frozenset[str]]] = []
    for i, (hx, f) in enumerate(steps):
        hx = Hex(*hx)
        f %= 6
        gap_sides, turn_cost = _step_shape(i, here, face, hx, f, gap_sides)
        fx += turn_cost
        if hx != here:
            moved += 1
        new = body(hx, f)
        pen = 0
        for c in new - cells:
            cell = g.cell(c)
            if cell < 0 or table[cell] == _WALL:
                raise IllegalMove(
                    f"step {i + 1} would put part of this {size}-hex figure on {c}, which it "
                    f"cannot enter by {mode}; it needs room for all its hexes, so go around"
                )
            if c in blocked:
                raise IllegalMove(
                    f"step {i + 1} would put part of this {size}-hex figure on {c}, where another "
                    "figure stands; a large figure passes through nobody, so go around"
                )
            pen = max(pen, table[cell])
        left = _zone_set(zones, cells) - _zone_set(zones, new)
        if left:
            escapes.append((i, left))
        max_pen = max(max_pen, pen)
        sum_pen += pen
        here, face, cells = hx, f, new
    applied = sum_pen if per_hex_terrain else _applied(max_pen, allowance)
    return Path(start, facing % 6, tuple((Hex(*h), f % 6) for h, f in steps), moved, applied, 0, fx, tuple(escapes))


class LargeReach(Reach):
    """Where a large figure can go this move and how (FTC 5, 5.1.2, 5.2, 5.3); the same questions as
    ``Reach`` (built by ``reachable`` with ``size`` 3 or 7), answered from its own search's labels."""

    def __init__(
        self,
        start: Hex,
        facing: int,
        allowance: int,
        size: int,
        labels: list[tuple[tuple[Hex, int, int], int, int, int]],
        ends: dict[tuple[Hex, int], tuple[int, int, int]],
        settings: dict[str, Any],
    ) -> None:
        # Reach's grid labels are not used: every question is answered below
        self.start = start
        self.facing = facing
        self.allowance = allowance
        self.size = size
        self._large_labels = labels
        self._ends = ends
        self._settings = settings

    def _best(self, h: Hex, facing: int | None) -> tuple[int, int, int, int] | None:
        """(escapes, cost, label, end facing) of the preferred way to end in ``h``; without a wanted facing
        the fewest escapes, then the cost, then keeping the figure's own facing decide."""
        wanted = range(6) if facing is None else (facing % 6,)
        best: tuple[int, int, int, int] | None = None
        for f in wanted:
            e = self._ends.get((h, f))
            if e is None:
                continue
            if best is None or (e[0], e[1], f != self.facing) < (best[0], best[1], best[3] != self.facing):
                best = (e[0], e[1], e[2], f)
        return best

    def hexes(self) -> frozenset[Hex]:
        """Every hex the figure's position (its centre, creatures.footprint) may end on."""
        return frozenset(h for h, _ in self._ends)

    def cost(self, h: Hex, facing: int | None = None) -> int:
        """Hexes of allowance the preferred path to ``h`` uses (FTC 5, 5.1.2)."""
        return self.path(h, facing).cost

    def facings(self, h: Hex) -> tuple[int, ...]:
        """The facings the figure may end with in ``h`` (FTC 5)."""
        return tuple(f for f in range(6) if (h, f) in self._ends)

    def path(self, h: Hex, facing: int | None = None) -> Path:
        """The preferred path to ``h``: fewest escape contests, then cheapest (FTC 5.3)."""
        lab = self._need(h, facing)[2]
        states: list[tuple[Hex, int]] = []
        while lab >= 0:
            (sh, sf, _), _c, _e, lab = self._large_labels[lab]
            states.append((sh, sf))
        states.reverse()
        return large_path_cost(self.start, self.facing, self.size, states[1:], self.allowance, **self._settings)

    def escapes(self, h: Hex) -> tuple[tuple[int, frozenset[str]], ...]:
        """The escape contests along the preferred path to ``h``: (step index, ids of the stoppers)."""
        return self.path(h).escapes

    def band(self, h: Hex) -> str:
        """ "free" when the preferred path to ``h`` needs no escape contest, else "escape" (FTC 5.3)."""
        return "free" if self._need(h, None)[0] == 0 else "escape"


def reachable_large(
    start: Hex,
    facing: int,
    size: int,
    allowance: int,
    *,
    terrain: TerrainMap,
    mode: str = "walk",
    blocked: frozenset[Hex] = frozenset(),
    zones: Mapping[Hex, frozenset[str]] | None = None,
    per_hex_terrain: bool = False,
) -> LargeReach:
    """Every position and facing a large figure can end its move with (FTC 5-5.3; section comment above):
    a search over (centre, facing, sides turned in this gap), fewest escapes then lowest cost, one search
    per terrain level as in ``reachable``."""
    g = _grid(terrain)
    table = g.mode(mode)
    body = _body(size)
    zones = zones or {}
    facing %= 6
    a = _map_bound(table, max(0, allowance))
    labels: list[tuple[tuple[Hex, int, int], int, int, int]] = []
    ends: dict[tuple[Hex, int], tuple[int, int, int]] = {}
    zone_cache: dict[frozenset[Hex], frozenset[str]] = {}

    def zone_of(cells: frozenset[Hex]) -> frozenset[str]:
        z = zone_cache.get(cells)
        if z is None:
            z = zone_cache[cells] = _zone_set(zones, cells)
        return z

    def search(level: int, budget: int, applied: int) -> set[int]:
        refused: set[int] = set()
        buckets: list[list[tuple[tuple[Hex, int, int], int, int]]] = [[] for _ in range(budget + 2)]
        fewest: dict[tuple[Hex, int, int], int] = {}
        buckets[0].append(((start, facing, 0), 0, -1))
        for c in range(budget + 1):
            for state, esc, par in buckets[c]:
                if esc >= fewest.get(state, _BIG):
                    continue
                fewest[state] = esc
                lab = len(labels)
                labels.append((state, c + applied, esc, par))
                h, f, t = state
                key = (esc, c + applied, lab)
                old = ends.get((h, f))
                if old is None or key < old:
                    ends[(h, f)] = key
                cells = body(h, f)
                zu = zone_of(cells)
                succ = [((Hex(h.q + d.q, h.r + d.r), f, 0), 1) for d in DIRECTIONS]
                turn = _SIDE_COST if t >= _FREE_SIDES else 0
                succ += [((h, (f + s) % 6, min(t + 1, _FREE_SIDES)), turn) for s in (1, 5)]
                for nstate, step in succ:
                    ncells = body(nstate[0], nstate[1])
                    pen = 0
                    for x in ncells - cells:
                        cell = g.cell(x)
                        if cell < 0 or table[cell] == _WALL or x in blocked:
                            pen = -1
                            break
                        pen = max(pen, table[cell])
                    if pen < 0:
                        continue
                    if per_hex_terrain:
                        step += pen
                    elif pen > level:
                        refused.add(pen)
                        continue
                    nc = c + step
                    if nc > budget:
                        continue
                    ne = esc + (1 if zu and not zu <= zone_of(ncells) else 0)
                    if ne < fewest.get(nstate, _BIG):
                        buckets[nc].append((nstate, ne, lab))
        return refused

    settings: dict[str, Any] = {
        "terrain": terrain,
        "mode": mode,
        "blocked": blocked,
        "zones": zones,
        "per_hex_terrain": per_hex_terrain,
    }
    if per_hex_terrain:
        search(_BIG, a, 0)
        return LargeReach(start, facing, a, size, labels, ends, settings)
    level = max(_start_penalty(terrain, c, mode) for c in body(start, facing))
    while True:
        capped = level >= a - 1
        budget = (1 if a >= 1 else 0) if capped else a - level
        applied = max(0, a - 1) if capped else _applied(level, a)
        higher = [p for p in search(_BIG if capped else level, budget, applied) if p > level]
        if capped or not higher:
            break
        level = min(higher)
    return LargeReach(start, facing, a, size, labels, ends, settings)
