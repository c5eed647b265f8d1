"""Attack resolution of *Fudge Tactical Combat* (FTC 6.1–6.6; *Fudge* 4.32 for the stances).

Everything here works on plain numbers (ladder levels, modifiers), hexes and facings, so the battle, the
AI, the UI's preview and the tests can all call it without building characters. The numbers of the
rules' tables (4, 7, 9 and the modifiers of 6.4.1) live in ``data/combat.toml``.

Readings this module makes where the text leaves a choice (each repeated where it is implemented):

* *Penalties* (Very Hurt, parrying a larger weapon, unwieldy weapon, footing, light) may be passed as a
  size (``1``) or as a signed modifier (``-1``): a penalty always subtracts.
* *Behind at reach 2* (spear or pike): the attacker is behind when his hex lies in the 120° sector
  opposite the target's front, edges included; directly behind when it lies on the sector's centre line.
* *Hit location of an undodged shot*: a target that rolls no defence counts as "Fair or worse".
* *Accidental hits* (6.5.3): the stray shot lands with relative degree 0; a victim who declared a
  dodge against that firer escapes it if his dodge result + 3 reaches the firer's result.
* *Scatter* (6.5.3): the miss distance is 20 % of the range for each step of relative degree below -1,
  at least one hex — the reading that gives the book's example (10 m, -2 → 2 hexes).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypedDict, TypeVar

from game.engine.codec import is_whole
from game.engine.datafiles import data_path, read_table
from game.engine.dice import DiceRoll, choose, roll_d6, situational_roll
from game.engine.hexgrid import DIRECTIONS, Hex, directly_behind, distance, neighbor, rear_hexes
from game.engine.ladder import level_name

T = TypeVar("T")

DATA_FILE = data_path("combat.toml")


class CombatError(ValueError):
    """A combat request that the rules do not allow, with a sentence saying what to change."""


class CombatDataError(ValueError):
    """``data/combat.toml`` is missing or malformed; the message names the key and the fix."""


_DATA: Mapping[str, Any] = read_table("combat.toml")


def _section(name: str) -> dict[str, Any]:
    section = _DATA.get(name)
    if not isinstance(section, dict):
        raise CombatDataError(f"{DATA_FILE} has no [{name}] table; add it (see the comments in the file)")
    return section


def _int(section: str, key: str) -> int:
    value = _section(section).get(key)
    if not is_whole(value):
        raise CombatDataError(f"{DATA_FILE}: [{section}] {key} must be a whole number, not {value!r}")
    return value


# ---------------------------------------------------------------------------------------------------
# Modifiers
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """One named term added to a combat result (FTC 6.4.1, table 7), shown in the UI and the log."""

    name: str
    value: int

    def __str__(self) -> str:
        return f"{self.name} {self.value:+d}"


def very_hurt_modifier(is_very_hurt: bool) -> int:
    """The -1 a Very Hurt figure takes to offence, defence and firing (FTC 6.4.1, table 7).

    Hurt gives none (FTC 6.4.1); a Very Hurt wound taken this round counts from the next round (FTC 6.4).
    """
    return _int("offence", "very_hurt") if is_very_hurt else 0


def total(modifiers: Iterable[Modifier]) -> int:
    """The sum of a list of modifiers (FTC 6.3: every modifier adds to the one rolled result)."""
    return sum(m.value for m in modifiers)


def _terms(*pairs: tuple[str, int]) -> tuple[Modifier, ...]:
    # Zero terms are left out so that the UI lists only what actually changed the result.
    return tuple(Modifier(name, value) for name, value in pairs if value != 0)


def _penalty(value: int) -> int:
    # Callers hold penalties either as a size or as a signed modifier; a penalty always subtracts.
    return -abs(value)


# ---------------------------------------------------------------------------------------------------
# Stances (table 4)
# ---------------------------------------------------------------------------------------------------

Retreat = Literal["none", "may", "must"]


@dataclass(frozen=True, slots=True)
class StanceSpec:
    """One row of table 4 as read from the data file (FTC 6.1.1, 6.2)."""

    name: str
    attack_bonus: int
    defence_bonus: int
    max_advance: int
    retreat: Retreat
    effect: str


def _load_stances() -> dict[str, StanceSpec]:
    rows = _DATA.get("stance")
    if not isinstance(rows, list):
        raise CombatDataError(f"{DATA_FILE} has no [[stance]] rows (table 4); add the five stances")
    specs: dict[str, StanceSpec] = {}
    for row in rows:
        try:
            retreat = row["retreat"]
            if retreat not in ("none", "may", "must"):
                raise CombatDataError(
                    f'{DATA_FILE}: stance {row.get("key")!r} has retreat {retreat!r}; use "none", "may" or "must"'
                )
            specs[str(row["key"])] = StanceSpec(
                str(row["name"]),
                int(row["attack_bonus"]),
                int(row["defence_bonus"]),
                int(row["max_advance"]),
                retreat,
                str(row["effect"]),
            )
        except KeyError as exc:
            raise CombatDataError(
                f"{DATA_FILE}: a [[stance]] row lacks {exc}; every row needs key, name, "
                "attack_bonus, defence_bonus, max_advance, retreat and effect"
            ) from exc
    return specs


_STANCES = _load_stances()


class Stance(enum.Enum):
    """The five combat stances of table 4 (FTC 6.1.1, *Fudge* 4.32), most aggressive first.

    Each member reads its numbers from ``data/combat.toml``: ``attack_bonus``, ``defence_bonus``,
    ``max_advance`` (hexes an aggressive stance may trade its bonus for, FTC 6.2), ``retreat``
    (``"none"``, ``"may"`` or ``"must"``, FTC 6.2), ``display_name`` and ``effect`` (one line for the UI).
    """

    VERY_AGGRESSIVE = "very_aggressive"
    MILDLY_AGGRESSIVE = "mildly_aggressive"
    NEUTRAL = "neutral"
    MILDLY_DEFENSIVE = "mildly_defensive"
    VERY_DEFENSIVE = "very_defensive"

    def __init__(self, key: str) -> None:
        try:
            row = _STANCES[key]
        except KeyError:
            raise CombatDataError(f"{DATA_FILE} has no [[stance]] row with key = {key!r} (table 4); add it") from None
        self.spec: StanceSpec = row
        """This stance's row of table 4."""
        self.attack_bonus: int = row.attack_bonus
        """Table 4: the modifier to the attack result."""
        self.defence_bonus: int = row.defence_bonus
        """Table 4: the modifier to the defence result."""
        self.max_advance: int = row.max_advance
        """FTC 6.2: hexes of advance the stance's attack bonus may be traded for."""
        self.retreat: Retreat = row.retreat
        """FTC 6.2: whether the figure may, must or may not retreat one hex."""
        self.display_name: str = row.name
        """The stance's name as the UI shows it."""
        self.effect: str = row.effect
        """One line describing the stance's effect, for the UI."""

    def __str__(self) -> str:
        return self.display_name


# ---------------------------------------------------------------------------------------------------
# Offence, defence and firing modifiers (FTC 6.4.1, table 7)
# ---------------------------------------------------------------------------------------------------


def offence_modifiers(
    *,
    stance: Stance,
    advance_hexes_used: int = 0,
    behind: int = 0,
    very_hurt_penalty: int = 0,
    missile_dodges: int = 0,
    situational: int = 0,
) -> tuple[Modifier, ...]:
    """The modifiers to a figure's attack result, each named (FTC 6.1, 6.2, 6.4.1; table 4).

    ``advance_hexes_used``: hexes the figure advanced in an aggressive stance; each costs one point of
    the stance's attack bonus (FTC 6.2). ``behind`` is :func:`behind_bonus`'s value.
    ``very_hurt_penalty``: the attacker's Very Hurt penalty (a size or a signed value; FTC 6.4.1).
    ``missile_dodges``: how many missile firers the figure declared it dodges, -1 each (FTC 6.1).
    ``situational``: any further GM modifier. Zero terms are omitted.
    """
    if advance_hexes_used < 0 or advance_hexes_used > stance.max_advance:
        raise CombatError(
            f"a {stance.display_name.lower()} stance allows at most {stance.max_advance} "
            f"hex(es) of advance, not {advance_hexes_used}; advance less or choose a more "
            "aggressive stance"
        )
    if missile_dodges < 0:
        raise CombatError(f"the number of missile firers dodged cannot be negative ({missile_dodges})")
    if behind < 0:
        raise CombatError(f"the bonus for attacking from behind cannot be negative ({behind})")
    stance_name = f"{stance.display_name} stance"
    if advance_hexes_used:
        stance_name += f" ({advance_hexes_used} hex{'es' if advance_hexes_used > 1 else ''} advanced)"
    return _terms(
        (stance_name, stance.attack_bonus - advance_hexes_used),
        ("Attacking from behind", behind),
        ("Very Hurt", _penalty(very_hurt_penalty)),
        (
            f"Dodging {missile_dodges} missile firer{'s' if missile_dodges != 1 else ''}",
            missile_dodges * _int("offence", "per_missile_dodged"),
        ),
        ("Situation", situational),
    )


def defence_modifiers(
    *,
    stance: Stance,
    shield: int = 0,
    parry_penalty: int = 0,
    unwieldy: int = 0,
    parry_bonus: int = 0,
    very_hurt_penalty: int = 0,
    free_attack_run: bool = False,
) -> tuple[Modifier, ...]:
    """The modifiers to a figure's defence result, each named (FTC 6.4.1, 5.3; table 4).

    ``shield``: the shield's bonus where it applies (FTC 6.4.1, table 9.2). ``parry_penalty``: parrying
    a larger weapon, -1 to -2. ``unwieldy``: the defender's weapon's defence penalty, -1 to -2.
    ``parry_bonus``: a weapon's defence bonus (e.g. a rapier against light weapons, FTC 9.1).
    ``very_hurt_penalty``: the defender's Very Hurt penalty. ``free_attack_run``: the defender turned tail
    and ran from a zone of control and defends at -2 against the free attacks (FTC 5.3).
    Penalties may be given as sizes or signed values. Zero terms are omitted.
    """
    if shield < 0:
        raise CombatError(f"a shield's defence bonus cannot be negative ({shield}); use 0 for no shield")
    if parry_bonus < 0:
        raise CombatError(
            f"a parry bonus cannot be negative ({parry_bonus}); pass penalties as parry_penalty or unwieldy"
        )
    return _terms(
        (f"{stance.display_name} stance", stance.defence_bonus),
        ("Shield", shield),
        ("Parrying a larger weapon", _penalty(parry_penalty)),
        ("Unwieldy weapon", _penalty(unwieldy)),
        ("Weapon's parry bonus", parry_bonus),
        ("Very Hurt", _penalty(very_hurt_penalty)),
        ("Turning tail and running", _int("defence", "turning_tail") if free_attack_run else 0),
    )


MovedFraction = Literal["none", "half", "full"]


class FiringTerms(TypedDict, total=False):
    """The terms of table 7 (FTC 6.5.1) of the firer's situation that a casting takes as a shot does (FTC 8.1;
    ``firing_modifiers`` says what each means): a function that passes them on takes ``**terms``."""

    firer_defending: bool
    elevation_angle_modifier: int
    very_hurt_penalty: int
    footing: int
    light: int
    partial_cover: bool


def elevation_modifier(angle_degrees: float) -> int:
    """Table 7's modifier for firing up or down at ``angle_degrees`` (positive = up, negative = down).

    Firing down more than 20° gives +1, up more than 10° gives -1, up more than 60° gives -2 (FTC 6.5.1).
    """
    rows = _section("firing").get("elevation", [])
    for row in rows:
        limit = float(row["more_than_degrees"])
        if row["direction"] == "down" and -angle_degrees > limit:
            return int(row["modifier"])
        if row["direction"] == "up" and angle_degrees > limit:
            return int(row["modifier"])
    return 0


def firing_modifiers(
    *,
    braced: bool = False,
    scope: bool = False,
    moved_fraction: MovedFraction = "none",
    firer_defending: bool = False,
    elevation_angle_modifier: int = 0,
    very_hurt_penalty: int = 0,
    footing: int = 0,
    light: int = 0,
    partial_cover: bool = False,
) -> tuple[Modifier, ...]:
    """The firer's modifiers from table 7 (FTC 6.5.1), each named; add them to the offence modifiers.

    ``moved_fraction``: how much of his allowance the firer moved in the movement phase ("none", "half"
    = up to half, "full" = more than half). A scope counts only when the firer did not move (table 7:
    "if no movement penalties"). ``elevation_angle_modifier``: :func:`elevation_modifier`'s value.
    ``footing`` and ``light``: -1 to -3 (as sizes or signed). ``partial_cover``: the line of fire only
    touches a blocking hex (docs/rulings.md "Line of fire", -1). Zero terms are omitted.
    """
    if moved_fraction not in ("none", "half", "full"):
        raise CombatError(f'moved_fraction must be "none", "half" or "full", not {moved_fraction!r}')
    worst_footing = _int("firing", "footing_worst")
    worst_light = _int("firing", "light_worst")
    if _penalty(footing) < worst_footing:
        raise CombatError(
            f"insecure footing is at worst {worst_footing} (table 7), not {_penalty(footing)}; "
            "fix the map's footing value"
        )
    if _penalty(light) < worst_light:
        raise CombatError(
            f"bad light is at worst {worst_light} (table 7), not {_penalty(light)}; fix the map's light value"
        )
    moved = {"none": 0, "half": _int("firing", "moved_half"), "full": _int("firing", "moved_full")}
    return _terms(
        ("Braced in a good position", _int("firing", "braced") if braced else 0),
        ("Scope", _int("firing", "scope") if scope and moved_fraction == "none" else 0),
        (
            f"Moved {'up to half' if moved_fraction == 'half' else 'more than half'} of the allowance",
            moved[moved_fraction],
        ),
        ("Defending against attacks", _int("firing", "firer_defending") if firer_defending else 0),
        ("Firing down" if elevation_angle_modifier > 0 else "Firing up", elevation_angle_modifier),
        ("Very Hurt", _penalty(very_hurt_penalty)),
        ("Insecure footing", _penalty(footing)),
        ("Bad light", _penalty(light)),
        ("Partial cover", _int("firing", "partial_cover") if partial_cover else 0),
    )


# ---------------------------------------------------------------------------------------------------
# Attacking from behind (FTC 6.4.1)
# ---------------------------------------------------------------------------------------------------


def _rear_coordinates(offset: Hex, facing: int) -> tuple[int, int]:
    """Write ``offset`` as a·(side facing+2) + b·(side facing+4), the two edges of the rear sector.

    The two edge directions form a basis of the hex lattice with determinant ±1, so a and b are whole
    numbers; the hex is in the rear sector when both are >= 0, and on its centre line when a == b.
    """
    e1 = DIRECTIONS[(facing + 2) % 6]
    e2 = DIRECTIONS[(facing + 4) % 6]
    det = e1.q * e2.r - e2.q * e1.r
    a = (offset.q * e2.r - e2.q * offset.r) // det
    b = (e1.q * offset.r - offset.q * e1.r) // det
    return a, b


def _rear_position(attacker: Hex, target: Hex, target_facing: int) -> Literal["direct", "rear", "front"]:
    if attacker == target:
        raise CombatError(f"the attacker and the target are both in {attacker}; they must be in different hexes")
    if distance(attacker, target) == 1:
        # Adjacent: exactly the rear hexes of hexgrid (docs/rulings.md "Facing").
        if attacker == directly_behind(target, target_facing):
            return "direct"
        return "rear" if attacker in rear_hexes(target, target_facing) else "front"
    a, b = _rear_coordinates(Hex(attacker.q - target.q, attacker.r - target.r), target_facing)
    if a >= 0 and b >= 0:
        return "direct" if a == b else "rear"
    return "front"


def is_behind(attacker: Hex, target: Hex, target_facing: int) -> bool:
    """Whether ``attacker`` lies in the target's rear: an adjacent rear hex, or at any distance the 120°
    sector opposite the target's front, edges included (FTC 6.4.1; our reading for reach 2)."""
    return _rear_position(attacker, target, target_facing) != "front"


def behind_bonus(
    attacker: Hex, target: Hex, target_facing: int, *, attacker_phase_start: Hex, moved_this_attack_phase: bool
) -> int:
    """The bonus for attacking from behind (FTC 6.4.1, docs/rulings.md "Modifiers").

    Directly behind: +2, but +1 if the attacker moved there during this attack phase from a hex that was
    not directly behind. One of the other two rear hexes: +1 if the attacker started the attack phase
    somewhere he would have had at least +1 (anywhere in the target's rear), else 0. In front: 0.

    Reach 2 (spear, pike): "behind" is the 120° sector opposite the target's front, edges included;
    "directly behind" its centre line. Positions are judged against the target's hex and facing as
    given (the position the attack is resolved from, FTC 6.2).
    """
    where = _rear_position(attacker, target, target_facing)
    if where == "front":
        return 0
    moved = moved_this_attack_phase or attacker_phase_start != attacker
    start = "front" if attacker_phase_start == target else _rear_position(attacker_phase_start, target, target_facing)
    if where == "direct":
        if moved and start != "direct":
            return _int("offence", "directly_behind_after_moving")
        return _int("offence", "directly_behind")
    if not moved or start != "front":
        return _int("offence", "other_rear")
    return 0


# ---------------------------------------------------------------------------------------------------
# Hits, relative degree, hit location (FTC 6.4, 6.6)
# ---------------------------------------------------------------------------------------------------


def melee_difficulty(attacker_scale: int, defender_scale: int) -> int:
    """The absolute difficulty of a melee hit: Poor, +1 per step of Scale the attacker is larger (FTC 6.4)."""
    larger = max(0, attacker_scale - defender_scale)
    return _int("melee", "difficulty") + larger * _int("melee", "difficulty_per_scale_step")


def is_hit(offence_result: int, defence_results: Sequence[int], difficulty: int) -> bool:
    """Whether an attack hits (FTC 6.1, 6.4, 6.4.1; docs/rulings.md "A hit").

    The attack result must beat every defence result — the target's and those of every other figure
    attacking the attacker in melee this round — and reach the absolute difficulty. With no defence
    results (a missile the target does not dodge) only the difficulty counts.
    """
    return offence_result >= difficulty and all(offence_result > d for d in defence_results)


def relative_degree(offence_result: int, defence_result: int | None, difficulty: int) -> int:
    """Relative degree = attack result − the higher of the target's defence result and the difficulty
    (FTC 6.4, 7). ``defence_result`` None: the target rolled no defence (an undodged missile)."""
    floor = difficulty if defence_result is None else max(defence_result, difficulty)
    return offence_result - floor


def _strings(key: str) -> tuple[str, ...]:
    value = _section("hit_location").get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CombatDataError(f"{DATA_FILE}: [hit_location] {key} must be a list of location names")
    return tuple(value)


def location_choice_allowed(offence_result: int, defence_result: int | None) -> bool:
    """Whether the attacker may choose where a hit falls: his result Superb or better and the defender's
    Fair or worse (FTC 6.6). No defence roll (an undodged shot) counts as Fair or worse."""
    defender_low = defence_result is None or defence_result <= _int("hit_location", "defender_at_most")
    return defender_low and offence_result >= _int("hit_location", "choose_at")


def hit_locations(offence_result: int, defence_result: int | None) -> tuple[str, ...]:
    """The locations a hit may be placed on (FTC 6.6).

    Always the torso; head, arms and legs when the attack result is Superb or better and the defence
    result Fair or worse; hands and feet too at Superb+1 or better. ``defence_result`` None (a shot the
    target does not dodge, so no defence roll) counts as Fair or worse — our reading.
    """
    locations = _strings("always")
    if location_choice_allowed(offence_result, defence_result):
        locations += _strings("chosen")
        if offence_result >= _int("hit_location", "extremities_at"):
            locations += _strings("extremities")
    return locations


def describe_result(result: int) -> str:
    """A result as the rules name it, e.g. ``"Good (+1)"``, for log lines (FTC 6.3)."""
    return f"{level_name(result)} ({result:+d})"


# ---------------------------------------------------------------------------------------------------
# Misses along the line of fire (FTC 6.5.3, table 9)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MissTable:
    """Table 9 (FTC 6.5.3): for n figures on the line, the situational roll that hits one of them.

    ``rows`` are (count, friend threshold, enemy threshold) by ascending count; the last row applies to
    that many figures or more.
    """

    rows: tuple[tuple[int, int, int], ...]

    def _row(self, count: int) -> tuple[int, int, int] | None:
        if count <= 0:
            return None
        chosen = None
        for row in self.rows:
            if row[0] <= count:
                chosen = row
        return chosen

    def friend_threshold(self, friends: int) -> int | None:
        """A roll at or below this hits a friend of the firer; None when no friend is at risk."""
        row = self._row(friends)
        return None if row is None else row[1]

    def enemy_threshold(self, enemies: int) -> int | None:
        """A roll at or above this hits an enemy of the firer; None when no enemy is at risk."""
        row = self._row(enemies)
        return None if row is None else row[2]


def _load_miss_table() -> MissTable:
    rows = _DATA.get("miss")
    if not isinstance(rows, list) or not rows:
        raise CombatDataError(f"{DATA_FILE} has no [[miss]] rows (table 9); add them")
    parsed = sorted((int(r["count"]), int(r["friend"]), int(r["enemy"])) for r in rows)
    for count, friend, enemy in parsed:
        if friend >= 0 or enemy <= 0:
            # Keeping friends strictly below 0 and enemies strictly above means one roll can never hit both.
            raise CombatDataError(
                f"{DATA_FILE}: [[miss]] count = {count} needs friend < 0 < enemy (got {friend} and {enemy})"
            )
    return MissTable(tuple(parsed))


MISS_TABLE = _load_miss_table()
"""Table 9 as loaded from the data file."""


def miss_thresholds(friends: int, enemies: int) -> tuple[int | None, int | None]:
    """Table 9 (FTC 6.5.3): the (friend, enemy) thresholds of the situational roll after a miss.

    With 1 / 2 / 3+ friends of the firer on the line a roll of -3 / -2 / -1 or less hits one of them;
    with 1 / 2 / 3+ enemies, +3 / +2 / +1 or more. None where nobody of that side is at risk. The two
    ranges never overlap (friends need a negative roll, enemies a positive one), so at most one applies.
    """
    if friends < 0 or enemies < 0:
        raise CombatError(
            f"the numbers of figures on the line of fire cannot be negative ({friends} friends, {enemies} enemies)"
        )
    return MISS_TABLE.friend_threshold(friends), MISS_TABLE.enemy_threshold(enemies)


MissSide = Literal["friend", "enemy", "none"]


def resolve_miss(
    rng: random.Random, friends: Sequence[T], enemies: Sequence[T], *, roll: DiceRoll | None = None
) -> tuple[DiceRoll, T | None, MissSide]:
    """After a missed direct shot, who on the line of fire is hit instead (FTC 6.5.3, table 9).

    ``friends`` and ``enemies`` are the firer's friends and enemies at risk (on the line, within twice the
    target's distance, not the target). One situational 4dF roll; a victim is chosen at random among the
    figures of the side it hits. Returns the roll, the victim (or None) and ``"friend"``, ``"enemy"`` or
    ``"none"``. Then resolve the victim's dodge with :func:`accidental_hit`. ``roll``: the situational
    roll when the GM set it by hand; only the victim is then drawn from ``rng``.
    """
    if roll is None:
        roll = situational_roll(rng)
    friend_at, enemy_at = miss_thresholds(len(friends), len(enemies))
    if friend_at is not None and roll.total <= friend_at:
        return roll, choose(rng, friends), "friend"
    if enemy_at is not None and roll.total >= enemy_at:
        return roll, choose(rng, enemies), "enemy"
    return roll, None, "none"


ACCIDENTAL_DODGE_BONUS: int = _int("accidental_hit", "dodge_bonus")
"""FTC 6.5.3: a victim of a stray shot who declared a dodge against the firer dodges at +3."""


def accidental_hit(firer_offence_result: int, dodge_result: int | None) -> tuple[bool, int]:
    """Whether a stray shot that table 9 sent to a bystander lands, and its relative degree (FTC 6.5.3).

    ``dodge_result``: the victim's dodge result this round (Agility + his roll + his defence modifiers) if
    he declared a dodge against this firer, else None — then the shot lands. A dodging victim adds
    ``ACCIDENTAL_DODGE_BONUS`` (+3, as against a Superb-difficulty shot) and escapes unless the firer's
    result beats it. Our reading: a stray shot that lands does so with relative degree 0 (damage = the
    factors alone), dodged or not, since the firer was not aiming at the victim.
    """
    if dodge_result is None:
        return True, 0
    return firer_offence_result > dodge_result + ACCIDENTAL_DODGE_BONUS, 0


# ---------------------------------------------------------------------------------------------------
# Lobbed area weapons (FTC 6.5.3)
# ---------------------------------------------------------------------------------------------------


def scatter_distance(relative_degree: int, distance_hexes: int) -> int:
    """How many hexes a missed lobbed weapon lands from its target (FTC 6.5.3).

    Relative degree 0 (or -1) misses by one hex; each step below -1 adds 20 % of the range, rounded to
    the nearest hex, never less than one: at 10 m, -2 misses by 2 hexes, -3 by 4 (the book's example).
    """
    if distance_hexes < 0:
        raise CombatError(f"the range to the target cannot be negative ({distance_hexes})")
    minimum = _int("scatter", "min_hexes")
    steps = max(0, -relative_degree - 1)
    far = Fraction(_int("scatter", "percent_of_range_per_step") * distance_hexes * steps, 100)
    return max(minimum, math.floor(far + Fraction(1, 2)))


def scatter(rng: random.Random, target: Hex, relative_degree: int, distance: int) -> Hex:
    """Where a lobbed area weapon (a grenade) that missed lands (FTC 6.5.3).

    A d6 picks the direction (1..6 → hex directions 0..5 of hexgrid) and :func:`scatter_distance` the
    number of hexes along it; a miss by one hex lands in a hex adjacent to the target, which may still
    catch the target in the blast.
    """
    direction = roll_d6(rng) - 1
    hexes = scatter_distance(relative_degree, distance)
    landing = target
    for _ in range(hexes):
        landing = neighbor(landing, direction)
    return landing


def stances() -> tuple[Stance, ...]:
    """The five stances of table 4 in the book's order, most aggressive first (FTC 6.1.1)."""
    return tuple(Stance)


def stance_table() -> Mapping[Stance, StanceSpec]:
    """Table 4 as a mapping, for the in-game rules reference (FTC 6.1.1)."""
    return {s: s.spec for s in Stance}


# ---------------------------------------------------------------------------------------------------
# Weapon and armour notes with an effect in play (FTC 9.1, 9.2)
# ---------------------------------------------------------------------------------------------------


def room_to_swing_modifier(crowded_hexes: int) -> tuple[Modifier, ...]:
    """FTC 9.1 "needs room to swing": the attack penalty when walls or figures crowd the wielder.

    ``crowded_hexes``: how many of the wielder's six adjacent hexes hold a wall or another figure (the
    target not counted). Our reading (data/combat.toml [needs_room]): two or more give -1.
    """
    if crowded_hexes >= _int("needs_room", "crowded_hexes"):
        return (Modifier("no room to swing", _int("needs_room", "penalty")),)
    return ()


def obscured_vision_perception() -> int:
    """FTC 9.2 greathelm "obscures vision": our reading, a Perception modifier for the wearer (-1)."""
    return _int("obscured_vision", "perception")
