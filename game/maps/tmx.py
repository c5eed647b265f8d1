"""A safe reader for Tiled's TMX / TSX files on hexagonal maps (the loader and its safety limits).

pytmx is not used for parsing because of its gaps (hex rotation bit kept in the tile id,
bit 29 read as a diagonal flip, no zstd, layers ordered by type, no group offsets, unchecked data length,
unbounded decompression, absolute and ``..`` paths accepted). This module reads the XML with ``defusedxml``
(no entity declarations, hence no entity expansion, and no external entities; the only DTD allowed is the
one Tiled's older files name in their first lines, ``<!DOCTYPE map SYSTEM "…/map.dtd">``, which is never
read), checks every size *before* it allocates, keeps every referenced file inside the map's folder, and
raises only ``MapLoadError``.

A map can be read two ways. ``read_tmx`` stops at the first problem, as loading a map for a battle does.
``read_tmx(path, problems)`` is how ``check-map`` reads it: a problem after which reading can go on (a
property's value, a layer's data, an object, a tileset) is added to ``problems`` and the map is read on
without it, so one run names every mistake; a problem that leaves nothing to read on (not XML, not a
hexagonal map, a size past the limits) still ends the reading.

A layer's tile data (CSV, base64, compressed) is decoded by ``game.maps.tmx_data``. Nothing here knows about
terrain or the rules: it turns the file into plain dataclasses in document
order (``TmxMap``), which ``game.maps.loader`` interprets.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

import defusedxml
import numpy as np
import numpy.typing as npt
from defusedxml.common import DTDForbidden
from defusedxml.ElementTree import DefusedXMLParser

from game.colours import parse_hex_colour
from game.maps.errors import MapLoadError
from game.maps.tmx_data import read_layer_data

# --- limits: generous for any real battle map, small enough to stay fast ---------
MAX_MAP_BYTES = 16 * 1024 * 1024
"""Largest .tmx file read."""
MAX_TILESET_BYTES = 4 * 1024 * 1024
"""Largest .tsx file read."""
MAX_IMAGE_BYTES = 32 * 1024 * 1024
"""Largest tileset image file read."""
MAX_IMAGE_SIDE = 8192
"""Largest width or height of a tileset image in pixels."""
MAX_SIDE = 1000
"""Largest map width or height in cells."""
MAX_CELLS = 1_000_000
"""Largest number of cells (width x height) of one layer."""
MAX_TOTAL_CELLS = 8_000_000
"""Largest number of cells over all tile layers together (32 MB of tile ids)."""
MAX_LAYERS = 256
MAX_TILESETS = 256
MAX_TILE_SIDE = 1024
MAX_OBJECTS = 20_000

FLIPPED_HORIZONTALLY = 0x80000000
FLIPPED_VERTICALLY = 0x40000000
FLIPPED_ANTI_DIAGONALLY = 0x20000000
"""On hexagonal maps Tiled reads this bit as a 60° clockwise rotation, not a diagonal flip."""
ROTATED_HEXAGONAL_120 = 0x10000000
"""Tiled's hexagonal 120° clockwise rotation (GID bit 28)."""
FLAG_MASK = 0xF0000000
GID_MASK = 0x0FFFFFFF

_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_INT = re.compile(r"^[+-]?\d{1,9}$")


@dataclass(frozen=True)
class TmxImage:
    """An image a tileset or tile refers to; ``path`` is resolved and inside the map's folder."""

    path: Path
    width: int
    height: int
    trans: tuple[int, int, int] | None


@dataclass(frozen=True)
class TmxTile:
    """A ``<tile>`` of a tileset: its custom properties and, in an image-collection tileset, its image."""

    id: int
    properties: Mapping[str, Any]
    image: TmxImage | None = None


@dataclass(frozen=True)
class TmxTileset:
    """One tileset of the map (embedded or from a .tsx file), with the map's ``firstgid``."""

    firstgid: int
    name: str
    source: Path | None
    tile_width: int
    tile_height: int
    spacing: int
    margin: int
    tile_count: int
    columns: int
    tile_offset: tuple[int, int]
    image: TmxImage | None
    tiles: Mapping[int, TmxTile]
    properties: Mapping[str, Any]

    def tile_ids(self) -> int:
        """How many local tile ids this tileset defines (ids 0 .. n-1 are valid)."""
        if self.image is not None:
            return self.tile_count
        return max(self.tiles, default=-1) + 1


@dataclass(frozen=True)
class TmxTileLayer:
    """A tile layer: raw 32-bit gids (flags included), [row, col], with its effective offset/opacity."""

    name: str
    gids: npt.NDArray[np.uint32]
    offset: tuple[float, float]
    opacity: float
    visible: bool
    properties: Mapping[str, Any]


@dataclass(frozen=True)
class TmxObject:
    """A map object. ``kind`` is rectangle, point, ellipse, polygon, polyline or tile."""

    id: int
    name: str
    cls: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    rotation: float
    points: tuple[tuple[float, float], ...]
    gid: int
    visible: bool
    properties: Mapping[str, Any]
    layer: str
    offset: tuple[float, float]


@dataclass(frozen=True)
class TmxMap:
    """A parsed hexagonal map, everything in document order."""

    path: Path
    width: int
    height: int
    tile_width: int
    tile_height: int
    hex_side_length: int
    stagger_axis: str
    stagger_index: str
    properties: Mapping[str, Any]
    tilesets: tuple[TmxTileset, ...]
    tile_layers: tuple[TmxTileLayer, ...]
    objects: tuple[TmxObject, ...]
    layer_offsets: tuple[tuple[float, float], ...] = field(default=())
    """The total offset of every non-group layer (tile, object and image layers alike)."""
    property_types: tuple[str, ...] = ()
    """The custom property types (Tiled's ``propertytype``: enums and classes of a project) the map uses."""
    warnings: tuple[str, ...] = ()
    """What the file does that Tiled accepts but the GM may not mean (no hex side length), one sentence each
    naming the element and the fix."""


# --- helpers -------------------------------------------------------------------------------------------


def _describe(elem: Element) -> str:
    name = elem.get("name")
    if name is not None:
        return f'<{elem.tag} name="{name[:40]}">'
    ident = elem.get("id")
    if ident is not None:
        return f'<{elem.tag} id="{ident[:12]}">'
    return f"<{elem.tag}>"


class _TiledXMLParser(DefusedXMLParser):  # type: ignore[misc]  # defusedxml has no type hints
    """defusedxml's parser, forbidding entities and external references, that lets through the one DTD a
    Tiled file may carry: a name with no declarations of its own (Tiled's older files begin with
    ``<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">``; the DTD is never fetched or read)."""

    def defused_start_doctype_decl(
        self, name: str, sysid: str | None, pubid: str | None, has_internal_subset: bool
    ) -> None:
        if has_internal_subset:
            raise DTDForbidden(name, sysid, pubid)


class _Reader:
    """Parses one map and the files it refers to, remembering the map for every error message."""

    def __init__(self, path: Path, problems: list[MapLoadError] | None = None) -> None:
        self.path = path
        self.folder = path.resolve().parent
        self.total_cells = 0
        self.property_types: set[str] = set()
        self.problems = problems
        self.warnings: list[str] = []
        self.failed_tilesets: list[int] = []
        """The first gids of tilesets that could not be read (checking only): their tiles are not named again."""

    def fail(self, element: str, problem: str, fix: str, file: Path | None = None) -> MapLoadError:
        return MapLoadError(file or self.path, element, problem, fix)

    def soft(self, err: MapLoadError) -> None:
        """A problem the reading can go on after: raised when loading, kept when checking (the caller then
        reads on without what was wrong)."""
        if self.problems is None:
            raise err
        self.problems.append(err)

    # -- files ------------------------------------------------------------------------------------
    def read_bytes(self, path: Path, limit: int, element: str) -> bytes:
        try:
            size = path.stat().st_size
            if not path.is_file():
                raise self.fail(element, f"{path.name} is not a file", "point it at a .tmx / .tsx file")
            if size > limit:
                raise self.fail(
                    element,
                    f"{path.name} is {size} bytes, more than the {limit} allowed",
                    "make the map smaller or save it with zlib compression in Tiled",
                )
            with path.open("rb") as f:
                return f.read(limit + 1)
        except OSError as exc:  # missing, unreadable, or gone between the size check and the read
            raise self.fail(
                element,
                f"cannot read {path.name} ({exc.strerror or exc})",
                "check that the file exists and is readable",
            ) from None

    def parse_xml(self, data: bytes, file: Path, root_tag: str) -> Element:
        try:
            parser = _TiledXMLParser(target=TreeBuilder(), forbid_dtd=True, forbid_entities=True, forbid_external=True)
            parser.feed(data)
            root: Element = parser.close()
        except defusedxml.DefusedXmlException:
            raise self.fail(
                "<!DOCTYPE>",
                "the file declares a DTD of its own or entities, which a map never needs",
                "save the map again from Tiled",
                file,
            ) from None
        except ParseError as exc:
            raise self.fail(
                "XML", f"not a well-formed XML file ({exc})", "open the file in Tiled and save it again", file
            ) from None
        except (ValueError, UnicodeError, RecursionError, LookupError) as exc:  # LookupError: unknown encoding
            raise self.fail(
                "XML",
                f"not a readable XML file ({exc.__class__.__name__})",
                "open the file in Tiled and save it again",
                file,
            ) from None
        if root.tag != root_tag:
            raise self.fail(
                f"<{root.tag}>",
                f"the document is not a Tiled <{root_tag}>",
                f"choose a {'.tmx map' if root_tag == 'map' else '.tsx tileset'} saved by Tiled",
                file,
            )
        return root

    def inside(self, base: Path, ref: str, element: str, file: Path) -> Path:
        """Resolve a referenced file name against ``base``; it must stay inside the map's folder."""
        if not ref or "\x00" in ref:
            raise self.fail(element, "a file reference is empty", "pick the file again in Tiled", file)
        if ref.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", ref) or "://" in ref:
            raise self.fail(
                element,
                f'the path "{ref[:80]}" is absolute',
                "keep tilesets and images in the map's folder and save the map again",
                file,
            )
        target = (base / ref).resolve()
        if not target.is_relative_to(self.folder):
            raise self.fail(
                element,
                f'"{ref[:80]}" lies outside the map\'s folder',
                "copy the file into the map's folder (or a subfolder) and pick it again in Tiled",
                file,
            )
        if not target.is_file():
            raise self.fail(
                element,
                f'the file "{ref[:80]}" does not exist',
                "restore the file or pick the right one in Tiled",
                file,
            )
        return target

    # -- attributes --------------------------------------------------------------------------------
    def int_attr(
        self, elem: Element, name: str, default: int | None, file: Path, lo: int = -(2**31), hi: int = 2**31 - 1
    ) -> int:
        raw = elem.get(name)
        if raw is None:
            if default is None:
                raise self.fail(
                    _describe(elem), f'the attribute "{name}" is missing', "save the file again from Tiled", file
                )
            return default
        raw = raw.strip()
        if not _INT.match(raw):
            raise self.fail(
                _describe(elem),
                f'{name}="{raw[:20]}" is not a whole number',
                f"give {name} a whole number in Tiled",
                file,
            )
        value = int(raw)
        if not lo <= value <= hi:
            raise self.fail(
                _describe(elem),
                f"{name}={value} is outside {lo}..{hi}",
                f"give {name} a value between {lo} and {hi}",
                file,
            )
        return value

    def float_attr(self, elem: Element, name: str, default: float, file: Path) -> float:
        raw = elem.get(name)
        if raw is None:
            return default
        raw = raw.strip()
        if not _NUMBER.match(raw) or len(raw) > 40:
            raise self.fail(
                _describe(elem), f'{name}="{raw[:20]}" is not a number', f"give {name} a number in Tiled", file
            )
        value = float(raw)
        if not math.isfinite(value) or abs(value) > 1e7:
            raise self.fail(
                _describe(elem), f"{name}={raw[:20]} is out of range", f"give {name} a reasonable value in Tiled", file
            )
        return value

    # -- properties --------------------------------------------------------------------------------
    def properties(self, elem: Element, file: Path) -> Mapping[str, Any]:
        props: dict[str, Any] = {}
        for block in elem.findall("properties"):
            for prop in block.findall("property"):
                name = prop.get("name")
                try:
                    if not name:
                        raise self.fail(
                            _describe(elem),
                            "a custom property has no name",
                            "give every custom property a name in Tiled",
                            file,
                        )
                    props[name] = self.property_value(prop, elem, file)
                except MapLoadError as err:
                    self.soft(err)  # checking: the property is left out and the rest read
        return MappingProxyType(props)

    def property_value(self, prop: Element, owner: Element, file: Path) -> Any:
        kind = prop.get("type", "string")
        custom = prop.get("propertytype")
        if custom:
            self.property_types.add(custom[:60])
        if kind == "class":
            return self.properties(prop, file)
        raw = prop.get("value")
        if raw is None:
            raw = prop.text or ""
        where = f'{_describe(owner)} property "{prop.get("name", "")[:40]}"'
        if kind == "int":
            if not _INT.match(raw.strip()):
                raise self.fail(
                    where, f'"{raw[:20]}" is not a whole number', "type a whole number into the property in Tiled", file
                )
            return int(raw)
        if kind == "float":
            if not _NUMBER.match(raw.strip()) or len(raw) > 40:
                raise self.fail(where, f'"{raw[:20]}" is not a number', "type a number in Tiled", file)
            return float(raw)
        if kind == "bool":
            if raw.strip() not in ("true", "false"):
                raise self.fail(where, f'"{raw[:20]}" is not true or false', "tick or untick it in Tiled", file)
            return raw.strip() == "true"
        if kind in ("string", "color", "file", "object"):
            return raw
        raise self.fail(
            where, f'the property type "{kind[:20]}" is unknown', "use a string, int, float or bool property", file
        )

    # -- the map -----------------------------------------------------------------------------------
    def read_map(self) -> TmxMap:
        path = self.path
        if path.suffix.lower() == ".gz":
            raise self.fail(
                "file name",
                f'"{path.name}" is compressed with gzip',
                f"unpack it first (gunzip {path.name}, or any archive tool) and check the .tmx inside",
            )
        if path.suffix.lower() != ".tmx":
            raise self.fail(
                "file name",
                f'"{path.name}" is not a .tmx file',
                "save the map in Tiled's TMX format (File > Save As, *.tmx)",
            )
        root = self.parse_xml(self.read_bytes(path, MAX_MAP_BYTES, "<map>"), path, "map")
        orientation = root.get("orientation", "orthogonal")
        if orientation != "hexagonal":
            raise self.fail(
                "<map>",
                f"the map is {orientation[:20]}, not hexagonal",
                "make a new map in Tiled with Orientation: Hexagonal (Map > Map Properties)",
            )
        if root.get("infinite", "0") != "0" or root.find("layer/data/chunk") is not None:
            raise self.fail(
                "<map>",
                "the map is infinite, so it has no edge to fight within",
                "untick Infinite in Map > Map Properties and save again",
            )
        width = self.int_attr(root, "width", None, path, 1, MAX_SIDE)
        height = self.int_attr(root, "height", None, path, 1, MAX_SIDE)
        if width * height > MAX_CELLS:
            raise self.fail(
                "<map>", f"{width}x{height} cells is more than {MAX_CELLS}", "make the map smaller (Map > Resize Map)"
            )
        tw = self.int_attr(root, "tilewidth", None, path, 2, MAX_TILE_SIDE)
        th = self.int_attr(root, "tileheight", None, path, 2, MAX_TILE_SIDE)
        if tw % 2 or th % 2:
            self.soft(
                self.fail(
                    "<map>",
                    f"the tile size {tw}x{th} is odd, which Tiled cannot draw consistently",
                    "set an even Tile Width and Tile Height in Map > Map Properties",
                )
            )
        axis = root.get("staggeraxis", "y")
        index = root.get("staggerindex", "odd")
        if axis not in ("x", "y"):
            raise self.fail(
                "<map>",
                f'staggeraxis="{axis[:10]}" is neither x nor y',
                "choose Stagger Axis X or Y in Map > Map Properties",
            )
        if index not in ("odd", "even"):
            raise self.fail(
                "<map>",
                f'staggerindex="{index[:10]}" is neither odd nor even',
                "choose Stagger Index Odd or Even in Map > Map Properties",
            )
        along = tw if axis == "x" else th
        if root.get("hexsidelength") is None:
            self.warnings.append(
                f"{path.name}: <map>: the hex map has no hexsidelength, so it is read as 0, as Tiled reads it "
                "(the hexes become diamonds, and objects drawn for another side length stand elsewhere); set "
                "Tile Side Length (Hex) in Map > Map Properties (about half the tile "
                f"{'width' if axis == 'x' else 'height'}, an even number)"
            )
        side = self.int_attr(root, "hexsidelength", 0, path, 0, along)
        if (along - side) % 2:
            self.soft(
                self.fail(
                    "<map>",
                    f"tile {'width' if axis == 'x' else 'height'} {along} minus hex side length "
                    f"{side} is odd, so the hexes cannot line up on whole pixels",
                    "make the Hex Side Length even when the tile size is even",
                )
            )
        props = self.properties(root, path)
        tilesets: list[TmxTileset] = []
        for ts in root.findall("tileset"):
            if len(tilesets) >= MAX_TILESETS:
                raise self.fail("<tileset>", f"more than {MAX_TILESETS} tilesets", "merge tilesets")
            try:
                tilesets.append(self.read_tileset(ts))
            except MapLoadError as err:
                self.soft(err)  # checking: the tileset is left out, and its tiles in the layers say nothing more
                first = ts.get("firstgid", "")
                if _INT.match(first.strip()):
                    self.failed_tilesets.append(int(first))
        tilesets.sort(key=lambda t: t.firstgid)
        self.tilesets = tilesets
        tile_layers: list[TmxTileLayer] = []
        objects: list[TmxObject] = []
        offsets: list[tuple[float, float]] = []
        self.layer_count = 0
        self.walk_layers(root, (0.0, 0.0), 1.0, True, width, height, tile_layers, objects, offsets)
        return TmxMap(
            path,
            width,
            height,
            tw,
            th,
            side,
            axis,
            index,
            props,
            tuple(tilesets),
            tuple(tile_layers),
            tuple(objects),
            tuple(offsets),
            tuple(sorted(self.property_types)),
            tuple(self.warnings),
        )

    def walk_layers(
        self,
        parent: Element,
        offset: tuple[float, float],
        opacity: float,
        visible: bool,
        width: int,
        height: int,
        tile_layers: list[TmxTileLayer],
        objects: list[TmxObject],
        offsets: list[tuple[float, float]],
    ) -> None:
        for elem in parent:
            if elem.tag not in ("layer", "group", "objectgroup", "imagelayer"):
                continue
            self.layer_count += 1
            if self.layer_count > MAX_LAYERS:
                raise self.fail(_describe(elem), f"the map has more than {MAX_LAYERS} layers", "merge layers")
            own = (
                offset[0] + self.float_attr(elem, "offsetx", 0.0, self.path),
                offset[1] + self.float_attr(elem, "offsety", 0.0, self.path),
            )
            op = opacity * min(1.0, max(0.0, self.float_attr(elem, "opacity", 1.0, self.path)))
            vis = visible and elem.get("visible", "1") != "0"
            if elem.tag == "group":
                self.walk_layers(elem, own, op, vis, width, height, tile_layers, objects, offsets)
                continue
            offsets.append(own)
            if elem.tag == "layer":
                tile_layers.append(self.read_tile_layer(elem, own, op, vis, width, height))
            elif elem.tag == "objectgroup":
                for obj in elem.findall("object"):
                    if len(objects) >= MAX_OBJECTS:
                        raise self.fail(_describe(elem), f"more than {MAX_OBJECTS} objects", "remove objects")
                    try:
                        objects.append(self.read_object(obj, elem.get("name", ""), own, vis))
                    except MapLoadError as err:
                        self.soft(err)  # checking: the object is left out

    # -- tilesets ----------------------------------------------------------------------------------
    def read_tileset(self, elem: Element) -> TmxTileset:
        firstgid = self.int_attr(elem, "firstgid", None, self.path, 1, GID_MASK)
        source = elem.get("source")
        file = self.path
        if source is not None:
            where = f'<tileset source="{source[:60]}">'
            if not source.lower().endswith(".tsx"):
                raise self.fail(
                    where,
                    "only .tsx tilesets can be read",
                    "export the tileset as .tsx (Tileset > Export Tileset As) and use it",
                )
            file = self.inside(self.path.parent, source, where, self.path)
            elem = self.parse_xml(self.read_bytes(file, MAX_TILESET_BYTES, where), file, "tileset")
        base = file.parent
        tw = self.int_attr(elem, "tilewidth", None, file, 1, MAX_TILE_SIDE)
        th = self.int_attr(elem, "tileheight", None, file, 1, MAX_TILE_SIDE)
        spacing = self.int_attr(elem, "spacing", 0, file, 0, MAX_TILE_SIDE)
        margin = self.int_attr(elem, "margin", 0, file, 0, MAX_TILE_SIDE)
        offset_elem = elem.find("tileoffset")
        tile_offset = (0, 0)
        if offset_elem is not None:
            tile_offset = (
                self.int_attr(offset_elem, "x", 0, file, -MAX_TILE_SIDE, MAX_TILE_SIDE),
                self.int_attr(offset_elem, "y", 0, file, -MAX_TILE_SIDE, MAX_TILE_SIDE),
            )
        image_elem = elem.find("image")
        image = self.read_image(image_elem, base, file) if image_elem is not None else None
        tiles: dict[int, TmxTile] = {}
        if image is not None:
            columns = max(0, (image.width - margin + spacing) // (tw + spacing))
            rows = max(0, (image.height - margin + spacing) // (th + spacing))
            tile_count = columns * rows
        else:
            columns = 0
            tile_count = 0
        for tile in elem.findall("tile"):
            tid = self.int_attr(tile, "id", None, file, 0, GID_MASK)
            timg = tile.find("image")
            tile_image = self.read_image(timg, base, file) if timg is not None else None
            if image is not None and tid >= tile_count:
                continue  # Tiled keeps properties of tiles cut off by a smaller image; they are never drawn
            if image is None and tile_image is None:
                raise self.fail(
                    _describe(tile),
                    "a tile of an image-collection tileset has no image",
                    "add the tile's image in Tiled or delete the tile",
                    file,
                )
            tiles[tid] = TmxTile(tid, self.properties(tile, file), tile_image)
        if image is None and not tiles:
            raise self.fail(_describe(elem), "the tileset has no image", "choose the tileset image in Tiled", file)
        name = elem.get("name", "")
        return TmxTileset(
            firstgid,
            name,
            file if source is not None else None,
            tw,
            th,
            spacing,
            margin,
            tile_count if image is not None else len(tiles),
            columns,
            tile_offset,
            image,
            MappingProxyType(tiles),
            self.properties(elem, file),
        )

    def read_image(self, elem: Element, base: Path, file: Path) -> TmxImage:
        source = elem.get("source")
        if source is None:
            raise self.fail(
                "<image>",
                "embedded image data is not supported",
                "save the image as a .png file next to the map and use it",
                file,
            )
        where = f'<image source="{source[:60]}">'
        path = self.inside(base, source, where, file)
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            raise self.fail(
                where, f"the image is {size} bytes, more than {MAX_IMAGE_BYTES}", "use a smaller tileset image", file
            )
        width, height = _image_size(path)
        if width is None or height is None:
            width = self.int_attr(elem, "width", 0, file, 0, MAX_IMAGE_SIDE)
            height = self.int_attr(elem, "height", 0, file, 0, MAX_IMAGE_SIDE)
        if not (0 < width <= MAX_IMAGE_SIDE and 0 < height <= MAX_IMAGE_SIDE):
            raise self.fail(
                where,
                f"the image is {width}x{height} pixels",
                f"use an image of at most {MAX_IMAGE_SIDE}x{MAX_IMAGE_SIDE} pixels",
                file,
            )
        trans = elem.get("trans")
        colour: tuple[int, int, int] | None = None
        if trans:
            colour = parse_hex_colour(trans, short=False)
            if colour is None:
                raise self.fail(
                    where, f'trans="{trans[:10]}" is not a colour', "pick the transparent colour again in Tiled", file
                )
        return TmxImage(path, width, height, colour)

    # -- tile layers -------------------------------------------------------------------------------
    def read_tile_layer(
        self, elem: Element, offset: tuple[float, float], opacity: float, visible: bool, width: int, height: int
    ) -> TmxTileLayer:
        where = _describe(elem)
        self.total_cells += width * height
        if self.total_cells > MAX_TOTAL_CELLS:
            raise self.fail(
                where, f"the tile layers hold more than {MAX_TOTAL_CELLS} cells together", "merge or delete tile layers"
            )
        data = elem.find("data")
        n = width * height
        flat = np.zeros(n, dtype=np.uint32)
        try:
            lw = self.int_attr(elem, "width", width, self.path, 0, MAX_SIDE)
            lh = self.int_attr(elem, "height", height, self.path, 0, MAX_SIDE)
            if (lw, lh) != (width, height):
                raise self.fail(
                    where,
                    f"the layer is {lw}x{lh} cells but the map is {width}x{height}",
                    "resize the map in Tiled (Map > Resize Map) so every layer has its size",
                )
            if data is not None:
                flat = read_layer_data(data, where, n, self.path)
        except MapLoadError as err:
            self.soft(err)  # checking: the layer is read as empty
        gids = self.check_gids(flat.reshape(height, width), where)
        gids.setflags(write=False)
        return TmxTileLayer(elem.get("name", ""), gids, offset, opacity, visible, self.properties(elem, self.path))

    def check_gids(self, gids: npt.NDArray[np.uint32], where: str) -> npt.NDArray[np.uint32]:
        """The layer's gids, each one naming a tile of a tileset; when checking, the first unknown tile is a
        problem and every unknown tile (and every tile of a tileset that could not be read) is left empty."""
        ids = np.unique(gids & GID_MASK)
        ids = ids[ids != 0]
        if ids.size == 0:
            return gids
        owners = sorted(
            [(t.firstgid, k) for k, t in enumerate(self.tilesets)] + [(f, -1) for f in self.failed_tilesets]
        )
        firsts = np.array([f for f, _ in owners], dtype=np.int64)
        bad: list[int] = []
        problem: MapLoadError | None = None
        if firsts.size == 0:
            problem = self.fail(
                where,
                f"the layer uses tile {int(ids[0])} but the map has no tileset",
                "add the tileset back to the map in Tiled",
            )
        which = np.searchsorted(firsts, ids, side="right") - 1
        for gid, i in zip(ids.tolist(), which.tolist(), strict=True):
            if i < 0 or not owners:
                bad.append(gid)
                problem = problem or self.fail(
                    where,
                    f"the layer uses tile {gid}, which no tileset defines",
                    "add the missing tileset back or erase those tiles in Tiled",
                )
                continue
            k = owners[i][1]
            if k < 0:  # a tileset that could not be read: its problem is already told
                bad.append(gid)
                continue
            ts = self.tilesets[k]
            local = gid - ts.firstgid
            known = local < ts.tile_count if ts.image is not None else local in ts.tiles
            if not known:
                bad.append(gid)
                problem = problem or self.fail(
                    where,
                    f'the layer uses tile {local} of tileset "{ts.name[:40]}", which it does not have',
                    "restore the tileset image or erase those tiles in Tiled",
                )
        if problem is not None:
            self.soft(problem)
        if not bad:
            return gids
        return np.where(np.isin(gids & GID_MASK, np.array(bad, dtype=np.uint32)), np.uint32(0), gids)

    # -- objects -----------------------------------------------------------------------------------
    def read_object(self, elem: Element, layer: str, offset: tuple[float, float], visible: bool) -> TmxObject:
        where = _describe(elem)
        if elem.get("template") is not None:
            raise self.fail(
                where,
                "object templates are not supported",
                "detach the object from its template in Tiled (right-click > Detach)",
            )
        x = self.float_attr(elem, "x", 0.0, self.path)
        y = self.float_attr(elem, "y", 0.0, self.path)
        w = self.float_attr(elem, "width", 0.0, self.path)
        h = self.float_attr(elem, "height", 0.0, self.path)
        rotation = self.float_attr(elem, "rotation", 0.0, self.path)
        gid = self.int_attr(elem, "gid", 0, self.path, 0, 0xFFFFFFFF)
        points: tuple[tuple[float, float], ...] = ()
        kind = "rectangle"
        if gid:
            kind = "tile"
        elif elem.find("point") is not None:
            kind = "point"
        elif elem.find("ellipse") is not None:
            kind = "ellipse"
        else:
            for tag in ("polygon", "polyline"):
                shape = elem.find(tag)
                if shape is not None:
                    kind = tag
                    points = self.points(shape.get("points", ""), where)
        return TmxObject(
            self.int_attr(elem, "id", 0, self.path, 0),
            elem.get("name", ""),
            elem.get("class", elem.get("type", "")),
            kind,
            x,
            y,
            w,
            h,
            rotation,
            points,
            gid,
            visible and elem.get("visible", "1") != "0",
            self.properties(elem, self.path),
            layer,
            offset,
        )

    def points(self, text: str, where: str) -> tuple[tuple[float, float], ...]:
        out: list[tuple[float, float]] = []
        for pair in text.split():
            xy = pair.split(",")
            if len(xy) != 2 or not all(_NUMBER.match(v) and len(v) < 40 for v in xy) or len(out) > 10_000:
                raise self.fail(where, "the polygon's points are damaged", "redraw the polygon in Tiled")
            out.append((float(xy[0]), float(xy[1])))
        if len(out) < 2:
            raise self.fail(where, "the polygon has fewer than two points", "redraw the polygon in Tiled")
        return tuple(out)


def _image_size(path: Path) -> tuple[int | None, int | None]:
    """Width and height from a PNG header without decoding the pixels (a huge image is refused unread)."""
    with path.open("rb") as f:
        head = f.read(32)
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    return None, None


def read_tmx(path: str | Path, problems: list[MapLoadError] | None = None) -> TmxMap:
    """Parse a hexagonal Tiled map safely. Without ``problems`` every problem raises ``MapLoadError``; with it
    (checking a map), each problem the reading can go on after is added to it and the map read on without
    what was wrong, and only a problem that leaves nothing to read raises."""
    p = Path(path)
    try:
        return _Reader(p, problems).read_map()
    except MapLoadError:
        raise
    except RecursionError:
        raise MapLoadError(p, "XML", "the file nests elements too deeply", "save the map again from Tiled") from None
    except MemoryError:
        raise MapLoadError(p, "<map>", "the map needs more memory than allowed", "make the map smaller") from None
