"""Sound effects (``assets/sounds``, made by ``assets/make_sounds.py``) played with pygame's mixer.

``Sounds`` is silent, and never raises, wherever sound cannot be had: SDL's dummy audio driver (tests, CI,
the benchmark), a machine without an audio device (the mixer fails to start), missing or unreadable files.
The player's volume and mute come from the settings (``game.ui.settings``); a muted game does not even
start the mixer. Which battle events sound how is ``sound_for``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pygame

from game.engine import events as ev
from game.paths import ASSETS_DIR

SOUND_DIR = ASSETS_DIR / "sounds"
NAMES = ("step", "swing", "bow", "hit", "miss", "spell", "victory")


class Sounds:
    """The game's sound effects; every method is safe to call with no audio at all."""

    def __init__(self, folder: Path = SOUND_DIR, volume: float = 0.7, muted: bool = False) -> None:
        self.folder = folder
        self.volume = max(0.0, min(1.0, float(volume)))
        self.muted = muted
        self._state = "new"  # new -> ready | silent
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.played: list[str] = []
        """Names played (or that would have played with a device), newest last; tests read it."""

    @property
    def silent(self) -> bool:
        """True when nothing can be heard (no device, dummy driver, muted or at volume 0)."""
        return self.muted or self.volume <= 0 or not self._start()

    def configure(self, volume: float, muted: bool) -> None:
        """Follow the settings' volume and mute."""
        self.volume = max(0.0, min(1.0, float(volume)))
        self.muted = bool(muted)
        for s in self._sounds.values():
            s.set_volume(self.volume)

    def _start(self) -> bool:
        """Start the mixer once; False (for good) when there is no audio to be had."""
        if self._state == "new":
            self._state = "silent"
            if os.environ.get("SDL_AUDIODRIVER", "").lower() == "dummy":
                return False
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
                for name in NAMES:
                    path = self.folder / f"{name}.wav"
                    if path.is_file():
                        sound = pygame.mixer.Sound(str(path))
                        sound.set_volume(self.volume)
                        self._sounds[name] = sound
                self._state = "ready"
            except (pygame.error, OSError, NotImplementedError):
                self._sounds.clear()
        return self._state == "ready"

    def play(self, name: str) -> bool:
        """Play one effect by name; True if it was sent to the audio device."""
        if name not in NAMES:
            return False
        self.played.append(name)
        del self.played[:-50]
        if self.muted or self.volume <= 0 or not self._start():
            return False
        sound = self._sounds.get(name)
        if sound is None:
            return False
        try:
            sound.play()
        except pygame.error:
            return False
        return True

    def play_events(self, events: Iterable[ev.Event]) -> list[str]:
        """Play what a batch of battle events sounds like (each effect once per batch); the names played."""
        names: list[str] = []
        for e in events:
            name = sound_for(e)
            if name and name not in names:
                names.append(name)
        for name in names:
            self.play(name)
        return names


def is_missile(weapon_name: str) -> bool:
    """Whether a weapon shoots (FTC 6.5 missile weapons): the catalogue's ``ranged``, else its name."""
    from game.engine import equipment

    try:
        return equipment.weapon(weapon_name).ranged
    except (KeyError, ValueError, LookupError):
        low = weapon_name.lower()
        return any(w in low for w in ("bow", "sling", "javelin", "dart", "thrown"))


def sound_for(event: ev.Event) -> str:
    """The effect a battle event makes ("" for none): steps for a move, a swing or a bow for an attack
    (a miss rings), a hit for a wound, a spell for a cast, a fanfare at the end."""
    if isinstance(event, ev.Moved | ev.Stepped):
        return "step"
    if isinstance(event, ev.AttackResolved):
        if not event.hit:
            return "miss"
        return "bow" if is_missile(event.weapon) else "swing"
    if isinstance(event, ev.StrayShot):
        return "bow"
    if isinstance(event, ev.Wounded):
        return "hit"
    if isinstance(event, ev.SpellCast | ev.CastingBegan | ev.TouchAttack):
        return "spell"
    if isinstance(event, ev.BattleEnded):
        return "victory"
    return ""


_SHARED: Sounds | None = None


def shared_sounds(settings: Any = None) -> Sounds:
    """The process's one ``Sounds``, following ``settings`` (``game.ui.settings.Settings``) when given."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Sounds()
    if settings is not None:
        volume = float(getattr(settings, "sound_volume", _SHARED.volume))
        muted = bool(getattr(settings, "sound_muted", _SHARED.muted))
        if (volume, muted) != (_SHARED.volume, _SHARED.muted):
            _SHARED.configure(volume, muted)
    return _SHARED


__all__ = ["NAMES", "SOUND_DIR", "Sounds", "is_missile", "shared_sounds", "sound_for"]
