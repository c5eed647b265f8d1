"""The table's protocol without sockets: every client message checked against its schema, the rate limit,
the setup sent without its seed, and a client's copy following the host's battle roll for roll."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.engine import actions as act
from game.engine.events import events_digest
from game.engine.gm import EndRound
from game.engine.players import make_player
from game.engine.seats import Seat, stand_in
from game.net.client import address_uri
from game.net.guard import RateLimit
from game.net.mirror import DesyncError, Mirror, ScriptedRandom
from game.net.protocol import MAX_CLIENT_FRAME, PROTOCOL_VERSION, Decide, Hello, ProtocolError, parse_client
from game.net.table import Out, Table
from game.net.wire import RANDOM_GRAIN, WireError, setup_from_wire, setup_to_wire, tape_to_wire, terrain_to_wire
from tests.net.nethelp import SEED, say, table


def msg(kind: str, **fields: Any) -> str:
    return json.dumps({"v": PROTOCOL_VERSION, "kind": kind, **fields})


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"\x00\x01", "binary"),
        ("{", r"That message is not valid JSON \(it is cut short, the JSON text ending too early\)\."),
        ('{"v": 2, "kind": "ping", "n": NaN}', r"not valid JSON \(NaN and Infinity are not numbers JSON holds\)"),
        ('{"v": 2, "kind": "ping",}', r"not valid JSON \(a comma before the end"),
        ('{"v": 2, "kind": "chat", "text": "\\ud800"}', r"not valid JSON \(a \\u escape holds half of a character\)"),
        ('{"v": 2, "kind": "ping", "n": 1} x', r"not valid JSON \(there is more after the end of the JSON text\)"),
        ("[" * 100000 + "]" * 100000, "A message is at most"),
        ("[" * 10000 + "]" * 10000, "JSON object"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"kind": "hello", "name": "x"}), f"protocol version {PROTOCOL_VERSION}, not None"),
        (json.dumps({"v": 1, "kind": "hello", "name": "x"}), f"protocol version {PROTOCOL_VERSION}, not 1"),
        (json.dumps({"v": True, "kind": "hello", "name": "x"}), "protocol version"),
        (msg("shout", text="hi"), "Unknown message kind 'shout'"),
        (msg("hello"), "needs the field 'name'"),
        (msg("hello", name="x", admin=True), "has no field 'admin'"),
        (msg("hello", name=7), "the field 'name' must be text, not a whole number"),
        (msg("hello", name="x" * 41), "at most 40 characters"),
        (msg("hello", name="\x1b[2Jx"), "control characters"),
        (msg("hello", name="x\n"), "control characters"),
        (msg("chat", text="a\nb"), "control characters"),
        (msg("chat", text="\u202etxet desrever"), "marks that turn the text's direction"),
        (msg("chat", text="[GM] \u2067all hold\u2069"), "marks that turn the text's direction"),
        (msg("hello", name="Ann\u200b"), "invisible characters"),
        (msg("hello", name="\ufeffAnn"), "invisible characters"),
        (msg("hello", name="A\u200en\u200fn"), "invisible characters"),
        (msg("decide", seq=True, seat="blue", action={}), "the field 'seq' must be a whole number, not true or false"),
        (msg("decide", seq=1, seat="blue", action=[]), "That decision is refused: it must be an object, not a list"),
        (msg("ping", n=2**60), "at most 9007199254740992"),
    ],
)
def test_a_client_message_that_breaks_its_schema_is_refused_with_a_sentence(raw: str | bytes, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_client(raw)


def test_names_and_chat_of_every_script_pass() -> None:
    for name in ("Ann", "Zoë", "Ærwyn Ødegård", "李小龍", "محمد", "Дарья", "🐉 Smaug"):
        assert isinstance(parse_client(msg("hello", name=name)), Hello)
    assert parse_client(msg("chat", text="👨\u200d👩\u200d👧 שלום, all hold"))


def test_a_well_formed_client_message_passes() -> None:
    data = parse_client(msg("hello", name="Ann", seat="blue", password="pw", token=None))
    assert isinstance(data, Hello) and data.name == "Ann" and data.seat == "blue"
    decide = parse_client(msg("decide", seq=3, seat="gm", action={"kind": "gm_end_round"}))
    assert isinstance(decide, Decide) and decide.seq == 3 and decide.action == EndRound()
    assert len(msg("chat", text="x" * 300)) < MAX_CLIENT_FRAME


def test_the_rate_limit_lets_a_burst_through_then_the_rate() -> None:
    limit = RateLimit(rate=10, burst=5)
    assert [limit.allow(0.0) for _ in range(6)] == [True] * 5 + [False]
    assert limit.allow(0.1) and not limit.allow(0.1)
    assert sum(limit.allow(1.0 + i / 10000) for i in range(10000)) < 20
    limit.charge(30)  # a costly answer: three seconds of the rate
    assert not limit.allow(3.0) and not limit.allow(4.0) and limit.allow(5.2)


def test_addresses_default_to_the_port_7777() -> None:
    assert address_uri("192.168.1.20") == "ws://192.168.1.20:7777"
    assert address_uri("table.local:9000") == "ws://table.local:9000"
    assert address_uri("ws://h:1") == "ws://h:1"


def test_the_setup_travels_without_its_seed_and_rebuilds_the_same_battle() -> None:
    t = table()
    data = json.loads(json.dumps(setup_to_wire(t.battle.setup)))
    assert "seed" not in data and str(SEED) not in json.dumps(data)
    setup = setup_from_wire(data)
    assert setup.seed == 0
    assert setup.figures == t.battle.setup.figures and setup.sides == t.battle.setup.sides
    for name in ("terrain", "cover", "elevation", "light", "footing", "blocks_sight"):
        assert (getattr(setup.terrain, name) == getattr(t.battle.terrain, name)).all()
    assert terrain_to_wire(setup.terrain) == terrain_to_wire(t.battle.terrain)


def test_a_damaged_setup_is_refused_with_a_sentence() -> None:
    data = setup_to_wire(table().battle.setup)
    data["terrain"]["cover"] = [[0]]
    with pytest.raises(WireError, match="'cover'"):
        setup_from_wire(data)
    data["terrain"] = {**data["terrain"], "width": 100000, "height": 100000}
    with pytest.raises(WireError, match="more than this client accepts"):
        setup_from_wire(data)


def test_a_copy_fed_the_hosts_tape_follows_the_battle_roll_for_roll() -> None:
    t = table()
    copy = Mirror(setup_from_wire(setup_to_wire(t.battle.setup)), tape_to_wire(t.opening), [])
    assert copy.battle.initial_digest == t.battle.initial_digest
    players = {s: make_player("tactical", i) for i, s in enumerate(t.battle.sides)}
    while not t.battle.over:
        d = t.battle.decision()
        assert d is not None
        t._apply(players[d.side](t.battle, d), Seat.of_side(d.side))
        step = t.steps[-1]
        assert events_digest(copy.step(step.action, tape_to_wire(step.draws))) == events_digest(step.events)
    assert copy.battle.winner == t.battle.winner and copy.battle.digests == t.battle.digests


def test_a_copy_that_strays_says_so() -> None:
    script = ScriptedRandom()
    with pytest.raises(DesyncError, match="more dice"):
        script.getrandbits(2)
    script.feed([0.5, 3])
    with pytest.raises(DesyncError, match="drew a die where the host drew something else"):
        script.getrandbits(2)
    with pytest.raises(DesyncError, match="drew a coin where the host drew a die"):
        script.random()
    assert tape_to_wire([0.123456789, 3]) == [int(0.123456789 * RANDOM_GRAIN) / RANDOM_GRAIN, 3]


def test_the_table_answers_a_wrong_seat_and_keeps_the_battle(tmp_path: Path) -> None:
    t = table(password="pw", save=tmp_path / "log.json")
    conn = object()
    with pytest.raises(ProtocolError, match="Wrong table password"):
        say(t, conn, "hello", name="Eve", password="p")
    with pytest.raises(ProtocolError, match="no seat 'purple'"):
        say(t, conn, "hello", name="Eve", password="pw", seat="purple")
    with pytest.raises(ProtocolError, match="Say hello first"):
        say(t, conn, "decide", seq=1, seat="blue", action={"kind": "yield", "side": "blue"})
    out = say(t, conn, "hello", name="Mallory the Unique", password="pw", seat="blue")
    assert [json.loads(o.text)["kind"] for o in out] == ["welcome", "state"]
    with pytest.raises(ProtocolError, match="That decision is refused: the field 'kind' cannot be 'teleport'"):
        say(t, conn, "decide", seq=1, seat="blue", action={"kind": "teleport"})
    with pytest.raises(ProtocolError, match="its own side"):
        say(t, conn, "decide", seq=1, seat="blue", action=act.Yield("red"))
    assert t.battle.log == []
    # nothing a client said reaches the file system: the save holds no name, only the seat's token hash
    text = (tmp_path / "log.json").read_text()
    assert "Mallory" not in text and json.loads(text)["setup"]["table"]["tokens"].keys() == {"blue"}
    assert isinstance(out[0], Out)


def test_the_engine_never_imports_the_network() -> None:
    code = (
        "import sys, pkgutil, importlib, game.engine as e\n"
        "[importlib.import_module('game.engine.' + m.name) for m in pkgutil.iter_modules(e.__path__)]\n"
        "print(sorted(n for n in sys.modules if n.startswith(('game.net', 'websockets'))))\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_seats_of_the_table_follow_the_battles_gm() -> None:
    assert table(gm="referee").seat_labels()[-1] == "gm"
    assert "gm" not in Table.seat_labels(table())


def test_the_network_layer_sits_between_the_session_and_the_commands() -> None:
    """The engine never reaches the network; the network never reaches the screens or the commands."""
    from tests.test_house import import_graph

    graph = import_graph()

    def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph.get(start, ()))
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo.extend(graph.get(m, ()))
        return seen

    assert "game.net.table" in graph
    for name in graph:
        if name.startswith("game.engine"):
            assert not {m for m in reaches(graph, name) if m.startswith("game.net")}, name
        if name.startswith("game.net"):
            assert not {m for m in reaches(graph, name) if m.startswith(("game.ui", "game.cli"))}, name


def test_fudge_4_32_a_seat_rejoining_before_the_reveal_gets_stand_ins_for_the_others_secrets() -> None:
    """The battle as it stands, sent to a seat mid-phase, holds its own secret declarations and only
    stand-ins for the other side's; the copy built from it is the host's battle up to the reveal."""
    t = table(secret=True)
    players = {s: make_player("tactical", i) for i, s in enumerate(t.battle.sides)}
    while len(set(t.secret.values())) != 2 or all(t.steps[i].action == stand_in(t.steps[i].action) for i in t.secret):
        d = t.battle.decision()
        assert d is not None and not t.battle.over
        t._apply(players[d.side](t.battle, d), Seat.of_side(d.side))
    for side in t.battle.sides:
        state = json.loads(t.state_for(Seat.of_side(side)))
        for i, owner in t.secret.items():
            sent = act.action_from_data(state["steps"][i][0])
            real = t.steps[i].action
            assert sent == (real if owner == side else stand_in(real))
        copy = Mirror(
            setup_from_wire(state["setup"]), state["opening"], [(act.action_from_data(a), d) for a, d in state["steps"]]
        )
        assert copy.battle.decision() == t.battle.decision()
        assert {f.id: f.hex for f in copy.battle.figures.values()} == {f.id: f.hex for f in t.battle.figures.values()}
