"""Make the Tiled test maps under tests/maps/data.

Run from the project root: ``python tests/maps/make_fixtures.py``. It draws small original tilesets with
pygame, writes maps for all four stagger combinations in CSV, round-trips every map through Tiled
itself (``tiled --export-map``) so the committed files are exactly what Tiled writes, makes one copy per
data encoding (XML, CSV, base64, zlib, gzip, zstd) through Tiled as well, and renders the reference images
with Tiled's renderer (``tmxrasterizer --no-smoothing``). The committed output is what the tests read;
this script only needs to run again when the fixtures change.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

DATA = Path(__file__).parent / "data"
H, V, D, R = 0x80000000, 0x40000000, 0x20000000, 0x10000000
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}

TERRAINS = [
    # name, colour, properties
    ("grass", (70, 150, 60), {"move_penalty": ("int", 0)}),
    ("rough", (150, 120, 60), {"move_penalty": ("int", 1), "footing": ("int", -1)}),
    ("water", (50, 90, 200), {"move_penalty": ("int", 2), "footing": ("int", -2), "cover": ("int", 0)}),
    ("wall", (110, 110, 110), {"impassable": ("bool", "true"), "blocks_sight": ("bool", "true")}),
    ("hill", (120, 170, 80), {"elevation": ("int", 3)}),
    ("wood", (30, 90, 40), {"move_penalty": ("int", 1), "cover": ("int", -1), "blocks_sight": ("bool", "true")}),
]


def hex_tile(
    surf: pygame.Surface,
    x: int,
    y: int,
    w: int,
    h: int,
    side: int,
    axis: str,
    colour: tuple[int, int, int],
    mark: tuple[int, int, int],
) -> None:
    """An opaque hexagon with an asymmetric mark, so every flip and turn shows."""
    if axis == "y":
        o = (h - side) // 2
        pts = [
            (x, y + h - o - 1),
            (x, y + o),
            (x + w // 2, y),
            (x + w - 1, y + o),
            (x + w - 1, y + h - o - 1),
            (x + w // 2, y + h - 1),
        ]
    else:
        o = (w - side) // 2
        pts = [
            (x, y + h // 2),
            (x + o, y),
            (x + w - o - 1, y),
            (x + w - 1, y + h // 2),
            (x + w - o - 1, y + h - 1),
            (x + o, y + h - 1),
        ]
    pygame.draw.polygon(surf, colour, pts)
    pygame.draw.rect(surf, mark, (x + w // 4, y + h // 3, w // 3, 3))
    pygame.draw.rect(surf, mark, (x + w // 4, y + h // 3, 3, h // 3))
    pygame.draw.circle(surf, (250, 250, 250), (x + 2 * w // 3, y + 2 * h // 3), 2)


def make_tileset(
    name: str,
    axis: str,
    w: int,
    h: int,
    side: int,
    spacing: int = 0,
    margin: int = 0,
    offset: tuple[int, int] | None = None,
) -> None:
    cols = 3
    rows = 2
    img = pygame.Surface(
        (margin * 2 + cols * w + (cols - 1) * spacing, margin * 2 + rows * h + (rows - 1) * spacing),
        pygame.SRCALPHA,
        32,
    )
    img.fill((0, 0, 0, 0))
    for i, (_, colour, _) in enumerate(TERRAINS):
        x = margin + (i % cols) * (w + spacing)
        y = margin + (i // cols) * (h + spacing)
        hex_tile(img, x, y, w, h, side, axis, colour, (200 - 30 * i, 40 * i, 20))
    pygame.image.save(img, str(DATA / f"{name}.png"))
    tiles = []
    for i, (tname, _, props) in enumerate(TERRAINS):
        lines = [f'  <property name="terrain" propertytype="Terrain" value="{tname}"/>']
        for key, (kind, value) in props.items():
            lines.append(f'  <property name="{key}" type="{kind}" value="{value}"/>')
        tiles.append(
            f' <tile id="{i}">\n  <properties>\n' + "\n".join(" " + x for x in lines) + "\n  </properties>\n </tile>"
        )
    sp = f' spacing="{spacing}" margin="{margin}"' if spacing or margin else ""
    off = f' <tileoffset x="{offset[0]}" y="{offset[1]}"/>\n' if offset else ""
    (DATA / f"{name}.tsx").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.8" tiledversion="1.8.2" name="{name}" '
        f'tilewidth="{w}" tileheight="{h}"{sp} tilecount="6" columns="3">\n'
        + off
        + f' <image source="{name}.png" width="{img.get_width()}" height="{img.get_height()}"/>\n'
        + "\n".join(tiles)
        + "\n</tileset>\n"
    )


def make_tree() -> None:
    """An image-collection tile taller than a cell, drawn with a tile offset (a tree over a hex)."""
    img = pygame.Surface((20, 36), pygame.SRCALPHA, 32)
    img.fill((0, 0, 0, 0))
    pygame.draw.rect(img, (90, 60, 30), (8, 22, 4, 14))
    pygame.draw.polygon(img, (20, 110, 30), [(10, 0), (19, 24), (0, 24)])
    pygame.draw.rect(img, (240, 240, 0), (2, 20, 3, 3))
    pygame.image.save(img, str(DATA / "tree.png"))


def csv(gids: list[list[int]]) -> str:
    return ",\n".join(",".join(str(g) for g in row) for row in gids)


def make_map(
    name: str, axis: str, index: str, w: int, h: int, side: int, tileset: str, seed: int, rotations: bool
) -> Path:
    rnd = random.Random(seed)
    cols, rows = 7, 6
    flags = [0, H, V, H | V]
    if rotations:
        flags += [D, R, D | R, R | H, D | V]
    ground = [[1 + rnd.randrange(6) | rnd.choice(flags) for _ in range(cols)] for _ in range(rows)]
    ground[0][0] = 1
    ground[0][1] = 5  # a hill
    ground[2][3] = 4  # a wall
    features = [[0] * cols for _ in range(rows)]
    features[1][2] = 6  # wood over the ground
    features[3][4] = 7  # the tree (tile of the collection tileset)
    features[4][1] = 7
    hidden = [[3] * cols for _ in range(rows)]
    cx, cy = (w // 2, h // 2)
    sx = w if axis == "y" else w - (w - side) // 2
    sy = h - (h - side) // 2 if axis == "y" else h
    path = DATA / f"{name}.tmx"
    path.write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{cols}" \
height="{rows}" tilewidth="{w}" tileheight="{h}" infinite="0" hexsidelength="{side}" staggeraxis="{axis}" \
staggerindex="{index}" nextlayerid="8" nextobjectid="9">
 <properties>
  <property name="name" value="Fixture {name}"/>
  <property name="description" value="A test map for every stagger combination"/>
  <property name="light" type="int" value="0"/>
 </properties>
 <tileset firstgid="1" source="{tileset}.tsx"/>
 <tileset firstgid="7" name="trees" tilewidth="20" tileheight="36" tilecount="1" columns="0">
  <tileoffset x="2" y="-3"/>
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0">
   <properties>
    <property name="cover" type="int" value="-2"/>
   </properties>
   <image width="20" height="36" source="tree.png"/>
   <objectgroup draworder="index" id="2">
    <object id="1" x="8" y="22" width="4" height="14"/>
   </objectgroup>
  </tile>
 </tileset>
 <layer id="1" name="Ground" width="{cols}" height="{rows}">
  <data encoding="csv">
{csv(ground)}
</data>
 </layer>
 <layer id="2" name="Hidden" width="{cols}" height="{rows}" visible="0">
  <properties>
   <property name="note" value="hidden layers still give terrain"/>
  </properties>
  <data encoding="csv">
{csv([[0] * cols for _ in range(rows)])}
</data>
 </layer>
 <group id="3" name="Group" offsetx="3" offsety="2">
  <layer id="4" name="Features" width="{cols}" height="{rows}" offsetx="1" offsety="-1">
   <data encoding="csv">
{csv(features)}
</data>
  </layer>
  <layer id="5" name="Faded" width="{cols}" height="{rows}" opacity="0.5" visible="0">
   <data encoding="csv">
{csv(hidden)}
</data>
  </layer>
 </group>
 <objectgroup id="6" name="Deployment">
  <object id="1" name="North" type="deploy" x="0" y="0" width="{cols * w}" height="{h}">
   <properties>
    <property name="side" propertytype="Side" value="red"/>
   </properties>
  </object>
  <object id="2" name="South" type="deploy" x="0" y="{(rows - 1) * sy}">
   <properties>
    <property name="side" value="blue"/>
   </properties>
   <polygon points="0,0 {cols * w},0 {cols * w},{2 * h} 0,{2 * h}"/>
  </object>
  <object id="3" name="Aldric" type="figure" x="{cx + 2 * sx}" y="{cy + 2 * sy}">
   <properties>
    <property name="character" value="swordsman"/>
    <property name="facing" value="NE"/>
    <property name="side" value="red"/>
   </properties>
   <point/>
  </object>
  <object id="4" type="figure" x="{cx + 3 * sx}" y="{cy + 3 * sy}">
   <properties>
    <property name="character" value="archer"/>
    <property name="facing" type="int" value="3"/>
    <property name="side" value="blue"/>
   </properties>
   <point/>
  </object>
  <object id="5" name="Mud" type="terrain" x="{cx + 4 * sx}" y="{cy + 4 * sy}">
   <properties>
    <property name="footing" type="int" value="-3"/>
    <property name="move_penalty" type="int" value="3"/>
   </properties>
   <point/>
  </object>
  <object id="6" name="Decor" type="scenery" x="1" y="1" width="5" height="5"/>
 </objectgroup>
</map>
""")
    return path


def tiled_export(src: Path, dst: Path) -> None:
    subprocess.run(
        ["tiled", "--export-map", str(src), str(dst)],
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def reencode(src: Path, dst: Path, encoding: str, compression: str | None) -> None:
    """Rewrite the layer data of a CSV map in another encoding, then let Tiled save it its own way."""
    import base64
    import gzip
    import re
    import struct
    import zlib

    import zstandard

    text = src.read_text()

    def repl(m: re.Match[str]) -> str:
        indent, body = m.group(1), m.group(2)
        gids = [int(v) for v in body.replace("\n", "").split(",")]
        if encoding == "xml":
            return (
                f"{indent}<data>\n"
                + "".join(f'{indent} <tile gid="{g}"/>\n' if g else f"{indent} <tile/>\n" for g in gids)
                + f"{indent}</data>"
            )
        raw = struct.pack(f"<{len(gids)}I", *gids)
        if compression == "zlib":
            raw = zlib.compress(raw)
        elif compression == "gzip":
            raw = gzip.compress(raw)
        elif compression == "zstd":
            raw = zstandard.ZstdCompressor().compress(raw)
        attrs = ' encoding="base64"' + (f' compression="{compression}"' if compression else "")
        return f"{indent}<data{attrs}>\n{indent} {base64.b64encode(raw).decode()}\n{indent}</data>"

    out = re.sub(r'( *)<data encoding="csv">\n(.*?)\n</data>', repl, text, flags=re.S)
    tmp = dst.with_suffix(".raw.tmx")
    tmp.write_text(out)
    tiled_export(tmp, dst)
    tmp.unlink()


def rasterize(tmx: Path, png: Path) -> None:
    subprocess.run(
        ["tmxrasterizer", "--no-smoothing", "--hide-layer", "Deployment", str(tmx), str(png)],
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


STAGGERS = [("y", "odd"), ("y", "even"), ("x", "odd"), ("x", "even")]
ENCODINGS = [("xml", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip"), ("base64", "zstd")]


def main() -> None:
    pygame.init()
    DATA.mkdir(parents=True, exist_ok=True)
    make_tileset("pointy", "y", 24, 28, 14)
    make_tileset("flat", "x", 28, 24, 14, spacing=2, margin=1)
    make_tree()
    for axis, index in STAGGERS:
        name = f"hex_{axis}_{index}"
        tileset = "pointy" if axis == "y" else "flat"
        w, h = (24, 28) if axis == "y" else (28, 24)
        src = make_map(
            name + "_src", axis, index, w, h, 14, tileset, seed=len(name) + ord(axis) + ord(index[0]), rotations=True
        )
        tiled_export(src, DATA / f"{name}.tmx")
        src.unlink()
        rasterize(DATA / f"{name}.tmx", DATA / f"{name}.png")
    # tiles larger than the map's grid, as Tiled's own hexagonal-mini.tmx draws them (18x18 art on a 14x12
    # grid): hex art for 32x36 tiles, raised by a tile offset, on the 24x28 grid of the pointy maps
    make_tileset("pointy_big", "y", 32, 36, 18, offset=(-2, 3))
    src = make_map("big_tiles_src", "y", "odd", 24, 28, 14, "pointy_big", seed=11, rotations=False)
    tiled_export(src, DATA / "big_tiles.tmx")
    src.unlink()
    rasterize(DATA / "big_tiles.tmx", DATA / "big_tiles.png")
    # a hex map with no hexsidelength at all, which Tiled reads as 0 (Tiled itself would write the 0 on
    # saving, so this one is not round-tripped)
    src = make_map("no_side_src", "y", "odd", 24, 28, 0, "pointy", seed=13, rotations=False)
    (DATA / "no_side.tmx").write_text(src.read_text().replace(' hexsidelength="0"', ""))
    src.unlink()
    rasterize(DATA / "no_side.tmx", DATA / "no_side.png")
    # hex side length 0 written out, and the stagger attributes left out (Tiled's defaults: y, odd)
    src = make_map("side0_src", "y", "odd", 24, 28, 0, "pointy", seed=7, rotations=False)
    text = src.read_text().replace(' staggeraxis="y"', "")
    text = text.replace(' staggerindex="odd"', "")
    (DATA / "defaults.tmx").write_text(text)
    src.unlink()
    rasterize(DATA / "defaults.tmx", DATA / "defaults.png")
    for encoding, compression in ENCODINGS:
        label = compression or encoding
        reencode(DATA / "hex_y_odd.tmx", DATA / f"enc_{label}.tmx", encoding, compression)
    shutil.copy(DATA / "hex_y_odd.tmx", DATA / "enc_csv.tmx")
    # Tiled 1.9+ writes the object type as "class"; Tiled 1.8 (Debian's) still writes "type"
    text = (DATA / "hex_y_odd.tmx").read_text().replace(' type="', ' class="')
    (DATA / "class_1_9.tmx").write_text(text.replace('version="1.8"', 'version="1.10"'))


if __name__ == "__main__":
    main()
