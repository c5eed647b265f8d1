"""The shipped maps stay as shipped: a battle, its aftercare and "Save wounds to roster" write only into the
user's data folder; the first save of wounds makes a campaign copy of the shipped roster, and New battle offers
that copy as the map's roster next time (*Fudge* 4.8: wounds carried into the next battle)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pygame

from game.paths import MAPS_DIR, campaign_roster
from game.roster import load_roster
from game.session import new_session
from game.ui.app import App
from game.ui.screens import NewBattleScreen
from tests.ui.conftest import click, key
from tests.ui.test_summary_screen import VILLAGE, open_village_summary, village_battle_over


def folder_digest(folder: Path) -> dict[str, str]:
    """Every file under the folder (caches aside) and the hash of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


SHIPPED = VILLAGE.with_suffix(".roster.toml")


def test_a_played_battle_and_its_aftercare_never_write_inside_maps(app: App, data_home: Path) -> None:
    before = folder_digest(MAPS_DIR)
    session = village_battle_over(SHIPPED)
    session.autosave = data_home / "autosave.json"
    session.write_autosave()
    screen = open_village_summary(app, session)
    click(app, screen.care_button.rect.center)
    for row in screen.side_rows.values():  # every side's healer treats its wounded
        click(app, row[0].rect.center)
    click(app, screen.rest_button.rect.center)
    key(app, pygame.K_x)  # export the log
    key(app, pygame.K_w)  # save wounds: the first time makes the campaign copy
    key(app, pygame.K_w)  # and again: into that copy
    assert folder_digest(MAPS_DIR) == before
    copy = data_home / "campaigns" / "village.roster.toml"
    assert copy.is_file() and (data_home / "autosave.json").is_file()


def test_the_first_save_of_wounds_makes_a_named_campaign_copy_and_says_where(app: App, data_home: Path) -> None:
    shipped_text = SHIPPED.read_text(encoding="utf-8")
    session = village_battle_over(SHIPPED)
    screen = open_village_summary(app, session)
    assert "campaign copy" in screen.wounds_button.tooltip
    key(app, pygame.K_w)
    copy = data_home / "campaigns" / "village.roster.toml"
    assert not screen.message_error
    assert screen.message.startswith(f"Wounds saved to a campaign copy of village.roster.toml at {copy} ")
    assert "Sergeant Osric Very Hurt" in screen.message
    assert SHIPPED.read_text(encoding="utf-8") == shipped_text
    carried = load_roster(copy).characters["sergeant"].wounds
    assert carried is not None and [str(w) for w in carried.received()] == ["Scratch", "Very Hurt"]
    assert "# " in copy.read_text(encoding="utf-8")  # the shipped roster's comments came along
    key(app, pygame.K_w)
    assert screen.message.startswith(f"Wounds saved to the campaign copy of village.roster.toml at {copy} ")


def test_new_battle_offers_the_campaign_copy_as_the_maps_roster(app: App, data_home: Path) -> None:
    copy = data_home / "campaigns" / "village.roster.toml"
    copy.parent.mkdir(parents=True)
    copy.write_text(SHIPPED.read_text(encoding="utf-8").replace('name = "Sergeant"\n', 'name = "Old Sergeant"\n'))
    assert campaign_roster(SHIPPED) == copy
    screen = NewBattleScreen(app.ui, lambda setup: None)
    screen.maps = [VILLAGE]
    screen.list.set_items(["village"])
    screen.list.select(0)
    screen.on_resize(app.size)
    assert screen.setup().roster_path == copy
    assert screen.roster_reset.text == "As shipped"
    # the roster as shipped is one click away, and back
    screen._reset_roster()
    assert screen.setup().roster_path is None and screen.roster_reset.text == "Campaign copy"
    screen._reset_roster()
    assert screen.setup().roster_path == copy
    started = new_session(VILLAGE, screen.setup().roster_path, seed=1, autosave=False)
    assert started.setup_data["roster_file"] == str(copy.resolve())
    assert any(f.character.name == "Old Sergeant" for f in started.battle.setup.figures)


def test_a_roster_outside_the_game_folder_is_written_in_place(tmp_path: Path) -> None:
    """The GM's own roster file is the GM's: no campaign copy stands in for it."""
    own = tmp_path / "village.roster.toml"
    own.write_text(SHIPPED.read_text(encoding="utf-8"))
    assert campaign_roster(own) is None
