"""Decoding a tile layer's data safely (``game.maps.tmx`` reads the rest of a map).

Tiled stores a layer's tile ids as XML ``<tile>`` elements, CSV, or base64 of little-endian 32-bit ids,
optionally compressed with zlib, gzip or zstd. Every length is checked against the layer's size before
decoding, and decompression stops one byte past the expected size, so a decompression bomb costs nothing.
Every problem is a ``MapLoadError`` naming the map, the layer and the fix.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import zlib
from pathlib import Path
from xml.etree.ElementTree import Element

import numpy as np
import numpy.typing as npt

from game.maps.errors import MapLoadError


def read_layer_data(data: Element, where: str, n: int, path: Path) -> npt.NDArray[np.uint32]:
    """A tile layer's ``<data>`` as ``n`` raw gids (flags included): XML, CSV or base64, uncompressed or zlib,
    gzip or zstd; every size is checked before anything is allocated."""
    encoding = data.get("encoding")
    compression = data.get("compression")
    expected = 4 * n
    fix_len = f"the layer must hold exactly {n} tiles; resize the map in Tiled and save it again"
    if data.find("chunk") is not None:
        raise MapLoadError(
            path,
            where,
            "the layer is stored in chunks (an infinite map)",
            "untick Infinite in Map > Map Properties and save again",
        )
    if encoding is None:
        if compression is not None:
            raise MapLoadError(path, where, "XML tile data cannot be compressed", "save the map again from Tiled")
        tiles = data.findall("tile")
        if len(tiles) != n:
            raise MapLoadError(path, where, f"the data holds {len(tiles)} tiles, not {n}", fix_len)
        values = [t.get("gid", "0") for t in tiles]
        return _numbers(values, where, path)
    text = data.text or ""
    if encoding == "csv":
        if compression is not None:
            raise MapLoadError(path, where, "CSV tile data cannot be compressed", "save the map again from Tiled")
        if len(text) > n * 12 + 4096:
            raise MapLoadError(path, where, "the CSV data is far longer than the layer", fix_len)
        parts = text.replace("\n", "").replace("\r", "").replace(" ", "").replace("\t", "").split(",")
        if len(parts) != n:
            raise MapLoadError(path, where, f"the data holds {len(parts)} tiles, not {n}", fix_len)
        return _numbers(parts, where, path)
    if encoding != "base64":
        raise MapLoadError(
            path,
            where,
            f'the data encoding "{encoding[:12]}" is unknown',
            "choose CSV or Base64 as Tile Layer Format in Map > Map Properties",
        )
    # base64 text is 4/3 of its bytes; compressed data is never much larger than the raw tiles
    if len(text) > (expected * 4) // 3 + expected // 8 + 8192:
        raise MapLoadError(path, where, "the encoded data is far longer than the layer", fix_len)
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise MapLoadError(path, where, "the base64 data is damaged", "save the map again from Tiled") from None
    payload = _decompress(raw, compression, where, expected, path)
    if len(payload) != expected:
        count = len(payload) // 4 if len(payload) <= expected else f"more than {n}"
        raise MapLoadError(path, where, f"the data holds {count} tiles, not {n}", fix_len)
    return np.frombuffer(payload, dtype="<u4").astype(np.uint32)


def _decompress(raw: bytes, compression: str | None, where: str, expected: int, path: Path) -> bytes:
    """Inflate at most ``expected + 1`` bytes, so a decompression bomb stops at once."""
    limit = expected + 1
    try:
        if compression is None:
            return raw
        if compression in ("zlib", "gzip"):
            wbits = zlib.MAX_WBITS if compression == "zlib" else 16 + zlib.MAX_WBITS
            inflater = zlib.decompressobj(wbits)
            out = inflater.decompress(raw, limit)
            if len(out) <= expected and not inflater.eof:
                raise zlib.error("truncated stream")
            return out
        if compression == "zstd":
            import zstandard

            reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw))
            return reader.read(limit)
    except (zlib.error, OSError, ValueError, MemoryError, EOFError) as exc:
        raise MapLoadError(
            path, where, f"the {compression} data is damaged ({str(exc)[:60]})", "save the map again from Tiled"
        ) from None
    except Exception as exc:  # zstandard.ZstdError does not share a base with the above
        if exc.__class__.__name__ == "ZstdError":
            raise MapLoadError(
                path, where, f"the zstd data is damaged ({str(exc)[:60]})", "save the map again from Tiled"
            ) from None
        raise
    raise MapLoadError(
        path,
        where,
        f'the compression "{compression[:12]}" is unknown',
        "choose Base64 (zlib compressed) as Tile Layer Format in Map > Map Properties",
    )


def _numbers(values: list[str], where: str, path: Path) -> npt.NDArray[np.uint32]:
    """Tile ids written as text, each a whole number of 32 bits."""
    try:
        arr = np.array(values, dtype=np.int64)
    except (ValueError, OverflowError):
        bad = next((v for v in values if not re.fullmatch(r"\d{1,10}", v.strip())), "?")
        raise MapLoadError(path, where, f'"{bad[:20]}" is not a tile id', "save the map again from Tiled") from None
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 0xFFFFFFFF):
        raise MapLoadError(path, where, "a tile id is outside 0..4294967295", "save the map again from Tiled")
    return arr.astype(np.uint32)
