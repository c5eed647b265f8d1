"""Large figures on the move (FTC 5: "some creatures will be larger"): paths and reach of a 3- or 7-hex
footprint.

A figure of 3 or 7 hexes (``creatures.footprint``) moves its whole footprint: every hex it covers must be
on the map, passable for its mode and clear of every other figure (it passes through nobody); turning a
3-hex figure moves its hexes, so a turn is checked like a step. The terrain penalty is the largest among
the hexes its footprint starts on or enters (FTC 5.1.2 read over the footprint); under the per-hex option
every action costs the largest penalty among the hexes it newly covers (without the one-hex rescue). It
leaves a zone of control when no hex of its footprint is in it any more. One-hex figures never come
here: their search (``game.engine.pathsearch``) stays as fast as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game.engine.hexgrid import DIRECTIONS, Hex
from game.engine.paths import (
    _FREE_SIDES,
    _SIDE_COST,
    _WALL,
    IllegalMove,
    Path,
    PathGround,
    _applied,
    _grid,
    _start_penalty,
    _walk,
)
from game.engine.pathsearch import (
    _BIG,
    Reach,
    map_bound,
    search_by_levels,
)

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
    start: Hex, facing: int, steps: Sequence[tuple[Hex, int]], allowance: int, ground: PathGround
) -> Path:
    """Price the path of a figure of ``ground.size`` hexes (FTC 5, 5.1.2, 5.2, 5.3; the section comment above),
    which may cover none of ``ground.blocked``. ``IllegalMove`` names the step and the hex in the way."""
    terrain, mode, size, blocked = ground.terrain, ground.mode, ground.size, ground.blocked
    g = _grid(terrain)
    table = g.mode(mode)
    body = _body(size)
    zones = ground.zones or {}
    cells = body(start, facing % 6)
    moved = fx = sum_pen = 0
    max_pen = max(_start_penalty(terrain, c, mode) for c in cells)
    escapes: list[tuple[int, frozenset[str]]] = []
    for i, here, hx, f, turn_cost in _walk(start, facing, steps):
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
        cells = new
    applied = sum_pen if ground.per_hex_terrain else _applied(max_pen, allowance)
    return Path(start, facing % 6, tuple((Hex(*h), f % 6) for h, f in steps), moved, applied, 0, fx, tuple(escapes))


class LargeReach(Reach):
    """Where a large figure can go this move and how (FTC 5, 5.1.2, 5.2, 5.3); the same questions as
    ``Reach`` (built by ``reachable`` with ``size`` 3 or 7), answered from its own search's labels."""

    def __init__(
        self,
        start: Hex,
        facing: int,
        allowance: int,
        labels: list[tuple[tuple[Hex, int, int], int, int, int]],
        ends: dict[tuple[Hex, int], tuple[int, int, int]],
        ground: PathGround,
    ) -> None:
        # Reach's grid labels are not used: every question is answered below
        self.start = start
        self.facing = facing
        self.allowance = allowance
        self.size = ground.size
        self._large_labels = labels
        self._ends = ends
        self.ground = ground

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
        return large_path_cost(self.start, self.facing, states[1:], self.allowance, self.ground)

    def escapes(self, h: Hex) -> tuple[tuple[int, frozenset[str]], ...]:
        """The escape contests along the preferred path to ``h``: (step index, ids of the stoppers)."""
        return self.path(h).escapes

    def band(self, h: Hex) -> str:
        """ "free" when the preferred path to ``h`` needs no escape contest, else "escape" (FTC 5.3)."""
        return "free" if self._need(h, None)[0] == 0 else "escape"


def reachable_large(start: Hex, facing: int, allowance: int, ground: PathGround) -> LargeReach:
    """Every position and facing a figure of ``ground.size`` hexes can end its move with (FTC 5-5.3; section
    comment above): a search over (centre, facing, sides turned in this gap), fewest escapes then lowest
    cost, one search per terrain level as in ``reachable``."""
    terrain, mode, blocked, per_hex_terrain = ground.terrain, ground.mode, ground.blocked, ground.per_hex_terrain
    g = _grid(terrain)
    table = g.mode(mode)
    body = _body(ground.size)
    zones = ground.zones or {}
    facing %= 6
    a = map_bound(table, max(0, allowance), states=18)  # (centre, facing, sides turned)
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

    if per_hex_terrain:
        search(_BIG, a, 0)
    else:
        search_by_levels(max(_start_penalty(terrain, c, mode) for c in body(start, facing)), a, search)
    return LargeReach(start, facing, a, labels, ends, ground)
