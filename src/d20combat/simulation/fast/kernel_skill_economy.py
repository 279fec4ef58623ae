"""Skill-based's action economy in the kernel (:class:`ComplexBasicEconomy`, switched on by ``kn[K_SKL_ECON]``):
complex, basic and free actions, and the reserve of complex actions.

The kernel's turn pools keep their two slots: ``T_STD`` holds the complex actions, ``T_MOV`` the basic one, so the
core's costs are paid as SKL-ACT-11 says — standard → complex, move → basic, full-round → both — and a complex
action stands in for a basic one only under ``skl_complex_as_basic`` (:func:`complex_as_basic`).

SKL-RES-04: at the start of each round every creature's complex actions are held in its reserve
(``t[T_SKL_RESERVE + i]``) together with its attacks of opportunity (SKL-AOO-24); the surprised hold nothing.
A turn's complex actions are what its reserve holds when it starts (:func:`complex_actions`). A turn ended by
the creature without a declaration keeps what it did not spend in reserve (``skl_auto_reserve``, SKL-RES-02;
not the surprise round's one action when ``skl_surprise_limit = round``).

Event rows: ``E_SKL_REACTIONS`` (creature, reserve, attacks of opportunity, the surprised's zeros) — the
economy's ``ReactionsSet`` at the start of a round — and ``E_SKL_HOLD`` (creature, count, attacks of
opportunity) — the ``ReactionsSet`` and note of a reserve kept at the end of a turn.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import REACT, SURPRISED, T_ACTIONS, T_STD, T_SURPRISE, emit
from d20combat.simulation.fast.kernel_skill_feint import lapse_openings
from d20combat.simulation.fast.kernel_skill_twf import has_off_hand
from d20combat.simulation.fast.layout import (
    K_SKL_ACTIONS,
    K_SKL_AOO_PER_ROUND,
    K_SKL_AS_BASIC,
    K_SKL_AUTO_RESERVE,
    K_SKL_ECON,
    K_SKL_ROUND_SURPRISE,
    T_SKL_DECLARE,
    T_SKL_OFF,
    T_SKL_OFF_TURN,
    T_SKL_RESERVE,
)

I64 = npt.NDArray[np.int64]

E_SKL_REACTIONS, E_SKL_HOLD = 100, 101
"""Skill-based's event codes, numbered from 100 (the core's and off-guard's are below)."""
E_SKL_RELEASE, E_SKL_LAPSE = 103, 104
"""The reserve released at the start of a turn (creature) and lapsing at the end of the round (creature, amount)."""


@njit_borrowing
def start_of_round(ev: I64, s: I64, t: I64, kn: I64) -> None:
    """``ComplexBasicEconomy.start_of_round`` (SKL-RES-04, SKL-AOO-24): every creature, in the battle's order,
    holds one complex action and its attacks of opportunity; a surprised creature in the surprise round none."""
    if not kn[K_SKL_ECON]:
        return
    for i in range(s.shape[0]):
        surprised = t[T_SURPRISE] != 0 and s[i, SURPRISED] != 0
        reserve = 0 if surprised else 1
        t[T_SKL_RESERVE + i] = reserve
        s[i, REACT] = 0 if surprised else kn[K_SKL_AOO_PER_ROUND]  # the attacks of opportunity (kernel_reactions)
        off = 0 if surprised or not has_off_hand(s, kn, i) else 1  # the two-weapon bonus action (kernel_skill_twf)
        t[T_SKL_OFF + i] = off
        emit(ev, t, E_SKL_REACTIONS, i, reserve, 0 if surprised else kn[K_SKL_AOO_PER_ROUND], int(surprised), off,
             0, 0)


@njit_borrowing
def complex_actions(t: I64, kn: I64, actor: int, pools: int) -> int:
    """``ComplexBasicEconomy.turn_pools``: the turn's complex actions are those its reserve holds (``pools``, the
    core's standard action, under any other economy)."""
    if not kn[K_SKL_ECON] or pools == 0:
        return pools
    return int(t[T_SKL_RESERVE + actor])


@njit_borrowing
def basic_actions(t: I64, kn: I64, actor: int, pools: int) -> int:
    """``ComplexBasicEconomy.turn_pools``: one basic action (``pools``), none in the surprise round for a creature
    that has spent from its reserve — the surprised, who hold nothing — when that round's one action is the
    round's (``skl_surprise_limit = round``)."""
    if kn[K_SKL_ECON] and t[T_SURPRISE] and kn[K_SKL_ROUND_SURPRISE] and t[T_SKL_RESERVE + actor] < 1:
        return 0
    return pools


@njit_borrowing
def complex_as_basic(kn: I64) -> bool:
    """SKL-ACT-11: a complex action stands in for a basic one only under ``skl_complex_as_basic`` (the core's
    standard action always may for a move)."""
    return not kn[K_SKL_ECON] or kn[K_SKL_AS_BASIC] != 0


@njit_borrowing
def end_of_turn(ev: I64, t: I64, kn: I64, actor: int) -> None:
    """``ComplexBasicEconomy.end_of_turn`` (``skl_auto_reserve``, SKL-RES-02/03): a turn ended without a
    declaration holds the complex actions it did not spend — unless it spent the surprise round's one action
    and that action is the round's (``skl_surprise_limit = round``)."""
    if not kn[K_SKL_ECON] or not kn[K_SKL_AUTO_RESERVE] or t[T_SKL_DECLARE]:  # declared: nothing more is held
        return
    if t[T_SURPRISE] and t[T_ACTIONS] > 0 and kn[K_SKL_ROUND_SURPRISE]:
        return
    left, off_left = t[T_STD], t[T_SKL_OFF_TURN]
    if left or off_left:
        t[T_SKL_RESERVE + actor] = left
        t[T_SKL_OFF + actor] = off_left
        emit(ev, t, E_SKL_HOLD, actor, left, kn[K_SKL_AOO_PER_ROUND], 0, off_left, 0, 0)


@njit_borrowing
def release(ev: I64, t: I64, kn: I64, actor: int) -> None:
    """``SkillActions.start_of_turn`` → ``ComplexBasicEconomy.release`` (SKL-RES-02/04): the held complex actions
    become the turn's own (its pools were counted from them) until the creature declares a reserve."""
    t[T_SKL_DECLARE] = 0  # the turn's one reserve declaration (SKL-RES-02)
    t[T_SKL_OFF_TURN] = t[T_SKL_OFF + actor]  # the turn's two-weapon bonus action (SKL-TWF-01)
    if kn[K_SKL_ACTIONS] and (t[T_SKL_RESERVE + actor] or t[T_SKL_OFF + actor]):
        t[T_SKL_RESERVE + actor] = 0
        t[T_SKL_OFF + actor] = 0
        emit(ev, t, E_SKL_RELEASE, actor, 0, 0, 0, 0, 0, 0)


@njit_borrowing
def lapse(ev: I64, s: I64, t: I64, kn: I64) -> None:
    """``SkillActions.end_of_round`` → ``ComplexBasicEconomy.lapse`` (SKL-RES-06): what each creature still holds
    lapses, and then the feint openings it gave that end this round (``Feinting.lapse``)."""
    if not kn[K_SKL_ACTIONS]:
        return
    for i in range(s.shape[0]):
        held = t[T_SKL_RESERVE + i] + t[T_SKL_OFF + i]
        if held:
            t[T_SKL_RESERVE + i] = 0
            t[T_SKL_OFF + i] = 0
            emit(ev, t, E_SKL_LAPSE, i, held, 0, 0, 0, 0, 0)
        lapse_openings(ev, t, kn, i, s.shape[0])  # Feinting.lapse (kernel_skill_feint)
