"""A map that Tiled loads and draws is a map this game loads and draws the same, and a map Tiled makes that the
game cannot play (orthogonal, isometric, staggered, gzip-compressed) is refused in one sentence.

Tiled draws tiles of another size than the map's grid on purpose (its own ``hexagonal-mini.tmx`` puts 18x18
art on a 14x12 grid) and reads a hex map without ``hexsidelength`` as side 0: both load with a warning and are
drawn pixel for pixel as ``tmxrasterizer`` draws them. The maps of our own made that way (``big_tiles.tmx``,
``no_side.tmx``, from ``make_fixtures.py``) carry the weight; Tiled's own examples, read where the system has
them (Debian's ``tiled`` package puts them under ``/usr/share/doc/tiled/examples``; they are not copied into
the repository), are checked too, and where they are missing that test checks our own equivalents instead.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from game.cli.maps import check_map_main
from game.maps.loader import load_map
from game.maps.render import render_map

DATA = Path(__file__).parent / "data"
TILED_EXAMPLES = Path("/usr/share/doc/tiled/examples")


def _rgba(surface: pygame.Surface) -> npt.NDArray[np.int16]:
    w, h = surface.get_size()
    a = np.frombuffer(pygame.image.tobytes(surface, "RGBA"), dtype=np.uint8).reshape(h, w, 4).astype(np.int16)
    a[a[..., 3] == 0] = 0  # a fully transparent pixel has no colour
    return a


def _same_as_reference(tmx: Path, reference: Path) -> bool:
    mine = _rgba(render_map(load_map(tmx)))
    ref = _rgba(pygame.image.load(str(reference)))
    return mine.shape == ref.shape and not (mine != ref).any()


def test_tiles_larger_than_the_grid_load_with_a_warning_and_draw_as_tiled_draws_them() -> None:
    m = load_map(DATA / "big_tiles.tmx")
    sizes = [w for w in m.warnings if "pointy_big" in w]
    assert len(sizes) == 1 and "32x36 pixels" in sizes[0] and "24x28" in sizes[0]
    assert _same_as_reference(DATA / "big_tiles.tmx", DATA / "big_tiles.png")  # tmxrasterizer's image


def test_a_hex_map_without_hexsidelength_loads_as_side_0_and_draws_as_tiled_draws_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    m = load_map(DATA / "no_side.tmx")
    assert m.tmx.hex_side_length == 0
    assert any("no hexsidelength" in w and "Tile Side Length (Hex)" in w for w in m.warnings)
    assert _same_as_reference(DATA / "no_side.tmx", DATA / "no_side.png")
    assert check_map_main([str(DATA / "no_side.tmx")]) == 0
    assert "warning: no_side.tmx: <map>: the hex map has no hexsidelength" in capsys.readouterr().err


def _not_hexagonal(folder: Path) -> dict[Path, str]:
    """Maps Tiled makes that the game cannot play, each with the words its refusal must hold: an orthogonal
    map with the DOCTYPE line of Tiled's older files, an isometric and a staggered one, and a gzip-compressed
    map (as Debian ships some of Tiled's examples)."""
    base = (DATA / "hex_y_odd.tmx").read_text(encoding="utf-8")
    doctype = base.replace("?>\n", '?>\n<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n', 1)
    out = {}
    for name, text, words in (
        ("old_orthogonal.tmx", doctype.replace('"hexagonal"', '"orthogonal"'), "the map is orthogonal, not hexagonal"),
        ("iso.tmx", base.replace('"hexagonal"', '"isometric"'), "the map is isometric, not hexagonal"),
        ("stag.tmx", base.replace('"hexagonal"', '"staggered"'), "the map is staggered, not hexagonal"),
    ):
        (folder / name).write_text(text, encoding="utf-8")
        out[folder / name] = words
    (folder / "packed.tmx.gz").write_bytes(gzip.compress(base.encode()))
    out[folder / "packed.tmx.gz"] = "is compressed with gzip; unpack it first"
    return out


def test_maps_the_game_cannot_play_are_refused_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, words in _not_hexagonal(tmp_path).items():
        assert check_map_main([str(path)]) == 2, path.name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"error: {path.name}: ") and words in err, err


def test_tiled_s_old_doctype_line_is_read_but_a_dtd_of_its_own_is_not(tmp_path: Path) -> None:
    """Tiled's older files name a DTD that is never fetched or read; a DTD with declarations of its own
    (which could define entities or attribute defaults) is still refused."""
    base = (DATA / "hex_y_odd.tmx").read_text(encoding="utf-8")
    for f in ("pointy.tsx", "pointy.png", "tree.png"):
        shutil.copyfile(DATA / f, tmp_path / f)
    named = tmp_path / "named.tmx"
    named.write_text(base.replace("?>\n", '?>\n<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n', 1))
    assert load_map(named).tmx.width == 7
    own = tmp_path / "own.tmx"
    own.write_text(base.replace("?>\n", '?>\n<!DOCTYPE map [<!ATTLIST map infinite CDATA "0">]>\n', 1))
    with pytest.raises(ValueError, match="a DTD of its own"):
        load_map(own)


def _playable(path: Path) -> bool:
    """A hexagonal .tmx (Tiled itself opens no .tmx.gz)."""
    found = re.search(rb'<map[^>]*\sorientation="(\w+)"', path.read_bytes()[:4096])
    return path.suffix == ".tmx" and found is not None and found.group(1) == b"hexagonal"


def _tmxrasterizer(tmx: Path, png: Path) -> None:
    subprocess.run(
        ["tmxrasterizer", "--no-smoothing", str(tmx), str(png)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=60,
    )


@pytest.mark.parametrize("where", ["the system's", "absent"])
def test_every_tiled_example_loads_when_hexagonal_and_is_refused_in_one_sentence_when_not(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every map under Tiled's examples (with its subfolders; .tmx and .tmx.gz): a hex map passes check-map with
    at most warnings; any other map is refused in one sentence, never a traceback; ``hexagonal-mini.tmx`` (18x18
    art on a 14x12 grid) is drawn pixel for pixel as tmxrasterizer draws it. Where the system has no Tiled
    examples, our own equivalents stand in: a map of tiles larger than the grid and one without hexsidelength
    (against their committed tmxrasterizer images), and maps that are not hexagonal (the "absent" case checks
    those always).

    (Tiled's other hex example, ``test_hexagonal_tile_60x60x30.tmx``, is only loaded: its art is
    semi-transparent, which Qt keeps premultiplied in 8 bits, so tmxrasterizer's colours differ from the
    tileset's by rounding there, and two edge pixels of its 120°-turned tiles are sampled differently.)"""
    examples = TILED_EXAMPLES if where == "the system's" else tmp_path / "no-tiled-here"
    if examples.is_dir():
        maps = sorted(p for p in examples.rglob("*") if p.name.endswith((".tmx", ".tmx.gz")))
        assert examples / "hexagonal-mini.tmx" in maps
        references = {examples / "hexagonal-mini.tmx": tmp_path / "hexagonal-mini.png"}
        _tmxrasterizer(examples / "hexagonal-mini.tmx", references[examples / "hexagonal-mini.tmx"])
    else:
        maps = [DATA / "big_tiles.tmx", DATA / "no_side.tmx", *_not_hexagonal(tmp_path)]
        references = {DATA / "big_tiles.tmx": DATA / "big_tiles.png", DATA / "no_side.tmx": DATA / "no_side.png"}
    hexagonal = 0
    for path in maps:
        code = check_map_main([str(path)])
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err
        if _playable(path):
            hexagonal += 1
            assert code == 0, captured.err
            assert all(line.startswith("warning: ") for line in captured.err.splitlines()), captured.err
            if path in references:
                assert _same_as_reference(path, references[path]), path
        else:
            assert code == 2, path
            assert captured.err.count("\n") == 1 and captured.err.startswith(f"error: {path.name}: "), captured.err
    assert hexagonal >= 2 and len(maps) > hexagonal and len(references) >= 1
