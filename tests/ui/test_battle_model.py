"""The battle screen's model without a display: the selection, the declaration and the move being put
together, the battle as shown while the log plays a decision out, and the questions the parts ask of the
battle — answered as the battle answers them, once per battle state, and forgotten at each new decision."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from game.engine import actions as act
from game.engine import gm
from game.engine.battle import Battle, legal_actions
from game.engine.preview import attack_preview, escape_chance
from game.ui.battle.model import BattleModel, DeclState, Shown
from game.ui.view import Selection
from tests.engine.test_preview_truth import ESCAPE_TO, mover_in_a_zone, shot_scene
from tests.engine.test_rules_as_written import UP

ROOT = Path(__file__).resolve().parents[2]


def _model(b: Battle, *, gm_hand: bool = False) -> BattleModel:
    """A model over a bare session holding ``b`` (the model reads nothing else of it)."""
    return BattleModel(SimpleNamespace(battle=b), gm_hand=lambda: gm_hand)  # type: ignore[arg-type]


def test_the_model_imports_no_pygame() -> None:
    code = "import sys, game.ui.battle.model; print('pygame' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_fresh_declaration_is_the_declaring_figures_with_its_ready_weapon() -> None:
    b = shot_scene(dodges=True)
    m = _model(b)
    d = legal_actions(b)
    assert d is not None and d.reason == "declare" and d.figure == "a"
    m.ensure_decl(d)
    assert m.decl.figure == "a" and m.decl.weapon == b.figure("a").character.ready_weapon.name
    m.decl.target = "t"
    m.ensure_decl(d)  # the same figure: the declaration being edited stays
    assert m.decl.target == "t"
    assert m.targets() == b.targets_for("a", b.figure("a").character.ready_weapon)
    assert m.declare_options() == b.declare_options("a")


def test_ftc_6_5_the_odds_are_the_battles_asked_once_per_state_and_forgotten_at_the_next_decision() -> None:
    b = shot_scene(dodges=True)
    m = _model(b)
    d = legal_actions(b)
    assert d is not None
    m.ensure_decl(d)
    assert m.attack_preview() is None  # no target yet
    m.decl.target = "t"
    pv = m.attack_preview()
    assert pv is not None and pv.hit == attack_preview(b, "a", m.decl.weapon, "t", gm_hand=False).hit
    assert m.attack_preview() is pv  # asked once for this state of the declaration
    m.decl.stance = "mildly_aggressive"
    assert m.attack_preview() is not pv  # another declaration: asked again
    version = m.version
    m.new_decision()
    assert m.version == version + 1 and m.decl == DeclState() and m.attack_preview() is None


def test_fudge_4_1_the_dice_set_by_hand_count_in_the_odds_only_while_the_gm_sits_at_the_screen() -> None:
    b = shot_scene(dodges=True)
    b.apply(gm.SetDie("a", "combat", UP))
    d = legal_actions(b)
    assert d is not None
    odds = {}
    for seated in (False, True):
        m = _model(b, gm_hand=seated)
        m.ensure_decl(d)
        m.decl.target = "t"
        pv = m.attack_preview()
        assert pv is not None
        odds[seated] = pv.hit
    assert odds[True] > odds[False]


def test_ftc_5_the_move_being_planned_reach_escapes_and_path() -> None:
    b = mover_in_a_zone()
    m = _model(b)
    d = legal_actions(b)
    assert d is not None and d.reason == "move"
    assert m.active_mover(d) == "m" and m.moving_figure(d) == "m"
    reach = m.reach("m")
    assert reach.hexes() == b.reach_for("m").hexes()
    assert m.reach("m") is reach  # once per state
    assert m.escapes("m")[ESCAPE_TO] == escape_chance(b, "m", reach, ESCAPE_TO, gm_hand=False)
    path = m.planned_path("m", ESCAPE_TO)
    assert path is not None and path.end == ESCAPE_TO
    facing = (path.end_facing + 3) % 6
    m.plan.facing = facing
    turned = m.planned_path("m", ESCAPE_TO)
    assert turned is not None and turned.end_facing == facing
    assert m.move_action("m", turned.steps) == act.Move("m", turned.steps, None)
    # FTC 5 "Crawling and Rolling": the posture chosen is the one the reach is asked in, and sent with the move
    m.plan.posture = "crawling"
    crawl = m.reach("m")
    assert crawl.allowance < reach.allowance and crawl.hexes() == b.reach_for("m", posture="crawling").hexes()
    assert m.move_action("m", ()).posture == "crawling"
    m.new_decision()
    assert m.plan.posture is None and m.plan.facing is None


def test_the_figure_in_focus_is_the_one_picked_since_the_last_decision_else_the_one_deciding() -> None:
    b = mover_in_a_zone()
    selection = Selection()
    m = BattleModel(SimpleNamespace(battle=b), selection=selection)  # type: ignore[arg-type]
    assert m.figure_in_focus() == "m"
    m.pick("s", b.figure("s").hex)
    assert (selection.figure, selection.hex) == ("s", b.figure("s").hex)  # one selection, the viewer's too
    assert m.figure_in_focus() == "s"
    m.new_decision()
    assert m.figure_in_focus() == "m"  # picked before this decision: the figure deciding now
    m.pick(None, b.figure("s").hex)  # a bare hex looked at
    m.new_decision()
    assert selection.hex is None  # ...goes with the decision


def test_the_battle_shown_is_the_one_before_the_decision_until_the_log_has_played_it_out() -> None:
    b = mover_in_a_zone()
    m = _model(b)
    before = Shown.frozen(b)
    d = legal_actions(b)
    assert d is not None
    b.apply(act.Hold("m"))
    assert m.shown().decision == b.decision()
    m.before = before
    assert m.shown() is before and m.shown().decision == d
    m.before = None
    assert m.shown().decision == b.decision() != d


def test_fudge_4_34_and_4_62_the_declaration_as_edited_carries_the_rule_options_and_their_odds() -> None:
    """The model's declaration under the blow's rule options: a sweep's foes in order, a stun, a pulled blow and
    an ignored enemy reach the Declare sent, and the odds shown are the battle's preview of that Declare, foe
    by foe (``preview.preview``)."""
    from game.engine.battle import RuleOptions
    from game.engine.preview import preview
    from tests.engine.test_sweep import paco_and_thugs, thugs_attack

    rules = RuleOptions(stun_blows=True, pulled_blows=True, sweeping_blow=2, ignore_attackers=True)
    b = paco_and_thugs(rules)
    thugs_attack(b)
    m = _model(b, gm_hand=True)  # the rolls the GM set count, as in the battle's own preview
    d = legal_actions(b)
    assert d is not None and d.figure == "paco"
    m.ensure_decl(d)
    dc = m.rule_choices()
    assert dc.can_stun and dc.max_wounds and dc.sweep == 3 and set(dc.ignorable) == {"mediocre", "great", "good"}
    m.decl.target, m.decl.sweep = "mediocre", ["good"]
    m.decl.stun, m.decl.max_wound, m.decl.ignore = True, "Very Hurt", {"great"}
    sent = m.attack_action()
    assert sent.targets == ("mediocre", "good") and sent.stuns and sent.most_wound == "Very Hurt"
    assert sent.ignoring == ("great",)
    shown, truth = m.attack_preview(), preview(b, sent)
    assert shown is not None and isinstance(truth, type(shown))
    assert (shown.hit, shown.distribution) == (truth.hit, truth.distribution)
    assert [(p.target, p.hit, p.distribution) for p in shown.sweep] == [
        (p.target, p.hit, p.distribution) for p in truth.sweep
    ]
    m.decl.target, m.decl.sweep, m.decl.stun, m.decl.max_wound, m.decl.ignore = None, [], False, None, set()
    plain = m.attack_action()
    assert plain.stun is not True and plain.targets == () and "stun" not in act.action_to_json(plain)
