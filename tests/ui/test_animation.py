"""Motion and dice: moves glide and turn, attacks swing or fly, hits flash, rolls show their dice; the speed
setting governs it (0 = off), a click skips it, and it never changes the battle."""

from __future__ import annotations

import pygame
import pytest

from game.engine import events as ev
from game.engine.hexgrid import Hex, neighbor
from game.ui.animation import Dice, Flash, Glide, Missile, Swing, Timeline, rolls_of, turn_steps
from game.ui.board import Board, default_layout
from game.ui.mapdata import generated_field
from game.ui.view import BoardView, TokenView
from game.ui.widgets import TextCache

A = TokenView("a", "Ann", (47, 111, 208), Hex(6, 4), 0, look="sword")
B = TokenView("b", "Bob", (200, 50, 50), Hex(9, 4), 3, look="bow")


@pytest.fixture(autouse=True)
def display() -> None:
    pygame.display.init()


def attack(attacker: str, target: str, weapon: str, hit: bool, stray: bool = False) -> ev.AttackResolved:
    return ev.AttackResolved(attacker, target, weapon, 1, 0, (), 1, 0, (), (), 0, hit, 1 if hit else -1, stray=stray)


def path_of(start: Hex, dirs: list[int]) -> tuple[Hex, ...]:
    out = [start]
    for d in dirs:
        out.append(neighbor(out[-1], d))
    return tuple(out)


def test_a_move_glides_hex_by_hex_and_turns_before_each_new_direction() -> None:
    tl = Timeline()
    path = path_of(Hex(3, 4), [0, 0, 1])
    end = TokenView("a", "Ann", A.side_colour, path[-1], 2)
    tl.feed([ev.Moved("a", path, 2, 3, 4)], [end, B])
    (glide,) = [i for i in tl.items if isinstance(i, Glide)]
    assert tl.active and tl.hidden() == {"a"}
    facings = [f for _, _, f in glide.keys]
    assert facings[0] == 0 and 1 in facings and facings[-1] == 2  # turned to the third step, then to its facing
    tl.update(0.07)  # half way through the first step
    a, b, k, facing = glide.pose(tl.now)
    assert (a, b) == (path[0], path[1]) and 0.3 < k < 0.7 and facing == 0
    tl.update(10)
    assert not tl.active and tl.hidden() == frozenset()


def test_speed_scales_the_time_and_zero_switches_it_off() -> None:
    speed = [2.0]
    tl = Timeline(lambda: speed[0])
    path = path_of(Hex(3, 4), [0, 0])
    tl.feed([ev.Moved("a", path, 0, 2, 4)], [A])
    duration = tl.items[0].duration
    tl.update(duration / 2 + 0.01)
    assert not tl.active  # twice as fast
    speed[0] = 0.0
    tl.feed([ev.Moved("a", path, 0, 2, 4), ev.CombatRoll("a", (1, 0, -1, 1))], [A])
    assert not tl.active and tl.items == [] and tl.hidden() == frozenset()


def test_a_click_skips_everything_at_once() -> None:
    tl = Timeline()
    tl.feed([ev.Moved("a", path_of(Hex(3, 4), [0, 0, 0]), 0, 3, 4), attack("a", "b", "Broadsword", True)], [A, B])
    assert tl.active
    tl.skip()
    assert not tl.active and tl.hidden() == frozenset() and tl.skipped == 1


def test_melee_swings_missiles_fly_and_misses_say_so() -> None:
    tl = Timeline()
    tl.feed([attack("a", "b", "Broadsword", True), attack("b", "a", "Longbow", False)], [A, B])
    kinds = [type(i) for i in tl.items]
    assert kinds == [Swing, Missile, Flash]
    swing, missile, miss = tl.items
    assert isinstance(miss, Flash) and miss.text == "miss" and miss.figure == "a"
    assert missile.start >= swing.start  # one after the other, never at once


def test_a_stray_flies_to_the_bystander_and_a_wound_flashes() -> None:
    tl = Timeline()
    stray = ev.StrayShot("b", "a", (1, 1, 0, -1), ("c",), (), "c")
    c = TokenView("c", "Cid", (47, 111, 208), Hex(7, 4), 0)
    wound = ev.Wounded("c", 3, "Hurt", (0, 1, 0, 0), 1, "Hurt", "Hurt")
    tl.feed([stray, attack("b", "c", "Longbow", True, stray=True), wound], [A, B, c])
    missiles = [i for i in tl.items if isinstance(i, Missile)]
    flashes = [i for i in tl.items if isinstance(i, Flash)]
    assert missiles[0].target == "c" and missiles[0].stray
    assert flashes[0].figure == "c" and flashes[0].text == "Hurt"


def test_each_roll_shows_its_four_dice_beside_the_figure() -> None:
    tl = Timeline()
    tl.feed([ev.CombatRoll("a", (1, -1, 0, 1)), ev.CombatRoll("b", (0, 0, 0, -1))], [A, B])
    dice = [i for i in tl.items if isinstance(i, Dice)]
    assert [(d.figure, d.faces) for d in dice] == [("a", (1, -1, 0, 1)), ("b", (0, 0, 0, -1))]
    assert rolls_of(ev.InitiativeRolled("a", 0, (1, 1, 1, 1), 4)) == [("a", (1, 1, 1, 1))]


def test_turns_go_the_short_way() -> None:
    assert turn_steps(0, 5) == 1 and turn_steps(1, 4) == 3 and turn_steps(2, 2) == 0


def test_drawing_puts_the_glider_between_hexes_and_the_dice_beside_it() -> None:
    data = generated_field(20, 12)
    board = Board(default_layout(), 20, 12, data.source, TextCache(), (0, 0, 900, 600))
    surface = pygame.Surface((900, 600))
    path = path_of(Hex(4, 4), [0, 0])
    end = TokenView("a", "Ann", A.side_colour, path[-1], 0, look="sword")
    tl = Timeline()
    tl.feed([ev.CombatRoll("a", (1, 1, 1, 1)), ev.Moved("a", path, 0, 2, 4)], [end, B])
    view = tl.filter_view(BoardView([end, B]))
    assert [t.id for t in view.tokens] == ["b"]
    assert tl.filter_view(BoardView([end, B])) is not view  # another view, another filter
    tl.update(0.07)
    board.draw(surface, view)
    before = surface.copy()
    rect = tl.draw(surface, board)
    assert rect is not None
    x0, _ = board.camera.hex_to_screen(path[0])
    x1, _ = board.camera.hex_to_screen(path[1])
    changed = [
        x for x in range(rect.left, rect.right) if surface.get_at((x, rect.centery)) != before.get_at((x, rect.centery))
    ]
    assert changed and min(changed) > x0 - board.token_radius() * 1.4 and min(changed) < x1


def test_dice_of_figures_rolling_at_once_never_cover_each_other() -> None:
    data = generated_field(20, 12)
    board = Board(default_layout(), 20, 12, data.source, TextCache(), (0, 0, 900, 600))
    surface = pygame.Surface((900, 600))
    near = [TokenView(f"n{i}", f"N{i}", A.side_colour, Hex(5 + i % 2, 5 + i // 2), 0) for i in range(4)]
    tl = Timeline()
    tl.feed([ev.CombatRoll(t.id, (1, 0, -1, 0)) for t in near], near)
    tl.update(0.01)
    taken: list[pygame.Rect] = []
    for item in tl.items:
        assert isinstance(item, Dice)
        rect = tl._draw_dice(surface, board, item, board.token_radius(), taken)
        assert rect is not None
        taken.append(rect)
    assert all(not a.colliderect(b) for i, a in enumerate(taken) for b in taken[i + 1 :])
