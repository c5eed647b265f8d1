"""The round's attacks resolved (FTC 6.3, 6.4, 6.4.1, 7): the attack phase's end.

One roll each, every attack compared with its defence at once (FTC 6.4), with the multiple-attackers
rule: an attack must beat the defence of every engaged opponent of the attacker (FTC 6.4.1, "Defending
Against Multiple Attackers"); shields cover as many melee attackers as table 9 allows; spells cast with
the round's attacks take effect with them (``spells.resolve``); then damage for all (FTC 7) before anyone
is taken out. Each blow is ``blows``; this part owns no state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from game.engine import events as ev
from game.engine import speed_contest
from game.engine.battle import blows, declarations, dice, effects, flow, ranged, reach, spells
from game.engine.battle.state import BattleState, Declaration, Figure, figure_distance
from game.engine.blow import BlowRules, rules_of
from game.engine.combat import Modifier, Stance, total
from game.engine.wounds import WoundLevel


def resolve_round(b: BattleState) -> list[ev.Event]:
    """FTC 6.3–6.5: one roll each, every attack resolved, all damage applied, then take-outs (the attack
    phase's end; the next round begins unless the battle is over)."""
    out: list[ev.Event] = []
    decls = declarations.declarations(b)
    rollers = [fid for fid in b.order if fid in decls and not decls[fid].second_move and b.figures[fid].can_act]
    rolls: dict[str, int] = {}
    for fid in rollers:
        faces = dice.round_roll_faces(b, fid, out)  # FTC 8.1: rolled already for a 1-second spell
        rolls[fid] = sum(faces)
        out.append(dice.round_roll_event(b, fid))
    attacks = [(fid, t) for fid in rollers for t in decls[fid].targets if b.figures[t].can_act]
    lapsed = [(a, t) for a, t in attacks if not _in_reach(b, b.figures[a], b.figures[t], decls[a].weapon)]
    for a, t in lapsed:
        out.append(ev.AttackLapsed(a, t, "never in reach along the attack phase's movement (FTC 6.2)"))
        attacks.remove((a, t))
    melee_on: dict[str, list[str]] = {}
    for a, t in attacks:
        if not reach.weapon_of(b.figures[a], decls[a].weapon).ranged:
            melee_on.setdefault(t, []).append(a)
    # Fudge 4.36: who lands a blow first, between two figures striking each other (before any blow)
    speed = _speed_contest(b, [(a, t) for t, atts in melee_on.items() for a in atts], out)
    # FTC 8.3: the touch of a touch spell is a standard attack, so its caster is among the target's melee
    # attackers, whose defences the target must beat too (FTC 6.1, 6.4.1)
    for fid in rollers:
        touched = decls[fid].spell_target
        if (
            touched is not None
            and touched in b.figures
            and declarations.touch_on(decls[fid], touched)
            and b.figures[touched].side != b.figures[fid].side
            and fid not in melee_on.get(touched, [])
        ):
            melee_on.setdefault(touched, []).append(fid)
    # shields cover as many melee attackers as the table allows this round (free attacks in the movement
    # phase included), in the attackers' initiative order (FTC 9.2)
    # (Fudge 4.34: an attacker the target ignores meets no defence, so no shield either)
    shield_vs = {
        t: blows.shield_against(b.figures[t], [a for a in atts if a not in _ignored(decls, t)])
        for t, atts in melee_on.items()
    }
    wounds: list[blows.Wound] = []
    for a_id, t_id in attacks:
        att, tgt = b.figures[a_id], b.figures[t_id]
        d = decls[a_id]
        weapon = reach.weapon_of(att, d.weapon)
        stance = Stance(d.stance)
        dist = figure_distance(att, tgt)
        terms = blows.attack_terms(
            b,
            att,
            tgt,
            weapon,
            stance,
            advance_used=d.advance_used,
            dodges=len(d.dodge),
            firer_defending=bool(melee_on.get(a_id)),
        )
        omods = [*terms.modifiers, *speed_contest.modifier(speed.get((a_id, t_id), 0))]
        difficulty = terms.difficulty
        band = terms.band
        tdecl = decls.get(t_id)
        others: list[tuple[str, int]] = []
        if weapon.ranged:
            defence: int | None = None
            dmods: tuple[Modifier, ...] = ()
            if tdecl is not None and a_id in tdecl.dodge and not tdecl.second_move:
                dmods = blows.dodge_terms(
                    b, t_id, Stance(tdecl.stance), Modifier("range defence bonus", band.defense_bonus if band else 0)
                )
                defence = tgt.character.agility + rolls[t_id] + total(dmods)
        else:
            # Fudge 4.34: a target that ignores this attacker does not defend against him
            if tdecl is None or tdecl.second_move or t_id not in rolls or a_id in tdecl.ignore:
                defence, dmods = None, ()
            else:
                defence, dmods, _ = blows.defence_vs(
                    b, tgt, att, weapon, rolls[t_id], tdecl, shield_ok=a_id in shield_vs.get(t_id, set())
                )
                won = speed_contest.modifier(speed.get((t_id, a_id), 0))
                defence, dmods = defence + total(won), (*dmods, *won)
        # FTC 6.1, 6.4.1: whoever he strikes or shoots, a combatant attacked in melee must defeat all of
        # those attacking him (a firer parries his attackers with his melee weapon)
        parried = reach.melee_weapon(att) if weapon.ranged else weapon
        for o in melee_on.get(a_id, []):
            if o != t_id and o in rolls and o not in d.ignore:  # Fudge 4.34: an ignored attacker need not be beaten
                res, _, _ = blows.defence_vs(
                    b,
                    b.figures[o],
                    att,
                    parried,
                    rolls[o],
                    decls.get(o),
                    shield_ok=a_id in shield_vs.get(o, set()),
                )
                others.append((o, res + speed.get((o, a_id), 0)))
        attacking = blows.Offence(att, weapon, rolls[a_id], omods)
        event, wound = blows.strike(
            b,
            attacking,
            tgt,
            defence,
            dmods,
            others,
            difficulty,
            dist,
            d.aim,
            target_roll=rolls.get(t_id) if defence is not None else None,
            rules=_blow_rules(b, d, t_id),
        )
        if tdecl is not None and a_id in tdecl.ignore:
            step = ev.BlowStep("Fudge 4.34", f"ignored by {tgt.name}", (), "a defence roll", "none")
            event = replace(event, steps=(step, *event.steps))
        out.append(event)
        if wound:
            wounds.append(wound)
        elif weapon.ranged and not event.hit:
            assert terms.line is not None
            out.extend(ranged.stray(b, attacking, tgt, terms.line, rolls, wounds))
    out.extend(spells.resolve(b, rollers, rolls, attacks, melee_on, wounds))
    out.extend(blows.apply_wounds(b, wounds))
    out.extend(blows.disarms(b, out))
    out.extend(spells.damaged(b, wounds))
    out.extend(blows.taken_out(b, b.figures.values()))
    flow.check_over(b, out)
    return out


def _speed_contest(b: BattleState, melee: list[tuple[str, str]], out: list[ev.Event]) -> dict[tuple[str, str], int]:
    """*Fudge* 4.36's Speed contest (rule option ``speed_contest``): each figure of a pair striking each other in
    melee rolls Speed + 4dF once; per pair the winner's bonus against the other, keyed (winner, loser). Nothing
    rolled with the option off."""
    if not b.options.speed_contest:
        return {}
    pairs = speed_contest.pairs(melee)
    results: dict[str, tuple[tuple[int, ...], int]] = {}
    for fid in dict.fromkeys(f for pair in pairs for f in pair):
        faces = dice.roll_faces(b, "speed", fid)
        results[fid] = (faces, effects.speed_of(b, b.figures[fid]) + sum(faces))
    bonuses: dict[tuple[str, str], int] = {}
    for a, t in pairs:
        (fa, ra), (ft, rt) = results[a], results[t]
        winner = a if ra > rt else t if rt > ra else None
        out.append(ev.SpeedContest(a, t, fa, ra, ft, rt, winner, abs(ra - rt)))
        if winner is not None:
            bonuses[(winner, t if winner == a else a)] = abs(ra - rt)
    return bonuses


def _ignored(decls: Mapping[str, Declaration], fid: str) -> tuple[str, ...]:
    """The attackers a figure ignores this round (*Fudge* 4.34)."""
    d = decls.get(fid)
    return d.ignore if d is not None else ()


def _blow_rules(b: BattleState, d: Declaration, target: str) -> BlowRules:
    """The blow's rules of the way (``game.engine.blow``): the battle's, with what the declaration says — a stun
    and the most wound (*Fudge* 4.62), the target's place in a sweeping blow (*Fudge* 4.34)."""
    most = WoundLevel.parse(d.max_wound) if d.max_wound is not None else None
    return rules_of(b.options).for_blow(stun=d.stun, max_wound=most, sweep_place=d.targets.index(target))


def _in_reach(b: BattleState, att: Figure, tgt: Figure, weapon_name: str | None) -> bool:
    """FTC 6.2: whether a melee attack can be made: the target in reach at any point along the two figures'
    attack-phase movement (a missile's range is taken at its most favourable point, ``reach.best_range``).
    Checked at the declaration too, so only an advance blocked at the reveal of secret stances (*Fudge* 4.32)
    leaves a declared attack out of reach."""
    weapon = reach.weapon_of(att, weapon_name)
    return weapon.ranged or reach.reach_along(b, att, reach.moves_of(b, att), tgt, reach.moves_of(b, tgt), weapon)
