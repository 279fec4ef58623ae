"""P10 active defense: what a defender may do around the attack roll (block, dodge…)."""

from __future__ import annotations

from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import EncounterState
from d20combat.numbers import Total
from d20combat.rulesets.components.component import AttackInfo, Component, RuleError, View


class NoActiveDefense(Component):
    """PFB: the target number is static; nobody rolls to defend."""

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        """The window before the roll: an active defense committed now, resolved by
        :meth:`resolve_active_defense` if the roll hits (none in PFB)."""
        return None

    def active_defense_options(self, view: View, attack: AttackInfo, total: int) -> tuple[str, ...]:
        """Responses the defender may choose after the attack roll (none in PFB)."""
        return ()

    def active_defense_prompt(self, view: View, attack: AttackInfo, roll: Total) -> ReactionPrompt | None:
        """The after-roll window: the prompt the defender answers, or None when it has no option."""
        options = self.active_defense_options(view, attack, roll.value)
        if not options:
            return None
        return ReactionPrompt(attack.target, "active_defense",
                              f"{attack.attacker}'s attack ({roll.value}) would hit {attack.target}",
                              (*options, "none"), detail=roll.explain())

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        """Roll the chosen response: (negates the attack, explanation)."""
        raise RuleError(f"no active defense {choice!r} in this ruleset")

    def attack_rolled(self, view: View, attack: AttackInfo, total: int, hit: bool) -> None:
        """After the attack roll and its active-defense window, before damage (nothing in PFB)."""

    def reaction_preference(self, state: EncounterState, prompt: ReactionPrompt) -> str:
        """What a sensible defender answers to a window this ruleset opens (for the AI)."""
        return prompt.options[0]
