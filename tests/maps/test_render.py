"""``render-map``: pixel-identical to Tiled's own renderer (references made by tmxrasterizer 1.8.2)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from game.cli.maps import check_map_main, render_map_main
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
def test_render_is_pixel_identical_to_tmxrasterizer(name: str) -> None:
    mine = _rgba(render_map(load_map(DATA / f"{name}.tmx")))
    ref = _reference(name)
    assert mine.shape == ref.shape
    assert int((mine != ref).any(axis=-1).sum()) == 0


@pytest.mark.parametrize("encoding", ["csv", "xml", "base64", "zlib", "gzip", "zstd"])
def test_render_every_encoding_renders_the_same(encoding: str) -> None:
    assert np.array_equal(_rgba(render_map(load_map(DATA / f"enc_{encoding}.tmx"))), _reference("hex_y_odd"))


def test_render_map_command_writes_the_reference_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.png"
    assert render_map_main([str(DATA / "hex_x_even.tmx"), str(out)]) == 0
    assert np.array_equal(_rgba(pygame.image.load(str(out))), _reference("hex_x_even"))
    assert "158x158" in capsys.readouterr().out


def test_render_map_command_refuses_a_bad_map_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
        rows = [",".join(map(str, gids[r * size : (r + 1) * size].tolist())) for r in range(size)]
        layers.append(
            f'<layer id="{i + 1}" name="L{i}" width="{size}" height="{size}"><data encoding="csv">\n'
            + ",\n".join(rows)
            + "\n</data></layer>"
        )
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="hexagonal" width="{size}" '
        f'height="{size}" tilewidth="24" tileheight="28" infinite="0" hexsidelength="14" staggeraxis="y" '
        f'staggerindex="odd"><tileset firstgid="1" source="pointy.tsx"/>' + "".join(layers) + "</map>"
    )


def _timed(path: Path) -> float:
    start = time.process_time()
    render_map(load_map(path))
    return time.process_time() - start


def test_check_map_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_map_main([str(DATA / "hex_y_odd.tmx")]) == 0
    out = capsys.readouterr().out
    assert "7x6 hexes" in out and "stagger y/odd" in out and "Aldric" in out and "deployment zone red" in out


def test_check_map_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert check_map_main([str(DATA / "hex_x_even.tmx"), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["width"], info["height"], info["stagger_axis"], info["stagger_index"]) == (7, 6, "x", "even")
    assert info["ok"] is True and sum(info["terrain"].values()) == 42
    assert {f["name"] for f in info["figures"]} == {"Aldric", "archer"}
    assert set(info["zones"]) == {"red", "blue"}


def test_check_map_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "iso.tmx"
    bad.write_text((DATA / "hex_y_odd.tmx").read_text().replace("hexagonal", "isometric"))
    assert check_map_main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: iso.tmx: <map>: the map is isometric") and err.count("\n") == 1
    assert check_map_main([]) == 1


def _map_with_roster(tmp_path: Path, roster_text: str) -> Path:
    """A copy of the shipped open field whose roster (named by its 'roster' property) is ``roster_text``."""
    root = Path(__file__).resolve().parents[2] / "maps"
    for name in ("open_field.tmx", "terrain_flat.tsx", "terrain_pointy.tsx"):
        (tmp_path / name).write_bytes((root / name).read_bytes())
    if (root / "tiles").is_dir():
        import shutil

        shutil.copytree(root / "tiles", tmp_path / "tiles")
    (tmp_path / "open_field.roster.toml").write_text(roster_text, encoding="utf-8")
    return tmp_path / "open_field.tmx"


_SHIPPED_ROSTER = (Path(__file__).resolve().parents[2] / "maps" / "open_field.roster.toml").read_text()


@pytest.mark.parametrize(
    "broken, words",
    [
        (_SHIPPED_ROSTER.replace('strength = "Good"', 'strength = "Gud"', 1), ["Gud"]),
        (_SHIPPED_ROSTER.replace("[characters.archer]", "[characters.archer", 1), ["not valid TOML"]),
        (_SHIPPED_ROSTER.replace('weapons = ["Shortsword"]', 'weapons = ["Macee"]', 1), ["Macee"]),
        (_SHIPPED_ROSTER.replace("[characters.sir_bors]", "[characters.sir_borz]", 1), ["sir_bors", "add [characters"]),
    ],
)
def test_check_map_refuses_a_roster_a_battle_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], broken: str, words: list[str]
) -> None:
    from game.roster import RosterError
    from game.session import SetupError, new_session

    mp = _map_with_roster(tmp_path, broken)
    with pytest.raises((RosterError, SetupError)):
        new_session(mp, autosave=False)
    assert check_map_main([str(mp)]) == 2
    err = capsys.readouterr().err
    assert "open_field" in err and all(w in err for w in words)
    assert check_map_main([str(mp), "--json"]) == 2
    assert '"ok": false' in capsys.readouterr().out


def test_check_map_lists_every_bad_character(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = _SHIPPED_ROSTER.replace('strength = "Good"', 'strength = "Gud"', 1).replace(
        'weapons = ["Shortsword"]', 'weapons = ["Macee"]', 1
    )
    assert check_map_main([str(_map_with_roster(tmp_path, broken))]) == 2
    err = capsys.readouterr().err
    assert "Gud" in err and "Macee" in err and err.count("error: ") == 2


def test_check_map_accepts_the_shipped_roster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_map_main([str(_map_with_roster(tmp_path, _SHIPPED_ROSTER))]) == 0
    assert capsys.readouterr().out.rstrip().endswith("OK")


def test_check_map_help_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_map_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python main.py check-map MAP.tmx") and "roster" in out
