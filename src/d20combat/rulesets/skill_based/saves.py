"""Saving throws and checks of the skill-based rules: the text has neither (SKL.md: "none of … saving throws"); both
are read as skill checks, the form SKL-CSPL-04 proposes: d20 + skill rating + the skill's governing attribute."""

from __future__ import annotations

from d20combat.battlefield.cover import CoverFact
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import D20Saves
from d20combat.rulesets.components.saves import ABILITY_LABEL, KEY_ABILITY, SAVE_NAME, ability_key
from d20combat.rulesets.skill_based.skills import skill_rating

_SAVE_SKILLS = {"fort": ("fortitude", "fort"), "ref": ("reflex", "ref"), "will": ("will",)}


class SkillSaves(D20Saves):
    """SKL-CSPL-04 (MISSING, proposed): a check is 1d20 + the skill rating + its governing attribute's modifier
    where the skill data names one (:data:`~d20combat.rulesets.components.saves.KEY_ABILITY`); a rating is not a
    total (SKL-ATK-08: attack = weapon skill + Str), and a skill the sheet does not rate counts 0, so it is a plain
    attribute check. Saves (absent from the text, proposed): the stat block's printed total where it has one, else a
    check of a skill named after the save (``fortitude``, ``reflex``, ``will``: 0 when unrated) + Con, Dex or Wis.
    SKL-ATK-07: a natural 20 or 1 changes only attack rolls, so no save or check succeeds or fails by the die."""

    natural_saves = False

    def save_modifiers(self, creature: Creature, state: CombatantState, kind: str, *,
                       cover_fact: CoverFact | None = None, printed: int | None = None) -> list[Modifier]:
        """SKL-CSPL-04 (proposed reading for saves): the printed save, or the save's skill rating, + its attribute."""
        k = self._kind(kind)
        has_printed = printed is not None or (creature.sheet.saves is not None and creature.sheet.saves.get(k)
                                              is not None)
        if has_printed:
            base = self.save_base(creature, k, printed)
        else:
            rated = {s.lower() for s in creature.sheet.skills}
            skill = next((s for s in _SAVE_SKILLS[k] if s in rated), _SAVE_SKILLS[k][0])
            base = Modifier(skill_rating(creature, skill), f"{SAVE_NAME[k]} skill")
        return [m for m in [base, self.save_ability(creature, state, k)] if m.value]

    def skill_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        """SKL-CSPL-04: the rating (0 if unrated) + the governing attribute's modifier, if the skill has one."""
        name = skill.strip().lower()
        ability = ability_key(name)
        if ability is not None:
            return [self._ability_modifier(creature, state, ability)]
        mods = [Modifier(skill_rating(creature, name), f"{name.capitalize()} skill")]
        key = KEY_ABILITY.get(name)
        if key is not None:
            now = self.ability(creature, state, key)
            mods.append(Modifier(now.modifier, ABILITY_LABEL[key]))
        return mods
