"""The sweeping blow and ignoring attackers (*Fudge* 4.34; docs/rulings.md "Sweeping blow", "Ignoring
attackers").

**Sweeping blow** (rule option ``sweeping_blow``, 1 or 2): a melee slash may strike up to three foes
(``data/combat.toml`` ``[sweeping_blow]``), "but it slows the slash: reduce damage by 1 or 2 for each foe cut
through". One offence result for the round (FTC 6.3) meets each foe's defence, and — as every attack of FTC
6.4.1 — the defences of everyone else attacking the sweeper in melee; each foe hit takes its own relative degree.
The k-th foe in the declared order takes the option's value times (k − 1) less damage, a named offensive factor
(S3 of the blow's way; our reading: by place in the sweep, whether or not the foes before were hit). A stabbing
weapon (a Rapier, a Stiletto: the printed note "stabbing") cannot sweep, nor can a missile or a spell.

**Ignoring attackers** (``ignore_attackers``): a fighter may name enemies he will not defend against in melee
this round (as he names the firers he dodges, FTC 6.1). A named enemy's blow meets no defence roll — it needs
only the difficulty, its relative degree measured against it — and the fighter's own blows need not beat that
enemy's defence. He may not ignore the foe he strikes. No penalty (our reading: the text allows either).
"""

from __future__ import annotations

from game.engine.blow_base import BlowRules
from game.engine.damage import Factor
from game.engine.datafiles import read_table
from game.engine.equipment import Weapon

MAX_TARGETS: int = int(read_table("combat.toml")["sweeping_blow"]["max_targets"])
"""How many foes one sweeping blow may strike (*Fudge* 4.34; ``data/combat.toml``)."""

_ORDINALS = ("1st", "2nd", "3rd")


def most_targets(rules_value: int) -> int:
    """How many targets a declaration may name under ``sweeping_blow = rules_value`` (1 when off)."""
    return MAX_TARGETS if rules_value > 0 else 1


def can_sweep(weapon: Weapon) -> bool:
    """Whether a weapon may make a sweeping blow: a melee weapon that does not only stab (*Fudge* 4.34's
    "slash")."""
    return not weapon.ranged and not weapon.stabbing


def sweep_factor(rules: BlowRules) -> tuple[Factor, ...]:
    """S3: the offensive factor of a foe's place in a sweeping blow: −value × place ("Sweeping blow, 2nd foe −1");
    none for the first foe or when the option is off."""
    if not rules.sweeping_blow or not rules.sweep_place:
        return ()
    place = _ORDINALS[min(rules.sweep_place, len(_ORDINALS) - 1)]
    return (Factor(f"sweeping blow, {place} foe (Fudge 4.34)", -rules.sweeping_blow * rules.sweep_place),)


IGNORE_REACH = 4
"""How far (hexes between nearest hexes) an enemy may stand to be ignored: one that could reach the fighter in
melee this round (an advance of two and a spear's reach of two, FTC 6.2, 9.1)."""


__all__ = ["IGNORE_REACH", "MAX_TARGETS", "can_sweep", "most_targets", "sweep_factor"]
