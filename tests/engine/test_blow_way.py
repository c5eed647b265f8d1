"""The blow's way (game/engine/blow.py): the steps every blow goes through, for the battle and for the odds;
with every rule option at its default it is FTC 7.3, 7.4 and 6.6 as before — no roll and no line more — and the
odds read the box a wound marks on the target's sheet as it is (Fudge 4.57), as the battle records it."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from game.engine import actions as act
from game.engine import blow, gm, odds
from game.engine import events as ev
from game.engine.battle import Battle, BattleSetup, IllegalAction
from game.engine.blow import FTC, BlowRules, Harm, Strike, Target
from game.engine.dice import (
    ONE_DF_COUNTS,
    THREE_D6_SORTED,
    TWO_DF_COUNTS,
    fudge_counts,
    roll_3d6,
    roll_4df,
    roll_fudge,
)
from game.engine.odds import chance_of_at_least, chance_out
from game.engine.preview import attack_preview
from game.engine.rule_options import OPTION_ROLLS, RuleOptions, rolls_drawn
from game.engine.terrain import TerrainMap
from game.engine.wounds import DEFAULT_TRACK, WoundLevel, Wounds
from tests.engine.test_preview_truth import resolved, to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, dice, figure, play, start
from tests.golden.scenarios import CENTRE, SIDES, east
from tests.sampling import assert_agrees, sample_attack

H, VH, INC = WoundLevel.HURT, WoundLevel.VERY_HURT, WoundLevel.INCAPACITATED


def test_fudge_dice_of_the_rule_options_have_their_exact_distributions() -> None:
    assert dict(ONE_DF_COUNTS) == {-1: 1, 0: 1, 1: 1}
    assert dict(TWO_DF_COUNTS) == {-2: 1, -1: 2, 0: 3, 1: 2, 2: 1}
    assert list(fudge_counts(4).values()) == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    rng_a, rng_b = random.Random(5), random.Random(5)
    assert [roll_fudge(rng_a, 4) for _ in range(20)] == [roll_4df(rng_b) for _ in range(20)]
    assert all(len(roll_fudge(rng_a, 1).faces) == 1 for _ in range(5))
    assert all(1 <= d <= 6 for _ in range(50) for d in roll_3d6(rng_a))


def test_fudge_4_63_three_d6_read_low_middle_high_and_added() -> None:
    """The Min, Mid and Max reads of 3d6 out of 216 (Fudge 4.63), and Max + Min, and all three added."""
    reads: dict[str, Counter[int]] = {k: Counter() for k in ("min", "mid", "max", "max+min", "all")}
    for (low, mid, high), ways in THREE_D6_SORTED.items():
        for key, value in (
            ("min", low),
            ("mid", mid),
            ("max", high),
            ("max+min", high + low),
            ("all", low + mid + high),
        ):
            reads[key][value] += ways
    assert [reads["min"][v] for v in range(1, 7)] == [91, 61, 37, 19, 7, 1]
    assert [reads["mid"][v] for v in range(1, 7)] == [16, 40, 52, 52, 40, 16]
    assert [reads["max"][v] for v in range(1, 7)] == [1, 7, 19, 37, 61, 91]
    assert [reads["max+min"][v] for v in range(2, 13)] == [1, 6, 13, 24, 37, 54, 37, 24, 13, 6, 1]
    assert [reads["all"][v] for v in range(3, 19)] == [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
    assert THREE_D6_SORTED[(2, 4, 4)] == 3  # the median is the middle value: Mid 4


@pytest.mark.parametrize(
    ("purpose", "good", "bad", "words"),
    [
        ("damage_die", (1,), (1, 1), "one Fudge die, -1, 0 or +1"),
        ("damage", (1, 0, -1, 1), (1,), "four Fudge dice"),
        ("damage_3d6", (1, 4, 6), (1, 4, 7), "three six-sided dice, each 1 to 6"),
        ("wound_situational", (1, 1, 1, 1), (2, 0, 0, 0), "four Fudge dice"),
        ("npc_group", (1, -1), (1, -1, 0, 0), "two Fudge dice, each -1, 0 or +1"),
        ("speed", (0, 0, 0, 0), (0,), "four Fudge dice"),
        ("pain", (-1, -1, -1, -1), (), "four Fudge dice"),
    ],
)
def test_the_gm_may_set_each_roll_of_the_rule_options_with_its_own_dice(
    purpose: str, good: tuple[int, ...], bad: tuple[int, ...], words: str
) -> None:
    assert gm.validate_faces(purpose, good) == good
    with pytest.raises(gm.GMActionError, match=re.escape(f"a {purpose} roll is {words}")):
        gm.validate_faces(purpose, bad)
    assert purpose in OPTION_ROLLS


def test_fudge_4_34_the_group_roll_takes_four_dice_when_a_battle_says_so() -> None:
    assert gm.validate_faces("npc_group", (1, 1, 0, 0), count=4) == (1, 1, 0, 0)
    with pytest.raises(gm.GMActionError, match="four Fudge dice"):
        gm.validate_faces("npc_group", (1, 1), count=4)


def test_a_battle_under_ftc_as_written_makes_none_of_the_rule_options_rolls() -> None:
    assert rolls_drawn(RuleOptions()) == ()
    assert set(rolls_drawn(RuleOptions(damage_roll="situational", willpower_vs_wounds="very_hurt"))) == {
        "damage",
        "pain",
    }


def test_ftc_as_written_is_the_default_blow_and_its_way_adds_no_roll_of_its_own() -> None:
    assert BlowRules.of(RuleOptions()) == FTC
    gritty = BlowRules.of(RuleOptions(damage_roll="situational", fudge_graze_table=True, sweeping_blow=2))
    assert (gritty.damage_roll, gritty.fudge_graze_table, gritty.sweeping_blow) == ("situational", True, 2)
    assert gritty.for_blow(stun=True).stun and not gritty.stun
    assert not blow.attacker_on(FTC)
    strike = Strike(FTC, 2, "torso", DEFAULT_TRACK)
    assert blow.attacker_ways(strike) == 1
    assert blow.attacker_spread(strike, Harm(4, H)) == ((Harm(4, H), 1),)
    assert blow.defender_ways(Target(FTC, "torso", Wounds(), health=0)) == 81
    assert blow.defender_ways(Target(FTC, "torso", Wounds(), health=None)) == 1


def _dice(faces: tuple[int, ...]) -> blow.Dice:
    drawn: list[tuple[str, str]] = []

    def roll(purpose: str, figure: str) -> tuple[int, ...]:
        drawn.append((purpose, figure))
        return faces

    roll.drawn = drawn  # type: ignore[attr-defined]
    return roll


def test_ftc_7_4_and_6_6_the_defenders_side_is_the_health_roll_the_limb_rule_and_the_box() -> None:
    """S9: a Great Health result lowers a Very Hurt wound one level; S10: a would-be Very Hurt arm blow is Hurt
    and cripples on a Health result below Good; S11: the box marked on the sheet, rolled up when full."""
    health_great = _dice((1, 1, 0, 0))  # Fair Health + 2 = Great
    harm, lines = blow.defender_side(Target(FTC, "torso", Wounds(), 0, "p"), Harm(5, VH), health_great)
    assert (harm.level, harm.marked, harm.roll_result, harm.out, lines) == (H, H, 2, False, ())
    assert harm.sheet is not None and harm.sheet.filled(H) == 1
    arm, _ = blow.defender_side(Target(FTC, "arm", Wounds(), 0, "p"), Harm(5, VH), _dice((0, 0, 0, 0)))
    assert (arm.level, arm.crippled) == (H, True)
    hurt_full = Wounds().record(H)[0].record(VH)[0]
    rolled_up, _ = blow.defender_side(Target(FTC, "torso", hurt_full, 0, "p"), Harm(3, H), _dice((0, 0, 0, 0)))
    assert (rolled_up.level, rolled_up.marked, rolled_up.out) == (H, INC, True)


def test_fudge_4_57_the_odds_count_the_box_a_wound_marks_on_a_wounded_target_as_the_battle_marks_it() -> None:
    """A peasant carrying Hurt and Very Hurt (both boxes full): a Hurt blow marks Incapacitated and takes him
    out. The preview's chance of taking him out is above its chance of an Incapacitated wound, and with every
    roll set through the GM's seat its one outcome is the box the round's resolution marks."""
    guard = figure("g", "blue", "guard", CENTRE, 0)
    peasant = figure("p", "red", "peasant", east(CENTRE), 3, wounds=["Hurt", "Very Hurt"])
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (guard, peasant), RuleOptions(), 0), g=DOWN, p=EVEN)
    to_declaration(b, "g")
    pv = attack_preview(b, "g", "Broadsword", "p")
    assert chance_out(pv.distribution) > chance_of_at_least(pv.distribution, INC)
    assert any(o.level == H and o.marked == INC and o.out for o in pv.distribution)
    # Superb -1 = Great against Mediocre -1 (Very Hurt) +2: degree +2, damage 4, Hurt; Health Fair +0
    dice(b, g=("combat", (-1, 0, 0, 0)), p=("combat", (1, 1, 0, 0)))
    b.apply(gm.SetDie("p", "health", EVEN))
    certain = attack_preview(b, "g", "Broadsword", "p").distribution
    assert len(certain) == 1
    (outcome,) = certain
    assert (outcome.level, outcome.marked, outcome.out) == (H, INC, True)
    events = b.apply(act.Declare("g", "neutral", ("p",), "Broadsword"))
    events += play(b, lambda b_, d: None, phase="movement")  # the peasant defends only; the round resolves
    assert resolved(events, "g").wound == "Hurt"
    wound = next(e for e in events if isinstance(e, ev.Wounded) and e.figure == "p")
    assert (wound.after_health, wound.box) == ("Hurt", "Incapacitated")
    assert not b.figure("p").can_act


def test_an_event_without_steps_or_a_source_keeps_the_json_it_had() -> None:
    roll = ev.CombatRoll("a", (1, 0, 0, -1))
    assert roll.to_json() == {"kind": "combat_roll", "figure": "a", "faces": [1, 0, 0, -1]}
    assert ev.CombatRoll("a", (), source="npc_zero").to_json()["source"] == "npc_zero"
    wound = ev.Wounded("p", 4, "Hurt", (0, 0, 0, 0), 0, "Hurt", "Hurt")
    assert "steps" not in wound.to_json()
    step = ev.BlowStep("Fudge 4.61", "damage roll, limited to +2", (1, 1, 0, 1), "2", "4")
    stepped = ev.Wounded("p", 4, "Hurt", (0, 0, 0, 0), 0, "Hurt", "Hurt", steps=(step,))
    assert stepped.to_json()["steps"] == [
        {"rule": "Fudge 4.61", "what": "damage roll, limited to +2", "faces": [1, 1, 0, 1], "before": "2", "after": "4"}
    ]
    assert "damage roll, limited to +2 [+ + 0 +] = +3 (Fudge 4.61): 2 → 4" in stepped.text()
    three = ev.BlowStep("Fudge 4.63", "Min-Mid-Max: read Max", (1, 2, 3), "", "3")
    assert "[1 2 3]" in three.text()


# ------------------------------------------------------------------------------------------ a step plugged in


@dataclass(frozen=True)
class OneDie:
    """A step as a rule option's package writes one (here S4, Fudge 4.61's one die on the damage number): on
    when its option is, one draw of its own purpose in a battle, the same roll spread exactly for the odds."""

    label: str = "S4"

    def on(self, rules: BlowRules) -> bool:
        return rules.damage_roll == "one_die"

    def ways(self, facts: blow.Facts) -> int:
        return 3

    def play(self, facts: blow.Facts, harm: Harm, dice: blow.Dice) -> tuple[Harm, tuple[ev.BlowStep, ...]]:
        assert isinstance(facts, Strike)
        faces = dice("damage_die", facts.attacker)
        return self._rolled(facts, harm, sum(faces)), (
            ev.BlowStep("Fudge 4.61", "damage die", faces, str(harm.number), str(harm.number + sum(faces))),
        )

    def spread(self, facts: blow.Facts, harm: Harm) -> blow.Spread:
        assert isinstance(facts, Strike)
        fixed = facts.set_total("damage_die")
        rolls = ONE_DF_COUNTS.items() if fixed is None else ((fixed, 3),)
        return tuple((self._rolled(facts, harm, r), w) for r, w in rolls)

    @staticmethod
    def _rolled(facts: Strike, harm: Harm, r: int) -> Harm:
        number = harm.number + r
        level = blow.read_level(number, facts.relative_degree, facts.track, facts.rules.fudge_graze_table)
        return Harm(number, level)


@pytest.fixture
def one_die(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The S4 slot of the way holding ``OneDie`` (the way's caches cleared before and after)."""

    def clear() -> None:
        odds.clear_caches()

    monkeypatch.setattr(blow, "ATTACKER_WAY", (OneDie(), *blow.ATTACKER_WAY[1:]))
    clear()
    yield
    clear()


def _duel(options: RuleOptions) -> Battle:
    guard = figure("g", "blue", "guard", CENTRE, 0)
    peasant = figure("p", "red", "peasant", east(CENTRE), 3)
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (guard, peasant), options, 0), g=DOWN, p=EVEN)
    to_declaration(b, "g")
    return b


@pytest.mark.usefixtures("one_die")
def test_a_step_in_the_way_acts_in_the_battle_and_in_the_odds_alike() -> None:
    """With a step in S4 and its option on, the GM may set its die; the preview with every roll set is the one
    outcome the battle then resolves, the step's line in the blow's log; without the option nothing changes."""
    options = RuleOptions(damage_roll="one_die")
    b = _duel(options)
    assert set(rolls_drawn(options)) == {"damage_die"}
    before = attack_preview(b, "g", "Broadsword", "p").distribution
    assert sum(before.values()) == 1
    # Great against Mediocre + 1: degree +2, damage 4 (Hurt); the die +1 makes it 5, Very Hurt
    dice(b, g=("combat", (-1, 0, 0, 0)), p=("combat", (1, 0, 0, 0)))
    b.apply(gm.SetDie("g", "damage_die", (1,)))
    b.apply(gm.SetDie("p", "health", EVEN))
    (certain,) = attack_preview(b, "g", "Broadsword", "p").distribution
    assert (certain.level, certain.marked) == (VH, VH)
    events = b.apply(act.Declare("g", "neutral", ("p",), "Broadsword"))
    events += play(b, lambda b_, d: None, phase="movement")
    blow_event = resolved(events, "g")
    assert (blow_event.damage, blow_event.wound) == (5, "Very Hurt")
    assert [s.text() for s in blow_event.steps] == ["damage die [+] = +1 (Fudge 4.61): 4 → 5"]
    assert "damage die [+] = +1 (Fudge 4.61): 4 → 5" in blow_event.text()
    plain = _duel(RuleOptions())
    with pytest.raises(IllegalAction, match="A battle makes no damage_die roll"):
        plain.apply(gm.SetDie("g", "damage_die", (1,)))


@pytest.mark.slow
@pytest.mark.usefixtures("one_die")
def test_a_step_in_the_way_is_sampled_as_the_odds_spread_it() -> None:
    """The sampling harness (tests/sampling.py) on the same step: its dice drawn in the battle are the odds'."""
    setup = BattleSetup(
        TerrainMap.open(12, 10),
        SIDES,
        (figure("g", "blue", "guard", CENTRE, 0), figure("p", "red", "peasant", east(CENTRE), 3)),
        RuleOptions(),
        0,
    )
    declaration = act.Declare("g", "neutral", ("p",), "Broadsword")
    sample = sample_attack(
        setup, RuleOptions(damage_roll="one_die"), initiative={"g": DOWN, "p": EVEN}, declaration=declaration, n=4000
    )
    assert_agrees(sample.preview.distribution, sample.counts, 4000)
