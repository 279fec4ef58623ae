"""Many encounters of one compiled battle in one call of the kernel (the Monte Carlo's path, no log).

Calling the compiled :func:`~.kernel.run` from Python costs ~60 µs by itself — numba checks the type of each of
the ~35 arrays of the battle's tables on every call — as much as a third of a skill-duel encounter. The runner
therefore calls :func:`run_batch` once for a chunk of encounters, each played on fresh copies of the arrays every
encounter starts from, keeping what an :class:`~d20combat.simulation.runner.Outcome` needs. Where nobody rolls for
surprise the kernel draws each encounter's dice and initiative itself from its seed (:mod:`.kernel_setup`: ~25 µs
of Python an encounter before); otherwise the runner prepares them in Python as :func:`.runner.play_fast` does.
An encounter that outran its tape is marked and replayed alone, with a longer one, by the runner: the results never
depend on the batch.
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
from d20combat.simulation.fast.kernel_setup import N_MT, initiative_order, mt_words
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
              tapes: U32, surprised: I64, seeds: I64, init: I64, ws: Workspace, out_s: I64, out_t: I64) -> None:
    """Play every encounter ``e`` from copies of ``s0`` / ``t0`` / ``occ0``, keeping its outcome in ``out_s[e]`` /
    ``out_t[e]``: the creatures ``surprised[e, i] == 1`` surprised, and either

    - with ``seeds`` (the lean set-up: nobody rolls for surprise; each seed's 64 bits as an int64): the dice of
      ``random.Random(seed)`` on a
      tape as long as ``tapes[0]`` and the initiative rolled from it (:mod:`.kernel_setup`; ``init[:, 0]`` each
      creature's fixed result or -1000, ``init[:, 1]`` its modifier), or
    - with ``seeds`` empty: the turn order ``orders[e]`` and the dice tape ``tapes[e]`` the runner prepared."""
    n = s0.shape[0]
    ev = np.zeros((0, 8), dtype=np.int64)
    lean = seeds.shape[0] > 0
    count = seeds.shape[0] if lean else orders.shape[0]
    tape = np.empty(tapes.shape[1], dtype=np.uint32)
    mt = np.empty(N_MT, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    values, rolls, stack = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(2 * n, dtype=np.int64)
    for e in range(count):
        s = s0.copy()
        surprise = 0
        for i in range(n):
            if surprised[e, i]:
                s[i, SURPRISED] = 1
                surprise = 1
        t = t0.copy()
        occ = occ0.copy()
        if lean:
            mt_words(mt, seeds[e], tape)
            initiative_order(t, tape, init[:, 0], init[:, 1], values, order, rolls, stack)
            run(w, m, s, t, occ, order, tape, ev, surprise, ws)
        else:
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
