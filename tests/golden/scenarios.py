"""Small battles built in code for the battle tests and the golden logs (FTC 4–7).

Every scenario is a function of nothing but its arguments: a ``TerrainMap.open`` field, characters from
``Character.from_dict`` and figures at chosen hexes and facings. ``make_golden.py`` and the tests share
them, so a golden log can always be rebuilt from its scenario name and seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions, SideSetup
from game.engine.characters import Character
from game.engine.hexgrid import Hex, neighbor
from game.engine.terrain import TerrainMap

SIDES = (SideSetup("blue", "Blue"), SideSetup("red", "Red"))

CHARACTERS: Mapping[str, Mapping[str, Any]] = {
    "knight": {
        "name": "Knight",
        "strength": "Good",
        "skills": {"Sword": "Great", "Shield": "Good"},
        "weapons": ["Broadsword"],
        "armour": ["Chain Mail", "Metal Cap"],
        "shield": "Medium Shield",
    },
    "archer": {
        "name": "Archer",
        "agility": "Good",
        "skills": {"Bow": "Good", "Knife": "Fair"},
        "weapons": ["Shortbow", "Large Knife"],
        "armour": ["Leather"],
    },
    "brigand": {"name": "Brigand", "skills": {"Axe": "Good"}, "weapons": ["Hand Axe"], "armour": ["Leather"]},
    "spearman": {"name": "Spearman", "strength": "Good", "skills": {"Spear": "Good"}, "weapons": ["Spear or Pike"]},
    "peasant": {"name": "Peasant", "skills": {"Axe": "Mediocre"}, "weapons": ["Hand Axe"]},
    "swift": {
        "name": "Swift",
        "agility": "Superb",
        "speed": "Good",
        "skills": {"Knife": "Fair"},
        "weapons": ["Large Knife"],
    },
    "clumsy": {"name": "Clumsy", "agility": "Terrible", "skills": {"Axe": "Mediocre"}, "weapons": ["Hand Axe"]},
    "guard": {"name": "Guard", "skills": {"Sword": "Superb"}, "weapons": ["Broadsword"]},
    "bruiser": {"name": "Bruiser", "strength": "Superb", "skills": {"Axe": "Superb"}, "weapons": ["Battle Axe"]},
    "wizard": {
        "name": "Wizard",
        "will": "Good",
        "skills": {"Magic": "Great", "Thaumatology": "Good", "Knife": "Fair"},
        "weapons": ["Large Knife"],
        "spells": [
            "Fire Bolt",
            "Flame Dart",
            "Lightning",
            "Far Bolt",
            "Thunderstrike",
            "Ward",
            "Shield of Force",
            "Haste",
            "Slow",
            "Heal Wound",
            "Paralysing Touch",
            "Withering Touch",
            "Blinding Cloud",
            "Dazzle",
            "Blindness",
            "Weakness",
        ],
    },
    "seer": {
        "name": "Seer",
        "skills": {"Thaumatology": "Great", "Magic": "Good", "Knife": "Fair"},
        "weapons": ["Large Knife"],
        "spells": ["Flame Dart", "Ward", "Dazzle"],
    },
    # creatures (FTC 5 large figures, Fudge 4.23 kinds, 4.57 mooks, 4.58 Scale)
    "troll": {
        "name": "Troll",
        "strength": "Great",
        "scale": 2,
        "footprint": 3,
        "kind": "carnivore",
        "skills": {"Club": "Good"},
        "weapons": ["Large Club"],
        "tough_hide": 1,
    },
    "dragon": {
        "name": "Dragon",
        "strength": "Good",
        "scale": 4,
        "footprint": 7,
        "kind": "carnivore",
        "skills": {"Brawling": "Great"},
        "weapons": ["Fist"],
        "wound_track": "major_npc",
    },
    "giant": {
        "name": "Giant",
        "strength": "Good",
        "scale": 3,
        "footprint": 3,
        "skills": {"Club": "Fair"},
        "weapons": ["Large Club"],
    },
    "pixie": {
        "name": "Pixie",
        "agility": "Superb",
        "scale": -3,
        "kind": "prey",
        "skills": {"Knife": "Great"},
        "weapons": ["Stiletto"],
    },
    "goblin": {"name": "Goblin", "skills": {"Axe": "Fair"}, "weapons": ["Hand Axe"], "wound_track": "mook"},
    "shieldman": {
        "name": "Shieldman",
        "skills": {"Axe": "Poor", "Shield": "Superb"},
        "weapons": ["Hand Axe"],
        "shield": "Small Shield",
    },
}


def character(key: str, **changes: Any) -> Character:
    """A character from ``CHARACTERS`` with optional changed fields (roster names, FTC 2)."""
    return Character.from_dict({**CHARACTERS[key], **changes}, key=key)


FigureSpec = tuple[str, str, str, tuple[int, int], int]
"""(id, side, character key, (col, row) on the field, facing)."""


def setup(
    figures: list[FigureSpec] | list[FigureSetup],
    *,
    seed: int = 0,
    width: int = 12,
    height: int = 10,
    options: RuleOptions | None = None,
    orders: Mapping[str, str] | None = None,
    mooks: frozenset[str] = frozenset(),
) -> BattleSetup:
    """A battle setup on an open field of ``width`` × ``height`` hexes (pointy tops, odd rows staggered)."""
    terrain = TerrainMap.open(width, height)
    figs: list[FigureSetup] = []
    for spec in figures:
        if isinstance(spec, FigureSetup):
            figs.append(spec)
            continue
        fid, side, key, (col, row), facing = spec
        figs.append(
            FigureSetup(
                fid,
                fid.upper(),
                side,
                character(key),
                terrain.hex_at(col, row),
                facing,
                (orders or {}).get(fid, "always"),
                fid in mooks,
            )
        )
    return BattleSetup(terrain, SIDES, tuple(figs), options or RuleOptions(), seed)


def axial(figures: list[tuple[str, str, str, Hex, int]], **kw: Any) -> BattleSetup:
    """Like ``setup`` with axial hexes instead of Tiled cells (for geometry that is easier in axial)."""
    specs = [
        FigureSetup(
            fid,
            fid.upper(),
            side,
            character(key),
            h,
            facing,
            (kw.get("orders") or {}).get(fid, "always"),
            fid in kw.get("mooks", frozenset()),
        )
        for fid, side, key, h, facing in figures
    ]
    rest = {k: v for k, v in kw.items() if k not in ("orders", "mooks")}
    return setup(specs, **rest)


def skirmish(
    seed: int = 0,
    options: RuleOptions | None = None,
    *,
    width: int = 9,
    height: int = 8,
    orders: Mapping[str, str] | None = None,
) -> BattleSetup:
    """Three against three on a small field: knight, archer and spearman against brigands and an archer."""
    return setup(
        [
            ("b0", "blue", "knight", (1, 2), 0),
            ("b1", "blue", "archer", (1, 5), 0),
            ("b2", "blue", "spearman", (2, 3), 0),
            ("r0", "red", "brigand", (6, 2), 3),
            ("r1", "red", "brigand", (6, 4), 3),
            ("r2", "red", "archer", (7, 6), 3),
        ],
        seed=seed,
        width=width,
        height=height,
        options=options,
        orders=orders,
        mooks=frozenset({"r1", "r2"}),
    )


CENTRE = Hex(4, 4)
"""A hex near the middle of the 12 × 10 field."""


def east(h: Hex, n: int = 1) -> Hex:
    """``n`` hexes east (direction 0) of ``h``."""
    return Hex(h.q + n, h.r)


def hold_setup(seed: int) -> BattleSetup:
    """FTC 5 hold: one blue brigand far from two red ones."""
    return axial(
        [
            ("a", "blue", "brigand", Hex(1, 1), 0),
            ("y", "red", "brigand", Hex(8, 1), 3),
            ("z", "red", "brigand", Hex(8, 4), 3),
        ],
        seed=seed,
    )


def zoc_setup(mover: str, stopper: str, order: str = "always") -> Callable[[int], BattleSetup]:
    """FTC 5.2–5.3: a red mover stands in the zone of a blue stopper that faces it (east)."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [("s", "blue", stopper, CENTRE, 0), ("m", "red", mover, east(CENTRE), 0)], seed=seed, orders={"s": order}
        )

    return make


def shield_runner(seed: int) -> BattleSetup:
    """FTC 9.2, 5.3: a red shield fighter (small shield: "use against 1 attack/round") in the zones of two
    blue brigands, one east of him and one north-east, both facing him; he faces west, away from them."""
    return axial(
        [
            ("m", "red", "shieldman", CENTRE, 3),
            ("s1", "blue", "brigand", east(CENTRE), 3),
            ("s2", "blue", "brigand", neighbor(CENTRE, 1), 4),
        ],
        seed=seed,
    )


def duel(a: str = "brigand", z: str = "brigand", gap: int = 1) -> Callable[[int], BattleSetup]:
    """Two figures facing each other ``gap`` hexes apart (blue west, red east)."""

    def make(seed: int) -> BattleSetup:
        return axial([("a", "blue", a, CENTRE, 0), ("z", "red", z, east(CENTRE, gap), 3)], seed=seed)

    return make


def shot_setup(bystander_side: str = "red") -> Callable[[int], BattleSetup]:
    """FTC 6.5.3: a blue archer shoots at a red brigand 4 hexes east; a bystander stands halfway."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a", "blue", "archer", CENTRE, 0),
                ("t", "red", "brigand", east(CENTRE, 4), 3),
                ("by", bystander_side, "brigand", east(CENTRE, 2), 3 if bystander_side == "red" else 0),
            ],
            seed=seed,
        )

    return make


def spell_duel(seed: int) -> BattleSetup:
    """FTC 8.1: a blue wizard 5 hexes west of a red archer, facing each other."""
    return axial([("w", "blue", "wizard", CENTRE, 0), ("a", "red", "archer", east(CENTRE, 5), 3)], seed=seed)


def spell_far(seed: int) -> BattleSetup:
    """FTC 8.1: a blue wizard 7 hexes west of a red brigand who keeps his distance."""
    return axial([("w", "blue", "wizard", Hex(1, 4), 0), ("b", "red", "brigand", Hex(8, 4), 3)], seed=seed)


def magic_skirmish(seed: int = 0, options: RuleOptions | None = None) -> BattleSetup:
    """FTC 8 in a skirmish: a wizard and a seer join the three against three of ``skirmish``."""
    return setup(
        [
            ("b0", "blue", "knight", (1, 2), 0),
            ("b1", "blue", "wizard", (1, 5), 0),
            ("b2", "blue", "spearman", (2, 3), 0),
            ("r0", "red", "brigand", (6, 2), 3),
            ("r1", "red", "seer", (6, 4), 3),
            ("r2", "red", "archer", (7, 6), 3),
            ("r3", "red", "wizard", (7, 3), 3),
        ],
        seed=seed,
        width=9,
        height=8,
        options=options,
        mooks=frozenset({"r2"}),
    )


def refereed(seed: int) -> BattleSetup:
    """The skirmish with a GM who plays no side (the "referee" seat)."""
    return replace(skirmish(seed), gm="referee")


def large_skirmish(
    seed: int = 0, options: RuleOptions | None = None, *, orders: Mapping[str, str] | None = None
) -> BattleSetup:
    """Large figures in a skirmish (FTC 5): a knight, a spearman and an archer against a 3-hex troll, a
    7-hex dragon and a goblin mook."""
    return setup(
        [
            ("b0", "blue", "knight", (1, 2), 0),
            ("b1", "blue", "archer", (1, 6), 0),
            ("b2", "blue", "spearman", (2, 4), 0),
            ("r0", "red", "troll", (8, 2), 3),
            ("r1", "red", "dragon", (8, 6), 3),
            ("r2", "red", "goblin", (10, 4), 3),
        ],
        seed=seed,
        width=12,
        height=10,
        options=options,
        orders=orders,
        mooks=frozenset({"r2"}),
    )


def large_zoc_setup(seed: int) -> BattleSetup:
    """FTC 5, 5.3: a red 7-hex dragon starts in the zone of control of a blue knight facing its east side."""
    return axial([("d", "red", "dragon", CENTRE, 0), ("k", "blue", "knight", east(CENTRE, 2), 3)], seed=seed)


def scale_both_setup(seed: int) -> BattleSetup:
    """FTC 6.4, 7.1-7.2: a 3-hex giant (Scale 3) against a pixie (Scale -3), side by side."""
    return axial([("g", "blue", "giant", CENTRE, 0), ("p", "red", "pixie", east(CENTRE, 1), 3)], seed=seed)


SCENARIOS: dict[str, Callable[[int], BattleSetup]] = {
    "skirmish": lambda seed: skirmish(seed),
    "skirmish_secret": lambda seed: skirmish(seed, RuleOptions(secret_stances=True, mook_group_initiative=True)),
    "hold": hold_setup,
    "zoc_swift_vs_peasant": zoc_setup("swift", "peasant"),
    "zoc_clumsy_vs_guard": zoc_setup("clumsy", "guard"),
    "duel": duel(),
    "bruisers": duel("bruiser", "bruiser"),
    "shot_past_enemy": shot_setup("red"),
    "shot_past_friend": shot_setup("blue"),
    "spell_duel": spell_duel,
    "spell_far": spell_far,
    "magic_skirmish": lambda seed: magic_skirmish(seed),
    "skirmish_gm": refereed,
    "large_zoc": large_zoc_setup,
    "scale_both": scale_both_setup,
    "shield_runner": shield_runner,
}
"""Scenario name -> setup for a seed; a golden log's ``setup`` holds ``{"scenario": name}``."""


def battle(setup_: BattleSetup) -> Battle:
    """A fresh battle from a setup."""
    return Battle(setup_)
