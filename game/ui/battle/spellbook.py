"""Magic in words and shapes for the battle screen (FTC 8): what a spell does (its tooltip), the magic lines of
the hover inspector and the log, where a spell reaches, the casting marks on tokens.

Plain functions of the battle (no screen): the spell panel, the log and the inspector all use them.
"""

from __future__ import annotations

from game.colours import RGB
from game.engine import events as ev
from game.engine import magic
from game.engine.battle import Battle, Figure
from game.engine.hexgrid import Hex, distance, front_hexes
from game.engine.ladder import level_name
from game.ui import theme
from game.ui.battle.words import Entry, counted

MAGIC: RGB = (176, 120, 240)
"""The colour of magic on the board: spell ranges, targets, casting bars and effect badges."""
MAGIC_CB: RGB = (204, 121, 167)
"""Okabe & Ito's reddish purple, for the colour-blind palette."""
BROKEN: RGB = (255, 90, 200)
"""A broken concentration in the log: it must stand out from wounds and misses."""


def magic_colour(colour_blind: bool) -> RGB:
    """The magic overlay colour of the palette."""
    return MAGIC_CB if colour_blind else MAGIC


def spell_tooltip(item: magic.Spell, caster: Figure | None = None) -> str:
    """What a spell does, for its button (FTC 8.1 casting time, 8.3 range, the roll against its difficulty)."""
    reach = magic.spell_range_hexes(item.range)
    where = {"self": "self", "touch": "touch (a front hex)"}.get(
        item.range, f"{item.range} range ({reach} hexes)" if reach is not None else f"{item.range} range (in sight)"
    )
    skill = f"{item.skill}"
    if caster is not None:
        skill += f" {level_name(caster.character.skill_level(item.skill))}"
    parts = [f"{item.name}: casting time {item.casting_time}; {where}; {skill} vs {level_name(item.difficulty)}"]
    what = {
        "damage": f"damage {item.damage:+d}" + ("" if item.armour else ", passes armour"),
        "defence": f"defence {item.defence_bonus:+d}",
        "heal": f"heals {counted(item.heal_levels, 'wound level')}",
        "movement": ", ".join(
            x
            for x in (
                f"movement {item.movement_bonus:+d}" if item.movement_bonus else "",
                f"Speed {item.speed_bonus:+d}" if item.speed_bonus else "",
            )
            if x
        ),
        "condition": f"{item.condition or 'condition'} ({item.applies_to} {item.modifier:+d})"
        if item.applies_to != "acts"
        else f"{item.condition or 'cannot act'}",
        "area": f"area of radius {item.radius}"
        + (", blocks sight" if item.blocks_sight else "")
        + (f", light {item.light}" if item.light else ""),
    }.get(item.effect, item.effect)
    if item.duration != "instant":
        what += f", lasts {item.duration}"
    if item.resist:
        what += f"; resisted by {item.resist.capitalize()}"
    parts[0] += "."
    parts.append(what[:1].upper() + what[1:] + ".")
    if item.notes:
        parts.append(item.notes)
    return " ".join(parts)


def inspector_lines(battle: Battle, fig: Figure) -> list[tuple[str, RGB]]:
    """The hover inspector's magic lines for a figure: spells known, concentration, effects on it (FTC 8)."""
    out: list[tuple[str, RGB]] = []
    known = fig.character.spells
    if known:
        out.append(("Spells: " + ", ".join(known), theme.TEXT_MUTED))
    conc = battle.casting_of(fig.id)
    if conc is not None:
        done, needed = conc.progress
        out.append((f"Concentrating on {conc.spell.name}: round {done + 1} of {needed}", MAGIC))
    for e in battle.effects_on(fig.id):
        by = battle.figures[e.caster].name if e.caster in battle.figures else e.caster
        out.append((f"{e.spell.name} (by {by}): {counted(e.rounds_left, 'round')} left", MAGIC))
    return out


def log_colour(e: ev.Event) -> RGB | None:
    """The log colour of a spell event (None: not a spell event); a broken concentration stands out."""
    if isinstance(e, ev.ConcentrationBroken):
        return BROKEN
    if isinstance(e, ev.ConcentrationRolled):
        return MAGIC if e.kept else BROKEN
    if isinstance(e, ev.SpellCast):
        return MAGIC if e.success and (e.defence is None or e.landed) else theme.TEXT_MUTED
    if isinstance(e, ev.CastingBegan | ev.CastingContinued | ev.EffectBegan | ev.Healed | ev.SpellRecognised):
        return MAGIC
    if isinstance(e, ev.EffectEnded | ev.HeldFast | ev.SpellResisted | ev.TouchAttack):
        return (190, 160, 220)
    return None


def cast_lines(battle: Battle, events: list[ev.Event], entries: list[Entry]) -> list[Entry]:
    """The log entries of these events with a caster's declaration reading "casts X" instead of "attacks
    nobody with <weapon>" (the casting event that follows it names the spell, FTC 8)."""
    out = list(entries)
    names = battle.names()
    for i, e in enumerate(events):
        if not isinstance(e, ev.Declared) or e.hidden or e.targets or e.second_move:
            continue
        for nxt in events[i + 1 : i + 4]:
            if isinstance(nxt, ev.CastingBegan | ev.CastingContinued) and nxt.caster == e.figure:
                verb = "casts" if isinstance(nxt, ev.CastingBegan) else "keeps casting"
                dodge = f", dodging {', '.join(names.get(d, d) for d in e.dodge)}" if e.dodge else ""
                who = names.get(e.figure, e.figure)
                text = f"{who}: {e.stance.replace('_', ' ')} stance, {verb} {nxt.spell}{dodge}"
                out[i] = (text, out[i][1], out[i][2])
                break
    return out


def default_spell(battle: Battle, fid: str) -> str | None:
    """A fresh declaration's spell: a concentrating caster continues by default (FTC 8.1)."""
    conc = battle.casting_of(fid)
    return conc.spell.name if conc is not None else None


def is_area(name: str) -> bool:
    """Whether the spell is centred on a hex (an area, FTC 8)."""
    return magic.spell(name).target == "hex"


def range_hexes(battle: Battle, fid: str, item: magic.Spell) -> frozenset[Hex]:
    """The hexes a spell reaches from the caster (FTC 8.3): its own hex for self, the front hexes for touch,
    close 2 / short 10 hexes in sight, long anything in sight."""
    fig = battle.figure(fid)
    if item.range == "self":
        return frozenset({fig.hex})
    if item.range == "touch":
        return frozenset(h for h in front_hexes(fig.hex, fig.facing) if battle.terrain.contains(h))
    t = battle.terrain
    reach = magic.spell_range_hexes(item.range)
    out = set()
    for row in range(t.height):
        for col in range(t.width):
            h = t.hex_at(col, row)
            if (
                h != fig.hex
                and (reach is None or distance(fig.hex, h) <= reach)
                and battle.spell_reaches_hex(fig.id, item.name, h)
            ):
                out.add(h)
    return frozenset(out)


def token_marks(battle: Battle) -> list[tuple[str, Hex, tuple[int, int] | None, tuple[tuple[str, str], ...]]]:
    """Per figure with magic on it: (id, hex, casting progress (done, needed) or None, effect badges as
    (letter, tooltip)) (FTC 8.1: concentration and lasting effects)."""
    out = []
    for f in battle.figures.values():
        if f.out:
            continue
        conc = battle.casting_of(f.id)
        progress = conc.progress if conc is not None else None
        badges = tuple(
            (e.spell.name[:1].upper(), f"{e.spell.name} on {f.name}: {counted(e.rounds_left, 'round')} left")
            for e in battle.effects_on(f.id)
        )
        if progress is not None or badges:
            out.append((f.id, f.hex, progress, badges))
    return out
