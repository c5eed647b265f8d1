"""``pip install .`` gives a ``fudge-tactics`` command that carries the game, its maps and its art
(``pyproject.toml``): every package and every file the game reads is declared, and the version has one home
(``game.engine.version``). The install itself is made for real (pip and the setuptools of
``requirements-dev.txt``, no network) into a folder of its own, and the installed command is run from
another folder."""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from game.engine.version import GAME_VERSION
from game.paths import MAPS_DIR, find_map

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_command_is_the_games_main() -> None:
    from game.cli import main

    assert PYPROJECT["project"]["scripts"] == {"fudge-tactics": "game.cli:main"}
    assert callable(main)


def test_every_package_of_the_game_is_installed() -> None:
    packages = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "game").rglob("__init__.py")}
    assert found <= packages


def test_every_map_and_art_file_the_game_reads_is_package_data() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    for package, folder in setuptools["package-dir"].items():
        globs = setuptools["package-data"][package]
        for path in (ROOT / folder).rglob("*"):
            rel = path.relative_to(ROOT / folder).as_posix()
            if path.is_dir() or "__pycache__" in rel or rel.startswith("screenshots/") or rel.endswith(".py"):
                continue  # the art's scripts and the README's screenshots are not the game's
            assert any(fnmatch.fnmatch(rel, g) for g in globs), f"{folder}/{rel} is not in {package}'s package data"


def test_the_version_has_one_home() -> None:
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "game.engine.version.GAME_VERSION"}
    out = subprocess.run([sys.executable, "main.py", "--version"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith(f"Fudge Tactics {GAME_VERSION} ")


SHIPPED = {"maps": "maps", "assets": "assets"}
"""The checkout's folders the install carries, by their name under ``game/shipped``."""


def _shipped_files(folder: Path) -> set[str]:
    """The files of a shipped folder the game reads (not the art's scripts, the README's screenshots or
    Python's caches)."""
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.suffix != ".py"
        and not p.relative_to(folder).as_posix().startswith("screenshots/")
    }


@pytest.mark.slow
def test_pip_install_gives_a_command_that_plays_a_shipped_map_from_another_folder(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: a build writes build/ and *.egg-info beside the sources
    junk = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "screenshots")
    for name in ("game", "maps", "assets"):
        shutil.copytree(ROOT / name, source / name, ignore=junk)
    for name in ("pyproject.toml", "README.md", "requirements.txt"):
        shutil.copy2(ROOT / name, source / name)
    target = tmp_path / "installed"
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "--quiet"]
    built = subprocess.run([*pip, "--target", str(target), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, (
        f"pip could not install the game (setuptools of requirements-dev.txt?): {built.stderr[-2000:]}"
    )

    shipped = target / "game" / "shipped"
    for folder, name in SHIPPED.items():
        assert _shipped_files(shipped / name) == _shipped_files(ROOT / folder), f"{folder}/ is not installed whole"
    assert (target / "game" / "engine" / "data").is_dir() and any((target / "game" / "engine" / "data").glob("*.toml"))

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target), "FUDGE_TACTICS_HOME": str(tmp_path / "home")}
    command = [sys.executable, str(target / "bin" / "fudge-tactics")]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *args], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)

    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith(f"Fudge Tactics {GAME_VERSION} "), version
    played = run("simulate", "village", "--seed", "3", "--max-rounds", "2", "--out", "log.json")
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Traceback" not in played.stdout + played.stderr
    saved_map = Path(json.loads((elsewhere / "log.json").read_text(encoding="utf-8"))["setup"]["map"])
    assert saved_map == (shipped / "maps" / "village.tmx").resolve(), "the installed game plays its own map"


def test_a_shipped_map_is_found_by_its_name_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert find_map("village") == MAPS_DIR / "village.tmx"
    assert find_map("village.tmx") == MAPS_DIR / "village.tmx"
    assert find_map("no-such-map.tmx") == Path("no-such-map.tmx"), "left for the loader's own error"
    assert find_map("sub/village.tmx") == Path("sub/village.tmx"), "a path is the player's own"
    (tmp_path / "village.tmx").write_text("<map/>", encoding="utf-8")
    assert find_map("village.tmx") == Path("village.tmx"), "a file of that name here comes first"
