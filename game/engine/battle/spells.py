"""Spells cast in the battle (FTC 8, 8.1, 8.2, 8.3): casting, concentration, recognition, and spells taking
effect.

A spell is declared instead of an attack (``check_declaration``); a 1-second spell is resolved at once
(``cast_at_once``; under secret stances at the reveal), a spell of one round with the round's attacks,
a longer one after rounds of concentration (``resolve``), each cast as ``cast`` says: the casting roll,
a bolt dodged and straying like a missile, a touch attack, the target's resistance, then the effect.
This part owns ``MagicState``: the concentrations under way and the spells each figure recognised. What
a spell reaches and its rolls' modifiers are ``spell_reach``; the lasting effects are ``effects``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine import magic
from game.engine.battle import blows, declarations, dice, effects, ranged, reach, spell_reach
from game.engine.battle.state import BattleState, Declaration, Figure, IllegalAction, covered, sentence
from game.engine.combat import Modifier, Stance, is_hit, melee_difficulty, total
from game.engine.equipment import Weapon
from game.engine.hexgrid import Hex, distance

SpellPlan = tuple[magic.Spell, str | None, Hex | None, bool]
"""The spell part of a declaration, checked: (the spell, its target figure, its centre hex, whether it
continues a concentration)."""


def casting_of(b: BattleState, fid: str) -> magic.Concentration | None:
    """The spell of several rounds this figure is concentrating on, if any (FTC 8.1)."""
    return b.magic_state.casting.get(fid)


def spell_targets(b: BattleState, fid: str, spell_name: str) -> list[str]:
    """Figures a figure may cast a known spell on now (FTC 8.3 ranges; an area spell: figures whose hex
    it may be centred on). Empty when the figure does not know the spell or cannot cast now."""
    fig = b.figure(fid)
    try:
        item = magic.spell(spell_name)
    except magic.MagicError:
        return []
    if item.name not in fig.character.spells or not fig.can_act or effects.held_by(b, fig):
        return []
    if magic.resolves_when(item) == "last_round" and fig.hexes_moved and b.magic_state.casting.get(fid) is None:
        return []  # FTC 8.1: a long casting needs a caster who stood still
    if item.target == "self":
        return [fid]
    if item.target == "hex":
        return [f.id for f in b.enemies_of(fig) if spell_reach.area_hex(b, fig, item, f) is not None]
    pool = b.enemies_of(fig) if item.target == "enemy" else b.able(fig.side)
    return [f.id for f in pool if spell_reach.spell_reaches(b, fig, item, f.hex, f.id)]


def recognised_by(b: BattleState, fid: str) -> dict[str, str]:
    """Casters whose spell this figure has recognised (FTC 8.2), with the spell's name."""
    return {caster: name for (who, caster), name in b.magic_state.recognised.items() if who == fid}


def casting_at(b: BattleState, fid: str) -> dict[str, str | None]:
    """Enemy casters casting at this figure now (their target, or an area over its hex): the spell's name
    when the figure recognised it (FTC 8.2), None when it only sees that something is being cast."""
    fig = b.figure(fid)
    cells = covered((fig,))  # an area over any hex of a large figure is cast at it (FTC 5)
    out: dict[str, str | None] = {}
    for caster, item, target, h in castings_now(b):
        if b.figures[caster].side == fig.side:
            continue
        if target == fid or (
            h is not None and item.effect == "area" and not cells.isdisjoint(magic.area_hexes(item, h))
        ):
            out[caster] = b.magic_state.recognised.get((fid, caster))
    return out


def castings_now(b: BattleState) -> list[tuple[str, magic.Spell, str | None, Hex | None]]:
    """Spells being cast this round: (caster, spell, target figure, target hex)."""
    out: list[tuple[str, magic.Spell, str | None, Hex | None]] = []
    for fid, conc in b.magic_state.casting.items():
        t = conc.target
        out.append((fid, conc.spell, t if isinstance(t, str) else None, t if isinstance(t, Hex) else None))
    for d in declarations.declarations(b).values():
        if d.spell is not None and d.figure not in b.magic_state.casting:
            out.append((d.figure, magic.spell(d.spell), d.spell_target, d.spell_hex))
    return out


def declare_options(b: BattleState, fig: Figure) -> dict[str, object]:
    """What a figure's spells offer its declaration now (FTC 8): each known spell with its targets, the
    spell it concentrates on, and the enemy casters casting at it (``casting_at``)."""
    known: dict[str, list[str]] = {}
    for item in spell_reach.known_spells(b, fig.id):
        known[item.name] = spell_targets(b, fig.id, item.name)
    conc = b.magic_state.casting.get(fig.id)
    return {"spells": known, "casting": conc.spell.name if conc else None, "casting_at": casting_at(b, fig.id)}


def parries_against(
    b: BattleState,
    fig: Figure,
    tgt: Figure,
    weapon: Weapon,
    rolls: Mapping[str, int],
    melee_on: Mapping[str, list[str]],
) -> list[tuple[str, int]]:
    """The defence results of those attacking a caster in melee, other than his target, that his touch or
    bolt must also beat (FTC 6.1, 6.4.1): each parries ``weapon`` with the roll he has made this round (a
    1-second spell, resolved when declared, meets only the rolls already made; FTC 8.1); not those he ignores
    (*Fudge* 4.34)."""
    own = declarations.declaration_of(b, fig.id)
    ignored = own.ignore if own is not None else ()
    return [
        (
            o,
            blows.defence_vs(
                b, b.figures[o], fig, weapon, rolls[o], declarations.declaration_of(b, o), shield_ok=False
            )[0],
        )
        for o in melee_on.get(fig.id, [])
        if o != tgt.id and o in rolls and o not in ignored
    ]


def round_began(b: BattleState) -> list[ev.Event]:
    """FTC 8.1: effects past their duration end; concentrations move on a round (or end, if the caster
    can no longer cast).

    A concentration still in its last round here never reached its attack phase (the attack phase takes
    every spell due in it; only the GM's *End round* skips it): the spell takes effect in an attack phase,
    so our reading is that the concentration carries on, still in its last round, and the spell takes
    effect in this round's attack phase if the caster declares it again (``docs/playing.md``, the GM's seat).
    """
    out = effects.lapse(b)
    dice.new_round_rolls(b)
    for fid, conc in list(b.magic_state.casting.items()):
        caster = b.figures[fid]
        if not caster.can_act:
            del b.magic_state.casting[fid]
            out.append(ev.ConcentrationBroken(fid, conc.spell.name, "the caster cannot go on"))
        elif conc.takes_effect_this_round:
            out.append(ev.CastingContinued(fid, conc.spell.name, conc.rounds_left))
        else:
            b.magic_state.casting[fid] = conc.advance()
    return out


def held_fast(b: BattleState, phase: str) -> list[ev.Event]:
    """A figure that cannot act under a spell (e.g. paralysed) loses its move or its declaration."""
    out: list[ev.Event] = []
    for f in b.figures.values():
        item = effects.held_by(b, f) if f.can_act else None
        if item is None:
            continue
        if phase == "move":
            f.moved = True
        else:
            declarations.withdraw(b, f.id)
        out.append(ev.HeldFast(f.id, item.name, phase))
        if f.id in b.magic_state.casting:
            out.append(ev.ConcentrationBroken(f.id, b.magic_state.casting.pop(f.id).spell.name, item.name))
    return out


def attack_phase_began(b: BattleState) -> list[ev.Event]:
    """FTC 6.3, 8: the attack phase begins: nobody has made this round's roll yet; a figure held fast by a
    spell loses its declaration."""
    dice.new_round_rolls(b)
    return held_fast(b, "attack")


def caster_moved(b: BattleState, fig: Figure, hexes: int) -> list[ev.Event]:
    """FTC 8.1: a concentrating caster must remain still; leaving his hex breaks the spell (our reading:
    the move is allowed, and the spell is lost; turning in place keeps it)."""
    if hexes <= 0 or fig.id not in b.magic_state.casting:
        return []
    return [ev.ConcentrationBroken(fig.id, b.magic_state.casting.pop(fig.id).spell.name, "the caster moved")]


def check_declaration(b: BattleState, fig: Figure, a: act.Declare) -> SpellPlan | None:
    """Validate the spell part of a declaration (FTC 8); returns (spell, target, hex, continuing)."""
    if a.spell is None:
        if a.spell_target is not None or a.spell_hex is not None:
            raise IllegalAction("A spell target needs a spell: name the spell to cast.")
        return None
    try:
        item = magic.spell(a.spell)
    except magic.MagicError as exc:
        raise IllegalAction(sentence(str(exc))) from None
    if item.name not in fig.character.spells:
        known = ", ".join(fig.character.spells) or "no spells"
        raise IllegalAction(f"{fig.name} does not know {item.name} (knows {known}).")
    if a.targets:
        raise IllegalAction("Casting a spell is the figure's action this round: declare no weapon target.")
    if a.advance:
        raise IllegalAction("A caster does not advance: an advance brings a figure to the enemy it strikes.")
    conc = b.magic_state.casting.get(fig.id)
    continuing = conc is not None and conc.spell.name == item.name
    long_cast = magic.resolves_when(item) == "last_round"
    if long_cast and a.retreat is not None:
        raise IllegalAction(f"{item.name} needs the caster to stay still (FTC 8.1): no retreat while casting it.")
    if continuing:
        assert conc is not None
        t = conc.target
        return item, t if isinstance(t, str) else None, t if isinstance(t, Hex) else None, True
    if long_cast and fig.hexes_moved:
        raise IllegalAction(
            f"{item.name} takes {item.casting_time}: the caster must stand still while "
            f"concentrating (FTC 8.1), and {fig.name} moved this round."
        )
    if item.target == "hex":
        h = a.spell_hex
        if h is None and a.spell_target is not None:
            h = spell_reach.area_hex(b, fig, item, b.figure(a.spell_target))
        if h is None or not b.terrain.contains(h) or not spell_reach.spell_reaches(b, fig, item, h, None):
            raise IllegalAction(f"{item.name} is centred on a hex within {item.range} range and in sight.")
        return item, None, h, False
    target = a.spell_target if a.spell_target is not None else (fig.id if item.target in ("self", "ally") else None)
    if target is None:
        raise IllegalAction(f"{item.name} is cast at an enemy: name the target.")
    if target not in spell_targets(b, fig.id, item.name):
        raise IllegalAction(f"{b.figure(target).name} cannot be reached by {item.name} ({item.range} range) now.")
    return item, target, None, False


def resolves_at_reveal(b: BattleState, plan: SpellPlan | None) -> bool:
    """*Fudge* 4.32: under secret stances, a 1-second spell newly cast is resolved at the reveal (its casting
    roll and a dodge against it name their stances), when all declarations are shown, before any attack."""
    return (
        b.options.secret_stances and plan is not None and not plan[3] and magic.resolves_when(plan[0]) == "declaration"
    )


def declared(b: BattleState, fig: Figure, decl: Declaration, plan: SpellPlan | None) -> list[ev.Event]:
    """After a declaration (``decl``, its spell part from ``plan``): recognition rolls (FTC 8.2), an
    abandoned concentration, a spell begun or continued (FTC 8.1), and a 1-second spell resolved at once
    (under secret stances, at the reveal: ``resolves_at_reveal``)."""
    out: list[ev.Event] = recognise(b, fig)
    conc = b.magic_state.casting.get(fig.id)
    if plan is None or (conc is not None and not plan[3]):
        if conc is not None:
            del b.magic_state.casting[fig.id]
            out.append(ev.ConcentrationBroken(fig.id, conc.spell.name, "abandoned"))
        if plan is None:
            return out
    item, target, h, continuing = plan
    if continuing:
        assert conc is not None
        out.append(ev.CastingContinued(fig.id, item.name, conc.rounds_left))
        return out
    when = magic.resolves_when(item)
    out.append(ev.CastingBegan(fig.id, item.name, target, h, magic.casting_rounds(item), when))
    if when == "last_round":
        b.magic_state.casting[fig.id] = magic.Concentration.begin(item, fig.id, target if target is not None else h)
    elif when == "declaration" and not decl.pending_cast:
        out.extend(cast_at_once(b, fig, decl))
    return out


def cast_at_once(b: BattleState, fig: Figure, decl: Declaration) -> list[ev.Event]:
    """FTC 8.1: a 1-second spell is resolved when declared (under secret stances, at the reveal), and its
    results count for every other attack of the round; the caster's roll, and the target's if it already
    declared a dodge against him, is their one roll of the round (``dice.early_round_roll``)."""
    out: list[ev.Event] = []
    assert decl.spell is not None
    item, target, h = magic.spell(decl.spell), decl.spell_target, decl.spell_hex
    rolls: dict[str, int] = {fig.id: dice.early_round_roll(b, fig.id, out)}
    tgt = b.figures.get(target or "")
    if tgt is not None and tgt.side != fig.side and tgt.can_act:
        tdecl = declarations.declaration_of(b, tgt.id)
        if item.is_touch or (tdecl is not None and fig.id in tdecl.dodge and not tdecl.second_move):
            rolls[tgt.id] = dice.early_round_roll(b, tgt.id, out)
    wounds: list[blows.Wound] = []
    # table 7 applies except for movement (FTC 8.1): a caster already attacked in melee defends (-1)
    melee_on = {fig.id: declarations.melee_attackers_on(b, fig.id)}
    out.extend(cast(b, fig, decl, item, target, h, rolls, melee_on, wounds))
    out.extend(blows.apply_wounds(b, wounds))
    out.extend(damaged(b, wounds))
    # results count for every other attack (FTC 8.1): a figure no longer able does not declare
    declarations.drop_unable(b)
    return out


def recognise(b: BattleState, fig: Figure) -> list[ev.Event]:
    """FTC 8.2: a figure with Thaumatology rolls, while declaring, to recognise each enemy spell being
    cast at it: Good seeing and hearing the caster (within short range), Great with only a clear view,
    Superb through fog, an area spell or other people in the way."""
    if not fig.character.has_skill("Thaumatology"):
        return []
    out: list[ev.Event] = []
    for caster, name in casting_at(b, fig.id).items():
        if name is not None:
            continue
        c = b.figures[caster]
        item = next(i for cid, i, _, _ in castings_now(b) if cid == caster)
        sees, hears, obscured = spell_reach.view_of_caster(b, fig, c)
        difficulty = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
        if difficulty is None:
            continue
        skill = fig.character.skill_level("Thaumatology", b.round)
        mods = spell_reach.recognition_terms(b, fig.id)
        roll, ok = magic.recognise(b.rng, skill + total(mods), sees=sees, hears=hears, obscured=obscured)
        assert roll is not None
        if ok:
            b.magic_state.recognised[(fig.id, caster)] = item.name
        out.append(
            ev.SpellRecognised(
                fig.id,
                caster,
                item.name,
                skill,
                roll.faces,
                skill + roll.total + total(mods),
                difficulty,
                ok,
                tuple((m.name, m.value) for m in mods),
            )
        )
    return out


def cast(
    b: BattleState,
    fig: Figure,
    decl: Declaration,
    item: magic.Spell,
    target: str | None,
    h: Hex | None,
    rolls: Mapping[str, int],
    melee_on: Mapping[str, list[str]],
    wounds: list[blows.Wound],
) -> list[ev.Event]:
    """One spell takes effect (FTC 8): the casting roll; a bolt dodged like a missile and straying like
    one; a touch attack first for a touch spell; the target's resistance; then the effect."""
    out: list[ev.Event] = []
    tgt = b.figures.get(target) if target is not None else None
    if tgt is not None and tgt.out and item.effect != "heal":
        out.append(ev.ConcentrationBroken(fig.id, item.name, f"{tgt.name} is out of the fight"))
        return out
    aim_hex = tgt.hex if tgt is not None else h
    if tgt is not None and not spell_reach.spell_reaches(b, fig, item, tgt.hex, tgt.id):
        out.append(ev.ConcentrationBroken(fig.id, item.name, f"{tgt.name} is out of reach"))
        return out
    terms = spell_reach.spell_terms(
        b,
        fig.id,
        item.name,
        tgt.id if tgt is not None else h,
        stance=Stance(decl.stance),
        dodges=len(decl.dodge),
        firer_defending=bool(melee_on.get(fig.id)),
    )
    skill = fig.character.skill_level(item.skill, b.round)
    roll = rolls[fig.id]
    faces = dice.round_roll_made(b, fig.id)
    result = magic.casting_result(skill, roll, terms.modifiers)
    success = magic.cast_succeeds(item, result)
    hostile = tgt is not None and tgt.side != fig.side
    bolt = hostile and item.range in ("close", "short", "long")
    defence: int | None = None
    dmods: tuple[Modifier, ...] = ()
    if success and bolt and item.effect != "damage" and tgt is not None:
        defence, dmods = spell_reach.spell_dodge(b, tgt, fig, item, rolls)
    landed = success and (defence is None or result > defence)
    out.append(
        ev.SpellCast(
            fig.id,
            item.name,
            target,
            aim_hex if tgt is None else None,
            skill,
            faces if faces is not None else (),
            tuple((m.name, m.value) for m in terms.modifiers),
            result,
            item.difficulty,
            success,
            defence,
            tuple((m.name, m.value) for m in dmods),
            landed,
        )
    )
    if not landed:
        return out
    if hostile and tgt is not None and (item.effect == "damage" or item.is_touch):
        touch = item.is_touch
        weapon = effects.spell_weapon(b, item) if item.effect == "damage" else reach.melee_weapon(fig)
        if touch:
            hand = magic.touch_weapon()  # a touch is made with the hand, whatever weapon is held
            omods = blows.attack_terms(b, fig, tgt, hand, Stance(decl.stance), dodges=len(decl.dodge)).modifiers
            tdecl = declarations.declaration_of(b, tgt.id)
            # Fudge 4.34: a target that ignores the caster does not defend against his touch
            ignored = tdecl is not None and fig.id in tdecl.ignore
            if tgt.id in rolls and not (tdecl is not None and tdecl.second_move) and not ignored:
                tdef: int | None
                tdef, tmods, _ = blows.defence_vs(b, tgt, fig, hand, rolls[tgt.id], tdecl, shield_ok=True)
            else:
                tdef, tmods = None, ()
            others = parries_against(b, fig, tgt, hand, rolls, melee_on)
            diff = melee_difficulty(fig.character.mass_scale, tgt.character.mass_scale)
            tskill = magic.touch_attack_skill(fig.character, b.round)
            offence = tskill + roll + total(omods)
            hit = is_hit(offence, ([tdef] if tdef is not None else []) + [r for _, r in others], diff)
            out.append(
                ev.TouchAttack(
                    fig.id,
                    tgt.id,
                    item.name,
                    tskill,
                    roll,
                    tuple((m.name, m.value) for m in omods),
                    offence,
                    tdef,
                    tuple((m.name, m.value) for m in tmods),
                    diff,
                    hit,
                )
            )
            if not hit:
                return out
        if item.effect == "damage":
            bdef: int | None
            bmods: Sequence[Modifier]
            parries: Sequence[tuple[str, int]]
            if touch:
                # FTC 8.3: the touch only decides whether the spell takes effect and does no damage; the
                # spell's damage is a bolt's that nobody dodges: the casting's relative degree against
                # the difficulty + the spell's factor, on the torso (no head for a touch's degree)
                bdef, bmods, parries, aim = None, (), (), "torso"
            else:
                bdef, bmods = spell_reach.spell_dodge(b, tgt, fig, item, rolls)
                # FTC 6.1, 6.4.1, 8.3: a bolt is shot as a missile is, so a caster attacked in melee must beat
                # the defences of all those attacking him, parried with his melee weapon as a firer's are
                parries = parries_against(b, fig, tgt, reach.melee_weapon(fig), rolls, melee_on)
                aim = "best"
            casting = blows.Offence(fig, weapon, roll, terms.modifiers)
            event, wound = blows.strike(
                b,
                casting,
                tgt,
                bdef,
                bmods,
                parries,
                item.difficulty,
                distance(fig.hex, tgt.hex),
                aim,
                skill=skill if touch else None,
                target_roll=rolls.get(tgt.id) if bdef is not None else None,
            )
            out.append(event)
            if wound:
                wounds.append(wound)
            elif not touch and not event.hit and terms.line is not None:
                out.extend(ranged.stray(b, casting, tgt, terms.line, rolls, wounds))
            return out
    resistance = spell_reach.resistance_terms(b, tgt.id, item.name) if tgt is not None else None
    if tgt is not None and resistance is not None:
        level, rmods = resistance
        r = dice.roll(b, "resistance", tgt.id)
        resists_with = level + r.total + total(rmods)
        resisted = not magic.overcomes_resistance(result, resists_with)
        out.append(
            ev.SpellResisted(
                tgt.id,
                fig.id,
                item.name,
                item.resist,
                level,
                r.faces,
                resists_with,
                result,
                resisted,
                tuple((m.name, m.value) for m in rmods),
            )
        )
        if resisted:
            return out
    if item.effect == "heal":
        if tgt is not None:
            before = tgt.wounds.label
            blows.healed(tgt, magic.heal_wounds(tgt.wounds, item.heal_levels))
            out.append(ev.Healed(tgt.id, fig.id, item.name, item.heal_levels, before, tgt.wounds.label))
        return out
    if item.effect == "damage":
        return out  # a damage spell on a friend or oneself: nothing more to do
    effect = magic.ActiveEffect(
        item,
        fig.id,
        None if item.effect == "area" else (target or fig.id),
        h if item.effect == "area" else None,
        b.round,
    )
    out.append(effects.begin(b, effect))
    return out


def resolve(
    b: BattleState,
    rollers: Sequence[str],
    rolls: Mapping[str, int],
    attacks: Sequence[tuple[str, str]],
    melee_on: Mapping[str, list[str]],
    wounds: list[blows.Wound],
) -> list[ev.Event]:
    """FTC 8.1 in the attack phase: concentrating casters who are attacked roll Will (Good) for each
    attack they must dodge; then the 1-round spells and the spells in their last round take effect,
    simultaneously with the attacks (their wounds join the round's)."""
    out: list[ev.Event] = []
    decls = declarations.declarations(b)
    for cid, conc in list(b.magic_state.casting.items()):
        d = decls.get(cid)
        if d is None or d.spell != conc.spell.name or cid not in rolls:
            del b.magic_state.casting[cid]
            out.append(ev.ConcentrationBroken(cid, conc.spell.name, "not continued"))
            continue
        forced = [
            a
            for a, t in attacks
            if t == cid and (not reach.weapon_of(b.figures[a], decls[a].weapon).ranged or a in d.dodge)
        ]
        # a spell cast at him forces a dodge when he dodges it; an enemy's touch always does, as a
        # melee attack (FTC 8.3: the touch is a standard attack)
        forced += [
            o.figure
            for o in decls.values()
            if o.spell is not None
            and o.figure in rollers
            and o.spell_target == cid
            and (
                o.figure in d.dodge
                or (declarations.touch_on(o, cid) and b.figures[o.figure].side != b.figures[cid].side)
            )
        ]
        for _ in forced:
            if not concentration_roll(b, cid, "dodge", out):
                break
    for fid in rollers:
        d = decls[fid]
        if d.spell is None or not b.figures[fid].can_act:
            continue
        item = magic.spell(d.spell)
        when = magic.resolves_when(item)
        if when == "declaration":
            continue
        if when == "last_round":
            running = b.magic_state.casting.get(fid)
            if running is None or not running.takes_effect_this_round:
                continue
            # FTC 8.1: "If the caster takes damage, a Great Willpower roll is necessary": a caster wounded in
            # the round his spell is due holds his concentration through each wound before it goes off
            if not all(concentration_roll(b, fid, "damaged", out) for w in wounds if w[0].id == fid):
                continue
            del b.magic_state.casting[fid]
        out.extend(cast(b, b.figures[fid], d, item, d.spell_target, d.spell_hex, rolls, melee_on, wounds))
    return out


def figure_removed(b: BattleState, fid: str) -> list[ev.Event]:
    """The GM removed a figure: its own concentration ends, and so does every concentration on
    it as the target (FTC 8.1: a spell needs its target), so no spell later looks for it."""
    out: list[ev.Event] = []
    for cid, conc in list(b.magic_state.casting.items()):
        if cid == fid or conc.target == fid:
            del b.magic_state.casting[cid]
            why = "the caster left the battle" if cid == fid else "the target left the battle"
            out.append(ev.ConcentrationBroken(cid, conc.spell.name, why))
    return out


def concentration_roll(b: BattleState, cid: str, reason: magic.ConcentrationEvent, out: list[ev.Event]) -> bool:
    """FTC 8.1: a concentrating caster's Will roll to go on (Good when forced to dodge, Great when damaged),
    its events added to ``out``; a failed roll ends the concentration. True when it holds."""
    conc = b.magic_state.casting[cid]
    will, mods = spell_reach.concentration_terms(b, cid)
    roll = dice.roll(b, "will", cid)
    kept = magic.concentration_holds(will, roll, reason, total(mods))
    out.append(
        ev.ConcentrationRolled(
            cid,
            conc.spell.name,
            reason,
            will,
            roll.faces,
            will + roll.total + total(mods),
            magic.concentration_difficulty(reason),
            kept,
            tuple((m.name, m.value) for m in mods),
        )
    )
    if not kept:
        del b.magic_state.casting[cid]
        out.append(ev.ConcentrationBroken(cid, conc.spell.name, "lost concentration"))
    return kept


def damaged(b: BattleState, wounds: Sequence[blows.Wound]) -> list[ev.Event]:
    """FTC 8.1: a concentrating caster who takes damage needs a Great Will roll to go on."""
    out: list[ev.Event] = []
    for wound in wounds:
        fig = wound.figure
        if fig.id in b.magic_state.casting:
            concentration_roll(b, fig.id, "damaged", out)
    return out
