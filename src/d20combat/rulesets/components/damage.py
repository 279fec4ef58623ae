"""P12/P13 damage and mitigation: Strength to damage, precision dice, the minimum, what armor takes off."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.rules import damage as damage_rules
from d20combat.rulesets.components.component import AttackInfo, Component, View


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

    def roll(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
             precision_d6: int, minimum: int, strength: int) -> damage_rules.DamageRoll:
        """The damage of a hit (P12): the core's :func:`~d20combat.rules.damage.roll_damage` — the weapon's dice
        and static bonus ``multiplier`` times on a critical, energy and precision dice once. A ruleset with its
        own damage arithmetic (Epic Path's averaging, brutal dice, lance and brace) overrides this."""
        return damage_rules.roll_damage(creature, attack.option, view.dice, multiplier=multiplier if critical else 1,
                                        precision_d6=precision_d6, minimum=minimum, strength=strength)

    def distribution(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
                     precision_d6: int, strength: int) -> damage_rules.DamageDistribution | None:
        """The damage of a hit as the exact odds should model it, or None: the core's model (the weapon's dice and
        static bonus ``multiplier`` times on a critical, energy and precision dice once), which :meth:`roll`
        rolls. A ruleset that overrides :meth:`roll` with other arithmetic gives its distribution here."""
        return None
