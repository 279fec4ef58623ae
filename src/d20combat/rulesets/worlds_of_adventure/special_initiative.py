"""Refocus (WOA-INIT-26/27): a standard action, declared like any other; next round's initiative die is a 20."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.rulesets.components import ActionSpec, View
from d20combat.rulesets.worlds_of_adventure.cycle import REFOCUSED


@dataclass(frozen=True, slots=True)
class Refocus(Action):
    """WOA-INIT-26: refocus as a standard action; WOA-INIT-27: the next round's initiative die counts as a 20."""

    kind: ClassVar[str] = "refocus"


def do_refocus(enc: Any, tx: View, actor: str, a: Refocus, dry: bool) -> None:
    enc.pay(tx, actor, "refocus", "standard", dry)
    if not dry:
        tx.emit(ev.ConditionSet(actor, REFOCUSED, True, "refocuses: next round its initiative die counts as a 20 "
                                                        "(WOA-INIT-26/27)"))


REFOCUS = ActionSpec(Refocus, do_refocus)
