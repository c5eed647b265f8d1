"""*Fudge* 4.34, multiple combatants (003:163–234): what FTC 6.1 and 6.4.1 override (Paco hits nobody), and the
two options they leave open — the sweeping blow and ignoring an attacker (docs/rulings.md "Sweeping blow",
"Ignoring attackers"). Battles through the door, every roll set from the GM's seat."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, record
from game.engine.ai import RandomPlayer
from game.engine.battle import Battle, BattleSetup, Decision, FigureSetup, IllegalAction, RuleOptions
from game.engine.choices import choices
from game.engine.hexgrid import Hex, neighbor
from game.engine.odds import hit_probability
from game.engine.preview import AttackPreview, attack_preview, preview
from game.engine.seats import SIDE, Seat, events_for_seat
from game.engine.terrain import TerrainMap
from tests.engine.test_preview_truth import to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, attacks, dice, play, start
from tests.golden.scenarios import CENTRE, SIDES, character
from tests.sampling import assert_agrees, sample_attack

THUGS = {"mediocre": (0, (-1, 0, 0, 0)), "great": (1, (1, 1, 0, 0)), "good": (5, (1, 0, 0, 0))}
"""Each thug's direction from Paco (his three front hexes, each thug facing him) and his roll: Fair +2 Great,
Fair +1 Good, Fair −1 Mediocre (003:190–198)."""


def swordsman(fid: str, side: str, sword: str, h: Hex, facing: int, **changes: object) -> FigureSetup:
    return FigureSetup(fid, fid.capitalize(), side, character("guard", skills={"Sword": sword}, **changes), h, facing)


def paco_and_thugs(options: RuleOptions = RuleOptions()) -> Battle:  # noqa: B008 (frozen, immutable)
    paco = swordsman("paco", "blue", "Good", CENTRE, 0)
    thugs = tuple(swordsman(t, "red", "Fair", neighbor(CENTRE, d), (d + 3) % 6) for t, (d, _) in THUGS.items())
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (paco, *thugs), options, 0)
    return start(setup, paco=UP, **{t: DOWN for t in THUGS})


def thugs_attack(b: Battle) -> None:
    """The thugs declare their attacks on Paco (they declare first); their rolls and Paco's +1 set."""
    dice(b, paco=("combat", (1, 0, 0, 0)), **{t: ("combat", roll) for t, (_, roll) in THUGS.items()})
    to_declaration(b, "paco", {t: act.Declare(t, "neutral", ("paco",), "Broadsword") for t in THUGS})


def test_fudge_4_34_paco_under_ftc_hits_nobody() -> None:
    """003:190–198: the thugs roll Great, Good, Mediocre; Paco rolls Great and, by *Fudge*'s tie exception, hits
    the Mediocre thug. FTC 6.1 and 6.4 replace the exception: he must *defeat* all of those attacking him, and
    the Great thug's defence ties his offence — he misses; no thug hits him either (Great ties, the rest are
    lower)."""
    b = paco_and_thugs()
    thugs_attack(b)
    events = b.apply(act.Declare("paco", "neutral", ("mediocre",), "Broadsword"))
    (blow,) = attacks(events, "paco")
    assert blow.offence == 2 and not blow.hit
    assert dict(blow.other_defences) == {"great": 2, "good": 1}
    assert not any(a.hit for a in events if isinstance(a, ev.AttackResolved) and a.target == "paco")


def test_fudge_4_34_paco_ignoring_the_best_thug_hits_the_mediocre_one_and_takes_his_blow() -> None:
    """003:211–223: a fighter may leave an attacker undefended, and "he can then damage his chosen foe even if
    he's hit by the ignored ones". Paco ignores the Great thug: his Great blow beats the Good thug's defence and
    the Mediocre thug's, relative degree +3; the ignored thug's Great blow meets no defence, only the Poor
    difficulty: relative degree +4."""
    b = paco_and_thugs(RuleOptions(ignore_attackers=True))
    thugs_attack(b)
    offered = choices(b)
    assert offered is not None and offered.declare is not None
    assert set(offered.declare.ignorable) == set(THUGS)
    ignoring = act.Declare("paco", "neutral", ("mediocre",), "Broadsword", ignore=("great",))
    shown = preview(b, ignoring)
    plain = attack_preview(b, "paco", "Broadsword", "mediocre")
    assert isinstance(shown, AttackPreview)
    events = b.apply(ignoring)
    (blow,) = attacks(events, "paco")
    assert blow.hit and blow.relative_degree == 3 and dict(blow.other_defences) == {"good": 1}
    (ignored,) = attacks(events, "great", "paco")
    assert ignored.hit and ignored.defence is None and ignored.relative_degree == 4
    assert ignored.steps[0].text() == "ignored by Paco (Fudge 4.34): a defence roll → none"
    (good,) = attacks(events, "good", "paco")
    assert good.defence == 2 and not good.hit  # the thugs he defends against meet his defence as before
    # the odds: the ignored thug's defence left out, exactly as if he were not there (the GM's set rolls of Paco,
    # +1, and of the Mediocre thug, −1, counted; every thug is Fair)
    assert shown.hit == hit_probability(1, (0, 0), -2, set_rolls=(1, -1)) == Fraction(66, 81)  # Good thug < +2
    assert plain.hit == hit_probability(1, (0, 0, 0), -2, set_rolls=(1, -1)) < shown.hit


def test_fudge_4_34_what_an_ignore_may_not_name() -> None:
    b = paco_and_thugs(RuleOptions(ignore_attackers=True))
    thugs_attack(b)
    with pytest.raises(IllegalAction, match="cannot ignore Mediocre, the foe he strikes"):
        b.apply(act.Declare("paco", "neutral", ("mediocre",), "Broadsword", ignore=("mediocre",)))
    off = paco_and_thugs()
    thugs_attack(off)
    with pytest.raises(IllegalAction, match="Ignoring attackers is a rule option this battle does not use"):
        off.apply(act.Declare("paco", "neutral", ("mediocre",), "Broadsword", ignore=("great",)))
    far = start(
        BattleSetup(
            TerrainMap.open(12, 10),
            SIDES,
            (swordsman("paco", "blue", "Good", CENTRE, 0), swordsman("far", "red", "Fair", Hex(9, 4), 3)),
            RuleOptions(ignore_attackers=True),
            0,
        ),
        paco=UP,
        far=DOWN,
    )
    to_declaration(far, "paco")
    with pytest.raises(IllegalAction, match="Far cannot reach Paco in melee this round"):
        far.apply(act.Declare("paco", "neutral", ignore=("far",)))


# ------------------------------------------------------------------------------------------ the sweeping blow

FOES = {"fa": 0, "fb": 1, "fc": 5}
"""Three peasants in the sweeper's front hexes (his three front directions), each facing him."""


def foes() -> tuple[FigureSetup, ...]:
    """The three peasants of ``FOES`` (Axe Mediocre, Hand Axe, no armour)."""
    return tuple(
        FigureSetup(f, f.upper(), "red", character("peasant"), neighbor(CENTRE, d), (d + 3) % 6)
        for f, d in FOES.items()
    )


def sweeper(options: RuleOptions, weapon: str = "Broadsword") -> Battle:
    """A Superb swordsman (no armour) against three unarmoured Mediocre peasants: a torso blow of his deals
    relative degree + 2."""
    swing = swordsman("s", "blue", "Superb", CENTRE, 0, weapons=[weapon])
    peasants = tuple(
        FigureSetup(f, f.upper(), "red", character("peasant"), neighbor(CENTRE, d), (d + 3) % 6)
        for f, d in FOES.items()
    )
    return start(BattleSetup(TerrainMap.open(12, 10), SIDES, (swing, *peasants), options, 0), s=UP)


def sweep(
    b: Battle, foes: tuple[str, ...], rolls: dict[str, tuple[int, ...]], attackers: tuple[str, ...] = ()
) -> list[ev.Event]:
    dice(b, s=("combat", EVEN), **{f: ("combat", rolls.get(f, EVEN)) for f in FOES})
    for f in FOES:
        b.apply(ev_health(f))
    to_declaration(b, "s", {f: act.Declare(f, "neutral", ("s",), "Hand Axe") for f in attackers})
    events = b.apply(act.Declare("s", "neutral", foes, "Broadsword", aim="torso"))
    return events + play(b, lambda b_, d: None, phase="movement")


def ev_health(fid: str) -> act.Action:
    return gm.SetDie(fid, "health", EVEN)


@pytest.mark.parametrize(("value", "less"), [(1, (0, 1, 2)), (2, (0, 2, 4))])
def test_fudge_4_34_a_sweeping_blow_does_less_damage_to_each_foe_after_the_first(
    value: int, less: tuple[int, int, int]
) -> None:
    """003:205–209: a sweeping blow "slows the slash: reduce damage by 1 or 2 for each foe cut through". One
    Superb result against three Mediocre defences: each foe hit with relative degree +4; the second foe's damage
    is the first's less 1 (or 2), the third's less 2 (or 4), a named factor."""
    b = sweeper(RuleOptions(sweeping_blow=value))
    to_declaration(b, "s")
    offered = choices(b)
    assert offered is not None and offered.declare is not None and offered.declare.sweep == 3
    events = sweep(b, ("fa", "fb", "fc"), {})
    blows = [attacks(events, "s", f)[0] for f in ("fa", "fb", "fc")]
    assert all(x.hit and x.relative_degree == 4 for x in blows)
    assert [blows[0].damage - x.damage for x in blows] == list(less)
    assert ("sweeping blow, 2nd foe (Fudge 4.34)", -value) in blows[1].offensive_factors
    assert ("sweeping blow, 3rd foe (Fudge 4.34)", -2 * value) in blows[2].offensive_factors
    declared = next(e for e in events if isinstance(e, ev.Declared) and e.figure == "s")
    assert declared.targets == ("fa", "fb", "fc")


def test_fudge_4_34_a_foe_whose_defence_holds_is_missed_and_the_others_hit() -> None:
    b = sweeper(RuleOptions(sweeping_blow=1))
    events = sweep(b, ("fa", "fb", "fc"), {"fb": (1, 1, 1, 1)})  # B: Mediocre +4 = Superb, ties the sweeper
    hits = {f: attacks(events, "s", f)[0].hit for f in FOES}
    assert hits == {"fa": True, "fb": False, "fc": True}


def test_fudge_4_34_each_blow_of_a_sweep_must_beat_the_foes_attacking_the_sweeper() -> None:
    """FTC 6.1, 6.4.1 with 4.34: the sweeper's one offence must beat the defence of everyone attacking him in
    melee, each foe's own blow must beat his defence. A, attacking him, rolls +4: his Superb defence holds
    against the sweeper's Superb offence, so every blow of the sweep misses — B's and C's too."""
    b = sweeper(RuleOptions(sweeping_blow=1))
    events = sweep(b, ("fa", "fb", "fc"), {"fa": (1, 1, 1, 1)}, attackers=("fa",))
    assert not any(attacks(events, "s", f)[0].hit for f in FOES)
    (back,) = attacks(events, "fa", "s")
    assert back.defence == 3  # A's blow met the sweeper's Superb + 0 defence


def test_fudge_4_34_what_a_sweep_may_not_be() -> None:
    b = sweeper(RuleOptions(sweeping_blow=1), weapon="Rapier")
    to_declaration(b, "s")
    with pytest.raises(IllegalAction, match=r"A sweeping blow is a melee slash, and the Rapier stabs \(Fudge 4.34\)"):
        b.apply(act.Declare("s", "neutral", ("fa", "fb"), "Rapier"))
    with pytest.raises(IllegalAction, match="names each foe once"):
        b.apply(act.Declare("s", "neutral", ("fa", "fa"), "Rapier"))
    with pytest.raises(IllegalAction, match="at most 3 foes"):
        b.apply(act.Declare("s", "neutral", ("fa", "fb", "fc", "fa"), "Rapier"))
    off = sweeper(RuleOptions())
    to_declaration(off, "s")
    with pytest.raises(IllegalAction, match=r"A figure attacks one target a round\."):
        off.apply(act.Declare("s", "neutral", ("fa", "fb"), "Broadsword"))


def test_fudge_4_34_the_preview_of_a_sweep_is_each_foes_own_with_its_place() -> None:
    """The preview gives each foe's chances: the same hit chance as a single blow on it, the damage base less
    the sweep's factor for its place; it names that one roll decides every foe."""
    b = sweeper(RuleOptions(sweeping_blow=2))
    to_declaration(b, "s")
    shown = preview(b, act.Declare("s", "neutral", ("fa", "fb", "fc"), "Broadsword"))
    assert isinstance(shown, AttackPreview) and [p.target for p in shown.sweep] == ["fb", "fc"]
    single = {f: attack_preview(b, "s", "Broadsword", f) for f in FOES}
    assert shown.hit == single["fa"].hit and shown.damage_base == single["fa"].damage_base
    for place, p in enumerate(shown.sweep, start=1):
        assert p.hit == single[p.target].hit
        assert p.damage_base == single[p.target].damage_base - 2 * place
    assert any("One roll decides every foe of the sweep" in a for a in shown.assumptions)


@pytest.mark.slow
def test_fudge_4_34_the_sweep_preview_agrees_with_sampled_battles() -> None:
    swing = swordsman("s", "blue", "Superb", CENTRE, 0)
    peasants = tuple(
        FigureSetup(f, f.upper(), "red", character("peasant"), neighbor(CENTRE, d), (d + 3) % 6)
        for f, d in FOES.items()
    )
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (swing, *peasants), RuleOptions(), 0)
    declaration = act.Declare("s", "neutral", ("fa", "fb", "fc"), "Broadsword")
    sample = sample_attack(
        setup, RuleOptions(sweeping_blow=1), initiative={"s": UP}, declaration=declaration, target="fc", n=6000
    )
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)


@pytest.mark.slow
def test_fudge_4_34_the_ignore_preview_agrees_with_sampled_battles() -> None:
    paco = swordsman("paco", "blue", "Good", CENTRE, 0)
    thugs = tuple(swordsman(t, "red", "Fair", neighbor(CENTRE, d), (d + 3) % 6) for t, (d, _) in THUGS.items())
    setup = BattleSetup(TerrainMap.open(12, 10), SIDES, (paco, *thugs), RuleOptions(), 0)
    before = {t: act.Declare(t, "neutral", ("paco",), "Broadsword") for t in THUGS}
    sample = sample_attack(
        setup,
        RuleOptions(ignore_attackers=True),
        initiative={"paco": UP, **{t: DOWN for t in THUGS}},
        declaration=act.Declare("paco", "neutral", ("mediocre",), "Broadsword", ignore=("great",)),
        decide_before=lambda b, d: before.get(d.figure or "") if d.reason == "declare" else None,
        n=6000,
    )
    assert_agrees(sample.preview.distribution, sample.counts, sample.n)


def test_a_sweep_and_an_ignore_stay_secret_and_replay_from_the_save(tmp_path: Path) -> None:
    options = RuleOptions(sweeping_blow=1, ignore_attackers=True, secret_stances=True)
    b = sweeper(options)
    dice(b, s=("combat", EVEN))
    to_declaration(b, "s")
    events = b.apply(act.Declare("s", "neutral", ("fa", "fb"), "Broadsword", ignore=("fc",)))
    (hidden,) = [e for e in events if isinstance(e, ev.Declared) and e.figure == "s" and e.hidden]
    (seen,) = events_for_seat(b, [hidden], Seat(SIDE, "red"))
    assert isinstance(seen, ev.Declared) and seen.targets == () and seen.ignore == ()
    play(b, lambda b_, d: None, phase="movement")
    shown = [e for e in b.events if isinstance(e, ev.Declared) and e.figure == "s" and not e.hidden]
    assert shown[-1].targets == ("fa", "fb") and shown[-1].ignore == ("fc",)
    record.save(tmp_path / "sweep.json", b, {"scenario": "sweep"})
    rec = record.load(tmp_path / "sweep.json")
    again = record.replay(b.setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
    assert again.digests == b.digests
    random = Battle(replace(b.setup, gm=None, seed=5, options=RuleOptions(sweeping_blow=2, ignore_attackers=True)))
    players = {"blue": RandomPlayer(1), "red": RandomPlayer(2)}
    while not random.over and random.round <= 4:
        d: Decision | None = random.decision()
        assert d is not None
        random.apply(players[d.side](random, d))
    record.save(tmp_path / "random.json", random, {})
    rec = record.load(tmp_path / "random.json")
    assert record.replay(random.setup, rec.actions, digests=rec.digests).digests == random.digests
