"""P9 defense: the target number an attack must reach, and who cannot defend themselves."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, Total
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.rulesets.components.component import AttackInfo, Component, View


class ArmorClass(Component):
    """PFB-AC-01..06, PFB-HELP-02..04: 10 + armor + shield + Dex + size + natural armor + deflection, with
    touch and flat-footed variants."""

    name: str = "AC"
    """What the target number is called in explanations ("AC", "Passive Defense")."""
    variants: tuple[tuple[str, DefenseContext], ...] = (("flat-footed", DefenseContext(flat_footed=True)),
                                                        ("touch", DefenseContext(touch=True)))
    """The other target numbers this ruleset has, as the table shows them (PFB-AC-03..06)."""

    def __init__(self, *, flat_footed_loses_dodge: bool = False, touch_keeps_natural_armor: bool = False) -> None:
        self.flat_footed_loses_dodge = flat_footed_loses_dodge
        """PFB-AC-04: flat-footed also loses dodge bonuses."""
        self.touch_keeps_natural_armor = touch_keeps_natural_armor
        """PFB-AC-06: touch AC keeps natural armor."""

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        """The target number with its breakdown."""
        return armor_class(creature, state, ctx, extra=extra, flat_footed_loses_dodge=self.flat_footed_loses_dodge,
                           touch_keeps_natural_armor=self.touch_keeps_natural_armor, stacking=self.rules.stacking)

    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        """PFB-AC-03 / PFB-SURP-09: can't react — surprised, or paralyzed; or marked flat-footed (EP-SURP-20: a
        creature that has not acted yet in the encounter)."""
        return surprised or state.has("paralyzed") or state.has("flat_footed")
