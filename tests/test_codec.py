"""One contract at every boundary (docs/architecture.md "One contract at every boundary"): a decision is
decoded by the same strict codec whether it comes in a save file or in a seated player's message, and is
refused with the same sentence by both; a seat cannot make the host's save unloadable.

The hostile corpus below is what a damaged file or a hostile client may hold: NaN and Infinity, numbers past
a double (``1e999``) or past any range, a list where a name belongs, a text where a number belongs, unknown
fields and kinds, data nested too deeply, texts too long.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import actions as act
from game.engine import codec, gm, record
from game.engine.battle import IllegalAction, Seat
from game.engine.hexgrid import Hex
from game.engine.players import make_player
from game.net import protocol
from game.net.protocol import PROTOCOL_VERSION, Decide, ProtocolError, parse_client
from game.session import load_session
from tests.net.nethelp import say, table

HOSTILE: list[tuple[str, str]] = [
    ('{"kind":"declare","figure":"f1","advance_facing":NaN}', "not valid JSON"),
    ('{"kind":"declare","figure":"f1","advance_facing":Infinity}', "not valid JSON"),
    ('{"kind":"declare","figure":"f1","advance_facing":-Infinity}', "not valid JSON"),
    ('{"kind":"declare","figure":"f1","advance_facing":"north-east"}', "'advance_facing' must be a whole number"),
    ('{"kind":"declare","figure":"f1","advance_facing":1e999}', "'advance_facing' is a number out of range"),
    ('{"kind":"declare","figure":"f1","advance_facing":2.0}', "'advance_facing' must be a whole number"),
    ('{"kind":"declare","figure":"f1","advance_facing":6}', "'advance_facing' must be a whole number at most 5"),
    ('{"kind":"declare","figure":["f10"]}', "'figure' must be text, not a list"),
    ('{"kind":"declare","figure":"f1","weapon":["Sword"]}', "'weapon' must be text or nothing (null), not a list"),
    ('{"kind":"declare","figure":"f1","targets":"f2"}', "'targets' must be a list, not text"),
    ('{"kind":"declare","figure":"f1","retreat":[1]}', "'retreat' must be a list of 2 entries"),
    ('{"kind":"declare","figure":"' + "x" * 300 + '"}', "'figure' must be text of at most 200 characters"),
    ('{"kind":"move","figure":"f1","steps":[[[Infinity,0],0]]}', "not valid JSON"),
    ('{"kind":"move","figure":"f1","steps":[[[1e999,0],0]]}', "'steps[0][0][0]' is a number out of range"),
    ('{"kind":"move","figure":"f1","steps":[[[' + "9" * 30 + ",0],0]]}", "'steps[0][0][0]'"),
    ('{"kind":"move","figure":"f1","steps":[[[0,0],9]]}', "'steps[0][1]' must be a whole number at most 5"),
    ('{"kind":"move","figure":"f1","steps":[[0,0,1]]}', "'steps[0][0]' must be a list, not a whole number"),
    ('{"kind":"teleport","figure":"f1"}', "'kind' cannot be 'teleport'"),
    ('{"kind":5}', "'kind'"),
    ('{"figure":"f1"}', "needs the field 'kind'"),
    ('{"kind":"hold"}', "it needs the field 'figure'"),
    ('{"kind":"hold","figure":"f1","extra":1}', "it has no field 'extra'"),
    ('{"kind":"stop_choice","figure":"f1","stop":1}', "'stop' must be true or false, not a whole number"),
    ('{"kind":"yield","side":null}', "'side' must be text, not nothing (null)"),
    ('{"kind":"gm_modifier","id":"m","target":"f1","value":1.5}', "'value' must be a whole number, not a number"),
    ('{"kind":"gm_modifier","id":"m","target":"f1","value":9}', "'value' must be a whole number at most 3"),
    ('{"kind":"gm_set_die","figure":"f1","purpose":"combat","faces":[1,1,1,1,1]}', "'faces' must be a list of at most"),
    ('{"kind":"gm_edit_traits","figure":"f1","changes":{"a":' + "[" * 12 + "1" + "]" * 12 + "}}", "nests too deeply"),
    ('{"kind":"gm_edit_traits","figure":"f1","changes":{"a":' + "[" * 5000 + "]" * 5000 + "}}", "nested too deeply"),
    ("[1,2]", "it must be an object, not a list"),
    ('"declare"', "it must be an object, not text"),
    ("null", "it must be an object, not nothing (null)"),
]
"""A decision as a damaged file or a hostile client may hold it, and words its refusal must say."""

SEAT_HOSTILE = [
    '{"kind":"declare","figure":"f1","advance_facing":NaN}',
    '{"kind":"declare","figure":"f1","advance_facing":"north-east"}',
    '{"kind":"move","figure":["f10"]}',
    '{"kind":"declare","figure":"f1","weapon":["Sword"]}',
    '{"kind":"move","figure":"f1","steps":[[[Infinity,0],0]]}',
    '{"kind":"move","figure":"f1","steps":[[[1e999,0],0]]}',
]
"""The decisions a seated player was seen to make the host's save unloadable with."""


def _save_text(action: str) -> str:
    return (
        '{"format":"fudge-tactics-battle","version":2,"seed":1,"setup":{},"actions":['
        + action
        + '],"digests":[],"dice":"blake2b"}'
    )


def _decide_text(action: str) -> str:
    return '{"v":' + str(PROTOCOL_VERSION) + ',"kind":"decide","seq":1,"seat":"blue","action":' + action + "}"


def _file_refusal(tmp_path: Path, action: str) -> record.SaveError:
    path = tmp_path / "hostile.json"
    path.write_text(_save_text(action), encoding="utf-8")
    with pytest.raises(record.SaveError) as info:
        record.load(path)
    return info.value


def _wire_refusal(action: str) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        parse_client(_decide_text(action))
    return info.value


@pytest.mark.parametrize(("action", "words"), HOSTILE, ids=[f"hostile-{i}" for i in range(len(HOSTILE))])
def test_one_hostile_corpus_gets_the_same_refusal_from_the_file_and_the_wire(
    tmp_path: Path, action: str, words: str
) -> None:
    """Every hostile decision is refused by the save loader and by the host's decoder with one sentence, the
    same sentence, which says what is wrong; the file's message names the file and the decision's number."""
    in_file = _file_refusal(tmp_path, action)
    on_wire = _wire_refusal(action)
    assert in_file.problem and in_file.problem == on_wire.problem
    assert words in in_file.problem
    assert in_file.problem in str(in_file) and in_file.problem in str(on_wire)
    assert str(tmp_path / "hostile.json") in str(in_file)
    for text in (str(in_file), str(on_wire)):
        assert "\n" not in text and "Traceback" not in text and "msgspec" not in text


def test_a_field_of_a_decision_is_named_the_same_way_in_the_file_and_the_wire(tmp_path: Path) -> None:
    in_file = _file_refusal(tmp_path, '{"kind":"declare","figure":"f1","advance_facing":"north-east"}')
    assert "action 1 is damaged (the field 'advance_facing' must be a whole number or nothing (null), not text)" in (
        str(in_file)
    )
    on_wire = _wire_refusal('{"kind":"declare","figure":"f1","advance_facing":"north-east"}')
    assert str(on_wire) == (
        "That decision is refused: the field 'advance_facing' must be a whole number or nothing (null), not text."
    )


def test_every_decision_round_trips_through_its_json() -> None:
    """What the codec writes it reads back equal, for every kind of decision (the players' and the GM's)."""
    from tests.engine.test_gm import EVERY_ACTION

    players: list[act.Action] = [
        act.Move("f1", ((Hex(1, 2), 3), (Hex(1, 3), 3)), "crawling"),
        act.Hold("f1"),
        act.PassInterrupt("blue"),
        act.StopChoice("f1", True),
        act.EscapeFailedChoice("f1", False),
        act.Declare("f1", "mildly_aggressive", ("f2",), "Sword", ("f3",), (Hex(2, 2),), 4, None, "head"),
        act.Declare("w", spell="Blinding Cloud", spell_hex=Hex(3, 2)),
        act.SecondMove("f1", ((Hex(0, 1), 0),)),
        act.FollowChoice("f1", Hex(4, 4)),
        act.RevealStances("blue"),
        act.SetStandingOrder("f1", "ask"),
        act.SpendFudgePoint("f1", False),
        act.SetFudgePointOrder("f1", "never"),
        act.Yield("red"),
    ]
    kinds = {a.kind for a in (*players, *EVERY_ACTION)}
    assert kinds == set(act.ACTION_TYPES)
    for action in (*players, *EVERY_ACTION):
        assert act.decode_action(codec.encode(action)) == action
        assert act.action_from_data(json.loads(json.dumps(act.action_to_json(action)))) == action


def test_every_decision_kind_is_its_tag() -> None:
    for kind, cls in act.ACTION_TYPES.items():
        assert cls.__struct_config__.tag == kind
    assert len(act.ACTION_TYPES) == len(act.PLAYER_ACTION_TYPES) + len(gm.GM_ACTION_TYPES)  # each its own kind


def test_every_message_kind_is_its_tag_and_names_it_on_the_wire() -> None:
    for messages, kinds in (
        (protocol.CLIENT_MESSAGES, protocol.CLIENT_KINDS),
        (protocol.HOST_MESSAGES, protocol.HOST_KINDS),
    ):
        assert kinds == tuple(str(cls.__struct_config__.tag) for cls in messages)
        assert len(set(kinds)) == len(kinds)
    said = codec.encode(protocol.ChatLine(v=PROTOCOL_VERSION, text="hello"))
    assert json.loads(said)["kind"] == protocol.ChatLine.kind == "chat"
    assert isinstance(parse_client(said.decode()), protocol.ChatLine)


# ------------------------------------------------------------------------------------------ fuzz

EXPLORE = os.environ.get("HYPOTHESIS_PROFILE") == "explore"
FIELDS = sorted({f for cls in act.ACTION_TYPES.values() for f in cls.__struct_fields__} | {"extra", "kind"})

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 5, 6, -1, 10**5, 10**5 + 1, 2**63, -(2**63) - 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["f1", "f2", "blue", "red", "neutral", "combat", "Sword", "gm", ""]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def decisions(draw: st.DrawFn) -> str:
    """A decision as JSON text, built from the real kinds and field names with values of any JSON type (NaN and
    Infinity written as JSON does not allow)."""
    kind = draw(st.sampled_from([*act.ACTION_TYPES, "teleport"]))
    cls = act.ACTION_TYPES.get(kind)
    names = list(cls.__struct_fields__) if cls is not None else ["figure"]
    data: dict[str, Any] = {"kind": kind}
    for name in draw(st.lists(st.sampled_from([*names, "extra"]), max_size=len(names) + 1, unique=True)):
        data[name] = draw(VALUES)
    return json.dumps(data)


@settings(
    max_examples=600 if EXPLORE else 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(action=decisions())
def test_fuzz_a_decision_is_our_own_sentence_or_a_valid_decision_alike_in_file_and_wire(
    tmp_path: Path, action: str
) -> None:
    """Structure-aware fuzz: a decision of the real kinds with fields of any JSON type is either refused by the
    file and by the wire with the same sentence, or read by both as the same decision, which writes back as
    itself."""
    path = tmp_path / "fuzz.json"
    path.write_text(_save_text(action), encoding="utf-8")
    try:
        rec = record.load(path)
    except record.SaveError as file_error:
        with pytest.raises(ProtocolError) as wire_error:
            parse_client(_decide_text(action))
        assert file_error.problem and file_error.problem == wire_error.value.problem
        assert "\n" not in str(file_error) and str(path) in str(file_error)
        return
    message = parse_client(_decide_text(action))
    assert isinstance(message, Decide) and rec.actions == (message.action,)
    assert act.decode_action(codec.encode(message.action)) == message.action


# ------------------------------------------------------------------------------------------ a hostile seat


def _seated(tmp_path: Path) -> tuple[Any, Path]:
    save = tmp_path / "table.json"
    t = table(save=save)
    say(t, "blue-conn", "hello", name="Blue", seat="blue")
    say(t, "red-conn", "hello", name="Red", seat="red")
    return t, save


@pytest.mark.parametrize("action", SEAT_HOSTILE)
def test_a_seated_players_hostile_decision_is_refused_before_it_enters_the_log(tmp_path: Path, action: str) -> None:
    """The host's table refuses the decision with a sentence (the connection is then closed by the host), the
    battle and its save are untouched, the save loads and replays roll for roll, and a legitimate decision
    from the seat the table waits for is taken afterwards."""
    t, save = _seated(tmp_path)
    d = t.battle.decision()
    assert d is not None
    conn = f"{d.side}-conn"
    hostile = _decide_text(action.replace('"f1"', json.dumps(d.figure))).replace('"blue"', json.dumps(d.side), 1)
    before = save.read_bytes()
    with pytest.raises(ProtocolError) as info:
        t.receive(conn, parse_client(hostile))
    assert "\n" not in str(info.value) and str(info.value)
    assert t.battle.log == [] and save.read_bytes() == before
    assert load_session(save, autosave=False, strict=True).battle.digests == []
    player = make_player("tactical", 1)
    out = say(t, conn, "decide", seq=2, seat=d.side, action=player(t.battle, d))
    assert [json.loads(o.text)["kind"] for o in out] == ["step", "step"]
    assert len(t.battle.log) == 1
    again = load_session(save, autosave=False, strict=True)
    assert again.battle.digests == t.battle.digests


@settings(
    max_examples=120 if EXPLORE else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(actions=st.lists(decisions(), min_size=1, max_size=6))
def test_fuzz_no_seat_can_make_the_save_unloadable(
    tmp_path_factory: pytest.TempPathFactory, actions: list[str]
) -> None:
    """Whatever a seated player sends, its decisions are refused or taken, and the host's save loads and
    replays roll for roll afterwards."""
    t, save = _seated(tmp_path_factory.mktemp("seat"))
    for action in actions:
        d = t.battle.decision()
        assert d is not None
        data = action.replace('"f1"', json.dumps(d.figure or "f1"))
        try:
            t.receive(f"{d.side}-conn", parse_client(_decide_text(data).replace('"blue"', json.dumps(d.side), 1)))
        except ProtocolError as exc:
            assert "\n" not in str(exc)
    rebuilt = load_session(save, autosave=False, strict=True)
    assert rebuilt.battle.digests == t.battle.digests


def test_the_hosts_own_players_decision_the_save_could_not_hold_is_refused(tmp_path: Path) -> None:
    t, save = _seated(tmp_path)
    d = t.battle.decision()
    assert d is not None and d.figure is not None
    with pytest.raises(IllegalAction, match="cannot be saved"):
        t._apply(act.Declare(d.figure, "x" * 5000), Seat.of_side(d.side))
    assert t.battle.log == []
    assert load_session(save, autosave=False, strict=True).battle.digests == []
