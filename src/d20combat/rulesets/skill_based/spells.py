"""Casting under the skill-based rules: a spell is a complex action, and enemies holding reserve may counter it."""

from __future__ import annotations

from typing import Any

from d20combat import numbers
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.model.creature import AttackOption
from d20combat.model.statblock import WeaponKind
from d20combat.numbers import Modifier
from d20combat.rulesets.components import Component, RuleError, View
from d20combat.rulesets.skill_based.actions import CastSpell
from d20combat.rulesets.skill_based.options import RESERVE
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill


class Counterspelling(Component):
    """A spell is a complex action (SKL-ACT-01) cast with its magic skill, which needs training (SKL-CSPL-06).
    SKL-CSPL-01..07: before it goes off, each enemy within 60 ft, trained in the caster's skill and holding a
    reserved complex action may counter it: contested d20 + rating, the counterspeller must win (SKL-CSPL-05,
    variant ``skl_counterspell_tie_counters``); a countered spell fizzles, the caster's action spent."""

    def __init__(self, *, tie_counters: bool = False) -> None:
        self.tie_counters = tie_counters

    def cast(self, engine: Any, tx: View, actor: str, a: CastSpell, dry: bool) -> None:
        """A spell is a complex action (SKL-ACT-01) that enemies may counter (SKL-CSPL-01..07)."""
        creature = tx.creature(actor)
        try:
            option: AttackOption | None = creature.attack(a.spell)
        except KeyError:
            option = None
        plan = None
        if option is not None:
            if option.kind is not WeaponKind.SPELL:
                raise RuleError(f"cast: {a.spell} is not a spell")
            skill = weapon_skill(option.weapon)
            if not a.target:
                raise RuleError(f"cast: {a.spell} needs a target")
            plan = engine.plan_attack(actor, a.target, option.name, state=tx.state)
        elif a.skill:
            skill = a.skill.lower()
        else:
            raise RuleError(f"cast: {actor} has no spell attack {a.spell!r}; name the magic skill of other spells")
        if skill_rating(creature, skill) < 1:
            raise RuleError(f"cast: {actor} is not trained in {skill}; magical skills need training (SKL-CSPL-06)")
        engine.pay(tx, actor, f"cast {a.spell}", "standard", dry)
        if dry:
            return
        if self.counterspell_window(engine, tx, actor, a.spell, skill):
            return  # SKL-CSPL-05: the caster's action is spent all the same
        if plan is not None:
            engine.roll_attack(tx, plan)
        else:
            tx.emit(ev.Note(f"{actor}'s {a.spell} ({skill}) takes effect"))

    def counterspell_window(self, engine: Any, tx: View, caster: str, spell: str, skill: str) -> bool:
        """SKL-CSPL-01..07: enemies within 60 ft, trained in the caster's skill and holding reserve, may counter:
        contested d20 + rating; the counterspeller must win (a tie is the caster's unless the variant says)."""
        s = tx.state
        me = tx.creature(caster)
        caster_fp = Footprint(s.get(caster).position, me.space)
        for cid in engine.enemies(caster, s):
            cs, cr = tx.state.get(cid), tx.creature(cid)
            if cs.reactions.get(RESERVE, 0) <= 0 or not self.rules.injury.can_act(cr, cs):
                continue  # SKL-CSPL-01: a held complex action
            if skill_rating(cr, skill) < 1:
                continue  # SKL-CSPL-06/07: trained in that school
            dist = footprint_distance_ft(Footprint(cs.position, cr.space), caster_fp)
            if dist > 60:
                continue  # SKL-CSPL-03
            answer = tx.ask(ReactionPrompt(cid, "counterspell", f"{caster} casts {spell} ({skill}), {dist} ft away",
                                           ("counterspell", "decline")))
            if answer != "counterspell":
                continue
            tx.emit(ev.ReactionSpent(cid, RESERVE, f"counterspell against {caster}'s {spell}"))
            c_roll = numbers.total(tx.dice.d20(f"{skill} check {caster}"),
                                   [Modifier(skill_rating(me, skill), f"{skill} skill")], base_label="d20")
            x_roll = numbers.total(tx.dice.d20(f"counterspell {cid}"),
                                   [Modifier(skill_rating(cr, skill), f"{skill} skill")], base_label="d20")
            won = x_roll.value > c_roll.value or (x_roll.value == c_roll.value and self.tie_counters)
            verdict = (f"countered: {spell} fizzles out without effect (SKL-CSPL-05)" if won
                       else "the spell goes off" + (" (a tie is not a win, SKL-CSPL-05)"
                                                   if x_roll.value == c_roll.value else ""))
            tx.emit(ev.Note(f"{cid} counters with {skill} {x_roll.explain()} vs {caster}'s {c_roll.explain()}: "
                            f"{verdict}"))
            if won:
                return True
        return False
