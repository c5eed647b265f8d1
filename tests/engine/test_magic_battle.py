"""Magic in the battle (FTC 8): casting time and concentration (8.1), recognition (8.2), ranges, touch and
bolts (8.3), lasting effects, and random play with casters keeping the battle's invariants."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, BattleSetup, FigureSetup, IllegalAction, RuleOptions, legal_actions
from game.engine.characters import Character, CharacterError
from game.engine.combat import Stance
from game.engine.creatures import footprint, front_zone
from game.engine.equipment import weapon
from game.engine.hexgrid import Hex, distance, neighbor
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel, Wounds
from tests.engine.test_battle import check_events, check_state
from tests.golden.scenarios import CENTRE, SIDES, axial, character, east, magic_skirmish, spell_duel, spell_far

Declares = Mapping[str, act.Action] | Callable[[Battle, str], act.Action]


def play_round(
    b: Battle,
    declares: Declares | None = None,
    moves: Mapping[str, act.Move] | None = None,
) -> list[ev.Event]:
    """Play the rest of the current round: figures stay put unless ``moves`` says otherwise, and declare
    as ``declares`` says (default: a neutral defence)."""
    start = b.round
    out: list[ev.Event] = []
    while not b.over and b.round == start:
        d = legal_actions(b)
        assert d is not None
        fid = d.figure or ""
        a: act.Action
        if d.reason in ("move", "held_end"):
            a = (moves or {}).get(fid, act.Move(fid, ()))
        elif d.reason == "declare":
            a = declares(b, fid) if callable(declares) else (declares or {}).get(fid, act.Declare(fid))
        elif d.reason == "interrupt":
            a = act.PassInterrupt(d.side)
        elif d.reason == "stop":
            a = act.StopChoice(fid, True)
        elif d.reason == "escape_failed":
            a = act.EscapeFailedChoice(fid, False)
        else:
            a = act.FollowChoice(fid, None)
        out.extend(b.apply(a))
    return out


def kinds(events: list[ev.Event], cls: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if isinstance(e, cls)]


def at_seed(seed: int, make: Callable[[int], Battle], shows: Callable[[Battle], bool]) -> Battle:
    """The battle from a fixed ``seed``, played by ``shows``, which must report that the battle shows the
    rule under test (whose dice that seed gives); fails, naming the seed, if it no longer does."""
    b = make(seed)
    assert shows(b), f"seed {seed} no longer shows the rule under test: choose another fixed seed"
    return b


# ------------------------------------------------------------------------------------------ roster


def test_ftc_8_roster_spells_round_trip_and_unknown_spell_names_near_matches() -> None:
    data = {"name": "Mage", "skills": {"Magic": "Good"}, "spells": ["fire bolt", "Ward"]}
    c = Character.from_dict(data, key="mage")
    assert c.spells == ("Fire Bolt", "Ward")
    assert Character.from_dict(c.to_dict(), key="mage") == c
    with pytest.raises(CharacterError) as err:
        Character.from_dict({"name": "Mage", "spells": ["Fire Blot"]}, key="mage")
    assert "mage" in str(err.value) and "Fire Blot" in str(err.value) and "Fire Bolt" in str(err.value)


def test_ftc_8_declare_with_a_spell_round_trips_as_json() -> None:
    a = act.Declare("w", "neutral", spell="Blinding Cloud", spell_hex=Hex(3, 2), dodge=("x",))
    assert act.action_from_data(act.action_to_json(a)) == a
    b = act.Declare("w", spell="Fire Bolt", spell_target="z")
    assert act.action_from_data(act.action_to_json(b)) == b


# ------------------------------------------------------------------------------------------ 8.1 timing


def test_ftc_8_1_one_second_spell_is_resolved_when_declared() -> None:
    b = Battle(spell_duel(0))
    out = play_round(b, lambda b_, fid: act.Declare(fid, spell="Ward") if fid == "w" else act.Declare(fid))
    declared_at = next(i for i, e in enumerate(out) if isinstance(e, ev.CastingBegan))
    cast_at = next(i for i, e in enumerate(out) if isinstance(e, ev.SpellCast))
    first_attack_roll = next(i for i, e in enumerate(out) if isinstance(e, ev.PhaseBegan) and e.round == 2)
    # the casting comes right with the declaration, before the round's combat rolls
    combat_rolls = [i for i, e in enumerate(out) if isinstance(e, ev.CombatRoll)]
    assert declared_at < cast_at < first_attack_roll
    assert any(cast_at < i for i in combat_rolls)
    assert magic.resolves_when(magic.spell("Ward")) == "declaration"


def _wizard_and_guard(seed: int) -> Battle:
    return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("k", "red", "guard", east(CENTRE), 3)], seed=seed))


@pytest.mark.parametrize(("spell", "protects"), [("Ward", True), ("Shield of Force", False)])
def test_ftc_8_1_instant_defence_protects_this_round_a_one_round_spell_does_not(spell: str, protects: bool) -> None:
    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell=spell, spell_target="w")
        return act.Declare(fid, "neutral", ("w",))

    def shows(b: Battle) -> bool:
        out = play_round(b, declares)
        cast = kinds(out, ev.SpellCast)
        return bool(cast) and cast[0].success and any(isinstance(e, ev.AttackResolved) for e in out)  # type: ignore[attr-defined]

    b = at_seed({"Ward": 0, "Shield of Force": 1}[spell], _wizard_and_guard, shows)
    attack = next(e for e in reversed(b.events) if isinstance(e, ev.AttackResolved) and e.target == "w")
    assert any(name == spell for name, _ in attack.defence_mods) is protects
    if not b.over and not protects:
        # from the next round on, it protects
        out = play_round(b, lambda b_, fid: act.Declare(fid, "neutral", ("w",)) if fid == "k" else act.Declare(fid))
        nxt = [e for e in out if isinstance(e, ev.AttackResolved) and e.target == "w"]
        if nxt:
            assert any(name == spell for name, _ in nxt[0].defence_mods)


def test_ftc_8_1_one_round_spell_takes_table_7_penalty_when_the_caster_moved() -> None:
    b = Battle(spell_duel(1))
    w = b.figure("w")
    step = (east(w.hex), w.facing)
    out = play_round(b, {"w": act.Declare("w", spell="Fire Bolt", spell_target="a")}, {"w": act.Move("w", (step,))})
    cast = kinds(out, ev.SpellCast)[0]
    assert isinstance(cast, ev.SpellCast)
    assert any(name.startswith("Moved") and value < 0 for name, value in cast.modifiers)
    # resolved with the attacks: after the combat rolls of the round
    rolls = [i for i, e in enumerate(out) if isinstance(e, ev.CombatRoll)]
    assert min(rolls) < out.index(cast)


def test_ftc_8_1_spell_of_several_rounds_cannot_begin_after_moving() -> None:
    b = Battle(spell_far(0))
    w = b.figure("w")
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "declare" and d.figure == "w":
            break
        if d.reason == "move" and d.figure == "w":
            b.apply(act.Move("w", ((east(w.hex), w.facing),)))
        else:
            b.apply(act.Move(d.figure or "", ()) if d.reason in ("move", "held_end") else act.Declare(d.figure or ""))
    with pytest.raises(IllegalAction, match="stand still"):
        b.apply(act.Declare("w", spell="Thunderstrike", spell_target="b"))


def _thunder(b: Battle, fid: str) -> act.Action:
    return act.Declare(fid, spell="Thunderstrike", spell_target="b") if fid == "w" else act.Declare(fid)


def test_ftc_8_1_concentration_kept_takes_effect_in_the_last_round() -> None:
    b = Battle(spell_far(3))
    began = play_round(b, _thunder)
    assert kinds(began, ev.CastingBegan) and b.casting_of("w") is not None
    assert b.casting_of("w").rounds_left == 4  # type: ignore[union-attr]  # round 2 of 5
    for _ in range(3):
        out = play_round(b, _thunder)
        assert kinds(out, ev.CastingContinued) and not kinds(out, ev.SpellCast)
    last = play_round(b, _thunder)
    cast = kinds(last, ev.SpellCast)
    assert len(cast) == 1 and cast[0].spell == "Thunderstrike"  # type: ignore[attr-defined]
    assert b.round == 6 and b.casting_of("w") is None


def test_ftc_8_1_concentration_broken_by_moving() -> None:
    b = Battle(spell_far(0))
    play_round(b, _thunder)
    w = b.figure("w")
    out = play_round(
        b,
        lambda b_, fid: _thunder(b_, fid) if b_.casting_of(fid) else act.Declare(fid),
        {"w": act.Move("w", ((east(w.hex), w.facing),))},
    )
    broken = kinds(out, ev.ConcentrationBroken)
    assert broken and broken[0].reason == "the caster moved"  # type: ignore[attr-defined]
    assert b.casting_of("w") is None


def test_ftc_8_1_concentration_may_be_abandoned_by_declaring_something_else() -> None:
    b = Battle(spell_far(0))
    play_round(b, _thunder)
    out = play_round(b, {"w": act.Declare("w")})
    assert [e.reason for e in kinds(out, ev.ConcentrationBroken)] == ["abandoned"]  # type: ignore[attr-defined]


def _archer_shoots(dodge: bool) -> Callable[[Battle, str], act.Action]:
    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            if b.casting_of("w") is None and b.round > 1:
                return act.Declare("w")
            return act.Declare("w", spell="Thunderstrike", spell_target="a", dodge=("a",) if dodge else ())
        return act.Declare(fid, "neutral", ("w",), "Shortbow")

    return declares


def test_ftc_8_1_concentration_broken_by_dodge() -> None:
    def shows(b: Battle) -> bool:
        play_round(b, _archer_shoots(True))
        return any(isinstance(e, ev.ConcentrationRolled) and e.reason == "dodge" and not e.kept for e in b.events)

    b = at_seed(7, lambda s: Battle(spell_duel(s)), shows)
    rolled = next(e for e in b.events if isinstance(e, ev.ConcentrationRolled))
    assert rolled.difficulty == 1 and rolled.result == rolled.will + sum(rolled.faces)  # Good
    assert any(isinstance(e, ev.ConcentrationBroken) and e.reason == "lost concentration" for e in b.events)
    assert b.casting_of("w") is None


def test_ftc_8_1_missile_not_dodged_forces_no_will_roll() -> None:
    b = Battle(spell_duel(2))
    play_round(b, _archer_shoots(False))
    assert not any(isinstance(e, ev.ConcentrationRolled) and e.reason == "dodge" for e in b.events)


def test_ftc_8_1_concentration_broken_by_damage() -> None:
    def shows(b: Battle) -> bool:
        play_round(b, _archer_shoots(False))
        return any(isinstance(e, ev.ConcentrationRolled) and e.reason == "damaged" and not e.kept for e in b.events)

    b = at_seed(4, lambda s: Battle(spell_duel(s)), shows)
    rolled = next(e for e in b.events if isinstance(e, ev.ConcentrationRolled))
    assert rolled.difficulty == 2  # Great
    wounded = [i for i, e in enumerate(b.events) if isinstance(e, ev.Wounded) and e.figure == "w"]
    assert wounded and wounded[0] < b.events.index(rolled)
    assert b.casting_of("w") is None


# ------------------------------------------------------------------------------------------ 8.2 recognition


def test_ftc_8_2_thaumatology_roll_while_declaring_recognises_the_spell() -> None:
    def make(seed: int) -> Battle:
        return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("b", "red", "seer", east(CENTRE, 5), 3)], seed=seed))

    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell="Thunderstrike", spell_target="b")
        return act.Declare(fid)

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        play_round(b, declares)
        return any(isinstance(e, ev.SpellRecognised) and e.success for e in b.events)

    b = at_seed(0, make, shows)
    rec = next(e for e in b.events if isinstance(e, ev.SpellRecognised))
    assert rec.figure == "b" and rec.caster == "w" and rec.spell == "Thunderstrike"
    assert rec.difficulty == 1  # Good: sees and hears the caster 5 hexes away
    assert b.casting_at("b") == {"w": "Thunderstrike"}
    assert b.declare_options("b")["casting_at"] == {"w": "Thunderstrike"}


def test_ftc_8_2_recognition_difficulty_great_and_superb() -> None:
    assert magic.recognition_difficulty(sees=True, hears=False, obscured=False) == 2
    assert magic.recognition_difficulty(sees=True, hears=True, obscured=True) == 3


# ------------------------------------------------------------------------------------------ 8.3 ranges


def test_ftc_8_3_ranges_close_short_long_and_touch() -> None:
    b = Battle(spell_duel(0))  # the archer stands 5 hexes away
    assert b.spell_targets("w", "Fire Bolt") == ["a"]  # short: 10 hexes
    assert b.spell_targets("w", "Lightning") == []  # close: 2 hexes
    assert b.spell_targets("w", "Far Bolt") == ["a"]  # long: in sight
    assert b.spell_targets("w", "Withering Touch") == []  # touch: a front hex
    assert b.spell_targets("w", "Ward") == ["w"]
    opts = b.declare_options("w")["spells"]
    assert isinstance(opts, dict) and opts["Fire Bolt"] == ["a"]


def test_ftc_8_3_touch_attack_with_agility_or_melee_skill_and_no_damage_of_its_own() -> None:
    def make(seed: int) -> Battle:
        return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)], seed=seed))

    def declares(b: Battle, fid: str) -> act.Action:
        return act.Declare("w", spell="Paralysing Touch", spell_target="z") if fid == "w" else act.Declare(fid)

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        return any(isinstance(e, ev.TouchAttack) for e in b.events)

    b = at_seed(0, make, shows)
    touch = next(e for e in b.events if isinstance(e, ev.TouchAttack))
    assert touch.skill == magic.touch_attack_skill(b.figure("w").character)
    assert touch.offence == touch.skill + touch.roll + sum(v for _, v in touch.offence_mods)
    assert not any(isinstance(e, ev.Wounded) and e.figure == "z" for e in b.events)
    b2 = Battle(spell_duel(0))
    assert b2.spell_targets("w", "Paralysing Touch") == []


def test_ftc_8_3_paralysed_target_cannot_act() -> None:
    def make(seed: int) -> Battle:
        return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)], seed=seed))

    def shows(b: Battle) -> bool:
        play_round(
            b,
            lambda b_, fid: (
                act.Declare("w", spell="Paralysing Touch", spell_target="z") if fid == "w" else act.Declare(fid)
            ),
        )
        return any(isinstance(e, ev.EffectBegan) for e in b.events) and not b.over

    b = at_seed(6, make, shows)
    began = next(i for i, e in enumerate(b.events) if isinstance(e, ev.EffectBegan))
    play_round(b)
    after = b.events[began:]
    assert {(e.figure, e.phase) for e in kinds(after, ev.HeldFast)} == {("z", "move"), ("z", "attack")}  # type: ignore[attr-defined]
    assert not any(isinstance(e, (ev.Declared, ev.Moved)) and e.figure == "z" for e in after)


def test_ftc_8_3_bolt_missed_onto_a_bystander() -> None:
    def make(seed: int) -> Battle:
        return Battle(
            axial(
                [
                    ("w", "blue", "wizard", CENTRE, 0),
                    ("t", "red", "swift", east(CENTRE, 4), 3),
                    ("by", "red", "brigand", east(CENTRE, 2), 3),
                ],
                seed=seed,
            )
        )

    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell="Fire Bolt", spell_target="t")
        if fid == "t":
            return act.Declare("t", "mildly_defensive", dodge=("w",))
        return act.Declare(fid)

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        return any(isinstance(e, ev.StrayShot) and e.victim == "by" for e in b.events)

    b = at_seed(6, make, shows)
    miss = next(e for e in b.events if isinstance(e, ev.AttackResolved) and e.target == "t")
    assert miss.weapon == "Fire Bolt" and not miss.hit and miss.defence is not None
    assert ("dodging a spell", magic.spell_dodge_bonus(magic.spell("Fire Bolt"))) in miss.defence_mods


def test_ftc_8_3_dodge_accepts_an_enemy_caster() -> None:
    b = Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("z", "red", "brigand", east(CENTRE, 4), 3)], seed=0))
    assert "w" in b.declare_options("z")["firers"]  # type: ignore[operator]


# ------------------------------------------------------------------------------------------ effects


def test_ftc_8_area_spell_gives_bad_light_and_blocks_sight() -> None:
    setup = axial([("w", "blue", "wizard", CENTRE, 0), ("a", "red", "archer", east(CENTRE, 5), 3)], seed=0)
    b = Battle(replace(setup, gm="referee"))
    centre = east(CENTRE, 2)
    # the wizard casts the cloud (1 round: it counts from the next round), his casting roll set by the GM
    assert b.spell_targets("w", "Fire Bolt") == ["a"]
    b.apply(gm.SetDie("w", "combat", (1, 1, 1, 1)))
    play_round(b, {"w": act.Declare("w", spell="Blinding Cloud", spell_hex=centre)})
    assert [e.hex for e in b.effects()] == [centre]
    # sight across the cloud is blocked: no bolt, no arrow
    assert b.spell_targets("w", "Fire Bolt") == []
    assert b.targets_for("a", weapon("Shortbow")) == []
    # attacking into it: table 7's bad light
    w, a = b.figure("w"), b.figure("a")
    a.hex = east(centre, 1)  # inside the cloud, at its edge
    terms = b.attack_terms(a, w, weapon("Large Knife"), Stance.NEUTRAL)
    assert ("bad light (Blinding Cloud)", -2) in [(m.name, m.value) for m in terms.modifiers]


def test_ftc_8_heal_lowers_the_worst_wound() -> None:
    def make(seed: int) -> Battle:
        b = Battle(
            axial(
                [
                    ("w", "blue", "wizard", CENTRE, 0),
                    ("k", "blue", "knight", east(CENTRE), 0),
                    ("z", "red", "brigand", east(CENTRE, 5), 3),
                ],
                seed=seed,
            )
        )
        b.figure("k").wounds = b.figure("k").wounds.record(WoundLevel.HURT)[0]
        return b

    def shows(b: Battle) -> bool:
        play_round(
            b,
            lambda b_, fid: act.Declare("w", spell="Heal Wound", spell_target="k") if fid == "w" else act.Declare(fid),
        )
        return any(isinstance(e, ev.Healed) for e in b.events)

    b = at_seed(0, make, shows)
    healed = next(e for e in b.events if isinstance(e, ev.Healed))
    # Fudge 4.8: Scratches are not a level, a Hurt wound healed one level is fully healed
    assert healed.before == "Hurt" and healed.after == Wounds().label
    assert b.figure("k").wounds.worst is None


def test_ftc_8_1_effect_expires_at_round_start_with_an_event() -> None:
    def shows(b: Battle) -> bool:
        play_round(b, lambda b_, fid: act.Declare("w", spell="Ward") if fid == "w" else act.Declare(fid))
        return any(isinstance(e, ev.EffectBegan) for e in b.events)

    b = at_seed(0, lambda s: Battle(spell_far(s)), shows)
    began = next(e for e in b.events if isinstance(e, ev.EffectBegan))
    assert (began.first_round, began.last_round) == (1, 5)
    assert [x.rounds_left for x in b.effects_on("w")] == [4]  # round 2 now: rounds 2..5
    for _ in range(3):
        play_round(b)
    assert b.effects_on("w") and not any(isinstance(e, ev.EffectEnded) for e in b.events)
    out = play_round(b)
    assert [e.spell for e in kinds(out, ev.EffectEnded)] == ["Ward"]  # type: ignore[attr-defined]
    assert b.effects_on("w") == []


def test_ftc_8_spell_terms_match_the_casting_roll() -> None:
    b = Battle(spell_duel(4))
    out = play_round(b, {"w": act.Declare("w", spell="Fire Bolt", spell_target="a")})
    cast = kinds(out, ev.SpellCast)[0]
    assert isinstance(cast, ev.SpellCast)
    assert cast.result == cast.skill + sum(cast.faces) + sum(v for _, v in cast.modifiers)
    assert cast.success == (cast.result >= cast.difficulty)


def test_ftc_8_illegal_spell_declarations_change_nothing() -> None:
    b = Battle(spell_duel(0))
    while (d := legal_actions(b)) is not None and d.reason != "declare":
        b.apply(act.Move(d.figure or "", ()))
    d = legal_actions(b)
    assert d is not None
    fid = d.figure or ""
    other = "a" if fid == "w" else "w"
    n = len(b.events)
    bad = [
        act.Declare(fid, spell="Meteor Swarm"),
        act.Declare(fid, spell="Lightning", spell_target=other),
        act.Declare(fid, spell_target=other),
    ]
    if fid == "a":
        bad.append(act.Declare("a", spell="Fire Bolt", spell_target="w"))  # the archer knows no spells
    for a in bad:
        with pytest.raises(IllegalAction):
            b.apply(a)
    assert len(b.events) == n and legal_actions(b) == d


# ------------------------------------------------------------------------------------------ random play


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), secret=st.booleans())
def test_ftc_8_random_play_with_casters_keeps_every_invariant(seed: int, secret: bool) -> None:
    b = Battle(magic_skirmish(seed, RuleOptions(secret_stances=secret)))
    players = {"blue": RandomPlayer(seed), "red": RandomPlayer(seed + 1)}
    while not b.over and b.round <= 10:
        d = legal_actions(b)
        assert d is not None
        action = players[d.side](b, d)
        able = {f.id for f in b.figures.values() if f.can_act}
        wounds = {f.id: list(f.wounds.received()) for f in b.figures.values()}
        events = b.apply(action)
        check_events(b, events, able)
        _check_healing_aware_state(b, wounds, events)
        for fid in b.figures:
            conc = b.casting_of(fid)
            assert conc is None or (b.figures[fid].can_act and conc.rounds_left >= 1)
        for e in b.effects():
            assert e.active(b.round)


def _check_healing_aware_state(b: Battle, wounds: dict[str, list[object]], events: list[ev.Event]) -> None:
    """``check_state``, except that a healing spell may shrink its target's wound track."""
    healed = {e.figure for e in events if isinstance(e, ev.Healed)}
    for fid in healed:
        wounds[fid] = []
    check_state(b, wounds)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ durations (8.1)


def _by_round(events: list[ev.Event]) -> dict[int, list[ev.Event]]:
    """A battle's events grouped by the round they happened in (a round's movement phase begins with it)."""
    out: dict[int, list[ev.Event]] = {}
    current = 0
    for e in events:
        if isinstance(e, ev.RoundBegan):
            current = e.round
        out.setdefault(current, []).append(e)
    return out


def _touch_on(target: str, spell: str = "Paralysing Touch") -> Callable[[Battle, str], act.Action]:
    return lambda b, fid: act.Declare("w", spell=spell, spell_target=target) if fid == "w" else act.Declare(fid)


def test_ftc_8_1_paralysing_touch_holds_its_target_two_whole_rounds() -> None:
    def make(seed: int) -> Battle:
        return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("k", "red", "peasant", east(CENTRE), 3)], seed=seed))

    def shows(b: Battle) -> bool:
        play_round(b, _touch_on("k"))
        return any(isinstance(e, ev.EffectBegan) for e in b.events) and not b.over

    b = at_seed(1, make, shows)
    began = next(e for e in b.events if isinstance(e, ev.EffectBegan))
    # taken hold with round 1's attacks, it counts in rounds 2 and 3 ("cannot act for two rounds")
    assert (began.first_round, began.last_round) == (2, 3)
    badges = []
    for _ in range(3):
        badges.append([x.rounds_left for x in b.effects_on("k")])
        play_round(b)
    assert badges == [[2], [1], []]  # the token's badge counts the rounds still to come
    rounds = _by_round(b.events)
    for r in (2, 3):
        assert {e.phase for e in kinds(rounds[r], ev.HeldFast) if e.figure == "k"} == {"move", "attack"}  # type: ignore[attr-defined]
        assert not any(isinstance(e, ev.Declared) and e.figure == "k" for e in rounds[r])
    assert [e.spell for e in kinds(rounds[4], ev.EffectEnded)] == ["Paralysing Touch"]  # type: ignore[attr-defined]
    assert not kinds(rounds[4], ev.HeldFast)
    assert any(isinstance(e, ev.Declared) and e.figure == "k" for e in rounds[4])


def test_ftc_8_1_a_one_round_dazzle_counts_in_the_round_it_is_cast_and_ends() -> None:
    # Dazzle: 1 second, duration 1 round: resolved at declaration, it counts in the attacks of its round
    def make(seed: int) -> Battle:
        return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("k", "red", "peasant", east(CENTRE), 3)], seed=seed))

    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell="Dazzle", spell_target="k") if b.round == 1 else act.Declare("w")
        return act.Declare("k", "neutral", ("w",))

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        if not any(isinstance(e, ev.EffectBegan) for e in b.events) or b.over:
            return False
        play_round(b, declares)
        return sum(isinstance(e, ev.AttackResolved) and e.attacker == "k" for e in b.events) == 2

    b = at_seed(0, make, shows)
    began = next(e for e in b.events if isinstance(e, ev.EffectBegan))
    assert (began.first_round, began.last_round) == (1, 1)
    rounds = _by_round(b.events)
    blow1, blow2 = (
        next(e for e in rounds[r] if isinstance(e, ev.AttackResolved) and e.attacker == "k") for r in (1, 2)
    )
    assert ("Dazzled (Dazzle)", -1) in blow1.offence_mods  # type: ignore[attr-defined]
    assert [e.spell for e in kinds(rounds[2], ev.EffectEnded)] == ["Dazzle"]  # type: ignore[attr-defined]
    assert not any(name.startswith("Dazzled") for name, _ in blow2.offence_mods)  # type: ignore[attr-defined]


def test_ftc_8_1_a_one_second_ward_protects_in_the_round_it_is_cast_and_lasts_five_rounds() -> None:
    def make(seed: int) -> Battle:
        return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("k", "red", "clumsy", east(CENTRE), 3)], seed=seed))

    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell="Ward") if b.round == 1 else act.Declare("w")
        return act.Declare("k", "neutral", ("w",))

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        if not any(isinstance(e, ev.EffectBegan) for e in b.events):
            return False
        while b.round <= 6 and not b.over:
            play_round(b, declares)
        return not b.over

    b = at_seed(0, make, shows)
    rounds = _by_round(b.events)
    warded = {
        r: any(
            name == "Ward"
            for e in rounds[r]
            if isinstance(e, ev.AttackResolved) and e.target == "w"
            for name, _ in e.defence_mods
        )
        for r in range(1, 7)
    }
    assert warded == {1: True, 2: True, 3: True, 4: True, 5: True, 6: False}


# ------------------------------------------------------------------------------------------ touch (6.2, 8.3)


def _wizard_and_brigand(seed: int) -> Battle:
    return Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("k", "red", "brigand", east(CENTRE), 3)], seed=seed))


def _declared_first(b: Battle) -> str:
    return next(e.figure for e in b.events if isinstance(e, ev.Declared))


@pytest.mark.parametrize("first", ["w", "k"])
def test_ftc_6_2_touch_reaches_a_target_in_reach_anywhere_along_its_retreat(first: str) -> None:
    seen: dict[str, object] = {}

    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "k":
            seen["retreats"] = b.retreat_hexes("k")
            seen["attackers"] = [f.id for f in b.threats_to("k")]
            return act.Declare("k", "mildly_defensive", retreat=b.retreat_hexes("k")[0])
        seen["touchable"] = b.spell_targets("w", "Paralysing Touch")
        return act.Declare("w", spell="Paralysing Touch", spell_target="k")

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        return _declared_first(b) == first and any(isinstance(e, ev.SpellCast) and e.success for e in b.events)

    b = at_seed({"w": 0, "k": 4}[first], _wizard_and_brigand, shows)
    stepped = next(e for e in b.events if isinstance(e, ev.Stepped))
    assert stepped.figure == "k" and stepped.reason == "retreat" and distance(stepped.to, CENTRE) == 2
    # the caster touching him is one of his attackers (declared or not yet): every retreat leads away from him
    assert seen["attackers"] == ["w"]
    assert seen["retreats"] and all(distance(h, CENTRE) == 2 for h in seen["retreats"])  # type: ignore[attr-defined]
    # declared after the retreat, the touch may still be aimed at him: he was in reach before it
    assert seen["touchable"] == ["k"]
    assert not kinds(b.events, ev.ConcentrationBroken)
    assert [e.target for e in kinds(b.events, ev.TouchAttack)] == ["k"]  # type: ignore[attr-defined]


def test_ftc_8_1_a_touch_on_a_concentrating_caster_forces_a_good_will_roll() -> None:
    # the touch is a standard melee attack (FTC 8.3): he must defend against it, so he is forced to dodge
    def make(seed: int) -> Battle:
        return Battle(
            axial(
                [
                    ("w", "blue", "wizard", CENTRE, 0),
                    ("x", "red", "wizard", east(CENTRE), 3),
                    ("b", "red", "brigand", Hex(8, 2), 3),
                ],
                seed=seed,
            )
        )

    def declares(b: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell="Thunderstrike", spell_target="b")
        if fid == "x" and b.round == 2:
            return act.Declare("x", spell="Withering Touch", spell_target="w")  # x does not dodge: a touch
        return act.Declare(fid)

    def shows(b: Battle) -> bool:
        play_round(b, declares)
        return b.casting_of("w") is not None

    b = at_seed(0, make, shows)
    out = play_round(b, declares)
    rolled = [e for e in kinds(out, ev.ConcentrationRolled) if e.caster == "w"]  # type: ignore[attr-defined]
    assert rolled and rolled[0].reason == "dodge"  # type: ignore[attr-defined]
    assert rolled[0].difficulty == magic.concentration_difficulty("dodge")  # type: ignore[attr-defined]
    first_will = out.index(rolled[0])
    assert all(out.index(e) > first_will for e in kinds(out, ev.TouchAttack))


def _to_declarations(b: Battle) -> None:
    while (d := legal_actions(b)) is not None and d.reason != "declare":
        b.apply(act.PassInterrupt(d.side) if d.reason == "interrupt" else act.Move(d.figure or "", ()))


def test_ftc_8_3_a_touch_reaches_the_front_hexes_only_whatever_weapon_the_caster_holds() -> None:
    # a wizard with a spear reaches 2 hexes with it (FTC 9.1), but touches with his hand
    wz = character("wizard", weapons=["Spear or Pike"], skills={"Magic": "Great", "Spear": "Fair"})
    figures = (
        FigureSetup("w", "W", "blue", wz, CENTRE, 0),
        FigureSetup("k", "K", "red", character("brigand"), east(CENTRE, 2), 3),
        FigureSetup("a", "A", "blue", character("knight"), neighbor(CENTRE, 1), 0),
    )
    b = Battle(BattleSetup(TerrainMap.open(12, 10), SIDES, figures, seed=0))
    _to_declarations(b)
    assert "k" in b.targets_for("w", weapon("Spear or Pike"))
    assert b.spell_targets("w", "Paralysing Touch") == [] and b.spell_targets("w", "Withering Touch") == []
    assert b.spell_targets("w", "Shield of Force") == ["w", "a"]  # himself, and the ally in his front hex


@pytest.mark.parametrize("near", [True, False])
def test_ftc_8_3_a_large_caster_touches_from_the_front_of_its_footprint(near: bool) -> None:
    drake = character("wizard", weapons=["Spear or Pike"], skills={"Magic": "Great", "Spear": "Fair"}, footprint=7)
    body = footprint(CENTRE, 7, 0)
    spot = sorted(front_zone(body, 0, 1) if near else front_zone(body, 0, 2) - front_zone(body, 0, 1))[0]
    figures = (
        FigureSetup("w", "W", "blue", drake, CENTRE, 0),
        FigureSetup("k", "K", "red", character("brigand"), spot, 3),
    )
    b = Battle(BattleSetup(TerrainMap.open(12, 10), SIDES, figures, seed=0))
    _to_declarations(b)
    assert "k" in b.targets_for("w", weapon("Spear or Pike"))
    assert (b.spell_targets("w", "Paralysing Touch") == ["k"]) is near


def test_ftc_8_3_a_touch_damage_spell_does_the_spells_damage_not_the_touchs() -> None:
    # "a standard attack that does no damage (beyond what the spell would do)": the touch decides whether
    # the spell takes effect; the damage is the casting's degree + the spell's factor, on the torso
    hits: list[tuple[ev.SpellCast, ev.TouchAttack, ev.AttackResolved]] = []
    for seed in range(11):  # fixed seeds; eight of them land the touch
        b = Battle(axial([("w", "blue", "wizard", CENTRE, 0), ("z", "red", "peasant", east(CENTRE), 3)], seed=seed))
        out = play_round(b, _touch_on("z", "Withering Touch"))
        blows = [e for e in out if isinstance(e, ev.AttackResolved) and e.attacker == "w"]
        touches = [e for e in out if isinstance(e, ev.TouchAttack)]
        cast = [e for e in out if isinstance(e, ev.SpellCast)]
        if touches and not touches[0].hit:
            assert not blows  # a touch that misses: the spell does nothing
        if blows:
            hits.append((cast[0], touches[0], blows[0]))
    assert len(hits) >= 8
    item = magic.spell("Withering Touch")
    for cast, touch, blow in hits:
        assert touch.hit and blow.hit and blow.weapon == item.name
        assert blow.offence == cast.result and blow.defence is None and blow.difficulty == item.difficulty
        assert blow.relative_degree == cast.result - item.difficulty
        assert blow.location == "torso"
        assert blow.damage == blow.relative_degree + item.damage - sum(v for _, v in blow.defensive_factors)
    # the touch's own degree would often have been larger: it does not count
    assert any(t.offence - max(t.defence or -99, t.difficulty) != b.relative_degree for _, t, b in hits)
