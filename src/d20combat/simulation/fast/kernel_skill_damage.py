"""Skill-based's damage and concealment in the kernel: armor as mitigation (:class:`ArmorRatingDamage`, switched
on by ``kn[K_SKL_MITIGATE]``) and no miss chance from concealment (:class:`NoConcealment`, ``kn[K_SKL_NO_CONC]``).

SKL-DMG-03/04: the defender's armor rating comes off the rolled damage (its floor before armor is the
component's ``minimum_damage``, −99, written into ``kn[K_MIN_DAMAGE]`` by the compile step), and the result is
floored at 0 (``skl_min_damage_1``: 1). The rating of creature ``i`` is ``kn[K_SKL_ARMOR + i]``.

Rules-diff P18: skill-based has no concealment. The sources are still found as PFB's strongest concealment finds
them — a target in total concealment is still attacked in a square the attacker names — but the combined miss
chance is 0: no d% is rolled, the AI's odds are not reduced, and as the miss chance is below 50 % the attack is
not one into a guessed square (a miss shows its roll, unlike PFB-CONC-12's bare "miss").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.layout import K_SKL_ARMOR, K_SKL_MIN_AFTER, K_SKL_MITIGATE, K_SKL_NO_CONC

I64 = npt.NDArray[np.int64]


@njit_borrowing
def mitigate(kn: I64, target: int, amount: int) -> int:
    """``ArmorRatingDamage.mitigate`` (SKL-DMG-03/04): the damage less the target's armor rating, floored;
    the amount unchanged under any other damage component."""
    if not kn[K_SKL_MITIGATE]:
        return amount
    return max(amount - int(kn[K_SKL_ARMOR + target]), int(kn[K_SKL_MIN_AFTER]))


@njit_borrowing
def miss_chance(kn: I64, pct: int) -> int:
    """The combined miss chance: ``pct`` (the sources' combination, negative when total), or 0 under
    ``NoConcealment``."""
    return 0 if kn[K_SKL_NO_CONC] else pct
