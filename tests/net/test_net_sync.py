"""``sync`` is cheap and paid for: each seat's view of the log is kept as JSON text and grown one step at a
time (a second ``sync`` encodes nothing of the log again, and the grown view is the one a fresh table
builds), and an answer counts against the client's rate limit by its size."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from game.engine import actions as act
from game.engine import gm
from game.engine.players import make_player
from game.engine.seats import Seat
from game.net import guard
from game.net.protocol import BURST, RATE, encode
from game.net.table import Table
from tests.net.nethelp import client, hosted, table

SEATS = (Seat.of_side("blue"), Seat.of_side("red"), Seat.game_master(), Seat.watcher())


def _play(t: Table, decisions: int) -> None:
    players = {s: make_player("tactical", i) for i, s in enumerate(t.battle.sides)}
    for _ in range(decisions):
        d = t.battle.decision()
        if d is None:
            return
        t._apply(players[d.side](t.battle, d), Seat.of_side(d.side))


def _fresh(t: Table, seat: Seat) -> dict[str, Any]:
    """The state as a table that never answered before builds it."""
    saved, t.views = t.views, {}
    try:
        return dict(json.loads(t.state_for(seat)))
    finally:
        t.views = saved


def test_fudge_4_32_each_seats_view_grown_step_by_step_is_the_one_built_afresh() -> None:
    """Under secret stances with a GM who sets faces by hand (*Fudge* 4.1, 4.32): at every step, each seat's
    state and step message agree with what a fresh table sends that seat, through every reveal."""
    t = table(secret=True, gm="referee")
    figures = sorted(t.battle.figures)
    conns = {seat.label: object() for seat in SEATS}
    for seat in SEATS:
        t.conns[conns[seat.label]] = seat
    t._apply(gm.SetDie(figures[0], "combat", (1, 1, -1, 0)), Seat.game_master())
    players = {s: make_player("tactical", i) for i, s in enumerate(t.battle.sides)}
    reveals = 0
    for _ in range(60):
        d = t.battle.decision()
        assert d is not None
        outs = {o.conn: json.loads(o.text) for o in t._apply(players[d.side](t.battle, d), Seat.of_side(d.side))}
        for seat in SEATS:
            sent = outs[conns[seat.label]]
            fresh = _fresh(t, seat)
            assert json.loads(t.state_for(seat)) == fresh
            if sent["kind"] == "state":
                reveals += 1
                assert sent == fresh
            else:
                assert [sent["action"], sent["draws"]] == fresh["steps"][-1]
                assert sent["events"] == fresh["events"][len(fresh["events"]) - len(sent["events"]) :]
    assert reveals, "the battle went through a reveal"


def test_a_second_sync_between_decisions_encodes_nothing_of_the_log_again(monkeypatch: pytest.MonkeyPatch) -> None:
    t = table()
    _play(t, 40)
    calls: list[int] = []
    real = Table._safe_action

    def counted(self: Table, index: int, seat: Seat) -> act.Action:
        calls.append(index)
        return real(self, index, seat)

    monkeypatch.setattr(Table, "_safe_action", counted)
    first = t.state_for(Seat.watcher())
    assert len(calls) == len(t.steps)
    calls.clear()
    assert t.state_for(Seat.watcher()) == first and calls == []
    _play(t, 1)
    t.state_for(Seat.watcher())
    assert calls == [len(t.steps) - 1], "one more step: one more decision encoded"


def test_sync_counts_against_the_rate_limit_by_its_size() -> None:
    t = table()
    _play(t, 40)
    size = len(t.state_for(Seat.watcher()))
    assert guard.sync_cost("x" * size) > 10
    with hosted(t) as port:
        pinger = client(port, "watch")
        pinger.connect()
        for n in range(BURST // 2):  # as many pings as syncs below: well under the limit
            pinger.send("ping", n=n)
        syncer = connect(f"ws://127.0.0.1:{port}", proxy=None, open_timeout=5, max_size=None)
        syncer.send(encode("hello", name="syncer", seat="watch"))
        while json.loads(syncer.recv(timeout=5))["kind"] != "state":
            pass
        reasons, answered = [], 0
        start = time.monotonic()
        with pytest.raises(ConnectionClosed):
            for _ in range(BURST // 2):  # each answer read before the next is asked for
                syncer.send(encode("sync"))
                while (m := json.loads(syncer.recv(timeout=5)))["kind"] not in ("state", "error"):
                    pass
                answered += m["kind"] == "state"
                reasons += [m["reason"]] if m["kind"] == "error" else []
        took = time.monotonic() - start
        assert reasons and reasons[0].startswith("Too many messages"), reasons
        # the burst, and what the rate gave back while they went to and fro (a loaded machine's slower trips)
        assert answered < (BURST + RATE * took) / guard.sync_cost("x" * size) + 10, (answered, took)
        pongs = 0
        while pongs < BURST // 2 and pinger.ws is not None:
            raw = pinger.ws.recv(timeout=5)
            pongs += json.loads(raw)["kind"] == "pong"
        assert pongs == BURST // 2, "the pings were all answered"
        pinger.close()
