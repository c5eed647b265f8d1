"""``pip install .`` gives a ``fudge-tactics`` command that carries the game, its maps and its art
(``pyproject.toml``): every package and every file the game reads is declared, and the version has one home
(``game.engine.version``). The install itself was tried in a fresh virtual environment outside the project:
``fudge-tactics --version`` and ``fudge-tactics simulate <its village map>`` from another folder."""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tomllib
from pathlib import Path

from game.engine.version import GAME_VERSION

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
