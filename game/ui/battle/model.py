"""The battle screen's model: what its parts share that is not drawn.

- The selection (``Selection``, shared with the viewer screen underneath), the figures the log highlights and
  the figure last picked on the board.
- The decision being put together: the declaration (``DeclState``, FTC 6.1, 6.2; a spell, FTC 8) and the move
  (``MovePlan``, FTC 5). Nothing is sent until the player confirms; the screen sends what ``declaration`` or
  ``move_action`` build.
- The battle as shown while the log still plays a decision out (``Shown``), so no result shows early.
- The questions the parts ask of the battle, each answered once per battle state (``version``) and forgotten
  at the next decision (``new_decision``): where a figure can move and at what risk, the path to a hex, what
  the declaring figure may choose, its targets, the odds of the attack or the casting being edited.

No pygame here: the model is tested without a display. The screen (``game.ui.battle.screen``) owns one and each
part reaches it through its own narrow Protocol; a part edits the decision here and asks the model, never
another part, what the battle allows.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, TypeVar, cast

from msgspec import UNSET

from game.engine import actions as act
from game.engine.battle import Battle, Decision, Figure, SideSetup
from game.engine.choices import DeclareChoices, declare_choices
from game.engine.hexgrid import Hex
from game.engine.movement import Path as MovePath
from game.engine.movement import Reach
from game.engine.odds import Aim
from game.engine.preview import swept
from game.session import BattleSession
from game.ui.battle.spellbook import default_spell, is_area
from game.ui.preview import AttackPreview, SpellPreview, attack_preview, escape_chance, spell_preview, weapon_named
from game.ui.view import Selection

T = TypeVar("T")

MOVE_REASONS = ("move", "held_end", "interrupt")
"""The decisions the move panel takes (the stop / escape / follow questions are its too)."""
ANSWER_REASONS = ("stop", "escape_failed", "follow", "fudge_point")
"""The yes-or-no questions of the movement and attack phases (FTC 5.3, 6.2)."""


def follow_hex(battle: Battle) -> Hex | None:
    """The hex a follower is offered to step into now (FTC 6.2's follow step), if any."""
    d = battle.decision()
    return d.follow_hex if d is not None else None


@dataclass
class DeclState:
    """The declaration being put together in the panel (nothing is sent until Enter)."""

    figure: str = ""
    weapon: str | None = None
    target: str | None = None
    stance: str = "neutral"
    dodge: set[str] = field(default_factory=set)
    advance: list[tuple[Hex, int]] = field(default_factory=list)
    retreat: Hex | None = None
    second_move: bool = False
    spell: str | None = None
    """A spell to cast instead of attacking (FTC 8; the spell panel), with its target or centre hex."""
    spell_target: str | None = None
    spell_hex: Hex | None = None
    aim: str = "best"
    """Where the blow should fall when the result allows a choice (FTC 6.6): "best" or a location."""
    stun: bool = False
    """*Fudge* 4.62 (rule option ``stun_blows``): the blow goes for stun instead of wounding."""
    max_wound: str | None = None
    """*Fudge* 4.62 (``pulled_blows``): the most wound the blow will do, None for a full blow."""
    sweep: list[str] = field(default_factory=list)
    """*Fudge* 4.34 (``sweeping_blow``): the further foes of a sweeping blow, in order, after ``target``."""
    ignore: set[str] = field(default_factory=set)
    """*Fudge* 4.34 (``ignore_attackers``): the enemies left undefended this round."""

    def key(self) -> tuple[Any, ...]:
        """A hashable summary (the panel and overlays are rebuilt when it changes)."""
        return (
            self.figure,
            self.weapon,
            self.target,
            self.stance,
            tuple(sorted(self.dodge)),
            tuple(self.advance),
            self.retreat,
            self.second_move,
            self.spell,
            self.spell_target,
            self.spell_hex,
            self.aim,
            self.stun,
            self.max_wound,
            tuple(self.sweep),
            tuple(sorted(self.ignore)),
        )

    def foes(self) -> tuple[str, ...]:
        """The foes the blow strikes, in order: the target, then a sweeping blow's further foes (*Fudge* 4.34)."""
        return (self.target, *self.sweep) if self.target is not None else ()


@dataclass
class MovePlan:
    """The move being planned (FTC 5): the player's choices before the figure moves."""

    actor: str | None = None
    """The held figure chosen to interrupt with (or to use its held move)."""
    facing: int | None = None
    """The final facing chosen (Q / E, the wheel), else the path's own."""
    posture: str | None = None
    """The posture the moving figure takes before it moves (FTC 5 "Crawling and Rolling"), else its own."""


@dataclass(frozen=True)
class Shown:
    """The battle as the tracker and the sheet show it: the live battle, or — while the log is still playing
    a decision's lines out — the battle as it stood before that decision, so no result shows early."""

    round: int
    phase: str
    over: bool
    winner: str | None
    order: tuple[str, ...]
    figures: Mapping[str, Figure]
    sides: Mapping[str, SideSetup]
    decision: Decision | None

    @classmethod
    def live(cls, battle: Battle) -> Shown:
        """The battle as it is now (no copies)."""
        return cls(
            battle.round,
            battle.phase,
            battle.over,
            battle.winner,
            tuple(battle.order),
            battle.figures,
            battle.sides,
            battle.decision(),
        )

    @classmethod
    def frozen(cls, battle: Battle) -> Shown:
        """The battle as it is now, kept while it goes on changing (each figure copied: the engine replaces a
        figure's fields, never mutates them in place)."""
        live = cls.live(battle)
        return replace(live, figures={fid: copy.copy(f) for fid, f in battle.figures.items()})


class BattleModel:
    """The selection, the decision being put together and the cached questions of one battle screen (see the
    module docstring)."""

    def __init__(
        self,
        session: BattleSession,
        *,
        gm_hand: Callable[[], bool] = lambda: False,
        selection: Selection | None = None,
    ) -> None:
        self.session = session
        self.selection = selection if selection is not None else Selection()
        self.gm_hand = gm_hand
        """Whether the GM sits at the screen now: the odds then count the dice the GM set by hand (*Fudge* 4.1)."""
        self.version = 0
        """Bumped whenever the battle or what is shown of it changes (the cached answers are keyed on it)."""
        self.decl = DeclState()
        self.plan = MovePlan()
        self.highlight: frozenset[str] = frozenset()
        """The figures the log line last played out (or clicked) names."""
        self.picked: tuple[str, int] | None = None
        """The figure last picked on the board (click, Tab) and the ``version`` it was picked at."""
        self.before: Shown | None = None
        """The battle as it stood before the decision whose lines the log is still playing out."""
        self._memo: dict[tuple[Any, ...], Any] = {}

    @property
    def battle(self) -> Battle:
        """The battle being played (the session's: replaced on undo, load or a table's rebuild)."""
        return self.session.battle

    def memo(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """A value computed once per battle state (forgotten after every decision)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def _odds(self, key: tuple[Any, ...], ask: Callable[[], T]) -> T | None:
        """Odds asked once per state (``memo``); None where the battle cannot give them (a weapon or a target
        gone since: the panel then says so)."""

        def compute() -> T | None:
            try:
                return ask()
            except (ValueError, KeyError):
                return None

        odds: T | None = self.memo(key, compute)
        return odds

    def new_decision(self) -> None:
        """A decision was taken (or the battle replaced): the declaration and the move start over and every
        cached answer is forgotten; a bare hex picked to look at goes with the decision."""
        self.version += 1
        self.decl = DeclState()
        self.plan = MovePlan()
        self._memo.clear()
        if self.selection.figure is None:
            self.selection.hex = None

    def shown(self) -> Shown:
        """The battle as the tracker and the sheet show it: as it stood before the decision whose results the
        log is still playing out, else as it is."""
        return self.before if self.before is not None else Shown.live(self.battle)

    def pick(self, fid: str | None, h: Hex | None) -> None:
        """A figure (or a bare hex, ``fid`` None) picked on the board: selected, and remembered as picked now."""
        self.selection.figure, self.selection.hex = fid, h
        self.picked = (fid, self.version) if fid is not None else None

    def figure_in_focus(self) -> str | None:
        """The figure a panel about "a figure" opens on: one picked on the board since the last decision, else
        the figure whose turn it is (the first held figure a side may interrupt with), else the selected one."""
        selected = self.selection.figure
        if self.picked is not None and self.picked == (selected, self.version):
            return selected
        d = self.battle.decision()
        if d is not None and d.figure in self.battle.figures:
            return d.figure
        if d is not None and d.interrupters:
            return d.interrupters[0]
        return selected

    # --- the move being planned (FTC 5) ------------------------------------------------------------
    def active_mover(self, d: Decision) -> str | None:
        """The figure whose move is being planned in a movement decision."""
        if d.reason == "interrupt":
            if self.plan.actor in d.interrupters:
                return self.plan.actor
            return d.interrupters[0] if d.interrupters else None
        if d.reason == "move" and self.plan.actor in d.interrupters:
            return self.plan.actor
        return d.figure

    def moving_figure(self, d: Decision) -> str | None:
        """The figure a movement (or a declared second move, FTC 6.2) would move now."""
        if d.reason in MOVE_REASONS:
            return self.active_mover(d)
        if d.reason == "declare" and self.decl.second_move:
            return self.decl.figure
        return None

    def posture_of(self, fid: str) -> str:
        """The posture the figure would move in: the chosen one for the mover, else its own."""
        return self.plan.posture or self.battle.figure(fid).posture

    def reach(self, fid: str) -> Reach:
        """The figure's reachable hexes now, in the posture it would move in."""
        posture = self.posture_of(fid)
        reach: Reach = self.memo(
            ("reach", self.version, fid, posture), lambda: self.battle.reach_for(fid, posture=posture)
        )
        return reach

    def escapes(self, fid: str) -> dict[Hex, Fraction]:
        """The escape chance of every reachable hex whose path crosses a zone of control (FTC 5.3)."""

        def compute() -> dict[Hex, Fraction]:
            r = self.reach(fid)
            known = self.gm_hand()  # the dice the GM set by hand are the GM's to count (Fudge 4.1)
            return {h: escape_chance(self.battle, fid, r, h, gm_hand=known) for h in r.hexes() if r.band(h) == "escape"}

        escapes: dict[Hex, Fraction] = self.memo(("escapes", self.version, fid, self.posture_of(fid)), compute)
        return escapes

    def planned_path(self, fid: str, h: Hex | None) -> MovePath | None:
        """The path the figure would take to ``h`` with the chosen final facing."""
        if h is None:
            return None
        r = self.reach(fid)
        if not r.can_reach(h):
            return None
        if self.plan.facing is not None and r.can_reach(h, self.plan.facing):
            return r.path(h, self.plan.facing)
        return r.path(h)

    def move_action(self, fid: str, steps: tuple[tuple[Hex, int], ...]) -> act.Move:
        """The Move to send, with the posture change when one was chosen."""
        posture = self.posture_of(fid)
        return act.Move(fid, steps, posture if posture != self.battle.figure(fid).posture else None)

    # --- the declaration being edited (FTC 6.1, 6.2) -------------------------------------------------
    def ensure_decl(self, d: Decision) -> None:
        """Start a fresh declaration when a new figure declares."""
        if d.reason == "declare" and self.decl.figure != d.figure:
            fig = self.battle.figure(d.figure or "")
            self.decl = DeclState(
                figure=fig.id, weapon=fig.character.ready_weapon.name, spell=default_spell(self.battle, fig.id)
            )

    def declare_options(self) -> dict[str, Any]:
        """What the declaring figure may choose (``Battle.declare_options``: weapons, stances, retreats, missile
        firers to dodge, spells and their targets)."""
        fid = self.decl.figure
        opts: dict[str, Any] = self.memo(("opts", self.version, fid), lambda: self.battle.declare_options(fid))
        return opts

    def rule_choices(self) -> DeclareChoices:
        """What the battle's rule options let the declaring figure say (``choices.declare_choices``): a stun,
        a pulled blow (*Fudge* 4.62), a sweep's number of foes, the enemies it may ignore (*Fudge* 4.34)."""
        fid = self.decl.figure
        dc: DeclareChoices = self.memo(
            ("choices", self.version, fid), lambda: declare_choices(self.battle, fid, self.declare_options())
        )
        return dc

    def targets(self) -> list[str]:
        """Enemies the declaring figure may attack with its weapon (from its position after any advance)."""
        d = self.decl
        fig = self.battle.figure(d.figure)
        weapon = weapon_named(fig, d.weapon)
        positions = [(fig.hex, fig.facing), *d.advance] if d.advance else None
        return self.battle.targets_for(d.figure, weapon, positions=positions)

    def attack_preview(self) -> AttackPreview | None:
        """The odds of the attack being edited; None without a target, for a second move or a spell."""
        d = self.decl
        if d.target is None or d.second_move or d.spell is not None:
            return None
        battle, target = self.battle, d.target
        known = self.gm_hand()  # the dice the GM set by hand are the GM's to count (Fudge 4.1)
        dodge, advance, aim = tuple(sorted(d.dodge)), tuple(d.advance), cast(Aim, d.aim)
        ask = functools.partial(
            attack_preview,
            battle,
            d.figure,
            d.weapon,
            stance=d.stance,
            gm_hand=known,
            dodge=dodge,
            advance=advance,
            aim=aim,
            stun=d.stun,
            max_wound=d.max_wound,
            ignore=tuple(sorted(d.ignore)),
        )

        def odds() -> AttackPreview:  # a sweeping blow's further foes each at its place (Fudge 4.34)
            return swept(ask(target), tuple(ask(t, sweep_place=k) for k, t in enumerate(d.sweep, start=1)))

        return self._odds((self.version, d.key()), odds)

    def attack_action(self) -> act.Declare:
        """The attack (or defence) as edited, ready to send (FTC 6.1, 6.2)."""
        s = self.decl
        advance = tuple(h for h, _ in s.advance)
        start = self.battle.figure(s.figure).hex
        advance_facing = (
            s.advance[-1][1]
            if s.advance and s.advance[-1][0] == (s.advance[-2][0] if len(s.advance) > 1 else start)
            else None
        )
        return act.Declare(
            s.figure,
            s.stance,
            s.foes(),
            s.weapon,
            dodge=tuple(sorted(s.dodge)),
            advance=advance,
            advance_facing=advance_facing,
            retreat=s.retreat,
            aim=s.aim,
            stun=s.stun and s.target is not None,
            max_wound=s.max_wound if s.target is not None and s.max_wound is not None else UNSET,
            ignore=tuple(sorted(s.ignore)),
        )

    def spell_action(self) -> act.Declare:
        """The casting as edited, ready to send (FTC 8): the spell with its target figure or centre hex, the
        stance and dodges; no attack."""
        d = self.decl
        return act.Declare(
            d.figure,
            d.stance,
            (),
            None,
            dodge=tuple(sorted(d.dodge)),
            retreat=d.retreat,
            spell=d.spell,
            spell_target=d.spell_target,
            spell_hex=d.spell_hex,
        )

    def declaration(self) -> act.Declare:
        """The declaration as edited: the casting when a spell is chosen, else the attack (or defence)."""
        return self.spell_action() if self.decl.spell is not None else self.attack_action()

    # --- a spell instead of an attack (FTC 8) -------------------------------------------------------
    def casting_spell(self) -> str | None:
        """The spell the declaring figure is concentrating on (FTC 8.1), if any."""
        fid = self.decl.figure
        conc = self.battle.casting_of(fid) if fid else None
        return conc.spell.name if conc is not None else None

    def known_spells(self) -> list[str]:
        """The spells the declaring figure knows (``declare_options()["spells"]``)."""
        spells = self.declare_options().get("spells") or {}
        return list(spells)

    def spell_targets(self, name: str) -> list[str]:
        """Figures the declaring figure may cast this spell on now (the battle's own list)."""
        return list((self.declare_options().get("spells") or {}).get(name, []))

    def spell_hexes(self, name: str) -> list[Hex]:
        """Hexes an area spell may be centred on now."""
        fid = self.decl.figure
        hexes: list[Hex] = self.memo(
            ("spell_hexes", self.version, fid, name), lambda: self.battle.spell_hexes(fid, name)
        )
        return hexes

    def spell_preview(self) -> SpellPreview | None:
        """The odds of the casting being edited; None until it has a target (a casting continued has its own)."""
        d = self.decl
        if d.spell is None:
            return None
        conc = self.battle.casting_of(d.figure)
        target: str | Hex | None
        if conc is not None and conc.spell.name == d.spell:
            target = conc.target
        else:
            target = d.spell_hex if is_area(d.spell) else d.spell_target
            if target is None:
                return None
        battle, spell, dodge = self.battle, d.spell, tuple(sorted(d.dodge))
        known = self.gm_hand()  # the dice the GM set by hand are the GM's to count (Fudge 4.1)
        return self._odds(
            ("spell", self.version, d.key()),
            lambda: spell_preview(battle, d.figure, spell, target, d.stance, dodge=dodge, gm_hand=known),
        )
