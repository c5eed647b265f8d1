"""Every decision a player (or the GM, or a computer player) can make, as data (docs/architecture.md "Decisions are
data").

An action is a frozen dataclass with no behaviour; ``battle.apply`` validates it and returns events.
Each action has a stable ``kind`` used in saved logs. Hexes are stored as ``(q, r)`` pairs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from game.engine import gm
from game.engine.action_base import Action as Action  # the base, importable from here as before
from game.engine.hexgrid import Hex

Steps = tuple[Hex, ...]
States = tuple[tuple[Hex, int], ...]
"""A move as the figure's states after each step: a step to an adjacent hex keeps the facing, a turn keeps
the hex and changes the facing by one side (``game.engine.movement.Path``)."""


@dataclass(frozen=True)
class Move(Action):
    """FTC 5: a figure takes its whole move along ``steps`` ((hex, facing) states, see ``States``).

    Empty ``steps`` means "stay where I am". ``posture`` may change before moving ("standing",
    "crawling", "prone"); changing posture costs nothing extra in this reading (the simplest a GM would
    accept; FTC 5 prices only the crawling speed itself).
    """

    kind: ClassVar[str] = "move"
    figure: str
    steps: States = ()
    posture: str | None = None


@dataclass(frozen=True)
class Hold(Action):
    """FTC 5: hold the movement to use it later in the phase (an interrupt) or at its end."""

    kind: ClassVar[str] = "hold"
    figure: str


@dataclass(frozen=True)
class PassInterrupt(Action):
    """FTC 5: a side with held figures lets the next figure move without interrupting."""

    kind: ClassVar[str] = "pass_interrupt"
    side: str


@dataclass(frozen=True)
class StopChoice(Action):
    """FTC 5.2: the owner of a zone of control decides whether to stop a figure leaving it."""

    kind: ClassVar[str] = "stop_choice"
    figure: str
    stop: bool


@dataclass(frozen=True)
class EscapeFailedChoice(Action):
    """FTC 5.3: after losing an escape contest, stay (the move ends) or turn tail and run."""

    kind: ClassVar[str] = "escape_failed_choice"
    figure: str
    run: bool


@dataclass(frozen=True)
class Declare(Action):
    """FTC 6.1, 6.1.1, 6.2: a figure's declaration for the attack phase.

    ``targets`` empty means the figure only defends. ``dodge`` names the missile firers it watches
    (-1 to its attack each). ``advance`` is up to two steps for an aggressive stance (each step costs one
    point of the stance's attack bonus; a step into the same hex means "turn one side", given by
    ``advance_facing``); ``retreat`` is the hex a defensive stance steps back into.

    ``spell`` (FTC 8): the figure casts this known spell instead of attacking with a weapon (``targets``
    stays empty; the stance still counts for its defence). ``spell_target`` is the figure it is cast on
    (None: the caster himself), ``spell_hex`` the hex an area spell is centred on. A caster concentrating
    on a spell of several rounds continues it by declaring the same spell again; any other declaration
    abandons it. ``dodge`` may name enemy casters as well as missile firers (FTC 8.3: bolts are dodged
    like missiles).
    """

    kind: ClassVar[str] = "declare"
    figure: str
    stance: str = "neutral"
    targets: tuple[str, ...] = ()
    weapon: str | None = None
    dodge: tuple[str, ...] = ()
    advance: Steps = ()
    advance_facing: int | None = None
    retreat: Hex | None = None
    aim: str = "best"
    spell: str | None = None
    spell_target: str | None = None
    spell_hex: Hex | None = None


@dataclass(frozen=True)
class SecondMove(Action):
    """FTC 6.2: a figure that neither attacks nor defends moves again by movement-phase rules."""

    kind: ClassVar[str] = "second_move"
    figure: str
    steps: States = ()


@dataclass(frozen=True)
class FollowChoice(Action):
    """FTC 6.2: an attacker whose target retreats may step forward into ``hex`` (None: stay)."""

    kind: ClassVar[str] = "follow_choice"
    figure: str
    hex: Hex | None = None


@dataclass(frozen=True)
class RevealStances(Action):
    """Rule option *secret stances* (Fudge 4.32): the declarations are revealed together."""

    kind: ClassVar[str] = "reveal"
    side: str = ""


@dataclass(frozen=True)
class SetStandingOrder(Action):
    """docs/rulings.md "Standing orders": a figure's standing order for stopping enemies: "always", "never" or "ask"."""

    kind: ClassVar[str] = "standing_order"
    figure: str
    order: str = "always"


@dataclass(frozen=True)
class Yield(Action):
    """A side gives up the battle (the battle ends; the others win)."""

    kind: ClassVar[str] = "yield"
    side: str


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Move,
        Hold,
        PassInterrupt,
        StopChoice,
        EscapeFailedChoice,
        Declare,
        SecondMove,
        FollowChoice,
        RevealStances,
        SetStandingOrder,
        Yield,
    )
}


def register_gm_actions() -> None:
    """Add the GM's actions (``game.engine.gm``) to ``ACTION_TYPES`` so logs carry them (done at import;
    calling it again restores them)."""
    ACTION_TYPES.update(gm.GM_ACTION_TYPES)


def _encode(value: Any) -> Any:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, tuple):
        if len(value) == 2 and isinstance(value[0], Hex) and isinstance(value[1], int):
            return [value[0].q, value[0].r, value[1]]
        return [_encode(v) for v in value]
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as plain JSON data: ``{"kind": ..., field: value}``; hexes become ``[q, r]``."""
    data: dict[str, Any] = {"kind": action.kind}
    for f in fields(action):
        data[f.name] = _encode(getattr(action, f.name))
    return data


def action_from_json(data: Any) -> Action:
    """Rebuild an action from ``action_to_json`` output; raises ``ValueError`` naming what is wrong."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError("an action must be an object with a 'kind'")
    if str(data["kind"]).startswith("gm_"):
        register_gm_actions()
        return gm.gm_action_from_json(data)
    cls = ACTION_TYPES.get(str(data["kind"]))
    if cls is None:
        raise ValueError(f"unknown action kind {data['kind']!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "steps":
            value = tuple((Hex(int(q), int(r)), int(fc)) for q, r, fc in value)
        elif f.name == "advance":
            value = tuple(Hex(int(q), int(r)) for q, r in value)
        elif f.name in ("retreat", "hex", "spell_hex"):
            value = None if value is None else Hex(int(value[0]), int(value[1]))
        elif f.name in ("targets", "dodge"):
            value = tuple(str(v) for v in value)
        kwargs[f.name] = value
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad fields for action {cls.kind!r}: {exc}") from exc
