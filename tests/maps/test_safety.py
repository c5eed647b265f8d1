"""Map safety: malformed and hostile maps each end in one MapLoadError, fast and without much memory."""

from __future__ import annotations

import base64
import struct
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from game.maps.errors import MapLoadError
from game.maps.loader import load_map

DATA = Path(__file__).parent / "data"
BASE = (DATA / "hex_y_odd.tmx").read_text()
GROUND_CSV = BASE.split('<data encoding="csv">\n', 1)[1].split("\n</data>", 1)[0]


def _with_ground(data_element: str) -> str:
    """The fixture map with its Ground layer's data replaced."""
    head, rest = BASE.split('<data encoding="csv">\n', 1)
    return head.rstrip(" ").rstrip("\n") + "\n  " + data_element + rest.split("</data>", 1)[1]


def _b64(raw: bytes, compression: str | None) -> str:
    attr = f' compression="{compression}"' if compression else ""
    return f'<data encoding="base64"{attr}>{base64.b64encode(raw).decode()}</data>'


def _bomb_zlib(size: int) -> str:
    return _with_ground(_b64(zlib.compress(b"\0" * size, 9), "zlib"))


def _bomb_gzip(size: int) -> str:
    c = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return _with_ground(_b64(c.compress(b"\0" * size) + c.flush(), "gzip"))


def _bomb_zstd(size: int) -> str:
    return _with_ground(_b64(zstandard.ZstdCompressor(level=19).compress(b"\0" * size), "zstd"))


def _ids(n: int) -> bytes:
    return struct.pack(f"<{n}I", *([1] * n))


CASES: dict[str, Callable[[], str]] = {
    "not_xml": lambda: "this is not a map at all",
    "empty": lambda: "",
    "binary": lambda: "\x00\x01\x02PNG",
    "truncated": lambda: BASE[: len(BASE) // 2],
    "wrong_root": lambda: '<?xml version="1.0"?><tileset name="x"/>',
    "entity_expansion": lambda: (
        '<?xml version="1.0"?><!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><map orientation="hexagonal">&c;</map>'
    ),
    "external_entity": lambda: (
        '<?xml version="1.0"?><!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        '<map orientation="hexagonal">&x;</map>'
    ),
    "dtd_only": lambda: '<?xml version="1.0"?><!DOCTYPE map SYSTEM "http://example.com/x.dtd"><map/>',
    # a big bomb is refused by the length of its text, a small one by the bounded inflation
    "zlib_bomb": lambda: _bomb_zlib(200_000_000),
    "gzip_bomb": lambda: _bomb_gzip(200_000_000),
    "zstd_bomb": lambda: _bomb_zstd(200_000_000),
    "zlib_small_bomb": lambda: _bomb_zlib(4_000_000),
    "gzip_small_bomb": lambda: _bomb_gzip(4_000_000),
    "zstd_small_bomb": lambda: _bomb_zstd(4_000_000),
    "csv_too_short": lambda: _with_ground('<data encoding="csv">1,2,3</data>'),
    "csv_too_long": lambda: _with_ground('<data encoding="csv">' + ",".join(["1"] * 43) + "</data>"),
    "csv_not_numbers": lambda: _with_ground('<data encoding="csv">' + ",".join(["x"] * 42) + "</data>"),
    "csv_negative": lambda: _with_ground('<data encoding="csv">' + ",".join(["-1"] * 42) + "</data>"),
    "base64_short": lambda: _with_ground(_b64(_ids(41), None)),
    "base64_long": lambda: _with_ground(_b64(_ids(43), None)),
    "base64_damaged": lambda: _with_ground('<data encoding="base64">@@@@</data>'),
    "zlib_short": lambda: _with_ground(_b64(zlib.compress(_ids(41)), "zlib")),
    "zlib_damaged": lambda: _with_ground(_b64(b"not zlib at all", "zlib")),
    "zlib_truncated": lambda: _with_ground(_b64(zlib.compress(_ids(42))[:-6], "zlib")),
    "zstd_damaged": lambda: _with_ground(_b64(b"not zstd", "zstd")),
    "unknown_compression": lambda: _with_ground(_b64(_ids(42), "lzma")),
    "unknown_encoding": lambda: _with_ground('<data encoding="hex">00</data>'),
    "xml_tiles_short": lambda: _with_ground("<data>" + '<tile gid="1"/>' * 41 + "</data>"),
    "unknown_tile": lambda: _with_ground('<data encoding="csv">' + ",".join(["99"] * 42) + "</data>"),
    "layer_size_differs": lambda: BASE.replace('name="Ground" width="7"', 'name="Ground" width="8"'),
    "huge_map": lambda: BASE.replace('width="7" height="6" tilewidth', 'width="100000" height="100000" tilewidth'),
    "missing_tileset": lambda: BASE.replace('source="pointy.tsx"', 'source="nowhere.tsx"'),
    "absolute_tileset": lambda: BASE.replace('source="pointy.tsx"', 'source="/etc/passwd.tsx"'),
    "escaping_tileset": lambda: BASE.replace('source="pointy.tsx"', 'source="../../pointy.tsx"'),
    "escaping_image": lambda: BASE.replace('source="tree.png"', 'source="../data/../../tree.png"'),
    "absolute_image": lambda: BASE.replace('source="tree.png"', 'source="/usr/share/pixmaps/x.png"'),
    "url_image": lambda: BASE.replace('source="tree.png"', 'source="http://example.com/tree.png"'),
    "orthogonal": lambda: BASE.replace('orientation="hexagonal"', 'orientation="orthogonal"'),
    "isometric": lambda: BASE.replace('orientation="hexagonal"', 'orientation="isometric"'),
    "staggered": lambda: BASE.replace('orientation="hexagonal"', 'orientation="staggered"'),
    "infinite": lambda: BASE.replace('infinite="0"', 'infinite="1"'),
    "odd_tile_width": lambda: BASE.replace(
        'tilewidth="24" tileheight="28" infinite', 'tilewidth="25" tileheight="28" infinite'
    ),
    "odd_tile_height": lambda: BASE.replace(
        'tilewidth="24" tileheight="28" infinite', 'tilewidth="24" tileheight="27" infinite'
    ),
    "bad_stagger_axis": lambda: BASE.replace('staggeraxis="y"', 'staggeraxis="z"'),
    "bad_stagger_index": lambda: BASE.replace('staggerindex="odd"', 'staggerindex="sometimes"'),
    "side_too_long": lambda: BASE.replace('hexsidelength="14"', 'hexsidelength="40"'),
    "bad_width": lambda: BASE.replace('width="7" height="6" tilewidth', 'width="seven" height="6" tilewidth'),
    "bad_int_property": lambda: BASE.replace(
        'name="facing" type="int" value="3"', 'name="facing" type="int" value="three"'
    ),
    "bad_facing": lambda: BASE.replace('name="facing" value="NE"', 'name="facing" value="UP"'),
    "bad_bool_property": lambda: BASE.replace(
        'name="footing" type="int" value="-3"', 'name="blocks_sight" type="bool" value="maybe"'
    ),
    "positive_cover": lambda: BASE.replace('name="footing" type="int" value="-3"', 'name="cover" type="int" value="2"'),
    "penalty_not_a_number": lambda: BASE.replace(
        'name="move_penalty" type="int" value="3"', 'name="move_penalty" value="lots"'
    ),
    "figure_without_side": lambda: BASE.replace(
        '<property name="side" value="blue"/>\n   </properties>\n   <point/>', "</properties>\n   <point/>"
    ),
    "figure_off_map": lambda: BASE.replace(
        'name="Aldric" type="figure" x="60"', 'name="Aldric" type="figure" x="6000"'
    ),
    "figure_without_character": lambda: BASE.replace('<property name="character" value="swordsman"/>', ""),
    "duplicate_figure_names": lambda: BASE.replace(
        '<object id="4" type="figure"', '<object id="4" name="Aldric" type="figure"'
    ),
    "template_object": lambda: BASE.replace(
        '<object id="6" name="Decor"', '<object id="6" template="x.tx" name="Decor"'
    ),
    "chunked_layer": lambda: _with_ground(
        '<data encoding="csv"><chunk x="0" y="0" width="7" height="6">1</chunk></data>'
    ),
    "deep_nesting": lambda: BASE.replace("<group ", "<group>" * 50_000 + "<group ", 1).replace(
        "</group>", "</group>" * 50_001, 1
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_map_is_refused_with_one_line_quickly_and_small(case: str, tmp_path: Path) -> None:
    for name in ("pointy.tsx", "pointy.png", "tree.png"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    path = tmp_path / "hostile.tmx"
    path.write_text(CASES[case]())
    tracemalloc.start()
    start = time.process_time()
    try:
        with pytest.raises(MapLoadError) as info:
            load_map(path)
    finally:
        elapsed = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    message = str(info.value)
    assert "\n" not in message and message.startswith("hostile.tmx: ")
    # a guard against a blow-up (an entity or nesting bomb takes minutes), not a speed target: deep_nesting
    # took 1.05 s of CPU under tracemalloc with the whole suite beside it, 0.3 s alone
    assert elapsed < 3.0, f"{case} took {elapsed:.2f} s"
    assert peak < 64 * 1024 * 1024, f"{case} used {peak / 1e6:.0f} MB"


def test_map_load_error_is_a_value_error_naming_file_element_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "ortho.tmx"
    path.write_text(BASE.replace('orientation="hexagonal"', 'orientation="orthogonal"'))
    with pytest.raises(ValueError, match=r"^ortho\.tmx: <map>: the map is orthogonal.*Hexagonal"):
        load_map(path)


def test_tiled_missing_file_and_wrong_suffix(tmp_path: Path) -> None:
    with pytest.raises(MapLoadError, match=r"nothing\.tmx"):
        load_map(tmp_path / "nothing.tmx")
    (tmp_path / "map.json").write_text("{}")
    with pytest.raises(MapLoadError, match=r"\.tmx"):
        load_map(tmp_path / "map.json")


def test_tiled_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.tmx"
    with path.open("wb") as f:
        f.truncate(17 * 1024 * 1024)
    with pytest.raises(MapLoadError, match="bytes"):
        load_map(path)


def test_tiled_image_bomb_is_refused_from_its_header(tmp_path: Path) -> None:
    for name in ("pointy.tsx", "pointy.png"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    header = (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0)
    )
    (tmp_path / "tree.png").write_bytes(header + b"\0" * 100)
    (tmp_path / "m.tmx").write_text(BASE)
    with pytest.raises(MapLoadError, match="100000x100000"):
        load_map(tmp_path / "m.tmx")


def test_tiled_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    inner = tmp_path / "maps"
    inner.mkdir()
    for name in ("pointy.tsx", "pointy.png"):
        (inner / name).write_bytes((DATA / name).read_bytes())
    (tmp_path / "tree.png").write_bytes((DATA / "tree.png").read_bytes())
    (inner / "tree.png").symlink_to(tmp_path / "tree.png")
    (inner / "m.tmx").write_text(BASE)
    with pytest.raises(MapLoadError, match="outside the map's folder"):
        load_map(inner / "m.tmx")
