"""``bench``'s ``save_decode_ms``: decoding and checking a 2,000-decision save before its replay.

The save is a real battle's: the tactical player against itself on a shipped map, saved by the game, its
decisions repeated (with their digests) until the log holds 2,000; what is timed is ``game.session``'s reading
of it before the replay — the file read and one strict decode of the whole document against the save's schema
(``record.load`` with the session's ``SetupData``: every decision, digest and setup field checked,
docs/architecture.md "One contract at every boundary").
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from game.bench_screen import median
from game.engine.battle import Seat
from game.engine.players import make_player

DECISIONS = 2000


def write_long_save(folder: Path, map_path: Path, decisions: int = DECISIONS) -> Path:
    """A save of ``decisions`` decisions: a tactical battle on ``map_path``, its log repeated to length."""
    from game.session import new_session

    session = new_session(map_path, seed=11, autosave=False)
    players = {s: make_player("tactical", i + 1) for i, s in enumerate(session.battle.sides)}
    while not session.battle.over and len(session.battle.log) < decisions:
        d = session.battle.decision()
        if d is None:
            break
        session.apply(players[d.side](session.battle, d), Seat.of_side(d.side))
    path = folder / "long.json"
    session.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    played = len(data["actions"])
    data["actions"] = (data["actions"] * (decisions // played + 1))[:decisions]
    data["digests"] = (data["digests"] * (decisions // played + 1))[:decisions]
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def save_decode_ms(folder: Path, map_path: Path, reps: int) -> tuple[float, str]:
    """The median time to read and decode the long save (ms), and what was measured."""
    from game.engine import record
    from game.session import SetupData

    path = write_long_save(folder, map_path)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        rec = record.load(path, SetupData)
        times.append(time.perf_counter() - t0)
    size = path.stat().st_size / 1024
    note = f"{len(rec.actions)} decisions ({size:.0f} KB, {map_path.name}): file read + strict decode, before replay"
    return median(times) * 1000, note
