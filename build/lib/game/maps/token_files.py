"""Token picture files, checked without decoding them: where a GM's own token picture may lie, which
formats are read and how large it may be (a roster character's ``token`` or a Tiled figure object's
``token`` property; the pictures are drawn by ``game.ui.token_images``).

A picture is a path relative to the file that names it (the roster, or the map for a figure object) and
must stay inside that file's folder, as every file a map refers to does. It is a PNG, JPEG or WebP file of
at most ``MAX_TOKEN_BYTES`` bytes and ``MAX_TOKEN_SIDE`` pixels a side, read from the file's header.
``token_warnings`` is what ``check-map`` reports of them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

MAX_TOKEN_BYTES = 8 * 1024 * 1024
"""Largest token picture file read (the map loader allows 32 MB for a whole tileset)."""
MAX_TOKEN_SIDE = 4096
"""Largest width or height of a token picture in pixels (the map loader's tileset limit is 8192)."""
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WebP"}


class TokenImageRefused(ValueError):
    """A hostile token picture; the message is the sentence the GM reads."""


class TokenImageMissing(ValueError):
    """A token picture that is not there or not a picture this game reads; the figure keeps its made token."""


def resolve(folder: Path, ref: str, named_in: str) -> Path:
    """The picture ``ref`` names, relative to ``folder`` (the roster's or map's); refused outside it."""
    text = ref.strip()
    if not text:
        raise TokenImageMissing(f"{named_in}: an empty token file name; write the picture's file name or remove token")
    if len(text) > 1000:
        raise TokenImageRefused(f"{named_in}: a token file name of {len(text)} characters is refused; use a short path")
    base = folder.resolve()
    candidate = Path(text)
    path = (candidate if candidate.is_absolute() else base / candidate).resolve()
    if not path.is_relative_to(base):
        raise TokenImageRefused(
            f'{named_in}: token "{text[:80]}" lies outside {base.name}/ and is refused; copy the picture into '
            "that folder and name it from there"
        )
    return path


def image_size(head: bytes) -> tuple[str, int, int] | None:
    """The format and pixel size a PNG, JPEG or WebP file's first bytes declare, None if they declare none."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
        w, h = struct.unpack(">II", head[16:24])
        return "PNG", int(w), int(h)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP" and len(head) >= 30:
        chunk = head[12:16]
        if chunk == b"VP8X":
            w = 1 + int.from_bytes(head[24:27], "little")
            h = 1 + int.from_bytes(head[27:30], "little")
            return "WebP", w, h
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", head[26:30])
            return "WebP", w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and len(head) >= 25:
            bits = int.from_bytes(head[21:25], "little")
            return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        return None
    if head[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(head):
            if head[i] != 0xFF:
                return None
            marker = head[i + 1]
            length = int.from_bytes(head[i + 2 : i + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h, w = struct.unpack(">HH", head[i + 5 : i + 9])
                return "JPEG", int(w), int(h)
            i += 2 + length
        return None
    return None


def check(path: Path, shown: str) -> None:
    """Check a picture before decoding: there, a known format, within the size limits (``shown`` names it)."""
    if path.suffix.lower() not in FORMATS:
        raise TokenImageMissing(f"{shown}: a token picture must be a PNG, JPEG or WebP file; using the made token")
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise FileNotFoundError
    except OSError:
        raise TokenImageMissing(f"{shown}: no such token picture; using the made token (check the file name)") from None
    if size > MAX_TOKEN_BYTES:
        raise TokenImageRefused(
            f"{shown}: the token picture is {size} bytes, more than {MAX_TOKEN_BYTES}, and is refused; "
            "use a smaller picture"
        )
    try:
        with path.open("rb") as f:
            head = f.read(64 * 1024)
    except OSError as exc:
        raise TokenImageMissing(f"{shown}: the token picture cannot be read ({exc.strerror or exc})") from None
    declared = image_size(head)
    if declared is None:
        raise TokenImageRefused(
            f"{shown}: the file is not a {FORMATS[path.suffix.lower()]} picture (its header is damaged) and is "
            "refused; save it again from an image editor"
        )
    _, w, h = declared
    if not (0 < w <= MAX_TOKEN_SIDE and 0 < h <= MAX_TOKEN_SIDE):
        raise TokenImageRefused(
            f"{shown}: the token picture claims {w}x{h} pixels, more than {MAX_TOKEN_SIDE}x{MAX_TOKEN_SIDE}, and "
            "is refused; scale it down"
        )


def checked(folder: Path, ref: str, named_in: str) -> Path:
    """The picture ``ref`` names, relative to ``folder``, resolved and checked (``resolve`` then ``check``,
    the file shown relative to the folder); raises ``TokenImageMissing`` or ``TokenImageRefused``."""
    path = resolve(folder, ref, named_in)
    base = folder.resolve()
    check(path, f"{named_in}: {path.relative_to(base) if path.is_relative_to(base) else path.name}")
    return path


def figure_object_tokens(map_objects: Iterable[Any]) -> dict[str, object]:
    """The ``token`` property of each Tiled ``figure`` object that has one, by the figure's name (its object
    name, else its ``character``), as the map gives it."""
    out: dict[str, object] = {}
    for obj in map_objects:
        if str(getattr(obj, "cls", "")).strip().lower() != "figure":
            continue
        props = getattr(obj, "properties", {})
        if isinstance(props, Mapping) and "token" in props:
            name = str(getattr(obj, "name", "")).strip() or str(props.get("character", "")).strip()
            out[name] = props.get("token")
    return out


def token_warnings(
    map_path: Path, map_objects: Iterable[Any], roster_file: Path | None, characters: Mapping[str, Any]
) -> list[str]:
    """One sentence for each token picture a battle on this map would not show (missing, another format,
    or refused), from the map's figure objects and the roster's characters; each file told once."""
    out: list[str] = []
    seen: set[tuple[Path, str]] = set()

    def look(folder: Path, ref: object, named_in: str) -> None:
        if not isinstance(ref, str) or (folder, ref) in seen:
            return
        seen.add((folder, ref))
        try:
            checked(folder, ref, named_in)
        except (TokenImageRefused, TokenImageMissing) as exc:
            out.append(str(exc))

    for name, ref in figure_object_tokens(map_objects).items():
        look(map_path.parent, ref, f"{map_path.name}, figure {name!r}")
    if roster_file is not None:
        for key, table in characters.items():
            if isinstance(table, Mapping) and "token" in table:
                look(roster_file.parent, table.get("token"), f"{roster_file.name}, [characters.{key}]")
    return out


__all__ = [
    "FORMATS",
    "MAX_TOKEN_BYTES",
    "MAX_TOKEN_SIDE",
    "TokenImageMissing",
    "TokenImageRefused",
    "check",
    "checked",
    "figure_object_tokens",
    "image_size",
    "resolve",
    "token_warnings",
]
