"""Who can strike whom (FTC 6.2, 6.5, 9.1): melee reach along the attack phase's movement, a missile's aim and
range, and the weapon a figure fights with.

Questions over the spine only (figures, terrain, the phase) and the spells' areas: this part owns no
state. Declarations, the round's resolution, spells and the odds shown on screen all ask here, so a blow
is allowed, resolved and previewed from the same reach (docs/architecture.md "One source of legality").
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine import magic
from game.engine.battle import effects
from game.engine.battle.state import BattleState, Figure, IllegalAction, body, front_arc_2
from game.engine.combat import MovedFraction
from game.engine.creatures import footprint, front_zone, large_distance
from game.engine.equipment import Weapon
from game.engine.equipment import weapon as equipment_weapon
from game.engine.hexgrid import Hex, distance, front_hexes, neighbors
from game.engine.lof import line_blocked
from game.engine.ranges import range_band


def reach_ok(
    b: BattleState,
    att_hex: Hex,
    att_facing: int,
    target_hex: Hex,
    weapon: Weapon,
    *,
    size: int = 1,
    target: tuple[int, int] = (1, 0),
) -> bool:
    """Melee reach (docs/rulings.md "Melee reach"): a front hex; spear/pike also distance 2 in the front arc. A
    large attacker (``size``) reaches from the front of its footprint, a large target (``target``: its size and
    facing) is reached at any of its hexes (FTC 5; creatures.front_zone)."""
    if size != 1 or target[0] != 1:
        cells = footprint(att_hex, size, att_facing)
        zone = front_zone(cells, att_facing, 2 if weapon.reach >= 2 else 1)
        if b.options.attack_any_adjacent:
            zone |= {n for c in cells for n in neighbors(c)} - cells
        return not zone.isdisjoint(footprint(target_hex, target[0], target[1]))
    d = distance(att_hex, target_hex)
    if d == 1:
        return b.options.attack_any_adjacent or target_hex in front_hexes(att_hex, att_facing)
    if d == 2 and weapon.reach >= 2:
        return target_hex in front_arc_2(att_hex, att_facing)
    return False


def reach_along(
    b: BattleState,
    att: Figure,
    mine: Sequence[tuple[Hex, int]],
    tgt: Figure,
    theirs: Sequence[tuple[Hex, int]],
    weapon: Weapon,
) -> bool:
    """FTC 6.2: whether ``tgt`` was in ``att``'s melee reach with ``weapon`` at any point along the two
    figures' attack-phase movement (``mine``, ``theirs``: the positions each took). Weapons and touch
    spells (FTC 8.3) both ask here."""
    # no hex of a footprint is more than one from its centre, and no weapon reaches farther than two hexes
    # from the attacker's front: pairs of positions farther apart than that are out of reach (a quick no)
    farthest = 2 + (att.size != 1) + (tgt.size != 1)
    return any(
        reach_ok(b, h, f, th, weapon, size=att.size, target=(tgt.size, tf))
        for h, f in mine
        for th, tf in theirs
        if distance(h, th) <= farthest
    )


def moves_of(b: BattleState, fig: Figure) -> list[tuple[Hex, int]]:
    """The positions a figure took in this attack phase (FTC 6.2); outside it, where it stands now."""
    return fig.positions if b.phase == "attack" and fig.positions else [(fig.hex, fig.facing)]


def weapon_of(fig: Figure, name: str | None) -> Weapon:
    """The weapon a figure names in its declaration (None: its ready weapon); ``IllegalAction`` when it does
    not carry it (FTC 6.1)."""
    if name is None:
        return fig.character.ready_weapon
    for w in (*fig.character.weapons, fig.character.ready_weapon):  # a figure without weapons has its fist
        if w.name.lower() == name.lower():
            return w
    raise IllegalAction(f"{fig.name} does not carry a {name}.")


def melee_weapon(fig: Figure) -> Weapon:
    """The weapon a figure defends with in melee (FTC 6.3: its first melee weapon, or its fist), also when it
    shoots (FTC 6.1: a firer attacked in melee parries with it)."""
    for w in fig.character.weapons:
        if not w.ranged:
            return w
    return equipment_weapon("Fist")


def combat_skill(fig: Figure, weapon: Weapon | None = None, round_no: int | None = None) -> int:
    """A figure's skill with a weapon (its ready weapon by default; FTC 6.3) in the battle's round ``round_no``
    (a plus level counts on even rounds, *Fudge* 4.36)."""
    return fig.character.combat_skill(weapon or fig.character.ready_weapon, round_no)


def casts_bolts(fig: Figure) -> bool:
    """Whether a figure knows a spell it may cast at an enemy from a distance (FTC 8.3: dodged like a
    missile)."""
    for name in fig.character.spells:
        item = magic.spell(name)
        if item.target == "enemy" and item.range in ("close", "short", "long"):
            return True
    return False


# ---------------------------------------------------------------------------- missiles (FTC 6.5)
def aim(b: BattleState, firer: Figure, target: Figure) -> tuple[Hex, int]:
    """The hex a missile is aimed at and the range (FTC 6.5): a large target is shot at its nearest hex
    with a line of fire (the nearest hex when none has one); range counts between the nearest hexes."""
    if firer.size == 1 and target.size == 1:
        return target.hex, distance(firer.hex, target.hex)
    cells = sorted(target.cells, key=lambda c: (distance(firer.hex, c), c))
    at = next((c for c in cells if not line_blocked(b.terrain, firer.hex, c)), cells[0])
    return at, large_distance(firer.cells, target.cells)


def best_range(b: BattleState, firer: Figure, target: Figure) -> int:
    """The range at the most favourable point of the two figures' attack-phase movement (FTC 6.2: an
    attack declared while the target was in range stays declared, "in range of the first at *any
    point* along the movement of the two characters"): the shortest distance between their hexes over
    every position each took this phase (their current ones outside it)."""
    return min(
        large_distance(body(firer, h, f), body(target, th, tf))
        for h, f in moves_of(b, firer)
        for th, tf in moves_of(b, target)
    )


def lof_occupants(b: BattleState) -> dict[Hex, str]:
    """Who a line of fire may meet (FTC 6.5.3): every hex an able figure covers, with its id (each hex of a
    large figure, so one in the way is at risk)."""
    return {h: f.id for f in b.figures.values() if f.can_act for h in ((f.hex,) if f.size == 1 else f.cells)}


def moved_fraction(fig: Figure) -> MovedFraction:
    """Table 7 (FTC 6.5.1): how much of its movement allowance the firer used this round, for the penalty of
    firing after moving: none, up to half, or more."""
    return "none" if fig.hexes_moved == 0 else "half" if 2 * fig.hexes_moved <= fig.allowance else "full"


def ranged_ok(b: BattleState, firer: Figure, target: Figure, weapon: Weapon) -> bool:
    """FTC 6.5: whether ``firer`` may shoot ``target`` with ``weapon`` now: in range (table 8) with a line
    of fire clear of blocking terrain and of spells that block sight."""
    at, dist = aim(b, firer, target)
    band = range_band(weapon, dist, target.character.mass_scale)
    if band is None:
        return False
    return not line_blocked(b.terrain, firer.hex, at) and not effects.sight_blocked(b, firer.hex, at)
