"""The damage options in New battle (docs/playing.md "New battle", docs/rulings.md "Rule options"): the Damage and
Scale groups show each with its one-line help and section, greyed while the option it needs is off, and the
battle started from New battle plays the values clicked — all driven by posted events."""

from __future__ import annotations

import pygame

from game.engine import rule_options as ro
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.screens import NewBattleScreen
from tests.ui.conftest import click, key


def _row_hint(nb: NewBattleScreen, name: str) -> str:
    return nb.rules.hint(next(r for r in nb.rules.rows if r.option is not None and r.option.name == name))


def _header(nb: NewBattleScreen, group: str) -> pygame.Rect:
    return next(r.rect for r in nb.rules.rows if r.option is None and r.group == group)


def test_the_damage_and_scale_options_are_switched_in_new_battle_and_played_by_the_battle(app: App) -> None:
    key(app, pygame.K_n)
    nb = app.top
    assert isinstance(nb, NewBattleScreen)
    app.draw()
    click(app, _header(nb, "Damage").center)
    app.draw()
    assert "A die roll on each blow's damage (or Min-Mid-Max's 3d6 wounds) (Fudge 4.61, 4.63)." in _row_hint(
        nb, "damage_roll"
    )
    assert "Greyed: needs a Damage roll other than Min-Mid-Max" in _row_hint(nb, "graze_damage_roll")
    click(app, nb.option_rects["damage_roll"].center)  # off -> one Fudge die on the number
    assert nb.options.damage_roll == "one_die"
    assert "Now one die: one Fudge die (-1..+1) added to the damage number." in _row_hint(nb, "damage_roll")
    assert "Greyed" not in _row_hint(nb, "graze_damage_roll")  # its damage roll is on: it counts now
    click(app, nb.option_rects["graze_damage_roll"].center)
    click(app, nb.option_rects["wound_situational_roll"].center)  # off -> worse
    assert "Greyed: needs the Damage roll Min-Mid-Max" in _row_hint(nb, "min_mid_max_low_penalty")
    click(app, _header(nb, "Damage").center)  # closed, so the Scale group's rows come into view
    click(app, _header(nb, "Scale").center)
    app.draw()
    assert "(Fudge 4.65)." in _row_hint(nb, "tech_level_scale")
    click(app, nb.option_rects["critical_penetration"].center)  # an int: a click on the row steps up
    click(app, nb.option_rects["scale_damage_roll"].center)
    click(app, nb.option_rects["tech_level_scale"].center)
    click(app, nb.option_rects["tech_level_scale"].center)
    chosen = ro.RuleOptions(
        damage_roll="one_die",
        graze_damage_roll=True,
        wound_situational_roll="worse",
        critical_penetration=1,
        scale_damage_roll=True,
        tech_level_scale=2,
    )
    assert nb.options == chosen and nb.rules.changed_in("Scale") == 3
    click(app, nb.start.rect.center)
    key(app, pygame.K_RETURN)  # the deployment screen's start
    assert isinstance(app.top, BattleScreen)
    battle = app.top.battle
    assert battle.options == chosen
    assert {"damage_die", "wound_situational"} <= set(battle.settable_rolls())  # the GM's Next die offers them
