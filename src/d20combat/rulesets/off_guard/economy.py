"""P5 action economy of the off-guard ruleset: PFB's budget read as CMV's minor and major actions, less what the
conditions take away."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from d20combat.encounter.state import CombatantState, TurnState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import BudgetError, StandardMoveEconomy, TurnAllowance
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.off_guard.conditions import _NO_ACTION_ORDER, CmvAllowance, ConditionTable
from d20combat.rulesets.off_guard.options import OffGuardOptions


class MinorMajorEconomy(StandardMoveEconomy):
    """PFB's standard, move and free actions (PFB-ACT-05, PFB-ACT-06, PFB-ACT-13), read as CMV's major and minor
    actions, with what the conditions take away: dazed, stunned, cowering and the helpless take no actions
    (CMV-COND-05, CMV-COND-14, CMV-COND-31); debilitated, a single minor action (CMV-COND-09); staggered, a single
    minor or major action unless aided (CMV-INJ-06, CMV-INJ-07); held, only struggling to escape (CMV-COND-36).
    Off its turn a creature gets back the reaction attacks of the reactions area each round (CMV-COV-08)."""

    POOL_NAMES: ClassVar[Mapping[str, str]] = {"standard": "major", "move": "minor", "free": "free actions"}

    def __init__(self, table: ConditionTable, reactions: ThreatenedSquareAoO | None, opts: OffGuardOptions) -> None:
        super().__init__(max_free_actions=opts.max_free_actions)
        self.table = table
        self.reactions = reactions
        self.opts = opts

    def allowance(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> TurnAllowance:
        base = super().allowance(creature, state, surprise_round=surprise_round)
        kinds = {name: row.actions for name, row in self.table.rows_of(creature, state) if row.actions}
        no_actions = ""
        for name in _NO_ACTION_ORDER:
            if kinds.get(name) == "none":
                no_actions = f"{name}: no actions, only reactions (CMV-COND-05)" if name == "dazed" else \
                    f"{name}: no actions"
                break
        minor_only = "debilitated: only a single minor (move) action each turn (CMV-COND-09)" \
            if "minor" in kinds.values() else ""
        guided = self.table.guided(state)
        single = base.single_action or bool(minor_only) or (
            "single" in kinds.values() and not (guided and self.opts.cmv_aid_lifts_action_limit))
        held = "escape" in kinds.values() and not self.opts.cmv_held_other_actions
        return CmvAllowance(free=0 if no_actions else base.free, single_action=single, no_actions=no_actions,
                            minor_only=minor_only, held=held)

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        if isinstance(allow, CmvAllowance) and allow.no_actions:
            return {"standard": 0, "move": 0, "free": 0}
        return super().turn_pools(creature, state, surprise_round=surprise_round)

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        return self.pay_escaping(cost, turn, allow, surprise_round=surprise_round, escaping=False)

    def pay_escaping(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool,
                     escaping: bool) -> tuple[str, dict[str, int]]:
        """:meth:`pay`; ``escaping``: the one action a held creature may take (CMV-COND-36)."""
        if isinstance(allow, CmvAllowance):
            if allow.no_actions:
                raise BudgetError(allow.no_actions)
            if allow.minor_only and cost in ("standard", "full-round"):
                raise BudgetError(allow.minor_only)
            if allow.held and not escaping and cost in ("standard", "move", "full-round"):
                raise BudgetError("held: it can only struggle to escape (CMV-COND-36)")
        return super().pay(cost, turn, allow, surprise_round=surprise_round)

    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """CMV-COV-08 (proposed): one reaction attack a round, as Epic Path's attacks of opportunity."""
        return self.reactions.round_pools(creature, state) if self.reactions is not None else {}
