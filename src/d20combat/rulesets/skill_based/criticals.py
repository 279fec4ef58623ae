"""P11 criticals of the skill-based rules: no threats; a critical attack is declared before the roll."""

from __future__ import annotations

from collections.abc import Mapping

from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier
from d20combat.rulesets.components import RuleError, ThreatAndConfirm


class DeclaredCriticalAttack(ThreatAndConfirm):
    """SKL-ATK-07: no critical threats and no multiplier. SKL-CRIT-01..04: before the roll the attacker may take
    −1..−5 on it for as much extra damage times the weapon's factor (SKL-CRIT-04 MISSING: the table
    ``skl_crit_damage_table``, factor 1 by default)."""

    def __init__(self, damage_table: Mapping[str, int] | None = None) -> None:
        self.damage_table: Mapping[str, int] = dict(damage_table or {})
        """Damage per point of penalty, by weapon (attack) name."""

    def threatens(self, face: int, option: AttackOption, hit: bool) -> bool:
        """SKL-ATK-07: no critical threats."""
        return False

    def crit_profile(self, option: AttackOption) -> tuple[int, int]:
        """No threat range and no multiplier (shown as 20/×1 where a profile is printed)."""
        return 20, 1

    def critical_attack(self, penalty: int, option: AttackOption) -> tuple[Modifier | None, int]:
        """SKL-CRIT-01..04: −1..−5 on the roll for penalty × the weapon's factor in damage."""
        if penalty == 0:
            return None, 0
        if not -5 <= penalty <= -1:
            raise RuleError(f"a critical attack takes −1 to −5 on the attack roll, not {penalty} (SKL-CRIT-03)")
        return Modifier(penalty, "critical attack"), -penalty * self.damage_factor(option)

    def damage_factor(self, option: AttackOption) -> int:
        """SKL-CRIT-04: the extra damage one point of critical-attack penalty buys with this weapon."""
        return self.damage_table.get(option.name, 1)
