"""The title screen's "Join a table": the host's address, your name, the table's password and the seat.

Tab (or a click) moves between the fields, Enter or "Join" takes the seat; a refusal (a wrong password, a
taken seat, nobody at that address) is said in one sentence under the fields and the screen stays. A
seat taken opens the battle screen at that seat (``game.ui.battle.table.TableScreen``).
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.net.client import TableClosed, address_uri
from game.net.protocol import DEFAULT_PORT
from game.net.remote import RemoteSession
from game.ui import theme
from game.ui.screen import Pop, Replace, Screen, Transition, UiContext
from game.ui.widgets import Button, TextCache, TextField, draw_panel

FIELDS = (
    ("address", f"Host's address (HOST or HOST:PORT; port {DEFAULT_PORT} by default)"),
    ("name", "Your name at the table"),
    ("password", "The table's password (empty if it has none)"),
    ("seat", "Seat: a side's id, gm or watch (empty: the first free seat)"),
)


class JoinScreen(Screen):
    """Join a table hosted on another computer (see module docstring)."""

    def __init__(self, ui: UiContext, address: str = "127.0.0.1") -> None:
        super().__init__(ui)
        self.fields = {
            "address": TextField(address, max_length=120),
            "name": TextField("a player", max_length=40),
            "password": TextField("", max_length=200),
            "seat": TextField("", max_length=40),
        }
        self.focus = "address"
        self.join_button = Button("Join", lambda: True, size=18)
        self.back = Button("Back", Pop, size=16)
        self.error = ""
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.rows: dict[str, pygame.Rect] = {}

    def on_resize(self, size: tuple[int, int]) -> None:
        """A centred box of four labelled fields and the two buttons."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - 40, s(560)), s(420))
        self.rect.center = (size[0] // 2, size[1] // 2)
        y = self.rect.y + s(64)
        for key, _ in FIELDS:
            self.rows[key] = pygame.Rect(self.rect.x + s(24), y, self.rect.width - s(48), s(20))
            self.fields[key].rect = pygame.Rect(self.rect.x + s(24), y + s(22), self.rect.width - s(48), s(34))
            y += s(74)
        self.join_button.rect = pygame.Rect(self.rect.right - s(144), self.rect.bottom - s(54), s(120), s(38))
        self.back.rect = pygame.Rect(self.rect.right - s(276), self.rect.bottom - s(54), s(120), s(38))

    def join(self) -> Transition | None:
        """Take the seat; a refusal stays on this screen as a sentence."""
        address = self.fields["address"].value.strip()
        if not address:
            self.error = "Give the host's address, e.g. 192.168.1.20 or 192.168.1.20:7777."
            return None
        try:
            session = RemoteSession.join(
                address_uri(address),
                self.fields["name"].value.strip() or "a player",
                self.fields["seat"].value.strip(),
                self.fields["password"].value,
            )
        except TableClosed as exc:
            self.error = str(exc)[:1].upper() + str(exc)[1:]
            return None
        if self.ui.open_table is None:
            session.close()
            self.error = "This window cannot show a table's battle."
            return None
        return Replace(self.ui.open_table(session))

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Typing goes to the field in focus; Tab moves on; Enter joins; Esc goes back."""
        order = [k for k, _ in FIELDS]
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self.join()
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key == pygame.K_TAB:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                self.focus = order[(order.index(self.focus) + step) % len(order)]
                return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for key, field in self.fields.items():
                if field.rect.collidepoint(event.pos):
                    self.focus = key
        self.fields[self.focus].handle(event)
        self.join_button.handle(event)
        if self.join_button.result is not None:
            self.join_button.result = None
            return self.join()
        self.back.handle(event)
        if self.back.result is not None:
            return Pop()
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """The box, its fields (the password as dots) and the last refusal."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        text.blit(surface, "Join a table", (self.rect.x + s(24), self.rect.y + s(18)), 22, theme.ACCENT, bold=True)
        for key, label in FIELDS:
            row = self.rows[key]
            text.blit(surface, label, (row.x, row.y), 13, theme.TEXT if key == self.focus else theme.TEXT_MUTED)
            field = self.fields[key]
            field.focused = key == self.focus  # one caret: where typing goes
            if key == "password":
                shown, field.value = field.value, "•" * len(field.value)
                field.draw(surface, text)
                field.value = shown
            else:
                field.draw(surface, text)
        if self.error:
            for i, part in enumerate(text.wrap(self.error, 13, self.rect.width - s(300))[:3]):
                text.blit(surface, part, (self.rect.x + s(24), self.rect.bottom - s(60) + i * s(16)), 13, theme.DANGER)
        self.join_button.draw(surface, text)
        self.back.draw(surface, text)


NETWORK_LABEL = {False: "This computer only", True: "Open to the network"}
NETWORK_HELP = {
    False: "Only players on this computer can join (address 127.0.0.1). Click to open the table to the network.",
    True: (
        "Anyone who can reach this computer on your network can take a free seat: play on a network you trust. "
        "Click to keep the table to this computer."
    ),
}


class HostControls:
    """New battle's "Host a table" button and, above it, the switch that opens the table to the network (with
    a sentence saying what that means); hosting itself is the app's (``UiContext.host_table``)."""

    def __init__(self, ui: UiContext, setup: Callable[[], object]) -> None:
        self.ui, self.setup, self.public = ui, setup, False
        tip = "Serve this battle to players at other computers (they choose Join a table)."
        self.host = Button("Host a table", self._host, size=16, tooltip=tip)
        self.network = Button(NETWORK_LABEL[False], self._toggle, size=13, tooltip=NETWORK_HELP[False])

    def _host(self) -> Transition | None:
        return self.ui.host_table(self.setup(), self.public) if self.ui.host_table is not None else None

    def _toggle(self) -> bool:
        self.public = not self.public
        self.network.text, self.network.tooltip = NETWORK_LABEL[self.public], NETWORK_HELP[self.public]
        return True

    def layout(self, area: pygame.Rect) -> None:
        """The switch in the top part of ``area``, the button in the rest."""
        s = self.ui.s
        self.network.rect = pygame.Rect(area.x, area.y, area.width, s(30))
        self.host.rect = pygame.Rect(area.x, area.y + s(36), area.width, max(s(30), area.height - s(36)))

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Clicks on the two buttons; the host button's transition (the deployment screen, then the table)."""
        for b in (self.network, self.host):
            b.handle(event)
            if b is self.host and b.result is not None and b.result is not True:
                return b.result  # type: ignore[return-value]
        return None

    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """Both buttons."""
        self.network.draw(surface, text)
        self.host.draw(surface, text)
