"""A networked table under the rule options of the blow and the roll (docs/network.md; docs/rulings.md "Rule
options"): the wire carries a declaration's stun, sweep and ignored enemies, every seat's copy follows the host
roll for roll, and under secret stances none of those fields reaches another seat before the reveal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.engine import actions as act
from game.engine.battle import RuleOptions
from game.net.protocol import Decide, ProtocolError, encode, parse_client
from game.net.table import Table
from game.session import new_session
from tests.net.nethelp import MAP, client, hosted, play_in_thread

OPTIONS = RuleOptions(
    secret_stances=True,
    npc_rolls="group",
    speed_contest=True,
    stun_blows=True,
    pulled_blows=True,
    sweeping_blow=1,
    ignore_attackers=True,
)


def _leaks(messages: list[dict[str, Any]], own_side: str, sides: dict[str, str]) -> list[str]:
    """Every place a message shows another side's stun, most wound, sweep or ignored enemies before the reveal."""
    out = []
    for m in messages:
        events = m.get("events", [])
        for e in events:
            hidden = e["kind"] == "declared" and e["hidden"] and sides[e["figure"]] != own_side
            if hidden and (e.get("stun") or e.get("max_wound") or e.get("ignore") or e["targets"]):
                out.append(f"event {e}")
        if m["kind"] == "step" and any(e["kind"] == "declared" and e["hidden"] for e in events):
            a = m["action"]
            theirs = a["kind"] == "declare" and sides[a["figure"]] != own_side
            if theirs and (any(k in a for k in ("stun", "max_wound", "ignore")) or a["targets"]):
                out.append(f"action {a}")
    return out


def test_a_hosted_table_plays_the_options_and_keeps_their_secrets() -> None:
    session = new_session(MAP, seed=4242, options=OPTIONS, autosave=False)
    t = Table.start(session, save_path=None, say=lambda _: None)
    with hosted(t) as port:
        seats = [client(port, side, keep_raw=True) for side in t.battle.sides]
        threads = [play_in_thread(c, "tactical", i + 3) for i, c in enumerate(seats)]
        for thread, _ in threads:
            thread.join(600)  # a bound for a hung table only: a loaded machine takes minutes
    assert t.battle.over and [codes for _, codes in threads] == [[0], [0]]
    for c in seats:  # every copy followed the host's battle roll for roll
        assert c.mirror is not None and c.mirror.battle.digests == t.battle.digests
    declared = [a for a in t.battle.log if a.kind == "declare"]
    used = [a for a in declared if a.stuns or len(a.targets) > 1 or a.ignoring]  # type: ignore[attr-defined]
    assert used, "no declaration used a field of the options: nothing crossed the wire to check"
    sides = {f.id: f.side for f in t.battle.figures.values()}
    for c in seats:
        messages = [json.loads(text) for text in c.received]
        assert _leaks(messages, c.seat, sides) == []
        # the revealed declarations carry the fields to every seat
        shown = [e for m in messages for e in m.get("events", []) if e["kind"] == "declared" and not e["hidden"]]
        assert any(e.get("stun") for e in shown) or any(len(e["targets"]) > 1 for e in shown)
    # the check can fail: a side's own stream carries its own secret fields
    own = [json.loads(text) for text in seats[0].received]
    assert _leaks(own, "nobody", sides)


def test_the_wire_carries_a_declarations_new_fields_and_refuses_bad_ones() -> None:
    """A decision message holding a stun, a most wound and ignored enemies reads back exactly; one of another
    type is refused with the protocol's sentence naming the field."""
    declare = act.Declare("k", "neutral", ("g", "l"), "Broadsword", stun=True, max_wound="Hurt", ignore=("x",))
    got = parse_client(encode("decide", seq=1, seat="blue", action=declare))
    assert isinstance(got, Decide) and got.action == declare
    assert isinstance(got.action, act.Declare) and got.action.ignoring == ("x",) and got.action.stuns
    bad = {**act.action_to_json(declare), "stun": "yes"}
    with pytest.raises(ProtocolError, match="stun"):
        parse_client(encode("decide", seq=1, seat="blue", action=bad))
