"""What the battle screen says of the odds is the truth at the moment it is shown, driven by posted events:
no odds for a target the chosen stance cannot reach (FTC 6.2), the hex info with the GM's bad light and
footing (FTC table 7), and the GM's dice set by hand counted only at the GM's seat (*Fudge* 4.1)."""

from __future__ import annotations

import pygame

from game.engine import gm
from game.engine.battle import Seat
from game.engine.hexgrid import Hex, neighbor
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from tests.ui.conftest import click, key, move
from tests.ui.test_battle_screen import all_human, lift_curtain, open_battle
from tests.ui.test_gm_panel import gm_battle
from tests.ui.test_panel_text_fits import _painted


def _face_off(app: App, screen: BattleScreen, gap: int) -> tuple[str, str]:
    """Put two enemies ``gap`` hexes apart facing each other (before any decision), everyone else far off,
    then let everyone stay: the attack phase, and the first of the two to declare (and its enemy)."""
    b = screen.battle
    figs = list(b.figures.values())
    a = figs[0]
    e = next(f for f in figs if f.side != a.side)
    line = [a.hex]
    for _ in range(gap):
        line.append(neighbor(line[-1], 0))
    for f in figs:  # nobody else on the line between them
        if f.id not in (a.id, e.id) and f.hex in line:
            f.hex = Hex(f.hex.q, f.hex.r + 3)
    e.hex, a.facing, e.facing = line[-1], 0, 3
    screen.after_change([])
    for _ in range(60):
        lift_curtain(app)
        d = screen.decision()
        assert d is not None
        if d.reason == "declare" and d.figure in (a.id, e.id):
            return (a.id, e.id) if d.figure == a.id else (e.id, a.id)
        if d.reason == "interrupt":
            key(app, pygame.K_p)
        elif d.reason == "declare":
            key(app, pygame.K_RETURN)
        else:
            key(app, pygame.K_SPACE)
    raise AssertionError("the two never came to declare")


def _painted_now(app: App, screen: BattleScreen) -> list[str]:
    """Every string painted in a frame drawn afresh (the screen laid out again, its cached panels forgotten)."""
    screen.on_resize(app.size)
    return [s for s, _, _ in _painted(app)]


def _at(screen: BattleScreen, h: Hex) -> tuple[int, int]:
    x, y = screen.board.camera.hex_to_screen(h)
    return round(x), round(y)


def test_ftc_6_2_a_target_the_stance_no_longer_reaches_shows_no_odds(app: App) -> None:
    """Two hexes apart: a mildly aggressive stance with a step of advance reaches the enemy and shows P(hit);
    back to neutral the advance is dropped, and the panel says "out of reach" instead of odds — in every column
    of the stances compared too, since none reaches without the advance — and says how it could reach."""
    screen = open_battle(app, controllers=all_human())
    me, enemy = _face_off(app, screen, 2)
    fig = screen.battle.figure(me)
    key(app, pygame.K_2)  # mildly aggressive: one hex of advance
    click(app, _at(screen, neighbor(fig.hex, fig.facing)))
    click(app, _at(screen, screen.battle.figure(enemy).hex))
    assert screen.model.decl.target == enemy and screen.model.decl.advance
    painted = _painted_now(app, screen)
    assert any("P(hit)" in s for s in painted)
    assert painted.count("out of reach") == 3  # neutral, mildly and very defensive cannot advance
    key(app, pygame.K_3)  # neutral: no advance
    assert screen.model.decl.target == enemy and not screen.model.decl.advance
    painted = _painted_now(app, screen)
    assert not any("P(hit)" in s for s in painted)
    assert any(s.endswith("out of reach") and s.startswith("→") for s in painted)
    assert painted.count("out of reach") == 5  # with no advance no stance reaches
    assert "An aggressive stance may advance to it" in screen.declaration.odds_details()


def test_ftc_table_7_the_hex_info_shows_the_gms_bad_light_and_footing(app: App) -> None:
    """The GM's bad light over the battlefield and insecure footing on one hex reach the box that names the
    hovered hex (the rolls use them: FTC table 7), not the map's "good light"."""
    screen = gm_battle(app, "referee")
    lift_curtain(app)
    fig = next(iter(screen.battle.figures.values()))
    h = fig.hex
    move(app, _at(screen, h))
    assert any(line.startswith("good light · firm footing") for line, _ in screen.inspector.lines())
    assert screen.send(gm.BattleCondition("dusk", "bad_light", -2, reason="dusk"), Seat.game_master())
    assert screen.send(gm.BattleCondition("ice", "insecure_footing", -1, (h,)), Seat.game_master())
    app.pump()
    lines = [line for line, _ in screen.inspector.lines()]
    assert "bad light −2 · insecure footing −1" in lines
    assert "GM: bad light −2 (dusk)" in lines
    painted = _painted_now(app, screen)
    assert "bad light −2 · insecure footing −1" in painted


def test_fudge_4_1_set_dice_show_in_the_hex_info_only_at_the_gms_seat(app: App) -> None:
    """A die the GM set by hand is named on the figure's hex info when the GM sits at the screen (the GM plays
    the side deciding) and never while another side's player sits there."""
    said = {}
    for gm_plays_the_decider in (True, False):
        screen = gm_battle(app, "blue")
        lift_curtain(app)
        d = screen.decision()
        assert d is not None
        decider = d.side
        if (decider == "blue") is not gm_plays_the_decider:
            app.pop()
            screen = gm_battle(app, next(s for s in screen.battle.sides if s != decider))
            lift_curtain(app)
        fig = screen.battle.figure(d.figure or "")
        gm_seat = Seat.of_side(screen.battle.setup.gm or "")
        assert screen.send(gm.SetDie(fig.id, "combat", (1, 1, 1, 1)), gm_seat)
        move(app, _at(screen, fig.hex))
        lines = [line for line, _ in screen.inspector.lines()]
        said[gm_plays_the_decider] = any("next combat roll set by hand to +4" in line for line in lines)
        app.pop()
    assert said == {True: True, False: False}
