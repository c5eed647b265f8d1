"""Magic in the battle (FTC 8): casting, concentration, recognition and spells' effects.

Everything the battle does for spells lives here; the rest of the round only calls these hooks (round
start, movement, declaration, resolution, the modifiers of attacks and defences). Casting time and
duration (FTC 8.1), recognising a spell being cast (FTC 8.2), ranged and touch spells (FTC 8.3); the
spells' own rules are in ``game.engine.magic``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game.engine import actions as act
from game.engine import events as ev
from game.engine import magic
from game.engine.battle.state import (
    AttackTerms,
    BattleState,
    Declaration,
    EffectOn,
    Figure,
    IllegalAction,
    _covered,
    _sentence,
)
from game.engine.combat import (
    Modifier,
    MovedFraction,
    Stance,
    is_hit,
    melee_difficulty,
    obscured_vision_perception,
    offence_modifiers,
    total,
)
from game.engine.damage import (
    Factor,
)
from game.engine.equipment import Weapon
from game.engine.hexgrid import (
    Hex,
    distance,
)
from game.engine.hexgrid import within as within_hexes
from game.engine.lof import LineOfFire, line_hexes, line_of_fire
from game.engine.ranges import firing_angle_modifier


class SpellsInBattle(BattleState):
    """FTC 8, 8.1, 8.2, 8.3: spells cast, concentrated on, recognised and resolved in the battle."""

    # ------------------------------------------------------------------ magic (FTC 8)
    # Everything the battle does for spells lives in this block; the rest of the state machine only calls
    # these hooks (round start, movement, declaration, resolution, the modifiers of attacks and defences).

    def casting_of(self, fid: str) -> magic.Concentration | None:
        """The spell of several rounds this figure is concentrating on, if any (FTC 8.1)."""
        return self._casting.get(fid)

    def effects(self) -> list[magic.ActiveEffect]:
        """Every lasting spell effect now held by the battle (FTC 8.1), on figures and areas."""
        return list(self._effects)

    def effects_on(self, fid: str) -> list[EffectOn]:
        """The lasting effects on a figure now, areas it stands in included (FTC 8.1), with rounds left."""
        fig = self.figure(fid)
        cells = _covered((fig,))  # an area over any hex of a large figure is on it (FTC 5)
        return [
            EffectOn(e.spell, e.caster, e.rounds_left(self.round), e)
            for e in self._effects
            if e.target == fid or not cells.isdisjoint(e.hexes())
        ]

    def known_spells(self, fid: str) -> list[magic.Spell]:
        """The catalogue spells a figure knows (roster key ``spells``)."""
        return [magic.spell(name) for name in self.figure(fid).character.spells]

    def spell_targets(self, fid: str, spell_name: str) -> list[str]:
        """Figures a figure may cast a known spell on now (FTC 8.3 ranges; an area spell: figures whose hex
        it may be centred on). Empty when the figure does not know the spell or cannot cast now."""
        fig = self.figure(fid)
        try:
            item = magic.spell(spell_name)
        except magic.MagicError:
            return []
        if item.name not in fig.character.spells or not fig.can_act or self._cannot_act(fig):
            return []
        if magic.resolves_when(item) == "last_round" and fig.hexes_moved and self._casting.get(fid) is None:
            return []  # FTC 8.1: a long casting needs a caster who stood still
        if item.target == "self":
            return [fid]
        if item.target == "hex":
            return [f.id for f in self.enemies_of(fig) if self._area_hex_on(fig, item, f) is not None]
        pool = self.enemies_of(fig) if item.target == "enemy" else self.able(fig.side)
        return [f.id for f in pool if self._spell_reaches(fig, item, f.hex, f.id)]

    def area_hex_on(self, fid: str, spell_name: str, target: str) -> Hex | None:
        """The hex to centre a known area spell on so that it covers ``target`` (FTC 8.3): the target's own
        hex when it is within range and in sight, else the nearest hex of a large target's footprint that
        is; None when no hex of the target can be chosen."""
        item = magic.spell(spell_name)
        if item.target != "hex":
            return None
        return self._area_hex_on(self.figure(fid), item, self.figure(target))

    def _area_hex_on(self, fig: Figure, item: magic.Spell, tgt: Figure) -> Hex | None:
        cells = [tgt.hex, *sorted(tgt.cells - {tgt.hex}, key=lambda c: (distance(fig.hex, c), c))]
        return next((c for c in cells if self.terrain.contains(c) and self._spell_reaches(fig, item, c, None)), None)

    def spell_hexes(self, fid: str, spell_name: str) -> list[Hex]:
        """Hexes an area spell may be centred on now: within its range and in sight (FTC 8.3)."""
        fig = self.figure(fid)
        item = magic.spell(spell_name)
        if item.effect != "area" or item.name not in fig.character.spells:
            return []
        reach = magic.spell_range_hexes(item.range)
        radius = reach if reach is not None else max(self.terrain.width, self.terrain.height)
        return [
            h
            for h in sorted(within_hexes(fig.hex, radius))
            if self.terrain.contains(h) and self._spell_reaches(fig, item, h, None)
        ]

    def spell_terms(
        self,
        caster: str,
        spell_name: str,
        target: str | Hex | None = None,
        *,
        stance: Stance = Stance.NEUTRAL,
        dodges: int = 0,
        firer_defending: bool = False,
    ) -> AttackTerms:
        """The named modifiers and the difficulty of a casting roll (FTC 8.1: table 4's stance and table 7's
        firing modifiers, the penalty for having moved for a 1-round spell; 8.3: a line of fire for spells
        cast at a distance). Resolution and the odds shown before declaring both come from here."""
        fig = self.figure(caster)
        item = magic.spell(spell_name)
        mods = list(
            offence_modifiers(stance=stance, very_hurt_penalty=fig.very_hurt_penalty(self.round), missile_dodges=dodges)
        )
        target_hex = self.figure(target).hex if isinstance(target, str) else target
        line: LineOfFire[str] | None = None
        angle = 0
        partial = False
        if item.range in ("close", "short", "long") and target_hex is not None and target_hex != fig.hex:
            if isinstance(target, str):  # a large target is aimed at its nearest hex (FTC 5, 6.5)
                target_hex, dist = self._aim(fig, self.figure(target))
            else:
                dist = distance(fig.hex, target_hex)
            occupants = {
                h: f.id for f in self.figures.values() if f.can_act for h in ((f.hex,) if f.size == 1 else f.cells)
            }
            line = line_of_fire(self.terrain, fig.hex, target_hex, occupants=occupants)
            angle = firing_angle_modifier(
                self.terrain.elevation_at(fig.hex), self.terrain.elevation_at(target_hex), dist
            )
            partial = line.partial_cover
        moved: MovedFraction = (
            "none"
            if fig.hexes_moved == 0 or magic.resolves_when(item) == "last_round"
            else "half"
            if 2 * fig.hexes_moved <= fig.allowance
            else "full"
        )
        mods += magic.casting_modifiers(
            item,
            moved_fraction=moved,
            firer_defending=firer_defending,
            elevation_angle_modifier=angle,
            footing=self.footing_at(fig.hex),
            light=self.light_at(fig.hex),
            partial_cover=partial,
        )
        if line is not None and isinstance(target, str) and self.terrain.cover_at(line.target):
            mods.append(Modifier("target in cover", self.terrain.cover_at(line.target)))
        mods += self._magic_attack_mods(fig, target_hex if target_hex is not None else fig.hex)
        mods += self.gm_terms(fig)
        return AttackTerms(tuple(mods), item.difficulty, None, line)

    def spell_dodge_terms(self, target: str, spell_name: str, stance: Stance) -> tuple[Modifier, ...]:
        """The modifiers of a target dodging a spell cast at it from a distance (FTC 8.3, as a missile: 6.5.2
        and table 8's bonus read on the spell's difficulty; spells on the target; *Fudge* 4.1 the GM's
        modifiers). Resolution and the odds shown before declaring both come from here."""
        item = magic.spell(spell_name)
        return self.dodge_terms(target, stance, Modifier("dodging a spell", magic.spell_dodge_bonus(item)))

    def resistance_terms(self, target: str, spell_name: str) -> tuple[int, tuple[Modifier, ...]] | None:
        """A target's resistance to a resisted spell before its 4dF (FTC 8: Will or Health; *Fudge* 4.1: the
        GM's modifiers on the figure count here as in its other rolls); None when the spell is not resisted.
        Resolution and the odds shown before declaring both come from here."""
        tgt = self.figure(target)
        level = magic.resist_level(magic.spell(spell_name), tgt.character)
        if level is None:
            return None
        return level, self.gm_terms(tgt)

    def concentration_terms(self, fid: str) -> tuple[int, tuple[Modifier, ...]]:
        """A concentrating caster's Will and the modifiers on his roll to keep concentrating (FTC 8.1: Good
        when forced to dodge, Great when damaged; *Fudge* 4.1: the GM's modifiers on the figure). Resolution
        and the odds shown on the declaration panel both come from here."""
        fig = self.figure(fid)
        return fig.character.will, self.gm_terms(fig)

    def recognised_by(self, fid: str) -> dict[str, str]:
        """Casters whose spell this figure has recognised (FTC 8.2), with the spell's name."""
        return {caster: name for (who, caster), name in self._recognised.items() if who == fid}

    def casting_at(self, fid: str) -> dict[str, str | None]:
        """Enemy casters casting at this figure now (their target, or an area over its hex): the spell's name
        when the figure recognised it (FTC 8.2), None when it only sees that something is being cast."""
        fig = self.figure(fid)
        cells = _covered((fig,))  # an area over any hex of a large figure is cast at it (FTC 5)
        out: dict[str, str | None] = {}
        for caster, item, target, h in self._castings_now():
            if self.figures[caster].side == fig.side:
                continue
            if target == fid or (
                h is not None and item.effect == "area" and not cells.isdisjoint(magic.area_hexes(item, h))
            ):
                out[caster] = self._recognised.get((fid, caster))
        return out

    # -- helpers
    def _cannot_act(self, fig: Figure) -> magic.Spell | None:
        for e in self._effects:
            if e.target == fig.id and magic.cannot_act(e.spell) and e.counts_in(self.round):
                return e.spell
        return None

    def _magic_mods(self, fig: Figure, channel: str) -> tuple[Modifier, ...]:
        """Modifiers of the effects on a figure in one channel (offence, defence, speed, movement, strength)
        that count this round (FTC 8.1: not those cast with this round's attacks)."""
        out: list[Modifier] = []
        for e in self._effects:
            if e.target == fig.id and e.counts_in(self.round):
                out.extend(m for ch, m in magic.effect_modifiers(e.spell) if ch == channel)
        return tuple(out)

    def _speed_of(self, fig: Figure) -> int:
        """Speed for initiative (FTC 4), with spells that quicken or slow the figure."""
        return fig.character.speed + total(self._magic_mods(fig, "speed"))

    def _magic_allowance(self, fig: Figure, allowance: int) -> int:
        bonus = total(self._magic_mods(fig, "movement"))
        if not bonus:
            return allowance
        return max(1 if allowance > 0 else 0, allowance + bonus)

    def _area_effects(self) -> list[magic.ActiveEffect]:
        return [e for e in self._effects if e.hex is not None and e.counts_in(self.round)]

    def _magic_sight_blocked(self, a: Hex, b: Hex) -> bool:
        """Whether an area spell that blocks sight lies across the line between two hexes (their own hexes
        excepted: a figure at the edge of a cloud can be seen and shot at, with the bad light)."""
        areas = [e.hexes() for e in self._area_effects() if e.spell.blocks_sight]
        if not areas or a == b:
            return False
        crossed = {lh.hex for lh in line_hexes(a, b) if lh.interior and lh.hex not in (a, b)}
        return any(crossed & hexes for hexes in areas)

    def _magic_attack_mods(self, att: Figure, target_hex: Hex) -> list[Modifier]:
        """An attacker's spell modifiers: conditions on his offence, and table 7's bad light of an area
        spell the attack is made into, out of or across (the worst one counts)."""
        mods = list(self._magic_mods(att, "offence"))
        worst: tuple[int, str] | None = None
        touched: set[Hex] | None = None
        for e in self._area_effects():
            if not e.spell.light:
                continue
            if touched is None:
                touched = {lh.hex for lh in line_hexes(att.hex, target_hex)} | {att.hex, target_hex}
            if touched & e.hexes() and (worst is None or e.spell.light < worst[0]):
                worst = (e.spell.light, e.spell.name)
        if worst is not None:
            mods.append(Modifier(f"bad light ({worst[1]})", worst[0]))
        return mods

    def _magic_factors(
        self,
        att: Figure,
        tgt: Figure,
        weapon: Weapon,
        location: str,
        off: tuple[Factor, ...],
        dfn: tuple[Factor, ...],
    ) -> tuple[tuple[Factor, ...], tuple[Factor, ...]]:
        """Spells in the damage factors (FTC 7.1-7.2): a weakened attacker's Strength, and a spell's own
        defensive factors (armour left out for spells that pass through it)."""
        entry = self._spell_weapons.get(weapon.name)
        if entry is not None and entry[0] is weapon:
            dfn = magic.spell_defensive_factors(entry[1], tgt.character, location=location)
        if weapon.muscle_powered:
            off = (*off, *(Factor(m.name, m.value) for m in self._magic_mods(att, "strength")))
        return off, dfn

    def _spell_weapon(self, item: magic.Spell) -> Weapon:
        entry = self._spell_weapons.get(item.name)
        if entry is None:
            entry = (magic.spell_weapon(item), item)
            self._spell_weapons[item.name] = entry
        return entry[0]

    def _casts_bolts(self, fig: Figure) -> bool:
        """Whether a figure knows a spell it may cast at an enemy from a distance (FTC 8.3: dodged like a
        missile)."""
        for name in fig.character.spells:
            item = magic.spell(name)
            if item.target == "enemy" and item.range in ("close", "short", "long"):
                return True
        return False

    def spell_reaches_hex(self, fid: str, spell_name: str, h: Hex) -> bool:
        """FTC 8.3: whether a figure's spell would reach the hex ``h`` now (its range and line of sight; a
        touch spell: a hex in the hand's reach), as the declaration checks it (for the screen's highlight)."""
        return self._spell_reaches(self.figure(fid), magic.spell(spell_name), h, None)

    def _spell_reaches(self, fig: Figure, item: magic.Spell, target_hex: Hex, target_id: str | None) -> bool:
        """FTC 8.3: self, touch (a front hex of the caster's hand, along the movement as a weapon's reach, FTC
        6.2), close 2, short 10, long in sight; beyond touch the line of sight must be clear of sight-blocking
        terrain and areas."""
        if item.range == "self":
            return target_id == fig.id
        if target_id == fig.id:
            return item.target in ("ally", "self")
        tgt = self.figures.get(target_id or "")
        if item.range == "touch":
            # FTC 6.2 as for a weapon: in reach at any point along the two figures' movement, with the hand
            return tgt is not None and self._reach_along(
                fig, self._moves_of(fig), tgt, self._moves_of(tgt), magic.touch_weapon()
            )
        # a large target is aimed at its nearest hex with a line of fire, as a missile is (FTC 5, 6.5)
        aim, dist = self._aim(fig, tgt) if tgt is not None else (target_hex, distance(fig.hex, target_hex))
        if tgt is not None:
            # FTC 6.2: in range at the most favourable point of both movements (a retreat does not undo it)
            dist = min(dist, self._best_range(fig, tgt))
        if not magic.in_spell_range(item, dist):
            return False
        return not line_of_fire(self.terrain, fig.hex, aim).blocked and not self._magic_sight_blocked(fig.hex, aim)

    @staticmethod
    def _touch_on(decl: Declaration, fid: str) -> bool:
        """Whether a declaration casts a touch spell on figure ``fid`` (FTC 8.3: its touch is an attack)."""
        return decl.spell is not None and decl.spell_target == fid and magic.spell(decl.spell).is_touch

    def _castings_now(self) -> list[tuple[str, magic.Spell, str | None, Hex | None]]:
        """Spells being cast this round: (caster, spell, target figure, target hex)."""
        out: list[tuple[str, magic.Spell, str | None, Hex | None]] = []
        for fid, conc in self._casting.items():
            t = conc.target
            out.append((fid, conc.spell, t if isinstance(t, str) else None, t if isinstance(t, Hex) else None))
        for d in self._declarations.values():
            if d.spell is not None and d.figure not in self._casting:
                out.append((d.figure, magic.spell(d.spell), d.spell_target, d.spell_hex))
        return out

    def _magic_declare_options(self, fig: Figure) -> dict[str, object]:
        spells: dict[str, list[str]] = {}
        for item in self.known_spells(fig.id):
            spells[item.name] = self.spell_targets(fig.id, item.name)
        conc = self._casting.get(fig.id)
        return {"spells": spells, "casting": conc.spell.name if conc else None, "casting_at": self.casting_at(fig.id)}

    def _parries_against(
        self,
        fig: Figure,
        tgt: Figure,
        weapon: Weapon,
        rolls: Mapping[str, int],
        melee_on: Mapping[str, list[str]],
    ) -> list[tuple[str, int]]:
        """The defence results of those attacking a caster in melee, other than his target, that his touch or
        bolt must also beat (FTC 6.1, 6.4.1): each parries ``weapon`` with the roll he has made this round (a
        1-second spell, resolved when declared, meets only the rolls already made; FTC 8.1)."""
        return [
            (o, self._defence_vs(self.figures[o], fig, weapon, rolls[o], self._declarations.get(o), shield_ok=False)[0])
            for o in melee_on.get(fig.id, [])
            if o != tgt.id and o in rolls
        ]

    def _early_roll(self, fid: str, out: list[ev.Event]) -> int:
        """A figure's one roll of the round (FTC 6.3), made early because a 1-second spell is resolved when
        declared (FTC 8.1); the round's resolution uses it again."""
        faces = self._roll_faces.get(fid)
        if faces is None:
            faces = self._roll("combat", fid).faces
            self._roll_faces[fid] = faces
            out.append(ev.CombatRoll(fid, faces))
        return sum(faces)

    # -- hooks of the state machine
    def _magic_round_began(self) -> list[ev.Event]:
        """FTC 8.1: effects past their duration end; concentrations move on a round (or end, if the caster
        can no longer cast).

        A concentration still in its last round here never reached its attack phase (the attack phase takes
        every spell due in it; only the GM's *End round* skips it): the spell takes effect in an attack phase,
        so our reading is that the concentration carries on, still in its last round, and the spell takes
        effect in this round's attack phase if the caster declares it again (README, the GM's seat).
        """
        out: list[ev.Event] = []
        for e in list(self._effects):
            if not e.active(self.round):
                self._effects.remove(e)
                out.append(ev.EffectEnded(e.spell.name, e.caster, e.target, e.hex))
        self._roll_faces = {}
        for fid, conc in list(self._casting.items()):
            caster = self.figures[fid]
            if not caster.can_act:
                del self._casting[fid]
                out.append(ev.ConcentrationBroken(fid, conc.spell.name, "the caster cannot go on"))
            elif conc.takes_effect_this_round:
                out.append(ev.CastingContinued(fid, conc.spell.name, conc.rounds_left))
            else:
                self._casting[fid] = conc.advance()
        return out

    def _magic_held_fast(self, phase: str) -> list[ev.Event]:
        """A figure that cannot act under a spell (e.g. paralysed) loses its move or its declaration."""
        out: list[ev.Event] = []
        for f in self.figures.values():
            item = self._cannot_act(f) if f.can_act else None
            if item is None:
                continue
            if phase == "move":
                f.moved = True
            elif f.id in self._declare_queue:
                self._declare_queue.remove(f.id)
            out.append(ev.HeldFast(f.id, item.name, phase))
            if f.id in self._casting:
                out.append(ev.ConcentrationBroken(f.id, self._casting.pop(f.id).spell.name, item.name))
        return out

    def _magic_attack_phase_began(self) -> list[ev.Event]:
        self._roll_faces = {}
        return self._magic_held_fast("attack")

    def _magic_moved(self, fig: Figure, hexes: int) -> list[ev.Event]:
        """FTC 8.1: a concentrating caster must remain still; leaving his hex breaks the spell (our reading:
        the move is allowed, and the spell is lost; turning in place keeps it)."""
        if hexes <= 0 or fig.id not in self._casting:
            return []
        return [ev.ConcentrationBroken(fig.id, self._casting.pop(fig.id).spell.name, "the caster moved")]

    def _check_spell_declaration(
        self, fig: Figure, a: act.Declare
    ) -> tuple[magic.Spell, str | None, Hex | None, bool] | None:
        """Validate the spell part of a declaration (FTC 8); returns (spell, target, hex, continuing)."""
        if a.spell is None:
            if a.spell_target is not None or a.spell_hex is not None:
                raise IllegalAction("A spell target needs a spell: name the spell to cast.")
            return None
        try:
            item = magic.spell(a.spell)
        except magic.MagicError as exc:
            raise IllegalAction(_sentence(str(exc))) from None
        if item.name not in fig.character.spells:
            known = ", ".join(fig.character.spells) or "no spells"
            raise IllegalAction(f"{fig.name} does not know {item.name} (knows {known}).")
        if a.targets:
            raise IllegalAction("Casting a spell is the figure's action this round: declare no weapon target.")
        if a.advance:
            raise IllegalAction("A caster does not advance: an advance brings a figure to the enemy it strikes.")
        conc = self._casting.get(fig.id)
        continuing = conc is not None and conc.spell.name == item.name
        long_cast = magic.resolves_when(item) == "last_round"
        if long_cast and a.retreat is not None:
            raise IllegalAction(f"{item.name} needs the caster to stay still (FTC 8.1): no retreat while casting it.")
        if continuing:
            assert conc is not None
            t = conc.target
            return item, t if isinstance(t, str) else None, t if isinstance(t, Hex) else None, True
        if long_cast and fig.hexes_moved:
            raise IllegalAction(
                f"{item.name} takes {item.casting_time}: the caster must stand still while "
                f"concentrating (FTC 8.1), and {fig.name} moved this round."
            )
        if item.target == "hex":
            h = a.spell_hex
            if h is None and a.spell_target is not None:
                h = self._area_hex_on(fig, item, self.figure(a.spell_target))
            if h is None or not self.terrain.contains(h) or not self._spell_reaches(fig, item, h, None):
                raise IllegalAction(f"{item.name} is centred on a hex within {item.range} range and in sight.")
            return item, None, h, False
        target = a.spell_target if a.spell_target is not None else (fig.id if item.target in ("self", "ally") else None)
        if target is None:
            raise IllegalAction(f"{item.name} is cast at an enemy: name the target.")
        if target not in self.spell_targets(fig.id, item.name):
            raise IllegalAction(
                f"{self.figure(target).name} cannot be reached by {item.name} ({item.range} range) now."
            )
        return item, target, None, False

    def _magic_declared(
        self, fig: Figure, decl: Declaration, plan: tuple[magic.Spell, str | None, Hex | None, bool] | None
    ) -> list[ev.Event]:
        """After a declaration: recognition rolls (FTC 8.2), an abandoned concentration, a spell begun or
        continued (FTC 8.1), and a 1-second spell resolved at once."""
        out: list[ev.Event] = self._magic_recognise(fig)
        conc = self._casting.get(fig.id)
        if plan is None or (conc is not None and not plan[3]):
            if conc is not None:
                del self._casting[fig.id]
                out.append(ev.ConcentrationBroken(fig.id, conc.spell.name, "abandoned"))
            if plan is None:
                return out
        item, target, h, continuing = plan
        decl.spell, decl.spell_target, decl.spell_hex = item.name, target, h
        if continuing:
            assert conc is not None
            out.append(ev.CastingContinued(fig.id, item.name, conc.rounds_left))
            return out
        when = magic.resolves_when(item)
        out.append(ev.CastingBegan(fig.id, item.name, target, h, magic.casting_rounds(item), when))
        if when == "last_round":
            self._casting[fig.id] = magic.Concentration.begin(item, fig.id, target if target is not None else h)
        elif when == "declaration":
            if self.options.secret_stances:
                # Fudge 4.32: the casting roll and a dodge against it name their stances, so a 1-second
                # spell is resolved at the reveal, when all declarations are shown, before any attack
                decl.pending_cast = True
            else:
                out.extend(self._cast_at_once(fig, decl))
        return out

    def _cast_at_once(self, fig: Figure, decl: Declaration) -> list[ev.Event]:
        """FTC 8.1: a 1-second spell is resolved when declared (under secret stances, at the reveal), and its
        results count for every other attack of the round; the caster's roll, and the target's if it already
        declared a dodge against him, is their one roll of the round (``_early_roll``)."""
        out: list[ev.Event] = []
        assert decl.spell is not None
        item, target, h = magic.spell(decl.spell), decl.spell_target, decl.spell_hex
        rolls: dict[str, int] = {fig.id: self._early_roll(fig.id, out)}
        tgt = self.figures.get(target or "")
        if tgt is not None and tgt.side != fig.side and tgt.can_act:
            tdecl = self._declarations.get(tgt.id)
            if item.is_touch or (tdecl is not None and fig.id in tdecl.dodge and not tdecl.second_move):
                rolls[tgt.id] = self._early_roll(tgt.id, out)
        wounds: list[tuple[Figure, int, str, int]] = []
        # table 7 applies except for movement (FTC 8.1): a caster already attacked in melee defends (-1)
        melee_on = {fig.id: self.melee_attackers_on(fig.id)}
        out.extend(self._cast(fig, decl, item, target, h, rolls, melee_on, wounds))
        out.extend(self._apply_wounds(wounds))
        out.extend(self._magic_damaged(wounds))
        # results count for every other attack (FTC 8.1): a figure no longer able does not declare
        self._declare_queue = [q for q in self._declare_queue if self.figures[q].can_act]
        return out

    def _magic_recognise(self, fig: Figure) -> list[ev.Event]:
        """FTC 8.2: a figure with Thaumatology rolls, while declaring, to recognise each enemy spell being
        cast at it: Good seeing and hearing the caster (within short range), Great with only a clear view,
        Superb through fog, an area spell or other people in the way."""
        if not fig.character.has_skill("Thaumatology"):
            return []
        out: list[ev.Event] = []
        for caster, name in self.casting_at(fig.id).items():
            if name is not None:
                continue
            c = self.figures[caster]
            item = next(i for cid, i, _, _ in self._castings_now() if cid == caster)
            sees, hears, obscured = self._recognition_view(fig, c)
            difficulty = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
            if difficulty is None:
                continue
            skill = fig.character.skill_level("Thaumatology")
            mods = self.recognition_terms(fig.id)
            roll, ok = magic.recognise(self.rng, skill + total(mods), sees=sees, hears=hears, obscured=obscured)
            assert roll is not None
            if ok:
                self._recognised[(fig.id, caster)] = item.name
            out.append(
                ev.SpellRecognised(
                    fig.id,
                    caster,
                    item.name,
                    skill,
                    roll.faces,
                    skill + roll.total + total(mods),
                    difficulty,
                    ok,
                    tuple((m.name, m.value) for m in mods),
                )
            )
        return out

    def recognition_terms(self, fid: str) -> tuple[Modifier, ...]:
        """The modifiers of a figure's Thaumatology roll to recognise a spell (FTC 8.2): a helmet that
        obscures vision, the greathelm (FTC 9.2), lowers it as it lowers the wearer's Perception (our
        reading, ``combat.obscured_vision_perception``): recognising a spell is watching the caster."""
        helm = next((a for a in self.figure(fid).character.armour if a.obscures_vision), None)
        return (Modifier(f"{helm.name} obscures vision", obscured_vision_perception()),) if helm else ()

    def recognition_view(self, fid: str, caster: str) -> tuple[bool, bool, bool]:
        """What a figure makes out of a caster for recognising his spell (FTC 8.2): (sees, hears, obscured),
        as ``magic.recognition_difficulty`` reads them. A large figure watches from whichever of its hexes
        sees best, and a large caster is seen at whichever of his hexes is seen best (FTC 5, as a missile is
        aimed at a large target's hexes); hearing counts between their nearest hexes."""
        return self._recognition_view(self.figure(fid), self.figure(caster))

    def _recognition_view(self, fig: Figure, c: Figure) -> tuple[bool, bool, bool]:
        hears = self._distance(c, fig) <= (magic.spell_range_hexes("short") or 0)
        occupants = {h: f.id for f in self.figures.values() if f.can_act for h in (f.cells if f.size > 1 else (f.hex,))}
        best = magic.recognition_difficulty(sees=True, hears=hears, obscured=False)
        pairs = [(c.hex, fig.hex)]
        if c.size > 1 or fig.size > 1:
            pairs += sorted((a, b) for a in c.cells for b in fig.cells if (a, b) != (c.hex, fig.hex))
        view: tuple[bool, bool, bool] | None = None
        rank: int | None = None
        for a, b in pairs:
            lof = line_of_fire(self.terrain, a, b, occupants=occupants)
            sees = not lof.blocked and not self._magic_sight_blocked(a, b)
            crossed = {lh.hex for lh in lof.hexes}
            near = distance(a, b)
            obscured = (
                lof.partial_cover
                or any(crossed & e.hexes() for e in self._area_effects())
                or any(
                    o not in (c.id, fig.id)
                    for o in lof.bystanders_at_risk()
                    if self._nearest(a, self.figures[o]) < near
                )
            )
            difficulty = magic.recognition_difficulty(sees=sees, hears=hears, obscured=obscured)
            if difficulty is not None and (rank is None or difficulty < rank):
                view, rank = (sees, hears, obscured), difficulty
            if rank == best:
                break
        return view if view is not None else (False, hears, False)

    @staticmethod
    def _nearest(h: Hex, fig: Figure) -> int:
        """Hexes from ``h`` to the nearest hex ``fig`` covers (FTC 5)."""
        return distance(h, fig.hex) if fig.size == 1 else min(distance(h, x) for x in fig.cells)

    def _spell_dodge(
        self, tgt: Figure, caster: Figure, item: magic.Spell, rolls: Mapping[str, int]
    ) -> tuple[int | None, tuple[Modifier, ...]]:
        """A target's dodge against a spell cast at it from a distance (FTC 8.3 as missiles, 6.5.2)."""
        tdecl = self._declarations.get(tgt.id)
        if tdecl is None or caster.id not in tdecl.dodge or tdecl.second_move or tgt.id not in rolls:
            return None, ()
        dmods = self.spell_dodge_terms(tgt.id, item.name, Stance(tdecl.stance))
        return tgt.character.agility + rolls[tgt.id] + total(dmods), dmods

    def _cast(
        self,
        fig: Figure,
        decl: Declaration,
        item: magic.Spell,
        target: str | None,
        h: Hex | None,
        rolls: Mapping[str, int],
        melee_on: Mapping[str, list[str]],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """One spell takes effect (FTC 8): the casting roll; a bolt dodged like a missile and straying like
        one; a touch attack first for a touch spell; the target's resistance; then the effect."""
        out: list[ev.Event] = []
        tgt = self.figures.get(target) if target is not None else None
        if tgt is not None and tgt.out and item.effect != "heal":
            out.append(ev.ConcentrationBroken(fig.id, item.name, f"{tgt.name} is out of the fight"))
            return out
        aim_hex = tgt.hex if tgt is not None else h
        if tgt is not None and not self._spell_reaches(fig, item, tgt.hex, tgt.id):
            out.append(ev.ConcentrationBroken(fig.id, item.name, f"{tgt.name} is out of reach"))
            return out
        terms = self.spell_terms(
            fig.id,
            item.name,
            tgt.id if tgt is not None else h,
            stance=Stance(decl.stance),
            dodges=len(decl.dodge),
            firer_defending=bool(melee_on.get(fig.id)),
        )
        skill = fig.character.skill_level(item.skill)
        roll = rolls[fig.id]
        faces = self._roll_faces.get(fig.id)
        result = magic.casting_result(skill, roll, terms.modifiers)
        success = magic.cast_succeeds(item, result)
        hostile = tgt is not None and tgt.side != fig.side
        bolt = hostile and item.range in ("close", "short", "long")
        defence: int | None = None
        dmods: tuple[Modifier, ...] = ()
        if success and bolt and item.effect != "damage" and tgt is not None:
            defence, dmods = self._spell_dodge(tgt, fig, item, rolls)
        landed = success and (defence is None or result > defence)
        out.append(
            ev.SpellCast(
                fig.id,
                item.name,
                target,
                aim_hex if tgt is None else None,
                skill,
                faces if faces is not None else (),
                tuple((m.name, m.value) for m in terms.modifiers),
                result,
                item.difficulty,
                success,
                defence,
                tuple((m.name, m.value) for m in dmods),
                landed,
            )
        )
        if not landed:
            return out
        if hostile and tgt is not None and (item.effect == "damage" or item.is_touch):
            touch = item.is_touch
            weapon = self._spell_weapon(item) if item.effect == "damage" else self._melee_weapon(fig)
            if touch:
                hand = magic.touch_weapon()  # a touch is made with the hand, whatever weapon is held
                omods = self.attack_terms(fig, tgt, hand, Stance(decl.stance), dodges=len(decl.dodge)).modifiers
                tdecl = self._declarations.get(tgt.id)
                if tgt.id in rolls and not (tdecl is not None and tdecl.second_move):
                    tdef: int | None
                    tdef, tmods, _ = self._defence_vs(tgt, fig, hand, rolls[tgt.id], tdecl, shield_ok=True)
                else:
                    tdef, tmods = None, ()
                others = self._parries_against(fig, tgt, hand, rolls, melee_on)
                diff = melee_difficulty(fig.character.mass_scale, tgt.character.mass_scale)
                tskill = magic.touch_attack_skill(fig.character)
                offence = tskill + roll + total(omods)
                hit = is_hit(offence, ([tdef] if tdef is not None else []) + [r for _, r in others], diff)
                out.append(
                    ev.TouchAttack(
                        fig.id,
                        tgt.id,
                        item.name,
                        tskill,
                        roll,
                        tuple((m.name, m.value) for m in omods),
                        offence,
                        tdef,
                        tuple((m.name, m.value) for m in tmods),
                        diff,
                        hit,
                    )
                )
                if not hit:
                    return out
                if item.effect == "damage":
                    # FTC 8.3: the touch only decides whether the spell takes effect and does no damage; the
                    # spell's damage is a bolt's that nobody dodges: the casting's relative degree against
                    # the difficulty + the spell's factor, on the torso (no head for a touch's degree)
                    event, wound = self._strike(
                        fig,
                        tgt,
                        weapon,
                        roll,
                        terms.modifiers,
                        None,
                        (),
                        (),
                        item.difficulty,
                        distance(fig.hex, tgt.hex),
                        "torso",
                        skill=skill,
                    )
                    out.append(event)
                    if wound:
                        wounds.append(wound)
                    return out
            else:
                bdef, bmods = self._spell_dodge(tgt, fig, item, rolls)
                # FTC 6.1, 6.4.1, 8.3: a bolt is shot as a missile is, so a caster attacked in melee must beat
                # the defences of all those attacking him, parried with his melee weapon as a firer's are
                parries = self._parries_against(fig, tgt, self._melee_weapon(fig), rolls, melee_on)
                event, wound = self._strike(
                    fig,
                    tgt,
                    weapon,
                    roll,
                    terms.modifiers,
                    bdef,
                    bmods,
                    parries,
                    item.difficulty,
                    distance(fig.hex, tgt.hex),
                    "best",
                )
                out.append(event)
                if wound:
                    wounds.append(wound)
                elif not event.hit and terms.line is not None:
                    out.extend(self._stray(fig, tgt, weapon, roll, terms.modifiers, terms.line, rolls, wounds))
                return out
        resistance = self.resistance_terms(tgt.id, item.name) if tgt is not None else None
        if tgt is not None and resistance is not None:
            level, rmods = resistance
            r = self._roll("resistance", tgt.id)
            resists_with = level + r.total + total(rmods)
            resisted = not magic.overcomes_resistance(result, resists_with)
            out.append(
                ev.SpellResisted(
                    tgt.id,
                    fig.id,
                    item.name,
                    item.resist,
                    level,
                    r.faces,
                    resists_with,
                    result,
                    resisted,
                    tuple((m.name, m.value) for m in rmods),
                )
            )
            if resisted:
                return out
        if item.effect == "heal":
            if tgt is not None:
                before = tgt.wounds.label
                tgt.wounds = magic.heal_wounds(tgt.wounds, item.heal_levels)
                out.append(ev.Healed(tgt.id, fig.id, item.name, item.heal_levels, before, tgt.wounds.label))
            return out
        if item.effect == "damage":
            return out  # a damage spell on a friend or oneself: nothing more to do
        effect = magic.ActiveEffect(
            item,
            fig.id,
            None if item.effect == "area" else (target or fig.id),
            h if item.effect == "area" else None,
            self.round,
        )
        self._effects.append(effect)
        out.append(ev.EffectBegan(item.name, fig.id, effect.target, effect.hex, effect.first_round, effect.last_round))
        return out

    def _magic_resolve(
        self,
        rollers: Sequence[str],
        rolls: Mapping[str, int],
        attacks: Sequence[tuple[str, str]],
        melee_on: Mapping[str, list[str]],
        wounds: list[tuple[Figure, int, str, int]],
    ) -> list[ev.Event]:
        """FTC 8.1 in the attack phase: concentrating casters who are attacked roll Will (Good) for each
        attack they must dodge; then the 1-round spells and the spells in their last round take effect,
        simultaneously with the attacks (their wounds join the round's)."""
        out: list[ev.Event] = []
        decls = self._declarations
        for cid, conc in list(self._casting.items()):
            d = decls.get(cid)
            if d is None or d.spell != conc.spell.name or cid not in rolls:
                del self._casting[cid]
                out.append(ev.ConcentrationBroken(cid, conc.spell.name, "not continued"))
                continue
            forced = [
                a
                for a, t in attacks
                if t == cid and (not self._weapon_of(self.figures[a], decls[a].weapon).ranged or a in d.dodge)
            ]
            # a spell cast at him forces a dodge when he dodges it; an enemy's touch always does, as a
            # melee attack (FTC 8.3: the touch is a standard attack)
            forced += [
                o.figure
                for o in decls.values()
                if o.spell is not None
                and o.figure in rollers
                and o.spell_target == cid
                and (
                    o.figure in d.dodge
                    or (self._touch_on(o, cid) and self.figures[o.figure].side != self.figures[cid].side)
                )
            ]
            for _ in forced:
                if not self._concentration_roll(cid, "dodge", out):
                    break
        for fid in rollers:
            d = decls[fid]
            if d.spell is None or not self.figures[fid].can_act:
                continue
            item = magic.spell(d.spell)
            when = magic.resolves_when(item)
            if when == "declaration":
                continue
            if when == "last_round":
                running = self._casting.get(fid)
                if running is None or not running.takes_effect_this_round:
                    continue
                del self._casting[fid]
            out.extend(self._cast(self.figures[fid], d, item, d.spell_target, d.spell_hex, rolls, melee_on, wounds))
        return out

    def _magic_figure_removed(self, fid: str) -> list[ev.Event]:
        """The GM removed a figure: its own concentration ends, and so does every concentration on
        it as the target (FTC 8.1: a spell needs its target), so no spell later looks for it."""
        out: list[ev.Event] = []
        for cid, conc in list(self._casting.items()):
            if cid == fid or conc.target == fid:
                del self._casting[cid]
                why = "the caster left the battle" if cid == fid else "the target left the battle"
                out.append(ev.ConcentrationBroken(cid, conc.spell.name, why))
        return out

    def _concentration_roll(self, cid: str, reason: magic.ConcentrationEvent, out: list[ev.Event]) -> bool:
        conc = self._casting[cid]
        will, mods = self.concentration_terms(cid)
        roll = self._roll("will", cid)
        kept = magic.concentration_holds(will, roll, reason, total(mods))
        out.append(
            ev.ConcentrationRolled(
                cid,
                conc.spell.name,
                reason,
                will,
                roll.faces,
                will + roll.total + total(mods),
                magic.concentration_difficulty(reason),
                kept,
                tuple((m.name, m.value) for m in mods),
            )
        )
        if not kept:
            del self._casting[cid]
            out.append(ev.ConcentrationBroken(cid, conc.spell.name, "lost concentration"))
        return kept

    def _magic_damaged(self, wounds: Sequence[tuple[Figure, int, str, int]]) -> list[ev.Event]:
        """FTC 8.1: a concentrating caster who takes damage needs a Great Will roll to go on."""
        out: list[ev.Event] = []
        for fig, _, _, _ in wounds:
            if fig.id in self._casting:
                self._concentration_roll(fig.id, "damaged", out)
        return out
