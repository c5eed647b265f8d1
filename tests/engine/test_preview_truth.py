"""The odds shown before a decision are the truth at that moment (docs/architecture.md "One source of legality"):
every declaration the players have seen counts as the resolution will count it (FTC 6.5.2 a declared dodge,
FTC 6.2 the reach of the stance chosen), the GM's overrides count (FTC 5.3 "Grant escape" / "Deny escape"), and
with the dice set through the GM's seat the preview's certain outcome is the one the battle then resolves."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, IllegalAction, RuleOptions, legal_actions
from game.engine.combat import Stance
from game.engine.preview import attack_preview, escape_chance
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, dice, start
from tests.golden.scenarios import CENTRE, axial, east
from tests.helpers import do_little


def to_declaration(b: Battle, fid: str, others: Mapping[str, act.Action] | None = None) -> None:
    """Play on (staying put, defending only) until ``fid`` declares; the figures in ``others`` declare that."""
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "declare" and d.figure == fid:
            return
        chosen = (others or {}).get(d.figure or "") if d.reason == "declare" else None
        b.apply(chosen or do_little(d))


def resolved(events: list[ev.Event], attacker: str) -> ev.AttackResolved:
    return next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == attacker and not e.stray)


def shot_scene(dodges: bool) -> Battle:
    """A blue archer (first in initiative, so the last to declare) and a red brigand 4 hexes east, who has
    declared — with or without a dodge of the archer's shot."""
    b = start(axial([("a", "blue", "archer", CENTRE, 0), ("t", "red", "brigand", east(CENTRE, 4), 3)]), a=UP, t=DOWN)
    to_declaration(b, "a", {"t": act.Declare("t", "neutral", dodge=("a",) if dodges else ())})
    return b


def test_ftc_6_5_2_a_declared_dodge_is_counted_in_the_odds_of_the_shot() -> None:
    """FTC 6.5.2: the brigand declared a dodge of the archer: the odds put the shot against that dodge (not
    "taken not to dodge"), and with both rolls set the shot the odds call a certain miss is the miss the
    round resolves, against the same dodge."""
    b = shot_scene(dodges=True)
    pv = attack_preview(b, "a", "Shortbow", "t")
    assert pv.dodging is True
    assert pv.defence is not None and "range defence bonus" in [m.name for m in pv.defence_mods]
    assert not any("not to dodge" in a for a in pv.assumptions)
    assert 0 < pv.hit < attack_preview(shot_scene(dodges=False), "a", "Shortbow", "t").hit
    # the archer rolls 0, the brigand +4 on his dodge: a certain miss, unopposed it would have hit
    dice(b, a=("combat", EVEN), t=("combat", UP))
    certain = attack_preview(b, "a", "Shortbow", "t")
    assert certain.hit == 0
    shot = resolved(b.apply(act.Declare("a", "neutral", ("t",), "Shortbow")), "a")
    assert not shot.hit
    assert shot.defence == certain.defence + 4
    assert dict(shot.defence_mods) == {m.name: m.value for m in certain.defence_mods}
    assert shot.offence - shot.roll == certain.offence


def test_ftc_6_5_2_a_target_that_declared_without_a_dodge_is_known_not_to_dodge() -> None:
    """The brigand declared without dodging: the odds say so as a fact, not as an assumption, and the shot is
    resolved unopposed as they say."""
    b = shot_scene(dodges=False)
    pv = attack_preview(b, "a", "Shortbow", "t")
    assert pv.dodging is False and pv.defence is None
    assert not any("dodge" in a for a in pv.assumptions)
    dice(b, a=("combat", EVEN))
    certain = attack_preview(b, "a", "Shortbow", "t")
    assert certain.hit in (0, 1)
    shot = resolved(b.apply(act.Declare("a", "neutral", ("t",), "Shortbow")), "a")
    assert shot.defence is None
    assert shot.hit is (certain.hit == 1)


def test_ftc_6_5_2_a_target_still_to_declare_is_named_as_an_assumption() -> None:
    """The archer declares first: whether the brigand will dodge is not known yet, and the odds say what they
    take instead."""
    b = start(axial([("a", "blue", "archer", CENTRE, 0), ("t", "red", "brigand", east(CENTRE, 4), 3)]), a=DOWN, t=UP)
    to_declaration(b, "a")
    pv = attack_preview(b, "a", "Shortbow", "t")
    assert pv.dodging is None
    assert any("taken not to dodge" in a for a in pv.assumptions)


def _closing() -> Battle:
    """A blue brigand facing a red one two hexes east: in reach only after a step of advance (FTC 6.2)."""
    b = start(axial([("a", "blue", "brigand", CENTRE, 0), ("z", "red", "brigand", east(CENTRE, 2), 3)]), a=UP, z=DOWN)
    to_declaration(b, "a")
    return b


def test_ftc_6_2_a_target_the_stance_cannot_reach_shows_no_odds() -> None:
    """FTC 6.2: with a step of advance (an aggressive stance) the brigand reaches his enemy; in a neutral stance,
    the advance dropped, he cannot, and the odds say so — as the door then refuses the declaration. The stances
    compared price only the stances that reach."""
    b = _closing()
    step = [(east(CENTRE), 0)]
    advancing = attack_preview(b, "a", None, "z", "mildly_aggressive", advance=step)
    assert advancing.reachable and advancing.hit > 0
    reaching = {c.stance for c in advancing.stances if c.hit is not None}
    assert reaching == {Stance.VERY_AGGRESSIVE, Stance.MILDLY_AGGRESSIVE}
    standing = attack_preview(b, "a", None, "z", "neutral")
    assert not standing.reachable
    assert all(c.hit is None for c in standing.stances)
    with pytest.raises(IllegalAction, match="out of reach"):
        b.apply(act.Declare("a", "neutral", ("z",)))
    out = b.apply(act.Declare("a", "mildly_aggressive", ("z",), advance=(east(CENTRE),)))
    assert any(isinstance(e, ev.Declared) and e.targets == ("z",) for e in out)


def mover_in_a_zone() -> Battle:
    """FTC 5.3: a red brigand in the zone of control of a blue guard that faces it (east), moving first."""
    b = start(axial([("s", "blue", "guard", CENTRE, 0), ("m", "red", "brigand", east(CENTRE), 0)]), s=DOWN, m=UP)
    d = legal_actions(b)
    assert d is not None and d.figure == "m"
    return b


ESCAPE_TO = east(CENTRE, 3)


@pytest.mark.parametrize("override", [gm.GrantEscape("m"), gm.DenyEscape("m")], ids=["granted", "denied"])
def test_ftc_5_3_the_gms_escape_override_is_in_the_escape_odds(override: gm.GMAction) -> None:
    """FTC 5.3 overridden by the GM: "Grant escape" makes the escape certain in the odds, "Deny escape"
    impossible — as the move then goes."""
    b = mover_in_a_zone()
    reach = b.reach_for("m")
    before = escape_chance(b, "m", reach, ESCAPE_TO)
    assert 0 < before < 1
    b.apply(override)
    granted = isinstance(override, gm.GrantEscape)
    assert escape_chance(b, "m", b.reach_for("m"), ESCAPE_TO) == (1 if granted else 0)
    out = b.apply(act.Move("m", reach.path(ESCAPE_TO).steps))
    decided = next(e for e in out if isinstance(e, ev.EscapeOverridden))
    assert decided.escaped is granted


@pytest.mark.parametrize("faces", [UP, DOWN], ids=["mover high", "mover low"])
def test_ftc_5_3_escape_dice_set_by_hand_make_the_odds_certain(faces: tuple[int, int, int, int]) -> None:
    b = mover_in_a_zone()
    dice(b, m=("escape", faces), s=("escape", EVEN))
    reach = b.reach_for("m")
    p = escape_chance(b, "m", reach, ESCAPE_TO)
    assert p in (0, 1)
    assert escape_chance(b, "m", reach, ESCAPE_TO, gm_hand=False) not in (0, 1)  # a player's seat never counts them
    out = b.apply(act.Move("m", reach.path(ESCAPE_TO).steps))
    contest = next(e for e in out if isinstance(e, ev.EscapeContest))
    assert contest.escaped is (p == 1)


def test_fudge_4_1_the_odds_of_a_players_seat_do_not_count_the_gms_hand() -> None:
    """*Fudge* 4.1: the faces the GM set by hand are behind the GM's screen: the odds shown to a player's seat
    neither count them nor mention them."""
    b = shot_scene(dodges=True)
    dice(b, a=("combat", EVEN), t=("combat", UP))
    seen = attack_preview(b, "a", "Shortbow", "t", gm_hand=False)
    assert 0 < seen.hit < 1
    assert not any("GM" in a for a in seen.assumptions)
    assert attack_preview(b, "a", "Shortbow", "t").hit == 0


@pytest.mark.parametrize(
    "secret",
    [act.Declare("z", "very_defensive", retreat=east(CENTRE, 2)), act.Declare("z", "very_aggressive", ("a",))],
    ids=["defends", "attacks"],
)
def test_fudge_4_32_under_secret_stances_the_odds_leak_no_declaration(secret: act.Declare) -> None:
    """*Fudge* 4.32: under secret stances the red brigand's declaration is hidden until the reveal. Whether he
    retreats or attacks all out, the blue brigand's odds are the same — his stance taken as neutral and named
    as an assumption, his attack counted as a threat because he stands in reach — so they tell nothing."""
    setup = axial(
        [("a", "blue", "brigand", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)],
        options=RuleOptions(secret_stances=True),
    )
    b = start(setup, a=UP, z=DOWN)
    to_declaration(b, "a", {"z": secret})
    pv = attack_preview(b, "a", None, "z")
    assert any("stance is not known yet" in a for a in pv.assumptions)
    assert all(c.risk is not None for c in pv.stances)
    open_ = start(setup, a=UP, z=DOWN)
    to_declaration(open_, "a", {"z": act.Declare("z", "neutral", ("a",))})
    assert pv.stances == attack_preview(open_, "a", None, "z").stances
    assert pv.hit == attack_preview(open_, "a", None, "z").hit
