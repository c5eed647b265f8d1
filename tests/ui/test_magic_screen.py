"""Magic on the battle screen (FTC 8): the spell row of the declaration panel driven by posted
events, the casting odds equal to the resolution's terms, casting progress on the token, spell ranges, and
the log of spell events."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pygame

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm, magic
from game.engine.battle import Battle
from game.engine.dice import FOUR_DF, prob_at_least, prob_at_most
from game.engine.hexgrid import distance, front_hexes
from game.ui import spell_panel
from game.ui.app import App
from game.ui.battle_screen import BattleScreen, CurtainScreen
from game.ui.preview import concentration_odds, spell_preview
from tests.engine.test_magic_battle import kinds, play_round
from tests.golden.scenarios import magic_skirmish, spell_duel
from tests.ui.conftest import click, key
from tests.ui.test_battle_screen import open_battle

ROOT = Path(__file__).resolve().parents[2]
KEEP = ROOT / "maps" / "ruined_keep.tmx"


def _wizard_declares(app: App, screen: BattleScreen, wanted: str, rounds: int = 8) -> str:
    """Play the human red side by posted keys (stay, defend) until the hedge wizard declares with an enemy
    in reach of ``wanted``; returns the wizard's id."""
    b = screen.battle
    wiz = next(f.id for f in b.figures.values() if f.character.spells)
    for _ in range(rounds * 60):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
            continue
        d = screen.my_decision()
        assert not b.over
        if d is None:
            continue
        if d.reason == "declare" and d.figure == wiz:
            if screen.model.declare_options()["spells"][wanted]:
                return wiz
            key(app, pygame.K_RETURN)
        elif d.reason == "declare":
            key(app, pygame.K_RETURN)
        elif d.reason in ("move", "held_end", "interrupt"):
            key(app, pygame.K_SPACE)
        else:
            key(app, pygame.K_n)
    raise AssertionError(f"no enemy came within reach of {wanted}")


def _button(screen: BattleScreen, label: str) -> pygame.Rect:
    screen._rebuild_buttons()
    return next(b.rect for b in screen.buttons if b.text == label)


def _click_hex(app: App, screen: BattleScreen, h: object) -> None:
    """Bring the hex to the top of the board (clear of the panel) and click it."""
    cam = screen.board.camera
    x, y, w, hh = cam.view
    sx, sy = cam.hex_to_screen(h)  # type: ignore[arg-type]
    cam.pan(sx - (x + w // 2), sy - (y + hh // 4))
    screen._view = None
    sx, sy = cam.hex_to_screen(h)  # type: ignore[arg-type]
    assert not screen.panel_rect(screen.decision()).collidepoint(sx, sy)
    click(app, (round(sx), round(sy)))


def test_ftc_8_spell_chosen_and_target_clicked_then_declared_is_cast(app: App) -> None:
    """The wizard's panel has a spell row; choosing Fire Bolt and clicking an enemy in range, then Enter,
    sends a Declare with the spell: the battle's log has the casting."""
    screen = open_battle(app, KEEP, controllers={"red": "human", "blue": "tactical"})
    wiz = _wizard_declares(app, screen, "Fire Bolt")
    click(app, _button(screen, "Fire Bolt").center)
    assert screen.model.decl.spell == "Fire Bolt"
    target = screen.model.declare_options()["spells"]["Fire Bolt"][0]
    _click_hex(app, screen, screen.battle.figure(target).hex)
    assert screen.model.decl.spell_target == target
    assert screen.model.spell_preview() is not None
    key(app, pygame.K_RETURN)
    sent = [a for a in screen.battle.log if isinstance(a, act.Declare) and a.figure == wiz]
    assert sent[-1].spell == "Fire Bolt" and sent[-1].spell_target == target and sent[-1].targets == ()
    began = [e for e in screen.battle.events if isinstance(e, ev.CastingBegan)]
    assert began and began[-1].caster == wiz and began[-1].target == target
    # the log reads "casts Fire Bolt", not "no attack: defends with a knife"
    assert any("casts Fire Bolt" in text and "no attack" not in text for text, _, _ in screen.journal.entries)


def test_ftc_8_1_concentrating_caster_continues_by_default_with_progress_on_the_token(app: App) -> None:
    """A five-round spell: the next round the wizard's panel defaults to continuing it (round 2 of 5), the
    token shows 1 of 5 rounds done, and Abandon is offered."""
    screen = open_battle(app, KEEP, controllers={"red": "human", "blue": "tactical"})
    wiz = _wizard_declares(app, screen, "Thunderstrike")
    click(app, _button(screen, "Thunderstrike").center)
    key(app, pygame.K_t)
    assert screen.model.decl.spell_target is not None
    key(app, pygame.K_RETURN)
    b = screen.battle
    conc = b.casting_of(wiz)
    assert conc is not None and conc.progress == (0, 5)
    marks = {fid: progress for fid, _, progress, _ in spell_panel.token_marks(b)}
    assert marks[wiz] == (0, 5)
    for _ in range(400):
        app.tick(0.0)
        if isinstance(app.top, CurtainScreen):
            key(app, pygame.K_RETURN)
        d = screen.my_decision()
        if d is not None and d.reason == "declare" and d.figure == wiz:
            break
        if d is not None and d.reason == "declare":
            key(app, pygame.K_RETURN)
        elif d is not None and d.reason in ("move", "held_end", "interrupt"):
            key(app, pygame.K_SPACE)
        elif d is not None:
            key(app, pygame.K_n)
    conc = b.casting_of(wiz)
    assert conc is not None and conc.progress == (1, 5)
    assert {fid: p for fid, _, p, _ in spell_panel.token_marks(b)}[wiz] == (1, 5)
    screen.model.ensure_decl(screen.my_decision())  # type: ignore[arg-type]
    assert screen.model.decl.spell == "Thunderstrike"
    labels = [bt.text for bt in (screen._rebuild_buttons() or screen.buttons)]
    assert "Continue Thunderstrike (2/5)" in labels and "Abandon" in labels
    assert ("Concentrating on Thunderstrike: round 2 of 5", spell_panel.MAGIC) in spell_panel.inspector_lines(
        b, b.figure(wiz)
    )
    click(app, _button(screen, "Abandon").center)
    assert screen.model.decl.spell is None
    key(app, pygame.K_RETURN)
    broken = [e for e in b.events if isinstance(e, ev.ConcentrationBroken)]
    assert broken and broken[-1].caster == wiz and b.casting_of(wiz) is None
    assert spell_panel.log_colour(broken[-1]) == spell_panel.BROKEN


def _exact_cast(skill_plus_mods: int, difficulty: int) -> Fraction:
    return sum((p for r, p in FOUR_DF.items() if skill_plus_mods + r >= difficulty), Fraction(0))


def test_ftc_8_1_casting_odds_use_the_resolutions_terms() -> None:
    """The preview's modifiers and difficulty are those of Battle.spell_terms and of the SpellCast event the
    round then resolves; P(cast) is the exact chance of skill + modifiers + 4dF reaching the difficulty, and a
    dodging target can only lower it."""
    b = Battle(spell_duel(4))
    play_round(b)  # round 1: figures get into their declaration of round 2 unchanged
    while b.phase != "attack":
        d = b.decision()
        assert d is not None
        b.apply(act.Move(d.figure or "", ()))
    pv = spell_preview(b, "w", "Fire Bolt", "a")
    terms = b.spell_terms("w", "Fire Bolt", "a")
    assert pv.modifiers == terms.modifiers and pv.difficulty == terms.difficulty
    assert pv.cast == _exact_cast(pv.result, pv.difficulty)
    assert pv.dodged is not None and pv.dodged <= pv.effect <= pv.cast
    assert pv.distribution is not None and sum(pv.distribution.values()) == 1
    out = play_round(b, {"w": act.Declare("w", spell="Fire Bolt", spell_target="a")})
    cast = kinds(out, ev.SpellCast)[0]
    assert isinstance(cast, ev.SpellCast)
    assert dict(cast.modifiers) == {m.name: m.value for m in pv.modifiers}
    assert cast.difficulty == pv.difficulty and cast.skill == pv.skill


def test_fudge_4_1_resistance_odds_count_the_gm_modifier_on_the_target() -> None:
    """A resisted spell's chance of taking effect (FTC 8) is computed from ``Battle.resistance_terms``, as the
    resolution's roll is: the GM's +2 on the target lowers it, exactly by the shifted resistance roll."""
    b = Battle(replace(spell_duel(0), gm="referee"))
    before = spell_preview(b, "w", "Slow", "a")
    b.apply(gm.SituationalModifier("grit", "a", 2, "stubborn", "removed"))
    after = spell_preview(b, "w", "Slow", "a")
    level, mods = b.resistance_terms("a", "Slow") or (0, ())
    assert [(m.name, m.value) for m in mods] == [("GM: stubborn", 2)]
    item = magic.spell("Slow")
    exact = sum(
        (
            p * prob_at_most(after.result + r - level - 2 - 1)
            for r, p in FOUR_DF.items()
            if after.result + r >= item.difficulty
        ),
        Fraction(0),
    )
    assert after.cast == before.cast and after.effect == exact < before.effect


def test_fudge_4_1_the_dodge_shown_against_a_bolt_counts_the_gm_modifier() -> None:
    """The target's dodge the panel shows (FTC 8.3, as a missile's) is the resolution's, GM's modifier and all."""
    b = Battle(replace(spell_duel(0), gm="referee"))
    before = spell_preview(b, "w", "Fire Bolt", "a")
    b.apply(gm.SituationalModifier("nimble", "a", 2, "nimble", "removed"))
    after = spell_preview(b, "w", "Fire Bolt", "a")
    assert before.dodge is not None and after.dodge == before.dodge + 2
    assert after.dodged is not None and before.dodged is not None and after.dodged < before.dodged


def test_fudge_4_1_concentration_odds_count_the_gm_modifier() -> None:
    """The declaration panel's chance of keeping a concentration (FTC 8.1: Will vs Good when forced to dodge,
    Great when damaged) comes from ``Battle.concentration_terms``, the GM's modifier included."""
    b = Battle(replace(spell_duel(0), gm="referee"))
    will = b.figure("w").character.will
    plain = concentration_odds(b, "w")
    assert plain == {
        "dodge": prob_at_least(magic.concentration_difficulty("dodge") - will),
        "damaged": prob_at_least(magic.concentration_difficulty("damaged") - will),
    }
    b.apply(gm.SituationalModifier("calm", "w", 1, "calm mind", "removed"))
    helped = concentration_odds(b, "w")
    assert helped["dodge"] == prob_at_least(magic.concentration_difficulty("dodge") - will - 1) > plain["dodge"]
    assert helped["damaged"] > plain["damaged"]


def test_ftc_8_3_touch_spell_odds_include_the_touch_attack() -> None:
    """A touch spell takes effect only if the touch lands (FTC 8.3): its chance is below the casting's."""
    b = Battle(magic_skirmish(0))
    b.figures["r3"].hex = next(
        h
        for h in front_hexes(b.figures["b1"].hex, b.figures["b1"].facing)
        if b.occupant(h) is None and b.terrain.is_passable(h)
    )
    b.figures["r3"].facing = (b.figures["b1"].facing + 3) % 6
    b.figures["b1"].character = b.figures["b1"].character.__class__.from_dict(
        {"name": "Wizard", "skills": {"Magic": "Great"}, "spells": ["Paralysing Touch"]}
    )
    pv = spell_preview(b, "b1", "Paralysing Touch", "r3")
    assert pv.touch is not None and pv.effect < pv.cast
    assert pv.cast == _exact_cast(pv.result, pv.difficulty)


def test_ftc_8_3_spell_range_bands_close_short_touch_and_self() -> None:
    """Range drawn on the board: close 2 and short 10 hexes in sight, touch the front hexes, self its hex."""
    b = Battle(magic_skirmish(0))
    w = b.figures["b1"]
    for name, reach in (("Lightning", 2), ("Fire Bolt", 10)):
        hexes = spell_panel.range_hexes(b, "b1", magic.spell(name))
        assert hexes and all(1 <= distance(w.hex, h) <= reach for h in hexes)
        assert all(b.terrain.contains(h) for h in hexes)
    assert spell_panel.range_hexes(b, "b1", magic.spell("Heal Wound")) == frozenset(
        h for h in front_hexes(w.hex, w.facing) if b.terrain.contains(h)
    )
    assert spell_panel.range_hexes(b, "b1", magic.spell("Ward")) == frozenset({w.hex})


def test_ftc_8_spell_tooltip_names_casting_time_range_skill_and_difficulty() -> None:
    tip = spell_panel.spell_tooltip(magic.spell("Thunderstrike"))
    assert "5 rounds" in tip and "long range" in tip and "Magic" in tip and "Great" in tip
