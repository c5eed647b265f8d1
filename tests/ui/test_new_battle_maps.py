"""New battle lists maps by their title with a small preview and the description, offers a human or the
computer for each side (the random player stays a testing tool of ``simulate``), and lays out without
overlap from 1024×640 at 125 % to 1920×1080."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.engine import rule_options as ro
from game.paths import MAPS_DIR, campaign_copy_of
from game.ui.app import App
from game.ui.new_battle import map_labels
from game.ui.screens import NewBattleScreen, map_thumbnail, map_title
from tests.ui.conftest import click


def new_battle(tmp_path: Path, size: tuple[int, int], scale: float = 1.0) -> tuple[App, NewBattleScreen]:
    app = App(config=tmp_path / "cfg", maps_dir=MAPS_DIR, size=size)
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))  # the text scaled too, as Settings does
    app.pump()
    screen = NewBattleScreen(app.ui, app.start_battle)
    app.push(screen)
    app.draw()
    return app, screen


def test_maps_are_listed_by_title_not_file_name(tmp_path: Path) -> None:
    app, screen = new_battle(tmp_path, (1280, 720))
    titles = screen.list.items
    assert "The Miller's Meadow" in titles and "Harrowby Village" in titles
    assert not any(t.endswith(".tmx") or "_" in t or t == "open field" for t in titles)
    app.close()


def test_a_map_without_a_name_is_listed_by_its_file_name_in_words(tmp_path: Path) -> None:
    text = (MAPS_DIR / "open_field.tmx").read_text(encoding="utf-8")
    start, end = text.index('  <property name="description"'), text.index('  <property name="roster"')
    (tmp_path / "my_skirmish.tmx").write_text(text[:start] + text[end:], encoding="utf-8")
    assert map_title(tmp_path / "my_skirmish.tmx") == ("My skirmish", "")
    assert map_title(MAPS_DIR / "open_field.tmx")[0] == "The Miller's Meadow"


@pytest.mark.parametrize(("size", "scale"), [((1024, 640), 1.25), ((1920, 1080), 1.0)])
def test_the_chosen_map_is_shown_small_with_its_description(
    tmp_path: Path, size: tuple[int, int], scale: float
) -> None:
    app, screen = new_battle(tmp_path, size, scale)
    seen: list[str] = []
    original = app.ui.text.blit

    def spy(surface: pygame.Surface, text: str, *args: object, **kw: object) -> object:
        seen.append(text)
        return original(surface, text, *args, **kw)  # type: ignore[arg-type]

    app.ui.text.blit = spy  # type: ignore[method-assign]
    try:
        screen.list.select(screen.maps.index(MAPS_DIR / "village.tmx"))
        app.draw()
    finally:
        app.ui.text.blit = original  # type: ignore[method-assign]
    assert "Harrowby Village" in seen
    _, description = map_title(MAPS_DIR / "village.tmx")
    assert description and description.split()[0] in " ".join(seen)
    box = screen.preview_rect
    thumb = map_thumbnail(MAPS_DIR / "village.tmx", (box.width, box.height))
    assert thumb is not None and thumb.get_width() <= box.width and thumb.get_height() <= box.height
    assert not box.colliderect(screen.roster_button.rect) and not box.colliderect(screen.browse.rect)
    app.close()


def test_a_broken_map_has_no_preview_but_its_problem(tmp_path: Path) -> None:
    shutil.copyfile(MAPS_DIR / "open_field.tmx", tmp_path / "broken.tmx")  # its tileset is not beside it
    assert map_thumbnail(tmp_path / "broken.tmx", (100, 100)) is None


def test_new_battle_offers_human_or_a_computer_level_never_the_random_player(tmp_path: Path) -> None:
    app, screen = new_battle(tmp_path, (1280, 720))
    button = screen.side_buttons[1]
    labels, kinds = set(), set()
    for _ in range(8):
        click(app, button.rect.center)
        labels.add(screen.side_buttons[1].text.split(": ")[-1])
        kinds |= set(screen.controllers.values())
    assert labels == {"Human", "Computer", "Computer (veteran)", "Computer (novice)"}
    assert kinds == {"human", "tactical", "veteran", "novice"}
    app.close()


@pytest.mark.parametrize(("size", "scale"), [((1024, 640), 1.25), ((1024, 640), 1.5), ((1920, 1080), 1.0)])
def test_new_battle_lays_out_without_overlap(tmp_path: Path, size: tuple[int, int], scale: float) -> None:
    app, screen = new_battle(tmp_path, size, scale)
    bottom = min(screen.back.rect.top, screen.start.rect.top)
    assert not screen.back.rect.colliderect(screen.start.rect)
    assert all(r.bottom <= bottom for r in screen.option_rects.values())
    right_column = min(b.rect.left for b in screen.side_buttons)
    for b in (screen.roster_button, screen.roster_reset, screen.roster_edit, screen.browse):
        assert b.rect.right < right_column and b.rect.right <= screen.list.rect.right
    assert screen.preview_rect.bottom <= screen.roster_button.rect.top
    app.close()


@pytest.mark.parametrize(
    ("size", "scale"), [((1024, 640), 1.25), ((1024, 640), 1.5), ((1280, 720), 1.0), ((1920, 1080), 1.0)]
)
def test_new_battle_buttons_show_their_whole_labels(tmp_path: Path, size: tuple[int, int], scale: float) -> None:
    """Host a table and the network switch read "Host…" and "Netwo…" at 1024×640 and 125 %: Start gives them
    the room it does not need, and nothing at the bottom overlaps."""
    app, screen = new_battle(tmp_path, size, scale)
    rules = screen.rules
    bottom = [screen.back, screen.start, screen.hosting.host, screen.hosting.network]
    every = [*bottom, screen.browse, screen.roster_button, screen.roster_reset, screen.roster_edit, *rules.buttons]
    screen.roster_reset.text = "Your copy"  # a label it takes (the campaign copy set aside)
    app.dirty = True
    app.draw()
    assert [b.text for b in every if b.clipped] == []
    rects = [b.rect for b in every]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
    assert all(pygame.Rect((0, 0), size).contains(r) for r in rects)
    assert all(not r.colliderect(screen.hosting.network.rect) for r in screen.option_rects.values())
    assert screen.option_rects, "some rule options show"
    # the set's name reads whole between the arrows, and still once an option is changed
    for changed in (False, True):
        if changed:
            assert rules.step(next(sp for sp in ro.OPTIONS if sp.kind == "bool" and sp.ready), 1)
            assert rules.set_label.endswith("(changed)")
        room = rules.next.rect.x - rules.previous.rect.right - app.ui.s(12)
        assert app.ui.text.width(rules.set_label, 14, True) <= room, rules.set_label
    app.close()


@pytest.mark.parametrize(("size", "scale"), [((1024, 640), 1.25), ((1024, 640), 1.5), ((1280, 720), 1.0)])
def test_new_battle_says_which_roster_inside_the_left_column(
    tmp_path: Path, size: tuple[int, int], scale: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The roster line ("… (your campaign copy, with what you saved to it)") ran over the rule options at 1024×640:
    it wraps inside the map's column, above the roster's buttons and under the map's preview, and reads whole."""
    monkeypatch.setenv("FUDGE_TACTICS_HOME", str(tmp_path / "home"))
    copy = campaign_copy_of(MAPS_DIR / "village.roster.toml")
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(MAPS_DIR / "village.roster.toml", copy)
    app, screen = new_battle(tmp_path, size, scale)
    screen.list.select(next(i for i, p in enumerate(screen.maps) if p.name == "village.tmx"))
    assert screen.campaign_in_use
    seen: list[tuple[str, pygame.Rect]] = []
    original = app.ui.text.blit

    def spy(surf: pygame.Surface, s: str, *args: Any, **kw: Any) -> pygame.Rect:
        rect = original(surf, s, *args, **kw)
        seen.append((s, rect))
        return rect

    app.ui.text.blit = spy  # type: ignore[method-assign]
    try:
        app.dirty = True
        app.draw()
    finally:
        app.ui.text.blit = original  # type: ignore[method-assign]
    start = next(i for i, (s, _) in enumerate(seen) if s.startswith("Roster: "))
    lines = [(s, r) for s, r in seen[start : start + 2] if not s.startswith(("Roster…", "Map's own", "As shipped"))]
    assert "campaign copy" in " ".join(s for s, _ in lines)
    assert not any(s.endswith("…") for s, _ in lines), "the roster line reads whole (a shorter note where need be)"
    for s, r in lines:
        assert r.left >= screen.list.rect.left and r.right <= screen.list.rect.right, s
        assert r.bottom <= screen.roster_button.rect.top and r.top >= screen.preview_rect.bottom, s
    app.close()


def _maps_with_controllers(folder: Path, controllers: dict[str, str]) -> Path:
    """The open field in ``folder`` with its roster's sides given these controllers."""
    folder.mkdir(exist_ok=True)
    for part in ("open_field.tmx", "terrain_flat.tsx", "terrain_pointy.tsx"):
        shutil.copy(MAPS_DIR / part, folder / part)
    shutil.copytree(MAPS_DIR / "tiles", folder / "tiles")
    text = (MAPS_DIR / "open_field.roster.toml").read_text(encoding="utf-8")
    for side, controller in controllers.items():
        text = text.replace(f"[sides.{side}]\n", f'[sides.{side}]\ncontroller = "{controller}"\n')
    (folder / "open_field.roster.toml").write_text(text, encoding="utf-8")
    return folder / "open_field.tmx"


def test_new_battle_takes_who_plays_each_side_from_the_roster(tmp_path: Path) -> None:
    """A roster's ``controller``, level included, is what New battle offers and starts (not "Computer")."""
    folder = tmp_path / "maps"
    _maps_with_controllers(folder, {"red": "veteran", "blue": "novice"})
    app = App(config=tmp_path / "cfg", maps_dir=folder, size=(1280, 720))
    app.pump()
    screen = NewBattleScreen(app.ui, app.start_battle)
    app.push(screen)
    app.draw()
    labels = [b.text for b in screen.side_buttons]
    assert labels == ["The Baron's Men: Computer (novice)", "Black Hugh's Brigands: Computer (veteran)"]
    assert dict(screen.setup().side_controllers) == {"blue": "novice", "red": "veteran"}
    click(app, screen.side_buttons[1].rect.center)  # the player's own choice wins over the roster's
    assert dict(screen.setup().side_controllers)["red"] == "novice"  # the next after veteran
    assert screen.side_buttons[1].text == "Black Hugh's Brigands: Computer (novice)"
    app.close()


def test_a_player_set_in_the_roster_editor_reaches_new_battle(app: App, data_home: Path) -> None:
    """Edit roster → a side's Player → Save: New battle says the same as the editor."""
    from game.ui.roster_editor import RosterEditor
    from tests.ui.conftest import key

    screen = NewBattleScreen(app.ui, app.start_battle)
    app.push(screen)
    app.pump()
    screen.list.select(screen.maps.index(MAPS_DIR / "open_field.tmx"))
    assert screen.side_buttons[1].text.endswith(": Computer")
    key(app, pygame.K_e)
    editor = app.top
    assert isinstance(editor, RosterEditor)
    editor.sides_and_figures.side_index = list(editor.sides).index("red")
    editor.layout()
    while editor.sides["red"].get("controller") != "veteran":
        click(app, editor.buttons["side.player"].rect.center)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    key(app, pygame.K_RETURN)  # the dialog naming the copy the edits went to
    key(app, pygame.K_ESCAPE)
    assert app.top is screen
    red = [sc.id for sc in screen.sides].index("red")
    assert screen.side_buttons[red].text.endswith(": Computer (veteran)")
    assert dict(screen.setup().side_controllers)["red"] == "veteran"


def test_maps_sharing_a_title_are_told_apart_by_their_file_names(tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    for name in ("open_field.tmx", "open_field_v2.tmx"):
        shutil.copy(MAPS_DIR / "open_field.tmx", folder / name)
    shutil.copy(MAPS_DIR / "village.tmx", folder / "village.tmx")
    app = App(config=tmp_path / "cfg", maps_dir=folder, size=(1280, 720))
    app.pump()
    screen = NewBattleScreen(app.ui, app.start_battle)
    app.push(screen)
    app.draw()
    assert screen.list.items == [
        "The Miller's Meadow (open_field.tmx)",
        "The Miller's Meadow (open_field_v2.tmx)",
        "Harrowby Village",
    ]
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    shutil.copy(MAPS_DIR / "open_field.tmx", elsewhere / "open_field.tmx")
    assert map_labels([folder / "open_field.tmx", elsewhere / "open_field.tmx"]) == [
        "The Miller's Meadow (maps/open_field.tmx)",
        "The Miller's Meadow (other/open_field.tmx)",
    ]
    app.close()
