"""The movement phase (FTC 5): moving in initiative order, holding and interrupting, zones of control.

A figure moves along a path checked by ``game.engine.movement``; leaving an enemy's zone of control
asks that enemy whether to stop it (FTC 5.2), an escape is an opposed roll (FTC 5.3, ``game.engine.zoc``),
and a figure that fails and runs anyway takes a free attack from each stopper (FTC 5.3). Held moves are
used or forfeited at the end of the phase in reverse initiative order (FTC 5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle.state import (
    BattleState,
    Decision,
    Figure,
    IllegalAction,
    Reason,
    _covered,
    _PendingMove,
    _sentence,
)
from game.engine.combat import (
    Stance,
    behind_bonus,
    melee_difficulty,
    offence_modifiers,
)
from game.engine.creatures import kind_modifiers
from game.engine.hexgrid import (
    Hex,
)
from game.engine.movement import IllegalMove
from game.engine.zoc import EscapeLevels, EscapeResult, escape_breakdown


class MovementPhase(BattleState):
    """FTC 5, 5.2, 5.3: the movement phase, zone-of-control escapes and free attacks."""

    def _movement_decision(self) -> Decision:
        held = [
            fid
            for fid in self.order
            if self.figures[fid].held and not self.figures[fid].moved and self.figures[fid].can_act
        ]
        if self._end_queue is not None:
            fid = self._end_queue[0]
            fig = self.figures[fid]
            return Decision(
                fig.side,
                fid,
                Reason.HELD_END,
                ("move",),
                f"End of the movement phase: {fig.name} must use or forfeit the held move.",
            )
        fid = self.order[self._due]
        fig = self.figures[fid]
        for side in self._interrupt_sides(fig, held):
            mine = tuple(h for h in held if self.figures[h].side == side)
            return Decision(
                side,
                None,
                Reason.INTERRUPT,
                ("move", "pass_interrupt"),
                f"{self.sides[side].name}: interrupt with a held figure before {fig.name} moves?",
                interrupters=mine,
            )
        own_held = tuple(h for h in held if self.figures[h].side == fig.side)
        return Decision(
            fig.side, fid, Reason.MOVE, ("move", "hold"), f"{fig.name} moves (or holds).", interrupters=own_held
        )

    def _interrupt_sides(self, due: Figure, held: Sequence[str]) -> list[str]:
        """The sides to ask, in turn, whether a held figure takes the moment before ``due`` moves (FTC 5).

        Sides are asked in the initiative order of their best held figure: "If two combatants with held
        movement announce simultaneously that they want to move, the one with higher initiative goes
        first." The due figure's own side is asked among them only when another side is waiting too (alone,
        its held figures are offered with the due figure's own move).
        """
        sides: list[str] = []
        for h in held:
            s = self.figures[h].side
            if s not in self._passed and s not in sides:
                sides.append(s)
        if all(s == due.side for s in sides):
            return []
        return sides

    # ---- movement phase
    def _check_turn(self, fid: str, kinds: Iterable[str], kind: str) -> Decision:
        d = self.decision()
        assert d is not None
        if kind not in d.kinds or kind not in kinds:
            raise IllegalAction(f"Now is not the time for that: {d.prompt}")
        return d

    def _do_move(self, a: act.Move) -> list[ev.Event]:
        d = self._check_turn(a.figure, ("move",), "move")
        fig = self.figure(a.figure)
        if self._pending is not None:
            raise IllegalAction(f"Finish {self.figures[self._pending.figure].name}'s move first.")
        if d.reason == "held_end":
            if a.figure != d.figure:
                raise IllegalAction(f"It is {self.figures[d.figure or ''].name}'s turn to use the held move.")
        elif d.reason == "interrupt":
            if a.figure not in d.interrupters:
                raise IllegalAction("Only a held figure of this side may interrupt now.")
        elif a.figure != d.figure and a.figure not in d.interrupters:
            raise IllegalAction(f"It is {self.figures[d.figure or ''].name}'s turn to move.")
        if not fig.can_act or fig.moved:
            raise IllegalAction(f"{fig.name} cannot move again this round.")
        posture = fig.posture if a.posture is None else a.posture
        if posture not in ("standing", "crawling", "prone"):
            raise IllegalAction("Posture is standing, crawling or prone.")
        if d.reason == "held_end" and not a.steps and posture == fig.posture:
            # FTC 5: a held figure that does not use its move at the end of the phase forfeits it
            fig.moved = True
            fig.held = False
            return [ev.Forfeited(fig.id), *self._advance_movement()]
        return self._start_move(fig, a.steps, "move", posture=posture)

    def _start_move(self, fig: Figure, steps: act.States, reason: str, *, posture: str | None = None) -> list[ev.Event]:
        old_posture = fig.posture
        fig.posture = posture or fig.posture
        allowance = self.movement_allowance_of(fig)
        fig.posture = old_posture
        try:
            path = self.ground_for(fig).validate(fig.hex, fig.facing, tuple(steps), allowance)
        except IllegalMove as exc:
            raise IllegalAction(_sentence(str(exc))) from None
        fig.posture = posture or fig.posture
        fig.allowance = allowance
        self._pending = _PendingMove(fig.id, ((fig.hex, fig.facing), *path.steps), path.cost, reason)
        return self._continue_move()

    def _continue_move(self) -> list[ev.Event]:
        """Walk the pending path, pausing for stop questions and failed escapes (FTC 5.2–5.3)."""
        p = self._pending
        assert p is not None
        fig = self.figures[p.figure]
        out: list[ev.Event] = []
        while p.index < len(p.path) - 1:
            here, nxt = p.path[p.index][0], p.path[p.index + 1][0]
            # a large figure's turn moves its hexes too (FTC 5), so it may leave a zone by turning
            was, now = (
                ({here}, {nxt})
                if fig.size == 1
                else (self._body(fig, *p.path[p.index]), self._body(fig, *p.path[p.index + 1]))
            )
            if was != now and not p.to_ask and not p.stopping and p.failed_at is None and p.decided_at != p.index:
                p.decided_at = p.index
                leaving = [
                    e
                    for e in self.enemies_of(fig)
                    if e.standing_order != "never"
                    and not self.holding_area(e).isdisjoint(was)
                    and self.holding_area(e).isdisjoint(now)
                ]
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
                stoppers = [self.figures[s] for s in p.stopping]
                p.stopping = []
                out.append(self._escape(fig, stoppers, here))
                if not out[-1].escaped:  # type: ignore[attr-defined]
                    p.failed_at = p.index
                    p.failed_stoppers = tuple(s.id for s in stoppers)
                    return out
            p.index += 1
        out.extend(self._finish_move(fig, p.path, p.cost))
        return out

    def failed_escape(self) -> tuple[str, tuple[str, ...]] | None:
        """FTC 5.3: while a mover whose escape failed decides whether to run, its id and the stoppers who won
        the contest (each gets a free attack if it runs); None otherwise."""
        p = self._pending
        if p is None or p.failed_at is None:
            return None
        return p.figure, p.failed_stoppers

    def escape_levels(self, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
        """FTC 5.3: the escape contest's levels with their named modifiers, the GM's included (the contest
        and the odds shown on screen both come from here)."""
        pairs = []
        for s in stoppers:
            engaged = sum(1 for e in self.enemies_of(s) if e.id != fig.id and not self.zone(e).isdisjoint(s.cells))
            pairs.append((self._combat_skill(s), engaged))
        return self._gm_escape_levels(escape_breakdown(fig.character.agility, pairs), fig, stoppers)

    def _escape(self, fig: Figure, stoppers: list[Figure], at: Hex) -> ev.EscapeContest | ev.EscapeOverridden:
        """FTC 5.3: the escape contest, with its modifiers, rolled at once (unless the GM decided it)."""
        if fig.id in self.gm_escape:
            return ev.EscapeOverridden(fig.id, tuple(s.id for s in stoppers), self.gm_escape.pop(fig.id))
        levels = self.escape_levels(fig, stoppers)
        # mover first, then each stopper in order: the draws of FTC 5.3's contest as zoc.roll_escape makes them
        mr = self._roll("escape", fig.id)
        rolls = tuple(self._roll("escape", s.id) for s in stoppers)
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
            tuple(self._combat_skill(s) for s in stoppers),
            tuple(tuple(m) for m in stopper_mods),
            tuple(r.faces for r in result.stopper_rolls),
            tuple(result.stopper_results),
            result.escaped,
        )

    def _finish_move(self, fig: Figure, path: Sequence[tuple[Hex, int]], cost: int) -> list[ev.Event]:
        p = self._pending
        reason = p.reason if p else "move"
        self._pending = None
        hexes = [path[0][0]]
        for h, _ in path[1:]:
            if h != hexes[-1]:
                hexes.append(h)
        fig.hex, fig.facing = path[-1]
        fig.hexes_moved += len(hexes) - 1
        out: list[ev.Event] = [ev.Moved(fig.id, tuple(hexes), fig.facing, cost, fig.allowance, reason)]
        out.extend(self._magic_moved(fig, len(hexes) - 1))
        if reason == "second move":
            self._declare_queue.pop(0)
            out.extend(self._advance_attack())
            return out
        fig.moved = True
        fig.held = False
        # FTC 5: a held figure may interrupt before *any* later figure, so a side that let one figure
        # pass is asked again before the next one moves
        self._passed = set()
        out.extend(self._advance_movement())
        return out

    def _do_stop_choice(self, a: act.StopChoice) -> list[ev.Event]:
        p = self._pending
        if p is None or not p.to_ask or p.to_ask[0] != a.figure:
            raise IllegalAction("Nobody is asking that figure whether to stop a mover now.")
        p.to_ask.pop(0)
        if a.stop:
            p.stopping.append(a.figure)
        out: list[ev.Event] = [ev.StopDecided(a.figure, p.figure, a.stop)]
        if not p.to_ask:
            out.extend(self._continue_move())
        return out

    def _do_escape_failed_choice(self, a: act.EscapeFailedChoice) -> list[ev.Event]:
        p = self._pending
        if p is None or p.failed_at is None or p.figure != a.figure:
            raise IllegalAction("That figure has not failed an escape.")
        fig = self.figures[a.figure]
        out: list[ev.Event] = [ev.EscapeFailed(fig.id, a.run)]
        if not a.run:
            out.extend(self._finish_move(fig, self._stop_point(fig, p.path, p.failed_at), p.cost))
            return out
        stoppers = [self.figures[s] for s in p.failed_stoppers]
        # FTC 5.3: the free attacks strike the runner where he turns tail: the hex he leaves and the facing
        # he has there (reach, the behind bonus), not where his move began
        # (passing through a stopper's own hex, the last free hex before it)
        fig.hex, fig.facing = self._stop_point(fig, p.path, p.index)[-1]
        out.extend(self._free_attacks(fig, stoppers))
        p.failed_at = None
        if not fig.can_act:
            out.extend(self._finish_move(fig, self._stop_point(fig, p.path, p.index), p.cost))
            return out
        p.index += 1
        out.extend(self._continue_move())
        return out

    def _stop_point(self, fig: Figure, path: Sequence[tuple[Hex, int]], upto: int) -> list[tuple[Hex, int]]:
        """FTC 5.2: a move cut short (held in place, or taken out while running) ends in the last hex of
        the path up to ``upto`` that no other figure occupies: nobody ends a move in an occupied hex."""
        cut = list(path[: upto + 1])
        taken = _covered(f for f in self.figures.values() if f.id != fig.id)
        while len(cut) > 1 and not taken.isdisjoint(self._body(fig, *cut[-1])):
            cut.pop()
        return cut

    def _do_hold(self, a: act.Hold) -> list[ev.Event]:
        d = self._check_turn(a.figure, ("hold",), "hold")
        if a.figure != d.figure:
            raise IllegalAction("Only the figure whose turn it is may hold.")
        fig = self.figures[a.figure]
        fig.held = True
        self._due += 1
        self._passed = set()
        return [ev.Held(fig.id), *self._advance_movement()]

    def _do_pass_interrupt(self, a: act.PassInterrupt) -> list[ev.Event]:
        d = self._check_turn("", ("pass_interrupt",), "pass_interrupt")
        if a.side != d.side:
            raise IllegalAction("It is another side's choice now.")
        self._passed.add(a.side)
        return []

    def _advance_movement(self) -> list[ev.Event]:
        """Skip figures that already moved or cannot act; at the end, held figures in reverse order."""
        out: list[ev.Event] = []
        if self._check_over(out):
            return out
        if self._end_queue is None:
            while self._due < len(self.order):
                f = self.figures[self.order[self._due]]
                if f.can_act and not f.moved and not f.held:
                    break
                self._due += 1
            else:
                self._end_queue = [fid for fid in reversed(self.order) if self.figures[fid].held]
                self._passed = set()
        if self._end_queue is not None:
            self._end_queue = [
                fid for fid in self._end_queue if self.figures[fid].can_act and not self.figures[fid].moved
            ]
            if not self._end_queue:
                out.extend(self._begin_attack_phase())
        return out

    def _free_attacks(self, mover: Figure, stoppers: list[Figure]) -> list[ev.Event]:
        """FTC 5.3: each stopper attacks the runner at once; one defence roll at -2, no blow back."""
        out: list[ev.Event] = []
        mover_roll = self._roll("combat", mover.id)
        out.append(ev.CombatRoll(mover.id, mover_roll.faces))
        wounds: list[tuple[Figure, int, str, int]] = []
        for s in stoppers:
            r = self._roll("combat", s.id)
            out.append(ev.CombatRoll(s.id, r.faces))
            weapon = self._melee_weapon(s)
            defence, dmods, _ = self._defence_vs(mover, s, weapon, mover_roll.total, None, shield_ok=True, run=True)
            behind = behind_bonus(
                s.hex, mover.hex, mover.facing, attacker_phase_start=s.hex, moved_this_attack_phase=False
            )
            omods = (
                *offence_modifiers(
                    stance=Stance.NEUTRAL, behind=behind, very_hurt_penalty=s.very_hurt_penalty(self.round)
                ),
                *kind_modifiers(s.character.kind)[0],
                *self.gm_terms(s),
            )
            event, wound = self._strike(
                s,
                mover,
                weapon,
                r.total,
                omods,
                defence,
                dmods,
                (),
                melee_difficulty(s.character.mass_scale, mover.character.mass_scale),
                self._distance(s, mover),
                "best",
                free=True,
            )
            out.append(event)
            if wound:
                wounds.append(wound)
        out.extend(self._apply_wounds(wounds))
        out.extend(self._disarms(out))
        for f in (mover,):
            if not f.can_act and not f.out:
                f.out = True
                out.append(ev.TakenOut(f.id, f.wounds.label))
        return out
