"""The GM's seat (*Fudge* 4.1): situational modifiers, conditions, dice set by hand, escape and free-attack
overrides, edits of figures and reinforcements.

Every GM decision is an action (``game.engine.gm``), so saves and replays carry it; they are accepted in
any phase, checked by ``gm.validate_gm_action`` and then here, and said in the log by one ``GMActed``
event. Edits of figures (wounds, gear, traits, reinforcements, removals) are made "between rounds", read
as the simplest legal moment: in the movement phase before any figure has moved or held this round.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine import events as ev
from game.engine import gm
from game.engine.battle.state import (
    BattleState,
    Figure,
    IllegalAction,
    _sentence,
    effective_perception,
)
from game.engine.characters import Character
from game.engine.combat import (
    Modifier,
    total,
)
from game.engine.creatures import footprint
from game.engine.equipment import armour as equipment_armour
from game.engine.hexgrid import (
    Hex,
)
from game.engine.zoc import EscapeLevels


class GMSeat(BattleState):
    """*Fudge* 4.1: the GM's decisions in a battle, reinforcements included."""

    # ------------------------------------------------------------------ the GM's seat
    # Every GM decision is an action (game.engine.gm), so saves and replays carry it; they are accepted in
    # any phase, checked by gm.validate_gm_action and then here, and said in the log by one GMActed event.
    # Edits of figures (wounds, gear, traits, reinforcements, removals) are made "between rounds", read as
    # the simplest legal moment: in the movement phase before any figure has moved or held this round.

    BATTLE_ROLLS = ("combat", "initiative", "escape", "health", "situational", "will", "resistance")
    """The rolls a battle makes, so the ones a GM may set by hand here (healing is between battles)."""

    def gm_modifiers_on(self, fid: str) -> tuple[gm.SituationalModifier, ...]:
        """*Fudge* 4.1: the GM's situational modifiers counting for a figure this round (its token's badge)."""
        fig = self.figure(fid)
        return tuple(
            m
            for m in self.gm_state.modifiers
            if m.target in (fig.id, fig.side) and (m.until != "round" or m.round == self.round)
        )

    def gm_terms(self, fig: Figure) -> tuple[Modifier, ...]:
        """*Fudge* 4.1: the GM's modifiers on a figure's offence, defence and escape rolls this round, named."""
        return tuple(
            Modifier(n, v) for n, v in gm.modifier_terms(self.gm_state.modifiers, fig.id, fig.side, self.round)
        )

    def light_at(self, h: Hex) -> int:
        """FTC table 7: bad light on a hex: the map's (Tiled ``light``) or the GM's condition, the worse."""
        return min(self.terrain.light_at(h), gm.condition_value(self.gm_state.conditions, "bad_light", h))

    def footing_at(self, h: Hex) -> int:
        """FTC table 7: insecure footing on a hex: the map's (Tiled ``footing``) or the GM's, the worse."""
        return min(self.terrain.footing_at(h), gm.condition_value(self.gm_state.conditions, "insecure_footing", h))

    def _gm_new_round(self) -> None:
        # FTC 3: a new round begins; the GM's "this round" modifiers and escape overrides lapse
        self.gm_state = self.gm_state.expire(self.round)
        self.gm_escape = {}

    def _gm_escape_levels(self, levels: EscapeLevels, fig: Figure, stoppers: Sequence[Figure]) -> EscapeLevels:
        mover = self.gm_terms(fig)
        per = [self.gm_terms(s) for s in stoppers]
        if not mover and not any(per):
            return levels
        return EscapeLevels(
            levels.mover + total(mover),
            (*levels.mover_modifiers, *((m.name, m.value) for m in mover)),
            tuple(lv + total(p) for lv, p in zip(levels.stoppers, per, strict=True)),
            tuple((*ms, *((m.name, m.value) for m in p)) for ms, p in zip(levels.stopper_modifiers, per, strict=True)),
        )

    def _do_gm(self, a: gm.GMAction) -> list[ev.Event]:
        """Carry out a GM decision; an illegal one raises ``IllegalAction`` and changes nothing."""
        if self.setup.gm is None:
            raise IllegalAction("This battle has no GM seat; mark a player as GM in the battle setup.")
        known = {*self.figures, *self.removed} if isinstance(a, gm.AddFigure) else set(self.figures)
        fig = self.figures.get(getattr(a, "figure", ""))
        try:
            gm.validate_gm_action(
                a, figures=known, sides=set(self.sides), track=fig.wounds.track if fig is not None else None
            )
            out: list[ev.Event] = getattr(self, f"_gm_{a.kind[3:]}")(a)
        except gm.GMActionError as exc:
            raise IllegalAction(_sentence(str(exc))) from None
        return out

    def _gm_who(self, target: str) -> tuple[tuple[str, ...], str]:
        # a figure is named in the log text by its id (names filled in by the log); a side by its name
        if target in self.figures:
            return (target,), "{0}"
        return (), self.sides[target].name.replace("{", "{{").replace("}", "}}")

    def _gm_no_move_under_way(self) -> None:
        if self._pending is not None:
            raise IllegalAction(f"Finish {self.figures[self._pending.figure].name}'s move first.")

    def gm_between_rounds(self) -> bool:
        """Whether the GM may edit, add or remove figures now ("between rounds": the movement
        phase before any figure has moved or held this round)."""
        return (
            self.phase == "movement"
            and self._pending is None
            and not any(f.moved or f.held for f in self.figures.values())
        )

    def gm_free_for(self, character: Character, h: Hex, facing: int) -> bool:
        """FTC 5: whether a reinforcement of this character may stand on ``h`` facing ``facing``: every hex
        of its footprint on the map, passable for it and empty (the AddFigure check, for the GM's screen)."""
        cells = footprint(h, character.footprint, facing % 6)
        return all(self.terrain.is_passable(c, character.movement_modes[0]) and self.occupant(c) is None for c in cells)

    def _gm_between_rounds(self, what: str) -> None:
        if not self.gm_between_rounds():
            raise IllegalAction(
                f"{what} only between rounds, before any figure has moved or held; end the round first."
            )

    def _gm_settle(self) -> list[ev.Event]:
        """After figures left, joined or rejoined the fight: end the battle if at most one side can fight,
        else let the round go on without the figures that cannot act."""
        out: list[ev.Event] = []
        if self._check_over(out):
            return out
        if self.phase == "movement":
            out.extend(self._advance_movement())
            return out
        self._declare_queue = [f for f in self._declare_queue if f in self.figures and self.figures[f].can_act]
        self._follow_queue = [(f, h) for f, h in self._follow_queue if f in self.figures and self.figures[f].can_act]
        out.extend(self._advance_attack())
        return out

    def _gm_modifier(self, a: gm.SituationalModifier) -> list[ev.Event]:
        self.gm_state = self.gm_state.with_action(a, self.round)
        subjects, who = self._gm_who(a.target)
        span = "this round" if a.until == "round" else "until removed"
        return [ev.GMActed(a.kind, f"{a.value:+d} to {who}'s rolls {span}", subjects, a.reason)]

    def _gm_remove_modifier(self, a: gm.RemoveModifier) -> list[ev.Event]:
        mod = next((m for m in self.gm_state.modifiers if m.id == a.id), None)
        cond = next((c for c in self.gm_state.conditions if c.id == a.id), None)
        self.gm_state = self.gm_state.with_action(a, self.round)
        if mod is not None:
            subjects, who = self._gm_who(mod.target) if mod.target in (*self.figures, *self.sides) else ((), "")
            return [ev.GMActed(a.kind, f"lifts {mod.value:+d} on {who}", subjects, mod.reason)]
        what = cond.condition.replace("_", " ") if cond is not None else a.id
        return [ev.GMActed(a.kind, f"lifts the {what}", (), cond.reason if cond else "")]

    def _gm_condition(self, a: gm.BattleCondition) -> list[ev.Event]:
        off = [h for h in a.region if not self.terrain.contains(h)]
        if off:
            raise IllegalAction(f"The region reaches off the map at {off[0]}; choose hexes on the map.")
        self.gm_state = self.gm_state.with_action(a, self.round)
        name = a.condition.replace("_", " ")
        where = f"on {len(a.region)} hex{'es' if len(a.region) != 1 else ''}" if a.region else "over the battlefield"
        what = f"{name} {a.value:+d} {where} (table 7)" if a.value else f"lifts the {name} ({a.id})"
        return [ev.GMActed(a.kind, what, (), a.reason)]

    def _gm_set_die(self, a: gm.SetDie) -> list[ev.Event]:
        if a.purpose not in self.BATTLE_ROLLS:
            raise IllegalAction(f"A battle makes no {a.purpose} roll; set one of {', '.join(self.BATTLE_ROLLS)}.")
        self.gm_dice.append(a)
        faces = " ".join({-1: "-", 0: "0", 1: "+"}.get(f, str(f)) for f in a.faces)
        return [ev.GMActed(a.kind, f"{{0}}'s next {a.purpose} roll is set by hand: [{faces}]", (a.figure,))]

    def _gm_grant_escape(self, a: gm.GrantEscape) -> list[ev.Event]:
        return self._gm_escape_override(a.figure, True)

    def _gm_deny_escape(self, a: gm.DenyEscape) -> list[ev.Event]:
        return self._gm_escape_override(a.figure, False)

    def _gm_escape_override(self, fid: str, escaped: bool) -> list[ev.Event]:
        """FTC 5.3 overridden: a figure that has just failed its escape gets through at once; otherwise the
        figure's next escape contest this round is decided (no dice rolled)."""
        p = self._pending
        kind = "gm_grant_escape" if escaped else "gm_deny_escape"
        if p is not None and p.figure == fid and p.failed_at is not None:
            if not escaped:
                raise IllegalAction(f"{self.figures[fid].name} is held already.")
            p.failed_at = None
            p.index += 1
            return [ev.GMActed(kind, "lets {0} escape after all", (fid,)), *self._continue_move()]
        self.gm_escape[fid] = escaped
        what = "escape" if escaped else "be held at"
        return [ev.GMActed(kind, f"{{0}} will {what} the next zone of control this round, whatever the dice", (fid,))]

    def _gm_grant_free_attack(self, a: gm.GrantFreeAttack) -> list[ev.Event]:
        return self._gm_free_attack(a.attacker, a.target, True)

    def _gm_deny_free_attack(self, a: gm.DenyFreeAttack) -> list[ev.Event]:
        return self._gm_free_attack(a.attacker, a.target, False)

    def _gm_free_attack(self, aid: str, tid: str, grant: bool) -> list[ev.Event]:
        """FTC 5.3 overridden: who strikes the runner. Decided while the mover, having failed an escape,
        chooses whether to turn tail and run."""
        att, tgt = self.figure(aid), self.figure(tid)
        p = self._pending
        if p is None or p.failed_at is None or p.figure != tgt.id:
            raise IllegalAction(
                f"A free attack is granted or denied while {tgt.name} has failed an escape "
                "and chooses whether to run (FTC 5.3)."
            )
        if grant:
            if aid in p.failed_stoppers:
                raise IllegalAction(f"{att.name} has that free attack already.")
            if att.side == tgt.side or not att.can_act or self._distance(att, tgt) != 1:  # nearest hexes (FTC 5)
                raise IllegalAction(f"{att.name} must be an enemy of {tgt.name}, able to fight and next to it.")
            p.failed_stoppers = (*p.failed_stoppers, aid)
            what = "{0} gets a free attack on {1} if {1} runs"
        else:
            if aid not in p.failed_stoppers:
                raise IllegalAction(f"{att.name} has no free attack on {tgt.name} to deny.")
            p.failed_stoppers = tuple(s for s in p.failed_stoppers if s != aid)
            what = "{0} gets no free attack on {1}"
        return [ev.GMActed("gm_grant_free_attack" if grant else "gm_deny_free_attack", what, (aid, tid))]

    def _gm_end_round(self, a: gm.EndRound) -> list[ev.Event]:
        """FTC 3 cut short by the GM: moves not yet made and attacks not yet resolved are lost. A round of
        concentration counts as stood through; a spell due in this attack phase (FTC 8.1: its last round of
        concentration) carries on into the next round and takes effect in its attack phase
        (``_magic_round_began``)."""
        self._gm_no_move_under_way()
        # FTC 3: the round ends here: moves not yet made and attacks not yet resolved are lost
        self._declare_queue, self._follow_queue, self._declarations = [], [], {}
        return [ev.GMActed(a.kind, f"ends round {self.round}", (), a.reason), *self._begin_round()]

    def _gm_end_battle(self, a: gm.EndBattle) -> list[ev.Event]:
        self.over, self.phase, self.winner = True, "over", a.winner
        result = f"{self.sides[a.winner].name} wins" if a.winner else "no side wins"
        return [
            ev.GMActed(a.kind, "ends the battle", (), a.reason),
            ev.BattleEnded(a.winner, f"the GM ends it, {result}"),
        ]

    def _gm_declare_out(self, a: gm.DeclareOut) -> list[ev.Event]:
        fig = self.figure(a.figure)
        if fig.out:
            raise IllegalAction(f"{fig.name} is out of the fight already.")
        self._gm_no_move_under_way()
        fig.out = True
        return [ev.GMActed(a.kind, "takes {0} out of the fight", (fig.id,), a.reason), *self._gm_settle()]

    def _gm_declare_in(self, a: gm.DeclareIn) -> list[ev.Event]:
        fig = self.figure(a.figure)
        if not fig.out:
            raise IllegalAction(f"{fig.name} is in the fight already.")
        if not fig.wounds.can_act:
            raise IllegalAction(
                f"{fig.name}'s wounds ({fig.wounds.label}) keep it out of the fight; clear wound boxes first."
            )
        self._gm_no_move_under_way()
        fig.out = False
        if fig.id not in self.order:
            self.order.append(fig.id)  # last in the order until initiative is next rolled
        return [ev.GMActed(a.kind, "brings {0} back into the fight", (fig.id,), a.reason), *self._gm_settle()]

    def _gm_edit_wounds(self, a: gm.EditWounds) -> list[ev.Event]:
        fig = self.figure(a.figure)
        self._gm_between_rounds("Wounds are edited")
        before = fig.wounds.label
        fig.wounds = gm.edited_wounds(a.wounds, fig.wounds.track)
        fig.very_hurt_from_round = None  # set between rounds: a Very Hurt penalty counts from this round
        out: list[ev.Event] = [
            ev.GMActed(
                a.kind,
                f"sets {{0}}'s wounds: {fig.wounds.label}",
                (fig.id,),
                a.reason,
                f"changes {{0}}'s wounds: {before} → {fig.wounds.label}",
            )
        ]
        if not fig.can_act and not fig.out:
            fig.out = True
            out.append(ev.TakenOut(fig.id, fig.wounds.label))
        return [*out, *self._gm_settle()]

    def _gm_edit_gear(self, a: gm.EditGear) -> list[ev.Event]:
        fig = self.figure(a.figure)
        self._gm_between_rounds("Gear is changed")
        before = _gear_text(fig.character)
        fig.character = gm.edited_gear(fig.character, a.weapons, a.armour, a.shield, a.coverage)
        fig.allowance = self.movement_allowance_of(fig)
        partial = {
            item.name: item.coverage.replace("_", " ") for item in fig.character.armour if item.coverage != "full"
        }  # FTC 9.2: a partial suit says so in the log
        armour = tuple(
            f"{name} ({partial[worn]})" if (worn := equipment_armour(name).name) in partial else name
            for name in a.armour
        )
        gear = ", ".join((*a.weapons, *armour, *((a.shield,) if a.shield else ()))) or "nothing"
        said = f"changes {{0}}'s gear: {before} → {_gear_text(fig.character)}"
        return [ev.GMActed(a.kind, f"changes {{0}}'s gear: {gear}", (fig.id,), a.reason, said)]

    def _gm_edit_traits(self, a: gm.EditTraits) -> list[ev.Event]:
        fig = self.figure(a.figure)
        self._gm_between_rounds("Traits are changed")
        before = fig.character
        fig.character = gm.edited_traits(fig.character, a.changes)
        fig.allowance = self.movement_allowance_of(fig)
        said = f"changes {{0}}'s traits: {gm.trait_changes_text(before, fig.character, a.changes)}"
        return [
            ev.GMActed(a.kind, f"changes {{0}}'s traits: {', '.join(sorted(a.changes))}", (fig.id,), a.reason, said)
        ]

    def _gm_add_figure(self, a: gm.AddFigure) -> list[ev.Event]:
        self._gm_between_rounds("Reinforcements arrive")
        if a.character is not None:
            character = gm.new_character(a.character)
        else:
            known = {f.character.key: f.character for f in self.setup.figures}
            if a.roster_key not in known:
                raise IllegalAction(
                    f"No figure of this battle is the character {a.roster_key!r}; "
                    "give the new figure's character table instead."
                )
            character = known[a.roster_key]
        if not self.gm_free_for(character, a.hex, a.facing):  # a large reinforcement needs room (FTC 5)
            raise IllegalAction(f"{a.hex} is not a free hex {a.name or character.name} can stand on; choose another.")
        fig = Figure(
            a.figure,
            a.name or character.name,
            a.side,
            character,
            a.hex,
            a.facing,
            "always",
            a.mook,
            wounds=character.starting_wounds,
        )  # FTC 7.3: a creature's own track; Fudge 4.8
        carried = self._carried_wounds(fig)
        if not fig.can_act:
            raise IllegalAction(
                f"{fig.name} carries wounds that leave {fig.wounds.label}: too hurt to join "
                "the battle; heal the character first or choose another."
            )
        fig.allowance = self.movement_allowance_of(fig)
        # FTC 4: the reinforcement rolls its initiative and takes its place in this round's order
        roll = self._roll("initiative", fig.id)
        fig.initiative = character.speed + roll.total

        def key(f: Figure) -> tuple[int, int, int, int]:
            return f.initiative, f.character.speed, f.character.agility, effective_perception(f.character)

        at = next((i for i, fid in enumerate(self.order) if key(self.figures[fid]) < key(fig)), len(self.order))
        self.figures[fig.id] = fig
        self.order.insert(at, fig.id)
        self._due = 0  # nobody has acted yet: the movement phase starts again from the top of the order
        side = self.sides[a.side].name.replace("{", "{{").replace("}", "}}")
        return [
            ev.GMActed(a.kind, f"{{0}} joins {side}", (fig.id,)),
            *carried,
            ev.InitiativeRolled(fig.id, character.speed, roll.faces, fig.initiative, ()),
            ev.InitiativeOrder(tuple(self.order)),
            *self._gm_settle(),
        ]

    def _gm_remove_figure(self, a: gm.RemoveFigure) -> list[ev.Event]:
        self._gm_between_rounds("A figure is removed")
        fig = self.figures.pop(a.figure)
        self.removed[fig.id] = fig
        self.order = [f for f in self.order if f != fig.id]
        self._due = 0  # nobody has acted yet: the movement phase starts again from the top of the order
        self._declarations = {}  # last round's, read only by threats_to
        self.gm_dice = [s for s in self.gm_dice if s.figure != fig.id]
        self.gm_escape.pop(fig.id, None)
        return [
            ev.GMActed(a.kind, "removes {0} from the battle", (fig.id,)),
            *self._magic_figure_removed(fig.id),
            *self._gm_settle(),
        ]


def _gear_text(character: Character) -> str:
    """A figure's gear for the log (FTC 9): weapons, armour (a partial suit with its coverage, FTC 9.2) and
    shield, or "nothing"."""
    armour = tuple(
        f"{item.name} ({item.coverage.replace('_', ' ')})" if item.coverage != "full" else item.name
        for item in character.armour
    )
    shield = (character.shield.name,) if character.shield is not None else ()
    return ", ".join((*(w.name for w in character.weapons), *armour, *shield)) or "nothing"
