"""Stray shots (FTC 6.5.3): a missile that misses may strike a friend or an enemy of the firer standing on the
line of fire.

Aiming a missile and whether a target can be shot are ``reach``; a stray is its own blow (``blows``),
dodged only by a victim who declared a dodge against the firer. This part owns no state.
"""

from __future__ import annotations

from collections.abc import Mapping

from game.engine import events as ev
from game.engine.battle import blows, declarations, dice
from game.engine.battle.state import BattleState, Figure, figure_distance
from game.engine.combat import ACCIDENTAL_DODGE_BONUS, Modifier, Stance, accidental_hit, resolve_miss, total
from game.engine.lof import LineOfFire


def stray(
    b: BattleState,
    missed: blows.Offence,
    tgt: Figure,
    lof: LineOfFire[str],
    rolls: Mapping[str, int],
    wounds: list[blows.Wound],
) -> list[ev.Event]:
    """FTC 6.5.3: a shot that ``missed`` its target may hit a friend or an enemy of the firer on the line of
    fire (it strikes him with the firer's same roll and modifiers)."""
    att, roll = missed.figure, missed.roll
    at_risk = [fid for fid in lof.bystanders_at_risk() if fid not in (att.id, tgt.id)]
    if not at_risk:
        return []
    friends = [f for f in at_risk if b.figures[f].side == att.side]
    enemies = [f for f in at_risk if b.figures[f].side != att.side]
    set_roll = dice.set_roll(b, "situational", att.id)
    situational, victim, _ = resolve_miss(b.rng, friends, enemies, roll=set_roll)
    out: list[ev.Event] = [ev.StrayShot(att.id, tgt.id, situational.faces, tuple(friends), tuple(enemies), victim)]
    if victim is None:
        return out
    v = b.figures[victim]
    vdecl = declarations.declaration_of(b, victim)
    dodge: int | None = None
    dmods: tuple[Modifier, ...] = ()
    if vdecl is not None and att.id in vdecl.dodge and not vdecl.second_move:
        # FTC 6.5.3: only a victim who declared a dodge against the firer dodges. A 1-second bolt is
        # resolved at its declaration (FTC 8.1): such a bystander makes his one roll of the round now,
        # as its target does (``dice.early_round_roll``); one who has not declared yet has no dodge.
        vroll = rolls[victim] if victim in rolls else dice.early_round_roll(b, victim, out)
        dmods = blows.dodge_terms(b, victim, Stance(vdecl.stance))
        dodge = v.character.agility + vroll + total(dmods)
    lands, _ = accidental_hit(
        att.character.combat_skill(missed.weapon, b.round) + roll + total(missed.modifiers), dodge
    )
    if dodge is not None:
        shown = (*dmods, Modifier("dodging a stray shot", ACCIDENTAL_DODGE_BONUS))
        out.append(
            ev.StrayDodge(
                victim, att.id, dodge + ACCIDENTAL_DODGE_BONUS, tuple((m.name, m.value) for m in shown), not lands
            )
        )
    if lands:
        event, wound = blows.strike(b, missed, v, None, (), (), -99, figure_distance(att, v), "torso", stray=True)
        out.append(event)
        if wound:
            wounds.append(wound)
    return out
