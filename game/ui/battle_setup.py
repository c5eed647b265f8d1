"""What the New battle screen chose (``BattleSetup``): the map, the roster, who plays each side, the rules.

Kept apart from the screens so the app, the deployment screen and a hosted table share it without the
screens' weight.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class BattleSetup:
    """What the New battle screen chose: the map, the roster, who plays each side."""

    map_path: Path | None
    roster_path: Path | None = None
    controllers: tuple[str, ...] = ()
    """Who plays the first sides, in the map's order ("human", "tactical", "random"); empty: the roster's."""
    seed: int | None = None
    options: Any = None
    """``game.engine.battle.RuleOptions`` (None: the rules text's defaults)."""
    rules_name: str = ""
    """The name of the options' set (a preset's, a GM's rules file's; "" for FTC as written or one's own)."""
    side_controllers: tuple[tuple[str, str], ...] = ()
    """(side id, controller) pairs; these win over ``controllers``."""
    placements: tuple[dict[str, Any], ...] | None = None
    """The figures as the deployment screen placed them (``game.session.new_session``'s ``placements``)."""
    gm: str | None = None
    """The GM seat: None, "referee" or a side id."""
    deploy: bool = True
    """Show the deployment screen before the battle when ``placements`` is None (the command line skips it)."""
