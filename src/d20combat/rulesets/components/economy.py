"""P5 action economy: what a turn may hold, how an action's cost is paid, and what refreshes each round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, ConfigDict

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, TurnState
from d20combat.model.creature import Creature
from d20combat.rules import health
from d20combat.rulesets.components.component import BudgetError, Component, View

if TYPE_CHECKING:
    from d20combat.rulesets.components.reactions import ThreatenedSquareAoO


class TurnAllowance(BaseModel):
    """What one turn may hold (P5 action_budget)."""

    model_config = ConfigDict(frozen=True)

    standard: bool = True
    move: bool = True
    free: int = 1
    single_action: bool = False
    """Exactly one standard *or* move action (surprise round, disabled)."""
    strenuous_costs_hp: bool = False
    """A standard action costs 1 hp afterwards (disabled, PF1 default)."""


class StandardMoveEconomy(Component):
    """PFB-ACT: one standard, one move and the free actions allowed; the standard may stand in for a move;
    a full-round action takes both. The surprise round allows one standard *or* move (PFB-SURP-05), and so
    does being disabled (PFB-HP-01, PF1 default)."""

    def __init__(self, *, max_free_actions: int = 1, surprise_free_actions: bool = False,
                 aoo: ThreatenedSquareAoO | None = None) -> None:
        self.max_free_actions = max_free_actions
        self.surprise_free_actions = surprise_free_actions
        self.aoo = aoo

    POOL_ORDER: ClassVar[tuple[str, ...]] = ("standard", "move", "free")
    """The order pools are shown in (a state rebuilt from events may hold them in another)."""
    POOL_NAMES: ClassVar[Mapping[str, str]] = {"free": "free actions"}
    """How this economy's pools read on the table ("standard" → "major" in off-guard); "" hides a pool that is
    only bookkeeping."""

    def pool_labels(self, pools: Mapping[str, int]) -> list[str]:
        """What the creature whose turn it is has left, as a person reads it ("1 standard", "1 move", "free
        actions"); pools that are only bookkeeping are left out."""
        out = []
        order = {pool: i for i, pool in enumerate(self.POOL_ORDER)}
        for pool, left in sorted(pools.items(), key=lambda item: (order.get(item[0], len(order)), item[0])):
            name = self.POOL_NAMES.get(pool, pool.replace("_", " "))
            if not name:
                continue
            out.append(f"{name}" if pool == "free" and left >= 99 else f"{left} {name}")
        return out

    def allowance(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> TurnAllowance:
        if surprise_round:
            # PFB-SURP-05: one standard or move action, and (literally) nothing else.
            return TurnAllowance(free=self.max_free_actions if self.surprise_free_actions else 0, single_action=True)
        if self.rules.injury.health(creature, state) is health.Health.DISABLED:
            # PFB-HP-01 (PF1 default): one move or standard action; a standard action costs 1 hp.
            return TurnAllowance(free=self.max_free_actions, single_action=True, strenuous_costs_hp=True)
        return TurnAllowance(free=self.max_free_actions)

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        """The pools a turn starts with (PFB-ACT-06): one standard, one move, the free actions allowed."""
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        return {"standard": 1, "move": 1, "free": allow.free}

    def settled_turn_pools(self, creature: Creature, at_start: CombatantState, now: CombatantState, *,
                           surprise_round: bool) -> dict[str, int]:
        """The turn's pools once its start-of-turn steps are done (issue 11): what :meth:`turn_pools` gives the
        creature as it now is (``at_start``: as it was when the turn began), so a condition lifted at the start
        of the turn (CMV-COND-28/29) gives its actions back and one imposed then takes them."""
        return self.turn_pools(creature, now, surprise_round=surprise_round)

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        """How ``cost`` (standard, move, full-round, free, none) is paid from the turn's pools:
        (label for the log, pools spent). Raises :class:`BudgetError`.

        PFB-ACT-05/06/12/13: the standard action may stand in for a move, never the reverse; a
        full-round action takes both; free actions are limited. PFB-SURP-05 / PFB-HP-01: only one
        standard *or* move action when the allowance says so."""
        pools = turn.pools
        std, mov, free = pools.get("standard", 0) > 0, pools.get("move", 0) > 0, pools.get("free", 0)
        if cost in ("standard", "move", "full-round") and allow.single_action and turn.actions_taken:
            raise BudgetError("only one standard or move action this turn")
        if cost == "standard":
            if not std:
                raise BudgetError("the standard action is already used")
            return "standard", {"standard": 1}
        if cost == "move":
            if mov:
                return "move", {"move": 1}
            if std and not allow.single_action:
                return "standard-as-move", {"standard": 1}
            raise BudgetError("no move action left (the standard action can stand in only once)")
        if cost == "full-round":
            if allow.single_action:
                raise BudgetError("a full-round action is impossible when only one action is allowed")
            if not (std and mov):
                raise BudgetError("needs both the standard and the move action")
            return "full-round", {"standard": 1, "move": 1}
        if cost == "free":
            if free <= 0:
                raise BudgetError(f"no free action left this turn (limit {allow.free})")
            return "free", {"free": 1}
        if cost == "none":
            if surprise_round and turn.free_used >= allow.free:
                raise BudgetError("only one standard or move action in the surprise round (PFB-SURP-05)")
            return "none", {}
        raise BudgetError(f"unknown cost {cost!r}")

    def after_paid(self, view: View, actor: str, label: str) -> None:
        """After ``actor`` paid an action (``label`` as :meth:`pay` named it): what paying leaves behind (Epic Path's
        full-round action locks its reactions until the creature's next turn). None in PFB."""

    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """Off-turn resources refreshed at the start of each round: none in PFB (no reactions, PFB-RND-02); the
        attacks of opportunity of the ``aoo`` component given (EP-AOO-12: one a round)."""
        return self.aoo.round_pools(creature, state) if self.aoo is not None else {}

    def start_of_round(self, view: View, round_no: int) -> None:
        """Refresh every creature's off-turn resources."""
        for cid, c in view.state.combatants.items():
            pools = self.round_reactions(view.creature(cid), c)
            if pools or c.reactions:
                view.emit(ev.ReactionsSet(cid, pools))
