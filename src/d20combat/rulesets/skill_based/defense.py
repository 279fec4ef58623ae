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
    Flat-footed as in PFB (the surprised and the paralyzed cannot react). A helpless or dying target keeps it
    unless ``skl_helpless_defense = pfb`` (PFB-HELP-02/03)."""

    name = "Passive Defense"
    variants = ()  # SKL-DEF-01: one TN, 10 + Dex, whatever the attack

    def __init__(self, *, helpless_defense: str = "full") -> None:
        super().__init__()
        self.helpless_defense = helpless_defense
        """``skl_helpless_defense``: "full" (SKL-DEF-01, default) or "pfb" (PFB-HELP-02/03)."""

    def helpless_reading(self) -> str:
        return self.helpless_defense

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        if ctx.helpless and self.helpless_reading() == "pfb":  # PFB-HELP-02/03 under skl_helpless_defense = pfb
            mods = [Modifier(-5, "Dex 0 (helpless)"), *([Modifier(-4, "helpless vs melee")] if ctx.vs_melee else []),
                    *extra]
        else:  # SKL-DEF-01: 10 + Dex is the TN of every attack, helpless or not
            mods = [Modifier(creature.dex_mod, "Dex"), *extra]
        mods += [Modifier(e.ac, e.name) for e in state.effects if e.ac]
        return numbers.total(10, mods, stacking=self.rules.stacking)
