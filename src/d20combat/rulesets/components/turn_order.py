"""P2 turn order: what a creature adds to its initiative roll."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from d20combat.dice import DiceSource
from d20combat.encounter.actions import Action, Declare
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rules import initiative
from d20combat.rulesets.components.component import Component, View


class TurnOrder(Component):
    """Initiative rolled once: d20 + Dex (+4 Improved Initiative), tied creatures roll off (PFB-INIT-01..05)."""

    surprise_phase_name: str = "surprise round"
    """What the log and the page call the engine's round with the surprise flag (PFB-SURP-04: a surprise round)."""
    surprised_idle: str = "surprised: no actions in the surprise round"
    """Why a surprised creature's turn passes in that round (PFB-SURP-04)."""

    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        return initiative.initiative_modifiers(creature)

    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Initiative modifiers from the creature's state when it rolls (conditions, wounds); none in PFB."""
        return []

    def order(self, totals: Sequence[tuple[str, int]], creatures: Mapping[str, Creature], dice: DiceSource
              ) -> tuple[list[str], list[str]]:
        """The turn order from the initiative results, highest first, and the tie-break notes (PFB-INIT-04/05:
        tied creatures roll off)."""
        return initiative.order_by_initiative(totals, dice)

    # --- the declaration phase (rules-diff §4.1): none here; see components.declaration.DeclareThenRoll -------
    initiative_at_start: bool = True
    """Whether the core rolls initiative once, at the start of the encounter (PFB-INIT-01); a turn order that
    rolls it every round after the declarations (WOA-CYCLE-02) says False and sets the order itself."""

    def declaration_options(self, view: View, actor: str) -> list[Declare]:
        """The declarations ``actor`` may make now (a declaration phase); none in a ruleset that declares nothing."""
        return []

    def check_declaration(self, view: View, actor: str, declaration: Declare) -> str | None:
        """Why ``declaration`` is not one ``actor`` may make now, or None."""
        return "nothing is declared in this ruleset: creatures decide their actions on their turns"

    def after_declarations(self, view: View, round_no: int) -> None:
        """When the last creature has declared its round (a turn order that declares rolls initiative here)."""

    def undeclared(self, view: View, actor: str, action: Action) -> str | None:
        """Why ``actor`` may not take ``action`` on its turn because it declared otherwise, or None."""
        return None

    def ai_declaration(self, enc: Any, actor: str) -> Declare | None:
        """What the tactical AI declares for ``actor`` (``enc`` the Encounter); None: the declaration that carries
        out the action the AI would take first if its turn were now (:meth:`declaration_for`)."""
        return None

    def declaration_for(self, view: View, actor: str, action: Action) -> Declare | None:
        """The declaration under which ``actor`` may take ``action`` (the AI's first choice) and go on as it would."""
        return None

    def ai_focus(self, view: View, actor: str) -> str | None:
        """The foe ``actor`` declared it would attack this round: the tactical AI fights that one (WOA-CYCLE-21)."""
        return None
