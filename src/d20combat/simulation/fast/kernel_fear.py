"""Off-guard's fear in the kernel (:class:`~d20combat.rulesets.off_guard.fear.Fear`, CMV-COND-22..31) for a
creature that starts ``panicked:<source>:<DC>``: the source of its terror (the creature named, else the nearest
foe), being cornered (no square one move reaches is farther from it), cowering when cornered at the start of its
turn and no longer once it can flee (CMV-COND-29), the AI's flight (``CmvTactics.flee``, CMV-COND-28) and the
Will save that overcomes the panic at the end of its turn (CMV-COND-23). Panicked brings shaken's −2 on saves
(CMV-COND-24, the Will bonus in ``cs[i, WILL_SAVE]``, the death save's in :mod:`.kernel_injury`) and never
attacks (no reaction attacks, :mod:`.kernel_reactions`); cowering takes no actions nor reactions and is off-guard
(CMV-COND-30/31, :mod:`.kernel_flow`, :mod:`.kernel_defense`).

The search for the squares a move reaches (``Encounter.move_options``) lives here too, for the start of the
turn asks it before the AI does."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import (
    CB_COWERING,
    CB_PANICKED,
    COND,
    DOWN,
    E_FEAR_SAVE,
    PC,
    PR,
    T_DIAGS,
    dist_between,
    emit,
    roll,
)
from d20combat.simulation.fast.kernel_injury import set_condition
from d20combat.simulation.fast.kernel_movement import speed_ft
from d20combat.simulation.fast.layout import (
    FEAR_DC,
    FEAR_SRC,
    ID_RANK,
    K_FEAR_SAVE,
    MOVE_SLOT,
    SIDE,
    SIZE,
    WILL_SAVE,
)
from d20combat.simulation.fast.memo import recall, remember
from d20combat.simulation.fast.paths import FOUND, FOUND_PATHS, KINDS, MEMO, reachable_into, search_box

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

RC_CORNERED, RC_NOT_CORNERED, RC_NOT_PANICKED, RC_OVERCOMES = 30, 31, 32, 33
"""The reasons of fear's ``ConditionSet`` rows (kernel_injury's ``RC_*`` and kernel_defense's are below)."""


@njit_borrowing
def occ_kinds(s: I64, cs: I64, me: int, out: npt.NDArray[np.int8], c_lo: int, r_lo: int, w: int, h: int) -> None:
    """``Encounter.occupancy`` from ``me``'s side over ``w`` × ``h`` squares from ``(c_lo, r_lo)``, into
    ``out[c - c_lo, r - r_lo]``: 0 empty, 1 helpless, 2 ally, 3 enemy, the strictest per square."""
    out[:w, :h] = 0
    for o in range(s.shape[0]):
        if o == me:
            continue
        if s[o, DOWN]:
            kind = 1
        elif cs[o, SIDE] == cs[me, SIDE]:
            kind = 2
        else:
            kind = 3
        size = cs[o, SIZE]
        for dc in range(size):
            for dr in range(size):
                c = s[o, PC] + dc - c_lo
                r = s[o, PR] + dr - r_lo
                if 0 <= c < w and 0 <= r < h and out[c, r] < kind:
                    out[c, r] = kind


@njit_borrowing
def move_options(w: tuple, m: tuple, s: I64, t: I64, me: int) -> int:  # type: ignore[type-arg]
    """``Encounter.move_options`` (PFB-MOVE-06..27) for the creature whose turn it is: how many squares, found
    in ``m[8]`` (rows ``(c, r, cost, diagonals, path length)`` in ``(c, r)`` order; see ``paths.reachable_into``).
    A search whose every input equals a remembered one (this battle's memo, :mod:`.memo`) is copied, not redone."""
    cs, tables, ws = w[0], m[7], m[8]
    c0, r0, size, budget = s[me, PC], s[me, PR], cs[me, SIZE], max(speed_ft(s, cs, w[9], me), 5)
    c_lo, r_lo, bw, bh = search_box(tables.shape[1], tables.shape[2], c0, r0, budget)
    kw, kh, slot, diags = bw + size - 1, bh + size - 1, cs[me, MOVE_SLOT], t[T_DIAGS]
    occ_kinds(s, cs, me, ws[KINDS], c_lo, r_lo, kw, kh)
    n, kept = recall(ws[MEMO], ws[KINDS], kw, kh, slot, c0, r0, size, budget, diags, ws[FOUND], ws[FOUND_PATHS])
    if n >= 0:
        return n
    n = reachable_into(tables[slot], c0, r0, size, budget, diags, ws)
    remember(ws[MEMO], kept, ws[KINDS], kw, kh, slot, c0, r0, size, budget, diags, ws[FOUND], ws[FOUND_PATHS], n)
    return n


@njit_borrowing
def fear_source(s: I64, cs: I64, me: int) -> int:
    """``Fear.source``: the creature its panic names, else the nearest foe still in the fight (by distance, then
    name); -1: none."""
    if cs[me, FEAR_SRC] >= 0:
        return int(cs[me, FEAR_SRC])
    best, best_d = -1, 0
    for o in range(s.shape[0]):
        if cs[o, SIDE] == cs[me, SIDE] or s[o, DOWN]:
            continue
        d = dist_between(s, cs, me, o)
        if best == -1 or d < best_d or (d == best_d and cs[o, ID_RANK] < cs[best, ID_RANK]):
            best, best_d = o, d
    return best


@njit_borrowing
def farther(s: I64, cs: I64, me: int, src: int, c: int, r: int) -> int:
    """The distance from square ``(c, r)`` (``me``'s footprint there) to the source."""
    return fp_dist(c, r, cs[me, SIZE], s[src, PC], s[src, PR], cs[src, SIZE])


@njit_borrowing
def cornered(w: tuple, m: tuple, s: I64, t: I64, me: int, src: int) -> bool:  # type: ignore[type-arg]
    """``Fear.cornered`` (CMV-COND-26): no square within its speed is farther from the source than its own."""
    cs = w[0]
    n = move_options(w, m, s, t, me)
    here = dist_between(s, cs, me, src)
    found = m[8][FOUND]
    for k in range(n):  # noqa: SIM110 - numba
        if farther(s, cs, me, src, found[k, 0], found[k, 1]) > here:
            return False
    return True


@njit_borrowing
def panic(ev: I64, w: tuple, m: tuple, s: I64, t: I64, me: int) -> None:  # type: ignore[type-arg]
    """``Fear.panic`` at the end of the injury's start of turn (CMV-COND-29): a panicked creature with nowhere to
    flee cowers; once it can flee, or is no longer panicked, it stops."""
    cs, kn = w[0], w[9]
    cond = s[me, COND]
    cowering = cond & CB_COWERING != 0
    if not cond & CB_PANICKED:
        if cowering:
            set_condition(ev, s, cs, t, kn, me, CB_COWERING, False, RC_NOT_PANICKED)
        return
    src = fear_source(s, cs, me)
    trapped = src != -1 and cornered(w, m, s, t, me, src)
    if trapped and not cowering:
        set_condition(ev, s, cs, t, kn, me, CB_COWERING, True, RC_CORNERED)
    elif not trapped and cowering:
        set_condition(ev, s, cs, t, kn, me, CB_COWERING, False, RC_NOT_CORNERED)


@njit_borrowing
def flee_square(w: tuple, m: tuple, s: I64, t: I64, me: int, src: int) -> int:  # type: ignore[type-arg]
    """``CmvTactics.flee`` (CMV-COND-28): the found square (``m[8][FOUND]``) farthest from the source, then the
    cheapest, then the first by column and row — or -1 when none is farther than where it stands."""
    cs = w[0]
    n = move_options(w, m, s, t, me)
    found = m[8][FOUND]
    best, best_d, best_cost = -1, 0, 0
    for k in range(n):
        d = farther(s, cs, me, src, found[k, 0], found[k, 1])
        if best == -1 or d > best_d or (d == best_d and found[k, 2] < best_cost):
            best, best_d, best_cost = k, d, found[k, 2]
    if best == -1 or best_d <= dist_between(s, cs, me, src):
        return -1
    return best


@njit_borrowing
def overcome(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, me: int) -> None:
    """``Fear.overcome`` (CMV-COND-23, ``cmv_fear_save = end-of-turn``): a Will save against the panic's DC at the
    end of the turn — a natural 20 succeeds, a natural 1 fails — and the panic ends on a success."""
    if not kn[K_FEAR_SAVE] or not s[me, COND] & CB_PANICKED or cs[me, FEAR_DC] < 0:
        return
    face = roll(t, tape, 20)
    dc = cs[me, FEAR_DC]
    ok = face == 20 or (face != 1 and face + cs[me, WILL_SAVE] >= dc)
    emit(ev, t, E_FEAR_SAVE, me, face, dc, 1 if ok else 0, 0, 0, 0)
    if ok:
        set_condition(ev, s, cs, t, kn, me, CB_PANICKED, False, RC_OVERCOMES)
