"""P12/P13 damage and mitigation: Strength to damage, precision dice, the minimum, what armor takes off."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.rules import damage as damage_rules
from d20combat.rulesets.components.component import Component


class HitPointDamage(Component):
    """PFB-DMG: weapon dice + Strength (×1½ two-handed, ×½ off hand), at least 1; nothing mitigates."""

    minimum_damage: int = 1

    def damage_strength(self, creature: Creature, option: AttackOption, state: CombatantState | None = None) -> int:
        """PFB-DMG-03..06: the Strength part of weapon damage (``state``: the attacker's, when a ruleset's
        conditions change Strength)."""
        return damage_rules.strength_damage(creature.str_mod, option)

    def precision_dice(self, attacker: Creature, defender_helpless: bool) -> int:
        """PFB-HELP-05: sneak attack against a helpless creature (the only trigger this text gives)."""
        return attacker.sheet.sneak_attack_dice if defender_helpless else 0

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        """Damage after resistances (none in PFB). Returns (damage, explanation or "")."""
        return amount, ""
