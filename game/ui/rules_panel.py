"""New battle's rule options: the rules set (a preset or a GM's rules file), Load… and Save as…, and every
option of the GM's rulebook grouped as docs/rulings.md "Rule options" lists them.

- The **Rules** row cycles the presets the game plays and the GM's files in ``<data dir>/rules``
  (``◀`` / ``▶``, or Left / Right while it has the keyboard); "(changed)" follows a set's name once an option
  differs from it. **Load…** opens any rules file (a file picker over that folder, or a typed path); **Save
  as…** asks a name and writes ``<name>.toml`` there, asking before it replaces a file. A file that cannot be
  used is refused with its sentence (the file, the line, the fix) and the options stay as they were.
- Each **group** is one header line ("Damage — 2 changed"); a click, or Enter or Space while it has the
  keyboard, opens or closes it. The Round group and the groups with changes start open.
- Each **option** row: a checkbox (true / false), ``◀ value ▶`` (a click goes round the values, a right
  click back), ``− n +`` (a whole number). Hovering a row (or walking to it with Tab / Shift+Tab) shows its
  help, its section and what its value means. An option that matters only with another is greyed with what
  it needs, and keeps its value; an option whose rules the game does not play yet is greyed "coming" and
  cannot be switched on (docs/rulings.md "Rule options" says which).
- The panel scrolls (mouse wheel) when the open groups do not fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from game.engine import rule_options as ro
from game.engine.rule_options import RuleOptions
from game.paths import rules_dir
from game.rules_file import Rules, RulesFileError, preset_rules, read_rules, user_rules, write_rules
from game.ui import theme
from game.ui.dialogs import FileChooser, MessageDialog
from game.ui.pickers import TextPrompt
from game.ui.screen import Push, Transition, UiContext
from game.ui.widgets import Button, TextCache, Tooltip


def file_slug(name: str) -> str:
    """A rules file's name made of the set's name: lower case letters, digits and underscores."""
    out = "".join(c if c.isalnum() and c.isascii() else "_" for c in name.strip().lower())
    return "_".join(part for part in out.split("_") if part) or "rules"


@dataclass(frozen=True)
class Row:
    """One line of the panel: a group's header (``option`` None) or an option of ``group``."""

    group: str
    option: ro.OptionSpec | None
    rect: pygame.Rect


class RulesPanel:
    """The rule options of New battle (module doc); ``options`` and ``rules_name`` are what the battle gets."""

    def __init__(self, ui: UiContext, start: Rules | None = None) -> None:
        self.ui = ui
        self.sets: list[Rules] = []
        """What the Rules row cycles: the presets the game plays, then the GM's readable rules files."""
        self.coming: list[str] = []
        """The presets whose options are still being built (named under the Rules row)."""
        self.unreadable = ""
        """The first GM's rules file of the folder that could not be read, with its sentence."""
        self.refresh_sets()
        self.base: Rules = start if start is not None else self.sets[0]
        """The set chosen (preset or file); ``options`` may differ from it ("changed")."""
        self.options: RuleOptions = self.base.options
        self.opened: set[str] = {"Round"} | {ro.SPECS[n].group for n in ro.changed(self.options)}
        self.error = ""
        """Why the last Load… or choice was refused (shown under the Rules row until the next change)."""
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.rows: list[Row] = []
        self.scroll = 0
        self.content_height = 0
        self.focus: int | None = None
        """The row (index in ``rows``, or -1 for the Rules row) the keyboard works on; None: the map list's keys."""
        self.tooltip = Tooltip()
        self.previous = Button("◀", lambda: self.cycle_set(-1), size=14, tooltip="The previous rules set.")
        self.next = Button("▶", lambda: self.cycle_set(1), size=14, tooltip="The next rules set.")
        self.load = Button("Load…", self.load_file, size=14, tooltip=f"Open a rules file (yours are in {rules_dir()}).")
        self.save = Button(
            "Save as…", self.save_as, size=14, tooltip=f"Save these options as a rules file in {rules_dir()}."
        )
        self.buttons = (self.previous, self.next, self.load, self.save)
        self.top_height = 0
        self._mouse = (-1, -1)

    # --- the sets -------------------------------------------------------------------------------------
    def refresh_sets(self) -> None:
        """Read the presets and the GM's rules files again (after Save as…)."""
        presets = ro.presets()
        self.sets = [preset_rules(p) for p in presets if p.ready]
        self.coming = [p.name for p in presets if not p.ready]
        self.unreadable = ""
        for path in user_rules():
            try:
                self.sets.append(read_rules(path))
            except RulesFileError as exc:
                self.unreadable = self.unreadable or str(exc)

    @property
    def changed(self) -> bool:
        """Whether an option differs from the chosen set."""
        return self.options != self.base.options

    @property
    def rules_name(self) -> str:
        """The name the battle and its report carry: the set's (none for FTC as written), "custom" once changed."""
        if self.changed:
            return "custom"
        return "" if self.base.preset == "ftc" else self.base.name

    @property
    def set_label(self) -> str:
        """The Rules row's text: the set's name, "(changed)" after it when an option differs."""
        return self.base.name + (" (changed)" if self.changed else "")

    def choose(self, rules: Rules) -> None:
        """Take a set: every option as it gives them; its groups with changes open."""
        self.base, self.options, self.error = rules, rules.options, ""
        self.opened |= {ro.SPECS[n].group for n in ro.changed(self.options)}
        self.layout(self.rect)

    def cycle_set(self, step: int) -> bool:
        """The next (or previous) rules set of the row."""
        keys = [self._key(r) for r in self.sets]
        at = keys.index(self._key(self.base)) if self._key(self.base) in keys else -1
        self.choose(self.sets[(at + step) % len(self.sets)])
        return True

    @staticmethod
    def _key(rules: Rules) -> str:
        return rules.preset or str(rules.path)

    def load_file(self) -> Transition:
        """Open a rules file (module doc)."""

        def chosen(path: Path) -> Transition | None:
            try:
                self.choose(read_rules(path))
            except RulesFileError as exc:
                self.error = str(exc)
            return None

        folder = rules_dir() if rules_dir().is_dir() else Path.home()
        return Push(FileChooser(self.ui, "Load rules", folder, (".toml",), chosen))

    def save_as(self) -> Transition:
        """Ask a name and write the options as ``<rules folder>/<name>.toml`` (module doc)."""
        start = self.base.name if self.base.path is not None else ("My rules" if self.changed else self.base.name)

        def write(target: Path, name: str) -> Transition | None:
            try:
                write_rules(target, self.options, name)
            except RulesFileError as exc:
                return Push(MessageDialog(self.ui, "Rules not saved", str(exc), error=True))
            self.refresh_sets()
            self.base = Rules(self.options, name, "", target)
            self.error = ""
            return None

        def done(name: str) -> Transition | None:
            name = name.strip()
            if not name:
                return None
            target = rules_dir() / f"{file_slug(name)}.toml"
            if target.exists():
                return Push(
                    MessageDialog(
                        self.ui,
                        "Replace the file?",
                        f"{target} exists. Replace it?",
                        (("Cancel", None), ("Replace", lambda: write(target, name))),
                    )
                )
            return write(target, name)

        return Push(TextPrompt(self.ui, "Save rules as", f"Name (saved in {rules_dir()}):", start, done))

    # --- the options ----------------------------------------------------------------------------------
    def step(self, spec: ro.OptionSpec, by: int) -> bool:
        """Move an option to its next (``by`` 1) or previous (-1) value; an option not played yet stays at
        its default (its row says so)."""
        if not spec.ready:
            return False
        choices = spec.choices
        now = self.options.value(spec.name)
        at = choices.index(now) if now in choices else 0
        new = (
            choices[(at + by) % len(choices)] if spec.kind != "int" else choices[max(0, min(len(choices) - 1, at + by))]
        )
        if new == now:
            return False
        self.options = self.options.replaced(**{spec.name: new})
        self.error = ""
        self.layout(self.rect)
        return True

    def toggle_group(self, group: str) -> bool:
        """Open or close a group; an opened group is scrolled into view (its header kept on top if need be)."""
        self.opened ^= {group}
        self.layout(self.rect)
        if group in self.opened:
            mine = [r for r in self.rows if r.group == group]
            area = self.area
            below = mine[-1].rect.bottom - area.bottom
            if below > 0:
                self.scroll += min(below, mine[0].rect.top - area.top)
                self.layout(self.rect)
        return True

    def changed_in(self, group: str) -> int:
        """How many options of a group differ from FTC as written."""
        return sum(1 for n in ro.changed(self.options) if ro.SPECS[n].group == group)

    # --- layout ---------------------------------------------------------------------------------------
    def layout(self, rect: pygame.Rect) -> None:
        """Lay the panel out in ``rect``: the Rules row and its notes on top, the groups below (scrolled)."""
        self.rect = pygame.Rect(rect)
        s, text = self.ui.s, self.ui.text
        x, y, w = rect.x, rect.y, rect.width
        bh = s(26)
        save_w = text.width(self.save.text, 14, True) + s(20)
        load_w = text.width(self.load.text, 14, True) + s(20)
        self.previous.rect = pygame.Rect(x + text.width("Rules", 14, True) + s(8), y, s(26), bh)
        # the set's name whole between the arrows, "(changed)" included: short of room, Load… and Save as… go up
        # beside the "Rule options" heading over the panel (decided for the longer name: a change moves nothing)
        name_w = text.width(self.base.name + " (changed)", 14, True) + s(16)
        beside = self.previous.rect.right + name_w + s(36) + load_w + s(6) + save_w <= rect.right
        files_y = y if beside else y - bh - s(4)
        self.save.rect = pygame.Rect(rect.right - save_w, files_y, save_w, bh)
        self.load.rect = pygame.Rect(self.save.rect.x - s(6) - load_w, files_y, load_w, bh)
        next_x = self.load.rect.x - s(10) - s(26) if beside else rect.right - s(26)
        self.next.rect = pygame.Rect(next_x, y, s(26), bh)
        top = y + bh + s(4)
        top += len(self.notes(w)) * text.line_height(12)
        self.top_height = top + s(4) - rect.y
        area_top = rect.y + self.top_height
        row_h = max(s(24), text.line_height(14) + s(6))
        rows: list[Row] = []
        cy = area_top - self.scroll
        for group in ro.GROUPS:
            rows.append(Row(group, None, pygame.Rect(x, cy, w - s(10), row_h)))
            cy += row_h
            if group in self.opened:
                for spec in (sp for sp in ro.OPTIONS if sp.group == group):
                    rows.append(Row(group, spec, pygame.Rect(x + s(14), cy, w - s(24), row_h)))
                    cy += row_h
        self.content_height = cy + self.scroll - area_top
        room = rect.bottom - area_top
        most = max(0, self.content_height - room)
        if self.scroll > most:
            self.scroll = most
            self.layout(rect)
            return
        self.rows = rows

    def notes(self, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines under the Rules row: a refusal, the presets still coming, an unreadable file of the GM."""
        text = self.ui.text
        out: list[tuple[str, tuple[int, int, int]]] = []
        if self.error:
            out += [(line, theme.DANGER) for line in text.wrap(self.error, 12, width)[:4]]
        if self.coming:
            names = ", ".join(self.coming)
            out.append(
                (text.fit(f"Coming: {names} (their options are still being built)", 12, width), theme.TEXT_MUTED)
            )
        if self.unreadable and not self.error:
            out.append((text.fit(f"Not listed: {self.unreadable}", 12, width), theme.TEXT_MUTED))
        return out

    @property
    def area(self) -> pygame.Rect:
        """Where the groups are drawn (below the Rules row)."""
        return pygame.Rect(
            self.rect.x, self.rect.y + self.top_height, self.rect.width, self.rect.height - self.top_height
        )

    @property
    def option_rects(self) -> dict[str, pygame.Rect]:
        """The visible option rows by option name (whole inside the panel)."""
        area = self.area
        return {r.option.name: r.rect for r in self.rows if r.option is not None and area.contains(r.rect)}

    def visible(self, row: Row) -> bool:
        """Whether a row lies wholly inside the panel's scrolled area."""
        return self.area.contains(row.rect)

    # --- input ----------------------------------------------------------------------------------------
    def row_at(self, pos: tuple[int, int]) -> Row | None:
        """The visible row under a point."""
        return next((r for r in self.rows if self.visible(r) and r.rect.collidepoint(pos)), None)

    def hint(self, row: Row) -> str:
        """What hovering (or focusing) a row shows: help, section, the value's meaning, or why it is greyed."""
        if row.option is None:
            n = self.changed_in(row.group)
            return f"{row.group}: {'click to close' if row.group in self.opened else 'click to open'}" + (
                f" ({n} changed from FTC as written)." if n else "."
            )
        spec = row.option
        value = self.options.value(spec.name)
        lines = [f"{spec.title}: {ro.option_help(spec)}"]
        meaning = spec.value_help.get(value)
        if meaning:
            lines.append(f"Now {spec.value_text(value)}: {meaning}.")
        if not spec.ready:
            lines.append('Coming: the game does not play this option yet (docs/rulings.md "Rule options").')
        elif not ro.is_active(spec, self.options):
            lines.append(f"Greyed: {spec.needs}; it keeps its value and has no effect until then.")
        return "\n".join(lines)

    def activate(self, row: Row, by: int = 1, pos: tuple[int, int] | None = None) -> bool:
        """A click (or Space / Enter / Left / Right) on a row."""
        if row.option is None:
            return self.toggle_group(row.group)
        spec = row.option
        if spec.kind == "int" and pos is not None:
            minus = self._minus(row)
            by = -1 if minus.collidepoint(pos) else by
        return self.step(spec, by)

    def _minus(self, row: Row) -> pygame.Rect:
        s = self.ui.s
        return pygame.Rect(row.rect.x, row.rect.y, s(22), row.rect.height)

    def focus_step(self, by: int) -> None:
        """Tab / Shift+Tab: the next (previous) row, the Rules row first; scrolled into view."""
        order = [-1, *range(len(self.rows))]
        at = order.index(self.focus) if self.focus in order else (-1 if by > 0 else 0)
        self.focus = order[(at + by) % len(order)]
        if self.focus >= 0:
            row = self.rows[self.focus]
            area = self.area
            if row.rect.top < area.top:
                self.scroll -= area.top - row.rect.top
            elif row.rect.bottom > area.bottom:
                self.scroll += row.rect.bottom - area.bottom
            self.scroll = max(0, self.scroll)
            group, name = row.group, row.option.name if row.option else None
            self.layout(self.rect)
            self.focus = next(
                (
                    i
                    for i, r in enumerate(self.rows)
                    if r.group == group and (r.option.name if r.option else None) == name
                ),
                self.focus,
            )
        self.tooltip.refresh(self.hint(self.rows[self.focus]) if self.focus >= 0 else "")

    def handle(self, event: pygame.event.Event) -> Transition | bool | None:
        """Take an event: True when it was the panel's, a transition (a dialog) to push, or None."""
        for b in self.buttons:
            b.handle(event)
            if b.result is not None:
                return b.result if isinstance(b.result, Push) else True
        if event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
            row = self.row_at(event.pos)
            self.tooltip.hover(self.hint(row) if row else "", event.pos)
            return None
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(self._mouse):
            self.scroll = max(0, self.scroll - event.y * self.ui.s(24) * 2)
            self.layout(self.rect)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            row = self.row_at(event.pos)
            if row is None:
                if self.rect.collidepoint(event.pos):
                    return True
                self.focus = None
                return None
            self.focus = self.rows.index(row)
            self.activate(row, 1 if event.button == 1 else -1, event.pos)
            self.tooltip.refresh(self.hint(row))
            return True
        if event.type == pygame.KEYDOWN:
            return self._key_down(event)
        return None

    def _key_down(self, event: pygame.event.Event) -> bool | None:
        if event.key == pygame.K_TAB:
            self.focus_step(-1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        if self.focus is None:
            return None
        if event.key == pygame.K_ESCAPE:
            self.focus = None
            self.tooltip.refresh("")
            return True
        by = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_SPACE: 1}.get(event.key)
        if self.focus == -1:
            if by is not None:
                return self.cycle_set(by)
            return None
        row = self.rows[self.focus] if self.focus < len(self.rows) else None
        if row is None:
            return None
        if by is None and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and row.option is None:
            by = 1
        if by is None:
            return None
        if row.option is None and event.key in (pygame.K_LEFT, pygame.K_RIGHT):
            if (row.group in self.opened) != (by > 0):
                self.toggle_group(row.group)
            return True
        self.activate(row, by)
        self.tooltip.refresh(self.hint(self.rows[self.focus]))
        return True

    # --- drawing --------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, text: TextCache) -> None:
        """The Rules row, its notes, the groups and their options (module doc)."""
        s = self.ui.s
        x, y = self.rect.x, self.rect.y
        text.blit(surface, "Rules", (x, y + s(4)), 14, theme.TEXT_MUTED, bold=True)
        for b in self.buttons:
            b.draw(surface, text)
        name_room = self.next.rect.x - self.previous.rect.right - s(12)
        label = text.fit(self.set_label, 14, name_room, True)
        colour = theme.ACCENT if self.focus == -1 else theme.TEXT
        text.blit(
            surface, label, ((self.previous.rect.right + self.next.rect.x) // 2, y + s(13)), 14, colour, True, "center"
        )
        ny = y + s(30)
        for line, col in self.notes(self.rect.width):
            text.blit(surface, line, (x, ny), 12, col)
            ny += text.line_height(12)
        area = self.area
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip) if clip else area)
        for i, row in enumerate(self.rows):
            if row.rect.bottom < area.top or row.rect.top > area.bottom:
                continue
            if self.focus == i:
                pygame.draw.rect(surface, theme.PANEL_LIGHT, row.rect, border_radius=4)
            if row.option is None:
                self._draw_header(surface, text, row)
            else:
                self._draw_option(surface, text, row)
        surface.set_clip(clip)
        if self.content_height > area.height > 0:
            track = pygame.Rect(area.right - s(5), area.y, s(4), area.height)
            pygame.draw.rect(surface, theme.PANEL_LIGHT, track, border_radius=2)
            h = max(s(16), area.height * area.height // self.content_height)
            top = area.y + (area.height - h) * self.scroll // max(1, self.content_height - area.height)
            pygame.draw.rect(surface, theme.BORDER, (track.x, top, track.width, h), border_radius=2)

    def _draw_header(self, surface: pygame.Surface, text: TextCache, row: Row) -> None:
        s = self.ui.s
        mark = "▾" if row.group in self.opened else "▸"
        n = self.changed_in(row.group)
        played = any(sp.ready for sp in ro.OPTIONS if sp.group == row.group)
        colour = theme.ACCENT if played else theme.TEXT_DISABLED
        label = f"{mark} {row.group}" + (f" — {n} changed" if n else "") + ("" if played else " — coming")
        text.blit(surface, label, (row.rect.x + s(2), row.rect.centery), 14, colour, True, "midleft")

    def _draw_option(self, surface: pygame.Surface, text: TextCache, row: Row) -> None:
        s = self.ui.s
        spec = row.option
        assert spec is not None
        value = self.options.value(spec.name)
        live = spec.ready and ro.is_active(spec, self.options)
        fg = theme.TEXT if live else theme.TEXT_DISABLED
        r = row.rect
        cy = r.centery
        if spec.kind == "bool":
            box = pygame.Rect(r.x, cy - s(8), s(16), s(16))
            pygame.draw.rect(surface, theme.PANEL_LIGHT, box, border_radius=3)
            pygame.draw.rect(surface, theme.ACCENT if value and live else theme.BORDER, box, 2, border_radius=3)
            if value:
                tick = [
                    (box.x + s(3), box.centery),
                    (box.x + s(7), box.bottom - s(4)),
                    (box.right - s(3), box.y + s(3)),
                ]
                pygame.draw.lines(surface, theme.ACCENT if live else theme.TEXT_DISABLED, False, tick, 3)
            control_w = s(22)
        else:
            shown = spec.value_text(value)
            control = f"◀ {shown} ▶" if spec.kind == "enum" else f"− {shown} +"
            text.blit(surface, control, (r.x, cy), 13, theme.ACCENT if live else theme.TEXT_DISABLED, True, "midleft")
            control_w = max(s(60), text.width(control, 13, True) + s(10))
        tag = "coming" if not spec.ready else ""
        tag_w = text.width(tag, 12) + s(6) if tag else 0
        title = text.fit(spec.title, 14, r.width - control_w - tag_w - s(4))
        text.blit(surface, title, (r.x + control_w, cy), 14, fg, False, "midleft")
        if tag:
            text.blit(surface, tag, (r.right - s(2), cy), 12, theme.TEXT_DISABLED, False, "midright")


def panel_for(ui: UiContext) -> RulesPanel:
    """The panel New battle opens with: the rules the command line gave (``play --rules``), else FTC as written."""
    start = ui.rules if isinstance(ui.rules, Rules) else None
    return RulesPanel(ui, start)


__all__ = ["RulesPanel", "file_slug", "panel_for"]
