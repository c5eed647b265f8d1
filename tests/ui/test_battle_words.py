"""Words a player reads on the battle screen: the side deciding named once, terrain as words with its light
and footing under the mouse, hexes named by their ground and a figure (never axial coordinates), the F1
help listing the keys that work in a battle without overlapping lines, Esc during a computer's turn."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

import pygame

from game.engine import events as ev
from game.engine.hexgrid import neighbors
from game.ui.app import App
from game.ui.battle.words import decision_line, hex_name, terrain_words
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.gm_panel import GMPanel
from game.ui.screens import EscapeMenu, HelpOverlay
from tests.ui.conftest import click, key, move
from tests.ui.test_battle_screen import FIELD, VILLAGE, all_human, lift_curtain, on_screen, open_battle

RAW_HEX = re.compile(r"hex \(?-?\d+, ?-?\d+\)?")


def _first_declaration(app: App, screen: BattleScreen) -> None:
    """Everyone stays put until the first declaration (posted keys)."""
    for _ in range(60):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None
        if d.reason == "declare":
            return
        key(app, pygame.K_p if d.reason == "interrupt" else pygame.K_SPACE)
    raise AssertionError("no declaration came")


def test_the_side_deciding_is_named_once_when_the_prompt_names_it_too(app: App) -> None:
    """An interrupt question starts with the side's name; the top bar does not say it twice."""
    screen = open_battle(app, controllers=all_human())
    seen = None
    for _ in range(60):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None and d.reason != "declare", "no interrupt question came in the movement phase"
        if d.reason == "interrupt":
            seen = d
            break
        key(app, pygame.K_h if d.reason == "move" else pygame.K_SPACE)  # everyone holds: interrupts follow
    assert seen is not None
    name = screen.battle.sides[seen.side].name
    assert seen.prompt.startswith(name)
    line = screen.tracker.prompt_line(seen)
    assert line.count(name) == 1 and line.startswith(name + ": ")
    assert decision_line("The Wyrm-Hunters", "The Wyrm-Hunters: interrupt?") == "The Wyrm-Hunters: interrupt?"
    assert decision_line("Blue", "Mags moves.", computer=True) == "Blue (computer): Mags moves."


def test_hovering_a_hex_shows_its_terrain_in_words_with_light_and_footing(app: App) -> None:
    screen = open_battle(app, VILLAGE, controllers=all_human(VILLAGE))
    lift_curtain(app)
    t = screen.battle.terrain
    cam = screen.board.camera
    d = screen.decision()
    hexes = on_screen(screen, [h for h in t.hexes() if "_" in t.type_at(h).name] or list(t.hexes()))
    assert hexes
    h = hexes[0]
    move(app, tuple(round(v) for v in cam.hex_to_screen(h)))
    assert screen.selection.hover == h and d is not None
    lines = [text for text, _ in screen.inspector.lines()]
    assert lines[0].startswith(terrain_words(t.type_at(h).name))
    assert "_" not in lines[0]
    assert any("light" in line and "footing" in line for line in lines)
    assert terrain_words("dense_woods") == "Dense woods"


def test_hexes_are_named_by_their_ground_and_a_figure_not_by_coordinates(app: App) -> None:
    """The retreat hex of a defensive stance, and a spell's centre in the log, read like the board."""
    screen = open_battle(app, controllers=all_human())
    _first_declaration(app, screen)
    key(app, pygame.K_5)  # very defensive: must retreat, a hex is chosen at once
    st = screen.model.decl
    assert st.stance == "very_defensive" and st.retreat is not None
    notes = screen.declaration.stance_notes()
    me = screen.battle.figure(st.figure)
    assert f"of {me.name}" in notes and not RAW_HEX.search(notes)
    b = screen.battle
    assert hex_name(b, screen.data.layout, me.hex) == f"{me.name}'s hex"


def test_f1_in_a_battle_lists_g_as_the_gm_panel_and_no_two_lines_overlap(app: App) -> None:
    for size, scale in (((1280, 720), 1.0), ((1024, 640), 1.25)):
        app.ui.settings = replace(app.ui.settings, ui_scale=scale)
        app.ui.text.set_scale(scale)
        app.window = pygame.display.set_mode(size)
        screen = open_battle(app, controllers=all_human())
        screen.on_resize(size)
        lift_curtain(app)
        key(app, pygame.K_F1)
        overlay = app.top
        assert isinstance(overlay, HelpOverlay)
        keys = dict(overlay.keys)
        assert "GM" in keys["G"] and not any("grid" in meaning for meaning in keys.values())
        app.draw()
        assert len(overlay.drawn) > 20
        for a, b in itertools.combinations(overlay.drawn, 2):
            assert not a.inflate(0, -2).colliderect(b.inflate(0, -2)), (a, b)  # a glyph's box may pass its line by 1 px
        assert all(pygame.Rect((0, 0), size).contains(r) for r in overlay.drawn)
        assert overlay.keys_shown == len(overlay.keys)  # every key, none dropped for want of room
        key(app, pygame.K_F1)
        assert app.top is screen
        app.pop()


def test_g_in_a_battle_with_a_gm_seat_opens_the_gm_panel(app: App) -> None:
    from game.session import new_session

    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)
    session = new_session(FIELD, seed=3, controllers=all_human(), gm=None)
    side = next(iter(session.battle.sides))
    session = new_session(
        FIELD, seed=3, controllers={side: "human"} | {s: "tactical" for s in session.battle.sides if s != side}, gm=side
    )
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    for _ in range(200):
        app.tick(0.05)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
        if screen.my_decision() is not None:
            break
    key(app, pygame.K_g)
    assert isinstance(app.top, GMPanel)


def test_esc_opens_the_menu_during_a_computer_players_turn_even_with_a_figure_selected(app: App) -> None:
    screen = open_battle(app, controllers={s: "tactical" for s in all_human()})
    app.ui.settings = replace(app.ui.settings, animation_speed=1.0)
    d = screen.decision()
    assert d is not None and not screen.is_human(d.side)
    fig = next(iter(screen.battle.figures.values()))
    click(app, tuple(round(v) for v in screen.board.camera.hex_to_screen(fig.hex)))
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, EscapeMenu)
    assert screen.selection.figure is None


def test_a_spell_cast_at_a_hex_reads_like_the_board_in_the_log(app: App) -> None:
    """An area spell's centre in the combat log: its ground and where it lies from the caster."""
    screen = open_battle(app, controllers=all_human())
    b = screen.battle
    me = next(iter(b.figures.values()))
    free = next(n for n in neighbors(me.hex) if b.terrain.contains(n) and b.occupant(n) is None)
    cast = ev.CastingBegan(me.id, "Fog", None, free, 1, "attack")
    assert RAW_HEX.search(cast.text(b.names()))  # the engine's own words name the axial coordinates
    text, figures, _ = screen.journal.entry(cast)
    assert not RAW_HEX.search(text)
    assert f"Fog at the {terrain_words(b.terrain.type_at(free).name).lower()} hex" in text
    assert f"of {me.name} with the attacks" in text and figures == (me.id,)
