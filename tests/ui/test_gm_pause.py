"""The GM's pause (*Fudge* 4.1: the GM referees): the GM's panel switches "Stop before each round" and "before
each computer decision" make the battle stand still there until Go on, so the GM can act while the engine
allows it; the panel opens on the figure whose turn it is.

Driven through the real window loop with posted events (SDL's dummy driver)."""

from __future__ import annotations

from dataclasses import replace

import pygame

from game.engine import actions as act
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.gm_panel import GMPanel
from game.ui.settings import load_settings
from tests.ui.conftest import click, key
from tests.ui.test_battle_screen import all_human
from tests.ui.test_gm_panel import button, gm_battle


def versus_computer(app: App, gm: str | None = "referee") -> BattleScreen:
    """Blue played at the screen, red by the computer, a GM who plays no side (or none)."""
    sides = list(all_human())
    return gm_battle(app, gm, {sides[0]: "human", sides[1]: "tactical"})


def open_panel(app: App) -> GMPanel:
    """G, and the curtain to the GM lifted: the GM's panel."""
    key(app, pygame.K_g)
    if isinstance(app.top, CurtainScreen):
        key(app, pygame.K_RETURN)
    panel = app.top
    assert isinstance(panel, GMPanel)
    return panel


def stands_still(app: App, screen: BattleScreen, seconds: int = 5) -> bool:
    """Whether nothing is decided while time passes (a computer would move within a second)."""
    log = len(screen.battle.log)
    for _ in range(seconds):
        app.pump(1.0)
    return len(screen.battle.log) == log and screen.gm_pause.paused and not screen.busy


def test_fudge_4_1_stop_before_each_round_lets_the_gm_edit_wounds_before_a_computer_moves(app: App) -> None:
    """Switched on from the GM's panel (and kept in the settings), the battle stands still at the start of the
    next round, before any computer figure moves: the Wounds row is open, a tick lands in the log, and Enter
    lets the round begin."""
    screen = versus_computer(app)
    panel = open_panel(app)
    click(app, button(panel, "Before each round").rect.center)
    assert app.ui.settings.gm_stop_rounds and button(panel, "Before each round").focused
    assert load_settings(app.ui.config_dir).gm_stop_rounds
    key(app, pygame.K_ESCAPE)
    assert stands_still(app, screen), "round 1 had not begun: the battle waits for the GM"
    assert screen.battle.round == 1 and screen.battle.gm_between_rounds()
    key(app, pygame.K_RETURN)  # go on
    for _ in range(400):  # play on to round 2: the player stays, the computer moves
        app.pump(1.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
        if screen.battle.round == 2 and screen.gm_pause.paused:
            break
        if (mine := screen.my_decision()) is not None:
            key(app, pygame.K_RETURN if mine.reason == "declare" else pygame.K_SPACE)
    assert screen.battle.round == 2 and stands_still(app, screen)
    assert "round 2 begins" in screen.gm_pause.words()
    panel = open_panel(app)
    assert button(panel, "Tick Scratch").enabled and button(panel, "Gear").enabled
    fid = panel.figure
    click(app, button(panel, "Tick Scratch").rect.center)
    assert screen.battle.log[-1].kind == "gm_edit_wounds" and screen.battle.figure(fid).wounds.filled(1) >= 1
    key(app, pygame.K_ESCAPE)
    assert app.top is screen and screen.gm_pause.paused, "the GM's decision does not start the round"
    go_on = next(b for b in screen.buttons if b.text.startswith("Go on"))
    click(app, go_on.rect.center)
    assert not screen.gm_pause.paused
    for _ in range(10):
        app.pump(1.0)
        if screen.my_decision() is not None:
            key(app, pygame.K_SPACE)
        if not screen.battle.gm_between_rounds():
            break
    assert not screen.battle.gm_between_rounds(), "after Go on the round is played"


def test_stop_before_each_computer_decision_takes_one_decision_per_go_on(app: App) -> None:
    """Each computer decision waits for Enter: one decision per press, never two."""
    app.ui.settings = replace(app.ui.settings, gm_stop_computer=True)
    screen = versus_computer(app)
    red = list(screen.battle.sides)[1]
    taken = 0
    for _ in range(200):
        app.pump(1.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
        d = screen.decision()
        assert d is not None
        if d.side == red:
            assert stands_still(app, screen, 3)
            assert "computer" in screen.gm_pause.words()
            log = len(screen.battle.log)
            key(app, pygame.K_RETURN)
            for _ in range(3):
                app.pump(1.0)
                if len(screen.battle.log) > log:
                    break
            assert len(screen.battle.log) == log + 1
            taken += 1
            if taken == 3:
                return
        elif screen.my_decision() is not None:
            key(app, pygame.K_RETURN if d.reason == "declare" else pygame.K_SPACE)
    raise AssertionError("the computer did not come to decide three times")


def test_no_gm_seat_no_pause(app: App) -> None:
    """The switches mean nothing in a battle without a GM: the computer plays on."""
    app.ui.settings = replace(app.ui.settings, gm_stop_rounds=True, gm_stop_computer=True)
    screen = versus_computer(app, gm=None)
    assert not screen.gm_pause.paused
    log = len(screen.battle.log)
    for _ in range(20):
        app.pump(1.0)
        if screen.my_decision() is not None or len(screen.battle.log) > log:
            break
    assert len(screen.battle.log) > log or screen.my_decision() is not None


def test_the_gm_panel_opens_on_the_figure_whose_turn_it_is(app: App) -> None:
    """Not on the figure the GM looked at last time: on the one whose turn it is — unless a figure was just
    picked on the board, which the GM then means."""
    screen = gm_battle(app, "referee")
    panel = open_panel(app)
    d = screen.decision()
    assert d is not None and d.figure is not None
    assert panel.figure == d.figure
    click(app, button(panel, "▶").rect.center)
    assert panel.figure != d.figure
    key(app, pygame.K_ESCAPE)
    assert screen.send(act.Move(d.figure, ()))
    d2 = screen.decision()
    assert d2 is not None and d2.figure is not None and d2.figure != d.figure
    app.tick(0.0)
    if isinstance(app.top, CurtainScreen):
        key(app, pygame.K_RETURN)
    panel = open_panel(app)
    assert panel.figure == d2.figure
    key(app, pygame.K_ESCAPE)
    view = pygame.Rect(screen.board.camera.view)
    spots = {f.id: screen.board.camera.hex_to_screen(f.hex) for f in screen.battle.figures.values()}
    other = next(
        fid
        for fid, (x, y) in spots.items()
        if fid not in (d2.figure, screen.selection.figure)
        and view.collidepoint(x, y)
        and not screen.over_panel((round(x), round(y)))
    )
    click(app, (round(spots[other][0]), round(spots[other][1])))
    assert screen.selection.figure == other
    panel = open_panel(app)
    assert panel.figure == other
