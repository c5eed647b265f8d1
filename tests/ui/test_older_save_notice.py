"""Loading a save from an earlier version in the window says, over the battle, which version wrote it and
where today's rules part from it (docs/architecture.md "A battle is its log"); OK leaves the battle on
screen at the last action both agree on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pygame

from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.dialogs import MessageDialog
from tests.ui.conftest import key

SAVES = Path(__file__).resolve().parents[1] / "saves"


def test_an_older_save_opens_with_the_sentence_over_the_battle(app: App, tmp_path: Path) -> None:
    path = tmp_path / "older.json"
    shutil.copy(SAVES / "50739ce-before-the-rules-as-written-village.json", path)
    app.push(app.open_save(path))
    app.tick(0.0)
    dialog = app.top
    assert isinstance(dialog, MessageDialog) and dialog.title == "About this save"
    assert "part from it at round 1" in dialog.message and "the battle goes on after action" in dialog.message
    app.draw()
    assert dialog.lines and all(dialog.ui.text.width(line, 16) <= dialog.rect.width for line in dialog.lines)
    shots = os.environ.get("FUDGE_TACTICS_SCREENSHOTS")
    if shots:
        pygame.image.save(pygame.display.get_surface(), str(Path(shots) / "older-save-notice.png"))
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, BattleScreen) and len(app.top.battle.log) == 9
