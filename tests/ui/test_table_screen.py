"""The game window at a networked table's seat: "Join a table" from the title screen takes a seat, the
battle screen draws this seat's copy of the host's battle, sends its decisions to the host and waits for the
others; a refusal stays on the form as a sentence."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from game.engine import actions as act
from game.engine.players import make_player
from game.net.client import Client, TableClosed
from game.session import load_session
from game.ui.app import App
from game.ui.battle.table import TableScreen
from game.ui.join_screen import JoinScreen
from game.ui.screens import TitleScreen
from tests.net.nethelp import client, hosted, play_in_thread, table
from tests.ui.conftest import click, key


def _type(app: App, text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.pump()


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables this window remembers are this test's own."""
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "data"))


def _fill_form(app: App, address: str, password: str = "") -> JoinScreen:
    """Title → Join a table; the address and password typed into their fields (a click, Ctrl+A, typing)."""
    title = app.top
    assert isinstance(title, TitleScreen)
    button = next(b for b in title.column.buttons if b.text == "Join a table")
    click(app, button.rect.center)
    form = app.top
    assert isinstance(form, JoinScreen)
    for name, value in (("address", address), ("password", password)):
        click(app, form.fields[name].rect.center)
        key(app, pygame.K_a, pygame.KMOD_CTRL)
        key(app, pygame.K_BACKSPACE)
        _type(app, value)
    return form


def _join_from_title(app: App, address: str, seat: str, password: str = "") -> JoinScreen:
    """The form filled, Enter (the seats by name), then a click on ``seat``'s button."""
    form = _fill_form(app, address, password)
    key(app, pygame.K_RETURN)
    assert form.info is not None, form.error
    click(app, form.seat_button(seat).rect.center)
    return form


def test_join_a_table_from_the_title_and_play_the_seat_to_the_end(app: App) -> None:
    t = table()
    blue, red = list(t.battle.sides)
    with hosted(t) as port:
        other, _ = play_in_thread(client(port, red), "tactical", 1)
        form = _join_from_title(app, f"127.0.0.1:{port}", blue)
        assert form.fields["address"].value == f"127.0.0.1:{port}"
        screen = app.top
        assert isinstance(screen, TableScreen) and screen.session.seat == blue
        player = make_player("tactical", 0)
        waited = False
        end = time.monotonic() + 240  # about 15 s on a quiet machine; over 70 s on one loaded to 8
        while not screen.battle.over and time.monotonic() < end:
            app.pump()
            d = screen.my_decision()
            if d is not None:
                assert d.side == blue
                assert screen.send(player(screen.battle, d))
            else:
                if screen.decision() is not None and screen.decision().side == red:  # type: ignore[union-attr]
                    waited = waited or screen.status.startswith("Waiting for")
                time.sleep(0.002)  # let the other threads run: a spinning pump holds the interpreter lock
        other.join(30)
        app.pump()
    assert screen.battle.over and screen.battle.digests == t.battle.digests
    assert waited, "the status bar said whom the table waits for"
    assert screen.journal.entries, "the log shows the battle"


def test_a_refusal_stays_on_the_form_as_a_sentence(app: App) -> None:
    t = table(password="pw")
    with hosted(t) as port:
        form = _fill_form(app, f"127.0.0.1:{port}", "wrong")
        key(app, pygame.K_RETURN)
        assert app.top is form and form.info is None
        assert "Wrong table password" in form.error
    assert t.conns == {}


def test_undo_is_refused_at_a_table_and_the_gm_panel_only_at_the_gms_seat(app: App) -> None:
    t = table()
    d = t.battle.decision()
    assert d is not None
    with hosted(t) as port:
        _join_from_title(app, f"127.0.0.1:{port}", d.side)
        screen = app.top
        assert isinstance(screen, TableScreen)
        assert screen.send(act.Move(d.figure or ""))
        deadline = time.monotonic() + 10
        while len(t.battle.log) < 1 and time.monotonic() < deadline:
            app.pump()
        assert not screen.cmd_undo() and "undo" in screen.status
        assert screen.open_gm_panel() is None and "GM's seat" in screen.status
        assert len(t.battle.log) == 1


def test_back_to_title_from_the_menu_leaves_the_table(app: App) -> None:
    """Esc, then "Back to title": the seat leaves the table as the screen's own way out does (the connection
    closed, and what leaving a table this game hosts does besides), never only the local battle's way."""
    from game.net.remote import RemoteSession
    from game.ui.screens import EscapeMenu

    t = table()
    blue = next(iter(t.battle.sides))
    with hosted(t) as port:
        session = RemoteSession.connect(client(port, blue))
        left: list[bool] = []
        app.push(TableScreen(app.ui, session, app.to_title, on_leave=lambda: left.append(True)))
        app.pump()
        key(app, pygame.K_ESCAPE)
        menu = app.top
        assert isinstance(menu, EscapeMenu)
        back = next(b for b in menu.column.buttons if b.text == "Back to title")
        click(app, back.rect.center)
        assert isinstance(app.top, TitleScreen)
        assert left == [True] and session.client.ws is None


def test_host_a_table_from_new_battle_and_take_the_first_human_seat(tmp_path: Path) -> None:
    from game.ui.battle.table import TableScreen as Table
    from game.ui.deploy_screen import DeployScreen
    from game.ui.screens import NewBattleScreen

    a = App(config=tmp_path / "config", maps_dir=Path(__file__).resolve().parents[2] / "maps")
    try:
        a.pump()
        title = a.top
        assert isinstance(title, TitleScreen)
        click(a, title.column.buttons[0].rect.center)
        new = a.top
        assert isinstance(new, NewBattleScreen)
        assert new.hosting.network.text == "This computer only"
        click(a, new.hosting.network.rect.center)
        assert new.hosting.public and "Anyone who can reach this computer" in new.hosting.network.tooltip
        click(a, new.hosting.network.rect.center)
        assert not new.hosting.public and new.hosting.network.text == "This computer only"
        click(a, new.hosting.host.rect.center)
        assert isinstance(a.top, DeployScreen)
        key(a, pygame.K_RETURN)
        screen = a.top
        assert isinstance(screen, Table), screen
        assert "Hosting at 127.0.0.1:" in screen.status and "python main.py join 127.0.0.1:" in screen.status
        human = screen.session.seat
        assert screen.battle.sides[human].controller == "human"
        end = time.monotonic() + 90  # a bound, not a speed target: a busy machine is slow
        while len(screen.battle.log) < 6 and not screen.battle.over and time.monotonic() < end:
            a.pump()
            d = screen.my_decision()
            if d is not None:
                assert screen.send(make_player("tactical", 0)(screen.battle, d))
            else:
                time.sleep(0.005)  # let the host's thread run: a spinning pump holds the interpreter lock
        assert len(screen.battle.log) >= 6, "the table plays: this seat here, the computer's sides at the host"
        uri = screen.session.client.uri
        played = list(screen.battle.digests)
        screen.leave_to_title()
        with pytest.raises(TableClosed, match="cannot reach"):
            Client(uri, "late", "watch", say=lambda _: None).connect(timeout=2)
        # the host's save holds a seed its own saves accept: it replays roll for roll (``host --resume``)
        (save,) = a.ui.saves_dir().glob("table-*.json")
        again = load_session(save, autosave=False, strict=True)
        assert again.battle.digests[: len(played)] == played and 0 <= again.battle.setup.seed < 2**63
    finally:
        a.close()


def test_host_a_table_whose_computer_side_is_a_veteran(tmp_path: Path) -> None:
    """New battle → Host a table with a side the veteran plays: the host's computer plays it at the table."""
    from game.ui.battle_setup import BattleSetup

    maps = Path(__file__).resolve().parents[2] / "maps"
    a = App(config=tmp_path / "config", maps_dir=maps)
    try:
        a.pump()
        a.apply(a.host_table(BattleSetup(maps / "forest_road.tmx", controllers=("human", "veteran"), deploy=False)))
        screen = a.top
        assert isinstance(screen, TableScreen), screen
        human, veteran = list(screen.battle.sides)
        assert screen.session.seat == human and screen.is_computer(veteran)
        end = time.monotonic() + 90  # a bound, not a speed target
        while not any(a_.kind != "gm_end_round" and _side(screen, a_) == veteran for a_ in screen.battle.log):
            assert time.monotonic() < end, "the veteran never decided"
            a.pump()
            d = screen.my_decision()
            if d is not None:
                assert screen.send(make_player("tactical", 0)(screen.battle, d))
            else:
                time.sleep(0.005)
        screen.leave_to_title()
    finally:
        a.close()


def _side(screen: TableScreen, action: act.Action) -> str:
    fid = getattr(action, "figure", None) or ""
    return screen.battle.figures[fid].side if fid in screen.battle.figures else getattr(action, "side", "")


def test_f2_says_a_line_to_the_whole_table(app: App) -> None:
    t = table()
    with hosted(t) as port:
        other = client(port, "watch")
        other.connect()
        _join_from_title(app, f"127.0.0.1:{port}", "blue")
        screen = app.top
        assert isinstance(screen, TableScreen)
        key(app, pygame.K_F2)
        _type(app, "well met")
        key(app, pygame.K_RETURN)
        end = time.monotonic() + 10
        while not other.chat_lines and time.monotonic() < end:
            other.receive(0.1)
        assert other.chat_lines[-1] == ("a player", "well met")
        other.send("chat", text="and you")
        while "and you" not in screen.status and time.monotonic() < end:
            app.pump()
            time.sleep(0.01)
        assert screen.status.startswith("player watch says: and you")
        other.close()


def test_the_top_bar_calls_a_seat_computer_only_when_the_table_says_a_computer_sits_there() -> None:
    from types import SimpleNamespace

    from game.ui.battle.words import decision_line

    seats = [
        {"seat": "blue", "name": "Ann", "present": True, "computer": False},
        {"seat": "red", "name": "host computer", "present": True, "computer": True},
    ]
    screen = SimpleNamespace(session=SimpleNamespace(seats=lambda: seats))
    assert not TableScreen.is_computer(screen, "blue")  # type: ignore[arg-type]
    assert TableScreen.is_computer(screen, "red")  # type: ignore[arg-type]
    assert decision_line("Blue", "move Ann", computer=False) == "Blue: move Ann"
    assert decision_line("Red", "move Orc", computer=True) == "Red (computer): move Orc"
