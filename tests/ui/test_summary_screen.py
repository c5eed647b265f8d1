"""The after-battle screen driven by posted pygame events (SDL dummy driver).

A short battle between computers is played to its end, a few wounds are set on its figures so each test
knows the sheets, and the screen is opened the way a player opens it: from the victory screen or the menu.
"""

from __future__ import annotations

import os
import random
import shutil
from functools import cache
from pathlib import Path

import pygame
import pytest

from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions, Seat, SideSetup, legal_actions
from game.engine.characters import Character
from game.engine.healing import care_after_battle, rest, treat
from game.engine.players import make_player
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel, Wounds
from game.report import export_log_text, hit_matrix, wound_boxes
from game.roster import load_roster
from game.session import Session
from game.ui import theme
from game.ui.app import App
from game.ui.battle_screen import VictoryScreen
from game.ui.summary_screen import GM_HEALER, BattleEnd, SummaryScreen, export_path
from tests.ui.conftest import click, key

SEED = 7


@cache
def _played() -> tuple[TerrainMap, tuple[FigureSetup, ...], int]:
    t = TerrainMap.open(12, 8)
    knight = Character.from_dict(
        {
            "name": "Knight",
            "strength": "Good",
            "skills": {"Sword": "Great"},
            "weapons": ["Broadsword"],
            "armour": ["Chain Mail"],
        }
    )
    medic = Character.from_dict(
        {
            "name": "Medic",
            "skills": {"Knife": "Fair", "First Aid": "Great"},
            "weapons": ["Large Knife"],
            "armour": ["Leather"],
        }
    )
    brig = Character.from_dict(
        {"name": "Brigand", "skills": {"Axe": "Good"}, "weapons": ["Hand Axe"], "armour": ["Leather"]}
    )
    figs = (
        FigureSetup("b0", "Bors", "blue", knight, t.hex_at(2, 2), 0),
        FigureSetup("b1", "Mede", "blue", medic, t.hex_at(1, 5), 0),
        FigureSetup("r0", "Hugh", "red", brig, t.hex_at(7, 2), 3),
        FigureSetup("r1", "Tom", "red", brig, t.hex_at(7, 5), 3),
    )
    return t, figs, SEED


def finished_battle() -> Battle:
    """The battle played by two computers to its end (or 12 rounds), with known wounds set afterwards."""
    t, figs, seed = _played()
    b = Battle(
        BattleSetup(
            t,
            (SideSetup("blue", "Blue", "#2f6fd0"), SideSetup("red", "Red", "#c83232")),
            figs,
            RuleOptions(),
            seed,
            title="Test skirmish",
        )
    )
    players = {"blue": make_player("tactical", 1), "red": make_player("tactical", 2)}
    while not b.over and b.round <= 12:
        d = legal_actions(b)
        assert d is not None
        b.apply(players[d.side](b, d))
    sheets = {
        "b0": [WoundLevel.SCRATCH, WoundLevel.SCRATCH, WoundLevel.HURT],
        "b1": [],
        "r0": [WoundLevel.VERY_HURT, WoundLevel.HURT],
        "r1": [WoundLevel.SCRATCH, WoundLevel.INCAPACITATED],
    }
    for fid, levels in sheets.items():
        w = Wounds()
        for lv in levels:
            w, _ = w.record(lv)
        b.figures[fid].wounds = w
    return b


def open_summary(app: App, battle: Battle) -> SummaryScreen:
    """Victory screen, then its "After the battle…" button."""
    app.push(VictoryScreen(app.ui, BattleEnd(battle, app.to_title)))
    app.pump()
    click(app, app.top.summary_button.rect.center)  # type: ignore[attr-defined]
    screen = app.top
    assert isinstance(screen, SummaryScreen)
    app.draw()
    return screen


def healing_rng(battle: Battle) -> random.Random:
    """The healing generator the screen uses (seeded from the battle's seed, not the battle's own)."""
    return random.Random(f"fudge-tactics healing {battle.setup.seed}")


def test_fudge_4_57_summary_draws_every_figures_wound_boxes(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    surface = pygame.display.get_surface()
    assert surface is not None
    for f in b.figures.values():
        boxes = screen.drawn_boxes[f.id]
        expected = [
            m for col in wound_boxes(f.wounds) for m in col["marks"] + [""] * (col["boxes"] - len(col["marks"]))
        ]
        assert [m for _, m in boxes] == expected
        for rect, mark in boxes:
            inner = surface.get_at((rect.x + 3, rect.y + 3))[:3]
            if mark:
                assert inner in (theme.DANGER, theme.ACCENT)
            else:
                assert inner == theme.PANEL_LIGHT
    # Tom's Scratch and Incapacitated: X in the first Scratch box and in the Incapacitated box
    marks = [m for _, m in screen.drawn_boxes["r1"]]
    assert marks.count("Scratch") == 1 and marks.count("Incapacitated") == 1


def test_who_hit_whom_and_luck_come_from_the_report(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    rows = hit_matrix(b.events)
    names = b.names()
    assert rows and len(screen.hits.items) == len(rows)
    for item, row in zip(screen.hits.items, rows, strict=True):
        assert item.startswith(f"{names[row['attacker']]} → {names[row['target']]}: {row['hits']}/")
        assert f"damage {row['damage']}" in item
    assert set(screen.summary["luck"]) == {"blue", "red"}


def test_export_writes_the_readable_log_into_the_data_folder(app: App, data_home: Path) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    click(app, screen.export_button.rect.center)
    path = export_path(b)
    assert path.parent == data_home / "logs" and path.is_file()
    text = path.read_text(encoding="utf-8")
    assert text.startswith(export_log_text(b)) and "Healing (Fudge 4.8)" in text
    assert str(path) in screen.message and not screen.message_error


def test_an_unwritable_data_folder_gives_a_message_and_loses_nothing(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(blocker))
    log_length = len(b.log)
    click(app, screen.export_button.rect.center)
    assert app.top is screen and app.running
    assert screen.message_error and "not exported" in screen.message
    assert blocker.read_text() == "a file where the data folder should be" and len(b.log) == log_length


def test_fudge_4_8_care_after_battle_erases_scratches(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    click(app, screen.care_button.rect.center)
    for f in b.figures.values():
        assert screen.wounds_of(f.id) == care_after_battle(f.wounds)
    assert list(screen.wounds_of("b0").received()) == [WoundLevel.HURT]
    assert not screen.care_button.enabled
    assert b.figures["b0"].wounds != screen.wounds_of("b0")  # the battle itself is untouched


def test_fudge_4_8_a_healer_with_first_aid_treats_each_wounded_figure_once(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    healer_b, _minus, _plus, treat_b = screen.side_rows["blue"]
    assert screen.healer_choice["blue"] == "b1" and "First Aid" in healer_b.text
    click(app, treat_b.rect.center)
    rng = healing_rng(b)
    expected = treat(
        rng, b.figures["b0"].wounds, b.figures["b1"].character.skill_level("First Aid"), skill_name="First Aid"
    )
    assert screen.wounds_of("b0") == expected.after
    line = screen.care.patients["b0"].lines[-1]
    assert "Mede" in line and "[" in line and "First Aid Great" in line
    assert not treat_b.enabled  # everyone of the side is treated


def test_fudge_4_8_the_gm_enters_a_healers_skill_level(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    healer_b, _minus, plus, treat_b = screen.side_rows["red"]
    assert screen.healer_choice["red"] == GM_HEALER  # no brigand knows medicine
    assert "GM's healer: Good" in healer_b.text
    click(app, plus.rect.center)
    click(app, plus.rect.center)
    assert "Superb" in healer_b.text
    click(app, treat_b.rect.center)
    rng = healing_rng(b)
    after = {fid: treat(rng, b.figures[fid].wounds, 3, skill_name="healing skill").after for fid in ("r0", "r1")}
    assert {fid: screen.wounds_of(fid) for fid in after} == after


def test_fudge_4_8_rest_heals_a_level_a_week(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    click(app, screen.weeks_plus.rect.center)
    assert screen.weeks == 2 and screen.rest_button.text == "Rest 2 weeks"
    click(app, screen.rest_button.rect.center)
    for f in b.figures.values():
        assert screen.wounds_of(f.id) == rest(f.wounds, 14).after
    key(app, pygame.K_x)  # export: the healing is in the text
    text = export_path(b).read_text(encoding="utf-8")
    assert "Rest 2 week(s)" in text and "Hugh:" in text


def test_the_menu_offers_the_summary_once_the_battle_is_over(app: App) -> None:
    from game.session import new_session
    from game.ui.battle_screen import BattleScreen

    session = new_session(seed=3, autosave=False)
    screen = BattleScreen(app.ui, session, app.to_title)
    first = session.battle.decision()
    assert first is not None
    screen.last_human_side = first.side  # no hand-off curtain: this test is about the menu
    screen.victory_shown = True  # and no victory screen either once the battle ends
    app.push(screen)
    key(app, pygame.K_ESCAPE)
    names = [b.text for b in app.top.column.buttons]  # type: ignore[attr-defined]
    assert "After the battle…" not in names
    key(app, pygame.K_ESCAPE)
    from game.engine import actions as act

    d = session.battle.decision()
    assert d is not None
    session.apply(act.Yield(d.side), Seat.of_side(d.side))
    key(app, pygame.K_ESCAPE)
    button = next(b for b in app.top.column.buttons if b.text == "After the battle…")  # type: ignore[attr-defined]
    click(app, button.rect.center)
    assert isinstance(app.top, SummaryScreen)
    key(app, pygame.K_ESCAPE)
    assert app.top is screen


# ------------------------------------------------------------------------------------------ wounds to the roster


def village_battle_over(roster: Path) -> Session:
    """A village battle from a copy of its roster, played two rounds and then yielded, with known wounds."""
    from game.engine import actions as act
    from game.session import new_session

    session = new_session(VILLAGE, roster, seed=5, autosave=False)
    b = session.battle
    players = {sid: make_player("tactical", i) for i, sid in enumerate(b.sides)}
    while not b.over and b.round <= 2:
        d = legal_actions(b)
        assert d is not None
        session.apply(players[d.side](b, d), Seat.of_side(d.side))
    if not b.over:
        d = legal_actions(b)
        assert d is not None
        session.apply(act.Yield(d.side), Seat.of_side(d.side))
    for f in b.figures.values():
        f.wounds = Wounds(f.character.wound_track)
    sergeant = next(f for f in b.figures.values() if f.character.key == "sergeant")
    sergeant.wounds = Wounds().record(WoundLevel.SCRATCH)[0].record(WoundLevel.VERY_HURT)[0]
    return session


VILLAGE = Path(__file__).resolve().parent.parent.parent / "maps" / "village.tmx"


def open_village_summary(app: App, session: Session) -> SummaryScreen:
    """The battle screen's victory screen, then "After the battle…", as a player reaches it."""
    from game.ui.battle_screen import BattleScreen

    screen = BattleScreen(app.ui, session, app.to_title)
    app.push(screen)
    for _ in range(600):  # the log's lines come in one by one, then the victory screen
        if isinstance(app.top, VictoryScreen):
            break
        app.pump(0.5)
    victory = app.top
    assert isinstance(victory, VictoryScreen)
    click(app, victory.summary_button.rect.center)
    summary = app.top
    assert isinstance(summary, SummaryScreen)
    app.draw()
    return summary


def test_fudge_4_8_save_wounds_writes_the_healed_sheets_into_the_battles_roster(app: App, tmp_path: Path) -> None:
    roster = tmp_path / "village.roster.toml"
    shutil.copyfile(VILLAGE.with_suffix(".roster.toml"), roster)
    session = village_battle_over(roster)
    screen = open_village_summary(app, session)
    assert screen.roster_path == roster.resolve() and screen.wounds_button.enabled
    assert "village.roster.toml" in screen.wounds_button.tooltip and "(W)" in screen.wounds_button.tooltip
    click(app, screen.care_button.rect.center)  # the Scratch goes first
    click(app, screen.wounds_button.rect.center)
    assert not screen.message_error
    assert screen.message.startswith("Wounds saved to village.roster.toml: Sergeant Osric Very Hurt, ")
    assert screen.message.endswith(", 11 unhurt.")  # every other figure, those sharing a character too
    carried = load_roster(roster).characters["sergeant"].wounds
    assert carried is not None and [str(w) for w in carried.received()] == ["Very Hurt"]
    # the hotkey does the same again, after a week's rest
    click(app, screen.rest_button.rect.center)
    key(app, pygame.K_w)
    assert "Sergeant Osric Hurt" in screen.message
    assert [str(w) for w in load_roster(roster).characters["sergeant"].wounds.received()] == ["Hurt"]  # type: ignore[union-attr]


def test_save_wounds_on_a_refusing_disk_gives_a_message_and_changes_nothing(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = tmp_path / "village.roster.toml"
    shutil.copyfile(VILLAGE.with_suffix(".roster.toml"), roster)
    session = village_battle_over(roster)
    screen = open_village_summary(app, session)
    old = roster.read_bytes()

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    key(app, pygame.K_w)
    assert app.top is screen and app.running
    assert screen.message_error and "Permission denied" in screen.message and "unchanged" in screen.message
    assert roster.read_bytes() == old


def test_a_battle_without_a_roster_file_cannot_save_wounds_and_says_why(app: App) -> None:
    b = finished_battle()
    screen = open_summary(app, b)
    assert not screen.wounds_button.enabled
    assert "does not say which roster file" in screen.wounds_button.tooltip
    key(app, pygame.K_w)
    assert not screen.message_error and "Wounds saved" not in screen.message


def test_back_to_title_from_the_victory_and_after_battle_screens_keeps_the_game_running(app: App) -> None:
    """Both screens' "Back to title" land on the title screen, and the game goes on (it once quit here)."""
    from game.ui.screens import TitleScreen

    for via_summary in (False, True):
        battle = finished_battle()
        if via_summary:
            screen: VictoryScreen | SummaryScreen = open_summary(app, battle)
        else:
            app.push(VictoryScreen(app.ui, BattleEnd(battle, app.to_title)))
            app.pump()
            screen = app.top  # type: ignore[assignment]
        click(app, screen.title_button.rect.center)
        assert app.running
        assert isinstance(app.top, TitleScreen) and len(app.stack) == 1


@pytest.mark.parametrize("size", [(1280, 720), (1400, 900), (700, 600)])
def test_ftc_victory_table_cells_never_overlap(app: App, size: tuple[int, int]) -> None:
    """The victory table's columns are as wide as their widest cell ("Out of the Battle (out)" included);
    in a narrow window the names are cut with "…" rather than run into the next column."""
    battle = finished_battle()
    out = next(f for f in battle.figures.values() if f.id == "r1")
    w = Wounds()
    w, _ = w.record(WoundLevel.INCAPACITATED)
    out.wounds = w
    out.name = "Tom the Extraordinarily Long-Named Brigand of the Northern Marches"
    victory = VictoryScreen(app.ui, BattleEnd(battle, app.to_title))
    surface = pygame.Surface(size)
    victory.on_resize(size)
    victory.draw(surface)
    cells = [r for row in victory.cell_rects for r in row]
    assert len(victory.cell_rects) == len(battle.figures) + 1
    for i, a in enumerate(cells):
        assert a.left >= 0 and a.right <= size[0]
        for c in cells[i + 1 :]:
            assert not a.colliderect(c), (a, c)


def test_fudge_4_8_back_and_reopen_keeps_the_healing_done(app: App) -> None:
    """Healing between battles is done once (*Fudge* 4.8): Back and "After the battle…" again shows the
    care, treatment and rest already done, from the victory screen and from the menu, so nothing is re-rolled."""
    from game.engine import actions as act
    from game.session import new_session
    from game.ui.battle_screen import BattleScreen

    session = new_session(seed=3, autosave=False)
    screen = BattleScreen(app.ui, session, app.to_title)
    first = session.battle.decision()
    assert first is not None
    screen.last_human_side = first.side
    app.push(screen)
    session.apply(act.Yield(first.side), Seat.of_side(first.side))
    for _ in range(5):
        app.pump()
        if isinstance(app.top, VictoryScreen):
            break
    assert isinstance(app.top, VictoryScreen)
    victory = app.top
    click(app, victory.summary_button.rect.center)
    summary = app.top
    assert isinstance(summary, SummaryScreen)
    app.draw()
    click(app, summary.care_button.rect.center)
    click(app, summary.weeks_plus.rect.center)
    click(app, summary.rest_button.rect.center)
    healed = {fid: summary.wounds_of(fid) for fid in session.battle.figures}
    key(app, pygame.K_ESCAPE)
    assert app.top is victory
    click(app, victory.summary_button.rect.center)
    again = app.top
    assert isinstance(again, SummaryScreen) and again is not summary
    app.draw()
    assert not again.care_button.enabled
    assert {fid: again.wounds_of(fid) for fid in session.battle.figures} == healed
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)  # the victory screen back to the board
    assert app.top is screen
    key(app, pygame.K_ESCAPE)
    button = next(b for b in app.top.column.buttons if b.text == "After the battle…")  # type: ignore[attr-defined]
    click(app, button.rect.center)
    from_menu = app.top
    assert isinstance(from_menu, SummaryScreen) and from_menu.care is again.care
    assert not from_menu.care_button.enabled


def test_the_victory_line_reads_right_for_a_plural_side_name(app: App) -> None:
    """ "The Wyrm-Hunters wins!" read wrong: the victory screen and the top bar say "Victory: <side>"."""
    from game.engine import actions as act
    from game.session import ROOT, new_session
    from game.ui.battle_screen import victory_line

    session = new_session(ROOT / "maps" / "wyrm_hollow.tmx", seed=3, autosave=False)
    d = session.battle.decision()
    assert d is not None
    loser = next(sid for sid, side in session.battle.sides.items() if side.name != "The Wyrm-Hunters")
    session.apply(act.Yield(loser), Seat.of_side(loser))
    assert session.battle.over and victory_line(session.battle) == "Victory: The Wyrm-Hunters"
    seen: list[str] = []
    original = app.ui.text.blit

    def spy(surface: pygame.Surface, text: str, *args: object, **kw: object) -> object:
        seen.append(text)
        return original(surface, text, *args, **kw)  # type: ignore[arg-type]

    app.ui.text.blit = spy  # type: ignore[method-assign]
    try:
        app.push(VictoryScreen(app.ui, BattleEnd(session.battle, app.to_title)))
        app.draw()
    finally:
        app.ui.text.blit = original  # type: ignore[method-assign]
    assert "Victory: The Wyrm-Hunters" in seen
    assert not any("wins" in t for t in seen)
