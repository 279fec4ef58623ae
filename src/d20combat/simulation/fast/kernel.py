"""The compiled encounter: the reference engine's core-default turn procedure and TacticalAI, over arrays.

Each function names the reference code it replays. Same compiled battle, same dice tape ⇒ the same
decisions, the same dice in the same order and the same events as ``Encounter`` + ``TacticalAI``
(tests/simulation/fast/test_equivalence.py compares the logs event by event). State is a handful of
integer arrays mutated in place; events are integer rows written only when a log is wanted.

Dice: ``random.Random.randint(1, n)`` draws ``getrandbits(k)`` (k = n.bit_length()) until the value is
below n; ``getrandbits(k)`` is the top k bits of one 32-bit Mersenne Twister word. The caller hands the
kernel the very words ``SeededDice`` would have drawn (a tape), so every face is the reference's face.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit, njit_borrowing
from d20combat.simulation.fast.kernel_ai import (
    Decision,
    act,
    archer,
    best_attack,
    can_afford,
    charge_plan,
    foes_into,
    melee,
    move_to,
    step_ok,
)
from d20combat.simulation.fast.kernel_base import (
    A_ATTACK,
    A_CDG,
    A_CHARGE,
    A_DRAW,
    A_END,
    A_FIND,
    A_MOVE,
    A_RELOAD,
    A_STEP,
    C_FREE,
    C_FULL,
    C_MOVE,
    C_NONE,
    C_STANDARD,
    CB_PANICKED,
    CHARGE_UNTIL,
    COND,
    DEAD,
    DOWN,
    E_EFFECT_ADD,
    E_EQUIP,
    L_FULL,
    L_STANDARD,
    LOADED,
    M_PAD,
    MODE_CHARGE,
    MODE_MOVE,
    MODE_STEP,
    NOTE_DRAWS,
    NOTE_FIRES,
    NOTE_RELOADS,
    PAD_BOOLS,
    PAD_FOES,
    PAD_PATH,
    PC,
    PR,
    R_CANNOT,
    R_NONE,
    T_ACTOR,
    T_DIAGS,
    T_ENDED,
    T_EXHAUSTED,
    T_HAS_TURN,
    T_ROUND,
    T_STRIKE,
    T_STRUCK,
    WIELD,
    dist_between,
    emit,
    scratch,
    walk,
)
from d20combat.simulation.fast.kernel_cdg import BONUS as CDG_BONUS
from d20combat.simulation.fast.kernel_cdg import adjacent_shot, find, lose_found, survive_or_die
from d20combat.simulation.fast.kernel_concealment import light_sources
from d20combat.simulation.fast.kernel_effects import charge_added, found_slot
from d20combat.simulation.fast.kernel_fear import fear_source, flee_square, overcome
from d20combat.simulation.fast.kernel_flow import (
    advance,
    cannot_act,
    check_end,
    end_turn,
    new_round,
    pay_label,
    spend,
    strenuous,
)
from d20combat.simulation.fast.kernel_reactions import charge_provoking, provoke, threatens, walk_provoking
from d20combat.simulation.fast.kernel_skill_defense import positions
from d20combat.simulation.fast.kernel_skill_economy import end_of_turn as skill_end_of_turn
from d20combat.simulation.fast.kernel_skill_feint import feint
from d20combat.simulation.fast.kernel_skill_reactions import distracting
from d20combat.simulation.fast.kernel_skill_spells import counterspelled
from d20combat.simulation.fast.kernel_skill_tactics import NO_SUGGESTION, bonus_attack, declare_reserve, feint_option
from d20combat.simulation.fast.kernel_skill_tactics import suggestion as skill_suggestion
from d20combat.simulation.fast.kernel_strike import plan, roll_attack
from d20combat.simulation.fast.layout import (
    A_SKL_BONUS,
    A_SKL_CAST,
    A_SKL_FEINT,
    A_SKL_RESERVE,
    ID_RANK,
    K_AOO,
    K_CDG_REMOVES_MISS,
    K_CHARGE_EARLY,
    K_SKL_ACTIONS,
    K_STEP_FREE,
    K_TACTICS_CMV,
    N_ATTACKS,
    PROJECTILE,
    RANGED,
    REACH,
    RELOAD,
    RELOAD_MOVE,
    RELOAD_NONE,
    SIDE,
    SIZE,
    SPELL,
    T_SKL_CRIT,
)
from d20combat.simulation.fast.paths import FOUND_PATHS, Workspace

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
I16 = npt.NDArray[np.int16]
U32 = npt.NDArray[np.uint32]



# ================================================================== the AI's choice and the coup de grace

@njit_borrowing
def cdg_plan(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int,  # type: ignore[type-arg]
             foe: int) -> tuple[bool, int, int, int]:
    """The strike of ``CoupDeGraceRules.strike`` planned: (legal, attack total with the +4, cover degree, miss
    chance) — a melee attack into the target's square, or a projectile shot from an adjacent square."""
    cs, opt, kn = w[0], w[1], w[9]
    o = s[me, WIELD]
    if opt[me, o, RANGED]:
        ok, total, degree, pct = adjacent_shot(s, cs, opt, kn, w[8], m[1], m[2], m[9], m[4], m[5], occ, me, foe, o)
    else:
        ok, total, _raw, degree, pct = plan(w, m, s, t, occ, me, foe, o, s[me, PC], s[me, PR], True)
        total += CDG_BONUS
    if ok and found_slot(s, me, foe) >= 0 and kn[K_CDG_REMOVES_MISS]:
        pct = 0  # CMV-CDG-11: found, no miss chance
    return ok, total, degree, pct


@njit_borrowing
def cdg_kind(w: tuple, m: tuple, s: I64, t: I64, occ: I16, me: int, foe: int) -> int:  # type: ignore[type-arg]
    """``enc.check(CoupDeGrace(foe, square=its square))`` (CMV-CDG-01..03, 11): A_CDG, A_FIND (the target has
    total concealment and is not found yet) or A_END (illegal). The target is helpless and not dead."""
    cs, opt = w[0], w[1]
    o = s[me, WIELD]
    if o < 0:
        return A_END
    dist = dist_between(s, cs, me, foe)
    if opt[me, o, RANGED] and (not opt[me, o, PROJECTILE] or dist != 5):
        return A_END
    if not can_afford(w, s, t, C_FULL):
        return A_END
    _dim, dark = light_sources(m[5], cs, me, s[foe, PC], s[foe, PR], cs[foe, SIZE], dist, False)
    if dark > 0 and found_slot(s, me, foe) < 0:
        return A_FIND
    ok, _total, _degree, _pct = cdg_plan(w, m, s, t, occ, me, foe)
    return A_CDG if ok else A_END


@njit_borrowing
def coup_de_grace(w: tuple, m: tuple, ev: I64, s: I64, t: I64, occ: I16, tape: U32,  # type: ignore[type-arg]
                  me: int, foe: int) -> None:
    """``CoupDeGraceRules.strike``, the strike: pay, the found effect ends, the shot empties a crossbow, the
    attack at +4 (its damage kept, CMV-CDG-06), then the death save DC 10 + the damage (kernel_cdg)."""
    cs, opt, kn = w[0], w[1], w[9]
    o = s[me, WIELD]
    _ok, total, degree, pct = cdg_plan(w, m, s, t, occ, me, foe)
    spend(ev, t, me, A_CDG, foe, L_FULL)
    if found_slot(s, me, foe) >= 0:
        lose_found(ev, s, t, me, foe)
    if opt[me, o, RELOAD] != RELOAD_NONE:
        s[me, LOADED + o] = 0
        emit(ev, t, E_EQUIP, me, o, NOTE_FIRES, o, 0, 0, 0)
    t[T_STRIKE] = foe + 1
    t[T_STRUCK] = -1
    roll_attack(w, m[5], ev, s, t, tape, me, foe, o, total, degree, pct)
    t[T_STRIKE] = 0
    if t[T_STRUCK] >= 0:
        survive_or_die(ev, s, cs, t, kn, tape, foe, t[T_STRUCK])


@njit_borrowing
def choose(w: tuple, m: tuple, s: I64, t: I64, occ: I16, order: I64) -> Decision:  # type: ignore[type-arg]
    """``TacticalAI.choose`` for the creature whose turn it is: (action, argument, argument, and for a move its
    cost, diagonals and path length; the path in ``m[M_PAD][PAD_PATH]``)."""
    cs, opt = w[0], w[1]
    me = t[T_ACTOR]
    foes = m[M_PAD][PAD_FOES][: foes_into(s, cs, order, me, m[M_PAD][PAD_FOES])]
    if foes.shape[0] == 0:
        return act(A_END, 0, 0)
    if w[9][K_TACTICS_CMV] and s[me, COND] & CB_PANICKED:  # CmvTactics.ai_suggestion: flee when panicked
        src = fear_source(s, cs, me)
        if src != -1:
            if not can_afford(w, s, t, C_MOVE):
                return act(A_END, 0, 0)
            k = flee_square(w, m, s, t, me, src)
            return act(A_END, 0, 0) if k == -1 else move_to(m, k)
    threatened = False
    if w[9][K_AOO]:  # ThreatenedSquareAoO.threatened: a standing foe's melee weapon reaches me
        for f in foes:
            if threatens(s, cs, opt, w[9], f, s[me, PC], s[me, PR], cs[me, SIZE]):
                threatened = True
    if w[9][K_TACTICS_CMV] and not threatened and can_afford(w, s, t, C_FULL):
        # CmvTactics.ai_suggestion (CMV-CDG-01): a coup de grace on the first helpless foe by name when no
        # standing foe threatens the creature.
        n = s.shape[0]
        for rank in range(n):
            for foe in range(n):
                if cs[foe, ID_RANK] == rank and cs[foe, SIDE] != cs[me, SIDE] and s[foe, DOWN] and not s[foe, DEAD]:
                    kind = cdg_kind(w, m, s, t, occ, me, foe)
                    if kind != A_END:
                        return act(kind, foe, 0)
    skill = skill_suggestion(w, m, s, t, occ, me, foes)  # SkillTactics.ai_suggestion (kernel_skill_tactics)
    if skill[0] != NO_SUGGESTION:
        return skill[0], skill[1], skill[2], skill[3], 0, 0
    o = s[me, WIELD]
    if o == -1 or (opt[me, o, RELOAD] != RELOAD_NONE and not s[me, LOADED + o]):
        # _fix_weapon: reload the crossbow in hand, else draw any other weapon.
        reload_cost = C_MOVE if o != -1 and opt[me, o, RELOAD] == RELOAD_MOVE else C_FULL
        if o != -1 and opt[me, o, RELOAD] != RELOAD_NONE and can_afford(w, s, t, reload_cost):
            return act(A_RELOAD, o, 0)
        for other in range(cs[me, N_ATTACKS]):
            if other != o and can_afford(w, s, t, C_MOVE):
                return act(A_DRAW, other, 0)
    if o == -1:
        return act(A_END, 0, 0)
    if can_afford(w, s, t, C_STANDARD):
        foe = best_attack(w, m, s, t, occ, me, o, foes)
        if foe != -1 and not (w[9][K_SKL_ACTIONS] and opt[me, o, SPELL]):  # skill-based: spells by cast_spell
            return act(A_ATTACK, foe, o)
    ranged = opt[me, o, RANGED] == 1
    if not can_afford(w, s, t, C_STANDARD):
        near = False
        in_reach = False
        for f in foes:
            d = dist_between(s, cs, me, f)
            if d < 10:
                near = True
            if 0 < d <= cs[me, REACH]:
                in_reach = True
        if (ranged and not near) or (not ranged and in_reach):
            return act(A_END, 0, 0)
    if ranged:
        return archer(w, m, s, t, occ, me, o, foes, order)
    return melee(w, m, s, t, occ, me, o, foes, order)


# ================================================================== actions (Encounter._resolve and handlers)

@njit_borrowing
def execute(w: tuple, m: tuple, ev: I64, s: I64, t: I64, occ: I16, tape: U32, order: I64,  # type: ignore[type-arg]
            kind: int, a: int, b: int, move_cost: int, move_diags: int, path_len: int) -> None:
    """``Encounter._resolve`` for one of the AI's actions (already known legal); a move's path is the first
    ``path_len`` squares of ``m[M_PAD][PAD_PATH]``."""
    cs, opt, kn = w[0], w[1], w[9]
    me = t[T_ACTOR]
    if kind == A_END:
        skill_end_of_turn(ev, t, kn, me)  # skill-based's auto reserve (kernel_skill_economy)
        overcome(ev, s, cs, t, kn, tape, me)  # off-guard: the Will save against a panic (kernel_fear)
        end_turn(ev, s, cs, t, kn, me, R_NONE)
        advance(w, m, ev, s, cs, t, kn, tape, order)
        return
    why = distracting(opt, kn, me, kind, a, b)  # skill-based: a distracting act provokes before it happens
    offered = m[M_PAD][PAD_BOOLS]  # who has been offered an attack of opportunity: nobody yet
    offered[:] = False
    if why and not provoke(w, m, ev, s, t, occ, tape, order, me, offered, why):
        end_turn(ev, s, cs, t, kn, me, R_CANNOT)
        advance(w, m, ev, s, cs, t, kn, tape, order)
        return
    if kind == A_ATTACK:
        _ok, total, _raw, degree, pct = plan(w, m, s, t, occ, me, a, b, s[me, PC], s[me, PR], True)
        spend(ev, t, me, A_ATTACK, a, L_STANDARD)
        if opt[me, b, RELOAD] != RELOAD_NONE:  # PFB-ITEM-08: the shot empties the crossbow
            s[me, LOADED + b] = 0
            emit(ev, t, E_EQUIP, me, s[me, WIELD], NOTE_FIRES, b, 0, 0, 0)
        t[T_SKL_CRIT] = move_cost  # skill-based's declared critical attack (SKL-CRIT): −p on the roll
        roll_attack(w, m[5], ev, s, t, tape, me, a, b, total - move_cost, degree, pct)
        t[T_SKL_CRIT] = 0
        strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_SKL_RESERVE:  # skill-based's reserve declaration (kernel_skill_tactics)
        declare_reserve(ev, t, kn, me, a, b)
    elif kind == A_SKL_BONUS:  # skill-based's off-hand bonus attack (kernel_skill_tactics, SKL-TWF-01/02)
        bonus_attack(w, m, ev, s, t, occ, tape, me, a, b, move_cost)
        strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_SKL_FEINT:  # skill-based's feint (kernel_skill_feint)
        feinted_with = feint_option(s, cs, kn, me, a)
        spend(ev, t, me, A_SKL_FEINT, a, L_STANDARD)
        feint(ev, t, kn, tape, me, a, feinted_with)
        strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_SKL_CAST:  # skill-based's CastSpell and its counterspell window (kernel_skill_spells)
        _ok, total, _raw, degree, pct = plan(w, m, s, t, occ, me, a, b, s[me, PC], s[me, PR], False)
        spend(ev, t, me, A_SKL_CAST, b, L_STANDARD)
        if not counterspelled(ev, s, cs, t, kn, tape, order, me, b):
            roll_attack(w, m[5], ev, s, t, tape, me, a, b, total, degree, pct)
        strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_CHARGE:
        _ok, ec, er, dist = charge_plan(w, m, s, t, occ, me, a, b)
        spend(ev, t, me, A_CHARGE, a, L_FULL)
        path = m[M_PAD][PAD_PATH][:1]
        path[0, 0] = ec
        path[0, 1] = er
        if kn[K_CHARGE_EARLY]:  # PFB-CHG-12 variant: −2 AC from the start of the charge movement
            emit(ev, t, E_EFFECT_ADD, me, t[T_ROUND] + 1, -2, 0, 0, 0, 0)
            s[me, CHARGE_UNTIL] = t[T_ROUND] + 1
            charge_added(s, t, me)
        if kn[K_AOO]:  # CMV-COV-08: every threatened square left on the line provokes
            charge_provoking(w, m, ev, s, t, occ, tape, order, me, dist, ec, er)
        else:
            walk(ev, s, cs, t, occ, me, MODE_CHARGE, dist, t[T_DIAGS], path, 1)
        if not s[me, DOWN]:
            if not kn[K_CHARGE_EARLY]:
                emit(ev, t, E_EFFECT_ADD, me, t[T_ROUND] + 1, -2, 0, 0, 0, 0)
                s[me, CHARGE_UNTIL] = t[T_ROUND] + 1
                charge_added(s, t, me)
            charge_added(s, t, me)
            _ok, total, _raw, degree, pct = plan(w, m, s, t, occ, me, a, b, s[me, PC], s[me, PR], False)
            roll_attack(w, m[5], ev, s, t, tape, me, a, b, total + 2, degree, pct)
        strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_MOVE:
        spend(ev, t, me, A_MOVE, 0, pay_label(s, cs, t, kn, C_MOVE))
        path = m[M_PAD][PAD_PATH][:path_len]
        if kn[K_AOO]:
            walk_provoking(w, m, ev, s, t, occ, tape, order, me, MODE_MOVE, move_cost, move_diags, path,
                           path.shape[0])
        else:
            walk(ev, s, cs, t, occ, me, MODE_MOVE, move_cost, move_diags, path, path.shape[0])
    elif kind == A_STEP:
        _ok, new_diags = step_ok(w, m, s, t, me, a, b)
        spend(ev, t, me, A_STEP, 0, pay_label(s, cs, t, kn, C_FREE if kn[K_STEP_FREE] else C_NONE))
        path = m[M_PAD][PAD_PATH][:1]
        path[0, 0] = a
        path[0, 1] = b
        walk(ev, s, cs, t, occ, me, MODE_STEP, 5, new_diags, path, 1)
    elif kind == A_DRAW:
        spend(ev, t, me, A_DRAW, a, pay_label(s, cs, t, kn, C_MOVE))
        s[me, WIELD] = a
        emit(ev, t, E_EQUIP, me, a, NOTE_DRAWS, a, 0, 0, 0)
    elif kind == A_RELOAD:
        spend(ev, t, me, A_RELOAD, a, pay_label(s, cs, t, kn, C_MOVE if opt[me, a, RELOAD] == RELOAD_MOVE
                                                  else C_FULL))
        s[me, LOADED + a] = 1
        emit(ev, t, E_EQUIP, me, s[me, WIELD], NOTE_RELOADS, a, 0, 0, 0)
        if opt[me, a, RELOAD] != RELOAD_MOVE:
            strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_FIND:
        spend(ev, t, me, A_FIND, a, L_FULL)
        find(ev, s, t, me, a)
        strenuous(ev, s, cs, t, kn, tape, me)
    elif kind == A_CDG:
        coup_de_grace(w, m, ev, s, t, occ, tape, me, a)
        strenuous(ev, s, cs, t, kn, tape, me)
    if t[T_HAS_TURN] and cannot_act(s, cs, t, me) != R_NONE:
        end_turn(ev, s, cs, t, kn, me, R_CANNOT)
        advance(w, m, ev, s, cs, t, kn, tape, order)
    else:
        check_end(ev, s, cs, t, kn)


@njit
def run(w: tuple, m: tuple, s: I64, t: I64, occ: I16, order: I64, tape: U32, ev: I64,  # type: ignore[type-arg]
        surprise: int, ws: Workspace) -> None:
    """Play from round 1 to the end (``Encounter.start`` after initiative, then ``play`` with TacticalAI).
    ``ws``: the search's buffers and memo for this battle (:func:`search_workspace` for at least
    ``runner.most_speed`` and the largest size; the runner keeps one per compiled battle, :mod:`.memo`)."""
    # with a scratch copy of the low walls (kernel_cover)
    m = (*m, ws, m[2].copy(), scratch(s.shape[0], ws[FOUND_PATHS].shape[1]))  # m[8], m[9], m[M_PAD]
    positions(t, w[9], order)  # skill-based's active defense: who has had its turn (kernel_skill_defense)
    new_round(ev, s, w[0], t, w[9], 1, surprise)
    advance(w, m, ev, s, w[0], t, w[9], tape, order)
    while not t[T_ENDED] and t[T_HAS_TURN]:
        kind, a, b, move_cost, move_diags, path_len = choose(w, m, s, t, occ, order)
        if t[T_EXHAUSTED]:
            return
        execute(w, m, ev, s, t, occ, tape, order, kind, a, b, move_cost, move_diags, path_len)
