"""Faces the GM sets by hand at a networked table (*Fudge* 4.1: the GM's dice stay behind the screen): only
the GM's seat is ever sent them; every other copy still rolls them, exactly as the host's battle does."""

from __future__ import annotations

import json
from typing import Any

from game.engine import events as ev
from game.engine import gm
from game.engine.events import events_digest
from game.engine.players import make_player
from game.engine.seats import Seat
from game.net.client import Client
from game.net.mirror import WITHHELD_SET_DIE, draws_rolling
from tests.net.nethelp import client, hosted, play_in_thread, say, table

INITIATIVE = (1, 1, 1, 0)
COMBAT = (-1, 1, 0, 1)


def _set_faces_shown(messages: list[dict[str, Any]]) -> list[str]:
    """Every place a message shows a GM's set die: its faces, figure or roll, or the GM's note of it."""
    shown = []
    for m in messages:
        actions = [m["action"]] if m["kind"] == "step" else [a for a, _ in m.get("steps", [])]
        for a in actions:
            if a["kind"] == "gm_set_die" and (a["faces"] or a["figure"] or a["purpose"]):
                shown.append(f"action {a}")
        shown.extend(f"event {e}" for e in m.get("events", []) if e["kind"] == "gm_acted" and "set by hand" in str(e))
    return shown


def _set_dice(t_figures: list[str]) -> list[gm.SetDie]:
    return [
        *(gm.SetDie(fid, "initiative", INITIATIVE) for fid in t_figures),
        *(gm.SetDie(fid, "combat", COMBAT) for fid in t_figures),
    ]


def test_fudge_4_1_set_faces_reach_only_the_gms_seat_and_every_copy_rolls_them() -> None:
    t = table(gm="referee")
    figures = sorted(t.battle.figures)
    with hosted(t) as port:
        gm_seat = client(port, "gm", keep_raw=True)
        watcher = client(port, "watch", keep_raw=True)
        seats = [client(port, side, keep_raw=True) for side in t.battle.sides]
        for c in (gm_seat, watcher, *seats):
            c.connect()
        dice = _set_dice(figures)
        for die in dice:  # before anyone plays: the next round's initiative, every first combat roll
            gm_seat.decide(die)
        for c in (gm_seat, watcher, *seats):  # every copy holds the GM's decisions before a side decides
            while c.mirror is not None and len(c.mirror.battle.log) < len(dice):
                assert c.receive(5), f"the seat {c.seat} did not receive the GM's decisions"
        threads = [play_in_thread(gm_seat, None), play_in_thread(watcher, None)]
        threads += [play_in_thread(c, "tactical", i) for i, c in enumerate(seats)]
        for thread, _ in threads:
            thread.join(60)
    assert t.battle.over
    assert [codes for _, codes in threads] == [[0]] * len(threads)
    # the set faces were rolled, initiative and combat alike
    assert {die.purpose for die in t.battle.set_rolls.values()} == {"initiative", "combat"}
    set_at = [i for i, a in enumerate(t.battle.log) if isinstance(a, gm.SetDie)]
    assert len(set_at) == 2 * len(figures)
    for c in (watcher, *seats):
        messages = [json.loads(text) for text in c.received]
        assert _set_faces_shown(messages) == []
        # one state (at join): the copy never lost its way, so never asked for the battle again
        assert [m["kind"] for m in messages].count("state") == 1
        assert c.mirror is not None
        assert [i for i, a in enumerate(c.mirror.battle.log) if a == WITHHELD_SET_DIE] == set_at
        digests = list(t.battle.digests)
        for i in set_at:
            digests[i] = events_digest([])  # the GM's decision, as this seat holds it: nothing happened
        assert c.mirror.battle.digests == digests
        shown = [e.to_json() for e in t.battle.events if not ev.is_gm_only(e)]
        assert [e.to_json() for e in c.mirror.battle.events] == shown
        assert c.mirror.battle.winner == t.battle.winner
    # the check can fail: the GM's own stream does carry the faces, and the GM's copy is the host's battle
    gm_messages = [json.loads(text) for text in gm_seat.received]
    assert len(_set_faces_shown(gm_messages)) >= len(set_at)
    assert gm_seat.mirror is not None and gm_seat.mirror.battle.digests == t.battle.digests


def test_fudge_4_1_a_copy_rebuilt_from_the_whole_log_rolls_the_set_faces_without_them() -> None:
    t = table(gm="referee")
    say(t, "gm", "hello", name="the GM", seat="gm")
    for seq, die in enumerate(_set_dice(sorted(t.battle.figures))):
        say(t, "gm", "decide", seq=seq, seat="gm", action=die)
    for i, side in enumerate(t.battle.sides):
        t.computers[side] = make_player("tactical", i + 1)
    while t.battle.round < 2 and not t.battle.over:  # the host's computer plays both sides into the next round
        assert t.play_computers(limit=1)
    state = t.state_for(Seat.watcher())
    assert _set_faces_shown([json.loads(state)]) == []
    watcher = Client("ws://127.0.0.1:1", "w", "watch", say=lambda _: None)
    watcher.feed(state)
    assert watcher.mirror is not None
    assert watcher.mirror.battle.round == t.battle.round
    shown = [e.to_json() for e in t.battle.events if not ev.is_gm_only(e)]
    assert [e.to_json() for e in watcher.mirror.battle.events] == shown
    # the initiative rolled with the set faces reached the copy as the draws that roll them
    assert draws_rolling(INITIATIVE) == [2, 2, 2, 1]
    assert any(die.purpose == "initiative" for die in t.battle.set_rolls.values())
