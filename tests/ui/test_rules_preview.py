"""The odds preview follows the rules as written (FTC 6.1, 6.4.1, 8.3): a firer attacked in melee must beat
his attackers' defences too, and the preview counts them as the round's resolution does."""

from __future__ import annotations

from game.engine import actions as act
from game.engine.battle import legal_actions
from game.engine.hexgrid import Hex
from game.engine.odds import hit_probability
from game.engine.wounds import WoundLevel
from game.ui.preview import attack_preview
from tests.engine.test_rules_as_written import DOWN, UP, start
from tests.golden.scenarios import CENTRE, axial, east
from tests.helpers import do_little


def test_ftc_6_1_the_preview_of_a_shot_counts_the_firers_melee_attacker() -> None:
    b = start(
        axial(
            [
                ("a", "blue", "archer", CENTRE, 0),
                ("t", "red", "brigand", east(CENTRE, 4), 3),
                ("g", "red", "guard", Hex(CENTRE.q - 1, CENTRE.r), 0),
            ]
        ),
        a=UP,
        t=DOWN,
        g=DOWN,
    )
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "declare" and d.figure == "a":
            break
        if d.reason == "declare" and d.figure == "g":
            b.apply(act.Declare("g", targets=("a",)))
        else:
            b.apply(do_little(d))
    preview = attack_preview(b, "a", None, "t", compare=False)
    alone = hit_probability(preview.offence, (), preview.difficulty)
    assert preview.hit < alone


def test_ftc_6_6_the_preview_follows_the_aim() -> None:
    """Aimed at an arm, the odds put the blow on the arm (when the result opens it) or the torso, and show
    the arm's wound capped at Hurt."""
    b = start(axial([("a", "blue", "bruiser", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)]), a=UP, z=DOWN)
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "declare" and d.figure == "a":
            break
        b.apply(do_little(d))
    pv = attack_preview(b, "a", None, "z", compare=False, aim="arm")
    hits = [o for o in pv.distribution if o.hit]
    assert {o.location for o in hits} == {"torso", "arm"}
    assert all(o.level is None or o.level <= WoundLevel.HURT for o in hits if o.location == "arm")
    assert any(o.crippled for o in hits)
