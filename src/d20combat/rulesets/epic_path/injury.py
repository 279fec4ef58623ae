"""P14 injury of Epic Path (EP-DMG-04): a creature at 0 hit points or fewer is defeated."""

from __future__ import annotations

from typing import Literal

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rules import health
from d20combat.rulesets.components import HitPoints


class DefeatedAtZero(HitPoints):
    """EP-DMG-04: hit points at 0 or fewer defeat a creature — unconscious or dead (AMBIGUOUS, option
    ``ep_defeated``): by default it falls unconscious and is dying (helpless, out of the fight; the dying procedure
    and death at −Con are Pathfinder's, as the text names "stabilize a dying creature" but defines neither);
    ``dead``: it dies at 0. Unlike the Beginner Box, 0 hp is not a 'disabled' creature that still acts."""

    def __init__(self, *, defeated: Literal["unconscious", "dead"] = "unconscious") -> None:
        super().__init__()
        self.defeated = defeated

    def health(self, creature: Creature, state: CombatantState) -> health.Health:
        now = health.health(state.hp, creature.con_score)
        if now is health.Health.DISABLED or (self.defeated == "dead" and now is health.Health.DYING):
            return health.Health.DEAD if self.defeated == "dead" else health.Health.DYING
        return now
