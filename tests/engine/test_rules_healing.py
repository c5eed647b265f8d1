"""Healing as *Fudge* 4.8 words it, in battle (the Heal Wound spell, FTC 8) and after it (treatment).

"Scratches do not count as a level for healing purposes. That is, a Hurt wound that is healed one level is
fully healed." — "Someone Near Death should take a long time to heal, even with magical or high tech
healing." (*Fudge* 4.8)
"""

from __future__ import annotations

import random
from dataclasses import replace

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.battle import Battle, legal_actions
from game.engine.healing import near_death_minutes, treat
from game.engine.ladder import FAIR
from game.engine.wounds import WoundLevel, Wounds
from tests.golden.scenarios import CENTRE, axial, east

S, H, VH, IN, ND = (
    WoundLevel.SCRATCH,
    WoundLevel.HURT,
    WoundLevel.VERY_HURT,
    WoundLevel.INCAPACITATED,
    WoundLevel.NEAR_DEATH,
)
GOOD_ROLL = (1, 0, 0, 0)  # a Fair skill reaches Good: every wound healed one level
WEEK = 7 * 24 * 60


def sheet(*levels: WoundLevel) -> Wounds:
    w = Wounds()
    for level in levels:
        w, _ = w.record(level)
    return w


def test_fudge_4_8_a_hurt_wound_healed_one_level_is_fully_healed() -> None:
    """The spell lowers a Hurt wound one level: it is gone, no Scratch is left in its place."""
    healed = magic.heal_wounds(sheet(H), 1)
    assert healed.worst is None and list(healed.received()) == []


def test_fudge_4_8_a_very_hurt_wound_healed_one_level_is_hurt() -> None:
    healed = magic.heal_wounds(sheet(VH), 1)
    assert list(healed.received()) == [H]


def test_fudge_4_8_heal_wound_in_battle_leaves_no_scratch() -> None:
    """A wizard casts Heal Wound (FTC 8.3 touch) on a Hurt knight beside him: the knight is Unhurt after it."""
    setup = axial(
        [
            ("w", "blue", "wizard", CENTRE, 0),
            ("k", "blue", "knight", east(CENTRE), 3),
            ("z", "red", "brigand", east(CENTRE, 4), 3),
        ]
    )
    b = Battle(replace(setup, gm="referee"))
    b.figures["k"].wounds = sheet(H)
    b.apply(gm.SetDie("w", "combat", (1, 1, 1, 1)))  # Great Magic + 4 = beats Great difficulty
    events: list[ev.Event] = []
    while b.round == 1 and not b.over:
        d = legal_actions(b)
        assert d is not None
        fid = d.figure or ""
        if d.reason in ("move", "held_end"):
            action: act.Action = act.Move(fid, ())
        elif d.reason == "interrupt":
            action = act.PassInterrupt(d.side)
        elif fid == "w":
            action = act.Declare("w", spell="Heal Wound", spell_target="k")
        else:
            action = act.Declare(fid)
        events.extend(b.apply(action))
    healed = [e for e in events if isinstance(e, ev.Healed)]
    assert [e.figure for e in healed] == ["k"]
    assert b.figures["k"].wounds.worst is None


def test_fudge_4_8_near_death_is_not_mended_by_a_spell_in_battle() -> None:
    """A Near Death wound takes a long time even with magic: the spell heals the worst wound below it."""
    w = sheet(VH, ND)
    healed = magic.heal_wounds(w, 1)
    assert sorted(healed.received()) == [H, ND]
    assert magic.heal_wounds(sheet(ND), 1) == sheet(ND)


def test_fudge_4_8_near_death_heals_slowly_even_with_magical_treatment() -> None:
    """At the magical pace a Hurt wound mends in a minute, a Near Death wound in no less than a week."""
    hurt = treat(random.Random(0), sheet(H), FAIR, faces=GOOD_ROLL, pace="magical")
    assert hurt.minutes == 1
    near = treat(random.Random(0), sheet(ND), FAIR, faces=GOOD_ROLL, pace="magical")
    assert near.minutes == WEEK == near_death_minutes("magical")
    assert any("Near Death heals slowly even with magic" in line for line in near.explanation)
    both = treat(random.Random(0), sheet(H, ND), FAIR, faces=GOOD_ROLL, pace="magical")
    assert both.minutes == WEEK + 1


def test_fudge_4_8_near_death_takes_longer_than_other_wounds_at_every_pace() -> None:
    for pace in ("magical", "epic", "realistic"):
        one = treat(random.Random(0), sheet(VH), FAIR, faces=GOOD_ROLL, pace=pace).minutes
        assert near_death_minutes(pace) > one
        assert near_death_minutes(pace) >= WEEK
