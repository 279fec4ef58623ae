"""Compiled charge geometry, equal bit for bit to the reference (PFB-CHG-06..09).

Exact ports, in the numba nopython subset, of ``battlefield.charge``: ``closest_attack_origins`` and
``charge_path_problem`` (only *whether* there is a problem), with ``_swept``. The line tracing
(``lines.squares_crossed_scaled``) and ``cover.line_of_effect`` they rely on are :mod:`geometry`'s; distances,
reach and map look-ups are :mod:`grid`'s. Data conventions as in :mod:`paths`. Nothing here reads more of the
map than the squares near the charger, the target and the line between them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.geometry import line_of_effect
from d20combat.simulation.fast.grid import SQUARE_FT, distance_ft, gcd, is_passable, is_wall, within_reach
from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.lines import crossed_scaled_into


@njit_borrowing
def closest_attack_origins_into(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    c: int,
    r: int,
    size: int,
    tc: int,
    tr: int,
    tsize: int,
    reach_ft: int,
    out: NDArray[np.int64],
) -> int:
    """``charge.closest_attack_origins`` of charger ``(c, r, size)`` against target ``(tc, tr, tsize)`` (PFB-CHG-09a).

    Writes the origins, sorted like the reference, into ``out[:k]`` and returns ``k``. Only the first
    ``len(out)`` are written if there are more (``(2 * (reach_ft // 5) + size + tsize) ** 2`` rows always
    suffice). Candidates lie on passable squares, have the target within reach (PFB-GRID-07) and a line of
    effect to it (PFB-COV-09); creatures are ignored.
    """
    w, h = passable.shape
    n = size
    span = reach_ft // SQUARE_FT
    m = tsize
    best_d = -1
    k = 0
    for oc in range(max(0, tc - span - n + 1), min(w - n, tc + m - 1 + span) + 1):
        for orr in range(max(0, tr - span - n + 1), min(h - n, tr + m - 1 + span) + 1):
            if not within_reach(oc, orr, n, reach_ft, tc, tr, m):
                continue
            ok = True
            for fc in range(oc, oc + n):
                for fr in range(orr, orr + n):
                    if not is_passable(passable, fc, fr):
                        ok = False
            if not ok:
                continue
            d = distance_ft(c, r, oc, orr)
            if best_d >= 0 and d > best_d:
                continue
            if not line_of_effect(walls, oc, orr, n, tc, tr, m):
                continue
            if best_d < 0 or d < best_d:
                best_d = d
                k = 0
            if k < out.shape[0]:
                out[k, 0] = oc
                out[k, 1] = orr
            k += 1
    return k


@njit_borrowing
def _charge_blocked(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    occupied: NDArray[np.uint8] | NDArray[np.int16],
    xc: int,
    xr: int,
    xn: int,
    flying: bool,
    c: int,
    r: int,
) -> bool:
    """Whether a square on the charge line is an obstacle: off the map, wall, pit, creature, difficult (PFB-CHG-06/08).

    A creature is ``occupied > 0`` outside footprint ``(xc, xr, xn)`` (the target's). A pit is read as "on the
    map, not passable, not a wall"; the reference lets a charge cross water, climbing surfaces and narrow
    openings, which the ``passable`` array cannot tell from pits.
    """
    if c < 0 or r < 0 or c >= passable.shape[0] or r >= passable.shape[1]:
        return True
    if walls[c, r] != 0 or passable[c, r] == 0:
        return True
    if occupied[c, r] > 0 and not (xc <= c < xc + xn and xr <= r < xr + xn):
        return True
    return not flying and difficult[c, r] != 0


@njit
def charge_path_clear(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    c: int,
    r: int,
    size: int,
    ec: int,
    er: int,
    occupied: NDArray[np.uint8] | NDArray[np.int16],
    xc: int,
    xr: int,
    xn: int,
    flying: bool,
) -> bool:
    """``charge.charge_path_problem(...) is None`` for charger ``(c, r, size)`` ending at origin ``(ec, er)``.

    PFB-CHG-06..08: every square the centre lines of the footprint's squares enter (``charge._swept``), and
    every end square, other than the charger's own squares, must be on the map and free of walls, pits,
    creatures (``occupied > 0``: everyone but the charger, whose own squares are never checked, and the
    target, footprint ``(xc, xr, xn)``, whose squares are ignored) and, unless flying, difficult terrain;
    a line through a grid point next to a wall cuts its corner (PFB-MOVE-17). A charge that does not move fails.
    Only the verdict is computed, so the order of the obstacles does not matter.
    """
    n = size
    if c == ec and r == er:
        return False  # "the charge does not move"
    dx = 2 * (ec - c)
    dy = 2 * (er - r)
    buf = np.empty(((abs(dx) + abs(dy)) // 2 + 3, 2), np.int64)
    for oc in range(n):
        for orr in range(n):
            px = 2 * (c + oc) + 1
            py = 2 * (r + orr) + 1
            if dx >= 0:
                k = crossed_scaled_into(px, py, px + dx, py + dy, 2, buf)
            else:  # only the set of squares matters: trace from the western end, which skips the reversal
                k = crossed_scaled_into(px + dx, py + dy, px, py, 2, buf)
            for i in range(k):
                sc = buf[i, 0]
                sr = buf[i, 1]
                if c <= sc < c + n and r <= sr < r + n:
                    continue  # a creature does not obstruct itself
                if _charge_blocked(passable, walls, difficult, occupied, xc, xr, xn, flying, sc, sr):
                    return False
    for sc in range(ec, ec + n):
        for sr in range(er, er + n):
            if c <= sc < c + n and r <= sr < r + n:
                continue
            if _charge_blocked(passable, walls, difficult, occupied, xc, xr, xn, flying, sc, sr):
                return False
    if dx != 0 and dy != 0:
        g = gcd(dx, dy)
        ux = dx // g
        uy = dy // g
        sx = 1 if dx > 0 else 0
        sy = 1 if dy > 0 else 0
        for oc in range(n):
            for orr in range(n):
                px = 2 * (c + oc) + 1
                py = 2 * (r + orr) + 1
                for k in range(1, g):
                    x = px + k * ux
                    y = py + k * uy
                    if x % 2 != 0 or y % 2 != 0:
                        continue
                    gx = x // 2
                    gy = y // 2
                    if is_wall(walls, gx - sx, gy - 1 + sy) or is_wall(walls, gx - 1 + sx, gy - sy):
                        return False
    return True


@njit_borrowing
def charge_path_ok(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    c: int,
    r: int,
    size: int,
    ec: int,
    er: int,
    occupied: NDArray[np.uint8],
    flying: bool,
) -> bool:
    """:func:`charge_path_clear` with ``occupied`` already without the target: ``charge_path_problem(...) is None``."""
    return charge_path_clear(passable, walls, difficult, c, r, size, ec, er, occupied, 0, 0, 0, flying)
