"""Lasting spell effects in the battle (FTC 8.1, 8.3): what they hold, and what they change in every roll.

A spell that lasts (a Ward, Haste, a Blinding Cloud over an area, a paralysing touch) is an
``magic.ActiveEffect``; from the round after it was cast (FTC 8.1: not those cast with this round's
attacks) it adds its modifiers to offence, defence, Speed, movement and Strength, blocks sight through an
area, darkens attacks made into, out of or across it, or holds a figure fast. This part owns
``EffectsState``; the rest of the battle asks these functions. Casting itself is ``spells``.
"""

from __future__ import annotations

from game.engine import events as ev
from game.engine import magic
from game.engine.battle.state import BattleState, EffectOn, Figure, covered
from game.engine.combat import Modifier, total
from game.engine.damage import Factor
from game.engine.equipment import Weapon
from game.engine.hexgrid import Hex
from game.engine.lof import line_hexes


def all_effects(b: BattleState) -> list[magic.ActiveEffect]:
    """Every lasting spell effect now held by the battle (FTC 8.1), on figures and areas."""
    return list(b.effects_state.effects)


def effects_on(b: BattleState, fid: str) -> list[EffectOn]:
    """The lasting effects on a figure now, areas it stands in included (FTC 8.1), with rounds left."""
    fig = b.figure(fid)
    cells = covered((fig,))  # an area over any hex of a large figure is on it (FTC 5)
    return [
        EffectOn(e.spell, e.caster, e.rounds_left(b.round), e)
        for e in b.effects_state.effects
        if e.target == fid or not cells.isdisjoint(e.hexes())
    ]


def begin(b: BattleState, effect: magic.ActiveEffect) -> ev.EffectBegan:
    """A spell that lasts has taken effect (FTC 8.1)."""
    b.effects_state.effects.append(effect)
    return ev.EffectBegan(
        effect.spell.name, effect.caster, effect.target, effect.hex, effect.first_round, effect.last_round
    )


def lapse(b: BattleState) -> list[ev.Event]:
    """FTC 8.1: at the start of a round, effects past their duration end."""
    out: list[ev.Event] = []
    for e in list(b.effects_state.effects):
        if not e.active(b.round):
            b.effects_state.effects.remove(e)
            out.append(ev.EffectEnded(e.spell.name, e.caster, e.target, e.hex))
    return out


def held_by(b: BattleState, fig: Figure) -> magic.Spell | None:
    """The spell holding a figure fast this round (e.g. paralysed: it can neither move nor act), if any."""
    for e in b.effects_state.effects:
        if e.target == fig.id and magic.cannot_act(e.spell) and e.counts_in(b.round):
            return e.spell
    return None


def modifiers(b: BattleState, fig: Figure, channel: str) -> tuple[Modifier, ...]:
    """Modifiers of the effects on a figure in one channel (offence, defence, speed, movement, strength)
    that count this round (FTC 8.1: not those cast with this round's attacks). A spell does not add to itself
    (docs/rulings.md "Durations"): cast twice on a figure, it counts once, until the later casting ends."""
    out: list[Modifier] = []
    counted: set[str] = set()
    for e in b.effects_state.effects:
        if e.target == fig.id and e.spell.name not in counted and e.counts_in(b.round):
            counted.add(e.spell.name)
            out.extend(m for ch, m in magic.effect_modifiers(e.spell) if ch == channel)
    return tuple(out)


def speed_of(b: BattleState, fig: Figure) -> int:
    """Speed for initiative (FTC 4), with spells that quicken or slow the figure."""
    return fig.character.speed + total(modifiers(b, fig, "speed"))


def movement_allowance(b: BattleState, fig: Figure, allowance: int) -> int:
    """A movement allowance with the spells that quicken or slow the figure (at least 1 hex when it had any)."""
    bonus = total(modifiers(b, fig, "movement"))
    if not bonus:
        return allowance
    return max(1 if allowance > 0 else 0, allowance + bonus)


def areas(b: BattleState) -> list[magic.ActiveEffect]:
    """The area effects that count this round (FTC 8.1)."""
    return [e for e in b.effects_state.effects if e.hex is not None and e.counts_in(b.round)]


def sight_blocked(b: BattleState, start: Hex, end: Hex) -> bool:
    """Whether an area spell that blocks sight lies across the line between two hexes (their own hexes
    excepted: a figure at the edge of a cloud can be seen and shot at, with the bad light)."""
    blocking = [e.hexes() for e in areas(b) if e.spell.blocks_sight]
    if not blocking or start == end:
        return False
    crossed = {lh.hex for lh in line_hexes(start, end) if lh.interior and lh.hex not in (start, end)}
    return any(crossed & hexes for hexes in blocking)


def attack_modifiers(b: BattleState, att: Figure, target_hex: Hex) -> list[Modifier]:
    """An attacker's spell modifiers: conditions on his offence, and table 7's bad light of an area
    spell the attack is made into, out of or across (the worst one counts)."""
    mods = list(modifiers(b, att, "offence"))
    worst: tuple[int, str] | None = None
    touched: set[Hex] | None = None
    for e in areas(b):
        if not e.spell.light:
            continue
        if touched is None:
            touched = {lh.hex for lh in line_hexes(att.hex, target_hex)} | {att.hex, target_hex}
        if touched & e.hexes() and (worst is None or e.spell.light < worst[0]):
            worst = (e.spell.light, e.spell.name)
    if worst is not None:
        mods.append(Modifier(f"bad light ({worst[1]})", worst[0]))
    return mods


def damage_factors(
    b: BattleState,
    att: Figure,
    tgt: Figure,
    weapon: Weapon,
    location: str,
    off: tuple[Factor, ...],
    dfn: tuple[Factor, ...],
) -> tuple[tuple[Factor, ...], tuple[Factor, ...]]:
    """Spells in the damage factors (FTC 7.1-7.2): a weakened attacker's Strength, and a spell's own
    defensive factors (armour left out for spells that pass through it)."""
    entry = b.effects_state.spell_weapons.get(weapon.name)
    if entry is not None and entry[0] is weapon:
        dfn = magic.spell_defensive_factors(entry[1], tgt.character, location=location)
    if weapon.muscle_powered:
        off = (*off, *(Factor(m.name, m.value) for m in modifiers(b, att, "strength")))
    return off, dfn


def spell_weapon(b: BattleState, item: magic.Spell) -> Weapon:
    """A damage spell's weapon (FTC 8.3: its damage factor), made once, so that its blows are known as the
    spell's (``damage_factors``)."""
    entry = b.effects_state.spell_weapons.get(item.name)
    if entry is None:
        entry = (magic.spell_weapon(item), item)
        b.effects_state.spell_weapons[item.name] = entry
    return entry[0]
