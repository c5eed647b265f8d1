"""The game's version and the rules revision (docs/architecture.md "A battle is its log").

Every save records both (``game.engine.record``). ``RULES_REVISION`` goes up with every change that alters
what a decision produces (a rule read anew, a table's number, the order of the dice): a save played under
another revision still loads, replayed under today's rules up to the last decision both agree on
(``record.replay_agreeing``). A test keeps the revision honest: the golden battle logs' digests are
registered per revision (``tests/golden/revisions.toml``), so a change of a golden log without a new
revision fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

GAME_VERSION = "1.0.0"
"""The game's version (``python main.py --version``; ``pyproject.toml`` reads it from here)."""

RULES_REVISION = 2
"""The revision of the rules the battle plays by: raise it with every change that alters what a decision
produces, and say what changed in ``RULE_CHANGES``."""

RULE_CHANGES: Mapping[int, str] = MappingProxyType(
    {
        1: "the rules as of version 1.0.0: the thirteen readings of the rules as written, the veteran player, "
        "and a damage bolt from a caster attacked in melee beating each of his melee attackers (FTC 6.1, 6.4.1)",
        2: "where the rules meet: a shield's uses a round count the free attacks (FTC 9.2); a figure covering "
        "several hexes on the line of fire is one combatant (FTC 6.5.3); Heal Wound below Very Hurt resets when "
        "its penalty counts (FTC 6.4); a caster wounded as his spell is due rolls Great Will (FTC 8.1); a figure "
        "held by a spell projects no zone; the doubled-degree track doubles the degree (Fudge 4.55); a blow "
        "never in reach is not struck (FTC 6.2); a spell does not add to itself",
    }
)
"""What each revision changed, in a few words (said when an older save parts from today's rules)."""
