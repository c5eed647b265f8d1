"""The GM's rulebook: every rule option of a battle, described once (docs/rulings.md "Rule options").

*Fudge* is a toolkit: its combat chapters (4.3–4.6) offer a GM options, and FTC offers a few of its own. Each
option is one table of ``data/rule_options.toml`` — its kind, values, default, group, rules section, help and
the options it makes sense only with — read and checked once into an ``OptionSpec`` of ``OPTIONS``, and
everything else reads that registry: ``RuleOptions`` (the battle's typed set, strictly decoded through
``game.engine.codec``), the rules file (``game.rules_file``), the presets (``data/presets.toml``), New
battle's grouped rows, the after-battle report and ``docs/rulings.md``'s table.

Every default is FTC as written: a battle with every option at its default plays exactly as FTC (no extra
die, no extra event). An option whose rules are still being built is declared (``OptionSpec.ready`` False):
it is listed, saved and read, but New battle shows it greyed as "coming", the rules file and the command
line refuse to switch it on, and the battle does not read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from game.engine import codec
from game.engine.datafiles import DataFileError, data_path, read_table
from game.engine.spelling import did_you_mean

GROUPS: tuple[str, ...] = ("Round", "Who rolls", "Skills", "Blows", "Damage", "Wounds", "Heroes", "Scale")
"""The groups of options, in the order New battle and the rules file show them."""

Value = bool | int | str
"""An option's value: true / false, a whole number, or one of its words."""


@dataclass(frozen=True)
class OptionSpec:
    """One rule option as the GM sees it: ``kind`` "bool", "enum" or "int"; an enum's ``values`` (its words,
    the default first), an int's ``low`` .. ``high``; ``value_help`` says what a value means (an enum's words,
    an int's notable numbers). ``depends_on``: (option, values) pairs of which at least one must hold for the
    option to matter (display only: a greyed option keeps its value and has no effect; nothing is refused)."""

    name: str
    title: str
    kind: Literal["bool", "enum", "int"]
    default: Value
    group: str
    section: str
    help: str
    values: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    value_help: Mapping[Value, str] = field(default_factory=dict)
    depends_on: tuple[tuple[str, tuple[Value, ...]], ...] = ()
    needs: str = ""
    """The greyed row's tooltip: what the option needs ("needs Stun blows")."""
    ready: bool = False
    """Whether the battle plays the option yet (module doc); an option being built is declared but not played."""

    @property
    def choices(self) -> tuple[Value, ...]:
        """Every value the option may take, in order (a bool: false, true)."""
        if self.kind == "bool":
            return (False, True)
        if self.kind == "enum":
            return self.values
        return tuple(range(self.low, self.high + 1))

    def value_text(self, value: Value) -> str:
        """A value as New battle shows it: "on" / "off", an enum's word with spaces, a number."""
        if self.kind == "bool":
            return "on" if value else "off"
        return str(value).replace("_", " ") if self.kind == "enum" else str(value)


NUMERIC_DAMAGE_ROLLS: tuple[str, ...] = ("one_die", "even_roll", "situational")
"""The values of ``damage_roll`` that change the damage number (*Fudge* 4.61)."""
LEVEL_DAMAGE_ROLLS: tuple[str, ...] = ("one_die_level", "even_roll_level")
"""The values of ``damage_roll`` that move the wound level (*Fudge* 4.61)."""


class RuleOptionError(ValueError):
    """A rule option that cannot be: ``key`` names it, ``problem`` says what is wrong (with the value as
    written), ``fix`` what to write instead."""

    def __init__(self, key: str, problem: str, fix: str) -> None:
        self.key = key
        self.problem = problem
        self.fix = fix
        super().__init__(f"{problem}; {fix}")


def toml_text(value: object) -> str:
    """A value as a rules file writes it: ``true``, ``2``, ``"situational"`` (others as Python shows them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)[:40]


def _int_fix(spec: OptionSpec) -> str:
    named = [f"{v}: {spec.value_help[v]}" for v in spec.choices if v in spec.value_help]
    if spec.high - spec.low <= 2:
        words = [f"{v} ({spec.value_help[v]})" if v in spec.value_help else str(v) for v in spec.choices]
        listed = ", ".join(words[:-1]) + " or " + words[-1]
        return f"write {listed} ({spec.section})"
    extra = f" ({', '.join(named)})" if named else ""
    return f"write a whole number from {spec.low} to {spec.high}{extra}, {spec.section}"


def check_option(key: str, value: object) -> Value:
    """The value of option ``key`` checked against the registry; ``RuleOptionError`` for an unknown option, a
    value of the wrong type, off its list or outside its range (``NaN`` and floats are never an option's)."""
    spec = SPECS.get(key)
    if spec is None:
        fix = (
            did_you_mean(key, SPECS)
            or 'the options are listed in docs/rulings.md "Rule options"; remove the line or correct the name'
        )
        return _raise(key, f"`{key}` is not a rule option", fix)
    shown = f"{key} = {toml_text(value)}"
    if spec.kind == "bool":
        if not isinstance(value, bool):
            return _raise(key, f"{shown} is not true or false", "write true or false")
        return value
    if spec.kind == "enum":
        if not isinstance(value, str) or value not in spec.values:
            return _raise(
                key,
                f"{shown} is not one of {', '.join(spec.values)} ({spec.section})",
                f'write one of them in quotes, e.g. {key} = "{spec.default}" for FTC as written',
            )
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        return _raise(key, f"{shown} is not a whole number", _int_fix(spec))
    if not spec.low <= value <= spec.high:
        return _raise(key, f"{shown} is outside {spec.low}–{spec.high}", _int_fix(spec))
    return value


def _raise(key: str, problem: str, fix: str) -> Value:
    raise RuleOptionError(key, problem, fix)


class RuleOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """The battle's rule options (docs/rulings.md "Rule options"), one field per ``OPTIONS`` entry in its order;
    every default is FTC as written. Decoded strictly (``from_json``, ``game.engine.codec``); built in code, a
    value the registry refuses raises ``RuleOptionError``. Hashable: the odds cache by it."""

    initiative_once: bool = False
    """FTC 4: roll initiative once for the whole battle instead of every round."""
    mook_group_initiative: bool = False
    """FTC 4: all figures marked as mooks on a side roll initiative once, as a group."""
    secret_stances: bool = False
    """Fudge 4.32: stances are chosen unseen and revealed together."""
    per_hex_terrain: bool = False
    """docs/rulings.md "Terrain": entering a hex costs 1 + its penalty instead of the largest-penalty rule."""
    attack_any_adjacent: bool = False
    """docs/rulings.md "Melee reach": melee may reach any adjacent hex, not only the front hexes."""
    npc_rolls: Literal["own", "zero", "group", "group_4df"] = "own"
    """Fudge 4.33, 4.34: who rolls the NPC pawns' combat dice."""
    speed_contest: bool = False
    """Fudge 4.36: a Speed contest between two fighters attacking each other."""
    stun_blows: bool = False
    """Fudge 4.62: a declaration may go for stun."""
    stun_head_knockout: bool = False
    """Fudge 4.62: a stunning blow on the head knocks out."""
    pulled_blows: bool = False
    """Fudge 4.62: a declaration may name the most wound it will do."""
    sweeping_blow: Annotated[int, Meta(ge=0, le=2)] = 0
    """Fudge 4.34: damage less per foe cut through by a sweeping blow (0: no sweeping blows)."""
    ignore_attackers: bool = False
    """Fudge 4.34: a fighter may leave attackers undefended."""
    damage_roll: Literal[
        "off", "one_die", "one_die_level", "even_roll", "even_roll_level", "situational", "min_mid_max"
    ] = "off"
    """Fudge 4.61, 4.63: the damage roll."""
    damage_roll_wild: bool = False
    """Fudge 4.61: the damage roll without its three limits."""
    graze_damage_roll: bool = False
    """Fudge 4.56: the damage roll on a graze, one level at most."""
    min_mid_max_low_penalty: bool = False
    """Fudge 4.63: a damage factor of -5 or worse is a -2 bonus."""
    wound_situational_roll: Literal["off", "worse", "both"] = "off"
    """Fudge 4.55: a situational roll on each wound."""
    fudge_graze_table: bool = False
    """Fudge 4.56: read grazes by Fudge's table instead of FTC 7.3's "at most a Scratch"."""
    willpower_vs_wounds: Literal["off", "very_hurt", "incapacitated"] = "off"
    """Fudge 4.51: a Will roll against wound penalties."""
    damage_capacity: Literal["factor", "roll", "will_roll"] = "factor"
    """Fudge 4.52: how Damage Capacity works."""
    damage_capacity_step: Literal["level", "point"] = "level"
    """Fudge 4.52: a Damage Capacity roll's or trait's step."""
    pc_death_max_three_levels: bool = False
    """Fudge 4.64: heroes take at most three wound levels from one blow."""
    pc_death_near_death_if_incapacitated: bool = False
    """Fudge 4.64: heroes reach Near Death only from Incapacitated."""
    pc_death_fudge_point: bool = False
    """Fudge 4.64: a Fudge Point makes a deadly wound Incapacitated."""
    fudge_points_default: Annotated[int, Meta(ge=0, le=10)] = 0
    """Fudge 4.64: Fudge Points of a hero the roster gives none."""
    critical_penetration: Annotated[int, Meta(ge=0, le=2)] = 0
    """Fudge 4.58: points a smaller fighter's +4 gets through."""
    scale_damage_roll: bool = False
    """Fudge 4.58: a damage roll when Scale alone stops a Scratch."""
    tech_level_scale: Annotated[int, Meta(ge=0, le=5)] = 0
    """Fudge 4.65: Scale per tech level between weapon and armour."""

    def __post_init__(self) -> None:
        for spec in OPTIONS:
            check_option(spec.name, getattr(self, spec.name))

    def value(self, name: str) -> Value:
        """The value of the option ``name`` (``KeyError`` for a name that is not an option)."""
        if name not in SPECS:
            raise KeyError(name)
        result: Value = getattr(self, name)
        return result

    def to_json(self) -> dict[str, Value]:
        """The options as plain data: only those off their default (a battle under FTC as written saves ``{}``,
        as it did before these options; a missing option reads as its default)."""
        return {spec.name: self.value(spec.name) for spec in OPTIONS if self.value(spec.name) != spec.default}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> RuleOptions:
        """Options from plain data (a save, a message); a missing option takes its default, anything else the
        registry refuses raises ``RuleOptionError`` (a ``ValueError``)."""
        return options_from_mapping(data)

    def replaced(self, **changes: Value) -> RuleOptions:
        """These options with some changed (each checked as ``check_option`` does)."""
        return options_from_mapping({**self.to_json(), **changes})


_FIELDS: frozenset[str] = frozenset(f.name for f in fields(OptionSpec) if f.name != "name")
"""What an option's table of ``data/rule_options.toml`` may hold (its name is the table's key)."""


def _spec_data(name: str, table: object) -> dict[str, object]:
    """An option's table in ``OptionSpec``'s shape: the name from the key, ``depends_on``'s table of option ->
    values as pairs, an int option's ``value_help`` keyed by numbers (TOML writes every key as text)."""
    if not isinstance(table, Mapping):
        raise _data_error(name, "it is not a table of the option's title, kind, default, …")
    unknown = sorted(str(key) for key in table if key not in _FIELDS)
    if unknown:
        raise _data_error(name, f"it has no field {', '.join(unknown)} (the fields are listed at the file's top)")
    data = {**table, "name": name}
    depends_on = table.get("depends_on")
    if isinstance(depends_on, Mapping):
        data["depends_on"] = list(depends_on.items())
    value_help = table.get("value_help")
    if table.get("kind") == "int" and isinstance(value_help, Mapping):
        for key in value_help:
            if not str(key).lstrip("-").isdigit():
                raise _data_error(name, f"value_help key `{key}` is not a whole number")
        data["value_help"] = {int(key): meaning for key, meaning in value_help.items()}
    return data


def _problem(spec: OptionSpec) -> str | None:
    """What is wrong with one option on its own (its group, values, default and notes), None when nothing."""
    if spec.group not in GROUPS:
        return f'group "{spec.group}" is not one of {", ".join(GROUPS)}'
    if spec.kind == "enum" and not spec.values:
        return "an enum option lists its values"
    if spec.kind == "int" and spec.low > spec.high:
        return f"low {spec.low} is above high {spec.high}"
    first = spec.choices[0]
    if type(spec.default) is not type(first) or spec.default not in spec.choices:
        return f"default {toml_text(spec.default)} is not one of its values"
    if spec.kind == "enum" and spec.default != first:
        return "an enum option lists its default first"
    if any(value not in spec.choices for value in spec.value_help):
        return "value_help names a value the option cannot take"
    if bool(spec.depends_on) != bool(spec.needs):
        return "an option with depends_on says what it needs in `needs`, and only such an option"
    return None


def _data_error(name: str, problem: str) -> DataFileError:
    return DataFileError(
        f"{data_path('rule_options.toml')} [{name}]: {problem}; correct that table or restore the file from the "
        "game's distribution"
    )


def read_options(tables: Mapping[str, object]) -> tuple[OptionSpec, ...]:
    """The rule options of ``data/rule_options.toml`` (read as ``tables``), each checked: its shape, its group,
    default and values, the options it depends on, and that they are ``RuleOptions``' fields in order with the
    same defaults; ``DataFileError`` names the option and what is wrong."""
    specs: list[OptionSpec] = []
    for name, table in tables.items():
        try:
            spec: OptionSpec = codec.convert(_spec_data(name, table), OptionSpec)
        except codec.CodecError as exc:
            raise _data_error(name, exc.problem) from None
        problem = _problem(spec)
        if problem is not None:
            raise _data_error(name, problem)
        specs.append(spec)
    by_name = {spec.name: spec for spec in specs}
    for spec in specs:
        for other, values in spec.depends_on:
            if other not in by_name or not values or any(v not in by_name[other].choices for v in values):
                raise _data_error(spec.name, f"depends_on {other} names no option or a value it cannot take")
    expected = tuple(zip(RuleOptions.__struct_fields__, RuleOptions.__struct_defaults__, strict=True))
    for index, (field_name, default) in enumerate(expected):
        here = specs[index].name if index < len(specs) else field_name
        if index >= len(specs) or (specs[index].name, specs[index].default) != (field_name, default):
            place = f"RuleOptions' option {index + 1} is {field_name} = {toml_text(default)}"
            raise _data_error(here, f"{place}, and the file describes it there with that default")
    if len(specs) > len(expected):
        raise _data_error(specs[len(expected)].name, "RuleOptions has no such option")
    return tuple(specs)


OPTIONS: tuple[OptionSpec, ...] = read_options(read_table("rule_options.toml"))
"""Every rule option (``data/rule_options.toml``), in the order of docs/rulings.md's table, the rules file and
``RuleOptions``."""

SPECS: Mapping[str, OptionSpec] = MappingProxyType({spec.name: spec for spec in OPTIONS})
"""The options by name."""


def options_from_mapping(mapping: Mapping[str, object]) -> RuleOptions:
    """``RuleOptions`` from a table of option -> value (a rules file, a preset, a save's options); a missing
    option takes its default; ``RuleOptionError`` for the first unknown option or value it cannot take."""
    checked = {str(key): check_option(str(key), value) for key, value in mapping.items()}
    return RuleOptions(**checked)  # type: ignore[arg-type]


def changed(options: RuleOptions) -> dict[str, Value]:
    """The options off their default, in the registry's order."""
    return options.to_json()


def is_active(spec: OptionSpec, options: RuleOptions) -> bool:
    """Whether an option matters with these others (``depends_on``); a greyed option has no effect."""
    return not spec.depends_on or any(options.value(other) in values for other, values in spec.depends_on)


def unready(options: RuleOptions) -> tuple[str, ...]:
    """The options switched on (off their default) that the battle does not play yet (``OptionSpec.ready``)."""
    return tuple(name for name in changed(options) if not SPECS[name].ready)


def unready_sentence(options: RuleOptions) -> str | None:
    """The sentence refusing options the battle does not play yet, None when there are none."""
    names = unready(options)
    if not names:
        return None
    titles = ", ".join(f"{SPECS[n].title} ({n})" for n in names)
    return (
        f"this version of the game does not play {'this rule option' if len(names) == 1 else 'these rule options'} "
        f"yet: {titles}; set {'it' if len(names) == 1 else 'them'} back to the default (FTC as written) "
        'or use a newer version (docs/rulings.md "Rule options" says which options are played)'
    )


def describe(options: RuleOptions) -> str:
    """The options off their default in a few words, for the report's rules line: "Damage roll: situational,
    Damage roll on a graze, Willpower against wounds: very hurt" ("" when every option is at its default)."""
    parts = []
    for name, value in changed(options).items():
        spec = SPECS[name]
        parts.append(spec.title if spec.kind == "bool" else f"{spec.title}: {spec.value_text(value)}")
    return ", ".join(parts)


def option_help(spec: OptionSpec) -> str:
    """An option's one-line help with its section: "Roll initiative once … (FTC 4)."."""
    return f"{spec.help.rstrip('.')} ({spec.section})."


RULE_OPTION_HELP: Mapping[str, str] = MappingProxyType({s.name: option_help(s) for s in OPTIONS if s.ready})
"""The options the battle plays, each with its one-line help and section (the F1 help lists them)."""


# ------------------------------------------------------------------------------------------ dice

OPTION_ROLLS: Mapping[str, Callable[[RuleOptions], bool]] = MappingProxyType(
    {
        "damage_die": lambda o: o.damage_roll in ("one_die", "one_die_level"),
        "damage": lambda o: (
            o.damage_roll == "situational" or (o.scale_damage_roll and o.damage_roll not in NUMERIC_DAMAGE_ROLLS)
        ),
        "damage_3d6": lambda o: o.damage_roll == "min_mid_max",
        "wound_situational": lambda o: o.wound_situational_roll != "off",
        "npc_group": lambda o: o.npc_rolls in ("group", "group_4df"),
        "speed": lambda o: o.speed_contest,
        "pain": lambda o: o.willpower_vs_wounds != "off",
    }
)
"""The rolls of ``game.engine.gm.DIE_PURPOSES`` that only a rule option makes, each with when its option is on
(*Fudge* 4.61, 4.63, 4.55, 4.34, 4.36, 4.51)."""


ROLL_OWNERS: Mapping[str, str] = MappingProxyType(
    {
        "damage_die": "attacker",
        "damage": "attacker",
        "damage_3d6": "attacker",
        "wound_situational": "target",
        "pain": "target",
        "npc_group": "figure",
        "speed": "figure",
    }
)
"""Whose roll each of ``OPTION_ROLLS`` is (the ``figure`` of its ``gm.SetDie``): a blow's attacker, its target,
or the figure rolling for itself."""


def rolls_drawn(options: RuleOptions) -> tuple[str, ...]:
    """The rule options' rolls a battle under ``options`` makes (the GM may set them by hand then, not before)."""
    return tuple(purpose for purpose, on in OPTION_ROLLS.items() if on(options))


def roll_count(purpose: str, options: RuleOptions) -> int | None:
    """The number of dice a rule option makes a roll take under these options, None when they leave it as
    ``gm.DIE_PURPOSES`` says (*Fudge* 4.34's group roll is four dice under ``group_4df``, not two)."""
    if purpose == "npc_group" and options.npc_rolls == "group_4df":
        return 4
    return None


# ------------------------------------------------------------------------------------------ roles

ROLES: tuple[str, ...] = ("pc", "major_npc", "npc")
"""Who a figure is to the options that tell heroes from pawns (Fudge 4.33, 4.34, 4.64; docs/rosters.md
"Roles"): a player character, a major NPC, an NPC pawn."""
ROLE_NAMES: Mapping[str, str] = MappingProxyType({"pc": "Hero", "major_npc": "Major NPC", "npc": "NPC"})
"""A role as the sheet shows it."""
HEROES: frozenset[str] = frozenset({"pc", "major_npc"})
"""The roles Fudge 4.64's protections and Fudge Points are for ("could be used for major [NPCs]")."""
ROLE_OPTIONS: tuple[str, ...] = (
    "npc_rolls",
    "pc_death_max_three_levels",
    "pc_death_near_death_if_incapacitated",
    "pc_death_fudge_point",
)
"""The options that read roles (the sheet and the report show roles only when one is on)."""


def resolve_role(character_role: str | None, mook: bool, side_role: str | None) -> str:
    """A figure's role, decided once when the battle is set up: its character's ``role`` if the roster gives
    one, else "npc" for a mook, else its side's ``role``, else "pc" (docs/rosters.md "Roles")."""
    if character_role is not None:
        return character_role
    if mook:
        return "npc"
    return side_role if side_role is not None else "pc"


def reads_roles(options: RuleOptions) -> bool:
    """Whether any option that tells heroes from pawns is on."""
    return any(options.value(name) != SPECS[name].default for name in ROLE_OPTIONS)


# ------------------------------------------------------------------------------------------ presets


@dataclass(frozen=True)
class Preset:
    """A named set of every option (docs/rulings.md "Rule options"): ``key`` (``--rules heroic``), the name
    New battle and the report show, a one-line description, and the options."""

    key: str
    name: str
    description: str
    options: RuleOptions

    @property
    def ready(self) -> bool:
        """Whether the battle plays every option the preset switches on."""
        return not unready(self.options)


class PresetError(ValueError):
    """The presets data file is broken; the message names the preset and the fix."""


@cache
def presets() -> tuple[Preset, ...]:
    """The presets of ``data/presets.toml``, in its order ("FTC as written" first), each read with the same
    checks as a rules file (``options_from_mapping``)."""
    out = []
    for key, table in read_table("presets.toml").items():
        if not isinstance(table, Mapping):
            raise PresetError(f"presets.toml: [{key}] must be a table of a name, a description and options")
        rest = {k: v for k, v in table.items() if k not in ("name", "description")}
        try:
            options = options_from_mapping(rest)
        except RuleOptionError as exc:
            raise PresetError(f"presets.toml [{key}]: {exc}") from None
        out.append(Preset(str(key), str(table.get("name", key)), str(table.get("description", "")), options))
    return tuple(out)


def preset(key: str) -> Preset | None:
    """The preset with this key (``ftc``, ``heroic``, ``gritty``), or None."""
    return next((p for p in presets() if p.key == key), None)


def preset_named(options: RuleOptions) -> Preset | None:
    """The first preset whose options are exactly these, or None."""
    return next((p for p in presets() if p.options == options), None)


__all__ = [
    "GROUPS",
    "HEROES",
    "LEVEL_DAMAGE_ROLLS",
    "NUMERIC_DAMAGE_ROLLS",
    "OPTIONS",
    "OPTION_ROLLS",
    "ROLES",
    "ROLE_NAMES",
    "ROLE_OPTIONS",
    "ROLL_OWNERS",
    "RULE_OPTION_HELP",
    "SPECS",
    "OptionSpec",
    "Preset",
    "PresetError",
    "RuleOptionError",
    "RuleOptions",
    "Value",
    "changed",
    "check_option",
    "describe",
    "is_active",
    "option_help",
    "options_from_mapping",
    "preset",
    "preset_named",
    "presets",
    "reads_roles",
    "resolve_role",
    "roll_count",
    "rolls_drawn",
    "toml_text",
    "unready",
    "unready_sentence",
]
