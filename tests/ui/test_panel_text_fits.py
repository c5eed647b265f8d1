"""Text of the declaration panel and the GM's panel stays inside them, and a cut says it was cut.

The declaration panel lists the figures a miss may hit (FTC 6.5.3) under the odds; in a small window those
notes may not all fit, and the last line shown then ends with "…" instead of stopping mid-sentence. The
GM's panel names the chosen figure and its side on one button, whole at the default scale.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame

from game.engine.generator import LEGACY_DICE
from game.engine.players import make_player
from game.session import new_session
from game.ui.app import App
from game.ui.battle.declaration import bystander_notes
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.gm_panel import STANDING_NONE
from tests.ui.conftest import click, key
from tests.ui.test_gm_panel import button, open_as_referee

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"


def test_ftc_6_5_3_bystanders_grouped_friends_then_enemies() -> None:
    """One note for the friends and one for the enemies on the line of fire, each naming its figures."""
    notes = bystander_notes([("Tam", True, 0.12), ("Cutter", False, 0.05), ("Will", True, 0.5)])
    assert len(notes) == 2
    assert notes[0].startswith("friends hit by a miss: Tam ")
    assert "Will " in notes[0] and "Cutter" not in notes[0]
    assert notes[1].startswith("enemy hit by a miss: Cutter ")
    assert bystander_notes([]) == []


def _painted(app: App) -> list[tuple[str, int, int]]:
    """Every string the text cache blits while the app draws one frame: (text, left, right)."""
    seen: list[tuple[str, int, int]] = []
    text = app.ui.text
    original = text.blit

    def spy(surf: pygame.Surface, s: str, pos: tuple[int, int], size: int, *args: Any, **kw: Any) -> Any:
        seen.append((s, pos[0], pos[0] + text.width(s, size, bool(kw.get("bold", False)))))
        return original(surf, s, pos, size, *args, **kw)

    text.blit = spy  # type: ignore[method-assign,assignment]
    try:
        app.dirty = True
        app.draw()
    finally:
        text.blit = original  # type: ignore[method-assign,assignment]
    return seen


def test_declaration_notes_fit_the_panel_and_a_cut_ends_with_ellipsis(app: App) -> None:
    """1024×640 at 125 %: Mags (village, seed 3) declares on Red Ulric past three friends; the line-of-fire
    notes stay inside the panel, and when they do not all fit the last one shown ends with "…"."""
    app.ui.settings = replace(app.ui.settings, ui_scale=1.25, animation_speed=0.0)
    app.ui.text.scale = 1.25
    pygame.display.set_mode((1024, 640))
    session = new_session(VILLAGE, seed=3, controllers={"blue": "human", "red": "human"}, dice=LEGACY_DICE)
    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    player = make_player("tactical", 3)
    for _ in range(200):
        app.pump()
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
            continue
        d = screen.battle.decision()
        assert d is not None
        if d.reason == "declare" and d.side == "blue":
            screen.model.ensure_decl(d)
            if screen.model.targets():
                break
        screen.send(player(screen.battle, d))
    if screen.model.decl.target is None:
        screen.declaration.cycle_target()
    pv = screen.model.attack_preview()
    assert pv is not None and len(pv.bystanders) >= 3
    painted = _painted(app)
    first = next((i for i, p in enumerate(painted) if "hit by a miss" in p[0]), None)
    assert first is not None, "the line-of-fire notes are painted"
    notes = [p for p in painted[first:] if p[1] == painted[first][1]]  # the notes' lines, wrapped in their column
    panel_right = screen.panel_rect(screen.my_decision()).right
    for s, _, right in notes:
        assert right <= panel_right, s
    names = [app.top.battle.figure(b.figure).name for b in pv.bystanders]  # type: ignore[attr-defined]
    shown = " ".join(s for s, _, _ in notes)
    assert all(n in shown for n in names) or notes[-1][0].endswith("…")


def test_gm_panel_names_the_figure_whole_and_says_when_nothing_stands(app: App) -> None:
    """At the default scale the figure button shows "Sergeant Osric (Harrowby Militia)" uncut, and the
    Standing row says there is nothing to lift rather than stay blank; a modifier then gets its Lift button."""
    _screen, panel = open_as_referee(app)
    who = next(b for b in panel.buttons if "(" in b.text)
    village = "Sergeant Osric (Harrowby Militia)"  # the village map's longest figure and side
    assert app.ui.text.fit(village, who.size, who.rect.width - 8, True) == village
    assert any(note == STANDING_NONE for note, _ in panel.notes)
    click(app, button(panel, "Give").rect.center)
    assert not any(note == STANDING_NONE for note, _ in panel.notes)
    assert any(b.text.startswith("Lift ") for b in panel.buttons)
