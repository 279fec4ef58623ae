"""The static side of an encounter: map, compiled creatures, ruleset. Built once from a scenario."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.model.creature import Creature
from d20combat.rulesets.base import Ruleset


@dataclass(frozen=True)
class StartingEffect:
    """A timed effect a creature starts with: it ends just before ``anchor``'s turn in round ``rounds + 1``."""

    name: str
    rounds: int
    anchor: str
    ac: int = 0
    attack: int = 0
    condition: str = ""


@dataclass(frozen=True)
class Placement:
    position: Square
    hp: int
    wielding: str | None
    shield_state: str
    conditions: frozenset[str] = frozenset()
    effects: tuple[StartingEffect, ...] = ()


@dataclass(frozen=True)
class Battle:
    game_map: GameMap
    creatures: Mapping[str, Creature]
    ruleset: Ruleset
    placements: Mapping[str, Placement]
    scenario: dict[str, Any] = field(default_factory=dict)
    surprised: tuple[str, ...] | None = None
    """Set by the scenario to skip the Stealth/Perception checks; None = roll them if anyone is sneaky."""
    initiative: Mapping[str, int] = field(default_factory=dict)
    """Fixed initiative results from the scenario (the GM's table); others are rolled."""
    max_rounds: int = 100
    ambush: Any = None
    """The scenario's ambush inputs (``scenario.schema.AmbushSpec``, Epic Path's EP-SURP), or None."""

    def footprint(self, cid: str, position: Square) -> Footprint:
        return Footprint(position, self.creatures[cid].space)

    @property
    def sides(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for c in self.creatures.values():
            seen.setdefault(c.side, None)
        return tuple(seen)
