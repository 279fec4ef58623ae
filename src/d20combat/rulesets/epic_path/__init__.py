"""Epic Path's combat chapter (seed 000, rule prefix EP): the ``epic-path`` ruleset.

Epic Path is a Pathfinder-1e-derived text, so where it agrees with the Beginner Box it reuses the core
components; what it changes is one component per policy area — :meth:`EpicPath.compose` is the table:

- attacks of opportunity from threatened squares (EP-AOO): one a round, from each enemy at most one per
  provoking action, by leaving a threatened square (a move or a charge; never a 5-foot step)
- attack and damage (docs/epic-path/attack-and-damage.md): no minimum range, size modifiers, weapon qualities next
  to blocked terrain (EP-ATK); additive critical multipliers (EP-CRIT); averaged and brutal dice, lance and brace
  (EP-DMG); uncanny dodge (EP-AC); off-guard's cover with partial cover (EP-COV); cover on Reflex (EP-SAVE)

Every AMBIGUOUS or MISSING point of EP.md with a proposed reading is an option of :class:`EpOptions`, with
that reading as its default.
"""

from __future__ import annotations

from typing import Any

from d20combat.numbers import core_stacking
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import (
    CoreSheets,
    CoreTactics,
    GridMovement,
    NamedConditions,
    NoActiveDefense,
    StandardMoveEconomy,
    StealthSurprise,
    StrongestConcealment,
    TurnOrder,
)
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.epic_path.attack import EpAttack
from d20combat.rulesets.epic_path.cover import EpCover, EpSaves
from d20combat.rulesets.epic_path.criticals import AdditiveCriticals
from d20combat.rulesets.epic_path.damage import EpDamage
from d20combat.rulesets.epic_path.defense import EpArmorClass
from d20combat.rulesets.epic_path.injury import DefeatedAtZero
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.strikes import EpStrikes


class EpicPath(Ruleset):
    id = "epic-path"
    title = "Epic Path"
    Options = EpOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: EpOptions = options
        aoo = ThreatenedSquareAoO(                  # EP-AOO-06/08/12: leaving a threatened square, 1 a round
            per_round=1, provoking_moves=("move", "charge"),
            not_against_cover=True, not_against_total_concealment=True)  # EP-COV-06, EP-ATK-21/22
        return Policies(
            stacking=core_stacking,
            sheets=CoreSheets(),
            turn_order=TurnOrder(),
            surprise=StealthSurprise(),
            conditions=NamedConditions(),
            saves=EpSaves(natural_saves=o.ep_save_naturals == "auto"),  # EP-SAVE-01..03, EP-COV-07
            economy=StandardMoveEconomy(max_free_actions=o.max_free_actions, aoo=aoo),
            movement=GridMovement(),
            attack=EpAttack(),                                               # EP-ATK
            defense=EpArmorClass(),                                          # EP-AC
            active_defense=NoActiveDefense(),
            criticals=AdditiveCriticals(),                                   # EP-CRIT
            damage=EpDamage(average=o.ep_average_damage, brutal_roll=o.ep_brutal_roll),  # EP-DMG
            injury=DefeatedAtZero(defeated=o.ep_defeated),                  # EP-DMG-04
            cover=EpCover(partial_cover=o.ep_partial_cover,                  # EP-COV
                          soft_cover_vs_reach=o.ep_soft_cover_vs_reach),
            concealment=StrongestConcealment(),
            reactions=aoo,
            actions=EpStrikes(cdg_dc_before_resistance=o.ep_cdg_dc_before_resistance),  # EP-CDG, EP-MISC-01..05
            tactics=CoreTactics(),
        )


__all__ = ["EpOptions", "EpicPath"]
