"""Critical hits (WOA-STAT-05/06/41, the missing Critical Hits sidebar as ``data/woa_criticals.yaml``).

- a natural 20 threatens (WOA-STAT-05), and so does any attack result of at least AC + 20 (WOA-STAT-06), as well
  as the weapon's own threat range (the sidebar's reading, 3.5);
- the threat is confirmed by rolling the attack again against the critical-confirmation AC: the AC plus half the
  smaller of the armor and natural armor bonuses (WOA-STAT-41);
- a confirmed critical rolls the damage with all its modifiers ``multiplier`` times (WOA-STAT-28, the core's
  arithmetic); several multipliers each work off the original damage (WOA-STAT-29, :func:`combined_multiplier`).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from d20combat.model.creature import AttackOption
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ThreatAndConfirm
from d20combat.rulesets.components.component import AttackInfo, RuleError, View


@lru_cache(maxsize=1)
def critical_hits_table() -> dict[str, Any]:
    """The reading of the missing Critical Hits sidebar (``data/woa_criticals.yaml``)."""
    data: dict[str, Any] = yaml.safe_load(
        resources.files("d20combat.data").joinpath("woa_criticals.yaml").read_text("utf-8"))
    return data


def combined_multiplier(*multipliers: int) -> int:
    """WOA-STAT-29: each multiplier works off the original damage — ×2 and ×2 make ×3 (1 + Σ(mᵢ − 1))."""
    bad = [m for m in multipliers if m < 1]
    if bad:
        raise RuleError(f"a damage multiplier must be at least 1, got {bad[0]}")
    return 1 + sum(m - 1 for m in multipliers)


class WoaCriticals(ThreatAndConfirm):
    """WOA-STAT-05/06/41: threats on a natural 20, the weapon's range, or beating the AC by 20; confirmation
    against the critical-confirmation AC."""

    def __init__(self, *, threat_margin: int | None = None) -> None:
        table = critical_hits_table()
        self.threat_margin = int(table["threat_margin"]) if threat_margin is None else threat_margin
        """WOA-STAT-06: a result this far above the AC threatens."""

    def threat(self, face: int, option: AttackOption, hit: bool, result: int, target_number: int) -> str | None:
        if self.threatens(face, option, hit):
            return " (natural 20)" if face == 20 else ""
        if hit and result >= target_number + self.threat_margin:
            return f" ({result} beats {target_number} by {result - target_number} ≥ {self.threat_margin}, WOA-STAT-06)"
        return None

    def confirmation_target(self, view: View, attack: AttackInfo, target_number: int) -> tuple[int, str]:
        defense: Any = self.rules.defense
        bonus_of = getattr(defense, "confirmation_bonus", None)
        if bonus_of is None:
            return target_number, ""
        bonus = bonus_of(view.creature(attack.target), DefenseContext(touch=attack.option.weapon.touch))
        if bonus is None:
            return target_number, ""
        return target_number + bonus.value, f" (+{bonus.value} {bonus.source}, WOA-STAT-41)"
