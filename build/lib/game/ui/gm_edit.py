"""The GM's edits of figures on screen, as they were named before the dialogs got a module each: gear
(``game.ui.gm_gear``), traits (``game.ui.gm_traits``), reinforcements (``game.ui.gm_reinforce``), the
common box and the removal (``game.ui.gm_dialog``)."""

from game.ui.gm_dialog import BETWEEN_ROUNDS, CheckRow, GMDialog, between_rounds_tip, confirm_remove
from game.ui.gm_gear import GearEditor
from game.ui.gm_reinforce import PlaceFigure, ReinforceDialog, compass, fresh_figure_id
from game.ui.gm_traits import TraitsEditor

__all__ = [
    "BETWEEN_ROUNDS",
    "CheckRow",
    "GMDialog",
    "GearEditor",
    "PlaceFigure",
    "ReinforceDialog",
    "TraitsEditor",
    "between_rounds_tip",
    "compass",
    "confirm_remove",
    "fresh_figure_id",
]
