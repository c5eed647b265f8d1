"""The command layer: ``python main.py COMMAND ...`` handed to the part of the game that does it.

``game.cli`` (with ``main.py``) is the only place that ties the maps, the rosters and the sessions together;
the layers below it (``game.maps``, ``game.roster``, ``game.session``, ``game.ui``) never import it.
Each handler imports what it needs when it runs, so ``simulate`` and ``check-map`` never load the window.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

USAGE = """Fudge Tactics — hex-grid tactical combat for *Fudge* (Fudge Tactical Combat), hotseat, with Tiled maps.

Commands (``python main.py --help``; ``--version`` prints the game's version):
  play [MAP.tmx] [--roster F] [--seed N] [--rules R]
                                             the game (the default: ``python main.py`` opens the title screen)
  check-map MAP.tmx [--json]                 check a Tiled map for use as a battle map
  render-map MAP.tmx OUT.png                 draw a map's visible tile layers as Tiled does
  simulate MAP.tmx [--roster F] [--seed N] [--players tactical,random] [--rules R] [--out LOG.json]
  replay LOG.json [--verify]                 replay a saved battle; --verify checks every roll
  bench [--quick] [--json] [--rules R]       measure speed and memory against the targets
  ai-match [--players veteran,tactical] [--seeds 10] [--rules R]
                                             mirrored matches of two computer players on every map
  host MAP.tmx [--port 7777] [--save LOG.json] [--rules R] [--secret-stances] [--ask-password] [--public]
       [--tls CERT KEY] [--computer SIDE:LEVEL] [--resume LOG.json]
                                             host a table for players at other computers (no window)
  join HOST[:PORT]|wss://HOST:PORT [--seat SIDE|gm|watch] [--name N] [--players LEVEL] [--ask-password]
       [--fingerprint SHA256] [--token T]    take a seat at a hosted table (the game window, or a
                                             computer player with --players, or text with --no-window)
"""
"""What ``python main.py --help`` prints. ``--rules R``: a preset of rule options (``ftc``, ``heroic``, ``gritty``)
or a GM's rules file (docs/playing.md "Rules files")."""

COMMANDS = ("play", "check-map", "render-map", "simulate", "replay", "bench", "ai-match", "host", "join")


def _play(argv: list[str]) -> int:
    from game.rules_file import RULES_HELP, add_rules_option, parse_with_rules
    from game.session import seed_argument

    parser = argparse.ArgumentParser(prog="main.py play", description="Play a battle (opens the game window).")
    parser.add_argument(
        "map", nargs="?", help="a .tmx battle map or a shipped map's name (village); without it the title screen opens"
    )
    parser.add_argument("--roster", help="roster TOML file (default: the map's own roster)")
    parser.add_argument("--seed", type=seed_argument, help="dice seed (default: random)")
    add_rules_option(parser, RULES_HELP + "; New battle starts with them")
    parser.add_argument("--frames", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--screenshot", help=argparse.SUPPRESS)
    args = parse_with_rules(parser, argv)
    if args is None:
        return 2
    from game.ui.app import run

    return run(
        map_path=args.map,
        roster_path=args.roster,
        seed=args.seed,
        screenshot=args.screenshot,
        frames=args.frames,
        rules=args.rules,
    )


_ENTRY_POINTS: dict[str, tuple[str, str]] = {
    "check-map": ("game.cli.maps", "check_map_main"),
    "render-map": ("game.cli.maps", "render_map_main"),
    "simulate": ("game.simulate", "simulate_main"),
    "replay": ("game.simulate", "replay_main"),
    "bench": ("game.bench", "main"),
    "ai-match": ("game.ai_match", "main"),
    "host": ("game.net.host_command", "host_main"),
}
"""The commands that are one module's ``main(argv)``, by (module, function): the module is imported only when its
command runs, so ``simulate`` and ``check-map`` never load the window."""


def _entry_point(command: str) -> Callable[[list[str]], int]:
    module, function = _ENTRY_POINTS[command]
    handler: Callable[[list[str]], int] = getattr(importlib.import_module(module), function)
    return handler


def _join(argv: list[str]) -> int:
    from game.net.client import join_main

    return join_main(argv, open_window=_table_window)


def _table_window(client: Any) -> int:
    """The game window at a table's seat (``join`` without ``--players``; ``client`` a ``game.net.client.Client``
    not yet connected)."""
    from game.net.client import TableClosed
    from game.net.remote import RemoteSession

    try:
        session = RemoteSession.connect(client, remember=True)
    except TableClosed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"seated at {session.seat}; rejoin with --token {session.client.token}", flush=True)
    from game.ui.app import run_table

    return run_table(session)


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a command; ``play`` when none is given."""
    args = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if args and args[0] in ("-V", "--version"):
        from game.engine.version import GAME_VERSION, RULES_REVISION

        print(f"Fudge Tactics {GAME_VERSION} (rules revision {RULES_REVISION})")
        return 0
    command = args.pop(0) if args and args[0] in COMMANDS else "play"
    handler = {"play": _play, "join": _join}.get(command) or _entry_point(command)
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
