"""Epic Path's attacks of opportunity (EP-AOO): the shared threatened-square attack of opportunity with what Epic
Path adds — who may make one while flat-footed, and what no creature in total defense may do."""

from __future__ import annotations

from collections.abc import Callable

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import View
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO

TOTAL_DEFENSE = "total defense"
"""The name of total defense's effect (EP-DEF-13)."""


class EpAttacksOfOpportunity(ThreatenedSquareAoO):
    """EP-AOO-01..19: a creature threatens the squares its melee weapon in hand reaches (EP-AOO-01..04); leaving
    one by a move, a charge or the 5 ft of impeded movement provokes (EP-AOO-06, EP-MOVE-06/18), a 5-foot step
    does not (EP-AOO-07), moving into one never does (EP-AOO-08); one attack of opportunity a round
    (EP-AOO-12), each enemy at most one per provoking action (EP-AOO-10/11, the walk's ledger), a single melee
    attack at the highest bonus (EP-AOO-14/17) that stops the action only if the provoker can no longer act
    (EP-AOO-15/16).

    Epic Path adds: a flat-footed creature makes none unless it has Combat Reflexes (EP-AOO-18) or uncanny dodge
    (EP-AOO-19, EP-COND-03: it is never caught flat-footed), a creature in total defense makes none
    (EP-DEF-17), and none is made against an opponent with cover (EP-COV-06) or total concealment (EP-CONC-10)."""

    def __init__(self, *, may_react: Callable[[Creature, CombatantState], bool] | None = None) -> None:
        super().__init__(per_round=1, provoking_moves=("move", "charge", "wade"), may_react=may_react,
                         not_against_cover=True, not_against_total_concealment=True)  # EP-COV-06, EP-CONC-10

    @staticmethod
    def flat_footed_exempt(creature: Creature) -> str | None:
        """The feat that lets a flat-footed creature make attacks of opportunity (EP-AOO-18/19), if any."""
        for feat in ("combat reflexes", "uncanny dodge"):
            if creature.has_feat(feat) or creature.has_feat(feat.replace(" ", "-")):
                return feat
        return None

    def is_flat_footed(self, view: View, cid: str) -> bool:
        """Whether ``cid`` is flat-footed now, as the defense area says (surprised in the surprise round, or a
        state the conditions give it)."""
        state = view.state
        creature, cs = view.creature(cid), state.get(cid)
        surprised = state.surprise_round and cid in state.surprised
        return self.rules.defense.is_flat_footed(creature, cs, surprised=surprised) or cs.has("flat_footed") \
            or cs.has("flat-footed")

    def can_react(self, creature: Creature, state: CombatantState) -> bool:
        """EP-DEF-17: no attacks at all, attacks of opportunity included, while in total defense."""
        return not any(e.name == TOTAL_DEFENSE for e in state.effects) and super().can_react(creature, state)

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        """EP-AOO-18/19: flat-footed, only with Combat Reflexes or uncanny dodge."""
        if self.is_flat_footed(view, reactor) and self.flat_footed_exempt(view.creature(reactor)) is None:
            return False
        return super().can_make_aoo(view, reactor, target)
