"""Off-guard's coup de grace (:class:`~d20combat.rulesets.off_guard.coup_de_grace.CoupDeGraceRules`, the action
of :class:`~d20combat.rulesets.off_guard.action_set.CmvActions` that :class:`~d20combat.rulesets.off_guard.tactics.
CmvTactics` has the AI take against a helpless foe) in the kernel, switched on by ``kn[K_TACTICS_CMV]``: the
"found" effect of its first, finding action against total concealment (CMV-CDG-11), the projectile shot from an
adjacent square (CMV-CDG-03) and the death save DC 10 + the damage dealt that follows a hit (CMV-CDG-06..09).
The strike's own attack (legality, +4, the roll) is the kernel's attack (:mod:`.kernel`), which calls these."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.geometry import TOTAL, cover_degree
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_attack import situational
from d20combat.simulation.fast.kernel_base import (
    CB_DYING,
    CB_STABLE,
    COND,
    E_CDG_SURVIVES,
    E_FIND_NOTE,
    E_FOUND_ADD,
    E_HEALED,
    HP,
    LOADED,
    PC,
    PR,
    SRC_CDG,
    T_ROUND,
    apply_damage,
    emit,
    refresh,
)
from d20combat.simulation.fast.kernel_concealment import concealment
from d20combat.simulation.fast.kernel_cover import soft_and_improved_cover
from d20combat.simulation.fast.kernel_effects import add_found, end_found, found_slot
from d20combat.simulation.fast.kernel_injury import (
    HEAL_CDG,
    RC_SLAIN,
    RC_SURVIVES_CDG,
    W_CDG,
    damage_taken,
    death_save,
    die,
    set_condition,
    sync,
)
from d20combat.simulation.fast.layout import (
    ATK_TOTAL,
    COVER_BY_CREATURES,
    K_CDG_KEEPS,
    K_COVER_CMV,
    K_PARTIAL,
    RELOAD,
    RELOAD_NONE,
    SHEET_HP,
    SIZE,
)

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
U8 = npt.NDArray[np.uint8]
U32 = npt.NDArray[np.uint32]

BONUS = 4
"""CMV-CDG-04: +4 to hit."""


@njit_borrowing
def find(ev: I64, s: I64, t: I64, actor: int, target: int) -> None:
    """CMV-CDG-11: the first of two full-round actions finds the target in its square, for two rounds (beside any
    other creature the actor has found, kernel_effects)."""
    until = t[T_ROUND] + 2
    c, r = s[target, PC], s[target, PR]
    emit(ev, t, E_FOUND_ADD, actor, target, c, r, until, 0, 0)
    add_found(s, t, actor, target, c, r, until)
    emit(ev, t, E_FIND_NOTE, actor, target, c, r, 0, 0, 0)


@njit_borrowing
def lose_found(ev: I64, s: I64, t: I64, actor: int, target: int) -> None:
    """The effect "found <target>" ends (the coup de grace strikes)."""
    end_found(ev, s, t, actor, found_slot(s, actor, target))


@njit_borrowing
def adjacent_shot(s: I64, cs: I64, opt: I64, kn: I64, cover_mode: I64, walls: U8, low: U8, scratch: U8,
                  concealing: I16, light: I64, occ: I16, att: int, tgt: int, o: int) -> tuple[bool, int, int, int]:
    """``CoupDeGraceRules.adjacent_shot`` (CMV-CDG-03): a loaded projectile weapon, no 10-ft rule, no range or
    into-melee penalty: (legal, attack total with the +4, cover degree, miss chance — negative when total)."""
    if opt[att, o, RELOAD] != RELOAD_NONE and not s[att, LOADED + o]:
        return False, 0, 0, 0
    total = opt[att, o, ATK_TOTAL] + BONUS + situational(s, cs, opt, kn, light, att, tgt, True)
    ac, ar, asize = s[att, PC], s[att, PR], cs[att, SIZE]
    tc, tr, tsize = s[tgt, PC], s[tgt, PR], cs[tgt, SIZE]
    if kn[K_COVER_CMV]:
        degree = soft_and_improved_cover(walls, low, scratch, light, occ, s, cs, att, tgt, ac, ar, True, True, True)
    else:
        degree = cover_degree(walls, low, occ, opt[att, o, COVER_BY_CREATURES] == 1, ac, ar, asize, tc, tr, tsize,
                              cover_mode[1, 0, 1] == 1, kn[K_PARTIAL] == 1)
    if degree == TOTAL:
        return False, 0, 0, 0
    pct, any_total = concealment(kn, concealing, light, cs, att, ac, ar, asize, tc, tr, tsize, 5, False, tgt)
    return True, int(total), degree, -pct if any_total else pct


@njit_borrowing
def survive_or_die(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, target: int, dealt: int) -> None:
    """``CoupDeGraceRules.save`` (CMV-CDG-06..09): dead unless a death save DC 10 + the damage dealt passes; a
    survivor is no longer dying or stable (unless ``cmv_cdg_survivor_keeps_state``) and its damage is set to hp."""
    cond = s[target, COND]
    if not death_save(ev, s, cs, t, kn, tape, target, 10 + dealt, W_CDG, dealt):
        die(ev, s, cs, t, kn, target, RC_SLAIN)
        return
    keeps = kn[K_CDG_KEEPS] == 1 and cond & (CB_DYING | CB_STABLE) != 0
    if not keeps:
        for bit in (CB_DYING, CB_STABLE):
            if cond & bit:
                set_condition(ev, s, cs, t, kn, target, bit, False, RC_SURVIVES_CDG)
    hp = cs[target, SHEET_HP]
    now = damage_taken(s, cs, target)
    if hp < now:
        emit(ev, t, E_HEALED, target, now - hp, HEAL_CDG, 0, 0, 0, 0)
        s[target, HP] += now - hp
        refresh(s, cs, kn, target)
    elif hp > now:
        apply_damage(ev, s, cs, t, kn, target, hp - now, SRC_CDG)
    kept = 0 if not keeps else (1 if cond & CB_DYING else 2)
    emit(ev, t, E_CDG_SURVIVES, target, hp, kept, 0, 0, 0, 0)
    sync(ev, s, cs, t, kn, target, False)
