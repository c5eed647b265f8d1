"""The casting odds shown before declaring are those the casting is resolved with (docs/architecture.md "One source of
legality"; FTC 8.1 table 7 for every casting, 1-second ones included)."""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.ui.preview import spell_preview
from tests.engine.test_magic_resolution import _guard_first


def test_ftc_8_1_one_second_casting_odds_count_a_declared_melee_attack_like_the_resolution() -> None:
    b = _guard_first()
    before = spell_preview(b, "w", "Dazzle", "k")
    assert ("Defending against attacks", -1) not in [(m.name, m.value) for m in before.modifiers]
    b.apply(act.Declare("k", "neutral", ("w",)))
    pv = spell_preview(b, "w", "Dazzle", "k")
    assert ("Defending against attacks", -1) in [(m.name, m.value) for m in pv.modifiers]
    assert pv.result == before.result - 1
    assert not any("−1 for a firer who defends" in a for a in pv.assumptions)
    out = b.apply(act.Declare("w", spell="Dazzle", spell_target="k"))
    cast = next(e for e in out if isinstance(e, ev.SpellCast))
    assert isinstance(cast, ev.SpellCast)
    assert cast.modifiers == tuple((m.name, m.value) for m in pv.modifiers)
    assert cast.result == pv.result + sum(cast.faces)
