"""docs/architecture.md "The engine stands alone": the engine never imports pygame, pytmx or the user interface."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import game.engine

ROOT = Path(__file__).resolve().parents[2]


def test_importing_every_engine_module_loads_neither_pygame_nor_pytmx() -> None:
    modules = [m.name for m in pkgutil.iter_modules(game.engine.__path__, "game.engine.")]
    assert "game.engine.hexgrid" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'pytmx') or m.startswith('game.ui')"
        " or m.startswith('game.maps'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"game.engine pulled in: {out.stdout.strip()}"


def test_the_engine_imports_only_the_standard_library_numpy_and_msgspec() -> None:
    """docs/architecture.md "The engine stands alone": besides the standard library the engine uses numpy and the
    boundary codec, msgspec (with typing_extensions, which msgspec itself imports), nothing else."""
    code = (
        "import importlib, pkgutil, sys\n"
        "before = set(sys.modules)\n"
        "import game.engine\n"
        "for m in pkgutil.iter_modules(game.engine.__path__, 'game.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "tops = {m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names) - {'game'}\n"
        "print(','.join(sorted(tops)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert set(out.stdout.strip().split(",")) <= {"numpy", "msgspec", "typing_extensions"}, out.stdout
