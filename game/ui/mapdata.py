"""A map ready for the board: terrain, pixel layout, map art and the figures it places.

``open_map`` reads a Tiled map through the map loader (``game.maps.loader.load_map``) and draws it with the
same code as ``render-map`` (``game.maps.render``), but only chunk by chunk as the board shows it
(``TiledMapSource``: the whole image of a 200 x 200 map would be over 500 MB and take seconds);
``generated_field`` makes a small map without any file, drawn as plain hexes coloured by terrain.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from game.engine.hexgrid import Hex
from game.engine.terrain import TerrainMap, TerrainType
from game.ui import theme
from game.ui.board import (
    HexMapSource,
    MapSource,
    cells_in,
    default_layout,
    draw_grid,
    map_window,
    paint_plain,
    terrain_colours,
    zoomed_chunk,
)
from game.ui.camera import HexLayout

if TYPE_CHECKING:
    from game.maps.loader import LoadedMap


@dataclass(frozen=True)
class FigureSpot:
    """A figure the map places: name, side, roster key, hex, facing."""

    name: str
    side: str
    character: str
    hex: Hex
    facing: int


@dataclass
class BoardData:
    """Everything the board needs to show one map."""

    name: str
    path: Path | None
    terrain: TerrainMap
    layout: HexLayout
    source: MapSource
    figures: list[FigureSpot] = field(default_factory=list)
    properties: Mapping[str, Any] = field(default_factory=dict)
    zones: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    repainted: Mapping[Hex, str] = field(default_factory=dict)
    """Hexes whose ground a terrain object of the map changed from what its art shows, with the object's name:
    the board draws them plain in that terrain's colour, ringed (``game.maps.loader.LoadedMap.repainted``)."""

    @property
    def sides(self) -> tuple[str, ...]:
        """Every side named by a zone or a figure, in a stable order."""
        return tuple(sorted(set(self.zones) | {f.side for f in self.figures}))


def generated_field(
    width: int = 30,
    height: int = 20,
    *,
    stagger_axis: str = "y",
    stagger_index: str = "odd",
    with_figures: bool = True,
) -> BoardData:
    """An open field with a wood, a pond and a low hill, and four figures a side (no files needed)."""
    types = (
        TerrainType("open"),
        TerrainType("forest", penalty={"walk": 1, "fly": 0}, blocks_sight=True, cover=-1),
        TerrainType("water", penalty={"walk": 2, "fly": 0}, passable={"walk": False, "fly": True}),
        TerrainType("hill", elevation=2),
        TerrainType("rough", penalty={"walk": 1, "fly": 0}, cover=-1),
    )
    rows, cols = np.indices((height, width))
    grid = np.zeros((height, width), dtype=np.int16)
    grid[((cols - width * 0.3) ** 2 / 9 + (rows - height * 0.3) ** 2 / 6) < 1.0] = 1
    grid[((cols - width * 0.7) ** 2 / 6 + (rows - height * 0.7) ** 2 / 4) < 1.0] = 2
    grid[((cols - width * 0.55) ** 2 / 10 + (rows - height * 0.25) ** 2 / 5) < 1.0] = 3
    grid[((cols * 7 + rows * 13) % 23 == 0) & (grid == 0)] = 4
    terrain = TerrainMap.build(width, height, types, grid, stagger_axis=stagger_axis, stagger_index=stagger_index)
    layout = default_layout(stagger_axis, stagger_index)
    figures: list[FigureSpot] = []
    if with_figures:
        names_a = ("Aldric the Bold", "Brenna", "Corwin", "Dagny")
        names_b = ("Morg", "Nyssa the Grey", "Orrin", "Pike-Sergeant")
        for i, name in enumerate(names_a):
            figures.append(FigureSpot(name, "A", "fighter", terrain.hex_at(3 + i % 2, height // 2 - 3 + 2 * i), 0))
        for i, name in enumerate(names_b):
            figures.append(
                FigureSpot(name, "B", "fighter", terrain.hex_at(width - 4 - i % 2, height // 2 - 3 + 2 * i), 3)
            )
    return BoardData(f"Open field {width} × {height}", None, terrain, layout, HexMapSource(terrain, layout), figures)


def layout_of(tiled_layout: Any) -> HexLayout:
    """The board's hex layout for a loaded map's Tiled geometry (``game.maps.geometry.HexLayout``)."""
    return HexLayout(
        int(tiled_layout.tile_width),
        int(tiled_layout.tile_height),
        int(tiled_layout.hex_side_length),
        "x" if tiled_layout.stagger_x else "y",
        "even" if tiled_layout.stagger_even else "odd",
    )


_layout_of = layout_of
"""The old private name (kept for callers written before it was public)."""


class TiledMapSource:
    """A Tiled map's art for the board, drawn only for the chunks the board asks for (docs/performance.md: map load).

    The tile placements of every layer are worked out once (``game.maps.render.tile_placements``, a few
    arrays); a chunk draws at 1:1 just the tiles that meet it, over the board's background, and scales
    that to the zoom level as a whole image would be scaled, so every chunk is pixel for pixel the same
    part of ``render_map``'s picture. The board keeps the drawn chunks per zoom level in a bounded LRU
    cache; nothing here holds more than one chunk's pixels.
    """

    def __init__(self, loaded: LoadedMap, layout: HexLayout | None = None, grid: bool = True) -> None:
        self.loaded = loaded
        self.layout = layout or layout_of(loaded.layout)
        self.cols, self.rows = int(loaded.tmx.width), int(loaded.tmx.height)
        self.grid = grid
        self.repainted = frozenset(loaded.repainted)
        """Cells (col, row) drawn in their terrain's plain colour over the art: a terrain object changed them."""
        self.colours = terrain_colours(loaded.terrain) if self.repainted else None
        self.size = self.layout.map_size(self.cols, self.rows)
        self._render = importlib.import_module("game.maps.render")
        self._placements: Any = None

    def placements(self) -> Any:
        """Where every tile image goes (``TilePlacements``), worked out on first use."""
        if self._placements is None:
            self._placements = self._render.tile_placements(self.loaded)
        return self._placements

    def draw_1to1(self, region: tuple[int, int, int, int]) -> pygame.Surface:
        """The map's art over the background at 1:1 for ``region`` (x, y, w, h in map pixels)."""
        x, y, w, h = region
        art = pygame.Surface((w, h), pygame.SRCALPHA, 32)
        art.fill((0, 0, 0, 0))
        self._render.draw_region(self.placements(), art, region, (-x, -y))
        part = pygame.Surface((w, h))
        part.fill(theme.BACKGROUND)
        part.blit(art, (0, 0))
        return part

    def render_chunk(self, zoom: float, rect: pygame.Rect) -> pygame.Surface:
        """The map at ``zoom`` for the zoomed-pixel rectangle ``rect``, grid lines included when asked for."""
        out = zoomed_chunk(self.size, zoom, rect, self.draw_1to1)
        if self.colours is not None:  # the art would show the ground before the terrain object changed it
            x0, y0, _, _ = map_window(self.size, zoom, rect)
            here = cells_in(self.layout, self.cols, self.rows, x0, y0, rect.right / zoom, rect.bottom / zoom)
            cells = [c for c in here if c in self.repainted]
            paint_plain(out, self.layout, self.colours, cells, zoom, rect, marked=True)
        if self.grid:
            draw_grid(out, self.layout, self.cols, self.rows, zoom, rect)
        return out


def open_map(path: str | Path, *, grid: bool = True) -> BoardData:
    """Load a Tiled map for the board; raises the loader's ``MapLoadError`` (or OSError) when it cannot."""
    loader = importlib.import_module("game.maps.loader")
    return board_data_from_loaded(loader.load_map(path), path, grid=grid)


def board_data_from_loaded(loaded: LoadedMap, path: str | Path, *, grid: bool = True) -> BoardData:
    """The board's data for an already loaded map (``game.maps.loader.LoadedMap``; a session keeps one)."""
    layout = layout_of(loaded.layout)
    source: MapSource
    try:
        source = TiledMapSource(loaded, layout, grid)
    except ImportError:
        source = HexMapSource(loaded.terrain, layout, grid)
    figures = [FigureSpot(f.name, f.side, f.character, f.hex, f.facing) for f in loaded.deployment.figures]
    name = str(loaded.properties.get("name") or Path(path).stem.replace("_", " "))
    repainted = {loaded.terrain.hex_at(col, row): who for (col, row), who in loaded.repainted.items()}
    return BoardData(
        name,
        Path(path),
        loaded.terrain,
        layout,
        source,
        figures,
        dict(loaded.properties),
        dict(loaded.deployment.zones),
        repainted,
    )
