"""The charge (WOA-CHARGE-01..13): the core's charge (straight line, clear path, up to double speed, +2 on the single
melee attack, −2 AC) with what Worlds of Adventure adds or changes.

- WOA-CHARGE-01/02/04/05/10/11/13: the core's charge — a full-round action, all the movement before the one melee
  attack, at most 2 × speed, directly toward the target along a clear path (no difficult terrain, WOA-CHARGE-08),
  +2 on the attack (:func:`d20combat.encounter.movement_actions.do_charge`).
- WOA-CHARGE-03: at least twice the width of the charger's space (10 ft Medium, 20 ft Large…).
- WOA-CHARGE-06: not without line of sight to the target at the start of the turn (the charge is the turn's
  first movement, so where it starts).
- WOA-CHARGE-07: no short step in a round with a charge, before or after it.
- WOA-CHARGE-08: not with the speed reduced in any way (slowed, entangled, a tanglefoot bag: the speed the
  movement policy gives is below the land speed).
- WOA-CHARGE-09: not without a land speed (the core's charge moves by land).
- WOA-CHARGE-12: −2 AC for the rest of the round (not until the charger's next turn: initiative is re-rolled).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from d20combat.battlefield.charge import closest_attack_origins
from d20combat.battlefield.cover import line_of_effect
from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import SQUARE_FT, Footprint, Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.errors import D20CombatError
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View
from d20combat.rulesets.worlds_of_adventure.ready import readied

CHARGING = "charging"
"""The core's name of the charge's −2 AC effect (PFB-CHG-12)."""
SET_QUALITIES = frozenset({"set", "brace"})
"""A weapon that deals double damage set against a charge (WOA-INIT-25, WOA-CHARGE-14)."""
CHARGED = "charged_this_round"
"""Charged this round: no short step (WOA-CHARGE-07)."""


def charged(state: Any) -> str | None:
    """WOA-CHARGE-17: how the creature charged this round — ``"charge"`` or ``"alternative charge"`` — or None. The
    one question every feat or ability that applies to a charge (Twin Sword Strike… the feat chapter is not part of
    the text) asks, so that it applies to alternative charges as well; the short-step ban (WOA-CHARGE-07) asks it."""
    if not state.has(CHARGED):
        return None
    return "alternative charge" if state.has(ALTERNATIVE) else "charge"


ALTERNATIVE = "alternative_charged"
"""The round's charge was an alternative charge (WOA-CHARGE-15..17); lifted with the round."""


@dataclass(frozen=True, slots=True)
class AlternativeCharge(ax.Action):
    """WOA-CHARGE-15/16: a charge by another way (a leap from a ledge, a swing on a rope or chandelier, thrown by an
    ally) as the GM sets it up: ``how`` it goes, the square ``to`` it ends in, and the skill check it needs
    (``skill`` against ``dc``; none: no check). No straight line; +2 on the attack, −2 AC for the round."""

    kind: ClassVar[str] = "alternative_charge"
    target: str = ""
    to: Square | None = None
    how: str = ""
    skill: str = ""
    dc: int = 0

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Charge {name(self.target)}" + (f" ({self.how})" if self.how else "") + " — an alternative charge"


class WoaCharge(ActionSet):
    """WOA-CHARGE-03/06/07/08/09/12 around the core's charge; WOA-CHARGE-15/16 alternative charges."""

    def __init__(self) -> None:
        super().__init__(own=[ActionSpec(ax.Charge, self.charge), ActionSpec(AlternativeCharge, self.alternative)])

    def alternative(self, enc: Any, tx: Any, actor: str, a: AlternativeCharge, dry: bool) -> None:
        """WOA-CHARGE-15/16: move to ``to`` as the GM set it up (its skill check first), then one melee attack at
        +2, and −2 AC for the rest of the round."""
        s = tx.state
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"alternative charge: no target {a.target!r}")
        if a.to is None:
            raise RuleError("alternative_charge.to: the square the charge ends in (the GM's setup, WOA-CHARGE-16)")
        if not 0 <= a.dc <= 60 or (a.dc and not a.skill):
            raise RuleError("alternative_charge.dc: a DC from 0 to 60, with the skill it is for (WOA-CHARGE-16)")
        turn = s.turn
        if turn is not None and (turn.moved or turn.stepped):
            raise RuleError("alternative charge: all the movement is the charge's (WOA-CHARGE-15)")
        to = (int(a.to[0]), int(a.to[1]))
        creature = tx.creature(actor)
        fp = Footprint(to, creature.space)
        gm = tx.game_map
        others = set(enc.creature_squares((actor,), s))
        if any(not gm.in_bounds(sq) or gm.is_solid(sq) or sq in others for sq in fp.squares()):
            raise RuleError(f"alternative_charge.to: {to} is not an open square for {actor}")
        there = s.with_combatant(replace(s.get(actor), position=to))
        plan = enc.plan_attack(actor, a.target, None, state=there, extra=(Modifier(2, "charge"),))
        if plan.ranged:
            raise RuleError("alternative charge: the charge attack is a melee attack (WOA-CHARGE-15)")
        how = a.how or "an alternative charge"
        enc.pay(tx, actor, f"charge {a.target} ({how})", "full-round", dry)
        if dry:
            return
        if a.skill:
            t = total(tx.dice.d20(f"{a.skill} {actor}"), self.rules.saves.check_modifiers(creature, s.get(actor),
                                                                                          a.skill),
                      base_label="d20", stacking=self.rules.stacking)
            made = t.value >= a.dc
            tx.emit(ev.Note(f"{actor} {how}: {a.skill} {t.explain()} vs DC {a.dc} — "
                            f"{'made' if made else 'failed: no charge'} (WOA-CHARGE-16)"))
            if not made:
                return
        start = s.get(actor).position
        tx.emit(ev.Moved(actor, [list(to)], distance_ft(start, to), 0, "charge"))
        tx.emit(ev.EffectAdded(actor, CHARGING, actor, s.round + 1, ac=-2))
        tx.emit(ev.ConditionSet(actor, CHARGED, True, f"charged ({how}): +2 on the attack, −2 AC for the rest of "
                                                      "the round (WOA-CHARGE-15)"))
        tx.emit(ev.ConditionSet(actor, ALTERNATIVE, True, "what applies to a charge applies to this one "
                                                               "(WOA-CHARGE-17)"))
        enc.roll_attack(tx, enc.plan_attack(actor, a.target, None, state=tx.state, extra=(Modifier(2, "charge"),)))

    def charge(self, enc: Any, tx: Any, actor: str, a: ax.Charge, dry: bool) -> None:
        from d20combat.encounter.movement_actions import do_charge  # the encounter imports the rulesets
        from d20combat.encounter.visibility import can_see

        s = tx.state
        turn = s.turn
        creature = tx.creature(actor)
        if a.target in s.combatants and a.target != actor and enc.on_map(a.target, s):
            if turn is not None and turn.stepped:
                raise RuleError("charge: no charge in a round with a short step (WOA-CHARGE-07)")
            if creature.land_speed_ft <= 0:
                raise RuleError(f"charge: {actor} has no land speed to charge with (WOA-CHARGE-09)")
            speed = enc.speed_ft(actor, s)
            if speed < creature.land_speed_ft:
                raise RuleError(f"charge: {actor}'s speed is reduced ({speed} ft of {creature.land_speed_ft}): no "
                                "charge (WOA-CHARGE-08)")
            start = Footprint(s.get(actor).position, creature.space)
            t_fp = Footprint(s.get(a.target).position, tx.creature(a.target).space)
            if not line_of_effect(tx.game_map, start, t_fp) or not can_see(enc, actor, a.target, s):
                raise RuleError(f"charge: {actor} has no line of sight to {a.target} at the start of its turn "
                                "(WOA-CHARGE-06)")
            origins = closest_attack_origins(tx.game_map, start, t_fp, creature.reach_ft)
            end = (int(a.to[0]), int(a.to[1])) if a.to is not None else (origins[0] if origins else None)
            least = 2 * creature.space * SQUARE_FT
            if end is not None and end != start.origin and distance_ft(start.origin, end) < least:
                raise RuleError(f"charge: only {distance_ft(start.origin, end)} ft to move; a charge needs at least "
                                f"{least} ft, twice the {creature.space * SQUARE_FT}-ft width of {actor}'s space "
                                "(WOA-CHARGE-03)")
            if not dry and end is not None and end != start.origin:
                self._met(enc, tx, actor, end)  # WOA-INIT-08/25, WOA-CHARGE-14
                if enc._cannot_act(tx.state, actor) is not None:
                    return
        do_charge(enc, tx, actor, a, dry)
        if not dry and tx.state.turn is not None and not tx.state.get(actor).has(CHARGED):
            tx.emit(ev.ConditionSet(actor, CHARGED, True, "charged: +2 on the attack, −2 AC for the rest of the "
                                                          "round, no short step (WOA-CHARGE-07/11/12)"))

    def _met(self, enc: Any, tx: Any, actor: str, end: tuple[int, int]) -> None:
        """WOA-INIT-08/25, WOA-CHARGE-14: an attack readied against the charger that could not be made when it
        started its turn (out of reach, so still held) meets it where the charge ends, before its attack; a weapon
        set against a charge (quality ``set`` or ``brace``: spears and the like) deals double damage — its damage
        rolled twice."""

        s = tx.state
        there = s.with_combatant(replace(s.get(actor), position=end))
        for cid in list(s.order):
            held = readied(tx, cid)
            if cid == actor or held is None or actor not in (held.target, held.trigger):
                continue
            try:
                plan = enc.plan_attack(cid, actor, held.attack, state=there)
            except D20CombatError:
                continue
            tx.emit(ev.EffectEnded(cid, held.name))
            tx.emit(ev.Note(f"{actor} charges into reach: {cid}'s readied attack meets the charge first (WOA-INIT-08)"))
            before = len(tx.events)
            enc.roll_attack(tx, plan)
            hit = any(isinstance(e, ev.AttackResolved) and e.hit for e in tx.events[before:])
            if hit and SET_QUALITIES & set(plan.option.weapon.qualities) and not enc.is_dead(actor, tx.state):
                striker = tx.creature(cid)
                dmg = self.rules.damage.roll(tx, plan, striker, critical=False, multiplier=2, precision_d6=0,
                                             minimum=self.rules.damage.minimum_damage,
                                             strength=self.rules.damage.damage_strength(striker, plan.option))
                amount, why = self.rules.damage.mitigate(tx.creature(actor), tx.state.get(actor), dmg.total)
                hp = tx.state.get(actor).hp
                tx.emit(ev.Damaged(actor, amount, cid, f"  set against the charge, double damage (WOA-INIT-25, "
                                                       f"WOA-CHARGE-14): its damage again, {dmg.explanation}"
                                                       f"{' ' + why if why else ''} → {actor} hp {hp} → {hp - amount}"))
                enc._announce_health(tx, actor, hp)
            if enc._cannot_act(tx.state, actor) is not None:
                return

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """WOA-CHARGE-07: no short step after a charge."""
        how = charged(view.state.get(actor))
        if action.kind == "step" and how is not None:
            return f"no short step in a round with a charge (WOA-CHARGE-07; an {how} too, WOA-CHARGE-17)" \
                if how != "charge" else "no short step in a round with a charge (WOA-CHARGE-07)"
        return None

    def end_of_round(self, view: View, round_no: int) -> None:
        """WOA-CHARGE-12: the −2 AC lasts for the rest of the round."""
        for cid, c in view.state.combatants.items():
            if any(e.name == CHARGING for e in c.effects):
                view.emit(ev.EffectEnded(cid, CHARGING))
            if c.has(CHARGED):
                view.emit(ev.ConditionSet(cid, CHARGED, False, "the round of the charge ends: its −2 AC with it "
                                                               "(WOA-CHARGE-12)"))
            if c.has(ALTERNATIVE):
                view.emit(ev.ConditionSet(cid, ALTERNATIVE, False, "the round of the charge ends (WOA-CHARGE-17)"))
