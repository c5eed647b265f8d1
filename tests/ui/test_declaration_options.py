"""The declaration panel under the rule options of the blow (docs/rulings.md "Rule options"), driven by keys and
clicks: K goes for stun and U pulls the blow (*Fudge* 4.62), Shift-click adds a sweeping blow's further foes in
order, I on the hovered enemy (or its toggle) leaves it undefended (*Fudge* 4.34); the declaration sent carries
each, and the odds shown are the battle's own for it. With none of these options the panel has no such row."""

from __future__ import annotations

import pygame

from game.engine import events as ev
from game.engine.battle import RuleOptions
from game.engine.hexgrid import Hex, neighbor
from game.engine.preview import attack_preview
from game.ui.app import App
from game.ui.battle_screen import BattleScreen
from tests.ui.conftest import click, key, move
from tests.ui.test_battle_screen import all_human, lift_curtain, open_battle

EVERY_OPTION = RuleOptions(stun_blows=True, pulled_blows=True, sweeping_blow=1, ignore_attackers=True)
FOES = ("f7", "f8", "f9")
"""Black Hugh, Mad Tom and Gilly, put in Sir Bors's three front hexes (his Broadsword slashes)."""


def bors_beset(app: App, options: RuleOptions = EVERY_OPTION) -> BattleScreen:
    """Sir Bors (f1) in the middle of the field, facing three brigands in his front hexes; everyone stays put
    and the others declare a defence, up to Sir Bors's declaration."""
    screen = open_battle(app, controllers=all_human(), options=options)
    b = screen.battle
    bors = b.figure("f1")
    centre = Hex(10, 5)
    bors.hex, bors.facing = centre, 0
    for d, fid in zip((-1, 0, 1), FOES, strict=True):
        foe = b.figure(fid)
        foe.hex, foe.facing = neighbor(centre, d), (d + 3) % 6
    screen.after_change([])
    for _ in range(80):
        lift_curtain(app)
        d = screen.decision()
        assert d is not None
        if d.reason == "declare" and d.figure == "f1":
            return screen
        if d.reason == "declare":
            key(app, pygame.K_RETURN)  # the others only defend
        else:
            key(app, pygame.K_p if d.reason == "interrupt" else pygame.K_SPACE)
    raise AssertionError("Sir Bors was never asked to declare")


def at(screen: BattleScreen, fid: str) -> tuple[int, int]:
    x, y = screen.board.camera.hex_to_screen(screen.battle.figure(fid).hex)
    return round(x), round(y)


def labels(screen: BattleScreen) -> list[str]:
    return [b.text for b in screen.buttons]


def test_fudge_4_62_and_4_34_the_panel_declares_a_stunning_pulled_sweep_ignoring_a_foe(app: App) -> None:
    screen = bors_beset(app)
    hugh, tom, gilly = FOES
    assert {"Stun (K)", "Pull: no (U)", "Ignore"} - set(labels(screen)) == {"Ignore"}
    click(app, at(screen, hugh))
    assert screen.model.decl.target == hugh
    pygame.key.set_mods(pygame.KMOD_SHIFT)  # Shift held: the next foe of the sweep
    try:
        click(app, at(screen, tom))
    finally:
        pygame.key.set_mods(pygame.KMOD_NONE)
    assert screen.model.decl.foes() == (hugh, tom)
    key(app, pygame.K_k)
    assert screen.model.decl.stun and "✓ Stun (K)" in labels(screen)
    key(app, pygame.K_u)
    key(app, pygame.K_u)
    assert screen.model.decl.max_wound == "Hurt" and "Pull: Hurt (U)" in labels(screen)
    move(app, at(screen, hugh))
    key(app, pygame.K_i)  # the foe struck cannot be ignored: the status bar says why
    assert hugh not in screen.model.decl.ignore and "cannot be ignored" in screen.status
    move(app, at(screen, gilly))
    key(app, pygame.K_i)
    assert screen.model.decl.ignore == {gilly}
    assert "✓ " + screen.battle.figure(gilly).name.split()[0] in labels(screen)
    pv = screen.model.attack_preview()
    assert pv is not None and [p.target for p in pv.sweep] == [tom]
    b = screen.battle
    alone = attack_preview(b, "f1", "Broadsword", hugh, gm_hand=False, stun=True, max_wound="Hurt", ignore=(gilly,))
    assert pv.hit == alone.hit and pv.distribution == alone.distribution
    second = attack_preview(
        b, "f1", "Broadsword", tom, gm_hand=False, stun=True, max_wound="Hurt", ignore=(gilly,), sweep_place=1
    )
    assert pv.sweep[0].distribution == second.distribution
    key(app, pygame.K_RETURN)
    declared = [e for e in b.events if isinstance(e, ev.Declared) and e.figure == "f1"]
    assert declared, screen.status
    last = declared[-1]
    assert last.targets == (hugh, tom) and last.stun and last.max_wound == "Hurt" and last.ignore == (gilly,)


def test_fudge_4_62_the_stun_and_ignore_toggles_are_buttons_too(app: App) -> None:
    screen = bors_beset(app)
    click(app, at(screen, "f8"))
    stun = next(b for b in screen.buttons if b.text == "Stun (K)")
    click(app, stun.rect.center)
    assert screen.model.decl.stun
    name = screen.battle.figure("f9").name.split()[0]
    chip = next(b for b in screen.buttons if b.text == name)
    click(app, chip.rect.center)
    assert screen.model.decl.ignore == {"f9"}
    click(app, next(b for b in screen.buttons if b.text == "✓ " + name).rect.center)
    assert screen.model.decl.ignore == set()


def test_fudge_4_34_a_sweep_stops_at_three_foes_and_a_plain_click_starts_over(app: App) -> None:
    screen = bors_beset(app)
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        for fid in FOES:
            click(app, at(screen, fid))
    finally:
        pygame.key.set_mods(pygame.KMOD_NONE)
    assert screen.model.decl.foes() == FOES
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        click(app, at(screen, "f8"))  # Shift on a foe of the sweep takes it out; the order of the rest stays
    finally:
        pygame.key.set_mods(pygame.KMOD_NONE)
    assert screen.model.decl.foes() == ("f7", "f9")
    click(app, at(screen, "f8"))  # a plain click starts the blow over: one target
    assert screen.model.decl.foes() == ("f8",)


def test_ftc_as_written_the_panel_has_no_rule_options_row(app: App) -> None:
    screen = bors_beset(app, RuleOptions())
    assert not screen.declaration.blow.shown()
    assert not {"Stun (K)", "Pull: no (U)"} & set(labels(screen))
    key(app, pygame.K_k)
    assert not screen.model.decl.stun
    assert screen.model.attack_action().stun is not True


def test_fudge_4_62_the_sheet_shows_the_stun_sheet_and_what_it_hinders_this_round() -> None:
    from game.engine.stun_sheet import StunSheet
    from game.ui.battle.sheet import wounds_line
    from tests.engine.test_sweep import paco_and_thugs

    paco = paco_and_thugs(RuleOptions(stun_blows=True)).figure("paco")
    assert wounds_line(paco, 1) == f"Wounds: {paco.wounds.label}"
    paco.stuns, paco.stunned = StunSheet((1, 0)), ((2, "Stun"),)  # stunned in round 1: hindered in round 2
    assert wounds_line(paco, 2).endswith(" · Stun (stun: no attack this round)")
    assert wounds_line(paco, 3).endswith(" · Stun")
    paco.stuns = StunSheet((1, 1), knocked_out=True)
    assert wounds_line(paco, 2).endswith(" · Knocked out")
