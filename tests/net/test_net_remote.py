"""A seat at a host's table shaped like a local session (what a screen plays from): its battle follows the
host's, a decision goes to the host and a refusal comes back as the host's sentence."""

from __future__ import annotations

import time

import pytest

from game.engine import actions as act
from game.engine.battle import IllegalAction
from game.engine.players import make_player
from game.engine.record import SaveError
from game.net.remote import RemoteSession
from tests.net.nethelp import client, hosted, play_in_thread, table


def test_a_remote_seat_plays_through_apply_and_follows_the_host_to_the_end() -> None:
    t = table()
    blue, red = list(t.battle.sides)
    with hosted(t) as port:
        other, _ = play_in_thread(client(port, red), "tactical", 1)
        session = RemoteSession.join(f"ws://127.0.0.1:{port}", "Ann", blue)
        assert session.seat == blue and session.rebuilt
        session.clear_rebuilt()
        start = len(session.battle.events)
        player = make_player("tactical", 0)
        end = time.monotonic() + 60
        seen = 0
        while not session.battle.over and time.monotonic() < end:
            seen += len(session.poll())
            d = session.battle.decision()
            if d is not None and d.side == blue and session.waiting_for() == blue:
                seen += len(session.apply(player(session.battle, d)))
            else:
                time.sleep(0.002)
        other.join(30)
        with pytest.raises(SaveError, match="saved by its host"):
            session.save("x.json")
        session.close()
    assert session.battle.over and t.battle.over
    assert session.battle.digests == t.battle.digests
    assert seen == len(session.battle.events) - start, "the screen is told every event once"
    assert not session.rebuilt


def test_a_refused_decision_raises_the_hosts_sentence_and_changes_nothing() -> None:
    t = table()
    d = t.battle.decision()
    assert d is not None
    waiting = next(s for s in t.battle.sides if s != d.side)
    with hosted(t) as port:
        session = RemoteSession.join(f"ws://127.0.0.1:{port}", "Bob", waiting)
        mine = next(f.id for f in session.battle.figures.values() if f.side == waiting)
        with pytest.raises(IllegalAction, match="turn"):
            session.apply(act.Move(mine))
        assert session.battle.log == [] and t.battle.log == []
        session.close()
