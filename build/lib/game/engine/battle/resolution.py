"""The round's attacks resolved (FTC 6.3, 6.4, 6.4.1, 7).

One roll each, every attack compared with its defence at once (FTC 6.4), with the multiple-attackers
rule: an attack must beat the defence of every engaged opponent of the attacker (FTC 6.4.1, "Defending
Against Multiple Attackers"); then damage for all (FTC 7) before anyone is taken out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.engine import events as ev
from game.engine.battle.state import (
    OUT_OF_RANGE,
    AttackTerms,
    BattleState,
    Declaration,
    Figure,
)
from game.engine.combat import (
    Modifier,
    MovedFraction,
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
    choose_location,
    crippled_character,
    damage_total,
    defensive_factors,
    disarmed_character,
    graze_scale_difference,
    is_limb,
    limb_wound,
    location_name,
    offensive_factors,
)
from game.engine.equipment import Weapon, parry_bonus, parry_penalty
from game.engine.equipment import weapon as equipment_weapon
from game.engine.hexgrid import (
    Hex,
    neighbors,
)
from game.engine.lof import LineOfFire, line_of_fire
from game.engine.ranges import firing_angle_modifier, range_band
from game.engine.wounds import WoundLevel, apply_health_roll, graze_cap


class Resolution(BattleState):
    """FTC 6.3, 6.4, 6.4.1, 7: resolving the round's attacks and applying their damage."""

    # ---- attack phase: resolution (FTC 6.3–7.4)
    def _combat_skill(self, fig: Figure, weapon: Weapon | None = None) -> int:
        return fig.character.combat_skill(weapon or fig.character.ready_weapon)

    def _melee_weapon(self, fig: Figure) -> Weapon:
        for w in fig.character.weapons:
            if not w.ranged:
                return w
        return equipment_weapon("Fist")

    def parrying_weapon(self, fid: str) -> Weapon:
        """The weapon a figure defends with in melee (FTC 6.3: its first melee weapon, or its fist), also
        when it shoots (FTC 6.1: a firer attacked in melee parries with it)."""
        return self._melee_weapon(self.figure(fid))

    def melee_defence(
        self, defender: str, attacker: str, weapon: Weapon, stance: str = "neutral"
    ) -> tuple[int, tuple[Modifier, ...]]:
        """The defender's melee defence against ``attacker``'s ``weapon`` with a roll of 0, had it declared
        ``stance`` with its ready weapon (FTC 6.3, 6.4.1, its shield counted): the level and its modifiers,
        computed as the round's resolution computes them (for the odds shown before declaring)."""
        fig = self.figure(defender)
        decl = Declaration(fig.id, stance, (), fig.character.ready_weapon.name)
        level, mods, _ = self._defence_vs(fig, self.figure(attacker), weapon, 0, decl, shield_ok=True)
        return level, tuple(mods)

    def _defence_vs(
        self,
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
        own = self._melee_weapon(defender)
        vh = defender.very_hurt_penalty(self.round)
        gm_mods = self.gm_terms(defender)
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
            *self._magic_mods(defender, "defence"),
            *gm_mods,
        )
        weapon_result = defender.character.combat_skill(own) + roll + total(base_mods)
        shield = defender.character.shield_in_use(own)
        if shield_ok and shield is not None:
            mods = (
                *defence_modifiers(stance=stance, shield=shield.defense, very_hurt_penalty=vh, free_attack_run=run),
                *kind,
                *self._magic_mods(defender, "defence"),
                *gm_mods,
            )
            shield_result = defender.character.skill_level("Shield") + roll + total(mods)
            if shield_result > weapon_result:
                return shield_result, mods, True
        return weapon_result, base_mods, False

    def _strike(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        roll: int,
        omods: Sequence[Modifier],
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
    ) -> tuple[ev.AttackResolved, tuple[Figure, int, str, int] | None]:
        """One attack: hit, relative degree, location, damage (FTC 6.4, 6.6, 7.1–7.3); ``skill``: a touch
        spell's touch skill (FTC 8.3) instead of the weapon's."""
        skill = att.character.combat_skill(weapon) if skill is None else skill
        offence = skill + roll + total(omods)
        hit = (
            is_hit(
                offence, [d for d in ([defence] if defence is not None else [])] + [r for _, r in others], difficulty
            )
            if not stray
            else True
        )
        base: dict[str, Any] = dict(
            attacker=att.id,
            target=tgt.id,
            weapon=weapon.name,
            skill=skill,
            roll=roll,
            offence_mods=tuple((m.name, m.value) for m in omods),
            offence=offence,
            defence=defence,
            defence_mods=tuple((m.name, m.value) for m in dmods),
            other_defences=tuple(others),
            difficulty=difficulty,
            free_attack=free,
            stray=stray,
        )
        if not hit:
            return ev.AttackResolved(
                **base, hit=False, relative_degree=relative_degree(offence, defence, difficulty)
            ), None
        rd = 0 if stray else relative_degree(offence, defence, difficulty)
        two = att.character.wields_two_handed(weapon)
        piercing = att.character.piercing(weapon)
        scale_difference = graze_scale_difference(att.character, tgt.character, weapon)

        def blow(where: str) -> tuple[tuple[Factor, ...], tuple[Factor, ...], int, WoundLevel | None]:
            off = offensive_factors(
                att.character, weapon, two_handed=two, distance=dist, location=where, target=tgt.character
            )
            dfn = defensive_factors(tgt.character, weapon, location=where)
            off, dfn = self._magic_factors(att, tgt, weapon, where, off, dfn)
            if piercing is not None:  # Fudge 4.58: a solid blow pierces the Mass Scale
                dfn = pierce_defence(dfn, rd, "halve" if piercing == "halve" else "ignore")
            dmg = damage_total(rd, off, dfn)
            level = tgt.character.wound_track.level_for_damage(dmg)
            # Fudge 4.56's graze table reads the damage number and the Scale difference: pass both
            capped = (
                graze_cap(
                    level,
                    rd,
                    fudge_graze_table=self.options.fudge_graze_table,
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
        blows = {
            where: blow(where)
            for where in LOCATIONS
            if where in {location_name(a) for a in allowed} and (where != HEAD or tgt.character.has_head)
        }
        location = choose_location(aim, allowed, {where: b[3] for where, b in blows.items()})
        off, dfn, dmg, level = blows[location]
        event = ev.AttackResolved(
            **base,
            hit=True,
            relative_degree=rd,
            location=location,
            offensive_factors=tuple((f.name, f.value) for f in off),
            defensive_factors=tuple((f.name, f.value) for f in dfn),
            damage=dmg,
            wound=str(level) if level else None,
        )
        return event, ((tgt, dmg, location, int(level)) if level else None)

    def _disarms(self, events: Sequence[ev.Event]) -> list[ev.Event]:
        """FTC 6.6: "If the weapon hand is hit, this will usually disarm the opponent": every hit on a hand
        among ``events`` drops the target's ready weapon, after all the round's blows (FTC 6.4). The GM's
        judgement is Edit gear (``docs/rulings.md`` "Hit location")."""
        out: list[ev.Event] = []
        for e in events:
            if not (isinstance(e, ev.AttackResolved) and e.hit and e.location == "hand"):
                continue
            fig = self.figures[e.target]
            if not fig.character.weapons:
                continue  # bare hands: nothing to drop
            dropped = fig.character.ready_weapon.name
            fig.character = disarmed_character(fig.character)
            out.append(ev.Disarmed(fig.id, dropped, fig.character.ready_weapon.name))
        return out

    def _apply_wounds(self, wounds: Sequence[tuple[Figure, int, str, int]]) -> list[ev.Event]:
        """FTC 7.3–7.4, 6.6: Health roll on each wound, limb cap, then the next open box."""
        out: list[ev.Event] = []
        for fig, dmg, location, lv in wounds:
            level = WoundLevel(lv)
            roll = self._roll("health", fig.id)
            health = fig.character.health + roll.total
            after = apply_health_roll(level, health)
            crippled = None
            if is_limb(location):
                after, is_crippled = limb_wound(after, health)
                crippled = location if is_crippled else None
                if crippled:
                    # FTC 6.6: crippled for the rest of the fight (the effects: docs/rulings.md "Hit location")
                    fig.crippled = (*fig.crippled, location)
                    fig.character = crippled_character(fig.character, location)
            fig.wounds, box = fig.wounds.record(after)
            # FTC 6.4: the round a figure first becomes Very Hurt it fights on unhindered; later wounds
            # do not postpone a penalty that already applies
            if box >= WoundLevel.VERY_HURT and fig.very_hurt_from_round is None:
                fig.very_hurt_from_round = self.round
            out.append(ev.Wounded(fig.id, dmg, str(level), roll.faces, health, str(after), str(box), crippled))
        return out

    def _resolve_round(self) -> list[ev.Event]:
        """FTC 6.3–6.5: one roll each, every attack resolved, all damage applied, then take-outs."""
        out: list[ev.Event] = []
        decls = self._declarations
        rollers = [
            fid for fid in self.order if fid in decls and not decls[fid].second_move and self.figures[fid].can_act
        ]
        rolls: dict[str, int] = {}
        for fid in rollers:
            faces = self._roll_faces.get(fid)  # FTC 8.1: rolled already for a 1-second spell
            if faces is None:
                faces = self._roll_faces[fid] = self._roll("combat", fid).faces
            rolls[fid] = sum(faces)
            out.append(ev.CombatRoll(fid, faces))
        attacks = [(fid, t) for fid in rollers for t in decls[fid].targets if self.figures[t].can_act]
        melee_on: dict[str, list[str]] = {}
        for a, t in attacks:
            if not self._weapon_of(self.figures[a], decls[a].weapon).ranged:
                melee_on.setdefault(t, []).append(a)
        # FTC 8.3: the touch of a touch spell is a standard attack, so its caster is among the target's melee
        # attackers, whose defences the target must beat too (FTC 6.1, 6.4.1)
        for fid in rollers:
            touched = decls[fid].spell_target
            if (
                touched is not None
                and touched in self.figures
                and self._touch_on(decls[fid], touched)
                and self.figures[touched].side != self.figures[fid].side
                and fid not in melee_on.get(touched, [])
            ):
                melee_on.setdefault(touched, []).append(fid)
        # shields cover as many melee attackers as the table allows, in the attackers' initiative order
        shield_vs: dict[str, set[str]] = {}
        for t, atts in melee_on.items():
            sh = self.figures[t].character.shield
            n = sh.shield_attacks_per_round if sh is not None else 0
            shield_vs[t] = set(atts[:n])
        wounds: list[tuple[Figure, int, str, int]] = []
        for a_id, t_id in attacks:
            att, tgt = self.figures[a_id], self.figures[t_id]
            d = decls[a_id]
            weapon = self._weapon_of(att, d.weapon)
            stance = Stance(d.stance)
            dist = self._distance(att, tgt)
            terms = self.attack_terms(
                att,
                tgt,
                weapon,
                stance,
                advance_used=d.advance_used,
                dodges=len(d.dodge),
                firer_defending=bool(melee_on.get(a_id)),
            )
            omods = list(terms.modifiers)
            difficulty = terms.difficulty
            band = terms.band
            tdecl = decls.get(t_id)
            others: list[tuple[str, int]] = []
            if weapon.ranged:
                defence: int | None = None
                dmods: tuple[Modifier, ...] = ()
                if tdecl is not None and a_id in tdecl.dodge and not tdecl.second_move:
                    dmods = self.dodge_terms(
                        t_id, Stance(tdecl.stance), Modifier("range defence bonus", band.defense_bonus if band else 0)
                    )
                    defence = tgt.character.agility + rolls[t_id] + total(dmods)
            else:
                if tdecl is None or tdecl.second_move or t_id not in rolls:
                    defence, dmods = None, ()
                else:
                    defence, dmods, _ = self._defence_vs(
                        tgt, att, weapon, rolls[t_id], tdecl, shield_ok=a_id in shield_vs.get(t_id, set())
                    )
            # FTC 6.1, 6.4.1: whoever he strikes or shoots, a combatant attacked in melee must defeat all of
            # those attacking him (a firer parries his attackers with his melee weapon)
            parried = self._melee_weapon(att) if weapon.ranged else weapon
            for o in melee_on.get(a_id, []):
                if o != t_id and o in rolls:
                    res, _, _ = self._defence_vs(
                        self.figures[o],
                        att,
                        parried,
                        rolls[o],
                        decls.get(o),
                        shield_ok=a_id in shield_vs.get(o, set()),
                    )
                    others.append((o, res))
            event, wound = self._strike(
                att, tgt, weapon, rolls[a_id], omods, defence, dmods, others, difficulty, dist, d.aim
            )
            out.append(event)
            if wound:
                wounds.append(wound)
            elif weapon.ranged and not event.hit:
                assert terms.line is not None
                out.extend(self._stray(att, tgt, weapon, rolls[a_id], omods, terms.line, rolls, wounds))
        out.extend(self._magic_resolve(rollers, rolls, attacks, melee_on, wounds))
        out.extend(self._apply_wounds(wounds))
        out.extend(self._disarms(out))
        out.extend(self._magic_damaged(wounds))
        for f in self.figures.values():
            if not f.can_act and not f.out:
                f.out = True
                out.append(ev.TakenOut(f.id, f.wounds.label))
        if self._check_over(out):
            return out
        out.extend(self._begin_round())
        return out

    def attack_terms(
        self,
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
                    for th, tf in self._moves_of(tgt)
                    if h != th and self._reach_ok(h, f, th, weapon, size=att.size, target=(tgt.size, tf))
                ),
                default=0,
            )
        mods = list(
            offence_modifiers(
                stance=stance,
                advance_hexes_used=advance_used,
                behind=behind,
                very_hurt_penalty=att.very_hurt_penalty(self.round),
                missile_dodges=dodges,
            )
        )
        mods += kind_modifiers(att.character.kind)[0]  # Fudge 4.23: prey attacks a level low
        mods += self.gm_terms(att)
        if not weapon.ranged:
            if weapon.needs_room:
                mods += room_to_swing_modifier(self._crowding(att, tgt))
            mods += self._magic_attack_mods(att, tgt.hex)
            return AttackTerms(tuple(mods), melee_difficulty(att.character.mass_scale, tgt.character.mass_scale))
        aim, dist = self._aim(att, tgt)
        # every hex a figure covers is on the map of occupants: a large figure in the way is at risk
        occupants = {
            h: f.id for f in self.figures.values() if f.can_act for h in ((f.hex,) if f.size == 1 else f.cells)
        }
        lof: LineOfFire[str] = line_of_fire(self.terrain, att.hex, aim, occupants=occupants)
        # FTC 6.2: the range at the most favourable point of both movements (a retreat does not undo the shot)
        band = range_band(weapon, min(dist, self._best_range(att, tgt)), tgt.character.mass_scale)
        moved: MovedFraction = (
            "none" if att.hexes_moved == 0 else "half" if 2 * att.hexes_moved <= att.allowance else "full"
        )
        mods += firing_modifiers(
            moved_fraction=moved,
            firer_defending=firer_defending,
            elevation_angle_modifier=firing_angle_modifier(
                self.terrain.elevation_at(att.hex), self.terrain.elevation_at(aim), dist
            ),
            footing=self.footing_at(att.hex),
            light=self.light_at(att.hex),
            partial_cover=lof.partial_cover,
        )
        if self.terrain.cover_at(aim):
            mods.append(Modifier("target in cover", self.terrain.cover_at(aim)))
        mods += self._magic_attack_mods(att, aim)
        return AttackTerms(tuple(mods), band.difficulty if band else OUT_OF_RANGE, band, lof)

    def dodge_terms(self, fid: str, stance: Stance, bonus: Modifier | None = None) -> tuple[Modifier, ...]:
        """The modifiers of a figure dodging a missile or a spell with Agility (FTC 6.5.2): its stance (table
        4) and Very Hurt (FTC 6.4.1), ``bonus`` (table 8's range defence bonus, or a bolt's on the spell's
        difficulty; FTC 8.3), the spells on it (a Ward), the GM's modifiers (*Fudge* 4.1). A direct shot, a
        bolt and a stray (FTC 6.5.3, which adds its own +3) all dodge with these terms."""
        fig = self.figure(fid)
        return (
            *defence_modifiers(stance=stance, very_hurt_penalty=fig.very_hurt_penalty(self.round)),
            *((bonus,) if bonus is not None else ()),
            *self._magic_mods(fig, "defence"),
            *self.gm_terms(fig),
        )

    def _crowding(self, fig: Figure, target: Figure) -> int:
        """How many of a figure's adjacent hexes hold a wall or another figure, the target not counted."""
        mode = fig.character.movement_modes[0]
        return sum(
            1
            for h in neighbors(fig.hex)
            if h != target.hex and (not self.terrain.is_passable(h, mode) or self._other_occupant(h, fig, target))
        )

    def _other_occupant(self, h: Hex, *figs: Figure) -> bool:
        occ = self.occupant(h)
        return occ is not None and all(occ is not f for f in figs)
