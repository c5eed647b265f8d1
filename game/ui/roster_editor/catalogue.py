"""What the roster editor shows, drawn from the rules' data files: ladder levels, skills, wound tracks,
spells and gear as the editor names them, and the constants its parts share.

Attributes and skills are ladder names (FTC 2, Fudge 1.3); wound tracks come from data/damage.toml and
data/creatures.toml (FTC 7.3, Fudge 4.57, 4.63); spells from data/spells.toml (FTC 8); gear from the FTC 9
catalogue. Nothing here draws or handles input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from game.engine import creatures, equipment, healing, magic
from game.engine.characters import ATTRIBUTES, BRAWLING, MARTIAL_ARTS
from game.engine.datafiles import read_table
from game.engine.ladder import FAIR, level_name
from game.engine.limits import limit
from game.engine.players import CHOSEN_IN_WINDOW, LEVEL_NAMES, LEVELS
from game.engine.quantities import kg_text
from game.engine.wounds import Wounds, WoundTrack


def ladder_step(field: str, what: str, now: int | None, step: int) -> tuple[int, str]:
    """The − / + buttons: one step along the ladder (FTC 2, *Fudge* 1.3) within the field's range
    (``game.engine.limits``: Terrible-3 to Legendary+3 as shipped). Returns the new level and "", or the level
    kept and a sentence saying that ``what`` is at the end of its range. A value that cannot be read starts
    at Fair; one the file already had outside the range may be stepped back towards it."""
    if now is None:
        return FAIR + step, ""
    lim = limit(field)
    new = now + step
    if lim is None or lim.low <= new <= lim.high or (new - now) * (new - (lim.low + lim.high) / 2) < 0:
        return new, ""
    end = "highest" if step > 0 else "lowest"
    return now, (
        f"{what} is at {level_name(now)}, the {end} level a roster may give (the range is {lim.describe()}, "
        "game/engine/data/limits.toml)."
    )


CONTROLLERS = ("human", *CHOSEN_IN_WINDOW, *(level for level in LEVELS if level not in CHOSEN_IN_WINDOW))
"""What a roster's side may say plays it, in the order a click cycles: the levels chosen on the screens, then
the testing tools (``game.engine.players``)."""
CONTROLLER_NAMES = {"human": "Human", **LEVEL_NAMES}
GEAR_STEP_KG = 0.5
SCALE_FIELDS = ("strength_scale", "mass_scale", "speed_scale")

Action = Callable[[], object]
"""What a button of the editor does when clicked."""

SECTION_OF = {
    "name": "name",
    "skills": "skills",
    "scale": "scale",
    "strength_scale": "scale",
    "mass_scale": "scale",
    "speed_scale": "scale",
    "gifts": "traits",
    "faults": "traits",
    "tough_hide": "creature",
    "weapons": "weapons",
    "two_handed": "weapons",
    "armour": "armour",
    "shield": "shield",
    "gear_kg": "gear",
    "wound_track": "creature",
    "footprint": "creature",
    "kind": "creature",
    "has_head": "creature",
    "spells": "spells",
    "scale_piercing": "piercing",
    "wounds": "creature",
    **{a: "attributes" for a in ATTRIBUTES},
}
FIELD_ERROR = re.compile(r"field '([^']+)': (.*)$", re.S)
LOAD_PANEL_HEIGHT = 112
CREATURE_PANEL_HEIGHT = 20 + 30 + 30 + 34
"""Height of the creature block (header, two rows of fields, the track's boxes) at UI scale 1."""
SCALE_RULES = {
    "all": "Fudge 4.58: a creature's Scale counts in combat; FTC 5, 5.1.1, 6.4, 6.5, 7.1, 7.2 use it.",
    "Strength": "FTC 5.1.1: the load carried ×1.5 a step; FTC 7.1: + to damage with muscle-powered weapons.",
    "Mass": "FTC 6.4: melee difficulty +1 a step the attacker is larger; 6.5: range ×1.3 a step; "
    "7.2: + to the defensive factor.",
    "Speed": "FTC 5: movement ×1.2 a step (rounded).",
}
CUSTOM_TRACK = "custom"
"""The wound-track cycle's name for a track the roster gives as a table (kept as it is, FTC 7.3)."""
TRACK_RULES = {
    "default": "FTC 7.3, Fudge 4.57: the standard track",
    "mook": "Fudge 4.57: mooks, Undamaged, Hurt, Out of the Battle",
    "major_npc": "Fudge 4.58's dragon: a major NPC's three Scratch boxes",
    "epic": "Fudge 4.63: the epic track, Incapacitated in one blow",
    "cinematic": "Fudge 4.57: a cinematic sheet, one more box for Scratch and Hurt",
    "doubled_degree": "Fudge 4.55: for a doubled relative degree",
    CUSTOM_TRACK: "FTC 7.3: the creature's own track, as the roster file gives it",
}
"""Where each wound track of the data files comes from, for its tooltip (the numbers stay in the data)."""


def rosters_dir() -> Path:
    """Where "Save as" puts rosters: ``game.session.data_dir() / "rosters"`` (``FUDGE_TACTICS_HOME``)."""
    from game.session import data_dir

    return data_dir() / "rosters"


def slug(name: str, fallback: str = "roster") -> str:
    """A file or key name made of a name: lower case letters, digits and underscores."""
    out = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    return out or fallback


THAUMATOLOGY = "Thaumatology"
"""FTC 8.2: the skill that recognises a spell being cast at the character."""


def skill_uses() -> dict[str, str]:
    """Every skill the rules use, with what it does in the game: each weapon's skill (FTC 6.3, 9.1, 9.3),
    Shield (FTC 6.3, 9.2), Martial Arts (FTC 6.3), each spell's casting skill (FTC 8.1), Thaumatology
    (FTC 8.2) and the medical skills of data/healing.toml (Fudge 4.8: First Aid among them)."""
    weapons: dict[str, list[str]] = {}
    for w in equipment.weapons():
        weapons.setdefault(w.skill, []).append(w.name)
    uses = {
        name: f"FTC 6.3, 9.1: fights with {', '.join(items[:4])}" + (", …" if len(items) > 4 else "")
        for name, items in weapons.items()
    }
    uses.setdefault("Shield", "FTC 6.3, 9.2: blocks with a shield")
    uses.setdefault(MARTIAL_ARTS, f"FTC 6.3: fights unarmed, in place of {BRAWLING} when it is higher")
    spells: dict[str, list[str]] = {}
    for item in magic.spells():
        spells.setdefault(item.skill, []).append(item.name)
    for name, items in spells.items():
        uses.setdefault(name, f"FTC 8.1: casts {', '.join(items[:4])}" + (", …" if len(items) > 4 else ""))
    uses.setdefault(THAUMATOLOGY, "FTC 8.2: recognises a spell being cast at the character")
    for name in healing.healing_data()["treatment"]["skills"]:
        uses.setdefault(str(name), "Fudge 4.8: treats wounds after the battle (data/healing.toml)")
    return dict(sorted(uses.items()))


def known_skills() -> list[str]:
    """Every skill the rules use (``skill_uses``), by name."""
    return list(skill_uses())


def kg(x: float) -> str:
    """A mass as the editor shows it: "2.5 kg", "1,346,730 kg" (``game.engine.quantities``)."""
    return kg_text(x)


def short(value: object, limit: int = 14) -> str:
    """A value of the file shown in a few characters, cut with "…"."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def track_names() -> list[str]:
    """The wound tracks a roster may name (FTC 7.3; data/damage.toml and data/creatures.toml), default first."""
    names = list(dict.fromkeys(creatures.creature_track_names()))
    return ["default", *(n for n in names if n != "default")]


def track_columns(track: WoundTrack, wounds: Wounds | None = None) -> list[tuple[str, str]]:
    """A wound track's columns as a sheet shows them (FTC 7.3): the level, and the damage that inflicts it
    with one □ per box ("Scratch", "1–2 □□□"); boxes the carried ``wounds`` fill are ■ (Fudge 4.8)."""
    columns = []
    for i, step in enumerate(track.steps):
        nxt = track.steps[i + 1].min_damage - 1 if i + 1 < len(track.steps) else None
        band = (
            f"{step.min_damage}+"
            if nxt is None
            else (f"{step.min_damage}" if nxt == step.min_damage else f"{step.min_damage}–{nxt}")
        )
        filled = min(step.boxes, wounds.filled(step.level)) if wounds is not None else 0
        columns.append((step.name, f"{band} " + "■" * filled + "□" * (step.boxes - filled)))
    return columns


def track_summary(track: WoundTrack) -> str:
    """A wound track on one line (FTC 7.3): "Scratch 1–2 □□□ · Hurt 3–4 □ · …"."""
    return " · ".join(f"{name} {boxes}" for name, boxes in track_columns(track))


def spell_reach(item: magic.Spell) -> str:
    """A spell's range as the editor shows it (FTC 8.3): self, touch, close (2 hexes), long (in sight)."""
    hexes = magic.spell_range_hexes(item.range)
    if item.range in ("self", "touch"):
        return item.range
    return f"{item.range} ({hexes} hexes)" if hexes is not None else f"{item.range} (in sight)"


def spell_summary(item: magic.Spell) -> str:
    """A spell's skill, casting time and range (FTC 8.1, 8.3), as the spell list and the picker show it."""
    return f"{item.skill} · {item.casting_time} · {spell_reach(item)}"


def kind_note(kind: str) -> str:
    """The one-line note of a creature kind in data/creatures.toml (Fudge 4.23), or ''."""
    row = read_table("creatures.toml").get("kinds", {}).get(kind, {})
    return str(row.get("note", "")) if isinstance(row, Mapping) else ""


def armour_entry(entry: object) -> tuple[str, float | None]:
    """(label, mass) of an armour entry, plain or ``{ name, coverage }`` (FTC 9.2 partial suits)."""
    name = str(entry.get("name", "")) if isinstance(entry, dict) else str(entry)
    coverage = str(entry.get("coverage", "full")) if isinstance(entry, dict) else "full"
    try:
        item = equipment.armour(name)
        if coverage != "full":
            item = item.with_coverage(coverage)
        mass: float | None = item.mass_kg
    except (KeyError, ValueError):
        mass = None
    label = name if coverage == "full" else f"{name} ({coverage.replace('_', ' ')})"
    return label, mass


# ------------------------------------------------------------------------------------------- widgets
