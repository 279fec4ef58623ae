"""P11 criticals: what threatens, the threat range and multiplier, and declared critical attacks."""

from __future__ import annotations

from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier
from d20combat.rules import critical
from d20combat.rulesets.components.component import AttackInfo, Component, RuleError, View


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

    def threat(self, face: int, option: AttackOption, hit: bool, result: int, target_number: int) -> str | None:
        """Whether an attack of ``result`` (the die showed ``face``) against ``target_number`` threatens: None = no
        threat, else the words the log adds after "critical threat" ("" in the core: :meth:`threatens` alone)."""
        return "" if self.threatens(face, option, hit) else None

    def confirmation_target(self, view: View, attack: AttackInfo, target_number: int) -> tuple[int, str]:
        """The number a confirmation roll must reach and what it adds, e.g. " (+1 …)" — the core: the attack's own
        target number, nothing added."""
        return target_number, ""

    def critical_attack(self, penalty: int, option: AttackOption) -> tuple[Modifier | None, int]:
        """A declared critical attack: (attack modifier, extra damage). PFB has none."""
        if penalty:
            raise RuleError("this ruleset has no declared critical attacks")
        return None, 0
