"""The movement phase (FTC 5): moving in initiative order, holding and interrupting, zones of control.

A figure moves along a path checked by ``game.engine.movement``; leaving an enemy's zone of control
asks that enemy whether to stop it (FTC 5.2), an escape is an opposed roll (FTC 5.3, ``game.engine.zoc``),
and a figure that fails and runs anyway takes a free attack from each stopper (FTC 5.3). Held moves are
used or forfeited at the end of the phase in reverse initiative order (FTC 5). This part owns
``MovementState``: the figure due, the held figures at the phase's end, the sides that let the due figure
pass, and the move under way (also a second move in the attack phase, FTC 6.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine import stun
from game.engine.battle import blows, dice, effects, flow, gm_seat, reach, spells, zones
from game.engine.battle.state import (
    REASON_KINDS,
    STANDING_ORDERS,
    BattleState,
    Decision,
    Figure,
    IllegalAction,
    PendingMove,
    Reason,
    body,
    covered,
    figure_distance,
    sentence,
)
from game.engine.combat import Stance, behind_bonus, melee_difficulty, offence_modifiers
from game.engine.creatures import kind_modifiers
from game.engine.damage import crippled_posture
from game.engine.hexgrid import Hex
from game.engine.movement import Ground, IllegalMove, Path, Reach, movement_allowance
from game.engine.zoc import EscapeLevels, EscapeResult, escape_breakdown

PlannedMove = tuple[Path, int]
"""A move checked before it is made (``plan_move``): its path and the figure's allowance for it."""


def begin(b: BattleState) -> list[ev.Event]:
    """FTC 5: the movement phase begins with the first figure of the initiative order."""
    b.movement_state.due = 0
    b.movement_state.end_queue = None
    b.movement_state.passed = set()
    out: list[ev.Event] = [ev.PhaseBegan(b.round, "movement")]
    out.extend(advance(b))
    return out


def restart(b: BattleState) -> None:
    """The initiative order changed before anyone moved (the GM added or removed a figure): the phase
    starts again from the top of the order."""
    b.movement_state.due = 0


def decision(b: BattleState) -> Decision:
    """FTC 5: who moves now: a held figure at the phase's end, a side that may interrupt, or the figure
    due in initiative order (with its side's held figures offered beside it)."""
    held = [fid for fid in b.order if b.figures[fid].held and not b.figures[fid].moved and b.figures[fid].can_act]
    if b.movement_state.end_queue is not None:
        fid = b.movement_state.end_queue[0]
        fig = b.figures[fid]
        return Decision.of(
            fig, Reason.HELD_END, f"End of the movement phase: {fig.name} must use or forfeit the held move."
        )
    fid = b.order[b.movement_state.due]
    fig = b.figures[fid]
    for side in interrupt_sides(b, fig, held):
        mine = tuple(h for h in held if b.figures[h].side == side)
        return Decision(
            side,
            None,
            Reason.INTERRUPT,
            REASON_KINDS[Reason.INTERRUPT],
            f"{b.sides[side].name}: interrupt with a held figure before {fig.name} moves?",
            interrupters=mine,
        )
    own_held = tuple(h for h in held if b.figures[h].side == fig.side)
    return Decision.of(fig, Reason.MOVE, f"{fig.name} moves (or holds).", interrupters=own_held)


def interrupt_sides(b: BattleState, due: Figure, held: Sequence[str]) -> list[str]:
    """The sides to ask, in turn, whether a held figure takes the moment before ``due`` moves (FTC 5).

    Sides are asked in the initiative order of their best held figure: "If two combatants with held
    movement announce simultaneously that they want to move, the one with higher initiative goes
    first." The due figure's own side is asked among them only when another side is waiting too (alone,
    its held figures are offered with the due figure's own move).
    """
    sides: list[str] = []
    for h in held:
        s = b.figures[h].side
        if s not in b.movement_state.passed and s not in sides:
            sides.append(s)
    if all(s == due.side for s in sides):
        return []
    return sides


def check_turn(b: BattleState, fid: str, kinds: Iterable[str], kind: str) -> Decision:
    """The movement phase's decision now, when ``kind`` is allowed in it; ``IllegalAction`` otherwise."""
    d = pending_decision(b) or decision(b)
    if kind not in d.kinds or kind not in kinds:
        raise IllegalAction(f"Now is not the time for that: {d.prompt}")
    return d


def move(b: BattleState, a: act.Move) -> list[ev.Event]:
    """FTC 5: a figure takes its move (or, at the phase's end, uses or forfeits its held move)."""
    d = check_turn(b, a.figure, ("move",), "move")
    fig = b.figure(a.figure)
    if b.movement_state.pending is not None:
        raise IllegalAction(f"Finish {b.figures[b.movement_state.pending.figure].name}'s move first.")
    if d.reason == "held_end":
        if a.figure != d.figure:
            raise IllegalAction(f"It is {b.figures[d.figure or ''].name}'s turn to use the held move.")
    elif d.reason == "interrupt":
        if a.figure not in d.interrupters:
            raise IllegalAction("Only a held figure of this side may interrupt now.")
    elif a.figure != d.figure and a.figure not in d.interrupters:
        raise IllegalAction(f"It is {b.figures[d.figure or ''].name}'s turn to move.")
    if not fig.can_act or fig.moved:
        raise IllegalAction(f"{fig.name} cannot move again this round.")
    posture = fig.posture if a.posture is None else a.posture
    if posture not in ("standing", "crawling", "prone"):
        raise IllegalAction("Posture is standing, crawling or prone.")
    if d.reason == "held_end" and not a.steps and posture == fig.posture:
        # FTC 5: a held figure that does not use its move at the end of the phase forfeits it
        fig.moved = True
        fig.held = False
        return [ev.Forfeited(fig.id), *advance(b)]
    return start_move(b, fig, plan_move(b, fig, a.steps, posture=posture), "move", posture=posture)


def plan_move(b: BattleState, fig: Figure, steps: act.States, *, posture: str | None = None) -> PlannedMove:
    """A figure's move checked before it is made (FTC 5-5.3: its path over ``ground_for``, within its
    allowance in the posture it takes): the path and the allowance; ``IllegalAction`` when it may not."""
    old_posture = fig.posture
    fig.posture = posture or fig.posture
    allowance = allowance_of(b, fig)
    fig.posture = old_posture
    try:
        path = ground_for(b, fig).validate(fig.hex, fig.facing, tuple(steps), allowance)
    except IllegalMove as exc:
        raise IllegalAction(sentence(str(exc))) from None
    return path, allowance


def start_move(
    b: BattleState, fig: Figure, planned: PlannedMove, reason: str, *, posture: str | None = None
) -> list[ev.Event]:
    """Make a planned move (``plan_move``): walk it step by step, pausing where an enemy may stop the
    figure (FTC 5.2, 5.3). ``reason``: "move", or "second move" in the attack phase (FTC 6.1)."""
    path, allowance = planned
    fig.posture = posture or fig.posture
    fig.allowance = allowance
    b.movement_state.pending = PendingMove(fig.id, ((fig.hex, fig.facing), *path.steps), path.cost, reason)
    return walk(b)


def move_under_way(b: BattleState) -> str | None:
    """The figure whose move is under way (paused for a stop question or a failed escape), if any."""
    return b.movement_state.pending.figure if b.movement_state.pending is not None else None


def walk(b: BattleState) -> list[ev.Event]:
    """Walk the pending path, pausing for stop questions and failed escapes (FTC 5.2–5.3)."""
    p = b.movement_state.pending
    assert p is not None
    fig = b.figures[p.figure]
    out: list[ev.Event] = []
    holders: Mapping[Hex, frozenset[str]] | None = None  # the enemies' zones, worked out once they are asked
    while p.index < len(p.path) - 1:
        here, nxt = p.path[p.index][0], p.path[p.index + 1][0]
        # a large figure's turn moves its hexes too (FTC 5), so it may leave a zone by turning
        was, now = ({here}, {nxt}) if fig.size == 1 else (body(fig, *p.path[p.index]), body(fig, *p.path[p.index + 1]))
        if was != now and not p.to_ask and not p.stopping and p.failed_at is None and p.decided_at != p.index:
            p.decided_at = p.index
            if holders is None:
                holders = zones.stopper_zones(b, fig)
            # the enemies (who stop movers) holding a hex the figure leaves and none it enters (FTC 5.2)
            held_before = {e for h in was for e in holders.get(h, ())}
            held_after = {e for h in now for e in holders.get(h, ())} if held_before else set()
            leaving = [e for e in b.enemies_of(fig) if e.id in held_before and e.id not in held_after]
            if leaving:
                p.stopping = [e.id for e in leaving if e.standing_order == "always"]
                p.to_ask = [e.id for e in leaving if e.standing_order == "ask"]
                for sid in p.stopping:
                    out.append(ev.StopDecided(sid, fig.id, True))
        if p.to_ask:
            return out  # wait for StopChoice
        if p.failed_at is not None:
            return out  # wait for EscapeFailedChoice
        if p.stopping:
            stoppers = [b.figures[s] for s in p.stopping]
            p.stopping = []
            out.append(escape(b, fig, stoppers, here))
            if not out[-1].escaped:  # type: ignore[attr-defined]
                p.failed_at = p.index
                p.failed_stoppers = tuple(s.id for s in stoppers)
                return out
        p.index += 1
    out.extend(finish_move(b, fig, p.path, p.cost))
    return out


def failed_escape(b: BattleState) -> tuple[str, tuple[str, ...]] | None:
    """FTC 5.3: while a mover whose escape failed decides whether to run, its id and the stoppers who won
    the contest (each gets a free attack if it runs); None otherwise."""
    p = b.movement_state.pending
    if p is None or p.failed_at is None:
        return None
    return p.figure, p.failed_stoppers


def let_through(b: BattleState) -> list[ev.Event]:
    """FTC 5.3 overridden by the GM: the mover who has just failed to escape gets through after all and
    goes on with his move."""
    p = b.movement_state.pending
    assert p is not None and p.failed_at is not None
    p.failed_at = None
    p.index += 1
    return walk(b)


def set_free_attackers(b: BattleState, stoppers: tuple[str, ...]) -> None:
    """FTC 5.3 overridden by the GM: who strikes the mover who failed to escape, if he runs."""
    assert b.movement_state.pending is not None
    b.movement_state.pending.failed_stoppers = stoppers


def escape_levels(b: BattleState, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
    """FTC 5.3: the escape contest's levels with their named modifiers, the GM's included (the contest
    and the odds shown on screen both come from here)."""
    pairs = []
    for s in stoppers:
        engaged = sum(1 for e in b.enemies_of(s) if e.id != fig.id and not zones.zone(b, e).isdisjoint(s.cells))
        pairs.append((reach.combat_skill(s, round_no=b.round), engaged))
    return gm_seat.escape_levels(b, escape_breakdown(fig.character.agility, pairs), fig, stoppers)


def escape(b: BattleState, fig: Figure, stoppers: list[Figure], at: Hex) -> ev.EscapeContest | ev.EscapeOverridden:
    """FTC 5.3: the escape contest, with its modifiers, rolled at once (unless the GM decided it)."""
    decided = gm_seat.decided_escape(b, fig.id)
    if decided is not None:
        return ev.EscapeOverridden(fig.id, tuple(s.id for s in stoppers), decided)
    levels = escape_levels(b, fig, stoppers)
    # mover first, then each stopper in order: the draws of FTC 5.3's contest as zoc.roll_escape makes them
    mr = dice.roll(b, "escape", fig.id)
    rolls = tuple(dice.roll(b, "escape", s.id) for s in stoppers)
    result = EscapeResult(
        mr,
        levels.mover + mr.total,
        rolls,
        tuple(lv + r.total for lv, r in zip(levels.stoppers, rolls, strict=True)),
    )
    stopper_mods = levels.stopper_modifiers
    return ev.EscapeContest(
        fig.id,
        at,
        fig.character.agility,
        tuple(levels.mover_modifiers),
        result.mover_roll.faces,
        result.mover_result,
        tuple(s.id for s in stoppers),
        tuple(reach.combat_skill(s, round_no=b.round) for s in stoppers),
        tuple(tuple(m) for m in stopper_mods),
        tuple(r.faces for r in result.stopper_rolls),
        tuple(result.stopper_results),
        result.escaped,
    )


def finish_move(b: BattleState, fig: Figure, path: Sequence[tuple[Hex, int]], cost: int) -> list[ev.Event]:
    """The move under way ends along ``path``: the figure stands at its end; a second move hands the
    attack phase on (``flow.step``), a move of the movement phase the next figure."""
    p = b.movement_state.pending
    reason = p.reason if p else "move"
    b.movement_state.pending = None
    hexes = [path[0][0]]
    for h, _ in path[1:]:
        if h != hexes[-1]:
            hexes.append(h)
    fig.hex, fig.facing = path[-1]
    fig.hexes_moved += len(hexes) - 1
    out: list[ev.Event] = [ev.Moved(fig.id, tuple(hexes), fig.facing, cost, fig.allowance, reason)]
    out.extend(spells.caster_moved(b, fig, len(hexes) - 1))
    if reason == "second move":
        out.extend(flow.step(b))
        return out
    fig.moved = True
    fig.held = False
    # FTC 5: a held figure may interrupt before *any* later figure, so a side that let one figure
    # pass is asked again before the next one moves
    b.movement_state.passed = set()
    out.extend(advance(b))
    return out


def stop_choice(b: BattleState, a: act.StopChoice) -> list[ev.Event]:
    """FTC 5.2: an enemy whose zone the mover leaves says whether it tries to stop him."""
    p = b.movement_state.pending
    if p is None or not p.to_ask or p.to_ask[0] != a.figure:
        raise IllegalAction("Nobody is asking that figure whether to stop a mover now.")
    p.to_ask.pop(0)
    if a.stop:
        p.stopping.append(a.figure)
    out: list[ev.Event] = [ev.StopDecided(a.figure, p.figure, a.stop)]
    if not p.to_ask:
        out.extend(walk(b))
    return out


def escape_failed_choice(b: BattleState, a: act.EscapeFailedChoice) -> list[ev.Event]:
    """FTC 5.3: a mover who failed to escape stays, or turns tail and runs, taking the free attacks."""
    p = b.movement_state.pending
    if p is None or p.failed_at is None or p.figure != a.figure:
        raise IllegalAction("That figure has not failed an escape.")
    fig = b.figures[a.figure]
    out: list[ev.Event] = [ev.EscapeFailed(fig.id, a.run)]
    if not a.run:
        out.extend(finish_move(b, fig, stop_point(b, fig, p.path, p.failed_at), p.cost))
        return out
    stoppers = [b.figures[s] for s in p.failed_stoppers]
    # FTC 5.3: the free attacks strike the runner where he turns tail: the hex he leaves and the facing
    # he has there (reach, the behind bonus), not where his move began
    # (passing through a stopper's own hex, the last free hex before it)
    fig.hex, fig.facing = stop_point(b, fig, p.path, p.index)[-1]
    out.extend(free_attacks(b, fig, stoppers))
    p.failed_at = None
    if not fig.can_act:
        out.extend(finish_move(b, fig, stop_point(b, fig, p.path, p.index), p.cost))
        return out
    p.index += 1
    out.extend(walk(b))
    return out


def stop_point(b: BattleState, fig: Figure, path: Sequence[tuple[Hex, int]], upto: int) -> list[tuple[Hex, int]]:
    """FTC 5.2: a move cut short (held in place, or taken out while running) ends in the last hex of
    the path up to ``upto`` that no other figure occupies: nobody ends a move in an occupied hex."""
    cut = list(path[: upto + 1])
    taken = covered(f for f in b.figures.values() if f.id != fig.id)
    while len(cut) > 1 and not taken.isdisjoint(body(fig, *cut[-1])):
        cut.pop()
    return cut


def hold(b: BattleState, a: act.Hold) -> list[ev.Event]:
    """FTC 5: the due figure holds its move, to use it later in the phase or at its end."""
    d = check_turn(b, a.figure, ("hold",), "hold")
    if a.figure != d.figure:
        raise IllegalAction("Only the figure whose turn it is may hold.")
    fig = b.figures[a.figure]
    fig.held = True
    b.movement_state.due += 1
    b.movement_state.passed = set()
    return [ev.Held(fig.id), *advance(b)]


def pass_interrupt(b: BattleState, a: act.PassInterrupt) -> list[ev.Event]:
    """FTC 5: a side with held figures lets the due figure move without interrupting."""
    d = check_turn(b, "", ("pass_interrupt",), "pass_interrupt")
    if a.side != d.side:
        raise IllegalAction("It is another side's choice now.")
    b.movement_state.passed.add(a.side)
    return []


def advance(b: BattleState) -> list[ev.Event]:
    """Skip figures that already moved or cannot act; at the end, held figures in reverse order (nothing while the
    flow holds for a Fudge Point question, ``flow.held``)."""
    out: list[ev.Event] = []
    if flow.held(b):
        return out
    if flow.check_over(b, out):
        return out
    if b.movement_state.end_queue is None:
        while b.movement_state.due < len(b.order):
            f = b.figures[b.order[b.movement_state.due]]
            if f.can_act and not f.moved and not f.held:
                break
            b.movement_state.due += 1
        else:
            b.movement_state.end_queue = [fid for fid in reversed(b.order) if b.figures[fid].held]
            b.movement_state.passed = set()
    if b.movement_state.end_queue is not None:
        b.movement_state.end_queue = [
            fid for fid in b.movement_state.end_queue if b.figures[fid].can_act and not b.figures[fid].moved
        ]
        if not b.movement_state.end_queue:
            out.extend(flow.end(b))
    return out


def free_attacks(b: BattleState, mover: Figure, stoppers: list[Figure]) -> list[ev.Event]:
    """FTC 5.3: each stopper attacks the runner at once; one defence roll at -2, no blow back. A stopper stunned
    this round strikes none (*Fudge* 4.62: a free attack is an attack)."""
    out: list[ev.Event] = []
    stoppers = [s for s in stoppers if stun.hindrance(s.stunned, b.round) is None]
    shared: dict[str, tuple[int, ...]] = {}  # Fudge 4.34: a side's pawns share one roll in this exchange
    mover_roll = dice.combat_faces(b, mover.id, shared, out)
    out.append(ev.CombatRoll(mover.id, *mover_roll))
    wounds: list[blows.Wound] = []
    # FTC 9.2: the runner's shield counts against as many of the free attacks as it has uses left this round
    shielded = blows.shield_against(mover, [s.id for s in stoppers])
    for s in stoppers:
        r = dice.combat_faces(b, s.id, shared, out)
        out.append(ev.CombatRoll(s.id, *r))
        weapon = reach.melee_weapon(s)
        defence, dmods, _ = blows.defence_vs(
            b, mover, s, weapon, sum(mover_roll.faces), None, shield_ok=s.id in shielded, run=True
        )
        behind = behind_bonus(s.hex, mover.hex, mover.facing, attacker_phase_start=s.hex, moved_this_attack_phase=False)
        omods = (
            *offence_modifiers(stance=Stance.NEUTRAL, behind=behind, very_hurt_penalty=s.very_hurt_penalty(b.round)),
            *kind_modifiers(s.character.kind)[0],
            *gm_seat.terms(b, s),
        )
        event, wound = blows.strike(
            b,
            blows.Offence(s, weapon, sum(r.faces), omods),
            mover,
            defence,
            dmods,
            (),
            melee_difficulty(s.character.mass_scale, mover.character.mass_scale),
            figure_distance(s, mover),
            "best",
            free=True,
            target_roll=sum(mover_roll.faces),  # the runner defends with his escape roll
        )
        out.append(event)
        if wound:
            wounds.append(wound)
    out.extend(blows.apply_wounds(b, wounds))
    out.extend(blows.disarms(b, out))
    out.extend(blows.taken_out(b, (mover,)))
    return out


def allowance_of(b: BattleState, fig: Figure, posture: str | None = None) -> int:
    """FTC 5, 5.1.1: hexes this round before terrain (posture — the figure's own, or the one it is
    about to take — and encumbrance included)."""
    c = fig.character
    allowance = movement_allowance(
        c.speed,
        speed_scale=c.speed_scale,
        # FTC 6.6: a crippled leg or foot hobbles as if crawling (docs/rulings.md "Hit location")
        posture=crippled_posture(posture or fig.posture, fig.crippled),
        strength=c.strength,
        strength_scale=c.strength_scale,
        load_kg=c.carried_mass_kg(),
    )
    return effects.movement_allowance(b, fig, allowance)


def reach_for(b: BattleState, fid: str, *, allowance: int | None = None, posture: str | None = None) -> Reach:
    """Reachable hexes and cheapest paths for a figure now (one source of legality, docs/architecture.md "One source
    of legality");
    ``posture``: as if it first dropped to crawling / prone or stood up (FTC 5 "Crawling and Rolling")."""
    fig = b.figure(fid)
    if allowance is None:
        allowance = allowance_of(b, fig, posture)
    return ground_for(b, fig).reach(fig.hex, fig.facing, allowance)


def ground_for(b: BattleState, fig: Figure) -> Ground:
    """What ``fig``'s move is searched and priced over now (FTC 5-5.3): every other figure's hexes are
    occupied (passable at +1, FTC 5.2: an enemy's hex too, when he does not stop the mover or the mover
    breaks his zone of control), and the zones of the enemies who would stop it; one ground for the
    highlights, the AI and the move's validation alike."""
    return Ground(
        b.terrain,
        fig.character.movement_modes[0],
        occupied=covered(f for f in b.figures.values() if f.id != fig.id),
        zones=zones.stopper_zones(b, fig),
        per_hex_terrain=b.options.per_hex_terrain,
        size=fig.size,
    )


def pending_decision(b: BattleState) -> Decision | None:
    """Who must decide now about the move under way, in any phase: an enemy whose zone the mover leaves
    (FTC 5.2), or the mover after a failed escape (FTC 5.3); None when no move waits for a decision."""
    if b.movement_state.pending is not None:
        p = b.movement_state.pending
        if p.to_ask:
            stopper = b.figures[p.to_ask[0]]
            mover = b.figures[p.figure]
            prompt = f"{mover.name} is leaving {stopper.name}'s zone of control: try to stop them?"
            return Decision.of(stopper, Reason.STOP, prompt, mover=mover.id)
        if p.failed_at is not None:
            mover = b.figures[p.figure]
            prompt = (
                f"{mover.name} failed to escape: stay here, or turn tail and run (each stopper gets a free attack)?"
            )
            return Decision.of(mover, Reason.ESCAPE_FAILED, prompt)
    return None


def set_standing_order(b: BattleState, a: act.SetStandingOrder) -> list[ev.Event]:
    """FTC 5.2: whether a figure stops enemies leaving its zone always, never, or asks each time."""
    fig = b.ordered(a.figure, a.order, STANDING_ORDERS, "A standing order")
    fig.standing_order = a.order
    return [ev.StandingOrderSet(fig.id, a.order)]
