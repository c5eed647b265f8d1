"""A battle in play (FTC 3–7 via the engine): map + roster -> session, autosave after every decision,
save / load / undo through the session, and a damaged save that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.engine import actions as act
from game.engine import record
from game.engine.battle import Seat, legal_actions, seat_taking
from game.engine.players import make_player
from game.session import ROOT, Session, _sha256, autosave_path, load_session, new_session, shipped_maps
from tests.golden.make_golden import MAP_GOLDEN, event_lines, read_lines

pytestmark = pytest.mark.usefixtures("home")


def _step(s: Session, players: dict[str, object]) -> list[object]:
    d = legal_actions(s.battle)
    assert d is not None
    return s.apply(players[d.side](s.battle, d), Seat.of_side(d.side))  # type: ignore[operator]


def test_autosave_lives_under_fudge_tactics_home(home: Path) -> None:
    """The autosave goes to $FUDGE_TACTICS_HOME (tests never touch the player's own saves)."""
    assert autosave_path() == home / "autosave.json"
    s = new_session(seed=3)
    assert s.autosave == home / "autosave.json" and s.autosave.exists()


def test_autosave_after_every_decision(home: Path) -> None:
    """The autosave is rewritten after every decision, mid-phase ones included; it always loads and replays."""
    s = new_session(seed=5)
    players = {sid: make_player("random", i) for i, sid in enumerate(s.battle.sides)}
    steps = 0
    while s.battle.round <= 2 and not s.battle.over:
        _step(s, players)
        steps += 1
        data = json.loads((home / "autosave.json").read_text())
        assert len(data["actions"]) == len(s.battle.log)
    assert steps >= 3
    loaded = load_session(home / "autosave.json", autosave=False)
    assert loaded.battle.log == s.battle.log


def test_a_gm_decision_is_autosaved_at_once(home: Path) -> None:
    """A GM's edit or modifier is written to the autosave when it is made, so a crash or a quit loses none
    of the GM's work."""
    from dataclasses import replace

    from game.engine import gm

    s = new_session(seed=5)
    s.battle = type(s.battle)(replace(s.battle.setup, gm="referee"))
    s.write_autosave()
    d = legal_actions(s.battle)
    assert d is not None and d.reason == "move"
    s.apply(gm.SituationalModifier("m1", d.figure or "", 1, "inspired", "removed", s.battle.round), Seat.game_master())
    data = json.loads((home / "autosave.json").read_text())
    assert len(data["actions"]) == len(s.battle.log)
    assert data["actions"][-1]["kind"] == "gm_modifier"


def test_undo_takes_the_decision_out_of_the_autosave_too(home: Path) -> None:
    """After an undo, Continue does not bring the taken-back decision back."""
    s = new_session(seed=2)
    d = legal_actions(s.battle)
    assert d is not None and d.reason == "move"
    s.apply(act.Hold(d.figure or ""), Seat.of_side(d.side))
    assert len(json.loads((home / "autosave.json").read_text())["actions"]) == 1
    s.undo()
    assert json.loads((home / "autosave.json").read_text())["actions"] == []


def test_loading_a_save_makes_it_the_battle_continue_resumes(home: Path, tmp_path: Path) -> None:
    """A loaded battle is written to the autosave at once: Continue never opens the battle played before."""
    new_session(seed=5)
    other = new_session(ROOT / "maps" / "wyrm_hollow.tmx", seed=7, autosave=False)
    other.save(tmp_path / "wyrm.json")
    load_session(tmp_path / "wyrm.json")
    assert "wyrm_hollow" in json.loads((home / "autosave.json").read_text())["setup"]["map"]


def test_session_save_load_continue_equals_uninterrupted(tmp_path: Path) -> None:
    """Save → load → continue gives exactly the events of the battle played without a break."""
    whole = new_session(seed=9, autosave=False)
    players = {sid: make_player("tactical", i) for i, sid in enumerate(whole.battle.sides)}
    while not whole.battle.over and whole.battle.round <= 4:
        _step(whole, players)
    cut = len(whole.battle.log) // 2
    part = new_session(seed=9, autosave=False)
    for a in whole.battle.log[:cut]:
        part.apply(a, seat_taking(part.battle, a))
    part.save(tmp_path / "mid.json")
    resumed = load_session(tmp_path / "mid.json", autosave=False)
    for a in whole.battle.log[cut:]:
        resumed.apply(a, seat_taking(resumed.battle, a))
    assert resumed.battle.events == whole.battle.events
    assert resumed.battle.digests == whole.battle.digests


def test_session_undo_and_its_refusal() -> None:
    """Undo through the session: a hold is taken back; a decision that rolled dice is not."""
    s = new_session(seed=2, autosave=False)
    d = legal_actions(s.battle)
    assert d is not None and d.reason == "move"
    s.apply(act.Hold(d.figure or ""), Seat.of_side(d.side))
    s.undo()
    assert s.battle.log == [] and legal_actions(s.battle) == d
    players = {sid: make_player("random", i) for i, sid in enumerate(s.battle.sides)}
    while s.battle.round == 1:
        _step(s, players)
    with pytest.raises(Exception, match="rolled dice"):
        s.undo()


def test_loading_a_damaged_save_changes_nothing(tmp_path: Path) -> None:
    """A truncated save raises ``SaveError``; the running session and the file are unchanged."""
    s = new_session(seed=4, autosave=False)
    path = tmp_path / "s.json"
    s.save(path)
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    before = path.read_bytes()
    with pytest.raises(record.SaveError):
        load_session(path, autosave=False)
    assert path.read_bytes() == before


def test_every_shipped_map_starts_a_session() -> None:
    """Each shipped map with its default roster makes a battle of at least two sides."""
    maps = shipped_maps()
    assert len(maps) >= 4
    for m in maps:
        s = new_session(m, seed=1, autosave=False)
        assert len(s.battle.sides) >= 2 and s.battle.decision() is not None


@pytest.mark.parametrize("name", sorted(MAP_GOLDEN))
def test_golden_log_on_a_shipped_map_replays(name: str, tmp_path: Path) -> None:
    """The golden battles on shipped maps replay with every digest matching (``load_session`` verifies)."""
    data = json.loads((ROOT / "tests" / "golden" / f"{name}.json").read_text())
    map_path = ROOT / data["setup"]["map"]
    assert data["setup"]["map_sha256"] == _sha256(map_path), (
        f"{map_path.name} changed since the golden log was made: run python tests/golden/make_golden.py"
    )
    data["setup"]["map"] = str(map_path)
    copy = tmp_path / f"{name}.json"
    copy.write_text(json.dumps(data))
    s = load_session(copy, autosave=False)
    assert len(s.battle.log) == len(data["actions"]) and s.battle.digests == data["digests"]
    readable = read_lines(ROOT / "tests" / "golden" / f"{name}.events.txt")
    assert event_lines(s.battle.setup, s.battle.log) == readable
    assert any(e.kind == "attack" for e in s.battle.events)


# ------------------------------------------------------------------------- Deployment and GM seat


def _default_placements() -> list[dict[str, object]]:
    return [dict(f) for f in new_session(seed=1, autosave=False).setup_data["figures"]]


def test_deployment_puts_each_figure_on_its_dropped_hex_and_facing() -> None:
    """The deployment screen's placements become the battle's figures exactly (FTC 5.2 facing included)."""
    from game.engine.hexgrid import Hex

    placements = _default_placements()
    s0 = new_session(seed=1, autosave=False)
    free = next(
        h
        for h in sorted(s0.loaded.deployment.zones[str(placements[0]["side"])])
        if s0.loaded.terrain.is_passable(h) and all(Hex(*p["hex"]) != h for p in placements)
    )  # type: ignore[misc]
    placements[0] = {**placements[0], "hex": [free.q, free.r], "facing": 4}
    s = new_session(seed=1, autosave=False, placements=placements)
    f = s.battle.figures[str(placements[0]["id"])]
    assert f.hex == free and f.facing == 4
    assert s.setup_data["figures"][0]["hex"] == [free.q, free.r]


def test_deployment_placements_survive_save_and_load(tmp_path: Path) -> None:
    placements = _default_placements()
    placements[1] = {**placements[1], "facing": (int(placements[1]["facing"]) + 2) % 6}  # type: ignore[call-overload]
    s = new_session(seed=2, autosave=False, placements=placements, gm="referee")
    s.save(tmp_path / "b.json")
    again = load_session(tmp_path / "b.json", autosave=False)
    assert again.setup_data["gm"] == "referee"
    assert {f.id: (f.hex, f.facing) for f in again.battle.figures.values()} == {
        f.id: (f.hex, f.facing) for f in s.battle.figures.values()
    }


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hex": [999, 999]}, "off the map"),
        ({"character": "dragon"}, "dragon"),
        ({"facing": 7}, "facing 7"),
        ({"hex": None}, "Auto-deploy"),
    ],
)
def test_deployment_a_bad_placement_names_the_figure_and_the_fix(change: dict[str, object], words: str) -> None:
    from game.session import SetupError

    placements = _default_placements()
    placements[0] = {**placements[0], **change}
    with pytest.raises(SetupError) as info:
        new_session(seed=1, autosave=False, placements=placements)
    assert str(placements[0]["name"]) in str(info.value) and words in str(info.value)


def test_deployment_two_figures_on_one_hex_or_on_impassable_terrain_are_refused() -> None:
    from game.session import SetupError

    placements = _default_placements()
    placements[1] = {**placements[1], "hex": placements[0]["hex"]}
    with pytest.raises(SetupError, match="same hex"):
        new_session(seed=1, autosave=False, placements=placements)
    s = new_session(seed=1, autosave=False)
    t = s.loaded.terrain
    wall = next(t.hex_at(c, r) for r in range(t.height) for c in range(t.width) if not t.is_passable(t.hex_at(c, r)))
    placements = _default_placements()
    placements[2] = {**placements[2], "hex": [wall.q, wall.r]}
    with pytest.raises(SetupError, match="impassable") as info:
        new_session(seed=1, autosave=False, placements=placements)
    assert str(placements[2]["name"]) in str(info.value)


def test_gm_seat_is_kept_in_the_setup_data() -> None:
    from game.session import SetupError

    assert new_session(seed=1, autosave=False).setup_data["gm"] is None
    side = next(iter(new_session(seed=1, autosave=False).battle.sides))
    assert new_session(seed=1, autosave=False, gm=side).setup_data["gm"] == side
    with pytest.raises(SetupError, match="GM seat"):
        new_session(seed=1, autosave=False, gm="nobody-here")


def test_deployment_auto_place_is_place_figures_logic() -> None:
    """Auto-deployment of a roster's [[figures]]: the first free passable hex of the side's zone, facing
    the other zones (the same as ``place_figures``)."""
    from game.maps.loader import load_map
    from game.roster import parse_roster
    from game.session import DEFAULT_MAP, auto_place, deployment_figures, place_figures

    loaded = load_map(DEFAULT_MAP)
    base = new_session(seed=1, autosave=False).setup_data["roster"]
    extra = {**base, "figures": [{"character": next(iter(base["characters"])), "side": "red", "name": "Late"}]}
    roster = parse_roster(extra, "test roster")
    waiting = deployment_figures(loaded, roster)
    assert waiting[-1]["hex"] is None and waiting[-1]["name"] == "Late"
    from game.engine.hexgrid import Hex

    used = {Hex(*f["hex"]) for f in waiting if f["hex"] is not None}
    h, facing = auto_place(loaded, "red", used, "Late")
    placed = place_figures(loaded, roster)
    assert placed[-1]["hex"] == [h.q, h.r] and placed[-1]["facing"] == facing
    assert h in loaded.deployment.zones["red"]
