"""One spelling check for every name a GM types (``game.engine.spelling``): a swap of two neighbouring letters
is one slip, as an insertion, a deletion or a change is (optimal string alignment), and every "did you mean"
of the game comes from the same helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.spelling import close_matches, did_you_mean, near_miss, near_miss_pairs, osa_distance

GAME = Path(__file__).resolve().parents[1] / "game"


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("bleu", "blue", 1),  # a swap is one edit (a plain edit distance says 2)
        ("ab", "ba", 1),
        ("ca", "abc", 3),  # optimal string alignment edits no letter twice (Damerau-Levenshtein says 2)
        ("kitten", "sitting", 3),
        ("", "abc", 3),
        ("same", "same", 0),
    ],
)
def test_optimal_string_alignment_distance(a: str, b: str, distance: int) -> None:
    assert osa_distance(a, b) == distance == osa_distance(b, a)


def test_a_swapped_pair_of_letters_is_a_near_miss() -> None:
    assert near_miss("bleu", "blue") and near_miss("Bandti", "Bandit") and near_miss("wrym", "wyrm")
    assert near_miss("Bandit", "Bandits") and near_miss("Red", "red") and near_miss("wyrm_hunters", "wyrm-hunters")
    assert not near_miss("side1", "side2") and not near_miss("red", "der") and not near_miss("blue", "blue")
    assert not near_miss("blue", "bluish") and not near_miss("orcs", "elves")
    assert near_miss_pairs(["blue", "red", "bleu", "blue", "Red"]) == [("blue", "bleu"), ("red", "Red")]


def test_close_matches_suggest_known_names_nearest_first() -> None:
    assert close_matches("Fire Blot", ["Far Bolt", "Fire Bolt", "Heal Wound"]) == ["Fire Bolt"]
    assert close_matches("firebolt", ["Far Bolt", "Fire Bolt"]) == ["Fire Bolt", "Far Bolt"]  # 0 edits, then 2
    assert close_matches("spaer", ["Spear or Pike", "Rapier"]) == ["Spear or Pike"]  # one word of the name
    assert close_matches("axe", ["Battle Axe", "Mace", "Hand Axe"]) == ["Hand Axe", "Battle Axe"]  # shorter first
    assert close_matches("lightsaber", ["Broadsword", "Mace"]) == []
    assert did_you_mean("guard_swrod", ["guard_sword", "guard_spear"]) == "did you mean 'guard_sword'?"
    assert did_you_mean("zzz", ["guard_sword"]) == ""


def test_every_did_you_mean_of_the_game_uses_the_one_helper() -> None:
    """No module keeps a spelling check of its own (difflib's ratio, a second edit distance)."""
    own = [
        p.relative_to(GAME).as_posix()
        for p in GAME.rglob("*.py")
        if "difflib" in p.read_text(encoding="utf-8")
        or ("def _edit_distance" in p.read_text(encoding="utf-8") and p.name != "spelling.py")
    ]
    assert own == []


def test_the_catalogues_suggest_with_the_helper() -> None:
    from game.engine.equipment import UnknownEquipment, weapon
    from game.engine.spellbook import MagicError, spell

    with pytest.raises(UnknownEquipment, match="did you mean 'Broadsword'"):
        weapon("Braodsword")
    with pytest.raises(UnknownEquipment, match="did you mean 'Spear or Pike'"):
        weapon("spaer")
    with pytest.raises(MagicError, match="did you mean Fire Bolt"):
        spell("Fier Bolt")
