"""The battle screen draws the view of the seat at the screen, not the whole battle (*Fudge* 4.32: a
declaration under secret stances is withheld at the source until the reveal), and sends its decisions from
that seat; hotseat switches the view at the curtain."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.engine import actions as act
from game.engine import events as ev
from game.engine.battle import RuleOptions, Seat
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from tests.helpers import do_little
from tests.ui.conftest import key
from tests.ui.test_battle_screen import _to_attack_phase_adjacent, all_human, lift_curtain, open_battle

SECRET = "mildly_aggressive"


def drawn_text(app: App) -> list[str]:
    """Every string the app paints in one frame."""
    seen: list[str] = []
    original = app.ui.text.blit

    def spy(surface: pygame.Surface, text: str, *args: Any, **kw: Any) -> Any:
        seen.append(text)
        return original(surface, text, *args, **kw)

    app.ui.text.blit = spy  # type: ignore[method-assign]
    try:
        app.draw()
    finally:
        app.ui.text.blit = original  # type: ignore[method-assign]
    return seen


def declare_in_secret(app: App, screen: BattleScreen) -> tuple[str, str]:
    """Play to the attack phase; the first of two facing enemies declares a mildly aggressive attack on the
    other (everyone before it defends). Returns (the declaring figure, its side)."""
    a, e = _to_attack_phase_adjacent(app, screen)
    for _ in range(40):
        lift_curtain(app)
        d = screen.decision()
        assert d is not None and d.reason == "declare"
        if d.figure in (a, e):
            enemy = e if d.figure == a else a
            assert screen.send(act.Declare(d.figure, SECRET, (enemy,)))
            return d.figure, d.side
        key(app, pygame.K_RETURN)
    raise AssertionError("neither facing figure came to declare")


def test_fudge_4_32_the_screen_of_another_seat_holds_no_secret_stance_before_the_reveal(app: App) -> None:
    screen = open_battle(app, controllers=all_human(), options=RuleOptions(secret_stances=True))
    fid, side = declare_in_secret(app, screen)
    # the declaring seat sees its own declaration in full
    assert screen.seat == Seat.of_side(side)
    own = [e for e in screen.journal.events if isinstance(e, ev.Declared) and e.figure == fid]
    assert own and own[-1].stance == SECRET
    # hand the screen on until another side's player sits at it
    for _ in range(40):
        app.tick(0.0)
        d = screen.decision()
        assert d is not None and d.reason == "declare", "the reveal came before another side declared"
        if d.side != side:
            break
        lift_curtain(app)
        key(app, pygame.K_RETURN)
    assert isinstance(app.top, CurtainScreen)
    lift_curtain(app)
    assert app.top is screen and screen.seat == Seat.of_side(d.side)
    # what the screen holds for this seat carries who declared, not how
    theirs = [e for e in screen.journal.events if isinstance(e, ev.Declared) and e.figure == fid]
    assert theirs and all((e.stance, e.targets, e.weapon) == ("", (), "") for e in theirs)
    # and nothing painted (log, tracker, tokens, sheet, prompt) names the stance
    painted = drawn_text(app)
    assert painted and not any("aggressive" in t for t in painted)
    assert "aggressive" not in repr(screen.tokens())
    # the engine's own log kept it all along (the host's)
    assert any(isinstance(e, ev.Declared) and e.figure == fid and e.stance == SECRET for e in screen.battle.events)


def test_the_screen_sends_from_its_seat_and_the_door_refuses_another_sides_decision(app: App) -> None:
    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    d = screen.decision()
    assert d is not None and d.figure is not None
    other = next(f for f in screen.battle.figures.values() if f.side != d.side)
    before = len(screen.battle.log)
    assert not screen.send(act.Hold(d.figure), Seat.of_side(other.side))
    assert "its own side" in screen.status and len(screen.battle.log) == before
    assert screen.send(act.Hold(d.figure))  # from the seat at the screen: the deciding side's
    assert len(screen.battle.log) == before + 1


def test_fudge_4_32_a_computers_turn_during_the_tabletops_motion_leaves_the_screen_at_the_players_seat(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the computer, the computer waits for the tabletop's motion (a token moving, the dice shown) before
    it decides. Meanwhile the screen stays at the human player's seat: it never draws the computer's view (its
    secret declarations), and the player's next decision goes from their own seat, not refused as the
    computer's."""
    human, computer = list(all_human())
    controllers = {human: "human", computer: "tactical"}
    screen = open_battle(app, controllers=controllers, options=RuleOptions(secret_stances=True))
    for _ in range(80):
        d = screen.decision()
        assert d is not None
        if d.side == computer:
            break
        assert screen.send(do_little(d))
    else:
        raise AssertionError("the computer never came to decide")
    assert screen.seat == Seat.of_side(human)
    monkeypatch.setattr(type(screen.tabletop), "active", property(lambda _: True))
    for _ in range(3):
        screen.update(0.5)
    assert screen.decision() == d, "the computer waits for the motion"
    assert screen.seat == Seat.of_side(human)


def test_hotseat_an_extra_enter_before_the_screen_passes_to_the_next_side_decides_nothing(app: App) -> None:
    """Hotseat with secret stances: a declaration hands the battle to the other side. Until the screen has passed
    to that side's player (behind the curtain), it has no decision to take: an Enter pressed in between (a double
    press) sends nothing from the last player's seat (it was refused as "a seat decides only for its own side"),
    and the curtain comes next."""
    screen = open_battle(app, controllers=all_human(), options=RuleOptions(secret_stances=True))
    for _ in range(120):
        lift_curtain(app)
        d = screen.my_decision()
        assert d is not None
        seat = screen.seat
        assert screen.send(do_little(d))
        after = screen.decision()
        if d.reason == "declare" and after is not None and after.side != d.side and after.reason == "declare":
            break
    else:
        raise AssertionError("no declaration ever passed the battle to the other side")
    assert screen.seat == seat and screen.my_decision() is None, "the screen is still the last player's"
    before = len(screen.battle.log)
    key(app, pygame.K_RETURN)
    assert "its own side" not in screen.status and not screen.status_error
    assert len(screen.battle.log) == before
    assert isinstance(app.top, CurtainScreen), "the curtain comes before the next side decides"
