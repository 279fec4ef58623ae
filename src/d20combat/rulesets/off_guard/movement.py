"""P6 movement of the off-guard ruleset: PFB's grid movement at the speed the conditions leave."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import GridMovement
from d20combat.rulesets.off_guard.conditions import ConditionTable


class HalfSpeedUnlessAided(GridMovement):
    """PFB's movement (PFB-MOVE-01) at CMV's speeds: fatigued −5 ft, once even when exhausted (CMV-COND-18);
    blinded and staggered move at half speed unless an ally aids them (CMV-COND-03, CMV-INJ-07)."""

    def __init__(self, table: ConditionTable, *, charge_ac_from_start: bool = True) -> None:
        # PFB-CHG-12 (variant ``cmv_charge_ac_from_start``): the charge's −2 AC from the start of the charge
        # movement, so reaction attacks during it see the penalty (CMV-COV-08).
        super().__init__(charge_ac_from_start=charge_ac_from_start)
        self.table = table

    def speed_ft(self, creature: Creature, state: CombatantState) -> int:
        return self.speed(creature, state, ignore_blind=False)

    def speed(self, creature: Creature, state: CombatantState, *, ignore_blind: bool) -> int:
        """Fatigued −5 ft (CMV-COND-18, once even when exhausted); blinded and staggered move at half
        speed unless an ally guides them (CMV-COND-03, CMV-INJ-07); ``ignore_blind``: a blind creature risking
        full speed (variant ``cmv_blind_full_speed_check``)."""
        return self.speed_parts(creature, state, ignore_blind=ignore_blind)[0]

    def speed_parts(self, creature: Creature, state: CombatantState, *, ignore_blind: bool = False
                    ) -> tuple[int, list[str]]:
        """:meth:`speed` and the words for each change (CMV-COND-03/18, CMV-INJ-07; held stays put, CMV-COND-36)."""
        rows = self.table.rows_of(creature, state)
        speed = creature.land_speed_ft + sum(row.speed_ft for _, row in rows)
        notes = [f"{name} {'+' if row.speed_ft > 0 else '−'}{abs(row.speed_ft)} ft" for name, row in rows
                 if row.speed_ft]
        halved = [name for name, row in rows if row.speed == "half" and not (ignore_blind and name == "blinded")]
        if halved and self.table.guided(state):
            notes.append(f"{', '.join(halved)} but guided: full")
        elif halved:
            speed = speed // 2 // 5 * 5
            notes.append(f"{', '.join(halved)} half")
        notes += [f"{name}: stays in its square" for name, row in rows if row.speed == "stop"]
        return max(speed, 0), notes

    def describe_speed(self, creature: Creature, state: CombatantState) -> str:
        """``"speed 10 ft (30, fatigued −5 ft, staggered half)"``."""
        value, notes = self.speed_parts(creature, state)
        return f"speed {value} ft ({', '.join([str(creature.land_speed_ft), *notes])})" if notes else \
            f"speed {value} ft"
