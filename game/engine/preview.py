"""Exact odds shown before a decision is committed (FTC 5.3, 6.3–7.4, 8.1, 8.3; tables 4, 7 and 9).

``preview(battle, action)`` gives the odds of a declaration the screen is about to send: an
``AttackPreview`` for a weapon attack, a ``SpellPreview`` for a casting. It reads the battle's state and
feeds ``game.engine.odds`` the same terms the battle's resolution will use (``Battle.attack_terms``,
``Battle.melee_defence``, ``Battle.spell_terms``: skill, stance, advance, behind bonus, Very Hurt, missile
dodges, shield and parry, range difficulty, firing modifiers, cover, damage factors, the target's Health
roll). What cannot be known at declaration time — the target's secret stance, who else will attack the
attacker — is named in ``assumptions`` so the player can judge. The screen and the computer players use
these and nothing private of the battle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.battle import AttackTerms, Battle, Figure
from game.engine.blow import extra_factors, rules_of
from game.engine.combat import (
    Modifier,
    Stance,
    melee_difficulty,
    total,
)
from game.engine.damage import damage_bases, graze_scale_difference, offensive_factors
from game.engine.damage_capacity import dropped_capacity, without_capacity
from game.engine.dice import D6_FACES, FOUR_DF, d6_key, prob_at_least, prob_at_most
from game.engine.equipment import Weapon
from game.engine.heroes import assumptions as hero_assumptions
from game.engine.hexgrid import Hex, direction_to, distance
from game.engine.lof import LineOfFire
from game.engine.movement import Reach
from game.engine.npc_rolls import RollKind
from game.engine.odds import (
    AIMS,
    Aim,
    Outcome,
    escape_probability,
    hit_chance,
    hit_probability,
    miss_probabilities,
    outcome_distribution,
)
from game.engine.preview_options import combat_rolls, speed_mixture
from game.engine.rule_options import ROLL_OWNERS, rolls_drawn
from game.engine.set_dice import set_faces, set_total, set_totals
from game.engine.wounds import WoundLevel


@dataclass(frozen=True)
class StanceColumn:
    """One stance in the side-by-side comparison (table 4, FTC 6.1.1)."""

    stance: Stance
    hit: Fraction | None
    """The chance to hit in this stance; None when the target is out of reach in it (the advance it allows
    does not bring the figure to the target, FTC 6.2)."""
    distribution: Mapping[Outcome, Fraction]
    risk: Fraction | None
    """Chance that the most dangerous incoming attacker hits this figure (None: nobody threatens it)."""


@dataclass(frozen=True)
class Bystander:
    """A figure on the line of fire a miss may hit (FTC 6.5.3, table 9)."""

    figure: str
    friend: bool
    chance: Fraction
    """P(the shot misses) × P(the miss table picks this figure's group) ÷ the group's size."""


@dataclass(frozen=True)
class AttackPreview:
    """Everything the declaration panel shows for one attack (FTC 6.4–7)."""

    attacker: str
    target: str
    weapon: str
    ranged: bool
    skill: int
    offence_mods: tuple[Modifier, ...]
    offence: int
    defence: int | None
    defence_mods: tuple[Modifier, ...]
    difficulty: int
    damage_base: int
    distribution: Mapping[Outcome, Fraction]
    hit: Fraction
    stances: tuple[StanceColumn, ...] = ()
    line: LineOfFire[str] | None = None
    bystanders: tuple[Bystander, ...] = ()
    assumptions: tuple[str, ...] = field(default_factory=tuple)
    reachable: bool = True
    """Whether the target can be attacked as declared (FTC 6.2 reach from the planned advance, FTC 6.5 range
    and line of fire): when False ``apply`` refuses the declaration, and the odds are only what they would be."""
    dodging: bool | None = None
    """A missile's target: True when it has declared a dodge against the firer (``defence`` is that dodge,
    FTC 6.5.2), False when it has declared without one, None when its declaration is not known yet."""
    sweep: tuple[AttackPreview, ...] = ()
    """*Fudge* 4.34: a sweeping blow's other foes, in order, each previewed with its place's damage; one roll
    decides every foe of the sweep, so these are each foe's own chances, not independent of one another."""


def weapon_named(fig: Figure, name: str | None) -> Weapon:
    """The figure's weapon of that name (its ready weapon when None)."""
    if name is not None:
        for w in fig.character.weapons:
            if w.name.lower() == name.lower():
                return w
    return fig.character.ready_weapon


def public_declarations(battle: Battle) -> dict[str, ev.Declared]:
    """Declarations of this attack phase that every player has seen (never a hidden one)."""
    out: dict[str, ev.Declared] = {}
    for e in reversed(battle.events):
        if isinstance(e, ev.PhaseBegan):
            break
        if isinstance(e, ev.Declared) and not e.hidden:
            out.setdefault(e.figure, e)
    return out


def _advanced(battle: Battle, fid: str) -> int:
    """How many hexes a figure has advanced this attack phase (FTC 6.2), from the steps every player saw."""
    n = 0
    for e in reversed(battle.events):
        if isinstance(e, ev.PhaseBegan):
            break
        if isinstance(e, ev.Stepped) and e.figure == fid and e.reason == "advance":
            n += 1
    return n


class _SetRolls:
    """The rolls the GM set by hand that the odds may count (*Fudge* 4.1: only the GM's seat knows them),
    taken in the order the battle will take them."""

    def __init__(self, battle: Battle, known: bool) -> None:
        self.battle = battle
        self.known = known
        self.used: dict[tuple[str, str], int] = {}

    def peek(self, purpose: str, fid: str) -> int | None:
        """The total of the figure's next roll of ``purpose`` if the GM set it (and the viewer may know)."""
        return set_total(self.battle, purpose, fid) if self.known else None

    def faces(self, purpose: str, fid: str) -> tuple[int, ...] | None:
        """The faces of the figure's next roll of ``purpose`` if the GM set it (and the viewer may know)."""
        return set_faces(self.battle, purpose, fid) if self.known else None

    def take(self, purpose: str, fid: str) -> int | None:
        """The next unused set roll of ``purpose`` for the figure (for a chain of rolls, e.g. escapes)."""
        if not self.known:
            return None
        k = self.used.get((purpose, fid), 0)
        totals = set_totals(self.battle, purpose, fid)
        self.used[(purpose, fid)] = k + 1
        return totals[k] if k < len(totals) else None


def _option_rolls(
    battle: Battle, dice: _SetRolls, att: Figure, tgt: Figure, assumptions: list[str]
) -> tuple[tuple[str, int], ...]:
    """The rule options' rolls of a blow the GM set by hand (their owner's, ``rule_options.ROLL_OWNERS``), each
    named among the assumptions as the Health roll is."""
    out: list[tuple[str, int]] = []
    for purpose in rolls_drawn(battle.options):
        owner = {"attacker": att, "target": tgt}.get(ROLL_OWNERS[purpose])
        faces = dice.faces(purpose, owner.id) if owner is not None else None
        if owner is None or faces is None:
            continue
        what = purpose.replace("_", " ")
        if gm.DIE_PURPOSES[purpose][1] == D6_FACES:  # read die by die (Fudge 4.63): the odds carry every face
            out.append((purpose, d6_key(faces)))
            shown = "[" + " ".join(str(f) for f in faces) + "]"
        else:
            out.append((purpose, sum(faces)))
            shown = f"{sum(faces):+d}"
        assumptions.append(f"The GM set {owner.name}'s {what} roll by hand to {shown}: these odds count it.")
    return tuple(out)


def _incoming_risk(
    battle: Battle,
    fig: Figure,
    stance: Stance,
    public: Mapping[str, ev.Declared],
    dice: _SetRolls,
    ignore: Sequence[str] = (),
    contest: tuple[str, Mapping[int, Fraction]] | None = None,
) -> Fraction | None:
    """The chance that the most dangerous enemy attacking ``fig`` in melee hits it in ``stance`` (table 4's
    defence bonus; FTC 6.4): every enemy whose declaration (seen by every player) attacks it, and every enemy
    not known to have declared who has it in reach now, each with the terms the resolution will use
    (``Battle.attack_terms``: stance, Very Hurt, the GM's modifiers …). An enemy ``fig`` ignores hits it
    undefended (*Fudge* 4.34); with ``contest`` (an enemy and the Speed difference's spread, *Fudge* 4.36) that
    enemy's blow is mixed over who wins the contest."""
    risk: Fraction | None = None
    for e in battle.threats_to(fig.id, known=public.keys()):
        decl = public.get(e.id)
        ew = weapon_named(e, decl.weapon) if decl is not None else e.character.ready_weapon
        if ew.ranged:
            continue
        e_stance = Stance(decl.stance) if decl is not None else Stance.NEUTRAL
        terms = battle.attack_terms(e, fig, ew, e_stance, advance_used=_advanced(battle, e.id))
        e_off = e.character.combat_skill(ew, battle.round) + total(terms.modifiers)
        my_def, _ = battle.melee_defence(fig.id, e.id, ew, stance.value)
        rolls = (dice.peek("combat", e.id), dice.peek("combat", fig.id))
        if e.id in ignore:  # Fudge 4.34: an ignored attacker's blow meets no defence, only the difficulty
            kinds = combat_rolls(battle, dice.peek, (e,), [])
            p = hit_probability(e_off, (), terms.difficulty, set_rolls=rolls[:1], rolls=kinds)
        else:
            kinds = combat_rolls(battle, dice.peek, (e, fig), [])  # Fudge 4.33, 4.34
            mixture = contest[1] if contest is not None and contest[0] == e.id else {0: Fraction(1)}
            p = sum(
                (
                    q
                    * hit_probability(
                        e_off + max(0, -d), (my_def + max(0, d),), terms.difficulty, set_rolls=rolls, rolls=kinds
                    )
                    for d, q in mixture.items()
                ),
                Fraction(0),
            )
        risk = p if risk is None else max(risk, p)
    return risk


def attack_preview(
    battle: Battle,
    fid: str,
    weapon_name: str | None,
    target_id: str,
    stance: str = "neutral",
    *,
    dodge: Sequence[str] = (),
    advance: Sequence[tuple[Hex, int]] = (),
    compare: bool = True,
    aim: Aim = "best",
    gm_hand: bool = True,
    stun: bool = False,
    max_wound: str | None = None,
    sweep_place: int = 0,
    ignore: Sequence[str] = (),
) -> AttackPreview:
    """The exact odds of ``fid`` attacking ``target_id`` (FTC 6.3–7.4, table 4, table 7, table 9); ``aim``:
    where the attacker means the blow to fall when the result lets him choose (FTC 6.6). Declarations every
    player has seen count as the resolution will count them (the target's stance, its dodge of a missile, the
    attackers the firer must also beat); what is not known yet is named in ``assumptions``. ``gm_hand``:
    whether the viewer sits in the GM's seat and so knows the rolls the GM set by hand (*Fudge* 4.1).
    The declaration's rule-option fields count as the blow's way counts them: ``stun`` and ``max_wound``
    (*Fudge* 4.62), the target's place in a sweeping blow ``sweep_place`` (0: the first), the enemies it
    ``ignore``s (*Fudge* 4.34: they need not be beaten, and hit it undefended)."""
    att = battle.figure(fid)
    tgt = battle.figure(target_id)
    weapon = weapon_named(att, weapon_name)
    st = Stance(stance)
    assumptions: list[str] = []
    public = public_declarations(battle)
    tdecl = public.get(target_id)
    if tdecl is None:
        assumptions.append(f"{tgt.name}'s stance is not known yet: taken as neutral.")
    t_stance = tdecl.stance if tdecl is not None else "neutral"
    t_defends = tdecl is None or not tdecl.second_move
    if tdecl is not None and fid in tdecl.ignore:  # Fudge 4.34: the target does not defend against this attacker
        t_defends = False
        assumptions.append(f"{tgt.name} ignores {att.name}: the blow meets no defence (Fudge 4.34).")
    skill = att.character.combat_skill(weapon, battle.round)
    start = (att.hex, att.facing)
    positions = [start, *advance]
    end_hex = positions[-1][0]
    dist = distance(end_hex, tgt.hex)
    bystanders: list[Bystander] = []
    defence: int | None
    dmods: tuple[Modifier, ...] = ()
    dice = _SetRolls(battle, gm_hand)
    # FTC 6.1, table 7: a firer attacked in melee (by a declaration every player has seen) shoots at −1
    attackers = [o for o in battle.melee_attackers_on(fid) if o in public]
    defending = weapon.ranged and bool(attackers)
    if weapon.ranged and not attackers and any(t.id not in public for t in battle.threats_to(fid, known=public.keys())):
        assumptions.append("attacked in melee while shooting: table 7's −1 for a firer who defends is not counted.")
    in_attack_phase = battle.phase == "attack"

    def terms_at(where: Sequence[tuple[Hex, int]]) -> AttackTerms:
        # the same terms the round's resolution will use (Battle.attack_terms); the stance is added below so
        # the five stances can be compared
        return battle.attack_terms(
            att,
            tgt,
            weapon,
            Stance.NEUTRAL,
            dodges=len(dodge),
            positions=where,
            phase_start=att.hex,
            firer_defending=defending,
        )

    terms = terms_at(positions)
    base = list(terms.modifiers)
    difficulty = terms.difficulty
    line = terms.line
    dodging: bool | None = None
    if weapon.ranged:
        defence = None
        if tdecl is None:
            assumptions.append(f"{tgt.name} has not declared yet: taken not to dodge this shot.")
        else:
            dodging = fid in tdecl.dodge and not tdecl.second_move and tgt.can_act
        if dodging:
            # FTC 6.5.2, table 8: the target dodges the shot with Agility, the range band's defence bonus added
            bonus = terms.band.defense_bonus if terms.band is not None else 0
            dmods = battle.dodge_terms(tgt.id, Stance(t_stance), Modifier("range defence bonus", bonus))
            defence = tgt.character.agility + total(dmods)
    elif t_defends and tgt.can_act:
        defence, dmods = battle.melee_defence(tgt.id, att.id, weapon, t_stance)
    else:
        defence = None
    adv = max(0, len(advance))
    stance_mod = Modifier(f"{st.display_name} stance" + (f" ({adv} advanced)" if adv else ""), st.attack_bonus - adv)
    omods = tuple(m for m in ([stance_mod] if stance_mod.value else []) + base)
    offence_wo_stance = skill + total(base)
    offence = offence_wo_stance + stance_mod.value
    # FTC 6.6: every location the target has, so that "best" weighs the arms and legs as the battle does
    most = WoundLevel.parse(max_wound) if max_wound is not None else None
    rules = rules_of(battle.options).for_blow(stun=stun, max_wound=most, sweep_place=sweep_place)
    if stun and rules.stun_head_knockout and aim in ("best", "head") and tgt.character.has_head:
        assumptions.append("A stunning blow on the head knocks out (Fudge 4.62).")
    bases = damage_bases(
        att.character, tgt.character, weapon, two_handed=att.character.wields_two_handed(weapon), distance=dist
    )
    for spot in bases:  # S3: the factors rule options add (game.engine.blow), as the resolution adds them
        off_x, dfn_x = extra_factors(rules, att.character, tgt.character, weapon, spot)
        bases[spot] += sum(f.value for f in off_x) - sum(f.value for f in dfn_x)
        bases[spot] += dropped_capacity(rules, tgt.character.damage_capacity)  # Fudge 4.52: rolled, not a factor
    damage_base = bases["torso"]
    head = bases.get("head")
    limbs = tuple((where, base) for where, base in bases.items() if where not in ("torso", "head"))
    track = tgt.character.wound_track
    health = tgt.character.health
    scale_difference = graze_scale_difference(att.character, tgt.character, weapon)
    # FTC 6.1, 6.4.1: the blow (or shot) must also beat the defence of everyone attacking the attacker in
    # melee (a touch caster included, FTC 8.3), as the round's resolution counts them — only declarations
    # every player has seen (under secret stances nobody's is known before the reveal)
    parried = battle.parrying_weapon(att.id) if weapon.ranged else weapon
    other_ids = [o for o in attackers if o != target_id and o not in ignore]  # Fudge 4.34: the ignored need no beating
    others = tuple(battle.melee_defence(o, att.id, parried, public[o].stance)[0] for o in other_ids)

    # rolls the GM set by hand (physical dice at the table) are counted as the totals they will be
    rolls = (
        dice.peek("combat", att.id),
        None if defence is None else dice.peek("combat", tgt.id),
        dice.peek("health", tgt.id),
    )
    for who, roll, what in zip((att, tgt, tgt), rolls, ("roll", "defence roll", "Health roll"), strict=True):
        if roll is not None:
            assumptions.append(f"The GM set {who.name}'s {what} by hand to {roll:+d}: these odds count it.")
    option_rolls = _option_rolls(battle, dice, att, tgt, assumptions)
    defender = battle.defender_of(tgt)
    assumptions.extend(hero_assumptions(tgt.name, rules, defender))
    # Fudge 4.33, 4.34: an NPC pawn's roll is nothing, or its side's one roll (pawns of a side move together)
    kinds = combat_rolls(battle, dice.peek, [att, tgt, *(battle.figure(o) for o in other_ids)], assumptions)

    # Fudge 4.36: a target striking back in melee makes a Speed contest first: the odds mix over its difference
    back = None if tdecl is None else (fid in tdecl.targets and not weapon_named(tgt, tdecl.weapon).ranged)
    mixture = speed_mixture(battle, dice.peek, att, tgt, back, assumptions) if not weapon.ranged else None

    def spread(level: int, difficulty: int = difficulty) -> Mapping[Outcome, Fraction]:
        if mixture is None:
            return one(level, difficulty, defence)
        mixed: dict[Outcome, Fraction] = {}
        for d, p in mixture.items():
            won = None if defence is None else defence + max(0, -d)
            for outcome, q in one(level + max(0, d), difficulty, won).items():
                mixed[outcome] = mixed.get(outcome, Fraction(0)) + p * q
        return MappingProxyType(mixed)

    def one(level: int, difficulty: int, defence: int | None) -> Mapping[Outcome, Fraction]:
        return outcome_distribution(
            level,
            defence,
            others,
            difficulty,
            damage_base,
            damage_base_head=head,
            other_locations=limbs,
            aim=aim,
            track=track,
            health=health,
            scale_difference=scale_difference,
            set_rolls=rolls,
            rules=rules,
            sheet=tgt.wounds,
            option_rolls=option_rolls,
            defender=defender,
            rolls=kinds,
            stuns=tgt.stuns,
        )

    def reaches(where: Sequence[tuple[Hex, int]]) -> bool:
        return not in_attack_phase or battle.can_attack(fid, target_id, weapon, positions=where)

    reachable = reaches(positions)
    distribution = spread(offence)
    p_hit = hit_chance(distribution)
    columns: list[StanceColumn] = []
    if compare:
        for s in Stance:
            # the advance this stance keeps (the panel cuts a longer one, FTC 6.2), from where it leads
            a = min(adv, s.max_advance)
            where = positions[: 1 + a]
            if not reaches(where):
                columns.append(StanceColumn(s, None, MappingProxyType({}), None))
                continue
            at = terms if a == adv else terms_at(where)
            dist_s = spread(skill + total(at.modifiers) + s.attack_bonus - a, at.difficulty)
            duel = (target_id, mixture) if mixture is not None else None
            risk = None if weapon.ranged else _incoming_risk(battle, att, s, public, dice, ignore, duel)
            columns.append(StanceColumn(s, hit_chance(dist_s), dist_s, risk))
    if line is not None:
        at_risk = [b for b in line.bystanders_at_risk() if b not in (att.id, tgt.id)]
        friends = [b for b in at_risk if battle.figures[b].side == att.side]
        enemies = [b for b in at_risk if battle.figures[b].side != att.side]
        if at_risk:
            p_friend, p_enemy = miss_probabilities(len(friends), len(enemies))
            miss = 1 - p_hit
            for b in friends:
                bystanders.append(Bystander(b, True, miss * p_friend / len(friends)))
            for b in enemies:
                bystanders.append(Bystander(b, False, miss * p_enemy / len(enemies)))
    return AttackPreview(
        att.id,
        tgt.id,
        weapon.name,
        weapon.ranged,
        skill,
        omods,
        offence,
        defence,
        dmods,
        difficulty,
        damage_base,
        distribution,
        p_hit,
        tuple(columns),
        line,
        tuple(bystanders),
        tuple(assumptions),
        reachable,
        dodging,
    )


def escape_chance(battle: Battle, fid: str, reach: Reach, h: Hex, *, gm_hand: bool = True) -> Fraction:
    """The chance of getting through every escape contest on the preferred path to ``h`` (FTC 5.3). The GM's
    override of the mover's next contest ("Grant escape" / "Deny escape") decides the first one; rolls the GM
    set by hand count as their totals when the viewer may know them (``gm_hand``, *Fudge* 4.1)."""
    mover = battle.figure(fid)
    p = Fraction(1)
    override = battle.gm_escape.get(fid)
    dice = _SetRolls(battle, gm_hand)
    for _, ids in reach.escapes(h):
        if not ids:
            continue
        if override is not None:
            p *= 1 if override else 0
            override = None
            continue
        stoppers = sorted(ids)
        # the battle's own levels (GM modifiers included), so the odds shown cannot drift from the contest
        levels = battle.escape_levels(mover, [battle.figure(sid) for sid in stoppers])
        rolls = (dice.take("escape", fid), *(dice.take("escape", sid) for sid in stoppers))
        p *= escape_probability(levels.mover, levels.stoppers, set_rolls=rolls)
    return p


# ---------------------------------------------------------------------------------------------------
# FTC 8: the odds of a casting
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpellPreview:
    """Everything the declaration panel shows for one casting (FTC 8.1 casting roll, 8.3 bolts and touch).

    ``cast`` is the chance that the casting roll reaches the spell's difficulty; ``effect`` the chance that
    the spell then takes effect on a target that does not dodge (a touch spell's touch attack and a resisted
    spell's resistance roll included, with the one roll they share); ``dodged`` the same against a target that
    dodges the caster as it would a missile (bolts only, else None).
    """

    caster: str
    spell: str
    target: str | None
    hex: Hex | None
    skill: int
    modifiers: tuple[Modifier, ...]
    result: int
    """Skill plus modifiers: the casting result with a roll of 0."""
    difficulty: int
    cast: Fraction
    effect: Fraction
    dodged: Fraction | None = None
    dodge: int | None = None
    """The target's dodge before its roll (Agility, stance, table 8's bonus on the spell's difficulty)."""
    touch: int | None = None
    """A touch spell's touch attack with a roll of 0 (Agility or melee skill plus its modifiers)."""
    touch_defence: int | None = None
    damage_base: int | None = None
    distribution: Mapping[Outcome, Fraction] | None = None
    """A damage bolt's outcomes against a target that does not dodge."""
    line: LineOfFire[str] | None = None
    bystanders: tuple[Bystander, ...] = ()
    """Figures a damage bolt that misses may strike (FTC 8.3: misses as for missiles, 6.5.3)."""
    assumptions: tuple[str, ...] = field(default_factory=tuple)
    dodging: bool | None = None
    """A bolt's target: True when it has declared a dodge against the caster (``dodged`` is then the chance
    the spell takes effect, and a damage bolt's ``distribution`` counts the dodge), False when it has declared
    without one, None when its declaration is not known yet (FTC 8.3, 6.5.2)."""


def _below(margin: int, fixed: int | None, kind: RollKind | None = None) -> Fraction:
    """P(an opponent's 4dF is at most ``margin``); a roll the GM set by hand is its total; ``kind``: the roll as
    the rule option ``npc_rolls`` makes it (*Fudge* 4.33, 4.34), its own set total included."""
    if kind is not None:
        ways = kind.counts()
        return Fraction(sum(w for t, w in ways if t <= margin), sum(w for _, w in ways))
    return prob_at_most(margin) if fixed is None else Fraction(int(fixed <= margin))


def _resists(battle: Battle, item: magic.Spell, target: Figure | None, result: int, fixed: int | None) -> Fraction:
    """P(the target's resistance roll stays below the casting result) (FTC 8, resisted spells), from
    ``Battle.resistance_terms`` like the resolution (the GM's modifiers on the target included)."""
    if target is None:
        return Fraction(1)
    terms = battle.resistance_terms(target.id, item.name)
    if terms is None:
        return Fraction(1)
    level, mods = terms
    return _below(result - level - total(mods) - 1, fixed)


def concentration_odds(battle: Battle, fid: str) -> dict[str, Fraction]:
    """P(a concentrating caster keeps his spell) for each Will roll that may test it (FTC 8.1: "dodge" needs
    Good, "damaged" Great), from ``Battle.concentration_terms`` like the resolution (the GM's modifiers
    included)."""
    will, mods = battle.concentration_terms(fid)
    return {
        reason: prob_at_least(magic.concentration_difficulty(reason) - will - total(mods))
        for reason in ("dodge", "damaged")
    }


def spell_preview(
    battle: Battle,
    fid: str,
    spell_name: str,
    target: str | Hex | None = None,
    stance: str = "neutral",
    *,
    dodge: Sequence[str] = (),
    gm_hand: bool = True,
) -> SpellPreview:
    """The exact odds of ``fid`` casting ``spell_name`` (FTC 8.1, 8.3) from ``Battle.spell_terms``, the terms
    the resolution uses: skill + 4dF + table 4 and table 7's modifiers against the spell's difficulty; a bolt
    must also beat the dodge of a target that dodges; a touch spell needs its touch attack with the same roll;
    a resisted spell must beat the target's Will or Health roll. ``gm_hand``: whether the viewer sits in the
    GM's seat and so knows the rolls the GM set by hand (*Fudge* 4.1), which then count as their totals."""
    caster = battle.figure(fid)
    item = magic.spell(spell_name)
    tgt = battle.figure(target) if isinstance(target, str) else None
    spot = target if isinstance(target, Hex) else None
    st = Stance(stance)
    public = public_declarations(battle)
    # table 7's -1 for a caster who defends (FTC 8.1), from the melee attacks on him declared in the open so far
    attackers = [a for a in battle.melee_attackers_on(fid) if a in public]
    # FTC 6.1, 6.4.1: a touch or a bolt must also beat the defence of everyone else attacking the caster in
    # melee, each parrying with his own roll (the caster's melee weapon for a bolt, his hand for a touch); a
    # 1-second spell is resolved before those attackers roll (FTC 8.1), so it meets none of them
    in_attack_phase = magic.resolves_when(item) != "declaration"
    parries = tuple(
        (a, public[a].stance) for a in attackers if in_attack_phase and (not isinstance(target, str) or a != target)
    )
    terms = battle.spell_terms(fid, item.name, target, stance=st, dodges=len(dodge), firer_defending=bool(attackers))
    skill = caster.character.skill_level(item.skill, battle.round)
    result = skill + total(terms.modifiers)
    assumptions: list[str] = []
    later = magic.resolves_when(item) != "declaration" or battle.options.secret_stances
    if not attackers and later and any(t.id not in public for t in battle.threats_to(fid, known=public.keys())):
        assumptions.append("attacked in melee while casting: table 7's −1 for a firer who defends is not counted.")
    hostile = tgt is not None and tgt.side != caster.side and tgt.can_act
    bolt = hostile and item.range in ("close", "short", "long")
    tdecl = public.get(tgt.id) if tgt is not None else None
    t_stance = tdecl.stance if tdecl is not None else "neutral"
    if hostile and tdecl is None and tgt is not None and (bolt or item.is_touch):
        assumptions.append(f"{tgt.name}'s stance is not known yet: taken as neutral.")
    # FTC 8.3, 6.5.2: a bolt's target dodges it only if it declared a dodge against the caster
    dodging = None if not bolt or tdecl is None else fid in tdecl.dodge and not tdecl.second_move
    dice = _SetRolls(battle, gm_hand)
    own_roll = dice.peek("combat", fid)
    t_roll = dice.peek("combat", tgt.id) if tgt is not None and hostile else None
    rolled = (
        (caster, own_roll, "casting roll"),
        *(((tgt, t_roll, "roll"),) if tgt is not None and t_roll is not None else ()),
        *(((tgt, dice.peek("resistance", tgt.id), "resistance roll"),) if tgt is not None else ()),
    )
    for who, roll, what in rolled:
        if roll is not None:
            assumptions.append(f"The GM set {who.name}'s {what} by hand to {roll:+d}: these odds count it.")
    dodge_level: int | None = None
    if bolt and tgt is not None:
        dodge_level = tgt.character.agility + total(battle.spell_dodge_terms(tgt.id, item.name, Stance(t_stance)))
    # Fudge 4.33, 4.34: a pawn's roll is nothing, or its side's one roll (caster, hostile target, parrying attackers)
    rollers = [caster, *((tgt,) if tgt is not None and hostile else ()), *(battle.figure(a) for a, _ in parries)]
    kinds = combat_rolls(battle, dice.peek, rollers, assumptions)
    t_kind = kinds[1] if kinds and tgt is not None and hostile else None
    p_kinds = kinds[len(rollers) - len(parries) :]
    touch: int | None = None
    touch_def: int | None = None
    touch_diff = 0
    touch_others: tuple[tuple[int, int | None, RollKind | None], ...] = ()
    if item.is_touch and hostile and tgt is not None:
        hand = magic.touch_weapon()  # FTC 8.3: the touch is made with the hand, as the battle makes it
        omods = battle.attack_terms(caster, tgt, hand, st, dodges=len(dodge)).modifiers
        touch = magic.touch_attack_skill(caster.character, battle.round) + total(omods)
        if tdecl is None or not tdecl.second_move:
            touch_def, _ = battle.melee_defence(tgt.id, caster.id, hand, t_stance)
        touch_diff = melee_difficulty(caster.character.mass_scale, tgt.character.mass_scale)
        touch_others = tuple(
            (battle.melee_defence(a, fid, hand, st_a)[0], dice.peek("combat", a), k)
            for (a, st_a), k in zip(parries, p_kinds or (None,) * len(parries), strict=True)
        )
    cast = effect = Fraction(0)
    dodged: Fraction | None = Fraction(0) if bolt else None
    resist_roll = dice.peek("resistance", tgt.id) if tgt is not None else None
    if kinds:
        ways = kinds[0].counts()
        own = tuple((t, Fraction(w, sum(n for _, n in ways))) for t, w in ways)
    else:
        own = tuple(FOUR_DF.items()) if own_roll is None else ((own_roll, Fraction(1)),)
    for r, p in own:
        res = result + r
        if res < item.difficulty:
            continue
        cast += p
        lands = Fraction(1)
        if touch is not None:
            t_off = touch + r
            lands = (
                Fraction(0)
                if t_off < touch_diff
                else (Fraction(1) if touch_def is None else _below(t_off - touch_def - 1, t_roll, t_kind))
            )
            for level, fixed, kind in touch_others:
                lands *= _below(t_off - level - 1, fixed, kind)
        resist = _resists(battle, item, tgt, res, resist_roll)
        effect += p * lands * resist
        if dodged is not None and dodge_level is not None:
            dodged += p * _below(res - dodge_level - 1, t_roll, t_kind) * resist
    damage_base: int | None = None
    distribution: Mapping[Outcome, Fraction] | None = None
    if bolt and tgt is not None and item.effect == "damage":
        weapon = magic.spell_weapon(item)
        dist = distance(caster.hex, tgt.hex)

        def base_at(location: str) -> int:
            off = offensive_factors(
                caster.character, weapon, two_handed=False, distance=dist, location=location, target=tgt.character
            )
            dfn = without_capacity(
                rules_of(battle.options), magic.spell_defensive_factors(item, tgt.character, location=location)
            )
            off_x, dfn_x = extra_factors(rules_of(battle.options), caster.character, tgt.character, weapon, location)
            return sum(f.value for f in (*off, *off_x)) - sum(f.value for f in (*dfn, *dfn_x))

        damage_base = base_at("torso")
        head = base_at("head") if tgt.character.has_head else None
        offence = caster.character.combat_skill(weapon, battle.round) + total(terms.modifiers)
        bolt_others = tuple(battle.melee_defence(a, fid, battle.parrying_weapon(fid), st_a)[0] for a, st_a in parries)
        if any(dice.peek("combat", a) is not None for a, _ in parries):
            assumptions.append("The GM set a parrying attacker's roll by hand: these odds take it as still to roll.")
        distribution = outcome_distribution(
            offence,
            dodge_level if dodging else None,
            bolt_others,
            item.difficulty,
            damage_base,
            damage_base_head=head,
            track=tgt.character.wound_track,
            health=tgt.character.health,
            scale_difference=graze_scale_difference(caster.character, tgt.character, weapon),
            set_rolls=(own_roll, t_roll if dodging else None, dice.peek("health", tgt.id)),
            rules=rules_of(battle.options),
            sheet=tgt.wounds,
            option_rolls=_option_rolls(battle, dice, caster, tgt, assumptions),
            defender=battle.defender_of(tgt),
            rolls=kinds if kinds and t_kind is not None else (),
        )
        assumptions.extend(hero_assumptions(tgt.name, rules_of(battle.options), battle.defender_of(tgt)))
    bystanders: list[Bystander] = []
    if distribution is not None and terms.line is not None and tgt is not None:
        at_risk = [b for b in terms.line.bystanders_at_risk() if b not in (caster.id, tgt.id)]
        friends = [b for b in at_risk if battle.figures[b].side == caster.side]
        enemies = [b for b in at_risk if battle.figures[b].side != caster.side]
        if at_risk:
            p_friend, p_enemy = miss_probabilities(len(friends), len(enemies))
            # FTC 8.3, 6.5.3: a bolt that is cast and then misses strays (one that is not cast goes nowhere)
            miss = cast - hit_chance(distribution)
            bystanders += [Bystander(b, True, miss * p_friend / len(friends)) for b in friends]
            bystanders += [Bystander(b, False, miss * p_enemy / len(enemies)) for b in enemies]
    return SpellPreview(
        caster.id,
        item.name,
        tgt.id if tgt is not None else None,
        spot,
        skill,
        terms.modifiers,
        result,
        item.difficulty,
        cast,
        effect,
        dodged,
        dodge_level,
        touch,
        touch_def,
        damage_base,
        distribution,
        terms.line,
        tuple(bystanders),
        tuple(assumptions),
        dodging,
    )


# ---------------------------------------------------------------------------------------------------
# The one entry: the odds of an action
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovePreview:
    """The odds of a move (FTC 5.3): the chance of getting through every escape contest on the way to its
    end hex, along the preferred path there (the one the board highlights)."""

    figure: str
    end: Hex
    escape: Fraction


Preview = AttackPreview | SpellPreview | MovePreview
"""The odds of one action: an attack's, a casting's or a move's."""


def advance_positions(start: Hex, facing: int, steps: Sequence[Hex], turn_to: int | None) -> list[tuple[Hex, int]]:
    """The (hex, facing) after each step of a declared advance (FTC 6.2), as ``Declare.advance`` and
    ``advance_facing`` give them: a step into another hex faces the way stepped, a step into the same hex
    turns to ``turn_to``. Unchecked: ``apply`` and ``Battle.advance_positions`` check them."""
    out: list[tuple[Hex, int]] = []
    h, f = start, facing
    for step in steps:
        if step == h:
            f = turn_to if turn_to is not None else f
        else:
            d = direction_to(h, step)
            f = d if d is not None else f
            h = step
        out.append((h, f))
    return out


def preview(battle: Battle, action: act.Action, *, compare: bool = True) -> Preview | None:
    """The odds of ``action`` before it is sent (FTC 6.3–7.4, 8.1, 8.3): for a ``Declare`` with a spell,
    its ``SpellPreview``; with a weapon target, the ``AttackPreview`` of that attack (its stance, dodges and
    advance counted; ``compare``: with the five stances compared); for a ``Move`` or ``SecondMove``, its
    ``MovePreview``. None for an action that rolls nothing to show (staying put, a declaration of defence, a
    choice)."""
    if isinstance(action, act.Move | act.SecondMove):
        if not action.steps:
            return None
        end = action.steps[-1][0]
        posture = action.posture if isinstance(action, act.Move) else None
        reach = battle.reach_for(action.figure, posture=posture)
        return MovePreview(action.figure, end, escape_chance(battle, action.figure, reach, end))
    if not isinstance(action, act.Declare):
        return None
    fig = battle.figure(action.figure)
    if action.spell is not None:
        target: str | Hex | None = action.spell_hex if action.spell_hex is not None else action.spell_target
        return spell_preview(battle, fig.id, action.spell, target, action.stance, dodge=action.dodge)
    if not action.targets:
        return None
    advance = advance_positions(fig.hex, fig.facing, action.advance, action.advance_facing)

    def of(place: int, target: str) -> AttackPreview:
        return attack_preview(
            battle,
            fig.id,
            action.weapon,
            target,
            action.stance,
            dodge=action.dodge,
            advance=advance,
            compare=compare,
            aim=action.aim if action.aim in AIMS else "best",  # type: ignore[arg-type]
            stun=action.stuns,
            max_wound=action.most_wound,
            sweep_place=place,
            ignore=action.ignoring,
        )

    first = of(0, action.targets[0])
    return swept(first, tuple(of(place, t) for place, t in enumerate(action.targets[1:], start=1)))


def swept(first: AttackPreview, rest: tuple[AttackPreview, ...]) -> AttackPreview:
    """*Fudge* 4.34: a sweeping blow's odds — the first foe's, with each further foe's (``rest``, previewed at
    its place in the sweep) in ``sweep`` and a note that one roll decides them all; ``first`` alone without."""
    if not rest:
        return first
    note = "One roll decides every foe of the sweep (Fudge 4.34)."
    return replace(first, sweep=rest, assumptions=(*first.assumptions, note))
