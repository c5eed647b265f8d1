"""Whole battles compared with the words of *Fudge Tactical Combat* v0.4 (FTC 4, 5, 5.2, 5.3, 6.1, 6.2,
6.4.1, 8.3): figures placed, stances declared, dice set through the GM seat, and the events read back.

Each test is named after the section it reads and quotes the words it checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import (
    Battle,
    BattleSetup,
    Decision,
    FigureSetup,
    IllegalAction,
    RuleOptions,
    legal_actions,
)
from game.engine.hexgrid import Hex
from game.engine.preview import public_declarations, spell_preview
from game.engine.terrain import TerrainMap
from tests.golden.scenarios import CENTRE, SIDES, axial, character, east
from tests.helpers import do_little, refereed

UP = (1, 1, 1, 1)
DOWN = (-1, -1, -1, -1)
EVEN = (0, 0, 0, 0)

Chooser = Callable[[Battle, Decision], act.Action | None]


def start(setup: BattleSetup, **initiative: tuple[int, int, int, int]) -> Battle:
    """A refereed battle at the start of round 2, its initiative rolled with the given faces (round 1 is
    played out standing still and defending only, since its initiative is rolled as the battle opens)."""
    b = refereed(setup)
    for fid, faces in initiative.items():
        b.apply(gm.SetDie(fid, "initiative", faces))
    play(b, lambda b_, d: None)
    assert b.round == 2 and not b.gm_dice
    return b


def play(b: Battle, choose: Chooser, *, phase: str | None = None) -> list[ev.Event]:
    """Play the current round (or until ``phase`` begins) with ``choose``, falling back on ``default``."""
    start, out = b.round, []
    while not b.over and b.round == start and (phase is None or b.phase != phase):
        d = legal_actions(b)
        assert d is not None
        out.extend(b.apply(choose(b, d) or do_little(d)))
    return out


def dice(b: Battle, **rolls: tuple[str, tuple[int, int, int, int]]) -> None:
    """Set rolls through the GM seat: ``fid=(purpose, faces)``."""
    for fid, (purpose, faces) in rolls.items():
        b.apply(gm.SetDie(fid, purpose, faces))


def attacks(events: list[ev.Event], attacker: str, target: str | None = None) -> list[ev.AttackResolved]:
    return [
        e
        for e in events
        if isinstance(e, ev.AttackResolved) and e.attacker == attacker and (target is None or e.target == target)
    ]


def figure(fid: str, side: str, key: str, h: Hex, facing: int, **changes: object) -> FigureSetup:
    return FigureSetup(fid, fid.upper(), side, character(key, **changes), h, facing, "always", False)


# ------------------------------------------------------------------------------------------ FTC 4


def test_ftc_4_lumped_mooks_take_one_place_in_the_order() -> None:
    """FTC 4: "lump them ... into a single group ... and just roll once for the initiative of all the NPCs".

    The group of two goblins ties with the hero on the roll; the hero goes before or after the whole group,
    never between its members, whatever each goblin's own Agility.
    """
    terrain = TerrainMap.open(12, 10)
    figs = (
        figure("g1", "red", "goblin", Hex(6, 2), 3, agility="Great"),
        figure("g2", "red", "goblin", Hex(6, 4), 3, agility="Poor"),
        figure("h", "blue", "brigand", Hex(1, 3), 0),
    )
    figs = tuple(replace(f, mook=f.id.startswith("g")) for f in figs)
    b = refereed(BattleSetup(terrain, SIDES, figs, RuleOptions(mook_group_initiative=True), 0))
    dice(b, g1=("initiative", EVEN), h=("initiative", EVEN))
    events = play(b, lambda b_, d: None)
    order = next(e for e in events if isinstance(e, ev.InitiativeOrder)).order
    assert abs(order.index("g1") - order.index("g2")) == 1, order


# ------------------------------------------------------------------------------------------ FTC 5


def test_ftc_5_held_figures_wanting_the_same_moment_go_by_initiative() -> None:
    """FTC 5: "If two combatants with held movement announce simultaneously that they want to move, the one
    with higher initiative goes first."

    A (blue, best initiative) and Y (red) both hold; before B (blue, last) moves, A is offered the moment
    first — not Y, whose initiative is lower.
    """
    b = start(
        axial(
            [
                ("a", "blue", "brigand", Hex(1, 1), 0),
                ("y", "red", "brigand", Hex(8, 1), 3),
                ("bb", "blue", "brigand", Hex(1, 6), 0),
            ]
        ),
        a=UP,
        y=EVEN,
        bb=DOWN,
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure in ("a", "y"):
            return act.Hold(d.figure)
        return None

    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason in ("interrupt", "move") and b.figures["a"].held and b.figures["y"].held:
            break
        b.apply(choose(b, d) or do_little(d))
    assert d.side == "blue" and "a" in d.interrupters, d


def _through_setup(order: str = "never") -> Battle:
    return start(
        axial(
            [
                ("a", "blue", "brigand", CENTRE, 0),
                ("c", "blue", "brigand", east(CENTRE), 0),
                ("z", "red", "brigand", Hex(4, 8), 2),
            ],
            orders={"c": order},
        ),
        a=UP,
    )


def _move_a(b: Battle, steps: act.States) -> list[ev.Event]:
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "move" and d.figure == "a":
            return b.apply(act.Move("a", steps))
        b.apply(do_little(d))


def test_ftc_5_2_moving_through_a_friends_hex_costs_one_more_hex() -> None:
    """FTC 5.2: "If a character moves *through* a hex occupied by another character, either because the
    character occupying the hex doesn't try to stop the moving character or because the character successfully
    breaks the zone of control of the occupying character, it costs one additional hex of movement."
    """
    b = _through_setup()
    events = _move_a(b, ((east(CENTRE), 0), (east(CENTRE, 2), 0)))
    moved = next(e for e in events if isinstance(e, ev.Moved))
    assert b.figures["a"].hex == east(CENTRE, 2)
    assert moved.cost == 3  # two hexes, one of them through C's hex


def test_ftc_5_2_moving_through_an_enemy_who_does_not_stop_costs_one_more_hex() -> None:
    b = start(
        axial(
            [
                ("a", "blue", "brigand", CENTRE, 0),
                ("c", "red", "brigand", east(CENTRE), 1),
            ],
            orders={"c": "never"},
        ),
        a=UP,
    )
    events = _move_a(b, ((east(CENTRE), 0), (east(CENTRE, 2), 0)))
    moved = next(e for e in events if isinstance(e, ev.Moved))
    assert b.figures["a"].hex == east(CENTRE, 2) and moved.cost == 3


def test_ftc_5_2_a_move_may_not_end_in_an_occupied_hex() -> None:
    """FTC 5.2 prices passing through; no figure ends its move in another's hex."""
    b = _through_setup()
    with pytest.raises(IllegalAction):
        _move_a(b, ((east(CENTRE), 0),))
    assert b.figures["a"].hex == CENTRE


def test_ftc_5_3_the_free_attack_sees_the_runner_where_he_turns_tail() -> None:
    """FTC 5.3: "Character A may still 'turn tail and run', moving out of the zone of control. However,
    immediately ... Character B gets an extra free attack on Character A."

    M comes into S's zone (one hex in front of S's spear), turns his back on S there and runs. The free attack
    is struck at 1 m (no long-spear damage) from directly behind M (+2).
    """
    s_hex, y, x = CENTRE, east(CENTRE), east(CENTRE, 2)
    b = start(axial([("s", "blue", "spearman", s_hex, 0), ("m", "red", "brigand", x, 3)]), s=DOWN, m=UP)
    b.apply(gm.SetDie("m", "escape", DOWN))
    b.apply(gm.SetDie("s", "escape", UP))
    b.apply(gm.SetDie("s", "combat", UP))
    steps: act.States = ((y, 3), (y, 2), (y, 1), (y, 0), (x, 0))

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "move" and d.figure == "m":
            return act.Move("m", steps)
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice("m", True)
        return None

    events = play(b, choose, phase="attack")
    free = [a for a in attacks(events, "s", "m") if a.free_attack]
    assert len(free) == 1
    blow = free[0]
    assert ("Attacking from behind", 2) in blow.offence_mods
    assert blow.hit and not any("at 2 m" in name for name, _ in blow.offensive_factors)


# ------------------------------------------------------------------------------------------ FTC 6.1, 6.2


def test_ftc_6_1_a_firer_engaged_in_melee_must_beat_all_his_attackers() -> None:
    """FTC 6.1: combatants "must still defeat *all* of those attacking him in order to score a hit against any
    one opponent".

    The archer shoots the brigand four hexes away while the guard attacks him with a sword: his Superb shot
    beats the range difficulty but not the guard's defence, so it misses.
    """
    b = refereed(
        axial(
            [
                ("a", "blue", "archer", CENTRE, 0),
                ("t", "red", "brigand", east(CENTRE, 4), 3),
                ("g", "red", "guard", Hex(CENTRE.q - 1, CENTRE.r), 0),
            ]
        ),
    )
    dice(b, a=("combat", (1, 1, 0, 0)), g=("combat", UP), t=("combat", EVEN))

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("t",))
        if d.reason == "declare" and d.figure == "g":
            return act.Declare("g", targets=("a",))
        return None

    events = play(b, choose)
    shot = attacks(events, "a", "t")[0]
    assert shot.offence >= shot.difficulty  # the range alone would be beaten
    assert [fid for fid, _ in shot.other_defences] == ["g"]
    assert not shot.hit


def test_ftc_6_2_very_defensive_against_missiles_dives_for_the_ground() -> None:
    """FTC 6.2: "If he is attempting to dodge missile fire, he must also dive for the ground." """
    b = start(axial([("a", "blue", "archer", CENTRE, 0), ("t", "red", "brigand", east(CENTRE, 4), 3)]))

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "t":
            back = b_.retreat_hexes("t")
            return act.Declare("t", "very_defensive", dodge=("a",), retreat=back[0] if back else None)
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("t",))
        return None

    events = play(b, choose)
    t = b.figures["t"]
    assert t.posture == "prone"
    assert any(isinstance(e, ev.Stepped) and e.reason == "dive" and e.figure == "t" for e in events)
    # next round he moves as one lying down (FTC 5), unless he gets up
    assert t.allowance == b.movement_allowance_of(t, "prone") < b.movement_allowance_of(t, "standing")


def test_ftc_6_2_figure_2_the_targets_own_move_puts_its_back_to_the_attacker() -> None:
    """FTC 6.2: "one character may attack another so long as the second was in range of the first at *any
    point* along the movement of the two characters ... The attacker may choose the most favorable position
    with regards to facing."

    B stands beside A's spear, A in B's side-rear; B advances one hex straight away from A to strike C, which
    puts A directly behind B at 2 m. A, who did not move, attacks from directly behind: +2.
    """
    q, r = CENTRE, east(CENTRE)
    b = start(
        axial(
            [
                ("a", "blue", "spearman", q, 0),
                ("bb", "red", "brigand", r, 1),
                ("c", "blue", "brigand", east(CENTRE, 3), 3),
            ]
        ),
        a=DOWN,
        c=EVEN,
        bb=UP,
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "bb":
            return act.Declare("bb", "mildly_aggressive", targets=("c",), advance=(east(CENTRE, 2),))
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("bb",))
        return None

    events = play(b, choose)
    blow = attacks(events, "a", "bb")[0]
    assert ("Attacking from behind", 2) in blow.offence_mods


def test_ftc_6_2_figure_2_the_target_turned_its_back_on_the_way() -> None:
    """FTC 6.2 (as above): B, beside A's axe with A in his side-rear, turns in place to put his back to A and
    then steps aside to strike C. B was in A's reach with his back turned at one point of his movement: A,
    who did not move, takes that position, directly behind (+2), not B's final facing (+1)."""
    q = east(CENTRE)
    r = Hex(q.q + 1, q.r - 1)  # one hex from Q in direction 1
    b = start(
        axial(
            [
                ("a", "blue", "brigand", CENTRE, 0),
                ("bb", "red", "brigand", q, 1),
                ("c", "blue", "brigand", Hex(r.q + 1, r.r - 1), 4),
            ]
        ),
        a=UP,
        c=EVEN,
        bb=DOWN,
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "bb":
            return act.Declare("bb", "very_aggressive", targets=("c",), advance=(q, r), advance_facing=0)
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("bb",))
        return None

    events = play(b, choose)
    assert (b.figures["bb"].hex, b.figures["bb"].facing) == (r, 1)
    blow = attacks(events, "a", "bb")[0]
    assert ("Attacking from behind", 2) in blow.offence_mods


def test_ftc_6_4_1_a_side_rear_hex_gives_at_most_plus_one() -> None:
    """FTC 6.4.1: "If the attacker is in one of the other two hexes behind his opponent, he gets +1 to his
    attack result if he started the attack phase somewhere where he would have had at least a +1."

    A starts two hexes straight behind B (out of his sword's reach) and advances into B's side-rear hex:
    the blow is struck from there, so +1, not the +2 of a start hex he could not strike from.
    """
    bh = CENTRE
    b = start(
        axial(
            [
                ("a", "blue", "brigand", Hex(bh.q - 2, bh.r), 0),
                ("bb", "red", "brigand", bh, 0),
                ("c", "blue", "brigand", east(bh, 3), 3),
            ]
        ),
        a=UP,
        bb=DOWN,
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "a":
            return act.Declare(
                "a", "very_aggressive", targets=("bb",), advance=(Hex(bh.q - 2, bh.r + 1), Hex(bh.q - 1, bh.r + 1))
            )
        return None

    events = play(b, choose)
    blow = attacks(events, "a", "bb")[0]
    assert ("Attacking from behind", 1) in blow.offence_mods


def test_ftc_6_2_a_spell_declared_in_range_survives_the_targets_retreat() -> None:
    """FTC 6.2: the target "was in range of the first at *any point* along the movement of the two characters
    (as understood while the attack is being declared)"; FTC 8.1: spells are attacks of the attack phase.

    The wizard declares a Fire Bolt at T ten hexes away (short range); T then retreats to eleven. The bolt
    is cast all the same.
    """
    w_hex = Hex(0, 4)
    b = start(
        axial([("w", "blue", "wizard", w_hex, 0), ("t", "red", "brigand", east(w_hex, 10), 3)], width=16), w=DOWN, t=UP
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            return act.Declare("w", spell="Fire Bolt", spell_target="t")
        if d.reason == "declare" and d.figure == "t":
            return act.Declare("t", "mildly_defensive", retreat=east(w_hex, 11))
        return None

    events = play(b, choose)
    assert b.figures["t"].hex == east(w_hex, 11)
    assert any(isinstance(e, ev.SpellCast) and e.caster == "w" for e in events)
    assert not any(isinstance(e, ev.ConcentrationBroken) for e in events)


def test_ftc_6_2_a_shot_declared_at_max_range_is_taken_at_the_most_favourable_range() -> None:
    """FTC 6.2 (as above) with FTC 6.5's Max Range: the shortbow shot declared at 120 m is resolved at 120 m
    after the target steps back to 121 m — not an automatic miss."""
    a_hex = Hex(0, 2)
    b = start(
        axial(
            [("a", "blue", "archer", a_hex, 0), ("t", "red", "brigand", east(a_hex, 120), 3)],
            width=125,
            height=5,
        ),
        a=DOWN,
        t=UP,
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("t",))
        if d.reason == "declare" and d.figure == "t":
            return act.Declare("t", "mildly_defensive", retreat=east(a_hex, 121))
        return None

    events = play(b, choose)
    assert b.figures["t"].hex == east(a_hex, 121)
    shot = attacks(events, "a", "t")[0]
    assert shot.difficulty < 20  # Legendary+1 at most: a difficulty a roll can reach, not "out of range"


# ------------------------------------------------------------------------------------------ FTC 8.3


def test_ftc_8_3_a_touch_caster_counts_among_the_targets_melee_attackers() -> None:
    """FTC 8.3: "The 'to hit' roll for 'Touch' range is a standard attack"; FTC 6.1: a combatant must defeat
    all of those attacking him to hit anyone.

    The wizard lays a Paralysing Touch on the brigand, who swings at the knight: his blow must beat the
    wizard's defence as well as the knight's.
    """
    b = refereed(
        axial(
            [
                ("w", "blue", "wizard", CENTRE, 0),
                ("z", "red", "brigand", east(CENTRE), 3),
                ("k", "blue", "knight", Hex(CENTRE.q + 1, CENTRE.r - 1), 4),
            ]
        )
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            return act.Declare("w", spell="Paralysing Touch", spell_target="z")
        if d.reason == "declare" and d.figure == "z":
            return act.Declare("z", targets=("k",))
        return None

    events = play(b, choose)
    blow = attacks(events, "z", "k")[0]
    assert "w" in [fid for fid, _ in blow.other_defences]


def test_ftc_8_3_a_firer_touched_by_a_caster_is_defending_against_attacks() -> None:
    """FTC 8.3 with table 7: the archer a wizard lays a touch spell on is attacked in melee, so his shot at
    another enemy takes table 7's "defending against attacks" and must beat the wizard's defence."""
    b = refereed(
        axial(
            [
                ("w", "blue", "wizard", CENTRE, 0),
                ("a", "red", "archer", east(CENTRE), 3),
                ("k", "blue", "knight", Hex(CENTRE.q - 3, CENTRE.r), 0),
            ]
        )
    )

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            return act.Declare("w", spell="Paralysing Touch", spell_target="a")
        if d.reason == "declare" and d.figure == "a":
            return act.Declare("a", targets=("k",))
        return None

    events = play(b, choose)
    shot = attacks(events, "a", "k")[0]
    assert any(name == "Defending against attacks" for name, _ in shot.offence_mods)
    assert [fid for fid, _ in shot.other_defences] == ["w"]


def test_ftc_8_3_a_bolt_from_a_caster_engaged_in_melee_must_beat_all_his_attackers() -> None:
    """FTC 8.3: a bolt "misses as for missiles"; FTC 6.1: a combatant attacked in melee "must still defeat
    *all* of those attacking him in order to score a hit against any one opponent".

    The wizard casts Fire Bolt at the brigand four hexes away while the guard attacks him with a sword: the
    casting beats the spell's difficulty but not the guard's defence, so the bolt misses. The odds shown
    before the wizard declares count the guard's defence too, his attack being declared in the open.
    """
    figures = [
        ("w", "blue", "wizard", CENTRE, 0),
        ("t", "red", "brigand", east(CENTRE, 4), 3),
        ("g", "red", "guard", Hex(CENTRE.q - 1, CENTRE.r), 0),
    ]
    b = start(axial(figures), w=UP, g=DOWN, t=EVEN)
    dice(b, w=("combat", (1, 1, 0, 0)), g=("combat", UP), t=("combat", EVEN))
    chances: dict[bool, Fraction] = {}

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            pv = spell_preview(b_, "w", "Fire Bolt", "t")
            assert pv.distribution is not None
            chances["g" in public_declarations(b_)] = sum(p for o, p in pv.distribution.items() if o.hit)
            return act.Declare("w", spell="Fire Bolt", spell_target="t")
        if d.reason == "declare" and d.figure == "g":
            return act.Declare("g", targets=("w",))
        return None

    events = play(b, choose)
    bolt = attacks(events, "w", "t")[0]
    assert bolt.offence >= bolt.difficulty  # the casting alone would hit
    assert [fid for fid, _ in bolt.other_defences] == ["g"]
    assert not bolt.hit
    # the odds: with the guard's attack in the open, the bolt's chance is lower than against the brigand alone
    alone = spell_preview(refereed(axial(figures)), "w", "Fire Bolt", "t").distribution
    assert alone is not None
    free = sum(p for o, p in alone.items() if o.hit)
    assert list(chances) == [True]  # the guard, later in the initiative, declares first (FTC 6.1)
    assert chances[True] < free / 2, chances  # his defence counts, not only table 7's -1 for defending


def test_ftc_8_3_a_touch_shown_before_the_roll_must_beat_the_casters_other_attackers() -> None:
    """FTC 8.3: the touch of a touch spell is a standard attack, so (FTC 6.1) it must beat the defence of
    everyone else attacking the caster; the odds the screen shows before the wizard declares count the
    guard's declared attack on him, not only table 7's -1 for defending."""
    figures = [
        ("w", "blue", "wizard", CENTRE, 0),
        ("z", "red", "brigand", east(CENTRE), 3),
        ("g", "red", "guard", Hex(CENTRE.q - 1, CENTRE.r), 0),
    ]
    b = start(axial(figures), w=UP, g=DOWN, z=EVEN)
    seen: list[Fraction] = []

    def choose(b_: Battle, d: Decision) -> act.Action | None:
        if d.reason == "declare" and d.figure == "w":
            assert "g" in public_declarations(b_)
            seen.append(spell_preview(b_, "w", "Paralysing Touch", "z").effect)
            return act.Declare("w", spell="Paralysing Touch", spell_target="z")
        if d.reason == "declare" and d.figure == "g":
            return act.Declare("g", targets=("w",))
        return None

    play(b, choose)
    alone = spell_preview(refereed(axial(figures)), "w", "Paralysing Touch", "z").effect
    assert len(seen) == 1 and seen[0] < alone / 2, (seen, alone)
