"""A Tiled battle map -> the engine's terrain and a deployment (FTC 5.1.2, 6.5.3, table 7; ``docs/maps.md``).

How a GM's Tiled data becomes terrain (the GM's guide, ``docs/maps.md``, says the same):

* **Tile properties.** Each tile of a tileset may carry ``terrain`` (a name, the "Terrain" enum of the
  project file), ``move_penalty`` (hexes, walking, FTC 5.1.2), ``move_penalty_fly``, ``impassable`` and
  ``impassable_fly`` (bool), ``blocks_sight`` (bool, FTC 6.5.3), ``cover`` (≤ 0, a firing modifier),
  ``elevation`` (whole metres, table 7 firing up / down), ``light`` and ``footing`` (≤ 0, table 7).
* **Layers stack.** Visible tile layers are read bottom to top in document order (inside group layers
  too); a hidden layer (eye icon off, or inside a hidden group) gives no terrain, so the map plays as it
  looks. A layer at opacity 0 is visible: use it for terrain marks nobody should see. For every cell,
  each property a tile names replaces the
  value from the layers below; a property it does not name is left as it was, so a tile with no
  properties changes nothing.
* **Terrain objects.** An object of class ``terrain`` sets the same properties on the cells it covers (a
  point: the cell it lies in; a rectangle, ellipse or polygon: the cells whose centres lie inside).
* **Deployment.** An object of class ``deploy`` with a ``side`` property marks that side's deployment zone
  (cells whose centres lie inside). An object of class ``figure`` (a point or a tile object) places a named
  figure: ``side``, ``character`` (a roster key) and ``facing`` (0..5 as in ``game.engine.hexgrid``, or a
  compass name: E NE NW W SW SE on pointy-top maps, SE NE N NW SW S on flat-top maps).
* The map's own properties ``name``, ``description``, ``roster`` (a roster file next to the map) and
  ``light`` (a default light modifier for every cell) are kept in ``LoadedMap.properties``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from game.engine.codec import is_whole
from game.engine.hexgrid import Hex, offset_to_hex
from game.engine.spelling import did_you_mean, near_miss, near_miss_pairs
from game.engine.terrain import TerrainMap, TerrainType
from game.maps.errors import MapLoadError
from game.maps.geometry import HexLayout
from game.maps.spellcheck import map_spelling_warnings
from game.maps.tmx import GID_MASK, TmxMap, TmxObject, read_tmx
from game.paths import MAPS_DIR

# property name -> (kind, lowest, highest); kind "int" or "bool"
TERRAIN_PROPERTIES: Mapping[str, tuple[str, int, int]] = MappingProxyType(
    {
        "move_penalty": ("int", 0, 99),
        "move_penalty_fly": ("int", 0, 99),
        "impassable": ("bool", 0, 1),
        "impassable_fly": ("bool", 0, 1),
        "blocks_sight": ("bool", 0, 1),
        "cover": ("int", -99, 0),
        "elevation": ("int", -10_000, 10_000),
        "light": ("int", -99, 0),
        "footing": ("int", -99, 0),
    }
)
"""The numeric terrain properties a tile or a terrain object may carry, with their allowed range."""

_KEYS: tuple[str, ...] = ("terrain", *TERRAIN_PROPERTIES)
_UNSET = np.int32(-(2**31))
PICTURED: tuple[str, ...] = ("terrain", "impassable", "impassable_fly", "blocks_sight")
"""What a map's art shows of a cell: its ground, whether it can be entered, whether it stops sight. A terrain
object that changes one of them makes the art wrong there (``LoadedMap.repainted``)."""

COMPASS: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {
        "y": MappingProxyType({"E": 0, "NE": 1, "NW": 2, "W": 3, "SW": 4, "SE": 5}),
        "x": MappingProxyType({"SE": 0, "NE": 1, "N": 2, "NW": 3, "SW": 4, "S": 5}),
    }
)
"""Compass names of the six facings per stagger axis (pointy-top ``y``, flat-top ``x``), hexgrid's numbers."""


@dataclass(frozen=True)
class PlacedFigure:
    """A figure the map places before battle: its side, roster key, hex and facing (FTC 5.2 facing)."""

    name: str
    side: str
    character: str
    hex: Hex
    facing: int


@dataclass(frozen=True)
class Deployment:
    """Where each side may set up (zones by side) and the figures the map places itself."""

    zones: Mapping[str, frozenset[Hex]]
    figures: tuple[PlacedFigure, ...]

    def sides(self) -> tuple[str, ...]:
        """Every side named by a zone or a figure, sorted."""
        return tuple(sorted(set(self.zones) | {f.side for f in self.figures}))


@dataclass(frozen=True)
class LoadedMap:
    """A battle map ready to play and to draw: the engine's terrain, deployment and the drawing data."""

    path: Path
    tmx: TmxMap
    terrain: TerrainMap
    deployment: Deployment
    properties: Mapping[str, Any]
    layout: HexLayout
    warnings: tuple[str, ...] = ()
    """What the map does that a battle accepts but the GM may not mean (a figure off its hex centre), one
    sentence each naming the object and the hex; ``check-map`` prints them."""
    repainted: Mapping[tuple[int, int], str] = field(default_factory=dict)
    """Cells (col, row) whose ground, passability or sight a terrain object changed from what the tiles under it
    show (``PICTURED``), with the object's name: the board draws the object's terrain there, not the art."""

    @property
    def roster_path(self) -> Path | None:
        """The default roster file named by the map property ``roster``, or None."""
        roster = self.properties.get("roster")
        return (self.path.parent / roster).resolve() if isinstance(roster, str) and roster else None


def _prop_value(raw: Any, key: str, where: str, path: Path) -> int:
    """A terrain property value as an int (bools as 0/1), checked against its allowed range."""
    kind, lo, hi = TERRAIN_PROPERTIES[key]
    if kind == "bool":
        if isinstance(raw, bool):
            return int(raw)
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false", "1", "0"):
            return int(raw.strip().lower() in ("true", "1"))
        raise MapLoadError(
            path,
            f'{where} property "{key}"',
            f'"{str(raw)[:20]}" is not true or false',
            f"make {key} a bool property and tick or untick it in Tiled",
        )
    value: int | None = None
    if isinstance(raw, bool):
        value = None
    elif isinstance(raw, int):
        value = raw
    elif isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    elif isinstance(raw, str):
        try:
            value = int(raw.strip())
        except ValueError:
            value = None
    if value is None:
        raise MapLoadError(
            path,
            f'{where} property "{key}"',
            f'"{str(raw)[:20]}" is not a whole number',
            f"make {key} an int property in Tiled",
        )
    if not lo <= value <= hi:
        raise MapLoadError(
            path,
            f'{where} property "{key}"',
            f"{value} is outside {lo}..{hi}",
            f"give {key} a value between {lo} and {hi}",
        )
    return value


def _terrain_name(raw: Any, where: str, path: Path) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 64:
        raise MapLoadError(
            path,
            f'{where} property "terrain"',
            f'"{str(raw)[:20]}" is not a terrain name',
            "choose a terrain from the drop-down (the Terrain type of the project file)",
        )
    return raw.strip()


PROJECT_SUFFIX = ".tiled-project"
SHIPPED_PROJECT = MAPS_DIR / "fudge-tactics.tiled-project"
"""The game's own Tiled project: the Terrain and Side types and the figure / deploy / terrain classes."""


def map_project(map_path: Path) -> Path | None:
    """The Tiled project a map is checked against: one beside the map, else the game's own."""
    beside = sorted(map_path.resolve().parent.glob(f"*{PROJECT_SUFFIX}"))
    if beside:
        return beside[0]
    return SHIPPED_PROJECT if SHIPPED_PROJECT.is_file() else None


def project_types(project: Path | None) -> dict[str, tuple[str, ...]]:
    """A Tiled project's custom property types: enum name -> its values, class name -> its members
    (empty when there is no project or it cannot be read: nothing is then checked against it)."""
    if project is None:
        return {}
    try:
        data = json.loads(project.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for t in data.get("propertyTypes", []) if isinstance(data, dict) else []:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            continue
        if t.get("type") == "enum":
            out[t["name"]] = tuple(str(v) for v in t.get("values", []))
        elif t.get("type") == "class":
            out[t["name"]] = tuple(str(m.get("name")) for m in t.get("members", []) if isinstance(m, dict))
    return out


class _Builder:
    def __init__(
        self, tmx: TmxMap, known_terrains: tuple[str, ...] = (), problems: list[MapLoadError] | None = None
    ) -> None:
        self.tmx = tmx
        self.names: list[str] = ["open"]
        self.known = known_terrains
        self.problems = problems
        """None when loading (the first problem raises); when checking, every problem found, the map built on
        without what was wrong."""
        self.warnings: list[str] = list(tmx.warnings)
        self.side_objects: dict[str, str] = {}
        """Each side the map names -> the first object naming it (for a near-miss spelling's message)."""
        self.repainted: dict[tuple[int, int], str] = {}
        """Cells whose pictured terrain an object changed -> the object's name (``LoadedMap.repainted``)."""

    def soft(self, err: MapLoadError) -> None:
        """A problem the building can go on after: raised when loading, kept when checking."""
        if self.problems is None:
            raise err
        if all(str(err) != str(seen) for seen in self.problems):
            self.problems.append(err)

    def name_index(self, name: str) -> int:
        if name not in self.names:
            self.names.append(name)
        return self.names.index(name)

    def encode(self, props: Mapping[str, Any], where: str) -> dict[str, int]:
        """The terrain keys a property set names, as ints (terrain as an index into ``names``)."""
        out: dict[str, int] = {}
        for key, raw in props.items():
            try:
                if key == "terrain":
                    out[key] = self.name_index(_terrain_name(raw, where, self.tmx.path))
                elif key in TERRAIN_PROPERTIES:
                    out[key] = _prop_value(raw, key, where, self.tmx.path)
            except MapLoadError as err:
                self.soft(err)  # checking: the property is left out
        return out

    def tile_tables(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """Sorted gids that carry terrain properties and, per key, their values (``_UNSET`` elsewhere)."""
        gids: list[int] = []
        rows: list[list[int]] = []
        for ts in self.tmx.tilesets:
            for tid, tile in sorted(ts.tiles.items()):
                enc = self.encode(tile.properties, f'tileset "{ts.name[:40]}" tile {tid}')
                if enc:
                    gids.append(ts.firstgid + tid)
                    rows.append([enc.get(k, int(_UNSET)) for k in _KEYS])
        order = np.argsort(np.array(gids, dtype=np.int64), kind="stable")
        table = np.array(rows, dtype=np.int32).reshape(len(rows), len(_KEYS))
        return np.array(gids, dtype=np.int64)[order], table[order]

    def stack(self) -> npt.NDArray[np.int32]:
        """Per key, per cell: the value after stacking every tile layer bottom to top."""
        h, w = self.tmx.height, self.tmx.width
        values = np.full((len(_KEYS), h, w), _UNSET, dtype=np.int32)
        gids, table = self.tile_tables()
        if gids.size == 0:
            return values
        for layer in self.tmx.tile_layers:
            if not layer.visible:
                continue
            ids = (layer.gids & GID_MASK).astype(np.int64)
            pos = np.searchsorted(gids, ids)
            pos = np.minimum(pos, gids.size - 1)
            hit = gids[pos] == ids
            if not hit.any():
                continue
            for k in range(len(_KEYS)):
                col = table[:, k][pos]
                mask = hit & (col != _UNSET)
                values[k][mask] = col[mask]
        return values

    def build(self) -> tuple[TerrainMap, Deployment]:
        tmx = self.tmx
        values = self.stack()
        light = tmx.properties.get("light")
        if light is not None:
            try:
                default_light = _prop_value(light, "light", "<map>", tmx.path)
            except MapLoadError as err:
                self.soft(err)
                default_light = 0
            k = _KEYS.index("light")
            values[k][values[k] == _UNSET] = default_light
        layout = HexLayout.of(tmx)
        self.check_tile_sizes()
        self.apply_terrain_objects(values, layout)
        flat = values.reshape(len(_KEYS), -1).T
        combos, inverse = _unique_rows(flat)
        types = tuple(self.terrain_type(row) for row in combos.tolist())
        grid = inverse.reshape(tmx.height, tmx.width).astype(np.int16)
        terrain = TerrainMap.build(
            tmx.width,
            tmx.height,
            types,
            grid,
            stagger_axis=tmx.stagger_axis,
            stagger_index=tmx.stagger_index,
        )
        return terrain, self.deployment(layout, terrain)

    def terrain_type(self, row: list[int]) -> TerrainType:
        v = {k: (None if x == int(_UNSET) else x) for k, x in zip(_KEYS, row, strict=True)}

        def num(key: str) -> int:
            x = v[key]
            return 0 if x is None else x

        return TerrainType(
            name=self.names[v["terrain"] or 0],
            penalty=MappingProxyType({"walk": num("move_penalty"), "fly": num("move_penalty_fly")}),
            passable=MappingProxyType({"walk": not num("impassable"), "fly": not num("impassable_fly")}),
            blocks_sight=bool(num("blocks_sight")),
            cover=num("cover"),
            elevation=num("elevation"),
            light=num("light"),
            footing=num("footing"),
        )

    # -- objects -----------------------------------------------------------------------------------
    def objects_of(self, cls: str) -> list[TmxObject]:
        return [o for o in self.tmx.objects if o.cls.strip().lower() == cls]

    def named_terrain(self) -> dict[int, list[int]]:
        """Per terrain name (its index in ``names``): every property of the first tile that names it, as a
        row of ``_KEYS`` (``_UNSET`` where the tile says nothing)."""
        out: dict[int, list[int]] = {}
        for ts in self.tmx.tilesets:
            for tid, tile in sorted(ts.tiles.items()):
                enc = self.encode(tile.properties, f'tileset "{ts.name[:40]}" tile {tid}')
                if "terrain" in enc and enc["terrain"] not in out:
                    out[enc["terrain"]] = [enc.get(k, int(_UNSET)) for k in _KEYS]
        return out

    def apply_terrain_objects(self, values: npt.NDArray[np.int32], layout: HexLayout) -> None:
        """Terrain objects over the stacked tiles, in document order: an object naming a ``terrain`` makes its
        cells that terrain — the name and every property of the tile that defines it — and the properties it
        names itself then replace those values, as a tile on a layer above would."""
        named: dict[int, list[int]] | None = None
        pictured = [_KEYS.index(k) for k in PICTURED]
        before = values[pictured].copy()
        touched: dict[tuple[int, int], str] = {}
        for obj in self.objects_of("terrain"):
            where = _object_name(obj)
            enc = self.encode(obj.properties, where)
            if not enc:
                continue
            row: list[int] = [int(_UNSET)] * len(_KEYS)
            if "terrain" in enc:
                named = self.named_terrain() if named is None else named
                self.check_known(enc["terrain"], named, where)
                row = list(named.get(enc["terrain"], row))
            for key, value in enc.items():
                row[_KEYS.index(key)] = value
            try:
                cells = self.cells_of(obj, layout, where, allow_point=True)
            except MapLoadError as err:
                self.soft(err)  # checking: the object changes no hex
                continue
            for col, r in cells:
                touched[(col, r)] = obj.name.strip()[:40] or f"terrain object {obj.id}"
                for k, value in enumerate(row):
                    if value != int(_UNSET):
                        values[k][r, col] = value
        # unset reads as the default (open ground, enterable, not blocking), as terrain_type reads it
        changed = np.any(
            np.where(before == _UNSET, 0, before) != np.where(values[pictured] == _UNSET, 0, values[pictured]), axis=0
        )
        self.repainted = {cell: name for cell, name in touched.items() if changed[cell[1], cell[0]]}

    def check_known(self, index: int, named: Mapping[int, list[int]], where: str) -> None:
        """A terrain object's ``terrain`` must be a terrain the map's tiles define or the Tiled project's
        Terrain type lists; otherwise it is a typo that would silently make plain ground."""
        name = self.names[index]
        known = sorted({*self.known, *(self.names[i] for i in named)})
        if name not in known:
            hint = did_you_mean(name, known)
            self.soft(
                MapLoadError(
                    self.tmx.path,
                    f'{where} property "terrain"',
                    f'"{name[:30]}" is not a known terrain',
                    f"{hint + ' ' if hint else ''}use one of {', '.join(known)} (a terrain a tile defines, or one "
                    "of the Terrain type of the Tiled project)",
                )
            )

    def check_tile_sizes(self) -> None:
        """Warn of a tileset whose tiles the tile layers use and whose tile size is not the map's: Tiled draws
        such tiles on purpose (tall trees and walls standing on their hex, art overlapping the next hex), each
        on its cell's bottom-left corner, and so does the game, but art made for another grid looks wrong."""
        tmx = self.tmx
        layers = [(layer.gids & GID_MASK).ravel().astype(np.int64) for layer in tmx.tile_layers]
        used = np.unique(np.concatenate(layers or [np.zeros(1, dtype=np.int64)]))
        for ts in tmx.tilesets:
            if ts.image is None or (ts.tile_width, ts.tile_height) == (tmx.tile_width, tmx.tile_height):
                continue
            if not ((used >= ts.firstgid) & (used < ts.firstgid + ts.tile_ids())).any():
                continue
            self.warnings.append(
                f'{tmx.path.name}: <tileset "{ts.name[:40]}">: its tiles are {ts.tile_width}x{ts.tile_height} '
                f"pixels but the map's are {tmx.tile_width}x{tmx.tile_height}; they are drawn as Tiled draws "
                "them, each standing on its hex's bottom-left corner (larger art overlaps the hexes beside and "
                "above, smaller art leaves gaps); if that is not meant, give the tileset the map's tile size (or "
                "the map the tileset's, Map > Map Properties)"
            )

    def cells_of(self, obj: TmxObject, layout: HexLayout, where: str, allow_point: bool) -> list[tuple[int, int]]:
        path = self.tmx.path
        if obj.kind in ("point", "tile"):
            if not allow_point:
                raise MapLoadError(
                    path, where, "a zone must be an area, not a point", "draw the zone as a rectangle or polygon"
                )
            x, y = _anchor(obj)
            cell = layout.cell_at(x, y)
            if cell is None:
                raise MapLoadError(
                    path, where, f"the point ({x:.0f}, {y:.0f}) lies outside the map", "move the object onto the map"
                )
            return [cell]
        poly = _outline(obj)
        if poly is None:
            raise MapLoadError(
                path, where, f"a {obj.kind} has no inside", "draw it as a rectangle, ellipse or closed polygon"
            )
        centres = layout.centres()
        if obj.kind == "ellipse" and obj.rotation == 0:
            cx, cy = obj.x + obj.offset[0] + obj.width / 2, obj.y + obj.offset[1] + obj.height / 2
            rx, ry = max(obj.width / 2, 1e-9), max(obj.height / 2, 1e-9)
            inside = ((centres[..., 0] - cx) / rx) ** 2 + ((centres[..., 1] - cy) / ry) ** 2 <= 1.0
        else:
            inside = _points_in_polygon(centres, np.array(poly, dtype=np.float64))
        rows, cols = np.nonzero(inside)
        return list(zip(cols.tolist(), rows.tolist(), strict=True))

    def check_centred(self, obj: TmxObject, layout: HexLayout, cell: tuple[int, int]) -> None:
        """Warn of a figure object away from its hex's centre: it may stand on another hex than the GM meant."""
        side = self.tmx.hex_side_length or min(self.tmx.tile_width, self.tmx.tile_height) // 2
        off = _off_centre(obj, layout, cell, side)
        if off is not None:
            name = obj.name.strip() or str(obj.properties.get("character", "")) or f"object {obj.id}"
            self.warnings.append(
                f"{self.tmx.path.name}: figure {name!r} ({_object_name(obj)}) stands {off:.0f} pixels from the "
                f"centre of the hex it is put on, cell {cell}; move it onto that hex's centre (View > Snapping > "
                "Snap to Grid) or onto the hex it belongs on"
            )

    def deployment(self, layout: HexLayout, terrain: TerrainMap) -> Deployment:
        tmx = self.tmx
        zones: dict[str, set[Hex]] = {}
        for obj in self.objects_of("deploy"):
            try:
                side, cells = self.zone(obj, layout)
            except MapLoadError as err:
                self.soft(err)  # checking: the zone is left out
                continue
            zones.setdefault(side, set()).update(
                offset_to_hex(c, r, tmx.stagger_axis, tmx.stagger_index) for c, r in cells
            )
        figures: list[PlacedFigure] = []
        seen_names: set[str] = set()
        seen_hexes: dict[Hex, str] = {}
        for obj in self.objects_of("figure"):
            try:
                figure = self.figure(obj, layout, terrain, seen_names, seen_hexes)
            except MapLoadError as err:
                self.soft(err)  # checking: the figure is left out
                continue
            seen_names.add(figure.name)
            seen_hexes[figure.hex] = figure.name
            figures.append(figure)
        return Deployment(MappingProxyType({s: frozenset(z) for s, z in sorted(zones.items())}), tuple(figures))

    def zone(self, obj: TmxObject, layout: HexLayout) -> tuple[str, list[tuple[int, int]]]:
        """A ``deploy`` object's side and the cells whose centres it covers."""
        where = _object_name(obj)
        side = _side(obj, where, self.tmx.path)
        self.side_objects.setdefault(side, where)
        cells = self.cells_of(obj, layout, where, allow_point=False)
        if not cells:
            raise MapLoadError(
                self.tmx.path,
                where,
                "the zone covers no cell centre",
                "make the zone larger so it covers the centres of the hexes",
            )
        return side, cells

    def figure(
        self,
        obj: TmxObject,
        layout: HexLayout,
        terrain: TerrainMap,
        seen_names: set[str],
        seen_hexes: Mapping[Hex, str],
    ) -> PlacedFigure:
        """A ``figure`` object as the figure it places, checked against the figures before it."""
        tmx = self.tmx
        path = tmx.path
        where = _object_name(obj)
        side = _side(obj, where, path)
        self.side_objects.setdefault(side, where)
        character = obj.properties.get("character")
        if not isinstance(character, str) or not character.strip():
            raise MapLoadError(
                path,
                where,
                'the figure has no "character"',
                _misnamed(obj, "character") or 'add a string property "character" naming a roster entry',
            )
        character = character.strip()
        try:
            facing = _facing(obj.properties.get("facing", 0), tmx.stagger_axis, where, path)
        except MapLoadError as err:
            self.soft(err)  # checking: the figure is checked on, facing 0
            facing = 0
        if obj.kind not in ("point", "tile"):
            raise MapLoadError(
                path,
                where,
                f"a figure must be a point or a tile object, not a {obj.kind}",
                "insert the figure as a point (Insert Point)",
            )
        (cell,) = self.cells_of(obj, layout, where, allow_point=True)
        h = offset_to_hex(cell[0], cell[1], tmx.stagger_axis, tmx.stagger_index)
        self.check_centred(obj, layout, cell)
        name = obj.name.strip() or character
        if name in seen_names:
            raise MapLoadError(
                path, where, f'two figures are named "{name[:40]}"', "give every figure object its own name"
            )
        if h in seen_hexes:
            raise MapLoadError(
                path,
                where,
                f'it stands in the same hex as "{seen_hexes[h][:40]}"',
                "move one of the two figures to another hex",
            )
        if not terrain.is_passable(h, "walk") and not terrain.is_passable(h, "fly"):
            raise MapLoadError(
                path, where, f"it stands on impassable terrain at cell {cell}", "move the figure to open ground"
            )
        return PlacedFigure(name, side, character, h, facing)


def side_spelling_problems(path: Path, side_objects: Mapping[str, str]) -> list[MapLoadError]:
    """Every side the map names two ways ("Bandit" beside "Bandits", "bleu" beside "blue"), each naming the
    object of the later spelling and the fix: a battle would make two armies of one side."""
    return [
        MapLoadError(
            path,
            f'{side_objects[second]} property "side"',
            f'"{second[:30]}" is a near miss of the side "{first[:30]}" of {side_objects[first]}',
            f'spell one side one way: change it to "{first[:30]}" (or rename the other if they are two sides)',
        )
        for first, second in near_miss_pairs(side_objects)
    ]


def _off_centre(obj: TmxObject, layout: HexLayout, cell: tuple[int, int], side: int) -> float | None:
    """How far (map pixels) a figure object stands from the centre of the hex it is put on, when that is more
    than a quarter of the hex's side (None otherwise)."""
    x, y = _anchor(obj)
    cx, cy = layout.centres()[cell[1], cell[0]]
    off = math.hypot(x - float(cx), y - float(cy))
    return off if off > max(2.0, side / 4) else None


def _unique_rows(flat: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.intp]]:
    """Distinct rows and each row's index among them; one key per row keeps it fast on big maps."""
    code = np.zeros(flat.shape[0], dtype=np.int64)
    radix = 1
    for k in range(flat.shape[1]):
        _, inv = np.unique(flat[:, k], return_inverse=True)
        card = int(inv.max(initial=0)) + 1
        if radix * card >= 2**62:
            distinct, inverse = np.unique(flat, axis=0, return_inverse=True)
            return distinct, inverse.ravel()
        code += inv.ravel().astype(np.int64) * radix
        radix *= card
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    return flat[first], inverse.ravel()


def _object_name(obj: TmxObject) -> str:
    label = obj.name[:40] if obj.name else obj.cls[:20]
    return f'<object id="{obj.id}" "{label}">'


def _misnamed(obj: TmxObject, key: str) -> str | None:
    """The fix for a property the object lacks when it carries one of a near-miss name ("Side", "charcter")."""
    other = next((k for k in obj.properties if near_miss(k, key)), None)
    return None if other is None else f'rename its property "{other[:30]}" to "{key}"'


def _side(obj: TmxObject, where: str, path: Path) -> str:
    side = obj.properties.get("side")
    if not isinstance(side, str) or not side.strip() or len(side) > 64:
        raise MapLoadError(
            path,
            where,
            'the object has no "side"',
            _misnamed(obj, "side") or 'add the property "side" (the Side type of the project file)',
        )
    return side.strip()


def _facing(raw: Any, axis: str, where: str, path: Path) -> int:
    names = COMPASS[axis]
    if is_whole(raw) and 0 <= raw <= 5:
        return raw
    if isinstance(raw, str):
        text = raw.strip().upper()
        if text in names:
            return names[text]
        if text.isdigit() and 0 <= int(text) <= 5:
            return int(text)
    raise MapLoadError(
        path,
        f'{where} property "facing"',
        f'"{str(raw)[:20]}" is not a facing',
        f"use 0..5 or one of {', '.join(names)}",
    )


def _anchor(obj: TmxObject) -> tuple[float, float]:
    """The map-pixel point an object stands for: a point itself; a tile object its image's centre."""
    x, y = obj.x + obj.offset[0], obj.y + obj.offset[1]
    if obj.kind == "tile":
        # hex maps align tile objects by their bottom-left corner (Tiled's default alignment)
        a = math.radians(obj.rotation)
        dx, dy = obj.width / 2, -obj.height / 2
        return x + dx * math.cos(a) - dy * math.sin(a), y + dx * math.sin(a) + dy * math.cos(a)
    return x, y


def _outline(obj: TmxObject) -> list[tuple[float, float]] | None:
    """An object's outline in map pixels, rotation applied about its position (as Tiled does)."""
    if obj.kind in ("rectangle", "ellipse"):
        if obj.width <= 0 or obj.height <= 0:
            return None
        if obj.kind == "ellipse":
            n = 48
            local = [
                (
                    obj.width / 2 * (1 + math.cos(2 * math.pi * i / n)),
                    obj.height / 2 * (1 + math.sin(2 * math.pi * i / n)),
                )
                for i in range(n)
            ]
        else:
            local = [(0.0, 0.0), (obj.width, 0.0), (obj.width, obj.height), (0.0, obj.height)]
    elif obj.kind == "polygon":
        local = list(obj.points)
    else:
        return None
    a = math.radians(obj.rotation)
    c, s = math.cos(a), math.sin(a)
    x0, y0 = obj.x + obj.offset[0], obj.y + obj.offset[1]
    return [(x0 + px * c - py * s, y0 + px * s + py * c) for px, py in local]


def _points_in_polygon(pts: npt.NDArray[np.float64], poly: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Even-odd rule for an array of points [..., 2] against one polygon."""
    x, y = pts[..., 0], pts[..., 1]
    inside = np.zeros(x.shape, dtype=bool)
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if y1 == y2:
            continue
        crosses = (y1 > y) != (y2 > y)
        xcross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (x < xcross)
    return inside


def load_map(path: str | Path) -> LoadedMap:
    """Load a Tiled hexagonal battle map: terrain (FTC 5.1.2, 6.5.3, table 7) and deployment (FTC 5.2).

    Raises ``MapLoadError`` — one line naming the file, the element and the fix — for the first thing wrong.
    """
    return _load(Path(path), None)


@dataclass(frozen=True)
class MapCheck:
    """What ``check_map`` found: the map as far as it could be built, every problem and every warning."""

    path: Path
    loaded: LoadedMap | None
    """The map built without what was wrong; None when a problem left nothing to build (not a hex map…)."""
    problems: tuple[MapLoadError, ...]
    """Everything a battle would refuse the map for, in the order found, each naming the place and the fix."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """What a battle accepts but the GM may not mean (``LoadedMap.warnings``)."""
        return self.loaded.warnings if self.loaded is not None else ()


def check_map(path: str | Path) -> MapCheck:
    """Check a map as ``load_map`` loads it, but go on after each problem that leaves something to check (a
    property's value, a layer, a tileset, an object, a figure, a zone, a side's spelling), so one run names
    every mistake; ``load_map`` raises the first of the same problems."""
    p = Path(path)
    problems: list[MapLoadError] = []
    try:
        loaded: LoadedMap | None = _load(p, problems)
    except MapLoadError as err:
        problems.append(err)
        loaded = None
    unique = list({str(err): err for err in problems}.values())
    return MapCheck(p, loaded, tuple(unique))


def _load(p: Path, problems: list[MapLoadError] | None) -> LoadedMap:
    """``load_map`` (``problems`` None: the first problem raises) or ``check_map`` (each problem the building
    can go on after is added to ``problems``)."""
    tmx = read_tmx(p, problems)
    known = project_types(map_project(p)).get("Terrain", ())
    builder = _Builder(tmx, known, problems)
    try:
        terrain, deployment = builder.build()
    except MapLoadError:
        raise
    except (ValueError, TypeError, OverflowError) as exc:
        raise MapLoadError(
            p,
            "<map>",
            f"the terrain cannot be built ({str(exc)[:80]})",
            "check the terrain properties of the tiles and objects",
        ) from None
    props = dict(tmx.properties)
    try:
        check_roster_property(p, props.get("roster"))
    except MapLoadError as err:
        builder.soft(err)
        props.pop("roster", None)  # checking: the map is checked on as one without a roster of its own
    for spelling in side_spelling_problems(p, builder.side_objects):
        builder.soft(spelling)
    builder.warnings.extend(map_spelling_warnings(tmx, _KEYS, known))
    return LoadedMap(
        p,
        tmx,
        terrain,
        deployment,
        MappingProxyType(props),
        HexLayout.of(tmx),
        tuple(builder.warnings),
        MappingProxyType(builder.repainted),
    )


def check_roster_property(p: Path, roster: Any) -> None:
    """The map property ``roster``, when set, names a file in the map's folder (or below) that exists."""
    if roster is None:
        return
    if not isinstance(roster, str) or not roster.strip():
        raise MapLoadError(
            p,
            '<map> property "roster"',
            "the roster is not a file name",
            "make roster a file property naming the roster next to the map",
        )
    folder = p.resolve().parent
    target = (folder / roster).resolve()
    if roster.startswith(("/", "\\")) or not target.is_relative_to(folder):
        raise MapLoadError(
            p,
            '<map> property "roster"',
            f'"{roster[:60]}" lies outside the map\'s folder',
            "keep the roster file in the map's folder or a subfolder",
        )
    if not target.is_file():
        raise MapLoadError(
            p,
            '<map> property "roster"',
            f'the roster "{roster[:60]}" does not exist',
            "create the roster file or correct the property",
        )
