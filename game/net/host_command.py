"""``python main.py host``: a table on the network, without a window (``docs/network.md``).

The host prints who may sit where and where it listens, then one line per decision and per connection
note. It reads commands on its standard input meanwhile: ``seats`` (who holds which seat), ``free SEAT``
(the GM frees a seat whose player will not come back: that player's token no longer takes it, anyone may),
``help``. The table's password comes from ``--password``, ``--ask-password`` or the environment
(``game.net.password``); ``--tls CERT KEY`` serves ``wss://`` (``game.net.tls``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from pathlib import Path
from typing import TextIO

from game.engine import record
from game.engine.players import LEVELS, make_player
from game.engine.rule_options import RuleOptions
from game.maps.errors import MapLoadError
from game.net.host import LOCAL, PUBLIC, Host, run_host
from game.net.password import ASK_HELP, PASSWORD_HELP, table_password
from game.net.protocol import DEFAULT_PORT
from game.net.table import Table, token_hashes_of
from game.net.tls import TLSSetupError, certificate_fingerprint, server_context
from game.roster import RosterError
from game.rules_file import Rules, add_rules_option, rules_argument, with_secret_stances
from game.session import SetupError, load_session, new_session, seed_argument

COMMANDS_HELP = "commands: 'seats' (who sits where), 'free SEAT' (free a seat its player left for good), 'help'"


def _computer_seats(specs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in specs:
        side, _, kind = spec.partition(":")
        out[side] = kind or "tactical"
    return out


def _say(text: str) -> None:
    print(text, flush=True)


def run_command(host: Host, line: str) -> None:
    """One command typed at the host's console (module docstring); its answer is said on the console."""
    words = line.split()
    table = host.table
    if not words:
        return
    if words[0] == "seats":
        held = {label: (name, here) for label, name, here in table.held_seats()}
        for label in table.seat_labels():
            if label in held:
                name, here = held[label]
                table.say(f"  {label}: {name} ({'connected' if here else 'away; its token takes it back'})")
            else:
                table.say(f"  {label}: " + ("the host's computer" if label in table.computers else "free"))
    elif words[0] == "free" and len(words) == 2:
        try:
            host.deliver(table.free_seat(words[1]))
        except ValueError as exc:
            table.say(f"error: {exc}")
    else:
        table.say(COMMANDS_HELP)


def read_commands(host: Host, loop: asyncio.AbstractEventLoop, stream: TextIO) -> threading.Thread:
    """A thread handing each line of ``stream`` to ``run_command`` on the host's loop (it ends with the
    stream, or at once when there is nothing to read)."""

    def pump() -> None:
        try:
            for line in stream:
                loop.call_soon_threadsafe(run_command, host, line)
        except RuntimeError:  # the loop is closed: the table is over
            return
        except (OSError, ValueError):  # no standard input to read (closed, or not a stream): no commands
            return

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def host_main(argv: list[str]) -> int:
    """``python main.py host MAP.tmx [options]`` (``docs/network.md``)."""
    p = argparse.ArgumentParser(prog="main.py host", description="Host a battle for players at other computers.")
    p.add_argument("map", nargs="?", help="a .tmx battle map or a shipped map's name (not needed with --resume)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT}; 0: any)")
    p.add_argument("--roster", help="roster TOML file (default: the map's own)")
    p.add_argument("--seed", type=seed_argument, help="dice seed (default: random; it never leaves this computer)")
    p.add_argument("--save", help="write the battle's log here after every decision (the game's save format)")
    add_rules_option(p)
    p.add_argument(
        "--secret-stances", action="store_true", help="stances are declared in secret (Fudge 4.32), over --rules"
    )
    p.add_argument("--password", help=PASSWORD_HELP)
    p.add_argument("--ask-password", action="store_true", help=ASK_HELP)
    p.add_argument("--public", action="store_true", help="listen on every network interface, not only this computer")
    p.add_argument(
        "--tls", nargs=2, metavar=("CERT", "KEY"), help="serve wss:// with this certificate and key (PEM files)"
    )
    p.add_argument("--resume", help="resume the table from a log written by --save")
    p.add_argument("--gm", help="the GM's seat: 'referee' (a GM who plays no side) or a side's id")
    p.add_argument(
        "--computer",
        action="append",
        default=[],
        metavar="SIDE[:LEVEL]",
        help=f"the host's computer plays this side (LEVEL: {', '.join(LEVELS)}; default tactical)",
    )
    p.add_argument(
        "--hand-over", type=float, metavar="SECONDS", help="hand a seat empty this long to the host's computer"
    )
    args = p.parse_args(argv)
    save_path = Path(args.save) if args.save else (Path(args.resume) if args.resume else None)
    try:
        tls = server_context(*args.tls) if args.tls else None
        fingerprint = certificate_fingerprint(args.tls[0]) if args.tls else ""
        password = table_password(args.password, ask=args.ask_password)
        if args.resume:
            session = load_session(args.resume, autosave=False)
            for note in session.notes:  # its map found elsewhere, the version that wrote it, where rules part
                _say(note)
            if session.battle.over:
                winner = session.battle.winner
                raise SetupError(
                    f"{args.resume}: this battle is over (winner: "
                    f"{session.battle.sides[winner].name if winner else 'nobody'}), so there is no table to take "
                    f"up again; `python main.py replay {args.resume}` shows it"
                )
            tokens = token_hashes_of(session.setup_data)
        else:
            if not args.map:
                p.error("give a map (or --resume LOG.json)")
            rules = rules_argument(args.rules) if args.rules else Rules(RuleOptions())
            rules = with_secret_stances(rules, args.secret_stances)
            # the game's keyed dice (game.engine.generator): no roll seen tells the seed or the rolls to come
            session = new_session(
                args.map,
                args.roster,
                seed=args.seed,
                options=rules.options,
                rules_name=rules.name if args.rules else "",
                autosave=False,
                gm=args.gm,
            )
            tokens = {}
        table = Table.start(session, password=password, save_path=save_path, token_hashes=tokens, say=_say)
        for side, kind in _computer_seats(args.computer).items():
            if side not in table.battle.sides:
                raise SetupError(f"--computer {side}: no such side; the sides are {', '.join(table.battle.sides)}")
            if kind not in LEVELS:
                levels = ", ".join(LEVELS)
                raise SetupError(f"--computer {side}:{kind}: no such computer player; choose one of {levels}")
            table.computers[side] = make_player(kind, len(table.computers) + 1)
        table.save(strict=True)
    except (MapLoadError, RosterError, SetupError, record.SaveError, TLSSetupError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    address = PUBLIC if args.public else LOCAL
    b = table.battle
    host = Host(table, hand_over=args.hand_over)

    def ready(port: int) -> None:
        seats = ", ".join(table.seat_labels())
        scheme = "wss" if tls is not None else "ws"
        print(f"{b.setup.title or 'A battle'}: seats {seats}; listening on {scheme}://{address}:{port}", flush=True)
        if fingerprint:
            print(f"certificate SHA-256 fingerprint: {fingerprint}", flush=True)
            print("  players join with: --fingerprint " + fingerprint, flush=True)
        if args.public:
            print("open to the network: anyone who can reach this computer and knows the password may join", flush=True)
            if tls is None:
                print("not encrypted: passwords and seat tokens cross the network as they are (see --tls)", flush=True)
        print(COMMANDS_HELP, flush=True)
        read_commands(host, asyncio.get_running_loop(), sys.stdin)

    try:
        asyncio.run(run_host(table, address, args.port, on_ready=ready, tls=tls, host=host))
    except OSError as exc:
        print(
            f"error: cannot listen on {address}:{args.port} ({exc.strerror or exc}); choose another --port",
            file=sys.stderr,
        )
        return 2
    except record.SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
