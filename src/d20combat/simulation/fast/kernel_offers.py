"""Whether an attack of opportunity is offered (issue 14's speed): ``aoo_plan``'s answer *legal or not* without
the parts of ``Encounter._plan_attack`` that only number the attack — the attack total, the situational
modifiers and the concealment percent (the terrain lines traced per source). The AI weighs every path it may
take by the attacks of opportunity it would offer (``Encounter.provocations``, :func:`.kernel_reactions.path_risks`)
and a move looks for a new one at every step, so this question is asked for every (square, enemy) the mover may
pass; the attack itself, when it is made, is planned in full (:func:`.kernel_reactions.aoo_plan`).

Legal is exactly what :func:`.kernel_strike.plan_attack` says for the enemy's melee attack with no square guessed
from where it stands: the target alive, the option in hand (or held) and loaded, no total concealment source (only
darkness is total: ``light_sources``), within reach, and not total cover — nor any cover where the reactions say
so (``kn[K_AOO_NOT_COVER]``, CMV-COV-08). A ranged option (never one that threatens) falls back to the full plan."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.geometry import NONE, TOTAL, cover_degree
from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import DEAD, LOADED, PC, PR, WIELD
from d20combat.simulation.fast.kernel_concealment import light_sources
from d20combat.simulation.fast.kernel_cover import soft_and_improved_cover
from d20combat.simulation.fast.kernel_skill_reactions import aoo_option, held
from d20combat.simulation.fast.kernel_strike import plan
from d20combat.simulation.fast.layout import (
    COVER_BY_CREATURES,
    K_AOO_NOT_COVER,
    K_COVER_CMV,
    K_PARTIAL,
    K_SOFT_RANGED_ONLY,
    N_ATTACKS,
    RANGED,
    REACH,
    RELOAD,
    RELOAD_NONE,
    SIZE,
    SPELL,
)

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]


@njit_borrowing
def aoo_offered(w: tuple, m: tuple, s: I64, t: I64, occ: I16, enemy: int,  # type: ignore[type-arg]
                mover: int) -> bool:
    """``aoo_plan(…)[0]`` — the enemy (already able to react and threatening the mover, ``_could``) may strike
    the mover where it stands."""
    cs, opt, kn = w[0], w[1], w[9]
    o = aoo_option(s, kn, enemy)
    if s[mover, DEAD] or o < 0 or o >= cs[enemy, N_ATTACKS]:
        return False
    if opt[enemy, o, SPELL] != 1 and s[enemy, WIELD] != o and not held(kn, enemy, o):
        return False
    if opt[enemy, o, RELOAD] != RELOAD_NONE and not s[enemy, LOADED + o]:
        return False
    if opt[enemy, o, RANGED]:
        ok, _total, _raw, degree, _pct = plan(w, m, s, t, occ, enemy, mover, o, s[enemy, PC], s[enemy, PR], False)
        return bool(ok and not (kn[K_AOO_NOT_COVER] and degree != NONE))
    fc, fr, asize = s[enemy, PC], s[enemy, PR], cs[enemy, SIZE]
    tc, tr, tsize = s[mover, PC], s[mover, PR], cs[mover, SIZE]
    dist = fp_dist(fc, fr, asize, tc, tr, tsize)
    if not (0 < dist <= cs[enemy, REACH]):
        return False
    _dim, dark = light_sources(m[5], cs, enemy, tc, tr, tsize, dist, dist == 5)
    if dark > 0:  # a total source: the attack would need a square guessed
        return False
    if kn[K_COVER_CMV]:
        degree = soft_and_improved_cover(m[1], m[2], m[9], m[5], occ, s, cs, enemy, mover, fc, fr, False, dist == 5,
                                         not kn[K_SOFT_RANGED_ONLY])
    else:
        cover_mode = w[8]
        any_line = cover_mode[0, 1 if cs[enemy, REACH] > 5 else 0, 1 if dist == 5 else 0] == 1
        degree = cover_degree(m[1], m[2], occ, opt[enemy, o, COVER_BY_CREATURES] == 1, fc, fr, asize, tc, tr, tsize,
                              any_line, kn[K_PARTIAL] == 1)
    return bool(degree != TOTAL and not (kn[K_AOO_NOT_COVER] and degree != NONE))
