"""The repository stands alone (``docs/architecture.md`` "The repository stands alone"): the code, its data
files and the tests cite the rules' sections and the project's own pages (``docs/rulings.md``,
``docs/architecture.md``, ``CONTRIBUTING.md``, the README), never a file outside the repository or a
tracker number, and no test is named after a tracker number."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = {".py", ".toml", ".txt", ".md", ".json", ".tmx", ".tsx", ".tiled-project"}

# Written in pieces so that this file does not cite what it forbids.
FORBIDDEN = re.compile(
    "|".join(
        (
            r"\bshared/",
            r"\bRULINGS" + r"\.md\b",
            r"\bDESIGN" + r"\.md\b",
            r"\b[Ii]ssue[ _-]?[0-9]+",
        )
    )
)


def scanned_files() -> list[Path]:
    """The project's own source, data and test files: ``game/``, ``tests/`` and ``main.py``."""
    files = [ROOT / "main.py"]
    for top in ("game", "tests"):
        files += sorted(p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    return [p for p in files if "__pycache__" not in p.parts]


def citations_outside(text: str) -> list[str]:
    """Every citation of a file outside the repository or of a tracker number in ``text``."""
    return [m.group(0) for m in FORBIDDEN.finditer(text)]


def test_the_scan_finds_what_it_forbids() -> None:
    """The patterns catch each kind of citation (and spare a rules section or a word like "tissue")."""
    # the examples are assembled so that this file does not itself hold what it forbids
    samples = ("see ../" + "shared/rules", "RULINGS" + ".md", "DESIGN" + ".md rule 6", "iss" + "ue 8", "Iss" + "ue4")
    for bad in (*samples, "iss" + "ue_12"):
        assert citations_outside(bad), bad
    for fine in ("FTC 6.4.1", 'docs/rulings.md "Line of fire"', "a tissue 8 cm long", "the issues", "Fudge 4.8"):
        assert not citations_outside(fine), fine


def test_code_data_and_tests_cite_nothing_outside_the_repository() -> None:
    """No file of ``game/``, ``tests/`` or ``main.py`` cites a file outside the repository or a tracker
    number; each hit is listed with its file and line, to be replaced by the rules section and/or the
    entry of ``docs/rulings.md`` or ``docs/architecture.md`` it means."""
    me = Path(__file__).resolve()
    found = []
    for path in scanned_files():
        if path.resolve() == me:
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            for hit in citations_outside(line):
                found.append(f"{path.relative_to(ROOT)}:{no}: {hit}")
    assert not found, f"{len(found)} citation(s) outside the repository:\n" + "\n".join(found[:60])
