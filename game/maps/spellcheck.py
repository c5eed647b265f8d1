"""Names in a map that are near misses of the names the game reads: a warning for each (``check-map``).

A Tiled map may carry properties and object classes of its own, which the game leaves alone; but a name one
slip away from one the game reads ("move_penatly", "Side" on a figure, an object of class "figures", a tile's
terrain "dense_wood" beside the project's "dense_woods") is almost surely meant as that name, and as written
it is silently ignored. Near misses are ``game.engine.spelling.near_miss``, the one check used for every
name a GM types.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from game.engine.spelling import near_miss, near_miss_pairs
from game.maps.tmx import TmxMap

MAP_KEYS = ("name", "description", "roster", "light")
"""The map's own properties the game reads."""

OBJECT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"figure": ("side", "character", "facing", "token"), "deploy": ("side",)}
)
"""The properties the game reads on each object class (terrain objects: the terrain keys)."""


def _misspelt(keys: Iterable[str], wanted: Iterable[str]) -> list[tuple[str, str]]:
    """(key, the name it misses) for each key that is not a name the game reads but a near miss of one."""
    names = tuple(wanted)
    out = []
    for key in keys:
        if key in names:
            continue
        meant = next((n for n in names if near_miss(key, n)), None)
        if meant is not None:
            out.append((key, meant))
    return out


def _fix(key: str, meant: str) -> str:
    return f'the game does not read "{key[:30]}"; rename it "{meant}" if that is what it means'


def map_spelling_warnings(tmx: TmxMap, terrain_keys: Iterable[str], project_terrains: Iterable[str]) -> list[str]:
    """A sentence for each near-miss name in the map, naming the file, the place and the fix: map properties,
    tile properties (once per tileset and name), object classes, the properties of figure, deploy and terrain
    objects, and terrain names of tiles that miss another terrain's name or one of the project's Terrain type."""
    name = tmx.path.name
    keys = tuple(terrain_keys)
    out = [f'{name}: <map> property "{k[:30]}": {_fix(k, m)}' for k, m in _misspelt(tmx.properties, MAP_KEYS)]
    tile_terrains: dict[str, str] = {}
    for ts in tmx.tilesets:
        said: set[str] = set()
        for tid, tile in sorted(ts.tiles.items()):
            for k, m in _misspelt(tile.properties, keys):
                if k not in said:
                    said.add(k)
                    out.append(f'{name}: tileset "{ts.name[:40]}" tile {tid} property "{k[:30]}": {_fix(k, m)}')
            terrain = tile.properties.get("terrain")
            if isinstance(terrain, str) and terrain.strip():
                tile_terrains.setdefault(terrain.strip(), f'tileset "{ts.name[:40]}" tile {tid}')
    classes = ("figure", "deploy", "terrain")
    for obj in tmx.objects:
        label = f'<object id="{obj.id}" "{(obj.name or obj.cls)[:40]}">'
        cls = obj.cls.strip().lower()
        if cls not in classes:
            meant = next((c for c in classes if near_miss(cls, c)), None)
            if meant is not None:
                out.append(
                    f'{name}: {label}: its class "{obj.cls[:30]}" is not one the game reads, so the object is '
                    f'ignored; make its class (Type in Tiled 1.8) "{meant}" if that is what it is'
                )
            continue
        wanted = keys if cls == "terrain" else OBJECT_KEYS[cls]
        out.extend(f'{name}: {label} property "{k[:30]}": {_fix(k, m)}' for k, m in _misspelt(obj.properties, wanted))
    project = tuple(project_terrains)
    where = {t: "the project's Terrain type" for t in project} | {
        t: w for t, w in tile_terrains.items() if t not in project
    }
    for first, second in near_miss_pairs(where):
        if second in tile_terrains and second not in project:
            out.append(
                f'{name}: {where[second]} property "terrain": "{second[:30]}" is a near miss of the terrain '
                f'"{first[:30]}" of {where[first]}, so it makes a terrain of its own; spell it "{first[:30]}" if '
                "they are one terrain"
            )
    return out
