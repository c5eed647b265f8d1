"""The plain map viewer's inspector speaks the battle screen's words: terrain as words ("Dense woods"), where a
hex lies from the nearest figure rather than its coordinates, light and footing as FTC table 7 names them,
facing as a compass word; and its log starts under the two cards at any window size and UI scale."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.engine.hexgrid import distance
from game.ui.app import App
from game.ui.mapdata import open_map
from game.ui.viewer import ViewerScreen

FOREST_ROAD = Path(__file__).resolve().parents[2] / "maps" / "forest_road.tmx"


def open_viewer(app: App, size: tuple[int, int] = (1280, 720)) -> ViewerScreen:
    viewer = ViewerScreen(app.ui, open_map(FOREST_ROAD), app.to_title)
    app.push(viewer)
    viewer.on_resize(size)
    return viewer


def drawn_text(app: App, viewer: ViewerScreen, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the viewer draws in one frame."""
    seen: list[str] = []
    original = app.ui.text.blit

    def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        seen.append(text)
        return original(surface, text, *args, **kwargs)

    monkeypatch.setattr(app.ui.text, "blit", record)
    viewer.draw(pygame.Surface(viewer.size))
    return seen


def test_a_hovered_hex_reads_as_words_never_coordinates(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    viewer = open_viewer(app)
    t = viewer.data.terrain
    woods = next(h for h in t.hexes() if t.type_at(h).name == "dense_woods" and viewer.figure_at(h) is None)
    viewer.selection.hover = woods
    seen = drawn_text(app, viewer, monkeypatch)
    assert "Dense woods" in seen
    assert not any("_" in line for line in seen)
    assert not any(re.search(r"-?\d+\s*,\s*-?\d+", line) for line in seen)  # no "cell 3,4 · hex 3,2"
    near = min(viewer.figures.values(), key=lambda f: (distance(f.hex, woods), f.name))
    d = distance(near.hex, woods)
    assert any(line.startswith(f"{d} hex") and line.endswith(f" of {near.name}") for line in seen)
    assert "good light" in seen or any(line.startswith("bad light") for line in seen)
    assert "firm footing" in seen or any(line.startswith("insecure footing") for line in seen)


def test_a_figure_faces_a_compass_way(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    viewer = open_viewer(app)
    fid = next(iter(viewer.figures))
    viewer.selection.figure = fid
    seen = drawn_text(app, viewer, monkeypatch)
    facing = seen[seen.index("Facing") + 1]
    assert facing in ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5])
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_the_log_lies_under_the_cards(app: App, size: tuple[int, int], scale: float) -> None:
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    viewer = open_viewer(app, size)
    s = app.ui.s
    cards_bottom = viewer.cards_bottom()
    assert cards_bottom <= size[1] - s(26)  # the two cards end above the key hint
    if viewer.log.rect.height:  # a window too short for the log leaves it out
        assert viewer.log.rect.top - s(20) >= cards_bottom  # the "Log" heading too
        assert viewer.log.rect.bottom <= size[1] - s(26)
    else:
        assert size[1] < 700


def test_the_battle_sheet_names_the_facing_as_a_compass_word(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sheet's last line read "facing 1"; a player sees a direction on the board, not a side's number."""
    from tests.ui.test_battle_screen import all_human, lift_curtain, open_battle

    screen = open_battle(app, controllers=all_human())
    lift_curtain(app)
    fid = next(iter(screen.battle.figures))
    seen: list[str] = []
    original = app.ui.text.blit

    def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        seen.append(text)
        return original(surface, text, *args, **kwargs)

    monkeypatch.setattr(app.ui.text, "blit", record)
    monkeypatch.setattr(screen.sheet, "figure_shown", lambda hovered: fid)
    screen.sheet.paint(pygame.Surface((app.ui.s(340), app.ui.s(600))), None)
    line = next(t for t in seen if t.startswith("Initiative "))
    assert re.search(r"facing (north|south|east|west)", line), line
    assert not re.search(r"facing \d", line)


def test_facings_read_as_the_board_draws_them() -> None:
    """Pointy-top hexes face east, north-east, north-west, west, south-west, south-east (FTC 5's six sides);
    flat-top ones south-east, north-east, north, north-west, south-west, south."""
    from game.ui.battle.words import facing_words
    from game.ui.mapdata import default_layout

    pointy, flat = default_layout("y", "odd"), default_layout("x", "odd")
    assert [facing_words(pointy, k) for k in range(6)] == [
        "east",
        "north-east",
        "north-west",
        "west",
        "south-west",
        "south-east",
    ]
    assert [facing_words(flat, k) for k in range(6)] == [
        "south-east",
        "north-east",
        "north",
        "north-west",
        "south-west",
        "south",
    ]


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_the_sheet_names_a_mooks_wound_track_in_full(app: App, monkeypatch: pytest.MonkeyPatch, scale: float) -> None:
    """A goblin's track read "Hurt · Out of th."; with room the sheet says "Out of the Battle" (Fudge 4.57), and
    the labels of a longer track still never run into each other."""
    from tests.ui.test_battle_screen import all_human, lift_curtain, open_battle

    wyrm = FOREST_ROAD.with_name("wyrm_hollow.tmx")
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    screen = open_battle(app, wyrm, controllers=all_human(wyrm))
    lift_curtain(app)
    mook = next(f for f in screen.battle.figures.values() if f.character.wound_track.name == "mook")
    hero = next(f for f in screen.battle.figures.values() if len(f.character.wound_track.steps) >= 5)
    original = app.ui.text.blit
    width = app.ui.s(320)

    def track_labels(fid: str, names: list[str]) -> list[tuple[str, pygame.Rect]]:
        drawn: list[tuple[str, pygame.Rect]] = []

        def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
            rect = original(surface, text, *args, **kwargs)
            drawn.append((text, rect))
            return rect

        with monkeypatch.context() as m:
            m.setattr(app.ui.text, "blit", record)
            m.setattr(screen.sheet, "figure_shown", lambda hovered: fid)
            screen.sheet.paint(pygame.Surface((width, app.ui.s(600))), None)
        return [(t, r) for t, r in drawn if any(t == n or (t.endswith(".") and n.startswith(t[:-1])) for n in names)]

    for fig in (mook, hero):
        names = [st.name for st in fig.character.wound_track.steps]
        labels = track_labels(fig.id, names)
        assert len(labels) == len(names)
        rects = [r for _, r in labels]
        assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
        assert all(r.right <= width for r in rects)
    assert "Out of the Battle" in [t for t, _ in track_labels(mook.id, ["Out of the Battle"])]


@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5])
def test_the_viewers_top_bar_never_overlaps(app: App, monkeypatch: pytest.MonkeyPatch, scale: float) -> None:
    """At 1024×640 and 125 % "zoom 35 %" was drawn over "Side red · 8"."""
    app.ui.update_settings(replace(app.ui.settings, ui_scale=scale))
    viewer = open_viewer(app, (1024, 640))
    drawn: list[tuple[str, pygame.Rect]] = []
    original = app.ui.text.blit

    def record(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        rect = original(surface, text, *args, **kwargs)
        drawn.append((text, rect))
        return rect

    monkeypatch.setattr(app.ui.text, "blit", record)
    viewer.draw(pygame.Surface((1024, 640)))
    bar = [r for _, r in drawn if r.bottom <= app.ui.s(viewer.TOP)]
    assert len(bar) >= 3
    assert all(not a.colliderect(b) for i, a in enumerate(bar) for b in bar[i + 1 :])
