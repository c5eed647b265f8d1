"""The weapon, armour and shield catalogue of *Fudge Tactical Combat* (FTC 9.1, 9.2, 9.3).

The numbers live in ``data/equipment.toml`` (docs/architecture.md "Tables are data"); this module turns each row, and
each printed note, into a field of a frozen dataclass that the rest of the engine reads:

* stabbing, small piercing and large blunt weapons for the armour halving of FTC 7.2;
* the bastard sword's one- / two-handed factors and the spear's +3 beyond 1 m (FTC 9.1);
* unwieldy weapons' defence penalties and "needs room to swing" (FTC 6.4.1, 9.1);
* the rapier's parry bonus and the stiletto's "can't parry bigger weapons" (FTC 9.1, 6.4.1);
* shields' attacks per round, helmets protecting the head, the greathelm obscuring vision (FTC 9.2);
* partial suits of armour (FTC 9.2 note);
* the bows' published range tables (FTC 9.3).

How this game reads the open points (also in the docstrings below):

* **Large blunt** weapons are the mace and the flail only (FTC 7.2 and *Fudge* 4.54 both say "large blunt
  *metal* weapons such as maces and flails"); a wooden large club is not.
* **Parrying a larger weapon** (FTC 6.4.1): weapons fall into size classes by mass (thresholds in the data
  file); the parry is at -1 per class the attacker's weapon is larger, at worst -2. A shortsword (1 kg)
  parrying a broadsword (1.5 kg) is -1, a knife (0.5 kg) parrying it -2, as the text's examples say.
* **"Can't parry bigger weapons"** (stiletto): parrying any heavier weapon is at the worst penalty (-2 by
  default, a data value), so it never parries a bigger weapon better than an ordinary knife would.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any, Protocol, TypeVar

from game.engine.datafiles import data_path, read_table
from game.engine.spelling import close_matches

DATA_FILE = data_path("equipment.toml")

BODY = "body"
HEAD = "head"
SHIELD = "shield"
ARMOUR_LOCATIONS: tuple[str, ...] = (BODY, HEAD, SHIELD)

COVERAGES: tuple[str, ...] = ("full", "torso", "no_arms", "no_legs")
"""How much of the body a suit covers (FTC 9.2 note): all of it, the torso only, all but the arms / legs."""
MAX_TECH_LEVEL = 99
"""The highest technological level a catalogue row may give (*Fudge* 4.65 leaves the levels unquantified)."""


class UnknownEquipment(KeyError, ValueError):
    """A weapon or armour name that is not in the catalogue (FTC 9); the message lists near matches."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown equipment"


class EquipmentDataError(ValueError):
    """The equipment data file has a bad row; the message names the row, the field and the fix."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon of FTC 9.1 / 9.3 with each printed note as a field.

    ``damage`` is the one-handed offensive factor; ``damage_two_handed`` the factor when a weapon that may be
    wielded either way is held in both hands (Bastard Sword +3); ``damage_long`` the factor when striking a
    target more than 1 m away (Spear or Pike +3). ``reach`` is the farthest melee distance in hexes.
    A ranged weapon's published range table (FTC 9.3) lives in ``data/ranges.toml``; see ``published_range``.
    """

    name: str
    skill: str
    damage: int
    mass_kg: float
    damage_two_handed: int | None = None
    damage_long: int | None = None
    muscle_powered: bool = True
    ranged: bool = False
    base_range: int = 0
    max_range: int = 0
    stabbing: bool = False
    small_piercing: bool = False
    large_blunt: bool = False
    sharp: bool = False
    two_handed: bool = False
    defense_penalty: int = 0
    reach: int = 1
    needs_room: bool = False
    parry_bonus_light: int = 0
    parry_bonus_max_kg: float = 1.0
    cannot_parry_bigger: bool = False
    martial_arts_damage: int | None = None
    natural: bool = False
    note: str = ""
    aliases: tuple[str, ...] = ()
    tech_level: int = 0
    """The weapon's technological level (*Fudge* 4.65; the medieval catalogue is all 0): against armour of
    another level, the rule option ``tech_level_scale`` makes the difference count as Scale."""

    @property
    def can_be_two_handed(self) -> bool:
        """Whether the weapon may be held in both hands for a better factor (FTC 9.1, Bastard Sword)."""
        return self.damage_two_handed is not None

    def damage_for(self, *, two_handed: bool = False, distance: int = 1, martial_arts: bool = False) -> int:
        """The weapon's offensive factor for this blow (FTC 9.1, 7.1).

        Two-handed grip uses ``damage_two_handed`` when the weapon has one; a blow at more than 1 m uses
        ``damage_long`` (spear / pike); an unarmed blow with a Martial Arts skill uses
        ``martial_arts_damage``.
        """
        if martial_arts and self.martial_arts_damage is not None:
            return self.martial_arts_damage
        value = self.damage
        if two_handed and self.damage_two_handed is not None:
            value = self.damage_two_handed
        if distance > 1 and self.damage_long is not None:
            value = self.damage_long
        return value

    def published_range(self, scale: int) -> tuple[int, ...] | None:
        """The FTC 9.3 row for a target of this Scale (distances for Terrible .. Legendary), if printed."""
        from game.engine.ranges import published_distances  # ranges reads weapons only through a Protocol

        return published_distances(self, scale)


@dataclass(frozen=True, slots=True)
class Armour:
    """Body armour, a helmet or a shield of FTC 9.2.

    ``location`` is ``"body"`` (a suit: torso, arms and legs unless ``coverage`` says otherwise), ``"head"``
    (protects the head only) or ``"shield"`` (a defence bonus against ``shield_attacks_per_round`` attackers,
    FTC 6.4.1, not a damage factor). ``rigid`` armour is not halved by large blunt weapons and ``woven``
    (open-weave) armour is halved, rounding down, by small piercing weapons (FTC 7.2). ``mass_kg`` is the
    mass as worn, already reduced for a partial suit.
    """

    name: str
    defense: int
    mass_kg: float
    location: str = BODY
    rigid: bool = False
    woven: bool = False
    shield_attacks_per_round: int = 0
    obscures_vision: bool = False
    coverage: str = "full"
    note: str = ""
    aliases: tuple[str, ...] = ()
    tech_level: int = 0
    """The armour's technological level (*Fudge* 4.65; the medieval catalogue is all 0)."""

    @property
    def is_shield(self) -> bool:
        """A shield (FTC 9.2: Small / Medium / Large Shield)."""
        return self.location == SHIELD

    @property
    def is_helmet(self) -> bool:
        """Head armour: protects the head only (FTC 9.2)."""
        return self.location == HEAD

    @property
    def is_body(self) -> bool:
        """A suit of body armour (FTC 9.2)."""
        return self.location == BODY

    def covers(self, location: str) -> bool:
        """Whether this armour protects a hit location (FTC 6.6, 9.2).

        A suit protects the torso, and the arms and legs unless its coverage leaves them bare; it never
        protects the head, hands or feet. A helmet protects only the head. A shield is not armour for damage.
        """
        if self.location == HEAD:
            return location == "head"
        if self.location != BODY:
            return False
        if location == "torso":
            return True
        if location == "arm":
            return self.coverage in ("full", "no_legs")
        if location == "leg":
            return self.coverage in ("full", "no_arms")
        return False

    def with_coverage(self, coverage: str) -> Armour:
        """This suit covering less of the body, with the mass reduced as the FTC 9.2 note says.

        ``"torso"`` keeps 1/2 of the mass, ``"no_arms"`` / ``"no_legs"`` keep 2/3 (fractions in the data).
        The mass is always computed from the catalogue's full suit of the same name.
        """
        if coverage not in COVERAGES:
            raise ValueError(f"coverage {coverage!r} is unknown; use one of {', '.join(COVERAGES)}")
        if not self.is_body and coverage != "full":
            raise ValueError(f"{self.name} is not a suit of body armour, so it has no partial coverage")
        full_mass = _full_mass(self)
        return replace(self, coverage=coverage, mass_kg=partial_suit_mass(full_mass, coverage))


def partial_suit_mass(full_mass_kg: float, coverage: str) -> float:
    """Mass of a suit covering only part of the body (FTC 9.2 note: torso only 1/2, arms or legs bare 2/3)."""
    try:
        share = _data().partial[coverage]
    except KeyError:
        raise ValueError(f"coverage {coverage!r} is unknown; use one of {', '.join(COVERAGES)}") from None
    return float(Fraction(full_mass_kg).limit_denominator(1000) * share)


def _full_mass(item: Armour) -> float:
    try:
        return _data().armours[_key(item.name)].mass_kg
    except KeyError:
        if item.coverage == "full":
            return item.mass_kg
        share = _data().partial[item.coverage]
        return float(Fraction(item.mass_kg).limit_denominator(1000) / share)


# ----------------------------------------------------------------------------------------- catalogue


@dataclass(frozen=True)
class _Catalogue:
    weapons: Mapping[str, Weapon]
    armours: Mapping[str, Armour]
    aliases: Mapping[str, str]  # alias key -> canonical key, weapons and armour alike
    size_class_max_kg: tuple[float, ...]
    penalty_per_class: int
    max_penalty: int
    cannot_parry_penalty: int
    partial: Mapping[str, Fraction]


def _key(name: str) -> str:
    return " ".join(name.replace("-", " ").lower().split())


def _row(defaults: Mapping[str, Any], row: Mapping[str, Any], kind: str, index: int) -> dict[str, Any]:
    merged = {**defaults, **row}
    unknown = set(merged) - set(defaults) - {"name", "skill", "damage", "mass_kg", "defense"}
    name = row.get("name", f"#{index + 1}")
    if unknown:
        raise EquipmentDataError(
            f"{DATA_FILE.name}: {kind} {name!r} has unknown field(s) "
            f"{', '.join(sorted(unknown))}; remove them or fix their spelling"
        )
    level = merged.get("tech_level")
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= MAX_TECH_LEVEL:
        raise EquipmentDataError(
            f"{DATA_FILE.name}: {kind} {name!r} has tech_level {level!r}; write a whole number from 0 to "
            f"{MAX_TECH_LEVEL} (Fudge 4.65; the medieval catalogue is 0)"
        )
    for flag in ("damage_two_handed", "damage_long", "martial_arts_damage"):
        if merged.get(flag) is False:
            merged[flag] = None
    merged["aliases"] = tuple(merged.get("aliases", ()))
    return merged


@cache
def _data() -> _Catalogue:
    raw = read_table("equipment.toml")
    weapons: dict[str, Weapon] = {}
    armours: dict[str, Armour] = {}
    aliases: dict[str, str] = {}
    for index, row in enumerate(raw["weapon"]):
        fields = _row(raw["weapon_defaults"], row, "weapon", index)
        fields["mass_kg"] = float(fields["mass_kg"])
        fields["parry_bonus_max_kg"] = float(fields["parry_bonus_max_kg"])
        try:
            item = Weapon(**fields)
        except TypeError as exc:
            raise EquipmentDataError(f"{DATA_FILE.name}: weapon {fields.get('name')!r}: {exc}") from exc
        weapons[_key(item.name)] = item
        aliases.update({_key(a): _key(item.name) for a in item.aliases})
    for index, row in enumerate(raw["armour"]):
        fields = _row(raw["armour_defaults"], row, "armour", index)
        fields["mass_kg"] = float(fields["mass_kg"])
        try:
            armour_item = Armour(**fields)
        except TypeError as exc:
            raise EquipmentDataError(f"{DATA_FILE.name}: armour {fields.get('name')!r}: {exc}") from exc
        if armour_item.location not in ARMOUR_LOCATIONS:
            raise EquipmentDataError(
                f"{DATA_FILE.name}: armour {armour_item.name!r} has location "
                f"{armour_item.location!r}; use one of {', '.join(ARMOUR_LOCATIONS)}"
            )
        armours[_key(armour_item.name)] = armour_item
        aliases.update({_key(a): _key(armour_item.name) for a in armour_item.aliases})
    parry = raw["parry"]
    partial = {name: Fraction(int(num), int(den)) for name, (num, den) in raw["partial_suits"].items()}
    return _Catalogue(
        weapons,
        armours,
        aliases,
        tuple(float(x) for x in parry["size_class_max_kg"]),
        int(parry["penalty_per_class"]),
        int(parry["max_penalty"]),
        int(parry["cannot_parry_penalty"]),
        partial,
    )


def _unknown(name: str, kind: str, names: list[str]) -> UnknownEquipment:
    close = close_matches(name, names, 4)
    hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else f"known {kind}s: {', '.join(names)}"
    article = "an" if kind[0] in "aeiou" else "a"
    return UnknownEquipment(f"{name!r} is not {article} {kind} of the FTC 9 catalogue; {hint}")


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_Item = TypeVar("_Item", bound=_Named)


def _look_up(items: Mapping[str, _Item], name: str, kind: str) -> _Item:
    """The item of ``items`` (the catalogue's weapons or armours) called ``name`` or one of its aliases,
    case-insensitively; ``UnknownEquipment`` listing near matches."""
    key = _key(name)
    key = _data().aliases.get(key, key)
    if key in items:
        return items[key]
    raise _unknown(name, kind, [item.name for item in items.values()])


def weapon(name: str) -> Weapon:
    """Look up a weapon of FTC 9.1 / 9.3 by its printed name or an alias, case-insensitively.

    ``weapon("Spear")`` and ``weapon("pike")`` both give "Spear or Pike". Raises ``UnknownEquipment``
    listing near matches.
    """
    return _look_up(_data().weapons, name, "weapon")


def armour(name: str) -> Armour:
    """Look up body armour, a helmet or a shield of FTC 9.2 by its printed name or an alias.

    Case-insensitive; raises ``UnknownEquipment`` listing near matches.
    """
    return _look_up(_data().armours, name, "armour")


def weapons() -> tuple[Weapon, ...]:
    """Every weapon of the catalogue, in the order of FTC 9.1 then 9.3."""
    return tuple(_data().weapons.values())


def armours() -> tuple[Armour, ...]:
    """Every armour, shield and helmet of FTC 9.2, in the table's order."""
    return tuple(_data().armours.values())


def shields() -> tuple[Armour, ...]:
    """The shields of FTC 9.2."""
    return tuple(a for a in armours() if a.is_shield)


# ----------------------------------------------------------------------------------------- parrying


def size_class(item: Weapon) -> int:
    """A weapon's size class for parrying (FTC 6.4.1): how many of the data file's mass bounds it exceeds."""
    return sum(1 for bound in _data().size_class_max_kg if item.mass_kg > bound)


def can_parry(defender_weapon: Weapon, attacker_weapon: Weapon) -> bool:
    """Whether the weapon parries the attacker's weapon without the "can't parry bigger" note (FTC 9.1).

    False only for a weapon that can't parry bigger weapons (Stiletto) against a heavier weapon. Missiles
    are never parried (they are dodged, FTC 6.3), so a ranged attacker's weapon also gives False.
    """
    if attacker_weapon.ranged:
        return False
    return not (defender_weapon.cannot_parry_bigger and attacker_weapon.mass_kg > defender_weapon.mass_kg)


def parry_penalty(defender_weapon: Weapon, attacker_weapon: Weapon) -> int:
    """The "Parrying Larger Weapon" defence modifier of FTC 6.4.1, 0 or negative.

    -1 per size class (by mass, see ``size_class``) the attacker's weapon is larger, at worst -2: a shortsword
    parrying a broadsword is -1, a knife parrying it -2. A weapon that can't parry bigger weapons (Stiletto)
    parries any heavier weapon at the worst penalty. No penalty against missiles (dodged, not parried) or
    for a shield block (the caller uses this only for weapon parries).
    """
    data = _data()
    if attacker_weapon.ranged:
        return 0
    if not can_parry(defender_weapon, attacker_weapon):
        return data.cannot_parry_penalty
    larger_by = size_class(attacker_weapon) - size_class(defender_weapon)
    if larger_by <= 0:
        return 0
    return max(data.max_penalty, larger_by * data.penalty_per_class)


def parry_bonus(defender_weapon: Weapon, attacker_weapon: Weapon) -> int:
    """A defence bonus from the defender's weapon against light weapons (FTC 9.1 Rapier: +1 vs <= 1 kg)."""
    if attacker_weapon.ranged or defender_weapon.parry_bonus_light == 0:
        return 0
    if attacker_weapon.mass_kg <= defender_weapon.parry_bonus_max_kg:
        return defender_weapon.parry_bonus_light
    return 0


def parry_modifier(defender_weapon: Weapon, attacker_weapon: Weapon) -> int:
    """The weapon-against-weapon defence modifiers of a parry (FTC 6.4.1, 9.1): the larger-weapon penalty
    plus the rapier's bonus. The defender's unwieldy-weapon penalty (``Weapon.defense_penalty``) is separate:
    it belongs to the weapon whatever it faces."""
    return parry_penalty(defender_weapon, attacker_weapon) + parry_bonus(defender_weapon, attacker_weapon)
