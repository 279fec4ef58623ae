"""An exact memo of the move search (``Encounter.move_options``) across the encounters of one compiled battle.

Every encounter of a battle starts from the same squares and the AI moves deterministically, so the first
searches of round 1 — and many later ones — ask :func:`~.paths.reachable_into` the very same question again and
again (skill-duel: ~4 searches of 13–29 µs per encounter, a third of its cost). The answer depends only on the
move table, the mover's square, size, budget and diagonals so far, and the occupancy over the search box; a
search whose inputs are all equal to a remembered one gets the remembered rows and paths copied back instead.

The memo is exact: a slot is taken only when every input is compared equal (the hash only picks the slot), so
the kernel's result never depends on it, nor on which encounters came before. It lives in the search's workspace
(:func:`~.paths.workspace`, built once per compiled battle by the runner): ``(meta, kinds, rows, paths)`` with
``slots`` entries, direct-mapped by hash, a newer search overwriting an older one in its slot. Rows and paths are
kept as ``int16`` (squares, costs and diagonals of one move are far below 32,768).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from d20combat.simulation.fast.jit import njit, njit_borrowing

I64 = NDArray[np.int64]
I16 = NDArray[np.int16]
I8 = NDArray[np.int8]

Memo = tuple[I64, I8, I16, I16]
"""``meta[slot] = (valid, hash, move slot, c, r, size, budget, diagonals, n)``, the occupancy box ``kinds[slot]``
the search saw, its ``n`` rows ``(c, r, cost, diagonals, path length)`` and their ``paths``."""

N_META = 9
MEMO_BYTES = 2 << 20
"""About this much memory per compiled battle at most (the slots shrink with the search box)."""
MAX_SLOTS = 256
_FNV = 1099511628211
_MASK = 0x3FFFFFFFFFFFFFFF


def memo_slots(nb: int, steps: int, ks: int) -> int:
    """How many searches to remember for boxes of ``nb`` origins, paths of ``steps`` squares, ``ks``² kinds."""
    per_slot = 2 * nb * (5 + 2 * steps) + ks * ks + 8 * N_META
    return int(max(1, min(MAX_SLOTS, MEMO_BYTES // per_slot)))


@njit
def memo_tables(slots: int, nb: int, steps: int, ks: int) -> Memo:
    """Empty memo tables (no slot valid) for ``slots`` searches (0: no memo)."""
    return (np.zeros((slots, N_META), np.int64), np.zeros((slots, ks, ks), np.int8),
            np.zeros((slots, nb, 5), np.int16), np.zeros((slots, nb, steps, 2), np.int16))


@njit_borrowing
def _key_hash(kinds: I8, kw: int, kh: int, move_slot: int, c: int, r: int, size: int, budget: int,
              diags: int) -> int:
    """FNV-1a over the inputs, kept to 62 bits at every step (the same in numba's wrapping int64 and in Python)."""
    h = 1469598103934665603 & _MASK
    for v in (move_slot, c, r, size, budget, diags):
        h = ((h ^ int(v)) * _FNV) & _MASK  # (int: numpy scalars without numba would warn on the wrap)
    for x in range(kw):
        for y in range(kh):
            h = ((h ^ int(kinds[x, y])) * _FNV) & _MASK
    return h


@njit_borrowing
def recall(memo: Memo, kinds: I8, kw: int, kh: int, move_slot: int, c: int, r: int, size: int, budget: int,
           diags: int, found: I64, found_paths: I64) -> tuple[int, int]:
    """``(n, slot)``: the remembered answer copied into ``found`` / ``found_paths`` (as ``reachable_into``
    leaves them), ``n = -1`` when none is remembered (``slot``: where to :func:`remember` it; -1: no memo)."""
    meta, mkinds, rows, paths = memo
    slots = meta.shape[0]
    if slots == 0:
        return -1, -1
    h = _key_hash(kinds, kw, kh, move_slot, c, r, size, budget, diags)
    slot = h % slots
    if not (meta[slot, 0] == 1 and meta[slot, 1] == h and meta[slot, 2] == move_slot and meta[slot, 3] == c
            and meta[slot, 4] == r and meta[slot, 5] == size and meta[slot, 6] == budget and meta[slot, 7] == diags):
        return -1, slot
    for x in range(kw):
        for y in range(kh):
            if mkinds[slot, x, y] != kinds[x, y]:
                return -1, slot
    n = meta[slot, 8]
    for k in range(n):
        length = rows[slot, k, 4]
        for j in range(5):
            found[k, j] = rows[slot, k, j]
        for i in range(length):
            found_paths[k, i, 0] = paths[slot, k, i, 0]
            found_paths[k, i, 1] = paths[slot, k, i, 1]
    return n, slot


@njit_borrowing
def remember(memo: Memo, slot: int, kinds: I8, kw: int, kh: int, move_slot: int, c: int, r: int, size: int,
             budget: int, diags: int, found: I64, found_paths: I64, n: int) -> None:
    """Keep the answer ``n`` rows of ``found`` / ``found_paths`` in ``slot`` (from :func:`recall`)."""
    meta, mkinds, rows, paths = memo
    if slot < 0:
        return
    h = _key_hash(kinds, kw, kh, move_slot, c, r, size, budget, diags)
    meta[slot, 0] = 1
    meta[slot, 1] = h
    meta[slot, 2] = move_slot
    meta[slot, 3] = c
    meta[slot, 4] = r
    meta[slot, 5] = size
    meta[slot, 6] = budget
    meta[slot, 7] = diags
    meta[slot, 8] = n
    for x in range(kw):
        for y in range(kh):
            mkinds[slot, x, y] = kinds[x, y]
    for k in range(n):
        length = found[k, 4]
        for j in range(5):
            rows[slot, k, j] = found[k, j]
        for i in range(length):
            paths[slot, k, i, 0] = found_paths[k, i, 0]
            paths[slot, k, i, 1] = found_paths[k, i, 1]
