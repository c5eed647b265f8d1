"""``python main.py bench [--quick] [--json] [--rules R]``: the figures players and GMs feel, against targets.

Every figure is measured repeatedly in this one process after a warm-up, with ``time.perf_counter``; the
table reports medians (and the 99th percentile of the frame). The ground is a generated 200 x 200 hex map
with three tile layers, written as a Tiled file into a temporary folder and read back through the map
loader, plus the largest map that ships in ``maps/``. What each key measures, exactly:

- ``frame_ms_median`` / ``frame_ms_p99``: one frame of the real battle screen at 1280 x 720 on SDL's dummy
  video driver (``game.ui.battle_screen.bench_screen`` / ``bench_frame``, the UI made by ``App``): the largest
  shipped map fitted to the board (zoomed out), 40 figures, the initiative tracker, the sheet and a log
  that has filled up over a round. A frame is everything the game loop does for it: one mouse-motion event
  handled by the screen, ``update``, and ``draw`` into the display surface (``display.flip`` left out: on
  the dummy driver it copies nothing). The mouse glides a few pixels per frame, so the hovered hex changes
  every few frames as a hand moves it, and every frame on a new hex redraws what follows the mouse. A third
  of the frames are in a movement decision (reachable hexes in bands with escape odds, the path preview and
  its cost line following the mouse over reachable hexes, the hover inspector); a third in an archer's
  declaration (range bands, the line of fire to the target with its marks, the odds panel, the target
  cycled with T every 40 frames so the odds and the line are recomputed). The screen never shows a path
  and a line of fire at once, so these together are the frame a player feels. The last third (the animated
  case) are the archer's declaration again with animations running: in every measured frame a figure
  glides along a path and the archer's missile is in flight along the line of fire
  (``game.ui.animation``), so the frame with motion is held to the same targets.
- ``reachable_ms``: ``movement.reachable`` for one figure with allowance 8, facing costs and the zones of
  control of 60 enemies around it (zones and occupied sets built as ``Battle.reach_for`` does, the
  highlight set and the path to one far hex included).
- ``reachable_vs_networkx``: ``networkx.single_source_dijkstra`` over (hex, facing) states of the same
  hexes, with the same step costs, cut off at the same allowance, divided by our search (``reachable``
  alone). networkx is a development dependency: without it the key is null.
- ``lof_all_pairs_ms``: ``lof.lines_of_fire`` for every ordered pair of 40 figures (1560 lines) with
  blocking, partial cover and bystanders, on the generated map among woods.
- ``odds_ms``: ``odds.outcome_distribution`` of one attack with two other engaged opponents, location
  choice and the Health roll, its cache of whole answers cleared before every call (an attack not priced
  before; the spreads of the blow's way stay kept, as in a battle).
- ``map_load_s``: the generated 200 x 200 three-layer map from disk to a drawable board the game's way:
  ``game.ui.mapdata.open_map`` (loader + the Tiled art as a lazily drawn chunk source) and a ``Board`` with
  the chunks of the first view drawn at zoom 1, in a child process.
- ``startup_s``: wall time of a fresh ``python main.py --frames 1`` (or, while main.py lacks ``--frames``,
  of a fresh interpreter that imports the UI, opens the largest map and draws one board frame).
- ``ai_decision_s`` / ``sim_rounds_per_s``: headless battles of 10 against 10 tactical computer players on
  the generated map; the slowest single decision, and completed rounds per second of whole battles.
- ``sim_rounds_per_s_50v50``: the same for battles of 50 against 50 tactical players on the generated map
  (the two armies a few hexes apart, as the veteran's 50 against 50): completed rounds per second, every
  decision and its application counted.
- ``net_rtt_ms``: a decision sent by a client to a host on 127.0.0.1 and its step back, the median over a
  battle's decisions (``game.net.benchnet.rtt_ms``).
- ``net_rtt_under_flood_ms``: the same while three more clients ask for the whole battle (``sync``) just
  under the rate limit, each as often as what its answers cost allows (``game.net.benchnet.rtt_under_flood_ms``).
- ``net_eight_clients_frame_ms``: the battle screen's frame measured as for ``frame_ms_median`` (its
  movement half), while this process also hosts a table in a thread with eight clients connected from a
  child process and the host's computer playing both sides, every step sent to all eight
  (``game.net.benchnet.busy_table``): the network work a host's window shares its process with.
- ``save_decode_ms``: reading and strictly decoding a 2,000-decision save before its replay
  (``game.bench_save``).
- ``--rules R`` (a preset or a rules file, docs/playing.md "Rules files"): the battles (``ai_decision_s``,
  ``sim_rounds_per_s``, the veteran's keys), the battle screen's frames and ``odds_ms`` are played and computed
  under those rule options, so the targets can be checked with every option on.
- ``peak_rss_mb``: ``getrusage(RUSAGE_SELF).ru_maxrss`` at the end, or the map-load child's if larger (a
  game holds its map in its one process); the startup child is reported apart.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from game.bench_screen import SCREEN as SCREEN
from game.bench_screen import median as _median
from game.bench_screen import p99 as _p99
from game.bench_screen import pygame_ready as _pygame_ready
from game.bench_screen import screen_frames as _screen_frames
from game.bench_screen import times as _times

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"

KEYS: tuple[str, ...] = (
    "frame_ms_median",
    "frame_ms_p99",
    "frame_over_blit",
    "reachable_ms",
    "reachable_vs_networkx",
    "lof_all_pairs_ms",
    "odds_ms",
    "map_load_s",
    "startup_s",
    "ai_decision_s",
    "sim_rounds_per_s",
    "sim_rounds_per_s_50v50",
    "ai_veteran_decision_ms_median",
    "ai_veteran_decision_ms_p99",
    "ai_veteran_decision_ms_median_50v50",
    "ai_veteran_decision_ms_p99_50v50",
    "peak_rss_mb",
    "net_rtt_ms",
    "net_rtt_under_flood_ms",
    "net_eight_clients_frame_ms",
    "save_decode_ms",
)
"""The keys of ``--json``, exactly."""

TARGETS: dict[str, tuple[str, float]] = {
    "frame_ms_median": ("<=", 4),
    "frame_ms_p99": ("<=", 8),
    "frame_over_blit": ("<=", 8),
    "reachable_ms": ("<=", 1),
    "reachable_vs_networkx": (">=", 5),
    "lof_all_pairs_ms": ("<=", 10),
    "odds_ms": ("<=", 0.5),
    "map_load_s": ("<=", 0.5),
    "startup_s": ("<=", 1.5),
    "ai_decision_s": ("<=", 1),
    "sim_rounds_per_s": (">=", 20),
    "sim_rounds_per_s_50v50": (">=", 10),
    "ai_veteran_decision_ms_median": ("<=", 100),
    "ai_veteran_decision_ms_p99": ("<=", 1000),
    "ai_veteran_decision_ms_median_50v50": ("<=", 100),
    "ai_veteran_decision_ms_p99_50v50": ("<=", 1000),
    "peak_rss_mb": ("<=", 250),
    "net_rtt_ms": ("<=", 5),
    "net_rtt_under_flood_ms": ("<=", 20),
    "net_eight_clients_frame_ms": ("<=", 4),
    "save_decode_ms": ("<=", 50),
}
"""Targets for a 2-core machine without GPU."""


@dataclass(frozen=True)
class Battles:
    """Whole battles of tactical players on the generated map: figures a side, and at least this many battles
    and seconds of them (``Bench._tactical_battles``)."""

    side: int
    battles: int
    seconds: float


@dataclass(frozen=True)
class Plan:
    """How much to repeat: every default is the full run; ``--quick``, for tests, asks less of each."""

    frames: int = 400
    reach_reps: int = 300
    lof_reps: int = 40
    odds_reps: int = 300
    load_reps: int = 3
    battles: Battles = Battles(10, 6, 8.0)
    """``ai_decision_s`` and ``sim_rounds_per_s``."""
    load_side: int = 200
    veteran_decisions: int = 400
    """Decisions timed per veteran battle (the largest shipped battle, and ``big``'s side against as many)."""
    big: Battles = Battles(50, 2, 8.0)
    """The battles of a hundred (``sim_rounds_per_s_50v50``); the veteran's large battle has their side too."""


FULL = Plan()
QUICK = Plan(
    frames=20,
    reach_reps=20,
    lof_reps=3,
    odds_reps=20,
    load_reps=1,
    battles=Battles(3, 1, 0.5),
    load_side=60,
    veteran_decisions=12,
    big=Battles(6, 1, 0.5),
)
"""``--quick`` only checks that every figure runs: its battle is 3 against 3 and its map-load map 60 x 60."""


# --------------------------------------------------------------------------------------------------
# the generated 200 x 200 map, as a Tiled file with three layers
# --------------------------------------------------------------------------------------------------

# Tile ids of the shipped flat-top tileset (maps/terrain_flat.tsx) by what they are.
_GRASS, _DIRT, _ROUGH, _MUD = (0, 1, 2), 3, 5, 8
_DEEP_WATER, _TREES, _WOODS, _BRUSH, _BOULDERS, _WALL, _RUBBLE = 11, 20, 22, 23, 24, 26, 25


def _field(rng: np.random.Generator, h: int, w: int, passes: int = 4) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Smooth noise in [0, 1]: random values blurred a few times, so terrain comes in patches."""
    a = rng.random((h, w))
    for _ in range(passes):
        a = (a + np.roll(a, 1, 0) + np.roll(a, -1, 0) + np.roll(a, 1, 1) + np.roll(a, -1, 1)) / 5
    lo, hi = float(a.min()), float(a.max())
    return (a - lo) / (hi - lo)


def generated_layers(width: int = 200, height: int = 200, seed: int = 6) -> list[tuple[str, np.ndarray[Any, Any]]]:
    """Three tile layers (ground, features, details) of tile ids + 1 (0 = empty), in patches."""
    rng = np.random.default_rng(seed)
    ground = np.asarray(_GRASS, dtype=np.uint32)[rng.integers(0, 3, (height, width))]
    soil = _field(rng, height, width)
    ground[soil > 0.75] = _DIRT
    ground[soil < 0.2] = _ROUGH
    ground[(soil > 0.2) & (soil < 0.24)] = _MUD
    feat = np.full((height, width), -1, dtype=np.int64)
    wood = _field(rng, height, width)
    feat[wood > 0.68] = _TREES
    feat[wood > 0.78] = _WOODS
    water = _field(rng, height, width)
    feat[water > 0.86] = _DEEP_WATER
    # short wall lines every so often: sight blockers with edges and corners for the line of fire
    rows, cols = np.indices((height, width))
    walls = ((rows % 23 == 7) & (cols % 17 < 5)) | ((cols % 29 == 11) & (rows % 19 < 4))
    feat[walls & (feat < 0)] = _WALL
    details = np.full((height, width), -1, dtype=np.int64)
    spots = rng.random((height, width))
    details[(spots < 0.03) & (feat < 0)] = _BRUSH
    details[(spots > 0.985) & (feat < 0)] = _BOULDERS
    details[(spots > 0.5) & (spots < 0.51) & (feat < 0)] = _RUBBLE
    return [
        ("ground", ground.astype(np.uint32) + 1),
        ("features", (feat + 1).astype(np.uint32)),
        ("details", (details + 1).astype(np.uint32)),
    ]


def write_generated_map(folder: Path, width: int = 200, height: int = 200, seed: int = 6) -> Path:
    """Write a ``width`` x ``height`` flat-top Tiled map with three zlib layers and the shipped tileset."""
    shutil.copy(MAPS / "terrain_flat.tsx", folder / "terrain_flat.tsx")
    (folder / "tiles").mkdir(exist_ok=True)
    shutil.copy(MAPS / "tiles" / "terrain_flat.png", folder / "tiles" / "terrain_flat.png")
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="74" tileheight="64" infinite="0" hexsidelength="36" '
        f'staggeraxis="x" staggerindex="even" nextlayerid="4" nextobjectid="1">',
        ' <properties><property name="name" value="Benchmark field"/></properties>',
        ' <tileset firstgid="1" source="terrain_flat.tsx"/>',
    ]
    for i, (name, gids) in enumerate(generated_layers(width, height, seed), start=1):
        data = base64.b64encode(zlib.compress(gids.astype("<u4").tobytes())).decode("ascii")
        parts.append(f' <layer id="{i}" name="{name}" width="{width}" height="{height}">')
        parts.append(f'  <data encoding="base64" compression="zlib">{data}</data>')
        parts.append(" </layer>")
    parts.append("</map>")
    path = folder / f"bench_{width}x{height}.tmx"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def largest_shipped_map() -> Path:
    """The shipped map with the most cells (ties: by name)."""
    from game.maps.tmx import read_tmx

    best: tuple[int, str, Path] | None = None
    for p in sorted(MAPS.glob("*.tmx")):
        m = read_tmx(p)
        key = (m.width * m.height, p.name, p)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is None:
        raise FileNotFoundError(f"no .tmx map in {MAPS}; run maps/make_maps.py")
    return best[2]


# --------------------------------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------------------------------


def _characters() -> list[Any]:
    from game.engine.characters import Character

    return [
        Character.from_dict(
            {
                "name": "Knight",
                "strength": "Good",
                "skills": {"Sword": "Great", "Shield": "Good"},
                "weapons": ["Broadsword"],
                "armour": ["Chain Mail", "Metal Cap"],
                "shield": "Medium Shield",
            }
        ),
        Character.from_dict(
            {
                "name": "Archer",
                "skills": {"Bow": "Good", "Knife": "Fair"},
                "weapons": ["Shortbow", "Large Knife"],
                "armour": ["Leather"],
            }
        ),
        Character.from_dict(
            {"name": "Brigand", "skills": {"Axe": "Good"}, "weapons": ["Hand Axe"], "armour": ["Leather"]}
        ),
    ]


def _free_hexes_near(terrain: Any, centre: Any, count: int, spacing: int, seed: int) -> list[Any]:
    """``count`` passable hexes around ``centre``, at least ``spacing`` apart, nearest first then random."""
    import random

    from game.engine.hexgrid import distance, within

    rng = random.Random(seed)
    radius = 2
    while True:
        cand = [h for h in within(centre, radius) if terrain.contains(h) and terrain.is_passable(h)]
        rng.shuffle(cand)
        chosen: list[Any] = []
        for h in cand:
            if all(distance(h, c) >= spacing for c in chosen):
                chosen.append(h)
                if len(chosen) == count:
                    return chosen
        radius += 2


def _battle_of(terrain: Any, n: int, columns: tuple[int, int], seeds: tuple[int, int], options: Any, seed: int) -> Any:
    """A battle of ``n`` against ``n`` on the generated map ``terrain``: blue (facing 0) around column
    ``columns[0]`` of row 100 and red (facing 3) around ``columns[1]``, their hexes drawn with ``seeds``; the
    figures are ``_characters`` in turn; ``seed`` is the battle's."""
    from game.engine.battle import Battle, BattleSetup, FigureSetup, SideSetup

    chars = _characters()
    blue = _free_hexes_near(terrain, terrain.hex_at(columns[0], 100), n, 2, seed=seeds[0])
    red = _free_hexes_near(terrain, terrain.hex_at(columns[1], 100), 2 * n, 2, seed=seeds[1])
    red = [h for h in red if h not in blue][:n]
    figs = [FigureSetup(f"b{i}", f"Blue {i}", "blue", chars[i % 3], h, 0) for i, h in enumerate(blue)]
    figs += [FigureSetup(f"r{i}", f"Red {i}", "red", chars[(i + 1) % 3], h, 3) for i, h in enumerate(red)]
    sides = (SideSetup("blue", "Blue"), SideSetup("red", "Red"))
    return Battle(BattleSetup(terrain, sides, tuple(figs), options, seed))


# --------------------------------------------------------------------------------------------------
# the measurements
# --------------------------------------------------------------------------------------------------


class Bench:
    """One benchmark run: the maps it made and every figure it measured."""

    def __init__(self, plan: Plan, folder: Path, rules: Any = None) -> None:
        from game.engine.rule_options import RuleOptions

        self.plan = plan
        self.folder = folder
        self.options: Any = rules.options if rules is not None else RuleOptions()
        """The rule options the battles are played under (``--rules``)."""
        self.results: dict[str, float | None] = dict.fromkeys(KEYS)
        self.child_rss_mb = 0.0
        self.notes: dict[str, str] = {}
        self.generated = write_generated_map(folder)
        self.shipped = largest_shipped_map()
        from game.maps.loader import load_map

        self.big = load_map(self.generated).terrain

    # -- engine ------------------------------------------------------------------------------------
    def reachable(self) -> None:
        """``reachable_ms`` and ``reachable_vs_networkx`` (see the module docstring)."""
        from game.engine.hexgrid import Hex, distance
        from game.engine.movement import Ground
        from game.engine.zoc import ZocSource, zones_for

        t = self.big
        centre = t.hex_at(100, 100)
        spots = _free_hexes_near(t, centre, 61, 2, seed=1)
        mover_hex = min(spots, key=lambda h: distance(h, centre))
        spots.remove(mover_hex)
        figures = [ZocSource("mover", "blue", mover_hex, 0)]
        figures += [ZocSource(f"e{i}", "red", h, (i * 5) % 6) for i, h in enumerate(spots)]
        allowance = 8
        far: list[Hex] = []

        def ours_full() -> None:
            zones = zones_for("mover", figures)
            occupied = frozenset(f.hex for f in figures if f.id != "mover")
            reach = Ground(terrain=t, occupied=occupied, impassable=occupied, zones=zones).reach(
                mover_hex, 0, allowance
            )
            hexes = reach.hexes()
            if not far:
                far.append(max(hexes, key=lambda h: (distance(h, mover_hex), h)))
            reach.path(far[0])

        t0 = time.perf_counter()
        ours_full()  # the first search on a freshly loaded map also builds movement's tables for it
        first = time.perf_counter() - t0
        times = _times(ours_full, self.plan.reach_reps)
        self.results["reachable_ms"] = _median(times) * 1000
        zones = zones_for("mover", figures)
        occupied = frozenset(f.hex for f in figures if f.id != "mover")
        reach = Ground(terrain=t, occupied=occupied, impassable=occupied, zones=zones).reach(mover_hex, 0, allowance)
        self.notes["reachable_ms"] = (
            f"allowance 8 on the 200x200 map, 60 enemies within "
            f"{max(distance(h, mover_hex) for h in spots)} hexes, "
            f"{len(reach.hexes())} hexes reachable; the first call on the fresh "
            f"map took {first * 1000:.0f} ms"
        )

        def ours_search() -> None:
            Ground(terrain=t, occupied=occupied, impassable=occupied, zones=zones).reach(mover_hex, 0, allowance)

        ours = _median(_times(ours_search, self.plan.reach_reps))
        try:
            import networkx as nx
        except ImportError:
            self.notes["reachable_vs_networkx"] = "networkx is not installed (pip install -r requirements-dev.txt)"
            return
        graph = _facing_graph(nx, t, mover_hex, allowance, occupied)
        source = (mover_hex, 0)

        def theirs() -> None:
            nx.single_source_dijkstra(graph, source, cutoff=allowance, weight="weight")

        nx_time = _median(_times(theirs, max(5, self.plan.reach_reps // 4)))
        dist, _paths = nx.single_source_dijkstra(graph, source, cutoff=allowance, weight="weight")
        self.results["reachable_vs_networkx"] = nx_time / ours
        self.notes["reachable_vs_networkx"] = (
            f"networkx {nx_time * 1000:.2f} ms over {graph.number_of_nodes()} (hex, facing) nodes "
            f"({len({h for h, _ in dist})} hexes reached) vs our search {ours * 1000:.2f} ms"
        )

    def lof(self) -> None:
        """``lof_all_pairs_ms``: every ordered pair of 40 figures among the woods of the generated map."""
        from game.engine.lof import lines_of_fire

        t = self.big
        spots = _free_hexes_near(t, t.hex_at(60, 140), 40, 3, seed=2)
        positions = {f"f{i}": h for i, h in enumerate(spots)}
        times = _times(lambda: lines_of_fire(t, positions), self.plan.lof_reps)
        self.results["lof_all_pairs_ms"] = _median(times) * 1000
        lines = lines_of_fire(t, positions)
        blocked = sum(1 for v in lines.values() if v.blocked)
        at_risk = sum(1 for v in lines.values() if v.bystanders_at_risk())
        self.notes["lof_all_pairs_ms"] = (
            f"{len(lines)} lines, {blocked} blocked, {at_risk} with bystanders at "
            "risk (patterns cached per displacement after the warm-up)"
        )

    def odds(self) -> None:
        """``odds_ms``: one attack's full outcome distribution with two engaged opponents, cache cleared."""
        from game.engine import odds
        from game.engine.blow import rules_of

        cached = getattr(odds, "_outcome_ways", None)
        clear: Callable[[], None] = getattr(cached, "cache_clear", lambda: None)
        rules = rules_of(self.options)  # --rules: the blow's way under those options

        def one() -> None:
            clear()
            odds.outcome_distribution(1, 0, (1, -1), -2, 2, damage_base_head=4, health=0, rules=rules)

        self.results["odds_ms"] = _median(_times(one, self.plan.odds_reps)) * 1000
        self.notes["odds_ms"] = "offence Good vs defence Fair, two more defences, head or torso, Health roll"

    def battle(self) -> None:
        """``ai_decision_s`` and ``sim_rounds_per_s`` (10 a side), ``sim_rounds_per_s_50v50`` (50 a side):
        tactical players on the generated map."""
        n = self.plan.battles.side
        slowest, rounds, total, battles, decisions = self._tactical_battles(self.plan.battles, (96, 106), most=50)
        self.results["ai_decision_s"] = slowest
        self.results["sim_rounds_per_s"] = rounds / total if total > 0 else None
        self.notes["ai_decision_s"] = f"slowest of {decisions} decisions, {battles} battles of {n} against {n}"
        self.notes["sim_rounds_per_s"] = f"{rounds} rounds in {total:.2f} s"
        big = self.plan.big.side
        _, rounds, total, battles, decisions = self._tactical_battles(self.plan.big, (92, 108), most=6)
        self.results["sim_rounds_per_s_50v50"] = rounds / total if total > 0 else None
        self.notes["sim_rounds_per_s_50v50"] = (
            f"{rounds} rounds in {total:.2f} s, {battles} battles of {big} against {big}, {decisions} decisions"
        )

    def _tactical_battles(
        self, plan: Battles, columns: tuple[int, int], *, most: int
    ) -> tuple[float, int, float, int, int]:
        """Whole battles of ``plan.side`` against as many tactical players on the generated map, blue around
        column ``columns[0]`` and red around ``columns[1]`` of row 100, until at least ``plan.battles`` battles
        and ``plan.seconds`` of play (at most ``most`` battles, each at most 40 rounds): the slowest decision,
        the rounds completed, the seconds they took, the battles and the decisions."""
        from game.engine.battle import Seat, apply, legal_actions
        from game.engine.players import make_player

        slowest = 0.0
        rounds = 0
        total = 0.0
        battles = 0
        decisions = 0
        seed = 0
        while battles < plan.battles or total < plan.seconds:
            b = _battle_of(self.big, plan.side, columns, (10 + seed, 20 + seed), self.options, seed)
            players = {"blue": make_player("tactical", seed), "red": make_player("tactical", seed + 1)}
            t0 = time.perf_counter()
            while not b.over and b.round <= 40:
                d = legal_actions(b)
                if d is None:
                    break
                s = time.perf_counter()
                a = players[d.side](b, d)
                slowest = max(slowest, time.perf_counter() - s)
                decisions += 1
                apply(b, a, Seat.of_side(d.side))
            total += time.perf_counter() - t0
            # a battle that ended finished its last round; one stopped at the cap has begun round 41
            rounds += b.round if b.over else b.round - 1
            battles += 1
            seed += 1
            if battles >= most:
                break
        return slowest, rounds, total, battles, decisions

    def veteran(self) -> None:
        """``ai_veteran_decision_ms_*``: every decision of two veteran players, timed, in the shipped battle
        with the most figures and in 50 against 50 on the generated map (median and p99)."""
        from game.engine.battle import Battle, Seat, apply, legal_actions
        from game.engine.veteran import VeteranPlayer
        from game.session import new_session

        def timed(b: Battle) -> list[float]:
            sides = list(b.sides)
            players = {s: VeteranPlayer(i) for i, s in enumerate(sides)}
            out: list[float] = []
            while not b.over and len(out) < self.plan.veteran_decisions:
                d = legal_actions(b)
                if d is None:
                    break
                t0 = time.perf_counter()
                a = players[d.side](b, d)
                out.append(time.perf_counter() - t0)
                apply(b, a, Seat.of_side(d.side))
            return out

        largest = max(
            (
                new_session(str(p), None, seed=1, autosave=False, options=self.options)
                for p in sorted(MAPS.glob("*.tmx"))
            ),
            key=lambda s: len(s.battle.figures),
        )
        shipped = timed(largest.battle)
        n = self.plan.big.side
        big = timed(_battle_of(self.big, n, (92, 108), (31, 32), self.options, 1))
        for suffix, xs, what in (
            (
                "",
                shipped,
                f"{largest.battle.setup.title or 'largest shipped battle'}, {len(largest.battle.figures)} figures",
            ),
            ("_50v50", big, f"{n} against {n} on the generated map"),
        ):
            self.results[f"ai_veteran_decision_ms_median{suffix}"] = _median(xs) * 1000 if xs else None
            self.results[f"ai_veteran_decision_ms_p99{suffix}"] = _p99(xs) * 1000 if xs else None
            self.notes[f"ai_veteran_decision_ms_median{suffix}"] = f"{len(xs)} decisions, {what}"

    # -- maps and drawing --------------------------------------------------------------------------
    def map_load(self) -> None:
        """``map_load_s``: the generated map from disk to a board whose first view is drawn, the game's way.

        The game's way is ``game.ui.mapdata.open_map`` (the map loader, then the Tiled renderer's image) and
        a ``Board`` on it; it runs in a child process, timed inside the child from before ``open_map`` to the
        first view's chunks drawn, so the image's memory can be reported without holding it here.
        """
        side = self.plan.load_side
        path = self.generated if side == 200 else write_generated_map(self.folder, side, side)
        env = dict(
            os.environ,
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
            PYTHONPATH=str(ROOT),
        )
        times: list[float] = []
        for _ in range(self.plan.load_reps):
            done = subprocess.run(
                [sys.executable, "-c", _MAP_LOAD_SCRIPT, str(path)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                timeout=300,
                check=False,
            )
            if done.returncode != 0:
                self.notes["map_load_s"] = f"open_map failed: {done.stderr.decode(errors='replace')[-300:]}"
                break
            out = json.loads(done.stdout.decode().strip().splitlines()[-1])
            times.append(float(out["seconds"]))
            self.child_rss_mb = max(self.child_rss_mb, float(out["rss_mb"]))
        if times:
            self.results["map_load_s"] = _median(times)
        note = self.notes.get("map_load_s", "")
        self.notes["map_load_s"] = (
            f"{note}open_map + Board.prepare of a {side}x{side} three-layer map (child process, peak "
            f"{self.child_rss_mb:.0f} MB): the Tiled layers are drawn only for the chunks in view"
        )

    def frame(self) -> None:
        """``frame_ms_median``, ``frame_ms_p99`` and ``frame_over_blit`` (see the module docstring)."""
        pygame = _pygame_ready()
        from game.ui.app import App

        app = App(size=SCREEN, config=self.folder / "config")
        screen = pygame.display.get_surface()
        runs: list[tuple[str, list[float], str]] = []
        for phase in ("declare", "move", "animated"):
            frames, what = _screen_frames(app.ui, self.shipped, phase, self.plan.frames // 3, self.options)
            runs.append((phase, frames, what))
        frames = [t for _, ts, _ in runs for t in ts]
        prepared = pygame.Surface(SCREEN).convert()
        prepared.fill((40, 60, 80))
        blits = _times(lambda: screen.blit(prepared, (0, 0)), max(50, self.plan.frames), warmup=10)
        self.results["frame_ms_median"] = _median(frames) * 1000
        self.results["frame_ms_p99"] = _p99(frames) * 1000
        self.results["frame_over_blit"] = _median(frames) / _median(blits)
        self.notes["frame_ms_median"] = "; ".join(what for _, _, what in runs)
        self.notes["frame_ms_p99"] = "; ".join(
            f"{phase}: median {_median(ts) * 1000:.2f} ms, p99 {_p99(ts) * 1000:.2f} ms, worst {max(ts) * 1000:.2f} ms"
            for phase, ts, _ in runs
        )
        self.notes["frame_over_blit"] = f"one 1280x720 blit of a prepared surface: {_median(blits) * 1000:.3f} ms"

    def net(self) -> None:
        """``net_rtt_ms``, ``net_rtt_under_flood_ms`` and ``net_eight_clients_frame_ms`` (module docstring)."""
        from game.net.benchnet import busy_table, rtt_ms, rtt_under_flood_ms

        decisions = 40 if self.plan is QUICK else 400
        self.results["net_rtt_ms"], self.notes["net_rtt_ms"] = rtt_ms(decisions)
        flood = rtt_under_flood_ms(decisions)
        self.results["net_rtt_under_flood_ms"], self.notes["net_rtt_under_flood_ms"] = flood
        pygame = _pygame_ready()
        from game.ui.app import App

        app = App(size=SCREEN, config=self.folder / "config-net")
        assert pygame.display.get_surface() is not None
        with busy_table(8) as info:
            frames, _ = _screen_frames(app.ui, self.shipped, "move", self.plan.frames // 2)
        self.results["net_eight_clients_frame_ms"] = _median(frames) * 1000
        self.notes["net_eight_clients_frame_ms"] = (
            f"the battle screen's movement frames while hosting {info['clients']:.0f} clients: "
            f"{info.get('steps', 0):.0f} steps sent to each in {info.get('seconds', 0):.1f} s"
        )

    def save_decode(self) -> None:
        """``save_decode_ms`` (``game.bench_save``)."""
        from game.bench_save import save_decode_ms

        reps = 5 if self.plan is QUICK else 30
        self.results["save_decode_ms"], self.notes["save_decode_ms"] = save_decode_ms(self.folder, self.shipped, reps)

    def startup(self) -> None:
        """``startup_s``: a fresh process to its first drawn frame."""
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
        cmd = [sys.executable, str(ROOT / "main.py"), "--frames", "1"]
        what = "python main.py --frames 1: the title screen's first drawn frame"
        best: list[float] = []
        for _ in range(2 if self.plan is QUICK else 3):
            t0 = time.perf_counter()
            done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=60, check=False)
            best.append(time.perf_counter() - t0)
            if done.returncode != 0:
                what += f" (exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[-200:]})"
                break
        self.results["startup_s"] = _median(best)
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        self.notes["startup_s"] = f"{what}; child peak {child:.0f} MB"

    def run(self) -> dict[str, float | None]:
        """Every measurement; the startup child first, while this process is small (a child's peak memory
        counts this process's at the time it was started)."""
        for step in (
            self.startup,
            self.map_load,
            self.odds,
            self.reachable,
            self.lof,
            self.battle,
            self.veteran,
            self.frame,
            self.net,
            self.save_decode,
        ):
            step()
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        self.results["peak_rss_mb"] = max(own, self.child_rss_mb)
        load = os.getloadavg()
        self.notes["peak_rss_mb"] = (
            f"the larger of this process ({own:.0f} MB) and the map-load child ({self.child_rss_mb:.0f} MB), "
            f"which a game would hold in one process; {os.cpu_count()} cores, load average {load[0]:.1f} / "
            f"{load[1]:.1f} at the end (other processes slow every figure)"
        )
        return self.results


def _facing_graph(nx: Any, terrain: Any, start: Any, allowance: int, occupied: frozenset[Any]) -> Any:
    """The yardstick's graph: states (hex, facing) within ``allowance`` of ``start``, edges priced as ours.

    Moving to an adjacent passable hex costs 1 (+1 into an occupied hex, FTC 5.2) and may turn one side on
    the way (the free side of the gap); turning one side in place costs 1 (FTC 5). Enemies' hexes are left
    out as ours treats them (impassable). Only hexes a search with this cutoff can touch are built: the
    search would never look further, and a 240 000-node graph would dominate peak memory.
    """
    from game.engine.hexgrid import distance, neighbors, within

    g = nx.DiGraph()
    cells = [
        h
        for h in within(start, allowance + 1)
        if terrain.contains(h) and terrain.is_passable(h) and (h == start or h not in occupied)
    ]
    inside = set(cells)
    for h in cells:
        for f in range(6):
            g.add_edge((h, f), (h, (f + 1) % 6), weight=1)
            g.add_edge((h, f), (h, (f - 1) % 6), weight=1)
            for n in neighbors(h):
                if n not in inside or distance(n, start) > allowance:
                    continue
                w = 1 + terrain.move_penalty(n)
                for nf in (f, (f + 1) % 6, (f - 1) % 6):
                    g.add_edge((h, f), (n, nf), weight=w)
    return g


_MAP_LOAD_SCRIPT = r"""
import json, resource, sys, time
import pygame
from game.ui.board import Board
from game.ui.mapdata import open_map
from game.ui.widgets import TextCache
pygame.init()
pygame.display.set_mode((1280, 720))
t0 = time.perf_counter()
data = open_map(sys.argv[1])
board = Board(data.layout, data.terrain.width, data.terrain.height, data.source, TextCache(), (0, 0, 1000, 720))
w, h = data.layout.map_size(data.terrain.width, data.terrain.height)
board.camera.center_on(w / 2, h / 2)
board.prepare()
seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


# --------------------------------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------------------------------


def meets(key: str, value: float | None) -> bool | None:
    """Whether a measured value meets its target (None when it was not measured)."""
    if value is None:
        return None
    op, target = TARGETS[key]
    return value <= target if op == "<=" else value >= target


def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}" if value >= 0.01 else f"{value:.2g}"


def table(results: dict[str, float | None], notes: dict[str, str] | None = None) -> str:
    """The results as a Markdown table (key, measured, target, met), then the notes on what was measured."""
    lines = ["| key | measured | target | met |", "|---|---:|---:|:---:|"]
    for key in KEYS:
        op, target = TARGETS[key]
        ok = meets(key, results.get(key))
        mark = "—" if ok is None else ("yes" if ok else "**no**")
        lines.append(f"| `{key}` | {_fmt(results.get(key))} | {'≤' if op == '<=' else '≥'} {target:g} | {mark} |")
    if notes:
        lines.append("")
        lines.extend(f"- `{k}`: {v}" for k, v in notes.items())
    return "\n".join(lines)


def run(quick: bool = False, rules: Any = None) -> tuple[dict[str, float | None], dict[str, str]]:
    """Run every measurement (under ``rules``, a ``game.rules_file.Rules``, or FTC as written); returns
    (results by key, notes on what each measured)."""
    plan = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="ftc-bench-") as tmp:
        bench = Bench(plan, Path(tmp), rules)
        results = bench.run()
    return results, bench.notes


def main(argv: list[str]) -> int:
    """``python main.py bench [--quick] [--json]``: print the table (or one JSON object); 0 when it ran."""
    from game.rules_file import add_rules_option, parse_with_rules

    parser = argparse.ArgumentParser(
        prog="main.py bench",
        description="Measure the game's speed against the "
        "targets of docs/performance.md (see game/bench.py for what each figure measures).",
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and a smaller battle (for tests)")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every key")
    add_rules_option(parser)
    args = parse_with_rules(parser, argv)
    if args is None:
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    results, notes = run(quick=args.quick, rules=args.rules)
    if args.json:
        print(json.dumps({k: (None if results[k] is None else round(float(results[k] or 0), 4)) for k in KEYS}))
    else:
        print(table(results, notes))
    return 0
