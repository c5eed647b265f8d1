"""The Fudge Point question on the battle screen (*Fudge* 4.64; docs/playing.md "Heroes and Fudge Points"): in a
hotseat battle the hero's side is asked on the decision panel (S spends, K keeps), F cycles a hero's standing
order, the sheet and the hover inspector show a hero's role and pool, and the GM's panel lists every hero's pool
and sets one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame

from game.engine import actions as act
from game.engine.battle import Reason, RuleOptions, Seat, apply
from game.engine.players import make_player
from game.session import Session, new_session
from game.ui.app import App
from game.ui.battle.sheet import fudge_line, wounds_line
from game.ui.battle_screen import BattleScreen
from tests.ui.test_battle_screen import lift_curtain

ROOT = Path(__file__).resolve().parents[2]
ASKED = RuleOptions(pc_death_fudge_point=True, fudge_points_default=3)


def _asked(gm: str | None = None) -> Session:
    """A hotseat battle on a shipped map, played by the computer for both sides up to a hero's question."""
    session = new_session(
        ROOT / "maps" / "forest_road.tmx",
        seed=2,
        controllers={"blue": "human", "red": "human"},
        options=ASKED,
        autosave=False,
        gm=gm,
    )
    b = session.battle
    for fig in b.figures.values():
        if fig.is_hero:
            apply(b, act.SetFudgePointOrder(fig.id, "ask"), Seat.of_side(fig.side))
    players = {side: make_player("tactical", i + 1) for i, side in enumerate(b.sides)}
    while (d := b.decision()) is not None and d.reason != Reason.FUDGE_POINT:
        apply(b, players[d.side](b, d), Seat.of_side(d.side))
    assert d is not None, "no hero was asked in this battle: choose a bloodier seed"
    return session


def _press(screen: BattleScreen, key: int, char: str) -> None:
    screen.on_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char))


def test_fudge_4_64_the_heroes_side_is_asked_on_the_panel_and_s_spends(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    app = App(config=tmp_path / "cfg")
    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)  # no waiting on the log
    session = _asked()
    screen = BattleScreen(app.ui, session, lambda: None)
    app.push(screen)
    app.pump()
    app.draw()
    d = screen.my_decision()
    assert d is not None and d.reason == Reason.FUDGE_POINT and d.figure is not None
    hero = session.battle.figures[d.figure]
    left = hero.fudge_points
    labels = [b.text for b in screen.buttons]
    assert "Spend (S)" in labels and "Keep (K)" in labels
    assert fudge_line(session.battle.options, hero) == f"Fudge Points {left}, ask first (F)"
    screen.selection.hover = hero.hex  # the hover inspector shows the pool to every seat
    assert (f"Fudge Points {left}", "ask first") == tuple(
        next(line for line, _ in screen.inspector.lines() if line.startswith("Fudge Points")).split(", ")
    )
    _press(screen, pygame.K_s, "s")
    assert isinstance(session.battle.log[-1], act.SpendFudgePoint) and session.battle.log[-1].spend
    assert hero.fudge_points == left - 1
    assert "Incapacitated" in wounds_line(hero)


def test_fudge_4_64_k_keeps_the_points_and_f_cycles_a_heroes_order(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    app = App(config=tmp_path / "cfg")
    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)  # no waiting on the log
    session = _asked()
    screen = BattleScreen(app.ui, session, lambda: None)
    d = screen.my_decision()
    assert d is not None and d.figure is not None
    hero = session.battle.figures[d.figure]
    left = hero.fudge_points
    _press(screen, pygame.K_k, "k")
    assert hero.fudge_points == left and not session.battle.log[-1].spend  # type: ignore[attr-defined]
    app.push(screen)
    app.pump()
    lift_curtain(app)
    d = screen.my_decision()
    assert d is not None and d.reason != Reason.FUDGE_POINT
    mine = next(f for f in session.battle.figures.values() if f.side == d.side and f.is_hero and f.can_act)
    screen.selection.figure = mine.id
    _press(screen, pygame.K_f, "f")
    assert mine.fudge_order == "never"  # ask -> never
    _press(screen, pygame.K_f, "f")
    assert mine.fudge_order == "always"
    theirs = next(f for f in session.battle.figures.values() if f.side != d.side)
    screen.selection.figure = theirs.id
    before = theirs.fudge_order
    _press(screen, pygame.K_f, "f")
    assert theirs.fudge_order == before  # never an opponent's


def test_fudge_4_64_the_gms_panel_lists_the_pools_and_sets_one(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.ui.gm_panel import GMPanel

    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    app = App(config=tmp_path / "cfg")
    app.ui.settings = replace(app.ui.settings, animation_speed=0.0)  # no waiting on the log
    session = _asked(gm="referee")
    screen = BattleScreen(app.ui, session, lambda: None)
    panel = GMPanel(app.ui, screen, lambda: None)
    hero = next(f for f in session.battle.figures.values() if f.is_hero)
    panel.figure = hero.id
    panel.on_resize(pygame.display.get_surface().get_size())
    before = hero.fudge_points
    row_y = next(y for title, y in panel.rows if title == "Fudge Pts")
    plus = next(b for b in panel.buttons if b.text == "+" and b.rect.y == row_y)
    plus.action()
    assert hero.fudge_points == before + 1
    notes = " ".join(text for text, _ in panel.notes)
    others = [f for f in session.battle.figures.values() if f.is_hero and f.id != hero.id]
    assert notes.count("others: ") == 1 and all(f"{f.name} {f.fudge_points}" in notes for f in others)


def test_the_summary_cards_say_a_heroes_role_fudge_points_and_will() -> None:
    from game.ui.summary_screen import card_notes

    fig = {"role": "Hero", "fudge_points": {"start": 3, "left": 1}, "will": "fought on Incapacitated"}
    assert card_notes(fig) == "Hero · Fudge Points 3 → 1 · Will: fought on Incapacitated"
    assert card_notes({"name": "a pawn under FTC as written"}) == ""
