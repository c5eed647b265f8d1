"""Miniature tokens from the made art (``assets/tokens``, drawn by ``assets/make_tokens.py``).

A figure's look is chosen from what it carries and is (``look_for``): its ready weapon (sword, axe, mace,
spear, knife, bow, crossbow, staff, bare hands) with or without a shield, a caster's robe and glow for a
figure that knows spells and carries no weapon of war, and creatures by kind and footprint (FTC 5: one,
three or seven hexes). ``TokenArt`` loads the images once, turns and scales them per facing and zoom, and
composes a one-hex token: the base tinted with the side's colour (its notch across the faced hex side),
the figure on it, and the figure's state over it (wound pip, lying prone or crawling, a concentrating
caster's ring, a held action's mark, greyed and crossed out of the fight). A GM's own image
(``game.ui.token_images``) is cropped into the base under the side ring and the notch.

Missing art never stops a battle: ``TokenArt.available`` is False and the board draws its letter tokens.
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame

from game.engine.characters import Character
from game.paths import ASSETS_DIR

RGB = tuple[int, int, int]
TOKEN_DIR = ASSETS_DIR / "tokens"
SMALL_SPAN = 1.25
"""A one-hex image spans [-1.25, 1.25] token radii around its hex (see the art script)."""
LARGE_SPAN = 3.6
"""A large image spans [-3.6, 3.6] token radii around its position hex."""
LARGE_LOOKS = frozenset({"beast3", "giant3", "wyrm7"})
RING = 0.78
"""Where the base's rim begins, in token radii (the art script's base)."""

_WEAPON_LOOKS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("crossbow", "arbalest"), "crossbow"),
    (("bow",), "bow"),
    (("staff", "quarterstaff", "wand"), "staff"),
    (("spear", "pike", "lance", "halberd", "polearm", "glaive", "trident", "javelin"), "spear"),
    (("axe",), "axe"),
    (("mace", "club", "flail", "hammer", "morning"), "mace"),
    (("sword", "rapier", "sabre", "saber", "scimitar", "falchion", "cutlass"), "sword"),
    (("knife", "dagger", "stiletto", "dirk"), "knife"),
    (("fist", "gauntlet", "kick", "boot"), "fist"),
    (("claw", "teeth", "bite", "fang", "horn", "tusk"), "beast"),
)
_SHIELDED = frozenset({"sword", "axe", "mace", "spear"})


def weapon_look(name: str) -> str:
    """The look of a weapon by its name ("" when the name says nothing this art knows)."""
    low = name.lower()
    for words, look in _WEAPON_LOOKS:
        if any(w in low for w in words):
            return look
    return ""


def look_for(character: Character) -> str:
    """The made token that shows a character (see the module docstring); the ready weapon decides."""
    size = character.footprint
    weapons = [weapon_look(w.name) for w in character.weapons]
    natural = all(w in ("beast", "") for w in weapons)
    creature = character.kind != "person" or (bool(weapons) and natural and "beast" in weapons)
    if size >= 7:
        return "wyrm7"
    if size >= 3:
        return "beast3" if creature else "giant3"
    if creature:
        return "prey" if character.kind == "prey" else "beast"
    ready = next((w for w in weapons if w not in ("", "fist")), "fist" if weapons else "")
    if character.spells and ready in ("", "knife", "fist", "staff"):
        return "staff" if ready == "staff" else "caster"
    if not ready:
        return "fist"
    if ready in _SHIELDED and character.shield is not None:
        return f"{ready}_shield"
    return ready


def _greyed(surface: pygame.Surface) -> pygame.Surface:
    """A dimmed grey copy (out of the fight)."""
    grey = pygame.transform.grayscale(surface)
    grey.fill((150, 150, 150, 255), special_flags=pygame.BLEND_RGBA_MULT)
    return grey


class TokenArt:
    """The made token images, loaded once and turned / scaled on demand (cached by the board)."""

    def __init__(self, folder: Path = TOKEN_DIR) -> None:
        self.folder = folder
        self._raw: dict[str, pygame.Surface | None] = {}
        self._turned: dict[tuple[str, int, int], pygame.Surface | None] = {}

    def raw(self, look: str) -> pygame.Surface | None:
        """A look's image as drawn (facing east), None if it is missing or unreadable."""
        if look not in self._raw:
            path = self.folder / f"{look}.png"
            try:
                self._raw[look] = pygame.image.load(str(path)) if path.is_file() else None
            except (pygame.error, OSError):
                self._raw[look] = None
        return self._raw[look]

    @property
    def available(self) -> bool:
        """Whether the base image is there (without it every token is a letter token)."""
        return self.raw("base") is not None

    def turned(self, look: str, r: int, angle: float) -> pygame.Surface | None:
        """A look scaled so one unit is ``r`` pixels and turned to ``angle`` (radians, counter-clockwise)."""
        deg = round(math.degrees(angle)) % 360
        key = (look, r, deg)
        if key in self._turned:
            return self._turned[key]
        raw = self.raw(look)
        out = None
        if raw is not None:
            span = LARGE_SPAN if look in LARGE_LOOKS or look.endswith(("3", "7")) else SMALL_SPAN
            side = max(2, round(2 * span * r))
            scaled = pygame.transform.smoothscale(
                raw.convert_alpha() if pygame.display.get_surface() else raw, (side, side)
            )
            out = pygame.transform.rotate(scaled, deg) if deg else scaled
        if len(self._turned) > 4000:
            self._turned.clear()
        self._turned[key] = out
        return out

    def one_hex(
        self,
        r: int,
        angle: float,
        side_colour: RGB,
        look: str,
        wound_colour: RGB,
        out: bool = False,
        posture: str = "standing",
        concentrating: bool = False,
        held: bool = False,
        image: pygame.Surface | None = None,
        danger: RGB = (220, 60, 50),
    ) -> pygame.Surface | None:
        """A one-hex token sprite (square, the figure's hex at its centre), or None without the art."""
        base = self.turned("base", r, angle)
        if base is None:
            return None
        size = base.get_width()
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        c = size / 2
        pygame.draw.circle(sprite, (0, 0, 0, 90), (c + 1, c + 2), r + 1)
        tinted = base.copy()
        side = side_colour if not out else (120, 120, 126)
        tinted.fill((*side, 255), special_flags=pygame.BLEND_RGBA_MULT)
        sprite.blit(tinted, tinted.get_rect(center=(c, c)))
        if image is not None:
            self._crop_into(sprite, image, c, r)
            # the side ring over the picture again, so the side reads whatever the picture is
            pygame.draw.circle(sprite, side, (c, c), r, max(2, round(r * (1 - RING))))
            pygame.draw.circle(sprite, (30, 30, 34), (c, c), r, 1)
        else:
            lying = posture in ("prone", "crawling")
            figure = self.turned(look, r, angle + (math.pi / 2 if lying else 0.0)) if look else None
            if figure is not None:
                if lying:
                    figure = pygame.transform.smoothscale(
                        figure, (max(1, round(figure.get_width() * 0.86)), max(1, round(figure.get_height() * 0.86)))
                    )
                if out or posture == "prone":
                    figure = _greyed(figure) if out else figure.copy()
                    if posture == "prone" and not out:
                        figure.fill((190, 190, 190, 255), special_flags=pygame.BLEND_RGBA_MULT)
                sprite.blit(figure, figure.get_rect(center=(c, c)))
        ux, uy = math.cos(angle), -math.sin(angle)
        if posture == "crawling":
            # short drag marks behind the crawling figure
            for k in (-1, 1):
                px, py = -uy * k * r * 0.35, ux * k * r * 0.35
                a = (c - ux * r * 0.55 + px, c - uy * r * 0.55 + py)
                b = (c - ux * r * 0.9 + px, c - uy * r * 0.9 + py)
                pygame.draw.line(sprite, (240, 230, 200), a, b, max(1, r // 10))
        if concentrating and not out:
            self._concentration_ring(sprite, c, r)
        pip = max(2, r // 3)
        px, py = c - ux * r * 0.78, c - uy * r * 0.78
        pygame.draw.circle(sprite, (16, 16, 20), (px, py), pip + 1)
        pygame.draw.circle(sprite, wound_colour, (px, py), pip)
        if held and not out:
            self._held_mark(sprite, c - uy * r * 0.78, c + ux * r * 0.78, max(3, r // 3))
        if out:
            arm = r * 0.5
            pygame.draw.line(sprite, danger, (c - arm, c - arm), (c + arm, c + arm), max(2, r // 5))
            pygame.draw.line(sprite, danger, (c - arm, c + arm), (c + arm, c - arm), max(2, r // 5))
        return sprite

    @staticmethod
    def _crop_into(sprite: pygame.Surface, image: pygame.Surface, c: float, r: int) -> None:
        """A GM's picture scaled to cover the base's disc and cut round to it."""
        inner = max(2, round(r * 0.96))
        w, h = image.get_size()
        k = 2 * inner / max(1, min(w, h))
        scaled = pygame.transform.smoothscale(image, (max(1, round(w * k)), max(1, round(h * k))))
        disc = pygame.Surface((2 * inner, 2 * inner), pygame.SRCALPHA)
        disc.blit(scaled, scaled.get_rect(center=(inner, inner)))
        mask = pygame.Surface((2 * inner, 2 * inner), pygame.SRCALPHA)
        pygame.draw.circle(mask, (255, 255, 255, 255), (inner, inner), inner)
        disc.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        sprite.blit(disc, disc.get_rect(center=(c, c)))

    @staticmethod
    def _concentration_ring(sprite: pygame.Surface, c: float, r: int) -> None:
        """Dashes of violet light around a caster holding a spell of several rounds (FTC 8.1)."""
        rr = r * 1.08
        for k in range(8):
            a0 = k * math.pi / 4
            rect = pygame.Rect(0, 0, round(2 * rr), round(2 * rr))
            rect.center = (round(c), round(c))
            pygame.draw.arc(sprite, (190, 140, 255), rect, a0, a0 + math.pi / 7, max(2, r // 8))

    @staticmethod
    def _held_mark(sprite: pygame.Surface, x: float, y: float, size: int) -> None:
        """A figure holding its action: a small gold disc with a pause sign."""
        pygame.draw.circle(sprite, (16, 16, 20), (x, y), size + 1)
        pygame.draw.circle(sprite, (232, 190, 70), (x, y), size)
        bar = max(1, size // 3)
        for dx in (-bar, bar):
            pygame.draw.line(sprite, (30, 24, 10), (x + dx, y - size * 0.5), (x + dx, y + size * 0.5), max(1, bar))


_SHARED: TokenArt | None = None


def shared_art() -> TokenArt:
    """The one ``TokenArt`` of the process (images are loaded once)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = TokenArt()
    return _SHARED


__all__ = ["LARGE_LOOKS", "TOKEN_DIR", "TokenArt", "look_for", "shared_art", "weapon_look"]
