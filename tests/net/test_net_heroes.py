"""A hero's Fudge Point question at a networked table (*Fudge* 4.64; docs/rulings.md "PC death and Fudge Points"):
only the hero's seat is asked and answers, under secret stances too; every copy follows the host roll for roll."""

from __future__ import annotations

import pytest

from game.engine import actions as act
from game.engine.battle import Reason, RuleOptions, Seat, apply
from game.engine.players import make_player
from game.net.protocol import ProtocolError
from game.net.table import Table
from game.session import new_session
from tests.net.nethelp import MAP, client, hosted, play_in_thread, say

ASKED = RuleOptions(secret_stances=True, pc_death_fudge_point=True, fudge_points_default=3)


def test_fudge_4_64_only_the_heroes_seat_answers_the_question_at_a_hosted_table() -> None:
    session = new_session(MAP, seed=2, options=ASKED, autosave=False)
    for fig in session.battle.figures.values():
        if fig.is_hero:  # every hero's player is asked before a point is spent
            apply(session.battle, act.SetFudgePointOrder(fig.id, "ask"), Seat.of_side(fig.side))
    t = Table.start(session, say=lambda _: None)
    with hosted(t) as port:
        seats = [client(port, side) for side in t.battle.sides]
        threads = [play_in_thread(c, "tactical", i) for i, c in enumerate(seats)]
        for thread, _ in threads:
            thread.join(120)
    assert t.battle.over
    answers = [a for a in t.battle.log if isinstance(a, act.SpendFudgePoint)]
    assert answers, "no hero was asked at this table: choose a bloodier seed"
    heroes = {f.id: f.side for f in t.battle.figures.values() if f.is_hero}
    assert {heroes[a.figure] for a in answers} <= set(heroes.values())
    for c in seats:
        assert c.mirror is not None and c.mirror.battle.digests == t.battle.digests


def test_fudge_4_64_another_seat_may_not_answer_for_the_hero() -> None:
    session = new_session(MAP, seed=2, options=ASKED, autosave=False)
    for fig in session.battle.figures.values():
        if fig.is_hero:
            apply(session.battle, act.SetFudgePointOrder(fig.id, "ask"), Seat.of_side(fig.side))
    t = Table.start(session, say=lambda _: None)
    for i, side in enumerate(t.battle.sides):
        t.computers[side] = make_player("tactical", i + 1)
    while (d := t.battle.decision()) is not None and d.reason != Reason.FUDGE_POINT:
        before = len(t.battle.log)
        t.play_computers(limit=1)
        assert len(t.battle.log) == before + 1
    assert d is not None, "no hero was asked at this table: choose a bloodier seed"
    t.computers.clear()
    other = next(s for s in t.battle.sides if s != d.side)
    say(t, "them", "hello", name="Them", seat=other)
    say(t, "hero", "hello", name="Hero", seat=d.side)
    answer = act.SpendFudgePoint(d.figure or "", True)
    with pytest.raises(ProtocolError, match="own side"):
        say(t, "them", "decide", seq=1, seat=other, action=answer)
    before = len(t.battle.log)
    say(t, "hero", "decide", seq=1, seat=d.side, action=answer)
    assert t.battle.log[before:] == [answer]
