"""After the battle: healing the figures of a finished battle (*Fudge* 4.8), as the after-battle screen offers it.

The battle itself is never changed: ``Aftercare`` copies each figure's wound record and heals the copies with
``game.engine.healing`` in three steps a GM runs in any order:

* ``care()``: a few minutes' care erase every Scratch (*Fudge* 4.8);
* ``treat_side(side, healer=..., gm_level=...)``: a healer of that side — a figure with a medical skill, or a
  skill level the GM enters for a healer who did not fight — treats each wounded figure of the side once,
  one 4dF roll each (Good heals every wound a level, Great two, Superb three);
* ``rest(weeks)``: untreated wounds heal a level per week.

Every roll draws from a generator seeded from the battle's seed but separate from the battle's own (the
battle's log must stay exactly as it was played; docs/architecture.md "Randomness is injected" and "A battle is its
log"), so the same battle heals the same way.
``lines`` keeps what happened to each figure, dice included, for the screen and the exported text.

``save_wounds(roster_path)`` writes the healed sheets back into the roster the battle came from, so each
character carries its wounds into the next battle. A roster shipped in the game's own folder is never changed:
the first time, its text is copied to a campaign roster in the user's data folder
(``game.paths.campaign_copy_of``) and the wounds go there; New battle offers that copy for the map next time.
Readings: a figure taken out keeps its wounds like any other; only figures placed at the start of the battle
are written, each under its own roster character, so a GM's reinforcement and a figure the GM removed are
left out and named in the report. Figures sharing one roster character (the village's brigands) keep their
wounds each in an entry of its own: a wounded figure's character is copied from the shared one under the
figure's name (``[characters.snipe]``, name "Snipe", ``stands_in_for = "brigand"``) and its wounds written
there; the next battle on the roster places that figure with its own entry (``game.roster``, "stands in
for"), so it starts with its wounds. Figures of one character that also share a name cannot be told apart
in the next battle: their wounds are not saved, and the report asks to name them apart. Wounds beyond the
end of a track (*Fudge* 4.55: no open box was left) have no box to be carried in: the figure carries its full
track, and the report says so. A hero's Fudge Points left (*Fudge* 4.64) are written with his wounds, into the
same entry, when the battle changed them (docs/rosters.md "Fudge Points").
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from game.engine.battle import Battle
from game.engine.healing import Treatment, care_after_battle, healing_data, healing_skill, rest, treat
from game.engine.heroes import starting_points
from game.engine.ladder import level_name
from game.engine.wounds import WoundLevel, Wounds
from game.report import boxes_text
from game.roster import STANDS_IN_FOR, RosterError, read_roster_data, save_carried_wounds, writable_roster

DAYS_PER_WEEK = 7


class AftercareError(ValueError):
    """A healing step that cannot be taken; the message says what is wrong and what to do instead."""


@dataclass
class Patient:
    """One figure's wounds between battles and what healing did to them."""

    id: str
    name: str
    side: str
    wounds: Wounds
    lines: list[str] = field(default_factory=list)
    treated: bool = False

    @property
    def wounded(self) -> bool:
        """Whether a wound worse than a Scratch is left (only those need a healer, *Fudge* 4.8)."""
        return any(w > WoundLevel.SCRATCH for w in self.wounds.received())


@dataclass(frozen=True)
class Healer:
    """A figure able to treat wounds (*Fudge* 4.8): its medical skill and level."""

    id: str
    name: str
    skill: str
    level: int


class Aftercare:
    """The healing between battles of one finished battle's figures (*Fudge* 4.8)."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.rng = random.Random(f"fudge-tactics healing {battle.setup.seed}")
        self.patients: dict[str, Patient] = {
            f.id: Patient(f.id, f.name, f.side, f.wounds) for f in battle.figures.values()
        }
        self.cared = False
        self.weeks = 0

    def healers(self, side: str) -> list[Healer]:
        """The figures of a side who can treat the others (*Fudge* 4.8): a trained medical skill of the data's
        list and still able to act after the battle (an Incapacitated healer treats nobody)."""
        names = {str(n) for n in healing_data()["treatment"]["skills"]}
        out = []
        for f in self.battle.figures.values():
            if f.side != side or not self.patients[f.id].wounds.can_act:
                continue
            if any(f.character.has_skill(n) for n in names):
                skill, level = healing_skill(f.character)
                out.append(Healer(f.id, f.name, skill, level))
        return sorted(out, key=lambda h: -h.level)

    def care(self) -> list[str]:
        """A few minutes' care after the battle erase every Scratch (*Fudge* 4.8); returns what changed."""
        if self.cared:
            raise AftercareError("the Scratches have already been tended after this battle")
        self.cared = True
        changed = []
        for p in self.patients.values():
            after = care_after_battle(p.wounds)
            if after != p.wounds:
                gone = len(list(p.wounds.received())) - len(list(after.received()))
                p.lines.append(f"Care after the battle: {gone} Scratch(es) erased; {after.label} now")
                p.wounds = after
                changed.append(p.name)
        return changed

    def treat_side(
        self, side: str, *, healer: str | None = None, gm_level: int | None = None, pace: str | None = None
    ) -> list[Treatment]:
        """A healer treats every wounded, untreated figure of a side, one roll each (*Fudge* 4.8).

        ``healer``: the id of a figure of ``healers(side)``; or ``gm_level``: a skill level the GM enters for a
        healer who did not fight. Each patient is treated once: a second treatment after the wounds were
        already treated does not help (*Fudge* 4.8 lets the skill heal the wounds, not heal them again).
        """
        if healer is not None:
            found = next((h for h in self.healers(side) if h.id == healer), None)
            if found is None:
                raise AftercareError(
                    f"{self.battle.names().get(healer, healer)} cannot treat {side}'s wounded: "
                    "choose a figure of that side with a medical skill who can still act, "
                    "or enter a skill level for the GM's healer"
                )
            who, skill, level = found.name, found.skill, found.level
        elif gm_level is not None:
            who, skill, level = "the GM's healer", "healing skill", gm_level
        else:
            raise AftercareError("choose a healer: a figure with a medical skill, or a skill level from the GM")
        done = []
        for p in self.patients.values():
            if p.side != side or p.treated or not p.wounded:
                continue
            t = treat(self.rng, p.wounds, level, pace=pace, skill_name=skill)
            p.treated = True
            p.lines.append(f"Treated by {who}: " + "; ".join(t.explanation))
            p.wounds = t.after
            done.append(t)
        return done

    def rest(self, weeks: int) -> None:
        """Every figure rests ``weeks`` weeks: each week heals every wound a level (*Fudge* 4.8)."""
        if weeks < 1:
            raise AftercareError(f"rest at least one week, not {weeks}")
        self.weeks += weeks
        for p in self.patients.values():
            if not any(True for _ in p.wounds.received()):
                continue
            r = rest(p.wounds, weeks * DAYS_PER_WEEK)
            detail = "; ".join(r.explanation) or "no change"
            p.lines.append(f"Rest {weeks} week(s): {detail} ({p.wounds.label} → {r.after.label})")
            p.wounds = r.after

    def save_wounds(self, roster_path: str | Path | None) -> CarriedWounds:
        """Write each figure's wounds as healed so far into the roster file the battle was loaded from
        (*Fudge* 4.8: the wounds left are carried into the next battle); the module doc says which figures.

        ``AftercareError`` when there is no roster file to write or it cannot be written (a full disk, a
        folder that may not be written, a roster that no longer loads); the file is then unchanged.
        """
        if roster_path is None or not str(roster_path):
            raise AftercareError(
                "this battle does not say which roster file it was loaded from, so there is "
                "no roster to write the wounds into; start the battle from New battle"
            )
        try:
            return _save_wounds(self, roster_path)
        except RosterError as exc:
            raise AftercareError(f"the wounds were not saved: {exc}") from None

    def text(self) -> str:
        """The healing steps and each figure's sheet afterwards, for the exported log."""
        lines = ["", "Healing (Fudge 4.8)", "-------------------"]
        if not any(p.lines for p in self.patients.values()):
            lines.append("  no healing applied")
        for p in self.patients.values():
            if not p.lines:
                continue
            lines.append(f"  {p.name}:")
            lines.extend(f"    {line}" for line in p.lines)
            lines.append(f"    now {p.wounds.label}: {boxes_text(p.wounds)}")
        return "\n".join(lines) + "\n"


REMOVED = "removed by the GM"
NOT_FROM_ROSTER = "not a roster character"
SAME_NAME = "figures of one roster character with one name: name them apart on the map to keep their wounds"
REINFORCEMENT = "GM reinforcements, not placed from the roster"
GONE = "no longer in the roster file"
"""Why a figure's wounds were not written (``CarriedWounds.skipped``)."""


@dataclass(frozen=True)
class CarriedWounds:
    """What ``Aftercare.save_wounds`` wrote: (figure name, condition) saved, (figure name, why not) skipped."""

    path: Path
    saved: tuple[tuple[str, str], ...]
    skipped: tuple[tuple[str, str], ...]
    note: str = ""
    """Said when the roster had to be rewritten whole (``save_carried_wounds``' notes), else empty."""
    shipped: Path | None = None
    """The game's own roster the campaign copy ``path`` stands in for (None: the wounds went to the battle's
    roster itself)."""
    copied: bool = False
    """Whether this save made the campaign copy (the first time)."""

    def message(self) -> str:
        """A short paragraph for the after-battle screen's status line: the wounded by name and condition,
        how many unhurt, and those not saved grouped by the reason."""
        hurt = [f"{name} {label}" for name, label in self.saved if label != "Unhurt"]
        unhurt = len(self.saved) - len(hurt)
        parts = hurt + ([f"{unhurt} unhurt" if hurt else f"all {unhurt} unhurt"] if unhurt else [])
        if self.shipped is None:
            text = f"Wounds saved to {self.path.name}: {', '.join(parts) or 'nobody'}."
        else:
            made = "a campaign copy of" if self.copied else "the campaign copy of"
            text = (
                f"Wounds saved to {made} {self.shipped.name} at {self.path}: {', '.join(parts) or 'nobody'}. "
                "New battle plays this copy for the map (the game's own roster stays as shipped)."
            )
        reasons: dict[str, list[str]] = {}
        for name, why in self.skipped:
            reasons.setdefault(why, []).append(name)
        if reasons:
            text += " Not saved: " + "; ".join(f"{', '.join(names)} ({why})" for why, names in reasons.items()) + "."
        if self.note:
            text += f" {self.note}."
        return text


def _own_key(name: str, base: str, characters: dict[str, object]) -> str:
    """The key of a figure's own character entry: the entry that already stands in for ``base`` under this
    name (an earlier save), else the name as a new key (``"Snipe"`` -> ``snipe``), made unique."""
    for key, table in characters.items():
        if isinstance(table, dict) and table.get(STANDS_IN_FOR) == base and table.get("name") == name:
            return key
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or base
    key, n = slug, 1
    while key in characters:
        n += 1
        key = f"{slug}_{n}"
    return key


def _save_wounds(care: Aftercare, roster_path: str | Path) -> CarriedWounds:
    path, shipped, copied = writable_roster(Path(roster_path))
    try:
        return _save_wounds_into(care, path, shipped, copied)
    except RosterError:
        if copied:
            path.unlink(missing_ok=True)
        raise


def _save_wounds_into(care: Aftercare, path: Path, shipped: Path | None, copied: bool) -> CarriedWounds:
    battle = care.battle
    characters = read_roster_data(path).get("characters")
    characters = characters if isinstance(characters, dict) else {}
    new_tables: dict[str, dict[str, object]] = {}
    own: list[str] = []
    unhurt: list[tuple[str, str]] = []
    placed = {f.id for f in battle.setup.figures}
    by_key: dict[str, list[str]] = {}
    for f in battle.setup.figures:
        by_key.setdefault(f.character.key, []).append(f.id)
    placed_as = {f.id: f.name for f in battle.setup.figures}  # the names the next battle places them by
    names = {**placed_as, **battle.names()}
    skipped: list[tuple[str, str]] = []
    chosen: dict[str, str] = {}  # character key -> figure id
    for f in battle.setup.figures:
        key = f.character.key
        if f.id in battle.removed or f.id not in care.patients:
            skipped.append((names[f.id], REMOVED))
        elif not key:
            skipped.append((names[f.id], NOT_FROM_ROSTER))
        elif len(by_key[key]) > 1 and [placed_as[o] for o in by_key[key]].count(placed_as[f.id]) > 1:
            sheet = care.patients[f.id].wounds
            if any(True for _ in sheet.received()):
                skipped.append((names[f.id], SAME_NAME))
            else:
                unhurt.append((names[f.id], sheet.label))  # unhurt: the shared entry serves it as before
        elif len(by_key[key]) > 1:
            mine = _own_key(placed_as[f.id], key, {**characters, **new_tables})
            if mine not in characters:
                if not any(True for _ in care.patients[f.id].wounds.received()) and _points_left(battle, f.id) is None:
                    unhurt.append((names[f.id], care.patients[f.id].wounds.label))
                    continue  # unhurt: the shared entry serves it as before
                shared = characters.get(key)
                if not isinstance(shared, dict):
                    skipped.append((names[f.id], GONE))
                    continue
                new_tables[mine] = {**shared, "name": placed_as[f.id], STANDS_IN_FOR: key}
                new_tables[mine].pop("wounds", None)
                own.append(f"{names[f.id]} as [characters.{mine}]")
            chosen[mine] = f.id
        else:
            chosen[key] = f.id
    for fid in care.patients:
        if fid not in placed:
            skipped.append((names[fid], REINFORCEMENT))
    notes: list[str] = []
    wounds: dict[str, Wounds] = {}
    overflowed: list[str] = []
    for key, fid in chosen.items():
        sheet = care.patients[fid].wounds
        if sheet.beyond:  # no box holds them: the full track is carried (Fudge 4.55 leaves the rest to the GM)
            overflowed.append(f"{names[fid]} ({len(sheet.beyond)} beyond it)")
            sheet = dataclasses.replace(sheet, beyond=())
        wounds[key] = sheet
    points = {key: left for key, fid in chosen.items() if (left := _points_left(battle, fid)) is not None}
    missing = save_carried_wounds(path, wounds, notes, new_tables, points)
    if overflowed:
        verb = "carries" if len(overflowed) == 1 else "carry"
        notes.append(
            f"Wounds beyond a wound track have no box to be carried in, so {', '.join(overflowed)} {verb} the "
            "full track instead (Fudge 4.55: whether such a figure lives is the GM's call)"
        )
    if own:
        notes.insert(
            0,
            f"Figures sharing a roster character keep their wounds in entries of their own ({', '.join(own)}), "
            "which the next battle on this roster gives them",
        )
    saved = list(unhurt)
    for key, fid in chosen.items():
        if key in missing:
            skipped.append((names[fid], GONE))
        else:
            saved.append((names[fid], care.patients[fid].wounds.label))
    return CarriedWounds(path, tuple(saved), tuple(skipped), ". ".join(notes), shipped, copied)


def _points_left(battle: Battle, fid: str) -> int | None:
    """A hero's Fudge Points left when the battle changed them (spent, or set by the GM), else None (*Fudge*
    4.64: nothing to write back)."""
    fig = battle.figures.get(fid)
    setup = next((s for s in battle.setup.figures if s.id == fid), None)
    if fig is None or setup is None:
        return None
    start = starting_points(setup.fudge_points, fig.role, battle.options)
    return fig.fudge_points if fig.fudge_points != start else None


def skill_label(level: int) -> str:
    """A skill level as the ladder names it (for the GM's healer)."""
    return level_name(level)


__all__ = ["Aftercare", "AftercareError", "CarriedWounds", "Healer", "Patient", "skill_label"]
