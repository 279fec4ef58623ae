"""Epic Path's combat chapter (seed 000, rule prefix EP): the ``epic-path`` ruleset.

Epic Path is a Pathfinder-1e-derived text, so where it agrees with the Beginner Box it reuses the core
components; what it changes is one component per policy area — :meth:`EpicPath.compose` is the table:

- attacks of opportunity from threatened squares (EP-AOO): one a round, from each enemy at most one per
  provoking action, by leaving a threatened square (a move or a charge; never a 5-foot step)

Every AMBIGUOUS or MISSING point of EP.md with a proposed reading is an option of :class:`EpOptions`, with
that reading as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.numbers import core_stacking
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import (
    ActionSet,
    ArmorClass,
    CoreSheets,
    CoreTactics,
    CornerCover,
    D20Attack,
    D20Saves,
    GridMovement,
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
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.epic_path.options import EpOptions


class EpicPath(Ruleset):
    id = "epic-path"
    title = "Epic Path"
    Options = EpOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: EpOptions = options
        aoo = ThreatenedSquareAoO(                  # EP-AOO-06/08/12: leaving a threatened square, 1 a round
            per_round=1, provoking_moves=("move", "charge"))
        return Policies(
            stacking=core_stacking,
            sheets=CoreSheets(),
            turn_order=TurnOrder(),
            surprise=StealthSurprise(),
            conditions=NamedConditions(),
            saves=D20Saves(),
            economy=StandardMoveEconomy(max_free_actions=o.max_free_actions, aoo=aoo),
            movement=GridMovement(),
            attack=D20Attack(),
            defense=ArmorClass(),
            active_defense=NoActiveDefense(),
            criticals=ThreatAndConfirm(),
            damage=HitPointDamage(),
            injury=HitPoints(),
            cover=CornerCover(),
            concealment=StrongestConcealment(),
            reactions=aoo,
            actions=ActionSet(),
            tactics=CoreTactics(),
        )


__all__ = ["EpOptions", "EpicPath"]
