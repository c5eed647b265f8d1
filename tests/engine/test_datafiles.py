"""docs/architecture.md "Tables are data": the rules' tables are data files, read once, with a clear error when one is
broken."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.engine import datafiles
from game.engine.datafiles import DATA_DIR, DataFileError, read_table


def test_every_rules_table_file_parses() -> None:
    names = sorted(p.name for p in DATA_DIR.glob("*.toml"))
    assert {"combat.toml", "damage.toml", "equipment.toml", "movement.toml", "ranges.toml"} <= set(names)
    for name in names:
        assert read_table(name), name


def test_a_table_is_read_once_and_exact_decimals_are_fractions() -> None:
    assert read_table("combat.toml") is read_table("combat.toml")
    # FTC 6.4.1's Scale factor 1.3 must be exactly 13/10, not the nearest binary float
    assert read_table("ranges.toml", exact=True)["scale_factor"] == Fraction(13, 10)
    assert read_table("ranges.toml")["scale_factor"] == 1.3


def test_a_broken_data_file_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken.toml").write_text("[table\nx = 1\n", encoding="utf-8")
    monkeypatch.setattr(datafiles, "DATA_DIR", tmp_path)
    with pytest.raises(DataFileError, match=r"broken\.toml"):
        read_table("broken.toml")
    with pytest.raises(DataFileError, match=r"missing\.toml"):
        read_table("missing.toml")
