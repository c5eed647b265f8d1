"""The character sheet of the battle screen's right column: the selected (or hovered, or deciding) figure's
side, posture, standing order, traits on the ladder, skills, weapons, armour and wound track (FTC 2, 8, 9); with
the rule options that read them, its role, its Fudge Points and their standing order (*Fudge* 4.64), and what
Will did against its wounds (*Fudge* 4.51)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pygame

from game.engine import events as ev
from game.engine.battle import Figure, RuleOptions
from game.engine.ladder import level_name
from game.engine.rule_options import ROLE_NAMES, reads_roles
from game.engine.stun import hindrance
from game.ui import theme
from game.ui.battle.common import RGB, TRAITS, PartHost, fit_words
from game.ui.battle.words import facing_words, signed
from game.ui.mapdata import BoardData

ORDER_WORDS = {"always": "always stop", "never": "never stop", "ask": "ask before stopping"}
FUDGE_ORDER_WORDS = {"always": "spent at once", "ask": "ask first", "never": "never spent"}
"""A hero's standing order for a Fudge Point on a deadly wound, as the sheet says it (*Fudge* 4.64)."""


class SheetHost(PartHost, Protocol):
    """The battle screen as the sheet sees it: the map (facings in its words) and the sides' colours."""

    @property
    def data(self) -> BoardData: ...
    def side_colour(self, side: str) -> RGB: ...


class Sheet:
    """The sheet above the log (painted into the screen's cached chrome)."""

    def __init__(self, screen: SheetHost) -> None:
        self.screen = screen
        self.model = screen.model

    def figure_shown(self, hovered: str | None) -> str | None:
        """Whose sheet it is: the selected figure, else the hovered one, else the one deciding."""
        fid = self.model.selection.figure or hovered
        if fid is None:
            shown = self.model.shown()
            d = shown.decision
            fid = d.figure if d is not None and d.figure in shown.figures else None
        return fid

    def paint(self, surf: pygame.Surface, hovered: str | None) -> None:
        """The sheet of ``figure_shown``, or how to get one."""
        sc = self.screen
        s, text = sc.ui.s, sc.ui.text
        w, h = surf.get_size()
        surf.fill(theme.BACKGROUND)
        pygame.draw.line(surf, theme.BORDER, (0, 0), (0, h))
        fid = self.figure_shown(hovered)
        x, y = s(14), s(10)
        if fid is None:
            text.blit(surf, "Click a figure to see its sheet.", (x, y), 14, theme.TEXT_MUTED)
            return
        battle = self.model.shown()
        f = battle.figures.get(fid) or self.model.battle.figures[fid]
        c = f.character
        line_room = w - 2 * x  # a narrow column: every line is cut with "…" rather than run off its edge
        pygame.draw.circle(surf, sc.side_colour(f.side), (x + s(7), y + s(11)), s(7))
        text.blit(surf, text.fit(f.name, 18, line_room - s(22), True), (x + s(22), y + s(2)), 18, theme.TEXT, bold=True)
        y += s(28)
        state = (
            "out of the fight" if f.out else ("held" if f.held and not f.moved else ("moved" if f.moved else "ready"))
        )
        role = f"{ROLE_NAMES[f.role]} · " if reads_roles(self.model.battle.options) else ""  # docs/rosters.md "Roles"
        text.blit(
            surf,
            fit_words(
                text, f"{role}{battle.sides[f.side].name} · {c.name or c.key} · {f.posture} · {state}", 12, line_room
            ),
            (x, y),
            12,
            theme.TEXT_MUTED,
        )
        y += s(16)
        order = f"Enemies leaving its zone: {ORDER_WORDS[f.standing_order]} (O)"
        if text.width(order, 12) > line_room:
            order = f"Leaving its zone: {ORDER_WORDS[f.standing_order]} (O)"
        points = fudge_line(self.model.battle.options, f)
        if points:  # Fudge 4.64: a hero's pool, public to every seat, and when he spends it
            order = f"{order.replace('Enemies leaving its zone', 'Zone')} · {points}"
            if text.width(order, 12) > line_room:
                order = points
        text.blit(surf, text.fit(order, 12, line_room), (x, y), 12, theme.TEXT_MUTED)
        y += s(20)
        colw = (w - 2 * x) // 4
        for i, t in enumerate(TRAITS):
            cx = x + (i % 4) * colw
            cy = y + (i // 4) * s(30)
            text.blit(surf, t[:3].capitalize(), (cx, cy), 11, theme.TEXT_MUTED)
            text.blit(surf, level_name(int(getattr(c, t))), (cx, cy + s(12)), 12, theme.TEXT, bold=True)
        y += s(64)
        lh = text.line_height(12)
        skills = sorted(c.skills.items(), key=lambda kv: -kv[1])[:6]
        skill_lines = (
            text.wrap("Skills: " + " · ".join(f"{k} {level_name(v)}" for k, v in skills), 12, w - 2 * x)[:2]
            if skills
            else []
        )
        weapon_lines = [
            f"⚔ {wpn.name}: damage {signed(wpn.damage)}, skill {level_name(c.combat_skill(wpn))}"
            + (f", range {wpn.base_range}/{wpn.max_range}" if wpn.ranged else "")
            for wpn in c.weapons[:3]
        ]
        gear = [f"{a.name} ({signed(a.defense)})" for a in c.armour]
        if c.shield is not None:
            gear.append(f"{c.shield.name} (+{c.shield.defense} defence)")
        armour_lines = text.wrap("Armour: " + ", ".join(gear), 12, w - 2 * x)[:2] if gear else []
        # a short column keeps the wound track: the caption, the last line, then skills, armour and weapons
        # beyond the first give way, so nothing is drawn over anything else
        footer, last_line = s(18), s(14)
        wound_block = s(6) + s(20) + s(32)
        room = h - y - wound_block
        for drop in ("footer", "last", "skills", "armour", "weapons", "skills", "armour"):
            need = lh * (len(skill_lines) + len(weapon_lines) + len(armour_lines)) + footer + last_line
            if need <= room:
                break
            if drop == "footer":
                footer = 0
            elif drop == "last":
                last_line = 0
            elif drop == "skills" and skill_lines:
                skill_lines = skill_lines[:-1]
            elif drop == "armour" and armour_lines:
                armour_lines = armour_lines[:-1]
            elif drop == "weapons":
                weapon_lines = weapon_lines[:1]
        for line in (*skill_lines, *weapon_lines, *armour_lines):
            text.blit(surf, text.fit(line, 12, line_room), (x, y), 12, theme.TEXT)
            y += lh
        y += s(6)
        pal = sc.ui.palette
        text.blit(
            surf,
            text.fit(wounds_line(f, battle.round), 13, line_room, True),
            (x, y),
            13,
            pal.wound_colour(0 if f.wounds.worst is None else int(f.wounds.worst)),
            bold=True,
        )
        y += s(20)
        bx = x
        steps = c.wound_track.steps
        names = [step.name for step in steps]  # in full when the row has room ("Out of the Battle")
        if sum(max(s(13) * st.boxes, text.width(n, 10)) + s(8) for st, n in zip(steps, names, strict=True)) > w - x:
            names = [n if len(n) < 11 else n[:9] + "." for n in names]
        for step, name in zip(steps, names, strict=True):
            text.blit(surf, name, (bx, y), 10, theme.TEXT_MUTED)
            for k in range(step.boxes):
                r = pygame.Rect(bx + k * s(13), y + s(14), s(11), s(11))
                filled = k < f.wounds.filled(step.level)
                pygame.draw.rect(surf, pal.wound_colour(int(step.level)) if filled else theme.PANEL, r)
                pygame.draw.rect(surf, theme.BORDER, r, 1)
            bx += max(s(13) * step.boxes, text.width(name, 10)) + s(8)
        y += s(32)
        if last_line:
            text.blit(
                surf,
                text.fit(
                    f"Initiative {level_name(f.initiative)} · facing {facing_words(sc.data.layout, f.facing)} · "
                    + moved_words(self.model.battle.events, f, battle.round),
                    11,
                    line_room,
                ),
                (x, y),
                11,
                theme.TEXT_MUTED,
            )
        if footer:
            caption = "Combat log — click an entry to highlight its figures"
            if text.width(caption, 11) > line_room:
                caption = "Combat log — click a line to highlight"
            text.blit(surf, text.fit(caption, 11, line_room), (x, h - s(16)), 11, theme.TEXT_MUTED)


def wounds_line(fig: Figure, round_no: int | None = None) -> str:
    """The sheet's wound line: the worst wound, and the limbs crippled for the rest of the battle (FTC 6.6;
    what a crippled arm or leg cannot do: docs/rulings.md "Hit location"); under stun blows (*Fudge* 4.62) the
    stun sheet apart, and — in round ``round_no`` — what a stun hinders now."""
    line = f"Wounds: {fig.wounds.label}"
    if fig.fights_on:  # Fudge 4.51: a Superb Will keeps it on its feet
        line += " (fighting on: Will)"
    elif fig.pain_relief is not None and fig.pain_relief[0] == fig.wounds.worst and fig.pain_relief[1]:
        eased = fig.pain_relief[1] + fig.wounds.penalty(fig.character.pain)
        line += " (no penalty: Will)" if eased >= 0 else " (penalty eased: Will)"
    if fig.crippled:
        line += " · crippled: " + ", ".join(fig.crippled)
    if fig.stuns.label:
        line += f" · {fig.stuns.label}"
        now = hindrance(fig.stunned, round_no) if round_no is not None else None
        if now is not None and not fig.stuns.knocked_out:
            line += f" ({now.lower()}: no attack this round)"
    return line


def fudge_line(options: RuleOptions, fig: Figure, *, key: bool = True) -> str:
    """A hero's Fudge Points and their standing order while the option that spends them is on (*Fudge* 4.64):
    "Fudge Points 2, ask first (F)" (without the key's "(F)" for the hover inspector); "" for others."""
    if not options.pc_death_fudge_point or not fig.is_hero:
        return ""
    line = f"Fudge Points {fig.fudge_points}, {FUDGE_ORDER_WORDS.get(fig.fudge_order, fig.fudge_order)}"
    return f"{line} (F)" if key else line


def moved_words(events: Sequence[ev.Event], fig: Figure, round_no: int) -> str:
    """How far the figure moved this round, each move against its allowance: "moved 5/5 hexes", and after a
    second move in the attack phase (FTC 6.2, a move of its own) "moved 5/5 hexes, second move 3/5"."""
    first = second = 0
    for e in reversed(events):
        if isinstance(e, ev.RoundBegan) and e.round <= round_no:
            break
        if isinstance(e, ev.Moved) and e.figure == fig.id:
            n = max(0, len(e.path) - 1)
            if e.reason == "second move":
                second += n
            else:
                first += n
    line = f"moved {first}/{fig.allowance} hexes"
    return line + (f", second move {second}/{fig.allowance}" if second else "")
