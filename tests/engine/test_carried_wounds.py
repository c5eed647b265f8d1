"""Wounds carried from one battle into the next (*Fudge* 4.8 heals between battles; the boxes of 4.57), and
the GM's gear edit keeping partial suits of armour (FTC 9.2), through ``Battle.apply`` and saved logs.

A character's roster table may say ``wounds = ["Hurt", "Scratch"]``: the wounds, as received, recorded again
in that order on the character's own track. A battle starts each figure with them, says so in the log, and
replays them; a battle without carried wounds opens exactly as before (its initial digest is unchanged).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import events as ev
from game.engine import gm, record
from game.engine.battle import Battle, IllegalAction, legal_actions
from game.engine.characters import Character, CharacterError
from game.engine.wounds import WoundError, WoundLevel, Wounds, named_track
from tests.golden.scenarios import CENTRE, character, duel, east, setup, skirmish

LEVELS = list(WoundLevel)


def sheet(*levels: WoundLevel, track: str = "default") -> Wounds:
    w = Wounds(named_track(track))
    for lv in levels:
        w, _ = w.record(lv)
    return w


def with_wounds(base: Battle | None = None, **carried: list[str]) -> Battle:
    """The 3-against-3 skirmish (seed 4, a GM referee) whose characters carry the given wounds by figure id."""
    s = skirmish(4)
    figs = tuple(
        replace(
            f, character=Character.from_dict({**f.character.to_dict(), "wounds": carried[f.id]}, key=f.character.key)
        )
        if f.id in carried
        else f
        for f in s.figures
    )
    return Battle(replace(s, figures=figs, gm="referee"))


def play_out(b: Battle, rounds: int = 3) -> None:
    """The computer players' stand-in: stay, pass, stop, attack the first enemy in reach."""
    from tests.engine.test_gm_battle import strike_first

    while not b.over and b.round <= rounds:
        d = legal_actions(b)
        assert d is not None
        b.apply(strike_first(b, d))


# ------------------------------------------------------------------------------------------ the sheet


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["default", "mook", "epic", "major_npc"]),
    st.lists(st.sampled_from(LEVELS), max_size=12),
    st.lists(st.sampled_from(LEVELS), max_size=3),
)
def test_fudge_4_57_carried_wounds_rebuild_the_same_boxes(
    track: str, taken: list[WoundLevel], cleared: list[WoundLevel]
) -> None:
    """Whatever wounds were taken and whatever levels a GM erased, the roster form reads back to the same
    sheet, box for box (a list when recording again rebuilds it, else the boxes themselves)."""
    w = sheet(*taken, track=track)
    for lv in cleared:
        if lv in w.track.levels:
            w = w.cleared(lv)
    data = w.to_roster()
    assert Wounds.from_roster(data, w.track) == w
    if isinstance(data, list):
        assert data == [str(x) for x in w.received()]


def test_fudge_4_57_a_list_is_recorded_in_order_like_fresh_wounds() -> None:
    """Two Hurts and a Scratch: the second Hurt has no Hurt box left and takes the Very Hurt box."""
    w = Wounds.from_roster(["hurt", "Hurt", "Scratch"])
    assert w.label == "Very Hurt" and w.marks_at(WoundLevel.VERY_HURT) == (WoundLevel.HURT,)
    assert w.to_roster() == ["Scratch", "Hurt", "Hurt"]


def test_fudge_4_57_a_mook_carries_its_track_labels() -> None:
    """A mook's "Out of the Battle" is its Incapacitated column, by label or by level."""
    track = named_track("mook")
    assert Wounds.from_roster(["Out of the Battle"], track) == Wounds.from_roster(["Incapacitated"], track)
    assert Wounds.from_roster(["Hurt"], track).label == "Hurt"


def test_a_sheet_a_gm_emptied_below_a_rolled_up_wound_is_written_box_by_box() -> None:
    """Five Scratches, then the Hurt box erased: recording again would refill Hurt, so the boxes are written."""
    w = sheet(*[WoundLevel.SCRATCH] * 5).cleared(WoundLevel.HURT)
    assert w.to_roster() == {"Scratch": ["Scratch"] * 3, "Very Hurt": ["Scratch"]}
    assert w.label == "Very Hurt"


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (["Hurtt"], "'Hurtt' is not a wound level"),
        ({"Scratch": ["Hurt"]}, "the Scratch boxes hold wounds of that level or lighter ones"),
        ({"Hurt": ["Hurt", "Hurt"]}, "Hurt has 1 box"),
        ({"Bruised": ["Hurt"]}, "has no level 'Bruised'"),
        (5, "is not a list of wounds"),
    ],
)
def test_a_bad_wounds_line_names_the_character_the_field_and_the_fix(value: object, words: str) -> None:
    with pytest.raises(CharacterError) as err:
        Character.from_dict({"name": "Bors", "wounds": value}, key="bors")
    message = str(err.value)
    assert "character 'bors', field 'wounds'" in message and words in message
    assert 'wounds = ["Hurt", "Scratch"]' in message


def test_a_character_without_the_key_is_unhurt_and_writes_no_wounds() -> None:
    c = character("knight")
    assert c.wounds is None and "wounds" not in c.to_dict()
    assert c.starting_wounds == Wounds(c.wound_track)
    assert Character.from_dict({**c.to_dict(), "wounds": []}, key="knight") == c


def test_the_wounds_survive_the_roster_table_and_a_new_track() -> None:
    c = character("knight", wounds=["Very Hurt", "Scratch"])
    assert Character.from_dict(c.to_dict(), key="knight") == c
    mook = replace(c, wound_track=named_track("mook"))
    assert mook.wounds is not None and mook.wounds.track == mook.wound_track
    assert [str(w) for w in mook.wounds.received()] == ["Scratch", "Very Hurt"]


def test_an_unknown_level_is_refused_by_the_sheet_itself() -> None:
    with pytest.raises(WoundError):
        Wounds.from_roster([True])


# ------------------------------------------------------------------------------------------ the battle


def test_fudge_4_8_a_figure_starts_the_battle_with_the_wounds_it_carries() -> None:
    b = with_wounds(b0=["Very Hurt", "Scratch"])
    knight = b.figures["b0"]
    assert knight.wounds == sheet(WoundLevel.VERY_HURT, WoundLevel.SCRATCH)
    carried = [e for e in b.events if isinstance(e, ev.WoundsCarried)]
    assert carried == [ev.WoundsCarried("b0", ("Scratch", "Very Hurt"), "Very Hurt")]
    assert carried[0].text(b.names()) == "B0 carries wounds from an earlier battle: Scratch, Very Hurt (Very Hurt)"
    # FTC 6.4.1: a Very Hurt wound from an earlier battle counts from the first round
    assert knight.very_hurt_penalty(1) == -1
    assert all(f.wounds == Wounds(f.character.wound_track) for f in b.figures.values() if f.id != "b0")


def test_a_battle_without_carried_wounds_opens_exactly_as_before() -> None:
    """No WoundsCarried event, so the same opening events and the same initial digest as ever."""
    plain = Battle(skirmish(4))
    assert not any(isinstance(e, ev.WoundsCarried) for e in plain.events)
    assert plain.events[0] == ev.RoundBegan(1)
    carried = with_wounds(b0=["Hurt"])
    assert carried.initial_digest != plain.initial_digest
    assert carried.events[1:] == [e for e in plain.events]  # a Hurt changes no roll: the rest is the same


def test_fudge_4_8_a_figure_carrying_an_incapacitating_wound_starts_out_of_the_fight() -> None:
    b = with_wounds(r0=["Incapacitated"])
    brigand = b.figures["r0"]
    assert brigand.out and not brigand.can_act and "r0" not in b.order
    assert ev.TakenOut("r0", "Incapacitated") in b.events


def test_a_side_whose_every_figure_carries_incapacitating_wounds_has_lost_at_once() -> None:
    b = with_wounds(r0=["Incapacitated"], r1=["Near Death"], r2=["Incapacitated"])
    assert b.over and b.winner == "blue"


def test_fudge_4_8_carried_wounds_survive_save_load_and_replay(tmp_path: Path) -> None:
    """Saved, loaded and replayed with every digest checked: the carried wounds come back the same."""
    b = with_wounds(b0=["Very Hurt"], r1=["Hurt", "Scratch"])
    play_out(b)
    path = tmp_path / "carried.json"
    record.save(path, b, {"scenario": "skirmish", "seed": 4})
    rec = record.load(path)
    again = record.replay(
        with_wounds(b0=["Very Hurt"], r1=["Hurt", "Scratch"]).setup,
        rec.actions,
        digests=rec.digests,
        initial_digest=rec.initial_digest,
    )
    assert again.digests == b.digests
    assert {f.id: f.wounds for f in again.figures.values()} == {f.id: f.wounds for f in b.figures.values()}
    with pytest.raises(record.ReplayMismatch, match="opening"):
        record.replay(
            with_wounds(b0=["Hurt"], r1=["Hurt", "Scratch"]).setup,
            rec.actions,
            digests=rec.digests,
            initial_digest=rec.initial_digest,
        )


def test_a_reinforcement_of_a_roster_character_brings_its_wounds() -> None:
    b = Battle(replace(duel()(0), gm="referee"))
    events = b.apply(
        gm.AddFigure(
            "y",
            "red",
            east(CENTRE, 3),
            3,
            "Scarred Guard",
            character={"name": "Guard", "weapons": ["Broadsword"], "wounds": ["Hurt"]},
        )
    )
    assert b.figures["y"].wounds.label == "Hurt"
    assert ev.WoundsCarried("y", ("Hurt",), "Hurt") in events
    before = (len(b.log), b.rng.draws, dict(b.figures))
    with pytest.raises(IllegalAction, match="too hurt to join"):
        b.apply(
            gm.AddFigure(
                "x", "red", east(CENTRE, 4), 3, "Dying Guard", character={"name": "Guard", "wounds": ["Incapacitated"]}
            )
        )
    assert (len(b.log), b.rng.draws, dict(b.figures)) == before


# ------------------------------------------------------------------------------------------ gear (FTC 9.2)


def armoured(seed: int = 0) -> Battle:
    """A knight in a plate breastplate (Plate torso only) and a helmet against a brigand, with a GM."""
    knight = character("knight", armour=[{"name": "Plate", "coverage": "torso"}, "Metal Cap"])
    s = setup([("k", "blue", "brigand", (3, 3), 0), ("z", "red", "brigand", (4, 3), 3)], seed=seed)
    figs = (replace(s.figures[0], character=knight), s.figures[1])
    return Battle(replace(s, figures=figs, gm="referee"))


def test_ftc_9_2_a_gear_edit_keeps_a_partial_suit_as_it_was() -> None:
    """New weapons only: the breastplate stays a breastplate (torso, half the mass), not a full suit."""
    b = armoured()
    before = b.figures["k"].character.armour
    events = b.apply(gm.EditGear("k", ("Broadsword", "Large Knife"), ("Plate", "Metal Cap"), "Medium Shield"))
    after = b.figures["k"].character.armour
    assert after == before and after[0].coverage == "torso"
    assert not after[0].covers("arm") and after[0].covers("torso")
    text = [e.text(b.names()) for e in events if isinstance(e, ev.GMActed)]
    assert text == [
        "GM: changes K's gear: Broadsword, Field Plate (torso), Metal Cap, Medium Shield → "
        "Broadsword, Large Knife, Field Plate (torso), Metal Cap, Medium Shield"
    ]


def test_ftc_9_2_the_gm_chooses_the_coverage_of_a_suit() -> None:
    b = armoured()
    b.apply(
        gm.EditGear("k", ("Broadsword",), ("Plate", "Chain Mail"), None, {"Plate": "full", "chain mail": "no_arms"})
    )
    plate, mail = b.figures["k"].character.armour
    assert (plate.coverage, mail.coverage) == ("full", "no_arms")
    assert mail.covers("leg") and not mail.covers("arm")
    b.apply(gm.EditGear("k", ("Broadsword",), ("Chain Mail",)))  # unnamed: kept as worn
    assert b.figures["k"].character.armour[0].coverage == "no_arms"


@pytest.mark.parametrize(
    ("coverage", "words"),
    [
        ({"Chain Mail": "torso"}, "not in the new armour"),
        ({"Metal Cap": "torso"}, "not a suit of body armour"),
        ({"Plate": "sleeves"}, "coverage 'sleeves' is unknown"),
    ],
)
def test_ftc_9_2_a_coverage_that_cannot_be_is_refused_and_changes_nothing(coverage: dict[str, str], words: str) -> None:
    from tests.engine.test_gm_battle import refused

    refused(armoured(), gm.EditGear("k", ("Broadsword",), ("Plate", "Metal Cap"), None, coverage), words)


def test_ftc_9_2_a_partial_suit_kept_by_a_gear_edit_replays_from_a_saved_log(tmp_path: Path) -> None:
    b = armoured(2)
    b.apply(gm.EditGear("k", ("Broadsword",), ("Plate", "Metal Cap")))
    b.apply(gm.EditGear("k", ("Broadsword",), ("Plate", "Leather"), None, {"Leather": "no_legs"}))
    play_out(b, 2)
    path = tmp_path / "gear.json"
    record.save(path, b, {})
    rec = record.load(path)
    assert rec.actions == tuple(b.log)
    again = record.replay(armoured(2).setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest)
    assert again.digests == b.digests
    assert again.figures["k"].character.armour == b.figures["k"].character.armour
    assert [a.coverage for a in again.figures["k"].character.armour] == ["torso", "no_legs"]


def test_ftc_9_2_a_damaged_coverage_in_a_save_is_named() -> None:
    data = record.to_json(armoured(), {})
    data["actions"] = [{"kind": "gm_edit_gear", "figure": "k", "armour": ["Plate"], "coverage": ["torso"]}]
    with pytest.raises(record.SaveError, match=r"action 1 is damaged.*coverage.* must"):
        record.parse(data)
