"""Every decision a player (or the GM, or a computer player) can make, as data (docs/architecture.md "Decisions are
data").

An action is a frozen record with no behaviour (``game.engine.action_base``); ``battle.apply`` validates it
and returns events. Each action has a stable ``kind`` used in saved logs and messages, where hexes are
``[q, r]`` lists and a move's states ``[q, r, facing]``. The declared field types are the decisions' contract
at every boundary (``game.engine.codec``): ``decode_action`` reads one from JSON, refusing anything else.
"""

from __future__ import annotations

from typing import Annotated, Any, Union

import msgspec
from msgspec import UNSET, Meta, UnsetType

from game.engine import codec, gm
from game.engine.action_base import Action as Action  # the base, importable from here as before
from game.engine.action_base import FigureAction as FigureAction
from game.engine.codec import MAX_ITEMS, Facing, Name, Names
from game.engine.hexgrid import Hex

Steps = Annotated[tuple[Hex, ...], Meta(max_length=MAX_ITEMS)]
States = Annotated[tuple[tuple[Hex, Facing], ...], Meta(max_length=MAX_ITEMS)]
"""A move as the figure's states after each step: a step to an adjacent hex keeps the facing, a turn keeps
the hex and changes the facing by one side (``game.engine.movement.Path``)."""


class Move(FigureAction, frozen=True, tag="move"):
    """FTC 5: a figure takes its whole move along ``steps`` ((hex, facing) states, see ``States``).

    Empty ``steps`` means "stay where I am". ``posture`` may change before moving ("standing",
    "crawling", "prone"); changing posture costs nothing extra in this reading (the simplest a GM would
    accept; FTC 5 prices only the crawling speed itself).
    """

    steps: States = ()
    posture: Name | None = None


class Hold(FigureAction, frozen=True, tag="hold"):
    """FTC 5: hold the movement to use it later in the phase (an interrupt) or at its end."""


class PassInterrupt(Action, frozen=True, tag="pass_interrupt"):
    """FTC 5: a side with held figures lets the next figure move without interrupting."""

    side: Name


class StopChoice(FigureAction, frozen=True, tag="stop_choice"):
    """FTC 5.2: the owner of a zone of control decides whether to stop a figure leaving it."""

    stop: bool


class EscapeFailedChoice(FigureAction, frozen=True, tag="escape_failed_choice"):
    """FTC 5.3: after losing an escape contest, stay (the move ends) or turn tail and run."""

    run: bool


class Declare(FigureAction, frozen=True, tag="declare"):
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

    The rule options' fields (docs/rulings.md "Rule options"), each refused while its option is off: ``stun``
    (*Fudge* 4.62: the blow stuns instead of wounding), ``max_wound`` (*Fudge* 4.62: the most wound it will do,
    "Scratch" … "Incapacitated"), ``ignore`` (*Fudge* 4.34: enemies it leaves undefended in melee); with the
    sweeping blow (*Fudge* 4.34) ``targets`` may name up to three foes, struck in that order. Read them as
    ``stuns``, ``most_wound`` and ``ignoring``.
    """

    stance: Name = "neutral"
    targets: Names = ()
    weapon: Name | None = None
    dodge: Names = ()
    advance: Steps = ()
    advance_facing: Facing | None = None
    retreat: Hex | None = None
    aim: Name = "best"
    spell: Name | None = None
    spell_target: Name | None = None
    spell_hex: Hex | None = None
    stun: bool | UnsetType = UNSET
    max_wound: Name | UnsetType = UNSET
    ignore: Names | UnsetType = UNSET

    def __post_init__(self) -> None:
        # a rule option's field at its default is no field at all: left out of the JSON, so a declaration of FTC
        # as written is written as it always was, and saves without the fields read as before
        given: object = self.ignore
        if isinstance(given, list):  # built in code from a list: a tuple, as decoded
            msgspec.structs.force_setattr(self, "ignore", tuple(given))
        for name, default in (("stun", False), ("max_wound", None), ("ignore", ())):
            if getattr(self, name) == default:
                msgspec.structs.force_setattr(self, name, UNSET)

    @property
    def stuns(self) -> bool:
        """*Fudge* 4.62: whether the blow goes for stun (rule option ``stun_blows``)."""
        return self.stun is True

    @property
    def most_wound(self) -> str | None:
        """*Fudge* 4.62: the most wound the blow will do ("Scratch" …), None for a blow not pulled."""
        return self.max_wound if isinstance(self.max_wound, str) else None

    @property
    def ignoring(self) -> tuple[str, ...]:
        """*Fudge* 4.34: the enemies the figure leaves undefended this round."""
        return self.ignore if isinstance(self.ignore, tuple) else ()


class SecondMove(FigureAction, frozen=True, tag="second_move"):
    """FTC 6.2: a figure that neither attacks nor defends moves again by movement-phase rules."""

    steps: States = ()


class FollowChoice(FigureAction, frozen=True, tag="follow_choice"):
    """FTC 6.2: an attacker whose target retreats may step forward into ``hex`` (None: stay)."""

    hex: Hex | None = None


class RevealStances(Action, frozen=True, tag="reveal"):
    """Rule option *secret stances* (Fudge 4.32): the declarations are revealed together."""

    side: Name = ""


class SetStandingOrder(FigureAction, frozen=True, tag="standing_order"):
    """docs/rulings.md "Standing orders": a figure's standing order for stopping enemies: "always", "never" or "ask"."""

    order: Name = "always"


class SpendFudgePoint(FigureAction, frozen=True, tag="spend_fudge_point"):
    """*Fudge* 4.64: a hero's player answers the Fudge Point question (``Reason.FUDGE_POINT``): ``spend`` one to
    make the deadly wound merely Incapacitated, or keep the points and let the wound stand."""

    spend: bool = True


class SetFudgePointOrder(FigureAction, frozen=True, tag="fudge_point_order"):
    """*Fudge* 4.64: a hero's standing order for spending a Fudge Point on a deadly wound: "always" (at once, the
    default), "ask" (the player is asked) or "never"."""

    order: Name = "always"


class Yield(Action, frozen=True, tag="yield"):
    """A side gives up the battle (the battle ends; the others win)."""

    side: Name


PLAYER_ACTION_TYPES: tuple[type[Action], ...] = (
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
    SpendFudgePoint,
    SetFudgePointOrder,
    Yield,
)

ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in (*PLAYER_ACTION_TYPES, *gm.GM_ACTION_TYPES.values())}
"""Every decision by its ``kind``: the players' and the GM's."""


def register_gm_actions() -> None:
    """Make sure ``ACTION_TYPES`` holds the GM's actions (``game.engine.gm``) as well (it does from import on;
    calling this again restores them)."""
    ACTION_TYPES.update(gm.GM_ACTION_TYPES)


AnyAction: Any = Union[tuple(ACTION_TYPES.values())]  # noqa: UP007 (a union built from the table)
"""Any decision, told apart by its ``"kind"``: the type a save's and a message's decisions are decoded as."""

_DECODER = msgspec.json.Decoder(AnyAction)


def decode_action(raw: bytes | str) -> Action:
    """A decision from JSON text; ``codec.CodecError`` with a sentence when it is not exactly one."""
    action: Action = codec.decode(raw, _DECODER)
    return action


def action_from_data(data: Any) -> Action:
    """A decision from JSON data already read (``action_to_json``'s form), checked as ``decode_action`` does."""
    action: Action = codec.convert(data, AnyAction)
    return action


def check_action(action: Action) -> Action:
    """The decision as a save or a message will read it back; ``codec.CodecError`` when they could not (a value
    of another type, out of range or too long): such a decision never enters a battle's log, so every save
    loads (docs/architecture.md "One contract at every boundary")."""
    try:
        raw = codec.encode(action)
    except (TypeError, ValueError, OverflowError) as exc:
        raise codec.CodecError(f"cannot be written as JSON ({exc})", whole=True) from None
    return decode_action(raw)


def action_to_json(action: Action) -> dict[str, Any]:
    """The action as plain JSON data: ``{"kind": ..., field: value}``; hexes become ``[q, r]``."""
    data: dict[str, Any] = codec.to_data(action)
    return data
