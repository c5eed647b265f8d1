"""Our TMX reader agrees with pytmx, an independent reader, wherever pytmx can read a map.

The game's loader parses TMX itself (defusedxml, size caps, no path escapes) because of pytmx's gaps; pytmx
stays in the development requirements as the yardstick for the decoded tile data of well-formed maps.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from game.maps.loader import load_map

pytmx = pytest.importorskip("pytmx", reason="pytmx is a development requirement (requirements-dev.txt)")

ROOT = Path(__file__).resolve().parents[2]
FLAGS = 0xF0000000  # Tiled's flip and rotation bits (31, 30, 29, 28)

# pytmx 3.32 reads neither zstd nor XML <tile> layer data, so enc_zstd.tmx and enc_xml.tmx are left out.
MAPS = sorted((ROOT / "maps").glob("*.tmx")) + [
    ROOT / "tests" / "maps" / "data" / name
    for name in (
        "enc_csv.tmx",
        "enc_base64.tmx",
        "enc_zlib.tmx",
        "enc_gzip.tmx",
        "hex_y_odd.tmx",
        "hex_y_even.tmx",
        "hex_x_odd.tmx",
        "hex_x_even.tmx",
        "big_tiles.tmx",  # tiles larger than the grid, as Tiled's own hexagonal-mini.tmx
        "no_side.tmx",  # a hex map with no hexsidelength
    )
]


def _pytmx_layers(path: Path) -> dict[str, np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tmx = pytmx.TiledMap(str(path), image_loader=lambda *a, **k: lambda *a2, **k2: None)
    gidmap = {internal: tiled for internal, tiled in tmx.tiledgidmap.items()}
    out = {}
    for layer in tmx.layers:
        if isinstance(layer, pytmx.TiledTileLayer):
            data = np.asarray([[gidmap.get(g, 0) if g else 0 for g in row] for row in layer.data], dtype=np.int64)
            out[layer.name] = data
    return out


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_tiled_tile_data_agrees_with_pytmx(path: Path) -> None:
    ours = load_map(path)
    theirs = _pytmx_layers(path)
    ours_by_name = {layer.name: np.asarray(layer.gids, dtype=np.int64) & ~FLAGS for layer in ours.tmx.tile_layers}
    assert ours_by_name, f"{path.name} has no tile layers"
    for name, gids in ours_by_name.items():
        if name not in theirs:
            continue  # pytmx merges group layers differently; compare the layers both name
        other = theirs[name] & ~FLAGS
        assert gids.shape == other.shape, name
        assert np.array_equal(gids, other), f"{path.name}: layer {name!r} decodes differently from pytmx"
    assert set(ours_by_name) & set(theirs), "no layer in common with pytmx"


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_the_grid_and_the_tilesets_sizes_agree_with_pytmx(path: Path) -> None:
    """The map's grid (a missing hexsidelength read as 0, as by Tiled) and each tileset's tile size and offset,
    which the drawing of tiles of another size than the grid rests on."""
    ours = load_map(path).tmx
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pytmx.TiledMap(str(path), image_loader=lambda *a, **k: lambda *a2, **k2: None)
    assert (ours.width, ours.height, ours.tile_width, ours.tile_height) == (
        theirs.width,
        theirs.height,
        theirs.tilewidth,
        theirs.tileheight,
    )
    assert ours.hex_side_length == int(theirs.hexsidelength)
    assert (ours.stagger_axis, ours.stagger_index) == (theirs.staggeraxis, theirs.staggerindex)
    sizes = {ts.firstgid: (ts.tile_width, ts.tile_height, ts.tile_offset) for ts in ours.tilesets}
    assert sizes == {
        ts.firstgid: (ts.tilewidth, ts.tileheight, tuple(int(v) for v in ts.offset)) for ts in theirs.tilesets
    }
