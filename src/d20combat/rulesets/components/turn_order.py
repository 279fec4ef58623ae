"""P2 turn order: what a creature adds to its initiative roll."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from d20combat.dice import DiceSource
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rules import initiative
from d20combat.rulesets.components.component import Component


class TurnOrder(Component):
    """Initiative rolled once: d20 + Dex (+4 Improved Initiative), tied creatures roll off (PFB-INIT-01..05)."""

    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        return initiative.initiative_modifiers(creature)

    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Initiative modifiers from the creature's state when it rolls (conditions, wounds); none in PFB."""
        return []

    def order(self, totals: Sequence[tuple[str, int]], creatures: Mapping[str, Creature], dice: DiceSource
              ) -> tuple[list[str], list[str]]:
        """The turn order from the initiative results, highest first, and the tie-break notes (PFB-INIT-04/05:
        tied creatures roll off)."""
        return initiative.order_by_initiative(totals, dice)
