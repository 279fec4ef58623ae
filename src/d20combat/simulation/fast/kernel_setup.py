"""An encounter's set-up inside the kernel: its dice and its initiative, so a chunk of the Monte Carlo is one call
with no Python between encounters (:func:`.batch.run_batch_seeded`).

- :func:`mt_words`: the words ``random.Random(seed).getrandbits(32 * n)`` gives — CPython's Mersenne Twister
  (``_randommodule.c``: ``random_seed`` splits a non-negative int seed into 32-bit words, least significant first,
  for ``init_by_array``; ``genrand_uint32`` tempers each word), which is exactly the tape
  :func:`.runner._tape` draws from ``SeededDice(seed)``'s generator;
- :func:`initiative_order`: ``Encounter._roll_initiative`` where nobody rolls for surprise (``runner._lean_setup``):
  each creature in the battle's order rolls ``randint(1, 20)`` + its modifier (a fixed result rolls nothing),
  highest first, and a tied group rolls off as :func:`d20combat.rules.initiative.order_by_initiative` does —
  everyone in the group rolls a d20 in the group's order, higher first, and those still tied roll again, depth
  first — the same draws from the same tape.

Both are checked against the reference functions in ``tests/simulation/fast/test_kernel_setup.py``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import T_EXHAUSTED, roll

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

N_MT, M_MT = 624, 397
MASK32 = 0xFFFFFFFF
NO_FIXED = -1000
"""``CompiledBattle.init_fixed`` of a creature that rolls its initiative."""


@njit_borrowing
def _init_genrand(mt: I64, s: int) -> None:
    mt[0] = s
    for i in range(1, N_MT):
        prev = mt[i - 1]
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32


@njit_borrowing
def mt_seed(mt: I64, seed: int) -> None:
    """``random.Random(seed)``'s state for a seed ``0 <= seed < 2**64`` given as the int64 of the same 64 bits
    (``init_by_array`` of its 32-bit words, one word for a seed below 2**32), in ``mt[0:624]`` (each an unsigned
    32-bit value in an int64)."""
    low, high = seed & MASK32, (seed >> 32) & MASK32
    length = 2 if high else 1
    _init_genrand(mt, 19650218)
    i, j = 1, 0
    for _ in range(max(N_MT, length)):
        key = low if j == 0 else high
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1664525) & MASK32)) + key + j) & MASK32
        i += 1
        j += 1
        if i >= N_MT:
            mt[0] = mt[N_MT - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N_MT - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ (((prev ^ (prev >> 30)) * 1566083941) & MASK32)) - i) & MASK32
        i += 1
        if i >= N_MT:
            mt[0] = mt[N_MT - 1]
            i = 1
    mt[0] = 0x80000000


@njit_borrowing
def _twist(mt: I64) -> None:
    for k in range(N_MT):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % N_MT] & 0x7FFFFFFF)
        mt[k] = mt[(k + M_MT) % N_MT] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@njit_borrowing
def mt_words(mt: I64, seed: int, out: U32) -> None:
    """Fill ``out`` with the first ``len(out)`` words of ``random.Random(seed)`` (``getrandbits(32)`` each), using
    ``mt`` (624 int64) as the generator's state."""
    mt_seed(mt, seed)
    index = N_MT
    for k in range(out.shape[0]):
        if index >= N_MT:
            _twist(mt)
            index = 0
        y = mt[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        out[k] = y & MASK32


@njit_borrowing
def _by_key_descending(order: I64, lo: int, hi: int, key: I64) -> None:
    """Sort ``order[lo:hi]`` by ``key[creature]``, highest first, keeping the order of equal keys."""
    for a in range(lo + 1, hi):
        c = order[a]
        b = a
        while b > lo and key[order[b - 1]] < key[c]:
            order[b] = order[b - 1]
            b -= 1
        order[b] = c


@njit_borrowing
def initiative_order(t: I64, tape: U32, fixed: I64, mod: I64, values: I64, order: I64, rolls: I64,
                     stack: I64) -> None:
    """The initiative of every creature (``values``) and the turn order (``order``, creature indices), drawn from
    ``tape`` at ``t[T_TAPE]`` as ``SeededDice`` would draw them; ``rolls`` (one per creature) and ``stack`` (two
    per creature) are scratch. On an exhausted tape ``t[T_EXHAUSTED]`` is set (the runner replays the encounter)."""
    n = fixed.shape[0]
    for i in range(n):
        values[i] = fixed[i] if fixed[i] != NO_FIXED else roll(t, tape, 20) + mod[i]
        order[i] = i
    _by_key_descending(order, 0, n, values)
    top = 0
    i = n
    while i > 0:  # the tied groups, pushed last first so the highest is rolled off first
        j = i - 1
        while j > 0 and values[order[j - 1]] == values[order[i - 1]]:
            j -= 1
        if i - j > 1:
            stack[top], stack[top + 1] = j, i
            top += 2
        i = j
    while top and not t[T_EXHAUSTED]:  # order_by_initiative's _roll_off, depth first (an exhausted tape rolls
        top -= 2                         # only 1s: stop, the runner replays the encounter with a longer one)
        lo, hi = stack[top], stack[top + 1]
        for a in range(lo, hi):
            rolls[order[a]] = roll(t, tape, 20)
        _by_key_descending(order, lo, hi, rolls)
        i = hi
        while i > lo:
            j = i - 1
            while j > lo and rolls[order[j - 1]] == rolls[order[i - 1]]:
                j -= 1
            if i - j > 1:
                stack[top], stack[top + 1] = j, i
                top += 2
            i = j
