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
- combat reactions (WOA-REACT): a budget by BAB every round, spent on attacks of opportunity, dodge, block, aid
  defense and aid attack, asked before each attack roll (:mod:`.reactions`, :mod:`.active_defense`)
- attacks of opportunity (WOA-AOO): disengaging, ignoring a threat, standing up, unarmed against armed; the
  defensive disengage (:mod:`.opportunity`, :mod:`.disengage`)
- the action economy (WOA-ACT): swift and immediate actions use combat reactions, restricted activity, Table:
  Actions in Combat (``data/woa_actions.yaml``) (:mod:`.economy`, :mod:`.actions`)
- movement (WOA-MOVE): the short step as far as the reach, running, postures and crawling (:mod:`.movement`,
  :mod:`.run`, :mod:`.postures`)
- saving throws (WOA-STAT-75..83): superior success and catastrophic failure, and their half-damage rule
  (:mod:`.saves`)
- spells (WOA-SPELL): casting times, components, concentration, effects at the end of the turn or of the round,
  touch spells and the held charge (:mod:`.spells`, :mod:`.spell_timing`, ``data/woa_spells.yaml``)
- items (WOA-ITEM): drawing, shields, retrieving, potions, wands, scrolls, devices, with their costs (:mod:`.items`)

Every AMBIGUOUS or MISSING point with a proposed reading is an option of :class:`WoaOptions`, with that reading
as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import ActionSet
from d20combat.rulesets.components.action_groups import ActionGroups
from d20combat.rulesets.worlds_of_adventure.actions import WoaActions
from d20combat.rulesets.worlds_of_adventure.active_defense import WoaActiveDefense
from d20combat.rulesets.worlds_of_adventure.attack import FULL_ATTACK, WoaAttack
from d20combat.rulesets.worlds_of_adventure.awareness import Awareness
from d20combat.rulesets.worlds_of_adventure.charge import WoaCharge
from d20combat.rulesets.worlds_of_adventure.criticals import WoaCriticals
from d20combat.rulesets.worlds_of_adventure.cycle import WoaRoundCycle
from d20combat.rulesets.worlds_of_adventure.damage import WoaDamage
from d20combat.rulesets.worlds_of_adventure.defense import WoaArmorClass
from d20combat.rulesets.worlds_of_adventure.disengage import DISENGAGE
from d20combat.rulesets.worlds_of_adventure.economy import WoaEconomy
from d20combat.rulesets.worlds_of_adventure.feint import WoaFeint
from d20combat.rulesets.worlds_of_adventure.held_charge import WoaConditions
from d20combat.rulesets.worlds_of_adventure.items import WoaItems
from d20combat.rulesets.worlds_of_adventure.move_actions import WoaMoveActions
from d20combat.rulesets.worlds_of_adventure.movement import WoaMovement
from d20combat.rulesets.worlds_of_adventure.opportunity import WoaAttacksOfOpportunity
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.ready import WoaReady
from d20combat.rulesets.worlds_of_adventure.saves import WoaSaves
from d20combat.rulesets.worlds_of_adventure.sheets import WoaSheets
from d20combat.rulesets.worlds_of_adventure.special_initiative import REFOCUS, Refocus
from d20combat.rulesets.worlds_of_adventure.spells import WoaSpells
from d20combat.rulesets.worlds_of_adventure.tactics import WoaTactics
from d20combat.rulesets.worlds_of_adventure.total_defense import WoaTotalDefense
from d20combat.rulesets.worlds_of_adventure.two_weapons import WoaTwoWeapons


class WorldsOfAdventure(Ruleset):
    id = "worlds-of-adventure"
    title = "Worlds of Adventure"
    Options = WoaOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: WoaOptions = options
        spells = WoaSpells(o)                         # WOA-SPELL: casting, timing, concentration, touch spells
        aoo = WoaAttacksOfOpportunity(short_step_ignores_threat=o.woa_short_step_ignores_threat,  # WOA-AOO-11
                                      reactions_at_bab_0=o.woa_reactions_at_bab_0,  # WOA-AOO, WOA-REACT-02
                                      rise_one_aoo=o.woa_rise_one_aoo)  # WOA-MOVE-40
        return Policies(
            turn_order=WoaRoundCycle(o),             # WOA-CYCLE, WOA-INIT: declare, then roll, every round
            surprise=Awareness(),                     # WOA-CYCLE-01/06/07: no surprise round
            saves=WoaSaves(superior_quarter_of=o.woa_superior_quarter_of),  # WOA-STAT-75..83: superior success,
                                                      # catastrophic failure
            defense=WoaArmorClass(flat_footed_loses_dex=o.woa_flat_footed_loses_dex,  # WOA-CYCLE-11
                                  touch_drops_armor_enhancement=o.woa_touch_drops_armor_enhancement,  # WOA-STAT-32..48
                                  wind_stance_ft=o.woa_wind_stance_min_ft),  # WOA-AOO-24
            attack=WoaAttack(iterative_penalty=o.woa_iterative_penalty,  # WOA-STAT-01..19, WOA-ATK
                             last_increment=o.woa_range_last_increment),
            criticals=WoaCriticals(),                 # WOA-STAT-05/06/41: beating AC by 20 threatens
            damage=WoaDamage(bow_bonus=o.woa_bow_strength == "modifier",  # WOA-STAT-20..31; the block's DR
                             off_hand_penalty_halved=o.woa_off_hand_penalty_halved),  # (WOA-REACT-22..24)
            sheets=WoaSheets(),                       # WOA-STAT-54..57: speed by race
            actions=ActionGroups(
                ActionSet(own=[REFOCUS,              # WOA-INIT-26
                               FULL_ATTACK,          # WOA-ATK-02/08: two attacks from BAB +6 (W1)
                               DISENGAGE]),          # WOA-AOO-20..22: the defensive disengage (W3)
                WoaActions(),                        # WOA-ACT: activities, swift/immediate, speak, start/complete (W2)
                WoaMoveActions(),                    # WOA-MOVE: short step, run, postures, crawl (W2)
                WoaReady(check_on_miss=o.woa_ready_check_on_miss),  # WOA-INIT-06..20 (W5)
                WoaTotalDefense(),                   # WOA-DEF-01..05 (W5)
                WoaCharge(),                         # WOA-CHARGE-01..13 (W5)
                WoaFeint(),                          # WOA-FEINT-01..11 (W5)
                WoaTwoWeapons(shield_feats_stack=o.woa_shield_bash_feats_stack),  # WOA-TWF-01..11 (W5)
                spells,                               # WOA-SPELL-01..30 (W4)
                WoaItems(o, spells),                  # WOA-ITEM-01..33: item handling and its costs (W4)
            ),
            tactics=WoaTactics(),                     # the AI carries out a declared refocus (WOA-INIT-26)
            reactions=aoo,                           # WOA-AOO: disengaging, ignoring a threat, standing up…
            active_defense=WoaActiveDefense(aid_defense_against_reactions=o.woa_aid_defense_against_reactions,
                                            dodge_feat_value=o.woa_dodge_feat_value,
                                            block_round_up=o.woa_block_rounding == "up",  # WOA-REACT-22
                                            feint_bars_block=o.woa_feint_bars_block),  # WOA-FEINT-06
            economy=WoaEconomy(max_free_actions=o.woa_free_action_limit),  # WOA-ACT: swift = a reaction; the
                                                      # reactions' budget refreshed every round (WOA-REACT-02)
            movement=WoaMovement(),                   # WOA-MOVE: short step = reach
            conditions=WoaConditions(held_charge_touch_ac=o.woa_held_charge_touch_ac),  # WOA-SPELL-24's option
        )


__all__ = ["Refocus", "WoaOptions", "WorldsOfAdventure"]
