"""The ``veteran`` computer player: the whole of FTC's options, chosen by the exact odds (FTC 5–8).

It decides through the same typed choices the screen offers (``game.engine.choices``) and weighs them
with the odds the screen shows (``game.engine.preview``):

- movement (FTC 5): it holds its move while unmoved enemies are near, to move after them, and
  interrupts with a held figure when an enemy has left its back open; it moves to strike from the flank
  or the rear (FTC 6.4.1's behind bonus), next to friends already engaged (FTC 6.1, multiple attackers),
  and away from places where several enemies would fight it alone; it approaches out of the enemy
  archers' lines of fire and off its own archers' lines (FTC 6.5.3: a miss may strike a friend on the
  line), so that a figure standing in a friend's lane steps out of it; a figure that dived for the
  ground gets up with its move;
- declarations (FTC 6.1, 6.2, 6.5, 6.6): per figure the best of every stance with its advances and
  retreats, every target in reach, missile dodges against firers that can really reach it (each one
  weighed against the point it costs the attack), the aim, and no shot through friends when the stray
  odds are bad (FTC 6.5.3); with nobody to strike and a volley coming (``dive_volley`` firers or more),
  the very defensive stance that dodges them all, steps back and dives for the ground (FTC 6.2); then a
  few rounds in which each undeclared figure of the side answers the plans of the others (ganging up on
  one enemy makes its blows beat every defence, FTC 6.4.1). A blow is worth more on an enemy that hurts
  more (``menace``: the wound its own blow would deal, by the same odds);
- spells (FTC 8, 8.1, 8.3): by ``spell_preview``'s exact odds — the casting roll, a touch attack, the
  target's resistance roll and its dodge — times what the effect is worth;
- a side that has lost (one figure left, badly hurt, against several) yields.

Its effort is bounded by a count of odds evaluations per decision (``budget``), never by the clock, so a
replay and a test decide the same way on any machine. ``last_reason`` holds a one-line explanation of
its latest decision for the GM's view (``reasons`` all of them, in order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import msgspec

from game.engine import actions as act
from game.engine import events as ev
from game.engine import magic
from game.engine.ai import TacticalPlayer, declarers_seen, spend_fudge_point
from game.engine.ai_options import in_play, refine
from game.engine.battle import Battle, Decision, Figure, IllegalAction, Reason
from game.engine.choices import DeclareChoices, declare_choices
from game.engine.combat import Stance, behind_bonus, melee_difficulty, total
from game.engine.hexgrid import Hex, distance, facing_toward, front_hexes, neighbors
from game.engine.lof import LineOfFire, line_of_fire, risk_hexes
from game.engine.odds import Outcome, chance_out, escape_probability, expected_wound, hit_probability
from game.engine.preview import AttackPreview, SpellPreview, attack_preview, public_declarations, spell_preview

_WOUND_ON_HIT = 2.0
"""The wound level a hit is taken to deal when only its chance is known (between Hurt and Very Hurt)."""


@dataclass(frozen=True)
class _Option:
    """One declaration considered, with its score and the words that explain it."""

    action: act.Declare
    score: float
    dealt: float
    hit: float
    why: str


def _level(fig: Figure) -> int:
    worst = fig.wounds.worst
    return 0 if worst is None else int(worst)


class VeteranPlayer(TacticalPlayer):
    """Plays with every FTC option a veteran player uses (see the module's docstring). ``budget`` caps the
    odds evaluations of one decision; ``seed`` breaks ties only."""

    def __init__(self, seed: int = 0, budget: int = 600) -> None:
        super().__init__(seed, time_limit=3600.0)
        self.budget = budget
        self._spent = 0
        self.last_reason = ""
        self.reasons: list[tuple[int, str, str]] = []
        self.counts: dict[str, int] = {
            "declarations": 0,
            "advances": 0,
            "retreats": 0,
            "dodges": 0,
            "aims": 0,
            "holds": 0,
            "interrupts": 0,
            "second_moves": 0,
            "dives": 0,
            "volley_dives": 0,
            "lanes_opened": 0,
            "spells": 0,
        }
        # its settings, as measured against the tactical player with ``ai-match`` (``docs/computer-players.md``)
        self.retreat_hurt = 3
        """The wound level (Very Hurt) from which a mildly defensive stance also steps back (FTC 6.2)."""
        self.retreat_bonus = 0.3
        """What a retreat is worth per attacker left behind, in wound levels."""
        self.hold = True
        self.dodge_weight = 1.0
        """How much a missile dodge's saving is weighed against the point it costs the attack (FTC 6.1)."""
        """Hold the move while unmoved enemies are near (FTC 5)."""
        self.hold_under_fire = False
        """Hold even while enemy archers are on the field (measured worse: they get more shots)."""
        self.unknown_share = 0.5
        """The least chance that an enemy yet to declare, with this figure in reach, attacks it."""
        self.precise_risk = False
        """Weigh each enemy's blow by ``preview``'s wound per hit rather than a flat two levels."""
        self.second_moves = False
        """Take a second move (FTC 6.2) with nobody to strike (measured worse: it feeds figures in one by one)."""
        self.safe_second = False
        """Keep a second move out of the enemies' reach."""
        self.fire_shy = 1.0
        """What an approach's end hex (no enemy beside it) loses per enemy archer with a clear line of fire
        to it (FTC 6.5.3, table 7: woods between block the shot)."""
        self.second_under_fire = False
        """Take a second move (FTC 6.2) when enemy archers can shoot the figure and it has nobody to strike."""
        self.lane_weight = 1.0
        """What a hex on a friendly archer's line of fire to its target loses, for a figure that strikes
        nobody from it (FTC 6.5.3: a miss may strike a friend on the line)."""
        self.dive_volley = 2
        """From how many enemy firers with a clear shot a figure with nobody to strike may take the very
        defensive stance, dodge them all and dive for the ground (FTC 6.2); 0 never."""
        self.dive_ground = 0.3
        """What diving loses per hex the retreat puts between the figure and the nearest enemy."""
        self.menace = 0.5
        """How much a more dangerous enemy is worth striking first (see ``_menace``); 0 treats all alike."""
        self.exact_spells = True
        """Choose spells by ``spell_preview``'s exact odds (else as the tactical player does)."""
        self.out_weight = 2.0
        """What the chance of taking the target out of the fight adds to a blow's expected wound (FTC 6.4): a
        figure taken out strikes no more, while a wound short of that leaves it fighting."""

    # ------------------------------------------------------------------ the decision
    def __call__(self, battle: Battle, d: Decision) -> act.Action:
        """Pick an action for the decision ``d`` (FTC 5–8) and record why in ``last_reason``."""
        self._spent = 0
        action, why = self._decide(battle, d)
        self.last_reason = why
        self.reasons.append((len(battle.log), d.figure or d.side, why))
        return action

    def _say(self, fid: str | None, battle: Battle) -> str:
        return battle.figure(fid).name if fid else ""

    def _decide(self, battle: Battle, d: Decision) -> tuple[act.Action, str]:
        if d.reason == Reason.FUDGE_POINT:
            return spend_fudge_point(d), "spends a Fudge Point rather than lie near death (Fudge 4.64)"
        lost = self._hopeless(battle, d.side)
        if lost:
            return act.Yield(d.side), lost
        if d.reason == Reason.STOP:
            return act.StopChoice(d.figure or "", True), "stops the enemy leaving its zone (FTC 5.2)"
        if d.reason == Reason.ESCAPE_FAILED:
            mover = battle.figure(d.figure or "")
            run = mover.wounds.worst is None
            return act.EscapeFailedChoice(mover.id, run), ("runs for it" if run else "stays rather than run hurt")
        if d.reason == Reason.INTERRUPT:
            for fid in d.interrupters:
                plan = self._rear_strike(battle, battle.figure(fid))
                if plan is not None:
                    self.counts["interrupts"] += 1
                    move, target = plan
                    return move, f"interrupts: {battle.figure(fid).name} gets behind {target}"
            return act.PassInterrupt(d.side), "waits with its held figures"
        if d.reason == Reason.MOVE:
            fig = battle.figure(d.figure or "")
            if self.hold and self._should_hold(battle, fig):
                self.counts["holds"] += 1
                return act.Hold(fig.id), f"{fig.name} holds to move after the enemy (FTC 5)"
            return self._vet_move(battle, fig)
        if d.reason == Reason.HELD_END:
            return self._vet_move(battle, battle.figure(d.figure or ""))
        if d.reason == Reason.FOLLOW:
            return act.FollowChoice(d.figure or "", d.follow_hex), "follows the retreating enemy (FTC 6.2)"
        if d.reason == Reason.DECLARE:
            return self._vet_declare(battle, d.figure or "")
        raise ValueError(f"no rule for decision {d.reason!r}")

    def _hopeless(self, battle: Battle, side: str) -> str:
        """A side that has lost — one figure left, Very Hurt or worse, against three or more — yields."""
        mine = battle.able(side)
        foes = [f for f in battle.able() if f.side != side]
        if len(mine) == 1 and _level(mine[0]) >= 3 and len(foes) >= 3 and all(_level(f) < 3 for f in foes):
            return f"yields: {mine[0].name} is alone and badly hurt against {len(foes)}"
        return ""

    def _threats(self, battle: Battle, fid: str, side: str) -> list[Figure]:
        """FTC 6.2's attackers of ``fid`` as ``side``'s player knows them: only the declarations it has seen
        count (``ai.declarers_seen``), so that under secret stances a hidden one is never read (*Fudge* 4.32)."""
        key = (len(battle.log), side)
        cache: dict[object, frozenset[str] | None] = self.__dict__.setdefault("_seen", {})
        if key not in cache:
            cache.clear()
            cache[key] = declarers_seen(battle, side)
        return battle.threats_to(fid, known=cache[key])

    # ------------------------------------------------------------------ movement (FTC 5)
    def _melee(self, fig: Figure) -> bool:
        return not fig.character.ready_weapon.ranged

    def _should_hold(self, battle: Battle, fig: Figure) -> bool:
        """FTC 5: a melee figure not yet engaged holds while enemies near it have still to move, so that it
        moves after them and can choose their flank or rear."""
        if not self._melee(fig) or battle.casting_of(fig.id) is not None or self._threats(battle, fig.id, fig.side):
            return False
        if any(e.character.ready_weapon.ranged for e in battle.enemies_of(fig)) and not self.hold_under_fire:
            return False  # under missile fire, waiting only gives the archers more shots
        near = [e for e in battle.enemies_of(fig) if distance(fig.hex, e.hex) <= fig.allowance + 3]
        return any(not e.moved and not e.held for e in near)

    def _rear_strike(self, battle: Battle, fig: Figure) -> tuple[act.Move, str] | None:
        """A move of a held figure to a hex behind an enemy that has already moved (FTC 5, 6.4.1)."""
        if not self._melee(fig):
            return None
        up = self._stand_up(fig)
        reach = battle.reach_for(fig.id, posture=up)
        best: tuple[float, Hex, Figure] | None = None
        for e in battle.enemies_of(fig):
            if not e.moved or distance(fig.hex, e.hex) > fig.allowance + 1:
                continue
            for h in neighbors(e.hex):
                if h == fig.hex or not reach.can_reach(h, facing_toward(h, e.hex)):
                    continue
                bonus = behind_bonus(h, e.hex, e.facing, attacker_phase_start=h, moved_this_attack_phase=False)
                if bonus <= 0:
                    continue
                score = bonus - 0.5 * self._exposure(battle, fig, h, exclude=e)
                if h != fig.hex and reach.band(h) == "escape":
                    continue
                if best is None or score > best[0]:
                    best = (score, h, e)
        if best is None or best[0] < 1:
            return None
        _, h, e = best
        return act.Move(fig.id, reach.path(h, facing_toward(h, e.hex)).steps, up), e.name

    def _exposure(self, battle: Battle, fig: Figure, h: Hex, exclude: Figure | None = None) -> int:
        """How many enemies would have ``h`` in a front hex (could strike it without turning)."""
        return sum(
            1
            for e in battle.enemies_of(fig)
            if e is not exclude and distance(e.hex, h) == 1 and h in front_hexes(e.hex, e.facing)
        )

    def _vet_move(self, battle: Battle, fig: Figure, second: bool = False) -> tuple[act.Move, str]:
        """FTC 5: the best end hex for the figure (flank and rear, friends beside it, not alone against
        several), facing the enemy it means to strike."""
        fid = fig.id
        if battle.casting_of(fid) is not None:
            return act.Move(fid, ()), f"{fig.name} stands still to keep concentrating (FTC 8.1)"
        enemies = battle.enemies_of(fig)
        if not enemies:
            return act.Move(fid, ()), f"{fig.name} stays: no enemy left"
        up = self._stand_up(fig)
        reach = battle.reach_for(fid, posture=up)
        candidates = [fig.hex, *sorted(reach.hexes())]
        lanes = self._lanes(battle, fig) if self.lane_weight else {}
        field = self._approach_field(battle, fig, candidates)
        melee = self._melee(fig)
        hurt = _level(fig) >= 3
        friends = [f for f in battle.able(fig.side) if f.id != fid]
        engaged = {e.id: sum(1 for f in friends if distance(f.hex, e.hex) == 1) for e in enemies}
        archers = [e for e in enemies if e.character.ready_weapon.ranged]
        best: tuple[float, Hex, Figure | None, str] | None = None
        for h in candidates:
            if self._spent >= self.budget:
                break
            self._spent += 1
            steps = field.get(h, 999)
            target: Figure | None = None
            why = ""
            if melee and not hurt:
                score = -float(steps)
                why = f"closes on {min(enemies, key=lambda e: distance(h, e.hex)).name}"
                adjacent = [e for e in enemies if distance(h, e.hex) == 1]
                if adjacent:
                    score += 3.0
                    best_e: tuple[float, Figure, str] | None = None
                    for e in adjacent:
                        bonus = behind_bonus(h, e.hex, e.facing, attacker_phase_start=h, moved_this_attack_phase=False)
                        v = 1.2 * bonus + 0.8 * min(engaged[e.id], 2) + 0.3 * _level(e)
                        if best_e is None or v > best_e[0]:
                            word = "behind" if bonus >= 2 else "to the flank of" if bonus == 1 else "beside"
                            best_e = (v, e, word)
                    assert best_e is not None
                    score += best_e[0]
                    target = best_e[1]
                    why = f"moves {best_e[2]} {target.name}"
                    fronts = self._exposure(battle, fig, h)
                    support = sum(1 for f in friends if distance(f.hex, h) <= 1)
                    if fronts > support + 1:
                        score -= 1.5 * (fronts - support - 1)
            elif melee:
                # badly hurt: keep a friend between itself and the enemy, out of reach
                score = -abs(steps - 3) * 0.8 - 2.0 * self._exposure(battle, fig, h)
                why = f"{fig.name} keeps back, badly hurt"
            else:
                score = -abs(steps - 4) * 0.7 + 0.3 * -battle.terrain.cover_at(h)
                score -= 2.0 * sum(1 for e in enemies if distance(h, e.hex) == 1)
                why = f"{fig.name} takes a shooting place"
            score += 0.25 * sum(1 for f in friends if distance(f.hex, h) <= 2)
            if target is None and h in lanes:
                # FTC 6.5.3: standing on a friend's line of fire puts a stray arrow in its back
                score -= self.lane_weight
            if not melee and self.lane_weight:
                score -= self.lane_weight * self._friends_in_the_way(battle, fig, h, enemies)
            if self.fire_shy and melee and archers and target is None:
                score -= self.fire_shy * sum(self._open_to(battle, a, h) for a in archers)
            if second and self.safe_second and any(distance(h, e.hex) <= 2 for e in enemies):
                score -= 10.0  # FTC 6.2: a figure on its second move does not defend: not within their reach
            if h != fig.hex and reach.band(h) == "escape":
                levels = [
                    battle.figure(s).character.combat_skill(battle.figure(s).character.ready_weapon, battle.round)
                    for _, ids in reach.escapes(h)
                    for s in ids
                ][:3]
                score -= 3.0 * float(1 - escape_probability(fig.character.agility, levels or [0]))
            score += self.rng.random() * 0.01
            if best is None or score > best[0]:
                best = (score, h, target, why)
        assert best is not None
        _, h, target, why = best
        look = target or min(enemies, key=lambda e: distance(h, e.hex))
        facing = facing_toward(h, look.hex)
        if not why.startswith(fig.name):
            why = f"{fig.name} {why}"
        if fig.hex in lanes and h not in lanes:
            self.counts["lanes_opened"] += 1
            why += f", clearing {lanes[fig.hex]}'s line of fire"
        rising = ", getting up first" if up is not None else ""
        if h == fig.hex:
            if facing != fig.facing and reach.can_reach(fig.hex, facing):
                turn = reach.path(fig.hex, facing).steps
                return act.Move(fid, turn, up), f"{fig.name} turns to face {look.name}{rising}"
            return act.Move(fid, (), up), f"{fig.name} stands its ground{rising}"
        if not reach.can_reach(h, facing):
            facing = reach.facings(h)[0]
        return act.Move(fid, reach.path(h, facing).steps, up), why + rising

    def _stand_up(self, fig: Figure) -> str | None:
        """FTC 5: a figure that dived for the ground gets up with its move (no cost in this reading)."""
        return "standing" if fig.posture != "standing" else None

    def _lanes(self, battle: Battle, fig: Figure) -> dict[Hex, str]:
        """The hexes on the lines of fire from the side's archers (other than ``fig``) to the enemies they can
        shoot now, each with the archer's name (FTC 6.5.3: a miss may strike a friend standing on the line)."""
        key = ("lanes", len(battle.log), fig.id)
        cache: dict[object, dict[Hex, str]] = self.__dict__.setdefault("_lane_cache", {})
        if key in cache:
            return cache[key]
        if len(cache) > 200:
            cache.clear()
        out: dict[Hex, str] = {}
        for a in battle.able(fig.side):
            if a.id == fig.id or not a.character.ready_weapon.ranged or self._threats(battle, a.id, fig.side):
                continue
            self._spent += 1
            shots = sorted(
                (battle.figure(t) for t in battle.targets_for(a.id)), key=lambda e: (distance(a.hex, e.hex), e.id)
            )
            for e in shots[:2]:
                for h in risk_hexes(battle.terrain, a.hex, e.hex):
                    out.setdefault(h, a.name)
        cache[key] = out
        return out

    def _friends_in_the_way(self, battle: Battle, fig: Figure, h: Hex, enemies: Sequence[Figure]) -> int:
        """How many friends stand on the line of fire from ``h`` to the nearest enemy (FTC 6.5.3)."""
        e = min(enemies, key=lambda x: (distance(h, x.hex), x.id))
        inside = set(risk_hexes(battle.terrain, h, e.hex))
        return sum(1 for f in battle.able(fig.side) if f.id != fig.id and f.hex in inside)

    # ------------------------------------------------------------------ declarations (FTC 6.1, 6.2, 6.5, 6.6)
    def _vet_declare(self, battle: Battle, fid: str) -> tuple[act.Action, str]:
        fig = battle.figure(fid)
        dc = declare_choices(battle, fid)
        if fig.character.spells:
            spell = (
                self._vet_spell(battle, fig, dc)
                if self.exact_spells
                else self._tactical_spell(battle, fig, self._threats(battle, fid, fig.side))
            )
            if spell is not None:
                best = self._best_option(battle, fig, dc, {})
                if best is None or spell[0] > best.dealt:
                    self.counts["spells"] += 1
                    return spell[1], spell[2]
        plan = self._side_plan(battle, fig, dc)
        opt = plan.get(fid) or self._best_option(battle, fig, dc, {})
        if opt is None:
            return act.Declare(fid, "neutral"), f"{fig.name} waits: nothing to attack"
        a = opt.action
        if (
            (self.second_moves or (self.second_under_fire and self._under_fire(battle, fig)))
            and not a.targets
            and not self._threats(battle, fid, fig.side)
            and self._melee(fig)
            and _level(fig) < 3
        ):
            # FTC 6.2: nobody to strike and nobody striking it: a second move closes the distance
            move, why = self._vet_move(battle, fig, second=True)
            if move.steps and (
                not self.safe_second or all(distance(move.steps[-1][0], e.hex) > 2 for e in battle.enemies_of(fig))
            ):
                self.counts["second_moves"] += 1
                return act.SecondMove(fid, move.steps), f"{why} (second move)"
        why = opt.why
        if a.targets and a.weapon is not None:
            aim, note = self._aim(battle, fig, dc, a)
            if aim != "best":
                a = msgspec.structs.replace(a, aim=aim)
                why += note
            if in_play(battle):  # Fudge 4.62, 4.34: a stun, a sweep, an ignored attacker where they pay
                a, note = refine(battle, dc, a, lambda f: self._menace(battle, fig, f))
                why += note
        self.counts["declarations"] += 1
        if a.advance:
            self.counts["advances"] += 1
        if a.retreat is not None:
            self.counts["retreats"] += 1
        if a.dodge:
            self.counts["dodges"] += 1
            if a.stance == Stance.VERY_DEFENSIVE.value:
                self.counts["dives"] += 1
                if not self._threats(battle, fid, fig.side):
                    self.counts["volley_dives"] += 1
        if a.aim != "best":
            self.counts["aims"] += 1
        return a, why

    def _tactical_spell(
        self, battle: Battle, fig: Figure, threats: list[Figure]
    ) -> tuple[float, act.Declare, str] | None:
        """The tactical player's choice of spell (FTC 8), for measuring ``exact_spells`` against it."""
        found = self._best_spell(battle, fig, battle.declare_options(fig.id), threats)
        if found is None:
            return None
        return float(found[0]), found[1], f"{fig.name} casts {found[1].spell} (FTC 8)"

    def _vet_spell(self, battle: Battle, fig: Figure, dc: DeclareChoices) -> tuple[float, act.Declare, str] | None:
        """FTC 8, 8.1, 8.3: the known spell worth most by the exact odds the screen shows (``spell_preview``):
        a bolt by the wound it deals on average (the chance that the target dodges it, and the stray odds
        on friends counted), any other spell by its chance of taking effect (the casting roll, a touch
        attack, the target's resistance roll) times what its effect is worth; or going on with a spell
        being concentrated on."""
        threats = self._threats(battle, fig.id, fig.side)
        stance = "mildly_defensive" if threats else "neutral"
        casting = battle.casting_of(fig.id)
        if casting is not None:
            name = casting.spell.name
            return 100.0, act.Declare(fig.id, stance, spell=name), f"{fig.name} keeps concentrating on {name} (FTC 8.1)"
        declared = public_declarations(battle)
        near = min((distance(fig.hex, e.hex) for e in battle.enemies_of(fig)), default=99)
        best: tuple[float, act.Declare, str] | None = None
        for name, targets in sorted(dc.spells.items()):
            item = magic.spell(name)
            if magic.resolves_when(item) == "last_round" and near <= 4:
                continue  # no time to stand still concentrating with enemies this close
            for t in targets:
                if self._spent >= self.budget and best is not None:
                    break
                tgt = battle.figure(t)
                spot = battle.area_hex_on(fig.id, name, t) if item.target == "hex" else None
                if item.target == "hex" and spot is None:
                    continue
                self._spent += 1
                try:
                    pv = spell_preview(battle, fig.id, name, spot if spot is not None else t, stance, gm_hand=False)
                except (IllegalAction, ValueError):
                    continue
                value = self._spell_value(battle, fig, item, tgt, spot, pv, declared, threats)
                if value <= 0 or (best is not None and value <= best[0]):
                    continue
                if spot is not None:
                    decl = act.Declare(fig.id, stance, spell=name, spell_hex=spot)
                    why = f"{fig.name} casts {name} over {tgt.name}: {float(pv.effect) * 100:.0f} % to take effect"
                else:
                    decl = act.Declare(fig.id, stance, spell=name, spell_target=t)
                    on = "on itself" if t == fig.id else f"on {tgt.name}"
                    why = f"{fig.name} casts {name} {on}: {float(pv.effect) * 100:.0f} % to take effect"
                best = (value, decl, why + " (FTC 8)")
        return best

    def _spell_value(
        self,
        battle: Battle,
        fig: Figure,
        item: magic.Spell,
        tgt: Figure,
        spot: Hex | None,
        pv: SpellPreview,
        declared: Mapping[str, ev.Declared],
        threats: Sequence[Figure],
    ) -> float:
        """What casting ``item`` is worth, in wound levels dealt (or their equal), by ``pv``'s exact odds."""
        if pv.distribution is not None:
            dealt = self._dealt(pv.distribution)
            if pv.dodged is not None and pv.effect > 0:
                decl = declared.get(tgt.id)
                p_dodge = 0.5 if decl is None else (1.0 if fig.id in decl.dodge else 0.0)
                dealt *= 1 - p_dodge + p_dodge * float(pv.dodged / pv.effect)
            friendly = sum(float(b.chance) for b in pv.bystanders if b.friend)
            if friendly > 0.25:
                return 0.0
            worth = (1.0 + 0.3 * _level(tgt)) * self._menace(battle, fig, tgt)
            return dealt * worth - 1.5 * friendly * _WOUND_ON_HIT
        if spot is not None:
            covered = magic.area_hexes(item, spot)
            enemies = sum(1 for e in battle.enemies_of(fig) if e.hex in covered)
            friends = sum(1 for f in battle.able(fig.side) if f.hex in covered)
            return float(pv.effect) * 0.25 * (enemies - 2 * friends)
        return float(pv.effect) * float(self._spell_worth(battle, fig, item, tgt, list(threats)))

    def _dealt(self, distribution: Mapping[Outcome, Fraction]) -> float:
        """What a blow (or bolt) is worth by its exact odds: the expected wound level, plus ``out_weight`` for
        each unit of the chance that it takes the target out of the fight (FTC 6.4)."""
        dealt = float(expected_wound(distribution))
        if self.out_weight:
            dealt += self.out_weight * float(chance_out(distribution))
        return dealt

    def _open_to(self, battle: Battle, archer: Figure, h: Hex) -> float:
        """1 when ``archer`` has a clear line of fire to ``h``, a half behind partial cover, 0 when blocked
        (FTC 6.5.3, table 7)."""
        line: LineOfFire[str] = line_of_fire(battle.terrain, archer.hex, h)
        if line.blocked:
            return 0.0
        return 0.5 if line.partial_cover else 1.0

    def _under_fire(self, battle: Battle, fig: Figure) -> bool:
        """Whether an enemy archer can shoot ``fig`` now (in range, line clear; FTC 6.5)."""
        return any(
            self._shot_at(battle, e, fig) is not None
            for e in battle.enemies_of(fig)
            if any(w.ranged for w in e.character.weapons)
        )

    def _aim(self, battle: Battle, fig: Figure, dc: DeclareChoices, a: act.Declare) -> tuple[str, str]:
        """FTC 6.6: a named location when its exact odds are as good as leaving the blow to fall where it
        hurts most ("best"), the head first; else "best"."""
        t = a.targets[0]
        positions = battle.advance_positions(fig.id, a.advance, a.advance_facing) if a.advance else []

        def worth(aim: str) -> tuple[float, float]:
            self._spent += 1
            pv = attack_preview(
                battle,
                fig.id,
                a.weapon,
                t,
                a.stance,
                dodge=a.dodge,
                advance=positions,
                compare=False,
                aim=aim,  # type: ignore[arg-type]
                gm_hand=False,
            )
            there = sum(float(p) for o, p in pv.distribution.items() if o.location == aim)
            return float(expected_wound(pv.distribution)), there

        base, _ = worth("best")
        for aim in sorted((x for x in dc.aims.get(t, ()) if x != "best"), key=lambda x: x != "head"):
            value, there = worth(aim)
            if there > 0 and value >= base - 1e-9:
                return aim, f", aims at the {aim} ({there * 100:.0f} % it falls there)"
        return "best", ""

    def _side_plan(self, battle: Battle, fig: Figure, dc: DeclareChoices) -> dict[str, _Option]:
        """Best response per undeclared melee figure of the side that can strike now, then two rounds in
        which each answers the others' plans (FTC 6.4.1: an enemy attacked by several must beat them all)."""
        declared = public_declarations(battle)
        mates = [
            f
            for f in battle.able(fig.side)
            if f.id != fig.id
            and f.id not in declared
            and self._threats(battle, f.id, fig.side)
            and not f.character.spells
        ][:3]
        plans: dict[str, _Option] = {}
        dcs = {fig.id: dc}
        for m in mates:
            dcs[m.id] = declare_choices(battle, m.id)
        order = [fig, *mates]
        for _ in range(3 if mates else 1):
            changed = False
            for m in order:
                others = {k: v for k, v in plans.items() if k != m.id}
                opt = self._best_option(battle, m, dcs[m.id], others)
                if opt is not None and (m.id not in plans or plans[m.id].action != opt.action):
                    plans[m.id] = opt
                    changed = True
                if self._spent >= self.budget:
                    return plans
            if not changed:
                break
        return plans

    def _preview(
        self,
        battle: Battle,
        fid: str,
        weapon: str,
        target: str,
        stance: str,
        dodge: Sequence[str],
        advance: act.Steps,
        facing: int | None,
    ) -> AttackPreview:
        self._spent += 1
        positions = battle.advance_positions(fid, advance, facing) if advance else []
        return attack_preview(
            battle, fid, weapon, target, stance, dodge=dodge, advance=positions, compare=False, gm_hand=False
        )

    def _best_option(
        self, battle: Battle, fig: Figure, dc: DeclareChoices, plans: dict[str, _Option]
    ) -> _Option | None:
        """The best declaration for ``fig`` given the other figures' ``plans`` (FTC 6.1, 6.2, 6.5.3, 6.6)."""
        fid = fig.id
        declared = public_declarations(battle)
        hurt = _level(fig)
        threats = self._threats(battle, fid, fig.side)
        # enemies that declared a melee attack on this figure: its own blows must beat their defences too
        on_me = [e for e in threats if e.id in declared and fid in declared[e.id].targets]
        firers = self._firers_at(battle, fig, dc)
        ganged: dict[str, int] = {}
        for p in plans.values():
            for t in p.action.targets:
                ganged[t] = ganged.get(t, 0) + 1
        for e, dcl in declared.items():
            if battle.figures[e].side == fig.side:
                for t in dcl.targets:
                    ganged[t] = ganged.get(t, 0) + 1
        outnumbered = len(threats) >= 2 and len(threats) > sum(
            1 for f in battle.able(fig.side) if f.id != fid and any(distance(f.hex, t.hex) == 1 for t in threats)
        )
        care = 1.0 + 0.35 * hurt + (0.5 if outnumbered else 0.0)
        options: list[_Option] = []

        def risk(stance: Stance, attacking: str | None, dodge: Sequence[str]) -> float:
            total_risk = 0.0
            for e in threats:
                ew = e.character.ready_weapon
                e_decl = declared.get(e.id)
                if e_decl is not None and fid not in e_decl.targets:
                    continue
                likely = (
                    1.0
                    if e_decl is not None
                    else max(self.unknown_share, 1.0 / max(1, len(self._threats(battle, e.id, fig.side))))
                )
                my_def, _ = battle.melee_defence(fid, e.id, ew, stance.value)
                gang = ganged.get(e.id, 0)
                # friends attacking e in melee: his blow must beat each of their defences too (FTC 6.4.1)
                others = [my_def - 1] * min(gang, 2)
                blow = (
                    self._blow(battle, e, fig)
                    if self.precise_risk
                    else (
                        e.character.combat_skill(ew, battle.round),
                        melee_difficulty(e.character.mass_scale, fig.character.mass_scale),
                        _WOUND_ON_HIT,
                    )
                )
                if blow is None:
                    continue
                e_off, diff, per_hit = blow
                e_off += Stance(e_decl.stance).attack_bonus if e_decl is not None else 1
                p = hit_probability(e_off, (my_def, *others), diff)
                total_risk += likely * float(p) * per_hit
            for f in firers:
                f_decl = declared.get(f.id)
                if f_decl is not None and fid not in f_decl.targets:
                    continue
                likely = 1.0 if f_decl is not None else 0.5
                base = self._shot_at(battle, f, fig)
                if base is None:
                    continue
                off, diff = base
                if f.id in dodge:
                    dodge_level = fig.character.agility + total(battle.dodge_terms(fid, stance))
                    p = hit_probability(off, (dodge_level,), diff)
                else:
                    p = hit_probability(off, (), diff)
                total_risk += likely * float(p) * _WOUND_ON_HIT
            return total_risk

        def worth(t: str) -> float:
            tgt = battle.figure(t)
            return (1.0 + 0.3 * _level(tgt) + 0.35 * min(ganged.get(t, 0), 2)) * self._menace(battle, fig, tgt)

        def dodges_for(stance: Stance, base_dealt: float, cost_per: float) -> tuple[str, ...]:
            """Dodge each firer whose shot it halves more than the dodge costs its attack (FTC 6.1)."""
            out: list[str] = []
            for f in firers:
                f_decl = declared.get(f.id)
                if f_decl is not None and fid not in f_decl.targets:
                    continue
                base = self._shot_at(battle, f, fig)
                if base is None:
                    continue
                off, diff = base
                dodge_level = fig.character.agility + total(battle.dodge_terms(fid, stance))
                saved = float(hit_probability(off, (), diff) - hit_probability(off, (dodge_level,), diff))
                likely = 1.0 if f_decl is not None else 0.5
                if saved * likely * _WOUND_ON_HIT * care * self.dodge_weight > cost_per:
                    out.append(f.id)
            return tuple(out)

        volley = self._volley(battle, fig, firers, declared)
        for choice in dc.stances:
            st = Stance(choice.stance)
            retreat_to: Hex | None = None
            dive = False
            if not threats and st.retreat == "must":
                # FTC 6.2: a retreat is away from attackers; with none it only gives ground, unless a volley
                # is coming: then the very defensive stance dodges them all and dives for the ground
                back = self._dive_hexes(battle, fig, choice.retreats, volley) if volley else []
                if not back:
                    continue
                retreat_to, dive = back[0], True
            wants = st.retreat == "must" or (st.retreat == "may" and (outnumbered or hurt >= self.retreat_hurt))
            if threats and wants:
                if not choice.retreats:
                    continue
                retreat_to = max(
                    choice.retreats,
                    key=lambda h: (sum(distance(h, t.hex) for t in threats), -h.q, -h.r),
                )
            # attacks without an advance
            for weapon, targets in dc.weapons.items():
                for t in targets:
                    if self._spent >= self.budget and options:
                        break
                    options.extend(
                        self._attack_options(
                            battle, fig, st, weapon, t, (), None, retreat_to, worth, risk, dodges_for, on_me, care
                        )
                    )
            for adv in choice.advances if len(choice.advances) <= 40 else choice.advances[:40]:
                if len(adv.steps) > st.max_advance or (st.max_advance == 2 and len(adv.steps) < 2):
                    continue
                for weapon, targets in adv.targets.items():
                    for t in targets:
                        if t in dc.weapons.get(weapon, ()):
                            continue  # in reach already: no need to give up the stance's bonus
                        if self._spent >= self.budget and options:
                            break
                        options.extend(
                            self._attack_options(
                                battle,
                                fig,
                                st,
                                weapon,
                                t,
                                adv.steps,
                                adv.facing,
                                None,
                                worth,
                                risk,
                                dodges_for,
                                on_me,
                                care,
                            )
                        )
            # a declaration of defence only
            d = dodges_for(st, 0.0, 0.0)
            r = risk(st, None, d)
            score = -care * r
            if dive:
                if not d:
                    continue
                assert retreat_to is not None
                near = min(distance(fig.hex, e.hex) for e in battle.enemies_of(fig))
                after = min(distance(retreat_to, e.hex) for e in battle.enemies_of(fig))
                score -= self.dive_ground * max(0, after - near)
                why = f"{fig.name} dives for the ground (very defensive), dodging " + ", ".join(
                    battle.figure(x).name for x in d
                )
                options.append(_Option(act.Declare(fid, st.value, dodge=d, retreat=retreat_to), score, 0.0, 0.0, why))
                continue
            if retreat_to is not None:
                score += self.retreat_bonus * care * len(threats)
            elif st.retreat == "must":
                continue
            if st.value in ("neutral", "mildly_defensive", "very_defensive") or retreat_to is not None:
                why = f"{fig.name} defends ({st.display_name.lower()})"
                if retreat_to is not None:
                    why = f"{fig.name} falls back ({st.display_name.lower()}, retreats a hex)"
                if d:
                    why += f", dodging {', '.join(battle.figure(x).name for x in d)}"
                options.append(_Option(act.Declare(fid, st.value, dodge=d, retreat=retreat_to), score, 0.0, 0.0, why))
        if not options:
            return None
        return max(options, key=lambda o: (o.score, -len(o.action.advance), o.action.stance, o.action.targets))

    def _attack_options(
        self,
        battle: Battle,
        fig: Figure,
        st: Stance,
        weapon: str,
        t: str,
        advance: act.Steps,
        facing: int | None,
        retreat_to: Hex | None,
        worth: Callable[[str], float],
        risk: Callable[[Stance, str | None, Sequence[str]], float],
        dodges_for: Callable[[Stance, float, float], tuple[str, ...]],
        on_me: list[Figure],
        care: float,
    ) -> list[_Option]:
        try:
            pv = self._preview(battle, fig.id, weapon, t, st.value, (), advance, facing)
        except IllegalAction:
            return []
        tgt = battle.figure(t)
        hit = float(pv.hit)
        dealt = self._dealt(pv.distribution)
        # FTC 6.4.1: against several attackers its blow must beat every one of their defences
        others = [e for e in on_me if e.id != t]
        if others and not pv.ranged and pv.defence is not None:
            defs = [battle.melee_defence(e.id, fig.id, battle.figure(e.id).character.ready_weapon)[0] for e in others]
            alone = hit_probability(pv.offence, (pv.defence,), pv.difficulty)
            both = hit_probability(pv.offence, (pv.defence, *defs[:2]), pv.difficulty)
            if alone > 0:
                factor = float(both / alone)
                dealt *= factor
                hit *= factor
        # FTC 6.5.3: a miss may strike a friend on the line of fire
        friendly = sum(float(b.chance) for b in pv.bystanders if b.friend)
        if friendly > 0.25:
            return []
        cost_per = dealt * 0.35 if dealt else 0.0
        d = dodges_for(st, dealt, cost_per)
        if d:
            pv2 = self._preview(battle, fig.id, weapon, t, st.value, d, advance, facing)
            dealt = self._dealt(pv2.distribution) * (dealt / max(self._dealt(pv.distribution), 1e-9))
            hit = float(pv2.hit)
        r = risk(st, t, d)
        score = dealt * worth(t) - care * r - 1.5 * friendly
        if retreat_to is not None:
            score += self.retreat_bonus * care * len(self._threats(battle, fig.id, fig.side))
        action = act.Declare(
            fig.id,
            st.value,
            (t,),
            weapon,
            d,
            advance=advance,
            advance_facing=facing,
            retreat=retreat_to,
        )
        bits = [f"{float(pv.hit) * 100:.0f} % to hit"]
        behind = next((m.value for m in pv.offence_mods if "behind" in m.name.lower()), 0)
        how = "strikes"
        if advance:
            how = "advances to strike"
        where = " from behind" if behind else ""
        if behind:
            bits.append(f"+{behind}")
        if d:
            bits.append("dodging " + ", ".join(battle.figure(x).name for x in d))
        if retreat_to is not None:
            how = "falls back and strikes"
        why = f"{fig.name} {how} {tgt.name}{where} ({st.display_name.lower()}): {', '.join(bits)}"
        return [_Option(action, score, dealt, hit, why)]

    def _volley(
        self, battle: Battle, fig: Figure, firers: Sequence[Figure], declared: Mapping[str, ev.Declared]
    ) -> list[Figure]:
        """The enemy firers whose shots make a volley at ``fig`` (FTC 6.2, 6.5): at least ``dive_volley`` of
        them that can shoot it now and have not declared another target; empty otherwise."""
        if not self.dive_volley:
            return []
        shooting = [f for f in firers if f.id not in declared or fig.id in declared[f.id].targets]
        return shooting if len(shooting) >= self.dive_volley else []

    def _dive_hexes(self, battle: Battle, fig: Figure, retreats: Sequence[Hex], volley: Sequence[Figure]) -> list[Hex]:
        """Where a figure diving for the ground may step back to (FTC 6.2): hexes no nearer any firer of the
        volley, the ones with the fewest clear lines of fire first, then the nearest the enemy."""
        enemies = battle.enemies_of(fig)
        back = [h for h in retreats if all(distance(h, f.hex) >= distance(fig.hex, f.hex) for f in volley)]
        return sorted(
            back,
            key=lambda h: (
                sum(self._open_to(battle, f, h) for f in volley),
                min(distance(h, e.hex) for e in enemies),
                h.q,
                h.r,
            ),
        )

    def _menace(self, battle: Battle, fig: Figure, tgt: Figure) -> float:
        """How dangerous ``tgt`` is beside the other enemies, as a weight on a blow at it: the wound its own
        blow or shot would deal ``fig`` on average (``preview``'s odds, FTC 6.4–7), over the mean of all the
        enemies', kept between a half and twice, raised to the power ``menace`` (0: every enemy alike)."""
        if not self.menace:
            return 1.0
        key = ("menace", len(battle.log), fig.id)
        cache: dict[object, dict[str, float]] = self.__dict__.setdefault("_menaces", {})
        if key not in cache:
            if len(cache) > 500:
                cache.clear()
            harm = {e.id: self._harm(battle, e, fig) for e in battle.enemies_of(fig)}
            mean = sum(harm.values()) / len(harm) if harm else 0.0
            cache[key] = {
                k: (min(2.0, max(0.5, v / mean)) ** self.menace if mean > 0 else 1.0) for k, v in harm.items()
            }
        return cache[key].get(tgt.id, 1.0)

    def _harm(self, battle: Battle, e: Figure, fig: Figure) -> float:
        """The wound ``e``'s blow (or shot, when it shoots) would deal ``fig`` on average (FTC 6.4–7)."""
        weapon = e.character.ready_weapon
        if weapon.ranged:
            shot = self._shot_at(battle, e, fig)
            off, diff = shot if shot is not None else (e.character.combat_skill(weapon, battle.round), 0)
            return float(hit_probability(off, (), diff)) * _WOUND_ON_HIT
        blow = self._blow(battle, e, fig)
        if blow is None:
            return 0.0
        off, diff, per_hit = blow
        my_def, _ = battle.melee_defence(fig.id, e.id, weapon, "neutral")
        return float(hit_probability(off, (my_def,), diff)) * per_hit

    def _blow(self, battle: Battle, e: Figure, fig: Figure) -> tuple[int, int, float] | None:
        """An enemy's melee blow on ``fig`` from where it stands (its offence without a stance, behind bonus
        included, the difficulty, and the wound a hit deals on average), from ``preview`` (FTC 6.4–7)."""
        key = ("blow", len(battle.log), e.id, fig.id)
        cache: dict[object, tuple[int, int, float] | None] = self.__dict__.setdefault("_blows", {})
        if key in cache:
            return cache[key]
        if len(cache) > 2000:
            cache.clear()
        self._spent += 1
        weapon = e.character.ready_weapon
        if weapon.ranged:
            weapon = next((w for w in e.character.weapons if not w.ranged), weapon)
        try:
            pv = attack_preview(battle, e.id, weapon.name, fig.id, "neutral", compare=False, gm_hand=False)
        except (IllegalAction, ValueError):
            cache[key] = None
            return None
        per_hit = float(expected_wound(pv.distribution) / pv.hit) if pv.hit > 0 else _WOUND_ON_HIT
        cache[key] = (pv.offence, pv.difficulty, per_hit)
        return cache[key]

    def _firers_at(self, battle: Battle, fig: Figure, dc: DeclareChoices) -> list[Figure]:
        """The enemy firers offered for dodging that can really shoot this figure now (in range, line clear)."""
        out = []
        for f in dc.firers:
            firer = battle.figure(f)
            if self._shot_at(battle, firer, fig) is not None:
                out.append(firer)
        return out

    def _shot_at(self, battle: Battle, firer: Figure, fig: Figure) -> tuple[int, int] | None:
        """A firer's offence and difficulty against ``fig`` with its ranged weapon (FTC 6.5), None when it
        cannot shoot it now."""
        key = ("shot", battle.round, len(battle.log), firer.id, fig.id)
        cache: dict[object, tuple[int, int] | None] = self.__dict__.setdefault("_shots", {})
        if key in cache:
            return cache[key]
        if len(cache) > 2000:
            cache.clear()
        result: tuple[int, int] | None = None
        for w in firer.character.weapons:
            if not w.ranged:
                continue
            if fig.id not in battle.targets_for(firer.id, w):
                continue
            self._spent += 1
            terms = battle.attack_terms(firer, fig, w, Stance.NEUTRAL)
            result = (firer.character.combat_skill(w, battle.round) + total(terms.modifiers), terms.difficulty)
            break
        cache[key] = result
        return result


__all__ = ["VeteranPlayer"]
