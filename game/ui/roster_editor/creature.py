"""The roster editor's creature and wounds: the footprint (FTC 5), the creature kind (Fudge 4.23), the head
(FTC 6.6), the wound track (FTC 7.3, Fudge 4.57, 4.63; a track the file gives as a table is kept), natural
armour (FTC 7.2, Tough Hide) and the wounds the character carries from an earlier battle (Fudge 4.8)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import partial
from typing import Any

import pygame

from game.engine import creatures
from game.engine.characters import TOUGH_HIDE, TOUGH_HIDE_DEFAULT
from game.engine.codec import is_whole
from game.engine.wounds import Wounds, WoundTrack, named_track
from game.ui import theme
from game.ui.pickers import PickDialog
from game.ui.roster_editor.catalogue import (
    CUSTOM_TRACK,
    TRACK_RULES,
    Action,
    kind_note,
    short,
    track_columns,
    track_names,
    track_summary,
)
from game.ui.roster_editor.part import EditorHost, Part
from game.ui.roster_editor.wounds import CarriedWoundsDialog
from game.ui.screen import Push, Transition


class CreatureAndWounds(Part):
    """Footprint, kind, head, wound track, Tough Hide and the track's boxes with the carried wounds."""

    SECTIONS = ("creature",)

    def __init__(self, host: EditorHost) -> None:
        super().__init__(host)
        self.custom_tracks: dict[str, Any] = {}
        """Each character's own wound-track table (FTC 7.3), kept while the cycle shows a named track."""

    def character_removed(self, key: str) -> None:
        """Forget the character's own wound-track table."""
        self.custom_tracks.pop(key, None)

    def choose_track(self) -> Transition:
        """Pick a wound track of data/damage.toml or data/creatures.toml (FTC 7.3, Fudge 4.57, 4.63), or the
        character's own table."""

        def picked(name: str) -> Transition | None:
            self.set_track(name)
            return None

        items, details = [], {}
        for name in self.track_options():
            track = self.custom_track() if name == CUSTOM_TRACK else named_track(name)
            items.append((f"{name.replace('_', ' ')}: " + (track_summary(track) if track else "not a track"), name))
            details[name] = TRACK_RULES.get(name, "FTC 7.3")
        return Push(PickDialog(self.ui, "Wound track (FTC 7.3)", items, picked, details=details))

    def _cycle(self, name: str, options: Sequence[object], default: object, step: int) -> bool:
        table = self.host.current
        if table is None or not options:
            return False
        now = table.get(name, default)
        if isinstance(now, str):
            now = now.strip().lower()
        known = [i for i, o in enumerate(options) if o == now and type(o) is type(now)]
        i = (known[0] + step) % len(options) if known else 0
        return self.host.set_field(name, options[i], default)

    def cycle_footprint(self, step: int = 1) -> bool:
        """The hexes the figure covers, round 1, 3 and 7 (FTC 5: "some creatures will be larger")."""
        return self._cycle("footprint", creatures.footprint_sizes(), 1, step)

    def cycle_kind(self, step: int = 1) -> bool:
        """The creature kind, round data/creatures.toml's kinds (Fudge 4.23: carnivore, prey)."""
        return self._cycle("kind", creatures.kinds(), "person", step)

    def toggle_head(self) -> bool:
        """Whether the creature has a head to strike at +2 damage (FTC 6.6)."""
        table = self.host.current
        return self.host.set_field("has_head", (table or {}).get("has_head", True) is not True, True)

    def custom_track(self) -> WoundTrack | None:
        """The character's own wound-track table, as the battle reads it (FTC 7.3); None if it has none or it
        is wrong."""
        table = self.host.current
        raw = (table or {}).get("wound_track")
        if not isinstance(raw, dict):
            raw = self.custom_tracks.get(self.host.selected or "")
        try:
            return creatures.creature_track(raw) if isinstance(raw, dict) else None
        except creatures.CreatureError:
            return None

    def track_options(self) -> list[str]:
        """The wound tracks the cycle goes round: the named ones, then the character's own table if any."""
        table = self.host.current or {}
        own = isinstance(table.get("wound_track"), dict) or (self.host.selected or "") in self.custom_tracks
        return [*track_names(), *((CUSTOM_TRACK,) if own else ())]

    def set_track(self, name: str) -> bool:
        """Give the character a named track, or back its own table (kept while another is chosen; FTC 7.3)."""
        table, key = self.host.current, self.host.selected
        if table is None or key is None:
            return False
        now = table.get("wound_track")
        if isinstance(now, dict):
            self.custom_tracks[key] = copy.deepcopy(now)
        if name == CUSTOM_TRACK:
            if key not in self.custom_tracks:
                return False
            return self.host.set_field("wound_track", copy.deepcopy(self.custom_tracks[key]))
        return self.host.set_field("wound_track", name, "default")

    def cycle_track(self, step: int = 1) -> bool:
        """The next (or previous) wound track: default, mook, major NPC, epic, ... (FTC 7.3, Fudge 4.57, 4.63)."""
        table = self.host.current
        if table is None:
            return False
        now = table.get("wound_track", "default")
        options = self.track_options()
        at = CUSTOM_TRACK if isinstance(now, dict) else now
        i = (options.index(at) + step) % len(options) if at in options else 0
        return self.set_track(options[i])

    def clear_wounds(self) -> bool:
        """Heal every wound the character carries (*Fudge* 4.8): the ``wounds`` field goes."""
        if self.host.current is None or "wounds" not in self.host.current:
            return False
        return self.host.set_field("wounds", None) and self.host.changed("Every carried wound healed.")

    def edit_wounds(self) -> Transition | None:
        """The carried wounds box by box on the character's track (*Fudge* 4.8, 4.57)."""
        key = self.host.selected
        c = self.host.check(key)[0] if key is not None else None
        if c is None:
            self.host.set_status("Fix the error first: the wounds are marked on the character's track.", True)
            return None
        before = c.starting_wounds

        def done(wounds: Wounds) -> Transition | None:
            if wounds != before:
                self.host.set_field("wounds", wounds.to_roster() or None)
                self.host.changed(f"{c.name} now carries: {wounds.label}.")
            return None

        return Push(CarriedWoundsDialog(self.ui, c.name, c.wound_track, before, done))

    def tough_hide(self) -> int | None:
        """Natural armour as the battle reads it (FTC 7.2, Tough Hide); None while the character has an error."""
        c = self.host.check(self.host.selected)[0] if self.host.selected is not None else None
        return c.tough_hide if c is not None else None

    def step_tough_hide(self, step: int) -> bool:
        """Natural armour one up or down (FTC 7.2); at 0 the gift Tough Hide goes too (it alone gives armour)."""
        table = self.host.current
        if table is None:
            return False
        now = self.tough_hide()
        if now is None:
            raw = table.get("tough_hide", 0)
            now = raw if is_whole(raw) else 0
        new = max(0, now + step)
        if self.host.refuses("tough_hide", new, now):
            return False
        if new:
            table["tough_hide"] = new
            return self.host.changed()
        table.pop("tough_hide", None)
        gifts = [g for g in self.host.names("gifts") if str(g).strip().lower() != TOUGH_HIDE.lower()]
        return self.host.set_names("gifts", gifts)

    # --- input and layout ---------------------------------------------------------------------------
    def on_key(self, event: pygame.event.Event) -> Transition | bool | None:
        """Ctrl+F footprint, Ctrl+K kind, Ctrl+W wound track; with Shift, the previous one."""
        cycles = {pygame.K_f: self.cycle_footprint, pygame.K_k: self.cycle_kind, pygame.K_w: self.cycle_track}
        if event.mod & pygame.KMOD_CTRL and event.key in cycles:
            cycles[event.key](-1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        return None

    def layout(self, table: dict[str, Any], x: int, top: int, width: int) -> int:
        """Footprint, kind, head, wound track and natural armour (FTC 5, 6.6, 7.2, 7.3; Fudge 4.23, 4.57), and
        the track's boxes with the carried wounds, from ``top``; the y below them."""
        self.clear()
        s = self.ui.s
        y = top
        carries = "wounds" in table
        self.header("creature", "Creature and wounds", x, y, x + width - s(186))
        self.button(
            "wounds.clear",
            "Heal all",
            pygame.Rect(x + width - s(180), y - s(4), s(80), s(22)),
            self.clear_wounds,
            "Fudge 4.8: the character carries no wounds into the next battle."
            if carries
            else "The character carries no wounds.",
            enabled=carries,
        )
        self.button(
            "wounds.edit",
            "Wounds…",
            pygame.Rect(x + width - s(94), y - s(4), s(94), s(22)),
            self.edit_wounds,
            "Fudge 4.8: mark or empty the boxes of the wounds carried from an earlier battle.",
        )
        y += s(20)
        bad = self.host.error_field()
        mark = {f: ("⚠ " if f == bad else "") for f in ("footprint", "kind", "has_head", "wound_track")}
        footprint = table.get("footprint", 1)
        fp = f"{footprint} hex{'es' if footprint != 1 else ''}" if is_whole(footprint) else short(footprint)
        kind = table.get("kind", "person")
        kinds = ", ".join(creatures.kinds())
        head = table.get("has_head", True)
        cells: list[tuple[str, str, Action, str]] = [
            (
                "footprint",
                f"{mark['footprint']}Footprint: {fp}",
                self.cycle_footprint,
                "FTC 5: some creatures are larger than one hex. 1 hex: a person; 3: its hex (the head), the hex "
                "behind and the rear hex on its left; 7: its hex and the six around it. Click for the next size "
                "(Ctrl+F, Ctrl+Shift+F back).",
            ),
            (
                "kind",
                f"{mark['kind']}Kind: {short(kind)}",
                self.cycle_kind,
                f"Fudge 4.23: {kind_note(str(kind).strip().lower()) or 'not a kind of data/creatures.toml.'} "
                f"Click for the next kind ({kinds}; Ctrl+K, Ctrl+Shift+K back).",
            ),
            (
                "head",
                f"{mark['has_head']}Head: " + ("yes" if head is True else "no" if head is False else short(head)),
                self.toggle_head,
                "FTC 6.6: a blow to the head does +2 damage; a creature without a head takes none.",
            ),
        ]
        third = (width - s(12)) // 3
        for i, (ident, label, action, tip) in enumerate(cells):
            self.button(ident, label, pygame.Rect(x + i * (third + s(6)), y, third, s(24)), action, tip)
        y += s(30)
        raw = table.get("wound_track", "default")
        name = CUSTOM_TRACK if isinstance(raw, dict) else raw
        c = self.host.check(self.host.selected)[0] if self.host.selected is not None else None
        track = c.wound_track if c is not None else None
        if track is None:
            try:
                track = creatures.creature_track(raw) if isinstance(raw, str | dict) else None
            except creatures.CreatureError:
                track = None
        summary = track_summary(track) if track is not None else "not a wound track"
        half = (width - s(6)) // 2
        shown = str(name).replace("_", " ") if isinstance(name, str) else short(name)
        self.button(
            "track",
            f"{mark['wound_track']}Wound track: {short(shown, 16)}",
            pygame.Rect(x, y, half, s(24)),
            self.cycle_track,
            f"{TRACK_RULES.get(str(name), 'FTC 7.3')}: {summary}. Click for the next track "
            f"({', '.join(self.track_options())}; Ctrl+W, Ctrl+Shift+W back).",
        )
        hx = x + half + s(6)
        self.text("Tough Hide", (hx, y + s(4)), 13)
        hide = self.tough_hide()
        if hide is not None:
            hide_text = str(hide)
        elif "tough_hide" in table:
            hide_text = short(table["tough_hide"], 4)
        else:  # while another field is wrong: the gift alone gives the data default, shown once it is fixed
            gift = any(str(g).strip().lower() == TOUGH_HIDE.lower() for g in self.host.names("gifts"))
            hide_text = "gift" if gift else "0"
        right_stepper = x + width - s(56) - s(34)
        self.stepper(
            "tough_hide",
            right_stepper,
            y,
            hide_text,
            partial(self.step_tough_hide, -1),
            partial(self.step_tough_hide, 1),
            "Natural armour",
            width=34,
            colour=theme.DANGER if bad == "tough_hide" else theme.TEXT,
            tip=f"FTC 7.2: natural armour such as Tough Hide adds to the defensive factor; the gift "
            f"alone gives {TOUGH_HIDE_DEFAULT}.",
        )
        self.hover_tips.append(
            (
                pygame.Rect(hx, y, right_stepper - hx, s(24)),
                "FTC 7.2: natural armour (Tough Hide) adds to the defensive damage factor.",
            )
        )
        y += s(30)
        carried = c.wounds if c is not None and c.wounds is not None and c.wounds.worst is not None else None
        self.track_sheet(track, x, y, width - s(70), carried)
        tip = f"Wound track: {summary} (FTC 7.3)."
        if carried is not None:
            # Fudge 4.8: wounds saved after a battle stay in the file; the editor keeps them and shows them
            tip += (
                f" Carries {carried.label} from an earlier battle (■): "
                + ", ".join(str(w) for w in carried.received())
                + "."
            )
        self.hover_tips.append((pygame.Rect(x, y, width - s(70), s(34)), tip))
        self.button(
            "track.choose",
            "List…",
            pygame.Rect(x + width - s(60), y, s(60), s(22)),
            self.choose_track,
            "All wound tracks with their boxes (FTC 7.3, Fudge 4.57, 4.63).",
            size=12,
        )
        end = y + s(34)
        self.rect = pygame.Rect(x, top, width, end - top)
        return end

    def track_sheet(self, track: WoundTrack | None, x: int, y: int, room: int, wounds: Wounds | None = None) -> None:
        """The wound track as a character sheet draws it (FTC 7.3): each level over its damage and boxes,
        the boxes of carried wounds filled."""
        text, s = self.ui.text, self.ui.s
        if track is None:
            self.text("not a wound track: see the message below", (x, y + s(2)), 12, theme.DANGER)
            return
        lh = text.line_height(12)
        cx = x
        for name, boxes in track_columns(track, wounds):
            col = max(text.width(name, 12), text.width(boxes, 12))
            if cx + col > x + room:
                self.text("…", (cx, y), 12, theme.TEXT_MUTED)
                return
            self.text(name, (cx, y), 12, theme.TEXT_MUTED)
            self.text(boxes, (cx, y + lh), 12)
            cx += col + s(12)
