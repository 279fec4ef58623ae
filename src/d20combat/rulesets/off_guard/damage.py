"""P12 damage of the off-guard ruleset: PFB's weapon damage with the Strength fatigue leaves."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.rules import damage as damage_rules
from d20combat.rulesets.components import HitPointDamage
from d20combat.rulesets.off_guard.conditions import ConditionTable


class FatiguedStrength(HitPointDamage):
    """PFB's damage (PFB-DMG-01) with the Strength modifier recomputed from the lowered score of a fatigued or
    exhausted attacker (CMV-COND-17, CMV-COND-19)."""

    def __init__(self, table: ConditionTable) -> None:
        self.table = table

    def damage_strength(self, creature: Creature, option: AttackOption, state: CombatantState | None = None) -> int:
        """PFB-DMG-03..06 with the attacker's Strength as fatigue leaves it (CMV-COND-17/19). The attacker's
        ``state`` tells its conditions; without it (a static question) the sheet's Strength counts."""
        str_mod = creature.str_mod
        if state is not None:
            str_mod += self.table.ability_delta(creature, self.table.active(creature, state), "str")
        return damage_rules.strength_damage(str_mod, option)
