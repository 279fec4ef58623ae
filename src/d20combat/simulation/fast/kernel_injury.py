"""Off-guard's damage-taken injury (:class:`~d20combat.rulesets.off_guard.injury.DamageTaken`) and the economy's
reading of it (:class:`~d20combat.rulesets.off_guard.economy.MinorMajorEconomy`) in the kernel, switched on by
``kn[K_INJURY_CMV]`` and ``kn[K_ECON_CMV]``.

A creature counts the damage it has taken against its stat block's fixed hp (CMV-INJ-03): bloodied at half,
staggered at hp (CMV-INJ-09) — mirrored into the log as ``ConditionSet`` events, as ``DamageTaken.sync`` does;
damage past hp calls for a death save DC 10 + that damage: failed, dying (CMV-INJ-12); passed, staggered with
damage set to hp (CMV-INJ-13) or stable (variant). A dying creature saves each turn, DC 10, and is stable on a
success (CMV-INJ-11/16); damage to a dying or stable creature calls for another save, failed: dead
(CMV-INJ-15/17). A staggered creature's major action costs it 1 damage (CMV-INJ-08). The stored conditions are
bits of the state column ``COND``; the derived ones are recomputed from hp, as ``ConditionTable.active`` does.

Fear, stunned creatures' dropped weapons and the coup de grace's collected damage take part in the same hooks in
the reference; a compiled battle has none of them (no starting conditions, no component that adds one), so
those hooks do nothing here as there.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import (
    CB_BLOODIED,
    CB_COWERING,
    CB_DEAD,
    CB_DYING,
    CB_PANICKED,
    CB_STABLE,
    CB_STAGGERED,
    COND,
    E_CONDITION,
    E_DYING_GM,
    E_HEALED,
    E_SAVE,
    E_STABLE,
    E_SURVIVES,
    HP,
    OUT_COLD,
    SRC_STRENUOUS,
    apply_damage,
    emit,
    refresh,
    roll,
)
from d20combat.simulation.fast.layout import (
    CON_MOD,
    K_BLOODIED_UP,
    K_DEATH_CON,
    K_DYING_GM,
    K_ECON_CMV,
    K_PASS_STABLE,
    K_SHAKEN_DEATH,
    K_STRAIN,
    SHEET_HP,
)

I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]

# --- the reasons a ConditionSet row gives (trace.py turns them into the reference's words) -----------------------
(RC_SYNC_ON, RC_SYNC_OFF, RC_DYING, RC_STABLE_DYING_SAVE, RC_STABLE_PASSED, RC_NONE, RC_DEAD_START,
 RC_DEAD_WHILE_DYING, RC_DEAD_WHILE_STABLE, RC_SLAIN, RC_SURVIVES_CDG) = range(11)
# --- why a death save is rolled --------------------------------------------------------------------------------
W_START, W_WHILE_DYING, W_WHILE_STABLE, W_PAST_HP, W_CDG = range(5)
# --- why damage is set back to hp ----------------------------------------------------------------------------------
HEAL_SAVE, HEAL_CDG = 0, 1


@njit_borrowing
def damage_taken(s: I64, cs: I64, i: int) -> int:
    """CMV-INJ-03 (``conditions.damage_taken``): hp of the stat block − current hp, never below 0."""
    return int(max(cs[i, SHEET_HP] - s[i, HP], 0))


@njit_borrowing
def bloodied_by_damage(kn: I64, hp: int, dmg: int) -> bool:
    """CMV-INJ-03: at half of hp, rounded up (or down, variant ``cmv_bloodied_rounding``)."""
    if dmg <= 0:
        return False
    if kn[K_BLOODIED_UP]:
        return 2 * dmg >= hp
    return dmg >= hp // 2


@njit_borrowing
def staggered(s: I64, cs: I64, i: int) -> bool:
    """CMV-INJ-09 (``ConditionTable.active``): damage taken ≥ hp, unless dying, stable or dead."""
    return damage_taken(s, cs, i) >= cs[i, SHEET_HP] and not s[i, COND] & OUT_COLD


# ================================================================== the economy (MinorMajorEconomy)

@njit_borrowing
def no_actions(s: I64, kn: I64, i: int) -> bool:
    """CMV-COND-21, CMV-INJ-17: dying, stable (both unconscious) and dead creatures take no actions."""
    return bool(kn[K_ECON_CMV] == 1 and s[i, COND] & (OUT_COLD | CB_COWERING) != 0)  # cowering: CMV-COND-31


@njit_borrowing
def single_action(s: I64, cs: I64, kn: I64, i: int) -> bool:
    """CMV-INJ-06: a staggered creature takes a single minor or major action (none is ever aided here)."""
    return kn[K_ECON_CMV] == 1 and staggered(s, cs, i)


# ================================================================== the injury (DamageTaken)

@njit_borrowing
def set_condition(ev: I64, s: I64, cs: I64, t: I64, kn: I64, i: int, bit: int, on: bool, reason: int) -> None:
    """Emit ``ConditionSet`` and apply it."""
    emit(ev, t, E_CONDITION, i, bit, 1 if on else 0, reason, damage_taken(s, cs, i), cs[i, SHEET_HP], 0)
    if on:
        s[i, COND] |= bit
    else:
        s[i, COND] &= ~bit
    refresh(s, cs, kn, i)


@njit_borrowing
def sync(ev: I64, s: I64, cs: I64, t: I64, kn: I64, i: int, only_bloodied: bool) -> None:
    """``DamageTaken.sync``: the derived injury conditions mirrored into the log."""
    hp = cs[i, SHEET_HP]
    dmg = damage_taken(s, cs, i)
    cond = s[i, COND]
    want = bloodied_by_damage(kn, hp, dmg)
    if want and not cond & CB_BLOODIED:
        set_condition(ev, s, cs, t, kn, i, CB_BLOODIED, True, RC_SYNC_ON)
    elif not want and cond & CB_BLOODIED:
        set_condition(ev, s, cs, t, kn, i, CB_BLOODIED, False, RC_SYNC_OFF)
    if only_bloodied:
        return
    want = dmg >= hp and not cond & OUT_COLD
    if want and not cond & CB_STAGGERED:
        set_condition(ev, s, cs, t, kn, i, CB_STAGGERED, True, RC_SYNC_ON)
    elif not want and cond & CB_STAGGERED:
        set_condition(ev, s, cs, t, kn, i, CB_STAGGERED, False, RC_SYNC_OFF)


@njit_borrowing
def death_save(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, i: int, dc: int, why: int, amount: int) -> bool:
    """``ConditionTable.saving_throw(…, "death", dc, why)``: d20 + Con (CMV-CDG-07), a natural 1 fails and a
    natural 20 succeeds; logged as a note."""
    face = roll(t, tape, 20)
    shaken = -2 if kn[K_SHAKEN_DEATH] and s[i, COND] & CB_PANICKED else 0  # panicked is shaken (CMV-COND-24)
    value = face + (cs[i, CON_MOD] if kn[K_DEATH_CON] else 0) + shaken
    ok = face == 20 or (face != 1 and value >= dc)
    emit(ev, t, E_SAVE, i, face, dc, why, amount, 1 if ok else 0, shaken)
    return ok


@njit_borrowing
def die(ev: I64, s: I64, cs: I64, t: I64, kn: I64, i: int, why: int) -> None:
    """``DamageTaken.die`` (CMV-INJ-17): no longer dying or stable, dead."""
    for bit in (CB_DYING, CB_STABLE):
        if s[i, COND] & bit:
            set_condition(ev, s, cs, t, kn, i, bit, False, RC_NONE)
    set_condition(ev, s, cs, t, kn, i, CB_DEAD, True, why)
    sync(ev, s, cs, t, kn, i, False)


@njit_borrowing
def survive(ev: I64, s: I64, cs: I64, t: I64, kn: I64, i: int) -> None:
    """``DamageTaken.survive`` for CMV-INJ-13: stable (variant), or damage set back to hp — staggered."""
    if kn[K_PASS_STABLE]:
        set_condition(ev, s, cs, t, kn, i, CB_STABLE, True, RC_STABLE_PASSED)
        emit(ev, t, E_STABLE, i, 0, 0, 0, 0, 0, 0)
        return
    hp = cs[i, SHEET_HP]
    now = damage_taken(s, cs, i)
    if hp < now:  # set_damage: the damage past hp is healed
        emit(ev, t, E_HEALED, i, now - hp, HEAL_SAVE, 0, 0, 0, 0)
        s[i, HP] += now - hp
        refresh(s, cs, kn, i)
    emit(ev, t, E_SURVIVES, i, hp, 0, 0, 0, 0, 0)


@njit_borrowing
def after_damage(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, target: int, amount: int) -> None:
    """``DamageTaken.after_damage`` (CMV-INJ-12/13/15)."""
    cond = s[target, COND]
    if cond & CB_DEAD:
        return
    sync(ev, s, cs, t, kn, target, True)
    if cond & (CB_DYING | CB_STABLE):
        dying = cond & CB_DYING and not cond & CB_STABLE
        if not death_save(ev, s, cs, t, kn, tape, target, 10 + amount, W_WHILE_DYING if dying else W_WHILE_STABLE,
                          amount):
            die(ev, s, cs, t, kn, target, RC_DEAD_WHILE_DYING if dying else RC_DEAD_WHILE_STABLE)
        elif not dying:
            emit(ev, t, E_STABLE, target, 0, 0, 0, 0, 0, 0)
    elif damage_taken(s, cs, target) > cs[target, SHEET_HP]:
        if death_save(ev, s, cs, t, kn, tape, target, 10 + amount, W_PAST_HP, damage_taken(s, cs, target)):
            survive(ev, s, cs, t, kn, target)
        else:
            set_condition(ev, s, cs, t, kn, target, CB_DYING, True, RC_DYING)
    sync(ev, s, cs, t, kn, target, False)


@njit_borrowing
def start_of_round(ev: I64, s: I64, cs: I64, t: I64, kn: I64) -> None:
    """``DamageTaken.start_of_round``: every creature's injury conditions, in the order of the battle."""
    for i in range(s.shape[0]):
        sync(ev, s, cs, t, kn, i, False)


@njit_borrowing
def start_of_turn(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, actor: int) -> None:
    """``DamageTaken.start_of_turn``: a dying creature's death save, DC 10 (CMV-INJ-11/16), or the GM's call."""
    cond = s[actor, COND]
    if not cond & CB_DYING or cond & (CB_STABLE | CB_DEAD):
        return
    if kn[K_DYING_GM]:
        emit(ev, t, E_DYING_GM, actor, 0, 0, 0, 0, 0, 0)
    elif death_save(ev, s, cs, t, kn, tape, actor, 10, W_START, 0):
        set_condition(ev, s, cs, t, kn, actor, CB_STABLE, True, RC_STABLE_DYING_SAVE)
        emit(ev, t, E_STABLE, actor, 0, 0, 0, 0, 0, 0)
    else:
        die(ev, s, cs, t, kn, actor, RC_DEAD_START)


@njit_borrowing
def strain(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, actor: int) -> None:
    """``DamageTaken.strain`` after a major or full-round action (CMV-INJ-08): 1 damage while staggered."""
    if not kn[K_STRAIN] or not staggered(s, cs, actor):
        return
    apply_damage(ev, s, cs, t, kn, actor, 1, SRC_STRENUOUS)
    after_damage(ev, s, cs, t, kn, tape, actor, 1)
