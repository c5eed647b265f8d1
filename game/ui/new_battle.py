"""The New battle screen: choose a map, a roster, who plays each side and the rule options.

It also reads what the screen shows of a map (its sides, title, thumbnail and campaign roster). The
title screen opens it; ``game.ui.screens`` re-exports its names.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pygame

from game.engine.players import CHOSEN_IN_WINDOW, LEVEL_NAMES
from game.engine.rule_options import reads_roles
from game.ui import theme
from game.ui.battle_setup import BattleSetup
from game.ui.dialogs import FileChooser, MessageDialog
from game.ui.screen import Pop, Push, Screen, Transition, UiContext, transition_of
from game.ui.widgets import Button, ScrollList, cycled


@dataclass(frozen=True)
class SideChoice:
    """One side of the chosen map as the New battle screen shows it."""

    id: str
    name: str
    colour: str
    controller: str | None = None
    """Who plays it as the roster's ``controller`` gives it (a human or a computer level); None when the roster
    does not say (New battle then offers a human for the first side, the computer for the others)."""
    roles: tuple[str, ...] = ()
    """Its figures' roles (docs/rosters.md "Roles"), for the note on roster-borne rules."""


def roles_note(sides: list[SideChoice]) -> str:
    """The figures' roles in a few words, for the rule options that read them (docs/rosters.md "Roles"):
    "2 heroes (1 major NPC), 4 NPC pawns"; "" with no figures."""
    roles = [r for sc in sides for r in sc.roles]
    if not roles:
        return ""
    pawns = roles.count("npc")
    major = roles.count("major_npc")
    heroes = len(roles) - pawns
    said = f"{heroes} hero{'es' if heroes != 1 else ''}"
    if major:
        said += f" ({major} major NPC{'s' if major != 1 else ''})"
    return f"{said}, {pawns} NPC pawn{'s' if pawns != 1 else ''}"


def map_sides(map_path: Path, roster_path: Path | None) -> tuple[list[SideChoice], str]:
    """The sides a map and roster put on the field, and the roster's file name (or an error sentence)."""
    from game.maps.loader import load_map
    from game.roster import load_roster
    from game.session import default_roster_for, figure_role, place_figures

    loaded = load_map(map_path)
    rp = roster_path or default_roster_for(map_path, loaded)
    roster = load_roster(rp)
    sides: list[SideChoice] = []
    written = roster.data.get("sides", {})
    placed = place_figures(loaded, roster)
    roles: dict[str, list[str]] = {}
    for f in placed:
        role = figure_role(roster, str(f["character"]), str(f["side"]), bool(f.get("mook")))
        roles.setdefault(str(f["side"]), []).append(role)
    for f in placed:
        if all(sc.id != f["side"] for sc in sides):
            rs = roster.side(f["side"])
            table = written.get(f["side"]) if isinstance(written, dict) else None
            given = rs.controller if rs is not None and isinstance(table, dict) and "controller" in table else None
            sides.append(
                SideChoice(
                    f["side"],
                    rs.name if rs else str(f["side"]).capitalize(),
                    rs.colour if rs else "#888888",
                    given,
                    tuple(roles[str(f["side"])]),
                )
            )
    return sides, rp.name


@functools.lru_cache(maxsize=64)
def _map_title(path: Path, mtime: float) -> tuple[str, str]:
    import xml.etree.ElementTree as ElementTree

    title, description = path.stem.replace("_", " ").capitalize(), ""
    try:
        for _, elem in ElementTree.iterparse(path, events=("end",)):
            if elem.tag == "property" and elem.get("name") in ("name", "description"):
                value = (elem.get("value") or elem.text or "").strip()[:200]
                if value and elem.get("name") == "name":
                    title = value
                elif value:
                    description = value
            if elem.tag == "properties":  # the map's own properties come first
                break
    except (OSError, ElementTree.ParseError):
        pass
    return title, description


def map_title(path: Path) -> tuple[str, str]:
    """A map's title and description (its Tiled properties ``name`` and ``description``) for the New battle
    list; the file name as words when the map has no ``name`` (or cannot be read: loading it then says why)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = 0.0
    return _map_title(path, mtime)


_THUMBS: dict[tuple[Path, float, tuple[int, int]], pygame.Surface | None] = {}


def map_labels(paths: list[Path]) -> list[str]:
    """The New battle list's names of maps: each map's title, followed by its file name where two maps share a
    title (a copy of a shipped map, two versions of one), so every row can be told apart."""
    titles = [map_title(p)[0] for p in paths]
    out = []
    for path, title in zip(paths, titles, strict=True):
        if titles.count(title) == 1:
            out.append(title)
            continue
        same = [p for p, t in zip(paths, titles, strict=True) if t == title]
        names = [p.name for p in same]
        where = path.name if names.count(path.name) == 1 else f"{path.parent.name}/{path.name}"
        out.append(f"{title} ({where})")
    return out


def map_thumbnail(path: Path, size: tuple[int, int]) -> pygame.Surface | None:
    """The map's tiles drawn as Tiled draws them (``game.maps.render``), scaled to fit ``size``; None when the
    map cannot be drawn (New battle then shows the map's problem instead). Kept per file version and size."""
    try:
        key = (path, path.stat().st_mtime, size)
    except OSError:
        return None
    if key not in _THUMBS:
        from game.maps.loader import load_map
        from game.maps.render import render_map

        try:
            full = render_map(load_map(path))
            w, h = full.get_size()
            scale = min(size[0] / max(1, w), size[1] / max(1, h))
            _THUMBS[key] = pygame.transform.smoothscale(full, (max(1, int(w * scale)), max(1, int(h * scale))))
        except Exception:  # a broken map is described by the screen's problem text, not here
            _THUMBS[key] = None
    return _THUMBS[key]


def map_campaign_roster(map_path: Path) -> Path | None:
    """The campaign copy of a map's own roster ("Save wounds to roster" or the roster editor's Save made it), or
    None (also when the map cannot be read: New battle then describes the map's problem)."""
    from game.maps.loader import load_map
    from game.paths import campaign_roster
    from game.session import default_roster_for

    try:
        return campaign_roster(default_roster_for(map_path, load_map(map_path)))
    except Exception:  # a broken map is described by map_sides, not here
        return None


class NewBattleScreen(Screen):
    """Choose a map (shipped or any .tmx), a roster, who plays each side and the rule options.

    The defaults (first map, its own roster, side one human and the others computer, the rules text's
    options) start a skirmish in one click.
    """

    CONTROLLERS = ("human", *CHOSEN_IN_WINDOW)
    """Who may play a side: a human or a computer level (``game.engine.players.CHOSEN_IN_WINDOW``)."""
    CONTROLLER_NAMES: ClassVar[dict[str, str]] = {"human": "Human", **LEVEL_NAMES}

    def __init__(self, ui: UiContext, start_battle: Callable[[BattleSetup], Transition | None]) -> None:
        super().__init__(ui)
        from game.session import shipped_maps
        from game.ui.rules_panel import panel_for

        self.start_battle = start_battle
        found = sorted(ui.maps_dir.glob("*.tmx")) if ui.maps_dir.is_dir() else []
        self.maps: list[Path] = list(found) or shipped_maps()
        self.roster: Path | None = None
        self.campaign: Path | None = None
        """The campaign copy of the chosen map's own roster (``game.paths.campaign_roster``), if one exists."""
        self.use_campaign = True
        """Whether the map's roster is its campaign copy (when one exists) rather than the roster as shipped."""
        self.preview_rect = pygame.Rect(0, 0, 0, 0)
        self.list = ScrollList(pygame.Rect(0, 0, 10, 10), self._labels(), size=16, on_select=self._chosen)
        self.list.selected = 0
        self.browse = Button("Browse…", self._browse, size=15, hotkey=pygame.K_b)
        self.roster_button = Button("Roster…", self._choose_roster, size=15)
        self.roster_reset = Button("Map's own", self._reset_roster, size=15)
        self.roster_edit = Button(
            "Edit roster",
            self._edit_roster,
            size=15,
            hotkey=pygame.K_e,
            tooltip="Edit this roster: characters, traits, skills, gear.",
        )
        self.start = Button("Start battle", self._start, size=18)
        self.back = Button("Back", Pop, size=16)
        self.hosting = _host_controls(ui, self.setup)
        self.rules = panel_for(ui)
        """The rule options (``game.ui.rules_panel``): the set, Load… / Save as…, the grouped options."""
        self.sides: list[SideChoice] = []
        self.controllers: dict[str, str] = {}
        """Who plays each side: the player's choice, else the roster's ``controller``, else a human for the
        first side and the computer for the others."""
        self.shown_map: Path | None = None
        """The map the sides were last read from."""
        self.picked: dict[str, str] = {}
        """The players the player chose by clicking (kept until another map or roster is chosen)."""
        self.side_buttons: list[Button] = []
        self.roster_name = ""
        self.problem = ""
        self.problem_lines: list[str] = []
        self.problem_rect = pygame.Rect(0, 0, 0, 0)
        self._cache: dict[tuple[Path, Path | None], tuple[list[SideChoice], str, str]] = {}
        self._campaigns: dict[Path, Path | None] = {}
        self._refresh()

    @property
    def options(self) -> Any:
        """The rule options chosen now (``game.engine.rule_options.RuleOptions``)."""
        return self.rules.options

    @property
    def role_note(self) -> str:
        """The roster's heroes and pawns in a few words while a rule option that reads roles is on, else ""."""
        return roles_note(self.sides) if reads_roles(self.options) else ""

    @property
    def option_rects(self) -> dict[str, pygame.Rect]:
        """The visible rule options' rows by option name."""
        return self.rules.option_rects

    def _labels(self) -> list[str]:
        return map_labels(self.maps)

    @property
    def map_path(self) -> Path | None:
        """The map chosen now."""
        if not self.maps:
            return None
        index = self.list.selected if self.list.selected is not None else 0
        return self.maps[index]

    def _refresh(self) -> None:
        """Read the chosen map's sides (cached per map and roster)."""
        mp = self.shown_map = self.map_path
        if mp is None:
            self.sides, self.roster_name, self.problem = [], "", "No maps found: use Browse… to open a .tmx file."
        else:
            if mp not in self._campaigns:
                self._campaigns[mp] = map_campaign_roster(mp)
            self.campaign = self._campaigns[mp]
            key = (mp, self.chosen_roster)
            if key not in self._cache:
                try:
                    sides, name = map_sides(mp, self.chosen_roster)
                    self._cache[key] = (sides, name, "")
                except Exception as exc:  # a broken map or roster is described, not raised
                    from game.ui.dialogs import describe_error

                    self._cache[key] = ([], "", describe_error(exc, f"Reading {mp.name}"))
            self.sides, self.roster_name, self.problem = self._cache[key]
        self.roster_reset.text = "As shipped" if self.roster is None and self.campaign_in_use else "Map's own"
        if self.roster is None and self.campaign is not None and not self.use_campaign:
            self.roster_reset.text = "Your copy"
        self.controllers = {
            sc.id: self.picked.get(sc.id) or sc.controller or ("human" if i == 0 else "tactical")
            for i, sc in enumerate(self.sides)
        }
        self.side_buttons = [Button("", functools.partial(self._toggle, sc.id), size=15) for sc in self.sides]
        self._refresh_side_labels()
        if self.size != (0, 0):
            self.on_resize(self.size)

    @property
    def campaign_in_use(self) -> bool:
        """Whether the battle would use the campaign copy of the map's roster."""
        return self.roster is None and self.campaign is not None and self.use_campaign

    @property
    def chosen_roster(self) -> Path | None:
        """The roster the battle would use: one the player chose, else the map's campaign copy (wounds carried
        from the last battle) unless the player asked for the roster as shipped, else None (the map's own)."""
        return self.roster or (self.campaign if self.campaign_in_use else None)

    def _chosen(self, index: int) -> None:
        if self.map_path != self.shown_map:
            self.picked.clear()  # another map: its roster says who plays
        self._refresh()

    def _refresh_side_labels(self) -> None:
        for sc, b in zip(self.sides, self.side_buttons, strict=True):
            b.text = f"{sc.name}: {self.CONTROLLER_NAMES[self.controllers[sc.id]]}"

    def _toggle(self, side: str) -> bool:
        self.controllers[side] = self.picked[side] = cycled(self.CONTROLLERS, self.controllers[side])
        self._refresh_side_labels()
        return True

    def _browse(self) -> Transition:
        def chosen(path: Path) -> Transition | None:
            known = [p.resolve() for p in self.maps]
            if path.resolve() not in known:  # a map listed already is chosen, not listed twice
                self.maps.append(path)
                self.list.set_items(self._labels())
            self.list.select(known.index(path.resolve()) if path.resolve() in known else len(self.maps) - 1)
            return None

        return Push(
            FileChooser(
                self.ui,
                "Choose a map",
                self.ui.maps_dir if self.ui.maps_dir.is_dir() else Path.cwd(),
                (".tmx",),
                chosen,
            )
        )

    def _choose_roster(self) -> Transition:
        def chosen(path: Path) -> Transition | None:
            self.roster = path
            self.picked.clear()  # another roster: it says who plays
            self._refresh()
            return None

        mp = self.map_path
        folder = mp.parent if mp is not None else self.ui.maps_dir
        return Push(FileChooser(self.ui, "Choose a roster", folder, (".toml",), chosen))

    def _edit_roster(self) -> Transition | None:
        from game.ui.roster_editor import edit_roster, roster_for_map

        mp = self.map_path
        if mp is None:
            return None
        try:
            path = roster_for_map(mp, self.chosen_roster)
        except Exception as exc:  # a broken map is described, not raised
            from game.ui.dialogs import describe_error

            return Push(
                MessageDialog(self.ui, "Cannot edit the roster", describe_error(exc, f"Reading {mp.name}"), error=True)
            )

        def saved(new_path: Path) -> None:
            self._campaigns.clear()  # the edits may have made the map's campaign copy
            self._cache.clear()
            self.picked.clear()  # the roster as edited says who plays
            self._refresh()
            if self.roster is None and new_path in (self.campaign, path):
                self.use_campaign = new_path == self.campaign  # the map's own roster, now as edited
            else:
                self.roster = new_path
            self._refresh()

        return edit_roster(self.ui, path, saved)

    def _reset_roster(self) -> bool:
        self.picked.clear()
        if self.roster is not None:
            self.roster, self.use_campaign = None, True
        elif self.campaign is not None:
            self.use_campaign = not self.use_campaign
        self._refresh()
        return True

    def setup(self) -> BattleSetup:
        """The battle the screen would start now."""
        return BattleSetup(
            self.map_path,
            self.chosen_roster,
            tuple(self.controllers.get(sc.id, "human") for sc in self.sides[:2]),
            options=self.rules.options,
            rules_name=self.rules.rules_name,
            side_controllers=tuple((sc.id, self.controllers.get(sc.id, "human")) for sc in self.sides),
        )

    def _start(self) -> Transition | None:
        return self.start_battle(self.setup())

    def on_resize(self, size: tuple[int, int]) -> None:
        """Two columns: map and roster on the left; players and rule options on the right."""
        super().on_resize(size)
        s = self.ui.s
        w, h = size
        panel_w = min(w - s(40), s(1000))
        left = (w - panel_w) // 2
        top = s(100)
        lw = panel_w * 2 // 5
        roster_y = h - s(116)  # the roster line and its buttons close the left column
        rows = self.ui.text.line_height(16) + s(6)
        list_h = min(max(3, len(self.maps)) * rows + s(12), (roster_y - top) * 2 // 5)
        self.list.rect = pygame.Rect(left, top, lw, list_h)
        self.browse.rect = pygame.Rect(left, self.list.rect.bottom + s(8), s(120), s(34))
        roster_top = roster_y - s(12) - 2 * self.ui.text.line_height(14)  # the roster line may take two lines
        self.preview_rect = pygame.Rect(
            left, self.browse.rect.bottom + s(10), lw, max(s(30), roster_top - self.browse.rect.bottom - s(10))
        )
        bw3 = min(s(120), (lw - 2 * s(8)) // 3)  # three buttons always inside the left column
        self.roster_button.rect = pygame.Rect(left, roster_y, bw3, s(34))
        self.roster_reset.rect = pygame.Rect(left + bw3 + s(8), roster_y, bw3, s(34))
        self.roster_edit.rect = pygame.Rect(left + 2 * (bw3 + s(8)), roster_y, bw3, s(34))
        roster_buttons = (self.roster_button, self.roster_reset, self.roster_edit)
        labels = (*(b.text for b in roster_buttons), "As shipped", "Your copy")  # (Map's own, once a copy is)
        label_size = next(  # their labels whole: a smaller type where the column is narrow
            (n for n in (15, 14, 13) if all(self.ui.text.width(t, n, True) <= bw3 - s(10) for t in labels)), 12
        )
        for b in roster_buttons:
            b.size = label_size
        rx = left + lw + s(30)
        bw = panel_w - lw - s(30)
        y = top + s(4)
        for b in self.side_buttons:
            b.rect = pygame.Rect(rx, y, min(bw, s(420)), s(36))
            y += s(42)
        # A broken map or roster gets its own wrapped block, so the rule options start below it.
        self.problem_lines, self.problem_rect = [], pygame.Rect(rx, y, 0, 0)
        if self.problem:
            text = self.ui.text
            self.problem_lines = text.wrap(self.problem, 14, bw)[:8]
            self.problem_rect = pygame.Rect(rx, y, bw, len(self.problem_lines) * text.line_height(14))
            y = self.problem_rect.bottom + s(8)
        y += s(26)
        # the rule options keep clear of Back / Start and the hosting choices (the panel scrolls): laid out below
        self.back.rect = pygame.Rect(rx, h - s(70), s(120), s(44))
        # Start as wide as its label needs (up to 240), so Host a table and the network switch keep theirs
        start_need = self.ui.text.width(self.start.text, self.start.size, True) + s(48)
        start_w = min(s(240), start_need, bw - self.back.rect.width - s(12))
        self.start.rect = pygame.Rect(rx + bw - start_w, h - s(70), start_w, s(44))
        between = bw - s(140) - start_w
        if between < self.hosting.width_needed():
            # too narrow between Back and Start (a small window, a large UI scale): Back goes under the roster's
            # buttons in the left column, and the hosting choices take its room
            self.back.rect = pygame.Rect(left, h - s(70), s(120), s(44))
            self.hosting.layout(pygame.Rect(rx, h - s(106), bw - start_w - s(10), s(80)))
        else:
            self.hosting.layout(pygame.Rect(rx + s(130), h - s(106), between, s(80)))
        self.rules.layout(pygame.Rect(rx, y, bw, max(s(60), h - s(112) - y)))

    def update(self, dt: float) -> bool:
        """Time the rule options' hover help."""
        return self.rules.tooltip.update(dt)

    def draw_preview(self, surface: pygame.Surface) -> None:
        """The chosen map small (its tiles as Tiled draws them) beside its title and description."""
        s, text = self.ui.s, self.ui.text
        box = self.preview_rect
        mp = self.map_path
        if mp is None or box.width <= 0 or box.height <= 0:
            return
        title, description = map_title(mp)
        if self.list.selected is not None and self.list.selected < len(self.list.items):
            title = self.list.items[self.list.selected]  # with its file name when another map has its title
        tall = box.height >= s(220)  # room enough: the map above its words, else beside them
        size = (box.width, box.height - s(90)) if tall else (min(box.width // 2, box.height * 3 // 2), box.height)
        thumb = map_thumbnail(mp, size)
        x, y = box.x, box.y
        if thumb is not None:
            surface.blit(thumb, (box.x, box.y))
            pygame.draw.rect(surface, theme.BORDER, (box.x, box.y, *thumb.get_size()), 1)
            if tall:
                y = box.y + thumb.get_height() + s(8)
            else:
                x = box.x + thumb.get_width() + s(10)
        width = box.right - x
        for line in text.wrap(title, 15, width)[:2]:
            text.blit(surface, line, (x, y), 15, theme.TEXT, bold=True)
            y += text.line_height(15)
        lines = text.wrap(description or mp.name, 13, width)
        room = max(0, (box.bottom - y) // text.line_height(13))
        if len(lines) > room:
            lines = lines[:room]
            if lines:
                lines[-1] = lines[-1].rstrip(" .,;") + "…"
        for line in lines:
            text.blit(surface, line, (x, y), 13, theme.TEXT_MUTED)
            y += text.line_height(13)

    def on_event(self, event: pygame.event.Event) -> Transition | None:
        """Arrows choose the map, Enter starts, Escape goes back; clicks toggle options and players; Tab walks
        the rule options (``game.ui.rules_panel``), which then take the arrows, Space and Enter."""
        taken = self.rules.handle(event)
        if (to := transition_of(taken)) is not None:
            return to
        if taken:
            return None
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self._start()
            if event.key in (pygame.K_UP, pygame.K_DOWN):
                current = self.list.selected or 0
                self.list.select(current + (1 if event.key == pygame.K_DOWN else -1))
                return None
        if (hosted := self.hosting.handle(event)) is not None:
            return hosted  # type: ignore[no-any-return]
        self.list.handle(event)
        for b in (
            *self.side_buttons,
            self.browse,
            self.roster_button,
            self.roster_reset,
            self.roster_edit,
            self.start,
            self.back,
        ):
            b.handle(event)
            if (to := transition_of(b.result)) is not None:
                return to
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Map list, roster, players, rule options, start."""
        surface.fill(theme.BACKGROUND)
        s, text = self.ui.s, self.ui.text
        text.blit(surface, "New battle", (self.list.rect.x, s(30)), 34, theme.ACCENT, bold=True)
        text.blit(surface, "Map", (self.list.rect.x, self.list.rect.y - s(24)), 15, theme.TEXT_MUTED, bold=True)
        self.list.draw(surface, text)
        self.browse.draw(surface, text)
        self.draw_preview(surface)
        roster = f"Roster: {self.roster_name or '—'}"
        notes = [""]
        if self.campaign_in_use:
            notes = [" (your campaign copy, with what you saved to it)", " (your campaign copy)"]
        elif self.roster is None:
            notes = [" (the map's own, as shipped)" if self.campaign is not None else " (the map's own)"]
        for note in notes:  # inside the left column, on two lines at most: a shorter note where need be
            lines = text.wrap(roster + note, 14, self.list.rect.width)
            if len(lines) <= 2:
                break
        if len(lines) > 2:
            lines = [lines[0], text.fit(" ".join(lines[1:]), 14, self.list.rect.width)]
        lh = text.line_height(14)
        ry = self.roster_button.rect.y - s(6) - len(lines) * lh
        for i, line in enumerate(lines):
            text.blit(surface, line, (self.list.rect.x, ry + i * lh), 14, theme.TEXT)
        self.roster_button.draw(surface, text)
        self.roster_reset.draw(surface, text)
        self.roster_edit.draw(surface, text)
        rx = self.rules.rect.x  # the right column
        text.blit(surface, "Players (click to change)", (rx, self.list.rect.y - s(24)), 15, theme.TEXT_MUTED, bold=True)
        for sc, b in zip(self.sides, self.side_buttons, strict=True):
            b.draw(surface, text)
            colour = self.ui.side_colour(sc.colour, self.sides.index(sc))
            pygame.draw.circle(surface, colour, (b.rect.x + s(16), b.rect.centery), s(7))
        y = self.problem_rect.y
        for line in self.problem_lines:
            text.blit(surface, line, (rx, y), 14, theme.DANGER)
            y += text.line_height(14)
        header = (rx, self.rules.rect.y - s(24))
        text.blit(surface, "Rule options", header, 15, theme.TEXT_MUTED, bold=True)
        note = self.role_note
        if note:  # the roster's roles, when an option reads them (docs/rosters.md "Roles")
            at = header[0] + text.width("Rule options", 15, True) + s(12)
            room = self.rules.rect.right - at
            text.blit(surface, text.fit(note, 13, room), (at, header[1] + s(2)), 13, theme.TEXT_MUTED)
        self.rules.draw(surface, text)
        self.back.draw(surface, text)
        self.start.draw(surface, text)
        self.hosting.draw(surface, text)
        self.rules.tooltip.draw(surface, text)


def _host_controls(ui: UiContext, setup: Callable[[], BattleSetup]) -> Any:
    from game.ui.join_screen import HostControls  # the network is loaded only when New battle opens

    return HostControls(ui, setup)
