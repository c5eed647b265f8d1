"""Hit location as FTC 6.6 words it: arms and legs on Superb, hands and feet on Superb+1, at most Hurt on a
limb with the Health roll deciding a crippled limb, and "best" meaning the worst wound for the target after
armour — the same in the odds preview and in the battle."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import Battle, Decision, legal_actions
from game.engine.combat import hit_locations
from game.engine.damage import (
    choose_location,
    crippled_character,
    crippled_posture,
    disarmed_character,
    location_result,
)
from game.engine.movement import movement_allowance
from game.engine.odds import Outcome, outcome_distribution
from game.engine.wounds import WoundLevel
from tests.golden.scenarios import CENTRE, axial, character, east

S, H, VH, IN, ND = (
    WoundLevel.SCRATCH,
    WoundLevel.HURT,
    WoundLevel.VERY_HURT,
    WoundLevel.INCAPACITATED,
    WoundLevel.NEAR_DEATH,
)
SUPERB, FAIR = 3, 0


def test_ftc_6_6_superb_against_fair_opens_head_arms_and_legs_superb_plus_one_hands_and_feet() -> None:
    assert set(hit_locations(SUPERB, FAIR)) == {"torso", "head", "arms", "legs"}
    assert set(hit_locations(SUPERB + 1, FAIR)) == {"torso", "head", "arms", "legs", "hands", "feet"}
    assert hit_locations(SUPERB, FAIR + 1) == ("torso",)


def test_ftc_6_6_a_limb_blow_gives_at_most_hurt_and_may_cripple() -> None:
    assert location_result("arm", VH) == (H, True)
    assert location_result("leg", IN) == (H, True)
    assert location_result("arm", H) == (H, False)
    assert location_result("torso", VH) == (VH, False)


def test_ftc_6_6_best_is_the_worst_wound_after_armour_not_a_helmeted_head() -> None:
    """The head under a helmet gives Hurt, the torso Very Hurt: "best" is the torso."""
    allowed = hit_locations(SUPERB, FAIR)
    assert choose_location("best", allowed, {"torso": VH, "head": H}) == "torso"
    assert choose_location("best", allowed, {"torso": H, "head": VH}) == "head"
    # a bare arm gives Hurt and may cripple where an armoured torso gives only a Scratch
    assert choose_location("best", allowed, {"torso": S, "head": S, "arm": VH, "leg": H}) == "arm"
    # ties stay on the torso
    assert choose_location("best", allowed, {"torso": H, "head": H, "arm": H}) == "torso"


def test_ftc_6_6_an_aimed_location_needs_the_result_that_opens_it() -> None:
    levels = {"torso": H, "head": H, "arm": H, "hand": H}
    assert choose_location("arm", hit_locations(SUPERB, FAIR), levels) == "arm"
    assert choose_location("hand", hit_locations(SUPERB, FAIR), levels) == "torso"  # hands need Superb+1
    assert choose_location("hand", hit_locations(SUPERB + 1, FAIR), levels) == "hand"
    assert choose_location("arm", hit_locations(SUPERB, FAIR + 1), levels) == "torso"


def test_ftc_6_6_odds_best_prefers_the_torso_over_a_helmeted_head() -> None:
    """Offence Superb against no defence; torso base 4 (Very Hurt on rd 1), head base 2 (Hurt): the preview's
    "best" puts the blow on the torso."""
    dist = outcome_distribution(SUPERB, None, (), FAIR, 4, damage_base_head=2)
    hits = [o for o in dist if o.hit]
    assert hits and all(o.location == "torso" for o in hits)
    assert Outcome(True, VH, "torso", marked=VH) in hits


def test_ftc_6_6_odds_an_arm_blow_is_capped_and_the_health_roll_decides_the_crippling() -> None:
    """A sure arm blow of 5-6 damage (would-be Very Hurt) on a Fair-Health target: Hurt always; crippled
    unless the Health roll reaches Good (a 4dF of +1 or more: 31/81)."""
    dist = outcome_distribution(
        SUPERB + 4, None, (), FAIR, -2, other_locations=(("arm", -2 + 0),), aim="arm", health=FAIR
    )
    hits = {o: p for o, p in dist.items() if o.hit}
    assert all(o.location == "arm" and o.level is not None and o.level <= H for o in hits)
    crippled = sum((p for o, p in hits.items() if o.crippled), Fraction(0))
    assert 0 < crippled < 1


def test_ftc_6_6_a_crippled_arm_fights_one_handed() -> None:
    """Ruling (docs/rulings.md "Hit location"): no shield, no two-handed grip, a two-handed weapon is dropped."""
    knight = character("knight")
    assert knight.shield is not None
    one_hand = crippled_character(knight, "arm")
    assert one_hand.shield is None and one_hand.weapons == knight.weapons
    bruiser = character("bruiser")  # a Battle Axe, two-handed
    assert bruiser.weapons[0].two_handed
    assert crippled_character(bruiser, "hand").ready_weapon.name == "Fist"
    assert crippled_character(knight, "leg") == knight


def test_ftc_6_6_a_crippled_leg_moves_as_if_crawling() -> None:
    assert crippled_posture("standing", ("leg",)) == "crawling"
    assert crippled_posture("standing", ("arm",)) == "standing"
    assert crippled_posture("prone", ("foot",)) == "prone"


def test_ftc_6_6_a_hit_weapon_hand_disarms() -> None:
    archer = character("archer")  # Shortbow, then Large Knife
    assert disarmed_character(archer).ready_weapon.name == "Large Knife"
    assert disarmed_character(character("brigand")).ready_weapon.name == "Fist"


def _aimed_blow(aim: str, **target: object) -> tuple[Battle, list[ev.Event]]:
    """The bruiser (Superb axe) strikes a brigand (changed by ``target``) with a set roll of +4 against the
    brigand's -4, the brigand's Health roll -4."""
    setup = axial([("a", "blue", "bruiser", CENTRE, 0), ("z", "red", "brigand", east(CENTRE), 3)])
    figs = tuple(replace(f, character=character("brigand", **target)) if f.id == "z" else f for f in setup.figures)
    b = Battle(replace(setup, figures=figs, gm="referee"))
    b.apply(gm.SetDie("a", "combat", (1, 1, 1, 1)))
    b.apply(gm.SetDie("z", "combat", (-1, -1, -1, -1)))
    b.apply(gm.SetDie("z", "health", (-1, -1, -1, -1)))
    out: list[ev.Event] = []
    while b.round == 1 and not b.over:
        d: Decision | None = legal_actions(b)
        assert d is not None
        fid = d.figure or ""
        if d.reason in ("move", "held_end"):
            action: act.Action = act.Move(fid, ())
        elif d.reason == "interrupt":
            action = act.PassInterrupt(d.side)
        elif fid == "a":
            action = act.Declare("a", targets=("z",), aim=aim)
        else:
            action = act.Declare(fid)
        out.extend(b.apply(action))
    return b, out


def test_ftc_6_6_an_arm_blow_in_battle_is_hurt_and_cripples_the_arm() -> None:
    b, events = _aimed_blow("arm")
    blow = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert blow.location == "arm"
    wound = next(e for e in events if isinstance(e, ev.Wounded) and e.figure == "z")
    assert wound.after_health == "Hurt" and wound.crippled == "arm"
    assert "arm" in b.figures["z"].crippled


def test_ftc_6_6_a_hand_blow_in_battle_disarms() -> None:
    b, events = _aimed_blow("hand")
    blow = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert blow.location == "hand"
    assert b.figures["z"].character.ready_weapon.name == "Fist"
    assert any(isinstance(e, ev.Disarmed) and e.weapon == "Hand Axe" for e in events)


def test_ftc_6_6_best_in_battle_is_the_bare_torso_not_the_greathelmed_head() -> None:
    """A Greathelm (3) outweighs the head's +2: aiming "best", the blow falls on the bare torso."""
    _, events = _aimed_blow("best", armour=["Greathelm"])
    blow = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert blow.location == "torso"


def test_ftc_6_6_head_aimed_in_battle_takes_the_head_with_its_helmet() -> None:
    _, events = _aimed_blow("head", armour=["Greathelm"])
    blow = next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "a")
    assert blow.location == "head" and ("Greathelm", 3) in blow.defensive_factors


def test_ftc_6_6_a_crippled_leg_in_battle_hobbles_next_round() -> None:
    b, _ = _aimed_blow("leg")
    z = b.figures["z"]
    assert "leg" in z.crippled and b.round == 2
    c = z.character
    hobbling = movement_allowance(c.speed, posture="crawling", strength=c.strength, load_kg=c.carried_mass_kg())
    walking = movement_allowance(c.speed, strength=c.strength, load_kg=c.carried_mass_kg())
    assert z.allowance == hobbling < walking
