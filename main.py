"""Fudge Tactics — hex-grid tactical combat for *Fudge* (Fudge Tactical Combat), hotseat, with Tiled maps.

The commands (``python main.py --help``) live in ``game.cli``: the one place, with this file, that ties the
maps, the rosters and the sessions together.
"""

from __future__ import annotations

import sys

from game.cli import COMMANDS, main

__all__ = ["COMMANDS", "main"]

if __name__ == "__main__":
    sys.exit(main())
