"""After the battle: a summary and a readable export of the log.

* ``battle_summary(battle)``: plain data (JSON-ready) with each figure's wounds and boxes (*Fudge* 4.57),
  who hit whom (from the attack events, FTC 6.4-7), and each side's luck: the sum of its 4dF rolls against
  the expectation 0 (docs/rulings.md "Numbers": each 4dF has mean 0 and variance 4 x 2/3).
* ``export_log_text(battle)``: every event's sentence under round and phase headings, then the summary.
* ``rules_of(battle)``: the rule options it was played under (the summary's and the text's "Rules:" line).

Luck counts the rolls a side makes for itself: combat rolls (FTC 6.3), initiative (FTC 4), both ends of an
escape contest (FTC 5.3), Health (or Damage Capacity) rolls against wounds (FTC 7.4, *Fudge* 4.52), Will rolls
against a wound's penalty (*Fudge* 4.51) and the attacker's 4dF damage rolls of the rule options (*Fudge* 4.61,
4.56, 4.58: ``damage_roll.ATTACKER_4DF_RULES``). The situational roll of a stray shot (FTC 6.5.3) belongs to
nobody and is left out, as are rolls of one die, 3d6 (not 4dF sums) and the target's situational roll on a wound
(*Fudge* 4.55: a high roll there is the attacker's luck, not its roller's). Under the rule option ``npc_rolls`` an
NPC pawn's roll of nothing (*Fudge* 4.33) and a side's 2dF group roll (4.34) are not 4dF and are left out; a
side's group roll of 4dF counts once for the side; the Speed contest's rolls (*Fudge* 4.36) and a stunning
blow's Health roll (4.62) count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from game.engine import events as ev
from game.engine.battle import Battle, Figure
from game.engine.damage_roll import ATTACKER_4DF_RULES
from game.engine.dice import FOUR_DF_COUNTS
from game.engine.heroes import starting_points
from game.engine.rule_options import ROLE_NAMES, changed, describe, reads_roles
from game.engine.stun_sheet import RESULTS, StunSheet
from game.engine.wounds import Wounds

VARIANCE_PER_ROLL = 4 * 2 / 3
"""Variance of one 4dF sum: four dice, each -1/0/+1 with variance 2/3 (docs/rulings.md "Numbers")."""

MAX_EXACT_ROLLS = 5000
"""Beyond this many rolls the luck percentile uses the normal approximation (it is then very close)."""


# ------------------------------------------------------------------------------------ figures and sides


def _side_of(battle: Battle, fid: str) -> str:
    fig = battle.figures.get(fid)
    if fig is not None:
        return fig.side
    for f in battle.setup.figures:
        if f.id == fid:
            return f.side
    return "?"


def _side_name(battle: Battle, side: str) -> str:
    s = battle.sides.get(side)
    return s.name if s is not None else side


def wound_boxes(wounds: Wounds) -> list[dict[str, Any]]:
    """A wound sheet column by column (*Fudge* 4.57): label, boxes, and the wound received in each box."""
    out: list[dict[str, Any]] = []
    for step, marks in zip(wounds.track.steps, wounds.marks, strict=True):
        out.append(
            {"level": str(step.level), "label": step.name, "boxes": step.boxes, "marks": [str(m) for m in marks]}
        )
    return out


def boxes_text(wounds: Wounds) -> str:
    """The sheet as text: ``Scratch [X][X][ ]  Hurt [ ]  ...  Incapacitated [H]`` (*Fudge* 4.57).

    A box filled by a wound of its own level shows X; a wound that rolled over from a lower level shows its
    initial (the sheet's "H" under Incapacitated). Wounds beyond the track follow as ``+N beyond``.
    """
    parts: list[str] = []
    for step, marks in zip(wounds.track.steps, wounds.marks, strict=True):
        cells = ["X" if m == step.level else str(m)[0] for m in marks]
        cells += [" "] * (step.boxes - len(marks))
        parts.append(step.name + " " + "".join(f"[{c}]" for c in cells))
    text = "  ".join(parts)
    if wounds.beyond:
        text += f"  +{len(wounds.beyond)} beyond"
    return text


# ------------------------------------------------------------------------------------ who hit whom


def hit_matrix(events: Iterable[ev.Event]) -> list[dict[str, Any]]:
    """Who attacked whom (FTC 6.4-7): one row per (attacker, target) with attacks, hits, misses, damage.

    Every attack event counts, free attacks (FTC 5.3) and stray shots that found a bystander (FTC 6.5.3)
    included; rows come in the order of their first attack.
    """
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for e in events:
        if not isinstance(e, ev.AttackResolved):
            continue
        row = rows.setdefault(
            (e.attacker, e.target),
            {
                "attacker": e.attacker,
                "target": e.target,
                "attacks": 0,
                "hits": 0,
                "misses": 0,
                "wounds": 0,
                "damage": 0,
            },
        )
        row["attacks"] += 1
        if e.hit:
            row["hits"] += 1
            row["damage"] += max(0, e.damage)
            row["wounds"] += 1 if e.wound else 0
        else:
            row["misses"] += 1
    return list(rows.values())


# ------------------------------------------------------------------------------------ luck


def side_rolls(battle: Battle) -> dict[str, list[tuple[int, ...]]]:
    """Every 4dF roll each side made for itself, as faces, in log order (module doc lists which)."""
    out: dict[str, list[tuple[int, ...]]] = {s: [] for s in battle.sides}

    def add(fid: str, faces: Sequence[int]) -> None:
        out.setdefault(_side_of(battle, fid), []).append(tuple(faces))

    for e in battle.events:
        if isinstance(e, ev.CombatRoll) and e.source:
            continue  # Fudge 4.33, 4.34: an NPC's roll of nothing, or its side's shared roll (counted once below)
        if isinstance(e, ev.GroupRoll) and len(e.faces) == 4:
            out.setdefault(e.side, []).append(e.faces)  # a shared 4dF counts once for its side; 2dF not at all
        elif isinstance(e, ev.CombatRoll | ev.InitiativeRolled):
            add(e.figure, e.faces)
        elif isinstance(e, ev.EscapeContest):
            add(e.mover, e.mover_faces)
            for sid, faces in zip(e.stoppers, e.stopper_faces, strict=True):
                add(sid, faces)
        elif isinstance(e, ev.Wounded | ev.Stunned) and e.health_faces:  # a Scratch under Fudge 4.52 rolls none
            add(e.figure, e.health_faces)
        elif isinstance(e, ev.WillAgainstPain):  # Fudge 4.51
            add(e.figure, e.faces)
        elif isinstance(e, ev.SpeedContest):  # Fudge 4.36: each side's Speed rolls
            add(e.first, e.first_faces)
            add(e.second, e.second_faces)
        if isinstance(e, ev.AttackResolved):
            for step in e.steps:
                if step.rule in ATTACKER_4DF_RULES and len(step.faces) == 4:
                    add(e.attacker, step.faces)
    return out


def luck_percentile(total: int, rolls: int) -> float:
    """How often ``rolls`` fair 4dF rolls sum below ``total``, counting ties as half (0.5 is average luck)."""
    if rolls <= 0:
        return 0.5
    if rolls > MAX_EXACT_ROLLS:
        sd = math.sqrt(VARIANCE_PER_ROLL * rolls)
        return 0.5 * (1 + math.erf(total / (sd * math.sqrt(2))))
    one = np.array([FOUR_DF_COUNTS[t] for t in range(-4, 5)], dtype=float) / 81
    dist = np.array([1.0])
    for _ in range(rolls):
        dist = np.convolve(dist, one)
    index = total + 4 * rolls  # dist[0] is the sum -4 * rolls
    if index < 0:
        return 0.0
    if index >= len(dist):
        return 1.0
    return float(dist[:index].sum() + dist[index] / 2)


def luck(battle: Battle) -> dict[str, dict[str, Any]]:
    """Each side's luck: number of rolls, their sum, the expectation 0 and its standard deviation."""
    out: dict[str, dict[str, Any]] = {}
    for side, rolls in side_rolls(battle).items():
        n = len(rolls)
        total = sum(sum(r) for r in rolls)
        sd = math.sqrt(VARIANCE_PER_ROLL * n)
        name = _side_name(battle, side)
        out[side] = {
            "side": side,
            "name": name,
            "rolls": n,
            "sum": total,
            "expected": 0,
            "sd": sd,
            "percentile": luck_percentile(total, n),
            "text": f"{name} rolled {total:+d} over {n} rolls (expected 0 ± {sd:.1f})",
        }
    return out


# ------------------------------------------------------------------------------------ summary


def rules_of(battle: Battle) -> dict[str, Any]:
    """The battle's rule options as the report gives them (docs/rulings.md "Rule options"): the name of their
    set ("FTC as written" when every option is at its default and the set has no name, "custom" for a set of
    one's own) and every option off its default."""
    off = changed(battle.options)
    name = battle.setup.rules_name or ("custom" if off else "FTC as written")
    return {"name": name, "changed": off}


def rules_text_line(rules: dict[str, Any], options: Any) -> str:
    """The report's rules line: "Rules: FTC as written", "Rules: Gritty (Damage roll: situational, …)"."""
    if not rules["changed"]:
        return f"Rules: {rules['name']}"
    return f"Rules: {rules['name']} ({describe(options)})"


def fudge_points_of(battle: Battle, f: Figure) -> dict[str, int] | None:
    """A hero's Fudge Points as the battle began and as they are left (*Fudge* 4.64), while the option that spends
    them is on; None for others."""
    if not (battle.options.pc_death_fudge_point and f.is_hero):
        return None
    setup = next((s for s in battle.setup.figures if s.id == f.id), None)
    start = f.fudge_points if setup is None else starting_points(setup.fudge_points, f.role, battle.options)
    return {"start": start, "left": f.fudge_points}


def will_of(battle: Battle, f: Figure) -> str | None:
    """What Will did against the figure's wounds (*Fudge* 4.51): "fought on Incapacitated", "no Very Hurt
    penalty", "Very Hurt penalty eased by 1"; None when it did nothing that lasts (or the option is off)."""
    if battle.options.willpower_vs_wounds == "off":
        return None
    rolls = [e for e in battle.events if isinstance(e, ev.WillAgainstPain) and e.figure == f.id]
    if any(e.fights_on for e in rolls):
        return "fought on Incapacitated"
    eased = next((e for e in reversed(rolls) if e.relief and e.level == f.wounds.label), None)
    if eased is None:
        return None
    if eased.penalty + eased.relief >= 0:
        return f"no {eased.level} penalty"
    return f"{eased.level} penalty eased by {eased.relief}"


def worst_stun(sheet: StunSheet) -> str | None:
    """The worst a figure's stun sheet holds (*Fudge* 4.62): "Knocked out", "Very Stunned", "Stun" or None."""
    if sheet.knocked_out:
        return "Knocked out"
    return next((name for name, n in reversed(tuple(zip(RESULTS, sheet.filled, strict=False))) if n), None)


def battle_summary(battle: Battle) -> dict[str, Any]:
    """The after-battle summary as plain data: the rules, outcome, figures' wounds, who hit whom, luck. A
    figure's role is given when a rule option that reads roles is on (docs/rosters.md "Roles"), a hero's Fudge
    Points (start and left) and what Will did against a figure's wounds when their options are on."""
    names = battle.names()
    roles = reads_roles(battle.options)
    figures: list[dict[str, Any]] = []
    for f in battle.figures.values():
        figures.append(
            {
                "id": f.id,
                "name": f.name,
                "side": f.side,
                "condition": f.wounds.label,
                "out": f.out or not f.can_act,
                "wounds": f.wounds.to_data(),
                "received": [str(w) for w in f.wounds.received()],
                "boxes": wound_boxes(f.wounds),
                "boxes_text": boxes_text(f.wounds),
                "crippled": list(f.crippled),
                **({"role": ROLE_NAMES[f.role]} if roles else {}),
                **({"fudge_points": points} if (points := fudge_points_of(battle, f)) is not None else {}),
                **({"will": will} if (will := will_of(battle, f)) is not None else {}),
                **({"stun": worst_stun(f.stuns)} if battle.options.stun_blows else {}),
            }
        )
    rules = rules_of(battle)
    winner = battle.winner
    return {
        "title": battle.setup.title,
        "rules": rules,
        "rules_line": rules_text_line(rules, battle.options),
        "rounds": battle.round,
        "over": battle.over,
        "winner": winner,
        "winner_name": _side_name(battle, winner) if winner else None,
        "sides": {s.id: s.name for s in battle.sides.values()},
        "figures": figures,
        "hits": [
            dict(
                row,
                attacker_name=names.get(row["attacker"], row["attacker"]),
                target_name=names.get(row["target"], row["target"]),
            )
            for row in hit_matrix(battle.events)
        ],
        "luck": luck(battle),
        "events": len(battle.events),
    }


# ------------------------------------------------------------------------------------ text export


def _heading(text: str, underline: str) -> list[str]:
    return [text, underline * len(text)]


def _log_lines(battle: Battle) -> Iterator[str]:
    names = battle.names()
    for e in battle.events:
        text = e.text(names)
        if isinstance(e, ev.RoundBegan):
            yield ""
            yield from _heading(text, "=")
        elif isinstance(e, ev.PhaseBegan):
            yield ""
            yield from _heading(text, "-")
        else:
            yield "  " + text


def _summary_lines(summary: dict[str, Any]) -> Iterator[str]:
    yield ""
    yield from _heading("Summary", "=")
    yield summary["rules_line"] + "."
    outcome = (
        f"{summary['winner_name']} won" if summary["winner"] else ("no winner" if summary["over"] else "not finished")
    )
    yield f"After {summary['rounds']} round(s): {outcome}."
    yield ""
    yield from _heading("Wounds", "-")
    width = max((len(f["name"]) for f in summary["figures"]), default=0)
    for f in summary["figures"]:
        extra = f"; crippled {', '.join(f['crippled'])}" if f["crippled"] else ""
        role = f" ({f['role']})" if "role" in f else ""
        if "fudge_points" in f:
            extra += f"; Fudge Points {f['fudge_points']['start']} → {f['fudge_points']['left']}"
        if "will" in f:
            extra += f"; Will: {f['will']}"
        if f.get("stun"):  # Fudge 4.62: the stun sheet, apart from the wounds (a knockout needs no healing)
            extra += "; knocked out (wakes without healing)" if f["stun"] == "Knocked out" else f"; {f['stun']}"
        yield f"  {f['name']:<{width}}  {f['condition']:<13} {f['boxes_text']}{extra}{role}"
    yield ""
    yield from _heading("Who hit whom", "-")
    if not summary["hits"]:
        yield "  nobody attacked"
    for row in summary["hits"]:
        yield (
            f"  {row['attacker_name']} → {row['target_name']}: {row['hits']} hit(s), {row['misses']} miss(es)"
            f" of {row['attacks']}, {row['wounds']} wound(s)"
        )
    yield ""
    yield from _heading("Luck (sum of each side's 4dF rolls)", "-")
    for entry in summary["luck"].values():
        yield f"  {entry['text']}; luckier than {100 * entry['percentile']:.0f}% of fair dice"


def export_log_text(battle: Battle, *, summary: bool = True) -> str:
    """The whole log as readable text: a header, every event's sentence under its round and phase
    headings (FTC 3), then (with ``summary``) the after-battle summary."""
    title = battle.setup.title or "Battle"
    lines = _heading(f"{title} — Fudge Tactical Combat log", "#")
    for side in battle.sides.values():
        members = [f.name for f in battle.figures.values() if f.side == side.id]
        lines.append(f"{side.name}: {', '.join(members) or 'nobody'}")
    lines.append(f"Seed {battle.setup.seed}")
    lines.append(rules_text_line(rules_of(battle), battle.options))
    lines.extend(_log_lines(battle))
    if summary:
        lines.extend(_summary_lines(battle_summary(battle)))
    return "\n".join(lines) + "\n"


__all__ = [
    "VARIANCE_PER_ROLL",
    "battle_summary",
    "boxes_text",
    "export_log_text",
    "hit_matrix",
    "luck",
    "luck_percentile",
    "rules_of",
    "rules_text_line",
    "side_rolls",
    "wound_boxes",
]
