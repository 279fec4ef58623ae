"""Stat blocks under the skill-based rules: the skill ratings they must carry, and the unarmed strike."""

from __future__ import annotations

from typing import Any

from d20combat.model.catalog import default_catalog
from d20combat.model.statblock import AttackProfile, StatBlock
from d20combat.rulesets.components import CoreSheets
from d20combat.rulesets.skill_based.options import UNARMED, UNARMED_STRIKE
from d20combat.rulesets.skill_based.skills import weapon_skill


class WeaponSkillSheets(CoreSheets):
    """SKL-ATK-08: a rating in each weapon's skill; SKL-DEF-06: a Defense rating; SKL-INIT-02 (variant
    ``skl_init_agility_score``): an Agility score. SKL-TWF-06 / SKL-AOO-02: every creature has an unarmed strike."""

    def __init__(self, *, needs_agility: bool = False) -> None:
        self.needs_agility = needs_agility

    def check_stat_block(self, sheet: Any) -> list[str]:
        """What SKL needs on a sheet: a rating in each weapon's skill and in Defense (SKL-ATK-08, SKL-DEF-06)."""
        assert isinstance(sheet, StatBlock)
        catalog = default_catalog()
        skills = {k.lower() for k in sheet.skills}
        problems: list[str] = []
        for profile in sheet.attacks:
            try:
                weapon = catalog.weapon(profile.weapon)
            except KeyError:
                continue
            skill = weapon_skill(weapon)
            if skill != UNARMED and skill not in skills:
                problems.append(f"no {skill!r} skill rating for {weapon.name} (SKL-ATK-08: attack bonus = weapon "
                                f"skill + Str or Dex)")
        if "defense" not in skills:
            problems.append("no 'defense' skill rating (SKL-DEF-06: dodge = d20 + Defense + Dex)")
        if self.needs_agility and "agility" not in {k.lower() for k in sheet.attributes}:
            problems.append("no attributes.agility score (SKL-INIT-02, variant skl_init_agility_score)")
        return list(dict.fromkeys(problems))

    def complete_sheet(self, sheet: Any) -> Any:
        """SKL-TWF-06 / SKL-AOO-02: every creature has an unarmed strike."""
        assert isinstance(sheet, StatBlock)
        catalog = default_catalog()
        for profile in sheet.attacks:
            try:
                if weapon_skill(catalog.weapon(profile.weapon)) == UNARMED:
                    return sheet
            except KeyError:
                return sheet
        unarmed = AttackProfile.model_validate({"weapon": UNARMED_STRIKE})
        return sheet.model_copy(update={"attacks": (*sheet.attacks, unarmed)})
