"""One list of computer players (docs/computer-players.md): every place that lets the computer play a side
takes its levels from ``game.engine.players`` (the host, a seat's client, ``simulate``, ``ai-match``, New
battle, deployment, the roster editor), so a level added there is offered everywhere and none is left out of
one place, as the veteran once was at a table."""

from __future__ import annotations

import ast
from pathlib import Path

from game.engine.battle import CONTROLLERS
from game.engine.players import CHOSEN_IN_WINDOW, LEVELS, make_player
from game.ui.deploy_screen import CONTROLLERS as DEPLOY_CONTROLLERS
from game.ui.new_battle import NewBattleScreen
from game.ui.roster_editor.catalogue import CONTROLLERS as EDITOR_CONTROLLERS

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / "game" / "engine" / "players.py"
ROSTER_LIST = ROOT / "game" / "engine" / "battle" / "state.py"
"""The battle cannot import the players (they import the battle): its list is held equal below instead."""


def _lists_of_levels(path: Path) -> list[int]:
    """Lines of ``path`` where a tuple, list or set written out names two computer levels or more."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            named = {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in LEVELS}
            if len(named) >= 2:
                found.append(node.lineno)
    return found


def test_no_module_writes_out_a_second_list_of_computer_players() -> None:
    seconds = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "game").rglob("*.py"))
        if path not in (HOME, ROSTER_LIST) and (lines := _lists_of_levels(path))
    }
    assert seconds == {}, f"take the levels from game.engine.players instead: {seconds}"


def test_a_roster_may_name_a_human_or_every_level_and_nothing_else() -> None:
    assert ("human", *LEVELS) == CONTROLLERS


def test_the_screens_offer_a_human_and_the_levels_of_the_one_list() -> None:
    assert set(CHOSEN_IN_WINDOW) <= set(LEVELS)
    assert NewBattleScreen.CONTROLLERS == DEPLOY_CONTROLLERS == ("human", *CHOSEN_IN_WINDOW)
    assert EDITOR_CONTROLLERS[: len(CHOSEN_IN_WINDOW) + 1] == ("human", *CHOSEN_IN_WINDOW)
    assert sorted(EDITOR_CONTROLLERS) == sorted(CONTROLLERS), "the editor offers what a roster may hold"


def test_every_level_of_the_list_plays() -> None:
    for level in LEVELS:
        assert callable(make_player(level, 1))
