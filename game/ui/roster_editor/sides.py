"""The roster editor's sides and figures: the roster's ``[sides]`` (name, who plays them, colour, role) and the
``[[figures]]`` it sets up in the map's deployment zones (character, side, how many)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import pygame

from game.colours import parse_hex_colour
from game.engine.codec import is_whole
from game.engine.rule_options import ROLES
from game.roster import DEFAULT_COLOURS
from game.ui import theme
from game.ui.dialogs import MessageDialog
from game.ui.pickers import TextPrompt
from game.ui.roster_editor.catalogue import CONTROLLER_NAMES, CONTROLLERS, Action
from game.ui.roster_editor.part import EditorHost, Part
from game.ui.screen import Push, Transition
from game.ui.widgets import ScrollList, cycled

ROLE_PLURALS = {"pc": "heroes", "major_npc": "major NPCs", "npc": "NPC pawns"}
"""A side's role as its row in the list says it (docs/rosters.md "Roles")."""


class SidesAndFigures(Part):
    """The list of sides with Name, Player, Colour, Add, Del; the list of figures with Add, Remove, Side, ±1."""

    def __init__(self, host: EditorHost) -> None:
        super().__init__(host)
        self.side_index = 0
        self.figure_index = 0
        self.side_list = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, on_select=self._select_side)
        self.figure_list = ScrollList(pygame.Rect(0, 0, 10, 10), size=13, on_select=self._select_figure)
        self.lists = (self.side_list, self.figure_list)

    def _select_side(self, index: int) -> None:
        self.side_index = index
        self.host.layout()

    def _select_figure(self, index: int) -> None:
        self.figure_index = index
        self.host.layout()

    def _side(self) -> tuple[str, dict[str, Any]] | None:
        items = list(self.host.sides.items())
        if not items:
            return None
        sid, table = items[max(0, min(self.side_index, len(items) - 1))]
        return (sid, table) if isinstance(table, dict) else None

    # --- sides --------------------------------------------------------------------------------------
    def rename_side(self) -> Transition | None:
        """Ask a side's name."""
        side = self._side()
        if side is None:
            return None
        sid, table = side

        def done(name: str) -> Transition | None:
            if name.strip():
                table["name"] = name.strip()
                self.host.changed()
            return None

        return Push(TextPrompt(self.ui, "Rename side", f"Name of side {sid!r}:", str(table.get("name", sid)), done))

    def _cycle_side(self, key: str, options: Sequence[str | None], default: str | None) -> bool:
        """The selected side's ``key`` on to the next of ``options`` (from ``default`` where the file gives
        none); None takes the key out of the file."""
        side = self._side()
        if side is None:
            return False
        table = side[1]
        new = cycled(options, table.get(key, default))
        if new is None:
            table.pop(key, None)
        else:
            table[key] = new
        return self.host.changed()

    def cycle_controller(self) -> bool:
        """Who plays the side by default: human, computer, computer (random)."""
        return self._cycle_side("controller", CONTROLLERS, "human")

    def cycle_role(self) -> bool:
        """The side's role for its figures (docs/rosters.md "Roles"): none given (Hero), Hero, Major NPC, NPC."""
        return self._cycle_side("role", [None, *ROLES], None)

    def cycle_colour(self) -> bool:
        """The side's colour, round the default colours."""
        return self._cycle_side("colour", DEFAULT_COLOURS, None)

    def add_side(self) -> bool:
        """A new side with the next free colour."""
        sides = self.host.sides
        if self.host.refuses("sides", [*sides, "new"], list(sides)):
            return False
        n = len(sides) + 1
        sid = f"side{n}"
        while sid in sides:
            n += 1
            sid = f"side{n}"
        sides[sid] = {"name": f"Side {n}", "colour": DEFAULT_COLOURS[(n - 1) % len(DEFAULT_COLOURS)]}
        self.side_index = len(sides) - 1
        return self.host.changed()

    def delete_side(self) -> Transition | bool:
        """Remove the selected side (refused while figures belong to it)."""
        side = self._side()
        if side is None:
            return False
        sid = side[0]
        if any(isinstance(f, dict) and f.get("side") == sid for f in self.host.figures):
            return Push(
                MessageDialog(
                    self.ui, "Cannot delete", f"Figures of side {sid!r} are listed; remove them first.", error=True
                )
            )
        del self.host.sides[sid]
        self.side_index = max(0, self.side_index - 1)
        return self.host.changed()

    # --- figures ------------------------------------------------------------------------------------
    def add_figure(self) -> bool:
        """One figure of the selected character for the selected side (set up in its deployment zone)."""
        side = self._side()
        if self.host.selected is None or side is None:
            self.host.set_status("Select a character and a side first.", error=True)
            return True
        figs = self.host.figures
        if self.host.refuses("figures", [*figs, {}], figs):
            return False
        figs.append({"character": self.host.selected, "side": side[0]})
        self.host.data["figures"] = figs
        self.figure_index = len(figs) - 1
        return self.host.changed()

    def _figure(self) -> dict[str, Any] | None:
        figs = self.host.figures
        if not figs:
            return None
        f = figs[max(0, min(self.figure_index, len(figs) - 1))]
        return f if isinstance(f, dict) else None

    def remove_figure(self) -> bool:
        """Drop the selected figures entry."""
        figs = self.host.figures
        if not figs:
            return False
        del figs[max(0, min(self.figure_index, len(figs) - 1))]
        if figs:
            self.host.data["figures"] = figs
        else:
            self.host.data.pop("figures", None)
        self.figure_index = max(0, self.figure_index - 1)
        return self.host.changed()

    def step_count(self, step: int) -> bool:
        """How many figures the entry sets up (at least 1, at most what data/limits.toml allows)."""
        f = self._figure()
        if f is None:
            return False
        now = f.get("count", 1)
        now = now if is_whole(now) else 1
        new = max(1, now + step)
        if self.host.refuses("figures.count", new, now):
            return False
        if new == 1:
            f.pop("count", None)
        else:
            f["count"] = new
        return self.host.changed()

    def cycle_figure_side(self) -> bool:
        """The entry's side, round the roster's sides."""
        f = self._figure()
        ids = list(self.host.sides)
        if f is None or not ids:
            return False
        f["side"] = cycled(ids, f.get("side"))
        return self.host.changed()

    # --- layout -------------------------------------------------------------------------------------
    def layout(self, x: int, top: int, width: int, list_height: int) -> int:
        """Both lists (each ``list_height`` high) and their buttons from ``top``; the y below them."""
        self.clear()
        s = self.ui.s
        host = self.host
        y = top
        self.text("Sides", (x, y), 13, theme.ACCENT, True)
        self.side_list.rect = pygame.Rect(x, y + s(18), width, list_height)
        side_rows = []
        side_colours: list[tuple[int, int, int] | None] = []
        for sid, sd in host.sides.items():
            sd = sd if isinstance(sd, dict) else {}
            controller = CONTROLLER_NAMES.get(str(sd.get("controller", "human")), str(sd.get("controller")))
            role = f" · {ROLE_PLURALS.get(str(sd['role']), str(sd['role']))}" if "role" in sd else ""
            side_rows.append(f"● {sd.get('name', sid)} ({sid}) · {controller}{role}")
            colour = str(sd.get("colour", ""))
            rgb = parse_hex_colour(colour, short=False) if colour.startswith("#") else None
            if rgb is not None:
                # lightened halfway to white: readable on the list's dark and selected rows
                r, g, b = ((c + 255) // 2 for c in rgb)
                side_colours.append((r, g, b))
            else:
                side_colours.append(None)
        self.side_list.set_items(side_rows, side_colours)
        self.side_list.selected = min(self.side_index, len(side_rows) - 1) if side_rows else None
        y = self.side_list.rect.bottom + s(6)
        rows: list[tuple[str, str, Action, str]] = [
            ("side.rename", "Name", self.rename_side, "Rename the selected side."),
            ("side.player", "Player", self.cycle_controller, "Who plays it by default: human or computer."),
            ("side.colour", "Colour", self.cycle_colour, "The side's colour on the board."),
            (
                "side.role",
                "Role",
                self.cycle_role,
                "Who the side's figures are to the rule options that tell heroes from pawns (Fudge 4.33, 4.64): "
                'heroes, major NPCs or NPC pawns; a character may give its own (docs/rosters.md "Roles").',
            ),
            ("side.add", "Add", self.add_side, "A new side."),
            ("side.delete", "Del", self.delete_side, "Delete the selected side (not while figures use it)."),
        ]
        y = self.button_row(rows, x, y, width) + s(10)
        self.text("Figures set up in deployment zones", (x, y), 13, theme.ACCENT, True)
        self.figure_list.rect = pygame.Rect(x, y + s(18), width, list_height)
        fig_rows = []
        for f in host.figures:
            f = f if isinstance(f, dict) else {}
            ch = host.characters.get(str(f.get("character")), {})
            name = f.get("name") or (ch.get("name") if isinstance(ch, dict) else None) or f.get("character")
            fig_rows.append(f"{f.get('count', 1)} × {name} ({f.get('side')})" + (" · mook" if f.get("mook") else ""))
        self.figure_list.set_items(
            fig_rows or ["none: the map places the figures"], [theme.TEXT_MUTED] if not fig_rows else None
        )
        self.figure_list.selected = min(self.figure_index, len(fig_rows) - 1) if fig_rows else None
        y = self.figure_list.rect.bottom + s(6)
        five = (width - s(24)) // 5  # "Del" when "Remove" alone keeps the five from one row
        remove = "Remove" if self.ui.text.width("Remove", 12, True) + s(10) <= five else "Del"
        rows = [
            ("fig.add", "Add", self.add_figure, "Figures of the selected character for the selected side."),
            ("fig.remove", remove, self.remove_figure, "Remove the selected entry."),
            ("fig.side", "Side", self.cycle_figure_side, "Move the entry to the next side."),
            ("fig.count.-", "−1", partial(self.step_count, -1), "One figure fewer."),
            ("fig.count.+", "+1", partial(self.step_count, 1), "One figure more."),
        ]
        bottom = self.button_row(rows, x, y, width)
        self.rect = pygame.Rect(x, top, width, bottom - top)
        return bottom
