"""Wound levels, wound tracks with boxes, the Health roll and grazes (FTC 7.3, 7.4; *Fudge* 4.51, 4.56, 4.57).

A wound track maps a blow's damage number to a wound level and says how many boxes each level has. The
default track (FTC 7.3) is 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death, with
3/1/1/1/1 boxes (*Fudge* 4.57). A creature may carry its own track: any subset of the levels, in order, with
its own thresholds, box counts and labels (e.g. a mook's "Out of the Battle").

Recording (*Fudge* 4.57, docs/rulings.md "Wound track"): a wound marks a box of its level; if that level has no open box
it takes the next higher level with an open box. Each box remembers the wound that filled it (the sheet's "H" under
Incapacitated): two Hurt wounds and a Very Hurt one make a character Incapacitated, but for healing he has
never had an Incapacitating blow. When every box from the wound's level up is full, the wound is kept in
``Wounds.beyond`` and the figure stays at the top level: whether it dies is the GM's call (*Fudge* 4.55).

Penalties (FTC 6.4.1): only Very Hurt gives -1. Pain thresholds (*Fudge* 4.51), as this game reads them:
High Pain Threshold makes every wound hurt like the level below it, so Very Hurt gives no penalty; Low Pain
Threshold makes every wound hurt like the level above it, so Hurt gives -1 and Very Hurt -2 (the values are
in ``data/damage.toml``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from functools import cache
from typing import Any

from game.engine.codec import is_whole
from game.engine.datafiles import data_path, read_table
from game.engine.ladder import parse_level

DATA_FILE = data_path("damage.toml")

PAIN_THRESHOLDS: tuple[str, ...] = ("normal", "high", "low")


class WoundError(ValueError):
    """A wound track or a wound record that cannot be (bad thresholds, unknown level, unknown pain)."""


class WoundLevel(IntEnum):
    """The wound levels of FTC 7.3 / *Fudge* 4.51, least to most severe; ``str()`` gives the rules' name."""

    SCRATCH = 1
    HURT = 2
    VERY_HURT = 3
    INCAPACITATED = 4
    NEAR_DEATH = 5

    def __str__(self) -> str:
        return self.name.replace("_", " ").title()

    @classmethod
    def parse(cls, name: str | int | WoundLevel) -> WoundLevel:
        """Read a level from its rules name ("Very Hurt", "very_hurt", "Incapacitated") or its number."""
        if isinstance(name, WoundLevel):
            return name
        if isinstance(name, int):
            try:
                return cls(name)
            except ValueError:
                raise WoundError(f"{name} is not a wound level (1 Scratch .. 5 Near Death)") from None
        key = name.strip().upper().replace(" ", "_").replace("-", "_")
        if key == "INCAPACITATED" or key.startswith("INCAP"):
            return cls.INCAPACITATED
        try:
            return cls[key]
        except KeyError:
            names = ", ".join(str(level) for level in cls)
            raise WoundError(f"{name!r} is not a wound level; use one of {names}") from None


@cache
def damage_data() -> Mapping[str, Any]:
    """The parsed ``data/damage.toml`` (FTC 6.6, 7.1-7.4 numbers), read once."""
    return read_table("damage.toml")


# ----------------------------------------------------------------------------------------- tracks


@dataclass(frozen=True, slots=True)
class TrackStep:
    """One column of a wound track: its level, the least damage that inflicts it, its boxes, its label."""

    level: WoundLevel
    min_damage: int
    boxes: int
    label: str = ""

    @property
    def name(self) -> str:
        """The name shown on the sheet: the label if set, else the rules' name of the level."""
        return self.label or str(self.level)


@dataclass(frozen=True, slots=True)
class WoundTrack:
    """A wound track (FTC 7.3, *Fudge* 4.55, 4.57): ordered levels with damage thresholds and box counts.

    ``scratch_ceiling`` is *Fudge* 4.57's option that Scratches never raise the level beyond it (usually Very
    Hurt): a Scratch with no open box at or below the ceiling is then not recorded at all.
    ``degree_multiplier`` is *Fudge* 4.55's "double it before adding it to the damage factor": a blow on a
    figure on this track multiplies its relative degree by it (2 for the track made for a doubled degree).
    """

    steps: tuple[TrackStep, ...]
    name: str = "custom"
    scratch_ceiling: WoundLevel | None = None
    degree_multiplier: int = 1
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        """Computed once: a track keys the odds' caches on every roll they count."""
        return self._hash

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.steps, self.name, self.scratch_ceiling, self.degree_multiplier)))
        if not self.steps:
            raise WoundError(f"wound track {self.name!r} has no levels; give at least one")
        for before, after in zip(self.steps, self.steps[1:], strict=False):
            if after.level <= before.level or after.min_damage <= before.min_damage:
                raise WoundError(
                    f"wound track {self.name!r}: {after.name} must be a worse level needing more damage "
                    f"than {before.name} (levels and damage thresholds must both increase)"
                )
        for step in self.steps:
            if step.boxes < 1 or step.min_damage < 1:
                raise WoundError(
                    f"wound track {self.name!r}: {step.name} needs at least 1 box and a damage "
                    f"threshold of at least 1 (got {step.boxes} boxes from {step.min_damage})"
                )

    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, name: str = "custom") -> WoundTrack:
        """Build a track from plain data: ``levels`` (names), ``damage`` (least damage of each level),
        ``boxes`` and optional ``labels``, ``scratch_ceiling`` (*Fudge* 4.57) and ``degree_multiplier``
        (*Fudge* 4.55)."""
        try:
            levels = [WoundLevel.parse(x) for x in data["levels"]]
            damage = [int(x) for x in data["damage"]]
            boxes = [int(x) for x in data["boxes"]]
        except KeyError as missing:
            raise WoundError(
                f"wound track {name!r} needs {missing.args[0]!r} (levels, damage and boxes, one entry per level)"
            ) from None
        labels = [str(x) for x in data.get("labels", [""] * len(levels))]
        if not len(levels) == len(damage) == len(boxes) == len(labels):
            raise WoundError(f"wound track {name!r}: levels, damage, boxes (and labels) must have one entry per level")
        ceiling = data.get("scratch_ceiling")
        multiplier = data.get("degree_multiplier", 1)
        if not is_whole(multiplier) or not 1 <= multiplier <= 3:
            raise WoundError(
                f"wound track {name!r}: degree_multiplier is a whole number from 1 to 3 (Fudge 4.55 doubles: 2), "
                f"not {multiplier!r}"
            )
        return cls(
            tuple(TrackStep(lv, dm, bx, lb) for lv, dm, bx, lb in zip(levels, damage, boxes, labels, strict=True)),
            name=name,
            scratch_ceiling=None if ceiling is None else WoundLevel.parse(ceiling),
            degree_multiplier=multiplier,
        )

    def to_data(self) -> dict[str, Any]:
        """The plain data ``from_data`` reads back."""
        out: dict[str, Any] = {
            "levels": [str(s.level) for s in self.steps],
            "damage": [s.min_damage for s in self.steps],
            "boxes": [s.boxes for s in self.steps],
        }
        if any(s.label for s in self.steps):
            out["labels"] = [s.label for s in self.steps]
        if self.scratch_ceiling is not None:
            out["scratch_ceiling"] = str(self.scratch_ceiling)
        if self.degree_multiplier != 1:
            out["degree_multiplier"] = self.degree_multiplier
        return out

    @property
    def levels(self) -> tuple[WoundLevel, ...]:
        """The levels of this track, least severe first."""
        return tuple(s.level for s in self.steps)

    def step(self, level: WoundLevel) -> TrackStep:
        """The column of a level; ``WoundError`` if the track has no such level."""
        for s in self.steps:
            if s.level == level:
                return s
        raise WoundError(f"wound track {self.name!r} has no {level} level")

    def index_at_or_above(self, level: WoundLevel) -> int | None:
        """Index of the first column of this level or worse (a level a track lacks rounds up)."""
        for index, s in enumerate(self.steps):
            if s.level >= level:
                return index
        return None

    def level_for_damage(self, damage: int) -> WoundLevel | None:
        """The wound a blow of this damage number inflicts (FTC 7.3); None if it is below every threshold."""
        found: WoundLevel | None = None
        for s in self.steps:
            if damage >= s.min_damage:
                found = s.level
        return found


def named_track(name: str) -> WoundTrack:
    """A wound track from ``data/damage.toml``: "default" (FTC 7.3), "cinematic" (*Fudge* 4.57),
    "doubled_degree" (*Fudge* 4.55), "epic" (*Fudge* 4.63); or a creature track of ``data/creatures.toml``
    ("mook" of *Fudge* 4.57, "major_npc")."""
    tracks = damage_data()["tracks"]
    if name not in tracks:
        # creatures' own tracks ("mook" of Fudge 4.57, "major_npc") are named tracks too
        creature = read_table("creatures.toml").get("tracks", {})
        if name in creature:
            return WoundTrack.from_data(creature[name], name=name)
        raise WoundError(
            f"there is no wound track named {name!r}; use one of "
            f"{', '.join([*tracks, *creature])} "
            "or give the track as a table of levels, damage and boxes"
        )
    return WoundTrack.from_data(tracks[name], name=name)


def track_names() -> tuple[str, ...]:
    """The names of the wound tracks in ``data/damage.toml``."""
    return tuple(damage_data()["tracks"])


DEFAULT_TRACK: WoundTrack = named_track("default")
"""FTC 7.3: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death; boxes 3/1/1/1/1."""


def wound_for_damage(damage: int, track: WoundTrack = DEFAULT_TRACK) -> WoundLevel | None:
    """The wound level a damage number inflicts on this track (FTC 7.3); None when damage <= 0."""
    if damage <= 0:
        return None
    return track.level_for_damage(damage)


# ----------------------------------------------------------------------------------------- recording


@dataclass(frozen=True, slots=True)
class Wounds:
    """The wound boxes of one figure (*Fudge* 4.57): per track column, the wounds that fill its boxes.

    ``marks[i]`` holds, for column ``i`` of ``track``, the level of each wound recorded there (a Hurt wound
    rolled over into Incapacitated is kept as Hurt, the sheet's "H"). ``beyond`` holds wounds that found no
    open box at all. Immutable: every change returns a new ``Wounds``.
    """

    track: WoundTrack = DEFAULT_TRACK
    marks: tuple[tuple[WoundLevel, ...], ...] = field(default=())

    beyond: tuple[WoundLevel, ...] = ()
    _worst: WoundLevel | None = field(default=None, init=False, repr=False, compare=False)
    """``worst``, worked out once (a record never changes; every battle query asks it)."""
    can_act: bool = field(default=True, init=False, repr=False, compare=False)
    """False at Incapacitated or worse (FTC 7.3; docs/rulings.md "Zone of control": it then projects no zone of
    control); worked out once with ``worst``."""

    def __post_init__(self) -> None:
        if not self.marks:
            object.__setattr__(self, "marks", tuple(() for _ in self.track.steps))
        if len(self.marks) != len(self.track.steps):
            raise WoundError("wound marks must have one entry per level of the track")
        worst: WoundLevel | None = None
        for s, m in zip(self.track.steps, self.marks, strict=True):
            if len(m) > s.boxes:
                raise WoundError(f"{s.name} has {s.boxes} box(es) but {len(m)} wounds are recorded there")
            if m:
                worst = s.level
        worst = self.track.steps[-1].level if self.beyond else worst
        object.__setattr__(self, "_worst", worst)
        object.__setattr__(self, "can_act", worst is None or worst < WoundLevel.INCAPACITATED)

    def record(self, level: WoundLevel) -> tuple[Wounds, WoundLevel]:
        """Mark a box for a wound (*Fudge* 4.57); returns the new record and the level whose box was marked.

        A wound with no open box takes the next higher level with one. With the track's scratch ceiling a
        Scratch never goes above the ceiling: if no box is open up to it, nothing changes and Scratch is
        returned. If no box is open from the wound's level up, the wound goes to ``beyond`` and the top level
        is returned.
        """
        steps = self.track.steps
        start = self.track.index_at_or_above(level)
        if start is None:  # a wound worse than the track's top level fills the top level's boxes
            start = len(steps) - 1
        for index in range(start, len(steps)):
            s = steps[index]
            if (
                level == WoundLevel.SCRATCH
                and self.track.scratch_ceiling is not None
                and s.level > self.track.scratch_ceiling
            ):
                return self, WoundLevel.SCRATCH
            if len(self.marks[index]) < s.boxes:
                marks = list(self.marks)
                marks[index] = (*marks[index], level)
                return replace(self, marks=tuple(marks)), s.level
        return replace(self, beyond=(*self.beyond, level)), steps[-1].level

    def filled(self, level: WoundLevel) -> int:
        """How many boxes of this level are marked (0 if the track has no such level)."""
        for s, m in zip(self.track.steps, self.marks, strict=True):
            if s.level == level:
                return len(m)
        return 0

    def open_boxes(self, level: WoundLevel) -> int:
        """How many boxes of this level are still open."""
        return self.track.step(level).boxes - self.filled(level)

    def marks_at(self, level: WoundLevel) -> tuple[WoundLevel, ...]:
        """The wounds recorded in this level's boxes, as received (for healing, *Fudge* 4.57)."""
        for s, m in zip(self.track.steps, self.marks, strict=True):
            if s.level == level:
                return m
        return ()

    def received(self) -> Iterator[WoundLevel]:
        """Every wound as received, box by box, then those beyond the track."""
        for m in self.marks:
            yield from m
        yield from self.beyond

    @property
    def worst(self) -> WoundLevel | None:
        """The highest level with a marked box (its penalty is the one that counts); None if unhurt."""
        return self._worst

    @property
    def label(self) -> str:
        """The sheet's name of the worst level ("Very Hurt", a creature track's label), or "Unhurt"."""
        worst = self.worst
        return "Unhurt" if worst is None else self.track.step(worst).name

    @property
    def overflowed(self) -> bool:
        """Whether a wound found no open box at all: the GM decides if the figure dies (*Fudge* 4.55)."""
        return bool(self.beyond)

    def penalty(self, pain: str = "normal") -> int:
        """The wound penalty to offence, defence and firing (FTC 6.4.1, table 7; *Fudge* 4.51 pain).

        Only Very Hurt gives -1 under FTC. ``pain`` is "normal", "high" (High Pain Threshold: no penalty at
        Very Hurt) or "low" (Low Pain Threshold: Hurt -1, Very Hurt -2). Incapacitated and worse cannot act;
        they report the Very Hurt value. A Very Hurt wound taken this round counts from the next round
        (FTC 6.4): the caller asks with the record as it stood at the start of the round.
        """
        return pain_penalty(self.worst, pain)

    def cleared(self, level: WoundLevel) -> Wounds:
        """The GM erases every box of one level (e.g. Scratches after a battle, *Fudge* 4.8)."""
        marks = tuple(() if s.level == level else m for s, m in zip(self.track.steps, self.marks, strict=True))
        beyond = () if level == self.track.steps[-1].level else self.beyond
        return replace(self, marks=marks, beyond=beyond)

    def with_filled(self, level: WoundLevel, count: int) -> Wounds:
        """The GM sets how many boxes of a level are marked (the new marks count as wounds of that level)."""
        s = self.track.step(level)
        if not 0 <= count <= s.boxes:
            raise WoundError(f"{s.name} has {s.boxes} box(es); cannot mark {count}")
        current = self.marks_at(level)
        new = current[:count] if count <= len(current) else (*current, *[level] * (count - len(current)))
        marks = tuple(new if st.level == level else m for st, m in zip(self.track.steps, self.marks, strict=True))
        return replace(self, marks=marks)

    def healed(self) -> Wounds:
        """An unhurt record on the same track."""
        return Wounds(self.track)

    def to_data(self) -> dict[str, list[str]]:
        """Plain data for saves: each level's name -> the wounds in its boxes (and "beyond")."""
        out = {str(s.level): [str(w) for w in m] for s, m in zip(self.track.steps, self.marks, strict=True)}
        if self.beyond:
            out["beyond"] = [str(w) for w in self.beyond]
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Sequence[str]], track: WoundTrack = DEFAULT_TRACK) -> Wounds:
        """Read back ``to_data``."""
        marks = tuple(tuple(WoundLevel.parse(w) for w in data.get(str(s.level), ())) for s in track.steps)
        beyond = tuple(WoundLevel.parse(w) for w in data.get("beyond", ()))
        return cls(track, marks, beyond)

    def to_roster(self) -> list[str] | dict[str, list[str]]:
        """The wounds a character carries between battles, as a roster writes them (*Fudge* 4.8, 4.57).

        Usually a list of the wounds as received (``["Hurt", "Scratch"]``), which ``from_roster`` records
        again in that order, box by box, onto the same sheet. A sheet that re-recording would not rebuild (a
        GM emptied a lower box under a rolled-up wound) is written box by box, as ``to_data``. Unhurt: ``[]``.
        """
        received = [str(w) for w in self.received()]
        if Wounds.from_roster(received, self.track) == self:
            return received
        return {level: marks for level, marks in self.to_data().items() if marks}

    @classmethod
    def from_roster(cls, data: object, track: WoundTrack = DEFAULT_TRACK) -> Wounds:
        """Read carried wounds (``to_roster``): a list of wounds recorded in order like fresh ones (*Fudge*
        4.57: a wound with no open box takes the next higher one), or a table of level -> the wounds in its
        boxes. Names are levels ("Very Hurt", "hurt") or the track's labels ("Out of the Battle");
        ``WoundError`` says what does not fit."""
        if isinstance(data, str):
            data = [data]
        if isinstance(data, Mapping):
            columns = {str(s.level).lower(): s for s in track.steps}
            columns.update({s.label.lower(): s for s in track.steps if s.label})
            table: dict[str, list[str]] = {}
            for key, value in data.items():
                where = "beyond" if str(key).strip().lower() == "beyond" else None
                if where is None:
                    step = columns.get(str(key).strip().lower())
                    if step is None:
                        raise WoundError(
                            f"the {track.name} track has no level {key!r}; use "
                            f"{', '.join(s.name for s in track.steps)} (or beyond)"
                        )
                    where = str(step.level)
                items = [value] if isinstance(value, str) else value
                if not isinstance(items, Sequence):
                    raise WoundError(f"{key}: {value!r} is not a list of wounds")
                levels = [_carried_level(w, track) for w in items]
                top = where in ("beyond", str(track.steps[-1].level))  # a worse wound fills the top boxes
                if not top and any(lv > WoundLevel.parse(where) for lv in levels):
                    raise WoundError(
                        f"the {where} boxes hold wounds of that level or lighter ones that rolled "
                        f"up, not {', '.join(str(lv) for lv in levels)}"
                    )
                table[where] = [str(lv) for lv in levels]
            return cls.from_data(table, track)
        if not isinstance(data, Sequence):
            raise WoundError(f"{data!r} is not a list of wounds")
        wounds = cls(track)
        for item in data:
            wounds, _ = wounds.record(_carried_level(item, track))
        return wounds


def _carried_level(item: object, track: WoundTrack) -> WoundLevel:
    """One carried wound's level: a level's name or number, or a label of the track ("Out of the Battle")."""
    if isinstance(item, str):
        for s in track.steps:
            if s.label and s.label.lower() == item.strip().lower():
                return s.level
    if isinstance(item, bool) or not isinstance(item, str | int):
        raise WoundError(f'{item!r} is not a wound; write a level such as "Hurt"')
    return WoundLevel.parse(item)


def pain_penalty(worst: WoundLevel | None, pain: str = "normal") -> int:
    """The penalty of a worst wound level for a pain threshold (FTC 6.4.1, *Fudge* 4.51; module doc)."""
    table = damage_data()["pain"]
    if pain not in table:
        raise WoundError(f"pain threshold {pain!r} is unknown; use one of {', '.join(PAIN_THRESHOLDS)}")
    if worst is None:
        return 0
    values = {WoundLevel.parse(k): int(v) for k, v in table[pain].items()}
    capped = min(worst, WoundLevel.VERY_HURT)
    return values.get(capped, 0)


# ----------------------------------------------------------------------------------------- health, graze


def health_roll_reduction(health_result: int) -> int:
    """How many levels a Health result lowers a fresh wound (FTC 7.4): Superb or better 2, Great 1, else 0."""
    best = 0
    for rule in damage_data()["health_roll"].values():
        if health_result >= parse_level(str(rule["at_least"])):
            best = max(best, int(rule["levels"]))
    return best


def apply_health_roll(level: WoundLevel, health_result: int) -> WoundLevel:
    """The wound after the Health roll (FTC 7.4), never below a Scratch."""
    return WoundLevel(max(WoundLevel.SCRATCH, level - health_roll_reduction(health_result)))


def _graze_table_level(damage_factor: int) -> WoundLevel | None:
    found: WoundLevel | None = None
    for row in damage_data()["graze"]["fudge_table"]:
        if damage_factor >= int(row["from_factor"]):
            found = WoundLevel.parse(row["wound"])
    return found


def graze_cap(
    level: WoundLevel | None,
    relative_degree: int,
    *,
    fudge_graze_table: bool = False,
    damage: int | None = None,
    scale_difference: int = 0,
) -> WoundLevel | None:
    """Limit the wound of a graze, a hit by relative degree +1 (FTC 7.3, *Fudge* 4.56).

    Other relative degrees return ``level`` unchanged. Under FTC a graze does at most a Scratch. With the
    rule option ``fudge_graze_table`` the cap comes from *Fudge* 4.56's table, read on the damage factor
    (offence minus defence, i.e. ``damage`` minus the relative degree): below 0 no wound, 0-4 Scratch,
    5+ Hurt; ``damage`` (the blow's damage number) is then required. ``scale_difference`` (the blow's
    Scale minus the defender's Mass Scale, ``damage.graze_scale_difference``: the attacker's Strength Scale
    counts only with a muscle-powered weapon, *Fudge* 4.58) raises the cap one level per positive step, at
    most to Very Hurt (*Fudge* 4.56: "plus any Scale difference", "minimized"). The result never exceeds
    ``level``.
    """
    if relative_degree != 1 or level is None:
        return level
    graze = damage_data()["graze"]
    cap: WoundLevel | None
    if fudge_graze_table:
        if damage is None:
            raise WoundError("the Fudge graze table needs the blow's damage number (damage=...)")
        cap = _graze_table_level(damage - relative_degree)
        if cap is None:
            return None
    else:
        cap = WoundLevel.parse(graze["max_wound"])
    if scale_difference > 0:
        ceiling = WoundLevel.parse(graze["scale_ceiling"])
        cap = WoundLevel(max(cap, min(ceiling, cap + scale_difference)))
    return min(level, cap)
