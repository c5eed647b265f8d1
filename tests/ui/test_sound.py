"""Sound effects: made by a script, silent and error-free without an audio device, volume and mute from
the settings."""

from __future__ import annotations

import wave
from pathlib import Path

import pygame
import pytest

from game.engine import events as ev
from game.engine.hexgrid import Hex
from game.ui import sound
from game.ui.settings import Settings, _from_json
from game.ui.sound import NAMES, SOUND_DIR, Sounds, sound_for


def test_every_effect_is_a_short_mono_wav() -> None:
    for name in NAMES:
        with wave.open(str(SOUND_DIR / f"{name}.wav")) as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
            assert 0.05 < w.getnframes() / w.getframerate() < 1.5, name


def test_dummy_audio_driver_is_silent_and_never_starts_the_mixer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    started: list[object] = []
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: started.append(a))
    s = Sounds()
    assert s.play("hit") is False
    assert s.silent and started == []
    assert s.played == ["hit"]  # the game still knows what it would have played


def test_a_failing_mixer_leaves_the_game_silent_without_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "alsa")

    def broken(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    s = Sounds()
    assert s.play("swing") is False
    assert s.play("victory") is False
    assert s.silent


def test_missing_sound_files_are_silent(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "alsa")
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: (22050, -16, 1))
    s = Sounds(folder=tmp_path)
    assert s.play("step") is False


def test_mute_and_zero_volume_never_start_the_mixer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "alsa")
    started: list[object] = []
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: started.append(a))
    assert Sounds(muted=True).play("hit") is False
    assert Sounds(volume=0).play("hit") is False
    assert started == []


def test_settings_keep_volume_and_mute() -> None:
    st = _from_json({"sound_volume": 0.33, "sound_muted": True})
    assert st.sound_volume == 0.3 and st.sound_muted
    assert _from_json({"sound_volume": "loud"}).sound_volume == Settings().sound_volume
    shared = sound.shared_sounds(st)
    assert shared.volume == 0.3 and shared.muted
    sound.shared_sounds(Settings())
    assert not shared.muted


def test_events_sound_as_they_happen() -> None:
    assert sound_for(ev.Moved("a", (Hex(0, 0), Hex(1, 0)), 0, 1, 4)) == "step"
    common = dict(skill=1, roll=0, offence_mods=(), offence=1, defence=0, defence_mods=(), other_defences=())
    hit = ev.AttackResolved("a", "b", "Broadsword", **common, difficulty=0, hit=True, relative_degree=1)  # type: ignore[arg-type]
    shot = ev.AttackResolved("a", "b", "Longbow", **common, difficulty=0, hit=True, relative_degree=1)  # type: ignore[arg-type]
    miss = ev.AttackResolved("a", "b", "Broadsword", **common, difficulty=3, hit=False, relative_degree=-2)  # type: ignore[arg-type]
    assert (sound_for(hit), sound_for(shot), sound_for(miss)) == ("swing", "bow", "miss")
    assert sound_for(ev.BattleEnded("blue", "last side standing")) == "victory"
    assert sound_for(ev.RoundBegan(2)) == ""
    s = Sounds(muted=True)
    assert s.play_events([hit, hit, miss]) == ["swing", "miss"]
