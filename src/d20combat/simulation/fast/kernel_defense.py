"""Off-guard's defense (:class:`~d20combat.rulesets.off_guard.defense.OffGuardDefense`) in the kernel, switched
on by ``kn[K_DEF_CMV]``.

Off-guard replaces flat-footed (CMV-SIT-07, CMV-COND-37/38): the tabled Armor Class of the flat-footed context
already holds its −2 and lost Dex (and the helpless context its −5 Dex / −4 against melee, CMV-HELP-02..04),
since the compile step asks the component itself. What changes as the battle runs is *when* a defender is
off-guard: the surprised from the start of the surprise round until their first turn in a normal one
(CMV-COND-40/41, the stored condition bit ``CB_OFF_GUARD``), and against an attacker it cannot see — total
concealment by darkness from where it stands (CMV-COND-40, variant ``cmv_surprise_unseen_attacker``); and a
defender squeezing in a narrow square takes −4 (CMV-SIT-10/11, the map plane ``NARROW_PLANE``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import CB_COWERING, CB_OFF_GUARD, COND, PC, PR, SURPRISED, T_SURPRISE
from d20combat.simulation.fast.kernel_concealment import light_sources
from d20combat.simulation.fast.kernel_injury import set_condition
from d20combat.simulation.fast.layout import ID_RANK, K_DEF_CMV, K_UNSEEN, NARROW_PLANE, SIZE

I64 = npt.NDArray[np.int64]

RC_SURPRISED, RC_CHANCE_TO_ACT = 20, 21
"""The reasons of off-guard's ``ConditionSet`` rows (after kernel_injury's)."""


@njit_borrowing
def start_of_round(ev: I64, s: I64, cs: I64, t: I64, kn: I64) -> None:
    """``OffGuardDefense.start_of_round``: in the surprise round the surprised are off-guard (CMV-COND-40), set
    in the order of their names."""
    if not kn[K_DEF_CMV] or not t[T_SURPRISE]:
        return
    n = s.shape[0]
    for rank in range(n):
        for i in range(n):
            if cs[i, ID_RANK] == rank and s[i, SURPRISED] and not s[i, COND] & CB_OFF_GUARD:
                set_condition(ev, s, cs, t, kn, i, CB_OFF_GUARD, True, RC_SURPRISED)


@njit_borrowing
def start_of_turn(ev: I64, s: I64, cs: I64, t: I64, kn: I64, actor: int) -> None:
    """``OffGuardDefense.start_of_turn``: no longer off-guard once it gets a chance to act (CMV-COND-41)."""
    if kn[K_DEF_CMV] and s[actor, COND] & CB_OFF_GUARD and not (t[T_SURPRISE] and s[actor, SURPRISED]):
        set_condition(ev, s, cs, t, kn, actor, CB_OFF_GUARD, False, RC_CHANCE_TO_ACT)


@njit_borrowing
def off_guard(s: I64, cs: I64, t: I64, kn: I64, light: I64, att: int, tgt: int) -> int:
    """The defense context's flat-footed: surprised in the surprise round (PFB-SURP-09), and with off-guard's
    defense also off-guard (CMV-COND-37) or attacked by a foe it cannot see (CMV-COND-40): 1 or 0."""
    if t[T_SURPRISE] and s[tgt, SURPRISED]:
        return 1
    if not kn[K_DEF_CMV]:
        return 0
    if s[tgt, COND] & (CB_OFF_GUARD | CB_COWERING):  # cowering includes off-guard (CMV-COND-30)
        return 1
    if kn[K_UNSEEN]:
        # totally_concealed(target sees attacker): darkness on every square of the attacker, out of darkvision
        dist = fp_dist(s[tgt, PC], s[tgt, PR], cs[tgt, SIZE], s[att, PC], s[att, PR], cs[att, SIZE])
        _dim, dark = light_sources(light, cs, tgt, s[att, PC], s[att, PR], cs[att, SIZE], dist, False)
        if dark > 0:
            return 1
    return 0


@njit_borrowing
def squeezing(s: I64, cs: I64, kn: I64, light: I64, i: int) -> int:
    """CMV-SIT-10/11: −4 Armor Class while any square of its space is narrow (0 without off-guard's defense)."""
    if not kn[K_DEF_CMV]:
        return 0
    size = cs[i, SIZE]
    for dc in range(size):
        for dr in range(size):
            c, r = s[i, PC] + dc, s[i, PR] + dr
            if 0 <= c < light.shape[1] and 0 <= r < light.shape[2] and light[NARROW_PLANE, c, r]:
                return -4
    return 0
