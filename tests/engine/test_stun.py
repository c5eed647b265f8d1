"""*Fudge* 4.62, stun, knockout and pulling punches (002:135–151): a declaration may go for stun (the blow is
figured normally, but Hurt stuns, Very Hurt very stuns, worse knocks out, on a stun sheet of its own) and may name
the most wound it will do. Battles through the door, every roll set from the GM's seat (docs/rulings.md "Stun,
knockout and pulled blows")."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, BattleSetup, Decision, IllegalAction, RuleOptions
from game.engine.choices import choices
from game.engine.hexgrid import Hex
from game.engine.preview import attack_preview, preview
from game.engine.seats import GM, SIDE, Seat, events_for_seat, stand_in
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel
from game.report import battle_summary
from tests.engine.test_preview_truth import resolved, to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, attacks, dice, figure, play, start
from tests.golden.scenarios import CENTRE, SIDES, east
from tests.sampling import assert_agrees, sample_attack

STUNS = RuleOptions(stun_blows=True)


def duel(options: RuleOptions = STUNS, attacker: dict[str, object] | None = None, **changes: object) -> Battle:
    """Two brigands face to face (Axe Good, Hand Axe, Leather: a torso blow's damage is its relative degree + 1);
    the attacker "a" is first in the order (declares last), the target "t" declares first."""
    a = figure("a", "blue", "brigand", CENTRE, 0, **(attacker or {}))
    t = figure("t", "red", "brigand", east(CENTRE), 3, **changes)
    return start(BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), options, 0), a=UP, t=DOWN)


def strike(
    b: Battle, a_roll: tuple[int, ...], t_roll: tuple[int, ...] = EVEN, *, health: tuple[int, ...] = EVEN, **kw: object
) -> list[ev.Event]:
    """One round: the target defends (neutral), "a" strikes it on the torso with the rolls set; the target's
    Health roll set (Fair Health + 0: no reduction); the next round's initiative set as this one's."""
    dice(b, a=("combat", a_roll), t=("combat", t_roll))
    dice(b, a=("initiative", UP), t=("initiative", DOWN))
    b.apply(gm.SetDie("t", "health", health))
    to_declaration(b, "a")
    events = b.apply(act.Declare("a", "neutral", ("t",), "Hand Axe", **{"aim": "torso", **kw}))  # type: ignore[arg-type]
    return events + play(b, lambda b_, d: None, phase="movement")


def stunned_event(events: list[ev.Event]) -> ev.Stunned:
    return next(e for e in events if isinstance(e, ev.Stunned))


def test_fudge_4_62_a_hurt_result_stuns_for_the_next_round_and_marks_no_wound() -> None:
    """002:141: "a Hurt result … 'Stun' … cannot attack or all-out defend, and is at −1 to defend, for one
    combat turn". Good +2 against Good +0: relative degree +2, damage 3: Hurt, a Stun. In the next round the
    target may not attack nor take the very defensive stance, and defends at −1; the round after, it attacks."""
    b = duel()
    events = strike(b, (1, 1, 0, 0), stun=True)
    blow = resolved(events, "a")
    assert (blow.relative_degree, blow.damage, blow.wound) == (2, 3, "Hurt")
    hit = stunned_event(events)
    assert (hit.level, hit.result, hit.rounds) == ("Hurt", "Stun", (3,))
    assert "no attack and −1 defence in round 3 (Fudge 4.62)" in hit.text()
    assert not any(isinstance(e, ev.Wounded) for e in events)
    target = b.figure("t")
    assert target.wounds.worst is None and target.stuns.filled == (1, 0) and target.can_act
    # round 3: stunned, and so no threat to anyone (the odds and retreats count it so)
    assert b.round == 3
    assert [e.id for e in b.threats_to("a")] == []
    to_declaration(b, "t")
    with pytest.raises(IllegalAction, match=r"T is stunned this round: no attack \(Fudge 4.62\)"):
        b.apply(act.Declare("t", "neutral", ("a",), "Hand Axe"))
    with pytest.raises(IllegalAction, match="no very defensive stance"):
        b.apply(act.Declare("t", "very_defensive", retreat=Hex(6, 4)))
    offered = choices(b)
    assert offered is not None and offered.declare is not None
    assert offered.declare.stunned == "Stun" and not any(offered.declare.weapons.values())
    assert offered.declare.stance("very_defensive") is None and not offered.declare.can_stun
    b.apply(act.Declare("t", "neutral"))
    events = b.apply(act.Declare("a", "neutral", ("t",), "Hand Axe"))
    events += play(b, lambda b_, d: None, phase="movement")
    assert ("Stunned (Fudge 4.62)", -1) in resolved(events, "a").defence_mods
    # round 4: free again
    to_declaration(b, "t")
    b.apply(act.Declare("t", "neutral", ("a",), "Hand Axe"))
    assert b.figure("t").stunned == ((3, "Stun"),)


def test_fudge_4_62_stuns_accumulate_to_very_stunned_then_a_knockout() -> None:
    """002:141: "A second Stun result, even if it's a few rounds later, means the character is now Very
    Stunned" — no attack and −2 to all actions for two rounds; a third stun finds no box: knocked out, out of
    the fight, and the battle ends with nobody left on the red side."""
    b = duel()
    strike(b, (1, 1, 0, 0), stun=True)  # round 2: Stun
    dice(b, a=("initiative", UP), t=("initiative", DOWN))
    to_declaration(b, "t")
    b.apply(act.Declare("t", "neutral"))
    b.apply(act.Declare("a", "neutral"))  # round 3: nobody strikes
    play(b, lambda b_, d: None, phase="movement")
    assert b.round == 4
    # the odds read the sheet as it is: a Hurt now marks Very Stunned, as the battle will mark it
    ahead = attack_preview(b, "a", "Hand Axe", "t", stun=True, aim="torso").distribution
    assert {str(o).split(" → ")[1] for o in ahead if o.hit and o.level == WoundLevel.HURT} == {"Very Stunned"}
    second = stunned_event(strike(b, (1, 1, 0, 0), stun=True))  # round 4: a second Stun rolls up
    assert (second.level, second.result, second.rounds) == ("Hurt", "Very Stunned", (5, 6))
    assert b.figure("t").stuns.filled == (1, 1)
    to_declaration(b, "t")
    with pytest.raises(IllegalAction, match="very stunned this round: no attack"):
        b.apply(act.Declare("t", "neutral", ("a",), "Hand Axe"))
    # −2 to every roll the GM's modifier reaches: its defence here
    dice(b, a=("combat", EVEN), t=("combat", EVEN))
    b.apply(act.Declare("t", "neutral"))
    events = b.apply(act.Declare("a", "neutral", ("t",), "Hand Axe", aim="torso", stun=True))
    events += play(b, lambda b_, d: None, phase="movement")
    blow = resolved(events, "a")
    assert ("Very Stunned (Fudge 4.62)", -2) in blow.defence_mods and blow.defence == -1
    # Good 1 against Good 1 − 2: degree +2, damage 3, Hurt: a third stun, no box left
    third = stunned_event(events)
    assert third.result == "Knocked out"
    out = next(e for e in events if isinstance(e, ev.TakenOut))
    assert (out.figure, out.condition) == ("t", "Knocked out")
    assert b.over and b.winner == "blue"
    summary = battle_summary(b)
    t = next(f for f in summary["figures"] if f["id"] == "t")
    assert t["stun"] == "Knocked out" and t["out"] and t["received"] == []


@pytest.mark.parametrize(
    ("a_roll", "t_roll", "damage", "level", "result"),
    [
        ((1, 1, 1, 1), EVEN, 5, "Very Hurt", "Very Stunned"),
        ((1, 1, 1, 1), (-1, -1, 0, 0), 7, "Incapacitated", "Knocked out"),
        ((1, 0, 0, 0), (-1, 0, 0, 0), 3, "Hurt", "Stun"),
    ],
)
def test_fudge_4_62_each_level_stuns_as_the_text_says(
    a_roll: tuple[int, ...], t_roll: tuple[int, ...], damage: int, level: str, result: str
) -> None:
    """002:141–143: Very Hurt → Very Stunned (two rounds); Incapacitated or worse → knocked out: "no healing
    needed, only time". The knocked-out brigand carries no wound into the aftercare."""
    b = duel()
    events = strike(b, a_roll, t_roll, stun=True)
    blow = resolved(events, "a")
    assert (blow.damage, blow.wound) == (damage, level)
    assert stunned_event(events).result == result
    assert b.figure("t").wounds.worst is None  # nothing recorded on the wound sheet
    assert (not b.figure("t").can_act) == (result == "Knocked out")


def test_fudge_4_62_a_scratch_on_a_stunning_blow_does_nothing() -> None:
    """Our reading (the text maps only Hurt and worse): a stunning blow that would scratch marks nothing."""
    b = duel()
    events = strike(b, (1, 0, 0, 0), stun=True)  # degree +1: a graze, a Scratch
    assert resolved(events, "a").wound == "Scratch"
    hit = stunned_event(events)
    assert hit.result == "" and "does nothing" in hit.text()
    target = b.figure("t")
    assert target.stuns.filled == (0, 0) and target.stunned == () and target.wounds.worst is None


@pytest.mark.parametrize(("variant", "result"), [(True, "Knocked out"), (False, "")])
def test_fudge_4_62_a_stunning_blow_on_the_head_knocks_out_with_the_variant(variant: bool, result: str) -> None:
    """002:143–145: a Good blow to the head knocks out. In FTC a head blow needs a Superb result against a Fair
    or worse defence (6.6), so it always is one. A weak brigand's Superb result (Good +2) against a Fair defence
    (Good −1), on the head of a brigand in a greathelm: relative degree +3, damage 2, a Scratch — knocked out
    with the variant, nothing without."""
    options = RuleOptions(stun_blows=True, stun_head_knockout=variant)
    b = duel(options, {"strength": "Poor"}, armour=["Leather", "Greathelm"])
    events = strike(b, (1, 1, 0, 0), (-1, 0, 0, 0), stun=True, aim="head")
    blow = resolved(events, "a")
    assert (blow.location, blow.relative_degree, blow.damage, blow.wound) == ("head", 3, 2, "Scratch")
    assert stunned_event(events).result == result


def test_fudge_4_62_the_fencer_going_for_a_scratch_only_nicks_his_foe() -> None:
    """002:147–151: "A fencer going for a Scratch who wins by +8 and adds +3 for his sword still only nicks his
    foe". A Superb swordsman with a Two-Handed Sword (+3) rolls +4 (Legendary+3) against a Mediocre defence:
    relative degree +8, damage 11 — Near Death — pulled to a Scratch."""
    fencer = figure("a", "blue", "guard", CENTRE, 0, weapons=["Two-Handed Sword"])
    foe = figure("t", "red", "guard", east(CENTRE), 3, skills={"Sword": "Fair"}, weapons=["Two-Handed Sword"])
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (fencer, foe), RuleOptions(pulled_blows=True), 0), a=UP)
    dice(b, a=("combat", UP), t=("combat", (-1, 0, 0, 0)))
    b.apply(gm.SetDie("t", "health", EVEN))
    to_declaration(b, "a")
    pulled = act.Declare("a", "neutral", ("t",), "Two-Handed Sword", aim="torso", max_wound="Scratch")
    (certain,) = attack_preview(b, "a", "Two-Handed Sword", "t", aim="torso", max_wound="Scratch").distribution
    assert certain.level == WoundLevel.SCRATCH
    events = b.apply(pulled) + play(b, lambda b_, d: None, phase="movement")
    blow = resolved(events, "a")
    assert (blow.relative_degree, blow.damage, blow.wound) == (8, 11, "Scratch")
    assert [s.text() for s in blow.steps] == ["pulled to Scratch (Fudge 4.62): Near Death → Scratch"]
    wound = next(e for e in events if isinstance(e, ev.Wounded))
    assert (wound.level, wound.box) == ("Scratch", "Scratch")


def test_fudge_4_62_a_pulled_blow_is_capped_before_the_health_roll() -> None:
    """Our reading: the most wound caps the attacker's side (S7); the defender's Health roll may lower it
    further. Damage 5 pulled to Hurt; the target's Health roll Great lowers it to a Scratch."""
    b = duel(RuleOptions(pulled_blows=True))
    events = strike(b, (1, 1, 1, 1), health=(1, 1, 0, 0), max_wound="Hurt")
    blow = resolved(events, "a")
    assert (blow.damage, blow.wound) == (5, "Hurt")
    wound = next(e for e in events if isinstance(e, ev.Wounded))
    assert (wound.level, wound.after_health) == ("Hurt", "Scratch")


def test_fudge_4_62_what_a_declaration_may_not_say() -> None:
    archer = figure("a", "blue", "archer", CENTRE, 0)
    target = figure("t", "red", "brigand", east(CENTRE, 4), 3)
    options = RuleOptions(stun_blows=True, pulled_blows=True)
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (archer, target), options, 0), a=UP)
    to_declaration(b, "a")
    with pytest.raises(IllegalAction, match="Only a melee weapon blow may go for stun"):
        b.apply(act.Declare("a", "neutral", ("t",), "Shortbow", stun=True))
    with pytest.raises(IllegalAction, match=r"Pull a blow to one of Scratch, Hurt, Very Hurt, Incapacitated"):
        b.apply(act.Declare("a", "neutral", ("t",), "Shortbow", max_wound="Dead"))
    with pytest.raises(IllegalAction, match="Only a weapon blow may be pulled"):
        b.apply(act.Declare("a", "neutral", max_wound="Hurt"))
    b.apply(act.Declare("a", "neutral", ("t",), "Shortbow", max_wound="Hurt"))  # a shot may be pulled
    plain = duel(RuleOptions())
    to_declaration(plain, "a")
    with pytest.raises(IllegalAction, match=r"A stunning blow is a rule option this battle does not use"):
        plain.apply(act.Declare("a", "neutral", ("t",), "Hand Axe", stun=True))
    with pytest.raises(IllegalAction, match="A pulled blow is a rule option"):
        plain.apply(act.Declare("a", "neutral", ("t",), "Hand Axe", max_wound="Hurt"))


def test_fudge_4_62_a_stunned_stopper_strikes_no_free_attack() -> None:
    """FTC 5.3 with 4.62: a free attack is an attack, and a stunned figure makes none; it still holds its zone and
    stops the runner, who fails his escape and runs."""
    b = duel()
    strike(b, (1, 1, 0, 0), stun=True)  # round 2: t is stunned for round 3
    assert b.round == 3 and b.phase == "movement"
    dice(b, a=("escape", DOWN), t=("escape", UP))

    def run(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure == "a":
            return act.Move("a", ((Hex(3, 4), 0),))
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice("a", True)
        return None

    events = play(b, run, phase="attack")
    assert any(isinstance(e, ev.EscapeContest) for e in events)
    assert any(isinstance(e, ev.EscapeFailed) and e.run for e in events)
    assert not [x for x in attacks(events, "t") if x.free_attack]


def test_fudge_4_62_the_odds_map_a_hurt_to_a_stun_with_the_wounds_chance() -> None:
    """The preview of a stunning blow is the wound preview with each level read as its stun on the target's
    sheet: the chance of a Stun is the chance of Hurt, a knockout that of Incapacitated or worse."""
    b = duel()
    to_declaration(b, "a")
    wound = attack_preview(b, "a", "Hand Axe", "t").distribution
    stun = attack_preview(b, "a", "Hand Axe", "t", stun=True).distribution
    assert {o.kind for o in stun if o.hit} == {"stun"}

    def p(dist: object, pick: object) -> Fraction:
        return sum((q for o, q in dist.items() if pick(o)), Fraction(0))  # type: ignore[attr-defined,operator]

    assert p(stun, lambda o: o.kind == "stun" and str(o).endswith("Stun")) == p(
        wound, lambda o: o.level == WoundLevel.HURT
    )
    assert p(stun, lambda o: o.out) == p(wound, lambda o: o.level is not None and o.level >= WoundLevel.INCAPACITATED)
    assert p(stun, lambda o: o.hit) == p(wound, lambda o: o.hit)
    via_action = preview(b, act.Declare("a", "neutral", ("t",), "Hand Axe", stun=True))
    assert via_action is not None and via_action.distribution == stun  # type: ignore[union-attr]


@pytest.mark.slow
def test_fudge_4_62_the_stun_preview_agrees_with_sampled_battles() -> None:
    """A stunning blow: each wound level read as its stun on the target's sheet."""
    a = figure("a", "blue", "brigand", CENTRE, 0)
    t = figure("t", "red", "brigand", east(CENTRE), 3)
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), RuleOptions(), 0)
    declaration = act.Declare("a", "neutral", ("t",), "Hand Axe", stun=True)
    sample = sample_attack(setup, STUNS, initiative={"a": UP, "t": DOWN}, declaration=declaration)
    assert {o.kind for o in sample.counts if o.hit} == {"stun"}
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)


@pytest.mark.slow
def test_fudge_4_62_the_pulled_preview_agrees_with_sampled_battles() -> None:
    a = figure("a", "blue", "bruiser", CENTRE, 0)
    t = figure("t", "red", "brigand", east(CENTRE), 3)
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t), RuleOptions(), 0)
    declaration = act.Declare("a", "neutral", ("t",), "Battle Axe", max_wound="Hurt")
    options = RuleOptions(pulled_blows=True, stun_blows=True, stun_head_knockout=True)
    sample = sample_attack(setup, options, initiative={"a": UP, "t": DOWN}, declaration=declaration)
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)


def test_fudge_4_62_a_stun_stays_secret_until_the_reveal() -> None:
    """Under secret stances the stun and the most wound are part of the hidden declaration: another side's seat
    learns only that a figure declared, and its stand-in carries neither."""
    b = duel(RuleOptions(stun_blows=True, pulled_blows=True, secret_stances=True))
    to_declaration(b, "t")
    b.apply(act.Declare("t", "neutral"))
    decl = act.Declare("a", "neutral", ("t",), "Hand Axe", stun=True, max_wound="Hurt")
    hidden = [e for e in b.apply(decl) if isinstance(e, ev.Declared) and e.figure == "a"]
    assert hidden and hidden[0].hidden
    first = hidden[0]
    (seen,) = events_for_seat(b, [first], Seat(SIDE, "red"))
    assert isinstance(seen, ev.Declared) and not seen.stun and seen.max_wound is None and seen.targets == ()
    assert "stun" not in seen.to_json() and "max_wound" not in seen.to_json()
    (own,) = events_for_seat(b, [first], Seat(SIDE, "blue"))
    assert own == first
    (gm_view,) = events_for_seat(b, [first], Seat(GM))
    assert isinstance(gm_view, ev.Declared) and gm_view.stun
    assert not stand_in(decl).stuns and stand_in(decl).most_wound is None  # type: ignore[attr-defined]
    revealed = [e for e in b.events if isinstance(e, ev.Declared) and e.figure == "a" and not e.hidden]
    assert revealed and revealed[-1].stun and revealed[-1].max_wound == "Hurt"


def test_a_battle_of_stunning_blows_replays_from_its_save(tmp_path: Path) -> None:
    """A battle with a stun and a pulled blow, and one played by computer players under the options, each saved
    and replayed digest for digest; the save writes the declaration's new fields only where they are used."""
    b = duel(RuleOptions(stun_blows=True, pulled_blows=True))
    strike(b, (1, 1, 0, 0), stun=True)
    strike(b, (1, 1, 1, 1), max_wound="Hurt")
    b2 = Battle(replace(b.setup, gm=None, seed=3))
    players = {"blue": RandomPlayer(1), "red": RandomPlayer(2)}
    while not b2.over and b2.round <= 4:
        d = b2.decision()
        assert d is not None
        b2.apply(players[d.side](b2, d))
    for i, battle in enumerate((b2, b)):
        record.save(tmp_path / f"stun{i}.json", battle, {"scenario": "duel"})
        rec = record.load(tmp_path / f"stun{i}.json")
        again = record.replay(battle.setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
        assert again.digests == battle.digests
    saved = json.loads((tmp_path / "stun1.json").read_text(encoding="utf-8"))
    declared = [a for a in saved["actions"] if a["kind"] == "declare" and a["figure"] == "a" and a["targets"]]
    assert [(a.get("stun"), a.get("max_wound")) for a in declared] == [(True, None), (None, "Hurt")]
    assert all("ignore" not in a for a in saved["actions"])


def test_with_the_options_off_a_declaration_is_written_as_before() -> None:
    b = duel(RuleOptions())
    events = strike(b, (1, 1, 0, 0))
    blow = resolved(events, "a")
    assert blow.steps == () and "steps" not in blow.to_json()
    declared = next(e for e in events if isinstance(e, ev.Declared) and e.figure == "a")
    assert set(declared.to_json()) == {
        "kind",
        "figure",
        "stance",
        "targets",
        "dodge",
        "weapon",
        "second_move",
        "hidden",
    }
    assert "stun" not in act.action_to_json(b.log[-1] if isinstance(b.log[-1], act.Declare) else act.Declare("a"))
    assert not any(isinstance(e, ev.Stunned) for e in events)


def test_fudge_4_62_a_knocked_out_figure_wakes_when_the_gm_brings_it_back() -> None:
    """A knockout "requires no healing, only time": the GM's Declare in brings the figure back awake, its wound
    sheet as it was."""
    a = figure("a", "blue", "brigand", CENTRE, 0)
    t = figure("t", "red", "brigand", east(CENTRE), 3)
    other = figure("o", "red", "brigand", Hex(6, 8), 3)
    b = start(BattleSetup(TerrainMap.open(12, 10), SIDES, (a, t, other), STUNS, 0), a=UP, t=DOWN, o=DOWN)
    events = strike(b, (1, 1, 1, 1), (-1, -1, 0, 0), stun=True)
    assert stunned_event(events).result == "Knocked out" and b.figure("t").out and not b.over
    b.apply(gm.DeclareIn("t", "the brigand comes round"))
    back = b.figure("t")
    assert back.can_act and not back.stuns.knocked_out and back.wounds.worst is None
