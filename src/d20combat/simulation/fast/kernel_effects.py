"""The timed effects a creature carries in the kernel beyond the charge's −2 AC: the "found <target> at (c, r)"
effects of off-guard's coup de grace (CMV-CDG-11), several at once, and the order every effect was added in, so
that they end in that order at the start of their anchor's turn (``Encounter._start_of_turn``, PFB-TIME-03..05).

Their columns are the last ``FX_COLS`` of the state ``s`` (after the loaded options), at :func:`fx_base`:
``CHARGE_SEQ`` (when the charging effect was added) and ``FX_SLOTS`` slots of (target, c, r, until, seq) — target
-1: the slot is free. The order counter is the scalar ``t[T_FX_SEQ]``."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import CHARGE_UNTIL, E_EFFECT_END, E_FOUND_END, T_ROUND, emit

I64 = npt.NDArray[np.int64]

T_FX_SEQ = 23
"""``t[T_FX_SEQ]``: how many effects the kernel has added so far (their order)."""
FX_SLOTS = 4
"""Found effects a creature may carry at once. Each lasts until its finder's turn two rounds on and a finder finds
at most one creature a turn (a full-round action), so two are the most that can be in force together."""
CHARGE_SEQ = 0
FX_TGT, FX_C, FX_R, FX_UNTIL, FX_SEQ = range(5)
FX_W = 5
FX_COLS = 1 + FX_SLOTS * FX_W


@njit_borrowing
def fx_base(s: I64) -> int:
    """The first of the effect columns of ``s``."""
    return int(s.shape[1]) - FX_COLS


def clear_effects(s: I64) -> None:
    """The effect columns of a new battle: no found effect (called once by the runner)."""
    base = s.shape[1] - FX_COLS
    for k in range(FX_SLOTS):
        s[:, base + 1 + k * FX_W + FX_TGT] = -1


@njit_borrowing
def found_slot(s: I64, i: int, target: int) -> int:
    """``CoupDeGraceRules.found``: the slot of creature ``i``'s effect "found <target> at (c, r)", or -1."""
    col = fx_base(s) + 1
    for k in range(FX_SLOTS):
        if s[i, col + k * FX_W + FX_TGT] == target:
            return k
    return -1


@njit_borrowing
def add_found(s: I64, t: I64, i: int, target: int, c: int, r: int, until: int) -> None:
    """Creature ``i`` carries "found <target> at (c, r)" until ``until`` (in a free slot, the newest last)."""
    col = fx_base(s) + 1
    for k in range(FX_SLOTS):
        at = col + k * FX_W
        if s[i, at + FX_TGT] == -1:
            s[i, at + FX_TGT] = target
            s[i, at + FX_C] = c
            s[i, at + FX_R] = r
            s[i, at + FX_UNTIL] = until
            s[i, at + FX_SEQ] = t[T_FX_SEQ]
            t[T_FX_SEQ] += 1
            return
    raise ValueError("more found effects at once than the kernel keeps (FX_SLOTS)")


@njit_borrowing
def end_found(ev: I64, s: I64, t: I64, i: int, k: int) -> None:
    """The found effect in slot ``k`` of creature ``i`` ends (its round has come, or the coup de grace strikes)."""
    at = fx_base(s) + 1 + k * FX_W
    emit(ev, t, E_FOUND_END, i, s[i, at + FX_TGT], s[i, at + FX_C], s[i, at + FX_R], 0, 0, 0)
    s[i, at + FX_TGT] = -1


@njit_borrowing
def charge_added(s: I64, t: I64, i: int) -> None:
    """Creature ``i``'s charging effect was just added: note its place in the order."""
    s[i, fx_base(s) + CHARGE_SEQ] = t[T_FX_SEQ]
    t[T_FX_SEQ] += 1


@njit_borrowing
def end_own_effects(ev: I64, s: I64, t: I64, actor: int) -> None:
    """``Encounter._start_of_turn``'s end of the effects anchored to ``actor`` whose round has come (all of them
    on the actor itself: the charge's and the found ones), in the order they were added (PFB-TIME-03..05)."""
    base = fx_base(s)
    while True:
        best_k, best_seq = -2, -1
        until = s[actor, CHARGE_UNTIL]
        if until != -1 and t[T_ROUND] >= until:
            best_k, best_seq = -1, s[actor, base + CHARGE_SEQ]
        for k in range(FX_SLOTS):
            at = base + 1 + k * FX_W
            if s[actor, at + FX_TGT] != -1 and t[T_ROUND] >= s[actor, at + FX_UNTIL] and (
                    best_k == -2 or s[actor, at + FX_SEQ] < best_seq):
                best_k, best_seq = k, s[actor, at + FX_SEQ]
        if best_k == -2:
            return
        if best_k == -1:
            emit(ev, t, E_EFFECT_END, actor, 0, 0, 0, 0, 0, 0)
            s[actor, CHARGE_UNTIL] = -1
        else:
            end_found(ev, s, t, actor, best_k)
