"""One session type for the battle screen: the local ``Session`` and a seat at a table (``RemoteSession``) are
both a ``BattleSession`` — for mypy, which then checks every call the screen makes on either, and at run time
(the Protocol is ``runtime_checkable``). A table takes no decision back; a local undo brings the autosave along."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import record
from game.engine.battle import IllegalAction, Seat, legal_actions
from game.net.remote import RemoteSession
from game.session import BattleSession, new_session
from tests.net.nethelp import client, hosted, table

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_reads_the_local_and_the_remote_session_as_battle_sessions(tmp_path: Path) -> None:
    """A typed assignment of each session to ``BattleSession`` passes ``mypy --strict``; a session missing one
    member (``rewind``) is refused at its line — the check can fail."""
    snippet = tmp_path / "sessions_typed.py"
    snippet.write_text(
        textwrap.dedent(
            """
            from game.engine.battle import Battle
            from game.net.remote import RemoteSession
            from game.session import BattleSession, Session


            class NoRewind(Session):
                rewind = None  # type: ignore[assignment]


            def both(local: Session, remote: RemoteSession) -> list[BattleSession]:
                first: BattleSession = local
                second: BattleSession = remote
                return [first, second]


            def wrong(half: NoRewind, battle: Battle) -> BattleSession:
                return half
            """
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(snippet)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "sessions_typed.py:18:" in errors[0] and "BattleSession" in errors[0], done.stdout


def test_a_local_session_and_a_seat_at_a_table_are_battle_sessions_at_run_time() -> None:
    local = new_session(seed=3, autosave=False)
    assert isinstance(local, BattleSession)
    t = table()
    blue = next(iter(t.battle.sides))
    with hosted(t) as port:
        remote = RemoteSession.connect(client(port, blue))
        try:
            assert isinstance(remote, BattleSession)
            assert remote.loaded is None  # the host has the map file
        finally:
            remote.close()
    assert not isinstance(object(), BattleSession)


def test_a_table_takes_no_decision_back() -> None:
    """``rewind`` at a table refuses with a sentence (the host rolled and told every seat); the battle stays."""
    t = table()
    blue = next(iter(t.battle.sides))
    with hosted(t) as port:
        remote = RemoteSession.connect(client(port, blue))
        try:
            before = remote.battle
            with pytest.raises(IllegalAction, match="decisions stand"):
                remote.rewind(before)
            assert remote.battle is before
        finally:
            remote.close()


def test_a_local_rewind_brings_the_autosave_along(home: Path) -> None:
    """The screen's undo (``rewind`` to an earlier battle) takes the decision out of the autosave too, so
    Continue does not bring it back."""
    s = new_session(seed=2)
    d = legal_actions(s.battle)
    assert d is not None and d.figure
    s.apply(act.Hold(d.figure), Seat.of_side(d.side))
    assert len(json.loads((home / "autosave.json").read_text())["actions"]) == 1
    s.rewind(record.undo(s.battle))
    assert s.battle.log == []
    assert json.loads((home / "autosave.json").read_text())["actions"] == []
