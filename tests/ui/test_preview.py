"""The odds shown before committing are the odds the round is then resolved with (docs/architecture.md "One source of
legality")."""

from __future__ import annotations

from game.engine.actions import Declare, Move
from game.engine.battle import Battle, BattleSetup, FigureSetup, SideSetup
from game.engine.characters import Character
from game.engine.damage import graze_scale_difference
from game.engine.events import AttackResolved
from game.engine.hexgrid import direction_to
from game.engine.odds import outcome_distribution
from game.engine.terrain import TerrainMap
from game.ui.preview import attack_preview


def _to_attack_phase(battle: Battle) -> None:
    while battle.phase == "movement":
        d = battle.decision()
        assert d is not None
        battle.apply(Move(d.figure or d.interrupters[0]))


def test_ftc_6_4_preview_difficulty_and_modifiers_match_the_resolved_attack() -> None:
    """A Strength-Scale brute with a battle axe, crowded by a third figure: the preview shows the same
    melee difficulty (Mass Scale, FTC 6.4) and the same named modifiers ("no room to swing", FTC 9.1) that
    the resolution then uses."""
    t = TerrainMap.open(8, 6)
    brute = Character.from_dict(
        {"name": "Brute", "strength_scale": 2, "skills": {"Axe": "Good"}, "weapons": ["Battle Axe"]}
    )
    man = Character.from_dict({"name": "Man", "skills": {"Sword": "Fair"}, "weapons": ["Shortsword"]})
    a, b = t.hex_at(3, 2), t.hex_at(4, 2)
    crowd1, crowd2 = t.hex_at(2, 2), t.hex_at(3, 1)
    setup = BattleSetup(
        t,
        (SideSetup("x", "X"), SideSetup("y", "Y")),
        (
            FigureSetup("a", "Brute", "x", brute, a, direction_to(a, b) or 0),
            FigureSetup("b", "Man", "y", man, b, direction_to(b, a) or 0),
            FigureSetup("c", "Friend", "x", man, crowd1, 0),
            FigureSetup("d", "Friend 2", "x", man, crowd2, 0),
        ),
        seed=2,
    )
    battle = Battle(setup)
    _to_attack_phase(battle)
    if battle.figures["a"].hex != a or battle.figures["b"].hex != b:
        raise AssertionError("the figures were told to stay put")
    preview = attack_preview(battle, "a", "Battle Axe", "b", "neutral", compare=False)
    assert preview.difficulty == -2  # Poor: same Mass Scale, whatever the Strength Scale
    assert ("no room to swing", -1) in [(m.name, m.value) for m in preview.offence_mods]
    while battle.phase == "attack" and battle.round == 1:
        d = battle.decision()
        assert d is not None and d.figure is not None
        targets = ("b",) if d.figure == "a" else ()
        battle.apply(Declare(d.figure, "neutral", targets))
    resolved = next(e for e in battle.events if isinstance(e, AttackResolved) and e.attacker == "a")
    assert resolved.difficulty == preview.difficulty
    assert dict(resolved.offence_mods) == {m.name: m.value for m in preview.offence_mods}


def test_fudge_4_56_preview_counts_the_scale_difference_of_a_graze_like_the_resolution() -> None:
    """A Strength Scale 2 brute's axe grazing a man may do more than a Scratch (Fudge 4.56, 4.58): the odds
    shown count the same Scale difference as ``Battle._strike``."""
    t = TerrainMap.open(8, 6)
    brute = Character.from_dict(
        {"name": "Brute", "strength_scale": 2, "skills": {"Axe": "Good"}, "weapons": ["Hand Axe"]}
    )
    man = Character.from_dict({"name": "Man", "skills": {"Sword": "Fair"}, "weapons": ["Shortsword"]})
    a, b = t.hex_at(3, 2), t.hex_at(4, 2)
    battle = Battle(
        BattleSetup(
            t,
            (SideSetup("x", "X"), SideSetup("y", "Y")),
            (
                FigureSetup("a", "Brute", "x", brute, a, direction_to(a, b) or 0),
                FigureSetup("b", "Man", "y", man, b, direction_to(b, a) or 0),
            ),
            seed=0,
        )
    )
    _to_attack_phase(battle)
    p = attack_preview(battle, "a", "Hand Axe", "b", "neutral", compare=False)
    assert graze_scale_difference(brute, man, brute.ready_weapon) == 2
    kwargs = dict(damage_base_head=p.damage_base + 2, track=man.wound_track, health=man.health)  # head +2
    with_scale = outcome_distribution(
        p.offence, p.defence, (), p.difficulty, p.damage_base, scale_difference=2, **kwargs
    )  # type: ignore[arg-type]
    without = outcome_distribution(p.offence, p.defence, (), p.difficulty, p.damage_base, **kwargs)  # type: ignore[arg-type]
    assert with_scale != without
    assert p.distribution == with_scale


def _duel_at_attack(gm_seat: str | None) -> Battle:
    from dataclasses import replace

    t = TerrainMap.open(8, 6)
    man = Character.from_dict({"name": "Man", "skills": {"Sword": "Fair"}, "weapons": ["Shortsword"]})
    a, b = t.hex_at(3, 2), t.hex_at(4, 2)
    setup = BattleSetup(
        t,
        (SideSetup("x", "X"), SideSetup("y", "Y")),
        (
            FigureSetup("a", "Ann", "x", man, a, direction_to(a, b) or 0),
            FigureSetup("b", "Bob", "y", man, b, direction_to(b, a) or 0),
        ),
        seed=4,
    )
    battle = Battle(replace(setup, gm=gm_seat))
    _to_attack_phase(battle)
    return battle


def test_ftc_6_3_a_die_the_gm_set_by_hand_shows_in_the_odds() -> None:
    """The GM rolled physical dice for Ann (+4) and Bob (-4): the odds count those totals, not 4dF still to
    roll; the preview says so, and the round then resolves with them."""
    from game.engine import gm
    from game.engine.battle import GM_REFEREE

    plain = attack_preview(_duel_at_attack(None), "a", "Shortsword", "b", compare=False)
    assert 0 < plain.hit < 1
    battle = _duel_at_attack(GM_REFEREE)
    battle.apply(gm.SetDie("a", "combat", (1, 1, 1, 1)))
    battle.apply(gm.SetDie("b", "combat", (-1, -1, -1, -1)))
    preview = attack_preview(battle, "a", "Shortsword", "b", compare=False)
    assert preview.hit == 1
    assert any("set Ann's roll by hand to +4" in note for note in preview.assumptions)
    assert any("set Bob's defence roll by hand to -4" in note for note in preview.assumptions)
    battle.apply(gm.SetDie("a", "combat", (-1, -1, -1, -1)))  # queued after: the first set roll counts
    assert attack_preview(battle, "a", "Shortsword", "b", compare=False).hit == 1
    # with the target's Health roll set too, every outcome is one wound level for certain
    battle.apply(gm.SetDie("b", "health", (0, 0, 0, 0)))
    certain = attack_preview(battle, "a", "Shortsword", "b", compare=False)
    assert list(certain.distribution.values()) == [1]
