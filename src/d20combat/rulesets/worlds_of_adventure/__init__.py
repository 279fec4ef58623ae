"""Worlds of Adventure's combat chapter (seed 001, rule prefix WOA): the ``worlds-of-adventure`` ruleset.

Part 1 of 3 is being built area by area; :meth:`WorldsOfAdventure.compose` is the table of what differs from the
core (Pathfinder Beginner's components, played on its 5-ft grid geometry with WOA's own costs, rules-diff §2.4):

- the combat cycle (WOA-CYCLE, WOA-INIT): everyone declares, then initiative is re-rolled every round (d20 + the
  universal Reflex bonus; −20 flat-footed; ties by modifier, then random); declarations held to; invalidated
  declarations ruled; delay after a named creature; refocus (:mod:`.cycle`)
- awareness (WOA-CYCLE-01/06..08): no surprise round; the surprised are flat-footed until they act
  (:mod:`.awareness`)
- defense (WOA-CYCLE-11, WOA-STAT-32..48): flat-footed alone does not cost Dex to AC (an unexpected attack does);
  armor and natural armor do not stack; touch AC keeps the shield; armor caps Dex (:mod:`.defense`)
- attacks (WOA-STAT-01..19, WOA-ATK): the relative ranged size modifier, −2 per full range increment
  (:mod:`.attack`); beating AC by 20 threatens, confirmation against the crit-confirmation AC (:mod:`.criticals`);
  WOA's Strength to damage and damage reduction after multipliers (:mod:`.damage`); speed by race (:mod:`.sheets`)
- saving throws (WOA-STAT-75..83): superior success and catastrophic failure, and their half-damage rule
  (:mod:`.saves`)

Every AMBIGUOUS or MISSING point with a proposed reading is an option of :class:`WoaOptions`, with that reading
as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import ActionSet
from d20combat.rulesets.worlds_of_adventure.attack import FULL_ATTACK, WoaAttack
from d20combat.rulesets.worlds_of_adventure.awareness import Awareness
from d20combat.rulesets.worlds_of_adventure.criticals import WoaCriticals
from d20combat.rulesets.worlds_of_adventure.cycle import WoaRoundCycle
from d20combat.rulesets.worlds_of_adventure.damage import WoaDamage
from d20combat.rulesets.worlds_of_adventure.defense import WoaArmorClass
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.saves import WoaSaves
from d20combat.rulesets.worlds_of_adventure.sheets import WoaSheets
from d20combat.rulesets.worlds_of_adventure.special_initiative import REFOCUS, Refocus


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
            defense=WoaArmorClass(flat_footed_loses_dex=o.woa_flat_footed_loses_dex,  # WOA-CYCLE-11
                                  touch_drops_armor_enhancement=o.woa_touch_drops_armor_enhancement),  # WOA-STAT-32..48
            attack=WoaAttack(iterative_penalty=o.woa_iterative_penalty,  # WOA-STAT-01..19, WOA-ATK
                             last_increment=o.woa_range_last_increment),
            criticals=WoaCriticals(),                 # WOA-STAT-05/06/41: beating AC by 20 threatens
            damage=WoaDamage(bow_bonus=o.woa_bow_strength == "modifier",  # WOA-STAT-20..31
                             off_hand_penalty_halved=o.woa_off_hand_penalty_halved),
            sheets=WoaSheets(),                       # WOA-STAT-54..57: speed by race
            actions=ActionSet(own=[
                REFOCUS,                               # WOA-INIT-26
                FULL_ATTACK,                           # WOA-ATK-02/08: two attacks from BAB +6
            ]),
        )


__all__ = ["Refocus", "WoaOptions", "WorldsOfAdventure"]
