"""Skill ratings, the action grants of talents, and what an off hand holds (SKL-ATK-08, SKL-ACT-03/06/09/10,
SKL-TWF)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import Weapon


@dataclass(frozen=True, slots=True)
class OffHand:
    """What a creature holds in its off hand (SKL-TWF-01/09/20)."""

    name: str
    skill: str
    light: bool
    shield: bool
    option: AttackOption | None
    """The attack it makes (None for a shield: no shield bash is modelled)."""
    double_end: bool = False


def weapon_skill(weapon: Weapon) -> str:
    """SKL-ATK-08 (MISSING): the weapon data names its skill; without one, the weapon's own name is the skill."""
    return (weapon.skill or weapon.name).lower()


def skill_rating(creature: Creature, skill: str) -> int:
    return {k.lower(): v for k, v in creature.sheet.skills.items()}.get(skill.lower(), 0)


def action_grants(creature: Creature) -> Counter[str]:
    """Action grants from talents and feats (SKL-ACT-03/06/09/10): ``extra_complex_action[:use]``,
    ``extra_basic_action``; ``use`` is attack, dodge or block."""
    grants: Counter[str] = Counter()
    for feat in creature.sheet.feats:
        name = feat.lower().replace(" ", "_")
        if name.startswith("extra_complex_action"):
            grants["complex:" + (name.partition(":")[2] or "any")] += 1
        elif name == "extra_basic_action":
            grants["basic"] += 1
    return grants
