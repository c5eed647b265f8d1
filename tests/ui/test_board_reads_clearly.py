"""The board and the frame around it say each thing once and only while it is true (driven by posted events):
a line of fire along hex edges says so once, not on every hex; escape chances are written on the hovered hex
only; a message answers one moment and goes at the next decision; the top bar names no decision already
taken while the log plays out the round; a clicked bare hex and the hover box do not outstay their moment;
the sheet counts a second move as a move of its own (FTC 6.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame
import pytest

from game.engine import actions as act
from game.engine.generator import LEGACY_DICE
from game.engine.players import make_player
from game.session import new_session
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.preview import percent
from tests.ui.conftest import click, key, move
from tests.ui.test_battle_layout_fits import SIZES, window
from tests.ui.test_battle_screen import VILLAGE, all_human, lift_curtain, on_screen, open_battle
from tests.ui.test_odds_on_screen import _at, _face_off
from tests.ui.test_panel_text_fits import _painted


def _mags_shoots_along_the_edges(app: App) -> BattleScreen:
    """The village, seed 3, both sides at the screen: Mags (an archer) declares, aiming at Red Ulric along a row
    of hex edges past three friends and three enemies."""
    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)
    session = new_session(VILLAGE, seed=3, controllers={"blue": "human", "red": "human"}, dice=LEGACY_DICE)
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    player = make_player("tactical", 3)
    for _ in range(300):
        app.pump()
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
            continue
        d = screen.battle.decision()
        assert d is not None
        if d.reason == "declare" and screen.battle.figure(d.figure or "").name == "Mags":
            break
        screen.send(player(screen.battle, d))
    ulric = next(f for f in screen.battle.figures.values() if f.name == "Red Ulric")
    screen.model.decl.target = ulric.id
    screen.invalidate()
    return screen


def test_ftc_6_5_3_a_line_of_fire_along_hex_edges_says_so_once(app: App) -> None:
    """No hex the line only runs along is labelled "edge"; the line carries one note, drawn where it covers no
    figure; the bystanders' chances are still on their hexes (FTC 6.5.3)."""
    screen = _mags_shoots_along_the_edges(app)
    view = screen.board_view()
    lof = view.line_of_fire
    assert lof is not None
    edges = [m for m in lof.marks if m.kind == "edge"]
    assert len(edges) >= 10, "the line runs along a row of hex edges"
    assert not any(m.text == "edge" for m in lof.marks)
    assert all(not m.text for m in edges)
    assert sum(1 for m in lof.marks if m.kind == "bystander" and m.text.endswith("%")) >= 6
    assert "along hex edges" in lof.note
    note = screen.board.lof_note(view)
    assert note is not None
    _, rect = note
    cam, r = screen.board.camera, screen.board.token_radius()
    for t in view.tokens:
        x, y = cam.hex_to_screen(t.hex)
        assert not rect.colliderect(pygame.Rect(round(x - r), round(y - r), round(2 * r), round(2 * r))), t.name
    painted = [s for s, _, _ in _painted(app)]
    assert "edge" not in painted


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_the_along_hex_edges_note_covers_no_figure_name_or_label_at_any_window_size(
    app: App, size: tuple[int, int], scale: float
) -> None:
    """The note is written beside the line only where it covers no token, no name and no chance of the line
    (a small window at a large UI scale has no such room: then it is left out, the chances stay)."""
    window(app, size, scale)
    screen = _mags_shoots_along_the_edges(app)
    app.tick(0.0)  # the camera keeps Mags and her target in view
    app.draw()
    view = screen.board_view()
    assert view.line_of_fire is not None and "along hex edges" in view.line_of_fire.note
    note = screen.board.lof_note(view)
    if note is None:
        assert size == (1024, 640), "only the small window has no room for it"
        return
    _, rect = note
    ops = screen.board._token_ops
    assert ops is not None
    drawn = [r for _, r in ops.sprites] + [r for _, r in ops.labels]
    assert rect.collidelist(drawn) < 0, "the note lies over a figure or its name"
    assert pygame.Rect(screen.board.camera.view).contains(rect)


@pytest.mark.parametrize(("size", "scale"), SIZES)
def test_ftc_6_5_3_a_bystanders_chance_is_written_over_its_token_where_no_name_hides_it(
    app: App, size: tuple[int, int], scale: float
) -> None:
    """A friend's or an enemy's chance to be hit by a miss is written over its own token, drawn after the tokens,
    where it covers no other token and no name (under the name, as before, the names hid it or left a "12%"
    peeking out between two of them); a chance with no such room is left to the declaration panel."""
    window(app, size, scale)
    screen = _mags_shoots_along_the_edges(app)
    app.tick(0.0)
    app.draw()
    view = screen.board_view()
    ops = screen.board._token_ops
    assert ops is not None and view.line_of_fire is not None
    chances = screen.board.lof_chances(view)
    names = [r for _, r in ops.labels]
    cam = screen.board.camera
    at_risk = {cam.hex_to_screen(m.hex): m.text for m in view.line_of_fire.marks if m.kind == "bystander"}
    for _, rect in chances:
        assert rect.collidelist(names) < 0, "a name covers the chance or the chance a name"
        (x, y), _ = min(
            at_risk.items(), key=lambda item: abs(item[0][0] - rect.centerx) + abs(item[0][1] - rect.bottom)
        )
        assert abs(x - rect.centerx) <= 1 and rect.bottom < y, "the chance stands over its own token"
        others = [r for _, r in ops.sprites if not r.collidepoint(round(x), round(y))]
        assert rect.collidelist(others) < 0
    if size == (1280, 720) and scale == 1.0:
        assert len(chances) >= 2
        assert all(text in screen.declaration.odds_details() for text in at_risk.values())


def test_ftc_5_3_escape_chances_are_written_on_the_hovered_hex_only(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two figures face to face: every hex the one moving next can reach needs an escape. The board writes no
    percentage on the bands; the hovered hex's path label carries its chance."""
    screen = open_battle(app, controllers=all_human())
    me, enemy = _face_off(app, screen, 1)
    for _ in range(80):  # both defend; the next round's movement phase
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None
        if screen.battle.round == 2 and d.reason == "move" and d.figure in (me, enemy):
            break
        answer = {"follow": pygame.K_n, "declare": pygame.K_RETURN, "interrupt": pygame.K_p}
        key(app, answer.get(d.reason, pygame.K_SPACE))
    fid = screen.model.active_mover(d)
    assert fid is not None
    escapes = screen.model.escapes(fid)
    assert len(escapes) >= 6
    labels: list[Any] = []
    draw = screen.board.draw
    monkeypatch.setattr(screen.board, "draw", lambda s, v, hex_labels=(): labels.append(hex_labels) or draw(s, v))
    spot = on_screen(screen, escapes)[0]
    move(app, _at(screen, spot))
    app.dirty = True
    app.draw()
    assert labels and all(not lab for lab in labels)
    path = screen.board_view().path
    assert path is not None and path.step_labels[-1].endswith("escape " + percent(escapes[spot]))


def test_a_message_answers_its_moment_and_goes_at_the_next_decision(app: App) -> None:
    """T with nobody in reach says so; once the figure has declared, the next one's bar shows the keys again."""
    screen = open_battle(app, controllers=all_human())
    for _ in range(60):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None
        if d.reason == "declare":
            break
        key(app, pygame.K_p if d.reason == "interrupt" else pygame.K_SPACE)
    assert not screen.model.targets()
    key(app, pygame.K_t)
    assert screen.status == "No enemy is within reach of this weapon."
    key(app, pygame.K_RETURN)  # defends only: a decision
    lift_curtain(app)
    assert screen.status == ""


def test_the_top_bar_names_no_declaration_while_the_round_resolves(app: App) -> None:
    """With the log playing the round's attacks out, the top bar says the attacks are resolved, not "… declares an
    attack" of the figure that declared last."""
    screen = open_battle(app, controllers=all_human())
    me, enemy = _face_off(app, screen, 1)
    last = screen.battle.figure(screen.battle.order[0]).name  # the first in initiative declares last (FTC 6.1)
    for _ in range(60):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None and d.reason == "declare"
        screen.model.decl.target = enemy if d.figure == me else (me if d.figure == enemy else None)
        if d.figure == screen.battle.order[0]:  # the round's lines play out at the normal speed
            app.ui.settings = replace(app.ui.settings, animation_speed=1.0)
        key(app, pygame.K_RETURN)
        if screen.battle.round == 2:
            break
    assert screen.journal.pending, "the round's lines are still playing out"
    shown = screen.model.shown().decision
    assert shown is not None and shown.reason == "declare"
    line = screen.tracker.prompt_line(shown)
    assert "declares" not in line and last not in line
    assert "the attacks of round 1 are resolved" in line


def test_a_clicked_bare_hex_is_outlined_until_the_next_decision(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None and d.reason == "move"
    occupied = {f.hex for f in screen.battle.figures.values()}
    reach = screen.model.reach(screen.model.active_mover(d) or "")
    bare = next(h for h in on_screen(screen, set(screen.battle.terrain.hexes()) - occupied) if not reach.can_reach(h))
    click(app, _at(screen, bare))
    assert screen.board_view().selected == bare
    key(app, pygame.K_SPACE)  # the figure stays: a decision
    assert screen.board_view().selected is None


def test_the_hover_box_goes_when_the_pointer_left_the_board_behind_the_curtain(app: App) -> None:
    """The pointer rests on a hex, the decision passes to the other side and the curtain comes up; the pointer
    leaves the board while the curtain is up: when the board comes back, no hex is hovered and no box is drawn.
    (The curtain at every hand-off: the player's setting.)"""
    app.ui.settings = replace(app.ui.settings, hand_off="always")
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None
    x, y, w, _ = screen.board.camera.view
    move(app, (x + w // 2, y + 40))
    assert screen.selection.hover is not None
    for _ in range(20):
        key(app, pygame.K_p if d.reason == "interrupt" else pygame.K_SPACE)
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            break
        d = screen.my_decision()
        assert d is not None
    assert isinstance(app.top, CurtainScreen)
    move(app, (app.size[0] - 5, app.size[1] // 2))  # off the board, seen by the curtain only
    key(app, pygame.K_RETURN)
    assert app.top is screen
    app.dirty = True
    app.draw()
    assert screen.selection.hover is None and screen.inspector.drawn is None


def test_ftc_6_2_the_sheet_counts_a_second_move_as_its_own(app: App) -> None:
    """A figure moves two hexes, then declares a second move of three: the sheet says "moved 2/5 hexes, second
    move 3/5", never "moved 5/5"."""
    screen = open_battle(app, controllers=all_human())
    fid = screen.battle.order[-1]  # the last to move is the first to declare (FTC 6.1)
    for _ in range(80):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None
        if d.reason == "declare":
            break
        if d.reason == "move" and screen.model.active_mover(d) == fid:
            reach = screen.model.reach(fid)
            two = next(h for h in sorted(reach.hexes()) if len(reach.path(h).hexes) == 2 and reach.band(h) == "free")
            assert screen.send(act.Move(fid, reach.path(two).steps))
        else:
            key(app, pygame.K_p if d.reason == "interrupt" else pygame.K_SPACE)
    assert d.figure == fid and screen.battle.figure(fid).hexes_moved == 2
    reach = screen.battle.reach_for(fid)
    three = next(h for h in sorted(reach.hexes()) if len(reach.path(h).hexes) == 3 and reach.band(h) == "free")
    assert screen.send(act.SecondMove(fid, reach.path(three).steps))
    fig = screen.battle.figure(fid)
    assert screen.battle.round == 1 and fig.hexes_moved == 5
    screen.selection.figure = fid
    screen.on_resize(app.size)
    painted = [s for s, _, _ in _painted(app)]
    allowance = fig.allowance
    assert any(s.endswith(f"moved 2/{allowance} hexes, second move 3/{allowance}") for s in painted), painted
