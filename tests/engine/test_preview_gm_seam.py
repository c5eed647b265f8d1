"""Every GM override reaches every preview (*Fudge* 4.1, the GM's seat; docs/architecture.md "One source of
legality"): the GM's situational modifiers on a figure or a side, bad light and insecure footing (FTC table 7)
and dice set by hand change the attack odds, the stances compared, the escape odds and a casting's odds exactly
as they change the roll the battle then makes. Each case applies one override, checks that the preview moved,
sets the remaining dice through the GM's seat and compares the preview with what the battle resolves."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle
from game.engine.preview import attack_preview, escape_chance, spell_preview
from tests.engine.test_preview_truth import ESCAPE_TO, mover_in_a_zone, resolved, shot_scene, to_declaration
from tests.engine.test_rules_as_written import DOWN, EVEN, UP, start
from tests.golden.scenarios import CENTRE, axial, east

Override = Callable[[], gm.GMAction]


def _unset(b: Battle, purpose: str, *fids: str) -> None:
    """Set a roll of 0 for each figure that has no roll of ``purpose`` set yet (so the outcome is known)."""
    for fid in fids:
        if not any(d.figure == fid and d.purpose == purpose for d in b.gm_dice):
            b.apply(gm.SetDie(fid, purpose, EVEN))


SHOT_OVERRIDES = {
    "modifier on the firer": (lambda: gm.SituationalModifier("g", "a", 2, "steady aim"), "offence", 2),
    "modifier on the target's side": (lambda: gm.SituationalModifier("g", "red", -2, "tired"), "defence", -2),
    "bad light": (lambda: gm.BattleCondition("g", "bad_light", -2), "offence", -2),
    "insecure footing": (lambda: gm.BattleCondition("g", "insecure_footing", -1), "offence", -1),
    "a die set by hand": (lambda: gm.SetDie("a", "combat", UP), "hit", 1),
}


@pytest.mark.parametrize("name", list(SHOT_OVERRIDES))
def test_fudge_4_1_each_gm_override_reaches_the_attack_odds(name: str) -> None:
    """A shot at a brigand who declared a dodge of it: the override moves the odds' offence, dodge or certainty
    as it then moves the resolved shot."""
    make, field, change = SHOT_OVERRIDES[name]
    b = shot_scene(dodges=True)
    before = attack_preview(b, "a", "Shortbow", "t")
    b.apply(make())
    after = attack_preview(b, "a", "Shortbow", "t")
    if field == "hit":
        assert after.hit > before.hit
        assert any("set A's roll by hand to +4" in a for a in after.assumptions)
    else:
        assert getattr(after, field) - getattr(before, field) == change
    _unset(b, "combat", "a", "t")
    certain = attack_preview(b, "a", "Shortbow", "t")
    t_roll = next(sum(d.faces) for d in b.gm_dice if d.figure == "t")
    shot = resolved(b.apply(act.Declare("a", "neutral", ("t",), "Shortbow")), "a")
    assert shot.offence - shot.roll == certain.offence
    assert certain.defence is not None and shot.defence == certain.defence + t_roll
    assert shot.hit is (certain.hit == 1)


def _engaged() -> Battle:
    """Two brigands face to face; the red one has declared a neutral attack on the blue one, who declares next."""
    b = start(axial([("a", "blue", "brigand", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)]), a=UP, z=DOWN)
    to_declaration(b, "a", {"z": act.Declare("z", "neutral", ("a",))})
    return b


STANCE_OVERRIDES = {
    "modifier on the figure choosing": (lambda: gm.SituationalModifier("g", "a", 2, "hill"), "hit"),
    "modifier on its attacker": (lambda: gm.SituationalModifier("g", "z", 2, "fury"), "risk"),
    "modifier on the attacker's side": (lambda: gm.SituationalModifier("g", "red", -1, "mud"), "risk"),
    "its die set by hand": (lambda: gm.SetDie("a", "combat", UP), "hit"),
    "the attacker's die set by hand": (lambda: gm.SetDie("z", "combat", UP), "risk"),
}


@pytest.mark.parametrize("name", list(STANCE_OVERRIDES))
def test_fudge_4_1_each_gm_override_reaches_the_stances_compared(name: str) -> None:
    """Table 4 side by side: the override moves every stance's own chance to hit, or the chance that the enemy
    attacking in melee hits back; with every die set the neutral column is what the round resolves, both ways."""
    make, field = STANCE_OVERRIDES[name]
    b = _engaged()
    before = attack_preview(b, "a", None, "z").stances
    b.apply(make())
    after = attack_preview(b, "a", None, "z").stances
    assert all(getattr(x, field) != getattr(y, field) for x, y in zip(before, after, strict=True))
    _unset(b, "combat", "a", "z")
    neutral = next(c for c in attack_preview(b, "a", None, "z").stances if c.stance.value == "neutral")
    out = b.apply(act.Declare("a", "neutral", ("z",)))
    assert resolved(out, "a").hit is (neutral.hit == 1)
    assert resolved(out, "z").hit is (neutral.risk == 1)


ESCAPE_OVERRIDES = {
    "modifier on the mover": (lambda: gm.SituationalModifier("g", "m", 2, "slippery"), 1),
    "modifier on the stopper's side": (lambda: gm.SituationalModifier("g", "blue", 2, "alert"), -1),
    "the mover's die set by hand": (lambda: gm.SetDie("m", "escape", UP), 1),
    "the stopper's die set by hand": (lambda: gm.SetDie("s", "escape", UP), -1),
}


@pytest.mark.parametrize("name", list(ESCAPE_OVERRIDES))
def test_fudge_4_1_each_gm_override_reaches_the_escape_odds(name: str) -> None:
    """FTC 5.3: the override raises or lowers the chance of escaping as it raises or lowers the contest; with
    every die set the odds are certain and the contest goes their way (the GM's escape decision itself:
    ``test_ftc_5_3_the_gms_escape_override_is_in_the_escape_odds``)."""
    make, direction = ESCAPE_OVERRIDES[name]
    b = mover_in_a_zone()
    before = escape_chance(b, "m", b.reach_for("m"), ESCAPE_TO)
    b.apply(make())
    after = escape_chance(b, "m", b.reach_for("m"), ESCAPE_TO)
    assert (after - before) * direction > 0
    _unset(b, "escape", "m", "s")
    reach = b.reach_for("m")
    certain = escape_chance(b, "m", reach, ESCAPE_TO)
    contest = next(e for e in b.apply(act.Move("m", reach.path(ESCAPE_TO).steps)) if isinstance(e, ev.EscapeContest))
    assert contest.escaped is (certain == 1)


def _casting() -> Battle:
    """A blue wizard, last to declare, and a red brigand 4 hexes east who declared a dodge of him."""
    b = start(axial([("w", "blue", "wizard", CENTRE, 0), ("t", "red", "brigand", east(CENTRE, 4), 3)]), w=UP, t=DOWN)
    to_declaration(b, "w", {"t": act.Declare("t", "neutral", dodge=("w",))})
    return b


SPELL_OVERRIDES = {
    "modifier on the caster": (lambda: gm.SituationalModifier("g", "w", 2, "focus"), "result", 2),
    "modifier on the caster's side": (lambda: gm.SituationalModifier("g", "blue", -1, "cold"), "result", -1),
    "bad light": (lambda: gm.BattleCondition("g", "bad_light", -3), "result", -3),
    "insecure footing": (lambda: gm.BattleCondition("g", "insecure_footing", -2), "result", -2),
    "modifier on the target": (lambda: gm.SituationalModifier("g", "t", 3, "stubborn"), "dodged", -1),
    "the caster's die set by hand": (lambda: gm.SetDie("w", "combat", DOWN), "cast", -1),
    "the target's resistance set by hand": (lambda: gm.SetDie("t", "resistance", DOWN), "dodged", 1),
}


@pytest.mark.parametrize("name", list(SPELL_OVERRIDES))
def test_fudge_4_1_each_gm_override_reaches_the_casting_odds(name: str) -> None:
    """FTC 8.1, 8.3: Slow cast at a brigand who dodges it and resists with Will: the override moves the casting
    result (or the chance to cast, or to get past the dodge and the resistance) as it moves the casting the
    battle resolves."""
    make, field, change = SPELL_OVERRIDES[name]
    b = _casting()
    before = spell_preview(b, "w", "Slow", "t")
    b.apply(make())
    after = spell_preview(b, "w", "Slow", "t")
    assert after.dodging is True
    moved = getattr(after, field) - getattr(before, field)
    assert moved == change if field == "result" else moved * change > 0
    _unset(b, "combat", "w", "t")
    _unset(b, "resistance", "t")
    certain = spell_preview(b, "w", "Slow", "t")
    assert certain.cast in (0, 1) and certain.dodged in (0, 1)
    out = b.apply(act.Declare("w", spell="Slow", spell_target="t"))
    cast = next(e for e in out if isinstance(e, ev.SpellCast))
    assert cast.modifiers == tuple((m.name, m.value) for m in certain.modifiers)
    assert cast.result == certain.result + sum(cast.faces)
    assert cast.success is (certain.cast == 1)
    took = cast.landed and not any(isinstance(e, ev.SpellResisted) and e.resisted for e in out)
    assert took is (certain.dodged == 1)
