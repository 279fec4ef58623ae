"""Compiled pathfinding, equal bit for bit to the reference (PFB-MOVE-12..22).

Exact ports, in the numba nopython subset, of ``battlefield.movement.reachable``, on the move tables of
:mod:`steps` (``_fill_moves`` / ``_move_table``, ``footprint_step_cost``). The charge geometry is :mod:`charge`'s.

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

The same property bounds the search: an origin ``k`` steps away costs at least ``5k`` ft, so every origin within
the budget lies in the box ``origin ± budget // 5`` squares (:func:`search_box`). The kernel's search
(:func:`reachable_into`) keeps its states in that box, in buffers made once (:func:`workspace`), and reads the
map only through the move table: its cost depends on the budget, never on the map's size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.grid import SQUARE_FT
from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.memo import memo_tables
from d20combat.simulation.fast.steps import _DC, _DR
from d20combat.simulation.fast.steps import move_table as move_table  # re-exported: warm.py checks its cache

I64 = NDArray[np.int64]

_NO_COST = 1 << 60


# --------------------------------------------------------------------------- pathfinding


@njit_borrowing
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


Workspace = tuple[I64, I64, I64, I64, I64, NDArray[np.uint8], I64, I64, I64, I64, NDArray[np.int8], I64, I64, Any]
"""Buffers of :func:`reachable_into`, made once by :func:`workspace` for searches up to a budget and size:
per state of the search box ``(tcost, tpred, tdiag, slen, sdiag, settled, spath)``, the bucket queue
``(head, q_state, q_next)``, the occupancy of the box ``kinds``, the result ``found`` / ``found_paths``, and the
memo of earlier searches (a :data:`.memo.Memo`, empty unless asked for)."""

KINDS, FOUND, FOUND_PATHS, MEMO = 10, 11, 12, 13
"""Indices in a :data:`Workspace`: the occupancy the caller fills, the rows (c, r, cost, diagonals, path length)
and the paths of the reached origins, the memo."""


@njit
def workspace(max_budget_ft: int, max_size: int, memo: int = 0) -> Workspace:
    """Buffers for every :func:`reachable_into` with ``budget_ft <= max_budget_ft`` and ``size <= max_size``,
    with a memo of ``memo`` searches (:mod:`.memo`; the runner's size is :func:`.memo.memo_slots`).

    Their size depends on the budget only (the search box is at most ``2 * budget // 5 + 1`` squares a side),
    never on the map's; nothing in them needs clearing between searches, nor between encounters of a battle.
    """
    rr = max(max_budget_ft, 0) // SQUARE_FT
    side = 2 * rr + 1
    nb = side * side
    ns = 2 * nb
    steps = rr + 1
    ks = side + max(max_size, 1) - 1
    return (
        np.empty(ns, np.int64),
        np.empty(ns, np.int64),
        np.empty(ns, np.int64),
        np.empty(ns, np.int64),
        np.empty(ns, np.int64),
        np.empty(ns, np.uint8),
        np.empty((ns, steps, 2), np.int64),
        np.empty(steps, np.int64),
        np.empty(8 * ns + 1, np.int64),
        np.empty(8 * ns + 1, np.int64),
        np.zeros((ks, ks), np.int8),
        np.empty((nb, 5), np.int64),
        np.empty((nb, steps, 2), np.int64),
        memo_tables(memo, nb, steps, ks),
    )


@njit_borrowing
def search_box(w: int, h: int, c: int, r: int, budget_ft: int) -> tuple[int, int, int, int]:
    """``(c_lo, r_lo, bw, bh)``: the origins a search from ``(c, r)`` can reach lie in columns
    ``c_lo .. c_lo + bw - 1`` and rows ``r_lo .. r_lo + bh - 1`` of a ``w`` × ``h`` map (every step moves one
    square at most and costs 5 ft at least). Its occupancy is needed over ``bw + size - 1`` × ``bh + size - 1``."""
    rr = max(budget_ft, 0) // SQUARE_FT
    c_lo = max(c - rr, 0)
    r_lo = max(r - rr, 0)
    return c_lo, r_lo, min(c + rr, w - 1) - c_lo + 1, min(r + rr, h - 1) - r_lo + 1


@njit_borrowing
def reachable_into(
    table: NDArray[np.int64],
    c0: int,
    r0: int,
    size: int,
    budget_ft: int,
    diagonals_so_far: int,
    ws: Workspace,
) -> int:
    """``movement.reachable`` on a :func:`move_table`, touching only the :func:`search_box`: the number ``n`` of
    origins reached. ``ws[FOUND][:n]`` holds their rows ``(c, r, cost_ft, diagonals, path length)`` in ``(c, r)``
    order and ``ws[FOUND_PATHS][k, :length]`` their paths.

    Before the call the caller writes into ``ws[KINDS][x, y]`` the occupancy (0 empty, 1 helpless, 2 ally,
    3 enemy) of square ``(c_lo + x, r_lo + y)`` over the box (see :func:`search_box`); ``ws`` must come from
    :func:`workspace` for at least this budget and size.
    """
    tcost, tpred, tdiag, slen, sdiag, settled, spath, head, q_state, q_next, kinds, found, found_paths, _ = ws
    if budget_ft < 0:
        return 0  # only the start, which is never returned
    c_lo, r_lo, bw, bh = search_box(table.shape[0], table.shape[1], c0, r0, budget_ft)
    nb = bw * bh
    for i in range(2 * nb):
        tcost[i] = _NO_COST
        settled[i] = 0
    nlev = budget_ft // SQUARE_FT + 1
    for i in range(nlev):
        head[i] = -1

    s0 = (diagonals_so_far & 1) * nb + (c0 - c_lo) * bh + (r0 - r_lo)
    tcost[s0] = 0
    tdiag[s0] = diagonals_so_far
    tpred[s0] = -1
    slen[s0] = 0
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
            o = s % nb
            c = o // bh + c_lo
            r = o % bh + r_lo
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
            for d in range(8):
                even_c = table[c, r, d, 0]
                if even_c == 0:
                    continue
                ncost = cost + (table[c, r, d, 1] if odd else even_c)
                if ncost > budget_ft:
                    continue  # (checked first: only origins within the budget lie in the box)
                nc = c + _DC[d]
                nr = r + _DR[d]
                # Origins whose footprint would overlap an enemy are never entered (PFB-MOVE-13).
                blocked = False
                for fc in range(nc - c_lo, nc - c_lo + size):
                    for fr in range(nr - r_lo, nr - r_lo + size):
                        if kinds[fc, fr] == 3:
                            blocked = True
                if blocked:
                    continue
                nd = diags + table[c, r, d, 2]
                t = (nd & 1) * nb + (nc - c_lo) * bh + (nr - r_lo)
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

    n = 0
    for o in range(nb):  # (c, r) order
        c = o // bh + c_lo
        r = o % bh + r_lo
        if c == c0 and r == r0:
            continue
        s_even = o
        s_odd = nb + o
        if settled[s_even] != 0 and (settled[s_odd] == 0 or tcost[s_even] <= tcost[s_odd]):
            s = s_even
        elif settled[s_odd] != 0:
            s = s_odd
        else:
            continue
        # The end must be empty or a helpless creature's, in every square (PFB-MOVE-12..14).
        ok = True
        for fc in range(c - c_lo, c - c_lo + size):
            for fr in range(r - r_lo, r - r_lo + size):
                if kinds[fc, fr] > 1:
                    ok = False
        if not ok:
            continue
        length = slen[s]
        found[n, 0] = c
        found[n, 1] = r
        found[n, 2] = tcost[s]
        found[n, 3] = sdiag[s]
        found[n, 4] = length
        for i in range(length):
            found_paths[n, i, 0] = spath[s, i, 0]
            found_paths[n, i, 1] = spath[s, i, 1]
        n += 1
    return n


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
    """:func:`reachable` on a precomputed :func:`move_table` (built for the same ``size``, flying and counts).

    Map-sized results from map-sized occupancy ``occ_kind``: for tests and callers outside the kernel, which
    uses :func:`reachable_into` and its own :func:`workspace`.
    """
    w = table.shape[0]
    h = table.shape[1]
    big_l = max(budget_ft // SQUARE_FT + 1, 1)
    out_cost = np.full((w, h), -1, np.int64)
    out_diags = np.zeros((w, h), np.int64)
    out_len = np.zeros((w, h), np.int64)
    out_paths = np.zeros((w, h, big_l, 2), np.int64)
    if budget_ft < 0:
        return out_cost, out_diags, out_len, out_paths
    ws = workspace(budget_ft, size)
    c_lo, r_lo, bw, bh = search_box(w, h, c, r, budget_ft)
    kinds = ws[KINDS]
    for x in range(bw + size - 1):
        for y in range(bh + size - 1):
            inside = x + c_lo < w and y + r_lo < h
            kinds[x, y] = occ_kind[x + c_lo, y + r_lo] if inside else 0
    n = reachable_into(table, c, r, size, budget_ft, diagonals_so_far, ws)
    found = ws[FOUND]
    for k in range(n):
        fc = found[k, 0]
        fr = found[k, 1]
        out_cost[fc, fr] = found[k, 2]
        out_diags[fc, fr] = found[k, 3]
        out_len[fc, fr] = found[k, 4]
        for i in range(found[k, 4]):
            out_paths[fc, fr, i, 0] = ws[FOUND_PATHS][k, i, 0]
            out_paths[fc, fr, i, 1] = ws[FOUND_PATHS][k, i, 1]
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
    table = move_table(passable, walls, difficult, size, flying, counts)
    return reachable_with_table(table, c, r, size, budget_ft, occ_kind, diagonals_so_far)
