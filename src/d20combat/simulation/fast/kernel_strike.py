"""The kernel's attack: ``Encounter._plan_attack`` (legality, modifiers, cover, concealment), ``target_ac`` and
``_roll_attack`` — under the core components or off-guard's (kernel_attack, kernel_cover, kernel_defense), as the
knobs say. Shared by the AI and the actions (:mod:`.kernel`) and the reaction attacks (:mod:`.kernel_reactions`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.geometry import COVER, PARTIAL, TOTAL, cover_degree
from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_attack import situational
from d20combat.simulation.fast.kernel_base import (
    CHARGE_UNTIL,
    DEAD,
    DOWN,
    E_ATTACK,
    LOADED,
    PC,
    PR,
    T_ATTACKS,
    WIELD,
    emit,
    occupy,
    roll,
)
from d20combat.simulation.fast.kernel_concealment import concealment
from d20combat.simulation.fast.kernel_cover import soft_and_improved_cover
from d20combat.simulation.fast.kernel_defense import off_guard, squeezing
from d20combat.simulation.fast.kernel_flow import (
    damage,
)
from d20combat.simulation.fast.kernel_skill_damage import miss_chance, mitigate
from d20combat.simulation.fast.kernel_skill_defense import active_defense
from d20combat.simulation.fast.kernel_skill_feint import attack_rolled
from d20combat.simulation.fast.kernel_skill_reactions import held
from d20combat.simulation.fast.kernel_skill_twf import hand_penalty
from d20combat.simulation.fast.layout import (
    ATK_SUM,
    ATK_TOTAL,
    COVER_BY_CREATURES,
    D_COUNT,
    D_SIDES,
    E_BONUS,
    E_COUNT,
    E_SIDES,
    INTO_MELEE,
    INTO_MELEE_FLAG,
    K_CLEARANCE,
    K_CONC_BEFORE,
    K_COVER_CMV,
    K_COVER_VALUE,
    K_MELEE_IGNORES_HELPLESS,
    K_MIN_DAMAGE,
    K_MINRANGE_IGNORES_HELPLESS,
    K_PARTIAL,
    K_PARTIAL_VALUE,
    K_SKL_FACTOR,
    K_SOFT_RANGED_ONLY,
    MAX_SKL_OPTIONS,
    MULT,
    N_ATTACKS,
    RANGED,
    REACH,
    RELOAD,
    RELOAD_NONE,
    SIDE,
    SIZE,
    SNEAK_HELPLESS,
    SNEAK_VS_ANY,
    SPELL,
    STATIC,
    T_SKL_CRIT,
    TOUCH,
)

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]


# ================================================================== attacks (attack_actions.py)

@njit_borrowing
def plan_attack(s: I64, cs: I64, opt: I64, rng: I64, cover_mode: I64, kn: I64, t: I64, walls: U8,
                low_walls: U8, scratch: U8, concealing: I16, light: I64, occ: I16, att: int, tgt: int, o: int,
                fc: int, fr: int, square_given: bool) -> tuple[bool, int, int, int, int]:
    """``Encounter._plan_attack`` from square ``(fc, fr)``: (legal, attack total, raw modifier sum,
    cover degree, concealment %, negative when a source is total — an attack into a guessed square)."""
    if s[tgt, DEAD]:
        return False, 0, 0, 0, 0
    if o < 0 or o >= cs[att, N_ATTACKS]:
        return False, 0, 0, 0, 0
    spell = opt[att, o, SPELL] == 1
    if not spell and s[att, WIELD] != o and not held(kn, att, o):  # skill-based: off hand, unarmed (holds)
        return False, 0, 0, 0, 0
    if opt[att, o, RELOAD] != RELOAD_NONE and not s[att, LOADED + o]:
        return False, 0, 0, 0, 0
    asize = cs[att, SIZE]
    tc, tr, tsize = s[tgt, PC], s[tgt, PR], cs[tgt, SIZE]
    dist = fp_dist(fc, fr, asize, tc, tr, tsize)
    ranged = opt[att, o, RANGED] == 1
    # P18: the concealment component's sources and how it combines them (kernel_concealment).
    pct, any_total = concealment(kn, concealing, light, cs, att, fc, fr, asize, tc, tr, tsize, dist,
                                 not ranged and dist == 5, tgt)
    if any_total and not square_given:
        return False, 0, 0, 0, 0
    total = opt[att, o, ATK_TOTAL]
    raw = opt[att, o, ATK_SUM]
    n = s.shape[0]
    if ranged:
        d = dist // 5
        if d >= rng.shape[2] or rng[att, o, d, 0] == 0:
            return False, 0, 0, 0, 0
        total += rng[att, o, d, 1]
        raw += rng[att, o, d, 1]
        if not spell and kn[K_CLEARANCE]:
            for e in range(n):
                if cs[e, SIDE] == cs[att, SIDE]:
                    continue
                if s[e, DEAD] or (kn[K_MINRANGE_IGNORES_HELPLESS] and s[e, DOWN]):
                    continue
                if fp_dist(fc, fr, asize, s[e, PC], s[e, PR], cs[e, SIZE]) < 10:
                    return False, 0, 0, 0, 0
        if cs[att, INTO_MELEE_FLAG]:
            for a in range(n):
                if a == att or cs[a, SIDE] != cs[att, SIDE]:
                    continue
                if kn[K_MELEE_IGNORES_HELPLESS] and s[a, DOWN]:
                    continue
                if fp_dist(s[a, PC], s[a, PR], cs[a, SIZE], tc, tr, tsize) == 5:
                    total += cs[att, INTO_MELEE]
                    raw += cs[att, INTO_MELEE]
                    break
    elif not (0 < dist <= cs[att, REACH]):
        return False, 0, 0, 0, 0
    sit = situational(s, cs, opt, kn, light, att, tgt, ranged)  # off-guard's situational modifiers (kernel_attack)
    sit += hand_penalty(s, kn, att, o)  # skill-based's two-weapon penalty of the hand (kernel_skill_twf)
    total += sit
    raw += sit
    # P17 cover: the lines are the core's, the mode is the ruleset's (cover_mode table) — or off-guard's
    # soft and improved cover (kernel_cover).
    if kn[K_COVER_CMV]:
        degree = soft_and_improved_cover(walls, low_walls, scratch, light, occ, s, cs, att, tgt, fc, fr, ranged,
                                         dist == 5, ranged or not kn[K_SOFT_RANGED_ONLY])
    else:
        any_line = cover_mode[1 if ranged else 0, 1 if cs[att, REACH] > 5 else 0, 1 if dist == 5 else 0] == 1
        moved = fc != s[att, PC] or fr != s[att, PR]
        if moved:  # planning from another square: the attacker's own squares hold nobody
            occupy(occ, s, cs, att, -1)
        degree = cover_degree(walls, low_walls, occ, opt[att, o, COVER_BY_CREATURES] == 1, fc, fr, asize, tc, tr,
                              tsize, any_line, kn[K_PARTIAL] == 1)
        if moved:
            occupy(occ, s, cs, att, 1)
    if degree == TOTAL:
        return False, 0, 0, 0, 0
    return True, total, raw, degree, -pct if any_total else pct  # negative: total, the attacker guesses the square



# The kernel's inputs travel as two tuples: the static tables (W) and the map (M), with the search buffers.
# W = (cs, opt, meanp, ac, threat, rng, natural, face_counts, cover_mode, kn)
# M = (passable, walls, low_walls, difficult, concealing, light, charge_ground, move_tables, paths.workspace)


@njit_borrowing
def plan(w: tuple, m: tuple, s: I64, t: I64, occ: I16, att: int, tgt: int, o: int,  # type: ignore[type-arg]
         fc: int, fr: int, square_given: bool) -> tuple[bool, int, int, int, int]:
    cs, opt, _meanp, _ac, _threat, rng, _natural, _faces, cover_mode, kn = w
    return plan_attack(s, cs, opt, rng, cover_mode, kn, t, m[1], m[2], m[9], m[4], m[5], occ, att, tgt, o,
                       fc, fr, square_given)


@njit_borrowing
def target_ac(w: tuple, light: I64, s: I64, t: I64, att: int, tgt: int, o: int,  # type: ignore[type-arg]
              degree: int) -> int:
    """``Encounter.target_ac``: the tabled defense in this context (flat-footed or off-guard, kernel_defense),
    plus cover, the charging effect and squeezing."""
    cs, opt, _meanp, ac, _threat, _rng, _natural, _faces, _cover_mode, kn = w
    flat_footed = off_guard(s, cs, t, kn, light, att, tgt)
    helpless = s[tgt, DOWN]
    vs_melee = 0 if opt[att, o, RANGED] else 1
    value = ac[tgt, opt[att, o, TOUCH], flat_footed, helpless, vs_melee] + squeezing(s, cs, kn, light, tgt)
    if degree == COVER:
        value += kn[K_COVER_VALUE]
    elif degree == PARTIAL:
        value += kn[K_PARTIAL_VALUE]
    if s[tgt, CHARGE_UNTIL] != -1:
        value -= 2
    return int(value)


@njit_borrowing
def roll_attack(w: tuple, light: I64, ev: I64, s: I64, t: I64, tape: U32, att: int,  # type: ignore[type-arg]
                tgt: int, o: int, total: int, degree: int, pct: int) -> None:
    """``Encounter._roll_attack``'s stages under the core defaults: miss chance, roll, hit, threat and
    confirmation, damage (PFB-ATK, PFB-NAT, PFB-CONC-09, PFB-CRIT, PFB-DMG)."""
    cs, opt, _meanp, _ac, threat, _rng, natural, faces, _cover_mode, kn = w
    before_roll = kn[K_CONC_BEFORE] == 1
    pct = miss_chance(kn, pct)  # skill-based NoConcealment: no miss chance, no guessed square (kernel_skill_damage)
    guessing = pct < 0  # PFB-CONC-12, CMV-CONC-14: a miss tells the attacker only "miss" (no roll in the log)
    pct = abs(pct)
    if pct and before_roll:
        d = roll(t, tape, 100)
        if d <= pct:
            emit(ev, t, E_ATTACK, att, tgt, o, 0, 0, 0, 0)
            t[T_ATTACKS] += 1
            return
    face = roll(t, tape, 20)
    value = faces[face] + total
    ac = target_ac(w, light, s, t, att, tgt, o, degree)
    hit = natural[face, 0] == 1 or (natural[face, 1] == 0 and value >= ac)
    if hit and active_defense(ev, s, cs, t, kn, tape, att, tgt, o, value):  # skill-based's block or dodge
        hit = False
    attack_rolled(ev, t, kn, att, tgt)  # skill-based: the feint's opening is used up (kernel_skill_feint)
    if hit and pct and not before_roll:
        d = roll(t, tape, 100)
        if d <= pct:
            hit = False
    critical = False
    if hit and threat[att, o, face, 1]:  # a hit lost to the d% is a miss, and a miss never threatens
        c_face = roll(t, tape, 20)
        c_value = faces[c_face] + total
        critical = natural[c_face, 0] == 1 or (natural[c_face, 1] == 0 and c_value >= ac)
    if guessing and not hit:
        face, value = 0, 0
    emit(ev, t, E_ATTACK, att, tgt, o, 1 if hit else 0, 1 if critical else 0, face, value)
    t[T_ATTACKS] += 1
    if not hit:
        return
    helpless = s[tgt, DOWN] == 1
    mult = opt[att, o, MULT] if critical else 1
    raw = 0
    sides = opt[att, o, D_SIDES]
    for _ in range(opt[att, o, D_COUNT] * mult):
        raw += roll(t, tape, sides)
    raw += opt[att, o, STATIC] * mult
    for _ in range(opt[att, o, E_COUNT]):
        raw += roll(t, tape, opt[att, o, E_SIDES])
    raw += opt[att, o, E_BONUS] if opt[att, o, E_COUNT] or opt[att, o, E_BONUS] else 0
    for _ in range(cs[att, SNEAK_HELPLESS] if helpless else cs[att, SNEAK_VS_ANY]):
        raw += roll(t, tape, 6)
    declared = t[T_SKL_CRIT] * kn[K_SKL_FACTOR + att * (MAX_SKL_OPTIONS + 1) + o] if t[T_SKL_CRIT] else 0  # SKL-CRIT
    amount = mitigate(kn, tgt, max(raw, kn[K_MIN_DAMAGE]) + declared)  # skill-based's armor (kernel_skill_damage)
    damage(ev, s, cs, t, kn, tape, tgt, amount, att)


