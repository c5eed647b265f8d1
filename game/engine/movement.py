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

import tomllib
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from pathlib import Path as FilePath
from types import MappingProxyType
from typing import Any

from game.engine import ladder
from game.engine.hexgrid import DIRECTIONS, Hex, direction_to, turn_steps
from game.engine.terrain import TerrainMap

_DATA: dict[str, Any] = tomllib.loads(
    (FilePath(__file__).parent / "data" / "movement.toml").read_text("utf-8"))

POSTURES: tuple[str, ...] = ("standing", "crawling", "prone")
"""Postures a figure moves in (FTC 5 "Crawling and Rolling")."""

TABLE_1_MOVEMENT: Mapping[int, int] = MappingProxyType(
    {ladder.parse_level(name): int(hexes) for name, hexes in _DATA["table_1_movement"].items()})
"""Table 1: hexes per round by Speed level (Scale 0, standing, unencumbered)."""

TABLE_2_ENCUMBRANCE: Mapping[int, tuple[int, int, int, int]] = MappingProxyType(
    {ladder.parse_level(name): (int(row[0]), int(row[1]), int(row[2]), int(row[3]))
     for name, row in _DATA["table_2_encumbrance"]["rows"].items()})
"""Table 2: for each Strength (Scale 0), the maximum load in kg with no penalty, -1, -2 and -3."""

TERRAIN_SUGGESTIONS: Mapping[str, int] = MappingProxyType(
    {name: int(value) for name, value in _DATA["table_3_terrain"].items()})
"""Table 3: suggested movement penalties (as the book prints them, negative) for the GM's guide and Tiled."""

_SPEED_SCALE_FACTOR = Fraction(str(_DATA["speed_scale"]["factor_per_step"]))
_POSTURE_RULES: dict[str, tuple[int, int]] = {
    name: (int(rule["steps_lower"]), ladder.parse_level(str(rule["at_most"])))
    for name, rule in _DATA["posture"].items()}
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
    return float(_FAIR_LOAD * _LOAD_FACTOR ** steps)


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


def movement_allowance(speed: int, *, speed_scale: int = 0, posture: str = "standing", strength: int = 0,
                       strength_scale: int = 0, load_kg: float = 0.0) -> int:
    """Hexes a figure may move this round before terrain (FTC 5, 5.1.1; RULINGS.md "Movement phase").

    Table 1 by Speed (posture first lowers that Speed: FTC 5 says a crawler *has* a lower Speed), times
    1.2 per step of Speed Scale rounded to the nearest hex, at least 1 hex, then encumbrance (table 2),
    which never takes a moving figure below 1 hex. Returns 0 when the figure cannot move at all
    (more than eight times its maximum load). At Scale 0 this is exactly RULINGS.md's order.
    """
    hexes = Fraction(table_1_hexes(posture_speed(speed, posture))) * _SPEED_SCALE_FACTOR ** speed_scale
    allowance = max(1, _round_half_up(hexes))
    penalty = encumbrance_penalty(load_kg, strength, strength_scale)
    if penalty is None:
        return 0
    return max(1, allowance + penalty)


# --- the grid as flat tables ---------------------------------------------------------------------------

class _Grid:
    """Neighbour and penalty tables of one map, indexed by cell number ``row * width + col``."""

    def __init__(self, terrain: TerrainMap) -> None:
        self.terrain = terrain
        w, h = terrain.width, terrain.height
        self.hexes: list[Hex] = [terrain.hex_at(c, r) for r in range(h) for c in range(w)]
        self.index: dict[Hex, int] = {hx: i for i, hx in enumerate(self.hexes)}
        self.all_neighbours: list[tuple[int, ...]] = [
            tuple(j for d in DIRECTIONS if (j := self.index.get(Hex(hx.q + d.q, hx.r + d.r), -1)) >= 0)
            for hx in self.hexes]
        self._modes: dict[str, tuple[list[tuple[int, ...]], list[int], list[bool], tuple[int, ...]]] = {}

    def mode(self, mode: str) -> tuple[list[tuple[int, ...]], list[int], list[bool], tuple[int, ...]]:
        """(passable neighbours, penalty, passable per cell; cells with a penalty) for a movement mode."""
        tables = self._modes.get(mode)
        if tables is None:
            if mode not in self.terrain.penalty:
                raise IllegalMove(f"unknown movement mode {mode!r}: this map knows "
                                  f"{', '.join(sorted(self.terrain.penalty))}")
            # table 3 prints penalties as negative numbers; either sign means "this many hexes fewer"
            pen = [abs(int(x)) for x in self.terrain.penalty[mode].ravel()]
            ok = [bool(x) for x in self.terrain.passable[mode].ravel()]
            nbrs = [tuple(j for j in ns if ok[j]) for ns in self.all_neighbours]
            tables = (nbrs, pen, ok, tuple(i for i, p in enumerate(pen) if p))
            self._modes[mode] = tables
        return tables


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


def _cell_zones(g: _Grid, zones: Mapping[Hex, frozenset[str]] | None) -> dict[int, frozenset[str]]:
    if not zones:
        return {}
    index = g.index
    return {index[h]: z for h, z in zones.items() if z and h in index}


def path_cost(start: Hex, facing: int, steps: Sequence[tuple[Hex, int]], allowance: int, *,
              terrain: TerrainMap, mode: str = "walk", occupied: frozenset[Hex] = frozenset(),
              impassable: frozenset[Hex] = frozenset(), zones: Mapping[Hex, frozenset[str]] | None = None,
              per_hex_terrain: bool = False) -> Path:
    """Price an explicit path (FTC 5, 5.1.2, 5.2, 5.3) without checking it against the allowance.

    Raises ``IllegalMove`` when a step is neither a move to an adjacent hex nor a one-side turn in place, or
    enters a hex the figure may not enter (off the map, impassable terrain, a blocked hex).
    """
    g = _grid(terrain)
    _, pen, ok, _ = g.mode(mode)
    if start not in g.index:
        raise IllegalMove(f"the figure stands at {start}, which is not on the map")
    zones = zones or {}
    here, face = start, facing % 6
    moved = occ_extra = fx = 0
    gap_sides = 0
    max_pen = pen[g.index[start]]
    sum_pen = 0
    escapes: list[tuple[int, frozenset[str]]] = []
    for i, (hx, f) in enumerate(steps):
        hx = Hex(*hx)
        f %= 6
        if hx == here:
            if turn_steps(face, f) != 1:
                raise IllegalMove(f"step {i + 1} turns from facing {face} to {f} in place; turn one hex side "
                                  "at a time")
            gap_sides += 1
            if gap_sides > _FREE_SIDES:
                fx += _SIDE_COST
            face = f
            continue
        if f != face:
            raise IllegalMove(f"step {i + 1} moves to {hx} and changes facing at once; moving does not turn "
                              "a figure, so add a separate turn step")
        if direction_to(here, hx) is None:
            raise IllegalMove(f"step {i + 1} jumps from {here} to {hx}; a figure moves one adjacent hex at a "
                              "time")
        cell = g.index.get(hx)
        if cell is None:
            raise IllegalMove(f"step {i + 1} leaves the map at {hx}; choose a hex on the map")
        if not ok[cell]:
            raise IllegalMove(f"step {i + 1} enters {hx}, which is impassable for a figure moving by "
                              f"{mode}; go around it")
        if hx in impassable:
            raise IllegalMove(f"step {i + 1} enters {hx}, which this figure may not pass; go around it")
        left = zones.get(here, _NO_ZONE) - zones.get(hx, _NO_ZONE)
        if left:
            escapes.append((i, left))
        moved += 1
        gap_sides = 0
        if hx in occupied and hx != start:
            occ_extra += OCCUPIED_EXTRA
        max_pen = max(max_pen, pen[cell])
        sum_pen += pen[cell]
        here = hx
    raw = sum_pen if per_hex_terrain else max_pen
    # FTC 5.1.2's one-hex minimum: under the per-hex option it can only ever rescue a single step
    applied = raw if per_hex_terrain and moved > 1 else _applied(raw, allowance)
    return Path(start, facing % 6, tuple((Hex(*h), f % 6) for h, f in steps), moved, applied, occ_extra, fx,
                tuple(escapes))


def validate_path(start: Hex, facing: int, steps: Sequence[tuple[Hex, int]], allowance: int, *,
                  terrain: TerrainMap, mode: str = "walk", occupied: frozenset[Hex] = frozenset(),
                  impassable: frozenset[Hex] = frozenset(), zones: Mapping[Hex, frozenset[str]] | None = None,
                  per_hex_terrain: bool = False) -> Path:
    """Check a player's explicit path and price it (FTC 5, 5.1, 5.2, 5.3); the battle's one legality check.

    Raises ``IllegalMove`` when a step is illegal, the move costs more than the allowance, or it ends in an
    occupied hex.
    """
    p = path_cost(start, facing, steps, allowance, terrain=terrain, mode=mode, occupied=occupied,
                  impassable=impassable, zones=zones, per_hex_terrain=per_hex_terrain)
    if p.cost > allowance:
        raise IllegalMove(
            f"this move costs {p.cost} hexes ({p.hexes_moved} moved, {p.terrain_penalty} terrain, "
            f"{p.occupied_extra} for occupied hexes, {p.facing_extra} for turning) but the figure may move "
            f"only {allowance}; shorten the path or turn less")
    if p.end != start and p.end in occupied:
        raise IllegalMove(f"the move ends in {p.end}, which another figure occupies; end in a free hex")
    return p


# --- the search ----------------------------------------------------------------------------------------

_BIG = 1 << 30
_BLOCK = -_BIG


def _search(nbrs: list[tuple[int, ...]], pen: list[int], pen_cells: tuple[int, ...], s: int, budget: int,
            level: int, per_hex: bool, allowance: int, occ: set[int], blocked: set[int],
            zc: dict[int, frozenset[str]], nstates: int,
            out: list[tuple[int, int, int, int]], base: int, applied: int) -> set[int]:
    """One search by cost layers over states (cell, k) with k = min(hexes moved, 2).

    Labels are appended to ``out`` as (state, total cost, escapes, parent label); per state a label is kept
    only if it has fewer escapes than every cheaper one (a Pareto front of (escapes, cost)).
    Returns the penalties of cells refused because they exceed ``level``.
    """
    # Most cells cost exactly one hex; only the few "special" ones are looked up in the hot loop:
    # value > 0 is the cost of entering, value < 0 is -penalty of a cell above this level, _BLOCK a wall.
    special: dict[int, int] = {}
    for v in pen_cells:
        pv = pen[v]
        if per_hex:
            special[v] = 1 + pv
        elif pv > level:
            special[v] = -pv
    for v in occ:
        w = special.get(v, 1)
        if w > 0:
            special[v] = w + OCCUPIED_EXTRA
    for v in blocked:
        special[v] = _BLOCK
    buckets: list[list[tuple[int, int, int]]] = [[] for _ in range(budget + 1)]
    best = [_BIG] * nstates
    refused: set[int] = set()
    buckets[0].append((s * 3, 0, -1))
    empty = _NO_ZONE
    append = out.append
    get_special = special.get
    get_zone = zc.get
    for c in range(budget + 1):
        for state, esc, par in buckets[c]:
            if esc >= best[state]:
                continue
            best[state] = esc
            lab = base + len(out)
            append((state, c + applied, esc, par))
            u = state // 3
            nk = 2 if state - u * 3 else 1
            zu = get_zone(u)
            for v in nbrs[u]:
                w = get_special(v, 1)
                if w < 0:
                    if w != _BLOCK:
                        refused.add(-w)
                    continue
                nc = c + w
                if nc > budget:
                    # FTC 5.1.2 under the per-hex option: a single step is always possible; it ends the move
                    if per_hex and nk == 1 and allowance >= 1 and v not in occ:
                        nc = budget
                    else:
                        continue
                ne = esc
                if zu is not None and zu - get_zone(v, empty):
                    ne += 1
                nstate = v * 3 + nk
                if ne < best[nstate]:
                    buckets[nc].append((nstate, ne, lab))
    return refused


class Reach:
    """Where a figure can go this move and how (FTC 5, 5.1.2, 5.2, 5.3); built by ``reachable``.

    For every reachable end hex the preferred path is the one with the fewest escape contests, then the
    lowest cost.
    """

    def __init__(self, grid: _Grid, start: Hex, facing: int, allowance: int,
                 labels: list[tuple[int, int, int, int]], occ: set[int], settings: dict[str, Any]) -> None:
        self._g = grid
        self.start = start
        self.facing = facing
        self.allowance = allowance
        self._labels = labels
        self._settings = settings
        self._start_cell = grid.index[start]
        # per cell: list of label indices ending there (any k), for hexes where the figure may stop
        # without a wanted facing the figure keeps its own (no turning cost), so the best label wins
        plain: dict[int, tuple[int, int, int, int]] = {}
        get = plain.get
        for i, (state, cost, esc, _par) in enumerate(labels):
            cell = state // 3
            old = get(cell)
            if old is None or esc < old[0] or (esc == old[0] and cost < old[1]):
                plain[cell] = (esc, cost, i, facing)
        for cell in occ:
            plain.pop(cell, None)
        self._plain = plain
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
        cell = self._g.index.get(h)
        if cell is None or cell not in self._plain:
            return None
        if facing is None:
            return self._plain[cell]
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
        hx = self._g.hexes
        return frozenset([hx[c] for c in self._plain])

    def __contains__(self, h: object) -> bool:
        return isinstance(h, tuple) and self._best(Hex(*h), None) is not None

    def can_reach(self, h: Hex, facing: int | None = None) -> bool:
        """Whether the figure may end in ``h`` (with ``facing``, when given) this move (FTC 5)."""
        return self._best(h, facing) is not None

    def _need(self, h: Hex, facing: int | None) -> tuple[int, int, int, int]:
        b = self._best(h, facing)
        if b is None:
            with_facing = "" if facing is None else f" facing {facing % 6}"
            raise IllegalMove(f"the figure at {self.start} cannot reach {h}{with_facing} this move "
                              f"(allowance {self.allowance}); pick a highlighted hex")
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
        hexes = [self._g.hexes[c] for c in cells[1:]]
        steps = _with_turns(self.start, self.facing, f, hexes)
        p = path_cost(self.start, self.facing, steps, self.allowance, **self._settings)
        return p

    def escapes(self, h: Hex) -> tuple[tuple[int, frozenset[str]], ...]:
        """The escape contests along the preferred path to ``h``: (step index, ids of the stoppers)."""
        return self.path(h).escapes

    def band(self, h: Hex) -> str:
        """"free" when the preferred path to ``h`` needs no escape contest, else "escape" (FTC 5.3)."""
        return "free" if self._need(h, None)[0] == 0 else "escape"


def _with_turns(start: Hex, facing: int, end_facing: int,
                hexes: Sequence[Hex]) -> tuple[tuple[Hex, int], ...]:
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


def reachable(start: Hex, facing: int, allowance: int, *, terrain: TerrainMap, mode: str = "walk",
              occupied: frozenset[Hex] = frozenset(), impassable: frozenset[Hex] = frozenset(),
              zones: Mapping[Hex, frozenset[str]] | None = None, per_hex_terrain: bool = False) -> Reach:
    """Every hex and facing a figure can end its move with, and the preferred path to each (FTC 5-5.3).

    ``occupied``: hexes with other figures (passable at +1, never an end); ``impassable``: hexes this mover
    may not enter (e.g. enemies that would stop him); ``zones``: for each hex, the ids of the enemies that
    would stop this mover and whose zone of control covers it. ``allowance`` comes from
    ``movement_allowance`` (terrain is applied here). With ``per_hex_terrain`` (rule option) entering a
    hex costs 1 + its penalty instead of the largest-penalty rule.
    """
    g = _grid(terrain)
    nbrs, pen, _ok, pen_cells = g.mode(mode)
    s = g.index.get(start)
    if s is None:
        raise IllegalMove(f"the figure stands at {start}, which is not on the map")
    facing %= 6
    index = g.index
    occ = {index[h] for h in occupied if h in index and h != start}
    blocked = {index[h] for h in impassable if h in index and h != start}
    zc = _cell_zones(g, zones)
    nstates = 3 * len(g.hexes)
    labels: list[tuple[int, int, int, int]] = []
    a = max(0, allowance)
    settings: dict[str, Any] = {"terrain": terrain, "mode": mode, "occupied": occupied,
                                "impassable": impassable, "zones": zones, "per_hex_terrain": per_hex_terrain}
    if per_hex_terrain:
        _search_into(labels, nbrs, pen, pen_cells, s, a, _BIG, True, a, occ, blocked, zc, nstates, 0)
        return Reach(g, start, facing, a, labels, occ, settings)
    level = pen[s]
    while True:
        capped = level >= a - 1
        lvl = _BIG if capped else level
        budget = (1 if a >= 1 else 0) if capped else a - level
        applied = _applied(level, a) if not capped else max(0, a - 1)
        refused = _search_into(labels, nbrs, pen, pen_cells, s, budget, lvl, False, a, occ, blocked, zc,
                               nstates, applied)
        higher = [p for p in refused if p > level]
        if capped or not higher:
            break
        level = min(higher)
    return Reach(g, start, facing, a, labels, occ, settings)


def _search_into(labels: list[tuple[int, int, int, int]], nbrs: list[tuple[int, ...]], pen: list[int],
                 pen_cells: tuple[int, ...], s: int,
                 budget: int, level: int, per_hex: bool, allowance: int, occ: set[int], blocked: set[int],
                 zc: dict[int, frozenset[str]], nstates: int, applied: int) -> set[int]:
    out: list[tuple[int, int, int, int]] = []
    base = len(labels)
    refused = _search(nbrs, pen, pen_cells, s, budget, level, per_hex, allowance, occ, blocked, zc, nstates,
                      out, base, applied)
    labels.extend(out)
    return refused


def turn_cost(facing_from: int, facing_to: int, hexes_moved: int = 0) -> int:
    """Hexes spent turning from one facing to another over a move of ``hexes_moved`` hexes (FTC 5).

    One side is free in each gap, so turning completely around in place costs 2 and any turn is free
    along a move of two hexes or more.
    """
    return _facing_extra(turn_steps(facing_from, facing_to), hexes_moved + 1)
