"""P15 conditions: the named states a creature can be in, and what each one does."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import AttackInfo, Component, View


class NamedConditions(Component):
    """PFB names a few states (prone, paralyzed, helpless…) and rules on each where it arises; there is no
    condition table: a condition is its stored name."""

    def active(self, creature: Creature, state: CombatantState) -> frozenset[str]:
        """The conditions in force (stored and derived)."""
        return state.conditions

    def ability_score_changes(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Changes to every ability score from the conditions in force (PFB's named conditions change none)."""
        return []

    def skill_check_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        """Modifiers the creature's states give its check of ``skill`` (the core: none)."""
        return []

    def speed_ft(self, creature: Creature, state: CombatantState, speed: int) -> int:
        """The speed after the creature's states (the core: unchanged)."""
        return speed

    def touch_attack(self, view: View, attack: AttackInfo) -> bool:
        """Whether a state makes this attack target touch AC although the weapon is not a touch attack (the core:
        never)."""
        return False

    def flat_footed(self, view: View, target: str) -> bool:
        """Whether a state of ``target`` makes it flat-footed against every attack now (the core: none)."""
        return False

    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        """Why a state of the attacker or the target forbids this attack (the core: none)."""
        return None

    def damage_against(self, view: View, attack: AttackInfo, amount: int) -> tuple[int, str]:
        """Damage after the target's states (immunity, halving), before resistances. Returns (damage,
        explanation or ""); the core's states change nothing."""
        return amount, ""
