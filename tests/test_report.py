"""After the battle: summary, who hit whom, luck, and the text export, on simulated battles."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from game.engine import events as ev
from game.engine.battle import Battle, BattleSetup, FigureSetup, RuleOptions, SideSetup, legal_actions
from game.engine.characters import Character
from game.engine.dice import FOUR_DF
from game.engine.players import make_player
from game.engine.terrain import TerrainMap
from game.engine.wounds import WoundLevel, Wounds
from game.report import (
    VARIANCE_PER_ROLL,
    battle_summary,
    boxes_text,
    export_log_text,
    hit_matrix,
    luck,
    luck_percentile,
    side_rolls,
)

MAX_ROUNDS = 12


def _battle(seed: int, kinds: tuple[str, str]) -> Battle:
    t = TerrainMap.open(14, 10)
    knight = Character.from_dict(
        {
            "name": "Knight",
            "strength": "Good",
            "skills": {"Sword": "Great", "Shield": "Good"},
            "weapons": ["Broadsword"],
            "armour": ["Chain Mail"],
            "shield": "Medium Shield",
        }
    )
    archer = Character.from_dict(
        {
            "name": "Archer",
            "skills": {"Bow": "Good", "Knife": "Fair"},
            "weapons": ["Shortbow", "Large Knife"],
            "armour": ["Leather"],
        }
    )
    brig = Character.from_dict(
        {"name": "Brigand", "skills": {"Axe": "Good"}, "weapons": ["Hand Axe"], "armour": ["Leather"]}
    )
    figs = []
    for i in range(3):
        blue = knight if i % 2 == 0 else archer
        figs.append(FigureSetup(f"b{i}", f"Blue{i}", "blue", blue, t.hex_at(2, 2 + 2 * i), 0))
        figs.append(FigureSetup(f"r{i}", f"Red{i}", "red", brig, t.hex_at(8, 2 + 2 * i), 3))
    b = Battle(
        BattleSetup(
            t,
            (SideSetup("blue", "Blue"), SideSetup("red", "Red")),
            tuple(figs),
            RuleOptions(),
            seed,
            title=f"Skirmish {seed}",
        )
    )
    players = {"blue": make_player(kinds[0], seed), "red": make_player(kinds[1], seed + 1)}
    while not b.over and b.round <= MAX_ROUNDS:
        d = legal_actions(b)
        assert d is not None
        b.apply(players[d.side](b, d))
    return b


@cache
def battles() -> tuple[Battle, ...]:
    return tuple(
        _battle(seed, kinds)
        for seed, kinds in (
            (1, ("tactical", "tactical")),
            (2, ("random", "random")),
            (3, ("tactical", "random")),
            (4, ("random", "tactical")),
        )
    )


def test_simulated_battles_exercise_every_kind_of_roll() -> None:
    kinds = Counter(e.kind for b in battles() for e in b.events)
    for kind in ("combat_roll", "initiative_rolled", "wounded", "attack", "escape_contest", "stray_shot"):
        assert kinds[kind] > 0, kind


@pytest.mark.parametrize("index", range(4))
def test_export_contains_every_event_in_order(index: int) -> None:
    b = battles()[index]
    names = b.names()
    lines = export_log_text(b).splitlines()
    at = 0
    for e in b.events:
        text = e.text(names)
        while at < len(lines) and lines[at].strip() != text:
            at += 1
        assert at < len(lines), f"event missing from the export: {text}"
        at += 1


def test_export_has_round_and_phase_headings_and_the_summary() -> None:
    b = battles()[0]
    text = export_log_text(b)
    lines = text.splitlines()
    rounds = [i for i, line in enumerate(lines) if line.startswith("— Round ")]
    assert len(rounds) == sum(1 for e in b.events if isinstance(e, ev.RoundBegan))
    assert all(set(lines[i + 1]) == {"="} for i in rounds)
    assert "Who hit whom" in text and "Luck" in text and "Wounds" in text
    for f in b.figures.values():
        assert f.name in text
    assert "Summary" not in export_log_text(b, summary=False)


@pytest.mark.parametrize("index", range(4))
def test_hits_and_misses_add_up_to_the_attack_events(index: int) -> None:
    b = battles()[index]
    attacks = [e for e in b.events if isinstance(e, ev.AttackResolved)]
    rows = hit_matrix(b.events)
    assert sum(r["attacks"] for r in rows) == len(attacks)
    assert sum(r["hits"] for r in rows) == sum(1 for a in attacks if a.hit)
    assert sum(r["misses"] for r in rows) == sum(1 for a in attacks if not a.hit)
    for r in rows:
        mine = [a for a in attacks if (a.attacker, a.target) == (r["attacker"], r["target"])]
        assert r["hits"] + r["misses"] == r["attacks"] == len(mine)
        assert r["wounds"] == sum(1 for a in mine if a.hit and a.wound)
    summary = battle_summary(b)
    assert [(h["attacker"], h["target"], h["hits"]) for h in summary["hits"]] == [
        (r["attacker"], r["target"], r["hits"]) for r in rows
    ]


@pytest.mark.parametrize("index", range(4))
def test_luck_sums_equal_the_dice_in_the_events(index: int) -> None:
    b = battles()[index]
    side = {f.id: f.side for f in b.figures.values()}
    totals: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for e in b.events:
        pairs: list[tuple[str, tuple[int, ...]]] = []
        if isinstance(e, ev.CombatRoll | ev.InitiativeRolled):
            pairs = [(e.figure, e.faces)]
        elif isinstance(e, ev.EscapeContest):
            pairs = [(e.mover, e.mover_faces), *zip(e.stoppers, e.stopper_faces, strict=True)]
        elif isinstance(e, ev.Wounded):
            pairs = [(e.figure, e.health_faces)]
        for fid, faces in pairs:
            totals[side[fid]] += sum(faces)
            counts[side[fid]] += 1
    report = luck(b)
    assert set(report) == {"blue", "red"}
    for s, entry in report.items():
        assert entry["sum"] == totals[s] and entry["rolls"] == counts[s]
        assert entry["sd"] == pytest.approx(math.sqrt(counts[s] * 4 * 2 / 3))
        assert entry["text"] == (
            f"{entry['name']} rolled {totals[s]:+d} over {counts[s]} rolls (expected 0 ± {entry['sd']:.1f})"
        )
        assert 0.0 <= entry["percentile"] <= 1.0
    assert sum(len(r) for r in side_rolls(b).values()) == sum(counts.values())


def test_rulings_4df_variance_and_the_briefs_example() -> None:
    mean = sum(t * p for t, p in FOUR_DF.items())
    variance = sum(t * t * p for t, p in FOUR_DF.items()) - mean**2
    assert mean == 0 and variance == Fraction(8, 3) and pytest.approx(8 / 3) == VARIANCE_PER_ROLL
    assert f"{math.sqrt(VARIANCE_PER_ROLL * 40):.1f}" == "10.3"


def test_luck_percentile_is_exact_for_one_roll_and_symmetric() -> None:
    assert luck_percentile(0, 1) == pytest.approx(0.5)
    assert luck_percentile(4, 1) == pytest.approx(1 - 1 / 162)
    assert luck_percentile(-4, 1) == pytest.approx(1 / 162)
    for total in range(-10, 11):
        assert luck_percentile(total, 12) + luck_percentile(-total, 12) == pytest.approx(1.0)
    assert luck_percentile(0, 0) == 0.5
    assert luck_percentile(3, 6000) == pytest.approx(0.5 + 3 / math.sqrt(16000) / math.sqrt(2 * math.pi), abs=1e-3)


def test_fudge_4_57_boxes_text_shows_the_h_under_incapacitated() -> None:
    w = Wounds()
    for level in (WoundLevel.HURT, WoundLevel.VERY_HURT, WoundLevel.HURT):
        w, _ = w.record(level)
    # the sheet of Fudge 4.57: O O O X X H O
    assert boxes_text(w) == "Scratch [ ][ ][ ]  Hurt [X]  Very Hurt [X]  Incapacitated [H]  Near Death [ ]"


@pytest.mark.parametrize("index", range(4))
def test_summary_wounds_and_outcome_match_the_battle(index: int) -> None:
    b = battles()[index]
    summary = battle_summary(b)
    json.dumps(summary)  # plain data
    assert summary["winner"] == b.winner and summary["rounds"] == b.round
    assert len(summary["figures"]) == len(b.figures)
    for f in summary["figures"]:
        fig = b.figures[f["id"]]
        assert f["wounds"] == fig.wounds.to_data()
        assert f["condition"] == fig.wounds.label
        assert sum(len(col["marks"]) for col in f["boxes"]) + len(fig.wounds.beyond) == sum(
            1 for _ in fig.wounds.received()
        )
    wounded = Counter(e.figure for e in b.events if isinstance(e, ev.Wounded))
    for fid, n in wounded.items():
        assert sum(1 for _ in b.figures[fid].wounds.received()) <= n


def test_the_report_names_the_rules_the_battle_was_played_under() -> None:
    """docs/rulings.md "Rule options": the summary and the text export say which options were on."""
    plain = battles()[0]
    assert battle_summary(plain)["rules"] == {"name": "FTC as written", "changed": {}}
    assert "Rules: FTC as written" in export_log_text(plain)
    setup = BattleSetup(
        plain.setup.terrain,
        plain.setup.sides,
        plain.setup.figures,
        RuleOptions(secret_stances=True, fudge_graze_table=True),
        1,
        rules_name="Border patrol",
    )
    summary = battle_summary(Battle(setup))
    assert summary["rules"] == {
        "name": "Border patrol",
        "changed": {"secret_stances": True, "fudge_graze_table": True},
    }
    text = export_log_text(Battle(setup))
    assert "Rules: Border patrol (Secret stances, Fudge's graze table)" in text
    assert "role" not in summary["figures"][0]  # no option that reads roles is on
