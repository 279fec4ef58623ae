"""Compiled replicas of the cover and line geometry (fast path; terrain concealment is in :mod:`concealment`).

Each function here reproduces one reference function of :mod:`d20combat.battlefield` exactly,
bit for bit, on array maps instead of ``GameMap`` sets, so a simulated battle takes the very same
decisions as the reference engine. Only the verdicts are computed (a cover degree, percentages),
never the explanatory texts; so where the reference looks for the *first* blocker of a line, these
functions only ask *whether* one exists, and may scan the line in any order. The line tracer itself,
:func:`crossed_scaled_into` (the one of the fast path: :mod:`charge` traces charge lines with it), keeps
the reference order.

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

from d20combat.simulation.fast.grid import ceil_div, footprint_distance_ft, gcd, is_wall
from d20combat.simulation.fast.jit import njit

NONE = 0
"""Cover degree: no cover (``CoverDegree.NONE``)."""
PARTIAL = 1
"""Cover degree: partial cover, variant PFB-COV-16 (``CoverDegree.PARTIAL``)."""
COVER = 2
"""Cover degree: cover (``CoverDegree.COVER``)."""
TOTAL = 3
"""Cover degree: total cover, walls on every line (``CoverDegree.TOTAL``)."""


# --------------------------------------------------------------------------------------------
# Lines (battlefield.lines)
# --------------------------------------------------------------------------------------------


@njit
def _column_rows(px: int, py: int, dx: int, dy: int, xa: int, xb: int, denom: int) -> tuple[int, int]:
    """The rows ``[lo, hi)`` a slanted segment enters between ``x = xa`` and ``x = xb``: one column of a line.

    The per-column arithmetic of ``lines.squares_crossed_scaled``, for the segment from ``(px, py)`` with
    ``dx > 0``, ``dy != 0`` and ``denom = dx * scale``: ``y(x) * dx = py * dx + (x - px) * dy`` exactly, so
    the rows run from the floor of the lower to the ceiling of the upper end of ``y`` over the stretch.
    Shared by the tracer and by the verdict-only scans below, which call it at scale 1 (``xb = xa + 1``,
    ``denom = dx``) on each column in place: collecting a line's squares into a buffer first and testing
    them afterwards made ``cover_degree`` about 1.5 times slower.
    """
    if denom <= 0:
        # Never taken (dx > 0), but it proves the divisions below safe: numba then drops its division-by-zero
        # exit and LLVM inlines this helper into the hot scans. With the exit it stays a real call per column,
        # and cover_degree runs about 20% slower.
        return 0, 0
    na = py * dx + (xa - px) * dy
    nb = py * dx + (xb - px) * dy
    # ceil_div spelled out: calling it would bring its own division-by-zero exit back.
    if na < nb:
        return na // denom, -((-nb) // denom)
    return nb // denom, -((-na) // denom)


@njit
def crossed_scaled_into(px: int, py: int, qx: int, qy: int, scale: int, out: NDArray[np.int64]) -> int:
    """Replicates ``lines.squares_crossed_scaled((px, py), (qx, qy), scale)``, order included.

    Coordinates are in units of ``1/scale`` square (``scale=2`` puts square centres on odd
    coordinates). Writes the squares the segment enters into ``out[i, 0]`` (column) and
    ``out[i, 1]`` (row), in the reference order (from ``p`` to ``q``), and returns their count.
    ``out`` of shape ``(K, 2)`` with ``K >= (|qx - px| + |qy - py|) // scale + 3`` always suffices
    (``K >= |dx| + |dy|`` at scale 1). Callers that only need the set pass ``px <= qx`` (no reversal).
    """
    if px == qx and py == qy:
        # A single point is "in" a square only if it lies strictly inside it.
        if px % scale != 0 and py % scale != 0:
            out[0, 0] = px // scale
            out[0, 1] = py // scale
            return 1
        return 0
    backwards = qx < px
    if backwards:  # the reference scans from q to p and reverses the list
        px, py, qx, qy = qx, qy, px, py
    dx = qx - px
    dy = qy - py
    denom = dx * scale
    if dx == 0:
        if px % scale == 0:
            return 0  # runs along a grid line
        c_end = px // scale + 1  # one column, its rows ordered by the sign of dy like every column's
    else:
        c_end = ceil_div(qx, scale)
    n = 0
    for c in range(px // scale, c_end):
        if dx == 0:
            lo = min(py, qy) // scale
            hi = ceil_div(max(py, qy), scale)
        else:
            xa = max(px, c * scale)
            xb = min(qx, (c + 1) * scale)
            if xa >= xb:
                continue
            if dy == 0:
                if py % scale == 0:
                    return 0  # runs along a grid line
                lo = py // scale
                hi = lo + 1
            else:
                lo, hi = _column_rows(px, py, dx, dy, xa, xb, denom)
        for i in range(hi - lo):
            out[n, 0] = c
            out[n, 1] = hi - 1 - i if dy < 0 else lo + i
            n += 1
    if backwards:
        i = 0
        j = n - 1
        while i < j:
            c = out[i, 0]
            r = out[i, 1]
            out[i, 0] = out[j, 0]
            out[i, 1] = out[j, 1]
            out[j, 0] = c
            out[j, 1] = r
            i += 1
            j -= 1
    return n


@njit
def crossed_into(px: int, py: int, qx: int, qy: int, out: NDArray[np.int64]) -> int:
    """Replicates ``lines.crossed((px, py), (qx, qy))``, i.e. ``squares_crossed_scaled(p, q, 1)``.

    See :func:`crossed_scaled_into`. A segment between grid points enters exactly
    ``|dx| + |dy| - gcd(|dx|, |dy|)`` squares (0 if it is axis-parallel), so ``out`` of shape
    ``(K, 2)`` with ``K >= |dx| + |dy|`` always suffices.
    """
    return crossed_scaled_into(px, py, qx, qy, 1, out)


@njit
def _squeezes_wall(walls: NDArray[np.uint8], px: int, py: int, qx: int, qy: int) -> bool:
    """Whether ``_Tracer.squeeze_wall`` finds a pair of ``lines.squeezes(p, q)`` that are both walls.

    Same pairs as the reference (PFB-COV-02/10 reading): along a grid line, the two squares
    sharing each unit edge covered; for a slanted segment, the two squares it only touches at each
    grid point strictly between ``p`` and ``q``. Order does not matter for a yes/no answer.
    """
    dx = qx - px
    dy = qy - py
    if dx == 0 and dy == 0:
        return False
    if dy == 0:
        for c in range(min(px, qx), max(px, qx)):  # noqa: SIM110 - numba compiles no generators
            if is_wall(walls, c, py - 1) and is_wall(walls, c, py):
                return True
        return False
    if dx == 0:
        for r in range(min(py, qy), max(py, qy)):  # noqa: SIM110 - numba compiles no generators
            if is_wall(walls, px - 1, r) and is_wall(walls, px, r):
                return True
        return False
    g = gcd(dx, dy)
    ux = dx // g
    uy = dy // g
    sx = 1 if dx > 0 else 0
    sy = 1 if dy > 0 else 0
    for k in range(1, g):
        x = px + k * ux
        y = py + k * uy
        # Entered squares are on the (-dx,-dy) and (+dx,+dy) sides; the other two are touched.
        if is_wall(walls, x - sx, y - 1 + sy) and is_wall(walls, x - 1 + sx, y - sy):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Cover (battlefield.cover)
# --------------------------------------------------------------------------------------------


@njit
def _in_fp(c: int, r: int, fc: int, fr: int, size: int) -> bool:
    """Whether square ``(c, r)`` belongs to footprint ``(fc, fr, size)``."""
    return fc <= c < fc + size and fr <= r < fr + size


@njit
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


@njit
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


@njit
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


@njit
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


@njit
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


@njit
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


@njit
def line_of_effect(walls: NDArray[np.uint8], ac: int, ar: int, asize: int, tc: int, tr: int, tsize: int) -> bool:
    """``cover.line_of_effect(game_map, a, b)``: true unless walls give total cover (PFB-COV-11)."""
    return not _total(walls, ac, ar, asize, tc, tr, tsize)
