"""A skill-based d20 variant (seed 004, ``SKL.md``): weapon skills instead of a base attack bonus, armor off
the damage instead of on the target number, and complex actions held in reserve for active defense.

What this module swaps, each policy small:

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

Every AMBIGUOUS or MISSING point of SKL.md with a proposed reading is a named option of
:class:`SkillBasedOptions`, its default being the proposal.
"""

from __future__ import annotations

from d20combat.rulesets.skill_based.actions import BonusAttack, CastSpell, Feint, Reserve, TwoWeaponFighting
from d20combat.rulesets.skill_based.options import TWO_WEAPON, SkillBasedOptions
from d20combat.rulesets.skill_based.ruleset import SkillBased
from d20combat.rulesets.skill_based.skills import OffHand

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
