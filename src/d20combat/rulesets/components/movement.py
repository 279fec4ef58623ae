"""P6 movement: speed and the few movement knobs the texts leave open (the geometry is the battlefield's)."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.components.component import Component


class GridMovement(Component):
    """PFB-MOVE: 5-ft squares, 5/10 diagonals, the 5-foot step, drawing while moving."""

    def __init__(self, *, difficult_diagonal_counts: bool = True, step_uses_free_action: bool = False,
                 move_draw_uses_free_action: bool = True, charge_ac_from_start: bool = False,
                 charge_speed_multiple: int = 2, charge_ends_turn: bool = False) -> None:
        self.difficult_diagonal_counts = difficult_diagonal_counts
        """PFB-MOVE-22: a difficult diagonal advances the 5/10 diagonal count."""
        self.step_uses_free_action = step_uses_free_action
        """PFB-MOVE-01: the 5-foot step spends the free action."""
        self.move_draw_uses_free_action = move_draw_uses_free_action
        """PFB-ITEM-05/11: drawing or strapping while moving spends the free action."""
        self.charge_ac_from_start = charge_ac_from_start
        """PFB-CHG-12: the charge's −2 AC applies from the start of the charge movement (so reactions during it
        see it) rather than after the movement."""
        self.charge_speed_multiple = charge_speed_multiple
        """PFB-CHG-05: a charge moves up to double speed (2); EP-MOVE-16: up to speed (1)."""
        self.charge_ends_turn = charge_ends_turn
        """EP-MOVE-23/25: the charge ends the turn — no further actions, not even free actions (every pool left is
        emptied; an action point may still grant a standard action, EP-MOVE-24)."""

    def speed_ft(self, creature: Creature, state: CombatantState) -> int:
        return creature.land_speed_ft

    def describe_speed(self, creature: Creature, state: CombatantState) -> str:
        """``"speed 30 ft"``; with what changed it: ``"speed 15 ft (30, staggered half)"``."""
        value = self.speed_ft(creature, state)
        return f"speed {value} ft" if value == creature.land_speed_ft else \
            f"speed {value} ft ({creature.land_speed_ft})"
