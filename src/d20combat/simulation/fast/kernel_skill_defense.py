"""Skill-based's active defense in the kernel (:class:`BlockAndDodge`, switched on by ``kn[K_SKL_ACTIVE]``): block
and dodge after the attack roll, paid from the reserve, and the AI's answer to that window.

SKL-DEF-02..07: against an attack roll that would hit, a defender that can act and still holds a complex action
(``t[T_SKL_RESERVE + i]``, SKL-RES-05) is asked to block (d20 + weapon skill + Str, with the main hand, or an
off-hand weapon or shield) or dodge (d20 + Defense + Dex); −6 on each while holding a ranged weapon in melee
(SKL-RNG-01: an enemy that can act threatens the defender). Matching or beating the attack total negates it.
The bonuses per creature and weapon in hand are tabled by the compile step (``kn[K_SKL_DEF + …]``).

The AI's answer (``BlockAndDodge.reaction_preference``): the best bonus (the first of the prompt's order — highest
bonus, then name — on a tie) if its chance is at least 10 % when the held action would lapse unused anyway (the
defender has had its turn this round, ``t[T_SKL_POS + i]``), else only if the chance is at least 25 % and three
times the hit's mean damage after armor (``kn[K_SKL_DANGER + …]``, doubled to stay in integers) reaches the
defender's hp.

Event row ``E_SKL_SPENT`` (defender, attacker, choice, face, total, negated): the ``ReactionSpent`` of the reserve; the
trace adds a ranged weapon's block count (SKL-RNG-02/03) where the reference notes it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import DOWN, HP, PC, PR, T_INDEX, WIELD, emit, roll
from d20combat.simulation.fast.kernel_skill_feint import opening
from d20combat.simulation.fast.layout import (
    K_SKL_ACTIVE,
    K_SKL_ARMOR,
    K_SKL_DANGER,
    K_SKL_DEF,
    K_SKL_FACTOR,
    MAX_SKL_OPTIONS,
    REACH,
    SIDE,
    SIZE,
    SKL_BLOCK,
    SKL_BLOCK_OFF,
    SKL_DODGE,
    SKL_NO_DEFENSE,
    SKL_RANGED_MAIN,
    SKL_THREATENS,
    T_SKL_CRIT,
    T_SKL_OFF,
    T_SKL_POS,
    T_SKL_RESERVE,
)

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

E_SKL_SPENT = 102
CHOICE_BLOCK, CHOICE_BLOCK_OFF, CHOICE_DODGE = 0, 1, 2
"""The defenses in the prompt's order on equal bonuses (by name: block, block-off-hand, dodge)."""


@njit_borrowing
def _row(kn: I64, i: int, wield: int) -> int:
    return K_SKL_DEF + (i * (MAX_SKL_OPTIONS + 1) + wield + 1) * 5


@njit_borrowing
def engaged(s: I64, cs: I64, kn: I64, me: int) -> bool:
    """``SkillAttacksOfOpportunity.engaged`` (SKL-RNG-01): an enemy that can act threatens the creature — its
    threatening weapon (melee in hand, off hand, or unarmed) and its reach."""
    for j in range(s.shape[0]):
        if cs[j, SIDE] == cs[me, SIDE] or s[j, DOWN] or not kn[_row(kn, j, s[j, WIELD]) + SKL_THREATENS]:
            continue
        d = fp_dist(s[j, PC], s[j, PR], cs[j, SIZE], s[me, PC], s[me, PR], cs[me, SIZE])
        if 0 < d <= cs[j, REACH]:
            return True
    return False


@njit_borrowing
def active_defense(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, att: int, tgt: int, o: int,
                   value: int) -> bool:
    """The after-roll window of a hit with total ``value``: the AI's answer and, if it defends, the spent reserve
    and the roll. True: the attack is negated (SKL-DEF-05/07)."""
    reserve, off = t[T_SKL_RESERVE + tgt] > 0, t[T_SKL_OFF + tgt] > 0  # the off hand's bonus action (SKL-TWF-02)
    if not kn[K_SKL_ACTIVE] or not (reserve or off) or s[tgt, DOWN]:
        return False
    if opening(t, kn, tgt, att):  # SKL-FEINT-05: no block or dodge against the feinter's next attack
        return False
    row = _row(kn, tgt, s[tgt, WIELD])
    tail = -6 if kn[row + SKL_RANGED_MAIN] and engaged(s, cs, kn, tgt) else 0
    choice, bonus = -1, 0
    if reserve:
        choice, bonus = CHOICE_DODGE, kn[row + SKL_DODGE] + tail
    for c, k in ((CHOICE_BLOCK_OFF, SKL_BLOCK_OFF), (CHOICE_BLOCK, SKL_BLOCK)):  # the earlier name wins a tie
        if (reserve or c == CHOICE_BLOCK_OFF) and kn[row + k] != SKL_NO_DEFENSE and (
                choice == -1 or kn[row + k] + tail >= bonus):
            choice, bonus = c, kn[row + k] + tail
    if choice == -1:
        return False
    chance20 = min(max(21 - (value - bonus), 0), 20)
    if t[T_SKL_POS + tgt] <= t[T_INDEX]:  # it has had its turn: the held action would lapse unused
        take = chance20 >= 2
    else:
        crit2 = 2 * t[T_SKL_CRIT] * kn[K_SKL_FACTOR + att * (MAX_SKL_OPTIONS + 1) + o]  # a declared critical attack
        danger2 = max(kn[K_SKL_DANGER + att * (MAX_SKL_OPTIONS + 1) + o] + crit2 - 2 * kn[K_SKL_ARMOR + tgt], 0)
        take = chance20 >= 5 and 3 * danger2 >= 2 * max(s[tgt, HP], 1)
    if not take:
        return False
    from_off = choice == CHOICE_BLOCK_OFF and off  # BlockAndDodge.pool_for: the off hand's action first
    if from_off:
        t[T_SKL_OFF + tgt] -= 1
    else:
        t[T_SKL_RESERVE + tgt] -= 1
    face = roll(t, tape, 20)
    negated = face + bonus >= value
    emit(ev, t, E_SKL_SPENT, tgt, att, choice, face, face + bonus, int(negated), int(from_off))
    return bool(negated)


@njit_borrowing
def positions(t: I64, kn: I64, order: I64) -> None:
    """Each creature's place in the initiative order, for the AI's answer (``s.order.index(target)``)."""
    if not kn[K_SKL_ACTIVE]:
        return
    for index in range(order.shape[0]):
        t[T_SKL_POS + order[index]] = index
