"""Critical threats, confirmation and multipliers (PFB-CRIT)."""

from __future__ import annotations

from d20combat.model.creature import AttackOption


def crit_profile(option: AttackOption) -> tuple[int, int]:
    """(lowest threatening face, multiplier). Spells threaten on 20 only, at ×2 (PFB-CRIT-15/16)."""
    if option.weapon.kind.value == "spell":
        return 20, 2
    return option.weapon.threat_min, option.weapon.crit_mult


def is_threat(face: int, threat_min: int, hit: bool) -> bool:
    """A natural 20 always threatens; 18–19 threaten only if the attack hits (PFB-CRIT-01/06..08)."""
    return face == 20 or (hit and face >= threat_min)
