"""Aid another's bonuses (EP-MISC-03..05): timed effects on the ally, named after the aider and the opponent, read
by the attack and defense areas and spent by the next attack between the two."""

from __future__ import annotations

import re
from typing import Literal

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import View

AID_BONUS = 2
_AID = re.compile(r"^aid another \((?P<aider>[^)]*)\): \+2 (?P<kind>attack|AC) against (?P<opponent>.+)$")


def aid_effect_name(aider: str, kind: Literal["attack", "AC"], opponent: str) -> str:
    return f"aid another ({aider}): +2 {kind} against {opponent}"


def aid_bonuses(state: CombatantState, kind: Literal["attack", "AC"], opponent: str) -> list[str]:
    """The names of ``state``'s aid-another effects of ``kind`` against ``opponent`` (EP-MISC-03/05: they stack)."""
    out = []
    for e in state.effects:
        m = _AID.match(e.name)
        if m and m["kind"] == kind and m["opponent"] == opponent:
            out.append(e.name)
    return out


def aid_modifiers(state: CombatantState, kind: Literal["attack", "AC"], opponent: str) -> list[Modifier]:
    return [Modifier(AID_BONUS, name.split(":")[0]) for name in aid_bonuses(state, kind, opponent)]


def spend_aid(view: View, attacker: str, target: str) -> None:
    """EP-MISC-03/04: the bonuses are for the *next* attack roll: an attack by ``attacker`` on ``target`` spends
    the attacker's attack bonuses against the target and the target's AC bonuses against the attacker."""
    for who, kind, other in ((attacker, "attack", target), (target, "AC", attacker)):
        for name in aid_bonuses(view.state.get(who), kind, other):  # type: ignore[arg-type]
            view.emit(ev.EffectEnded(who, name))
