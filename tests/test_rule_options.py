"""The GM's rulebook (docs/rulings.md "Rule options"): one registry of every option, the typed set it checks,
the presets, and the docs that list them."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import codec
from game.engine import rule_options as ro
from game.engine.datafiles import DataFileError, read_table
from game.engine.rule_options import OPTIONS, SPECS, RuleOptionError, RuleOptions, options_from_mapping

RULINGS = Path("docs/rulings.md").read_text(encoding="utf-8")
RULES = Path("docs/rules.md").read_text(encoding="utf-8")


def test_the_registry_and_the_typed_set_name_the_same_options_in_the_same_order() -> None:
    assert tuple(s.name for s in OPTIONS) == RuleOptions.__struct_fields__
    assert len(OPTIONS) == 28
    for spec in OPTIONS:
        assert RuleOptions().value(spec.name) == spec.default
        assert spec.group in ro.GROUPS
        assert spec.default in spec.choices
        assert all(other in SPECS and values for other, values in spec.depends_on)
        assert not spec.depends_on or spec.needs


def test_every_value_the_registry_offers_is_one_the_codec_decodes_and_no_other() -> None:
    for spec in OPTIONS:
        for value in spec.choices:
            assert codec.convert({spec.name: value}, RuleOptions).value(spec.name) == value
        wrong = {"bool": 1, "enum": "nonsense", "int": spec.high + 1}[spec.kind]
        with pytest.raises(codec.CodecError, match=spec.name):
            codec.convert({spec.name: wrong}, RuleOptions)
        with pytest.raises(RuleOptionError):
            options_from_mapping({spec.name: wrong})


def test_a_value_off_the_registry_is_refused_with_the_values_and_the_fix() -> None:
    with pytest.raises(RuleOptionError, match=r'damage_roll = "two_dice" is not one of off, one_die, .*min_mid_max'):
        options_from_mapping({"damage_roll": "two_dice"})
    with pytest.raises(RuleOptionError, match=r'stun_blows = "yes" is not true or false; write true or false'):
        options_from_mapping({"stun_blows": "yes"})
    with pytest.raises(RuleOptionError, match=r"sweeping_blow = 5 is outside 0–2; write 0 \(off\), 1 .* or 2"):
        options_from_mapping({"sweeping_blow": 5})
    with pytest.raises(RuleOptionError, match=r"did you mean 'damage_roll'\?"):
        options_from_mapping({"damage_rol": "situational"})
    with pytest.raises(RuleOptionError, match="not a whole number"):
        options_from_mapping({"tech_level_scale": float("nan")})
    with pytest.raises(RuleOptionError):
        RuleOptions(npc_rolls="everyone")  # type: ignore[arg-type]


@given(st.fixed_dictionaries({}, optional={s.name: st.sampled_from(s.choices) for s in OPTIONS}))
def test_the_options_round_trip_through_json_leaving_out_the_defaults(values: dict[str, object]) -> None:
    options = options_from_mapping(values)
    data = options.to_json()
    assert RuleOptions.from_json(data) == options
    assert codec.convert(msgspec.json.decode(codec.encode(options)), RuleOptions) == options
    assert all(v != SPECS[k].default for k, v in data.items())


def test_ftc_as_written_saves_no_options_as_before_these_options() -> None:
    assert RuleOptions().to_json() == {}
    assert RuleOptions.from_json({}) == RuleOptions()
    six = ("initiative_once", "mook_group_initiative", "secret_stances", "per_hex_terrain", "attack_any_adjacent")
    old = {k: False for k in (*six, "fudge_graze_table")}  # a save of 1.0.0 held the six options, every one written
    assert RuleOptions.from_json(old) == RuleOptions()


def test_the_presets_are_the_rulebooks_sets() -> None:
    keys = [p.key for p in ro.presets()]
    assert keys == ["ftc", "heroic", "gritty"]
    assert ro.preset("ftc").options == RuleOptions()  # type: ignore[union-attr]
    assert ro.changed(ro.preset("heroic").options) == {  # type: ignore[union-attr]
        "pc_death_max_three_levels": True,
        "pc_death_near_death_if_incapacitated": True,
        "pc_death_fudge_point": True,
        "fudge_points_default": 3,
    }
    assert ro.changed(ro.preset("gritty").options) == {  # type: ignore[union-attr]
        "damage_roll": "situational",
        "graze_damage_roll": True,
        "willpower_vs_wounds": "very_hurt",
    }


def _tables(name: str, changes: dict[str, object]) -> dict[str, object]:
    """The shipped option tables with one option's table changed (a key set to None is left out)."""
    tables = {key: dict(table) for key, table in read_table("rule_options.toml").items()}
    row = {**tables[name], **changes}
    tables[name] = {key: value for key, value in row.items() if value is not None}
    return tables


@pytest.mark.parametrize(
    ("name", "changes", "problem"),
    [
        ("stun_blows", {"kind": "switch"}, r"\[stun_blows\]: the field 'kind' cannot be 'switch'"),
        ("stun_blows", {"colour": "red"}, r"\[stun_blows\]: it has no field colour \(the fields are listed"),
        ("stun_blows", {"name": "stun"}, r"\[stun_blows\]: it has no field name "),
        ("stun_blows", {"title": None}, r"\[stun_blows\]: it needs the field 'title'"),
        ("stun_blows", {"group": "Magic"}, r'\[stun_blows\]: group "Magic" is not one of Round, '),
        ("stun_blows", {"default": 1}, r"\[stun_blows\]: default 1 is not one of its values"),
        ("npc_rolls", {"default": "zero"}, r"\[npc_rolls\]: an enum option lists its default first"),
        ("npc_rolls", {"values": []}, r"\[npc_rolls\]: an enum option lists its values"),
        ("sweeping_blow", {"low": 3}, r"\[sweeping_blow\]: low 3 is above high 2"),
        ("sweeping_blow", {"value_help": {"one": "x"}}, r"value_help key `one` is not a whole number"),
        ("sweeping_blow", {"value_help": {"7": "x"}}, r"value_help names a value the option cannot take"),
        ("stun_head_knockout", {"needs": None}, r"says what it needs in `needs`"),
        ("stun_head_knockout", {"depends_on": {"stun": [True]}}, r"depends_on stun names no option"),
        ("stun_head_knockout", {"depends_on": {"stun_blows": [2]}}, r"depends_on stun_blows .* cannot take"),
        ("initiative_once", {"default": True}, r"option 1 is initiative_once = false, and the file describes it"),
    ],
)
def test_a_broken_option_table_is_refused_naming_the_option_and_the_fix(
    name: str, changes: dict[str, object], problem: str
) -> None:
    with pytest.raises(DataFileError, match=problem) as caught:
        ro.read_options(_tables(name, changes))
    assert "rule_options.toml" in str(caught.value)
    assert "correct that table or restore the file" in str(caught.value)


def test_the_option_tables_are_the_typed_sets_fields_none_missing_none_extra() -> None:
    assert ro.read_options(read_table("rule_options.toml")) == OPTIONS
    tables = dict(read_table("rule_options.toml"))
    del tables["tech_level_scale"]
    with pytest.raises(DataFileError, match=r"option 28 is tech_level_scale = 0"):
        ro.read_options(tables)
    with pytest.raises(DataFileError, match=r"\[zz_extra\]: RuleOptions has no such option"):
        ro.read_options({**read_table("rule_options.toml"), "zz_extra": read_table("rule_options.toml")["stun_blows"]})


def test_an_option_matters_only_with_what_it_needs() -> None:
    head = SPECS["stun_head_knockout"]
    assert not ro.is_active(head, RuleOptions(stun_head_knockout=True))
    assert ro.is_active(head, RuleOptions(stun_blows=True, stun_head_knockout=True))
    wild = SPECS["damage_roll_wild"]
    assert not ro.is_active(wild, RuleOptions(damage_roll="min_mid_max"))
    assert ro.is_active(wild, RuleOptions(damage_roll="one_die_level"))
    assert ro.is_active(wild, RuleOptions(scale_damage_roll=True))


def test_an_option_not_played_yet_is_named_when_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = replace(SPECS["speed_contest"], ready=False)
    monkeypatch.setattr(ro, "SPECS", {**SPECS, spec.name: spec})
    options = RuleOptions.from_json({spec.name: spec.choices[-1]})
    assert ro.unready(options) == (spec.name,)
    sentence = ro.unready_sentence(options)
    assert sentence is not None and spec.name in sentence
    assert ro.unready_sentence(RuleOptions(secret_stances=True)) is None


def test_the_played_options_help_is_a_view_of_the_registry() -> None:
    assert list(ro.RULE_OPTION_HELP) == [s.name for s in OPTIONS if s.ready]
    assert ro.RULE_OPTION_HELP["initiative_once"].endswith("(FTC 4).")


def _rulings_table() -> dict[str, str]:
    section = RULINGS[RULINGS.index("## Rule options") :]
    return {m.group(1): line for line in section.splitlines() if (m := re.match(r"^\| `([a-z_0-9]+)` \|", line))}


def test_docs_rulings_lists_every_option_with_its_values_default_and_section() -> None:
    rows = _rulings_table()
    assert list(rows) == [s.name for s in OPTIONS]
    for spec in OPTIONS:
        row = rows[spec.name]
        assert spec.section in row, spec.name
        assert ro.toml_text(spec.default) in row or str(spec.default) in row, spec.name
        for value in spec.values:
            assert f"`{value}`" in row, (spec.name, value)
        assert ("coming" in row) != spec.ready, spec.name


def test_docs_rules_names_every_option_with_its_section() -> None:
    section = " ".join(RULES[RULES.index("## Rule options") :].split())
    for spec in OPTIONS:
        assert f"`{spec.name}` ({spec.section}" in section, spec.name
