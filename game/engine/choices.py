"""What the deciding seat may choose now, typed and complete (FTC 5, 5.2, 5.3, 6.1, 6.2, 6.6, 8.3).

``legal_actions(battle)`` says who decides and which kinds of action they may take; ``choices(battle)``
beside it spells out the options those kinds have, as the rules allow them now: where a moving figure can
go (its ``Reach``), and for a declaration the weapons with their targets, every stance with the hexes it
may retreat into and the advances it may make (each with the targets it brings into reach), the spells
with their targets and the hexes an area spell may be centred on, the enemies that may be dodged and where
a blow may be aimed. The screen and the computer players offer these; ``apply`` still checks every action.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import cast, get_args

from game.engine.battle import Battle, Decision, IllegalAction, Reason, legal_actions
from game.engine.combat import Stance
from game.engine.hexgrid import Hex, direction_to, distance, front_hexes
from game.engine.movement import Reach
from game.engine.odds import Aim
from game.engine.seats import SIDE, Seat
from game.engine.stun import PULL_LEVELS
from game.engine.sweep import most_targets

AIMS: tuple[str, ...] = get_args(Aim)
"""Where a blow may be aimed (FTC 6.6): "best" lets the hit fall where it hurts most."""


_Candidate = tuple[tuple[Hex, ...], int | None]


@dataclass(frozen=True)
class Advance:
    """One advance an aggressive stance may make (FTC 6.2), as ``Declare.advance`` / ``advance_facing``
    take it, with the (hex, facing) after each step and, per weapon, the enemies in reach along it."""

    steps: tuple[Hex, ...]
    facing: int | None
    positions: tuple[tuple[Hex, int], ...]
    targets: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class StanceChoice:
    """A stance the figure may declare (FTC 6.1.1), with what it allows (FTC 6.2): ``retreat`` ("none",
    "may", "must"), the hexes it may retreat into, and the advances it may make (none for a stance that
    allows no advance)."""

    stance: str
    retreat: str
    retreats: tuple[Hex, ...]
    advances: tuple[Advance, ...]


@dataclass(frozen=True)
class DeclareChoices:
    """Everything a declaration may say now (FTC 6.1, 6.2, 6.6, 8.3)."""

    figure: str
    weapons: Mapping[str, tuple[str, ...]]
    """Each weapon carried, with the enemies in its reach or range without advancing."""
    stances: tuple[StanceChoice, ...]
    firers: tuple[str, ...]
    """Enemy missile firers and bolt casters the figure may dodge."""
    spells: Mapping[str, tuple[str, ...]]
    """Each known spell, with the figures it may be cast on now."""
    spell_hexes: Mapping[str, tuple[Hex, ...]]
    """Each known area spell, with the hexes it may be centred on now."""
    casting: str | None
    """The spell being concentrated on, continued by declaring it again (FTC 8.1)."""
    aims: Mapping[str, tuple[str, ...]]
    """For each enemy that may be attacked (with an advance or without), where a blow may be aimed."""
    can_stun: bool = False
    """*Fudge* 4.62 (rule option ``stun_blows``): a melee blow may go for stun (``Declare.stun``)."""
    max_wounds: tuple[str, ...] = ()
    """*Fudge* 4.62 (``pulled_blows``): the wound levels a blow may be pulled to (``Declare.max_wound``)."""
    sweep: int = 1
    """*Fudge* 4.34 (``sweeping_blow``): how many targets a melee slash may name (1: no sweeping blow)."""
    ignorable: tuple[str, ...] = ()
    """*Fudge* 4.34 (``ignore_attackers``): the enemies the figure may leave undefended (``Declare.ignore``)."""
    stunned: str | None = None
    """*Fudge* 4.62: "Stun" or "Very Stunned" when a stun hinders the figure this round: it may not attack,
    cast or take the very defensive stance (its weapons offer no target, no spell is offered)."""

    def stance(self, name: str) -> StanceChoice | None:
        """The choice for one stance, None when it may not be declared now."""
        return next((s for s in self.stances if s.stance == name), None)


@dataclass(frozen=True)
class Choices:
    """The open decision and its options: ``reach`` for a move (the figure's, or the second move's while
    declaring), ``interrupters`` for held figures that may move instead, ``declare`` for a declaration,
    ``follow`` for a follow step."""

    decision: Decision
    reach: Reach | None = None
    declare: DeclareChoices | None = None
    follow: Hex | None = None
    interrupters: Mapping[str, Reach] = field(default_factory=dict)
    """Held figures that may move now instead (FTC 5: an interrupt, or the side's own held figure before
    the one due), each with where it can go."""


def _advance_candidates(battle: Battle, fid: str, most: int) -> Iterator[_Candidate]:
    """Every sequence of up to ``most`` steps an advance could take: into a front hex, or a turn of one
    side in place (``advance_facing`` is one facing for the whole advance)."""
    fig = battle.figure(fid)

    def extend(
        steps: tuple[Hex, ...], h: Hex, f: int, turn: int | None
    ) -> Iterator[tuple[tuple[Hex, ...], int | None]]:
        if steps:
            yield steps, turn
        if len(steps) == most:
            return
        for n in front_hexes(h, f):
            d = direction_to(h, n)
            yield from extend((*steps, n), n, d if d is not None else f, turn)
        if turn is None:
            for t in ((f + 1) % 6, (f - 1) % 6):
                yield from extend((*steps, h), h, t, t)

    yield from extend((), fig.hex, fig.facing, None)


def advances(battle: Battle, fid: str, most: int) -> tuple[Advance, ...]:
    """FTC 6.2: the advances of up to ``most`` steps the figure may make now that bring an enemy into the
    reach of one of its weapons, each checked as the declaration checks it."""
    fig = battle.figure(fid)
    weapons = fig.character.weapons or (fig.character.ready_weapon,)
    start = (fig.hex, fig.facing)
    # a missile's targets do not depend on the advance (FTC 6.5: it is shot from where the firer stands)
    shots = {w.name: tuple(battle.targets_for(fid, w)) for w in weapons if w.ranged}
    # a blow reaches at most four hexes between centres (a large figure's footprint on each side, a spear's
    # two hexes): an enemy farther than that from every hex the advance and the enemy's own steps may take
    # cannot be brought into reach, and with none near and nothing to shoot there is no advance to offer
    near = any(
        e.positions and distance(e.positions[0][0], fig.hex) <= most + 4 + len(e.positions)
        for e in battle.enemies_of(fig)
    )
    if not near and not any(shots.values()):
        return ()
    seen: set[tuple[tuple[Hex, int], ...]] = set()
    out: list[Advance] = []
    for steps, turn in _advance_candidates(battle, fid, most):
        try:
            positions = tuple(battle.advance_positions(fid, steps, turn))
        except IllegalAction:
            continue
        if positions in seen:
            continue
        seen.add(positions)
        targets = {
            w.name: shots[w.name]
            if w.ranged
            else (tuple(battle.targets_for(fid, w, positions=[start, *positions])) if near else ())
            for w in weapons
        }
        if any(targets.values()):
            out.append(Advance(steps, turn, positions, targets))
    return tuple(out)


def declare_choices(battle: Battle, fid: str, options: Mapping[str, object] | None = None) -> DeclareChoices:
    """Everything figure ``fid`` may declare now (FTC 6.1, 6.2, 6.6, 8.3); see ``DeclareChoices``.
    ``options``: ``battle.declare_options(fid)`` when the caller has it already."""
    fig = battle.figure(fid)
    opts = battle.declare_options(fid) if options is None else options
    weapons = {w: tuple(ts) for w, ts in cast(dict[str, list[str]], opts["weapons"]).items()}
    retreats = tuple(battle.retreat_hexes(fid))
    names = cast(list[str], opts["stances"])
    most = max((Stance(s).max_advance for s in names), default=0)
    ranged_only = all(w.ranged for w in fig.character.weapons or (fig.character.ready_weapon,))
    moves = advances(battle, fid, most) if most > 0 and not ranged_only else ()
    stances = tuple(
        StanceChoice(
            s,
            Stance(s).retreat,
            retreats if Stance(s).retreat != "none" else (),
            tuple(a for a in moves if len(a.steps) <= Stance(s).max_advance),
        )
        for s in names
    )
    spells = {n: tuple(ts) for n, ts in cast(dict[str, list[str]], opts.get("spells", {})).items()}
    spell_hexes = {n: hexes for n in spells if (hexes := tuple(battle.spell_hexes(fid, n)))}
    enemies = {t for ts in weapons.values() for t in ts} | {t for a in moves for ts in a.targets.values() for t in ts}
    aims = {
        t: AIMS if battle.figure(t).character.has_head else tuple(a for a in AIMS if a != "head")
        for t in sorted(enemies)
    }
    casting = opts.get("casting")
    rules = battle.options
    stunned = battle.stun_hindrance(fid)
    return DeclareChoices(
        fid,
        weapons,
        stances,
        tuple(cast(list[str], opts["firers"])),
        spells,
        spell_hexes,
        casting if isinstance(casting, str) else None,
        aims,
        can_stun=rules.stun_blows and stunned is None,
        max_wounds=PULL_LEVELS if rules.pulled_blows and stunned is None else (),
        sweep=most_targets(rules.sweeping_blow) if stunned is None else 1,
        ignorable=battle.ignorable(fid),
        stunned=stunned,
    )


def choices(battle: Battle, seat: Seat | str | None = None) -> Choices | None:
    """The open decision with its options. None when the battle is over, or when ``seat`` (a ``Seat``, or a
    side's id) is given and the decision is not that seat's: the decisions of the round are the sides'; the
    GM's seat and watchers take none of them (the GM's own actions are ``game.engine.gm``'s)."""
    d = legal_actions(battle)
    if d is None:
        return None
    if isinstance(seat, Seat):
        if seat.role != SIDE or seat.side != d.side:
            return None
    elif seat is not None and seat != d.side:
        return None
    held = {fid: battle.reach_for(fid) for fid in d.interrupters}
    if d.reason in (Reason.MOVE, Reason.HELD_END) and d.figure is not None:
        return Choices(d, reach=battle.reach_for(d.figure), interrupters=held)
    if d.reason == Reason.INTERRUPT:
        return Choices(d, interrupters=held)
    if d.reason == Reason.DECLARE and d.figure is not None:
        return Choices(d, reach=battle.reach_for(d.figure), declare=declare_choices(battle, d.figure))
    if d.reason == Reason.FOLLOW:
        return Choices(d, follow=d.follow_hex)
    return Choices(d)
