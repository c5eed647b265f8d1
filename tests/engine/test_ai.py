"""Computer players: any side human or computer; they choose only among legal actions, never
touch the battle's dice, and the tactical player decides within its time limit (FTC 5–7 via odds)."""

from __future__ import annotations

import time

import pytest

from game.engine import actions as act
from game.engine.ai import RandomPlayer, TacticalPlayer
from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions, legal_actions
from game.engine.hexgrid import Hex
from game.engine.players import make_player
from game.engine.terrain import TerrainMap
from tests.engine.test_preview_truth import to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, start
from tests.golden.scenarios import CENTRE, SIDES, axial, character, east, skirmish


def _play(b: Battle, players: dict[str, object], rounds: int = 30) -> Battle:
    while not b.over and b.round <= rounds:
        d = legal_actions(b)
        assert d is not None
        rng = b.rng.getstate()
        n = len(b.events)
        a = players[d.side](b, d)  # type: ignore[operator]
        # a computer player only looks: the battle's dice and log are untouched by its thinking
        assert b.rng.getstate() == rng and len(b.events) == n
        b.apply(a)
    return b


@pytest.mark.parametrize("kind", ["random", "tactical"])
def test_computer_players_only_choose_legal_actions(kind: str) -> None:
    """Every action a computer player picks is accepted by ``apply`` (one source of legality)."""
    for seed in range(8):
        options = RuleOptions(secret_stances=seed % 2 == 1, mook_group_initiative=seed % 3 == 0)
        b = Battle(skirmish(seed, options, orders={"r0": "ask", "b2": "ask"}))
        _play(b, {"blue": make_player(kind, seed), "red": make_player("random", seed + 100)}, rounds=15)
        assert b.round > 1 or b.over


def test_make_player_names() -> None:
    """ "random" and "tactical" are the computer players; anything else is a clear error."""
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("tactical"), TacticalPlayer)
    with pytest.raises(ValueError, match="choose one of random, novice, tactical, veteran"):
        make_player("genius")


def test_same_seed_same_choices() -> None:
    """A computer player draws only from its own seeded generator: the same seed plays the same battle."""
    logs = []
    for _ in range(2):
        b = _play(Battle(skirmish(12)), {"blue": TacticalPlayer(3), "red": RandomPlayer(4)}, rounds=6)
        logs.append(b.log)
    assert logs[0] == logs[1]


def test_tactical_player_picks_the_target_it_hurts_most() -> None:
    """Expected wound dealt (exact odds): with a Superb guard and a Mediocre peasant in reach, hit the peasant."""

    def make(seed: int) -> BattleSetup:
        return axial(
            [
                ("a", "blue", "knight", CENTRE, 0),
                ("g", "red", "guard", east(CENTRE), 3),
                ("p", "red", "peasant", Hex(CENTRE.q + 1, CENTRE.r - 1), 4),
            ],
            seed=seed,
        )

    b = Battle(make(0))
    while b.phase != "attack":
        d = legal_actions(b)
        assert d is not None
        b.apply(act.Move(d.figure or "", ()) if d.reason in ("move", "held_end") else act.PassInterrupt(d.side))
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.figure == "a":
            break
        b.apply(act.Declare(d.figure or "", "neutral"))
    assert set(b.targets_for("a")) == {"g", "p"}
    choice = TacticalPlayer(0)(b, d)
    assert isinstance(choice, act.Declare) and choice.targets == ("p",)


def test_tactical_player_stops_enemies_and_runs_only_when_unhurt() -> None:
    """FTC 5.2–5.3: the tactical player always stops a mover it is asked about; after a lost escape it turns
    tail only while unwounded (the free attacks come at -2)."""
    b = Battle(
        axial([("s", "blue", "guard", CENTRE, 0), ("m", "red", "clumsy", east(CENTRE), 0)], seed=0, orders={"s": "ask"})
    )
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.figure == "m" and d.reason == "move":
            break
        b.apply(act.Move(d.figure or "", ()))
    b.apply(act.Move("m", ((east(CENTRE, 2), 0),)))
    d = legal_actions(b)
    assert d is not None and d.reason == "stop"
    assert TacticalPlayer(0)(b, d) == act.StopChoice("s", True)


def _big(seed: int) -> BattleSetup:
    t = TerrainMap.open(20, 14)
    figs = []
    for i in range(10):
        figs.append(
            FigureSetup(
                f"b{i}", f"Blue{i}", "blue", character("knight" if i % 2 else "archer"), t.hex_at(2 + i % 2, 2 + i), 0
            )
        )
        figs.append(
            FigureSetup(
                f"r{i}", f"Red{i}", "red", character("brigand" if i % 3 else "spearman"), t.hex_at(16 + i % 2, 2 + i), 3
            )
        )
    return BattleSetup(t, SIDES, tuple(figs), RuleOptions(), seed)


@pytest.mark.slow
def test_tactical_player_decides_within_a_second_for_ten_a_side() -> None:
    """About one second at most per decision on this machine for ten figures a side."""
    b = Battle(_big(1))
    players = {"blue": TacticalPlayer(1), "red": TacticalPlayer(2)}
    worst = 0.0
    while not b.over and b.round <= 3:
        d = legal_actions(b)
        assert d is not None
        t0 = time.process_time()
        a = players[d.side](b, d)
        worst = max(worst, time.process_time() - t0)
        b.apply(a)
    assert worst < 1.0, f"slowest decision took {worst:.2f} s"


@pytest.mark.slow
def test_tactical_player_beats_random_player() -> None:
    """The tactical player wins clearly more battles than it loses against random play (sides swapped too)."""
    wins = losses = 0
    for seed in range(12):
        tactical_side = "blue" if seed % 2 == 0 else "red"
        other = "red" if tactical_side == "blue" else "blue"
        b = _play(Battle(skirmish(seed)), {tactical_side: TacticalPlayer(seed), other: RandomPlayer(seed)})
        if b.winner == tactical_side:
            wins += 1
        elif b.winner == other:
            losses += 1
    assert wins > losses


def hidden_attack_battle(secret: bool, on: str) -> Battle:
    """v and his friend w (blue) beside the red brigand z, who is about to attack ``on`` all out (the two
    players' *Fudge* 4.32 tests: under secret stances the attack stays hidden until the reveal)."""
    setup = axial(
        [
            ("v", "blue", "brigand", CENTRE, 0),
            ("z", "red", "brigand", east(CENTRE), 3),
            ("w", "blue", "brigand", Hex(CENTRE.q, CENTRE.r + 1), 0),
        ],
        options=RuleOptions(secret_stances=secret),
    )
    return start(setup, v=UP, w=EVEN, z=DOWN)


def hidden_attack(on: str) -> dict[str, act.Declare]:
    """The declarations before v's: z attacks ``on`` all out, w stands neutral."""
    return {"z": act.Declare("z", "very_aggressive", (on,)), "w": act.Declare("w", "neutral")}


def test_fudge_4_32_under_secret_stances_the_tactical_player_reads_no_hidden_declaration() -> None:
    """*Fudge* 4.32: the red brigand's attack stays hidden until the reveal. Whether it is aimed at v or at v's
    friend w, the tactical player deciding for v counts the brigand in reach as a threat and takes the same
    stance; with the stances open, the attack on w is seen, and v, attacked by nobody, attacks all out."""
    chosen: dict[tuple[bool, str], act.Action] = {}
    for secret in (True, False):
        for on in ("v", "w"):
            b = hidden_attack_battle(secret, on)
            to_declaration(b, "v", hidden_attack(on))
            d = legal_actions(b)
            assert d is not None and d.reason == "declare"
            chosen[secret, on] = TacticalPlayer(0)(b, d)
    assert chosen[True, "v"] == chosen[True, "w"] == chosen[False, "v"]
    assert isinstance(chosen[True, "w"], act.Declare) and chosen[True, "w"].stance == "mildly_aggressive"
    assert isinstance(chosen[False, "w"], act.Declare) and chosen[False, "w"].stance == "very_aggressive"
