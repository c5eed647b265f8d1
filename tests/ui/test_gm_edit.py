"""The GM's edits of figures on screen, driven by posted pygame events (SDL_VIDEODRIVER=dummy).

From the GM's panel: Gear… (EditGear), Traits… (EditTraits), Reinforce… placed by clicking a legal hex
(AddFigure) and Remove (RemoveFigure). Each is one GM action: it reaches the log and the save, and is
refused with the engine's sentence when the engine says no.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from game.engine import actions as act
from game.engine.battle import Battle
from game.engine.characters import Character
from game.engine.hexgrid import Hex, neighbors
from game.engine.ladder import level_name
from game.session import build_setup, load_session
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from game.ui.dialogs import MessageDialog
from game.ui.gm_edit import GearEditor, PlaceFigure, ReinforceDialog, TraitsEditor
from game.ui.gm_panel import GMPanel
from game.ui.roster_editor import PickDialog
from game.ui.widgets import Button
from tests.ui.conftest import click, key, move
from tests.ui.test_gm_panel import button, open_as_referee, open_as_referee_again

MILITIA = {"name": "Militia", "weapons": ["Small Club"], "skills": {"Club": "Fair"}}


def row(screen: GearEditor | TraitsEditor | ReinforceDialog, label: str) -> Button:
    """The box's button or list row whose text starts with ``label``."""
    return next(b for b in screen.buttons if b.text.startswith(label))


def logged(screen: BattleScreen, start: str) -> list[str]:
    """The combat log's lines starting with ``start``."""
    return [t for t, _, _ in screen.journal.entries if t.startswith(start)]


def to_first_figure(app: App, panel: GMPanel) -> None:
    """◀ ▶ until the panel acts on the battle's first figure (it opens on the figure whose turn it is)."""
    first = next(iter(panel.battle.figures))
    for _ in range(len(panel.battle.figures)):
        if panel.figure == first:
            return
        click(app, button(panel, "▶").rect.center)
    assert panel.figure == first


def open_panel_with_militia(app: App) -> tuple[BattleScreen, GMPanel]:
    """The refereed open field whose roster also has a Militia character no figure uses yet; the panel on the
    first figure."""
    screen, panel = open_as_referee(app)
    session = screen.session
    session.setup_data["roster"]["characters"]["militia"] = dict(MILITIA)
    session.battle = Battle(build_setup(session.setup_data, session.loaded))
    screen._bind()
    panel.layout()
    to_first_figure(app, panel)
    return screen, panel


def free_hex_on_screen(place: PlaceFigure) -> tuple[Hex, tuple[int, int]]:
    """A legal hex whose centre is on the board, off the instruction bar, with its screen point."""
    cam = place.screen.board.camera
    for h in sorted(place.legal()):
        x, y = cam.hex_to_screen(h)
        pos = (round(x), round(y))
        if (
            cam.in_view(*pos)
            and not place.bar.collidepoint(pos)
            and cam.screen_to_hex(*pos) == h
            and pos[1] > place.bar.bottom + 40
        ):
            return h, pos
    raise AssertionError("no free hex on screen")


def test_ftc_9_gear_ticked_in_the_editor_changes_the_figure_and_the_log(app: App) -> None:
    """Tick a Large Shield and Chain Mail: the encumbrance shown follows, Apply edits the character."""
    screen, panel = open_as_referee(app)
    to_first_figure(app, panel)  # a swordsman without a shield
    fid = panel.figure
    click(app, button(panel, "Gear").rect.center)
    editor = app.top
    assert isinstance(editor, GearEditor)
    before = "\n".join(line for line, _ in editor.load_lines())
    click(app, row(editor, "Large Shield").rect.center)
    if "Chain Mail" not in editor.armour:
        click(app, row(editor, "Chain Mail").rect.center)
    after = "\n".join(line for line, _ in editor.load_lines())
    assert after != before and "Carried" in after and "Movement" in after
    click(app, editor.apply_button.rect.center if editor.apply_button else (0, 0))
    c = screen.battle.figure(fid).character
    assert c.shield is not None and c.shield.name == "Large Shield"
    assert "Chain Mail" in [a.name for a in c.armour]
    assert app.top is panel and panel.message.startswith("GM: changes") and not panel.error
    assert any("Large Shield" in t for t in logged(screen, "GM: changes"))
    assert screen.battle.log[-1].kind == "gm_edit_gear"


def test_ftc_9_the_ready_weapon_is_the_first_one(app: App) -> None:
    """A second weapon ticked and made ready goes first in the EditGear."""
    screen, panel = open_as_referee(app)
    fid = panel.figure
    click(app, button(panel, "Gear").rect.center)
    editor = app.top
    assert isinstance(editor, GearEditor)
    click(app, row(editor, "Mace").rect.center)
    mace = row(editor, "Mace").rect
    click(app, next(b for b in editor.buttons if b.text == "Ready" and b.rect.y == mace.y).rect.center)
    assert editor.weapons[0] == "Mace"
    assert editor.apply_button is not None
    click(app, editor.apply_button.rect.center)
    assert screen.battle.figure(fid).character.weapons[0].name == "Mace"


def test_ftc_2_1_traits_stepped_on_the_ladder_and_a_skill_added(app: App) -> None:
    """Strength + shows the next ladder name; a skill picked from the list; Apply sends only the changes."""
    screen, panel = open_as_referee(app)
    fid = panel.figure
    old = screen.battle.figure(fid).character
    click(app, button(panel, "Traits").rect.center)
    editor = app.top
    assert isinstance(editor, TraitsEditor)
    plus = next(b for b in editor.buttons if b.tooltip == "Strength one step up the ladder")
    click(app, plus.rect.center)
    assert any(t[0] == level_name(old.strength + 1) for t in editor.texts)
    click(app, row(editor, "Add skill").rect.center)
    picker = app.top
    assert isinstance(picker, PickDialog)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="Mace"))
    app.pump()
    key(app, pygame.K_RETURN)
    assert app.top is editor and "Mace" in editor.skills
    assert set(editor.changes()) == {"strength", "skills"}
    assert editor.apply_button is not None
    click(app, editor.apply_button.rect.center)
    c = screen.battle.figure(fid).character
    assert c.strength == old.strength + 1
    assert c.skill_level("Mace") == 0  # Fair
    assert logged(screen, "GM: changes") and "Strength" in logged(screen, "GM: changes")[-1]
    assert "Mace — → Fair" in logged(screen, "GM: changes")[-1]
    assert screen.battle.log[-1].kind == "gm_edit_traits"


def test_gm_traits_unchanged_are_not_sent(app: App) -> None:
    """Apply with nothing changed says so and logs nothing."""
    screen, panel = open_as_referee(app)
    click(app, button(panel, "Traits").rect.center)
    editor = app.top
    assert isinstance(editor, TraitsEditor) and editor.apply_button is not None
    log = len(screen.battle.log)
    click(app, editor.apply_button.rect.center)
    assert editor.error and "Nothing changed" in editor.message
    assert len(screen.battle.log) == log


def test_gm_a_reinforcement_refused_on_an_occupied_hex_then_placed_on_a_legal_one(app: App) -> None:
    """Reinforce…: Militia from the roster for the second side; a click on a figure's hex shows the engine's
    refusal; E turns it; a click on a highlighted hex adds it there, facing that way, in the log."""
    screen, panel = open_panel_with_militia(app)
    click(app, button(panel, "Reinforce").rect.center)
    dialog = app.top
    assert isinstance(dialog, ReinforceDialog)
    click(app, row(dialog, "Militia").rect.center)
    second = list(screen.battle.sides)[1]
    click(app, row(dialog, screen.battle.sides[second].name).rect.center)
    assert dialog.source == "militia" and dialog.side == second and dialog.name == "Militia"
    click(app, row(dialog, "Place on map").rect.center)
    place = app.top
    assert isinstance(place, PlaceFigure)
    log = len(screen.battle.log)
    figures = set(screen.battle.figures)
    other = next(
        f
        for f in screen.battle.figures.values()
        if place.screen.board.camera.in_view(*place.screen.board.camera.hex_to_screen(f.hex))
        and not place.bar.collidepoint(place.screen.board.camera.hex_to_screen(f.hex))
    )
    assert other.hex not in place.legal()
    x, y = place.screen.board.camera.hex_to_screen(other.hex)
    click(app, (round(x), round(y)))
    assert app.top is place and place.error and "not a free hex" in place.message
    assert len(screen.battle.log) == log and set(screen.battle.figures) == figures
    key(app, pygame.K_e)
    h, pos = free_hex_on_screen(place)
    move(app, pos)
    click(app, pos)
    assert app.top is panel
    new = next(f for f in screen.battle.figures.values() if f.id not in figures)
    assert (new.hex, new.facing, new.side, new.name) == (h, 1, second, "Militia")
    assert new.character.weapons[0].name == "Small Club"
    assert screen.battle.log[-1].kind == "gm_add_figure"
    assert logged(screen, "GM: Militia joins")
    assert panel.figure == new.id


def test_ftc_5_a_large_reinforcement_needs_its_whole_footprint_free(app: App) -> None:
    """For a 7-hex figure only hexes whose six neighbours are free too are offered."""
    screen, panel = open_as_referee(app)
    dialog = ReinforceDialog(app.ui, panel)
    place = PlaceFigure(app.ui, dialog, Character("Drake", footprint=7))
    occupied = {f.hex for f in screen.battle.figures.values()}
    legal = place.legal()
    assert legal
    assert all(not (set(neighbors(h)) | {h}) & occupied for h in legal)
    assert any(
        n in occupied
        for h in screen.battle.terrain.hexes()
        if h not in legal and h not in occupied
        for n in neighbors(h)
    )


def test_gm_a_copy_of_the_chosen_figure_keeps_its_edited_character(app: App) -> None:
    """The copy is the figure's character as it is now (a table in the AddFigure), on its side."""
    screen, panel = open_as_referee(app)
    fig = screen.battle.figure(panel.figure)
    dialog = ReinforceDialog(app.ui, panel)
    assert dialog.source == "copy" and dialog.side == fig.side and dialog.name != fig.name
    action = dialog.action(Hex(0, 0), 2)
    assert action.character is not None and action.roster_key is None
    assert action.character["name"] == fig.character.name and action.figure not in screen.battle.figures


def test_gm_remove_asks_first_then_the_figure_leaves(app: App) -> None:
    """Remove: a confirmation; Cancel keeps the figure, Remove sends RemoveFigure."""
    screen, panel = open_as_referee(app)
    fid = panel.figure
    click(app, button(panel, "Remove").rect.center)
    assert isinstance(app.top, MessageDialog)
    key(app, pygame.K_ESCAPE)
    assert app.top is panel and fid in screen.battle.figures
    click(app, button(panel, "Remove").rect.center)
    key(app, pygame.K_RETURN)
    assert app.top is panel
    assert fid not in screen.battle.figures and fid in screen.battle.removed
    assert screen.battle.log[-1].kind == "gm_remove_figure"
    assert logged(screen, "GM: removes")
    assert panel.figure in screen.battle.figures


def test_gm_edit_buttons_are_disabled_once_a_figure_has_moved(app: App) -> None:
    """Between rounds only: after a move the four edit buttons are disabled and their tooltip says when."""
    screen, _ = open_as_referee(app)
    key(app, pygame.K_ESCAPE)
    d = screen.decision()
    assert d is not None and d.figure is not None
    screen.send(act.Move(d.figure, ()))
    _, panel = open_as_referee_again(app)
    for label in ("Gear", "Traits", "Reinforce", "Remove"):
        b = button(panel, label)
        assert not b.enabled and "Between rounds only" in b.tooltip
    move(app, button(panel, "Gear").rect.center)
    assert panel.tooltip.text.startswith("Weapons") and "Between rounds only" in panel.tooltip.text


def test_gm_gear_traits_and_a_reinforcement_survive_save_and_load(app: App, tmp_path: Path) -> None:
    """Saved after the edits, the battle loads with the same figures, characters and hexes, and the
    battle screen on the loaded session shows the reinforcement's token."""
    screen, panel = open_panel_with_militia(app)
    fid = panel.figure
    click(app, button(panel, "Gear").rect.center)
    editor = app.top
    assert isinstance(editor, GearEditor) and editor.apply_button is not None
    click(app, row(editor, "Large Shield").rect.center)
    click(app, editor.apply_button.rect.center)
    click(app, button(panel, "Reinforce").rect.center)
    dialog = app.top
    assert isinstance(dialog, ReinforceDialog)
    click(app, row(dialog, "Militia").rect.center)
    click(app, row(dialog, "Place on map").rect.center)
    place = app.top
    assert isinstance(place, PlaceFigure)
    h, pos = free_hex_on_screen(place)
    click(app, pos)
    new = panel.figure
    assert screen.battle.figure(new).hex == h
    path = tmp_path / "gm.json"
    screen.session.save(path)
    loaded = load_session(path, autosave=False)
    a, b = screen.battle, loaded.battle
    assert {f: (x.hex, x.facing, x.side, x.name) for f, x in a.figures.items()} == {
        f: (x.hex, x.facing, x.side, x.name) for f, x in b.figures.items()
    }
    assert b.figure(fid).character.shield is not None and b.figure(fid).character.shield.name == "Large Shield"
    assert b.figure(new).character.name == "Militia"
    again = BattleScreen(app.ui, loaded, app.to_title)
    app.push(again)
    app.pump()
    assert any(t.id == new and t.hex == h for t in again.tokens())
    assert any(t.startswith("GM: Militia joins") for t, _, _ in again.journal.entries)


def test_ftc_9_2_a_suits_coverage_is_chosen_in_the_gear_editor_and_kept_by_later_edits(app: App) -> None:
    """A ticked suit shows its coverage; clicks step it (full, torso, no arms); Apply sends it; a later edit
    that leaves the suit alone keeps it a partial suit."""
    screen, panel = open_as_referee(app)
    to_first_figure(app, panel)
    fid = panel.figure
    click(app, button(panel, "Gear").rect.center)
    editor = app.top
    assert isinstance(editor, GearEditor)
    if "Chain Mail" not in editor.armour:
        click(app, row(editor, "Chain Mail").rect.center)
    mail = row(editor, "Chain Mail").rect

    def coverage_button() -> Button:
        return next(b for b in editor.buttons if b.rect.y == mail.y and b.text in ("full", "torso", "no arms"))

    full_mass = float(row(editor, "Chain Mail").detail)  # type: ignore[attr-defined]
    assert coverage_button().text == "full"
    click(app, coverage_button().rect.center)
    assert coverage_button().text == "torso"
    assert float(row(editor, "Chain Mail").detail) == full_mass / 2  # type: ignore[attr-defined]
    click(app, coverage_button().rect.center)
    assert editor.chosen_coverage()["Chain Mail"] == "no_arms"
    assert editor.apply_button is not None
    click(app, editor.apply_button.rect.center)
    worn = next(a for a in screen.battle.figure(fid).character.armour if a.name == "Chain Mail")
    assert worn.coverage == "no_arms" and not worn.covers("arm")
    assert any("Chain Mail (no arms)" in t for t in logged(screen, "GM: changes"))
    click(app, button(panel, "Gear").rect.center)
    again = app.top
    assert isinstance(again, GearEditor) and again.chosen_coverage()["Chain Mail"] == "no_arms"
    click(app, row(again, "Large Shield").rect.center)
    assert again.apply_button is not None
    click(app, again.apply_button.rect.center)
    assert app.top is panel and not panel.error and screen.battle.log[-1].kind == "gm_edit_gear"
    kept = next(a for a in screen.battle.figure(fid).character.armour if a.name == "Chain Mail")
    assert kept.coverage == "no_arms"


def test_fudge_4_57_a_reinforcement_on_the_mook_track_defaults_to_mook(app: App) -> None:
    """A roster character on the mook wound track comes in as a mook (FTC 4's group initiative follows); the
    toggle's tooltip says it rules initiative only, the wound track being the character's."""
    screen, panel = open_panel_with_militia(app)
    screen.session.setup_data["roster"]["characters"]["thug"] = {**MILITIA, "name": "Thug", "wound_track": "mook"}
    dialog = ReinforceDialog(app.ui, panel)
    app.push(dialog)
    app.draw()
    click(app, row(dialog, "Militia").rect.center)
    assert dialog.mook is False and row(dialog, "Not a mook")
    click(app, row(dialog, "Thug").rect.center)
    assert dialog.source == "thug" and dialog.mook is True
    toggle = row(dialog, "Mook")
    assert "initiative" in toggle.tooltip and "FTC 4" in toggle.tooltip and "mook wound track" in toggle.tooltip
    assert "does not change the wound track" in toggle.tooltip
    assert dialog.action(Hex(0, 0), 0).mook is True
