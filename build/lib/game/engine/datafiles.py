"""The engine's own data files: the rules' tables as TOML a GM can read and change (docs/architecture.md "Tables are
data").

Every module reads its numbers through ``read_table``, which parses a file of ``game/engine/data`` once and
turns a missing or broken file into one ``DataFileError`` naming the file and the fix. The mappings returned
are shared: read them, never change them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"


class DataFileError(ValueError):
    """A rules data file that cannot be read; the message names the file and what to do."""


def data_path(name: str) -> Path:
    """Where a data file lives, e.g. ``data_path("combat.toml")``."""
    return DATA_DIR / name


@cache
def read_table(name: str, *, exact: bool = False) -> Mapping[str, Any]:
    """The parsed TOML file ``data/<name>``, read once. ``exact`` reads decimals as ``Fraction`` so that
    a factor such as FTC 6.4.1's 1.3 is exactly 13/10."""
    path = data_path(name)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle, parse_float=Fraction) if exact else tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(
            f"cannot read the rules data file {path}: {exc}; restore it from the game's "
            "distribution or fix the line named"
        ) from exc
