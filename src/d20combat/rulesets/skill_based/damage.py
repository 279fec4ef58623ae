"""P12/P13 damage of the skill-based rules: dice + Strength, less the armor rating."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind
from d20combat.rulesets.components import HitPointDamage


class ArmorRatingDamage(HitPointDamage):
    """SKL-DMG-01..04: weapon dice + Str (negative too; SKL-DMG-02, variant ``skl_ranged_no_str``: melee and
    thrown only), less the defender's armor rating (SKL-DMG-03), floored at 0 (SKL-DMG-04, variant
    ``skl_min_damage_1``: at 1) — after armor, not before. No sneak attack: the text has none."""

    minimum_damage = -99
    """No floor before armor: the floor (0, or 1 with ``skl_min_damage_1``) comes after armor, in :meth:`mitigate`."""

    def __init__(self, *, ranged_no_str: bool = False, min_damage_1: bool = False) -> None:
        self.ranged_no_str = ranged_no_str
        """SKL-DMG-02 (variant ``skl_ranged_no_str``): Str only to melee and thrown damage."""
        self.min_damage_1 = min_damage_1
        """SKL-DMG-04 (variant ``skl_min_damage_1``): a hit deals at least 1 after armor."""

    @staticmethod
    def armor_rating(creature: Creature) -> int:
        """SKL-DMG-03 (MISSING): the stat block's rating, else half the worn armor's bonus (rounded up); none → 0."""
        if creature.sheet.armor_rating is not None:
            return creature.sheet.armor_rating
        return (creature.armor_bonus + 1) // 2

    def damage_strength(self, creature: Creature, option: AttackOption, state: CombatantState | None = None) -> int:
        """SKL-DMG-02: Str on every weapon's damage, negative too; ``skl_ranged_no_str``: melee and thrown only."""
        if option.kind is WeaponKind.SPELL:
            return 0
        if self.ranged_no_str and option.kind not in (WeaponKind.MELEE, WeaponKind.THROWN):
            return 0
        return creature.str_mod

    def precision_dice(self, attacker: Creature, defender_helpless: bool) -> int:
        return 0

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        """SKL-DMG-03/04: minus the armor rating; floored at 0 (``skl_min_damage_1``: at 1)."""
        armor = self.armor_rating(creature)
        floor = 1 if self.min_damage_1 else 0
        result = max(amount - armor, floor)
        if not armor and result == amount:
            return amount, ""
        text = f"− armor rating {armor}" if armor else ""
        if result != amount - armor:
            text += f" (floored at {floor}, SKL-DMG-04)"
        return result, text.strip()
