"""Compiled replica of the line tracer (``battlefield.lines``), exact bit for bit: the squares a line between two
points crosses, in the reference order, and whether it squeezes between two walls. :mod:`.geometry` (cover, line
of effect), :mod:`.concealment` and :mod:`.charge` trace their lines with it; the data conventions are
:mod:`.geometry`'s."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.grid import ceil_div, gcd, is_wall
from d20combat.simulation.fast.jit import njit_borrowing

# --------------------------------------------------------------------------------------------
# Lines (battlefield.lines)
# --------------------------------------------------------------------------------------------


@njit_borrowing
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


@njit_borrowing
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


@njit_borrowing
def crossed_into(px: int, py: int, qx: int, qy: int, out: NDArray[np.int64]) -> int:
    """Replicates ``lines.crossed((px, py), (qx, qy))``, i.e. ``squares_crossed_scaled(p, q, 1)``.

    See :func:`crossed_scaled_into`. A segment between grid points enters exactly
    ``|dx| + |dy| - gcd(|dx|, |dy|)`` squares (0 if it is axis-parallel), so ``out`` of shape
    ``(K, 2)`` with ``K >= |dx| + |dy|`` always suffices.
    """
    return crossed_scaled_into(px, py, qx, qy, 1, out)


@njit_borrowing
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
