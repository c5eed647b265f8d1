"""The README fits on a few screens and leads to the guides in ``docs/``; every link between the pages leads
somewhere (a file that exists, and a heading that exists when the link names one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    return {_anchor(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


def test_the_readme_fits_on_a_few_screens() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"the README has {len(lines)} lines: move a guide into docs/"


def test_the_readme_has_a_first_battle_of_ten_steps_and_says_where_files_live() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = text.split("## Your first battle", 1)[1].split("\n## ", 1)[0]
    steps = [line for line in first.splitlines() if re.match(r"\d+\. ", line)]
    assert len(steps) == 10
    files = text.split("## Where your files live", 1)[1].split("\n## ", 1)[0]
    for where in ("FUDGE_TACTICS_HOME", "settings.json", "autosave"):
        assert where in files


def test_the_readme_says_why_the_game_reads_tmx_itself() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Tiled maps", 1)[1].split("\n## ", 1)[0]
    for gap in ("zstd", "120°", "XML", "size limits", "defused"):
        assert gap in section, gap
    assert "test_pytmx_agreement.py" in section


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_between_the_pages_leads_somewhere(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
            broken.append(target)
    assert not broken, f"{page.name}: links that lead nowhere: {broken}"


def test_the_readme_lists_every_rule_option_and_preset() -> None:
    from game.engine import rule_options

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Rule options", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip(): line for line in section.splitlines() if line.startswith("| ")}
    missing = [
        f"{spec.group}: {spec.title}"
        for spec in rule_options.OPTIONS
        if spec.group not in rows or f"{spec.title} ({spec.section})" not in rows[spec.group]
    ]
    assert not missing, f"the README's rule options miss {missing}"
    for preset in rule_options.presets():
        assert f"**{preset.name}**" in section, preset.name
    for roster_thing in ("Good+", "Fudge Points"):
        assert roster_thing in section
