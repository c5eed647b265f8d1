"""Every phase rule of FTC 4–6 reached through ``legal_actions`` / ``apply``.

Scenarios are built in code on an open field (``tests/golden/scenarios.py``). Where the outcome depends on
dice (an escape won or lost, a stray hit, two figures falling together) the battle has a GM seat that sets
those rolls by hand (``gm.SetDie``), and the test asserts the exact events. Round 1's initiative is rolled
as the battle is set up, before any seat can act, so a test that needs one figure to go first takes a fixed
seed and asserts that order before relying on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import (
    GM_REFEREE,
    Battle,
    BattleSetup,
    Decision,
    Figure,
    IllegalAction,
    RuleOptions,
    legal_actions,
)
from game.engine.hexgrid import Hex, direction_to, distance, neighbor
from game.engine.movement import movement_allowance
from game.engine.wounds import WoundLevel, Wounds
from tests.golden.scenarios import axial
from tests.helpers import do_little

C = Hex(4, 4)  # a hex near the middle of the 12 × 10 test field


Policy = Callable[[Battle, Decision], act.Action | None]


def drive(
    b: Battle, policy: Policy | None = None, *, until: Callable[[Battle], bool] | None = None, limit: int = 200
) -> list[ev.Event]:
    """Apply ``policy``'s action (or the default one when it returns None) until ``until`` holds."""
    out: list[ev.Event] = []
    for _ in range(limit):
        if b.over or (until is not None and until(b)):
            return out
        d = legal_actions(b)
        assert d is not None
        a = policy(b, d) if policy else None
        out.extend(b.apply(a if a is not None else do_little(d)))
    if until is not None:
        raise AssertionError("the battle never reached the wanted state")
    return out


def attack_phase(b: Battle) -> bool:
    return b.phase == "attack"


HIGH = (1, 1, 1, 1)
LOW = (-1, -1, -1, -1)
ZERO = (0, 0, 0, 0)


def with_dice(setup: BattleSetup, dice: Mapping[tuple[str, str], Sequence[tuple[int, ...]]]) -> Battle:
    """The battle with a GM seat (a referee) who sets, for each (figure, purpose), that figure's next rolls of
    that purpose in order (``gm.SetDie``); the GM's events come before the first decision."""
    b = Battle(replace(setup, gm=GM_REFEREE))
    for (fid, purpose), rolls in dice.items():
        for faces in rolls:
            b.apply(gm.SetDie(fid, purpose, faces))
    return b


def first_in_initiative(make: Callable[[int], BattleSetup], seed: int, fid: str, *, last: bool = False) -> Battle:
    """The battle from a fixed ``seed`` in which ``fid`` goes first (or ``last``) in round 1's initiative
    (rolled as the battle is set up, FTC 4); fails, naming the seed, if it no longer does."""
    b = Battle(make(seed))
    assert b.order[-1 if last else 0] == fid, f"seed {seed} no longer puts {fid} {'last' if last else 'first'}"
    return b


def until_moves(fid: str) -> Callable[[Battle], bool]:
    """``drive``'s stop condition: ``fid`` is due to move (everyone before it stayed where it was)."""
    return lambda b: (d := legal_actions(b)) is not None and d.figure == fid and d.reason == "move"


def of(events: list[ev.Event], kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if isinstance(e, kind)]


def rolled(b: Battle) -> list[ev.InitiativeRolled]:
    return [e for e in b.events if isinstance(e, ev.InitiativeRolled)]


# ------------------------------------------------------------------------------------------ FTC 4


def _three(seed: int, options: RuleOptions | None = None) -> BattleSetup:
    return axial(
        [
            ("a", "blue", "swift", Hex(1, 1), 0),
            ("b", "blue", "brigand", Hex(1, 3), 0),
            ("c", "red", "clumsy", Hex(8, 1), 3),
            ("d", "red", "brigand", Hex(8, 3), 3),
        ],
        seed=seed,
        options=options,
    )


def test_ftc_4_initiative_best_first_ties_by_speed_agility_perception() -> None:
    """FTC 4: Speed + 4dF, best first; ties go to the higher Speed, then Agility, then Perception."""
    for seed in range(60):
        b = Battle(_three(seed))
        result = {e.figure: e.result for e in rolled(b)}
        for e in rolled(b):
            assert e.result == b.figures[e.figure].character.speed + sum(e.faces)

        def key(fid: str, b: Battle = b, result: dict[str, int] = result) -> tuple[int, int, int, int]:
            c = b.figures[fid].character
            return (result[fid], c.speed, c.agility, c.perception)

        keys = [key(f) for f in b.order]
        assert keys == sorted(keys, reverse=True)
        order_events = [e for e in b.events if isinstance(e, ev.InitiativeOrder)]
        assert order_events[-1].order == tuple(b.order)


def test_ftc_4_initiative_full_tie_is_a_fair_coin() -> None:
    """FTC 4: figures tied on roll, Speed, Agility and Perception are ordered by a coin — either may win."""

    def make(seed: int) -> BattleSetup:
        return axial([("a", "blue", "brigand", Hex(1, 1), 0), ("z", "red", "brigand", Hex(8, 1), 3)], seed=seed)

    firsts = set()
    for seed in range(120):
        b = Battle(make(seed))
        r = rolled(b)
        order = [e for e in b.events if isinstance(e, ev.InitiativeOrder)][-1]
        if r[0].result == r[1].result:
            assert order.coin_flips >= 2
            firsts.add(b.order[0])
        else:
            assert order.coin_flips == 0
    assert firsts == {"a", "z"}


def test_ftc_4_option_initiative_once_per_battle() -> None:
    """Rule option *initiative once*: round 2 uses round 1's order and rolls no initiative."""
    b = Battle(_three(5, RuleOptions(initiative_once=True)))
    first = list(b.order)
    n = len(rolled(b))
    drive(b, until=lambda b: b.round == 2)
    assert len(rolled(b)) == n == 4
    assert b.order == first
    plain = Battle(_three(5))
    drive(plain, until=lambda b: b.round == 2)
    assert len(rolled(plain)) == 8


def test_ftc_4_option_mook_group_rolls_once() -> None:
    """Rule option *mook group initiative*: a side's mooks roll once together and act on one result."""
    setup = axial(
        [
            ("a", "blue", "brigand", Hex(1, 1), 0),
            ("m1", "red", "brigand", Hex(8, 1), 3),
            ("m2", "red", "brigand", Hex(8, 3), 3),
        ],
        seed=3,
        options=RuleOptions(mook_group_initiative=True),
        mooks=frozenset({"m1", "m2"}),
    )
    b = Battle(setup)
    r = rolled(b)
    assert len(r) == 2
    group = next(e for e in r if e.group)
    assert set(group.group) == {"m1", "m2"}
    assert b.figures["m1"].initiative == b.figures["m2"].initiative == group.result


# ------------------------------------------------------------------------------------------ FTC 5: hold


def _hold_setup(seed: int) -> BattleSetup:
    return axial(
        [
            ("a", "blue", "brigand", Hex(1, 1), 0),
            ("y", "red", "brigand", Hex(8, 1), 3),
            ("z", "red", "brigand", Hex(8, 4), 3),
        ],
        seed=seed,
    )


def test_ftc_5_hold_and_interrupt() -> None:
    """FTC 5: a held figure may take its whole move before any later figure — here before both reds."""
    b = first_in_initiative(_hold_setup, 8, "a")
    d = legal_actions(b)
    assert d is not None and (d.figure, d.reason, d.kinds) == ("a", "move", ("move", "hold"))
    events = b.apply(act.Hold("a"))
    assert events[0] == ev.Held("a")
    first_red, second_red = b.order[1], b.order[2]
    d = legal_actions(b)
    assert d is not None and (d.side, d.reason, d.interrupters) == ("blue", "interrupt", ("a",))
    # blue lets the first red move ...
    assert b.apply(act.PassInterrupt("blue")) == []
    d = legal_actions(b)
    assert d is not None and (d.figure, d.reason) == (first_red, "move")
    b.apply(act.Move(first_red, ()))
    # ... and is asked again before the second red moves: it interrupts now
    d = legal_actions(b)
    assert d is not None and (d.side, d.reason) == ("blue", "interrupt")
    step = ((neighbor(Hex(1, 1), 0), 0),)
    moved = b.apply(act.Move("a", step))
    assert moved[0] == ev.Moved("a", (Hex(1, 1), neighbor(Hex(1, 1), 0)), 0, 1, b.figures["a"].allowance)
    d = legal_actions(b)
    assert d is not None and (d.figure, d.reason) == (second_red, "move")
    assert b.figures["a"].moved and not b.figures["a"].held


def test_ftc_5_held_figures_forfeit_in_reverse_order() -> None:
    """FTC 5: held figures that have not moved move or forfeit at the end, in reverse initiative order."""
    b = Battle(_hold_setup(11))
    order = list(b.order)
    drive(
        b,
        lambda b, d: act.Hold(d.figure or "") if d.reason == "move" else None,
        until=lambda b: (d := legal_actions(b)) is not None and d.reason == "held_end",
    )
    asked: list[str] = []
    events: list[ev.Event] = []
    while b.phase == "movement":
        d = legal_actions(b)
        assert d is not None and d.reason == "held_end" and d.kinds == ("move",)
        asked.append(d.figure or "")
        if len(asked) == 1:  # the last in initiative order uses its move, the others forfeit
            f = b.figures[d.figure or ""]
            events += b.apply(act.Move(f.id, ((neighbor(f.hex, f.facing), f.facing),)))
        else:
            events += b.apply(act.Move(d.figure or "", ()))
    assert asked == order[::-1]
    assert of(events, ev.Moved)[0].figure == order[-1]  # type: ignore[attr-defined]
    assert [e.figure for e in of(events, ev.Forfeited)] == order[-2::-1]  # type: ignore[attr-defined]
    assert b.phase == "attack"


def test_ftc_5_hold_cannot_be_split() -> None:
    """FTC 5 (docs/rulings.md "Holding"): a move is taken whole; a figure that moved cannot move or hold again."""
    b = Battle(_hold_setup(0))
    drive(b, until=until_moves("a"))
    b.apply(act.Move("a", ((neighbor(Hex(1, 1), 0), 0),)))
    with pytest.raises(IllegalAction):
        b.apply(act.Move("a", ((neighbor(Hex(1, 1), 0), 0),)))
    with pytest.raises(IllegalAction):
        b.apply(act.Hold("a"))


# ------------------------------------------------------------------------------------------ FTC 5: moving


def test_ftc_5_2_passing_an_occupied_hex_costs_one_more() -> None:
    """FTC 5.2: moving through a hex another figure occupies costs one extra hex; no move ends there."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a", "blue", "brigand", C, 0),
                ("f", "blue", "brigand", neighbor(C, 0), 0),
                ("z", "red", "brigand", Hex(1, 8), 3),
            ],
            seed=seed,
        )

    b = Battle(make(0))
    drive(b, until=until_moves("a"))
    through = ((neighbor(C, 0), 0), (neighbor(neighbor(C, 0), 0), 0))
    with pytest.raises(IllegalAction, match="occupies"):
        b.apply(act.Move("a", through[:1]))
    moved = b.apply(act.Move("a", through))[0]
    assert isinstance(moved, ev.Moved) and moved.cost == 3


def test_ftc_5_crawling_and_lying_down_change_the_allowance() -> None:
    """FTC 5 (docs/rulings.md "Movement allowance"): crawling is three steps slower (at most Mediocre), lying down five
    (at most Poor)."""

    def make(seed: int) -> BattleSetup:
        return axial([("a", "blue", "swift", C, 0), ("z", "red", "brigand", Hex(1, 8), 3)], seed=seed)

    b = Battle(make(0))
    drive(b, until=until_moves("a"))
    c = b.figures["a"].character
    crawl = movement_allowance(c.speed, posture="crawling", strength=c.strength, load_kg=c.carried_mass_kg())
    assert crawl < b.figures["a"].allowance
    too_far = tuple((Hex(C.q + i, C.r), 0) for i in range(1, crawl + 2))
    with pytest.raises(IllegalAction):
        b.apply(act.Move("a", too_far, posture="crawling"))
    moved = b.apply(act.Move("a", too_far[:crawl], posture="crawling"))[0]
    assert isinstance(moved, ev.Moved) and moved.allowance == crawl
    assert b.figures["a"].posture == "crawling"


# ------------------------------------------------------------------------------------------ FTC 5.2–5.3


def _zoc(mover: str, stopper: str, order: str = "always") -> Callable[[int], BattleSetup]:
    """A red mover in front of a blue stopper that faces it (east); the mover wants to go on east."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [("s", "blue", stopper, C, 0), ("m", "red", mover, neighbor(C, 0), 0)], seed=seed, orders={"s": order}
        )

    return make


AWAY = ((neighbor(neighbor(C, 0), 0), 0), (neighbor(neighbor(neighbor(C, 0), 0), 0), 0))


def _to_mover(b: Battle) -> None:
    drive(b, until=lambda b: (d := legal_actions(b)) is not None and d.figure == "m" and d.reason == "move")


def _escape_outcome(make: Callable[[int], BattleSetup], escaped: bool) -> Battle:
    """The zone-of-control battle with the escape rolls set by the GM: the mover rolls +4 and the stopper
    -4 when he is to escape, the other way round when he is to fail."""
    mover, stopper = (HIGH, LOW) if escaped else (LOW, HIGH)
    return with_dice(make(0), {("m", "escape"): [mover], ("s", "escape"): [stopper]})


def test_ftc_5_3_escape_won() -> None:
    """FTC 5.3: the stopper (standing order *always*) stops the mover; the mover beats him and goes on."""
    make = _zoc("swift", "peasant")
    b = _escape_outcome(make, True)
    _to_mover(b)
    events = b.apply(act.Move("m", AWAY))
    assert events[0] == ev.StopDecided("s", "m", True)
    contest = events[1]
    assert isinstance(contest, ev.EscapeContest) and contest.escaped
    assert contest.mover_level == 3 and contest.stopper_levels == (-1,)
    assert contest.at == neighbor(C, 0)
    assert b.figures["m"].hex == AWAY[-1][0]


def test_ftc_5_3_escape_lost_mover_stays() -> None:
    """FTC 5.3: losing, the mover may stay: his move ends where he was held."""
    make = _zoc("clumsy", "guard")
    b = _escape_outcome(make, False)
    _to_mover(b)
    events = b.apply(act.Move("m", AWAY))
    assert isinstance(events[-1], ev.EscapeContest) and not events[-1].escaped
    d = legal_actions(b)
    assert d is not None and (d.side, d.figure, d.reason) == ("red", "m", "escape_failed")
    draws = b.rng.draws
    events = b.apply(act.EscapeFailedChoice("m", False))
    assert events[0] == ev.EscapeFailed("m", False)
    assert b.figures["m"].hex == neighbor(C, 0) and b.rng.draws == draws


def test_ftc_5_3_turn_tail_and_run_gives_free_attacks() -> None:
    """FTC 5.3: turning tail, every stopper strikes at once; the runner defends at -2, strikes nothing."""
    make = _zoc("clumsy", "guard")
    b = _escape_outcome(make, False)
    _to_mover(b)
    b.apply(act.Move("m", AWAY))
    events = b.apply(act.EscapeFailedChoice("m", True))
    assert events[0] == ev.EscapeFailed("m", True)
    assert [e.figure for e in of(events, ev.CombatRoll)] == ["m", "s"]  # type: ignore[attr-defined]
    attacks = of(events, ev.AttackResolved)
    assert len(attacks) == 1
    free = attacks[0]
    assert isinstance(free, ev.AttackResolved) and free.free_attack
    assert (free.attacker, free.target) == ("s", "m")
    assert ("Turning tail and running", -2) in free.defence_mods
    if b.figures["m"].can_act:
        assert b.figures["m"].hex == AWAY[-1][0]


def test_ftc_5_2_standing_order_never_lets_pass() -> None:
    """docs/rulings.md "Standing orders": a figure ordered *never* to stop enemies lets them leave its zone without a
    contest."""
    b = Battle(_zoc("clumsy", "guard", "never")(0))
    _to_mover(b)
    draws = b.rng.draws
    events = b.apply(act.Move("m", AWAY))
    assert not of(events, ev.EscapeContest) and b.rng.draws == draws
    assert b.figures["m"].hex == AWAY[-1][0]


def test_ftc_5_2_standing_order_ask_asks_the_zones_owner() -> None:
    """docs/rulings.md "Standing orders": with *ask*, the zone's owner decides; letting pass rolls nothing, stopping
    rolls at once."""
    make = _zoc("clumsy", "guard", "ask")
    b = Battle(make(0))
    _to_mover(b)
    assert b.apply(act.Move("m", AWAY)) == []
    d = legal_actions(b)
    assert d is not None and (d.side, d.figure, d.reason, d.mover) == ("blue", "s", "stop", "m")
    with pytest.raises(IllegalAction):
        b.apply(act.StopChoice("m", True))
    events = b.apply(act.StopChoice("s", False))
    assert events[0] == ev.StopDecided("s", "m", False) and not of(events, ev.EscapeContest)
    assert b.figures["m"].hex == AWAY[-1][0]
    b2 = Battle(make(0))
    _to_mover(b2)
    b2.apply(act.Move("m", AWAY))
    events = b2.apply(act.StopChoice("s", True))
    assert events[0] == ev.StopDecided("s", "m", True) and isinstance(events[1], ev.EscapeContest)


def test_ftc_5_2_standing_order_can_be_changed_any_time() -> None:
    """docs/rulings.md "Standing orders": the standing order is a per-figure setting the owner may change at any
    decision."""
    b = Battle(_zoc("clumsy", "guard")(0))
    assert b.apply(act.SetStandingOrder("s", "ask")) == [ev.StandingOrderSet("s", "ask")]
    assert b.figures["s"].standing_order == "ask"


def test_ftc_5_2_an_order_that_is_neither_always_never_nor_ask_is_refused_naming_them() -> None:
    """docs/rulings.md "Standing orders" (and *Fudge* 4.64's Fudge Point order, read the same way): an order
    off the list is refused with the orders there are and the one written; the figure keeps its order."""
    b = Battle(_zoc("clumsy", "guard")(0))
    with pytest.raises(IllegalAction, match=r"^A standing order is one of always, never, ask, not 'sometimes'\.$"):
        b.apply(act.SetStandingOrder("s", "sometimes"))
    with pytest.raises(IllegalAction, match=r"^A Fudge Point order is one of always, ask, never, not 'maybe'\.$"):
        b.apply(act.SetFudgePointOrder("s", "maybe"))
    with pytest.raises(IllegalAction, match="There is no figure 'nobody'"):
        b.apply(act.SetStandingOrder("nobody", "sometimes"))
    assert (b.figures["s"].standing_order, b.figures["s"].fudge_order) == ("always", "always")


def test_ftc_5_3_two_stoppers_mover_minus_one_and_engaged_stopper_minus_one() -> None:
    """FTC 5.3: the mover is -1 per stopper beyond the first; a stopper in another enemy's zone is -1."""
    h = neighbor(C, 0)

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("s", "blue", "guard", C, 0),
                ("t", "blue", "guard", neighbor(h, 5), 1),
                ("m", "red", "swift", h, 0),
                ("e", "red", "brigand", neighbor(C, 3), 0),
            ],
            seed=seed,
        )

    b = Battle(make(0))
    _to_mover(b)
    far = ((neighbor(h, 1), 0), (neighbor(neighbor(h, 1), 1), 0))
    far = ((neighbor(h, 1), 0),)
    events = drive(
        b,
        lambda b, d: (
            act.Move("m", ((neighbor(h, 1), 0), (neighbor(neighbor(h, 1), 1), 0)))
            if d.figure == "m" and d.reason == "move"
            else None
        ),
        until=lambda b: any(isinstance(e, ev.EscapeContest) for e in b.events) or b.phase == "attack",
    )
    del far
    contest = next(e for e in b.events if isinstance(e, ev.EscapeContest))
    assert set(contest.stoppers) == {"s", "t"}
    assert sum(v for _, v in contest.mover_mods) == -1
    engaged = dict(zip(contest.stoppers, contest.stopper_mods, strict=True))
    assert sum(v for _, v in engaged["s"]) == -1  # s stands in e's zone (e faces it from behind)
    assert sum(v for _, v in engaged["t"]) == 0
    assert events


# ------------------------------------------------------------------------------------------ FTC 6.1–6.2


def _duel(
    a: str = "brigand", z: str = "brigand", seed: int = 0, options: RuleOptions | None = None, gap: int = 1
) -> BattleSetup:
    far = C
    for _ in range(gap):
        far = neighbor(far, 0)
    return axial([("a", "blue", a, C, 0), ("z", "red", z, far, 3)], seed=seed, options=options)


def test_ftc_6_1_declarations_in_reverse_initiative_order() -> None:
    """FTC 6.1: the lowest initiative declares first, so the better fighter sees what others do."""
    b = Battle(_three(2))
    order = list(b.order)
    drive(b, until=attack_phase)
    asked = []
    while b.phase == "attack" and b.round == 1:
        d = legal_actions(b)
        assert d is not None and d.reason == "declare"
        asked.append(d.figure)
        b.apply(act.Declare(d.figure or "", "neutral"))
    assert asked == order[::-1]


def test_fudge_4_32_secret_stances_hidden_until_all_declared() -> None:
    """Rule option *secret stances*: each declaration is hidden; all are revealed together, then rolled."""
    b = Battle(_duel(seed=1, options=RuleOptions(secret_stances=True)))
    drive(b, until=attack_phase)
    d = legal_actions(b)
    assert d is not None
    first = b.apply(act.Declare(d.figure or "", "very_aggressive", (("z" if d.figure == "a" else "a"),)))
    assert first == [
        ev.Declared(d.figure or "", "very_aggressive", ("z" if d.figure == "a" else "a",), (), "Hand Axe", hidden=True)
    ]
    d2 = legal_actions(b)
    assert d2 is not None
    events = b.apply(act.Declare(d2.figure or "", "mildly_defensive"))
    assert events[0] == ev.Declared(d2.figure or "", "mildly_defensive", (), (), "Hand Axe", hidden=True)
    assert isinstance(events[1], ev.Revealed)
    shown = [e for e in events[2:4] if isinstance(e, ev.Declared)]
    assert len(shown) == 2 and not any(e.hidden for e in shown)
    assert {e.stance for e in shown} == {"very_aggressive", "mildly_defensive"}
    assert isinstance(events[4], ev.CombatRoll)


def test_ftc_6_2_retreat_and_follow() -> None:
    """FTC 6.2: a mildly defensive figure steps back one hex away from its attacker; the attacker (neutral)
    may follow into the hex it left; the attack still lands on it (in reach along the movement)."""
    b = first_in_initiative(lambda s: _duel(seed=s), 0, "z")
    drive(b, until=attack_phase)
    b.apply(act.Declare("a", "neutral", ("z",)))
    d = legal_actions(b)
    assert d is not None and d.figure == "z"
    back = neighbor(neighbor(C, 0), 0)
    assert back in b.retreat_hexes("z")
    with pytest.raises(IllegalAction):
        b.apply(act.Declare("z", "mildly_defensive", retreat=C))
    events = b.apply(act.Declare("z", "mildly_defensive", retreat=back))
    assert events[1] == ev.Stepped("z", neighbor(C, 0), back, 3, "retreat")
    d = legal_actions(b)
    assert d is not None and (d.figure, d.reason, d.kinds) == ("a", "follow", ("follow_choice",))
    with pytest.raises(IllegalAction):
        b.apply(act.FollowChoice("a", neighbor(C, 1)))
    events = b.apply(act.FollowChoice("a", neighbor(C, 0)))
    assert events[0] == ev.Stepped("a", C, neighbor(C, 0), 0, "follow")
    attack = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert (attack.attacker, attack.target) == ("a", "z")
    assert ("Mildly Defensive stance", 1) in attack.defence_mods or any("efensive" in n for n, _ in attack.defence_mods)


def test_ftc_6_2_very_defensive_must_retreat() -> None:
    """FTC 6.2: a very defensive stance must retreat; without a free hex away it cannot be chosen."""
    b = first_in_initiative(lambda s: _duel(seed=s), 0, "z")
    drive(b, until=attack_phase)
    b.apply(act.Declare("a", "neutral", ("z",)))
    with pytest.raises(IllegalAction, match="must retreat"):
        b.apply(act.Declare("z", "very_defensive"))
    assert "very_defensive" in b.declare_options("z")["stances"]  # type: ignore[operator]


def test_ftc_6_2_advance_trades_attack_bonus_for_hexes() -> None:
    """FTC 6.2: a very aggressive attacker two hexes off advances one hex (facing it) and attacks at +1."""
    b = first_in_initiative(lambda s: _duel(seed=s, gap=2), 4, "a")
    drive(b, until=attack_phase)
    assert b.targets_for("a") == []
    d = legal_actions(b)
    assert d is not None and d.figure == "z"
    b.apply(act.Declare("z", "neutral"))
    with pytest.raises(IllegalAction):
        b.apply(act.Declare("a", "neutral", ("z",), advance=(neighbor(C, 0),)))
    with pytest.raises(IllegalAction):
        b.apply(act.Declare("a", "very_aggressive", ("z",), advance=(neighbor(C, 3),)))
    events = b.apply(act.Declare("a", "very_aggressive", ("z",), advance=(neighbor(C, 0),)))
    assert ev.Stepped("a", C, neighbor(C, 0), 0, "advance") in events
    attack = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert ("Very aggressive stance (1 hex advanced)", 1) in attack.offence_mods


def test_ftc_6_2_second_move_rolls_no_dice() -> None:
    """FTC 6.2: a figure that neither attacks nor defends moves again by movement rules and rolls nothing;
    an attack on it is unopposed."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a", "blue", "brigand", C, 0),
                ("z", "red", "brigand", neighbor(C, 0), 3),
                ("w", "red", "brigand", Hex(C.q, C.r + 4), 3),
            ],
            seed=seed,
        )

    b = first_in_initiative(make, 5, "w", last=True)
    drive(b, until=attack_phase)
    d = legal_actions(b)
    assert d is not None and d.figure == "w" and "second_move" in d.kinds
    draws = b.rng.draws
    events = b.apply(act.SecondMove("w", ((Hex(C.q, C.r + 5), 3),)))
    assert b.rng.draws == draws
    assert events[0] == ev.Declared("w", "neutral", (), (), "Hand Axe", second_move=True)
    assert isinstance(events[1], ev.Moved) and events[1].reason == "second move"
    events = drive(
        b, lambda b, d: act.Declare("z", "neutral", ("a",)) if d.figure == "z" else None, until=lambda b: b.round == 2
    )
    assert "w" not in [e.figure for e in of(events, ev.CombatRoll)]  # type: ignore[attr-defined]


def test_ftc_6_2_second_move_target_is_unopposed() -> None:
    """FTC 6.2: attacking a figure that makes a second move: it rolls no defence (defence None)."""

    def make(seed: int) -> BattleSetup:
        return axial([("a", "blue", "brigand", C, 0), ("z", "red", "brigand", neighbor(C, 0), 3)], seed=seed)

    b = first_in_initiative(make, 4, "a")
    drive(b, until=attack_phase)
    b.apply(act.SecondMove("z", ()))
    events = b.apply(act.Declare("a", "neutral", ("z",)))
    attack = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert attack.defence is None
    assert [e.figure for e in of(events, ev.CombatRoll)] == ["a"]  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------------ FTC 6.4


def test_ftc_6_4_1_multiple_attackers_must_beat_every_defence() -> None:
    """FTC 6.4.1 (docs/rulings.md "A hit"): to hit, beat the target's defence and that of every other melee attacker."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a", "blue", "brigand", C, 0),
                ("x", "red", "brigand", neighbor(C, 0), 3),
                ("y", "red", "brigand", neighbor(C, 1), 4),
            ],
            seed=seed,
        )

    b = Battle(make(4))
    drive(b, until=attack_phase)
    events = drive(
        b,
        lambda b, d: act.Declare(d.figure or "", "neutral", ("x",) if d.figure == "a" else ("a",)),
        until=lambda b: b.round == 2,
    )
    a_att = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert a_att.target == "x"
    assert [o for o, _ in a_att.other_defences] == ["y"]
    for e in events:
        if isinstance(e, ev.AttackResolved) and e.attacker in ("x", "y"):
            assert e.other_defences == ()


def test_ftc_6_4_1_shield_covers_as_many_attackers_as_table_9_2_says() -> None:
    """Table 9.2: a medium shield adds +2 against two attackers a round, not a third."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("k", "blue", "knight", C, 0),
                ("x", "red", "brigand", neighbor(C, 5), 2),
                ("y", "red", "brigand", neighbor(C, 0), 3),
                ("w", "red", "brigand", neighbor(C, 1), 4),
            ],
            seed=seed,
        )

    b = Battle(make(2))
    drive(b, until=attack_phase)
    events = drive(
        b,
        lambda b, d: act.Declare(d.figure or "", "neutral", ("y",) if d.figure == "k" else ("k",)),
        until=lambda b: b.round == 2 or b.over,
    )
    on_knight = [e for e in events if isinstance(e, ev.AttackResolved) and e.target == "k"]
    assert len(on_knight) == 3
    with_shield = [e for e in on_knight if ("Shield", 2) in e.defence_mods]
    assert len(with_shield) == 2


def test_ftc_6_4_simultaneous_kills() -> None:
    """FTC 6.4: all attacks are resolved and all damage applied before anyone leaves the fight: two fighters
    may take each other out in the same round (and then no side is left standing)."""

    def make(seed: int) -> BattleSetup:
        return axial([("a", "blue", "bruiser", C, 0), ("z", "red", "bruiser", neighbor(C, 0), 3)], seed=seed)

    # both roll 0 (set by the GM), and neither health roll softens the blow
    b = with_dice(
        make(0), {("a", "combat"): [ZERO], ("z", "combat"): [ZERO], ("a", "health"): [LOW], ("z", "health"): [LOW]}
    )
    drive(b, until=attack_phase)
    events = drive(
        b, lambda b, d: act.Declare(d.figure or "", "very_aggressive", ("z",) if d.figure == "a" else ("a",))
    )
    kinds = [e.kind for e in events]
    assert kinds.count("attack") == 2
    last_attack = max(i for i, k in enumerate(kinds) if k == "attack")
    first_wound = min(i for i, k in enumerate(kinds) if k == "wounded")
    first_out = min(i for i, k in enumerate(kinds) if k == "taken_out")
    assert last_attack < first_wound < first_out
    assert {e.figure for e in of(events, ev.TakenOut)} == {"a", "z"}  # type: ignore[attr-defined]
    assert b.over and b.winner is None
    assert events[-1] == ev.BattleEnded(None, "no side is left standing")


def test_ftc_6_4_very_hurt_counts_from_the_next_round() -> None:
    """FTC 6.4: a Very Hurt wound taken this round gives its -1 only from the next round; a later wound does
    not postpone a penalty that already applies."""
    f = Figure("a", "A", "blue", axial([("a", "blue", "brigand", C, 0)]).figures[0].character, C, 0)
    f.wounds, _ = Wounds().record(WoundLevel.VERY_HURT)
    f.very_hurt_from_round = 3
    assert f.very_hurt_penalty(3) == 0
    assert f.very_hurt_penalty(4) == -1

    def make(seed: int) -> BattleSetup:
        return axial([("a", "blue", "bruiser", C, 0), ("z", "red", "brigand", neighbor(C, 0), 3)], seed=seed)

    def fight(b: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare":
            return act.Declare(d.figure or "", "neutral", ("z",) if d.figure == "a" else ("a",))
        return None

    # round 1 (dice set by the GM): the bruiser's blow would leave the brigand Near Death, his Great health
    # roll makes it Very Hurt; round 2 both roll 0
    dice = {
        ("a", "combat"): [(0, 0, 1, 0), ZERO],
        ("z", "combat"): [(-1, -1, 0, 1), ZERO],
        ("z", "health"): [(1, 1, 1, 0), ZERO],
        ("a", "health"): [ZERO],
    }
    b = with_dice(make(0), dice)
    r1 = drive(b, fight, until=lambda b: b.round == 2)
    assert b.figures["z"].wounds.worst == WoundLevel.VERY_HURT
    z1 = next(e for e in r1 if isinstance(e, ev.AttackResolved) and e.attacker == "z")
    assert not any(n == "Very Hurt" for n, _ in z1.offence_mods)
    assert b.figures["z"].very_hurt_from_round == 1
    r2 = drive(b, fight, until=lambda b: b.round == 3 or b.over)
    z2 = next(e for e in r2 if isinstance(e, ev.AttackResolved) and e.attacker == "z")
    assert ("Very Hurt", -1) in z2.offence_mods
    a2 = next(e for e in r2 if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert ("Very Hurt", -1) in a2.defence_mods


# ------------------------------------------------------------------------------------------ FTC 6.5.3


def _shot(seed: int, bystander_side: str = "red") -> BattleSetup:
    target = Hex(C.q + 4, C.r)
    return axial(
        [
            ("a", "blue", "archer", C, 0),
            ("t", "red", "brigand", target, 3),
            ("by", bystander_side, "brigand", Hex(C.q + 2, C.r), 3 if bystander_side == "red" else 0),
        ],
        seed=seed,
    )


def _fire(b: Battle, d: Decision) -> act.Action | None:
    if d.reason == "declare":
        return (
            act.Declare("a", "neutral", ("t",), "Shortbow")
            if d.figure == "a"
            else act.Declare(d.figure or "", "neutral")
        )
    return None


@pytest.mark.parametrize("side", ["red", "blue"])
def test_ftc_6_5_3_miss_hits_bystander(side: str) -> None:
    """FTC 6.5.3: a missed shot may hit a figure on the line of fire (an enemy on a high roll, a friend on a
    low one); the stray shot lands on that bystander."""

    # the GM sets the archer's rolls: -4 to miss, then the situational roll: +4 (an enemy) or -4 (a friend)
    b = with_dice(_shot(0, side), {("a", "combat"): [LOW], ("a", "situational"): [HIGH if side == "red" else LOW]})
    events = drive(b, _fire, until=lambda b: b.round == 2 or b.over)
    shot = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a" and not e.stray)
    assert not shot.hit and shot.target == "t"
    stray = next(e for e in events if isinstance(e, ev.StrayShot))
    assert isinstance(stray, ev.StrayShot)
    if side == "red":
        assert stray.enemies == ("by",) and stray.friends == () and sum(stray.faces) >= 3
    else:
        assert stray.friends == ("by",) and stray.enemies == () and sum(stray.faces) <= -3
    i = events.index(stray)
    follow = events[i + 1]
    assert isinstance(follow, ev.AttackResolved) and follow.stray and follow.target == "by" and follow.hit


def test_ftc_5_standing_nobody_acts_once_incapacitated() -> None:
    """FTC 7.3: an Incapacitated figure is out: it is never asked to move or declare again."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a", "blue", "bruiser", C, 0),
                ("z", "red", "peasant", neighbor(C, 0), 3),
                ("w", "red", "peasant", Hex(C.q, C.r + 4), 3),
            ],
            seed=seed,
        )

    def fight(b: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "a" and "z" in b.targets_for("a"):
            return act.Declare("a", "very_aggressive", ("z",))
        return None

    # the GM sets the dice: the bruiser rolls +4, the peasant -4 (and -4 for health)
    b = with_dice(make(0), {("a", "combat"): [HIGH], ("z", "combat"): [LOW], ("z", "health"): [LOW]})
    drive(b, fight, until=lambda b: b.round == 2)
    assert b.figures["z"].out and "z" not in b.order
    asked = []
    while b.round == 2 and not b.over:
        d = legal_actions(b)
        assert d is not None
        asked.append(d.figure)
        b.apply(do_little(d))
    assert "z" not in asked
    with pytest.raises(IllegalAction):
        b.apply(act.Move("z", ()))


def test_yield_ends_the_battle() -> None:
    """A side may yield at any decision; the other side wins."""
    b = Battle(_duel(seed=0))
    events = b.apply(act.Yield("blue"))
    assert events == [ev.BattleEnded("red", "Blue yields")]
    assert b.over and b.winner == "red"


def test_ftc_6_2_facing_after_follow_faces_the_step() -> None:
    """FTC 6.2: a follow step turns the follower to face the way it stepped."""
    assert direction_to(C, neighbor(C, 0)) == 0 and distance(C, neighbor(C, 0)) == 1


def test_ftc_5_2_held_in_an_occupied_hex_ends_in_the_last_free_one() -> None:
    """FTC 5.2: no figure ends its move in an occupied hex — a mover held while passing through a friend
    stops in the last free hex it passed."""
    start, through = neighbor(C, 5), neighbor(C, 0)

    def make(seed: int) -> BattleSetup:
        return axial(
            [("s", "blue", "guard", C, 0), ("m", "red", "clumsy", start, 0), ("f", "red", "peasant", through, 0)],
            seed=seed,
        )

    path = ((through, 0), (neighbor(through, 0), 0))

    b = with_dice(make(0), {("m", "escape"): [LOW], ("s", "escape"): [HIGH]})  # the mover loses the contest
    _to_mover(b)
    contest = b.apply(act.Move("m", path))[-1]
    assert isinstance(contest, ev.EscapeContest) and contest.at == through
    events = b.apply(act.EscapeFailedChoice("m", False))
    assert b.figures["m"].hex == start
    moved = next(e for e in events if isinstance(e, ev.Moved))
    assert moved.path == (start,)


def test_ftc_6_2_only_one_attacker_can_follow_into_the_vacated_hex() -> None:
    """FTC 6.2: two attackers may follow a retreating target; once one steps into the hex it left, the
    other is not offered it."""
    z = neighbor(C, 0)

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a1", "blue", "brigand", C, 0),
                ("a2", "blue", "brigand", neighbor(z, 1), 4),
                ("z", "red", "brigand", z, 3),
            ],
            seed=seed,
        )

    b = first_in_initiative(make, 1, "z")
    drive(b, until=attack_phase)
    b.apply(act.Declare(legal_actions(b).figure or "", "neutral", ("z",)))  # type: ignore[union-attr]
    b.apply(act.Declare(legal_actions(b).figure or "", "neutral", ("z",)))  # type: ignore[union-attr]
    back = neighbor(z, 5)
    assert back in b.retreat_hexes("z")
    b.apply(act.Declare("z", "mildly_defensive", retreat=back))
    d = legal_actions(b)
    assert d is not None and d.reason == "follow"
    events = b.apply(act.FollowChoice(d.figure or "", z))
    assert events[0] == ev.Stepped(
        d.figure or "", b.figures[d.figure or ""].positions[0][0], z, b.figures[d.figure or ""].facing, "follow"
    )
    assert b.phase != "attack" or legal_actions(b) is None or legal_actions(b).reason != "follow"  # type: ignore[union-attr]
    assert any(isinstance(e, ev.AttackResolved) for e in events)


# --- FTC 9.1 / 9.2 notes with an effect in play (our readings, ``docs/rules.md``) ---


def test_ftc_9_1_needs_room_to_swing_penalises_a_crowded_battle_axe() -> None:
    from game.engine.combat import room_to_swing_modifier

    assert room_to_swing_modifier(0) == ()
    assert room_to_swing_modifier(1) == ()
    (mod,) = room_to_swing_modifier(2)
    assert (mod.name, mod.value) == ("no room to swing", -1)


def test_ftc_9_2_greathelm_obscures_vision_lowers_perception() -> None:
    from game.engine.battle import effective_perception
    from game.engine.characters import Character

    bare = Character.from_dict({"name": "A", "perception": "Good"})
    helmed = Character.from_dict({"name": "B", "perception": "Good", "armour": ["Greathelm"]})
    assert effective_perception(bare) == 1
    assert effective_perception(helmed) == 0


def test_ftc_6_4_melee_difficulty_compares_size_not_strength() -> None:
    """FTC 6.4: +1 per step of Scale the attacker is larger — size (Mass Scale), not Strength Scale."""
    from game.engine.battle import Battle, BattleSetup, FigureSetup, SideSetup
    from game.engine.characters import Character
    from game.engine.terrain import TerrainMap

    t = TerrainMap.open(6, 6)
    strong = Character.from_dict(
        {"name": "Ogre-strong", "strength_scale": 3, "skills": {"Axe": "Good"}, "weapons": ["Hand Axe"]}
    )
    small = Character.from_dict({"name": "Man", "skills": {"Sword": "Fair"}, "weapons": ["Shortsword"]})
    a, b = t.hex_at(2, 2), t.hex_at(3, 2)
    from game.engine.hexgrid import direction_to

    setup = BattleSetup(
        t,
        (SideSetup("x", "X"), SideSetup("y", "Y")),
        (
            FigureSetup("a", "A", "x", strong, a, direction_to(a, b) or 0),
            FigureSetup("b", "B", "y", small, b, direction_to(b, a) or 0),
        ),
        seed=1,
    )
    battle = Battle(setup)
    from game.engine.actions import Declare, Move

    while battle.phase == "movement":
        d = battle.decision()
        assert d is not None
        battle.apply(Move(d.figure or d.interrupters[0]))
    while battle.phase == "attack" and battle.round == 1:
        d = battle.decision()
        assert d is not None and d.figure is not None
        battle.apply(Declare(d.figure, "neutral", ("b",) if d.figure == "a" else ("a",)))
    attacks = [e for e in battle.events if e.kind == "attack" and e.attacker == "a"]  # type: ignore[attr-defined]
    assert attacks and attacks[0].difficulty == -2  # type: ignore[attr-defined]  # Poor: same Mass Scale


def test_fudge_4_32_secret_stances_hold_back_advance_and_retreat_steps_until_the_reveal() -> None:
    """Under secret stances an advance or retreat would show the stance, so steps wait for the reveal."""
    from game.engine.actions import Declare, Move
    from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions, SideSetup
    from game.engine.characters import Character
    from game.engine.hexgrid import direction_to, front_hexes
    from game.engine.terrain import TerrainMap

    t = TerrainMap.open(9, 7)
    fighter = Character.from_dict({"name": "F", "skills": {"Sword": "Good"}, "weapons": ["Broadsword"]})
    a, b = t.hex_at(3, 3), t.hex_at(5, 3)
    fa = direction_to(a, t.hex_at(4, 3)) or 0
    fb = direction_to(b, t.hex_at(4, 3)) or 0
    setup = BattleSetup(
        t,
        (SideSetup("x", "X"), SideSetup("y", "Y")),
        (FigureSetup("a", "A", "x", fighter, a, fa), FigureSetup("b", "B", "y", fighter, b, fb)),
        RuleOptions(secret_stances=True),
        seed=4,
    )
    battle = Battle(setup)
    while battle.phase == "movement":
        d = battle.decision()
        assert d is not None
        battle.apply(Move(d.figure or d.interrupters[0]))
    first = battle.decision()
    assert first is not None and first.figure is not None
    mover = battle.figures[first.figure]
    other = "b" if mover.id == "a" else "a"
    step = front_hexes(mover.hex, mover.facing)[1]  # the hex between the two figures
    events = battle.apply(Declare(mover.id, "mildly_aggressive", (other,), advance=(step,)))
    assert not any(e.kind == "stepped" for e in events), "the advance must not show before the reveal"
    assert battle.figures[mover.id].hex != step
    declared = [e for e in events if e.kind == "declared"]
    assert declared and all(e.hidden for e in declared)  # type: ignore[attr-defined]
    second = battle.decision()
    assert second is not None and second.figure == other
    # B cannot know of A's advance, so A is not yet in its reach: it declares a defence only
    events = battle.apply(Declare(other, "neutral"))
    kinds = [e.kind for e in events]
    assert "revealed" in kinds and "stepped" in kinds
    assert kinds.index("revealed") < kinds.index("stepped")
