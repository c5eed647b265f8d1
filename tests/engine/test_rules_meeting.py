"""Where the rules meet: whole battles in which two sections of the rules act on the same blow, driven through
the door (``legal_actions`` / ``apply``) with the dice set from the GM's seat.

Each test is named after the section it reads and quotes the words it checks; the readings are
``docs/rulings.md``'s.
"""

from __future__ import annotations

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, BattleSetup, Decision, FigureSetup, IllegalAction, RuleOptions, legal_actions
from game.engine.hexgrid import Hex, neighbor
from game.engine.terrain import TerrainMap
from game.engine.wounds import named_track
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, attacks, dice, figure, play, start
from tests.golden.scenarios import CENTRE, SIDES, east
from tests.helpers import do_little, refereed


def kinds(events: list[ev.Event], cls: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if isinstance(e, cls)]


def field(*figures: FigureSetup, options: RuleOptions | None = None) -> BattleSetup:
    """The figures on an open 14 x 10 field."""
    return BattleSetup(TerrainMap.open(14, 10), SIDES, figures, options or RuleOptions(), 0)


# ------------------------------------------------------------------------------------------ FTC 9.2 shields


def test_ftc_9_2_a_small_shield_is_used_against_one_attack_a_round_free_attacks_included() -> None:
    """FTC 9.2: Small Shield "Use against 1 attack/round"; FTC 5.3: each stopper gets "an extra free attack".

    M, a shield fighter who parries badly with his axe, fails to escape two stoppers and runs: his small
    shield counts against the first free attack only; the second meets his axe.
    """
    west = neighbor(CENTRE, 3)
    m = figure("m", "blue", "brigand", CENTRE, 3, skills={"Axe": "Poor", "Shield": "Superb"}, shield="Small Shield")
    s1 = figure("s1", "red", "brigand", east(CENTRE), 3)
    s2 = figure("s2", "red", "brigand", neighbor(CENTRE, 1), 4)
    b = start(field(m, s1, s2), m=DOWN, s1=UP, s2=EVEN)
    dice(b, m=("escape", DOWN))
    b.apply(gm.SetDie("s1", "escape", UP))
    b.apply(gm.SetDie("s2", "escape", UP))
    dice(b, s1=("combat", EVEN), s2=("combat", EVEN))
    b.apply(gm.SetDie("m", "combat", EVEN))

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure == "m":
            return act.Move("m", ((west, 3),))
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice("m", True)
        return None

    events = play(b, choose, phase="attack")
    free = [a for a in kinds(events, ev.AttackResolved) if isinstance(a, ev.AttackResolved) and a.free_attack]
    assert [a.attacker for a in free] == ["s1", "s2"]
    shielded = [any(name == "Shield" for name, _ in a.defence_mods) for a in free]
    assert shielded == [True, False]
    assert free[0].defence is not None and free[1].defence is not None
    assert free[0].defence > free[1].defence  # the Superb shield against the first, the Poor axe against the second


def test_ftc_9_2_a_shield_spent_on_a_free_attack_is_not_used_again_in_the_attack_phase() -> None:
    """FTC 9.2: "Use against 1 attack/round": a round is its movement phase and its attack phase.

    M runs from S1, taking S1's free attack on his small shield; in the attack phase of the same round S2
    strikes him, and his axe, not his spent shield, meets the blow.
    """
    west = neighbor(CENTRE, 3)
    m = figure("m", "blue", "brigand", CENTRE, 3, skills={"Axe": "Poor", "Shield": "Superb"}, shield="Small Shield")
    s1 = figure("s1", "red", "brigand", east(CENTRE), 3)
    s2 = figure("s2", "red", "swift", neighbor(west, 3), 0)
    b = start(field(m, s1, s2), m=DOWN, s1=UP, s2=EVEN)
    dice(b, m=("escape", DOWN), s1=("escape", UP))
    b.apply(gm.SetDie("s1", "combat", DOWN))

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure == "m":
            return act.Move("m", ((west, 3),))
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice("m", True)
        if d.reason == "declare" and d.figure == "s2":
            return act.Declare("s2", targets=("m",))
        return None

    events = play(b, choose)
    free = [a for a in attacks(events, "s1", "m") if a.free_attack]
    assert len(free) == 1 and any(name == "Shield" for name, _ in free[0].defence_mods)
    assert b.figures["m"].hex == west
    blow = attacks(events, "s2", "m")
    assert len(blow) == 1 and not any(name == "Shield" for name, _ in blow[0].defence_mods)


# ------------------------------------------------------------------------------------------ FTC 6.5.3 misses


def test_ftc_6_5_3_a_figure_covering_two_hexes_on_the_line_of_fire_is_one_combatant() -> None:
    """FTC 6.5.3, table 9: "If there is one enemy along the line of fire, a +3 … If two, a +2".

    A seven-hex dragon stands across the archer's line of fire with three of its hexes on it. It is one
    enemy at risk, so a situational roll of +2 after the miss strikes nobody.
    """
    a = figure("a", "blue", "archer", Hex(1, 4), 0)
    t = figure("t", "red", "brigand", Hex(10, 4), 3)
    d = figure("d", "red", "dragon", Hex(5, 4), 3)
    b = refereed(field(a, t, d))
    dice(b, a=("combat", DOWN), t=("combat", EVEN))
    b.apply(gm.SetDie("a", "situational", (1, 1, 0, 0)))

    def choose(b_: Battle, dd: Decision) -> act.Action | None:
        if dd.reason == "declare" and dd.figure == "a":
            return act.Declare("a", targets=("t",))
        return None

    events = play(b, choose)
    assert not attacks(events, "a", "t")[0].hit
    stray = kinds(events, ev.StrayShot)
    assert len(stray) == 1 and isinstance(stray[0], ev.StrayShot)
    assert stray[0].enemies == ("d",) and stray[0].friends == ()
    assert stray[0].victim is None  # one enemy at risk: +3 is needed, +2 is not enough


# ------------------------------------------------------------------------------------------ FTC 6.4, 8


def _healed_then_hurt_again() -> tuple[Battle, list[ev.Event]]:
    """K is made Very Hurt in round 1 by a 1-second dart, healed to Hurt by his friend's Heal Wound in round 2,
    and made Very Hurt again by a dart in round 3, before his own blow of round 3 is struck."""
    k = figure("k", "blue", "brigand", CENTRE, 0, armour=[])
    w = figure("w", "blue", "wizard", neighbor(CENTRE, 3), 0)
    e = figure("e", "red", "wizard", east(CENTRE, 2), 3, skills={"Magic": "Superb", "Knife": "Fair"})
    z = figure("z", "red", "brigand", neighbor(CENTRE, 1), 4, armour=[])
    b = refereed(field(k, w, e, z))
    out: list[ev.Event] = []
    for rnd in (1, 2, 3):
        assert b.round == rnd
        if rnd in (1, 3):
            dice(b, e=("combat", (1, 1, 0, 0)), k=("health", DOWN))  # a dart of 6 damage: Very Hurt
        if rnd == 2:
            dice(b, w=("combat", UP))

        def choose(b_: Battle, d: Decision, rnd: int = rnd) -> act.Action | None:
            if d.reason == "declare" and d.figure == "e" and rnd in (1, 3):
                return act.Declare("e", spell="Flame Dart", spell_target="k")
            if d.reason == "declare" and d.figure == "w" and rnd == 2:
                return act.Declare("w", spell="Heal Wound", spell_target="k")
            if d.reason == "declare" and d.figure == "k" and rnd == 3:
                return act.Declare("k", targets=("z",))
            return None

        out = play(b, choose)
    return b, out


def test_ftc_6_4_a_very_hurt_wound_taken_again_after_heal_wound_counts_from_the_next_round() -> None:
    """FTC 6.4: "Any Very Hurt wounds taken during a given round do not give an attack penalty until
    subsequent rounds." Heal Wound (FTC 8) lowered K from Very Hurt to Hurt; Very Hurt again in round 3, K's
    own blow of round 3 is struck without the -1."""
    b, events = _healed_then_hurt_again()
    wounds = [w for w in kinds(events, ev.Wounded) if isinstance(w, ev.Wounded) and w.figure == "k"]
    assert wounds and wounds[0].box == "Very Hurt"
    blow = attacks(events, "k", "z")
    assert len(blow) == 1
    assert not any(name == "Very Hurt" for name, _ in blow[0].offence_mods)
    assert b.figures["k"].very_hurt_penalty(4) == -1  # from the next round on


# ------------------------------------------------------------------------------------------ FTC 8.1


def test_ftc_8_1_a_caster_damaged_in_his_last_round_of_concentration_rolls_great_will() -> None:
    """FTC 8.1: "If the caster takes damage, a Great Willpower roll is necessary to maintain concentration."

    The wizard concentrates on Thunderstrike for five rounds; in the fifth, as the spell is due, an archer's
    arrow wounds him. He rolls Will against Great, fails, and the spell does not go off.
    """
    w = figure("w", "blue", "wizard", Hex(1, 4), 0, armour=[])
    t = figure("t", "red", "brigand", Hex(8, 4), 3)
    r = figure("r", "red", "archer", Hex(5, 2), 3)
    b = refereed(field(w, t, r))
    out: list[ev.Event] = []
    while b.round < 5:

        def concentrate(b_: Battle, d: Decision) -> act.Action | None:
            if d.reason == "declare" and d.figure == "w":
                return act.Declare("w", spell="Thunderstrike", spell_target="t")
            return None

        play(b, concentrate)
    assert b.casting_of("w") is not None
    dice(b, r=("combat", UP), w=("combat", EVEN))
    b.apply(gm.SetDie("w", "health", DOWN))
    b.apply(gm.SetDie("w", "will", DOWN))

    def last(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            return act.Declare("w", spell="Thunderstrike", spell_target="t")
        if d.reason == "declare" and d.figure == "r":
            return act.Declare("r", targets=("w",))
        return None

    out = play(b, last)
    assert attacks(out, "r", "w")[0].wound is not None
    rolled = [e for e in kinds(out, ev.ConcentrationRolled) if isinstance(e, ev.ConcentrationRolled)]
    assert [(e.caster, e.reason, e.kept) for e in rolled] == [("w", "damaged", False)]
    assert not [e for e in kinds(out, ev.SpellCast) if isinstance(e, ev.SpellCast) and e.spell == "Thunderstrike"]
    assert b.casting_of("w") is None


# ------------------------------------------------------------------------------------------ zones of control


def test_rulings_zone_of_control_a_figure_held_by_a_spell_projects_no_zone() -> None:
    """docs/rulings.md "Zone of control": "A figure that cannot act (… held by a spell that stops it acting)
    projects no zone: it cannot choose to stop anyone." (FTC 5.2, 5.3, 8: Paralysing Touch.)

    P is paralysed; M leaves P's front hex: nobody asks to stop him, no escape contest is rolled, no free
    attack is struck, and M walks on.
    """
    p = figure("p", "blue", "brigand", CENTRE, 0)
    m = figure("m", "red", "brigand", east(CENTRE), 0)
    w = figure("w", "red", "wizard", neighbor(CENTRE, 1), 4)
    b = refereed(field(p, m, w))
    dice(b, w=("combat", UP), p=("combat", DOWN))
    b.apply(gm.SetDie("p", "resistance", DOWN))

    def paralyse(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            return act.Declare("w", spell="Paralysing Touch", spell_target="p")
        return None

    play(b, paralyse)
    assert [e.spell.name for e in b.effects_on("p")] == ["Paralysing Touch"]
    away = east(CENTRE, 2)
    assert b.zone(b.figures["p"]) == frozenset()

    def leave(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure == "m":
            return act.Move("m", ((away, 0),))
        return None

    events = play(b, leave, phase="attack")
    assert not kinds(events, ev.StopDecided) and not kinds(events, ev.EscapeContest)
    assert not [a for a in kinds(events, ev.AttackResolved) if isinstance(a, ev.AttackResolved) and a.free_attack]
    assert b.figures["m"].hex == away


# ------------------------------------------------------------------------------------------ Fudge 4.55


def test_fudge_4_55_a_figure_on_the_doubled_degree_track_takes_the_relative_degree_twice() -> None:
    """Fudge 4.55: "A GM who believes the relative degree is more important than the damage factor would
    double it before adding it to the damage factor. The numbers above the wound levels should be adjusted
    in this case: 1-3 4-6 7-9 10-12 13+."

    The same Great blow of the same axe on two peasants: the one on the doubled-degree track takes the
    relative degree twice, read on its own track.
    """
    z = figure("z", "red", "brigand", east(CENTRE), 3)
    y = figure("y", "red", "brigand", neighbor(CENTRE, 5), 2)
    plain = figure("a", "blue", "peasant", CENTRE, 0)
    doubled = figure("d", "blue", "peasant", neighbor(CENTRE, 4), 0, wound_track="doubled_degree")
    b = refereed(field(z, y, plain, doubled))
    dice(b, z=("combat", UP), y=("combat", UP), a=("combat", EVEN), d=("combat", EVEN))

    def strike(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "z":
            return act.Declare("z", targets=("a",), aim="torso")
        if d.reason == "declare" and d.figure == "y":
            return act.Declare("y", targets=("d",), aim="torso")
        return None

    events = play(b, strike)
    on_plain, on_doubled = attacks(events, "z", "a")[0], attacks(events, "y", "d")[0]
    assert on_plain.hit and on_doubled.hit and on_plain.relative_degree == on_doubled.relative_degree >= 2
    factors = sum(v for _, v in on_plain.offensive_factors) - sum(v for _, v in on_plain.defensive_factors)
    assert on_plain.damage == on_plain.relative_degree + factors
    assert on_doubled.damage == 2 * on_doubled.relative_degree + factors
    assert ("relative degree x2 (Fudge 4.55)", on_doubled.relative_degree) in on_doubled.offensive_factors
    assert named_track("doubled_degree").degree_multiplier == 2


# ------------------------------------------------------------------------------------------ FTC 6.2, Fudge 4.32


def test_ftc_6_2_under_secret_stances_an_advance_blocked_at_the_reveal_strikes_nobody() -> None:
    """FTC 6.2: an attack reaches a target "at any point along the movement of the two characters"; Fudge
    4.32: stances (and the steps they allow) are revealed together.

    X and A both advance into the hex beside T. X declared first, so at the reveal X steps in and A's step
    is blocked: A, two hexes from T with an axe, strikes nobody, and the log says why.
    """
    step = east(CENTRE)
    t = figure("t", "red", "brigand", CENTRE, 0)
    a = figure("a", "blue", "brigand", east(CENTRE, 2), 3)
    x = figure("x", "blue", "brigand", neighbor(step, 1), 4)
    b = start(field(t, a, x, options=RuleOptions(secret_stances=True)), t=UP, a=EVEN, x=DOWN)
    dice(b, a=("combat", UP), x=("combat", EVEN), t=("combat", DOWN))
    order: list[str] = []

    def advance(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure in ("a", "x"):
            order.append(d.figure)
            return act.Declare(d.figure, "mildly_aggressive", ("t",), advance=(step,))
        return None

    events = play(b, advance)
    assert order == ["x", "a"]
    assert b.figures["x"].hex == step and b.figures["a"].hex == east(CENTRE, 2)
    assert attacks(events, "a") == []
    lapsed = kinds(events, ev.AttackLapsed)
    assert [(e.attacker, e.target) for e in lapsed if isinstance(e, ev.AttackLapsed)] == [("a", "t")]
    assert len(attacks(events, "x", "t")) == 1


def test_ftc_6_2_without_secret_stances_the_same_advance_is_refused_when_declared() -> None:
    """FTC 6.2 with open declarations: once X has stepped in, A cannot declare the advance into X's hex."""
    step = east(CENTRE)
    t = figure("t", "red", "brigand", CENTRE, 0)
    a = figure("a", "blue", "brigand", east(CENTRE, 2), 3)
    x = figure("x", "blue", "brigand", neighbor(step, 1), 4)
    b = start(field(t, a, x), t=UP, a=EVEN, x=DOWN)
    while (d := legal_actions(b)) is not None and not (d.reason == "declare" and d.figure == "a"):
        if d.reason == "declare" and d.figure == "x":
            b.apply(act.Declare("x", "mildly_aggressive", ("t",), advance=(step,)))
        else:
            b.apply(do_little(d))
    before = b.snapshot()
    with pytest.raises(IllegalAction, match="occupied"):
        b.apply(act.Declare("a", "mildly_aggressive", ("t",), advance=(step,)))
    assert b.snapshot() == before


# ------------------------------------------------------------------------------------------ readings


def test_rulings_durations_a_spell_cast_twice_on_a_figure_counts_once() -> None:
    """docs/rulings.md "Durations": Haste (+2 hexes of movement) cast on K in two rounds running gives +2, not
    +4: a spell does not add to itself."""
    k = figure("k", "blue", "brigand", CENTRE, 0)
    w = figure("w", "blue", "wizard", neighbor(CENTRE, 3), 0)
    z = figure("z", "red", "brigand", Hex(7, 8), 3)
    b = refereed(field(k, w, z))
    base = b.movement_allowance_of(b.figures["k"])
    for _ in range(2):
        dice(b, w=("combat", UP))
        play(
            b,
            lambda b_, d: (
                act.Declare("w", spell="Haste", spell_target="k") if d.reason == "declare" and d.figure == "w" else None
            ),
        )
    assert len([e for e in b.effects_on("k") if e.spell.name == "Haste"]) == 2
    assert b.movement_allowance_of(b.figures["k"]) == base + 2


def test_ftc_6_5_3_a_figure_out_of_the_fight_on_the_line_of_fire_is_not_at_risk() -> None:
    """docs/rulings.md "Misses": only combatants are at risk from a miss; an Incapacitated figure lying on
    the line of fire is not."""
    a = figure("a", "blue", "archer", Hex(1, 4), 0)
    t = figure("t", "red", "brigand", Hex(9, 4), 3)
    down = figure("n", "red", "brigand", Hex(5, 4), 3, wounds=["Incapacitated"])
    b = refereed(field(a, t, down))
    assert b.figures["n"].out
    dice(b, a=("combat", DOWN), t=("combat", EVEN))

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("t",))
        return None

    events = play(b, choose)
    assert not attacks(events, "a", "t")[0].hit
    assert kinds(events, ev.StrayShot) == []


def test_rulings_heal_wound_reaches_only_figures_still_in_the_fight() -> None:
    """docs/rulings.md "Healing": Heal Wound is cast on a friend still fighting; one taken out waits for the
    care after the battle."""
    w_hex = neighbor(CENTRE, 3)
    k = figure("k", "blue", "brigand", CENTRE, 0, wounds=["Incapacitated"])  # in the wizard's reach, but out
    h = figure("h", "blue", "brigand", neighbor(w_hex, 1), 0, wounds=["Hurt"])
    w = figure("w", "blue", "wizard", w_hex, 0)
    z = figure("z", "red", "brigand", Hex(7, 8), 3)
    b = refereed(field(k, h, w, z))
    assert b.figures["k"].out
    assert set(b.spell_targets("w", "Heal Wound")) == {"h", "w"}
