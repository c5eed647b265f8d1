"""FTC 7.3-7.4 and Fudge 4.51, 4.55-4.57: wound levels, tracks, boxes, penalties, Health roll, grazes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine.ladder import FAIR, GOOD, GREAT, LEGENDARY, SUPERB
from game.engine.wounds import (
    DEFAULT_TRACK,
    TrackStep,
    WoundError,
    WoundLevel,
    Wounds,
    WoundTrack,
    apply_health_roll,
    graze_cap,
    health_roll_reduction,
    named_track,
    wound_for_damage,
)

S, H, VH, INC, ND = (
    WoundLevel.SCRATCH,
    WoundLevel.HURT,
    WoundLevel.VERY_HURT,
    WoundLevel.INCAPACITATED,
    WoundLevel.NEAR_DEATH,
)


def test_wound_level_names_are_the_rules_names() -> None:
    assert [str(level) for level in WoundLevel] == ["Scratch", "Hurt", "Very Hurt", "Incapacitated", "Near Death"]
    assert WoundLevel.parse("very hurt") is VH
    assert WoundLevel.parse("Incapac.") is INC
    with pytest.raises(WoundError, match="not a wound level"):
        WoundLevel.parse("Dead")


@pytest.mark.parametrize(
    ("damage", "level"),
    [(-3, None), (0, None), (1, S), (2, S), (3, H), (4, H), (5, VH), (6, VH), (7, INC), (8, INC), (9, ND), (15, ND)],
)
def test_ftc_7_3_default_wound_track_every_cell(damage: int, level: WoundLevel | None) -> None:
    assert wound_for_damage(damage) == level


def test_fudge_4_57_default_track_boxes_3_1_1_1_1() -> None:
    assert [s.boxes for s in DEFAULT_TRACK.steps] == [3, 1, 1, 1, 1]
    assert DEFAULT_TRACK.levels == (S, H, VH, INC, ND)


def test_fudge_4_55_doubled_degree_track() -> None:
    track = named_track("doubled_degree")
    damages = (3, 4, 6, 7, 9, 10, 12, 13)
    assert [wound_for_damage(d, track) for d in damages] == [S, H, H, VH, VH, INC, INC, ND]
    assert track.degree_multiplier == 2 and named_track("default").degree_multiplier == 1
    assert WoundTrack.from_data(track.to_data(), name="doubled_degree") == track


@pytest.mark.parametrize("bad", [0, 4, "2", 1.5, True])
def test_fudge_4_55_a_track_degree_multiplier_is_a_small_whole_number(bad: object) -> None:
    data = {**named_track("default").to_data(), "degree_multiplier": bad}
    with pytest.raises(WoundError, match="degree_multiplier is a whole number from 1 to 3"):
        WoundTrack.from_data(data, name="mine")


def test_fudge_4_63_epic_track() -> None:
    track = named_track("epic")
    assert [wound_for_damage(d, track) for d in (1, 2, 3, 4, 5, 6, 7)] == [S, H, H, VH, VH, INC, ND]
    assert [s.boxes for s in track.steps] == [3, 2, 1, 2, 1]


def test_fudge_4_57_very_hurt_then_hurt_then_hurt_is_incapacitated_with_an_h() -> None:
    wounds = Wounds()
    wounds, marked = wounds.record(VH)
    assert marked is VH and wounds.worst is VH
    wounds, marked = wounds.record(H)
    assert marked is H and wounds.worst is VH  # "still at -2": only the highest level counts
    wounds, marked = wounds.record(H)
    assert marked is INC and wounds.worst is INC and not wounds.can_act
    assert wounds.marks_at(INC) == (H,)  # the "H" under Incapacitated
    assert sorted(wounds.received()) == [H, H, VH]


def test_fudge_4_57_two_very_hurt_results_incapacitate() -> None:
    wounds, _ = Wounds().record(VH)
    wounds, marked = wounds.record(VH)
    assert marked is INC
    assert wounds.filled(H) == 0


def test_fudge_4_57_fourth_scratch_hurts() -> None:
    wounds = Wounds()
    for _ in range(3):
        wounds, marked = wounds.record(S)
        assert marked is S and wounds.worst is S
    wounds, marked = wounds.record(S)
    assert marked is H and wounds.worst is H


def test_fudge_4_57_hurt_when_hurt_is_full_takes_very_hurt() -> None:
    wounds, _ = Wounds().record(H)
    wounds, marked = wounds.record(H)
    assert marked is VH and wounds.penalty() == -1


def test_fudge_4_57_option_scratches_never_beyond_very_hurt() -> None:
    track = WoundTrack(DEFAULT_TRACK.steps, name="capped", scratch_ceiling=VH)
    wounds = Wounds(track)
    for _ in range(5):
        wounds, _ = wounds.record(S)
    assert wounds.worst is VH
    after, marked = wounds.record(S)
    assert after == wounds and marked is S


def test_wounds_beyond_the_last_box_are_kept_for_the_gm() -> None:
    wounds = Wounds()
    wounds, _ = wounds.record(ND)
    wounds, marked = wounds.record(ND)
    assert marked is ND and wounds.overflowed and wounds.beyond == (ND,)


def test_ftc_6_4_1_only_very_hurt_gives_minus_1() -> None:
    assert Wounds().penalty() == 0
    assert Wounds().record(S)[0].penalty() == 0
    assert Wounds().record(H)[0].penalty() == 0
    assert Wounds().record(VH)[0].penalty() == -1


def test_fudge_4_51_high_pain_threshold_removes_the_very_hurt_penalty() -> None:
    assert Wounds().record(VH)[0].penalty("high") == 0
    assert Wounds().record(H)[0].penalty("high") == 0


def test_fudge_4_51_low_pain_threshold_raises_penalties_one_level() -> None:
    assert Wounds().record(S)[0].penalty("low") == 0
    assert Wounds().record(H)[0].penalty("low") == -1
    assert Wounds().record(VH)[0].penalty("low") == -2
    with pytest.raises(WoundError, match="pain"):
        Wounds().penalty("numb")


def test_gm_clears_and_sets_boxes() -> None:
    wounds = Wounds()
    for level in (S, S, H):
        wounds, _ = wounds.record(level)
    assert wounds.cleared(S).filled(S) == 0 and wounds.cleared(S).worst is H
    assert wounds.with_filled(VH, 1).worst is VH
    assert wounds.with_filled(S, 0).filled(S) == 0
    with pytest.raises(WoundError, match="box"):
        wounds.with_filled(H, 2)
    assert wounds.healed().worst is None
    assert Wounds.from_data(wounds.to_data()) == wounds


def test_custom_track_labels_and_validation() -> None:
    mook = WoundTrack((TrackStep(H, 1, 1), TrackStep(INC, 3, 1, "Out of the Battle")), name="mook")
    wounds, marked = Wounds(mook).record(S)  # a level the track lacks rounds up
    assert marked is H
    wounds, marked = wounds.record(H)
    assert marked is INC and wounds.label == "Out of the Battle" and not wounds.can_act
    assert WoundTrack.from_data(mook.to_data(), name="mook") == mook
    with pytest.raises(WoundError, match="increase"):
        WoundTrack((TrackStep(H, 3, 1), TrackStep(S, 5, 1)))
    with pytest.raises(WoundError, match="no wound track"):
        named_track("heroic")


@pytest.mark.parametrize(
    ("result", "reduction"),
    [(LEGENDARY + 1, 2), (LEGENDARY, 2), (SUPERB, 2), (GREAT, 1), (GOOD, 0), (FAIR, 0), (-4, 0)],
)
def test_ftc_7_4_health_roll_table(result: int, reduction: int) -> None:
    assert health_roll_reduction(result) == reduction


def test_ftc_7_4_superb_health_turns_very_hurt_into_scratch() -> None:
    assert apply_health_roll(VH, SUPERB) is S
    assert apply_health_roll(VH, GREAT) is H
    assert apply_health_roll(H, SUPERB) is S  # never below a Scratch
    assert apply_health_roll(S, SUPERB) is S
    assert apply_health_roll(ND, GOOD) is ND


def test_ftc_7_3_graze_does_at_most_a_scratch() -> None:
    assert graze_cap(VH, 1) is S
    assert graze_cap(S, 1) is S
    assert graze_cap(None, 1) is None
    assert graze_cap(VH, 2) is VH


def test_fudge_4_56_graze_table_option() -> None:
    # damage factor = damage - 1 on a graze: <0 undamaged, 0-4 Scratch, 5+ Hurt
    assert graze_cap(wound_for_damage(5), 1, fudge_graze_table=True, damage=5) is S  # factor 4
    assert graze_cap(wound_for_damage(6), 1, fudge_graze_table=True, damage=6) is H  # factor 5
    assert graze_cap(wound_for_damage(1), 1, fudge_graze_table=True, damage=1) is S  # factor 0
    with pytest.raises(WoundError, match="damage"):
        graze_cap(H, 1, fudge_graze_table=True)


def test_fudge_4_56_graze_plus_scale_difference_is_minimised() -> None:
    assert graze_cap(INC, 1, scale_difference=1) is H
    assert graze_cap(INC, 1, scale_difference=5) is VH  # a giant's club: Very Hurt, not Incapacitated
    assert graze_cap(S, 1, scale_difference=3) is S


def test_fudge_4_7_snorri_graze_with_factor_3_is_a_scratch() -> None:
    # Third round: relative degree +1, Snorri's damage factor +3 "normally means a Scratch on a graze".
    assert graze_cap(wound_for_damage(1 + 3), 1) is S
    assert graze_cap(wound_for_damage(1 + 3), 1, fudge_graze_table=True, damage=4) is S


@given(st.lists(st.sampled_from(list(WoundLevel)), max_size=12))
def test_recording_never_lowers_the_worst_level(levels: list[WoundLevel]) -> None:
    wounds = Wounds()
    for level in levels:
        before = wounds.worst
        wounds, marked = wounds.record(level)
        assert marked >= level
        assert before is None or (wounds.worst is not None and wounds.worst >= before)
    assert sum(1 for _ in wounds.received()) == len(levels)
