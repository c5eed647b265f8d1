"""Counts a player reads take the noun in the number they need ("1 hex", "3 hexes"), never "hex(es)" or
"round(s)": the words helper, and no screen source left with a bracketed plural in a string it shows."""

from __future__ import annotations

import re
from pathlib import Path

from game.ui.battle.words import counted

UI = Path(__file__).resolve().parents[2] / "game" / "ui"
BRACKETED = re.compile(r"\w\((s|es|ies)\)")


def test_counted_takes_the_number_it_needs() -> None:
    assert counted(1, "hex", "hexes") == "1 hex"
    assert counted(3, "hex", "hexes") == "3 hexes"
    assert counted(0, "round") == "0 rounds"
    assert counted(1, "wound level") == "1 wound level"


def test_no_screen_shows_a_bracketed_plural() -> None:
    found = [
        f"{path.relative_to(UI)}:{n}: {line.strip()}"
        for path in sorted(UI.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BRACKETED.search(line) and '"' in line
    ]
    assert not found, "\n".join(found)
