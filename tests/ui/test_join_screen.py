"""The Join form remembers the tables this computer joined and offers the seats by name; a window whose game
crashed takes its seat back with the remembered token, or with one typed on another computer; the seat's
token shows on F3; the host's window frees a seat on F4. The password is never written down."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pygame
import pytest

from game.net import remembered
from game.net.client import Client, TableClosed
from game.net.remote import RemoteSession
from game.ui.app import App
from game.ui.battle.table import TableScreen
from game.ui.dialogs import MessageDialog
from game.ui.join_screen import JoinScreen, seat_choices
from game.ui.pickers import PickDialog
from game.ui.screen import Push
from tests.net.nethelp import client, hosted, table
from tests.ui.conftest import click, key
from tests.ui.test_table_screen import _fill_form, _join_from_title


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(folder))
    return folder


def _new_window(tmp_path: Path, name: str) -> App:
    a = App(config=tmp_path / name, maps_dir=tmp_path)
    a.pump()
    return a


def test_the_seats_are_offered_by_name_and_a_taken_one_only_to_its_token() -> None:
    info = {
        "title": "Ambush",
        "seats": [
            {"seat": "blue", "side": "Wendel Wood", "name": "", "held": False, "present": False, "computer": False},
            {"seat": "red", "side": "Outlaws", "name": "Ann", "held": True, "present": False, "computer": False},
            {"seat": "gm", "side": "The GM", "name": "", "held": False, "present": False, "computer": True},
        ],
        "watch": 3,
    }
    choices = seat_choices(info, {}, "")
    assert [(c.label, c.enabled) for c in choices] == [
        ("Wendel Wood (blue): free", True),
        ("Outlaws (red): Ann's", False),
        ("The GM (gm): the host's computer", False),
        ("Watch the battle (3 places left)", True),
    ]
    mine = seat_choices(info, {"red": "tok"}, "")
    assert mine[1].label == "Outlaws (red): take back your seat" and mine[1].enabled and mine[1].token == "tok"
    assert seat_choices(info, {}, "typed")[1].token == "typed"


def test_the_form_remembers_the_table_and_the_seat_but_not_the_password(app: App, _own_data_folder: Path) -> None:
    t = table(password="dragon's tooth")
    blue = next(iter(t.battle.sides))
    with hosted(t) as port:
        form = _join_from_title(app, f"127.0.0.1:{port}", blue, "dragon's tooth")
        assert isinstance(app.top, TableScreen)
        assert [c.label.split(":")[0] for c in form.choices][:2] == [
            f"{side.name} ({sid})" for sid, side in t.battle.sides.items()
        ], "the seats by the sides' names"
        app.top.session.close()
    saved = (_own_data_folder / remembered.FILE_NAME).read_text()
    assert "dragon" not in saved
    assert (_own_data_folder / remembered.FILE_NAME).stat().st_mode & 0o077 == 0, "readable by this user only"
    kept = json.loads(saved)["tables"][0]
    assert (kept["address"], kept["seat"], kept["name"]) == (f"127.0.0.1:{port}", blue, "a player")
    assert hashlib.sha256(kept["tokens"][blue].encode()).hexdigest() == t.holders[blue].token_hash, "the seat's token"
    again = JoinScreen(app.ui)
    again.on_resize(app.size)
    assert again.fields["address"].value == f"127.0.0.1:{port}" and again.fields["password"].value == ""
    assert again.focus == "password" and again.recent_buttons[0].text == f"127.0.0.1:{port} · {blue}"


def test_a_window_whose_game_crashed_takes_its_seat_back(tmp_path: Path) -> None:
    t = table()
    blue = next(iter(t.battle.sides))
    lines: list[str] = []
    t.say = lines.append
    with hosted(t) as port:
        first = _new_window(tmp_path, "first")
        try:
            _join_from_title(first, f"127.0.0.1:{port}", blue)
            assert isinstance(first.top, TableScreen)
            token = first.top.session.client.token
            assert token
            key(first, pygame.K_F3)
            shown = first.top
            assert isinstance(shown, MessageDialog) and token in shown.message
        except BaseException:
            first.close()
            raise
        # the first window "crashes": its connection is never closed by the game
        second = _new_window(tmp_path, "second")
        try:
            form = _fill_form(second, f"127.0.0.1:{port}")
            key(second, pygame.K_RETURN)
            button = form.seat_button(blue)
            assert button.enabled and button.text.endswith("take back your seat")
            click(second, button.rect.center)
            screen = second.top
            assert isinstance(screen, TableScreen) and screen.session.seat == blue
            assert screen.session.client.token == token
            screen.session.close()
        finally:
            second.close()
            first.close()
    assert any(f"rejoins the seat {blue}" in line for line in lines)


def test_a_token_typed_on_another_computer_takes_the_seat_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t = table()
    blue = next(iter(t.battle.sides))
    with hosted(t) as port:
        elsewhere = client(port, blue, name="Ann")
        elsewhere.connect()
        token = elsewhere.token
        assert token
        elsewhere.close()
        monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "another computer"))
        a = _new_window(tmp_path, "another")
        try:
            form = _fill_form(a, f"127.0.0.1:{port}")
            key(a, pygame.K_RETURN)
            assert not form.seat_button(blue).enabled, "without the token the seat is Ann's"
            key(a, pygame.K_ESCAPE)
            click(a, form.fields["token"].rect.center)
            form.fields["token"].value = ""
            for ch in token:
                pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
            a.pump()
            key(a, pygame.K_RETURN)
            click(a, form.seat_button(blue).rect.center)
            screen = a.top
            assert isinstance(screen, TableScreen) and screen.session.seat == blue
            screen.session.close()
        finally:
            a.close()


def test_join_with_a_window_takes_the_remembered_seat_when_none_is_named() -> None:
    t = table()
    red = list(t.battle.sides)[1]
    with hosted(t) as port:
        uri = f"ws://127.0.0.1:{port}"
        first = RemoteSession.connect(Client(uri, "Ann", red), remember=True)
        token = first.client.token
        first.client.ws = None  # lost without a word, as a crash would
        again = RemoteSession.connect(Client(uri, "Ann"), remember=True)
        assert again.seat == red and again.client.token == token
        again.close()
        thief = Client(uri, "Bob", red, say=lambda _: None)
        with pytest.raises(TableClosed, match="is taken"):
            thief.connect(timeout=5)


def test_the_hosts_window_frees_a_seat_and_its_player_is_told(tmp_path: Path) -> None:
    from game.ui.battle_setup import BattleSetup

    maps = Path(__file__).resolve().parents[2] / "maps"
    a = App(config=tmp_path / "config", maps_dir=maps)
    try:
        a.pump()
        a.apply(a.host_table(BattleSetup(maps / "forest_road.tmx", controllers=("human", "human"), deploy=False)))
        screen = a.top
        assert isinstance(screen, TableScreen) and screen.hosting is not None
        other = next(s for s in screen.battle.sides if s != screen.session.seat)
        guest = Client(screen.session.client.uri, "Ann", other, say=lambda _: None)
        guest.connect(timeout=5)
        end = time.monotonic() + 10
        while not screen.status.startswith("Waiting for") and time.monotonic() < end:
            a.pump()  # the screen has said whom the table waits for
            time.sleep(0.01)
        key(a, pygame.K_F4)
        picker = a.top
        assert isinstance(picker, PickDialog) and picker.shown == [other]
        key(a, pygame.K_RETURN)
        name = screen.battle.sides[other].name
        assert a.top is screen and f"The seat of {name} is free" in screen.status, "named by its side, not its id"
        with pytest.raises(TableClosed, match="The host freed your seat"):
            end = time.monotonic() + 10
            while time.monotonic() < end:
                guest.receive(0.5)
        newcomer = Client(screen.session.client.uri, "Bob", other, say=lambda _: None)
        newcomer.connect(timeout=5)
        assert newcomer.seat == other
        newcomer.close()
        screen.leave_to_title()
    finally:
        a.close()


def test_f4_at_another_computers_table_says_only_the_host_frees_seats(app: App) -> None:
    t = table()
    with hosted(t) as port:
        _join_from_title(app, f"127.0.0.1:{port}", "watch")
        screen = app.top
        assert isinstance(screen, TableScreen)
        key(app, pygame.K_F4)
        assert app.top is screen and "Only the table's host frees a seat" in screen.status
        key(app, pygame.K_F3)
        assert isinstance(app.top, MessageDialog) and "no token" in app.top.message
        screen.session.close()


def test_f1_at_a_table_lists_its_own_keys_and_every_one_fits(app: App) -> None:
    from dataclasses import replace

    from game.ui.screens import HelpOverlay

    t = table()
    with hosted(t) as port:
        _join_from_title(app, f"127.0.0.1:{port}", "watch")
        screen = app.top
        assert isinstance(screen, TableScreen)
        for size, scale in (((1280, 720), 1.0), ((1024, 640), 1.25)):
            app.ui.settings = replace(app.ui.settings, ui_scale=scale)
            app.ui.text.set_scale(scale)
            app.window = pygame.display.set_mode(size)
            screen.on_resize(size)
            key(app, pygame.K_F1)
            overlay = app.top
            assert isinstance(overlay, HelpOverlay)
            keys = dict(overlay.keys)
            assert "your seat's token" in keys["F2 · F3 · F4"] and not any(k.startswith("Ctrl+S") for k in keys)
            app.draw()
            assert overlay.keys_shown == len(overlay.keys), "every key, none dropped for want of room"
            key(app, pygame.K_ESCAPE)
        screen.session.close()


def test_the_hosts_window_says_whose_game_left_the_table_and_that_f4_frees_the_seat(tmp_path: Path) -> None:
    """A guest's game crashes at the village (its seat held, no connection): the host's box says who left
    which seat and that F4 frees it — "Red Ulric's Brigands' seat", never "Brigands's" — and the status bar
    names the host's own seat by its side's name, not its id."""
    from game.ui.battle_setup import BattleSetup
    from tests.helpers import do_little

    maps = Path(__file__).resolve().parents[2] / "maps"
    a = App(config=tmp_path / "config", maps_dir=maps)
    try:
        a.pump()
        a.apply(a.host_table(BattleSetup(maps / "village.tmx", controllers=("human", "human"), deploy=False)))
        screen = a.top
        assert isinstance(screen, TableScreen) and screen.hosting is not None
        other = next(s for s in screen.battle.sides if s != screen.session.seat)
        guest = Client(screen.session.client.uri, "Bea", other, say=lambda _: None)
        guest.connect(timeout=5)
        guest.close()  # the guest's game is gone (a crash closes its connection too): the seat stays Bea's
        end = time.monotonic() + 20
        while time.monotonic() < end:
            a.pump()
            time.sleep(0.01)
            d = screen.decision()
            if d is not None and screen.my_decision() is not None:
                screen.send(do_little(d))
            elif d is not None and d.side == other and "left" in screen.thinking_words(d):
                break
        else:
            raise AssertionError("the table never came to wait for the guest who left")
        words = screen.thinking_words(d)
        assert words == "Bea left Red Ulric's Brigands' seat: waiting for them to come back… (F4 frees the seat)"
        mine = screen.battle.sides[screen.session.seat].name
        assert f"your seat: {mine}" in screen.status and "you sit at" not in screen.status
        # F3 and F4 name the seats by their sides too ("your seat (blue)", "red: Bea" read as codes)
        assert f"takes your seat ({mine}) back" in screen.token_text()
        pick = screen.free_a_seat()
        assert isinstance(pick, Push) and isinstance(pick.screen, PickDialog)
        assert pick.screen.items == [("Red Ulric's Brigands: Bea (away)", other)]
        screen.leave_to_title()
    finally:
        a.close()
