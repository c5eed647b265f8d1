"""Test settings shared by every test: headless SDL, no audio, no pygame banner."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import settings

from game.engine import ai

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# The same examples on every run, so that a test run (and CI) passes or fails for the code alone; set
# HYPOTHESIS_PROFILE=explore to draw fresh random examples when hunting for bugs.
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The player's data folder (autosave, saves, logs, campaign rosters) inside the test's temporary folder;
    a module that writes there uses it for every test (``pytestmark = pytest.mark.usefixtures("home")``)."""
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(autouse=True)
def _a_still_clock_for_the_tactical_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tactical player stops weighing hexes when its time limit runs out (a short decision at the screen), so
    on a busy machine the same seed could play another battle; every test gives it a still clock, as
    ``ai-match`` gives it no limit, so a seed plays one battle whatever the machine's load."""
    monkeypatch.setattr(ai, "time", SimpleNamespace(perf_counter=lambda: 0.0))
