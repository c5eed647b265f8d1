"""The battle log's words for a move (FTC 5) and a declaration (FTC 6.1): a hex counted in the singular or
plural as it is, no "(move)" after a plain move, and a figure declared with no target said to defend only,
never to "attack nobody"."""

from __future__ import annotations

from game.engine import events as ev
from game.engine.hexgrid import Hex

NAMES = {"a": "Mags", "b": "Odo"}


def test_ftc_5_a_plain_move_counts_its_hexes_in_words() -> None:
    one = ev.Moved("a", (Hex(0, 0), Hex(1, 0)), 0, 1, 5)
    three = ev.Moved("a", (Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)), 0, 4, 5)
    assert one.text(NAMES) == "Mags moves 1 hex, cost 1 of 5"
    assert three.text(NAMES) == "Mags moves 3 hexes, cost 4 of 5"
    assert ev.Moved("a", (Hex(0, 0),), 0, 0, 5).text(NAMES) == "Mags stays put"


def test_ftc_5_a_move_made_for_another_reason_says_it() -> None:
    second = ev.Moved("a", (Hex(0, 0), Hex(1, 0), Hex(2, 0)), 0, 2, 5, reason="second move")
    assert second.text(NAMES) == "Mags moves 2 hexes (second move), cost 2 of 5"


def test_ftc_6_1_no_target_reads_as_defending_only() -> None:
    alone = ev.Declared("a", "neutral", (), (), "Shortsword")
    assert alone.text(NAMES) == "Mags: neutral stance, no attack: defends with Shortsword"
    dodging = ev.Declared("a", "very_defensive", (), ("b",), "Shortsword")
    assert dodging.text(NAMES) == "Mags: very defensive stance, no attack: defends with Shortsword, dodging Odo"
    attacking = ev.Declared("a", "neutral", ("b",), (), "Shortsword")
    assert attacking.text(NAMES) == "Mags: neutral stance, attacks Odo with Shortsword"
