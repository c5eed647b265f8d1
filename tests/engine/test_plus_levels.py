"""*Fudge* 4.36's "plus" levels of combat skills: "Good+" is Good, and one level higher on every other round
from the second (003:411–448); a roster field, not a battle switch (docs/rulings.md "Plus levels")."""

from __future__ import annotations

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import Battle, BattleSetup, Decision, FigureSetup, RuleOptions
from game.engine.characters import Character, CharacterError
from game.engine.ladder import GOOD, GREAT, LEGENDARY, plus_name, split_plus
from game.engine.limits import check_value
from game.engine.terrain import TerrainMap
from tests.engine.test_rules_as_written import dice, play
from tests.golden.scenarios import CENTRE, SIDES, character, east
from tests.helpers import refereed


def test_fudge_4_36_a_plus_level_reads_as_its_level_with_the_half_and_writes_back() -> None:
    ivan = Character.from_dict({"name": "Ivan", "skills": {"Sword": "Good+", "Axe": "Good +", "Bow": "Legendary+1"}})
    assert ivan.skills["Sword"] == GOOD and ivan.skills["Axe"] == GOOD
    assert ivan.has_plus("sword") and ivan.has_plus("Axe") and not ivan.has_plus("Bow")
    assert ivan.skills["Bow"] == LEGENDARY + 1  # "+1" is one full step, as before
    assert ivan.to_dict()["skills"] == {"Sword": "Good+", "Axe": "Good+", "Bow": "Legendary+1"}
    assert Character.from_dict(ivan.to_dict()) == ivan
    # out of a battle (no round) the level is the one written; in a battle, one higher on even rounds
    assert [ivan.skill_level("Sword", r) for r in (None, 1, 2, 3, 4)] == [GOOD, GOOD, GREAT, GOOD, GREAT]
    assert split_plus("Legendary+3+") == ("Legendary+3", True) and plus_name(GOOD, True) == "Good+"
    assert check_value("skill", "Legendary+3+") is None  # the + adds no step: inside the skills' range


@pytest.mark.parametrize("field", ["speed", "damage_capacity"])
def test_fudge_4_36_plus_levels_are_for_skills_only(field: str) -> None:
    with pytest.raises(CharacterError, match=r"plus levels are for combat skills \(Fudge 4.36\); write \"Good\" or "):
        Character.from_dict({"name": "Bo", field: "Good+"})


def _gus_and_ivan() -> Battle:
    terrain = TerrainMap.open(12, 10)
    gus = FigureSetup("gus", "Gus", "blue", character("guard", skills={"Sword": "Great"}), CENTRE, 0)
    ivan = FigureSetup("ivan", "Ivan", "red", character("guard", skills={"Sword": "Good+"}), east(CENTRE), 3)
    return refereed(BattleSetup(terrain, SIDES, (gus, ivan), RuleOptions(), 0))


def test_fudge_4_36_gus_and_ivan_ivan_fights_as_great_on_rounds_two_and_four() -> None:
    """003:442–448: Gus (Great) and Ivan (Good+) fight four rounds. Gus's blow meets Ivan's defence and Ivan's
    offence is read at Good on rounds 1 and 3, at Great — Gus's equal — on rounds 2 and 4. The rolls are set so
    that each blow ties the defence it meets (Gus 0 every round; Ivan +1 on odd rounds, 0 on even)."""
    b = _gus_and_ivan()

    def fight(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure is not None:
            foe = "ivan" if d.figure == "gus" else "gus"
            return act.Declare(d.figure, "neutral", (foe,), "Broadsword")
        return None

    seen: dict[int, tuple[int, int, int]] = {}
    for round_no in (1, 2, 3, 4):
        assert b.round == round_no
        dice(b, gus=("combat", (0, 0, 0, 0)), ivan=("combat", (1, 0, 0, 0) if round_no % 2 else (0, 0, 0, 0)))
        events = play(b, fight)
        blows = {e.attacker: e for e in events if isinstance(e, ev.AttackResolved)}
        assert not blows["gus"].hit and not blows["ivan"].hit  # every blow ties: nobody is hit (FTC 6.4)
        seen[round_no] = (blows["ivan"].skill, blows["gus"].skill, blows["gus"].defence or 0)
    # Ivan's skill, Gus's skill, Ivan's defence (his skill + his roll) against Gus's blow
    odd, even = (GOOD, GREAT, GREAT), (GREAT, GREAT, GREAT)
    assert seen == {1: odd, 2: even, 3: odd, 4: even}


@pytest.mark.slow
def test_fudge_4_36_the_preview_of_a_plus_round_agrees_with_sampled_battles() -> None:
    """Round 2, one of Ivan's plus rounds: the preview reads his Good+ as Great, and 10,000 battles resolving his
    blow on Gus agree with it."""
    from tests.sampling import assert_agrees, sample_attack

    gus = FigureSetup("gus", "Gus", "blue", character("guard", skills={"Sword": "Great"}), CENTRE, 0)
    ivan = FigureSetup("ivan", "Ivan", "red", character("guard", skills={"Sword": "Good+"}), east(CENTRE), 3)
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (gus, ivan), RuleOptions(), 0)
    declaration = act.Declare("ivan", "neutral", ("gus",), "Broadsword")
    sample = sample_attack(
        setup, RuleOptions(), initiative={"ivan": (1, 1, 1, 1), "gus": (-1, -1, -1, -1)}, declaration=declaration
    )
    assert sample.preview.skill == GREAT
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)
