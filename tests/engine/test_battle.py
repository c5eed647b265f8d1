"""The battle as a state machine (FTC 3–7): random legal play from many seeds with invariants checked
after every action, the illegal-action guarantee (state unchanged), and the phase table.

The invariants are those the issue names: no two figures share a hex, wound tracks never shrink, an
Incapacitated figure never acts, and every event's numbers add up (dice faces, modifiers, results).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.ai import RandomPlayer
from game.engine.battle import ALWAYS_ALLOWED, HANDLERS, PHASES, Battle, IllegalAction, RuleOptions, legal_actions
from game.engine.hexgrid import Hex
from tests.golden.scenarios import skirmish

# ------------------------------------------------------------------------------------------ invariants


def snapshot(b: Battle) -> dict[str, Any]:
    """Everything an illegal action must leave alone (docs/architecture.md "Decisions are data")."""
    return {
        "figures": {
            f.id: (
                f.hex,
                f.facing,
                f.posture,
                f.wounds,
                f.out,
                f.moved,
                f.held,
                f.standing_order,
                tuple(f.positions),
                f.hexes_moved,
            )
            for f in b.figures.values()
        },
        "decision": b.decision(),
        "events": len(b.events),
        "log": len(b.log),
        "rng": b.rng.getstate(),
        "draws": b.rng.draws,
        "phase": b.phase,
        "round": b.round,
        "state": b.snapshot(),
    }


def check_events(b: Battle, events: Sequence[ev.Event], able_before: set[str]) -> None:
    """Every event's numbers add up; every figure that acts was able to act when the action began."""
    rolls: dict[str, int] = {}
    revealing = False  # Fudge 4.32: declarations shown again at the reveal are not new acts
    for e in events:
        if isinstance(e, ev.Revealed):
            revealing = True
        elif isinstance(e, ev.InitiativeRolled):
            assert len(e.faces) == 4 and set(e.faces) <= {-1, 0, 1}
            assert e.result == e.speed + sum(e.faces)
        elif isinstance(e, ev.CombatRoll):
            assert len(e.faces) == 4 and set(e.faces) <= {-1, 0, 1}
            assert e.figure in able_before, f"{e.figure} rolled for combat while unable to act"
            rolls[e.figure] = sum(e.faces)
        elif isinstance(e, ev.AttackResolved):
            assert e.attacker in able_before, f"{e.attacker} attacked while unable to act"
            assert e.roll == rolls[e.attacker]
            assert e.offence == e.skill + e.roll + sum(v for _, v in e.offence_mods)
            if not e.stray:
                defences = ([e.defence] if e.defence is not None else []) + [r for _, r in e.other_defences]
                assert e.hit == (e.offence >= e.difficulty and all(e.offence > d for d in defences))
                floor = e.difficulty if e.defence is None else max(e.defence, e.difficulty)
                assert e.relative_degree == e.offence - floor
            if e.hit:
                assert e.damage == (
                    e.relative_degree + sum(v for _, v in e.offensive_factors) - sum(v for _, v in e.defensive_factors)
                )
                att, tgt = b.figures[e.attacker].character, b.figures[e.target].character
                # Fudge 4.56: a larger Strength Scale raises the cap; a track without Scratch starts higher
                if (
                    e.relative_degree == 1
                    and not b.options.fudge_graze_table
                    and att.strength_scale <= tgt.mass_scale
                    and tgt.wound_track.name != "mook"
                ):
                    assert e.wound in (None, "Scratch"), "FTC 7.3: a graze does at most a Scratch"
            else:
                assert e.wound is None and e.damage == 0
        elif isinstance(e, ev.EscapeContest):
            assert e.mover in able_before
            assert e.mover_result == e.mover_level + sum(v for _, v in e.mover_mods) + sum(e.mover_faces)
            for lv, mods, faces, res in zip(
                e.stopper_levels, e.stopper_mods, e.stopper_faces, e.stopper_results, strict=True
            ):
                assert res == lv + sum(v for _, v in mods) + sum(faces)
            assert e.escaped == all(e.mover_result > r for r in e.stopper_results)
        elif isinstance(e, ev.Wounded):
            fig = b.figures[e.figure]
            assert e.health_result == fig.character.health + sum(e.health_faces)
        elif isinstance(e, ev.Moved):
            assert e.figure in able_before, f"{e.figure} moved while unable to act"
            assert e.cost <= e.allowance or len(e.path) == 1
        elif isinstance(e, (ev.Declared, ev.Held)) and not revealing:
            assert e.figure in able_before, f"{e.figure} declared or held while unable to act"
        elif isinstance(e, ev.Stepped):
            assert e.figure in able_before
            assert e.origin == e.to or Hex(*e.to) in _neighbours(Hex(*e.origin))


def _neighbours(h: Hex) -> set[Hex]:
    from game.engine.hexgrid import neighbors

    return set(neighbors(h))


def check_state(b: Battle, wounds_before: dict[str, list[Any]]) -> None:
    """State invariants: one figure per hex, wounds only grow, the decision names an able figure."""
    hexes = [f.hex for f in b.figures.values()]
    assert len(set(hexes)) == len(hexes), "two figures share a hex"
    for f in b.figures.values():
        now = list(f.wounds.received())
        before = wounds_before[f.id]
        assert (
            now[: len(before)] == before
            or sorted(before) == sorted(now[: len(before)])
            or all(now.count(w) >= before.count(w) for w in before)
        ), f"{f.id}'s wound track shrank"
        assert len(now) >= len(before)
    d = legal_actions(b)
    if b.over:
        assert d is None and b.phase == "over"
        return
    assert d is not None
    assert set(d.kinds) <= set(PHASES[b.phase].actions)
    if d.figure is not None:
        assert b.figures[d.figure].can_act, f"{d.figure} is asked to act while unable to"
    for fid in d.interrupters:
        assert b.figures[fid].can_act and b.figures[fid].held


def play(b: Battle, players: dict[str, RandomPlayer], max_rounds: int, *, check: bool = True) -> Battle:
    """Random legal play with every invariant checked after every action."""
    while not b.over and b.round <= max_rounds:
        d = legal_actions(b)
        assert d is not None
        action = players[d.side](b, d)
        able = {f.id for f in b.figures.values() if f.can_act}
        wounds = {f.id: list(f.wounds.received()) for f in b.figures.values()}
        n = len(b.events)
        events = b.apply(action)
        assert b.events[n:] == events
        if check:
            check_events(b, events, able)
            check_state(b, wounds)
    return b


OPTION_SETS = [
    RuleOptions(),
    RuleOptions(secret_stances=True, mook_group_initiative=True),
    RuleOptions(initiative_once=True, attack_any_adjacent=True),
    RuleOptions(per_hex_terrain=True, fudge_graze_table=True),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    opt=st.sampled_from(range(len(OPTION_SETS))),
    order=st.sampled_from(["always", "ask", "never"]),
)
def test_ftc_3_to_7_random_legal_play_keeps_every_invariant(seed: int, opt: int, order: str) -> None:
    """Hypothesis state machine: random legal actions from many seeds; invariants after every action."""
    b = Battle(skirmish(seed, OPTION_SETS[opt], orders={"r0": order, "b2": order}))
    players = {"blue": RandomPlayer(seed), "red": RandomPlayer(seed + 1)}
    play(b, players, max_rounds=12)
    assert b.round >= 1


# ------------------------------------------------------------------------------------------ illegal actions


def _battery(b: Battle) -> list[act.Action]:
    """Actions that are illegal at the battle's opening decision (a movement-phase move by the first figure)."""
    d = legal_actions(b)
    assert d is not None and d.reason == "move" and d.figure is not None
    me = b.figures[d.figure]
    other = next(f for f in b.figures.values() if f.id != me.id)
    friend_hex = next(f.hex for f in b.figures.values() if f.id != me.id)
    far = Hex(me.hex.q + 5, me.hex.r)
    return [
        act.Move(other.id, ()),  # not its turn
        act.Move("nobody", ()),  # no such figure
        act.Move(me.id, ((far, me.facing),)),  # a jump, not a step
        act.Move(me.id, ((me.hex, (me.facing + 3) % 6),)),  # a three-side turn in one step
        act.Move(
            me.id,
            ((me.hex, me.facing),) * 0
            + tuple(  # far beyond the allowance
                (Hex(me.hex.q, me.hex.r + i), me.facing) for i in range(1, 30)
            ),
        ),
        act.Move(me.id, (), posture="flying"),  # no such posture
        act.Declare(me.id),  # wrong phase
        act.SecondMove(me.id),  # wrong phase
        act.FollowChoice(me.id, friend_hex),  # wrong phase
        act.StopChoice(me.id, True),  # nobody asks
        act.EscapeFailedChoice(me.id, True),  # no failed escape
        act.Hold(other.id),  # not its turn
        act.PassInterrupt("red" if me.side == "blue" else "blue"),  # no interrupt offered
        act.SetStandingOrder(me.id, "sometimes"),  # no such order
        act.SetStandingOrder("nobody", "never"),
        act.Yield("green"),  # no such side
    ]


def test_design_rule_2_illegal_actions_raise_and_change_nothing() -> None:
    """An illegal action raises ``IllegalAction`` with a sentence and changes nothing at all."""
    b = Battle(skirmish(7))
    before = snapshot(b)
    for action in _battery(b):
        with pytest.raises(IllegalAction) as info:
            b.apply(action)
        message = str(info.value)
        assert message[0].isupper() and message.rstrip().endswith((".", "?", "!")), message
        assert snapshot(b) == before, f"{action} changed the battle"


def test_design_rule_2_illegal_declarations_change_nothing() -> None:
    """In the attack phase, bad declarations (stance, target, weapon, advance, retreat) change nothing."""
    b = Battle(skirmish(3))
    players = {"blue": RandomPlayer(1), "red": RandomPlayer(2)}
    while b.phase != "attack":
        d = legal_actions(b)
        assert d is not None
        b.apply(players[d.side](b, d))
    d = legal_actions(b)
    assert d is not None and d.reason == "declare" and d.figure is not None
    me = b.figures[d.figure]
    friend = next(f for f in b.figures.values() if f.side == me.side and f.id != me.id)
    far_enemy = max(b.enemies_of(me), key=lambda e: (e.hex.q - me.hex.q) ** 2 + (e.hex.r - me.hex.r) ** 2)
    before = snapshot(b)
    battery: list[act.Action] = [
        act.Declare(me.id, "berserk"),
        act.Declare(me.id, "neutral", (friend.id,)),
        act.Declare(me.id, "neutral", ("nobody",)),
        act.Declare(me.id, "neutral", (), "Trebuchet"),
        act.Declare(me.id, "neutral", tuple(e.id for e in b.enemies_of(me))),
        act.Declare(me.id, "neutral", (), None, (friend.id,)),
        act.Declare(me.id, "very_aggressive", (), advance=(me.hex,), advance_facing=me.facing),
        act.Declare(
            me.id,
            "neutral",
            (far_enemy.id,),
            "Broadsword" if any(w.name == "Broadsword" for w in me.character.weapons) else None,
        )
        if not me.character.ready_weapon.ranged
        else act.Declare(me.id, "neutral", (friend.id,)),
        act.Declare(me.id, "neutral", retreat=Hex(me.hex.q + 1, me.hex.r)),
        act.Declare(me.id, "mildly_defensive", retreat=Hex(me.hex.q + 7, me.hex.r)),
        act.Declare(friend.id, "neutral") if friend.id != d.figure else act.Move(me.id, ()),
        act.Move(me.id, ()),
        act.Hold(me.id),
        act.SecondMove(me.id, ((Hex(me.hex.q + 9, me.hex.r), me.facing),)),
        act.FollowChoice(me.id, None),
    ]
    for action in battery:
        with pytest.raises(IllegalAction):
            b.apply(action)
        assert snapshot(b) == before, f"{action} changed the battle"


def test_design_rule_4_every_decision_a_phase_allows_has_its_handler() -> None:
    """docs/architecture.md "Phases are a table": the handler table holds a handler for every decision a phase
    (or every phase) allows, and for every GM decision; nothing else is dispatched."""
    kinds = {kind for phase in PHASES.values() for kind in phase.actions} | set(ALWAYS_ALLOWED)
    handled = {t.kind for t in HANDLERS}
    assert kinds <= handled
    assert set(gm.GM_ACTION_TYPES) <= handled
    assert handled - kinds - set(gm.GM_ACTION_TYPES) == set()
    # a decision the battle never takes is refused with a sentence, and changes nothing
    b = Battle(skirmish(1))
    before = snapshot(b)
    with pytest.raises(IllegalAction, match="cannot be done"):
        b.apply(act.RevealStances("blue"))
    assert snapshot(b) == before


def test_design_rule_4_phases_table_names_each_phases_actions() -> None:
    """docs/architecture.md "Phases are a table": the phase table lists what each phase allows; nothing is allowed once
    it is over."""
    assert list(PHASES) == ["initiative", "movement", "attack", "round_end", "over"]
    assert "move" in PHASES["movement"].actions and "hold" in PHASES["movement"].actions
    assert "declare" in PHASES["attack"].actions and "second_move" in PHASES["attack"].actions
    assert PHASES["over"].actions == () and PHASES["initiative"].actions == () and PHASES["round_end"].actions == ()
    # FTC 3: a round runs initiative -> movement -> attack -> the next round's initiative; between the attack
    # phase and the next round the round's end, where nobody decides but a hero asked about a Fudge Point
    # (Fudge 4.64), so it ends at once when nobody is asked
    assert [PHASES[p].next for p in ("initiative", "movement", "attack", "round_end")] == [
        "movement",
        "attack",
        "round_end",
        "initiative",
    ]
    assert PHASES["over"].next is None
    b = Battle(skirmish(1))
    b.apply(act.Yield("red"))
    assert b.over and b.winner == "blue" and legal_actions(b) is None
    with pytest.raises(IllegalAction, match="over"):
        b.apply(act.SetStandingOrder("b0", "never"))
