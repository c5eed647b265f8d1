"""Synthesise the game's short sound effects (original sounds, made entirely by this script with numpy).

Run it from the project root, with the project's virtual environment active:

    python assets/make_sounds.py

It writes ``assets/sounds/<name>.wav`` (16-bit mono, 22050 Hz) for ``step``, ``swing``, ``bow``, ``hit``,
``miss``, ``spell`` and ``victory``; ``game.ui.sound`` plays them. Every sound draws its noise from its own
seeded generator, and the WAV files are written by the standard library, so the output is the same bytes
on every run.
"""

from __future__ import annotations

import sys
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "assets" / "sounds"
RATE = 22050
Array = np.ndarray


def t_axis(seconds: float) -> Array:
    """Sample times of a sound ``seconds`` long."""
    return np.arange(round(seconds * RATE)) / RATE


def envelope(n: int, attack: float, decay: float) -> Array:
    """A quick rise and an exponential fall (times in seconds)."""
    t = np.arange(n) / RATE
    rise = np.clip(t / max(attack, 1e-4), 0, 1)
    return rise * np.exp(-np.maximum(t - attack, 0) / max(decay, 1e-4))


def lowpass(x: Array, k: int) -> Array:
    """A moving average over ``k`` samples (a soft low-pass filter)."""
    if k <= 1:
        return x
    c = np.cumsum(np.concatenate([np.zeros(k), x]))
    return (c[k:] - c[:-k]) / k


def noise(n: int, seed: int) -> Array:
    """White noise from the sound's own generator."""
    return np.random.default_rng(seed).uniform(-1, 1, n)


def step() -> Array:
    """A foot on earth: a low thud and a little grit."""
    t = t_axis(0.16)
    thud = np.sin(2 * np.pi * (90 - 200 * t) * t) * envelope(len(t), 0.004, 0.04)
    grit = lowpass(noise(len(t), 1), 6) * envelope(len(t), 0.002, 0.025) * 0.6
    return thud + grit


def swing() -> Array:
    """A blade through the air: a band of noise sweeping up and down."""
    t = t_axis(0.32)
    n = noise(len(t), 2)
    sweep = np.sin(np.pi * t / t[-1]) ** 2
    bright = n - lowpass(n, 3 + (8 * (1 - sweep)).astype(int).max())
    return lowpass(bright, 2) * sweep * 0.9


def bow() -> Array:
    """A bowstring's twang and the arrow's hiss."""
    t = t_axis(0.45)
    twang = np.sin(2 * np.pi * 180 * t + 3 * np.sin(2 * np.pi * 9 * t)) * envelope(len(t), 0.002, 0.09)
    hiss = (noise(len(t), 3) - lowpass(noise(len(t), 3), 4)) * envelope(len(t), 0.05, 0.15) * 0.35
    return twang + hiss


def hit() -> Array:
    """A blow landing: a hard knock with a low body."""
    t = t_axis(0.3)
    knock = lowpass(noise(len(t), 4), 3) * envelope(len(t), 0.001, 0.03)
    body = np.sin(2 * np.pi * (140 - 120 * t) * t) * envelope(len(t), 0.002, 0.09)
    return knock * 0.9 + body


def miss() -> Array:
    """A blow turned aside: a short metallic ring."""
    t = t_axis(0.4)
    ring = sum(np.sin(2 * np.pi * f * t) * a for f, a in ((820, 0.5), (1270, 0.3), (1990, 0.2)))
    return ring * envelope(len(t), 0.002, 0.08) + lowpass(noise(len(t), 5), 2) * envelope(len(t), 0.001, 0.01) * 0.5


def spell() -> Array:
    """A spell: a shimmering rising chord."""
    t = t_axis(0.8)
    out = np.zeros(len(t))
    for k, f in enumerate((440, 554, 659, 880)):
        out += np.sin(2 * np.pi * f * (1 + 0.25 * t) * t + 0.3 * np.sin(2 * np.pi * (6 + k) * t)) / 4
    return out * envelope(len(t), 0.12, 0.35)


def victory() -> Array:
    """Victory: a short rising fanfare of four notes."""
    parts = []
    for f, length in ((392, 0.16), (523, 0.16), (659, 0.16), (784, 0.6)):
        t = t_axis(length)
        tone = np.sin(2 * np.pi * f * t) + 0.4 * np.sin(4 * np.pi * f * t) + 0.2 * np.sin(6 * np.pi * f * t)
        parts.append(tone * envelope(len(t), 0.01, length * 0.6) / 1.6)
    return np.concatenate(parts)


SOUNDS: dict[str, Callable[[], Array]] = {
    "step": step,
    "swing": swing,
    "bow": bow,
    "hit": hit,
    "miss": miss,
    "spell": spell,
    "victory": victory,
}


def write_wav(samples: Array, path: Path, peak: float = 0.8) -> None:
    """Normalise to ``peak``, fade the last few milliseconds, and write 16-bit mono PCM."""
    x = np.asarray(samples, dtype=np.float64)
    top = np.max(np.abs(x)) or 1.0
    x = x / top * peak
    fade = min(len(x), round(0.005 * RATE))
    x[len(x) - fade :] *= np.linspace(1, 0, fade)
    pcm = np.round(x * 32767).astype("<i2")
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def main() -> int:
    """Write every sound."""
    for name, make in SOUNDS.items():
        write_wav(make(), OUT_DIR / f"{name}.wav")
    print(f"wrote {len(SOUNDS)} sounds into {OUT_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
