"""Magic on the battle screen (FTC 8; issue 7 item 5): the spell part of the declaration panel, spell ranges
and areas on the board, casting progress and effect badges on the tokens, spell lines in the inspector.

The battle screen keeps the declaration being edited (``DeclState``: ``spell``, ``spell_target``,
``spell_hex``) and calls the hooks here; everything the screen shows comes from the battle
(``declare_options``, ``spell_targets``, ``spell_hexes``, ``casting_of``, ``effects_on``) and the odds from
``game.ui.preview.spell_preview``, built on ``Battle.spell_terms`` like the resolution (DESIGN.md rules 2, 3).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import pygame

from game.engine import actions as act
from game.engine import events as ev
from game.engine import magic
from game.engine.battle import Battle, Figure
from game.engine.hexgrid import Hex, distance, front_hexes
from game.engine.ladder import level_name
from game.ui import theme
from game.ui.preview import SpellPreview, concentration_odds, percent, spell_preview
from game.ui.view import HexFill, LineOfFireView
from game.ui.widgets import Button, Tooltip

if TYPE_CHECKING:
    from game.ui.battle_screen import BattleScreen

RGB = tuple[int, int, int]
MAGIC: RGB = (176, 120, 240)
"""The colour of magic on the board: spell ranges, targets, casting bars and effect badges."""
MAGIC_CB: RGB = (204, 121, 167)
"""Okabe & Ito's reddish purple, for the colour-blind palette."""
BROKEN: RGB = (255, 90, 200)
"""A broken concentration in the log: it must stand out from wounds and misses."""
ROW = 34
"""Height of the spell row the panel grows by for a figure that knows spells (unscaled pixels)."""


def magic_colour(screen: BattleScreen) -> RGB:
    """The magic overlay colour of the current palette."""
    return MAGIC_CB if screen.ui.settings.colour_blind else MAGIC


# --------------------------------------------------------------------------------------------- text


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
        "heal": f"heals {item.heal_levels} wound level(s)",
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
        out.append((f"{e.spell.name} (by {by}): {e.rounds_left} round(s) left", MAGIC))
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


def log_entries(screen: BattleScreen, events: list[ev.Event]) -> list[tuple[str, tuple[str, ...], RGB | None]]:
    """The screen's log entries for these events; a caster's declaration reads "casts X" instead of "attacks
    nobody with <weapon>" (the casting event that follows it names the spell, FTC 8)."""
    out = [screen._entry(e) for e in events]
    names = screen.battle.names()
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


# ------------------------------------------------------------------------------------ the declaration


def casting_spell(screen: BattleScreen) -> str | None:
    """The spell the declaring figure is concentrating on (FTC 8.1), if any."""
    fid = screen.decl.figure
    conc = screen.battle.casting_of(fid) if fid else None
    return conc.spell.name if conc is not None else None


def default_spell(battle: Battle, fid: str) -> str | None:
    """A fresh declaration's spell: a concentrating caster continues by default (FTC 8.1)."""
    conc = battle.casting_of(fid)
    return conc.spell.name if conc is not None else None


def known(screen: BattleScreen) -> list[str]:
    """The spells the declaring figure knows (``declare_options()["spells"]``)."""
    spells = screen.declare_options().get("spells") or {}
    return list(spells)


def extra_height(screen: BattleScreen, fid: str | None) -> int:
    """How much taller the declaration panel is for the spell row (0 for a figure without spells)."""
    fig = screen.battle.figures.get(fid or "")
    return screen.ui.s(ROW) if fig is not None and fig.character.spells else 0


def is_area(name: str) -> bool:
    """Whether the spell is centred on a hex (an area, FTC 8)."""
    return magic.spell(name).target == "hex"


def spell_targets(screen: BattleScreen, name: str) -> list[str]:
    """Figures the declaring figure may cast this spell on now (the battle's own list)."""
    return list((screen.declare_options().get("spells") or {}).get(name, []))


def spell_hexes(screen: BattleScreen, name: str) -> list[Hex]:
    """Hexes an area spell may be centred on now (cached per battle state)."""
    key = ("spell_hexes", screen.version, screen.decl.figure, name)
    cached = screen._preview_cache.get(key)
    if cached is None:
        cached = screen.battle.spell_hexes(screen.decl.figure, name)  # type: ignore[assignment]
        screen._preview_cache[key] = cached
    return cached  # type: ignore[return-value]


def why_not(screen: BattleScreen, name: str) -> str:
    """Why a spell cannot be cast now ("" when it can)."""
    if name == casting_spell(screen):
        return ""
    if (is_area(name) and spell_hexes(screen, name)) or (not is_area(name) and spell_targets(screen, name)):
        return ""
    item = magic.spell(name)
    fig = screen.battle.figure(screen.decl.figure)
    if magic.resolves_when(item) == "last_round" and fig.hexes_moved:
        return f"{item.name} needs a caster who stood still this round (FTC 8.1)."
    return f"Nothing is within {item.range} range and in sight for {item.name} now."


def choose(screen: BattleScreen, name: str | None) -> bool:
    """Choose a spell to cast (None: abandon the spell, attack or defend instead)."""
    d = screen.decl
    if name is not None and d.spell == name and name != casting_spell(screen):
        name = None  # a second click on the chosen spell puts it back
    d.spell, d.spell_target, d.spell_hex = name, None, None
    if name is not None:
        d.target, d.advance, d.second_move = None, [], False
        item = magic.spell(name)
        targets = spell_targets(screen, name)
        if item.target == "self" or (item.target == "ally" and targets == [d.figure]):
            d.spell_target = d.figure
        elif len(targets) == 1 and not is_area(name):
            d.spell_target = targets[0]
    screen._view = None
    return True


def add_buttons(screen: BattleScreen, rect: pygame.Rect) -> None:
    """The spell row of the declaration panel, above the Declare button: each known spell (with its tooltip),
    and for a concentrating caster the spell he continues and an Abandon button (FTC 8.1)."""
    names = known(screen)
    if not names:
        return
    s, text = screen.ui.s, screen.ui.text
    x, y = rect.x + s(64), rect.bottom - s(40) - s(ROW)
    going = casting_spell(screen)
    fig = screen.battle.figure(screen.decl.figure)
    for name in names:
        item = magic.spell(name)
        label = name
        if name == going:
            conc = screen.battle.casting_of(fig.id)
            assert conc is not None
            done, needed = conc.progress
            label = f"Continue {name} ({done + 1}/{needed})"
        w = max(64, min(220, text.width(label, 12) // max(1, screen.ui.settings.ui_scale) + 20))
        if x + s(w) > rect.right - s(8):
            break
        reason = why_not(screen, name)
        b = Button(
            label,
            functools.partial(choose, screen, name),
            pygame.Rect(x, y, s(w), s(26)),
            size=12,
            enabled=not reason,
            tooltip=(spell_tooltip(item, fig) + (f" — {reason}" if reason else "")),
        )
        b.focused = screen.decl.spell == name
        screen.buttons.append(b)
        x += s(w) + s(6)
    if going is not None and x + s(80) <= rect.right - s(8):
        b = Button(
            "Abandon",
            functools.partial(choose, screen, None),
            pygame.Rect(x, y, s(80), s(26)),
            size=12,
            tooltip=f"Stop concentrating on {going}: the spell is lost; attack or defend instead (FTC 8.1).",
        )
        b.focused = screen.decl.spell is None
        screen.buttons.append(b)


def paint_row_label(screen: BattleScreen, surf: pygame.Surface) -> None:
    """The "Spells:" label in front of the spell row (panel coordinates)."""
    if not known(screen):
        return
    s = screen.ui.s
    h = surf.get_height()
    screen.ui.text.blit(surf, "Spells:", (s(12), h - s(40) - s(ROW) + s(6)), 12, magic_colour(screen))


def click(screen: BattleScreen, h: Hex, occupant: Figure | None) -> bool:
    """A board click while a spell is chosen: pick its target (a figure, or the centre hex of an area)."""
    d = screen.decl
    if d.spell is None or d.spell == casting_spell(screen):
        return d.spell is not None
    if is_area(d.spell):
        if h in spell_hexes(screen, d.spell):
            d.spell_hex = h
            return True
        return False
    if occupant is not None and occupant.id in spell_targets(screen, d.spell):
        d.spell_target = occupant.id
        return True
    return False


def cycle_target(screen: BattleScreen) -> bool:
    """T with a spell chosen: the next figure (or hex with a figure, for an area) it can be cast on."""
    d = screen.decl
    assert d.spell is not None
    if is_area(d.spell):
        hexes = spell_hexes(screen, d.spell)
        with_enemy = [screen.battle.figure(t).hex for t in spell_targets(screen, d.spell)]
        pool = [h for h in with_enemy if h in hexes] or hexes
        if not pool:
            return False
        d.spell_hex = pool[(pool.index(d.spell_hex) + 1) % len(pool)] if d.spell_hex in pool else pool[0]
    else:
        ts = spell_targets(screen, d.spell)
        if not ts:
            return False
        d.spell_target = ts[(ts.index(d.spell_target) + 1) % len(ts)] if d.spell_target in ts else ts[0]
    screen._view = None
    return True


def declare_action(screen: BattleScreen) -> act.Declare:
    """The Declare action for the spell being edited (FTC 8; ``actions.Declare`` spell fields)."""
    d = screen.decl
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


def preview(screen: BattleScreen) -> SpellPreview | None:
    """The odds of the casting being edited (cached per state); None until it has a target."""
    d = screen.decl
    if d.spell is None:
        return None
    conc = screen.battle.casting_of(d.figure)
    target: str | Hex | None
    if conc is not None and conc.spell.name == d.spell:
        target = conc.target
    else:
        target = d.spell_hex if is_area(d.spell) else d.spell_target
        if target is None:
            return None
    key = ("spell", screen.version, d.key())
    if key not in screen._preview_cache:
        try:
            screen._preview_cache[key] = spell_preview(  # type: ignore[assignment]
                screen.battle, d.figure, d.spell, target, d.stance, dodge=tuple(sorted(d.dodge))
            )
        except (ValueError, KeyError):
            screen._preview_cache[key] = None
    return screen._preview_cache[key]  # type: ignore[return-value]


# ------------------------------------------------------------------------------------------ the board


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
                and battle._spell_reaches(fig, item, h, None)
            ):
                out.add(h)
    return frozenset(out)


def overlays(screen: BattleScreen) -> tuple[list[HexFill], LineOfFireView | None]:
    """The board while a spell is chosen: its range band, the figures (or hexes) it can be cast on, the chosen
    target, the area under the cursor or on the chosen hex, and the line of fire of a spell cast at a distance."""
    d = screen.decl
    assert d.spell is not None
    colour = magic_colour(screen)
    item = magic.spell(d.spell)
    key = ("spell_range", screen.version, d.figure, item.name)
    band = screen._preview_cache.get(key)
    if band is None:
        band = range_hexes(screen.battle, d.figure, item)  # type: ignore[assignment]
        screen._preview_cache[key] = band
    fills = [HexFill(band, colour, 55)]  # type: ignore[arg-type]
    conc = screen.battle.casting_of(d.figure)
    continuing = conc is not None and conc.spell.name == d.spell
    if continuing:
        assert conc is not None
        t = conc.target
        if isinstance(t, Hex):
            fills.append(HexFill(magic.area_hexes(item, t), colour, 120, outline=True))
        elif t is not None and t in screen.battle.figures:
            fills.append(HexFill(frozenset({screen.battle.figure(t).hex}), theme.DANGER, 150, outline=True))
    elif item.target == "hex":
        centre = d.spell_hex
        hover = screen.hover_hex
        if hover is not None and hover in spell_hexes(screen, d.spell):
            fills.append(HexFill(magic.area_hexes(item, hover), colour, 90, outline=hover != centre))
        if centre is not None:
            fills.append(HexFill(magic.area_hexes(item, centre), colour, 150, outline=True))
    else:
        targets = frozenset(screen.battle.figure(t).hex for t in spell_targets(screen, d.spell))
        fills.append(HexFill(targets, colour, 80, outline=True))
        if d.spell_target is not None:
            fills.append(
                HexFill(frozenset({screen.battle.figure(d.spell_target).hex}), theme.DANGER, 150, outline=True)
            )
    pv = preview(screen)
    lof = screen._lof_view(pv) if pv is not None and pv.line is not None else None  # type: ignore[arg-type]
    return fills, lof


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
            (e.spell.name[:1].upper(), f"{e.spell.name} on {f.name}: {e.rounds_left} round(s) left")
            for e in battle.effects_on(f.id)
        )
        if progress is not None or badges:
            out.append((f.id, f.hex, progress, badges))
    return out


def _marks(screen: BattleScreen) -> list[tuple[str, Hex, tuple[int, int] | None, tuple[tuple[str, str], ...]]]:
    cache: dict[str, Any] = screen.__dict__.setdefault("_spell_marks", {})
    if cache.get("version") != screen.version:
        cache["version"], cache["marks"] = screen.version, token_marks(screen.battle)
    return cache["marks"]  # type: ignore[no-any-return]


def _badge_spots(screen: BattleScreen) -> list[tuple[float, float, float, str]]:
    cam = screen.board.camera
    r = screen.board.token_radius()
    br = max(4.0, r * 0.32)
    spots = []
    for _, h, _, badges in _marks(screen):
        cx, cy = cam.hex_to_screen(h)
        for i, (_, tip) in enumerate(badges[:3]):
            spots.append((cx + r * 0.85 - i * br * 1.9, cy - r * 0.9, br, tip))
    return spots


def draw_token_marks(screen: BattleScreen, surface: pygame.Surface) -> None:
    """Casting progress as a ring of segments around a concentrating caster's token (rounds done of needed,
    FTC 8.1), and a badge with its initial for each spell effect on a figure."""
    marks = _marks(screen)
    if not marks:
        return
    cam = screen.board.camera
    r = screen.board.token_radius()
    colour = magic_colour(screen)
    view = pygame.Rect(cam.view)
    clip = surface.get_clip()
    surface.set_clip(view)
    for _, h, progress, badges in marks:
        cx, cy = cam.hex_to_screen(h)
        if not view.collidepoint(cx, cy):
            continue
        if progress is not None:
            done, needed = progress
            width = max(3, round(r / 4))
            ring = pygame.Rect(0, 0, 2 * (r + width + 4), 2 * (r + width + 4))
            ring.center = (round(cx), round(cy))
            pygame.draw.circle(surface, (20, 16, 30), ring.center, ring.width // 2 + 1, width + 2)
            gap = 0.12 if needed > 1 else 0.0
            step = 2 * math.pi / max(1, needed)
            for i in range(needed):
                start = math.pi / 2 - (i + 1) * step + gap / 2
                stop = math.pi / 2 - i * step - gap / 2
                c = colour if i < done else (70, 60, 90)
                if i == done:  # the round being cast now
                    c = (235, 215, 255)
                pygame.draw.arc(surface, c, ring, start, stop, width)
        if badges:
            text = screen.ui.text
            br = max(4.0, r * 0.32)
            for i, (letter, _) in enumerate(badges[:3]):
                bx, by = cx + r * 0.85 - i * br * 1.9, cy - r * 0.9
                pygame.draw.circle(surface, (20, 16, 30), (bx, by), br + 1.5)
                pygame.draw.circle(surface, colour, (bx, by), br)
                if br >= 6:
                    text.blit(
                        surface,
                        letter,
                        (round(bx), round(by)),
                        max(8, round(br * 1.4)),
                        (20, 16, 30),
                        bold=True,
                        anchor="center",
                    )
    surface.set_clip(clip)


# ----------------------------------------------------------------------------------------- tooltips


def hover(screen: BattleScreen, pos: tuple[int, int]) -> None:
    """The tooltip under the mouse: a spell button's description, or an effect badge (spell, rounds left)."""
    tip: Tooltip = screen.__dict__.setdefault("_spell_tip", Tooltip(delay=0.0))
    text = ""
    for b in screen.buttons:
        if b.hint and b.rect.collidepoint(pos) and b.visible:
            text = b.hint
            break
    if not text:
        text = screen.log.cut_line_at(pos)  # a log line cut with "…" shows whole under the mouse
    if not text and pygame.Rect(screen.board.camera.view).collidepoint(pos):
        for bx, by, br, t in _badge_spots(screen):
            if (pos[0] - bx) ** 2 + (pos[1] - by) ** 2 <= (br + 2) ** 2:
                text = t
                break
    tip.hover(text, pos)
    tip.update(1.0)


def draw_tooltip(screen: BattleScreen, surface: pygame.Surface) -> None:
    """Paint the current spell tooltip, if any."""
    tip: Tooltip | None = screen.__dict__.get("_spell_tip")
    if tip is not None:
        tip.draw(surface, screen.ui.text)


# -------------------------------------------------------------------------------------- the odds column


def paint_odds(screen: BattleScreen, surf: pygame.Surface, ox: int, ow: int) -> None:
    """The odds column for a casting: P(reaching the difficulty), P(taking effect), against a dodging target,
    the casting roll's terms (FTC 8.1, 8.3), the damage outcomes of a bolt."""
    s, text = screen.ui.s, screen.ui.text
    h = surf.get_height()
    d = screen.decl
    assert d.spell is not None
    item = magic.spell(d.spell)
    colour = magic_colour(screen)
    y = s(8)
    conc = screen.battle.casting_of(d.figure)
    if conc is not None and conc.spell.name == d.spell:
        done, needed = conc.progress
        head = f"Continue casting {item.name} (round {done + 1} of {needed})"
        keep = concentration_odds(screen.battle, d.figure)
        sub = (
            "it takes effect in this round's attack phase"
            if conc.takes_effect_this_round
            else f"{conc.rounds_left - 1} more round(s) after this one; stand still, a dodge needs a Good Will "
            f"roll (kept {percent(keep['dodge'])}), damage a Great one ({percent(keep['damaged'])})"
        )
        text.blit(surf, head, (ox, y), 15, colour, bold=True)
        y += s(22)
        for part in text.wrap(sub, 11, ow)[:2]:
            text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
            y += text.line_height(11)
        y += s(4)
        if not conc.takes_effect_this_round:
            return
    pv = preview(screen)
    if pv is None:
        what = (
            "Click a hex in the purple range to centre the area (the cursor shows it), or press T."
            if item.target == "hex"
            else "Click a figure outlined in purple to cast at it, or press T."
        )
        lines = [
            f"{item.name}: {item.casting_time}, {item.range} range, {item.skill} vs {level_name(item.difficulty)}.",
            what,
        ]
        for part in text.wrap(" ".join(lines), 13, ow):
            text.blit(surf, part, (ox, y), 13, theme.TEXT)
            y += text.line_height(13)
        return
    names = screen.battle.names()
    on = names.get(pv.target, "") if pv.target else (f"hex {pv.hex.q},{pv.hex.r}" if pv.hex else "")
    if conc is None or conc.spell.name != d.spell:
        text.blit(
            surf, f"{item.name}{' → ' + on if on else ''}: P(cast) {percent(pv.cast)}", (ox, y), 15, colour, bold=True
        )
        y += s(22)
    mods = "".join(f" {m.value:+d} {m.name}" for m in pv.modifiers)
    line = (
        f"{item.skill} {level_name(pv.skill)}{mods} = {level_name(pv.result)} + 4dF vs difficulty "
        f"{level_name(pv.difficulty)}"
    )
    for part in text.wrap(line, 11, ow)[:2]:
        text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
        y += text.line_height(11)
    y += s(4)
    parts = []
    if pv.effect != pv.cast:
        parts.append(f"takes effect {percent(pv.effect)}")
    if pv.dodged is not None:
        parts.append(f"if {on} dodges (dodge {level_name(pv.dodge or 0)}): {percent(pv.dodged)}")
    if pv.touch is not None:
        dfn = f" vs defence {level_name(pv.touch_defence)}" if pv.touch_defence is not None else ""
        parts.append(f"touch attack {level_name(pv.touch)}{dfn}")
    if parts:
        text.blit(surf, " · ".join(parts), (ox, y), 13, theme.TEXT)
        y += s(20)
    if pv.distribution is not None:
        y = screen._paint_distribution(surf, pv.distribution, pygame.Rect(ox, y, ow, s(14)))
    notes = []
    if pv.line is not None:
        if pv.line.blocked:
            notes.append("line of sight BLOCKED")
        elif pv.line.partial_cover:
            notes.append("partial cover (−1)")
    when = magic.resolves_when(item)
    notes.append(
        {
            "declaration": "1 second: rolled now, before the other attacks",
            "attack": "resolved with the attacks",
            "last_round": f"concentration over {magic.casting_rounds(item)} rounds",
        }[when]
    )
    notes.extend(pv.assumptions)
    for part in text.wrap(" · ".join(notes), 11, ow)[: max(0, (h - y - s(4)) // text.line_height(11))]:
        text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
        y += text.line_height(11)
