"""The benchmark's quick path runs and reports every key of the "Performance" table of docs/performance.md with a number
(never a timed test)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from game import bench, bench_screen


def test_bench_quick_json_has_every_key_with_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == list(bench.KEYS)
    assert set(out) == set(bench.TARGETS)
    try:
        import networkx  # noqa: F401

        optional: set[str] = set()
    except ImportError:
        optional = {"reachable_vs_networkx"}
    for key, value in out.items():
        if key in optional and value is None:
            continue
        assert isinstance(value, (int, float)) and not isinstance(value, bool), (key, value)
        assert math.isfinite(value) and value > 0, (key, value)


def test_bench_table_names_every_key_and_marks_misses() -> None:
    results: dict[str, float | None] = dict.fromkeys(bench.KEYS, 1.0)
    results["reachable_vs_networkx"] = None
    results["frame_ms_median"] = 5.0
    text = bench.table(results)
    for key in bench.KEYS:
        assert f"`{key}`" in text
    assert "| `frame_ms_median` | 5 | ≤ 4 | **no** |" in text
    assert "| `odds_ms` | 1 | ≤ 0.5 | **no** |" in text
    assert "| `reachable_ms` | 1 | ≤ 1 | yes |" in text
    assert "| `reachable_vs_networkx` | — | ≥ 5 | — |" in text


def test_bench_generated_map_is_200_by_200_with_three_layers(tmp_path: Path) -> None:
    from game.maps.loader import load_map

    path = bench.write_generated_map(tmp_path)
    loaded = load_map(path)
    assert (loaded.tmx.width, loaded.tmx.height) == (200, 200)
    assert [layer.name for layer in loaded.tmx.tile_layers] == ["ground", "features", "details"]
    terrain = loaded.terrain
    # woods and walls block sight, deep water stops walkers: the line of fire and the search have work to do
    assert 0.02 < float(terrain.blocks_sight.mean()) < 0.4
    assert 0.0 < float((~terrain.passable["walk"]).mean()) < 0.2


def test_bench_frame_mouse_glides_a_few_pixels_per_frame_through_every_point() -> None:
    """The frame benchmark's mouse moves like a hand: never more than its speed per frame, visiting each point."""
    points = [(0.0, 0.0), (30.0, 0.0), (30.0, 40.0)]
    route = bench_screen.mouse_route(points, 40, speed=7.0)
    assert len(route) == 40
    steps = [((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 for (ax, ay), (bx, by) in itertools.pairwise(route)]
    assert max(steps) <= 7.0 + 1.5  # rounding to whole pixels
    assert (30, 0) in route and (30, 40) in route


def test_the_benchs_child_clients_say_whole_lines_however_their_threads_interleave() -> None:
    from game.net import benchnet

    script = benchnet._TELL + (
        "sys.setswitchinterval(1e-6)\n"  # threads taken off at any moment, as on a loaded machine
        "count = int(sys.argv[2])\n"
        "together = threading.Barrier(count)\n"
        "def seated():\n"
        "    together.wait()\n"
        "    for _ in range(200):\n"
        "        tell('seated')\n"
        "threads = [threading.Thread(target=seated) for _ in range(count)]\n"
        "for t in threads:\n"
        "    t.start()\n"
        "sys.stdin.read()\n"
    )
    with benchnet._child_clients(script, 0, 3, "seated", 600) as out:
        pass
    assert out == []


def test_the_bench_says_why_its_child_clients_did_not_connect(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.net import benchnet

    gone = "import sys\nraise SystemExit('no table at port ' + sys.argv[1])\n"
    stopped = r"did not connect: they stopped \(no table at port 7\)"
    with pytest.raises(RuntimeError, match=stopped), benchnet._child_clients(gone, 7, 1, "connected", 1):
        pass
    monkeypatch.setattr(benchnet, "CONNECT_WITHIN", 0.5)
    silent = "import sys\nsys.stdin.read()\n"
    with (
        pytest.raises(RuntimeError, match=r"did not connect: nothing within 0\.5 s"),
        benchnet._child_clients(silent, 7, 1, "connected", 1),
    ):
        pass
