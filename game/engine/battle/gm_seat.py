"""What the GM's seat has laid on the battle (*Fudge* 4.1): situational modifiers, conditions of light and
footing, and escapes decided by hand.

This part owns ``GMSeatState``; every roll of the battle asks it for the GM's terms (``terms``,
``light_at``, ``footing_at``, ``escape_levels``). The GM's decisions themselves are ``gm_decisions``,
which changes this state only through the functions here.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine import gm, stun
from game.engine.battle.state import BattleState, Figure
from game.engine.combat import Modifier, total
from game.engine.hexgrid import Hex
from game.engine.rule_options import roll_count, rolls_drawn
from game.engine.zoc import EscapeLevels

BATTLE_ROLLS = ("combat", "initiative", "escape", "health", "situational", "will", "resistance")
"""The rolls a battle makes, so the ones a GM may set by hand here (healing is between battles)."""


def settable_rolls(b: BattleState) -> tuple[str, ...]:
    """*Fudge* 4.1: the rolls this battle makes, so the ones the GM may set by hand (``gm.SetDie``): FTC's own,
    then the rule options' rolls while their option is on (``rule_options.rolls_drawn``)."""
    return (*BATTLE_ROLLS, *rolls_drawn(b.options))


def roll_dice(b: BattleState, purpose: str) -> tuple[int, tuple[int, ...]]:
    """How many dice a roll of ``purpose`` takes in this battle and the faces each may show (``gm.DIE_PURPOSES``,
    as the battle's rule options count them: ``rule_options.roll_count``)."""
    count, faces = gm.DIE_PURPOSES[purpose]
    return roll_count(purpose, b.options) or count, faces


def conditions(b: BattleState) -> gm.GMState:
    """*Fudge* 4.1: the GM's standing modifiers and conditions."""
    return b.gm_seat_state.conditions


def record(b: BattleState, a: gm.GMAction) -> None:
    """A GM decision that lays, changes or lifts a modifier or a condition (``gm.GMState.with_action``)."""
    b.gm_seat_state.conditions = b.gm_seat_state.conditions.with_action(a, b.round)


def modifiers_on(b: BattleState, fid: str) -> tuple[gm.SituationalModifier, ...]:
    """*Fudge* 4.1: the GM's situational modifiers counting for a figure this round (its token's badge)."""
    fig = b.figure(fid)
    return tuple(
        m
        for m in b.gm_seat_state.conditions.modifiers
        if m.target in (fig.id, fig.side) and (m.until != "round" or m.round == b.round)
    )


def terms(b: BattleState, fig: Figure) -> tuple[Modifier, ...]:
    """*Fudge* 4.1: the GM's modifiers on a figure's offence, defence and escape rolls this round, named; and on
    the same rolls a Very Stunned figure's −2 (*Fudge* 4.62's "−2 to all actions", read as every roll the GM's
    modifier reaches)."""
    laid = gm.modifier_terms(b.gm_seat_state.conditions.modifiers, fig.id, fig.side, b.round)
    return (*(Modifier(n, v) for n, v in laid), *stun.terms(fig.stunned, b.round, "all"))


def light_at(b: BattleState, h: Hex) -> int:
    """FTC table 7: bad light on a hex: the map's (Tiled ``light``) or the GM's condition, the worse."""
    return min(b.terrain.light_at(h), gm.condition_value(b.gm_seat_state.conditions.conditions, "bad_light", h))


def footing_at(b: BattleState, h: Hex) -> int:
    """FTC table 7: insecure footing on a hex: the map's (Tiled ``footing``) or the GM's, the worse."""
    return min(
        b.terrain.footing_at(h), gm.condition_value(b.gm_seat_state.conditions.conditions, "insecure_footing", h)
    )


def new_round(b: BattleState) -> None:
    """FTC 3: a new round begins; the GM's "this round" modifiers and escape overrides lapse."""
    b.gm_seat_state.conditions = b.gm_seat_state.conditions.expire(b.round)
    b.gm_seat_state.escape = {}


def escape_levels(b: BattleState, levels: EscapeLevels, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
    """FTC 5.3's escape levels with the GM's modifiers on the mover and on each stopper added."""
    mover = terms(b, fig)
    per = [terms(b, s) for s in stoppers]
    if not mover and not any(per):
        return levels
    return EscapeLevels(
        levels.mover + total(mover),
        (*levels.mover_modifiers, *((m.name, m.value) for m in mover)),
        tuple(lv + total(p) for lv, p in zip(levels.stoppers, per, strict=True)),
        tuple((*ms, *((m.name, m.value) for m in p)) for ms, p in zip(levels.stopper_modifiers, per, strict=True)),
    )


def decide_escape(b: BattleState, fid: str, escaped: bool) -> None:
    """FTC 5.3 overridden: the figure's next escape contest this round is decided by the GM."""
    b.gm_seat_state.escape[fid] = escaped


def decided_escape(b: BattleState, fid: str) -> bool | None:
    """The escape the GM decided for the figure's contest now, used up (None: the dice decide)."""
    return b.gm_seat_state.escape.pop(fid, None)


def escapes(b: BattleState) -> dict[str, bool]:
    """Escapes the GM decided by hand for this round: figure id -> escaped (FTC 5.3 overridden)."""
    return b.gm_seat_state.escape


def forget_figure(b: BattleState, fid: str) -> None:
    """A figure left the battle: an escape decided for it lapses."""
    b.gm_seat_state.escape.pop(fid, None)
