"""Write the battle maps that ship with the game (Tiled .tmx files) from code.

Run it from the project root after ``python assets/make_tiles.py`` (which writes the tilesets it uses):

    python maps/make_maps.py

Each map is laid out by a function below from a fixed seed, so the output is the same every run. A GM
would rather draw a map in Tiled (see the GM's guide in the README); this script is how the shipped
maps were made, and remaking them after a change to the tile list keeps their tile ids right.
"""

from __future__ import annotations

import base64
import itertools
import math
import random
import sys
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "assets"))
sys.path.insert(0, str(ROOT))

import make_tiles as mt  # noqa: E402

from game.engine.hexgrid import Hex, distance, hex_to_offset, offset_to_hex  # noqa: E402

MAP_DIR = ROOT / "maps"
Cell = tuple[int, int]


# --------------------------------------------------------------------------------------------------
# A map under construction
# --------------------------------------------------------------------------------------------------
@dataclass
class Obj:
    """One object of the deployment layer."""

    name: str
    cls: str
    x: float
    y: float
    props: list[tuple[str, str, str]]  # (name, type or custom type, value)
    kind: str = "point"  # point | rect | polygon
    w: float = 0.0
    h: float = 0.0
    points: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class BattleMap:
    """A hex map: two tile layers of tile keys, and the deployment objects."""

    stem: str
    title: str
    description: str
    geom: mt.Geometry
    stagger_index: str
    width: int
    height: int
    encoding: str  # "csv" or "base64-zlib"
    layers: dict[str, list[list[str | None]]] = field(default_factory=dict)
    objects: list[Obj] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("ground", "features"):
            self.layers[name] = [[None] * self.width for _ in range(self.height)]

    @property
    def axis(self) -> str:
        return "y" if self.geom.kind == "pointy" else "x"

    # -- coordinates ------------------------------------------------------------------------------
    def hex(self, c: Cell) -> Hex:
        return offset_to_hex(c[0], c[1], self.axis, self.stagger_index)

    def cell(self, h: Hex) -> Cell:
        return hex_to_offset(h, self.axis, self.stagger_index)

    def on_map(self, c: Cell) -> bool:
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def cells(self) -> Iterable[Cell]:
        for row in range(self.height):
            for col in range(self.width):
                yield col, row

    def dist(self, a: Cell, b: Cell) -> int:
        return distance(self.hex(a), self.hex(b))

    def staggered(self, i: int) -> bool:
        return (i % 2 == 1) == (self.stagger_index == "odd")

    def centre(self, c: Cell) -> tuple[float, float]:
        """Pixel centre of a cell, as Tiled's hexagonal renderer places it."""
        col, row = c
        g = self.geom
        if self.axis == "y":
            x = col * g.width + (g.width / 2 if self.staggered(row) else 0)
            y = row * ((g.height - g.side) // 2 + g.side)
        else:
            x = col * ((g.width - g.side) // 2 + g.side)
            y = row * g.height + (g.height / 2 if self.staggered(col) else 0)
        return x + g.width / 2, y + g.height / 2

    # -- painting ---------------------------------------------------------------------------------
    def set(self, layer: str, c: Cell, key: str | None) -> None:
        if self.on_map(c):
            if key is not None and key not in mt.TILE_ID:
                raise KeyError(key)
            self.layers[layer][c[1]][c[0]] = key

    def get(self, layer: str, c: Cell) -> str | None:
        return self.layers[layer][c[1]][c[0]] if self.on_map(c) else None

    def ground(self, c: Cell, key: str) -> None:
        self.set("ground", c, key)

    def feature(self, c: Cell, key: str | None) -> None:
        self.set("features", c, key)

    def terrain_at(self, c: Cell) -> mt.Terrain:
        top = self.get("features", c) or self.get("ground", c)
        assert top is not None
        return mt.TERRAINS[mt.TILES[mt.TILE_ID[top]].terrain]

    def walkable(self, c: Cell) -> bool:
        return self.on_map(c) and not self.terrain_at(c).impassable

    def neighbours(self, c: Cell) -> list[Cell]:
        h = self.hex(c)
        out = []
        for d in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            n = self.cell(Hex(h.q + d[0], h.r + d[1]))
            if self.on_map(n):
                out.append(n)
        return out

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Cells on the straight line between two cells (Red Blob Games' hex_linedraw)."""
        ha, hb = self.hex(a), self.hex(b)
        n = distance(ha, hb)
        out = []
        for i in range(n + 1):
            t = i / max(n, 1)
            q = ha.q + (hb.q - ha.q) * t + 1e-6
            r = ha.r + (hb.r - ha.r) * t + 1e-6
            out.append(self.cell(_cube_round(q, r)))
        return out

    def path(self, points: list[Cell]) -> list[Cell]:
        out: list[Cell] = []
        for a, b in itertools.pairwise(points):
            for c in self.line(a, b):
                if not out or out[-1] != c:
                    out.append(c)
        return out

    def blob(self, centre: Cell, radius: float, rng: random.Random, rough: float = 0.6) -> list[Cell]:
        """Cells of an irregular patch around a centre."""
        out = []
        for c in self.cells():
            d = self.dist(centre, c)
            if d <= radius and (d < radius - 1 or rng.random() < rough):
                out.append(c)
        return out

    # -- deployment -------------------------------------------------------------------------------
    def deploy_rect(self, name: str, side: str, cells: list[Cell]) -> None:
        """A deployment rectangle just around the centres of the given cells."""
        xs = [self.centre(c)[0] for c in cells]
        ys = [self.centre(c)[1] for c in cells]
        m = min(self.geom.width, self.geom.height) * 0.4
        x0, y0 = max(0.0, min(xs) - m), max(0.0, min(ys) - m)
        x1, y1 = max(xs) + m, max(ys) + m
        self.objects.append(
            Obj(name, "deploy", round(x0), round(y0), [("side", "Side", side)], "rect", round(x1 - x0), round(y1 - y0))
        )

    def deploy_polygon(self, name: str, side: str, cells: list[Cell]) -> None:
        """A deployment polygon through points beyond the given cells' centres (listed around the zone)."""
        pts = [self.centre(c) for c in cells]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        grown = []
        for x, y in pts:
            dx, dy = x - cx, y - cy
            ln = math.hypot(dx, dy) or 1
            grown.append((x + dx / ln * 26, y + dy / ln * 26))
        x0, y0 = grown[0]
        self.objects.append(
            Obj(
                name,
                "deploy",
                round(x0),
                round(y0),
                [("side", "Side", side)],
                "polygon",
                points=[(round(x - x0), round(y - y0)) for x, y in grown],
            )
        )

    def figure(self, name: str, side: str, character: str, c: Cell, facing: int) -> None:
        if not self.walkable(c):
            raise ValueError(f"{self.stem}: figure {name} stands on {self.terrain_at(c).name} at {c}")
        x, y = self.centre(c)
        self.objects.append(
            Obj(
                name,
                "figure",
                x,
                y,
                [("side", "Side", side), ("character", "string", character), ("facing", "int", str(facing))],
            )
        )

    def terrain_object(self, name: str, c: Cell, props: list[tuple[str, str, str]]) -> None:
        x, y = self.centre(c)
        self.objects.append(Obj(name, "terrain", x, y, props))

    # -- output -----------------------------------------------------------------------------------
    def pixel_size(self) -> tuple[int, int]:
        g = self.geom
        if self.axis == "y":
            return self.width * g.width + g.width // 2, self.height * ((g.height - g.side) // 2 + g.side) + (
                g.height - g.side
            ) // 2
        return self.width * ((g.width - g.side) // 2 + g.side) + (
            g.width - g.side
        ) // 2, self.height * g.height + g.height // 2

    def write(self, roster: str) -> Path:
        g = self.geom
        ts = mt.tileset_name(g)
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" '
            f'width="{self.width}" height="{self.height}" tilewidth="{g.width}" tileheight="{g.height}" '
            f'infinite="0" hexsidelength="{g.side}" staggeraxis="{self.axis}" '
            f'staggerindex="{self.stagger_index}" nextlayerid="4" nextobjectid="{len(self.objects) + 1}">',
            " <properties>",
            f'  <property name="description" value={quoteattr(self.description)}/>',
            f'  <property name="name" value={quoteattr(self.title)}/>',
            f'  <property name="roster" value={quoteattr(roster)}/>',
            " </properties>",
            f' <tileset firstgid="1" source="{ts}.tsx"/>',
        ]
        for lid, (lname, grid) in enumerate(self.layers.items(), start=1):
            gids = [[0 if k is None else mt.TILE_ID[k] + 1 for k in row] for row in grid]
            out.append(f' <layer id="{lid}" name="{lname}" width="{self.width}" height="{self.height}">')
            if self.encoding == "csv":
                out.append('  <data encoding="csv">')
                rows = [",".join(str(v) for v in row) for row in gids]
                out.append(",\n".join(rows))
                out.append("</data>")
            else:
                raw = b"".join(v.to_bytes(4, "little") for row in gids for v in row)
                data = base64.b64encode(zlib.compress(raw, 9)).decode("ascii")
                out.append('  <data encoding="base64" compression="zlib">')
                out.append(f"   {data}")
                out.append("  </data>")
            out.append(" </layer>")
        out.append(' <objectgroup id="3" name="deployment">')
        for oid, o in enumerate(self.objects, start=1):
            attrs = f'id="{oid}" name={quoteattr(o.name)} type="{o.cls}" class="{o.cls}" x="{o.x:g}" y="{o.y:g}"'
            if o.kind == "rect":
                attrs += f' width="{o.w:g}" height="{o.h:g}"'
            out.append(f"  <object {attrs}>")
            out.append("   <properties>")
            for pname, ptype, value in sorted(o.props):  # sorted by name, as Tiled writes them
                if ptype in ("Side", "Terrain"):
                    out.append(f'    <property name="{pname}" propertytype="{ptype}" value={quoteattr(value)}/>')
                elif ptype == "string":
                    out.append(f'    <property name="{pname}" value={quoteattr(value)}/>')
                else:
                    out.append(f'    <property name="{pname}" type="{ptype}" value="{value}"/>')
            out.append("   </properties>")
            if o.kind == "point":
                out.append("   <point/>")
            elif o.kind == "polygon":
                pts = " ".join(f"{x:g},{y:g}" for x, y in o.points)
                out.append(f'   <polygon points="{pts}"/>')
            out.append("  </object>")
        out.append(" </objectgroup>")
        out.append("</map>")
        path = MAP_DIR / f"{self.stem}.tmx"
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        return path


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def smooth_noise(m: BattleMap, seed: int, scale: float) -> dict[Cell, float]:
    """A smooth random value in [0, 1] per cell (for varying the ground in patches)."""
    rng = random.Random(seed)
    spots = [(rng.uniform(-2, m.width + 2), rng.uniform(-2, m.height + 2), rng.random()) for _ in range(40)]
    out = {}
    for c in m.cells():
        num = den = 0.0
        for x, y, v in spots:
            wgt = math.exp(-((c[0] - x) ** 2 + (c[1] - y) ** 2) / (2 * scale * scale))
            num += wgt * v
            den += wgt
        out[c] = num / den if den else 0.5
    return out


def grass_ground(m: BattleMap, seed: int) -> None:
    """Fill the ground with grass, lush in some patches and flowering in others."""
    rng = random.Random(seed)
    noise = smooth_noise(m, seed, 3.0)
    for c in m.cells():
        v = noise[c] + rng.uniform(-0.08, 0.08)
        m.ground(c, "grass_lush" if v < 0.42 else "grass_flowers" if v > 0.62 and rng.random() < 0.5 else "grass")


# --------------------------------------------------------------------------------------------------
# 1. Open field: pointy-top, stagger y / odd, CSV
# --------------------------------------------------------------------------------------------------
def open_field() -> BattleMap:
    m = BattleMap(
        "open_field",
        "The Miller's Meadow",
        "Open meadow cut by a knee-deep stream, with a bridge, a ford, rough ground and a few "
        "copses; little to hide behind.",
        mt.POINTY,
        "odd",
        28,
        22,
        "csv",
    )
    rng = random.Random(11)
    grass_ground(m, 11)
    # the stream, north to south, meandering
    stream = m.path([(10, 0), (12, 4), (11, 8), (14, 11), (15, 15), (13, 18), (15, 21)])
    for c in stream:
        m.ground(c, "stream")
    # banks: mud and sand here and there
    for c in stream:
        for n in m.neighbours(c):
            if m.get("ground", n) != "stream" and rng.random() < 0.12:
                m.ground(n, rng.choice(["mud", "sand"]))
    # a pond in the south-west, deep in the middle
    for c in m.blob((4, 17), 2.5, rng, 0.5):
        if m.get("ground", c) != "stream":
            m.ground(c, "shallows" if m.dist(c, (4, 17)) >= 2 else "deep_water")
    for c in m.blob((4, 17), 3.5, rng, 0.5):
        if m.get("ground", c) not in ("stream", "shallows", "deep_water"):
            m.ground(c, "mud" if rng.random() < 0.35 else "rough")
    # the road, west to east, crossing the stream by a bridge
    road = m.path([(0, 14), (5, 13), (9, 11), (13, 10), (18, 8), (23, 8), (27, 6)])
    for c in road:
        m.ground(c, "bridge" if m.get("ground", c) == "stream" else "road")
    # a cart track down to a ford in the north
    track = m.path([(4, 0), (8, 3), (12, 4), (17, 3), (21, 0)])
    for c in track:
        g = m.get("ground", c)
        m.ground(c, "shallows" if g == "stream" else "dirt" if g not in ("road", "bridge") else g)
    # rough patches, a stony rise with boulders, brush and copses
    for centre, rad in (((6, 5), 2.5), ((21, 15), 3.0), ((18, 3), 1.5)):
        for c in m.blob(centre, rad, rng):
            if m.get("ground", c) in ("grass", "grass_lush", "grass_flowers"):
                m.ground(c, "rough")
    for c in m.blob((22, 12), 1.8, rng):
        if m.get("ground", c) in ("grass", "grass_lush", "grass_flowers", "rough"):
            m.ground(c, "rocky")
    for c in ((22, 12), (21, 11), (23, 13)):
        m.feature(c, "boulders")
    for centre, rad in (((8, 19), 2.0), ((19, 18), 1.6), ((25, 2), 2.2), ((2, 7), 1.6), ((16, 6), 1.2)):
        for c in m.blob(centre, rad, rng, 0.5):
            if m.get("ground", c) in ("grass", "grass_lush", "grass_flowers") and rng.random() < 0.85:
                m.feature(c, rng.choice(["trees", "trees", "firs"]))
    for c in m.path([(17, 13), (19, 14), (20, 17)]) + m.path([(5, 9), (8, 8)]):  # hedgerows
        if m.get("ground", c) in ("grass", "grass_lush", "grass_flowers", "rough"):
            m.feature(c, "brush")
    for _ in range(16):
        c = (rng.randrange(m.width), rng.randrange(m.height))
        if m.get("ground", c) in ("grass", "grass_lush", "grass_flowers", "rough") and not m.get("features", c):
            m.feature(c, "brush")
    # deployment: the Baron's men on the west edge, the brigands on the east
    west = [(c, r) for c in range(0, 4) for r in range(3, 19)]
    east = [(c, r) for c in range(24, 28) for r in range(3, 19)]
    m.deploy_rect("West edge", "blue", west)
    m.deploy_rect("East edge", "red", east)
    for name, char, c, f in (
        ("Sir Bors", "sir_bors", (3, 11), 0),
        ("Aldo", "spearman", (3, 9), 0),
        ("Berin", "spearman", (3, 13), 0),
        ("Cade", "man_at_arms", (2, 10), 0),
        ("Dunstan", "man_at_arms", (2, 12), 0),
        ("Wat", "archer", (1, 11), 0),
    ):
        m.figure(name, "blue", char, c, f)
    for name, char, c, f in (
        ("Black Hugh", "brigand_chief", (25, 10), 3),
        ("Mad Tom", "brigand_axe", (24, 8), 3),
        ("Gilly", "brigand", (24, 12), 3),
        ("Ned", "brigand", (25, 7), 3),
        ("Rook", "brigand", (24, 14), 3),
        ("Jory", "brigand_archer", (26, 11), 3),
        ("Piper", "brigand_archer", (26, 9), 3),
    ):
        m.figure(name, "red", char, c, f)
    return m


# --------------------------------------------------------------------------------------------------
# 2. Village: flat-top, stagger x / even, base64-zlib
# --------------------------------------------------------------------------------------------------
def house(m: BattleMap, cols: range, rows: range, doors: list[Cell], roofed: bool) -> None:
    """A house: walls round a wooden floor with doors in the walls, or (roofed) a block nobody enters."""
    inside = {(c, r) for c in cols for r in rows}
    for cell in inside:
        m.ground(cell, "floor")
        if roofed:
            m.feature(cell, "roof")
            continue
        edge = (
            any(n not in inside for n in m.neighbours(cell))
            or cell[0] in (cols[0], cols[-1])
            or cell[1] in (rows[0], rows[-1])
        )
        m.feature(cell, "house_wall" if edge else None)
    for d in doors:
        m.feature(d, "door")


def village() -> BattleMap:
    m = BattleMap(
        "village",
        "Harrowby Village",
        "A hamlet of stone houses along one street; walls and doors block sight, so the fight "
        "is room to room and round corners.",
        mt.FLAT,
        "even",
        30,
        22,
        "base64-zlib",
    )
    rng = random.Random(22)
    grass_ground(m, 22)
    street = m.path([(0, 11), (6, 11), (10, 10), (20, 10), (24, 11), (29, 11)])
    for c in street:
        m.ground(c, "road")
        for n in m.neighbours(c):
            if rng.random() < 0.25 and m.get("ground", n) not in ("road",):
                m.ground(n, "dirt")
    lane = m.path([(15, 10), (15, 21)]) + m.path([(15, 10), (16, 0)])
    for c in lane:
        m.ground(c, "road")
    # the green with flagstones round the well-head
    for c in m.blob((15, 10), 1.5, rng, 1.0):
        m.ground(c, "flagstones")
    m.feature((15, 10), "boulders")  # the old well's stone ring
    # open houses (fight inside) and roofed ones (solid blocks)
    house(m, range(5, 10), range(5, 9), [(7, 8)], roofed=False)
    house(m, range(18, 23), range(5, 9), [(20, 8), (22, 6)], roofed=False)
    house(m, range(9, 14), range(13, 17), [(11, 13)], roofed=False)
    house(m, range(20, 26), range(13, 18), [(22, 13), (20, 16)], roofed=False)
    house(m, range(11, 14), range(4, 7), [], roofed=True)
    house(m, range(25, 28), range(5, 8), [], roofed=True)
    house(m, range(4, 7), range(14, 17), [], roofed=True)
    house(m, range(17, 19), range(15, 18), [], roofed=True)
    # an interior partition with a door in the big house
    for r in range(14, 17):
        m.feature((23, r), "house_wall")
    m.feature((23, 15), "door")
    # garden plots, hedges, orchard trees, a muddy pig-run
    for c in m.blob((2, 4), 2.0, rng):
        m.ground(c, "dirt")
    for c in m.path([(0, 7), (4, 8), (4, 9)]):
        if m.get("features", c) is None:
            m.feature(c, "brush")
    for c in m.path([(26, 2), (29, 2)]) + m.path([(14, 19), (14, 21)]):
        m.feature(c, "brush")
    for c in m.blob((27, 18), 2.0, rng):
        m.ground(c, "mud")
    for centre in ((3, 19), (8, 20), (26, 1), (1, 2), (20, 20)):
        for c in m.blob(centre, 1.2, rng, 0.6):
            if m.get("features", c) is None and m.get("ground", c) not in ("road", "mud") and rng.random() < 0.6:
                m.feature(c, "trees")
    for c in ((10, 2), (19, 12), (8, 12), (24, 19)):
        m.feature(c, "rubble")
    # deployment: the militia comes in from the west, the brigands hold the east end of the village
    m.deploy_rect("West road", "blue", [(c, r) for c in range(0, 3) for r in range(6, 17)])
    m.deploy_polygon("Brigands' end", "red", [(24, 9), (29, 8), (29, 13), (26, 14), (24, 12)])
    for name, char, c, f in (
        ("Sergeant Osric", "sergeant", (2, 11), 0),
        ("Hal", "militia_spear", (2, 9), 1),
        ("Piers", "militia_spear", (2, 13), 0),
        ("Tam", "militia_club", (1, 10), 0),
        ("Will", "militia_club", (1, 12), 0),
        ("Mags", "militia_bow", (0, 11), 0),
    ):
        m.figure(name, "blue", char, c, f)
    for name, char, c, f in (
        ("Red Ulric", "brigand_chief", (26, 11), 3),
        ("Snipe", "brigand", (25, 10), 3),
        ("Cutter", "brigand_knife", (25, 12), 4),
        ("Harl", "brigand_axe", (27, 10), 3),
        ("Fen", "brigand", (27, 12), 4),
        ("Quill", "brigand_archer", (28, 11), 3),
    ):
        m.figure(name, "red", char, c, f)
    return m


# --------------------------------------------------------------------------------------------------
# 3. Forest road: pointy-top, stagger y / even, base64-zlib
# --------------------------------------------------------------------------------------------------
def forest_road() -> BattleMap:
    m = BattleMap(
        "forest_road",
        "Ambush at Wendel Wood",
        "A cart road through old woods: trees slow and shelter, dense thickets block sight, and "
        "outlaws wait on both sides.",
        mt.POINTY,
        "even",
        26,
        24,
        "base64-zlib",
    )
    rng = random.Random(33)
    noise = smooth_noise(m, 33, 2.5)
    for c in m.cells():
        v = noise[c]
        m.ground(c, "grass_lush" if v < 0.5 else "dirt" if v > 0.7 and rng.random() < 0.4 else "grass")
    road = m.path([(0, 20), (5, 17), (9, 15), (12, 12), (15, 9), (19, 6), (22, 4), (25, 1)])
    road_set = set(road)
    # a brook crossing the road by a plank bridge
    brook = m.path([(0, 5), (4, 7), (8, 9), (11, 13), (13, 16), (16, 20), (18, 23)])
    for c in brook:
        m.ground(c, "stream")
    for c in road:
        m.ground(c, "bridge" if m.get("ground", c) == "stream" else "road")
    wide = set()
    for c in road:
        for n in m.neighbours(c):
            if n not in road_set and m.get("ground", n) != "stream" and rng.random() < 0.12:
                m.ground(n, "dirt")
                wide.add(n)
    # woods: dense far from the road, open trees near it, a clearing and a knoll for archers
    knoll = (17, 14)
    for c in m.cells():
        d_road = min(m.dist(c, r) for r in road)
        g = m.get("ground", c)
        if g in ("road", "bridge", "stream") or c in wide:
            continue
        if m.dist(c, knoll) <= 2:
            m.ground(c, "hill_2")
            if m.dist(c, knoll) == 2 and rng.random() < 0.5:
                m.feature(c, "firs")
            elif rng.random() < 0.3:
                m.feature(c, "scree")
            continue
        if m.dist(c, (6, 6)) <= 2:  # a woodcutters' clearing
            if rng.random() < 0.25:
                m.feature(c, "brush")
            continue
        v = noise[c] + rng.uniform(-0.15, 0.15)
        if (d_road >= 5 and v > 0.5) or d_road >= 9:
            m.feature(c, "dense_woods")
        elif d_road >= 2 and rng.random() < 0.7:
            m.feature(c, rng.choice(["trees", "trees", "firs"]))
        elif d_road >= 1 and rng.random() < 0.35:
            m.feature(c, rng.choice(["brush", "trees", "firs"]))
    for c in ((10, 17), (20, 8), (7, 13)):
        m.feature(c, "boulders")
    for c in m.blob((5, 22), 1.5, rng):
        if m.get("ground", c) not in ("road", "stream", "bridge"):
            m.ground(c, "mud")
            m.feature(c, None)
    m.terrain_object("Dark hollow", (3, 10), [("light", "int", "-2")])
    # deployment: the convoy on the road; outlaws in the trees on both sides
    m.deploy_polygon("Convoy", "blue", [(5, 17), (9, 14), (12, 11), (13, 13), (10, 16), (6, 19)])
    m.deploy_rect("North thicket", "red", [(c, r) for c in range(11, 16) for r in range(4, 8)])
    m.deploy_rect("The knoll", "red", [(c, r) for c in range(15, 20) for r in range(12, 17)])
    for name, char, c, f in (
        ("Sir Alain", "knight", (9, 15), 1),
        ("Garth", "guard_spear", (11, 13), 1),
        ("Odo", "guard_spear", (7, 16), 2),
        ("Brand", "guard_sword", (12, 12), 1),
        ("Colm", "guard_bow", (8, 16), 1),
        ("Master Fitch", "merchant", (8, 15), 1),
    ):
        m.figure(name, "blue", char, c, f)
    for name, char, c, f in (
        ("Wulf the Grey", "outlaw_chief", (13, 6), 5),
        ("Alder", "outlaw", (12, 7), 5),
        ("Bramble", "outlaw", (14, 6), 5),
        ("Hob", "outlaw_spear", (13, 7), 5),
        ("Sloe", "outlaw_archer", (17, 14), 3),
        ("Rowan", "outlaw_archer", (16, 13), 3),
        ("Kestrel", "outlaw_archer", (18, 15), 3),
        ("Birch", "outlaw", (16, 15), 3),
    ):
        m.figure(name, "red", char, c, f)
    return m


# --------------------------------------------------------------------------------------------------
# 4. Ruined keep: flat-top, stagger x / odd, CSV
# --------------------------------------------------------------------------------------------------
def ruined_keep() -> BattleMap:
    m = BattleMap(
        "ruined_keep",
        "The Ruined Keep on Crow Hill",
        "A broken keep crowns a hill eight metres above the plain: archers on top shoot down at "
        "attackers climbing the slope.",
        mt.FLAT,
        "odd",
        26,
        24,
        "csv",
    )
    rng = random.Random(44)
    grass_ground(m, 44)
    top = (16, 9)
    noise = smooth_noise(m, 44, 2.0)
    levels = {}
    for c in m.cells():
        d = m.dist(c, top) + (noise[c] - 0.5) * 3.0
        # the hill is longer to the south-west, where the old path climbs
        lvl = 4 if m.dist(c, top) <= 3 else 3 if d <= 5.5 else 2 if d <= 7.5 else 1 if d <= 9.5 else 0
        levels[c] = lvl
        if lvl:
            m.ground(c, f"hill_{2 * lvl}")
    # the keep: a ring of wall at distance 3 with breaches, paving inside
    for c in m.cells():
        d = m.dist(c, top)
        if d <= 2:
            m.ground(c, "keep_floor")
        if d == 3:
            m.ground(c, "keep_floor")
            m.feature(c, "stone_wall")
    ring = [c for c in m.cells() if m.dist(c, top) == 3]
    ring.sort(key=lambda c: math.atan2(m.centre(c)[1] - m.centre(top)[1], m.centre(c)[0] - m.centre(top)[0]))
    for i, c in enumerate(ring):
        if i in (2, 3, 9, 13):
            m.feature(c, "broken_wall")
        if i in (8, 14):
            m.feature(c, "rubble")
    # the gate faces south-west, where the path arrives
    gate = min(ring, key=lambda c: m.dist(c, (12, 13)))
    m.feature(gate, "rubble")
    # a tower stump inside the north-east corner, rubble and fallen stones in the yard
    for c in ((17, 7), (18, 7)):
        m.feature(c, "stone_wall")
    for c in ((15, 9), (17, 10), (14, 8)):
        m.feature(c, "rubble")
    # the old path up from the south-west corner
    path = m.path([(0, 22), (4, 20), (8, 18), (10, 15), (12, 13), m.cell(m.hex(gate))])
    for c in path[:-1]:
        m.feature(c, "track")
    # slopes: scree and boulders; trees on the lower slopes; a stream in the east
    for c in m.cells():
        if m.get("features", c) or m.dist(c, top) <= 3:
            continue
        lvl = levels[c]
        if lvl >= 2 and rng.random() < 0.18:
            m.feature(c, "scree")
        elif lvl >= 1 and rng.random() < 0.06:
            m.feature(c, "boulders")
        elif lvl == 1 and rng.random() < 0.12:
            m.feature(c, "trees")
    brook = m.path([(25, 12), (23, 15), (22, 19), (24, 23)])
    for c in brook:
        if levels[c] == 0:
            m.ground(c, "stream")
            m.feature(c, None)
    for centre in ((4, 4), (7, 2), (2, 12)):
        for c in m.blob(centre, 1.5, rng, 0.6):
            if levels[c] == 0 and m.get("ground", c) != "stream":
                m.feature(c, rng.choice(["trees", "firs", "trees"]))
    for c in m.blob((10, 21), 2.0, rng):
        if levels[c] == 0 and not m.get("features", c):
            m.ground(c, "rough")
    # deployment: the garrison in the keep, the Baron's force at the foot of the hill
    m.deploy_polygon("The keep", "red", [(16, 6), (19, 7), (19, 10), (16, 12), (13, 10), (13, 7)])
    m.deploy_rect("Foot of the hill", "blue", [(c, r) for c in range(1, 9) for r in range(18, 23)])
    m.objects.append(
        Obj(
            "Loose scree",
            "terrain",
            *_rect_for(m, [(10, 12), (11, 12), (10, 13)]),
            [("footing", "int", "-2")],
            "rect",
            *_rect_size(m, [(10, 12), (11, 12), (10, 13)]),
        )
    )
    for name, char, c, f in (
        ("Sir Roderick", "knight", (5, 20), 1),
        ("Edric", "spearman", (6, 19), 1),
        ("Ivo", "spearman", (4, 19), 1),
        ("Leof", "man_at_arms", (7, 20), 1),
        ("Osgar", "man_at_arms", (3, 21), 1),
        ("Ailwin", "archer", (2, 20), 1),
        ("Tova", "archer", (5, 21), 1),
        ("Hamo", "archer", (1, 21), 1),
    ):
        m.figure(name, "blue", char, c, f)
    for name, char, c, f in (
        ("Castellan Vane", "castellan", (16, 9), 4),
        ("Grim", "garrison_axe", (15, 11), 4),
        ("Nock", "garrison_bow", (14, 10), 4),
        ("Flint", "garrison_bow", (16, 11), 4),
        ("Ash", "garrison_bow", (14, 9), 4),
        ("Bolt", "garrison_spear", (15, 10), 4),
    ):
        m.figure(name, "red", char, c, f)
    return m


def _rect_for(m: BattleMap, cells: list[Cell]) -> tuple[float, float]:
    xs = [m.centre(c)[0] for c in cells]
    ys = [m.centre(c)[1] for c in cells]
    return round(min(xs) - 20), round(min(ys) - 20)


def _rect_size(m: BattleMap, cells: list[Cell]) -> tuple[float, float]:
    xs = [m.centre(c)[0] for c in cells]
    ys = [m.centre(c)[1] for c in cells]
    return round(max(xs) - min(xs) + 40), round(max(ys) - min(ys) + 40)


# --------------------------------------------------------------------------------------------------
# 5. Wyrm's hollow: pointy-top, stagger y / odd, base64-zlib; a roster with spells, a dragon and mooks
# --------------------------------------------------------------------------------------------------
def wyrm_hollow() -> BattleMap:
    m = BattleMap(
        "wyrm_hollow",
        "The Wyrm's Hollow",
        "A stony valley ends at a dragon's cave: the wyrm and its goblin servants against a "
        "knight, a wizard and a priest. Room enough for a beast that fills seven hexes.",
        mt.POINTY,
        "odd",
        26,
        18,
        "base64-zlib",
    )
    rng = random.Random(55)
    patches = smooth_noise(m, 56, 3.0)
    for c in m.cells():
        v = patches[c] + rng.uniform(-0.06, 0.06)
        m.ground(c, "dirt" if v < 0.38 else "rough" if v > 0.66 else "grass")
    # cliffs along the north and south edges, ragged
    noise = smooth_noise(m, 55, 2.5)
    for c in m.cells():
        row = c[1]
        edge = min(row, m.height - 1 - row)
        if edge == 0 or (edge == 1 and noise[c] > 0.55):
            m.feature(c, "stone_wall")
        elif edge <= 2 and noise[c] > 0.45 and rng.random() < 0.5:
            m.feature(c, "scree")
    # the cave mouth in the east: a paved floor of old stone where the wyrm sleeps
    lair = (21, 9)
    for c in m.cells():
        if m.dist(c, lair) <= 3 and not m.get("features", c):
            m.ground(c, "keep_floor" if m.dist(c, lair) <= 2 else "rocky")
    for c in m.cells():
        if c[0] == m.width - 1 and not 6 <= c[1] <= 11:
            m.feature(c, "stone_wall")
    # a pool fed by a trickle, boulders and a few stunted firs in the valley
    for c in m.blob((10, 5), 1.6, rng, 0.5):
        if not m.get("features", c):
            m.ground(c, "shallows")
    for c in ((13, 12), (14, 12), (7, 11), (16, 4)):
        m.feature(c, "boulders")
    for c in ((4, 14), (5, 3), (12, 14)):
        m.feature(c, "firs")
    for c in m.blob((9, 12), 1.3, rng):
        if not m.get("features", c):
            m.feature(c, "brush")
    m.deploy_rect("Valley mouth", "blue", [(c, r) for c in range(1, 5) for r in range(5, 13)])
    m.deploy_rect("The lair", "red", [(c, r) for c in range(17, 24) for r in range(4, 14)])
    for name, char, c, f in (
        ("Sir Gawen", "knight", (4, 9), 0),
        ("Mirelda", "wizard", (2, 8), 0),
        ("Brother Anselm", "priest", (2, 10), 0),
        ("Tam", "archer", (3, 7), 0),
        ("Wenna", "archer", (3, 11), 0),
    ):
        m.figure(name, "blue", char, c, f)
    for name, char, c, f in (
        ("Ssarvex", "dragon", lair, 3),
        ("Snag", "goblin", (18, 6), 3),
        ("Grub", "goblin", (18, 8), 3),
        ("Nib", "goblin", (18, 11), 3),
        ("Skulk", "goblin_archer", (19, 5), 3),
        ("Rattle", "goblin_archer", (19, 12), 3),
    ):
        m.figure(name, "red", char, c, f)
    return m


MAPS: tuple[Callable[[], BattleMap], ...] = (open_field, village, forest_road, ruined_keep, wyrm_hollow)


def main() -> int:
    """Write every shipped map."""
    for make in MAPS:
        m = make()
        path = m.write(f"{m.stem}.roster.toml")
        w, h = m.pixel_size()
        print(
            f"wrote {path.relative_to(ROOT)}: {m.width}x{m.height} {m.geom.kind}-top, stagger "
            f"{m.axis}/{m.stagger_index}, {m.encoding}, {w}x{h} px, {len(m.objects)} objects"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
