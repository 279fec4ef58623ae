"""Off-guard's cover (:class:`~d20combat.rulesets.off_guard.cover.SoftAndImprovedCover`) in the kernel, switched
on by ``kn[K_COVER_CMV]``; the lines are the core's (:func:`.geometry.cover_degree`).

- Low obstacles count only within 30 ft of the target (CMV-COV-06): each connected run of low walls (labels in the
  map plane ``LOW_RUN_PLANE``) is kept when one of its squares is that near, else cleared for this attack — in a
  scratch copy of the low walls, and only inside the box of both footprints, where every line runs.
- Adjacent melee: any line from an attacker square to an adjacent target square, walls and low walls only, and
  total cover counts as cover (CMV-COV-04, CMV-COV-14/15).
- Ranged and reach attacks: the attacker's best corner of any of its squares, against the whole target (each of
  a big target's squares in melee), creatures giving soft cover — to reach attacks too unless
  ``cmv_soft_cover_ranged_only`` (CMV-COV-01/02/05/11).

Soft, hard and the +4 they give are the same to the attack; improved cover (+8) and narrow openings are refused by
the compile step, as is the variant that drops a low obstacle on a tie of distances (CMV-COV-07).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.geometry import COVER, NONE, TOTAL, cover_degree
from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import PC, PR
from d20combat.simulation.fast.layout import LOW_RUN_PLANE, SIZE

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
U8 = npt.NDArray[np.uint8]

LOW_OBSTACLE_REACH_FT = 30


@njit_borrowing
def _run_near(light: I64, label: int, tc: int, tr: int, tsize: int) -> bool:
    """Some square of low-wall run ``label`` lies within 30 ft of the target (``obstacle_distance_ft`` ≤ 30)."""
    span = LOW_OBSTACLE_REACH_FT // 5
    for c in range(max(tc - span, 0), min(tc + tsize + span, light.shape[1])):
        for r in range(max(tr - span, 0), min(tr + tsize + span, light.shape[2])):
            if light[LOW_RUN_PLANE, c, r] == label and fp_dist(c, r, 1, tc, tr, tsize) <= LOW_OBSTACLE_REACH_FT:
                return True
    return False


@njit_borrowing
def _filter_low(low: U8, scratch: U8, light: I64, c0: int, c1: int, r0: int, r1: int, tc: int, tr: int,
                tsize: int) -> None:
    """``SoftAndImprovedCover._cover_map`` inside the box: the low walls of runs near enough to the target."""
    for c in range(c0, c1):
        for r in range(r0, r1):
            if low[c, r]:
                scratch[c, r] = 1 if _run_near(light, light[LOW_RUN_PLANE, c, r], tc, tr, tsize) else 0


@njit_borrowing
def _occupy(occ: I16, s: I64, cs: I64, i: int, delta: int) -> None:
    for dc in range(cs[i, SIZE]):
        for dr in range(cs[i, SIZE]):
            occ[s[i, PC] + dc, s[i, PR] + dr] += delta


@njit_borrowing
def _best(best: int, degree: int) -> int:
    """``_best_for_attacker``: no cover if any fact has none, else cover if any has it, else total."""
    if best == NONE or degree == NONE:
        return NONE
    if best == COVER or degree == COVER:
        return COVER
    return TOTAL


@njit_borrowing
def soft_and_improved_cover(walls: U8, low: U8, scratch: U8, light: I64, occ: I16, s: I64, cs: I64, att: int,
                            tgt: int, fc: int, fr: int, ranged: bool, adjacent: bool, soft_ok: bool) -> int:
    """``SoftAndImprovedCover.find_cover(...).degree`` for ``att`` attacking from ``(fc, fr)``: NONE, COVER or
    TOTAL (the kernel's ``occ`` is every creature's squares; those of the two are left out, as the reference's
    ``creature_squares``)."""
    asize = cs[att, SIZE]
    tc, tr, tsize = s[tgt, PC], s[tgt, PR], cs[tgt, SIZE]
    w, h = walls.shape[0], walls.shape[1]
    c0, c1 = max(min(fc, tc), 0), min(max(fc + asize, tc + tsize), w)
    r0, r1 = max(min(fr, tr), 0), min(max(fr + asize, tr + tsize), h)
    _filter_low(low, scratch, light, c0, c1, r0, r1, tc, tr, tsize)
    best = -1
    if not ranged and adjacent:  # CMV-COV-04: any line between adjacent squares, never a creature
        for ac in range(fc, fc + asize):
            for ar in range(fr, fr + asize):
                for t_c in range(tc, tc + tsize):
                    for t_r in range(tr, tr + tsize):
                        if fp_dist(ac, ar, 1, t_c, t_r, 1) != 5:
                            continue
                        degree = cover_degree(walls, scratch, occ, False, ac, ar, 1, t_c, t_r, 1, True, False)
                        best = degree if best == -1 else _best(best, degree)
        if best == TOTAL:
            best = COVER
    else:  # CMV-COV-01/05: best corner of any attacker square; soft cover from creatures
        _occupy(occ, s, cs, att, -1)
        _occupy(occ, s, cs, tgt, -1)
        per_square = not ranged and tsize > 1
        for ac in range(fc, fc + asize):
            for ar in range(fr, fr + asize):
                if per_square:
                    for t_c in range(tc, tc + tsize):
                        for t_r in range(tr, tr + tsize):
                            degree = cover_degree(walls, scratch, occ, soft_ok, ac, ar, 1, t_c, t_r, 1, False, False)
                            best = degree if best == -1 else _best(best, degree)
                else:
                    degree = cover_degree(walls, scratch, occ, soft_ok, ac, ar, 1, tc, tr, tsize, False, False)
                    best = degree if best == -1 else _best(best, degree)
        _occupy(occ, s, cs, att, 1)
        _occupy(occ, s, cs, tgt, 1)
    for c in range(c0, c1):  # the scratch copy back to the map's low walls
        for r in range(r0, r1):
            scratch[c, r] = low[c, r]
    return NONE if best == -1 else best
