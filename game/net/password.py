"""Where ``host`` and ``join`` take a table's password from, so that it need not be on the command line (where
every user of the computer can read it in the process list): the environment variable ``PASSWORD_ENV``, or a
prompt (``--ask-password``: typed without echo at a terminal, else read as one line of standard input)."""

from __future__ import annotations

import getpass
import os
import sys

PASSWORD_ENV = "FUDGE_TACTICS_PASSWORD"
"""The environment variable ``host`` and ``join`` read the table's password from."""


def table_password(given: str | None, *, ask: bool, prompt: str = "Table password: ") -> str:
    """The password: ``given`` (``--password``), else asked for (``ask``), else ``PASSWORD_ENV``, else none."""
    if given is not None:
        return given
    if ask:
        if sys.stdin.isatty():
            return getpass.getpass(prompt)
        line = sys.stdin.readline()
        return line.rstrip("\r\n")
    return os.environ.get(PASSWORD_ENV, "")


PASSWORD_HELP = (
    f"the table's password (others can read it in the process list: prefer --ask-password or {PASSWORD_ENV})"
)
ASK_HELP = f"ask for the table's password (without echo) instead of reading --password or {PASSWORD_ENV}"
