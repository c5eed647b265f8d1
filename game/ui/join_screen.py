"""The title screen's "Join a table": where the table is and who you are, then the table's seats by name.

The form has the host's address, your name, the table's password, a ``wss://`` table's certificate
fingerprint and a seat's token (for a player taking their seat back from another computer); Tab (or a
click) moves between the fields and the line under them says what the field in focus takes. Enter (or
"Find seats") asks the host who sits where (``Client.look``) and the screen then offers the seats by name:
free ones, a held one this computer (or the typed token) can take back, the watchers' places. A refusal (a
wrong password, nobody at that address, a certificate that does not match) is said in one sentence and the
screen stays.

The last tables joined from this computer are buttons at the top (``game.net.remembered``: address, name,
seat, fingerprint and each seat's token — not the password, which is typed again each time); a click fills
the form. A seat taken opens the battle screen at that seat (``game.ui.battle.table.TableScreen``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from game.net import remembered
from game.net.client import Client, TableClosed, address_uri
from game.net.protocol import DEFAULT_PORT
from game.net.remote import RemoteSession
from game.ui import theme
from game.ui.screen import Pop, Replace, Screen, Transition, UiContext, press
from game.ui.text_field import TextField
from game.ui.widgets import Button, TextCache, Tooltip, draw_panel

FIELDS = (
    (
        "address",
        "Address",
        f"HOST or HOST:PORT (port {DEFAULT_PORT} by default); wss://HOST:PORT for an encrypted table",
    ),
    ("name", "Your name", "The name the other seats see."),
    ("password", "Password", "The table's password, if it has one (it is not remembered: type it each time)."),
    (
        "fingerprint",
        "Fingerprint",
        "For a wss:// table: the certificate's SHA-256 fingerprint the host printed (AB:CD:…). Empty: trusted "
        "certificates only.",
    ),
    (
        "token",
        "Seat token",
        "To take back your seat from another computer: the token your seat had there (F3 at the table shows "
        "it). Empty: this computer's own.",
    ),
)
RECENT = 4
"""Recent tables shown as buttons."""


@dataclass(frozen=True)
class SeatChoice:
    """One seat the table offers, as a button says it."""

    seat: str
    label: str
    enabled: bool
    tooltip: str
    token: str | None = None


def seat_choices(info: dict[str, Any], tokens: dict[str, str], typed_token: str) -> list[SeatChoice]:
    """The seats of a host's ``table`` answer by name, free ones first, then the held ones (enabled when a
    token of this computer's, or the typed one, may take them back), the computer's, and watching."""
    free, held, others = [], [], []
    for s in info.get("seats", []):
        if not isinstance(s, dict):
            continue
        seat, side, name = str(s.get("seat", ""))[:40], str(s.get("side", ""))[:60], str(s.get("name", ""))[:40]
        title = f"{side} ({seat})" if side and side != seat else seat
        if s.get("held"):
            token = tokens.get(seat) or typed_token or None
            where = "connected" if s.get("present") else "away"
            if token:
                tip = f"Held by {name} ({where}); this computer's token for it takes it back."
                held.append(SeatChoice(seat, f"{title}: take back your seat", True, tip, token))
            else:
                tip = f"Held by {name} ({where}): only its holder's token takes it (type it under Seat token)."
                others.append(SeatChoice(seat, f"{title}: {name}'s", False, tip))
        elif s.get("computer"):
            others.append(SeatChoice(seat, f"{title}: the host's computer", False, "The host's computer plays it."))
        else:
            free.append(SeatChoice(seat, f"{title}: free", True, f"Take the seat {seat}."))
    places = int(info.get("watch", 0)) if isinstance(info.get("watch"), int) else 0
    watch = SeatChoice(
        "watch", f"Watch the battle ({places} places left)", places > 0, "See the battle, decide nothing."
    )
    return [*free, *held, *others, watch]


class JoinScreen(Screen):
    """Join a table hosted on another computer (see module docstring)."""

    def __init__(self, ui: UiContext, address: str = "127.0.0.1") -> None:
        super().__init__(ui)
        self.recent = remembered.known_tables()[:RECENT]
        last = self.recent[0] if self.recent else None
        self.fields = {
            "address": TextField(last.address if last else address, max_length=120),
            "name": TextField(last.name if last and last.name else "a player", max_length=40),
            "password": TextField("", max_length=200, secret=True),
            "fingerprint": TextField(last.fingerprint if last else "", max_length=120, placeholder="only for wss://"),
            "token": TextField("", max_length=64, placeholder="only to take back a seat from another computer"),
        }
        self.focus = "password" if last else "address"
        self.recent_buttons = [
            Button(self._recent_label(t), self._fill_from(t), size=13, tooltip=self._recent_tip(t)) for t in self.recent
        ]
        self.find = Button("Find seats", lambda: True, size=18, tooltip="Ask the host who sits where (Enter).")
        self.back = Button("Back", lambda: True, size=16)
        self.error = ""
        self.info: dict[str, Any] | None = None
        """The host's answer to ``look`` while the seats are shown (None: the form is shown)."""
        self.choices: list[SeatChoice] = []
        self.seat_buttons: list[Button] = []
        self.tooltip: Tooltip = Tooltip()
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.rows: dict[str, pygame.Rect] = {}

    # ------------------------------------------------------------------ recent tables
    @staticmethod
    def _recent_label(t: remembered.KnownTable) -> str:
        return f"{t.address}" + (f" · {t.seat}" if t.seat else "")

    @staticmethod
    def _recent_tip(t: remembered.KnownTable) -> str:
        held = ", ".join(sorted(t.tokens)) or "none"
        return f"{t.address} as {t.name or 'a player'}; seats this computer holds there: {held}. Click to fill in."

    def _fill_from(self, t: remembered.KnownTable) -> Callable[[], bool]:
        def fill() -> bool:
            self.fields["address"].value = t.address
            self.fields["name"].value = t.name or self.fields["name"].value
            self.fields["fingerprint"].value = t.fingerprint
            self.fields["token"].value = ""
            self.focus, self.error = "password", ""
            return True

        return fill

    # ------------------------------------------------------------------ layout
    def on_resize(self, size: tuple[int, int]) -> None:
        """A centred box: recent tables, five labelled fields, a line of help, the buttons; or the seats."""
        super().on_resize(size)
        s = self.ui.s
        self.rect = pygame.Rect(0, 0, min(size[0] - 20, s(640)), min(size[1] - 20, s(430)))
        self.rect.center = (size[0] // 2, size[1] // 2)
        inner = self.rect.inflate(-s(40), 0)
        y = self.rect.y + s(50)
        if self.recent_buttons:
            width = (inner.width - s(8) * (len(self.recent_buttons) - 1)) // len(self.recent_buttons)
            for i, b in enumerate(self.recent_buttons):
                b.rect = pygame.Rect(inner.x + i * (width + s(8)), y, width, s(28))
            y += s(38)
        label_w = s(120)
        row_h = max(s(30), min(s(40), (self.rect.bottom - s(110) - y) // len(FIELDS)))
        for key, _, _ in FIELDS:
            self.rows[key] = pygame.Rect(inner.x, y, label_w, row_h)
            self.fields[key].rect = pygame.Rect(inner.x + label_w, y + s(2), inner.width - label_w, row_h - s(6))
            y += row_h
        self.rows["help"] = pygame.Rect(inner.x, y + s(4), inner.width, s(34))
        self.find.rect = pygame.Rect(self.rect.right - s(164), self.rect.bottom - s(50), s(144), s(36))
        self.back.rect = pygame.Rect(self.rect.right - s(276), self.rect.bottom - s(50), s(100), s(36))
        self._lay_seats()

    def _lay_seats(self) -> None:
        s = self.ui.s
        inner = self.rect.inflate(-s(40), 0)
        top, bottom = self.rect.y + s(60), self.rect.bottom - s(96)
        h = max(s(24), min(s(36), (bottom - top) // max(1, len(self.seat_buttons)) - s(6)))
        for i, b in enumerate(self.seat_buttons):
            b.rect = pygame.Rect(inner.x, top + i * (h + s(6)), inner.width, h)

    # ------------------------------------------------------------------ joining
    def _client(self, seat: str = "", token: str | None = None) -> Client | None:
        address = self.fields["address"].value.strip()
        if not address:
            self.error = "Give the host's address, e.g. 192.168.1.20 or 192.168.1.20:7777."
            return None
        fingerprint = self.fields["fingerprint"].value.strip() or None
        uri = address_uri(address, tls=fingerprint is not None)
        name = self.fields["name"].value.strip() or "a player"
        client = Client(uri, name, seat, self.fields["password"].value, token, say=lambda _: None)
        client.fingerprint = fingerprint
        return client

    def find_seats(self) -> None:
        """Ask the host who sits where; the seats are then offered by name (a refusal stays as a sentence)."""
        client = self._client()
        if client is None:
            return
        try:
            info = client.look()
        except TableClosed as exc:
            self.error = str(exc)[:1].upper() + str(exc)[1:]
            return
        known = remembered.find(client.uri)
        typed = self.fields["token"].value.strip()
        self.info, self.error = info, ""
        self.choices = seat_choices(info, known.tokens if known else {}, typed)
        self.seat_buttons = [
            Button(c.label, self._taker(c), size=15, enabled=c.enabled, tooltip=c.tooltip) for c in self.choices
        ]
        self._lay_seats()

    def _taker(self, choice: SeatChoice) -> Callable[[], Transition | None]:
        return lambda: self.take(choice)

    def take(self, choice: SeatChoice) -> Transition | None:
        """Take the seat ``choice`` (with its token when it is held by this computer or the typed token)."""
        client = self._client(choice.seat, choice.token)
        if client is None:
            return None
        try:
            session = RemoteSession.connect(client, remember=True, address=self.fields["address"].value.strip())
        except TableClosed as exc:
            self.error = str(exc)[:1].upper() + str(exc)[1:]
            return None
        if self.ui.open_table is None:
            session.close()
            self.error = "This window cannot show a table's battle."
            return None
        return Replace(self.ui.open_table(session))

    def seat_button(self, seat: str) -> Button:
        """The button of the seat ``seat`` while the seats are shown (for the tests and the keyboard)."""
        return next(b for b, c in zip(self.seat_buttons, self.choices, strict=True) if c.seat == seat)

    # ------------------------------------------------------------------ events
    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """The form: typing goes to the field in focus, Tab moves on, Enter finds the seats. The seats: a click
        (or its number key) takes one. Esc goes back (from the seats to the form)."""
        if event.type == pygame.MOUSEMOTION:
            hovered = next((b for b in self._buttons() if b.rect.collidepoint(event.pos)), None)
            self.tooltip.hover(hovered.hint if hovered is not None else "", event.pos)
        if self.info is not None:
            return self._seats_event(event)
        order = [k for k, _, _ in FIELDS]
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.find_seats()
                return None
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
        b = press((*self.recent_buttons, self.find, self.back), event)
        if b is self.find:
            self.find_seats()
        elif b is self.back:
            return Pop()
        return None

    def _seats_event(self, event: pygame.event.Event) -> Transition | None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.info, self.error = None, ""
                return None
            number = event.key - pygame.K_1
            if 0 <= number < min(9, len(self.choices)) and self.choices[number].enabled:
                return self.take(self.choices[number])
        b = press((*self.seat_buttons, self.back), event)
        if b is self.back:
            self.info, self.error = None, ""
        elif b is not None:
            return b.result if isinstance(b.result, Transition) else None
        return None

    def _buttons(self) -> list[Button]:
        if self.info is not None:
            return [*self.seat_buttons, self.back]
        return [*self.recent_buttons, self.find, self.back]

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The box: the form (the password as dots) or the seats, and the last refusal."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        draw_panel(surface, self.rect, theme.PANEL, theme.ACCENT, radius=8)
        at = (self.rect.x + s(20), self.rect.y + s(16))
        if self.info is not None:
            title = text.fit(f"Seats at {str(self.info.get('title', 'the table'))[:80]}", 20, self.rect.width - s(40))
            text.blit(surface, title, at, 20, theme.ACCENT, bold=True)
            for i, b in enumerate(self.seat_buttons):
                b.draw(surface, text)
                if i < 9:
                    text.blit(
                        surface, str(i + 1), (b.rect.x + s(8), b.rect.centery), 12, theme.TEXT_MUTED, anchor="midleft"
                    )
            self.back.draw(surface, text)
            if not self.error:
                hint = "Click a seat or press its number · Esc: back to the form"
                text.blit(
                    surface, hint, (self.rect.x + s(20), self.back.rect.centery), 13, theme.TEXT_MUTED, anchor="midleft"
                )
        else:
            text.blit(surface, "Join a table", at, 20, theme.ACCENT, bold=True)
            for b in self.recent_buttons:
                b.draw(surface, text)
            self._draw_fields(surface, text)
            self.find.draw(surface, text)
            self.back.draw(surface, text)
        if self.error:
            width = self.rect.width - s(320)
            for i, part in enumerate(text.wrap(self.error, 13, width)[:3]):
                text.blit(surface, part, (self.rect.x + s(20), self.rect.bottom - s(56) + i * s(16)), 13, theme.DANGER)
        self.tooltip.draw(surface, text)

    def _draw_fields(self, surface: pygame.Surface, text: TextCache) -> None:
        s = self.ui.s
        for key, label, _ in FIELDS:
            row = self.rows[key]
            colour = theme.TEXT if key == self.focus else theme.TEXT_MUTED
            text.blit(surface, label, (row.x, row.centery), 14, colour, anchor="midleft")
            field = self.fields[key]
            field.focused = key == self.focus  # one caret: where typing goes
            field.draw(surface, text)
        hint = next(h for k, _, h in FIELDS if k == self.focus)
        row = self.rows["help"]
        for i, line in enumerate(text.wrap(hint, 12, row.width)[:2]):
            text.blit(surface, line, (row.x, row.y + i * s(15)), 12, theme.TEXT_MUTED)


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

    def width_needed(self) -> int:
        """How wide the two buttons must be to show their labels whole (either label of the switch)."""
        text, s = self.ui.text, self.ui.s
        switch = max(text.width(label, self.network.size, True) for label in NETWORK_LABEL.values())
        return max(switch, text.width(self.host.text, self.host.size, True)) + s(24)

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
