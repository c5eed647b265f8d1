"""The battle screen under load, for the frame benchmark (``main.py bench``): many figures, both sides
human, the mouse over a reachable hex so every overlay is drawn."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.engine.battle import Battle
from game.engine.rule_options import RuleOptions
from game.ui.battle.screen import BattleScreen
from game.ui.screen import Pop, UiContext


def bench_screen(
    ui: UiContext,
    map_path: str | Path,
    *,
    figures: int = 40,
    seed: int = 1,
    size: tuple[int, int] = (1280, 720),
    options: RuleOptions | None = None,
) -> BattleScreen:
    """A battle screen for the frame benchmark: ``figures`` figures (the map roster's characters,
    repeated) on ``map_path``, both sides human, laid out for ``size``, the mouse over a hex the moving
    figure can reach (reachable bands, path preview and zones of control drawn), played under ``options``
    (None: FTC as written; ``bench --rules``). Call ``bench_frame``."""
    from game.engine.battle import BattleSetup as EngineSetup
    from game.engine.battle import FigureSetup, SideSetup
    from game.session import Session, new_session

    base = new_session(map_path, seed=seed, autosave=False)
    b0 = base.battle
    chars = [f.character for f in b0.figures.values()]
    sides = tuple(SideSetup(s.id, s.name, s.colour, "human") for s in b0.sides.values())
    terrain = b0.terrain
    free = [
        terrain.hex_at(c, r)
        for r in range(terrain.height)
        for c in range(terrain.width)
        if terrain.is_passable(terrain.hex_at(c, r))
    ]
    step = max(1, len(free) // (figures + 1))
    placed = []
    for i in range(figures):
        side = sides[i % len(sides)]
        placed.append(
            FigureSetup(f"b{i}", f"Figure {i}", side.id, chars[i % len(chars)], free[(i + 1) * step], 3 * (i % 2))
        )
    rules = RuleOptions() if options is None else options
    battle = Battle(EngineSetup(terrain, sides, tuple(placed), rules, seed=seed, title="bench"))
    session = Session(battle, {**base.setup_data, "title": "bench"}, base.loaded, autosave=None)
    screen = BattleScreen(ui, session, lambda: Pop())
    screen.last_human_side = None
    screen.on_enter(size)
    d = battle.decision()
    if d is not None and d.figure is not None:
        screen.focus.fit(d)
        reach = screen.model.reach(d.figure)
        cam = screen.board.camera
        visible = [h for h in reach.hexes() if cam.in_view(*cam.hex_to_screen(h))]
        if visible:
            screen.selection.hover = max(visible, key=reach.cost)
        screen.selection.figure = d.figure
    screen.invalidate()
    return screen


def bench_frame(surface: pygame.Surface, battle_screen: BattleScreen) -> None:
    """Draw one full battle frame (board, overlays, tracker, sheet, log, decision panel) into ``surface``."""
    battle_screen.draw(surface)
