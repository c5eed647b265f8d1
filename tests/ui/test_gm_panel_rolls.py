"""The GM panel's "Next die" under the rule options (*Fudge* 4.1: the GM may set any roll by hand): the purpose
button cycles every roll the battle makes — FTC's own, then each rule option's roll while its option is on —
with that roll's own dice (one Fudge die, four, 3d6 read 1 to 6, the group roll's two or four), driven by posted
pygame events (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

from dataclasses import replace

import pygame

from game.engine import gm
from game.engine.battle import Battle
from game.engine.rule_options import RuleOptions
from game.session import build_setup
from game.ui.app import App
from game.ui.battle_screen import CurtainScreen
from game.ui.gm_panel import GMPanel
from game.ui.widgets import Button
from tests.ui.conftest import click, key
from tests.ui.test_gm_panel import gm_battle

FTC_ROLLS = ("combat", "initiative", "escape", "health", "situational", "will", "resistance")


def _panel(app: App, options: RuleOptions) -> GMPanel:
    """A refereed hotseat battle on the open field under ``options``, the GM's panel open."""
    screen = gm_battle(app, "referee")
    session = screen.session
    session.battle = Battle(replace(build_setup(session.setup_data, session.loaded), options=options))
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
    key(app, pygame.K_g)
    key(app, pygame.K_RETURN)
    panel = app.top
    assert isinstance(panel, GMPanel)
    return panel


def _purpose(panel: GMPanel) -> Button:
    return next(b for b in panel.buttons if b.text.replace(" ", "_") == panel.purpose)


def _faces(panel: GMPanel) -> list[Button]:
    """The die buttons of the Next die row (right of the purpose button, up to Set die)."""
    i = panel.buttons.index(_purpose(panel))
    j = next(k for k, b in enumerate(panel.buttons) if b.text == "Set die")
    return panel.buttons[i + 1 : j]


def _cycle(app: App, panel: GMPanel) -> list[str]:
    """Click the purpose button until it comes back to the combat roll: the rolls in the order offered."""
    seen = [panel.purpose]
    for _ in range(30):
        click(app, _purpose(panel).rect.center)
        if panel.purpose == "combat":
            return seen
        seen.append(panel.purpose)
    raise AssertionError(f"the purpose button never came back to combat: {seen}")


def test_fudge_4_1_under_ftc_as_written_the_panel_offers_the_battles_own_rolls(app: App) -> None:
    panel = _panel(app, RuleOptions())
    assert tuple(_cycle(app, panel)) == FTC_ROLLS
    assert [b.text for b in _faces(panel)] == ["0", "0", "0", "0"]


def test_fudge_4_1_the_panel_offers_each_damage_options_roll_with_its_own_dice(app: App) -> None:
    """Min-Mid-Max's 3d6 (faces 1 to 6), the situational roll on a wound (4dF), the roll through Scale (4dF):
    offered while their options are on, each with its dice; a die set is sent through the door and accepted."""
    options = RuleOptions(damage_roll="min_mid_max", wound_situational_roll="worse", scale_damage_roll=True)
    panel = _panel(app, options)
    assert tuple(_cycle(app, panel)) == (*FTC_ROLLS, "damage", "damage_3d6", "wound_situational")
    while panel.purpose != "damage_3d6":
        click(app, _purpose(panel).rect.center)
    assert [b.text for b in _faces(panel)] == ["1", "1", "1"]
    for _ in range(7):  # 1 -> 2 ... 6 -> 1 -> 2: a six-sided die goes round its six faces
        click(app, _faces(panel)[0].rect.center)
    click(app, _faces(panel)[2].rect.center)
    assert [b.text for b in _faces(panel)] == ["2", "1", "2"]
    click(app, next(b for b in panel.buttons if b.text == "Set die").rect.center)
    assert not panel.error, panel.message
    assert panel.battle.gm_dice[-1] == gm.SetDie(panel.figure, "damage_3d6", (2, 1, 2))
    assert "damage_3d6 [2 1 2]" in panel.set_dice_note()
    assert panel.message.endswith("next damage_3d6 roll is set by hand: [2 1 2]")
    click(app, _purpose(panel).rect.center)
    assert panel.purpose == "wound_situational" and [b.text for b in _faces(panel)] == ["0", "0", "0", "0"]


def test_fudge_4_1_one_fudge_die_for_the_one_die_damage_roll(app: App) -> None:
    panel = _panel(app, RuleOptions(damage_roll="one_die"))
    assert tuple(_cycle(app, panel)) == (*FTC_ROLLS, "damage_die")
    while panel.purpose != "damage_die":
        click(app, _purpose(panel).rect.center)
    (die,) = _faces(panel)
    click(app, die.rect.center)
    assert [b.text for b in _faces(panel)] == ["+"]
    click(app, next(b for b in panel.buttons if b.text == "Set die").rect.center)
    assert panel.battle.gm_dice[-1] == gm.SetDie(panel.figure, "damage_die", (1,))


def test_fudge_4_1_every_option_roll_of_the_rulebook_is_offered_with_its_dice(app: App) -> None:
    """The cycle is built from the battle's rolls (``Battle.settable_rolls``, ``Battle.roll_dice``), so the rolls
    of the other options come for free: the NPCs' group roll (four dice under ``group_4df``), the Speed contest
    and Will against pain."""
    options = RuleOptions(npc_rolls="group_4df", speed_contest=True, willpower_vs_wounds="very_hurt")
    panel = _panel(app, options)
    assert tuple(_cycle(app, panel)) == (*FTC_ROLLS, "npc_group", "speed", "pain")
    while panel.purpose != "npc_group":
        click(app, _purpose(panel).rect.center)
    assert len(_faces(panel)) == 4
    plain = _panel(app, RuleOptions(npc_rolls="group"))
    while plain.purpose != "npc_group":
        click(app, _purpose(plain).rect.center)
    assert len(_faces(plain)) == 2
