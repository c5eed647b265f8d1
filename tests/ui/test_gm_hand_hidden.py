"""The GM's hand stays hidden (*Fudge* 4.1: the GM's dice are behind the screen): faces set for a coming roll
are in no log a player sees before the roll; after it the roll reads as any roll and only the GM's own view
marks it as set. The Reason box empties after each decision; a GM edit is logged old → new with its reason."""

from __future__ import annotations

from game.engine import actions as act
from game.engine import events as ev
from game.engine import gm
from game.engine.battle import legal_actions
from game.engine.seats import Seat, events_for_seat, set_roll_marks
from game.engine.wounds import WoundLevel
from game.ui.app import App
from tests.ui.conftest import click
from tests.ui.test_gm_panel import button, gm_battle, open_as_referee, open_as_referee_again, type_text

FACES = (1, 1, 1, 0)


def _public_lines(screen: object) -> list[str]:
    return [t for t, _, _ in screen.journal.entries]  # type: ignore[attr-defined]


def _initiative_figure(screen: object) -> str:
    """A figure the next round's initiative roll will be made for (every figure rolls, FTC 4)."""
    return next(iter(screen.battle.figures))  # type: ignore[attr-defined]


def test_fudge_4_1_set_faces_stay_out_of_the_public_log_until_the_roll(app: App) -> None:
    screen, panel = open_as_referee(app)
    fid = _initiative_figure(screen)
    panel.figure = fid
    while panel.purpose != "initiative":
        panel.cmd_purpose()
    panel.faces = list(FACES)
    panel.layout()
    before = len(_public_lines(screen))
    click(app, button(panel, "Set die").rect.center)
    # the GM's own panel says what was set; the shared log says nothing of it
    assert "set by hand: [+ + + 0]" in panel.message
    assert len(_public_lines(screen)) == before
    assert not any("set by hand" in t or "[+ + + 0]" in t for t in _public_lines(screen))
    # nor does any player's seat: only the GM's
    b = screen.battle
    side_seat = Seat.of_side(next(iter(b.sides)))
    assert not any(ev.is_gm_only(e) for e in events_for_seat(b, b.events, side_seat))
    assert any(ev.is_gm_only(e) for e in events_for_seat(b, b.events, Seat.game_master()))
    assert any(n == "waiting: initiative [+ + + 0]" for n, _ in panel.notes)
    # the roll is made at the next round: the log shows it as any roll; the GM's view marks it
    click(app, button(panel, "End round").rect.center)
    rolled = [e for e in b.events if isinstance(e, ev.InitiativeRolled) and e.figure == fid]
    assert rolled[-1].faces == FACES
    name = b.names()[fid]
    assert any(t.startswith(f"{name}: initiative") and "[+ + + 0]" in t for t in _public_lines(screen))
    assert not any("set by hand" in t for t in _public_lines(screen))
    marks = set_roll_marks(b, Seat.game_master())
    assert len(marks) == 1 and b.events[next(iter(marks))] == rolled[-1]
    assert set_roll_marks(b, side_seat) == {}
    panel.layout()
    assert any(n.startswith(f"set by hand: {name}: initiative") for n, _ in panel.notes)


def test_the_reason_box_empties_after_each_decision(app: App) -> None:
    screen, panel = open_as_referee(app)
    type_text(app, "slope")
    assert panel.reason == "slope"
    click(app, button(panel, "Give").rect.center)
    assert panel.reason == ""
    assert any(t.endswith("— slope") for t in _public_lines(screen))
    # the next decision carries no stale reason
    click(app, button(panel, "Tick Hurt").rect.center)
    last = next(t for t in reversed(_public_lines(screen)) if t.startswith("GM: changes"))
    assert "— slope" not in last


def test_a_gm_wound_edit_is_logged_old_to_new_with_its_reason(app: App) -> None:
    screen, panel = open_as_referee(app)
    fid = panel.figure
    name = screen.battle.names()[fid]
    type_text(app, "fell off the cart")
    click(app, button(panel, "Tick Hurt").rect.center)
    assert f"GM: changes {name}'s wounds: Unhurt → Hurt — fell off the cart" in _public_lines(screen)
    assert panel.reason == ""


def test_a_refused_decision_keeps_the_reason_to_try_again(app: App) -> None:
    screen = gm_battle(app, "referee")
    d = legal_actions(screen.battle)
    assert d is not None and d.figure is not None
    screen.send(act.Move(d.figure, ()))  # a figure has moved: wound edits wait for the next round
    _, panel = open_as_referee_again(app)
    type_text(app, "oops")
    assert not button(panel, "Tick Hurt").enabled  # greyed out now; the engine still refuses it if sent
    panel.cmd_wound(WoundLevel.HURT)
    assert panel.error and panel.reason == "oops"


def test_an_edit_saved_before_old_to_new_replays_with_its_digest() -> None:
    """The old → new wording is not part of a decision's digest: saves made before it still replay."""
    plain = ev.GMActed("gm_edit_wounds", "sets {0}'s wounds: Hurt", ("a",))
    worded = ev.GMActed("gm_edit_wounds", "sets {0}'s wounds: Hurt", ("a",), "", "changes {0}'s wounds: Unhurt → Hurt")
    assert ev.events_digest([plain]) == ev.events_digest([worded])
    assert worded.text({"a": "Al"}) == "GM: changes Al's wounds: Unhurt → Hurt"
    assert "said" not in plain.to_json() and worded.to_json()["said"]
    assert gm.EditWounds("a", {}).reason == ""
