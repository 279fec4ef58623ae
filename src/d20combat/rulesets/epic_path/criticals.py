"""P11 criticals of Epic Path (EP-CRIT): threats and confirmation as the core has them, multipliers that only ever
grow by additive steps, and what a critical hit multiplies."""

from __future__ import annotations

from d20combat.model.creature import AttackOption
from d20combat.rulesets.components import ThreatAndConfirm

INCREASED_MULTIPLIER = "increased-multiplier"
"""A weapon quality (or an effect written onto the weapon) that 'increases' — or even 'doubles' — the critical
multiplier: each one adds exactly one step (EP-CRIT-12)."""


class AdditiveCriticals(ThreatAndConfirm):
    """EP-CRIT-01..13, EP-CRIT-17/18: a natural 20 hits and threatens; a threat range below 20 threatens only on a hit,
    never an automatic hit (EP-CRIT-01/08/09/10); the confirmation roll is a second attack roll with the same
    modifiers against the same AC, a natural 1 never confirms and a natural 20 always does (EP-CRIT-02/03). The
    weapon's multiplier (×2 unless stated, EP-CRIT-05/11) grows by +1 per 'increase', never multiplicatively
    (EP-CRIT-12); lance and brace add their step in the damage (EP-CRIT-17/18). What a critical multiplies — the base
    dice and the static adders, never precision or quality dice (EP-CRIT-04/06/07) — is the damage area's. A spell
    with an attack roll uses its own threat range and multiplier like a weapon (EP-CRIT-13)."""

    def crit_profile(self, option: AttackOption) -> tuple[int, int]:
        """(lowest threatening face, multiplier with its additive steps, EP-CRIT-05/11/12)."""
        steps = option.weapon.qualities.count(INCREASED_MULTIPLIER)
        return option.weapon.threat_min, option.weapon.crit_mult + steps
