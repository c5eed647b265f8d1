"""Everything that happened in a battle, as data (docs/architecture.md "Decisions are data").

Events carry every number a player would want to check: dice faces, each named modifier, results,
relative degree, damage factors, the wound box marked. ``text()`` gives the combat log's sentence;
``figures`` names the figures an entry concerns (the log highlights them when clicked).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from game.engine.blow_step import BlowStep as BlowStep
from game.engine.event_base import Event as Event
from game.engine.event_base import FigureEvent as FigureEvent
from game.engine.event_base import Mods as Mods
from game.engine.event_base import faces_text as _faces
from game.engine.event_base import mods_text as _mods
from game.engine.event_base import name_of as _n
from game.engine.event_base import steps_text as _steps
from game.engine.events_heroes import FudgePointKept as FudgePointKept
from game.engine.events_heroes import FudgePointOrderSet as FudgePointOrderSet
from game.engine.events_heroes import FudgePointSpent as FudgePointSpent
from game.engine.events_heroes import WillAgainstPain as WillAgainstPain
from game.engine.events_options import GroupRoll as GroupRoll
from game.engine.events_options import SpeedContest as SpeedContest
from game.engine.events_options import Stunned as Stunned
from game.engine.hexgrid import Hex
from game.engine.ladder import level_name


@dataclass(frozen=True)
class RoundBegan(Event):
    """FTC 3: a new round of about three seconds begins."""

    kind: ClassVar[str] = "round_began"
    round: int

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"— Round {self.round} —"


@dataclass(frozen=True)
class PhaseBegan(Event):
    """FTC 3: the initiative, movement or attack phase begins."""

    kind: ClassVar[str] = "phase_began"
    round: int
    phase: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{self.phase.capitalize()} phase, round {self.round}"


@dataclass(frozen=True)
class InitiativeRolled(Event):
    """FTC 4: a Speed roll for initiative (a group of mooks rolls once)."""

    kind: ClassVar[str] = "initiative_rolled"
    figure: str
    speed: int
    faces: tuple[int, ...]
    result: int
    group: tuple[str, ...] = ()

    @property
    def figures(self) -> tuple[str, ...]:
        return self.group or (self.figure,)

    def text(self, names: dict[str, str] | None = None) -> str:
        who = ", ".join(_n(names, f) for f in self.figures)
        return f"{who}: initiative Speed {level_name(self.speed)} {_faces(self.faces)} = {level_name(self.result)}"


@dataclass(frozen=True)
class InitiativeOrder(Event):
    """FTC 4: the order for this round, best first (ties by Speed, Agility, Perception, then a coin)."""

    kind: ClassVar[str] = "initiative_order"
    order: tuple[str, ...]
    coin_flips: int = 0

    @property
    def figures(self) -> tuple[str, ...]:
        return self.order

    def text(self, names: dict[str, str] | None = None) -> str:
        return "Initiative: " + ", ".join(_n(names, f) for f in self.order)


@dataclass(frozen=True)
class Moved(FigureEvent):
    """FTC 5: a figure moved along a path (cost in hexes with its breakdown)."""

    kind: ClassVar[str] = "moved"
    path: tuple[Hex, ...]
    facing: int
    cost: int
    allowance: int
    reason: str = "move"

    def text(self, names: dict[str, str] | None = None) -> str:
        why = "" if self.reason == "move" else f" ({self.reason})"  # a plain move needs no reason given
        if len(self.path) <= 1:
            return f"{_n(names, self.figure)} stays put{why}"
        n = len(self.path) - 1
        return (
            f"{_n(names, self.figure)} moves {n} hex{'' if n == 1 else 'es'}{why}, cost {self.cost} of {self.allowance}"
        )


@dataclass(frozen=True)
class Held(FigureEvent):
    """FTC 5: a figure holds its movement."""

    kind: ClassVar[str] = "held"

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} holds"


@dataclass(frozen=True)
class Forfeited(FigureEvent):
    """FTC 5: a held figure does not use its movement at the end of the phase."""

    kind: ClassVar[str] = "forfeited"

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} forfeits its held move"


@dataclass(frozen=True)
class StopDecided(Event):
    """FTC 5.2: a zone's owner chose whether to stop a figure leaving its zone."""

    kind: ClassVar[str] = "stop_decided"
    concerns: ClassVar[tuple[str, ...]] = ("stopper", "mover")
    stopper: str
    mover: str
    stop: bool

    def text(self, names: dict[str, str] | None = None) -> str:
        verb = "tries to stop" if self.stop else "lets pass"
        return f"{_n(names, self.stopper)} {verb} {_n(names, self.mover)}"


@dataclass(frozen=True)
class EscapeContest(Event):
    """FTC 5.3: the mover's Agility against each stopper's combat skill, one roll each."""

    kind: ClassVar[str] = "escape_contest"
    mover: str
    at: Hex
    mover_level: int
    mover_mods: Mods
    mover_faces: tuple[int, ...]
    mover_result: int
    stoppers: tuple[str, ...]
    stopper_levels: tuple[int, ...]
    stopper_mods: tuple[Mods, ...]
    stopper_faces: tuple[tuple[int, ...], ...]
    stopper_results: tuple[int, ...]
    escaped: bool

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.mover, *self.stoppers)

    def text(self, names: dict[str, str] | None = None) -> str:
        parts = [
            f"{_n(names, self.mover)} tries to escape: Agility {level_name(self.mover_level)}"
            f"{_mods(self.mover_mods)} {_faces(self.mover_faces)} = {level_name(self.mover_result)}"
        ]
        for sid, lv, mods, faces, res in zip(
            self.stoppers, self.stopper_levels, self.stopper_mods, self.stopper_faces, self.stopper_results, strict=True
        ):
            parts.append(f"vs {_n(names, sid)} {level_name(lv)}{_mods(mods)} {_faces(faces)} = {level_name(res)}")
        return "; ".join(parts) + (" — escapes" if self.escaped else " — held")


@dataclass(frozen=True)
class EscapeFailed(Event):
    """FTC 5.3: the mover lost and stays (his move ends) or turns tail and runs."""

    kind: ClassVar[str] = "escape_failed"
    concerns: ClassVar[tuple[str, ...]] = ("mover",)
    mover: str
    run: bool

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.mover)} " + ("turns tail and runs!" if self.run else "stays, held in place")


@dataclass(frozen=True)
class Declared(Event):
    """FTC 6.1: a declaration (hidden until revealed under the secret-stances option)."""

    kind: ClassVar[str] = "declared"
    figure: str
    stance: str
    targets: tuple[str, ...]
    dodge: tuple[str, ...]
    weapon: str
    second_move: bool = False
    hidden: bool = False
    stun: bool = False
    """*Fudge* 4.62: the blow goes for stun (with ``max_wound``, a pulled blow; ``ignore``, *Fudge* 4.34's enemies
    left undefended): each left out of the JSON when unused, withheld with the rest before a reveal."""
    max_wound: str | None = None
    ignore: tuple[str, ...] = ()
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("stun", "max_wound", "ignore")
    """The rule options' fields, only when used (older battles keep their digest)."""

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.figure, *self.targets)

    def text(self, names: dict[str, str] | None = None) -> str:
        who = _n(names, self.figure)
        if self.hidden:
            return f"{who} has declared (secret until revealed)"
        if self.second_move:
            return f"{who} neither attacks nor defends: second move"
        dodge = f", dodging {', '.join(_n(names, d) for d in self.dodge)}" if self.dodge else ""
        dodge += f", ignoring {', '.join(_n(names, d) for d in self.ignore)}" if self.ignore else ""
        stance = f"{who}: {self.stance.replace('_', ' ')} stance"
        if not self.targets:  # FTC 6.1: a figure with no target only defends
            return f"{stance}, no attack: defends with {self.weapon}{dodge}"
        tgt = ", ".join(_n(names, t) for t in self.targets)
        how = " to stun" if self.stun else ""
        how += f", pulling the blow to {self.max_wound} at most" if self.max_wound else ""
        return f"{stance}, attacks {tgt} with {self.weapon}{how}{dodge}"


@dataclass(frozen=True)
class Stepped(FigureEvent):
    """FTC 6.2: attack-phase movement: advance, retreat, follow, or turning in place."""

    kind: ClassVar[str] = "stepped"
    origin: Hex
    to: Hex
    facing: int
    reason: str

    def text(self, names: dict[str, str] | None = None) -> str:
        if self.reason == "dive":
            return f"{_n(names, self.figure)} dives for the ground (very defensive against missiles, FTC 6.2)"
        if self.origin == self.to:
            return f"{_n(names, self.figure)} turns in place ({self.reason})"
        return f"{_n(names, self.figure)} steps ({self.reason})"


@dataclass(frozen=True)
class CombatRoll(FigureEvent):
    """FTC 6.3: the figure's one 4dF roll for the round. ``source``: where a roll that is not the figure's own
    came from (``"npc_zero"``: an NPC pawn rolling nothing, *Fudge* 4.33; ``"npc_group"``: its side's shared
    roll, *Fudge* 4.34); empty (and left out of the JSON) for the figure's own dice."""

    kind: ClassVar[str] = "combat_roll"
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("source",)
    faces: tuple[int, ...]
    source: str = ""

    def text(self, names: dict[str, str] | None = None) -> str:
        if self.source == "npc_zero":
            return f"{_n(names, self.figure)} rolls nothing: an NPC's result is its level (Fudge 4.33)"
        shared = " with its side (Fudge 4.34)" if self.source == "npc_group" else ""
        return f"{_n(names, self.figure)} rolls {_faces(self.faces)} = {sum(self.faces):+d}{shared}"


@dataclass(frozen=True)
class AttackResolved(Event):
    """FTC 6.4–7: one attack with every term: offence, defences, difficulty, degree, location, damage."""

    kind: ClassVar[str] = "attack"
    concerns: ClassVar[tuple[str, ...]] = ("attacker", "target")
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("steps",)
    attacker: str
    target: str
    weapon: str
    skill: int
    roll: int
    offence_mods: Mods
    offence: int
    defence: int | None
    defence_mods: Mods
    other_defences: tuple[tuple[str, int], ...]
    difficulty: int
    hit: bool
    relative_degree: int
    location: str = "torso"
    offensive_factors: Mods = ()
    defensive_factors: Mods = ()
    damage: int = 0
    wound: str | None = None
    free_attack: bool = False
    stray: bool = False
    steps: tuple[BlowStep, ...] = ()
    """The attacker's side of the blow's way (``game.engine.blow`` S4–S7) where a rule option changed the
    number or the level; ``damage`` and ``wound`` are the final ones."""

    def text(self, names: dict[str, str] | None = None) -> str:
        a, t = _n(names, self.attacker), _n(names, self.target)
        head = "Free attack: " if self.free_attack else ("Stray shot: " if self.stray else "")
        line = (
            f"{head}{a} → {t} ({self.weapon}): {level_name(self.skill)} {self.roll:+d}"
            f"{_mods(self.offence_mods)} = {level_name(self.offence)}"
        )
        if self.defence is not None:
            line += f" vs {level_name(self.defence)}{_mods(self.defence_mods)}"
        else:
            line += " unopposed"
        for other, res in self.other_defences:
            line += f", also must beat {_n(names, other)}'s {level_name(res)}"
        line += f"; difficulty {level_name(self.difficulty)}"
        if not self.hit:
            return line + " — miss"
        line += f" — HIT ({self.location}) degree {self.relative_degree:+d}"
        factors = _mods(self.offensive_factors) + "".join(
            f" -{v} {n}" if v >= 0 else f" +{-v} {n}" for n, v in self.defensive_factors if v
        )
        # with rule options' steps: the calculated damage (FTC 7), then each step to the final number
        off, dfn = (sum(v for _, v in fs) for fs in (self.offensive_factors, self.defensive_factors))
        shown = self.relative_degree + off - dfn if self.steps else self.damage
        line += f", damage {shown} ({self.relative_degree:+d}{factors}){_steps(self.steps)}"
        if self.wound:
            line += f": {self.wound}"
        return line


@dataclass(frozen=True)
class AttackLapsed(Event):
    """FTC 6.2: a declared melee attack that is not made: the target was never in reach at any point along
    the two figures' movement (under secret stances, an advance blocked at the reveal; *Fudge* 4.32)."""

    kind: ClassVar[str] = "attack_lapsed"
    concerns: ClassVar[tuple[str, ...]] = ("attacker", "target")
    attacker: str
    target: str
    reason: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.attacker)} cannot strike {_n(names, self.target)}: {self.reason}"


@dataclass(frozen=True)
class StrayShot(Event):
    """FTC 6.5.3: after a miss, a situational roll decides whether someone on the line is hit."""

    kind: ClassVar[str] = "stray_shot"
    firer: str
    target: str
    faces: tuple[int, ...]
    friends: tuple[str, ...]
    enemies: tuple[str, ...]
    victim: str | None

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.firer, self.target) + ((self.victim,) if self.victim else ())

    def text(self, names: dict[str, str] | None = None) -> str:
        base = (
            f"{_n(names, self.firer)}'s missed shot: situational {_faces(self.faces)} = {sum(self.faces):+d} "
            f"({len(self.friends)} friend(s), {len(self.enemies)} enemy(ies) on the line)"
        )
        return base + (f" — hits {_n(names, self.victim)}!" if self.victim else " — hits nobody")


@dataclass(frozen=True)
class StrayDodge(Event):
    """FTC 6.5.3: the victim of a stray shot who declared a dodge against the firer dodges it at +3 (his
    Agility, his one roll of the round and his dodge modifiers); the shot lands only if the firer's result
    beats it."""

    kind: ClassVar[str] = "stray_dodge"
    concerns: ClassVar[tuple[str, ...]] = ("figure", "firer")
    figure: str
    firer: str
    dodge: int
    modifiers: Mods
    dodged: bool

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} dodges the stray shot: {level_name(self.dodge)}{_mods(self.modifiers)}" + (
            " — dodged" if self.dodged else " — struck"
        )


@dataclass(frozen=True)
class Disarmed(FigureEvent):
    """FTC 6.6: a hit on the weapon hand disarms; the weapon is dropped for the rest of the battle (the GM
    may hand it back with Edit gear), and ``ready`` is the weapon now in hand."""

    kind: ClassVar[str] = "disarmed"
    weapon: str
    ready: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} is disarmed: drops the {self.weapon} and fights on with the {self.ready}"


@dataclass(frozen=True)
class Wounded(FigureEvent):
    """FTC 7.3–7.4, Fudge 4.57: a wound after the Health roll, and the box it was recorded in."""

    kind: ClassVar[str] = "wounded"
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("steps", "trait")
    damage: int
    level: str
    health_faces: tuple[int, ...]
    health_result: int
    after_health: str
    box: str
    crippled: str | None = None
    steps: tuple[BlowStep, ...] = ()
    """The defender's side of the blow's way (``game.engine.blow`` S8–S13) where a rule option changed the
    level or the mark."""
    trait: str = ""
    """The trait the defender's roll was made on when a rule option replaces FTC 7.4's Health roll (*Fudge*
    4.52: "Damage Capacity", "Health" or "Will"); empty under FTC 7.4."""

    def text(self, names: dict[str, str] | None = None) -> str:
        roll = (
            f"{self.trait or 'Health'} {_faces(self.health_faces)} = {level_name(self.health_result)}"
            if self.health_faces or not self.trait
            else f"no {self.trait} roll"
        )
        line = f"{_n(names, self.figure)}: {self.level} (damage {self.damage}); {roll}"
        if self.after_health != self.level:
            line += f" → {self.after_health}"
        line += _steps(self.steps)
        line += f"; box marked: {self.box}"
        if self.crippled:
            line += f"; {self.crippled} crippled"
        return line


@dataclass(frozen=True)
class WoundsCarried(FigureEvent):
    """*Fudge* 4.8: a figure starts the battle with the wounds its character carries from an earlier one."""

    kind: ClassVar[str] = "wounds_carried"
    wounds: tuple[str, ...]
    condition: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return (
            f"{_n(names, self.figure)} carries wounds from an earlier battle: {', '.join(self.wounds)} "
            f"({self.condition})"
        )


@dataclass(frozen=True)
class TakenOut(FigureEvent):
    """FTC 6.4: after all damage of the round is applied, figures unable to act leave the fight."""

    kind: ClassVar[str] = "taken_out"
    condition: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} is out of the fight ({self.condition})"


@dataclass(frozen=True)
class StandingOrderSet(FigureEvent):
    """docs/rulings.md "Standing orders": a figure's standing order for stopping enemies changed."""

    kind: ClassVar[str] = "standing_order"
    order: str

    def text(self, names: dict[str, str] | None = None) -> str:
        what = {"always": "always stop", "never": "never stop", "ask": "ask before stopping"}[self.order]
        return f"{_n(names, self.figure)} will {what} enemies"


@dataclass(frozen=True)
class Revealed(Event):
    """Secret stances (Fudge 4.32): all declarations are shown together."""

    kind: ClassVar[str] = "revealed"

    def text(self, names: dict[str, str] | None = None) -> str:
        return "Declarations revealed"


@dataclass(frozen=True)
class BattleEnded(Event):
    """The battle is over: at most one side can fight, or a side yielded."""

    kind: ClassVar[str] = "battle_ended"
    winner: str | None
    reason: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"Battle over: {self.reason}"


# ---------------------------------------------------------------------------------------------------
# Magic in combat (FTC 8)
# ---------------------------------------------------------------------------------------------------


def _aim(names: dict[str, str] | None, target: str | None, hex_: Hex | None) -> str:
    if target:
        return f" on {_n(names, target)}"
    if hex_ is not None:
        return f" at hex ({hex_[0]}, {hex_[1]})"
    return ""


@dataclass(frozen=True)
class CastingBegan(Event):
    """FTC 8.1: a figure declares a spell; ``rounds`` is its casting time in rounds (1: this round)."""

    kind: ClassVar[str] = "casting_began"
    caster: str
    spell: str
    target: str | None
    hex: Hex | None
    rounds: int
    resolves: str

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.caster,) + ((self.target,) if self.target else ())

    def text(self, names: dict[str, str] | None = None) -> str:
        when = {
            "declaration": "at once (1 second)",
            "attack": "with the attacks",
            "last_round": f"over {self.rounds} rounds, concentrating",
        }[self.resolves]
        return f"{_n(names, self.caster)} casts {self.spell}{_aim(names, self.target, self.hex)} {when}"


@dataclass(frozen=True)
class CastingContinued(Event):
    """FTC 8.1: a concentrating caster goes on casting; the spell takes effect when ``rounds_left`` is 1."""

    kind: ClassVar[str] = "casting_continued"
    concerns: ClassVar[tuple[str, ...]] = ("caster",)
    caster: str
    spell: str
    rounds_left: int

    def text(self, names: dict[str, str] | None = None) -> str:
        more = "takes effect this round" if self.rounds_left <= 1 else f"{self.rounds_left} rounds to go"
        return f"{_n(names, self.caster)} keeps concentrating on {self.spell} ({more})"


@dataclass(frozen=True)
class SpellCast(Event):
    """FTC 8.1, 8.3: the casting roll: skill + the caster's roll + table 7's modifiers against the spell's
    difficulty; for a bolt, ``defence`` is the target's dodge and ``landed`` whether it got through."""

    kind: ClassVar[str] = "spell_cast"
    caster: str
    spell: str
    target: str | None
    hex: Hex | None
    skill: int
    faces: tuple[int, ...]
    modifiers: Mods
    result: int
    difficulty: int
    success: bool
    defence: int | None = None
    defence_mods: Mods = ()
    landed: bool = False

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.caster,) + ((self.target,) if self.target else ())

    def text(self, names: dict[str, str] | None = None) -> str:
        line = (
            f"{_n(names, self.caster)} casts {self.spell}{_aim(names, self.target, self.hex)}: "
            f"{level_name(self.skill)} {_faces(self.faces)}{_mods(self.modifiers)} = "
            f"{level_name(self.result)} vs {level_name(self.difficulty)}"
        )
        if not self.success:
            return line + " — the spell fails"
        if self.defence is not None:
            line += f"; dodge {level_name(self.defence)}{_mods(self.defence_mods)}"
            return line + (" — it strikes" if self.landed else " — dodged")
        return line + " — success"


@dataclass(frozen=True)
class TouchAttack(Event):
    """FTC 8.3: the touch of a touch spell: Agility or a melee skill + the roll, no damage of its own."""

    kind: ClassVar[str] = "touch_attack"
    concerns: ClassVar[tuple[str, ...]] = ("caster", "target")
    caster: str
    target: str
    spell: str
    skill: int
    roll: int
    offence_mods: Mods
    offence: int
    defence: int | None
    defence_mods: Mods
    difficulty: int
    hit: bool

    def text(self, names: dict[str, str] | None = None) -> str:
        line = (
            f"{_n(names, self.caster)} reaches to touch {_n(names, self.target)} ({self.spell}): "
            f"{level_name(self.skill)} {self.roll:+d}{_mods(self.offence_mods)} = {level_name(self.offence)}"
        )
        if self.defence is not None:
            line += f" vs {level_name(self.defence)}{_mods(self.defence_mods)}"
        return line + (" — touched" if self.hit else " — no touch, the spell is lost")


@dataclass(frozen=True)
class SpellResisted(Event):
    """A resisted spell (data: ``resist``): the target's Will or Health roll against the casting result."""

    kind: ClassVar[str] = "spell_resisted"
    concerns: ClassVar[tuple[str, ...]] = ("figure", "caster")
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("modifiers",)
    figure: str
    caster: str
    spell: str
    attribute: str
    level: int
    faces: tuple[int, ...]
    result: int
    casting: int
    resisted: bool
    modifiers: Mods = ()
    """The GM's modifiers on the target's roll (*Fudge* 4.1), counted in ``result``."""

    def text(self, names: dict[str, str] | None = None) -> str:
        return (
            f"{_n(names, self.figure)} resists {self.spell} with {self.attribute.capitalize()} "
            f"{level_name(self.level)} {_faces(self.faces)}{_mods(self.modifiers)} = {level_name(self.result)} vs "
            f"{level_name(self.casting)} — " + ("resisted" if self.resisted else "it takes hold")
        )


@dataclass(frozen=True)
class SpellRecognised(Event):
    """FTC 8.2: a Thaumatology roll while declaring, to identify a spell being cast at the figure."""

    kind: ClassVar[str] = "spell_recognised"
    concerns: ClassVar[tuple[str, ...]] = ("figure", "caster")
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("modifiers",)
    figure: str
    caster: str
    spell: str
    skill: int
    faces: tuple[int, ...]
    result: int
    difficulty: int
    success: bool
    modifiers: Mods = ()
    """FTC 9.2: e.g. a greathelm's obscured vision."""

    def text(self, names: dict[str, str] | None = None) -> str:
        head = (
            f"{_n(names, self.figure)} watches {_n(names, self.caster)}'s casting: Thaumatology "
            f"{level_name(self.skill)} {_faces(self.faces)}{_mods(self.modifiers)} = {level_name(self.result)} vs "
            f"{level_name(self.difficulty)}"
        )
        return head + (f" — recognises {self.spell}" if self.success else " — does not recognise the spell")


@dataclass(frozen=True)
class ConcentrationRolled(Event):
    """FTC 8.1: a concentrating caster's Willpower roll (Good when forced to dodge, Great when damaged)."""

    kind: ClassVar[str] = "concentration_rolled"
    concerns: ClassVar[tuple[str, ...]] = ("caster",)
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("modifiers",)
    caster: str
    spell: str
    reason: str
    will: int
    faces: tuple[int, ...]
    result: int
    difficulty: int
    kept: bool
    modifiers: Mods = ()
    """The GM's modifiers on the caster's roll (*Fudge* 4.1), counted in ``result``."""

    def text(self, names: dict[str, str] | None = None) -> str:
        why = "forced to dodge" if self.reason == "dodge" else "damaged"
        return (
            f"{_n(names, self.caster)} ({why}) keeps concentrating on {self.spell}? Will "
            f"{level_name(self.will)} {_faces(self.faces)}{_mods(self.modifiers)} = {level_name(self.result)} vs "
            f"{level_name(self.difficulty)} — " + ("kept" if self.kept else "lost")
        )


@dataclass(frozen=True)
class ConcentrationBroken(Event):
    """FTC 8.1: a spell of several rounds is lost (a failed Will roll, the caster moved, abandoned it, or
    could no longer cast it)."""

    kind: ClassVar[str] = "concentration_broken"
    concerns: ClassVar[tuple[str, ...]] = ("caster",)
    caster: str
    spell: str
    reason: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.caster)}'s {self.spell} is broken off ({self.reason})"


@dataclass(frozen=True)
class EffectBegan(Event):
    """FTC 8.1: a lasting spell takes hold of a figure (or an area around ``hex``) for rounds
    ``first_round`` .. ``last_round``."""

    kind: ClassVar[str] = "effect_began"
    spell: str
    caster: str
    figure: str | None
    hex: Hex | None
    first_round: int
    last_round: int

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.caster,) + ((self.figure,) if self.figure else ())

    def text(self, names: dict[str, str] | None = None) -> str:
        return (
            f"{self.spell}{_aim(names, self.figure, self.hex)} takes hold (rounds {self.first_round}–{self.last_round})"
        )


@dataclass(frozen=True)
class EffectEnded(Event):
    """FTC 8.1: a spell's duration is over; it ends at the start of the round after its last."""

    kind: ClassVar[str] = "effect_ended"
    spell: str
    caster: str
    figure: str | None
    hex: Hex | None

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.figure,) if self.figure else ()

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{self.spell}{_aim(names, self.figure, self.hex)} wears off"


@dataclass(frozen=True)
class Healed(Event):
    """A healing spell lowers the figure's worst wound (FTC 8 with *Fudge* 4.57's boxes)."""

    kind: ClassVar[str] = "healed"
    concerns: ClassVar[tuple[str, ...]] = ("figure", "caster")
    figure: str
    caster: str
    spell: str
    levels: int
    before: str
    after: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} is healed by {self.spell}: {self.before} → {self.after}"


@dataclass(frozen=True)
class HeldFast(FigureEvent):
    """A figure under a spell that stops it acting (e.g. paralysed) loses its move or its declaration."""

    kind: ClassVar[str] = "held_fast"
    spell: str
    phase: str

    def text(self, names: dict[str, str] | None = None) -> str:
        return f"{_n(names, self.figure)} cannot act ({self.spell}): no {self.phase}"


@dataclass(frozen=True)
class GMActed(Event):
    """A GM decision (modifier, condition, override, edit), said in the log with its reason.

    ``what`` is a sentence with ``{0}``, ``{1}`` … standing for the names of ``subjects`` (figure ids).
    """

    kind: ClassVar[str] = "gm_acted"
    left_out_when_empty: ClassVar[tuple[str, ...]] = ("said",)
    action: str
    what: str
    subjects: tuple[str, ...] = ()
    reason: str = ""
    said: str = ""
    """The log's sentence when it says more than ``what`` (an edit's old → new values); like ``what`` with
    ``{0}`` … for the subjects. Not part of the decision's digest, so saves made before it still replay."""

    @property
    def figures(self) -> tuple[str, ...]:
        return self.subjects

    def text(self, names: dict[str, str] | None = None) -> str:
        line = "GM: " + (self.said or self.what).format(*(_n(names, s) for s in self.subjects))
        return line + (f" — {self.reason}" if self.reason else "")

    def digest_json(self) -> dict[str, Any]:
        """As ``to_json`` without ``said``: the digest holds what was decided, not how the log words it."""
        out = self.to_json()
        out.pop("said", None)
        return out


@dataclass(frozen=True)
class EscapeOverridden(Event):
    """FTC 5.3 overridden by the GM: the mover escapes (or is held) with no contest rolled."""

    kind: ClassVar[str] = "escape_overridden"
    mover: str
    stoppers: tuple[str, ...]
    escaped: bool

    @property
    def figures(self) -> tuple[str, ...]:
        return (self.mover, *self.stoppers)

    def text(self, names: dict[str, str] | None = None) -> str:
        who = ", ".join(_n(names, s) for s in self.stoppers)
        verb = "escapes" if self.escaped else "is held by"
        return f"GM: {_n(names, self.mover)} {verb} {who} whatever the dice say"


def is_gm_only(event: Event) -> bool:
    """Whether only the GM may see this event: the faces the GM set by hand for a coming roll (*Fudge* 4.1:
    the GM's dice stay behind the screen; the roll itself, once made, reads as any other roll)."""
    return isinstance(event, GMActed) and event.action == "gm_set_die"


def set_roll_at(events: Sequence[Event], figure: str, faces: tuple[int, ...]) -> int:
    """Where in a decision's ``events`` the roll made with faces the GM set for ``figure`` is: the first event
    concerning the figure that carries those faces (the last event when none does)."""
    for i, e in enumerate(events):
        if figure in e.figures and any(v == faces or (isinstance(v, tuple) and faces in v) for v in vars(e).values()):
            return i
        if figure in e.figures and any(s.faces == faces for s in getattr(e, "steps", ())):  # a rule option's roll
            return i
    return len(events) - 1


def events_digest(events: Sequence[Event]) -> str:
    """A short fingerprint of what one decision caused, dice included (docs/architecture.md "A battle is its log": a
    replay must reproduce every roll, so saves keep one digest per action)."""
    text = json.dumps([e.digest_json() for e in events], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
