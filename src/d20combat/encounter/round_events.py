"""The events of a declaration phase (rules-diff §4.1, WOA-CYCLE-02/14..16): at the start of a round every
creature able to act declares its round's actions, one decision each, before initiative is rolled.

Nothing in the rulesets that roll initiative once (PFB, EP, CMV, SKL) emits them, so their logs are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.encounter.event_base import Event


@dataclass(frozen=True, slots=True)
class DeclarationsOpened(Event):
    """The round's declaration phase begins: ``declarers`` declare, in this order, before initiative is rolled."""

    kind: ClassVar[str] = "declarations_opened"
    round: int
    """The combat's round (the engine's, less the surprise attacks before round 1: WOA-CYCLE-07)."""
    declarers: list[str]

    def explain(self) -> str:
        return f"Round {self.round}: everyone declares their actions before initiative is rolled (" + \
            ", ".join(self.declarers) + ")"


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """One creature's declaration for the round (the fields of :class:`d20combat.encounter.actions.Declare`)."""

    kind: ClassVar[str] = "declared"
    combatant: str
    declaration: dict[str, Any]
    text: str

    def explain(self) -> str:
        return f"{self.combatant} declares {self.text}"


@dataclass(frozen=True, slots=True)
class DeclarationRuled(Event):
    """A declaration that can no longer be carried out is replaced when its creature's turn comes (WOA-CYCLE-25:
    a similar action, a move action only, or nothing) — by the ruleset's default ruling or the GM's."""

    kind: ClassVar[str] = "declaration_ruled"
    combatant: str
    declaration: dict[str, Any]
    text: str
    reason: str

    def explain(self) -> str:
        return f"{self.combatant}'s declared action is no longer possible ({self.reason}): {self.text}"
