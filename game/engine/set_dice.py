"""The rolls the GM has set by hand and not yet used, as the odds need them (FTC 6.3, 7.4).

A GM at the table may roll physical dice and enter the faces (``game.engine.gm.SetDie``); the battle keeps
them queued per figure and purpose until the roll they stand for is made. The odds shown before a decision
count such a roll as the total it will be, not as a 4dF still to roll.
"""

from __future__ import annotations

from game.engine.battle import Battle


def set_total(battle: Battle, purpose: str, fid: str) -> int | None:
    """The total of the next roll of ``purpose`` ("combat", "health", ...) the GM set for figure ``fid``,
    None when none is waiting (the battle takes the first queued one, as this does)."""
    for die in battle.gm_dice:
        if die.purpose == purpose and die.figure == fid:
            return sum(die.faces)
    return None


def set_faces(battle: Battle, purpose: str, fid: str) -> tuple[int, ...] | None:
    """The faces of the next roll of ``purpose`` the GM set for figure ``fid``, None when none is waiting (for
    a roll read die by die, *Fudge* 4.63's 3d6)."""
    return next((die.faces for die in battle.gm_dice if die.purpose == purpose and die.figure == fid), None)


def set_totals(battle: Battle, purpose: str, fid: str) -> list[int]:
    """The totals of every roll of ``purpose`` the GM set for figure ``fid`` and not yet used, in the order
    the battle takes them (one for each of its coming rolls of that purpose)."""
    return [sum(die.faces) for die in battle.gm_dice if die.purpose == purpose and die.figure == fid]
