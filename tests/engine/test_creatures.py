"""Creatures: kinds (Fudge 4.23), own wound tracks (FTC 7.3, Fudge 4.57, 4.63), natural armour (FTC 7.2),
no head (FTC 6.6), scale-piercing weapons (Fudge 4.58) and large figures (FTC 5, 5.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.engine import creatures
from game.engine.characters import Character
from game.engine.combat import Modifier, Stance
from game.engine.creatures import CreatureError
from game.engine.damage import Factor, blow_wound, damage_total, defensive_factors, offensive_factors
from game.engine.equipment import weapon
from game.engine.hexgrid import Hex, distance, front_hexes, neighbors
from game.engine.ladder import GOOD, GREAT
from game.engine.wounds import WoundLevel, Wounds, wound_for_damage

S, H, VH, INC, ND = (
    WoundLevel.SCRATCH,
    WoundLevel.HURT,
    WoundLevel.VERY_HURT,
    WoundLevel.INCAPACITATED,
    WoundLevel.NEAR_DEATH,
)
hexes = st.builds(Hex, st.integers(-20, 20), st.integers(-20, 20))
facings = st.integers(0, 5)


# --- Fudge 4.23: carnivores and prey ------------------------------------------------------------------


def test_fudge_4_23_carnivore_defends_one_below_prey_attacks_one_below() -> None:
    off, dfn = creatures.kind_modifiers("carnivore")
    assert off == () and dfn == (Modifier("Carnivore", -1),)
    off, dfn = creatures.kind_modifiers("Prey")
    assert off == (Modifier("Prey", -1),) and dfn == ()
    assert creatures.kind_modifiers("person") == ((), ())


def test_fudge_4_23_default_stances_by_kind() -> None:
    assert creatures.default_stance("carnivore") is Stance.MILDLY_AGGRESSIVE
    assert creatures.default_stance("prey") is Stance.MILDLY_DEFENSIVE
    assert creatures.default_stance("person") is Stance.NEUTRAL
    with pytest.raises(CreatureError, match="carnivore"):
        creatures.default_stance("herbivore")


# --- FTC 7.3 / Fudge 4.57: mooks and creature tracks --------------------------------------------------


def test_fudge_4_57_mook_track_undamaged_hurt_out() -> None:
    track = creatures.mook_track()
    w = Wounds(track)
    assert w.label == "Unhurt" and w.can_act
    assert wound_for_damage(1, track) == H
    assert wound_for_damage(4, track) == H
    assert wound_for_damage(5, track) == INC
    w, marked = w.record(H)
    assert marked == H and w.label == "Hurt" and w.can_act
    w, marked = w.record(H)  # a second wound: out of the battle
    assert marked == INC and w.label == "Out of the Battle" and not w.can_act


def test_fudge_4_57_mook_graze_still_marks_hurt() -> None:
    # FTC 7.3 caps a graze at Scratch; the mook track has no Scratch column, so it rolls up to Hurt.
    track = creatures.mook_track()
    level = blow_wound(1, (Factor("Sword", 6),), (), track=track)
    assert level == S
    _, marked = Wounds(track).record(level)
    assert marked == H


def test_fudge_4_63_epic_track_for_a_creature() -> None:
    epic = creatures.creature_track("epic")
    assert [wound_for_damage(d, epic) for d in range(1, 8)] == [S, H, H, VH, VH, INC, ND]
    assert [s.boxes for s in epic.steps] == [3, 2, 1, 2, 1]


def test_ftc_7_3_custom_track_from_roster_data() -> None:
    ogre = creatures.creature_track(
        {"levels": ["Scratch", "Hurt", "Incapacitated"], "damage": [2, 5, 9], "boxes": [4, 2, 1]}
    )
    assert wound_for_damage(1, ogre) is None
    assert wound_for_damage(6, ogre) == H
    with pytest.raises(CreatureError):
        creatures.creature_track({"levels": ["Hurt"], "damage": [1]})
    with pytest.raises(CreatureError, match="mook"):
        creatures.creature_track("minion")


def test_ftc_7_3_roster_creature_with_kind_size_mook() -> None:
    wolf = creatures.creature_from_dict(
        {"name": "Wolf", "kind": "carnivore", "skills": {"Bite": "Good"}, "mook": True}, key="wolf"
    )
    assert wolf.kind == "carnivore" and wolf.mook and wolf.size == 1
    assert wolf.character.wound_track == creatures.mook_track()
    named = creatures.creature_from_dict({"name": "Orc", "wound_track": "mook"})
    assert named.character.wound_track.levels == (H, INC)
    dragon = creatures.creature_from_dict(
        {"name": "Dragon", "size": 7, "scale": 6, "tough_hide": 2, "wound_track": "major_npc"}
    )
    assert dragon.size == 7 and dragon.character.mass_scale == 6
    with pytest.raises(CreatureError, match="size"):
        creatures.creature_from_dict({"name": "Blob", "size": 4})
    with pytest.raises(CreatureError, match="kind"):
        creatures.creature_from_dict({"name": "Cow", "kind": "grazer"})
    with pytest.raises(CreatureError, match="strenght"):
        creatures.creature_from_dict({"name": "Typo", "strenght": "Good"})


# --- FTC 7.2 natural armour, FTC 6.6 no head ----------------------------------------------------------


def test_ftc_7_2_tough_hide_is_natural_armour() -> None:
    bear = creatures.creature_from_dict({"name": "Bear", "gifts": ["Tough Hide"], "kind": "carnivore"})
    assert bear.character.tough_hide >= 1
    names = [f.name for f in defensive_factors(bear.character, weapon("Broadsword"))]
    assert names == ["Tough Hide"]


def test_ftc_6_6_no_head_no_head_blow_bonus() -> None:
    ooze = creatures.creature_from_dict({"name": "Ooze", "has_head": False}).character
    man = Character("Man")
    knight = Character("Knight", strength=GOOD)
    sword = weapon("Broadsword")
    vs_ooze = offensive_factors(knight, sword, two_handed=False, distance=1, location="head", target=ooze)
    vs_man = offensive_factors(knight, sword, two_handed=False, distance=1, location="head", target=man)
    assert sum(f.value for f in vs_man) - sum(f.value for f in vs_ooze) == 2


# --- Fudge 4.58 scale-piercing weapons ----------------------------------------------------------------


def test_fudge_4_58_scale_piercing_halves_or_ignores_scale_on_a_good_hit() -> None:
    assert creatures.pierced_scale(6, 3, "halve") == 3
    assert creatures.pierced_scale(5, 3, "halve") == 2
    assert creatures.pierced_scale(6, 4, "ignore") == 0
    assert creatures.pierced_scale(6, 2, "ignore") == 6  # not a good hit
    assert creatures.pierced_scale(6, 5, None) == 6  # an ordinary weapon
    assert creatures.pierced_scale(0, 5, "ignore") == 0  # a human: nothing to pierce
    assert creatures.pierced_scale(-4, 5, "ignore") == -4  # a leprechaun stays small
    assert creatures.scale_piercing_adjustment(6, 3, "halve") == -3
    with pytest.raises(CreatureError):
        creatures.pierced_scale(6, 3, "double")  # type: ignore[arg-type]


def test_fudge_4_58_whale_harpoon_against_the_dragon() -> None:
    # Wilbur's numbers (+6 against the dragon's +8) with a scale-piercing harpoon instead of the sword.
    dragon = Character("Dragon", strength_scale=6, mass_scale=6, tough_hide=2)
    dfn = defensive_factors(dragon, weapon("Spear or Pike"))
    assert sum(f.value for f in dfn) == 8
    offence = (Factor("Strength (Great)", 2), Factor("Whale harpoon", 4))
    pierced = creatures.pierce_defence(dfn, 3, "halve")
    assert [f.name for f in pierced] == ["Mass Scale (halved: scale-piercing)", "Tough Hide"]
    assert damage_total(3, offence, dfn) == 1  # a Scratch through the whole Scale
    assert damage_total(3, offence, pierced) == 4  # Hurt with the Scale halved
    assert damage_total(3, offence, creatures.pierce_defence(dfn, 3, "ignore")) == 7
    assert creatures.pierce_defence(dfn, 2, "ignore") == dfn  # a graze-ish hit pierces nothing


# --- FTC 5 large figures ------------------------------------------------------------------------------


@given(hexes, facings)
def test_ftc_5_footprints_of_1_3_7_hexes(center: Hex, facing: int) -> None:
    assert creatures.footprint(center, 1, facing) == {center}
    seven = creatures.footprint(center, 7, facing)
    assert seven == {center, *neighbors(center)}
    three = creatures.footprint(center, 3, facing)
    assert len(three) == 3 and center in three
    assert all(distance(a, b) == 1 for a in three for b in three if a != b)  # mutually adjacent
    assert all(h not in front_hexes(center, facing) for h in three)  # the body is behind the head


def test_ftc_5_footprint_size_is_checked() -> None:
    with pytest.raises(CreatureError, match="1, 3 or 7"):
        creatures.footprint(Hex(0, 0), 2, 0)


@given(hexes, facings)
def test_ftc_5_2_zone_of_control_of_one_hex_is_its_front_hexes(center: Hex, facing: int) -> None:
    assert creatures.large_front_hexes(center, 1, facing) == frozenset(front_hexes(center, facing))


def test_ftc_5_2_zone_of_control_of_a_seven_hex_dragon() -> None:
    zone = creatures.large_front_hexes(Hex(0, 0), 7, 0)
    assert zone == {Hex(2, 0), Hex(2, -1), Hex(2, -2), Hex(1, -2), Hex(1, 1), Hex(0, 2), Hex(-1, 2)}
    assert all(distance(h, Hex(0, 0)) == 2 for h in zone)  # the half ring just outside its body


def test_ftc_5_2_zone_of_control_of_a_three_hex_figure() -> None:
    zone = creatures.large_front_hexes(Hex(0, 0), 3, 0)
    assert zone == {Hex(1, 0), Hex(1, -1), Hex(0, 1), Hex(1, -2), Hex(-1, 1)}


@given(hexes, facings, st.sampled_from([1, 3, 7]))
def test_ftc_5_2_zone_is_adjacent_to_the_body_and_outside_it(center: Hex, facing: int, size: int) -> None:
    body = creatures.footprint(center, size, facing)
    zone = creatures.large_front_hexes(center, size, facing)
    assert not zone & body
    assert all(creatures.large_distance([h], body) == 1 for h in zone)


def test_ftc_9_1_spear_reach_2_of_one_hex_is_the_front_arc() -> None:
    zone = creatures.front_zone([Hex(0, 0)], 0, 2)
    at_two = {h for h in zone if distance(h, Hex(0, 0)) == 2}
    assert len(at_two) == 5 and len(zone) == 8


def test_ftc_6_2_large_distance_and_reach() -> None:
    dragon = creatures.footprint(Hex(0, 0), 7, 0)
    knight = [Hex(3, 0)]
    assert creatures.large_distance(dragon, knight) == 2
    assert creatures.large_reach(Hex(0, 0), 7, 0, [Hex(2, 0)])
    assert not creatures.large_reach(Hex(0, 0), 7, 0, knight)
    assert creatures.large_reach(Hex(0, 0), 7, 0, knight, reach=2)
    assert not creatures.large_reach(Hex(0, 0), 7, 0, [Hex(-2, 0)])  # behind the dragon
    # The knight reaches the dragon when any dragon hex is in front of him.
    assert creatures.large_reach(Hex(2, 0), 1, 3, dragon)


def test_ftc_5_2_large_figures_cannot_overlap() -> None:
    figures = {"dragon": (Hex(0, 0), 7, 0), "knight": (Hex(2, 0), 1, 3)}
    occupied = creatures.occupancy(figures)
    assert occupied[Hex(1, 0)] == "dragon" and occupied[Hex(2, 0)] == "knight"
    with pytest.raises(CreatureError, match="both cover"):
        creatures.occupancy({**figures, "knight": (Hex(1, 0), 1, 3)})
    assert creatures.fits(Hex(5, 5), 7, 0, lambda h: h not in occupied)
    assert not creatures.fits(Hex(1, 1), 3, 0, lambda h: h not in occupied)


def test_ftc_6_4_1_kind_modifiers_feed_combat_totals() -> None:
    off, dfn = creatures.kind_modifiers("carnivore")
    wolf_skill = GREAT
    assert wolf_skill + sum(m.value for m in off) == GREAT
    assert wolf_skill + sum(m.value for m in dfn) == GOOD
