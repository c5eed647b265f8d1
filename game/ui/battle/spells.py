"""The spell panel of the battle screen (FTC 8): the spell row of the declaration panel, spell ranges and
areas on the board, casting progress and effect badges on the tokens, the odds column of a casting.

The declaration being edited is the model's (``DeclState``: ``spell``, ``spell_target``, ``spell_hex``);
this part edits its spell fields. Everything it shows comes from the battle through the model
(``known_spells``, ``spell_targets``, ``spell_hexes``, ``casting_spell``) and the odds from its
``spell_preview`` (``game.ui.preview.spell_preview``, built on ``Battle.spell_terms`` like the resolution); the
words and shapes that need no screen are in ``game.ui.battle.spellbook``.
"""

from __future__ import annotations

import functools
import math
from typing import Protocol

import pygame

from game.engine import magic
from game.engine.battle import Figure
from game.engine.hexgrid import Hex
from game.engine.ladder import level_name
from game.ui import theme
from game.ui.battle.common import RGB, BoardHost, line_of_fire_view, paint_distribution, paint_notes
from game.ui.battle.declaration import bystander_notes, cover_notes
from game.ui.battle.spellbook import is_area, magic_colour, range_hexes, spell_tooltip, token_marks
from game.ui.battle.words import counted, hex_name
from game.ui.preview import concentration_odds, percent
from game.ui.view import HexFill, LineOfFireView
from game.ui.widgets import Button, cycled

ROW = 34
"""Height of the spell row the panel grows by for a figure that knows spells (unscaled pixels)."""
Mark = tuple[str, Hex, tuple[int, int] | None, tuple[tuple[str, str], ...]]


class SpellHost(BoardHost, Protocol):
    """The battle screen as the spell panel sees it: the board (token marks, badges), the map (hex names) and
    the board's view to rebuild after an edit."""

    def invalidate(self) -> None: ...


class SpellPanel:
    """The spell part of the declaration panel and the magic drawn on the board."""

    def __init__(self, screen: SpellHost) -> None:
        self.screen = screen
        self.model = screen.model
        self._marks_cache: tuple[int, list[Mark]] | None = None

    @property
    def colour(self) -> RGB:
        """The magic overlay colour of the current palette."""
        return magic_colour(self.screen.ui.settings.colour_blind)

    def extra_height(self, fid: str | None) -> int:
        """How much taller the declaration panel is for the spell row (0 for a figure without spells)."""
        fig = self.model.battle.figures.get(fid or "")
        return self.screen.ui.s(ROW) if fig is not None and fig.character.spells else 0

    def why_not(self, name: str) -> str:
        """Why a spell cannot be cast now ("" when it can)."""
        if name == self.model.casting_spell():
            return ""
        if (is_area(name) and self.model.spell_hexes(name)) or (not is_area(name) and self.model.spell_targets(name)):
            return ""
        item = magic.spell(name)
        fig = self.model.battle.figure(self.model.decl.figure)
        if magic.resolves_when(item) == "last_round" and fig.hexes_moved:
            return f"{item.name} needs a caster who stood still this round (FTC 8.1)."
        return f"Nothing is within {item.range} range and in sight for {item.name} now."

    def choose(self, name: str | None) -> bool:
        """Choose a spell to cast (None: abandon the spell, attack or defend instead)."""
        d = self.model.decl
        if name is not None and d.spell == name and name != self.model.casting_spell():
            name = None  # a second click on the chosen spell puts it back
        d.spell, d.spell_target, d.spell_hex = name, None, None
        if name is not None:
            d.target, d.advance, d.second_move = None, [], False
            item = magic.spell(name)
            targets = self.model.spell_targets(name)
            if item.target == "self" or (item.target == "ally" and targets == [d.figure]):
                d.spell_target = d.figure
            elif len(targets) == 1 and not is_area(name):
                d.spell_target = targets[0]
        self.screen.invalidate()
        return True

    def buttons(self, rect: pygame.Rect) -> list[Button]:
        """The spell row of the declaration panel, above the Declare button: each known spell (with its tooltip),
        and for a concentrating caster the spell he continues and an Abandon button (FTC 8.1)."""
        out: list[Button] = []
        names = self.model.known_spells()
        if not names:
            return out
        s, text = self.screen.ui.s, self.screen.ui.text
        x, y = rect.x + s(64), rect.bottom - s(40) - s(ROW)
        going = self.model.casting_spell()
        fig = self.model.battle.figure(self.model.decl.figure)
        for name in names:
            item = magic.spell(name)
            label = name
            if name == going:
                conc = self.model.battle.casting_of(fig.id)
                assert conc is not None
                done, needed = conc.progress
                label = f"Continue {name} ({done + 1}/{needed})"
            w = max(64, min(220, text.width(label, 12) // max(1, self.screen.ui.settings.ui_scale) + 20))
            if x + s(w) > rect.right - s(8):
                break
            reason = self.why_not(name)
            b = Button(
                label,
                functools.partial(self.choose, name),
                pygame.Rect(x, y, s(w), s(26)),
                size=12,
                enabled=not reason,
                tooltip=(spell_tooltip(item, fig) + (f" — {reason}" if reason else "")),
            )
            b.focused = self.model.decl.spell == name
            out.append(b)
            x += s(w) + s(6)
        if going is not None and x + s(80) <= rect.right - s(8):
            b = Button(
                "Abandon",
                functools.partial(self.choose, None),
                pygame.Rect(x, y, s(80), s(26)),
                size=12,
                tooltip=f"Stop concentrating on {going}: the spell is lost; attack or defend instead (FTC 8.1).",
            )
            b.focused = self.model.decl.spell is None
            out.append(b)
        return out

    def paint_row_label(self, surf: pygame.Surface) -> None:
        """The "Spells:" label in front of the spell row (panel coordinates)."""
        if not self.model.known_spells():
            return
        s = self.screen.ui.s
        h = surf.get_height()
        self.screen.ui.text.blit(surf, "Spells:", (s(12), h - s(40) - s(ROW) + s(6)), 12, self.colour)

    def click(self, h: Hex, occupant: Figure | None) -> bool:
        """A board click while a spell is chosen: pick its target (a figure, or the centre hex of an area)."""
        d = self.model.decl
        if d.spell is None or d.spell == self.model.casting_spell():
            return d.spell is not None
        if is_area(d.spell):
            if h in self.model.spell_hexes(d.spell):
                d.spell_hex = h
                return True
            return False
        if occupant is not None and occupant.id in self.model.spell_targets(d.spell):
            d.spell_target = occupant.id
            return True
        return False

    def cycle_target(self) -> bool:
        """T with a spell chosen: the next figure (or hex with a figure, for an area) it can be cast on."""
        d = self.model.decl
        assert d.spell is not None
        if is_area(d.spell):
            hexes = self.model.spell_hexes(d.spell)
            with_enemy = [self.model.battle.figure(t).hex for t in self.model.spell_targets(d.spell)]
            pool = [h for h in with_enemy if h in hexes] or hexes
            if not pool:
                return False
            d.spell_hex = cycled(pool, d.spell_hex)
        else:
            ts = self.model.spell_targets(d.spell)
            if not ts:
                return False
            d.spell_target = cycled(ts, d.spell_target)
        self.screen.invalidate()
        return True

    def overlays(self) -> tuple[list[HexFill], LineOfFireView | None]:
        """The board while a spell is chosen: its range band, the figures (or hexes) it can be cast on, the chosen
        target, the area under the cursor or on the chosen hex, and the line of fire of a spell cast at a distance."""
        d = self.model.decl
        assert d.spell is not None
        colour = self.colour
        item = magic.spell(d.spell)
        band: frozenset[Hex] = self.model.memo(
            ("spell_range", self.model.version, d.figure, item.name),
            lambda: range_hexes(self.model.battle, d.figure, item),
        )
        fills = [HexFill(band, colour, 55)]
        conc = self.model.battle.casting_of(d.figure)
        continuing = conc is not None and conc.spell.name == d.spell
        if continuing:
            assert conc is not None
            t = conc.target
            if isinstance(t, Hex):
                fills.append(HexFill(magic.area_hexes(item, t), colour, 120, outline=True))
            elif t is not None and t in self.model.battle.figures:
                fills.append(HexFill(frozenset({self.model.battle.figure(t).hex}), theme.DANGER, 150, outline=True))
        elif item.target == "hex":
            centre = d.spell_hex
            hover = self.model.selection.hover
            if hover is not None and hover in self.model.spell_hexes(d.spell):
                fills.append(HexFill(magic.area_hexes(item, hover), colour, 90, outline=hover != centre))
            if centre is not None:
                fills.append(HexFill(magic.area_hexes(item, centre), colour, 150, outline=True))
        else:
            targets = frozenset(self.model.battle.figure(t).hex for t in self.model.spell_targets(d.spell))
            fills.append(HexFill(targets, colour, 80, outline=True))
            if d.spell_target is not None:
                fills.append(
                    HexFill(frozenset({self.model.battle.figure(d.spell_target).hex}), theme.DANGER, 150, outline=True)
                )
        pv = self.model.spell_preview()
        lof = line_of_fire_view(self.model.battle, pv) if pv is not None and pv.line is not None else None
        return fills, lof

    def _marks(self) -> list[Mark]:
        if self._marks_cache is None or self._marks_cache[0] != self.model.version:
            self._marks_cache = (self.model.version, token_marks(self.model.battle))
        return self._marks_cache[1]

    def _badge_spots(self) -> list[tuple[float, float, float, str]]:
        cam = self.screen.board.camera
        r = self.screen.board.token_radius()
        br = max(4.0, r * 0.32)
        spots = []
        for _, h, _, badges in self._marks():
            cx, cy = cam.hex_to_screen(h)
            for i, (_, tip) in enumerate(badges[:3]):
                spots.append((cx + r * 0.85 - i * br * 1.9, cy - r * 0.9, br, tip))
        return spots

    def draw_token_marks(self, surface: pygame.Surface) -> None:
        """Casting progress as a ring of segments around a concentrating caster's token (rounds done of needed,
        FTC 8.1), and a badge with its initial for each spell effect on a figure."""
        marks = self._marks()
        if not marks:
            return
        cam = self.screen.board.camera
        r = self.screen.board.token_radius()
        colour = self.colour
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
                text = self.screen.ui.text
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

    def badge_tip(self, pos: tuple[int, int]) -> str:
        """The tooltip of the effect badge under a screen point (spell, rounds left), or ""."""
        for bx, by, br, t in self._badge_spots():
            if (pos[0] - bx) ** 2 + (pos[1] - by) ** 2 <= (br + 2) ** 2:
                return t
        return ""

    def paint_odds(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        """The odds column for a casting: P(reaching the difficulty), P(taking effect), against a dodging target,
        the casting roll's terms (FTC 8.1, 8.3), the damage outcomes of a bolt."""
        s, text = self.screen.ui.s, self.screen.ui.text
        ox, ow, h = area.x, area.width, area.bottom
        d = self.model.decl
        assert d.spell is not None
        item = magic.spell(d.spell)
        y = area.y
        conc = self.model.battle.casting_of(d.figure)
        if conc is not None and conc.spell.name == d.spell:
            done, needed = conc.progress
            head = f"Continue casting {item.name} (round {done + 1} of {needed})"
            keep = concentration_odds(self.model.battle, d.figure)
            sub = (
                "it takes effect in this round's attack phase"
                if conc.takes_effect_this_round
                else f"{counted(conc.rounds_left - 1, 'more round')} after this one; stand still, a dodge needs a "
                f"Good Will roll (kept {percent(keep['dodge'])}), damage a Great one ({percent(keep['damaged'])})"
            )
            y = self._paint_head(surf, head, area, y)
            for part in text.wrap(sub, 11, ow)[:2]:
                text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
                y += text.line_height(11)
            y += s(4)
            if not conc.takes_effect_this_round:
                return
        pv = self.model.spell_preview()
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
        names = self.model.battle.names()
        layout = self.screen.data.layout
        on = (
            names.get(pv.target, "")
            if pv.target
            else (hex_name(self.model.battle, layout, pv.hex, d.figure) if pv.hex else "")
        )
        if conc is None or conc.spell.name != d.spell:  # (the chance stays with its name: a no-break space)
            head = f"{item.name}{' → ' + on if on else ''}: P(cast)\u00a0{percent(pv.cast)}"
            y = self._paint_head(surf, head, area, y)
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
        if pv.dodging and pv.dodged is not None:  # the target declared its dodge: that is the chance (FTC 8.3)
            parts.append(f"{on} dodges (dodge {level_name(pv.dodge or 0)}): takes effect {percent(pv.dodged)}")
        elif pv.effect != pv.cast:
            parts.append(f"takes effect {percent(pv.effect)}")
        if pv.dodged is not None and pv.dodging is None:
            parts.append(f"if {on} dodges (dodge {level_name(pv.dodge or 0)}): {percent(pv.dodged)}")
        if pv.touch is not None:
            dfn = f" vs defence {level_name(pv.touch_defence)}" if pv.touch_defence is not None else ""
            parts.append(f"touch attack {level_name(pv.touch)}{dfn}")
        if parts:
            for part in text.wrap(" · ".join(parts), 13, ow)[:2]:
                text.blit(surf, text.fit(part, 13, ow), (ox, y), 13, theme.TEXT)
                y += text.line_height(13)
            y += s(4)
        if pv.distribution is not None:
            y = paint_distribution(self.screen.ui, surf, pv.distribution, pygame.Rect(ox, y, ow, s(14)))
        notes = cover_notes(pv.line, "line of sight BLOCKED")
        when = magic.resolves_when(item)
        notes.append(
            {
                "declaration": "1 second: rolled now, before the other attacks",
                "attack": "resolved with the attacks",
                "last_round": f"concentration over {magic.casting_rounds(item)} rounds",
            }[when]
        )
        named = self.model.battle.figure
        notes.extend(bystander_notes([(named(b.figure).name, b.friend, b.chance) for b in pv.bystanders if b.chance]))
        notes.extend(pv.assumptions)
        paint_notes(self.screen.ui, surf, notes, ox, y, ow, h)

    def _paint_head(self, surf: pygame.Surface, head: str, area: pygame.Rect, y: int) -> int:
        """The odds' heading in the spell's colour: on two lines where the column is narrow, never past its
        edge; returns the height under it."""
        s, text = self.screen.ui.s, self.screen.ui.text
        heads = text.wrap(head, 15, area.width, bold=True)[:2]
        for part in heads:
            text.blit(surf, text.fit(part, 15, area.width, True), (area.x, y), 15, self.colour, bold=True)
            y += text.line_height(15, True) if len(heads) > 1 else s(22)
        return y
