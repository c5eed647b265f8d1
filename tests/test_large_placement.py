"""Placing large roster figures in a deployment zone (FTC 5: a figure covering 3 or 7 hexes needs room for
its whole footprint), and a roster with creatures starting a battle."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.engine.battle import Battle
from game.engine.creatures import footprint
from game.engine.hexgrid import Hex
from game.maps.loader import load_map
from game.roster import load_roster, parse_roster
from game.session import SetupError, build_setup, place_figures

ROOT = Path(__file__).resolve().parent.parent
FIELD = ROOT / "maps" / "open_field.tmx"

DRAGON = {
    "name": "Dragon",
    "scale": 4,
    "footprint": 7,
    "kind": "carnivore",
    "wound_track": "major_npc",
    "skills": {"Brawling": "Great"},
    "tough_hide": 2,
}
TROLL = {"name": "Troll", "scale": 2, "footprint": 3, "skills": {"Club": "Good"}, "weapons": ["Large Club"]}
GOBLIN = {"name": "Goblin", "skills": {"Axe": "Fair"}, "weapons": ["Hand Axe"], "wound_track": "mook"}


def creature_roster() -> dict[str, object]:
    base = dict(load_roster(ROOT / "maps" / "open_field.roster.toml").data)
    chars = {**base["characters"], "dragon": DRAGON, "troll": TROLL, "goblin": GOBLIN}  # type: ignore[dict-item]
    figures = [
        {"character": "dragon", "side": "red"},
        {"character": "troll", "side": "red"},
        {"character": "goblin", "side": "red", "count": 3, "mook": True},
    ]
    return {**base, "characters": chars, "figures": figures}


def test_ftc_5_large_roster_figures_are_placed_with_their_whole_footprint_in_the_zone() -> None:
    loaded = load_map(FIELD)
    roster = parse_roster(creature_roster(), "creatures")
    placed = place_figures(loaded, roster)
    zone = loaded.deployment.zones["red"]
    taken: set[Hex] = set()
    for f in placed:
        size = roster.characters[f["character"]].footprint
        cells = footprint(Hex(*f["hex"]), size, f["facing"])
        assert taken.isdisjoint(cells), f"{f['name']} overlaps another figure"
        taken |= cells
        if f["character"] in ("dragon", "troll"):
            assert cells <= zone and len(cells) == size
    setup = build_setup(
        {
            "map": str(FIELD),
            "roster": creature_roster(),
            "sides": [
                {"id": "blue", "name": "Blue", "colour": "#2f6fd0"},
                {"id": "red", "name": "Red", "colour": "#c83232"},
            ],
            "figures": placed,
            "seed": 3,
        },
        loaded,
    )
    b = Battle(setup)
    dragon = next(f for f in b.figures.values() if f.character.key == "dragon")
    assert dragon.size == 7 and dragon.wounds.track.name == "major_npc"
    goblin = next(f for f in b.figures.values() if f.character.key == "goblin")
    assert goblin.wounds.track.name == "mook" and goblin.mook


def test_ftc_5_a_large_figure_that_fits_nowhere_names_the_figure_and_the_fix() -> None:
    loaded = load_map(FIELD)
    small = {**loaded.deployment.zones, "red": frozenset(sorted(loaded.deployment.zones["red"])[:4])}
    loaded = replace(loaded, deployment=replace(loaded.deployment, zones=small))
    data = creature_roster()
    data["figures"] = [{"character": "dragon", "side": "red"}]
    with pytest.raises(SetupError, match=r"'Dragon' covers 7 hexes.*make the zone larger"):
        place_figures(loaded, parse_roster(data, "creatures"))
