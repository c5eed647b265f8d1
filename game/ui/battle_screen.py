"""The battle screen's names as they were before it was split into parts (``game.ui.battle``): the screen
is ``game.ui.battle.screen``, its dialogs ``curtain`` and ``victory``, the benchmark ``bench``."""

from game.ui.battle.bench import bench_frame, bench_screen
from game.ui.battle.common import action_side
from game.ui.battle.curtain import CurtainScreen
from game.ui.battle.model import DeclState
from game.ui.battle.screen import BattleScreen, open_battle_save, rule_option_help
from game.ui.battle.victory import VictoryScreen, battle_stats, summary_of, victory_line
from game.ui.theme import hex_colour

__all__ = [
    "BattleScreen",
    "CurtainScreen",
    "DeclState",
    "VictoryScreen",
    "action_side",
    "battle_stats",
    "bench_frame",
    "bench_screen",
    "hex_colour",
    "open_battle_save",
    "rule_option_help",
    "summary_of",
    "victory_line",
]
