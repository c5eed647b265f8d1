"""A GM's own token pictures: kept inside the roster's (or map's) folder, PNG / JPEG / WebP within size and
pixel limits, cropped into the base; a missing or bad picture falls back to the made token with one
sentence, a hostile one is refused."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from game.engine.hexgrid import Hex
from game.maps import token_files
from game.maps.token_files import image_size
from game.roster import RosterError, parse_roster
from game.ui.app import App
from game.ui.board import Board, default_layout
from game.ui.mapdata import generated_field
from game.ui.token_images import figure_tokens
from game.ui.view import TokenView
from game.ui.widgets import TextCache

GOLD = (250, 200, 20)


@pytest.fixture(autouse=True)
def display() -> None:
    pygame.display.init()


def picture(path: Path, colour: tuple[int, int, int] = GOLD, size: tuple[int, int] = (40, 60)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    surf = pygame.Surface(size)
    surf.fill(colour)
    pygame.image.save(surf, str(path))
    return path


def figures(*chars: str) -> list[dict[str, Any]]:
    return [{"id": f"f{i + 1}", "name": f"Figure {i + 1}", "character": c} for i, c in enumerate(chars)]


def roster(token: object) -> dict[str, Any]:
    return {
        "sides": {"blue": {"name": "Blue", "colour": "#2f6fd0"}},
        "characters": {"knight": {"name": "Knight", "token": token}, "guard": {"name": "Guard"}},
    }


def test_roster_accepts_a_token_and_the_rules_never_see_it() -> None:
    r = parse_roster(roster("tokens/knight.png"))
    assert r.characters["knight"].name == "Knight"
    assert r.data["characters"]["knight"]["token"] == "tokens/knight.png"
    with pytest.raises(RosterError, match="token must be a file name"):
        parse_roster(roster(3))


def test_roster_token_is_read_relative_to_the_roster_and_drawn_in_the_base(tmp_path: Path) -> None:
    pic = picture(tmp_path / "tokens" / "knight.png")
    images = figure_tokens(figures("knight", "guard"), roster("tokens/knight.png"), tmp_path / "r.roster.toml")
    assert images.paths == {"f1": pic.resolve()} and not images.messages
    data = generated_field(20, 14)
    board = Board(default_layout(), 20, 14, data.source, TextCache(), (0, 0, 600, 400))
    board.images = images.surface
    t = TokenView("f1", "Knight", (47, 111, 208), Hex(4, 4), 0, look="sword", image=images.image_of("f1"))
    sprite, (cx, cy) = board.token_sprite(t)
    assert tuple(sprite.get_at((cx, cy)))[:3] == GOLD  # the picture in the middle
    r = round(board.token_radius())
    ring = sprite.get_at((cx, cy - r + 1))
    assert ring.b > 150 and ring.r < 120  # the side's ring over the picture


def test_missing_picture_falls_back_with_one_sentence_naming_the_file(tmp_path: Path) -> None:
    images = figure_tokens(figures("knight", "knight"), roster("tokens/nobody.png"), tmp_path / "r.roster.toml")
    assert images.paths == {}
    assert len(images.messages) == 1
    assert "nobody.png" in images.messages[0] and "made token" in images.messages[0]


def test_other_formats_fall_back(tmp_path: Path) -> None:
    (tmp_path / "k.gif").write_bytes(b"GIF89a" + bytes(20))
    images = figure_tokens(figures("knight"), roster("k.gif"), tmp_path / "r.roster.toml")
    assert images.paths == {} and "PNG, JPEG or WebP" in images.messages[0]


def test_a_path_outside_the_folder_is_refused(tmp_path: Path) -> None:
    picture(tmp_path / "elsewhere.png")
    folder = tmp_path / "rosters"
    folder.mkdir()
    for ref in ("../elsewhere.png", str(tmp_path / "elsewhere.png")):
        images = figure_tokens(figures("knight"), roster(ref), folder / "r.roster.toml")
        assert images.paths == {}
        assert "outside rosters/" in images.messages[0] and "refused" in images.messages[0]


def png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def test_a_picture_claiming_huge_pixels_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "bomb.png").write_bytes(png_header(60000, 60000) + bytes(100))
    images = figure_tokens(figures("knight"), roster("bomb.png"), tmp_path / "r.roster.toml")
    assert images.paths == {}
    assert "60000x60000" in images.messages[0] and "refused" in images.messages[0]


def test_a_file_too_large_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picture(tmp_path / "big.png", size=(300, 300))
    monkeypatch.setattr(token_files, "MAX_TOKEN_BYTES", 100)
    images = figure_tokens(figures("knight"), roster("big.png"), tmp_path / "r.roster.toml")
    assert images.paths == {} and "bytes, more than 100" in images.messages[0]


def test_a_corrupt_picture_is_refused_and_the_made_token_stays(tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(png_header(32, 32) + b"garbage" * 20)
    (tmp_path / "noise.png").write_bytes(b"this is no picture at all")
    images = figure_tokens(figures("knight", "knight"), roster("broken.png"), tmp_path / "r.roster.toml")
    assert images.paths == {}  # the header is sound: decoding tells, when the battle opens
    assert images.surface(str((tmp_path / "broken.png").resolve())) is None
    assert len(images.messages) == 1 and "does not decode" in images.messages[0]
    noise = figure_tokens(figures("knight"), roster("noise.png"), tmp_path / "r.roster.toml")
    assert noise.paths == {} and "header is damaged" in noise.messages[0]


def test_a_map_figure_objects_token_wins_over_the_rosters(tmp_path: Path) -> None:
    map_pic = picture(tmp_path / "maps" / "art" / "hero.png", (10, 200, 10))
    roster_pic = picture(tmp_path / "rosters" / "knight.png")
    obj = SimpleNamespace(cls="figure", name="Figure 1", properties={"token": "art/hero.png", "character": "knight"})
    images = figure_tokens(
        figures("knight", "knight"),
        roster("knight.png"),
        tmp_path / "rosters" / "r.roster.toml",
        tmp_path / "maps" / "m.tmx",
        [obj],
    )
    assert images.paths == {"f1": map_pic.resolve(), "f2": roster_pic.resolve()}


def test_image_size_reads_png_jpeg_and_webp_headers(tmp_path: Path) -> None:
    assert image_size(png_header(7, 9)) == ("PNG", 7, 9)
    jpeg = picture(tmp_path / "a.jpg", size=(33, 21))
    assert image_size(jpeg.read_bytes()[:65536]) == ("JPEG", 33, 21)
    vp8x = b"RIFF" + bytes(4) + b"WEBP" + b"VP8X" + bytes(8) + (99).to_bytes(3, "little") + (49).to_bytes(3, "little")
    assert image_size(vp8x) == ("WebP", 100, 50)
    assert image_size(b"nothing") is None


def test_a_reinforcement_from_a_roster_character_with_a_token_still_builds(app: App) -> None:
    """The GM's reinforcement reads the roster's table: its ``token`` is drawing, never a character field."""
    from game.ui.gm_edit import ReinforceDialog
    from tests.ui.test_gm_panel import open_as_referee

    screen, panel = open_as_referee(app)
    roster = screen.session.setup_data["roster"]
    key = next(iter(roster["characters"]))
    roster["characters"][key] = {**roster["characters"][key], "token": "tokens/x.png"}
    dialog = ReinforceDialog(screen.ui, panel)
    dialog.source = key
    assert dialog.character() is not None
    assert "token" not in dialog.roster_characters()[key]
