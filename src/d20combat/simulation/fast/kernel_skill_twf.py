"""Skill-based's two-weapon mode in the kernel (:class:`TwoWeapons`): a creature that starts in the mode (the
condition ``two-weapon fighting``, SKL-TWF-08 — no action of the kernel's AI switches it) has, while it wields a
one-handed weapon with a weapon or shield in the off hand, the bonus complex action of the off hand (the
``offhand`` pool, ``t[T_SKL_OFF + i]``, SKL-TWF-01/02) and the penalties of the table on every attack and block
roll of each hand (SKL-TWF-03/04/10). Per creature and weapon in hand the compile step tables whether it has an
off hand, the off-hand attack option and both penalties (``kn[K_SKL_TWF + …]``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import WIELD
from d20combat.simulation.fast.layout import (
    K_SKL_IS_OFF,
    K_SKL_TWF,
    MAX_SKL_OPTIONS,
    TWF_HAS,
    TWF_OFF,
    TWF_OPTION,
    TWF_PRIMARY,
)

I64 = npt.NDArray[np.int64]


@njit_borrowing
def _twf(s: I64, kn: I64, i: int) -> int:
    return int(K_SKL_TWF + (i * (MAX_SKL_OPTIONS + 1) + s[i, WIELD] + 1) * 4)


@njit_borrowing
def has_off_hand(s: I64, kn: I64, i: int) -> bool:
    """In the two-weapon mode with an off hand (``TwoWeapons.off_hand``) for the weapon it wields now."""
    return bool(kn[_twf(s, kn, i) + TWF_HAS] != 0)


@njit_borrowing
def off_attack(s: I64, kn: I64, i: int) -> int:
    """The off-hand attack option (-1: none — a shield, or not in the mode)."""
    row = _twf(s, kn, i)
    return int(kn[row + TWF_OPTION]) if kn[row + TWF_HAS] else -1


@njit_borrowing
def hand_penalty(s: I64, kn: I64, att: int, o: int) -> int:
    """``TwoWeapons.hand_penalty`` of the hand attacking with option ``o`` (SKL-TWF-03/04; 0 outside the mode)."""
    if o < 0 or o >= MAX_SKL_OPTIONS:
        return 0
    row = _twf(s, kn, att)
    if not kn[row + TWF_HAS]:
        return 0
    return int(kn[row + (TWF_OFF if kn[K_SKL_IS_OFF + att * (MAX_SKL_OPTIONS + 1) + o] else TWF_PRIMARY)])
