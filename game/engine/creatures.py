"""Combatants beyond the human: creature kinds, own wound tracks, mooks, scale-piercing weapons and large
figures (FTC 5, 6.6, 7.2, 7.3; *Fudge* 4.23, 4.57, 4.58).

The numbers live in ``data/creatures.toml``. How this game reads the open points:

* *Carnivore / prey* (*Fudge* 4.23): the roster gives one combat skill; a carnivore defends one level below
  it, a prey animal attacks one level below it (named modifiers). Each kind also suggests a stance
  (``default_stance``): hunters mildly aggressive, prey mildly defensive.
* *Mooks* (*Fudge* 4.57): the track "mook" has two columns, Hurt and Out of the Battle (Incapacitated), one
  box each: any wound marks Hurt, a blow of 5+ or a second wound puts the mook out.
* *Scale-piercing weapons* (*Fudge* 4.58): on a hit of relative degree 3 or more (the text's "solid blow")
  the target's positive Mass Scale counts half (rounded down, as FTC 7.2 halves armour) or not at all.
* *Large figures* (FTC 5): a figure covers 1, 3 or 7 hexes around its position hex ``center``:
  7 is the centre and the six hexes around it; 3 is a triangle of three mutually adjacent hexes — the
  centre (the head, where the figure's position is), the hex directly behind it and the rear hex on its
  left (direction facing+2). A triangle cannot be symmetric about a hex side, so one side was chosen.
  Its zone of control is every hex one step from its footprint in one of its three front directions (for a
  one-hex figure exactly its three front hexes), and reach k extends that k steps (for one hex and reach 2
  exactly the spear's front arc).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from game.engine.characters import Character, CharacterError
from game.engine.codec import is_whole
from game.engine.combat import Modifier, Stance
from game.engine.damage import Factor
from game.engine.datafiles import data_path, read_table
from game.engine.hexgrid import Hex, distance, neighbor, neighbors
from game.engine.wounds import WoundError, WoundTrack, named_track, track_names

DATA_FILE = data_path("creatures.toml")

PiercingMode = Literal["halve", "ignore"]


class CreatureError(ValueError):
    """A creature entry or a large-figure request that makes no sense; the message says how to fix it."""


def _data() -> Mapping[str, Any]:
    return read_table("creatures.toml")


# ---------------------------------------------------------------------------------------------------
# Kinds: Fudge 4.23
# ---------------------------------------------------------------------------------------------------


def kinds() -> tuple[str, ...]:
    """The creature kinds of ``data/creatures.toml`` ("person", "carnivore", "prey", ...)."""
    return tuple(_data()["kinds"])


def _kind(kind: str) -> Mapping[str, Any]:
    table = _data()["kinds"]
    key = kind.strip().lower()
    if key not in table:
        raise CreatureError(
            f"{kind!r} is not a creature kind; use one of {', '.join(table)} (or add it to {DATA_FILE.name})"
        )
    row: Mapping[str, Any] = table[key]
    return row


def default_stance(kind: str) -> Stance:
    """The stance the game suggests for a creature kind (*Fudge* 4.23 read through FTC 6.1.1): a carnivore
    presses (mildly aggressive), prey shies away (mildly defensive), a person stands neutral."""
    return Stance(str(_kind(kind)["stance"]))


def kind_modifiers(kind: str) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """(offence, defence) modifiers of a creature kind (*Fudge* 4.23): a carnivore's defence is one level
    below its offence, a prey animal's offence one below its defence. Zero terms are left out."""
    row = _kind(kind)
    label = kind.strip().capitalize()
    off = int(row["offence"])
    dfn = int(row["defence"])
    return ((Modifier(label, off),) if off else ()), ((Modifier(label, dfn),) if dfn else ())


# ---------------------------------------------------------------------------------------------------
# Wound tracks: FTC 7.3, Fudge 4.57, 4.63
# ---------------------------------------------------------------------------------------------------


def creature_track_names() -> tuple[str, ...]:
    """Track names a roster may use: those of ``data/creatures.toml`` and of ``data/damage.toml``."""
    return (*_data().get("tracks", {}), *track_names())


def creature_track(name_or_data: str | Mapping[str, Any]) -> WoundTrack:
    """A wound track for a creature (FTC 7.3): a name of ``data/creatures.toml`` ("mook", "major_npc"), a
    name of ``data/damage.toml`` ("default", "epic" of *Fudge* 4.63, ...), or a table of levels, damage
    and boxes (optionally labels). ``CreatureError`` names the known tracks."""
    if not isinstance(name_or_data, str):
        try:
            return WoundTrack.from_data(name_or_data)
        except (WoundError, ValueError, TypeError) as exc:
            raise CreatureError(f"custom wound track: {exc}") from None
    own = _data().get("tracks", {})
    if name_or_data in own:
        return WoundTrack.from_data(own[name_or_data], name=name_or_data)
    try:
        return named_track(name_or_data)
    except WoundError:
        raise CreatureError(
            f"there is no wound track named {name_or_data!r}; use one of "
            f"{', '.join(creature_track_names())} or give the track as a table of levels, "
            "damage and boxes"
        ) from None


MOOK_TRACK_NAME = "mook"


def mook_track() -> WoundTrack:
    """*Fudge* 4.57's track for NPC pawns: Undamaged, Hurt, Out of the Battle (module doc)."""
    return creature_track(MOOK_TRACK_NAME)


# ---------------------------------------------------------------------------------------------------
# Roster entries
# ---------------------------------------------------------------------------------------------------

CREATURE_FIELDS: tuple[str, ...] = ("kind", "size", "mook")
"""Roster fields this module reads before handing the rest to ``Character.from_dict``."""


@dataclass(frozen=True)
class Creature:
    """A roster figure with its creature traits (FTC 5, 7.3; *Fudge* 4.23, 4.57): its character, its kind,
    how many hexes it covers and whether it is a mook."""

    character: Character
    kind: str = "person"
    size: int = 1
    mook: bool = False


def footprint_sizes() -> tuple[int, ...]:
    """The hex counts a figure may cover (FTC 5: "some creatures will be larger"): 1, 3 and 7."""
    return tuple(int(s) for s in _data()["footprint"]["sizes"])


def creature_from_dict(data: Mapping[str, object], *, key: str = "") -> Creature:
    """Read one roster table with creature fields (FTC 5, 7.2, 7.3; *Fudge* 4.23, 4.57).

    Besides the fields of ``characters.Character`` it takes ``kind`` ("person", "carnivore", "prey"),
    ``size`` (1, 3 or 7 hexes) and ``mook`` (true: the mook wound track unless ``wound_track`` is given).
    ``wound_track`` may also name a track of ``data/creatures.toml``. Natural armour is the character's
    ``tough_hide`` (or the gift "Tough Hide"); ``has_head = false`` removes the head-blow bonus.
    """
    who = f"character {key!r}" if key else f"character {data.get('name', '?')!r}"
    rest = {k: v for k, v in data.items() if k not in CREATURE_FIELDS}
    kind = str(data.get("kind", "person")).strip().lower()
    if kind not in kinds():
        raise CreatureError(f"{who}, field 'kind': {kind!r} is unknown; use one of {', '.join(kinds())}")
    size = data.get("size", 1)
    if not is_whole(size) or size not in footprint_sizes():
        raise CreatureError(
            f"{who}, field 'size': {size!r} hexes is not a figure size; use one of "
            f"{', '.join(map(str, footprint_sizes()))}"
        )
    mook = data.get("mook", False)
    if not isinstance(mook, bool):
        raise CreatureError(f"{who}, field 'mook': write true or false, not {mook!r}")
    track = rest.get("wound_track")
    own: WoundTrack | None = None
    if track is None and mook:
        own = mook_track()
    elif isinstance(track, str) and track in _data().get("tracks", {}):
        own = creature_track(track)
    if own is not None:
        # Character.from_dict knows only damage.toml's names; hand it the table, keep the name.
        rest["wound_track"] = own.to_data()
    try:
        character = Character.from_dict(rest, key=key)
    except CharacterError as exc:
        raise CreatureError(str(exc)) from None
    if own is not None:
        character = replace(character, wound_track=own)
    return Creature(character, kind, size, mook)


# ---------------------------------------------------------------------------------------------------
# Scale-piercing weapons: Fudge 4.58
# ---------------------------------------------------------------------------------------------------


def hit_well_degree() -> int:
    """The relative degree from which a scale-piercing weapon "hits well" (*Fudge* 4.58; data file)."""
    return int(_data()["scale_piercing"]["hit_well_degree"])


def pierced_scale(mass_scale: int, relative_degree: int, mode: PiercingMode | None) -> int:
    """The Mass Scale that counts against a scale-piercing weapon (*Fudge* 4.58).

    On a hit of at least ``hit_well_degree`` a positive Mass Scale is halved (rounded down) or ignored; a
    weaker hit, a Scale of 0 or less, or an ordinary weapon (``mode`` None) leaves it whole. Against a
    human the weapon's own large damage factor does the work ("a massive damage modifier").
    """
    if mode not in (None, "halve", "ignore"):
        raise CreatureError(f'scale-piercing mode {mode!r} is unknown; use "halve" or "ignore"')
    if mode is None or mass_scale <= 0 or relative_degree < hit_well_degree():
        return mass_scale
    return mass_scale // 2 if mode == "halve" else 0


def scale_piercing_adjustment(mass_scale: int, relative_degree: int, mode: PiercingMode | None) -> int:
    """How much a scale-piercing weapon lowers the defender's defensive factors (*Fudge* 4.58): 0 or less."""
    return pierced_scale(mass_scale, relative_degree, mode) - mass_scale


def pierce_defence(defence: Sequence[Factor], relative_degree: int, mode: PiercingMode | None) -> tuple[Factor, ...]:
    """Defensive factors (as ``damage.defensive_factors`` names them) with the "Mass Scale" factor pierced
    (*Fudge* 4.58): halved or dropped; everything else unchanged."""
    out: list[Factor] = []
    for f in defence:
        if f.name != "Mass Scale":
            out.append(f)
            continue
        value = pierced_scale(f.value, relative_degree, mode)
        if value == f.value:
            out.append(f)
        elif value:
            out.append(Factor("Mass Scale (halved: scale-piercing)", value))
    return tuple(out)


# ---------------------------------------------------------------------------------------------------
# Large figures: FTC 5, 5.2, 6.2
# ---------------------------------------------------------------------------------------------------


def footprint(center: Hex, size: int, facing: int) -> frozenset[Hex]:
    """The hexes a figure covers (FTC 5): 1 = its hex; 7 = the centre and the six around it; 3 = the
    centre (its head), the hex directly behind it and the rear hex on its left (module doc)."""
    if size == 1:
        return frozenset({center})
    if size == 3:
        return frozenset({center, neighbor(center, facing + 3), neighbor(center, facing + 2)})
    if size == 7:
        return frozenset({center, *neighbors(center)})
    raise CreatureError(f"a figure covers 1, 3 or 7 hexes, not {size}; fix the roster's size")


def front_zone(cells: Iterable[Hex], facing: int, reach: int = 1) -> frozenset[Hex]:
    """The hexes within ``reach`` steps of a footprint taken only in its three front directions (FTC 5.2,
    docs/rulings.md "Facing"), the footprint itself excluded."""
    if reach < 1:
        raise CreatureError(f"reach is at least 1 hex, not {reach}")
    body = frozenset(cells)
    seen: set[Hex] = set(body)
    layer: set[Hex] = set(body)
    for _ in range(reach):
        nxt = {neighbor(h, facing + d) for h in layer for d in (-1, 0, 1)} - seen
        seen |= nxt
        layer = nxt
    return frozenset(seen - body)


def large_front_hexes(center: Hex, size: int, facing: int) -> frozenset[Hex]:
    """The zone of control of a figure of any size (FTC 5.2): the hexes adjacent to its footprint across
    its front; for one hex, its three front hexes."""
    return front_zone(footprint(center, size, facing), facing, 1)


def large_distance(footprint_a: Iterable[Hex], footprint_b: Iterable[Hex]) -> int:
    """The distance between two figures (docs/rulings.md "Distances": hex distances): the least between any of their
    hexes."""
    a, b = tuple(footprint_a), tuple(footprint_b)
    if not a or not b:
        raise CreatureError("a figure covers at least one hex")
    return min(distance(x, y) for x in a for y in b)


def large_reach(center: Hex, size: int, facing: int, target_cells: Iterable[Hex], reach: int = 1) -> bool:
    """Whether a figure can strike a target in melee (docs/rulings.md "Melee reach", FTC 9.1): some hex of the
    target lies in its front zone of that reach (1; spear or pike 2)."""
    zone = front_zone(footprint(center, size, facing), facing, reach)
    return any(h in zone for h in target_cells)


def fits(center: Hex, size: int, facing: int, is_free: Callable[[Hex], bool]) -> bool:
    """Whether a figure can stand there (FTC 5.2: no figure ends its move in an occupied hex): every hex of
    its footprint passes ``is_free`` (passable for its movement mode, not occupied by another figure)."""
    return all(is_free(h) for h in footprint(center, size, facing))


def occupancy(figures: Mapping[str, tuple[Hex, int, int]]) -> dict[Hex, str]:
    """Which figure covers each hex, from each figure's (centre, size, facing) (FTC 5); ``CreatureError``
    when two figures overlap."""
    out: dict[Hex, str] = {}
    for fid, (center, size, facing) in figures.items():
        for h in footprint(center, size, facing):
            if h in out:
                raise CreatureError(f"{fid} and {out[h]} both cover {h}; move one of them")
            out[h] = fid
    return out
