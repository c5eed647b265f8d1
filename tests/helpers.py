"""Helpers the tests share: a battle refereed by a GM who plays no side, and a player who does as little as
the rules allow. (The data-folder fixture ``home`` is in ``conftest.py``.)"""

from __future__ import annotations

from dataclasses import replace

from game.engine import actions as act
from game.engine.battle import GM_REFEREE, Battle, BattleSetup, Decision


def refereed(setup: BattleSetup) -> Battle:
    """A battle whose GM plays no side (the referee's seat), so that dice can be set by hand (``gm.SetDie``)."""
    return Battle(replace(setup, gm=GM_REFEREE))


def do_little(d: Decision) -> act.Action:
    """The least a figure may do: stay (or forfeit a held move), let the next figure move, stop whoever
    leaves its zone, stay after a failed escape, not follow, declare a neutral defence, and spend a Fudge Point
    when asked (as a computer player does, *Fudge* 4.64)."""
    fid = d.figure or ""
    if d.reason in ("move", "held_end"):
        return act.Move(fid, ())
    if d.reason == "interrupt":
        return act.PassInterrupt(d.side)
    if d.reason == "stop":
        return act.StopChoice(fid, True)
    if d.reason == "escape_failed":
        return act.EscapeFailedChoice(fid, False)
    if d.reason == "follow":
        return act.FollowChoice(fid, None)
    if d.reason == "fudge_point":
        return act.SpendFudgePoint(fid, True)
    return act.Declare(fid)
