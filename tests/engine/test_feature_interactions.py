"""Where magic (FTC 8), the GM's seat and large figures (FTC 5) meet: spells on and by large
figures, GM decisions about casters and creatures, and random play mixing all three."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, BattleSetup, FigureSetup, IllegalAction, RuleOptions, legal_actions
from game.engine.characters import Character
from game.engine.combat import Stance
from game.engine.hexgrid import Hex
from game.engine.ladder import GOOD, SUPERB
from game.engine.lof import line_of_fire
from game.engine.terrain import OPEN_GROUND, TerrainMap
from tests.engine.test_battle import check_events, check_state
from tests.engine.test_large_battle import WALL
from tests.engine.test_magic_battle import play_round
from tests.golden.scenarios import CHARACTERS, SIDES, axial, character, setup, spell_duel, spell_far
from tests.helpers import refereed


def thunder(b: Battle, fid: str) -> act.Action:
    """The wizard concentrates on Thunderstrike at the brigand; everyone else defends."""
    if fid == "w":
        return act.Declare("w", spell="Thunderstrike", spell_target="b")
    return act.Declare(fid)


def test_ftc_8_1_removing_a_concentrating_caster_ends_his_concentration() -> None:
    b = refereed(spell_far(0))
    play_round(b, thunder)
    assert b.casting_of("w") is not None
    events = b.apply(gm.RemoveFigure("w"))
    assert any(isinstance(e, ev.ConcentrationBroken) and e.caster == "w" for e in events)
    assert b.casting_of("w") is None
    assert "w" not in b.declare_options("b").get("casting_at", {})  # type: ignore[operator]
    # the battle goes on (it is over: only red is left), and a later round does not look for the caster
    assert b.over


def test_gm_removing_a_caster_mid_battle_lets_the_rounds_go_on() -> None:
    setup = axial(
        [
            ("w", "blue", "wizard", Hex(1, 4), 0),
            ("k", "blue", "knight", Hex(1, 6), 0),
            ("b", "red", "brigand", Hex(8, 4), 3),
        ],
        seed=0,
    )
    b = refereed(setup)
    play_round(b, thunder)
    b.apply(gm.RemoveFigure("w"))
    assert not b.over
    b.declare_options("b")
    play_round(b)
    play_round(b)
    assert b.round >= 4 or b.over


def test_ftc_8_1_removing_the_target_of_a_concentration_breaks_it() -> None:
    setup = axial(
        [
            ("w", "blue", "wizard", Hex(1, 4), 0),
            ("b", "red", "brigand", Hex(8, 4), 3),
            ("c", "red", "brigand", Hex(8, 7), 3),
        ],
        seed=0,
    )
    b = refereed(setup)
    play_round(b, thunder)
    events = b.apply(gm.RemoveFigure("b"))
    assert any(isinstance(e, ev.ConcentrationBroken) and e.caster == "w" for e in events)
    assert b.casting_of("w") is None
    later: list[ev.Event] = []
    for _ in range(5):
        later += play_round(b, lambda bb, fid: act.Declare(fid))
    assert not [e for e in later if isinstance(e, ev.SpellCast) and e.target == "b"]


def test_ftc_7_3_a_large_reinforcement_has_its_own_wound_track() -> None:
    b = refereed(spell_far(0))
    b.apply(gm.AddFigure("d", "red", Hex(6, 7), 3, character=dict(CHARACTERS["dragon"])))
    d = b.figure("d")
    assert d.size == 7
    assert d.wounds.track == d.character.wound_track


def cloud_on_troll(seed: int) -> tuple[Battle, list[dict[str, str | None]]]:
    """A blue wizard casts Blinding Cloud centred two hexes east of a red troll's hex: the cloud covers one
    of the troll's three hexes, not the one it stands on. Returns what the troll saw of the casting."""
    b = refereed(axial([("w", "blue", "wizard", Hex(1, 4), 0), ("t", "red", "troll", Hex(6, 4), 3)], seed=seed))
    seen: list[dict[str, str | None]] = []
    first: list[str] = []

    def declare(bb: Battle, fid: str) -> act.Action:
        first.append(fid)
        if fid == "w":
            return act.Declare("w", spell="Blinding Cloud", spell_hex=Hex(8, 4))
        if first[0] == "w":  # the troll declares after the wizard: the casting is under way
            seen.append(bb.casting_at("t"))
        return act.Declare(fid)

    play_round(b, declare)
    return b, seen


def test_ftc_8_an_area_over_part_of_a_large_figure_is_on_it() -> None:
    b, _seen = cloud_on_troll(0)
    troll = b.figure("t")
    assert Hex(7, 4) in troll.cells and Hex(8, 4) not in troll.cells
    assert any(e.spell.name == "Blinding Cloud" for e in b.effects()), "seed 0 no longer lands the cloud"
    assert [e.spell.name for e in b.effects_on("t")] == ["Blinding Cloud"]


def test_ftc_8_2_a_large_figure_sees_an_area_cast_over_part_of_it() -> None:
    _b, seen = cloud_on_troll(0)
    assert seen, "seed 0 no longer has the wizard declare first"
    assert "w" in seen[0]


def test_ftc_5_3_the_gm_grants_a_free_attack_to_a_large_figure_next_to_the_runner() -> None:
    """The troll's hex is two hexes from the runner, but one of the hexes it covers is next to him (FTC 5:
    distances between nearest hexes), so the GM may give it a free attack."""
    b = refereed(
        axial(
            [
                ("m", "blue", "brigand", Hex(8, 4), 0),
                ("k", "red", "brigand", Hex(9, 4), 3),
                ("t", "red", "troll", Hex(6, 4), 3),
            ],
            seed=0,
            orders={"t": "never"},
        )
    )
    while True:
        d = legal_actions(b)
        assert d is not None and d.reason in ("move", "interrupt")
        if d.figure == "m":
            break
        b.apply(act.Move(d.figure or "", ()) if d.reason == "move" else act.PassInterrupt(d.side))
    b.apply(gm.DenyEscape("m"))
    b.apply(act.Move("m", ((Hex(8, 4), 1), (Hex(8, 4), 2), (Hex(8, 3), 2))))
    d = legal_actions(b)
    assert d is not None and d.reason == "escape_failed"
    events = b.apply(gm.GrantFreeAttack("t", "m"))
    assert isinstance(events[0], ev.GMActed)


def mixed(seed: int) -> BattleSetup:
    """Casters, large figures and a GM seat (the referee): a blue wizard, seer and knight against a red
    wizard, a 3-hex troll and a 7-hex dragon."""
    return replace(
        setup(
            [
                ("b0", "blue", "knight", (1, 2), 0),
                ("b1", "blue", "wizard", (1, 5), 0),
                ("b2", "blue", "seer", (2, 7), 0),
                ("r0", "red", "troll", (8, 2), 3),
                ("r1", "red", "dragon", (8, 6), 3),
                ("r2", "red", "wizard", (10, 4), 3),
            ],
            seed=seed,
            width=12,
            height=10,
        ),
        gm="referee",
    )


def gm_whim(b: Battle, rng: random.Random) -> gm.GMAction | None:
    """Now and then a legal GM situational modifier on a random figure or side (*Fudge* 4.1)."""
    if rng.random() > 0.15 or b.over:
        return None
    target = rng.choice([*sorted(b.figures), *sorted(b.sides)])
    until = rng.choice(["round", "removed"])
    return gm.SituationalModifier(f"m{len(b.log)}", target, rng.choice([-2, -1, 1, 2]), "whim", until, b.round)


def play_mixed(b: Battle, seed: int, max_rounds: int = 12) -> Battle:
    """Random legal play with the GM's whims, every invariant of test_battle checked after every action,
    and no two figures sharing a hex of their footprints."""
    players = {s: RandomPlayer(seed + i) for i, s in enumerate(sorted(b.sides))}
    rng = random.Random(seed)
    while not b.over and b.round <= max_rounds:
        action: act.Action | None = gm_whim(b, rng)
        if action is None:
            d = legal_actions(b)
            assert d is not None
            action = players[d.side](b, d)
        able = {f.id for f in b.figures.values() if f.can_act}
        wounds = {f.id: list(f.wounds.received()) for f in b.figures.values()}
        events = b.apply(action)
        check_events(b, events, able)
        for fid in {e.figure for e in events if isinstance(e, ev.Healed)}:
            wounds[fid] = []  # a healing spell may shrink its target's wound track (FTC 8)
        check_state(b, wounds)
        cells = [c for f in b.figures.values() for c in f.cells]
        assert len(cells) == len(set(cells)), "two figures share a hex of their footprints"
    return b


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_random_play_with_casters_large_figures_and_a_gm_keeps_the_invariants(seed: int) -> None:
    b = play_mixed(Battle(mixed(seed)), seed)
    assert b.over or b.round > 12


def test_a_battle_of_casters_large_figures_and_a_gm_replays_from_its_save(tmp_path: Path) -> None:
    for seed in range(3):
        b = play_mixed(Battle(mixed(seed)), seed, max_rounds=8)
        assert any(a.kind == "gm_modifier" for a in b.log)
        record.save(tmp_path / "mixed.json", b, {"scenario": "mixed"})
        rec = record.load(tmp_path / "mixed.json")
        again = record.replay(mixed(seed), rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
        assert again.digests == b.digests
        assert [e.text(again.names()) for e in again.events] == [e.text(b.names()) for e in b.events]


def test_ftc_8_3_an_area_spell_reaches_a_large_figure_by_its_nearest_hex_in_range() -> None:
    """The dragon's own hex is 11 hexes from the wizard, beyond Blinding Cloud's short range (10), but its
    west hex is 10 away: the dragon is a legal target, and the cloud is centred on that hex, not on the
    dragon's own (a random player once declared the out-of-range centre and was refused)."""
    b = refereed(
        axial([("w", "blue", "wizard", Hex(0, 2), 0), ("d", "red", "dragon", Hex(11, 2), 3)], seed=0, width=16)
    )
    assert "d" in b.spell_targets("w", "Blinding Cloud")
    assert b.area_hex_on("w", "Blinding Cloud", "d") == Hex(10, 2)
    assert b.area_hex_on("w", "Thunderstrike", "d") is None  # not an area spell
    declared: list[Hex | None] = []

    def declare(bb: Battle, fid: str) -> act.Action:
        if fid == "w":
            with pytest.raises(IllegalAction):
                bb.apply(act.Declare("w", spell="Blinding Cloud", spell_hex=Hex(11, 2)))
            declared.append(bb.area_hex_on("w", "Blinding Cloud", "d"))
            return act.Declare("w", spell="Blinding Cloud", spell_target="d")
        return act.Declare(fid)

    events = play_round(b, declare)
    assert declared == [Hex(10, 2)]
    casts = [e for e in events if isinstance(e, ev.SpellCast)]
    assert casts and all(e.hex == Hex(10, 2) for e in casts)


# --- the GM's modifiers in the rolls of magic (Fudge 4.1, FTC 8.1) -------------------------------------


def dodging_caster(seed: int, value: int, will: tuple[int, ...] | None = None) -> Battle:
    """Round 1 of ``spell_duel`` with a referee: the wizard begins Thunderstrike at the archer and dodges
    her arrow, so he rolls Will (Good) to keep concentrating (FTC 8.1); the GM gives him ``value`` and,
    if given, sets the faces of that Will roll."""
    b = refereed(spell_duel(seed))
    if value:
        b.apply(gm.SituationalModifier("calm", "w", value, "calm mind", "removed"))
    if will is not None:
        b.apply(gm.SetDie("w", "will", will))

    def declare(bb: Battle, fid: str) -> act.Action:
        if fid == "w":
            return act.Declare("w", spell="Thunderstrike", spell_target="a", dodge=("a",))
        return act.Declare(fid, "neutral", ("w",), "Shortbow")

    play_round(b, declare)
    return b


def test_fudge_4_1_the_gm_modifier_counts_in_the_will_roll_to_keep_concentrating() -> None:
    """FTC 8.1's Will roll is one of the figure's rolls: the GM's +3 is in its total and named in the log,
    and it keeps a concentration that the wizard's Will alone would have lost (the GM sets the roll: -3)."""
    rolled = [e for e in dodging_caster(0, 3, (0, -1, -1, -1)).events if isinstance(e, ev.ConcentrationRolled)]
    assert rolled
    r = rolled[0]
    assert r.reason == "dodge" and r.modifiers == (("GM: calm mind", 3),)
    assert r.result == r.will + sum(r.faces) + 3
    assert r.kept == (r.result >= r.difficulty)
    assert "+3 GM: calm mind" in r.text()
    assert r.kept and r.result - 3 < r.difficulty, "the GM's +3 keeps a concentration Will alone loses"


def test_ftc_8_1_a_will_roll_without_gm_modifiers_reads_and_digests_as_before() -> None:
    """Without a GM modifier the event names none and its saved form has no ``modifiers`` key, so battles
    saved before GM modifiers counted here replay digest for digest."""
    rolled = [e for e in dodging_caster(0, 0).events if isinstance(e, ev.ConcentrationRolled)]
    assert rolled, "seed 0 no longer makes the wizard roll Will"
    assert rolled[0].modifiers == () and "modifiers" not in rolled[0].to_json()
    assert rolled[0].result == rolled[0].will + sum(rolled[0].faces)


def slowed_archer(seed: int, value: int, dice: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> Battle:
    """Round 1 of ``spell_duel`` with a referee: the wizard casts Slow (resisted by Will) at the archer; the
    GM gives the archer ``value`` and, if given, sets ``dice``: the wizard's roll of the round and the
    archer's resistance roll."""
    b = refereed(spell_duel(seed))
    if value:
        b.apply(gm.SituationalModifier("grit", "a", value, "stubborn", "removed"))
    if dice is not None:
        b.apply(gm.SetDie("w", "combat", dice[0]))
        b.apply(gm.SetDie("a", "resistance", dice[1]))
    play_round(b, lambda bb, fid: act.Declare("w", spell="Slow", spell_target="a") if fid == "w" else act.Declare(fid))
    return b


def test_fudge_4_1_the_gm_modifier_counts_in_the_resistance_to_a_spell() -> None:
    """A resisted spell takes effect only if the casting beats the target's Will + 4dF (FTC 8): the GM's
    modifier on the target counts in that roll, named in the log; with both rolls set by the GM to 0, the
    +2 turns the spell."""
    b = slowed_archer(0, 2, ((0, 0, 0, 0), (0, 0, 0, 0)))
    resisted = [e for e in b.events if isinstance(e, ev.SpellResisted)]
    assert resisted
    r = resisted[0]
    level, mods = b.resistance_terms("a", "Slow") or (None, ())
    assert r.level == level == b.figure("a").character.will
    assert r.modifiers == tuple((m.name, m.value) for m in mods) == (("GM: stubborn", 2),)
    assert r.result == r.level + sum(r.faces) + 2
    assert r.resisted == (r.casting <= r.result)
    assert "+2 GM: stubborn" in r.text()
    assert r.resisted and r.casting > r.result - 2, "the GM's +2 lets the archer resist"


def test_fudge_4_1_the_gm_modifier_counts_in_dodging_a_bolt_and_its_odds() -> None:
    """FTC 8.3: a bolt is dodged like a missile; the dodge's terms (the GM's modifier included) are one
    computation for the resolution and the screen."""
    b = refereed(spell_duel(0))
    b.apply(gm.SituationalModifier("nimble", "a", 2, "nimble", "removed"))
    terms = b.spell_dodge_terms("a", "Fire Bolt", Stance.NEUTRAL)
    assert ("GM: nimble", 2) in [(m.name, m.value) for m in terms]
    assert ("dodging a spell", 0) in [(m.name, m.value) for m in terms]  # Fire Bolt: Fair, table 8 +0


# --- the GM ends the last round of a concentration (FTC 8.1) -----------------------------------


def _declared_before_the_brigand(b: Battle) -> bool:
    """Play on to the wizard's declaration of Thunderstrike; whether the round is still open after it (the
    brigand has yet to declare)."""
    start = b.round
    while b.round == start:
        d = legal_actions(b)
        assert d is not None
        fid = d.figure or ""
        if d.reason == "declare":
            b.apply(thunder(b, fid))
            if fid == "w":
                return b.round == start
        elif d.reason == "interrupt":
            b.apply(act.PassInterrupt(d.side))
        else:
            b.apply(act.Move(fid, ()))
    return False


@pytest.mark.parametrize("when", ["movement", "attack"])
def test_ftc_8_1_a_round_the_gm_ends_carries_a_concentration_in_its_last_round_over(when: str) -> None:
    """Thunderstrike (5 rounds) declared in round 1 takes effect in round 5's attack phase. The GM ends
    round 5 before that attack phase (in its movement phase, or after the wizard declared it again): the
    attack phase never came, so the concentration carries on, still in its last round, and the spell
    strikes in round 6's attack phase."""
    b = refereed(spell_far(0))
    for _ in range(4):
        play_round(b, thunder)
    conc = b.casting_of("w")
    assert b.round == 5 and conc is not None and conc.rounds_left == 1
    if when == "attack":
        assert _declared_before_the_brigand(b), "seed 0 no longer has the wizard declare first in round 5"
    events = b.apply(gm.EndRound("the bell"))
    assert not [e for e in events if isinstance(e, (ev.ConcentrationBroken, ev.SpellCast))]
    assert [(e.caster, e.rounds_left) for e in events if isinstance(e, ev.CastingContinued)] == [("w", 1)]
    conc = b.casting_of("w")
    assert b.round == 6 and conc is not None and conc.rounds_left == 1
    out = play_round(b, thunder)
    casts = [e for e in out if isinstance(e, ev.SpellCast)]
    assert [(e.caster, e.spell) for e in casts] == [("w", "Thunderstrike")]
    assert b.casting_of("w") is None


def test_ftc_8_1_a_round_the_gm_ends_before_the_last_counts_as_concentrated() -> None:
    """Ending an earlier round of concentration spends it as usual: the caster stood still through it, and
    nothing was due in its attack phase."""
    b = refereed(spell_far(3))
    play_round(b, thunder)
    before = b.casting_of("w")
    assert before is not None and before.rounds_left == 4
    b.apply(gm.EndRound())
    after = b.casting_of("w")
    assert after is not None and after.rounds_left == 3


# --- recognising spells with large figures (FTC 8.2, FTC 5) -------------------------------------------


def _walled(figures: list[tuple[str, str, Character, Hex, int]], wall: Hex, seed: int) -> Battle:
    """A 16 x 12 open field with one sight-blocking wall hex and the figures at axial hexes."""
    t = TerrainMap.open(16, 12)
    grid = np.zeros((12, 16), dtype=np.int16)
    col, row = t.cell(wall)
    grid[row, col] = 1
    t = TerrainMap.build(16, 12, (OPEN_GROUND, WALL), grid)
    figs = tuple(FigureSetup(fid, fid.upper(), side, ch, h, facing) for fid, side, ch, h, facing in figures)
    return Battle(BattleSetup(t, SIDES, figs, RuleOptions(), seed))


def _recognitions(b: Battle, caster: str, declare: act.Declare, rounds: int = 2) -> list[ev.SpellRecognised]:
    for _ in range(rounds):
        play_round(b, lambda bb, fid: declare if fid == caster else act.Declare(fid))
    return [e for e in b.events if isinstance(e, ev.SpellRecognised)]


def test_ftc_8_2_a_large_figure_sees_a_casting_from_any_of_its_hexes() -> None:
    """A wall in front of the troll's head hides the wizard from that hex, but the troll's rear-left hex sees
    and hears him: it recognises his Thunderstrike on a Good result, not the Superb of a hidden caster."""
    troll = character("troll", skills={"Club": "Good", "Thaumatology": "Great"})
    b = _walled(
        [("w", "blue", character("wizard"), Hex(1, 4), 0), ("t", "red", troll, Hex(8, 4), 3)],
        wall=Hex(7, 4),
        seed=0,
    )
    assert line_of_fire(b.terrain, Hex(1, 4), Hex(8, 4)).blocked  # the head hex is hidden
    assert b.recognition_view("t", "w") == (True, True, False)
    seen = _recognitions(b, "w", act.Declare("w", spell="Thunderstrike", spell_target="t"))
    assert seen, "seed 0 no longer has the watcher declare after the caster"
    assert seen[0].figure == "t" and seen[0].difficulty == GOOD


def test_ftc_8_2_a_large_caster_is_seen_at_any_of_its_hexes() -> None:
    """The wall hides the casting troll's head from the seer, but not its other hexes: the seer, in the
    cloud the troll casts, sees and hears it (Good), as a large target is shot at any of its hexes."""
    troll = character("troll", skills={"Club": "Good", "Magic": "Great"}, spells=["Blinding Cloud"])
    b = _walled(
        [("t", "blue", troll, Hex(7, 4), 0), ("s", "red", character("seer"), Hex(3, 5), 3)],
        wall=Hex(5, 5),
        seed=0,
    )
    assert line_of_fire(b.terrain, Hex(3, 5), Hex(7, 4)).blocked  # the troll's own hex is hidden
    assert b.recognition_view("s", "t") == (True, True, False)
    seen = _recognitions(b, "t", act.Declare("t", spell="Blinding Cloud", spell_hex=Hex(3, 4)), rounds=1)
    assert seen, "seed 0 no longer has the watcher declare after the caster"
    assert seen[0].figure == "s" and seen[0].difficulty == GOOD


def test_ftc_8_2_a_large_bystander_in_the_way_obscures_from_any_of_its_hexes() -> None:
    """Other people in the way make recognition Superb (FTC 8.2): a troll whose tail hex, not its head,
    stands between the seer and the wizard is in the way."""
    b = _walled(
        [
            ("w", "blue", character("wizard"), Hex(1, 4), 0),
            ("s", "red", character("seer"), Hex(9, 4), 3),
            ("t", "blue", character("troll"), Hex(5, 3), 1),
        ],
        wall=Hex(0, 0),
        seed=0,
    )
    assert b.figure("t").hex not in {lh.hex for lh in line_of_fire(b.terrain, Hex(1, 4), Hex(9, 4)).hexes}
    assert b.recognition_view("s", "w") == (True, True, True)
    seen = _recognitions(b, "w", act.Declare("w", spell="Thunderstrike", spell_target="s"))
    assert seen, "seed 0 no longer has the watcher declare after the caster"
    assert seen[0].figure == "s" and seen[0].difficulty == SUPERB


def test_ftc_8_1_the_gm_sets_the_will_roll_to_keep_concentrating_by_hand() -> None:
    """Physical dice at the table: the GM's faces for the wizard's next Will roll (FTC 8.1) are the ones
    rolled, and the dice of the seed are not drawn for it."""
    seed = 0
    assert any(isinstance(e, ev.ConcentrationRolled) for e in dodging_caster(seed, 0).events)
    for faces in ((1, 1, 1, 1), (-1, -1, -1, -1)):
        b = refereed(spell_duel(seed))
        b.apply(gm.SetDie("w", "will", faces))

        def declare(bb: Battle, fid: str) -> act.Action:
            if fid == "w":
                return act.Declare("w", spell="Thunderstrike", spell_target="a", dodge=("a",))
            return act.Declare(fid, "neutral", ("w",), "Shortbow")

        rolled = [e for e in play_round(b, declare) if isinstance(e, ev.ConcentrationRolled)]
        assert rolled and rolled[0].faces == faces
        assert rolled[0].kept == (faces == (1, 1, 1, 1))
        assert not b.gm_dice


def test_ftc_8_the_gm_sets_a_resistance_roll_by_hand() -> None:
    """The archer's roll to resist Slow (FTC 8) uses the faces the GM set for it."""
    seed = 0
    assert any(isinstance(e, ev.SpellResisted) for e in slowed_archer(seed, 0).events)
    b = refereed(spell_duel(seed))
    b.apply(gm.SetDie("a", "resistance", (1, 1, 1, 1)))
    play_round(b, lambda bb, fid: act.Declare("w", spell="Slow", spell_target="a") if fid == "w" else act.Declare(fid))
    resisted = [e for e in b.events if isinstance(e, ev.SpellResisted)]
    assert resisted and resisted[0].faces == (1, 1, 1, 1)
    assert resisted[0].result == b.figure("a").character.will + 4
