"""A battle's setup and its dice as plain data for the wire, without its seed.

A client rebuilds the battle from what the host sends, never from a file named by the host: the terrain
travels as its arrays (every cell's penalty, passability, sight, cover, elevation, light and footing), the
figures with their characters as roster tables (``Character.to_dict``). The seed is not part of it: a
client's copy takes its dice from the host's tape (``game.net.mirror``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from game.engine.battle import BattleSetup, FigureSetup, RuleOptions, SideSetup
from game.engine.characters import Character
from game.engine.hexgrid import Hex
from game.engine.rule_options import ROLES
from game.engine.terrain import TerrainMap, TerrainType

MAX_CELLS = 512 * 512
"""The largest map a client accepts from a host (the map loader's own ceiling is lower)."""
MAX_FIGURES = 2000
_INT_LAYERS = ("terrain", "cover", "elevation", "light", "footing")


class WireError(ValueError):
    """Setup data from the host that this client cannot rebuild a battle from."""


def _grid(a: Any) -> list[list[int]]:
    return [[int(v) for v in row] for row in np.asarray(a).tolist()]


def terrain_to_wire(t: TerrainMap) -> dict[str, Any]:
    """The terrain as plain data (every per-cell array, so a map's overrides travel too)."""
    return {
        "width": t.width,
        "height": t.height,
        "stagger_axis": t.stagger_axis,
        "stagger_index": t.stagger_index,
        "types": [
            {
                "name": k.name,
                "penalty": dict(k.penalty),
                "passable": dict(k.passable),
                "blocks_sight": k.blocks_sight,
                "cover": k.cover,
                "elevation": k.elevation,
                "light": k.light,
                "footing": k.footing,
            }
            for k in t.types
        ],
        **{name: _grid(getattr(t, name)) for name in _INT_LAYERS},
        "blocks_sight": _grid(t.blocks_sight),
        "penalty": {m: _grid(a) for m, a in t.penalty.items()},
        "passable": {m: _grid(a) for m, a in t.passable.items()},
    }


def _array(data: Any, shape: tuple[int, int], dtype: type, what: str) -> Any:
    try:
        arr: Any = np.asarray(data, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        raise WireError(f"the host's map layer {what!r} is not a grid of numbers") from None
    if arr.shape != shape:
        raise WireError(f"the host's map layer {what!r} is {arr.shape}, not {shape}")
    arr.setflags(write=False)
    return arr


def terrain_from_wire(data: Mapping[str, Any]) -> TerrainMap:
    """Rebuild the terrain from ``terrain_to_wire`` data; ``WireError`` when it does not fit together."""
    try:
        w, h = int(data["width"]), int(data["height"])
        if not (w > 0 and h > 0 and w * h <= MAX_CELLS):
            raise WireError(f"the host's map is {w}x{h} cells, more than this client accepts")
        shape = (h, w)
        types = tuple(
            TerrainType(
                str(k["name"]),
                MappingProxyType({str(m): int(v) for m, v in dict(k["penalty"]).items()}),
                MappingProxyType({str(m): bool(v) for m, v in dict(k["passable"]).items()}),
                bool(k["blocks_sight"]),
                int(k["cover"]),
                int(k["elevation"]),
                int(k["light"]),
                int(k["footing"]),
            )
            for k in data["types"]
        )
        ints = {name: _array(data[name], shape, np.int16, name) for name in _INT_LAYERS}
        return TerrainMap(
            w,
            h,
            str(data["stagger_axis"]),
            str(data["stagger_index"]),
            ints["terrain"],
            types,
            MappingProxyType({str(m): _array(a, shape, np.int16, f"penalty {m}") for m, a in data["penalty"].items()}),
            MappingProxyType(
                {str(m): _array(a, shape, np.bool_, f"passable {m}") for m, a in data["passable"].items()}
            ),
            _array(data["blocks_sight"], shape, np.bool_, "blocks_sight"),
            ints["cover"],
            ints["elevation"],
            ints["light"],
            ints["footing"],
        )
    except WireError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise WireError(f"the host's map data is incomplete ({exc!r})") from None


def setup_to_wire(setup: BattleSetup) -> dict[str, Any]:
    """Everything a battle starts from, as data, except the seed (which never leaves the host)."""
    return {
        "terrain": terrain_to_wire(setup.terrain),
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour, "controller": s.controller} for s in setup.sides],
        "figures": [
            {
                "id": f.id,
                "name": f.name,
                "side": f.side,
                "character": f.character.to_dict(),
                "key": f.character.key,
                "hex": [f.hex.q, f.hex.r],
                "facing": f.facing,
                "standing_order": f.standing_order,
                "mook": f.mook,
                "role": f.role,
                "fudge_points": f.fudge_points,
            }
            for f in setup.figures
        ],
        "options": setup.options.to_json(),
        "rules_name": setup.rules_name,
        "title": setup.title,
        "gm": setup.gm,
    }


def setup_from_wire(data: Mapping[str, Any]) -> BattleSetup:
    """Rebuild a battle's setup from ``setup_to_wire`` data (seed 0: a copy's dice come from the tape)."""
    try:
        figures = data["figures"]
        if len(figures) > MAX_FIGURES:
            raise WireError(f"the host's battle has {len(figures)} figures, more than this client accepts")
        gm = data.get("gm")
        return BattleSetup(
            terrain_from_wire(data["terrain"]),
            tuple(
                SideSetup(str(s["id"]), str(s["name"]), str(s["colour"]), str(s["controller"])) for s in data["sides"]
            ),
            tuple(
                FigureSetup(
                    str(f["id"]),
                    str(f["name"]),
                    str(f["side"]),
                    Character.from_dict(f["character"], key=str(f.get("key", ""))),
                    Hex(int(f["hex"][0]), int(f["hex"][1])),
                    int(f["facing"]),
                    str(f["standing_order"]),
                    bool(f["mook"]),
                    _role(f.get("role")),
                    _points(f.get("fudge_points")),
                )
                for f in figures
            ),
            RuleOptions.from_json(data["options"]),
            0,
            str(data.get("title", "")),
            None if gm is None else str(gm),
            rules_name=str(data.get("rules_name", ""))[:200],
        )
    except WireError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise WireError(f"the host's battle setup cannot be rebuilt ({exc})") from None


def _role(value: object) -> str | None:
    """A figure's role as the host sent it (docs/rosters.md "Roles"); None from a host that sends none."""
    if value is None:
        return None
    if value not in ROLES:
        raise WireError(f"the host's battle gives a figure the role {value!r}, which is not one of {', '.join(ROLES)}")
    return str(value)


MAX_FUDGE_POINTS = 100
"""The most Fudge Points a figure may arrive with over the wire (the roster's limit is lower)."""


def _points(value: object) -> int | None:
    """A figure's Fudge Points as the host sent them (*Fudge* 4.64); None from a host that sends none."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FUDGE_POINTS:
        raise WireError(f"the host's battle gives a figure {value!r} Fudge Points, not a whole number 0-100")
    return value


RANDOM_GRAIN = 2**16
"""A ``random()`` draw travels rounded down to this many steps: the engine compares it with simple
fractions (a coin's 1/2), which the rounding keeps, and the generator's state is not sent along."""


def tape_to_wire(tape: list[int | float]) -> list[int | float]:
    """The dice drawn, as sent: ``getrandbits`` results as they are (a few bits each, what the dice show),
    ``random()`` results rounded to ``RANDOM_GRAIN``."""
    return [v if isinstance(v, int) else int(v * RANDOM_GRAIN) / RANDOM_GRAIN for v in tape]
