"""Epic Path's combat chapter (seed 000, rule prefix EP): the ``epic-path`` ruleset.

Epic Path is a Pathfinder-1e-derived text, so where it agrees with the Beginner Box it reuses the core
components; what it changes is one component per policy area — :meth:`EpicPath.compose` is the table:

- attacks of opportunity from threatened squares (EP-AOO): one a round, from each enemy at most one per
  provoking action, by leaving a threatened square (a move, a charge or impeded movement; never a 5-foot step);
  none while flat-footed without Combat Reflexes or uncanny dodge, none after a full-round action (EP-ACT-05) or in
  total defense, none against cover or total concealment (EP-COV-06, EP-CONC-10)
- movement (EP-MOVE): the charge up to speed that ends the turn; impeded terrain (a full round for 5 ft)
- actions: the severable full attack, fighting defensively, total defense, impeded movement, stances, combat
  maneuvers, splash weapons; aid another and the coup de grace; assist, spot and grope
- attack and damage (docs/epic-path/attack-and-damage.md): no minimum range, size modifiers, weapon qualities next
  to blocked terrain (EP-ATK); additive critical multipliers (EP-CRIT); averaged and brutal dice, lance and brace
  (EP-DMG); uncanny dodge (EP-AC); off-guard's cover with partial cover (EP-COV); cover on Reflex (EP-SAVE)
- concealment (EP-CONC): the strongest source only, its d% after a hit; senses that ignore it; invisibility
  (+2, flat-footed AC, no precision damage, pinpointing per observer); faded creatures (a Will save a round)
- states (EP-COND): flat-footed until the first turn; incorporeal, nebulous, phased, ethereal — who can
  attack whom and the halved damage
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
    ActionSpec,
    NoActiveDefense,
)
from d20combat.rulesets.components.action_groups import ActionGroups
from d20combat.rulesets.epic_path.actions import EpActions
from d20combat.rulesets.epic_path.ambush import AmbushSurprise
from d20combat.rulesets.epic_path.assist import ASSIST, Assist, ep_stacking
from d20combat.rulesets.epic_path.attack import EpAttack
from d20combat.rulesets.epic_path.cover import EpCover, EpSaves
from d20combat.rulesets.epic_path.criticals import AdditiveCriticals
from d20combat.rulesets.epic_path.damage import EpDamage
from d20combat.rulesets.epic_path.defense import EpArmorClass
from d20combat.rulesets.epic_path.economy import EpEconomy, may_react
from d20combat.rulesets.epic_path.effects import SaveEffects, UseEffect
from d20combat.rulesets.epic_path.hiding import Hide, do_hide
from d20combat.rulesets.epic_path.incorporeal import IncorporealMovement, PhaseMove
from d20combat.rulesets.epic_path.initiative import EpInitiative
from d20combat.rulesets.epic_path.injury import DefeatedAtZero
from d20combat.rulesets.epic_path.invisibility import GROPE, SPOT, Grope, Spot
from d20combat.rulesets.epic_path.invisibility import EpActions as SeeingActions
from d20combat.rulesets.epic_path.movement import EpMovement
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.reactions import EpAttacksOfOpportunity
from d20combat.rulesets.epic_path.seeing import EpConcealment
from d20combat.rulesets.epic_path.senses import EpSheets
from d20combat.rulesets.epic_path.states import EpStates
from d20combat.rulesets.epic_path.strikes import EpStrikes
from d20combat.rulesets.epic_path.tactics import EpTactics
from d20combat.rulesets.epic_path.turn_actions import TIME_AND_TURN_ACTIONS, fire_readied


class EpicPath(Ruleset):
    id = "epic-path"
    title = "Epic Path"
    Options = EpOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: EpOptions = options
        aoo = EpAttacksOfOpportunity(               # EP-AOO: leaving a threatened square, 1 a round; flat-footed
            may_react=may_react)                    # EP-ACT-05: none after a full-round action
        return Policies(
            stacking=ep_stacking if o.ep_circumstance_stacks else core_stacking,  # EP-MISC-11
            sheets=EpSheets(),                       # senses named in data/ep_senses.yaml (EP-CONC-12)
            turn_order=EpInitiative(tie_d20=o.init_tie_d20, max_rounds=o.max_encounter_rounds,  # EP-INIT, EP-TIME
                                    surprise_round_counts=o.surprise_round_counts_for_reset,
                                    flat_footed_after_reset=o.flat_footed_after_reset,
                                    before_turn=fire_readied,                   # EP-ACT-57: readied actions
                                    ambusher_spot_mode=o.ambusher_spot_mode,    # EP-SURP-28
                                    hold_tie_break=o.ep_hold_tie_in_later_rounds == "tie_break"),  # EP-ACT-51
            surprise=AmbushSurprise(spot_step=o.spot_check_step),                # EP-SURP: the ambush check
            conditions=EpStates(o),                  # EP-COND: flat-footed, incorporeal, nebulous, phased, faded
            saves=EpSaves(natural_saves=o.ep_save_naturals == "auto"),  # EP-SAVE-01..03, EP-COV-07
            economy=EpEconomy(max_free_actions=o.max_free_actions, aoo=aoo,      # EP-ACT: swift, immediate, locks
                              surprise_may_degrade=o.surprise_standard_may_degrade),
            movement=EpMovement(),                  # EP-MOVE-16/23: charge up to speed, ends the turn
            attack=EpAttack(),                                               # EP-ATK
            defense=EpArmorClass(touch_magic_armor=o.ep_touch_ac_armor == "magic_enhancement"),  # EP-AC, EP-AC-04
            active_defense=NoActiveDefense(),
            criticals=AdditiveCriticals(),                                   # EP-CRIT
            damage=EpDamage(average=o.ep_average_damage, brutal_roll=o.ep_brutal_roll),  # EP-DMG
            injury=DefeatedAtZero(defeated=o.ep_defeated),                  # EP-DMG-04
            cover=EpCover(partial_cover=o.ep_partial_cover,                  # EP-COV
                          soft_cover_vs_reach=o.ep_soft_cover_vs_reach),
            concealment=EpConcealment(o),            # EP-CONC: strongest only, after a hit, senses, invisibility
            reactions=aoo,
            actions=ActionGroups(
                ActionSet(own=TIME_AND_TURN_ACTIONS),  # swift, immediate, hold, ready, action points
                EpActions(o),                       # full attack, defensive fighting, impeded move, stances, splash
                EpStrikes(cdg_dc_before_resistance=o.ep_cdg_dc_before_resistance,  # EP-CDG, EP-MISC-01..05
                          movement_attack_at_guess=o.ep_movement_attack_at_guess == "can"),  # EP-ATK-23
                SeeingActions(o, own=[ASSIST, SPOT, GROPE,  # EP-MISC-06..14 assist; EP-CONC-21..26 spot, grope
                                      ActionSpec(PhaseMove, IncorporealMovement(o).move),  # EP-COND-16..22, 38
                                      ActionSpec(UseEffect, SaveEffects(o).use),  # EP-COND-14/34/35, EP-COV-08/18
                                      ActionSpec(Hide, do_hide)])),  # EP-COV-09/19: Stealth from cover
            tactics=EpTactics(),                    # action points, splash into groups, defensive when outmatched
        )


__all__ = ["Assist", "EpOptions", "EpicPath", "Grope", "Spot"]
