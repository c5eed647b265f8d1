"""Healing between battles (*Fudge* 4.8, read with the wound boxes of *Fudge* 4.57).

Three things heal a figure, all pure functions of a wound record (``game.engine.wounds.Wounds``):

* ``care_after_battle``: Scratches are erased after a battle when the figures have a few minutes to attend
  to them (*Fudge* 4.8).
* ``treat``: a roll on a medical skill (or a healing power). Good heals every wound one level, Great two,
  Superb three; the treated wounds then need time to mend, at a pace the GM chooses (*Fudge* 4.8).
* ``rest``: untreated wounds heal one level per week of rest, optionally only on a successful Constitution
  (FTC: Health) roll against a difficulty set by the wound (*Fudge* 4.8).

How the game reads the text (see also ``data/healing.toml``, which holds every number):

* Healing works on each wound *as received*, not on the box it filled: *Fudge* 4.57 keeps the "H" under
  Incapacitated because "for healing (and scarring) purposes" the figure only ever took Hurt wounds. A
  healed level lowers every wound by one; a wound lowered to a Scratch or below is gone, since "Scratches
  do not count as a level for healing purposes". The wounds left are written on a clean sheet, worst first,
  so each takes its own level's box when it can.
* Resting heals every wound, not only the worst ("wounds heal on their own at one wound level per week").
* A Near Death wound needs ``near_death_periods`` healing periods per level ("should take a long time").
* "Someone Near Death should take a long time to heal, even with magical or high tech healing": a treated
  Near Death wound mends in ``near_death_periods`` times the pace's time per wound, and never in less than
  ``near_death_min_days`` (a week), whatever the pace — a minute per magically healed wound holds for the
  other wounds only (``near_death_minutes``).
* The optional Constitution roll is one roll per period for the figure, compared with each wound's
  difficulty: a wound whose difficulty the roll misses makes no progress that period ("slows the healing").

Every roll draws from a ``random.Random`` passed in by the caller (docs/architecture.md "Randomness is injected"); a
roll can also be given by hand (``faces``), for a GM who rolls physical dice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from game.engine.characters import Character
from game.engine.datafiles import data_path, read_table
from game.engine.dice import DiceRoll, roll_4df
from game.engine.ladder import level_name, parse_level
from game.engine.wounds import WoundLevel, Wounds

DATA_FILE = data_path("healing.toml")

MINUTES_PER_DAY = 24 * 60


class HealingError(ValueError):
    """A healing request that cannot be carried out; the message says what is wrong and how to fix it."""


@cache
def healing_data() -> Mapping[str, Any]:
    """The parsed ``data/healing.toml`` (*Fudge* 4.8 numbers), read once."""
    return read_table("healing.toml")


def paces() -> tuple[str, ...]:
    """The treatment paces of ``data/healing.toml`` (*Fudge* 4.8: "up to the GM"): magical, epic, realistic."""
    return tuple(healing_data()["treatment"]["pace"])


def default_pace() -> str:
    """The pace a treatment takes when none is named (``data/healing.toml``)."""
    return str(healing_data()["treatment"]["default_pace"])


def minutes_per_treated_wound(pace: str) -> int:
    """How long one treated wound takes to mend at a pace (*Fudge* 4.8: a day each is epic, a minute magical)."""
    table = healing_data()["treatment"]["pace"]
    if pace not in table:
        raise HealingError(
            f"there is no healing pace {pace!r}; use one of {', '.join(table)} (or add it to {DATA_FILE.name})"
        )
    return int(table[pace]["minutes_per_wound"])


def near_death_minutes(pace: str) -> int:
    """How long a treated Near Death wound takes to mend at a pace (*Fudge* 4.8: "Someone Near Death should
    take a long time to heal, even with magical or high tech healing"): ``near_death_periods`` times the pace's
    time per wound, and at least ``near_death_min_days`` days at every pace (``data/healing.toml``)."""
    data = healing_data()
    periods = int(data["natural"]["near_death_periods"])
    floor = int(data["treatment"]["near_death_min_days"]) * MINUTES_PER_DAY
    return max(periods * minutes_per_treated_wound(pace), floor)


def treatment_levels(result: int) -> int:
    """How many levels a healing-skill result heals (*Fudge* 4.8): Good 1, Great 2, Superb (or better) 3, else 0."""
    best = 0
    for row in healing_data()["treatment"]["levels"]:
        if result >= parse_level(str(row["at_least"])):
            best = max(best, int(row["levels"]))
    return best


def constitution_difficulty(level: WoundLevel) -> int:
    """The Constitution (Health) difficulty for a wound to heal a level on its own (*Fudge* 4.8 option):
    Fair for Hurt, Good for Very Hurt, Great for Incapacitated (Near Death: this game's Superb)."""
    table = healing_data()["natural"]["constitution"]
    name = str(level)
    if name not in table:
        raise HealingError(
            f"{DATA_FILE.name} gives no Constitution difficulty for {name}; add it under [natural.constitution]"
        )
    return parse_level(str(table[name]))


def healing_skill(character: Character) -> tuple[str, int]:
    """The medical skill a character heals with (*Fudge* 4.8): the best trained skill of the data's list,
    or the first of the list at the untrained default when the character has none of them."""
    names = [str(n) for n in healing_data()["treatment"]["skills"]]
    trained = [(character.skill_level(n), n) for n in names if character.has_skill(n)]
    if trained:
        level, name = max(trained, key=lambda t: t[0])
        return name, level
    return names[0], character.skill_level(names[0])


# ------------------------------------------------------------------------------------------ the sheet


def _rewrite(template: Wounds, received: Sequence[WoundLevel]) -> Wounds:
    """A clean sheet on the same track holding ``received``, worst first (module doc)."""
    sheet = template.healed()
    for level in sorted(received, reverse=True):
        sheet, _ = sheet.record(level)
    return sheet


def lowered(level: WoundLevel, levels: int) -> WoundLevel | None:
    """A wound after healing ``levels`` levels (*Fudge* 4.8); None when it is healed (Scratch or below)."""
    new = int(level) - levels
    return WoundLevel(new) if new >= WoundLevel.HURT else None


def heal_levels(wounds: Wounds, levels: int) -> Wounds:
    """Every wound lowered ``levels`` levels (*Fudge* 4.8, 4.57); wounds that reach a Scratch are gone.

    With ``levels == 0`` the record is returned unchanged (a failed treatment heals nothing).
    """
    if levels < 0:
        raise HealingError(f"cannot heal {levels} levels; give 0 or more")
    if levels == 0:
        return wounds
    kept = [new for w in wounds.received() if (new := lowered(w, levels)) is not None]
    return _rewrite(wounds, kept)


def care_after_battle(wounds: Wounds, minutes: int | None = None) -> Wounds:
    """Scratches are erased after a battle given a few minutes' care (*Fudge* 4.8).

    Every wound received as a Scratch goes, including a fourth Scratch that rolled into the Hurt box
    (*Fudge* 4.57: for healing it is still a Scratch). ``minutes`` is the time the figures have (default: the
    data's ``care_minutes``); with less than that nothing changes.
    """
    needed = int(healing_data()["scratches"]["care_minutes"])
    if minutes is not None and minutes < needed:
        return wounds
    kept = [w for w in wounds.received() if w > WoundLevel.SCRATCH]
    if len(kept) == sum(1 for _ in wounds.received()):
        return wounds
    return _rewrite(wounds, kept)


def _faces_text(faces: Sequence[int]) -> str:
    return "[" + " ".join({-1: "-", 0: "0", 1: "+"}[f] for f in faces) + "]"


def _check_faces(faces: Sequence[int]) -> DiceRoll:
    if len(faces) != 4 or any(f not in (-1, 0, 1) for f in faces):
        raise HealingError(f"a roll by hand needs four Fudge dice, each -1, 0 or +1; got {list(faces)}")
    return DiceRoll(tuple(int(f) for f in faces))


def _describe(wounds: Wounds) -> str:
    received = [str(w) for w in wounds.received()]
    return f"{wounds.label} ({', '.join(received)})" if received else "Unhurt"


# ------------------------------------------------------------------------------------------ treatment


@dataclass(frozen=True)
class Treatment:
    """The outcome of one treatment (*Fudge* 4.8): the roll, the levels healed and the time to mend.

    ``after`` is the record once the treated wounds have mended; the GM applies it after ``minutes`` of
    rest (``days`` for display). ``faces`` is empty when no roll was needed (only Scratches).
    """

    before: Wounds
    after: Wounds
    skill: int
    faces: tuple[int, ...]
    result: int | None
    levels: int
    treated: int
    pace: str
    minutes: int
    explanation: tuple[str, ...]

    @property
    def days(self) -> float:
        """The mending time in days."""
        return self.minutes / MINUTES_PER_DAY

    @property
    def succeeded(self) -> bool:
        """Whether the roll healed at least one level (a Good result or better)."""
        return self.levels > 0


def treat(
    rng: random.Random,
    wounds: Wounds,
    skill_level: int,
    *,
    pace: str | None = None,
    faces: Sequence[int] | None = None,
    skill_name: str = "healing skill",
) -> Treatment:
    """Roll a healing skill for one patient (*Fudge* 4.8) and say what it heals and how long it takes.

    Skill + 4dF: Good heals all wounds one level, Great two, Superb three (``treatment_levels``); worse heals
    nothing. Scratches need no roll: a patient with only Scratches has them erased without dice. ``faces``
    sets the roll by hand (a GM with physical dice); otherwise four dice are drawn from ``rng``. The time is
    the pace's minutes per treated wound (every wound above a Scratch that the roll lowered), a Near Death
    wound taking ``near_death_minutes`` instead.
    """
    pace = default_pace() if pace is None else pace
    per_wound = minutes_per_treated_wound(pace)
    serious = [w for w in wounds.received() if w > WoundLevel.SCRATCH]
    if not serious and not healing_data()["treatment"]["scratch_needs_roll"]:
        after = care_after_battle(wounds)
        note = (
            "Only Scratches: no roll needed, they are erased with a few minutes' care."
            if after != wounds
            else "No wounds to treat."
        )
        return Treatment(wounds, after, skill_level, (), None, 0, 0, pace, 0, (note,))
    roll = _check_faces(faces) if faces is not None else roll_4df(rng)
    result = skill_level + roll.total
    levels = treatment_levels(result)
    after = heal_levels(wounds, levels)
    treated = len(serious) if levels else 0
    near_death = sum(1 for w in serious if w >= WoundLevel.NEAR_DEATH) if levels else 0
    minutes = (treated - near_death) * per_wound + near_death * near_death_minutes(pace)
    lines = [f"{skill_name} {level_name(skill_level)} {_faces_text(roll.faces)} = {level_name(result)}"]
    if levels:
        lines.append(f"heals every wound {levels} level(s): {_describe(wounds)} → {_describe(after)}")
        lines.append(f"{treated} treated wound(s) mend in {_duration(minutes)} of rest at the {pace} pace")
        if near_death:
            lines.append(
                f"the Near Death wound alone takes {_duration(near_death_minutes(pace))}: "
                "Near Death heals slowly even with magic (Fudge 4.8)"
            )
    else:
        lines.append("below Good: the treatment heals nothing")
    return Treatment(wounds, after, skill_level, roll.faces, result, levels, treated, pace, minutes, tuple(lines))


def _duration(minutes: int) -> str:
    if minutes < 60:
        return f"{minutes} minute(s)"
    if minutes < MINUTES_PER_DAY:
        return f"{minutes / 60:g} hour(s)"
    return f"{minutes / MINUTES_PER_DAY:g} day(s)"


# ------------------------------------------------------------------------------------------ rest


@dataclass(frozen=True)
class ConstitutionRoll:
    """One period's Constitution (Health) roll of the *Fudge* 4.8 option."""

    period: int
    faces: tuple[int, ...]
    result: int


@dataclass(frozen=True)
class Recovery:
    """The outcome of ``rest`` (*Fudge* 4.8): the record after the rest, the periods it covered, the rolls."""

    before: Wounds
    after: Wounds
    days: int
    periods: int
    leftover_days: int
    rolls: tuple[ConstitutionRoll, ...]
    explanation: tuple[str, ...]


def days_per_level() -> int:
    """Days of rest to heal one wound level on its own (*Fudge* 4.8: a week)."""
    return int(healing_data()["natural"]["days_per_level"])


def _periods_needed(level: WoundLevel) -> int:
    if level >= WoundLevel.NEAR_DEATH:
        return int(healing_data()["natural"]["near_death_periods"])
    return 1


def rest(
    wounds: Wounds,
    days: int,
    *,
    period_days: int | None = None,
    rng: random.Random | None = None,
    health: int | None = None,
    rolls: Sequence[Sequence[int]] = (),
) -> Recovery:
    """Wounds healing on their own over ``days`` of rest (*Fudge* 4.8).

    Scratches go at once (they need only minutes). Each full period of ``period_days`` (default: a week,
    longer for a more realistic GM) lowers every wound one level; a Near Death wound needs
    ``near_death_periods`` periods per level. With ``health`` given, the GM's Constitution option applies:
    each period the figure rolls Health + 4dF (from ``rng``, or the next of ``rolls`` given by hand) and only
    wounds whose difficulty (Fair Hurt, Good Very Hurt, Great Incapacitated) it reaches make progress.
    Progress toward a level is kept only within one call: rest the whole stretch in one call.
    """
    if days < 0:
        raise HealingError(f"cannot rest {days} days; give 0 or more")
    period = days_per_level() if period_days is None else period_days
    if period < 1:
        raise HealingError(f"a healing period must be at least one day, not {period}")
    if health is not None and rng is None and not rolls:
        raise HealingError("the Constitution option needs dice: pass rng= or the rolls by hand (rolls=)")
    lines: list[str] = []
    current = care_after_battle(wounds, days * MINUTES_PER_DAY) if days > 0 else wounds
    if current != wounds:
        lines.append("Scratches erased")
    state = [[w, 0] for w in current.received()]
    periods = days // period
    made: list[ConstitutionRoll] = []
    word = "Week" if period == 7 else "Period"
    for p in range(1, periods + 1):
        result: int | None = None
        if health is not None:
            if len(made) < len(rolls):
                roll = _check_faces(rolls[len(made)])
            else:
                assert rng is not None
                roll = roll_4df(rng)
            result = health + roll.total
            made.append(ConstitutionRoll(p, roll.faces, result))
        changes: list[str] = []
        for entry in state:
            level = WoundLevel(entry[0])
            if result is not None and result < constitution_difficulty(level):
                changes.append(f"{level} does not heal (needs {level_name(constitution_difficulty(level))})")
                continue
            entry[1] += 1
            if entry[1] >= _periods_needed(level):
                entry[1] = 0
                new = lowered(level, 1)
                changes.append(f"{level} → {new if new is not None else 'healed'}")
                entry[0] = new if new is not None else 0
            else:
                changes.append(f"{level} mends slowly")
        state = [e for e in state if e[0]]
        head = f"{word} {p}"
        if made and result is not None:
            head += f": Health {_faces_text(made[-1].faces)} = {level_name(result)}"
        lines.append(head + (": " + "; ".join(changes) if changes else ": nothing left to heal"))
    after = _rewrite(current, [WoundLevel(e[0]) for e in state]) if periods else current
    return Recovery(wounds, after, days, periods, days - periods * period, tuple(made), tuple(lines))
