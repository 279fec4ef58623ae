"""Compiled pathfinding and charge geometry, equal bit for bit to the reference (PFB-MOVE-12..22, PFB-CHG-06..09).

Exact ports, in the numba nopython subset, of

* ``battlefield.movement``: ``reachable`` (with ``_fill_moves`` / ``_move_table``), ``footprint_step_cost``
  and ``_cost``;
* ``battlefield.charge``: ``closest_attack_origins`` and ``charge_path_problem`` (only *whether* there is a
  problem), with ``_swept``. The line tracing (``lines.squares_crossed_scaled``) and ``cover.line_of_effect``
  they rely on are :mod:`geometry`'s; distances, reach and map look-ups are :mod:`grid`'s.

Data conventions (shared with the simulation kernel):

* Map arrays are indexed ``[c, r]`` (column, row), shape ``(W, H)``, dtype uint8: ``passable``
  (= ``GameMap.is_passable``), ``walls`` (= ``GameMap.walls``) and ``difficult`` (= ``GameMap.is_difficult``,
  i.e. difficult terrain OR a low wall). Walls off the map cannot be represented; a reference map has none.
* ``occ_kind``: int8 ``[W, H]``, occupancy from the mover's point of view, excluding the mover itself:
  0 empty, 1 helpless (any side), 2 ally, 3 enemy (a square holds its strictest occupant).
* A footprint is ``(c, r, size)``; the mover's start origin must lie on the map.

Equality with the reference for *every* input rests on one property of its Dijkstra: a state
``(origin, diagonal parity)`` settles on the (cost, path)-smallest extension of an already settled state, and
every step costs at least 5 ft, so all candidates of a state come from states of strictly lower cost. The result
therefore does not depend on the order in which equal-cost states are processed: a bucket queue by cost (one
bucket per 5 ft) that keeps, per state, the lexicographically smallest ``settled path of predecessor + (state,)``
among the cheapest candidates reproduces the reference heap exactly, without storing a path per heap entry.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.geometry import crossed_scaled_into, line_of_effect
from d20combat.simulation.fast.grid import SQUARE_FT, distance_ft, gcd, is_passable, is_wall, within_reach
from d20combat.simulation.fast.jit import njit

# Same order as ``movement._DIRECTIONS`` (the order only matters for the layout of a move table).
_DC = (0, -1, 1, 0, -1, 1, -1, 1)
_DR = (-1, 0, 0, 1, -1, -1, 1, 1)

_NO_COST = 1 << 60


# --------------------------------------------------------------------------- one step of a footprint


@njit
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


@njit
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


# --------------------------------------------------------------------------- pathfinding


@njit
def _extension_less(spath: NDArray[np.int64], slen: NDArray[np.int64], a: int, b: int, nc: int, nr: int) -> bool:
    """Whether ``path(a) + ((nc, nr),)`` < ``path(b) + ((nc, nr),)`` as Python tuples of squares compare."""
    la = slen[a]
    lb = slen[b]
    n = min(la, lb) + 1
    for i in range(n):
        if i < la:
            ac = spath[a, i, 0]
            ar = spath[a, i, 1]
        else:
            ac = nc
            ar = nr
        if i < lb:
            bc = spath[b, i, 0]
            br = spath[b, i, 1]
        else:
            bc = nc
            br = nr
        if ac != bc:
            return bool(ac < bc)
        if ar != br:
            return bool(ar < br)
    return bool(la < lb)


@njit
def _search(
    table: NDArray[np.int64],
    filled: bool,
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    flying: bool,
    counts: bool,
    c0: int,
    r0: int,
    size: int,
    budget_ft: int,
    occ_kind: NDArray[np.int8],
    diagonals_so_far: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The body of :func:`reachable`; ``table`` is a move table, complete if ``filled``, else filled lazily."""
    w = table.shape[0]
    h = table.shape[1]
    big_l = max(budget_ft // SQUARE_FT + 1, 1)
    out_cost = np.full((w, h), -1, np.int64)
    out_diags = np.zeros((w, h), np.int64)
    out_len = np.zeros((w, h), np.int64)
    out_paths = np.zeros((w, h, big_l, 2), np.int64)
    if budget_ft < 0:
        return out_cost, out_diags, out_len, out_paths  # only the start, which is never returned
    wh = w * h
    ns = 2 * wh
    have = np.ones(wh, np.uint8) if filled else np.zeros(wh, np.uint8)
    tcost = np.full(ns, _NO_COST, np.int64)
    tpred = np.full(ns, -1, np.int64)
    tdiag = np.zeros(ns, np.int64)
    settled = np.zeros(ns, np.uint8)
    slen = np.zeros(ns, np.int64)
    sdiag = np.zeros(ns, np.int64)
    spath = np.empty((ns, big_l, 2), np.int64)
    nlev = budget_ft // SQUARE_FT + 1
    head = np.full(nlev, -1, np.int64)
    cap = 8 * ns + 1
    q_state = np.empty(cap, np.int64)
    q_next = np.empty(cap, np.int64)

    s0 = (diagonals_so_far & 1) * wh + c0 * h + r0
    tcost[s0] = 0
    tdiag[s0] = diagonals_so_far
    q_state[0] = s0
    q_next[0] = -1
    head[0] = 0
    nq = 1
    for lev in range(nlev):
        cost = lev * SQUARE_FT
        it = head[lev]
        while it != -1:
            s = q_state[it]
            it = q_next[it]
            if settled[s] != 0 or tcost[s] != cost:
                continue
            settled[s] = 1
            o = s % wh
            c = o // h
            r = o % h
            p = tpred[s]
            if p >= 0:
                lp = slen[p]
                for i in range(lp):
                    spath[s, i, 0] = spath[p, i, 0]
                    spath[s, i, 1] = spath[p, i, 1]
                spath[s, lp, 0] = c
                spath[s, lp, 1] = r
                slen[s] = lp + 1
            diags = tdiag[s]
            sdiag[s] = diags
            odd = (diags & 1) != 0
            if have[o] == 0:
                for d in range(8):
                    even_c, odd_c, inc = _step(passable, walls, difficult, c, r, size, _DC[d], _DR[d], flying, counts)
                    table[c, r, d, 0] = even_c
                    table[c, r, d, 1] = odd_c
                    table[c, r, d, 2] = inc
                have[o] = 1
            for d in range(8):
                even_c = table[c, r, d, 0]
                if even_c == 0:
                    continue
                nc = c + _DC[d]
                nr = r + _DR[d]
                # Origins whose footprint would overlap an enemy are never entered (PFB-MOVE-13).
                blocked = False
                for fc in range(nc, nc + size):
                    for fr in range(nr, nr + size):
                        if occ_kind[fc, fr] == 3:
                            blocked = True
                if blocked:
                    continue
                ncost = cost + (table[c, r, d, 1] if odd else even_c)
                if ncost > budget_ft:
                    continue
                nd = diags + table[c, r, d, 2]
                t = (nd & 1) * wh + nc * h + nr
                if settled[t] != 0:
                    continue
                if ncost < tcost[t]:
                    tcost[t] = ncost
                    tpred[t] = s
                    tdiag[t] = nd
                    lv = ncost // SQUARE_FT
                    q_state[nq] = t
                    q_next[nq] = head[lv]
                    head[lv] = nq
                    nq += 1
                elif ncost == tcost[t] and _extension_less(spath, slen, s, tpred[t], nc, nr):
                    tpred[t] = s
                    tdiag[t] = nd

    for c in range(w):
        for r in range(h):
            if c == c0 and r == r0:
                continue
            o = c * h + r
            s_even = o
            s_odd = wh + o
            if settled[s_even] != 0 and (settled[s_odd] == 0 or tcost[s_even] <= tcost[s_odd]):
                s = s_even
            elif settled[s_odd] != 0:
                s = s_odd
            else:
                continue
            # The end must be empty or a helpless creature's, in every square (PFB-MOVE-12..14).
            ok = True
            for fc in range(c, c + size):
                for fr in range(r, r + size):
                    if occ_kind[fc, fr] > 1:
                        ok = False
            if not ok:
                continue
            out_cost[c, r] = tcost[s]
            out_diags[c, r] = sdiag[s]
            n = slen[s]
            out_len[c, r] = n
            for i in range(n):
                out_paths[c, r, i, 0] = spath[s, i, 0]
                out_paths[c, r, i, 1] = spath[s, i, 1]
    return out_cost, out_diags, out_len, out_paths


@njit
def reachable(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    c: int,
    r: int,
    size: int,
    budget_ft: int,
    occ_kind: NDArray[np.int8],
    diagonals_so_far: int,
    flying: bool,
    counts: bool,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """``movement.reachable`` for footprint ``(c, r, size)`` (PFB-MOVE-12..14, PFB-MOVE-16, PFB-MOVE-17, 21/22).

    Returns ``(cost, diags, plen, paths)``: ``cost[c, r]`` is the PathInfo.cost_ft of every origin in the
    reference result and -1 elsewhere; ``diags`` the PathInfo.diagonals (0 elsewhere); ``plen`` the length
    of PathInfo.path and ``paths[c, r, :plen[c, r]]`` its squares (shape ``(W, H, budget_ft // 5 + 1, 2)``).
    ``counts`` is ``difficult_diagonal_counts``. Same costs, counters and paths, tie-breaks included.
    """
    w, h = passable.shape
    table = np.empty((w, h, 8, 3), np.int64)
    return _search(
        table, False, passable, walls, difficult, flying, counts, c, r, size, budget_ft, occ_kind, diagonals_so_far
    )


@njit
def reachable_with_table(
    table: NDArray[np.int64],
    c: int,
    r: int,
    size: int,
    budget_ft: int,
    occ_kind: NDArray[np.int8],
    diagonals_so_far: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`reachable` on a precomputed :func:`move_table` (built for the same ``size``, flying and counts)."""
    dummy = np.zeros((1, 1), np.uint8)
    return _search(
        table, True, dummy, dummy, dummy, False, True, c, r, size, budget_ft, occ_kind, diagonals_so_far
    )


# --------------------------------------------------------------------------- charge (charge.py)


@njit
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


@njit
def _charge_blocked(
    passable: NDArray[np.uint8],
    walls: NDArray[np.uint8],
    difficult: NDArray[np.uint8],
    occupied: NDArray[np.uint8],
    flying: bool,
    c: int,
    r: int,
) -> bool:
    """Whether a square on the charge line is an obstacle: off the map, wall, pit, creature, difficult (PFB-CHG-06/08).

    A pit is read as "on the map, not passable, not a wall"; the reference lets a charge cross water, climbing
    surfaces and narrow openings, which the ``passable`` array cannot tell from pits.
    """
    if c < 0 or r < 0 or c >= passable.shape[0] or r >= passable.shape[1]:
        return True
    if walls[c, r] != 0 or passable[c, r] == 0 or occupied[c, r] != 0:
        return True
    return not flying and difficult[c, r] != 0


@njit
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
    """``charge.charge_path_problem(...) is None`` for charger ``(c, r, size)`` ending at origin ``(ec, er)``.

    PFB-CHG-06..08: every square the centre lines of the footprint's squares enter (``charge._swept``), and
    every end square, other than the charger's own squares, must be on the map and free of walls, pits,
    creatures (``occupied``: everyone but the charger and the target) and, unless flying, difficult terrain;
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
                if _charge_blocked(passable, walls, difficult, occupied, flying, sc, sr):
                    return False
    for sc in range(ec, ec + n):
        for sr in range(er, er + n):
            if c <= sc < c + n and r <= sr < r + n:
                continue
            if _charge_blocked(passable, walls, difficult, occupied, flying, sc, sr):
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
