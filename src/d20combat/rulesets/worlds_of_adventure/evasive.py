"""An Acrobatics check result in place of AC against an attack of opportunity (WOA-MOVE-45; WOA-AOO-25's "evasive
movement", whose DCs and action costs are MISSING).

"You still provoke an attack of opportunity for getting up quickly, but you can use your Acrobatics check result in
place of your AC against the AoO" (L416). The check is rolled first; while its result is marked on the creature
(``evasive_ac:<n>``) an attack of opportunity against it meets the better of its AC and the result ("you *can* use",
the reading: the creature, knowing its result, picks it only when it is higher); the mark is lifted as soon as the
provoked attacks are over, so no later attack meets it.
"""

from __future__ import annotations

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.numbers import Total, total
from d20combat.rulesets.components.component import View

EVASIVE = "evasive_ac:"
"""Condition prefix: ``evasive_ac:<result>`` while the provoked attacks of opportunity are resolved."""


def evasive_result(state: CombatantState) -> int | None:
    """The Acrobatics result standing in for the creature's AC now, or None."""
    for condition in state.conditions:
        if condition.startswith(EVASIVE):
            return int(condition[len(EVASIVE):])
    return None


def mark_evasive(view: View, actor: str, result: int, why: str) -> None:
    view.emit(ev.ConditionSet(actor, f"{EVASIVE}{result}", True, why))


def clear_evasive(view: View, actor: str) -> None:
    result = evasive_result(view.state.get(actor))
    if result is not None:
        view.emit(ev.ConditionSet(actor, f"{EVASIVE}{result}", False, "the attacks of opportunity are over"))


def in_place_of_ac(ac: Total, state: CombatantState) -> Total:
    """WOA-MOVE-45: the better of ``ac`` and the marked Acrobatics result, explained."""
    result = evasive_result(state)
    if result is None or result <= ac.value:
        return ac
    return total(result, [], base_label=f"Acrobatics check in place of AC {ac.value} (WOA-MOVE-45)")
