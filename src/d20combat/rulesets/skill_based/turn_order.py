"""P2 turn order of the skill-based rules: what a creature adds to its initiative roll."""

from __future__ import annotations

from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import TurnOrder


class DexInitiative(TurnOrder):
    """SKL-INIT-01..05: rolled once, d20 + Dex modifier (SKL-INIT-03; no Improved Initiative), ties rolled off as
    in PFB (SKL-INIT-05); SKL-INIT-02 (variant ``skl_init_agility_score``): d20 + the Agility score."""

    def __init__(self, *, agility_score: bool = False) -> None:
        self.agility_score = agility_score

    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        """SKL-INIT-03: d20 + Dex modifier; SKL-INIT-02 (variant): d20 + the Agility score."""
        if self.agility_score:
            score = {k.lower(): v for k, v in creature.sheet.attributes.items()}.get("agility", 0)
            return [Modifier(score, "Agility score")]
        return [Modifier(creature.dex_mod, "Dex")]
