"""Off-guard's movement (:class:`~d20combat.rulesets.off_guard.movement.HalfSpeedUnlessAided`) in the kernel,
switched on by ``kn[K_MOVE_CMV]``: a staggered creature moves at half speed (CMV-INJ-07; a compiled battle has no
blinded, fatigued or guided creature, the other rows and the aid that change it), and the charge's −2 AC from
the start of the charge movement (``kn[K_CHARGE_EARLY]``, PFB-CHG-12 with ``cmv_charge_ac_from_start``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_injury import staggered
from d20combat.simulation.fast.layout import K_MOVE_CMV, LAND_SPEED, SPEED

I64 = npt.NDArray[np.int64]


@njit_borrowing
def speed_ft(s: I64, cs: I64, kn: I64, i: int) -> int:
    """``movement.speed_ft`` of creature ``i`` now: the tabled speed, or off-guard's land speed halved (rounded
    down to 5 ft) while staggered."""
    if not kn[K_MOVE_CMV]:
        return int(cs[i, SPEED])
    speed = cs[i, LAND_SPEED]
    if staggered(s, cs, i):
        speed = speed // 2 // 5 * 5
    return int(max(speed, 0))
