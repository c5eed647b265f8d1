"""The GM's seat in a battle: every GM decision through ``Battle.apply``, its effect on the numbers,
refusals that change nothing, and every decision surviving save, load and replay (*Fudge* 4.1, FTC 5.3,
table 7).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.battle import Battle, Decision, IllegalAction, legal_actions
from game.engine.combat import Modifier, Stance
from game.engine.hexgrid import Hex
from game.engine.terrain import TerrainMap, TerrainType
from game.engine.wounds import WoundLevel, Wounds
from tests.golden.scenarios import CENTRE, SCENARIOS, east, skirmish
from tests.golden.scenarios import duel as duel_setup
from tests.helpers import do_little, refereed

AWAY = ((east(CENTRE, 2), 0), (east(CENTRE, 3), 0))


def duel(seed: int = 0) -> Battle:
    """Two brigands face to face: a (blue) at the centre, z (red) east of it."""
    return refereed(duel_setup()(seed))


def snapshot(b: Battle) -> tuple[object, ...]:
    """Everything an illegal action must leave as it was."""
    figs = tuple((f.id, f.hex, f.facing, f.wounds, f.out, f.moved, f.held, f.character) for f in b.figures.values())
    return (
        figs,
        len(b.log),
        len(b.events),
        b.rng.draws,
        b.gm_state,
        tuple(b.gm_dice),
        dict(b.gm_escape),
        b.round,
        b.phase,
        b.over,
        b.decision(),
        tuple(b.order),
    )


def refused(b: Battle, action: act.Action, words: str) -> None:
    """The action raises IllegalAction naming ``words`` and changes nothing."""
    before = snapshot(b)
    with pytest.raises(IllegalAction, match=words):
        b.apply(action)
    assert snapshot(b) == before


def strike_first(b: Battle, d: Decision) -> act.Action:
    """Do as little as the rules allow (``do_little``), but declare an attack on an enemy in reach."""
    if d.reason == "declare":
        fid = d.figure or ""
        return act.Declare(fid, "neutral", tuple(b.targets_for(fid)[:1]))
    return do_little(d)


def play_round(b: Battle) -> list[ev.Event]:
    """Play the current round to its end with ``default``."""
    start, out = b.round, []
    while not b.over and b.round == start:
        d = legal_actions(b)
        assert d is not None
        out.extend(b.apply(strike_first(b, d)))
    return out


def until_move_of(b: Battle, fid: str) -> None:
    """Play ``default`` until it is ``fid``'s turn to move."""
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "move" and d.figure == fid:
            return
        b.apply(strike_first(b, d))


def gm_texts(events: list[ev.Event], b: Battle) -> list[str]:
    return [e.text(b.names()) for e in events if isinstance(e, ev.GMActed | ev.EscapeOverridden)]


# ------------------------------------------------------------------------------------------ the seat


def test_gm_actions_need_a_gm_seat() -> None:
    """Without a GM seat in the setup every GM action is refused, and nothing changes."""
    b = Battle(duel_setup()(0))
    refused(b, gm.SituationalModifier("m", "a", 1), "no GM seat; mark a player as GM")
    refused(b, gm.EndBattle("blue"), "no GM seat")


def test_gm_seat_is_a_side_or_the_referee() -> None:
    """The seat names a side of the battle, or "referee" for a GM who plays no side."""
    assert Battle(replace(duel_setup()(0), gm="red")).setup.gm == "red"
    with pytest.raises(ValueError, match="GM's seat"):
        Battle(replace(duel_setup()(0), gm="green"))


def test_gm_seat_changes_no_decision_and_no_roll() -> None:
    """A GM seat alone changes nothing: the same opening, the same decisions (computer players ignore it)."""
    plain, seated = Battle(skirmish(3)), refereed(skirmish(3))
    assert plain.initial_digest == seated.initial_digest
    for _ in range(12):
        d = legal_actions(plain)
        assert d == legal_actions(seated) and d is not None
        assert plain.apply(strike_first(plain, d)) == seated.apply(strike_first(seated, d))


# ------------------------------------------------------------------------------------------ modifiers


def test_fudge_4_1_situational_modifier_counts_in_attack_terms_and_offence() -> None:
    """+2 on a figure for this round: in the odds' attack terms, in its offence and in its defence."""
    b = duel()
    events = b.apply(gm.SituationalModifier("hill", "a", 2, "high ground"))
    assert gm_texts(events, b) == ["GM: +2 to A's rolls this round — high ground"]
    a, z = b.figures["a"], b.figures["z"]
    terms = b.attack_terms(a, z, a.character.ready_weapon, Stance.NEUTRAL)
    assert Modifier("GM: high ground", 2) in terms.modifiers
    assert b.gm_modifiers_on("a") and not b.gm_modifiers_on("z")
    attacks = [e for e in play_round(b) if isinstance(e, ev.AttackResolved)]
    by_a = next(e for e in attacks if e.attacker == "a")
    on_a = next(e for e in attacks if e.attacker == "z")
    assert ("GM: high ground", 2) in by_a.offence_mods
    assert by_a.offence == by_a.skill + by_a.roll + sum(v for _, v in by_a.offence_mods)
    assert ("GM: high ground", 2) in on_a.defence_mods
    assert all(n != "GM: high ground" for n, _ in on_a.offence_mods)


def test_fudge_4_1_a_round_modifier_lapses_and_a_standing_one_lasts_until_removed() -> None:
    """ "This round" ends at the next round; "until removed" lasts until the GM lifts it by its id."""
    b = duel()
    b.apply(gm.SituationalModifier("now", "a", 1, "surprise"))
    b.apply(gm.SituationalModifier("fog", "red", -1, "fog", "removed"))
    play_round(b)
    assert b.round == 2
    assert b.gm_modifiers_on("a") == ()
    assert [m.id for m in b.gm_modifiers_on("z")] == ["fog"]
    assert b.gm_terms(b.figures["z"]) == (Modifier("GM: fog", -1),)
    events = b.apply(gm.RemoveModifier("fog"))
    assert gm_texts(events, b) == ["GM: lifts -1 on Red — fog"]
    assert b.gm_terms(b.figures["z"]) == ()


def test_fudge_4_1_the_gm_modifiers_on_a_figure_add_up_to_at_most_three() -> None:
    """A figure's own and its side's modifiers add up, held to -3..+3."""
    b = duel()
    b.apply(gm.SituationalModifier("m1", "a", 3, "hill"))
    b.apply(gm.SituationalModifier("m2", "blue", 2, "morale"))
    assert sum(m.value for m in b.gm_terms(b.figures["a"])) == 3


def test_fudge_4_1_a_modifier_out_of_range_or_on_nobody_is_refused() -> None:
    """-3..+3 only, on a figure or side of the battle; an unknown id cannot be removed."""
    b = duel()
    refused(b, gm.SituationalModifier("m", "a", 4), "from -3 to \\+3")
    refused(b, gm.SituationalModifier("m", "nobody", 1), "no figure or side 'nobody'")
    refused(b, gm.RemoveModifier("ghost"), "no GM modifier or condition 'ghost'")


def test_ftc_5_3_the_gm_modifier_counts_in_the_escape_contest() -> None:
    """A modifier on the mover is one of its named terms in the escape contest."""
    b = refereed(SCENARIOS["zoc_swift_vs_peasant"](0))
    b.apply(gm.SituationalModifier("slip", "m", -2, "slippery"))
    until_move_of(b, "m")
    contest = next(e for e in b.apply(act.Move("m", AWAY)) if isinstance(e, ev.EscapeContest))
    assert ("GM: slippery", -2) in contest.mover_mods
    assert contest.mover_result == contest.mover_level - 2 + sum(contest.mover_faces)


# ------------------------------------------------------------------------------------------ conditions


def _archer_duel(light: int = 0) -> Battle:
    setup = SCENARIOS["shot_past_enemy"](0)
    dim = TerrainMap.build(
        setup.terrain.width, setup.terrain.height, (TerrainType("dim", light=light),), setup.terrain.terrain
    )
    return refereed(replace(setup, terrain=dim))


def test_table_7_bad_light_over_the_battlefield_hinders_the_shot() -> None:
    """Bad light -2 from the GM is table 7's "Bad light" term of the firer's shot."""
    b = _archer_duel()
    a, t = b.figures["a"], b.figures["t"]
    bow = a.character.weapons[0]
    assert all(m.name != "Bad light" for m in b.attack_terms(a, t, bow, Stance.NEUTRAL).modifiers)
    events = b.apply(gm.BattleCondition("dusk", "bad_light", -2, reason="dusk"))
    assert gm_texts(events, b) == ["GM: bad light -2 over the battlefield (table 7) — dusk"]
    assert Modifier("Bad light", -2) in b.attack_terms(a, t, bow, Stance.NEUTRAL).modifiers


def test_table_7_the_worse_of_the_map_and_the_gm_counts() -> None:
    """The map's light -1 (a Tiled property) and the GM's -2 give -2, not -3; a region elsewhere gives nothing."""
    b = _archer_duel(light=-1)
    a = b.figures["a"]
    assert b.light_at(a.hex) == -1
    b.apply(gm.BattleCondition("far", "bad_light", -3, (b.figures["t"].hex,)))
    assert b.light_at(a.hex) == -1
    b.apply(gm.BattleCondition("here", "bad_light", -2, (a.hex,)))
    assert b.light_at(a.hex) == -2
    b.apply(gm.BattleCondition("mud", "insecure_footing", -1))
    assert b.footing_at(a.hex) == -1
    terms = b.attack_terms(a, b.figures["t"], a.character.weapons[0], Stance.NEUTRAL).modifiers
    assert Modifier("Bad light", -2) in terms and Modifier("Insecure footing", -1) in terms
    b.apply(gm.BattleCondition("here", "bad_light", 0))
    assert b.light_at(a.hex) == -1


def test_table_7_conditions_out_of_range_or_off_the_map_are_refused() -> None:
    """Bad light is -1..-3; a region lies on the map."""
    b = _archer_duel()
    refused(b, gm.BattleCondition("x", "bad_light", -4), "from -1 to -3")
    refused(b, gm.BattleCondition("x", "insecure_footing", -1, (Hex(90, 90),)), "off the map")


# ------------------------------------------------------------------------------------------ dice set by hand


def test_gm_a_combat_roll_set_by_hand_is_used_once() -> None:
    """SetDie: the figure's next combat roll has the given faces; the one after is rolled again."""
    b = duel()
    events = b.apply(gm.SetDie("a", "combat", (1, 1, 1, 1)))
    assert gm_texts(events, b) == ["GM: A's next combat roll is set by hand: [+ + + +]"]
    rolls = [e for e in play_round(b) if isinstance(e, ev.CombatRoll) and e.figure == "a"]
    assert rolls[0].faces == (1, 1, 1, 1)
    assert b.gm_dice == []


def test_ftc_4_5_3_initiative_and_escape_rolls_set_by_hand() -> None:
    """SetDie for the next round's initiative and for an escape contest."""
    b = duel()
    b.apply(gm.SetDie("z", "initiative", (-1, -1, -1, -1)))
    opening = next(e for e in play_round(b) if isinstance(e, ev.InitiativeRolled) and e.figure == "z")
    assert opening.faces == (-1, -1, -1, -1)
    b = refereed(SCENARIOS["zoc_swift_vs_peasant"](0))
    b.apply(gm.SetDie("s", "escape", (1, 1, 1, 1)))
    b.apply(gm.SetDie("m", "escape", (-1, -1, -1, -1)))
    until_move_of(b, "m")
    contest = next(e for e in b.apply(act.Move("m", AWAY)) if isinstance(e, ev.EscapeContest))
    assert contest.mover_faces == (-1, -1, -1, -1) and contest.stopper_faces == ((1, 1, 1, 1),)
    assert not contest.escaped


def test_fudge_4_8_a_roll_the_battle_never_makes_cannot_be_set() -> None:
    """Healing is between battles (Fudge 4.8): no healing die in a battle; faces must fit the dice."""
    b = duel()
    refused(b, gm.SetDie("a", "healing", (0, 0, 0, 0)), "no healing roll")
    refused(b, gm.SetDie("a", "combat", (2, 0, 0, 0)), "four Fudge dice")


# ------------------------------------------------------------------------------------------ overrides


def _failed_escape() -> Battle:
    b = refereed(SCENARIOS["zoc_swift_vs_peasant"](0))
    b.apply(gm.DenyEscape("m"))
    until_move_of(b, "m")
    events = b.apply(act.Move("m", AWAY))
    assert [e.text(b.names()) for e in events if isinstance(e, ev.EscapeOverridden)] == [
        "GM: M is held by S whatever the dice say"
    ]
    assert not any(isinstance(e, ev.EscapeContest) for e in events)
    return b


def test_ftc_5_3_the_gm_denies_an_escape_then_grants_it() -> None:
    """Denied: no contest is rolled and the mover is held; granted then, the move goes on to its end."""
    b = _failed_escape()
    d = legal_actions(b)
    assert d is not None and d.reason == "escape_failed"
    refused(b, gm.DenyEscape("m"), "held already")
    events = b.apply(gm.GrantEscape("m"))
    assert gm_texts(events, b)[0] == "GM: lets M escape after all"
    assert b.figures["m"].hex == east(CENTRE, 3)


def test_ftc_5_3_a_granted_escape_needs_no_contest() -> None:
    """Granted beforehand, the next escape this round succeeds with no dice."""
    b = refereed(SCENARIOS["zoc_clumsy_vs_guard"](0))
    b.apply(gm.GrantEscape("m"))
    until_move_of(b, "m")
    draws = b.rng.draws
    events = b.apply(act.Move("m", AWAY))
    assert any(isinstance(e, ev.EscapeOverridden) and e.escaped for e in events)
    assert b.figures["m"].hex == east(CENTRE, 3) and b.rng.draws == draws


def test_ftc_5_3_the_gm_denies_and_grants_the_free_attack_on_a_runner() -> None:
    """Denied, the runner runs unharmed; granted back, the stopper strikes as he runs."""
    b = _failed_escape()
    refused(b, gm.GrantFreeAttack("s", "m"), "has that free attack already")
    events = b.apply(gm.DenyFreeAttack("s", "m"))
    assert gm_texts(events, b) == ["GM: S gets no free attack on M"]
    before = snapshot(b)
    runs = b.apply(act.EscapeFailedChoice("m", True))
    assert not any(isinstance(e, ev.AttackResolved) for e in runs)
    b = _failed_escape()
    b.apply(gm.DenyFreeAttack("s", "m"))
    b.apply(gm.GrantFreeAttack("s", "m"))
    runs = b.apply(act.EscapeFailedChoice("m", True))
    assert [e.attacker for e in runs if isinstance(e, ev.AttackResolved) and e.free_attack] == ["s"]
    assert before != snapshot(b)


def test_ftc_5_3_free_attacks_are_decided_only_at_a_failed_escape() -> None:
    """With nobody choosing whether to run, there is no free attack to grant."""
    b = duel()
    refused(b, gm.GrantFreeAttack("a", "z"), "has failed an escape")


def test_gm_ends_the_round() -> None:
    """EndRound: the rest of the round is lost and the next begins, with its initiative."""
    b = duel()
    events = b.apply(gm.EndRound("the bell"))
    assert gm_texts(events, b) == ["GM: ends round 1 — the bell"]
    assert b.round == 2 and any(isinstance(e, ev.RoundBegan) and e.round == 2 for e in events)


def test_gm_cannot_end_the_round_in_the_middle_of_a_move() -> None:
    """While a mover waits for a decision the round goes on."""
    b = _failed_escape()
    refused(b, gm.EndRound(), "Finish M's move first")


def test_gm_ends_the_battle() -> None:
    """EndBattle names the winner (or none); the battle is over."""
    b = duel()
    refused(b, gm.EndBattle("green"), "no side 'green'")
    events = b.apply(gm.EndBattle("red", "the guard arrives"))
    assert b.over and b.winner == "red" and legal_actions(b) is None
    assert [e.reason for e in events if isinstance(e, ev.BattleEnded)] == ["the GM ends it, Red wins"]


def test_ftc_6_4_the_gm_declares_a_figure_out_and_back_in() -> None:
    """Out: it cannot act and leaves the queues; in again: it fights on."""
    b = refereed(skirmish(1))
    events = b.apply(gm.DeclareOut("r1", "surrenders"))
    assert gm_texts(events, b) == ["GM: takes R1 out of the fight — surrenders"]
    assert not b.figures["r1"].can_act
    refused(b, gm.DeclareOut("r1"), "out of the fight already")
    play_round(b)
    assert "r1" not in b.order
    b.apply(gm.DeclareIn("r1", "changes his mind"))
    assert b.figures["r1"].can_act and "r1" in b.order
    refused(b, gm.DeclareIn("r1"), "in the fight already")


def test_ftc_6_4_the_last_enemy_declared_out_ends_the_battle() -> None:
    """The battle ends as usual when at most one side can fight."""
    b = duel()
    events = b.apply(gm.DeclareOut("z"))
    assert b.over and b.winner == "blue" and any(isinstance(e, ev.BattleEnded) for e in events)


# ------------------------------------------------------------------------------------------ edits


def test_fudge_4_57_the_gm_edits_wounds_between_rounds() -> None:
    """Very Hurt ticked by the GM gives its -1 at once; clearing the box removes it."""
    b = duel()
    sheet = Wounds().record(WoundLevel.VERY_HURT)[0].to_data()
    events = b.apply(gm.EditWounds("a", sheet, "fell from the wall"))
    assert gm_texts(events, b) == ["GM: changes A's wounds: Unhurt → Very Hurt — fell from the wall"]
    a, z = b.figures["a"], b.figures["z"]
    assert Modifier("Very Hurt", -1) in b.attack_terms(a, z, a.character.ready_weapon, Stance.NEUTRAL).modifiers
    b.apply(gm.EditWounds("a", Wounds().to_data()))
    assert a.wounds.worst is None


def test_fudge_4_57_wounds_past_incapacitated_take_the_figure_out() -> None:
    """Ticking Incapacitated takes the figure out (and here ends the battle)."""
    b = duel()
    sheet = Wounds().record(WoundLevel.INCAPACITATED)[0].to_data()
    events = b.apply(gm.EditWounds("z", sheet))
    assert any(isinstance(e, ev.TakenOut) for e in events) and b.over


def test_gm_edits_wait_for_the_round_to_end() -> None:
    """Once a figure has moved this round, edits are refused until the round ends."""
    b = duel()
    d = legal_actions(b)
    assert d is not None
    b.apply(act.Move(d.figure or "", ()))
    refused(b, gm.EditWounds("a", Wounds().to_data()), "only between rounds")
    refused(b, gm.EditGear("a", ("Broadsword",)), "only between rounds")
    refused(b, gm.RemoveFigure("a"), "only between rounds")
    b.apply(gm.EndRound())
    b.apply(gm.EditGear("a", ("Broadsword",)))
    assert b.figures["a"].character.ready_weapon.name == "Broadsword"


def test_ftc_9_the_gm_changes_gear_and_traits() -> None:
    """New gear from the catalogue, a new attribute level; unknown gear is refused."""
    b = duel()
    refused(b, gm.EditGear("a", ("Lightsaber",)), "Lightsaber")
    events = b.apply(gm.EditGear("a", ("Broadsword",), ("Leather",), reason="found in the armoury"))
    assert gm_texts(events, b) == [
        "GM: changes A's gear: Hand Axe, Leather → Broadsword, Leather — found in the armoury"
    ]
    events = b.apply(gm.EditTraits("a", {"strength": "Great", "skills": {"Sword": "Good"}}, "potion"))
    assert gm_texts(events, b) == ["GM: changes A's traits: Strength Fair → Great, Sword — → Good — potion"]
    a = b.figures["a"]
    assert a.character.strength == 2 and a.character.combat_skill(a.character.ready_weapon) == 1


def test_gm_a_reinforcement_joins_on_a_free_hex_and_in_the_initiative_order() -> None:
    """AddFigure: from the roster (a character of the battle) or a table; it rolls initiative and acts."""
    b = duel()
    refused(b, gm.AddFigure("y", "red", CENTRE, roster_key="brigand"), "not a free hex")
    refused(b, gm.AddFigure("a", "red", east(CENTRE, 3), roster_key="brigand"), "already in the battle")
    refused(b, gm.AddFigure("y", "red", east(CENTRE, 3), roster_key="dragon"), "character 'dragon'")
    events = b.apply(gm.AddFigure("y", "red", east(CENTRE, 3), 3, "Late Brigand", roster_key="brigand"))
    assert gm_texts(events, b) == ["GM: Late Brigand joins Red"]
    assert "y" in b.order and b.figures["y"].hex == east(CENTRE, 3)
    assert any(isinstance(e, ev.InitiativeRolled) and e.figure == "y" for e in events)
    b.apply(gm.AddFigure("w", "blue", east(CENTRE, -3), 0, character={"name": "Militia", "weapons": ["Small Club"]}))
    moved = {e.figure for e in play_round(b) if isinstance(e, ev.Moved)}
    assert {"y", "w"} <= moved


def test_gm_a_removed_figure_leaves_the_map_but_keeps_its_name_in_the_log() -> None:
    """RemoveFigure: gone from the figures and the order; earlier log lines still name it."""
    b = refereed(skirmish(1))
    events = b.apply(gm.RemoveFigure("r2"))
    assert gm_texts(events, b) == ["GM: removes R2 from the battle"]
    assert "r2" not in b.figures and "r2" not in b.order and b.names()["r2"] == "R2"
    play_round(b)
    assert b.round == 2


# ------------------------------------------------------------------------------------------ the log

EVERY_DECISION: list[gm.GMAction] = [
    gm.SituationalModifier("hill", "b0", 2, "high ground", "removed"),
    gm.SituationalModifier("sun", "red", -1, "sun in their eyes"),
    gm.BattleCondition("dusk", "bad_light", -2, (Hex(1, 2), Hex(2, 2)), "dusk"),
    gm.BattleCondition("mud", "insecure_footing", -1),
    gm.SetDie("b0", "combat", (1, 1, 0, -1)),
    gm.SetDie("r0", "health", (0, 0, 0, 0)),
    gm.GrantEscape("b1"),
    gm.DenyEscape("r1"),
    gm.EditWounds("b2", Wounds().record(WoundLevel.HURT)[0].to_data()),
    gm.EditGear("b1", ("Shortbow", "Large Knife"), ("Leather",)),
    gm.EditTraits("r0", {"agility": "Good", "skills": {"Axe": "Great"}}),
    gm.AddFigure("r9", "red", Hex(7, 0), 3, "Latecomer", roster_key="brigand"),
    gm.AddFigure("b9", "blue", Hex(0, 0), 0, "Squire", character={"name": "Squire", "weapons": ["Small Club"]}),
    gm.RemoveFigure("r2"),
    gm.DeclareOut("r1", "flees"),
    gm.DeclareIn("r1", "rallies"),
    gm.RemoveModifier("hill"),
    gm.SetFudgePoints("b0", 4, "a blessing"),
    gm.EndRound("the horn"),
    gm.SetDie("b0", "initiative", (1, 1, 1, 1)),
    gm.EndBattle(None, "the town guard"),
]


def test_every_gm_decision_survives_save_load_and_replay(tmp_path: Path) -> None:
    """Saved, loaded and replayed, every GM decision reproduces every event (digests checked)."""
    b = refereed(skirmish(5))
    for a in EVERY_DECISION[:-2]:
        b.apply(a)
    play_round(b)
    for a in EVERY_DECISION[-2:]:
        b.apply(a)
    kinds = {a.kind for a in b.log}
    assert kinds >= set(gm.GM_ACTION_TYPES) - {"gm_grant_free_attack", "gm_deny_free_attack"}
    path = tmp_path / "gm.json"
    record.save(path, b, {"scenario": "skirmish_gm"})
    rec = record.load(path)
    assert rec.actions == tuple(b.log)
    again = record.replay(
        replace(skirmish(5), gm="referee"), rec.actions, digests=rec.digests, initial_digest=rec.initial_digest
    )
    assert again.digests == b.digests and again.over and again.winner is None
    assert [e.text(again.names()) for e in again.events] == [e.text(b.names()) for e in b.events]


def test_ftc_5_3_free_attack_overrides_survive_replay(tmp_path: Path) -> None:
    """The free-attack overrides of a failed escape replay too."""
    b = _failed_escape()
    b.apply(gm.DenyFreeAttack("s", "m"))
    b.apply(gm.GrantFreeAttack("s", "m"))
    b.apply(act.EscapeFailedChoice("m", True))
    record.save(tmp_path / "x.json", b, {})
    rec = record.load(tmp_path / "x.json")
    again = record.replay(
        replace(SCENARIOS["zoc_swift_vs_peasant"](0), gm="referee"),
        rec.actions,
        digests=rec.digests,
        initial_digest=rec.initial_digest,
    )
    assert again.digests == b.digests


def test_gm_decisions_are_undone_like_any_other() -> None:
    """A GM decision that rolled no dice can be taken back."""
    b = duel()
    b.apply(gm.SituationalModifier("m", "a", 1))
    assert record.can_undo(b)
    assert record.undo(b).gm_state == gm.GMState()


def test_a_damaged_gm_action_in_a_save_is_named() -> None:
    """A GM action with a bad value in a save is reported with its number."""
    data = record.to_json(duel(), {})
    data["actions"] = [{"kind": "gm_modifier", "id": "m", "target": "a", "value": 9}]
    with pytest.raises(record.SaveError, match="action 1 is damaged"):
        record.parse(data)
