"""Combat Modifiers variant (seed 003, rule prefix CMV): the ``off-guard`` ruleset.

CMV is one chapter written on top of a Pathfinder-style core, so everything it does not say is
PFB's rule (initiative, the action budget, movement, criticals, damage: the core components). What it
swaps, each policy small — :meth:`OffGuard.compose` is the table:

- situational modifiers (CMV-SIT): higher ground +1, flanking +2 in melee, squeezing −4 attack /
  −4 AC, prone −4 AC against melee and +4 against ranged, −4 on its own melee attacks
- off-guard instead of flat-footed (CMV-COND-37..41): −2 AC *and* no Dex bonus, no reactions; the
  surprised are off-guard until their first turn, and so is anyone attacked by a foe it cannot see
- cover (CMV-COV): the attacker's best corner of any of its squares, a big target's best square in
  melee, soft cover from creatures against ranged and reach attacks, low obstacles only within
  30 ft, improved cover +8 on GM-graded squares, narrow openings only for long piercing weapons
- concealment (CMV-CONC): the sources add up, to at most 50 %, and the defender rolls d% after a hit
- reaction attacks are Epic Path's attacks of opportunity (leaving a threatened square, 1 a round);
  never by an off-guard creature, never against cover or total concealment
- helpless (CMV-HELP): Dex counts −5, −4 against melee; coup de grace (CMV-CDG): a full round,
  +4 to hit, then a death save DC 10 + damage
- health counts damage *taken* against a fixed hp (CMV-INJ): bloodied at half, staggered at hp,
  a death save when the damage passes hp, dying, stable, dead
- saves and checks (CMV-COND-12/24/38, CMV-COV-09, CMV-CDG-07): PFB's natural 1 and 20 on saves, the table's
  penalties, off-guard's lost Dex on Reflex, cover on Reflex, the death save d20 + Con
- the 24 conditions (CMV-COND) are the table in ``data/cmv_conditions.yaml``; the procedures
  (death saves, fear saves, escaping, flanking, cornering) are the components' code

Every AMBIGUOUS or MISSING point of CMV.md with a proposed reading is an option of
:class:`OffGuardOptions`, with that reading as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.numbers import core_stacking
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import CoreSheets, NoReactions, StealthSurprise, ThreatAndConfirm
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.off_guard.action_set import CmvActions
from d20combat.rulesets.off_guard.actions import (
    BlindMove,
    CastSpell,
    CoupDeGrace,
    Escape,
    GmAttack,
    Guide,
)
from d20combat.rulesets.off_guard.active_defense import VerbalComponentFumble
from d20combat.rulesets.off_guard.attack import SituationalModifiers
from d20combat.rulesets.off_guard.concealment import StackingConcealment
from d20combat.rulesets.off_guard.conditions import (
    CATEGORIES,
    CmvAllowance,
    CmvCover,
    ConditionTable,
    cmv_data,
    damage_taken,
    long_piercing,
    parse_condition,
    reflex_damage,
    stored_conditions,
    wound_points,
)
from d20combat.rulesets.off_guard.coup_de_grace import CoupDeGraceRules
from d20combat.rulesets.off_guard.cover import SoftAndImprovedCover
from d20combat.rulesets.off_guard.damage import FatiguedStrength
from d20combat.rulesets.off_guard.defense import OffGuardDefense
from d20combat.rulesets.off_guard.economy import MinorMajorEconomy
from d20combat.rulesets.off_guard.fear import Fear
from d20combat.rulesets.off_guard.injury import DamageTaken
from d20combat.rulesets.off_guard.movement import HalfSpeedUnlessAided
from d20combat.rulesets.off_guard.options import OffGuardOptions
from d20combat.rulesets.off_guard.saves import TableSaves
from d20combat.rulesets.off_guard.tactics import CmvTactics
from d20combat.rulesets.off_guard.turn_order import InitiativeCheckPenalties


class OffGuard(Ruleset):
    id = "off-guard"
    title = "Combat Modifiers variant (off-guard)"
    Options = OffGuardOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: OffGuardOptions = options
        table = ConditionTable(o)                 # the 24 conditions (data/cmv_conditions.yaml), read by every area
        fear = Fear(table, o)                     # the source of terror, cornered, the save (CMV-COND-22..31)
        reaction_attacks = ThreatenedSquareAoO(   # CMV-COV-08: a "reaction attack" is EP's attack of opportunity
            per_round=1, provoking_moves=("move", "charge"), may_react=table.can_react,    # CMV-COND-39
            not_against_cover=True, not_against_total_concealment=True)                    # CMV-CONC-16
        aoo = reaction_attacks if o.cmv_reaction_attack_rules == "ep" else None
        economy = MinorMajorEconomy(table, aoo, o)
        movement = HalfSpeedUnlessAided(table, charge_ac_from_start=o.cmv_charge_ac_from_start)
        injury = DamageTaken(table, fear, o)
        return Policies(
            stacking=core_stacking,                         # untyped situational modifiers add (CMV-SIT-03)
            sheets=CoreSheets(),                            # PFB's stat blocks
            turn_order=InitiativeCheckPenalties(table),     # deafened −4, bloodied −1, shaken −2 (CMV-COND-07)
            surprise=StealthSurprise(),                     # PFB's; the surprised are off-guard (CMV-COND-40)
            conditions=table,                               # the condition table (CMV-COND, CMV-INJ-01)
            saves=TableSaves(table, o),                     # the table's numbers on saves and checks; death saves
            economy=economy,                                # minor/major; dazed, debilitated, staggered, held
            movement=movement,                              # fatigued −5 ft; blind, staggered: half speed
            attack=SituationalModifiers(table, fear, o),    # higher ground, flanking, squeezing, prone (CMV-SIT)
            defense=OffGuardDefense(table, o),              # off-guard −2, no Dex; helpless (CMV-COND-37, HELP)
            active_defense=VerbalComponentFumble(table, o), # a deafened caster's spell fumbles (CMV-COND-08)
            criticals=ThreatAndConfirm(),                   # PFB's threat and confirmation
            damage=FatiguedStrength(table),                 # PFB's, with fatigue's lower Str (CMV-COND-17)
            injury=injury,                                  # damage taken, bloodied, death saves (CMV-INJ)
            cover=SoftAndImprovedCover(o),                  # best corner, soft, low, improved cover (CMV-COV)
            concealment=StackingConcealment(o),             # stacks to 50 %, rolled after a hit (CMV-CONC)
            reactions=aoo or NoReactions(),                 # EP's AoO, not vs cover or total concealment
            actions=CmvActions(table, fear, economy, movement, CoupDeGraceRules(injury, o), o),  # CMV-CDG, escape…
            tactics=CmvTactics(table, fear),                # flee when afraid, coup de grace the helpless
        )


__all__ = [
    "CATEGORIES",
    "BlindMove",
    "CastSpell",
    "CmvAllowance",
    "CmvCover",
    "CoupDeGrace",
    "Escape",
    "GmAttack",
    "Guide",
    "OffGuard",
    "OffGuardOptions",
    "cmv_data",
    "damage_taken",
    "long_piercing",
    "parse_condition",
    "reflex_damage",
    "stored_conditions",
    "wound_points",
]
