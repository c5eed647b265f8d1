"""The roster editor's character list: the roster's characters, and adding, copying, deleting and renaming
them (the key that maps name a character by stays when it is renamed)."""

from __future__ import annotations

import copy

import pygame

from game.ui import theme
from game.ui.dialogs import MessageDialog
from game.ui.pickers import TextPrompt
from game.ui.roster_editor.catalogue import Action, slug
from game.ui.roster_editor.part import EditorHost, Part
from game.ui.screen import Push, Transition
from game.ui.widgets import ScrollList


class CharacterList(Part):
    """The list of characters (a ⚠ on each one a battle would refuse) and its Add, Copy, Delete, Rename."""

    def __init__(self, host: EditorHost) -> None:
        super().__init__(host)
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), size=15, on_select=self._select_row)
        self.lists = (self.list,)

    def _select_row(self, index: int) -> None:
        keys = list(self.host.characters)
        if 0 <= index < len(keys) and keys[index] != self.host.selected:
            self.host.select(keys[index])

    def _new_key(self, name: str) -> str:
        base = slug(name, "character")
        key, n = base, 2
        while key in self.host.characters:
            key, n = f"{base}_{n}", n + 1
        return key

    # --- the actions ----------------------------------------------------------------------------------
    def add_character(self) -> Transition | None:
        """Ask a name; the new character is all Fair with no gear."""

        if self.host.refuses("characters", [*self.host.characters, "new"], list(self.host.characters)):
            return None

        def done(name: str) -> Transition | None:
            name = name.strip() or "New character"
            key = self._new_key(name)
            self.host.characters[key] = {"name": name}
            self.host.selected = key
            self.host.changed(f"Added {name} (key {key}).")
            return None

        return Push(TextPrompt(self.ui, "New character", "Name of the character:", "", done))

    def duplicate_character(self) -> bool:
        """A copy of the selected character under a new key."""
        host = self.host
        table = host.current
        if table is None or host.selected is None:
            return False
        if host.refuses("characters", [*host.characters, "copy"], list(host.characters)):
            return False
        name = f"{table.get('name', host.selected)} (copy)"
        key = self._new_key(f"{host.selected}_copy")
        clone = copy.deepcopy(table)
        clone["name"] = name
        keys = list(host.characters)
        at = keys.index(host.selected) + 1
        items = list(host.characters.items())
        items.insert(at, (key, clone))
        host.characters.clear()
        host.characters.update(items)
        host.selected = key
        return host.changed(f"Copied as {name} (key {key}).")

    def delete_character(self) -> Transition | None:
        """Remove the selected character after a question (refused while [[figures]] use it)."""
        host = self.host
        key = host.selected
        if key is None:
            return None
        users = [i + 1 for i, f in enumerate(host.figures) if isinstance(f, dict) and f.get("character") == key]
        if users:
            return Push(
                MessageDialog(
                    self.ui,
                    "Cannot delete",
                    f"Figures entr{'y' if len(users) == 1 else 'ies'} "
                    f"{', '.join(map(str, users))} use {key!r}; remove them first.",
                    error=True,
                )
            )

        def really() -> Transition | None:
            keys = list(host.characters)
            i = keys.index(key)
            del host.characters[key]
            host.character_removed(key)
            rest = list(host.characters)
            host.selected = rest[min(i, len(rest) - 1)] if rest else None
            host.changed(f"Deleted {key}. Maps whose figures name {key!r} need another character.")
            return None

        name = host.characters[key].get("name", key) if isinstance(host.characters[key], dict) else key
        return Push(
            MessageDialog(
                self.ui,
                "Delete character",
                f"Delete {name} (key {key}) from the roster?",
                (("Cancel", None), ("Delete", really)),
            )
        )

    def rename_character(self) -> Transition | None:
        """Ask a new name (the key, which maps refer to, stays)."""
        table = self.host.current
        if table is None:
            return None
        return Push(
            TextPrompt(
                self.ui,
                "Rename",
                f"Name (the key {self.host.selected!r} that maps use stays):",
                str(table.get("name", "")),
                self._rename_to,
            )
        )

    def _rename_to(self, value: str) -> None:
        table = self.host.current
        if table is not None:
            table["name"] = value
            self.host.changed()

    # --- input and layout ---------------------------------------------------------------------------
    def on_key(self, event: pygame.event.Event) -> Transition | bool | None:
        """Ctrl+N add, Ctrl+D copy, Delete, F2 rename, ↑/↓ the next character."""
        ctrl = event.mod & pygame.KMOD_CTRL
        if ctrl and event.key == pygame.K_n:
            return self.add_character() or True
        if ctrl and event.key == pygame.K_d:
            self.duplicate_character()
            return True
        if event.key == pygame.K_DELETE:
            return self.delete_character() or True
        if event.key == pygame.K_F2:
            return self.rename_character() or True
        if event.key in (pygame.K_UP, pygame.K_DOWN) and self.host.characters:
            keys = list(self.host.characters)
            i = keys.index(self.host.selected) if self.host.selected in keys else 0
            self.host.select(keys[max(0, min(len(keys) - 1, i + (1 if event.key == pygame.K_DOWN else -1)))])
            return True
        return None

    def layout(self, x: int, top: int, width: int, list_height: int | None = None, bottom: int = 0) -> int:
        """The title, the list (``list_height`` high, or down to what the buttons leave above ``bottom``) and
        its buttons from ``top``; the y below them."""
        self.clear()
        s = self.ui.s
        host = self.host
        rows: list[tuple[str, str, Action, str]] = [
            ("char.add", "Add", self.add_character, "A new character, all Fair (Ctrl+N)."),
            ("char.copy", "Copy", self.duplicate_character, "Duplicate the selected character (Ctrl+D)."),
            ("char.delete", "Delete", self.delete_character, "Delete the selected character (Delete)."),
            ("char.rename", "Rename", self.rename_character, "Change the character's name (F2)."),
        ]
        if list_height is None:  # measured: the buttons may take two rows
            buttons_height = self.button_row(rows, x, 0, width, height=28, size=13)
            list_height = max(s(64), bottom - top - s(26) - buttons_height)
        self.text("Characters", (x, top), 13, theme.ACCENT, True)
        self.list.rect = pygame.Rect(x, top + s(20), width, list_height)
        keys = list(host.characters)
        labels = []
        for key in keys:
            table = host.characters[key]
            name = table.get("name", key) if isinstance(table, dict) else key
            bad = "  ⚠" if host.check(key)[1] else ""
            labels.append(f"{name}{bad}")
        self.list.set_items(labels, [theme.DANGER if lab.endswith("⚠") else None for lab in labels])
        if host.selected in keys:
            self.list.selected = keys.index(host.selected)
        y = self.list.rect.bottom + s(6)
        end = self.button_row(
            rows,
            x,
            y,
            width,
            height=28,
            size=13,
            enabled=lambda ident: ident == "char.add" or host.selected is not None,
        )
        self.rect = pygame.Rect(x, top, width, end - top)
        return end
