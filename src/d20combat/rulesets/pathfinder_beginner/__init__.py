"""Pathfinder Beginner Box combat (seed 002) — the baseline ruleset.

The core components *are* this text's rules; the composition below only sets their knobs from the named
variant options (:class:`PfbOptions`, one per AMBIGUOUS or MISSING point of PFB.md with a proposed reading).
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
    NoReactions,
    StandardMoveEconomy,
    StealthSurprise,
    StrongestConcealment,
    ThreatAndConfirm,
    TurnOrder,
)
from d20combat.rulesets.pathfinder_beginner.options import PfbOptions


class PathfinderBeginner(Ruleset):
    id = "pathfinder-beginner"
    title = "Pathfinder Beginner Box"
    Options = PfbOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: PfbOptions = options
        return Policies(
            stacking=core_stacking,                 # same type → highest; untyped, dodge, penalties add
            sheets=CoreSheets(),
            turn_order=TurnOrder(),                 # d20 + Dex (+4 Improved Initiative), roll-offs (PFB-INIT)
            surprise=StealthSurprise(),             # Stealth vs Perception, or the scenario says (PFB-SURP)
            conditions=NamedConditions(),           # no condition table
            saves=D20Saves(),                       # printed saves or ability; natural 1/20 on saves only (PFB-NAT)
            economy=StandardMoveEconomy(            # standard, move, free; standard as move (PFB-ACT, SURP-05)
                max_free_actions=o.max_free_actions, surprise_free_actions=o.pfb_surprise_free_actions),
            movement=GridMovement(                  # 5/10 diagonals, 5-foot step (PFB-MOVE)
                difficult_diagonal_counts=not o.pfb_difficult_diagonal_skips_count,
                step_uses_free_action=o.pfb_step_uses_free_action,
                move_draw_uses_free_action=o.pfb_move_draw_uses_free_action),
            attack=D20Attack(                       # −4 into melee, 10 ft clearance for ranged (PFB-ATK)
                into_melee_ignores_helpless_allies=o.pfb_into_melee_ignores_helpless_allies,
                ranged_min_range_ignores_helpless=o.pfb_ranged_min_range_ignores_helpless),
            defense=ArmorClass(                     # AC, touch, flat-footed (PFB-AC)
                flat_footed_loses_dodge=o.pfb_flat_footed_loses_dodge,
                touch_keeps_natural_armor=o.pfb_touch_keeps_natural_armor),
            active_defense=NoActiveDefense(),
            criticals=ThreatAndConfirm(),           # threat, confirm, multiply (PFB-CRIT)
            damage=HitPointDamage(),                # dice + Str, minimum 1 (PFB-DMG)
            injury=HitPoints(dying_procedure=o.pfb_dying),  # 0 disabled, −1 dying, −Con dead (PFB-HP)
            cover=CornerCover(                      # +4 by corner-to-corner lines (PFB-COV)
                any_line_everywhere=o.pfb_cover_any_line_everywhere,
                reach_ranged_only_nonadjacent=o.pfb_reach_ranged_cover_only_nonadjacent,
                partial_cover=o.pfb_partial_cover,
                adjacent_melee_ignores_creatures=o.pfb_adjacent_melee_ignores_creatures),
            concealment=StrongestConcealment(),     # strongest source, d% before the roll (PFB-CONC)
            reactions=NoReactions(),                # no attacks of opportunity (PFB-RND-02)
            actions=ActionSet(),
            tactics=CoreTactics(),
        )


__all__ = ["PathfinderBeginner", "PfbOptions"]
