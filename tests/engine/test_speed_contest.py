"""*Fudge* 4.36, the Speed contest (003:402–410): "after declaring actions, each fighter rolls Speed; the winner
of that opposed action, if any, adds the difference to his weapon skill" (docs/rulings.md "Speed contest").
Battles through the door with every roll set from the GM's seat; the odds against the 17-way mixture and sampled
battles."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.battle import Battle, BattleSetup, FigureSetup, IllegalAction, RuleOptions
from game.engine.dice import FOUR_DF_DIFFERENCE
from game.engine.hexgrid import Hex, neighbor
from game.engine.odds import hit_probability
from game.engine.preview import attack_preview
from game.engine.speed_contest import difference
from game.engine.terrain import TerrainMap
from tests.engine.test_preview_truth import resolved, to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, attacks, dice, play, start
from tests.golden.scenarios import CENTRE, SIDES, character, east
from tests.sampling import assert_agrees, sample_attack

CONTEST = RuleOptions(speed_contest=True)
WON = ("Speed contest (Fudge 4.36)", 2)


def fighter(fid: str, side: str, speed: str, h: Hex, facing: int) -> FigureSetup:
    """A Good swordsman (Broadsword, no armour) of the given Speed."""
    return FigureSetup(
        fid, fid.capitalize(), side, character("guard", skills={"Sword": "Good"}, speed=speed), h, facing
    )


def ann_and_bo(options: RuleOptions = CONTEST, cy: bool = False) -> Battle:
    figs = [fighter("ann", "blue", "Good", CENTRE, 0), fighter("bo", "red", "Fair", east(CENTRE), 3)]
    if cy:
        figs.append(fighter("cy", "blue", "Fair", neighbor(east(CENTRE), 2), 5))
    order = {"ann": UP, "bo": DOWN, **({"cy": EVEN} if cy else {})}
    return start(BattleSetup(TerrainMap.open(12, 10), SIDES, tuple(figs), options, 0), **order)


def exchange(b: Battle, bo_target: str = "ann") -> list[ev.Event]:
    """Bo declares first (his blow public), then Ann strikes Bo; every combat roll 0."""
    dice(b, ann=("combat", EVEN), bo=("combat", EVEN))
    to_declaration(b, "ann", {"bo": act.Declare("bo", "neutral", (bo_target,), "Broadsword")})
    events = b.apply(act.Declare("ann", "neutral", ("bo",), "Broadsword"))
    return events + play(b, lambda b_, d: None, phase="movement")


def test_fudge_4_36_the_faster_fighter_adds_the_difference_to_her_skill_against_him() -> None:
    """Ann (Speed Good) rolls +1, Great; Bo (Speed Fair) rolls 0, Fair: Ann wins by 2. Her offence against Bo
    and her defence against Bo's blow carry +2; Bo gets nothing."""
    b = ann_and_bo()
    dice(b, ann=("speed", (1, 0, 0, 0)), bo=("speed", EVEN))
    events = exchange(b)
    (contest,) = [e for e in events if isinstance(e, ev.SpeedContest)]
    assert (contest.first_result, contest.second_result, contest.winner, contest.bonus) in {
        (2, 0, "ann", 2),
        (0, 2, "ann", 2),
    }
    assert "Ann +2 to skill against Bo (Fudge 4.36)" in contest.text({"ann": "Ann", "bo": "Bo"})
    ann, bo = resolved(events, "ann"), resolved(events, "bo")
    assert WON in ann.offence_mods and ann.offence == 1 + 2
    assert WON in bo.defence_mods and bo.defence == 1 + 2
    assert WON not in bo.offence_mods and WON not in ann.defence_mods
    assert ann.hit and not bo.hit  # Good + 2 against Good: +2; Bo's Good meets Ann's Good + 2


def test_fudge_4_36_a_tie_gives_nobody_anything() -> None:
    b = ann_and_bo()
    dice(b, ann=("speed", EVEN), bo=("speed", (1, 0, 0, 0)))  # Good 1 against Fair + 1: a tie
    events = exchange(b)
    (contest,) = [e for e in events if isinstance(e, ev.SpeedContest)]
    assert contest.winner is None and "a tie" in contest.text()
    assert not any(WON[0] in dict(a.offence_mods) or WON[0] in dict(a.defence_mods) for a in attacks(events, "ann"))


def test_fudge_4_36_no_contest_without_an_exchange() -> None:
    """Ann strikes Bo, Bo strikes Cy: nobody strikes back at his attacker, so no Speed is rolled (the speed rolls
    the GM set stay unused)."""
    b = ann_and_bo(cy=True)
    dice(b, ann=("speed", UP), bo=("speed", DOWN))
    events = exchange(b, bo_target="cy")
    assert not any(isinstance(e, ev.SpeedContest) for e in events)
    assert [s.purpose for s in b.gm_dice] == ["speed", "speed"]
    with pytest.raises(IllegalAction, match="A battle makes no speed roll"):
        ann_and_bo(RuleOptions()).apply(gm.SetDie("ann", "speed", EVEN))


def test_fudge_4_36_the_odds_mix_over_the_seventeen_speed_differences() -> None:
    """With Bo's blow on Ann public, the preview of Ann's blow is the mixture over (Speed A + 4dF) − (Speed B +
    4dF): Ann's offence + d when she wins, Bo's defence + |d| when he does."""
    b = ann_and_bo()
    to_declaration(b, "ann", {"bo": act.Declare("bo", "neutral", ("ann",), "Broadsword")})
    shown = attack_preview(b, "ann", "Broadsword", "bo")
    spread = difference(1, 0)
    assert len(spread) == 17 and sum(spread.values()) == 1
    assert spread == {d + 1: p for d, p in FOUR_DF_DIFFERENCE.items()}
    expected = sum((p * hit_probability(1 + max(0, d), (1 + max(0, -d),), -2) for d, p in spread.items()), Fraction(0))
    assert shown.hit == expected != hit_probability(1, (1,), -2)
    assert any("a Speed contest first" in a for a in shown.assumptions)
    unknown = ann_and_bo()
    to_declaration(unknown, "bo")  # Bo has not declared: no contest counted, and said so
    early = attack_preview(unknown, "bo", "Broadsword", "ann")
    assert early.hit == hit_probability(1, (1,), -2) and any("not known yet" in a for a in early.assumptions)


@pytest.mark.slow
def test_fudge_4_36_the_contest_preview_agrees_with_sampled_battles() -> None:
    figs = (fighter("ann", "blue", "Good", CENTRE, 0), fighter("bo", "red", "Fair", east(CENTRE), 3))
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, figs, RuleOptions(), 0)
    back = act.Declare("bo", "neutral", ("ann",), "Broadsword")
    sample = sample_attack(
        setup,
        CONTEST,
        initiative={"ann": UP, "bo": DOWN},
        declaration=act.Declare("ann", "neutral", ("bo",), "Broadsword"),
        decide_before=lambda b, d: back if d.reason == "declare" and d.figure == "bo" else None,
        n=6000,
    )
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)


def test_a_battle_with_speed_contests_replays_from_its_save(tmp_path: Path) -> None:
    b = ann_and_bo()
    exchange(b)
    exchange(b)
    assert len([e for e in b.events if isinstance(e, ev.SpeedContest)]) == 2
    record.save(tmp_path / "speed.json", b, {"scenario": "ann and bo"})
    rec = record.load(tmp_path / "speed.json")
    again = record.replay(b.setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
    assert again.digests == b.digests
