"""Evasive movement: an Acrobatics check result in place of AC against the attacks of opportunity a movement provokes
(WOA-AOO-25, WOA-MOVE-41/42/45).

"The Acrobatics skill allows you to use your skill check result as your AC against attacks of opportunity provoked by
movement (see the 'evasive movement' usage of Acrobatics)" (L944). The skill chapter, with the usage's DCs and action
costs, is MISSING. ASSUMPTION (the reading played here): evasive movement needs no DC and costs no action of its
own — it is a way of making the movement, chosen with it: ``evasive_move`` (a move action, like ``move``, WOA-AOO-25)
and ``get_up`` with ``evasive: true`` (WOA-MOVE-41; getting up ``slowly`` adds +10 to the check, WOA-MOVE-42). The
check is rolled once, before the movement; every attack of opportunity that movement provokes meets the better of the
creature's AC and the result. The quick get-up's check (WOA-MOVE-45) stands in the same way.

"You still provoke an attack of opportunity for getting up quickly, but you can use your Acrobatics check result in
place of your AC against the AoO" (L416). The check is rolled first; while its result is marked on the creature
(``evasive_ac:<n>``) an attack of opportunity against it meets the better of its AC and the result ("you *can* use",
the reading: the creature, knowing its result, picks it only when it is higher); the mark is lifted as soon as the
provoked attacks are over, so no later attack meets it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.battlefield.grid import Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.numbers import Modifier, Total, total
from d20combat.rulesets.components.component import View

SLOWLY_BONUS = 10
"""WOA-MOVE-42: getting up slowly: +10 on the Acrobatics check to avoid the attack of opportunity."""

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


def roll_evasive(enc: Any, tx: Any, actor: str, why: str, *, slowly: bool = False) -> int:
    """WOA-AOO-25/MOVE-41/42: roll the evasive-movement Acrobatics check (+10 getting up slowly), explain it and mark
    the result on ``actor`` for the attacks of opportunity to come (:func:`clear_evasive` lifts it)."""
    creature, cs = enc.creature(actor), tx.state.get(actor)
    face = tx.dice.d20(f"Acrobatics (evasive) {actor}")
    mods = [*enc.ruleset.saves.check_modifiers(creature, cs, "acrobatics")]
    if slowly:
        mods.append(Modifier(SLOWLY_BONUS, "getting up slowly (WOA-MOVE-42)"))
    check = total(face, mods, base_label="d20", stacking=enc.ruleset.stacking)
    mark_evasive(tx, actor, check.value, f"{why}: Acrobatics {check.explain()} — the result may stand in for its AC "
                                         "against the attacks of opportunity this movement provokes (WOA-AOO-25)")
    return check.value


@dataclass(frozen=True, slots=True)
class EvasiveMove(ax.Action):
    """WOA-AOO-25: a move action made evasively — ``to`` or ``path`` as for ``move``; the Acrobatics result stands in
    for AC against the attacks of opportunity it provokes."""

    kind: ClassVar[str] = "evasive_move"
    to: Square | None = None
    path: tuple[Square, ...] | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Move evasively to {self.to}" if self.to is not None else "Move evasively along a path"


def do_evasive_move(enc: Any, tx: Any, actor: str, a: EvasiveMove, dry: bool) -> None:
    """WOA-AOO-25: the move, checked first; then the check, the movement with its attacks, the mark lifted."""
    from d20combat.encounter.movement_actions import do_move  # the encounter imports the rulesets

    move = ax.Move(to=a.to, path=a.path)
    do_move(enc, tx, actor, move, True)
    if dry:
        return
    roll_evasive(enc, tx, actor, "moves evasively")
    do_move(enc, tx, actor, move, False)
    if actor in tx.state.combatants:
        clear_evasive(tx, actor)
