"""Grid measures and map look-ups shared by the compiled fast path (one place for the kernels to use).

Exact ports, in the numba nopython subset, of ``battlefield.distance`` (the 5/10 measure),
``reach.within_reach``, ``GameMap.walls`` membership and ``GameMap.is_passable``, and of the integer
helpers ``math.gcd`` and ``lines._ceil_div``. Map arrays are indexed ``[c, r]`` (column, row), shape
``(W, H)``, ``uint8`` with 1 = present; squares off the map are never walls and never passable.
A footprint is ``(c, r, size)``: origin square and side length in squares.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.jit import njit_borrowing

SQUARE_FT = 5
"""Feet per square (``distance.SQUARE_FT``)."""


@njit_borrowing
def footprint_distance_ft(ac: int, ar: int, an: int, bc: int, br: int, bn: int) -> int:
    """``distance.footprint_distance_ft`` via ``footprint_gap`` (PFB-GRID-06/07).

    With ``an == 1`` this is ``distance.square_to_footprint_ft((ac, ar), (bc, br, bn))``.
    """
    dx = max(0, bc - (ac + an - 1), ac - (bc + bn - 1))
    dy = max(0, br - (ar + an - 1), ar - (br + bn - 1))
    if dx < dy:  # distance._ft, the 5/10 measure of the gap (PFB-MOVE-16b)
        dx, dy = dy, dx
    return SQUARE_FT * (dx + dy // 2)


@njit_borrowing
def distance_ft(ac: int, ar: int, bc: int, br: int) -> int:
    """``distance.distance_ft`` between squares ``(ac, ar)`` and ``(bc, br)`` (PFB-GRID-01, PFB-MOVE-16b).

    The footprint distance of two single squares: their gap is ``(|ac - bc|, |ar - br|)``.
    """
    return footprint_distance_ft(ac, ar, 1, bc, br, 1)


@njit_borrowing
def within_reach(ac: int, ar: int, an: int, reach_ft: int, tc: int, tr: int, tn: int) -> bool:
    """``reach.within_reach``: the target is more than 0 ft and at most ``reach_ft`` away (PFB-GRID-07)."""
    d = footprint_distance_ft(ac, ar, an, tc, tr, tn)
    return 0 < d <= reach_ft


@njit_borrowing
def is_wall(walls: NDArray[np.uint8], c: int, r: int) -> bool:
    """``(c, r) in game_map.walls``; off-map squares are never walls."""
    return 0 <= c < walls.shape[0] and 0 <= r < walls.shape[1] and bool(walls[c, r] != 0)


@njit_borrowing
def is_passable(passable: NDArray[np.uint8], c: int, r: int) -> bool:
    """``GameMap.is_passable``: on the map and enterable."""
    return 0 <= c < passable.shape[0] and 0 <= r < passable.shape[1] and bool(passable[c, r] != 0)


@njit_borrowing
def gcd(a: int, b: int) -> int:
    """``math.gcd`` (of the absolute values, as ``math.gcd``)."""
    a = abs(a)
    b = abs(b)
    while b != 0:
        a, b = b, a % b
    return a


@njit_borrowing
def ceil_div(a: int, b: int) -> int:
    """``lines._ceil_div``: ``ceil(a / b)`` in integers (``b > 0``)."""
    return -((-a) // b)
