"""Every number a roster holds has a range (``data/limits.toml``): a value outside it is refused with one
sentence naming the file, the character, the field, the range and the fix, and quickly (FTC 2.1 ladder,
Fudge 4.58 Scale, FTC 7.2 Tough Hide, FTC 7.3 wound tracks, Fudge 4.8 carried wounds)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import main
from game.engine.limits import check_value, describe_all
from game.roster import RosterError, load_roster

VILLAGE = Path("maps/village.roster.toml").read_text(encoding="utf-8")
ROSTER_GUIDE = Path("docs/rosters.md").read_text(encoding="utf-8")


def _roster(tmp_path: Path, extra: str, key: str = "brigand") -> Path:
    """The village roster with ``extra`` lines in one character's table (replacing the lines they set)."""
    head, _, rest = VILLAGE.partition(f"[characters.{key}]\n")
    table, _, tail = rest.partition("\n\n")
    keys = {line.split("=")[0].strip() for line in extra.splitlines()}
    kept = [line for line in table.splitlines() if line.split("=")[0].strip() not in keys]
    text = f"{head}[characters.{key}]\n{extra}\n" + "\n".join(kept) + "\n\n" + tail
    path = tmp_path / "joke.roster.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _refusal(path: Path) -> str:
    start = time.process_time()
    with pytest.raises(RosterError) as info:
        load_roster(path)
    assert time.process_time() - start < 1.0
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


@pytest.mark.parametrize(
    ("line", "field", "allowed"),
    [
        ("scale = 1000000", "scale", "-10 to 20"),
        ("strength = 99999999999999999", "strength", "Terrible-3 to Legendary+3"),
        ("speed = 999999", "speed", "Terrible-3 to Legendary+3"),
        ('agility = "Legendary+40"', "agility", "Terrible-3 to Legendary+3"),
        ("gear_kg = nan", "gear_kg", "0 to 100,000 kg"),
        ("gear_kg = inf", "gear_kg", "0 to 100,000 kg"),
        ("gear_kg = -1.0", "gear_kg", "0 to 100,000 kg"),
        ("tough_hide = 10000000000", "tough_hide", "0 to 10"),
        ("mass_scale = -50", "mass_scale", "-10 to 20"),
        ('damage_capacity = "Terrible-9"', "damage_capacity", "Terrible-3 to Legendary+3"),
        ('wound_track = { levels = ["Hurt"], damage = [1], boxes = [1000000000] }', "wound_track", "1 to 20"),
        ('wound_track = { levels = ["Hurt"], damage = [1e300], boxes = [1] }', "wound_track", "1 to 100"),
    ],
)
def test_a_value_outside_its_range_is_refused_with_field_range_and_fix(
    tmp_path: Path, line: str, field: str, allowed: str
) -> None:
    message = _refusal(_roster(tmp_path, line))
    assert "'brigand'" in message and f"field '{field}" in message and allowed in message
    assert "write a" in message  # the fix


def test_a_skill_level_outside_the_ladder_range_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text(VILLAGE.replace('skills = { Sword = "Fair", Shield', "skills = { Sword = 500, Shield", 1))
    message = _refusal(path)
    assert "skills.Sword" in message and "Legendary+3" in message


def test_more_carried_wounds_than_the_track_holds_are_refused(tmp_path: Path) -> None:
    """Fudge 4.8: 100,000 carried wounds do not fit the 7 boxes of the default track."""
    wounds = "wounds = [" + ", ".join(['"Scratch"'] * 100_000) + "]"
    message = _refusal(_roster(tmp_path, wounds))
    assert "100000 carried wounds" in message and "holds 7" in message


def test_a_long_list_is_refused(tmp_path: Path) -> None:
    weapons = "weapons = [" + ", ".join(['"Shortsword"'] * 21) + "]"
    text = VILLAGE.replace('weapons = ["Shortsword"]', weapons, 1)
    path = tmp_path / "r.toml"
    path.write_text(text)
    assert "more than the 20 allowed" in _refusal(path)


def test_a_deeply_nested_roster_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nested.roster.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested too deeply" in _refusal(path)


def test_values_at_the_ends_of_the_ranges_are_accepted(tmp_path: Path) -> None:
    """The rules' own extremes load: the leprechaun's Scale -4, the dragon's +6 and Tough Hide, Legendary+3."""
    extra = 'scale = 6\ntough_hide = 10\nstrength = "Legendary+3"\nspeed = "Terrible-3"\ngear_kg = 100000.0'
    roster = load_roster(_roster(tmp_path, extra))
    brigand = roster.characters["brigand"]
    assert (brigand.mass_scale, brigand.tough_hide, brigand.strength, brigand.speed) == (6, 10, 7, -6)


def test_check_value_is_the_editors_per_field_check() -> None:
    assert check_value("strength", "Legendary+3") is None
    assert check_value("strength", "Legendary+4") == (
        "Legendary+4 is outside the range Terrible-3 to Legendary+3; write a level within it"
    )
    assert check_value("gear_kg", float("inf")) is not None
    assert check_value("scale", -10) is None and check_value("scale", -11) is not None
    assert check_value("weapons", ["Club"] * 20) is None and check_value("weapons", ["Club"] * 21) is not None
    assert check_value("two_handed", True) is None  # no range


def test_the_roster_guide_lists_every_range() -> None:
    rows = [line for line in ROSTER_GUIDE.splitlines() if line.startswith("| `")]
    for field, allowed in describe_all():
        row = next((r for r in rows if f"`{field}`" in r), "")
        assert allowed in row, field


@pytest.mark.parametrize("line", ["scale = 1000000", "strength = 99999999999999999", "gear_kg = inf"])
def test_simulate_refuses_the_roster_with_one_line_naming_the_file(
    tmp_path: Path, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _roster(tmp_path, line)
    start = time.process_time()
    assert main.main(["simulate", "maps/village.tmx", "--roster", str(path)]) == 2
    assert time.process_time() - start < 1.0
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(path) in err
