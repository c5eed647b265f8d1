"""Timing helpers of ``python main.py bench`` and its frames of the real battle screen.

``screen_frames`` measures what ``game.bench``'s docstring describes for ``frame_ms_median``: the bench
battle played forward to a movement or an archer's declaration, the mouse gliding over the board, and (the
animated case) a figure gliding and a missile in flight in every frame. ``game.bench`` imports these.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from game.ui.battle.screen import BattleScreen

SCREEN = (1280, 720)
"""The window size every frame is measured at."""


def times(fn: Callable[[], object], reps: int, warmup: int = 3) -> list[float]:
    """Seconds per call of ``fn``, ``reps`` calls after ``warmup`` calls; the collector stays out of it."""
    for _ in range(warmup):
        fn()
    out: list[float] = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    finally:
        if enabled:
            gc.enable()
    return out


def median(xs: Sequence[float]) -> float:
    """The median of ``xs``."""
    return float(statistics.median(xs))


def p99(xs: Sequence[float]) -> float:
    """The 99th percentile of ``xs``."""
    return float(np.percentile(np.asarray(xs), 99))


def pygame_ready() -> Any:
    """pygame with a 1280 x 720 display on SDL's dummy driver (set before pygame is imported)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.get_init():
        pygame.init()
    current = pygame.display.get_surface()
    if current is None or current.get_size() != SCREEN:
        pygame.display.set_mode(SCREEN)
    return pygame


def _advance(screen: BattleScreen, until: Callable[[Any], bool], limit: int = 2000) -> None:
    """Play the bench battle forward with plain choices (stay, pass, defend only, no) until ``until``."""
    from game.engine import actions as act
    from game.engine.battle import Seat

    battle = screen.battle
    for _ in range(limit):
        d = battle.decision()
        if d is None or until(d):
            break
        fid = d.figure or ""
        choice: Any = {
            "move": act.Move(fid, ()),
            "held_end": act.Move(fid, ()),
            "interrupt": act.PassInterrupt(d.side),
            "declare": act.Declare(fid),
            "stop": act.StopChoice(fid, False),
            "escape_failed": act.EscapeFailedChoice(fid, False),
            "follow": act.FollowChoice(fid, None),
        }.get(d.reason)
        if choice is None or not screen.send(choice, Seat.of_side(d.side)):
            raise RuntimeError(f"the bench battle cannot go on from a {d.reason!r} decision")
    for _ in range(3):
        screen.update(1000.0)  # the log catches up at once


def _archer_declares(screen: BattleScreen) -> Callable[[Any], bool]:
    """A stop test: the declaring figure has a missile weapon and an enemy to shoot at."""

    def test(d: Any) -> bool:
        if d.reason != "declare":
            return False
        fig = screen.battle.figure(d.figure)
        ranged = [w for w in fig.character.weapons if w.ranged]
        if not ranged:
            return False
        screen.model.ensure_decl(d)
        screen.model.decl.weapon = ranged[0].name
        return bool(screen.model.targets())

    return test


def _in_flight(screen: BattleScreen, shooter: str) -> Callable[[], None]:
    """For the animated case: a call that keeps a figure gliding (two hexes into the hex it stands on) and
    the shooter's missile flying at its target in every frame, fed to the screen's animation timeline as
    the battle's own events would be (the battle itself is not touched)."""
    from game.engine import events as ev
    from game.engine.hexgrid import neighbor
    from game.ui.animation import Glide, Missile

    battle = screen.battle
    tabletop = getattr(screen, "tabletop", None)
    if tabletop is None:
        return lambda: None
    timeline = tabletop.timeline
    cam = screen.board.camera
    target = (screen.model.targets() or [shooter])[0]
    shown = [
        f
        for f in battle.figures.values()
        if f.id not in (shooter, target) and f.size == 1 and cam.in_view(*cam.hex_to_screen(f.hex))
    ]
    mover = min(shown or list(battle.figures.values()), key=lambda f: f.id)
    back = (mover.facing + 3) % 6
    path = (neighbor(neighbor(mover.hex, back), back), neighbor(mover.hex, back), mover.hex)
    moved = ev.Moved(mover.id, path, mover.facing, 2, 2)
    shot = ev.AttackResolved(shooter, target, "Longbow", 1, 0, (), 1, 0, (), (), 0, True, 1)

    def keep() -> None:
        # fed a frame before the last one ends, so the glider never drops back into the board's still layer
        soon = timeline.now + 2 / 60 * max(0.1, screen.ui.settings.animation_speed)
        live = {type(i) for i in timeline.items if i.start <= timeline.now and i.end > soon}
        wanted = [e for e, kind in ((moved, Glide), (shot, Missile)) if kind not in live]
        now = timeline.now
        if wanted:
            timeline.cursor = now  # both at once, not one after the other
            timeline.feed(wanted, screen.tokens())

    return keep


def mouse_route(points: Sequence[tuple[float, float]], frames: int, speed: float = 7.0) -> list[tuple[int, int]]:
    """Mouse positions frame by frame, gliding ``speed`` pixels per frame from point to point."""
    out: list[tuple[int, int]] = []
    i = 0
    x, y = points[0]
    while len(out) < frames:
        tx, ty = points[(i + 1) % len(points)]
        dist = max(1e-9, ((tx - x) ** 2 + (ty - y) ** 2) ** 0.5)
        if dist <= speed:
            x, y = tx, ty
            i += 1
        else:
            x, y = x + (tx - x) * speed / dist, y + (ty - y) * speed / dist
        out.append((round(x), round(y)))
    return out


def screen_frames(ui: Any, map_path: Path, phase: str, count: int, options: Any = None) -> tuple[list[float], str]:
    """Seconds per frame of the real battle screen (see the module docstring), and what the frames held; its
    battle played under the rule ``options`` (None: FTC as written)."""
    import random

    import pygame

    from game.ui.battle_screen import bench_frame, bench_screen

    surface = pygame.display.get_surface()
    assert surface is not None, "the display is set up by pygame_ready"
    screen = bench_screen(ui, map_path, figures=40, options=options)
    battle = screen.battle
    if phase in ("declare", "animated"):
        _advance(screen, _archer_declares(screen))
        screen.cmd_cycle_target()
    else:
        # a round of stays and declarations first, so the log is as full as in a battle under way
        _advance(screen, lambda d: d.reason == "declare")
        _advance(screen, lambda d: d.reason == "move")
    d = battle.decision()
    if d is None or d.figure is None or d.reason != ("move" if phase == "move" else "declare"):
        raise RuntimeError(f"the bench battle did not reach a {phase} decision")
    figure: str = d.figure
    cam = screen.board.camera
    cam.fit()
    screen._view = None
    rng = random.Random(6)
    if phase == "move":
        hexes = sorted(screen.model.reach(figure).hexes(), key=lambda h: (h.q, h.r))
    else:
        t = battle.terrain
        hexes = [t.hex_at(rng.randrange(t.width), rng.randrange(t.height)) for _ in range(60)]
    points = [cam.hex_to_screen(h) for h in hexes]
    points = [p for p in points if cam.in_view(*p)]
    rng.shuffle(points)
    route = mouse_route(points, count + 20)
    state = {"i": 0, "hex_changes": 0}
    in_flight = _in_flight(screen, figure) if phase == "animated" else None

    def one() -> None:
        i = state["i"]
        state["i"] += 1
        if in_flight is not None:
            in_flight()
        if phase == "declare" and i % 40 == 39:
            screen.cmd_cycle_target()
        before = screen.selection.hover
        x, y = route[i % len(route)]
        screen.on_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 0), buttons=(0, 0, 0)))
        screen.update(1 / 60)
        bench_frame(surface, screen)
        state["hex_changes"] += screen.selection.hover != before

    seconds = times(one, count, warmup=20)
    changes = state["hex_changes"]
    reach = screen.model.reach(figure) if phase == "move" else None
    view = screen.board_view()
    if phase == "move":
        what = (
            f"move: {map_path.name} ({battle.terrain.width}x{battle.terrain.height}) at zoom {cam.zoom}, "
            f"{len(battle.figures)} figures, {len(reach.hexes()) if reach else 0} reachable hexes, log "
            f"{len(screen.log.items)} lines, hovered hex changed in {changes} of {count + 20} frames"
        )
    elif phase == "animated":
        what = (
            f"animated: {battle.figure(figure).name}'s declaration with a figure gliding and a missile in "
            f"flight in every measured frame (animation speed {screen.ui.settings.animation_speed:g})"
        )
    else:
        lof = view.line_of_fire
        what = (
            f"declare: {battle.figure(figure).name}'s {screen.model.decl.weapon}, line of fire with "
            f"{len(lof.marks) if lof else 0} marks, {len(view.fills)} range and target fills, odds "
            f"recomputed every 40 frames, hovered hex changed in {changes} of {count + 20} frames"
        )
    return seconds, what
