"""The GM's panel on the battle screen, driven by posted pygame events (SDL_VIDEODRIVER=dummy).

The panel opens with G only in a battle with a GM seat, behind the hotseat curtain unless the GM sits at
the screen; every button sends one GM action through the session, so it shows up in the log.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

from game.engine import actions as act
from game.engine import gm
from game.engine.battle import Battle, Seat
from game.engine.generator import LEGACY_DICE
from game.session import build_setup, new_session
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.gm_panel import GMPanel
from game.ui.widgets import Button
from tests.ui.conftest import click, key, move, type_keys
from tests.ui.test_battle_screen import all_human

ROOT = Path(__file__).resolve().parents[2]
FIELD = ROOT / "maps" / "open_field.tmx"


def gm_battle(app: App, seat: str | None, controllers: dict[str, str] | None = None) -> BattleScreen:
    """The open field with the GM in ``seat`` (a side, "referee" or None); log animation off; the legacy dice
    its fixed seed's battles were found with (``game.engine.generator``)."""
    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)
    session = new_session(FIELD, seed=3, controllers=controllers or all_human(), dice=LEGACY_DICE)
    if seat is not None:
        session.setup_data["gm"] = seat
        session.battle = Battle(build_setup(session.setup_data, session.loaded))
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    app.pump()
    return screen


def button(panel: GMPanel, label: str) -> Button:
    """The panel's button whose text starts with ``label``."""
    return next(b for b in panel.buttons if b.text.startswith(label))


def type_text(app: App, text: str) -> None:
    """Type characters as a keyboard does (key press, typed text, key release)."""
    type_keys(app, text)


def open_as_referee(app: App) -> tuple[BattleScreen, GMPanel]:
    """A hotseat battle refereed by a GM who plays no side, the curtain lifted and the panel open."""
    screen = gm_battle(app, "referee")
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
    key(app, pygame.K_g)
    curtain = app.top
    assert isinstance(curtain, CurtainScreen) and curtain.side_name == "the GM"
    key(app, pygame.K_RETURN)
    panel = app.top
    assert isinstance(panel, GMPanel)
    return screen, panel


def test_no_gm_panel_without_a_gm_seat(app: App) -> None:
    """G in a battle without a GM seat opens nothing and says why."""
    screen = gm_battle(app, None)
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
    key(app, pygame.K_g)
    assert app.top is screen
    assert "no GM seat" in screen.status


def test_gm_curtain_names_the_gm_before_the_panel_opens(app: App) -> None:
    """In hotseat the players pass the computer to the GM first (the panel is the GM's hand). Closing hands it
    back to the player who decides, who sees less than the GM: behind a curtain only when the player's setting
    asks for one at every hand-off."""
    screen, _ = open_as_referee(app)
    key(app, pygame.K_ESCAPE)
    d = screen.decision()
    assert d is not None
    assert app.top is screen and screen.seat == Seat.of_side(d.side)
    app.ui.settings = replace(app.ui.settings, hand_off="always")
    key(app, pygame.K_g)
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, GMPanel)
    key(app, pygame.K_ESCAPE)
    curtain = app.top
    assert isinstance(curtain, CurtainScreen) and curtain.side_name == screen.battle.sides[d.side].name


def test_fudge_4_1_a_modifier_from_the_panel_reaches_the_log_and_the_token(app: App) -> None:
    """+2 with a typed reason: a GM action in the log, a badge on the token, a line in the hover box."""
    screen, panel = open_as_referee(app)
    fid = panel.figure
    click(app, button(panel, "+2").rect.center)
    type_text(app, "hill")
    click(app, button(panel, "Give").rect.center)
    mods = screen.battle.gm_modifiers_on(fid)
    assert [(m.value, m.reason, m.until) for m in mods] == [(2, "hill", "round")]
    assert any(t.startswith("GM: +2 to ") and t.endswith("— hill") for t, _, _ in screen.journal.entries)
    assert panel.message.startswith("GM: +2") and not panel.error
    token = next(t for t in screen.tokens() if t.id == fid)
    assert token.badge == "+2 hill"


def test_gm_panel_ends_the_round_and_sets_a_die(app: App) -> None:
    """Set die and End round go through the session like any decision."""
    screen, panel = open_as_referee(app)
    click(app, button(panel, "Set die").rect.center)
    assert screen.battle.gm_dice and screen.battle.gm_dice[0].faces == (0, 0, 0, 0)
    click(app, button(panel, "End round").rect.center)
    assert screen.battle.round == 2
    assert isinstance(screen.battle.log[-1], act.Action) and screen.battle.log[-1].kind == "gm_end_round"


def test_gm_panel_offers_wound_edits_between_rounds_only(app: App) -> None:
    """Wounds are edited between rounds only: once a figure has moved, the Wounds row is greyed out with
    "between rounds only" (as the Edit row is), and a click on it changes nothing."""
    screen = gm_battle(app, "referee")
    _, panel = open_as_referee_again(app)
    assert button(panel, "Tick Scratch").enabled and button(panel, "Clear").enabled
    key(app, pygame.K_ESCAPE)
    d = screen.decision()
    assert d is not None and d.figure is not None
    screen.send(act.Move(d.figure, ()))
    _, panel = open_as_referee_again(app)
    assert not button(panel, "Tick Scratch").enabled and not button(panel, "Clear").enabled
    assert sum(note == "between rounds only" for note, _ in panel.notes) >= 1
    assert all(pos[0] + app.ui.text.width(note, 13) <= panel.rect.right for note, pos in panel.notes)
    log = len(screen.battle.log)
    click(app, button(panel, "Tick Scratch").rect.center)
    assert len(screen.battle.log) == log


def open_as_referee_again(app: App) -> tuple[BattleScreen, GMPanel]:
    """Lift any curtain, press G, pass the curtain to the GM: the panel."""
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
    key(app, pygame.K_g)
    key(app, pygame.K_RETURN)
    panel = app.top
    assert isinstance(panel, GMPanel)
    return panel.screen, panel


def test_a_gm_playing_a_side_alone_gets_the_panel_at_once(app: App) -> None:
    """One human side, which is the GM's: no curtain, the panel opens (also from its button)."""
    sides = list(all_human())
    controllers = {sides[0]: "human", **{s: "random" for s in sides[1:]}}
    screen = gm_battle(app, sides[0], controllers)
    for _ in range(20):
        if screen.my_decision() is not None:
            break
        app.pump(1.0)
    key(app, pygame.K_g)
    assert isinstance(app.top, GMPanel)
    key(app, pygame.K_ESCAPE)
    assert app.top is screen
    screen._rebuild_buttons()
    click(app, next(b for b in screen.buttons if b.text == "GM (G)").rect.center)
    assert isinstance(app.top, GMPanel)


def test_gm_a_player_cannot_undo_the_gm_decision(app: App) -> None:
    """Ctrl+Z by the side deciding now does not take back a GM decision about its figure."""
    screen = gm_battle(app, "referee")
    d = screen.decision()
    assert d is not None and d.figure is not None
    screen.send(gm.DenyEscape(d.figure), Seat.game_master())
    assert not screen.cmd_undo()
    assert screen.battle.log[-1].kind == "gm_deny_escape"


def test_gm_panel_cut_button_label_ends_in_an_ellipsis_and_shows_whole_as_a_tooltip(app: App) -> None:
    """The winner button names the side in full when hovered, however long its name."""
    screen, panel = open_as_referee(app)
    first = next(iter(screen.battle.sides))
    screen.battle.sides[first] = replace(screen.battle.sides[first], name="The Wyrm-Hunters of the Long North Road")
    side = screen.battle.sides[first]
    winner = button(panel, "Winner")
    click(app, winner.rect.center)
    winner = button(panel, "Winner")
    assert winner.text == f"Winner: {side.name}"
    app.draw()
    assert winner.clipped and winner.hint.startswith(winner.text)
    move(app, (winner.rect.centerx + 1, winner.rect.centery))
    app.tick(1.0)
    assert panel.tooltip.shown and panel.tooltip.text.startswith(f"Winner: {side.name}")
    assert not button(panel, "End battle").clipped


def test_a_cut_log_line_shows_whole_under_the_mouse(app: App) -> None:
    """A combat log line too long for the column is drawn with "…"; hovering it shows the whole line."""
    screen = gm_battle(app, None)
    for _ in range(3):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
    assert app.top is screen
    long_line = "Round 1: " + "a very long account of what happened " * 6
    screen.log.set_items([long_line, "short"])
    app.draw()
    first = (screen.log.rect.x + 20, screen.log.rect.y + 8)
    assert screen.log.cut_line_at(first) == long_line
    move(app, first)
    tip = screen.hint_tip
    assert tip is not None and tip.text == long_line
    second = (first[0], first[1] + screen.log._line_height)
    assert screen.log.cut_line_at(second) == ""


def test_the_standing_row_says_none_until_the_gm_gives_something(app: App) -> None:
    """The Standing row was blank; it says "none: …" until a modifier stands there with its Lift button."""
    _, panel = open_as_referee(app)
    standing = next(y for title, y in panel.rows if title == "Standing")
    assert next(n for n, (_, y) in panel.notes if y - app.ui.s(6) == standing).startswith("none")
    click(app, button(panel, "Give").rect.center)
    assert any(b.text.startswith("Lift ") for b in panel.buttons)
    assert not any(n.startswith("none") for n, _ in panel.notes)
