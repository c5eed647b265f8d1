"""The hotseat hand-off: the curtain comes only when the next seat may see what the last may not (the
default), at every change of seat, or never (the player's setting); an extra Enter never makes a mover stay.

Driven through the real window loop with posted key events (SDL's dummy driver)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

from game.engine import gm
from game.engine.battle import RuleOptions, Seat
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.screens import SettingsScreen
from game.ui.settings import load_settings
from tests.ui.conftest import key
from tests.ui.test_battle_screen import all_human, open_battle
from tests.ui.test_gm_panel import gm_battle


def hand_off(app: App, policy: str) -> None:
    app.ui.settings = replace(app.ui.settings, hand_off=policy)


def play(app: App, screen: BattleScreen, decisions: int) -> tuple[int, set[str]]:
    """Take ``decisions`` decisions as the players would (Space stays, P passes, Enter declares), lifting any
    curtain with Enter; returns how many curtains came up and the sides that decided."""
    curtains, sides = 0, set()
    for _ in range(decisions):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            curtains += 1
            key(app, pygame.K_RETURN)
            app.tick(0.0)
        assert app.top is screen
        d = screen.decision()
        assert d is not None
        sides.add(d.side)
        assert screen.seat == Seat.of_side(d.side), "the screen plays from the deciding side's seat"
        before = len(screen.battle.log)
        key(app, {"interrupt": pygame.K_p, "declare": pygame.K_RETURN}.get(d.reason, pygame.K_SPACE))
        assert len(screen.battle.log) == before + 1
    return curtains, sides


def test_hotseat_without_secrets_hands_the_screen_on_without_a_curtain(app: App) -> None:
    """Open stances, no GM: nothing one player may see is hidden from the other, so no curtain — through the
    movement phase and the declarations alike."""
    screen = open_battle(app, controllers=all_human())
    curtains, sides = 0, set()
    while screen.battle.phase == "movement":
        c, s = play(app, screen, 1)
        curtains, sides = curtains + c, sides | s
    c, s = play(app, screen, 4)
    assert len(sides) == 2 and curtains + c == 0


def test_fudge_4_32_secret_stances_curtain_each_secret_declaration_but_not_the_moves(app: App) -> None:
    """Under secret stances the movement phase is played in the open (no curtain); from the first declaration
    every change of seat goes behind the curtain."""
    screen = open_battle(app, controllers=all_human(), options=RuleOptions(secret_stances=True))
    moves = 0
    while screen.battle.phase == "movement":
        curtains, _ = play(app, screen, 1)
        assert curtains == 0, "a move shows no secret"
        moves += 1
    assert moves >= 2
    seen, changes, last = 0, 0, screen.seat
    while screen.battle.phase == "attack" and (d := screen.decision()) is not None and d.reason == "declare":
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            seen += 1
            key(app, pygame.K_RETURN)
        changes += screen.seat != last
        last = screen.seat
        key(app, pygame.K_RETURN)
    assert changes >= 1 and seen == changes


def test_hand_off_setting_always_and_never(app: App) -> None:
    """The setting at "always": a curtain at every change of side; at "never": none, even under secret stances."""
    hand_off(app, "always")
    screen = open_battle(app, controllers=all_human())
    curtains, sides = play(app, screen, 6)
    assert len(sides) == 2 and curtains >= 2
    app.apply(app.to_title())
    hand_off(app, "never")
    screen = open_battle(app, controllers=all_human(), options=RuleOptions(secret_stances=True))
    while screen.battle.phase == "movement":
        play(app, screen, 1)
    curtains, sides = play(app, screen, 4)
    assert curtains == 0 and len(sides) == 2


def test_a_held_enemy_adds_no_curtain_and_an_extra_enter_never_makes_the_mover_stay(app: App) -> None:
    """An enemy holds; before each of the other side's moves its player is asked whether to interrupt. With
    nothing secret that asks behind no curtain, and Enter twice (pass, then one too many) leaves the next
    mover where it stands, its move still to make."""
    screen = open_battle(app, controllers=all_human())
    app.tick(0.0)
    d = screen.decision()
    assert d is not None and d.reason == "move"
    holder_side = d.side
    key(app, pygame.K_h)
    for _ in range(20):
        app.tick(0.0)
        assert app.top is screen, "no curtain before the interrupt question"
        d = screen.decision()
        assert d is not None
        if d.reason == "interrupt":
            break
        key(app, pygame.K_SPACE)
    else:
        raise AssertionError("the held figure's side was never asked")
    assert d.side == holder_side and screen.seat == Seat.of_side(holder_side)
    key(app, pygame.K_RETURN)  # pass
    app.tick(0.0)
    assert app.top is screen
    d = screen.decision()
    assert d is not None and d.reason == "move" and d.side != holder_side and d.figure is not None
    log = len(screen.battle.log)
    key(app, pygame.K_RETURN)  # one Enter too many
    app.tick(0.0)
    assert len(screen.battle.log) == log and not screen.battle.figure(d.figure).moved
    assert "Space" in screen.status
    key(app, pygame.K_SPACE)  # asked: it stays
    assert screen.battle.figure(d.figure).moved
    assert "Enter" not in screen.status, "the hint goes with the decision it answered"


def test_fudge_4_1_the_gms_hand_curtains_the_hand_off_to_the_gms_side(app: App) -> None:
    """The GM plays blue. Before the GM sets a die, blue and red hand the screen on without a curtain; once a
    die is set by hand, the GM's seat shows the GM's hand, so passing the screen to blue needs the curtain
    (and passing it from blue to red, who sees less, does not)."""
    screen = gm_battle(app, "blue")
    curtains, sides = play(app, screen, 6)
    assert curtains == 0 and sides == {"blue", "red"}
    red = next(f.id for f in screen.battle.figures.values() if f.side == "red")
    assert screen.send(gm.SetDie(red, "combat", (1, 1, 0, 0)), Seat.of_side("blue"))
    into_blue = into_red = 0
    for _ in range(12):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            d = screen.decision()
            assert d is not None and d.side == "blue"
            into_blue += 1
            key(app, pygame.K_RETURN)
            continue
        d = screen.decision()
        assert d is not None
        into_red += d.side == "red"
        key(app, {"interrupt": pygame.K_p, "declare": pygame.K_RETURN}.get(d.reason, pygame.K_SPACE))
    assert into_blue >= 1 and into_red >= 1


def test_the_hand_off_setting_is_a_row_of_settings_and_is_kept(app: App, tmp_path: Path) -> None:
    """Settings: "Hotseat curtain" steps always / for secrets / never with the arrows and is written."""
    assert app.ui.settings.hand_off == "secrets"
    key(app, pygame.K_s)
    screen = app.top
    assert isinstance(screen, SettingsScreen)
    row = screen.ROWS.index("hand_off")
    for _ in range(row):
        key(app, pygame.K_DOWN)
    assert screen.value_text("hand_off") == "for secrets"
    key(app, pygame.K_RIGHT)
    assert app.ui.settings.hand_off == "never" and screen.value_text("hand_off") == "never"
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)
    assert app.ui.settings.hand_off == "always"
    assert load_settings(tmp_path / "config").hand_off == "always"
