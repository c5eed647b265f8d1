"""What the board draws, as plain data: tokens, hex overlays, a path, a line of fire, zones of control.

The battle screen (a later task) turns engine state into these views; the board draws them and never looks
at the engine's objects itself, so drawing stays a pure function of data (docs/architecture.md "Decisions are data": the
UI reads state and sends actions; python-chess's ``svg.board`` is the model).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.hexgrid import Hex

RGB = tuple[int, int, int]


@dataclass
class Selection:
    """What the player picked on the board and what the pointer is over: a figure (and its hex), or a bare hex
    to look at; the hovered hex. The viewer screen keeps one; the battle screen's model shares it."""

    figure: str | None = None
    hex: Hex | None = None
    hover: Hex | None = None


@dataclass(frozen=True)
class TokenView:
    """One miniature on the board (side colour, name, facing notch, wound state)."""

    id: str
    name: str
    side_colour: RGB
    hex: Hex
    facing: int
    wound_level: int = 0
    """0 unhurt .. 6 dead, along Fudge's wound track (theme.WOUND_NAMES)."""
    out: bool = False
    """Out of the fight (Incapacitated or worse): drawn greyed, projects no zone of control."""
    selected: bool = False
    label: str = ""
    """Short text under the token; the name's first word when empty."""
    badge: str = ""
    """Small text over the token: the GM's situational modifiers on the figure, e.g. "+2 hill"."""
    cells: frozenset[Hex] = frozenset()
    """Every hex a large figure covers (FTC 5; ``hex`` is its position hex among them); empty for one hex."""
    look: str = ""
    """The made token art that shows the figure (``game.ui.token_art.look_for``); "" draws a letter token."""
    image: str = ""
    """A GM's own token picture (a checked path, ``game.ui.token_images``); "" for none."""
    posture: str = "standing"
    """standing, crawling or prone (FTC 5, "Crawling and Rolling"): a lying figure is drawn lying."""
    concentrating: bool = False
    """Holding a spell of several rounds (FTC 8.1)."""
    held: bool = False
    """Holding its action this round."""

    @property
    def large(self) -> bool:
        """Whether the figure covers more than one hex (drawn as one token across its footprint)."""
        return len(self.cells) > 1

    @property
    def short_name(self) -> str:
        """The label drawn under the token (at most 10 characters)."""
        text = self.label or (self.name.split()[0] if self.name.split() else self.name)
        return text if len(text) <= 10 else text[:9] + "…"


@dataclass(frozen=True)
class HexFill:
    """A set of hexes tinted in one colour (reachable bands, deployment zones, range bands)."""

    hexes: frozenset[Hex]
    colour: RGB
    alpha: int = 90
    outline: bool = False


@dataclass(frozen=True)
class PathView:
    """A path preview: hex centres joined by a line, with optional text per step (running cost)."""

    hexes: tuple[Hex, ...]
    colour: RGB = (255, 255, 255)
    step_labels: tuple[str, ...] = ()
    final_facing: int | None = None
    end_cells: frozenset[Hex] = frozenset()
    """A large figure's footprint where the path ends, facing included (FTC 5); empty for one hex."""


@dataclass(frozen=True)
class LofMark:
    """One hex on a line of fire and what it does to the shot: clear (the line crosses it), edge (the line
    only runs along its edge), cover, bystander or blocked."""

    hex: Hex
    kind: str = "clear"
    text: str = ""


@dataclass(frozen=True)
class LineOfFireView:
    """A line of fire from shooter to target, drawn as a segment with a mark on every hex it touches."""

    start: Hex
    end: Hex
    marks: tuple[LofMark, ...] = ()
    blocked: bool = False
    note: str = ""
    """Said once beside the line, where it covers no figure (e.g. that it runs along hex edges)."""


@dataclass(frozen=True)
class ZocView:
    """A figure's zone of control: its three front hexes (FTC 5.2, figure 1)."""

    hex: Hex
    facing: int
    colour: RGB
    front: frozenset[Hex] = frozenset()
    """The zone's hexes when the engine gives them (a large figure's front, ``Battle.zone``); empty: the three
    front hexes of ``hex``."""


@dataclass
class BoardView:
    """Everything the board draws this frame besides the map itself."""

    tokens: list[TokenView] = field(default_factory=list)
    fills: list[HexFill] = field(default_factory=list)
    path: PathView | None = None
    line_of_fire: LineOfFireView | None = None
    zocs: list[ZocView] = field(default_factory=list)
    hover: Hex | None = None
    selected: Hex | None = None
    highlighted: frozenset[str] = frozenset()
    """Token ids to pulse (e.g. the figures of a clicked log entry)."""
