"""Player settings that outlive a session: window size, UI scale, palette, animation speed, sound, the
hotseat curtain, the GM's pauses.

The file is JSON under the user's config directory (``$FUDGE_TACTICS_CONFIG_DIR``,
else ``$XDG_CONFIG_HOME/fudge-tactics``, else ``~/.config/fudge-tactics``). It is written atomically (a
temporary file renamed over the old one) so a crash never leaves half a file; a missing, unreadable or
nonsensical file — or one bad field in it — gives the defaults for what cannot be read, never an error
the player has to fix.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from game.engine import codec
from game.engine.codec import is_whole
from game.engine.record import SaveError, write_atomic

SETTINGS_FILE = "settings.json"
UI_SCALES: tuple[float, ...] = (0.75, 0.9, 1.0, 1.25, 1.5, 2.0)
ANIMATION_SPEEDS: tuple[float, ...] = (0.0, 0.5, 1.0, 2.0, 4.0)
"""0 switches animations off; 1 is normal speed."""
SOUND_VOLUMES: tuple[float, ...] = tuple(round(v / 10, 1) for v in range(11))
"""Sound effect volume steps, 0 to 1."""
HAND_OFFS: tuple[str, ...] = ("always", "secrets", "never")
"""When the hotseat curtain comes between two players: at every change of seat, only when the next seat may
see something the last one may not (secret stances, the GM's hand), or never."""
MIN_WINDOW = (800, 500)
MAX_SETTINGS_CHARS = 64 * 1024
"""A settings file is a few hundred bytes; anything much larger is not one."""
DEFAULT_WINDOW = (1280, 720)


def config_dir() -> Path:
    """Where this game keeps its settings and autosave (created on first write, not here)."""
    explicit = os.environ.get("FUDGE_TACTICS_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg) if xdg else Path.home() / ".config"
    return base / "fudge-tactics"


@dataclass(frozen=True)
class Settings:
    """What the player chose in the settings screen, plus the last window size."""

    window_width: int = DEFAULT_WINDOW[0]
    window_height: int = DEFAULT_WINDOW[1]
    ui_scale: float = 1.0
    colour_blind: bool = False
    animation_speed: float = 1.0
    show_grid: bool = True
    sound_volume: float = 0.7
    sound_muted: bool = False
    hand_off: str = "secrets"
    """When the hotseat curtain comes (one of ``HAND_OFFS``)."""
    gm_stop_rounds: bool = False
    """In a battle with a GM seat: the battle stops for the GM before each round (the GM's panel's switch)."""
    gm_stop_computer: bool = False
    """In a battle with a GM seat: the battle stops for the GM before each computer decision."""

    @property
    def window_size(self) -> tuple[int, int]:
        """The window size as a pair."""
        return self.window_width, self.window_height

    def with_window_size(self, size: tuple[int, int]) -> Settings:
        """A copy remembering a new window size (never smaller than the minimum the layout needs)."""
        return replace(
            self,
            window_width=max(MIN_WINDOW[0], int(size[0])),
            window_height=max(MIN_WINDOW[1], int(size[1])),
        )


def _nearest(value: Any, choices: tuple[float, ...], default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return min(choices, key=lambda c: abs(c - float(value)))


def _from_json(data: Any) -> Settings:
    """Settings from parsed JSON, field by field: a bad field falls back to its default alone."""
    d = Settings()
    if not isinstance(data, dict):
        return d

    def size(key: str, default: int, low: int) -> int:
        v = data.get(key)
        if not is_whole(v):
            return default
        return max(low, min(v, 16384))

    def flag(key: str, default: bool) -> bool:
        v = data.get(key)
        return v if isinstance(v, bool) else default

    return Settings(
        window_width=size("window_width", d.window_width, MIN_WINDOW[0]),
        window_height=size("window_height", d.window_height, MIN_WINDOW[1]),
        ui_scale=_nearest(data.get("ui_scale"), UI_SCALES, d.ui_scale),
        colour_blind=flag("colour_blind", d.colour_blind),
        animation_speed=_nearest(data.get("animation_speed"), ANIMATION_SPEEDS, d.animation_speed),
        show_grid=flag("show_grid", d.show_grid),
        sound_volume=_nearest(data.get("sound_volume"), SOUND_VOLUMES, d.sound_volume),
        sound_muted=flag("sound_muted", d.sound_muted),
        hand_off=data["hand_off"] if data.get("hand_off") in HAND_OFFS else d.hand_off,
        gm_stop_rounds=flag("gm_stop_rounds", d.gm_stop_rounds),
        gm_stop_computer=flag("gm_stop_computer", d.gm_stop_computer),
    )


_SETTINGS_DATA = msgspec.json.Decoder(codec.Table)
"""The settings file read as a table of plain values, its size and nesting bounded (``game.engine.codec``)."""


def load_settings(directory: Path | None = None) -> Settings:
    """Read the settings file; anything missing or unreadable gives the defaults."""
    path = (directory or config_dir()) / SETTINGS_FILE
    try:
        text = path.read_text(encoding="utf-8")
        if len(text) > MAX_SETTINGS_CHARS:
            return Settings()  # not a settings file of this game: the defaults
        return _from_json(codec.decode(text, _SETTINGS_DATA))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return Settings()


def save_settings(settings: Settings, directory: Path | None = None) -> bool:
    """Write the settings atomically; returns False (and keeps the old file) when the disk refuses."""
    try:
        write_atomic(
            (directory or config_dir()) / SETTINGS_FILE, json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n"
        )
    except SaveError:
        return False
    return True
