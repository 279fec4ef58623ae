"""P9 defense of the skill-based rules: Passive Defense, the target number an attack must reach."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat import numbers
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, Total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ArmorClass, AttackInfo, View


class PassiveDefense(ArmorClass):
    """SKL-DEF-01: Passive Defense = 10 + Dex; armor and shields do not add (they reduce damage, SKL-DMG-03).
    Flat-footed as in PFB (the surprised and the paralyzed cannot react)."""

    name = "Passive Defense"

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        mods = [Modifier(creature.dex_mod, "Dex"), *extra]
        mods += [Modifier(e.ac, e.name) for e in state.effects if e.ac]
        return numbers.total(10, mods, stacking=self.rules.stacking)
