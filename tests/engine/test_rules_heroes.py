"""*Fudge* 4.64, PC death, in whole battles (docs/rulings.md "PC death and Fudge Points"): "PC death should come
from self-sacrifice or stupidity, not a bad roll", three methods for heroes (player characters and major NPCs,
never NPC pawns) — at most three wound levels from one blow; Near Death only for a hero who began the round
Incapacitated; a Fudge Point converts a deadly wound to a merely serious one.

Every blow is driven through the door with its dice set from the GM's seat: a bruiser (Superb Strength +3, Battle
Axe +4) strikes an unarmoured peasant; the relative degree is asserted first, then the damage, then the box.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, BattleSetup, IllegalAction, Reason, RuleOptions, Seat, apply, legal_actions
from game.engine.heroes import NOT_RECORDED
from game.engine.hexgrid import Hex
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel
from tests.engine.test_preview_truth import resolved, to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, figure, start
from tests.golden.scenarios import SIDES
from tests.helpers import do_little

HERO = Hex(4, 4)
WEST = Hex(3, 4)  # the first bruiser, facing east at the hero
NORTH = Hex(4, 3)  # the second, facing south-east at him
# The hero defends rolling +4: Mediocre Axe +4 = Great, -2 parrying the Battle Axe (a larger weapon, FTC 6.4.1),
# -1 parrying a Large Axe; a Very Hurt hero (his carried wound hurting at once) one less again.
NINE = (0, 0, 0, 0)  # Superb Axe +0 against Good: relative degree +2, damage 2 + 3 + 4 = 9, Near Death
SEVEN = (1, 0, 0, 0)  # the lighter bruiser, Superb +1 against Great -1 = Good: degree +2, damage 2 + 2 + 3 = 7
NINE_ON_VERY_HURT = (0, 0, 0, -1)  # Great against Fair: degree +2, damage 9
SEVEN_ON_VERY_HURT = (0, 0, 0, 0)  # Superb against Good: degree +2, damage 7

ONE: dict[str, Any] = {}
"""The first bruiser as the catalogue has him (damage 9 at relative degree +2)."""
LIGHTER: dict[str, Any] = {"strength": "Great", "weapons": ["Large Axe"]}
"""A bruiser with Great Strength (+2) and a Large Axe (+3): damage 7 at relative degree +2 (Incapacitated)."""

HEROIC = RuleOptions(
    pc_death_max_three_levels=True,
    pc_death_near_death_if_incapacitated=True,
    pc_death_fudge_point=True,
    fudge_points_default=3,
)


def fight(
    options: RuleOptions,
    *,
    role: str = "pc",
    wounds: list[str] | None = None,
    points: int | None = None,
    first: dict[str, Any] = ONE,
    second: dict[str, Any] | None = None,
    track: Any = None,
    friend: bool = True,
    traits: dict[str, Any] | None = None,
) -> Battle:
    """A refereed battle at round 2's first declaration: the hero ``h`` (a peasant of ``role``) against one or two
    bruisers (``a``, then ``a2``), a friend of the hero's far away (so the battle goes on when he falls); ``traits``
    changes the hero's character."""
    hero_traits: dict[str, Any] = dict(traits or {})
    if wounds is not None:
        hero_traits["wounds"] = wounds
    if track is not None:
        hero_traits["wound_track"] = track
    figs = [
        replace(figure("h", "blue", "peasant", HERO, 3, **hero_traits), role=role, fudge_points=points),
        figure("a", "red", "bruiser", WEST, 0, **first),
    ]
    if second is not None:
        figs.append(figure("a2", "red", "bruiser", NORTH, 5, **second))
    if friend:
        figs.append(figure("f", "blue", "peasant", Hex(9, 1), 3))
    rolls = {"a": UP, "a2": (1, 1, 1, 0), "h": DOWN, "f": DOWN}  # a strikes first, then a2; declared in reverse
    initiative = {f.id: rolls[f.id] for f in figs}
    return start(BattleSetup(TerrainMap.open(12, 10), SIDES, tuple(figs), options, 0), **initiative)


def strike(b: Battle, *rolls: tuple[str, tuple[int, ...]], health: tuple[int, ...] = EVEN) -> list[ev.Event]:
    """Each bruiser named in ``rolls`` strikes the hero with its roll (the hero rolling +4 to defend, his Health
    rolls set to ``health``); the round is resolved. The events of the declarations on."""
    others = {a: act.Declare(a, "neutral", ("h",), b.figures[a].character.ready_weapon.name) for a, _ in rolls}
    # declarations go in reverse initiative order: the first to strike declares last
    to_declaration(b, rolls[0][0], {k: v for k, v in others.items() if k != rolls[0][0]})
    for fid, faces in rolls:
        b.apply(gm.SetDie(fid, "combat", faces))
        b.apply(gm.SetDie("h", "health", health))
    b.apply(gm.SetDie("h", "combat", UP))
    events = b.apply(others[rolls[0][0]])
    while not b.over and b.phase != "movement":  # to the next round, or to a Fudge Point question
        d = legal_actions(b)
        assert d is not None
        if d.reason == Reason.FUDGE_POINT:
            break
        events += b.apply(do_little(d))
    return events


def wounded(events: list[ev.Event], fid: str = "h") -> list[ev.Wounded]:
    return [e for e in events if isinstance(e, ev.Wounded) and e.figure == fid]


# ------------------------------------------------------------------------------------------ method 1


def test_fudge_4_64_an_unwounded_hero_takes_at_most_very_hurt_from_one_blow_an_npc_near_death() -> None:
    """Fudge 4.64: "an unwounded character can be Scratched, Hurt or Very Hurt ... but not Incapacitated or Near
    Death" from one blow. The same blow of damage 9 marks Very Hurt on the hero, Near Death on an NPC pawn."""
    options = RuleOptions(pc_death_max_three_levels=True)
    events = strike(fight(options), ("a", NINE))
    blow = resolved(events, "a")
    assert (blow.relative_degree, blow.damage, blow.wound) == (2, 9, "Near Death")
    (w,) = wounded(events)
    assert w.box == "Very Hurt"
    assert [(s.what, s.before, s.after) for s in w.steps] == [("at most three levels", "Near Death", "Very Hurt")]
    assert "at most three levels (Fudge 4.64): Near Death → Very Hurt" in w.text()
    (npc,) = wounded(strike(fight(options, role="npc"), ("a", NINE)))
    assert npc.box == "Near Death" and npc.steps == ()


def test_fudge_4_64_a_hurt_hero_may_go_all_the_way_to_near_death_a_scratched_one_to_incapacitated() -> None:
    """Fudge 4.64: "a Hurt character could go all the way to Near Death, but not be killed outright"."""
    options = RuleOptions(pc_death_max_three_levels=True)
    (hurt,) = wounded(strike(fight(options, wounds=["Hurt"]), ("a", NINE)))
    assert (hurt.level, hurt.box, hurt.steps) == ("Near Death", "Near Death", ())
    (scratched,) = wounded(strike(fight(options, wounds=["Scratch"]), ("a", NINE)))
    assert scratched.box == "Incapacitated"


def test_fudge_4_64_each_blow_reads_the_sheet_the_blow_before_it_left() -> None:
    """Two bruisers strike a Hurt hero in one round: the first marks Near Death (Hurt + 3), the second reads Near
    Death as the worst and goes beyond the track, the GM's call, as it would without the option."""
    b = fight(RuleOptions(pc_death_max_three_levels=True), wounds=["Hurt"], second=ONE)
    events = strike(b, ("a", NINE), ("a2", NINE))
    assert [w.box for w in wounded(events)] == ["Near Death", "Near Death"]
    assert b.figure("h").wounds.overflowed


def test_fudge_4_64_the_excess_is_lost_when_the_capped_wound_would_still_roll_past_the_cap() -> None:
    """On a track of Hurt and Incapacitated only, damage 9 on an unwounded hero is lowered to Very Hurt, which the
    track lacks, so it would mark Incapacitated (above the cap of three levels): it is not recorded."""
    track = {"levels": ["Hurt", "Incapacitated"], "damage": [1, 5], "boxes": [1, 1]}
    b = fight(RuleOptions(pc_death_max_three_levels=True), track=track)
    events = strike(b, ("a", NINE))
    (w,) = wounded(events)
    assert w.box == NOT_RECORDED
    assert [s.what for s in w.steps] == ["at most three levels", "excess lost"]
    assert b.figure("h").wounds.worst is None and b.figure("h").can_act
    assert not any(isinstance(e, ev.TakenOut) for e in events)


# ------------------------------------------------------------------------------------------ method 2


def test_fudge_4_64_near_death_only_for_a_hero_who_began_the_round_incapacitated() -> None:
    """Fudge 4.64: "a PC cannot be reduced to Near Death unless he began that combat round Incapacitated". A Very
    Hurt hero takes damage 9: Incapacitated. Two blows in one round, 7 then 9: Incapacitated, then not recorded.
    An NPC pawn under the same blows: Near Death."""
    options = RuleOptions(pc_death_near_death_if_incapacitated=True)
    events = strike(fight(options, wounds=["Very Hurt"]), ("a", NINE_ON_VERY_HURT))
    assert (resolved(events, "a").relative_degree, resolved(events, "a").damage) == (2, 9)
    (w,) = wounded(events)
    assert (w.box, [s.what for s in w.steps]) == ("Incapacitated", ["Near Death only from Incapacitated"])
    b = fight(options, wounds=["Very Hurt"], first=LIGHTER, second=ONE)
    events = strike(b, ("a", SEVEN_ON_VERY_HURT), ("a2", NINE_ON_VERY_HURT))
    assert [(resolved(events, a).relative_degree, resolved(events, a).damage) for a in ("a", "a2")] == [(2, 7), (2, 9)]
    assert [w.box for w in wounded(events)] == ["Incapacitated", NOT_RECORDED]
    assert b.figure("h").wounds.worst == WoundLevel.INCAPACITATED
    npc = fight(options, role="npc", wounds=["Very Hurt"], first=LIGHTER, second=ONE)
    boxes = [w.box for w in wounded(strike(npc, ("a", SEVEN_ON_VERY_HURT), ("a2", NINE_ON_VERY_HURT)))]
    assert boxes == ["Incapacitated", "Near Death"]


@pytest.mark.parametrize(("role", "protected"), [("major_npc", True), ("npc", False), ("pc", True)])
def test_fudge_4_64_major_npcs_are_protected_run_of_the_mill_npcs_are_not(role: str, protected: bool) -> None:
    """Fudge 4.64: "These should not be used for run-of-the-mill NPCs, but could be used for major ones"."""
    (w,) = wounded(strike(fight(RuleOptions(pc_death_max_three_levels=True), role=role), ("a", NINE)))
    assert w.box == ("Very Hurt" if protected else "Near Death")


# ------------------------------------------------------------------------------------------ method 3


def test_fudge_4_64_a_hero_whose_order_is_ask_is_asked_before_the_next_round() -> None:
    """Fudge 4.64: "a player may spend a Fudge Point to convert a deadly wound to a merely serious one". With the
    order "ask" the deadly mark is made and the hero's side is asked, before the next round begins; spending makes
    it Incapacitated and leaves no point; the other side may not answer for him."""
    b = fight(RuleOptions(pc_death_fudge_point=True), points=1)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    events = strike(b, ("a", NINE))
    assert [w.box for w in wounded(events)] == ["Near Death"]
    d = legal_actions(b)
    assert d is not None and (d.reason, d.side, d.figure, d.kinds) == (
        Reason.FUDGE_POINT,
        "blue",
        "h",
        ("spend_fudge_point",),
    )
    assert d.prompt == "H would be Near Death: spend a Fudge Point (1 left) to be Incapacitated instead?"
    assert b.round == 2 and not any(isinstance(e, ev.RoundBegan) for e in events)
    with pytest.raises(IllegalAction, match="own side"):
        apply(b, act.SpendFudgePoint("h", True), Seat.of_side("red"))
    with pytest.raises(IllegalAction, match="First this"):
        apply(b, act.Move("a"), Seat.of_side("red"))
    answer = apply(b, act.SpendFudgePoint("h", True), Seat.of_side("blue"))
    spent = next(e for e in answer if isinstance(e, ev.FudgePointSpent))
    assert (spent.before, spent.after, spent.left, spent.auto) == ("Near Death", "Incapacitated", 0, False)
    assert "H spends a Fudge Point (Fudge 4.64): Near Death → Incapacitated (0 left)" in spent.text({"h": "H"})
    assert b.figure("h").wounds.worst == WoundLevel.INCAPACITATED and b.figure("h").fudge_points == 0
    assert any(isinstance(e, ev.RoundBegan) for e in answer) and b.round == 3


def test_fudge_4_64_keeping_the_points_lets_the_deadly_wound_stand() -> None:
    b = fight(RuleOptions(pc_death_fudge_point=True), points=2)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    strike(b, ("a", NINE))
    answer = b.apply(act.SpendFudgePoint("h", False))
    kept = next(e for e in answer if isinstance(e, ev.FudgePointKept))
    assert (kept.box, kept.left) == ("Near Death", 2)
    assert b.figure("h").wounds.worst == WoundLevel.NEAR_DEATH and b.figure("h").fudge_points == 2


@pytest.mark.parametrize(
    ("order", "points", "enabled", "box", "left"),
    [
        ("always", 2, True, "Incapacitated", 1),
        ("never", 2, True, "Near Death", 2),
        ("ask", 0, True, "Near Death", 0),
        ("ask", 2, False, "Near Death", 2),
    ],
)
def test_fudge_4_64_always_spends_at_once_never_and_an_empty_pool_and_the_option_off_ask_nothing(
    order: str, points: int, enabled: bool, box: str, left: int
) -> None:
    b = fight(RuleOptions(pc_death_fudge_point=enabled), points=points)
    b.apply(act.SetFudgePointOrder("h", order))
    events = strike(b, ("a", NINE))
    (w,) = wounded(events)
    assert w.box == box and b.figure("h").fudge_points == left
    assert any(isinstance(e, ev.RoundBegan) for e in events)  # nobody was asked: the next round began
    auto = [e for e in events if isinstance(e, ev.FudgePointSpent)]
    assert [(e.before, e.after, e.auto) for e in auto] == ([("Near Death", "Incapacitated", True)] if left == 1 else [])


def test_fudge_4_64_with_the_incapacitated_box_full_the_spent_point_leaves_the_wound_unrecorded() -> None:
    """Two blows in one round: the first marks Incapacitated, the second would mark Near Death; the point spent on
    it leaves it unrecorded (the Incapacitated box is full): the hero stays Incapacitated."""
    for order in ("always", "ask"):
        b = fight(RuleOptions(pc_death_fudge_point=True), points=1, first=LIGHTER, second=ONE)
        b.apply(act.SetFudgePointOrder("h", order))
        events = strike(b, ("a", SEVEN), ("a2", NINE))
        if order == "ask":
            events += b.apply(act.SpendFudgePoint("h", True))
        spent = next(e for e in events if isinstance(e, ev.FudgePointSpent))
        assert (spent.before, spent.after) == ("Near Death", NOT_RECORDED), order
        assert b.figure("h").wounds.worst == WoundLevel.INCAPACITATED, order
        assert b.figure("h").wounds.filled(WoundLevel.NEAR_DEATH) == 0, order


def test_fudge_4_64_the_question_is_asked_even_when_the_round_ends_the_battle() -> None:
    """The hero is his side's last figure able to fight: the question comes first, then the battle ends."""
    b = fight(RuleOptions(pc_death_fudge_point=True), points=1, friend=False)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    events = strike(b, ("a", NINE))
    assert not b.over and not any(isinstance(e, ev.BattleEnded) for e in events)
    assert legal_actions(b).reason == Reason.FUDGE_POINT  # type: ignore[union-attr]
    answer = b.apply(act.SpendFudgePoint("h", True))
    assert isinstance(answer[-1], ev.BattleEnded) and b.over and b.winner == "red"


def test_fudge_4_64_a_hero_starts_with_the_default_points_unless_his_roster_entry_gives_some() -> None:
    """``fudge_points_default`` fills a hero's pool when his roster entry gives none; an NPC pawn gets none; a
    roster's 0 beats the default."""
    options = RuleOptions(pc_death_fudge_point=True, fudge_points_default=2)
    assert fight(options).figure("h").fudge_points == 2
    assert fight(options, role="npc").figure("h").fudge_points == 0
    assert fight(options, points=0).figure("h").fudge_points == 0
    assert fight(RuleOptions(fudge_points_default=2)).figure("h").fudge_points == 0  # the option is off


def test_fudge_4_64_the_gms_automatic_death_takes_precedence_over_every_method() -> None:
    """Fudge 4.64: 4.51's "automatic death" takes precedence: the GM's Edit wounds may mark Near Death on a hero
    under all three methods."""
    b = fight(HEROIC)
    d = legal_actions(b)
    assert d is not None
    b.apply(gm.EndRound("the GM's call"))
    b.apply(gm.EditWounds("h", {"Near Death": ["Near Death"]}))
    assert b.figure("h").wounds.worst == WoundLevel.NEAR_DEATH and not b.figure("h").can_act


def test_fudge_4_64_the_gm_sets_a_pool_and_only_the_gm() -> None:
    b = fight(HEROIC)
    with pytest.raises(IllegalAction, match="Only the GM"):
        apply(b, gm.SetFudgePoints("h", 5), Seat.of_side("blue"))
    said = apply(b, gm.SetFudgePoints("h", 5, "a saint's blessing"), Seat.game_master())
    assert b.figure("h").fudge_points == 5
    assert "changes H's Fudge Points: 3 → 5 — a saint's blessing" in said[0].text({"h": "H"})
    with pytest.raises(IllegalAction, match="outside the range 0 to 20"):
        apply(b, gm.SetFudgePoints("h", 21), Seat.game_master())


def test_fudge_4_64_a_standing_order_is_one_of_three_and_the_figures_side_sets_it() -> None:
    b = fight(HEROIC)
    with pytest.raises(IllegalAction, match="always, ask, never"):
        b.apply(act.SetFudgePointOrder("h", "sometimes"))
    with pytest.raises(IllegalAction, match="own side"):
        apply(b, act.SetFudgePointOrder("h", "never"), Seat.of_side("red"))
    said = apply(b, act.SetFudgePointOrder("h", "never"), Seat.of_side("blue"))
    assert said == [ev.FudgePointOrderSet("h", "never")] and b.figure("h").fudge_order == "never"


def test_fudge_4_64_no_question_is_open_a_spend_is_refused() -> None:
    b = fight(HEROIC)
    with pytest.raises(IllegalAction, match="no deadly wound"):
        b.apply(act.SpendFudgePoint("h", True))


def test_fudge_4_64_under_secret_stances_the_question_comes_after_the_reveal_and_the_blows() -> None:
    b = fight(RuleOptions(secret_stances=True, pc_death_fudge_point=True), points=1)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    events = strike(b, ("a", NINE))
    kinds = [type(e) for e in events]
    assert kinds.index(ev.Revealed) < kinds.index(ev.Wounded)
    d = legal_actions(b)
    assert d is not None and (d.reason, d.side) == (Reason.FUDGE_POINT, "blue")


def test_fudge_4_64_the_gms_seat_does_not_answer_for_a_hero_the_gm_playing_his_side_does() -> None:
    b = fight(RuleOptions(pc_death_fudge_point=True), points=1)
    b.apply(act.SetFudgePointOrder("h", "ask"))
    strike(b, ("a", NINE))
    with pytest.raises(IllegalAction, match="The GM's seat takes GM decisions"):
        apply(b, act.SpendFudgePoint("h", True), Seat.game_master())
    apply(b, gm.SetFudgePoints("h", 2, "the GM is kind"), Seat.game_master())  # the GM may still act meanwhile
    d = legal_actions(b)
    assert d is not None and d.prompt.endswith("(2 left) to be Incapacitated instead?")
    played = Battle(replace(b.setup, gm="blue"))
    for a in b.log:
        played.apply(a)
    assert played.digests == b.digests
    apply(played, act.SpendFudgePoint("h", True), Seat.of_side("blue"))
    assert played.figure("h").fudge_points == 1


def test_fudge_4_64_a_heros_reinforcement_brings_the_default_points() -> None:
    b = fight(RuleOptions(pc_death_fudge_point=True, fudge_points_default=2))
    b.apply(gm.AddFigure("h2", "blue", Hex(6, 8), 0, "Squire", roster_key="peasant"))
    assert b.figure("h2").is_hero and b.figure("h2").fudge_points == 2
