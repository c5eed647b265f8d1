"""The base of every decision as data: the one type the players' actions (``game.engine.actions``) and the
GM's (``game.engine.gm``) both build on, so neither module needs the other to define its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Action:
    """Base class of all decisions; ``side`` is the player deciding (filled by ``apply`` when empty)."""

    kind: ClassVar[str] = "action"
