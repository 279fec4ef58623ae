"""Worlds of Adventure's combat chapter (seed 001, rule prefix WOA): the ``worlds-of-adventure`` ruleset.

Part 1 of 3 is being built area by area; :meth:`WorldsOfAdventure.compose` is the table of what differs from the
core (Pathfinder Beginner's components, played on its 5-ft grid geometry with WOA's own costs, rules-diff §2.4):

- the combat cycle (WOA-CYCLE, WOA-INIT): everyone declares, then initiative is re-rolled every round (d20 + the
  universal Reflex bonus; −20 flat-footed; ties by modifier, then random); declarations held to; invalidated
  declarations ruled; delay after a named creature; refocus (:mod:`.cycle`)
- awareness (WOA-CYCLE-01/06..08): no surprise round; the surprised are flat-footed until they act
  (:mod:`.awareness`)
- defense (WOA-CYCLE-11): flat-footed alone does not cost Dex to AC (an unexpected attack does)
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

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, Total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rules.damage import DamageRoll
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import ActionSet, ArmorClass, HitPointDamage
from d20combat.rulesets.components.action_groups import ActionGroups
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.worlds_of_adventure.actions import WoaActions
from d20combat.rulesets.worlds_of_adventure.active_defense import WoaActiveDefense, block_reduction, situational_ac
from d20combat.rulesets.worlds_of_adventure.awareness import Awareness
from d20combat.rulesets.worlds_of_adventure.block import block_text, mitigate_other
from d20combat.rulesets.worlds_of_adventure.charge import WoaCharge
from d20combat.rulesets.worlds_of_adventure.cycle import FLAT_FOOTED, WoaRoundCycle
from d20combat.rulesets.worlds_of_adventure.disengage import DISENGAGE
from d20combat.rulesets.worlds_of_adventure.economy import WoaEconomy
from d20combat.rulesets.worlds_of_adventure.feint import WoaFeint
from d20combat.rulesets.worlds_of_adventure.items import WoaItems
from d20combat.rulesets.worlds_of_adventure.move_actions import WoaMoveActions
from d20combat.rulesets.worlds_of_adventure.movement import WoaMovement
from d20combat.rulesets.worlds_of_adventure.opportunity import WoaAttacksOfOpportunity
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.ready import WoaReady
from d20combat.rulesets.worlds_of_adventure.saves import WoaSaves
from d20combat.rulesets.worlds_of_adventure.special_initiative import REFOCUS, Refocus
from d20combat.rulesets.worlds_of_adventure.spells import WoaSpells
from d20combat.rulesets.worlds_of_adventure.tactics import WoaTactics
from d20combat.rulesets.worlds_of_adventure.total_defense import WoaTotalDefense
from d20combat.rulesets.worlds_of_adventure.two_weapons import WoaTwoWeapons


class WoaArmorClass(ArmorClass):
    """WOA-CYCLE-11 (AMBIGUOUS): only an attack the defender is not expecting costs its Dex, shield and dodge
    bonuses; being flat-footed alone does not (``woa_flat_footed_loses_dex`` reads it the other way)."""

    def __init__(self, *, flat_footed_loses_dex: bool = False) -> None:
        super().__init__(flat_footed_loses_dodge=True)
        self.flat_footed_loses_dex = flat_footed_loses_dex

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        return super().total(creature, state, ctx, [*extra, *situational_ac(view, attack)], view, attack)  # REACT

    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        if state.has(FLAT_FOOTED):
            return self.flat_footed_loses_dex
        return surprised or state.has("paralyzed")


class WoaDamage(HitPointDamage):
    """Damage less the damage reduction against this one attack (WOA-REACT-22/23: a block's DR), then the highest
    other DR (WOA-REACT-24)."""

    def reduction(self, view: View, attack: AttackInfo) -> tuple[int, str] | None:
        block = block_reduction(view, attack)
        return (block[0], block_text(block, view.creature(attack.target))) if block is not None else None

    def roll(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
             precision_d6: int, minimum: int, strength: int) -> DamageRoll:
        rolled = super().roll(view, attack, creature, critical=critical, multiplier=multiplier,
                              precision_d6=precision_d6, minimum=minimum, strength=strength)
        reduced = self.reduction(view, attack)
        if reduced is None:
            return rolled
        dr, why = reduced
        left = max(rolled.total - dr, 0)
        return replace(rolled, total=left, explanation=f"{left} = {rolled.explanation.partition(' = ')[2]} − {why}")

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        return mitigate_other(creature, amount)


class WorldsOfAdventure(Ruleset):
    id = "worlds-of-adventure"
    title = "Worlds of Adventure"
    Options = WoaOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: WoaOptions = options
        spells = WoaSpells(o)                         # WOA-SPELL: casting, timing, concentration, touch spells
        aoo = WoaAttacksOfOpportunity()              # WOA-AOO, WOA-REACT-02: attacks of opportunity, the budget
        return Policies(
            turn_order=WoaRoundCycle(o),             # WOA-CYCLE, WOA-INIT: declare, then roll, every round
            surprise=Awareness(),                     # WOA-CYCLE-01/06/07: no surprise round
            saves=WoaSaves(),                         # WOA-STAT-75..83: superior success, catastrophic failure
            defense=WoaArmorClass(flat_footed_loses_dex=o.woa_flat_footed_loses_dex),  # WOA-CYCLE-11
            actions=ActionGroups(
                ActionSet(own=[REFOCUS,              # WOA-INIT-26
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
                                            dodge_feat_value=o.woa_dodge_feat_value),
            damage=WoaDamage(),                      # WOA-REACT-22/23: the block's DR
            economy=WoaEconomy(max_free_actions=o.woa_free_action_limit),  # WOA-ACT: swift = a reaction; the
                                                      # reactions' budget refreshed every round (WOA-REACT-02)
            movement=WoaMovement(),                   # WOA-MOVE: short step = reach
        )


__all__ = ["Refocus", "WoaOptions", "WorldsOfAdventure"]
