"""What the deciding seat may choose, typed (FTC 5, 6.1, 6.2, 6.6, 8.3): ``choices`` beside ``legal_actions``,
reasons as codes, the odds of ``preview``, and the public doors the screen and the computer players use.

Battles are the open-field duels of ``tests/golden/scenarios.py`` with fixed seeds; each test asserts the
initiative order it relies on, so a change of the dice shows here as that assertion, not as a riddle.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.ai import TacticalPlayer
from game.engine.battle import Battle, IllegalAction, Reason, legal_actions
from game.engine.choices import AIMS, choices, declare_choices
from game.engine.hexgrid import neighbor
from game.engine.preview import AttackPreview, MovePreview, SpellPreview, escape_chance, preview
from game.engine.seats import Seat
from game.session import new_session
from game.simulate import play_out
from tests.engine.test_battle_rules import AWAY, C, _duel, _hold_setup, _to_mover, _zoc, attack_phase, drive
from tests.golden.scenarios import axial

ROOT = Path(__file__).resolve().parents[2]


def _attack_phase_duel(gap: int) -> Battle:
    b = Battle(_duel(seed=0, gap=gap))
    assert b.order == ["z", "a"]  # so "a" declares first (FTC 6.1: reverse initiative order)
    drive(b, until=attack_phase)
    return b


def test_reason_is_a_code_equal_to_its_old_string_with_its_rule() -> None:
    b = Battle(_duel(seed=0))
    d = legal_actions(b)
    assert d is not None
    assert d.reason is Reason.MOVE and d.reason == "move"
    assert "FTC 5" in d.reason.rule
    assert d.sentence == d.prompt and d.figure is not None and b.figure(d.figure).name in d.sentence
    assert {r.value for r in Reason} == {
        "move",
        "held_end",
        "interrupt",
        "stop",
        "escape_failed",
        "declare",
        "follow",
        "fudge_point",
    }


def test_ftc_6_2_choices_offer_the_advance_that_brings_the_enemy_into_reach() -> None:
    """Two hexes apart nobody is in reach; a very aggressive stance may advance one hex (the middle one) or
    two, a mildly aggressive one only one, a neutral one not at all — and the advance offered is accepted."""
    b = _attack_phase_duel(gap=2)
    c = choices(b)
    assert c is not None and c.decision.reason is Reason.DECLARE and c.declare is not None
    dc = c.declare
    assert dc.figure == "a" and dc.weapons == {"Hand Axe": ()}
    very, mild, neutral = dc.stance("very_aggressive"), dc.stance("mildly_aggressive"), dc.stance("neutral")
    assert very is not None and mild is not None and neutral is not None
    mid = neighbor(C, 0)
    assert [(a.steps, a.targets) for a in mild.advances] == [((mid,), {"Hand Axe": ("z",)})]
    assert any(len(a.steps) == 2 for a in very.advances) and all(len(a.steps) <= 2 for a in very.advances)
    assert neutral.advances == () and neutral.retreats == ()
    assert dc.aims == {"z": AIMS}
    step = mild.advances[0]
    events = b.apply(act.Declare("a", "mildly_aggressive", ("z",), advance=step.steps))
    assert ev.Stepped("a", C, mid, 0, "advance") in events


def test_ftc_6_2_every_advance_offered_is_accepted_by_apply() -> None:
    """The choices are the rules, not a guess: each advance of the very aggressive stance declares cleanly."""
    b = _attack_phase_duel(gap=2)
    dc = declare_choices(b, "a")
    very = dc.stance("very_aggressive")
    assert very is not None and len(very.advances) >= 3
    for adv in very.advances:
        trial = Battle(_duel(seed=0, gap=2))
        drive(trial, until=attack_phase)
        trial.apply(
            act.Declare(
                "a", "very_aggressive", adv.targets["Hand Axe"][:1], advance=adv.steps, advance_facing=adv.facing
            ),
        )
        assert trial.figure("a").positions[-1] == adv.positions[-1] or trial.phase != "attack"


def test_ftc_6_2_retreat_hexes_come_with_the_stances_that_may_retreat() -> None:
    b = _attack_phase_duel(gap=1)
    dc = declare_choices(b, "a")
    retreats = tuple(b.retreat_hexes("a"))
    assert retreats, "an open field leaves room to step back"
    by_stance = {s.stance: (s.retreat, s.retreats) for s in dc.stances}
    assert by_stance["mildly_defensive"] == ("may", retreats)
    assert by_stance["very_defensive"] == ("must", retreats)
    assert by_stance["neutral"] == ("none", ())
    assert dc.weapons == {"Hand Axe": ("z",)}


def test_ftc_6_2_the_follow_decision_carries_the_hex_the_target_left() -> None:
    b = _attack_phase_duel(gap=1)
    b.apply(act.Declare("a", "neutral", ("z",)))
    back = neighbor(neighbor(C, 0), 0)
    b.apply(act.Declare("z", "mildly_defensive", retreat=back))
    c = choices(b)
    assert c is not None and c.decision.reason is Reason.FOLLOW
    assert c.follow == c.decision.follow_hex == neighbor(C, 0)
    assert choices(b, seat="red") is None  # not red's decision
    assert choices(b, seat=Seat.of_side("red")) is None and choices(b, seat=Seat.game_master()) is None
    assert choices(b, seat=Seat.of_side("blue")) == c
    events = b.apply(act.FollowChoice("a", c.follow))
    assert events[0] == ev.Stepped("a", C, neighbor(C, 0), 0, "follow")


def test_choices_for_a_move_give_the_movers_reach() -> None:
    b = Battle(_duel(seed=0, gap=3))
    c = choices(b)
    assert c is not None and c.decision.reason is Reason.MOVE and c.reach is not None
    fid = c.decision.figure or ""
    assert set(c.reach.hexes()) == set(b.reach_for(fid).hexes())
    assert c.declare is None


def test_preview_gives_the_odds_of_a_declaration_from_the_battles_own_defence() -> None:
    b = _attack_phase_duel(gap=1)
    p = preview(b, act.Declare("a", "neutral", ("z",)))
    assert isinstance(p, AttackPreview) and (p.attacker, p.target) == ("a", "z")
    level, mods = b.melee_defence("z", "a", b.figure("a").character.ready_weapon, "neutral")
    assert p.defence == level and p.defence_mods == mods
    assert 0 < p.hit < 1
    assert preview(b, act.Declare("a", "neutral")) is None  # a defence alone rolls nothing to show
    assert preview(b, act.Move("a", ())) is None  # staying put risks nothing


def test_ftc_5_3_preview_of_a_move_out_of_a_zone_is_the_escape_chance() -> None:
    """Leaving the guard's zone takes an escape contest (FTC 5.3); a move inside open ground takes none."""
    b = Battle(_zoc("clumsy", "guard")(0))
    _to_mover(b)
    away = preview(b, act.Move("m", AWAY))
    assert isinstance(away, MovePreview) and away.end == AWAY[-1][0]
    assert 0 < away.escape < 1
    assert away.escape == escape_chance(b, "m", b.reach_for("m"), AWAY[-1][0])


def test_preview_of_a_casting_is_a_spell_preview() -> None:
    setup = axial([("w", "blue", "wizard", C, 0), ("z", "red", "brigand", neighbor(neighbor(C, 0), 0), 3)], seed=0)
    b = Battle(setup)
    drive(b, until=attack_phase)
    dc = declare_choices(b, "w")
    assert "z" in dc.spells["Fire Bolt"]
    p = preview(b, act.Declare("w", "neutral", spell="Fire Bolt", spell_target="z"))
    assert isinstance(p, SpellPreview) and (p.caster, p.spell, p.target) == ("w", "Fire Bolt", "z")


def test_spell_reaches_hex_answers_as_the_declaration_does() -> None:
    setup = axial([("w", "blue", "wizard", C, 0), ("z", "red", "brigand", neighbor(neighbor(C, 0), 0), 3)], seed=0)
    b = Battle(setup)
    drive(b, until=attack_phase)
    assert b.spell_reaches_hex("w", "Fire Bolt", b.figure("z").hex)
    with pytest.raises(IllegalAction):
        b.advance_positions("w", (neighbor(C, 3),))  # behind it: not one of the three hexes in front


def test_ftc_6_2_tactical_player_advances_when_nobody_is_in_reach() -> None:
    """Two hexes apart, the tactical player closes in: the one-hex advance of a mildly aggressive stance
    (the least aggressive that allows it) onto its enemy, which ``apply`` accepts."""
    b = _attack_phase_duel(gap=2)
    d = legal_actions(b)
    assert d is not None and d.figure == "a"
    choice = TacticalPlayer(0)(b, d)
    assert choice == act.Declare("a", "mildly_aggressive", ("z",), "Hand Axe", advance=(neighbor(C, 0),))
    assert ev.Stepped("a", C, neighbor(C, 0), 0, "advance") in b.apply(choice)


def test_tactical_players_advance_in_a_battle_on_a_shipped_map() -> None:
    """``simulate``'s computer players use the advance: three rounds on the open field see some."""
    session = new_session(ROOT / "maps" / "open_field.tmx", seed=1, autosave=False)
    players = {sid: TacticalPlayer(1 + i) for i, sid in enumerate(session.battle.sides)}
    play_out(session.battle, players, max_rounds=3)
    steps = [e for e in session.battle.events if isinstance(e, ev.Stepped) and e.reason == "advance"]
    assert steps, "no figure advanced"


def test_ftc_5_3_failed_escape_names_the_mover_and_the_stoppers_who_won() -> None:
    """The GM sets the escape dice (the mover rolls -4, the stopper +4): the escape fails, and while the
    mover decides whether to run, ``failed_escape`` names it and who gets a free attack if it does."""
    b = Battle(replace(_zoc("clumsy", "guard")(0), gm="referee"))
    _to_mover(b)
    assert b.failed_escape() is None
    b.apply(gm.SetDie("m", "escape", (-1, -1, -1, -1)))
    b.apply(gm.SetDie("s", "escape", (1, 1, 1, 1)))
    events = b.apply(act.Move("m", AWAY))
    assert isinstance(events[-1], ev.EscapeContest) and not events[-1].escaped
    d = legal_actions(b)
    assert d is not None and d.reason is Reason.ESCAPE_FAILED
    assert b.failed_escape() == ("m", ("s",))
    b.apply(act.EscapeFailedChoice("m", False))
    assert b.failed_escape() is None


def test_ftc_5_an_interrupt_offers_the_held_figure_with_its_reach() -> None:
    """FTC 5: blue's held figure may interrupt before the next red moves; the choices carry where it can go."""
    b = Battle(_hold_setup(1))
    assert b.order == ["z", "a", "y"]
    b.apply(act.Move("z", ()))
    b.apply(act.Hold("a"))
    c = choices(b)
    assert c is not None and c.decision.reason is Reason.INTERRUPT and c.decision.side == "blue"
    assert set(c.interrupters) == {"a"} and c.reach is None
    assert set(c.interrupters["a"].hexes()) == set(b.reach_for("a").hexes()) != set()
