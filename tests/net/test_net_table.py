"""A networked table on the loopback address: computer players at their own "machines" play a shipped map
to the end; secrets (a declared stance before the reveal, the seed) never reach another seat; hostile
clients are refused and the battle is untouched."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from game.engine import actions as act
from game.engine.events import events_digest
from game.net.protocol import MAX_CLIENT_FRAME, PROTOCOL_VERSION
from tests.net.nethelp import SEED, client, hosted, play_in_thread, table


def test_two_computer_seats_and_a_watcher_play_a_shipped_map_to_the_end() -> None:
    t = table()
    with hosted(t) as port:
        watcher = client(port, "watch")
        w_thread, w_codes = play_in_thread(watcher, None)
        seats = [client(port, side) for side in t.battle.sides]
        threads = [play_in_thread(c, "tactical", i) for i, c in enumerate(seats)]
        for thread, _ in [*threads, (w_thread, w_codes)]:
            thread.join(60)
    assert t.battle.over and t.battle.winner in t.battle.sides
    assert [codes for _, codes in threads] == [[0], [0]] and w_codes == [0]
    # every copy followed the host's battle roll for roll
    for c in (*seats, watcher):
        assert c.mirror is not None
        assert c.mirror.battle.digests == t.battle.digests
        assert c.mirror.battle.winner == t.battle.winner


def _declared_leaks(messages: list[dict[str, Any]], own_side: str | None, sides: dict[str, str]) -> list[str]:
    """Every place a message shows another side's declaration before its reveal."""
    leaks = []
    for m in messages:
        events = m.get("events", [])
        for e in events:
            shown = e["kind"] == "declared" and (e["stance"] or e["targets"] or e["dodge"] or e["weapon"])
            if shown and e["hidden"] and sides[e["figure"]] != own_side:
                leaks.append(f"event {e}")
        if m["kind"] == "step" and any(e["kind"] == "declared" and e["hidden"] for e in events):
            a = m["action"]
            if a["kind"] == "declare" and sides[a["figure"]] != own_side:
                shown = (a["stance"], a["targets"], a["dodge"], a["advance"], a["retreat"], a["weapon"])
                if shown != ("neutral", [], [], [], None, None):
                    leaks.append(f"action {a}")
    return leaks


def test_fudge_4_32_no_declared_stance_before_the_reveal_and_no_seed_in_any_stream() -> None:
    t = table(secret=True)
    with hosted(t) as port:
        watcher = client(port, "watch", keep_raw=True)
        w_thread, _ = play_in_thread(watcher, None)
        seats = [client(port, side, keep_raw=True) for side in t.battle.sides]
        threads = [play_in_thread(c, "tactical", i) for i, c in enumerate(seats)]
        for thread, _ in [*threads, (w_thread, [])]:
            thread.join(60)
    assert t.battle.over
    sides = {f.id: f.side for f in t.battle.figures.values()}
    for c, own in ((watcher, None), *((s, s.seat) for s in seats)):
        raw = c.received
        assert raw and all(str(SEED) not in text for text in raw)
        messages = [json.loads(text) for text in raw]
        assert not any("seed" in m or "seed" in m.get("setup", {}) for m in messages)
        assert _declared_leaks(messages, own, sides) == []
        assert any(m["kind"] == "state" and any(e["kind"] == "revealed" for e in m["events"]) for m in messages)
    # the check can fail: a side's own stream does carry its secret declarations
    own = [json.loads(text) for text in seats[0].received]
    assert _declared_leaks(own, None, sides), "a side sees its own declared stances"


# ---------------------------------------------------------------------------------------------- hostile


def _raw(port: int) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{port}", max_size=None, max_queue=None, compression=None, proxy=None, open_timeout=5
    )


def _msg(kind: str, **fields: Any) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, "kind": kind, **fields})


def _seated(port: int, seat: str, password: str = "") -> ClientConnection:
    ws = _raw(port)
    ws.send(_msg("hello", name="tester", seat=seat, password=password))
    while json.loads(ws.recv(timeout=5))["kind"] != "state":
        pass
    return ws


def _closed_with(ws: ClientConnection, words: str) -> None:
    """The host answers with an error sentence holding ``words``, then closes the connection."""
    reasons = []
    with pytest.raises(ConnectionClosed):
        for _ in range(20000):
            m = json.loads(ws.recv(timeout=5))
            if m["kind"] == "error":
                reasons.append(m["reason"])
    assert reasons and words in reasons[0], reasons


def _untouched(t: Any) -> tuple[int, str]:
    return len(t.battle.log), events_digest(t.battle.events)


def test_hostile_clients_are_refused_and_the_battle_is_untouched() -> None:
    t = table(password="open sesame")
    before = _untouched(t)
    d = t.battle.decision()
    assert d is not None and d.figure is not None
    mover, other = d.side, next(s for s in t.battle.sides if s != d.side)
    with hosted(t) as port:
        ws = _raw(port)  # wrong password
        ws.send(_msg("hello", name="x", seat=mover, password="guess"))
        _closed_with(ws, "Wrong table password")
        ws = _raw(port)  # wrong protocol version
        ws.send(json.dumps({"v": PROTOCOL_VERSION + 1, "kind": "hello", "name": "x", "password": "open sesame"}))
        _closed_with(ws, "protocol version")
        ws = _raw(port)  # malformed JSON
        ws.send('{"v": 1, "kind": "hello", "name": ')
        _closed_with(ws, "not valid JSON")
        ws = _raw(port)  # a field of the wrong type
        ws.send(_msg("hello", name=["x"], password="open sesame"))
        _closed_with(ws, "'name'")
        # a decision out of turn: refused with a sentence, the connection stays
        ws = _seated(port, other, "open sesame")
        them = next(f.id for f in t.battle.figures.values() if f.side == other)
        ws.send(_msg("decide", seq=1, seat=other, action=act.action_to_json(act.Move(them))))
        refused = json.loads(ws.recv(timeout=5))
        assert refused["kind"] == "refused" and refused["seq"] == 1 and "turn" in refused["reason"]
        # a decision for another seat (its figure, or claiming its seat): closed
        ws.send(_msg("decide", seq=2, seat=other, action=act.action_to_json(act.Move(d.figure))))
        _closed_with(ws, "a seat decides only for its own side")
        ws = _seated(port, "watch", "open sesame")
        ws.send(_msg("decide", seq=1, seat=mover, action=act.action_to_json(act.Move(d.figure))))
        _closed_with(ws, "cannot decide for")
        # a taken seat without its token
        holder = _seated(port, mover, "open sesame")
        ws = _raw(port)
        ws.send(_msg("hello", name="thief", seat=mover, password="open sesame"))
        _closed_with(ws, "is taken")
        # an oversized frame: the WebSocket library closes the connection (code 1009)
        ws = _seated(port, "watch", "open sesame")
        ws.send(_msg("chat", text="x" * (MAX_CLIENT_FRAME + 10)))
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(50):
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # 10,000 messages in a second
        ws = _seated(port, "watch", "open sesame")
        start = time.process_time()
        try:
            for _ in range(10000):
                ws.send(_msg("ping", n=1))
        except ConnectionClosed:
            pass
        assert time.process_time() - start < 3.0, "a flood: 10,000 messages as fast as they go"
        _closed_with(ws, "Too many messages")
        holder.close()
    assert _untouched(t) == before
    assert not t.conns, "every connection was let go"


def test_the_host_hands_an_empty_seat_to_its_computer() -> None:
    t = table()
    with hosted(t, hand_over=0.2) as port:
        sides = list(t.battle.sides)
        c = client(port, sides[0])
        thread, codes = play_in_thread(c, "tactical", 2)
        thread.join(60)
    assert codes == [0] and t.battle.over
    assert sides[1] in t.computers and sides[0] not in t.computers


def test_a_connection_that_never_says_hello_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    import game.net.host

    monkeypatch.setattr(game.net.host, "HELLO_WITHIN", 0.2)
    t = table()
    with hosted(t) as port:
        ws = _raw(port)
        _closed_with(ws, "Say hello within 0.2 seconds")


def test_the_gms_seat_takes_gm_decisions_over_the_network_and_a_side_may_not() -> None:
    t = table(gm="referee")
    with hosted(t) as port:
        side = _seated(port, next(iter(t.battle.sides)))
        side.send(_msg("decide", seq=1, seat=next(iter(t.battle.sides)), action={"kind": "gm_end_round"}))
        _closed_with(side, "Only the GM's seat")
        assert t.battle.log == []
        gm_ws = _seated(port, "gm")
        gm_ws.send(_msg("decide", seq=1, seat="gm", action={"kind": "gm_end_round", "reason": "the bell tolls"}))
        step = json.loads(gm_ws.recv(timeout=5))
        assert step["kind"] == "step" and step["action"]["kind"] == "gm_end_round"
        assert any(e["kind"] == "gm_acted" for e in step["events"])
        gm_ws.close()
    assert [a.kind for a in t.battle.log] == ["gm_end_round"]


def test_a_web_page_in_a_browser_cannot_connect_to_the_table() -> None:
    """Browsers always send an Origin header; the game's client never does, so the host refuses any."""
    from websockets.exceptions import InvalidStatus

    t = table()
    with hosted(t) as port:
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{port}", origin="http://evil.example", proxy=None, open_timeout=5)
        assert refused.value.response.status_code == 403
        _seated(port, "watch").close()  # the game's own client still gets in


def test_a_look_before_hello_names_the_seats_and_needs_the_password() -> None:
    from game.net.client import Client, TableClosed

    t = table(password="pw")
    with hosted(t) as port:
        uri = f"ws://127.0.0.1:{port}"
        with pytest.raises(TableClosed, match="Wrong table password"):
            Client(uri, "x", password="guess", say=lambda _: None).look()
        info = Client(uri, "x", password="pw", say=lambda _: None).look()
        assert [s["seat"] for s in info["seats"]] == t.seat_labels()
        assert [s["side"] for s in info["seats"]] == [side.name for side in t.battle.sides.values()]
        assert info["title"] == t.battle.setup.title and info["watch"] == 16
        assert t.conns == {}, "looking takes no seat"
        ws = _raw(port)  # a look, then a hello on the same connection
        ws.send(_msg("look", password="pw"))
        assert json.loads(ws.recv(timeout=5))["kind"] == "table"
        ws.send(_msg("hello", name="Ann", seat="watch", password="pw"))
        assert json.loads(ws.recv(timeout=5))["kind"] == "welcome"
        ws.close()


def test_the_remembered_tables_survive_a_damaged_file_and_keep_the_newest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.net import remembered

    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path))
    remembered.path().write_text("{not json")
    assert remembered.known_tables() == []
    remembered.path().write_text(json.dumps({"tables": [{"uri": 5}, {"uri": "ws://a:1", "tokens": {"blue": 7}}]}))
    assert [(t.uri, t.tokens) for t in remembered.known_tables()] == [("ws://a:1", {})]
    for i in range(remembered.MAX_TABLES + 3):
        remembered.remember(f"ws://h{i}:1", f"h{i}", "Ann", "blue", f"token {i}")
    remembered.remember("ws://h3:1", "h3", "Ann", "red", "red token")
    kept = remembered.known_tables()
    assert len(kept) == remembered.MAX_TABLES and kept[0].uri == "ws://h3:1"
    assert kept[0].tokens == {"blue": "token 3", "red": "red token"} and kept[0].seat == "red"
    remembered.forget_token("ws://h3:1", "blue")
    assert remembered.find("ws://h3:1").tokens == {"red": "red token"}  # type: ignore[union-attr]
