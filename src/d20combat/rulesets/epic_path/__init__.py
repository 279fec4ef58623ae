"""Epic Path's combat chapter (seed 000, rule prefix EP): the ``epic-path`` ruleset.

Epic Path is a Pathfinder-1e-derived text, so where it agrees with the Beginner Box it reuses the core
components; what it changes is one component per policy area — :meth:`EpicPath.compose` is the table:

- attacks of opportunity from threatened squares (EP-AOO): one a round, from each enemy at most one per
  provoking action, by leaving a threatened square (a move, a charge or impeded movement; never a 5-foot step);
  none while flat-footed without Combat Reflexes or uncanny dodge, none in total defense
- movement (EP-MOVE): the charge up to speed that ends the turn; impeded terrain (a full round for 5 ft)
- actions: the severable full attack, fighting defensively, total defense, impeded movement, stances

Every AMBIGUOUS or MISSING point of EP.md with a proposed reading is an option of :class:`EpOptions`, with
that reading as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.numbers import core_stacking
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import (
    ArmorClass,
    CoreSheets,
    CornerCover,
    D20Attack,
    D20Saves,
    HitPointDamage,
    HitPoints,
    NamedConditions,
    NoActiveDefense,
    StandardMoveEconomy,
    StealthSurprise,
    StrongestConcealment,
    ThreatAndConfirm,
    TurnOrder,
)
from d20combat.rulesets.epic_path.actions import EpActions
from d20combat.rulesets.epic_path.movement import EpMovement
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.reactions import EpAttacksOfOpportunity
from d20combat.rulesets.epic_path.tactics import EpTactics


class EpicPath(Ruleset):
    id = "epic-path"
    title = "Epic Path"
    Options = EpOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: EpOptions = options
        aoo = EpAttacksOfOpportunity()              # EP-AOO: leaving a threatened square, 1 a round; flat-footed
        return Policies(
            stacking=core_stacking,
            sheets=CoreSheets(),
            turn_order=TurnOrder(),
            surprise=StealthSurprise(),
            conditions=NamedConditions(),
            saves=D20Saves(),
            economy=StandardMoveEconomy(max_free_actions=o.max_free_actions, aoo=aoo),
            movement=EpMovement(),                  # EP-MOVE-16/23: charge up to speed, ends the turn
            attack=D20Attack(),
            defense=ArmorClass(),
            active_defense=NoActiveDefense(),
            criticals=ThreatAndConfirm(),
            damage=HitPointDamage(),
            injury=HitPoints(),
            cover=CornerCover(),
            concealment=StrongestConcealment(),
            reactions=aoo,
            actions=EpActions(o),                   # full attack, defensive fighting, impeded move, stances
            tactics=EpTactics(),                    # splash into groups, defensive when outmatched
        )


__all__ = ["EpOptions", "EpicPath"]
