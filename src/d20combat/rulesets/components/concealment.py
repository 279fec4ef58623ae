"""P18 concealment: the sources a defender has, how they combine, and when the miss chance is rolled."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.battlefield.concealment import ConcealmentSource, Vision, concealment_sources
from d20combat.battlefield.grid import Footprint, GameMap
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import AttackInfo, Component, View


class StrongestConcealment(Component):
    """PFB-CONC: only the strongest source counts; the d% is rolled before the attack roll."""

    before_roll: bool = True
    """PFB-CONC-09: the d% is rolled before the attack roll; a miss means no attack roll at all."""

    def rolled_before(self, reason: str) -> bool:
        """Whether the miss chance of this attack, whose strongest source is ``reason``, is rolled before the attack
        roll: :attr:`before_roll` for every source by default (a ruleset may time one source differently)."""
        return self.before_roll

    def concealment_sources(self, game_map: GameMap, attacker: Footprint, vision: Vision, target: Footprint,
                            defender: CombatantState, *, adjacent_melee: bool) -> tuple[ConcealmentSource, ...]:
        """Every concealment source the defender has against this attacker (PFB-CONC-02..17)."""
        return concealment_sources(game_map, attacker, vision, target, defender_invisible=defender.has("invisible"))

    def combine(self, sources: Sequence[ConcealmentSource]) -> tuple[int, str]:
        """PFB-CONC-07: only the strongest source counts. Returns (miss chance %, reason)."""
        if not sources:
            return 0, ""
        best = max(sources, key=lambda s: s.percent)
        return best.percent, best.reason

    # --- what the attacker meets: hooks with the core's behaviour (nothing changes) as default ----------------
    def observer_sources(self, view: View, attacker: str, target: str, option: AttackOption,
                         sources: tuple[ConcealmentSource, ...]) -> tuple[ConcealmentSource, ...]:
        """The sources as this attacker meets them: a ruleset's senses, what the attacker knows of the target's
        square, states that conceal (the core: the sources unchanged)."""
        return sources

    def attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """Attack-roll modifiers from being unseen (the core: none)."""
        return []

    def flat_footed_against(self, view: View, attacker: str, target: str) -> bool:
        """Whether ``target`` is flat-footed against this one attacker because it cannot see it (the core: never)."""
        return False

    def precision_allowed(self, view: View, attacker: str, target: str) -> bool:
        """Whether precision damage (sneak attack) may be dealt to ``target`` (the core: always)."""
        return True

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """After an attack was resolved: what the creatures learned of each other (the core: nothing)."""
