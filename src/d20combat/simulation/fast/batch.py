"""Many encounters of one compiled battle in one call of the kernel (the Monte Carlo's path, no log).

Calling the compiled :func:`~.kernel.run` from Python costs ~60 µs by itself — numba checks the type of each of
the ~35 arrays of the battle's tables on every call — as much as a third of a skill-duel encounter. The runner
therefore prepares a chunk's encounters in Python (initiative and the dice tape of each, as :func:`.runner.play_fast`
does) and :func:`run_batch` plays them all in one call, each on fresh copies of the arrays every encounter starts
from, keeping what an :class:`~d20combat.simulation.runner.Outcome` needs. An encounter that outran its tape is
marked and replayed alone, with a longer one, by the runner: the results never depend on the batch.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit
from d20combat.simulation.fast.kernel import run
from d20combat.simulation.fast.kernel_base import (
    DEAD,
    DEALT,
    DOWN,
    SURPRISED,
    T_ATTACKS,
    T_EXHAUSTED,
    T_ROUND,
    T_TAPE,
    T_TIMEOUT,
    T_WINNER,
    TAKEN,
)
from d20combat.simulation.fast.paths import Workspace

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]

PER_CREATURE = (DEALT, TAKEN, DOWN, DEAD)
"""The state columns kept per creature, in ``out_s[e, i, :]``'s order."""
O_WINNER, O_TIMEOUT, O_ROUND, O_ATTACKS, O_EXHAUSTED, O_TAPE = range(6)
"""Columns of ``out_t[e]``: the scalars kept per encounter (``O_EXHAUSTED``: replay it with a longer tape)."""


@njit
def run_batch(w: tuple, m: tuple, s0: I64, t0: I64, occ0: I16, orders: I64,  # type: ignore[type-arg]
              tapes: U32, surprised: I64, ws: Workspace, out_s: I64, out_t: I64) -> None:
    """Play encounter ``e`` with the turn order ``orders[e]``, the dice tape ``tapes[e]`` and the creatures
    ``surprised[e, i] == 1`` surprised, from copies of ``s0`` / ``t0`` / ``occ0``, for every ``e``."""
    n = s0.shape[0]
    ev = np.zeros((0, 8), dtype=np.int64)
    for e in range(orders.shape[0]):
        s = s0.copy()
        surprise = 0
        for i in range(n):
            if surprised[e, i]:
                s[i, SURPRISED] = 1
                surprise = 1
        t = t0.copy()
        occ = occ0.copy()
        run(w, m, s, t, occ, orders[e], tapes[e], ev, surprise, ws)
        for i in range(n):
            out_s[e, i, 0] = s[i, DEALT]
            out_s[e, i, 1] = s[i, TAKEN]
            out_s[e, i, 2] = s[i, DOWN]
            out_s[e, i, 3] = s[i, DEAD]
        out_t[e, O_WINNER] = t[T_WINNER]
        out_t[e, O_TIMEOUT] = t[T_TIMEOUT]
        out_t[e, O_ROUND] = t[T_ROUND]
        out_t[e, O_ATTACKS] = t[T_ATTACKS]
        out_t[e, O_EXHAUSTED] = t[T_EXHAUSTED]
        out_t[e, O_TAPE] = t[T_TAPE]
