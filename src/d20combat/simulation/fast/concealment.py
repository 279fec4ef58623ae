"""Compiled terrain concealment, equal to ``battlefield.concealment``'s rules 1 and 2 (PFB-CONC-02/03).

Inside concealing terrain, and concealing terrain between attacker and defender, as percentages; the lines are
:mod:`geometry`'s. ``concealing`` is ``int16`` ``[c, r]``: -1 for a square not in ``GameMap.concealing``,
else its listed percent (>= 0). Squares off the map conceal nothing. Same conventions as :mod:`geometry`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.geometry import _in_fp
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.lines import _column_rows


@njit_borrowing
def _conceal_max(
    concealing: NDArray[np.int16],
    ac: int,
    ar: int,
    asize: int,
    tc: int,
    tr: int,
    tsize: int,
    px: int,
    py: int,
    qx: int,
    qy: int,
) -> int:
    """Strongest percent (> 0) among the squares line ``p``-``q`` crosses outside both footprints, else 0.

    The inner loop of ``concealment._between``: squares with no percent or ``<= 0`` and own squares
    are skipped there, and only the maximum matters. Squares scanned as in :func:`_wall_blocked`.
    """
    if qx < px:
        px, qx = qx, px
        py, qy = qy, py
    dx = qx - px
    dy = qy - py
    best = 0
    if dx == 0 or dy == 0:
        return best
    h = concealing.shape[1]
    for c in range(max(px, 0), min(qx, concealing.shape[0])):
        lo, hi = _column_rows(px, py, dx, dy, c, c + 1, dx)
        for r in range(max(lo, 0), min(hi, h)):
            pct = int(concealing[c, r])
            if pct > best and not (_in_fp(c, r, ac, ar, asize) or _in_fp(c, r, tc, tr, tsize)):
                best = pct
    return best


@njit_borrowing
def terrain_concealment(
    concealing: NDArray[np.int16], ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int
) -> tuple[int, int]:
    """The terrain sources of ``concealment_sources(gm, a_fp, Vision(), t_fp)`` as ``(inside, between)``.

    ``inside`` (rule 1, PFB-CONC-02): if EVERY defender square is listed as concealing, the
    weakest listed percent, kept only if > 0; else 0. ``between`` (rule 2, ``_between``,
    PFB-CONC-03 best-corner test): 0 if some attacker corner sees the defender with no concealing
    square (percent > 0, not either creature's) on any of its lines; else the minimum over attacker
    corners of the strongest percent that corner's lines cross. A source absent in the reference
    is 0 here (the reference never lists a source of 0%).
    """
    w = concealing.shape[0]
    h = concealing.shape[1]
    inside = 0
    all_listed = True
    weakest = 0
    first = True
    for c in range(tc, tc + tsize):
        for r in range(tr, tr + tsize):
            if not (0 <= c < w and 0 <= r < h) or concealing[c, r] < 0:
                all_listed = False
                break
            pct = int(concealing[c, r])
            if first or pct < weakest:
                weakest = pct
                first = False
        if not all_listed:
            break
    if all_listed and weakest > 0:
        inside = weakest

    # Every crossed square lies in the box of both footprints: nothing concealing there -> no source.
    c0 = max(min(ac, tc), 0)
    c1 = min(max(ac + asize, tc + tsize), w)
    r0 = max(min(ar, tr), 0)
    r1 = min(max(ar + asize, tr + tsize), h)
    found = False
    for c in range(c0, c1):
        for r in range(r0, r1):
            if concealing[c, r] > 0 and not (_in_fp(c, r, ac, ar, asize) or _in_fp(c, r, tc, tr, tsize)):
                found = True
                break
        if found:
            break
    if not found:
        return inside, 0

    between = 0
    for i in range(4):
        px = ac + asize * (i & 1)
        py = ar + asize * (i >> 1)
        worst = 0
        for j in range(4):
            qx = tc + tsize * (j & 1)
            qy = tr + tsize * (j >> 1)
            worst = max(worst, _conceal_max(concealing, ac, ar, asize, tc, tr, tsize, px, py, qx, qy))
        if worst == 0:
            return inside, 0  # this corner sees the defender clear
        if i == 0 or worst < between:
            between = worst
    return inside, between
