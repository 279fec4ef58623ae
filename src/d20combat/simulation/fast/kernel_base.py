"""The kernel's shared vocabulary: the state columns and scalars, the event codes, the dice and the event
writer, and the health the injury component gives a creature — what :mod:`.kernel` and its component modules
(:mod:`.kernel_injury`) all read, so none of them imports another in a circle."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import footprint_distance_ft
from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.layout import CON_SCORE, K_INJURY_CMV, SIZE, T_SKL_END

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]
F64 = npt.NDArray[np.float64]
B1 = npt.NDArray[np.bool_]

# --- mutable per-creature state (S) -------------------------------------------------------------------
HP, PC, PR, STABLE, WIELD, CHARGE_UNTIL, DEALT, TAKEN, SURPRISED = range(9)
COND, DOWN, DEAD = 9, 10, 11
"""``COND``: the stored conditions the kernel tracks (bits ``CB_*``). ``DOWN`` and ``DEAD`` are what the injury
component says of the creature now — helpless and out of the fight (PFB: below 0 hp; CMV: dying, stable or
dead), dead — kept up to date by :func:`refresh` after every change of hp or conditions."""
FOUND_TGT, FOUND_C, FOUND_R, FOUND_UNTIL, FOUND_FIRST, REACT = 12, 13, 14, 15, 16, 17
"""The effect "found <target> at (c, r)" of a coup de grace's first, finding action (CMV-CDG-11): the target
(-1: none), the square, the round it lasts until, and whether it was added before the charging effect. ``REACT``:
attacks of opportunity left this round (kernel_reactions)."""
LOADED = 18
"""Columns ``LOADED + o``: option ``o`` is loaded (crossbows, PFB-ITEM-08)."""

# --- scalars (T) ---------------------------------------------------------------------------------------
(T_ROUND, T_INDEX, T_ACTOR, T_STD, T_MOV, T_FREE, T_FREE_USED, T_MOVED, T_STEPPED, T_DIAGS, T_ACTIONS,
 T_SURPRISE, T_ENDED, T_WINNER, T_TIMEOUT, T_ATTACKS, T_TAPE, T_ROLLS, T_NEV, T_EXHAUSTED, T_HAS_TURN,
 T_STRIKE, T_STRUCK) = range(23)
N_T = T_SKL_END
"""``T_STRIKE``: 1 + the target of the coup de grace whose attack is resolving (0: none), whose damage is kept in
``T_STRUCK`` for the coup de grace's own death save (CMV-CDG-06) instead of the injury's answer."""

# --- health (rules.health.Health) -------------------------------------------------------------------------
H_OK, H_DISABLED, H_DYING, H_DEAD = 0, 1, 2, 3
H_STABLE_REASON = 4
"""A turn-end reason code only: dying but stable (``HitPoints.cannot_act_reason``)."""
H_CMV_DEAD, H_CMV_DYING, H_CMV_STABLE = 5, 6, 7
"""Turn-end reason codes of off-guard's injury (``DamageTaken.cannot_act_reason``)."""

# --- stored conditions the kernel tracks (COND bits) ----------------------------------------------------------
CB_BLOODIED, CB_STAGGERED, CB_DYING, CB_STABLE, CB_DEAD, CB_OFF_GUARD = 1, 2, 4, 8, 16, 32
OUT_COLD = CB_DYING | CB_STABLE | CB_DEAD
CB_PANICKED, CB_COWERING = 64, 128
"""Off-guard's fear (kernel_fear): the starting ``panicked:<source>:<DC>`` (CMV-COND-27/28) and the
``cowering:cornered`` it brings when cornered (CMV-COND-29/31)."""

# --- costs and the labels ``Ruleset.pay`` gives them ------------------------------------------------------
C_STANDARD, C_MOVE, C_FULL, C_FREE, C_NONE = 0, 1, 2, 3, 4
L_STANDARD, L_MOVE, L_STD_AS_MOVE, L_FULL, L_FREE, L_NONE = 0, 1, 2, 3, 4, 5

# --- actions -------------------------------------------------------------------------------------------------
A_END, A_ATTACK, A_MOVE, A_CHARGE, A_DRAW, A_RELOAD, A_STEP, A_CDG, A_FIND = 0, 1, 2, 3, 4, 5, 6, 7, 8

# --- the encounter's scratch arrays (m[M_PAD]) ------------------------------------------------------------------
M_PAD = 10
"""``m[M_PAD]``: the encounter's scratch arrays (:func:`scratch`, made once by ``kernel.run``), so that the helpers
called every turn allocate nothing and compile without reference counting (:func:`.jit.njit_borrowing`):"""
PAD_FOES, PAD_INTS, PAD_FLOATS, PAD_BOOLS, PAD_PATH = range(5)
"""``PAD_FOES``: the foes of the creature choosing (``kernel_ai.foes_into``); ``PAD_INTS`` / ``PAD_FLOATS``: the
skill-based tactics' candidates (``kernel_skill_tactics.suggestion``); ``PAD_BOOLS``: a mask of creatures (who
has been offered an attack of opportunity); ``PAD_PATH``: the chosen move's path (``kernel_ai.move_to``), read by
``kernel.execute``. Each has one writer at a time: none is used by a function its own user calls."""
PAD_PER_FOE = 16
"""Integers of ``PAD_INTS`` per creature (the suggestion's sorted foes and its table of 3 candidates per foe)."""


@njit
def scratch(n: int, longest_path: int) -> tuple[I64, I64, F64, B1, I64]:
    """The scratch arrays of :data:`M_PAD` for ``n`` creatures and paths of up to ``longest_path`` squares."""
    return (np.zeros(n, dtype=np.int64), np.zeros(PAD_PER_FOE * n + 8, dtype=np.int64),
            np.zeros(3 * n + 16, dtype=np.float64), np.zeros(n, dtype=np.bool_),
            np.zeros((max(longest_path, 1), 2), dtype=np.int64))


# --- event rows (EV[k] = code, a, b, c, d, e, f, g) ---------------------------------------------------------
E_ROUND, E_TURN_START, E_TURN_END, E_BUDGET, E_MOVED, E_PATH, E_ATTACK, E_DAMAGED, E_NOTE, E_STABLE, \
    E_EFFECT_ADD, E_EFFECT_END, E_EQUIP, E_END = range(1, 15)
E_CONDITION, E_SAVE, E_HEALED, E_SURVIVES, E_DYING_GM = range(15, 20)
"""Off-guard's injury events: ``ConditionSet`` (target, condition bit, on, reason code, damage, hp), the death
save's note (target, face, DC, why code, amount, succeeded), ``Healed`` (target, amount), the survivor's note
(target, hp) and the GM's note on a dying creature (target)."""
E_FOUND_ADD, E_FOUND_END, E_FIND_NOTE, E_CDG_SURVIVES = range(20, 24)
"""The coup de grace's events: the "found" effect added (actor, target, c, r, until) and ended (actor, target),
the note of the finding action (actor, target, c, r) and the survivor's note (target, hp, kept state code)."""
E_REACTIONS_SET, E_REACTION_SPENT = 24, 25
"""``ReactionsSet`` (creature, attacks of opportunity) and ``ReactionSpent`` (reactor, mover, the square left)."""
E_FEAR_SAVE, E_POOLS = 26, 27
"""Off-guard's fear (kernel_fear): the Will save's note (creature, face, DC, succeeded) and ``TurnPoolsSet``
(creature, standard, move, free) once the start-of-turn changes settle."""
MODE_MOVE, MODE_STEP, MODE_CHARGE = 0, 1, 2
R_NONE, R_CANNOT, R_SURPRISED, R_HEALTH = 0, 1, 2, 3
R_COWERING = 4
"""``Encounter._cannot_act``: cowering, it takes no actions (CMV-COND-31)."""
NOTE_FIRES, NOTE_DRAWS, NOTE_RELOADS = 0, 1, 2
SRC_BLEEDING, SRC_STRENUOUS, SRC_CDG = -1, -2, -3


# ================================================================== dice and events

@njit_borrowing
def roll(t: I64, tape: U32, sides: int) -> int:
    """``random.Random.randint(1, sides)`` on the tape (``_randbelow_with_getrandbits``)."""
    k = 0
    v = sides
    while v > 0:
        k += 1
        v >>= 1
    while True:
        pos = t[T_TAPE]
        if pos >= tape.shape[0]:
            t[T_EXHAUSTED] = 1
            t[T_ENDED] = 1
            return 1
        t[T_TAPE] = pos + 1
        r = np.int64(tape[pos]) >> (32 - k)
        if r < sides:
            t[T_ROLLS] += 1
            return int(r) + 1


@njit_borrowing
def emit(ev: I64, t: I64, code: int, a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> None:
    n = t[T_NEV]
    if n < ev.shape[0]:
        ev[n, 0] = code
        ev[n, 1] = a
        ev[n, 2] = b
        ev[n, 3] = c
        ev[n, 4] = d
        ev[n, 5] = e
        ev[n, 6] = f
        ev[n, 7] = g
    t[T_NEV] = n + 1


# ================================================================== health

@njit_borrowing
def health(hp: int, con_score: int) -> int:
    """``rules.health.health`` (PFB-HP-01..03)."""
    if hp <= -con_score:
        return H_DEAD
    if hp < 0:
        return H_DYING
    if hp == 0:
        return H_DISABLED
    return H_OK


@njit_borrowing
def refresh(s: I64, cs: I64, kn: I64, i: int) -> None:
    """``DOWN`` and ``DEAD`` of creature ``i`` from its hp (PFB-HP-02/03) or its stored conditions (CMV-INJ-10,
    CMV-INJ-14, CMV-INJ-17: dying, stable and dead are helpless; damage alone never kills)."""
    if kn[K_INJURY_CMV]:
        s[i, DOWN] = 1 if s[i, COND] & OUT_COLD else 0
        s[i, DEAD] = 1 if s[i, COND] & CB_DEAD else 0
    else:
        h = health(s[i, HP], cs[i, CON_SCORE])
        s[i, DOWN] = 1 if h >= H_DYING else 0
        s[i, DEAD] = 1 if h == H_DEAD else 0


@njit_borrowing
def apply_damage(ev: I64, s: I64, cs: I64, t: I64, kn: I64, target: int, amount: int, source: int) -> None:
    """Emit ``Damaged`` and apply it (``apply._damaged``); the injury component's answer comes after."""
    emit(ev, t, E_DAMAGED, target, amount, source, 0, 0, 0, 0)
    s[target, HP] -= amount
    s[target, TAKEN] += amount
    s[target, STABLE] = 0
    if source >= 0 and source != target:
        s[source, DEALT] += amount
    refresh(s, cs, kn, target)


@njit_borrowing
def dist_between(s: I64, cs: I64, i: int, j: int) -> int:
    return footprint_distance_ft(s[i, PC], s[i, PR], cs[i, SIZE], s[j, PC], s[j, PR], cs[j, SIZE])


@njit_borrowing
def occupy(occ: I16, s: I64, cs: I64, i: int, delta: int) -> None:
    size = cs[i, SIZE]
    for dc in range(size):
        for dr in range(size):
            occ[s[i, PC] + dc, s[i, PR] + dr] += delta


@njit_borrowing
def walk(ev: I64, s: I64, cs: I64, t: I64, occ: I16, me: int, mode: int, cost: int, diags: int,
         path: I64, plen: int) -> None:
    """Emit ``Moved`` and apply it (``apply._moved``); one stretch without attacks of opportunity."""
    emit(ev, t, E_MOVED, me, mode, cost, diags, plen, 0, 0)
    for k in range(plen):
        emit(ev, t, E_PATH, path[k, 0], path[k, 1], 0, 0, 0, 0, 0)
    occupy(occ, s, cs, me, -1)
    s[me, PC] = path[plen - 1, 0]
    s[me, PR] = path[plen - 1, 1]
    occupy(occ, s, cs, me, 1)
    t[T_DIAGS] = diags
    if mode == MODE_STEP:
        t[T_STEPPED] = 1
    else:
        t[T_MOVED] = 1
