"""The odds the panels show: computed by ``game.engine.preview`` (the battle's own terms), printed here.

The names of ``game.engine.preview`` stay importable from this module; ``percent`` is how a chance reads
on the screen.
"""

from __future__ import annotations

from fractions import Fraction

from game.engine.preview import (
    AttackPreview,
    Bystander,
    MovePreview,
    Preview,
    SpellPreview,
    StanceColumn,
    attack_preview,
    concentration_odds,
    escape_chance,
    preview,
    public_declarations,
    spell_preview,
    weapon_named,
)

__all__ = [
    "AttackPreview",
    "Bystander",
    "MovePreview",
    "Preview",
    "SpellPreview",
    "StanceColumn",
    "attack_preview",
    "concentration_odds",
    "escape_chance",
    "percent",
    "preview",
    "public_declarations",
    "spell_preview",
    "weapon_named",
]


def percent(p: Fraction | float) -> str:
    """A chance as the panels print it: "37%", "<1%", ">99%"."""
    x = float(p) * 100
    if 0 < x < 1:
        return "<1%"
    if 99 < x < 100:
        return ">99%"
    return f"{round(x)}%"
