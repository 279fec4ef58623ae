"""Skill-based's attacks of opportunity in the kernel (:class:`~d20combat.rulesets.skill_based.reactions.
SkillAttacksOfOpportunity`, switched on by ``kn[K_SKL_AOO]`` on top of the threatened squares of
:mod:`.kernel_reactions`, ``kn[K_AOO]``).

What skill-based changes in them (SKL-AOO-01..27):

- the threatening attack (SKL-AOO-02): the melee weapon in hand, else an off-hand melee weapon, else (unless
  ``skl_unarmed_threatens`` is off) the unarmed strike — tabled per creature and weapon in hand by the compile step
  (``kn[K_SKL_THREAT + …]``, :func:`aoo_option`), the attack of opportunity made with it; an off-hand weapon and the
  unarmed strike are at hand undrawn (``WeaponSkillAttack.holds``, ``kn[K_SKL_HELD + …]``, :func:`held`);
- only while able (SKL-AOO-02/03): a creature that cannot act threatens nothing — the kernel's threat already asks
  that the reactor is not down (``injury.can_act`` under hit points);
- the distracting acts the kernel's AI can do (SKL-AOO-13/14/17): firing a ranged weapon and loading a crossbow in
  a threatened square provoke before they happen (:func:`distracting`), unless the creature has the feat
  ``no_provoke:<act>`` (SKL-AOO-22, ``kn[K_SKL_CALM + i]``);
- one a round, refreshed with the reserve by skill-based's economy (SKL-AOO-24, :mod:`.kernel_skill_economy`);
- the declared critical attack an attack of opportunity may be (SKL-AOO-27, SKL-CRIT-02): the AI always answers a
  plain "attack" (``TacticalAI.react``), so the kernel declares none.

The reach weapon's ring 10 ft away (SKL-AOO-05..09) is the attack area's reach: :class:`WeaponSkillAttack`'s
compile step refuses a Small or Medium creature with a reach weapon, so every threat here is the creature's reach.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.simulation.fast.jit import njit_borrowing
from d20combat.simulation.fast.kernel_base import A_ATTACK, A_RELOAD, WIELD
from d20combat.simulation.fast.layout import (
    A_SKL_BONUS,
    A_SKL_CAST,
    K_SKL_AOO,
    K_SKL_CALM,
    K_SKL_HELD,
    K_SKL_THREAT,
    MAX_SKL_OPTIONS,
    RANGED,
    SKL_ACT_CAST,
    SKL_ACT_FIRE,
    SKL_ACT_RELOAD,
    SPELL,
)

I64 = npt.NDArray[np.int64]

WHY_LEAVES, WHY_FIRES, WHY_RELOADS, WHY_CASTS = 0, 1, 2, 3
"""Why an attack of opportunity is offered (the ``E_REACTION_SPENT`` row's fifth field): the mover leaves a
threatened square, fires a ranged weapon in one (SKL-AOO-14), loads a crossbow in one (SKL-AOO-17) or casts a
spell in one (SKL-AOO-15, skill-based's tactics cast with ``cast_spell``)."""


@njit_borrowing
def aoo_option(s: I64, kn: I64, i: int) -> int:
    """``threat_option`` / ``aoo_attack``: the option creature ``i`` threatens and strikes with (-1: none) — the
    weapon in hand, or under skill-based's reactions the tabled one for the weapon in hand (SKL-AOO-02)."""
    if not kn[K_SKL_AOO]:
        return int(s[i, WIELD])
    return int(kn[K_SKL_THREAT + i * (MAX_SKL_OPTIONS + 1) + s[i, WIELD] + 1])


@njit_borrowing
def held(kn: I64, i: int, o: int) -> bool:
    """``WeaponSkillAttack.holds`` beyond the weapon in hand: an off-hand weapon or the unarmed strike."""
    return bool(0 <= o < MAX_SKL_OPTIONS and kn[K_SKL_HELD + i * (MAX_SKL_OPTIONS + 1) + o])


@njit_borrowing
def distracting(opt: I64, kn: I64, me: int, kind: int, a: int, b: int) -> int:
    """``SkillAttacksOfOpportunity.provoking_act`` for the kernel's action (kind, a, b): ``WHY_FIRES`` for an attack
    with a ranged weapon (not a spell, SKL-AOO-14), ``WHY_RELOADS`` for loading a crossbow (SKL-AOO-17), unless the
    creature's feat makes it an exception (SKL-AOO-22); else 0."""
    if not kn[K_SKL_AOO]:
        return 0
    calm = kn[K_SKL_CALM + me]
    firing = (kind == A_ATTACK or kind == A_SKL_BONUS) and opt[me, b, RANGED] and not opt[me, b, SPELL]  # noqa: SIM109 - numba
    if firing and not calm & SKL_ACT_FIRE:
        return WHY_FIRES
    if kind == A_RELOAD and not calm & SKL_ACT_RELOAD:
        return WHY_RELOADS
    if kind == A_SKL_CAST and not calm & SKL_ACT_CAST:
        return WHY_CASTS
    return 0
