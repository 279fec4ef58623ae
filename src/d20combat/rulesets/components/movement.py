"""P6 movement: speed and the few movement knobs the texts leave open (the geometry is the battlefield's)."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.components.component import Component


class GridMovement(Component):
    """PFB-MOVE: 5-ft squares, 5/10 diagonals, the 5-foot step, drawing while moving."""

    def __init__(self, *, difficult_diagonal_counts: bool = True, step_uses_free_action: bool = False,
                 move_draw_uses_free_action: bool = True, charge_ac_from_start: bool = False) -> None:
        self.difficult_diagonal_counts = difficult_diagonal_counts
        """PFB-MOVE-22: a difficult diagonal advances the 5/10 diagonal count."""
        self.step_uses_free_action = step_uses_free_action
        """PFB-MOVE-01: the 5-foot step spends the free action."""
        self.move_draw_uses_free_action = move_draw_uses_free_action
        """PFB-ITEM-05/11: drawing or strapping while moving spends the free action."""
        self.charge_ac_from_start = charge_ac_from_start
        """PFB-CHG-12: the charge's −2 AC applies from the start of the charge movement (so reactions during it
        see it) rather than after the movement."""

    def speed_ft(self, creature: Creature, state: CombatantState) -> int:
        return creature.land_speed_ft

    def describe_speed(self, creature: Creature, state: CombatantState) -> str:
        """``"speed 30 ft"``; with what changed it: ``"speed 15 ft (30, staggered half)"``."""
        value = self.speed_ft(creature, state)
        return f"speed {value} ft" if value == creature.land_speed_ft else \
            f"speed {value} ft ({creature.land_speed_ft})"
