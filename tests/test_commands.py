"""``python main.py COMMAND``: every command the help names reaches the part of the game that does it, and the
commands that need no window never load pygame."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import COMMANDS, USAGE, main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_reaches_its_own_usage(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"  {command} " in USAGE
    with contextlib.suppress(SystemExit):
        main([command, "--help"])
    said = capsys.readouterr()
    assert f"main.py {command} " in said.out + said.err


def test_simulate_and_check_map_never_load_the_window() -> None:
    probe = (
        "import sys\n"
        "from game.cli import main\n"
        "for command in ('simulate', 'check-map', 'replay'):\n"
        "    try:\n"
        "        main([command, '--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('pygame' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
