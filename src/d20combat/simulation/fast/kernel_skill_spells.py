"""Skill-based's casting in the kernel (:class:`CastSpell` through :class:`Counterspelling`, chosen by skill-based's
tactics, ``kn[K_SKL_TACTICS]``): a spell attack is a complex action (SKL-ACT-01) cast with its magic skill, which
needs training (SKL-CSPL-06, ``kn[K_SKL_MAGIC + …]`` ≥ 1); before it goes off, each enemy in initiative order that
can act, holds a complex action in reserve, is trained in the caster's skill and stands within 60 ft may counter
it — the AI always does (``BlockAndDodge.reaction_preference``): its held action is spent, then the caster's check
and the counterspeller's, d20 + rating each; the counterspeller must win (a tie only under
``skl_counterspell_tie_counters``, SKL-CSPL-05), and a countered spell fizzles, the caster's action spent.

Event row ``E_SKL_COUNTER`` (counterspeller, caster, the spell option, the caster's die, the counterspeller's die,
countered): the ``ReactionSpent`` of the reserve and the note of the contest.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.grid import footprint_distance_ft as fp_dist
from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import C_STANDARD, DOWN, PC, PR, emit, roll
from d20combat.simulation.fast.kernel_flow import pay_label
from d20combat.simulation.fast.kernel_strike import plan
from d20combat.simulation.fast.layout import (
    K_SKL_COUNTER_TIE,
    K_SKL_MAGIC,
    K_SKL_SPELL_SKILL,
    MAX_SKL_MAGIC,
    MAX_SKL_OPTIONS,
    SIDE,
    SIZE,
    T_SKL_RESERVE,
)

I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]

E_SKL_COUNTER = 108


@njit_borrowing
def magic_skill(kn: I64, me: int, o: int) -> int:
    """The magic skill (its index among the battle's) option ``o`` is cast with, -1 when it is not a spell."""
    return int(kn[K_SKL_SPELL_SKILL + me * (MAX_SKL_OPTIONS + 1) + o])


@njit_borrowing
def rating(kn: I64, i: int, k: int) -> int:
    return int(kn[K_SKL_MAGIC + i * MAX_SKL_MAGIC + k])


@njit_borrowing
def cast_ok(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, foe: int,  # type: ignore[type-arg]
            o: int) -> bool:
    """``enc.check(CastSpell(spell, foe))``: trained in its skill (SKL-CSPL-06), a complex action to pay, and the
    attack planned against the foe where it stands (no square named: not a totally concealed foe)."""
    cs, kn = w[0], w[9]
    k = magic_skill(kn, me, o)
    if k < 0 or rating(kn, me, k) < 1 or pay_label(s, cs, t, kn, C_STANDARD) == -1:
        return False
    ok, _total, _raw, _degree, _pct = plan(w, m, s, t, occ, me, foe, o, s[me, PC], s[me, PR], False)
    return ok


@njit_borrowing
def counterspelled(ev: I64, s: I64, cs: I64, t: I64, kn: I64, tape: U32, order: I64, caster: int, o: int) -> bool:
    """``Counterspelling.counterspell_window`` (SKL-CSPL-01..07): True when the spell is countered."""
    k = magic_skill(kn, caster, o)
    for j in order:
        if cs[j, SIDE] == cs[caster, SIDE] or t[T_SKL_RESERVE + j] <= 0 or s[j, DOWN] or rating(kn, j, k) < 1:
            continue
        if fp_dist(s[j, PC], s[j, PR], cs[j, SIZE], s[caster, PC], s[caster, PR], cs[caster, SIZE]) > 60:
            continue
        t[T_SKL_RESERVE + j] -= 1
        c_face = roll(t, tape, 20)
        x_face = roll(t, tape, 20)
        mine, theirs = c_face + rating(kn, caster, k), x_face + rating(kn, j, k)
        won = theirs > mine or (theirs == mine and kn[K_SKL_COUNTER_TIE] != 0)
        emit(ev, t, E_SKL_COUNTER, j, caster, o, c_face, x_face, int(won), 0)
        if won:
            return True
    return False
