"""The battle screen as a tabletop: made tokens and a GM's pictures on the board, motion that a click skips
and that never changes the battle, computers waiting for it, sound silent without a device."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pygame

from game.engine import actions as act
from game.engine import record
from game.engine.battle import Seat
from game.session import new_session
from game.ui.animation import Glide
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.sound import shared_sounds
from tests.ui.conftest import click

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
GOLD = (250, 200, 20)


def open_battle(app: App, map_path: Path, speed: float, **kw: object) -> BattleScreen:
    app.ui.settings = replace(app.ui.settings, animation_speed=speed)
    session = new_session(map_path, seed=3, autosave=False, **kw)  # type: ignore[arg-type]
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    app.pump()
    app.tick(0.0)
    while app.top is not screen:  # the hand-off curtain
        app.stack.pop()
    return screen


def test_battle_tokens_show_what_each_figure_carries_and_the_wyrm_as_one(app: App) -> None:
    screen = open_battle(app, MAPS / "wyrm_hollow.tmx", 0.0)
    looks = {t.name: t.look for t in screen.tokens()}
    wyrm = next(t for t in screen.tokens() if t.look == "wyrm7")
    assert len(wyrm.cells) == 7
    assert {"sword_shield", "bow", "caster"} <= set(looks.values())


def test_a_rosters_token_picture_shows_in_battle(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "gm_maps"
    shutil.copytree(MAPS, folder)
    roster = folder / "open_field.roster.toml"
    text = roster.read_text(encoding="utf-8")
    first = text.index("[characters.")
    line_end = text.index("\n", first)
    roster.write_text(text[: line_end + 1] + 'token = "tokens/hero.png"\n' + text[line_end + 1 :], encoding="utf-8")
    (folder / "tokens").mkdir()
    pic = pygame.Surface((30, 30))
    pic.fill(GOLD)
    pygame.image.save(pic, str(folder / "tokens" / "hero.png"))
    screen = open_battle(app, folder / "open_field.tmx", 0.0)
    with_picture = [t for t in screen.tokens() if t.image]
    assert with_picture and all(t.image.endswith("hero.png") for t in with_picture)
    sprite, (cx, cy) = screen.board.token_sprite(with_picture[0])
    assert tuple(sprite.get_at((cx, cy)))[:3] == GOLD


def a_move(screen: BattleScreen) -> act.Move:
    d = screen.battle.decision()
    assert d is not None and d.figure is not None
    reach = screen.model.reach(d.figure)
    far = max(reach.hexes(), key=lambda h: (len(reach.path(h).steps), h.q, h.r))
    return act.Move(d.figure, reach.path(far).steps)


def test_a_move_glides_and_a_click_skips_it_without_touching_the_battle(app: App) -> None:
    screen = open_battle(app, MAPS / "open_field.tmx", 1.0, controllers={"blue": "human", "red": "human"})
    move = a_move(screen)
    assert screen.send(move)
    saved = record.to_json(screen.battle, screen.session.setup_data)
    timeline = screen.tabletop.timeline
    assert timeline.active and move.figure in timeline.hidden()
    assert move.figure not in {t.id for t in screen.tabletop.view(screen.board_view()).tokens}
    app.tick(0.05)
    assert timeline.active  # still gliding: the frame never waited for it
    x, y, w, h = screen.board.camera.view
    click(app, (x + w - 5, y + h - 5))
    assert not timeline.active and timeline.skipped == 1
    assert record.to_json(screen.battle, screen.session.setup_data) == saved


def test_animations_never_change_the_battle(app: App) -> None:
    """The same decisions with animations at full speed and off end in the same battle, and the record
    replays to it."""
    results = []
    for speed in (1.0, 0.0):
        screen = open_battle(app, MAPS / "open_field.tmx", speed, controllers={"blue": "human", "red": "human"})
        for _ in range(3):
            d = screen.battle.decision()
            assert d is not None
            action = a_move(screen) if d.reason == "move" else act.Declare(d.figure or "")
            assert screen.send(action, Seat.of_side(d.side))  # each side's own seat, curtain or not
            for _ in range(5):
                app.tick(1 / 30)
        results.append(record.to_json(screen.battle, screen.session.setup_data))
        replayed = record.replay(screen.battle.setup, screen.battle.log)
        assert replayed.log == screen.battle.log
        app.stack.pop()
    assert results[0] == results[1]


def test_undo_ends_what_was_showing(app: App) -> None:
    screen = open_battle(app, MAPS / "open_field.tmx", 1.0, controllers={"blue": "human", "red": "human"})
    assert screen.send(a_move(screen))
    assert any(isinstance(i, Glide) for i in screen.tabletop.timeline.items)
    # what Ctrl+Z does once the side may take its decision back: the battle replaced, no new events
    screen.session.battle = record.undo(screen.battle)
    screen.after_change([])
    assert not screen.tabletop.timeline.active
    assert screen.tabletop.view(screen.board_view()).tokens == screen.tokens()


def test_computers_wait_for_the_animation(app: App) -> None:
    screen = open_battle(app, MAPS / "open_field.tmx", 1.0, controllers={"blue": "human", "red": "tactical"})
    d = screen.battle.decision()
    if d is not None and not screen.is_human(d.side):
        for _ in range(200):
            app.tick(1 / 30)
            d = screen.battle.decision()
            if d is None or screen.is_human(d.side):
                break
    assert screen.send(a_move(screen))
    logged = len(screen.battle.log)
    assert screen.tabletop.timeline.active
    for _ in range(3):
        app.tick(1 / 60)
    assert len(screen.battle.log) == logged  # the computer has not moved while the glide runs
    screen.tabletop.timeline.skip()
    for _ in range(200):
        app.tick(1 / 30)
        if len(screen.battle.log) > logged:
            break
    assert len(screen.battle.log) > logged  # and decides once it is over


def test_battle_sounds_follow_the_events_and_stay_silent_here(app: App) -> None:
    screen = open_battle(app, MAPS / "open_field.tmx", 1.0, controllers={"blue": "human", "red": "human"})
    sounds = shared_sounds()
    sounds.played.clear()
    assert screen.send(a_move(screen))
    assert sounds.played == ["step"] and sounds.silent


def test_a_tiled_figures_token_property_shows_in_battle(app: App, tmp_path: Path) -> None:
    folder = tmp_path / "gm_maps"
    shutil.copytree(MAPS, folder)
    tmx = folder / "open_field.tmx"
    text = tmx.read_text(encoding="utf-8")
    anchor = '<property name="character" value="sir_bors"/>'
    assert anchor in text
    tmx.write_text(
        text.replace(anchor, anchor + '\n    <property name="token" type="file" value="art/bors.png"/>'), "utf-8"
    )
    (folder / "art").mkdir()
    pic = pygame.Surface((20, 20))
    pic.fill(GOLD)
    pygame.image.save(pic, str(folder / "art" / "bors.png"))
    screen = open_battle(app, tmx, 0.0)
    pictured = {t.name: t.image for t in screen.tokens() if t.image}
    assert list(pictured) == ["Sir Bors"] and pictured["Sir Bors"].endswith("bors.png")
