"""P11 criticals: what threatens, the threat range and multiplier, and declared critical attacks."""

from __future__ import annotations

from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier
from d20combat.rules import critical
from d20combat.rulesets.components.component import Component, RuleError


class ThreatAndConfirm(Component):
    """PFB-CRIT-01..08: a threat in the weapon's range that hits, confirmed by a second roll, multiplies
    the damage."""

    def crit_profile(self, option: AttackOption) -> tuple[int, int]:
        """(lowest threatening face, multiplier)."""
        return critical.crit_profile(option)

    def threatens(self, face: int, option: AttackOption, hit: bool) -> bool:
        """Is this roll a critical threat (PFB-CRIT-01/06..08)."""
        threat_min, _ = self.crit_profile(option)
        return critical.is_threat(face, threat_min, hit)

    def critical_attack(self, penalty: int, option: AttackOption) -> tuple[Modifier | None, int]:
        """A declared critical attack: (attack modifier, extra damage). PFB has none."""
        if penalty:
            raise RuleError("this ruleset has no declared critical attacks")
        return None, 0
