"""The aim chooser of the declaration panel (FTC 6.6): L and the Aim button go through best, torso, head, arm,
leg, hand and foot; the declaration sent carries the aim and the odds shown follow it."""

from __future__ import annotations

import pygame

from game.ui.app import App
from tests.ui.conftest import key
from tests.ui.test_battle_screen import all_human, open_battle
from tests.ui.test_battle_words import _first_declaration


def test_ftc_6_6_the_aim_chooser_offers_arms_and_legs(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    _first_declaration(app, screen)
    fig = screen.battle.figure(screen.model.decl.figure)
    enemy = next(f for f in screen.battle.figures.values() if f.side != fig.side and not f.out)
    screen.model.decl.target = enemy.id  # the chooser reads the target chosen (T or a click) whatever its reach
    assert screen.model.decl.aim == "best"
    assert screen.declaration.aims()[:5] == ("best", "torso", "head", "arm", "leg")
    for _ in range(3):
        key(app, pygame.K_l)
    assert screen.model.decl.aim == "arm"
    assert screen.model.attack_action().aim == "arm"
    labels = [b.text for b in screen.declaration.buttons(pygame.Rect(0, 400, 900, 232))]
    assert "Aim: arm" in labels
    for _ in range(4):
        key(app, pygame.K_l)  # leg, hand, foot, then back to best
    assert screen.model.decl.aim == "best"
