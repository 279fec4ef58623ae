"""The compile steps of the skill-based components the kernel implements (issue 14), registered in
:data:`.components.KERNEL_COMPONENTS` after the core's and off-guard's. Each writes its knobs (the block from
``K_SKL_*`` = 100 in :mod:`.layout`); the kernel code they switch on is in ``kernel_skill_*.py``.

:class:`WeaponSkillAttack` needs no knob (skill + Str/Dex, a natural 20 counting as 30 and a 1 as −10 with no
automatic results, no −4 into melee, no minimum range: static answers the compile step tables); its step only
refuses what the kernel does not model. No compile step at all: :class:`DeclaredCriticalAttack` (no threats and
no multiplier are static answers too; a critical attack is declared only by skill-based's tactics and attacks
of opportunity, which the kernel refuses, so its AI never declares one) and :class:`PassiveDefense` (10 + Dex per
defense context, tabled like any Armor Class).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.encounter.battle import Battle
from d20combat.rulesets.skill_based.action_set import SkillActions
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack
from d20combat.rulesets.skill_based.concealment import NoConcealment
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.simulation.fast.layout import (
    CONC_STRONGEST,
    K_CONC_STACK,
    K_SKL_ARMOR,
    K_SKL_MIN_AFTER,
    K_SKL_MITIGATE,
    K_SKL_NO_CONC,
    MAX_SKL_CREATURES,
    NotCompilable,
)

I64 = npt.NDArray[np.int64]


def armor_rating(component: ArmorRatingDamage, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-DMG-03/04: each creature's armor rating (as the component reads it from the stat block) into
    ``kn[K_SKL_ARMOR + i]``, in the order of the battle's creatures, and the floor after armor
    (``skl_min_damage_1``)."""
    creatures = list(battle.creatures.values())
    if len(creatures) > MAX_SKL_CREATURES:
        raise NotCompilable(f"{len(creatures)} creatures: the kernel's armor-rating damage holds the ratings of at "
                            f"most {MAX_SKL_CREATURES}")
    kn[K_SKL_MITIGATE] = 1
    kn[K_SKL_MIN_AFTER] = 1 if component.min_damage_1 else 0
    for i, creature in enumerate(creatures):
        kn[K_SKL_ARMOR + i] = component.armor_rating(creature)


def no_concealment(component: NoConcealment, battle: Battle, kn: I64, planes: I64) -> None:
    """Rules-diff P18: the sources found as PFB's strongest concealment finds them (total concealment still means
    a guessed square), their miss chance 0."""
    kn[K_CONC_STACK] = CONC_STRONGEST
    kn[K_SKL_NO_CONC] = 1




def weapon_skill_attack(component: WeaponSkillAttack, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-ATK-01..09 as tabled by the compile step. Refused: a Small or Medium creature with a reach weapon (its
    ring 2 squares away, SKL-AOO-05..09, is not the kernel's reach) and the two-weapon mode of skill-based's
    actions (the hand penalties, SKL-TWF-03/04). Without that mode no attack carries a two-weapon penalty, and
    the AI attacks only with the weapon it wields, which the component holds (SKL's undrawn off-hand and unarmed
    attacks are never its choice)."""
    for cid, creature in battle.creatures.items():
        if creature.space == 1 and any(o.weapon.reach for o in creature.attacks):
            raise NotCompilable(f"{cid} has a reach weapon: its ring 2 squares away (SKL-AOO-08) is not in the "
                                f"kernel's reach")
    if isinstance(battle.ruleset.actions, SkillActions):
        raise NotCompilable("skill-based's two-weapon mode (SKL-TWF-03/04) is not in the kernel's attack")
