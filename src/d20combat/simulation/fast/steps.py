"""Compiled footprint steps, equal bit for bit to the reference (PFB-MOVE-16, PFB-MOVE-17, PFB-MOVE-21/22).

Exact ports, in the numba nopython subset, of ``battlefield.movement``'s ``_fill_moves`` / ``_move_table``,
``footprint_step_cost`` and ``_cost``: what one step of a footprint costs on the terrain alone. Data
conventions as in :mod:`paths`, whose search reads the map only through :func:`move_table`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.grid import SQUARE_FT, is_passable, is_wall
from d20combat.simulation.fast.jit import njit, njit_borrowing

# Same order as ``movement._DIRECTIONS`` (the order only matters for the layout of a move table).
_DC = (0, -1, 1, 0, -1, 1, -1, 1)
_DR = (-1, 0, 0, 1, -1, -1, 1, 1)



# --------------------------------------------------------------------------- one step of a footprint


@njit_borrowing
def _step(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    c0: int,
    r0: int,
    size: int,
    dc: int,
    dr: int,
    flying: bool,
    counts: bool,
) -> tuple[int, int, int]:
    """One terrain-only move, as ``movement._fill_moves`` builds it: ``(cost if even, cost if odd, increment)``.

    ``(0, 0, 0)`` if illegal: a new square off the map, a wall or a pit, or a diagonal cutting a wall corner
    (PFB-MOVE-17). Difficult if ANY newly entered square is difficult, unless flying (PFB-MOVE-21..23).
    """
    nc = c0 + dc
    nr = r0 + dr
    diagonal = dc != 0 and dr != 0
    if size == 1:  # the common case, spelled out as ``_fill_moves`` does
        if not is_passable(passable, nc, nr):
            return 0, 0, 0
        if diagonal and (is_wall(walls, nc, r0) or is_wall(walls, c0, nr)):
            return 0, 0, 0
        if flying or difficult[nc, nr] == 0:
            return (SQUARE_FT, 2 * SQUARE_FT, 1) if diagonal else (SQUARE_FT, SQUARE_FT, 0)
        return (3 * SQUARE_FT, 3 * SQUARE_FT, 1 if counts else 0) if diagonal else (2 * SQUARE_FT, 2 * SQUARE_FT, 0)
    for c in range(nc, nc + size):
        for r in range(nr, nr + size):
            if not is_passable(passable, c, r):
                return 0, 0, 0
    if diagonal:
        for c in range(c0, c0 + size):
            for r in range(r0, r0 + size):
                if is_wall(walls, c + dc, r) or is_wall(walls, c, r + dr):
                    return 0, 0, 0
    hard = False
    if not flying:
        for c in range(nc, nc + size):
            for r in range(nr, nr + size):
                if c0 <= c < c0 + size and r0 <= r < r0 + size:
                    continue  # already occupied before the step: not entered
                if difficult[c, r] != 0:
                    hard = True
    if diagonal:
        if hard:
            return 3 * SQUARE_FT, 3 * SQUARE_FT, 1 if counts else 0
        return SQUARE_FT, 2 * SQUARE_FT, 1
    if hard:
        return 2 * SQUARE_FT, 2 * SQUARE_FT, 0
    return SQUARE_FT, SQUARE_FT, 0


@njit_borrowing
def footprint_step_cost(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    c: int,
    r: int,
    size: int,
    tc: int,
    tr: int,
    diagonals_so_far: int,
    flying: bool,
    counts: bool,
) -> tuple[int, int]:
    """``movement.footprint_step_cost`` (with ``_cost``): ``(cost_ft, new_diagonal_count)``, or ``(-1, -1)`` for None.

    Moving footprint ``(c, r, size)`` to the neighbouring origin ``(tc, tr)``, ignoring creatures
    (PFB-MOVE-16, PFB-MOVE-17, PFB-MOVE-21/22).
    """
    dc = tc - c
    dr = tr - r
    if (dc == 0 and dr == 0) or abs(dc) > 1 or abs(dr) > 1:
        return -1, -1
    even, odd, inc = _step(passable, walls, difficult, c, r, size, dc, dr, flying, counts)
    if even == 0:
        return -1, -1
    return (odd if diagonals_so_far % 2 != 0 else even), diagonals_so_far + inc


@njit
def move_table(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    size: int,
    flying: bool,
    counts: bool,
) -> NDArray[np.int64]:
    """Every terrain-legal move of a ``size`` footprint: the whole ``movement._move_table`` of a map at once.

    Shape ``(W, H, 8, 3)``: for origin ``[c, r]`` and direction ``d`` (in ``movement._DIRECTIONS`` order,
    offsets ``(_DC[d], _DR[d])``) the triple ``(cost if the counter is even, cost if odd, counter increment)``
    of ``_fill_moves``; ``(0, 0, 0)`` marks an illegal move. Terrain never changes during an encounter, so a
    caller running many searches on one map builds this once (callable from plain Python) and passes it to
    :func:`reachable_with_table`.
    """
    w, h = passable.shape
    table = np.zeros((w, h, 8, 3), np.int64)
    for c in range(w):
        for r in range(h):
            for d in range(8):
                even, odd, inc = _step(passable, walls, difficult, c, r, size, _DC[d], _DR[d], flying, counts)
                table[c, r, d, 0] = even
                table[c, r, d, 1] = odd
                table[c, r, d, 2] = inc
    return table
