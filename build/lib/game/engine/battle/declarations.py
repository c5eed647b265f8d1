"""The attack phase's declarations and steps (FTC 6, 6.1, 6.2).

Figures declare in reverse initiative order (FTC 6.1): a stance, targets in reach or range, dodges, or a
second move. Declaring may take steps: an advance on an offensive stance, a retreat on a defensive one,
and the follow step of an attacker whose target retreats (FTC 6.2). Who can be attacked (melee reach
along both figures' movement, ranged targets) is answered here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle.state import (
    BattleState,
    Decision,
    Declaration,
    Figure,
    IllegalAction,
    Reason,
    front_arc_2,
)
from game.engine.combat import (
    Stance,
)
from game.engine.creatures import footprint, front_zone, large_distance
from game.engine.equipment import Weapon
from game.engine.hexgrid import (
    Hex,
    direction_to,
    distance,
    front_hexes,
    neighbor,
    neighbors,
    turn_steps,
)
from game.engine.odds import AIMS


class Declarations(BattleState):
    """FTC 6, 6.1, 6.2: declarations, advances, retreats and follows; who can be attacked."""

    def _follow_step(self, fig: Figure, vacated: Hex) -> tuple[Hex, int] | None:
        """FTC 6.2's follow step: a one-hex figure steps into the hex its target left, facing the way it
        stepped; a large figure shifts one hex, keeping its facing, so that it covers that hex. None when
        it cannot (not adjacent, or no room)."""
        if fig.size == 1:
            facing = direction_to(fig.hex, vacated)
            if distance(fig.hex, vacated) != 1 or self.occupant(vacated) is not None:
                return None
            return vacated, facing if facing is not None else fig.facing
        for c in sorted(fig.cells):
            d = direction_to(c, vacated)
            if d is not None:
                h = neighbor(fig.hex, d)
                if self._fits(fig, h, fig.facing):
                    return h, fig.facing
        return None

    def _attack_decision(self) -> Decision:
        if self._follow_queue:
            fid, vacated = self._follow_queue[0]
            fig = self.figures[fid]
            return Decision(
                fig.side,
                fid,
                Reason.FOLLOW,
                ("follow_choice",),
                f"{fig.name}'s target retreats: step forward to follow?",
                follow_hex=vacated,
            )
        fid = self._declare_queue[0]
        fig = self.figures[fid]
        return Decision(
            fig.side,
            fid,
            Reason.DECLARE,
            ("declare", "second_move"),
            f"{fig.name} declares an attack, a defence, or a second move.",
        )

    # ---- attack phase
    def _begin_attack_phase(self) -> list[ev.Event]:
        self.phase = "attack"
        self._declarations = {}
        self._declare_queue = [fid for fid in reversed(self.order) if self.figures[fid].can_act]
        self._revealed = False
        for f in self.figures.values():
            f.phase_start_hex = f.hex
            f.positions = [(f.hex, f.facing)]
        out: list[ev.Event] = [ev.PhaseBegan(self.round, "attack")]
        out.extend(self._magic_attack_phase_began())
        if not self._declare_queue:
            out.extend(self._resolve_round())
        return out

    def _advance_attack(self) -> list[ev.Event]:
        if self._declare_queue or self._follow_queue:
            return []
        out: list[ev.Event] = []
        if self.options.secret_stances and not self._revealed:
            self._revealed = True
            out.append(ev.Revealed())
            for d in self._declarations.values():
                out.append(ev.Declared(d.figure, d.stance, d.targets, d.dodge, d.weapon, d.second_move))
            for d in list(self._declarations.values()):
                # 1-second spells first, in the order declared: each was declared before any step was seen
                if d.pending_cast and self.figures[d.figure].can_act:
                    out.extend(self._cast_at_once(self.figures[d.figure], d))
            for d in list(self._declarations.values()):
                # a figure taken out or held fast since it declared makes no step at the reveal
                if (d.pending_steps or d.pending_retreat is not None) and self.figures[d.figure].can_act:
                    out.extend(self._take_steps(self.figures[d.figure], d, d.pending_steps, d.pending_retreat))
            if self._follow_queue:
                return out
        out.extend(self._resolve_round())
        return out

    # ---- attack phase: who can be attacked
    def _reach_ok(
        self,
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
            body = footprint(att_hex, size, att_facing)
            zone = front_zone(body, att_facing, 2 if weapon.reach >= 2 else 1)
            if self.options.attack_any_adjacent:
                zone |= {n for c in body for n in neighbors(c)} - body
            return not zone.isdisjoint(footprint(target_hex, target[0], target[1]))
        d = distance(att_hex, target_hex)
        if d == 1:
            return self.options.attack_any_adjacent or target_hex in front_hexes(att_hex, att_facing)
        if d == 2 and weapon.reach >= 2:
            return target_hex in front_arc_2(att_hex, att_facing)
        return False

    def targets_for(
        self, fid: str, weapon: Weapon | None = None, *, positions: Sequence[tuple[Hex, int]] | None = None
    ) -> list[str]:
        """Figures this figure may attack with a weapon now (FTC 6.2: in reach at any point along either
        figure's attack-phase movement; ranged: in range with an unblocked line of fire)."""
        fig = self.figure(fid)
        weapon = weapon or fig.character.ready_weapon
        mine = list(positions) if positions is not None else fig.positions
        out: list[str] = []
        for e in self.enemies_of(fig):
            if weapon.ranged:
                if self._ranged_ok(fig, e, weapon):
                    out.append(e.id)
            elif self._reach_along(fig, mine, e, e.positions, weapon):
                out.append(e.id)
        return out

    def _reach_along(
        self,
        att: Figure,
        mine: Sequence[tuple[Hex, int]],
        tgt: Figure,
        theirs: Sequence[tuple[Hex, int]],
        weapon: Weapon,
    ) -> bool:
        """FTC 6.2: whether ``tgt`` was in ``att``'s melee reach with ``weapon`` at any point along the two
        figures' attack-phase movement (``mine``, ``theirs``: the positions each took). Weapons and touch
        spells (FTC 8.3) both ask here."""
        return any(
            self._reach_ok(h, f, th, weapon, size=att.size, target=(tgt.size, tf)) for h, f in mine for th, tf in theirs
        )

    def _moves_of(self, fig: Figure) -> list[tuple[Hex, int]]:
        """The positions a figure took in this attack phase (FTC 6.2); outside it, where it stands now."""
        return fig.positions if self.phase == "attack" and fig.positions else [(fig.hex, fig.facing)]

    def melee_attackers_on(self, fid: str) -> list[str]:
        """Figures that have declared a melee attack on this figure this round so far (FTC 6.1), counted as the
        round's resolution counts them (able to act, no second move): table 7's "defending against attacks"
        for a caster resolved at his declaration (FTC 8.1), and for the odds shown before declaring. An enemy
        laying a touch spell on it counts too: the touch is a standard attack (FTC 8.3)."""
        me = self.figures[fid]
        return [
            d.figure
            for d in self._declarations.values()
            if not d.second_move
            and self.figures[d.figure].can_act
            and (
                (fid in d.targets and not self._weapon_of(self.figures[d.figure], d.weapon).ranged)
                or (self._touch_on(d, fid) and self.figures[d.figure].side != me.side)
            )
        ]

    def threats_to(self, fid: str) -> list[Figure]:
        """Enemies attacking this figure: those who declared attacks on it (a touch spell cast on it
        included: its touch is a standard attack, FTC 8.3), and those who have it in melee reach now (FTC
        6.2's "attackers" for a retreat)."""
        fig = self.figure(fid)
        out = []
        for e in self.enemies_of(fig):
            d = self._declarations.get(e.id)
            if (d and (fid in d.targets or self._touch_on(d, fid))) or (
                d is None
                and self._reach_ok(
                    e.hex, e.facing, fig.hex, e.character.ready_weapon, size=e.size, target=(fig.size, fig.facing)
                )
            ):
                out.append(e)
        return out

    def retreat_hexes(self, fid: str) -> list[Hex]:
        """FTC 6.2: adjacent free hexes farther from every attacker (zones of control do not apply)."""
        fig = self.figure(fid)
        threats = self.threats_to(fid)
        out = []
        if fig.size != 1 or any(t.size != 1 for t in threats):
            # a large figure shifts its whole footprint; distances between nearest hexes (FTC 5)
            return [
                h
                for h in neighbors(fig.hex)
                if self._fits(fig, h, fig.facing)
                and all(
                    large_distance(self._body(fig, h, fig.facing), t.cells) > self._distance(fig, t) for t in threats
                )
            ]
        for h in neighbors(fig.hex):
            if not self.terrain.is_passable(h, fig.character.movement_modes[0]) or self.occupant(h):
                continue
            if all(distance(h, t.hex) > distance(fig.hex, t.hex) for t in threats):
                out.append(h)
        return out

    def advance_positions(self, fid: str, steps: Sequence[Hex], facing: int | None = None) -> list[tuple[Hex, int]]:
        """FTC 6.2: the (hex, facing) a figure takes at each step of an advance, checked: a step into one of
        the three hexes in front (facing the way it stepped), or a step into its own hex, a turn of one side
        to ``facing``. Raises ``IllegalAction`` naming the first step that is not allowed. How many steps
        a stance allows is the declaration's check."""
        fig = self.figure(fid)
        positions: list[tuple[Hex, int]] = []
        h, f = fig.hex, fig.facing
        for step in steps:
            if step == h:
                nf = facing if facing is not None else f
                if turn_steps(f, nf) != 1:
                    raise IllegalAction("Turning in place during an advance turns exactly one hex side.")
                if fig.size != 1 and not self._fits(fig, h, nf):
                    raise IllegalAction(f"{fig.name} has no room to turn there.")
                f = nf
            else:
                if step not in front_hexes(h, f):
                    raise IllegalAction("Each advancing step goes into one of the three hexes in front.")
                occ = self.occupant(step)
                if fig.size != 1:
                    if not self._fits(fig, step, direction_to(h, step) or 0):
                        raise IllegalAction(
                            f"{fig.name} has no room there: every hex it would cover must be free and passable."
                        )
                elif occ is not None or not self.terrain.is_passable(step, fig.character.movement_modes[0]):
                    raise IllegalAction("That hex is occupied or cannot be entered.")
                f = direction_to(h, step) or 0 if direction_to(h, step) is not None else f
                h = step
            positions.append((h, f))
        return positions

    def declare_options(self, fid: str) -> dict[str, object]:
        """What a figure may declare now: weapons with their targets, stances, retreat hexes (for the UI/AI)."""
        fig = self.figure(fid)
        weapons = {w.name: self.targets_for(fid, w) for w in fig.character.weapons or (fig.character.ready_weapon,)}
        retreats = self.retreat_hexes(fid)
        stances = [s.value for s in Stance if not (s.retreat == "must" and not retreats)]
        firers = [
            e.id for e in self.enemies_of(fig) if any(w.ranged for w in e.character.weapons) or self._casts_bolts(e)
        ]
        options: dict[str, object] = {"weapons": weapons, "stances": stances, "retreats": retreats, "firers": firers}
        options.update(self._magic_declare_options(fig))
        return options

    def _weapon_of(self, fig: Figure, name: str | None) -> Weapon:
        if name is None:
            return fig.character.ready_weapon
        for w in (*fig.character.weapons, fig.character.ready_weapon):  # a figure without weapons has its fist
            if w.name.lower() == name.lower():
                return w
        raise IllegalAction(f"{fig.name} does not carry a {name}.")

    def _check_declarer(self, fid: str, kind: str) -> Figure:
        d = self.decision()
        assert d is not None
        if kind not in d.kinds:
            raise IllegalAction(f"Now is not the time for that: {d.prompt}")
        if d.figure != fid:
            raise IllegalAction(f"It is {self.figures[d.figure or ''].name}'s turn to declare.")
        return self.figure(fid)

    def _do_declare(self, a: act.Declare) -> list[ev.Event]:
        fig = self._check_declarer(a.figure, "declare")
        plan = self._check_spell_declaration(fig, a)
        try:
            stance = Stance(a.stance)
        except ValueError:
            raise IllegalAction(
                f"Unknown stance {a.stance!r}; choose one of {', '.join(s.value for s in Stance)}."
            ) from None
        weapon = self._weapon_of(fig, a.weapon)
        if a.aim not in AIMS:
            raise IllegalAction(f"Aim at one of {', '.join(AIMS)} (FTC 6.6), not {a.aim!r}.")
        if len(a.targets) > 1:
            raise IllegalAction("A figure attacks one target a round.")
        enemies = {e.id for e in self.enemies_of(fig)}
        for t in a.targets:
            if t not in enemies:
                raise IllegalAction(f"{self.figure(t).name} is not an enemy able to fight.")
        for firer in a.dodge:
            if firer not in enemies or not (
                any(w.ranged for w in self.figures[firer].character.weapons) or self._casts_bolts(self.figures[firer])
            ):
                raise IllegalAction(f"{self.figure(firer).name} is not an enemy missile firer or caster.")
        # advance (aggressive stances trade attack bonus for steps, FTC 6.2)
        positions = [(fig.hex, fig.facing)]
        if a.advance:
            if len(a.advance) > stance.max_advance:
                raise IllegalAction(
                    f"A {stance.display_name.lower()} stance allows at most {stance.max_advance} hex(es) of advance."
                )
            if not a.targets:
                raise IllegalAction("An advance must bring the figure to the enemy it attacks.")
            positions.extend(self.advance_positions(fig.id, a.advance, a.advance_facing))
        allowed = self.targets_for(fig.id, weapon, positions=positions)
        for t in a.targets:
            if t not in allowed:
                raise IllegalAction(f"{self.figures[t].name} is out of reach of {fig.name}'s {weapon.name}.")
        # retreat (defensive stances, FTC 6.2)
        retreat_ok = self.retreat_hexes(fig.id)
        if stance.retreat == "must" and a.retreat is None:
            raise IllegalAction(
                "A very defensive stance must retreat one hex"
                + (" — and no hex leads away from every attacker." if not retreat_ok else ".")
            )
        if a.retreat is not None:
            if stance.retreat == "none":
                raise IllegalAction("Only a defensive stance may retreat.")
            if a.retreat not in retreat_ok:
                raise IllegalAction("A retreat goes to a free adjacent hex farther from every attacker.")
            if a.advance:
                raise IllegalAction("A figure cannot both advance and retreat.")
        # all checks passed: carry it out
        out: list[ev.Event] = []
        decl = Declaration(
            fig.id,
            stance.value,
            tuple(a.targets),
            weapon.name,
            tuple(a.dodge),
            advance_used=sum(1 for _ in a.advance),
            aim=a.aim,
        )
        self._declarations[fig.id] = decl
        self._declare_queue.pop(0)
        out.append(
            ev.Declared(fig.id, stance.value, decl.targets, decl.dodge, weapon.name, hidden=self.options.secret_stances)
        )
        out.extend(self._magic_declared(fig, decl, plan))
        if self.options.secret_stances:
            # the steps would show the stance: they wait for the reveal (Fudge 4.32)
            decl.pending_steps = tuple(positions[1:])
            decl.pending_retreat = a.retreat
        else:
            out.extend(self._take_steps(fig, decl, tuple(positions[1:]), a.retreat))
        out.extend(self._advance_attack())
        return out

    def _take_steps(
        self, fig: Figure, decl: Declaration, steps: tuple[tuple[Hex, int], ...], retreat: Hex | None
    ) -> list[ev.Event]:
        """FTC 6.2: carry out a declaration's advance or retreat, and offer attackers the follow step."""
        out: list[ev.Event] = []
        for h, f in steps:
            if (h != fig.hex and self.occupant(h) is not None) if fig.size == 1 else not self._fits(fig, h, f):
                break  # under secret stances another figure may have stepped there first
            out.append(ev.Stepped(fig.id, fig.hex, h, f, "advance"))
            fig.hex, fig.facing = h, f
            fig.positions.append((h, f))
        if retreat is not None and (
            self.occupant(retreat) is None if fig.size == 1 else self._fits(fig, retreat, fig.facing)
        ):
            origin = fig.hex
            left = sorted(fig.cells - self._body(fig, retreat, fig.facing)) if fig.size != 1 else [origin]
            out.append(ev.Stepped(fig.id, origin, retreat, fig.facing, "retreat"))
            fig.hex = retreat
            fig.positions.append((fig.hex, fig.facing))
            decl.retreated = True
            for other in self._declarations.values():
                if fig.id in other.targets and Stance(other.stance).retreat == "none" and other.figure != fig.id:
                    follower = self.figures[other.figure]
                    # the follower steps into a hex the target left (FTC 6.2), if it can
                    spot = next((c for c in left if self._follow_step(follower, c) is not None), None)
                    if spot is not None and follower.can_act:
                        self._follow_queue.append((follower.id, spot))
        if Stance(decl.stance) == Stance.VERY_DEFENSIVE and decl.dodge and fig.posture != "prone":
            # FTC 6.2: "If he is attempting to dodge missile fire, he must also dive for the ground": he ends
            # the phase lying down, and moves lying down next round unless he gets up (FTC 5)
            fig.posture = "prone"
            out.append(ev.Stepped(fig.id, fig.hex, fig.hex, fig.facing, "dive"))
        return out

    def _do_second_move(self, a: act.SecondMove) -> list[ev.Event]:
        fig = self._check_declarer(a.figure, "second_move")
        if self._pending is not None:
            raise IllegalAction("Finish the move under way first.")
        self._declarations[fig.id] = Declaration(
            fig.id, "neutral", (), fig.character.ready_weapon.name, second_move=True
        )
        try:
            out: list[ev.Event] = [
                ev.Declared(fig.id, "neutral", (), (), fig.character.ready_weapon.name, second_move=True)
            ]
            out.extend(self._start_move(fig, a.steps, "second move"))
        except IllegalAction:
            del self._declarations[fig.id]
            raise
        return out

    def _do_follow_choice(self, a: act.FollowChoice) -> list[ev.Event]:
        if not self._follow_queue or self._follow_queue[0][0] != a.figure:
            raise IllegalAction("That figure is not being offered a follow step now.")
        fid, vacated = self._follow_queue[0]
        fig = self.figures[fid]
        if a.hex is not None and a.hex != vacated:
            raise IllegalAction("Following steps into the hex the target left.")
        step = self._follow_step(fig, vacated)
        if a.hex is not None and step is None:
            raise IllegalAction("The hex the target left is taken.")
        self._follow_queue.pop(0)
        out: list[ev.Event] = []
        if a.hex is not None and step is not None:
            origin = fig.hex
            fig.hex, fig.facing = step
            fig.positions.append((fig.hex, fig.facing))
            out.append(ev.Stepped(fid, origin, fig.hex, fig.facing, "follow"))
            # two attackers may follow the same target: once one steps in, the others have no hex to take
            self._follow_queue = [
                (f, h)
                for f, h in self._follow_queue
                if h != vacated and self._follow_step(self.figures[f], h) is not None
            ]
        out.extend(self._advance_attack())
        return out
