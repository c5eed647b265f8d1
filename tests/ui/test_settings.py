"""Settings survive a restart; a broken settings file never stops the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ui.settings import SETTINGS_FILE, Settings, config_dir, load_settings, save_settings


def test_round_trip(tmp_path: Path) -> None:
    chosen = Settings(
        window_width=1500,
        window_height=900,
        ui_scale=1.5,
        colour_blind=True,
        animation_speed=2.0,
        show_grid=False,
        hand_off="never",
        gm_stop_rounds=True,
        gm_stop_computer=True,
    )
    assert save_settings(chosen, tmp_path)
    assert load_settings(tmp_path) == chosen
    assert [p.name for p in tmp_path.iterdir()] == [SETTINGS_FILE]  # no temporary file left behind


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "nowhere") == Settings()
    assert Settings().window_size == (1280, 720)


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", "null", "\xff\xfe garbage", '"text"'])
def test_unreadable_file_gives_defaults(tmp_path: Path, content: str) -> None:
    (tmp_path / SETTINGS_FILE).write_text(content, encoding="latin-1")
    assert load_settings(tmp_path) == Settings()


def test_one_bad_field_falls_back_alone(tmp_path: Path) -> None:
    data = {
        "window_width": "wide",
        "window_height": 800,
        "ui_scale": 1.3,
        "colour_blind": "yes",
        "animation_speed": 100,
        "show_grid": False,
        "hand_off": "sometimes",
        "gm_stop_rounds": "yes",
        "gm_stop_computer": True,
    }
    (tmp_path / SETTINGS_FILE).write_text(json.dumps(data), encoding="utf-8")
    s = load_settings(tmp_path)
    assert s.window_width == Settings().window_width
    assert s.window_height == 800
    assert s.ui_scale == 1.25  # nearest offered scale
    assert s.colour_blind is False
    assert s.animation_speed == 4.0
    assert s.show_grid is False
    assert s.hand_off == "secrets" and s.gm_stop_rounds is False and s.gm_stop_computer is True


def test_tiny_window_is_raised_to_the_minimum(tmp_path: Path) -> None:
    assert Settings().with_window_size((10, 10)).window_size == (800, 500)


def test_unwritable_folder_keeps_going(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert save_settings(Settings(), blocker / "sub") is False


def test_config_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FUDGE_TACTICS_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_dir() == tmp_path / "fudge-tactics"
    monkeypatch.setenv("FUDGE_TACTICS_CONFIG_DIR", str(tmp_path / "x"))
    assert config_dir() == tmp_path / "x"
