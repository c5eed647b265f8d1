"""A map ready for the board: terrain, pixel layout, map art and the figures it places (issue 5, "The board").

``open_map`` reads a Tiled map through the map loader (``game.maps.loader.load_map``) and draws it with the
same code as ``render-map`` (``game.maps.render.render_map``); ``generated_field`` makes a small map without
any file, drawn as plain hexes coloured by terrain (also what the benchmark's generated maps use).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pygame

from game.engine.hexgrid import Hex
from game.engine.terrain import TerrainMap, TerrainType
from game.ui import theme
from game.ui.board import HexMapSource, MapSource, SurfaceMapSource, default_layout
from game.ui.camera import HexLayout


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
    terrain = TerrainMap.build(
        width, height, types, grid, stagger_axis=stagger_axis, stagger_index=stagger_index
    )
    layout = default_layout(stagger_axis, stagger_index)
    figures: list[FigureSpot] = []
    if with_figures:
        names_a = ("Aldric the Bold", "Brenna", "Corwin", "Dagny")
        names_b = ("Morg", "Nyssa the Grey", "Orrin", "Pike-Sergeant")
        for i, name in enumerate(names_a):
            figures.append(
                FigureSpot(name, "A", "fighter", terrain.hex_at(3 + i % 2, height // 2 - 3 + 2 * i), 0)
            )
        for i, name in enumerate(names_b):
            figures.append(
                FigureSpot(
                    name, "B", "fighter", terrain.hex_at(width - 4 - i % 2, height // 2 - 3 + 2 * i), 3
                )
            )
    return BoardData(
        f"Open field {width} × {height}", None, terrain, layout, HexMapSource(terrain, layout), figures
    )


def _layout_of(tiled_layout: Any) -> HexLayout:
    return HexLayout(
        int(tiled_layout.tile_width),
        int(tiled_layout.tile_height),
        int(tiled_layout.hex_side_length),
        "x" if tiled_layout.stagger_x else "y",
        "even" if tiled_layout.stagger_even else "odd",
    )


def open_map(path: str | Path, *, grid: bool = True) -> BoardData:
    """Load a Tiled map for the board; raises the loader's ``MapLoadError`` (or OSError) when it cannot."""
    loader = importlib.import_module("game.maps.loader")
    return board_data_from_loaded(loader.load_map(path), path, grid=grid)


def board_data_from_loaded(loaded: Any, path: str | Path, *, grid: bool = True) -> BoardData:
    """The board's data for an already loaded map (``game.maps.loader.LoadedMap``; a session keeps one)."""
    layout = _layout_of(loaded.layout)
    source: MapSource
    try:
        render = importlib.import_module("game.maps.render")
    except ImportError:
        source = HexMapSource(loaded.terrain, layout, grid)
    else:
        art = render.render_map(loaded)
        left, top, _, _ = render.offset_margins(loaded)
        w, h = layout.map_size(loaded.width, loaded.height)
        base = pygame.Surface((w, h))
        base.fill(theme.BACKGROUND)
        base.blit(art, (-left, -top))
        if pygame.display.get_surface() is not None:
            base = base.convert()
        source = SurfaceMapSource(base, layout, loaded.width, loaded.height, grid)
    figures = [FigureSpot(f.name, f.side, f.character, f.hex, f.facing) for f in loaded.deployment.figures]
    name = str(loaded.properties.get("name") or Path(path).stem.replace("_", " "))
    return BoardData(
        name,
        Path(path),
        loaded.terrain,
        layout,
        source,
        figures,
        dict(loaded.properties),
        dict(loaded.deployment.zones),
    )
