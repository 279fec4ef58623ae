"""Compiled replicas of the cover and line geometry (fast path; terrain concealment is in :mod:`concealment`).

Each function here reproduces one reference function of :mod:`d20combat.battlefield` exactly,
bit for bit, on array maps instead of ``GameMap`` sets, so a simulated battle takes the very same
decisions as the reference engine. Only the verdicts are computed (a cover degree, percentages),
never the explanatory texts; so where the reference looks for the *first* blocker of a line, these
functions only ask *whether* one exists, and may scan the line in any order. The line tracer itself,
:func:`~.lines.crossed_scaled_into` (the one of the fast path, in :mod:`.lines`: :mod:`charge` traces charge
lines with it), keeps the reference order.

Data conventions (fixed; the kernels rely on them):

* Map arrays are indexed ``[c, r]`` (column, row), shape ``(W, H)``: ``walls`` and ``low_walls`` are
  ``uint8`` (1 = present).
* ``occ`` (``int16``) counts the on-map creatures covering each square. The attacker and the
  defender may be counted too: the reference skips their own squares anyway, so any other square
  with ``occ > 0`` is a square of some *other* creature, i.e. in the reference ``creature_squares``.
* A footprint is ``(c, r, size)``: origin square and side length in squares.
* Squares off the map count as empty (no wall, not concealing, no creature), which matches any
  ``GameMap`` whose sets hold on-map squares only.

All functions are written in the numba nopython subset and compiled by :func:`jit.njit`; with
``NUMBA_DISABLE_JIT=1`` (or without numba) they run as plain Python with identical results.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.grid import footprint_distance_ft
from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.lines import _column_rows as _column_rows
from d20combat.simulation.fast.lines import _squeezes_wall as _squeezes_wall
from d20combat.simulation.fast.lines import crossed_into as crossed_into
from d20combat.simulation.fast.lines import crossed_scaled_into as crossed_scaled_into

NONE = 0
"""Cover degree: no cover (``CoverDegree.NONE``)."""
PARTIAL = 1
"""Cover degree: partial cover, variant PFB-COV-16 (``CoverDegree.PARTIAL``)."""
COVER = 2
"""Cover degree: cover (``CoverDegree.COVER``)."""
TOTAL = 3
"""Cover degree: total cover, walls on every line (``CoverDegree.TOTAL``)."""


# --------------------------------------------------------------------------------------------
# Cover (battlefield.cover)
# --------------------------------------------------------------------------------------------


@njit_borrowing
def _in_fp(c: int, r: int, fc: int, fr: int, size: int) -> bool:
    """Whether square ``(c, r)`` belongs to footprint ``(fc, fr, size)``."""
    return fc <= c < fc + size and fr <= r < fr + size


@njit_borrowing
def _wall_blocked(walls: NDArray[np.uint8], px: int, py: int, qx: int, qy: int) -> bool:
    """``_Tracer.wall_blocker(p, q) is not None``: the line enters a wall or squeezes between two.

    Unlike ``first_blocker`` this does not skip the two creatures' own squares (as the reference).
    The squares of ``crossed_into(p, q)`` are scanned in place, in any order, clipped to the map.
    """
    if qx < px:
        px, qx = qx, px
        py, qy = qy, py
    dx = qx - px
    dy = qy - py
    if dx != 0 and dy != 0:
        h = walls.shape[1]
        for c in range(max(px, 0), min(qx, walls.shape[0])):
            lo, hi = _column_rows(px, py, dx, dy, c, c + 1, dx)
            for r in range(max(lo, 0), min(hi, h)):
                if walls[c, r] != 0:
                    return True
    return _squeezes_wall(walls, px, py, qx, qy)


LOW_WINDOW = 16
"""How far (in squares, each way) the flood fill of a low obstacle first looks: beyond it, the whole map."""


@njit
def _low_flood(
    low_walls: NDArray[np.uint8], c: int, r: int, ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int,
    span: int,
) -> tuple[bool, int, int]:
    """A flood fill over ``low_walls`` from ``(c, r)`` inside the window ``(c, r) ± span`` (clipped to the map):
    ``(complete, to_attacker, to_defender)``, ``complete`` false if the run leaves the window."""
    x0 = max(c - span, 0)
    y0 = max(r - span, 0)
    x1 = min(c + span + 1, low_walls.shape[0])
    y1 = min(r + span + 1, low_walls.shape[1])
    ww = x1 - x0
    wh = y1 - y0
    seen = np.zeros((ww, wh), dtype=np.uint8)
    stack = np.empty(ww * wh, dtype=np.int64)
    seen[c - x0, r - y0] = 1
    stack[0] = (c - x0) * wh + (r - y0)
    top = 1
    to_attacker = 1 << 30
    to_defender = 1 << 30
    w = low_walls.shape[0]
    h = low_walls.shape[1]
    while top > 0:
        top -= 1
        x = stack[top] // wh + x0
        y = stack[top] % wh + y0
        to_attacker = min(to_attacker, footprint_distance_ft(x, y, 1, ac, ar, asize))
        to_defender = min(to_defender, footprint_distance_ft(x, y, 1, tc, tr, tsize))
        for nx in range(max(x - 1, 0), min(x + 2, w)):
            for ny in range(max(y - 1, 0), min(y + 2, h)):
                if low_walls[nx, ny] == 0:
                    continue
                if not (x0 <= nx < x1 and y0 <= ny < y1):
                    return False, 0, 0
                if seen[nx - x0, ny - y0] == 0:
                    seen[nx - x0, ny - y0] = 1
                    stack[top] = (nx - x0) * wh + (ny - y0)
                    top += 1
    return True, to_attacker, to_defender


@njit_borrowing
def _low_obstacle_blocks(
    low_walls: NDArray[np.uint8], c: int, r: int, ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int
) -> bool:
    """``_Tracer.low_wall_blocks((c, r))`` (PFB-COV-08): the low obstacle holding ``(c, r)`` (its connected
    run of low-wall squares, edges and corners touching: ``cover.low_obstacle``) protects unless the
    attacker's nearest square is strictly closer to the obstacle's nearest square than the defender's.

    A flood fill over ``low_walls`` from ``(c, r)``, first within :data:`LOW_WINDOW` squares (its cost then
    does not depend on the map's size), over the whole map if the run reaches farther; the run's distances are
    minima over its squares (``cover.obstacle_distance_ft``, i.e. ``square_to_footprint_ft``), which do not
    depend on the order.
    """
    done, to_attacker, to_defender = _low_flood(low_walls, c, r, ac, ar, asize, tc, tr, tsize, LOW_WINDOW)
    if not done:
        span = max(low_walls.shape[0], low_walls.shape[1])
        done, to_attacker, to_defender = _low_flood(low_walls, c, r, ac, ar, asize, tc, tr, tsize, span)
    return to_attacker >= to_defender


@njit_borrowing
def _first_blocked(
    walls: NDArray[np.uint8],
    low_walls: NDArray[np.uint8],
    occ: NDArray[np.int16],
    use_creatures: bool,
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
) -> bool:
    """``_Tracer.first_blocker(p, q) is not None`` (PFB-COV-02/05/07/08).

    A crossed square other than the two creatures' own blocks if it is a wall, holds another
    creature, or is a low wall whose obstacle the attacker is not strictly closer to
    (:func:`_low_obstacle_blocks`); failing that, squeezing between two walls blocks.
    The reference's memo of low-wall verdicts only feeds its texts. Squares scanned as in
    :func:`_wall_blocked`.
    """
    if qx < px:
        px, qx = qx, px
        py, qy = qy, py
    dx = qx - px
    dy = qy - py
    if dx != 0 and dy != 0:
        h = walls.shape[1]
        for c in range(max(px, 0), min(qx, walls.shape[0])):
            lo, hi = _column_rows(px, py, dx, dy, c, c + 1, dx)
            for r in range(max(lo, 0), min(hi, h)):
                if _in_fp(c, r, ac, ar, asize) or _in_fp(c, r, tc, tr, tsize):
                    continue
                if walls[c, r] != 0:
                    return True
                if use_creatures and occ[c, r] > 0:
                    return True
                if low_walls[c, r] != 0 and _low_obstacle_blocks(low_walls, c, r, ac, ar, asize, tc, tr, tsize):
                    return True
    return _squeezes_wall(walls, px, py, qx, qy)


@njit_borrowing
def _walls_in_box(walls: NDArray[np.uint8], ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int) -> bool:
    """``_any_in_box(game_map.walls, _box(a, b), frozenset())``: the early exit of ``cover._total``."""
    c0 = max(min(ac, tc), 0)
    c1 = min(max(ac + asize, tc + tsize), walls.shape[0])
    r0 = max(min(ar, tr), 0)
    r1 = min(max(ar + asize, tr + tsize), walls.shape[1])
    for c in range(c0, c1):
        for r in range(r0, r1):
            if walls[c, r] != 0:
                return True
    return False


@njit_borrowing
def _total(walls: NDArray[np.uint8], ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int) -> bool:
    """``cover._total(...) is not None``: EVERY corner-to-corner line hits a wall (PFB-COV-09..11)."""
    if not _walls_in_box(walls, ac, ar, asize, tc, tr, tsize):
        return False
    # footprint_corners order: NW, NE, SW, SE (bit 0 = east, bit 1 = south); irrelevant to the verdict.
    for i in range(4):
        px = ac + asize * (i & 1)
        py = ar + asize * (i >> 1)
        for j in range(4):
            qx = tc + tsize * (j & 1)
            qy = tr + tsize * (j >> 1)
            if not _wall_blocked(walls, px, py, qx, qy):
                return False
    return True


@njit_borrowing
def cover_degree(
    walls: NDArray[np.uint8],
    low_walls: NDArray[np.uint8],
    occ: NDArray[np.int16],
    use_creatures: bool,
    ac: int,
    ar: int,
    asize: int,
    tc: int,
    tr: int,
    tsize: int,
    any_line: bool,
    partial: bool,
) -> int:
    """``cover.cover(...).degree`` as NONE/PARTIAL/COVER/TOTAL (PFB-COV-02..16).

    Same as ``cover(game_map, Footprint((ac, ar), asize), Footprint((tc, tr), tsize),
    mode="any_line" if any_line else "best_corner", creature_squares=..., partial_cover=partial)``
    where ``creature_squares`` holds every square with ``occ > 0`` outside the two footprints (or
    nothing if not ``use_creatures``). The reference's early exits are kept as they are, including
    the ones whose outcome depends on the creatures' own squares: the open-field exit ignores walls
    under the two footprints, while the total-cover test does not.
    """
    w = walls.shape[0]
    h = walls.shape[1]
    # _any_in_box over walls, low walls and creatures, own squares excluded: every line stays in the box.
    c0 = max(min(ac, tc), 0)
    c1 = min(max(ac + asize, tc + tsize), w)
    r0 = max(min(ar, tr), 0)
    r1 = min(max(ar + asize, tr + tsize), h)
    found = False
    for c in range(c0, c1):
        for r in range(r0, r1):
            if _in_fp(c, r, ac, ar, asize) or _in_fp(c, r, tc, tr, tsize):
                continue
            if walls[c, r] != 0 or low_walls[c, r] != 0 or (use_creatures and occ[c, r] > 0):
                found = True
                break
        if found:
            break
    if not found:
        return NONE

    if _total(walls, ac, ar, asize, tc, tr, tsize):
        return TOTAL

    if any_line:
        for i in range(4):
            px = ac + asize * (i & 1)
            py = ar + asize * (i >> 1)
            for j in range(4):
                qx = tc + tsize * (j & 1)
                qy = tr + tsize * (j >> 1)
                if _first_blocked(walls, low_walls, occ, use_creatures, ac, ar, asize, tc, tr, tsize, px, py, qx, qy):
                    return COVER
        return NONE

    # best_corner: the attacker takes the corner with the fewest blocked lines; one clear corner -> NONE.
    best = 4
    for i in range(4):
        px = ac + asize * (i & 1)
        py = ar + asize * (i >> 1)
        blocked = 0
        for j in range(4):
            qx = tc + tsize * (j & 1)
            qy = tr + tsize * (j >> 1)
            if _first_blocked(walls, low_walls, occ, use_creatures, ac, ar, asize, tc, tr, tsize, px, py, qx, qy):
                blocked += 1
        if blocked == 0:
            return NONE
        best = min(best, blocked)
    if partial and 2 * best < 4:
        return PARTIAL
    return COVER


@njit_borrowing
def line_of_effect(walls: NDArray[np.uint8], ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int) -> bool:
    """``cover.line_of_effect(game_map, a, b)``: true unless walls give total cover (PFB-COV-11)."""
    return not _total(walls, ac, ar, asize, tc, tr, tsize)
