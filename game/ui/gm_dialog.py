"""The GM's edit dialogs' common ground: the box over the dimmed battle, its tick rows and columns, the
panel as the dialogs see it (``PanelHost``), and the removal of a figure.

Each dialog (gear ``game.ui.gm_gear``, traits ``game.ui.gm_traits``, reinforcements
``game.ui.gm_reinforce``) is opened from the GM's panel (``game.ui.gm_panel``) and builds exactly one GM
action of ``game.engine.gm`` (EditGear, EditTraits, AddFigure, RemoveFigure), sent through the panel and so
through the session to ``Battle.apply``: it lands in the log as a ``GMActed`` line and in the save like any
decision. The dialogs add no rules: what is allowed is the engine's to say ("between rounds",
``Battle.gm_between_rounds``; a free hex for the newcomer's whole footprint, ``Battle.gm_free_for``), and a
refusal shows the engine's sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import pygame

from game.engine import gm
from game.engine.battle import Battle
from game.ui import theme
from game.ui.battle.common import GMScreen
from game.ui.dialogs import MessageDialog, draw_modal_box
from game.ui.labels import Labels, TextItem
from game.ui.screen import Pop, Push, Screen, Transition, UiContext, press, transition_of
from game.ui.widgets import Button, TextCache, Tooltip

B = TypeVar("B", bound=Button)

BETWEEN_ROUNDS = "Between rounds only: in the movement phase before any figure has moved or held (use End round first)."
"""The tooltip of every edit button: when the engine allows the edit (``Battle.gm_between_rounds``)."""


def _done(fn: Callable[[], object]) -> Callable[[], object]:
    """The action of a button, answering True when it returns nothing (so the box knows it was clicked)."""

    def run() -> object:
        result = fn()
        return True if result is None else result

    return run


def between_rounds_tip(what: str) -> str:
    """The tooltip of an edit button: what it does, and when the engine allows it."""
    return f"{what} {BETWEEN_ROUNDS}"


# ------------------------------------------------------------------------------------------- widgets


class PanelHost(Protocol):
    """The GM's panel as its dialogs see it (``game.ui.gm_panel.GMPanel``): the battle screen under it, the
    figure chosen, the door that sends a GM action and the way back."""

    ui: UiContext
    screen: GMScreen
    figure: str
    message: str
    reason: str
    """What the GM typed in the panel's Reason box (logged with the edit, then cleared)."""

    @property
    def battle(self) -> Battle:
        """The battle (read through the battle screen: undo replaces it)."""
        ...

    def send(self, action: gm.GMAction) -> bool:
        """Send a GM action; False (and the engine's sentence in ``message``) when it is refused."""
        ...

    def closing_transition(self) -> Transition | None:
        """Where the panel goes once a dialog's action is done."""
        ...

    def layout(self) -> None:
        """Lay the panel out again."""
        ...


class CheckRow(Button):
    """A row of a list with a tick box, a name on the left and a detail (the mass) on the right."""

    def __init__(
        self,
        text: str,
        action: Callable[[], object],
        rect: pygame.Rect,
        *,
        checked: bool,
        detail: str = "",
        tooltip: str = "",
        size: int = 13,
        radio: bool = False,
    ) -> None:
        super().__init__(text, action, rect, tooltip=tooltip, size=size)
        self.checked = checked
        self.detail = detail
        self.radio = radio

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Box (or round dot for a one-of choice), name, detail."""
        r = self.rect
        if self.hovered or self.checked:
            pygame.draw.rect(surface, theme.BUTTON_HOVER if self.hovered else theme.PANEL_LIGHT, r, border_radius=4)
        side = max(8, r.height - 10)
        box = pygame.Rect(r.x + 4, r.centery - side // 2, side, side)
        if self.radio:
            pygame.draw.circle(surface, theme.BORDER, box.center, side // 2, width=1)
            if self.checked:
                pygame.draw.circle(surface, theme.ACCENT, box.center, max(2, side // 2 - 3))
        else:
            pygame.draw.rect(surface, theme.ACCENT if self.checked else theme.BORDER, box, width=1, border_radius=2)
            if self.checked:
                pts = [(box.x + 2, box.centery), (box.x + side // 2 - 1, box.bottom - 3), (box.right - 2, box.y + 2)]
                pygame.draw.lines(surface, theme.ACCENT, False, pts, 2)
        fg = theme.TEXT if self.enabled else theme.TEXT_DISABLED
        text.blit(surface, self.text, (box.right + 6, r.centery), self.size, fg, bold=self.checked, anchor="midleft")
        if self.detail:
            text.blit(
                surface, self.detail, (r.right - 6, r.centery), self.size - 1, theme.TEXT_MUTED, anchor="midright"
            )


class GMDialog(Labels, Screen):
    """A box over the dimmed battle, opened from the GM's panel: buttons, lines of text, a message."""

    opaque = False
    TITLE = ""
    WIDTH, HEIGHT = 980, 660

    def __init__(self, ui: UiContext, panel: PanelHost) -> None:
        super().__init__(ui)
        self.panel = panel
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.buttons: list[Button] = []
        self.texts: list[TextItem] = []
        self.message = ""
        self.error = False
        self.tooltip: Tooltip = Tooltip()
        self.apply_button: Button | None = None

    @property
    def battle(self) -> Battle:
        """The battle (read through the battle screen: undo replaces it)."""
        return self.panel.battle

    @property
    def screen(self) -> GMScreen:
        """The battle screen under the panel."""
        return self.panel.screen

    def send(self, action: gm.GMAction) -> Transition | None:
        """Send the GM action through the panel: back to the panel (which shows the log's line) when it is
        done, else the engine's sentence here."""
        if self.panel.send(action):
            return Pop(then=self.panel.closing_transition())
        self.message, self.error = self.panel.message, True
        return None

    # --- layout helpers --------------------------------------------------------------------------
    def on_resize(self, size: tuple[int, int]) -> None:
        """Centre the box and lay it out."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - s(20), s(self.WIDTH)), min(size[1] - s(20), s(self.HEIGHT)))
        self.rect.center = (size[0] // 2, size[1] // 2)
        self.layout()

    def layout(self) -> None:
        """Build ``buttons`` and ``texts`` for the current choices."""
        self.buttons, self.texts = [], []

    def button(
        self,
        label: str,
        fn: Callable[[], object],
        rect: pygame.Rect,
        *,
        tooltip: str = "",
        enabled: bool = True,
        on: bool = False,
        size: int = 13,
    ) -> Button:
        """A button of the box."""
        b = self.add(Button(label, fn, rect, tooltip=tooltip, enabled=enabled, size=size))
        b.focused = on
        return b

    def add(self, button: B) -> B:
        """Put a button (a ticked or one-of row of a list: ``CheckRow``) in the box; its action answers True
        when it returns nothing, so the box knows it was clicked."""
        button.action = _done(button.action)
        self.buttons.append(button)
        return button

    def footer(self, apply_label: str, apply: Callable[[], object], *, enabled: bool = True, tooltip: str = "") -> None:
        """Cancel and the button that sends the action, bottom right."""
        s = self.ui.s
        r = self.rect
        self.button("Cancel (Esc)", Pop, pygame.Rect(r.right - s(252), r.bottom - s(44), s(110), s(30)), size=14)
        self.apply_button = self.button(
            apply_label,
            apply,
            pygame.Rect(r.right - s(132), r.bottom - s(44), s(116), s(30)),
            enabled=enabled,
            tooltip=tooltip,
            size=14,
        )

    # --- events and drawing ----------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Buttons by mouse; Esc goes back to the panel."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        b = press(self.buttons, event)
        if b is not None:
            result = transition_of(b.result)
            if result is not None:
                self.tooltip.hover("", self.tooltip.pos)  # another box opens or this one closes
                return result
            self.layout()
            # the click re-laid the box out: the hint is that of what now lies under the pointer
            pos = getattr(event, "pos", self.tooltip.pos)
            self.tooltip.refresh(next((x.hint for x in self.buttons if x.rect.collidepoint(pos)), ""))
            return None
        if event.type == pygame.MOUSEMOTION:
            tip = next((b.hint for b in self.buttons if b.hovered and b.hint), "")
            self.tooltip.hover(tip, event.pos)
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The box over the dimmed panel and battle."""
        s, text = self.ui.s, self.ui.text
        draw_modal_box(surface, self.ui, self.rect, self.TITLE, at=(16, 12), size=18, dim=110)
        self.draw_texts(surface, text)
        for b in self.buttons:
            b.draw(surface, text)
        if self.message:
            colour = theme.DANGER if self.error else theme.TEXT
            width = self.rect.width - s(290)
            for i, line in enumerate(text.wrap(self.message, 13, width)[:2]):
                text.blit(surface, line, (self.rect.x + s(16), self.rect.bottom - s(46) + i * s(17)), 13, colour)
        self.tooltip.draw(surface, text)


def columns(
    dialog: GMDialog,
    top: int,
    bottom: int,
    left: int,
    col_width: int,
    sections: list[tuple[str, list[Callable[[pygame.Rect], None]]]],
) -> int:
    """Flow titled lists of rows top-down into columns (a new column when one is full); the x after."""
    s = dialog.ui.s
    row_h = s(22)
    x, y = left, top
    for title, rows in sections:
        if y + row_h * 2 > bottom:
            x, y = x + col_width + s(14), top
        dialog.text(title, (x, y + s(3)), 14, theme.TEXT_MUTED, True)
        y += row_h + s(2)
        for place in rows:
            if y + row_h > bottom:
                x, y = x + col_width + s(14), top
            place(pygame.Rect(x, y, col_width, row_h - s(2)))
            y += row_h
        y += s(10)
    return x + col_width + s(14)


# --------------------------------------------------------------------------------------------- removal


def confirm_remove(panel: PanelHost) -> Transition | None:
    """Ask before removing the chosen figure; Remove sends ``gm.RemoveFigure``."""
    fig = panel.battle.figures.get(panel.figure)
    if fig is None:
        return None

    def really() -> Transition | None:
        ok = panel.send(gm.RemoveFigure(fig.id))
        if ok and panel.figure not in panel.battle.figures:
            ids = list(panel.battle.figures)
            panel.figure = ids[0] if ids else ""
            panel.layout()
        return panel.closing_transition() if ok else None

    side = panel.battle.sides[fig.side].name
    return Push(
        MessageDialog(
            panel.ui,
            f"Remove {fig.name}?",
            f"{fig.name} ({side}) leaves the map and the battle. The log keeps what it did.",
            (("Cancel", None), ("Remove", really)),
        )
    )
