"""Regenerate the golden battle logs in this folder (whole short battles).

Run from the project root::

    python tests/golden/make_golden.py                 # every log
    python tests/golden/make_golden.py spell_cast      # only the logs named

Each log is a short battle on a scenario of ``scenarios.py`` (or a shipped map) played by a scripted
policy from a fixed seed (the table ``GOLDEN``), chosen so that the log shows the rule it is named after
(hold and interrupt, forfeits in reverse order, escape won / lost / turn tail, retreat and follow,
simultaneous kills, a miss hitting a bystander); writing refuses a seed that no longer shows it. The logs
are saved with ``record.save``, so each carries its seed, its actions and one events digest per action.
Beside each ``<name>.json`` lies ``<name>.events.txt`` (every event as text, one a line, under a header
per decision): ``tests/engine/test_record.py`` replays every log, compares the
events line by line with the text file (so a failing test shows which roll or outcome changed), then
every digest, and checks the rule each log exhibits (``EXPECT``). Regenerate only when the rules engine
changes on purpose, and read the diff of the ``.events.txt`` files before committing it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.engine import actions as act  # noqa: E402
from game.engine import events as ev  # noqa: E402
from game.engine import gm, record  # noqa: E402
from game.engine.ai import RandomPlayer  # noqa: E402
from game.engine.battle import Battle, BattleSetup, Decision, Seat, legal_actions  # noqa: E402
from game.engine.generator import KEYED_DICE, LEGACY_DICE  # noqa: E402
from game.engine.hexgrid import Hex  # noqa: E402
from tests.golden.scenarios import CENTRE, SCENARIOS, east  # noqa: E402
from tests.helpers import do_little  # noqa: E402

HERE = Path(__file__).resolve().parent
Policy = Callable[[Battle, Decision], act.Action]

EXPECT: dict[str, Callable[[list[ev.Event]], bool]] = {
    "hold_and_interrupt": lambda es: (
        any(isinstance(e, ev.Held) for e in es) and any(isinstance(e, ev.Moved) and e.figure == "a" for e in es)
    ),
    "forfeit_in_reverse_order": lambda es: sum(isinstance(e, ev.Forfeited) for e in es) >= 2,
    "escape_won": lambda es: any(isinstance(e, ev.EscapeContest) and e.escaped for e in es),
    "escape_lost_stays": lambda es: any(isinstance(e, ev.EscapeFailed) and not e.run for e in es),
    "turn_tail_and_run": lambda es: any(isinstance(e, ev.AttackResolved) and e.free_attack for e in es),
    "retreat_and_follow": lambda es: {e.reason for e in es if isinstance(e, ev.Stepped)} >= {"retreat", "follow"},
    "simultaneous_kills": lambda es: (
        sum(isinstance(e, ev.TakenOut) for e in es) == 2
        and any(isinstance(e, ev.BattleEnded) and e.winner is None for e in es)
    ),
    "miss_hits_bystander": lambda es: any(isinstance(e, ev.StrayShot) and e.victim == "by" for e in es),
    "skirmish_random": lambda es: any(isinstance(e, ev.AttackResolved) for e in es),
    "skirmish_secret_stances": lambda es: any(isinstance(e, ev.Revealed) for e in es),
    "spell_interrupted": lambda es: (
        any(isinstance(e, ev.ConcentrationRolled) and e.reason == "damaged" and not e.kept for e in es)
        and any(isinstance(e, ev.ConcentrationBroken) and e.reason == "lost concentration" for e in es)
    ),
    "spell_cast": lambda es: (
        any(isinstance(e, ev.SpellCast) and e.spell == "Thunderstrike" and e.success for e in es)
        and sum(isinstance(e, ev.CastingContinued) for e in es) == 4
    ),
    "gm_refereed": lambda es: (
        sum(isinstance(e, ev.GMActed) for e in es) >= 7
        and any(
            isinstance(e, ev.AttackResolved) and any(n.startswith("GM") for n, _ in (*e.offence_mods, *e.defence_mods))
            for e in es
        )
    ),
    "large_through_zoc": lambda es: (
        any(isinstance(e, ev.EscapeContest) and e.mover == "d" and e.escaped for e in es)
        and any(isinstance(e, ev.Moved) and e.figure == "d" and len(e.path) > 2 for e in es)
    ),
    "scale_both_sides": lambda es: {e.attacker for e in es if isinstance(e, ev.AttackResolved) and e.hit} == {"g", "p"},
    # FTC 9.2: the small shield meets the first of the two free attacks on the runner, not the second
    "shield_against_one_free_attack": lambda es: (
        [
            any(name == "Shield" for name, _ in e.defence_mods)
            for e in es
            if isinstance(e, ev.AttackResolved) and e.free_attack and e.target == "m"
        ]
        == [True, False]
    ),
}
"""Golden log name -> the rule its events must show (checked by the tests on replay)."""


def _default(b: Battle, d: Decision) -> act.Action:
    return do_little(d)


def _hold(b: Battle, d: Decision) -> act.Action:
    if d.figure == "a" and d.reason == "move":
        return act.Hold("a")
    if d.reason == "interrupt" and b.figures["a"].held and any(b.figures[f].moved for f in ("y", "z")):
        return act.Move("a", ((east(b.figures["a"].hex), b.figures["a"].facing),))
    return _default(b, d)


def _all_hold(b: Battle, d: Decision) -> act.Action:
    if d.reason == "move":
        return act.Hold(d.figure or "")
    return _default(b, d)


AWAY = ((east(CENTRE, 2), 0), (east(CENTRE, 3), 0))


def _leave(run: bool) -> Policy:
    def policy(b: Battle, d: Decision) -> act.Action:
        if d.figure == "m" and d.reason == "move":
            return act.Move("m", AWAY)
        if d.reason == "escape_failed":
            return act.EscapeFailedChoice("m", run)
        return _default(b, d)

    return policy


def _retreat(b: Battle, d: Decision) -> act.Action:
    if d.reason == "declare" and d.figure == "a":
        return act.Declare("a", "neutral", ("z",) if "z" in b.targets_for("a") else ())
    if d.reason == "declare" and d.figure == "z":
        back = b.retreat_hexes("z")
        return act.Declare("z", "mildly_defensive", retreat=back[0] if back else None)
    if d.reason == "follow":
        return act.FollowChoice(d.figure or "", d.follow_hex)
    return _default(b, d)


def _slug(b: Battle, d: Decision) -> act.Action:
    if d.reason == "declare":
        other = "z" if d.figure == "a" else "a"
        return act.Declare(
            d.figure or "", "very_aggressive", (other,) if other in b.targets_for(d.figure or "") else ()
        )
    return _default(b, d)


def _fire(b: Battle, d: Decision) -> act.Action:
    if d.reason == "declare" and d.figure == "a":
        return act.Declare("a", "neutral", ("t",), "Shortbow")
    return _default(b, d)


def _thunder(target: str, *, shooter: str | None = None) -> Policy:
    """FTC 8.1: the wizard concentrates on Thunderstrike; ``shooter`` (if any) shoots at him undodged."""

    def policy(b: Battle, d: Decision) -> act.Action:
        if d.reason == "declare" and d.figure == "w" and (b.round == 1 or b.casting_of("w") is not None):
            return act.Declare("w", spell="Thunderstrike", spell_target=target)
        if d.reason == "declare" and d.figure == shooter:
            return act.Declare(shooter, "neutral", ("w",), "Shortbow")
        return _default(b, d)

    return policy


def _large_leaves(b: Battle, d: Decision) -> act.Action:
    if d.figure == "d" and d.reason == "move":
        away = Hex(CENTRE.q - 3, CENTRE.r)
        return act.Move("d", b.reach_for("d").path(away).steps)
    return _default(b, d)


def _trade_blows(b: Battle, d: Decision) -> act.Action:
    if d.reason == "declare":
        other = "p" if d.figure == "g" else "g"
        return act.Declare(d.figure or "", "neutral", (other,) if other in b.targets_for(d.figure or "") else ())
    return _default(b, d)


def _runner(b: Battle, d: Decision) -> act.Action:
    """The shield fighter leaves both zones westwards and runs when his escape fails (FTC 5.3)."""
    if d.figure == "m" and d.reason == "move":
        return act.Move("m", ((Hex(CENTRE.q - 1, CENTRE.r), 3),))
    if d.reason == "escape_failed":
        return act.EscapeFailedChoice("m", True)
    return _default(b, d)


def _random(seed: int) -> Policy:
    players = {"blue": RandomPlayer(seed), "red": RandomPlayer(seed + 1)}
    return lambda b, d: players[d.side](b, d)


def _refereed(seed: int) -> Policy:
    """Random players, and a GM who gives modifiers and a condition, sets a die, ends a round
    and sends a reinforcement (each GM decision once, when the battle reaches its moment)."""
    play_random = _random(seed)
    done: set[str] = set()

    def between_rounds(b: Battle) -> bool:
        return b.phase == "movement" and not any(f.moved or f.held for f in b.figures.values())

    def policy(b: Battle, d: Decision) -> act.Action:
        script: list[tuple[str, bool, act.Action]] = [
            ("hill", True, gm.SituationalModifier("hill", "b0", 1, "high ground", "removed")),
            ("dusk", True, gm.BattleCondition("dusk", "bad_light", -1, reason="dusk")),
            ("sun", True, gm.SituationalModifier("sun", "red", -1, "sun in their eyes")),
            ("die", True, gm.SetDie("b1", "combat", (1, 1, 0, 0))),
            ("lift", b.round == 2 and between_rounds(b), gm.RemoveModifier("hill")),
            ("horn", b.round == 2 and between_rounds(b), gm.EndRound("the horn sounds")),
            (
                "help",
                b.round == 3 and between_rounds(b),
                gm.AddFigure(
                    "r9",
                    "red",
                    next(
                        b.terrain.hex_at(8, row)
                        for row in range(b.terrain.height)
                        if b.occupant(b.terrain.hex_at(8, row)) is None
                    ),
                    3,
                    "Latecomer",
                    roster_key="brigand",
                ),
            ),
        ]
        for name, ready, action in script:
            if ready and name not in done:
                done.add(name)
                return action
        return play_random(b, d)

    return policy


SHIELD_SEED = 0

GOLDEN: dict[str, tuple[str, Callable[[int], Policy], int, int]] = {
    # name: (scenario, policy for a seed, rounds to play, seed)
    "hold_and_interrupt": ("hold", lambda s: _hold, 1, 1),
    "forfeit_in_reverse_order": ("hold", lambda s: _all_hold, 1, 0),
    "escape_won": ("zoc_swift_vs_peasant", lambda s: _leave(False), 1, 0),
    "escape_lost_stays": ("zoc_clumsy_vs_guard", lambda s: _leave(False), 1, 0),
    "turn_tail_and_run": ("zoc_clumsy_vs_guard", lambda s: _leave(True), 1, 0),
    "retreat_and_follow": ("duel", lambda s: _retreat, 1, 0),
    "simultaneous_kills": ("bruisers", lambda s: _slug, 3, 0),
    "miss_hits_bystander": ("shot_past_enemy", lambda s: _fire, 1, 91),
    "skirmish_random": ("skirmish", _random, 3, 0),
    "skirmish_secret_stances": ("skirmish_secret", _random, 2, 0),
    "spell_interrupted": ("spell_duel", lambda s: _thunder("a", shooter="a"), 3, 0),
    "spell_cast": ("spell_far", lambda s: _thunder("b"), 5, 0),
    "gm_refereed": ("skirmish_gm", _refereed, 3, 0),
    "large_through_zoc": ("large_zoc", lambda s: _large_leaves, 1, 6),
    "scale_both_sides": ("scale_both", lambda s: _trade_blows, 3, 151),
    "shield_against_one_free_attack": ("shield_runner", lambda s: _runner, 1, SHIELD_SEED),
}


def play(name: str, seed: int) -> Battle:
    """Play golden battle ``name`` from ``seed`` for its number of rounds."""
    scenario, policy_for, rounds, _seed = GOLDEN[name]
    b = Battle(SCENARIOS[scenario](seed))
    policy = policy_for(seed)
    while not b.over and b.round <= rounds:
        d = legal_actions(b)
        assert d is not None
        b.apply(policy(b, d))
    return b


def event_lines(setup: BattleSetup, actions: Sequence[act.Action]) -> list[str]:
    """A battle's events as readable text, one event per line, under a header per decision: what the
    golden ``<name>.events.txt`` files hold, so that a changed golden battle shows as a plain diff of the
    rolls and outcomes (the digests beside them only say *that* something changed)."""
    opening = len(Battle(setup).events)
    bounds: list[int] = []
    b = record.replay(setup, actions, on_action=lambda _i, battle: bounds.append(len(battle.events)))
    names = b.names()

    def lines(events: Sequence[ev.Event]) -> list[str]:
        return [f"  {e.kind}: {e.text(names)}" for e in events]

    out = ["@ opening", *lines(b.events[:opening])]
    start = opening
    for i, (action, end) in enumerate(zip(actions, bounds, strict=True)):
        data = {k: _readable(k, v) for k, v in act.action_to_json(action).items() if v not in (None, [], {})}
        what = json.dumps(data, separators=(",", ":"))
        out += [f"@ {i + 1} {what}", *lines(b.events[start:end])]
        start = end
    return out


def _readable(name: str, value: object) -> object:
    """A decision's field as the readable golden text shows it: a move's states as ``[q, r, facing]``."""
    if name == "steps" and isinstance(value, list):
        return [[*hex_, facing] for hex_, facing in value]
    return value


def write_readable(name: str, setup: BattleSetup, actions: Sequence[act.Action]) -> None:
    """Write ``<name>.events.txt`` (one event per line) beside the golden log ``<name>.json`` (which keeps
    the seed, the actions and one digest per decision)."""
    (HERE / f"{name}.events.txt").write_text("\n".join(event_lines(setup, actions)) + "\n", encoding="utf-8")


def read_lines(path: Path) -> list[str]:
    """The lines of a readable golden file (``event_lines``'s form)."""
    return path.read_text(encoding="utf-8").splitlines()


MAP_GOLDEN: dict[str, tuple[str, int, int, str]] = {
    # name: (shipped map, seed, rounds, dice) — tactical against tactical through ``game.session``
    "map_open_field_tactical": ("open_field.tmx", 1, 3, LEGACY_DICE),
    "map_open_field_keyed_dice": ("open_field.tmx", 1, 3, KEYED_DICE),
}
"""Golden logs on shipped maps (saved by ``Session.save``; the map path is stored relative to the repo). The
scenario logs above and the first map log roll the legacy dice they were made with; the last rolls the game's
keyed dice (``game.engine.generator``), as every new battle does."""


def play_map(name: str) -> object:
    """Play a shipped-map golden battle through a session and return the session."""
    from game.engine.ai import TacticalPlayer
    from game.session import new_session

    map_name, seed, rounds, dice = MAP_GOLDEN[name]
    session = new_session(ROOT / "maps" / map_name, seed=seed, autosave=False, dice=dice)
    players = {sid: TacticalPlayer(seed + i) for i, sid in enumerate(session.battle.sides)}
    while not session.battle.over and session.battle.round <= rounds:
        d = legal_actions(session.battle)
        assert d is not None
        session.apply(players[d.side](session.battle, d), Seat.of_side(d.side))
    return session


def main(argv: list[str] | None = None) -> int:
    """Write the golden logs named on the command line (all of them when none is named) and print what
    was written; regenerate only the logs whose rules changed."""
    wanted = set(sys.argv[1:] if argv is None else argv)
    unknown = wanted - set(GOLDEN) - set(MAP_GOLDEN)
    if unknown:
        print(f"unknown golden log(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for name in MAP_GOLDEN:
        if wanted and name not in wanted:
            continue
        session = play_map(name)
        path = HERE / f"{name}.json"
        session.save(path)  # type: ignore[attr-defined]
        data = json.loads(path.read_text())
        data["setup"]["map"] = "maps/" + MAP_GOLDEN[name][0]  # relative to the project root
        data["setup"].pop("roster_file", None)
        record.write_atomic(path, json.dumps(data, indent=1))
        battle = session.battle  # type: ignore[attr-defined]
        write_readable(name, battle.setup, battle.log)
        print(f"{name}: {len(data['actions'])} actions")
    for name in GOLDEN:
        if wanted and name not in wanted:
            continue
        seed = GOLDEN[name][3]
        b = play(name, seed)
        if not EXPECT[name](b.events):
            print(f"{name}: seed {seed} no longer shows its rule; change the policy or the seed", file=sys.stderr)
            return 1
        record.save(HERE / f"{name}.json", b, {"scenario": GOLDEN[name][0], "golden": name})
        write_readable(name, b.setup, b.log)
        print(f"{name}: seed {seed}, {len(b.log)} actions, {len(b.events)} events")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
