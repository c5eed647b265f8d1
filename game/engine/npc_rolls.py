"""Who rolls an NPC pawn's combat dice (*Fudge* 4.33, 4.34; docs/rulings.md "NPC rolls").

FTC 6.3 gives every figure one 4dF roll a round for its offence and its defence. Under the rule option
``npc_rolls`` an NPC pawn (role ``npc``, docs/rosters.md "Roles") rolls otherwise:

* ``zero`` (*Fudge* 4.33): it rolls nothing; its result is its level (a roll of 0);
* ``group`` (*Fudge* 4.34): the pawns of one side share one 2dF roll a round ("roll once for all the NPCs … a
  +1 gives each attacker +1"); ``group_4df``: the same with one 4dF.

The rolls this covers are the combat rolls: the round's roll (FTC 6.3, the early roll of a 1-second spell, FTC
8.1) and the rolls of a free-attack exchange (FTC 5.3), where a side's pawns share one roll for that exchange.
Initiative, escape contests, Health, Will, resistance and situational rolls stay each figure's own. A hero or a
major NPC always rolls his own dice.

``RollKind`` says how one participant's roll is made, for the battle and for the exact odds
(``game.engine.odds``): ``joint`` spreads several participants' rolls, pawns of one side sharing theirs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from game.engine.dice import FOUR_DF_COUNTS, TWO_DF_COUNTS
from game.engine.rule_options import RuleOptions

OWN = "own"
ZERO = "zero"
GROUP = "group"

_COUNTS = {4: tuple(FOUR_DF_COUNTS.items()), 2: tuple(TWO_DF_COUNTS.items()), 0: ((0, 1),)}


def is_pawn(role: str) -> bool:
    """Whether a figure of this role is an NPC pawn, whose dice the option may take (docs/rosters.md "Roles")."""
    return role == "npc"


def way(options: RuleOptions, role: str) -> str:
    """How a figure of ``role`` makes its combat rolls under ``options``: ``OWN`` (FTC 6.3), ``ZERO`` (*Fudge*
    4.33) or ``GROUP`` (*Fudge* 4.34)."""
    if options.npc_rolls == "own" or not is_pawn(role):
        return OWN
    return ZERO if options.npc_rolls == "zero" else GROUP


def group_dice(options: RuleOptions) -> int:
    """The Fudge dice of a side's group roll: two (*Fudge* 4.34's 2dF), or four under ``group_4df``."""
    return 4 if options.npc_rolls == "group_4df" else 2


@dataclass(frozen=True, slots=True)
class RollKind:
    """How one participant's combat roll is made, for the odds: ``dice`` Fudge dice (4: its own 4dF, FTC 6.3;
    0: no roll, *Fudge* 4.33), shared by every participant with the same ``group`` (a side's pawns, *Fudge*
    4.34; "" for a roll of its own); ``fixed``: the total the GM set by hand (*Fudge* 4.1)."""

    dice: int = 4
    group: str = ""
    fixed: int | None = None

    def counts(self) -> tuple[tuple[int, int], ...]:
        """(total, ways) of the roll; a roll the GM set is its total, one way."""
        return ((self.fixed, 1),) if self.fixed is not None else _COUNTS[self.dice]


OWN_ROLL = RollKind()
"""A figure's own 4dF (FTC 6.3)."""


def kind_for(options: RuleOptions, role: str, side: str, fixed: int | None = None) -> RollKind:
    """The ``RollKind`` of a figure of ``role`` on ``side``: ``fixed`` is the GM's set total (its combat roll, or
    under ``group`` its side's ``npc_group`` roll)."""
    how = way(options, role)
    if how == OWN:
        return RollKind(fixed=fixed)
    if how == ZERO:
        return RollKind(0)
    return RollKind(group_dice(options), side, fixed)


Dist = tuple[tuple[int, int], ...]
"""A roll's totals with their ways."""


@lru_cache(maxsize=1024)
def joint(kinds: tuple[RollKind, ...]) -> tuple[tuple[tuple[Dist, ...], int], ...]:
    """Every participant's roll spread jointly (*Fudge* 4.34: pawns of one group share one roll): for each value
    of the shared rolls, each participant's own distribution (a shared roll's member: its value, one way) and
    the ways of that value. Every entry has the same total of ways inside, so the denominator is the product of
    the participants' own totals and the groups' totals."""
    groups = sorted({k.group for k in kinds if k.group})
    values = [next(k for k in kinds if k.group == g).counts() for g in groups]
    out: list[tuple[tuple[Dist, ...], int]] = []
    for chosen in product(*values):
        at = dict(zip(groups, chosen, strict=True))
        weight = 1
        for _, w in chosen:
            weight *= w
        dists = tuple(((at[k.group][0], 1),) if k.group else k.counts() for k in kinds)
        out.append((dists, weight))
    return tuple(out)


def total_ways(kinds: Sequence[RollKind]) -> int:
    """The denominator of ``joint``: each own roll's ways times each group's."""
    out = 1
    seen: set[str] = set()
    for k in kinds:
        if k.group:
            if k.group not in seen:
                seen.add(k.group)
                out *= sum(w for _, w in k.counts())
        else:
            out *= sum(w for _, w in k.counts())
    return out


@lru_cache(maxsize=4096)
def ways_below(dist: Dist, k: int) -> int:
    """Ways of a roll with distribution ``dist`` to be strictly below ``k``."""
    return sum(w for t, w in dist if t < k)


def pairs(kinds: Sequence[RollKind]) -> Iterator[tuple[int, int]]:
    """Index pairs of participants sharing one roll (for naming the assumption)."""
    for i, a in enumerate(kinds):
        for j in range(i + 1, len(kinds)):
            if a.group and a.group == kinds[j].group:
                yield i, j


__all__ = [
    "GROUP",
    "OWN",
    "OWN_ROLL",
    "ZERO",
    "Dist",
    "RollKind",
    "group_dice",
    "is_pawn",
    "joint",
    "kind_for",
    "pairs",
    "total_ways",
    "way",
    "ways_below",
]
