"""What a declaration may say under the rule options of the blow (*Fudge* 4.62, 4.34; docs/rulings.md "Stun,
knockout and pulled blows", "Sweeping blow", "Ignoring attackers"), and what a stun hinders.

A declaration may go for stun (``stun_blows``), name the most wound it will do (``pulled_blows``), strike up to
three foes with one slash (``sweeping_blow``) and name enemies it leaves undefended (``ignore_attackers``); a
figure stunned this round may neither attack, cast nor take the very defensive stance. ``check`` refuses, each
with its sentence, what the declaration may not say (``attack_phase.declare`` calls it with the other checks);
``restrict`` takes out of a stunned figure's options what it may not declare. This part owns no state: the stun
sheet and the rounds it hinders are the figure's (``Figure.stuns``, ``Figure.stunned``).
"""

from __future__ import annotations

from game.engine import actions as act
from game.engine import stun, sweep
from game.engine.battle.state import BattleState, Figure, IllegalAction, figure_distance
from game.engine.combat import Stance
from game.engine.equipment import Weapon


def hindrance(b: BattleState, fid: str) -> str | None:
    """What a stun hinders figure ``fid`` with this round: "Stun", "Very Stunned", or None (*Fudge* 4.62)."""
    return stun.hindrance(b.figure(fid).stunned, b.round)


def ignorable(b: BattleState, fid: str) -> tuple[str, ...]:
    """The enemies figure ``fid`` may leave undefended this round (*Fudge* 4.34): those able to fight that could
    reach it in melee this round (``sweep.IGNORE_REACH``), whether they have declared or not."""
    if not b.options.ignore_attackers:
        return ()
    fig = b.figure(fid)
    return tuple(e.id for e in b.enemies_of(fig) if figure_distance(e, fig) <= sweep.IGNORE_REACH)


def _off(what: str, option: str, section: str) -> IllegalAction:
    return IllegalAction(f"{what} is a rule option this battle does not use ({option}, {section}).")


def check(b: BattleState, fig: Figure, a: act.Declare, weapon: Weapon) -> None:
    """Refuse (``IllegalAction`` with the sentence) what the declaration ``a`` may not say under the battle's
    rule options: a stunned figure's attack, spell or very defensive stance (*Fudge* 4.62); several targets
    without the sweeping blow, more than it allows, twice the same, with a stabbing weapon, a missile or a spell
    (*Fudge* 4.34); a stun or a pulled blow with the option off, without a weapon blow, a stun with a missile,
    a most wound that is not a level (*Fudge* 4.62); an ignored enemy with the option off, one it strikes, one
    that cannot reach it (*Fudge* 4.34)."""
    options = b.options
    hindered = hindrance(b, fig.id)
    stunned = "very stunned" if hindered == stun.VERY_STUNNED else "stunned"
    if hindered is not None and (a.targets or a.spell is not None):
        raise IllegalAction(f"{fig.name} is {stunned} this round: no attack (Fudge 4.62).")
    if hindered is not None and a.stance == Stance.VERY_DEFENSIVE.value:
        raise IllegalAction(f"{fig.name} is {stunned} this round: no very defensive stance (Fudge 4.62).")
    if len(a.targets) > 1:
        if not options.sweeping_blow:
            raise IllegalAction("A figure attacks one target a round.")
        if len(a.targets) > sweep.MAX_TARGETS:
            raise IllegalAction(f"A sweeping blow strikes at most {sweep.MAX_TARGETS} foes (Fudge 4.34).")
        if len(set(a.targets)) != len(a.targets):
            raise IllegalAction("A sweeping blow names each foe once (Fudge 4.34).")
        if a.spell is not None or not sweep.can_sweep(weapon):
            why = "a shot" if weapon.ranged else "a spell" if a.spell is not None else f"the {weapon.name} stabs"
            raise IllegalAction(f"A sweeping blow is a melee slash, and {why} (Fudge 4.34).")
    blow = bool(a.targets) and a.spell is None
    if a.stuns:
        if not options.stun_blows:
            raise _off("A stunning blow", "Stun blows", "Fudge 4.62")
        if not blow or weapon.ranged:
            raise IllegalAction("Only a melee weapon blow may go for stun (Fudge 4.62): name its target.")
    most = a.most_wound
    if most is not None:
        if not options.pulled_blows:
            raise _off("A pulled blow", "Pulled blows", "Fudge 4.62")
        if most not in stun.PULL_LEVELS:
            raise IllegalAction(f"Pull a blow to one of {', '.join(stun.PULL_LEVELS)} (Fudge 4.62), not {most!r}.")
        if not blow:
            raise IllegalAction("Only a weapon blow may be pulled (Fudge 4.62): name its target.")
    if a.ignoring:
        if not options.ignore_attackers:
            raise _off("Ignoring attackers", "Ignoring attackers", "Fudge 4.34")
        able = ignorable(b, fig.id)
        for o in a.ignoring:
            name = b.figure(o).name
            if o in a.targets:
                raise IllegalAction(f"{fig.name} cannot ignore {name}, the foe he strikes (Fudge 4.34).")
            if o not in able:
                raise IllegalAction(f"{name} cannot reach {fig.name} in melee this round: nothing to ignore.")
        if len(set(a.ignoring)) != len(a.ignoring):
            raise IllegalAction("Name each ignored enemy once (Fudge 4.34).")


def restrict(b: BattleState, fig: Figure, options: dict[str, object]) -> dict[str, object]:
    """A stunned figure's declaration options (*Fudge* 4.62): no target for any weapon, no spell, no very
    defensive stance; the others as they were."""
    if hindrance(b, fig.id) is None:
        return options
    weapons = options["weapons"]
    assert isinstance(weapons, dict)
    stances = options["stances"]
    assert isinstance(stances, list)
    return {
        **options,
        "weapons": {w: [] for w in weapons},
        "stances": [s for s in stances if s != Stance.VERY_DEFENSIVE.value],
        "spells": {},
        "casting": None,
    }
