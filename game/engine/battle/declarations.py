"""The attack phase's declarations (FTC 6, 6.1, 6.2): who declares when, what each declared, who can be
attacked, and the steps a declaration takes (an advance, a retreat, the follow of an attacker whose target
retreats).

Figures declare in reverse initiative order (FTC 6.1). This part owns ``AttackState``: the figures still
to declare, the declarations made this round, the attackers offered a follow step, and whether secret
stances were revealed (*Fudge* 4.32). Making a declaration (its checks and what it sets off) is
``attack_phase``; the rest of the battle reads the declarations through the functions here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine import magic, stun
from game.engine.battle import flow, reach
from game.engine.battle.state import (
    BattleState,
    Declaration,
    Figure,
    IllegalAction,
    body,
    covered,
    figure_distance,
)
from game.engine.combat import Stance
from game.engine.creatures import large_distance
from game.engine.equipment import Weapon
from game.engine.hexgrid import Hex, direction_to, distance, front_hexes, neighbor, neighbors, turn_steps


# ---------------------------------------------------------------------------- the round's declarations
def begin(b: BattleState) -> None:
    """FTC 6.1: the attack phase begins: nobody has declared; the able figures declare in reverse
    initiative order; each figure's attack-phase movement starts where it stands (FTC 6.2)."""
    b.attack_state.declarations = {}
    b.attack_state.declare_queue = [fid for fid in reversed(b.order) if b.figures[fid].can_act]
    b.attack_state.revealed = False
    for f in b.figures.values():
        f.phase_start_hex = f.hex
        f.positions = [(f.hex, f.facing)]


def to_declare(b: BattleState) -> tuple[str, ...]:
    """The figures still to declare, in the order they declare (FTC 6.1)."""
    return tuple(b.attack_state.declare_queue)


def declaring_order(b: BattleState) -> tuple[str, ...]:
    """The figures still to declare in this attack phase, in the order they declare (FTC 6.1: lowest
    initiative first); empty outside the declarations."""
    return to_declare(b) if b.phase == "attack" else ()


def next_to_follow(b: BattleState) -> tuple[str, Hex] | None:
    """The attacker now offered the follow step, and the hex its target left (FTC 6.2), if any."""
    return b.attack_state.follow_queue[0] if b.attack_state.follow_queue else None


def waiting(b: BattleState) -> bool:
    """Whether a figure is still to declare or to choose whether to follow (FTC 6.1, 6.2)."""
    return bool(b.attack_state.declare_queue or b.attack_state.follow_queue)


def declaration_of(b: BattleState, fid: str) -> Declaration | None:
    """The figure's declaration this round, if it has declared."""
    return b.attack_state.declarations.get(fid)


def declarations(b: BattleState) -> Mapping[str, Declaration]:
    """This round's declarations so far, by figure, in the order made."""
    return b.attack_state.declarations


def record(b: BattleState, decl: Declaration) -> None:
    """The figure first in the declaring order has declared ``decl`` (checked)."""
    b.attack_state.declarations[decl.figure] = decl
    b.attack_state.declare_queue.pop(0)


def withdraw(b: BattleState, fid: str) -> None:
    """The figure will not declare this round (held fast by a spell, FTC 8)."""
    if fid in b.attack_state.declare_queue:
        b.attack_state.declare_queue.remove(fid)


def drop_unable(b: BattleState) -> None:
    """Figures taken out (or removed) since the phase began neither declare nor follow."""
    able = {fid for fid, f in b.figures.items() if f.can_act}
    b.attack_state.declare_queue = [f for f in b.attack_state.declare_queue if f in able]
    b.attack_state.follow_queue = [(f, h) for f, h in b.attack_state.follow_queue if f in able]


def reveal(b: BattleState) -> bool:
    """*Fudge* 4.32: under secret stances, the declarations are revealed once all are made; True when they
    are revealed now (not before, and only once)."""
    if not b.options.secret_stances or b.attack_state.revealed:
        return False
    b.attack_state.revealed = True
    return True


def clear(b: BattleState) -> None:
    """FTC 3 cut short by the GM: declarations not yet resolved are lost."""
    b.attack_state.declare_queue, b.attack_state.follow_queue, b.attack_state.declarations = [], [], {}


def forget(b: BattleState) -> None:
    """The GM removed a figure: last round's declarations (read only by ``threats_to``) are dropped."""
    b.attack_state.declarations = {}


# ---------------------------------------------------------------------------- who can be attacked
def follow_step(b: BattleState, fig: Figure, vacated: Hex) -> tuple[Hex, int] | None:
    """FTC 6.2's follow step: a one-hex figure steps into the hex its target left, facing the way it
    stepped; a large figure shifts one hex, keeping its facing, so that it covers that hex. None when
    it cannot (not adjacent, or no room)."""
    if fig.size == 1:
        facing = direction_to(fig.hex, vacated)
        if distance(fig.hex, vacated) != 1 or b.occupant(vacated) is not None:
            return None
        return vacated, facing if facing is not None else fig.facing
    for c in sorted(fig.cells):
        d = direction_to(c, vacated)
        if d is not None:
            h = neighbor(fig.hex, d)
            if b.fits(fig, h, fig.facing):
                return h, fig.facing
    return None


def targets_for(
    b: BattleState, fid: str, weapon: Weapon | None = None, *, positions: Sequence[tuple[Hex, int]] | None = None
) -> list[str]:
    """Figures this figure may attack with a weapon now (FTC 6.2: in reach at any point along either
    figure's attack-phase movement; ranged: in range with an unblocked line of fire); none for a figure stunned
    this round (*Fudge* 4.62: it cannot attack)."""
    fig = b.figure(fid)
    if fig.stunned and stun.hindrance(fig.stunned, b.round) is not None:
        return []
    weapon = weapon or fig.character.ready_weapon
    mine = list(positions) if positions is not None else fig.positions
    if weapon.ranged:
        return [e.id for e in b.enemies_of(fig) if reach.ranged_ok(b, fig, e, weapon)]
    if not mine:
        return []
    # a blow reaches at most four hexes between centres, and each step of either figure's movement this
    # phase moves it one hex: an enemy whose movement began farther than that from where this figure's
    # began is out of reach (a quick no before the exact test)
    start, steps = mine[0][0], len(mine)
    return [
        e.id
        for e in b.enemies_of(fig)
        if e.positions
        and distance(start, e.positions[0][0]) <= 4 + steps + len(e.positions)
        and reach.reach_along(b, fig, mine, e, e.positions, weapon)
    ]


def can_attack(
    b: BattleState,
    fid: str,
    target: str,
    weapon: Weapon | None = None,
    *,
    positions: Sequence[tuple[Hex, int]] | None = None,
) -> bool:
    """Whether this figure may attack ``target`` with a weapon now: ``targets_for``'s test of one enemy (FTC
    6.2: in reach at any point along either figure's attack-phase movement, ``positions`` standing for a
    planned advance; FTC 6.5: in range with an unblocked line of fire)."""
    fig = b.figure(fid)
    tgt = b.figures.get(target)
    if tgt is None or tgt.side == fig.side or not tgt.can_act:
        return False
    weapon = weapon or fig.character.ready_weapon
    return can_strike(b, fig, tgt, weapon, list(positions) if positions is not None else fig.positions)


def can_strike(b: BattleState, fig: Figure, enemy: Figure, weapon: Weapon, mine: Sequence[tuple[Hex, int]]) -> bool:
    """Whether ``fig`` may attack ``enemy`` (an enemy able to fight) with ``weapon``: a missile in range with a
    clear line (FTC 6.5), a melee weapon in reach along ``mine`` and the enemy's attack-phase movement (FTC
    6.2)."""
    if weapon.ranged:
        return reach.ranged_ok(b, fig, enemy, weapon)
    return reach.reach_along(b, fig, mine, enemy, enemy.positions, weapon)


def melee_attackers_on(b: BattleState, fid: str) -> list[str]:
    """Figures that have declared a melee attack on this figure this round so far (FTC 6.1), counted as the
    round's resolution counts them (able to act, no second move): table 7's "defending against attacks"
    for a caster resolved at his declaration (FTC 8.1), and for the odds shown before declaring. An enemy
    laying a touch spell on it counts too: the touch is a standard attack (FTC 8.3)."""
    me = b.figures[fid]
    return [
        d.figure
        for d in b.attack_state.declarations.values()
        if not d.second_move
        and b.figures[d.figure].can_act
        and (
            (fid in d.targets and not reach.weapon_of(b.figures[d.figure], d.weapon).ranged)
            or (touch_on(d, fid) and b.figures[d.figure].side != me.side)
        )
    ]


def threats_to(b: BattleState, fid: str, *, known: Collection[str] | None = None) -> list[Figure]:
    """Enemies attacking this figure: those who declared attacks on it (a touch spell cast on it
    included: its touch is a standard attack, FTC 8.3), and those who have it in melee reach now (FTC
    6.2's "attackers" for a retreat). ``known``: the figures whose declarations may be counted (those a
    player has seen, *Fudge* 4.32); the others are taken as not declared yet. An enemy stunned this round
    attacks nobody (*Fudge* 4.62)."""
    fig = b.figure(fid)
    out = []
    for e in b.enemies_of(fig):
        if e.stunned and stun.hindrance(e.stunned, b.round) is not None:
            continue
        d = b.attack_state.declarations.get(e.id) if known is None or e.id in known else None
        if (d and (fid in d.targets or touch_on(d, fid))) or (
            d is None
            and distance(e.hex, fig.hex) <= 2 + (e.size != 1) + (fig.size != 1)  # no blow reaches farther
            and reach.reach_ok(
                b, e.hex, e.facing, fig.hex, e.character.ready_weapon, size=e.size, target=(fig.size, fig.facing)
            )
        ):
            out.append(e)
    return out


def retreat_hexes(b: BattleState, fid: str) -> list[Hex]:
    """FTC 6.2: adjacent free hexes farther from every attacker (zones of control do not apply)."""
    fig = b.figure(fid)
    threats = threats_to(b, fid)
    out = []
    if fig.size != 1 or any(t.size != 1 for t in threats):
        # a large figure shifts its whole footprint; distances between nearest hexes (FTC 5)
        return [
            h
            for h in neighbors(fig.hex)
            if b.fits(fig, h, fig.facing)
            and all(large_distance(body(fig, h, fig.facing), t.cells) > figure_distance(fig, t) for t in threats)
        ]
    taken = covered(b.figures.values())
    for h in neighbors(fig.hex):
        if not b.terrain.is_passable(h, fig.character.movement_modes[0]) or h in taken:
            continue
        if all(distance(h, t.hex) > distance(fig.hex, t.hex) for t in threats):
            out.append(h)
    return out


def advance_positions(
    b: BattleState, fid: str, steps: Sequence[Hex], facing: int | None = None
) -> list[tuple[Hex, int]]:
    """FTC 6.2: the (hex, facing) a figure takes at each step of an advance, checked: a step into one of
    the three hexes in front (facing the way it stepped), or a step into its own hex, a turn of one side
    to ``facing``. Raises ``IllegalAction`` naming the first step that is not allowed. How many steps
    a stance allows is the declaration's check."""
    fig = b.figure(fid)
    positions: list[tuple[Hex, int]] = []
    h, f = fig.hex, fig.facing
    for step in steps:
        if step == h:
            nf = facing if facing is not None else f
            if turn_steps(f, nf) != 1:
                raise IllegalAction("Turning in place during an advance turns exactly one hex side.")
            if fig.size != 1 and not b.fits(fig, h, nf):
                raise IllegalAction(f"{fig.name} has no room to turn there.")
            f = nf
        else:
            if step not in front_hexes(h, f):
                raise IllegalAction("Each advancing step goes into one of the three hexes in front.")
            occ = b.occupant(step)
            if fig.size != 1:
                if not b.fits(fig, step, direction_to(h, step) or 0):
                    raise IllegalAction(
                        f"{fig.name} has no room there: every hex it would cover must be free and passable."
                    )
            elif occ is not None or not b.terrain.is_passable(step, fig.character.movement_modes[0]):
                raise IllegalAction("That hex is occupied or cannot be entered.")
            f = direction_to(h, step) or 0 if direction_to(h, step) is not None else f
            h = step
        positions.append((h, f))
    return positions


def take_steps(
    b: BattleState, fig: Figure, decl: Declaration, steps: tuple[tuple[Hex, int], ...], retreat: Hex | None
) -> list[ev.Event]:
    """FTC 6.2: carry out a declaration's advance or retreat, and offer attackers the follow step."""
    out: list[ev.Event] = []
    for h, f in steps:
        if (h != fig.hex and b.occupant(h) is not None) if fig.size == 1 else not b.fits(fig, h, f):
            break  # under secret stances another figure may have stepped there first
        out.append(ev.Stepped(fig.id, fig.hex, h, f, "advance"))
        fig.hex, fig.facing = h, f
        fig.positions.append((h, f))
    if retreat is not None and (b.occupant(retreat) is None if fig.size == 1 else b.fits(fig, retreat, fig.facing)):
        origin = fig.hex
        left = sorted(fig.cells - body(fig, retreat, fig.facing)) if fig.size != 1 else [origin]
        out.append(ev.Stepped(fig.id, origin, retreat, fig.facing, "retreat"))
        fig.hex = retreat
        fig.positions.append((fig.hex, fig.facing))
        decl.retreated = True
        for other in b.attack_state.declarations.values():
            if fig.id in other.targets and Stance(other.stance).retreat == "none" and other.figure != fig.id:
                follower = b.figures[other.figure]
                # the follower steps into a hex the target left (FTC 6.2), if it can
                spot = next((c for c in left if follow_step(b, follower, c) is not None), None)
                if spot is not None and follower.can_act:
                    b.attack_state.follow_queue.append((follower.id, spot))
    if Stance(decl.stance) == Stance.VERY_DEFENSIVE and decl.dodge and fig.posture != "prone":
        # FTC 6.2: "If he is attempting to dodge missile fire, he must also dive for the ground": he ends
        # the phase lying down, and moves lying down next round unless he gets up (FTC 5)
        fig.posture = "prone"
        out.append(ev.Stepped(fig.id, fig.hex, fig.hex, fig.facing, "dive"))
    return out


def follow(b: BattleState, a: act.FollowChoice) -> list[ev.Event]:
    """FTC 6.2: an attacker whose target retreated steps into the hex it left, or stays (``a.hex`` None)."""
    if not b.attack_state.follow_queue or b.attack_state.follow_queue[0][0] != a.figure:
        raise IllegalAction("That figure is not being offered a follow step now.")
    fid, vacated = b.attack_state.follow_queue[0]
    fig = b.figures[fid]
    if a.hex is not None and a.hex != vacated:
        raise IllegalAction("Following steps into the hex the target left.")
    step = follow_step(b, fig, vacated)
    if a.hex is not None and step is None:
        raise IllegalAction("The hex the target left is taken.")
    b.attack_state.follow_queue.pop(0)
    out: list[ev.Event] = []
    if a.hex is not None and step is not None:
        origin = fig.hex
        fig.hex, fig.facing = step
        fig.positions.append((fig.hex, fig.facing))
        out.append(ev.Stepped(fid, origin, fig.hex, fig.facing, "follow"))
        # two attackers may follow the same target: once one steps in, the others have no hex to take
        b.attack_state.follow_queue = [
            (f, h)
            for f, h in b.attack_state.follow_queue
            if h != vacated and follow_step(b, b.figures[f], h) is not None
        ]
    out.extend(flow.step(b))
    return out


def touch_on(decl: Declaration, fid: str) -> bool:
    """Whether a declaration casts a touch spell on figure ``fid`` (FTC 8.3: its touch is an attack)."""
    return decl.spell is not None and decl.spell_target == fid and magic.spell(decl.spell).is_touch
