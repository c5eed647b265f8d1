"""Combatants: attributes, skills, Scale, gifts and faults, equipment and wound track (FTC 2.1, 5.1.1, 7).

A ``Character`` is plain, frozen data. Rosters give characters as TOML tables (``[characters.<key>]``) which
``Character.from_dict`` reads; ``to_dict`` writes the same format back (for the roster editor).

Roster format of one character (every field optional except ``name``)::

    name = "Sir Bors"
    strength = "Good"        # FTC 2.1 attributes: ladder names ("Legendary+1") or ints; omitted = Fair
    skills = { Sword = "Great", Shield = "Good+" }   # "Good+": Good, and Great on even rounds (Fudge 4.36)
    scale = 0                # sets strength_scale, mass_scale and speed_scale; each may also be given alone
    gifts = ["High Pain Threshold"]
    faults = []
    tough_hide = 0           # natural armour (FTC 7.2); the gift "Tough Hide" alone gives the data default
    weapons = ["Broadsword", "Large Knife"]          # the first is the ready weapon
    armour = ["Chain Mail", "Metal Cap"]             # or { name = "Chain Mail", coverage = "torso" }
    shield = "Medium Shield"
    gear_kg = 2.0
    two_handed = false       # wields a bastard sword two-handed (then no shield)
    wound_track = "default"  # a track of data/damage.toml ("epic", ...) or data/creatures.toml ("mook"), or
                             # { levels = [..], damage = [..], boxes = [..] }
    movement_modes = ["walk"]
    has_head = true          # false: no +2 for head blows (FTC 6.6)
    resist_sharp = 0         # reduces sharp weapons' factor against this creature (FTC 7.1 note)
    damage_capacity = 0      # Fudge 4.52 option, not used by FTC: omit to leave it out of the damage factors
    spells = ["Fire Bolt"]   # FTC 8: spells of data/spells.toml the character knows (cast with their skill)
    footprint = 1            # hexes the figure covers on the map: 1, 3 or 7 (FTC 5 "some creatures will be larger")
    kind = "person"          # a kind of data/creatures.toml: "carnivore" defends -1, "prey" attacks -1 (Fudge 4.23)
    scale_piercing = { Harpoon = "halve" }   # weapons that pierce Scale (Fudge 4.58): "halve" or "ignore"
    wounds = ["Hurt", "Scratch"]             # wounds carried from an earlier battle (Fudge 4.8), recorded in
                                             # order on the wound track; or { Hurt = ["Hurt"], ... } box by box
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from game.engine import equipment, spellbook
from game.engine.codec import is_whole
from game.engine.datafiles import read_table
from game.engine.equipment import Armour, UnknownEquipment, Weapon
from game.engine.ladder import FAIR, level_name, parse_level, plus_name, split_plus
from game.engine.limits import check_value, check_wound_count
from game.engine.spelling import close_matches
from game.engine.wounds import DEFAULT_TRACK, WoundError, Wounds, WoundTrack, damage_data, named_track

ATTRIBUTES: tuple[str, ...] = ("strength", "speed", "agility", "health", "reasoning", "perception", "will", "charisma")
"""The attributes of FTC 2.1, in the text's order."""

HIGH_PAIN_THRESHOLD = "High Pain Threshold"
LOW_PAIN_THRESHOLD = "Low Pain Threshold"
TOUGH_HIDE = "Tough Hide"
DAMAGE_RESISTANT = "Damage Resistant"
FRAGILE = "Fragile"
KNOWN_TRAITS: tuple[str, ...] = (HIGH_PAIN_THRESHOLD, LOW_PAIN_THRESHOLD, TOUGH_HIDE, DAMAGE_RESISTANT, FRAGILE)
"""The gifts and faults the rules give an effect (*Fudge* 4.51, 4.52, FTC 7.2); others are kept as free text."""
KNOWN_GIFTS: tuple[str, ...] = (HIGH_PAIN_THRESHOLD, TOUGH_HIDE, DAMAGE_RESISTANT)
KNOWN_FAULTS: tuple[str, ...] = (LOW_PAIN_THRESHOLD, FRAGILE)

MARTIAL_ARTS = "Martial Arts"
BRAWLING = "Brawling"

UNSKILLED_DEFAULT: int = parse_level(str(damage_data()["characters"]["unskilled_default"]))
"""*Fudge*: an untrained skill defaults to Poor (``data/damage.toml``)."""

TOUGH_HIDE_DEFAULT: int = int(damage_data()["characters"]["tough_hide_default"])

_FIELDS: tuple[str, ...] = (
    "name",
    *ATTRIBUTES,
    "skills",
    "scale",
    "strength_scale",
    "mass_scale",
    "speed_scale",
    "gifts",
    "faults",
    "tough_hide",
    "weapons",
    "armour",
    "shield",
    "gear_kg",
    "two_handed",
    "wound_track",
    "movement_modes",
    "has_head",
    "resist_sharp",
    "damage_capacity",
    "spells",
    "footprint",
    "kind",
    "scale_piercing",
    "wounds",
)


_CREATURES: Mapping[str, Any] = read_table("creatures.toml")
CREATURE_KINDS: tuple[str, ...] = tuple(_CREATURES["kinds"])
"""Creature kinds of ``data/creatures.toml`` (*Fudge* 4.23): "person", "carnivore", "prey", ..."""
FOOTPRINT_SIZES: tuple[int, ...] = tuple(int(n) for n in _CREATURES["footprint"]["sizes"])
"""Hexes a figure may cover (FTC 5): 1, 3 or 7."""
PIERCING_MODES: tuple[str, ...] = ("halve", "ignore")
"""*Fudge* 4.58: a scale-piercing weapon that hits well halves the target's Mass Scale or ignores it."""

_LEVEL_FIX = 'write a ladder name such as "Good" or "Legendary+1", or a number such as 1'


class CharacterError(ValueError):
    """A character that cannot be built; the message names the character, the field and the fix."""


def _canonical_trait(name: str) -> str:
    for known in KNOWN_TRAITS:
        if name.strip().lower() == known.lower():
            return known
    return name.strip()


@dataclass(frozen=True)
class Character:
    """A combatant (FTC 2.1): attributes as ladder ints (Fair 0), skills, Scale, gifts, faults, equipment.

    ``weapons[0]`` is the ready weapon (a bare-handed figure fights with its fist). ``armour`` holds body
    armour and helmets; ``shield`` is separate. ``two_handed`` means the figure holds a weapon that may be
    wielded either way (Bastard Sword) in both hands. ``tough_hide`` is natural armour (FTC 7.2),
    ``has_head`` and ``resist_sharp`` are creature notes of FTC 6.6 and 7.1, ``damage_capacity`` the optional
    *Fudge* 4.52 defensive factor (None: not used, as in FTC). ``footprint`` is how many hexes the figure
    covers (FTC 5), ``kind`` its creature kind (*Fudge* 4.23), ``scale_piercing`` the weapons (by name) that
    pierce Scale and how (*Fudge* 4.58). ``wounds`` are the wounds the character carries from an earlier
    battle (*Fudge* 4.8 heals them between battles); None when unhurt.
    """

    name: str
    strength: int = FAIR
    speed: int = FAIR
    agility: int = FAIR
    health: int = FAIR
    reasoning: int = FAIR
    perception: int = FAIR
    will: int = FAIR
    charisma: int = FAIR
    skills: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    strength_scale: int = 0
    mass_scale: int = 0
    speed_scale: int = 0
    gifts: frozenset[str] = frozenset()
    faults: frozenset[str] = frozenset()
    tough_hide: int = 0
    weapons: tuple[Weapon, ...] = ()
    armour: tuple[Armour, ...] = ()
    shield: Armour | None = None
    gear_kg: float = 0.0
    two_handed: bool = False
    wound_track: WoundTrack = DEFAULT_TRACK
    movement_modes: tuple[str, ...] = ("walk",)
    has_head: bool = True
    resist_sharp: int = 0
    damage_capacity: int | None = None
    key: str = ""
    spells: tuple[str, ...] = ()
    """FTC 8: the catalogue spells the character knows, by their catalogue names."""
    footprint: int = 1
    kind: str = "person"
    scale_piercing: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    wounds: Wounds | None = None
    plus_skills: frozenset[str] = frozenset()
    """*Fudge* 4.36: the skills (as named in ``skills``) at a "plus" level: one level higher on every other
    round of a battle, from the second."""

    def __post_init__(self) -> None:
        # Freeze the skills so that a shared roster dict cannot change a character later.
        object.__setattr__(self, "skills", MappingProxyType(dict(self.skills)))
        object.__setattr__(self, "scale_piercing", MappingProxyType(dict(self.scale_piercing)))
        carried = self.wounds
        if carried is not None and carried.track != self.wound_track:
            # a new track (dataclasses.replace) takes the same wounds, recorded again in its boxes
            carried = Wounds.from_roster([str(w) for w in carried.received()], self.wound_track)
        if carried is not None and not any(True for _ in carried.received()):
            carried = None  # unhurt: no carried wounds, so equal to a character written without them
        object.__setattr__(self, "wounds", carried)

    @property
    def starting_wounds(self) -> Wounds:
        """The wound sheet a figure of this character starts a battle with (*Fudge* 4.8: wounds heal between
        battles, and what is left is carried into the next): its carried wounds, else an unhurt sheet."""
        return self.wounds if self.wounds is not None else Wounds(self.wound_track)

    def __hash__(self) -> int:
        return hash((self.key, self.name))

    # ------------------------------------------------------------------ traits

    def skill_level(self, name: str, round_no: int | None = None) -> int:
        """A skill's level, case-insensitively; an untrained skill defaults to Poor (*Fudge*, data file). With
        the battle's ``round_no``, a "plus" skill counts one level higher on even rounds (*Fudge* 4.36: "+1
        every other round, starting with the second")."""
        lowered = name.strip().lower()
        for skill, level in self.skills.items():
            if skill.lower() == lowered:
                return level + (round_no is not None and round_no % 2 == 0 and skill in self.plus_skills)
        return UNSKILLED_DEFAULT

    def has_plus(self, name: str) -> bool:
        """Whether the skill is at a "plus" level (*Fudge* 4.36)."""
        return any(s.lower() == name.strip().lower() for s in self.plus_skills)

    def has_skill(self, name: str) -> bool:
        """Whether the character has trained this skill (it is listed)."""
        return any(s.lower() == name.strip().lower() for s in self.skills)

    def piercing(self, item: Weapon) -> str | None:
        """How a weapon of this figure pierces Scale (*Fudge* 4.58): "halve", "ignore" or None."""
        for name, mode in self.scale_piercing.items():
            if name.lower() == item.name.lower():
                return mode
        return None

    def uses_martial_arts(self, item: Weapon) -> bool:
        """Whether an unarmed blow uses Martial Arts (FTC 9.1 Fist / Kick notes): the figure has the skill and
        it is at least as good as its Brawling."""
        return (
            item.martial_arts_damage is not None
            and self.has_skill(MARTIAL_ARTS)
            and self.skill_level(MARTIAL_ARTS) >= self.skill_level(BRAWLING)
        )

    def combat_skill(self, item: Weapon, round_no: int | None = None) -> int:
        """The skill used with a weapon (FTC 6.3): its skill (e.g. "Sword"), or a skill named after the weapon
        itself ("Broadsword") if better; Martial Arts for fists and kicks when the figure uses it. With the
        battle's ``round_no`` the best *this round* counts (*Fudge* 4.36's plus levels, ``skill_level``)."""
        best = self.skill_level(item.skill, round_no)
        if self.has_skill(item.name):
            best = max(best, self.skill_level(item.name, round_no))
        if self.uses_martial_arts(item):
            best = max(best, self.skill_level(MARTIAL_ARTS, round_no))
        return best

    @property
    def pain(self) -> str:
        """ "high" with the gift High Pain Threshold, "low" with the fault Low Pain Threshold, else "normal"
        (*Fudge* 4.51; both cancel out)."""
        traits = self.gifts | self.faults
        high = HIGH_PAIN_THRESHOLD in traits
        low = LOW_PAIN_THRESHOLD in traits
        if high and not low:
            return "high"
        if low and not high:
            return "low"
        return "normal"

    @property
    def resilience(self) -> int:
        """*Fudge* 4.52: -1 with the gift Damage Resistant (each wound one step less severe), +1 with the fault
        Fragile (one step more severe), else 0."""
        return (FRAGILE in self.faults) - (DAMAGE_RESISTANT in self.gifts)

    # ------------------------------------------------------------------ equipment

    @property
    def ready_weapon(self) -> Weapon:
        """The weapon in hand: the first listed, or the fist (FTC 9.1) for a figure with none."""
        return self.weapons[0] if self.weapons else equipment.weapon("Fist")

    def wields_two_handed(self, item: Weapon | None = None) -> bool:
        """Whether the weapon (default: the ready one) is held in both hands (FTC 9.1)."""
        item = self.ready_weapon if item is None else item
        return item.two_handed or (self.two_handed and item.can_be_two_handed)

    def shield_in_use(self, item: Weapon | None = None) -> Armour | None:
        """The shield, if it can be used with this weapon (FTC 6.4.1): not with a two-handed grip."""
        if self.shield is None or self.wields_two_handed(item):
            return None
        return self.shield

    @property
    def body_armour(self) -> tuple[Armour, ...]:
        """The suits of armour worn (FTC 9.2)."""
        return tuple(a for a in self.armour if a.is_body)

    @property
    def helmets(self) -> tuple[Armour, ...]:
        """The head armour worn (FTC 9.2)."""
        return tuple(a for a in self.armour if a.is_helmet)

    def carried_mass_kg(self) -> float:
        """Everything carried, for encumbrance (FTC 5.1.1): weapons, armour, shield and other gear."""
        total = math.fsum(w.mass_kg for w in self.weapons) + math.fsum(a.mass_kg for a in self.armour)
        if self.shield is not None:
            total += self.shield.mass_kg
        return total + self.gear_kg

    # ------------------------------------------------------------------ roster format

    @classmethod
    def from_dict(cls, data: Mapping[str, object], *, key: str = "") -> Character:
        """Build a character from one roster table (module doc); ``CharacterError`` names key, field, fix."""
        return _Reader(data, key).character()

    def to_dict(self) -> dict[str, Any]:
        """The roster table of this character (``from_dict`` reads it back to an equal character)."""
        out: dict[str, Any] = {"name": self.name}
        for attr in ATTRIBUTES:
            value = getattr(self, attr)
            if value != FAIR:
                out[attr] = level_name(value)
        if self.skills:
            out["skills"] = {name: plus_name(level, name in self.plus_skills) for name, level in self.skills.items()}
        scales = (self.strength_scale, self.mass_scale, self.speed_scale)
        if len(set(scales)) == 1:
            if scales[0]:
                out["scale"] = scales[0]
        else:
            out.update(strength_scale=scales[0], mass_scale=scales[1], speed_scale=scales[2])
        if self.gifts:
            out["gifts"] = sorted(self.gifts)
        if self.faults:
            out["faults"] = sorted(self.faults)
        if self.tough_hide:
            out["tough_hide"] = self.tough_hide
        if self.weapons:
            out["weapons"] = [w.name for w in self.weapons]
        if self.armour:
            out["armour"] = [
                a.name if a.coverage == "full" else {"name": a.name, "coverage": a.coverage} for a in self.armour
            ]
        if self.shield is not None:
            out["shield"] = self.shield.name
        if self.gear_kg:
            out["gear_kg"] = self.gear_kg
        if self.two_handed:
            out["two_handed"] = True
        if self.wound_track != DEFAULT_TRACK:
            try:
                same_named = named_track(self.wound_track.name) == self.wound_track
            except WoundError:
                same_named = False
            out["wound_track"] = self.wound_track.name if same_named else self.wound_track.to_data()
        if self.movement_modes != ("walk",):
            out["movement_modes"] = list(self.movement_modes)
        if not self.has_head:
            out["has_head"] = False
        if self.resist_sharp:
            out["resist_sharp"] = self.resist_sharp
        if self.damage_capacity is not None:
            out["damage_capacity"] = level_name(self.damage_capacity)
        if self.spells:
            out["spells"] = list(self.spells)
        if self.footprint != 1:
            out["footprint"] = self.footprint
        if self.kind != "person":
            out["kind"] = self.kind
        if self.scale_piercing:
            out["scale_piercing"] = dict(self.scale_piercing)
        if self.wounds is not None:
            out["wounds"] = self.wounds.to_roster()
        return out


class _Reader:
    """Reads one roster table, turning every bad value into a ``CharacterError`` with the fix."""

    def __init__(self, data: Mapping[str, object], key: str) -> None:
        self.data = data
        self.key = key
        self.who = f"character {key!r}" if key else f"character {data.get('name', '?')!r}"

    def fail(self, name: str, problem: str, fix: str) -> CharacterError:
        return CharacterError(f"{self.who}, field {name!r}: {problem}; {fix}")

    def within(self, name: str, value: object, field: str | None = None) -> None:
        """Refuse a value outside its range of ``data/limits.toml`` (the sentence names range and fix)."""
        problem = check_value(field or name, value)
        if problem is not None:
            raise CharacterError(f"{self.who}, field {name!r}: {problem}")

    def level(self, name: str, default: int = FAIR) -> int:
        value = self.data.get(name, default)
        return self.to_level(name, value)

    def to_level(self, name: str, value: object) -> int:
        self.within(name, value, "skill" if name.startswith("skills.") else name)
        if isinstance(value, str) and split_plus(value)[1]:
            try:
                bare = parse_level(split_plus(value)[0])
            except ValueError:
                fix = _LEVEL_FIX
            else:
                fix = f'write "{level_name(bare)}" or "{level_name(bare + 1)}"'
            raise self.fail(name, f"{value!r}: plus levels are for combat skills (Fudge 4.36)", fix)
        if isinstance(value, bool):
            raise self.fail(name, f"{value!r} is not a level", _LEVEL_FIX)
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return parse_level(value)
            except ValueError as exc:
                raise self.fail(name, str(exc), _LEVEL_FIX) from None
        raise self.fail(name, f"{value!r} is not a level", _LEVEL_FIX)

    def integer(self, name: str, default: int) -> int:
        value = self.data.get(name, default)
        if not is_whole(value):
            raise self.fail(name, f"{value!r} is not a whole number", "write a whole number such as 0 or -2")
        self.within(name, value)
        return value

    def flag(self, name: str, default: bool) -> bool:
        value = self.data.get(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, f"{value!r} is not true or false", "write true or false")
        return value

    def names(self, name: str) -> list[object]:
        value = self.data.get(name, [])
        if isinstance(value, str):
            return [value]
        if not isinstance(value, list | tuple):
            raise self.fail(name, f"{value!r} is not a list", f'write a list such as {name} = ["..."]')
        self.within(name, value)
        return list(value)

    def character(self) -> Character:
        unknown = [k for k in self.data if k not in _FIELDS]
        if unknown:
            bad = unknown[0]
            close = close_matches(bad, _FIELDS, 1)
            fix = f"did you mean {close[0]!r}?" if close else f"known fields: {', '.join(_FIELDS)}"
            raise self.fail(bad, "is not a field of a character", fix)
        name = self.data.get("name", self.key)
        if not isinstance(name, str) or not name.strip():
            raise self.fail("name", f"{name!r} is not a name", 'write name = "Sir Bors"')
        self.within("name", name)
        attrs = {attr: self.level(attr) for attr in ATTRIBUTES}
        skills_raw = self.data.get("skills", {})
        if not isinstance(skills_raw, Mapping):
            raise self.fail("skills", f"{skills_raw!r} is not a table", 'write skills = { Sword = "Great" }')
        self.within("skills", skills_raw)
        plus = frozenset(str(k) for k, v in skills_raw.items() if isinstance(v, str) and split_plus(v)[1])
        skills = {
            str(k): self.to_level(f"skills.{k}", split_plus(v)[0] if str(k) in plus else v)
            for k, v in skills_raw.items()
        }
        scale = self.integer("scale", 0)
        scales = {s: self.integer(s, scale) for s in ("strength_scale", "mass_scale", "speed_scale")}
        gifts = frozenset(_canonical_trait(str(g)) for g in self.names("gifts"))
        faults = frozenset(_canonical_trait(str(f)) for f in self.names("faults"))
        wrong_gifts = sorted(gifts & set(KNOWN_FAULTS))
        wrong_faults = sorted(faults & set(KNOWN_GIFTS))
        if wrong_gifts or wrong_faults:
            raise self.fail(
                "gifts" if wrong_gifts else "faults",
                f"lists {(wrong_gifts or wrong_faults)[0]} as a {'gift' if wrong_gifts else 'fault'}",
                f"{', '.join(KNOWN_GIFTS)} are gifts; {' and '.join(KNOWN_FAULTS)} are faults: move it to the "
                f"{'faults' if wrong_gifts else 'gifts'}",
            )
        if HIGH_PAIN_THRESHOLD in gifts and LOW_PAIN_THRESHOLD in faults:
            raise self.fail("faults", "has both High and Low Pain Threshold", "keep only one of them")
        if DAMAGE_RESISTANT in gifts and FRAGILE in faults:
            raise self.fail("faults", "has both Damage Resistant and Fragile (Fudge 4.52)", "keep only one of them")
        tough_hide = self.integer("tough_hide", TOUGH_HIDE_DEFAULT if TOUGH_HIDE in gifts else 0)
        if tough_hide < 0:
            raise self.fail("tough_hide", f"{tough_hide} is negative", "write 0 or more")
        if tough_hide > 0:
            gifts = gifts | {TOUGH_HIDE}
        weapons = tuple(self.weapon(w) for w in self.names("weapons"))
        armour = tuple(self.armour(a) for a in self.names("armour"))
        shield = self.shield()
        gear = self.data.get("gear_kg", 0.0)
        if isinstance(gear, bool) or not isinstance(gear, int | float):
            raise self.fail("gear_kg", f"{gear!r} is not a mass", "write the mass in kg, e.g. gear_kg = 2.5")
        self.within("gear_kg", gear)
        two_handed = self.flag("two_handed", False)
        if two_handed and not any(w.can_be_two_handed for w in weapons):
            raise self.fail(
                "two_handed",
                "is true but no weapon listed may be held either way",
                "list a Bastard Sword or set two_handed = false",
            )
        if two_handed and shield is not None:
            raise self.fail(
                "two_handed",
                "is true but a shield is carried",
                "a two-handed grip leaves no hand for the shield: remove one of them",
            )
        if weapons and weapons[0].two_handed and shield is not None:
            raise self.fail(
                "shield",
                f"cannot be used with the ready weapon {weapons[0].name}, which needs both hands",
                "remove the shield or list a one-handed weapon first",
            )
        modes = tuple(str(m) for m in self.names("movement_modes")) or ("walk",)
        capacity = self.data.get("damage_capacity")
        footprint = self.integer("footprint", 1)
        if footprint not in FOOTPRINT_SIZES:
            raise self.fail(
                "footprint",
                f"{footprint} hexes is not a figure size",
                f"write one of {', '.join(map(str, FOOTPRINT_SIZES))}",
            )
        kind = self.data.get("kind", "person")
        if not isinstance(kind, str) or kind.strip().lower() not in CREATURE_KINDS:
            raise self.fail(
                "kind",
                f"{kind!r} is not a creature kind",
                f"write one of {', '.join(CREATURE_KINDS)} (or add it to data/creatures.toml)",
            )
        track = self.track()
        return Character(
            name=name.strip(),
            **attrs,
            skills=skills,
            **scales,
            gifts=gifts,
            faults=faults,
            tough_hide=tough_hide,
            weapons=weapons,
            armour=armour,
            shield=shield,
            gear_kg=float(gear),
            two_handed=two_handed,
            wound_track=track,
            movement_modes=modes,
            has_head=self.flag("has_head", True),
            resist_sharp=self.integer("resist_sharp", 0),
            damage_capacity=None if capacity is None else self.to_level("damage_capacity", capacity),
            key=self.key,
            spells=self.spells(),
            footprint=footprint,
            kind=kind.strip().lower(),
            scale_piercing=self.piercing(weapons),
            wounds=self.wounds(track),
            plus_skills=plus,
        )

    def spells(self) -> tuple[str, ...]:
        """FTC 8: the known spells, each checked against the catalogue (near matches named on a typo)."""
        known: list[str] = []
        for value in self.names("spells"):
            try:
                item = spellbook.spell(str(value))
            except spellbook.MagicError as exc:
                raise self.fail("spells", str(exc), "write a spell name of data/spells.toml") from None
            if item.name not in known:
                known.append(item.name)
        return tuple(known)

    def piercing(self, weapons: tuple[Weapon, ...]) -> dict[str, str]:
        raw = self.data.get("scale_piercing", {})
        if not isinstance(raw, Mapping):
            raise self.fail(
                "scale_piercing",
                f"{raw!r} is not a table",
                'write scale_piercing = { Harpoon = "halve" } (or "ignore")',
            )
        self.within("scale_piercing", raw)
        out: dict[str, str] = {}
        for name, mode in raw.items():
            try:
                wanted = equipment.weapon(str(name)).name
            except UnknownEquipment:
                wanted = str(name).strip()
            match = next((w for w in weapons if w.name.lower() == wanted.lower()), None)
            if match is None:
                raise self.fail(
                    "scale_piercing",
                    f"names {name!r}, which the character does not carry",
                    "list the weapon under weapons, or use the name of a weapon listed there",
                )
            if mode not in PIERCING_MODES:
                raise self.fail(
                    "scale_piercing",
                    f"{name}: {mode!r} is not a way to pierce Scale",
                    'write "halve" (halve the Mass Scale) or "ignore" (ignore it)',
                )
            out[match.name] = str(mode)
        return out

    def weapon(self, value: object) -> Weapon:
        try:
            return equipment.weapon(str(value))
        except UnknownEquipment as exc:
            raise self.fail("weapons", str(exc), "use a weapon name of FTC 9.1 / 9.3") from None

    def armour(self, value: object) -> Armour:
        coverage = "full"
        if isinstance(value, Mapping):
            coverage = str(value.get("coverage", "full"))
            value = value.get("name", "")
        try:
            item = equipment.armour(str(value))
        except UnknownEquipment as exc:
            raise self.fail("armour", str(exc), "use an armour or helmet name of FTC 9.2") from None
        if item.is_shield:
            raise self.fail("armour", f"{item.name} is a shield", f'write shield = "{item.name}" instead')
        if coverage != "full":
            try:
                item = item.with_coverage(coverage)
            except ValueError as exc:
                raise self.fail("armour", str(exc), "coverage is full, torso, no_arms or no_legs") from None
        return item

    def shield(self) -> Armour | None:
        value = self.data.get("shield")
        if value is None or value == "":
            return None
        try:
            item = equipment.armour(str(value))
        except UnknownEquipment as exc:
            raise self.fail("shield", str(exc), "use Small Shield, Medium Shield or Large Shield") from None
        if not item.is_shield:
            raise self.fail("shield", f"{item.name} is not a shield", f'list it under armour = ["{item.name}"]')
        return item

    def wounds(self, track: WoundTrack) -> Wounds | None:
        """*Fudge* 4.8: the wounds carried from an earlier battle, on the character's own track."""
        value = self.data.get("wounds")
        if value is None:
            return None
        if isinstance(value, list | tuple):
            count = len(value)
        elif isinstance(value, Mapping):
            count = sum(len(v) if isinstance(v, list | tuple) else 1 for v in value.values())
        else:
            count = 1
        problem = check_wound_count(count, sum(s.boxes for s in track.steps))
        if problem is not None:
            raise CharacterError(f"{self.who}, field 'wounds': {problem}")
        try:
            return Wounds.from_roster(value, track)
        except (WoundError, ValueError, TypeError) as exc:
            raise self.fail(
                "wounds",
                str(exc),
                'write the wounds carried as a list such as wounds = ["Hurt", '
                '"Scratch"], or remove the line for an unhurt character',
            ) from None

    def track_within(self, value: Mapping[str, object]) -> None:
        """A track of the roster's own (FTC 7.3): as many levels, boxes and damage as ``data/limits.toml`` allows."""
        for part in ("levels", "damage", "boxes"):
            items = value.get(part)
            if isinstance(items, list | tuple):
                self.within("wound_track", items, "wound_track.levels")
                if part != "levels":
                    for item in items:
                        self.within(f"wound_track {part}", item, f"wound_track.{part}")

    def track(self) -> WoundTrack:
        value = self.data.get("wound_track")
        try:
            if value is None:
                return DEFAULT_TRACK
            if isinstance(value, str):
                return named_track(value)
            if isinstance(value, Mapping):
                self.track_within(value)
                return WoundTrack.from_data(value, name=f"{self.key or 'custom'} track")
        except (WoundError, ValueError, TypeError) as exc:
            raise self.fail("wound_track", str(exc), "see data/damage.toml for the track format") from None
        raise self.fail("wound_track", f"{value!r} is not a track", 'write a track name such as "default"')
