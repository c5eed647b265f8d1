"""The rule options a declaration may speak to, as the declaration panel's row of their own (docs/rulings.md
"Rule options"): a stun toggle (K) and the most wound the blow will do (U) (*Fudge* 4.62), the enemies left
undefended (a toggle each, or I on the hovered enemy; *Fudge* 4.34); a sweeping blow's further foes are
Shift-clicked on the board, in order (*Fudge* 4.34), and its odds named foe by foe. The row is there only when the
battle uses one of those options, so a battle of FTC as written shows the panel as it always was.

What the battle allows comes from ``choices.declare_choices`` through the model (``BattleModel.rule_choices``);
what is chosen is the model's ``DeclState`` (``stun``, ``max_wound``, ``sweep``, ``ignore``).
"""

from __future__ import annotations

import functools
from typing import Protocol

import pygame

from game.engine.sweep import can_sweep
from game.ui import theme
from game.ui.battle.common import PartHost
from game.ui.preview import AttackPreview, percent, weapon_named
from game.ui.widgets import Button

ROW = 32
"""The row's height under the dodges (unscaled pixels)."""
GAP = 6
"""Between two buttons of the row (unscaled pixels)."""
PLACES = ("2nd", "3rd")
"""A sweeping blow's further foes, as the odds name them (*Fudge* 4.34)."""


class BlowChoicesHost(PartHost, Protocol):
    """The battle screen as the row sees it: the model, the status bar, and the board's view to rebuild."""

    def set_status(self, text: str, error: bool = False, *, lasting: bool = False) -> None: ...
    def invalidate(self) -> None: ...


class BlowChoices:
    """The declaration's stun, pulled blow, sweep and ignored enemies: commands, buttons, notes."""

    def __init__(self, screen: BlowChoicesHost) -> None:
        self.screen = screen
        self.model = screen.model

    def shown(self) -> bool:
        """Whether the battle uses a rule option a declaration may speak to: stun or pulled blows (*Fudge*
        4.62), the sweeping blow or ignoring attackers (*Fudge* 4.34). The same for every figure, so the
        panel keeps its height from one declaration to the next."""
        o = self.model.battle.options
        return bool(o.stun_blows or o.pulled_blows or o.sweeping_blow or o.ignore_attackers)

    def short(self, fid: str) -> str:
        """A figure's first name, as the row's toggles show it."""
        return self.model.battle.figure(fid).name.split()[0]

    def cmd_toggle_stun(self) -> bool:
        """K: the blow goes for stun, or back to wounding (*Fudge* 4.62: a Hurt stuns, a Very Hurt very stuns,
        worse knocks out). Only with a melee weapon."""
        d = self.model.decl
        if not self.model.rule_choices().can_stun or d.second_move or d.spell is not None:
            return False
        fig = self.model.battle.figure(d.figure)
        if weapon_named(fig, d.weapon).ranged:
            self.screen.set_status("Only a melee blow may go for stun (Fudge 4.62).", error=True)
            return False
        d.stun = not d.stun
        self.screen.invalidate()
        return True

    def cmd_cycle_pull(self) -> bool:
        """U: the most wound the blow will do, in turn Scratch, Hurt, Very Hurt, Incapacitated, then a full blow
        again (*Fudge* 4.62, pulling a punch)."""
        levels = self.model.rule_choices().max_wounds
        d = self.model.decl
        if not levels or d.second_move or d.spell is not None:
            return False
        ring: list[str | None] = [None, *levels]
        d.max_wound = ring[(ring.index(d.max_wound) + 1) % len(ring)] if d.max_wound in ring else None
        self.screen.invalidate()
        return True

    def cmd_toggle_ignore(self, enemy: str) -> bool:
        """Leave an enemy undefended this round, or defend against it again (*Fudge* 4.34): its blows meet no
        defence, and this figure's own blow need not beat its defence. Not the foe it strikes."""
        d = self.model.decl
        battle = self.model.battle
        if enemy not in self.model.rule_choices().ignorable:
            return False
        if enemy in d.ignore:
            d.ignore.discard(enemy)
        elif enemy in d.foes():
            name = battle.figure(enemy).name
            self.screen.set_status(
                f"{name} is the foe this blow strikes: it cannot be ignored (Fudge 4.34).", error=True
            )
            return False
        else:
            d.ignore.add(enemy)
        self.screen.invalidate()
        return True

    def ignore_hovered(self) -> bool:
        """I: ignore the enemy under the mouse, or defend against it again (*Fudge* 4.34)."""
        h = self.model.selection.hover
        occupant = self.model.battle.occupant(h) if h is not None else None
        if occupant is None or occupant.id not in self.model.rule_choices().ignorable:
            if self.model.rule_choices().ignorable:
                self.screen.set_status("Hover an enemy that can reach this figure, then press I.", error=False)
            return False
        return self.cmd_toggle_ignore(occupant.id)

    def sweep_click(self, foe: str) -> bool:
        """Shift-click on a target: add it to the sweeping blow as its next foe, or take it out (*Fudge* 4.34);
        the first shift-click with no target chooses the target."""
        d = self.model.decl
        battle = self.model.battle
        most = self.model.rule_choices().sweep
        weapon = weapon_named(battle.figure(d.figure), d.weapon)
        if d.target is None or foe == d.target:
            d.target = None if foe == d.target else foe
            d.sweep = [] if d.target is None else d.sweep
        elif foe in d.sweep:
            d.sweep.remove(foe)
        elif most <= 1:
            return False
        elif not can_sweep(weapon):
            self.screen.set_status(f"A {weapon.name} only stabs: it cannot sweep (Fudge 4.34).", error=True)
            return True
        elif len(d.foes()) >= most:
            self.screen.set_status(f"A sweeping blow strikes at most {most} foes (Fudge 4.34).", error=True)
            return True
        else:
            d.sweep.append(foe)
        d.ignore -= set(d.foes())
        self.screen.invalidate()
        return True

    def fit_weapon(self) -> None:
        """A weapon was chosen: a sweep keeps only foes it may still strike, and only a weapon that slashes
        sweeps (*Fudge* 4.34); a missile cannot stun (*Fudge* 4.62)."""
        d = self.model.decl
        weapon = weapon_named(self.model.battle.figure(d.figure), d.weapon)
        targets = self.model.targets()
        d.sweep = [t for t in d.sweep if t in targets] if d.target is not None and can_sweep(weapon) else []
        d.stun = d.stun and not weapon.ranged

    def widths(self) -> tuple[int, int]:
        """The widths of the Stun and Pull buttons of the rule options' row (0 for one the battle does not
        offer)."""
        s, text = self.screen.ui.s, self.screen.ui.text
        dc = self.model.rule_choices()
        stun = text.width("✓ Stun (K)", 12) + s(20) if dc.can_stun else 0
        pull = max(text.width(f"Pull: {lv} (U)", 12) for lv in ("no", *dc.max_wounds)) + s(20) if dc.max_wounds else 0
        return stun, pull

    def buttons(self, x: int, y: int, right: int) -> list[Button]:
        """The row's buttons from ``x`` to ``right`` at ``y``: Stun (K) and Pull (U) (*Fudge* 4.62), then one
        toggle per enemy that may be ignored (*Fudge* 4.34); those that do not fit are named by a "+N" button's
        hint (I on the hovered enemy ignores any of them)."""
        s, text = self.screen.ui.s, self.screen.ui.text
        st = self.model.decl
        dc = self.model.rule_choices()
        weapon = weapon_named(self.model.battle.figure(st.figure), st.weapon)
        out: list[Button] = []
        widths = self.widths()
        if dc.can_stun:
            b = Button(
                ("✓ " if st.stun else "") + "Stun (K)",
                self.cmd_toggle_stun,
                pygame.Rect(x, y, widths[0], s(26)),
                size=12,
                enabled=not weapon.ranged,
                tooltip="Go for stun: a Hurt stuns, a Very Hurt very stuns, worse knocks out (Fudge 4.62)",
            )
            b.focused = st.stun
            out.append(b)
            x += widths[0] + s(GAP)
        if dc.max_wounds:
            b = Button(
                f"Pull: {st.max_wound or 'no'} (U)",
                self.cmd_cycle_pull,
                pygame.Rect(x, y, widths[1], s(26)),
                size=12,
                tooltip="The most wound the blow will do: a pulled punch, a first-blood duel (Fudge 4.62)",
            )
            b.focused = st.max_wound is not None
            out.append(b)
            x += widths[1] + s(GAP)
        enemies = [e for e in dc.ignorable if e not in st.foes()]
        if not enemies:
            return out
        label_w = text.width("Ignore:", 12) + s(6)
        if x + label_w > right:
            return out
        x += label_w
        for i, fid in enumerate(enemies):
            chip = ("✓ " if fid in st.ignore else "") + self.short(fid)
            w = text.width(chip, 12) + s(20)
            rest = len(enemies) - i - 1
            more = text.width(f"+{rest}", 12) + s(20) if rest else 0
            if x + w + (more + s(GAP) if rest else 0) > right:
                hidden = [self.model.battle.figure(f).name for f in enemies[i:]]
                tip = "More enemies to ignore: " + ", ".join(hidden) + " (hover one on the board and press I)"
                out.append(
                    Button(
                        f"+{len(hidden)}",
                        self.ignore_hovered,
                        pygame.Rect(x, y, more or w, s(26)),
                        size=12,
                        tooltip=tip,
                    )
                )
                break
            b = Button(
                chip,
                functools.partial(self.cmd_toggle_ignore, fid),
                pygame.Rect(x, y, w, s(26)),
                size=12,
                tooltip=f"Leave {self.model.battle.figure(fid).name} undefended: its blows meet no defence, "
                "and yours need not beat its defence (Fudge 4.34). I on an enemy under the mouse does it too.",
            )
            b.focused = fid in st.ignore
            out.append(b)
            x += w + s(GAP)
        return out

    def paint_label(self, surf: pygame.Surface, x: int, y: int, right: int) -> None:
        """The "Ignore:" before the ignore toggles (at the row's left ``x``, top ``y``), when there are any."""
        s, text = self.screen.ui.s, self.screen.ui.text
        if not [e for e in self.model.rule_choices().ignorable if e not in self.model.decl.foes()]:
            return
        lx = x + sum(bw + s(GAP) for bw in self.widths() if bw)
        if lx + text.width("Ignore:", 12) + s(6) <= right:
            text.blit(surf, "Ignore:", (lx, y + s(5)), 12, theme.TEXT_MUTED)

    def notes(self, pv: AttackPreview) -> list[str]:
        """The odds' notes of the options: each further foe of a sweep with its chance, the enemies ignored."""
        battle = self.model.battle
        notes = []
        for place, foe in zip(PLACES, pv.sweep, strict=False):  # Fudge 4.34: a sweeping blow's further foes
            chance = f"P(hit) {percent(foe.hit)}" if foe.reachable else "out of reach"
            notes.append(f"{place} foe {battle.figure(foe.target).name}: {chance}")
        ignored = sorted(self.model.decl.ignore)
        if ignored:
            names = ", ".join(battle.figure(e).name for e in ignored)
            notes.append(f"ignoring {names}: undefended against, need not be beaten (Fudge 4.34)")
        return notes

    def on_key(self, key: int) -> bool:
        """K stun, U pull, I ignore the hovered enemy; True when the key was taken."""
        if key == pygame.K_k:
            return self.cmd_toggle_stun()
        if key == pygame.K_u:
            return self.cmd_cycle_pull()
        if key == pygame.K_i:
            return self.ignore_hovered()
        return False
