"""A roster's comments survive a save: at the top, above a table or a value, and after a value."""

from __future__ import annotations

import tomllib
from pathlib import Path

from game.roster import read_roster_data, roster_to_toml, save_roster
from game.roster_comments import read_comments, split_comment, with_comments

COMMENTED = """# Harrowby, second evening.
# Attributes left out are Fair.

title = "Second evening"  # shown on New battle

# The villagers
[sides.blue]
name = "Militia"  # they hold the bridge
colour = "#2f6fd0"

[characters.sergeant]
name = "Sergeant #1"  # a '#' inside a string is no comment
# raised after the first battle
strength = "Great"
weapons = [
    "Broadsword",  # in hand
    "Large Knife",
]

# two of them on the map
[characters.brigand]
name = "Brigand"

[[figures]]  # the first entry
character = "brigand"
side = "blue"

# end of the roster
"""


def test_split_comment_leaves_a_hash_inside_a_string_alone() -> None:
    assert split_comment('name = "Sergeant #1"  # note') == ('name = "Sergeant #1"', "# note")
    assert split_comment("name = 'a#b'") == ("name = 'a#b'", "")
    assert split_comment('x = "q\\"#"  # c') == ('x = "q\\"#"', "# c")


def test_every_kind_of_comment_is_tied_to_what_it_stands_beside() -> None:
    found = read_comments(COMMENTED)
    assert found.head == ["# Harrowby, second evening.", "# Attributes left out are Fair."]
    assert found.before[("[", "sides", "blue")] == ["# The villagers"]
    assert found.before[("=", "[", "characters", "sergeant", "strength")] == ["# raised after the first battle"]
    assert found.after[("=", "[", "sides", "blue", "name")] == "# they hold the bridge"
    assert found.after[("=", "[", "characters", "sergeant", "name")] == "# a '#' inside a string is no comment"
    assert found.after[("[[", "figures", "0")] == "# the first entry"
    assert found.tail == ["# end of the roster"]


def test_a_save_keeps_section_and_inline_comments(tmp_path: Path) -> None:
    path = tmp_path / "evening.roster.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    data = read_roster_data(path)
    data["characters"]["sergeant"]["will"] = "Good"
    del data["characters"]["sergeant"]["strength"]  # its comment goes with it
    save_roster(path, data)
    text = path.read_text(encoding="utf-8")
    assert tomllib.loads(text) == data
    assert text.startswith("# Harrowby, second evening.\n# Attributes left out are Fair.\n\n")
    assert 'title = "Second evening"  # shown on New battle' in text
    assert "# The villagers\n[sides.blue]" in text
    assert 'name = "Militia"  # they hold the bridge' in text
    assert "name = \"Sergeant #1\"  # a '#' inside a string is no comment" in text
    assert "# two of them on the map\n[characters.brigand]" in text
    assert "[[figures]]  # the first entry" in text
    assert text.rstrip().endswith("# end of the roster")
    assert "raised after the first battle" not in text


def test_comments_of_a_removed_table_go_with_it_and_the_text_reads_back_as_the_data() -> None:
    data = tomllib.loads(COMMENTED)
    del data["characters"]["brigand"]
    data["figures"] = []
    del data["figures"]
    new = roster_to_toml(data)
    text = with_comments(COMMENTED, new)
    assert "two of them on the map" not in text and "the first entry" not in text
    assert tomllib.loads(text) == tomllib.loads(new)


def test_a_file_without_comments_is_written_as_roster_to_toml_writes_it() -> None:
    data = tomllib.loads(COMMENTED)
    plain = roster_to_toml(data)
    assert with_comments(plain, plain) == plain
    assert with_comments("", plain) == plain
