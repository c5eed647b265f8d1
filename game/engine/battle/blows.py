"""One attack, from its terms to its wounds (FTC 6.3, 6.4, 6.4.1, 6.6, 7): offence and defence, hit, location,
damage, the Health roll and the wound; hits on the hand that disarm.

The round's resolution (``resolution``), the free attacks on a runner (``movement_phase``), spells that
strike (``spells``), strays (``ranged``) and the odds shown before declaring (``game.engine.preview``)
all make their blows here. This part owns no state: it changes the figures a blow wounds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from game.engine import events as ev
from game.engine import stun
from game.engine.battle import dice, effects, gm_seat, heroes, reach
from game.engine.battle.state import (
    OUT_OF_RANGE,
    AttackTerms,
    BattleState,
    Declaration,
    Figure,
)
from game.engine.blow import (
    FTC,
    BlowRules,
    Harm,
    Strike,
    Target,
    attacker_on,
    attacker_side,
    defender_side,
    extra_factors,
    rules_of,
    where_it_falls,
)
from game.engine.combat import (
    Modifier,
    Stance,
    behind_bonus,
    defence_modifiers,
    firing_modifiers,
    hit_locations,
    is_hit,
    melee_difficulty,
    offence_modifiers,
    relative_degree,
    room_to_swing_modifier,
    total,
)
from game.engine.creatures import kind_modifiers, pierce_defence
from game.engine.damage import (
    HEAD,
    LOCATIONS,
    TORSO,
    Factor,
    crippled_character,
    damage_total,
    defensive_factors,
    disarmed_character,
    graze_scale_difference,
    location_name,
    offensive_factors,
    scale_part,
)
from game.engine.damage_capacity import without_capacity
from game.engine.equipment import Weapon, parry_bonus, parry_penalty
from game.engine.heroes import NOT_RECORDED
from game.engine.hexgrid import Hex, neighbors
from game.engine.lof import LineOfFire, line_of_fire
from game.engine.ranges import firing_angle_modifier, range_band
from game.engine.wounds import WoundLevel, Wounds, graze_cap


class Offence(NamedTuple):
    """FTC 6.3, 6.4: the attacker's side of the opposed roll: who strikes, with what, his roll and his offence
    modifiers; the same for his blow at the target and for a stray shot at a bystander (FTC 6.5.3)."""

    figure: Figure
    weapon: Weapon
    roll: int
    modifiers: Sequence[Modifier]


class Wound(NamedTuple):
    """A wound a blow dealt, before the defender's side of the blow's way (``game.engine.blow`` S8–S13): the
    figure, the damage, the location, the wound level, and the blow's rules; its relative degree and Scale
    difference (read only by *Fudge* 4.52's point step, which reads the wound anew)."""

    figure: Figure
    damage: int
    location: str
    level: int
    rules: BlowRules = FTC
    degree: int = 0
    scale: int = 0


def parrying_weapon(b: BattleState, fid: str) -> Weapon:
    """The weapon a figure defends with in melee (FTC 6.3: its first melee weapon, or its fist), also
    when it shoots (FTC 6.1: a firer attacked in melee parries with it)."""
    return reach.melee_weapon(b.figure(fid))


def shield_uses_left(fig: Figure) -> int:
    """How many more attacks this round the figure's shield may be used against (FTC 9.2, table 9.2: a small
    shield against 1 attack a round, a medium 2, a large 3; the free attacks of FTC 5.3 count too)."""
    shield = fig.character.shield
    per_round = shield.shield_attacks_per_round if shield is not None else 0
    return max(0, per_round - fig.shield_uses)


def shield_against(fig: Figure, attackers: Sequence[str]) -> set[str]:
    """FTC 9.2: the attackers (in the order given) the figure's shield is used against this round, as many
    as it has uses left; those uses are spent (docs/rulings.md "Shields")."""
    shielded = list(attackers[: shield_uses_left(fig)])
    fig.shield_uses += len(shielded)
    return set(shielded)


def melee_defence(
    b: BattleState, defender: str, attacker: str, weapon: Weapon, stance: str = "neutral"
) -> tuple[int, tuple[Modifier, ...]]:
    """The defender's melee defence against ``attacker``'s ``weapon`` with a roll of 0, had it declared
    ``stance`` with its ready weapon (FTC 6.3, 6.4.1, its shield counted): the level and its modifiers,
    computed as the round's resolution computes them (for the odds shown before declaring)."""
    fig = b.figure(defender)
    decl = Declaration(fig.id, stance, (), fig.character.ready_weapon.name)
    level, mods, _ = defence_vs(b, fig, b.figure(attacker), weapon, 0, decl, shield_ok=shield_uses_left(fig) > 0)
    return level, tuple(mods)


def defence_vs(
    b: BattleState,
    defender: Figure,
    attacker: Figure,
    weapon: Weapon,
    roll: int,
    decl: Declaration | None,
    *,
    shield_ok: bool,
    run: bool = False,
) -> tuple[int, tuple[Modifier, ...], bool]:
    """The defender's melee defence result against one attacker (FTC 6.3, 6.4.1)."""
    stance = Stance(decl.stance) if decl else Stance.NEUTRAL
    own = reach.melee_weapon(defender)
    vh = defender.very_hurt_penalty(b.round)
    gm_mods = (*gm_seat.terms(b, defender), *stun.terms(defender.stunned, b.round, "defence"))  # Fudge 4.1, 4.62
    kind = kind_modifiers(defender.character.kind)[1]  # Fudge 4.23: a carnivore defends a level low
    base_mods = (
        *defence_modifiers(
            stance=stance,
            parry_penalty=parry_penalty(own, weapon),
            unwieldy=own.defense_penalty,
            parry_bonus=parry_bonus(own, weapon),
            very_hurt_penalty=vh,
            free_attack_run=run,
        ),
        *kind,
        *effects.modifiers(b, defender, "defence"),
        *gm_mods,
    )
    weapon_result = defender.character.combat_skill(own, b.round) + roll + total(base_mods)
    shield = defender.character.shield_in_use(own)
    if shield_ok and shield is not None:
        mods = (
            *defence_modifiers(stance=stance, shield=shield.defense, very_hurt_penalty=vh, free_attack_run=run),
            *kind,
            *effects.modifiers(b, defender, "defence"),
            *gm_mods,
        )
        shield_result = defender.character.skill_level("Shield", b.round) + roll + total(mods)
        if shield_result > weapon_result:
            return shield_result, mods, True
    return weapon_result, base_mods, False


def strike(
    b: BattleState,
    attacking: Offence,
    tgt: Figure,
    defence: int | None,
    dmods: Sequence[Modifier],
    others: Sequence[tuple[str, int]],
    difficulty: int,
    dist: int,
    aim: str,
    *,
    free: bool = False,
    stray: bool = False,
    skill: int | None = None,
    rules: BlowRules | None = None,
    target_roll: int | None = None,
) -> tuple[ev.AttackResolved, Wound | None]:
    """One attack by ``attacking`` on ``tgt``: hit, relative degree, location, damage (FTC 6.4, 6.6, 7.1–7.3);
    ``skill``: a touch spell's touch skill (FTC 8.3) instead of the weapon's. Once it hits and its location is
    chosen the blow goes the attacker's side of its way (``game.engine.blow``: S3's factors, S4–S7) under
    ``rules`` (None: the battle's options; a declaration's own rules add its ``stun``, ``max_wound``, place in a
    sweep); ``target_roll``: the total of the roll the target defended or dodged with (None: it rolled none)."""
    att, weapon, roll = attacking.figure, attacking.weapon, attacking.roll
    rules = rules_of(b.options) if rules is None else rules
    skill = att.character.combat_skill(weapon, b.round) if skill is None else skill
    offence = skill + roll + total(attacking.modifiers)
    hit = (
        is_hit(offence, [d for d in ([defence] if defence is not None else [])] + [r for _, r in others], difficulty)
        if not stray
        else True
    )
    base: dict[str, Any] = dict(
        attacker=att.id,
        target=tgt.id,
        weapon=weapon.name,
        skill=skill,
        roll=roll,
        offence_mods=tuple((m.name, m.value) for m in attacking.modifiers),
        offence=offence,
        defence=defence,
        defence_mods=tuple((m.name, m.value) for m in dmods),
        other_defences=tuple(others),
        difficulty=difficulty,
        free_attack=free,
        stray=stray,
    )
    if not hit:
        return ev.AttackResolved(**base, hit=False, relative_degree=relative_degree(offence, defence, difficulty)), None
    rd = 0 if stray else relative_degree(offence, defence, difficulty)
    two = att.character.wields_two_handed(weapon)
    piercing = att.character.piercing(weapon)
    scale_difference = graze_scale_difference(att.character, tgt.character, weapon)

    def blow(where: str) -> tuple[tuple[Factor, ...], tuple[Factor, ...], int, WoundLevel | None]:
        off = offensive_factors(
            att.character, weapon, two_handed=two, distance=dist, location=where, target=tgt.character
        )
        dfn = defensive_factors(tgt.character, weapon, location=where)
        off, dfn = effects.damage_factors(b, att, tgt, weapon, where, off, dfn)
        dfn = without_capacity(rules, dfn)  # Fudge 4.52: rolled (or ignored) instead of counted
        off_x, dfn_x = extra_factors(rules, att.character, tgt.character, weapon, where)  # S3, the rule options'
        off, dfn = (*off, *off_x), (*dfn, *dfn_x)
        if piercing is not None:  # Fudge 4.58: a solid blow pierces the Mass Scale
            dfn = pierce_defence(dfn, rd, "halve" if piercing == "halve" else "ignore")
        multiplier = tgt.character.wound_track.degree_multiplier
        if multiplier != 1 and rd:
            # Fudge 4.55: on a track made for a doubled relative degree the degree counts twice (said as a factor)
            off = (*off, Factor(f"relative degree x{multiplier} (Fudge 4.55)", rd * (multiplier - 1)))
        dmg = damage_total(rd, off, dfn)
        level = tgt.character.wound_track.level_for_damage(dmg)
        # Fudge 4.56's graze table reads the damage number and the Scale difference: pass both
        capped = (
            graze_cap(
                level,
                rd,
                fudge_graze_table=b.options.fudge_graze_table,
                damage=dmg,
                scale_difference=scale_difference,
            )
            if level
            else None
        )
        return off, dfn, dmg, capped

    # FTC 6.6: where the blow falls — the aimed location if the result opens it, or for "best" the one
    # giving the worst wound after armour (damage.choose_location, as the odds preview reads it)
    allowed = hit_locations(offence, defence) if not stray else (TORSO,)
    by_location = {
        where: blow(where)
        for where in LOCATIONS
        if where in {location_name(a) for a in allowed} and (where != HEAD or tgt.character.has_head)
    }
    track = tgt.character.wound_track
    levels = {where: blown[3] for where, blown in by_location.items()}
    factors = {where: blown[2] - rd * track.degree_multiplier for where, blown in by_location.items()}
    location = where_it_falls(rules, aim, allowed, levels, factors, rd)
    off, dfn, dmg, level = by_location[location]
    steps: tuple[ev.BlowStep, ...] = ()
    if attacker_on(rules):  # S4-S7: the rule options' steps (none under FTC as written: no draw, no line)
        strike_facts = Strike(
            rules,
            rd,
            location,
            track,
            scale_difference,
            None if stray else roll,  # a stray won no opposed roll
            target_roll,
            att.id,
            tgt.id,
            scale_part=scale_part(off, dfn),
        )
        harm, steps = attacker_side(strike_facts, Harm(dmg, level), dice.blow_dice(b))
        dmg, level = harm.number, harm.level
    event = ev.AttackResolved(
        **base,
        hit=True,
        relative_degree=rd,
        location=location,
        offensive_factors=tuple((f.name, f.value) for f in off),
        defensive_factors=tuple((f.name, f.value) for f in dfn),
        damage=dmg,
        wound=str(level) if level else None,
        steps=steps,
    )
    return event, (Wound(tgt, dmg, location, int(level), rules, rd, scale_difference) if level else None)


def disarms(b: BattleState, events: Sequence[ev.Event]) -> list[ev.Event]:
    """FTC 6.6: "If the weapon hand is hit, this will usually disarm the opponent": every hit on a hand
    among ``events`` drops the target's ready weapon, after all the round's blows (FTC 6.4). The GM's
    judgement is Edit gear (``docs/rulings.md`` "Hit location")."""
    out: list[ev.Event] = []
    for e in events:
        if not (isinstance(e, ev.AttackResolved) and e.hit and e.location == "hand"):
            continue
        fig = b.figures[e.target]
        if not fig.character.weapons:
            continue  # bare hands: nothing to drop
        dropped = fig.character.ready_weapon.name
        fig.character = disarmed_character(fig.character)
        out.append(ev.Disarmed(fig.id, dropped, fig.character.ready_weapon.name))
    return out


def apply_wounds(b: BattleState, wounds: Sequence[Wound]) -> list[ev.Event]:
    """FTC 7.3–7.4, 6.6: each wound goes the defender's side of the blow's way (``game.engine.blow`` S8–S13):
    the Health roll, the limb cap and crippling, the next open box, and the rule options' steps."""
    out: list[ev.Event] = []
    for fig, dmg, location, lv, rules, degree, scale in wounds:
        level = WoundLevel(lv)
        defender = heroes.defender_of(b, fig)
        target = Target(
            rules, location, fig.wounds, fig.character.health, fig.id, (), defender, degree, scale, stuns=fig.stuns
        )
        harm, steps = defender_side(target, Harm(dmg, level), dice.blow_dice(b))
        if harm.kind == "stun":
            out.append(stunned(b, fig, harm))
            continue
        crippled = location if harm.crippled else None
        if crippled:
            # FTC 6.6: crippled for the rest of the fight (the effects: docs/rulings.md "Hit location")
            fig.crippled = (*fig.crippled, location)
            fig.character = crippled_character(fig.character, location)
        assert harm.sheet is not None and harm.level is not None
        fig.wounds, box = harm.sheet, harm.marked
        # FTC 6.4: the round a figure first becomes Very Hurt it fights on unhindered; later wounds
        # do not postpone a penalty that already applies
        if box is not None and box >= WoundLevel.VERY_HURT and fig.very_hurt_from_round is None:
            fig.very_hurt_from_round = b.round
        result = harm.roll_result if harm.roll_result is not None else fig.character.health
        shown = str(box) if box is not None else NOT_RECORDED  # Fudge 4.64: the excess lost
        out.append(
            ev.Wounded(
                fig.id,
                dmg,
                str(level),
                harm.roll_faces,
                result,
                str(harm.level),
                shown,
                crippled,
                steps=steps,
                trait=harm.trait,
            )
        )
        out.extend(heroes.after_wound(b, fig, target, harm, steps))
    return out


def stunned(b: BattleState, fig: Figure, harm: Harm) -> ev.Stunned:
    """*Fudge* 4.62: a stunning blow marks the figure's stun sheet (``stun.StunOrRecord`` read the result): a Stun
    or Very Stunned hinders the next round(s), a knockout takes it out with nothing to heal; a Scratch does
    nothing."""
    result = stun.result_of(harm.marked)
    rounds: tuple[int, ...] = ()
    if result is not None:
        fig.stuns, _ = fig.stuns.record(stun.level_of(result))
        rounds = stun.hindered_rounds(result, b.round)
        fig.stunned = (*fig.stunned, *((r, result) for r in rounds))
    result_name = result if result is not None else ""
    health = harm.roll_result if harm.roll_result is not None else fig.character.health
    return ev.Stunned(fig.id, str(harm.level), result_name, rounds, harm.roll_faces, health)


def attack_terms(
    b: BattleState,
    att: Figure,
    tgt: Figure,
    weapon: Weapon,
    stance: Stance,
    *,
    advance_used: int = 0,
    dodges: int = 0,
    positions: Sequence[tuple[Hex, int]] | None = None,
    phase_start: Hex | None = None,
    firer_defending: bool = False,
) -> AttackTerms:
    """The named offence modifiers and the absolute difficulty of one attack, and for a missile its range
    band and line of fire (FTC 6.4, 6.4.1, 6.5, tables 4 and 7; 9.1 "needs room to swing").

    The round's resolution and the odds shown before a declaration both come from here (docs/architecture.md "One
    source of legality"). ``positions`` / ``phase_start`` default to the attacker's attack-phase movement so far;
    the preview passes a planned advance instead.
    """
    positions = att.positions if positions is None else positions
    start = att.phase_start_hex if phase_start is None else phase_start
    behind = 0
    if not weapon.ranged:
        # FTC 6.2, Figure 2: the most favourable position along *both* figures' movement, and FTC 6.4.1:
        # only a position from which the blow can land (the target in reach) counts
        behind = max(
            (
                behind_bonus(h, th, tf, attacker_phase_start=start, moved_this_attack_phase=(h != start))
                for h, f in positions
                for th, tf in reach.moves_of(b, tgt)
                if h != th and reach.reach_ok(b, h, f, th, weapon, size=att.size, target=(tgt.size, tf))
            ),
            default=0,
        )
    mods = list(
        offence_modifiers(
            stance=stance,
            advance_hexes_used=advance_used,
            behind=behind,
            very_hurt_penalty=att.very_hurt_penalty(b.round),
            missile_dodges=dodges,
        )
    )
    mods += kind_modifiers(att.character.kind)[0]  # Fudge 4.23: prey attacks a level low
    mods += gm_seat.terms(b, att)
    if not weapon.ranged:
        if weapon.needs_room:
            mods += room_to_swing_modifier(_crowding(b, att, tgt))
        mods += effects.attack_modifiers(b, att, tgt.hex)
        return AttackTerms(tuple(mods), melee_difficulty(att.character.mass_scale, tgt.character.mass_scale))
    aim, dist = reach.aim(b, att, tgt)
    lof: LineOfFire[str] = line_of_fire(b.terrain, att.hex, aim, occupants=reach.lof_occupants(b))
    # FTC 6.2: the range at the most favourable point of both movements (a retreat does not undo the shot)
    band = range_band(weapon, min(dist, reach.best_range(b, att, tgt)), tgt.character.mass_scale)
    mods += firing_modifiers(
        moved_fraction=reach.moved_fraction(att),
        firer_defending=firer_defending,
        elevation_angle_modifier=firing_angle_modifier(
            b.terrain.elevation_at(att.hex), b.terrain.elevation_at(aim), dist
        ),
        footing=gm_seat.footing_at(b, att.hex),
        light=gm_seat.light_at(b, att.hex),
        partial_cover=lof.partial_cover,
    )
    if b.terrain.cover_at(aim):
        mods.append(Modifier("target in cover", b.terrain.cover_at(aim)))
    mods += effects.attack_modifiers(b, att, aim)
    return AttackTerms(tuple(mods), band.difficulty if band else OUT_OF_RANGE, band, lof)


def dodge_terms(b: BattleState, fid: str, stance: Stance, bonus: Modifier | None = None) -> tuple[Modifier, ...]:
    """The modifiers of a figure dodging a missile or a spell with Agility (FTC 6.5.2): its stance (table
    4) and Very Hurt (FTC 6.4.1), ``bonus`` (table 8's range defence bonus, or a bolt's on the spell's
    difficulty; FTC 8.3), the spells on it (a Ward), the GM's modifiers (*Fudge* 4.1). A direct shot, a
    bolt and a stray (FTC 6.5.3, which adds its own +3) all dodge with these terms."""
    fig = b.figure(fid)
    return (
        *defence_modifiers(stance=stance, very_hurt_penalty=fig.very_hurt_penalty(b.round)),
        *((bonus,) if bonus is not None else ()),
        *effects.modifiers(b, fig, "defence"),
        *gm_seat.terms(b, fig),
        *stun.terms(fig.stunned, b.round, "defence"),
    )


def _crowding(b: BattleState, fig: Figure, target: Figure) -> int:
    """How many of a figure's adjacent hexes hold a wall or another figure, the target not counted."""
    mode = fig.character.movement_modes[0]
    return sum(
        1
        for h in neighbors(fig.hex)
        if h != target.hex and (not b.terrain.is_passable(h, mode) or _other_occupant(b, h, fig, target))
    )


def _other_occupant(b: BattleState, h: Hex, *figs: Figure) -> bool:
    occ = b.occupant(h)
    return occ is not None and all(occ is not f for f in figs)


def healed(fig: Figure, wounds: Wounds) -> None:
    """A figure's wounds healed in battle (the Heal Wound spell, FTC 8; *Fudge* 4.8): below Very Hurt, the
    round it first became Very Hurt is forgotten, so a Very Hurt wound taken again counts from the round
    after that one (FTC 6.4), as after the GM's wound edit."""
    fig.wounds = wounds
    worst = wounds.worst
    if worst is None or worst < WoundLevel.VERY_HURT:
        fig.very_hurt_from_round = None


def taken_out(b: BattleState, figures: Iterable[Figure]) -> list[ev.Event]:
    """FTC 6.4, 7.3: each of ``figures`` no longer able to fight is out of the fight, after all the blows
    that were struck at once."""
    out: list[ev.Event] = []
    for f in figures:
        if not f.can_act and not f.out:
            f.out = True
            out.append(ev.TakenOut(f.id, stun.KNOCKED_OUT if f.stuns.knocked_out else f.wounds.label))
    return out
