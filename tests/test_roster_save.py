"""Saving rosters: the roster TOML written back, read back equal, written atomically."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import equipment
from game.engine.characters import ATTRIBUTES, KNOWN_TRAITS, Character
from game.engine.ladder import level_name
from game.roster import RosterError, load_roster, parse_roster, roster_to_toml, save_roster

SHIPPED = sorted((Path(__file__).resolve().parent.parent / "maps").glob("*.roster.toml"))


def same_roster(a: Any, b: Any) -> None:
    assert a.data == b.data
    assert a.sides == b.sides and a.figures == b.figures
    assert dict(a.characters) == dict(b.characters)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_roster_survives_load_save_load(path: Path, tmp_path: Path) -> None:
    first = load_roster(path)
    out = tmp_path / path.name
    save_roster(out, first)
    same_roster(first, load_roster(out))


def test_there_are_shipped_rosters_to_check() -> None:
    assert len(SHIPPED) >= 4


def test_saving_keeps_the_comment_lines_at_the_top_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "village.roster.toml"
    path.write_text((SHIPPED[-1]).read_text(encoding="utf-8"), encoding="utf-8")
    head = [ln for ln in path.read_text(encoding="utf-8").splitlines()[:2]]
    assert head[0].startswith("#")
    save_roster(path, load_roster(path))
    assert path.read_text(encoding="utf-8").splitlines()[:2] == head


def test_the_saved_text_reads_like_a_hand_written_roster() -> None:
    village = next(p for p in SHIPPED if p.name == "village.roster.toml")
    text = roster_to_toml(load_roster(village))
    assert "[sides.blue]" in text and "[characters.sergeant]" in text
    assert 'skills = { Sword = "Good", Shield = "Good", Brawling = "Good" }' in text
    assert 'weapons = ["Broadsword", "Large Knife"]' in text


def test_keys_this_game_does_not_know_are_kept_unchanged() -> None:
    # Other parts of the game add fields (spells, footprint, kind); a save must never drop them.
    data: dict[str, Any] = {
        "title": "Test",
        "sides": {"blue": {"name": "Blue", "colour": "#2f6fd0", "banner": "lion"}},
        "characters": {
            "mage": {
                "name": "Mage",
                "spells": ["Fire Bolt", "Shield"],
                "kind": "person",
                "footprint": {"size": 3, "shape": "triangle"},
                "notes": {"a": [1, 2], "b": {"c": True}},
            },
        },
        "figures": [{"character": "mage", "side": "blue", "formation": "line"}],
        "campaign": {"week": 3, "treasury": [{"coin": "gold", "n": 5}]},
    }
    assert tomllib.loads(roster_to_toml(data)) == data


def test_names_that_need_quotes_are_quoted() -> None:
    data = {
        "characters": {
            "sir bors": {
                "name": 'Sir "the Bold" Bors\nof Gaunt',
                "skills": {"Martial Arts": "Good", "Knife=fighting": "Fair"},
            }
        }
    }
    assert tomllib.loads(roster_to_toml(data)) == data
    assert parse_roster(tomllib.loads(roster_to_toml(data))).characters["sir bors"].skill_level("Martial Arts") == 1


_names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12)
_levels = st.integers(-5, 6).map(level_name)


@st.composite
def characters(draw: st.DrawFn) -> dict[str, Any]:
    """Roster tables of characters as a GM could write them."""
    out: dict[str, Any] = {"name": draw(_names.filter(lambda s: s.strip()))}
    for attr in ATTRIBUTES:
        if draw(st.booleans()):
            out[attr] = draw(_levels)
    if draw(st.booleans()):
        out["skills"] = draw(st.dictionaries(_names, _levels, max_size=4))
    if draw(st.booleans()):
        out["scale"] = draw(st.integers(-3, 5))
    if draw(st.booleans()):
        out["gifts"] = draw(st.lists(st.sampled_from([KNOWN_TRAITS[0], KNOWN_TRAITS[2], "Lucky"]), unique=True))
    one_handed = [w.name for w in equipment.weapons() if not w.two_handed]
    out["weapons"] = draw(st.lists(st.sampled_from(one_handed), max_size=3))
    body = [a.name for a in equipment.armours() if not a.is_shield]
    out["armour"] = draw(
        st.lists(
            st.sampled_from(body)
            | st.builds(
                lambda n, c: {"name": n, "coverage": c},
                st.sampled_from([a.name for a in equipment.armours() if a.is_body]),
                st.sampled_from(["torso", "no_arms", "no_legs"]),
            ),
            max_size=2,
        )
    )
    if draw(st.booleans()):
        out["shield"] = draw(st.sampled_from([s.name for s in equipment.shields()]))
    if draw(st.booleans()):
        out["gear_kg"] = draw(st.floats(0, 200, allow_nan=False).map(lambda x: round(x, 2)))
    return out


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z][a-z0-9_ ]{0,10}", fullmatch=True), characters(), min_size=1, max_size=4))
def test_any_roster_of_characters_survives_a_round_trip(chars: dict[str, Any]) -> None:
    data = {"sides": {"a": {"name": "A", "colour": "#112233"}}, "characters": chars}
    before = parse_roster(data)
    again = tomllib.loads(roster_to_toml(before))
    assert again == data
    after = parse_roster(again)
    assert dict(after.characters) == dict(before.characters)


@settings(max_examples=40, deadline=None)
@given(characters())
def test_ftc_2_1_character_to_dict_saved_and_read_back_is_the_same_character(table: dict[str, Any]) -> None:
    c = Character.from_dict(table, key="k")
    data = {"characters": {"k": c.to_dict()}}
    assert parse_roster(tomllib.loads(roster_to_toml(data))).characters["k"] == c


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.roster.toml"
    save_roster(path, load_roster(SHIPPED[0]))
    old = path.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(RosterError) as err:
        save_roster(path, load_roster(SHIPPED[1]))
    message = str(err.value)
    assert str(path) in message and "No space left on device" in message
    assert "unchanged" in message and "Save as" in message
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.roster.toml"]


def test_a_folder_that_cannot_be_made_is_a_roster_error_naming_the_file(tmp_path: Path) -> None:
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("x")
    target = blocker / "r.roster.toml"
    with pytest.raises(RosterError, match=r"not_a_folder/r\.roster\.toml: the roster could not be saved"):
        save_roster(target, {"characters": {"a": {"name": "A"}}})
    assert blocker.read_text() == "x"


def test_a_failed_rename_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.roster.toml"
    path.write_text('# mine\n[characters.a]\nname = "A"\n')

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(RosterError, match="Permission denied"):
        save_roster(path, {"characters": {"b": {"name": "B"}}})
    assert path.read_text() == '# mine\n[characters.a]\nname = "A"\n'
    assert [p.name for p in tmp_path.iterdir()] == ["r.roster.toml"]
