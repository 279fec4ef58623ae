"""P9 defense of Epic Path (EP-AC): typed AC components with the size modifier, touch and flat-footed AC, uncanny
dodge."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, Total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ArmorClass
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.epic_path.aid import aid_modifiers
from d20combat.rulesets.epic_path.attack import SIZE_MODIFIER

UNCANNY_DODGE = "uncanny_dodge"


class EpArmorClass(ArmorClass):
    """EP-AC-01..05: 10 + armor + shield + Dex + size + natural armor + deflection + dodge (typed, the stacking
    policy keeps the best of a type). Touch AC leaves out armor, shield and natural armor and keeps every other
    modifier — size, Dex, deflection (EP-AC-03; EP-AC-04 read as the Touch AC definition: all armor). A flat-footed
    creature loses a positive Dex bonus (EP-AC-01) unless it has uncanny dodge (EP-AC-02). A charger's −2 until
    its next turn is the charge's effect (EP-AC-05). Aid another's +2 AC against one opponent (EP-MISC-03)."""

    def __init__(self, *, touch_magic_armor: bool = False) -> None:
        super().__init__()
        self.touch_magic_armor = touch_magic_armor
        """EP-AC-04 (option ``ep_touch_ac_armor: magic_enhancement``): touch attacks bypass only "mundane armor", so
        magic armor's and shield's enhancement bonus (``attributes.armor_enhancement`` / ``shield_enhancement``)
        still counts in Touch AC."""

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        size = SIZE_MODIFIER.get(creature.sheet.size, 0)
        more = [*extra, Modifier(size, "size", "size")] if size else list(extra)
        if ctx.touch and self.touch_magic_armor:
            more += magic_armor(creature, state)
        if attack is not None and attack.target == creature.id:
            more += aid_modifiers(state, "AC", attack.attacker)  # EP-MISC-03/05
        return super().total(creature, state, ctx, more, view, attack)

    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        """EP-AC-02: a creature with uncanny dodge keeps its Dex bonus: it is never caught flat-footed."""
        if creature.has_feat(UNCANNY_DODGE):
            return False
        return super().is_flat_footed(creature, state, surprised=surprised)


def magic_armor(creature: Creature, state: CombatantState) -> list[Modifier]:
    """EP-AC-04 (option): the enhancement bonus of worn magic armor and of a strapped magic shield, as the stat
    block's ``attributes`` ``armor_enhancement`` and ``shield_enhancement`` give them (part of the armor's bonus)."""
    attrs = creature.sheet.attributes
    out = []
    if creature.armor_bonus and attrs.get("armor_enhancement", 0) > 0:
        out.append(Modifier(min(attrs["armor_enhancement"], creature.armor_bonus),
                            "magic armor's enhancement (EP-AC-04, option ep_touch_ac_armor)", "armor"))
    if creature.shield_bonus and state.shield_state == "strapped" and attrs.get("shield_enhancement", 0) > 0:
        out.append(Modifier(min(attrs["shield_enhancement"], creature.shield_bonus),
                            "magic shield's enhancement (EP-AC-04, option ep_touch_ac_armor)", "shield"))
    return out
