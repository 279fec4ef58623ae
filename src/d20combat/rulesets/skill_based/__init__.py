"""A skill-based d20 variant (seed 004, ``SKL.md``): weapon skills instead of a base attack bonus, armor off the
damage instead of on the target number, and complex actions held in reserve for active defense.

What this ruleset swaps, each policy small:

- turn order: d20 + Dex modifier (``skl_init_agility_score``: + the Agility score), once, PFB roll-offs (SKL-INIT)
- budget per *round*: 1 complex, 1 basic, unlimited free actions, talent and bonus actions; the core's
  standard/move/full-round costs map to complex/basic/both; no conversion (SKL-ACT)
- reserve: every complex action is held until the creature's turn; on its turn :class:`Reserve` keeps some
  held; held actions serve only block, dodge and counterspell; they lapse at the end of the round (SKL-RES)
- attack: d20 + weapon skill + Str (melee) / Dex (ranged) ≥ Passive Defense 10 + Dex; a natural 20 counts
  as 30, a natural 1 as −10; no automatic results, no threats (SKL-ATK, SKL-DEF-01)
- active defense after the roll: block (d20 + weapon skill + Str) or dodge (d20 + Defense + Dex) ≥ the attack
  total negates it; −6 with a ranged weapon in melee; none against a successful feinter (SKL-DEF, SKL-RNG)
- critical attack: −1..−5 declared for as much extra damage per weapon factor (SKL-CRIT)
- damage: dice + Str − armor rating, floored at 0 (SKL-DMG)
- :class:`Feint`, :class:`CastSpell` with the counterspell window (SKL-FEINT, SKL-CSPL)
- two-weapon fighting: a mode (:class:`TwoWeaponFighting`) with a bonus complex action for the off hand
  (:class:`BonusAttack` or an off-hand block) and the penalty table as data (SKL-TWF)
- attacks of opportunity: threatened squares (a reach weapon's ring at 10 ft, diagonals included), leaving
  one or eight distracting acts provoke, one per round, free, at the normal bonus (SKL-AOO)

What the text does not say is PFB's rule: the surprise round, the grid and its diagonals (SKL-AOO-09), hit
points and dying (``skl_health``); charge, cover, concealment and the 5-foot step are absent unless their
variant options bring PFB's back.

Every AMBIGUOUS or MISSING point of SKL.md with a proposed reading is a named option of
:class:`SkillBasedOptions`, its default being the proposal.
"""

from __future__ import annotations

from typing import Any

from d20combat.numbers import core_stacking
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import (
    CornerCover,
    GridMovement,
    HitPoints,
    NamedConditions,
    StealthSurprise,
    StrongestConcealment,
)
from d20combat.rulesets.skill_based.action_set import SkillActions
from d20combat.rulesets.skill_based.actions import (
    BonusAttack,
    CastSpell,
    Feint,
    Reserve,
    TwoWeaponFighting,
)
from d20combat.rulesets.skill_based.active_defense import BlockAndDodge
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack
from d20combat.rulesets.skill_based.concealment import NoConcealment
from d20combat.rulesets.skill_based.cover import NoCover
from d20combat.rulesets.skill_based.criticals import DeclaredCriticalAttack
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.defense import PassiveDefense
from d20combat.rulesets.skill_based.economy import ComplexBasicEconomy
from d20combat.rulesets.skill_based.feint import Feinting
from d20combat.rulesets.skill_based.options import TWO_WEAPON, SkillBasedOptions
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.saves import SkillSaves
from d20combat.rulesets.skill_based.sheets import WeaponSkillSheets
from d20combat.rulesets.skill_based.skills import OffHand
from d20combat.rulesets.skill_based.spells import Counterspelling
from d20combat.rulesets.skill_based.tactics import SkillTactics
from d20combat.rulesets.skill_based.turn_order import DexInitiative
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons


class SkillBased(Ruleset):
    id = "skill-based"
    title = "Skill-based d20 variant"
    Options = SkillBasedOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: SkillBasedOptions = options
        # Shared by several areas, each naming what it asks of them.
        hands = TwoWeapons()                        # what each hand holds, the two-weapon table (SKL-TWF)
        criticals = DeclaredCriticalAttack(o.skl_crit_damage_table)
        damage = ArmorRatingDamage(ranged_no_str=o.skl_ranged_no_str, min_damage_1=o.skl_min_damage_1)
        reactions = SkillAttacksOfOpportunity(hands, unarmed_threatens=o.skl_unarmed_threatens)
        economy = ComplexBasicEconomy(hands, reactions, max_free_actions=o.skl_max_free_actions,
                                      complex_as_basic=o.skl_complex_as_basic, auto_reserve=o.skl_auto_reserve,
                                      surprise_limit=o.skl_surprise_limit)
        active_defense = BlockAndDodge(
            hands, reactions, damage, criticals, declare_before_roll=o.skl_declare_before_roll,
            block_needs_item=o.skl_block_needs_item, double_weapon_blocks=o.skl_double_weapon_blocks,
            ranged_block_breaks=o.skl_ranged_block_breaks)
        return Policies(
            stacking=core_stacking,                 # PFB's: the text names no bonus types
            sheets=WeaponSkillSheets(needs_agility=o.skl_init_agility_score),  # skill ratings, unarmed (SKL-ATK-08)
            turn_order=DexInitiative(agility_score=o.skl_init_agility_score),  # d20 + Dex, once (SKL-INIT)
            surprise=StealthSurprise(),             # PFB's surprise round: the text has none
            conditions=NamedConditions(),           # no condition table
            saves=SkillSaves(),                     # no saves in the text: skill checks, no natural 1/20 (SKL-CSPL-04)
            economy=economy,                        # complex, basic, free per round; the reserve (SKL-ACT, SKL-RES)
            movement=GridMovement(step_uses_free_action=True),  # PFB's grid (SKL-AOO-09); step only as a variant
            attack=WeaponSkillAttack(               # skill + Str/Dex, natural 20 = 30, 1 = −10 (SKL-ATK, SKL-AOO-08)
                hands, range_increments=o.skl_range_increments, reach_inclusive=o.skl_reach_inclusive),
            defense=PassiveDefense(helpless_defense=o.skl_helpless_defense),  # 10 + Dex; no armor (SKL-DEF-01)
            active_defense=active_defense,          # block or dodge from reserve after the roll (SKL-DEF, SKL-RNG)
            criticals=criticals,                    # no threats; −1..−5 declared for damage (SKL-CRIT)
            damage=damage,                          # dice + Str − armor rating, floor 0 (SKL-DMG)
            injury=HitPoints(dying_procedure=o.skl_health),  # PFB's hit points (SKL-DMG-04 MISSING)
            cover=CornerCover() if o.skl_cover else NoCover(),  # none (rules-diff P17) unless skl_cover
            concealment=StrongestConcealment() if o.skl_concealment else NoConcealment(),  # none unless skl_concealment
            reactions=reactions,                    # threatened squares, one free AoO a round (SKL-AOO)
            actions=SkillActions(                   # reserve, feint, cast, two-weapon mode, bonus attack; no charge
                economy, hands, Feinting(reactions, tie_succeeds=o.skl_feint_tie_succeeds,
                                         opening_rounds=o.skl_feint_opening_rounds),
                Counterspelling(tie_counters=o.skl_counterspell_tie_counters),
                charge=o.skl_charge, pf_actions=o.skl_pf_actions),
            tactics=SkillTactics(hands, reactions, active_defense, damage, criticals),  # reserve, feint, crits
        )


__all__ = [
    "TWO_WEAPON",
    "BonusAttack",
    "CastSpell",
    "Feint",
    "OffHand",
    "Reserve",
    "SkillBased",
    "SkillBasedOptions",
    "TwoWeaponFighting",
]
