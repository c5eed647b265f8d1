"""The move preview prices passing through another figure's hex (FTC 5.2): one more hex, a friend's or an
enemy's, said in words on the move panel."""

from __future__ import annotations

from game.engine.battle import legal_actions
from game.ui.battle.moves import move_cost_line
from game.ui.battle.sheet import wounds_line
from tests.engine.test_rules_as_written import UP, start
from tests.engine.test_rules_hit_location import _aimed_blow
from tests.golden.scenarios import CENTRE, axial, east
from tests.helpers import do_little


def test_ftc_5_2_the_move_preview_shows_the_extra_hex_for_passing_through_an_enemy() -> None:
    b = start(
        axial([("a", "blue", "brigand", CENTRE, 0), ("c", "red", "brigand", east(CENTRE), 1)], orders={"c": "never"}),
        a=UP,
    )
    while True:
        d = legal_actions(b)
        assert d is not None
        if d.reason == "move" and d.figure == "a":
            break
        b.apply(do_little(d))
    reach = b.reach_for("a")
    path = reach.path(east(CENTRE, 2))
    assert path is not None and path.occupied_extra == 1
    line = move_cost_line(path, reach.allowance)
    assert "passing through 1 figure +1" in line and line.startswith(f"cost {path.cost} of {reach.allowance}")


def test_ftc_6_6_the_sheet_names_the_crippled_limbs() -> None:
    b, _ = _aimed_blow("arm")
    z = b.figures["z"]
    assert wounds_line(z) == f"Wounds: {z.wounds.label} · crippled: arm"
    assert "crippled" not in wounds_line(b.figures["a"])
