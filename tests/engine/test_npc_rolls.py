"""*Fudge* 4.33 and 4.34, PCs against NPCs: with the rule option ``npc_rolls`` an NPC pawn rolls nothing (its
result is its level) or the pawns of a side share one roll (docs/rulings.md "NPC rolls"). Battles driven through
the door, every roll set from the GM's seat; the odds against a hand count and against sampled battles."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, BattleSetup, Decision, FigureSetup, IllegalAction, RuleOptions, SideSetup
from game.engine.dice import FOUR_DF_COUNTS, TWO_DF_COUNTS
from game.engine.hexgrid import Hex, neighbor
from game.engine.npc_rolls import RollKind
from game.engine.odds import hit_probability, outcome_distribution
from game.engine.preview import attack_preview
from game.engine.terrain import TerrainMap
from game.report import side_rolls
from tests.engine.test_preview_truth import to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, attacks, dice, play, start
from tests.golden.scenarios import CENTRE, SIDES, character, east
from tests.helpers import refereed
from tests.sampling import assert_agrees, sample_attack


def fighter(fid: str, side: str, sword: str, h: Hex, facing: int, role: str | None = None) -> FigureSetup:
    """A swordsman (Broadsword, no armour) of the given Sword skill; ``role`` "npc" makes an NPC pawn."""
    return FigureSetup(fid, fid.capitalize(), side, character("guard", skills={"Sword": sword}), h, facing, role=role)


def attack_all(targets: dict[str, str]) -> object:
    """A chooser declaring each named figure's attack on its target (the others do little)."""

    def choose(b: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure in targets:
            return act.Declare(d.figure, "neutral", (targets[d.figure],), "Broadsword")
        return None

    return choose


# ------------------------------------------------------------------------------------------ Fudge 4.33


def _pc_and_npc(options: RuleOptions) -> Battle:
    pc = fighter("pc", "blue", "Good", CENTRE, 0)
    npc = fighter("npc", "red", "Fair", east(CENTRE), 3, role="npc")
    return start(BattleSetup(TerrainMap.open(12, 10), SIDES, (pc, npc), options, 0), pc=UP, npc=DOWN)


@pytest.mark.parametrize(
    ("pc_roll", "pc_hits", "degree", "npc_hits"),
    [
        ((-1, 0, 0, 0), False, 0, False),  # Fair against Fair: a stand-off, nobody is hit
        ((0, 0, 0, 0), True, 1, False),  # Good beats Fair by one: a graze
        ((-1, -1, 0, 0), False, -1, True),  # Mediocre: the NPC's Fair offence beats the PC's Mediocre defence
    ],
)
def test_fudge_4_33_an_npc_rolls_nothing_its_result_is_its_level(
    pc_roll: tuple[int, int, int, int], pc_hits: bool, degree: int, npc_hits: bool
) -> None:
    """003:149–159: "the NPC always gets a result equal to her trait level … The PC must tie the NPC's level
    for a stand-off and beat it to inflict damage." The NPC pawn's roll is no dice at all (none drawn)."""
    b = _pc_and_npc(RuleOptions(npc_rolls="zero"))
    dice(b, pc=("combat", pc_roll))
    dice(b, pc=("initiative", UP), npc=("initiative", DOWN))  # next round's: nothing drawn but for this round
    to_declaration(b, "pc", {"npc": act.Declare("npc", "neutral", ("pc",), "Broadsword")})
    draws = b.rng.draws
    events = b.apply(act.Declare("pc", "neutral", ("npc",), "Broadsword"))
    events += play(b, lambda b_, d: None, phase="movement")
    rolls = {e.figure: e for e in events if isinstance(e, ev.CombatRoll)}
    assert rolls["npc"].faces == () and rolls["npc"].source == "npc_zero"
    assert rolls["pc"].source == "" and rolls["pc"].faces == pc_roll
    assert "rolls nothing" in rolls["npc"].text({"npc": "Npc"}) and "Fudge 4.33" in rolls["npc"].text()
    (pc_blow,) = attacks(events, "pc")
    (npc_blow,) = attacks(events, "npc")
    assert (pc_blow.hit, npc_blow.hit) == (pc_hits, npc_hits)
    assert npc_blow.roll == 0 and npc_blow.offence == 0  # Fair + nothing
    if pc_hits:
        assert pc_blow.relative_degree == degree
    wounded = any(isinstance(e, ev.Wounded) for e in events)
    assert b.rng.draws - draws == (4 if wounded else 0)  # only a Health roll draws: the NPC rolled nothing


def test_fudge_4_33_the_gm_sets_no_combat_roll_for_an_npc_who_rolls_nothing() -> None:
    b = _pc_and_npc(RuleOptions(npc_rolls="zero"))
    with pytest.raises(IllegalAction, match=r"Npc rolls no dice \(Fudge 4.33\)"):
        b.apply(gm.SetDie("npc", "combat", EVEN))
    b.apply(gm.SetDie("pc", "combat", EVEN))  # the hero rolls his own dice
    own = _pc_and_npc(RuleOptions())
    own.apply(gm.SetDie("npc", "combat", EVEN))  # with the option off every figure rolls, as before


# ------------------------------------------------------------------------------------------ Fudge 4.34

PIRATES = {"maggie": (0, "Mediocre"), "molly": (1, "Fair"), "annie": (5, "Good")}
"""Each pirate's direction from Tucker (all in his front hexes, each facing him) and her Sword skill."""


def _tucker(options: RuleOptions) -> Battle:
    tucker = fighter("tucker", "blue", "Good", CENTRE, 0)
    pirates = tuple(fighter(p, "red", s, neighbor(CENTRE, d), (d + 3) % 6, "npc") for p, (d, s) in PIRATES.items())
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (tucker, *pirates), options, 0)
    return start(setup, tucker=UP, maggie=DOWN, molly=DOWN, annie=DOWN)


def _tucker_round(options: RuleOptions, tucker_roll: tuple[int, ...]) -> list[ev.Event]:
    b = _tucker(options)
    b.apply(gm.SetDie("molly", "npc_group", (1, 0)))  # the GM's +1: each pirate +1
    b.apply(gm.SetDie("tucker", "combat", tucker_roll))
    return play(b, attack_all({"tucker": "maggie", **{p: "tucker" for p in PIRATES}}))


@pytest.mark.parametrize(
    ("roll", "tucker_hits", "hit_by"),
    [
        ((1, 1, 0, 0), True, set()),  # Superb: he hits Maggie, nobody hits him
        ((1, 0, 0, 0), False, set()),  # Great: Annie's Great ties; FTC 6.1 has him beat every attacker
        ((0, 0, 0, 0), False, {"annie"}),  # Good: Annie hits him
        ((-1, 0, 0, 0), False, {"molly", "annie"}),  # Fair: Molly and Annie hit him
    ],
)
def test_fudge_4_34_tucker_and_the_pirates_share_one_roll(
    roll: tuple[int, int, int, int], tucker_hits: bool, hit_by: set[str]
) -> None:
    """003:252–280: the pirates Molly (Fair), Annie (Good) and Maggie (Mediocre) beset Tucker; the GM rolls once
    for all three, +1: they fight at Good, Great and Fair. Tucker is Good here — the text's Superb after its −2
    for two extra attackers, which FTC 6.1 drops. On Great the text lets him wound Maggie by *Fudge*'s tie
    exception, which FTC 6.1 replaces: he must beat every attacker, so he hits nobody."""
    events = _tucker_round(RuleOptions(npc_rolls="group"), roll)
    (group,) = [e for e in events if isinstance(e, ev.GroupRoll)]
    assert (group.side, group.faces, set(group.members)) == ("red", (1, 0), set(PIRATES))
    assert "Red roll once for 3 NPCs: [+ 0] = +1 (Fudge 4.34)" in group.text()
    pirate_rolls = [e for e in events if isinstance(e, ev.CombatRoll) and e.figure in PIRATES]
    assert {(e.faces, e.source) for e in pirate_rolls} == {((1, 0), "npc_group")}
    results = {a.attacker: a.offence for a in events if isinstance(a, ev.AttackResolved) and a.attacker in PIRATES}
    assert results == {"molly": 1, "annie": 2, "maggie": 0}  # Good, Great, Fair
    (blow,) = attacks(events, "tucker", "maggie")
    assert blow.hit == tucker_hits
    assert {a.attacker for a in events if isinstance(a, ev.AttackResolved) and a.hit and a.target == "tucker"} == hit_by


def test_fudge_4_34_the_gm_sets_a_sides_group_roll_not_a_pawns_own() -> None:
    b = _tucker(RuleOptions(npc_rolls="group"))
    with pytest.raises(IllegalAction, match="set its side's npc_group roll instead"):
        b.apply(gm.SetDie("annie", "combat", EVEN))
    with pytest.raises(IllegalAction, match="Tucker is not an NPC pawn"):
        b.apply(gm.SetDie("tucker", "npc_group", (1, 0)))
    with pytest.raises(IllegalAction, match="four Fudge dice"):
        _tucker(RuleOptions(npc_rolls="group_4df")).apply(gm.SetDie("annie", "npc_group", (1, 0)))
    four = _tucker(RuleOptions(npc_rolls="group_4df"))
    four.apply(gm.SetDie("annie", "npc_group", (1, 1, 0, -1)))
    events = play(four, attack_all({p: "tucker" for p in PIRATES}))
    (group,) = [e for e in events if isinstance(e, ev.GroupRoll)]
    assert group.faces == (1, 1, 0, -1)


def test_fudge_4_34_each_side_rolls_once_for_its_pawns_and_a_major_npc_rolls_his_own() -> None:
    """Two sides of pawns: two group rolls; the red leader (a major NPC) rolls his own 4dF (our reading: a named
    villain rolls his own dice; docs/rosters.md "Roles")."""
    sides = (*SIDES, SideSetup("green", "Green"))
    figs = (
        fighter("hero", "blue", "Good", Hex(1, 1), 0),
        fighter("r1", "red", "Fair", Hex(6, 1), 3, "npc"),
        fighter("r2", "red", "Fair", Hex(6, 3), 3, "npc"),
        fighter("boss", "red", "Good", Hex(6, 5), 3, "major_npc"),
        fighter("g1", "green", "Fair", Hex(1, 6), 0, "npc"),
        fighter("g2", "green", "Fair", Hex(1, 8), 0, "npc"),
    )
    b = refereed(BattleSetup(TerrainMap.open(12, 10), sides, figs, RuleOptions(npc_rolls="group"), 0))
    events = play(b, lambda b_, d: None)
    groups = {e.side: e for e in events if isinstance(e, ev.GroupRoll)}
    assert set(groups) == {"red", "green"}
    assert set(groups["red"].members) == {"r1", "r2"} and set(groups["green"].members) == {"g1", "g2"}
    rolls = {e.figure: e for e in events if isinstance(e, ev.CombatRoll)}
    assert rolls["boss"].source == "" and len(rolls["boss"].faces) == 4
    assert rolls["r1"].faces == rolls["r2"].faces == groups["red"].faces and len(groups["red"].faces) == 2


def test_fudge_4_34_two_pawns_free_attacks_on_a_runner_share_one_roll() -> None:
    """FTC 5.3 with *Fudge* 4.34: the runner's two stoppers, NPC pawns of one side, strike their free attacks
    with one group roll made for that exchange."""
    runner = fighter("m", "blue", "Good", CENTRE, 0)
    s1 = fighter("s1", "red", "Fair", east(CENTRE), 3, "npc")
    s2 = fighter("s2", "red", "Fair", neighbor(CENTRE, 1), 4, "npc")
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (runner, s1, s2), RuleOptions(npc_rolls="group"), 0), m=UP)
    dice(b, m=("escape", DOWN), s1=("escape", UP), s2=("escape", UP))
    b.apply(gm.SetDie("s2", "npc_group", (1, 1)))

    def run(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure == "m":
            return act.Move("m", ((neighbor(CENTRE, 3), 0),))
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice("m", True)
        return None

    events = play(b, run, phase="attack")
    assert len([a for a in attacks(events, "s1") + attacks(events, "s2") if a.free_attack]) == 2
    (group,) = [e for e in events if isinstance(e, ev.GroupRoll)]
    assert group.faces == (1, 1)
    free = {e.figure: e for e in events if isinstance(e, ev.CombatRoll)}
    assert free["s1"].faces == free["s2"].faces == (1, 1) and free["m"].source == ""


# ------------------------------------------------------------------------------------------ odds


def test_fudge_4_34_the_odds_move_the_pirates_defences_together() -> None:
    """The preview of Tucker's blow on Maggie counts the pirates' one roll: a hand count over the 9 ways of 2dF
    and the 81 of Tucker's 4dF. Tucker (Good) hits when his result beats all three defences: Fair, Good and
    Mediocre (Molly, Annie, Maggie) plus the same roll g."""
    b = _tucker(RuleOptions(npc_rolls="group"))
    to_declaration(b, "tucker", {p: act.Declare(p, "neutral", ("tucker",), "Broadsword") for p in PIRATES})
    pv = attack_preview(b, "tucker", "Broadsword", "maggie")
    ways = sum(
        wg * wx for g, wg in TWO_DF_COUNTS.items() for x, wx in FOUR_DF_COUNTS.items() if 1 + x > max(0, 1, -1) + g
    )
    assert pv.hit == Fraction(ways, 9 * 81)
    assert any("share one roll" in a and "Fudge 4.34" in a for a in pv.assumptions)
    independent = hit_probability(1, (0, 1, -1), -2, rolls=[RollKind(), *(RollKind(2),) * 3])
    assert pv.hit != independent  # the shared roll is not three rolls


def test_the_roll_kinds_of_ftc_as_written_give_the_odds_of_old() -> None:
    own = (RollKind(), RollKind(), RollKind())
    args = (2, 1, (0,), -2, 3)
    assert outcome_distribution(*args, rolls=own) == outcome_distribution(*args)
    assert hit_probability(1, (0, 1), -2, rolls=own) == hit_probability(1, (0, 1), -2)
    fixed = (RollKind(fixed=1), RollKind(), RollKind())
    assert outcome_distribution(*args, rolls=fixed) == outcome_distribution(*args, set_rolls=(1, None, None))


@pytest.mark.slow
@pytest.mark.parametrize("value", ["zero", "group", "group_4df"])
def test_fudge_4_33_4_34_the_preview_agrees_with_sampled_battles(value: str) -> None:
    """The pirates declared first (their attacks on Tucker public), Tucker's blow on Maggie: the preview under each
    way of rolling against 10,000 battles resolving it."""
    tucker = fighter("tucker", "blue", "Good", CENTRE, 0)
    pirates = tuple(fighter(p, "red", s, neighbor(CENTRE, d), (d + 3) % 6, "npc") for p, (d, s) in PIRATES.items())
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (tucker, *pirates), RuleOptions(), 0)
    declarations = {p: act.Declare(p, "neutral", ("tucker",), "Broadsword") for p in PIRATES}
    sample = sample_attack(
        setup,
        RuleOptions(npc_rolls=value),  # type: ignore[arg-type]
        initiative={"tucker": UP, **{p: DOWN for p in PIRATES}},
        declaration=act.Declare("tucker", "neutral", ("maggie",), "Broadsword"),
        decide_before=lambda b, d: declarations.get(d.figure or "") if d.reason == "declare" else None,
    )
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)


# ------------------------------------------------------------------------------------------ save and replay


def test_a_battle_of_group_rolls_replays_from_its_save(tmp_path: Path) -> None:
    setup = _tucker(RuleOptions(npc_rolls="group")).setup
    b = Battle(replace(setup, gm=None, seed=7))
    players = {"blue": RandomPlayer(1), "red": RandomPlayer(2)}
    while not b.over and b.round <= 5:
        d = b.decision()
        assert d is not None
        b.apply(players[d.side](b, d))
    assert any(isinstance(e, ev.GroupRoll) for e in b.events)
    # luck counts a side's own 4dF: not the pawns' 2dF group rolls (docs/rulings.md "NPC rolls")
    assert all(len(faces) == 4 for faces in side_rolls(b)["red"])
    record.save(tmp_path / "group.json", b, {"scenario": "tucker"})
    rec = record.load(tmp_path / "group.json")
    again = record.replay(b.setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
    assert again.digests == b.digests


def test_with_the_option_off_a_pawn_rolls_its_own_dice_and_the_log_is_as_before() -> None:
    b = _tucker(RuleOptions())
    events = play(b, attack_all({p: "tucker" for p in PIRATES}))
    assert not any(isinstance(e, ev.GroupRoll) for e in events)
    rolls = [e for e in events if isinstance(e, ev.CombatRoll)]
    assert all(len(e.faces) == 4 and "source" not in e.to_json() for e in rolls)
