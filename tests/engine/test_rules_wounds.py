"""*Fudge* 4.51 and 4.52 in whole battles (docs/rulings.md "Willpower against wounds", "Damage Capacity"): a Will
roll that lowers or wipes out a wound's penalty (and possibly keeps an Incapacitated fighter up), and the other
ways of Damage Capacity: a roll on each wound replacing FTC 7.4's Health roll, on Damage Capacity, Health or Will;
the gift Damage Resistant and the fault Fragile; a level or a damage point.

The blows come through the door with their dice set from the GM's seat: a duellist (Superb Axe, Fair Strength, a
Hand Axe +2) against an unarmoured peasant rolling +4 to defend (Great): the relative degree is the duellist's
roll, the damage two more.
"""

from __future__ import annotations

from typing import Any

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, RuleOptions
from game.engine.characters import Character, CharacterError
from game.engine.combat import Stance
from game.engine.wounds import WoundLevel
from tests.engine.test_preview_truth import resolved
from tests.engine.test_rules_as_written import EVEN
from tests.engine.test_rules_heroes import fight, strike, wounded

AXE: dict[str, Any] = {"strength": "Fair", "skills": {"Axe": "Superb"}, "weapons": ["Hand Axe"]}
KNIFE: dict[str, Any] = {"strength": "Fair", "skills": {"Knife": "Superb"}, "weapons": ["Large Knife"]}
SCRATCH = (1, 0, 0, 0)  # a graze: degree +1, at most a Scratch (FTC 7.3)
HURT = (1, 1, 0, 0)  # degree +2, damage 4
VERY_HURT = (1, 1, 1, 0)  # degree +3, damage 5
GREAT, GOOD, FAIR, POOR = (1, 1, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), (-1, -1, 0, 0)
SUPERB = (1, 1, 1, 0)


def penalties(b: Battle, fid: str = "h") -> tuple[int, int]:
    """The wound terms of the figure's offence and defence now (FTC 6.4.1, table 7), as the battle counts them."""
    fig, foe = b.figure(fid), b.figure("a")
    weapon = fig.character.ready_weapon
    offence = b.attack_terms(fig, foe, weapon, Stance.NEUTRAL).modifiers
    _, defence = b.melee_defence(fid, "a", foe.character.ready_weapon)
    term = "Very Hurt"
    return sum(m.value for m in offence if m.name == term), sum(m.value for m in defence if m.name == term)


def next_round(b: Battle) -> None:
    """Play on (standing, defending only) to the next round's attack phase."""
    from tests.engine.test_preview_truth import to_declaration

    to_declaration(b, "a")


# ------------------------------------------------------------------------------------------ Fudge 4.51


@pytest.mark.parametrize(("will", "penalty"), [(GREAT, 0), (GOOD, -1)])
def test_fudge_4_51_a_great_will_shrugs_off_the_very_hurt_penalty_a_good_one_does_not(
    will: tuple[int, ...], penalty: int
) -> None:
    """Fudge 4.51: "a high-difficulty Willpower roll to reduce or even nullify the penalties". A Fair-Will figure
    made Very Hurt rolls Will at once: Great takes the -1 off, Good leaves it, from the next round on."""
    b = fight(RuleOptions(willpower_vs_wounds="very_hurt"), first=AXE)
    b.apply(gm.SetDie("h", "pain", will))
    events = strike(b, ("a", VERY_HURT))
    assert (resolved(events, "a").relative_degree, resolved(events, "a").damage) == (3, 5)
    (roll,) = [e for e in events if isinstance(e, ev.WillAgainstPain)]
    assert (roll.level, roll.faces, roll.penalty, roll.relief) == ("Very Hurt", will, -1, 1 + penalty)
    said = roll.text({"h": "H"})
    assert said.startswith("H fights the pain (Fudge 4.51): Will")
    assert ("no Very Hurt penalty" in said) == (penalty == 0)
    next_round(b)
    assert penalties(b) == (penalty, penalty)


@pytest.mark.parametrize(
    ("blow", "will", "penalty"),
    [(HURT, GREAT, 0), (HURT, GOOD, -1), (VERY_HURT, GREAT, -1), (VERY_HURT, SUPERB, 0)],
)
def test_fudge_4_51_with_low_pain_threshold_hurt_rolls_too_and_superb_wipes_out_the_very_hurt_minus_two(
    blow: tuple[int, ...], will: tuple[int, ...], penalty: int
) -> None:
    """Low Pain Threshold (Fudge 4.51): Hurt -1, Very Hurt -2. Hurt: Great -> 0, Good -> -1; Very Hurt: Great ->
    -1, Superb -> 0."""
    b = fight(RuleOptions(willpower_vs_wounds="very_hurt"), first=AXE, traits={"faults": ["Low Pain Threshold"]})
    b.apply(gm.SetDie("h", "pain", will))
    strike(b, ("a", blow))
    next_round(b)
    assert penalties(b) == (penalty, penalty)


def test_fudge_4_51_a_superb_will_keeps_an_incapacitated_fighter_on_his_feet_until_the_next_wound() -> None:
    """ "... and possibly Incapacitated": with "incapacitated" a Great-Will figure made Incapacitated rolls +1
    (Superb): not taken out; it declares an attack next round at -1 (the Very Hurt penalty); a Scratch later takes
    it out."""
    options = RuleOptions(willpower_vs_wounds="incapacitated")
    b = fight(options, first={"strength": "Good"}, traits={"will": "Great"})  # Battle Axe: damage 5 + degree
    b.apply(gm.SetDie("h", "pain", (1, 0, 0, 0)))
    events = strike(b, ("a", (0, 0, 0, 0)))
    assert (resolved(events, "a").relative_degree, resolved(events, "a").damage) == (2, 7)
    assert [w.box for w in wounded(events)] == ["Incapacitated"]
    (roll,) = [e for e in events if isinstance(e, ev.WillAgainstPain)]
    assert roll.fights_on and "fights on, Incapacitated" in roll.text()
    assert not any(isinstance(e, ev.TakenOut) and e.figure == "h" for e in events)
    assert b.figure("h").can_act
    next_round(b)
    assert penalties(b) == (-1, -1)
    assert "a" in b.targets_for("h", b.figure("h").character.ready_weapon)
    events = strike(b, ("a", SCRATCH))
    assert any(isinstance(e, ev.TakenOut) and e.figure == "h" for e in events)
    assert not b.figure("h").can_act


def test_fudge_4_51_a_mook_out_of_the_battle_rolls_no_will() -> None:
    """A mook's track reads "Out of the Battle" for Incapacitated: no Will keeps him up, none eases a penalty; the
    pain roll the GM set for him is never used."""
    b = fight(RuleOptions(willpower_vs_wounds="incapacitated"), track="mook", first=AXE)
    b.apply(gm.SetDie("h", "pain", SUPERB))
    events = strike(b, ("a", VERY_HURT))
    assert [w.box for w in wounded(events)] == ["Incapacitated"]
    assert not any(isinstance(e, ev.WillAgainstPain) for e in events)
    assert not b.figure("h").can_act
    assert [(die.figure, die.purpose) for die in b.gm_dice] == [("h", "pain")]


def test_fudge_4_51_off_no_will_roll_is_made_or_taken() -> None:
    """Option off: a Very Hurt wound draws no pain roll, and the GM may not set one."""
    b = fight(RuleOptions(), first=AXE)
    with pytest.raises(Exception, match="makes no pain roll"):
        b.apply(gm.SetDie("h", "pain", GREAT))
    events = strike(b, ("a", VERY_HURT))
    assert not any(isinstance(e, ev.WillAgainstPain) for e in events)
    next_round(b)
    assert penalties(b) == (-1, -1)


# ------------------------------------------------------------------------------------------ Fudge 4.52


def capacity(options: RuleOptions, blow: tuple[int, ...], roll: tuple[int, ...], **hero: Any) -> ev.Wounded:
    b = fight(options, first=AXE, traits=hero)
    (w,) = wounded(strike(b, ("a", blow), health=roll))
    return w


@pytest.mark.parametrize(("roll", "level"), [(GREAT, "Scratch"), (FAIR, "Hurt"), (POOR, "Very Hurt")])
def test_fudge_4_52_a_damage_capacity_roll_on_a_hurt_wound(roll: tuple[int, ...], level: str) -> None:
    """Fudge 4.52: "Great or better: one less severe; Mediocre to Good: unchanged; Poor or worse: one more
    severe". Damage Capacity Fair, a Hurt blow."""
    w = capacity(RuleOptions(damage_capacity="roll"), HURT, roll, damage_capacity="Fair")
    assert (w.level, w.after_health, w.trait, w.health_faces) == ("Hurt", level, "Damage Capacity", roll)
    assert w.text().count("Damage Capacity [") == 1


def test_fudge_4_52_a_scratch_takes_no_damage_capacity_roll() -> None:
    b = fight(RuleOptions(damage_capacity="roll"), first=AXE)
    b.apply(gm.SetDie("h", "health", POOR))
    (w,) = wounded(strike(b, ("a", SCRATCH), health=POOR))
    assert (w.after_health, w.health_faces) == ("Scratch", ())
    assert "no Health roll" in w.text()
    assert len(b.gm_dice) == 2  # both Health rolls the GM set are still waiting


def test_fudge_4_52_without_a_damage_capacity_the_roll_is_on_health() -> None:
    """FTC 2.1 makes Health the trait of damage capacity: Health Good rolls +1 (Great): one less severe."""
    w = capacity(RuleOptions(damage_capacity="roll"), HURT, (1, 0, 0, 0), health="Good")
    assert (w.trait, w.health_result, w.after_health) == ("Health", 2, "Scratch")


def test_fudge_4_52_the_roll_on_will_and_the_roster_damage_capacity_is_no_defensive_factor() -> None:
    """Willpower instead of Damage Capacity: the roll is on Will; a roster's Damage Capacity is ignored (not a
    defensive factor); under "factor" it is one (today's reading)."""
    b = fight(RuleOptions(damage_capacity="will_roll"), first=AXE, traits={"damage_capacity": "Good", "will": "Good"})
    events = strike(b, ("a", HURT), health=(1, 0, 0, 0))
    blow = resolved(events, "a")
    assert blow.damage == 4 and not any(name.startswith("Damage Capacity") for name, _ in blow.defensive_factors)
    (w,) = wounded(events)
    assert (w.trait, w.health_result, w.after_health) == ("Will", 2, "Scratch")
    b = fight(RuleOptions(), first=AXE, traits={"damage_capacity": "Good"})
    blow = resolved(strike(b, ("a", HURT)), "a")
    assert ("Damage Capacity (Good)", 1) in blow.defensive_factors and blow.damage == 3


def test_fudge_4_52_the_point_step_moves_the_damage_number_and_reads_the_wound_anew() -> None:
    """With the point step: damage 3 (Hurt), a Great roll -> 2, a Scratch; damage 4 (Hurt), Great -> 3, still
    Hurt."""
    options = RuleOptions(damage_capacity="roll", damage_capacity_step="point")
    b = fight(options, first=KNIFE)
    events = strike(b, ("a", HURT), health=GREAT)
    assert resolved(events, "a").damage == 3
    assert wounded(events)[0].after_health == "Scratch"
    assert capacity(options, HURT, GREAT).after_health == "Hurt"  # the axe: damage 4


@pytest.mark.parametrize(
    ("trait", "blow", "level"),
    [
        ({"gifts": ["Damage Resistant"]}, HURT, "Scratch"),
        ({"gifts": ["Damage Resistant"]}, SCRATCH, "Scratch"),
        ({"faults": ["Fragile"]}, HURT, "Very Hurt"),
    ],
)
def test_fudge_4_52_damage_resistant_and_fragile_move_every_wound_a_level(
    trait: dict[str, Any], blow: tuple[int, ...], level: str
) -> None:
    """Fudge 4.52: a gift of Damage Resistant (one less severe), a fault of Fragile (one more); never below a
    Scratch. A roster trait: no option needed."""
    w = capacity(RuleOptions(), blow, EVEN, **trait)
    assert w.after_health == level
    assert bool(w.steps) == (level != {HURT: "Hurt", SCRATCH: "Scratch"}[blow])


def test_fudge_4_52_fragile_makes_no_wound_out_of_none() -> None:
    fist = {"strength": "Fair", "skills": {"Brawling": "Superb"}, "weapons": ["Fist"]}
    b = fight(RuleOptions(), first=fist, traits={"faults": ["Fragile"]})
    events = strike(b, ("a", HURT))
    assert resolved(events, "a").hit and resolved(events, "a").damage <= 0
    assert wounded(events) == []


def test_fudge_4_52_the_roster_refuses_a_gift_as_a_fault_and_both_together() -> None:
    with pytest.raises(CharacterError, match=r"lists Fragile as a gift.*move it to the faults"):
        Character.from_dict({"name": "X", "gifts": ["Fragile"]})
    with pytest.raises(CharacterError, match="lists Damage Resistant as a fault"):
        Character.from_dict({"name": "X", "faults": ["damage resistant"]})
    with pytest.raises(CharacterError, match="both Damage Resistant and Fragile"):
        Character.from_dict({"name": "X", "gifts": ["Damage Resistant"], "faults": ["Fragile"]})
    assert Character.from_dict({"name": "X", "faults": ["fragile"]}).resilience == 1


def replays(b: Battle, tmp_path: Any) -> Battle:
    """The battle saved and replayed from its save, decision for decision (digests checked on the way)."""
    from game.engine import record

    path = tmp_path / "battle.json"
    record.save(path, b, {"scenario": "heroes and wounds"})
    rec = record.load(path)
    again = record.replay(b.setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
    assert again.digests == b.digests and again.figure("h").wounds == b.figure("h").wounds
    assert [e.text(b.names()) for e in again.events] == [e.text(b.names()) for e in b.events]
    return again


def test_a_will_roll_replays_from_the_save(tmp_path: Any) -> None:
    b = fight(RuleOptions(willpower_vs_wounds="very_hurt"), first=AXE)
    b.apply(gm.SetDie("h", "pain", GREAT))
    strike(b, ("a", VERY_HURT))
    again = replays(b, tmp_path)
    assert again.figure("h").wounds.worst == WoundLevel.VERY_HURT
    assert again.figure("h").pain_relief == (WoundLevel.VERY_HURT, 1)
    assert sum(isinstance(e, ev.WillAgainstPain) for e in again.events) == 1


def test_a_fudge_point_spent_when_asked_replays_from_the_save(tmp_path: Any) -> None:
    """The pool and the spend come back from the save: a Very Hurt hero asked on a deadly wound spends his one
    point (Fudge 4.64)."""
    from tests.engine.test_rules_heroes import NINE_ON_VERY_HURT

    b = fight(RuleOptions(pc_death_fudge_point=True), wounds=["Very Hurt"], points=1)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    strike(b, ("a", NINE_ON_VERY_HURT))
    b.apply(act.SpendFudgePoint("h", True))
    again = replays(b, tmp_path)
    assert again.figure("h").wounds.worst == WoundLevel.INCAPACITATED and again.figure("h").fudge_points == 0
    (spent,) = [e for e in again.events if isinstance(e, ev.FudgePointSpent)]
    assert (spent.before, spent.after, spent.auto) == ("Near Death", "Incapacitated", False)


def test_a_battle_under_damage_capacity_rolls_by_points_replays_from_its_save(tmp_path: Any) -> None:
    options = RuleOptions(damage_capacity="roll", damage_capacity_step="point")
    b = fight(options, first=AXE, traits={"damage_capacity": "Good", "gifts": ["Damage Resistant"]})
    strike(b, ("a", VERY_HURT), health=POOR)
    replays(b, tmp_path)
