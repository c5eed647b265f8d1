"""The computer players under the rule options of the blow and the roll (*Fudge* 4.33, 4.34, 4.36, 4.62;
docs/computer-players.md "Rule options"): every level plays a battle with each option on, a stunned figure of
theirs declares what it may, and the veteran goes for stun, sweeps and ignores an attacker where the odds say it
pays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.ai_options import refine
from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions
from game.engine.choices import declare_choices
from game.engine.hexgrid import neighbor
from game.engine.players import LEVELS, make_player
from game.engine.terrain import TerrainMap
from game.engine.veteran import VeteranPlayer
from tests.engine.test_preview_truth import to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, dice, figure, play, start
from tests.golden.scenarios import CENTRE, SIDES, character, east, skirmish

OPTIONS = {
    "npc_zero": RuleOptions(npc_rolls="zero"),
    "npc_group": RuleOptions(npc_rolls="group"),
    "npc_group_4df": RuleOptions(npc_rolls="group_4df"),
    "speed": RuleOptions(speed_contest=True),
    "stun": RuleOptions(stun_blows=True, stun_head_knockout=True),
    "pulled": RuleOptions(pulled_blows=True),
    "sweep": RuleOptions(sweeping_blow=2),
    "ignore": RuleOptions(ignore_attackers=True),
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_every_computer_level_plays_a_battle_with_each_option_on(level: str, name: str) -> None:
    """Three against three (the red side NPC pawns), six rounds or to the end: every decision the level takes is
    legal under the option (``apply`` would refuse it otherwise)."""
    setup = skirmish(3, OPTIONS[name])
    setup = replace(setup, figures=tuple(replace(f, role="npc") if f.side == "red" else f for f in setup.figures))
    b = Battle(setup)
    players = {"blue": make_player(level, 1), "red": make_player(level, 2)}
    while not b.over and b.round <= 6:
        d = b.decision()
        assert d is not None
        b.apply(players[d.side](b, d))
    assert b.over or b.round > 6


@pytest.mark.parametrize("level", LEVELS)
def test_a_stunned_figure_of_every_level_declares_what_it_may(level: str) -> None:
    """*Fudge* 4.62: a stunned figure is offered no target, spell or very defensive stance; each computer level
    still declares something legal (a defence or a second move), and does not crash for want of a target."""
    a = figure("a", "blue", "brigand", CENTRE, 0)
    t = figure("t", "red", "brigand", east(CENTRE), 3)
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), RuleOptions(stun_blows=True), 0), a=UP, t=DOWN)
    dice(b, a=("combat", (1, 1, 0, 0)), t=("combat", EVEN))
    b.apply(gm.SetDie("t", "health", EVEN))
    dice(b, a=("initiative", UP), t=("initiative", DOWN))
    to_declaration(b, "a")
    events = b.apply(act.Declare("a", "neutral", ("t",), "Hand Axe", aim="torso", stun=True))
    assert any(isinstance(e, ev.Stunned) and e.result == "Stun" for e in events)
    play(b, lambda b_, d: None, phase="attack")
    d = b.decision()
    assert d is not None and d.figure == "t" and d.reason == "declare"
    chosen = make_player(level, 4)(b, d)
    b.apply(chosen)  # legal: the battle refuses an attack or a very defensive stance from the stunned
    assert not (isinstance(chosen, act.Declare) and (chosen.targets or chosen.stance == "very_defensive"))


def _declared(b: Battle, fid: str) -> act.Declare:
    d = b.decision()
    assert d is not None and d.figure == fid
    chosen = VeteranPlayer(0)(b, d)
    assert isinstance(chosen, act.Declare)
    return chosen


def test_the_veteran_sweeps_when_two_foes_are_in_reach() -> None:
    """*Fudge* 4.34: a sweeping blow adds each further foe's expected wound (less its place's damage) to the
    first's, so with three peasants in front of it the veteran strikes more than one."""
    swing = FigureSetup("s", "S", "blue", character("guard"), CENTRE, 0)
    foes = tuple(
        FigureSetup(f, f.upper(), "red", character("peasant"), neighbor(CENTRE, d), (d + 3) % 6)
        for f, d in (("fa", 0), ("fb", 1), ("fc", 5))
    )
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (swing, *foes), RuleOptions(sweeping_blow=1), 0), s=UP)
    to_declaration(b, "s")
    chosen = _declared(b, "s")
    assert len(chosen.targets) >= 2
    b.apply(chosen)


def test_the_veteran_goes_for_stun_when_the_blow_is_a_sure_hurt() -> None:
    """*Fudge* 4.62: a Stun costs the enemy his next attack, a Hurt wound costs him nothing: with every roll set
    so that the blow is a certain Hurt, the veteran stuns; when it would be Very Hurt or worse, it wounds."""
    for a_roll, stuns in (((1, 1, 0, 0), True), ((1, 1, 1, 1), False)):
        a = figure("a", "blue", "brigand", CENTRE, 0)
        t = figure("t", "red", "brigand", east(CENTRE), 3)
        b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), RuleOptions(stun_blows=True), 0), a=UP, t=DOWN)
        dice(b, a=("combat", a_roll), t=("combat", EVEN))
        b.apply(gm.SetDie("t", "health", EVEN))
        to_declaration(b, "a")
        chosen = _declared(b, "a")
        assert chosen.targets == ("t",) and chosen.stuns == stuns, (a_roll, chosen)


def test_the_veteran_ignores_a_levy_whose_blow_cannot_hurt_its_armour() -> None:
    """*Fudge* 4.34's knight wading through levies: a knight in field plate, attacked by a weak peasant and by a
    brigand, strikes the brigand and leaves the peasant undefended — not beating his defence is worth more than
    the scratch his blow might add."""
    knight = FigureSetup("k", "K", "blue", character("knight", armour=["Field Plate", "Greathelm"]), CENTRE, 0)
    levy = FigureSetup("l", "L", "red", character("peasant", strength="Poor"), neighbor(CENTRE, 1), 4)
    brigand = FigureSetup("g", "G", "red", character("brigand"), east(CENTRE), 3)
    b = start(
        BattleSetup(TerrainMap.open(12, 10), SIDES, (knight, levy, brigand), RuleOptions(ignore_attackers=True), 0),
        k=UP,
        l=DOWN,
        g=DOWN,
    )
    to_declaration(b, "k", {"l": act.Declare("l", "neutral", ("k",), "Hand Axe")})
    dc = declare_choices(b, "k")
    chosen, why = refine(b, dc, act.Declare("k", "neutral", ("g",), "Broadsword"), lambda f: 1.0)
    assert chosen.ignoring == ("l",) and "ignoring L" in why
    b.apply(chosen)


@pytest.mark.parametrize("head", [False, True])
def test_the_stun_read_off_a_blows_wounding_odds_is_the_stunning_blows_own(head: bool) -> None:
    """The players weigh a stun from the wounding odds they have (``ai_options.stun_estimate``), asking the
    stunning blow's odds only when it is worth more: the two agree, a target already stunned (its Hurt rolls up to
    Very Stunned) and the head variant (a blow on the head knocks out) included."""
    from game.engine.ai_options import outcome_worth, stun_estimate
    from game.engine.preview import preview
    from game.engine.stun_sheet import StunSheet

    a = figure("a", "blue", "bruiser", CENTRE, 0)
    t = figure("t", "red", "brigand", east(CENTRE), 3)
    options = RuleOptions(stun_blows=True, stun_head_knockout=head)
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), options, 0), a=UP, t=DOWN)
    b.figure("t").stuns = StunSheet((1, 0))
    to_declaration(b, "a")
    wounding = act.Declare("a", "neutral", ("t",), "Battle Axe")
    plain, stunning = preview(b, wounding), preview(b, act.Declare("a", "neutral", ("t",), "Battle Axe", stun=True))
    assert plain is not None and stunning is not None
    exact = sum(float(p) * outcome_worth(o) for o, p in stunning.distribution.items())  # type: ignore[union-attr]
    assert stun_estimate(b, plain, lambda f: 1.0) == pytest.approx(exact)  # type: ignore[arg-type]
    assert exact > 0
