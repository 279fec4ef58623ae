"""Skill-based's feint in the kernel (:class:`Feinting`, chosen by skill-based's tactics, ``kn[K_SKL_TACTICS]``):
the contested roll and the opening it gives, which the active defense, the attack and the end of the round read.

SKL-FEINT-01..05: a complex action against a foe the feinter threatens (its threatening weapon, SKL-AOO-02, and
its reach); d20 + weapon skill + Int against d20 + Defense + Wis (``kn[K_SKL_FEINT + …]``, ``kn[K_SKL_RESIST + …]``),
a tie to the defender unless ``skl_feint_tie_succeeds``; on a success the target cannot block or dodge the
feinter's next attack — the opening ``t[T_SKL_OPEN + target * MAX_SKL_OPEN + feinter]`` (the round it lasts until),
its order among the target's effects in ``t[T_SKL_OPSEQ + …]`` — used up by the feinter's next attack roll against
it (``BlockAndDodge.attack_rolled``) or lapsing at the end of its round (``Feinting.lapse``).

Event rows: ``E_SKL_FEINT`` (feinter, target, its die, the target's die, won, option) — the note of the contest;
``E_SKL_OPEN`` (target, feinter, until) — the effect added; ``E_SKL_OPEN_END`` (target, feinter, why) — the effect
ended: re-feinted (``OPEN_AGAIN``), used by an attack (``OPEN_USED``, with its note) or lapsed (``OPEN_LAPSED``, with
its note).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import T_ROUND, emit, roll
from d20combat.simulation.fast.layout import (
    K_SKL_FEINT,
    K_SKL_FEINT_TIE,
    K_SKL_OPEN_ROUNDS,
    K_SKL_RESIST,
    K_SKL_TACTICS,
    MAX_SKL_OPEN,
    MAX_SKL_OPTIONS,
    T_SKL_OPEN,
    T_SKL_OPSEQ,
    T_SKL_SEQ,
)

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

E_SKL_FEINT, E_SKL_OPEN, E_SKL_OPEN_END = 105, 106, 107
OPEN_AGAIN, OPEN_USED, OPEN_LAPSED = 0, 1, 2


@njit_borrowing
def opening(t: I64, kn: I64, target: int, feinter: int) -> bool:
    """``feint_opening``: ``feinter`` feinted ``target`` and has not attacked it since (SKL-FEINT-05)."""
    return bool(kn[K_SKL_TACTICS]) and t[T_SKL_OPEN + target * MAX_SKL_OPEN + feinter] != 0


@njit_borrowing
def _end(ev: I64, t: I64, target: int, feinter: int, why: int) -> None:
    t[T_SKL_OPEN + target * MAX_SKL_OPEN + feinter] = 0
    emit(ev, t, E_SKL_OPEN_END, target, feinter, why, 0, 0, 0, 0)


@njit_borrowing
def feint(ev: I64, t: I64, kn: I64, tape: U32, me: int, target: int, o: int) -> None:
    """``Feinting.feint`` once paid: the two rolls, the note, and on a success the opening (re-added if it was
    there)."""
    f1 = roll(t, tape, 20)
    f2 = roll(t, tape, 20)
    mine = f1 + kn[K_SKL_FEINT + me * (MAX_SKL_OPTIONS + 1) + o]
    theirs = f2 + kn[K_SKL_RESIST + target]
    won = mine > theirs or (mine == theirs and kn[K_SKL_FEINT_TIE] != 0)
    emit(ev, t, E_SKL_FEINT, me, target, f1, f2, int(won), o, 0)
    if won:
        if t[T_SKL_OPEN + target * MAX_SKL_OPEN + me]:
            _end(ev, t, target, me, OPEN_AGAIN)
        until = t[T_ROUND] + kn[K_SKL_OPEN_ROUNDS]
        t[T_SKL_OPEN + target * MAX_SKL_OPEN + me] = until
        t[T_SKL_SEQ] += 1
        t[T_SKL_OPSEQ + target * MAX_SKL_OPEN + me] = t[T_SKL_SEQ]
        emit(ev, t, E_SKL_OPEN, target, me, until, 0, 0, 0, 0)


@njit_borrowing
def attack_rolled(ev: I64, t: I64, kn: I64, att: int, tgt: int) -> None:
    """``BlockAndDodge.attack_rolled``: the feinter's next attack roll against the target uses the opening up."""
    if opening(t, kn, tgt, att):
        _end(ev, t, tgt, att, OPEN_USED)


@njit_borrowing
def lapse_openings(ev: I64, t: I64, kn: I64, target: int, n: int) -> None:
    """``Feinting.lapse`` for one creature: the openings it gave that last until this round or earlier lapse, in
    the order they were added (its effects' order)."""
    if not kn[K_SKL_TACTICS]:
        return
    while True:
        best, best_seq = -1, 0
        for f in range(n):
            k = target * MAX_SKL_OPEN + f
            due = t[T_SKL_OPEN + k] != 0 and t[T_SKL_OPEN + k] <= t[T_ROUND]
            if due and (best == -1 or t[T_SKL_OPSEQ + k] < best_seq):
                best, best_seq = f, t[T_SKL_OPSEQ + k]
        if best == -1:
            return
        _end(ev, t, target, best, OPEN_LAPSED)
