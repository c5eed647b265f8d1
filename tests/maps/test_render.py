"""Issue 4 "render-map": pixel-identical to Tiled's own renderer (references made by tmxrasterizer 1.8.2)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from game.maps.cli import check_map_main, render_map_main
from game.maps.loader import load_map
from game.maps.render import render_map

DATA = Path(__file__).parent / "data"
RENDERED = ["hex_y_odd", "hex_y_even", "hex_x_odd", "hex_x_even", "defaults"]


def _rgba(surface: pygame.Surface) -> npt.NDArray[np.int16]:
    w, h = surface.get_size()
    a = np.frombuffer(pygame.image.tobytes(surface, "RGBA"), dtype=np.uint8).reshape(h, w, 4).astype(np.int16)
    a[a[..., 3] == 0] = 0  # a fully transparent pixel has no colour
    return a


def _reference(name: str) -> npt.NDArray[np.int16]:
    return _rgba(pygame.image.load(str(DATA / f"{name}.png")))


@pytest.mark.parametrize("name", RENDERED)
def test_issue4_render_is_pixel_identical_to_tmxrasterizer(name: str) -> None:
    mine = _rgba(render_map(load_map(DATA / f"{name}.tmx")))
    ref = _reference(name)
    assert mine.shape == ref.shape
    assert int((mine != ref).any(axis=-1).sum()) == 0


@pytest.mark.parametrize("encoding", ["csv", "xml", "base64", "zlib", "gzip", "zstd"])
def test_issue4_every_encoding_renders_the_same(encoding: str) -> None:
    assert np.array_equal(_rgba(render_map(load_map(DATA / f"enc_{encoding}.tmx"))), _reference("hex_y_odd"))


def test_issue4_render_map_command_writes_the_reference_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    out = tmp_path / "out.png"
    assert render_map_main([str(DATA / "hex_x_even.tmx"), str(out)]) == 0
    assert np.array_equal(_rgba(pygame.image.load(str(out))), _reference("hex_x_even"))
    assert "158x158" in capsys.readouterr().out


def test_issue4_render_map_command_refuses_a_bad_map_in_one_line(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.tmx"
    bad.write_text("<map")
    assert render_map_main([str(bad), str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.tmx" in err and "Traceback" not in err
    assert render_map_main([str(bad)]) == 1


def _big_map(path: Path, size: int = 200) -> None:
    rng = np.random.default_rng(4)
    layers = []
    for i in range(3):
        gids = rng.integers(1, 7, size=size * size) if i == 0 else rng.choice([0, 0, 0, 2, 6], size=size * size)
        rows = [",".join(map(str, gids[r * size:(r + 1) * size].tolist())) for r in range(size)]
        layers.append(f'<layer id="{i + 1}" name="L{i}" width="{size}" height="{size}"><data encoding="csv">\n'
                      + ",\n".join(rows) + "\n</data></layer>")
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="hexagonal" width="{size}" '
        f'height="{size}" tilewidth="24" tileheight="28" infinite="0" hexsidelength="14" staggeraxis="y" '
        f'staggerindex="odd"><tileset firstgid="1" source="pointy.tsx"/>' + "".join(layers) + "</map>")


def _timed(path: Path) -> float:
    start = time.perf_counter()
    render_map(load_map(path))
    return time.perf_counter() - start


def test_issue4_check_map_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_map_main([str(DATA / "hex_y_odd.tmx")]) == 0
    out = capsys.readouterr().out
    assert "7x6 hexes" in out and "stagger y/odd" in out and "Aldric" in out and "deployment zone red" in out


def test_issue4_check_map_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert check_map_main([str(DATA / "hex_x_even.tmx"), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["width"], info["height"], info["stagger_axis"], info["stagger_index"]) == (7, 6, "x", "even")
    assert info["ok"] is True and sum(info["terrain"].values()) == 42
    assert {f["name"] for f in info["figures"]} == {"Aldric", "archer"}
    assert set(info["zones"]) == {"red", "blue"}


def test_issue4_check_map_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "iso.tmx"
    bad.write_text((DATA / "hex_y_odd.tmx").read_text().replace("hexagonal", "isometric"))
    assert check_map_main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: iso.tmx: <map>: the map is isometric") and err.count("\n") == 1
    assert check_map_main([]) == 1
