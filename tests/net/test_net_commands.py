"""``python main.py host`` and ``join`` as separate processes on the loopback address: a battle played to the
end whose ``--save`` log replays with ``replay --verify``; a client killed mid-battle takes its seat back with
its token; a host killed mid-battle resumes from its save and the clients rejoin."""

from __future__ import annotations

import re
import shutil
import socket
from pathlib import Path

import pytest

from main import main
from tests.net.nethelp import MAP, ROOT, Proc


def _port(host: Proc) -> int:
    line = host.wait_for("listening on ws://127.0.0.1:")
    match = re.search(r":(\d+)$", line)
    assert match, line
    return int(match.group(1))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _seat(side: str, port: int, *extra: str) -> Proc:
    seed = "0" if side == "blue" else "1"
    return Proc(
        "join", f"127.0.0.1:{port}", "--seat", side, "--name", side, "--players", "tactical", "--seed", seed, *extra
    )


def _verified(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python main.py replay LOG --verify`` (its own function, in this process) accepts the host's save."""
    capsys.readouterr()
    assert main(["replay", str(log), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "verified:" in out and "Battle over" in out


def test_host_and_join_play_a_shipped_map_to_victory_and_the_save_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "table.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", "--save", str(log))
    try:
        port = _port(host)
        watcher = Proc("join", f"127.0.0.1:{port}", "--seat", "watch", "--name", "Watcher", "--no-window")
        watcher.wait_for("seated at watch")
        blue, red = _seat("blue", port), _seat("red", port)
        assert [p.finish(60) for p in (blue, red, watcher)] == [0, 0, 0]
        assert host.finish(30) == 0
    finally:
        host.finish(1)
    assert any(line.startswith("The battle is over. Winner: ") for line in host.lines)
    assert any("Watcher watches" in line for line in host.lines)
    assert any("Battle over" in line for line in watcher.lines), "the watcher saw the battle"
    _verified(log, capsys)


@pytest.mark.slow
def test_a_client_killed_mid_battle_takes_its_seat_back_with_its_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "table.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", "--save", str(log))
    try:
        port = _port(host)
        blue, red = _seat("blue", port, "--think", "0.01"), _seat("red", port, "--think", "0.01")
        token = blue.wait_for("rejoin with --token ").rsplit(" ", 1)[1]
        host.wait_for("#20 ")
        blue.kill()
        host.wait_for("left the seat blue")
        thief = Proc("join", f"127.0.0.1:{port}", "--seat", "blue", "--players", "random")
        assert thief.finish(20) == 1
        assert any("is taken" in line for line in thief.lines)
        again = _seat("blue", port, "--token", token)
        assert again.finish(60) == 0 and red.finish(60) == 0
        assert host.finish(30) == 0
    finally:
        host.finish(1)
    assert any("rejoins the seat blue" in line for line in host.lines)
    _verified(log, capsys)


@pytest.mark.slow
def test_a_host_killed_mid_battle_resumes_from_its_save_and_the_clients_rejoin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "table.json"
    port = _free_port()
    host = Proc("host", str(MAP), "--port", str(port), "--seed", "5", "--save", str(log))
    again: Proc | None = None
    try:
        _port(host)
        blue, red = (_seat(side, port, "--think", "0.01", "--retry", "30") for side in ("blue", "red"))
        host.wait_for("#20 ")
        host.kill()
        again = Proc("host", "--resume", str(log), "--port", str(port))
        _port(again)
        assert blue.finish(60) == 0 and red.finish(60) == 0
        assert again.finish(30) == 0
    finally:
        host.finish(1)
        if again is not None:
            again.finish(1)
    assert any("rejoins the seat blue" in line for line in again.lines)
    assert any("rejoins the seat red" in line for line in again.lines)
    assert any(line.startswith("The battle is over. Winner: ") for line in again.lines)
    _verified(log, capsys)


def test_a_host_whose_computer_plays_every_seat_ends_the_battle_alone(tmp_path: Path) -> None:
    log = tmp_path / "alone.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", "--computer", "blue", "--computer", "red:tactical")
    try:
        assert host.finish(60) == 0
    finally:
        host.finish(1)
    assert any(line.startswith("The battle is over. Winner: ") for line in host.lines)
    assert not log.exists(), "without --save the host writes nothing"


def test_the_host_refuses_a_side_it_does_not_have() -> None:
    host = Proc("host", str(MAP), "--port", "0", "--computer", "purple")
    assert host.finish(30) == 2
    assert any("--computer purple: no such side" in line for line in host.lines)


def test_a_veteran_on_each_side_plays_a_table_over_loopback_to_the_end_and_the_save_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every computer level (``game.engine.players.LEVELS``) sits at a table: two clients whose veterans
    play their seats, a novice and a veteran of the host's own."""
    log = tmp_path / "veterans.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "7", "--save", str(log))
    try:
        port = _port(host)
        blue = Proc("join", f"127.0.0.1:{port}", "--seat", "blue", "--players", "veteran", "--seed", "0")
        red = Proc("join", f"127.0.0.1:{port}", "--seat", "red", "--players", "veteran", "--seed", "1")
        assert [p.finish(120) for p in (blue, red)] == [0, 0], blue.lines[-3:] + red.lines[-3:]
        assert host.finish(30) == 0
    finally:
        host.finish(1)
    assert any(line.startswith("The battle is over. Winner: ") for line in host.lines)
    _verified(log, capsys)


def test_the_hosts_own_computer_plays_every_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "levels.json"
    host = Proc(
        "host",
        str(MAP),
        "--port",
        "0",
        "--seed",
        "3",
        "--save",
        str(log),
        "--computer",
        "blue:veteran",
        "--computer",
        "red:novice",
    )
    try:
        assert host.finish(120) == 0, host.lines[-5:]
    finally:
        host.finish(1)
    assert any(line.startswith("The battle is over. Winner: ") for line in host.lines)
    _verified(log, capsys)


def test_the_host_names_the_computer_levels_when_one_is_unknown() -> None:
    host = Proc("host", str(MAP), "--port", "0", "--computer", "red:genius")
    assert host.finish(30) == 2
    assert any(
        "red:genius: no such computer player; choose one of random, novice, tactical, veteran" in line
        for line in host.lines
    ), host.lines


def test_the_gm_frees_a_seat_at_the_hosts_console_and_another_player_takes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "freed.json"
    host = Proc("host", str(MAP), "--port", "0", "--seed", "5", "--save", str(log))
    try:
        port = _port(host)
        blue, red = _seat("blue", port, "--think", "0.02"), _seat("red", port, "--think", "0.02")
        host.wait_for("#6 ")
        host.type("seats")
        host.wait_for("  blue: blue (connected)")
        host.type("free green")
        host.wait_for("error: there is no seat 'green' at this table")
        host.type("free blue")
        host.wait_for("the seat blue is free (it was blue's; that token no longer takes it back)")
        assert blue.finish(20) == 1
        assert any("The host freed your seat" in line for line in blue.lines), blue.lines[-3:]
        again = _seat("blue", port)
        assert again.finish(60) == 0 and red.finish(60) == 0
        assert host.finish(30) == 0
    finally:
        host.finish(1)
    assert sum("takes the seat blue" in line for line in host.lines) == 2, "blue's seat was taken twice"
    _verified(log, capsys)


@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_host_without_a_readable_standard_input_takes_no_commands_quietly() -> None:
    import asyncio
    import threading

    from game.net.host import Host
    from game.net.host_command import read_commands
    from tests.net.nethelp import table

    class Unreadable:
        def __iter__(self) -> Unreadable:
            return self

        def __next__(self) -> str:
            raise OSError("reading from stdin while output is captured")

    failures: list[object] = []
    hook, threading.excepthook = threading.excepthook, failures.append
    loop = asyncio.new_event_loop()
    try:
        thread = read_commands(Host(table()), loop, Unreadable())  # type: ignore[arg-type]
        thread.join(5)
    finally:
        threading.excepthook = hook
        loop.close()
    assert not thread.is_alive() and failures == []


def test_host_resume_says_what_loading_the_save_had_to_say_and_refuses_a_battle_that_is_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table's save from before the rules fixes: ``host --resume`` says on its console where its map was
    found and where today's rules part from it before it listens (the battle goes on from there); a battle
    played to its end is no table to take up again, and the host says so instead of waiting for nobody."""
    old = tmp_path / "old.json"
    shutil.copy(ROOT / "tests" / "saves" / "50739ce-before-the-rules-as-written-village.json", old)
    host = Proc("host", "--resume", str(old), "--port", "0")
    try:
        _port(host)
    finally:
        host.popen.terminate()
        host.finish(10)
    listening = next(i for i, line in enumerate(host.lines) if "listening on" in line)
    said = " ".join(host.lines[:listening])
    assert "is gone; the battle uses" in said and "same checksum" in said
    assert "part from it at round 1" in said and "the battle goes on after action" in said

    over = tmp_path / "over.json"
    assert main(["simulate", str(MAP), "--seed", "3", "--out", str(over)]) == 0
    assert "Battle over after" in capsys.readouterr().out
    ended = Proc("host", "--resume", str(over), "--port", "0")
    assert ended.finish(30) == 2
    assert any("this battle is over (winner: " in line and "replay" in line for line in ended.lines), ended.lines
