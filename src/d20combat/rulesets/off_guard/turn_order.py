"""P2 turn order of the off-guard ruleset: PFB's initiative with the conditions' penalties on initiative checks."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import TurnOrder
from d20combat.rulesets.off_guard.conditions import ConditionTable


class InitiativeCheckPenalties(TurnOrder):
    """PFB's initiative (PFB-INIT-01) with the table's penalties on initiative checks: deafened −4 (CMV-COND-07),
    bloodied and wounded −1 (CMV-INJ-02, CMV-INJ-04), shaken −2 (CMV-COND-24); fatigue lowers Dex (CMV-COND-17)."""

    def __init__(self, table: ConditionTable) -> None:
        self.table = table

    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """CMV-COND-07 deafened −4; CMV-INJ-02/04 bloodied and wounded −1; CMV-COND-24 shaken −2;
        fatigue lowers Dex (CMV-COND-17)."""
        active = self.table.active(creature, state)
        mods = [Modifier(row.checks + row.initiative, name) for name, row in self.table.rows(active)
                if row.checks + row.initiative]
        dex = self.table.ability_delta(creature, active, "dex")
        if dex:
            mods.append(Modifier(dex, "Dex (fatigue)"))
        return mods
