"""The GM's decisions as data (*Fudge* 4.1, 4.8; FTC table 7).

*Fudge* leaves much to the GM: "she then gives them a modifier, ranging from -3 to +3" (4.1), bad light and
insecure footing (FTC table 7), overriding a roll, ending a fight. So that a battle stays its log (docs/architecture.md
"A battle is its log"), every GM decision is an action: a frozen dataclass in the style of ``game.engine.actions`` with
a stable ``kind`` (all start with ``gm_``), written to and read from JSON like every decision
(``actions.action_to_json``, ``actions.decode_action``: its declared field types are its contract, docs/architecture.md
"One contract at every boundary"); an action built in code from lists owns tuples and hexes after
``__post_init__``.

This module holds no battle state. It gives:

* the actions, and ``validate_gm_action`` (ranges, value types, names; references to figures and sides when
  the caller passes the ids), raising ``GMActionError`` with a sentence saying what to fix;
* ``GMState``, the standing modifiers and conditions, with a pure ``with_action`` reducer and ``expire``;
* ``modifier_terms`` / ``modifier_total`` for a figure's roll, and ``condition_value`` for table 7;
* pure helpers that carry out the edits on plain values: ``edited_wounds``, ``edited_gear``,
  ``edited_traits``, ``new_character``.

Readings: the GM's own modifiers on one figure add up but are held to -3..+3 in total (*Fudge* 4.1 gives the
GM's modifier that range; its example adds +1 and +1). Battle conditions are table 7 terms, separate from
that limit; where two conditions of one kind cover a hex the worse counts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from game.engine import codec, equipment
from game.engine.action_base import Action, FigureAction
from game.engine.characters import ATTRIBUTES, Character, CharacterError
from game.engine.codec import MAX_ITEMS, Int, Name, Names, Table, Text, is_whole
from game.engine.datafiles import read_table
from game.engine.hexgrid import Hex
from game.engine.ladder import level_name, parse_level
from game.engine.limits import check_value
from game.engine.wounds import WoundError, Wounds, WoundTrack

Mods = tuple[tuple[str, int], ...]

SITUATIONAL_MIN: int = int(read_table("combat.toml")["gm"]["situational_min"])
SITUATIONAL_MAX: int = int(read_table("combat.toml")["gm"]["situational_max"])
"""*Fudge* 4.1: the GM's modifier ranges from -3 to +3 (``data/combat.toml`` [gm])."""


def _table_7_worst() -> dict[str, int]:
    firing = read_table("combat.toml")["firing"]
    return {"bad_light": int(firing["light_worst"]), "insecure_footing": int(firing["footing_worst"])}


CONDITION_WORST: Mapping[str, int] = _table_7_worst()
"""FTC table 7: bad light and insecure footing each -1 to -3 (the worst value from ``data/combat.toml``)."""

UNTIL: tuple[str, ...] = ("round", "removed")
"""How long a situational modifier lasts: this round only, or until the GM removes it."""

DIE_PURPOSES: Mapping[str, tuple[int, tuple[int, ...]]] = {
    # purpose -> (number of dice, allowed faces)
    "combat": (4, (-1, 0, 1)),  # FTC 6.3: the round's one 4dF roll
    "initiative": (4, (-1, 0, 1)),  # FTC 4
    "escape": (4, (-1, 0, 1)),  # FTC 5.3
    "health": (4, (-1, 0, 1)),  # FTC 7.4
    "situational": (4, (-1, 0, 1)),  # FTC 6.5.3 misses
    "healing": (4, (-1, 0, 1)),  # Fudge 4.8
    "will": (4, (-1, 0, 1)),  # FTC 8.1: Willpower to keep concentrating
    "resistance": (4, (-1, 0, 1)),  # FTC 8: a target resisting a spell
    "scatter": (1, (1, 2, 3, 4, 5, 6)),  # FTC 6.5.3: the d6 direction of a lobbed miss
    # the rule options' rolls (docs/rulings.md "Rule options"); a battle takes one only while its option is on
    "damage_die": (1, (-1, 0, 1)),  # Fudge 4.61: the one-die damage roll, the attacker's
    "damage": (4, (-1, 0, 1)),  # Fudge 4.61 situational damage roll, 4.58 a damage roll through Scale
    "damage_3d6": (3, (1, 2, 3, 4, 5, 6)),  # Fudge 4.63: Min-Mid-Max, the attacker's
    "wound_situational": (4, (-1, 0, 1)),  # Fudge 4.55: the situational roll on a wound, the target's
    "npc_group": (2, (-1, 0, 1)),  # Fudge 4.34: one roll for a side's NPC pawns (4dF under group_4df)
    "speed": (4, (-1, 0, 1)),  # Fudge 4.36: the Speed contest
    "pain": (4, (-1, 0, 1)),  # Fudge 4.51: Will against a wound's penalty
}
"""The rolls a GM may set by hand (SetDie) and the dice each takes."""

TRAIT_KEYS: tuple[str, ...] = (*ATTRIBUTES, "skills", "gifts", "faults")
"""What ``EditTraits.changes`` may name."""


class GMActionError(ValueError):
    """A GM decision that cannot be carried out; the message says what is wrong and how to fix it."""


# ------------------------------------------------------------------------------------ normalising


def _hex(value: Any, what: str) -> Hex:
    if isinstance(value, Hex):
        return value
    if (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and len(value) == 2
        and all(is_whole(v) for v in value)
    ):
        return Hex(int(value[0]), int(value[1]))
    raise GMActionError(f"{what} must be a hex [q, r], not {value!r}")


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


Faces = Annotated[tuple[Annotated[int, Meta(ge=-1, le=6)], ...], Meta(max_length=4)]
"""A roll's faces as a save holds them: up to four dice, each a Fudge die's -1, 0, +1 or a d6's 1..6."""
Region = Annotated[tuple[Hex, ...], Meta(max_length=MAX_ITEMS)]


class GMAction(Action, frozen=True):
    """Base class of the GM's decisions; the battle accepts them only from the GM's seat."""

    def _set(self, name: str, value: Any) -> None:
        msgspec.structs.force_setattr(self, name, value)


class GMFigureAction(GMAction, FigureAction, frozen=True):
    """A GM decision about one figure (its ``figure`` field): the battle looks the figure up before acting."""


# ------------------------------------------------------------------------------------ modifiers


class SituationalModifier(GMAction, frozen=True, tag="gm_modifier"):
    """*Fudge* 4.1: a GM modifier of -3..+3 on a figure's (or a whole side's) rolls, with its reason.

    ``target`` is a figure id or a side id. ``until`` is "round" (this round only) or "removed" (until a
    ``RemoveModifier`` with the same ``id``). ``round`` is the round it was given in; 0 asks the battle to
    fill in the current round before logging it.
    """

    id: Name
    target: Name
    value: Annotated[int, Meta(ge=SITUATIONAL_MIN, le=SITUATIONAL_MAX)]
    reason: Text = ""
    until: Name = "round"
    round: Int = 0

    @property
    def label(self) -> str:
        """The text on the token and in the log: ``+1 surprise``."""
        return f"{self.value:+d} {self.reason}".strip()


class RemoveModifier(GMAction, frozen=True, tag="gm_remove_modifier"):
    """The GM lifts a standing modifier or battle condition by its id."""

    id: Name


class BattleCondition(GMAction, frozen=True, tag="gm_condition"):
    """FTC table 7: bad light or insecure footing, -1..-3, over the whole map or a region of hexes.

    ``condition`` is "bad_light" or "insecure_footing" (the brief's ``kind``; that name is the action's
    type). An empty ``region`` covers the whole battlefield. ``value`` 0 lifts the condition of that id.
    """

    id: Name
    condition: Name
    value: Annotated[int, Meta(ge=min(CONDITION_WORST.values()), le=0)]
    region: Region = ()
    reason: Text = ""

    def __post_init__(self) -> None:
        self._set("region", tuple(_hex(h, "a region hex") for h in self.region))

    def covers(self, h: Hex) -> bool:
        """Whether the condition applies on a hex."""
        return not self.region or h in self.region


# ------------------------------------------------------------------------------------ overrides


class SetDie(GMFigureAction, frozen=True, tag="gm_set_die"):
    """The next roll of ``purpose`` for ``figure`` uses these faces (physical dice at the table)."""

    purpose: Name
    faces: Faces

    def __post_init__(self) -> None:
        self._set("faces", _tuple(self.faces))


class GrantEscape(GMFigureAction, frozen=True, tag="gm_grant_escape"):
    """FTC 5.3 override: the mover escapes the zone of control whatever the contest says."""


class DenyEscape(GMFigureAction, frozen=True, tag="gm_deny_escape"):
    """FTC 5.3 override: the mover is held whatever the contest says."""


class FreeAttackOverride(GMAction, frozen=True):
    """FTC 5.3 override: whether ``attacker`` gets its free attack on ``target``, the runner."""

    attacker: Name
    target: Name


class GrantFreeAttack(FreeAttackOverride, frozen=True, tag="gm_grant_free_attack"):
    """FTC 5.3 override: ``attacker`` gets a free attack on ``target``."""


class DenyFreeAttack(FreeAttackOverride, frozen=True, tag="gm_deny_free_attack"):
    """FTC 5.3 override: ``attacker`` does not get its free attack on ``target``."""


class EndRound(GMAction, frozen=True, tag="gm_end_round"):
    """The GM ends the round now (FTC 3: the next round begins)."""

    reason: Text = ""


class EndBattle(GMAction, frozen=True, tag="gm_end_battle"):
    """The GM ends the battle; ``winner`` is a side id or None (a draw, or the town guard arrives)."""

    winner: Name | None = None
    reason: Text = ""


class DeclareOut(GMFigureAction, frozen=True, tag="gm_declare_out"):
    """FTC 6.4 override: the GM takes a figure out of the fight (fled, surrendered, knocked out)."""

    reason: Text = ""


class DeclareIn(GMFigureAction, frozen=True, tag="gm_declare_in"):
    """FTC 6.4 override: a figure taken out comes back into the fight."""

    reason: Text = ""


# ------------------------------------------------------------------------------------ editing figures


class EditWounds(GMFigureAction, frozen=True, tag="gm_edit_wounds"):
    """*Fudge* 4.57: the GM ticks or clears wound boxes; ``wounds`` is ``Wounds.to_data()`` of the new sheet."""

    wounds: Table = msgspec.field(default_factory=dict)
    reason: Text = ""

    def __post_init__(self) -> None:
        self._set("wounds", codec.to_data(self.wounds))


class EditGear(GMFigureAction, frozen=True, tag="gm_edit_gear"):
    """FTC 9: the GM changes a figure's weapons (the first is ready), armour and shield, by catalogue name.

    ``coverage`` names, per suit of ``armour``, how much of the body it covers (FTC 9.2's partial suits:
    "full", "torso", "no_arms", "no_legs"); a suit it does not name keeps the coverage the figure wears it
    with now, or is a full suit if newly put on.
    """

    weapons: Names = ()
    armour: Names = ()
    shield: Name | None = None
    coverage: Annotated[dict[Name, Name], Meta(max_length=MAX_ITEMS)] = msgspec.field(default_factory=dict)
    reason: Text = ""

    def __post_init__(self) -> None:
        self._set("weapons", _tuple(self.weapons))
        self._set("armour", _tuple(self.armour))
        self._set("coverage", codec.to_data(self.coverage))


class EditTraits(GMFigureAction, frozen=True, tag="gm_edit_traits"):
    """FTC 2.1: the GM changes traits: attributes (``"strength": "Good"``), ``"skills"`` (name -> level, or
    None to forget the skill), ``"gifts"`` / ``"faults"`` (the whole new list)."""

    changes: Table = msgspec.field(default_factory=dict)
    reason: Text = ""

    def __post_init__(self) -> None:
        self._set("changes", codec.to_data(self.changes))


class AddFigure(GMFigureAction, frozen=True, tag="gm_add_figure"):
    """A reinforcement joins ``side`` on ``hex`` facing ``facing`` (0..5).

    Give either ``character`` (a roster table, as ``Character.from_dict`` reads) or ``roster_key`` (a
    character of the battle's roster), not both. ``figure`` is the new figure's id.
    """

    side: Name
    hex: Hex
    facing: Int = 0
    name: Name = ""
    character: Table | None = None
    roster_key: Name | None = None
    mook: bool = False

    def __post_init__(self) -> None:
        self._set("hex", _hex(self.hex, "the new figure's hex"))
        if self.character is not None:
            self._set("character", codec.to_data(self.character))


class SetFudgePoints(GMFigureAction, frozen=True, tag="gm_set_fudge_points"):
    """*Fudge* 4.64: the GM sets a figure's Fudge Points (0 to the roster's most, ``data/limits.toml``)."""

    points: Annotated[int, Meta(ge=0, le=100)]
    reason: Text = ""


class RemoveFigure(GMFigureAction, frozen=True, tag="gm_remove_figure"):
    """The GM removes a figure from the battle (it leaves the map)."""


GM_ACTION_TYPES: dict[str, type[GMAction]] = {
    cls.kind: cls
    for cls in (
        SituationalModifier,
        RemoveModifier,
        BattleCondition,
        SetDie,
        GrantEscape,
        DenyEscape,
        GrantFreeAttack,
        DenyFreeAttack,
        EndRound,
        EndBattle,
        DeclareOut,
        DeclareIn,
        EditWounds,
        EditGear,
        EditTraits,
        AddFigure,
        RemoveFigure,
        SetFudgePoints,
    )
}
"""Every GM action by its ``kind``; register these in ``actions.ACTION_TYPES`` to load them from a log."""


# ------------------------------------------------------------------------------------ validation


def _need_text(value: Any, what: str, *, empty_ok: bool = False) -> None:
    if not isinstance(value, str) or (not empty_ok and not value.strip()):
        raise GMActionError(f"{what} must be {'text' if empty_ok else 'a non-empty name'}, not {value!r}")


def validate_modifier_value(value: Any) -> int:
    """*Fudge* 4.1: a GM modifier is a whole number from -3 to +3."""
    if not is_whole(value) or not SITUATIONAL_MIN <= value <= SITUATIONAL_MAX:
        raise GMActionError(
            f"a GM modifier must be a whole number from {SITUATIONAL_MIN} to "
            f"{SITUATIONAL_MAX:+d} (Fudge 4.1), not {value!r}"
        )
    return int(value)


def validate_condition(condition: Any, value: Any) -> int:
    """FTC table 7: bad light or insecure footing, a whole number from -1 to -3 (0 lifts it)."""
    if condition not in CONDITION_WORST:
        raise GMActionError(f"{condition!r} is not a battle condition; use one of {', '.join(CONDITION_WORST)}")
    worst = CONDITION_WORST[condition]
    if not is_whole(value) or not worst <= value <= 0:
        raise GMActionError(
            f"{condition.replace('_', ' ')} must be a whole number from -1 to {worst} "
            f"(FTC table 7), or 0 to lift it; not {value!r}"
        )
    return int(value)


_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def dice_words(count: int, allowed: tuple[int, ...]) -> str:
    """The dice of a roll in words: "four Fudge dice, each -1, 0 or +1", "one six-sided die, 1 to 6"."""
    n = _COUNT_WORDS.get(count, str(count))
    if allowed == (-1, 0, 1):
        return f"{n} Fudge {'die' if count == 1 else 'dice'}, {'' if count == 1 else 'each '}-1, 0 or +1"
    return f"{n} six-sided {'die' if count == 1 else 'dice'}, {'' if count == 1 else 'each '}1 to 6"


def validate_faces(purpose: Any, faces: Any, *, count: int | None = None) -> tuple[int, ...]:
    """The faces of a roll the GM sets by hand (``SetDie``), checked against ``DIE_PURPOSES``; ``count``: the
    dice a battle's rule options make the roll (*Fudge* 4.34's group roll is two dice, four under
    ``group_4df``)."""
    if purpose not in DIE_PURPOSES:
        raise GMActionError(f"{purpose!r} is not a roll the GM can set; use one of {', '.join(DIE_PURPOSES)}")
    dice, allowed = DIE_PURPOSES[purpose]
    dice = dice if count is None else count
    if (
        not isinstance(faces, Sequence)
        or isinstance(faces, str)
        or len(faces) != dice
        or not all(is_whole(f) and f in allowed for f in faces)
    ):
        raise GMActionError(f"a {purpose} roll is {dice_words(dice, allowed)}; got {faces!r}")
    return tuple(int(f) for f in faces)


def validate_facing(facing: Any) -> int:
    """docs/rulings.md "Facing": a figure faces one of the six hex sides, 0..5."""
    if not is_whole(facing) or not 0 <= facing <= 5:
        raise GMActionError(f"facing must be a hex side from 0 to 5, not {facing!r}")
    return int(facing)


def validate_trait_changes(changes: Any) -> None:
    """FTC 2.1: attribute levels, skills (level or None to forget) and gift / fault lists."""
    if not isinstance(changes, Mapping) or not changes:
        raise GMActionError("trait changes must be a non-empty table such as {'strength': 'Good'}")
    for key, value in changes.items():
        if key in ATTRIBUTES:
            _level(value, key)
        elif key == "skills":
            if not isinstance(value, Mapping):
                raise GMActionError("skills must be a table of skill -> level (or None to forget the skill)")
            for name, level in value.items():
                _need_text(name, "a skill name")
                if level is not None:
                    _level(level, f"skill {name!r}")
        elif key in ("gifts", "faults"):
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise GMActionError(f"{key} must be a list of names")
        else:
            raise GMActionError(f"{key!r} is not a trait the GM can edit; use one of {', '.join(TRAIT_KEYS)}")


def _level(value: Any, what: str) -> int:
    if is_whole(value):
        return int(value)
    if isinstance(value, str):
        try:
            return parse_level(value)
        except ValueError:
            pass
    raise GMActionError(f'{what} must be a ladder level such as "Good" or "Legendary+1" (or a number), not {value!r}')


def _check_ref(value: str, known: Collection[str] | None, what: str) -> None:
    if known is not None and value not in known:
        raise GMActionError(f"there is no {what} {value!r} in this battle; use one of {', '.join(sorted(known))}")


def validate_gm_action(
    action: GMAction,
    *,
    figures: Collection[str] | None = None,
    sides: Collection[str] | None = None,
    track: WoundTrack | None = None,
    counts: Mapping[str, int] | None = None,
) -> None:
    """Check a GM decision's values (ranges of *Fudge* 4.1 and FTC table 7); raise ``GMActionError``.

    With ``figures`` / ``sides`` (the battle's ids) the references are checked too; with ``track`` the
    edited wounds must fit that wound track's boxes; ``counts``: the dice of the rolls the battle's rule options
    change (``rule_options.roll_count``). Placement on a legal hex is the battle's check.
    """
    fig_fields = ("figure", "attacker", "target")
    if isinstance(action, SituationalModifier):
        _need_text(action.id, "the modifier's id")
        _need_text(action.target, "the modifier's target")
        validate_modifier_value(action.value)
        _need_text(action.reason, "the reason", empty_ok=True)
        if action.until not in UNTIL:
            raise GMActionError(f"a modifier lasts until {' or '.join(repr(u) for u in UNTIL)}, not {action.until!r}")
        if not is_whole(action.round) or action.round < 0:
            raise GMActionError(f"the modifier's round must be 0 (now) or a round number, not {action.round!r}")
        known = None if figures is None and sides is None else {*(figures or ()), *(sides or ())}
        _check_ref(action.target, known, "figure or side")
        return
    if isinstance(action, RemoveModifier):
        _need_text(action.id, "the id of the modifier to remove")
        return
    if isinstance(action, BattleCondition):
        _need_text(action.id, "the condition's id")
        validate_condition(action.condition, action.value)
        return
    if isinstance(action, SetDie):
        validate_faces(action.purpose, action.faces, count=(counts or {}).get(action.purpose))
    elif isinstance(action, EndBattle):
        if action.winner is not None:
            _need_text(action.winner, "the winning side")
            _check_ref(action.winner, sides, "side")
    elif isinstance(action, EditWounds):
        edited_wounds(action.wounds, track or Wounds().track)
    elif isinstance(action, EditGear):
        edited_gear(Character("check"), action.weapons, action.armour, action.shield, action.coverage)
    elif isinstance(action, EditTraits):
        validate_trait_changes(action.changes)
    elif isinstance(action, SetFudgePoints):
        problem = check_value("fudge_points", action.points)
        if problem is not None:
            raise GMActionError(f"Fudge Points: {problem}")
    elif isinstance(action, AddFigure):
        _need_text(action.figure, "the new figure's id")
        _need_text(action.side, "the new figure's side")
        _check_ref(action.side, sides, "side")
        if figures is not None and action.figure in figures:
            raise GMActionError(f"a figure {action.figure!r} is already in the battle; give the new one another id")
        validate_facing(action.facing)
        if (action.character is None) == (action.roster_key is None):
            raise GMActionError("a new figure needs either a character table or a roster key (exactly one)")
        if action.character is not None:
            new_character(action.character)
        return
    if isinstance(action, EditWounds | EditGear | EditTraits):
        _need_text(action.reason, "the reason", empty_ok=True)
    for name in fig_fields:
        if hasattr(action, name):
            value = getattr(action, name)
            _need_text(value, f"the {name}")
            _check_ref(value, figures, "figure")


# ------------------------------------------------------------------------------------ standing state


@dataclass(frozen=True)
class GMState:
    """The GM's standing modifiers and battle conditions; change it only with ``with_action``."""

    modifiers: tuple[SituationalModifier, ...] = ()
    conditions: tuple[BattleCondition, ...] = ()

    def ids(self) -> frozenset[str]:
        """The ids in use (a new modifier or condition needs another)."""
        return frozenset(m.id for m in self.modifiers) | frozenset(c.id for c in self.conditions)

    def with_action(self, action: GMAction, round_no: int) -> GMState:
        """The state after a modifier, condition or removal (other actions leave it unchanged).

        A modifier given with ``round`` 0 is stamped with ``round_no``. A new modifier or condition with
        an id already in use replaces the old one; a condition of value 0 lifts the one with its id.
        """
        if isinstance(action, SituationalModifier):
            mod = action if action.round else msgspec.structs.replace(action, round=round_no)
            return GMState(
                (*[m for m in self.modifiers if m.id != mod.id], mod),
                tuple(c for c in self.conditions if c.id != mod.id),
            )
        if isinstance(action, BattleCondition):
            kept = tuple(c for c in self.conditions if c.id != action.id)
            return GMState(
                tuple(m for m in self.modifiers if m.id != action.id), kept if action.value == 0 else (*kept, action)
            )
        if isinstance(action, RemoveModifier):
            if action.id not in self.ids():
                raise GMActionError(f"there is no GM modifier or condition {action.id!r} to remove")
            return GMState(
                tuple(m for m in self.modifiers if m.id != action.id),
                tuple(c for c in self.conditions if c.id != action.id),
            )
        return self

    def expire(self, round_no: int) -> GMState:
        """Drop the "round" modifiers given before ``round_no`` (call as a round begins)."""
        return replace(self, modifiers=tuple(m for m in self.modifiers if m.until != "round" or m.round >= round_no))

    def to_json(self) -> dict[str, Any]:
        """Plain data (for a save's snapshot or a test)."""
        return {
            "modifiers": codec.to_data(self.modifiers),
            "conditions": codec.to_data(self.conditions),
        }


def modifier_terms(modifiers: Iterable[SituationalModifier], figure: str, side: str, round_no: int) -> Mods:
    """The GM's modifiers on a figure's rolls this round, as (name, value) terms for the log (*Fudge* 4.1).

    A modifier counts when its target is the figure or its side, and it lasts until removed or was given
    this round. When they add up beyond -3..+3 a last term brings the total back to the limit.
    """
    terms: list[tuple[str, int]] = []
    for m in modifiers:
        if m.target not in (figure, side):
            continue
        if m.until == "round" and m.round != round_no:
            continue
        terms.append((f"GM: {m.reason}" if m.reason else "GM", m.value))
    raw = sum(v for _, v in terms)
    capped = max(SITUATIONAL_MIN, min(SITUATIONAL_MAX, raw))
    if capped != raw:
        terms.append((f"GM limit {SITUATIONAL_MIN}..{SITUATIONAL_MAX:+d}", capped - raw))
    return tuple(terms)


def modifier_total(modifiers: Iterable[SituationalModifier], figure: str, side: str, round_no: int) -> int:
    """The sum of ``modifier_terms`` (*Fudge* 4.1: -3..+3)."""
    return sum(v for _, v in modifier_terms(modifiers, figure, side, round_no))


def condition_value(conditions: Iterable[BattleCondition], condition: str, h: Hex) -> int:
    """FTC table 7: the GM's bad light or insecure footing on a hex (the worst covering it; 0 if none)."""
    if condition not in CONDITION_WORST:
        raise GMActionError(f"{condition!r} is not a battle condition; use one of {', '.join(CONDITION_WORST)}")
    return min((c.value for c in conditions if c.condition == condition and c.covers(h)), default=0)


# ------------------------------------------------------------------------------------ edits on values


def edited_wounds(data: Mapping[str, Any], track: WoundTrack) -> Wounds:
    """*Fudge* 4.57: the new wound sheet of an ``EditWounds`` on a figure's track; ``GMActionError`` if it
    does not fit (unknown level, more marks than boxes)."""
    if not isinstance(data, Mapping):
        raise GMActionError("the wounds must be a table of level -> wounds in its boxes (Wounds.to_data())")
    known = {str(s.level) for s in track.steps} | {"beyond"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise GMActionError(f"the wound sheet has no level {', '.join(unknown)}; use {', '.join(sorted(known))}")
    try:
        return Wounds.from_data(data, track)
    except (WoundError, TypeError, AttributeError) as exc:
        raise GMActionError(f"the edited wounds do not fit the sheet: {exc}") from exc


def edited_gear(
    character: Character,
    weapons: Sequence[str],
    armour: Sequence[str],
    shield: str | None,
    coverage: Mapping[str, str] | None = None,
) -> Character:
    """FTC 9: the character with new gear from the catalogue; ``GMActionError`` names an unknown item.

    A suit of armour keeps the coverage the character wears it with (FTC 9.2's partial suits: a breastplate
    of plate stays a breastplate) unless ``coverage`` names another for it (``EditGear``).
    """
    for name in weapons:
        _need_text(name, "a weapon name")
    if coverage is not None and not isinstance(coverage, Mapping):
        raise GMActionError("the armour's coverage must map suit names to full, torso, no_arms or no_legs")
    coverage = dict(coverage or {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in coverage.items()):
        raise GMActionError("the armour's coverage must map suit names to full, torso, no_arms or no_legs")
    try:
        for name in weapons:
            equipment.weapon(name)
        suits = [equipment.armour(name) for name in armour]
        if shield is not None:
            equipment.armour(shield)
        chosen = {equipment.armour(name).name: value for name, value in coverage.items()}
    except (KeyError, ValueError) as exc:
        raise GMActionError(str(exc.args[0] if exc.args else exc)) from exc
    unworn = sorted(set(chosen) - {item.name for item in suits})
    if unworn:
        raise GMActionError(
            f"a coverage is given for {', '.join(unworn)}, which is not in the new armour; "
            "tick the suit or drop its coverage"
        )
    worn = {item.name: item.coverage for item in character.armour}
    entries: list[str | dict[str, str]] = []
    for name, item in zip(armour, suits, strict=True):
        cover = chosen.get(item.name, worn.get(item.name, "full"))
        entries.append(name if cover == "full" else {"name": name, "coverage": cover})
    data = character.to_dict()
    for key in ("weapons", "armour", "shield"):
        data.pop(key, None)
    if weapons:
        data["weapons"] = list(weapons)
    if armour:
        data["armour"] = entries
    if shield is not None:
        data["shield"] = shield
    return _build(data, character.key)


def edited_traits(character: Character, changes: Mapping[str, Any]) -> Character:
    """FTC 2.1: the character with the trait changes of an ``EditTraits``."""
    validate_trait_changes(changes)
    data = character.to_dict()
    for key, value in changes.items():
        if key == "skills":
            skills = dict(data.get("skills", {}))
            for name, level in value.items():
                if level is None:
                    skills = {k: v for k, v in skills.items() if k.lower() != str(name).lower()}
                else:
                    skills[str(name)] = level
            data["skills"] = skills
        elif key in ("gifts", "faults"):
            data[key] = list(value)
        else:
            data[key] = value
    return _build(data, character.key)


def trait_changes_text(before: Character, after: Character, changes: Mapping[str, Any]) -> str:
    """FTC 2.1: what an ``EditTraits`` changed, old → new ("Strength Good → Great, Sword — → Fair"); a skill
    the character lacks reads "—"."""
    parts: list[str] = []
    for key in changes:
        if key == "skills":
            for name in changes[key]:
                old = next((v for k, v in before.skills.items() if k.lower() == str(name).lower()), None)
                new = next((v for k, v in after.skills.items() if k.lower() == str(name).lower()), None)
                shown = "—" if old is None else level_name(old), "—" if new is None else level_name(new)
                parts.append(f"{name} {shown[0]} → {shown[1]}")
        elif key in ("gifts", "faults"):
            old_list = ", ".join(sorted(getattr(before, key))) or "none"
            new_list = ", ".join(sorted(getattr(after, key))) or "none"
            parts.append(f"{key} {old_list} → {new_list}")
        else:
            parts.append(f"{key.capitalize()} {level_name(getattr(before, key))} → {level_name(getattr(after, key))}")
    return ", ".join(parts) or "nothing"


def new_character(data: Mapping[str, Any]) -> Character:
    """The character of an ``AddFigure`` (a roster table); ``GMActionError`` with the roster's message."""
    if not isinstance(data, Mapping):
        raise GMActionError("a new figure's character must be a roster table such as {'name': 'Guard'}")
    return _build(data, "")


def _build(data: Mapping[str, Any], key: str) -> Character:
    try:
        return Character.from_dict(data, key=key)
    except (CharacterError, KeyError, ValueError) as exc:
        raise GMActionError(str(exc)) from exc
