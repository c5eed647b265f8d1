"""The battle's dice generator, seeded by the battle's seed (docs/architecture.md "Randomness is injected").

A battle draws every roll from one generator it owns, so setup + seed + decisions reproduce the battle
(docs/architecture.md "A battle is its log"). Two kinds exist, named in every save (``"dice"``):

* ``"blake2b"`` (``KeyedRandom``), the game's dice: BLAKE2b keyed with the seed, in counter mode. Draw
  ``n`` is read from the hash of the counter ``n // 8`` under the key, so a player who sees every roll
  learns nothing about the key (the seed) or about the rolls to come: finding the next roll means finding
  the key, by trying every seed (the game makes 63-bit seeds, ``new_seed``).
* ``"mt19937"`` (``CountingRandom``), Python's Mersenne Twister: the dice of every save written before the
  kind was recorded (a save without ``"dice"``), kept so that those battles replay roll for roll. Its
  outputs reveal its state to whoever collects enough of them, which a seat at a networked table could.

Both count their draws (``draws``), so undo can tell whether a decision rolled dice, and both give the
engine only ``random()`` and ``getrandbits(k)`` draws (``random.Random`` builds ``choice``, ``randint`` and
``randrange`` on ``getrandbits``), which is what a networked client's copy plays back
(``game.net.mirror``).
"""

from __future__ import annotations

import hashlib
import random
import secrets
import struct
from typing import Any

from game.engine.codec import is_whole

LEGACY_DICE = "mt19937"
"""The dice of saves that name none: Python's Mersenne Twister seeded with the seed."""
KEYED_DICE = "blake2b"
"""The game's dice: BLAKE2b keyed with the seed, in counter mode (``KeyedRandom``)."""
DICE_KINDS: tuple[str, ...] = (KEYED_DICE, LEGACY_DICE)

SEED_BITS = 63
"""The game makes seeds of 63 random bits (``new_seed``): whole numbers a save holds as a 64-bit integer."""
SEED_MIN = -(2**63)
SEED_MAX = 2**63 - 1
"""The seeds a person may give (``--seed``): any 64-bit whole number."""
LEGACY_SEED_LIMIT = 2**128
"""Saves written before seeds were 63 bits may hold any seed below this in size (a hosted table's seed was
128 random bits); they load and replay as they were written."""

_WORD_BITS = 64
_WORDS_PER_BLOCK = 8
_PERSON = b"fudge-dice"
_UNPACK_BLOCK = struct.Struct("<8Q").unpack


class CountingRandom(random.Random):
    """The legacy generator: a seeded Mersenne Twister that counts its draws, so undo can tell whether a
    decision rolled dice (docs/architecture.md "A battle is its log")."""

    def __init__(self, seed: int) -> None:
        self.draws = 0
        super().__init__(seed)

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)


def seed_key(seed: int) -> bytes:
    """The BLAKE2b key a seed gives: the seed's decimal digits hashed to 32 bytes (any whole number has one)."""
    return hashlib.blake2b(str(int(seed)).encode(), digest_size=32, person=b"fudge-seed").digest()


class KeyedRandom(CountingRandom):
    """The game's dice: a stream of 64-bit words, block ``i`` being ``BLAKE2b(i, key=seed_key(seed))``.

    ``getrandbits(k)`` takes the top ``k`` bits of the next word (of the next words, for ``k`` over 64);
    ``random()`` takes the top 53 bits of the next word as a fraction. The state is the key and how many words
    were used, so ``getstate`` / ``setstate`` restore it exactly.
    """

    def __init__(self, seed: int) -> None:
        self._key = b""
        self._used = 0
        self._words: list[int] = []
        super().__init__(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Key the stream with ``a`` (a whole number) and start it from its first word."""
        self._key = seed_key(0 if a is None else int(a))
        self._used = 0
        self._words = []

    def _word(self) -> int:
        if not self._words:
            block = hashlib.blake2b(
                (self._used // _WORDS_PER_BLOCK).to_bytes(8, "little"), key=self._key, person=_PERSON
            ).digest()
            self._words = list(_UNPACK_BLOCK(block)[self._used % _WORDS_PER_BLOCK :])
            self._words.reverse()
        self._used += 1
        return self._words.pop()

    def random(self) -> float:
        self.draws += 1
        return (self._word() >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        self.draws += 1
        if k == 0:
            return 0
        value = 0
        words = -(-k // _WORD_BITS)
        for _ in range(words):
            value = (value << _WORD_BITS) | self._word()
        return value >> (words * _WORD_BITS - k)

    def getstate(self) -> tuple[Any, ...]:
        """The key and the number of words used."""
        return (KEYED_DICE, self._key, self._used)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Restore a state from ``getstate``."""
        _, self._key, self._used = state
        self._words = []  # the next word is read from its block again


def make_generator(kind: str, seed: int) -> CountingRandom:
    """The battle's generator of dice ``kind`` (``DICE_KINDS``) seeded with ``seed``."""
    if kind == KEYED_DICE:
        return KeyedRandom(seed)
    if kind == LEGACY_DICE:
        return CountingRandom(seed)
    raise ValueError(f"unknown dice {kind!r}; the game knows {', '.join(DICE_KINDS)}")


def new_seed() -> int:
    """A fresh seed for a new battle: 63 random bits from the system's secure source."""
    return secrets.randbits(SEED_BITS)


def seed_problem(seed: int) -> str | None:
    """None when a person may give ``seed`` (a 64-bit whole number), else the sentence saying what to give."""
    if not is_whole(seed) or not SEED_MIN <= seed <= SEED_MAX:
        return f"a seed is a whole number from {SEED_MIN} to {SEED_MAX}, not {seed!r}"
    return None
