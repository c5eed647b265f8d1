"""A GM's own token pictures: a roster character's ``token = "tokens/knight.png"`` or a Tiled figure
object's ``token`` property, drawn cropped into the figure's base (``game.ui.token_art``).

A picture is a path relative to the file that names it (the roster, or the map for a figure object) and
must stay inside that file's folder, as every file a map refers to does. It is a PNG, JPEG or WebP file of
at most ``MAX_TOKEN_BYTES`` bytes and ``MAX_TOKEN_SIDE`` pixels a side (read from the file's header before
anything is decoded; those checks are ``game.maps.token_files``, which ``check-map`` uses too).

Two kinds of trouble, each told once per file in one sentence naming the file:

* a missing or unreadable picture, or one of another format: the figure keeps its made token (a warning);
* a hostile picture — a path outside the folder, a file too large, a header claiming too many pixels, a
  file that claims to be an image but does not decode — is refused unread (or undecoded) and the figure
  keeps its made token.

Nothing here ever raises into the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from game.maps.token_files import (
    MAX_TOKEN_SIDE,
    TokenImageMissing,
    TokenImageRefused,
    checked,
    figure_object_tokens,
)


@dataclass
class TokenImages:
    """The checked token pictures of a battle: figure id -> picture path, the pictures decoded on first
    use, and the sentences for the GM (each file once)."""

    paths: dict[str, Path] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    _loaded: dict[str, pygame.Surface | None] = field(default_factory=dict)

    def note(self, message: str) -> None:
        """Remember a sentence for the GM once."""
        if message not in self.messages:
            self.messages.append(message)

    def image_of(self, fid: str) -> str:
        """The picture of a figure as the token view carries it ("" for the made token)."""
        path = self.paths.get(fid)
        return str(path) if path is not None else ""

    def surface(self, path: str) -> pygame.Surface | None:
        """The decoded picture (None when it does not decode: refused, said once)."""
        if path in self._loaded:
            return self._loaded[path]
        out: pygame.Surface | None = None
        try:
            out = pygame.image.load(path)
            w, h = out.get_size()
            if not (0 < w <= MAX_TOKEN_SIDE and 0 < h <= MAX_TOKEN_SIDE):
                out = None
                raise ValueError("larger than its header said")
            if pygame.display.get_surface() is not None:
                out = out.convert_alpha()
        except (pygame.error, OSError, ValueError, MemoryError) as exc:
            out = None
            self.note(
                f"{Path(path).name}: the token picture does not decode ({exc}) and is refused; using the made "
                "token — save it again from an image editor"
            )
        self._loaded[path] = out
        return out


def _wanted(ref: Any, folder: Path, named_in: str, images: TokenImages) -> Path | None:
    """One reference checked: its path, or None with a sentence noted."""
    if not isinstance(ref, str) or not ref.strip():
        return None
    try:
        return checked(folder, ref, named_in)
    except (TokenImageRefused, TokenImageMissing) as exc:
        images.note(str(exc))
        return None


def figure_tokens(
    figures: Iterable[Mapping[str, Any]],
    roster_data: Mapping[str, Any],
    roster_file: Path | None,
    map_path: Path | None = None,
    map_objects: Iterable[Any] = (),
) -> TokenImages:
    """The pictures of a battle's figures (id, name, character as in the setup's figure list): a Tiled
    figure object's ``token`` (relative to the map) first, else the roster character's ``token`` (relative
    to the roster). Every file is checked and decoded once; trouble becomes a sentence in ``messages`` and
    the figure keeps its made token."""
    images = TokenImages()
    chars = roster_data.get("characters", {})
    chars = chars if isinstance(chars, Mapping) else {}
    by_object = {name: ref for name, ref in figure_object_tokens(map_objects).items() if ref}
    seen: dict[tuple[str, str], Path | None] = {}
    for f in figures:
        fid, name, key = str(f.get("id", "")), str(f.get("name", "")), str(f.get("character", ""))
        if name in by_object and map_path is not None:
            where = (str(map_path), str(by_object[name]))
            if where not in seen:
                seen[where] = _wanted(by_object[name], map_path.parent, f"{map_path.name}, figure {name!r}", images)
            path = seen[where]
        else:
            table = chars.get(key)
            ref = table.get("token") if isinstance(table, Mapping) else None
            if not ref or roster_file is None:
                continue
            where = (str(roster_file), str(ref))
            if where not in seen:
                seen[where] = _wanted(ref, roster_file.parent, f"{roster_file.name}, [characters.{key}]", images)
            path = seen[where]
        # decoded now, so a picture that does not decode is told with the others when the battle opens
        if path is not None and images.surface(str(path)) is not None:
            images.paths[fid] = path
    return images


def session_tokens(setup_data: Mapping[str, Any], loaded: Any) -> TokenImages:
    """``figure_tokens`` for a battle's saved setup and its loaded map (``game.maps.loader.LoadedMap``)."""
    roster_file = setup_data.get("roster_file")
    roster = setup_data.get("roster", {})
    return figure_tokens(
        setup_data.get("figures", []),
        roster if isinstance(roster, Mapping) else {},
        Path(str(roster_file)) if roster_file else None,
        getattr(loaded, "path", None),
        getattr(getattr(loaded, "tmx", None), "objects", ()),
    )


__all__ = ["TokenImages", "figure_tokens", "session_tokens"]
