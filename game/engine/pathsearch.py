"""The path search (FTC 5, 5.1.2, 5.2, 5.3): every hex a one-hex figure can reach this move, and how.

Zones of control are a predicate inside the search: entering a zone is free, every step that leaves the
zone of a stopping enemy is one *escape contest*. Among the legal ways to reach a hex the search prefers
the fewest escape contests, then the lowest cost (``game.engine.movement`` tells how a move is priced).
``reachable_one_hex`` builds a ``Reach``: the highlights, the AI's options and a move's path all come from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import repeat

from game.engine.hexgrid import Hex, turn_steps
from game.engine.paths import (
    _FREE_SIDES,
    _WALL,
    OCCUPIED_EXTRA,
    IllegalMove,
    Path,
    PathGround,
    _applied,
    _cell_zones,
    _facing_extra,
    _Grid,
    _grid,
    _start_penalty,
    path_cost,
)

# --- the search ----------------------------------------------------------------------------------------

_BIG = 1 << 30
"""Above any cost, escape count or label index. A label's end key ``(escapes * _BIG + cost) * _BIG + label``
orders labels by fewest escapes, then cost, then the earliest found (which wins ties), in one comparison."""
_BLOCK = -_BIG
"""Overlay entry of a hex this mover may not enter (``impassable``); other entries are occupied-hex extras."""


def map_bound(pen: list[int], allowance: int, states: int = 3) -> int:
    """An allowance larger than the map is the map (FTC 5): no move costs more than every search state
    (``states`` per hex) entered at the dearest price (step, passing a figure, turning, terrain), so the
    searches stop there."""
    if allowance <= len(pen):
        return allowance
    costs = [p for p in pen if p < _WALL]
    return min(allowance, states * len(costs) * (3 + OCCUPIED_EXTRA + max(costs, default=0)) + 6)


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
        ground: PathGround,
    ) -> None:
        self._g = grid
        self.start = start
        self.facing = facing
        self.allowance = allowance
        self._labels = labels
        self.ground = ground
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
        return path_cost(self.start, self.facing, steps, self.allowance, self.ground)

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


def reachable_one_hex(start: Hex, facing: int, allowance: int, ground: PathGround) -> Reach:
    """``reachable`` for a one-hex figure over ``ground`` (FTC 5-5.3): the search over the flat grid."""
    terrain, mode, occupied, impassable = ground.terrain, ground.mode, ground.occupied, ground.impassable
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
    zc = _cell_zones(g, ground.zones)
    labels: list[tuple[int, int, int, int]] = []
    ends: dict[int, int] = {}
    a = map_bound(pen, max(0, allowance))
    offsets = g.offsets
    if ground.per_hex_terrain:
        _search_per_hex(pen, offsets, s, a, overlay, zc, labels, ends)
    else:
        search_by_levels(
            _start_penalty(terrain, start, mode),
            a,
            lambda level, budget, applied: _search(pen, offsets, s, budget, level, overlay, zc, labels, applied, ends),
        )
    return Reach(g, start, facing, a, labels, ends, occ, ground)


def search_by_levels(level: int, allowance: int, search: Callable[[int, int, int], Iterable[int]]) -> None:
    """FTC 5.1.2: the largest penalty among the start and the entered hexes reduces the allowance. One search
    per penalty level met, from the start's ``level`` upwards: ``search(level, budget, applied)`` may enter
    only hexes of penalty at most ``level`` (``_BIG`` once the level leaves a single step), has ``budget`` to
    spend with ``applied`` of terrain counted already, and returns the higher penalties it was refused."""
    a = allowance
    while True:
        capped = level >= a - 1
        budget = (1 if a >= 1 else 0) if capped else a - level
        applied = max(0, a - 1) if capped else _applied(level, a)
        higher = [p for p in search(_BIG if capped else level, budget, applied) if p > level]
        if capped or not higher:
            return
        level = min(higher)
