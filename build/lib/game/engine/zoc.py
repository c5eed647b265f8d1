"""Zones of control and the escape contest (FTC 5.2, 5.3; docs/rulings.md "Movement phase").

A figure that can act projects a zone of control over its three front hexes. A mover who steps out of the
zone of an enemy who chooses to stop him must win an opposed action, Agility against each stopper's combat
skill, or stay (his move ends) or turn tail and run (free attacks at his defence -2). The path search in
``movement`` uses ``zones_for`` as its predicate; this module holds the contest itself.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine.datafiles import read_table
from game.engine.dice import DiceRoll, roll_4df
from game.engine.hexgrid import Hex, front_hexes

_DATA: Mapping[str, Any] = read_table("movement.toml")["zone_of_control"]

MOVER_PER_EXTRA_STOPPER: int = int(_DATA["mover_per_extra_stopper"])
"""FTC 5.3: the mover's modifier for each stopper beyond the first."""
STOPPER_PER_OTHER_ENGAGEMENT: int = int(_DATA["stopper_per_other_engagement"])
"""FTC 5.3: a stopper's modifier for each other enemy in whose zone of control the stopper stands."""
TURN_TAIL_DEFENCE: int = int(_DATA["turn_tail_defence"])
"""FTC 5.3: the defence modifier of a figure that turns tail and runs (one roll against all stoppers)."""

Modifier = tuple[str, int]
"""A named modifier for the battle log: (what it is, value)."""


def zone_of_control(h: Hex, facing: int) -> frozenset[Hex]:
    """The zone of control of a figure in ``h``: its three front hexes (FTC 5.2, figure 1).

    Only a figure that can act projects one (docs/rulings.md "Zone of control"); the caller decides that.
    """
    return frozenset(front_hexes(h, facing))


@dataclass(frozen=True)
class ZocSource:
    """A figure as zones of control see it (FTC 5.2): where it stands and faces, whether it can act, and
    whether it would stop a mover (its owner's choice, docs/rulings.md "Standing orders": standing order, default
    *always*)."""

    id: str
    side: str
    hex: Hex
    facing: int
    can_act: bool = True
    stops: bool = True


def zones_for(mover_id: str, figures: Iterable[ZocSource]) -> dict[Hex, frozenset[str]]:
    """For each hex, the ids of the enemies of ``mover_id`` that would stop him and whose zone covers it.

    FTC 5.2: only enemies that can act and choose to stop the mover count. The mover must be among
    ``figures`` (its side tells friend from foe).
    """
    figs = list(figures)
    mover = next((f for f in figs if f.id == mover_id), None)
    if mover is None:
        raise ValueError(f"figure {mover_id!r} is not among the figures given; pass every figure on the map")
    acc: dict[Hex, set[str]] = {}
    for f in figs:
        if f.id == mover_id or f.side == mover.side or not f.can_act or not f.stops:
            continue
        for h in front_hexes(f.hex, f.facing):
            acc.setdefault(h, set()).add(f.id)
    return {h: frozenset(ids) for h, ids in acc.items()}


def engaged_with(figure_hex: Hex, enemies: Iterable[ZocSource], *, exclude: Collection[str] = ()) -> int:
    """How many of ``enemies`` (other than those in ``exclude``) have ``figure_hex`` in their zone (FTC 5.3).

    For a stopper B escaping mover A, pass B's enemies and ``exclude={A}``: each counts -1 for B.
    Figures that cannot act project no zone and do not count.
    """
    return sum(1 for e in enemies if e.can_act and e.id not in exclude and figure_hex in front_hexes(e.hex, e.facing))


@dataclass(frozen=True)
class EscapeLevels:
    """The sides of an escape contest with their modifiers, for the log (FTC 5.3)."""

    mover: int
    mover_modifiers: tuple[Modifier, ...]
    stoppers: tuple[int, ...]
    stopper_modifiers: tuple[tuple[Modifier, ...], ...]


def escape_breakdown(mover_agility: int, stoppers: Sequence[tuple[int, int]]) -> EscapeLevels:
    """Modified levels of an escape contest with named modifiers (FTC 5.3).

    ``stoppers``: for each stopper (combat skill, number of other enemies in whose zone it stands).
    The mover is -1 for each stopper beyond the first; each stopper -1 per other engagement.
    """
    if not stoppers:
        raise ValueError("an escape contest needs at least one stopper")
    extra = len(stoppers) - 1
    mover_mods: tuple[Modifier, ...] = (
        (("escaping several stoppers", MOVER_PER_EXTRA_STOPPER * extra),) if extra else ()
    )
    levels: list[int] = []
    mods: list[tuple[Modifier, ...]] = []
    for skill, others in stoppers:
        m: tuple[Modifier, ...] = (
            (("engaged with other enemies", STOPPER_PER_OTHER_ENGAGEMENT * others),) if others else ()
        )
        mods.append(m)
        levels.append(skill + sum(v for _, v in m))
    return EscapeLevels(mover_agility + sum(v for _, v in mover_mods), mover_mods, tuple(levels), tuple(mods))


def escape_levels(mover_agility: int, stoppers: Sequence[tuple[int, int]]) -> tuple[int, tuple[int, ...]]:
    """The modified levels of mover and each stopper in an escape contest (FTC 5.3); see escape_breakdown."""
    b = escape_breakdown(mover_agility, stoppers)
    return b.mover, b.stoppers


@dataclass(frozen=True)
class EscapeResult:
    """The dice and results of an escape contest (FTC 5.3): the mover escapes iff he beats every stopper."""

    mover_roll: DiceRoll
    mover_result: int
    stopper_rolls: tuple[DiceRoll, ...]
    stopper_results: tuple[int, ...]

    @property
    def escaped(self) -> bool:
        """Whether the mover beat every stopper's result (a tie fails)."""
        return all(self.mover_result > r for r in self.stopper_results)


def roll_escape(rng: random.Random, mover_level: int, stopper_levels: Sequence[int]) -> EscapeResult:
    """Roll an escape contest (FTC 5.3): 4dF for the mover, then for each stopper in the order given."""
    mr = roll_4df(rng)
    rolls = tuple(roll_4df(rng) for _ in stopper_levels)
    return EscapeResult(
        mr, mover_level + mr.total, rolls, tuple(lv + r.total for lv, r in zip(stopper_levels, rolls, strict=True))
    )
