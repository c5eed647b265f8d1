"""Where a spell reaches, and what its rolls are made of (FTC 8.1, 8.2, 8.3).

The ranges and lines of sight of spells (touch, close, short, long), the hex an area spell is centred on,
the modifiers of a casting roll, of a dodge against a spell, of a resistance, of a concentration and of a
recognition roll, and what a figure makes out of a caster. The round's spells (``spells``) and the odds
shown before declaring (``game.engine.preview``) both read them here. This part owns no state.
"""

from __future__ import annotations

from collections.abc import Mapping

from game.engine import magic
from game.engine.battle import blows, declarations, effects, gm_seat, reach
from game.engine.battle.state import AttackTerms, BattleState, Figure, figure_distance
from game.engine.combat import Modifier, MovedFraction, Stance, obscured_vision_perception, offence_modifiers, total
from game.engine.hexgrid import Hex, distance
from game.engine.hexgrid import within as within_hexes
from game.engine.lof import LineOfFire, line_blocked, line_of_fire
from game.engine.ranges import firing_angle_modifier


def known_spells(b: BattleState, fid: str) -> list[magic.Spell]:
    """The catalogue spells a figure knows (roster key ``spells``)."""
    return [magic.spell(name) for name in b.figure(fid).character.spells]


def area_hex_on(b: BattleState, fid: str, spell_name: str, target: str) -> Hex | None:
    """The hex to centre a known area spell on so that it covers ``target`` (FTC 8.3): the target's own
    hex when it is within range and in sight, else the nearest hex of a large target's footprint that
    is; None when no hex of the target can be chosen."""
    item = magic.spell(spell_name)
    if item.target != "hex":
        return None
    return area_hex(b, b.figure(fid), item, b.figure(target))


def area_hex(b: BattleState, fig: Figure, item: magic.Spell, tgt: Figure) -> Hex | None:
    """``area_hex_on`` for two figures."""
    cells = [tgt.hex, *sorted(tgt.cells - {tgt.hex}, key=lambda c: (distance(fig.hex, c), c))]
    return next((c for c in cells if b.terrain.contains(c) and spell_reaches(b, fig, item, c, None)), None)


def spell_hexes(b: BattleState, fid: str, spell_name: str) -> list[Hex]:
    """Hexes an area spell may be centred on now: within its range and in sight (FTC 8.3)."""
    fig = b.figure(fid)
    item = magic.spell(spell_name)
    if item.effect != "area" or item.name not in fig.character.spells:
        return []
    span = magic.spell_range_hexes(item.range)
    radius = span if span is not None else max(b.terrain.width, b.terrain.height)
    return [
        h
        for h in sorted(within_hexes(fig.hex, radius))
        if b.terrain.contains(h) and spell_reaches(b, fig, item, h, None)
    ]


def spell_terms(
    b: BattleState,
    caster: str,
    spell_name: str,
    target: str | Hex | None = None,
    *,
    stance: Stance = Stance.NEUTRAL,
    dodges: int = 0,
    firer_defending: bool = False,
) -> AttackTerms:
    """The named modifiers and the difficulty of a casting roll (FTC 8.1: table 4's stance and table 7's
    firing modifiers, the penalty for having moved for a 1-round spell; 8.3: a line of fire for spells
    cast at a distance). Resolution and the odds shown before declaring both come from here."""
    fig = b.figure(caster)
    item = magic.spell(spell_name)
    mods = list(
        offence_modifiers(stance=stance, very_hurt_penalty=fig.very_hurt_penalty(b.round), missile_dodges=dodges)
    )
    target_hex = b.figure(target).hex if isinstance(target, str) else target
    line: LineOfFire[str] | None = None
    angle = 0
    partial = False
    if item.range in ("close", "short", "long") and target_hex is not None and target_hex != fig.hex:
        if isinstance(target, str):  # a large target is aimed at its nearest hex (FTC 5, 6.5)
            target_hex, dist = reach.aim(b, fig, b.figure(target))
        else:
            dist = distance(fig.hex, target_hex)
        line = line_of_fire(b.terrain, fig.hex, target_hex, occupants=reach.lof_occupants(b))
        angle = firing_angle_modifier(b.terrain.elevation_at(fig.hex), b.terrain.elevation_at(target_hex), dist)
        partial = line.partial_cover
    moved: MovedFraction = "none" if magic.resolves_when(item) == "last_round" else reach.moved_fraction(fig)
    mods += magic.casting_modifiers(
        item,
        moved_fraction=moved,
        firer_defending=firer_defending,
        elevation_angle_modifier=angle,
        footing=gm_seat.footing_at(b, fig.hex),
        light=gm_seat.light_at(b, fig.hex),
        partial_cover=partial,
    )
    if line is not None and isinstance(target, str) and b.terrain.cover_at(line.target):
        mods.append(Modifier("target in cover", b.terrain.cover_at(line.target)))
    mods += effects.attack_modifiers(b, fig, target_hex if target_hex is not None else fig.hex)
    mods += gm_seat.terms(b, fig)
    return AttackTerms(tuple(mods), item.difficulty, None, line)


def spell_dodge_terms(b: BattleState, target: str, spell_name: str, stance: Stance) -> tuple[Modifier, ...]:
    """The modifiers of a target dodging a spell cast at it from a distance (FTC 8.3, as a missile: 6.5.2
    and table 8's bonus read on the spell's difficulty; spells on the target; *Fudge* 4.1 the GM's
    modifiers). Resolution and the odds shown before declaring both come from here."""
    item = magic.spell(spell_name)
    return blows.dodge_terms(b, target, stance, Modifier("dodging a spell", magic.spell_dodge_bonus(item)))


def resistance_terms(b: BattleState, target: str, spell_name: str) -> tuple[int, tuple[Modifier, ...]] | None:
    """A target's resistance to a resisted spell before its 4dF (FTC 8: Will or Health; *Fudge* 4.1: the
    GM's modifiers on the figure count here as in its other rolls); None when the spell is not resisted.
    Resolution and the odds shown before declaring both come from here."""
    tgt = b.figure(target)
    level = magic.resist_level(magic.spell(spell_name), tgt.character)
    if level is None:
        return None
    return level, gm_seat.terms(b, tgt)


def concentration_terms(b: BattleState, fid: str) -> tuple[int, tuple[Modifier, ...]]:
    """A concentrating caster's Will and the modifiers on his roll to keep concentrating (FTC 8.1: Good
    when forced to dodge, Great when damaged; *Fudge* 4.1: the GM's modifiers on the figure). Resolution
    and the odds shown on the declaration panel both come from here."""
    fig = b.figure(fid)
    return fig.character.will, gm_seat.terms(b, fig)


def spell_reaches_hex(b: BattleState, fid: str, spell_name: str, h: Hex) -> bool:
    """FTC 8.3: whether a figure's spell would reach the hex ``h`` now (its range and line of sight; a
    touch spell: a hex in the hand's reach), as the declaration checks it (for the screen's highlight)."""
    return spell_reaches(b, b.figure(fid), magic.spell(spell_name), h, None)


def spell_reaches(b: BattleState, fig: Figure, item: magic.Spell, target_hex: Hex, target_id: str | None) -> bool:
    """FTC 8.3: b, touch (a front hex of the caster's hand, along the movement as a weapon's reach, FTC
    6.2), close 2, short 10, long in sight; beyond touch the line of sight must be clear of sight-blocking
    terrain and areas."""
    if item.range == "self":
        return target_id == fig.id
    if target_id == fig.id:
        return item.target in ("ally", "self")
    tgt = b.figures.get(target_id or "")
    if item.range == "touch":
        # FTC 6.2 as for a weapon: in reach at any point along the two figures' movement, with the hand
        return tgt is not None and reach.reach_along(
            b, fig, reach.moves_of(b, fig), tgt, reach.moves_of(b, tgt), magic.touch_weapon()
        )
    # a large target is aimed at its nearest hex with a line of fire, as a missile is (FTC 5, 6.5)
    aim, dist = reach.aim(b, fig, tgt) if tgt is not None else (target_hex, distance(fig.hex, target_hex))
    if tgt is not None:
        # FTC 6.2: in range at the most favourable point of both movements (a retreat does not undo it)
        dist = min(dist, reach.best_range(b, fig, tgt))
    if not magic.in_spell_range(item, dist):
        return False
    return not line_blocked(b.terrain, fig.hex, aim) and not effects.sight_blocked(b, fig.hex, aim)


def recognition_terms(b: BattleState, fid: str) -> tuple[Modifier, ...]:
    """The modifiers of a figure's Thaumatology roll to recognise a spell (FTC 8.2): a helmet that
    obscures vision, the greathelm (FTC 9.2), lowers it as it lowers the wearer's Perception (our
    reading, ``combat.obscured_vision_perception``): recognising a spell is watching the caster."""
    helm = next((a for a in b.figure(fid).character.armour if a.obscures_vision), None)
    return (Modifier(f"{helm.name} obscures vision", obscured_vision_perception()),) if helm else ()


def recognition_view(b: BattleState, fid: str, caster: str) -> tuple[bool, bool, bool]:
    """What a figure makes out of a caster for recognising his spell (FTC 8.2): (sees, hears, obscured),
    as ``magic.recognition_difficulty`` reads them. A large figure watches from whichever of its hexes
    sees best, and a large caster is seen at whichever of his hexes is seen best (FTC 5, as a missile is
    aimed at a large target's hexes); hearing counts between their nearest hexes."""
    return view_of_caster(b, b.figure(fid), b.figure(caster))


def view_of_caster(b: BattleState, fig: Figure, c: Figure) -> tuple[bool, bool, bool]:
    """``recognition_view`` for two figures."""
    hears = figure_distance(c, fig) <= (magic.spell_range_hexes("short") or 0)
    occupants = reach.lof_occupants(b)
    best = magic.recognition_difficulty(sees=True, hears=hears, obscured=False)
    pairs = [(c.hex, fig.hex)]
    if c.size > 1 or fig.size > 1:
        pairs += sorted((x, y) for x in c.cells for y in fig.cells if (x, y) != (c.hex, fig.hex))
    view: tuple[bool, bool, bool] | None = None
    rank: int | None = None
    for src, dst in pairs:
        lof = line_of_fire(b.terrain, src, dst, occupants=occupants)
        sees = not lof.blocked and not effects.sight_blocked(b, src, dst)
        crossed = {lh.hex for lh in lof.hexes}
        near = distance(src, dst)
        obscured = (
            lof.partial_cover
            or any(crossed & e.hexes() for e in effects.areas(b))
            or any(o not in (c.id, fig.id) for o in lof.bystanders_at_risk() if nearest(src, b.figures[o]) < near)
        )
        difficulty = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
        if difficulty is not None and (rank is None or difficulty < rank):
            view, rank = (sees, hears, obscured), difficulty
        if rank == best:
            break
    return view if view is not None else (False, hears, False)


def nearest(h: Hex, fig: Figure) -> int:
    """Hexes from ``h`` to the nearest hex ``fig`` covers (FTC 5)."""
    return distance(h, fig.hex) if fig.size == 1 else min(distance(h, x) for x in fig.cells)


def spell_dodge(
    b: BattleState, tgt: Figure, caster: Figure, item: magic.Spell, rolls: Mapping[str, int]
) -> tuple[int | None, tuple[Modifier, ...]]:
    """A target's dodge against a spell cast at it from a distance (FTC 8.3 as missiles, 6.5.2)."""
    tdecl = declarations.declaration_of(b, tgt.id)
    if tdecl is None or caster.id not in tdecl.dodge or tdecl.second_move or tgt.id not in rolls:
        return None, ()
    dmods = spell_dodge_terms(b, tgt.id, item.name, Stance(tdecl.stance))
    return tgt.character.agility + rolls[tgt.id] + total(dmods), dmods
