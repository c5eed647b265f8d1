"""The declaration panel of the battle screen (FTC 6.1, 6.2): weapon, stance, target, dodges, advance or
retreat hexes, a second move — and the odds of the attack as edited, with the stances compared.

Under the rule options of the blow a row of its own under the dodges (``game.ui.battle.blow_choices``): stun,
a pulled blow, the enemies ignored; Shift+click adds a sweeping blow's further foes.

The declaration is put together in the model's ``DeclState`` and sent only on Enter; the options and the odds
come from the battle through the model (``declare_options``, ``targets``, ``attack_preview``). A spell
chosen instead of an attack is the spell panel's (``game.ui.battle.spells``).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Protocol

import pygame

from game.engine import actions as act
from game.engine.battle import Decision, Figure
from game.engine.combat import Stance
from game.engine.hexgrid import Hex, direction_to, front_hexes
from game.engine.ladder import level_name
from game.engine.lof import LineOfFire
from game.engine.odds import AIMS
from game.ui import theme
from game.ui.battle.blow_choices import ROW as RULES_ROW
from game.ui.battle.blow_choices import BlowChoices
from game.ui.battle.common import BoardHost, DecisionHost, fit_words, paint_distribution, paint_notes
from game.ui.battle.words import counted, hex_name, signed
from game.ui.preview import AttackPreview, StanceColumn, percent
from game.ui.widgets import Button

LEFT = 440
"""Width of the declaration panel's controls column (the odds fill the rest)."""
LEFT_MIN = 360
"""The narrowest the controls column closes up to (five stance buttons and the two Declare buttons still
read whole) to leave the odds room beside it."""
HEIGHT = 232
ODDS_MIN = 260
"""The narrowest odds column beside the controls; a narrower panel puts the odds under them instead."""
DODGE_GAP = 6
"""Between two buttons of the dodge row (unscaled pixels)."""
ODDS_BELOW = 170
"""How much taller the panel is with the odds under the controls (unscaled pixels)."""
COMPACT_CUT = 36
"""How much higher the dodge row and the odds sit in a compact panel (the stance's text on one line)."""
ODDS_COMPACT = 48
"""The odds' room in a compact panel: the chance to hit and the key modifiers (unscaled pixels)."""
SHORT_STANCES = ("V. aggr.", "Aggr.", "Neutral", "Def.", "V. def.")
STANCE_COLUMNS = {
    "very_aggressive": "Very aggr.",
    "mildly_aggressive": "Mildly aggr.",
    "neutral": "Neutral",
    "mildly_defensive": "Mildly def.",
    "very_defensive": "Very def.",
}


def bystander_notes(bystanders: list[tuple[str, bool, Fraction | float]]) -> list[str]:
    """The figures on the line of fire that a miss may hit (FTC 6.5.3), as (name, friend?, chance): one note
    for the friends and one for the enemies, each naming its figures with their chance, so a crowded line
    reads "friends hit by a miss: Tam 12%, Will 12%" rather than repeating the words for every figure."""
    notes = []
    for friend, one, many in ((True, "friend", "friends"), (False, "enemy", "enemies")):
        named = [f"{name} {percent(chance)}" for name, f, chance in bystanders if f == friend]
        if named:
            notes.append(f"{one if len(named) == 1 else many} hit by a miss: {', '.join(named)}")
    return notes


def cover_notes(line: LineOfFire[str] | None, blocked: str) -> list[str]:
    """The note on a line of fire or sight (FTC 6.5.2): ``blocked`` where nothing gets through, partial cover's
    −1, or nothing on a clear line."""
    if line is None:
        return []
    if line.blocked:
        return [blocked]
    return ["partial cover (−1)"] if line.partial_cover else []


class DeclarationHost(DecisionHost, BoardHost, Protocol):
    """The battle screen as the declaration panel sees it: a decision panel's, and the board (how tall the view
    is: a compact panel) and the map (hex names)."""


class DeclarationPanel:
    """The declaration being edited (``state``), its buttons, keys, board clicks and the odds column."""

    def __init__(self, screen: DeclarationHost) -> None:
        self.screen = screen
        self.model = screen.model
        self.dodge_from = 0
        """The first missile firer the dodge row shows (its "+N" button steps on when not all fit)."""
        self.blow = BlowChoices(screen)
        """The rule options' row: stun, a pulled blow, a sweep's foes, the enemies ignored."""

    def reset(self) -> None:
        """A decision was sent: the next declaration's dodge row starts at its first firer."""
        self.dodge_from = 0

    # --- layout ---------------------------------------------------------------------------------
    def columns(self, width: int) -> tuple[int, bool]:
        """The controls column's width in a panel this wide, and whether the odds go under the controls (a
        narrow board: a small window or a large UI scale) rather than beside them."""
        s = self.screen.ui.s
        left = min(s(LEFT), max(s(LEFT_MIN), width - s(28) - s(ODDS_MIN)), width - s(24))
        return left, width - left - s(28) < s(ODDS_MIN)

    def compact(self, width: int) -> bool:
        """Whether the panel is compact at this width: at full height it would be taller than three fifths of
        the board (a short window at a large UI scale), so the stance's text takes one line and its notes give
        way — and odds under the controls shrink to the chance to hit and the key modifiers — leaving room for
        the figure and its target."""
        s = self.screen.ui.s
        full = s(HEIGHT) + (s(ODDS_BELOW) if self.columns(width)[1] else 0)
        return full > self.screen.board.camera.view[3] * 3 // 5

    def height(self, width: int) -> int:
        """The panel's height at this width (before the spell row)."""
        s = self.screen.ui.s
        below = self.columns(width)[1]
        row = s(RULES_ROW) if self.blow.shown() else 0
        if self.compact(width):
            return s(HEIGHT - COMPACT_CUT) + row + (s(ODDS_COMPACT) if below else 0)
        return s(HEIGHT) + row + (s(ODDS_BELOW) if below else 0)

    def dodge_y(self, width: int) -> int:
        """The dodge row's top in the panel (unscaled pixels)."""
        return 156 - (COMPACT_CUT if self.compact(width) else 0)

    def controls_bottom(self, width: int) -> int:
        """Where the controls end in the panel (unscaled pixels): under the dodge row, or under the rule
        options' row when there is one (odds under the controls start here)."""
        return self.dodge_y(width) + 30 + (RULES_ROW if self.blow.shown() else 0)

    # --- commands -------------------------------------------------------------------------------
    def cmd_stance(self, stance: str) -> bool:
        """1–5: choose a stance (table 4)."""
        d = self.screen.my_decision()
        if d is None or d.reason != "declare":
            return False
        self.model.ensure_decl(d)
        if stance not in self.model.declare_options()["stances"]:
            self.screen.set_status(
                "A very defensive stance must retreat, and no hex leads away from every attacker.", error=True
            )
            return False
        st = Stance(stance)
        self.model.decl.stance = stance
        if st.retreat == "none":
            self.model.decl.retreat = None
        if len(self.model.decl.advance) > st.max_advance:
            self.model.decl.advance = self.model.decl.advance[: st.max_advance]
        if st.retreat == "must" and self.model.decl.retreat is None:
            retreats = self.model.declare_options()["retreats"]
            self.model.decl.retreat = retreats[0] if retreats else None
        if st.retreat != "none" or st.max_advance == 0:
            self.model.decl.advance = []
        self.screen.invalidate()
        return True

    def cmd_weapon(self, name: str) -> bool:
        """Choose the weapon to attack with."""
        d = self.model.decl
        d.weapon, d.spell = name, None
        if d.target not in self.model.targets():
            d.target = None
        self.blow.fit_weapon()
        self.screen.invalidate()
        return True

    def cmd_toggle_dodge(self, firer: str) -> bool:
        """Watch (dodge) a missile firer: -1 to the attack each (FTC 6.1)."""
        if firer in self.model.decl.dodge:
            self.model.decl.dodge.discard(firer)
        else:
            self.model.decl.dodge.add(firer)
        return True

    def aims(self) -> tuple[str, ...]:
        """What the attacker may aim at (FTC 6.6): best, then the target's locations (no head for a creature
        without one); the result decides at the roll whether the aim can be had."""
        tgt = self.model.battle.figure(self.model.decl.target) if self.model.decl.target else None
        return tuple(a for a in AIMS if a != "head" or tgt is None or tgt.character.has_head)

    def cmd_cycle_aim(self) -> bool:
        """L: the next aim — best, torso, head, arm, leg, hand, foot (FTC 6.6)."""
        aims = self.aims()
        i = (aims.index(self.model.decl.aim) + 1) % len(aims) if self.model.decl.aim in aims else 0
        self.model.decl.aim = aims[i]
        self.screen.invalidate()
        return True

    def cmd_second_move(self) -> bool:
        """Neither attack nor defend: move again (FTC 6.2)."""
        self.model.decl.second_move = not self.model.decl.second_move
        self.model.decl.target, self.model.decl.spell = None, None
        self.screen.invalidate()
        return True

    def cycle_target(self) -> bool:
        """T: the next attackable enemy."""
        ts = self.model.targets()
        if not ts:
            self.screen.set_status("No enemy is within reach of this weapon.", error=False)
            return False
        i = (ts.index(self.model.decl.target) + 1) % len(ts) if self.model.decl.target in ts else 0
        self.model.decl.target = ts[i]
        self.model.decl.sweep = [t for t in self.model.decl.sweep if t != ts[i]]
        self.model.decl.ignore.discard(ts[i])
        self.screen.invalidate()
        return True

    def clear_moves(self) -> bool:
        """Esc: drop the chosen advance and target, if any (True when there was something to drop)."""
        if self.model.decl.advance or self.model.decl.target:
            self.model.decl.advance, self.model.decl.target, self.model.decl.sweep = [], None, []
            self.screen.invalidate()
            return True
        return False

    # --- input ----------------------------------------------------------------------------------
    def buttons(self, rect: pygame.Rect) -> list[Button]:
        """Weapons and Second move, the five stances, the dodge toggles (the declare buttons are the
        screen's, after the spell row)."""
        s, ui = self.screen.ui.s, self.screen.ui
        st = self.model.decl
        out: list[Button] = []
        opts = self.model.declare_options()
        top = rect.y + s(34)
        bx = rect.x + s(12)
        for name in opts["weapons"]:
            w = max(70, min(150, ui.text.width(name, 13) // max(1, ui.settings.ui_scale) + 24))
            b = Button(name, functools.partial(self.cmd_weapon, name), pygame.Rect(bx, top, s(int(w)), s(26)), size=13)
            b.focused = name == st.weapon and not st.second_move and st.spell is None
            out.append(b)
            bx += s(int(w)) + s(6)
        b = Button("Second move", self.cmd_second_move, pygame.Rect(bx, top, s(110), s(26)), size=13)
        b.focused = st.second_move
        out.append(b)
        top += s(32)
        bw = (self.columns(rect.width)[0] - s(12) - 4 * s(5)) // 5
        for i, stance in enumerate(Stance):
            b = Button(
                f"{i + 1} {SHORT_STANCES[i]}",
                functools.partial(self.cmd_stance, stance.value),
                pygame.Rect(rect.x + s(12) + i * (bw + s(5)), top, bw, s(26)),
                size=12,
                enabled=stance.value in opts["stances"] and not st.second_move,
            )
            b.focused = stance.value == st.stance and not st.second_move
            out.append(b)
        out.extend(self._dodge_row(rect))
        if self.blow.shown() and not st.second_move and st.spell is None:
            y = rect.y + s(self.dodge_y(rect.width) + RULES_ROW)
            out.extend(self.blow.buttons(rect.x + s(12), y, rect.x + self.columns(rect.width)[0]))
        return out

    def _dodge_row(self, rect: pygame.Rect) -> list[Button]:
        """FTC 6.1's dodges (one toggle per missile firer, as wide as its name) and FTC 6.6's aim chooser at
        the row's end, all inside the controls column: the firers that do not fit give way to a "+N" button
        that shows the next ones."""
        s, text = self.screen.ui.s, self.screen.ui.text
        st = self.model.decl
        fig = self.model.battle.figure(st.figure)
        out: list[Button] = []
        right = rect.x + self.columns(rect.width)[0]
        y = rect.y + s(self.dodge_y(rect.width))
        if st.target is not None and not st.second_move and st.spell is None:
            label = f"Aim: {st.aim}"  # L cycles it too
            aw = max(s(80), text.width("Aim: torso", 12) + s(20))
            b = Button(label, self.cmd_cycle_aim, pygame.Rect(right - aw, y, aw, s(26)), size=12)
            b.focused = st.aim != "best"
            out.append(b)
            right -= aw + s(DODGE_GAP)
        firers = [f for f in self.model.declare_options()["firers"] if f != fig.id]
        if not firers or st.second_move:
            return out
        start = self.dodge_from % len(firers)
        ring = firers[start:] + firers[:start]
        x = rect.x + s(64)
        widths = [text.width(("✓ " if f in st.dodge else "") + self._short(f), 12) + s(20) for f in ring]
        more = text.width(f"+{len(ring)}", 12) + s(20)
        shown = 0
        for i, w in enumerate(widths):
            rest = len(ring) - i - 1
            if x + w + (more + s(DODGE_GAP) if rest else 0) > right:
                break
            fid = ring[i]
            b = Button(
                ("✓ " if fid in st.dodge else "") + self._short(fid),
                functools.partial(self.cmd_toggle_dodge, fid),
                pygame.Rect(x, y, w, s(26)),
                size=12,
                tooltip=f"Dodge {self.model.battle.figure(fid).name}'s missiles: −1 to this figure's attack (FTC 6.1)",
            )
            b.focused = fid in st.dodge
            out.append(b)
            x += w + s(DODGE_GAP)
            shown += 1
        if shown < len(ring) and x + more <= right:
            hidden = [self.model.battle.figure(f).name for f in ring[shown:]]
            out.append(
                Button(
                    f"+{len(ring) - shown}",
                    functools.partial(self.cmd_more_dodges, max(1, shown)),
                    pygame.Rect(x, y, more, s(26)),
                    size=12,
                    tooltip="More firers to dodge: " + ", ".join(hidden),
                )
            )
        return out

    def _short(self, fid: str) -> str:
        """A figure's first name, as the dodge row shows it."""
        return self.model.battle.figure(fid).name.split()[0]

    def cmd_more_dodges(self, step: int) -> bool:
        """The dodge row's "+N": show the next missile firers."""
        self.dodge_from += step
        self.screen.invalidate()
        return True

    def on_key(self, key: int) -> bool:
        """1–5 stance, Backspace drops the advance and retreat; True when the key was taken."""
        digits = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5)
        if key in digits:
            self.cmd_stance(list(Stance)[digits.index(key)].value)
            return True
        if key == pygame.K_l and self.model.decl.target is not None:
            self.cmd_cycle_aim()
            return True
        if self.blow.on_key(key):
            return True
        if key == pygame.K_BACKSPACE:
            self.model.decl.advance, self.model.decl.retreat = [], None
            self.screen.invalidate()
            return True
        return False

    def click(self, h: Hex, occupant: Figure | None, shift: bool = False) -> bool:
        """A board click while declaring: the second move's hex, the target, the retreat or an advance
        hex; with Shift on a target, a sweeping blow's next foe (*Fudge* 4.34). True when the click was taken."""
        s = self.model.decl
        battle = self.model.battle
        fig = battle.figure(s.figure)
        if s.second_move:
            if self.model.reach(fig.id).can_reach(h):
                path = self.model.planned_path(fig.id, h)
                if path is not None:
                    self.screen.send(act.SecondMove(fig.id, path.steps))
                    return True
            return False
        if occupant is not None and s.spell is None and occupant.id in self.model.targets():
            if shift:
                return self.blow.sweep_click(occupant.id)
            s.target = None if s.target == occupant.id else occupant.id
            s.sweep = []  # a plain click starts the blow over; Shift adds a sweep's further foes
            s.ignore.discard(occupant.id)
            return True
        st = Stance(s.stance)
        if st.retreat != "none" and h in self.model.declare_options()["retreats"]:
            s.retreat = None if s.retreat == h and st.retreat == "may" else h
            return True
        last_hex, last_facing = s.advance[-1] if s.advance else (fig.hex, fig.facing)
        if (
            st.max_advance
            and occupant is None
            and len(s.advance) < st.max_advance
            and h in front_hexes(last_hex, last_facing)
            and battle.terrain.is_passable(h)
        ):
            facing = direction_to(last_hex, h)
            s.advance.append((h, facing if facing is not None else last_facing))
            if s.target not in self.model.targets():
                s.target = None
            return True
        return False

    # --- drawing --------------------------------------------------------------------------------
    def stance_notes(self) -> str:
        """What the stance lets the figure do with hexes (FTC 6.2): the advance chosen, the retreat hex named
        the way the board shows it."""
        st = self.model.decl
        stance = Stance(st.stance)
        notes = []
        stunned = self.model.rule_choices().stunned
        if stunned is not None:
            notes.append(f"{stunned}: no attack, no very defensive stance this round (Fudge 4.62)")
        if stance.max_advance:
            notes.append(
                f"advance: click up to {counted(stance.max_advance, 'hex', 'hexes')} ahead ({len(st.advance)} chosen)"
            )
        if stance.retreat != "none":
            where = (
                "click a green hex"
                if st.retreat is None
                else "to " + hex_name(self.model.battle, self.screen.data.layout, st.retreat, st.figure)
            )
            notes.append(f"retreat: {where}" + (" (required)" if stance.retreat == "must" else ""))
        return " · ".join(notes)

    def paint(self, surf: pygame.Surface, d: Decision, bottom: int) -> pygame.Rect | None:
        """The controls column's text and the attack's odds (above ``bottom``, the spell row's top); the odds
        area (where the spell panel paints a casting's odds), None for a second move (no odds)."""
        s, text = self.screen.ui.s, self.screen.ui.text
        w = surf.get_width()
        self.model.ensure_decl(d)
        st = self.model.decl
        battle = self.model.battle
        fig = battle.figure(st.figure)
        x = s(12)
        left_w, below = self.columns(w)
        title = text.blit(
            surf, text.fit(f"{fig.name} declares", 16, left_w - x, True), (x, s(8)), 16, theme.ACCENT, bold=True
        )
        if battle.options.secret_stances:
            room = left_w - title.right - s(12)
            note = next((n for n in ("secret until everyone has declared", "secret") if text.width(n, 11) <= room), "")
            text.blit(surf, note, (left_w, s(12)), 11, theme.TEXT_MUTED, anchor="topright")
        y = s(98)
        if st.second_move:
            for part in text.wrap(
                "Second move: neither attack nor defend, move again by the movement rules "
                "(FTC 6.2). Click a coloured hex; click “Second move” again to cancel.",
                12,
                left_w - x,
            ):
                text.blit(surf, part, (x, y), 12, theme.TEXT)
                y += text.line_height(12)
            return None
        stance = Stance(st.stance)
        compact = self.compact(w)
        parts = text.wrap(f"{stance.display_name}: {stance.effect}", 12, left_w - x)
        if compact and len(parts) > 1:  # one line, cut with "…" (F1 and the buttons' hints tell the rest)
            parts = [fit_words(text, " ".join(parts), 12, left_w - x)]
        for part in parts[:2]:
            text.blit(surf, part, (x, y), 12, theme.TEXT)
            y += text.line_height(12)
        notes = self.stance_notes()
        if notes and not compact:
            for part in text.wrap(notes, 11, left_w - x)[:2]:
                text.blit(surf, part, (x, y + s(2)), 11, theme.TEXT_MUTED)
                y += text.line_height(11)
        opts = self.model.declare_options()
        if [f for f in opts["firers"] if f != fig.id]:
            text.blit(surf, "Dodge:", (x, s(self.dodge_y(w) + 5)), 12, theme.TEXT_MUTED)
        if self.blow.shown() and st.spell is None:
            self.blow.paint_label(surf, x, s(self.dodge_y(w) + RULES_ROW), left_w)
        # the odds column
        if below:
            top = self.controls_bottom(w) + 6
            area = pygame.Rect(s(12), s(top), w - s(24), max(0, bottom - s(4) - s(top)))
            pygame.draw.line(surf, theme.BORDER, (s(10), s(top - 6)), (w - s(10), s(top - 6)))
        else:
            ox = left_w + s(16)  # beside the controls: down beside the Declare button, or to the spell row
            spell_row = bottom < surf.get_height() - s(40)  # (which runs the panel's width)
            area = pygame.Rect(ox, s(8), w - ox - s(12), bottom - s(14) if spell_row else bottom + s(24))
            pygame.draw.line(surf, theme.BORDER, (left_w + s(4), s(10)), (left_w + s(4), area.bottom - s(2)))
        if st.spell is None:
            self._paint_odds(surf, area, compact and below)
        return area

    @staticmethod
    def _odds_line(pv: AttackPreview) -> str:
        mods = "".join(f" {signed(m.value)} {m.name}" for m in pv.offence_mods)
        dfn = (
            f"vs {'dodge' if pv.ranged else 'defence'} {level_name(pv.defence)}"
            if pv.defence is not None
            else "unopposed"
        )
        return (
            f"{level_name(pv.skill)}{mods} = {level_name(pv.offence)} {dfn}; difficulty "
            f"{level_name(pv.difficulty)}; damage {signed(pv.damage_base)} + degree"
        )

    def _odds_notes(self, pv: AttackPreview) -> list[str]:
        battle = self.model.battle
        notes = cover_notes(pv.line, "line of fire BLOCKED")
        notes.extend(bystander_notes([(battle.figure(b.figure).name, b.friend, b.chance) for b in pv.bystanders]))
        if pv.dodging is not None:
            tgt = battle.figure(pv.target).name
            notes.append(f"{tgt} declared {'a' if pv.dodging else 'no'} dodge of this shot")
        notes.extend(self.blow.notes(pv))
        notes.extend(pv.assumptions)
        return notes

    def out_of_reach(self, pv: AttackPreview) -> str:
        """Why a target shows no odds (FTC 6.2, 6.5): the sentence the door would refuse the declaration with,
        and which stances would reach it."""
        battle = self.model.battle
        fig, tgt = battle.figure(pv.attacker), battle.figure(pv.target)
        if pv.ranged:
            return f"{tgt.name} cannot be shot from here: out of range or behind something that blocks the line."
        stance = Stance(self.model.decl.stance).display_name.lower()
        advance = self.model.decl.advance
        where = f"after the {counted(len(advance), 'hex', 'hexes')} of advance" if advance else ""
        line = f"{tgt.name} is out of reach of {fig.name}'s {pv.weapon} in a {stance} stance {where}".rstrip() + "."
        reach = [STANCE_COLUMNS[c.stance.value].lower() for c in pv.stances if c.hit is not None]
        if reach:
            line += f" In reach: {', '.join(reach)}."
        elif not self.model.decl.advance:
            line += " An aggressive stance may advance to it: choose one and click the hexes ahead."
        return line

    @staticmethod
    def _column_odds(col: StanceColumn) -> str:
        if col.hit is None:
            return "out of reach"
        return percent(col.hit) + (f" · {percent(col.risk)}" if col.risk is not None else "")

    def odds_details(self) -> str:
        """The odds a compact panel leaves out, for the hint over its odds: the whole modifier line, the
        stances compared and the notes ("" with no target or no odds)."""
        pv = self.model.attack_preview()
        if self.model.decl.target is None or pv is None:
            return ""
        out = [self._odds_line(pv) if pv.reachable else self.out_of_reach(pv)]
        if pv.stances:
            cols = [f"{STANCE_COLUMNS[c.stance.value]} {self._column_odds(c)}" for c in pv.stances]
            out.append("Stances compared (your hit · their hit on you): " + "; ".join(cols))
        notes = self._odds_notes(pv)
        if notes:
            out.append(" · ".join(notes))
        return "\n".join(out)

    def _paint_odds(self, surf: pygame.Surface, area: pygame.Rect, compact: bool = False) -> None:
        s, text = self.screen.ui.s, self.screen.ui.text
        ox, ow, h = area.x, area.width, area.bottom
        st = self.model.decl
        battle = self.model.battle
        y = area.y
        pv = self.model.attack_preview()
        if st.target is None:
            prompt = "Target: click an enemy outlined in red, or press T. With no target the figure only defends."
            if self.model.rule_choices().sweep > 1:
                prompt += " Shift+click adds the further foes of a sweeping blow, in order (Fudge 4.34)."
            for part in text.wrap(prompt, 13, ow):
                text.blit(surf, part, (ox, y), 13, theme.TEXT)
                y += text.line_height(13)
            return
        if pv is None:
            text.blit(surf, "No odds: that target cannot be attacked now.", (ox, y), 13, theme.DANGER)
            return
        tgt = battle.figure(st.target)
        if pv.reachable:
            head, colour, line = f"→ {tgt.name} with {pv.weapon}: P(hit)\u00a0{percent(pv.hit)}", theme.ACCENT, None
        else:  # no odds for an attack the door would refuse (FTC 6.2, 6.5)
            head, colour, line = f"→ {tgt.name} with {pv.weapon}: out of reach", theme.DANGER, self.out_of_reach(pv)
        heads = [head] if compact else text.wrap(head, 15, ow, bold=True)[:2]  # a narrow column: two lines
        for part in heads:  # (the chance stays with its name: a no-break space)
            text.blit(surf, text.fit(part, 15, ow, True), (ox, y), 15, colour, bold=True)
            y += text.line_height(15, True) if len(heads) > 1 else s(22)
        line = line or self._odds_line(pv)
        parts = text.wrap(line, 11, ow)
        if compact:  # the key lines only: the distribution and the stances compared need the full panel
            if len(parts) > 1:
                parts = [fit_words(text, " ".join(parts), 11, ow)]
            text.blit(surf, parts[0], (ox, y), 11, theme.TEXT_MUTED)
            return
        if len(parts) > 3:  # never dropped unsaid: the third line ends with "…" (the hint shows it whole)
            parts = [*parts[:2], fit_words(text, " ".join(parts[2:]), 11, ow)]
        for part in parts:
            text.blit(surf, part, (ox, y), 11, theme.TEXT_MUTED)
            y += text.line_height(11)
        y += s(4)
        if pv.reachable:
            y = paint_distribution(self.screen.ui, surf, pv.distribution, pygame.Rect(ox, y, ow, s(14)))
        if pv.stances:
            y += s(4)
            text.blit(surf, "Stances compared (your hit · their hit on you)", (ox, y), 11, theme.TEXT_MUTED, bold=True)
            y += s(15)
            cw = ow // len(pv.stances)
            # a narrow column: the short stance names, and each side's chance on a line of its own
            cells = [(col, self._column_odds(col)) for col in pv.stances]
            names = STANCE_COLUMNS
            if any(text.width(names[c.stance.value], 11, True) > cw - s(4) for c, _ in cells):
                names = {stance.value: SHORT_STANCES[i] for i, stance in enumerate(Stance)}
            stacked = any(text.width(odds, 12, True) > cw - s(4) for _, odds in cells)
            row_h = s(44) if stacked else s(30)
            for i, (col, odds) in enumerate(cells):
                cx = ox + i * cw
                sel = col.stance.value == st.stance
                if sel:
                    pygame.draw.rect(surf, theme.PANEL_LIGHT, (cx - s(2), y - s(1), cw - s(2), row_h), border_radius=3)
                short = text.fit(names[col.stance.value], 11, cw - s(4), sel)
                text.blit(surf, short, (cx, y), 11, theme.ACCENT if sel else theme.TEXT_MUTED, bold=sel)
                if stacked:  # the two chances one under the other, or "out of reach" on two lines
                    halves = odds.split(" · ")
                    lines = [halves[0], *(f"· {h}" for h in halves[1:])]
                    if len(halves) == 1:
                        lines = text.wrap(odds, 12, cw - s(4), bold=sel)[:2]
                else:
                    lines = [odds]
                for k, part in enumerate(lines):
                    text.blit(
                        surf, part, (cx, y + s(14) + k * s(13)), 12, theme.TEXT if sel else theme.TEXT_MUTED, bold=sel
                    )
            y += row_h + s(4)
        notes = self._odds_notes(pv) if pv.reachable else []
        paint_notes(self.screen.ui, surf, notes, ox, y, ow, h)
