"""Seats at the table: every decision only from its own seat, and what each seat may see (*Fudge* 4.32's
secret stances withheld at the source; the GM sees everything; the log keeps everything)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.battle import Battle, IllegalAction, RuleOptions, apply, legal_actions, seat_taking
from game.engine.hexgrid import Hex
from game.engine.players import make_player
from game.engine.seats import (
    Seat,
    apply_as,
    check_seat,
    event_for_seat,
    events_for_seat,
    is_gm_seat,
    is_secret,
    seats_of,
    stand_in,
    view,
)
from tests.golden.scenarios import skirmish
from tests.helpers import refereed

BLUE, RED = Seat.of_side("blue"), Seat.of_side("red")
GM_SEAT, WATCHER = Seat.game_master(), Seat.watcher()


def refereed_skirmish(seed: int = 3, secret: bool = False) -> Battle:
    """The three-against-three skirmish with a GM who plays no side."""
    return refereed(skirmish(seed, RuleOptions(secret_stances=secret)))


def blue_actions() -> list[act.Action]:
    """One decision of every kind a side takes, each for blue (its figure b0 or the side itself)."""
    return [
        act.Move("b0"),
        act.Hold("b0"),
        act.PassInterrupt("blue"),
        act.StopChoice("b0", True),
        act.EscapeFailedChoice("b0", False),
        act.Declare("b0", "neutral"),
        act.SecondMove("b0"),
        act.FollowChoice("b0"),
        act.RevealStances("blue"),
        act.SetStandingOrder("b0", "never"),
        act.SpendFudgePoint("b0", True),
        act.SetFudgePointOrder("b0", "ask"),
        act.Yield("blue"),
    ]


def gm_actions() -> list[gm.GMAction]:
    """One GM decision of every kind."""
    return [
        gm.SituationalModifier("m1", "b0", 1, "high ground"),
        gm.RemoveModifier("m1"),
        gm.BattleCondition("c1", "bad_light", -1, (Hex(0, 0),)),
        gm.SetDie("b0", "combat", (1, 1, 1, 1)),
        gm.GrantEscape("b0"),
        gm.DenyEscape("b0"),
        gm.GrantFreeAttack("r0", "b0"),
        gm.DenyFreeAttack("r0", "b0"),
        gm.EndRound(),
        gm.EndBattle("blue"),
        gm.DeclareOut("b0"),
        gm.DeclareIn("b0"),
        gm.EditWounds("b0"),
        gm.EditGear("b0"),
        gm.EditTraits("b0"),
        gm.AddFigure("n1", "blue", Hex(0, 0)),
        gm.RemoveFigure("b0"),
        gm.SetFudgePoints("b0", 2),
    ]


def state(b: Battle) -> tuple[object, ...]:
    """What a refused decision must leave as it was."""
    return (len(b.log), len(b.events), b.rng.draws, b.round, b.phase, b.over, b.decision())


def test_every_kind_of_decision_has_a_sample_here() -> None:
    """A new kind of action must be added to these tests (so its seat rule is checked)."""
    act.register_gm_actions()
    kinds = {a.kind for a in blue_actions()} | {a.kind for a in gm_actions()}
    assert kinds == set(act.ACTION_TYPES)


@pytest.mark.parametrize("action", blue_actions(), ids=lambda a: a.kind)
def test_a_sides_decision_is_refused_from_every_other_seat(action: act.Action) -> None:
    b = refereed_skirmish()
    before = state(b)
    for seat, words in ((RED, "Blue's"), (GM_SEAT, "GM's seat takes GM decisions"), (WATCHER, "watcher")):
        with pytest.raises(IllegalAction, match=words):
            apply(b, action, seat)  # the battle's public door
        with pytest.raises(IllegalAction, match=words):
            apply_as(b, action, seat)
        assert state(b) == before
    check_seat(b, action, BLUE)  # its own seat passes the seat check (the rules may still refuse it)


@pytest.mark.parametrize("action", gm_actions(), ids=lambda a: a.kind)
def test_a_gm_decision_is_refused_from_every_seat_but_the_gms(action: gm.GMAction) -> None:
    b = refereed_skirmish()
    before = state(b)
    for seat in (BLUE, RED, WATCHER):
        with pytest.raises(IllegalAction, match=r"GM's seat|watcher"):
            apply(b, action, seat)  # the battle's public door
        with pytest.raises(IllegalAction, match=r"GM's seat|watcher"):
            apply_as(b, action, seat)
        assert state(b) == before
    check_seat(b, action, GM_SEAT)


def test_the_gm_who_plays_a_side_takes_gm_decisions_from_that_sides_seat() -> None:
    b = Battle(replace(skirmish(3), gm="blue"))
    assert is_gm_seat(b, BLUE) and not is_gm_seat(b, RED) and not is_gm_seat(b, GM_SEAT)
    check_seat(b, gm.EndRound(), BLUE)
    with pytest.raises(IllegalAction, match="GM's seat"):
        check_seat(b, gm.EndRound(), GM_SEAT)
    assert seats_of(b) == (BLUE, RED)
    assert seats_of(refereed_skirmish()) == (BLUE, RED, GM_SEAT)


def test_the_door_takes_a_decision_from_its_own_seat() -> None:
    b = refereed_skirmish()
    d = legal_actions(b)
    assert d is not None and d.figure is not None
    wrong = RED if d.side == "blue" else BLUE
    before = state(b)
    with pytest.raises(IllegalAction, match="a seat decides only for its own side"):
        apply(b, act.Hold(d.figure), wrong)
    assert state(b) == before
    events = apply(b, act.Hold(d.figure), Seat.of_side(d.side))
    assert len(b.log) == 1 and b.log[-1] == act.Hold(d.figure) and events


def test_replay_sends_each_recorded_decision_from_the_seat_that_took_it() -> None:
    b = refereed_skirmish()
    d = legal_actions(b)
    assert d is not None and d.figure is not None
    apply(b, gm.SetDie(d.figure, "combat", (1, 1, 1, 1)), GM_SEAT)
    apply(b, act.Hold(d.figure), Seat.of_side(d.side))
    assert seat_taking(b, b.log[0]) == GM_SEAT and seat_taking(b, b.log[1]) == Seat.of_side(d.side)
    assert record.replay(b.setup, b.log, digests=b.digests).digests == b.digests
    # the same log in a battle without a GM: its GM decision has no seat to come from
    with pytest.raises(record.ReplayMismatch, match="no GM seat"):
        record.replay(replace(b.setup, gm=None), b.log)


def test_a_battle_without_a_gm_has_no_gm_seat() -> None:
    b = Battle(skirmish(3))
    with pytest.raises(IllegalAction, match="GM's seat"):
        check_seat(b, gm.EndRound(), GM_SEAT)


def test_a_decision_for_an_unknown_figure_is_refused_with_a_sentence() -> None:
    with pytest.raises(IllegalAction, match="no figure 'nobody'"):
        check_seat(refereed_skirmish(), act.Move("nobody"), BLUE)


def test_a_seat_is_a_side_the_gm_or_a_watcher() -> None:
    with pytest.raises(ValueError, match="one of side, gm, watcher"):
        Seat("player")
    with pytest.raises(ValueError, match="names its side"):
        Seat("side")
    assert [s.label for s in (BLUE, GM_SEAT, WATCHER)] == ["blue", "gm", "watch"]


def play_secret(seed: int = 5) -> tuple[Battle, list[list[ev.Event]]]:
    """A whole refereed skirmish under secret stances, every decision from its own seat; the events of
    each decision as the battle produced them."""
    b = refereed_skirmish(seed, secret=True)
    players = {"blue": make_player("random", 1), "red": make_player("random", 2)}
    steps: list[list[ev.Event]] = [list(b.events)]
    while not b.over and b.round <= 40:
        d = legal_actions(b)
        assert d is not None
        steps.append(apply_as(b, players[d.side](b, d), Seat.of_side(d.side)))
    return b, steps


def test_fudge_4_32_no_other_seat_receives_a_declared_stance_before_the_reveal() -> None:
    b, steps = play_secret()
    stream = {seat: [e for events in steps for e in events_for_seat(b, events, seat)] for seat in (BLUE, RED, WATCHER)}
    secrets = [e for events in steps for e in events if isinstance(e, ev.Declared) and e.hidden]
    assert secrets and any(e.stance for e in secrets), "the battle declared in secret"
    for seat, events in stream.items():
        for e in events:
            if isinstance(e, ev.Declared) and e.hidden:
                own = seat.side is not None and b.figures[e.figure].side == seat.side
                if own:
                    assert e.stance, "a side sees its own declaration"
                else:
                    assert (e.stance, e.targets, e.dodge, e.weapon) == ("", (), (), ""), (seat, e)
    # after the reveal the declarations are in every stream, in the open
    revealed = [e for e in stream[WATCHER] if isinstance(e, ev.Declared) and not e.hidden and e.stance]
    assert revealed


def test_the_gm_and_the_log_keep_every_declaration() -> None:
    b, steps = play_secret()
    gm_stream = [e for events in steps for e in events_for_seat(b, events, GM_SEAT)]
    assert gm_stream == [e for events in steps for e in events]
    assert [e for e in b.events if isinstance(e, ev.Declared) and e.hidden and e.stance]


def test_view_shows_the_seat_its_events_and_whom_the_table_waits_for() -> None:
    b = refereed_skirmish(3, secret=True)
    players = {"blue": make_player("random", 1), "red": make_player("random", 2)}
    while b.phase != "attack":
        d = legal_actions(b)
        assert d is not None
        apply_as(b, players[d.side](b, d), Seat.of_side(d.side))
    d = legal_actions(b)
    assert d is not None
    events = apply_as(b, players[d.side](b, d), Seat.of_side(d.side))
    assert is_secret(events)
    other = RED if d.side == "blue" else BLUE
    mine = view(b, Seat.of_side(d.side))
    theirs = view(b, other)
    assert mine.events[-len(events) :] == tuple(events)
    hidden = next(e for e in theirs.events[-len(events) :] if isinstance(e, ev.Declared))
    assert hidden.stance == "" and hidden.figure == d.figure
    assert mine.decision == theirs.decision == b.decision()
    nxt = b.decision()
    assert nxt is not None and view(b, Seat.of_side(nxt.side)).yours and not view(b, WATCHER).yours


def test_events_other_than_a_secret_declaration_pass_unchanged() -> None:
    b = refereed_skirmish()
    e = ev.Declared("b0", "neutral", (), (), "Broadsword")
    assert event_for_seat(b, e, RED) is e
    roll = ev.CombatRoll("b0", (1, 0, -1, 0))
    assert event_for_seat(b, roll, WATCHER) is roll


def test_fudge_4_32_a_stand_in_leaves_a_copy_of_the_battle_as_the_secret_declaration_did() -> None:
    """A copy of the battle that gets the other side's secret declarations only as stand-ins (a neutral
    stance, nothing else) is the same battle up to each reveal: same turn, same figures where they stand."""
    b = refereed_skirmish(7, secret=True)
    copy = refereed_skirmish(7, secret=True)
    players = {"blue": make_player("random", 1), "red": make_player("random", 2)}
    compared = stood_in = 0
    while not b.over and b.round <= 6:
        d = legal_actions(b)
        assert d is not None
        action = players[d.side](b, d)
        events = apply_as(b, action, Seat.of_side(d.side))
        if any(isinstance(e, ev.Revealed) for e in events):
            copy = refereed_skirmish(7, secret=True)
            for a in b.log:
                copy.apply(a)
            continue
        if is_secret(events) and d.side == "blue":
            action = stand_in(action)
            stood_in += 1
        copy.apply(action)
        assert copy.decision() == b.decision()
        assert {f.id: (f.hex, f.facing, f.wounds) for f in copy.figures.values()} == {
            f.id: (f.hex, f.facing, f.wounds) for f in b.figures.values()
        }
        compared += 1
    assert compared > 10 and stood_in > 2


def test_every_decision_that_names_a_figure_is_a_figure_decision_and_names_it_first() -> None:
    """The seat rule finds a decision's figure through ``FigureAction``: a kind with a ``figure`` field that were
    not one would be taken from any seat."""
    act.register_gm_actions()
    for cls in act.ACTION_TYPES.values():
        assert ("figure" in cls.__struct_fields__) == issubclass(cls, act.FigureAction), cls.kind
        if issubclass(cls, act.FigureAction):
            assert cls.__struct_fields__[0] == "figure", cls.kind
    assert issubclass(gm.SetDie, gm.GMFigureAction) and not issubclass(gm.EndRound, act.FigureAction)
