"""Wounds carried between battles through the roster file (*Fudge* 4.8: wounds heal between battles, and what
is left is carried into the next): the roster key ``wounds``, a battle started from such a roster, saving it
and loading it, and the after-battle step that writes the healed sheets back into the roster.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from game.aftercare import GONE, REINFORCEMENT, REMOVED, SAME_NAME, Aftercare, AftercareError
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Seat
from game.engine.wounds import WoundLevel, Wounds
from game.roster import RosterError, load_roster, parse_roster, read_roster_data, roster_to_toml, save_roster
from game.session import Session, load_session, new_session

ROOT = Path(__file__).resolve().parent.parent
VILLAGE = ROOT / "maps" / "village.tmx"
VILLAGE_ROSTER = ROOT / "maps" / "village.roster.toml"


@pytest.fixture
def roster(tmp_path: Path) -> Path:
    """A copy of the village's roster, to be changed by the test."""
    path = tmp_path / "village.roster.toml"
    shutil.copyfile(VILLAGE_ROSTER, path)
    return path


def carry(path: Path, **wounds: Any) -> None:
    """Give characters of a roster file carried wounds, as a GM writes them by hand."""
    data = read_roster_data(path)
    for key, value in wounds.items():
        data["characters"][key]["wounds"] = value
    save_roster(path, data)


def battle_on(roster_path: Path, seed: int = 3, **kw: Any) -> Session:
    return new_session(VILLAGE, roster_path, seed=seed, autosave=False, **kw)


def figure_of(session: Session, key: str) -> str:
    return next(f.id for f in session.battle.figures.values() if f.character.key == key)


def hurt(*levels: WoundLevel) -> Wounds:
    w = Wounds()
    for lv in levels:
        w, _ = w.record(lv)
    return w


# ------------------------------------------------------------------------------------------ the roster key


def test_fudge_4_8_a_roster_character_carries_its_wounds(roster: Path) -> None:
    carry(roster, sergeant=["Hurt", "Scratch"])
    text = roster.read_text(encoding="utf-8")
    assert 'wounds = ["Hurt", "Scratch"]' in text
    sergeant = load_roster(roster).characters["sergeant"]
    assert sergeant.wounds == hurt(WoundLevel.HURT, WoundLevel.SCRATCH)
    assert load_roster(roster).characters["brigand"].wounds is None


def test_a_bad_wounds_line_names_the_roster_file_the_character_and_the_fix(roster: Path) -> None:
    data = read_roster_data(roster)
    data["characters"]["sergeant"]["wounds"] = ["Hurt", "Bruised"]
    roster.write_text(roster_to_toml(data), encoding="utf-8")
    with pytest.raises(RosterError) as err:
        load_roster(roster)
    message = str(err.value)
    assert str(roster) in message and "character 'sergeant', field 'wounds'" in message
    assert "'Bruised' is not a wound level" in message and 'wounds = ["Hurt", "Scratch"]' in message


def test_a_roster_without_the_key_loads_exactly_as_before() -> None:
    data = read_roster_data(VILLAGE_ROSTER)
    assert not any("wounds" in c for c in data["characters"].values())
    roster = load_roster(VILLAGE_ROSTER)
    assert all(c.wounds is None for c in roster.characters.values())
    assert parse_roster(roster.data).characters == roster.characters


def test_carried_wounds_survive_load_save_load(roster: Path, tmp_path: Path) -> None:
    carry(roster, sergeant={"Scratch": ["Scratch"] * 3, "Very Hurt": ["Scratch"]}, militia_bow=["Very Hurt"])
    first = load_roster(roster)
    out = tmp_path / "again.roster.toml"
    save_roster(out, first)
    again = load_roster(out)
    assert dict(again.characters) == dict(first.characters)
    sergeant = again.characters["sergeant"].wounds
    assert sergeant is not None and sergeant.label == "Very Hurt" and sergeant.filled(WoundLevel.HURT) == 0


# ------------------------------------------------------------------------------------------ the battle


def test_fudge_4_8_a_battle_from_the_roster_starts_each_figure_with_its_wounds(roster: Path) -> None:
    carry(roster, sergeant=["Very Hurt"], brigand_chief=["Hurt", "Scratch", "Scratch"])
    session = battle_on(roster)
    b = session.battle
    assert b.figures[figure_of(session, "sergeant")].wounds == hurt(WoundLevel.VERY_HURT)
    chief = b.figures[figure_of(session, "brigand_chief")]
    assert chief.wounds.label == "Hurt" and len(list(chief.wounds.received())) == 3
    carried = {e.figure for e in b.events if isinstance(e, ev.WoundsCarried)}
    assert carried == {figure_of(session, "sergeant"), chief.id}
    assert all(f.wounds.worst is None for f in b.figures.values() if f.id not in carried)


def test_a_battle_from_a_roster_without_wounds_says_nothing_of_them(roster: Path) -> None:
    session = battle_on(roster)
    plain = battle_on(VILLAGE_ROSTER)
    assert not any(isinstance(e, ev.WoundsCarried) for e in session.battle.events)
    assert session.battle.initial_digest == plain.battle.initial_digest


def test_fudge_4_8_a_saved_battle_with_carried_wounds_loads_and_replays(roster: Path, tmp_path: Path) -> None:
    """The save keeps the roster as it was: it replays, digests checked, even after the file changes."""
    carry(roster, sergeant=["Very Hurt"], militia_bow=["Hurt"])
    session = battle_on(roster, seed=11)
    from game.engine.players import make_player

    players = {sid: make_player("tactical", i) for i, sid in enumerate(session.battle.sides)}
    for _ in range(40):
        d = session.battle.decision()
        if d is None:
            break
        session.apply(players[d.side](session.battle, d), Seat.of_side(d.side))
    save = tmp_path / "carried.json"
    session.save(save)
    carry(roster, sergeant=[], militia_bow=[])  # healed in the file since: the save keeps its own roster
    loaded = load_session(save, autosave=False)
    assert loaded.battle.digests == session.battle.digests
    assert loaded.battle.initial_digest == session.battle.initial_digest
    sergeant = figure_of(session, "sergeant")
    assert loaded.battle.figures[sergeant].wounds == session.battle.figures[sergeant].wounds
    assert any(isinstance(e, ev.WoundsCarried) and e.figure == sergeant for e in loaded.battle.events)


# ------------------------------------------------------------------------------------------ saving the wounds


def wounded_village(roster: Path) -> tuple[Session, Aftercare]:
    """A battle on the village with known wounds set on three figures, and its aftercare."""
    session = battle_on(roster, gm="referee")
    b = session.battle
    b.figures[figure_of(session, "sergeant")].wounds = hurt(WoundLevel.SCRATCH, WoundLevel.HURT)
    b.figures[figure_of(session, "brigand_chief")].wounds = hurt(WoundLevel.VERY_HURT, WoundLevel.INCAPACITATED)
    b.figures[figure_of(session, "brigand_chief")].out = True
    for f in b.figures.values():
        if f.character.key == "brigand":
            f.wounds = hurt(WoundLevel.HURT)
    return session, Aftercare(b)


def test_fudge_4_8_the_healed_wounds_are_written_into_the_roster(roster: Path) -> None:
    session, care = wounded_village(roster)
    care.care()  # the Scratches go
    report = care.save_wounds(session.setup_data["roster_file"])
    again = load_roster(roster)
    assert again.characters["sergeant"].wounds == hurt(WoundLevel.HURT)
    # a figure taken out keeps its wounds (this game's reading)
    chief = again.characters["brigand_chief"].wounds
    assert chief is not None and [str(w) for w in chief.received()] == ["Very Hurt", "Incapacitated"]
    assert again.characters["militia_bow"].wounds is None
    # figures sharing the roster character 'brigand' keep their wounds each in an entry of its own, made from
    # the shared one and named after the figure; the shared entry stays as it was
    assert again.characters["brigand"].wounds is None
    brigands = {f.name for f in session.battle.figures.values() if f.character.key == "brigand"}
    assert len(brigands) == 2
    for name in brigands:
        own = [c for c in again.characters.values() if c.name == name]
        assert len(own) == 1 and own[0].wounds == hurt(WoundLevel.HURT)
        assert own[0].weapons == again.characters["brigand"].weapons and own[0].key != "brigand"
        assert (name, "Hurt") in report.saved
    assert not any(why == SAME_NAME for _, why in report.skipped)
    sergeant = session.battle.figures[figure_of(session, "sergeant")].name
    assert (sergeant, "Hurt") in report.saved and f"{sergeant} Hurt" in report.message()
    message = report.message()
    assert message.startswith("Wounds saved to village.roster.toml: ")
    assert "entries of their own" in message and all(f"{name} as [characters." in message for name in brigands)
    assert roster.read_text(encoding="utf-8").startswith("# ")  # edited in place: the comments stay
    # saving again writes into the same own entries, adding none
    assert care.save_wounds(roster).message().count("[characters.") == 0
    assert len(load_roster(roster).characters) == len(again.characters)
    # the next battle starts with them, the brigands each with their own
    nxt = battle_on(roster)
    assert nxt.battle.figures[figure_of(nxt, "sergeant")].wounds == hurt(WoundLevel.HURT)
    assert nxt.battle.figures[figure_of(nxt, "brigand_chief")].out
    for name in brigands:
        figure = next(f for f in nxt.battle.figures.values() if f.name == name)
        assert figure.wounds == hurt(WoundLevel.HURT) and figure.character.key != "brigand"
    # healed and saved again: into the same entries, and the battle after that starts them unhurt
    care_next = Aftercare(nxt.battle)
    care_next.rest(4)
    care_next.save_wounds(roster)
    assert len(load_roster(roster).characters) == len(again.characters)
    last = battle_on(roster)
    for name in brigands:
        figure = next(f for f in last.battle.figures.values() if f.name == name)
        assert not list(figure.wounds.received()) and figure.character.key != "brigand"


def test_healed_to_nothing_the_wounds_line_goes_and_the_rest_of_the_roster_stays(roster: Path) -> None:
    carry(roster, sergeant=["Hurt"])
    before = read_roster_data(roster)
    session = battle_on(roster)
    care = Aftercare(session.battle)
    care.rest(4)
    care.save_wounds(roster)
    after = read_roster_data(roster)
    assert "wounds" not in after["characters"]["sergeant"]
    before["characters"]["sergeant"].pop("wounds")
    assert after == before
    assert roster.read_text(encoding="utf-8").startswith("# ")  # the roster's own comment lines are kept


def test_gm_reinforcements_and_removed_figures_are_not_written(roster: Path) -> None:
    session, care = wounded_village(roster)
    b = session.battle
    sergeant = figure_of(session, "sergeant")
    session.apply(
        gm.AddFigure(
            "new1",
            b.figures[sergeant].side,
            next(h for h in b.terrain.hexes() if b.gm_free_for(b.figures[sergeant].character, h, 0)),
            0,
            "Hired Sword",
            roster_key="militia_bow",
        ),
        Seat.game_master(),
    )
    session.apply(gm.RemoveFigure(figure_of(session, "militia_bow")), Seat.game_master())
    care = Aftercare(b)
    report = care.save_wounds(roster)
    skipped = dict(report.skipped)
    assert skipped["Hired Sword"] == REINFORCEMENT
    assert list(skipped.values()).count(REMOVED) == 1
    assert "militia_bow" not in [k for k, c in load_roster(roster).characters.items() if c.wounds is not None]


def test_a_character_gone_from_the_roster_file_is_named_and_the_rest_is_saved(roster: Path) -> None:
    session, care = wounded_village(roster)
    data = read_roster_data(roster)
    del data["characters"]["militia_bow"]
    save_roster(roster, data)
    report = care.save_wounds(roster)
    assert (
        next(f.name for f in session.battle.figures.values() if f.character.key == "militia_bow"),
        GONE,
    ) in report.skipped
    assert load_roster(roster).characters["sergeant"].wounds is not None


def test_a_refusing_disk_leaves_the_roster_as_it_was(roster: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, care = wounded_village(roster)
    old = roster.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(AftercareError) as err:
        care.save_wounds(roster)
    message = str(err.value)
    assert "No space left on device" in message and "unchanged" in message and str(roster) in message
    assert roster.read_bytes() == old
    assert sorted(p.name for p in roster.parent.iterdir() if p.name.startswith(".")) == []


def test_no_roster_file_to_write_is_said_plainly(roster: Path) -> None:
    _, care = wounded_village(roster)
    with pytest.raises(AftercareError, match="does not say which roster file"):
        care.save_wounds(None)
    with pytest.raises(AftercareError, match="no such roster file"):
        care.save_wounds(roster.parent / "gone.roster.toml")


def test_fudge_4_8_saving_wounds_keeps_the_gms_comments_and_layout(tmp_path: Path) -> None:
    """Only the ``wounds`` lines of the saved characters change: comments in the middle of the file, the order
    and the layout the GM wrote stay."""
    from game.roster import save_carried_wounds

    path = tmp_path / "band.roster.toml"
    path.write_text(
        '# The band\n\n[sides.blue]\nname = "Blue"  # the heroes\n\n'
        '# Bors leads; he took a blow at the ford\n[characters.bors]\nname = "Bors"\n'
        'wounds = ["Scratch"]\nweapons = ["Broadsword"]   # his father\'s\n\n'
        '# the healer, keep her alive\n[characters."mede"]\nname = "Mede"\nweapons = ["Large Knife"]\n\n'
        '# an unhurt spare\n[characters.tom]\nname = "Tom"\nwounds = ["Hurt"]\n# end of Tom\n',
        encoding="utf-8",
    )
    before = path.read_text(encoding="utf-8")
    notes: list[str] = []
    assert (
        save_carried_wounds(
            path, {"bors": hurt(WoundLevel.HURT), "mede": hurt(WoundLevel.SCRATCH), "tom": Wounds()}, notes
        )
        == []
    )
    after = path.read_text(encoding="utf-8")
    assert notes == []
    expected = (
        before.replace('wounds = ["Scratch"]\n', 'wounds = ["Hurt"]\n', 1)
        .replace('weapons = ["Large Knife"]\n', 'weapons = ["Large Knife"]\nwounds = ["Scratch"]\n', 1)
        .replace('name = "Tom"\nwounds = ["Hurt"]\n', 'name = "Tom"\n', 1)
    )
    assert after == expected
    chars = load_roster(path).characters
    assert [str(w) for w in chars["mede"].wounds.received()] == ["Scratch"]
    assert chars["tom"].wounds is None  # unhurt: no wounds line


def test_a_roster_that_cannot_be_edited_line_by_line_is_rewritten_and_says_so(tmp_path: Path) -> None:
    from game.roster import save_carried_wounds

    path = tmp_path / "inline.roster.toml"
    path.write_text(
        '# top\n[sides.blue]\nname = "Blue"\n# middle\n[characters]\n'
        'bors = { name = "Bors", weapons = ["Broadsword"] }\n',
        encoding="utf-8",
    )
    notes: list[str] = []
    save_carried_wounds(path, {"bors": hurt(WoundLevel.HURT)}, notes)
    assert len(notes) == 1 and "rewritten whole" in notes[0]
    assert path.read_text(encoding="utf-8").startswith("# top\n")
    assert [str(w) for w in load_roster(path).characters["bors"].wounds.received()] == ["Hurt"]


def test_fudge_4_8_figures_of_one_character_sharing_a_name_are_not_saved_and_the_report_says_why(
    roster: Path, tmp_path: Path
) -> None:
    """Two figures of one character under one name cannot be told apart in the next battle: their wounds are
    left out with the reason rather than handed to the wrong figure."""
    data = read_roster_data(roster)
    data["figures"] = [{"character": "militia_bow", "side": "blue", "name": "Twin"}] * 2
    save_roster(roster, data)
    session = battle_on(roster)
    twins = [f for f in session.battle.figures.values() if f.name == "Twin"]
    assert len(twins) == 2
    twins[0].wounds = hurt(WoundLevel.HURT)
    report = Aftercare(session.battle).save_wounds(roster)
    assert ("Twin", SAME_NAME) in report.skipped and ("Twin", "Unhurt") in report.saved
    assert "name them apart" in report.message()
    assert not any(c.name == "Twin" for c in load_roster(roster).characters.values())


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('stands_in_for = "nobody"', "is not another character of this roster"),
        ('stands_in_for = "snipe"', "is not another character of this roster"),
        ("stands_in_for = 3", "must name a character"),
    ],
)
def test_an_entry_standing_in_for_a_character_must_name_another_one(entry: str, problem: str) -> None:
    text = VILLAGE_ROSTER.read_text(encoding="utf-8") + f'\n[characters.snipe]\nname = "Snipe"\n{entry}\n'
    import tomllib

    with pytest.raises(RosterError, match=problem):
        parse_roster(tomllib.loads(text), "village.roster.toml")


def test_two_entries_standing_in_for_one_figure_are_refused() -> None:
    import tomllib

    twice = '\n[characters.{key}]\nname = "Snipe"\nstands_in_for = "brigand"\n'
    text = VILLAGE_ROSTER.read_text(encoding="utf-8") + twice.format(key="snipe") + twice.format(key="snipe_2")
    with pytest.raises(RosterError, match="both stand in for 'brigand' for the figure 'Snipe'"):
        parse_roster(tomllib.loads(text), "village.roster.toml")


def test_fudge_4_55_wounds_beyond_the_track_are_carried_as_the_full_track(roster: Path) -> None:
    """A figure whose wounds ran past its track (no open box left) cannot carry the extra ones: the save keeps
    the full track, says so, and the next battle starts the figure out of the fight (it was refused whole)."""
    session = battle_on(roster)
    b = session.battle
    sergeant = b.figures[figure_of(session, "sergeant")]
    sheet = Wounds()
    for _ in range(9):
        sheet, _ = sheet.record(WoundLevel.NEAR_DEATH if sheet.worst else WoundLevel.INCAPACITATED)
    assert len(sheet.beyond) >= 1
    sergeant.wounds = sheet
    report = Aftercare(b).save_wounds(roster)
    assert "beyond a wound track" in report.message() and sergeant.name in report.note
    carried = load_roster(roster).characters["sergeant"].wounds
    assert carried is not None and not carried.beyond and carried.worst == sheet.worst
    nxt = battle_on(roster)
    assert nxt.battle.figures[figure_of(nxt, "sergeant")].out
