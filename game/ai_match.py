"""Mirrored matches between two computer players on the shipped maps (``python main.py ai-match``).

Each seed is played twice with the sides swapped, on every map given (default: every ``maps/*.tmx``), so
neither player profits from the better side of a map. It prints the win rates per map and overall (of the
battles that were decided) and, for a ``veteran`` player, how often its declarations advanced, retreated,
dodged missiles, aimed elsewhere than "best", and how often it held its move (FTC 5, 6.1, 6.2, 6.6).
A match is a measurement: no player's decision is cut short by the clock, so the same seeds give the same
battles on a busy machine as on an idle one; ``--dice mt19937`` plays them on the legacy dice.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from game.engine import record
from game.engine.ai import TacticalPlayer
from game.engine.generator import DICE_KINDS, KEYED_DICE
from game.engine.players import LEVELS, make_player
from game.engine.rule_options import changed, describe
from game.paths import MAPS_DIR
from game.rules_file import Rules, add_rules_option, parse_with_rules
from game.session import load_session, new_session, seed_argument
from game.simulate import MAX_ROUNDS, play_out

COUNTED = (
    "declarations",
    "advances",
    "retreats",
    "dodges",
    "dives",
    "volley_dives",
    "aims",
    "holds",
    "interrupts",
    "second_moves",
    "lanes_opened",
    "spells",
)


@dataclass
class MapResult:
    """The results of one map: wins of the first player, of the second, and undecided battles."""

    name: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def rate(self) -> float:
        """The first player's share of the decided battles (0 when none was decided)."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.0


@dataclass
class MatchResult:
    """A whole match: per map, overall, and the counts of the first player's choices."""

    player: str
    opponent: str
    maps: list[MapResult] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    rules: Rules | None = None
    """The rule options every battle was played with (None: FTC as written)."""
    dice: str = KEYED_DICE
    """The dice every battle rolled (``game.engine.generator``)."""

    @property
    def overall(self) -> MapResult:
        """Every map added up."""
        out = MapResult("overall")
        for m in self.maps:
            out.wins += m.wins
            out.losses += m.losses
            out.draws += m.draws
        return out


def play_one(
    map_path: Path,
    seed: int,
    kinds: dict[str, str],
    max_rounds: int = MAX_ROUNDS,
    *,
    verify: bool = False,
    rules: Rules | None = None,
    dice: str = KEYED_DICE,
) -> tuple[str | None, object]:
    """Play one battle on ``map_path`` with ``kinds`` (side id -> player level); returns the winning
    side's id (None: undecided) and the players (for their counts). ``verify``: the battle is saved and
    loaded back as ``replay --verify`` does it, every roll and event checked (``ReplayMismatch`` if not).
    ``rules``: the rule options to play under (None: FTC as written); ``dice``: the generator's kind
    (``game.engine.generator``: the legacy dice replay the battles measured before the keyed dice)."""
    session = new_session(
        str(map_path),
        None,
        seed=seed,
        autosave=False,
        options=rules.options if rules else None,
        rules_name=rules.name if rules else "",
        dice=dice,
    )
    sides = list(session.battle.sides)
    players = {s: make_player(kinds[s], seed + i) for i, s in enumerate(sides)}
    for player in players.values():
        if isinstance(player, TacticalPlayer):
            # a measurement decides alike on a busy machine: the clock that keeps a decision short at the
            # screen never cuts one short here
            player.time_limit = math.inf
    play_out(session.battle, players, max_rounds)
    if verify:
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "battle.json"
            session.save(log)
            try:
                again = load_session(log, autosave=False, strict=True).battle
            except record.SaveError as exc:
                raise record.ReplayMismatch(0, str(exc)) from None
            if again.digests != session.battle.digests:
                raise record.ReplayMismatch(len(again.log), "the battle loaded back differs from the one played")
    return session.battle.winner, players


def run_match(
    player: str,
    opponent: str,
    seeds: list[int],
    maps: list[Path],
    max_rounds: int = MAX_ROUNDS,
    log: bool = False,
    *,
    verify: bool = False,
    rules: Rules | None = None,
    dice: str = KEYED_DICE,
) -> MatchResult:
    """Mirrored battles of ``player`` against ``opponent``: each seed on each map twice, sides swapped;
    ``verify``: each battle is also replayed from its save (``play_one``); ``rules``: the rule options of every
    battle (None: FTC as written); ``dice``: the dice every battle rolls (``play_one``)."""
    result = MatchResult(player, opponent, counts=dict.fromkeys(COUNTED, 0), rules=rules, dice=dice)
    for map_path in maps:
        mr = MapResult(map_path.stem)
        for seed in seeds:
            session = new_session(str(map_path), None, seed=seed, autosave=False)
            sides = list(session.battle.sides)
            for mine in sides[:2]:
                other = next(s for s in sides if s != mine)
                kinds = {mine: player, other: opponent}
                winner, players = play_one(map_path, seed, kinds, max_rounds, verify=verify, rules=rules, dice=dice)
                if winner == mine:
                    mr.wins += 1
                elif winner is None:
                    mr.draws += 1
                else:
                    mr.losses += 1
                counts = getattr(players[mine], "counts", None)  # type: ignore[index]
                if isinstance(counts, dict):
                    for k in COUNTED:
                        result.counts[k] += int(counts.get(k, 0))
                if log:
                    print(f"  {map_path.stem} seed {seed} {player} as {mine}: winner {winner}", flush=True)
        result.maps.append(mr)
        if log:
            print(f"{mr.name}: {mr.wins}-{mr.losses} ({mr.draws} undecided)", flush=True)
    return result


def report(result: MatchResult) -> str:
    """The match as text: a line per map, the overall line, then the player's counts."""
    lines = [f"{result.player} against {result.opponent} (mirrored: each seed twice, sides swapped)"]
    lines.append(f"  rules: {rules_line(result.rules)}")
    if result.dice != KEYED_DICE:
        lines.append(f"  dice: {result.dice} (the legacy dice of battles measured before the keyed dice)")
    for m in [*result.maps, result.overall]:
        lines.append(
            f"  {m.name:<14} won {m.wins:>3}  lost {m.losses:>3}  undecided {m.draws:>2}  "
            f"win rate {m.rate * 100:5.1f} % of decided"
        )
    if any(result.counts.values()):
        lines.append("  " + ", ".join(f"{k} {v}" for k, v in result.counts.items()))
    return "\n".join(lines)


def rules_line(rules: Rules | None) -> str:
    """The rule options of a match in words: "FTC as written", or the set's name and what it changes."""
    if rules is None or not changed(rules.options):
        return rules.name if rules is not None and rules.name else "FTC as written"
    return f"{rules.name or 'custom'} ({describe(rules.options)})"


def main(argv: list[str] | None = None) -> int:
    """``python main.py ai-match [--players veteran,tactical] [--seeds 10] [--maps a.tmx,...] [--rules R]
    [--dice KIND] [--json F]``."""
    p = argparse.ArgumentParser(prog="main.py ai-match", description="Mirrored matches between computer players.")
    p.add_argument(
        "--players", default="veteran,tactical", help="the player and its opponent (default veteran,tactical)"
    )
    p.add_argument("--seeds", type=int, default=10, help="seeds per map, 1..N (default 10)")
    p.add_argument("--first-seed", type=seed_argument, default=1, help="the first seed (default 1)")
    p.add_argument("--maps", help="comma-separated .tmx files (default: every map in maps/)")
    p.add_argument("--max-rounds", type=int, default=MAX_ROUNDS)
    p.add_argument("--json", help="also write the results here as JSON")
    p.add_argument("--verbose", action="store_true", help="print each battle as it ends")
    p.add_argument("--verify", action="store_true", help="replay every battle from its save, as replay --verify")
    p.add_argument(
        "--dice",
        choices=DICE_KINDS,
        default=KEYED_DICE,
        help=f"the battles' dice (default {KEYED_DICE}; mt19937 plays the seeds as they were before the keyed dice)",
    )
    add_rules_option(p)
    args = parse_with_rules(p, argv)
    if args is None:
        return 2
    rules: Rules | None = args.rules
    kinds = [k.strip() for k in args.players.split(",")]
    if len(kinds) != 2 or any(k not in LEVELS for k in kinds):
        print(f"error: --players names two of {', '.join(LEVELS)}, e.g. veteran,tactical", file=sys.stderr)
        return 2
    maps = [Path(m) for m in args.maps.split(",")] if args.maps else sorted(MAPS_DIR.glob("*.tmx"))
    missing = [str(m) for m in maps if not m.is_file()]
    if missing:
        print(f"error: no map at {', '.join(missing)}; give .tmx files with --maps", file=sys.stderr)
        return 2
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    try:
        result = run_match(
            kinds[0],
            kinds[1],
            seeds,
            maps,
            args.max_rounds,
            log=args.verbose,
            verify=args.verify,
            rules=rules,
            dice=args.dice,
        )
    except record.ReplayMismatch as exc:
        print(f"error: a battle does not replay from its save: {exc}", file=sys.stderr)
        return 1
    print(report(result))
    if args.json:
        data = {
            "player": result.player,
            "opponent": result.opponent,
            "seeds": seeds,
            "dice": args.dice,
            "rules": {"name": rules.name if rules else "", "changed": changed(rules.options) if rules else {}},
            "maps": {m.name: {"won": m.wins, "lost": m.losses, "undecided": m.draws} for m in result.maps},
            "overall": {"won": result.overall.wins, "lost": result.overall.losses, "undecided": result.overall.draws},
            "counts": result.counts,
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0
