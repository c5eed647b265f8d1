"""The battle's dice (docs/architecture.md "Randomness is injected"): the game's dice are BLAKE2b keyed with the
seed in counter mode, so a seat that sees every roll cannot learn the generator's state, while the legacy
Mersenne Twister of older saves gives its state away to whoever collects 624 of its outputs; both replay
exactly from their seed and from a saved state."""

from __future__ import annotations

import hashlib
import random
import struct

import pytest

from game.engine.generator import KEYED_DICE, LEGACY_DICE, KeyedRandom, make_generator, seed_key

MT_WORDS = 624
"""A Mersenne Twister's state: 624 words of 32 bits, each of which one output reveals (untempered)."""


def _untemper(y: int) -> int:
    """The state word behind one 32-bit Mersenne Twister output: its tempering undone step by step."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    t = y
    for _ in range(5):
        t = y ^ ((t << 7) & 0x9D2C5680)
    y = t & 0xFFFFFFFF
    t = y
    for _ in range(3):
        t = y ^ (t >> 11)
    return t & 0xFFFFFFFF


def _predicted(seen: list[int], count: int) -> list[int]:
    """The next ``count`` 32-bit outputs of a Mersenne Twister that gave ``seen`` (its last 624 outputs)."""
    clone = random.Random()
    clone.setstate((3, (*(_untemper(y) for y in seen[-MT_WORDS:]), MT_WORDS), None))
    return [clone.getrandbits(32) for _ in range(count)]


@pytest.mark.parametrize("seed", [0, 1, 2**62 + 12345, -(2**63)])
def test_a_seat_that_sees_the_rolls_predicts_the_legacy_dice_but_not_the_keyed_dice(seed: int) -> None:
    legacy = make_generator(LEGACY_DICE, seed)
    seen = [legacy.getrandbits(32) for _ in range(MT_WORDS)]
    assert _predicted(seen, 50) == [legacy.getrandbits(32) for _ in range(50)], "the attack itself works"

    keyed = make_generator(KEYED_DICE, seed)
    seen = [keyed.getrandbits(32) for _ in range(MT_WORDS)]
    coming = [keyed.getrandbits(32) for _ in range(50)]
    hits = sum(p == c for p, c in zip(_predicted(seen, 50), coming, strict=True))
    assert hits <= 1, "the keyed dice gave their state away"


def test_each_draw_of_the_keyed_dice_is_the_keyed_hash_of_its_counter() -> None:
    """Word ``n`` is word ``n % 8`` of BLAKE2b(``n // 8``) keyed with the seed's key: the state is the key and a
    count, nothing a roll shows."""
    seed = 987654321
    expected = [
        word
        for block in range(3)
        for word in struct.unpack(
            "<8Q", hashlib.blake2b(block.to_bytes(8, "little"), key=seed_key(seed), person=b"fudge-dice").digest()
        )
    ]
    dice = KeyedRandom(seed)
    assert [dice.getrandbits(64) for _ in range(24)] == expected
    assert dice.draws == 24
    assert seed_key(seed) != seed_key(seed + 1)
    assert KeyedRandom(seed + 1).getrandbits(64) != expected[0]


@pytest.mark.parametrize("kind", [KEYED_DICE, LEGACY_DICE])
def test_the_dice_replay_from_their_seed_and_from_a_saved_state_mid_block(kind: str) -> None:
    dice = make_generator(kind, 42)
    first = [dice.getrandbits(3) for _ in range(5)] + [dice.random()] + [dice.getrandbits(100)]
    again = make_generator(kind, 42)
    assert [again.getrandbits(3) for _ in range(5)] + [again.random()] + [again.getrandbits(100)] == first
    state = dice.getstate()
    coming = [dice.randint(-4, 4) for _ in range(20)]
    dice.setstate(state)
    assert [dice.randint(-4, 4) for _ in range(20)] == coming
    assert all(0.0 <= make_generator(kind, s).random() < 1.0 for s in range(50))
