"""P5 action economy of the skill-based rules: complex, basic, free and bonus actions counted per round, and the
reserve of complex actions held for block, dodge or counterspell."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, TurnState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import BudgetError, RuleError, StandardMoveEconomy, TurnAllowance, View
from d20combat.rulesets.skill_based.actions import Reserve
from d20combat.rulesets.skill_based.options import OFFHAND, RESERVE
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.skills import action_grants
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons


class ComplexBasicEconomy(StandardMoveEconomy):
    """SKL-ACT-01..11: per *round* one complex action (more by talent, SKL-ACT-03/09/10), one basic action (more
    by talent, SKL-ACT-06), free actions without limit unless the GM sets one (SKL-ACT-08); the core's standard,
    move and full-round costs are complex, basic and both, never converted (SKL-ACT-11).

    SKL-RES-01..06: every complex action of the round, bonus ones included, is held in reserve until the
    creature's turn (SKL-RES-04); on its turn the :class:`Reserve` action declares how many stay held
    (SKL-RES-02); held actions serve only block, dodge and counterspell (SKL-RES-05) and lapse at the end of the
    round (SKL-RES-06). The surprised hold nothing (PFB's surprise round). One attack of opportunity a round
    (SKL-AOO-24); the two-weapon bonus action for the off hand (SKL-TWF-01)."""

    POOL_ORDER: ClassVar[tuple[str, ...]] = ("complex", "basic", OFFHAND, "free")
    POOL_NAMES: ClassVar[Mapping[str, str]] = {
        "complex": "complex", "basic": "basic", "free": "free actions", "declare": "", "twf_switch": "",
        OFFHAND: "off-hand bonus"}
    """SKL's pools as the table reads them; the reserve declaration and the two-weapon switch are bookkeeping."""

    def __init__(self, hands: TwoWeapons, reactions: SkillAttacksOfOpportunity, *, max_free_actions: int | None = None,
                 complex_as_basic: bool = False, auto_reserve: bool = True, surprise_limit: str = "round") -> None:
        super().__init__(max_free_actions=999 if max_free_actions is None else max_free_actions)
        self.hands = hands
        self.reactions = reactions
        """The attacks of opportunity a round (SKL-AOO-24), refreshed with the reserve."""
        self.complex_as_basic = complex_as_basic
        """SKL-ACT-11 (variant ``skl_complex_as_basic``): a complex action may be spent as a basic one."""
        self.auto_reserve = auto_reserve
        self.surprise_limit = surprise_limit
        """``skl_surprise_limit``: the surprise round's one action is the round's ("round", default) or the turn's."""
        """SKL-RES-02 (reading, ``skl_auto_reserve``): a turn ended without a declaration holds what it did not
        spend."""

    # ------------------------------------------------------------------------ the round's allowance
    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """SKL-RES-04: every complex action of the round, bonus ones included, is held until the creature's
        turn; one attack of opportunity (SKL-AOO-24)."""
        grants = action_grants(creature)
        pools = {RESERVE: 1 + grants["complex:any"], **self.reactions.round_pools(creature, state)}
        for use in ("dodge", "block"):
            if grants[f"complex:{use}"]:
                pools[f"{RESERVE}_{use}"] = grants[f"complex:{use}"]
        if self.hands.two_weapon_on(state) and self.hands.off_hand(creature, state) is not None:
            pools[OFFHAND] = 1
        return pools

    def start_of_round(self, view: View, round_no: int) -> None:
        """SKL-RES-04: allowances refresh at the start of the round (surprised creatures hold nothing)."""
        s = view.state
        for cid, c in s.combatants.items():
            surprised = s.surprise_round and cid in s.surprised
            pools = {RESERVE: 0, self.reactions.pool: 0} if surprised else self.round_reactions(view.creature(cid), c)
            kept = {k: v for k, v in c.reactions.items() if k.startswith("blocks:")}
            view.emit(ev.ReactionsSet(cid, {**kept, **pools}))

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        """SKL-ACT-02/05/08: what is left of the round's complex actions, one basic action (more by talent),
        free actions; ``declare`` is the one reserve declaration (SKL-RES-02)."""
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        grants = action_grants(creature)
        pools = {"complex": state.reactions.get(RESERVE, 0), "basic": 1 + grants["basic"], "free": allow.free,
                 "declare": 1, "twf_switch": 1}
        if surprise_round and self.per_round_surprise() and self._spent_reserve(creature, state):
            pools["complex"] = pools["basic"] = 0  # its one action of the surprise round was a block or dodge
        if state.reactions.get(OFFHAND, 0):
            pools[OFFHAND] = state.reactions[OFFHAND]
        if grants["complex:attack"]:
            pools["bonus_attack"] = grants["complex:attack"]
        return pools

    def settled_turn_pools(self, creature: Creature, at_start: CombatantState, now: CombatantState, *,
                           surprise_round: bool) -> dict[str, int]:
        """SKL-RES-04: the held complex actions the turn began with are its own (the start of the turn releases
        them from the reserve), so they are counted from ``at_start``; the rest from the creature as it now is."""
        return self.turn_pools(creature, replace(now, reactions=at_start.reactions), surprise_round=surprise_round)

    def per_round_surprise(self) -> bool:
        """``skl_surprise_limit`` (issue 11, 10d): is the surprise round's one action the round's (default) or
        only the turn's?"""
        return self.surprise_limit == "round"

    def _spent_reserve(self, creature: Creature, state: CombatantState) -> bool:
        """Has the creature spent a held complex action (block, dodge, counterspell) this round?"""
        full = self.round_reactions(creature, state)
        return any(state.reactions.get(k, 0) < v for k, v in full.items() if k.startswith(RESERVE))

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        """SKL-ACT: standard → complex, move → basic, full-round → both, free → free. No conversion between
        complex and basic (SKL-ACT-11) unless ``skl_complex_as_basic``."""
        pools = turn.pools
        complex_left, basic_left = pools.get("complex", 0), pools.get("basic", 0)
        if cost in ("standard", "move", "full-round") and allow.single_action and turn.actions_taken:
            raise BudgetError("only one complex or basic action this turn")
        if cost == "standard":
            if complex_left > 0:
                return "complex", {"complex": 1}
            raise BudgetError("no complex action left this round (SKL-ACT-02; held reserve serves only block, "
                              "dodge or counterspell, SKL-RES-05)")
        if cost == "move":
            if basic_left > 0:
                return "basic", {"basic": 1}
            if self.complex_as_basic and complex_left > 0 and not allow.single_action:
                return "complex-as-basic", {"complex": 1}
            raise BudgetError("no basic action left this round; a complex action cannot be spent as a basic one "
                              "(SKL-ACT-05/11)")
        if cost == "full-round":
            if allow.single_action:
                raise BudgetError("a complex and a basic action together are impossible when only one action "
                                  "is allowed")
            if complex_left <= 0 or basic_left <= 0:
                raise BudgetError("needs both the complex and the basic action of the round")
            return "complex + basic", {"complex": 1, "basic": 1}
        if cost == "free":
            if pools.get("free", 0) <= 0:
                raise BudgetError(f"no free action left this round (the GM's limit {allow.free}, SKL-ACT-08)")
            return "free", {"free": 1}
        if cost == "none":
            if surprise_round and turn.free_used >= allow.free:
                raise BudgetError("only one complex or basic action in the surprise round")
            return "none", {}
        raise BudgetError(f"unknown cost {cost!r}")

    # ------------------------------------------------------------------------ the reserve
    def declare_reserve(self, engine: Any, tx: View, actor: str, a: Reserve, dry: bool) -> None:
        """SKL-RES-01/02: hold ``count`` complex actions (and the off-hand bonus) for the rest of the round."""
        turn = tx.state.turn
        assert turn is not None
        if turn.pools.get("declare", 0) <= 0:
            raise RuleError("reserve: already declared this turn; the number held cannot be raised (SKL-RES-02)")
        left, off_left = turn.pools.get("complex", 0), turn.pools.get(OFFHAND, 0)
        if a.count and tx.state.surprise_round and turn.actions_taken and self.per_round_surprise():
            raise RuleError("reserve: the surprise round allows one action a round, and it is spent "
                            "(skl_surprise_limit = round)")
        if not 0 <= a.count <= left:
            raise RuleError(f"reserve: {a.count} complex action(s) asked, {left} left this round (SKL-RES-02)")
        if not 0 <= a.offhand <= off_left:
            raise RuleError(f"reserve: {a.offhand} off-hand bonus action(s) asked, {off_left} left (SKL-TWF-01)")
        if dry:
            return
        tx.emit(ev.BudgetSpent(actor, f"reserve {a.count}", "none", {"complex": a.count, OFFHAND: a.offhand,
                                                                      "declare": 1}))
        self.hold(tx, actor, a.count, a.offhand, "declares")

    @staticmethod
    def hold(view: View, actor: str, count: int, offhand: int, how: str) -> None:
        r = view.state.get(actor).reactions
        view.emit(ev.ReactionsSet(actor, {**r, RESERVE: count, OFFHAND: offhand}))
        extra = " and the off-hand bonus action" if offhand else ""
        view.emit(ev.Note(f"{actor} {how} {count} complex action(s){extra} held in reserve for block, dodge or "
                          f"counterspell until the end of the round (SKL-RES-02/03)"))

    @staticmethod
    def release(view: View, actor: str) -> None:
        """SKL-RES-02/04: at the start of its turn the held complex actions become the turn's own (its pools were
        counted from them) until the creature declares a reserve."""
        r = view.state.get(actor).reactions
        if r.get(RESERVE, 0) or r.get(OFFHAND, 0):
            view.emit(ev.ReactionsSet(actor, {**r, RESERVE: 0, OFFHAND: 0}))

    def end_of_turn(self, view: View, actor: str) -> None:
        """``skl_auto_reserve``: a turn ended without a declaration holds what it did not spend."""
        turn = view.state.turn
        if turn is None or turn.actor != actor or not self.auto_reserve or turn.pools.get("declare", 0) <= 0:
            return
        left, off_left = turn.pools.get("complex", 0), turn.pools.get(OFFHAND, 0)
        if view.state.surprise_round and turn.actions_taken and self.per_round_surprise():
            return  # skl_surprise_limit = round: its one action of the surprise round is spent, nothing is held
        if left or off_left:
            self.hold(view, actor, left, off_left, "keeps")

    @staticmethod
    def lapse(view: View, cid: str, c: CombatantState) -> None:
        """SKL-RES-06: at the end of the round what ``cid`` (as ``c``) still holds lapses."""
        held = {k: v for k, v in c.reactions.items() if k.startswith(RESERVE) or k == OFFHAND}
        if any(held.values()):
            view.emit(ev.ReactionsSet(cid, {**c.reactions, **dict.fromkeys(held, 0)}))
            view.emit(ev.Note(f"{cid}'s unspent reserve ({sum(held.values())}) lapses (SKL-RES-06)"))
