"""The turn flow in the kernel: the budget (``Ruleset.allowance`` / ``pay``), damage and the injury component's
answer, and ``Encounter._advance`` with the start and end of rounds and turns — under the core components, or
off-guard's economy and injury (:mod:`.kernel_injury`), as the knobs say."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import (
    C_FREE,
    C_FULL,
    C_MOVE,
    C_STANDARD,
    CB_COWERING,
    CB_DEAD,
    CB_STABLE,
    COND,
    DOWN,
    E_BUDGET,
    E_END,
    E_NOTE,
    E_POOLS,
    E_REACTIONS_SET,
    E_ROUND,
    E_STABLE,
    E_TURN_END,
    E_TURN_START,
    H_CMV_DEAD,
    H_CMV_DYING,
    H_CMV_STABLE,
    H_DISABLED,
    H_DYING,
    H_STABLE_REASON,
    HP,
    L_FREE,
    L_FULL,
    L_MOVE,
    L_NONE,
    L_STANDARD,
    L_STD_AS_MOVE,
    R_COWERING,
    R_HEALTH,
    R_NONE,
    R_SURPRISED,
    REACT,
    SRC_BLEEDING,
    SRC_STRENUOUS,
    STABLE,
    SURPRISED,
    T_ACTIONS,
    T_ACTOR,
    T_DIAGS,
    T_ENDED,
    T_FREE,
    T_FREE_USED,
    T_HAS_TURN,
    T_INDEX,
    T_MOV,
    T_MOVED,
    T_ROUND,
    T_STD,
    T_STEPPED,
    T_STRIKE,
    T_STRUCK,
    T_SURPRISE,
    T_TIMEOUT,
    T_WINNER,
    apply_damage,
    emit,
    health,
    roll,
)
from d20combat.simulation.fast.kernel_defense import start_of_round as defense_start_of_round
from d20combat.simulation.fast.kernel_defense import start_of_turn as defense_start_of_turn
from d20combat.simulation.fast.kernel_effects import end_own_effects
from d20combat.simulation.fast.kernel_fear import panic
from d20combat.simulation.fast.kernel_injury import after_damage as injury_after_damage
from d20combat.simulation.fast.kernel_injury import no_actions, single_action
from d20combat.simulation.fast.kernel_injury import start_of_round as injury_start_of_round
from d20combat.simulation.fast.kernel_injury import start_of_turn as injury_start_of_turn
from d20combat.simulation.fast.kernel_injury import strain as injury_strain
from d20combat.simulation.fast.kernel_skill_economy import basic_actions, complex_actions, complex_as_basic
from d20combat.simulation.fast.kernel_skill_economy import lapse as skill_lapse
from d20combat.simulation.fast.kernel_skill_economy import release as skill_release
from d20combat.simulation.fast.kernel_skill_economy import start_of_round as skill_start_of_round
from d20combat.simulation.fast.layout import (
    CON_MOD,
    CON_SCORE,
    K_AOO_PER_ROUND,
    K_DYING_PF1,
    K_ECON_CMV,
    K_INJURY_CMV,
    K_MAX_FREE,
    K_MAX_ROUNDS,
    K_N_SIDES,
    K_SURPRISE_FREE,
    SIDE,
    T_SKL_OFF,
)

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]


# ================================================================== budget (Ruleset.allowance / pay)

@njit_borrowing
def allowance(s: I64, cs: I64, t: I64, kn: I64, i: int) -> tuple[int, int]:
    """(free actions, single action) of ``Ruleset.allowance`` for creature ``i`` now: the core's, and with
    off-guard's economy what its conditions take away (kernel_injury)."""
    if t[T_SURPRISE]:
        free, single = (kn[K_MAX_FREE] if kn[K_SURPRISE_FREE] else 0), 1
    elif not kn[K_INJURY_CMV] and health(s[i, HP], cs[i, CON_SCORE]) == H_DISABLED:
        free, single = kn[K_MAX_FREE], 1
    else:
        free, single = kn[K_MAX_FREE], 0
    if no_actions(s, kn, i):
        return 0, single
    return free, 1 if single or single_action(s, cs, kn, i) else 0


@njit_borrowing
def pay_label(s: I64, cs: I64, t: I64, kn: I64, cost: int) -> int:
    """The label ``Ruleset.pay`` gives ``cost`` for the creature whose turn it is, or -1 (BudgetError)."""
    free_allowed, single = allowance(s, cs, t, kn, t[T_ACTOR])
    if no_actions(s, kn, t[T_ACTOR]):
        return -1
    std = t[T_STD] > 0
    mov = t[T_MOV] > 0
    if cost <= C_FULL and single and t[T_ACTIONS] > 0:
        return -1
    if cost == C_STANDARD:
        return L_STANDARD if std else -1
    if cost == C_MOVE:
        if mov:
            return L_MOVE
        if std and not single and complex_as_basic(kn):  # SKL-ACT-11 (kernel_skill_economy)
            return L_STD_AS_MOVE
        return -1
    if cost == C_FULL:
        if single or not (std and mov):
            return -1
        return L_FULL
    if cost == C_FREE:
        return L_FREE if t[T_FREE] > 0 else -1
    if t[T_SURPRISE] and t[T_FREE_USED] >= free_allowed:
        return -1
    return L_NONE


@njit_borrowing
def spend(ev: I64, t: I64, actor: int, action: int, arg: int, label: int) -> None:
    """Emit ``BudgetSpent`` and apply it (``apply._budget``)."""
    emit(ev, t, E_BUDGET, actor, action, arg, label, 0, 0, 0)
    if label in (L_STANDARD, L_STD_AS_MOVE):
        t[T_STD] -= 1
    elif label == L_MOVE:
        t[T_MOV] -= 1
    elif label == L_FULL:
        t[T_STD] -= 1
        t[T_MOV] -= 1
    elif label == L_FREE:
        t[T_FREE] -= 1
        t[T_FREE_USED] += 1
    if label != L_FREE and label != L_NONE:
        t[T_ACTIONS] += 1


# ================================================================== damage and health (P12..P14)

@njit_borrowing
def damage(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, target: int, amount: int, source: int) -> None:
    """Emit ``Damaged`` and apply it, then the injury component's ``after_damage``: PFB's note on a change of
    health, or off-guard's death saves and conditions (kernel_injury)."""
    before = s[target, HP]
    apply_damage(ev, s, cs, t, kn, target, amount, source)
    if t[T_STRIKE] == target + 1:  # a coup de grace's damage waits for its own death save (CMV-CDG-06)
        t[T_STRUCK] = max(t[T_STRUCK], 0) + amount
        return
    if kn[K_INJURY_CMV]:
        injury_after_damage(ev, s, cs, t, kn, tape, target, amount)
        return
    was = health(before, cs[target, CON_SCORE])
    now = health(s[target, HP], cs[target, CON_SCORE])
    if now != was:
        emit(ev, t, E_NOTE, target, now, 0, 0, 0, 0, 0)


# ================================================================== turn flow (Encounter._advance & co.)

@njit_borrowing
def check_end(ev: I64, s: I64, cs: I64, t: I64, kn: I64) -> bool:
    """``Encounter._check_end`` (PFB-RND-07): a side wins when every foe is out of the fight."""
    n_sides = kn[K_N_SIDES]
    standing = 0
    first = -1
    for side in range(n_sides):
        for i in range(s.shape[0]):
            if cs[i, SIDE] == side and not s[i, DOWN]:
                standing += 1
                if first == -1:
                    first = side
                break
    if standing <= 1 and n_sides > 1:
        emit(ev, t, E_END, first, 0, 0, 0, 0, 0, 0)
        t[T_ENDED] = 1
        t[T_WINNER] = first
        t[T_HAS_TURN] = 0
        return True
    return False


@njit_borrowing
def cannot_act(s: I64, cs: I64, t: I64, i: int) -> int:
    """``Encounter._cannot_act``: a reason code (R_NONE = it can act)."""
    if t[T_SURPRISE] and s[i, SURPRISED]:
        return R_SURPRISED
    if s[i, DOWN]:
        return R_HEALTH
    if s[i, COND] & CB_COWERING:  # off-guard's cowering takes no actions (CMV-COND-31, kernel_fear)
        return R_COWERING
    return R_NONE


@njit_borrowing
def end_turn(ev: I64, s: I64, cs: I64, t: I64, kn: I64, i: int, reason: int) -> None:
    code = health(s[i, HP], cs[i, CON_SCORE]) if reason == R_HEALTH else 0
    if reason == R_HEALTH and code == H_DYING and s[i, STABLE]:
        code = H_STABLE_REASON
    if reason == R_HEALTH and kn[K_INJURY_CMV]:  # DamageTaken.cannot_act_reason: dead, dying, stable
        cond = s[i, COND]
        code = H_CMV_DEAD if cond & CB_DEAD else H_CMV_DYING if not cond & CB_STABLE else H_CMV_STABLE
    emit(ev, t, E_TURN_END, i, reason, code, 0, 0, 0, 0)
    t[T_HAS_TURN] = 0


@njit_borrowing
def start_of_turn(w: tuple, m: tuple, ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32,  # type: ignore[type-arg]
                  actor: int) -> None:
    """``Encounter._start_of_turn`` (effects end before their anchor's slot, PFB-TIME-03..05) and
    ``Ruleset.start_of_turn`` (the dying check, PFB-HP-02; off-guard's death save, then a panicked creature
    cowering when cornered, CMV-COND-29)."""
    end_own_effects(ev, s, t, actor)  # the charge's and the found effects, in the order added
    defense_start_of_turn(ev, s, cs, t, kn, actor)
    if kn[K_INJURY_CMV]:
        injury_start_of_turn(ev, s, cs, t, kn, tape, actor)
        panic(ev, w, m, s, t, actor)  # kernel_fear
        return
    if not kn[K_DYING_PF1] or s[actor, STABLE] or health(s[actor, HP], cs[actor, CON_SCORE]) != H_DYING:
        return
    face = roll(t, tape, 20)
    result = face + cs[actor, CON_MOD] + s[actor, HP]
    if face == 20 or result >= 10:
        emit(ev, t, E_STABLE, actor, face, result, 0, 0, 0, 0)
        s[actor, STABLE] = 1
    else:
        damage(ev, s, cs, t, kn, tape, actor, 1, SRC_BLEEDING)


@njit_borrowing
def new_round(ev: I64, s: I64, cs: I64, t: I64, kn: I64, round_no: int, surprise: int) -> None:
    """``Encounter._new_round``: ``RoundStarted``, then the components' ``start_of_round`` (off-guard's injury)."""
    emit(ev, t, E_ROUND, round_no, surprise, 0, 0, 0, 0, 0)
    t[T_ROUND] = round_no
    t[T_SURPRISE] = surprise
    t[T_INDEX] = -1
    t[T_HAS_TURN] = 0
    skill_start_of_round(ev, s, t, kn)  # skill-based's reserve (kernel_skill_economy)
    if kn[K_AOO_PER_ROUND] > 0:  # StandardMoveEconomy.start_of_round: every creature's reactions, in order
        for i in range(s.shape[0]):
            emit(ev, t, E_REACTIONS_SET, i, kn[K_AOO_PER_ROUND], 0, 0, 0, 0, 0)
            s[i, REACT] = kn[K_AOO_PER_ROUND]
    defense_start_of_round(ev, s, cs, t, kn)
    if kn[K_INJURY_CMV]:
        injury_start_of_round(ev, s, cs, t, kn)


@njit_borrowing
def advance(w: tuple, m: tuple, ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32,  # type: ignore[type-arg]
            order: I64) -> None:
    """``Encounter._advance``: on to the next creature able to act; rounds roll over; the end when due."""
    n = order.shape[0]
    while not t[T_ENDED]:
        if check_end(ev, s, cs, t, kn):
            return
        index = t[T_INDEX] + 1
        if index >= n:
            if t[T_ROUND] >= kn[K_MAX_ROUNDS]:
                emit(ev, t, E_END, -1, 1, 0, 0, 0, 0, 0)
                t[T_ENDED] = 1
                t[T_TIMEOUT] = 1
                return
            skill_lapse(ev, s, t, kn)  # skill-based's end of round (kernel_skill_economy)
            new_round(ev, s, cs, t, kn, t[T_ROUND] + 1, 0)
            continue
        actor = order[index]
        free_allowed, _ = allowance(s, cs, t, kn, actor)
        pools = 0 if no_actions(s, kn, actor) else 1  # MinorMajorEconomy.turn_pools: none without actions
        held = complex_actions(t, kn, actor, pools)  # skill-based: the reserve's complex actions
        basic = basic_actions(t, kn, actor, pools)
        emit(ev, t, E_TURN_START, actor, index, held, basic, free_allowed, t[T_SKL_OFF + actor], 0)  # SKL-TWF-01
        t[T_INDEX] = index
        t[T_ACTOR] = actor
        t[T_STD] = held
        t[T_MOV] = basic
        t[T_FREE] = free_allowed
        t[T_FREE_USED] = 0
        t[T_MOVED] = 0
        t[T_STEPPED] = 0
        t[T_DIAGS] = 0
        t[T_ACTIONS] = 0
        t[T_HAS_TURN] = 1
        start_of_turn(w, m, ev, s, cs, t, kn, tape, actor)
        skill_release(ev, t, kn, actor)  # skill-based's actions: the reserve becomes the turn's (kernel_skill_economy)
        if t[T_ENDED]:
            return
        reason = cannot_act(s, cs, t, actor)
        if reason == R_NONE:
            if kn[K_ECON_CMV] and pools != (0 if no_actions(s, kn, actor) else 1):
                settle_pools(ev, s, cs, t, kn, actor)
            return
        end_turn(ev, s, cs, t, kn, actor, reason)


@njit_borrowing
def settle_pools(ev: I64, s: I64, cs: I64, t: I64, kn: I64, actor: int) -> None:
    """``Encounter._settle_pools`` under off-guard's economy (CMV-COND-28/29: a coward that stops cowering
    flees): the turn's pools become what the economy gives the creature as it now is (``TurnPoolsSet``)."""
    free_allowed, _ = allowance(s, cs, t, kn, actor)
    pools = 0 if no_actions(s, kn, actor) else 1
    t[T_STD] = pools
    t[T_MOV] = pools
    t[T_FREE] = free_allowed
    emit(ev, t, E_POOLS, actor, pools, pools, free_allowed, 0, 0, 0)


@njit_borrowing
def strenuous(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, me: int) -> None:
    """``injury.settle_strain`` after a standard or full-round action: a disabled creature's costs 1 hp
    (PFB-HP-01; not under off-guard's economy, whose allowance never says so), a staggered one's 1 damage
    (CMV-INJ-08, kernel_injury)."""
    if kn[K_INJURY_CMV]:
        injury_strain(ev, s, cs, t, kn, tape, me)
    elif not kn[K_ECON_CMV] and health(s[me, HP], cs[me, CON_SCORE]) == H_DISABLED:
        damage(ev, s, cs, t, kn, tape, me, 1, SRC_STRENUOUS)


