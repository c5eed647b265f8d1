"""Magic on the battle screen, as it was named before the screen was split into parts: the spell panel is
``game.ui.battle.spells.SpellPanel``, the words and shapes of magic ``game.ui.battle.spellbook``."""

from game.ui.battle.spellbook import (
    BROKEN,
    MAGIC,
    MAGIC_CB,
    cast_lines,
    default_spell,
    inspector_lines,
    is_area,
    log_colour,
    magic_colour,
    range_hexes,
    spell_tooltip,
    token_marks,
)
from game.ui.battle.spells import ROW, SpellPanel

__all__ = [
    "BROKEN",
    "MAGIC",
    "MAGIC_CB",
    "ROW",
    "SpellPanel",
    "cast_lines",
    "default_spell",
    "inspector_lines",
    "is_area",
    "log_colour",
    "magic_colour",
    "range_hexes",
    "spell_tooltip",
    "token_marks",
]
