"""Damage factors and the damage of a blow (FTC 6.6, 7, 7.1, 7.2; *Fudge* 4.54, 4.55, 4.58).

Damage = relative degree + offensive factors - defensive factors (FTC 7). Every factor is a named ``Factor``
so that the screen and the log can show where a number came from.

How this game reads the open points:

* **Strength** gives its ladder value for muscle-powered weapons (the FTC 7.1 table in ``data/damage.toml``;
  beyond Superb / Terrible the factor goes on one per step). Bows are muscle-powered (*Fudge* 4.53).
* **Armour**: only the best suit covering the hit location counts (suits do not stack). Suits protect the
  torso, and the arms and legs unless the suit's coverage leaves them bare (FTC 9.2); never the head, hands or
  feet. Helmets protect only the head. A shield is a defence bonus, not a damage factor.
* **Halving** (FTC 7.2): non-rigid armour against large blunt weapons, woven armour against small piercing
  weapons, both rounding down; an armour is halved at most once.
* **Tough Hide** and Mass Scale protect every location; Scale factors appear only when not 0.
* **Sharp-resistant creatures** (FTC 7.1 note): a target's ``resist_sharp`` is subtracted from a sharp
  weapon's factor as its own named factor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType

from game.engine.characters import Character
from game.engine.equipment import Armour, Weapon
from game.engine.ladder import SUPERB, TERRIBLE, level_name, parse_level
from game.engine.wounds import (
    DEFAULT_TRACK,
    WoundError,
    WoundLevel,
    WoundTrack,
    damage_data,
    graze_cap,
    wound_for_damage,
)

TORSO = "torso"
HEAD = "head"
ARM = "arm"
LEG = "leg"
HAND = "hand"
FOOT = "foot"
LOCATIONS: tuple[str, ...] = (TORSO, HEAD, ARM, LEG, HAND, FOOT)
"""Hit locations of FTC 6.6: the torso by default; head, arms, legs on Superb; hands, feet on Superb+1."""
LIMBS: frozenset[str] = frozenset({ARM, LEG, HAND, FOOT})
"""Locations where a blow gives at most a Hurt wound (FTC 6.6): the arms and legs, and the hands and feet
that are part of them (``docs/rulings.md`` "Hit location")."""
ARM_SIDE: frozenset[str] = frozenset({ARM, HAND})
"""Locations whose crippling takes the use of an arm (``crippled_character``)."""
LEG_SIDE: frozenset[str] = frozenset({LEG, FOOT})
"""Locations whose crippling takes the use of a leg (the figure moves as if crawling)."""

_ALIASES = {"arms": ARM, "legs": LEG, "hands": HAND, "feet": FOOT, "body": TORSO}


def location_name(location: str) -> str:
    """The canonical hit location ("arms" -> "arm"); ``ValueError`` naming the known locations."""
    key = location.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in LOCATIONS:
        raise ValueError(f"{location!r} is not a hit location; use one of {', '.join(LOCATIONS)}")
    return key


CAPACITY_FACTOR = "Damage Capacity"
"""The name the roster's Damage Capacity takes among the defensive factors (*Fudge* 4.52, 4.54)."""


@dataclass(frozen=True, slots=True)
class Factor:
    """One named offensive or defensive damage factor (FTC 7.1, 7.2), e.g. ``Factor("Strength", 1)``."""

    name: str
    value: int


@cache
def _strength_table() -> Mapping[int, int]:
    """FTC 7.1's Strength table of ``data/damage.toml`` by ladder level, read once."""
    return MappingProxyType({parse_level(name): int(value) for name, value in damage_data()["strength"].items()})


def strength_factor(strength: int) -> int:
    """The offensive factor of a Strength level for muscle-powered weapons (FTC 7.1 table, then +-1/step)."""
    table = _strength_table()
    if strength in table:
        return table[strength]
    if strength > SUPERB:
        return table[SUPERB] + (strength - SUPERB)
    return table[TERRIBLE] - (TERRIBLE - strength)


def offensive_factors(
    attacker: Character,
    weapon: Weapon,
    *,
    two_handed: bool,
    distance: int,
    location: str = TORSO,
    target: Character | None = None,
    martial_arts: bool | None = None,
) -> tuple[Factor, ...]:
    """The attacker's offensive damage factors for one blow (FTC 7.1, 6.6, 9.1).

    Strength and Strength Scale count only for muscle-powered weapons. The weapon's factor depends on the grip
    (``two_handed``: bastard sword +3), the distance (spear / pike +3 beyond 1 m) and, for fists and kicks,
    Martial Arts (``martial_arts``; None: the attacker uses it if ``Character.uses_martial_arts`` says so).
    A head blow is +2 unless the target has no head. A target resisting sharp weapons reduces a sharp
    weapon's factor.
    """
    location = location_name(location)
    factors: list[Factor] = []
    if weapon.muscle_powered:
        factors.append(Factor(f"Strength ({level_name(attacker.strength)})", strength_factor(attacker.strength)))
        if attacker.strength_scale:
            factors.append(Factor("Strength Scale", attacker.strength_scale))
    use_ma = attacker.uses_martial_arts(weapon) if martial_arts is None else martial_arts
    use_ma = use_ma and weapon.martial_arts_damage is not None
    label = f"{weapon.name} (Martial Arts)" if use_ma else weapon.name
    if two_handed and weapon.can_be_two_handed:
        label = f"{weapon.name} (two-handed)"
    if distance > 1 and weapon.damage_long is not None:
        label = f"{weapon.name} (at {distance} m)"
    factors.append(Factor(label, weapon.damage_for(two_handed=two_handed, distance=distance, martial_arts=use_ma)))
    if location == HEAD and (target is None or target.has_head):
        factors.append(Factor("Head blow", int(damage_data()["head_blow"]["bonus"])))
    if target is not None and target.resist_sharp and weapon.sharp:
        factors.append(Factor(f"{target.name} resists sharp weapons", -target.resist_sharp))
    return tuple(factors)


def armour_value(item: Armour, weapon: Weapon) -> int:
    """An armour's defensive factor against a weapon, with the FTC 7.2 halving (rounding down).

    Non-rigid armour is halved against large blunt weapons (mace, flail); woven armour is halved against small
    piercing weapons (rapier, stiletto, arrows). Halved at most once.
    """
    halved = (weapon.large_blunt and not item.rigid) or (weapon.small_piercing and item.woven)
    return item.defense // 2 if halved else item.defense


def best_armour(defender: Character, weapon: Weapon, location: str) -> tuple[Armour, int] | None:
    """The armour that counts at a hit location (FTC 7.2, 9.2: the best suit or helmet covering it, suits do
    not stack) with its value against the weapon (``armour_value``); None when nothing covers it."""
    best: tuple[Armour, int] | None = None
    for item in defender.armour:
        if item.covers(location):
            value = armour_value(item, weapon)
            if best is None or value > best[1]:
                best = (item, value)
    return best


def defensive_factors(defender: Character, weapon: Weapon, *, location: str = TORSO) -> tuple[Factor, ...]:
    """The defender's defensive damage factors against a weapon at a hit location (FTC 7.2, 6.6, 9.2).

    Mass Scale, the best armour covering the location (helmets only on the head; suits on torso, and on arms
    and legs as their coverage says) with the halving of ``armour_value``, Tough Hide, and the optional
    *Fudge* 4.52 Damage Capacity when the character has one.
    """
    location = location_name(location)
    factors: list[Factor] = []
    if defender.mass_scale:
        factors.append(Factor("Mass Scale", defender.mass_scale))
    if defender.damage_capacity is not None:
        factors.append(Factor(f"{CAPACITY_FACTOR} ({level_name(defender.damage_capacity)})", defender.damage_capacity))
    best = best_armour(defender, weapon, location)
    if best is not None:
        item, value = best
        label = item.name if value == item.defense else f"{item.name} (halved)"
        factors.append(Factor(label, value))
    if defender.tough_hide:
        factors.append(Factor("Tough Hide", defender.tough_hide))
    return tuple(factors)


def damage_total(relative_degree: int, offence: Sequence[Factor], defence: Sequence[Factor]) -> int:
    """The damage number of a blow (FTC 7): relative degree + offensive factors - defensive factors."""
    return relative_degree + sum(f.value for f in offence) - sum(f.value for f in defence)


def scale_part(offence: Sequence[Factor], defence: Sequence[Factor]) -> int:
    """What the Scale factors add to a blow's damage number (*Fudge* 4.58): the attacker's Strength Scale less
    the defender's Mass Scale, as the factor lists give them (a scale-piercing blow's Mass Scale as pierced)."""
    return sum(f.value for f in offence if f.name == "Strength Scale") - sum(
        f.value for f in defence if f.name.startswith("Mass Scale")
    )


def graze_scale_difference(attacker: Character, defender: Character, weapon: Weapon) -> int:
    """The Scale difference that may raise the cap of a graze (*Fudge* 4.56: "at most a GM-set Wound level
    (plus any Scale difference)"; FTC 7.3 keeps 4.56): the Scale of the blow minus the defender's Mass Scale.

    The blow carries the attacker's Strength Scale only when his Strength counts, with a muscle-powered
    weapon (*Fudge* 4.58: "the attacker's Strength Scale is relevant only for muscle-powered weapons"); a
    spell or another weapon that is not muscle-powered strikes at Scale 0, as it does in the damage factors.
    """
    return (attacker.strength_scale if weapon.muscle_powered else 0) - defender.mass_scale


def blow_wound(
    relative_degree: int,
    offence: Sequence[Factor],
    defence: Sequence[Factor],
    *,
    track: WoundTrack = DEFAULT_TRACK,
    fudge_graze_table: bool = False,
    scale_difference: int = 0,
) -> WoundLevel | None:
    """The wound a successful blow inflicts before the Health roll (FTC 7, 7.3 with the graze cap).

    ``scale_difference`` is ``graze_scale_difference``: the blow's Scale (the attacker's Strength Scale for a
    muscle-powered weapon) minus the defender's Mass Scale (graze cap, *Fudge* 4.56). Apply the Health roll
    (``wounds.apply_health_roll``) and, for arms and legs, ``limb_wound`` after.
    """
    damage = damage_total(relative_degree, offence, defence)
    level = wound_for_damage(damage, track)
    return graze_cap(
        level, relative_degree, fudge_graze_table=fudge_graze_table, damage=damage, scale_difference=scale_difference
    )


def limb_wound(level: WoundLevel, health_result: int | None) -> tuple[WoundLevel, bool]:
    """A blow to an arm or leg (FTC 6.6): returns the wound (at most Hurt) and whether the limb is crippled.

    A would-be Very Hurt wound is a normal Hurt one on a Health result of Good or better, otherwise the limb
    is crippled for the fight; a would-be Incapacitated (or worse) wound cripples it whatever the Health.
    ``level`` is the wound after the FTC 7.4 Health roll, and the same roll serves here; ``health_result`` may
    be None only when no roll is needed (below Very Hurt, or Incapacitated and worse).
    """
    limb = damage_data()["limb"]
    cap = WoundLevel.parse(limb["max_wound"])
    if level <= cap:
        return level, False
    if level >= WoundLevel.INCAPACITATED:
        return cap, True
    if health_result is None:
        raise WoundError("a would-be Very Hurt blow to a limb needs the target's Health roll (FTC 6.6)")
    return cap, health_result < parse_level(str(limb["health_to_save"]))


def is_limb(location: str) -> bool:
    """Whether a hit location is an arm, a leg, a hand or a foot, where FTC 6.6's limb rule applies."""
    return location_name(location) in LIMBS


def limb_cap() -> WoundLevel:
    """The worst wound a blow to a limb gives (FTC 6.6: "at *most* a Hurt wound"; ``data/damage.toml``)."""
    return WoundLevel.parse(str(damage_data()["limb"]["max_wound"]))


def location_result(location: str, level: WoundLevel | None) -> tuple[WoundLevel | None, bool]:
    """What a blow of ``level`` (before the Health roll) does at a location (FTC 6.6): the wound, capped at
    Hurt on a limb, and whether it may cripple the limb (a would-be Very Hurt or worse limb blow)."""
    if level is None or not is_limb(location):
        return level, False
    cap = limb_cap()
    return (min(level, cap), level > cap)


def location_rank(location: str, level: WoundLevel | None) -> tuple[int, int]:
    """How good a location is for the attacker (FTC 6.6, ``choose_location``): first the wound it gives after
    armour and the limb cap, then whether it may cripple the limb."""
    wound, cripples = location_result(location, level)
    return (0 if wound is None else int(wound), int(cripples))


def choose_location(aim: str, allowed: Sequence[str], levels: Mapping[str, WoundLevel | None]) -> str:
    """Where a hit falls (FTC 6.6), the same for the battle, the odds preview and the computer players.

    ``allowed``: the locations the result lets the attacker choose (``combat.hit_locations``, canonical
    names); ``levels``: the wound (before the Health roll) the blow gives at each location the target has.
    An aimed location falls where aimed when allowed, else on the torso. ``"best"`` is best *for the
    attacker*: the location that gives the worst wound after armour (a limb capped at Hurt, a limb that may
    be crippled counting above one that may not); ties stay on the torso, then the head, arm, leg, hand,
    foot in that order. A hand blow's disarming is not counted: aim at the hand to disarm.
    """
    names = [location_name(a) for a in allowed]
    if aim != "best":
        wanted = location_name(aim)
        return wanted if wanted in names and wanted in levels else TORSO
    best = TORSO
    for location in LOCATIONS:
        if (
            location in names
            and location in levels
            and location_rank(location, levels[location]) > location_rank(best, levels.get(best))
        ):
            best = location
    return best


def damage_bases(
    attacker: Character, defender: Character, weapon: Weapon, *, two_handed: bool, distance: int
) -> dict[str, int]:
    """Offensive minus defensive factors of one blow at each location the defender has (FTC 6.6, 7.1, 7.2):
    the torso, the head (when it has one), the arms, legs, hands and feet. The relative degree is added by
    the caller; the odds preview and the battle read the same numbers."""
    bases: dict[str, int] = {}
    for location in LOCATIONS:
        if location == HEAD and not defender.has_head:
            continue
        off = offensive_factors(
            attacker, weapon, two_handed=two_handed, distance=distance, location=location, target=defender
        )
        dfn = defensive_factors(defender, weapon, location=location)
        bases[location] = sum(f.value for f in off) - sum(f.value for f in dfn)
    return bases


def crippled_character(character: Character, location: str) -> Character:
    """The character as a crippled limb leaves it for the rest of the battle (FTC 6.6: "the limb is
    crippled for the duration of the fight"; the effects are this game's ruling, ``docs/rulings.md`` "Hit location").

    An arm or a hand: the figure fights one-handed — its shield is no longer used, no weapon is held in both
    hands, and a weapon that needs both hands is dropped (the next weapon, or the fist, is ready). A leg or
    a foot changes nothing here: the figure moves as if crawling (``crippled_posture``).
    """
    location = location_name(location)
    if location not in ARM_SIDE:
        return character
    weapons = tuple(w for w in character.weapons if not w.two_handed)
    return replace(character, shield=None, two_handed=False, weapons=weapons)


def crippled_posture(posture: str, crippled: Sequence[str]) -> str:
    """The posture a figure moves with (FTC 5 "Crawling and Rolling"): a standing figure with a crippled leg
    or foot hobbles as if crawling (``docs/rulings.md`` "Hit location"); otherwise its own posture."""
    if posture == "standing" and any(location_name(c) in LEG_SIDE for c in crippled):
        return "crawling"
    return posture


def disarmed_character(character: Character) -> Character:
    """A hit on the weapon hand disarms (FTC 6.6: "this will usually disarm the opponent"): the ready weapon
    is dropped for the rest of the battle and the next one (or the fist) is ready. The GM's seat may hand it
    back with Edit gear (``docs/rulings.md`` "Hit location")."""
    if not character.weapons:
        return character
    return replace(character, weapons=character.weapons[1:], two_handed=False)
