"""Awareness and surprise (WOA-CYCLE-01/03/06..08): no surprise round; the surprised are flat-footed until they act.

The DM says who is aware of whom (WOA-CYCLE-01; the Determining Awareness sidebar is missing, WOA-CYCLE-06): the
scenario's ``surprise: {surprised: [...]}``, or — when it gives none — the core's Stealth against Perception for
sneaky creatures. Whoever is surprised takes −20 on initiative in the first round and is flat-footed until it has
had a chance to act (WOA-CYCLE-03/08), which the round cycle applies; there is no surprise round (WOA-CYCLE-07).
"""

from __future__ import annotations

from typing import Any

from d20combat.dice import DiceSource
from d20combat.rulesets.components.surprise import Settled, StealthSurprise


class Awareness(StealthSurprise):
    """WOA-CYCLE-01/06/07: who is surprised, and never a surprise round."""

    def settle(self, battle: Any, dice: DiceSource) -> Settled:
        surprised, notes = self.determine(battle.creatures, battle.surprised, dice)
        if surprised:
            notes = [*notes, "no surprise round: the surprised take −20 on initiative in round 1 and are flat-footed "
                             "until they act (WOA-CYCLE-03/07/08)"]
        return Settled(surprised, notes, False)
