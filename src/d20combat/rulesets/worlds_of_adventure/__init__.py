"""Worlds of Adventure's combat chapter (seed 001, rule prefix WOA): the ``worlds-of-adventure`` ruleset.

Part 1 of 3 is being built area by area; :meth:`WorldsOfAdventure.compose` is the table of what differs from the
core (Pathfinder Beginner's components, played on its 5-ft grid geometry with WOA's own costs, rules-diff §2.4):

- the combat cycle (WOA-CYCLE, WOA-INIT): everyone declares, then initiative is re-rolled every round (d20 + the
  universal Reflex bonus; −20 flat-footed; ties by modifier, then random); declarations held to; invalidated
  declarations ruled; delay after a named creature; refocus (:mod:`.cycle`)
- awareness (WOA-CYCLE-01/06..08): no surprise round; the surprised are flat-footed until they act
  (:mod:`.awareness`)
- defense (WOA-CYCLE-11): flat-footed alone does not cost Dex to AC (an unexpected attack does)
- the action economy (WOA-ACT): swift and immediate actions use combat reactions, restricted activity, Table:
  Actions in Combat (``data/woa_actions.yaml``) (:mod:`.economy`, :mod:`.actions`)
- movement (WOA-MOVE): the short step as far as the reach, running, postures and crawling (:mod:`.movement`,
  :mod:`.run`, :mod:`.postures`)
- saving throws (WOA-STAT-75..83): superior success and catastrophic failure, and their half-damage rule
  (:mod:`.saves`)

Every AMBIGUOUS or MISSING point with a proposed reading is an option of :class:`WoaOptions`, with that reading
as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import ActionSet, ArmorClass
from d20combat.rulesets.components.action_groups import ActionGroups
from d20combat.rulesets.worlds_of_adventure.actions import WoaActions
from d20combat.rulesets.worlds_of_adventure.awareness import Awareness
from d20combat.rulesets.worlds_of_adventure.cycle import FLAT_FOOTED, WoaRoundCycle
from d20combat.rulesets.worlds_of_adventure.economy import WoaEconomy
from d20combat.rulesets.worlds_of_adventure.move_actions import WoaMoveActions
from d20combat.rulesets.worlds_of_adventure.movement import WoaMovement
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.saves import WoaSaves
from d20combat.rulesets.worlds_of_adventure.special_initiative import REFOCUS, Refocus


class WoaArmorClass(ArmorClass):
    """WOA-CYCLE-11 (AMBIGUOUS): only an attack the defender is not expecting costs its Dex, shield and dodge
    bonuses; being flat-footed alone does not (``woa_flat_footed_loses_dex`` reads it the other way)."""

    def __init__(self, *, flat_footed_loses_dex: bool = False) -> None:
        super().__init__(flat_footed_loses_dodge=True)
        self.flat_footed_loses_dex = flat_footed_loses_dex

    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        if state.has(FLAT_FOOTED):
            return self.flat_footed_loses_dex
        return surprised or state.has("paralyzed")


class WorldsOfAdventure(Ruleset):
    id = "worlds-of-adventure"
    title = "Worlds of Adventure"
    Options = WoaOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: WoaOptions = options
        return Policies(
            turn_order=WoaRoundCycle(o),             # WOA-CYCLE, WOA-INIT: declare, then roll, every round
            surprise=Awareness(),                     # WOA-CYCLE-01/06/07: no surprise round
            saves=WoaSaves(),                         # WOA-STAT-75..83: superior success, catastrophic failure
            defense=WoaArmorClass(flat_footed_loses_dex=o.woa_flat_footed_loses_dex),  # WOA-CYCLE-11
            economy=WoaEconomy(max_free_actions=o.woa_free_action_limit),  # WOA-ACT: swift = a reaction
            movement=WoaMovement(),                   # WOA-MOVE: short step = reach
            actions=ActionGroups(
                ActionSet(own=[REFOCUS]),            # WOA-INIT-26
                WoaActions(),                        # WOA-ACT: activities, swift/immediate, speak, start/complete
                WoaMoveActions(),                    # WOA-MOVE: short step, run, postures, crawl
            ),
        )


__all__ = ["Refocus", "WoaOptions", "WorldsOfAdventure"]
