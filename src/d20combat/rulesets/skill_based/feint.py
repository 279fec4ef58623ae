"""The feint of the skill-based rules: a contested roll that opens the target's defenses to the feinter's next
attack."""

from __future__ import annotations

from typing import Any

from d20combat import numbers
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.statblock import ability_mod
from d20combat.numbers import Modifier
from d20combat.rulesets.components import Component, RuleError, View
from d20combat.rulesets.skill_based.actions import Feint
from d20combat.rulesets.skill_based.options import FEINTED
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill


def feint_opening(cs: CombatantState, attacker: str) -> bool:
    """SKL-FEINT-05: ``attacker`` feinted this creature and has not attacked it since."""
    return any(e.name == FEINTED + attacker for e in cs.effects)


class Feinting(Component):
    """SKL-FEINT-01..05: a complex action against a foe the feinter threatens (engaged in melee, SKL-FEINT-01/02);
    d20 + weapon skill + Int against d20 + Defense + Wis (SKL-FEINT-03), a tie to the defender (SKL-FEINT-04,
    variant ``skl_feint_tie_succeeds``); on a success the target cannot block or dodge the feinter's next attack,
    an opening that lapses at the end of the round (SKL-FEINT-05, ``skl_feint_opening_rounds`` later)."""

    def __init__(self, reactions: SkillAttacksOfOpportunity, *, tie_succeeds: bool = False,
                 opening_rounds: int = 1) -> None:
        self.reactions = reactions
        """The weapon a creature threatens with (SKL-AOO-02): the one it feints with."""
        self.tie_succeeds = tie_succeeds
        self.opening_rounds = opening_rounds

    def feint(self, engine: Any, tx: View, actor: str, a: Feint, dry: bool) -> None:
        """SKL-FEINT-01..05."""
        s = tx.state
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"feint: no target {a.target!r}")
        creature, cs = tx.creature(actor), s.get(actor)
        target, ts = tx.creature(a.target), s.get(a.target)
        if target.side == creature.side:
            raise RuleError(f"feint: {a.target} is not an enemy")
        option = self.reactions.threat_option(creature, cs)
        here, there = Footprint(cs.position, creature.space), Footprint(ts.position, target.space)
        if option is None or not self.rules.attack.in_melee_reach(creature, option, here, there):
            raise RuleError(f"feint: {actor} does not threaten {a.target}, so it is not engaged in melee with it "
                            f"(SKL-FEINT-01)")
        engine.pay(tx, actor, f"feint {a.target}", "standard", dry)  # SKL-FEINT-02
        if dry:
            return
        skill = weapon_skill(option.weapon)
        f1 = tx.dice.d20(f"feint {actor}")
        mine = numbers.total(f1, [Modifier(skill_rating(creature, skill), f"{skill} skill"),
                                  Modifier(ability_mod(creature.sheet.abilities.int), "Int")], base_label="d20")
        f2 = tx.dice.d20(f"feint defense {a.target}")
        theirs = numbers.total(f2, [Modifier(skill_rating(target, "defense"), "Defense skill"),
                                    Modifier(ability_mod(target.sheet.abilities.wis), "Wis")], base_label="d20")
        won = mine.value > theirs.value or (mine.value == theirs.value and self.tie_succeeds)
        outcome = ("succeeds: it cannot block or dodge " + actor + "'s next attack (SKL-FEINT-05)" if won
                   else "fails" + (" (a tie goes to the defender, SKL-FEINT-04)" if mine.value == theirs.value
                                   else ""))
        tx.emit(ev.Note(f"{actor} feints {a.target}: {mine.explain()} vs {theirs.explain()} — {outcome}"))
        if won:
            name = FEINTED + actor
            if any(e.name == name for e in ts.effects):
                tx.emit(ev.EffectEnded(a.target, name))
            tx.emit(ev.EffectAdded(a.target, name, "", s.round + self.opening_rounds))

    @staticmethod
    def lapse(view: View, cid: str, c: CombatantState, round_no: int) -> None:
        """SKL-FEINT-05: at the end of the round the openings ``cid`` (as ``c``) gave past their round lapse."""
        for effect in c.effects:
            if effect.name.startswith(FEINTED) and effect.until_round <= round_no:
                view.emit(ev.EffectEnded(cid, effect.name))
                view.emit(ev.Note(f"the opening {cid} gave by being {effect.name} lapses unused (SKL-FEINT-05)"))
