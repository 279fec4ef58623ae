"""P15 conditions: the named states a creature can be in, and what each one does."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import Component


class NamedConditions(Component):
    """PFB names a few states (prone, paralyzed, helpless…) and rules on each where it arises; there is no
    condition table: a condition is its stored name."""

    def active(self, creature: Creature, state: CombatantState) -> frozenset[str]:
        """The conditions in force (stored and derived)."""
        return state.conditions

    def ability_score_changes(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Changes to every ability score from the conditions in force (PFB's named conditions change none)."""
        return []
