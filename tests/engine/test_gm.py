"""The GM's decisions as data: *Fudge* 4.1 (GM modifiers), 4.7 (example), FTC table 7 (conditions)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import actions, codec
from game.engine.characters import Character
from game.engine.gm import (
    CONDITION_WORST,
    GM_ACTION_TYPES,
    AddFigure,
    BattleCondition,
    DeclareIn,
    DeclareOut,
    DenyEscape,
    DenyFreeAttack,
    EditGear,
    EditTraits,
    EditWounds,
    EndBattle,
    EndRound,
    GMAction,
    GMActionError,
    GMState,
    GrantEscape,
    GrantFreeAttack,
    RemoveFigure,
    RemoveModifier,
    SetDie,
    SetFudgePoints,
    SituationalModifier,
    condition_value,
    edited_gear,
    edited_traits,
    edited_wounds,
    modifier_terms,
    modifier_total,
    validate_condition,
    validate_gm_action,
    validate_modifier_value,
)
from game.engine.hexgrid import Hex
from game.engine.ladder import GOOD, GREAT
from game.engine.wounds import DEFAULT_TRACK, WoundLevel

EVERY_ACTION: list[GMAction] = [
    SituationalModifier("m1", "b0", 2, "high ground", "removed", 3),
    RemoveModifier("m1"),
    BattleCondition("dusk", "bad_light", -2, (Hex(1, 2), Hex(2, 2)), "dusk"),
    BattleCondition("mud", "insecure_footing", -1),
    SetDie("b0", "combat", (1, 1, 0, -1)),
    SetDie("b1", "scatter", (4,)),
    GrantEscape("b0"),
    DenyEscape("r1"),
    GrantFreeAttack("r0", "b0"),
    DenyFreeAttack("r0", "b0"),
    EndRound("the guards arrive"),
    EndBattle("blue", "the brigands flee"),
    EndBattle(None, "the town guard"),
    DeclareOut("r2", "surrenders"),
    DeclareIn("r2"),
    EditWounds("b0", {"Scratch": ["Scratch"], "Hurt": ["Hurt"], "Incapacitated": ["Hurt"]}),
    EditGear("b0", ("Broadsword", "Large Knife"), ("Chain Mail", "Metal Cap"), "Medium Shield"),
    EditTraits("b0", {"strength": "Great", "skills": {"Sword": "Superb", "Bow": None}, "gifts": ["Lucky"]}),
    AddFigure("r9", "red", Hex(5, 5), 3, "Sergeant", {"name": "Sergeant", "skills": {"Sword": "Good"}}),
    AddFigure("r8", "red", Hex(6, 5), 2, roster_key="brigand", mook=True),
    RemoveFigure("r3"),
    SetFudgePoints("b0", 2, "a hero's luck"),
]


def test_every_gm_action_kind_is_covered() -> None:
    assert {type(a) for a in EVERY_ACTION} == set(GM_ACTION_TYPES.values())
    assert all(k.startswith("gm_") for k in GM_ACTION_TYPES)
    actions.register_gm_actions()  # saved logs load GM actions as any other (game.engine.battle registers them)
    assert all(actions.ACTION_TYPES[k] is cls for k, cls in GM_ACTION_TYPES.items())
    players = [k for k, cls in actions.ACTION_TYPES.items() if cls not in GM_ACTION_TYPES.values()]
    assert players and not any(k.startswith("gm_") for k in players)


@pytest.mark.parametrize("action", EVERY_ACTION, ids=lambda a: a.kind)
def test_gm_action_survives_json_save_and_load(action: GMAction) -> None:
    validate_gm_action(action)
    text = json.dumps(actions.action_to_json(action))
    assert actions.decode_action(text) == action
    assert actions.action_from_data(json.loads(text)) == action


def test_gm_action_json_errors_are_readable() -> None:
    with pytest.raises(codec.CodecError, match="the field 'kind' cannot be 'gm_smite'"):
        actions.decode_action('{"kind": "gm_smite"}')
    with pytest.raises(codec.CodecError, match="it has no field 'bogus'"):
        actions.decode_action('{"kind": "gm_end_round", "bogus": 1}')
    with pytest.raises(codec.CodecError, match="the field 'value' must be a whole number at most 3"):
        actions.decode_action('{"kind": "gm_modifier", "id": "x", "target": "b0", "value": 5}')
    with pytest.raises(GMActionError, match="-3 to \\+3"):
        validate_gm_action(SituationalModifier("x", "b0", 5))


def test_gm_action_owns_its_data() -> None:
    changes: dict[str, Any] = {"strength": "Good"}
    a = EditTraits("b0", changes)
    changes["strength"] = "Poor"
    assert a.changes == {"strength": "Good"}


# ------------------------------------------------------------------------------------ ranges


def test_fudge_4_1_gm_modifier_ranges_from_minus_3_to_plus_3() -> None:
    assert [validate_modifier_value(v) for v in range(-3, 4)] == list(range(-3, 4))
    for bad in (-4, 4, 1.5, True, "1", None):
        with pytest.raises(GMActionError, match="from -3 to \\+3"):
            validate_modifier_value(bad)


def test_ftc_table_7_bad_light_and_insecure_footing_minus_1_to_minus_3() -> None:
    assert CONDITION_WORST == {"bad_light": -3, "insecure_footing": -3}
    for cond in CONDITION_WORST:
        assert [validate_condition(cond, v) for v in (-1, -2, -3, 0)] == [-1, -2, -3, 0]
        for bad in (-4, 1, "x", False):
            with pytest.raises(GMActionError, match="table 7"):
                validate_condition(cond, bad)
    with pytest.raises(GMActionError, match="not a battle condition"):
        validate_condition("fog", -1)


def test_gm_modifier_needs_a_known_duration_and_target() -> None:
    with pytest.raises(GMActionError, match="lasts until"):
        validate_gm_action(SituationalModifier("m", "b0", 1, until="forever"))
    with pytest.raises(GMActionError, match="no figure or side 'zz'"):
        validate_gm_action(SituationalModifier("m", "zz", 1), figures={"b0"}, sides={"blue"})
    validate_gm_action(SituationalModifier("m", "blue", 1), figures={"b0"}, sides={"blue"})


def test_gm_set_die_takes_four_fudge_dice_or_one_d6() -> None:
    with pytest.raises(GMActionError, match="four Fudge dice"):
        validate_gm_action(SetDie("b0", "combat", (1, 1, 2, 0)))
    with pytest.raises(GMActionError, match="four Fudge dice"):
        validate_gm_action(SetDie("b0", "health", (1, 1, 0)))
    with pytest.raises(GMActionError, match="six-sided"):
        validate_gm_action(SetDie("b0", "scatter", (7,)))
    with pytest.raises(GMActionError, match="not a roll the GM can set"):
        validate_gm_action(SetDie("b0", "morale", (0, 0, 0, 0)))


def test_gm_references_checked_against_the_battle() -> None:
    figs, sides = {"b0", "r0"}, {"blue", "red"}
    with pytest.raises(GMActionError, match="no figure 'x'"):
        validate_gm_action(DeclareOut("x"), figures=figs, sides=sides)
    with pytest.raises(GMActionError, match="no figure 'x'"):
        validate_gm_action(GrantFreeAttack("r0", "x"), figures=figs, sides=sides)
    with pytest.raises(GMActionError, match="no side 'green'"):
        validate_gm_action(EndBattle("green"), figures=figs, sides=sides)
    with pytest.raises(GMActionError, match="already in the battle"):
        validate_gm_action(AddFigure("b0", "blue", Hex(0, 0), roster_key="x"), figures=figs, sides=sides)
    validate_gm_action(EndBattle(None), figures=figs, sides=sides)


def test_gm_add_figure_needs_exactly_one_character_source_and_a_facing() -> None:
    with pytest.raises(GMActionError, match="exactly one"):
        validate_gm_action(AddFigure("n", "red", Hex(0, 0)))
    with pytest.raises(GMActionError, match="exactly one"):
        validate_gm_action(AddFigure("n", "red", Hex(0, 0), character={"name": "A"}, roster_key="a"))
    with pytest.raises(GMActionError, match="facing"):
        validate_gm_action(AddFigure("n", "red", Hex(0, 0), 6, roster_key="a"))
    with pytest.raises(GMActionError, match="strenght"):
        validate_gm_action(AddFigure("n", "red", Hex(0, 0), character={"name": "A", "strenght": "Good"}))


# ------------------------------------------------------------------------------------ modifiers


def test_fudge_4_7_example_gm_gives_snorri_minus_one_for_bad_footing_this_round() -> None:
    state = GMState().with_action(SituationalModifier("f", "snorri", -1, "bad footing"), round_no=5)
    assert state.modifiers[0].round == 5
    assert modifier_terms(state.modifiers, "snorri", "north", 5) == (("GM: bad footing", -1),)
    assert modifier_total(state.modifiers, "brynhild", "south", 5) == 0
    assert modifier_total(state.modifiers, "snorri", "north", 6) == 0
    assert state.expire(6).modifiers == ()
    assert state.expire(5) == state


def test_fudge_4_1_example_gunner_plus_one_and_plus_one_is_plus_two() -> None:
    mods = (
        SituationalModifier("a", "gunner", 1, "mob surprised", "removed", 1),
        SituationalModifier("b", "gunner", 1, "covers ground quickly", "removed", 1),
    )
    assert modifier_total(mods, "gunner", "pcs", 4) == 2
    assert [v for _, v in modifier_terms(mods, "gunner", "pcs", 4)] == [1, 1]


def test_fudge_4_1_gm_modifiers_together_stay_within_minus_3_to_plus_3() -> None:
    mods = (
        SituationalModifier("a", "blue", 3, "surprise", "removed", 1),
        SituationalModifier("b", "b0", 2, "high ground", "removed", 1),
    )
    terms = modifier_terms(mods, "b0", "blue", 1)
    assert sum(v for _, v in terms) == 3 == modifier_total(mods, "b0", "blue", 1)
    assert terms[-1] == ("GM limit -3..+3", -2)


@given(
    st.lists(
        st.tuples(
            st.integers(-3, 3),
            st.sampled_from(["b0", "blue", "r0", "red"]),
            st.sampled_from(["round", "removed"]),
            st.integers(1, 3),
        ),
        max_size=6,
    ),
    st.integers(1, 3),
)
def test_fudge_4_1_total_is_the_clamped_sum_of_what_applies(
    specs: list[tuple[int, str, str, int]], round_no: int
) -> None:
    mods = [SituationalModifier(f"m{i}", t, v, "r", u, r) for i, (v, t, u, r) in enumerate(specs)]
    raw = sum(m.value for m in mods if m.target in ("b0", "blue") and (m.until == "removed" or m.round == round_no))
    assert modifier_total(mods, "b0", "blue", round_no) == max(-3, min(3, raw))


def test_gm_remove_modifier_lifts_a_standing_modifier_or_condition() -> None:
    s = GMState()
    s = s.with_action(SituationalModifier("m1", "blue", 1, "rally", "removed"), 1)
    s = s.with_action(BattleCondition("dark", "bad_light", -2), 1)
    assert s.ids() == {"m1", "dark"}
    assert s.expire(4).modifiers == s.modifiers  # "removed" outlasts rounds
    s2 = s.with_action(RemoveModifier("m1"), 2)
    assert s2.modifiers == () and len(s2.conditions) == 1
    assert s2.with_action(RemoveModifier("dark"), 2) == GMState()
    with pytest.raises(GMActionError, match="no GM modifier"):
        s2.with_action(RemoveModifier("m1"), 2)
    assert s.with_action(EndRound(), 2) == s
    assert json.loads(json.dumps(s.to_json()))["conditions"][0]["condition"] == "bad_light"


def test_ftc_table_7_condition_over_a_region_and_the_worst_counts() -> None:
    s = GMState()
    s = s.with_action(BattleCondition("dusk", "bad_light", -1), 1)
    s = s.with_action(BattleCondition("wood", "bad_light", -3, (Hex(2, 2),)), 1)
    s = s.with_action(BattleCondition("mud", "insecure_footing", -2, (Hex(0, 0), Hex(0, 1))), 1)
    assert condition_value(s.conditions, "bad_light", Hex(5, 5)) == -1
    assert condition_value(s.conditions, "bad_light", Hex(2, 2)) == -3
    assert condition_value(s.conditions, "insecure_footing", Hex(0, 1)) == -2
    assert condition_value(s.conditions, "insecure_footing", Hex(3, 3)) == 0
    lifted = s.with_action(BattleCondition("wood", "bad_light", 0), 2)
    assert condition_value(lifted.conditions, "bad_light", Hex(2, 2)) == -1


# ------------------------------------------------------------------------------------ edits


def test_fudge_4_57_edit_wounds_ticks_and_clears_boxes() -> None:
    w = edited_wounds({"Hurt": ["Hurt"], "Very Hurt": ["Hurt"]}, DEFAULT_TRACK)
    assert w.worst == WoundLevel.VERY_HURT and w.marks_at(WoundLevel.VERY_HURT) == (WoundLevel.HURT,)
    assert edited_wounds({}, DEFAULT_TRACK).worst is None
    with pytest.raises(GMActionError, match="box"):
        edited_wounds({"Hurt": ["Hurt", "Hurt"]}, DEFAULT_TRACK)
    with pytest.raises(GMActionError, match="no level"):
        edited_wounds({"Dead": ["Hurt"]}, DEFAULT_TRACK)


def test_ftc_9_edit_gear_from_the_catalogue() -> None:
    c = Character.from_dict({"name": "K", "weapons": ["Broadsword"], "armour": ["Chain Mail"]})
    new = edited_gear(c, ["Large Knife"], [], "Medium Shield")
    assert [w.name for w in new.weapons] == ["Large Knife"] and new.armour == ()
    assert new.shield is not None and new.shield.name == "Medium Shield"
    assert new.carried_mass_kg() != c.carried_mass_kg()
    with pytest.raises(GMActionError, match="Lightsaber"):
        edited_gear(c, ["Lightsaber"], [], None)
    with pytest.raises(GMActionError):
        validate_gm_action(EditGear("b0", ("Broadsword",), ("Mithril Coat",)))


def test_ftc_2_1_edit_traits_attributes_skills_gifts() -> None:
    c = Character.from_dict({"name": "K", "skills": {"Sword": "Good", "Bow": "Fair"}})
    new = edited_traits(
        c, {"strength": "Great", "skills": {"Sword": "Great", "bow": None}, "gifts": ["High Pain Threshold"]}
    )
    assert new.strength == GREAT and new.skill_level("Sword") == GREAT
    assert not new.has_skill("Bow") and new.pain == "high"
    assert c.skill_level("Sword") == GOOD
    for bad in ({}, {"luck": 1}, {"strength": "Mighty"}, {"skills": ["Sword"]}, {"gifts": "Lucky"}):
        with pytest.raises(GMActionError):
            edited_traits(c, bad)
