"""Headless app fixtures: a fresh config folder per test and helpers that post real pygame events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.ui.app import App


@pytest.fixture
def maps_dir(tmp_path: Path) -> Path:
    """An empty maps folder (the New battle screen then offers the generated field)."""
    folder = tmp_path / "maps"
    folder.mkdir()
    return folder


@pytest.fixture
def app(tmp_path: Path, maps_dir: Path) -> Iterator[App]:
    """The game on SDL's dummy video driver, with its settings in a temporary folder."""
    a = App(config=tmp_path / "config", maps_dir=maps_dir)
    a.pump()
    yield a
    if pygame.display.get_init():
        a.close()


def key(app: App, k: int, mod: int = 0) -> None:
    """Press and release a key, then let the app handle it."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    app.pump()


def type_keys(app: App, text: str, mod: int = 0) -> None:
    """Type text as a real keyboard does: for each character its key press (with the character as its
    ``unicode``), then SDL's TEXTINPUT with the character, then the key's release."""
    for ch in text:
        k = ord(ch.lower()) if ch.isascii() else 0
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=ch, scancode=0))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=ch, scancode=0))
    app.pump()


def move(app: App, pos: tuple[int, int], buttons: tuple[int, int, int] = (0, 0, 0)) -> None:
    """Move the mouse to pos."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))
    app.pump()


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    """Move there, press and release a mouse button."""
    move(app, pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.pump()


def drag(app: App, start: tuple[int, int], end: tuple[int, int], button: int = 1) -> None:
    """Press at start, move to end in a few steps, release."""
    move(app, start)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=button))
    for k in range(1, 5):
        p = (start[0] + (end[0] - start[0]) * k // 4, start[1] + (end[1] - start[1]) * k // 4)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=button))
    app.pump()


def wheel(app: App, pos: tuple[int, int], y: int) -> None:
    """Turn the mouse wheel over pos."""
    move(app, pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0, precise_y=float(y)))
    app.pump()


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saves, the autosave and settings go to temporary folders, never the player's own."""
    home = tmp_path / "home"
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(home))
    monkeypatch.setenv("FUDGE_TACTICS_CONFIG_DIR", str(tmp_path / "config"))
    return home
