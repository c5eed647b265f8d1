"""The GM's map commands: ``check-map MAP.tmx [--json]`` and ``render-map MAP.tmx OUT.png``.

``check-map`` reports every problem in one run: the map is checked on past each mistake that leaves
something to check (``game.maps.loader.check_map``), and its roster is read and checked beside it. Exit
codes: 0 the map plays (warnings, if any, on stderr), 2 a map or roster a battle would refuse (one line on
stderr per problem, each naming the file, the place and the fix, then the warnings), 1 a usage error. No
traceback reaches the GM.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from game.engine.hexgrid import hex_to_offset
from game.maps.errors import MapLoadError
from game.maps.loader import LoadedMap, check_map, load_map, map_project, project_types
from game.maps.token_files import token_warnings
from game.paths import find_map
from game.roster import RosterError, load_roster, parse_roster, read_roster_data
from game.session import (
    SetupError,
    character_problems,
    default_roster_for,
    place_figures,
    side_name_problems,
    unnamed_side_warnings,
)

_USAGE_CHECK = (
    "usage: python main.py check-map MAP.tmx [--json]\n"
    "  load a Tiled map and its roster (the map's 'roster' property, else MAP.roster.toml beside it)\n"
    "  exactly as a new battle would; print a summary and exit 0, or every problem and exit 2\n"
    "  --json  print the summary (or the problems) as JSON"
)
_USAGE_RENDER = "usage: python main.py render-map MAP.tmx OUT.png"


def summary(loaded: LoadedMap) -> dict[str, Any]:
    """What ``check-map --json`` prints: size, stagger, terrain counts and the deployment."""
    t = loaded.terrain
    counts = Counter(t.types[i].name for i in t.terrain.ravel().tolist())
    axis, index = loaded.tmx.stagger_axis, loaded.tmx.stagger_index
    zones = {
        side: sorted(hex_to_offset(h, axis, index) for h in cells) for side, cells in loaded.deployment.zones.items()
    }
    return {
        "file": str(loaded.path),
        "name": loaded.properties.get("name", loaded.path.stem),
        "width": loaded.tmx.width,
        "height": loaded.tmx.height,
        "tile_width": loaded.tmx.tile_width,
        "tile_height": loaded.tmx.tile_height,
        "hex_side_length": loaded.tmx.hex_side_length,
        "stagger_axis": axis,
        "stagger_index": index,
        "layers": [layer.name for layer in loaded.tmx.tile_layers],
        "terrain": dict(sorted(counts.items())),
        "blocks_sight": int(t.blocks_sight.sum()),
        "impassable": int((~t.passable["walk"]).sum()),
        "elevation": [int(t.elevation.min()), int(t.elevation.max())],
        "roster": loaded.properties.get("roster"),
        "zones": {
            side: {"cells": len(cells), "first": list(cells[0]) if cells else None} for side, cells in zones.items()
        },
        "figures": [
            {
                "name": f.name,
                "side": f.side,
                "character": f.character,
                "cell": list(hex_to_offset(f.hex, axis, index)),
                "facing": f.facing,
            }
            for f in loaded.deployment.figures
        ],
    }


def _text(info: dict[str, Any], seconds: float) -> str:
    lines = [
        f"{info['name']}: {info['width']}x{info['height']} hexes, tiles {info['tile_width']}x"
        f"{info['tile_height']}, stagger {info['stagger_axis']}/{info['stagger_index']}, "
        f"hex side {info['hex_side_length']} (loaded in {seconds * 1000:.0f} ms)",
        "terrain: " + ", ".join(f"{name} {n}" for name, n in info["terrain"].items()),
        f"blocks sight: {info['blocks_sight']} hexes; impassable on foot: {info['impassable']}; "
        f"elevation {info['elevation'][0]}..{info['elevation'][1]} m",
    ]
    for side, zone in info["zones"].items():
        lines.append(f"deployment zone {side}: {zone['cells']} hexes")
    for f in info["figures"]:
        lines.append(
            f"figure {f['name']} ({f['side']}, {f['character']}) at cell {tuple(f['cell'])} facing {f['facing']}"
        )
    if info.get("roster_file"):
        lines.append(f"roster: {info['roster_file']} (read and placed as a new battle would)")
    else:
        lines.append(
            "roster: none with the map (no 'roster' property, no .roster.toml beside it); "
            "pick one on the New battle screen"
        )
    lines.append("OK")
    return "\n".join(lines)


def roster_problems(loaded: LoadedMap, map_ok: bool = True) -> tuple[str | None, list[str], list[str]]:
    """The map's own roster file (None when it has none), every problem a new battle would refuse it for and
    the warnings: the roster read and checked by ``game.roster.load_roster``, every figure's character and
    side checked against it, and (when all that is right) the figures placed by ``game.session.place_figures``,
    the functions New battle and ``simulate`` use. Each problem names the file and the fix. ``map_ok`` False
    (the map itself has problems, so some of its figures or zones may be missing) leaves out the count of
    sides, which a missing figure would falsify. A map with no ``roster`` property and no ``MAP.roster.toml``
    is not a problem: the GM picks a roster on the New battle screen."""
    rp = default_roster_for(loaded.path, loaded)
    if not loaded.properties.get("roster") and not rp.exists():
        return None, [], []
    try:
        roster = load_roster(rp)
    except RosterError as exc:
        problems = [str(exc)]
        try:  # the other characters too, one line each, so the GM fixes them in one pass
            chars = read_roster_data(rp).get("characters", {})
        except RosterError:
            chars = {}
        if isinstance(chars, dict):
            for key, cd in chars.items():
                try:
                    parse_roster({"characters": {key: cd}}, str(rp))
                except RosterError as each:
                    if str(each) not in problems:
                        problems.append(str(each))
        return str(rp), problems, []
    problems = [*character_problems(loaded, roster), *side_name_problems(loaded, roster)]
    warnings = unnamed_side_warnings(loaded, roster)
    if problems:
        return str(rp), problems, warnings
    try:
        placed = place_figures(loaded, roster)
    except SetupError as exc:
        return str(rp), [str(exc)], warnings
    sides = {f["side"] for f in placed}
    if len(sides) < 2 and map_ok:
        problems.append(
            f"{loaded.path}: a battle needs figures of at least two sides; found only "
            f"{sorted(sides)}; add figures of another side to the map or to the roster {rp}"
        )
    return str(rp), problems, warnings


def check_map_main(argv: list[str]) -> int:
    """``check-map MAP.tmx [--json]``: load a map and its roster as a new battle would and print its summary
    (exit 0), or every problem found in one run (exit 2); warnings either way."""
    if "--help" in argv or "-h" in argv:
        print(_USAGE_CHECK)
        return 0
    args = [a for a in argv if a != "--json"]
    as_json = "--json" in argv
    if len(args) != 1 or args[0].startswith("-"):
        print(_USAGE_CHECK, file=sys.stderr)
        return 1
    start = time.perf_counter()
    check = check_map(find_map(args[0]))
    problems = [str(err) for err in check.problems]
    warnings = list(check.warnings)
    roster_file: str | None = None
    if check.loaded is not None:
        roster_file, more, roster_warnings = roster_problems(check.loaded, map_ok=not problems)
        problems.extend(p for p in more if p not in problems)
        warnings.extend(roster_warnings)
        warnings.extend(unknown_property_types(check.loaded))
        warnings.extend(token_problems(check.loaded, roster_file))
    seconds = time.perf_counter() - start
    if problems:
        if as_json:
            print(json.dumps({"ok": False, "error": problems[0], "problems": problems, "warnings": warnings}))
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        for w in warnings:
            print(f"warning: {w}", file=sys.stderr)
        if len(problems) + len(warnings) > 1:  # one refusal stays one sentence
            tally = f"{_count(problems, 'problem')}{_also(warnings)}"
            print(f"{Path(args[0]).name}: refused, {tally}; fix the problems above and check again", file=sys.stderr)
        return 2
    assert check.loaded is not None  # no problem: the map was built
    info = summary(check.loaded)
    info["roster_file"] = roster_file
    info["warnings"] = warnings
    if as_json:
        print(json.dumps({"ok": True, **info}, indent=2))
    else:
        for w in warnings:
            print(f"warning: {w}", file=sys.stderr)
        print(_text(info, seconds))
    return 0


def _count(items: list[str], word: str) -> str:
    return f"{len(items)} {word}{'' if len(items) == 1 else 's'}"


def _also(warnings: list[str]) -> str:
    return f" and {_count(warnings, 'warning')}" if warnings else ""


def token_problems(loaded: LoadedMap, roster_file: str | None) -> list[str]:
    """A sentence for each token picture the battle would not show (missing, not a PNG, JPEG or WebP, or
    refused), from the map's figure objects and its roster's characters: the figure keeps its made token,
    so these are warnings, each naming the file and the fix."""
    characters: dict[str, Any] = {}
    if roster_file is not None:
        try:
            chars = read_roster_data(roster_file).get("characters", {})
        except RosterError:
            chars = {}
        characters = chars if isinstance(chars, dict) else {}
    rp = Path(roster_file) if roster_file is not None else None
    return token_warnings(loaded.path, loaded.tmx.objects, rp, characters)


def unknown_property_types(loaded: LoadedMap) -> list[str]:
    """A note when the map uses custom property types (Tiled's enums and classes) that no Tiled project beside
    it or shipped with the game defines: their values are still read, but Tiled shows them as plain text and
    offers no drop-downs until the project is open."""
    project = map_project(loaded.path)
    known = project_types(project)
    missing = [t for t in loaded.tmx.property_types if t not in known]
    if not missing:
        return []
    return [
        f"{loaded.path.name}: the custom property types {', '.join(missing)} are defined by no Tiled project "
        f"beside the map{f' nor in {project.name}' if project else ''}; their values are read as typed, and to "
        f"edit them with drop-downs copy maps/fudge-tactics.tiled-project next to the map and open it in Tiled "
        "(File > Open Project)"
    ]


def render_map_main(argv: list[str]) -> int:
    """``render-map MAP.tmx OUT.png``: draw the visible tile layers at 1:1 exactly as Tiled does."""
    if len(argv) != 2:
        print(_USAGE_RENDER, file=sys.stderr)
        return 1
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.maps.render import render_map, save_png

    try:
        surface = render_map(load_map(find_map(argv[0])))
    except MapLoadError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        save_png(surface, argv[1])
    except Exception as exc:  # pygame.error and OSError: the GM gets one line, not a traceback
        print(f"error: cannot write {argv[1]}: {exc}", file=sys.stderr)
        return 2
    w, h = surface.get_size()
    print(f"wrote {argv[1]} ({w}x{h} pixels)")
    return 0
