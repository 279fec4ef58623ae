"""The coup de grace being struck in the action now resolving (CMV-CDG-06): its target and the damage its
attack dealt, kept in the action's ``view.scratch`` — never on the ruleset — so the injury area can hand the
damage to the coup de grace's own death save instead of rolling the ordinary one."""

from __future__ import annotations

from dataclasses import dataclass, field

from d20combat.rulesets.components import View

STRIKE = "off-guard: coup de grace"
"""``view.scratch`` key: the :class:`Strike` of the coup de grace whose attack is resolving."""


@dataclass
class Strike:
    """The coup de grace being struck in this action: its target and the damage its attack dealt so far."""

    target: str
    dealt: list[int] = field(default_factory=list)


def striking(view: View) -> str | None:
    """The target of the coup de grace whose attack is resolving in this action, if any."""
    strike: Strike | None = view.scratch.get(STRIKE)
    return strike.target if strike is not None else None


def collect(view: View, target: str, amount: int) -> bool:
    """Keep ``amount`` of damage to ``target`` for the coup de grace's own death save (CMV-CDG-06) if this is
    that coup de grace's damage; False (nothing kept) otherwise."""
    strike: Strike | None = view.scratch.get(STRIKE)
    if strike is None or strike.target != target:
        return False
    strike.dealt.append(amount)
    return True
