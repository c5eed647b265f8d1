"""What one seat may see that another may not, now (``seats.sees_more``): the question a hotseat hand-off
asks before it shows the next seat's view (*Fudge* 4.32's secret declarations until the reveal, *Fudge* 4.1's
GM's hand)."""

from __future__ import annotations

from dataclasses import replace

from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, RuleOptions, legal_actions
from game.engine.players import make_player
from game.engine.seats import Seat, apply_as, sees_more
from tests.golden.scenarios import skirmish

BLUE, RED = Seat.of_side("blue"), Seat.of_side("red")
GM_SEAT, WATCHER = Seat.game_master(), Seat.watcher()


def battle(secret: bool, gm_of: str | None = None) -> Battle:
    """The three-against-three skirmish, with or without secret stances and a GM."""
    return Battle(replace(skirmish(3, RuleOptions(secret_stances=secret)), gm=gm_of))


def play_until(b: Battle, done: object) -> None:
    """Random players from their own seats until ``done(b)`` holds."""
    players = {"blue": make_player("random", 1), "red": make_player("random", 2)}
    for _ in range(400):
        if done(b):  # type: ignore[operator]
            return
        d = legal_actions(b)
        assert d is not None
        apply_as(b, players[d.side](b, d), Seat.of_side(d.side))
    raise AssertionError("the battle never came there")


def hidden_since_reveal(b: Battle) -> list[ev.Declared]:
    since = max((i for i, e in enumerate(b.events) if isinstance(e, ev.Revealed)), default=-1)
    return [e for e in b.events[since + 1 :] if isinstance(e, ev.Declared) and e.hidden]


def test_open_stances_and_no_gm_no_seat_sees_more_than_another() -> None:
    b = battle(secret=False)
    play_until(b, lambda b: b.phase == "attack" and len([e for e in b.events if isinstance(e, ev.Declared)]) >= 2)
    for seat in (BLUE, RED, WATCHER):
        for other in (BLUE, RED, WATCHER):
            assert not sees_more(b, seat, other)


def test_fudge_4_32_a_secret_declaration_is_more_for_its_side_until_the_reveal() -> None:
    b = battle(secret=True)
    play_until(b, lambda b: any(b.figures[e.figure].side == "blue" for e in hidden_since_reveal(b)))
    assert sees_more(b, BLUE, RED) and sees_more(b, BLUE, WATCHER)
    if not any(b.figures[e.figure].side == "red" for e in hidden_since_reveal(b)):
        assert not sees_more(b, RED, BLUE)
    assert not sees_more(b, BLUE, BLUE)
    # after the reveal every declaration is in the open: nobody sees more (the redacted old lines say nothing)
    play_until(b, lambda b: b.phase == "movement" and b.round == 2)
    assert any(isinstance(e, ev.Declared) and e.hidden for e in b.events)
    assert not sees_more(b, BLUE, RED) and not sees_more(b, RED, BLUE)


def test_fudge_4_1_the_gms_hand_is_more_only_once_a_die_is_set_by_hand() -> None:
    b = battle(secret=False, gm_of="blue")
    assert not sees_more(b, BLUE, RED), "a GM with nothing in hand has nothing to hide"
    fid = next(f.id for f in b.figures.values() if f.side == "red")
    apply_as(b, gm.SetDie(fid, "combat", (1, 1, 0, 0)), BLUE)
    assert sees_more(b, BLUE, RED)
    assert not sees_more(b, RED, BLUE), "the GM sees everything a player does"
    referee = battle(secret=False, gm_of="referee")
    apply_as(referee, gm.SetDie(fid, "combat", (1, 1, 0, 0)), GM_SEAT)
    assert sees_more(referee, GM_SEAT, BLUE) and not sees_more(referee, BLUE, GM_SEAT)
