"""A battle in play: map + roster -> setup, the autosave, save / load / undo (FTC 3–7 via the engine).

This module sits between the engine (which reads no files) and the front ends (the screen, the
``simulate`` and ``replay`` commands): it loads the Tiled map and the roster, places the figures,
keeps the save data that describes the setup, and writes the autosave after every decision (and when a
battle is loaded), so the autosave always holds the battle last on screen at its last decision.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, runtime_checkable

import msgspec
from msgspec import Meta

from game.engine import codec, record
from game.engine.actions import Action, check_action
from game.engine.battle import Battle, BattleSetup, FigureSetup, IllegalAction, RuleOptions, Seat, SideSetup, apply
from game.engine.codec import MAX_ITEMS, Digest, Int, Name, Table, Text
from game.engine.creatures import footprint
from game.engine.events import Event
from game.engine.generator import KEYED_DICE, LEGACY_DICE, new_seed, seed_problem
from game.engine.hexgrid import Hex, facing_toward
from game.engine.rule_options import resolve_role, unready_sentence
from game.engine.spelling import did_you_mean, near_miss, near_miss_pairs
from game.engine.version import RULES_REVISION
from game.maps.errors import MapLoadError
from game.maps.loader import LoadedMap, load_map
from game.paths import MAPS_DIR as MAPS_DIR
from game.paths import ROOT as ROOT
from game.paths import data_dir as data_dir
from game.paths import find_map
from game.roster import Roster, RosterError, load_roster, parse_roster

if TYPE_CHECKING:
    from game.aftercare import Aftercare

DEFAULT_MAP = MAPS_DIR / "open_field.tmx"


class SetupError(ValueError):
    """The map and roster do not make a battle (e.g. a figure names a character the roster lacks)."""


def seed_argument(text: str) -> int:
    """``--seed``'s type: a 64-bit whole number, as every save holds (``generator.seed_problem``); anything
    else is refused with the sentence saying what to give."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None
    problem = seed_problem(value)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


def autosave_path() -> Path:
    """The autosave file (written after every decision)."""
    return data_dir() / "autosave.json"


def shipped_maps() -> list[Path]:
    """The battle maps that ship with the game, by name."""
    return sorted(MAPS_DIR.glob("*.tmx"))


def default_roster_for(map_path: Path, loaded: LoadedMap) -> Path:
    """The map's own roster: its ``roster`` property, else ``<map>.roster.toml`` beside it."""
    prop = loaded.properties.get("roster")
    if isinstance(prop, str) and prop:
        return map_path.parent / prop
    return map_path.with_suffix(".roster.toml")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def deployment_figures(loaded: LoadedMap, roster: Roster) -> list[dict[str, Any]]:
    """Every figure of a battle before deployment: the map's ``figure`` objects on their hexes, then the
    roster's ``[[figures]]`` with ``"hex": None`` (still to be placed in their side's deployment zone). A large
    figure placed on the map (FTC 5, the roster's ``footprint``) needs its whole footprint free and passable.
    A figure plays the roster entry that stands in for its character under its name, if there is one
    (``Roster.character_for``: the wounds it carries from its last battle, *Fudge* 4.8)."""
    check_side_names(loaded, roster)
    missing = character_problems(loaded, roster)
    if missing:
        raise SetupError(missing[0])
    figures: list[dict[str, Any]] = []
    used: set[Hex] = set()
    terrain = loaded.terrain
    for i, pf in enumerate(loaded.deployment.figures):
        character = roster.character_for(pf.character, pf.name)
        size = roster.characters[character].footprint
        cells = footprint(pf.hex, size, pf.facing % 6)
        if size != 1 and not all(terrain.is_passable(h) and h not in used for h in cells):
            raise SetupError(
                f"{loaded.path}: figure {pf.name!r} covers {size} hexes around its position, and "
                "some of them are taken or impassable; move it in Tiled to where it has room"
            )
        if not used.isdisjoint(cells):
            raise SetupError(f"{loaded.path}: two figures stand on the same hex ({pf.name!r}); move one in Tiled")
        used |= cells
        figures.append(
            {
                "id": f"f{i + 1}",
                "name": pf.name,
                "side": pf.side,
                "character": character,
                "hex": [pf.hex.q, pf.hex.r],
                "facing": pf.facing,
                "mook": False,
            }
        )
    for rf in roster.figures:
        figures.append(
            {
                "id": f"f{len(figures) + 1}",
                "name": rf.name,
                "side": rf.side,
                "character": roster.character_for(rf.character, rf.name),
                "hex": None,
                "facing": 0,
                "mook": rf.mook,
            }
        )
    return figures


def character_problems(loaded: LoadedMap, roster: Roster) -> list[str]:
    """A sentence for each figure of the map whose character the roster does not have, naming the figure, the
    roster and the fix (with the roster's nearest key when one is close)."""
    out = []
    for pf in loaded.deployment.figures:
        if pf.character not in roster.characters:
            hint = did_you_mean(pf.character, roster.characters)
            out.append(
                f"{loaded.path}: figure {pf.name!r} is the character {pf.character!r}, which the "
                f"roster {roster.source} does not have; {hint + ' ' if hint else ''}add "
                f"[characters.{pf.character}] to the roster or fix the map object's 'character' property"
            )
    return out


def check_side_names(loaded: LoadedMap, roster: Roster) -> None:
    """Refuse a side spelled two ways between the map and the roster ("Bandit" beside "Bandits", "bleu" beside
    "blue"): the battle would silently make a third army. Raises ``SetupError`` naming where each spelling is
    and the fix (the first of ``side_name_problems``)."""
    problems = side_name_problems(loaded, roster)
    if problems:
        raise SetupError(problems[0])


def side_name_problems(loaded: LoadedMap, roster: Roster) -> list[str]:
    """A sentence for each side spelled two ways between the map and the roster (or within the roster),
    naming where each spelling is and the fix; two spellings within the map are the map loader's to refuse."""
    where: dict[str, str] = {}
    for side in loaded.deployment.zones:
        where.setdefault(side, f"{loaded.path.name} (a deploy zone)")
    for pf in loaded.deployment.figures:
        where.setdefault(pf.side, f"{loaded.path.name} (figure {pf.name!r})")
    in_map = set(where)
    for rs in roster.sides:
        where.setdefault(rs.id, f"{roster.source} ([sides.{rs.id}])")
    for rf in roster.figures:
        where.setdefault(rf.side, f"{roster.source} (figure {rf.name!r})")
    return [
        f"the side {second!r} in {where[second]} is a near miss of the side {first!r} in {where[first]}; "
        f"spell one side one way (change it to {first!r}), or rename one if they are two sides"
        for first, second in near_miss_pairs(where)
        if not {first, second} <= in_map
    ]


def unnamed_side_warnings(loaded: LoadedMap, roster: Roster) -> list[str]:
    """A sentence for each side of the map's figures that the roster's ``[sides]`` does not name while it
    names sides: the battle makes it an army of its own, with a made-up name and colour. A side that is a near
    miss of another is told by ``side_name_problems`` instead."""
    named = [s.id for s in roster.sides]
    if not named:
        return []
    out: list[str] = []
    told: set[str] = set()
    for pf in loaded.deployment.figures:
        if pf.side in named or pf.side in told or any(near_miss(pf.side, s) for s in named):
            continue
        told.add(pf.side)
        out.append(
            f"{loaded.path.name}: figure {pf.name!r} is on the side {pf.side!r}, which the roster {roster.source} "
            f"does not name (its sides: {', '.join(named)}), so the battle makes it an army of its own named "
            f"{pf.side.capitalize()!r}; add [sides.{pf.side}] to the roster, or put the figure on one of "
            f"{', '.join(named)}"
        )
    return out


def auto_place(loaded: LoadedMap, side: str, used: set[Hex], name: str = "a figure", size: int = 1) -> tuple[Hex, int]:
    """Where automatic deployment puts the next figure of a side: the first free passable hex of its zone,
    facing the middle of the other sides' zones (``used`` holds the hexes already taken); a large figure
    (FTC 5) goes where its whole footprint fits in the zone."""
    zones = loaded.deployment.zones
    zone = sorted(zones.get(side, frozenset()))
    if not zone:
        raise SetupError(
            f"{loaded.path}: the roster places {name!r} on side {side!r}, but the map has "
            f"no deployment zone for that side; draw a 'deploy' object with side={side}"
        )
    others = [x for s, z in zones.items() if s != side for x in z]
    if size != 1:
        spot = _large_spot(zone, size, others, used, loaded)
        if spot is None:
            raise SetupError(
                f"{loaded.path}: {name!r} covers {size} hexes and its whole footprint fits "
                f"nowhere free in the deployment zone of side {side!r}; make the zone larger "
                "(or place the figure on the map with a 'figure' object)"
            )
        return spot
    free = [h for h in zone if h not in used and loaded.terrain.is_passable(h)]
    if not free:
        raise SetupError(f"{loaded.path}: the deployment zone of side {side!r} is full; make it larger")
    h = free[0]
    target = others[len(others) // 2] if others else h
    return h, (facing_toward(h, target) if target != h else 0)


def _large_spot(
    zone: list[Hex], size: int, others: list[Hex], used: set[Hex], loaded: LoadedMap
) -> tuple[Hex, int] | None:
    """Where a large figure fits in a deployment zone (FTC 5): the first hex, facing the enemy's zone if it
    can (else any facing), whose whole footprint is in the zone, passable and free."""
    inside = set(zone)
    for h in zone:
        target = others[len(others) // 2] if others else h
        first = facing_toward(h, target) if target != h else 0
        for facing in (first, *(f for f in range(6) if f != first)):
            cells = footprint(h, size, facing)
            if cells <= inside and used.isdisjoint(cells) and all(loaded.terrain.is_passable(c) for c in cells):
                return h, facing
    return None


def place_figures(loaded: LoadedMap, roster: Roster) -> list[dict[str, Any]]:
    """Figures from the map's ``figure`` objects, then the roster's ``[[figures]]`` in deployment zones; a
    large figure (FTC 5) takes its whole footprint."""
    placed = deployment_figures(loaded, roster)
    used: set[Hex] = set()
    for f in placed:
        if f["hex"] is not None:
            used |= footprint(Hex(*f["hex"]), roster.characters[f["character"]].footprint, f["facing"] % 6)
    for f in placed:
        if f["hex"] is None:
            size = roster.characters[f["character"]].footprint
            h, facing = auto_place(loaded, f["side"], used, f["name"], size)
            used |= footprint(h, size, facing)
            f["hex"], f["facing"] = [h.q, h.r], facing
    if not placed:
        raise SetupError(
            f"{loaded.path}: no figures: place 'figure' objects on the map or add [[figures]] to the roster"
        )
    return placed


PLACEMENT_KEYS = ("id", "name", "side", "character", "hex", "facing")


def check_placements(
    loaded: LoadedMap, roster: Roster, placements: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Explicit placements (the deployment screen's): each figure on passable hexes of the map (every hex of
    a large figure's footprint, FTC 5), no two on one hex, a character the roster has, a facing 0-5 (FTC 5.2).
    Returns them as save data; a bad one raises a ``SetupError`` naming the figure and the fix."""
    out: list[dict[str, Any]] = []
    taken: dict[Hex, str] = {}
    ids: set[str] = set()
    for i, p in enumerate(placements):
        who = repr(str(p.get("name", p.get("id", f"#{i + 1}")))) if isinstance(p, Mapping) else f"#{i + 1}"
        if not isinstance(p, Mapping):
            raise SetupError(f"placement {who} is not a table; give id, name, side, character, hex and facing")
        missing = [k for k in PLACEMENT_KEYS if k not in p]
        if missing:
            raise SetupError(
                f"figure {who} has no {', '.join(missing)}; give every placed figure " + ", ".join(PLACEMENT_KEYS)
            )
        fid = str(p["id"])
        if fid in ids:
            raise SetupError(f"figure {who}: the id {fid!r} is used twice; give each figure its own id")
        ids.add(fid)
        if str(p["character"]) not in roster.characters:
            raise SetupError(
                f"figure {who} is the character {p['character']!r}, which the roster "
                f"{roster.source} does not have; add [characters.{p['character']}] or pick another"
            )
        raw = p["hex"]
        if raw is None:
            raise SetupError(
                f"figure {who} has not been placed; drag it onto its side's deployment zone or use Auto-deploy"
            )
        try:
            h = Hex(int(raw[0]), int(raw[1]))
            facing = int(p["facing"])
        except (TypeError, ValueError, IndexError, KeyError, OverflowError):
            raise SetupError(
                f"figure {who}: hex {raw!r} / facing {p['facing']!r} are not numbers; give hex as "
                "[q, r] and facing as 0-5"
            ) from None
        if not 0 <= facing <= 5:
            raise SetupError(f"figure {who}: facing {facing} is not a hex side; give 0-5")
        size = roster.characters[str(p["character"])].footprint
        for c in sorted(footprint(h, size, facing)):
            if not loaded.terrain.contains(c):
                raise SetupError(f"figure {who} stands off the map (hex {c.q},{c.r}); place it on the map")
            if not loaded.terrain.is_passable(c):
                raise SetupError(
                    f"figure {who} stands on impassable {loaded.terrain.type_at(c).name} "
                    f"(hex {c.q},{c.r}); move it to a hex it can stand on"
                )
            if c in taken:
                raise SetupError(
                    f"figure {who} stands on the same hex as {taken[c]!r} (hex {c.q},{c.r}); move one of them"
                )
            taken[c] = str(p["name"])
        out.append(
            {
                "id": fid,
                "name": str(p["name"]),
                "side": str(p["side"]),
                "character": str(p["character"]),
                "hex": [h.q, h.r],
                "facing": facing,
                "mook": bool(p.get("mook", False)),
            }
        )
    if not out:
        raise SetupError("no figures are placed; place at least one figure of each of two sides")
    return out


GM_REFEREE = "referee"
"""The GM seat held by a referee who plays no side."""


class SideData(msgspec.Struct, forbid_unknown_fields=True):
    """A side as a save's setup holds it."""

    id: Name
    name: Name
    colour: Name
    controller: Name = "human"


class FigureData(msgspec.Struct, forbid_unknown_fields=True):
    """A placed figure as a save's setup holds it (``check_placements`` checks where it stands)."""

    id: Name
    name: Name
    side: Name
    character: Name
    hex: Hex | None
    facing: Int
    mook: bool = False


class TableData(msgspec.Struct, forbid_unknown_fields=True):
    """What a networked table's host keeps in its save: each seat's token hash (``game.net.table``)."""

    tokens: Annotated[dict[Name, Digest], Meta(max_length=MAX_ITEMS)] = msgspec.field(default_factory=dict)


class SetupData(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A save's ``"setup"`` as a session writes it (docs/architecture.md "One contract at every boundary"): the
    map by path and checksum, the roster as a table, the sides, the placed figures, the rule options and the
    name of their set."""

    map: Text
    roster: Table
    sides: Annotated[list[SideData], Meta(max_length=MAX_ITEMS)]
    figures: Annotated[list[FigureData], Meta(max_length=MAX_ITEMS)]
    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    """The rule options off their default (docs/rulings.md "Rule options"; a missing one is its default)."""
    rules_name: Name = ""
    """The name of the options' set ("Gritty", a GM's rules file); "" for FTC as written or a set of one's own."""
    map_sha256: Digest | None = None
    roster_file: Text | None = None
    seed: int | None = None
    dice: Literal["blake2b", "mt19937"] | None = None
    title: Text | None = None
    gm: Name | None = None
    table: TableData | None = None


def figure_role(roster: Roster, character: str, side: str, mook: bool) -> str:
    """A placed figure's role (docs/rosters.md "Roles"): its character entry's ``role``, else "npc" for a mook
    (a ``[[figures]]`` mook or a character on the "mook" wound track), else its side's ``role``, else "pc".
    Decided from the roster each time the battle is set up, so an older save gets roles too."""
    rs = roster.side(side)
    track = roster.characters[character].wound_track.name if character in roster.characters else ""
    return resolve_role(roster.roles.get(character), mook or track == "mook", rs.role if rs else None)


def build_setup(setup_data: Mapping[str, Any], loaded: LoadedMap | None = None) -> BattleSetup:
    """Rebuild a ``BattleSetup`` from save data (map path, inline roster, placements, sides, options, seed)."""
    try:
        map_path = Path(str(setup_data["map"]))
        loaded = loaded or load_map(map_path)
        roster = parse_roster(setup_data["roster"], f"{map_path.name} (saved roster)")
        sides = tuple(
            SideSetup(str(s["id"]), str(s["name"]), str(s["colour"]), str(s.get("controller", "human")))
            for s in setup_data["sides"]
        )
        figures = tuple(
            FigureSetup(
                str(f["id"]),
                str(f["name"]),
                str(f["side"]),
                roster.characters[str(f["character"])],
                Hex(int(f["hex"][0]), int(f["hex"][1])),
                int(f["facing"]) % 6,
                mook=bool(f.get("mook")),
                role=figure_role(roster, str(f["character"]), str(f["side"]), bool(f.get("mook"))),
                fudge_points=roster.fudge_points.get(str(f["character"])),
            )
            for f in setup_data["figures"]
        )
        options = RuleOptions.from_json(setup_data.get("options", {}))
        unplayed = unready_sentence(options)
        if unplayed is not None:
            raise SetupError(f"the battle's rule options: {unplayed}")
        gm_seat = setup_data.get("gm")  # A side id, "referee", or absent (no GM)
        if gm_seat is not None and gm_seat != "referee" and gm_seat not in {s.id for s in sides}:
            raise SetupError(f"the GM's seat {gm_seat!r} is not a side of this battle; choose a side or 'referee'")
        return BattleSetup(
            loaded.terrain,
            sides,
            figures,
            options,
            int(setup_data["seed"]),
            str(setup_data.get("title", "")),
            None if gm_seat is None else str(gm_seat),
            str(setup_data.get("dice") or LEGACY_DICE),
            str(setup_data.get("rules_name", "")),
        )
    except (KeyError, TypeError, IndexError, ValueError, OverflowError) as exc:
        if isinstance(exc, SetupError | RosterError):
            raise
        raise SetupError(f"the battle setup is incomplete or damaged ({exc!r})") from None


@runtime_checkable
class BattleSession(Protocol):
    """A battle in play as the battle screen plays it: the local ``Session`` (hotseat, the GM's seat, the
    computer players) and a seat at a networked table (``game.net.remote.RemoteSession``) both are one,
    so that the screen's every call is checked the same way for both."""

    setup_data: dict[str, Any]
    """The setup as saved (its ``title``, ``roster``, ``roster_file``, ``gm`` ...)."""
    save_errors: list[str]
    """Autosave failures not yet shown (the screen shows the last and clears them)."""

    @property
    def battle(self) -> Battle:
        """The battle as this screen may see it (replaced on undo, load or a table's rebuild)."""
        ...

    @property
    def loaded(self) -> LoadedMap | None:
        """The Tiled map the battle is played on (None at a table: the host has it)."""
        ...

    def apply(self, action: Action, seat: Seat) -> list[Event]:
        """Take a decision from ``seat``: its events, or ``IllegalAction`` with a sentence (nothing changed)."""
        ...

    def rewind(self, battle: Battle) -> None:
        """Go back to an earlier state of this battle (a player's undo); ``IllegalAction`` with a sentence where
        decisions cannot be taken back."""
        ...

    def write_autosave(self) -> None:
        """Bring the autosave up to the last decision (failures go to ``save_errors``)."""
        ...

    def save(self, path: str | Path) -> None:
        """Save the battle's log to ``path`` (``record.SaveError`` with a sentence when it cannot)."""
        ...

    def aftercare(self) -> Aftercare:
        """The healing between battles of this battle (*Fudge* 4.8)."""
        ...


@dataclass
class Session:
    """One battle being played: the engine battle plus what is needed to save and rebuild it (a
    ``BattleSession``)."""

    battle: Battle
    setup_data: dict[str, Any]
    loaded: LoadedMap
    autosave: Path | None = field(default_factory=autosave_path)
    save_errors: list[str] = field(default_factory=list)
    kept_care: Aftercare | None = field(default=None, repr=False)
    """The after-battle healing (``game.aftercare.Aftercare``) once the summary has been opened."""
    notes: list[str] = field(default_factory=list)
    """What loading the save had to say (its map found elsewhere, where today's rules part from it)."""

    def aftercare(self) -> Aftercare:
        """The healing between battles of this finished battle (*Fudge* 4.8), kept for the rest of the
        battle: reopening "After the battle…" shows the care, treatment and rest already done instead of
        letting the GM roll them again. A new battle object (undo, load) starts its own."""
        from game.aftercare import Aftercare

        if self.kept_care is None or self.kept_care.battle is not self.battle:
            self.kept_care = Aftercare(self.battle)
        return self.kept_care

    def apply(self, action: Action, seat: Seat) -> list[Event]:
        """Apply a decision taken from ``seat`` through the battle's door (a wrong seat or an illegal decision
        raises ``IllegalAction`` and leaves everything unchanged), then bring the autosave up to it: quitting
        at any moment (menu, window close, a crash) loses no decision. A decision its save could not hold is
        refused first (``actions.check_action``): the autosave always loads."""
        try:
            check_action(action)
        except codec.CodecError as exc:
            raise IllegalAction(f"That decision cannot be saved: {exc.problem}.") from None
        events = apply(self.battle, action, seat)
        self.write_autosave()
        return events

    def write_autosave(self) -> None:
        """Write the autosave; a failure is remembered for the screen, never raised into the game."""
        if self.autosave is None:
            return
        try:
            self.save(self.autosave)
        except record.SaveError as exc:
            self.save_errors.append(str(exc))

    def save(self, path: str | Path) -> None:
        """Save the battle's log (atomic)."""
        record.save(path, self.battle, {**self.setup_data, "seed": self.battle.setup.seed})

    def rewind(self, battle: Battle) -> None:
        """Go back to ``battle``, an earlier state of this one (the screen's undo, which may take back a
        player's decision with the computers' since); the autosave follows, as after ``undo``."""
        self.battle = battle
        self.write_autosave()

    def undo(self) -> None:
        """Take back the last decision if it rolled no dice (raises ``IllegalAction`` otherwise); the
        autosave follows, so Continue does not bring the taken-back decision back."""
        self.battle = record.undo(self.battle)
        self.write_autosave()


def new_session(
    map_path: str | Path | None = None,
    roster_path: str | Path | None = None,
    *,
    seed: int | None = None,
    controllers: Mapping[str, str] | None = None,
    options: RuleOptions | None = None,
    rules_name: str = "",
    autosave: Path | bool | None = True,
    placements: Sequence[Mapping[str, Any]] | None = None,
    gm: str | None = None,
    dice: str = KEYED_DICE,
) -> Session:
    """Start a battle on a map (default: the first shipped map) with a roster (default: the map's own).

    ``placements``: the figures as the deployment screen placed them (id, name, side, character, hex [q, r],
    facing, mook; checked by ``check_placements``); None places them as ``place_figures`` does.
    ``options``, ``rules_name``: the rule options and the name of their set (a preset's, a GM's rules file's).
    ``gm``: who holds the GM's seat: None, ``"referee"`` or the id of a side whose player is the GM;
    kept as ``setup_data["gm"]``. ``seed``: None makes a fresh 63-bit one (``generator.new_seed``); a given
    seed must be a 64-bit whole number, as every save holds. ``dice``: the generator's kind
    (``game.engine.generator``; the legacy kind only to rebuild battles of old saves).
    """
    if seed is not None and seed_problem(seed) is not None:
        raise SetupError(f"{seed_problem(seed)}; give another --seed")
    mp = find_map(map_path) if map_path else DEFAULT_MAP
    loaded = load_map(mp)
    rp = Path(roster_path) if roster_path else default_roster_for(mp, loaded)
    roster = load_roster(rp)
    placed = place_figures(loaded, roster) if placements is None else check_placements(loaded, roster, placements)
    side_ids: list[str] = []
    for f in placed:
        if f["side"] not in side_ids:
            side_ids.append(f["side"])
    if len(side_ids) < 2:
        raise SetupError(f"{mp}: a battle needs figures of at least two sides; found only {side_ids}")
    if gm is not None and gm != GM_REFEREE and gm not in side_ids:
        raise SetupError(
            f"{mp}: the GM seat {gm!r} is neither {GM_REFEREE!r} nor a side of this battle "
            f"({', '.join(side_ids)}); choose one of those or no GM"
        )
    sides = []
    for i, sid in enumerate(side_ids):
        rs = roster.side(sid)
        controller = (controllers or {}).get(sid) or (rs.controller if rs else "human")
        sides.append(
            {
                "id": sid,
                "name": rs.name if rs else sid.capitalize(),
                "colour": rs.colour if rs else ("#2f6fd0", "#c83232", "#2e9e4f", "#d9a520")[i % 4],
                "controller": controller,
            }
        )
    if seed is None:
        seed = new_seed()
    setup_data: dict[str, Any] = {
        "map": str(mp.resolve()),
        "map_sha256": _sha256(mp),
        "roster": dict(roster.data),
        "roster_file": str(rp.resolve()),
        "sides": sides,
        "figures": placed,
        "options": (options or RuleOptions()).to_json(),
        **({"rules_name": rules_name} if rules_name else {}),
        "seed": seed,
        "dice": dice,
        "title": str(loaded.properties.get("name", mp.stem.replace("_", " ").title())),
        "gm": gm,
    }
    battle = Battle(build_setup(setup_data, loaded))
    where = autosave_path() if autosave is True else (autosave or None)
    session = Session(battle, setup_data, loaded, where if isinstance(where, Path) else None)
    session.write_autosave()
    return session


def map_of_save(save_path: str | Path, setup_data: Mapping[str, Any]) -> tuple[Path, str | None]:
    """The map a save names, by path and checksum: its path when that file exists, else the map with its
    checksum beside the save or among the shipped maps (a map of the same file name first), with the sentence
    saying which one was used.
    ``SaveError`` when neither is there."""
    mp = Path(str(setup_data.get("map", "")))
    if mp.is_file():
        return mp, None
    wanted = setup_data.get("map_sha256")
    save_dir = Path(save_path).resolve().parent
    beside, shipped = sorted(save_dir.glob("*.tmx")), shipped_maps()
    candidates = [c for group in (beside, shipped) for c in sorted(group, key=lambda c: c.name != mp.name)]
    for candidate in candidates:
        if isinstance(wanted, str) and _sha256(candidate) == wanted:
            note = f"Its map {mp} is gone; the battle uses {candidate}, which is the same map (the same checksum)."
            return candidate, note
    if not isinstance(wanted, str):
        raise record.SaveError(
            f"{save_path}: its map {mp} cannot be found and the save names no checksum to find it by; "
            "put the map back where it was"
        )
    raise record.SaveError(
        f"{save_path}: its map {mp} cannot be found, and no shipped map nor any map beside the save has its "
        "checksum; put the map back where it was or beside the save"
    )


def load_session(save_path: str | Path, *, autosave: bool = True, strict: bool = False) -> Session:
    """Load a saved battle: read the log, find its map and replay it with the dice checked. With
    ``autosave`` the autosave is written at once: the loaded battle is now the one Continue resumes.

    The save is decoded strictly (``record.load``, its setup against ``SetupData``) and its figures are checked
    as the deployment screen's placements are, before any of it is used; every problem is a ``SaveError``
    naming the file. A save played under other rules (another rules revision, or one written before saves
    recorded it) is replayed under today's rules as far as both agree and goes on from there, the sentence
    saying so in ``notes`` (``strict``: refused with that sentence instead, as ``replay --verify`` does); a save
    of today's rules that does not replay is refused."""
    rec = record.load(save_path, SetupData)
    setup_data = dict(rec.setup)
    setup_data["seed"] = rec.seed
    setup_data["dice"] = rec.dice
    notes: list[str] = []
    mp, found = map_of_save(save_path, setup_data)
    if found is not None:
        notes.append(found)
        setup_data["map"] = str(mp.resolve())
    try:
        loaded = load_map(mp)
    except MapLoadError as exc:
        raise record.SaveError(f"{save_path}: its map cannot be loaded: {exc}") from None
    try:
        roster = parse_roster(setup_data["roster"], f"{mp.name} (saved roster)")
        check_placements(loaded, roster, setup_data["figures"])
        setup = build_setup(setup_data, loaded)
    except (SetupError, RosterError) as exc:
        raise record.SaveError(f"{save_path}: {exc}") from None
    try:
        battle, parting = record.replay_agreeing(
            setup, rec.actions, digests=rec.digests, initial_digest=rec.initial_digest
        )
    except record.ReplayMismatch as exc:
        raise record.SaveError(f"{save_path}: the battle does not replay: {exc}") from None
    if parting is not None:
        changed = setup_data.get("map_sha256") not in (None, _sha256(mp))
        hint = " (the map file has changed since the save)" if changed else ""
        if rec.rules_revision == RULES_REVISION:  # the same rules: an edited save, other data or another map
            raise record.SaveError(
                f"{save_path}: the battle does not replay{hint}: {parting.where()}, {parting.differs} "
                "(different dice, rules or data)"
            )
        if strict:
            reason = parting.sentence(record.written_by(rec), goes_on=False)
            raise record.SaveError(f"{save_path}: the battle does not replay roll for roll{hint}: {reason}")
        notes.append(parting.sentence(record.written_by(rec)) + hint)
    elif rec.rules_revision != RULES_REVISION:  # other rules that agree here: still say who wrote it
        notes.append(record.agreeing(record.written_by(rec)))
    session = Session(battle, setup_data, loaded, autosave_path() if autosave else None, notes=notes)
    if autosave and Path(save_path).resolve() != autosave_path().resolve():
        session.write_autosave()
    return session
