"""The battle screen's game menu (Esc): save (Ctrl+S), load (Ctrl+O), settings, help, yield the battle,
the after-battle screen once it is over, back to the title or quit — the autosave brought up to the last
decision first; and undo (Ctrl+Z), a side taking back its own last decision."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from game.engine import actions as act
from game.engine import record
from game.engine.battle import Battle, IllegalAction, Seat
from game.session import BattleSession
from game.ui.battle.common import PartHost, action_side
from game.ui.battle.victory import summary_of
from game.ui.dialogs import FileChooser, MessageDialog, describe_error
from game.ui.screen import Pop, Push, Replace, Screen, Transition, UiContext
from game.ui.screens import EscapeMenu
from game.ui.summary_screen import BattleEnd
from game.ui.widgets import Button

OpenSave = Callable[[UiContext, Path, Callable[[], Transition]], Screen]
"""Opens a saved battle as a screen (the battle screen's ``open_battle_save``)."""


class MenuHost(PartHost, Protocol):
    """The battle screen as the game menu sees it: the session (save, the after-battle care), who plays each
    side here, the door a yield goes through, the status bar, and the ways out: another state of the battle
    (undo), back to the title."""

    @property
    def session(self) -> BattleSession: ...
    @property
    def to_title(self) -> Callable[[], Transition]: ...
    def is_human(self, side: str) -> bool: ...
    def send(self, action: act.Action, seat: Seat | None = None) -> bool: ...
    def set_status(self, text: str, error: bool = False, *, lasting: bool = False) -> None: ...
    def rebind(self, battle: Battle) -> None: ...
    def leave_to_title(self) -> Transition: ...


class GameMenu:
    """The menu and the commands it offers."""

    def __init__(self, screen: MenuHost, open_save: OpenSave) -> None:
        self.screen = screen
        self.model = screen.model
        self.open_save = open_save

    def undo(self) -> bool:
        """Ctrl+Z: take back the last decision of the side deciding now (never another side's); the computer
        decisions since that player's last one go with it (``record.undo``)."""
        sc = self.screen
        d = self.model.battle.decision()
        battle = self.model.battle
        if not battle.log:
            sc.set_status("There is nothing to undo yet.", error=True)
            return False
        mine = d.side if d is not None else None
        candidate = battle
        try:
            while candidate.log and not sc.is_human(action_side(candidate, candidate.log[-1]) or ""):
                candidate = record.undo(candidate)
            if not candidate.log:
                raise IllegalAction("There is nothing of yours to undo.")
            last_side = action_side(candidate, candidate.log[-1])
            if mine is not None and last_side != mine:
                raise IllegalAction("Only the side deciding now may take back its own last decision.")
            candidate = record.undo(candidate)
        except IllegalAction as exc:
            sc.set_status(str(exc), error=True)
            return False
        sc.rebind(candidate)
        sc.set_status("Undone.")
        return True

    def save(self) -> bool:
        """Ctrl+S: save to the saves folder with the battle's title and the time."""
        folder = self.screen.ui.saves_dir()
        title = str(self.screen.session.setup_data.get("title", "battle")).replace(" ", "_").replace("/", "_")
        path = folder / f"{title}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.screen.session.save(path)
        except Exception as exc:  # a full disk or a read-only folder: a sentence, never a traceback
            self.screen.set_status(describe_error(exc, "Saving"), error=True)
            return False
        self.screen.set_status(f"Saved to {path}")
        return True

    def load_chooser(self) -> Transition:
        """Ctrl+O: pick a save and open it in place of this battle."""
        folder = (
            self.screen.ui.saves_dir() if self.screen.ui.saves_dir().is_dir() else self.screen.ui.autosave_path().parent
        )

        def chosen(path: Path) -> Transition | None:
            try:
                screen = self.open_save(self.screen.ui, path, self.screen.to_title)
            except Exception as exc:
                return Push(
                    MessageDialog(
                        self.screen.ui, "Cannot open the save", describe_error(exc, f"Loading {path.name}"), error=True
                    )
                )
            return Replace(screen)

        return Push(FileChooser(self.screen.ui, "Load a battle", folder, (".json",), chosen))

    def open(self) -> Transition:
        """Esc: resume, save, load, settings, help, back to title, quit (and the summary once it is over)."""
        extra = [
            Button("Save (Ctrl+S)", lambda: Pop(then=None) if self.save() else Pop()),
            Button("Load (Ctrl+O)", lambda: Pop(then=self.load_chooser())),
        ]
        if self.model.battle.over:
            end = BattleEnd.of(self.screen.session, self.screen.to_title)
            extra.append(Button("After the battle…", lambda: Pop(then=summary_of(self.screen.ui, end))))
        else:
            extra.append(Button("Yield the battle…", lambda: Pop(then=self.yield_dialog())))
        return Push(EscapeMenu(self.screen.ui, self.screen.leave_to_title, extra=extra))

    def yield_dialog(self) -> Transition | None:
        """Ask the deciding human side whether it gives up the battle."""
        d = self.model.battle.decision()
        if d is None or not self.screen.is_human(d.side):
            self.screen.set_status("Only a human side may yield, when it is its turn to decide.", error=True)
            return None
        side = d.side

        def do_yield() -> Transition | None:
            self.screen.send(act.Yield(side))
            return None

        battle = self.model.battle
        name = battle.sides[side].name
        others = [battle.sides[s].name for s in battle.sides if s != side and battle.able(s)]
        # as the engine rules it: one side left standing wins, more end the battle with no winner
        outcome = f"{others[0]} wins" if len(others) == 1 else "the battle ends with no winner"
        return Push(
            MessageDialog(
                self.screen.ui,
                "Yield the battle?",
                f"{name} gives up; {outcome}.",
                (("Cancel", None), ("Yield", do_yield)),
            )
        )
