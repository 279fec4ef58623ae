"""Skill-based's tactics in the kernel (:class:`SkillTactics`, switched on by ``kn[K_SKL_TACTICS]``) and the actions
it chooses: the reserve declaration (:class:`Reserve`, SKL-RES-02), the feint (kernel_skill_feint) and the
spell (kernel_skill_spells); its attacks
carry the critical-attack penalty (SKL-CRIT), which the attack (kernel_strike) reads from ``t[T_SKL_CRIT]``.

``SkillTactics.ai_suggestion`` replayed: the foes by (hp, name); a spell in hand is cast at the first it can be;
for each, the attack with the wielded weapon at
the critical-attack penalty 0..5 with the best expected damage (the die as the attack counts it, the foe's best
block or dodge answering a hit unless our feint opened it, mean damage after armor, ``kn[K_SKL_DANGER + …]`` halved,
plus the penalty times the weapon's factor ``kn[K_SKL_FACTOR + …]``), and a feint when the foe's defenses spoil more
than the attack is worth; wounded (hp × 3 ≤ the sheet's) and engaged with nothing worth ≥ 1: hold every complex
action; else the most valuable legal choice (the first on a tie); engaged with no attack at all: hold them; engaged
with nothing left to strike or defend with: end the turn. Floats are computed in the reference's order, so every
comparison comes out the same. In the two-weapon mode (a starting condition) each foe's choices also hold the off hand's
bonus attack, and a feint counts double (the off hand can use the opening at once).

Event row ``E_SKL_DECLARE`` is the economy's hold row (``E_SKL_HOLD`` with ``d`` = 1): the declaration's
``BudgetSpent`` (cost "none", the complex actions and the declaration) and its ``ReactionsSet`` and note.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import (
    A_ATTACK,
    A_END,
    C_STANDARD,
    DOWN,
    HP,
    M_PAD,
    PAD_FLOATS,
    PAD_INTS,
    PC,
    PR,
    T_ACTIONS,
    T_STD,
    T_SURPRISE,
    WIELD,
    emit,
)
from d20combat.simulation.fast.kernel_flow import pay_label
from d20combat.simulation.fast.kernel_skill_defense import _row, engaged
from d20combat.simulation.fast.kernel_skill_economy import E_SKL_HOLD
from d20combat.simulation.fast.kernel_skill_feint import opening
from d20combat.simulation.fast.kernel_skill_spells import cast_ok
from d20combat.simulation.fast.kernel_skill_twf import off_attack
from d20combat.simulation.fast.kernel_strike import plan, roll_attack, target_ac
from d20combat.simulation.fast.layout import (
    A_SKL_BONUS,
    A_SKL_CAST,
    A_SKL_FEINT,
    A_SKL_RESERVE,
    ID_RANK,
    K_SKL_AOO_PER_ROUND,
    K_SKL_ARMOR,
    K_SKL_DANGER,
    K_SKL_FACTOR,
    K_SKL_FEINT,
    K_SKL_RESIST,
    K_SKL_ROUND_SURPRISE,
    K_SKL_TACTICS,
    K_SKL_THREAT,
    MAX_SKL_OPTIONS,
    RANGED,
    REACH,
    SHEET_HP,
    SIZE,
    SKL_BLOCK,
    SKL_BLOCK_OFF,
    SKL_DODGE,
    SKL_NO_DEFENSE,
    SKL_RANGED_MAIN,
    SPELL,
    T_SKL_CRIT,
    T_SKL_DECLARE,
    T_SKL_OFF,
    T_SKL_OFF_TURN,
    T_SKL_RESERVE,
)

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]

NO_SUGGESTION = -1
E_SKL_BONUS = 109
"""The off-hand attack's ``BudgetSpent`` (attacker, target, option)."""


@njit_borrowing
def expected_damage(out: F64, faces: I64, bonus: int, pd: int, mean: float, factor: int, has_def: bool,
                    best_def: int) -> None:
    """``SkillTactics._expected_damage``: one attack's expected damage at each critical-attack penalty 0..5, in
    ``out[0:6]``."""
    for p in range(6):
        value = 0.0
        for face in range(1, 21):
            roll = faces[face] + bonus - p
            if roll >= pd:
                stop = min(max(21 - (roll - best_def), 0), 20) / 20 if has_def else 0.0
                value += (1 - stop) * max(mean + p * factor, 0.0) / 20
        out[p] = value


@njit_borrowing
def best_defense(s: I64, cs: I64, t: I64, kn: I64, me: int, foe: int) -> tuple[bool, int]:
    """``BlockAndDodge.available_defenses`` at its best (the foe can act, holds a complex action, and our feint
    has not opened it): (any, the best bonus)."""
    reserve, off = t[T_SKL_RESERVE + foe] > 0, t[T_SKL_OFF + foe] > 0
    if s[foe, DOWN] or not (reserve or off) or opening(t, kn, foe, me):
        return False, 0
    row = _row(kn, foe, s[foe, WIELD])
    tail = -6 if kn[row + SKL_RANGED_MAIN] and engaged(s, cs, kn, foe) else 0
    found, best = reserve, kn[row + SKL_DODGE] + tail
    for k in (SKL_BLOCK, SKL_BLOCK_OFF):  # block and dodge from the reserve, the off hand's block from either
        usable = (reserve or k == SKL_BLOCK_OFF) and kn[row + k] != SKL_NO_DEFENSE
        if usable and (not found or kn[row + k] + tail > best):
            found, best = True, kn[row + k] + tail
    return found, best


@njit_borrowing
def feint_option(s: I64, cs: I64, kn: I64, me: int, foe: int) -> int:
    """The option ``Feinting.feint`` feints ``foe`` with (the threatening weapon, SKL-AOO-02, when the foe is in its
    reach, SKL-FEINT-01), or -1."""
    o = kn[K_SKL_THREAT + me * (MAX_SKL_OPTIONS + 1) + s[me, WIELD] + 1]
    if o < 0:
        return -1
    d = fp_dist(s[me, PC], s[me, PR], cs[me, SIZE], s[foe, PC], s[foe, PR], cs[foe, SIZE])
    return o if 0 < d <= cs[me, REACH] else -1


@njit_borrowing
def _reserve_ok(t: I64, kn: I64) -> bool:
    """``ComplexBasicEconomy.declare_reserve``'s check of a declaration holding every complex action left."""
    return not (t[T_SURPRISE] and t[T_ACTIONS] > 0 and kn[K_SKL_ROUND_SURPRISE])


@njit_borrowing
def _weakest_first(s: I64, cs: I64, f: int) -> int:
    """The suggestion's order of foes: by hit points, then name (unique: no two foes share a rank)."""
    return int((s[f, HP] + 1_000_000) * 1_000_000 + cs[f, ID_RANK])


@njit_borrowing
def suggestion(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int,  # type: ignore[type-arg]
               foes_in_order: I64) -> tuple[int, int, int, int]:
    """``SkillTactics.ai_suggestion`` when legal: (action, argument, argument, critical-attack penalty), or
    ``NO_SUGGESTION`` (TacticalAI goes on with its own choice). Its tables live in ``m[M_PAD]``."""
    cs, opt, faces, kn = w[0], w[1], w[7], w[9]
    if not kn[K_SKL_TACTICS]:
        return NO_SUGGESTION, 0, 0, 0
    n = foes_in_order.shape[0]
    ints, floats = m[M_PAD][PAD_INTS], m[M_PAD][PAD_FLOATS]
    foes = ints[:n]
    for k in range(n):  # sorted weakest first (an insertion sort of a handful)
        f = foes_in_order[k]
        key = _weakest_first(s, cs, f)
        j = k
        while j > 0 and _weakest_first(s, cs, foes[j - 1]) > key:
            foes[j] = foes[j - 1]
            j -= 1
        foes[j] = f
    complex_left = t[T_STD]
    main = s[me, WIELD]
    declare = t[T_SKL_DECLARE] == 0
    is_engaged = engaged(s, cs, kn, me)
    if complex_left and main >= 0 and opt[me, main, SPELL]:
        for foe in foes:  # SKL-CSPL-02: a spell is cast through CastSpell (kernel_skill_spells)
            if cast_ok(w, m, s, t, occ, me, foe, main):
                return A_SKL_CAST, foe, main, 0
    off_left = t[T_SKL_OFF_TURN]
    off_o = off_attack(s, kn, me) if off_left else -1  # the two-weapon bonus attack (kernel_skill_twf)
    kinds, targets, options, pens = ints[n:4 * n], ints[4 * n:7 * n], ints[7 * n:10 * n], ints[10 * n:13 * n]
    values, vals, open_vals = floats[:3 * n], floats[3 * n:3 * n + 6], floats[3 * n + 6:3 * n + 12]
    nc = 0
    can_attack = False
    for foe in foes:
        for hand in range(2):
            o = main if hand == 0 else off_o
            if (hand == 0 and not complex_left) or o < 0:
                continue
            ok, _total, raw, degree, _pct = plan(w, m, s, t, occ, me, foe, o, s[me, PC], s[me, PR], True)
            if not ok:
                continue
            if hand == 0:
                can_attack = True
            pd = target_ac(w, m[5], s, t, me, foe, o, degree)
            has_def, best_def = best_defense(s, cs, t, kn, me, foe)
            mean = (kn[K_SKL_DANGER + me * (MAX_SKL_OPTIONS + 1) + o] - 2 * kn[K_SKL_ARMOR + foe]) / 2
            factor = kn[K_SKL_FACTOR + me * (MAX_SKL_OPTIONS + 1) + o]
            expected_damage(vals, faces, raw, pd, mean, factor, has_def, best_def)
            p = 0
            for k in range(1, 6):
                if vals[k] > vals[p]:
                    p = k
            values[nc], targets[nc], options[nc], pens[nc] = vals[p], foe, o, p
            kinds[nc] = A_ATTACK if hand == 0 else A_SKL_BONUS
            nc += 1
            if has_def and hand == 0 and not opt[me, o, RANGED]:
                expected_damage(open_vals, faces, raw, pd, mean, factor, False, 0)
                open_value = open_vals[0]
                for k in range(1, 6):
                    open_value = max(open_value, open_vals[k])
                feint = kn[K_SKL_FEINT + me * (MAX_SKL_OPTIONS + 1) + o]
                resist = kn[K_SKL_RESIST + foe]
                count = 0
                for x in range(1, 21):
                    for y in range(1, 21):
                        if x + feint > y + resist:
                            count += 1
                gain = count / 400 * (open_value - vals[p]) * (2 if off_o >= 0 else 1)
                if gain > vals[p]:
                    values[nc], kinds[nc], targets[nc], options[nc], pens[nc] = gain, A_SKL_FEINT, foe, o, 0
                    nc += 1
    best = 0.0
    for k in range(nc):
        best = values[k] if k == 0 else max(best, values[k])
    if declare and complex_left and is_engaged and s[me, HP] * 3 <= cs[me, SHEET_HP] and best < 1:
        if _reserve_ok(t, kn):
            return A_SKL_RESERVE, complex_left, off_left, 0
        return NO_SUGGESTION, 0, 0, 0
    chosen = -1
    affordable = pay_label(s, cs, t, kn, C_STANDARD) != -1
    spell = opt[me, main, SPELL] if main >= 0 else 0  # an attack with a spell: cast it instead (SKL-CSPL-02)
    for k in range(nc):
        if kinds[k] == A_SKL_FEINT and feint_option(s, cs, kn, me, targets[k]) < 0:
            continue
        if kinds[k] == A_ATTACK and spell:
            continue
        if kinds[k] != A_SKL_BONUS and not affordable:
            continue
        if chosen == -1 or values[k] > values[chosen]:
            chosen = k
    if chosen != -1:
        return kinds[chosen], targets[chosen], options[chosen], pens[chosen]
    if declare and complex_left and is_engaged and not can_attack:
        if _reserve_ok(t, kn):
            return A_SKL_RESERVE, complex_left, off_left, 0
        return NO_SUGGESTION, 0, 0, 0
    if is_engaged and not complex_left and not off_left and not t[T_SKL_RESERVE + me]:
        return A_END, 0, 0, 0  # nothing left to strike or defend with
    return NO_SUGGESTION, 0, 0, 0


@njit_borrowing
def declare_reserve(ev: I64, t: I64, kn: I64, me: int, count: int, off: int) -> None:
    """``ComplexBasicEconomy.declare_reserve`` (SKL-RES-01/02): hold ``count`` complex actions (and ``off``, the
    off hand's bonus action) for the round."""
    t[T_STD] -= count
    t[T_SKL_OFF_TURN] -= off
    t[T_SKL_DECLARE] = 1
    t[T_SKL_RESERVE + me] = count
    t[T_SKL_OFF + me] = off
    emit(ev, t, E_SKL_HOLD, me, count, kn[K_SKL_AOO_PER_ROUND], 1, off, 0, 0)


@njit_borrowing
def bonus_attack(w: tuple, m: tuple, ev: I64, s: I64, t: I64, occ: I16, tape: U32,  # type: ignore[type-arg]
                 me: int, foe: int, o: int, p: int) -> None:
    """``TwoWeapons.bonus_attack`` (SKL-TWF-01/02): the off-hand attack paid by the bonus complex action, at the
    declared critical-attack penalty ``p``."""
    _ok, total, _raw, degree, pct = plan(w, m, s, t, occ, me, foe, o, s[me, PC], s[me, PR], True)
    emit(ev, t, E_SKL_BONUS, me, foe, o, 0, 0, 0, 0)
    t[T_SKL_OFF_TURN] -= 1
    t[T_ACTIONS] += 1
    t[T_SKL_CRIT] = p
    roll_attack(w, m[5], ev, s, t, tape, me, foe, o, total - p, degree, pct)
    t[T_SKL_CRIT] = 0

