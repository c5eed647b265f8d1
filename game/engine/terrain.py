"""The battle map as the rules see it: terrain per hex as read-only numpy arrays (FTC 5.1.2, 6.5, table 3, 7).

A map is a rectangle of ``width`` x ``height`` cells in Tiled's offset layout (``stagger_axis``,
``stagger_index``); every lookup takes an axial ``Hex``. Arrays are indexed ``[row, col]``.

Per cell the map knows:
- ``penalty[mode]``: the movement penalty in hexes for a movement mode (FTC 5.1.2, table 3), and
  ``passable[mode]``: whether a figure moving that way may enter the hex at all (walls, deep water);
- ``blocks_sight``: the hex stops sight and missiles through its interior (FTC 6.5.3, docs/rulings.md "Line of fire");
- ``cover``: penalty to shots at a figure standing in the hex (0 or negative, a firing modifier);
- ``elevation``: height in metres (firing up / down, table 7);
- ``light`` and ``footing``: the table 7 modifiers for bad light and insecure footing (0 or negative).
No file formats live here: the Tiled loader (``game.maps``) builds these arrays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from game.engine.hexgrid import Hex, hex_to_offset, neighbors, offset_to_hex

MOVE_MODES: tuple[str, ...] = ("walk", "fly")
"""Movement modes with their own terrain penalties (FTC 5.1.2: a flyer ignores footing)."""

IntArray = npt.NDArray[np.int16]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class TerrainType:
    """One kind of ground as a GM describes it (Tiled tile properties; FTC table 3 suggests penalties)."""

    name: str
    penalty: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({"walk": 0, "fly": 0}))
    passable: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({"walk": True, "fly": True}))
    blocks_sight: bool = False
    cover: int = 0
    elevation: int = 0
    light: int = 0
    footing: int = 0


OPEN_GROUND = TerrainType("open")


def _ints(a: npt.NDArray[np.generic]) -> IntArray:
    out: IntArray = np.ascontiguousarray(a, dtype=np.int16)
    out.setflags(write=False)
    return out


def _bools(a: npt.NDArray[np.generic]) -> BoolArray:
    out: BoolArray = np.ascontiguousarray(a, dtype=np.bool_)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class TerrainMap:
    """Read-only terrain of a battle map; build it with ``TerrainMap.build`` or ``TerrainMap.open``."""

    width: int
    height: int
    stagger_axis: str
    stagger_index: str
    terrain: IntArray
    """Index into ``types`` for every cell, [row, col]."""
    types: tuple[TerrainType, ...]
    penalty: Mapping[str, IntArray]
    passable: Mapping[str, BoolArray]
    blocks_sight: BoolArray
    cover: IntArray
    elevation: IntArray
    light: IntArray
    footing: IntArray
    _hex_sets: dict[str, frozenset[Hex]] = field(default_factory=dict, repr=False, compare=False)
    """The hexes where a flag layer is set, made once on first use (the map never changes): a battle asks
    "passable?" and "blocks sight?" hundreds of thousands of times."""
    _graphs: dict[str, dict[Hex, tuple[Hex, ...]]] = field(default_factory=dict, repr=False, compare=False)
    """``passable_neighbours`` by movement mode and hex, each made on first use."""

    @classmethod
    def build(
        cls,
        width: int,
        height: int,
        types: tuple[TerrainType, ...],
        terrain: IntArray,
        *,
        stagger_axis: str = "y",
        stagger_index: str = "odd",
        overrides: Mapping[tuple[int, int], Mapping[str, object]] | None = None,
    ) -> TerrainMap:
        """Make a map from a grid of type indices; ``overrides`` maps (col, row) to property changes.

        An override may set ``penalty_walk``, ``penalty_fly``, ``passable_walk``, ``passable_fly``,
        ``blocks_sight``, ``cover``, ``elevation``, ``light`` and ``footing`` for one cell (a Tiled object
        over that cell, the GM's guide, ``docs/maps.md``).
        """
        terrain = np.asarray(terrain, dtype=np.int16)
        if terrain.shape != (height, width):
            raise ValueError(f"terrain grid is {terrain.shape}, expected (height, width) = {(height, width)}")
        if len(types) == 0 or int(terrain.max(initial=0)) >= len(types) or int(terrain.min(initial=0)) < 0:
            raise ValueError("terrain grid refers to a terrain type that does not exist")

        def column(getter: object) -> npt.NDArray[np.generic]:
            values = [getter(t) for t in types]  # type: ignore[operator]
            return np.asarray(values)[terrain]

        penalty = {m: column(lambda t, m=m: t.penalty.get(m, 0)).astype(np.int16) for m in MOVE_MODES}
        passable = {m: column(lambda t, m=m: t.passable.get(m, True)).astype(np.bool_) for m in MOVE_MODES}
        blocks = column(lambda t: t.blocks_sight).astype(np.bool_)
        cover = column(lambda t: t.cover).astype(np.int16)
        elevation = column(lambda t: t.elevation).astype(np.int16)
        light = column(lambda t: t.light).astype(np.int16)
        footing = column(lambda t: t.footing).astype(np.int16)
        for (col, row), props in (overrides or {}).items():
            if not (0 <= col < width and 0 <= row < height):
                raise ValueError(f"override at cell ({col}, {row}) is outside the {width}x{height} map")
            for key, value in props.items():
                if key.startswith("penalty_") and key[8:] in MOVE_MODES:
                    penalty[key[8:]][row, col] = int(value)  # type: ignore[call-overload]
                elif key.startswith("passable_") and key[9:] in MOVE_MODES:
                    passable[key[9:]][row, col] = bool(value)
                elif key == "blocks_sight":
                    blocks[row, col] = bool(value)
                elif key in ("cover", "elevation", "light", "footing"):
                    {"cover": cover, "elevation": elevation, "light": light, "footing": footing}[key][row, col] = int(
                        value
                    )  # type: ignore[call-overload]
                else:
                    raise ValueError(f"unknown terrain property {key!r} in override at ({col}, {row})")
        return cls(
            width,
            height,
            stagger_axis,
            stagger_index,
            _ints(terrain),
            tuple(types),
            MappingProxyType({m: _ints(a) for m, a in penalty.items()}),
            MappingProxyType({m: _bools(a) for m, a in passable.items()}),
            _bools(blocks),
            _ints(cover),
            _ints(elevation),
            _ints(light),
            _ints(footing),
        )

    @classmethod
    def open(cls, width: int, height: int, *, stagger_axis: str = "y", stagger_index: str = "odd") -> TerrainMap:
        """An empty field of open ground (for tests and generated maps)."""
        return cls.build(
            width,
            height,
            (OPEN_GROUND,),
            np.zeros((height, width), dtype=np.int16),
            stagger_axis=stagger_axis,
            stagger_index=stagger_index,
        )

    # --- lookups by hex -------------------------------------------------------------------------
    def cell(self, h: Hex) -> tuple[int, int]:
        """The (col, row) of a hex in Tiled's layout for this map."""
        return hex_to_offset(h, self.stagger_axis, self.stagger_index)

    def hex_at(self, col: int, row: int) -> Hex:
        """The axial hex of Tiled cell (col, row)."""
        return offset_to_hex(col, row, self.stagger_axis, self.stagger_index)

    def _at(self, layer: IntArray, h: Hex) -> int:
        """The value of one of the map's per-cell layers (``terrain``, ``penalty``, ``cover``...) at a hex."""
        col, row = self.cell(h)
        return int(layer[row, col])

    def contains(self, h: Hex) -> bool:
        """Whether the hex lies on the map."""
        col, row = self.cell(h)
        return 0 <= col < self.width and 0 <= row < self.height

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the map, row by row."""
        for row in range(self.height):
            for col in range(self.width):
                yield self.hex_at(col, row)

    def type_at(self, h: Hex) -> TerrainType:
        """The terrain type of a hex on the map."""
        return self.types[self._at(self.terrain, h)]

    def move_penalty(self, h: Hex, mode: str = "walk") -> int:
        """Movement penalty of a hex for a movement mode (FTC 5.1.2)."""
        return self._at(self.penalty[mode], h)

    def is_passable(self, h: Hex, mode: str = "walk") -> bool:
        """Whether a figure may enter the hex (on the map, and not a wall for this mode)."""
        found = self._hex_sets.get(mode)
        return h in (found if found is not None else self.passable_hexes(mode))

    def passable_hexes(self, mode: str = "walk") -> frozenset[Hex]:
        """Every hex a figure moving by ``mode`` may enter (``is_passable``), for searches over the map."""
        return self._hexes_where(mode, self.passable[mode])

    def passable_neighbours(self, h: Hex, mode: str = "walk") -> tuple[Hex, ...]:
        """The neighbours of ``h`` a figure moving by ``mode`` may enter, in direction order
        (``hexgrid.neighbors``): the graph a search over the map walks, kept once asked."""
        found = self.neighbours_known(mode).get(h)
        if found is None:
            passable = self.passable_hexes(mode)
            found = self._graphs[mode][h] = tuple(n for n in neighbors(h) if n in passable)
        return found

    def neighbours_known(self, mode: str = "walk") -> Mapping[Hex, tuple[Hex, ...]]:
        """The ``passable_neighbours`` worked out so far for ``mode`` (a search reads them without a call per
        hex, asking ``passable_neighbours`` for a hex not yet there)."""
        graph = self._graphs.get(mode)
        if graph is None:
            graph = self._graphs[mode] = {}
        return graph

    def sight_blocked(self, h: Hex) -> bool:
        """Whether the hex's interior stops sight and missiles (off-map hexes do not block)."""
        found = self._hex_sets.get(" blocks sight")
        return h in (found if found is not None else self._hexes_where(" blocks sight", self.blocks_sight))

    def _hexes_where(self, key: str, flags: BoolArray) -> frozenset[Hex]:
        """The hexes of the map whose cell is set in ``flags`` (kept under ``key``)."""
        found = self._hex_sets.get(key)
        if found is None:
            rows, cols = np.nonzero(flags)
            found = frozenset(self.hex_at(int(c), int(r)) for r, c in zip(rows, cols, strict=True))
            self._hex_sets[key] = found
        return found

    def cover_at(self, h: Hex) -> int:
        """Cover modifier to shots at a figure in this hex (0 or negative)."""
        return self._at(self.cover, h)

    def elevation_at(self, h: Hex) -> int:
        """Ground height of the hex in metres."""
        return self._at(self.elevation, h)

    def light_at(self, h: Hex) -> int:
        """Bad-light modifier in this hex (table 7: -1 to -3; 0 in good light)."""
        return self._at(self.light, h)

    def footing_at(self, h: Hex) -> int:
        """Insecure-footing modifier in this hex (table 7: -1 to -3; 0 on firm ground)."""
        return self._at(self.footing, h)
