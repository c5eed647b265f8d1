"""Motion and dice on the board: a timeline that turns the battle's new events into things drawn per frame.

What it shows (FTC 5-8 as the events tell it):

- a move (``Moved``, ``Stepped``): the figure glides hex by hex along its path, turning to each step's
  direction before it takes it, and to its final facing at the end;
- an attack (``AttackResolved``): a swing at the target, or for a missile weapon (FTC 6.5) a missile's
  flight along the line of fire; a miss puffs "miss" at the target;
- a hit (``Wounded``): the figure flashes with the wound it took;
- a stray shot (``StrayShot``, FTC 6.5.3) that hits a bystander: the missile flies to the bystander instead;
- every roll (a figure's ``faces``: combat, initiative, health, spells, escapes): its four Fudge dice
  (+, −, blank) for a moment beside the figure.

Rules of the road: the animation-speed setting scales every duration and 0 switches all of it off (nothing
is queued, the board shows the battle as it is); ``skip`` (a click) ends everything at once; the timeline
only reads events and token views and never touches the battle, so replays, saves and undo are the same
with or without it. A figure gliding is left out of the board's still layer (``hidden``) and drawn by
``draw`` over the finished frame, so the board's cached layers keep their cost.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.engine import events as ev
from game.engine.creatures import footprint
from game.engine.hexgrid import Hex, neighbor
from game.ui.sound import is_missile
from game.ui.view import BoardView, TokenView

RGB = tuple[int, int, int]

STEP_S = 0.14
"""Seconds per hex of a glide at speed 1."""
TURN_S = 0.07
"""Seconds per 60° turn."""
SWING_S = 0.32
FLIGHT_S_PER_HEX = 0.045
FLIGHT_MIN_S = 0.22
FLASH_S = 0.55
DICE_S = 1.3
MAX_BACKLOG_S = 4.0
"""A timeline further behind than this (a computer side moving fast) drops what it has not started."""


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction 0..5 from a hex to its neighbour, None when they are not neighbours."""
    for d in range(6):
        if neighbor(a, d) == b:
            return d
    return None


def turn_steps(a: int, b: int) -> int:
    """How many 60° turns from facing a to facing b the short way."""
    d = (b - a) % 6
    return min(d, 6 - d)


@dataclass
class Item:
    """One thing on the timeline: starts at ``start`` (timeline seconds) and lasts ``duration``."""

    start: float
    duration: float

    @property
    def end(self) -> float:
        """When it is over."""
        return self.start + self.duration

    def progress(self, now: float) -> float:
        """0 before it starts, 1 when it is over."""
        if self.duration <= 0:
            return 1.0 if now >= self.start else 0.0
        return max(0.0, min(1.0, (now - self.start) / self.duration))


@dataclass
class Glide(Item):
    """A figure moving along hexes: ``keys`` are (time offset, hex, facing) poses, turns included."""

    figure: str = ""
    keys: list[tuple[float, Hex, int]] = field(default_factory=list)

    def pose(self, now: float) -> tuple[Hex, Hex, float, int]:
        """Where the figure is: from hex, to hex, how far between (0..1), facing now."""
        t = now - self.start
        if t <= 0 or not self.keys:
            h, f = (self.keys[0][1], self.keys[0][2]) if self.keys else (Hex(0, 0), 0)
            return h, h, 0.0, f
        for (t0, h0, f0), (t1, h1, _) in itertools.pairwise(self.keys):
            if t0 <= t < t1:
                k = (t - t0) / (t1 - t0) if t1 > t0 else 1.0
                return h0, h1, (k if h0 != h1 else 0.0), f0
        last = self.keys[-1]
        return last[1], last[1], 0.0, last[2]


@dataclass
class Swing(Item):
    """A melee blow: an arc sweeping at the target."""

    attacker: str = ""
    target: str = ""


@dataclass
class Missile(Item):
    """A missile's flight from one figure to another (a stray's to the bystander it hit)."""

    source: str = ""
    target: str = ""
    stray: bool = False


@dataclass
class Flash(Item):
    """A figure flashing with the text of what happened to it (a wound, a miss)."""

    figure: str = ""
    text: str = ""
    colour: RGB = (235, 70, 60)
    burst: bool = True


@dataclass
class Dice(Item):
    """Four Fudge dice shown beside a figure; ``slot`` stacks several rolls of one figure."""

    figure: str = ""
    faces: tuple[int, ...] = ()
    slot: int = 0


def rolls_of(e: ev.Event) -> list[tuple[str, tuple[int, ...]]]:
    """Every (figure, faces) of the dice an event rolled."""
    out: list[tuple[str, tuple[int, ...]]] = []
    if isinstance(e, ev.CombatRoll | ev.InitiativeRolled):
        out.append((e.figure, e.faces))
    elif isinstance(e, ev.SpellCast):
        out.append((e.caster, e.faces))
    elif isinstance(e, ev.SpellResisted):
        out.append((e.figure, e.faces))
    elif isinstance(e, ev.Wounded) and e.health_faces:
        out.append((e.figure, e.health_faces))
    elif isinstance(e, ev.StrayShot):
        out.append((e.firer, e.faces))
    elif isinstance(e, ev.EscapeContest):
        out.append((e.mover, e.mover_faces))
        out.extend(zip(e.stoppers, e.stopper_faces, strict=False))
    return [(f, faces) for f, faces in out if faces]


class Timeline:
    """The animations still to show, fed with the battle's new events; see the module docstring."""

    def __init__(self, speed: Callable[[], float] = lambda: 1.0) -> None:
        self.speed = speed
        self.now = 0.0
        self.items: list[Item] = []
        self.cursor = 0.0
        """When the next blocking item (a glide, an attack) may start."""
        self.tokens: dict[str, TokenView] = {}
        """The figures' token views (after the events), to draw them and to know where they stand."""
        self.skipped = 0
        self._filtered: tuple[BoardView, frozenset[str], BoardView] | None = None
        self._token_rects: list[pygame.Rect] | None = None

    # --- feeding ----------------------------------------------------------------------------------
    def feed(self, events: Iterable[ev.Event], tokens: Sequence[TokenView] | Mapping[str, TokenView]) -> None:
        """Queue what ``events`` show; ``tokens`` are the figures as they stand after them. Nothing is
        queued with the animation speed at 0."""
        self.tokens = dict(tokens) if isinstance(tokens, Mapping) else {t.id: t for t in tokens}
        if self.speed() <= 0:
            self.skip()
            return
        if not self.items:
            self.now = self.cursor = 0.0
        if self.cursor - self.now > MAX_BACKLOG_S:
            self.skip()
        self.cursor = max(self.cursor, self.now)
        slots: dict[str, int] = {}
        for e in events:
            for fid, faces in rolls_of(e):
                if fid in self.tokens:
                    slot = slots.get(fid, 0)
                    slots[fid] = slot + 1
                    self.items.append(Dice(self.cursor, DICE_S, fid, tuple(faces), slot))
            if isinstance(e, ev.Moved) and len(e.path) > 1:
                self._glide(e.figure, e.path, e.facing)
            elif isinstance(e, ev.Stepped) and e.origin != e.to:
                self._glide(e.figure, (e.origin, e.to), e.facing)
            elif isinstance(e, ev.AttackResolved):
                self._attack(e)
            elif isinstance(e, ev.Wounded):
                self.items.append(Flash(self.cursor, FLASH_S, e.figure, e.level))
                self.cursor += FLASH_S * 0.5

    def _glide(self, fid: str, path: Sequence[Hex], final: int) -> None:
        token = self.tokens.get(fid)
        if token is None:
            return
        first = direction_between(path[0], path[1]) if len(path) >= 2 else None
        facing = token.facing if first is None else first
        keys: list[tuple[float, Hex, int]] = []
        t = 0.0
        # start facing: where the figure faced before is not in the event; it turns to its first step
        keys.append((t, path[0], facing))
        for a, b in itertools.pairwise(path):
            d = direction_between(a, b)
            if d is not None and d != facing:
                t += TURN_S * turn_steps(facing, d)
                facing = d
                keys.append((t, a, facing))
            t += STEP_S
            keys.append((t, b, facing))
        if final % 6 != facing:
            t += TURN_S * turn_steps(facing, final % 6)
            keys.append((t, path[-1], final % 6))
        self.items.append(Glide(self.cursor, t, fid, keys))
        self.cursor += t

    def _attack(self, e: ev.AttackResolved) -> None:
        if e.attacker not in self.tokens or e.target not in self.tokens:
            return
        if is_missile(e.weapon) or e.stray:
            a, b = self.tokens[e.attacker].hex, self.tokens[e.target].hex
            hexes = max(1, (abs(a.q - b.q) + abs(a.r - b.r) + abs((a.q + a.r) - (b.q + b.r))) // 2)
            flight = max(FLIGHT_MIN_S, FLIGHT_S_PER_HEX * hexes)
            self.items.append(Missile(self.cursor, flight, e.attacker, e.target, e.stray))
            self.cursor += flight
        else:
            self.items.append(Swing(self.cursor, SWING_S, e.attacker, e.target))
            self.cursor += SWING_S * 0.8
        if not e.hit:
            self.items.append(Flash(self.cursor, FLASH_S, e.target, "miss", (220, 220, 220), burst=False))
            self.cursor += FLASH_S * 0.3

    # --- time -------------------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """Whether anything is still to be shown."""
        return any(item.end > self.now for item in self.items)

    def update(self, dt: float) -> bool:
        """Advance by ``dt`` real seconds (times the speed); True while something is shown."""
        if not self.items:
            return False
        speed = self.speed()
        if speed <= 0:
            self.skip()
            return True
        self.now += dt * speed
        live = [item for item in self.items if item.end > self.now]
        if len(live) != len(self.items):
            self.items = live
        return True

    def skip(self) -> None:
        """End every animation now (a click)."""
        if self.items:
            self.skipped += 1
        self.items = []
        self.now = self.cursor = 0.0

    def hidden(self) -> frozenset[str]:
        """Figures gliding or not yet glided: the board leaves them out of its still layer."""
        return frozenset(i.figure for i in self.items if isinstance(i, Glide))

    # --- drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, board: Any) -> pygame.Rect | None:
        """Draw this frame's animations over the board (``game.ui.board.Board``), clipped to its view;
        the rectangle drawn in (None when nothing was)."""
        if not self.items:
            return None
        cam = board.camera
        clip = surface.get_clip()
        view = pygame.Rect(cam.view)
        surface.set_clip(view.clip(clip) if clip else view)
        drawn: list[pygame.Rect] = []
        r = board.token_radius()
        seen: set[str] = set()
        for glide in sorted((i for i in self.items if isinstance(i, Glide)), key=lambda i: i.start):
            if glide.figure not in seen:  # a figure with two moves queued is drawn once, at its first
                seen.add(glide.figure)
                drawn.extend(self._draw_glide(surface, board, glide))
        dice_taken: list[pygame.Rect] = []
        self._token_rects = None
        for item in self.items:
            if item.start > self.now:
                continue
            p = item.progress(self.now)
            rect: pygame.Rect | None = None
            if isinstance(item, Swing):
                rect = self._draw_swing(surface, board, item, p, r)
            elif isinstance(item, Missile):
                rect = self._draw_missile(surface, board, item, p, r)
            elif isinstance(item, Flash):
                rect = self._draw_flash(surface, board, item, p, r)
            elif isinstance(item, Dice):
                rect = self._draw_dice(surface, board, item, r, dice_taken)
                if rect is not None:
                    dice_taken.append(rect)
            if rect is not None:
                drawn.append(rect)
        surface.set_clip(clip)
        return drawn[0].unionall(drawn[1:]) if drawn else None

    def filter_view(self, view: BoardView) -> BoardView:
        """The board's view without the gliding figures (the same object when none glides, and the same
        filtered object while the set of gliders stays, so the board's still layer is rebuilt only when a
        glide starts or ends)."""
        hidden = self.hidden()
        if not hidden:
            return view
        if self._filtered is not None and self._filtered[0] is view and self._filtered[1] == hidden:
            return self._filtered[2]
        out = dataclasses.replace(view, tokens=[t for t in view.tokens if t.id not in hidden])
        self._filtered = (view, hidden, out)
        return out

    def where(self, board: Any, fid: str) -> tuple[float, float] | None:
        """A figure's screen point now (mid-glide if it is moving)."""
        for item in self.items:
            if isinstance(item, Glide) and item.figure == fid:
                a, b, k, _ = item.pose(self.now)
                ax, ay = board.camera.hex_to_screen(a)
                bx, by = board.camera.hex_to_screen(b)
                return ax + (bx - ax) * k, ay + (by - ay) * k
        t = self.tokens.get(fid)
        if t is None:
            return None
        x, y = board.camera.hex_to_screen(t.hex)
        return float(x), float(y)

    def _draw_glide(self, surface: pygame.Surface, board: Any, item: Glide) -> list[pygame.Rect]:
        token = self.tokens.get(item.figure)
        if token is None:
            return []
        a, b, k, facing = item.pose(self.now)
        cells = footprint(a, len(token.cells), facing) if token.large else frozenset()
        pose = dataclasses.replace(token, hex=a, facing=facing, cells=cells, selected=False)
        sprite, (ax, ay) = board.token_sprite(pose)
        sx, sy = board.camera.hex_to_screen(a)
        tx, ty = board.camera.hex_to_screen(b)
        x, y = sx + (tx - sx) * k, sy + (ty - sy) * k
        return [surface.blit(sprite, (round(x) - ax, round(y) - ay))]

    def _draw_swing(self, surface: pygame.Surface, board: Any, item: Swing, p: float, r: float) -> pygame.Rect | None:
        a, b = self.where(board, item.attacker), self.where(board, item.target)
        if a is None or b is None:
            return None
        ang = math.atan2(b[1] - a[1], b[0] - a[0])
        sweep = -1.1 + 2.2 * p
        reach = r * 1.9
        pts = []
        for k in range(7):
            t = ang + sweep - 0.5 + k * (0.5 / 6)
            pts.append((a[0] + math.cos(t) * reach, a[1] + math.sin(t) * reach))
        width = max(2, round(r / 6))
        alpha = max(0.0, 1 - abs(p - 0.5) * 1.6)
        colour = (255, 255, round(200 + 55 * alpha))
        return pygame.draw.lines(surface, colour, False, pts, width)

    def _draw_missile(
        self, surface: pygame.Surface, board: Any, item: Missile, p: float, r: float
    ) -> pygame.Rect | None:
        a, b = self.where(board, item.source), self.where(board, item.target)
        if a is None or b is None:
            return None
        x, y = a[0] + (b[0] - a[0]) * p, a[1] + (b[1] - a[1]) * p
        ang = math.atan2(b[1] - a[1], b[0] - a[0])
        length = max(6.0, r * 0.9)
        tail = (x - math.cos(ang) * length, y - math.sin(ang) * length)
        rects = []
        if item.stray:
            # the line it strayed along, dashed, so the player sees where it went
            n = 10
            for k in range(0, n, 2):
                p0, p1 = k / n * p, (k + 1) / n * p
                rects.append(
                    pygame.draw.line(
                        surface,
                        (255, 150, 60),
                        (a[0] + (b[0] - a[0]) * p0, a[1] + (b[1] - a[1]) * p0),
                        (a[0] + (b[0] - a[0]) * p1, a[1] + (b[1] - a[1]) * p1),
                        max(1, round(r / 10)),
                    )
                )
        else:
            # a fading trail along the line of fire behind the missile
            for k in range(6):
                p0, p1 = max(0.0, p - 0.3 + k * 0.05), max(0.0, p - 0.25 + k * 0.05)
                shade = 90 + 25 * k
                rects.append(
                    pygame.draw.line(
                        surface,
                        (shade, shade, shade - 20),
                        (a[0] + (b[0] - a[0]) * p0, a[1] + (b[1] - a[1]) * p0),
                        (a[0] + (b[0] - a[0]) * p1, a[1] + (b[1] - a[1]) * p1),
                        max(1, round(r / 14)),
                    )
                )
        width = max(2, round(r / 7))
        rects.append(pygame.draw.line(surface, (40, 30, 20), tail, (x, y), width + 2))
        rects.append(pygame.draw.line(surface, (236, 222, 190), tail, (x, y), width))
        head = max(4.0, r * 0.35)
        left = (x - math.cos(ang - 0.45) * head, y - math.sin(ang - 0.45) * head)
        right = (x - math.cos(ang + 0.45) * head, y - math.sin(ang + 0.45) * head)
        rects.append(pygame.draw.polygon(surface, (250, 250, 250), [(x, y), left, right]))
        rects.append(pygame.draw.polygon(surface, (40, 30, 20), [(x, y), left, right], 1))
        return rects[0].unionall(rects[1:])

    def _draw_flash(self, surface: pygame.Surface, board: Any, item: Flash, p: float, r: float) -> pygame.Rect | None:
        at = self.where(board, item.figure)
        if at is None:
            return None
        rects = []
        if item.burst:
            radius = r * (1.0 + 0.8 * p)
            rects.append(pygame.draw.circle(surface, item.colour, at, radius, max(2, round(r / 5 * (1 - p)) + 1)))
        label = board.text.render(item.text, 14 if r >= 20 else 12, item.colour, bold=True)
        pos = label.get_rect(midbottom=(round(at[0]), round(at[1] - r * (1.1 + 0.6 * p))))
        back = pos.inflate(8, 2)
        pygame.draw.rect(surface, (14, 16, 20), back, border_radius=4)
        surface.blit(label, pos)
        rects.append(back)
        return rects[0].unionall(rects[1:])

    def _draw_dice(
        self, surface: pygame.Surface, board: Any, item: Dice, r: float, taken: list[pygame.Rect]
    ) -> pygame.Rect | None:
        """A roll's dice on a dark plate beside the figure: right of it, else left, above or below, wherever
        they cover no other roll's dice (several figures roll at once in a round)."""
        at = self.where(board, item.figure)
        if at is None:
            return None
        size = dice_size(r)
        w, h = len(item.faces) * (size + max(2, size // 6)) + 6, size + 6
        step = h + 2
        x, y = at
        token = self.tokens.get(item.figure)
        ext = 0.0
        if token is not None and token.large:  # beside the whole body, not inside it
            pts = [board.camera.hex_to_screen(c) for c in token.cells]
            ext = max(math.hypot(px - x, py - y) for px, py in pts)
        spots = [
            (x + ext + r * 1.1, y - h / 2 + item.slot * step),
            (x - ext - r * 1.1 - w, y - h / 2 + item.slot * step),
            (x - w / 2, y - ext - r * 1.15 - h - item.slot * step),
            (x - w / 2, y + ext + r * 1.15 + item.slot * step),
        ]
        if self._token_rects is None:
            self._token_rects = []
            for t in self.tokens.values():
                points = [board.camera.hex_to_screen(c) for c in t.cells] if t.large else [self.where(board, t.id)]
                for pt in points:
                    if pt is not None:
                        tx, ty = pt
                        self._token_rects.append(pygame.Rect(round(tx - r), round(ty - r), round(2 * r), round(2 * r)))
        free = [(sx, sy) for sx, sy in spots if pygame.Rect(round(sx), round(sy), w, h).collidelist(taken) < 0]
        # best where they cover neither other dice nor a figure; else where they cover no other dice
        clear = [
            (sx, sy) for sx, sy in free if pygame.Rect(round(sx), round(sy), w, h).collidelist(self._token_rects) < 0
        ]
        spot = (clear or free or spots)[0]
        plate = pygame.Rect(round(spot[0]), round(spot[1]), w, h)
        pygame.draw.rect(surface, (14, 16, 20), plate, border_radius=5)
        draw_dice(surface, item.faces, (plate.x + 3, plate.y + 3), r)
        return plate


def dice_size(r: float) -> int:
    """The side of one die in pixels for tokens of radius ``r``."""
    return max(10, round(r * 0.5))


def draw_dice(surface: pygame.Surface, faces: Sequence[int], topleft: tuple[float, float], r: float) -> pygame.Rect:
    """Fudge dice in a row (+, −, blank) at ``topleft``; the rectangle they cover."""
    size = dice_size(r)
    gap = max(2, size // 6)
    x0, y0 = round(topleft[0]), round(topleft[1])
    rects = []
    for i, f in enumerate(faces):
        rect = pygame.Rect(x0 + i * (size + gap), y0, size, size)
        pygame.draw.rect(surface, (20, 20, 24), rect.inflate(2, 2), border_radius=max(2, size // 5))
        pygame.draw.rect(surface, (244, 240, 228), rect, border_radius=max(2, size // 5))
        c = rect.center
        arm = size * 0.3
        w = max(2, size // 6)
        colour = (30, 120, 40) if f > 0 else (170, 30, 30)
        if f != 0:
            pygame.draw.line(surface, colour, (c[0] - arm, c[1]), (c[0] + arm, c[1]), w)
        if f > 0:
            pygame.draw.line(surface, colour, (c[0], c[1] - arm), (c[0], c[1] + arm), w)
        rects.append(rect.inflate(2, 2))
    return rects[0].unionall(rects[1:]) if rects else pygame.Rect(x0, y0, 0, 0)


__all__ = [
    "Dice",
    "Flash",
    "Glide",
    "Missile",
    "Swing",
    "Timeline",
    "direction_between",
    "draw_dice",
    "rolls_of",
    "turn_steps",
]
