"""Magic in combat (FTC 8.1 casting time and duration, 8.2 recognising spells, 8.3 ranged spells).

Spells are data (``data/spells.toml``, which a GM may extend; read by ``game.engine.spellbook``); this
module holds the pure rules the battle calls: when a spell resolves, its range in hexes, the modifiers of its
casting roll, concentration and its Willpower rolls, recognition, touch attacks, durations, and what an
effect does to a figure's numbers.
Nothing here keeps battle state; the battle owns the rounds, the rolls and the figures.

How this game reads the points FTC 8 leaves open (each repeated where it is implemented):

* *The casting roll* is the caster's one 4dF roll of the round (FTC 6.3) added to the spell's skill, plus
  table 7's firing modifiers as FTC 8.1 says; it succeeds when it reaches the spell's difficulty. For a bolt
  the same result is the attack: it needs the spell's difficulty and must beat the target's dodge, if the
  target dodges the caster as it would a missile firer; the dodge gets table 8's bonus for the spell's
  difficulty (FTC 8.3 gives named ranges, not table 5, so there is no range difficulty).
* *Damage* of a bolt: relative degree + the spell's damage factor - the target's Mass Scale, Tough Hide,
  Damage Capacity and (unless the spell says ``armour = false``) armour (FTC 7). No Strength: a spell is
  not muscle-powered.
* *Resisted spells* (``resist = "Will"``): the caster's result must beat the target's attribute + his roll.
* *Touch* (FTC 8.3): a standard attack with Agility or the best hand-to-hand skill, made with the hand (a
  front hex, whatever weapon is held), doing no damage of its own; the spell is cast whether or not the
  touch lands and takes effect only if it does. A touch damage spell then does the damage of a bolt that
  is not dodged: the casting's relative degree against the difficulty + the spell's factor, on the torso
  (the touch's own degree and a head blow do not count: "no damage beyond what the spell would do").
* *Defensive spells* protect against attacks of the round they are cast in only when cast in 1 second
  (resolved at declaration, FTC 8.1's "instant defense spells"); a spell resolved with the attacks does not.
* *Durations* are counted in the rounds whose attacks the effect can count in, full length: an effect cast
  in 1 second (resolved at declaration, before the round's attacks) counts from its own round, so a
  5-round Ward cast in round 3 lasts rounds 3..7; an effect that takes hold with the attacks of round N
  (1-round and longer castings) cannot count in those simultaneous attacks, so it lasts rounds N+1..N+d
  (a 2-round Paralysing Touch cast in round 3 holds its target in rounds 4 and 5).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal, Unpack

from game.engine import equipment
from game.engine.characters import BRAWLING, MARTIAL_ARTS, Character
from game.engine.combat import FiringTerms, Modifier, MovedFraction, firing_modifiers
from game.engine.damage import Factor, defensive_factors
from game.engine.dice import DiceRoll, roll_4df
from game.engine.equipment import Weapon
from game.engine.hexgrid import Hex, within
from game.engine.ranges import defense_bonus
from game.engine.spellbook import (
    APPLIES_TO,
    DATA_FILE,
    EFFECTS,
    RANGES,
    RESIST,
    TARGETS,
    MagicError,
    Spell,
    catalogue,
    load_catalogue,
    spell,
    spells,
    time_rounds,
)
from game.engine.wounds import WoundLevel, Wounds

__all__ = [  # the catalogue's names (game.engine.spellbook) stay importable from here
    "APPLIES_TO",
    "DATA_FILE",
    "EFFECTS",
    "RANGES",
    "RESIST",
    "TARGETS",
    "ActiveEffect",
    "Channel",
    "Concentration",
    "ConcentrationEvent",
    "MagicError",
    "Resolution",
    "Spell",
    "active_in_round",
    "area_hexes",
    "cannot_act",
    "cast_succeeds",
    "casting_modifiers",
    "casting_result",
    "casting_rounds",
    "concentration_difficulty",
    "concentration_holds",
    "concentration_roll",
    "duration_rounds",
    "effect_modifiers",
    "effect_rounds",
    "heal_wounds",
    "in_spell_range",
    "is_instant",
    "load_catalogue",
    "overcomes_resistance",
    "protects_this_round",
    "recognise",
    "recognition_difficulty",
    "resist_level",
    "resolves_when",
    "spell",
    "spell_defensive_factors",
    "spell_dodge_bonus",
    "spell_offensive_factors",
    "spell_range_hexes",
    "spell_weapon",
    "spells",
    "touch_attack_skill",
    "touch_weapon",
]

Resolution = Literal["declaration", "attack", "last_round"]
ConcentrationEvent = Literal["dodge", "damaged"]


# ---------------------------------------------------------------------------------------------------
# FTC 8.1: casting time, resolution, modifiers
# ---------------------------------------------------------------------------------------------------


def casting_rounds(item: Spell) -> int:
    """Rounds of the battle a casting occupies, counting the round it is declared in (FTC 8.1).

    "1 second" and "1 round" take the round they are declared in (1); "5 rounds" takes five, the effect
    coming in the fifth; minutes count ``rounds_per_minute`` rounds each.
    """
    rounds = time_rounds(
        item.casting_time,
        rounds_per_minute=catalogue().rounds_per_minute,
        where=f"spell {item.name!r}, casting_time",
        allow_second=True,
    )
    return max(1, rounds)


def is_instant(item: Spell) -> bool:
    """Whether the spell is cast in 1 second (FTC 8.1): resolved when declared, before the other attacks."""
    return (
        time_rounds(
            item.casting_time,
            rounds_per_minute=catalogue().rounds_per_minute,
            where=f"spell {item.name!r}, casting_time",
            allow_second=True,
        )
        == 0
    )


def resolves_when(item: Spell) -> Resolution:
    """When a spell takes effect in the round (FTC 8.1).

    "declaration": 1 second, resolved as soon as it is declared and taken into account for every attack;
    "attack": 1 round, resolved simultaneously with the attacks of the attack phase;
    "last_round": longer, the caster concentrates and the spell takes effect in the attack phase of the
    last round of its casting time.
    """
    if is_instant(item):
        return "declaration"
    return "attack" if casting_rounds(item) == 1 else "last_round"


def duration_rounds(item: Spell) -> int:
    """How many rounds an effect counts in (FTC 8.1 time chart; ``effect_rounds`` says which); 0 = instant."""
    return time_rounds(
        item.duration,
        rounds_per_minute=catalogue().rounds_per_minute,
        where=f"spell {item.name!r}, duration",
        allow_second=False,
    )


def casting_modifiers(
    item: Spell,
    *,
    moved_fraction: MovedFraction = "none",
    **terms: Unpack[FiringTerms],
) -> tuple[Modifier, ...]:
    """The modifiers of the casting roll, from table 7 (FTC 8.1, 6.5.1), each named: ``firing_modifiers`` of
    ``terms`` and the movement as the casting time counts it.

    A 1-round spell takes table 7 as a shot would, including the penalty for having moved in the movement
    phase; a 1-second spell has no penalty for movement; a longer spell needs the caster to stay still, so
    a caster who moved has lost it (``MagicError``). Pass the geometric terms (elevation, partial cover)
    only where a line of fire applies (not for self or touch spells). No brace or scope for spells.
    """
    when = resolves_when(item)
    if when == "last_round" and moved_fraction != "none":
        raise MagicError(
            f"{item.name} takes {item.casting_time}: the caster must stay still while "
            "concentrating (FTC 8.1); a caster who moves breaks the spell"
        )
    moved: MovedFraction = "none" if when == "declaration" else moved_fraction
    return firing_modifiers(moved_fraction=moved, **terms)


def casting_result(skill: int, roll: DiceRoll | int, modifiers: Iterable[Modifier] = ()) -> int:
    """The result of a casting (FTC 6.3, 8.1): the spell's skill + the caster's roll + the modifiers."""
    total = roll.total if isinstance(roll, DiceRoll) else roll
    return skill + total + sum(m.value for m in modifiers)


def cast_succeeds(item: Spell, result: int) -> bool:
    """Whether a casting result reaches the spell's difficulty (FTC 8, *Fudge* unopposed action)."""
    return result >= item.difficulty


def protects_this_round(cast_round: int, attack_round: int, casting_time: str) -> bool:
    """Whether a defensive spell counts against the attacks of ``attack_round`` (FTC 8.1).

    A defensive spell cast in an earlier round protects. One taking effect in the same round protects only
    if it was cast in 1 second (resolved at declaration, before all attacks: "instant defense spells"); a
    spell resolved with the attacks does not, since an offensive spell of the same round affects its
    target "without regard to the defensive spell". ``cast_round`` is the round the effect began.
    """
    if attack_round < cast_round:
        return False
    if attack_round > cast_round:
        return True
    rounds = time_rounds(
        casting_time, rounds_per_minute=catalogue().rounds_per_minute, where="casting_time", allow_second=True
    )
    return rounds == 0


def effect_rounds(item: Spell, effect_round: int) -> range:
    """The rounds whose attacks an effect that took hold in ``effect_round`` counts in (FTC 8.1 duration).

    Our reading: an effect lasts its whole duration in rounds it can count in. One cast in 1 second is
    resolved at declaration, before the round's attacks, so it counts from its own round (a 1-round Dazzle
    cast in round 3: round 3). One that takes hold with the attacks of ``effect_round`` (1-round and longer
    castings) cannot count in those simultaneous attacks, so its duration begins with the next round (a
    2-round Paralysing Touch cast in round 3: rounds 4 and 5). An "instant" effect counts one round.
    """
    first = effect_round if is_instant(item) else effect_round + 1
    return range(first, first + max(1, duration_rounds(item)))


def active_in_round(item: Spell, effect_round: int, round_no: int) -> bool:
    """Whether an effect that took hold in ``effect_round`` is still held in ``round_no`` (FTC 8.1 duration):
    from that round to the last round it counts in (``effect_rounds``)."""
    return effect_round <= round_no < effect_rounds(item, effect_round).stop


# ---------------------------------------------------------------------------------------------------
# FTC 8.1: concentration
# ---------------------------------------------------------------------------------------------------


def concentration_difficulty(event: ConcentrationEvent) -> int:
    """The Willpower result that keeps a concentrating caster's spell going (FTC 8.1): Good when forced to
    dodge an attack, Great when he takes damage."""
    table = catalogue().concentration
    if event not in table:
        raise MagicError(f'{event!r} does not break concentration; use "dodge" or "damaged" (FTC 8.1)')
    return table[event]


def concentration_roll(
    rng: random.Random, will: int, event: ConcentrationEvent, modifier: int = 0
) -> tuple[DiceRoll, bool]:
    """Roll Willpower to keep concentrating (FTC 8.1); returns the roll and whether concentration holds."""
    roll = roll_4df(rng)
    return roll, concentration_holds(will, roll, event, modifier)


def concentration_holds(will: int, roll: DiceRoll, event: ConcentrationEvent, modifier: int = 0) -> bool:
    """FTC 8.1: whether a Willpower roll already made keeps the caster concentrating (Good when forced to
    dodge, Great when damaged)."""
    return will + roll.total + modifier >= concentration_difficulty(event)


@dataclass(frozen=True, slots=True)
class Concentration:
    """A spell being cast over several rounds (FTC 8.1): the caster stays still; the spell takes effect in
    the attack phase of the round in which ``rounds_left`` is 1.

    ``target`` is a figure's id, a hex (an area) or None (the caster himself).
    """

    spell: Spell
    caster: str
    rounds_left: int
    target: str | Hex | None = None

    @classmethod
    def begin(cls, item: Spell, caster: str, target: str | Hex | None = None) -> Concentration:
        """The casting as declared in its first round (FTC 8.1: declared in round 1, a 5-round spell takes
        effect in round 5)."""
        return cls(item, caster, casting_rounds(item), target)

    @property
    def takes_effect_this_round(self) -> bool:
        """Whether this is the last round of concentration: the spell resolves in this attack phase."""
        return self.rounds_left <= 1

    def advance(self) -> Concentration:
        """The casting at the start of the next round, one round closer (FTC 8.1)."""
        if self.takes_effect_this_round:
            raise MagicError(f"{self.caster}'s {self.spell.name} has already taken effect; it cannot go on")
        return replace(self, rounds_left=self.rounds_left - 1)

    @property
    def progress(self) -> tuple[int, int]:
        """(rounds done, rounds needed), for the casting bar on the token."""
        needed = casting_rounds(self.spell)
        return needed - self.rounds_left, needed


# ---------------------------------------------------------------------------------------------------
# FTC 8.2: recognising spells
# ---------------------------------------------------------------------------------------------------


def recognition_difficulty(*, sees: bool, hears: bool, obscured: bool) -> int | None:
    """The Thaumatology result needed to recognise a spell cast at the recogniser (FTC 8.2).

    Good when he can both see and hear the caster; Great with only a clear view; Superb when fog or another
    obscuration, or other people, stand in the way (our reading: also when he only hears the caster). None
    when he can neither see nor hear the caster: there is nothing to recognise.
    """
    table = catalogue().recognition
    if not sees and not hears:
        return None
    if obscured or not sees:
        return table["obscured"]
    return table["see_and_hear"] if hears else table["clear_view"]


def recognise(
    rng: random.Random, thaumatology: int, *, sees: bool, hears: bool, obscured: bool
) -> tuple[DiceRoll | None, bool]:
    """A Thaumatology roll while declaring (FTC 8.2, 6.1.2); returns the roll (None: no roll possible) and
    whether the spell is recognised."""
    difficulty = recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
    if difficulty is None:
        return None, False
    roll = roll_4df(rng)
    return roll, thaumatology + roll.total >= difficulty


# ---------------------------------------------------------------------------------------------------
# FTC 8.3: ranges and touch
# ---------------------------------------------------------------------------------------------------


def spell_range_hexes(kind: str) -> int | None:
    """A spell range in hexes (FTC 8.3): self 0, touch 1 (melee reach), close 2, short 10; long is None,
    meaning anywhere in line of sight."""
    key = kind.strip().lower()
    if key not in RANGES:
        raise MagicError(f"{kind!r} is not a spell range; use one of {', '.join(RANGES)}")
    return catalogue().range_hexes.get(key)


def in_spell_range(item: Spell, distance_hexes: int, *, in_sight: bool = True) -> bool:
    """Whether a target at this distance can be reached by the spell (FTC 8.3); a long-range spell reaches
    anything in sight. The battle still checks the front hexes for touch (melee reach) and the line of fire
    for bolts."""
    if distance_hexes < 0:
        raise MagicError(f"a distance of {distance_hexes} hexes makes no sense")
    hexes = spell_range_hexes(item.range)
    if hexes is None:
        return in_sight
    return distance_hexes <= hexes and (in_sight or item.range in ("self", "touch"))


def _melee_skill_names() -> frozenset[str]:
    names = {BRAWLING.lower(), MARTIAL_ARTS.lower()}
    for w in equipment.weapons():
        if not w.ranged:
            names.add(w.skill.lower())
            names.add(w.name.lower())
    return frozenset(names)


def touch_attack_skill(character: Character, round_no: int | None = None) -> int:
    """The skill of a touch attack (FTC 8.3): Agility or any hand-to-hand combat skill, whichever is highest.

    Hand-to-hand skills are those of the catalogue's melee weapons (by skill or weapon name), Brawling and
    Martial Arts. The touch does no damage of its own.
    """
    melee = _melee_skill_names()
    best = character.agility
    for name in character.skills:
        if name.lower() in melee:
            best = max(best, character.skill_level(name, round_no))  # Fudge 4.36: a plus level on even rounds
    return best


def touch_weapon() -> Weapon:
    """What a touch is made with (FTC 8.3): the caster's bare hand (the catalogue's "Fist"), whatever weapon
    he holds. So a touch reaches the caster's front hexes only (a large caster: the front hexes of its
    footprint, as its melee reach; docs/rulings.md "Melee reach"), never a spear's second hex, and the target
    defends against a hand. The touch does no damage of its own."""
    return equipment.weapon("Fist")


# ---------------------------------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------------------------------


def _spell_weapon(item: Spell) -> Weapon:
    # Armour halving (FTC 7.2) asks about the weapon; a spell is neither blunt nor small and piercing.
    return Weapon(item.name, item.skill, item.damage, 0.0, muscle_powered=False, ranged=item.range != "touch")


def spell_weapon(item: Spell) -> Weapon:
    """A damage spell seen as a weapon for the battle's attack code (FTC 7.1, 8.3): the spell's skill, its
    damage factor, not muscle-powered (no Strength), ranged unless it is a touch."""
    return _spell_weapon(item)


_NATURAL = ("Mass Scale", "Tough Hide", "Damage Capacity")


def spell_offensive_factors(item: Spell) -> tuple[Factor, ...]:
    """A damage spell's offensive factors (FTC 7.1): its own damage factor; no Strength (not muscle-powered)."""
    if item.effect != "damage":
        raise MagicError(f"{item.name} does no damage (effect {item.effect!r})")
    return (Factor(item.name, item.damage),)


def spell_defensive_factors(item: Spell, defender: Character, *, location: str = "torso") -> tuple[Factor, ...]:
    """The target's defensive factors against a damage spell (FTC 7.2): Mass Scale, Tough Hide, Damage
    Capacity, and armour unless the spell passes through it (``armour = false``)."""
    factors = defensive_factors(defender, _spell_weapon(item), location=location)
    if item.armour:
        return factors
    return tuple(f for f in factors if f.name.startswith(_NATURAL))


def spell_dodge_bonus(item: Spell) -> int:
    """The bonus of a target dodging a bolt (FTC 6.5.2, table 8, read on the spell's difficulty)."""
    return defense_bonus(item.difficulty)


def resist_level(item: Spell, target: Character) -> int | None:
    """The attribute a target resists the spell with (Will or Health), or None if it cannot be resisted."""
    if not item.resist:
        return None
    return target.will if item.resist == "will" else target.health


def overcomes_resistance(casting: int, resistance: int | None) -> bool:
    """Whether a resisted spell takes effect: the casting result must beat the target's resist result
    (an opposed action, *Fudge* 3); an unresisted spell always does."""
    return resistance is None or casting > resistance


Channel = Literal["offence", "defence", "strength", "speed", "movement"]


def effect_modifiers(item: Spell) -> tuple[tuple[Channel, Modifier], ...]:
    """What an active spell adds to the target's numbers, by channel (FTC 8.1 effects as data).

    "defence" goes to every defence result, "offence" to attack and casting results, "strength" to
    Strength (so to muscle-powered damage, FTC 7.1), "speed" to Speed (initiative), "movement" to the
    allowance in hexes. "all" conditions give both offence and defence. Damage, heal, area and "acts"
    conditions give none here (see ``cannot_act``, ``heal_wounds``, ``area_hexes``).
    """
    out: list[tuple[Channel, Modifier]] = []
    if item.effect == "defence" and item.defence_bonus:
        out.append(("defence", Modifier(item.name, item.defence_bonus)))
    elif item.effect == "movement":
        if item.movement_bonus:
            out.append(("movement", Modifier(item.name, item.movement_bonus)))
        if item.speed_bonus:
            out.append(("speed", Modifier(item.name, item.speed_bonus)))
    elif item.effect == "condition" and item.modifier:
        label = f"{item.condition.capitalize()} ({item.name})"
        if item.applies_to == "all":
            out.extend((("offence", Modifier(label, item.modifier)), ("defence", Modifier(label, item.modifier))))
        elif item.applies_to in ("offence", "defence", "strength", "speed", "movement"):
            channel: Channel = item.applies_to  # type: ignore[assignment]
            out.append((channel, Modifier(label, item.modifier)))
    return tuple(out)


def cannot_act(item: Spell) -> bool:
    """Whether the spell's condition stops its target from acting (e.g. paralysed) while it lasts."""
    return item.effect == "condition" and item.applies_to == "acts"


def area_hexes(item: Spell, center: Hex) -> frozenset[Hex]:
    """The hexes an area spell covers: the target hex and every hex within its radius."""
    if item.effect != "area":
        raise MagicError(f"{item.name} is not an area spell")
    return frozenset(within(center, item.radius))


def heal_wounds(wounds: Wounds, levels: int) -> Wounds:
    """A healing spell lowers the worst wound by ``levels`` (FTC 8 with *Fudge* 4.8 and 4.57's boxes).

    The wound in the highest marked box is taken off the sheet and recorded again that many levels lower,
    as received. Scratches are not a level (*Fudge* 4.8: "a Hurt wound that is healed one level is fully
    healed"): a wound lowered to a Scratch or below is gone, and a Scratch healed is gone. (A Hurt wound
    that rolled up into the Incapacitated box is healed away, so two Hurts and a Very Hurt become Very Hurt
    again.) A Near Death wound takes a long time to heal even with magic (*Fudge* 4.8): a spell cast in
    battle does not lower it and heals the worst wound below it instead (``docs/rulings.md`` "Healing").
    """
    if levels < 1:
        raise MagicError(f"a heal lowers a wound by at least one level, not {levels}")
    marked = [(i, m[-1]) for i, m in enumerate(wounds.marks) if m and m[-1] < WoundLevel.NEAR_DEATH]
    beyond = [i for i, level in enumerate(wounds.beyond) if level < WoundLevel.NEAR_DEATH]
    marks = list(wounds.marks)
    extra = list(wounds.beyond)
    if beyond:
        worst_level = extra.pop(beyond[-1])
    elif marked:
        index = marked[-1][0]
        worst_level = marks[index][-1]
        marks[index] = marks[index][:-1]
    else:
        return wounds
    rest = Wounds(wounds.track, tuple(marks), tuple(extra))
    lowered = worst_level - levels
    if lowered <= WoundLevel.SCRATCH:
        return rest
    healed, _ = rest.record(WoundLevel(lowered))
    return healed


@dataclass(frozen=True, slots=True)
class ActiveEffect:
    """A lasting spell held by the battle (FTC 8.1): on a figure (``target``) or an area around ``hex``,
    taken hold in ``start_round``, counting for the spell's duration (``effect_rounds``)."""

    spell: Spell
    caster: str
    target: str | None
    hex: Hex | None
    start_round: int

    @property
    def first_round(self) -> int:
        """The first round the effect counts in (FTC 8.1; ``effect_rounds``)."""
        return effect_rounds(self.spell, self.start_round).start

    @property
    def last_round(self) -> int:
        """The last round the effect counts in (FTC 8.1 duration; ``effect_rounds``)."""
        return effect_rounds(self.spell, self.start_round).stop - 1

    def active(self, round_no: int) -> bool:
        """Whether the battle still holds the effect in ``round_no`` (``active_in_round``)."""
        return active_in_round(self.spell, self.start_round, round_no)

    def counts_in(self, round_no: int) -> bool:
        """Whether the effect's numbers count for the attacks of ``round_no`` (FTC 8.1): an effect that took
        hold with this round's attacks does not count until the next round; one cast in 1 second does."""
        return round_no in effect_rounds(self.spell, self.start_round)

    def rounds_left(self, round_no: int) -> int:
        """Rounds the effect still counts in from ``round_no`` on, ``round_no`` included (for the screen)."""
        return max(0, self.last_round - max(round_no, self.first_round) + 1)

    def hexes(self) -> frozenset[Hex]:
        """The hexes an area effect covers (none for an effect on a figure)."""
        if self.hex is None or self.spell.effect != "area":
            return frozenset()
        return area_hexes(self.spell, self.hex)
