"""The battle never hangs: the movement searches are bounded by the map (an allowance larger than the map is
the map, FTC 5), and ``simulate``'s round cap ends a battle nobody can win with a sentence."""

from __future__ import annotations

import time
import tomllib
from pathlib import Path

import pytest

import main
from game.engine.hexgrid import Hex
from game.engine.movement import Ground
from game.maps.loader import load_map


def test_ftc_5_an_allowance_larger_than_the_map_is_the_map() -> None:
    terrain = load_map(Path("maps/village.tmx")).terrain
    start = next(h for h in terrain.hexes() if terrain.is_passable(h))
    whole = Ground(terrain=terrain).reach(start, 0, 2_000)
    t0 = time.process_time()
    huge = Ground(terrain=terrain).reach(start, 0, 10**12)
    assert time.process_time() - t0 < 1.0
    assert huge.hexes() == whole.hexes() and len(whole.hexes()) > 100
    assert all(huge.cost(h) == whole.cost(h) for h in sorted(whole.hexes())[:50])


def test_ftc_5_a_large_figure_with_a_huge_allowance_is_bounded_too() -> None:
    terrain = load_map(Path("maps/wyrm_hollow.tmx")).terrain
    start = (
        Hex(10, 8) if terrain.is_passable(Hex(10, 8)) else next(h for h in terrain.hexes() if terrain.is_passable(h))
    )
    t0 = time.process_time()
    reach = Ground(terrain=terrain, size=3).reach(start, 0, 10**12)
    assert time.process_time() - t0 < 5.0
    assert len(reach.hexes()) > 10  # it searched the map and returned


@pytest.fixture
def unwoundable(tmp_path: Path) -> Path:
    """The village's characters made so that nobody can wound anybody: no strength, huge Mass Scale and
    Tough Hide, and no weapons (the fist)."""
    data = tomllib.loads(Path("maps/village.roster.toml").read_text())
    parts = [f'[sides.{sid}]\nname = "{side["name"]}"\n' for sid, side in data["sides"].items()]
    parts += [
        f'[characters.{key}]\nname = "{key}"\nstrength = "Terrible-3"\nstrength_scale = -10\n'
        "mass_scale = 20\ntough_hide = 10\n"
        for key in data["characters"]
    ]
    path = tmp_path / "stone.roster.toml"
    path.write_text("\n".join(parts))
    return path


def test_simulate_ends_a_battle_nobody_can_win_at_the_round_cap_with_a_sentence(
    unwoundable: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "log.json"
    argv = ["simulate", "maps/village.tmx", "--roster", str(unwoundable), "--max-rounds", "4", "--out", str(out)]
    assert main.main(argv) == 0
    text = capsys.readouterr().out
    assert "stopped after 4 round(s) without a winner" in text and "--max-rounds" in text
    assert main.main(["replay", str(out), "--verify"]) == 0  # bare-handed figures' fists replay too
