"""P4 surprise: who is surprised when the combat starts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from d20combat.dice import DiceSource
from d20combat.model.creature import Creature
from d20combat.rules.surprise import determine_surprise
from d20combat.rulesets.components.component import Component


class StealthSurprise(Component):
    """PFB-SURP-01..07: the scenario says who is surprised, or sneaky creatures roll Stealth against the
    others' Perception."""

    def determine(self, creatures: Mapping[str, Creature], given: tuple[str, ...] | None, dice: DiceSource
                  ) -> tuple[list[str], list[str]]:
        """(the surprised creatures, notes explaining why); ``given`` is the scenario's list, if any."""
        if given is not None:
            return list(given), ["(set by the scenario)"]
        sneakers = [c for c in creatures.values() if c.sneaky]
        sneaky_sides = {c.side for c in sneakers}
        perceivers = [c for c in creatures.values() if c.side not in sneaky_sides]
        return determine_surprise(sneakers, perceivers, dice)

    def settle(self, battle: Any, dice: DiceSource) -> Settled:
        """Who is surprised in the battle about to start, and whether there is a surprise round; the core's:
        :meth:`determine`, with a surprise round when anyone is surprised (PFB-SURP-04)."""
        surprised, notes = self.determine(battle.creatures, battle.surprised, dice)
        return Settled(surprised, notes, bool(surprised))


class Settled(NamedTuple):
    """What :meth:`StealthSurprise.settle` decides."""

    surprised: list[str]
    notes: list[str]
    """Every roll and reason (the GM's; a player's view shows only who is surprised)."""
    round: bool
    """A surprise round (also when nobody is surprised, EP-SURP-17)."""
    verdict: str = ""
    """Why, in words that name no hidden creature (the ambush check), shown to everyone."""
