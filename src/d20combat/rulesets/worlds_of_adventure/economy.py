"""Worlds of Adventure's action economy (WOA-ACT): a standard and a move action, or one full-round action, a round;
free actions on the fly; swift and immediate actions paid with combat reactions; restricted activity.

- WOA-ACT-01/02/07: one standard plus one move action, in either order, or one full-round action; the standard action
  may always be spent as a second move action (a double move), never the reverse (the core's pools).
- WOA-ACT-03/13: free actions are taken on the fly alongside the others, within the DM's limit (option
  ``woa_free_action_limit``).
- WOA-ACT-14/15/19: a swift or immediate action uses up one combat reaction (:func:`use_combat_reaction`): the
  budget is the reactions component's off-turn pool (``rules.reactions.pool``, refreshed each round from its
  ``round_pools``); while a composition gives no such pool the action is recorded and not limited here.
- WOA-ACT-22..26: restricted activity (slowed, or the GM's ``restricted_activity``): one standard *or* one move
  action a round plus free actions; no full-round action, except one started with a standard action in one round
  and completed with a standard action in the next (:data:`STARTED`); half the combat reactions, rounded down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, TurnState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import BudgetError, RuleError, StandardMoveEconomy, TurnAllowance, View
from d20combat.rulesets.worlds_of_adventure.reactions import reaction_kind_barred

if TYPE_CHECKING:
    from d20combat.rulesets.base import Ruleset

RESTRICTING = ("slowed", "restricted_activity")
"""The conditions that restrict a creature's activity (WOA-ACT-22: "e.g. under slow"; the GM may set
``restricted_activity`` for any other cause)."""

STARTED = "starting a full-round action"
"""The effect name prefix of a full-round action begun with a standard action under restricted activity
(WOA-ACT-25): ``"starting a full-round action: <what>"``, lasting until the creature's turn of the next round."""

HASTED = "hasted"
"""The condition of a hasted creature: an extra move action each round (WOA-MOVE-12)."""

LOST_MOVE = "loses its next move action"
"""The effect of a failed quick get-up (WOA-MOVE-44) when the move action of the turn is already spent: the next
turn starts without one."""


def restricted(state: CombatantState) -> str | None:
    """The condition that restricts the creature's activity (WOA-ACT-22), or None."""
    return next((c for c in RESTRICTING if state.has(c)), None)


def started_full_round(state: CombatantState) -> str | None:
    """What full-round action the creature started last round under restricted activity (WOA-ACT-25), or None."""
    for e in state.effects:
        if e.name.startswith(STARTED + ": "):
            return e.name[len(STARTED) + 2:]
    return None


class WoaAllowance(TurnAllowance):
    """The core's allowance plus what WOA's swift actions and restricted activity need (WOA-ACT-14/15/22..25)."""

    restricted_by: str = ""
    """The condition restricting the creature's activity ("" = none)."""
    completes: str = ""
    """A full-round action begun last round with a standard action, which a standard action now completes."""
    reactions_left: int | None = None
    """Combat reactions left this round (None: the composition budgets none)."""
    cannot_react: bool = False
    """The reactions component says the creature cannot react now (flat-footed, running…)."""
    react_bar: str = ""
    """Why a swift or immediate action's combat reaction is barred now ("" = it is not; WOA-DEF-03 and the bars)."""


SWIFT_LABEL = "swift (uses a combat reaction)"
"""How a paid swift action is named in the log (:meth:`WoaEconomy.pay`)."""


class WoaEconomy(StandardMoveEconomy):
    """WOA-ACT-01..03/07/13..15/19/22..25, WOA-MOVE-12/13/44 (see the module)."""

    POOL_ORDER: ClassVar[tuple[str, ...]] = ("standard", "move", "free")
    POOL_NAMES: ClassVar[Mapping[str, str]] = {"free": "free actions"}

    def __init__(self, *, max_free_actions: int = 3) -> None:
        super().__init__(max_free_actions=max_free_actions)

    def allowance(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> TurnAllowance:
        base = super().allowance(creature, state, surprise_round=surprise_round)
        rx = self.rules.reactions
        can_react = getattr(rx, "can_react", None)
        why = restricted(state)
        return WoaAllowance(
            # WOA-ACT-22: a single standard or move action, plus free actions.
            standard=base.standard, move=base.move, free=base.free, single_action=base.single_action or bool(why),
            strenuous_costs_hp=base.strenuous_costs_hp, restricted_by=why or "",
            completes=(started_full_round(state) or "") if why else "",
            reactions_left=state.reactions.get(rx.pool), cannot_react=can_react is not None and not can_react(
                creature, state), react_bar=reaction_kind_barred(creature, state, "swift or immediate action") or "")

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        pools = super().turn_pools(creature, state, surprise_round=surprise_round)
        if state.has(HASTED) and restricted(state) is None:  # WOA-MOVE-12: haste's extra move action
            pools["move"] = pools.get("move", 0) + 1
        if any(e.name == LOST_MOVE for e in state.effects):  # WOA-MOVE-44: the move action is lost
            pools["move"] = max(pools.get("move", 0) - 1, 0)
        return pools

    def settled_turn_pools(self, creature: Creature, at_start: CombatantState, now: CombatantState, *,
                           surprise_round: bool) -> dict[str, int]:
        """WOA-MOVE-44: the move action lost stays lost once the effect that carried it has ended."""
        pools = super().settled_turn_pools(creature, at_start, now, surprise_round=surprise_round)
        if any(e.name == LOST_MOVE for e in at_start.effects) and not any(e.name == LOST_MOVE for e in now.effects):
            pools["move"] = max(pools.get("move", 0) - 1, 0)
        return pools

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        woa = allow if isinstance(allow, WoaAllowance) else WoaAllowance(**allow.model_dump())
        if cost == "swift":
            # WOA-ACT-14/15, WOA-REACT-06: paid with a combat reaction (after_paid spends it), not the turn's pools.
            if woa.cannot_react or woa.react_bar:
                why = f": {woa.react_bar}" if woa.react_bar else ""
                raise BudgetError(f"a swift action uses a combat reaction, and the creature cannot react now{why} "
                                  "(WOA-ACT-14, WOA-REACT-06)")
            if woa.reactions_left is not None and woa.reactions_left < 1:
                raise BudgetError("no combat reaction left this round, and each swift action uses one "
                                  "(WOA-ACT-14/15)")
            return SWIFT_LABEL, {}
        if woa.restricted_by:
            return self._pay_restricted(cost, turn, woa)
        return super().pay(cost, turn, allow, surprise_round=surprise_round)

    def _pay_restricted(self, cost: str, turn: TurnState, allow: WoaAllowance) -> tuple[str, dict[str, int]]:
        """WOA-ACT-22/23/25: one standard or move action (spending both pools); a full-round action only to complete
        one begun last round."""
        why = f"restricted activity ({allow.restricted_by.replace('_', ' ')})"
        std, mov = turn.pools.get("standard", 0) > 0, turn.pools.get("move", 0) > 0
        if cost in ("standard", "move", "full-round") and not (std or mov):
            raise BudgetError(f"{why}: only a single standard or move action a round (WOA-ACT-22)")
        if cost == "full-round":
            if not allow.completes:
                raise BudgetError(f"{why}: no full-round action (WOA-ACT-23); start it with a standard action "
                                  "this round and complete it with one next round (start_full_round, WOA-ACT-25)")
            if not std:
                raise BudgetError(f"{why}: completing a full-round action takes the standard action (WOA-ACT-25)")
            return COMPLETED, {"standard": 1, "move": int(mov)}
        if cost == "move":
            return ("move", {"move": 1, "standard": int(std)}) if mov else ("standard-as-move", {"standard": 1})
        if cost == "standard":
            if not std:
                raise BudgetError(f"{why}: the standard action is already used")
            return "standard", {"standard": 1, "move": int(mov)}
        return super().pay(cost, turn, allow, surprise_round=False)

    def after_paid(self, view: View, actor: str, label: str) -> None:
        """WOA-ACT-14: a swift action spends its combat reaction; WOA-ACT-25: completing the full-round action ends
        its start."""
        if label == SWIFT_LABEL:
            use_combat_reaction(self.rules, view, actor, "swift action", False)
        if label == COMPLETED:
            what = started_full_round(view.state.get(actor))
            if what is not None:
                view.emit(ev.EffectEnded(actor, f"{STARTED}: {what}"))

    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """The reactions component's budget (its ``round_pools``, WOA-REACT-02), halved and rounded down under
        restricted activity (WOA-ACT-24)."""
        pools = super().round_reactions(creature, state)
        give = getattr(self.rules.reactions, "round_pools", None)
        if give is not None and self.aoo is None:
            pools.update(give(creature, state))
        pool = self.rules.reactions.pool
        if restricted(state) is not None and pool in pools:
            pools[pool] = pools[pool] // 2
        ki = int(creature.sheet.attributes.get("ki_points", 0))
        if ki > 0:  # WOA-MOVE-13: a monk's ki points, kept from round to round
            pools["ki"] = state.reactions.get("ki", ki)
        return pools


ROUND_SECONDS = 6
"""WOA-CYCLE-27: one round represents 6 seconds of game time."""


def rounds_of(seconds: int) -> int:
    """WOA-CYCLE-27: the rounds a span of game time takes — 6 seconds a round, a part of a round taking the whole
    round (a 1-minute effect: 10 rounds; 8 seconds: 2). Refused, naming it, for a negative span."""
    if seconds < 0:
        raise RuleError(f"rounds_of: {seconds} seconds is negative (WOA-CYCLE-27)")
    return -(-seconds // ROUND_SECONDS)


COMPLETED = "full-round, completed with a standard action"
"""The label of a full-round action completed under restricted activity (WOA-ACT-25)."""


def use_combat_reaction(rules: Ruleset, view: View, who: str, what: str, dry: bool) -> str:
    """WOA-ACT-14/15/19, WOA-REACT-06: ``who`` spends one combat reaction on a swift or immediate action ``what``.

    Refused (:class:`RuleError`) when the reactions component says the creature cannot react now (its
    ``can_react``: flat-footed, running…) or its pool is empty. Returns the explanation ("…; 1 combat reaction
    left"). The pool is the reactions component's (``rules.reactions.pool``); a composition that budgets none
    leaves the action unlimited here, and says so."""
    rx = rules.reactions
    cs = view.state.get(who)
    creature = view.creature(who)
    can_react = getattr(rx, "can_react", None)
    if can_react is not None and not can_react(creature, cs):
        raise RuleError(f"{what}: {who} cannot make combat reactions now, and a swift or immediate action uses "
                        "one (WOA-ACT-14, WOA-REACT-06)")
    barred = reaction_kind_barred(creature, cs, "swift or immediate action")
    if barred is not None:
        raise RuleError(f"{what}: {who} may make no swift or immediate action now: {barred}")
    pool = rx.pool
    if pool not in cs.reactions:
        return f"{what} (uses a combat reaction, WOA-ACT-14; this composition budgets none)"
    left = cs.reactions[pool]
    if left < 1:
        raise RuleError(f"{what}: {who} has no combat reaction left this round, and each swift or immediate action "
                        "uses one (WOA-ACT-14/15)")
    text = f"{what}: uses a combat reaction (WOA-ACT-14); {left - 1} left this round"
    if not dry:
        view.emit(ev.ReactionSpent(who, pool, text))
    return text

