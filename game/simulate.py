"""Headless play: ``simulate`` plays a whole battle between computer players; ``replay`` checks a log.

FTC 3–7 are played by the engine; this module only drives it and prints a summary.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping

from game.engine import record
from game.engine.ai import Player
from game.engine.battle import Battle, Seat, apply, legal_actions
from game.engine.events import AttackResolved
from game.engine.players import make_player
from game.engine.rule_options import RuleOptions
from game.maps.errors import MapLoadError
from game.report import boxes_text, rules_of, rules_text_line
from game.roster import RosterError
from game.rules_file import RulesFileError, add_rules_option, rules_argument
from game.session import SetupError, load_session, new_session, seed_argument

MAX_ROUNDS = 200


def figure_state(battle: Battle, fid: str) -> str:
    """A figure at the end as the battle log tells it (FTC 6.4, *Fudge* 4.57): "out of the fight (<its
    condition>)" for one taken out — a mook's own track says "Out of the Battle" — else "fighting (<worst
    wound>)"; its sheet is the one it ends with (wounds carried in and GM edits included)."""
    if fid in battle.removed:
        return "removed by the GM"
    f = battle.figures[fid]
    if not f.can_act:
        return f"out of the fight ({f.wounds.label})"
    if f.out:
        return "out of the fight (declared by the GM)"
    return f"fighting ({f.wounds.label})"


def summary(battle: Battle) -> str:
    """A readable summary of a battle: winner, rounds, and each figure's state and wound sheet at the end."""
    lines = []
    winner = battle.sides[battle.winner].name if battle.winner else "nobody"
    state = "over" if battle.over else "unfinished"
    lines.append(f"Battle {state} after {battle.round} round(s); winner: {winner}")
    attacks = sum(1 for e in battle.events if isinstance(e, AttackResolved))
    hits = sum(1 for e in battle.events if isinstance(e, AttackResolved) and e.hit)
    lines.append(f"{attacks} attacks, {hits} hits, {len(battle.log)} decisions")
    figures = [*battle.figures.values(), *battle.removed.values()]
    side_w = max((len(battle.sides[f.side].name) for f in figures), default=0)
    name_w = max((len(f.name) for f in figures), default=0)
    states = {f.id: figure_state(battle, f.id) for f in figures}
    state_w = max((len(v) for v in states.values()), default=0)
    for f in figures:
        lines.append(
            f"  {battle.sides[f.side].name:<{side_w}}  {f.name:<{name_w}}  {states[f.id]:<{state_w}}  "
            f"{boxes_text(f.wounds)}"
        )
    return "\n".join(lines)


def play_out(
    battle: Battle, players: Mapping[str, Player], max_rounds: int = MAX_ROUNDS, *, verbose: bool = False
) -> Battle:
    """Let computer players decide every decision until the battle ends (or ``max_rounds``: a battle nobody can
    win, e.g. nobody can wound anybody, stops there; ``round_cap_note`` says so); each decides from
    its own side's seat; ``verbose`` prints each decision with the player's reason (``last_reason``, the
    veteran's) as the GM would read it."""
    while not battle.over and battle.round <= max_rounds:
        d = legal_actions(battle)
        assert d is not None
        player = players[d.side]
        action = player(battle, d)
        if verbose:
            why = getattr(player, "last_reason", "")
            print(f"round {battle.round} {battle.sides[d.side].name}: {why or action.kind}")
        apply(battle, action, Seat.of_side(d.side))
    return battle


def round_cap_note(battle: Battle, max_rounds: int) -> str | None:
    """The sentence for a battle stopped by the round cap (None when it ended by itself)."""
    if battle.over:
        return None
    return (
        f"The battle was stopped after {max_rounds} round(s) without a winner: nobody could end it "
        "(perhaps nobody can wound anybody); give a larger --max-rounds to play on, or change the roster"
    )


def simulate_main(argv: list[str]) -> int:
    """``python main.py simulate MAP.tmx [--roster F] [--seed N] [--players a,b] [--rules R] [--out LOG.json]``."""
    p = argparse.ArgumentParser(prog="main.py simulate", description="Play a whole battle without a window.")
    p.add_argument("map", help="a .tmx battle map, or a shipped map by its name (village)")
    p.add_argument("--roster", help="roster TOML file (default: the map's own)")
    p.add_argument("--seed", type=seed_argument, default=1, help="dice seed (default 1)")
    p.add_argument(
        "--players",
        default="tactical,tactical",
        help="computer player per side in order: random, novice, tactical or veteran (default tactical,tactical)",
    )
    p.add_argument("--out", help="write the battle's log here (JSON) for `replay`")
    p.add_argument("--max-rounds", type=int, default=MAX_ROUNDS)
    p.add_argument("--verbose", action="store_true", help="print every decision with the computer's reason")
    add_rules_option(p)
    args = p.parse_args(argv)
    kinds = [k.strip() for k in args.players.split(",") if k.strip()]
    try:
        rules = rules_argument(args.rules) if args.rules else None
        session = new_session(
            args.map,
            args.roster,
            seed=args.seed,
            autosave=False,
            options=rules.options if rules else None,
            rules_name=rules.name if rules else "",
        )
        sides = list(session.battle.sides)
        if len(kinds) == 1:
            kinds = kinds * len(sides)
        if len(kinds) != len(sides):
            print(
                f"error: --players names {len(kinds)} player(s) but the battle has {len(sides)} sides "
                f"({', '.join(sides)})",
                file=sys.stderr,
            )
            return 2
        players = {s: make_player(k, args.seed + i) for i, (s, k) in enumerate(zip(sides, kinds, strict=True))}
        for sd in session.setup_data["sides"]:
            sd["controller"] = kinds[sides.index(sd["id"])]
    except (MapLoadError, RosterError, RulesFileError, SetupError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    play_out(session.battle, players, args.max_rounds, verbose=args.verbose)
    if session.battle.options != RuleOptions():  # the rules it was played under, as the report says them
        print(rules_text_line(rules_of(session.battle), session.battle.options))
    print(summary(session.battle))
    note = round_cap_note(session.battle, args.max_rounds)
    if note is not None:
        print(note)
    print(f"({time.perf_counter() - t0:.2f} s)")
    if args.out:
        try:
            session.save(args.out)
        except record.SaveError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"log written to {args.out}")
    return 0


def replay_main(argv: list[str]) -> int:
    """``python main.py replay LOG.json [--verify]``: the battle of a save as today's rules replay it. A save
    played under other rules is replayed as far as today's rules agree, and the sentence saying where they
    part comes first (never a different battle without saying so); ``--verify`` refuses it instead. Exit 1
    naming the file and the first difference when the save does not load."""
    p = argparse.ArgumentParser(prog="main.py replay", description="Replay a saved battle log.")
    p.add_argument("log", help="a battle log / save (JSON)")
    p.add_argument("--verify", action="store_true", help="check that every roll and event reproduces")
    args = p.parse_args(argv)
    try:
        session = load_session(args.log, autosave=False, strict=args.verify)
    except (record.SaveError, SetupError, RosterError, MapLoadError, record.ReplayMismatch) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for note in session.notes:
        print(note)
    battle = session.battle
    print(summary(battle))
    if args.verify:
        print(f"verified: {len(battle.log)} decisions reproduce every roll")
    return 0
