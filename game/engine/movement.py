"""Movement: allowance, facing costs, terrain, occupied hexes and reachable hexes (FTC 5, 5.1, 5.2, 5.3).

The numbers come from ``data/movement.toml`` (tables 1, 2 and 3). This module holds the allowance (tables 1
and 2) and the door every caller uses: a ``Ground`` (what a move is searched over) with its ``validate`` and
``reach``, for figures of any size. Its
parts: ``game.engine.paths`` (the grid, ``Path``, ``path_cost``, ``turn_cost``), ``game.engine.pathsearch``
(the one-hex search and ``Reach``) and ``game.engine.large_movement`` (3- and 7-hex figures); their public
names are importable from here too.

How a move is priced (docs/rulings.md "Facing" and "Movement phase"):

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
path the player drew (``Ground.validate``), so highlights, the AI and validation agree (docs/architecture.md
"One source of legality").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import floor
from types import MappingProxyType
from typing import Any

from game.engine import ladder
from game.engine.datafiles import read_table
from game.engine.hexgrid import Hex
from game.engine.large_movement import LargeReach, large_path_cost, reachable_large
from game.engine.paths import OCCUPIED_EXTRA, IllegalMove, Path, PathGround, path_cost, turn_cost
from game.engine.paths import _grid as _grid  # the per-map grid cache, held by a test of the search
from game.engine.pathsearch import Reach, reachable_one_hex

__all__ = [
    "OCCUPIED_EXTRA",
    "POSTURES",
    "TABLE_1_MOVEMENT",
    "TABLE_2_ENCUMBRANCE",
    "TERRAIN_SUGGESTIONS",
    "Ground",
    "IllegalMove",
    "LargeReach",
    "Path",
    "PathGround",
    "Reach",
    "encumbrance_penalty",
    "large_path_cost",
    "load_thresholds_kg",
    "max_load_kg",
    "movement_allowance",
    "path_cost",
    "posture_speed",
    "reachable_large",
    "table_1_hexes",
    "turn_cost",
]

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
    """Hexes a figure may move this round before terrain (FTC 5, 5.1.1; docs/rulings.md "Movement phase").

    Table 1 by Speed (posture first lowers that Speed: FTC 5 says a crawler *has* a lower Speed), times
    1.2 per step of Speed Scale rounded to the nearest hex, at least 1 hex, then encumbrance (table 2),
    which never takes a moving figure below 1 hex. Returns 0 when the figure cannot move at all
    (more than eight times its maximum load). At Scale 0 this is exactly docs/rulings.md "Movement allowance"'s order.
    """
    hexes = Fraction(table_1_hexes(posture_speed(speed, posture))) * _SPEED_SCALE_FACTOR**speed_scale
    allowance = max(1, _round_half_up(hexes))
    penalty = encumbrance_penalty(load_kg, strength, strength_scale)
    if penalty is None:
        return 0
    return max(1, allowance + penalty)


# --- the one door: paths of figures of any size ---------------------------------------------------------


class Ground(PathGround):
    """What a figure's move is searched and priced over (``PathGround``: the map, the mover's mode and size,
    the hexes of the others, the zones and the per-hex terrain option), with the battle's two questions about
    it: is this drawn path legal (``validate``), and where can the figure go (``reach``)."""

    def validate(self, start: Hex, facing: int, steps: Sequence[tuple[Hex, int]], allowance: int) -> Path:
        """Check a player's explicit path and price it (FTC 5, 5.1, 5.2, 5.3); the battle's one legality check.

        Raises ``IllegalMove`` when a step is illegal, the move costs more than the allowance, or it ends in
        an occupied hex. A large figure is priced by ``large_path_cost`` (occupied hexes block it).
        """
        cost = path_cost if self.size == 1 else large_path_cost
        p = cost(start, facing, steps, allowance, self)
        if p.cost > allowance:
            raise IllegalMove(
                f"this move costs {p.cost} hexes ({p.hexes_moved} moved, {p.terrain_penalty} terrain, "
                f"{p.occupied_extra} for occupied hexes, {p.facing_extra} for turning) but the figure may move "
                f"only {allowance}; shorten the path or turn less"
            )
        if p.end != start and p.end in self.occupied:
            raise IllegalMove(f"the move ends in {p.end}, which another figure occupies; end in a free hex")
        return p

    def reach(self, start: Hex, facing: int, allowance: int) -> Reach:
        """Every hex and facing the figure can end its move with, and the preferred path to each (FTC 5-5.3);
        ``allowance`` comes from ``movement_allowance`` (terrain is applied here)."""
        search = reachable_one_hex if self.size == 1 else reachable_large
        return search(start, facing, allowance, self)
