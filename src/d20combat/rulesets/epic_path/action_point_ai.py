"""What Epic Path's rules of time and the turn recommend to the tactical AI: when to spend the action point."""

from __future__ import annotations

from typing import Any

from d20combat.encounter.state import EncounterState
from d20combat.errors import D20CombatError
from d20combat.rulesets.epic_path.initiative import ACTION_POINTS, combat_round
from d20combat.rulesets.epic_path.turn_actions import SpendActionPoint, action_point_benefit, charged_this_turn


def action_point_worth_spending(enc: Any, actor: str) -> SpendActionPoint | None:
    """Spend an action point (EP-MISC-22..25) when it buys a standard action that can be used at once: the turn's
    own standard action is spent, a foe is within reach or range now, and this round's benefit (or the charge's,
    EP-MISC-25) grants a standard action. A point that would only buy a move action is kept for a later round, whose
    benefit is larger (EP-ACT-53)."""
    s: EncounterState = enc.state
    turn = s.turn
    if turn is None or turn.pools.get("standard", 0) > 0 or s.get(actor).reactions.get(ACTION_POINTS, 0) < 1:
        return None
    after_charge = charged_this_turn(enc.view(s), actor)
    grants, _ = action_point_benefit(combat_round(s), after_charge=after_charge)
    if grants.get("standard", 0) < 1:
        return None
    for foe in enc.enemies(actor):
        if enc.ruleset.injury.out_of_fight(enc.creature(foe), s.get(foe)):
            continue
        try:
            enc.plan_attack(actor, foe)
        except D20CombatError:
            continue
        return SpendActionPoint()
    return None
