"""The battle's dice (FTC 4, 5.3, 6.3, 7.4; *Fudge* 4.1): every 4dF roll, the faces the GM set by hand, and
each figure's one combat roll of the round.

All randomness comes from the battle's one generator (``BattleState.rng``, docs/architecture.md
"Randomness is injected"); a roll the GM set by hand (``gm.SetDie``) takes its faces from the queue
instead, drawing nothing. This part owns ``DiceState``: the queue of set dice, the set dice used by the
decision being applied, where in the events each set roll was made, and the round's combat rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from game.engine import events as ev
from game.engine import gm, npc_rolls
from game.engine.battle.state import BattleState
from game.engine.dice import DiceRoll, roll_4df, roll_d6, roll_fudge

SetRollWatcher = Callable[[tuple[int, ...]], None]


class CombatFaces(NamedTuple):
    """A combat roll as made: its faces (none for an NPC pawn rolling nothing, *Fudge* 4.33) and where it came
    from (``CombatRoll.source``: "" for the figure's own dice)."""

    faces: tuple[int, ...]
    source: str


def roll(b: BattleState, purpose: str, *fids: str) -> DiceRoll:
    """Every 4dF roll of the battle (FTC 4, 5.3, 6.3, 7.4): the faces the GM set for one of ``fids``, else
    the battle's generator, drawn exactly as without a GM."""
    for fid in fids:
        faces = set_roll(b, purpose, fid)
        if faces is not None:
            return faces
    return roll_4df(b.rng)


def roll_faces(b: BattleState, purpose: str, fid: str) -> tuple[int, ...]:
    """A roll of any purpose of ``gm.DIE_PURPOSES`` with its own dice (one or two Fudge dice, 3d6 for the rule
    options' rolls): the faces the GM set for ``fid``, else drawn from the battle's generator (four Fudge dice
    draw exactly what ``roll`` draws)."""
    faces = set_roll(b, purpose, fid)
    if faces is not None:
        return faces.faces
    count, allowed = gm.DIE_PURPOSES[purpose]
    if allowed == (-1, 0, 1):
        return roll_fudge(b.rng, count).faces
    return tuple(roll_d6(b.rng) for _ in range(count))


def blow_dice(b: BattleState) -> Callable[[str, str], tuple[int, ...]]:
    """The dice of a blow's steps (``game.engine.blow.Dice``): ``roll_faces`` on this battle."""
    return lambda purpose, fid: roll_faces(b, purpose, fid)


def set_roll(b: BattleState, purpose: str, fid: str) -> DiceRoll | None:
    """The first roll of ``purpose`` the GM set by hand for a figure, taken from the queue (*Fudge* 4.1:
    ``gm.SetDie``); None when there is none."""
    for i, s in enumerate(b.dice_state.set_queue):
        if s.purpose == purpose and s.figure == fid:
            del b.dice_state.set_queue[i]
            b.dice_state.used.append(s)
            for watcher in b.dice_state.watchers:
                watcher(s.faces)
            return DiceRoll(s.faces)
    return None


def queue_set_die(b: BattleState, a: gm.SetDie) -> None:
    """*Fudge* 4.1: the GM sets a figure's next roll of a kind by hand."""
    b.dice_state.set_queue.append(a)


def set_dice(b: BattleState) -> list[gm.SetDie]:
    """The rolls the GM set by hand and not yet used, in the order set."""
    return b.dice_state.set_queue


def set_rolls(b: BattleState) -> dict[int, gm.SetDie]:
    """The rolls made with faces the GM set by hand: index in ``events`` -> the GM's ``SetDie``."""
    return b.dice_state.set_rolls


def watch_set_rolls(b: BattleState, watcher: SetRollWatcher) -> None:
    """Call ``watcher`` with the faces of every roll made with faces the GM set by hand, when it is made."""
    b.dice_state.watchers.append(watcher)


def forget_figure(b: BattleState, fid: str) -> None:
    """A figure left the battle: the rolls set for it are dropped."""
    b.dice_state.set_queue[:] = [s for s in b.dice_state.set_queue if s.figure != fid]


def decision_begins(b: BattleState) -> None:
    """A decision is about to be applied: no set die has been used for it yet."""
    b.dice_state.used.clear()


def decision_applied(b: BattleState, first_event: int, events: Sequence[ev.Event]) -> None:
    """A decision was applied and its ``events`` will be logged from index ``first_event``: each roll it
    made with set faces is marked where it shows (``events.set_roll_at``)."""
    for used in b.dice_state.used:
        b.dice_state.set_rolls[first_event + ev.set_roll_at(events, used.figure, used.faces)] = used
    b.dice_state.used.clear()


# ---------------------------------------------------------------------------- the round's combat rolls
def new_round_rolls(b: BattleState) -> None:
    """A new round or attack phase: nobody has made this round's combat roll yet (FTC 6.3), no side its group
    roll (*Fudge* 4.34)."""
    b.dice_state.round_rolls = {}
    b.dice_state.round_sources = {}
    b.dice_state.group_rolls = {}


def round_roll_made(b: BattleState, fid: str) -> tuple[int, ...] | None:
    """The faces of a figure's combat roll of this round, if it has made it (FTC 6.3)."""
    return b.dice_state.round_rolls.get(fid)


def combat_faces(b: BattleState, fid: str, shared: dict[str, tuple[int, ...]], out: list[ev.Event]) -> CombatFaces:
    """One combat roll of a figure (FTC 6.3, 5.3) as the rule option ``npc_rolls`` makes it (*Fudge* 4.33,
    4.34): its own 4dF (the GM's set faces first); an NPC pawn's nothing under ``zero``; under ``group`` its
    side's one roll in ``shared`` (the round's, or one free-attack exchange's), made now if the side has none
    yet — the GM's ``npc_group`` faces set for any pawn of the side first — and said in ``out`` by a
    ``GroupRoll``. Returns the faces and the ``CombatRoll.source``; draws nothing for a pawn under ``zero``."""
    fig = b.figures[fid]
    how = npc_rolls.way(b.options, fig.role)
    if how == npc_rolls.OWN:
        return CombatFaces(roll(b, "combat", fid).faces, "")
    if how == npc_rolls.ZERO:
        return CombatFaces((), "npc_zero")
    side = fig.side
    if side not in shared:
        members = tuple(f.id for f in b.figures.values() if f.side == side and f.can_act and npc_rolls.is_pawn(f.role))
        faces = next((r.faces for m in members if (r := set_roll(b, "npc_group", m)) is not None), None)
        shared[side] = faces if faces is not None else roll_fudge(b.rng, npc_rolls.group_dice(b.options)).faces
        out.append(ev.GroupRoll(side, shared[side], members, b.sides[side].name))
    return CombatFaces(shared[side], "npc_group")


def round_roll_faces(b: BattleState, fid: str, out: list[ev.Event] | None = None) -> tuple[int, ...]:
    """A figure's one combat roll of the round (FTC 6.3): the one it made already (early, for a 1-second
    spell, FTC 8.1), else made now (``combat_faces``: a side's group roll made now is said in ``out``)."""
    faces = b.dice_state.round_rolls.get(fid)
    if faces is None:
        made = combat_faces(b, fid, b.dice_state.group_rolls, out if out is not None else [])
        faces = b.dice_state.round_rolls[fid] = made.faces
        b.dice_state.round_sources[fid] = made.source
    return faces


def round_roll_event(b: BattleState, fid: str) -> ev.CombatRoll:
    """The ``CombatRoll`` of a figure's roll of the round, once made (its source: *Fudge* 4.33, 4.34)."""
    return ev.CombatRoll(fid, b.dice_state.round_rolls[fid], b.dice_state.round_sources.get(fid, ""))


def early_round_roll(b: BattleState, fid: str, out: list[ev.Event]) -> int:
    """A figure's one roll of the round (FTC 6.3), made early because a 1-second spell is resolved when
    declared (FTC 8.1; its ``CombatRoll`` added to ``out`` when it is rolled now); the round's resolution
    uses it again."""
    faces = b.dice_state.round_rolls.get(fid)
    if faces is None:
        faces = round_roll_faces(b, fid, out)
        out.append(round_roll_event(b, fid))
    return sum(faces)
