"""Large figures, creatures and Scale in a real battle (FTC 5, 5.2, 5.3, 6.2, 6.5.3, 7.2, 7.3; *Fudge* 4.23,
4.57, 4.58): footprints that move, turn and block, zones of control from a large figure's front, reach onto
any hex of a large target, line of fire over every hex a figure covers, the mook track, creature kinds,
scale-piercing weapons and the Fudge examples played out by the battle itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.ai import RandomPlayer, TacticalPlayer
from game.engine.battle import (
    GM_REFEREE,
    Battle,
    BattleSetup,
    FigureSetup,
    IllegalAction,
    RuleOptions,
    legal_actions,
)
from game.engine.characters import Character
from game.engine.combat import Stance
from game.engine.creatures import footprint, front_zone
from game.engine.hexgrid import Hex, neighbor
from game.engine.lof import line_of_fire
from game.engine.terrain import OPEN_GROUND, TerrainMap, TerrainType
from tests.engine.test_battle import check_events, check_state
from tests.engine.test_scale import DRAGON, FIONN, MCMURTREE, SHEBA, WILBUR
from tests.golden.scenarios import SIDES, character, large_skirmish

C = Hex(6, 4)
WALL = TerrainType("wall", passable={"walk": False, "fly": True}, blocks_sight=True)


def battle(
    figures: list[tuple[str, str, Character | str, Hex, int]],
    *,
    terrain: TerrainMap | None = None,
    seed: int = 0,
    orders: Mapping[str, str] | None = None,
    dice: Mapping[tuple[str, str], Sequence[tuple[int, ...]]] | None = None,
) -> Battle:
    """A battle on an open 16 x 12 field (or ``terrain``) with figures at axial hexes. With ``dice`` the
    battle has a GM seat that sets, for each (figure, purpose), the faces of that figure's next rolls of
    that purpose, in order (``gm.SetDie``): a test's dice are chosen, not searched for."""
    t = terrain or TerrainMap.open(16, 12)
    figs = tuple(
        FigureSetup(
            fid,
            fid.upper(),
            side,
            character(ch) if isinstance(ch, str) else ch,
            h,
            facing,
            (orders or {}).get(fid, "always"),
        )
        for fid, side, ch, h, facing in figures
    )
    b = Battle(BattleSetup(t, SIDES, figs, RuleOptions(), seed, gm=GM_REFEREE if dice else None))
    for (fid, purpose), rolls in (dice or {}).items():
        for faces in rolls:
            b.apply(gm.SetDie(fid, purpose, faces))
    return b


HIGH = (1, 1, 1, 1)
LOW = (-1, -1, -1, -1)
ZERO = (0, 0, 0, 0)


def walls(cells: set[tuple[int, int]], width: int = 16, height: int = 12) -> TerrainMap:
    """An open field with walls (impassable, blocking sight) at the given (col, row) cells."""
    grid = np.zeros((height, width), dtype=np.int16)
    for col, row in cells:
        grid[row, col] = 1
    return TerrainMap.build(width, height, (OPEN_GROUND, WALL), grid)


def first_round(b: Battle, declare: Mapping[str, act.Declare] | None = None) -> list[ev.Event]:
    """Play round 1: nobody moves, the given declarations (others defend), stoppers always stop."""
    out: list[ev.Event] = []
    while b.round == 1 and not b.over:
        d = legal_actions(b)
        assert d is not None
        fid = d.figure or ""
        action: act.Action = {
            "move": act.Move(fid, ()),
            "held_end": act.Move(fid, ()),
            "interrupt": act.PassInterrupt(d.side),
            "stop": act.StopChoice(fid, True),
            "escape_failed": act.EscapeFailedChoice(fid, False),
            "follow": act.FollowChoice(fid, None),
        }.get(d.reason) or (declare or {}).get(fid, act.Declare(fid, "neutral"))
        out.extend(b.apply(action))
    return out


def attacks(events: list[ev.Event], attacker: str) -> list[ev.AttackResolved]:
    return [e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == attacker]


def to_attack_phase(b: Battle) -> Battle:
    """Nobody moves in round 1's movement phase."""
    while b.phase == "movement":
        d = legal_actions(b)
        assert d is not None
        b.apply(act.Move(d.figure or "", ()))
    return b


def move_first(b: Battle, fid: str) -> None:
    """Let every figure before ``fid`` stay where it is, so that ``fid`` is due to move."""
    while True:
        d = legal_actions(b)
        assert d is not None and d.reason == "move"
        if d.figure == fid:
            return
        b.apply(act.Move(d.figure or "", ()))


# --- FTC 5: a large figure moves and turns its whole footprint ---------------------------------------------


def test_ftc_5_three_hex_figure_moves_and_turning_moves_its_hexes() -> None:
    b = battle([("t", "red", "troll", C, 0), ("k", "blue", "knight", Hex(1, 1), 0)])
    troll = b.figures["t"]
    assert troll.size == 3 and b.cells_of("t") == footprint(C, 3, 0) and len(b.cells_of("t")) == 3
    move_first(b, "t")
    reach = b.reach_for("t")
    east2 = Hex(C.q + 2, C.r)
    path = reach.path(east2, 2)
    b.apply(act.Move("t", path.steps))
    assert (troll.hex, troll.facing) == (east2, 2)
    assert b.cells_of("t") == footprint(east2, 3, 2) != footprint(east2, 3, 0)
    for h in b.cells_of("t"):
        assert b.occupant(h) is troll


def test_ftc_5_seven_hex_figure_moves_and_nobody_ends_on_it() -> None:
    b = battle([("d", "red", "dragon", C, 3), ("k", "blue", "knight", Hex(C.q - 4, C.r), 0)])
    assert b.figures["d"].size == 7
    move_first(b, "k")
    reach = b.reach_for("k")
    for h in b.cells_of("d"):
        assert not reach.can_reach(h)  # FTC 5.2: nobody ends on any hex of another figure
    with pytest.raises(IllegalAction):
        b.apply(act.Move("k", ((Hex(C.q - 3, C.r), 0), (Hex(C.q - 2, C.r), 0), (Hex(C.q - 1, C.r), 0))))
    b.apply(act.Move("k", ()))
    d = legal_actions(b)
    assert d is not None and d.figure == "d"
    reach = b.reach_for("d")
    west = Hex(C.q - 1, C.r)
    assert not reach.can_reach(Hex(C.q - 3, C.r))  # the knight's hex would be covered
    b.apply(act.Move("d", reach.path(west).steps))
    assert b.figures["d"].hex == west and b.cells_of("d") == footprint(west, 7, 3)


def test_ftc_5_a_narrow_gap_lets_a_man_through_but_not_a_seven_hex_dragon() -> None:
    # a wall across column 8 with a one-hex gap at row 5
    t = walls({(8, row) for row in range(12) if row != 5})
    start = t.hex_at(5, 5)
    beyond = t.hex_at(11, 5)
    b = battle(
        [
            ("d", "red", "dragon", start, 0),
            ("m", "red", "brigand", t.hex_at(5, 9), 0),
            ("k", "blue", "knight", t.hex_at(14, 10), 3),
        ],
        terrain=t,
    )
    dragon_reach = b.reach_for("d", allowance=12)
    man_reach = b.reach_for("m", allowance=12)
    assert man_reach.can_reach(beyond)
    assert not any(h.q > t.hex_at(8, 5).q + 1 for h in dragon_reach.hexes())
    assert not dragon_reach.can_reach(beyond)


def test_ftc_5_a_three_hex_figure_cannot_turn_where_it_has_no_room() -> None:
    t = TerrainMap.open(16, 12)
    b = battle(
        [
            ("t", "red", "troll", C, 0),
            ("a", "red", "brigand", neighbor(C, 1), 0),
            ("z", "red", "brigand", neighbor(C, 5), 0),
            ("k", "blue", "knight", Hex(1, 1), 0),
        ],
        terrain=t,
    )
    reach = b.reach_for("t")
    troll = b.figures["t"]
    room = [f for f in range(6) if all(b.occupant(h) in (None, troll) for h in footprint(C, 3, f))]
    assert 0 < len(room) < 6
    assert set(reach.facings(C)) <= set(room)
    assert set(reach.facings(C)) & set(room) - {0}  # it may still turn where it has room


# --- FTC 5.2-5.3: zones of control of and against large figures ----------------------------------------


def test_ftc_5_2_zone_of_control_from_a_large_figures_front_stops_a_mover() -> None:
    troll = footprint(C, 3, 0)
    zone = front_zone(troll, 0)
    # a hex in the troll's zone that is not one of its head's three front hexes
    spot = next(h for h in sorted(zone) if h not in front_zone({C}, 0))
    b = battle([("t", "blue", "troll", C, 0), ("m", "red", "peasant", spot, 0)])
    assert spot in b.zone(b.figures["t"])
    move_first(b, "m")
    reach = b.reach_for("m")
    away = next(
        h for h in sorted(reach.hexes(), key=lambda h: -abs(h.r - spot.r) - abs(h.q - spot.q)) if not zone & {h}
    )
    assert reach.band(away) == "escape"
    events = b.apply(act.Move("m", reach.path(away).steps))
    contest = [e for e in events if isinstance(e, ev.EscapeContest)]
    assert contest and contest[0].stoppers == ("t",) and contest[0].mover == "m"


def test_ftc_5_3_a_large_figure_moving_through_a_zone_of_control_escapes() -> None:
    """The dragon wins its escape contest (the GM sets the rolls: dragon +4, knight -4) and leaves the
    knight's zone of control with its whole footprint."""
    b = battle(
        [("d", "red", "dragon", C, 0), ("k", "blue", "knight", Hex(C.q + 2, C.r), 3)],
        dice={("d", "escape"): [HIGH], ("k", "escape"): [LOW]},
    )
    assert not b.zone(b.figures["k"]).isdisjoint(b.cells_of("d"))  # the dragon starts in his zone
    move_first(b, "d")
    reach = b.reach_for("d")
    away = Hex(C.q - 3, C.r)
    assert reach.band(away) == "escape"
    events = b.apply(act.Move("d", reach.path(away).steps))
    contest = [e for e in events if isinstance(e, ev.EscapeContest)]
    assert contest and contest[0].mover == "d" and contest[0].stoppers == ("k",)
    assert contest[0].mover_faces == HIGH and contest[0].escaped
    assert b.figures["d"].hex == away and b.zone(b.figures["k"]).isdisjoint(b.cells_of("d"))


# --- FTC 6.2: reach onto any hex -------------------------------------------------------------------------


def test_ftc_6_2_a_large_target_is_reached_at_any_of_its_hexes() -> None:
    # the knight stands east of the dragon's eastern hex, two hexes from its centre, facing it
    knight_hex = Hex(C.q + 2, C.r)
    b = to_attack_phase(battle([("d", "red", "dragon", C, 0), ("k", "blue", "knight", knight_hex, 3)]))
    assert "d" in b.targets_for("k")  # the dragon's eastern hex
    assert "k" in b.targets_for("d")  # from the front of its footprint
    assert b.threats_to("k") == [b.figures["d"]]
    b = to_attack_phase(battle([("d", "red", "dragon", C, 3), ("k", "blue", "knight", knight_hex, 3)]))
    assert "k" not in b.targets_for("d")  # the knight is behind it
    assert "d" in b.targets_for("k")


# --- FTC 6.5.3: line of fire over every hex a figure covers ------------------------------------------------


def test_ftc_6_5_3_a_large_figure_on_the_line_is_at_risk_and_a_large_target_is_hit_on_any_hex() -> None:
    archer = Hex(2, 4)
    b = battle(
        [("a", "blue", "archer", archer, 0), ("t", "red", "troll", Hex(5, 4), 0), ("z", "red", "brigand", Hex(9, 4), 3)]
    )
    att, tgt = b.figures["a"], b.figures["z"]
    terms = b.attack_terms(att, tgt, att.character.ready_weapon, Stance.NEUTRAL)
    assert terms.line is not None and "t" in terms.line.bystanders_at_risk()
    # a wall hides the dragon's centre from the archer, not its northern hexes
    t = walls({(6, 6)})
    centre = t.hex_at(8, 6)
    firer = t.hex_at(3, 6)
    b = battle([("a", "blue", "archer", firer, 0), ("d", "red", "dragon", centre, 3)], terrain=t)
    assert line_of_fire(t, firer, centre).blocked
    assert "d" in b.targets_for("a")
    terms = b.attack_terms(b.figures["a"], b.figures["d"], b.figures["a"].character.ready_weapon, Stance.NEUTRAL)
    assert terms.line is not None and not terms.line.blocked and terms.line.target in b.cells_of("d")


# --- Fudge 4.57: mooks -------------------------------------------------------------------------------------


def test_fudge_4_57_mook_track_second_wound_puts_it_out() -> None:
    """The guard's blows (rolls set by the GM: -1 against the goblin's 0) do 4 points in rounds 1 and 2:
    the first marks Hurt, the second finds no open box below Out of the Battle."""
    goblin = character("goblin")
    assert goblin.wound_track.name == "mook"
    b = battle(
        [("k", "blue", "guard", C, 0), ("g", "red", goblin, Hex(C.q + 1, C.r), 3)],
        dice={("k", "combat"): [(-1, 0, 0, 0)] * 2, ("g", "combat"): [ZERO] * 2, ("g", "health"): [ZERO] * 2},
    )
    wounds: list[ev.Wounded] = []
    while not b.over and b.round <= 2:
        d = legal_actions(b)
        assert d is not None
        fid = d.figure or ""
        a: act.Action = (
            act.Declare(fid, "neutral", ("g",) if fid == "k" else ()) if d.reason == "declare" else act.Move(fid, ())
        )
        wounds += [e for e in b.apply(a) if isinstance(e, ev.Wounded) and e.figure == "g"]
    assert [w.box for w in wounds] == ["Hurt", "Incapacitated"]
    assert b.figures["g"].out and not b.figures["g"].can_act


# --- Fudge 4.23: carnivores and prey -----------------------------------------------------------------------


def test_fudge_4_23_prey_attacks_a_level_low_and_a_carnivore_defends_a_level_low() -> None:
    b = battle([("p", "blue", "pixie", C, 0), ("t", "red", "troll", Hex(C.q + 1, C.r), 3)])
    events = first_round(b, {"p": act.Declare("p", "neutral", ("t",)), "t": act.Declare("t", "neutral", ("p",))})
    pix = attacks(events, "p")[0]
    assert ("Prey", -1) in pix.offence_mods
    assert ("Carnivore", -1) in pix.defence_mods
    troll = attacks(events, "t")[0]
    assert not any(name == "Carnivore" for name, _ in troll.offence_mods)


# --- Fudge 4.58: scale-piercing --------------------------------------------------------------------------


def test_fudge_4_58_a_scale_piercing_spear_halves_the_dragons_mass_scale_on_a_solid_blow() -> None:
    hunter = character("spearman", skills={"Spear": "Legendary"}, scale_piercing={"Spear": "halve"})
    assert hunter.to_dict()["scale_piercing"] == {"Spear or Pike": "halve"}
    b = battle(
        [("h", "blue", hunter, Hex(C.q + 2, C.r), 3), ("d", "red", "dragon", C, 0)],
        dice={("h", "combat"): [HIGH], ("d", "combat"): [LOW]},
    )
    events = first_round(b, {"h": act.Declare("h", "neutral", ("d",), aim="torso")})
    hits = [e for e in attacks(events, "h") if e.hit and e.relative_degree >= 3]
    assert hits, "a Legendary spear rolling +4 against a dragon rolling -4 lands a solid blow"
    factors = dict(hits[0].defensive_factors)
    assert factors.get("Mass Scale (halved: scale-piercing)") == 2 and "Mass Scale" not in factors


# --- Fudge 4.58's examples in a battle --------------------------------------------------------------------


def test_fudge_4_58_knight_against_a_seven_hex_dragon_in_a_battle() -> None:
    """Fudge 4.58's example: Wilbur hits the dragon with a relative degree of +3 (both roll 0, set by the GM)."""
    dragon = replace(DRAGON, footprint=7)
    b = battle(
        [("w", "blue", WILBUR, Hex(C.q + 2, C.r), 3), ("d", "red", dragon, C, 0)],
        dice={("w", "combat"): [ZERO], ("d", "combat"): [ZERO], ("d", "health"): [ZERO]},
    )
    events = first_round(b, {"w": act.Declare("w", "neutral", ("d",), aim="torso")})
    blow = attacks(events, "w")[0]
    assert blow.difficulty == -2  # Poor: the knight is the smaller
    assert blow.hit and blow.relative_degree == 3
    assert sum(v for _, v in blow.offensive_factors) == 6  # "+6"
    assert sum(v for _, v in blow.defensive_factors) == 8  # against "+8"
    assert blow.damage == 1 and blow.wound == "Scratch"  # "3-2 = one point": a Scratch


def test_fudge_4_58_warrior_against_leprechaun_in_a_battle() -> None:
    """Fudge 4.58's example: Sheba kicks the leprechaun with a relative degree of +2 (her roll +1, his 0)."""
    sheba = replace(SHEBA, skills={"Martial Arts": 3})  # Superb: a kicker good enough for the Great difficulty
    b = battle(
        [("s", "blue", sheba, C, 0), ("l", "red", MCMURTREE, Hex(C.q + 1, C.r), 3)],
        dice={("s", "combat"): [(1, 0, 0, 0)], ("l", "combat"): [ZERO], ("l", "health"): [ZERO]},
    )
    events = first_round(b, {"s": act.Declare("s", "neutral", ("l",), aim="torso")})
    kick = attacks(events, "s")[0]
    assert kick.difficulty == 2  # Great: the leprechaun is tiny
    assert kick.hit and kick.relative_degree == 2
    assert sum(v for _, v in kick.offensive_factors) == 1  # "+1"
    assert sum(v for _, v in kick.defensive_factors) == -3  # against "-3"
    assert kick.damage == 6 and kick.wound == "Very Hurt"  # "six points ... Very Hurt"


def test_fudge_4_58_leprechaun_clubs_the_warrior_in_a_battle_for_no_damage() -> None:
    """Fionn hits by +3 (he rolls +3, Sheba 0) but his club does no harm to the larger warrior short of +4."""
    b = battle(
        [("s", "blue", SHEBA, C, 0), ("f", "red", FIONN, Hex(C.q + 1, C.r), 3)],
        dice={("f", "combat"): [(1, 1, 1, 0)], ("s", "combat"): [ZERO], ("s", "health"): [ZERO]},
    )
    events = first_round(b, {"f": act.Declare("f", "neutral", ("s",))})
    blow = attacks(events, "f")[0]
    assert blow.difficulty == -2  # Poor: Fionn is the smaller
    assert blow.hit and blow.relative_degree == 3
    assert blow.wound is None or blow.relative_degree >= 4


# --- the state machine with large figures ------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), tactical=st.booleans(), opt=st.sampled_from(range(3)))
def test_ftc_5_random_play_with_large_figures_keeps_every_invariant(seed: int, tactical: bool, opt: int) -> None:
    """Random (or tactical) legal play with a 3-hex troll and a 7-hex dragon: every invariant of the
    battle, and no two figures ever share a hex of their footprints."""
    options = [
        RuleOptions(),
        RuleOptions(secret_stances=True, attack_any_adjacent=True),
        RuleOptions(per_hex_terrain=True),
    ][opt]
    b = Battle(large_skirmish(seed, options))
    player = TacticalPlayer if tactical else RandomPlayer
    players = {"blue": player(seed), "red": player(seed + 1)}
    while not b.over and b.round <= 6:
        d = legal_actions(b)
        assert d is not None
        able = {f.id for f in b.figures.values() if f.can_act}
        wounds = {f.id: list(f.wounds.received()) for f in b.figures.values()}
        events = b.apply(players[d.side](b, d))
        check_events(b, events, able)
        check_state(b, wounds)
        cells = [h for f in b.figures.values() for h in b.cells_of(f.id)]
        assert len(cells) == len(set(cells)), "two figures share a hex"
        assert all(b.terrain.is_passable(h) for h in cells)
