"""Epic Path's combat chapter (seed 000, rule prefix EP): the ``epic-path`` ruleset.

Epic Path is a Pathfinder-1e-derived text, so where it agrees with the Beginner Box it reuses the core
components; what it changes is one component per policy area — :meth:`EpicPath.compose` is the table:

- attacks of opportunity from threatened squares (EP-AOO): one a round, from each enemy at most one per
  provoking action, by leaving a threatened square (a move or a charge; never a 5-foot step)
- time and the turn (EP-INIT, EP-SURP, EP-ACT, EP-TIME, action points): initiative with three tie-breakers and
  Flat-Footed until the first turn; the ambush check and awareness; standard, move and swift actions converted only
  downwards, a full-round lock, one immediate action a round; hold and ready; the 10-round Maximum Encounter Length;
  action points by combat round (docs/epic-path/time-and-turn.md)

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
    CornerCover,
    D20Attack,
    D20Saves,
    GridMovement,
    HitPointDamage,
    HitPoints,
    NamedConditions,
    NoActiveDefense,
    StrongestConcealment,
    ThreatAndConfirm,
)
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.epic_path.ambush import AmbushSurprise
from d20combat.rulesets.epic_path.economy import EpEconomy, may_react
from d20combat.rulesets.epic_path.initiative import EpInitiative
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.tactics import EpTactics
from d20combat.rulesets.epic_path.turn_actions import TIME_AND_TURN_ACTIONS


class EpicPath(Ruleset):
    id = "epic-path"
    title = "Epic Path"
    Options = EpOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: EpOptions = options
        aoo = ThreatenedSquareAoO(                  # EP-AOO-06/08/12: leaving a threatened square, 1 a round
            per_round=1, provoking_moves=("move", "charge"),
            may_react=may_react)                    # EP-ACT-05: none after a full-round action
        return Policies(
            stacking=core_stacking,
            sheets=CoreSheets(),
            turn_order=EpInitiative(tie_d20=o.init_tie_d20, max_rounds=o.max_encounter_rounds,
                                    surprise_round_counts=o.surprise_round_counts_for_reset,
                                    flat_footed_after_reset=o.flat_footed_after_reset),
            surprise=AmbushSurprise(spot_step=o.spot_check_step),
            conditions=NamedConditions(),
            saves=D20Saves(),
            economy=EpEconomy(max_free_actions=o.max_free_actions, aoo=aoo,
                              surprise_may_degrade=o.surprise_standard_may_degrade),
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
            actions=ActionSet(own=(*TIME_AND_TURN_ACTIONS,)),
            tactics=EpTactics(),
        )


__all__ = ["EpOptions", "EpicPath"]
