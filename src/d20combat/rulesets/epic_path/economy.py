"""Epic Path's action economy (EP-ACT-01..06, EP-ACT-17..41, EP-SURP-18): a standard, a move and a swift action a
turn, converted only downwards; a full-round action that locks everything until the creature's next turn; one
immediate action a round from its own budget; action points kept from round to round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, TurnState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import BudgetError, StandardMoveEconomy, TurnAllowance, View
from d20combat.rulesets.epic_path.initiative import ACTION_POINTS, per_encounter_uses

if TYPE_CHECKING:
    from d20combat.rulesets.components.reactions import ThreatenedSquareAoO

FULL_ROUND_LOCK = "full-round action: no immediate actions or attacks of opportunity (EP-ACT-05)"
"""The effect on a creature that took a full-round action, until the start of its next turn (EP-ACT-03/05)."""

PART_OF_MOVE = "part_of_move"
"""A hidden turn pool: what a move action taken this turn may still carry "as part of" it (EP-ACT-27..29)."""

SURPRISE_CHARGE = "surprise_charge"
"""A hidden turn pool: the surprise round's single standard action set aside for a charge (seed L76: "Creatures may
use this standard action however they wish, though Charge actions are the most common tactic"; EP-SURP-21)."""

IMMEDIATE = "immediate"
"""The off-turn pool of immediate actions: one a round (EP-ACT-35)."""


def locked(state: CombatantState) -> bool:
    """EP-ACT-05: the creature took a full-round action and its next turn has not begun."""
    return any(e.name == FULL_ROUND_LOCK for e in state.effects)


def may_react(creature: Creature, state: CombatantState) -> bool:
    """EP-ACT-05: no attacks of opportunity after a full-round action until the creature's next turn."""
    return not locked(state)


class EpEconomy(StandardMoveEconomy):
    """EP-ACT-01: one standard, one move and one swift action a turn, and the free actions the GM allows
    (``max_free_actions``, EP-ACT-38).

    - Conversion only downwards: the standard action may be spent as a move or a swift action (EP-ACT-23), the
      move action as a swift action (EP-ACT-24), so up to three swift actions (EP-ACT-32); never upwards, and a
      move and a swift action never make a standard one (EP-ACT-24/26).
    - A full-round action takes every action of the turn (EP-ACT-03) and, until the creature's next turn, no
      immediate action nor attack of opportunity (EP-ACT-05; :data:`FULL_ROUND_LOCK`).
    - One immediate action a round, its own budget (EP-ACT-35), never while Flat-Footed (EP-ACT-36).
    - The surprise round: a single standard action (EP-SURP-18); ``surprise_may_degrade`` is the reading that it may
      be spent as a move or swift action.
    - A move action (not one degraded to a swift action, not a full-round action) may carry one activity that is
      "part of a move action" (EP-ACT-27..29): the hidden pool :data:`PART_OF_MOVE`.
    - Action points stay in the off-turn pool ``action_points`` from round to round (EP-MISC-22).
    """

    POOL_ORDER: ClassVar[tuple[str, ...]] = ("standard", "move", "swift", "free")
    POOL_NAMES: ClassVar[Mapping[str, str]] = {"free": "free actions", PART_OF_MOVE: "", SURPRISE_CHARGE: ""}

    def __init__(self, *, max_free_actions: int = 1, aoo: ThreatenedSquareAoO | None = None,
                 surprise_may_degrade: bool = True, action_points_per_combat: int = 1) -> None:
        super().__init__(max_free_actions=max_free_actions, aoo=aoo)
        self.surprise_may_degrade = surprise_may_degrade
        self.action_points_per_combat = action_points_per_combat

    def allowance(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> TurnAllowance:
        if surprise_round:  # EP-SURP-18: the pools hold the single standard action
            return TurnAllowance(free=self.max_free_actions)
        return super().allowance(creature, state, surprise_round=False)

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        if surprise_round:
            return {"standard": 1, "free": allow.free}
        return {"standard": 1, "move": 1, "swift": 1, "free": allow.free}

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        pools = turn.pools
        std, mov, swift = (pools.get(p, 0) > 0 for p in ("standard", "move", "swift"))
        if cost in ("standard", "move", "full-round", "swift") and allow.single_action and turn.actions_taken:
            raise BudgetError("only one standard or move action this turn")
        degrade = not surprise_round or self.surprise_may_degrade
        if cost == "standard":
            if not std:
                raise BudgetError("the standard action is already used; a move and a swift action never make one "
                                  "(EP-ACT-24/26)")
            return "standard", {"standard": 1}
        if cost == "move":  # EP-ACT-27/28: an actual move action may carry one "part of a move" activity
            if mov:
                return "move", {"move": 1, PART_OF_MOVE: -1}
            if std and degrade:
                return "standard-as-move", {"standard": 1, PART_OF_MOVE: -1}
            if std:
                raise BudgetError("the surprise round's single standard action cannot be spent as a move action "
                                  "(EP-SURP-18, option surprise_standard_may_degrade)")
            raise BudgetError("no move action left, and a swift action is never converted up (EP-ACT-24/25)")
        if cost == "swift":
            if swift:
                return "swift", {"swift": 1}
            if mov:
                return "move-as-swift", {"move": 1}
            if std and degrade:
                return "standard-as-swift", {"standard": 1}
            raise BudgetError("no swift action left: at most three a turn, the standard and move actions spent as "
                              "swift ones (EP-ACT-31/32)")
        if cost == "full-round":
            if surprise_round and pools.get(SURPRISE_CHARGE, 0) > 0:  # the charge, with the single standard action
                return "standard", {SURPRISE_CHARGE: 1}
            if surprise_round:
                raise BudgetError("the surprise round allows a single standard action, no full-round action "
                                  "(EP-SURP-18)")
            if not (std and mov):
                raise BudgetError("a full-round action needs the standard and the move action (EP-ACT-03)")
            spend = {"standard": 1, "move": 1}
            if swift:
                spend["swift"] = 1
            return "full-round", spend
        return super().pay(cost, turn, allow, surprise_round=False)

    def after_paid(self, view: View, actor: str, label: str) -> None:
        """EP-ACT-03/05: a full-round action locks the creature's actions and reactions until its next turn."""
        if label == "full-round":
            view.emit(ev.EffectAdded(actor, FULL_ROUND_LOCK, actor, view.state.round + 1))

    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """The attacks of opportunity, one immediate action a round (EP-ACT-35), and the action points kept."""
        pools = super().round_reactions(creature, state)
        pools[IMMEDIATE] = 1
        pools[ACTION_POINTS] = state.reactions.get(ACTION_POINTS, self.action_points_per_combat)
        for pool, uses in per_encounter_uses(creature).items():  # EP-TIME-10: kept until a new combat begins
            pools[pool] = state.reactions.get(pool, uses)
        return pools
