"""The computer players by level, weakest first (``docs/computer-players.md``): the one list every place that
lets a side be played by the computer offers (``simulate --players``, the New battle screen, ``ai-match``).
"""

from __future__ import annotations

from game.engine.ai import Player, RandomPlayer, TacticalPlayer
from game.engine.novice import NovicePlayer
from game.engine.veteran import VeteranPlayer

LEVELS: tuple[str, ...] = ("random", "novice", "tactical", "veteran")
"""The computer players by name, weakest first."""

LEVEL_NAMES: dict[str, str] = {
    "random": "Computer (random)",
    "novice": "Computer (novice)",
    "tactical": "Computer",
    "veteran": "Computer (veteran)",
}
"""How a level is named on the screens that choose who plays a side."""

CHOSEN_IN_WINDOW: tuple[str, ...] = ("tactical", "veteran", "novice")
"""The levels a player chooses for a side on the screens (New battle, deployment, the roster editor), in the
order a click cycles through them: the usual opponent first; "random" is a testing tool, left to ``simulate``
(and offered last by the roster editor, which writes what a roster may hold)."""


def make_player(kind: str, seed: int = 0) -> Player:
    """A computer player by level (``LEVELS``): "random", "novice", "tactical" or "veteran"."""
    players: dict[str, type[RandomPlayer] | type[TacticalPlayer]] = {
        "random": RandomPlayer,
        "novice": NovicePlayer,
        "tactical": TacticalPlayer,
        "veteran": VeteranPlayer,
    }
    if kind not in players:
        raise ValueError(f"unknown computer player {kind!r}; choose one of {', '.join(LEVELS)}")
    return players[kind](seed)


__all__ = ["CHOSEN_IN_WINDOW", "LEVELS", "LEVEL_NAMES", "make_player"]
