"""Attacks of opportunity from threatened squares (:class:`~d20combat.rulesets.components.reactions.
ThreatenedSquareAoO`, off-guard's "reaction attacks", CMV-COV-08) in the kernel, switched on by ``kn[K_AOO]``.

A creature threatens the squares its melee weapon in hand reaches; an enemy leaving one by a move or a charge may
be struck once per action with that weapon, from a pool of ``kn[K_AOO_PER_ROUND]`` refreshed every round — never
by a creature that cannot act, nor (off-guard's ``ConditionTable.can_react``) by an off-guard one, never
against total concealment (the attack would need a square guessed) nor, with ``kn[K_AOO_NOT_COVER]``, against
cover. ``Encounter.provocations`` (the AI weighs every path by the attacks it would offer), ``walk`` (the move
split where it provokes, each attack rolled there, the move stopping if the mover drops) and the charge's line
are replayed here.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.geometry import NONE
from d20combat.simulation.fast.grid import distance_ft, within_reach
from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.kernel_base import (
    CB_COWERING,
    CB_OFF_GUARD,
    CB_PANICKED,
    COND,
    DOWN,
    E_REACTION_SPENT,
    MODE_CHARGE,
    PC,
    PR,
    REACT,
    T_DIAGS,
    emit,
    occupy,
    walk,
)
from d20combat.simulation.fast.kernel_offers import aoo_offered
from d20combat.simulation.fast.kernel_skill_reactions import aoo_option
from d20combat.simulation.fast.kernel_strike import plan, roll_attack
from d20combat.simulation.fast.layout import (
    K_AOO_NOT_COVER,
    K_AOO_TABLE,
    K_DIAG_COUNTS,
    N_ATTACKS,
    RANGED,
    REACH,
    SIDE,
    SIZE,
)
from d20combat.simulation.fast.lines import crossed_scaled_into
from d20combat.simulation.fast.steps import footprint_step_cost

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]


@njit_borrowing
def threatens(s: I64, cs: I64, opt: I64, kn: I64, i: int, c: int, r: int, size: int) -> bool:
    """``ThreatenedSquareAoO.threatened``: a melee weapon in hand (EP-AOO-01/02; skill-based's threatening
    attack, kernel_skill_reactions) reaching footprint (c, r, size)."""
    o = aoo_option(s, kn, i)
    if o < 0 or o >= cs[i, N_ATTACKS] or opt[i, o, RANGED]:
        return False
    reach = cs[i, REACH]
    return bool(reach > 0 and within_reach(s[i, PC], s[i, PR], cs[i, SIZE], reach, c, r, size))


@njit_borrowing
def _could(s: I64, cs: I64, opt: I64, kn: I64, enemy: int, c: int, r: int, size: int) -> bool:
    """The cheap half of ``aoo_plan``: a reaction left, able to act (``injury.can_act``), allowed to react
    (``may_react``: anyone, EP-AOO; with ``kn[K_AOO_TABLE]`` not off-guard, CMV-COND-39, nor helpless,
    CMV-HELP-04), threatening the footprint."""
    return bool(s[enemy, REACT] > 0 and not s[enemy, DOWN]
                and not (kn[K_AOO_TABLE] and s[enemy, COND] & CB_OFF_GUARD)
                and not s[enemy, COND] & (CB_PANICKED | CB_COWERING)  # CMV-COND-28/31: never attacks, cannot act
                and threatens(s, cs, opt, kn, enemy, c, r, size))


@njit_borrowing
def aoo_plan(w: tuple, m: tuple, s: I64, t: I64, occ: I16, enemy: int,  # type: ignore[type-arg]
             mover: int) -> tuple[bool, int, int, int]:
    """``attack_actions.aoo_plan`` with the mover where it stands: (offered, total, cover degree, miss chance).
    The plan is the enemy's melee attack with no square guessed, so total concealment makes it illegal, as
    ``can_make_aoo`` asks; cover forbids it where the reactions say so (CMV-COV-08)."""
    cs, opt, kn = w[0], w[1], w[9]
    if not _could(s, cs, opt, kn, enemy, s[mover, PC], s[mover, PR], cs[mover, SIZE]):
        return False, 0, 0, 0
    ok, total, _raw, degree, pct = plan(w, m, s, t, occ, enemy, mover, aoo_option(s, kn, enemy), s[enemy, PC],
                                        s[enemy, PR], False)
    if not ok or (kn[K_AOO_NOT_COVER] and degree != NONE):
        return False, 0, 0, 0
    return True, total, degree, pct


@njit_borrowing
def _move_to(s: I64, cs: I64, occ: I16, i: int, c: int, r: int) -> None:
    occupy(occ, s, cs, i, -1)
    s[i, PC] = c
    s[i, PR] = r
    occupy(occ, s, cs, i, 1)


@njit_borrowing
def offered_at(w: tuple, m: tuple, s: I64, t: I64, occ: I16, enemy: int, mover: int,  # type: ignore[type-arg]
               c: int, r: int) -> bool:
    """``aoo_plan`` in the state with the mover moved to (c, r) (the AI's look ahead and ``walk``'s)."""
    if not _could(s, w[0], w[1], w[9], enemy, c, r, w[0][mover, SIZE]):
        return False
    c0, r0 = s[mover, PC], s[mover, PR]
    moved = c != c0 or r != r0
    if moved:
        _move_to(s, w[0], occ, mover, c, r)
    ok = aoo_offered(w, m, s, t, occ, enemy, mover)  # aoo_plan's legality alone (kernel_offers)
    if moved:
        _move_to(s, w[0], occ, mover, c0, r0)
    return ok


@njit
def path_risks(w: tuple, m: tuple, s: I64, t: I64, occ: I16, order: I64, mover: int,  # type: ignore[type-arg]
               found: I64, paths: I64, n: int, ks: I64) -> I64:
    """``Encounter.provocations`` for the found paths ``ks`` (rows ``(c, r, cost, diagonals, length)``) among the
    first ``n`` (the others' counts left 0): how many enemies each would offer an attack of opportunity. As the
    reference caches it, each (square, enemy) is judged once for all the paths (the state is the same for every
    path): here as one bit mask of the enemies offered per square, a path's count the bits of the union over the
    squares it leaves — each (square, enemy) judged only when a path still needs it (issue 14: a mover that starts
    threatened judges that enemy once)."""
    cs = w[0]
    size = cs[mover, SIZE]
    out = np.zeros(n, dtype=np.int64)
    c0, r0 = s[mover, PC], s[mover, PR]
    lo_c, hi_c, lo_r, hi_r = c0, c0, r0, r0
    for k in ks:
        for i in range(found[k, 4]):
            lo_c, hi_c = min(lo_c, paths[k, i, 0]), max(hi_c, paths[k, i, 0])
            lo_r, hi_r = min(lo_r, paths[k, i, 1]), max(hi_r, paths[k, i, 1])
    n_all = s.shape[0]
    if n_all > 63:
        return _path_risks_per_enemy(w, m, s, t, occ, order, mover, found, paths, n, ks, lo_c, hi_c, lo_r, hi_r)
    able = np.int64(0)  # enemies that may react at all (the square left aside), one bit each
    box = np.empty((n_all, 4), dtype=np.int64)  # the mover's origins each could threaten: its reach around it
    for enemy in range(n_all):
        if cs[enemy, SIDE] != cs[mover, SIDE] and s[enemy, REACT] > 0 and not s[enemy, DOWN]:
            able |= np.int64(1) << enemy
            squares = cs[enemy, REACH] // 5  # a footprint gap of more squares is farther than the reach
            box[enemy, 0] = s[enemy, PC] - squares - size + 1
            box[enemy, 1] = s[enemy, PC] + cs[enemy, SIZE] - 1 + squares
            box[enemy, 2] = s[enemy, PR] - squares - size + 1
            box[enemy, 3] = s[enemy, PR] + cs[enemy, SIZE] - 1 + squares
    if able == 0:
        return out
    # Per square: the enemies judged there so far and those of them offered. A (square, enemy) is judged only when
    # a path leaving that square does not count the enemy yet (judging has no side effect, so skipping it changes
    # no count), and a path stops looking once every able enemy is counted.
    judged = np.zeros((hi_c - lo_c + 1, hi_r - lo_r + 1), dtype=np.int64)
    offers = np.zeros((hi_c - lo_c + 1, hi_r - lo_r + 1), dtype=np.int64)
    for k in ks:
        union = np.int64(0)
        c, r = c0, r0
        for step in range(found[k, 4]):
            x, y = c - lo_c, r - lo_r
            todo = able & ~union & ~judged[x, y]
            if todo:
                bits = offers[x, y]
                for enemy in range(n_all):
                    if (todo >> enemy) & 1 and box[enemy, 0] <= c <= box[enemy, 1] and \
                            box[enemy, 2] <= r <= box[enemy, 3] and offered_at(w, m, s, t, occ, enemy, mover, c, r):
                        bits |= np.int64(1) << enemy
                judged[x, y] |= todo
                offers[x, y] = bits
            union |= offers[x, y]
            if union == able:
                break
            c, r = paths[k, step, 0], paths[k, step, 1]
        count = 0
        while union:
            union &= union - 1
            count += 1
        out[k] = count
    return out


@njit
def _path_risks_per_enemy(w: tuple, m: tuple, s: I64, t: I64, occ: I16,  # type: ignore[type-arg]
                          order: I64, mover: int, found: I64, paths: I64, n: int, ks: I64, lo_c: int, hi_c: int,
                          lo_r: int, hi_r: int) -> I64:
    """:func:`path_risks` for more creatures than a mask holds: each (square, enemy) judged once, per path the
    enemies counted once."""
    cs, opt, kn = w[0], w[1], w[9]
    size = cs[mover, SIZE]
    out = np.zeros(n, dtype=np.int64)
    c0, r0 = s[mover, PC], s[mover, PR]
    judged = np.full((s.shape[0], hi_c - lo_c + 1, hi_r - lo_r + 1), -1, dtype=np.int8)
    offered = np.zeros(s.shape[0], dtype=np.bool_)
    for k in ks:
        offered[:] = False
        count = 0
        c, r = c0, r0
        for step in range(found[k, 4]):
            for enemy in order:
                if cs[enemy, SIDE] == cs[mover, SIDE] or offered[enemy]:
                    continue
                v = judged[enemy, c - lo_c, r - lo_r]
                if v < 0:
                    v = 1 if _could(s, cs, opt, kn, enemy, c, r, size) and \
                        offered_at(w, m, s, t, occ, enemy, mover, c, r) else 0
                    judged[enemy, c - lo_c, r - lo_r] = v
                if v:
                    offered[enemy] = True
                    count += 1
            c, r = paths[k, step, 0], paths[k, step, 1]
        out[k] = count
    return out


@njit_borrowing
def provoke(w: tuple, m: tuple, ev: I64, s: I64, t: I64, occ: I16, tape: U32, order: I64,  # type: ignore[type-arg]
            mover: int, offered: npt.NDArray[np.bool_], why: int) -> bool:
    """``attack_actions.provoke``: every enemy not yet offered that may, strikes (the AI always does); False when
    the mover can no longer act. ``why``: the reason code the ``ReactionSpent`` row carries
    (kernel_skill_reactions: leaving a square, or a distracting act)."""
    cs = w[0]
    for enemy in order:
        if cs[enemy, SIDE] == cs[mover, SIDE] or offered[enemy]:
            continue
        ok, total, degree, pct = aoo_plan(w, m, s, t, occ, enemy, mover)
        if not ok:
            continue
        offered[enemy] = True
        emit(ev, t, E_REACTION_SPENT, enemy, mover, s[mover, PC], s[mover, PR], why, 0, 0)
        s[enemy, REACT] -= 1
        roll_attack(w, m[5], ev, s, t, tape, enemy, mover, aoo_option(s, w[9], enemy), total, degree, pct)
        if s[mover, DOWN]:
            return False
    return True


@njit
def charge_line(c0: int, r0: int, ec: int, er: int) -> I64:
    """``movement_actions.charge_line``: the origins the charger passes on its centre line, the end last."""
    buf = np.empty((abs(ec - c0) + abs(er - r0) + 3, 2), dtype=np.int64)
    k = crossed_scaled_into(2 * c0 + 1, 2 * r0 + 1, 2 * ec + 1, 2 * er + 1, 2, buf)
    out = np.empty((k + 1, 2), dtype=np.int64)
    n = 0
    for i in range(k):
        if buf[i, 0] != c0 or buf[i, 1] != r0:
            out[n] = buf[i]
            n += 1
    if n == 0 or out[n - 1, 0] != ec or out[n - 1, 1] != er:
        kept = 0
        for i in range(n):
            if out[i, 0] != ec or out[i, 1] != er:
                out[kept] = out[i]
                kept += 1
        out[kept, 0] = ec
        out[kept, 1] = er
        n = kept + 1
    return out[:n]


@njit
def walk_provoking(w: tuple, m: tuple, ev: I64, s: I64, t: I64, occ: I16, tape: U32,  # type: ignore[type-arg]
                   order: I64, me: int, mode: int, cost: int, diags: int, path: I64, plen: int) -> None:
    """``movement_actions.walk`` where leaving a threatened square provokes: the move split there, the attacks
    rolled, the move stopping if the mover drops. A charge (``mode`` charge) costs ``cost`` with ``diags``
    whatever its steps."""
    cs, kn = w[0], w[9]
    fixed = mode == MODE_CHARGE
    diag = t[T_DIAGS]
    offered = np.zeros(s.shape[0], dtype=np.bool_)
    seg = np.empty((plen, 2), dtype=np.int64)
    n_seg = 0
    seg_cost = 0
    spent = 0
    size = cs[me, SIZE]
    for i in range(plen):
        hc = seg[n_seg - 1, 0] if n_seg else s[me, PC]
        hr = seg[n_seg - 1, 1] if n_seg else s[me, PR]
        new_enemy = False
        for enemy in order:
            if cs[enemy, SIDE] != cs[me, SIDE] and not offered[enemy] and \
                    _could(s, cs, w[1], kn, enemy, hc, hr, size) and offered_at(w, m, s, t, occ, enemy, me, hc, hr):
                new_enemy = True
                break
        if new_enemy:
            if n_seg:
                part = min(seg_cost, cost - spent) if fixed else seg_cost
                walk(ev, s, cs, t, occ, me, mode, part, diags if fixed else diag, seg, n_seg)
                spent += part
                n_seg, seg_cost = 0, 0
            if not provoke(w, m, ev, s, t, occ, tape, order, me, offered, 0):
                return
        step, new_diag = footprint_step_cost(m[0], m[1], m[3], hc, hr, size, path[i, 0], path[i, 1], diag, False,
                                             kn[K_DIAG_COUNTS] == 1)
        if step == -1:
            step = distance_ft(hc, hr, path[i, 0], path[i, 1])
        else:
            diag = new_diag
        seg[n_seg, 0] = path[i, 0]
        seg[n_seg, 1] = path[i, 1]
        n_seg += 1
        seg_cost += step
    if n_seg:
        walk(ev, s, cs, t, occ, me, mode, cost - spent if fixed else seg_cost, diags if fixed else diag, seg, n_seg)


@njit
def charge_provoking(w: tuple, m: tuple, ev: I64, s: I64, t: I64, occ: I16, tape: U32,  # type: ignore[type-arg]
                     order: I64, me: int, dist: int, ec: int, er: int) -> None:
    """The charge's movement to ``(ec, er)`` where every threatened square left on its line provokes (CMV-COV-08):
    a function of its own, since the line is a new array (``kernel.execute`` allocates nothing)."""
    line = charge_line(s[me, PC], s[me, PR], ec, er)
    walk_provoking(w, m, ev, s, t, occ, tape, order, me, MODE_CHARGE, dist, t[T_DIAGS], line, line.shape[0])
