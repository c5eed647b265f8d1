"""One blow between two figures, every roll set from the GM's seat (*Fudge* 4.1): the scene the tests of the
damage options share (Fudge 4.55, 4.56, 4.58, 4.61, 4.63, 4.65).

``duel`` builds a refereed battle of an attacker "a" and a target "t" standing face to face and plays it to the
attacker's declaration in round 2 (the target declares first, a neutral defence); ``blow`` sets the combat rolls,
the options' rolls and the target's Health roll by hand, declares the attack, plays the round out and returns
what the log says: the blow (``AttackResolved``), the wound (``Wounded`` or None) and the preview taken just
before declaring (with every roll set, the odds of that one outcome).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions
from game.engine.characters import Character
from game.engine.odds import Outcome
from game.engine.preview import attack_preview
from game.engine.terrain import TerrainMap
from tests.engine.test_preview_truth import resolved, to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, play, start
from tests.golden.scenarios import CENTRE, SIDES, east

GUARD: Mapping[str, Any] = {"name": "Guard", "skills": {"Sword": "Superb"}, "weapons": ["Broadsword"]}
"""Fair Strength, a Broadsword (+2), Sword Superb."""
PEASANT: Mapping[str, Any] = {"name": "Peasant", "skills": {"Axe": "Mediocre"}, "weapons": ["Hand Axe"]}
"""Axe Mediocre, a Hand Axe, no armour: a Broadsword's blow lands by +2 on rolls of -1 against +1 (``HIT``)."""

HIT = ((-1, 0, 0, 0), (1, 0, 0, 0))
"""The guard (Superb -1 = Great) against the peasant (Mediocre +1 ... = Fair): relative degree +2."""
GRAZE = ((-1, 0, 0, 0), (1, 1, 0, 0))
"""The same with the peasant one better (Good): relative degree +1, a graze."""


def person(base: Mapping[str, Any], **changes: Any) -> Character:
    """A character from the roster's fields (FTC 2), with changes."""
    return Character.from_dict({**base, **changes})


def duel(
    options: RuleOptions,
    attacker: Character | None = None,
    target: Character | None = None,
) -> Battle:
    """A refereed battle of ``attacker`` (id "a", facing east) and ``target`` ("t", facing west, adjacent) at the
    attacker's declaration of round 2, the target having declared a neutral defence."""
    a = FigureSetup("a", "A", "blue", attacker or person(GUARD), CENTRE, 0, "always", False)
    t = FigureSetup("t", "T", "red", target or person(PEASANT), east(CENTRE), 3, "always", False)
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), options, 0), a=DOWN, t=EVEN)
    to_declaration(b, "a")
    return b


@dataclass(frozen=True)
class Struck:
    """What one blow did, read from the log, and the odds shown just before it was declared."""

    blow: ev.AttackResolved
    wound: ev.Wounded | None
    odds: Mapping[Outcome, Fraction]
    events: tuple[ev.Event, ...]

    @property
    def level(self) -> str | None:
        """The wound the attacker's side left (``AttackResolved.wound``), None when none."""
        return self.blow.wound

    @property
    def calculated(self) -> int:
        """FTC 7's damage number, before any rule option's step: degree + offensive - defensive factors."""
        b = self.blow
        return b.relative_degree + sum(v for _, v in b.offensive_factors) - sum(v for _, v in b.defensive_factors)


def blow(
    b: Battle,
    rolls: tuple[tuple[int, ...], tuple[int, ...]] = HIT,
    *,
    attacker: Sequence[tuple[str, tuple[int, ...]]] = (),
    target: Sequence[tuple[str, tuple[int, ...]]] = (),
    health: tuple[int, ...] = EVEN,
    aim: str = "best",
) -> Struck:
    """The attacker's blow with its combat roll and the target's set (``rolls``), the attacker's rolls of the
    rule options (``attacker``: (purpose, faces)) and the target's (``target``), its Health roll; the round
    played out."""
    b.apply(gm.SetDie("a", "combat", rolls[0]))
    b.apply(gm.SetDie("t", "combat", rolls[1]))
    for purpose, faces in attacker:
        b.apply(gm.SetDie("a", purpose, faces))
    for purpose, faces in target:
        b.apply(gm.SetDie("t", purpose, faces))
    b.apply(gm.SetDie("t", "health", health))
    odds = attack_preview(b, "a", None, "t", aim=aim).distribution  # type: ignore[arg-type]
    events = list(b.apply(act.Declare("a", "neutral", ("t",), aim=aim)))
    events += play(b, lambda b_, d: None, phase="movement")
    wound = next((e for e in events if isinstance(e, ev.Wounded) and e.figure == "t"), None)
    return Struck(resolved(events, "a"), wound, odds, tuple(events))


def waiting(b: Battle, purpose: str) -> int:
    """How many rolls of ``purpose`` the GM set by hand are still waiting to be made."""
    return sum(1 for d in b.gm_dice if d.purpose == purpose)


def with_weapon_tech(character: Character, level: int) -> Character:
    """The character with its weapons of technological level ``level`` (*Fudge* 4.65)."""
    return replace(character, weapons=tuple(replace(w, tech_level=level) for w in character.weapons))


__all__ = [
    "GRAZE",
    "GUARD",
    "HIT",
    "PEASANT",
    "Struck",
    "blow",
    "duel",
    "person",
    "waiting",
    "with_weapon_tech",
]
