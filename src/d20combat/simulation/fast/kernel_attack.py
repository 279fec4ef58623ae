"""Off-guard's attack (:class:`~d20combat.rulesets.off_guard.attack.SituationalModifiers`) in the kernel, switched
on by ``kn[K_ATK_CMV]``: the attacker's situational modifiers (CMV-SIT-01) — the table's attack rows (bloodied −1,
CMV-INJ-02: derived from damage taken), squeezing −4 in a narrow square (CMV-SIT-10), higher ground +1
(CMV-SIT-04, the map plane ``ELEVATION_PLANE``; melee only with ``cmv_higher_ground_melee_only``) and flanking +2
in melee with an ally that threatens the target from its opposite side (CMV-COND-33/34, PF1's centre line,
``battlefield.flanking``, in exact integer arithmetic).

Like the reference, every modifier is judged where the attacker stands in the state, not from a square it only
plans to attack from. The prone, fatigued, frightened and panicked rows never occur in a compiled battle, and
maps with narrow openings (CMV-COV-23) are refused by the compile step.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import within_reach
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import CB_COWERING, COND, DOWN, PC, PR, WIELD
from d20combat.simulation.fast.kernel_injury import damage_taken
from d20combat.simulation.fast.layout import (
    ELEVATION_PLANE,
    ID_RANK,
    K_ATK_BLOODIED_UP,
    K_ATK_CMV,
    K_HIGHER_MELEE_ONLY,
    N_ATTACKS,
    NARROW_PLANE,
    RANGED,
    REACH,
    SHEET_HP,
    SIDE,
    SIZE,
)

I64 = npt.NDArray[np.int64]

_W, _E, _N, _S = 1, 2, 4, 8


@njit_borrowing
def _sides(xn: int, yn: int, d: int, x0: int, x1: int, y0: int, y1: int) -> int:
    """``flanking._sides`` of the point (xn / d, yn / d) as bits W, E, N, S."""
    out = 0
    if xn == x0 * d:
        out |= _W
    if xn == x1 * d:
        out |= _E
    if yn == y0 * d:
        out |= _N
    if yn == y1 * d:
        out |= _S
    return out


@njit_borrowing
def crossing(px: int, py: int, qx: int, qy: int, x0: int, x1: int, y0: int, y1: int) -> tuple[bool, int, int]:
    """``flanking.crossing``: (passes through the box's open interior, sides entered, sides left); the parameters
    t are kept as exact fractions num / den (den > 0)."""
    t0n, t0d, t1n, t1d = 0, 1, 1, 1
    dx, dy = qx - px, qy - py
    for axis in range(2):
        delta = dx if axis == 0 else dy
        lo = x0 if axis == 0 else y0
        hi = x1 if axis == 0 else y1
        start = px if axis == 0 else py
        if delta == 0:
            if not lo < start < hi:
                return False, 0, 0
            continue
        an, bn, den = lo - start, hi - start, delta
        if den < 0:
            an, bn, den = -an, -bn, -den
        if an > bn:
            an, bn = bn, an
        if an * t0d > t0n * den:
            t0n, t0d = an, den
        if bn * t1d < t1n * den:
            t1n, t1d = bn, den
        if t0n * t1d >= t1n * t0d:
            return False, 0, 0
    enter = _sides(px * t0d + t0n * dx, py * t0d + t0n * dy, t0d, x0, x1, y0, y1)
    leave = _sides(px * t1d + t1n * dx, py * t1d + t1n * dy, t1d, x0, x1, y0, y1)
    return True, enter, leave


@njit_borrowing
def flanks(ac: int, ar: int, an: int, bc: int, br: int, bn: int, tc: int, tr: int, tn: int) -> bool:
    """``flanking.flanking_fact(...) is not None``: a line between the centres of a square of each crosses
    opposite borders (or corners) of the defender's space."""
    x0, x1, y0, y1 = 2 * tc, 2 * (tc + tn), 2 * tr, 2 * (tr + tn)
    for a_c in range(ac, ac + an):
        for a_r in range(ar, ar + an):
            for b_c in range(bc, bc + bn):
                for b_r in range(br, br + bn):
                    ok, enter, leave = crossing(2 * a_c + 1, 2 * a_r + 1, 2 * b_c + 1, 2 * b_r + 1, x0, x1, y0, y1)
                    if not ok:
                        continue
                    if (enter & _N and leave & _S) or (enter & _S and leave & _N) or (enter & _W and leave & _E) \
                            or (enter & _E and leave & _W):
                        return True
    return False


@njit_borrowing
def _melee_reach(s: I64, cs: I64, opt: I64, i: int) -> int:
    """``melee_weapon_in_hand``: the creature's reach with a melee weapon in hand, else 0 (threatens nothing)."""
    o = s[i, WIELD]
    if o < 0 or o >= cs[i, N_ATTACKS] or opt[i, o, RANGED]:
        return 0
    return int(cs[i, REACH])


@njit_borrowing
def flanked(s: I64, cs: I64, opt: I64, att: int, tgt: int) -> bool:
    """``SituationalModifiers.flanking``: an ally (in the order of names) that can act, is not helpless, has a
    melee weapon in hand and reaches the target, on its opposite side (CMV-COND-33/34)."""
    n = s.shape[0]
    for rank in range(n):
        for ally in range(n):
            if cs[ally, ID_RANK] != rank or ally == att or ally == tgt or cs[ally, SIDE] != cs[att, SIDE]:  # noqa: SIM109 - numba
                continue
            if s[ally, DOWN] or s[ally, COND] & CB_COWERING:  # cannot act, helpless or without actions
                continue
            reach = _melee_reach(s, cs, opt, ally)
            if reach <= 0 or not within_reach(s[ally, PC], s[ally, PR], cs[ally, SIZE], reach, s[tgt, PC],
                                              s[tgt, PR], cs[tgt, SIZE]):
                continue
            if flanks(s[att, PC], s[att, PR], cs[att, SIZE], s[ally, PC], s[ally, PR], cs[ally, SIZE], s[tgt, PC],
                      s[tgt, PR], cs[tgt, SIZE]):
                return True
    return False


@njit_borrowing
def _in_plane(light: I64, plane: int, c0: int, r0: int, size: int) -> bool:
    for c in range(c0, c0 + size):
        for r in range(r0, r0 + size):
            if 0 <= c < light.shape[1] and 0 <= r < light.shape[2] and light[plane, c, r]:
                return True
    return False


@njit_borrowing
def _elevation(light: I64, c: int, r: int) -> int:
    if 0 <= c < light.shape[1] and 0 <= r < light.shape[2]:
        return int(light[ELEVATION_PLANE, c, r])
    return 0


@njit_borrowing
def higher_ground(s: I64, cs: I64, light: I64, att: int, tgt: int) -> bool:
    """CMV-SIT-04: the attacker's lowest square stands higher than the defender's highest."""
    low = 1 << 40
    for c in range(s[att, PC], s[att, PC] + cs[att, SIZE]):
        for r in range(s[att, PR], s[att, PR] + cs[att, SIZE]):
            low = min(low, _elevation(light, c, r))
    high = -(1 << 40)
    for c in range(s[tgt, PC], s[tgt, PC] + cs[tgt, SIZE]):
        for r in range(s[tgt, PR], s[tgt, PR] + cs[tgt, SIZE]):
            high = max(high, _elevation(light, c, r))
    return low > high


@njit_borrowing
def situational(s: I64, cs: I64, opt: I64, kn: I64, light: I64, att: int, tgt: int, ranged: bool) -> int:
    """``SituationalModifiers.situational_attack_modifiers``, summed (they are untyped and add, CMV-SIT-03)."""
    if not kn[K_ATK_CMV]:
        return 0
    total = 0
    hp = cs[att, SHEET_HP]
    dmg = damage_taken(s, cs, att)
    if dmg > 0 and (2 * dmg >= hp if kn[K_ATK_BLOODIED_UP] else dmg >= hp // 2):
        total -= 1  # bloodied (CMV-INJ-02)
    if _in_plane(light, NARROW_PLANE, s[att, PC], s[att, PR], cs[att, SIZE]):
        total -= 4  # squeezing (CMV-SIT-10)
    if (not ranged or not kn[K_HIGHER_MELEE_ONLY]) and higher_ground(s, cs, light, att, tgt):
        total += 1
    if not ranged and flanked(s, cs, opt, att, tgt):
        total += 2
    return total
