"""The veteran computer player (FTC 5–6.6): it beats the tactical player in mirrored battles, uses the
options tactical never does (advances, retreats, missile dodges, aims, held moves), decides the same way
every time for the same battle, explains each decision, and its battles replay roll for roll."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

import main
from game.ai_match import run_match
from game.engine import actions as act
from game.engine import gm
from game.engine.battle import Battle, legal_actions
from game.engine.characters import Character
from game.engine.choices import declare_choices
from game.engine.hexgrid import Hex, distance
from game.engine.lof import risk_hexes
from game.engine.novice import NovicePlayer
from game.engine.odds import chance_out
from game.engine.players import LEVELS, make_player
from game.engine.preview import attack_preview, spell_preview
from game.engine.terrain import TerrainMap
from game.engine.veteran import VeteranPlayer
from game.engine.wounds import WoundLevel, Wounds
from game.session import new_session, shipped_maps
from game.simulate import play_out
from tests.engine.test_ai import hidden_attack, hidden_attack_battle
from tests.engine.test_preview_truth import to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, dice, start
from tests.golden.scenarios import CENTRE, axial, character, east

MAPS = {m.stem: m for m in shipped_maps()}


pytestmark = pytest.mark.usefixtures("home")


def test_every_level_is_a_player_and_an_unknown_one_is_a_clear_error() -> None:
    assert LEVELS == ("random", "novice", "tactical", "veteran")
    assert isinstance(make_player("veteran", 3), VeteranPlayer)
    assert isinstance(make_player("novice", 3), NovicePlayer)
    with pytest.raises(ValueError, match="choose one of random, novice, tactical, veteran"):
        make_player("grandmaster")


def test_veteran_wins_most_mirrored_battles_against_tactical_and_uses_the_whole_rulebook() -> None:
    """A small mirrored match (each seed twice, sides swapped): the veteran wins more of the decided battles
    than it loses (a guard against a collapse, too few battles to measure its strength: that is
    ``ai-match``'s, docs/computer-players.md), and among its decisions are advances (FTC 6.2), retreats
    (FTC 6.2), missile dodges (FTC 6.1), dives for the ground (FTC 6.2; some against a volley with nobody
    to strike), aims other than "best" (FTC 6.6), held moves (FTC 5), steps out of a friendly archer's line
    of fire (FTC 6.5.3) and spells (FTC 8); every battle replays roll for roll from its save (``verify``,
    as ``replay --verify``)."""
    start = time.process_time()
    result = run_match("veteran", "tactical", [1, 2, 3], [MAPS["open_field"], MAPS["ruined_keep"]], verify=True)
    overall = result.overall
    assert overall.wins + overall.losses >= 10
    assert overall.wins > overall.losses, overall
    for key in ("advances", "retreats", "dodges", "dives", "volley_dives", "aims", "holds", "lanes_opened", "spells"):
        assert result.counts[key] > 0, (key, result.counts)
    assert time.process_time() - start < 40


def test_veteran_decides_the_same_way_for_the_same_battle() -> None:
    """Its effort is a count of evaluations, never the clock: two runs give the same log."""
    logs = []
    for _ in range(2):
        session = new_session(str(MAPS["wyrm_hollow"]), None, seed=4, autosave=False)
        players = {s: VeteranPlayer(i) for i, s in enumerate(session.battle.sides)}
        play_out(session.battle, players, 6)
        logs.append(list(session.battle.log))
    assert logs[0] == logs[1] and len(logs[0]) > 20


def test_veteran_gives_a_reason_naming_the_figure_for_each_decision() -> None:
    session = new_session(str(MAPS["open_field"]), None, seed=2, autosave=False)
    battle = session.battle
    player = VeteranPlayer(0)
    sides = list(battle.sides)
    other = make_player("tactical", 1)
    for _ in range(60):
        d = legal_actions(battle)
        assert d is not None
        if d.side == sides[0]:
            battle.apply(player(battle, d))
            if d.figure is not None and d.reason in ("move", "declare"):
                assert battle.figure(d.figure).name in player.last_reason
        else:
            battle.apply(other(battle, d))
    assert len(player.reasons) > 10
    assert any("% to hit" in why for _, _, why in player.reasons)


def test_veteran_battle_replays_roll_for_roll(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --verify`` reproduces a veteran battle from its log."""
    out = tmp_path / "log.json"
    args = ["simulate", str(MAPS["village"]), "--seed", "3", "--players", "veteran,tactical", "--out", str(out)]
    assert main.main(args) == 0
    assert "Battle over after" in capsys.readouterr().out
    assert main.main(["replay", str(out), "--verify"]) == 0
    assert "reproduce every roll" in capsys.readouterr().out


def test_novice_slips_are_its_own_seeded_choices() -> None:
    """The novice plays the tactical player's game with seeded slips: the same seed, the same battle; a
    battle that differs from the tactical player's."""
    logs = []
    for kind in ("novice", "novice", "tactical"):
        session = new_session(str(MAPS["forest_road"]), None, seed=2, autosave=False)
        players = {s: make_player(kind, i) for i, s in enumerate(session.battle.sides)}
        play_out(session.battle, players, 3)
        logs.append(list(session.battle.log))
    assert logs[0] == logs[1] and len(logs[0]) > 20
    assert logs[0] != logs[2]


def test_ftc_6_5_3_veteran_approaches_out_of_the_archers_lines_of_fire() -> None:
    """On the village map's first move, the veteran's militiaman closes in behind cover that blocks every
    enemy archer's line of fire (FTC 6.5.3, table 7), where a player blind to the lines stops in the open."""
    session = new_session(str(MAPS["village"]), None, seed=1, autosave=False)
    battle = session.battle
    fig = battle.figure("f1")
    archers = [e for e in battle.enemies_of(fig) if e.character.ready_weapon.ranged]
    ends = {}
    for shy in (0.0, 1.0):
        player = VeteranPlayer(0)
        player.fire_shy = shy
        move, _ = player._vet_move(battle, fig)
        end = move.steps[-1][0] if move.steps else fig.hex
        ends[shy] = sum(player._open_to(battle, a, end) for a in archers)
    assert ends[0.0] >= 1
    assert ends[1.0] == 0


def _refereed(figures: list[tuple[str, str, str, Hex, int]], **characters: Character) -> Battle:
    """A battle on an open field whose GM plays no side, with characters swapped in by figure id."""
    st = axial(figures, width=18, height=10)
    figs = tuple(replace(f, character=characters[f.id]) if f.id in characters else f for f in st.figures)
    return Battle(replace(st, figures=figs, gm="referee"))


def _declaration_of(b: Battle, fid: str, player: VeteranPlayer) -> tuple[act.Declare, str]:
    """Play on (others stand still and defend, archers shoot ``fid``) until ``fid`` declares with ``player``."""
    while True:
        d = legal_actions(b)
        assert d is not None and not b.over
        if d.reason == "declare" and d.figure == fid:
            action = player(b, d)
            assert isinstance(action, act.Declare)
            return action, player.last_reason
        if d.reason in ("move", "held_end"):
            b.apply(act.Move(d.figure or "", ()))
        elif d.reason == "declare":
            shooter = b.figure(d.figure or "")
            aim = (fid,) if shooter.character.ready_weapon.ranged and fid in b.targets_for(shooter.id) else ()
            b.apply(act.Declare(shooter.id, targets=aim))
        elif d.reason == "interrupt":
            b.apply(act.PassInterrupt(d.side))
        else:
            raise AssertionError(f"unexpected decision {d.reason}")


def test_ftc_6_2_veteran_dives_for_the_ground_against_a_volley_and_gets_up_with_its_move() -> None:
    """FTC 6.2: with nobody to strike and three bows on it, the veteran takes the very defensive stance,
    dodges every firer, steps back away from them and dives for the ground ("If he is attempting to dodge
    missile fire, he must also dive for the ground"); next round it gets up with its move (FTC 5). A
    player that never dives (``dive_volley`` 0) does not."""
    figures = [
        ("v", "blue", "brigand", CENTRE, 0),
        ("a1", "red", "archer", east(CENTRE, 7), 3),
        ("a2", "red", "archer", Hex(CENTRE.q + 7, CENTRE.r - 1), 3),
        ("a3", "red", "archer", Hex(CENTRE.q + 6, CENTRE.r + 1), 3),
    ]
    calm = VeteranPlayer(0)
    calm.dive_volley = 0
    decl, _ = _declaration_of(_refereed(figures), "v", calm)
    assert decl.stance != "very_defensive"

    b = _refereed(figures)
    vet = VeteranPlayer(0)
    decl, why = _declaration_of(b, "v", vet)
    assert decl.stance == "very_defensive" and set(decl.dodge) == {"a1", "a2", "a3"}
    assert decl.retreat is not None and all(
        distance(decl.retreat, b.figure(a).hex) >= distance(CENTRE, b.figure(a).hex) for a in ("a1", "a2", "a3")
    )
    assert "dives for the ground" in why and vet.counts["dives"] == vet.counts["volley_dives"] == 1
    b.apply(decl)
    while b.round == 1:
        d = legal_actions(b)
        assert d is not None
        b.apply(act.Declare(d.figure or "", targets=("v",) if d.figure != "v" else ()))
    assert b.figure("v").posture == "prone"
    d = legal_actions(b)
    while d is not None and not (d.reason == "move" and d.figure == "v"):
        b.apply(act.Move(d.figure or "", ()))
        d = legal_actions(b)
    assert d is not None
    move = vet(b, d)
    assert isinstance(move, act.Move) and move.posture == "standing"
    assert "getting up" in vet.last_reason


def test_ftc_6_5_3_veteran_steps_out_of_its_own_archers_line_of_fire() -> None:
    """FTC 6.5.3: a miss may strike a friend standing on the line of fire. A knight with nobody in reach
    standing between its archer and the enemy moves off that line as it closes in, and says so; a player
    blind to the lanes (``lane_weight`` 0) walks on along it."""
    target = Hex(CENTRE.q + 8, CENTRE.r + 2)
    knight = Hex(CENTRE.q + 2, CENTRE.r + 1)
    figures = [
        ("a", "blue", "archer", CENTRE, 0),
        ("k", "blue", "knight", knight, 0),
        ("r", "red", "brigand", target, 3),
    ]
    lane = set(risk_hexes(TerrainMap.open(18, 10), CENTRE, target))
    assert knight in lane
    ends = {}
    for weight in (0.0, 1.0):
        b = _refereed(figures)
        assert "r" in b.targets_for("a")
        vet = VeteranPlayer(0)
        vet.lane_weight = weight
        move, why = vet._vet_move(b, b.figure("k"))
        ends[weight] = move.steps[-1][0]
        assert distance(ends[weight], target) < distance(knight, target)
    assert ends[0.0] in lane
    assert ends[1.0] not in lane
    assert "clearing A's line of fire" in why and vet.counts["lanes_opened"] == 1


def test_ftc_8_veteran_chooses_spells_by_their_exact_odds_against_a_strong_will() -> None:
    """FTC 8: Blindness is resisted by the target's Will. Against a Fair will both players cast it; against
    a Superb will only the veteran, reading the exact odds the screen shows (``spell_preview``), turns to
    the Flame Dart, which no Will resists; the tactical player's rough casting chance still says Blindness.
    Its reason gives the chance that the spell takes effect."""
    chosen = {}
    for will in ("Fair", "Superb"):
        b = _refereed(
            [("w", "blue", "wizard", CENTRE, 0), ("t", "red", "brigand", east(CENTRE, 2), 3)],
            w=character("wizard", spells=["Blindness", "Flame Dart"]),
            t=character("brigand", will=will),
        )
        vet = VeteranPlayer(0)
        found = vet._vet_spell(b, b.figure("w"), declare_choices(b, "w"))
        tactical = vet._tactical_spell(b, b.figure("w"), [])
        assert found is not None and tactical is not None
        chosen[will] = (found[1].spell, tactical[1].spell)
        pv = spell_preview(b, "w", found[1].spell or "", "t", found[1].stance)
        assert f"{float(pv.effect) * 100:.0f} % to take effect" in found[2]
    assert chosen["Fair"] == ("Blindness", "Blindness")
    assert chosen["Superb"] == ("Flame Dart", "Blindness")


def test_veteran_shoots_the_enemy_that_would_hurt_most_first() -> None:
    """FTC 6.4–7: an archer with a bruiser (Superb with a battle axe) and a peasant (Mediocre with a hand
    axe) both in range shoots the bruiser, whose own blow would hurt far more, though the peasant's wound
    is as likely; with the ``menace`` weight off it takes the peasant."""
    figures = [
        ("a", "blue", "archer", CENTRE, 0),
        ("b", "red", "bruiser", east(CENTRE, 5), 3),
        ("p", "red", "peasant", Hex(CENTRE.q + 5, CENTRE.r - 1), 3),
    ]
    targets = {}
    for menace in (0.0, VeteranPlayer(0).menace):
        b = _refereed(figures)
        vet = VeteranPlayer(0)
        vet.menace = menace
        assert set(declare_choices(b, "a").weapons["Shortbow"]) >= {"b", "p"}
        opt = vet._best_option(b, b.figure("a"), declare_choices(b, "a"), {})
        assert opt is not None
        targets[menace] = opt.action.targets
        if menace:
            assert vet._menace(b, b.figure("a"), b.figure("b")) > 1 > vet._menace(b, b.figure("a"), b.figure("p"))
    assert targets == {0.0: ("p",), 0.5: ("b",)}


def _veteran_declares(b: Battle) -> tuple[act.Action, str]:
    vet = VeteranPlayer(0)
    d = legal_actions(b)
    assert d is not None and d.reason == "declare"
    return vet(b, d), vet.last_reason


def test_fudge_4_32_under_secret_stances_the_veteran_reads_no_hidden_declaration() -> None:
    """*Fudge* 4.32: the red brigand declares an all-out attack first, hidden under secret stances until the
    reveal. Very Hurt v, beside him, declares the same and says the same whether that attack is aimed at v or
    at v's friend w: the brigand has v in reach, so v counts him as a threat and falls back either way. With
    the stances open, the attack on w is seen, and v, left alone, strikes."""
    chosen: dict[tuple[bool, str], tuple[act.Action, str]] = {}
    for secret in (True, False):
        for on in ("v", "w"):
            b = hidden_attack_battle(secret, on)
            b.apply(gm.EditWounds("v", Wounds().record(WoundLevel.VERY_HURT)[0].to_data(), "old wound"))
            to_declaration(b, "v", hidden_attack(on))
            chosen[secret, on] = _veteran_declares(b)
    assert chosen[True, "v"] == chosen[True, "w"]
    falls_back = chosen[True, "w"][0]
    assert isinstance(falls_back, act.Declare) and falls_back.retreat is not None
    strikes = chosen[False, "w"][0]
    assert isinstance(strikes, act.Declare) and strikes.retreat is None and strikes.targets == ("z",)


def test_fudge_4_1_the_veteran_does_not_count_the_gms_hand() -> None:
    """*Fudge* 4.1: the faces the GM set by hand are behind the GM's screen. Whether the GM set the veteran's
    next roll to −4, to +4 or not at all, it declares the same, by the odds a player's seat sees."""
    chosen = []
    for faces in (None, DOWN, UP):
        b = start(axial([("v", "blue", "brigand", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)]), v=UP, z=DOWN)
        to_declaration(b, "v", {"z": act.Declare("z", "neutral", ("v",))})
        if faces is not None:
            dice(b, v=("combat", faces), z=("combat", EVEN))
        chosen.append(_veteran_declares(b))
    assert chosen[0] == chosen[1] == chosen[2]


def test_ftc_6_4_the_veteran_shoots_the_enemy_it_is_likelier_to_take_out_of_the_fight() -> None:
    """FTC 6.4, 7.3: an archer has a Hurt knight six hexes off and an unhurt brigand three hexes off in range.
    Weighing the wound alone, it shoots the knight, who is hurt already and whose own blow would hurt more
    (``menace``); but a shot is far likelier to take the brigand out of the fight (leather, a nearer band),
    and a figure taken out strikes no more: weighing that chance (``out_weight``), the veteran shoots him."""
    figures = [
        ("a", "blue", "archer", CENTRE, 0),
        ("k", "red", "knight", east(CENTRE, 6), 3),
        ("b", "red", "brigand", Hex(CENTRE.q + 3, CENTRE.r - 2), 3),
    ]
    targets = {}
    for out_weight in (0.0, VeteranPlayer(0).out_weight):
        b = _refereed(figures)
        b.apply(gm.EditWounds("k", Wounds().record(WoundLevel.HURT)[0].to_data(), "old wound"))
        dc = declare_choices(b, "a")
        assert set(dc.weapons["Shortbow"]) == {"k", "b"}
        shots = {t: attack_preview(b, "a", "Shortbow", t, "neutral", compare=False).distribution for t in "kb"}
        assert chance_out(shots["b"]) > 10 * chance_out(shots["k"])
        vet = VeteranPlayer(0)
        assert vet._menace(b, b.figure("a"), b.figure("k")) > vet._menace(b, b.figure("a"), b.figure("b"))
        vet.out_weight = out_weight
        opt = vet._best_option(b, b.figure("a"), dc, {})
        assert opt is not None
        targets[out_weight] = opt.action.targets
    assert targets == {0.0: ("k",), 2.0: ("b",)}
