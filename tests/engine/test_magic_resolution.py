"""How spells resolve against the rest of the round (FTC 8.1, 8.2, 8.3 with 6.5.3 and 7.3): 1-second spells
before the round's attacks, their strays and the dodges of bystanders, table 7 for every casting, the
greathelm in recognition, grazes by spells and Scale, and secret stances kept secret."""

from __future__ import annotations

from collections.abc import Callable

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import Battle, BattleSetup, FigureSetup
from game.engine.terrain import TerrainMap
from tests.engine.test_magic_battle import first_seed, play_round
from tests.golden.scenarios import CENTRE, SIDES, character, east

# ------------------------------------------------------------------------------------------ 7.3 grazes


def _big_wizard_and_brigand(scale: int) -> Callable[[int], Battle]:
    def make(seed: int) -> Battle:
        return Battle(BattleSetup(TerrainMap.open(12, 10), SIDES, (
            FigureSetup("w", "W", "blue", character("wizard", scale=scale), CENTRE, 0),
            FigureSetup("b", "B", "red", character("brigand"), east(CENTRE, 2), 3)), seed=seed))
    return make


def _lightning(b: Battle, fid: str) -> act.Action:
    return act.Declare("w", spell="Lightning", spell_target="b") if fid == "w" else act.Declare(fid)


def _grazed(b: Battle) -> bool:
    play_round(b, _lightning)
    return any(isinstance(e, ev.AttackResolved) and e.attacker == "w" and e.relative_degree == 1 and e.hit
               and e.damage is not None and e.damage >= 3 for e in b.events)


def test_ftc_7_3_a_spell_graze_is_a_scratch_whatever_the_casters_strength_scale() -> None:
    # Fudge 4.58: Strength Scale counts only for muscle-powered weapons, so a Scale 3 wizard's lightning
    # grazes a man like anybody's: at most a Scratch (FTC 7.3), though its damage number reads Hurt.
    b = first_seed(_big_wizard_and_brigand(3), _grazed)
    graze = next(e for e in b.events if isinstance(e, ev.AttackResolved) and e.attacker == "w" and e.hit)
    assert graze.relative_degree == 1 and graze.damage >= 3  # type: ignore[operator]
    assert "Strength Scale" not in dict(graze.offensive_factors)
    assert graze.wound == "Scratch"
