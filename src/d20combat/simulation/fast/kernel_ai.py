"""The AI of the compiled encounter (``controllers/ai.py``, ``TacticalAI``): what a creature can afford, its foes,
the best attack, the charge, the 5-foot step, the melee fighter's and the archer's choices, each naming the
reference code it replays. :mod:`.kernel` chooses among them (``TacticalAI.choose``) and plays the actions."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.charge import charge_path_clear, closest_attack_origins_into
from d20combat.simulation.fast.grid import distance_ft as sq_dist
from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.kernel_base import (
    A_CHARGE,
    A_DRAW,
    A_END,
    A_MOVE,
    A_STEP,
    C_FREE,
    C_FULL,
    C_MOVE,
    C_NONE,
    C_STANDARD,
    DOWN,
    HP,
    M_PAD,
    PAD_PATH,
    PC,
    PR,
    T_DIAGS,
    T_MOVED,
    T_STEPPED,
    WIELD,
    dist_between,
    occupy,
)
from d20combat.simulation.fast.kernel_fear import move_options
from d20combat.simulation.fast.kernel_flow import (
    pay_label,
)
from d20combat.simulation.fast.kernel_movement import speed_ft
from d20combat.simulation.fast.kernel_reactions import path_risks
from d20combat.simulation.fast.kernel_skill_damage import miss_chance
from d20combat.simulation.fast.kernel_strike import plan, target_ac
from d20combat.simulation.fast.layout import (
    ID_RANK,
    K_AOO,
    K_MAX_CANDIDATES,
    K_SKL_NO_CHARGE,
    K_SKL_NO_STEP,
    K_STEP_FREE,
    N_ATTACKS,
    RANGED,
    REACH,
    SIDE,
    SIZE,
)
from d20combat.simulation.fast.paths import FOUND, FOUND_PATHS
from d20combat.simulation.fast.steps import footprint_step_cost

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]


# ================================================================== the AI (controllers/ai.py, TacticalAI)

@njit_borrowing
def can_afford(w: tuple, s: I64, t: I64, cost: int) -> bool:  # type: ignore[type-arg]
    cs = w[0]
    kn = w[9]
    return pay_label(s, cs, t, kn, cost) != -1


@njit_borrowing
def foes_into(s: I64, cs: I64, order: I64, me: int, out: I64) -> int:
    """``enemies(me)`` in initiative order, without those out of the fight (TacticalAI.choose), written to the
    start of ``out``: how many."""
    k = 0
    for i in order:
        if cs[i, SIDE] != cs[me, SIDE] and not s[i, DOWN]:
            out[k] = i
            k += 1
    return k


@njit_borrowing
def best_attack(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, o: int,  # type: ignore[type-arg]
                foes: I64) -> int:
    """``TacticalAI._best_attack``/``_score``: the foe this attack would hurt most, or -1."""
    cs, opt, meanp = w[0], w[1], w[2]
    best = -1
    best_score = 0.0
    ranged = opt[me, o, RANGED] == 1
    for foe in foes:
        if not ranged and dist_between(s, cs, me, foe) > cs[me, REACH]:
            continue
        ok, _total, raw, degree, pct = plan(w, m, s, t, occ, me, foe, o, s[me, PC], s[me, PR], True)
        if not ok:
            continue
        ac = target_ac(w, m[5], s, t, me, foe, o, degree)
        p_hit = min(max((21 - (ac - raw)) / 20, 0.05), 0.95) * (1 - miss_chance(w[9], abs(pct)) / 100)
        hp_left = max(s[foe, HP], 1)
        score = p_hit * min(meanp[me, o] / hp_left, 1.5)
        if best == -1 or score > best_score:
            best = foe
            best_score = score
    return best


@njit
def charge_plan(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, foe: int,  # type: ignore[type-arg]
                o: int) -> tuple[bool, int, int, int]:
    """``Encounter._do_charge`` checked dry (PFB-CHG-01..12): (legal, end column, end row, distance)."""
    cs, opt = w[0], w[1]
    passable, walls, difficult, ground = m[0], m[1], m[3], m[6]
    if w[9][K_SKL_NO_CHARGE]:  # rules-diff P7: skill-based's actions have no charge (unless skl_charge)
        return False, 0, 0, 0
    if t[T_STEPPED] or speed_ft(s, cs, w[9], me) <= 0 or t[T_MOVED]:
        return False, 0, 0, 0
    if 0 < dist_between(s, cs, me, foe) <= cs[me, REACH]:
        return False, 0, 0, 0
    if opt[me, o, RANGED]:
        return False, 0, 0, 0
    size = cs[me, SIZE]
    c0, r0 = s[me, PC], s[me, PR]
    origins = np.empty((1, 2), dtype=np.int64)  # the closest origin, first in the reference's order
    k = closest_attack_origins_into(passable, walls, c0, r0, size, s[foe, PC], s[foe, PR], cs[foe, SIZE],
                                    cs[me, REACH], origins)
    if k == 0:
        return False, 0, 0, 0
    ec, er = origins[0, 0], origins[0, 1]
    dist = sq_dist(c0, r0, ec, er)
    if dist < 10 or dist > 2 * speed_ft(s, cs, w[9], me):
        return False, 0, 0, 0
    occupy(occ, s, cs, me, -1)
    blocked = False
    for dc in range(size):
        for dr in range(size):
            if occ[ec + dc, er + dr] > 0:
                blocked = True
    occupy(occ, s, cs, me, 1)
    if blocked:
        return False, 0, 0, 0
    # Creatures in the way: ``occ`` without the target; the charger's own squares are never checked.
    if not charge_path_clear(ground, walls, difficult, c0, r0, size, ec, er, occ, s[foe, PC], s[foe, PR],
                             cs[foe, SIZE], False):
        return False, 0, 0, 0
    if pay_label(s, cs, t, w[9], C_FULL) == -1:
        return False, 0, 0, 0
    ok, _total, _raw, _degree, _pct = plan(w, m, s, t, occ, me, foe, o, ec, er, False)
    if not ok:
        return False, 0, 0, 0
    return True, ec, er, dist


@njit_borrowing
def step_ok(w: tuple, m: tuple, s: I64, t: I64, me: int, c: int, r: int) -> tuple[bool, int]:  # type: ignore[type-arg]
    """``Encounter._do_step`` checked dry (PFB-MOVE-01..05): (legal, diagonal count after it)."""
    cs = w[0]
    kn = w[9]
    if kn[K_SKL_NO_STEP]:  # SKL-AOO-12: skill-based's actions have no 5-foot step (unless skl_pf_actions)
        return False, 0
    passable, walls, difficult = m[0], m[1], m[3]
    if t[T_STEPPED] or speed_ft(s, cs, kn, me) <= 0 or t[T_MOVED]:
        return False, 0
    c0, r0, size = s[me, PC], s[me, PR], cs[me, SIZE]
    width, height = passable.shape[0], passable.shape[1]
    for x in range(c, c + size):  # PFB-MOVE-05: not into terrain that slows
        for y in range(r, r + size):
            if c0 <= x < c0 + size and r0 <= y < r0 + size:
                continue
            if 0 <= x < width and 0 <= y < height and difficult[x, y]:
                return False, 0
    # The engine prices the step with footprint_step_cost's defaults (not flying, difficult diagonals count).
    _cost, diagonals = footprint_step_cost(passable, walls, difficult, c0, r0, size, c, r, t[T_DIAGS], False, True)
    if diagonals == -1:
        return False, 0
    for o in range(s.shape[0]):  # not onto a creature that is not helpless (ally or enemy)
        on = s[o, PC] < c + size and c < s[o, PC] + cs[o, SIZE] and s[o, PR] < r + size and r < s[o, PR] + cs[o, SIZE]
        if o != me and not s[o, DOWN] and on:
            return False, 0
    if pay_label(s, cs, t, kn, C_FREE if kn[K_STEP_FREE] else C_NONE) == -1:
        return False, 0
    return True, diagonals


@njit_borrowing
def nearest_foe(s: I64, cs: I64, me: int, foes: I64) -> int:
    """``TacticalAI._nearest_foe``: by distance, then hp, then id."""
    best = -1
    for f in foes:
        if best == -1:
            best = f
            continue
        d, bd = dist_between(s, cs, me, f), dist_between(s, cs, me, best)
        if d < bd or (d == bd and (s[f, HP] < s[best, HP] or (s[f, HP] == s[best, HP]
                                                                  and cs[f, ID_RANK] < cs[best, ID_RANK]))):
            best = f
    return best


@njit_borrowing
def reach_ok(t: I64, w: tuple, s: I64) -> bool:  # type: ignore[type-arg]
    """``TacticalAI._reachable`` asks for squares only when a move is still possible."""
    return not t[T_STEPPED] and can_afford(w, s, t, C_MOVE)


Decision = tuple[int, int, int, int, int, int]
"""(action, argument, argument, move cost, diagonals after the move, path length) — the last three for moves only;
the path itself is in ``m[M_PAD][PAD_PATH]`` (:func:`move_to`)."""


@njit_borrowing
def act(kind: int, a: int, b: int) -> Decision:
    return kind, a, b, 0, 0, 0


@njit_borrowing
def move_to(m: tuple, k: int) -> Decision:  # type: ignore[type-arg]
    """A move to square ``k`` the AI just found (``Encounter.move_options``), along its cheapest path (copied to
    ``m[M_PAD][PAD_PATH]``: the next search may overwrite the found ones before the move is made)."""
    found, paths, path = m[8][FOUND], m[8][FOUND_PATHS], m[M_PAD][PAD_PATH]
    for j in range(found[k, 4]):
        path[j, 0] = paths[k, j, 0]
        path[j, 1] = paths[k, j, 1]
    return A_MOVE, found[k, 0], found[k, 1], found[k, 2], found[k, 3], found[k, 4]


@njit
def risks_of(w: tuple, m: tuple, s: I64, t: I64, occ: I16, order: I64, me: int,  # type: ignore[type-arg]
             n: int, ks: I64) -> I64:
    """``TacticalAI._provocation_risk``: the attacks of opportunity the path to each found square ``ks`` (of the
    first ``n``) would offer (zeros without reaction attacks, and for the squares not asked)."""
    if w[9][K_AOO]:
        return path_risks(w, m, s, t, occ, order, me, m[8][FOUND], m[8][FOUND_PATHS], n, ks)
    return np.zeros(n, dtype=np.int64)


@njit
def melee(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, o: int,  # type: ignore[type-arg]
          foes: I64, order: I64) -> Decision:
    """``TacticalAI._melee``: charge the weakest foe, else step into reach, else close in."""
    cs = w[0]
    if can_afford(w, s, t, C_FULL) and not t[T_MOVED]:
        n = foes.shape[0]
        keys = np.empty(n, dtype=np.int64)
        for k in range(n):
            f = foes[k]
            keys[k] = (s[f, HP] + 10_000) * 10_000_000 + dist_between(s, cs, me, f) * 1000 + cs[f, ID_RANK]
        for k in np.argsort(keys):
            foe = foes[k]
            ok, _ec, _er, _dist = charge_plan(w, m, s, t, occ, me, foe, o)
            if ok:
                return act(A_CHARGE, foe, o)
    if not reach_ok(t, w, s):
        return act(A_END, 0, 0)
    n = move_options(w, m, s, t, me)
    found = m[8][FOUND]  # the squares in (c, r) order, as the reference scans its map
    size, reach = cs[me, SIZE], cs[me, REACH]
    # Paths that provoke come last. Only the squares from which a foe is in reach decide the step into reach, so
    # their risks are weighed first and every path's only if none will do (exact: weighing has no side effect).
    near = np.empty(n, dtype=np.int64)
    n_near = 0
    for k in range(n):
        for foe in foes:
            d = fp_dist(found[k, 0], found[k, 1], size, s[foe, PC], s[foe, PR], cs[foe, SIZE])
            if 0 < d <= reach:
                near[n_near] = k
                n_near += 1
                break
    risk = risks_of(w, m, s, t, occ, order, me, n, near[:n_near]) if n_near else np.zeros(n, dtype=np.int64)
    best, best_risk, best_cost, best_hp, best_rank = -1, 0, 0, 0, 0
    for k in near[:n_near]:
        c, r, cost = found[k, 0], found[k, 1], found[k, 2]
        for foe in foes:
            d = fp_dist(c, r, size, s[foe, PC], s[foe, PR], cs[foe, SIZE])
            if 0 < d <= reach and (best == -1 or (risk[k], cost, s[foe, HP], cs[foe, ID_RANK]) <
                                   (best_risk, best_cost, best_hp, best_rank)):
                best, best_risk, best_cost, best_hp, best_rank = k, risk[k], cost, s[foe, HP], cs[foe, ID_RANK]
    if n == 0:
        return act(A_END, 0, 0)
    if best != -1 and can_afford(w, s, t, C_MOVE):
        return move_to(m, best)
    if n_near < n:
        risk = risks_of(w, m, s, t, occ, order, me, n, np.arange(n))
    target = nearest_foe(s, cs, me, foes)
    tc, tr, tsize = s[target, PC], s[target, PR], cs[target, SIZE]
    here = fp_dist(s[me, PC], s[me, PR], size, tc, tr, tsize)
    closest, crisk, cd, ccost = -1, 0, 0, 0
    for k in range(n):
        d = fp_dist(found[k, 0], found[k, 1], size, tc, tr, tsize)
        if closest == -1 or (risk[k], d, found[k, 2]) < (crisk, cd, ccost):
            closest, crisk, cd, ccost = k, risk[k], d, found[k, 2]
    if cd < here:
        return move_to(m, closest)
    return act(A_END, 0, 0)


@njit_borrowing
def shot_from(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, o: int, foes: I64,  # type: ignore[type-arg]
              c: int, r: int) -> bool:
    for f in foes:
        ok, _total, _raw, _degree, _pct = plan(w, m, s, t, occ, me, f, o, c, r, True)
        if ok:
            return True
    return False


@njit_borrowing
def clear_of_foes(s: I64, cs: I64, me: int, foes: I64, c: int, r: int) -> bool:
    """No foe within 10 ft of ``(c, r)`` (PFB-ATK-09's band, as TacticalAI keeps its archers out of it)."""
    for f in foes:  # noqa: SIM110 - numba compiles loops, not generator expressions
        if fp_dist(c, r, cs[me, SIZE], s[f, PC], s[f, PR], cs[f, SIZE]) < 10:
            return False
    return True


@njit
def archer(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, o: int,  # type: ignore[type-arg]
           foes: I64, order: I64) -> Decision:
    """``TacticalAI._archer``: step or move out of the 10-ft band to a square with a shot; draw a melee
    weapon when cornered; otherwise keep to the edge of the band."""
    cs, opt = w[0], w[1]
    c0, r0 = s[me, PC], s[me, PR]
    threatened = not clear_of_foes(s, cs, me, foes, c0, r0)
    can_attack = can_afford(w, s, t, C_STANDARD)
    if can_attack and threatened and not t[T_MOVED] and not t[T_STEPPED]:
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                c, r = c0 + dc, r0 + dr
                if (dc or dr) and clear_of_foes(s, cs, me, foes, c, r):
                    ok, _diags = step_ok(w, m, s, t, me, c, r)
                    if ok and shot_from(w, m, s, t, occ, me, o, foes, c, r):
                        return act(A_STEP, c, r)
    n_reach = move_options(w, m, s, t, me) if reach_ok(t, w, s) else 0
    found = m[8][FOUND]  # the squares in (c, r) order: by cost, then that order
    if n_reach and can_afford(w, s, t, C_MOVE):
        risk = risks_of(w, m, s, t, occ, order, me, n_reach, np.arange(n_reach))  # by risk, cost, then that order
        keys = np.empty(n_reach, dtype=np.int64)
        for k in range(n_reach):
            keys[k] = (risk[k] * 1_000_000 + found[k, 2]) * 1_000_000 + k
        keys.sort()
        tried = 0
        for key in keys:
            k = int(key % 1_000_000)
            c, r = found[k, 0], found[k, 1]
            if not clear_of_foes(s, cs, me, foes, c, r):
                continue
            tried += 1
            if tried > w[9][K_MAX_CANDIDATES]:
                break
            if shot_from(w, m, s, t, occ, me, o, foes, c, r):
                return move_to(m, k)
    if threatened and can_attack:
        for other in range(cs[me, N_ATTACKS]):
            if not opt[me, other, RANGED] and s[me, WIELD] != other and can_afford(w, s, t, C_MOVE):
                return act(A_DRAW, other, 0)
    if n_reach and not threatened:
        target = nearest_foe(s, cs, me, foes)
        tc, tr, tsize = s[target, PC], s[target, PR], cs[target, SIZE]
        now = fp_dist(c0, r0, cs[me, SIZE], tc, tr, tsize)
        best, bd, bcost = -1, 0, 0
        for k in range(n_reach):
            c, r = found[k, 0], found[k, 1]
            if not clear_of_foes(s, cs, me, foes, c, r):
                continue
            d = fp_dist(c, r, cs[me, SIZE], tc, tr, tsize)
            if d < now and (best == -1 or (d, found[k, 2]) < (bd, bcost)):
                best, bd, bcost = k, d, found[k, 2]
        if best != -1:
            return move_to(m, best)
    return act(A_END, 0, 0)
